/* check_integrity.c - the database is the truth: a file deleted or replaced
 * under an open connection stops its writes (db_gone); the marker beside
 * the bot's database refuses an empty new one where one was kept, and
 * --init (db_open_marked's init) makes one on purpose; another
 * connection's write lock fails a write after the short busy timeout, and
 * says so (db_busy), where it waited 5 s; league turns begun and not
 * committed are recorded, reported at start and said to the admins, and a
 * finished or failed turn leaves no record. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bot.h"
#include "game_fixture.h"

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int exists(const char *p)
{
    struct stat sb;

    return lstat(p, &sb) == 0;
}

static void remove_db(const char *p)
{
    char side[256];

    unlink(p);
    snprintf(side, sizeof(side), "%s-wal", p);
    unlink(side);
    snprintf(side, sizeof(side), "%s-shm", p);
    unlink(side);
}

/* ------------------------------------------------------------------ gone */

static void sugar_league(int count)
{
    struct sheet s;
    char name[32], fighter[32];

    memset(&s, 0, sizeof(s));
    s.rules = RULES_SUGARRAY;
    s.u.sugarray.skill = 10;
    s.u.sugarray.endurance = 10;
    for (int i = 0; i < count; i++) {
        snprintf(name, sizeof(name), "p%d", i);
        snprintf(fighter, sizeof(fighter), "F%d", i);
        player(name, fighter, &s);
    }
}

START_TEST(test_gone_deleted)
{
    TEST_DB_SQLITE_ONLY("a SQLite file deleted or replaced under the bot");
    int64_t id;

    ck_assert_int_eq(db_account_create(db, "before", "before", "$y$h", 1, &id), DB_OK);
    ck_assert_int_eq(db_gone(db), 0);
    ck_assert_int_eq(unlink(path), 0);
    /* A write on its own and a transaction: both refused, with the path. */
    ck_assert_int_eq(db_account_create(db, "after", "after", "$y$h", 1, &id), DB_ERROR);
    ck_assert_int_eq(db_gone(db), 1);
    ck_assert_ptr_nonnull(strstr(db_errmsg(db), "is gone (deleted or replaced while"));
    ck_assert_ptr_nonnull(strstr(db_errmsg(db), path));
    ck_assert_int_eq(db_begin(db), DB_ERROR);
    ck_assert_ptr_nonnull(strstr(db_errmsg(db), "an operator must restore it"));
    /* Reads still answer from the file the connection holds. */
    struct db_account acc;
    ck_assert_int_eq(db_account_get(db, "before", &acc), DB_OK);
    ck_assert_int_eq(db_busy(db), 0);
}
END_TEST

START_TEST(test_gone_replaced)
{
    TEST_DB_SQLITE_ONLY("a SQLite file deleted or replaced under the bot");
    char other[192];
    int64_t id;

    snprintf(other, sizeof(other), "%s/other.db", dir);
    int fd = open(other, O_WRONLY | O_CREAT | O_EXCL, 0600);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(rename(other, path), 0);
    ck_assert_int_eq(db_begin(db), DB_ERROR);
    ck_assert_int_eq(db_gone(db), 1);
    ck_assert_int_eq(db_account_create(db, "x", "x", "$y$h", 1, &id), DB_ERROR);
}
END_TEST

/* The game's words for the players when the file is gone: the turn says
 * what happened, and nothing is stored. */
START_TEST(test_gone_turn)
{
    TEST_DB_SQLITE_ONLY("a SQLite file deleted or replaced under the bot");
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], err[512];
    int n = 0, number;
    int64_t last;

    sugar_league(4);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(league_turn(game, RULES_SUGARRAY, 5, "#ring", lines, &n, err, sizeof(err)),
                     -1);
    ck_assert_msg(strstr(err, "is gone") != NULL, "%s", err);
    ck_assert_int_eq(db_turn_last(db, RULES_SUGARRAY, &number, &last), DB_NOTFOUND);
}
END_TEST

