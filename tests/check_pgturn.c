/*
 * check_pgturn.c - a league turn on PostgreSQL writes what it writes on
 * SQLite (issue 29): PostgreSQL's turn sends its writes in a batch, many
 * rows a statement (db_pg_batch, dbs_rows_add in db/sql.h), and its database after two turns must
 * be the one SQLite's turns leave, row for row and column for column; and a write of the batch that
 * fails (refused by the server, or finding no row) fails the turn's commit, leaving nothing of it.
 *
 * On PostgreSQL only (the game-pg job: tests/pg_suites.sh); without
 * RINGSIDE_TEST_PG each test returns at once.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game_internal.h"
#include "test_db.h"
#include "tests.h"

/* Fighters a turn: past PG_ROWS_MAX (1,000) rows of every kind, so each
 * statement of rows is sent more than once in a turn. */
#define FIGHTERS 2300
#define NTABLES  11 /* in test_pgturn_same_as_sqlite */

static char dir[64], path_lite[128], path_pg[128];

static void quiet_say(void *ctx, enum game_voice voice, const char *target, const char *text)
{
    (void)ctx, (void)voice, (void)target, (void)text;
}

static const char *quiet_nick(void *ctx, int64_t account_id)
{
    (void)ctx, (void)account_id;
    return NULL;
}

static int quiet_same(void *ctx, const char *a, const char *b)
{
    (void)ctx;
    return strcmp(a, b) == 0;
}

static double quiet_clock(void *ctx)
{
    (void)ctx;
    return 1000.0;
}

/* The same wall clock on both backends: what is stored is the same. */
static int64_t quiet_wall(void *ctx)
{
    (void)ctx;
    return 1700000000;
}

static uint64_t quiet_seed(void *ctx)
{
    (void)ctx;
    return 42;
}

static unsigned long quiet_mark(void *ctx)
{
    (void)ctx;
    return 0;
}

static int quiet_delivered(void *ctx, unsigned long mark)
{
    (void)ctx, (void)mark;
    return 1;
}

static void quiet_log(void *ctx, enum game_log level, const char *text)
{
    (void)ctx, (void)level, (void)text;
}

