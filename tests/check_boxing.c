/* check_boxing.c - boxing: every worked example of seed 000, each rule of
 * docs/rules.md 1.4 on constructed rounds, and the random rules measured
 * over many draws with fixed seeds. */
#include <math.h>
#include <string.h>

#include "engine.h"
#include "tests.h"

#define EPS 1e-9

static struct boxing_order bo(int agg, int pow, int def, enum style st)
{
    struct boxing_order o = {.agg = agg, .pow = pow, .def = def, .style = st};
    return o;
}

static void ab_set(struct boxing_abilities *ab, double str, double spd, double agl)
{
    ab->str = str;
    ab->spd = spd;
    ab->agl = agl;
    ab->agg = 0;
    ab->rest = 0;
}

/* ---------------------------------------------------------- step 1 */

START_TEST(test_recovery_example)
{
    /* 120 at the start, 90 left: 30 lost, 4.5 back. */
    ck_assert_double_eq_tol(boxing_recovery(120, 90, 20), 94.5, EPS);
    /* Only 18 energy spent: 2 x 0.02 x 30 = 1.2 more. */
    ck_assert_double_eq_tol(boxing_recovery(120, 90, 18), 95.7, EPS);
    ck_assert_double_eq_tol(boxing_recovery(120, 120, 0), 120, EPS);
}
END_TEST

/* ---------------------------------------------------------- step 2 */

START_TEST(test_inside_example)
{
    struct boxing_abilities ab[2];
    struct boxing_order o[2] = {bo(5, 5, 10, STYLE_INSIDE), bo(5, 5, 10, STYLE_NONE)};

    ab_set(&ab[0], 15, 10, 10);
    ab_set(&ab[1], 11, 10, 10);
    boxing_styles(ab, o);
    ck_assert_double_eq_tol(ab[0].str, 18.5, EPS);
    ck_assert_double_eq_tol(ab[0].agl, 8.5, EPS);
    ck_assert_double_eq_tol(ab[1].str, 11, EPS);
}
END_TEST

START_TEST(test_clinch_example)
{
    struct boxing_abilities ab[2];
    struct boxing_order o[2] = {bo(5, 5, 10, STYLE_CLINCH), bo(5, 5, 10, STYLE_NONE)};

    ab_set(&ab[0], 12, 10, 13);
    ab_set(&ab[1], 10, 10, 10);
    boxing_styles(ab, o);
    ck_assert_double_eq_tol(ab[0].agl, 14, EPS); /* a net +1 AGL */
    ck_assert_int_eq(ab[0].agg, 4);              /* AGG -1 ... */
    ck_assert_int_eq(ab[0].rest, 1);             /* ... used for rest */
}
END_TEST

START_TEST(test_feint_example)
{
    struct boxing_abilities ab[2];
    struct boxing_order o[2] = {bo(5, 5, 10, STYLE_FEINT), bo(5, 5, 10, STYLE_NONE)};

    ab_set(&ab[0], 10, 12, 10);
    ab_set(&ab[1], 10, 10, 10);
    boxing_styles(ab, o);
    ck_assert_double_eq_tol(ab[0].spd, 14.5, EPS);
    ck_assert_int_eq(ab[0].agg, 4);
    ck_assert_int_eq(ab[0].rest, 0); /* feinting still fatigues */
}
END_TEST

START_TEST(test_counter_example)
{
    struct boxing_abilities ab[2];
    struct boxing_order o[2] = {bo(5, 5, 10, STYLE_COUNTER), bo(5, 5, 10, STYLE_NONE)};

    /* A: SPD 13 AGL 10 counter-punches B: SPD 10 AGL 11. */
    ab_set(&ab[0], 10, 13, 10);
    ab_set(&ab[1], 10, 10, 11);
    boxing_styles(ab, o);
    ck_assert_double_eq_tol(ab[0].agl, 10.75, EPS);
    ck_assert_double_eq_tol(ab[1].agl, 10.25, EPS);

    /* B counter-punches A instead: backfires, AGL 11 - 1.5. */
    struct boxing_order o2[2] = {bo(5, 5, 10, STYLE_NONE), bo(5, 5, 10, STYLE_COUNTER)};
    ab_set(&ab[0], 10, 13, 10);
    ab_set(&ab[1], 10, 10, 11);
    boxing_styles(ab, o2);
    ck_assert_double_eq_tol(ab[1].agl, 9.5, EPS);
    ck_assert_double_eq_tol(ab[0].agl, 10, EPS);
}
END_TEST

START_TEST(test_counter_cap_half_agl)
{
    struct boxing_abilities ab[2];
    struct boxing_order o[2] = {bo(5, 5, 10, STYLE_COUNTER), bo(5, 5, 10, STYLE_NONE)};

    /* SPD advantage 20: a quarter is 5, but at most half of AGL 4. */
    ab_set(&ab[0], 10, 24, 10);
    ab_set(&ab[1], 10, 4, 4);
    boxing_styles(ab, o);
    ck_assert_double_eq_tol(ab[0].agl, 15, EPS);
    ck_assert_double_eq_tol(ab[1].agl, 2, EPS);
}
END_TEST

START_TEST(test_counter_agg_example)
{
    struct boxing_abilities ab[2];
    struct boxing_order o[2] = {bo(6, 5, 9, STYLE_COUNTER), bo(5, 5, 10, STYLE_NONE)};

    ab_set(&ab[0], 10, 10, 10);
    ab_set(&ab[1], 10, 10, 10);
    boxing_styles(ab, o);
    ck_assert_int_eq(ab[0].agg, 4);
    ck_assert_int_eq(ab[0].rest, 2);
    ck_assert_int_eq(ab[1].agg, 5);
}
END_TEST

START_TEST(test_counter_after_clinch_and_both_counter)
{
    struct boxing_abilities ab[2];
    struct boxing_order o[2] = {bo(6, 5, 9, STYLE_COUNTER), bo(5, 5, 10, STYLE_CLINCH)};

    /* The clincher drops to 4 first; the counter-puncher goes below it. */
    ab_set(&ab[0], 10, 10, 10);
    ab_set(&ab[1], 10, 10, 10);
    boxing_styles(ab, o);
    ck_assert_int_eq(ab[1].agg, 4);
    ck_assert_int_eq(ab[0].agg, 3);
    ck_assert_int_eq(ab[0].rest, 3);

    struct boxing_order both[2] = {bo(6, 5, 9, STYLE_COUNTER), bo(2, 5, 10, STYLE_COUNTER)};
    ab_set(&ab[0], 10, 10, 10);
    ab_set(&ab[1], 10, 10, 10);
    boxing_styles(ab, both);
    ck_assert_int_eq(ab[0].agg, 5);
    ck_assert_int_eq(ab[1].agg, 1);
    ck_assert_int_eq(ab[0].rest, 1);

    /* Never below 1. */
    struct boxing_order low[2] = {bo(3, 5, 9, STYLE_COUNTER), bo(1, 5, 10, STYLE_NONE)};
    ab_set(&ab[0], 10, 10, 10);
    ab_set(&ab[1], 10, 10, 10);
    boxing_styles(ab, low);
    ck_assert_int_eq(ab[0].agg, 1);
    ck_assert_int_eq(ab[0].rest, 2);
}
END_TEST

