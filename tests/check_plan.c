/*
 * check_plan.c - unit tests of parse/plan.c, the fight-plan language
 * (docs/plans.md): the worked cases of rules.md 1.3, every variable, every
 * operator and the precedence between them, round tags, comments and
 * separators, every error reason with its line and column, the limits,
 * sugarray plans, plan_line/plan_explain/plan_summary, random evaluation,
 * and the corpus of plans in tests/plans (see tests/plans/README.md), read
 * relative to the working directory (make check runs from the top).
 */
#include <dirent.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "tests.h"
#include "util.h"

#define CORPUS_DIR  "tests/plans"
#define CORPUS_MIN  200
#define FILE_MAX    16384
#define VALUE_LIMIT 1e15 /* plan.c holds values within +/- this */

/* ------------------------------------------------------------ helpers */

static struct plan *compile_ok(enum rules rules, const char *text)
{
    struct parse_error err = {0, 0, ""};
    struct plan *p = plan_compile(rules, text, &err);

    ck_assert_msg(p != NULL, "plan \"%s\" rejected: line %d, column %d: %s", text, err.line,
                  err.column, err.reason);
    return p;
}

static void compile_bad(enum rules rules, const char *text, int line, int column,
                        const char *reason)
{
    struct parse_error err = {-7, -7, "untouched"};
    struct plan *p = plan_compile(rules, text, &err);

    ck_assert_msg(p == NULL, "plan \"%s\" accepted", text);
    ck_assert_str_eq(err.reason, reason);
    ck_assert_int_eq(err.line, line);
    ck_assert_int_eq(err.column, column);
    ck_assert_ptr_null(plan_compile(rules, text, NULL));
}

static void boxing_bad(const char *text, int line, int column, const char *reason)
{
    compile_bad(RULES_BOXING, text, line, column, reason);
}

/* The state plan_summary calls neutral, at round r. */
static struct plan_vars neutral(int round)
{
    struct plan_vars v;

    memset(&v, 0, sizeof(v));
    v.round = round;
    v.endurance = 100;
    v.endurance_percent = 100;
    v.opp = 2;
    return v;
}

/* The order *o as text, "towel" for a towel. */
static const char *order_text(const struct order *o, char *buf, size_t len)
{
    if (o->rules == RULES_BOXING && o->u.boxing.towel)
        snprintf(buf, len, "towel");
    else
        order_format(o, buf, len);
    return buf;
}

/* Checks that under *v the plan uses `line` and gives `order`. */
static void expect_vars(const struct plan *p, const struct plan_vars *v, int line,
                        const char *order)
{
    struct order o;
    char buf[64];
    int used = plan_eval(p, v, &o);

    ck_assert_msg(used == line, "round %d: line %d used, expected %d", v->round, used, line);
    ck_assert_str_eq(order_text(&o, buf, sizeof(buf)), order);
    ck_assert_int_eq(ruleset_get(o.rules)->order_valid(&o), 0);
}

static void expect_round(const struct plan *p, int round, int line, const char *order)
{
    struct plan_vars v = neutral(round);

    expect_vars(p, &v, line, order);
}

/* 1 if `cond` holds under *v (in a boxing plan). */
static int holds(const char *cond, const struct plan_vars *v)
{
    char text[4096];
    struct order o;

    snprintf(text, sizeof(text), "5/5/10; if %s then 4/8/8", cond);
    ck_assert_int_lt(strlen(text), sizeof(text) - 1);
    struct plan *p = compile_ok(RULES_BOXING, text);
    int line = plan_eval(p, v, &o);
    plan_free(p);
    ck_assert(line == 1 || line == 2);
    return line == 2;
}

static int holds_neutral(const char *cond)
{
    struct plan_vars v = neutral(4);

    return holds(cond, &v);
}

/* ------------------------------------------------- the worked cases */

START_TEST(worked_round_tags)
{
    struct plan *p = compile_ok(RULES_BOXING, "1)5/5/10; 2)4/8/8; 6)4/6/10");

    expect_round(p, 1, 1, "5/5/10");
    for (int r = 2; r <= 5; r++)
        expect_round(p, r, 2, "4/8/8");
    for (int r = 6; r <= 15; r++)
        expect_round(p, r, 3, "4/6/10");
    plan_free(p);
}
END_TEST

START_TEST(worked_last_line_wins)
{
    struct plan *p = compile_ok(RULES_BOXING, "4H/8/8 (inside); 4H/8/8 (ring)");
    struct plan_vars v;

    for (int r = 1; r <= 15; r++) {
        expect_round(p, r, 2, "4H/8/8 (ring)");
        v = neutral(r);
        v.endurance_percent = 10;
        v.opp = 0;
        v.score = -5;
        expect_vars(p, &v, 2, "4H/8/8 (ring)");
    }
    plan_free(p);
}
END_TEST

START_TEST(worked_towel_from_round_9)
{
    struct plan *p = compile_ok(
        RULES_BOXING, "1) 4B/8/8 (ring); 9) 8/4/8 (feint); if endurance_percent < 50 then towel");
    struct plan_vars v = neutral(5);
    struct order o;

    v.endurance_percent = 30;
    expect_vars(p, &v, 1, "4B/8/8 (ring)");
    v.round = 9;
    expect_vars(p, &v, 3, "towel");
    ck_assert_int_eq(plan_eval(p, &v, &o), 3);
    ck_assert_int_eq(o.rules, RULES_BOXING);
    ck_assert_int_eq(o.u.boxing.towel, 1);
    ck_assert_int_eq(o.u.boxing.agg, 5);
    ck_assert_int_eq(o.u.boxing.pow, 5);
    ck_assert_int_eq(o.u.boxing.def, 10);
    v.endurance_percent = 80;
    expect_vars(p, &v, 2, "8/4/8 (feint)");
    plan_free(p);
}
END_TEST

START_TEST(worked_threshold)
{
    struct plan *p =
        compile_ok(RULES_BOXING, "if endurance_percent > 100 - (round - 1)*4 then 5B/8/7 (ring)");
    struct plan_vars v = neutral(3);

    v.endurance_percent = 93;
    expect_vars(p, &v, 1, "5B/8/7 (ring)");
    v.endurance_percent = 92;
    expect_vars(p, &v, 0, "5/5/10");
    plan_free(p);
}
END_TEST

START_TEST(worked_rejected_zero)
{
    boxing_bad("0/10/10", 1, 1, "AGG must be at least 1");
}
END_TEST

START_TEST(worked_rejected_sum)
{
    boxing_bad("8/8/8", 1, 1, "AGG+POW+DEF = 24, the most is 20");
}
END_TEST

START_TEST(worked_rejected_junk)
{
    boxing_bad("4/8/8 xyz", 1, 7,
               "unexpected \"xyz\" after DEF; a style goes in parentheses, e.g. (inside)");
}
END_TEST

START_TEST(worked_rejected_unknown_variable)
{
    boxing_bad("if foo > 1 then 5/5/10", 1, 4,
               "unknown word \"foo\"; variables are round, roundswon, roundslost, score, end, "
               "endurance_percent, opp, mycuts, hiscuts, myknockdowns, hisknockdowns, warnings");
}
END_TEST

/* ----------------------------------------------------------- variables */

enum field_type { FIELD_INT, FIELD_DOUBLE };

