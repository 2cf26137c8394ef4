/*
 * db_internal.h - what the files of db/ share, and nothing outside db/ sees:
 * the connection, its table of prepared statements and the helpers that run
 * them and report errors.
 *
 * Invariants: every statement in db->st is prepared once by db_open() and,
 * between two calls of the public functions, is reset with its bindings
 * cleared (so no read transaction stays open and no caller string stays
 * referenced). db->err always holds the message of the last failure.
 * db->in_txn is 1 between a successful db_begin and its successful
 * db_commit, or its db_rollback; while it is 1 and SQLite is back in autocommit mode, SQLite
 * rolled the transaction back itself (after an I/O error, say) and every
 * statement is refused until db_rollback, so that the rest of the
 * transaction's writes do not each commit on their own.
 */
#ifndef RINGSIDE_DB_INTERNAL_H
#define RINGSIDE_DB_INTERNAL_H

#include <stddef.h>

#include <sqlite3.h>

#include "db.h"

/* The number of elements of an array. */
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The prepared statements; their SQL is the table in db.c. */
enum db_stmt {
    STMT_USER_VERSION,
    STMT_JOURNAL_MODE,
    STMT_FOREIGN_KEYS,
    STMT_ACCOUNT_INSERT,
    STMT_ACCOUNT_GET,
    STMT_ACCOUNT_SET_HASH,
    STMT_ACCOUNT_SET_BANNED,
    STMT_FIGHTER_INSERT,
    STMT_FIGHTER_GET,
    STMT_FIGHTER_LIST,
    STMT_FIGHTER_SAVE,
    STMT_FIGHTER_SAVE_LEAGUE_KEPT,
    STMT_FIGHTER_RETIRE,
    /* Migration 2. */
    STMT_FIGHTER_GET_ID,
    STMT_BEGIN,
    STMT_COMMIT,
    STMT_ROLLBACK,
    STMT_BOUT_INSERT,
    STMT_BOUT_GET,
    STMT_BOUT_SAVE,
    STMT_BOUT_LIST,
    STMT_ORDER_PUT,
    STMT_ORDER_LIST,
    STMT_ROUND_PUT,
    STMT_ROUND_REPORT,
    STMT_ROUND_DIGEST,
    STMT_BOUT_SAID,
    STMT_BOUT_UNSAID,
    STMT_PLAN_SET,
    STMT_PLAN_GET,
    STMT_PLAN_CLEAR,
    STMT_AUDIT,
    /* Migration 3. */
    STMT_FIGHTER_LIST_RULES,
    STMT_FIGHTER_CHANGED,
    STMT_FIGHTER_STAMP,
    STMT_CHAMPION_GET,
    STMT_CHAMPION_SET,
    STMT_TURN_ADD,
    STMT_TURN_LAST,
    /* Migration 5. */
    STMT_ACCOUNT_BURN,
    STMT_BURNT_ADD,
    STMT_BURNT_ADD_CURRENT,
    STMT_BURNT_PRUNE,
    STMT_BURNT_LIST,
    STMT_ACCOUNT_CLAIM, /* migration 18 */
    STMT_BURNT_CLAIM,
    /* The web pages' reads. */
    STMT_BOUT_LIST_FIGHTER,
    STMT_BOUT_LIST_OVER,
    STMT_DATA_VERSION,
    STMT_BEGIN_READ,
    /* Migration 7. */
    STMT_META_ID,
    STMT_META_ID_MAKE,
    STMT_TURN_BEGUN,
    STMT_TURN_DONE,
    STMT_TURN_UNFINISHED,
    /* Migration 8. */
    STMT_ACCOUNT_SET_ADMIN,
    STMT_ACCOUNT_FAILED,
    STMT_ACCOUNT_FAILURES_CLEAR,
    /* Migration 11: ratings. */
    STMT_RATING_GET,
    STMT_RATING_PUT,
    STMT_RATING_CHANGED,
    STMT_RATING_STAMP,
    STMT_RATING_HISTORY_PUT,
    STMT_RATING_HISTORY,
    STMT_RATING_OF_BOUT,
    STMT_RATING_TOP,
    STMT_RATING_COUNT,
    /* A league turn's ratings: read once, written once. */
    STMT_RATING_EACH,
    STMT_RATING_SET,
    STMT_RATING_HISTORY_PUT2,
    /* Migration 16: a bout's orders in one row. */
    STMT_ORDER_BOUT_PUT,
    STMT_ORDER_BOUT_GET,
    STMT_ORDER_BOUT_DELETE,
    /* A league turn's reads (issue 28). */
    STMT_LEAGUE_COUNT,
    STMT_LEAGUE_PLANS,
    STMT_COUNT
};

#include "sql.h"

