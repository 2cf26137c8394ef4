/*
 * check_parse.c - unit tests of parse/: one-line orders for both rulesets
 * (values, style words, spacing, every error reason and its column), their
 * normal form and round trips, error formatting, fighter sheets, and the
 * grammar descriptors' examples.
 */
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "tests.h"

/* Parses a boxing order that must be accepted. */
static struct boxing_order boxing_ok(const char *text)
{
    struct order o;
    struct parse_error err = {0, 0, ""};

    int rc = order_parse(RULES_BOXING, text, &o, &err);
    ck_assert_msg(rc == 0, "\"%s\" rejected: column %d: %s", text, err.column, err.reason);
    ck_assert_int_eq(o.rules, RULES_BOXING);
    return o.u.boxing;
}

/* Parses an order that must be rejected with this column and reason. */
static void order_bad(enum rules rules, const char *text, int column, const char *reason)
{
    struct order o;
    struct parse_error err = {-7, -7, "untouched"};

    ck_assert_int_eq(order_parse(rules, text, &o, &err), -1);
    ck_assert_str_eq(err.reason, reason);
    ck_assert_int_eq(err.column, column);
    ck_assert_int_eq(err.line, 0);
}

static void boxing_bad(const char *text, int column, const char *reason)
{
    order_bad(RULES_BOXING, text, column, reason);
}

static struct sugarray_order sugarray_ok(const char *text)
{
    struct order o;
    struct parse_error err = {0, 0, ""};

    int rc = order_parse(RULES_SUGARRAY, text, &o, &err);
    ck_assert_msg(rc == 0, "\"%s\" rejected: column %d: %s", text, err.column, err.reason);
    ck_assert_int_eq(o.rules, RULES_SUGARRAY);
    return o.u.sugarray;
}

static void sugarray_bad(const char *text, int column, const char *reason)
{
    order_bad(RULES_SUGARRAY, text, column, reason);
}

static void sheet_bad(enum rules rules, const char *text, int column, const char *reason)
{
    struct sheet s;
    struct parse_error err = {-7, -7, "untouched"};

    ck_assert_int_eq(sheet_parse(rules, text, &s, &err), -1);
    ck_assert_str_eq(err.reason, reason);
    ck_assert_int_eq(err.column, column);
    ck_assert_int_eq(err.line, 0);
}

static const char *const shape = "expected AGG[H|B]/POW[!]/DEF [(style)], e.g. 4H/8!/8 (inside)";
static const char *const unknown_tail =
    "; use inside, clinch, feint, counter, ring, cut, outside or allout";

/* ------------------------------------------------------ boxing: accepted */

START_TEST(boxing_plain)
{
    struct boxing_order b = boxing_ok("5/5/10");

    ck_assert_int_eq(b.agg, 5);
    ck_assert_int_eq(b.pow, 5);
    ck_assert_int_eq(b.def, 10);
    ck_assert_int_eq(b.target, TARGET_OPPORTUNISTIC);
    ck_assert_int_eq(b.dirty, 0);
    ck_assert_int_eq(b.style, STYLE_NONE);
    ck_assert_int_eq(b.towel, 0);
}
END_TEST

START_TEST(boxing_head_dirty_style)
{
    struct boxing_order b = boxing_ok("4H/8!/8 (inside)");

    ck_assert_int_eq(b.agg, 4);
    ck_assert_int_eq(b.pow, 8);
    ck_assert_int_eq(b.def, 8);
    ck_assert_int_eq(b.target, TARGET_HEAD);
    ck_assert_int_eq(b.dirty, 1);
    ck_assert_int_eq(b.style, STYLE_INSIDE);
    ck_assert_int_eq(b.towel, 0);
}
END_TEST

START_TEST(boxing_body_style_without_space)
{
    struct boxing_order b = boxing_ok("6B/7/7(cou)");

    ck_assert_int_eq(b.agg, 6);
    ck_assert_int_eq(b.pow, 7);
    ck_assert_int_eq(b.def, 7);
    ck_assert_int_eq(b.target, TARGET_BODY);
    ck_assert_int_eq(b.dirty, 0);
    ck_assert_int_eq(b.style, STYLE_COUNTER);
}
END_TEST

START_TEST(boxing_target_lowercase)
{
    ck_assert_int_eq(boxing_ok("4h/8/8").target, TARGET_HEAD);
    ck_assert_int_eq(boxing_ok("4b/8/8").target, TARGET_BODY);
    ck_assert_int_eq(boxing_ok("4B/8!/8").target, TARGET_BODY);
    ck_assert_int_eq(boxing_ok("4B/8!/8").dirty, 1);
}
END_TEST