static const struct {
    const char *name;
    size_t offset;
    enum field_type type;
} variables[] = {
    {"round", offsetof(struct plan_vars, round), FIELD_INT},
    {"roundswon", offsetof(struct plan_vars, rounds_won), FIELD_INT},
    {"roundslost", offsetof(struct plan_vars, rounds_lost), FIELD_INT},
    {"score", offsetof(struct plan_vars, score), FIELD_DOUBLE},
    {"endurance", offsetof(struct plan_vars, endurance), FIELD_DOUBLE},
    {"end", offsetof(struct plan_vars, endurance), FIELD_DOUBLE},
    {"endurance_percent", offsetof(struct plan_vars, endurance_percent), FIELD_INT},
    {"opp", offsetof(struct plan_vars, opp), FIELD_INT},
    {"opponent", offsetof(struct plan_vars, opp), FIELD_INT},
    {"mycuts", offsetof(struct plan_vars, my_cuts), FIELD_INT},
    {"hiscuts", offsetof(struct plan_vars, his_cuts), FIELD_INT},
    {"myknockdowns", offsetof(struct plan_vars, my_knockdowns), FIELD_INT},
    {"hisknockdowns", offsetof(struct plan_vars, his_knockdowns), FIELD_INT},
    {"warnings", offsetof(struct plan_vars, warnings), FIELD_INT},
    {"health", offsetof(struct plan_vars, health), FIELD_DOUBLE},
    {"hishealth", offsetof(struct plan_vars, his_health), FIELD_DOUBLE},
    {"energy", offsetof(struct plan_vars, energy), FIELD_DOUBLE},
    {"bleeding", offsetof(struct plan_vars, bleeding), FIELD_DOUBLE},
    {"stunned", offsetof(struct plan_vars, stunned), FIELD_INT},
};
#define VARIABLES ((int)(sizeof(variables) / sizeof(variables[0])))

static void field_set(struct plan_vars *v, int i, double x)
{
    char *at = (char *)v + variables[i].offset;
    int n = (int)x;

    if (variables[i].type == FIELD_INT)
        memcpy(at, &n, sizeof(n));
    else
        memcpy(at, &x, sizeof(x));
}

/* Each variable switches the line used, and only through its own field. */
START_TEST(variable_switches_line)
{
    char text[256];
    struct plan_vars v = neutral(7);

    /* The duel's own words are a duel plan's, fought with its orders. */
    int duel = _i >= VARIABLES - 5;
    snprintf(text, sizeof(text),
             duel ? "fight; if %s = 7 then yield; if %s > 40 then fight"
                  : "5/5/10; if %s = 7 then 4/8/8; if %s > 40 then 6H/6/8",
             variables[_i].name, variables[_i].name);
    struct plan *p = compile_ok(duel ? RULES_DUEL : RULES_BOXING, text);
    for (int i = 0; i < VARIABLES; i++)
        if (variables[i].offset != variables[_i].offset)
            field_set(&v, i, 3);
    field_set(&v, _i, 7);
    expect_vars(p, &v, 2, duel ? "yield" : "4/8/8");
    field_set(&v, _i, 6);
    expect_vars(p, &v, 1, duel ? "fight" : "5/5/10");
    field_set(&v, _i, 41);
    expect_vars(p, &v, 3, duel ? "fight" : "6H/6/8");
    plan_free(p);
    if (!duel && variables[_i].type == FIELD_DOUBLE) {
        field_set(&v, _i, 7.25);
        snprintf(text, sizeof(text), "%s = 7.25", variables[_i].name);
        ck_assert(holds(text, &v));
        snprintf(text, sizeof(text), "%s > 7.2 and %s < 7.3", variables[_i].name,
                 variables[_i].name);
        ck_assert(holds(text, &v));
    }
}
END_TEST

START_TEST(variable_constants)
{
    ck_assert(holds_neutral("strong = 2 and tired = 1 and weak = 0"));
    ck_assert(holds_neutral("opp is strong"));
    ck_assert(!holds_neutral("opp is tired"));
    ck_assert(holds_neutral("weak < tired and tired < strong"));
}
END_TEST

/* ----------------------------------------------------------- operators */

/* The members are read in loop tests, which cppcheck does not expand. */
static const struct {
    const char *cond; // cppcheck-suppress unusedStructMember
    int truth;        // cppcheck-suppress unusedStructMember
} operator_cases[] = {
    {"1 + 2 = 3", 1},
    {"5 - 7 = -2", 1},
    {"2 * 3 = 6", 1},
    {"7 / 2 = 3.5", 1},
    {"7 / 2 = 3", 0},
    {"3 = 3", 1},
    {"3 = 4", 0},
    {"3 != 4", 1},
    {"3 != 3", 0},
    {"3 < 4", 1},
    {"4 < 3", 0},
    {"3 < 3", 0},
    {"4 > 3", 1},
    {"3 > 3", 0},
    {"3 <= 3", 1},
    {"4 <= 3", 0},
    {"3 >= 3", 1},
    {"2 >= 3", 0},
    {"round is 4", 1},
    {"round is 5", 0},
    {"round is not 5", 1},
    {"round is not 4", 0},
    {"not 0", 1},
    {"not 1", 0},
    {"not 7", 0},
    {"1 and 1", 1},
    {"1 and 0", 0},
    {"0 and 1", 0},
    {"0 or 1", 1},
    {"1 or 0", 1},
    {"0 or 0", 0},
    {"-3 < 0", 1},
    {"- 3 = 0 - 3", 1},
    {"--3 = 3", 1},
    {"(1 + 2) * 3 = 9", 1},
    {"((((1))))", 1},
    {"0", 0},
    {"0.5", 1},
    {"2.5 * 2 = 5", 1},
    {"0.125 * 8 = 1", 1},
    {"1.0000000001 = 1", 1}, /* decimals after the ninth do not count */
    {"007 = 7", 1},
    {"1000000 = 1000000", 1},
    {"1 / 0 = 0", 1},
    {"0 / 0 = 0", 1},
    {"-5 / 0 = 0", 1},
    {"1 / (round - 4) = 0", 1},
    {"1000000 * 1000000 * 1000000 > 0", 1},
    {"1000000 * 1000000 * 1000000 = 1000000 * 1000000 * 1000", 1},
    {"0 - 1000000 * 1000000 * 1000000 * 10 = -1000000 * 1000000 * 1000", 1},
    {"1 / (1 / 1000000 / 1000000 / 1000000) = 1000000 * 1000000 * 1000", 1},
    {"(1 < 2) = 1", 1},
    {"(1 > 2) = 0", 1},
    {"(3 and 4) = 1", 1},
    {"(0 or 5) = 1", 1},
    {"round*2=8", 1},
};
#define OPERATOR_CASES ((int)(sizeof(operator_cases) / sizeof(operator_cases[0])))

START_TEST(operators)
{
    const char *cond = operator_cases[_i].cond;

    ck_assert_msg(holds_neutral(cond) == operator_cases[_i].truth, "\"%s\" should be %s", cond,
                  operator_cases[_i].truth ? "true" : "false");
}
END_TEST

/* Precedence, loosest first: or, and, not, comparisons, + -, * /, unary -.
 * "not" takes in a whole comparison: "not 1 = 2" is "not (1 = 2)". */
/* The members are read in loop tests, which cppcheck does not expand. */
static const struct {
    const char *cond; // cppcheck-suppress unusedStructMember
    int truth;        // cppcheck-suppress unusedStructMember
} precedence_cases[] = {
    {"1 + 2 * 3 = 7", 1},
    {"2 * 3 + 4 * 5 = 26", 1},
    {"(1 + 2) * 3 = 7", 0},
    {"not 1 = 2", 1},
    {"(not 1) = 2", 0},
    {"not 0 and 0", 0},
    {"not (0 and 0)", 1},
    {"not 0 or 0", 1},
    {"not not 1", 1},
    {"not not not 1", 0},
    {"-2 * -3 = 6", 1},
    {"- 2 * 3 = -6", 1},
    {"-2 - -3 = 1", 1},
    {"1 or 1 and 0", 1},
    {"(1 or 1) and 0", 0},
    {"0 and 0 or 1", 1},
    {"0 and (0 or 1)", 0},
    {"1 or 0 and 0", 1},
    {"10 - 4 - 3 = 3", 1},
    {"12 / 3 / 2 = 2", 1},
    {"12 / 3 * 2 = 8", 1},
    {"10 - 2 + 3 = 11", 1},
    {"1 + 1 > 1 and 2 > 1", 1},
    {"1 < 2 = 1", -1}, /* comparisons do not chain */
    {"round > 3 and round < 5 or round > 10", 1},
    {"round > 30 and round < 50 or round < 10", 1},
    {"round > 30 and (round < 50 or round < 10)", 0},
    {"not round > 5 and opp = 2", 1},
    {"not round < 5 and opp = 2", 0},
};
#define PRECEDENCE_CASES ((int)(sizeof(precedence_cases) / sizeof(precedence_cases[0])))