START_TEST(test_ring_cut_outside)
{
    struct boxing_abilities ab[2];
    struct boxing_order o[2] = {bo(5, 5, 10, STYLE_RING), bo(5, 5, 10, STYLE_NONE)};

    ab_set(&ab[0], 10, 10, 14);
    ab_set(&ab[1], 10, 10, 10);
    boxing_styles(ab, o);
    ck_assert_double_eq_tol(ab[0].agl, 14 + 1.5 + 2, EPS);
    ck_assert_double_eq_tol(ab[0].str, 8.5, EPS);

    /* Cutting off the ring: the difference, at most 10 % of his AGL. */
    struct boxing_order c[2] = {bo(5, 5, 10, STYLE_CUT), bo(5, 5, 10, STYLE_NONE)};
    ab_set(&ab[0], 10, 10, 14);
    ab_set(&ab[1], 10, 10, 10);
    boxing_styles(ab, c);
    ck_assert_double_eq_tol(ab[1].agl, 9, EPS);
    ab_set(&ab[0], 10, 10, 10.5);
    ab_set(&ab[1], 10, 10, 10);
    boxing_styles(ab, c);
    ck_assert_double_eq_tol(ab[1].agl, 9.5, EPS);

    struct boxing_order out[2] = {bo(5, 5, 10, STYLE_OUTSIDE), bo(5, 5, 10, STYLE_NONE)};
    ab_set(&ab[0], 20, 10, 10);
    ab_set(&ab[1], 10, 10, 10);
    boxing_styles(ab, out);
    ck_assert_double_eq_tol(ab[0].str, 17, EPS);
}
END_TEST

START_TEST(test_styles_simultaneous)
{
    struct boxing_abilities ab[2];
    /* A inside (AGL 10 -> 8.5), B uses the ring: B's AGL advantage is taken
     * against A's AGL before A's loss. */
    struct boxing_order o[2] = {bo(5, 5, 10, STYLE_INSIDE), bo(5, 5, 10, STYLE_RING)};

    ab_set(&ab[0], 12, 10, 10);
    ab_set(&ab[1], 10, 10, 11);
    boxing_styles(ab, o);
    ck_assert_double_eq_tol(ab[1].agl, 11 + 1.5 + 0.5, EPS);
    ck_assert_double_eq_tol(ab[0].agl, 8.5, EPS);
    ck_assert_double_eq_tol(ab[0].str, 12 + 1.5 + 1, EPS);
}
END_TEST

START_TEST(test_styles_floor_one)
{
    struct boxing_abilities ab[2];
    struct boxing_order o[2] = {bo(5, 5, 10, STYLE_COUNTER), bo(5, 5, 10, STYLE_NONE)};

    /* Backfiring counter: SPD 1 against 25 would cost 12 AGL. */
    ab_set(&ab[0], 1, 1, 2);
    ab_set(&ab[1], 25, 25, 25);
    boxing_styles(ab, o);
    ck_assert_double_eq_tol(ab[0].agl, 1, EPS);
}
END_TEST

/* ---------------------------------------------------------- step 3 */

static void height_case(int h0, int h1, enum style s0, enum style s1, double spd0, double agl0)
{
    struct boxing_abilities ab[2];
    struct boxing_sheet sh[2] = {{10, 10, 10, 10, h0}, {10, 10, 10, 10, h1}};
    struct boxing_order o[2] = {bo(5, 5, 10, s0), bo(5, 5, 10, s1)};

    ab_set(&ab[0], 10, 10, 10);
    ab_set(&ab[1], 10, 10, 10);
    boxing_height(ab, sh, o);
    ck_assert_double_eq_tol(ab[0].spd - 10, spd0, EPS);
    ck_assert_double_eq_tol(ab[0].agl - 10, agl0, EPS);
    ck_assert_double_eq_tol(ab[1].spd, 10, EPS);
    ck_assert_double_eq_tol(ab[1].agl, 10, EPS);
}

START_TEST(test_height_examples)
{
    height_case(13, 10, STYLE_NONE, STYLE_NONE, 1.5, 1.5);
    /* HGT 12 against 8: 2, outside 3, inside or clinching 1 ... */
    height_case(12, 8, STYLE_NONE, STYLE_NONE, 2, 2);
    height_case(12, 8, STYLE_OUTSIDE, STYLE_NONE, 3, 3);
    height_case(12, 8, STYLE_INSIDE, STYLE_NONE, 1, 1);
    height_case(12, 8, STYLE_CLINCH, STYLE_NONE, 1, 1);
    /* ... and against an all-out opponent 4, 6 or 2 SPD and no AGL. */
    height_case(12, 8, STYLE_NONE, STYLE_ALLOUT, 4, 0);
    height_case(12, 8, STYLE_OUTSIDE, STYLE_ALLOUT, 6, 0);
    height_case(12, 8, STYLE_INSIDE, STYLE_ALLOUT, 2, 0);
    height_case(10, 10, STYLE_NONE, STYLE_NONE, 0, 0);
}
END_TEST

/* ---------------------------------------------------------- step 4 */

START_TEST(test_endurance_scaling)
{
    struct boxing_abilities ab;

    ab_set(&ab, 15, 10, 12.5);
    boxing_scale(&ab, 80, 100);
    ck_assert_double_eq_tol(ab.str, 12, EPS);
    ck_assert_double_eq_tol(ab.spd, 8, EPS);
    ck_assert_double_eq_tol(ab.agl, 10, EPS);
    ab_set(&ab, 2, 2, 2);
    boxing_scale(&ab, 10, 100);
    ck_assert_double_eq_tol(ab.str, 1, EPS); /* never below 1 */
}
END_TEST

/* ------------------------------------------------------ steps 5-10 */

START_TEST(test_clinch_penalty_chance)
{
    struct boxing_order o = bo(2, 2, 10, STYLE_CLINCH);

    ck_assert_double_eq_tol(boxing_clinch_penalty_chance(&o), 0.25, EPS);
    o.def = 9;
    ck_assert_double_eq_tol(boxing_clinch_penalty_chance(&o), 0, EPS);
    o.def = 16;
    ck_assert_double_eq_tol(boxing_clinch_penalty_chance(&o), 0.64, EPS);
    o.def = 20;
    ck_assert_double_eq_tol(boxing_clinch_penalty_chance(&o), 1, EPS);
    o.style = STYLE_NONE;
    ck_assert_double_eq_tol(boxing_clinch_penalty_chance(&o), 0, EPS);
}
END_TEST