START_TEST(boxing_spacing)
{
    struct boxing_order b = boxing_ok("   4 H / 8 ! / 8   (  inside  )   ");

    ck_assert_int_eq(b.agg, 4);
    ck_assert_int_eq(b.pow, 8);
    ck_assert_int_eq(b.def, 8);
    ck_assert_int_eq(b.target, TARGET_HEAD);
    ck_assert_int_eq(b.dirty, 1);
    ck_assert_int_eq(b.style, STYLE_INSIDE);
    b = boxing_ok("\t5/5/10\t(ring)\t");
    ck_assert_int_eq(b.def, 10);
    ck_assert_int_eq(b.style, STYLE_RING);
    ck_assert_int_eq(boxing_ok("5/5/10 ").agg, 5);
}
END_TEST

START_TEST(boxing_limits)
{
    struct boxing_order b = boxing_ok("18/1/1");

    ck_assert_int_eq(b.agg + b.pow + b.def, 20);
    b = boxing_ok("1/1/1");
    ck_assert_int_eq(b.agg + b.pow + b.def, 3);
    b = boxing_ok("1/18/1");
    ck_assert_int_eq(b.pow, 18);
    b = boxing_ok("05/05/010");
    ck_assert_int_eq(b.agg, 5);
    ck_assert_int_eq(b.def, 10);
}
END_TEST

/* The members are read in loop tests, which cppcheck does not expand. */
static const struct {
    const char *word; // cppcheck-suppress unusedStructMember
    enum style style; // cppcheck-suppress unusedStructMember
} style_cases[] = {
    {"inside", STYLE_INSIDE},
    {"close", STYLE_INSIDE},
    {"short", STYLE_INSIDE},
    {"brawl", STYLE_INSIDE},
    {"clinch", STYLE_CLINCH},
    {"clinching", STYLE_CLINCH},
    {"hold", STYLE_CLINCH},
    {"feint", STYLE_FEINT},
    {"feinting", STYLE_FEINT},
    {"counter", STYLE_COUNTER},
    {"counterpunch", STYLE_COUNTER},
    {"ring", STYLE_RING},
    {"long", STYLE_RING},
    {"distance", STYLE_RING},
    {"cut", STYLE_CUT},
    {"cutoff", STYLE_CUT},
    {"ropes", STYLE_CUT},
    {"outside", STYLE_OUTSIDE},
    {"jab", STYLE_OUTSIDE},
    {"allout", STYLE_ALLOUT},
    {"all-out", STYLE_ALLOUT},
    {"assault", STYLE_ALLOUT},
};
#define STYLE_CASES ((int)(sizeof(style_cases) / sizeof(style_cases[0])))

/* Every accepted word, in full. */
START_TEST(boxing_style_words)
{
    char text[64];

    snprintf(text, sizeof(text), "5/5/10 (%s)", style_cases[_i].word);
    ck_assert_int_eq(boxing_ok(text).style, style_cases[_i].style);
}
END_TEST

/* Every accepted word cut to its first three letters. */
START_TEST(boxing_style_prefixes)
{
    char text[64];

    snprintf(text, sizeof(text), "5/5/10(%.3s)", style_cases[_i].word);
    ck_assert_int_eq(boxing_ok(text).style, style_cases[_i].style);
}
END_TEST

/* Every accepted word in upper case, and longer words on the same three. */
START_TEST(boxing_style_case_and_longer)
{
    char text[64], upper[32];
    size_t n = strlen(style_cases[_i].word);

    for (size_t k = 0; k <= n; k++)
        upper[k] = (char)(style_cases[_i].word[k] >= 'a' && style_cases[_i].word[k] <= 'z'
                              ? style_cases[_i].word[k] - 'a' + 'A'
                              : style_cases[_i].word[k]);
    snprintf(text, sizeof(text), "5/5/10 (%s)", upper);
    ck_assert_int_eq(boxing_ok(text).style, style_cases[_i].style);
    snprintf(text, sizeof(text), "5/5/10 (%.3sxyz-abc)", style_cases[_i].word);
    ck_assert_int_eq(boxing_ok(text).style, style_cases[_i].style);
}
END_TEST

START_TEST(boxing_style_mixed_case)
{
    ck_assert_int_eq(boxing_ok("5/5/10 (ClInChInG)").style, STYLE_CLINCH);
    ck_assert_int_eq(boxing_ok("5/5/10 (FEI)").style, STYLE_FEINT);
    ck_assert_int_eq(boxing_ok("5/5/10 (Jabbing)").style, STYLE_OUTSIDE);
    ck_assert_int_eq(boxing_ok("5/5/10 (All-Out)").style, STYLE_ALLOUT);
}
END_TEST

/* ------------------------------------------------------ boxing: rejected */

START_TEST(boxing_error_sum)
{
    boxing_bad("8/8/8", 1, "AGG+POW+DEF = 24, the most is 20");
    boxing_bad("  10/5/6 (ring)", 3, "AGG+POW+DEF = 21, the most is 20");
    boxing_bad("19/1/1", 1, "AGG+POW+DEF = 21, the most is 20");
}
END_TEST

