/*
 * db.h - Ringside's storage: the only code that talks to SQLite.
 *
 * One SQLite file holds accounts and fighters (and, later, bouts and
 * leagues). db_open() applies the schema migrations in order, each in its
 * own transaction, indexed by PRAGMA user_version; WAL, foreign keys and a
 * busy timeout are on. Every statement is prepared once, at open, and
 * parameters are always bound, never spliced into SQL.
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

#include <stdint.h>

#include "engine.h"

#define DB_NAME_MAX 32  /* account and fighter names, NUL included */
#define DB_HASH_MAX 160 /* password hash string, NUL included */

enum db_status { DB_OK = 0, DB_NOTFOUND = 1, DB_EXISTS = 2, DB_ERROR = -1 };

struct db;

struct db_account {
    int64_t id;
    char name[DB_NAME_MAX];
    char hash[DB_HASH_MAX];
    int banned;
    int64_t created; /* unix time */
};

struct db_fighter {
    int64_t id;
    int64_t account_id;
    char owner[DB_NAME_MAX]; /* the owning account's name (filled by reads) */
    char name[DB_NAME_MAX];
    struct sheet sheet; /* sheet.rules is the ruleset */
    int wins, losses, draws, kos;
    int training_points;
    int retired;
    int64_t created;
};

/* Opens (creating if needed) the database at `path` and migrates it to the
 * current schema. Returns NULL on failure with a one-line reason in errbuf
 * (errbuf may be NULL): "cannot open PATH: ...", "PATH: migration N failed:
 * ...", or, for a file written by a newer ringside (which is left untouched),
 * "PATH has schema version N, this ringside knows up to M; upgrade ringside".
 * The caller owns the result and frees it with db_close(). */
struct db *db_open(const char *path, char *errbuf, int errlen);
/* Finalizes every statement and closes the file; NULL is harmless. */
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
/* Replace the hash / set or clear the ban (any nonzero `banned` is 1) of
 * account `id`. DB_NOTFOUND if there is no such account. */
int db_account_set_hash(struct db *db, int64_t id, const char *hash);
int db_account_set_banned(struct db *db, int64_t id, int banned);

/* Fighters. Fighter names are unique across every ruleset (folded key); the
 * key and name follow the rules of account names. A fighter's ruleset is set
 * at creation and never changes. */

/* Stores a new fighter from *f: account_id, name, sheet (its ruleset and
 * the abilities in range, else DB_ERROR), record, training points, retired
 * and created. On DB_OK sets f->id. DB_EXISTS if `key` is taken, DB_NOTFOUND
 * if account f->account_id does not exist. f->owner is not read. */
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
 * the stored one, else DB_ERROR), the record (wins, losses, draws, kos) and
 * the training points of fighter f->id. DB_NOTFOUND if there is none. */
int db_fighter_save(struct db *db, const struct db_fighter *f);
/* Marks fighter `id` retired (again: no change). DB_NOTFOUND if none. */
int db_fighter_retire(struct db *db, int64_t id);

/* State of the connection, for tests and diagnostics: 1 if the journal
 * mode is WAL / foreign keys are enforced, 0 if not, -1 on error. */
int db_journal_wal(struct db *db);
int db_foreign_keys(struct db *db);

#endif
