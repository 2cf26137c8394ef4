/*
 * boxing.c - the boxing grammar: orders AGG[H|B]/POW[!]/DEF [(style)] to and from
 * text, the five-ability sheet, the towel in plans, and the examples other
 * layers show.
 *
 * An order line is read by one pattern made only of optional, nested
 * groups, so it always matches: the groups that took part say how much of
 * the order is there, and the end of the match is the column where the
 * text stopped making sense. The numbers, their sum, the style word and
 * what follows are then checked in C in reading order, so the error
 * reported is the first one a player meets in his line.
 *
 * Whitespace (C locale) is ignored at both ends, around '/', before 'H',
 * 'B' and '!', and inside the style's parentheses. Columns are 1-based byte
 * offsets in the text as given; everything the grammar accepts is ASCII,
 * so up to the error they are also character columns.
 */
#include <stdio.h>
#include <string.h>

#include "parse_internal.h"

#define BOXING_SHAPE "expected AGG[H|B]/POW[!]/DEF [(style)], e.g. 4H/8!/8 (inside)"

/*
 * AGG[H|B]/POW[!]/DEF [(style)]. Possessive quantifiers keep matching linear in
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
static struct match_pattern boxing_pattern = {"^\\s*+"
                                              "(?:(\\d++)"
                                              "(?:\\s*+([hb]))?"
                                              "(?:\\s*+(/)"
                                              "(?:\\s*+(\\d++)"
                                              "(?:\\s*+(!))?"
                                              "(?:\\s*+(/)"
                                              "(?:\\s*+(\\d++)"
                                              "(?:\\s*+(\\()([^()]*+)(\\))?)?"
                                              ")?)?)?)?)?"
                                              "\\s*+",
                                              NULL};

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

static const struct sheet_layout boxing_layout = {
    "boxing",
    "str, spd, agl, tgh and hgt",
    "str=14 spd=12 agl=11 tgh=12 hgt=11",
    5,
    {
        {"str", NULL, BOXING_ABILITY_MIN, BOXING_ABILITY_MAX, 14},
        {"spd", NULL, BOXING_ABILITY_MIN, BOXING_ABILITY_MAX, 12},
        {"agl", NULL, BOXING_ABILITY_MIN, BOXING_ABILITY_MAX, 11},
        {"tgh", NULL, BOXING_ABILITY_MIN, BOXING_ABILITY_MAX, 12},
        {"hgt", NULL, BOXING_ABILITY_MIN, BOXING_ABILITY_MAX, 11},
    },
};

static int is_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Checks one of A, P, D (group i, named `name`); returns its value, or -1
 * after filling *err. */
static int boxing_number(const struct match *m, int i, const char *name, struct parse_error *err)
{
    int v = match_number(m, i, BOXING_ENERGY);
    int column = parse_column(match_start(m, i));

    if (v < 1)
        return parse_fail(err, 0, column, "%s must be at least 1", name);
    if (v > BOXING_ENERGY) {
        char q[PARSE_QUOTE_MAX + 4];
        parse_quote(m->text + match_start(m, i), match_length(m, i), PARSE_QUOTE_MAX,
                    PARSE_QUOTE_MAX, q);
        return parse_fail(err, 0, column, "%s %s is too big; AGG+POW+DEF is at most %d", name, q,
                          BOXING_ENERGY);
    }
    return v;
}

/* Reads the style between the parentheses (group BOX_INNER) into *style;
 * returns 0, or -1 after filling *err. */
