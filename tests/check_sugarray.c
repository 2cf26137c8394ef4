/* check_sugarray.c - SUGAR RAY: the fatigue table, the seed 004 example match
 * round by round, KO, ties, and the changes after a bout. */
#include "engine.h"
#include "tests.h"

static void sheets(struct sheet s[SIDES], int sk0, int en0, int sk1, int en1)
{
    s[0].rules = s[1].rules = RULES_SUGARRAY;
    s[0].u.sugarray = (struct sugarray_sheet){sk0, en0};
    s[1].u.sugarray = (struct sugarray_sheet){sk1, en1};
}

static void orders(struct order o[SIDES], int a0, int d0, int a1, int d1)
{
    o[0].rules = o[1].rules = RULES_SUGARRAY;
    o[0].u.sugarray = (struct sugarray_order){a0, d0, 0};
    o[1].u.sugarray = (struct sugarray_order){a1, d1, 0};
}

START_TEST(test_fatigue_table)
{
    static const int want[] = {0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6, 7, 8, 10};

    for (int f = 0; f <= 15; f++)
        ck_assert_int_eq(sugarray_fatigue_loss(f), want[f]);
    ck_assert_int_eq(sugarray_fatigue_loss(-5), 0);
    ck_assert_int_eq(sugarray_fatigue_loss(16), 12);
    ck_assert_int_eq(sugarray_fatigue_loss(20), 20);
}
END_TEST

/* Seed 004: Miller (10,26) against Murphy (12,21). */
START_TEST(test_example_match)
{
    static const int ord[5][4] = {
        {2, 3, 6, 0}, {3, 0, 3, 3}, {2, 2, 3, 4}, {0, 5, 4, 2}, {3, 1, 3, 3}};
    static const int end_miller[5] = {19, 13, 11, 11, 6};
    static const int end_murphy[5] = {15, 14, 12, 11, 10};
    struct sheet s[SIDES];
    struct order o[SIDES];
    struct bout b;
    struct bout_rng br;
    struct events ev;

    sheets(s, 10, 26, 12, 21);
    ck_assert_int_eq(bout_init(&b, RULES_SUGARRAY, s, 0), 0);
    ck_assert_int_eq(b.rounds, 5);
    bout_rng_seed(&br, 1);
    for (int r = 0; r < 5; r++) {
        ck_assert_int_eq(b.result.over, 0);
        orders(o, ord[r][0], ord[r][1], ord[r][2], ord[r][3]);
        ck_assert_int_eq(bout_round(&b, o, &br, &ev), 0);
        ck_assert_int_eq(b.u.sugarray.end_after[r][0], end_miller[r]);
        ck_assert_int_eq(b.u.sugarray.end_after[r][1], end_murphy[r]);
    }
    ck_assert_int_eq(b.result.over, 1);
    ck_assert_int_eq(b.result.winner, 1);
    ck_assert_int_eq(b.result.method, METHOD_POINTS);
    ck_assert_int_eq(b.u.sugarray.attack_total[0], 10);
    ck_assert_int_eq(b.u.sugarray.attack_total[1], 19);
    ck_assert_int_eq(bout_round(&b, o, &br, &ev), -1);
}
END_TEST

START_TEST(test_ko_by_blows_ends_bout)
{
    struct sheet s[SIDES];
    struct order o[SIDES];
    struct bout b;
    struct bout_rng br;
    struct events ev;

    sheets(s, 20, 10, 10, 10);
    ck_assert_int_eq(bout_init(&b, RULES_SUGARRAY, s, 0), 0);
    bout_rng_seed(&br, 1);
    /* 3*6 + 0 - 20 < 0: no fatigue; 6 over 0 defence costs 12. */
    orders(o, 6, 0, 0, 0);
    ck_assert_int_eq(bout_round(&b, o, &br, &ev), 0);
    ck_assert_int_eq(b.result.over, 1);
    ck_assert_int_eq(b.result.winner, 0);
    ck_assert_int_eq(b.result.method, METHOD_KO);
    ck_assert_int_eq(b.result.round, 1);
    ck_assert_int_eq(b.u.sugarray.endurance[1], -2);
}
END_TEST

START_TEST(test_ko_by_fatigue_skips_blows)
{
    struct sheet s[SIDES];
    struct order o[SIDES];
    struct bout b;
    struct bout_rng br;
    struct events ev;

    sheets(s, 10, 5, 10, 30);
    ck_assert_int_eq(bout_init(&b, RULES_SUGARRAY, s, 0), 0);
    bout_rng_seed(&br, 1);
    /* Fatigue 3*9 + 0 - 10 = 17 -> 14 lost: out before any blow. */
    orders(o, 9, 0, 9, 0);
    ck_assert_int_eq(bout_round(&b, o, &br, &ev), 0);
    ck_assert_int_eq(b.result.over, 1);
    ck_assert_int_eq(b.result.winner, 1);
    ck_assert_int_eq(b.u.sugarray.endurance[0], -9);
    ck_assert_int_eq(b.u.sugarray.endurance[1], 16); /* no blows landed */
}
END_TEST

START_TEST(test_double_ko_is_tie)
{
    struct sheet s[SIDES];
    struct order o[SIDES];
    struct bout b;
    struct bout_rng br;
    struct events ev;

    sheets(s, 10, 10, 10, 10);
    ck_assert_int_eq(bout_init(&b, RULES_SUGARRAY, s, 0), 0);
    bout_rng_seed(&br, 1);
    orders(o, 5, 0, 5, 0); /* fatigue 5 -> 2 each, blows 10 each */
    ck_assert_int_eq(bout_round(&b, o, &br, &ev), 0);
    ck_assert_int_eq(b.result.over, 1);
    ck_assert_int_eq(b.result.winner, -1);
    ck_assert_int_eq(b.result.method, METHOD_DRAW);
    ck_assert_int_eq(b.result.drawn_by, METHOD_KO);
}
END_TEST