START_TEST(boxing_error_at_least_one)
{
    boxing_bad("0/10/10", 1, "AGG must be at least 1");
    boxing_bad("5/0/5", 3, "POW must be at least 1");
    boxing_bad("5 / 5 / 00", 9, "DEF must be at least 1");
    boxing_bad(" 4H/0!/8", 5, "POW must be at least 1");
}
END_TEST

START_TEST(boxing_error_too_big)
{
    boxing_bad("99999999999/1/1", 1, "AGG 99999999999 is too big; AGG+POW+DEF is at most 20");
    boxing_bad("1/21/1", 3, "POW 21 is too big; AGG+POW+DEF is at most 20");
    boxing_bad("1/1/12345678901234567890123456789012345678901234567890", 5,
               "DEF 123456789012345678901234... is too big; AGG+POW+DEF is at most 20");
}
END_TEST

START_TEST(boxing_error_junk_after_def)
{
    boxing_bad("4/8/8 xyz", 7,
               "unexpected \"xyz\" after DEF; a style goes in parentheses, e.g. (inside)");
    boxing_bad("4/8/8xyz (inside)", 6,
               "unexpected \"xyz\" after DEF; a style goes in parentheses, e.g. (inside)");
    boxing_bad("4/8/8/2", 6,
               "unexpected \"/2\" after DEF; a style goes in parentheses, e.g. (inside)");
    boxing_bad("4/8/8 inside", 7,
               "unexpected \"inside\" after DEF; a style goes in parentheses, e.g. (inside)");
}
END_TEST

START_TEST(boxing_error_unknown_style)
{
    char want[PARSE_REASON_MAX];

    snprintf(want, sizeof(want), "unknown style \"xyz\"%s", unknown_tail);
    boxing_bad("4/8/8 (xyz)", 8, want);
    boxing_bad("4/8/8(  xyz )", 9, want);
    boxing_bad("4/8/8 (xyz) junk", 8, want);
    snprintf(want, sizeof(want), "unknown style \"ins1\"%s", unknown_tail);
    boxing_bad("4/8/8 (ins1)", 8, want);
    snprintf(want, sizeof(want), "unknown style \"all out\"%s", unknown_tail);
    boxing_bad("4/8/8 (all out)", 8, want);
    snprintf(want, sizeof(want), "unknown style \"in-side\"%s", unknown_tail);
    boxing_bad("4/8/8 (in-side)", 8, want);
}
END_TEST

START_TEST(boxing_error_style_shape)
{
    boxing_bad("4/8/8 (cu)", 8,
               "style \"cu\" is too short; give at least its first 3 letters, e.g. (ins)");
    boxing_bad("4/8/8 ( )", 7, "empty style \"()\"; put a style in the parentheses, e.g. (inside)");
    boxing_bad("4/8/8 (inside", 7, "\"(\" is never closed; write the style as e.g. (inside)");
    boxing_bad("4/8/8 ((inside))", 8,
               "unexpected \"(\" inside the style; write the style as e.g. (inside)");
    boxing_bad("4/8/8 (inside) now", 16,
               "unexpected \"now\" after the style; the order ends with (style)");
    boxing_bad("4/8/8 (inside)(ring)", 15,
               "unexpected \"(ring)\" after the style; the order ends with (style)");
}
END_TEST

START_TEST(boxing_error_empty)
{
    boxing_bad("", 0, "empty order; write AGG/POW/DEF, e.g. 5/5/10");
    boxing_bad("   \t ", 0, "empty order; write AGG/POW/DEF, e.g. 5/5/10");
}
END_TEST

START_TEST(boxing_error_shape)
{
    boxing_bad("5/5", 4, shape);
    boxing_bad("a/b/c", 1, shape);
    boxing_bad("5//5", 3, shape);
    boxing_bad("5/5/", 5, shape);
    boxing_bad("-1/5/5", 1, shape);
    boxing_bad("4X/8/8", 2, shape);
    boxing_bad("4/8!!/8", 5, shape);
    boxing_bad("4 8 8", 3, shape);
    boxing_bad("(inside) 4/8/8", 1, shape);
}
END_TEST

START_TEST(boxing_error_control_characters)
{
    boxing_bad("4/8/8\x01", 6,
               "unexpected \"?\" after DEF; a style goes in parentheses, e.g. (inside)");
    boxing_bad("4/\x1b[1m8/8", 3, shape);
}
END_TEST

START_TEST(order_error_leaves_order_alone)
{
    struct order o, before;
    struct parse_error err;

    memset(&o, 0x5a, sizeof(o));
    before = o;
    ck_assert_int_eq(order_parse(RULES_BOXING, "8/8/8 (inside)", &o, &err), -1);
    ck_assert_int_eq(memcmp(&o, &before, sizeof(o)), 0);
    ck_assert_int_eq(order_parse(RULES_SUGARRAY, "100/0", &o, &err), -1);
    ck_assert_int_eq(memcmp(&o, &before, sizeof(o)), 0);
    ck_assert_int_eq(order_parse(RULES_BOXING, "x", &o, NULL), -1);
    ck_assert_int_eq(order_parse(RULES_COUNT, "5/5/10", &o, &err), -1);
    ck_assert_int_eq(err.column, 0);
    ck_assert_int_eq(memcmp(&o, &before, sizeof(o)), 0);
}
END_TEST

