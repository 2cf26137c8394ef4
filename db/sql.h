/*
 * sql.h - the statement layer of db/ (internal to db/, not in db.h): one
 * prepared statement, `struct dbs`, that the files of db/ bind, step and
 * read without naming the backend, so that a PostgreSQL backend can follow
 * SQLite without touching them again (issue 29). Both backends are built:
 * db->backend says which one a connection uses (db_open chooses
 * PostgreSQL for a `postgresql://` or `postgres://` URI, sql_pg.c).
 *
 * Use: q = dbs_table(db, STMT_X) (db.c's table, prepared at db_open),
 * dbs_prepare(db, sql) (one use) or dbs_prepare_kept(db, sql) (a literal
 * prepared once per connection); dbs_bind_*(q, n, value) with n the `?N` of
 * the SQL (always numbered: ?1, ?2, never a bare ?); then either
 *   - a write: dbs_run(q) -> DBS_DONE or DBS_ERR, the statement reset after;
 *     dbs_changes(q), dbs_insert_id(q) read what it did;
 *   - a query: dbs_step(q) -> DBS_ROW (dbs_col_*(q, col) read the row until
 *     the next step or reset), DBS_DONE or DBS_ERR, then dbs_reset(q) in
 *     every case;
 * and dbs_free(q) when done with a statement from dbs_prepare or
 * dbs_prepare_kept (the table's are never freed; a NULL q is fine).
 *
 * Errors: every failure leaves its message in db->err (SQLite's words,
 * unchanged from before the layer) and dbs_error(q) says what kind it was
 * (a uniqueness or foreign key violation, or anything else). A failed bind
 * is remembered and reported by the step ("cannot bind the parameters of:
 * SQL"), which then runs nothing. Every step honours db.c's rules: the
 * fault hook (db_fault_now) counts it and may fail it, a statement inside a
 * transaction SQLite already rolled back is refused, and a write outside a
 * transaction checks the file first (db_run, db_row).
 *
 * Texts: dbs_bind_text binds the caller's string without copying it (it
 * must stay unchanged until the step is done, which every caller in db/
 * does: keys and names live in the caller's frame); dbs_bind_text_copy
 * copies it. Column texts (dbs_col_text) are the backend's, valid until the
 * next step or reset; dbs_col_copy copies them into a caller's buffer with
 * the length checks of db_column_text.
 *
 * The PostgreSQL backend (sql_pg.c, libpq), under the same calls:
 *   - prepare: the `?N` of the SQL rewritten to `$N` once; a table statement
 *     is PQprepare'd once per connection under a fixed name ("s<index>"),
 *     a kept one likewise ("k<slot>"), a one-use one as the unnamed
 *     statement. struct dbs gains the parameter count and, per parameter,
 *     a text pointer plus a small owned buffer: every value is sent as text
 *     (integers and doubles formatted with PRId64 and %.17g into the
 *     buffer, static texts by their pointer, copied texts duplicated, NULL
 *     as a NULL pointer), so no type OIDs are needed.
 *   - step: the first dbs_step (or dbs_run) calls PQexecPrepared and keeps
 *     the PGresult in q; each dbs_step then returns the next of its
 *     PQntuples rows (DBS_ROW) and DBS_DONE after the last; dbs_col_* read
 *     PQgetvalue/PQgetisnull of the current row (integers parsed with
 *     strtoll); dbs_reset PQclear's the result and forgets the parameters.
 *     Rows are fetched all at once, so a query never holds the connection
 *     between two steps (the same as SQLite's reset-after-use invariant).
 *   - errors: PQresultErrorMessage into db->err; SQLSTATE 23505 is
 *     DBS_E_UNIQUE and 23503 DBS_E_FOREIGN_KEY; a transaction in the failed
 *     state (25P02) is the lost-transaction rule of db_run.
 *   - dbs_changes reads PQcmdTuples; dbs_insert_id needs the INSERT to end
 *     in "RETURNING id" and reads that column (SQLite reads its
 *     last_insert_rowid, so the INSERTs of db.c's table can gain RETURNING
 *     when the backend is built, without changing what SQLite does).
 */
