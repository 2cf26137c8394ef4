/*
 * sheet.c - fighter sheets from text: whitespace-separated key=value pairs.
 *
 * Each ruleset's grammar describes its sheet with a `struct sheet_layout`
 * (keys, case-insensitive, some with an alias, and their legal ranges) and
 * reads it with sheet_read. Tokens are read left to right and the first bad
 * one is reported with its column; keys that never appeared are reported
 * last, with column 0. Every key must be given exactly once. Whitespace is
 * what isspace() calls whitespace in the C locale.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "parse_internal.h"

/* 1 if the n bytes at s spell `word` in any case. */
static int word_is(const char *s, size_t n, const char *word)
{
    if (!word || strlen(word) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (parse_lower(s[i]) != word[i])
            return 0;
    return 1;
}

/* The index of the field whose key is the n bytes at s, or -1. */
static int field_find(const struct sheet_layout *l, const char *s, size_t n)
{
    for (int i = 0; i < l->n; i++)
        if (word_is(s, n, l->fields[i].name) || word_is(s, n, l->fields[i].alias))
            return i;
    return -1;
}

int sheet_value_read(const char *key, const char *s, size_t n, size_t offset, int lo, int hi,
                     int example, const struct sheet_bounds *b, int *v, struct parse_error *err)
{
    char q[PARSE_QUOTE_MAX + 4];
    int column = parse_column(offset);

    if (b) {
        lo = b->lo;
        hi = b->hi;
    }
    if (n == 0)
        return b ? parse_fail(err, 0, column, "%s= has no value; %s", key, b->rule)
                 : parse_fail(err, 0, column,
                              "%s= has no value; write a whole number from %d to %d, e.g. %s=%d",
                              key, lo, hi, key, example);
    /* Shorter beside a new fighter's rule, so that the whole line fits. */
    parse_quote(s, n, b ? PARSE_QUOTE_MAX / 2 : PARSE_QUOTE_MAX,
                b ? PARSE_QUOTE_MAX / 2 : PARSE_QUOTE_MAX, q);
    *v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return b ? parse_fail(err, 0, column, "%s=%s is not a whole number; %s", key, q,
                                  b->rule)
                     : parse_fail(err, 0, column, "%s=%s is not a whole number from %d to %d", key,
                                  q, lo, hi);
        if (*v <= hi)
            *v = *v * 10 + (s[i] - '0');
    }
    if (*v > hi || *v < lo)
        return parse_fail(err, 0, column, "%s=%s is %s %d%s%s", key, q, *v > hi ? "over" : "under",
                          *v > hi ? hi : lo, b ? "; " : "", b ? b->rule : "");
    return 0;
}

int sheet_read(const struct sheet_layout *l, const char *text, const struct sheet_bounds *b,
               int values[SHEET_FIELDS_MAX], struct parse_error *err)
{
    int seen[SHEET_FIELDS_MAX] = {0}, tokens = 0;
    const char *p = text;
    char q[PARSE_QUOTE_MAX + 4];

    for (;;) {
        while (parse_is_space(*p))
            p++;
        if (*p == '\0')
            break;
        size_t off = (size_t)(p - text), n = 0, klen;
        while (p[n] && !parse_is_space(p[n]))
            n++;
        const char *eq = memchr(p, '=', n);
        parse_quote(p, n, PARSE_QUOTE_MAX, PARSE_QUOTE_MAX, q);
        if (!eq || eq == p)
            return parse_fail(err, 0, parse_column(off),
                              "expected key=value, e.g. %s=%d; got \"%s\"", l->fields[0].name,
                              l->fields[0].example, q);
        klen = (size_t)(eq - p);
        int i = field_find(l, p, klen);
        if (i < 0) {
            parse_quote(p, klen, PARSE_QUOTE_MAX, PARSE_QUOTE_MAX, q);
            return parse_fail(err, 0, parse_column(off), "unknown key \"%s\"; a %s sheet has %s", q,
                              l->rules_name, l->keys);
        }
        const struct sheet_field *f = &l->fields[i];
        if (seen[i] && f->alias)
            return parse_fail(err, 0, parse_column(off),
                              "%s= given twice (%s= and %s= are one key); give each key once",
                              f->name, f->name, f->alias);
        if (seen[i])
            return parse_fail(err, 0, parse_column(off), "%s= given twice; give each key once",
                              f->name);
        if (sheet_value_read(f->name, eq + 1, n - klen - 1, off + klen + 1, f->min, f->max,
                             f->example, b, &values[i], err) != 0)
            return -1;
        seen[i] = 1;
        tokens++;
        p += n;
    }
    if (tokens == 0)
        return parse_fail(err, 0, 0, "empty sheet; write e.g. %s", l->example);
    for (int i = 0; i < l->n; i++)
        if (!seen[i])
            return parse_fail(err, 0, 0, "missing %s=; a %s sheet needs %s", l->fields[i].name,
                              l->rules_name, l->keys);
    return 0;
}

/* sheet_parse within *b (NULL: the sheet's own ranges). */
static int sheet_parse_within(enum rules rules, const char *text, const struct sheet_bounds *b,
                              struct sheet *s, struct parse_error *err)
{
    const struct grammar *g = grammar_get(rules);
    struct sheet tmp;

    assert(text && s);
    if (!g)
        return parse_fail(err, 0, 0, "this ruleset has no sheet to parse");
    memset(&tmp, 0, sizeof(tmp));
    tmp.rules = rules;
    if (g->sheet_parse(text, b, &tmp, err) != 0)
        return -1;
    *s = tmp;
    return 0;
}

int sheet_parse(enum rules rules, const char *text, struct sheet *s, struct parse_error *err)
{
    return sheet_parse_within(rules, text, NULL, s, err);
}

int sheet_parse_new(enum rules rules, const char *text, struct sheet *s, struct parse_error *err)
{
    const struct ruleset *rs = ruleset_get(rules);
    const struct grammar *g = grammar_get(rules);
    char rule[PARSE_REASON_MAX];
    struct sheet_bounds b;

    if (!rs || !g || rs->start)
        return sheet_parse(rules, text, s, err);
    snprintf(rule, sizeof(rule),
             "a new %s's abilities are each %d to %d, %d points in all: e.g. %s", rs->fighter,
             rs->new_lo, rs->new_hi, rs->new_points, g->create_example);
    b = (struct sheet_bounds){rs->new_lo, rs->new_hi, rule};
    return sheet_parse_within(rules, text, &b, s, err);
}