/* --------------------------------------------------------------- sugarray */

START_TEST(sugarray_forms)
{
    struct sugarray_order s = sugarray_ok("6/0");

    ck_assert_int_eq(s.attack, 6);
    ck_assert_int_eq(s.defence, 0);
    s = sugarray_ok("3 3");
    ck_assert_int_eq(s.attack, 3);
    ck_assert_int_eq(s.defence, 3);
    s = sugarray_ok("  4 / 2  ");
    ck_assert_int_eq(s.attack, 4);
    ck_assert_int_eq(s.defence, 2);
    s = sugarray_ok("7\t\t1");
    ck_assert_int_eq(s.attack, 7);
    ck_assert_int_eq(s.defence, 1);
}
END_TEST

START_TEST(sugarray_limits)
{
    struct sugarray_order s = sugarray_ok("99/99");

    ck_assert_int_eq(s.attack, 99);
    ck_assert_int_eq(s.defence, 99);
    s = sugarray_ok("0 0");
    ck_assert_int_eq(s.attack, 0);
    ck_assert_int_eq(s.defence, 0);
    s = sugarray_ok("007/000");
    ck_assert_int_eq(s.attack, 7);
    ck_assert_int_eq(s.defence, 0);
}
END_TEST

START_TEST(sugarray_error_over)
{
    sugarray_bad("120/3", 1, "attack 120 is over 99");
    sugarray_bad("3/120", 3, "defence 120 is over 99");
    sugarray_bad(" 3 100", 4, "defence 100 is over 99");
    sugarray_bad("99999999999999999999/1", 1, "attack 99999999999999999999 is over 99");
}
END_TEST

START_TEST(sugarray_error_shape)
{
    sugarray_bad("", 0, "empty order; write attack/defence, e.g. 3/2");
    sugarray_bad("  ", 0, "empty order; write attack/defence, e.g. 3/2");
    sugarray_bad("3", 2, "expected attack/defence, e.g. 3/2");
    sugarray_bad("3/", 3, "expected attack/defence, e.g. 3/2");
    sugarray_bad("a/b", 1, "expected attack/defence, e.g. 3/2");
    sugarray_bad("-1/2", 1, "expected attack/defence, e.g. 3/2");
    sugarray_bad("3,2", 2, "expected attack/defence, e.g. 3/2");
    sugarray_bad("3//2", 3, "expected attack/defence, e.g. 3/2");
}
END_TEST

START_TEST(sugarray_error_junk)
{
    sugarray_bad("3/2 x", 5, "unexpected \"x\" after defence; expected attack/defence, e.g. 3/2");
    sugarray_bad("3 2 1", 5, "unexpected \"1\" after defence; expected attack/defence, e.g. 3/2");
    sugarray_bad("3/2(inside)", 4,
                 "unexpected \"(inside)\" after defence; expected attack/defence, e.g. 3/2");
}
END_TEST

/* ------------------------------------------------------------- formatting */

static const char *format(const struct order *o, char *buf, size_t len)
{
    int n = order_format(o, buf, len);

    ck_assert_int_eq(n, (int)strlen(buf));
    return buf;
}

START_TEST(format_boxing)
{
    struct order o = {RULES_BOXING, {.boxing = {5, 5, 10, TARGET_OPPORTUNISTIC, 0, STYLE_NONE, 0}}};
    char buf[64];

    ck_assert_str_eq(format(&o, buf, sizeof(buf)), "5/5/10");
    o.u.boxing = (struct boxing_order){4, 8, 8, TARGET_HEAD, 1, STYLE_INSIDE, 0};
    ck_assert_str_eq(format(&o, buf, sizeof(buf)), "4H/8!/8 (inside)");
    o.u.boxing = (struct boxing_order){6, 7, 7, TARGET_BODY, 0, STYLE_COUNTER, 0};
    ck_assert_str_eq(format(&o, buf, sizeof(buf)), "6B/7/7 (counter)");
    o.u.boxing = (struct boxing_order){1, 1, 18, TARGET_OPPORTUNISTIC, 1, STYLE_ALLOUT, 0};
    ck_assert_str_eq(format(&o, buf, sizeof(buf)), "1/1!/18 (allout)");
}
END_TEST