START_TEST(test_def_rate_landed_damage)
{
    ck_assert_double_eq_tol(boxing_def_rate(10, 12), 120, EPS);
    ck_assert_double_eq_tol(boxing_def_rate(1, 0.5), 1, EPS);
    /* 8 x 5 x 12 / sqrt(3 x 120) = 480 / sqrt(360). */
    ck_assert_double_eq_tol(boxing_expected_landed(5, 12, 120, TARGET_OPPORTUNISTIC),
                            480 / sqrt(360), EPS);
    ck_assert_double_eq_tol(boxing_expected_landed(5, 12, 120, TARGET_HEAD), 0.85 * 480 / sqrt(360),
                            EPS);
    ck_assert_double_eq_tol(boxing_expected_landed(5, 12, 120, TARGET_BODY), 0.85 * 480 / sqrt(360),
                            EPS);
    /* 5 x 12 x sqrt(5 x 12) / 120 */
    ck_assert_double_eq_tol(boxing_base_damage(5, 12, 5, 12, 120), 60 * sqrt(60) / 120, EPS);
}
END_TEST

START_TEST(test_damage_multipliers)
{
    struct boxing_order me = bo(5, 5, 10, STYLE_NONE), op = bo(5, 5, 10, STYLE_NONE);
    double kd, m;

    /* Body blows and fighting dirty, applied successively: 1.15 x 1.1.
     * The seed calls the total 1.215, an arithmetic slip for 1.265
     * (docs/rules-notes.md). */
    me.target = TARGET_BODY;
    me.dirty = 1;
    boxing_damage_multipliers(&me, &op, 0, &kd, &m);
    ck_assert_double_eq_tol(m, 1.265, EPS);
    ck_assert_double_eq_tol(kd, 1.1, EPS);
    /* Warned this round: only 5 %. */
    boxing_damage_multipliers(&me, &op, 1, &kd, &m);
    ck_assert_double_eq_tol(m, 1.15 * 1.05, EPS);
    me.target = TARGET_HEAD;
    me.dirty = 0;
    boxing_damage_multipliers(&me, &op, 0, &kd, &m);
    ck_assert_double_eq_tol(m, 0.85, EPS);
    ck_assert_double_eq_tol(kd, 1, EPS);
    /* All-out: deals x2, receives x4; both all out, both apply. */
    me.target = TARGET_OPPORTUNISTIC;
    me.style = STYLE_ALLOUT;
    boxing_damage_multipliers(&me, &op, 0, &kd, &m);
    ck_assert_double_eq_tol(m, 2, EPS);
    boxing_damage_multipliers(&op, &me, 0, &kd, &m);
    ck_assert_double_eq_tol(m, 4, EPS);
    op.style = STYLE_ALLOUT;
    boxing_damage_multipliers(&me, &op, 0, &kd, &m);
    ck_assert_double_eq_tol(m, 8, EPS);
}
END_TEST

START_TEST(test_injury_chance_example)
{
    ck_assert_double_eq_tol(boxing_injury_chance(12, TARGET_OPPORTUNISTIC), 0.144, EPS);
    ck_assert_double_eq_tol(boxing_injury_chance(12, TARGET_HEAD), 0.216, EPS);
    ck_assert_double_eq_tol(boxing_injury_chance(12, TARGET_BODY), 0.072, EPS);
    ck_assert_double_eq_tol(boxing_injury_chance(40, TARGET_OPPORTUNISTIC), 1, EPS);
    ck_assert_double_eq_tol(boxing_injury_chance(0, TARGET_HEAD), 0, EPS);
}
END_TEST

static void kd_case(double dmg, enum target t, int want_kd, int want_ko)
{
    int kd, ko;

    boxing_knockdowns(dmg, 100, t, &kd, &ko);
    ck_assert_int_eq(kd, want_kd);
    ck_assert_int_eq(ko, want_ko);
}

START_TEST(test_knockdown_thresholds)
{
    kd_case(14.99, TARGET_OPPORTUNISTIC, 0, 0);
    kd_case(15, TARGET_OPPORTUNISTIC, 1, 0);
    kd_case(20, TARGET_OPPORTUNISTIC, 2, 0);
    kd_case(24.99, TARGET_OPPORTUNISTIC, 2, 0);
    kd_case(25, TARGET_OPPORTUNISTIC, 0, 1);
    kd_case(9.99, TARGET_HEAD, 0, 0);
    kd_case(10, TARGET_HEAD, 1, 0);
    kd_case(12.5, TARGET_HEAD, 2, 0);
    kd_case(15, TARGET_HEAD, 0, 1);
    kd_case(24.99, TARGET_BODY, 0, 0);
    kd_case(25, TARGET_BODY, 1, 0);
    kd_case(30, TARGET_BODY, 2, 0);
    kd_case(35, TARGET_BODY, 0, 1);
}
END_TEST

START_TEST(test_knockdown_and_ko_example)
{
    /* 25 damage at 100 endurance from head punches: 15 knock him out, the
     * other 10 are a knockdown as well. */
    kd_case(25, TARGET_HEAD, 1, 1);
    kd_case(27.5, TARGET_HEAD, 2, 1);
    kd_case(24.9, TARGET_HEAD, 0, 1);
    /* Against 120 endurance (TGH 12) the thresholds scale. */
    int kd, ko;
    boxing_knockdowns(17.9, 120, TARGET_OPPORTUNISTIC, &kd, &ko);
    ck_assert_int_eq(kd, 0);
    boxing_knockdowns(18, 120, TARGET_OPPORTUNISTIC, &kd, &ko);
    ck_assert_int_eq(kd, 1);
}
END_TEST

START_TEST(test_dq_ladder_values)
{
    ck_assert_double_eq_tol(boxing_dq_chance(1), 0.1, EPS);
    ck_assert_double_eq_tol(boxing_dq_chance(2), 0.2, EPS);
    ck_assert_double_eq_tol(boxing_dq_chance(3), 0.4, EPS);
    ck_assert_double_eq_tol(boxing_dq_chance(4), 0.8, EPS);
    ck_assert_double_eq_tol(boxing_dq_chance(5), 1.0, EPS);
    ck_assert_double_eq_tol(boxing_dq_chance(9), 1.0, EPS);
}
END_TEST

/* ------------------------------------------- whole rounds, constructed */

static struct bout bt;
static struct bout_rng brng;
static struct events evs;

static void start(struct boxing_sheet a, struct boxing_sheet b, int rounds, uint64_t seed)
{
    struct sheet s[2] = {{.rules = RULES_BOXING}, {.rules = RULES_BOXING}};

    s[0].u.boxing = a;
    s[1].u.boxing = b;
    ck_assert_int_eq(bout_init(&bt, RULES_BOXING, s, rounds), 0);
    bout_rng_seed(&brng, seed);
}

