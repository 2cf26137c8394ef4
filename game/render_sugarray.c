/*
 * render_sugarray.c - SUGAR RAY's words (seed 004): the round's channel
 * lines (the orders, the blows, knockouts, the endurance and attack
 * totals), the corner's figures on the tape, the report's per-round
 * figures, fatigue and blows in plain words, points results, the two
 * classic result lines and the score. Registered as `sugarray_words`
 * through engine/rulesets.h.
 *
 * The rules of render.c hold: nothing allocates or does I/O, and the
 * flavour draws of a round are one per towel thrown in, or one for the
 * blows and one per knockout; the result lines draw nothing.
 */

#include "render_internal.h"

/* ------------------------------------------------------------- the tape */

static void sheet_add(struct str *t, const struct sheet *sheet)
{
    render_fmt(t, " skill %d, endurance %d", sheet->u.sugarray.skill, sheet->u.sugarray.endurance);
}

/* ---------------------------------------------------------- the channel */

static const char *const say_blows_both[] = {
    "$1 gets through for $2, $3 for $4.",
    "$1 hurts $3 for $2, $3 answers for $4.",
    "They trade: $1 takes $2 off $3, $3 takes $4 off $1.",
};
static const char *const say_blows_one[] = {
    "$1 gets through for $2.",
    "$1 breaks through: $3 loses $2.",
    "$1's attack finds $3 for $2.",
};
static const char *const say_blows_none[] = {
    "Nothing gets through.",
    "Both defences hold.",
    "No blows land.",
};
static const char *const say_ko[] = {
    "$1 is knocked out!",
    "$1 goes down and stays down!",
    "$1 is counted out!",
};
static const char *const say_collapse[] = {
    "$1 collapses from exhaustion!",
    "$1 runs out of steam and goes down!",
    "Exhausted, $1 can't go on!",
};

/* "Endurance A 12, B 9; attack totals 30-24.", piece by piece (a page
 * writes it every round). */
static void endurance_add(struct str *t, const struct render_corner c[SIDES],
                          const struct sugarray_bout *sb)
{
    RENDER_LIT(t, "Endurance ");
    for (int i = 0; i < SIDES; i++) {
        str_cat(t, c[i].name);
        RENDER_LIT(t, " ");
        render_int(t, sb->endurance[i]);
        str_cat(t, i ? "; attack totals " : ", ");
    }
    render_int(t, sb->attack_total[0]);
    RENDER_LIT(t, "-");
    render_int(t, sb->attack_total[1]);
    RENDER_LIT(t, ".");
}

/* The orders and the blows; then knockouts, endurance and attack totals. A
 * forfeit has only the towels and the totals. */
static int round_lines(const struct render_corner c[SIDES], const struct bout *b,
                       const struct events *evs, struct rng *flavour,
                       char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX])
{
    const struct sugarray_bout *sb = &b->u.sugarray;
    int r = b->round - 1;
    int blow[SIDES] = {0, 0}, blows = 0;
    char num[SIDES][16];
    struct str t;

    if (r < 0 || r >= SUGARRAY_ROUNDS)
        return 0;
    if (sb->orders[r][0].towel || sb->orders[r][1].towel) {
        /* A forfeit: nothing was fought. */
        str_init_fixed(&t, lines[0], RENDER_LINE_MAX);
        render_fmt(&t, "\002Round %d\002:", b->round);
        for (int i = 0; i < SIDES; i++)
            if (sb->orders[r][i].towel) {
                const char *who[1] = {c[i].name};
                str_cat(&t, " ");
                render_tpl(&t, render_towel(flavour, c[i].conceded), who, 1);
            }
        str_init_fixed(&t, lines[1], RENDER_LINE_MAX);
        endurance_add(&t, c, sb);
        return 2;
    }
    for (int k = 0; k < evs->n; k++)
        if (evs->ev[k].type == EV_BLOW && evs->ev[k].side >= 0 && evs->ev[k].side < SIDES) {
            blow[evs->ev[k].side] += evs->ev[k].a;
            blows = 1;
        }
    str_init_fixed(&t, lines[0], RENDER_LINE_MAX);
    /* Piece by piece, no format: a page writes this every round. */
    RENDER_LIT(&t, "\002Round ");
    render_int(&t, b->round);
    RENDER_LIT(&t, "\002:");
    for (int i = 0; i < SIDES; i++) {
        RENDER_LIT(&t, " ");
        str_cat(&t, c[i].name);
        RENDER_LIT(&t, " ");
        render_int(&t, sb->orders[r][i].attack);
        RENDER_LIT(&t, "/");
        render_int(&t, sb->orders[r][i].defence);
        str_cat(&t, i ? ". " : ",");
    }
    int w = blow[1] > blow[0];
    render_num(num[0], sizeof(num[0]), blow[w]);
    render_num(num[1], sizeof(num[1]), blow[!w]);
    const char *arg[4] = {c[w].name, num[0], c[!w].name, num[1]};
    if (blow[0] > 0 && blow[1] > 0)
        render_tpl(&t, PICK(flavour, say_blows_both), arg, 4);
    else if (blow[w] > 0)
        render_tpl(&t, PICK(flavour, say_blows_one), arg, 4);
    else
        render_tpl(&t, PICK(flavour, say_blows_none), arg, 4);

    str_init_fixed(&t, lines[1], RENDER_LINE_MAX);
    for (int k = 0; k < evs->n; k++) {
        const struct event *e = &evs->ev[k];

        if (e->type != EV_KO || e->side < 0 || e->side >= SIDES)
            continue;
        const char *who[1] = {c[e->side].name};
        render_tpl(&t, blows ? PICK(flavour, say_ko) : PICK(flavour, say_collapse), who, 1);
        str_cat(&t, " ");
    }
    endurance_add(&t, c, sb);
    return 2;
}

