/*
 * rating.c - the fighters' ratings (migration 11): one row per fighter and
 * ruleset in `ratings` once a bout that counts moved it, and one row per
 * fighter and bout in `rating_history`. The arithmetic is game/rating.c's;
 * this file only stores and reads. A fighter without a row is a newcomer.
 *
 * db_rating_put writes both rows and is meant to run inside the
 * transaction that stores the bout's result, so that a result is never
 * stored without what it did to the ratings, nor the reverse. A league
 * turn, whose fighters fight two bouts each, reads its ruleset's ratings
 * once (db_rating_each), writes each bout's history rows as it goes
 * (db_rating_history_put) and each fighter's rating once at the end
 * (db_rating_set), all in the turn's transaction: half the upserts, and
 * half the moves in the ratings_top index.
 */
#include <inttypes.h>

#include "db_internal.h"

/* The stored name of `rules`, or NULL with the message in db->err. */
static const char *rules_stored(struct db *db, enum rules rules)
{
    const char *name = db_rules_name(rules);

    if (!name)
        db_fail(db, "no storage for ruleset %d", (int)rules);
    return name;
}

int db_rating_get(struct db *db, int64_t fighter, enum rules rules, struct db_rating *out)
{
    const char *name = rules_stored(db, rules);
    if (!name)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_RATING_GET);
    int rc = DB_ERROR;
    dbs_bind_int64(q, 1, fighter);
    dbs_bind_text(q, 2, name);
    rc = dbs_step_one(q);
    if (rc == DB_OK) {
        out->rating = dbs_col_double(q, 0);
        out->rd = dbs_col_double(q, 1);
        out->vol = dbs_col_double(q, 2);
        out->bouts = dbs_col_int(q, 3);
    }
    dbs_reset(q);
    return rc;
}

int db_rating_changed(struct db *db, int64_t since, int64_t *stamp,
                      void (*fn)(void *ctx, int64_t fighter, enum rules rules,
                                 const struct db_rating *r),
                      void *ctx)
{
    int64_t top = 0;
    int rc;

    /* db_changed_since reads the top stamp and binds the table's
     * STMT_RATING_CHANGED, which q then steps. */
    if (!db_changed_since(db, STMT_RATING_STAMP, STMT_RATING_CHANGED, since, &top))
        return DB_ERROR;
    struct dbs *q = dbs_table(db, STMT_RATING_CHANGED);
    int status = DB_OK;
    char rules[32];
    while ((rc = dbs_step(q)) == DBS_ROW) {
        if (dbs_col_copy(q, 1, rules, sizeof(rules), "ruleset") != DB_OK) {
            status = DB_ERROR;
            break;
        }
        int id = db_rules_find(rules);
        struct db_rating r = {dbs_col_double(q, 2), dbs_col_double(q, 3), dbs_col_double(q, 4),
                              dbs_col_int(q, 5)};
        if (id >= 0) /* a ruleset this ringside does not know: no page shows it */
            fn(ctx, dbs_col_int64(q, 0), (enum rules)id, &r);
    }
    if (status == DB_OK && rc != DBS_DONE)
        status = DB_ERROR;
    dbs_reset(q);
    if (status == DB_OK)
        *stamp = top;
    return status;
}

/* Binds the ratings upsert `q` (STMT_RATING_PUT, whose ?6 is `at`, or
 * STMT_RATING_SET, whose ?6 is `bouts` and ?7 `at`). */
static void rating_row_bind(struct dbs *q, int64_t fighter, const char *name,
                            const struct db_rating *r, int bouts_at, int64_t at)
{
    dbs_bind_int64(q, 1, fighter);
    dbs_bind_text(q, 2, name);
    dbs_bind_double(q, 3, r->rating);
    dbs_bind_double(q, 4, r->rd);
    dbs_bind_double(q, 5, r->vol);
    if (bouts_at)
        dbs_bind_int64(q, 6, r->bouts);
    dbs_bind_int64(q, 6 + bouts_at, at);
}

/* Binds and runs it. */
static int rating_row_put(struct dbs *q, int64_t fighter, const char *name,
                          const struct db_rating *r, int bouts_at, int64_t at)
{
    rating_row_bind(q, fighter, name, r, bouts_at, at);
    return dbs_run(q) == DBS_DONE ? DB_OK : DB_ERROR;
}

