/* check_pgjob.c - the league turn is a job one bot runs at a time among
 * those sharing a PostgreSQL database (issue 29, db_job_lock), through
 * game/ alone: while another connection (another bot) holds the job, a
 * scheduled turn is skipped without a word and an admin's turn is refused
 * with one line; once it is free the turn runs, and the other bot, due by
 * its own clock, reads under the job that the turn ran and runs none. On
 * SQLite one bot a file: every job is its own, nothing to test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "game.h"
#include "game_fixture.h"
#include "test_db.h"
#include "tests.h"

static void setup(void)
{
    fixture_setup();
}

static void teardown(void)
{
    fixture_teardown();
}

/* Another bot's connection to the same database. */
static struct db *other_bot(void)
{
    char err[512];
    struct db *d = test_db_open(path, err, sizeof(err));

    ck_assert_msg(d != NULL, "%s", err);
    return d;
}

START_TEST(test_admin_turn_busy)
{
    if (!test_db_pg())
        return; /* SQLite: one bot a file, every job its own */
    struct db *other = other_bot();

    ck_assert_int_eq(db_job_lock(other, "league boxing"), DB_OK);
    hush();
    ck_assert_int_eq(league_turn_announce(game, RULES_BOXING, "#league", "admin"), -1);
    ck_assert_str_eq(said.p,
                     /* logged at info only: no error */
                     "admin|reply|The boxing league turn failed: another bot sharing the database "
                     "is running it now; try again once it is done\n");
    int n = 0;
    int64_t when = 0;
    ck_assert_int_eq(db_turn_last(db, RULES_BOXING, &n, &when), DB_NOTFOUND);
    /* Another job (the duel's league) is not this one. */
    ck_assert_int_eq(league_turn_announce(game, RULES_DUEL, "#league", "admin"), 0);
    db_job_unlock(other, "league boxing");
    ck_assert_int_eq(league_turn_announce(game, RULES_BOXING, "#league", "admin"), 0);
    ck_assert_int_eq(db_turn_last(db, RULES_BOXING, &n, &when), DB_OK);
    ck_assert_int_eq(n, 1);
    db_close(other);
}
END_TEST

START_TEST(test_scheduled_turn_once)
{
    if (!test_db_pg())
        return; /* SQLite: one bot a file, every job its own */
    char err[256];
    struct game_config c = cfg;
    struct db *other = other_bot();
    int n = 0;
    int64_t when = 0;

    c.turn_interval = 60;
    game_free(game);
    game = game_new(db, &io, &c, err, sizeof(err));
    ck_assert_msg(game != NULL, "%s", err);
    struct game *second = game_new(other, &io, &c, err, sizeof(err));
    ck_assert_msg(second != NULL, "%s", err);
    game_tick(game, "#league"); /* both start their clocks */
    game_tick(second, "#league");

    /* Due, but the other bot holds the job: not a word, no turn. */
    ck_assert_int_eq(db_job_lock(other, "league boxing"), DB_OK);
    wall_now += 61;
    clock_now += 31;
    hush();
    game_tick(game, "#league");
    ck_assert_int_eq(db_turn_last(db, RULES_BOXING, &n, &when), DB_NOTFOUND);
    ck_assert_ptr_null(strstr(said.p ? said.p : "", "boxing"));
    db_job_unlock(other, "league boxing");

    /* Free: this bot runs it at its next look. */
    clock_now += 31;
    game_tick(game, "#league");
    ck_assert_int_eq(db_turn_last(db, RULES_BOXING, &n, &when), DB_OK);
    ck_assert_int_eq(n, 1);
    /* The other bot was due by its own clock too: under the job it reads
     * that the turn ran, and runs none. */
    game_tick(second, "#league");
    ck_assert_int_eq(db_turn_last(other, RULES_BOXING, &n, &when), DB_OK);
    ck_assert_int_eq(n, 1);
    game_free(second);
    db_close(other);
}
END_TEST

Suite *pgjob_suite(void)
{
    Suite *s = suite_create("pgjob");
    TCase *tc = tcase_create("pgjob");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_admin_turn_busy);
    tcase_add_test(tc, test_scheduled_turn_once);
    suite_add_tcase(s, tc);
    return s;
}
