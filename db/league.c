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
 * and it runs with a page cache large enough for its writes (db_league_cache)
 * and without the stamp triggers of migration 17 on its connection
 * (db_league_stamping), as every statement it runs sets the stamps itself;
 * its commit does not checkpoint the WAL (db_league_wal): the game does it
 * after the turn (db_league_checkpoint).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

    struct dbs *q = dbs_table(db, STMT_LEAGUE_COUNT);
    int rc = DB_ERROR;
    dbs_bind_text(q, 1, name);
    if (dbs_step(q) == DBS_ROW) {
        *n = dbs_col_int(q, 0);
        rc = DB_OK;
    }
    dbs_reset(q);
    return rc;
}

/* The plan in column 1 of q's row, NULL or too long for DB_PLAN_MAX:
 * DB_ERROR, with dbs_col_copy's message naming fighter `fighter`. */
static int plan_unreadable(struct dbs *q, int64_t fighter)
{
    char *text = xmalloc(DB_PLAN_MAX), what[64];

    snprintf(what, sizeof(what), "the plan of fighter %" PRId64, fighter);
    int rc = dbs_col_copy(q, 1, text, DB_PLAN_MAX, what);
    free(text);
    return rc == DB_OK ? db_fail(q->db, "the plan of fighter %" PRId64 " is unreadable", fighter)
                       : rc;
}

int db_league_plans(struct db *db, enum rules rules,
                    void (*each)(void *ctx, int64_t fighter, const char *text), void *ctx)
{
    const char *name = rules_stored(db, rules);

    if (!name)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_LEAGUE_PLANS);
    int rc = DB_OK, step = DBS_DONE;
    dbs_bind_text(q, 1, name);
    while (rc == DB_OK && (step = dbs_step(q)) == DBS_ROW) {
        int64_t fighter = dbs_col_int64(q, 0);
        const char *text = dbs_col_text(q, 1);
        /* The backend's text, valid until the next step, as `each` wants
         * it: no copy, no message, for each of a turn's plans. */
        if (text && strlen(text) < DB_PLAN_MAX)
            each(ctx, fighter, text);
        else
            rc = plan_unreadable(q, fighter);
    }
    if (rc == DB_OK && step != DBS_DONE)
        rc = DB_ERROR;
    dbs_reset(q);
    return rc;
}

/* 64 MiB, allocated only as pages are used; SQLite's default is 2 MiB. */
#define CACHE_TURN    "PRAGMA cache_size = -65536"
#define CACHE_DEFAULT "PRAGMA cache_size = -2000"

void db_league_cache(struct db *db, int turn)
{
    /* SQLite's alone (the cache of another backend is its server's). Not
     * a statement prepared once: SQLite sets the cache size of a PRAGMA
     * when preparing it. Straight to SQLite, past the fault hook: the
     * cache's size is no data, and a turn fights the same with either; a
     * failure costs speed only. */
    if (db->backend == DB_BACKEND_SQLITE)
        sqlite3_exec(db->conn, turn ? CACHE_TURN : CACHE_DEFAULT, NULL, NULL, NULL);
    /* PostgreSQL's turn writes its rows in a batch instead, many rows a
     * statement, without waiting for each answer (db_pg_batch,
     * dbs_rows_add): a round trip a bout (its id) rather than eight. */
    else
        db_pg_batch(db, turn);
}

void db_league_stamping(struct db *db, int turn)
{
    /* A trigger that exists makes every UPDATE of its table a statement
     * that may write twice, and so one that keeps a statement journal:
     * SQLite copies each page it touches before writing it, on top of the
     * trigger's own frame, even when its WHEN clause never fires (a sixth
     * of a turn). Off on this connection alone: every other writer (a hand
     * edit in sqlite3, ringside-web) keeps them. SQLite's alone; changing
     * the setting makes the connection prepare its statements again when
     * next run (a few dozen a turn), which it does by itself. */
    if (db->backend == DB_BACKEND_SQLITE)
        sqlite3_db_config(db->conn, SQLITE_DBCONFIG_ENABLE_TRIGGER, !turn, (int *)NULL);
}