START_TEST(precedence)
{
    const char *cond = precedence_cases[_i].cond;

    if (precedence_cases[_i].truth < 0) {
        char text[128];

        snprintf(text, sizeof(text), "if %s then 5/5/10", cond);
        boxing_bad(text, 1, 10, "comparisons do not chain; write e.g. \"round > 3 and round < 8\"");
        return;
    }
    ck_assert_msg(holds_neutral(cond) == precedence_cases[_i].truth, "\"%s\" should be %s", cond,
                  precedence_cases[_i].truth ? "true" : "false");
}
END_TEST

START_TEST(values_stay_finite)
{
    struct plan_vars v = neutral(1);

    v.score = NAN;
    v.endurance = INFINITY;
    ck_assert(holds("score = 0", &v));
    ck_assert(holds("endurance = 1000000 * 1000000 * 1000", &v));
    v.endurance = -INFINITY;
    ck_assert(holds("endurance = 0 - 1000000 * 1000000 * 1000", &v));
    ck_assert(holds("endurance / endurance = 1", &v));
    ck_assert(holds("(0 / 0) * 5 = 0", &v));
    v.score = 1e300;
    ck_assert(holds("score * score = 1000000 * 1000000 * 1000", &v));
}
END_TEST

/* --------------------------------------------------- lines and round tags */

START_TEST(tags_persist)
{
    struct plan *p = compile_ok(RULES_BOXING, "5/5/10\n3) 4/8/8\n7/7/6 (ring)\n"
                                              "if opp = weak then 8/4/8\n8) 6/6/8\n");
    struct plan_vars v = neutral(4);

    expect_round(p, 1, 1, "5/5/10");
    expect_round(p, 2, 1, "5/5/10");
    for (int r = 3; r <= 7; r++)
        expect_round(p, r, 3, "7/7/6 (ring)");
    for (int r = 8; r <= 15; r++)
        expect_round(p, r, 5, "6/6/8");
    v.opp = 0;
    expect_vars(p, &v, 4, "8/4/8");
    v.round = 2;
    expect_vars(p, &v, 1, "5/5/10");
    plan_free(p);
}
END_TEST

START_TEST(tags_alone_on_a_line)
{
    struct plan *p = compile_ok(RULES_BOXING, "6)\n4/8/8\n5/5/10 (ring)\n10)\n# late\n9/1/1");

    for (int r = 1; r <= 5; r++)
        expect_round(p, r, 0, "5/5/10");
    for (int r = 6; r <= 9; r++)
        expect_round(p, r, 3, "5/5/10 (ring)");
    for (int r = 10; r <= 15; r++)
        expect_round(p, r, 6, "9/1/1");
    plan_free(p);
}
END_TEST

START_TEST(tags_going_down)
{
    struct plan *p = compile_ok(RULES_BOXING, "5) 4/8/8; 2) 7/7/6; 9/9/2");

    expect_round(p, 1, 0, "5/5/10");
    for (int r = 2; r <= 12; r++)
        expect_round(p, r, 3, "9/9/2");
    plan_free(p);
    p = compile_ok(RULES_BOXING, "5) 4/8/8; 2) 7/7/6");
    expect_round(p, 1, 0, "5/5/10");
    expect_round(p, 4, 2, "7/7/6");
    expect_round(p, 5, 2, "7/7/6");
    plan_free(p);
}
END_TEST

START_TEST(tags_spelling)
{
    struct plan *p = compile_ok(RULES_BOXING, "  02 )4/8/8;99)1/1/18;10) if round > 0 then 3/3/3");

    expect_round(p, 1, 0, "5/5/10");
    expect_round(p, 2, 1, "4/8/8");
    expect_round(p, 10, 3, "3/3/3");
    expect_round(p, 98, 3, "3/3/3");
    expect_round(p, 99, 3, "3/3/3");
    plan_free(p);
    p = compile_ok(RULES_BOXING, "99)1/1/18;10)3/3/3");
    expect_round(p, 99, 2, "3/3/3");
    plan_free(p);
}
END_TEST

/* No tag at all: a round 0 (never asked for by the engine) uses nothing. */
START_TEST(round_zero_uses_default)
{
    struct plan *p = compile_ok(RULES_BOXING, "4/8/8");

    expect_round(p, 0, 0, "5/5/10");
    expect_round(p, -3, 0, "5/5/10");
    expect_round(p, 1, 1, "4/8/8");
    plan_free(p);
}
END_TEST

START_TEST(comments_and_blank_lines)
{
    struct plan *p = compile_ok(RULES_BOXING, "# my plan for Rocky\n\n5/5/10 # safe start\n   \n"
                                              "3) 4/8/8 (ins) # push; 4) 6/6/8\n# the end\n");

    expect_round(p, 1, 3, "5/5/10");
    expect_round(p, 3, 5, "4/8/8 (inside)");
    expect_round(p, 4, 6, "6/6/8"); /* ';' ends a comment too */
    ck_assert_str_eq(plan_line(p, 1), "# my plan for Rocky");
    ck_assert_str_eq(plan_line(p, 2), "");
    ck_assert_str_eq(plan_line(p, 5), "3) 4/8/8 (ins) # push");
    ck_assert_str_eq(plan_line(p, 6), " 4) 6/6/8");
    ck_assert_str_eq(plan_line(p, 7), "# the end");
    ck_assert_str_eq(plan_line(p, 8), "");
    plan_free(p);
    p = compile_ok(RULES_BOXING, "if round > 2 then 4/8/8 # if foo then bar");
    expect_round(p, 3, 1, "4/8/8");
    plan_free(p);
    p = compile_ok(RULES_BOXING, "5/5/10#no space;4/8/8#");
    expect_round(p, 1, 2, "4/8/8");
    plan_free(p);
}
END_TEST

START_TEST(separators_mixed)
{
    struct plan *p = compile_ok(RULES_BOXING, "1) 5/5/10; 2) 4/8/8\n3) 6/6/8;4) 7/7/6\n\n;5)3/3/3");

    expect_round(p, 1, 1, "5/5/10");
    expect_round(p, 2, 2, "4/8/8");
    expect_round(p, 3, 3, "6/6/8");
    expect_round(p, 4, 4, "7/7/6");
    expect_round(p, 5, 7, "3/3/3");
    ck_assert_str_eq(plan_line(p, 5), "");
    ck_assert_str_eq(plan_line(p, 6), "");
    ck_assert_str_eq(plan_line(p, 7), "5)3/3/3");
    plan_free(p);
    p = compile_ok(RULES_BOXING, "1) 5/5/10\r\n2) 4/8/8\r\n\r\n3) 6/6/8 (ring)\r\n");
    expect_round(p, 3, 4, "6/6/8 (ring)");
    ck_assert_str_eq(plan_line(p, 2), "2) 4/8/8");
    ck_assert_str_eq(plan_line(p, 3), "");
    ck_assert_str_eq(plan_line(p, 5), "");
    plan_free(p);
}
END_TEST