static void setup(void)
{
    snprintf(dir, sizeof(dir), "/tmp/ringside-pgturn-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path_lite, sizeof(path_lite), "%s/lite.db", dir);
    snprintf(path_pg, sizeof(path_pg), "%s/pg.db", dir);
}

static void teardown(void)
{
    char cmd[128];

    if (test_db_pg())
        test_db_drop(path_pg);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* FIGHTERS boxers of one account with plans, in three leagues, as
 * bench_bot.c's league bench makes them. */
static void fighters_make(struct db *db)
{
    static const char *const plans[] = {
        "1) 5/5/10 (ring); 4) 4H/8/8 (inside); if endurance_percent < 40 then 3/3/14 (clinch)",
        "6/6/8; if opp = weak then 8/8/4 (allout)",
        "5/4/11 (counter); 6) 5B/7/8 (cut)",
    };
    int64_t owner;

    ck_assert_int_eq(db_account_create(db, "gm", "gm", "$y$x", 0, &owner), DB_OK);
    ck_assert_int_eq(db_begin(db), DB_OK);
    for (int i = 0; i < FIGHTERS; i++) {
        struct db_fighter f;
        char key[DB_NAME_MAX];
        memset(&f, 0, sizeof(f));
        f.account_id = owner;
        snprintf(f.name, sizeof(f.name), "L%d", i);
        snprintf(key, sizeof(key), "l%d", i);
        f.sheet.rules = RULES_BOXING;
        f.sheet.u.boxing = (struct boxing_sheet){10 + i % 5, 12, 14 - i % 5, 12, 12};
        f.league = i % LEAGUE_COUNT;
        ck_assert_int_eq(db_fighter_create(db, key, &f), DB_OK);
        ck_assert_int_eq(db_plan_set(db, f.id, plans[i % 3], 0), DB_OK);
    }
    ck_assert_int_eq(db_commit(db), DB_OK);
}

/* Two league turns of boxing on db, with the seeds 42 and 43. */
static void two_turns(struct db *db)
{
    const struct game_io io = {
        .say = quiet_say,
        .nick_of = quiet_nick,
        .same_name = quiet_same,
        .clock = quiet_clock,
        .wall = quiet_wall,
        .seed = quiet_seed,
        .mark = quiet_mark,
        .delivered = quiet_delivered,
        .log = quiet_log,
    };
    const struct game_config gc = {.order_timeout = 120, .challenge_timeout = 300, .rounds = 12};
    char err[256], lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX];
    int nlines;

    struct game *g = game_new(db, &io, &gc, err, sizeof(err));
    ck_assert_msg(g != NULL, "%s", err);
    for (uint64_t seed = 42; seed <= 43; seed++)
        ck_assert_msg(
            league_turn(g, RULES_BOXING, seed, "#league", lines, &nlines, err, sizeof(err)) == 0,
            "%s", err);
    game_free(g);
}

/* The columns of `table` as PostgreSQL lists them, comma-separated, into
 * cols (size bytes). */
static void columns_of(struct db *pg, const char *table, char *cols, size_t size)
{
    struct dbs *q = dbs_prepare(pg, "SELECT column_name FROM information_schema.columns"
                                    " WHERE table_schema = current_schema() AND table_name = ?1"
                                    " ORDER BY ordinal_position");
    ck_assert_ptr_nonnull(q);
    dbs_bind_text(q, 1, table);
    cols[0] = '\0';
    while (dbs_step(q) == DBS_ROW) {
        size_t n = strlen(cols);
        snprintf(cols + n, size - n, "%s%s", n ? ", " : "", dbs_col_text(q, 0));
    }
    dbs_free(q);
    ck_assert_msg(cols[0], "no table %s", table);
}

/* 1 if column c of the rows of a and b holds the same value: the same
 * text, or two numbers of which the same double is read (SQLite writes a
 * real as text with 15 digits, PostgreSQL with all it needs: the doubles
 * themselves are compared, bit for bit). */
static int same_value(struct dbs *a, struct dbs *b, int c)
{
    const char *x = dbs_col_text(a, c), *y = dbs_col_text(b, c);

    if (!x || !y)
        return x == y;
    if (strcmp(x, y) == 0)
        return 1;
    char *ex, *ey;
    (void)strtod(x, &ex);
    (void)strtod(y, &ey);
    double u = dbs_col_double(a, c), v = dbs_col_double(b, c);
    return *ex == '\0' && *ey == '\0' && (u == v || (isnan(u) && isnan(v)));
}

/* Compares `table` on both databases, every row and column, in the order
 * of its first three columns (its key leads in each table here); returns
 * the rows compared. */
static int table_same(struct db *lite, struct db *pg, const char *table)
{
    char cols[1024], sql[1400];

    columns_of(pg, table, cols, sizeof(cols));
    int ncols = 1, rows = 0, sa, sb;
    for (const char *c = cols; *c; c++)
        ncols += *c == ',';
    snprintf(sql, sizeof(sql), "SELECT %s FROM %s ORDER BY %s", cols, table,
             ncols >= 3   ? "1, 2, 3"
             : ncols == 2 ? "1, 2"
                          : "1");
    struct dbs *a = dbs_prepare(lite, sql), *b = dbs_prepare(pg, sql);
    ck_assert_msg(a && b, "%s: %s / %s", sql, db_errmsg(lite), db_errmsg(pg));
    while ((sa = dbs_step(a)) == DBS_ROW) {
        sb = dbs_step(b);
        ck_assert_msg(sb == DBS_ROW, "%s: PostgreSQL has %d rows, SQLite more", table, rows);
        for (int c = 0; c < ncols; c++) {
            const char *x = dbs_col_text(a, c), *y = dbs_col_text(b, c);
            ck_assert_msg(same_value(a, b, c), "%s row %d column %d (%s): SQLite %s, PostgreSQL %s",
                          table, rows + 1, c + 1, cols, x ? x : "NULL", y ? y : "NULL");
        }
        rows++;
    }
    ck_assert_int_eq(sa, DBS_DONE);
    ck_assert_msg(dbs_step(b) == DBS_DONE, "%s: SQLite has %d rows, PostgreSQL more", table, rows);
    dbs_free(a);
    dbs_free(b);
    return rows;
}

/* Two turns of FIGHTERS boxers on each backend leave the same tables:
 * every table the turns write (and those they read) compared whole. */
START_TEST(test_pgturn_same_as_sqlite)
{
    static const char *const tables[NTABLES] = {
        "fighters",  "ratings", "rating_history", "bouts",   "bout_orders",      "turns",
        "champions", "plans",   "turns_begun",    "seasons", "season_standings",
    };
    char err[256];

    if (!test_db_pg())
        return;
    struct db *lite = db_open(path_lite, err, sizeof(err));
    ck_assert_msg(lite != NULL, "%s", err);
    struct db *pg = test_db_open(path_pg, err, sizeof(err));
    ck_assert_msg(pg != NULL, "%s", err);
    fighters_make(lite);
    fighters_make(pg);
    two_turns(lite);
    two_turns(pg);
    int rows[NTABLES];
    for (int i = 0; i < NTABLES; i++)
        rows[i] = table_same(lite, pg, tables[i]);
    /* What the turns wrote: every fighter, his rating, a bout for two. */
    ck_assert_int_eq(rows[0], FIGHTERS);
    ck_assert_int_eq(rows[1], FIGHTERS);
    ck_assert_int_ge(rows[3], FIGHTERS - 10);
    ck_assert_int_eq(rows[2], 2 * rows[3]);
    ck_assert_int_eq(rows[5], 2);
    db_close(lite);
    db_close(pg);
}
END_TEST

/* The fighter `key` of db, read back. */
static struct db_fighter fighter_get(struct db *db, const char *key)
{
    struct db_fighter f;

    ck_assert_int_eq(db_fighter_get(db, key, &f), DB_OK);
    return f;
}

/* In a batch, a save of a fighter who is not there, or one the server
 * refuses, is only sent: the commit fails, saying why, and the rollback
 * leaves nothing of the transaction. Outside a batch the save answers at
 * once, as before. */
START_TEST(test_pgturn_batch_failure)
{
    char err[256];
    int64_t owner;

    if (!test_db_pg())
        return;
    struct db *db = test_db_open(path_pg, err, sizeof(err));
    ck_assert_msg(db != NULL, "%s", err);
    ck_assert_int_eq(db_account_create(db, "gm", "gm", "$y$x", 0, &owner), DB_OK);
    struct db_fighter f = {.account_id = owner, .name = "Ali"};
    f.sheet.rules = RULES_BOXING;
    f.sheet.u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12};
    ck_assert_int_eq(db_fighter_create(db, "ali", &f), DB_OK);

    for (int kind = 0; kind < 2; kind++) {
        struct db_fighter g = f, ghost = f;
        g.wins = 7;
        ghost.id = f.id + 1000; /* no such fighter */
        if (kind == 1)
            ghost = f, ghost.wins = -1; /* the table's CHECK refuses it */
        ck_assert_int_eq(db_begin(db), DB_OK);
        db_league_cache(db, 1); /* a turn's batch */
        ck_assert_int_eq(db_fighter_save_from(db, &g, g.league, 900), DB_OK);
        ck_assert_int_eq(db_fighter_save_from(db, &ghost, ghost.league, 901), DB_OK);
        ck_assert_int_eq(db_commit(db), DB_ERROR);
        if (kind == 0)
            ck_assert_msg(strstr(db_errmsg(db), "found 1 of its 2 rows") != NULL, "%s",
                          db_errmsg(db));
        else
            ck_assert_msg(strstr(db_errmsg(db), "check constraint") != NULL, "%s", db_errmsg(db));
        ck_assert_int_eq(db_rollback(db), DB_OK);
        db_league_cache(db, 0);
        ck_assert_int_eq(fighter_get(db, "ali").wins, 0);
    }
    /* The connection works on, and without a batch a missing fighter is
     * known at once. */
    struct db_fighter ghost = f;
    ghost.id = f.id + 1000;
    ck_assert_int_eq(db_begin(db), DB_OK);
    ck_assert_int_eq(db_fighter_save_from(db, &ghost, ghost.league, 902), DB_NOTFOUND);
    ck_assert_int_eq(db_rollback(db), DB_OK);
    f.wins = 3;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    ck_assert_int_eq(fighter_get(db, "ali").wins, 3);
    db_close(db);
}
END_TEST

