/*
 * season.c - the seasons ended, their final standings and the hall of fame
 * (migration 13).
 *
 * Its statements are prepared when used and finalised after (a season
 * ends a few times a year and the pages that read them are kept by the
 * web's cache), so the connection's table of statements stays as it was.
 * Every write runs in the caller's transaction: a season's end is one.
 */
#include <inttypes.h>

#include "db_internal.h"

static const char *const honour_names[] = {"bronze", "silver", "gold", "champion"};
static const struct db_names honours = {"honour", honour_names, COUNT(honour_names)};

/* Prepares `sql` into *st: DB_OK, or DB_ERROR with SQLite's message. */
static int prep(struct db *db, const char *sql, sqlite3_stmt **st)
{
    *st = NULL;
    if (sqlite3_prepare_v2(db->conn, sql, -1, st, NULL) != SQLITE_OK) {
        db_fail(db, "%s", sqlite3_errmsg(db->conn));
        sqlite3_finalize(*st);
        *st = NULL;
        return DB_ERROR;
    }
    return DB_OK;
}

/* The stored name of `rules`, or NULL with the message in db->err. */
static const char *rules_stored(struct db *db, enum rules rules)
{
    const char *name = db_rules_name(rules);

    if (!name)
        db_fail(db, "no storage for ruleset %d", (int)rules);
    return name;
}

/* Runs write `st` (bound, or bad) and finalises it: DB_OK, DB_EXISTS on a
 * key already there, or DB_ERROR. */
static int write_done(struct db *db, sqlite3_stmt *st, int bad)
{
    int rc = db_run(db, st, bad);

    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        return DB_OK;
    return rc == SQLITE_CONSTRAINT_PRIMARYKEY ? DB_EXISTS : DB_ERROR;
}

/* ---------------------------------------------------------------- seasons */

#define SEASON_COLUMNS "number, started, ended, turns, turn_last FROM seasons"

static void season_read(sqlite3_stmt *st, struct db_season *s)
{
    s->number = sqlite3_column_int(st, 0);
    s->started = sqlite3_column_int64(st, 1);
    s->ended = sqlite3_column_int64(st, 2);
    s->turns = sqlite3_column_int(st, 3);
    s->turn_last = sqlite3_column_int(st, 4);
}

/* One season of `rules` by `sql` (its ?2 is `number`). */
static int season_one(struct db *db, const char *sql, enum rules rules, int number,
                      struct db_season *s)
{
    const char *name = rules_stored(db, rules);
    sqlite3_stmt *st;

    if (!name || prep(db, sql, &st) != DB_OK)
        return DB_ERROR;
    int rc = DB_ERROR;
    if (sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK ||
        sqlite3_bind_int(st, 2, number) != SQLITE_OK) {
        db_bind_failed(db, st);
    } else {
        switch (db_row(db, st)) {
        case SQLITE_ROW:
            season_read(st, s);
            rc = DB_OK;
            break;
        case SQLITE_DONE:
            rc = DB_NOTFOUND;
            db_fail(db, "no %s season has ended", name);
            break;
        default:
            break;
        }
    }
    sqlite3_finalize(st);
    return rc;
}

int db_season_last(struct db *db, enum rules rules, struct db_season *s)
{
    return season_one(db,
                      "SELECT " SEASON_COLUMNS " WHERE rules = ?1 AND ?2 = 0"
                      " ORDER BY number DESC LIMIT 1",
                      rules, 0, s);
}

int db_season_get(struct db *db, enum rules rules, int number, struct db_season *s)
{
    return season_one(db, "SELECT " SEASON_COLUMNS " WHERE rules = ?1 AND number = ?2", rules,
                      number, s);
}

int db_season_add(struct db *db, enum rules rules, const struct db_season *s)
{
    const char *name = rules_stored(db, rules);
    sqlite3_stmt *st;

    if (!name || prep(db,
                      "INSERT INTO seasons (rules, number, started, ended, turns, turn_last)"
                      " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                      &st) != DB_OK)
        return DB_ERROR;
    int bad = sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 2, s->number) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 3, s->started) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 4, s->ended) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 5, s->turns) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 6, s->turn_last) != SQLITE_OK;
    return write_done(db, st, bad);
}

int db_season_reset(struct db *db, enum rules rules)
{
    const char *name = rules_stored(db, rules);
    sqlite3_stmt *st;

    if (!name || prep(db,
                      "UPDATE fighters SET season_wins = 0, season_losses = 0, season_draws = 0,"
                      " gold_record = 0,"
                      /* migration 17's stamp: the standings changed */
                      " changed = (SELECT coalesce(max(changed), 0) + 1 FROM fighters)"
                      " WHERE rules = ?1",
                      &st) != DB_OK)
        return DB_ERROR;
    return write_done(db, st, sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK);
}

/* ------------------------------------------------------ the final tables */

int db_season_standing_add(struct db *db, enum rules rules, int season,
                           const struct db_season_row *r)
{
    const char *name = rules_stored(db, rules), *league = db_name_of(&db_leagues, r->league);
    sqlite3_stmt *st;

    if (!name || !league)
        return name ? db_fail(db, "no league %d", r->league) : DB_ERROR;
    if (prep(db,
             "INSERT INTO season_standings (rules, season, league, position, fighter, name,"
             " owner, wins, losses, draws, gold_record, moved)"
             " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
             &st) != DB_OK)
        return DB_ERROR;
    int bad = sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 2, season) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 3, league, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 4, r->position) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 5, r->fighter) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 6, r->name, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 7, r->owner, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 8, r->wins) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 9, r->losses) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 10, r->draws) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 11, r->gold_record) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 12, r->moved) != SQLITE_OK;
    return write_done(db, st, bad);
}

