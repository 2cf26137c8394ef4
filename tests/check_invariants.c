/* check_invariants.c - properties of 100,000 random boxing bouts (random
 * sheets and random legal orders every round) and of random sugarray bouts:
 * no NaN or infinity, abilities never below 1, exactly one result per bout,
 * and the same seed replays the same bout. */
#include <math.h>
#include <string.h>

#include "engine.h"
#include "tests.h"

static void random_sheet(struct rng *g, struct sheet *s)
{
    s->rules = RULES_BOXING;
    s->u.boxing =
        (struct boxing_sheet){rng_range(g, 1, 25), rng_range(g, 1, 25), rng_range(g, 1, 25),
                              rng_range(g, 1, 25), rng_range(g, 1, 25)};
}

static void random_order(struct rng *g, struct order *o)
{
    struct boxing_order *b = &o->u.boxing;

    memset(o, 0, sizeof(*o));
    o->rules = RULES_BOXING;
    b->agg = rng_range(g, 1, 12);
    b->pow = rng_range(g, 1, 19 - b->agg);
    b->def = rng_range(g, 1, 20 - b->agg - b->pow);
    b->target = (enum target)rng_range(g, 0, 2);
    b->dirty = rng_chance(g, 0.15);
    b->style = (enum style)rng_range(g, 0, STYLE_COUNT - 1);
}

/* Fights bout number `seed` to its end; returns the number of EV_RESULT
 * events seen and checks every round's figures. */
static int run_bout(uint64_t seed, struct bout *b)
{
    struct rng g;
    struct sheet s[SIDES];
    struct bout_rng br;
    struct events ev;
    int results = 0;

    rng_seed(&g, seed, 1000);
    random_sheet(&g, &s[0]);
    random_sheet(&g, &s[1]);
    REQUIRE(bout_init(b, RULES_BOXING, s, rng_range(&g, 3, 15)) == 0);
    bout_rng_seed(&br, seed);
    while (!b->result.over) {
        struct order o[SIDES];
        random_order(&g, &o[0]);
        random_order(&g, &o[1]);
        REQUIRE(bout_round(b, o, &br, &ev) == 0);
        REQUIRE(ev.dropped == 0);
        for (int i = 0; i < SIDES; i++) {
            const struct boxing_side_round *l = &b->u.boxing.last[i];
            const double v[] = {l->str,     l->spd,       l->agl,          l->def_rate,
                                l->landed,  l->damage,    l->kd_damage,    l->endurance,
                                l->fatigue, l->end_begin, l->injury_damage};
            for (unsigned k = 0; k < sizeof(v) / sizeof(v[0]); k++)
                REQUIRE(isfinite(v[k]));
            REQUIRE(l->str >= 1 && l->spd >= 1 && l->agl >= 1);
            REQUIRE(l->agg >= 1 && l->agg <= l->order.agg);
            REQUIRE(l->def_rate >= 1);
            REQUIRE(l->landed >= 0 && l->landed <= l->thrown);
            REQUIRE(l->damage >= 0);
            /* The penalties the engine keeps between injuries are the
             * ones the injuries give now, to the last bit. */
            struct boxing_abilities fresh;
            const struct boxing_fighter *f = &b->u.boxing.f[i];
            boxing_injury_penalties(f, &fresh);
            REQUIRE(f->pre.str == fresh.str && f->pre.spd == fresh.spd && f->pre.agl == fresh.agl);
        }
        for (int i = 0; i < ev.n; i++)
            results += ev.ev[i].type == EV_RESULT;
        REQUIRE(b->round <= b->rounds);
    }
    return results;
}

START_TEST(test_boxing_invariants)
{
    const uint64_t n = 100000;
    int methods[METHOD_DRAW + 1] = {0};
    struct bout b, again;

    for (uint64_t seed = 1; seed <= n; seed++) {
        REQUIRE(run_bout(seed, &b) == 1);
        REQUIRE(b.result.over == 1);
        REQUIRE(b.result.round >= 1 && b.result.round <= b.rounds);
        REQUIRE(b.result.winner >= -1 && b.result.winner <= 1);
        REQUIRE((b.result.winner == -1) == (b.result.method == METHOD_DRAW));
        REQUIRE(b.result.method != METHOD_NONE && b.result.method != METHOD_POINTS);
        REQUIRE((b.result.method == METHOD_TKO) == (b.result.reason != TKO_NONE));
        REQUIRE((b.result.method == METHOD_DECISION) == (b.result.decision != DECISION_NONE));
        methods[b.result.method]++;
        if (seed % 97 == 0) {
            REQUIRE(run_bout(seed, &again) == 1);
            REQUIRE(again.round == b.round);
            REQUIRE(again.result.winner == b.result.winner);
            REQUIRE(again.result.method == b.result.method);
            REQUIRE(memcmp(again.result.cards, b.result.cards, sizeof(b.result.cards)) == 0);
            for (int i = 0; i < SIDES; i++) {
                REQUIRE(again.u.boxing.f[i].endurance == b.u.boxing.f[i].endurance);
                REQUIRE(memcmp(again.u.boxing.f[i].inj, b.u.boxing.f[i].inj,
                               sizeof(b.u.boxing.f[i].inj)) == 0);
            }
        }
    }
    /* Random orders reach every way a bout can end. */
    ck_assert_int_gt(methods[METHOD_KO], 0);
    ck_assert_int_gt(methods[METHOD_TKO], 0);
    ck_assert_int_gt(methods[METHOD_DQ], 0);
    ck_assert_int_gt(methods[METHOD_DECISION], 0);
    ck_assert_int_gt(methods[METHOD_DRAW], 0);
}
END_TEST