START_TEST(case_insensitive)
{
    struct plan *p = compile_ok(
        RULES_BOXING, "5/5/10\nIF Endurance_Percent < 50 AND OPP IS WEAK THEN 4h/8!/8 (INSIDE)\n"
                      "If ROUND > 10 Or NOT Opponent Is Strong Then TOWEL\n"
                      "if END < 20 and MyCuts >= 2 and HISCUTS = 0 then 3B/3/14 (Clinch)");
    struct plan_vars v = neutral(3);

    expect_vars(p, &v, 1, "5/5/10");
    v.endurance_percent = 40;
    v.opp = 0;
    expect_vars(p, &v, 3, "towel");
    v.opp = 2;
    v.endurance_percent = 40;
    expect_vars(p, &v, 1, "5/5/10");
    v.round = 11;
    expect_vars(p, &v, 3, "towel");
    v.round = 2;
    v.endurance = 15;
    v.my_cuts = 3;
    expect_vars(p, &v, 4, "3B/3/14 (clinch)");
    plan_free(p);
    ck_assert(holds_neutral("ROUNDSWON = 0 And RoundsLost = 0 aNd SCORE = 0 and "
                            "myKnockdowns = 0 and HisKnockDowns = 0 and WARNINGS = 0"));
    ck_assert(holds_neutral("Strong = 2 and TIRED = 1 and weaK = 0 and not 0 OR 0"));
}
END_TEST

START_TEST(spacing)
{
    struct plan *p = compile_ok(RULES_BOXING, "\t3)\tif(round>=3)and(opp<=1)then 4/8/8(ring)  ");
    struct plan_vars v = neutral(3);

    v.opp = 1;
    expect_vars(p, &v, 1, "4/8/8 (ring)");
    plan_free(p);
    p = compile_ok(RULES_BOXING, "if round*2-1>=5 then 7/7/6");
    expect_round(p, 3, 1, "7/7/6");
    expect_round(p, 2, 0, "5/5/10");
    plan_free(p);
}
END_TEST

/* ---------------------------------------------------------------- errors */

static const char *const unknown_tail =
    "; variables are round, roundswon, roundslost, score, end, endurance_percent, opp, mycuts, "
    "hiscuts, myknockdowns, hisknockdowns, warnings";

static const struct {
    enum rules rules;
    const char *text;
    int line, column;
    const char *reason;
} error_cases[] = {
    /* orders, with the plan's line and the column in the line */
    {RULES_BOXING, "5/5/10\n3) 4/8/8 xyz", 2, 10,
     "unexpected \"xyz\" after DEF; a style goes in parentheses, e.g. (inside)"},
    {RULES_BOXING, "5/5/10; 3) if round > 2 then 8/8/8 (ring)", 2, 23,
     "AGG+POW+DEF = 24, the most is 20"},
    {RULES_BOXING, "if round > 3 then 4/8/8 (xyz)", 1, 26,
     "unknown style \"xyz\"; use inside, clinch, feint, counter, ring, cut, outside or allout"},
    {RULES_BOXING, "2) 5/0/5 # no power", 1, 6, "POW must be at least 1"},
    {RULES_BOXING, "5/5", 1, 4, "expected AGG[H|B]/POW[!]/DEF [(style)], e.g. 4H/8!/8 (inside)"},
    {RULES_BOXING, "3/3", 1, 4, "expected AGG[H|B]/POW[!]/DEF [(style)], e.g. 4H/8!/8 (inside)"},
    {RULES_BOXING, "when round > 3 then 5/5/10", 1, 1,
     "expected AGG[H|B]/POW[!]/DEF [(style)], e.g. 4H/8!/8 (inside)"},
    {RULES_BOXING, "if round > 3 then if round > 4 then 5/5/10", 1, 19,
     "expected AGG[H|B]/POW[!]/DEF [(style)], e.g. 4H/8!/8 (inside)"},
    {RULES_BOXING, "1) 2) 5/5/10", 1, 5,
     "expected AGG[H|B]/POW[!]/DEF [(style)], e.g. 4H/8!/8 (inside)"},
    {RULES_SUGARRAY, "3/3\n\n4) 120/3", 3, 4, "attack 120 is over 99"},
    {RULES_SUGARRAY, "if score < 0 then 6/0 x", 1, 23,
     "unexpected \"x\" after defence; expected attack/defence, e.g. 3/2"},
    {RULES_SUGARRAY, "5/5/10", 1, 4,
     "unexpected \"/10\" after defence; expected attack/defence, e.g. 3/2"},
    /* round tags */
    {RULES_BOXING, "0) 5/5/10", 1, 1, "round tag 0: rounds start at 1"},
    {RULES_BOXING, "5/5/10\n  00) 4/8/8", 2, 3, "round tag 0: rounds start at 1"},
    {RULES_BOXING, "120) 5/5/10", 1, 1, "round tag 120 is over 99"},
    {RULES_BOXING, "5/5/10; 100)", 2, 2, "round tag 100 is over 99"},
    {RULES_BOXING, "99999999999999999999999999999) 5/5/10", 1, 1,
     "round tag 999999999999999999999... is over 99"},
    /* conditions */
    {RULES_BOXING, "if foo > 1 then 5/5/10", 1, 4, NULL},
    {RULES_BOXING, "if round > 3 5/5/10", 1, 14, "missing \"then\" after the condition"},
    {RULES_BOXING, "if round > 3", 1, 13, "missing \"then\" after the condition"},
    {RULES_BOXING, "if round > 3   # then 5/5/10", 1, 13, "missing \"then\" after the condition"},
    {RULES_BOXING, "if round > 3 than 5/5/10", 1, 14, "missing \"then\" after the condition"},
    {RULES_BOXING, "if round > 3 then5/5/10", 1, 14, "missing \"then\" after the condition"},
    {RULES_BOXING, "if (round > 3 then 5/5/10", 1, 4,
     "unbalanced parenthesis: this \"(\" is never closed"},
    {RULES_BOXING, "if ((round > 3) then 5/5/10", 1, 4,
     "unbalanced parenthesis: this \"(\" is never closed"},
    {RULES_BOXING, "if round > 3) then 5/5/10", 1, 13,
     "unbalanced parenthesis: this \")\" has no \"(\""},
    {RULES_BOXING, "if round > 3 then", 1, 18,
     "nothing after \"then\"; write an order like 5/5/10 or \"towel\""},
    {RULES_BOXING, "if round > 3 then   # later", 1, 18,
     "nothing after \"then\"; write an order like 5/5/10 or \"towel\""},
    {RULES_SUGARRAY, "if round > 3 then", 1, 18, "nothing after \"then\"; write an order like 3/3"},
    {RULES_BOXING, "if round > then 5/5/10", 1, 12,
     "expected a number, a variable or \"(\" at \"then\""},
    {RULES_BOXING, "if then 5/5/10", 1, 4, "expected a number, a variable or \"(\" at \"then\""},
    {RULES_BOXING, "if round > 3 and then 5/5/10", 1, 18,
     "expected a number, a variable or \"(\" at \"then\""},
    {RULES_BOXING, "if round is is 3 then 5/5/10", 1, 13,
     "expected a number, a variable or \"(\" at \"is\""},
    {RULES_BOXING, "if round > () then 5/5/10", 1, 13,
     "expected a number, a variable or \"(\" at \")\""},
    {RULES_BOXING, "if round > > 3 then 5/5/10", 1, 12,
     "expected a number, a variable or \"(\" at \">\""},
    {RULES_BOXING, "if + 3 then 5/5/10", 1, 4, "expected a number, a variable or \"(\" at \"+\""},
    {RULES_BOXING, "if 1 = not 0 then 5/5/10", 1, 8,
     "expected a number, a variable or \"(\" at \"not\""},
    {RULES_BOXING, "if", 1, 3, "expected a number, a variable or \"(\" at the end of the line"},
    {RULES_BOXING, "if round >", 1, 11,
     "expected a number, a variable or \"(\" at the end of the line"},
    {RULES_BOXING, "if 1 < 2 < 3 then 5/5/10", 1, 10,
     "comparisons do not chain; write e.g. \"round > 3 and round < 8\""},
    {RULES_BOXING, "if round is 3 = 1 then 5/5/10", 1, 15,
     "comparisons do not chain; write e.g. \"round > 3 and round < 8\""},
    {RULES_BOXING, "if round & 3 then 5/5/10", 1, 10, "unexpected \"&\" in the condition"},
    {RULES_BOXING, "if round == 3 then 5/5/10", 1, 11,
     "expected a number, a variable or \"(\" at \"=\""},
    {RULES_BOXING, "if round ! 3 then 5/5/10", 1, 10, "unexpected \"!\" in the condition"},
    {RULES_BOXING, "if round > .5 then 5/5/10", 1, 12, "unexpected \".\" in the condition"},
    {RULES_BOXING, "if round > \xc3\xa9 then 5/5/10", 1, 12,
     "unexpected \"\xc3\xa9\" in the condition"},
    {RULES_BOXING, "if round > \x01 then 5/5/10", 1, 12, "unexpected \"?\" in the condition"},
    {RULES_BOXING, "if round > 3. then 5/5/10", 1, 13,
     "expected a digit after \".\"; write decimals as e.g. 2.5"},
    {RULES_BOXING, "if round>=4and round<=4 then 5/5/10", 1, 11,
     "\"4and\" is not a number; put a space or an operator after a number"},
    {RULES_BOXING, "if round > 3x then 5/5/10", 1, 12,
     "\"3x\" is not a number; put a space or an operator after a number"},
    {RULES_BOXING, "if round > 2.5e3 then 5/5/10", 1, 12,
     "\"2.5e3\" is not a number; put a space or an operator after a number"},
    {RULES_BOXING, "if round > 1000001 then 5/5/10", 1, 12,
     "number 1000001 is too big; the most is 1000000"},
    {RULES_BOXING, "if round > 99999999999999999999999999999 then 5/5/10", 1, 12,
     "number 999999999999999999999... is too big; the most is 1000000"},
    {RULES_BOXING, "if towel then 5/5/10", 1, 4, NULL},
    {RULES_BOXING, "if round > 3 then towel now", 1, 25,
     "unexpected \"now\" after \"towel\"; the line ends with towel"},
    {RULES_BOXING, "towel", 1, 1,
     "\"towel\" needs a condition: write \"if <condition> then towel\""},
    {RULES_BOXING, "9) Towel # give up", 1, 4,
     "\"towel\" needs a condition: write \"if <condition> then towel\""},
    {RULES_SUGARRAY, "1) 3/3; 4) if score < 0 then towel", 2, 23,
     "\"towel\" is for boxing; a sugarray plan cannot throw in the towel"},
    {RULES_SUGARRAY, "3/3; towel", 2, 2,
     "\"towel\" is for boxing; a sugarray plan cannot throw in the towel"},
    /* the plan as a whole */
    {RULES_BOXING, "", 0, 0, "the plan has no orders; write at least one line like 5/5/10"},
    {RULES_BOXING, "# only a comment\n\n6)\n", 0, 0,
     "the plan has no orders; write at least one line like 5/5/10"},
    {RULES_SUGARRAY, " ; ;", 0, 0, "the plan has no orders; write at least one line like 3/3"},
    {RULES_COUNT, "5/5/10", 0, 0, "this ruleset has no plans"},
    /* the first error wins */
    {RULES_BOXING, "8/8/8; if foo then 0/1/1", 1, 1, "AGG+POW+DEF = 24, the most is 20"},
    {RULES_BOXING, "5/5/10\n\n# x\nif foo then 0/1/1; 8/8/8", 4, 4, NULL},
};
#define ERROR_CASES ((int)(sizeof(error_cases) / sizeof(error_cases[0])))