/* ---------------------------------------------------------------- marker */

START_TEST(test_marker)
{
    char p[192], mark[200], err[1024] = "", id[64], id2[64];

    snprintf(p, sizeof(p), "%s/bot.db", dir);
    snprintf(mark, sizeof(mark), "%s.id", p);
    /* Neither file: both are made, the marker holding the database's id. */
    struct db *d = db_open_marked(p, 0, err, sizeof(err));
    ck_assert_msg(d != NULL, "%s", err);
    ck_assert_int_eq(db_id(d, id, sizeof(id)), DB_OK);
    ck_assert_uint_eq(strlen(id), 32);
    db_close(d);
    FILE *f = fopen(mark, "r");
    ck_assert_ptr_nonnull(f);
    char line[64] = "";
    ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
    fclose(f);
    ck_assert_int_eq(strncmp(line, id, 32), 0);
    /* Both: opens, the same id. */
    d = db_open_marked(p, 0, err, sizeof(err));
    ck_assert_msg(d != NULL, "%s", err);
    ck_assert_int_eq(db_id(d, id2, sizeof(id2)), DB_OK);
    ck_assert_str_eq(id, id2);
    db_close(d);
    /* The marker without its database: refused, nothing created. */
    remove_db(p);
    ck_assert_ptr_null(db_open_marked(p, 0, err, sizeof(err)));
    ck_assert_msg(strstr(err, "is missing, but") && strstr(err, id) && strstr(err, "--init"), "%s",
                  err);
    ck_assert(!exists(p));
    /* --init: a new database, a new marker. */
    d = db_open_marked(p, 1, err, sizeof(err));
    ck_assert_msg(d != NULL, "%s", err);
    ck_assert_int_eq(db_id(d, id2, sizeof(id2)), DB_OK);
    ck_assert_str_ne(id, id2);
    db_close(d);
    /* --init on a database that exists: refused, untouched. */
    ck_assert_ptr_null(db_open_marked(p, 1, err, sizeof(err)));
    ck_assert_ptr_nonnull(strstr(err, "exists already"));
    /* Another database under the marker's name: refused. */
    f = fopen(mark, "w");
    ck_assert_ptr_nonnull(f);
    fputs("0123456789abcdef0123456789abcdef\n", f);
    fclose(f);
    ck_assert_ptr_null(db_open_marked(p, 0, err, sizeof(err)));
    ck_assert_msg(strstr(err, "says another was kept there"), "%s", err);
    /* A database without a marker (one from before markers) gets one. */
    unlink(mark);
    d = db_open_marked(p, 0, err, sizeof(err));
    ck_assert_msg(d != NULL, "%s", err);
    db_close(d);
    ck_assert(exists(mark));
}
END_TEST

/* ------------------------------------------------------------------ busy */

START_TEST(test_busy)
{
    TEST_DB_SQLITE_ONLY("SQLite's one write lock: PostgreSQL's writers do not lock each other out");
    char err[256];
    int64_t id;
    struct db *other = test_db_open(path, err, sizeof(err));

    ck_assert_msg(other != NULL, "%s", err);
    db_busy_timeout(db, 100);
    ck_assert_int_eq(db_begin(other), DB_OK); /* BEGIN IMMEDIATE: the write lock */
    double t0 = now_s();
    ck_assert_int_eq(db_account_create(db, "waits", "waits", "$y$h", 1, &id), DB_ERROR);
    double took = now_s() - t0;
    ck_assert_int_eq(db_busy(db), 1);
    ck_assert_int_eq(db_gone(db), 0);
    ck_assert_msg(took < 1.0, "the write waited %.2f s", took);
    ck_assert_int_eq(db_begin(db), DB_ERROR);
    ck_assert_int_eq(db_busy(db), 1);
    /* Reads go on meanwhile (WAL). */
    struct db_account acc;
    ck_assert_int_eq(db_account_get(db, "waits", &acc), DB_NOTFOUND);
    ck_assert_int_eq(db_rollback(other), DB_OK);
    ck_assert_int_eq(db_account_create(db, "waits", "waits", "$y$h", 1, &id), DB_OK);
    ck_assert_int_eq(db_busy(db), 0);
    db_close(other);
}
END_TEST

