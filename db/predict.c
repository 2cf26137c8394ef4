/*
 * predict.c - spectators' predictions (migration 14): one row per account
 * and bout, replaced while it is open, scored once (`hits`, NULL until
 * then) in the transaction that stores the bout's result, and the pundits'
 * table summed from the scored rows.
 *
 * These statements are prepared when used and finalized after: they run a
 * few times a bout, not a few times a round, and keeping them out of the
 * shared statement table keeps this file on its own; but for
 * db_predict_each's, which every view of a bout page runs: kept
 * (db_prepare_kept).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "db_internal.h"

#define POINTS_SQL "((hits & 1) + ((hits >> 1) & 1) + ((hits >> 2) & 1))"

int db_predict_put(struct db *db, const struct db_prediction *p)
{
    if (db_text_check_len(db, "method", p->method, DB_METHOD_MAX) != DB_OK)
        return DB_ERROR;
    sqlite3_stmt *st =
        db_prepare(db, "INSERT INTO predictions (bout, account, side, method, round, "
                       "closes, made) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
                       "ON CONFLICT (bout, account) DO UPDATE SET side = ?3, "
                       "method = ?4, round = ?5, closes = ?6, made = ?7 "
                       "WHERE predictions.hits IS NULL");
    if (!st)
        return DB_ERROR;
    int bad = 0;
    bad |= sqlite3_bind_int64(st, 1, p->bout) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 2, p->account) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 3, p->side) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 4, p->method, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 5, p->round) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 6, p->closes) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 7, p->made) != SQLITE_OK;
    int rc = db_run(db, st, bad);
    int changed = sqlite3_changes(db->conn);
    sqlite3_finalize(st);
    switch (rc) {
    case SQLITE_DONE:
        if (changed > 0)
            return DB_OK;
        db_fail(db, "the prediction on bout %" PRId64 " is already scored", p->bout);
        return DB_EXISTS;
    case SQLITE_CONSTRAINT_FOREIGNKEY:
        db_fail(db, "no bout %" PRId64 " or no account %" PRId64, p->bout, p->account);
        return DB_NOTFOUND;
    default:
        return DB_ERROR;
    }
}

#define ROW_SQL                                                                                    \
    "SELECT p.bout, p.account, a.name, p.side, p.method, p.round, p.closes, p.made, "              \
    "coalesce(p.hits, -1) FROM predictions p JOIN accounts a ON a.id = p.account "

/* The current row of a ROW_SQL query into *p. */
static int row_read(struct db *db, sqlite3_stmt *st, struct db_prediction *p)
{
    memset(p, 0, sizeof(*p));
    p->bout = sqlite3_column_int64(st, 0);
    p->account = sqlite3_column_int64(st, 1);
    p->side = sqlite3_column_int(st, 3);
    p->round = sqlite3_column_int(st, 5);
    p->closes = sqlite3_column_int(st, 6);
    p->made = sqlite3_column_int64(st, 7);
    p->hits = sqlite3_column_int(st, 8);
    if (db_column_text(db, st, 2, p->name, sizeof(p->name), "a predictor's name") != DB_OK)
        return DB_ERROR;
    if (sqlite3_column_type(st, 4) == SQLITE_TEXT && sqlite3_column_bytes(st, 4) > 0)
        return db_column_text(db, st, 4, p->method, sizeof(p->method), "a method");
    return DB_OK;
}

int db_predict_get(struct db *db, int64_t bout, int64_t account, struct db_prediction *out)
{
    sqlite3_stmt *st = db_prepare(db, ROW_SQL "WHERE p.bout = ?1 AND p.account = ?2");
    int rc = DB_ERROR;

    if (!st)
        return DB_ERROR;
    if (sqlite3_bind_int64(st, 1, bout) != SQLITE_OK ||
        sqlite3_bind_int64(st, 2, account) != SQLITE_OK) {
        db_bind_failed(db, st);
    } else {
        switch (db_row(db, st)) {
        case SQLITE_ROW:
            rc = row_read(db, st, out);
            break;
        case SQLITE_DONE:
            db_fail(db, "no prediction on bout %" PRId64, bout);
            rc = DB_NOTFOUND;
            break;
        default:
            break;
        }
    }
    sqlite3_finalize(st);
    return rc;
}

/* db_predict_each's: a bout page runs it at every view (kept). */
static const char each_sql[] = ROW_SQL "WHERE p.bout = ?1 ORDER BY p.made, p.account";

