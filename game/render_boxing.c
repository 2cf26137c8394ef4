/*
 * render_boxing.c - boxing's words (seed 000): the round's channel lines
 * (the styles and who landed more, the events, the cards), the corner's
 * figures on the tape, the report's per-round figures and cards, decisions
 * on the cards, the result line and the score on the cards. Registered as
 * `boxing_words` through engine/rulesets.h.
 *
 * The rules of render.c hold: nothing allocates or does I/O, and the
 * flavour draws are, per round, one for the action line (unless a towel
 * came in) and then one per item of the events; one per result.
 */
#include <math.h>

#include "render_internal.h"

/* What a fighter does in a round, said of one ([0]) and of both ([1]). */
static const char *const style_words[STYLE_COUNT][2] = {
    [STYLE_NONE] = {"covers up", "cover up"},
    [STYLE_INSIDE] = {"works inside", "work inside"},
    [STYLE_CLINCH] = {"clinches", "clinch"},
    [STYLE_FEINT] = {"feints", "feint"},
    [STYLE_COUNTER] = {"counter-punches", "counter-punch"},
    [STYLE_RING] = {"uses the ring", "use the ring"},
    [STYLE_CUT] = {"cuts off the ring", "cut off the ring"},
    [STYLE_OUTSIDE] = {"jabs from outside", "jab from outside"},
    [STYLE_ALLOUT] = {"goes all out", "go all out"},
};

static const char *style_say(enum style s, int both)
{
    return style_words[(int)s >= 0 && s < STYLE_COUNT ? s : STYLE_NONE][both];
}

/* The result's cards, "a-b, a-b, a-b", side `first` first. */
static void result_cards_add(struct str *t, const struct result *res, int first)
{
    int a[JUDGES], b[JUDGES];

    for (int j = 0; j < JUDGES; j++) {
        a[j] = res->cards[j][first];
        b[j] = res->cards[j][!first];
    }
    cards_add(t, a, b);
}

/* ------------------------------------------------------------- the tape */

static void sheet_add(struct str *t, const struct sheet *sheet)
{
    const struct boxing_sheet *s = &sheet->u.boxing;

    render_fmt(t, " STR %d SPD %d AGL %d TGH %d HGT %d", s->str, s->spd, s->agl, s->tgh, s->hgt);
}

/* ---------------------------------------------------------- the channel */

/* $1 the one who landed more, $2 his count, $3 the other, $4 his count. */
static const char *const say_even[] = {
    "Nothing between them: $2 landed apiece.",
    "They trade evenly, $2 landed each.",
    "An even round: $1 and $3 land $2 each.",
    "Honours even, $2 punches landed each.",
};
static const char *const say_close[] = {
    "$1 edges it, $2 landed to $4.",
    "$1 just shades it, $2 to $4.",
    "A close one: $1 lands $2, $3 $4.",
    "$1 nicks it, $2 landed to $4.",
};
static const char *const say_clear[] = {
    "$1 has the better of it, $2 landed to $4.",
    "$1 outworks $3, $2 to $4.",
    "$1 lands $2 to $3's $4.",
    "$1 takes control, $2 landed to $4.",
};
static const char *const say_wide[] = {
    "$1 dominates, $2 landed to $4!",
    "$1 gives $3 a beating, $2 to $4!",
    "One-way traffic: $1 lands $2, $3 only $4!",
    "$1 is all over $3, $2 landed to $4!",
};

/* Line 1: the round, the styles and who landed more. */
static void action_line(const struct render_corner c[SIDES], const struct bout *b,
                        struct rng *flavour, char *line)
{
    const struct boxing_side_round *l = b->u.boxing.last;
    enum style s0 = l[0].order.style, s1 = l[1].order.style;
    long n[SIDES] = {lround(l[0].landed), lround(l[1].landed)};
    char num[SIDES][24];
    struct str t;