#ifndef RINGSIDE_DB_SQL_H
#define RINGSIDE_DB_SQL_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

struct db;
struct db_names;

/* The backend of a connection (struct db's backend). */
enum db_backend {
    DB_BACKEND_SQLITE = 0, /* the default of a zeroed struct db */
    DB_BACKEND_PG,         /* PostgreSQL through libpq (sql_pg.c) */
};

/* What dbs_step and dbs_run return. */
enum {
    DBS_ERR = -1, /* failed: the message is in db->err, the kind in dbs_error */
    DBS_DONE = 0, /* no (more) rows; a write is done */
    DBS_ROW = 1,  /* a row is readable with dbs_col_* */
};

/* What kind of failure the last DBS_ERR of a statement was. */
enum dbs_error {
    DBS_E_NONE,        /* it did not fail */
    DBS_E_UNIQUE,      /* a UNIQUE or PRIMARY KEY constraint */
    DBS_E_FOREIGN_KEY, /* a FOREIGN KEY constraint */
    DBS_E_OTHER,       /* anything else */
};

/* Who owns a statement, so dbs_free knows what to do. */
enum dbs_owner {
    DBS_OWN_TABLE, /* db.c's table: reset only, finalized by db_close */
    DBS_OWN_KEPT,  /* db_prepare_kept's: reset, finalized by db_close */
    DBS_OWN_ONCE,  /* dbs_prepare's: finalized and freed by dbs_free */
};

struct dbs_pg;

/* One prepared statement. */
struct dbs {
    struct db *db;
    sqlite3_stmt *lite; /* SQLite's statement */
    int bad;            /* a bind failed since the last reset */
    int rc;             /* SQLite's extended code of the last step */
    enum dbs_owner owner;
    struct dbs_pg *pg; /* PostgreSQL's side (sql_pg.c); NULL on SQLite, and
                          what the inline calls below branch on */
};

/* The PostgreSQL side of the calls below (sql_pg.c), for a q whose pg is
 * set; the inline calls branch to them. */
void dbs_pg_bind_int64(struct dbs *q, int n, int64_t v);
void dbs_pg_bind_double(struct dbs *q, int n, double v);
void dbs_pg_bind_text(struct dbs *q, int n, const char *s, int copy);
int64_t dbs_pg_col_int64(struct dbs *q, int col);
double dbs_pg_col_double(struct dbs *q, int col);
const char *dbs_pg_col_text(struct dbs *q, int col);
int dbs_pg_col_is_null(struct dbs *q, int col);

/* The statement `which` of db.c's table, ready to bind (never NULL). */
struct dbs *dbs_table(struct db *db, int which);

/* Prepares `sql` for one use: the statement (give it back with dbs_free),
 * or NULL with the backend's message in db->err. */
struct dbs *dbs_prepare(struct db *db, const char *sql);

/* The same for a literal run at every page view: prepared once per
 * connection and kept (db_prepare_kept); dbs_free resets it. */
struct dbs *dbs_prepare_kept(struct db *db, const char *sql);

/* Steps a query once: DBS_ROW, DBS_DONE or DBS_ERR (see above). The caller
 * calls dbs_reset (or dbs_free) afterwards in every case. */
int dbs_step(struct dbs *q);

/* Steps a query that reads at most one row: DB_OK with the row readable
 * by dbs_col_*, DB_NOTFOUND when there is none, or DB_ERROR (the message
 * in db->err). The caller resets or frees the statement after. */
int dbs_step_one(struct dbs *q);

/* Runs a write (which must return no rows) and resets the statement:
 * DBS_DONE or DBS_ERR. */
int dbs_run(struct dbs *q);

