/* tests.h - the suites of the unit-test runner (one per tests/check_*.c). */
#ifndef RINGSIDE_TESTS_H
#define RINGSIDE_TESTS_H

#include <check.h>

Suite *rng_suite(void);
Suite *boxing_suite(void);
Suite *sugarray_suite(void);
Suite *parse_suite(void);
Suite *invariants_suite(void);

#endif
