/*
 * tournament.c - knockout tournaments as stored (migration 12): the
 * tournaments, their entrants and seeds, and the bracket, whose rows link
 * to the bouts fought (ordinary exhibition bouts).
 *
 * Tournaments are few and small (at most 31 bracket bouts), so their
 * statements are prepared when used rather than kept in db.c's table:
 * that table stays the league's and the bouts', which run by the
 * thousand.
 */
#include <inttypes.h>
#include <string.h>

#include "db_internal.h"

static const char *const state_names[] = {"open", "running", "over"};

/* Binds an id, or NULL for 0. */
static int bind_id(sqlite3_stmt *st, int i, int64_t v)
{
    return v ? sqlite3_bind_int64(st, i, v) : sqlite3_bind_null(st, i);
}

/* Runs a write of `st` (bound, or bind failed) and finalizes it. */
static int write_done(struct db *db, sqlite3_stmt *st, int bad)
{
    int rc = db_run(db, st, bad);

    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? DB_OK : DB_ERROR;
}

#define T_COLUMNS                                                                                  \
    "id, name, rules, size, rounds, mode, channel, state, stage, said, coalesce(winner, 0),"       \
    " created, started, ended, last FROM tournaments"

/* Reads a tournament from the current row of a T_COLUMNS query. */
static int read_tournament(struct db *db, sqlite3_stmt *st, struct db_tournament *t)
{
    memset(t, 0, sizeof(*t));
    t->id = sqlite3_column_int64(st, 0);
    if (db_column_text(db, st, 1, t->name, sizeof(t->name), "tournament name") != DB_OK)
        return DB_ERROR;
    const char *rules = (const char *)sqlite3_column_text(st, 2);
    int r = rules ? db_rules_find(rules) : -1;
    if (r < 0)
        return db_fail(db, "tournament %" PRId64 " has an unknown ruleset", t->id);
    t->rules = (enum rules)r;
    t->size = sqlite3_column_int(st, 3);
    t->rounds = sqlite3_column_int(st, 4);
    const char *mode = (const char *)sqlite3_column_text(st, 5);
    t->live = mode && strcmp(mode, "live") == 0;
    if (db_column_text(db, st, 6, t->channel, sizeof(t->channel), "tournament channel") != DB_OK)
        return DB_ERROR;
    const char *state = (const char *)sqlite3_column_text(st, 7);
    t->state = DB_TOURNAMENT_OPEN;
    for (int i = 0; state && i < COUNT(state_names); i++)
        if (strcmp(state, state_names[i]) == 0)
            t->state = (enum db_tournament_state)i;
    t->stage = sqlite3_column_int(st, 8);
    t->said = sqlite3_column_int(st, 9);
    t->winner = sqlite3_column_int64(st, 10);
    t->created = sqlite3_column_int64(st, 11);
    t->started = sqlite3_column_int64(st, 12);
    t->ended = sqlite3_column_int64(st, 13);
    t->last = sqlite3_column_int64(st, 14);
    return DB_OK;
}

int db_tournament_create(struct db *db, struct db_tournament *t)
{
    const char *rules = db_rules_name(t->rules);
    if (!rules)
        return db_fail(db, "no storage for ruleset %d", (int)t->rules);
    sqlite3_stmt *st = db_prepare(db, "INSERT INTO tournaments (name, rules, size, rounds, mode,"
                                      " channel, state, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
                                      " 'open', ?7)");
    if (!st)
        return DB_ERROR;
    int bad = sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC) ||
              sqlite3_bind_text(st, 2, rules, -1, SQLITE_STATIC) ||
              sqlite3_bind_int(st, 3, t->size) || sqlite3_bind_int(st, 4, t->rounds) ||
              sqlite3_bind_text(st, 5, t->live ? "live" : "plans", -1, SQLITE_STATIC) ||
              sqlite3_bind_text(st, 6, t->channel, -1, SQLITE_STATIC) ||
              sqlite3_bind_int64(st, 7, t->created);
    if (write_done(db, st, bad) != DB_OK)
        return DB_ERROR;
    t->id = sqlite3_last_insert_rowid(db->conn);
    t->state = DB_TOURNAMENT_OPEN;
    return DB_OK;
}