/* Rows written in one statement (PostgreSQL, a league turn): a statement
 * of arrays, whose every `?N` the SQL uses stands for an array with an
 * element a row (CAST(?N AS BIGINT[]) in an unnest(...), say), is bound
 * one row at a time with the dbs_bind_* calls, and dbs_rows_add keeps the
 * row bound (and resets the bindings): DBS_DONE, or DBS_ERR with the
 * message. The rows are written (sent in the batch's pipeline, without
 * waiting for the answer) every thousand, and before the connection runs any
 * other statement (but a bout's INSERT, which they never depend on), at
 * the latest at the commit; a rollback forgets them. The statement must
 * change one row a row: fewer fails the transaction. Only while
 * dbs_rows_open(db), 1 on PostgreSQL inside a transaction of an open
 * batch (db_pg_batch); the statement must come from dbs_prepare_kept. */
int dbs_rows_open(struct db *db);
int dbs_rows_add(struct dbs *q);

/* The kind of the last failure of q's step or run. */
enum dbs_error dbs_error(const struct dbs *q);

/* The rows the last dbs_run changed; and the id of the row it inserted (an
 * INSERT into a table with an integer id). */
int64_t dbs_changes(const struct dbs *q);
int64_t dbs_insert_id(const struct dbs *q);

/* Ends a use: the row and the bindings are forgotten, the statement can
 * be bound and stepped again. */
void dbs_reset(struct dbs *q);

/* Gives back a statement of dbs_prepare (finalized) or dbs_prepare_kept
 * (reset); a table statement is reset. NULL is fine. */
void dbs_free(struct dbs *q);

/* Copies the text of column `col` of the current row into dst (`size`
 * bytes with the NUL): DB_OK, or DB_ERROR if it is NULL or too long, with
 * a message naming `what` (db_column_text). */
int dbs_col_copy(struct dbs *q, int col, char *dst, size_t size, const char *what);

/* Reads the stored enum name in column `col` into *out (db_column_name). */
int dbs_col_name(struct dbs *q, int col, const struct db_names *names, const char *row, int64_t id,
                 int *out);

/* ------------------------------------------- the PostgreSQL backend */

/* 1 if `path` is a PostgreSQL URI (postgresql:// or postgres://), which
 * db_open and db_open_readonly hand to db_open_pg. */
int db_is_pg_uri(const char *path);

/* Connects to the PostgreSQL database `uri`: the connection, with the
 * schema (schema_pg.sql) applied if the database has none (unless
 * `readonly`: then a database without the latest schema is refused, as
 * db_open_readonly refuses an old file); or NULL with the one-line reason
 * in errbuf ("cannot connect to the database URI: libpq's reason", the
 * URI's password hidden). `fault` arms the fault hook (db_open_fault). */
struct db *db_open_pg(const char *uri, long fault, int readonly, char *errbuf, int errlen);

/* db_lease_take and db_lease_check on PostgreSQL (lease.c has the
 * contracts): the session advisory lock of db->lease_key, with the
 * keepalives of db->lease_seconds; the same returns. */
int db_pg_lease_take(struct db *db);
int db_pg_lease_check(struct db *db);

/* Opens (on 1) or closes (0) the connection's batch of writes (the rows
 * of dbs_rows_add, sent in libpq's pipeline mode): closing writes the
 * rows still held and reads what is still unanswered, a failure left in
 * db->err. Nothing with a libpq older than 14 (no pipeline mode): the
 * writes are then one statement a row, each waiting for its answer. */
void db_pg_batch(struct db *db, int on);

/* db_league_bouts_ahead on PostgreSQL (db.h has the contract). */
int db_pg_bout_ids(struct db *db, int n);

/* db_close for a PostgreSQL connection: its statements and results freed,
 * an open transaction rolled back (by the server, as the connection ends). */
void db_pg_close(struct db *db);
/* notify.c's: the connection's socket, or -1; and whether a notification
 * on `channel` with `payload` came (1), none (0), or the session failed
 * (-1). A new session LISTENs first (and counts as one: what was said
 * while it did not listen is looked for once). */
int db_pg_notify_fd(struct db *db);
int db_pg_notify_poll(struct db *db, const char *channel, const char *payload);

/* db_begin (read 0) and db_read_begin (read 1); db_commit (read 0) and
 * db_read_end (read 1); db_rollback: the same contracts, on PostgreSQL,
 * where a transaction in the failed state (an error inside it) is the
 * lost transaction of struct db. */
