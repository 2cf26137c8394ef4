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

/* Prepares `sql` into *q: DB_OK, or DB_ERROR with the backend's message. */
static int prep(struct db *db, const char *sql, struct dbs **q)
{
    *q = dbs_prepare(db, sql);
    return *q ? DB_OK : DB_ERROR;
}

/* The stored name of `rules`, or NULL with the message in db->err. */
static const char *rules_stored(struct db *db, enum rules rules)
{
    const char *name = db_rules_name(rules);

    if (!name)
        db_fail(db, "no storage for ruleset %d", (int)rules);
    return name;
}

/* Runs write `q` (bound) and finalises it: DB_OK, DB_EXISTS on a key
 * already there (these tables have no key but their primary one), or
 * DB_ERROR. */
static int write_done(struct dbs *q)
{
    int rc = dbs_run(q);
    enum dbs_error why = dbs_error(q);

    dbs_free(q);
    if (rc == DBS_DONE)
        return DB_OK;
    return why == DBS_E_UNIQUE ? DB_EXISTS : DB_ERROR;
}

/* ---------------------------------------------------------------- seasons */

#define SEASON_COLUMNS "number, started, ended, turns, turn_last FROM seasons"

static void season_read(struct dbs *q, struct db_season *s)
{
    s->number = dbs_col_int(q, 0);
    s->started = dbs_col_int64(q, 1);
    s->ended = dbs_col_int64(q, 2);
    s->turns = dbs_col_int(q, 3);
    s->turn_last = dbs_col_int(q, 4);
}

/* One season of `rules` by `sql` (its ?2 is `number`). */
static int season_one(struct db *db, const char *sql, enum rules rules, int number,
                      struct db_season *s)
{
    const char *name = rules_stored(db, rules);
    struct dbs *q;

    if (!name || prep(db, sql, &q) != DB_OK)
        return DB_ERROR;
    int rc = DB_ERROR;
    dbs_bind_text(q, 1, name);
    dbs_bind_int64(q, 2, number);
    rc = dbs_step_one(q);
    if (rc == DB_OK)
        season_read(q, s);
    else if (rc == DB_NOTFOUND)
        db_fail(db, "no %s season has ended", name);
    dbs_free(q);
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
    struct dbs *q;