START_TEST(format_style_names)
{
    static const char *const names[STYLE_COUNT] = {
        "", "inside", "clinch", "feint", "counter", "ring", "cut", "outside", "allout",
    };
    struct order o = {RULES_BOXING, {.boxing = {5, 5, 10, TARGET_OPPORTUNISTIC, 0, STYLE_NONE, 0}}};
    char buf[64], want[64];

    for (int s = STYLE_INSIDE; s < STYLE_COUNT; s++) {
        o.u.boxing.style = (enum style)s;
        snprintf(want, sizeof(want), "5/5/10 (%s)", names[s]);
        ck_assert_str_eq(format(&o, buf, sizeof(buf)), want);
    }
}
END_TEST

START_TEST(format_sugarray)
{
    struct order o = {RULES_SUGARRAY, {.sugarray = {6, 0}}};
    char buf[16];

    ck_assert_str_eq(format(&o, buf, sizeof(buf)), "6/0");
    o.u.sugarray = (struct sugarray_order){99, 99, 0};
    ck_assert_str_eq(format(&o, buf, sizeof(buf)), "99/99");
}
END_TEST

START_TEST(format_short_buffer)
{
    struct order o = {RULES_BOXING, {.boxing = {4, 8, 8, TARGET_HEAD, 1, STYLE_INSIDE, 0}}};
    char buf[8];

    memset(buf, 'x', sizeof(buf));
    ck_assert_int_eq(order_format(&o, buf, 5), 16);
    ck_assert_str_eq(buf, "4H/8");
    ck_assert_int_eq(buf[5], 'x');
    ck_assert_int_eq(order_format(&o, NULL, 0), 16);
}
END_TEST

/* Every legal boxing order survives format then parse. */
START_TEST(roundtrip_boxing)
{
    struct order o = {RULES_BOXING, {.boxing = {0, 0, 0, TARGET_OPPORTUNISTIC, 0, STYLE_NONE, 0}}};
    struct order back;
    struct parse_error err;
    char buf[64];
    int checked = 0;

    for (int a = 1; a <= BOXING_ENERGY; a++)
        for (int p = 1; a + p <= BOXING_ENERGY; p++)
            for (int d = 1; a + p + d <= BOXING_ENERGY; d++)
                for (int t = 0; t < 3; t++)
                    for (int s = 0; s < STYLE_COUNT; s++) {
                        o.u.boxing = (struct boxing_order){
                            a, p, d, (enum target)t, (a + p) & 1, (enum style)s, 0};
                        order_format(&o, buf, sizeof(buf));
                        ck_assert_int_eq(order_parse(RULES_BOXING, buf, &back, &err), 0);
                        ck_assert_int_eq(back.rules, RULES_BOXING);
                        ck_assert_int_eq(back.u.boxing.agg, a);
                        ck_assert_int_eq(back.u.boxing.pow, p);
                        ck_assert_int_eq(back.u.boxing.def, d);
                        ck_assert_int_eq(back.u.boxing.target, t);
                        ck_assert_int_eq(back.u.boxing.dirty, (a + p) & 1);
                        ck_assert_int_eq(back.u.boxing.style, s);
                        ck_assert_int_eq(back.u.boxing.towel, 0);
                        checked++;
                    }
    ck_assert_int_eq(checked, 1140 * 3 * STYLE_COUNT);
}
END_TEST

START_TEST(roundtrip_sugarray)
{
    struct order o = {RULES_SUGARRAY, {.sugarray = {0, 0}}}, back;
    struct parse_error err;
    char buf[16];

    for (int a = 0; a <= SUGARRAY_ORDER_MAX; a++)
        for (int d = 0; d <= SUGARRAY_ORDER_MAX; d++) {
            o.u.sugarray = (struct sugarray_order){a, d, 0};
            order_format(&o, buf, sizeof(buf));
            ck_assert_int_eq(order_parse(RULES_SUGARRAY, buf, &back, &err), 0);
            ck_assert_int_eq(back.u.sugarray.attack, a);
            ck_assert_int_eq(back.u.sugarray.defence, d);
        }
}
END_TEST

START_TEST(error_format)
{
    struct parse_error err = {0, 7, "unexpected \"xyz\""};
    char buf[64];

    ck_assert_int_eq(parse_error_format(&err, buf, sizeof(buf)), 26);
    ck_assert_str_eq(buf, "column 7: unexpected \"xyz\"");
    err.column = 0;
    ck_assert_int_eq(parse_error_format(&err, buf, sizeof(buf)), 16);
    ck_assert_str_eq(buf, "unexpected \"xyz\"");
    err.column = 12;
    ck_assert_int_eq(parse_error_format(&err, buf, 10), 27);
    ck_assert_str_eq(buf, "column 12");
}
END_TEST