int db_tournament_get(struct db *db, int64_t id, struct db_tournament *t)
{
    sqlite3_stmt *st = db_prepare(db, "SELECT " T_COLUMNS " WHERE id = ?1");
    int rc = DB_ERROR;

    if (!st)
        return DB_ERROR;
    if (sqlite3_bind_int64(st, 1, id) != SQLITE_OK) {
        db_bind_failed(db, st);
    } else {
        switch (db_row(db, st)) {
        case SQLITE_ROW:
            rc = read_tournament(db, st, t);
            break;
        case SQLITE_DONE:
            rc = DB_NOTFOUND;
            db_fail(db, "no tournament %" PRId64, id);
            break;
        default:
            break;
        }
    }
    sqlite3_finalize(st);
    return rc;
}

int db_tournament_save(struct db *db, const struct db_tournament *t)
{
    sqlite3_stmt *st = db_prepare(db, "UPDATE tournaments SET state = ?2, stage = ?3, said = ?4,"
                                      " winner = ?5, started = ?6, ended = ?7, last = ?8"
                                      " WHERE id = ?1");
    if (!st)
        return DB_ERROR;
    int bad = sqlite3_bind_int64(st, 1, t->id) ||
              sqlite3_bind_text(st, 2, state_names[t->state], -1, SQLITE_STATIC) ||
              sqlite3_bind_int(st, 3, t->stage) || sqlite3_bind_int(st, 4, t->said) ||
              bind_id(st, 5, t->winner) || sqlite3_bind_int64(st, 6, t->started) ||
              sqlite3_bind_int64(st, 7, t->ended) || sqlite3_bind_int64(st, 8, t->last);
    return write_done(db, st, bad);
}

/* Runs a query of tournaments (bound already) into out. */
static int list_tournaments(struct db *db, sqlite3_stmt *st, struct db_tournament *out, int max,
                            int *n)
{
    int rc = DB_OK, step;

    *n = 0;
    while ((step = db_row(db, st)) == SQLITE_ROW && *n < max) {
        if (read_tournament(db, st, &out[*n]) != DB_OK) {
            rc = DB_ERROR;
            break;
        }
        (*n)++;
    }
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        rc = DB_ERROR;
    sqlite3_finalize(st);
    return rc;
}

int db_tournament_list(struct db *db, struct db_tournament *out, int max, int *n)
{
    sqlite3_stmt *st = db_prepare(db, "SELECT " T_COLUMNS " ORDER BY id DESC");

    *n = 0;
    return st ? list_tournaments(db, st, out, max, n) : DB_ERROR;
}

int db_tournament_won(struct db *db, int64_t fighter, struct db_tournament *out, int max, int *n)
{
    sqlite3_stmt *st = db_prepare(db, "SELECT " T_COLUMNS " WHERE winner = ?1 ORDER BY id DESC");

    *n = 0;
    if (!st)
        return DB_ERROR;
    if (sqlite3_bind_int64(st, 1, fighter) != SQLITE_OK) {
        db_bind_failed(db, st);
        sqlite3_finalize(st);
        return DB_ERROR;
    }
    return list_tournaments(db, st, out, max, n);
}

int db_tournament_join(struct db *db, int64_t id, int64_t fighter, int64_t now)
{
    sqlite3_stmt *st = db_prepare(db, "INSERT OR IGNORE INTO tournament_entries (tournament,"
                                      " fighter, joined) VALUES (?1, ?2, ?3)");
    if (!st)
        return DB_ERROR;
    int bad = sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int64(st, 2, fighter) ||
              sqlite3_bind_int64(st, 3, now);
    if (write_done(db, st, bad) != DB_OK)
        return DB_ERROR;
    return sqlite3_changes(db->conn) ? DB_OK : DB_EXISTS;
}

int db_tournament_leave(struct db *db, int64_t id, int64_t fighter)
{
    sqlite3_stmt *st =
        db_prepare(db, "DELETE FROM tournament_entries WHERE tournament = ?1 AND fighter = ?2");
    if (!st)
        return DB_ERROR;
    int bad = sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int64(st, 2, fighter);
    if (write_done(db, st, bad) != DB_OK)
        return DB_ERROR;
    return sqlite3_changes(db->conn) ? DB_OK : DB_NOTFOUND;
}

