/*
 * sql.c - the statement layer (sql.h) on SQLite: thin wrappers over the
 * helpers of db.c (db_run, db_row, db_prepare, db_column_text), which keep
 * the fault hook, the lost-transaction rule and the file check in one
 * place. A statement of the PostgreSQL backend (q->pg set) goes to
 * sql_pg.c's.
 */
#include <stdlib.h>

#include "db_internal.h"
#include "util.h"

struct dbs *dbs_table(struct db *db, int which)
{
    if (db->backend == DB_BACKEND_PG)
        return dbs_pg_table(db, which);

    struct dbs *q = &db->tab[which];

    /* Set at every use rather than at db_open: db.c prepares the table
     * and never needs to know of the layer. */
    q->db = db;
    q->lite = db_stmt_get(db, which); /* NULL: the step fails with why */
    q->owner = DBS_OWN_TABLE;
    return q;
}

/* A handle for a statement db.c prepared, or NULL (the message is in
 * db->err already). */
static struct dbs *dbs_wrap(struct db *db, sqlite3_stmt *st, enum dbs_owner owner)
{
    if (!st)
        return NULL;
    struct dbs *q = xcalloc(1, sizeof(*q));
    q->db = db;
    q->lite = st;
    q->owner = owner;
    return q;
}

struct dbs *dbs_prepare(struct db *db, const char *sql)
{
    if (db->backend == DB_BACKEND_PG)
        return dbs_pg_prepare(db, sql, 0);
    return dbs_wrap(db, db_prepare(db, sql), DBS_OWN_ONCE);
}

struct dbs *dbs_prepare_kept(struct db *db, const char *sql)
{
    if (db->backend == DB_BACKEND_PG)
        return dbs_pg_prepare(db, sql, 1);

    sqlite3_stmt *st = db_prepare_kept(db, sql);

    /* A kept statement's handle is kept beside it: no allocation per
     * page view. Past DB_KEPT_MAX it was prepared for one use. */
    for (int i = 0; st && i < db->nkept; i++)
        if (db->kept[i].st == st) {
            struct dbs *q = &db->kept_q[i];
            q->db = db;
            q->lite = st;
            q->owner = DBS_OWN_KEPT;
            return q;
        }
    return dbs_wrap(db, st, DBS_OWN_ONCE);
}

int dbs_step(struct dbs *q)
{
    if (q->pg)
        return dbs_pg_step(q);
    if (!q->lite) { /* a table statement SQLite refused: db->err says why */
        q->rc = SQLITE_ERROR;
        return DBS_ERR;
    }
    if (q->bad) {
        q->rc = SQLITE_MISUSE;
        db_bind_failed(q->db, q->lite);
        return DBS_ERR;
    }
    q->rc = db_row(q->db, q->lite);
    if (q->rc == SQLITE_ROW)
        return DBS_ROW;
    return q->rc == SQLITE_DONE ? DBS_DONE : DBS_ERR;
}

int dbs_step_one(struct dbs *q)
{
    switch (dbs_step(q)) {
    case DBS_ROW:
        return DB_OK;
    case DBS_DONE:
        return DB_NOTFOUND;
    default:
        return DB_ERROR;
    }
}

int dbs_run(struct dbs *q)
{
    if (q->pg)
        return dbs_pg_run(q);
    if (!q->lite) {
        q->rc = SQLITE_ERROR;
        q->bad = 0;
        return DBS_ERR;
    }
    q->rc = db_run(q->db, q->lite, q->bad);
    q->bad = 0;
    return q->rc == SQLITE_DONE ? DBS_DONE : DBS_ERR;
}

enum dbs_error dbs_error(const struct dbs *q)
{
    /* On PostgreSQL, rc holds the kind itself (sql_pg.c). */
    if (q->pg)
        return (enum dbs_error)q->rc;
    switch (q->rc) {
    case SQLITE_ROW:
    case SQLITE_DONE:
        return DBS_E_NONE;
    case SQLITE_CONSTRAINT_UNIQUE:
    case SQLITE_CONSTRAINT_PRIMARYKEY:
        return DBS_E_UNIQUE;
    case SQLITE_CONSTRAINT_FOREIGNKEY:
        return DBS_E_FOREIGN_KEY;
    default:
        return DBS_E_OTHER;
    }
}

int64_t dbs_changes(const struct dbs *q)
{
    if (q->pg)
        return dbs_pg_changes(q);
    return sqlite3_changes(q->db->conn);
}

int64_t dbs_insert_id(const struct dbs *q)
{
    if (q->pg)
        return dbs_pg_insert_id(q);
    return (int64_t)sqlite3_last_insert_rowid(q->db->conn);
}

void dbs_reset(struct dbs *q)
{
    if (q->pg) {
        dbs_pg_reset(q);
        return;
    }
    if (q->lite)
        db_stmt_done(q->lite);
    q->bad = 0;
}

void dbs_free(struct dbs *q)
{
    if (!q)
        return;
    if (q->pg) {
        dbs_pg_free(q);
        return;
    }
    switch (q->owner) {
    case DBS_OWN_TABLE:
        dbs_reset(q);
        break;
    case DBS_OWN_KEPT:
        dbs_reset(q);
        break;
    case DBS_OWN_ONCE:
        sqlite3_finalize(q->lite);
        free(q);
        break;
    }
}

int dbs_col_copy(struct dbs *q, int col, char *dst, size_t size, const char *what)
{
    if (q->pg)
        return dbs_pg_col_copy(q, col, dst, size, what);
    return db_column_text(q->db, q->lite, col, dst, size, what);
}

int dbs_col_name(struct dbs *q, int col, const struct db_names *names, const char *row, int64_t id,
                 int *out)
{
    if (q->pg)
        return dbs_pg_col_name(q, col, names, row, id, out);
    return db_column_name(q->db, q->lite, col, names, row, id, out);
}