/* Reads one row of db_season_standings' query into *r. */
static int standing_read(struct db *db, sqlite3_stmt *st, struct db_season_row *r)
{
    r->position = sqlite3_column_int(st, 1);
    r->fighter = sqlite3_column_int64(st, 2);
    r->wins = sqlite3_column_int(st, 5);
    r->losses = sqlite3_column_int(st, 6);
    r->draws = sqlite3_column_int(st, 7);
    r->gold_record = sqlite3_column_int(st, 8);
    r->moved = sqlite3_column_int(st, 9);
    if (db_column_name(db, st, 0, &db_leagues, "season standing of fighter", r->fighter,
                       &r->league) != DB_OK ||
        db_column_text(db, st, 3, r->name, sizeof(r->name), "fighter name") != DB_OK ||
        db_column_text(db, st, 4, r->owner, sizeof(r->owner), "account name") != DB_OK)
        return DB_ERROR;
    return DB_OK;
}

int db_season_standings(struct db *db, enum rules rules, int season, struct db_season_row *v,
                        int max, int *n)
{
    const char *name = rules_stored(db, rules);
    sqlite3_stmt *st;

    *n = 0;
    if (!name || prep(db,
                      "SELECT league, position, fighter, name, owner, wins, losses, draws,"
                      " gold_record, moved FROM season_standings WHERE rules = ?1 AND season = ?2"
                      " ORDER BY CASE league WHEN 'gold' THEN 0 WHEN 'silver' THEN 1 ELSE 2 END,"
                      " position LIMIT ?3",
                      &st) != DB_OK)
        return DB_ERROR;
    int rc = DB_OK;
    if (sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK ||
        sqlite3_bind_int(st, 2, season) != SQLITE_OK || sqlite3_bind_int(st, 3, max) != SQLITE_OK)
        rc = db_bind_failed(db, st);
    while (rc == DB_OK) {
        int step = db_row(db, st);
        if (step == SQLITE_DONE)
            break;
        if (step != SQLITE_ROW || *n >= max || standing_read(db, st, &v[*n]) != DB_OK)
            rc = DB_ERROR;
        else
            (*n)++;
    }
    sqlite3_finalize(st);
    return rc;
}

/* ------------------------------------------------------- the hall of fame */

int db_honour_add(struct db *db, const struct db_honour *h)
{
    const char *name = rules_stored(db, h->rules), *honour = db_name_of(&honours, h->honour);
    sqlite3_stmt *st;

    if (!name || !honour)
        return name ? db_fail(db, "no honour %d", h->honour) : DB_ERROR;
    if (prep(db,
             "INSERT INTO hall_of_fame (rules, season, honour, fighter, name, owner, wins,"
             " losses, draws) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
             &st) != DB_OK)
        return DB_ERROR;
    int bad = sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 2, h->season) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 3, honour, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 4, h->fighter) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 5, h->name, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 6, h->owner, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 7, h->wins) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 8, h->losses) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 9, h->draws) != SQLITE_OK;
    return write_done(db, st, bad);
}

/* Reads one row of db_honours' query into *h. */
static int honour_read(struct db *db, sqlite3_stmt *st, struct db_honour *h)
{
    char rules[32];

    h->season = sqlite3_column_int(st, 1);
    h->fighter = sqlite3_column_int64(st, 3);
    h->wins = sqlite3_column_int(st, 6);
    h->losses = sqlite3_column_int(st, 7);
    h->draws = sqlite3_column_int(st, 8);
    if (db_column_text(db, st, 0, rules, sizeof(rules), "ruleset") != DB_OK ||
        db_column_name(db, st, 2, &honours, "hall of fame entry of fighter", h->fighter,
                       &h->honour) != DB_OK ||
        db_column_text(db, st, 4, h->name, sizeof(h->name), "fighter name") != DB_OK ||
        db_column_text(db, st, 5, h->owner, sizeof(h->owner), "account name") != DB_OK)
        return DB_ERROR;
    int r = db_rules_find(rules);
    if (r < 0)
        return db_fail(db, "the hall of fame has ruleset %s, which this ringside does not know",
                       rules);
    h->rules = (enum rules)r;
    return DB_OK;
}

int db_honours(struct db *db, int rules, struct db_honour *v, int max, int *n)
{
    const char *name = rules < 0 ? NULL : rules_stored(db, (enum rules)rules);
    sqlite3_stmt *st;

    *n = 0;
    if ((rules >= 0 && !name) ||
        prep(db,
             "SELECT rules, season, honour, fighter, name, owner, wins, losses, draws"
             " FROM hall_of_fame WHERE ?1 IS NULL OR rules = ?1 ORDER BY rules, season DESC,"
             " CASE honour WHEN 'gold' THEN 0 WHEN 'silver' THEN 1 WHEN 'bronze' THEN 2"
             " ELSE 3 END LIMIT ?2",
             &st) != DB_OK)
        return DB_ERROR;
    int rc = DB_OK;
    if ((name ? sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) : sqlite3_bind_null(st, 1)) !=
            SQLITE_OK ||
        sqlite3_bind_int(st, 2, max) != SQLITE_OK)
        rc = db_bind_failed(db, st);
    while (rc == DB_OK) {
        int step = db_row(db, st);
        if (step == SQLITE_DONE)
            break;
        if (step != SQLITE_ROW || *n >= max || honour_read(db, st, &v[*n]) != DB_OK)
            rc = DB_ERROR;
        else
            (*n)++;
    }
    sqlite3_finalize(st);
    return rc;
}
