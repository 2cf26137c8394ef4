/*
 * order.c - one-line orders (boxing and sugarray) to and from text.
 *
 * Each ruleset's order line is read by one PCRE2 pattern made only of
 * optional, nested groups, so it always matches: the groups that took part
 * say how much of the order is there, and the end of the match is the column
 * where the text stopped making sense. The numbers, their sum, the style word
 * and what follows are then checked in C in reading order, so the error
 * reported is the first one a player meets in his line.
 *
 * Whitespace is what isspace() calls whitespace in the C locale (PCRE2's \s
 * without UCP). It is ignored at both ends, around '/', before 'H', 'B' and
 * '!', and inside the style's parentheses. Columns are 1-based byte offsets
 * in the text as given; everything the grammar accepts is ASCII, so up to the
 * error they are also character columns.
 *
 * The only global state is the cache of compiled patterns, built on first
 * use and kept for the life of the process (not thread-safe on first use).
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <assert.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "parse_internal.h"

/* Longest piece of the player's text quoted back in a reason. */
#define QUOTE_MAX 24

#define BOXING_SHAPE   "expected A[H|B]/P[!]/D [(style)], e.g. 4H/8!/8 (inside)"
#define SUGARRAY_SHAPE "expected attack/defence, e.g. 3/2"

/*
 * A[H|B]/P[!]/D [(style)]. Possessive quantifiers keep matching linear in
 * the length of the text; the style's inside is taken as anything up to a
 * parenthesis and judged in C.
 */
enum {
    BOX_AGG = 1,
    BOX_TARGET,
    BOX_SLASH1,
    BOX_POW,
    BOX_DIRTY,
    BOX_SLASH2,
    BOX_DEF,
    BOX_OPEN,
    BOX_INNER,
    BOX_CLOSE
};
static const char boxing_pattern[] = "^\\s*+"
                                     "(?:(\\d++)"
                                     "(?:\\s*+([hb]))?"
                                     "(?:\\s*+(/)"
                                     "(?:\\s*+(\\d++)"
                                     "(?:\\s*+(!))?"
                                     "(?:\\s*+(/)"
                                     "(?:\\s*+(\\d++)"
                                     "(?:\\s*+(\\()([^()]*+)(\\))?)?"
                                     ")?)?)?)?)?"
                                     "\\s*+";

/* attack/defence or "attack defence". */
enum { SUG_ATTACK = 1, SUG_SEP, SUG_DEFENCE };
static const char sugarray_pattern[] = "^\\s*+"
                                       "(?:(\\d++)"
                                       "(?:(\\s*+/|\\s)\\s*+(\\d++)?)?"
                                       ")?"
                                       "\\s*+";

/* Only the first three letters of a style word count. */
static const struct {
    char prefix[4];
    enum style style;
} style_words[] = {
    {"ins", STYLE_INSIDE}, {"clo", STYLE_INSIDE},  {"sho", STYLE_INSIDE},  {"bra", STYLE_INSIDE},
    {"cli", STYLE_CLINCH}, {"hol", STYLE_CLINCH},  {"fei", STYLE_FEINT},   {"cou", STYLE_COUNTER},
    {"rin", STYLE_RING},   {"lon", STYLE_RING},    {"dis", STYLE_RING},    {"cut", STYLE_CUT},
    {"rop", STYLE_CUT},    {"out", STYLE_OUTSIDE}, {"jab", STYLE_OUTSIDE}, {"all", STYLE_ALLOUT},
    {"ass", STYLE_ALLOUT},
};

/* The matched groups of one order line. */
struct groups {
    const char *text;
    const PCRE2_SIZE *ov;
    int count; /* groups set are 1 .. count - 1 */
    size_t end;
};

/* Compiles `pattern` into *cache on first use; a pattern that does not
 * compile is a programming error (or out of memory) and aborts. */
