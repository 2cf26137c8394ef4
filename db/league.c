/*
 * league.c - what leagues keep beyond the fighters' own columns (migration
 * 3): each ruleset's International Champion, and the turns run so far.
 *
 * The champion is one row per ruleset, whose `fighter` is NULL while the
 * title is vacant (a file that never had a champion has no row: vacant
 * too). The champion is a fighter of that ruleset; db_champion_set checks
 * it. `since` is when he won the title: setting the same champion again (a
 * successful defence) keeps it.
 *
 * Turns are numbered per ruleset from 1, without gaps: the INSERT takes the
 * next number itself (STMT_TURN_ADD), so a turn added in a transaction that
 * is rolled back leaves its number free for the next.
 *
 * A turn reads all of a ruleset's active fighters at once: their number
 * first (db_league_count, so that the list is read once into an array of
 * the right size), then all their plans in one statement (db_league_plans);
 * and it runs with a page cache large enough for its writes (db_league_cache).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "db_internal.h"
#include "util.h"

/* The stored name of `rules`, or NULL with the message in db->err. */
static const char *rules_stored(struct db *db, enum rules rules)
{
    const char *name = db_rules_name(rules);

    if (!name)
        db_fail(db, "no storage for ruleset %d", (int)rules);
    return name;
}

/* --------------------------------------------------------- a turn's reads */

int db_league_count(struct db *db, enum rules rules, int *n)
{
    const char *name = rules_stored(db, rules);

    *n = 0;
    if (!name)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_LEAGUE_COUNT];
    int rc = DB_ERROR;
    if (sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK) {
        db_bind_failed(db, st);
    } else if (db_row(db, st) == SQLITE_ROW) {
        *n = sqlite3_column_int(st, 0);
        rc = DB_OK;
    }
    db_stmt_done(st);
    return rc;
}

int db_league_plans(struct db *db, enum rules rules,
                    void (*each)(void *ctx, int64_t fighter, const char *text), void *ctx)
{
    const char *name = rules_stored(db, rules);

    if (!name)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_LEAGUE_PLANS];
    char *text = xmalloc(DB_PLAN_MAX), what[64];
    int rc = DB_OK, step = SQLITE_DONE;
    if (sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK) {
        db_bind_failed(db, st);
        rc = DB_ERROR;
    }
    while (rc == DB_OK && (step = db_row(db, st)) == SQLITE_ROW) {
        int64_t fighter = sqlite3_column_int64(st, 0);
        snprintf(what, sizeof(what), "the plan of fighter %" PRId64, fighter);
        rc = db_column_text(db, st, 1, text, DB_PLAN_MAX, what);
        if (rc == DB_OK)
            each(ctx, fighter, text);
    }
    if (rc == DB_OK && step != SQLITE_DONE)
        rc = DB_ERROR;
    db_stmt_done(st);
    free(text);
    return rc;
}

/* 64 MiB, allocated only as pages are used; SQLite's default is 2 MiB. */
#define CACHE_TURN    "PRAGMA cache_size = -65536"
#define CACHE_DEFAULT "PRAGMA cache_size = -2000"

void db_league_cache(struct db *db, int turn)
{
    /* Not a statement prepared once: SQLite sets the cache size of a
     * PRAGMA when preparing it. Straight to SQLite, past the fault hook:
     * the cache's size is no data, and a turn fights the same with either;
     * a failure costs speed only. */
    sqlite3_exec(db->conn, turn ? CACHE_TURN : CACHE_DEFAULT, NULL, NULL, NULL);
}

/* ------------------------------------------------------------- champions */

