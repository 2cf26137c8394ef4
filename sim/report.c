/*
 * report.c - the text report, the JSON Lines writer and bout statistics.
 *
 * Everything here is a pure function of the recorded bout: no clock, no
 * addresses, no locale-dependent formatting beyond the C locale the
 * simulator runs in. Reals go out as "%.2f" in text and "%.4f" in JSON.
 */
#include <string.h>

#include "game.h"
#include "parse.h"
#include "report.h"

_Static_assert(SUGARRAY_ROUNDS <= REPORT_ROUNDS_MAX, "the log must hold a sugarray bout");

/* ------------------------------------------------------------------ log */

void report_log_clear(struct report_log *log)
{
    log->n = 0;
}

int report_log_round(struct report_log *log, const struct bout *b, const struct events *evs)
{
    if (log->n >= REPORT_ROUNDS_MAX)
        return -1;
    struct report_round *rr = &log->round[log->n++];

    if (b->rules == RULES_BOXING) {
        const struct boxing_bout *bb = &b->u.boxing;

        for (int i = 0; i < SIDES; i++) {
            rr->side[i] = bb->last[i];
            memcpy(rr->inj[i], bb->f[i].inj, sizeof(rr->inj[i]));
            rr->warnings[i] = bb->f[i].warnings;
            memcpy(rr->cards[i], bb->f[i].cards, sizeof(rr->cards[i]));
        }
    }
    /* Only the recorded events: the list is large and mostly empty. */
    rr->evs.n = evs->n;
    rr->evs.dropped = evs->dropped;
    memcpy(rr->evs.ev, evs->ev, (size_t)evs->n * sizeof(evs->ev[0]));
    return 0;
}

/* The corners the commentary module wants, from the simulator's names. */
static void corners(const struct report_bout *rb, struct render_corner c[SIDES])
{
    for (int i = 0; i < SIDES; i++) {
        memset(&c[i], 0, sizeof(c[i]));
        snprintf(c[i].name, sizeof(c[i].name), "%s", rb->name[i]);
        c[i].sheet = rb->sheet[i];
    }
}

int report_result_line(const struct report_bout *rb, const struct bout *b, char *buf, size_t len)
{
    struct render_corner c[SIDES];

    corners(rb, c);
    return render_result_text(c, b, buf, len);
}

/* ----------------------------------------------------------------- text */

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

static void text_boxing(FILE *out, const struct report_bout *rb, const struct bout *b,
                        const struct report_log *log)
{
    struct render_corner c[SIDES];

    corners(rb, c);
    int w = (int)strlen(rb->name[0]);
    char line[256];

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
        for (int i = 0; i < SIDES; i++) {
            const struct boxing_side_round *s = &rr->side[i];
            char order[64];

            order_text(&s->order, order, sizeof(order));
            fprintf(out,
                    "  %-*s  %-20s  STR %5.2f  SPD %5.2f  AGL %5.2f  AGG %2d  landed %6.2f of %3d"
                    "  damage %6.2f  endurance %7.2f\n",
                    w, rb->name[i], order, s->str, s->spd, s->agl, s->agg, s->landed, s->thrown,
                    s->damage, s->endurance);
        }
        for (int i = 0; i < SIDES; i++)
            if (rr->why[i][0])
                fprintf(out, "  %s's plan: %s\n", rb->name[i], rr->why[i]);
        for (int k = 0; k < rr->evs.n; k++)
            text_event(out, c, b, &rr->evs.ev[k]);
        if (rr->evs.dropped > 0)
            fprintf(out, "  (%d more events not recorded)\n", rr->evs.dropped);
        fprintf(out, "  Cards %s-%s:", rb->name[0], rb->name[1]);
        for (int j = 0; j < JUDGES; j++)
            fprintf(out, "%s %d-%d", j ? "," : "", rr->side[0].cards[j], rr->side[1].cards[j]);
        fprintf(out, "; totals");
        for (int j = 0; j < JUDGES; j++)
            fprintf(out, "%s %d-%d", j ? "," : "", rr->cards[0][j], rr->cards[1][j]);
        fprintf(out, "\n");
    }
    report_result_line(rb, b, line, sizeof(line));
    fprintf(out, "\n%s\n", line);
}

