/* tests.h - the suites of the unit-test runner (one per tests/check_*.c). */
#ifndef RINGSIDE_TESTS_H
#define RINGSIDE_TESTS_H

#include <check.h>

/* An assertion for hot loops: Check records every passing ck_assert (one
 * write each), so loops over many bouts assert through this instead, which
 * costs nothing until it fails. */
#define REQUIRE(cond)                                                                              \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg("%s:%d: requirement failed: %s", __FILE__, __LINE__, #cond);              \
    } while (0)

Suite *rng_suite(void);
Suite *str_suite(void);
Suite *boxing_suite(void);
Suite *sugarray_suite(void);
Suite *duel_suite(void);
Suite *parse_suite(void);
Suite *plan_suite(void);
Suite *invariants_suite(void);
Suite *db_suite(void);
Suite *bot_text_suite(void);
Suite *outq_suite(void);
Suite *config_suite(void);
Suite *cmd_suite(void);
Suite *bout_suite(void);
Suite *turn_suite(void);
Suite *render_suite(void);
Suite *render_fmt_suite(void);
Suite *page_suite(void);
Suite *league_suite(void);
Suite *game_suite(void);
Suite *fighter_suite(void);
Suite *rating_suite(void);
Suite *simulate_suite(void);
Suite *fault_suite(void);
Suite *integrity_suite(void);
Suite *restart_suite(void);
Suite *pace_suite(void);
Suite *season_suite(void);
Suite *predict_suite(void);
Suite *caps_suite(void);
Suite *relay_suite(void);
Suite *tournament_suite(void);
Suite *policy_suite(void);
Suite *stamp_suite(void);   /* webfast (issue 28): change stamps */
Suite *pgstamp_suite(void); /* pgstamp (issue 29): several writers, the jobs' lock */
Suite *pgjob_suite(void);   /* pgstamp (issue 29): a league turn, one bot at a time */
Suite *pgturn_suite(void);  /* pgturn (issue 29): a league turn's batch on PostgreSQL */
Suite *tables_suite(void);  /* manybouts: the many-bouts indexes */
/* pgsql1 (issue 29): db/'s statement layer */
Suite *sql_suite(void);
/* pgconv (issue 29): db/'s SQL in portable forms */
Suite *portable_suite(void);
Suite *lease_suite(void);  /* pgfail (issue 29) */
Suite *notify_suite(void); /* pgnotify (issue 29) */
/* pgnet (issue 29): accounts and bouts per network, migration 18 */
Suite *network_suite(void);
Suite *netgame_suite(void);
Suite *netcmd_suite(void);
Suite *presence_suite(void); /* presence (issue 29): another network's bot gone */

#endif