START_TEST(errors)
{
    char want[PARSE_REASON_MAX];
    const char *reason = error_cases[_i].reason;

    if (!reason) { /* an unknown word: quote it and list the variables */
        const char *w = strstr(error_cases[_i].text, "if ") + 3;
        snprintf(want, sizeof(want), "unknown word \"%.*s\"%s", (int)strcspn(w, " "), w,
                 unknown_tail);
        reason = want;
    }
    compile_bad(error_cases[_i].rules, error_cases[_i].text, error_cases[_i].line,
                error_cases[_i].column, reason);
}
END_TEST

/* A long unknown word is cut so that the list of variables fits. */
START_TEST(error_unknown_long_word)
{
    char want[PARSE_REASON_MAX];

    snprintf(want, sizeof(want), "unknown word \"endur...\"%s", unknown_tail);
    ck_assert_uint_le(strlen(want), PARSE_REASON_MAX - 1);
    boxing_bad("5/5/10;if enduranceeeeeeee_percent > 1 then 5/5/10", 2, 4, want);
    snprintf(want, sizeof(want), "unknown word \"roundwon\"%s", unknown_tail);
    ck_assert_int_eq(strlen(want), PARSE_REASON_MAX - 1);
    boxing_bad("if roundwon > 1 then 5/5/10", 1, 4, want);
}
END_TEST

/* Parentheses nest up to 20 deep. */
START_TEST(error_nesting)
{
    char text[256], cond[128];
    struct str t;

    str_init_fixed(&t, cond, sizeof(cond));
    str_repeat(&t, "(", 20);
    str_cat(&t, "1");
    str_repeat(&t, ")", 20);
    ck_assert(holds_neutral(cond));
    snprintf(text, sizeof(text), "if (%s) then 5/5/10", cond);
    boxing_bad(text, 1, 24, "parentheses nested too deep; the most is 20");
}
END_TEST

/* The deepest value stack the limits allow evaluates correctly. */
START_TEST(deep_stack)
{
    char cond[2048];
    struct str t;

    str_init_fixed(&t, cond, sizeof(cond));
    str_repeat(&t, "0 or 1 and 2 = 1 + 1 * (", 20);
    str_cat(&t, "1");
    str_repeat(&t, ")", 20);
    ck_assert_uint_lt(t.need, sizeof(cond) - 1);
    ck_assert(holds_neutral(cond));
}
END_TEST

START_TEST(error_leaves_nothing)
{
    struct parse_error err;

    ck_assert_ptr_null(plan_compile(RULES_BOXING, "5/5/10; 8/8/8", &err));
    ck_assert_ptr_null(plan_compile(RULES_BOXING, "5/5/10; 8/8/8", NULL));
    plan_free(NULL);
}
END_TEST

/* ---------------------------------------------------------------- limits */

/* A plan of `lines` lines (the last one an order) of exactly `bytes` bytes
 * when bytes > 0, in buf. */
static void plan_of(char *buf, size_t size, int lines, size_t bytes, char sep)
{
    struct str t;

    str_init_fixed(&t, buf, size);
    for (int i = 0; i < lines - 1; i++)
        str_add(&t, "%d) 4/8/8%c", i % 99 + 1, sep);
    str_cat(&t, "5/5/10 #");
    while (bytes > 0 && t.len < bytes && t.len + 1 < size)
        str_ch(&t, 'x');
}

START_TEST(limit_lines)
{
    char buf[PLAN_BYTES_MAX * 2];
    struct plan *p;

    plan_of(buf, sizeof(buf), PLAN_LINES_MAX, 0, '\n');
    p = compile_ok(RULES_BOXING, buf);
    expect_round(p, 1, PLAN_LINES_MAX, "5/5/10");
    ck_assert_str_eq(plan_line(p, PLAN_LINES_MAX), "5/5/10 #");
    ck_assert_str_eq(plan_line(p, PLAN_LINES_MAX + 1), "");
    plan_free(p);
    strcat(buf, "\n"); /* a final newline ends the last line */
    plan_free(compile_ok(RULES_BOXING, buf));
    plan_of(buf, sizeof(buf), PLAN_LINES_MAX + 1, 0, ';');
    boxing_bad(buf, 0, 0, "plan has 201 lines, the most is 200");
    strcpy(buf, "5/5/10");
    for (int i = 1; i < PLAN_LINES_MAX; i++)
        strcat(buf, ";");
    plan_free(compile_ok(RULES_BOXING, buf));
    strcat(buf, ";;");
    boxing_bad(buf, 0, 0, "plan has 201 lines, the most is 200");
}
END_TEST