static pcre2_code *pattern_get(pcre2_code **cache, const char *pattern)
{
    if (!*cache) {
        int code;
        PCRE2_SIZE at;

        *cache = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                               PCRE2_ANCHORED | PCRE2_CASELESS, &code, &at, NULL);
        if (!*cache)
            abort();
    }
    return *cache;
}

static int is_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Length of the run of non-whitespace bytes at s. */
static size_t token_length(const char *s)
{
    size_t n = 0;

    while (s[n] && !parse_is_space(s[n]))
        n++;
    return n;
}

static int group_set(const struct groups *g, int i)
{
    return i < g->count && g->ov[2 * i] != PCRE2_UNSET;
}

static size_t group_start(const struct groups *g, int i)
{
    return g->ov[2 * i];
}

static size_t group_length(const struct groups *g, int i)
{
    return g->ov[2 * i + 1] - g->ov[2 * i];
}

/* The value of the digits of group i; anything above cap reads as cap + 1. */
static int group_number(const struct groups *g, int i, int cap)
{
    const char *s = g->text + group_start(g, i);
    size_t n = group_length(g, i);
    int v = 0;

    for (size_t k = 0; k < n; k++) {
        v = v * 10 + (s[k] - '0');
        if (v > cap)
            return cap + 1;
    }
    return v;
}

/* Runs `code` on text; returns 0 and fills *g (whose ov lives in *md), or
 * -1 if PCRE2 could not finish. The patterns match any text. */
static int groups_match(pcre2_code *code, const char *text, pcre2_match_data *md, struct groups *g)
{
    int rc = pcre2_match(code, (PCRE2_SPTR)text, strlen(text), 0, 0, md, NULL);

    if (rc <= 0)
        return -1;
    g->text = text;
    g->ov = pcre2_get_ovector_pointer(md);
    g->count = rc;
    g->end = g->ov[1];
    return 0;
}

static int text_blank(const char *text)
{
    while (parse_is_space(*text))
        text++;
    return *text == '\0';
}

/* Checks one of A, P, D (group i, named `name`); returns its value, or -1
 * after filling *err. */
static int boxing_number(const struct groups *g, int i, const char *name, struct parse_error *err)
{
    int v = group_number(g, i, BOXING_ENERGY);
    int column = parse_column(group_start(g, i));
    char q[QUOTE_MAX + 4];

    if (v < 1)
        return parse_fail(err, 0, column, "%s must be at least 1", name);
    if (v > BOXING_ENERGY) {
        parse_quote(g->text + group_start(g, i), group_length(g, i), QUOTE_MAX, QUOTE_MAX, q);
        return parse_fail(err, 0, column, "%s %s is too big; A+P+D is at most %d", name, q,
                          BOXING_ENERGY);
    }
    return v;
}

/* Reads the style between the parentheses (group BOX_INNER) into *style;
 * returns 0, or -1 after filling *err. */
static int boxing_style(const struct groups *g, enum style *style, struct parse_error *err)
{
    size_t at = group_start(g, BOX_INNER), n = group_length(g, BOX_INNER);
    const char *w = g->text + at;
    char q[QUOTE_MAX + 4];

    while (n > 0 && parse_is_space(*w)) {
        w++;
        at++;
        n--;
    }
    while (n > 0 && parse_is_space(w[n - 1]))
        n--;
    if (n == 0)
        return parse_fail(err, 0, parse_column(group_start(g, BOX_OPEN)),
                          "empty style \"()\"; put a style in the parentheses, e.g. (inside)");
    parse_quote(w, n, QUOTE_MAX, QUOTE_MAX, q);
    for (size_t i = 0; i < n; i++)
        if (!is_letter(w[i]) && w[i] != '-')
            return parse_fail(
                err, 0, parse_column(at),
                "unknown style \"%s\"; use inside, clinch, feint, counter, ring, cut, "
                "outside or allout",
                q);
    if (n < 3)
        return parse_fail(
            err, 0, parse_column(at),
            "style \"%s\" is too short; give at least its first 3 letters, e.g. (ins)", q);
    for (size_t i = 0; i < sizeof(style_words) / sizeof(style_words[0]); i++) {
        const char *p = style_words[i].prefix;

        if (parse_lower(w[0]) == p[0] && parse_lower(w[1]) == p[1] && parse_lower(w[2]) == p[2]) {
            *style = style_words[i].style;
            return 0;
        }
    }
    return parse_fail(
        err, 0, parse_column(at),
        "unknown style \"%s\"; use inside, clinch, feint, counter, ring, cut, outside or "
        "allout",
        q);
}

