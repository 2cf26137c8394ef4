/* check_league.c - leagues: names, a turn's pairing (a random cycle: two
 * bouts each against two different opponents, every cycle equally likely),
 * promotion and relegation for every pair of results in every league, gold
 * record points, and the title challenger (ties broken at random, fairly). */
#include <math.h>
#include <string.h>

#include "engine.h"
#include "tests.h"

#define PAIR_MAX 50

START_TEST(test_names)
{
    ck_assert_str_eq(league_name(LEAGUE_GOLD), "GOLD");
    ck_assert_str_eq(league_name(LEAGUE_SILVER), "SILVER");
    ck_assert_str_eq(league_name(LEAGUE_BRONZE), "BRONZE");
    ck_assert_str_eq(league_name(LEAGUE_COUNT), "");
    ck_assert_str_eq(league_name((enum league) - 1), "");
    for (int l = 0; l < LEAGUE_COUNT; l++)
        ck_assert_int_eq(league_find(league_name((enum league)l)), l);
    ck_assert_int_eq(league_find("gold"), LEAGUE_GOLD);
    ck_assert_int_eq(league_find("Silver"), LEAGUE_SILVER);
    ck_assert_int_eq(league_find("bRoNzE"), LEAGUE_BRONZE);
    ck_assert_int_eq(league_find(""), -1);
    ck_assert_int_eq(league_find("gol"), -1);
    ck_assert_int_eq(league_find("golden"), -1);
    ck_assert_int_eq(league_find("gold "), -1);
    ck_assert_int_eq(league_find("platinum"), -1);
    ck_assert_int_eq(league_find(NULL), -1);
}
END_TEST

/* Every pairing for n = 0..PAIR_MAX over many seeds: n bouts, each fighter
 * in exactly two (once on each side), against two different opponents,
 * never himself, and no pair twice. */
START_TEST(test_pairing_shape)
{
    int pairs[PAIR_MAX][2];
    struct rng r;

    for (int n = 3; n <= PAIR_MAX; n++) {
        for (uint64_t seed = 0; seed < 300; seed++) {
            int bouts[PAIR_MAX], side0[PAIR_MAX], opp[PAIR_MAX][2];

            memset(bouts, 0, sizeof(bouts));
            memset(side0, 0, sizeof(side0));
            rng_seed(&r, seed, (uint64_t)n);
            REQUIRE(league_pairing(n, &r, pairs) == n);
            for (int k = 0; k < n; k++) {
                int a = pairs[k][0], b = pairs[k][1];

                REQUIRE(a >= 0 && a < n && b >= 0 && b < n);
                REQUIRE(a != b);
                REQUIRE(bouts[a] < 2 && bouts[b] < 2);
                opp[a][bouts[a]++] = b;
                opp[b][bouts[b]++] = a;
                side0[a]++;
                for (int j = 0; j < k; j++)
                    REQUIRE(!(pairs[j][0] == a && pairs[j][1] == b) &&
                            !(pairs[j][0] == b && pairs[j][1] == a));
            }
            for (int i = 0; i < n; i++) {
                REQUIRE(bouts[i] == 2);
                REQUIRE(side0[i] == 1);
                REQUIRE(opp[i][0] != opp[i][1]);
            }
        }
    }
}
END_TEST

START_TEST(test_pairing_small)
{
    int pairs[PAIR_MAX][2];
    struct rng r, before;

    rng_seed(&r, 9, 0);
    before = r;
    /* Two fighters meet twice, one has a bye, none has nothing; no draw. */
    memset(pairs, -1, sizeof(pairs));
    ck_assert_int_eq(league_pairing(2, &r, pairs), 2);
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(pairs[k][0], 0);
        ck_assert_int_eq(pairs[k][1], 1);
    }
    ck_assert_int_eq(league_pairing(1, &r, pairs), 0);
    ck_assert_int_eq(league_pairing(0, &r, pairs), 0);
    ck_assert_mem_eq(&r, &before, sizeof(r));
    ck_assert_int_eq(pairs[2][0], -1); /* nothing written past the bouts */

    /* Three: every pair meets once. */
    ck_assert_int_eq(league_pairing(3, &r, pairs), 3);
    int met[3][3] = {{0}};
    for (int k = 0; k < 3; k++) {
        met[pairs[k][0]][pairs[k][1]]++;
        met[pairs[k][1]][pairs[k][0]]++;
    }
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            ck_assert_int_eq(met[a][b], a != b);
}
END_TEST

