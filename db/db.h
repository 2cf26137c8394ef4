/*
 * db.h - Ringside's storage: the only code that talks to SQLite.
 *
 * One SQLite file holds accounts and fighters, bouts and leagues. db_open()
 * applies the schema migrations in order, each in its own transaction,
 * indexed by PRAGMA user_version; WAL, foreign keys and a busy timeout are
 * on. Every statement is prepared once, at open, and parameters are always
 * bound, never spliced into SQL.
 *
 * Names: accounts and fighters are looked up by a key the caller folds
 * (the bot folds with RFC 1459 case mapping), and keep the name as typed
 * for display.
 *
 * Functions return DB_OK, DB_NOTFOUND, DB_EXISTS, or DB_ERROR (the SQLite
 * message is then in db_errmsg()).
 */
#ifndef RINGSIDE_DB_H
#define RINGSIDE_DB_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define DB_NAME_MAX 32  /* account and fighter names, NUL included */
#define DB_HASH_MAX 160 /* password hash string, NUL included */
#define DB_FROM_MAX 64  /* where a failed login came from, NUL included */
/* A network's short name (migration 18: several bots, one database), NUL
 * included: the bot's [bot] network, as in alice@libera. */
#define DB_NETWORK_MAX 33
#define DB_NICK_MAX    64 /* a nick stored with its account, NUL included */

enum db_status { DB_OK = 0, DB_NOTFOUND = 1, DB_EXISTS = 2, DB_ERROR = -1 };

struct db;
struct str; /* util.h */

struct db_account {
    int64_t id;
    char name[DB_NAME_MAX];
    char hash[DB_HASH_MAX];
    int banned;
    int64_t created; /* unix time */
    int burnt;       /* the password was said in a channel: identify refuses it */
    /* Migration 8. */
    int admin;                     /* made or named an admin by the operator (--add-admin) */
    int failures;                  /* wrong passwords given since the last login */
    int64_t failed_at;             /* unix time of the last of them, 0 if none ever */
    char failed_from[DB_FROM_MAX]; /* where it came from (a host or a nick), or "" */
    char network[DB_NETWORK_MAX];  /* migration 18: its network, "" for none */
};

struct db_fighter {
    int64_t id;
    int64_t account_id;
    char owner[DB_NAME_MAX]; /* the owning account's name (filled by reads) */
    char name[DB_NAME_MAX];
    struct sheet sheet; /* sheet.rules is the ruleset */
    /* The owning account's network (migration 18; filled by reads): a
     * fighter of another network's player is shown as his, owner@network. */
    char owner_network[DB_NETWORK_MAX];
    int wins, losses, draws, kos;
    int training_points;
    int retired;
    int64_t created;
    /* Leagues (migration 3): new fighters are in BRONZE with nothing else. */
    int league;      /* enum league */
    int gold_record; /* 3 x league wins in GOLD + ties in GOLD, since reset */
    int paused;      /* league turns still to sit out */
    int trained;     /* sugarray: trained since the last turn */
    int missed;      /* missed his last turn (no plan): no training until next */
    /* How his wins ended (migration 9; `kos` above counts knockouts only
     * from then on, and keeps what older records counted as KOs): by the
     * referee's or the doctor's stoppage, by the towel his opponent's plan
     * threw in (a duel: yielded), by the opponent's disqualification, by
     * the opponent's forfeit (conceded by his own word). */
    int tkos, towels, dqs, forfeits;
    /* The record of the season running (migration 13; read only: a save
     * moves it with wins, losses and draws, a season's end resets it). */
    int season_wins, season_losses, season_draws;
};

/* Opens (creating if needed) the database at `path` and migrates it to the
 * current schema. Returns NULL on failure with a one-line reason in errbuf
 * (errbuf may be NULL): "cannot open PATH: ...", "PATH: migration N failed:
 * ...", or, for a file written by a newer ringside (which is left untouched),
 * "PATH has schema version N, this ringside knows up to M; upgrade ringside".
 * The caller owns the result and frees it with db_close(). */
struct db *db_open(const char *path, char *errbuf, int errlen);
/* The bot's open: db_open, guarded by a marker file beside the database,
 * PATH.id, which holds the database's random id (migration 7). A missing
 * database whose marker exists is refused ("PATH is missing, but PATH.id
 * says database ID was kept there: restore it ... or start afresh with
 * ringside --init ..."), never created empty in silence; so is a database
 * whose id is not the marker's. With neither file, both are created; a
 * database without a marker gets one. `init` (ringside --init) creates a
 * new database even when the marker names an old one, and refuses a file
 * that exists. An in-memory database has no marker. NULL with the reason
 * in errbuf on failure. */
struct db *db_open_marked(const char *path, int init, char *errbuf, int errlen);
/* The database's random id (32 hex digits) into buf: DB_OK or DB_ERROR. */
int db_id(struct db *db, char *buf, size_t len);
/* 1 once a write found the database's path no longer naming the file the
 * connection opened (deleted, or another file moved in its place): every
 * write is then refused, with "the database file PATH is gone ..." in
 * db_errmsg, until the program restarts. Checked by db_begin and by every
 * write outside a transaction (one stat of the path). */
int db_gone(struct db *db);
/* 1 when the last failure was another connection's lock held past the
 * busy timeout (nothing was stored; trying again later may work). */
int db_busy(struct db *db);
/* What a player is told of a failed write, in a few words: the file gone,
 * the database busy, or "database error". A static string. */
const char *db_why(struct db *db);
/* How long a statement waits for another connection's lock, in ms (5000
 * from db_open; the bot waits less, so that its loop never stalls). */
void db_busy_timeout(struct db *db, int ms);
/* Gives back the memory the connection holds but does not need now (the
 * page cache's unused pages: what opening and loading read); the next
 * reads fill it again as they need. NULL is harmless. */
void db_release_memory(struct db *db);

/* The network lease (issue 29, failover): one bot at a time runs a
 * network on one database; another with the same configuration waits as
 * a standby until the lease is free.
 * db_lease_take takes it for `network` ("" for a bot that names none):
 * DB_OK once held (again: still held), DB_EXISTS while another process
 * holds it, DB_ERROR with the reason in db_errmsg. On PostgreSQL it is a
 * session advisory lock on this connection, the one every write goes
 * through: a session the server dropped holds nothing and commits
 * nothing. `seconds` (the failover time) sets the keepalives of both ends
 * so that a peer cut off loses its session, and the lock, within about
 * half of it. A lost connection made again takes the lease again before
 * any statement runs; if another process has it now, the lease is lost for
 * good and every statement of this connection is refused: close it and
 * open the database again; while the server cannot be reached the lease
 * is away, statements are refused, and db_lease_check tries again. On SQLite
 * it is an exclusive flock on PATH.lock, one bot a file whatever its
 * network (the kernel frees it when the process dies); an in-memory
 * database needs none. */
int db_lease_take(struct db *db, const char *network, int seconds);
/* Whether the lease is still held: DB_OK; DB_NOTFOUND while it is away
 * (the server cannot be reached: nothing is stored, and a later check may
 * find the server and the lease again); DB_ERROR once it is lost for good
 * (another process took it): the reason in db_errmsg. On PostgreSQL this
 * asks the server (a round trip, which finds a lost session and takes the
 * lease again on a new one if it can); on SQLite it cannot be lost. */
int db_lease_check(struct db *db);
/* The same as the last statement or check found it, without a round
 * trip: DB_OK, DB_NOTFOUND (away) or DB_ERROR (lost for good). */
int db_lease_state(struct db *db);
/* 1 when the lease can be lost while the process lives (PostgreSQL's, a
 * session's), so that it is worth checking now and then; 0 for SQLite's
 * flock, which lasts as long as the process. */