/* Statements db_prepare_kept keeps, at most: a bot on PostgreSQL keeps a
 * dozen (its relay's, its jobs', a page's) and a league turn's batch seven
 * more (sql_pg.c). */
#define DB_KEPT_MAX 32

struct db {
    enum db_backend backend;      /* SQLite, or PostgreSQL (sql.h) */
    sqlite3 *conn;                /* SQLite's connection (NULL on PostgreSQL) */
    struct pg_conn *pg;           /* libpq's PGconn (DB_BACKEND_PG only) */
    const struct dbs *pg_unnamed; /* the one-use statement PostgreSQL holds
                                     as its unnamed prepared one (sql_pg.c) */
    int pg_readonly;              /* opened by db_open_readonly (sql_pg.c) */
    struct pg_pipe *pg_pipe;      /* the batch of writes (db_pg_batch), or NULL */
    sqlite3_stmt *st[STMT_COUNT];
    struct dbs tab[STMT_COUNT]; /* st[] as the statement layer hands it out */
    char err[512];              /* room for a long path in db_open's messages */
    int in_txn;                 /* inside db_begin ... db_commit/db_rollback */
    long fault_in;              /* the fault hook (db_fault_after): 0 off, else the step
                                   that fails, counting this one as 1 */
    /* The file the connection opened (db_gone): its path as SQLite has it
     * (absolute), and its device and inode at open; has_file is 0 for an
     * in-memory database. gone is set for good once the path no longer
     * names that file; busy when the last failure was another connection's
     * lock. */
    char file[4096];
    unsigned long long file_dev, file_ino;
    int has_file, gone, busy;
    /* db_prepare_kept's statements, by their SQL's address. */
    struct {
        const char *sql;
        sqlite3_stmt *st;
    } kept[DB_KEPT_MAX];
    int nkept;
    struct dbs kept_q[DB_KEPT_MAX]; /* kept[i] as the statement layer hands it out */
    /* The network lease (lease.c, db_lease_take): asked once taken; on
     * PostgreSQL the advisory lock's key and the failover seconds, so a
     * new session (sql_pg.c's reconnect) takes it again before any
     * statement runs; away while the server cannot be reached (statements
     * refused, only db_lease_check tries again); lost for good once a new
     * session found another holder (every statement refused); SQLite's
     * lock file, open while held. */
    int lease_asked, lease_away, lease_lost, lease_seconds, lease_fd;
    char lease_key[96];
    /* The network of the connection's accounts and bouts (migration 18):
     * "" until db_network_set; network_set once it was called (a bot's
     * connection lists only its network's bouts, a page's all). */
    char network[DB_NETWORK_MAX];
    int network_set;
    /* The session LISTENing for notify.c (PQbackendPID), 0 for none. */
    int notify_pid;
};

/* How an enum is stored: by name, names[value] for value in [0, count)
 * (a NULL entry is a value without storage). The names are part of the
 * schema: once released they never change, whatever the engine's
 * numbering. */
struct db_names {
    const char *what; /* "state", for messages */
    const char *const *names;
    int count;
};

/* Leagues by name: "bronze", "silver", "gold" (enum league). */
extern const struct db_names db_leagues;

/* A sheet's equipment as stored (kit.c): at most DB_KIT_MAX bytes with
 * the NUL. db_kit_store writes the pieces of `s` ("" for none);
 * db_kit_load reads them into `s` (whose ruleset is set; its other slots
 * emptied) and returns 0, or -1 for a text that does not fit the ruleset
 * (then the slots are in no particular state). */
#define DB_KIT_MAX 256
void db_kit_store(const struct sheet *s, char *buf, size_t len);
int db_kit_load(const char *text, struct sheet *s);

/* The SQL of statement `which` of db.c's table (the PostgreSQL backend
 * prepares it on first use, sql_pg.c). */
const char *db_stmt_text(int which);

/* SQLite: statement `which` of db.c's table, prepared at its first use
 * (db_open checks them all and keeps only the transactions'); NULL with
 * the reason in db->err if SQLite refuses it now (the schema changed
 * under the connection). */
sqlite3_stmt *db_stmt_get(struct db *db, int which);

/* 1 for the statements of db.c's table that are INSERTs whose id is read
 * (dbs_insert_id): their SQL does not end in RETURNING id, which costs
 * SQLite a temporary table per row; the PostgreSQL backend adds
 * " RETURNING id" to them and reads the column. */
int db_stmt_returns_id(int which);

/* Migration 17's new change stamps, one more than the highest of the
 * table, as every statement that writes a fighter's or a rating's row
 * says it. SQLite (one writer at a time) runs them as written; the
 * PostgreSQL backend (sql_pg.c) sends each as a call of migration 19's
 * function of the same table (fighters_next_stamp()), which takes the
 * stamps' advisory lock before it reads the highest: two writers of
 * READ COMMITTED would otherwise read the same highest and commit the
 * same stamp, or a stamp below one a reader already saw. */