/* A league alone, by a turn: its CHECK is db_leagues' names, checked here
 * before the statement runs. */
static const char league_move_sql[] = "UPDATE fighters SET league = ?2 WHERE id = ?1";

/* SQLite's CHECKs off (1) or on (0) on this connection (not on another
 * backend): 0, or -1 when SQLite refused. */
static int checks_ignored(struct db *db, int on)
{
    if (db->backend != DB_BACKEND_SQLITE)
        return 0;
    return sqlite3_exec(db->conn,
                        on ? "PRAGMA ignore_check_constraints = 1"
                           : "PRAGMA ignore_check_constraints = 0",
                        NULL, NULL, NULL) == SQLITE_OK
               ? 0
               : -1;
}

int db_league_moves(struct db *db, const int64_t *fighter, const int *league, int n, int *done)
{
    /* The fighters table's CHECK on the league is an IN list of three,
     * for which SQLite builds a temporary b-tree at every statement that
     * sets the column (as many allocations and page copies as the rest of
     * a save): a league turn moves four fighters in ten. The CHECK says
     * what db_name_of says of every league written here, so this one
     * statement runs without SQLite's CHECKs (it writes no other column),
     * and they are on again before anything else runs, whatever happened:
     * a failure to put them back fails the turn. */
    for (int i = 0; i < n; i++)
        if (!db_name_of(&db_leagues, league[i]))
            return db_fail(db, "fighter %" PRId64 ": league %d is out of range", fighter[i],
                           league[i]);
    /* PostgreSQL builds nothing per save, and its stamp triggers would
     * stamp this write (the save's own stamp then one more): the saves
     * write the leagues there, as before. */
    *done = db->backend == DB_BACKEND_SQLITE;
    if (n == 0 || !*done)
        return DB_OK;

    int rc = DB_OK;
    if (checks_ignored(db, 1) != 0)
        rc = db_fail(db, "cannot move the fighters' leagues: %s", sqlite3_errmsg(db->conn));
    struct dbs *q = rc == DB_OK ? dbs_prepare(db, league_move_sql) : NULL;
    if (rc == DB_OK && !q)
        rc = DB_ERROR;
    for (int i = 0; rc == DB_OK && i < n; i++) {
        dbs_bind_int64(q, 1, fighter[i]);
        dbs_bind_text(q, 2, db_name_of(&db_leagues, league[i]));
        if (dbs_run(q) != DBS_DONE)
            rc = DB_ERROR;
        else if (dbs_changes(q) == 0)
            rc = db_fail(db, "no fighter %" PRId64, fighter[i]);
    }
    dbs_free(q);
    if (checks_ignored(db, 0) != 0)
        rc = db_fail(db, "cannot put the CHECKs back on: %s", sqlite3_errmsg(db->conn));
    return rc;
}

int db_league_bouts_ahead(struct db *db, int n)
{
    /* SQLite draws an id at no cost: only PostgreSQL's is a round trip. */
    return db->backend == DB_BACKEND_PG ? db_pg_bout_ids(db, n) : DB_OK;
}

/* SQLite's own default (SQLITE_DEFAULT_WAL_AUTOCHECKPOINT), which the
 * connection runs with but during a turn. */
#define WAL_AUTOCHECKPOINT 1000

void db_league_wal(struct db *db, int turn)
{
    /* A turn of 10,000 fighters writes some 1,500 pages to the WAL; at its
     * COMMIT the automatic checkpoint then copied them all into the file
     * (1,800 reads and as many writes, two fsyncs and a truncate: 30 to 50
     * ms of a 250 ms turn on a quiet machine, more on a loaded one). Off during the
     * turn, so its commit only appends to the WAL (as durable as before:
     * synchronous and the WAL's commit are unchanged); the checkpoint is
     * db_league_checkpoint's, after, and any commit past the threshold
     * checkpoints by itself again from the turn's end. SQLite's alone. */
    if (db->backend == DB_BACKEND_SQLITE)
        sqlite3_wal_autocheckpoint(db->conn, turn ? 0 : WAL_AUTOCHECKPOINT);
}