START_TEST(limit_bytes)
{
    char buf[PLAN_BYTES_MAX * 2];
    struct plan *p;

    plan_of(buf, sizeof(buf), 10, PLAN_BYTES_MAX, '\n');
    ck_assert_int_eq(strlen(buf), PLAN_BYTES_MAX);
    p = compile_ok(RULES_BOXING, buf);
    expect_round(p, 8, 8, "4/8/8");
    expect_round(p, 9, 10, "5/5/10");
    plan_free(p);
    plan_of(buf, sizeof(buf), 10, PLAN_BYTES_MAX + 1, '\n');
    boxing_bad(buf, 0, 0, "plan is 8193 bytes, the most is 8192");
    plan_of(buf, sizeof(buf), 10, 9000, '\n');
    boxing_bad(buf, 0, 0, "plan is 9000 bytes, the most is 8192");
    /* one line of 8192 bytes, a long condition in it */
    struct str t;
    str_init_fixed(&t, buf, sizeof(buf));
    str_cat(&t, "if 1");
    while (t.len + 40 < PLAN_BYTES_MAX)
        str_cat(&t, " + round * 1");
    str_cat(&t, " > 5 then 4/8/8 #");
    while (t.len < PLAN_BYTES_MAX)
        str_ch(&t, '#');
    p = compile_ok(RULES_BOXING, buf);
    expect_round(p, 1, 1, "4/8/8");
    plan_free(p);
}
END_TEST

/* -------------------------------------------------------------- sugarray */

START_TEST(sugarray_plan)
{
    struct plan *p = compile_ok(RULES_SUGARRAY, "1) 3/3; 4) if score < 0 then 6/0");
    struct plan_vars v = neutral(1);
    struct order o;

    for (int r = 1; r <= 5; r++)
        expect_round(p, r, 1, "3/3");
    v.round = 4;
    v.score = -1;
    expect_vars(p, &v, 2, "6/0");
    v.round = 3;
    expect_vars(p, &v, 1, "3/3");
    plan_free(p);
    p = compile_ok(RULES_SUGARRAY, "2) if opp is weak then 9 0; 4 4 # spaces work");
    v = neutral(1);
    expect_vars(p, &v, 0, "0/0");
    v.round = 2;
    expect_vars(p, &v, 2, "4/4");
    plan_free(p);
    p = compile_ok(RULES_SUGARRAY, "5) 0/99");
    ck_assert_int_eq(plan_eval(p, &v, &o), 0);
    ck_assert_int_eq(o.rules, RULES_SUGARRAY);
    ck_assert_int_eq(o.u.sugarray.attack, 0);
    ck_assert_int_eq(o.u.sugarray.defence, 0);
    plan_free(p);
}
END_TEST

START_TEST(sugarray_towel_refused)
{
    compile_bad(RULES_SUGARRAY, "3/3; if endurance_percent < 30 then towel", 2, 33,
                "\"towel\" is for boxing; a sugarray plan cannot throw in the towel");
    compile_bad(RULES_SUGARRAY, "towel", 1, 1,
                "\"towel\" is for boxing; a sugarray plan cannot throw in the towel");
}
END_TEST

/* ------------------------------------------------- line, explain, summary */

START_TEST(line_as_written)
{
    struct plan *p = compile_ok(RULES_BOXING, "  1) 5/5/10  ;2) 4/8/8 # hi\n\n# end");

    ck_assert_str_eq(plan_line(p, 1), "  1) 5/5/10  ");
    ck_assert_str_eq(plan_line(p, 2), "2) 4/8/8 # hi");
    ck_assert_str_eq(plan_line(p, 3), "");
    ck_assert_str_eq(plan_line(p, 4), "# end");
    ck_assert_str_eq(plan_line(p, 0), "");
    ck_assert_str_eq(plan_line(p, 5), "");
    ck_assert_str_eq(plan_line(p, -1), "");
    plan_free(p);
}
END_TEST

static void explain_is(const struct plan *p, int line, const struct plan_vars *v, const char *want)
{
    char buf[512];
    int n = plan_explain(p, line, v, buf, sizeof(buf));

    ck_assert_str_eq(buf, want);
    ck_assert_int_eq(n, (int)strlen(want));
}

START_TEST(explain)
{
    struct plan *p = compile_ok(
        RULES_BOXING, "1) 4B/8/8 (ring); 9) 8/4/8 (feint); if endurance_percent < 50 then towel");
    struct plan_vars v = neutral(9);

    v.endurance_percent = 45;
    ck_assert_int_eq(plan_eval(p, &v, &(struct order){0}), 3);
    explain_is(p, 3, &v,
               "line 3 \"if endurance_percent < 50 then towel\": from round 9; "
               "endurance_percent = 45, so the condition holds");
    v.endurance_percent = 80;
    explain_is(p, 3, &v,
               "line 3 \"if endurance_percent < 50 then towel\": from round 9; "
               "endurance_percent = 80, so the condition does not hold");
    explain_is(p, 2, &v, "line 2 \"9) 8/4/8 (feint)\": from round 9");
    explain_is(p, 1, &v, "line 1 \"1) 4B/8/8 (ring)\": from round 1");
    explain_is(p, 0, &v, "no line applies: default 5/5/10");
    explain_is(p, 4, &v, "there is no line 4");
    explain_is(p, -1, &v, "there is no line -1");
    plan_free(p);
}
END_TEST

START_TEST(explain_variables)
{
    struct plan *p =
        compile_ok(RULES_BOXING, "# x\n3) if Score < 0.5 and END/2 > round or score = -1 or "
                                 "opp = strong then 4/8/8");
    struct plan_vars v = neutral(4);

    v.score = -1.0 / 3;
    v.endurance = 87.5;
    v.opp = 1;
    explain_is(p, 2, &v,
               "line 2 \"3) if Score < 0.5 and END/2 > round or score = -1 or opp = strong then "
               "4/8/8\": from round 3; score = -0.333333, end = 87.5, round = 4, opp = 1, so "
               "the condition holds");
    explain_is(p, 1, &v, "line 1 \"# x\" has no order");
    plan_free(p);
    p = compile_ok(RULES_BOXING, "if 2 > 1 then 4/8/8; if (1) then 5/5/10 (ring)");
    explain_is(p, 1, &v, "line 1 \"if 2 > 1 then 4/8/8\": from round 1; the condition holds");
    plan_free(p);
    p = compile_ok(RULES_SUGARRAY, "2) 3/3");
    explain_is(p, 0, &v, "no line applies: default 0/0");
    plan_free(p);
}
END_TEST

START_TEST(explain_long_and_short)
{
    char text[512], want[512], buf[256], small[16];
    struct plan_vars v = neutral(2);
    char comment[101];

    memset(comment, 'a', 100);
    comment[100] = '\0';
    snprintf(text, sizeof(text), "\t5/5/10 # %s \t", comment);
    snprintf(want, sizeof(want), "line 1 \"5/5/10 # %.68s...\": from round 1", comment);
    struct plan *p = compile_ok(RULES_BOXING, text);
    int n = plan_explain(p, 1, &v, buf, sizeof(buf));
    ck_assert_str_eq(buf, want);
    ck_assert_int_eq(n, (int)strlen(buf));
    memset(small, 'z', sizeof(small));
    ck_assert_int_eq(plan_explain(p, 1, &v, small, 10), n);
    ck_assert_str_eq(small, "line 1 \"5");
    ck_assert_int_eq(small[10], 'z');
    ck_assert_int_eq(plan_explain(p, 1, &v, NULL, 0), n);
    plan_free(p);
    p = compile_ok(RULES_BOXING, "5/5/10 # \x01\x7f");
    plan_explain(p, 1, &v, buf, sizeof(buf));
    ck_assert_str_eq(buf, "line 1 \"5/5/10 # ??\": from round 1");
    plan_free(p);
}
END_TEST

static void summary_is(enum rules rules, const char *text, const char *want)
{
    char buf[1024];
    struct plan *p = compile_ok(rules, text);
    int n = plan_summary(p, buf, sizeof(buf));

    ck_assert_str_eq(buf, want);
    ck_assert_int_eq(n, (int)strlen(want));
    plan_free(p);
}

