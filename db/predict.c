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
 * (dbs_prepare_kept).
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
    struct dbs *q = dbs_prepare(db, "INSERT INTO predictions (bout, account, side, method, round, "
                                    "closes, made) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
                                    "ON CONFLICT (bout, account) DO UPDATE SET side = ?3, "
                                    "method = ?4, round = ?5, closes = ?6, made = ?7 "
                                    "WHERE predictions.hits IS NULL");
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, p->bout);
    dbs_bind_int64(q, 2, p->account);
    dbs_bind_int64(q, 3, p->side);
    dbs_bind_text(q, 4, p->method);
    dbs_bind_int64(q, 5, p->round);
    dbs_bind_int64(q, 6, p->closes);
    dbs_bind_int64(q, 7, p->made);
    int rc = dbs_run(q);
    int64_t changed = dbs_changes(q);
    enum dbs_error why = dbs_error(q);
    dbs_free(q);
    if (rc == DBS_DONE) {
        if (changed > 0)
            return DB_OK;
        db_fail(db, "the prediction on bout %" PRId64 " is already scored", p->bout);
        return DB_EXISTS;
    }
    if (why == DBS_E_FOREIGN_KEY) {
        db_fail(db, "no bout %" PRId64 " or no account %" PRId64, p->bout, p->account);
        return DB_NOTFOUND;
    }
    return DB_ERROR;
}

#define ROW_SQL                                                                                    \
    "SELECT p.bout, p.account, a.name, p.side, p.method, p.round, p.closes, p.made, "              \
    "coalesce(p.hits, -1), a.network FROM predictions p JOIN accounts a ON a.id = p.account "

/* The current row of a ROW_SQL query into *p. */
static int row_read(struct dbs *q, struct db_prediction *p)
{
    memset(p, 0, sizeof(*p));
    p->bout = dbs_col_int64(q, 0);
    p->account = dbs_col_int64(q, 1);
    p->side = dbs_col_int(q, 3);
    p->round = dbs_col_int(q, 5);
    p->closes = dbs_col_int(q, 6);
    p->made = dbs_col_int64(q, 7);
    p->hits = dbs_col_int(q, 8);
    if (dbs_col_copy(q, 2, p->name, sizeof(p->name), "a predictor's name") != DB_OK ||
        dbs_col_copy(q, 9, p->network, sizeof(p->network), "a predictor's network") != DB_OK)
        return DB_ERROR;
    const char *method = dbs_col_text(q, 4);
    if (method && *method)
        return dbs_col_copy(q, 4, p->method, sizeof(p->method), "a method");
    return DB_OK;
}

int db_predict_get(struct db *db, int64_t bout, int64_t account, struct db_prediction *out)
{
    struct dbs *q = dbs_prepare(db, ROW_SQL "WHERE p.bout = ?1 AND p.account = ?2");
    int rc = DB_ERROR;

    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, bout);
    dbs_bind_int64(q, 2, account);
    rc = dbs_step_one(q);
    if (rc == DB_OK)
        rc = row_read(q, out);
    else if (rc == DB_NOTFOUND)
        db_fail(db, "no prediction on bout %" PRId64, bout);
    dbs_free(q);
    return rc;
}

/* db_predict_each's: a bout page runs it at every view (kept). */
static const char each_sql[] = ROW_SQL "WHERE p.bout = ?1 ORDER BY p.made, p.account";

int db_predict_each(struct db *db, int64_t bout,
                    int (*fn)(void *arg, const struct db_prediction *p), void *arg)
{
    struct dbs *q = dbs_prepare_kept(db, each_sql);
    int rc = DB_ERROR;

    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, bout);
    for (;;) {
        struct db_prediction p;
        int step = dbs_step(q);
        if (step == DBS_DONE) {
            rc = DB_OK;
            break;
        }
        if (step != DBS_ROW || row_read(q, &p) != DB_OK)
            break;
        if (fn(arg, &p) != 0) {
            rc = DB_OK;
            break;
        }
    }
    dbs_free(q);
    return rc;
}

int db_predict_open(struct db *db, int64_t account, struct db_prediction *out, int max, int *n)
{
    struct dbs *q = dbs_prepare(db, ROW_SQL "JOIN bouts b ON b.id = p.bout WHERE p.account = ?1 "
                                            "AND p.hits IS NULL AND b.state = 'live' "
                                            "ORDER BY p.bout");
    int rc = DB_ERROR;

    *n = 0;
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, account);
    for (;;) {
        int step = *n < max ? dbs_step(q) : DBS_DONE;
        if (step == DBS_DONE) {
            rc = DB_OK;
            break;
        }
        if (step != DBS_ROW || row_read(q, &out[*n]) != DB_OK)
            break;
        (*n)++;
    }
    dbs_free(q);
    return rc;
}

int db_predict_score(struct db *db, int64_t bout, int winner, const char *method, int round)
{
    struct dbs *q = dbs_prepare(
        db, "UPDATE predictions SET hits = CASE WHEN side = ?2 THEN 1 "
            "+ CASE WHEN ?2 >= 0 AND method <> '' AND method = ?3 THEN 2 ELSE 0 END "
            "+ CASE WHEN ?2 >= 0 AND round > 0 AND round = ?4 THEN 4 ELSE 0 END ELSE 0 END "
            "WHERE bout = ?1 AND hits IS NULL");
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, bout);
    dbs_bind_int64(q, 2, winner);
    dbs_bind_text(q, 3, method ? method : "");
    dbs_bind_int64(q, 4, round);
    int rc = dbs_run(q);
    dbs_free(q);
    return rc == DBS_DONE ? DB_OK : DB_ERROR;
}

int db_predict_table(struct db *db, int rules, int64_t from, int64_t to, struct db_pundit *out,
                     int max, int *n)
{
    struct dbs *q = dbs_prepare(
        db, "SELECT a.name, sum(" POINTS_SQL ") AS pts, count(*) AS scored, "
            "sum(hits & 1) AS won, a.network FROM predictions p "
            "JOIN accounts a ON a.id = p.account JOIN bouts b ON b.id = p.bout "
            "WHERE p.hits IS NOT NULL AND (CAST(?1 AS TEXT) IS NULL OR b.rules = ?1) "
            "AND b.ended >= ?2 AND (?3 = 0 OR b.ended < ?3) GROUP BY p.account, a.name, a.network "
            "ORDER BY pts DESC, sum(hits & 1) * 1.0 / count(*) DESC, scored DESC, "
            "lower(a.name), p.account");
    const char *rname = rules >= 0 ? db_rules_name((enum rules)rules) : NULL;
    int rc = DB_ERROR;

    *n = 0;
    if (!q)
        return DB_ERROR;
    dbs_bind_text(q, 1, rname); /* NULL for every ruleset */
    dbs_bind_int64(q, 2, from);
    dbs_bind_int64(q, 3, to);
    for (;;) {
        int step = *n < max ? dbs_step(q) : DBS_DONE;
        if (step == DBS_DONE) {
            rc = DB_OK;
            break;
        }
        struct db_pundit *u = &out[*n];
        if (step != DBS_ROW ||
            dbs_col_copy(q, 0, u->name, sizeof(u->name), "a pundit's name") != DB_OK ||
            dbs_col_copy(q, 4, u->network, sizeof(u->network), "a pundit's network") != DB_OK)
            break;
        u->points = dbs_col_int(q, 1);
        u->scored = dbs_col_int(q, 2);
        u->winners = dbs_col_int(q, 3);
        (*n)++;
    }
    dbs_free(q);
    return rc;
}
