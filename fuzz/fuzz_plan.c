/*
 * fuzz_plan.c - libFuzzer harness for plan_compile, plan_eval, plan_line,
 * plan_explain, plan_summary and plan_free.
 *
 * For every input and both rulesets: a rejected plan must come with a line
 * and column in range and a non-empty reason; an accepted one is evaluated
 * for rounds 1-15 under a few bout states (neutral, worn out, extreme and
 * NaN values), and every order it gives must be legal for the engine
 * (order_valid), carry the plan's ruleset, and be a towel only from a boxing
 * line. plan_explain and plan_summary must agree between a small and a large
 * buffer and NUL-terminate both. Any breach aborts, which libFuzzer reports
 * as a crash.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define BIG 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

/* A few bout states: neutral, worn out and losing, and absurd values. */
static void vars_fill(struct plan_vars *v, int which, int round)
{
    memset(v, 0, sizeof(*v));
    v->round = round;
    switch (which) {
    case 0:
        v->endurance = 100;
        v->endurance_percent = 100;
        v->opp = 2;
        break;
    case 1:
        v->rounds_won = round / 3;
        v->rounds_lost = round - 1 - round / 3;
        v->score = -4.0 / 3;
        v->endurance = 12.75;
        v->endurance_percent = 9;
        v->opp = 1;
        v->my_cuts = 5;
        v->his_cuts = 1;
        v->my_knockdowns = 3;
        v->warnings = 2;
        break;
    case 2:
        v->rounds_won = 2147483647;
        v->rounds_lost = -2147483647 - 1;
        v->score = 1e308;
        v->endurance = -1e308;
        v->endurance_percent = -2147483647 - 1;
        v->opp = 2147483647;
        v->my_cuts = -1;
        v->his_knockdowns = 2147483647;
        break;
    default:
        v->score = NAN;
        v->endurance = INFINITY;
        v->endurance_percent = 0;
        v->opp = 0;
        break;
    }
}

/* The text of an explanation or summary: the same length from a NULL, a
 * small and a big buffer, and NUL-terminated in each. */
static void text_check(int big_n, const char *big, int small_n, const char *small, size_t small_len,
                       int null_n)
{
    check(big_n > 0 && big_n == small_n && big_n == null_n);
    if ((size_t)big_n < BIG)
        check(strlen(big) == (size_t)big_n);
    else
        check(strlen(big) == BIG - 1);
    size_t want = (size_t)big_n < small_len ? (size_t)big_n : small_len - 1;
    check(strlen(small) == want && memcmp(small, big, want) == 0);
}

static void plan_check(enum rules rules, const char *text, size_t textlen)
{
    static char big[BIG];
    char small[8];
    struct parse_error err;
    struct plan *p;

    memset(&err, 0, sizeof(err));
    p = plan_compile(rules, text, &err);
    if (!p) {
        size_t n = strnlen(err.reason, PARSE_REASON_MAX);

        check(n > 0 && n < PARSE_REASON_MAX);
        check(err.line >= 0 && err.line <= PLAN_LINES_MAX);
        check(err.column >= 0 && (size_t)err.column <= textlen + 1);
        check(err.line > 0 || err.column == 0);
        int len = parse_error_format(&err, big, sizeof(big));
        check(len > 0 && (size_t)len == strlen(big));
        return;
    }
    for (int which = 0; which < 4; which++)
        for (int round = 1; round <= 15; round++) {
            struct plan_vars v;
            struct order o;

            vars_fill(&v, which, round);
            int line = plan_eval(p, &v, &o);
            check(line >= 0 && line <= PLAN_LINES_MAX);
            check(o.rules == rules);
            check(ruleset_get(rules)->order_valid(&o) == 0);
            if (rules == RULES_BOXING && o.u.boxing.towel)
                check(line > 0);
            if (line > 0)
                check(plan_line(p, line)[0] != '\0');
            int n = plan_explain(p, line, &v, big, sizeof(big));
            int m = plan_explain(p, line, &v, small, sizeof(small));
            text_check(n, big, m, small, sizeof(small), plan_explain(p, line, &v, NULL, 0));
            if (round == 1) {
                n = plan_explain(p, line + 1, &v, big, sizeof(big));
                check(n > 0 && (size_t)n < sizeof(big) && strlen(big) == (size_t)n);
            }
        }
    int n = plan_summary(p, big, sizeof(big));
    int m = plan_summary(p, small, sizeof(small));
    text_check(n, big, m, small, sizeof(small), plan_summary(p, NULL, 0));
    check(plan_line(p, 0)[0] == '\0' && plan_line(p, PLAN_LINES_MAX + 1)[0] == '\0');
    plan_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);

    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    for (int r = 0; r < RULES_COUNT; r++)
        plan_check((enum rules)r, text, strlen(text));
    free(text);
    return 0;
}