/* ----------------------------------------------------------------- turns */

START_TEST(test_turn_records)
{
    enum rules r[RULES_COUNT];
    int64_t begun[RULES_COUNT];
    int n = -1;

    ck_assert_int_eq(db_turn_unfinished(db, r, begun, RULES_COUNT, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(db_turn_begun(db, RULES_BOXING, 1234), DB_OK);
    ck_assert_int_eq(db_turn_begun(db, RULES_SUGARRAY, 99), DB_OK);
    ck_assert_int_eq(db_turn_begun(db, RULES_BOXING, 1235), DB_OK); /* again: the latest */
    ck_assert_int_eq(db_turn_unfinished(db, r, begun, RULES_COUNT, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(r[0], RULES_BOXING);
    ck_assert_int_eq(begun[0], 1235);
    ck_assert_int_eq(r[1], RULES_SUGARRAY);
    /* Done in a transaction rolled back: still there; committed: gone. */
    ck_assert_int_eq(db_begin(db), DB_OK);
    ck_assert_int_eq(db_turn_done(db, RULES_BOXING), DB_OK);
    ck_assert_int_eq(db_rollback(db), DB_OK);
    ck_assert_int_eq(db_turn_unfinished(db, r, begun, RULES_COUNT, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(db_begin(db), DB_OK);
    ck_assert_int_eq(db_turn_done(db, RULES_BOXING), DB_OK);
    ck_assert_int_eq(db_commit(db), DB_OK);
    ck_assert_int_eq(db_turn_unfinished(db, r, begun, RULES_COUNT, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(r[0], RULES_SUGARRAY);
}
END_TEST

/* A turn that finishes leaves no record; a turn that fails is rolled back
 * and leaves none either. */
START_TEST(test_turn_leaves_nothing)
{
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], err[512];
    enum rules r[RULES_COUNT];
    int64_t begun[RULES_COUNT];
    int n = 0, k = -1;

    sugar_league(4);
    ck_assert_msg(league_turn(game, RULES_SUGARRAY, 5, "#ring", lines, &n, err, sizeof(err)) == 0,
                  "%s", err);
    ck_assert_int_eq(db_turn_unfinished(db, r, begun, RULES_COUNT, &k), DB_OK);
    ck_assert_int_eq(k, 0);
    /* Another connection holds the write lock: the turn cannot begin. */
    TEST_DB_SQLITE_ONLY("SQLite's one write lock: PostgreSQL's writers do not lock each other out");
    struct db *other = test_db_open(path, err, sizeof(err));
    ck_assert_ptr_nonnull(other);
    db_busy_timeout(db, 50);
    ck_assert_int_eq(db_begin(other), DB_OK);
    ck_assert_int_eq(league_turn(game, RULES_SUGARRAY, 6, "#ring", lines, &n, err, sizeof(err)),
                     -1);
    ck_assert_msg(strstr(err, "locked") != NULL, "%s", err);
    ck_assert_int_eq(db_rollback(other), DB_OK);
    db_close(other);
    ck_assert_int_eq(db_turn_unfinished(db, r, begun, RULES_COUNT, &k), DB_OK);
    ck_assert_int_eq(k, 0);
}
END_TEST

/* A record left over (a turn killed before its commit) is reported once,
 * in the league channel, with how to run it again; and the turn runs again
 * as the first. */
START_TEST(test_turn_unfinished_report)
{
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], err[512];
    int n = 0, number;
    int64_t last;

    sugar_league(4);
    ck_assert_int_eq(db_turn_begun(db, RULES_SUGARRAY, 1700000000), DB_OK);
    league_unfinished_report(game);
    hush();
    game_tick(game, NULL); /* not connected: kept for later */
    ck_assert_uint_eq(said.len, 0);
    game_tick(game, "#league");
    HAS("#league|chatter|Admins: the sugarray league turn begun at 2023-11-14 22:13 UTC did not "
        "finish (the bot stopped before storing it): nothing of it was stored; an admin can run "
        "it again: !turn rules=sugarray\n");
    hush();
    game_tick(game, "#league");
    ck_assert_uint_eq(said.len, 0); /* once */
    ck_assert_msg(league_turn(game, RULES_SUGARRAY, 5, "#ring", lines, &n, err, sizeof(err)) == 0,
                  "%s", err);
    ck_assert_int_eq(db_turn_last(db, RULES_SUGARRAY, &number, &last), DB_OK);
    ck_assert_int_eq(number, 1);
    enum rules r[RULES_COUNT];
    int64_t begun[RULES_COUNT];
    ck_assert_int_eq(db_turn_unfinished(db, r, begun, RULES_COUNT, &n), DB_OK);
    ck_assert_int_eq(n, 0);
}
END_TEST

/* ------------------------------------------------------ the bot's words */

/* What players are told of a failed write says what happened (db_why):
 * the file gone, or the database busy; otherwise "database error". The
 * loss is logged once (bot_db_watch). */
START_TEST(test_bot_words)
{
    TEST_DB_SQLITE_ONLY("SQLite's write lock and its file gone");
    struct bot *b = xcalloc(1, sizeof(*b));
    char text[256], err[256];
    int64_t id;

    b->db = db;
    snprintf(b->cfg.database, sizeof(b->cfg.database), "%s", path);
    snprintf(text, sizeof(text), "sorry, x (%s); again", db_why(db));
    ck_assert_str_eq(text, "sorry, x (database error); again");
    bot_db_watch(b);
    ck_assert_int_eq(b->db_gone_said, 0);
    /* Busy: another connection's lock. */
    struct db *other = test_db_open(path, err, sizeof(err));
    ck_assert_ptr_nonnull(other);
    db_busy_timeout(db, 20);
    ck_assert_int_eq(db_begin(other), DB_OK);
    ck_assert_int_eq(db_account_create(db, "w", "w", "$y$h", 1, &id), DB_ERROR);
    snprintf(text, sizeof(text), "sorry, x (%s); again", db_why(db));
    ck_assert_str_eq(text, "sorry, x (the database is busy; try again in a moment); again");
    ck_assert_int_eq(db_rollback(other), DB_OK);
    db_close(other);
    /* Gone, for good; logged once. */
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(db_account_create(db, "w", "w", "$y$h", 1, &id), DB_ERROR);
    snprintf(text, sizeof(text), "sorry, your orders were NOT stored (%s); send them again",
             db_why(db));
    ck_assert_str_eq(text, "sorry, your orders were NOT stored (the database file is gone; an "
                           "operator must restore it); send them again");
    bot_db_watch(b);
    ck_assert_int_eq(b->db_gone_said, 1);
    /* Gone stays the answer, whatever fails next. */
    ck_assert_int_eq(db_account_create(db, "v", "v", "$y$h", 1, &id), DB_ERROR);
    ck_assert_str_eq(db_why(db), "the database file is gone; an operator must restore it");
    free(b);
}
END_TEST

Suite *integrity_suite(void)
{
    Suite *s = suite_create("integrity");
    TCase *tc = tcase_create("integrity");

    tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_gone_deleted);
    tcase_add_test(tc, test_gone_replaced);
    tcase_add_test(tc, test_gone_turn);
    tcase_add_test(tc, test_marker);
    tcase_add_test(tc, test_busy);
    tcase_add_test(tc, test_turn_records);
    tcase_add_test(tc, test_turn_leaves_nothing);
    tcase_add_test(tc, test_turn_unfinished_report);
    tcase_add_test(tc, test_bot_words);
    suite_add_tcase(s, tc);
    return s;
}