START_TEST(test_equal_attack_is_tie)
{
    struct sheet s[SIDES];
    struct order o[SIDES];
    struct bout b;
    struct bout_rng br;
    struct events ev;

    sheets(s, 10, 20, 12, 20);
    ck_assert_int_eq(bout_init(&b, RULES_SUGARRAY, s, 0), 0);
    bout_rng_seed(&br, 1);
    orders(o, 2, 2, 2, 2);
    for (int r = 0; r < 5; r++)
        ck_assert_int_eq(bout_round(&b, o, &br, &ev), 0);
    ck_assert_int_eq(b.result.winner, -1);
    ck_assert_int_eq(b.result.drawn_by, METHOD_POINTS);
}
END_TEST

START_TEST(test_after_bout_changes)
{
    struct sugarray_sheet s[SIDES] = {{10, 26}, {12, 21}};
    struct result res = {.over = 1, .winner = 1, .method = METHOD_POINTS};

    sugarray_after_bout(s, &res);
    ck_assert_int_eq(s[1].endurance, 22);
    ck_assert_int_eq(s[0].endurance, 25);
    ck_assert_int_eq(s[0].skill, 10);
    res.method = METHOD_KO;
    res.winner = 0;
    sugarray_after_bout(s, &res);
    ck_assert_int_eq(s[0].skill, 11);
    ck_assert_int_eq(s[1].skill, 11);
    res.winner = -1;
    res.method = METHOD_DRAW;
    sugarray_after_bout(s, &res);
    ck_assert_int_eq(s[0].skill, 11);
    ck_assert_int_eq(s[0].endurance, 25);
}
END_TEST

START_TEST(test_training)
{
    struct sugarray_sheet s = {10, 20};
    struct rng r;
    int hist[6] = {0};

    rng_seed(&r, 9, 0);
    ck_assert_int_eq(sugarray_train(&s, TRAIN_SKILL, &r), 1);
    ck_assert_int_eq(s.skill, 11);
    for (int i = 0; i < 50000; i++) {
        int before = s.endurance;
        int g = sugarray_train(&s, TRAIN_ENDURANCE, &r);
        ck_assert(g >= 1 && g <= 5);
        ck_assert_int_eq(s.endurance, before + g);
        hist[g]++;
        s.endurance = 20;
    }
    for (int g = 1; g <= 5; g++)
        ck_assert_double_eq_tol(hist[g] / 50000.0, 0.2, 0.01);
}
END_TEST

START_TEST(test_bad_orders_refused)
{
    struct sheet s[SIDES];
    struct order o[SIDES];
    struct bout b;
    struct bout_rng br;
    struct events ev;

    sheets(s, 10, 20, 10, 20);
    ck_assert_int_eq(bout_init(&b, RULES_SUGARRAY, s, 0), 0);
    bout_rng_seed(&br, 1);
    orders(o, 100, 0, 1, 1);
    ck_assert_int_eq(bout_round(&b, o, &br, &ev), -1);
    orders(o, -1, 0, 1, 1);
    ck_assert_int_eq(bout_round(&b, o, &br, &ev), -1);
    ck_assert_int_eq(b.round, 0);
    sheets(s, 0, 20, 10, 20);
    ck_assert_int_eq(bout_init(&b, RULES_SUGARRAY, s, 0), -1);
    sheets(s, 10, 20, 10, 20);
    ck_assert_int_eq(bout_init(&b, RULES_SUGARRAY, s, 6), -1);
}
END_TEST

START_TEST(test_towel_is_forfeit)
{
    struct sheet s[SIDES];
    struct order o[SIDES];
    struct bout b;
    struct bout_rng br;
    struct events ev;

    sheets(s, 10, 20, 12, 21);
    ck_assert_int_eq(bout_init(&b, RULES_SUGARRAY, s, 0), 0);
    bout_rng_seed(&br, 1);
    orders(o, 3, 3, 3, 3);
    ck_assert_int_eq(bout_round(&b, o, &br, &ev), 0);
    o[1].u.sugarray.towel = 1;
    ck_assert_int_eq(bout_round(&b, o, &br, &ev), 0);
    ck_assert_int_eq(b.result.over, 1);
    ck_assert_int_eq(b.result.winner, 0);
    ck_assert_int_eq(b.result.method, METHOD_TKO);
    ck_assert_int_eq(b.result.reason, TKO_TOWEL);
    ck_assert_int_eq(b.result.round, 2);
    /* Nothing was fought in the towel round. */
    ck_assert_int_eq(b.u.sugarray.end_after[1][0], b.u.sugarray.end_after[0][0]);
    ck_assert_int_eq(b.u.sugarray.attack_total[0], 3);
}
END_TEST

Suite *sugarray_suite(void)
{
    Suite *s = suite_create("sugarray");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_fatigue_table);
    tcase_add_test(tc, test_example_match);
    tcase_add_test(tc, test_ko_by_blows_ends_bout);
    tcase_add_test(tc, test_ko_by_fatigue_skips_blows);
    tcase_add_test(tc, test_double_ko_is_tie);
    tcase_add_test(tc, test_equal_attack_is_tie);
    tcase_add_test(tc, test_after_bout_changes);
    tcase_add_test(tc, test_training);
    tcase_add_test(tc, test_bad_orders_refused);
    tcase_add_test(tc, test_towel_is_forfeit);
    suite_add_tcase(s, tc);
    return s;
}