int db_lease_lapses(const struct db *db);
/* Gives SQLite's lease back (its lock file closed) before db_close; on
 * PostgreSQL the lock goes with the session db_close ends. NULL and a
 * connection without a lease are harmless. */
void db_lease_release(struct db *db);
/* Presence (issue 29, bouts between two networks; lease.c): a bot says
 * whether it is on IRC and in its channel, so that the owner of a bout
 * with one of its players knows whether he can be reached.
 * db_presence_set(db, 1) holds it for the connection's network
 * (db_network_set) on this session, taking it again on a new one
 * (a reconnection), and is cheap to repeat; db_presence_set(db, 0) gives
 * it back. DB_OK, or DB_ERROR with why. On PostgreSQL a second session
 * advisory lock ("ringside present NAME"), lost with the session as the
 * lease is; on SQLite nothing (one bot a file), always DB_OK.
 * db_network_present: 1 when a bot of `network` holds it, 0 when none
 * does (or SQLite), -1 when the server could not be asked. */
int db_presence_set(struct db *db, int present);
int db_network_present(struct db *db, const char *network);

/* A scheduled job (a league turn by its interval, a tournament's
 * schedule) runs in one process of those sharing a database (issue 29).
 * db_job_lock(db, name) tries to take job `name` without waiting: DB_OK
 * once this process holds it (asking again while held holds it once more:
 * unlock as many times), DB_EXISTS while another process holds it (skip
 * the job quietly: that one runs it), DB_ERROR with the reason in
 * db_errmsg. Holding it does not make the job due: read again, under it,
 * whether it still is (another process may have run it just before).
 * db_job_unlock gives it back; a session that ends (a process killed, a
 * connection lost) frees it. On PostgreSQL a session advisory lock; on
 * SQLite always DB_OK (one bot a file: db_lease_take). NULL-safe unlock. */
int db_job_lock(struct db *db, const char *name);
void db_job_unlock(struct db *db, const char *name);

/* Finalizes every statement and closes the file; NULL is harmless. */
/* Opens an existing database for reading only: nothing is created,
 * migrated or written (ringside-sim --replay reads the bot's file while it
 * runs). The file must be at this program's schema version. NULL with a
 * reason in errbuf otherwise. */
struct db *db_open_readonly(const char *path, char *errbuf, int errlen);
void db_close(struct db *db);
/* The message of this connection's last failure (an SQLite message or one
 * of db/'s own, such as "fighter name is 40 bytes, the most is 31"); valid
 * until the next call on `db`. */
const char *db_errmsg(struct db *db);
/* The schema version (PRAGMA user_version), or -1 on error. */
int db_schema_version(struct db *db);
/* The schema version this ringside migrates files to (the number of
 * migrations it knows). */
int db_schema_latest(void);

/* Networks (migration 18): several bots, each on its own IRC network,
 * share one database. An account belongs to one network (alice@libera and
 * alice@oftc are two players): every account function below looks up,
 * makes, burns within the connection's network, "" (no network: a single
 * bot's, and every account made before migration 18) until
 * db_network_set. Fighters, leagues, ratings and champions are shared. */
/* Sets the connection's network (a bot calls it once, after the open,
 * with its [bot] network, "" included): its accounts from then on, the
 * network of the bouts it creates, and db_bout_list/db_bout_unsaid list
 * that network's bouts only (a connection that never called it, as the
 * pages', lists every network's). DB_ERROR if `network` is too long. */
int db_network_set(struct db *db, const char *network);
/* The connection's network ("" for none). */
const char *db_network(const struct db *db);

/* Bouts between two networks (db/notify.c, issue 29; PostgreSQL only: on
 * SQLite the writers say DB_ERROR with why, the readers DB_NOTFOUND). The
 * owner of such a bout and the other network's bot exchange rows of the
 * table relay, each committed before a NOTIFY "ringside" whose payload
 * is the network that reads it. */
enum db_relay_kind {
    DB_RELAY_SAY,  /* a line for the reading network: to account (0: its channel) */
    DB_RELAY_CMD,  /* a command of account's player, for the bout's owner */
    DB_RELAY_DROP, /* round `round` of `bout` is fought: its prompts still waiting go */
};
struct db_relay {
    int64_t id;
    enum db_relay_kind kind;
    int64_t account; /* say: the player told, 0 for the channel; cmd: who said it */
    char target[64]; /* say: the player's account name; cmd: the command */
    char text[2048]; /* the line; the command's words */
    int64_t bout;    /* say, drop: the bout it is about (0: none) */
    int round;       /* say: a prompt's round, else the rounds fought; drop: the round */
};
/* 1 on PostgreSQL, 0 on SQLite. */
int db_is_pg(const struct db *db);
/* 1 when a bot of `network` holds its lease (PostgreSQL), else 0. */
int db_network_running(struct db *db, const char *network);
/* LISTENs (the relay table is migration 20's): DB_OK, or DB_ERROR (not
 * PostgreSQL, or the server refused). */
int db_notify_listen(struct db *db);
/* The socket to select on for notifications, or -1 (not listening). */
int db_notify_fd(struct db *db);
/* 1 when a notification for the connection's network came (or a new
 * session listens again, so rows may wait), 0 if none, -1 on a failure. */
int db_notify_poll(struct db *db);
/* Stores a row about no bout for `network`'s bot (a command, an answer)
 * and notifies it: DB_OK or DB_ERROR. Never merged with another row. */
int db_relay_put(struct db *db, const char *network, enum db_relay_kind kind, int64_t account,
                 const char *target, const char *text);
/* Stores a line about bout `bout` for `network`'s bot (to account's
 * player `target`, or with account 0 and target "" its channel) and
 * notifies it. `round` > 0: a prompt (or a line) about that round, which
 * db_relay_drop withdraws; 0: a line that stays true, stored with the
 * rounds the bout has fought (committed); < 0: commentary of round -round
 * said again after a restart, stored only when `network` has no channel
 * line of the bout from that round on. DB_OK when stored, DB_EXISTS when
 * the same line (network, bout, round, player, words) is stored already
 * or the round was relayed before, DB_ERROR. */
int db_relay_say(struct db *db, const char *network, int64_t account, const char *target,
                 const char *text, int64_t bout, int round);
/* Round `round` of bout is fought (INT_MAX: the bout is over): deletes
 * `network`'s unread lines to a player about rounds 1 to `round` and
 * stores a 'drop' row, so its bot drops those it read and has not said.
 * DB_OK or DB_ERROR. */
int db_relay_drop(struct db *db, const char *network, int64_t bout, int round);
/* The first unsaid row for the connection's network after id `after`:
 * DB_OK, DB_NOTFOUND when none (or not listening), DB_ERROR. */
int db_relay_next(struct db *db, int64_t after, struct db_relay *out);
/* The connection's network's rows with ids from `from` to `upto` are
 * done at `now` (wall seconds): lines are marked said (kept a day, then
 * deleted: a line written again meanwhile is not said again), commands
 * and drops deleted. DB_OK or DB_ERROR. */
int db_relay_done(struct db *db, int64_t from, int64_t upto, int64_t now);
/* The connection's network's commands and drops with ids from `from` to
 * `upto` deleted (lines untouched): a db_relay_done that failed after they
 * ran, tried again. DB_OK or DB_ERROR. */
int db_relay_forget(struct db *db, int64_t from, int64_t upto);
/* A turn's rows for other networks' bots, held to be written together
 * (db_relay_write), so that a bot killed between two rows of one round
 * leaves all of them or none. A held row is one of db_relay_say's (kind
 * SAY with a bout), db_relay_put's (SAY without a bout, CMD) or
 * db_relay_drop's (DROP), with their arguments. */