/* One classic line (seed 004): name, sheet, rounds fought, PW/KO/TIE; the
 * bot's commentary writes the same line (render_sugarray_line). */
static void text_sugarray_line(FILE *out, const struct render_corner c[SIDES], const struct bout *b,
                               int side, const char *tail)
{
    char line[RENDER_LINE_MAX];

    render_sugarray_line(c, b, side, tail, line, sizeof(line));
    fprintf(out, "%s\n", line);
}

static void text_sugarray(FILE *out, const struct report_bout *rb, const struct bout *b)
{
    const struct result *res = &b->result;
    struct render_corner c[SIDES];

    memset(c, 0, sizeof(c));
    for (int i = 0; i < SIDES; i++) {
        snprintf(c[i].name, sizeof(c[i].name), "%s", rb->name[i]);
        c[i].sheet = rb->sheet[i];
    }
    if (res->winner < 0) {
        text_sugarray_line(out, c, b, 0, " TIE");
        text_sugarray_line(out, c, b, 1, " TIE");
        return;
    }
    text_sugarray_line(out, c, b, res->winner, res->method == METHOD_KO ? " KO" : " PW");
    text_sugarray_line(out, c, b, !res->winner, "");
}

int report_text(FILE *out, const struct report_bout *rb, const struct bout *b,
                const struct report_log *log)
{
    if (b->rules == RULES_SUGARRAY) {
        text_sugarray(out, rb, b);
        /* The classic lines stay as they are; plans are explained below. */
        for (int r = 0; r < log->n; r++)
            for (int i = 0; i < SIDES; i++)
                if (log->round[r].why[i][0])
                    fprintf(out, "round %d, %s's plan: %s\n", r + 1, rb->name[i],
                            log->round[r].why[i]);
    } else
        text_boxing(out, rb, b, log);
    return ferror(out) ? -1 : 0;
}

/* ----------------------------------------------------------------- JSON */

/* A JSON string; names are plain ASCII but anything else is escaped too. */
static void json_string(FILE *out, const char *s)
{
    putc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;

        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            putc(c, out);
    }
    putc('"', out);
}

static void json_ints(FILE *out, const int *v, int n)
{
    putc('[', out);
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%d", i ? "," : "", v[i]);
    putc(']', out);
}

static const char *method_json(enum method m)
{
    switch (m) {
    case METHOD_KO:
        return "\"KO\"";
    case METHOD_TKO:
        return "\"TKO\"";
    case METHOD_DQ:
        return "\"DQ\"";
    case METHOD_DECISION:
        return "\"decision\"";
    case METHOD_POINTS:
        return "\"points\"";
    case METHOD_DRAW:
        return "\"draw\"";
    default:
        return "null";
    }
}

static const char *reason_json(enum tko_reason r)
{
    switch (r) {
    case TKO_ENDURANCE:
        return "\"endurance\"";
    case TKO_FATIGUE:
        return "\"fatigue\"";
    case TKO_INJURY:
        return "\"injury\"";
    case TKO_AGGRAVATED:
        return "\"aggravated\"";
    case TKO_BROKEN_JAW:
        return "\"broken_jaw\"";
    case TKO_EYES_SHUT:
        return "\"eyes_shut\"";
    case TKO_TOWEL:
        return "\"towel\"";
    default:
        return "null";
    }
}

static void json_sheet(FILE *out, const struct sheet *s)
{
    if (s->rules == RULES_SUGARRAY)
        fprintf(out, "{\"skill\":%d,\"endurance\":%d}", s->u.sugarray.skill,
                s->u.sugarray.endurance);
    else
        fprintf(out, "{\"str\":%d,\"spd\":%d,\"agl\":%d,\"tgh\":%d,\"hgt\":%d}", s->u.boxing.str,
                s->u.boxing.spd, s->u.boxing.agl, s->u.boxing.tgh, s->u.boxing.hgt);
}