START_TEST(test_pairing_deterministic)
{
    int p[PAIR_MAX][2], q[PAIR_MAX][2];
    struct rng a, b;
    int differ = 0;

    for (uint64_t seed = 0; seed < 100; seed++) {
        rng_seed(&a, seed, 0);
        rng_seed(&b, seed, 0);
        REQUIRE(league_pairing(PAIR_MAX, &a, p) == PAIR_MAX);
        REQUIRE(league_pairing(PAIR_MAX, &b, q) == PAIR_MAX);
        REQUIRE(memcmp(p, q, sizeof(p)) == 0);
        rng_seed(&b, seed + 1000, 0);
        REQUIRE(league_pairing(PAIR_MAX, &b, q) == PAIR_MAX);
        differ += memcmp(p, q, sizeof(p)) != 0;
    }
    ck_assert_int_eq(differ, 100);
}
END_TEST

/* How often each pair meets over many seeds: in a uniform cycle of n a
 * given pair is neighbours with probability 2 / (n - 1) (n = 4: 2/3, and
 * each of the three cycles 1/3). */
START_TEST(test_pairing_uniform)
{
    enum { SEEDS = 30000 };
    int pairs[PAIR_MAX][2];
    struct rng r;

    for (int n = 4; n <= 7; n++) {
        int met[7][7] = {{0}}, first[7] = {0};
        int cycles[3] = {0}; /* n = 4: which of 0-1, 0-2, 0-3 is missing */

        for (int s = 0; s < SEEDS; s++) {
            rng_seed(&r, (uint64_t)s, (uint64_t)n); /* a turn's own seed */
            REQUIRE(league_pairing(n, &r, pairs) == n);
            first[pairs[0][0]]++;
            for (int k = 0; k < n; k++) {
                met[pairs[k][0]][pairs[k][1]]++;
                met[pairs[k][1]][pairs[k][0]]++;
            }
            if (n == 4) {
                int missing = 0;
                for (int b = 1; b < 4; b++) {
                    int adjacent = 0;
                    for (int k = 0; k < n; k++)
                        adjacent |= (pairs[k][0] == 0 && pairs[k][1] == b) ||
                                    (pairs[k][0] == b && pairs[k][1] == 0);
                    if (!adjacent)
                        missing = b;
                }
                REQUIRE(missing >= 1);
                cycles[missing - 1]++;
            }
        }
        double want = 2.0 / (n - 1);
        for (int a = 0; a < n; a++) {
            ck_assert_msg(fabs((double)first[a] / SEEDS - 1.0 / n) < 0.02,
                          "n=%d: fighter %d first in %d of %d", n, a, first[a], SEEDS);
            for (int b = 0; b < n; b++) {
                if (a == b) {
                    ck_assert_int_eq(met[a][b], 0);
                    continue;
                }
                double got = (double)met[a][b] / SEEDS;
                ck_assert_msg(fabs(got - want) < 0.02, "n=%d: %d met %d in %.3f of turns, not %.3f",
                              n, a, b, got, want);
            }
        }
        if (n == 4)
            for (int c = 0; c < 3; c++)
                ck_assert_msg(fabs((double)cycles[c] / SEEDS - 1.0 / 3) < 0.02,
                              "cycle %d in %d of %d", c, cycles[c], SEEDS);
    }
}
END_TEST

/* Every pair of results (W, L, T) in every league. */
START_TEST(test_move_table)
{
    enum res { W, L, T };
    static const struct {
        enum res a, b;
        enum league_move move; /* in SILVER, where nothing is capped */
    } table[] = {
        {W, W, LEAGUE_UP},   {W, T, LEAGUE_UP},   {T, W, LEAGUE_UP},
        {L, L, LEAGUE_DOWN}, {L, T, LEAGUE_DOWN}, {T, L, LEAGUE_DOWN},
        {W, L, LEAGUE_STAY}, {L, W, LEAGUE_STAY}, {T, T, LEAGUE_STAY},
    };

    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        int w = (table[i].a == W) + (table[i].b == W);
        int l = (table[i].a == L) + (table[i].b == L);
        int t = (table[i].a == T) + (table[i].b == T);
        enum league_move m = table[i].move;

        ck_assert_int_eq(league_move(LEAGUE_SILVER, w, l, t), m);
        ck_assert_int_eq(league_move(LEAGUE_GOLD, w, l, t), m == LEAGUE_UP ? LEAGUE_STAY : m);
        ck_assert_int_eq(league_move(LEAGUE_BRONZE, w, l, t), m == LEAGUE_DOWN ? LEAGUE_STAY : m);
    }
    /* A bye or a single bout moves nobody. */
    for (int lg = 0; lg < LEAGUE_COUNT; lg++) {
        ck_assert_int_eq(league_move((enum league)lg, 0, 0, 0), LEAGUE_STAY);
        ck_assert_int_eq(league_move((enum league)lg, 1, 0, 0), LEAGUE_STAY);
        ck_assert_int_eq(league_move((enum league)lg, 0, 1, 0), LEAGUE_STAY);
        ck_assert_int_eq(league_move((enum league)lg, 0, 0, 1), LEAGUE_STAY);
    }
}
END_TEST

