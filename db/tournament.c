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
static void bind_id(struct dbs *q, int i, int64_t v)
{
    if (v)
        dbs_bind_int64(q, i, v);
    else
        dbs_bind_null(q, i);
}

/* Runs a write of `q` (bound) and frees it; *changes (if not NULL) gets
 * the rows it changed. */
static int write_done(struct dbs *q, int64_t *changes)
{
    int rc = dbs_run(q);

    if (changes)
        *changes = dbs_changes(q);
    dbs_free(q);
    return rc == DBS_DONE ? DB_OK : DB_ERROR;
}

#define T_COLUMNS                                                                                  \
    "id, name, rules, size, rounds, mode, channel, state, stage, said, coalesce(winner, 0),"       \
    " created, started, ended, last FROM tournaments"

/* Reads a tournament from the current row of a T_COLUMNS query. */
static int read_tournament(struct dbs *q, struct db_tournament *t)
{
    memset(t, 0, sizeof(*t));
    t->id = dbs_col_int64(q, 0);
    if (dbs_col_copy(q, 1, t->name, sizeof(t->name), "tournament name") != DB_OK)
        return DB_ERROR;
    const char *rules = dbs_col_text(q, 2);
    int r = rules ? db_rules_find(rules) : -1;
    if (r < 0)
        return db_fail(q->db, "tournament %" PRId64 " has an unknown ruleset", t->id);
    t->rules = (enum rules)r;
    t->size = dbs_col_int(q, 3);
    t->rounds = dbs_col_int(q, 4);
    const char *mode = dbs_col_text(q, 5);
    t->live = mode && strcmp(mode, "live") == 0;
    if (dbs_col_copy(q, 6, t->channel, sizeof(t->channel), "tournament channel") != DB_OK)
        return DB_ERROR;
    const char *state = dbs_col_text(q, 7);
    t->state = DB_TOURNAMENT_OPEN;
    for (int i = 0; state && i < COUNT(state_names); i++)
        if (strcmp(state, state_names[i]) == 0)
            t->state = (enum db_tournament_state)i;
    t->stage = dbs_col_int(q, 8);
    t->said = dbs_col_int(q, 9);
    t->winner = dbs_col_int64(q, 10);
    t->created = dbs_col_int64(q, 11);
    t->started = dbs_col_int64(q, 12);
    t->ended = dbs_col_int64(q, 13);
    t->last = dbs_col_int64(q, 14);
    return DB_OK;
}

int db_tournament_create(struct db *db, struct db_tournament *t)
{
    const char *rules = db_rules_name(t->rules);
    if (!rules)
        return db_fail(db, "no storage for ruleset %d", (int)t->rules);
    struct dbs *q = dbs_prepare(db, "INSERT INTO tournaments (name, rules, size, rounds, mode,"
                                    " channel, state, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
                                    " 'open', ?7) RETURNING id");
    if (!q)
        return DB_ERROR;
    dbs_bind_text(q, 1, t->name);
    dbs_bind_text(q, 2, rules);
    dbs_bind_int64(q, 3, t->size);
    dbs_bind_int64(q, 4, t->rounds);
    dbs_bind_text(q, 5, t->live ? "live" : "plans");
    dbs_bind_text(q, 6, t->channel);
    dbs_bind_int64(q, 7, t->created);
    int rc = dbs_run(q);
    int64_t id = dbs_insert_id(q);
    dbs_free(q);
    if (rc != DBS_DONE)
        return DB_ERROR;
    t->id = id;
    t->state = DB_TOURNAMENT_OPEN;
    return DB_OK;
}

int db_tournament_get(struct db *db, int64_t id, struct db_tournament *t)
{
    struct dbs *q = dbs_prepare(db, "SELECT " T_COLUMNS " WHERE id = ?1");
    int rc = DB_ERROR;

    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, id);
    rc = dbs_step_one(q);
    if (rc == DB_OK)
        rc = read_tournament(q, t);
    else if (rc == DB_NOTFOUND)
        db_fail(db, "no tournament %" PRId64, id);
    dbs_free(q);
    return rc;
}

int db_tournament_save(struct db *db, const struct db_tournament *t)
{
    struct dbs *q = dbs_prepare(db, "UPDATE tournaments SET state = ?2, stage = ?3, said = ?4,"
                                    " winner = ?5, started = ?6, ended = ?7, last = ?8"
                                    " WHERE id = ?1");
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, t->id);
    dbs_bind_text(q, 2, state_names[t->state]);
    dbs_bind_int64(q, 3, t->stage);
    dbs_bind_int64(q, 4, t->said);
    bind_id(q, 5, t->winner);
    dbs_bind_int64(q, 6, t->started);
    dbs_bind_int64(q, 7, t->ended);
    dbs_bind_int64(q, 8, t->last);
    return write_done(q, NULL);
}

/* Runs a query of tournaments (bound already) into out. */
static int list_tournaments(struct dbs *q, struct db_tournament *out, int max, int *n)
{
    int rc = DB_OK, step;

    *n = 0;
    while ((step = dbs_step(q)) == DBS_ROW && *n < max) {
        if (read_tournament(q, &out[*n]) != DB_OK) {
            rc = DB_ERROR;
            break;
        }
        (*n)++;
    }
    if (step == DBS_ERR)
        rc = DB_ERROR;
    dbs_free(q);
    return rc;
}