static int fight(struct boxing_order a, struct boxing_order b)
{
    struct order o[2] = {{.rules = RULES_BOXING}, {.rules = RULES_BOXING}};

    o[0].u.boxing = a;
    o[1].u.boxing = b;
    return bout_round(&bt, o, &brng, &evs);
}

static int count_events(enum event_type t, int side)
{
    int n = 0;

    for (int i = 0; i < evs.n; i++)
        n += evs.ev[i].type == t && (side < 0 || evs.ev[i].side == side);
    return n;
}

static const struct boxing_sheet even = {12, 12, 12, 12, 12};

START_TEST(test_round_figures_follow_formulas)
{
    start(even, (struct boxing_sheet){14, 10, 11, 10, 9}, 12, 3);
    ck_assert_int_eq(fight(bo(5, 5, 10, STYLE_NONE), bo(4, 6, 10, STYLE_NONE)), 0);
    const struct boxing_side_round *a = &bt.u.boxing.last[0], *b = &bt.u.boxing.last[1];
    /* Height 12 vs 9: A gets 1.5 SPD and AGL; full endurance. */
    ck_assert_double_eq_tol(a->spd, 13.5, EPS);
    ck_assert_double_eq_tol(a->agl, 13.5, EPS);
    ck_assert_double_eq_tol(b->str, 14, EPS);
    ck_assert_double_eq_tol(a->def_rate, 135, EPS);
    ck_assert_double_eq_tol(b->def_rate, 110, EPS);
    ck_assert_int_eq(a->thrown, 40);
    double exp_a = boxing_expected_landed(5, 13.5, 110, TARGET_OPPORTUNISTIC);
    ck_assert(a->landed >= 0.9 * exp_a - EPS && a->landed <= 1.1 * exp_a + EPS);
    double dmg_b = boxing_base_damage(6, 14, 4, 10, 135);
    ck_assert(b->damage >= 0.9 * dmg_b - EPS && b->damage <= 1.1 * dmg_b + EPS);
    /* Endurance: start - damage received - injuries - fatigue (AGG). */
    ck_assert_double_eq_tol(a->endurance, 120 - b->damage - a->injury_damage - 5, 1e-9);
    ck_assert_double_eq_tol(b->endurance, 100 - a->damage - b->injury_damage - 4, 1e-9);
    for (int j = 0; j < JUDGES; j++)
        ck_assert(fabs(a->counts[j] - a->landed) <= 0.05 * a->landed + 0.5 + EPS);
}
END_TEST

START_TEST(test_recovery_between_rounds)
{
    start(even, even, 12, 11);
    ck_assert_int_eq(fight(bo(5, 5, 8, STYLE_NONE), bo(5, 5, 10, STYLE_NONE)), 0);
    double e0 = bt.u.boxing.last[0].endurance;
    ck_assert_int_eq(fight(bo(5, 5, 10, STYLE_NONE), bo(5, 5, 10, STYLE_NONE)), 0);
    /* 18 points spent in round 1: 15 % + 2 x 2 %. */
    ck_assert_double_eq_tol(bt.u.boxing.last[0].end_begin, e0 + 0.19 * (120 - e0), 1e-9);
}
END_TEST

START_TEST(test_clinch_rest_and_fatigue)
{
    start(even, even, 12, 5);
    ck_assert_int_eq(fight(bo(6, 4, 9, STYLE_CLINCH), bo(5, 5, 10, STYLE_NONE)), 0);
    const struct boxing_side_round *a = &bt.u.boxing.last[0];
    ck_assert_int_eq(a->agg, 5);
    ck_assert_int_eq(a->rest, 1);
    ck_assert_double_eq_tol(a->fatigue, 5, EPS);
    ck_assert_int_eq(bt.u.boxing.f[0].energy_used, 18);

    start(even, even, 12, 5);
    ck_assert_int_eq(fight(bo(6, 4, 9, STYLE_FEINT), bo(5, 5, 10, STYLE_NONE)), 0);
    ck_assert_int_eq(bt.u.boxing.last[0].agg, 5);
    ck_assert_double_eq_tol(bt.u.boxing.last[0].fatigue, 6, EPS);
    ck_assert_int_eq(bt.u.boxing.f[0].energy_used, 19);

    start(even, even, 12, 5);
    ck_assert_int_eq(fight(bo(8, 4, 8, STYLE_CUT), bo(5, 5, 10, STYLE_NONE)), 0);
    ck_assert_double_eq_tol(bt.u.boxing.last[0].fatigue, 8 + 0.25 * 8, EPS);
}
END_TEST

START_TEST(test_allout_scales_damage_exactly)
{
    /* Equal heights, no dirt: all-out changes no ability and no draw. */
    start(even, even, 12, 21);
    ck_assert_int_eq(fight(bo(4, 6, 10, STYLE_NONE), bo(4, 6, 10, STYLE_NONE)), 0);
    double d0 = bt.u.boxing.last[0].damage, d1 = bt.u.boxing.last[1].damage;
    start(even, even, 12, 21);
    ck_assert_int_eq(fight(bo(4, 6, 10, STYLE_ALLOUT), bo(4, 6, 10, STYLE_NONE)), 0);
    ck_assert_double_eq_tol(bt.u.boxing.last[0].damage, 2 * d0, 1e-9);
    ck_assert_double_eq_tol(bt.u.boxing.last[1].damage, 4 * d1, 1e-9);
}
END_TEST

START_TEST(test_head_body_scale_damage_not_kd)
{
    start(even, even, 12, 8);
    ck_assert_int_eq(fight(bo(4, 6, 10, STYLE_NONE), bo(4, 6, 10, STYLE_NONE)), 0);
    double d = bt.u.boxing.last[0].damage, l = bt.u.boxing.last[0].landed;
    struct boxing_order h = bo(4, 6, 10, STYLE_NONE);
    h.target = TARGET_HEAD;
    start(even, even, 12, 8);
    ck_assert_int_eq(fight(h, bo(4, 6, 10, STYLE_NONE)), 0);
    ck_assert_double_eq_tol(bt.u.boxing.last[0].damage, 0.85 * d, 1e-9);
    ck_assert_double_eq_tol(bt.u.boxing.last[0].kd_damage, d, 1e-9);
    ck_assert_double_eq_tol(bt.u.boxing.last[0].landed, 0.85 * l, 1e-9);
    h.target = TARGET_BODY;
    start(even, even, 12, 8);
    ck_assert_int_eq(fight(h, bo(4, 6, 10, STYLE_NONE)), 0);
    ck_assert_double_eq_tol(bt.u.boxing.last[0].damage, 1.15 * d, 1e-9);
    ck_assert_double_eq_tol(bt.u.boxing.last[0].landed, 0.85 * l, 1e-9);
}
END_TEST