/* ----------------------------------------------------------- the report */

/* Each corner's orders, his endurance after the round and his attack
 * total (nothing while no round was fought). In a round a corner conceded
 * (RENDER_PLAIN) the orders say "towel" or "not fought": the engine keeps
 * 0/0 for both. */
static void report_head(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                        enum render_form form)
{
    const struct sugarray_bout *sb = &b->u.sugarray;
    int r = b->round - 1;
    int conceded =
        r >= 0 && r < SUGARRAY_ROUNDS && (sb->orders[r][0].towel || sb->orders[r][1].towel);

    for (int i = 0; r >= 0 && r < SUGARRAY_ROUNDS && i < SIDES; i++) {
        struct order o = {.rules = RULES_SUGARRAY, .u.sugarray = sb->orders[r][i]};

        RENDER_LIT(t, "\n");
        str_cat(t, c[i].name);
        RENDER_LIT(t, ": ");
        if (conceded && form == RENDER_PLAIN)
            str_cat(t, sb->orders[r][i].towel ? "towel" : "not fought");
        else
            order_add(t, &o);
        RENDER_LIT(t, "; endurance ");
        render_int(t, sb->end_after[r][i]);
        RENDER_LIT(t, "; attack total ");
        render_int(t, sb->attack_total[i]);
    }
}

/* After a round a corner conceded (RENDER_PLAIN): that it was not fought. */
static void report_tail(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                        enum render_form form)
{
    const struct sugarray_bout *sb = &b->u.sugarray;
    int r = b->round - 1;

    if (form != RENDER_PLAIN || r < 0 || r >= SUGARRAY_ROUNDS ||
        !(sb->orders[r][0].towel || sb->orders[r][1].towel))
        return;
    int towel[SIDES] = {sb->orders[r][0].towel, sb->orders[r][1].towel};
    render_fmt(t, "\nRound %d not fought, conceded by ", b->round);
    conceded_add(t, c, towel);
    RENDER_LIT(t, ".");
}

/* Blows are SUGAR RAY's alone, and its endurance is whole points. */
static int event_add(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                     const struct event *e, enum render_form form)
{
    int known = e->side >= 0 && e->side < SIDES;
    const char *name = known ? c[e->side].name : "-";

    (void)b;
    (void)form;
    switch (e->type) {
    case EV_FATIGUE:
        render_fmt(t, "%s loses %.0f endurance to fatigue.", name, e->x);
        return 1;
    case EV_BLOW:
        str_cat(t, name);
        RENDER_LIT(t, "'s attack costs ");
        str_cat(t, known ? c[!e->side].name : "-");
        RENDER_LIT(t, " ");
        render_int(t, e->a);
        RENDER_LIT(t, " endurance.");
        return 1;
    default:
        return 0;
    }
}

/* ----------------------------------------------------------- the result */

/* A win on attack points, or a tie on them. */
static void verdict_add(struct str *t, const struct render_corner c[SIDES], const struct bout *b)
{
    const struct sugarray_bout *sb = &b->u.sugarray;
    int w = b->result.winner;

    if (w < 0)
        render_fmt(t, "Draw on points, %d-%d.", sb->attack_total[0], sb->attack_total[1]);
    else
        render_fmt(t, "%s wins on points, %d-%d.", c[w].name, sb->attack_total[w],
                   sb->attack_total[!w]);
}

