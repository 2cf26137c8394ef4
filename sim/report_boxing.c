/*
 * report_boxing.c - the boxing parts of the simulator's reports.
 *
 * The engine keeps only the last round's figures, so each round's are
 * recorded into the log as the bout goes (the figures of both sides, the
 * injuries and warnings at the bell, the running cards) and the writers
 * read them back from there, never from the finished bout. The text is a
 * header, a table and event lines per round, and the result line; the JSON
 * carries every figure of each side's round. The text shows punches whole
 * (to the nearest) and the other reals to one decimal, as the bot's
 * reports do; the JSON keeps "%.4f".
 */
#include <math.h>
#include <string.h>

#include "parse.h"
#include "report_internal.h"

/* Both sides' figures of the round just resolved, and their injuries,
 * warnings and cards at its bell. */
static void log_round(struct report_round *rr, const struct bout *b)
{
    const struct boxing_bout *bb = &b->u.boxing;

    for (int i = 0; i < SIDES; i++) {
        rr->side[i] = bb->last[i];
        memcpy(rr->inj[i], bb->f[i].inj, sizeof(rr->inj[i]));
        rr->warnings[i] = bb->f[i].warnings;
        memcpy(rr->cards[i], bb->f[i].cards, sizeof(rr->cards[i]));
    }
}

/* ----------------------------------------------------------------- text */

/* The order `bo` as a player writes it ("5H/8!/7 (inside)"), or "towel";
 * like snprintf. */
static int order_text(const struct boxing_order *bo, char *buf, size_t len)
{
    struct order o;

    if (bo->towel)
        return snprintf(buf, len, "towel");
    memset(&o, 0, sizeof(o));
    o.rules = RULES_BOXING;
    o.u.boxing = *bo;
    return order_format(&o, buf, len);
}

/* One line per event worth reading, in the commentary's own report words;
 * the figures (styles, punches, damage, cards) are in the table. */
static void text_event(FILE *out, const struct render_corner c[SIDES], const struct bout *b,
                       const struct event *e)
{
    char line[RENDER_LINE_MAX];

    switch (e->type) {
    case EV_STYLE:
    case EV_PUNCHES:
    case EV_DAMAGE:
    case EV_CARD:
    case EV_FATIGUE:
    case EV_BLOW:
    case EV_RESULT:
        return;
    default:
        render_event(c, b, e, line, sizeof(line));
        fprintf(out, "  %s\n", line);
    }
}

/* The table line of each side of round `rr`, names padded to `w`. */
static void text_table(FILE *out, const struct report_bout *rb, const struct report_round *rr,
                       int w)
{
    int conceded = rr->side[0].order.towel || rr->side[1].order.towel;

    for (int i = 0; i < SIDES; i++) {
        const struct boxing_side_round *s = &rr->side[i];
        char order[64];

        order_text(&s->order, order, sizeof(order));
        /* A conceded round was not fought: its figures are all 0. */
        if (conceded) {
            fprintf(out, "  %-*s  %-20s  %s; endurance %.1f\n", w, rb->name[i], order,
                    s->order.towel ? "conceded" : "not fought", s->endurance);
            continue;
        }
        fprintf(out,
                "  %-*s  %-20s  STR %4.1f  SPD %4.1f  AGL %4.1f  AGG %2d  landed %3ld of %3d"
                "  damage %5.1f  endurance %5.1f\n",
                w, rb->name[i], order, s->str, s->spd, s->agl, s->agg, lround(s->landed), s->thrown,
                s->damage, s->endurance);
    }
}

/* " a-b, a-b, a-b": each judge's points for side 0 (a) and side 1 (b). */
static void text_cards(FILE *out, const int a[JUDGES], const int b[JUDGES])
{
    for (int j = 0; j < JUDGES; j++)
        fprintf(out, "%s %d-%d", j ? "," : "", a[j], b[j]);
}

/* The cards of round r (0-based) and the totals; for a round a corner
 * conceded, that it was not scored (and the totals after round 1). */
static void text_score(FILE *out, const struct report_bout *rb, const struct report_round *rr,
                       int r)
{
    int towel[SIDES] = {rr->side[0].order.towel, rr->side[1].order.towel};

    if (towel[0] || towel[1]) {
        if (towel[0] && towel[1])
            fprintf(out, "  Round %d not scored, conceded by both corners", r + 1);
        else
            fprintf(out, "  Round %d not scored, conceded by %s's corner", r + 1,
                    rb->name[towel[1]]);
        if (r > 0) {
            fprintf(out, "; totals %s-%s:", rb->name[0], rb->name[1]);
            text_cards(out, rr->cards[0], rr->cards[1]);
        }
        fprintf(out, "\n");
        return;
    }
    fprintf(out, "  Cards %s-%s:", rb->name[0], rb->name[1]);
    text_cards(out, rr->side[0].cards, rr->side[1].cards);
    fprintf(out, "; totals");
    text_cards(out, rr->cards[0], rr->cards[1]);
    fprintf(out, "\n");
}