int db_league_checkpoint(struct db *db)
{
    if (db->backend != DB_BACKEND_SQLITE)
        return DB_OK; /* the server's own business */

    /* PASSIVE: copies what no reader still needs and waits for nobody (a
     * page being read by ringside-web stays in the WAL for the next one). */
    int rc = sqlite3_wal_checkpoint_v2(db->conn, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    if (rc == SQLITE_OK || rc == SQLITE_BUSY)
        return DB_OK; /* busy: another connection is checkpointing it */
    return db_fail(db, "cannot checkpoint the WAL: %s", sqlite3_errmsg(db->conn));
}

/* ------------------------------------------------------------- champions */

int db_champion_get(struct db *db, enum rules rules, int64_t *fighter, int *defences)
{
    const char *name = rules_stored(db, rules);

    if (!name)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_CHAMPION_GET);
    int rc = DB_ERROR;

    dbs_bind_text(q, 1, name);
    switch (dbs_step(q)) {
    case DBS_ROW:
        if (dbs_col_is_null(q, 0)) {
            db_fail(db, "the %s title is vacant", name);
            rc = DB_NOTFOUND;
            break;
        }
        *fighter = dbs_col_int64(q, 0);
        *defences = dbs_col_int(q, 1);
        rc = *defences >= 0 ? DB_OK
                            : db_fail(db, "the %s champion has %d defences", name, *defences);
        break;
    case DBS_DONE:
        db_fail(db, "the %s title is vacant", name);
        rc = DB_NOTFOUND;
        break;
    default:
        break;
    }
    dbs_reset(q);
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

    struct dbs *q = dbs_table(db, STMT_CHAMPION_SET);
    dbs_bind_text(q, 1, name);
    if (fighter > 0)
        dbs_bind_int64(q, 2, fighter);
    else
        dbs_bind_null(q, 2);
    dbs_bind_int64(q, 3, defences);
    dbs_bind_int64(q, 4, now);
    if (dbs_run(q) == DBS_DONE)
        return DB_OK;
    if (dbs_error(q) != DBS_E_FOREIGN_KEY)
        return DB_ERROR;
    db_fail(db, "no fighter %" PRId64, fighter);
    return DB_NOTFOUND;
}

/* ----------------------------------------------------------------- turns */

int db_turn_add(struct db *db, enum rules rules, int64_t now, int *number)
{
    const char *name = rules_stored(db, rules);

    if (!name)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_TURN_ADD);
    dbs_bind_text(q, 1, name);
    dbs_bind_int64(q, 2, now);
    /* RETURNING gives the row; stepping on to DBS_DONE ends the
     * statement, and so commits it outside a transaction. */
    int rc = DB_ERROR, got = 0, step = dbs_step(q);
    if (step == DBS_DONE)
        db_fail(db, "adding a turn returned no number");
    if (step == DBS_ROW) {
        got = dbs_col_int(q, 0);
        switch (dbs_step(q)) {
        case DBS_DONE:
            rc = DB_OK;
            break;
        case DBS_ROW:
            db_fail(db, "adding a turn returned more than one row");
            break;
        default:
            break;
        }
    }
    dbs_reset(q);
    if (rc == DB_OK)
        *number = got;
    return rc;
}

int db_turn_last(struct db *db, enum rules rules, int *number, int64_t *when)
{
    const char *name = rules_stored(db, rules);

    if (!name)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_TURN_LAST);
    int rc = DB_ERROR;

    dbs_bind_text(q, 1, name);
    rc = dbs_step_one(q);
    if (rc == DB_OK) {
        *number = dbs_col_int(q, 0);
        *when = dbs_col_int64(q, 1);
    } else if (rc == DB_NOTFOUND) {
        db_fail(db, "no %s turn has run yet", name);
    }
    dbs_reset(q);
    return rc;
}