static int boxing_style(const struct match *m, enum style *style, struct parse_error *err)
{
    size_t at = match_start(m, BOX_INNER), n = match_length(m, BOX_INNER);
    const char *w = m->text + at;
    char q[PARSE_QUOTE_MAX + 4];

    while (n > 0 && parse_is_space(*w)) {
        w++;
        at++;
        n--;
    }
    while (n > 0 && parse_is_space(w[n - 1]))
        n--;
    if (n == 0)
        return parse_fail(err, 0, parse_column(match_start(m, BOX_OPEN)),
                          "empty style \"()\"; put a style in the parentheses, e.g. (inside)");
    parse_quote(w, n, PARSE_QUOTE_MAX, PARSE_QUOTE_MAX, q);
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
static int boxing_tail(const struct match *m, struct parse_error *err)
{
    size_t len = strlen(m->text);

    if (m->end < len) {
        const char *rest = m->text + m->end;
        int column = parse_column(m->end);
        char q[PARSE_QUOTE_MAX + 4];

        parse_quote(rest, parse_token_length(rest), PARSE_QUOTE_MAX, PARSE_QUOTE_MAX, q);
        if (match_set(m, BOX_CLOSE))
            return parse_fail(err, 0, column,
                              "unexpected \"%s\" after the style; the order ends with (style)", q);
        if (match_set(m, BOX_OPEN))
            return parse_fail(
                err, 0, column,
                "unexpected \"(\" inside the style; write the style as e.g. (inside)");
        return parse_fail(err, 0, column,
                          "unexpected \"%s\" after DEF; a style goes in parentheses, e.g. (inside)",
                          q);
    }
    if (match_set(m, BOX_OPEN) && !match_set(m, BOX_CLOSE))
        return parse_fail(err, 0, parse_column(match_start(m, BOX_OPEN)),
                          "\"(\" is never closed; write the style as e.g. (inside)");
    return 0;
}

static int boxing_order_parse(const char *text, struct order *o, struct parse_error *err)
{
    struct boxing_order *bo = &o->u.boxing;
    struct match m;

    if (match_run(&boxing_pattern, text, &m) != 0)
        return parse_fail(err, 0, 0, "could not read the order; " BOXING_SHAPE);
    if (!match_set(&m, BOX_DEF)) {
        if (parse_blank(text))
            return parse_fail(err, 0, 0, "empty order; write AGG/POW/DEF, e.g. 5/5/10");
        return parse_fail(err, 0, parse_column(m.end), BOXING_SHAPE);
    }
    if ((bo->agg = boxing_number(&m, BOX_AGG, "AGG", err)) < 0 ||
        (bo->pow = boxing_number(&m, BOX_POW, "POW", err)) < 0 ||
        (bo->def = boxing_number(&m, BOX_DEF, "DEF", err)) < 0)
        return -1;
    if (bo->agg + bo->pow + bo->def > BOXING_ENERGY)
        return parse_fail(err, 0, parse_column(match_start(&m, BOX_AGG)),
                          "AGG+POW+DEF = %d, the most is %d", bo->agg + bo->pow + bo->def,
                          BOXING_ENERGY);
    bo->style = STYLE_NONE;
    if (match_set(&m, BOX_CLOSE) && boxing_style(&m, &bo->style, err) != 0)
        return -1;
    if (boxing_tail(&m, err) != 0)
        return -1;
    bo->target = TARGET_OPPORTUNISTIC;
    if (match_set(&m, BOX_TARGET))
        bo->target =
            parse_lower(text[match_start(&m, BOX_TARGET)]) == 'h' ? TARGET_HEAD : TARGET_BODY;
    bo->dirty = match_set(&m, BOX_DIRTY);
    bo->towel = 0;
    return 0;
}

/* Appends v (a small order number, 0 to 999, or any int) in decimal at p;
 * returns the end. */
static char *order_int(char *p, int v)
{
    char tmp[16], *q = tmp + sizeof(tmp);
    unsigned u = v < 0 ? 0U - (unsigned)v : (unsigned)v;

    do {
        *--q = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--q = '-';
    size_t n = (size_t)(tmp + sizeof(tmp) - q);
    memcpy(p, q, n);
    return p + n;
}

/* The order as snprintf's "%d%s/%d%s/%d%s%s%s" wrote it (same bytes, same
 * return, same cut when len is short), without snprintf: a bout page
 * writes every order of every round. */
static int boxing_order_format(const struct order *o, char *buf, size_t len)
{
    const struct boxing_order *bo = &o->u.boxing;
    char tmp[96], *p = tmp;

    p = order_int(p, bo->agg);
    if (bo->target == TARGET_HEAD)
        *p++ = 'H';
    else if (bo->target == TARGET_BODY)
        *p++ = 'B';
    *p++ = '/';
    p = order_int(p, bo->pow);
    if (bo->dirty)
        *p++ = '!';
    *p++ = '/';
    p = order_int(p, bo->def);
    const char *style = bo->style != STYLE_NONE ? style_name(bo->style) : NULL;
    if (style) {
        size_t n = strlen(style);
        if (n > sizeof(tmp) - (size_t)(p - tmp) - 4)
            n = sizeof(tmp) - (size_t)(p - tmp) - 4; /* style names are short */
        *p++ = ' ';
        *p++ = '(';
        memcpy(p, style, n);
        p += n;
        *p++ = ')';
    }
    size_t n = (size_t)(p - tmp);
    if (len > 0) {
        size_t k = n < len ? n : len - 1;
        memcpy(buf, tmp, k);
        buf[k] = '\0';
    }
    return (int)n;
}

static int boxing_sheet_parse(const char *text, const struct sheet_bounds *b, struct sheet *s,
                              struct parse_error *err)
{
    int v[SHEET_FIELDS_MAX] = {0};

    if (sheet_read(&boxing_layout, text, b, v, err) != 0)
        return -1;
    s->u.boxing.str = v[0];
    s->u.boxing.spd = v[1];
    s->u.boxing.agl = v[2];
    s->u.boxing.tgh = v[3];
    s->u.boxing.hgt = v[4];
    return 0;
}

static void boxing_order_towel(struct order *o)
{
    o->u.boxing.towel = 1;
}

const struct grammar boxing_grammar = {
    .order_example = "5H/8!/7 (inside)",
    .order_example_sim = "4H/8!/8 (inside)",
    .orders_example = "'5/5/10,4H/8!/8 (ins)'",
    .sheet_example = "'Rocky str=14 spd=12 agl=11 tgh=12 hgt=11'",
    .create_example = "str=12 spd=12 agl=12 tgh=12 hgt=12",
    .plan_example = "5/5/10",
    .order_help =
        "Boxing orders are AGG/POW/DEF, e.g. 5H/8!/7 (inside): AGG is how many punches you throw "
        "(8 for each point), POW how hard they are, DEF how well you guard; each is at least 1 "
        "and AGG+POW+DEF is at most 20. Optional: H (head) or B (body) after AGG aims the "
        "punches; ! after POW fights dirty (harder, but the referee may warn and disqualify); a "
        "style in parentheses after DEF: inside, clinch, feint, counter, ring, cut, outside or "
        "allout.",
    .sheet_help = "Boxing abilities, 60 points over five, each 5 to 20: str (strength: how hard "
                  "punches hurt), spd (speed: how many land), agl (agility: how many you avoid), "
                  "tgh (toughness: endurance, 10 for each point) and hgt (height: a taller "
                  "fighter gets extra speed and agility).",
    .order_parse = boxing_order_parse,
    .order_format = boxing_order_format,
    .sheet_parse = boxing_sheet_parse,
    .order_towel = boxing_order_towel,
};