int db_tournament_seed(struct db *db, int64_t id, int64_t fighter, int seed)
{
    sqlite3_stmt *st = db_prepare(db, "UPDATE tournament_entries SET seed = ?3"
                                      " WHERE tournament = ?1 AND fighter = ?2");
    if (!st)
        return DB_ERROR;
    int bad = sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int64(st, 2, fighter) ||
              sqlite3_bind_int(st, 3, seed);
    return write_done(db, st, bad);
}

int db_tournament_entries(struct db *db, int64_t id, struct db_tournament_entry *out, int max,
                          int *n)
{
    sqlite3_stmt *st = db_prepare(db, "SELECT fighter, seed, joined FROM tournament_entries"
                                      " WHERE tournament = ?1 ORDER BY seed, joined, fighter");
    int rc = DB_OK, step;

    *n = 0;
    if (!st)
        return DB_ERROR;
    if (sqlite3_bind_int64(st, 1, id) != SQLITE_OK) {
        db_bind_failed(db, st);
        sqlite3_finalize(st);
        return DB_ERROR;
    }
    while ((step = db_row(db, st)) == SQLITE_ROW && *n < max) {
        out[*n].fighter = sqlite3_column_int64(st, 0);
        out[*n].seed = sqlite3_column_int(st, 1);
        out[*n].joined = sqlite3_column_int64(st, 2);
        (*n)++;
    }
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        rc = DB_ERROR;
    sqlite3_finalize(st);
    return rc;
}

int db_tournament_match_put(struct db *db, int64_t id, const struct db_tournament_match *m)
{
    sqlite3_stmt *st = db_prepare(db, "INSERT OR REPLACE INTO tournament_bouts (tournament, stage,"
                                      " slot, fighter_a, fighter_b, bout, winner)"
                                      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    if (!st)
        return DB_ERROR;
    int bad = sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int(st, 2, m->stage) ||
              sqlite3_bind_int(st, 3, m->slot) || bind_id(st, 4, m->fighter[0]) ||
              bind_id(st, 5, m->fighter[1]) || bind_id(st, 6, m->bout) || bind_id(st, 7, m->winner);
    return write_done(db, st, bad);
}

int db_tournament_matches(struct db *db, int64_t id, struct db_tournament_match *out, int max,
                          int *n)
{
    sqlite3_stmt *st = db_prepare(db, "SELECT stage, slot, coalesce(fighter_a, 0),"
                                      " coalesce(fighter_b, 0), coalesce(bout, 0),"
                                      " coalesce(winner, 0) FROM tournament_bouts"
                                      " WHERE tournament = ?1 ORDER BY stage, slot");
    int rc = DB_OK, step;

    *n = 0;
    if (!st)
        return DB_ERROR;
    if (sqlite3_bind_int64(st, 1, id) != SQLITE_OK) {
        db_bind_failed(db, st);
        sqlite3_finalize(st);
        return DB_ERROR;
    }
    while ((step = db_row(db, st)) == SQLITE_ROW && *n < max) {
        struct db_tournament_match *m = &out[(*n)++];
        m->stage = sqlite3_column_int(st, 0);
        m->slot = sqlite3_column_int(st, 1);
        m->fighter[0] = sqlite3_column_int64(st, 2);
        m->fighter[1] = sqlite3_column_int64(st, 3);
        m->bout = sqlite3_column_int64(st, 4);
        m->winner = sqlite3_column_int64(st, 5);
    }
    if (step != SQLITE_ROW && step != SQLITE_DONE)
        rc = DB_ERROR;
    sqlite3_finalize(st);
    return rc;
}

int db_tournament_of_bout(struct db *db, int64_t bout, int64_t *id)
{
    sqlite3_stmt *st = db_prepare(db, "SELECT tournament FROM tournament_bouts WHERE bout = ?1");
    int rc = DB_ERROR;

    if (!st)
        return DB_ERROR;
    if (sqlite3_bind_int64(st, 1, bout) != SQLITE_OK) {
        db_bind_failed(db, st);
    } else {
        switch (db_row(db, st)) {
        case SQLITE_ROW:
            *id = sqlite3_column_int64(st, 0);
            rc = DB_OK;
            break;
        case SQLITE_DONE:
            rc = DB_NOTFOUND;
            break;
        default:
            break;
        }
    }
    sqlite3_finalize(st);
    return rc;
}