/* The JSON name of a decision, or NULL when there is none. */
static const char *decision_json(enum decision d)
{
    switch (d) {
    case DECISION_UNANIMOUS:
        return "unanimous";
    case DECISION_SPLIT:
        return "split";
    case DECISION_MAJORITY:
        return "majority";
    default:
        return NULL;
    }
}

static void json_result(FILE *out, const struct bout *b)
{
    const struct result *res = &b->result;
    const char *d = decision_json(res->decision);

    fprintf(out, "{\"winner\":%s,\"method\":%s,\"drawn_by\":%s,\"reason\":%s,\"decision\":",
            res->winner == 0   ? "\"a\""
            : res->winner == 1 ? "\"b\""
                               : "null",
            method_json(res->method), res->winner < 0 ? method_json(res->drawn_by) : "null",
            reason_json(res->reason));
    if (d)
        fprintf(out, "\"%s\"", d);
    else
        fputs("null", out);
    fprintf(out, ",\"round\":%d,\"cards\":[", res->round);
    if (b->rules == RULES_BOXING)
        for (int j = 0; j < JUDGES; j++)
            fprintf(out, "%s[%d,%d]", j ? "," : "", res->cards[j][0], res->cards[j][1]);
    fputs("]}", out);
}

/* ,"line":N and, with --explain, ,"why":"..." of side i. */
static void json_source(FILE *out, const struct report_round *rr, int i)
{
    if (rr->line[i] < 0)
        fputs(",\"line\":null", out);
    else
        fprintf(out, ",\"line\":%d", rr->line[i]);
    if (rr->why[i][0]) {
        fputs(",\"why\":", out);
        json_string(out, rr->why[i]);
    }
}

static void json_boxing_side(FILE *out, const struct report_round *rr, int i)
{
    const struct boxing_side_round *s = &rr->side[i];
    char order[64];
    int first = 1;

    order_text(&s->order, order, sizeof(order));
    fputs("{\"order\":", out);
    json_string(out, order);
    fprintf(out,
            ",\"end_begin\":%.4f,\"str\":%.4f,\"spd\":%.4f,\"agl\":%.4f,\"agg\":%d,\"rest\":%d"
            ",\"def_rate\":%.4f,\"thrown\":%d,\"landed\":%.4f,\"counts\":",
            s->end_begin, s->str, s->spd, s->agl, s->agg, s->rest, s->def_rate, s->thrown,
            s->landed);
    json_ints(out, s->counts, JUDGES);
    fprintf(out,
            ",\"damage\":%.4f,\"kd_damage\":%.4f,\"injury_damage\":%.4f,\"fatigue\":%.4f"
            ",\"endurance\":%.4f,\"knockdowns\":%d,\"warnings\":%d,\"warnings_total\":%d"
            ",\"disqualified\":%d,\"clinch_penalty\":%d,\"injuries\":[",
            s->damage, s->kd_damage, s->injury_damage, s->fatigue, s->endurance, s->knockdowns,
            s->warned || s->fouled ? 1 : 0, rr->warnings[i], s->dq, s->clinch_penalty ? 1 : 0);
    for (int l = 0; l < INJ_COUNT; l++) {
        if (rr->inj[i][l].level <= 0)
            continue;
        fprintf(out, "%s{\"location\":", first ? "" : ",");
        json_string(out, injury_loc_name((enum injury_loc)l));
        fprintf(out, ",\"level\":%d}", rr->inj[i][l].level);
        first = 0;
    }
    fputs("],\"cards\":", out);
    json_ints(out, s->cards, JUDGES);
    json_source(out, rr, i);
    putc('}', out);
}

