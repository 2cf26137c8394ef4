/*
 * order.c - one-line orders to and from text, whatever the ruleset, and
 * the formatting of parse errors.
 *
 * order_parse and order_format check the ruleset and hand the text to its
 * grammar (parse/NAME.c); order_parse gives the grammar a zeroed order and
 * copies it out only on success, so a rejected order changes nothing.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "parse_internal.h"

int order_parse(enum rules rules, const char *text, struct order *o, struct parse_error *err)
{
    const struct grammar *g = grammar_get(rules);
    struct order tmp;

    assert(text && o);
    if (!g)
        return parse_fail(err, 0, 0, "this ruleset has no orders");
    memset(&tmp, 0, sizeof(tmp));
    tmp.rules = rules;
    if (g->order_parse(text, &tmp, err) != 0)
        return -1;
    *o = tmp;
    return 0;
}

int order_format(const struct order *o, char *buf, size_t len)
{
    const struct grammar *g;

    assert(o && (buf || len == 0));
    g = grammar_get(o->rules);
    if (!g) {
        if (len > 0)
            buf[0] = '\0';
        return -1;
    }
    return g->order_format(o, buf, len);
}

int parse_error_format(const struct parse_error *err, char *buf, size_t len)
{
    assert(err && (buf || len == 0));
    if (err->line != 0 && err->column != 0)
        return snprintf(buf, len, "line %d, column %d: %s", err->line, err->column, err->reason);
    if (err->line != 0)
        return snprintf(buf, len, "line %d: %s", err->line, err->reason);
    if (err->column != 0)
        return snprintf(buf, len, "column %d: %s", err->column, err->reason);
    return snprintf(buf, len, "%s", err->reason);
}