struct db_relay_row {
    enum db_relay_kind kind;
    char network[DB_NETWORK_MAX];
    int64_t account;
    char target[64];
    char *text; /* the batch's copy (NULL for a drop) */
    int64_t bout;
    int round;
};
struct db_relay_batch {
    struct db_relay_row *row;
    int n, cap;
};
/* Adds a copy of row (its text copied) to b. */
void db_relay_hold(struct db_relay_batch *b, const struct db_relay_row *row);
/* Writes b's rows in order in ONE transaction, each notified at its
 * commit; `each` (NULL: none; tests) is called before each row with its
 * index. DB_OK: all written (a line stored already counts as written),
 * b emptied; DB_ERROR: none written (rolled back, or not begun: inside
 * another transaction, or not PostgreSQL), b kept as it was. */
int db_relay_write(struct db *db, struct db_relay_batch *b,
                   void (*each)(void *ctx, const struct db_relay_batch *b, int i), void *ctx);
/* Empties b (its rows forgotten) and gives back its memory. */
void db_relay_batch_free(struct db_relay_batch *b);
/* The open challenge or live bout of another network's bot in which
 * account_id fights (the newest): its id and network; DB_NOTFOUND if none. */
int db_remote_bout(struct db *db, int64_t account_id, int64_t *bout, char *network, size_t size);
/* The network of bout's player who is not of the connection's: DB_OK,
 * DB_NOTFOUND when both are (a bout of one network). */
int db_bout_network_other(struct db *db, int64_t bout, char *network, size_t size);
/* A corner of a bout as the other network names it (db_bout_sides). */
struct db_bout_side {
    char fighter[DB_NAME_MAX];
    char owner[DB_NAME_MAX];      /* his player's account */
    char network[DB_NETWORK_MAX]; /* the account's network */
};
/* Bout's two corners (side 0 the challenger's): DB_OK, DB_NOTFOUND, DB_ERROR. */
int db_bout_sides(struct db *db, int64_t bout, struct db_bout_side side[2]);
/* Account id's name and network, whatever its network: DB_OK or DB_NOTFOUND. */
int db_account_by_id(struct db *db, int64_t id, char *name, size_t nsize, char *network,
                     size_t wsize);
/* A bot's first start with a network on a database grown from a single
 * bot's: when every account is of no network (''), they all become the
 * connection's network's, with their burnt passwords; *claimed gets how
 * many (0 when some account already has a network, or the connection's
 * network is ""). One transaction of its own. DB_OK or DB_ERROR. */
int db_network_claim(struct db *db, int64_t *claimed);

/* Accounts. `key` is the folded name, `name` as typed; both non-empty and
 * at most DB_NAME_MAX - 1 bytes, the hash at most DB_HASH_MAX - 1 bytes, else
 * DB_ERROR (the bot checks names first: a longer one is a bug, not input).
 * Keys are compared exactly, byte for byte. */

/* Creates an account (not banned). Returns DB_EXISTS if `key` is taken;
 * on DB_OK sets *id (if id is not NULL). */
int db_account_create(struct db *db, const char *key, const char *name, const char *hash,
                      int64_t now, int64_t *id);
/* Fills *out with the account of `key`, or returns DB_NOTFOUND. */
int db_account_get(struct db *db, const char *key, struct db_account *out);
/* The same on `network` rather than the connection's: an account of
 * another network, named alice@libera (read only: every write is the
 * account's own network's bot's). DB_ERROR if `network` is too long. */
int db_account_get_on(struct db *db, const char *network, const char *key, struct db_account *out);
/* Replace the hash / set or clear the ban (any nonzero `banned` is 1) of
 * account `id`. DB_NOTFOUND if there is no such account. */
int db_account_set_hash(struct db *db, int64_t id, const char *hash);
int db_account_set_banned(struct db *db, int64_t id, int banned);
/* Marks account `id` as an admin the operator made (1) or takes the mark
 * away (0). DB_NOTFOUND if there is no such account. */
int db_account_set_admin(struct db *db, int64_t id, int admin);
/* Counts one more wrong password for account `id`, given at unix time
 * `now` from `from` (a host or a nick; cut to DB_FROM_MAX - 1 bytes). */
int db_account_failed(struct db *db, int64_t id, int64_t now, const char *from);
/* Forgets the wrong passwords of account `id` (a successful login). */
int db_account_failures_clear(struct db *db, int64_t id);
/* Counts one more fighter created by account `id` on `day` (unix time /
 * 86400, UTC) unless it created `most` on that day already (migration 21:
 * the count survives the fighters, whom a retirement may delete). DB_OK
 * when counted; DB_NOTFOUND when `most` were made that day (or there is no
 * such account): nothing changed. */
int db_account_made(struct db *db, int64_t id, int64_t day, int most);
/* Counts one more challenge issued by account `id` on `day` (unix time /
 * 86400, UTC) unless it issued `most` on that day already (migration 23:
 * a challenge withdrawn, declined or expired leaves a cancelled bout).
 * Meant for the transaction that stores the challenge's bout. DB_OK when
 * counted; DB_NOTFOUND when `most` were issued that day (or there is no
 * such account): nothing changed. */
int db_account_challenged(struct db *db, int64_t id, int64_t day, int most);
/* The nick the player of account `id` was last identified under
 * (migration 22; at most DB_NICK_MAX bytes with the NUL): set stores it
 * (nothing written when it is the one stored; DB_OK also when there is no
 * such account), get copies it into out ("" when none was stored yet;
 * DB_NOTFOUND if there is no such account, DB_ERROR if it does not fit). */
int db_account_nick_set(struct db *db, int64_t id, const char *nick);
int db_account_nick_get(struct db *db, int64_t id, char *out, size_t size);

/* Burnt passwords (migration 5): passwords said where others saw them.
 * They are kept as hashes only, under an account's key, which need not be
 * registered yet; at most DB_BURNT_MAX per key, the newest. */
#define DB_BURNT_MAX 8

/* Burns the current password of account `key`: the account is marked burnt
 * (db_account_get's `burnt`) until db_account_set_hash gives it a new hash,
 * and its hash joins the burnt hashes of `key`. DB_NOTFOUND if there is no
 * such account. The mark is set first, so a failure after it still leaves
 * the password refused. */
int db_account_burn(struct db *db, const char *key, int64_t now);
/* Adds `hash` (a password's hash, never the text) to the burnt hashes of
 * `key`; one already there is kept as it was. */
int db_burnt_add(struct db *db, const char *key, const char *hash, int64_t now);
/* Fills hashes[0..max) with the burnt hashes of `key`, newest first; *n gets
 * how many (0 on error or when there are none). */
int db_burnt_list(struct db *db, const char *key, char (*hashes)[DB_HASH_MAX], int max, int *n);

/* Fighters. Fighter names are unique across every ruleset (folded key); the
 * key and name follow the rules of account names. A fighter's ruleset is set
 * at creation and never changes. */

/* Stores a new fighter from *f: account_id, name, sheet (its ruleset and
 * the abilities in range, else DB_ERROR), record, training points, retired,
 * created and the league fields (league an enum league, gold_record and
 * paused not negative, else DB_ERROR; trained and missed any nonzero is 1: a
 * zeroed struct is a BRONZE fighter with nothing else). On DB_OK sets
 * f->id. DB_EXISTS if `key` is taken, DB_NOTFOUND if account f->account_id
 * does not exist. f->owner is not read. */
int db_fighter_create(struct db *db, const char *key, struct db_fighter *f);
/* Fills *out (owner included) with the fighter of `key`, or returns
 * DB_NOTFOUND. */
int db_fighter_get(struct db *db, const char *key, struct db_fighter *out);
/* Fills out[0..max) with the fighters of an account, ordered by creation
 * time then id, the retired ones included only when `retired` is nonzero;
 * *n gets how many were filled: at most max even when the account has more
 * (0 on error, or for an account that does not exist). */
