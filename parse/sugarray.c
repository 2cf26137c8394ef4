/*
 * sugarray.c - the sugarray grammar: orders "attack/defence" (or "attack
 * defence") to and from text, the skill and endurance sheet, and the
 * examples other layers show. Sugarray plans cannot throw in the towel.
 *
 * An order line is read by one pattern of optional, nested groups, so it
 * always matches; the groups that took part say how much of the order is
 * there and the numbers are then checked in C in reading order. Whitespace
 * (C locale) is ignored at both ends and around '/'. Columns are 1-based
 * byte offsets in the text as given.
 */
#include <stdio.h>

#include "parse_internal.h"

#define SUGARRAY_SHAPE "expected attack/defence, e.g. 3/2"

/* attack/defence or "attack defence". */
enum { SUG_ATTACK = 1, SUG_SEP, SUG_DEFENCE };
static struct match_pattern sugarray_pattern = {"^\\s*+"
                                                "(?:(\\d++)"
                                                "(?:(\\s*+/|\\s)\\s*+(\\d++)?)?"
                                                ")?"
                                                "\\s*+",
                                                NULL};

static const struct sheet_layout sugarray_layout = {
    "sugarray",
    "skill and end",
    "skill=12 end=21",
    2,
    {
        {"skill", NULL, 1, 99, 12},
        {"end", "endurance", 1, 999, 21},
    },
};

/* Checks attack or defence (group i); returns its value, or -1 after
 * filling *err. */
static int sugarray_number(const struct match *m, int i, const char *name, struct parse_error *err)
{
    int v = match_number(m, i, SUGARRAY_ORDER_MAX);

    if (v > SUGARRAY_ORDER_MAX) {
        char q[PARSE_QUOTE_MAX + 4];
        parse_quote(m->text + match_start(m, i), match_length(m, i), PARSE_QUOTE_MAX,
                    PARSE_QUOTE_MAX, q);
        return parse_fail(err, 0, parse_column(match_start(m, i)), "%s %s is over %d", name, q,
                          SUGARRAY_ORDER_MAX);
    }
    return v;
}

static int sugarray_order_parse(const char *text, struct order *o, struct parse_error *err)
{
    struct sugarray_order *so = &o->u.sugarray;
    struct match m;

    if (match_run(&sugarray_pattern, text, &m) != 0)
        return parse_fail(err, 0, 0, "could not read the order; " SUGARRAY_SHAPE);
    if (!match_set(&m, SUG_DEFENCE)) {
        if (parse_blank(text))
            return parse_fail(err, 0, 0, "empty order; write attack/defence, e.g. 3/2");
        return parse_fail(err, 0, parse_column(m.end), SUGARRAY_SHAPE);
    }
    if ((so->attack = sugarray_number(&m, SUG_ATTACK, "attack", err)) < 0 ||
        (so->defence = sugarray_number(&m, SUG_DEFENCE, "defence", err)) < 0)
        return -1;
    if (text[m.end] != '\0') {
        char q[PARSE_QUOTE_MAX + 4];
        parse_quote(text + m.end, parse_token_length(text + m.end), PARSE_QUOTE_MAX,
                    PARSE_QUOTE_MAX, q);
        return parse_fail(err, 0, parse_column(m.end),
                          "unexpected \"%s\" after defence; " SUGARRAY_SHAPE, q);
    }
    return 0;
}

static int sugarray_order_format(const struct order *o, char *buf, size_t len)
{
    return snprintf(buf, len, "%d/%d", o->u.sugarray.attack, o->u.sugarray.defence);
}

static int sugarray_sheet_parse(const char *text, const struct sheet_bounds *b, struct sheet *s,
                                struct parse_error *err)
{
    int v[SHEET_FIELDS_MAX] = {0};

    if (sheet_read(&sugarray_layout, text, b, v, err) != 0)
        return -1;
    s->u.sugarray.skill = v[0];
    s->u.sugarray.endurance = v[1];
    return 0;
}

const struct grammar sugarray_grammar = {
    .order_example = "3/2",
    .order_example_sim = "6/0",
    .orders_example = "'6/0,3/3'",
    .sheet_example = "'Murphy skill=12 end=21'",
    .create_example = "rules=sugarray",
    .plan_example = "3/3",
    .order_help =
        "SUGAR RAY orders are attack/defence, e.g. 3/2, each 0 to 99: an attack above the "
        "opponent's defence takes twice the difference off his endurance. Every round first "
        "costs you endurance for its effort, 3 x attack + 2 x defence - skill: nothing for 0 or "
        "less, 1 for 1-4, 2 for 5-7, 3 for 8-9, then 4, 5, 6, 7, 8 and 10 for 10 to 15, and "
        "2 x (effort - 10) above 15. Whoever is not knocked out and has the larger total of "
        "attack wins on points.",
    .sheet_help = "SUGAR RAY boxers start alike (skill 10, endurance 20; create <name> "
                  "rules=sugarray): skill lowers the endurance each round costs you, endurance is "
                  "what blows and fatigue take away; a KO win adds a skill point, a points win an "
                  "endurance point.",
    .order_parse = sugarray_order_parse,
    .order_format = sugarray_order_format,
    .sheet_parse = sugarray_sheet_parse,
    .order_towel = NULL,
};