/* A plan's errors carry a line; the parts that are 0 are left out. */
START_TEST(error_format_lines)
{
    struct parse_error err = {3, 7, "bad"};
    char buf[64];

    ck_assert_int_eq(parse_error_format(&err, buf, sizeof(buf)), 21);
    ck_assert_str_eq(buf, "line 3, column 7: bad");
    err.column = 0;
    ck_assert_int_eq(parse_error_format(&err, buf, sizeof(buf)), 11);
    ck_assert_str_eq(buf, "line 3: bad");
    err.line = 0;
    ck_assert_int_eq(parse_error_format(&err, buf, sizeof(buf)), 3);
    ck_assert_str_eq(buf, "bad");
    err.line = 200;
    err.column = 12;
    ck_assert_int_eq(parse_error_format(&err, buf, 8), 24);
    ck_assert_str_eq(buf, "line 20");
}
END_TEST

/* ------------------------------------------------------------------ sheets */

START_TEST(sheet_boxing)
{
    struct sheet s;
    struct parse_error err;

    ck_assert_int_eq(sheet_parse(RULES_BOXING, "str=14 spd=12 agl=11 tgh=12 hgt=11", &s, &err), 0);
    ck_assert_int_eq(s.rules, RULES_BOXING);
    ck_assert_int_eq(s.u.boxing.str, 14);
    ck_assert_int_eq(s.u.boxing.spd, 12);
    ck_assert_int_eq(s.u.boxing.agl, 11);
    ck_assert_int_eq(s.u.boxing.tgh, 12);
    ck_assert_int_eq(s.u.boxing.hgt, 11);
    ck_assert_int_eq(sheet_parse(RULES_BOXING, "  HGT=25\tTgh=1 AGL=5 Spd=20 sTr=9  ", &s, &err),
                     0);
    ck_assert_int_eq(s.u.boxing.str, 9);
    ck_assert_int_eq(s.u.boxing.spd, 20);
    ck_assert_int_eq(s.u.boxing.agl, 5);
    ck_assert_int_eq(s.u.boxing.tgh, 1);
    ck_assert_int_eq(s.u.boxing.hgt, 25);
}
END_TEST

START_TEST(sheet_sugarray)
{
    struct sheet s;
    struct parse_error err;

    ck_assert_int_eq(sheet_parse(RULES_SUGARRAY, "skill=12 end=21", &s, &err), 0);
    ck_assert_int_eq(s.rules, RULES_SUGARRAY);
    ck_assert_int_eq(s.u.sugarray.skill, 12);
    ck_assert_int_eq(s.u.sugarray.endurance, 21);
    ck_assert_int_eq(sheet_parse(RULES_SUGARRAY, "Endurance=999 SKILL=99", &s, &err), 0);
    ck_assert_int_eq(s.u.sugarray.skill, 99);
    ck_assert_int_eq(s.u.sugarray.endurance, 999);
    ck_assert_int_eq(sheet_parse(RULES_SUGARRAY, "skill=1 end=1", &s, &err), 0);
    ck_assert_int_eq(s.u.sugarray.skill, 1);
    ck_assert_int_eq(s.u.sugarray.endurance, 1);
}
END_TEST

START_TEST(sheet_error_missing)
{
    sheet_bad(RULES_BOXING, "str=14 spd=12 agl=11 tgh=12", 0,
              "missing hgt=; a boxing sheet needs str, spd, agl, tgh and hgt");
    sheet_bad(RULES_BOXING, "hgt=11", 0,
              "missing str=; a boxing sheet needs str, spd, agl, tgh and hgt");
    sheet_bad(RULES_SUGARRAY, "skill=12", 0, "missing end=; a sugarray sheet needs skill and end");
    sheet_bad(RULES_BOXING, " \t ", 0,
              "empty sheet; write e.g. str=14 spd=12 agl=11 tgh=12 hgt=11");
    sheet_bad(RULES_SUGARRAY, "", 0, "empty sheet; write e.g. skill=12 end=21");
}
END_TEST

START_TEST(sheet_error_unknown_key)
{
    sheet_bad(RULES_BOXING, "str=14 dex=12", 8,
              "unknown key \"dex\"; a boxing sheet has str, spd, agl, tgh and hgt");
    sheet_bad(RULES_SUGARRAY, "skill=1 str=14", 9,
              "unknown key \"str\"; a sugarray sheet has skill and end");
    sheet_bad(RULES_SUGARRAY, "endur=5", 1,
              "unknown key \"endur\"; a sugarray sheet has skill and end");
}
END_TEST

START_TEST(sheet_error_duplicate)
{
    sheet_bad(RULES_BOXING, "str=14 STR=12", 8, "str= given twice; give each key once");
    sheet_bad(RULES_SUGARRAY, "end=5 skill=3 endurance=6", 15,
              "end= given twice (end= and endurance= are one key); give each key once");
}
END_TEST