    if (!name || prep(db,
                      "INSERT INTO seasons (rules, number, started, ended, turns, turn_last)"
                      " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                      &q) != DB_OK)
        return DB_ERROR;
    dbs_bind_text(q, 1, name);
    dbs_bind_int64(q, 2, s->number);
    dbs_bind_int64(q, 3, s->started);
    dbs_bind_int64(q, 4, s->ended);
    dbs_bind_int64(q, 5, s->turns);
    dbs_bind_int64(q, 6, s->turn_last);
    return write_done(q);
}

int db_season_reset(struct db *db, enum rules rules)
{
    const char *name = rules_stored(db, rules);
    struct dbs *q;

    if (!name || prep(db,
                      "UPDATE fighters SET season_wins = 0, season_losses = 0, season_draws = 0,"
                      " gold_record = 0,"
                      /* migration 17's stamp: the standings changed */
                      " changed = " DB_STAMP_FIGHTERS " WHERE rules = ?1",
                      &q) != DB_OK)
        return DB_ERROR;
    dbs_bind_text(q, 1, name);
    return write_done(q);
}

/* ------------------------------------------------------ the final tables */

int db_season_standing_add(struct db *db, enum rules rules, int season,
                           const struct db_season_row *r)
{
    const char *name = rules_stored(db, rules), *league = db_name_of(&db_leagues, r->league);
    struct dbs *q;

    if (!name || !league)
        return name ? db_fail(db, "no league %d", r->league) : DB_ERROR;
    if (prep(db,
             "INSERT INTO season_standings (rules, season, league, position, fighter, name,"
             " owner, wins, losses, draws, gold_record, moved)"
             " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
             &q) != DB_OK)
        return DB_ERROR;
    dbs_bind_text(q, 1, name);
    dbs_bind_int64(q, 2, season);
    dbs_bind_text(q, 3, league);
    dbs_bind_int64(q, 4, r->position);
    dbs_bind_int64(q, 5, r->fighter);
    dbs_bind_text(q, 6, r->name);
    dbs_bind_text(q, 7, r->owner);
    dbs_bind_int64(q, 8, r->wins);
    dbs_bind_int64(q, 9, r->losses);
    dbs_bind_int64(q, 10, r->draws);
    dbs_bind_int64(q, 11, r->gold_record);
    dbs_bind_int64(q, 12, r->moved);
    return write_done(q);
}

/* Reads one row of db_season_standings' query into *r. */
static int standing_read(struct dbs *q, struct db_season_row *r)
{
    r->position = dbs_col_int(q, 1);
    r->fighter = dbs_col_int64(q, 2);
    r->wins = dbs_col_int(q, 5);
    r->losses = dbs_col_int(q, 6);
    r->draws = dbs_col_int(q, 7);
    r->gold_record = dbs_col_int(q, 8);
    r->moved = dbs_col_int(q, 9);
    if (dbs_col_name(q, 0, &db_leagues, "season standing of fighter", r->fighter, &r->league) !=
            DB_OK ||
        dbs_col_copy(q, 3, r->name, sizeof(r->name), "fighter name") != DB_OK ||
        dbs_col_copy(q, 4, r->owner, sizeof(r->owner), "account name") != DB_OK)
        return DB_ERROR;
    return DB_OK;
}

int db_season_standings(struct db *db, enum rules rules, int season, struct db_season_row *v,
                        int max, int *n)
{
    const char *name = rules_stored(db, rules);
    struct dbs *q;

    *n = 0;
    if (!name || prep(db,
                      "SELECT league, position, fighter, name, owner, wins, losses, draws,"
                      " gold_record, moved FROM season_standings WHERE rules = ?1 AND season = ?2"
                      " ORDER BY CASE league WHEN 'gold' THEN 0 WHEN 'silver' THEN 1 ELSE 2 END,"
                      " position LIMIT ?3",
                      &q) != DB_OK)
        return DB_ERROR;
    int rc = DB_OK;
    dbs_bind_text(q, 1, name);
    dbs_bind_int64(q, 2, season);
    dbs_bind_int64(q, 3, max);
    while (rc == DB_OK) {
        int step = dbs_step(q);
        if (step == DBS_DONE)
            break;
        if (step != DBS_ROW || *n >= max || standing_read(q, &v[*n]) != DB_OK)
            rc = DB_ERROR;
        else
            (*n)++;
    }
    dbs_free(q);
    return rc;
}

/* ------------------------------------------------------- the hall of fame */

int db_honour_add(struct db *db, const struct db_honour *h)
{
    const char *name = rules_stored(db, h->rules), *honour = db_name_of(&honours, h->honour);
    struct dbs *q;

    if (!name || !honour)
        return name ? db_fail(db, "no honour %d", h->honour) : DB_ERROR;
    if (prep(db,
             "INSERT INTO hall_of_fame (rules, season, honour, fighter, name, owner, wins,"
             " losses, draws) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
             &q) != DB_OK)
        return DB_ERROR;
    dbs_bind_text(q, 1, name);
    dbs_bind_int64(q, 2, h->season);
    dbs_bind_text(q, 3, honour);
    dbs_bind_int64(q, 4, h->fighter);
    dbs_bind_text(q, 5, h->name);
    dbs_bind_text(q, 6, h->owner);
    dbs_bind_int64(q, 7, h->wins);
    dbs_bind_int64(q, 8, h->losses);
    dbs_bind_int64(q, 9, h->draws);
    return write_done(q);
}

/* Reads one row of db_honours' query into *h. */
static int honour_read(struct dbs *q, struct db_honour *h)
{
    struct db *db = q->db;
    char rules[32];

    h->season = dbs_col_int(q, 1);
    h->fighter = dbs_col_int64(q, 3);
    h->wins = dbs_col_int(q, 6);
    h->losses = dbs_col_int(q, 7);
    h->draws = dbs_col_int(q, 8);
    if (dbs_col_copy(q, 0, rules, sizeof(rules), "ruleset") != DB_OK ||
        dbs_col_name(q, 2, &honours, "hall of fame entry of fighter", h->fighter, &h->honour) !=
            DB_OK ||
        dbs_col_copy(q, 4, h->name, sizeof(h->name), "fighter name") != DB_OK ||
        dbs_col_copy(q, 5, h->owner, sizeof(h->owner), "account name") != DB_OK)
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
    struct dbs *q;

    *n = 0;
    if ((rules >= 0 && !name) ||
        prep(db,
             "SELECT rules, season, honour, fighter, name, owner, wins, losses, draws"
             " FROM hall_of_fame WHERE CAST(?1 AS TEXT) IS NULL OR rules = ?1 ORDER BY rules, "
             "season DESC,"
             " CASE honour WHEN 'gold' THEN 0 WHEN 'silver' THEN 1 WHEN 'bronze' THEN 2"
             " ELSE 3 END LIMIT ?2",
             &q) != DB_OK)
        return DB_ERROR;
    int rc = DB_OK;
    dbs_bind_text(q, 1, name); /* NULL for every ruleset */
    dbs_bind_int64(q, 2, max);
    while (rc == DB_OK) {
        int step = dbs_step(q);
        if (step == DBS_DONE)
            break;
        if (step != DBS_ROW || *n >= max || honour_read(q, &v[*n]) != DB_OK)
            rc = DB_ERROR;
        else
            (*n)++;
    }
    dbs_free(q);
    return rc;
}