    str_init_fixed(&t, line, RENDER_LINE_MAX);
    /* Piece by piece, no format: a bout page has one a round. */
    RENDER_LIT(&t, "\002Round ");
    render_int(&t, b->round);
    RENDER_LIT(&t, "\002: ");
    str_cat(&t, c[0].name);
    if (s0 == s1) {
        RENDER_LIT(&t, " and ");
        str_cat(&t, c[1].name);
        RENDER_LIT(&t, " both ");
        str_cat(&t, style_say(s0, 1));
    } else {
        RENDER_LIT(&t, " ");
        str_cat(&t, style_say(s0, 0));
        RENDER_LIT(&t, ", ");
        str_cat(&t, c[1].name);
        RENDER_LIT(&t, " ");
        str_cat(&t, style_say(s1, 0));
    }
    RENDER_LIT(&t, ". ");
    int w = n[1] > n[0];
    render_num(num[0], sizeof(num[0]), n[w]);
    render_num(num[1], sizeof(num[1]), n[!w]);
    const char *arg[4] = {c[w].name, num[0], c[!w].name, num[1]};
    const char *tpl;
    if (n[0] == n[1])
        tpl = PICK(flavour, say_even);
    else if (n[w] * 5 < n[!w] * 6)
        tpl = PICK(flavour, say_close);
    else if (n[w] < n[!w] * 2)
        tpl = PICK(flavour, say_clear);
    else
        tpl = PICK(flavour, say_wide);
    render_tpl(&t, tpl, arg, 4);
}

/* Appends what is said of a round a corner conceded (no cards: nothing was
 * fought): "Round 3 not scored, conceded by Rocky's corner; totals
 * (Rocky-Apollo) 20-18, 20-18, 19-19.", without totals in round 1 ("Round
 * 1 not scored, conceded by Rocky."; his name alone when he conceded by
 * his own word). A sentence, with its full stop: the channel may say the
 * result after it on the same line. */
static void conceded_line_add(struct str *t, const struct render_corner c[SIDES],
                              const struct bout *b)
{
    const struct boxing_bout *bb = &b->u.boxing;
    int towel[SIDES] = {bb->last[0].order.towel, bb->last[1].order.towel};

    render_fmt(t, "Round %d not scored, conceded by ", b->round);
    conceded_add(t, c, towel);
    if (b->round > 1) {
        render_fmt(t, "; totals (%s-%s) ", c[0].name, c[1].name);
        cards_add(t, bb->f[0].cards, bb->f[1].cards);
    }
    RENDER_LIT(t, ".");
}

/* The last line: the round's cards and the totals, or, for a round a
 * corner conceded, that it was not scored. */
static void cards_line(const struct render_corner c[SIDES], const struct bout *b, int scored,
                       char *line)
{
    const struct boxing_bout *bb = &b->u.boxing;
    struct str t;

    str_init_fixed(&t, line, RENDER_LINE_MAX);
    if (!scored) {
        conceded_line_add(&t, c, b);
        return;
    }
    RENDER_LIT(&t, "Cards (");
    names_add(&t, c);
    RENDER_LIT(&t, ") ");
    cards_add(&t, bb->last[0].cards, bb->last[1].cards);
    RENDER_LIT(&t, "; totals ");
    cards_add(&t, bb->f[0].cards, bb->f[1].cards);
}

/* The action line, the events' sentences (or a line of fragments per
 * side), the cards; after a towel, only what happened and the totals. */
static int round_lines(const struct render_corner c[SIDES], const struct bout *b,
                       const struct events *evs, struct rng *flavour,
                       char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX])
{
    const struct boxing_side_round *l = b->u.boxing.last;
    struct items is;
    int nl = 0;

    if (l[0].order.towel || l[1].order.towel) {
        /* No fighting: the towel is all there is to say. */
        struct str t;

        str_init_fixed(&t, lines[0], RENDER_LINE_MAX);
        render_fmt(&t, "\002Round %d\002:", b->round);
        items_collect(&is, c, b, evs, flavour);
        for (int i = 0; i < is.n; i++)
            render_fmt(&t, " %s", is.it[i].full);
        if (is.n == 0)
            str_cat(&t, " no fighting.");
        cards_line(c, b, 0, lines[1]);
        return 2;
    }
    action_line(c, b, flavour, lines[nl++]);
    items_collect(&is, c, b, evs, flavour);
    nl += items_lines(&is, c, lines + nl);
    cards_line(c, b, 1, lines[nl++]);
    return nl;
}