START_TEST(sheet_error_values)
{
    sheet_bad(RULES_BOXING, "str=30", 5, "str=30 is over 25");
    sheet_bad(RULES_BOXING, "str=14 spd=0", 12, "spd=0 is under 1");
    sheet_bad(RULES_BOXING, "agl=99999999999999999999", 5, "agl=99999999999999999999 is over 25");
    sheet_bad(RULES_BOXING, "tgh=abc", 5, "tgh=abc is not a whole number from 1 to 25");
    sheet_bad(RULES_BOXING, "tgh=-3", 5, "tgh=-3 is not a whole number from 1 to 25");
    sheet_bad(RULES_BOXING, "hgt=", 5,
              "hgt= has no value; write a whole number from 1 to 25, e.g. hgt=11");
    sheet_bad(RULES_SUGARRAY, "skill=12 end=1000", 14, "end=1000 is over 999");
    sheet_bad(RULES_SUGARRAY, "skill=100 end=10", 7, "skill=100 is over 99");
}
END_TEST

START_TEST(sheet_error_not_a_pair)
{
    sheet_bad(RULES_BOXING, "str=14 spd 12", 8, "expected key=value, e.g. str=14; got \"spd\"");
    sheet_bad(RULES_BOXING, "=5", 1, "expected key=value, e.g. str=14; got \"=5\"");
    sheet_bad(RULES_SUGARRAY, "skill = 5", 1, "expected key=value, e.g. skill=12; got \"skill\"");
}
END_TEST

START_TEST(sheet_error_leaves_sheet_alone)
{
    struct sheet s, before;
    struct parse_error err;

    memset(&s, 0x5a, sizeof(s));
    before = s;
    ck_assert_int_eq(sheet_parse(RULES_BOXING, "str=14 spd=12 agl=11 tgh=12 hgt=26", &s, &err), -1);
    ck_assert_int_eq(memcmp(&s, &before, sizeof(s)), 0);
    ck_assert_int_eq(sheet_parse(RULES_SUGARRAY, "skill=1", &s, NULL), -1);
    ck_assert_int_eq(sheet_parse(RULES_COUNT, "skill=1 end=1", &s, &err), -1);
    ck_assert_int_eq(err.column, 0);
    ck_assert_int_eq(memcmp(&s, &before, sizeof(s)), 0);
}
END_TEST

/* ------------------------------------------------------------ grammars */

START_TEST(grammar_examples)
{
    const struct grammar *b = grammar_get(RULES_BOXING), *s = grammar_get(RULES_SUGARRAY);

    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(b->order_example, "5H/8!/7 (inside)");
    ck_assert_str_eq(s->order_example, "3/2");
    ck_assert_str_eq(b->orders_example, "'5/5/10,4H/8!/8 (ins)'");
    ck_assert_str_eq(s->orders_example, "'6/0,3/3'");
    ck_assert_str_eq(b->order_example_sim, "4H/8!/8 (inside)");
    ck_assert_str_eq(s->order_example_sim, "6/0");
    ck_assert_str_eq(b->sheet_example, "'Rocky str=14 spd=12 agl=11 tgh=12 hgt=11'");
    ck_assert_str_eq(s->sheet_example, "'Murphy skill=12 end=21'");
    ck_assert_str_eq(b->create_example, "str=12 spd=12 agl=12 tgh=12 hgt=12");
    ck_assert_str_eq(s->create_example, "rules=sugarray");
    ck_assert_str_eq(b->plan_example, "5/5/10");
    ck_assert_str_eq(s->plan_example, "3/3");
    ck_assert_ptr_nonnull(b->order_towel);
    ck_assert_ptr_null(s->order_towel);
}
END_TEST

START_TEST(grammar_unknown_rules)
{
    ck_assert_ptr_null(grammar_get(RULES_COUNT));
    ck_assert_ptr_null(grammar_get((enum rules)(RULES_COUNT + 1)));
    ck_assert_ptr_null(grammar_get((enum rules) - 1));
}
END_TEST

/* A one-line, non-empty, printable ASCII example. */
static void example_plain(const char *text)
{
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(text[0] != '\0', "empty example");
    for (const char *c = text; *c; c++)
        ck_assert_msg(*c >= 0x20 && *c < 0x7f, "\"%s\": not plain text", text);
}

/* The order `text` must be accepted for `rules`; with `same`, its normal
 * form must be `text` itself. */
static void example_order(enum rules rules, const char *text, size_t n, int same)
{
    char buf[64], order[64];
    struct order o;
    struct parse_error err = {0, 0, ""};

    ck_assert_uint_lt(n, sizeof(buf));
    memcpy(buf, text, n);
    buf[n] = '\0';
    ck_assert_msg(order_parse(rules, buf, &o, &err) == 0, "\"%s\" rejected: %s", buf, err.reason);
    order_format(&o, order, sizeof(order));
    if (same)
        ck_assert_str_eq(order, buf);
}