int db_predict_each(struct db *db, int64_t bout,
                    int (*fn)(void *arg, const struct db_prediction *p), void *arg)
{
    sqlite3_stmt *st = db_prepare_kept(db, each_sql);
    int rc = DB_ERROR;

    if (!st)
        return DB_ERROR;
    if (sqlite3_bind_int64(st, 1, bout) != SQLITE_OK) {
        db_bind_failed(db, st);
        db_unprepare(db, st);
        return DB_ERROR;
    }
    for (;;) {
        struct db_prediction p;
        int step = db_row(db, st);
        if (step == SQLITE_DONE) {
            rc = DB_OK;
            break;
        }
        if (step != SQLITE_ROW || row_read(db, st, &p) != DB_OK)
            break;
        if (fn(arg, &p) != 0) {
            rc = DB_OK;
            break;
        }
    }
    db_unprepare(db, st);
    return rc;
}

int db_predict_open(struct db *db, int64_t account, struct db_prediction *out, int max, int *n)
{
    sqlite3_stmt *st = db_prepare(db, ROW_SQL "JOIN bouts b ON b.id = p.bout WHERE p.account = ?1 "
                                              "AND p.hits IS NULL AND b.state = 'live' "
                                              "ORDER BY p.bout");
    int rc = DB_ERROR;

    *n = 0;
    if (!st)
        return DB_ERROR;
    if (sqlite3_bind_int64(st, 1, account) != SQLITE_OK) {
        db_bind_failed(db, st);
        sqlite3_finalize(st);
        return DB_ERROR;
    }
    for (;;) {
        int step = *n < max ? db_row(db, st) : SQLITE_DONE;
        if (step == SQLITE_DONE) {
            rc = DB_OK;
            break;
        }
        if (step != SQLITE_ROW || row_read(db, st, &out[*n]) != DB_OK)
            break;
        (*n)++;
    }
    sqlite3_finalize(st);
    return rc;
}

int db_predict_score(struct db *db, int64_t bout, int winner, const char *method, int round)
{
    sqlite3_stmt *st = db_prepare(
        db, "UPDATE predictions SET hits = CASE WHEN side = ?2 THEN 1 "
            "+ CASE WHEN ?2 >= 0 AND method <> '' AND method = ?3 THEN 2 ELSE 0 END "
            "+ CASE WHEN ?2 >= 0 AND round > 0 AND round = ?4 THEN 4 ELSE 0 END ELSE 0 END "
            "WHERE bout = ?1 AND hits IS NULL");
    if (!st)
        return DB_ERROR;
    int bad = 0;
    bad |= sqlite3_bind_int64(st, 1, bout) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 2, winner) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 3, method ? method : "", -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 4, round) != SQLITE_OK;
    int rc = db_run(db, st, bad);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? DB_OK : DB_ERROR;
}

int db_predict_table(struct db *db, int rules, int64_t from, int64_t to, struct db_pundit *out,
                     int max, int *n)
{
    sqlite3_stmt *st = db_prepare(
        db, "SELECT a.name, sum(" POINTS_SQL ") AS pts, count(*) AS scored, "
            "sum(hits & 1) AS won FROM predictions p JOIN accounts a ON a.id = p.account "
            "JOIN bouts b ON b.id = p.bout WHERE p.hits IS NOT NULL "
            "AND (?1 IS NULL OR b.rules = ?1) AND b.ended >= ?2 AND (?3 = 0 OR b.ended < ?3) "
            "GROUP BY p.account ORDER BY pts DESC, won * 1.0 / scored DESC, scored DESC, "
            "a.name COLLATE NOCASE, p.account");
    const char *rname = rules >= 0 ? db_rules_name((enum rules)rules) : NULL;
    int rc = DB_ERROR;

    *n = 0;
    if (!st)
        return DB_ERROR;
    int bad = rname ? sqlite3_bind_text(st, 1, rname, -1, SQLITE_STATIC) != SQLITE_OK
                    : sqlite3_bind_null(st, 1) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 2, from) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 3, to) != SQLITE_OK;
    if (bad) {
        db_bind_failed(db, st);
        sqlite3_finalize(st);
        return DB_ERROR;
    }
    for (;;) {
        int step = *n < max ? db_row(db, st) : SQLITE_DONE;
        if (step == SQLITE_DONE) {
            rc = DB_OK;
            break;
        }
        struct db_pundit *u = &out[*n];
        if (step != SQLITE_ROW ||
            db_column_text(db, st, 0, u->name, sizeof(u->name), "a pundit's name") != DB_OK)
            break;
        u->points = sqlite3_column_int(st, 1);
        u->scored = sqlite3_column_int(st, 2);
        u->winners = sqlite3_column_int(st, 3);
        (*n)++;
    }
    sqlite3_finalize(st);
    return rc;
}