int db_fighter_list(struct db *db, int64_t account_id, int retired, struct db_fighter *out, int max,
                    int *n);
/* Writes the sheet (every field of its ruleset; the ruleset itself must be
 * the stored one, else DB_ERROR), the record (wins, losses, draws, kos, and
 * tkos towels dqs forfeits), the
 * training points and the league fields (checked as by create) of fighter
 * f->id. DB_NOTFOUND if there is none. */
int db_fighter_save(struct db *db, const struct db_fighter *f);
/* db_fighter_save for a caller who knows the league stored (a league turn):
 * when f->league is `stored_league` the league is left as it is, which
 * spares SQLite its CHECK (whose IN list makes SQLite build a temporary
 * b-tree at every save that sets the league). A `stamp` above 0 is stored
 * as the row's change stamp (migration 17) instead of the one more than
 * the highest that the statement would read: for a turn that read the
 * highest once (db_fighter_stamp_top) and numbers its saves in order,
 * which gives the same stamps. */
int db_fighter_save_from(struct db *db, const struct db_fighter *f, int stored_league,
                         int64_t stamp);
/* The highest change stamp of the fighters (0: none) into *top. DB_OK or
 * DB_ERROR. */
int db_fighter_stamp_top(struct db *db, int64_t *top);
/* Marks fighter `id` retired (again: no change). DB_NOTFOUND if none. */
int db_fighter_retire(struct db *db, int64_t id);
/* Deletes fighter `id` and his plan when nothing else refers to him (no
 * bout or challenge, rating, tournament, season or title row: he never
 * fought), and counts one more fighter gone (db_fighter_gone). Inside the
 * caller's transaction (a failure leaves it to roll back). DB_OK when
 * deleted; DB_EXISTS when something refers to him (nothing changed: the
 * caller retires him instead); DB_NOTFOUND if there is no such fighter. */
int db_fighter_remove(struct db *db, int64_t id);
/* How many fighters db_fighter_remove deleted, ever (0: none), into
 * *count: a reader that keeps fighters (ringside-web's standings) reads
 * them all again when it moves. DB_OK or DB_ERROR. */
int db_fighter_gone(struct db *db, int64_t *count);

/* State of the connection, for tests and diagnostics: 1 if the journal
 * mode is WAL / foreign keys are enforced, 0 if not, -1 on error. */
int db_journal_wal(struct db *db);
int db_foreign_keys(struct db *db);

/* Fills *out (owner included) with fighter `id` (bouts refer to fighters by
 * id), or returns DB_NOTFOUND. */
int db_fighter_get_id(struct db *db, int64_t id, struct db_fighter *out);
/* A bout's two fighters id[] as its pages and replays name them, in one
 * read (db/page.c): out[s] holds id, owner, owner_network, name and the record (wins,
 * losses, draws, kos, tkos, towels, dqs, forfeits), the rest zero. DB_OK;
 * DB_NOTFOUND when one is missing; DB_ERROR, also for a name too long to
 * hold (db_fighter_get_id gives those cut short). */
int db_bout_corners(struct db *db, const int64_t id[SIDES], struct db_fighter out[SIDES]);
/* The network of the account owning each fighter id[0..n) into net[i]
 * (db/page.c; "" for none, or for a fighter that is no more), for pages
 * that name an owner from an archive (the seasons'): DB_OK or DB_ERROR. */
int db_fighter_networks(struct db *db, const int64_t *id, int n, char (*net)[DB_NETWORK_MAX]);