#define DB_STAMP_FIGHTERS "(SELECT coalesce(max(changed), 0) + 1 FROM fighters)"
#define DB_STAMP_RATINGS  "(SELECT coalesce(max(changed), 0) + 1 FROM ratings)"

/* Formats a message into db->err and returns DB_ERROR. */
int db_fail(struct db *db, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prepares `sql` on db's connection for one use (the caller finalizes
 * it): the statement, or NULL with the message in db->err. For the files
 * whose statements are not in the shared table (predict.c, tournament.c). */
sqlite3_stmt *db_prepare(struct db *db, const char *sql);
/* The same for a statement a page runs at every view: `sql` (a string
 * literal, known by its address) is prepared once per connection and kept
 * until db_close (past DB_KEPT_MAX, prepared for one use as db_prepare).
 * Give it back with db_unprepare, never sqlite3_finalize. */
sqlite3_stmt *db_prepare_kept(struct db *db, const char *sql);
/* After a use: a kept statement is reset for the next, another finalized. */
void db_unprepare(struct db *db, sqlite3_stmt *st);

/* Checks a string the caller wants stored: not NULL, not empty, and fitting
 * a buffer of `size` bytes with its NUL. Returns DB_OK, or DB_ERROR with a
 * message naming `what` ("fighter name"). */
int db_text_check(struct db *db, const char *what, const char *s, size_t size);

/* The same, but an empty string is fine (texts that may say nothing). */
int db_text_check_len(struct db *db, const char *what, const char *s, size_t size);

/* The name a ruleset is stored as ("boxing", "sugarray"), or NULL for one
 * this code has no storage for; and back, the ruleset of a stored name, or
 * -1. */
const char *db_rules_name(enum rules rules);
int db_rules_find(const char *name);

/* The stored name of `value`, or NULL if it has none. */
const char *db_name_of(const struct db_names *t, int value);

/* Reads the stored name in column `col` of the current row into *out (its
 * value). DB_ERROR if it is NULL or a name `t` does not have (the file was
 * edited by hand): "ROW ID has WHAT 'NAME', which this ringside does not
 * know", where `row` is e.g. "bout". */
int db_column_name(struct db *db, sqlite3_stmt *st, int col, const struct db_names *t,
                   const char *row, int64_t id, int *out);

/* Records that binding the parameters of `st` failed; returns DB_ERROR. */
int db_bind_failed(struct db *db, sqlite3_stmt *st);

/* Steps `st` once (it is expected to finish: an INSERT or UPDATE), unless
 * `bind_failed` or the transaction was lost (see struct db), then resets it
 * and clears its bindings. Returns SQLITE_DONE, or the extended SQLite error
 * code with its message in db->err. */
int db_run(struct db *db, sqlite3_stmt *st, int bind_failed);

/* Steps a query once (unless the transaction was lost). Returns SQLITE_ROW (the row is readable
 * until db_stmt_done), SQLITE_DONE, or an extended error code with its message in db->err. The
 * caller calls db_stmt_done() afterwards in every case. */
int db_row(struct db *db, sqlite3_stmt *st);

/* The fault hook (db_fault_after), asked before every counted step: 1 when
 * this step is the one to fail, with SQLite's I/O error message in db->err
 * (the hook is then off); 0 otherwise. */
int db_fault_now(struct db *db);

/* The start of a read of the rows changed since stamp `since` (migration
 * 17): the highest stamp now, by query `stamp` (its one column), into
 * *top; then query `changed` with ?1 bound to `since`, returned ready to
 * step (the caller steps it and calls dbs_reset). NULL on an error
 * (db->err says it; nothing left bound). */
struct dbs *db_changed_query(struct db *db, enum db_stmt stamp, enum db_stmt changed, int64_t since,
                             int64_t *top);

/* The same, a failed bind reported at once on SQLite, as before the
 * layer (fighter.c, rating.c use it, then step dbs_table(db, changed));
 * it returned SQLite's statement, which a PostgreSQL connection has not. */
struct dbs *db_changed_since(struct db *db, enum db_stmt stamp, enum db_stmt changed, int64_t since,
                             int64_t *top);

/* Resets `st` and clears its bindings. */
void db_stmt_done(sqlite3_stmt *st);

/* Copies the text of column `col` of the current row into dst (size bytes,
 * NUL included). Returns DB_OK, or DB_ERROR if the value is NULL or too long
 * (the file was edited by hand, or the caller's buffer is too small: texts
 * are never cut). */
int db_column_text(struct db *db, sqlite3_stmt *st, int col, char *dst, size_t size,
                   const char *what);

#endif