START_TEST(test_gold_points)
{
    ck_assert_int_eq(league_gold_points(1, 0), 3);
    ck_assert_int_eq(league_gold_points(0, 1), 1);
    ck_assert_int_eq(league_gold_points(0, 0), 0);
    /* A turn's two bouts add up: W+W 6, W+T 4, T+T 2, W+L 3, L+T 1. */
    ck_assert_int_eq(league_gold_points(1, 0) + league_gold_points(1, 0), 6);
    ck_assert_int_eq(league_gold_points(1, 0) + league_gold_points(0, 1), 4);
    ck_assert_int_eq(league_gold_points(0, 1) + league_gold_points(0, 1), 2);
    ck_assert_int_eq(league_gold_points(1, 0) + league_gold_points(0, 0), 3);
    ck_assert_int_eq(league_gold_points(0, 0) + league_gold_points(0, 1), 1);
}
END_TEST

START_TEST(test_top_unique)
{
    static const int gold[] = {4, 9, 0, 7, 9, 12, 3};
    const int n = (int)(sizeof(gold) / sizeof(gold[0]));
    struct rng r, before;

    rng_seed(&r, 5, 0);
    before = r;
    ck_assert_int_eq(league_top(gold, n, -1, &r), 5);
    ck_assert_int_eq(league_top(gold, n, 0, &r), 5);
    ck_assert_int_eq(league_top(gold, 4, -1, &r), 1);
    ck_assert_int_eq(league_top(gold, 4, 1, &r), 3);
    ck_assert_int_eq(league_top(gold, 1, -1, &r), 0);
    /* No tie, no draw: the rng is untouched. */
    ck_assert_mem_eq(&r, &before, sizeof(r));
    /* Nobody eligible. */
    ck_assert_int_eq(league_top(gold, 0, -1, &r), -1);
    ck_assert_int_eq(league_top(gold, 1, 0, &r), -1);
    ck_assert_int_eq(league_top(NULL, 0, -1, &r), -1);
    /* Negative records (never stored, but the order holds). */
    static const int neg[] = {-3, -1, -2};
    ck_assert_int_eq(league_top(neg, 3, -1, &r), 1);
}
END_TEST

START_TEST(test_top_ties_fair)
{
    enum { DRAWS = 40000 };
    static const int gold[] = {6, 10, 2, 10, 10, 9, 10};
    const int n = (int)(sizeof(gold) / sizeof(gold[0]));
    int count[7] = {0};
    struct rng r;

    rng_seed(&r, 11, 0);
    for (int i = 0; i < DRAWS; i++) {
        int k = league_top(gold, n, -1, &r);
        REQUIRE(k >= 0 && k < n && gold[k] == 10);
        count[k]++;
    }
    for (int k = 0; k < n; k++) {
        if (gold[k] != 10) {
            ck_assert_int_eq(count[k], 0);
            continue;
        }
        ck_assert_msg(fabs((double)count[k] / DRAWS - 0.25) < 0.015, "index %d chosen %d of %d", k,
                      count[k], DRAWS);
    }

    /* Excluding one of the tied leaves three, each a third. */
    memset(count, 0, sizeof(count));
    for (int i = 0; i < DRAWS; i++) {
        int k = league_top(gold, n, 3, &r);
        REQUIRE(k == 1 || k == 4 || k == 6);
        count[k]++;
    }
    for (int k = 0; k < n; k++)
        if (k == 1 || k == 4 || k == 6)
            ck_assert_msg(fabs((double)count[k] / DRAWS - 1.0 / 3) < 0.015,
                          "index %d chosen %d of %d", k, count[k], DRAWS);

    /* Two tied, one excluded: the other, without a draw. */
    static const int two[] = {5, 5};
    struct rng before = r;
    ck_assert_int_eq(league_top(two, 2, 0, &r), 1);
    ck_assert_int_eq(league_top(two, 2, 1, &r), 0);
    ck_assert_mem_eq(&r, &before, sizeof(r));

    /* The same rng state picks the same index. */
    struct rng a, b;
    rng_seed(&a, 3, 3);
    rng_seed(&b, 3, 3);
    for (int i = 0; i < 1000; i++)
        REQUIRE(league_top(gold, n, -1, &a) == league_top(gold, n, -1, &b));
}
END_TEST

Suite *league_suite(void)
{
    Suite *s = suite_create("league");
    TCase *tc = tcase_create("core");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_pairing_shape);
    tcase_add_test(tc, test_pairing_small);
    tcase_add_test(tc, test_pairing_deterministic);
    tcase_add_test(tc, test_pairing_uniform);
    tcase_add_test(tc, test_move_table);
    tcase_add_test(tc, test_gold_points);
    tcase_add_test(tc, test_top_unique);
    tcase_add_test(tc, test_top_ties_fair);
    suite_add_tcase(s, tc);
    return s;
}