/* The session ends (the server restarted, or an administrator ended it)
 * while a batch holds rows and answers: the commit fails, the rollback
 * ends the transaction, and the connection works again on a new session,
 * with nothing of the batch stored. */
START_TEST(test_pgturn_batch_session_lost)
{
    char err[256], pid[32], sql[96];
    int64_t owner;

    if (!test_db_pg())
        return;
    struct db *db = test_db_open(path_pg, err, sizeof(err));
    ck_assert_msg(db != NULL, "%s", err);
    ck_assert_int_eq(db_account_create(db, "gm", "gm", "$y$x", 0, &owner), DB_OK);
    struct db_fighter f = {.account_id = owner, .name = "Ali"};
    f.sheet.rules = RULES_BOXING;
    f.sheet.u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12};
    ck_assert_int_eq(db_fighter_create(db, "ali", &f), DB_OK);
    struct dbs *q = dbs_prepare(db, "SELECT pg_backend_pid()");
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    ck_assert_int_eq(dbs_col_copy(q, 0, pid, sizeof(pid), "pid"), DB_OK);
    dbs_free(q);

    ck_assert_int_eq(db_begin(db), DB_OK);
    db_league_cache(db, 1);
    struct db_fighter g = f;
    g.wins = 5;
    ck_assert_int_eq(db_fighter_save_from(db, &g, g.league, 900), DB_OK); /* held */
    snprintf(sql, sizeof(sql), "SELECT pg_terminate_backend(%s)", pid);
    struct db *admin = db_open(test_db_pg(), err, sizeof(err));
    ck_assert_msg(admin != NULL, "%s", err);
    q = dbs_prepare(admin, sql);
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    dbs_free(q);
    db_close(admin);
    ck_assert_int_eq(db_commit(db), DB_ERROR);
    ck_assert_int_eq(db_rollback(db), DB_OK);
    db_league_cache(db, 0);
    ck_assert_int_eq(fighter_get(db, "ali").wins, 0);
    /* A batch on the new session works. */
    ck_assert_int_eq(db_begin(db), DB_OK);
    db_league_cache(db, 1);
    ck_assert_int_eq(db_fighter_save_from(db, &g, g.league, 901), DB_OK);
    ck_assert_int_eq(db_commit(db), DB_OK);
    db_league_cache(db, 0);
    ck_assert_int_eq(fighter_get(db, "ali").wins, 5);
    db_close(db);
}
END_TEST

Suite *pgturn_suite(void)
{
    Suite *s = suite_create("pgturn");
    TCase *tc = tcase_create("core");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_pgturn_same_as_sqlite);
    tcase_add_test(tc, test_pgturn_batch_failure);
    tcase_add_test(tc, test_pgturn_batch_session_lost);
    suite_add_tcase(s, tc);
    return s;
}