/* Checks what follows DEF: nothing, or one (style) and nothing after it. */
static int boxing_tail(const struct groups *g, struct parse_error *err)
{
    size_t len = strlen(g->text);
    char q[QUOTE_MAX + 4];

    if (g->end < len) {
        const char *rest = g->text + g->end;
        int column = parse_column(g->end);

        parse_quote(rest, token_length(rest), QUOTE_MAX, QUOTE_MAX, q);
        if (group_set(g, BOX_CLOSE))
            return parse_fail(err, 0, column,
                              "unexpected \"%s\" after the style; the order ends with (style)", q);
        if (group_set(g, BOX_OPEN))
            return parse_fail(
                err, 0, column,
                "unexpected \"(\" inside the style; write the style as e.g. (inside)");
        return parse_fail(err, 0, column,
                          "unexpected \"%s\" after DEF; a style goes in parentheses, e.g. (inside)",
                          q);
    }
    if (group_set(g, BOX_OPEN) && !group_set(g, BOX_CLOSE))
        return parse_fail(err, 0, parse_column(group_start(g, BOX_OPEN)),
                          "\"(\" is never closed; write the style as e.g. (inside)");
    return 0;
}

static int boxing_parse(const char *text, struct order *o, struct parse_error *err)
{
    static pcre2_code *cache;
    pcre2_code *code = pattern_get(&cache, boxing_pattern);
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
    struct boxing_order *bo = &o->u.boxing;
    struct groups g;
    int rc = -1;

    if (!md)
        abort();
    if (groups_match(code, text, md, &g) != 0) {
        rc = parse_fail(err, 0, 0, "could not read the order; " BOXING_SHAPE);
        goto out;
    }
    if (!group_set(&g, BOX_DEF)) {
        if (text_blank(text))
            rc = parse_fail(err, 0, 0, "empty order; write A/P/D, e.g. 5/5/10");
        else
            rc = parse_fail(err, 0, parse_column(g.end), BOXING_SHAPE);
        goto out;
    }
    if ((bo->agg = boxing_number(&g, BOX_AGG, "AGG", err)) < 0 ||
        (bo->pow = boxing_number(&g, BOX_POW, "POW", err)) < 0 ||
        (bo->def = boxing_number(&g, BOX_DEF, "DEF", err)) < 0)
        goto out;
    if (bo->agg + bo->pow + bo->def > BOXING_ENERGY) {
        rc = parse_fail(err, 0, parse_column(group_start(&g, BOX_AGG)),
                        "A+P+D = %d, the most is %d", bo->agg + bo->pow + bo->def, BOXING_ENERGY);
        goto out;
    }
    bo->style = STYLE_NONE;
    if (group_set(&g, BOX_CLOSE) && boxing_style(&g, &bo->style, err) != 0)
        goto out;
    if (boxing_tail(&g, err) != 0)
        goto out;
    bo->target = TARGET_OPPORTUNISTIC;
    if (group_set(&g, BOX_TARGET))
        bo->target =
            parse_lower(text[group_start(&g, BOX_TARGET)]) == 'h' ? TARGET_HEAD : TARGET_BODY;
    bo->dirty = group_set(&g, BOX_DIRTY);
    bo->towel = 0;
    rc = 0;
out:
    pcre2_match_data_free(md);
    return rc;
}