/* ----------------------------------------------------------- the report */

/* Each corner's order and what came of it: the effective abilities, the
 * punches, the judges' counts, the damage and the endurance; in a round a
 * corner conceded, only the orders and the endurance (RENDER_PLAIN). */
static void report_head(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                        enum render_form form)
{
    const struct boxing_bout *bb = &b->u.boxing;
    int conceded = bb->last[0].order.towel || bb->last[1].order.towel;

    for (int i = 0; i < SIDES; i++) {
        const struct boxing_side_round *l = &bb->last[i];
        struct order o = {.rules = RULES_BOXING, .u.boxing = l->order};

        /* Piece by piece, no format: a page writes this every round. */
        RENDER_LIT(t, "\n");
        str_cat(t, c[i].name);
        RENDER_LIT(t, ": ");
        if (l->order.towel)
            RENDER_LIT(t, "towel");
        else
            order_add(t, &o);
        if (conceded && form == RENDER_PLAIN) {
            /* Nothing was fought: every other figure is 0. */
            if (!l->order.towel)
                RENDER_LIT(t, ", not fought");
            RENDER_LIT(t, "; endurance ");
            figure_add(t, l->endurance, form);
            continue;
        }
        RENDER_LIT(t, "; STR ");
        figure_add(t, l->str, form);
        RENDER_LIT(t, " SPD ");
        figure_add(t, l->spd, form);
        RENDER_LIT(t, " AGL ");
        figure_add(t, l->agl, form);
        RENDER_LIT(t, " AGG ");
        render_int(t, l->agg);
        RENDER_LIT(t, " (rest ");
        render_int(t, l->rest);
        RENDER_LIT(t, "); landed ");
        punches_add(t, l->landed, form);
        RENDER_LIT(t, " of ");
        render_int(t, l->thrown);
        RENDER_LIT(t, ", judges count ");
        cards_one(t, l->counts);
        RENDER_LIT(t, "; damage dealt ");
        figure_add(t, l->damage, form);
        RENDER_LIT(t, "; endurance ");
        figure_add(t, l->end_begin, form);
        RENDER_LIT(t, " to ");
        figure_add(t, l->endurance, form);
    }
}

/* The round's cards and the totals; for a round a corner conceded, that it
 * was not scored (RENDER_PLAIN). */
static void report_tail(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                        enum render_form form)
{
    const struct boxing_bout *bb = &b->u.boxing;

    RENDER_LIT(t, "\n");
    if (form == RENDER_PLAIN && (bb->last[0].order.towel || bb->last[1].order.towel)) {
        conceded_line_add(t, c, b);
        return;
    }
    RENDER_LIT(t, "Cards (");
    names_add(t, c);
    RENDER_LIT(t, ") ");
    cards_add(t, bb->last[0].cards, bb->last[1].cards);
    RENDER_LIT(t, "; totals ");
    cards_add(t, bb->f[0].cards, bb->f[1].cards);
}

/* The styles are boxing's alone. */
static int event_add(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                     const struct event *e, enum render_form form)
{
    const char *name = e->side >= 0 && e->side < SIDES ? c[e->side].name : "-";

    (void)b;
    (void)form;
    if (e->type != EV_STYLE)
        return 0;
    str_cat(t, name);
    RENDER_LIT(t, " ");
    str_cat(t, style_say((enum style)e->a, 0));
    RENDER_LIT(t, ".");
    return 1;
}

/* ----------------------------------------------------------- the result */