/* Each grammar's examples hold what struct grammar promises. */
START_TEST(grammar_examples_hold)
{
    enum rules rules = (enum rules)_i;
    const struct grammar *g = grammar_get(rules);
    struct sheet sh;
    struct parse_error err = {0, 0, ""};

    ck_assert_ptr_nonnull(g);
    ck_assert_ptr_nonnull(g->order_parse);
    ck_assert_ptr_nonnull(g->order_format);
    ck_assert_ptr_nonnull(g->sheet_parse);
    example_plain(g->order_example);
    example_plain(g->order_example_sim);
    example_plain(g->orders_example);
    example_plain(g->sheet_example);
    example_plain(g->create_example);
    example_plain(g->plan_example);
    example_order(rules, g->order_example, strlen(g->order_example), 1);
    example_order(rules, g->order_example_sim, strlen(g->order_example_sim), 1);
    example_order(rules, g->plan_example, strlen(g->plan_example), 0);

    const char *list = g->orders_example;
    size_t len = strlen(list);
    ck_assert_uint_ge(len, 3);
    ck_assert_int_eq(list[0], '\'');
    ck_assert_int_eq(list[len - 1], '\'');
    for (const char *p = list + 1, *end = list + len - 1; p < end;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        size_t n = comma ? (size_t)(comma - p) : (size_t)(end - p);

        example_order(rules, p, n, 0);
        p += n + 1;
    }

    /* 'Name key=value ...': the sheet is what follows the first space,
     * without the closing quote. */
    const char *sheet = g->sheet_example, *space = strchr(sheet, ' ');
    char buf[128];
    len = strlen(sheet);
    ck_assert_uint_lt(len, sizeof(buf));
    ck_assert_int_eq(sheet[0], '\'');
    ck_assert_int_eq(sheet[len - 1], '\'');
    ck_assert_ptr_nonnull(space);
    ck_assert_ptr_ne(space, sheet + 1);
    size_t n = strlen(space + 1) - 1;
    memcpy(buf, space + 1, n);
    buf[n] = '\0';
    ck_assert_msg(sheet_parse(rules, buf, &sh, &err) == 0, "\"%s\" rejected: %s", buf, err.reason);
    ck_assert_int_eq(sh.rules, rules);
}
END_TEST

Suite *parse_suite(void)
{
    Suite *s = suite_create("parse");
    TCase *tc = tcase_create("orders");

    tcase_add_test(tc, boxing_plain);
    tcase_add_test(tc, boxing_head_dirty_style);
    tcase_add_test(tc, boxing_body_style_without_space);
    tcase_add_test(tc, boxing_target_lowercase);
    tcase_add_test(tc, boxing_spacing);
    tcase_add_test(tc, boxing_limits);
    tcase_add_loop_test(tc, boxing_style_words, 0, STYLE_CASES);
    tcase_add_loop_test(tc, boxing_style_prefixes, 0, STYLE_CASES);
    tcase_add_loop_test(tc, boxing_style_case_and_longer, 0, STYLE_CASES);
    tcase_add_test(tc, boxing_style_mixed_case);
    tcase_add_test(tc, boxing_error_sum);
    tcase_add_test(tc, boxing_error_at_least_one);
    tcase_add_test(tc, boxing_error_too_big);
    tcase_add_test(tc, boxing_error_junk_after_def);
    tcase_add_test(tc, boxing_error_unknown_style);
    tcase_add_test(tc, boxing_error_style_shape);
    tcase_add_test(tc, boxing_error_empty);
    tcase_add_test(tc, boxing_error_shape);
    tcase_add_test(tc, boxing_error_control_characters);
    tcase_add_test(tc, order_error_leaves_order_alone);
    tcase_add_test(tc, sugarray_forms);
    tcase_add_test(tc, sugarray_limits);
    tcase_add_test(tc, sugarray_error_over);
    tcase_add_test(tc, sugarray_error_shape);
    tcase_add_test(tc, sugarray_error_junk);
    suite_add_tcase(s, tc);

    tc = tcase_create("format");
    tcase_add_test(tc, format_boxing);
    tcase_add_test(tc, format_style_names);
    tcase_add_test(tc, format_sugarray);
    tcase_add_test(tc, format_short_buffer);
    tcase_add_test(tc, roundtrip_boxing);
    tcase_add_test(tc, roundtrip_sugarray);
    tcase_add_test(tc, error_format);
    tcase_add_test(tc, error_format_lines);
    suite_add_tcase(s, tc);

    tc = tcase_create("sheets");
    tcase_add_test(tc, sheet_boxing);
    tcase_add_test(tc, sheet_sugarray);
    tcase_add_test(tc, sheet_error_missing);
    tcase_add_test(tc, sheet_error_unknown_key);
    tcase_add_test(tc, sheet_error_duplicate);
    tcase_add_test(tc, sheet_error_values);
    tcase_add_test(tc, sheet_error_not_a_pair);
    tcase_add_test(tc, sheet_error_leaves_sheet_alone);
    suite_add_tcase(s, tc);

    tc = tcase_create("grammars");
    tcase_add_test(tc, grammar_examples);
    tcase_add_test(tc, grammar_unknown_rules);
    tcase_add_loop_test(tc, grammar_examples_hold, 0, RULES_COUNT);
    suite_add_tcase(s, tc);
    return s;
}