/* STMT_RATING_HISTORY_PUT for many points at once on PostgreSQL, a row
 * of the league turn's batch each (dbs_rows_add). */
static const char history_rows_sql[] =
    "INSERT INTO rating_history (bout, fighter, side, before, rating, rd, vol, at)"
    " SELECT * FROM unnest(CAST(?1 AS BIGINT[]), CAST(?2 AS BIGINT[]), CAST(?3 AS BIGINT[]),"
    " CAST(?4 AS DOUBLE PRECISION[]), CAST(?5 AS DOUBLE PRECISION[]),"
    " CAST(?6 AS DOUBLE PRECISION[]), CAST(?7 AS DOUBLE PRECISION[]), CAST(?8 AS BIGINT[]))";

/* One point of history: fighter `fighter` on side `side` of bout `bout`,
 * from `before` to `r` (STMT_RATING_HISTORY_PUT). */
static int history_row_put(struct db *db, int64_t bout, int64_t fighter, int side, double before,
                           const struct db_rating *r, int64_t at)
{
    int rows = dbs_rows_open(db);
    struct dbs *q =
        rows ? dbs_prepare_kept(db, history_rows_sql) : dbs_table(db, STMT_RATING_HISTORY_PUT);

    if (!q)
        return DB_ERROR;

    dbs_bind_int64(q, 1, bout);
    dbs_bind_int64(q, 2, fighter);
    dbs_bind_int64(q, 3, side);
    dbs_bind_double(q, 4, before);
    dbs_bind_double(q, 5, r->rating);
    dbs_bind_double(q, 6, r->rd);
    dbs_bind_double(q, 7, r->vol);
    dbs_bind_int64(q, 8, at);
    int rc = (rows ? dbs_rows_add(q) : dbs_run(q)) == DBS_DONE ? DB_OK : DB_ERROR;
    if (rows)
        dbs_free(q); /* kept: only reset (past DB_KEPT_MAX: finalized) */
    return rc;
}

int db_rating_put(struct db *db, int64_t fighter, enum rules rules, const struct db_rating *r,
                  int64_t bout, int side, double before, int64_t at)
{
    const char *name = rules_stored(db, rules);
    if (!name || rating_row_put(dbs_table(db, STMT_RATING_PUT), fighter, name, r, 0, at) != DB_OK)
        return DB_ERROR;
    return history_row_put(db, bout, fighter, side, before, r, at);
}

int db_rating_history_put(struct db *db, int64_t bout, const int64_t fighter[2],
                          const struct db_rating r[2], const double before[2], int64_t at)
{
    /* Two one-row INSERTs, not one of two rows: SQLite keeps a statement
     * journal for a statement that writes several rows and may fail on a
     * foreign key, copying every page it touches first, which cost more
     * than the second statement. */
    for (int s = 0; s < 2; s++)
        if (history_row_put(db, bout, fighter[s], s, before[s], &r[s], at) != DB_OK)
            return DB_ERROR;
    return DB_OK;
}

int db_rating_set(struct db *db, int64_t fighter, enum rules rules, const struct db_rating *r,
                  int64_t at)
{
    const char *name = rules_stored(db, rules);

    if (!name)
        return DB_ERROR;
    if (r->bouts < 1)
        return db_fail(db, "fighter %" PRId64 ": a stored rating has a bout, not %d", fighter,
                       r->bouts);
    return rating_row_put(dbs_table(db, STMT_RATING_SET), fighter, name, r, 1, at);
}

/* STMT_RATING_SET with the change stamp bound (?8), and the UPDATE of a
 * stored row alone: SQLite's upsert tries the INSERT first (its foreign
 * key and unique checks, a tenth of the write) before it updates. */
static const char rating_upsert_stamped_sql[] =
    "INSERT INTO ratings (fighter, rules, rating, rd, vol, bouts, updated, changed)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (fighter, rules)"
    " DO UPDATE SET rating = excluded.rating, rd = excluded.rd, vol = excluded.vol,"
    " bouts = excluded.bouts, updated = excluded.updated, changed = excluded.changed";