START_TEST(test_injury_penalties_next_round)
{
    struct boxing_fighter f;
    struct boxing_abilities ab;

    memset(&f, 0, sizeof(f));
    f.sheet = (struct boxing_sheet){12, 12, 12, 12, 12};
    f.inj[INJ_ABOVE_LEFT_EYE].level = 3;  /* serious cut: 1.5 SPD, 0.5 AGL */
    f.inj[INJ_BELOW_RIGHT_EYE].level = 4; /* below the eye: no vision loss */
    f.inj[INJ_SWELL_RIGHT_EYE].level = 2; /* 1 SPD, 1 AGL */
    boxing_injury_penalties(&f, &ab);
    ck_assert_double_eq_tol(ab.spd, 12 - 1.5 - 1, EPS);
    ck_assert_double_eq_tol(ab.agl, 12 - 0.5 - 1, EPS);
    f.inj[INJ_ABOVE_LEFT_EYE].level = 4; /* gash: 2 SPD, 1 AGL */
    f.inj[INJ_SWELL_RIGHT_EYE].level = 3;
    f.inj[INJ_SWELL_LEFT_EYE].level = 3; /* shut: 2 and 2 each */
    boxing_injury_penalties(&f, &ab);
    ck_assert_double_eq_tol(ab.spd, 12 - 2 - 4, EPS);
    ck_assert_double_eq_tol(ab.agl, 12 - 1 - 4, EPS);
    f.sheet.spd = 3;
    boxing_injury_penalties(&f, &ab);
    ck_assert_double_eq_tol(ab.spd, 1, EPS);
}
END_TEST

START_TEST(test_ko_ends_bout)
{
    /* A huge puncher with no defence in front of him: KO in round 1. */
    start((struct boxing_sheet){25, 25, 20, 20, 10}, (struct boxing_sheet){5, 5, 5, 5, 10}, 12, 1);
    ck_assert_int_eq(fight(bo(10, 9, 1, STYLE_NONE), bo(1, 1, 1, STYLE_NONE)), 0);
    ck_assert_int_eq(bt.result.over, 1);
    ck_assert_int_eq(bt.result.winner, 0);
    ck_assert_int_eq(bt.result.method, METHOD_KO);
    ck_assert_int_eq(bt.result.round, 1);
    ck_assert_int_eq(count_events(EV_KO, 1), 1);
    ck_assert_int_eq(count_events(EV_RESULT, -1), 1);
    ck_assert_int_eq(fight(bo(5, 5, 10, STYLE_NONE), bo(5, 5, 10, STYLE_NONE)), -1);
}
END_TEST

START_TEST(test_towel)
{
    struct boxing_order t = bo(5, 5, 10, STYLE_NONE);

    t.towel = 1;
    start(even, even, 12, 1);
    ck_assert_int_eq(fight(bo(5, 5, 10, STYLE_NONE), t), 0);
    ck_assert_int_eq(bt.result.winner, 0);
    ck_assert_int_eq(bt.result.method, METHOD_TKO);
    ck_assert_int_eq(bt.result.reason, TKO_TOWEL);
}
END_TEST

START_TEST(test_decision_and_cards)
{
    /* Even fighters, A throws much more: A wins the rounds. */
    start(even, even, 3, 17);
    for (int r = 0; r < 3; r++)
        ck_assert_int_eq(fight(bo(8, 2, 10, STYLE_NONE), bo(2, 2, 16, STYLE_NONE)), 0);
    ck_assert_int_eq(bt.result.over, 1);
    ck_assert_int_eq(bt.result.winner, 0);
    ck_assert_int_eq(bt.result.method, METHOD_DECISION);
    ck_assert_int_eq(bt.result.decision, DECISION_UNANIMOUS);
    for (int j = 0; j < JUDGES; j++) {
        ck_assert_int_eq(bt.result.cards[j][0], 30 - bt.u.boxing.f[0].warnings);
        ck_assert_int_lt(bt.result.cards[j][1], bt.result.cards[j][0]);
    }
    ck_assert_int_eq(bt.u.boxing.f[0].rounds_won, 3);
    ck_assert_int_eq(boxing_training_points(&bt.result, 0), 1);
    ck_assert_int_eq(boxing_training_points(&bt.result, 1), 0);
}
END_TEST

START_TEST(test_identical_fighters_draw_possible)
{
    /* Mirror orders: the cards differ only by the random counts; over many
     * seeds every decision kind and draws occur, and they match the cards. */
    int kinds[4] = {0}, draws = 0;

    for (uint64_t seed = 1; seed <= 400; seed++) {
        start(even, even, 3, seed);
        for (int r = 0; r < 3; r++)
            REQUIRE(fight(bo(5, 5, 10, STYLE_NONE), bo(5, 5, 10, STYLE_NONE)) == 0);
        int w0 = 0, w1 = 0;
        for (int j = 0; j < JUDGES; j++) {
            w0 += bt.result.cards[j][0] > bt.result.cards[j][1];
            w1 += bt.result.cards[j][1] > bt.result.cards[j][0];
        }
        if (bt.result.method == METHOD_DRAW) {
            draws++;
            REQUIRE(w0 < 2 && w1 < 2);
            continue;
        }
        /* 5/5/10 between equals cannot stop a bout, nor disqualify. */
        REQUIRE(bt.result.method == METHOD_DECISION);
        int w = bt.result.winner == 0 ? w0 : w1, l = bt.result.winner == 0 ? w1 : w0;
        REQUIRE(w >= 2);
        ck_assert_int_eq(bt.result.decision, w == 3   ? DECISION_UNANIMOUS
                                             : l == 1 ? DECISION_SPLIT
                                                      : DECISION_MAJORITY);
        kinds[bt.result.decision]++;
    }
    ck_assert_int_gt(draws, 0);
    ck_assert_int_gt(kinds[DECISION_UNANIMOUS], 0);
    ck_assert_int_gt(kinds[DECISION_SPLIT], 0);
    ck_assert_int_gt(kinds[DECISION_MAJORITY], 0);
}
END_TEST

START_TEST(test_knockdown_costs_point)
{
    int seen = 0;

    for (uint64_t seed = 1; seed <= 3000 && seen < 20; seed++) {
        start((struct boxing_sheet){20, 18, 12, 12, 12}, (struct boxing_sheet){8, 8, 8, 8, 12}, 12,
              seed);
        REQUIRE(fight(bo(4, 4, 12, STYLE_NONE), bo(3, 3, 6, STYLE_NONE)) == 0);
        const struct boxing_side_round *l = bt.u.boxing.last;
        if (l[1].knockdowns == 0 || l[1].ko)
            continue;
        seen++;
        for (int j = 0; j < JUDGES; j++) {
            int base = l[1].counts[j] >= l[0].counts[j] ? 10 : 9;
            REQUIRE(l[1].cards[j] == base - l[1].knockdowns - l[1].warned - l[1].fouled);
        }
    }
    ck_assert_int_gt(seen, 0);
}
END_TEST

