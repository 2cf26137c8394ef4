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

    sqlite3_stmt *st = db->st[STMT_RATING_GET];
    int rc = DB_ERROR;
    int bad = sqlite3_bind_int64(st, 1, fighter) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC) != SQLITE_OK;
    if (bad) {
        db_bind_failed(db, st);
    } else {
        switch (db_row(db, st)) {
        case SQLITE_ROW:
            out->rating = sqlite3_column_double(st, 0);
            out->rd = sqlite3_column_double(st, 1);
            out->vol = sqlite3_column_double(st, 2);
            out->bouts = sqlite3_column_int(st, 3);
            rc = DB_OK;
            break;
        case SQLITE_DONE:
            rc = DB_NOTFOUND;
            break;
        default:
            break;
        }
    }
    db_stmt_done(st);
    return rc;
}

int db_rating_changed(struct db *db, int64_t since, int64_t *stamp,
                      void (*fn)(void *ctx, int64_t fighter, enum rules rules,
                                 const struct db_rating *r),
                      void *ctx)
{
    int64_t top = 0;
    sqlite3_stmt *st = db_changed_since(db, STMT_RATING_STAMP, STMT_RATING_CHANGED, since, &top);
    int rc;

    if (!st)
        return DB_ERROR;
    int status = DB_OK;
    char rules[32];
    while ((rc = db_row(db, st)) == SQLITE_ROW) {
        if (db_column_text(db, st, 1, rules, sizeof(rules), "ruleset") != DB_OK) {
            status = DB_ERROR;
            break;
        }
        int id = db_rules_find(rules);
        struct db_rating r = {sqlite3_column_double(st, 2), sqlite3_column_double(st, 3),
                              sqlite3_column_double(st, 4), sqlite3_column_int(st, 5)};
        if (id >= 0) /* a ruleset this ringside does not know: no page shows it */
            fn(ctx, sqlite3_column_int64(st, 0), (enum rules)id, &r);
    }
    if (status == DB_OK && rc != SQLITE_DONE)
        status = DB_ERROR;
    db_stmt_done(st);
    if (status == DB_OK)
        *stamp = top;
    return status;
}

/* Binds and runs the ratings upsert `st` (STMT_RATING_PUT, whose ?6 is
 * `at`, or STMT_RATING_SET, whose ?6 is `bouts` and ?7 `at`). */
static int rating_row_put(struct db *db, sqlite3_stmt *st, int64_t fighter, const char *name,
                          const struct db_rating *r, int bouts_at, int64_t at)
{
    int bad = sqlite3_bind_int64(st, 1, fighter) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_double(st, 3, r->rating) != SQLITE_OK;
    bad |= sqlite3_bind_double(st, 4, r->rd) != SQLITE_OK;
    bad |= sqlite3_bind_double(st, 5, r->vol) != SQLITE_OK;
    if (bouts_at)
        bad |= sqlite3_bind_int(st, 6, r->bouts) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 6 + bouts_at, at) != SQLITE_OK;
    return db_run(db, st, bad) == SQLITE_DONE ? DB_OK : DB_ERROR;
}

int db_rating_put(struct db *db, int64_t fighter, enum rules rules, const struct db_rating *r,
                  int64_t bout, int side, double before, int64_t at)
{
    const char *name = rules_stored(db, rules);
    if (!name || rating_row_put(db, db->st[STMT_RATING_PUT], fighter, name, r, 0, at) != DB_OK)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_RATING_HISTORY_PUT];
    int bad = sqlite3_bind_int64(st, 1, bout) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 2, fighter) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 3, side) != SQLITE_OK;
    bad |= sqlite3_bind_double(st, 4, before) != SQLITE_OK;
    bad |= sqlite3_bind_double(st, 5, r->rating) != SQLITE_OK;
    bad |= sqlite3_bind_double(st, 6, r->rd) != SQLITE_OK;
    bad |= sqlite3_bind_double(st, 7, r->vol) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 8, at) != SQLITE_OK;
    return db_run(db, st, bad) == SQLITE_DONE ? DB_OK : DB_ERROR;
}

int db_rating_history_put(struct db *db, int64_t bout, const int64_t fighter[2],
                          const struct db_rating r[2], const double before[2], int64_t at)
{
    sqlite3_stmt *st = db->st[STMT_RATING_HISTORY_PUT2];
    int bad = sqlite3_bind_int64(st, 1, bout) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 7, at) != SQLITE_OK;
    for (int s = 0; s < 2; s++) {
        int p = 6 * s; /* side 0: ?2 to ?6; side 1: ?8 to ?12 */
        bad |= sqlite3_bind_int64(st, 2 + p, fighter[s]) != SQLITE_OK;
        bad |= sqlite3_bind_double(st, 3 + p, before[s]) != SQLITE_OK;
        bad |= sqlite3_bind_double(st, 4 + p, r[s].rating) != SQLITE_OK;
        bad |= sqlite3_bind_double(st, 5 + p, r[s].rd) != SQLITE_OK;
        bad |= sqlite3_bind_double(st, 6 + p, r[s].vol) != SQLITE_OK;
    }
    return db_run(db, st, bad) == SQLITE_DONE ? DB_OK : DB_ERROR;
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
    return rating_row_put(db, db->st[STMT_RATING_SET], fighter, name, r, 1, at);
}