int db_tournament_list(struct db *db, struct db_tournament *out, int max, int *n)
{
    struct dbs *q = dbs_prepare(db, "SELECT " T_COLUMNS " ORDER BY id DESC");

    *n = 0;
    return q ? list_tournaments(q, out, max, n) : DB_ERROR;
}

int db_tournament_won(struct db *db, int64_t fighter, struct db_tournament *out, int max, int *n)
{
    struct dbs *q = dbs_prepare(db, "SELECT " T_COLUMNS " WHERE winner = ?1 ORDER BY id DESC");

    *n = 0;
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, fighter);
    return list_tournaments(q, out, max, n);
}

int db_tournament_join(struct db *db, int64_t id, int64_t fighter, int64_t now)
{
    /* Every value bound is a non-NULL integer and seed takes its default,
     * so the primary key is the only constraint INSERT OR IGNORE could
     * have ignored: ON CONFLICT DO NOTHING (portable) does the same. */
    struct dbs *q = dbs_prepare(db, "INSERT INTO tournament_entries (tournament, fighter, joined)"
                                    " VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING");
    int64_t changes = 0;
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, id);
    dbs_bind_int64(q, 2, fighter);
    dbs_bind_int64(q, 3, now);
    if (write_done(q, &changes) != DB_OK)
        return DB_ERROR;
    return changes ? DB_OK : DB_EXISTS;
}

int db_tournament_leave(struct db *db, int64_t id, int64_t fighter)
{
    struct dbs *q =
        dbs_prepare(db, "DELETE FROM tournament_entries WHERE tournament = ?1 AND fighter = ?2");
    int64_t changes = 0;
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, id);
    dbs_bind_int64(q, 2, fighter);
    if (write_done(q, &changes) != DB_OK)
        return DB_ERROR;
    return changes ? DB_OK : DB_NOTFOUND;
}

int db_tournament_seed(struct db *db, int64_t id, int64_t fighter, int seed)
{
    struct dbs *q = dbs_prepare(db, "UPDATE tournament_entries SET seed = ?3"
                                    " WHERE tournament = ?1 AND fighter = ?2");
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, id);
    dbs_bind_int64(q, 2, fighter);
    dbs_bind_int64(q, 3, seed);
    return write_done(q, NULL);
}

int db_tournament_entries(struct db *db, int64_t id, struct db_tournament_entry *out, int max,
                          int *n)
{
    struct dbs *q = dbs_prepare(db, "SELECT fighter, seed, joined FROM tournament_entries"
                                    " WHERE tournament = ?1 ORDER BY seed, joined, fighter");
    int rc = DB_OK, step;

    *n = 0;
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, id);
    while ((step = dbs_step(q)) == DBS_ROW && *n < max) {
        out[*n].fighter = dbs_col_int64(q, 0);
        out[*n].seed = dbs_col_int(q, 1);
        out[*n].joined = dbs_col_int64(q, 2);
        (*n)++;
    }
    if (step == DBS_ERR)
        rc = DB_ERROR;
    dbs_free(q);
    return rc;
}

int db_tournament_match_put(struct db *db, int64_t id, const struct db_tournament_match *m)
{
    struct dbs *q =
        dbs_prepare(db, "INSERT INTO tournament_bouts (tournament, stage,"
                        " slot, fighter_a, fighter_b, bout, winner)"
                        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
                        " ON CONFLICT (tournament, stage, slot) DO UPDATE SET"
                        " fighter_a = excluded.fighter_a, fighter_b = excluded.fighter_b,"
                        " bout = excluded.bout, winner = excluded.winner");
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, id);
    dbs_bind_int64(q, 2, m->stage);
    dbs_bind_int64(q, 3, m->slot);
    bind_id(q, 4, m->fighter[0]);
    bind_id(q, 5, m->fighter[1]);
    bind_id(q, 6, m->bout);
    bind_id(q, 7, m->winner);
    return write_done(q, NULL);
}

int db_tournament_matches(struct db *db, int64_t id, struct db_tournament_match *out, int max,
                          int *n)
{
    struct dbs *q = dbs_prepare(db, "SELECT stage, slot, coalesce(fighter_a, 0),"
                                    " coalesce(fighter_b, 0), coalesce(bout, 0),"
                                    " coalesce(winner, 0) FROM tournament_bouts"
                                    " WHERE tournament = ?1 ORDER BY stage, slot");
    int rc = DB_OK, step;

    *n = 0;
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, id);
    while ((step = dbs_step(q)) == DBS_ROW && *n < max) {
        struct db_tournament_match *m = &out[(*n)++];
        m->stage = dbs_col_int(q, 0);
        m->slot = dbs_col_int(q, 1);
        m->fighter[0] = dbs_col_int64(q, 2);
        m->fighter[1] = dbs_col_int64(q, 3);
        m->bout = dbs_col_int64(q, 4);
        m->winner = dbs_col_int64(q, 5);
    }
    if (step == DBS_ERR)
        rc = DB_ERROR;
    dbs_free(q);
    return rc;
}

int db_tournament_of_bout(struct db *db, int64_t bout, int64_t *id)
{
    struct dbs *q = dbs_prepare(db, "SELECT tournament FROM tournament_bouts WHERE bout = ?1");
    int rc = DB_ERROR;

    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, bout);
    rc = dbs_step_one(q);
    if (rc == DB_OK)
        *id = dbs_col_int64(q, 0);
    dbs_free(q);
    return rc;
}