int db_pg_begin(struct db *db, int read);
int db_pg_commit(struct db *db, int read);
int db_pg_rollback(struct db *db);

/* The calls of this header on PostgreSQL (sql.c branches to them). */
struct dbs *dbs_pg_table(struct db *db, int which);
struct dbs *dbs_pg_prepare(struct db *db, const char *sql, int kept);
int dbs_pg_step(struct dbs *q);
int dbs_pg_run(struct dbs *q);
int64_t dbs_pg_changes(const struct dbs *q);
int64_t dbs_pg_insert_id(const struct dbs *q);
void dbs_pg_reset(struct dbs *q);
void dbs_pg_free(struct dbs *q);
int dbs_pg_col_copy(struct dbs *q, int col, char *dst, size_t size, const char *what);
int dbs_pg_col_name(struct dbs *q, int col, const struct db_names *names, const char *row,
                    int64_t id, int *out);

/* ------------------------------------------------ binding (?N, from 1) */

/* Binds an integer. */
static inline void dbs_bind_int64(struct dbs *q, int n, int64_t v)
{
    if (q->pg)
        dbs_pg_bind_int64(q, n, v);
    else
        q->bad |= sqlite3_bind_int64(q->lite, n, (sqlite3_int64)v) != SQLITE_OK;
}

/* Binds a double. */
static inline void dbs_bind_double(struct dbs *q, int n, double v)
{
    if (q->pg)
        dbs_pg_bind_double(q, n, v);
    else
        q->bad |= sqlite3_bind_double(q->lite, n, v) != SQLITE_OK;
}

/* Binds NULL. */
static inline void dbs_bind_null(struct dbs *q, int n)
{
    if (q->pg)
        dbs_pg_bind_text(q, n, NULL, 0);
    else
        q->bad |= sqlite3_bind_null(q->lite, n) != SQLITE_OK;
}

/* Binds the caller's text, not copied: it must stay as it is until the
 * step is done. NULL binds NULL. */
static inline void dbs_bind_text(struct dbs *q, int n, const char *s)
{
    if (q->pg)
        dbs_pg_bind_text(q, n, s, 0);
    else
        q->bad |= sqlite3_bind_text(q->lite, n, s, -1, SQLITE_STATIC) != SQLITE_OK;
}

/* Binds a copy of the text. NULL binds NULL. */
static inline void dbs_bind_text_copy(struct dbs *q, int n, const char *s)
{
    if (q->pg)
        dbs_pg_bind_text(q, n, s, 1);
    else
        q->bad |= sqlite3_bind_text(q->lite, n, s, -1, SQLITE_TRANSIENT) != SQLITE_OK;
}

/* ---------------------------------- reading the current row (col from 0) */

/* An integer column (NULL reads 0). */
static inline int64_t dbs_col_int64(struct dbs *q, int col)
{
    return q->pg ? dbs_pg_col_int64(q, col) : (int64_t)sqlite3_column_int64(q->lite, col);
}

/* The same, as an int (for values the schema keeps within int). */
static inline int dbs_col_int(struct dbs *q, int col)
{
    return q->pg ? (int)dbs_pg_col_int64(q, col) : sqlite3_column_int(q->lite, col);
}

/* A real column (NULL reads 0). */
static inline double dbs_col_double(struct dbs *q, int col)
{
    return q->pg ? dbs_pg_col_double(q, col) : sqlite3_column_double(q->lite, col);
}

/* A text column, valid until the next step or reset; NULL for NULL. */
static inline const char *dbs_col_text(struct dbs *q, int col)
{
    return q->pg ? dbs_pg_col_text(q, col) : (const char *)sqlite3_column_text(q->lite, col);
}

/* 1 if the column is NULL. */
static inline int dbs_col_is_null(struct dbs *q, int col)
{
    return q->pg ? dbs_pg_col_is_null(q, col) : sqlite3_column_type(q->lite, col) == SQLITE_NULL;
}

#endif