int db_rating_each(struct db *db, enum rules rules,
                   void (*fn)(void *ctx, int64_t fighter, const struct db_rating *r), void *ctx)
{
    const char *name = rules_stored(db, rules);
    if (!name)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_RATING_EACH];
    int step;
    if (sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK) {
        db_stmt_done(st);
        return db_bind_failed(db, st);
    }
    while ((step = db_row(db, st)) == SQLITE_ROW) {
        struct db_rating r = {
            .rating = sqlite3_column_double(st, 1),
            .rd = sqlite3_column_double(st, 2),
            .vol = sqlite3_column_double(st, 3),
            .bouts = sqlite3_column_int(st, 4),
        };
        fn(ctx, sqlite3_column_int64(st, 0), &r);
    }
    db_stmt_done(st);
    return step == SQLITE_DONE ? DB_OK : DB_ERROR;
}

int db_rating_history(struct db *db, int64_t fighter, struct db_rating_point *out, int max, int *n)
{
    sqlite3_stmt *st = db->st[STMT_RATING_HISTORY];
    int rc = DB_OK, step;

    *n = 0;
    int bad = sqlite3_bind_int64(st, 1, fighter) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 2, max) != SQLITE_OK;
    if (bad) {
        db_stmt_done(st);
        return db_bind_failed(db, st);
    }
    while ((step = db_row(db, st)) == SQLITE_ROW && *n < max) {
        struct db_rating_point *p = &out[(*n)++];
        p->bout = sqlite3_column_int64(st, 0);
        p->fighter = fighter;
        p->side = -1;
        p->before = sqlite3_column_double(st, 1);
        p->rating = sqlite3_column_double(st, 2);
        p->rd = sqlite3_column_double(st, 3);
        p->at = sqlite3_column_int64(st, 4);
    }
    if (step != SQLITE_ROW && step != SQLITE_DONE) {
        *n = 0;
        rc = DB_ERROR;
    }
    db_stmt_done(st);
    return rc;
}

int db_rating_of_bout(struct db *db, int64_t bout, struct db_rating_point out[2], int *n)
{
    sqlite3_stmt *st = db->st[STMT_RATING_OF_BOUT];
    int rc = DB_OK, step;

    *n = 0;
    if (sqlite3_bind_int64(st, 1, bout) != SQLITE_OK) {
        db_stmt_done(st);
        return db_bind_failed(db, st);
    }
    while ((step = db_row(db, st)) == SQLITE_ROW && *n < 2) {
        struct db_rating_point *p = &out[(*n)++];
        p->bout = bout;
        p->side = sqlite3_column_int(st, 0);
        p->fighter = sqlite3_column_int64(st, 1);
        p->before = sqlite3_column_double(st, 2);
        p->rating = sqlite3_column_double(st, 3);
        p->rd = sqlite3_column_double(st, 4);
        p->at = 0;
    }
    if (step != SQLITE_ROW && step != SQLITE_DONE) {
        *n = 0;
        rc = DB_ERROR;
    }
    db_stmt_done(st);
    return rc;
}

/* How many rated fighters of ruleset `name` are not retired, into *total. */
static int rating_count(struct db *db, const char *name, int *total)
{
    sqlite3_stmt *st = db->st[STMT_RATING_COUNT];
    int rc = DB_ERROR;

    if (sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK) {
        db_bind_failed(db, st);
    } else if (db_row(db, st) == SQLITE_ROW) {
        *total = sqlite3_column_int(st, 0);
        rc = DB_OK;
    }
    db_stmt_done(st);
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

    sqlite3_stmt *st = db->st[STMT_RATING_TOP];
    int bad = sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 2, max) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 3, offset < 0 ? 0 : offset) != SQLITE_OK;
    if (bad) {
        db_stmt_done(st);
        return db_bind_failed(db, st);
    }
    while ((step = db_row(db, st)) == SQLITE_ROW && *n < max) {
        struct db_rating_row *r = &out[*n];
        r->fighter = sqlite3_column_int64(st, 0);
        if (db_column_text(db, st, 1, r->name, sizeof(r->name), "fighter name") != DB_OK) {
            rc = DB_ERROR;
            break;
        }
        r->rating = sqlite3_column_double(st, 2);
        r->rd = sqlite3_column_double(st, 3);
        r->bouts = sqlite3_column_int(st, 4);
        (*n)++;
    }
    if (rc == DB_OK && step != SQLITE_ROW && step != SQLITE_DONE)
        rc = DB_ERROR;
    if (rc != DB_OK)
        *n = 0;
    db_stmt_done(st);
    return rc;
}
