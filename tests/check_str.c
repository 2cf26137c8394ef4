/* check_str.c - util/str.c: the growable string, the fixed one and its
 * cut at a character boundary. */
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "util.h"

START_TEST(growable_grows_and_hands_over)
{
    struct str s;

    str_init(&s);
    ck_assert_str_eq(s.p, "");
    for (int i = 0; i < 1000; i++)
        str_add(&s, "%d,", i % 10);
    ck_assert_uint_eq(s.len, 2000);
    ck_assert_uint_eq(s.need, 2000);
    ck_assert_int_eq(str_cut_short(&s), 0);
    ck_assert_int_eq(strncmp(s.p, "0,1,2,", 6), 0);
    ck_assert_int_eq(s.p[s.len], '\0');
    str_cut(&s, 4);
    str_cat(&s, "x");
    str_ch(&s, 'y');
    str_repeat(&s, "-", 3);
    ck_assert_str_eq(s.p, "0,1,xy---");
    size_t len;
    char *p = str_take(&s, &len);
    ck_assert_str_eq(p, "0,1,xy---");
    ck_assert_uint_eq(len, 9);
    ck_assert_str_eq(s.p, "");
    free(p);
    p = str_take(&s, NULL); /* an empty one is "" the caller frees */
    ck_assert_str_eq(p, "");
    free(p);
    str_free(&s);
}
END_TEST

START_TEST(fixed_cuts_and_counts)
{
    char buf[8];
    struct str s;

    str_init_fixed(&s, buf, sizeof(buf));
    str_add(&s, "%s", "abc");
    str_cat(&s, "defgh");
    ck_assert_str_eq(buf, "abcdefg");
    ck_assert_uint_eq(s.len, 7);
    ck_assert_uint_eq(s.need, 8);
    ck_assert_int_eq(str_cut_short(&s), 1);
    /* Once cut, nothing more is written: the text stays a prefix. */
    str_cat(&s, "");
    str_add(&s, "%d", 12);
    ck_assert_str_eq(buf, "abcdefg");
    ck_assert_uint_eq(s.need, 10);
    str_clear(&s);
    ck_assert_str_eq(buf, "");
    str_add(&s, "%s-%s", "abcd", "efghij");
    ck_assert_str_eq(buf, "abcd-ef");
    ck_assert_uint_eq(s.need, 11);
}
END_TEST

START_TEST(fixed_never_splits_a_character)
{
    char buf[6];
    struct str s;

    /* "ab" then the euro sign (3 bytes) then "c": the euro does not fit
     * whole after "abc" in 5 bytes of text. */
    str_init_fixed(&s, buf, sizeof(buf));
    str_cat(&s, "abc\xe2\x82\xac");
    ck_assert_str_eq(buf, "abc");
    ck_assert_uint_eq(s.need, 6);
    str_clear(&s);
    str_add(&s, "ab%s", "c\xe2\x82\xac");
    ck_assert_str_eq(buf, "abc");
    str_clear(&s);
    str_add(&s, "a%s", "\xe2\x82\xac!");
    ck_assert_str_eq(buf, "a\xe2\x82\xac!");
    ck_assert_int_eq(str_cut_short(&s), 0);
}
END_TEST

Suite *str_suite(void)
{
    Suite *s = suite_create("str");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, growable_grows_and_hands_over);
    tcase_add_test(tc, fixed_cuts_and_counts);
    tcase_add_test(tc, fixed_never_splits_a_character);
    suite_add_tcase(s, tc);
    return s;
}
