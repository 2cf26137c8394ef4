/* check_rng.c - the seeded generator: reproducible, independent streams,
 * uniform ranges and weights. */
#include <math.h>

#include "engine.h"
#include "tests.h"

START_TEST(test_same_seed_same_sequence)
{
    struct rng a, b;

    rng_seed(&a, 42, 1);
    rng_seed(&b, 42, 1);
    for (int i = 0; i < 1000; i++)
        ck_assert_uint_eq(rng_next(&a), rng_next(&b));
}
END_TEST

START_TEST(test_streams_differ)
{
    struct bout_rng br;
    int same = 0;

    bout_rng_seed(&br, 7);
    for (int i = 0; i < 100; i++)
        same += rng_next(&br.outcome) == rng_next(&br.flavour);
    ck_assert_int_eq(same, 0);
}
END_TEST

START_TEST(test_unit_range_and_mean)
{
    struct rng r;
    double sum = 0;
    const int n = 200000;

    rng_seed(&r, 1, 0);
    for (int i = 0; i < n; i++) {
        double u = rng_unit(&r);
        ck_assert(u >= 0.0 && u < 1.0);
        sum += u;
    }
    ck_assert_double_eq_tol(sum / n, 0.5, 0.005);
}
END_TEST

START_TEST(test_range_uniform)
{
    struct rng r;
    int hist[5] = {0};
    const int n = 100000;

    rng_seed(&r, 3, 0);
    for (int i = 0; i < n; i++) {
        int x = rng_range(&r, 1, 5);
        ck_assert(x >= 1 && x <= 5);
        hist[x - 1]++;
    }
    for (int i = 0; i < 5; i++)
        ck_assert_double_eq_tol(hist[i] / (double)n, 0.2, 0.006);
}
END_TEST

START_TEST(test_weighted)
{
    struct rng r;
    const unsigned w[3] = {1, 0, 3};
    int hist[3] = {0};
    const int n = 100000;

    rng_seed(&r, 4, 0);
    for (int i = 0; i < n; i++)
        hist[rng_weighted(&r, w, 3)]++;
    ck_assert_int_eq(hist[1], 0);
    ck_assert_double_eq_tol(hist[0] / (double)n, 0.25, 0.006);
    ck_assert_double_eq_tol(hist[2] / (double)n, 0.75, 0.006);
}
END_TEST

START_TEST(test_chance_edges)
{
    struct rng r;

    rng_seed(&r, 5, 0);
    for (int i = 0; i < 1000; i++) {
        ck_assert_int_eq(rng_chance(&r, 0.0), 0);
        ck_assert_int_eq(rng_chance(&r, 1.0), 1);
    }
}
END_TEST

Suite *rng_suite(void)
{
    Suite *s = suite_create("rng");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_same_seed_same_sequence);
    tcase_add_test(tc, test_streams_differ);
    tcase_add_test(tc, test_unit_range_and_mean);
    tcase_add_test(tc, test_range_uniform);
    tcase_add_test(tc, test_weighted);
    tcase_add_test(tc, test_chance_edges);
    suite_add_tcase(s, tc);
    return s;
}
