/*
 * report.c - the text report, the JSON Lines writer and bout statistics:
 * what every ruleset shares.
 *
 * Each ruleset's own parts (what a round records, its text report, its
 * sheet, cards and round fields in JSON) live in sim/report_NAME.c, reached
 * through the table below, built from the one list of rulesets; nothing
 * here names a ruleset. Everything is a pure function of the recorded bout:
 * no clock, no addresses, no locale-dependent formatting beyond the C locale
 * the simulator runs in. Reals go out as "%.2f" in text and "%.4f" in JSON.
 */
#include <assert.h>
#include <string.h>

#include "report_internal.h"

static const struct report_rules *const report_rules[RULES_COUNT] = {
#define RULESET(name, NAME) [RULES_##NAME] = &name##_report,
#include "rulesets.h"
#undef RULESET
};

/* The report parts of the ruleset `id`, which must be one. */
static const struct report_rules *rules_get(enum rules id)
{
    assert((int)id >= 0 && id < RULES_COUNT && report_rules[id]);
    return report_rules[id];
}

/* ------------------------------------------------------------------ log */

void report_log_clear(struct report_log *log)
{
    log->n = 0;
}

int report_log_round(struct report_log *log, const struct bout *b, const struct events *evs)
{
    const struct report_rules *rules = rules_get(b->rules);

    if (log->n >= REPORT_ROUNDS_MAX)
        return -1;
    struct report_round *rr = &log->round[log->n++];

    if (rules->log_round)
        rules->log_round(rr, b);
    /* Only the recorded events: the list is large and mostly empty. */
    rr->evs.n = evs->n;
    rr->evs.dropped = evs->dropped;
    memcpy(rr->evs.ev, evs->ev, (size_t)evs->n * sizeof(evs->ev[0]));
    return 0;
}

void report_corners(const struct report_bout *rb, struct render_corner c[SIDES])
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

    report_corners(rb, c);
    return render_result_text(c, b, buf, len);
}

/* ----------------------------------------------------------------- text */

int report_text(FILE *out, const struct report_bout *rb, const struct bout *b,
                const struct report_log *log)
{
    rules_get(b->rules)->text(out, rb, b, log);
    return ferror(out) ? -1 : 0;
}

/* ----------------------------------------------------------------- JSON */

void report_json_string(FILE *out, const char *s)
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

void report_json_ints(FILE *out, const int *v, int n)
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

static void json_result(FILE *out, const struct bout *b)
{
    const struct result *res = &b->result;
    const char *d = decision_name(res->decision);
    const struct report_rules *rules = rules_get(b->rules);

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
    if (rules->json_cards)
        rules->json_cards(out, res);
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
        report_json_string(out, rr->why[i]);
    }
}

int report_json(FILE *out, const struct report_bout *rb, const struct bout *b,
                const struct report_log *log)
{
    const struct report_rules *rules = rules_get(b->rules);
    int rounds = rules->json_rounds(b, log);

    fputs("{\"rules\":", out);
    report_json_string(out, ruleset_get(b->rules)->name);
    fprintf(out, ",\"seed\":%llu,\"rounds_scheduled\":%d", (unsigned long long)rb->seed, b->rounds);
    for (int i = 0; i < SIDES; i++) {
        fprintf(out, ",\"%s\":{\"name\":", i ? "b" : "a");
        report_json_string(out, rb->name[i]);
        fputs(",\"sheet\":", out);
        rules_get(rb->sheet[i].rules)->json_sheet(out, &rb->sheet[i]);
        putc('}', out);
    }
    fputs(",\"result\":", out);
    json_result(out, b);
    fputs(",\"rounds\":[", out);
    for (int r = 0; r < rounds; r++) {
        fprintf(out, "%s{\"round\":%d", r ? "," : "", r + 1);
        if (rules->json_round)
            rules->json_round(out, b, log, r);
        for (int i = 0; i < SIDES; i++) {
            fprintf(out, ",\"%s\":{", i ? "b" : "a");
            rules->json_side(out, b, log, r, i);
            /* A round fought but not recorded has no source to give. */
            if (r < log->n)
                json_source(out, &log->round[r], i);
            putc('}', out);
        }
        putc('}', out);
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