static const char rating_update_stamped_sql[] =
    "UPDATE ratings SET rating = ?3, rd = ?4, vol = ?5, bouts = ?6, updated = ?7, changed = ?8"
    " WHERE fighter = ?1 AND rules = ?2";

/* Runs one of the stamped writes for fighter `fighter`: DB_OK with the
 * rows it changed in *changes, or DB_ERROR. */
static int rating_stamped_run(struct db *db, const char *sql, int64_t fighter, const char *name,
                              const struct db_rating *r, int64_t at, int64_t stamp,
                              int64_t *changes)
{
    struct dbs *q = dbs_prepare_kept(db, sql);

    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 8, stamp);
    int rc = rating_row_put(q, fighter, name, r, 1, at);
    *changes = rc == DB_OK ? dbs_changes(q) : 0;
    dbs_free(q); /* kept: only reset (past DB_KEPT_MAX: finalized) */
    return rc;
}

/* The upsert for many fighters at once on PostgreSQL (dbs_rows_add). */
static const char rating_upsert_rows_sql[] =
    "INSERT INTO ratings (fighter, rules, rating, rd, vol, bouts, updated, changed)"
    " SELECT * FROM unnest(CAST(?1 AS BIGINT[]), CAST(?2 AS TEXT[]),"
    " CAST(?3 AS DOUBLE PRECISION[]), CAST(?4 AS DOUBLE PRECISION[]),"
    " CAST(?5 AS DOUBLE PRECISION[]), CAST(?6 AS BIGINT[]), CAST(?7 AS BIGINT[]),"
    " CAST(?8 AS BIGINT[])) ON CONFLICT (fighter, rules)"
    " DO UPDATE SET rating = excluded.rating, rd = excluded.rd, vol = excluded.vol,"
    " bouts = excluded.bouts, updated = excluded.updated, changed = excluded.changed";

/* PostgreSQL's stamped write in a league turn's batch: the upsert alone,
 * whatever `stored` says (the row the UPDATE would leave, and one row
 * changed in either case), as a row of the batch (dbs_rows_add), with no
 * answer to wait for. */
static int rating_stamped_rows(struct db *db, int64_t fighter, const char *name,
                               const struct db_rating *r, int64_t at, int64_t stamp)
{
    struct dbs *q = dbs_prepare_kept(db, rating_upsert_rows_sql);

    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 8, stamp);
    rating_row_bind(q, fighter, name, r, 1, at);
    int rc = dbs_rows_add(q) == DBS_DONE ? DB_OK : DB_ERROR;
    dbs_free(q); /* kept: only reset (past DB_KEPT_MAX: finalized) */
    return rc;
}

int db_rating_set_stamped(struct db *db, int64_t fighter, enum rules rules,
                          const struct db_rating *r, int64_t at, int stored, int64_t stamp)
{
    const char *name = rules_stored(db, rules);
    int64_t changes = 0;

    if (!name)
        return DB_ERROR;
    if (r->bouts < 1)
        return db_fail(db, "fighter %" PRId64 ": a stored rating has a bout, not %d", fighter,
                       r->bouts);
    if (stamp <= 0)
        return db_rating_set(db, fighter, rules, r, at);
    if (dbs_rows_open(db))
        return rating_stamped_rows(db, fighter, name, r, at, stamp);
    if (stored && rating_stamped_run(db, rating_update_stamped_sql, fighter, name, r, at, stamp,
                                     &changes) != DB_OK)
        return DB_ERROR;
    if (changes > 0)
        return DB_OK;
    return rating_stamped_run(db, rating_upsert_stamped_sql, fighter, name, r, at, stamp, &changes);
}

int db_rating_stamp_top(struct db *db, int64_t *top)
{
    struct dbs *q = dbs_table(db, STMT_RATING_STAMP);
    int rc = dbs_step_one(q);

    if (rc == DB_OK)
        *top = dbs_col_int64(q, 0);
    dbs_reset(q);
    return rc == DB_OK ? DB_OK : DB_ERROR;
}

