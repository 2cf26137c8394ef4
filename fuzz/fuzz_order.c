/*
 * fuzz_order.c - libFuzzer harness for order_parse, order_format and
 * parse_error_format.
 *
 * For every input and both rulesets: an accepted order must be legal for the
 * engine (the ruleset's order_valid and the documented limits), its normal
 * form must read back to the identical order, and a rejected one must come
 * with a column inside the text (or 0) and a non-empty reason. Any breach
 * aborts, which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

static int orders_equal(const struct order *a, const struct order *b)
{
    if (a->rules != b->rules)
        return 0;
    if (a->rules == RULES_DUEL)
        return a->u.duel.yield == b->u.duel.yield;
    if (a->rules == RULES_SUGARRAY)
        return a->u.sugarray.attack == b->u.sugarray.attack &&
               a->u.sugarray.defence == b->u.sugarray.defence;
    return a->u.boxing.agg == b->u.boxing.agg && a->u.boxing.pow == b->u.boxing.pow &&
           a->u.boxing.def == b->u.boxing.def && a->u.boxing.target == b->u.boxing.target &&
           a->u.boxing.dirty == b->u.boxing.dirty && a->u.boxing.style == b->u.boxing.style &&
           a->u.boxing.towel == b->u.boxing.towel;
}

/* The limits of rules.md, checked independently of the engine. */
static int order_in_limits(const struct order *o)
{
    const struct boxing_order *b = &o->u.boxing;
    const struct sugarray_order *s = &o->u.sugarray;

    if (o->rules == RULES_DUEL)
        return o->u.duel.yield == 0 || o->u.duel.yield == 1;
    if (o->rules == RULES_SUGARRAY)
        return s->attack >= 0 && s->attack <= SUGARRAY_ORDER_MAX && s->defence >= 0 &&
               s->defence <= SUGARRAY_ORDER_MAX;
    return b->agg >= 1 && b->pow >= 1 && b->def >= 1 && b->agg + b->pow + b->def <= BOXING_ENERGY &&
           (b->target == TARGET_OPPORTUNISTIC || b->target == TARGET_HEAD ||
            b->target == TARGET_BODY) &&
           (b->dirty == 0 || b->dirty == 1) && (int)b->style >= STYLE_NONE &&
           b->style < STYLE_COUNT && b->towel == 0;
}

static void error_check(const struct parse_error *err, size_t textlen)
{
    char buf[PARSE_REASON_MAX + 32];
    size_t n = strnlen(err->reason, PARSE_REASON_MAX);

    check(n > 0 && n < PARSE_REASON_MAX);
    check(err->column >= 0 && (size_t)err->column <= textlen + 1);
    int len = parse_error_format(err, buf, sizeof(buf));
    check(len > 0 && (size_t)len < sizeof(buf) && (size_t)len == strlen(buf));
}

static void order_check(enum rules rules, const char *text, size_t textlen)
{
    struct order o, back;
    struct parse_error err;
    char buf[64], tiny[4];

    memset(&err, 0, sizeof(err));
    if (order_parse(rules, text, &o, &err) != 0) {
        error_check(&err, textlen);
        return;
    }
    check(o.rules == rules);
    check(ruleset_get(rules)->order_valid(&o) == 0);
    check(order_in_limits(&o));
    int n = order_format(&o, buf, sizeof(buf));
    check(n > 0 && (size_t)n < sizeof(buf) && (size_t)n == strlen(buf));
    check(order_format(&o, tiny, sizeof(tiny)) == n && strlen(tiny) == (size_t)(n < 3 ? n : 3));
    check(order_parse(rules, buf, &back, &err) == 0);
    check(orders_equal(&o, &back));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);

    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    for (int r = 0; r < RULES_COUNT; r++)
        order_check((enum rules)r, text, strlen(text));
    free(text);
    return 0;
}