START_TEST(test_sugarray_invariants)
{
    for (uint64_t seed = 1; seed <= 20000; seed++) {
        struct rng g;
        struct sheet s[SIDES];
        struct bout b;
        struct bout_rng br;
        struct events ev;
        int results = 0;

        rng_seed(&g, seed, 2000);
        for (int i = 0; i < SIDES; i++) {
            s[i].rules = RULES_SUGARRAY;
            s[i].u.sugarray = (struct sugarray_sheet){rng_range(&g, 5, 20), rng_range(&g, 10, 40)};
        }
        REQUIRE(bout_init(&b, RULES_SUGARRAY, s, 0) == 0);
        bout_rng_seed(&br, seed);
        while (!b.result.over) {
            struct order o[SIDES];
            for (int i = 0; i < SIDES; i++) {
                o[i].rules = RULES_SUGARRAY;
                o[i].u.sugarray =
                    (struct sugarray_order){rng_range(&g, 0, 8), rng_range(&g, 0, 8), 0};
            }
            REQUIRE(bout_round(&b, o, &br, &ev) == 0);
            for (int i = 0; i < ev.n; i++)
                results += ev.ev[i].type == EV_RESULT;
        }
        REQUIRE(results == 1);
        REQUIRE(b.round <= 5);
        if (b.result.method == METHOD_KO)
            REQUIRE(b.u.sugarray.endurance[!b.result.winner] < 1);
        if (b.result.method == METHOD_POINTS) {
            int w = b.result.winner;
            REQUIRE(b.u.sugarray.attack_total[w] > b.u.sugarray.attack_total[!w]);
            REQUIRE(b.u.sugarray.endurance[0] >= 1 && b.u.sugarray.endurance[1] >= 1);
        }
    }
}
END_TEST

/* What every ruleset's entry promises the layers above, which use it
 * instead of code per ruleset. */
START_TEST(test_ruleset_entries)
{
    for (int r = 0; r < RULES_COUNT; r++) {
        const struct ruleset *rs = ruleset_get((enum rules)r);
        struct sheet s;
        struct order o;
        struct result res;
        int points[SIDES];

        ck_assert_ptr_nonnull(rs);
        ck_assert_int_eq(rs->id, r);
        ck_assert_ptr_eq(ruleset_find(rs->name), rs);
        ck_assert_ptr_nonnull(rs->title);
        /* Abilities: a few, distinct, each read and written alone. */
        ck_assert_int_ge(rs->nfields, 1);
        ck_assert_int_le(rs->nfields, SHEET_FIELDS_MAX);
        memset(&s, 0, sizeof(s));
        s.rules = (enum rules)r;
        for (int k = 0; k < rs->nfields; k++) {
            ck_assert_int_le(rs->fields[k].lo, rs->fields[k].hi);
            sheet_field_set(&s, k, 100 + k);
        }
        for (int k = 0; k < rs->nfields; k++)
            ck_assert_int_eq(sheet_field_get(&s, k), 100 + k);
        for (int k = 0; k < rs->nfields; k++)
            sheet_field_set(&s, k, rs->fields[k].lo);
        ck_assert_int_eq(rs->sheet_valid(&s), 0);
        /* The towel: a legal order, recognised as one; the default is not. */
        rs->order_towel(&o);
        ck_assert_int_eq(o.rules, r);
        ck_assert_int_eq(rs->order_valid(&o), 0);
        ck_assert(rs->order_is_towel(&o));
        rs->order_default(&o);
        ck_assert(!rs->order_is_towel(&o));
        /* After a bout: points never negative, sheets still legal. */
        memset(&res, 0, sizeof(res));
        res.over = 1;
        res.winner = 0;
        res.method = METHOD_KO;
        struct sheet sh[SIDES] = {s, s};
        rs->after_bout(&res, sh, points);
        for (int i = 0; i < SIDES; i++) {
            ck_assert_int_ge(points[i], 0);
            ck_assert_int_eq(rs->sheet_valid(&sh[i]), 0);
        }
    }
    /* Boxing: a KO earns the winner two training points, the loser none. */
    struct result ko = {.over = 1, .winner = 1, .method = METHOD_KO};
    struct sheet sh[SIDES];
    memset(sh, 0, sizeof(sh));
    int points[SIDES];
    ruleset_get(RULES_BOXING)->after_bout(&ko, sh, points);
    ck_assert_int_eq(points[0], 0);
    ck_assert_int_eq(points[1], 2);
}
END_TEST

Suite *invariants_suite(void)
{
    Suite *s = suite_create("invariants");
    TCase *tc = tcase_create("random bouts");

    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_boxing_invariants);
    tcase_add_test(tc, test_sugarray_invariants);
    tcase_add_test(tc, test_ruleset_entries);
    suite_add_tcase(s, tc);
    return s;
}
