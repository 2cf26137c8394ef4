/* check_page.c - what a bout page reads faster than the rest of the game
 * does, read the same: a boxing or sugarray order in its stored form
 * (replay.c's direct reads) gives the order the grammar gives, and a text the direct
 * read declines is left to the grammar, whatever it is. */
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "parse.h"
#include "tests.h"

/* bout_order_read and the grammar agree on `text`: both refuse it, or
 * both read the same order. */
static void read_as_grammar(const char *text)
{
    struct order fast, slow;
    struct parse_error err;

    memset(&fast, 0, sizeof(fast));
    memset(&slow, 0, sizeof(slow));
    int rf = bout_order_read(RULES_BOXING, text, &fast);
    int rs = order_parse(RULES_BOXING, text, &slow, &err);
    if ((rf == 0) != (rs == 0))
        ck_abort_msg("\"%s\": read %d, the grammar %d", text, rf, rs);
    if (rf != 0)
        return;
    const struct boxing_order *a = &fast.u.boxing, *b = &slow.u.boxing;
    if (fast.rules != slow.rules || a->agg != b->agg || a->pow != b->pow || a->def != b->def ||
        a->target != b->target || a->dirty != b->dirty || a->style != b->style ||
        a->towel != b->towel)
        ck_abort_msg("\"%s\": read %d/%d/%d target %d dirty %d style %d, the grammar %d/%d/%d "
                     "target %d dirty %d style %d",
                     text, a->agg, a->pow, a->def, (int)a->target, a->dirty, (int)a->style, b->agg,
                     b->pow, b->def, (int)b->target, b->dirty, (int)b->style);
}

/* Every order a boxer can give, as the database stores it. */
START_TEST(stored_orders_read_as_grammar)
{
    int n = 0;

    for (int agg = 1; agg <= BOXING_ENERGY; agg++)
        for (int pow = 1; agg + pow < BOXING_ENERGY; pow++)
            for (int def = 1; agg + pow + def <= BOXING_ENERGY; def++)
                for (int t = TARGET_OPPORTUNISTIC; t <= TARGET_BODY; t++)
                    for (int dirty = 0; dirty <= 1; dirty++)
                        for (int style = STYLE_NONE; style < STYLE_COUNT; style++) {
                            struct order o;
                            char text[64];
                            memset(&o, 0, sizeof(o));
                            o.rules = RULES_BOXING;
                            o.u.boxing = (struct boxing_order){.agg = agg,
                                                               .pow = pow,
                                                               .def = def,
                                                               .target = (enum target)t,
                                                               .dirty = dirty,
                                                               .style = (enum style)style};
                            bout_order_text(&o, text, sizeof(text));
                            read_as_grammar(text);
                            n++;
                        }
    ck_assert_int_eq(n, 1140 * 3 * 2 * STYLE_COUNT);
}
END_TEST

/* Texts in other forms (a player's, or not orders at all): the direct
 * read declines them and the grammar says what they are. */
START_TEST(other_texts_read_as_grammar)
{
    static const char *const texts[] = {
        "5/5/10",
        "05/5/10",
        "5/05/10",
        "5/5/010",
        " 5/5/10",
        "5/5/10 ",
        "5 / 5 / 10",
        "5h/5/10",
        "5b/5/10",
        "5H /5/10",
        "5/5!/10",
        "5/5 !/10",
        "5/5/10 (ins)",
        "5/5/10 (inside)",
        "5/5/10(inside)",
        "5/5/10 ( inside )",
        "5/5/10 (INSIDE)",
        "5/5/10 (inside) ",
        "5/5/10 (inside)x",
        "5/5/10 (bogus)",
        "5/5/10 ()",
        "5/5/10 (",
        "21/1/1",
        "0/5/10",
        "5/5/11",
        "10/10/1",
        "100/1/1",
        "1/1/1",
        "5/5",
        "5",
        "",
        "towel",
        "5/5/10 (allout)",
        "5/5/10 (all-out)",
        "20/0/0",
        "-1/5/10",
        "5/5/10\n",
        "+5/5/10",
        "5/5/10 (cut)",
        "5/5/10 (cu)",
    };
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
        if (strcmp(texts[i], "towel") != 0)
            read_as_grammar(texts[i]);
}
END_TEST

/* bout_order_read and the grammar agree on sugarray `text`, as
 * read_as_grammar on a boxing one. */
static void sugarray_as_grammar(const char *text)
{
    struct order fast, slow;
    struct parse_error err;

    memset(&fast, 0, sizeof(fast));
    memset(&slow, 0, sizeof(slow));
    int rf = bout_order_read(RULES_SUGARRAY, text, &fast);
    int rs = order_parse(RULES_SUGARRAY, text, &slow, &err);
    if ((rf == 0) != (rs == 0))
        ck_abort_msg("\"%s\": read %d, the grammar %d", text, rf, rs);
    if (rf == 0 && memcmp(&fast, &slow, sizeof(fast)) != 0)
        ck_abort_msg("\"%s\": read %d/%d towel %d, the grammar %d/%d towel %d", text,
                     fast.u.sugarray.attack, fast.u.sugarray.defence, fast.u.sugarray.towel,
                     slow.u.sugarray.attack, slow.u.sugarray.defence, slow.u.sugarray.towel);
}

/* Every sugarray order, as the database stores it, and texts in other
 * forms (the direct read declines those: the grammar says what they
 * are). */
START_TEST(sugarray_orders_read_as_grammar)
{
    static const char *const texts[] = {
        "3/2",   "03/2",  "3/02",  "00/0",  "0/00", "100/0", "0/100", "999/1",  " 3/2",  "3/2 ",
        "3 / 2", "3 2",   "3/",    "/2",    "3",    "",      "3/2/1", "-1/2",   "+3/2",  "3/-2",
        "3/2x",  "3/2\n", "3\t/2", "99/99", "0/0",  "9/99",  "99/9",  "100/99", "1000/1"};
    int n = 0;

    for (int a = 0; a <= SUGARRAY_ORDER_MAX; a++)
        for (int d = 0; d <= SUGARRAY_ORDER_MAX; d++) {
            struct order o;
            char text[64];
            memset(&o, 0, sizeof(o));
            o.rules = RULES_SUGARRAY;
            o.u.sugarray.attack = a;
            o.u.sugarray.defence = d;
            bout_order_text(&o, text, sizeof(text));
            sugarray_as_grammar(text);
            n++;
        }
    ck_assert_int_eq(n, 100 * 100);
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
        sugarray_as_grammar(texts[i]);
}
END_TEST

Suite *page_suite(void)
{
    Suite *s = suite_create("page");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, stored_orders_read_as_grammar);
    tcase_add_test(tc, other_texts_read_as_grammar);
    tcase_add_test(tc, sugarray_orders_read_as_grammar);
    suite_add_tcase(s, tc);
    return s;
}