/* A decision on the cards, or a draw on them. */
static void verdict_add(struct str *t, const struct render_corner c[SIDES], const struct bout *b)
{
    const struct result *res = &b->result;
    int w = res->winner;

    if (w < 0) {
        int won[SIDES] = {0, 0};

        for (int j = 0; j < JUDGES; j++)
            if (res->cards[j][0] != res->cards[j][1])
                won[res->cards[j][1] > res->cards[j][0]]++;
        render_fmt(t, "A %s draw (",
                   won[0] + won[1] == 0 ? "unanimous"
                   : won[0] == won[1]   ? "split"
                                        : "majority");
        result_cards_add(t, res, 0);
        str_cat(t, ").");
        return;
    }
    const char *d = decision_name(res->decision);

    if (d)
        render_fmt(t, "%s wins a %s decision (", c[w].name, d);
    else
        render_fmt(t, "%s wins on the cards (", c[w].name);
    result_cards_add(t, res, w);
    str_cat(t, ").");
}

static const char *const say_stopped[] = {
    "",
    "It's all over! ",
    "That's the fight! ",
    "And that's it! ",
};
static const char *const say_decided[] = {
    "",
    "The judges have spoken: ",
    "On the cards: ",
    "After the final bell: ",
};

/* One line, led by an announcer's words (one draw, even before the end). */
static int result_lines(const struct render_corner c[SIDES], const struct bout *b,
                        struct rng *flavour, char lines[RENDER_RESULT_MAX][RENDER_LINE_MAX])
{
    const struct result *res = &b->result;
    struct str t;
    int decided = res->method == METHOD_DECISION ||
                  (res->method == METHOD_DRAW && res->drawn_by == METHOD_DECISION);
    const char *lead = decided ? PICK(flavour, say_decided) : PICK(flavour, say_stopped);

    str_init_fixed(&t, lines[0], RENDER_LINE_MAX);
    if (res->over)
        str_cat(&t, lead);
    result_add(&t, c, b);
    return 1;
}

/* ------------------------------------------------------------ the score */

/* The running totals of the three cards and who leads on how many. */
static void score_add(struct str *t, const struct render_corner c[SIDES], const struct bout *b)
{
    static const char *const count[] = {"no", "one card", "two cards", "all three cards"};
    const struct boxing_bout *bb = &b->u.boxing;
    int ahead[SIDES] = {0, 0};

    if (b->round == 0) {
        str_cat(t, "no cards yet");
        return;
    }
    RENDER_LIT(t, "(");
    names_add(t, c);
    RENDER_LIT(t, ") ");
    cards_add(t, bb->f[0].cards, bb->f[1].cards);
    for (int j = 0; j < JUDGES; j++)
        if (bb->f[0].cards[j] != bb->f[1].cards[j])
            ahead[bb->f[1].cards[j] > bb->f[0].cards[j]]++;
    int w = ahead[1] > ahead[0];
    if (ahead[0] == 0 && ahead[1] == 0)
        str_cat(t, " (all even)");
    else if (ahead[0] == ahead[1])
        str_cat(t, " (one card each)");
    else {
        RENDER_LIT(t, " (");
        str_cat(t, c[w].name);
        RENDER_LIT(t, " ahead on ");
        str_cat(t, count[ahead[w]]);
        RENDER_LIT(t, ")");
    }
}

/* Every location of the fighter's injuries so far. */
static const struct injury *injuries(const struct bout *b, int side)
{
    return b->u.boxing.f[side].inj;
}

static const enum method methods[] = {METHOD_KO, METHOD_TKO, METHOD_DQ, METHOD_DECISION,
                                      METHOD_NONE};

/* Boxing's words, registered through engine/rulesets.h. */
/* A boxer's endurance, from 10 x TGH down. */
static double meter(const struct bout *b, int side, double *start)
{
    const struct boxing_fighter *f = &b->u.boxing.f[side];

    *start = f->end_start;
    return f->endurance;
}

const struct words boxing_words = {
    .sheet_add = sheet_add,
    .round = round_lines,
    .report_head = report_head,
    .report_tail = report_tail,
    .event_add = event_add,
    .verdict_add = verdict_add,
    .result = result_lines,
    .result_plain = 1,
    .score_add = score_add,
    .injuries = injuries,
    .methods = methods,
    .meter_name = "endurance",
    .meter = meter,
};