/* Checks attack or defence (group i); returns its value, or -1 after
 * filling *err. */
static int sugarray_number(const struct groups *g, int i, const char *name, struct parse_error *err)
{
    int v = group_number(g, i, SUGARRAY_ORDER_MAX);
    char q[QUOTE_MAX + 4];

    if (v > SUGARRAY_ORDER_MAX) {
        parse_quote(g->text + group_start(g, i), group_length(g, i), QUOTE_MAX, QUOTE_MAX, q);
        return parse_fail(err, 0, parse_column(group_start(g, i)), "%s %s is over %d", name, q,
                          SUGARRAY_ORDER_MAX);
    }
    return v;
}

static int sugarray_parse(const char *text, struct order *o, struct parse_error *err)
{
    static pcre2_code *cache;
    pcre2_code *code = pattern_get(&cache, sugarray_pattern);
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
    struct sugarray_order *so = &o->u.sugarray;
    struct groups g;
    char q[QUOTE_MAX + 4];
    int rc = -1;

    if (!md)
        abort();
    if (groups_match(code, text, md, &g) != 0) {
        rc = parse_fail(err, 0, 0, "could not read the order; " SUGARRAY_SHAPE);
        goto out;
    }
    if (!group_set(&g, SUG_DEFENCE)) {
        if (text_blank(text))
            rc = parse_fail(err, 0, 0, "empty order; write attack/defence, e.g. 3/2");
        else
            rc = parse_fail(err, 0, parse_column(g.end), SUGARRAY_SHAPE);
        goto out;
    }
    if ((so->attack = sugarray_number(&g, SUG_ATTACK, "attack", err)) < 0 ||
        (so->defence = sugarray_number(&g, SUG_DEFENCE, "defence", err)) < 0)
        goto out;
    if (text[g.end] != '\0') {
        parse_quote(text + g.end, token_length(text + g.end), QUOTE_MAX, QUOTE_MAX, q);
        rc = parse_fail(err, 0, parse_column(g.end),
                        "unexpected \"%s\" after defence; " SUGARRAY_SHAPE, q);
        goto out;
    }
    rc = 0;
out:
    pcre2_match_data_free(md);
    return rc;
}

int order_parse(enum rules rules, const char *text, struct order *o, struct parse_error *err)
{
    struct order tmp;
    int rc;

    assert(text && o);
    memset(&tmp, 0, sizeof(tmp));
    tmp.rules = rules;
    switch (rules) {
    case RULES_BOXING:
        rc = boxing_parse(text, &tmp, err);
        break;
    case RULES_SUGARRAY:
        rc = sugarray_parse(text, &tmp, err);
        break;
    default:
        rc = parse_fail(err, 0, 0, "this ruleset has no orders");
        break;
    }
    if (rc == 0)
        *o = tmp;
    return rc;
}

int order_format(const struct order *o, char *buf, size_t len)
{
    const struct boxing_order *bo;
    const char *target = "", *style = NULL;

    assert(o && (buf || len == 0));
    switch (o->rules) {
    case RULES_BOXING:
        bo = &o->u.boxing;
        if (bo->target == TARGET_HEAD)
            target = "H";
        else if (bo->target == TARGET_BODY)
            target = "B";
        if (bo->style != STYLE_NONE)
            style = style_name(bo->style);
        return snprintf(buf, len, "%d%s/%d%s/%d%s%s%s", bo->agg, target, bo->pow,
                        bo->dirty ? "!" : "", bo->def, style ? " (" : "", style ? style : "",
                        style ? ")" : "");
    case RULES_SUGARRAY:
        return snprintf(buf, len, "%d/%d", o->u.sugarray.attack, o->u.sugarray.defence);
    default:
        if (len > 0)
            buf[0] = '\0';
        return -1;
    }
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