int render_sugarray_line(const struct render_corner c[SIDES], const struct bout *b, int side,
                         const char *tail, char *buf, size_t len)
{
    const struct sugarray_bout *sb = &b->u.sugarray;
    /* The bout keeps the sheets it started with; the corner's may have
     * changed since (training, the changes after a bout). */
    const struct sugarray_sheet *s = &sb->sheet[side];
    struct str t;
    char one[1];

    render_start(&t, buf, len, one);
    /* Piece by piece, no format (a "%2d" is printf's each time): a page
     * has one a round. */
    str_cat(&t, c[side].name);
    RENDER_LIT(&t, " (");
    render_int(&t, s->skill);
    RENDER_LIT(&t, ",");
    render_int(&t, s->endurance);
    RENDER_LIT(&t, ")");
    for (int r = 0; r < b->round && r < SUGARRAY_ROUNDS; r++) {
        const struct sugarray_order *o = &sb->orders[r][side];
        int end = sb->end_after[r][side];

        /* A conceded round was not fought: it has no orders to show. Plans
         * cannot throw in the towel here: a towel is his own forfeit. */
        if (o->towel && c[side].conceded) {
            RENDER_LIT(&t, " forfeit (");
        } else if (o->towel) {
            RENDER_LIT(&t, " towel (");
        } else {
            RENDER_LIT(&t, " ");
            render_int(&t, o->attack);
            RENDER_LIT(&t, "/");
            render_int(&t, o->defence);
            RENDER_LIT(&t, " (");
        }
        if (end >= 0 && end <= 9) /* "%2d": one digit gets a space before it */
            RENDER_LIT(&t, " ");
        render_int(&t, end);
        RENDER_LIT(&t, ")");
    }
    str_cat(&t, tail ? tail : "");
    return render_len(&t);
}

/* The two classic report lines, the winner's first. No draws. */
static int result_lines(const struct render_corner c[SIDES], const struct bout *b,
                        struct rng *flavour, char lines[RENDER_RESULT_MAX][RENDER_LINE_MAX])
{
    const struct result *res = &b->result;
    int first = res->over && res->winner >= 0 ? res->winner : 0;
    /* The seed knows PW, KO and TIE. A TKO here is only a towel, which
     * only the player orders (plans have none): a forfeit, said so as the
     * result line and the records say it; not a stoppage. */
    int forfeit = res->over && res->winner >= 0 && res->method == METHOD_TKO &&
                  res->reason == TKO_TOWEL && c[!res->winner].conceded;
    const char *tail = !res->over                  ? ""
                       : res->winner < 0           ? " TIE"
                       : res->method == METHOD_KO  ? " KO"
                       : forfeit                   ? " forfeit"
                       : res->method == METHOD_TKO ? " TKO"
                                                   : " PW";

    (void)flavour;
    render_sugarray_line(c, b, first, tail, lines[0], RENDER_LINE_MAX);
    render_sugarray_line(c, b, !first, res->over && res->winner < 0 ? " TIE" : "", lines[1],
                         RENDER_LINE_MAX);
    return 2;
}

/* ------------------------------------------------------------ the score */

/* Endurance, attack totals and who leads on them. */
static void score_add(struct str *t, const struct render_corner c[SIDES], const struct bout *b)
{
    const struct sugarray_bout *sb = &b->u.sugarray;
    int a0 = sb->attack_total[0], a1 = sb->attack_total[1];

    RENDER_LIT(t, "endurance ");
    str_cat(t, c[0].name);
    RENDER_LIT(t, " ");
    render_int(t, sb->endurance[0]);
    RENDER_LIT(t, ", ");
    str_cat(t, c[1].name);
    RENDER_LIT(t, " ");
    render_int(t, sb->endurance[1]);
    RENDER_LIT(t, "; attack totals ");
    render_int(t, a0);
    RENDER_LIT(t, "-");
    render_int(t, a1);
    if (a0 != a1) {
        RENDER_LIT(t, " (");
        str_cat(t, c[a1 > a0].name);
        RENDER_LIT(t, " ahead)");
    } else
        str_cat(t, " (level)");
}

/* A TKO is only a forfeit: plans have no towel here. */
static const enum method methods[] = {METHOD_KO, METHOD_POINTS, METHOD_NONE};

/* SUGAR RAY's words, registered through engine/rulesets.h: no cards after
 * the report's events (only a conceded round is said there), no injuries. */
/* A fighter's endurance points, from his sheet's down. */
static double meter(const struct bout *b, int side, double *start)
{
    const struct sugarray_bout *sb = &b->u.sugarray;

    *start = sb->sheet[side].endurance;
    return sb->endurance[side];
}

const struct words sugarray_words = {
    .sheet_add = sheet_add,
    .round = round_lines,
    .report_head = report_head,
    .report_tail = report_tail,
    .event_add = event_add,
    .verdict_add = verdict_add,
    .result = result_lines,
    .score_add = score_add,
    .injuries = NULL,
    .methods = methods,
    .meter_name = "endurance",
    .meter = meter,
};