START_TEST(summary)
{
    summary_is(RULES_BOXING, "1)5/5/10; 2)4/8/8; 6)4/6/10",
               "round 1: line 1 (5/5/10); rounds 2-5: line 2 (4/8/8); rounds 6-12: line 3 "
               "(4/6/10)");
    summary_is(RULES_BOXING, "1) 5/5/10; 6) 4/6/10 (ring)",
               "rounds 1-5: line 1 (5/5/10); rounds 6-12: line 2 (4/6/10 (ring))");
    summary_is(RULES_BOXING, "4) 4H/8!/8 (ins); 12) 9/9/2",
               "rounds 1-3: default (5/5/10); rounds 4-11: line 1 (4H/8!/8 (inside)); round 12: "
               "line 2 (9/9/2)");
    summary_is(RULES_BOXING, "13) 9/9/2",
               "rounds 1-12: default (5/5/10); from round 13 (longer bouts): line 1 (13) 9/9/2)");
    summary_is(RULES_BOXING,
               "5/5/10; if round >= 10 then towel; if endurance_percent < 50 then "
               "towel",
               "rounds 1-9: line 1 (5/5/10); rounds 10-12: line 2 (towel); line 3 when its "
               "condition holds: if endurance_percent < 50 then towel");
    summary_is(RULES_BOXING, "if round = 1 or round = 3 then 4/8/8; 2) 6/6/8",
               "round 1: line 1 (4/8/8); rounds 2-12: line 2 (6/6/8)");
    summary_is(RULES_BOXING, "if round = 1 or round = 3 then 4/8/8; 2) if round = 2 then 6/6/8",
               "round 1: line 1 (4/8/8); round 2: line 2 (6/6/8); round 3: line 1 (4/8/8); "
               "rounds 4-12: default (5/5/10)");
    summary_is(RULES_BOXING,
               "if opp = strong and score = 0 and roundswon = 0 and roundslost = 0 and end = 100 "
               "and endurance_percent = 100 and mycuts + hiscuts + myknockdowns + hisknockdowns + "
               "warnings = 0 then 3/3/3",
               "rounds 1-12: line 1 (3/3/3)");
    summary_is(RULES_SUGARRAY, "1) 3/3; 4) if score < 0 then 6/0; 5) 9/0",
               "rounds 1-4: line 1 (3/3); round 5: line 3 (9/0); line 2 when its condition holds: "
               "4) if score < 0 then 6/0");
    summary_is(RULES_BOXING, "5/5/10; 6/6/8",
               "rounds 1-12: line 2 (6/6/8); line 1 never fights (a later line always applies): "
               "5/5/10");
    /* A duel has no fixed length: it goes on until one falls or yields. */
    summary_is(RULES_DUEL, "if health < 20 then yield",
               "every round until one falls or yields: default (fight); line 1 when its "
               "condition holds: if health < 20 then yield");
    summary_is(RULES_DUEL, "fight; 8) yield",
               "rounds 1-7: line 1 (fight); from round 8 on: line 2 (yield)");
}
END_TEST

START_TEST(summary_short_buffer)
{
    static const char want[] =
        "round 1: line 1 (5/5/10); rounds 2-5: line 2 (4/8/8); rounds 6-12: line 3 (4/6/10)";
    struct plan *p = compile_ok(RULES_BOXING, "1)5/5/10; 2)4/8/8; 6)4/6/10");
    char buf[12];
    int n = plan_summary(p, NULL, 0);

    ck_assert_int_eq(n, (int)strlen(want));
    memset(buf, 'z', sizeof(buf));
    ck_assert_int_eq(plan_summary(p, buf, 8), n);
    ck_assert_str_eq(buf, "round 1");
    ck_assert_int_eq(buf[8], 'z');
    plan_free(p);
}
END_TEST

/* ------------------------------------------------------------- random */

static unsigned long long random_state = 88172645463325252ULL;

static unsigned long long random_next(void)
{
    random_state ^= random_state << 13;
    random_state ^= random_state >> 7;
    random_state ^= random_state << 17;
    return random_state;
}

static int random_int(int lo, int hi)
{
    return lo + (int)(random_next() % (unsigned long long)(hi - lo + 1));
}

static double random_double(void)
{
    switch (random_int(0, 9)) {
    case 0:
        return NAN;
    case 1:
        return random_int(0, 1) ? INFINITY : -INFINITY;
    case 2:
        return random_int(0, 1) ? 1e300 : -1e300;
    default:
        return random_int(-100000, 100000) / 1000.0;
    }
}

static int random_field(void)
{
    switch (random_int(0, 9)) {
    case 0:
        return random_int(0, 1) ? 2147483647 : -2147483647 - 1;
    default:
        return random_int(-5, 120);
    }
}

/* Many random states against plans that use every variable: every order
 * is legal, towels only come from towel lines, and the line is in range. */
START_TEST(random_evaluation)
{
    static const char *const plans[] = {
        "1) 5/5/10\n2) if round > 3 and opp = strong then 4H/8!/8 (inside)\n"
        "3) if score < -1.5 or roundslost > roundswon then 6B/6/8 (allout)\n"
        "if end / endurance_percent > 0.5 then 3/3/14 (clinch)\n"
        "if mycuts * 2 - hiscuts >= 3 or myknockdowns != hisknockdowns then towel\n"
        "9) if not warnings < 3 then 1/1/1 (feint)\n"
        "if (round - 1) / (opp - 1) > 2 then 18/1/1\n"
        "12) if -score * -score > 100 / (roundswon - roundslost) then towel",
        "if opponent is not weak then 7/7/6; if end <= 0 then towel; 15) 2/2/2",
    };
    static const char *const sugarray = "1) 3/3\n2) if score < 0 then 6/0\n"
                                        "3) if endurance_percent / (round - 3) > 20 then 0/99\n"
                                        "if opp = weak or end < 5 then 99 99";
    int seen[16] = {0};

    for (int k = 0; k < 3; k++) {
        enum rules rules = k < 2 ? RULES_BOXING : RULES_SUGARRAY;
        struct plan *p = compile_ok(rules, k < 2 ? plans[k] : sugarray);
        const struct ruleset *rs = ruleset_get(rules);

        for (int i = 0; i < 40000; i++) {
            struct plan_vars v;
            struct order o;
            char buf[256];

            v.round = random_int(0, 3) ? random_int(1, 15) : random_field();
            v.rounds_won = random_field();
            v.rounds_lost = random_field();
            v.score = random_double();
            v.endurance = random_double();
            v.endurance_percent = random_field();
            v.opp = random_int(0, 5) ? random_int(0, 2) : random_field();
            v.my_cuts = random_field();
            v.his_cuts = random_field();
            v.my_knockdowns = random_field();
            v.his_knockdowns = random_field();
            v.warnings = random_field();
            int line = plan_eval(p, &v, &o);
            REQUIRE(line >= 0 && line <= 8);
            REQUIRE(o.rules == rules);
            REQUIRE(rs->order_valid(&o) == 0);
            REQUIRE(rules == RULES_SUGARRAY || !o.u.boxing.towel ||
                    strstr(plan_line(p, line), "towel"));
            int n = plan_explain(p, line, &v, buf, sizeof(buf));
            REQUIRE(n > 0 && (size_t)n == strlen(buf));
            REQUIRE(strstr(buf, "nan") == NULL && strstr(buf, "inf") == NULL);
            if (k == 0)
                seen[line]++;
        }
        plan_free(p);
    }
    for (int line = 0; line <= 8; line++)
        ck_assert_msg(seen[line] > 0, "line %d never used", line);
}
END_TEST

/* --------------------------------------------------------------- corpus */

struct corpus {
    int valid, invalid;
};

/* Reads a whole file into buf (NUL-terminated); returns its length or -1. */
static long file_read(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t n;

    if (!f)
        return -1;
    n = fread(buf, 1, size - 1, f);
    int more = fgetc(f) != EOF;
    fclose(f);
    if (more || memchr(buf, '\0', n))
        return -1;
    buf[n] = '\0';
    return (long)n;
}