int db_champion_get(struct db *db, enum rules rules, int64_t *fighter, int *defences)
{
    const char *name = rules_stored(db, rules);

    if (!name)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_CHAMPION_GET];
    int rc = DB_ERROR;

    if (sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK) {
        db_bind_failed(db, st);
    } else {
        switch (db_row(db, st)) {
        case SQLITE_ROW:
            if (sqlite3_column_type(st, 0) == SQLITE_NULL) {
                db_fail(db, "the %s title is vacant", name);
                rc = DB_NOTFOUND;
                break;
            }
            *fighter = sqlite3_column_int64(st, 0);
            *defences = sqlite3_column_int(st, 1);
            rc = *defences >= 0 ? DB_OK
                                : db_fail(db, "the %s champion has %d defences", name, *defences);
            break;
        case SQLITE_DONE:
            db_fail(db, "the %s title is vacant", name);
            rc = DB_NOTFOUND;
            break;
        default:
            break;
        }
    }
    db_stmt_done(st);
    return rc;
}

int db_champion_set(struct db *db, enum rules rules, int64_t fighter, int defences, int64_t now)
{
    const char *name = rules_stored(db, rules);

    if (!name)
        return DB_ERROR;
    if (fighter < 0 || defences < 0)
        return db_fail(db, "%s champion %" PRId64 " with %d defences: out of range", name, fighter,
                       defences);
    if (fighter > 0) {
        struct db_fighter f;
        int rc = db_fighter_get_id(db, fighter, &f);

        if (rc == DB_NOTFOUND)
            db_fail(db, "no fighter %" PRId64, fighter);
        if (rc != DB_OK)
            return rc;
        if (f.sheet.rules != rules)
            return db_fail(db, "fighter %s cannot hold the %s title: he fights %s", f.name, name,
                           db_rules_name(f.sheet.rules));
    } else {
        defences = 0; /* a vacant title has none */
    }

    sqlite3_stmt *st = db->st[STMT_CHAMPION_SET];
    int bad = sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |=
        (fighter > 0 ? sqlite3_bind_int64(st, 2, fighter) : sqlite3_bind_null(st, 2)) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 3, defences) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 4, now) != SQLITE_OK;
    switch (db_run(db, st, bad)) {
    case SQLITE_DONE:
        return DB_OK;
    case SQLITE_CONSTRAINT_FOREIGNKEY:
        db_fail(db, "no fighter %" PRId64, fighter);
        return DB_NOTFOUND;
    default:
        return DB_ERROR;
    }
}

/* ----------------------------------------------------------------- turns */

int db_turn_add(struct db *db, enum rules rules, int64_t now, int *number)
{
    const char *name = rules_stored(db, rules);

    if (!name)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_TURN_ADD];
    int bad = sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 2, now) != SQLITE_OK;
    if (bad) {
        db_bind_failed(db, st);
        db_stmt_done(st);
        return DB_ERROR;
    }
    /* RETURNING gives the row; stepping on to SQLITE_DONE ends the
     * statement, and so commits it outside a transaction. */
    int rc = DB_ERROR, got = 0, step = db_row(db, st);
    if (step == SQLITE_DONE)
        db_fail(db, "adding a turn returned no number");
    if (step == SQLITE_ROW) {
        got = sqlite3_column_int(st, 0);
        switch (db_row(db, st)) {
        case SQLITE_DONE:
            rc = DB_OK;
            break;
        case SQLITE_ROW:
            db_fail(db, "adding a turn returned more than one row");
            break;
        default:
            break;
        }
    }
    db_stmt_done(st);
    if (rc == DB_OK)
        *number = got;
    return rc;
}

int db_turn_last(struct db *db, enum rules rules, int *number, int64_t *when)
{
    const char *name = rules_stored(db, rules);

    if (!name)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_TURN_LAST];
    int rc = DB_ERROR;

    if (sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK) {
        db_bind_failed(db, st);
    } else {
        switch (db_row(db, st)) {
        case SQLITE_ROW:
            *number = sqlite3_column_int(st, 0);
            *when = sqlite3_column_int64(st, 1);
            rc = DB_OK;
            break;
        case SQLITE_DONE:
            db_fail(db, "no %s turn has run yet", name);
            rc = DB_NOTFOUND;
            break;
        default:
            break;
        }
    }
    db_stmt_done(st);
    return rc;
}