/* The header (sheets, rounds, seed), per round a table line per side, the
 * plan lines, the events and the cards, then the result line. */
static void text(FILE *out, const struct report_bout *rb, const struct bout *b,
                 const struct report_log *log)
{
    struct render_corner c[SIDES];
    char line[256];
    int w = (int)strlen(rb->name[0]);

    report_corners(rb, c);
    if ((int)strlen(rb->name[1]) > w)
        w = (int)strlen(rb->name[1]);
    for (int i = 0; i < SIDES; i++) {
        const struct boxing_sheet *s = &rb->sheet[i].u.boxing;

        fprintf(out, "%s%s (STR %d, SPD %d, AGL %d, TGH %d, HGT %d)", i ? " vs " : "", rb->name[i],
                s->str, s->spd, s->agl, s->tgh, s->hgt);
    }
    fprintf(out, ": boxing, %d rounds, seed %llu\n", b->rounds, (unsigned long long)rb->seed);
    for (int r = 0; r < log->n; r++) {
        const struct report_round *rr = &log->round[r];

        fprintf(out, "\nRound %d\n", r + 1);
        text_table(out, rb, rr, w);
        for (int i = 0; i < SIDES; i++)
            if (rr->why[i][0])
                fprintf(out, "  %s's plan: %s\n", rb->name[i], rr->why[i]);
        for (int k = 0; k < rr->evs.n; k++)
            text_event(out, c, b, &rr->evs.ev[k]);
        if (rr->evs.dropped > 0)
            fprintf(out, "  (%d more events not recorded)\n", rr->evs.dropped);
        text_score(out, rb, rr, r);
    }
    report_result_line(rb, b, line, sizeof(line));
    fprintf(out, "\n%s\n", line);
}

/* ----------------------------------------------------------------- JSON */

/* {"str":14,"spd":12,"agl":11,"tgh":12,"hgt":11} */
static void json_sheet(FILE *out, const struct sheet *s)
{
    fprintf(out, "{\"str\":%d,\"spd\":%d,\"agl\":%d,\"tgh\":%d,\"hgt\":%d}", s->u.boxing.str,
            s->u.boxing.spd, s->u.boxing.agl, s->u.boxing.tgh, s->u.boxing.hgt);
}

/* Each judge's totals: [a,b],[a,b],[a,b]. */
static void json_cards(FILE *out, const struct result *res)
{
    for (int j = 0; j < JUDGES; j++)
        fprintf(out, "%s[%d,%d]", j ? "," : "", res->cards[j][0], res->cards[j][1]);
}

/* Every recorded round: the figures are in the log only. */
static int json_rounds(const struct bout *b, const struct report_log *log)
{
    (void)b;
    return log->n;
}

/* Every figure of the side's round as recorded, its injuries at the bell
 * (only those it has) and its cards. */
static void json_side(FILE *out, const struct bout *b, const struct report_log *log, int r,
                      int side)
{
    const struct report_round *rr = &log->round[r];
    const struct boxing_side_round *s = &rr->side[side];
    char order[64];
    int first = 1;

    (void)b;
    order_text(&s->order, order, sizeof(order));
    fputs("\"order\":", out);
    report_json_string(out, order);
    fprintf(out,
            ",\"end_begin\":%.4f,\"str\":%.4f,\"spd\":%.4f,\"agl\":%.4f,\"agg\":%d,\"rest\":%d"
            ",\"def_rate\":%.4f,\"thrown\":%d,\"landed\":%.4f,\"counts\":",
            s->end_begin, s->str, s->spd, s->agl, s->agg, s->rest, s->def_rate, s->thrown,
            s->landed);
    report_json_ints(out, s->counts, JUDGES);
    fprintf(out,
            ",\"damage\":%.4f,\"kd_damage\":%.4f,\"injury_damage\":%.4f,\"fatigue\":%.4f"
            ",\"endurance\":%.4f,\"knockdowns\":%d,\"warnings\":%d,\"warnings_total\":%d"
            ",\"disqualified\":%d,\"clinch_penalty\":%d,\"injuries\":[",
            s->damage, s->kd_damage, s->injury_damage, s->fatigue, s->endurance, s->knockdowns,
            s->warned || s->fouled ? 1 : 0, rr->warnings[side], s->dq, s->clinch_penalty ? 1 : 0);
    for (int l = 0; l < INJ_COUNT; l++) {
        if (rr->inj[side][l].level <= 0)
            continue;
        fprintf(out, "%s{\"location\":", first ? "" : ",");
        report_json_string(out, injury_loc_name((enum injury_loc)l));
        fprintf(out, ",\"level\":%d}", rr->inj[side][l].level);
        first = 0;
    }
    fputs("],\"cards\":", out);
    report_json_ints(out, s->cards, JUDGES);
}

const struct report_rules boxing_report = {
    .log_round = log_round,
    .text = text,
    .json_sheet = json_sheet,
    .json_cards = json_cards,
    .json_rounds = json_rounds,
    .json_side = json_side,
};