int report_json(FILE *out, const struct report_bout *rb, const struct bout *b,
                const struct report_log *log)
{
    fprintf(out, "{\"rules\":\"%s\",\"seed\":%llu,\"rounds_scheduled\":%d",
            b->rules == RULES_SUGARRAY ? "sugarray" : "boxing", (unsigned long long)rb->seed,
            b->rounds);
    for (int i = 0; i < SIDES; i++) {
        fprintf(out, ",\"%s\":{\"name\":", i ? "b" : "a");
        json_string(out, rb->name[i]);
        fputs(",\"sheet\":", out);
        json_sheet(out, &rb->sheet[i]);
        putc('}', out);
    }
    fputs(",\"result\":", out);
    json_result(out, b);
    fputs(",\"rounds\":[", out);
    if (b->rules == RULES_SUGARRAY) {
        const struct sugarray_bout *sb = &b->u.sugarray;

        for (int r = 0; r < b->round && r < SUGARRAY_ROUNDS; r++) {
            fprintf(out, "%s{\"round\":%d", r ? "," : "", r + 1);
            for (int i = 0; i < SIDES; i++) {
                fprintf(out, ",\"%s\":{\"order\":\"%d/%d\",\"endurance\":%d", i ? "b" : "a",
                        sb->orders[r][i].attack, sb->orders[r][i].defence, sb->end_after[r][i]);
                if (r < log->n)
                    json_source(out, &log->round[r], i);
                putc('}', out);
            }
            putc('}', out);
        }
    } else {
        for (int r = 0; r < log->n; r++) {
            fprintf(out, "%s{\"round\":%d", r ? "," : "", r + 1);
            for (int i = 0; i < SIDES; i++) {
                fprintf(out, ",\"%s\":", i ? "b" : "a");
                json_boxing_side(out, &log->round[r], i);
            }
            putc('}', out);
        }
    }
    fputs("]}\n", out);
    return ferror(out) ? -1 : 0;
}

/* ----------------------------------------------------------- statistics */

void report_stats_add(struct report_stats *st, const struct result *res)
{
    st->bouts++;
    if (res->winner == 0 || res->winner == 1) {
        st->wins[res->winner]++;
        if ((int)res->method >= 0 && res->method <= METHOD_DRAW)
            st->method[res->method]++;
    } else {
        st->draws++;
        st->method[METHOD_DRAW]++;
    }
}

static double percent(long n, long of)
{
    return of > 0 ? 100.0 * (double)n / (double)of : 0.0;
}

int report_stats_text(FILE *out, const struct report_bout *rb, const struct report_stats *st,
                      double bouts_per_sec)
{
    long n = st->bouts;

    fprintf(out, "bouts %ld\n", n);
    fprintf(out, "wins %s %.2f%% %s %.2f%% draws %.2f%%\n", rb->name[0], percent(st->wins[0], n),
            rb->name[1], percent(st->wins[1], n), percent(st->draws, n));
    fprintf(out,
            "methods ko %.2f%% tko %.2f%% dq %.2f%% decision %.2f%% points %.2f%% draw %.2f%%\n",
            percent(st->method[METHOD_KO], n), percent(st->method[METHOD_TKO], n),
            percent(st->method[METHOD_DQ], n), percent(st->method[METHOD_DECISION], n),
            percent(st->method[METHOD_POINTS], n), percent(st->method[METHOD_DRAW], n));
    fprintf(out, "bouts_per_sec %.1f\n", bouts_per_sec);
    return ferror(out) ? -1 : 0;
}

int report_stats_json(FILE *out, const struct report_stats *st)
{
    long n = st->bouts;

    fprintf(out,
            "{\"stats\":{\"bouts\":%ld,\"wins\":{\"a\":%.4f,\"b\":%.4f},\"draws\":%.4f,"
            "\"methods\":{\"ko\":%.4f,\"tko\":%.4f,\"dq\":%.4f,\"decision\":%.4f,\"points\":%.4f,"
            "\"draw\":%.4f}}}\n",
            n, percent(st->wins[0], n), percent(st->wins[1], n), percent(st->draws, n),
            percent(st->method[METHOD_KO], n), percent(st->method[METHOD_TKO], n),
            percent(st->method[METHOD_DQ], n), percent(st->method[METHOD_DECISION], n),
            percent(st->method[METHOD_POINTS], n), percent(st->method[METHOD_DRAW], n));
    return ferror(out) ? -1 : 0;
}