START_TEST(test_clinch_penalty_scoring)
{
    /* DEF 18 clinching: penalised 81 % of the time. */
    int checked = 0, penalised = 0;
    const int n = 4000;

    for (uint64_t seed = 1; seed <= (uint64_t)n; seed++) {
        start(even, even, 12, seed);
        REQUIRE(fight(bo(5, 5, 10, STYLE_NONE), bo(1, 1, 18, STYLE_CLINCH)) == 0);
        const struct boxing_side_round *l = bt.u.boxing.last;
        REQUIRE(l[0].clinch_penalty == 0);
        if (!l[1].clinch_penalty)
            continue;
        penalised++;
        if (l[0].warned || l[0].fouled || l[1].warned || l[1].fouled || l[0].knockdowns ||
            l[1].knockdowns)
            continue;
        for (int j = 0; j < JUDGES; j++) {
            int b = l[1].counts[j] > l[0].counts[j];
            int a = l[0].counts[j] > l[1].counts[j];
            /* Won it: opponent +1; lost or even: penalised -1. */
            REQUIRE(l[0].cards[j] == (a || !b ? 10 : 9) + b);
            REQUIRE(l[1].cards[j] == (b ? 10 : a ? 9 : 10) - !b);
        }
        checked++;
    }
    ck_assert_double_eq_tol(penalised / (double)n, 0.81, 0.02);
    ck_assert_int_gt(checked, n / 2);
}
END_TEST

START_TEST(test_dq_versus_ko_rules)
{
    /* A dirty fighter DQ'd in the round he knocks his man out: his KO is
     * void and he loses by DQ. One DQ'd in the round he is knocked out:
     * the (T)KO takes priority. */
    const struct boxing_sheet strong = {20, 20, 12, 10, 12}, weak = {5, 5, 5, 5, 12};
    struct boxing_order hard = bo(9, 9, 2, STYLE_NONE), soft = bo(1, 1, 18, STYLE_NONE);
    int void_ko = 0, ko_priority = 0;

    for (uint64_t seed = 1; seed <= 5000 && (void_ko < 5 || ko_priority < 5); seed++) {
        hard.dirty = 1;
        soft.dirty = 0;
        start(strong, weak, 12, seed);
        REQUIRE(fight(hard, soft) == 0);
        if (count_events(EV_DQ, 0)) {
            REQUIRE(bt.u.boxing.last[1].ko == 1);
            REQUIRE(bt.result.winner == 1);
            REQUIRE(bt.result.method == METHOD_DQ);
            void_ko++;
        }
        hard.dirty = 0;
        soft.dirty = 1;
        start(weak, strong, 12, seed);
        REQUIRE(fight(soft, hard) == 0);
        if (count_events(EV_DQ, 0)) {
            REQUIRE(bt.u.boxing.last[0].ko == 1);
            REQUIRE(bt.result.winner == 1);
            REQUIRE(bt.result.method == METHOD_KO || bt.result.method == METHOD_TKO);
            ko_priority++;
        }
    }
    ck_assert_int_ge(void_ko, 5);
    ck_assert_int_ge(ko_priority, 5);
}
END_TEST

START_TEST(test_double_stoppage_ratio)
{
    /* Two sluggers with no defence: both KO'd in one round happens; the
     * one whose KO needed the smaller share of the damage done loses. */
    int both = 0;

    for (uint64_t seed = 1; seed <= 20000 && both < 30; seed++) {
        start((struct boxing_sheet){20, 20, 10, 10, 10}, (struct boxing_sheet){20, 20, 10, 10, 10},
              12, seed);
        REQUIRE(fight(bo(9, 10, 1, STYLE_NONE), bo(9, 10, 1, STYLE_NONE)) == 0);
        const struct boxing_side_round *l = bt.u.boxing.last;
        if (!l[0].ko || !l[1].ko)
            continue;
        both++;
        double t0 = 25 / l[1].kd_damage, t1 = 25 / l[0].kd_damage; /* 25 % of 100 */
        if (t0 == t1) {
            REQUIRE(bt.result.winner == -1);
        } else {
            REQUIRE(bt.result.winner == (t0 < t1 ? 1 : 0));
            REQUIRE(bt.result.method == METHOD_KO);
        }
    }
    ck_assert_int_gt(both, 0);
}
END_TEST

/* ---------------------------------------- random rules, many draws */

START_TEST(test_dirty_warning_rate)
{
    const int n = 20000;
    int warned = 0, dq = 0, fouls = 0;
    struct boxing_order dirty = bo(5, 5, 10, STYLE_NONE);

    dirty.dirty = 1;
    for (int i = 0; i < n; i++) {
        start(even, even, 12, 1000 + i);
        REQUIRE(fight(dirty, bo(5, 5, 10, STYLE_NONE)) == 0);
        warned += count_events(EV_WARNING, 0);
        dq += count_events(EV_DQ, 0);
        fouls += count_events(EV_FOUL, 1);
        ck_assert_int_eq(count_events(EV_FOUL, 0), 0); /* dirty: no "unintentional" */
        ck_assert_int_eq(count_events(EV_DQ, 1), 0);   /* fouls never disqualify */
    }
    ck_assert_double_eq_tol(warned / (double)n, 0.5, 0.015);
    /* The first warning disqualifies 10 % of the time. */
    ck_assert_double_eq_tol(dq / (double)warned, 0.10, 0.013);
    ck_assert_double_eq_tol(fouls / (double)n, 0.015, 0.0035);
}
END_TEST

START_TEST(test_dq_ladder_measured)
{
    static const double want[] = {0.1, 0.2, 0.4, 0.8, 1.0};
    struct boxing_order dirty = bo(5, 5, 10, STYLE_NONE);

    dirty.dirty = 1;
    for (int k = 0; k < 5; k++) {
        int warned = 0, dq = 0;
        for (int i = 0; i < 12000; i++) {
            start(even, even, 12, 77 + 100000 * k + i);
            bt.u.boxing.f[0].warnings = k; /* k warnings already */
            REQUIRE(fight(dirty, bo(5, 5, 10, STYLE_NONE)) == 0);
            if (!count_events(EV_WARNING, 0))
                continue;
            warned++;
            dq += count_events(EV_DQ, 0);
            REQUIRE(bt.u.boxing.f[0].warnings == k + 1);
            if (count_events(EV_DQ, 0) && !bt.u.boxing.last[1].ko && bt.u.boxing.f[1].endurance > 0)
                REQUIRE(bt.result.method == METHOD_DQ);
        }
        ck_assert_double_eq_tol(dq / (double)warned, want[k], 0.02);
    }
}
END_TEST

START_TEST(test_injury_location_weights)
{
    struct rng r;
    int hist[INJ_COUNT] = {0};
    const int n = 200000;

    rng_seed(&r, 123, 0);
    for (int i = 0; i < n; i++)
        hist[boxing_injury_location(&r)]++;
    for (int loc = 0; loc < INJ_COUNT; loc++) {
        double want = (loc == INJ_SWELL_RIGHT_EYE || loc == INJ_SWELL_LEFT_EYE) ? 0.2 : 0.1;
        ck_assert_double_eq_tol(hist[loc] / (double)n, want, 0.004);
    }
}
END_TEST