int db_rating_each(struct db *db, enum rules rules,
                   void (*fn)(void *ctx, int64_t fighter, const struct db_rating *r), void *ctx)
{
    const char *name = rules_stored(db, rules);
    if (!name)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_RATING_EACH);
    int step;
    dbs_bind_text(q, 1, name);
    while ((step = dbs_step(q)) == DBS_ROW) {
        struct db_rating r = {
            .rating = dbs_col_double(q, 1),
            .rd = dbs_col_double(q, 2),
            .vol = dbs_col_double(q, 3),
            .bouts = dbs_col_int(q, 4),
        };
        fn(ctx, dbs_col_int64(q, 0), &r);
    }
    dbs_reset(q);
    return step == DBS_DONE ? DB_OK : DB_ERROR;
}

int db_rating_history(struct db *db, int64_t fighter, struct db_rating_point *out, int max, int *n)
{
    struct dbs *q = dbs_table(db, STMT_RATING_HISTORY);
    int rc = DB_OK, step;

    *n = 0;
    dbs_bind_int64(q, 1, fighter);
    dbs_bind_int64(q, 2, max);
    while ((step = dbs_step(q)) == DBS_ROW && *n < max) {
        struct db_rating_point *p = &out[(*n)++];
        p->bout = dbs_col_int64(q, 0);
        p->fighter = fighter;
        p->side = -1;
        p->before = dbs_col_double(q, 1);
        p->rating = dbs_col_double(q, 2);
        p->rd = dbs_col_double(q, 3);
        p->at = dbs_col_int64(q, 4);
    }
    if (step != DBS_ROW && step != DBS_DONE) {
        *n = 0;
        rc = DB_ERROR;
    }
    dbs_reset(q);
    return rc;
}

int db_rating_of_bout(struct db *db, int64_t bout, struct db_rating_point out[2], int *n)
{
    struct dbs *q = dbs_table(db, STMT_RATING_OF_BOUT);
    int rc = DB_OK, step;

    *n = 0;
    dbs_bind_int64(q, 1, bout);
    while ((step = dbs_step(q)) == DBS_ROW && *n < 2) {
        struct db_rating_point *p = &out[(*n)++];
        p->bout = bout;
        p->side = dbs_col_int(q, 0);
        p->fighter = dbs_col_int64(q, 1);
        p->before = dbs_col_double(q, 2);
        p->rating = dbs_col_double(q, 3);
        p->rd = dbs_col_double(q, 4);
        p->at = 0;
    }
    if (step != DBS_ROW && step != DBS_DONE) {
        *n = 0;
        rc = DB_ERROR;
    }
    dbs_reset(q);
    return rc;
}

/* How many rated fighters of ruleset `name` are not retired, into *total. */
static int rating_count(struct db *db, const char *name, int *total)
{
    struct dbs *q = dbs_table(db, STMT_RATING_COUNT);
    int rc = DB_ERROR;

    dbs_bind_text(q, 1, name);
    if (dbs_step(q) == DBS_ROW) {
        *total = dbs_col_int(q, 0);
        rc = DB_OK;
    }
    dbs_reset(q);
    return rc;
}

int db_rating_top(struct db *db, enum rules rules, int offset, struct db_rating_row *out, int max,
                  int *n, int *total)
{
    const char *name = rules_stored(db, rules);
    int rc = DB_OK, step;

    *n = 0;
    if (!name || (total && rating_count(db, name, total) != DB_OK))
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_RATING_TOP);
    dbs_bind_text(q, 1, name);
    dbs_bind_int64(q, 2, max);
    dbs_bind_int64(q, 3, offset < 0 ? 0 : offset);
    while ((step = dbs_step(q)) == DBS_ROW && *n < max) {
        struct db_rating_row *r = &out[*n];
        r->fighter = dbs_col_int64(q, 0);
        if (dbs_col_copy(q, 1, r->name, sizeof(r->name), "fighter name") != DB_OK) {
            rc = DB_ERROR;
            break;
        }
        r->rating = dbs_col_double(q, 2);
        r->rd = dbs_col_double(q, 3);
        r->bouts = dbs_col_int(q, 4);
        (*n)++;
    }
    if (rc == DB_OK && step != DBS_ROW && step != DBS_DONE)
        rc = DB_ERROR;
    if (rc != DB_OK)
        *n = 0;
    dbs_reset(q);
    return rc;
}