/* Sets the variable `key` of *v; returns 0, or -1 for an unknown key. */
static int corpus_var(struct plan_vars *v, const char *key, double x)
{
    for (int i = 0; i < VARIABLES; i++)
        if (strcmp(variables[i].name, key) == 0) {
            field_set(v, i, x);
            return 0;
        }
    return -1;
}

/* Checks a valid plan against its .expect file (tests/plans/README.md). */
static void corpus_valid(enum rules rules, const char *path, const char *text)
{
    char expect[FILE_MAX];
    char epath[1024], buf[128];
    struct parse_error err = {0, 0, ""};
    struct plan *p = plan_compile(rules, text, &err);
    struct plan_vars v = neutral(1);
    int checks = 0, lineno = 0;

    if (!p)
        ck_abort_msg("%s: rejected: line %d, column %d: %s", path, err.line, err.column,
                     err.reason);
    snprintf(epath, sizeof(epath), "%.*s.expect", (int)(strlen(path) - 5), path);
    if (file_read(epath, expect, sizeof(expect)) < 0)
        ck_abort_msg("%s: cannot read", epath);
    for (char *s = strtok(expect, "\n"); s; s = strtok(NULL, "\n")) {
        lineno++;
        if (s[0] == '#' || s[strspn(s, " \t\r")] == '\0')
            continue;
        if (strncmp(s, "vars", 4) == 0) {
            char *save, *tok;

            v = neutral(1);
            for (tok = strtok_r(s + 4, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
                char *eq = strchr(tok, '='), *end;

                if (!eq)
                    ck_abort_msg("%s:%d: expected key=value, got \"%s\"", epath, lineno, tok);
                *eq = '\0';
                double x = strtod(eq + 1, &end);
                if (*end || corpus_var(&v, tok, x) != 0)
                    ck_abort_msg("%s:%d: bad variable \"%s\"", epath, lineno, tok);
            }
            continue;
        }
        int round, line, at = 0;
        if (sscanf(s, "%d %d %n", &round, &line, &at) != 2 || at == 0)
            ck_abort_msg("%s:%d: expected \"round line order\"", epath, lineno);
        char *want = s + at;
        want[strcspn(want, "\r")] = '\0';
        struct order o;
        v.round = round;
        int used = plan_eval(p, &v, &o);
        order_text(&o, buf, sizeof(buf));
        if (used != line || strcmp(buf, want) != 0)
            ck_abort_msg("%s:%d: round %d: line %d (%s), expected line %d (%s)", epath, lineno,
                         round, used, buf, line, want);
        if (ruleset_get(rules)->order_valid(&o) != 0)
            ck_abort_msg("%s:%d: an illegal order", epath, lineno);
        checks++;
    }
    if (checks == 0)
        ck_abort_msg("%s: no rounds to check", epath);
    plan_free(p);
}

/* Checks an invalid plan against its .err file: "line column reason". */
static void corpus_invalid(enum rules rules, const char *path, const char *text)
{
    char epath[1024], want[512];
    struct parse_error err = {0, 0, ""};
    int line, column, at = 0;

    snprintf(epath, sizeof(epath), "%.*s.err", (int)(strlen(path) - 5), path);
    if (file_read(epath, want, sizeof(want)) < 0)
        ck_abort_msg("%s: cannot read", epath);
    if (sscanf(want, "%d %d %n", &line, &column, &at) != 2 || at == 0)
        ck_abort_msg("%s: expected \"line column reason\"", epath);
    want[strcspn(want, "\r\n")] = '\0';
    struct plan *p = plan_compile(rules, text, &err);
    if (p) {
        plan_free(p);
        ck_abort_msg("%s: accepted", path);
    }
    if (err.line != line || err.column != column || strcmp(err.reason, want + at) != 0)
        ck_abort_msg("%s: line %d, column %d: %s; expected line %d, column %d: %s", path, err.line,
                     err.column, err.reason, line, column, want + at);
}

static void corpus_dir(enum rules rules, const char *kind, struct corpus *c)
{
    char text[FILE_MAX], dir[256], path[1024];
    DIR *d;
    struct dirent *de;

    snprintf(dir, sizeof(dir), CORPUS_DIR "/%s/%s", ruleset_get(rules)->name, kind);
    if (!(d = opendir(dir)))
        ck_abort_msg("%s: cannot open (the tests run from the top of the tree)", dir);
    while ((de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);

        if (n < 6 || strcmp(de->d_name + n - 5, ".plan") != 0)
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        if (file_read(path, text, sizeof(text)) < 0)
            ck_abort_msg("%s: cannot read", path);
        if (strcmp(kind, "valid") == 0) {
            corpus_valid(rules, path, text);
            c->valid++;
        } else {
            corpus_invalid(rules, path, text);
            c->invalid++;
        }
    }
    closedir(d);
}

START_TEST(corpus)
{
    struct corpus c = {0, 0};

    for (int r = 0; r < RULES_COUNT; r++) {
        corpus_dir((enum rules)r, "valid", &c);
        corpus_dir((enum rules)r, "invalid", &c);
    }
    ck_assert_msg(c.valid + c.invalid >= CORPUS_MIN, "the corpus has %d plans, at least %d needed",
                  c.valid + c.invalid, CORPUS_MIN);
    ck_assert_int_gt(c.valid, 0);
    ck_assert_int_gt(c.invalid, 0);
}
END_TEST

Suite *plan_suite(void)
{
    Suite *s = suite_create("plan");
    TCase *tc = tcase_create("worked");

    tcase_add_test(tc, worked_round_tags);
    tcase_add_test(tc, worked_last_line_wins);
    tcase_add_test(tc, worked_towel_from_round_9);
    tcase_add_test(tc, worked_threshold);
    tcase_add_test(tc, worked_rejected_zero);
    tcase_add_test(tc, worked_rejected_sum);
    tcase_add_test(tc, worked_rejected_junk);
    tcase_add_test(tc, worked_rejected_unknown_variable);
    suite_add_tcase(s, tc);

    tc = tcase_create("conditions");
    tcase_add_loop_test(tc, variable_switches_line, 0, VARIABLES);
    tcase_add_test(tc, variable_constants);
    tcase_add_loop_test(tc, operators, 0, OPERATOR_CASES);
    tcase_add_loop_test(tc, precedence, 0, PRECEDENCE_CASES);
    tcase_add_test(tc, values_stay_finite);
    tcase_add_test(tc, deep_stack);
    suite_add_tcase(s, tc);

    tc = tcase_create("lines");
    tcase_add_test(tc, tags_persist);
    tcase_add_test(tc, tags_alone_on_a_line);
    tcase_add_test(tc, tags_going_down);
    tcase_add_test(tc, tags_spelling);
    tcase_add_test(tc, round_zero_uses_default);
    tcase_add_test(tc, comments_and_blank_lines);
    tcase_add_test(tc, separators_mixed);
    tcase_add_test(tc, case_insensitive);
    tcase_add_test(tc, spacing);
    tcase_add_test(tc, sugarray_plan);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_loop_test(tc, errors, 0, ERROR_CASES);
    tcase_add_test(tc, error_unknown_long_word);
    tcase_add_test(tc, error_nesting);
    tcase_add_test(tc, error_leaves_nothing);
    tcase_add_test(tc, limit_lines);
    tcase_add_test(tc, limit_bytes);
    tcase_add_test(tc, sugarray_towel_refused);
    suite_add_tcase(s, tc);

    tc = tcase_create("output");
    tcase_add_test(tc, line_as_written);
    tcase_add_test(tc, explain);
    tcase_add_test(tc, explain_variables);
    tcase_add_test(tc, explain_long_and_short);
    tcase_add_test(tc, summary);
    tcase_add_test(tc, summary_short_buffer);
    suite_add_tcase(s, tc);

    tc = tcase_create("random");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, random_evaluation);
    suite_add_tcase(s, tc);

    tc = tcase_create("corpus");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, corpus);
    suite_add_tcase(s, tc);
    return s;
}