START_TEST(test_injury_level_distribution)
{
    struct rng r;
    int hist[5] = {0};
    const int n = 270000;

    rng_seed(&r, 321, 0);
    for (int i = 0; i < n; i++)
        hist[boxing_injury_level(&r)]++;
    ck_assert_int_eq(hist[0], 0);
    ck_assert_double_eq_tol(hist[1] / (double)n, 2.0 / 3, 0.004);
    ck_assert_double_eq_tol(hist[2] / (double)n, 2.0 / 9, 0.004);
    ck_assert_double_eq_tol(hist[3] / (double)n, 2.0 / 27, 0.003);
    ck_assert_double_eq_tol(hist[4] / (double)n, 1.0 / 27, 0.002);
}
END_TEST

START_TEST(test_promotion_tables)
{
    struct rng r;
    int from1[5] = {0}, from2[5] = {0}, from3[5] = {0};
    const int n = 180000;

    rng_seed(&r, 555, 0);
    for (int i = 0; i < n; i++) {
        from1[boxing_injury_promote(1, &r)]++;
        from2[boxing_injury_promote(2, &r)]++;
        from3[boxing_injury_promote(3, &r)]++;
        REQUIRE(boxing_injury_promote(4, &r) == 4);
    }
    /* Half are promoted; level 1 then goes to 2, 3, 4 as 2/3, 2/9, 1/9. */
    ck_assert_double_eq_tol(from1[1] / (double)n, 0.5, 0.006);
    ck_assert_double_eq_tol(from1[2] / (double)n, 0.5 * 2 / 3, 0.006);
    ck_assert_double_eq_tol(from1[3] / (double)n, 0.5 * 2 / 9, 0.004);
    ck_assert_double_eq_tol(from1[4] / (double)n, 0.5 / 9, 0.003);
    ck_assert_double_eq_tol(from2[2] / (double)n, 0.5, 0.006);
    ck_assert_double_eq_tol(from2[3] / (double)n, 0.5 * 2 / 3, 0.006);
    ck_assert_double_eq_tol(from2[4] / (double)n, 0.5 / 3, 0.005);
    ck_assert_double_eq_tol(from3[3] / (double)n, 0.5, 0.006);
    ck_assert_double_eq_tol(from3[4] / (double)n, 0.5, 0.006);
}
END_TEST

START_TEST(test_injuries_in_bouts)
{
    /* Over many rounds: injury events carry legal levels, swellings start
     * at 1 and grow one level, damage follows the location's rule. */
    int injuries = 0, swell_agg = 0;

    for (uint64_t seed = 1; seed <= 3000; seed++) {
        start((struct boxing_sheet){18, 16, 10, 14, 12}, (struct boxing_sheet){18, 16, 10, 14, 12},
              12, seed);
        while (!bt.result.over) {
            struct boxing_order h = bo(4, 6, 10, STYLE_NONE);
            h.target = TARGET_HEAD;
            REQUIRE(fight(h, h) == 0);
            for (int i = 0; i < evs.n; i++) {
                const struct event *e = &evs.ev[i];
                if (e->type == EV_INJURY) {
                    injuries++;
                    REQUIRE(e->b >= 1 && e->b <= 4);
                    if (e->a == INJ_SWELL_LEFT_EYE || e->a == INJ_SWELL_RIGHT_EYE)
                        REQUIRE(e->b == 1);
                    double want = e->a <= INJ_BELOW_LEFT_EYE ? e->b
                                  : e->a == INJ_NOSE         ? (e->b >= 2 ? e->b : 0)
                                  : e->a == INJ_JAW          ? (e->b == 4 ? 5 : 0)
                                                             : 0;
                    ck_assert_double_eq_tol(e->x, want, EPS);
                } else if (e->type == EV_AGGRAVATED) {
                    REQUIRE(e->b >= e->c);
                    if (e->a == INJ_SWELL_LEFT_EYE || e->a == INJ_SWELL_RIGHT_EYE) {
                        REQUIRE(e->b == (e->c < 3 ? e->c + 1 : 3));
                        swell_agg++;
                    }
                }
            }
        }
    }
    ck_assert_int_gt(injuries, 1000);
    ck_assert_int_gt(swell_agg, 10);
}
END_TEST

/* FNV-1a over bytes. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;

    for (size_t i = 0; i < n; i++) {
        h ^= c[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* The digest of one round: its events, every figure of both fighters and
 * of the round's record, each field on its own (never padding). */
static uint64_t round_digest(uint64_t h, const struct bout *b, const struct events *ev)
{
    for (int e = 0; e < ev->n; e++) {
        const struct event *x = &ev->ev[e];
        const int ints[5] = {(int)x->type, x->side, x->a, x->b, x->c};
        h = fnv(h, ints, sizeof(ints));
        h = fnv(h, &x->x, sizeof(x->x));
    }
    for (int i = 0; i < SIDES; i++) {
        const struct boxing_fighter *f = &b->u.boxing.f[i];
        const struct boxing_side_round *l = &b->u.boxing.last[i];
        const double d[] = {f->endurance, l->end_begin,     l->str,     l->spd,
                            l->agl,       l->def_rate,      l->landed,  l->damage,
                            l->kd_damage, l->injury_damage, l->fatigue, l->endurance};
        const int v[] = {f->energy_used, f->knockdowns, f->warnings,  f->rounds_won,
                         l->agg,         l->rest,       l->thrown,    l->knockdowns,
                         l->warned,      l->fouled,     l->dq,        l->clinch_penalty,
                         l->ko,          l->counts[0],  l->counts[1], l->counts[2],
                         l->cards[0],    l->cards[1],   l->cards[2]};
        h = fnv(h, d, sizeof(d));
        h = fnv(h, v, sizeof(v));
        for (int loc = 0; loc < INJ_COUNT; loc++) {
            h = fnv(h, &f->inj[loc].level, sizeof(int));
            h = fnv(h, &f->inj[loc].damage, sizeof(double));
            h = fnv(h, &f->inj[loc].round, sizeof(int));
        }
    }
    return h;
}

/* Any legal order, towels too: most end a bout in a few rounds. */
static void order_any(struct rng *g, struct boxing_order *bo)
{
    bo->agg = rng_range(g, 1, 12);
    bo->pow = rng_range(g, 1, 19 - bo->agg);
    bo->def = rng_range(g, 1, 20 - bo->agg - bo->pow);
    bo->target = (enum target)rng_range(g, 0, 2);
    bo->dirty = rng_chance(g, 0.15);
    bo->style = (enum style)rng_range(g, 0, STYLE_COUNT - 1);
    bo->towel = rng_chance(g, 0.005);
}