/* ------------------------------------------------------------ transactions */

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK on this connection. Everything a
 * resolved round changes is written in one transaction, so a crash leaves
 * either all of it or none:
 *
 *     db_begin; db_order_put x2; db_round_put; db_bout_save;
 *     [db_fighter_save x2 when the bout ends;] db_commit
 *
 * Every other function works inside a transaction and outside one; outside,
 * each call is its own transaction, committed (and so surviving kill -9 of
 * the process, see db_open's WAL notes in db.c) when it returns DB_OK.
 *
 * Not nested: db_begin inside a transaction is DB_ERROR ("a transaction is
 * already open"), and so are db_commit and db_rollback outside one. db_begin
 * takes the write lock at once (waiting up to the busy timeout for another
 * connection). A failed call inside a transaction, db_commit's included,
 * leaves it to db_rollback, which ends it and keeps db_errmsg()'s message
 * of that failure. A write refused inside a transaction changed nothing
 * and the transaction may go on; but if SQLite had to roll it back itself
 * (an I/O error, say), every call but db_rollback is DB_ERROR until then,
 * so a transaction is never half written, even by a caller that goes on
 * after an error. db_close rolls back an open transaction. */
int db_begin(struct db *db);
int db_commit(struct db *db);
int db_rollback(struct db *db);

/* A read transaction (BEGIN DEFERRED ... COMMIT), for a reader that wants
 * one consistent view over several calls, on a read-only connection too:
 * a web page reads its fighters and bouts as of one moment while the bot
 * writes. Not nested, and not inside db_begin's transaction (DB_ERROR).
 * db_read_end always ends it. */
int db_read_begin(struct db *db);
int db_read_end(struct db *db);
/* A number that changes whenever another connection has committed a
 * change to the file since this connection last looked (PRAGMA
 * data_version): what a reader's cache is keyed on. -1 on error. */
long long db_data_version(struct db *db);

/* ------------------------------------------------------------------ bouts */

#define DB_CHANNEL_MAX 64              /* a bout's channel, NUL included */
#define DB_ORDER_MAX   64              /* an order in its normal form, NUL included */
#define DB_REPORT_MAX  (64 * 1024 + 1) /* a round's summary or report: 64 KiB, and the NUL */

enum db_bout_state { DB_BOUT_CHALLENGE, DB_BOUT_LIVE, DB_BOUT_OVER, DB_BOUT_CANCELLED };

/* What a bout counts for: a challenge between friends (records only), a
 * league bout of a turn, or a title bout. */
enum db_bout_kind { DB_BOUT_EXHIBITION, DB_BOUT_LEAGUE, DB_BOUT_TITLE };

/* Where a round's order came from. */
enum db_order_source {
    DB_ORDER_PLAYER,  /* sent by the player */
    DB_ORDER_PLAN,    /* his fight plan (line says which) */
    DB_ORDER_LAST,    /* his orders of the round before */
    DB_ORDER_DEFAULT, /* the ruleset's default */
};

/* Enums are stored by name, so a value out of range is refused on write
 * (DB_ERROR), and a row whose stored values this code does not know (a file
 * edited by hand) is DB_ERROR on read, never garbage. */
struct db_bout {
    int64_t id;
    enum rules rules;
    char channel[DB_CHANNEL_MAX]; /* non-empty */
    int rounds;                   /* scheduled, at least 1 */
    uint64_t seed;                /* set when the bout starts; stored bit for bit */
    enum db_bout_state state;
    int64_t fighter[SIDES];    /* side 0 is the challenger; two different fighters */
    struct sheet sheet[SIDES]; /* the sheets the bout began with (a finished bout replays) */
    enum db_bout_kind kind;    /* migration 3; exhibition by default */
    int turn;                  /* league and title bouts: the turn's number, else 0 */
    int league;                /* league bouts: enum league, else -1 */
    int round;                 /* rounds resolved and stored, 0..rounds */
    /* The result once over: winner 0/1 or -1, and the engine's enums. */
    int winner;
    enum method method;
    enum method drawn_by;
    enum tko_reason reason;
    enum decision decision;
    int64_t created, started, ended; /* unix times; 0 when not yet */
    /* Migration 4: the digest of the rounds fought so far (bout_digest),
     * written by db_bout_save; has_digest 0 for bouts fought before. */
    uint64_t digest;
    int has_digest;
};

/* Stores a new bout from every field of *b but id (a challenge: state
 * DB_BOUT_CHALLENGE, seed 0, round 0, winner -1, the result enums NONE,
 * started and ended 0); sets b->id. DB_NOTFOUND if a fighter does not
 * exist; DB_ERROR if a field is out of range (the ruleset one with storage,
 * channel, rounds, round, winner, the enums, two different fighters). The
 * bout's ruleset is not checked against its fighters'.
 * The kind decides what of turn and league is stored, and *b is set to
 * match: an exhibition stores turn 0 and league -1 whatever *b holds (a
 * zeroed challenge is an exhibition); a title bout its turn (at least 1,
 * else DB_ERROR) and league -1; a league bout its turn (at least 1) and its
 * league (an enum league), else DB_ERROR. */
int db_bout_create(struct db *db, struct db_bout *b);
/* Fills *out with bout `id`, or returns DB_NOTFOUND. */
int db_bout_get(struct db *db, int64_t id, struct db_bout *out);
/* Writes state, seed, round, the result fields (winner, method, drawn_by,
 * reason, decision), started and ended of bout b->id (the rest never
 * changes and is not read). DB_NOTFOUND if there is none. */
int db_bout_save(struct db *db, const struct db_bout *b);
/* Fills out[0..max) with the bouts in `state`, oldest first (created, then
 * id); *n gets how many: at most max even when there are more, 0 on error.
 * A connection whose network was set (db_network_set: a bot's) lists its
 * network's bouts only, which are the ones it runs. */
int db_bout_list(struct db *db, enum db_bout_state state, struct db_bout *out, int max, int *n);

/* For the web pages. The bouts of fighter `fighter` that were fought or
 * are being fought (live and over, not challenges or cancelled ones), the
 * live first, then the last to end first; and the finished bouts of
 * ruleset `rules` and kind `kind` (an enum db_bout_kind; either -1: any),
 * the last to end first (by `ended`, then the newest by id).
 * Fill out[0..max); *n gets how many: at most max even when there are
 * more, 0 on error. */
int db_bout_list_fighter(struct db *db, int64_t fighter, struct db_bout *out, int max, int *n);
int db_bout_list_over(struct db *db, int rules, int kind, struct db_bout *out, int max, int *n);

struct db_order {
    int round;               /* 1-based */
    int side;                /* 0 or 1 */
    char text[DB_ORDER_MAX]; /* normal form (order_format), non-empty */
    enum db_order_source source;
    int line; /* plan line for DB_ORDER_PLAN, else 0 */
};

/* Stores (or replaces: an upsert) the order of o->side for o->round of bout
 * `bout` (one stored with db_order_put_bout's too: the bout's orders then
 * move to a row each). DB_NOTFOUND if there is no such bout; DB_ERROR if a field is out
 * of range (a line other than 0 for a source other than DB_ORDER_PLAN
 * included). */
int db_order_put(struct db *db, int64_t bout, const struct db_order *o);
/* Stores the orders of a bout fought all at once (a league or title bout,
 * already created) in one row: o[0..n) are its whole set, by round then
 * side (round 1 side 0, round 1 side 1, round 2 side 0, ...), n > 0 and
 * even. db_order_list reads them back as they were given. For a bout
 * without orders yet (a live bout's arrive one by one, with db_order_put).
 * DB_NOTFOUND if there is no such bout; DB_ERROR if a field is out of range
 * or the set is not whole, or the bout has a set stored already. */
int db_order_put_bout(struct db *db, int64_t bout, const struct db_order *o, int n);
/* Fills out[0..max) with the stored orders of a bout, by round then side;
 * *n gets how many: at most max even when there are more (0 on error, or
 * for a bout that does not exist). */
int db_order_list(struct db *db, int64_t bout, struct db_order *out, int max, int *n);

/* Stores (or replaces) the digest of a resolved round (round is 1-based;
 * see bout_digest in game/). DB_NOTFOUND if there is no such bout. */
int db_round_put(struct db *db, int64_t bout, int round, uint64_t digest);
/* The digest stored with a round into *digest; DB_NOTFOUND when the round
 * has no row, or a row stored before digests (schema 3, which kept its
 * report instead). */
int db_round_digest(struct db *db, int64_t bout, int round, uint64_t *digest);
/* Copies the report text a round stored before schema 4 into out (len
 * bytes, NUL included); "" for rounds stored since (reports are derived
 * now); DB_NOTFOUND if no row, DB_ERROR (out unchanged) if it does not fit:
 * a buffer of DB_REPORT_MAX bytes always does. */
int db_round_report(struct db *db, int64_t bout, int round, char *out, size_t len);
/* Records that the commentary of bout `id` has gone out up to `round`. */
int db_bout_said(struct db *db, int64_t id, int round);
/* Exhibition bouts with rounds stored but not said (a crash came between):
 * ids[] and said[] (the last round said) of up to max, oldest first; of
 * the connection's network only once it was set (db_bout_list). */
int db_bout_unsaid(struct db *db, int64_t *ids, int *said, int max, int *n);

/* ------------------------------------------------------------------ plans */

#define DB_PLAN_MAX 8200 /* PLAN_BYTES_MAX and the NUL, with room */

/* A fighter's stored plan text: non-empty, at most DB_PLAN_MAX - 1 bytes.
 * set stores or replaces it (DB_NOTFOUND if there is no such fighter);
 * get copies it into out (len bytes, NUL included; DB_ERROR, out unchanged,
 * if it does not fit: DB_PLAN_MAX bytes always do; DB_NOTFOUND when the
 * fighter has no plan); clear removes it (DB_OK whether or not there was
 * one). */
int db_plan_set(struct db *db, int64_t fighter, const char *text, int64_t now);
int db_plan_get(struct db *db, int64_t fighter, char *out, size_t len);
int db_plan_clear(struct db *db, int64_t fighter);

/* ------------------------------------------------------------------ audit */

#define DB_AUDIT_MAX 512 /* who or what of an audit entry, NUL included */

/* Records what an admin did (who, what: non-empty, at most DB_AUDIT_MAX - 1
 * bytes each), for the game master's log: the audit table, read with the
 * sqlite3 shell. */
int db_audit(struct db *db, int64_t now, const char *who, const char *what);

/* ------------------------------------------------------------ tests only */

/* For tests, which cannot run SQL: opens (creating if needed) the database
 * at `path`, migrates it to schema version `version` only (0 to
 * db_schema_latest(); a file already past it is refused), runs `sql` (any
 * number of statements, or NULL) and closes it. Makes files of older
 * versions, and rows the API refuses to write. Returns DB_OK, or DB_ERROR
 * with a reason in errbuf (which may be NULL). Never used by the bot. */
int db_test_file(const char *path, int version, const char *sql, char *errbuf, int errlen);
/* The same for PostgreSQL: connects to `uri` (no schema made, none
 * migrated), runs `sql` (any number of statements, as one simple query:
 * a whole schema script) and disconnects. DB_OK, or DB_ERROR with the
 * reason in errbuf. Never used by the bot (the tests make databases of an
 * older version with it). */
int db_test_pg(const char *uri, const char *sql, char *errbuf, int errlen);

/* Fault injection, SQLite's way (its tests' do_faultsim_test): a test makes
 * the Nth step fail and checks that the caller's failure branch leaves the
 * file as it was, says so, and that the next attempt succeeds. Compiled into
 * every build, as the cost is one counter check per step; nothing but the
 * tests sets it (the bot, the simulator and the web server never do).
 *
 * The steps counted: every statement step through db/ (reads and writes,
 * BEGIN and COMMIT); while opening, each pragma, each statement of a
 * migration, its version bump and its BEGIN and COMMIT. ROLLBACK is never
 * counted: it is how a failure is cleaned up, not one. The fault fires once:
 * that step is not run and the call fails as SQLite's SQLITE_IOERR would,
 * through the usual path (DB_ERROR, db_errmsg() "disk I/O error (injected
 * fault)"); a transaction it interrupts stays open for the caller's
 * db_rollback; the hook is then off.
 *
 * db_fault_after: after n more steps (n >= 0), the next one fails (n = 0:
 * the very next); n < 0 turns the hook off. db_fault_pending: 1 while it is
 * set and has not fired (so a caller that returned with it still pending
 * ran fewer than n + 1 steps). db_open_fault: db_open with the hook set from
 * its first step, for the migrations (n < 0: db_open itself). */
void db_fault_after(struct db *db, long n);
int db_fault_pending(const struct db *db);
struct db *db_open_fault(const char *path, long n, char *errbuf, int errlen);

/* Everything the file holds, as text, for tests comparing a database with a
 * snapshot: its schema version, its schema (every table, index and trigger
 * with its SQL) and every row of every table (sqlite_sequence included),
 * one line each, "table|value|value...", the rows of a table sorted, values
 * typed (NULL, 42, 1.5, 'text', x'0a'). Appended to *out; the fault hook does
 * not count its steps. db_dump reads an open connection (outside a
 * transaction); db_dump_file opens `path` read-only and closes it. Return
 * DB_OK, or DB_ERROR (with a reason in db_errmsg(), or in errbuf). */
int db_dump(struct db *db, struct str *out);
int db_dump_file(const char *path, struct str *out, char *errbuf, int errlen);

/* ---------------------------------------------------------------- leagues */

/* Fills out[0..max) with every active (not retired) fighter of ruleset
 * `rules` (owner included), by id; *n gets how many: at most max even when
 * there are more (0 on error). DB_ERROR for a ruleset without storage.
 * db_fighter_save writes the league fields too. */
int db_fighter_list_rules(struct db *db, enum rules rules, struct db_fighter *out, int max, int *n);
/* For a reader that keeps the fighters (ringside-web): *stamp the highest
 * change stamp (migration 17: every write to a fighter's row raises his
 * above every other), then fn(ctx, f) for each fighter stamped
 * after `since` (-1: every fighter), retired ones too, in no set order. In
 * a read transaction (db_read_begin), the stamp and the rows are of one
 * moment; calling again with since = *stamp reads what changed after it.
 * DB_OK, or DB_ERROR (*stamp then unchanged). */
int db_fighter_changed(struct db *db, int64_t since, int64_t *stamp,
                       void (*fn)(void *ctx, const struct db_fighter *f), void *ctx);

/* How many active (not retired) fighters ruleset `rules` has, into *n
 * (0 on error): what db_fighter_list_rules would list. */
int db_league_count(struct db *db, enum rules rules, int *n);
/* Calls each(ctx, fighter, text) for every stored plan of an active fighter
 * of ruleset `rules`, by fighter id, in one read (a league turn reads them
 * all); `text` lasts until each returns. DB_ERROR for a ruleset without
 * storage or a plan that cannot be read (each may have been called for
 * others before). */
int db_league_plans(struct db *db, enum rules rules,
                    void (*each)(void *ctx, int64_t fighter, const char *text), void *ctx);

/* SQLite's page cache for a league turn (`turn` 1: room for a turn of
 * 100,000 fighters, whose writes would otherwise spill to the WAL and be
 * read back mid-transaction) or back to SQLite's default (0). Speed alone:
 * nothing stored changes; it never fails. */
void db_league_cache(struct db *db, int turn);

/* Migration 17's change-stamp triggers off on this connection for a
 * league turn (`turn` 1), whose statements set every stamp themselves, or
 * on again (0); other connections keep them. Speed alone: the stamps
 * stored are the same; it never fails. Only between transactions. */
void db_league_stamping(struct db *db, int turn);

/* Writes the league (enum league) of each of n fighters, league[i] to
 * fighter[i], and nothing else (no change stamp: the turn's save of each
 * sets it), on SQLite, and sets *done; on PostgreSQL writes nothing and
 * sets *done to 0: the saves write them. A turn's moves, before it saves
 * its fighters with their leagues as stored (db_fighter_save_from): spares
 * SQLite the league CHECK's temporary b-tree at each save. Inside the
 * caller's transaction. DB_OK, or DB_ERROR (a league out of range, a
 * fighter that does not exist). */
int db_league_moves(struct db *db, const int64_t *fighter, const int *league, int n, int *done);

/* A league turn is about to create n bouts in a row (db_bout_create):
 * on PostgreSQL, inside a turn's transaction (db_league_cache's batch),
 * their n ids are drawn from the bouts' identity at once, in one round
 * trip rather than one a bout, and each of the next n bouts created takes
 * the next of them; with no other writer in between they are the ids the
 * bouts would have drawn one by one. Nothing on SQLite. DB_OK, or
 * DB_ERROR (the server's message). */
int db_league_bouts_ahead(struct db *db, int n);

/* SQLite's automatic checkpoint off on this connection for a league turn
 * (`turn` 1), so that the turn's COMMIT only appends to the WAL, or back
 * to SQLite's default (0). Speed alone: synchronous and what a commit
 * guarantees are unchanged; it never fails. */
void db_league_wal(struct db *db, int turn);
/* Copies the WAL into the database file as far as no reader needs it
 * (SQLite's PASSIVE checkpoint; nothing on PostgreSQL): what a league
 * turn's commit no longer does, run after it. Not inside a transaction.
 * DB_OK (also when another connection is checkpointing) or DB_ERROR. */
int db_league_checkpoint(struct db *db);

/* The International Champion of a ruleset and his successful defences:
 * DB_NOTFOUND (nothing written) when the title is vacant. */
int db_champion_get(struct db *db, enum rules rules, int64_t *fighter, int *defences);
/* Sets the champion (fighter 0: vacant, with no defences) and his
 * successful defences (not negative). DB_NOTFOUND if there is no such
 * fighter, DB_ERROR if he fights another ruleset. The time he won the
 * title is `now` for a new champion, kept for the same one again. */
int db_champion_set(struct db *db, enum rules rules, int64_t fighter, int defences, int64_t now);

/* League turns, numbered per ruleset from 1: records one run at `now` and
 * gives its number (the last + 1; a turn rolled back frees its number). */
int db_turn_add(struct db *db, enum rules rules, int64_t now, int *number);
/* The last turn of a ruleset: DB_NOTFOUND when none ran yet. */
int db_turn_last(struct db *db, enum rules rules, int *number, int64_t *when);

/* Turns begun and not finished (migration 7). db_turn_begun records, on its
 * own and committed, that a turn of `rules` begins at `now` (called before
 * the turn's transaction); db_turn_done removes that record, inside the
 * turn's transaction, so it goes with the results. A record left over is
 * a turn killed before its commit: nothing of it was stored.
 * db_turn_unfinished lists them (at most max) into rules[] and begun[]. */
int db_turn_begun(struct db *db, enum rules rules, int64_t now);
int db_turn_done(struct db *db, enum rules rules);
int db_turn_unfinished(struct db *db, enum rules *rules, int64_t *begun, int max, int *n);

/* ---------------------------------------------------------------- ratings */

/* A fighter's Glicko-2 rating in one ruleset (migration 11, db/rating.c):
 * rating, deviation and volatility, and how many bouts moved it. */
struct db_rating {
    double rating, rd, vol;
    int bouts;
};

/* One point of a fighter's rating history: bout `bout` (ended at `at`) took
 * his rating from `before` to `rating` (deviation `rd` after it); `side`
 * and `fighter` say whose it is (db_rating_of_bout). */
struct db_rating_point {
    int64_t bout, fighter, at;
    int side;
    double before, rating, rd;
};

/* One line of a ruleset's ratings (db_rating_top). */
struct db_rating_row {
    int64_t fighter;
    char name[DB_NAME_MAX];
    double rating, rd;
    int bouts;
};

/* The rating of fighter `fighter` in `rules` into *out: DB_OK, DB_NOTFOUND
 * when he has none yet (a newcomer: *out untouched), DB_ERROR. */
int db_rating_get(struct db *db, int64_t fighter, enum rules rules, struct db_rating *out);
/* For a reader that keeps the ratings (ringside-web), as
 * db_fighter_changed: *stamp the highest rating stamp (migration 17: every
 * db_rating_put raises its row's above every other), then fn for each
 * rating stamped after `since` (-1: every rating). DB_OK, or DB_ERROR
 * (*stamp then unchanged). */
int db_rating_changed(struct db *db, int64_t since, int64_t *stamp,
                      void (*fn)(void *ctx, int64_t fighter, enum rules rules,
                                 const struct db_rating *r),
                      void *ctx);
/* Stores fighter `fighter`'s new rating `r` (its bouts counted up by one)
 * in `rules` after bout `bout` (side `side`, ended at `at`), and its point
 * of history from `before`. Inside the caller's transaction: the one that
 * stores the result. DB_OK or DB_ERROR. */
int db_rating_put(struct db *db, int64_t fighter, enum rules rules, const struct db_rating *r,
                  int64_t bout, int side, double before, int64_t at);
/* db_rating_put's rows apart, for a league turn that keeps its fighters'
 * ratings in memory: db_rating_history_put stores bout `bout`'s two points
 * of history (ended at `at`; by side: fighter[s] from before[s] to r[s]);
 * db_rating_set stores fighter `fighter`'s rating `r` in `rules` as it is,
 * with its bouts (at least 1) and `at` as when it last moved. Inside the
 * caller's transaction. DB_OK or DB_ERROR. */
int db_rating_history_put(struct db *db, int64_t bout, const int64_t fighter[2],
                          const struct db_rating r[2], const double before[2], int64_t at);
int db_rating_set(struct db *db, int64_t fighter, enum rules rules, const struct db_rating *r,
                  int64_t at);
/* db_rating_set for a league turn that numbers its writes' change stamps
 * itself (as db_fighter_save_from; `stamp` above 0) and knows whether the
 * fighter had a stored rating when it read them (`stored`): a plain UPDATE
 * of that row then, or the upsert when there is none (or the row has gone
 * since). DB_OK or DB_ERROR. */
int db_rating_set_stamped(struct db *db, int64_t fighter, enum rules rules,
                          const struct db_rating *r, int64_t at, int stored, int64_t stamp);
/* The highest change stamp of the ratings (0: none) into *top. DB_OK or
 * DB_ERROR. */
int db_rating_stamp_top(struct db *db, int64_t *top);
/* Calls fn(ctx, fighter, rating) for every stored rating of `rules`, by
 * fighter id (retired fighters' too). DB_OK or DB_ERROR. */
int db_rating_each(struct db *db, enum rules rules,
                   void (*fn)(void *ctx, int64_t fighter, const struct db_rating *r), void *ctx);
/* Fighter `fighter`'s history, the latest bout first, into out[0..max);
 * *n gets how many (0 on error). DB_OK or DB_ERROR. */
int db_rating_history(struct db *db, int64_t fighter, struct db_rating_point *out, int max, int *n);
/* What bout `bout` did to its fighters' ratings, by side, into out[0..2);
 * *n gets how many (0: it moved no rating). DB_OK or DB_ERROR. */
int db_rating_of_bout(struct db *db, int64_t bout, struct db_rating_point out[2], int *n);
/* The rated fighters of `rules` who are not retired, the highest rating
 * first (then the smaller deviation, then the older fighter), from the
 * `offset`th, into out[0..max); *n gets how many, *total (when not NULL)
 * how many there are in all. DB_OK or DB_ERROR. */
int db_rating_top(struct db *db, enum rules rules, int offset, struct db_rating_row *out, int max,
                  int *n, int *total);
/* ---- Seasons (migration 13, db/season.c). A ruleset's seasons are
 * numbered from 1; the one running has no row yet: db_season_add stores it
 * when it ends, with its final standings (db_season_standing_add) and its
 * hall of fame (db_honour_add), all in the caller's transaction. */
struct db_season {
    int number;
    int64_t started; /* 0: since the beginning (season 1) */
    int64_t ended;
    int turns;     /* league turns played in it */
    int turn_last; /* the number of its last league turn (0: none ever) */
};
/* One fighter's line of an archived league table. */
struct db_season_row {
    int league; /* enum league */
    int position;
    int64_t fighter;
    char name[DB_NAME_MAX];
    char owner[DB_NAME_MAX];
    int wins, losses, draws, gold_record;
    int moved; /* +1 promoted, -1 relegated at the season's end, 0 stayed */
};
/* An honour of the hall of fame: a league's winner (honour = the league)
 * or the International Champion (DB_HONOUR_CHAMPION). */
#define DB_HONOUR_CHAMPION 3
struct db_honour {
    enum rules rules;
    int season;
    int honour;
    int64_t fighter;
    char name[DB_NAME_MAX];
    char owner[DB_NAME_MAX];
    int wins, losses, draws; /* his record of that season */
};
/* The last season of `rules` that ended: DB_NOTFOUND when none has. */
int db_season_last(struct db *db, enum rules rules, struct db_season *s);
/* Season `number` of `rules`, ended: DB_NOTFOUND when it has not. */
int db_season_get(struct db *db, enum rules rules, int number, struct db_season *s);
/* Stores season s (ended) of `rules`; DB_EXISTS when it is already. */
int db_season_add(struct db *db, enum rules rules, const struct db_season *s);
int db_season_standing_add(struct db *db, enum rules rules, int season,
                           const struct db_season_row *r);
/* The archived standings of a season, league by league from GOLD down, by
 * position: at most max rows into v, their count into *n. */
int db_season_standings(struct db *db, enum rules rules, int season, struct db_season_row *v,
                        int max, int *n);
int db_honour_add(struct db *db, const struct db_honour *h);
/* The hall of fame of `rules` (or every ruleset: rules < 0), the newest
 * season first, then GOLD, SILVER, BRONZE, the champion: at most max into
 * v, their count into *n. */
int db_honours(struct db *db, int rules, struct db_honour *v, int max, int *n);
/* A new season: every fighter of `rules` back to a season record of 0 and
 * a gold record of 0 (career records stay). */
int db_season_reset(struct db *db, enum rules rules);

/* ------------------------------------------------------------ predictions */
/* Migration 14 (db/predict.c): spectators' predictions, one per account and
 * bout, scored once when the bout ends (db_predict_score, inside the
 * result's transaction). */

#define DB_METHOD_MAX 12 /* a method's word, NUL included */
#define DB_HIT_WINNER 1  /* the winner (or the draw) called */
#define DB_HIT_METHOD 2  /* and the method */
#define DB_HIT_ROUND  4  /* and the round */

struct db_prediction {
    int64_t bout, account;
    char name[DB_NAME_MAX];     /* the account's name (filled by reads) */
    int side;                   /* the fighter called (0, 1), or -1: a draw */
    char method[DB_METHOD_MAX]; /* "ko", "tko", ...; "" for none */
    int round;                  /* 0 for none */
    int closes;                 /* it could change until this round ended */
    int64_t made;               /* unix time of its last change */
    int hits;                   /* DB_HIT_* bits once scored, else -1 */
    /* The account's network, "" for none (filled by reads). */
    char network[DB_NETWORK_MAX];
};

struct db_pundit {
    char name[DB_NAME_MAX];
    int points;  /* one a hit */
    int scored;  /* predictions scored */
    int winners; /* of which the winner (or draw) was right */
    /* The account's network, "" for none. */
    char network[DB_NETWORK_MAX];
};

/* Stores *p (its bout, account, side, method, round, closes, made) as that
 * account's prediction on that bout, replacing the one before. DB_EXISTS
 * if the one before is already scored (nothing changes); DB_NOTFOUND if
 * the bout or the account does not exist. */
int db_predict_put(struct db *db, const struct db_prediction *p);
/* Fills *out with `account`'s prediction on `bout`, or DB_NOTFOUND. */
int db_predict_get(struct db *db, int64_t bout, int64_t account, struct db_prediction *out);
/* Calls fn(arg, p) for every prediction on `bout`, the earliest made
 * first, until fn returns non-zero. DB_OK or DB_ERROR. */
int db_predict_each(struct db *db, int64_t bout,
                    int (*fn)(void *arg, const struct db_prediction *p), void *arg);
/* `account`'s predictions not yet scored on bouts still live, the lowest
 * bout first: at most max into out[], their number in *n. */
int db_predict_open(struct db *db, int64_t account, struct db_prediction *out, int max, int *n);
/* Scores every prediction on `bout` not yet scored against its result: the
 * winner (0, 1, -1: a draw), the method's word ("" for a draw) and the
 * round it ended in. A prediction already scored is never scored again.
 * Meant for the transaction that stores the result. */
int db_predict_score(struct db *db, int64_t bout, int winner, const char *method, int round);
/* The pundits' table: every account with a prediction scored on a bout of
 * ruleset `rules` (-1: any) that ended in [from, to) (to 0: no end), by
 * points, then the share of winners called, then predictions scored, then
 * name; the first max into out[], their number in *n. */
int db_predict_table(struct db *db, int rules, int64_t from, int64_t to, struct db_pundit *out,
                     int max, int *n);
/* ---------------------------------------------------- tournaments (12) */
/* A knockout tournament (migration 12; db/tournament.c): its settings,
 * its state, the bracket round it is at (`stage`: the rounds drawn so
 * far) and how many of them the channel has heard (`said`), so that a
 * round stored and not yet said is said after a restart. */
#define DB_TOURNAMENT_NAME   48
#define DB_TOURNAMENT_SIZE   32
#define DB_TOURNAMENT_STAGES 5
enum db_tournament_state { DB_TOURNAMENT_OPEN, DB_TOURNAMENT_RUNNING, DB_TOURNAMENT_OVER };
struct db_tournament {
    int64_t id;
    char name[DB_TOURNAMENT_NAME];
    enum rules rules;
    int size;   /* 4, 8, 16 or 32 */
    int rounds; /* each bout's rounds; 0: the ruleset's default */
    int live;   /* 1: mode=live, 0: mode=plans */
    char channel[DB_CHANNEL_MAX];
    enum db_tournament_state state;
    int stage, said;
    int64_t winner; /* 0: none yet */
    int64_t created, started, ended;
    int64_t last; /* when its last bracket round was drawn or fought */
};
/* One bout of the bracket: bracket round `stage` (1 first), place `slot`
 * (0 at the top); a fighter 0 is a bye; bout 0: not fought yet; winner 0:
 * not decided. */
struct db_tournament_match {
    int stage, slot;
    int64_t fighter[SIDES];
    int64_t bout;
    int64_t winner;
};
/* An entrant: his fighter and seed (0 until the tournament starts). */
struct db_tournament_entry {
    int64_t fighter;
    int seed;
    int64_t joined;
};
/* Stores a new tournament (t->id set). */
int db_tournament_create(struct db *db, struct db_tournament *t);
/* Reads tournament `id`: DB_NOTFOUND if none. */
int db_tournament_get(struct db *db, int64_t id, struct db_tournament *t);
/* Writes t's state, stage, said, winner, started, ended and last. */
int db_tournament_save(struct db *db, const struct db_tournament *t);
/* Every tournament, newest first, at most max into out (*n of them). */
int db_tournament_list(struct db *db, struct db_tournament *out, int max, int *n);
/* Entrants: added (DB_EXISTS if he is in), removed (DB_NOTFOUND if not),
 * seeded, and listed by seed, then by when they joined. */
int db_tournament_join(struct db *db, int64_t id, int64_t fighter, int64_t now);
int db_tournament_leave(struct db *db, int64_t id, int64_t fighter);
int db_tournament_seed(struct db *db, int64_t id, int64_t fighter, int seed);
int db_tournament_entries(struct db *db, int64_t id, struct db_tournament_entry *out, int max,
                          int *n);
/* The bracket: a match stored (or replaced), and all of them by stage and
 * slot. */
int db_tournament_match_put(struct db *db, int64_t id, const struct db_tournament_match *m);
int db_tournament_matches(struct db *db, int64_t id, struct db_tournament_match *out, int max,
                          int *n);
/* The tournament and match of bout `bout`: DB_NOTFOUND if it is no
 * tournament's. */
int db_tournament_of_bout(struct db *db, int64_t bout, int64_t *id);
/* The tournaments fighter `fighter` won, newest first. */
int db_tournament_won(struct db *db, int64_t fighter, struct db_tournament *out, int max, int *n);
/* The channels joined on an invite (db/channel.c, migration 15). */
/* Keeps channel `name` (DB_CHANNEL_MAX), invited by account `by`; a
 * channel already kept stays as it was. 0, or -1 with db_errmsg. */
int db_channel_add(struct db *db, const char *name, const char *by);
/* Forgets channel `name` (nothing kept: nothing done). 0 or -1. */
int db_channel_remove(struct db *db, const char *name);
/* The channels kept, the oldest first, at most `max` into names; how many,
 * or -1 with db_errmsg. */
int db_channel_list(struct db *db, char (*names)[DB_CHANNEL_MAX], int max);

/* The migration to PostgreSQL (db/migrate.c, `ringside --migrate-to`). */
/* A table copied and its rows (the target's count after the copy). */
struct db_copied {
    const char *table; /* static */
    int64_t rows;
};
#define DB_COPY_TABLES 32 /* room for every table of the schema */
/* Checks that SQLite database `src` holds the tables of the latest schema
 * and no other: DB_OK, or DB_ERROR with the reason in db_errmsg(src) ("the
 * database has a table this ringside does not know, NAME: ..."). */
int db_copy_source_check(struct db *src);
/* Copies SQLite database `src` (at the latest schema) into PostgreSQL
 * database `dst` (opened with db_open: Ringside's schema, and no row but
 * its schema_version), every table in its id order, in one transaction of
 * dst; the identity sequences then follow the ids copied. `shown` names
 * dst in messages. out (DB_COPY_TABLES) gets each table and its rows, in
 * the order copied, *n of them. DB_OK; or DB_ERROR with the one-line reason
 * in db_errmsg(dst) and nothing written: a source table or column this
 * program does not know, dst not empty ("URI is not empty: its table T
 * holds N rows; ..."), or a failed read or write. */
int db_copy_to(struct db *src, struct db *dst, const char *shown, struct db_copied *out, int *n);
/* Takes away the schema db_open made in the PostgreSQL database `dst`
 * (every table of Ringside's and the stamps' functions), when none of its
 * tables holds a row: a refused migration into a database that had no
 * schema leaves it as it was. DB_OK, or DB_ERROR (nothing dropped). */
int db_copy_unmake(struct db *dst);
/* The ids of the bouts fought (live or over) after id `after`, ascending,
 * at most max into ids (*n of them): DB_OK or DB_ERROR. */
int db_bouts_fought(struct db *db, int64_t after, int64_t *ids, int max, int *n);

#endif
