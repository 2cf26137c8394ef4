/* check_main.c - runs every unit-test suite; exit status 0 only if all pass. */
#include <stdlib.h>

#include "tests.h"

int main(void)
{
    SRunner *sr = srunner_create(rng_suite());

    srunner_add_suite(sr, str_suite());
    srunner_add_suite(sr, boxing_suite());
    srunner_add_suite(sr, sugarray_suite());
    srunner_add_suite(sr, duel_suite());
    srunner_add_suite(sr, parse_suite());
    srunner_add_suite(sr, plan_suite());
    srunner_add_suite(sr, invariants_suite());
    srunner_add_suite(sr, db_suite());
    srunner_add_suite(sr, bot_text_suite());
    srunner_add_suite(sr, outq_suite());
    srunner_add_suite(sr, config_suite());
    srunner_add_suite(sr, cmd_suite());
    srunner_add_suite(sr, bout_suite());
    srunner_add_suite(sr, turn_suite());
    srunner_add_suite(sr, render_suite());
    srunner_add_suite(sr, render_fmt_suite());
    srunner_add_suite(sr, page_suite());
    srunner_add_suite(sr, league_suite());
    srunner_add_suite(sr, game_suite());
    srunner_add_suite(sr, fighter_suite());
    srunner_add_suite(sr, rating_suite());
    srunner_add_suite(sr, simulate_suite());
    srunner_add_suite(sr, fault_suite());
    srunner_add_suite(sr, integrity_suite());
    srunner_add_suite(sr, restart_suite());
    srunner_add_suite(sr, pace_suite());
    srunner_add_suite(sr, season_suite());
    srunner_add_suite(sr, predict_suite());
    srunner_add_suite(sr, caps_suite());
    srunner_add_suite(sr, relay_suite());
    srunner_add_suite(sr, tournament_suite());
    srunner_add_suite(sr, policy_suite());
    srunner_add_suite(sr, stamp_suite());
    srunner_add_suite(sr, pgstamp_suite());
    srunner_add_suite(sr, pgjob_suite());
    srunner_add_suite(sr, pgturn_suite());
    srunner_add_suite(sr, tables_suite());
    srunner_add_suite(sr, sql_suite());
    srunner_add_suite(sr, portable_suite()); /* pgconv (issue 29) */
    srunner_add_suite(sr, lease_suite());    /* pgfail (issue 29) */
    srunner_add_suite(sr, notify_suite());   /* pgnotify (issue 29) */
    srunner_add_suite(sr, network_suite());  /* pgnet (issue 29) */
    srunner_add_suite(sr, netgame_suite());  /* pgnet (issue 29) */
    srunner_add_suite(sr, netcmd_suite());   /* pgnet (issue 29) */
    srunner_add_suite(sr, presence_suite()); /* presence (issue 29) */
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