/* Orders as players write them (bench/bench.c's): AGG and POW 3-6, most of
 * the rest on DEF, all-out and dirty fighting rare; most bouts go the
 * distance, so later rounds (recovery, old injuries aggravated, cards
 * piling up) weigh as they do in play. */
static void order_played(struct rng *g, struct boxing_order *bo)
{
    bo->agg = rng_range(g, 3, 6);
    bo->pow = rng_range(g, 3, 6);
    int room = BOXING_ENERGY - bo->agg - bo->pow;
    bo->def = rng_range(g, room - 4 > 1 ? room - 4 : 1, room < 14 ? room : 14);
    bo->target = (enum target)rng_range(g, TARGET_OPPORTUNISTIC, TARGET_BODY);
    bo->dirty = rng_chance(g, 0.03);
    bo->style = (enum style)rng_range(g, STYLE_NONE, STYLE_OUTSIDE);
    if (rng_chance(g, 0.005))
        bo->style = STYLE_ALLOUT;
}

/* The digest of what `n` seeded boxing bouts did, sheets drawn from
 * `lo`..`hi` and the rounds' orders by `order`: every event and every
 * figure of every round, the results and the generators' states. */
static uint64_t boxing_digest(int n, int lo, int hi,
                              void (*order)(struct rng *g, struct boxing_order *bo))
{
    uint64_t h = 1469598103934665603ULL;

    for (int k = 0; k < n; k++) {
        struct rng g;
        struct sheet s[SIDES];
        struct bout b;
        struct bout_rng br;
        struct events ev;

        rng_seed(&g, (uint64_t)k, 4242);
        for (int i = 0; i < SIDES; i++) {
            memset(&s[i], 0, sizeof(s[i]));
            s[i].rules = RULES_BOXING;
            s[i].u.boxing = (struct boxing_sheet){rng_range(&g, lo, hi), rng_range(&g, lo, hi),
                                                  rng_range(&g, lo, hi), rng_range(&g, lo, hi),
                                                  rng_range(&g, lo, hi)};
        }
        if (bout_init(&b, RULES_BOXING, s, rng_range(&g, 3, 15)) != 0)
            return 0;
        bout_rng_seed(&br, (uint64_t)k);
        while (!b.result.over) {
            struct order o[SIDES];
            for (int i = 0; i < SIDES; i++) {
                memset(&o[i], 0, sizeof(o[i]));
                o[i].rules = RULES_BOXING;
                order(&g, &o[i].u.boxing);
            }
            if (bout_round(&b, o, &br, &ev) != 0)
                return 0;
            h = round_digest(h, &b, &ev);
        }
        const int r[] = {b.result.winner,      (int)b.result.method,   (int)b.result.drawn_by,
                         (int)b.result.reason, (int)b.result.decision, b.result.round};
        h = fnv(h, r, sizeof(r));
        h = fnv(h, &br, sizeof(br));
    }
    return h;
}

/* Every draw and every double of 20,000 seeded bouts with random sheets and
 * orders (towels too), pinned: the digest is the one the engine gave
 * before it kept figures between rounds (and before any later speed-up),
 * so a change that moves one draw or one bit of one figure fails here.
 * Boxing uses only IEEE arithmetic and sqrt, which every x86-64 or ARM64
 * build computes alike (no contraction into fused multiply-adds: C11 mode
 * compiles without it). */
START_TEST(test_bouts_digest)
{
    ck_assert_uint_eq(boxing_digest(20000, 1, 25, order_any), 0x4a571186ab6ab317ULL);
}
END_TEST

/* The same over 20,000 bouts fought as players fight them (order_played,
 * sheets 6-18 as the bench draws them): about 220,000 rounds, mostly
 * bouts that go the distance, pinned before the engine's third speed-up
 * (issue 28) and unchanged by it. */
START_TEST(test_played_bouts_digest)
{
    ck_assert_uint_eq(boxing_digest(20000, 6, 18, order_played), 0x431050f2a7049259ULL);
}
END_TEST

Suite *boxing_suite(void)
{
    Suite *s = suite_create("boxing");
    TCase *ex = tcase_create("worked examples");
    TCase *rd = tcase_create("rounds");
    TCase *st = tcase_create("statistics");

    tcase_add_test(ex, test_recovery_example);
    tcase_add_test(ex, test_inside_example);
    tcase_add_test(ex, test_clinch_example);
    tcase_add_test(ex, test_feint_example);
    tcase_add_test(ex, test_counter_example);
    tcase_add_test(ex, test_counter_cap_half_agl);
    tcase_add_test(ex, test_counter_agg_example);
    tcase_add_test(ex, test_counter_after_clinch_and_both_counter);
    tcase_add_test(ex, test_ring_cut_outside);
    tcase_add_test(ex, test_styles_simultaneous);
    tcase_add_test(ex, test_styles_floor_one);
    tcase_add_test(ex, test_height_examples);
    tcase_add_test(ex, test_endurance_scaling);
    tcase_add_test(ex, test_clinch_penalty_chance);
    tcase_add_test(ex, test_def_rate_landed_damage);
    tcase_add_test(ex, test_damage_multipliers);
    tcase_add_test(ex, test_injury_chance_example);
    tcase_add_test(ex, test_knockdown_thresholds);
    tcase_add_test(ex, test_knockdown_and_ko_example);
    tcase_add_test(ex, test_dq_ladder_values);
    tcase_add_test(ex, test_injury_penalties_next_round);
    suite_add_tcase(s, ex);

    tcase_add_test(rd, test_round_figures_follow_formulas);
    tcase_add_test(rd, test_recovery_between_rounds);
    tcase_add_test(rd, test_clinch_rest_and_fatigue);
    tcase_add_test(rd, test_allout_scales_damage_exactly);
    tcase_add_test(rd, test_head_body_scale_damage_not_kd);
    tcase_add_test(rd, test_ko_ends_bout);
    tcase_add_test(rd, test_towel);
    tcase_add_test(rd, test_decision_and_cards);
    tcase_add_test(rd, test_identical_fighters_draw_possible);
    tcase_add_test(rd, test_knockdown_costs_point);
    tcase_add_test(rd, test_clinch_penalty_scoring);
    tcase_add_test(rd, test_dq_versus_ko_rules);
    tcase_add_test(rd, test_double_stoppage_ratio);
    suite_add_tcase(s, rd);

    tcase_set_timeout(st, 120);
    tcase_add_test(st, test_dirty_warning_rate);
    tcase_add_test(st, test_dq_ladder_measured);
    tcase_add_test(st, test_injury_location_weights);
    tcase_add_test(st, test_injury_level_distribution);
    tcase_add_test(st, test_promotion_tables);
    tcase_add_test(st, test_injuries_in_bouts);
    tcase_add_test(st, test_bouts_digest);
    tcase_add_test(st, test_played_bouts_digest);
    suite_add_tcase(s, st);
    return s;
}
