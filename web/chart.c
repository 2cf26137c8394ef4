/*
 * chart.c - a bout's chart as inline SVG: each fighter's meter (endurance;
 * health for a ruleset that counts it) from the start through every round
 * fought, over the rounds scheduled, and under it a lane per fighter with
 * what each round did to him: knockdowns, injuries, warnings, the
 * stoppage; in a duel critical hits taken, stuns, pieces broken, going
 * down or yielding. A round's marks of one kind are one symbol (its title
 * says them all). Every point and mark carries a <title> (a tooltip in a
 * browser, words for a screen reader); names are escaped. The legend
 * explains the marks the ruleset makes (bout_view's mark_kinds).
 *
 * The chart reads only struct bout_view's series (meter_start, and meter[]
 * of each round) and marks, so a ruleset needs nothing here.
 */
#include <math.h>
#include <stdio.h>

#include "web.h"

#define W      640
#define H      312
#define LEFT   46
#define RIGHT  626
#define TOP    34
#define BOTTOM 232
#define LANE0  258
#define LANE1  284

static const char *const colour[SIDES] = {"#c62828", "#1565c0"};

/* A round number to its x. */
static double x_of(int round, int rounds)
{
    return LEFT + (double)(RIGHT - LEFT) * round / (rounds > 0 ? rounds : 1);
}

static double y_of(double value, double top)
{
    if (value < 0)
        value = 0;
    if (value > top)
        value = top;
    return BOTTOM - (double)(BOTTOM - TOP) * value / top;
}

/* A round top for the axis: 1, 2 or 5 times a power of ten, times the
 * number of grid lines. */
static double nice_top(double max, double *step)
{
    double raw = max > 0 ? max / 4 : 0.25;
    double p = pow(10, floor(log10(raw)));
    double m = raw / p;

    *step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * p;
    return ceil((max > 0 ? max : 1) / *step) * *step;
}

/* One mark's symbol centred at (x, y). */
static void symbol(struct str *b, enum view_mark_kind kind, double x, double y, const char *fill)
{
    switch (kind) {
    case VIEW_KNOCKDOWN:
        render_fmt(b, "<path d=\"M%.1f %.1fh10l-5 9z\" fill=\"%s\"/>", x - 5, y - 5, fill);
        break;
    case VIEW_INJURY:
        render_fmt(b, "<path d=\"M%.1f %.1fh3v3h3v3h-3v3h-3v-3h-3v-3h3z\" fill=\"%s\"/>", x - 1.5,
                   y - 4.5, fill);
        break;
    case VIEW_WARNING:
        render_fmt(b,
                   "<path d=\"M%.1f %.1fl5.5 10h-11z\" fill=\"none\" stroke=\"%s\" "
                   "stroke-width=\"1.6\"/><path d=\"M%.1f %.1fv3.6\" stroke=\"%s\" "
                   "stroke-width=\"1.6\"/>",
                   x, y - 5.5, fill, x, y - 2, fill);
        break;
    case VIEW_STOPPAGE:
        render_fmt(b, "<path d=\"M%.1f %.1fl9 9m0 -9l-9 9\" stroke=\"%s\" stroke-width=\"2.6\"/>",
                   x - 4.5, y - 4.5, fill);
        break;
    case VIEW_CRITICAL: /* a four-pointed star */
        render_fmt(
            b,
            "<path d=\"M%.1f %.1fl1.7 4.3 4.3 1.7-4.3 1.7-1.7 4.3-1.7-4.3-4.3-1.7 4.3-1.7z\" "
            "fill=\"%s\"/>",
            x, y - 6, fill);
        break;
    case VIEW_STUN: /* a lightning bolt */
        render_fmt(b, "<path d=\"M%.1f %.1fl-5 7h4l-1.5 5 6-7.5h-4l1.5-4.5z\" fill=\"%s\"/>",
                   x + 1.5, y - 6, fill);
        break;
    case VIEW_BREAK: /* a square split by a crack */
        render_fmt(b,
                   "<path d=\"M%.1f %.1fh4l1 3-2 2 1 5h-4zM%.1f %.1fh4v10h-4l-1-5 2-2z\" "
                   "fill=\"%s\"/>",
                   x - 5.5, y - 5, x + 1.5, y - 5, fill);
        break;
    case VIEW_MARK_KINDS:
        break;
    }
}

/* What every step of the chart needs: the bout, the rounds across (the
 * scheduled ones, or more if more were fought) and the meter's scale. */
struct chart {
    const struct bout_view *v;
    int rounds;
    double top, step;
};

/* The highest meter reached, at the start or after any round. */
static double meter_max(const struct bout_view *v)
{
    double max = 0;

    for (int s = 0; s < SIDES; s++)
        if (v->meter_start[s] > max)
            max = v->meter_start[s];
    for (int i = 0; i < v->nrounds; i++)
        for (int s = 0; s < SIDES; s++)
            if (v->round[i].meter[s] > max)
                max = v->round[i].meter[s];
    return max;
}

/* <svg ...><title>: the meter, the fighters. */
static void chart_open(struct str *b, const struct bout_view *v)
{
    render_fmt(b,
               "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" role=\"img\" "
               "font-family=\"system-ui,sans-serif\" font-size=\"11\"><title>",
               W, H);
    web_html(b, v->meter_name);
    WEB_LIT(b, " of ");
    web_html(b, v->corner[0].name);
    WEB_LIT(b, " and ");
    web_html(b, v->corner[1].name);
    WEB_LIT(b, " round by round</title>");
}

/* The grid and its labels, and the rounds along the bottom (the rounds
 * still to fight with a line of their own). */
static void chart_axes(struct str *b, const struct chart *c)
{
    for (double g = 0; g <= c->top + c->step / 2; g += c->step) {
        double y = y_of(g, c->top);
        render_fmt(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>", LEFT,
                   RIGHT, y, y, g == 0 ? "#9aa4ae" : "#e6e9ed");
        render_fmt(b, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#66717c\">%g</text>",
                   LEFT - 6, y + 4, g);
    }
    /* Without printf, as chart_line: a column a round scheduled. */
    for (int r = 0; r <= c->rounds; r++) {
        double x = x_of(r, c->rounds);
        if (r > 0 && r > c->v->nrounds) {
            WEB_LIT(b, "<line x1=\"");
            web_tenths(b, x);
            WEB_LIT(b, "\" x2=\"");
            web_tenths(b, x);
            WEB_LIT(b, "\" y1=\"");
            web_int(b, TOP);
            WEB_LIT(b, "\" y2=\"");
            web_int(b, BOTTOM);
            WEB_LIT(b, "\" stroke=\"#f0f2f4\"/>");
        }
        WEB_LIT(b, "<text x=\"");
        web_tenths(b, x);
        WEB_LIT(b, "\" y=\"");
        web_int(b, BOTTOM + 14);
        WEB_LIT(b, "\" text-anchor=\"middle\" fill=\"#66717c\">");
        if (r > 0)
            web_int(b, r);
        else
            WEB_LIT(b, "start");
        WEB_LIT(b, "</text>");
    }
}

/* The legend: each fighter in his colour, the first from the left, the
 * second from the right, so that long names never meet. */
static void chart_names(struct str *b, const struct bout_view *v)
{
    for (int s = 0; s < SIDES; s++) {
        double x = s ? RIGHT - 22 : LEFT + 4;
        render_fmt(b,
                   "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"14\" y2=\"14\" stroke=\"%s\" "
                   "stroke-width=\"3\"/><text x=\"%.1f\" y=\"18\" font-size=\"13\" "
                   "font-weight=\"700\" fill=\"%s\" text-anchor=\"%s\">",
                   x, x + 22, colour[s], s ? x - 6 : x + 28, colour[s], s ? "end" : "start");
        web_html(b, v->corner[s].name);
        WEB_LIT(b, "</text>");
    }
}

/* "X,Y", each as "%.1f". */
static void point(struct str *b, double x, double y)
{
    web_tenths(b, x);
    str_ch(b, ',');
    web_tenths(b, y);
}

/* Side s's line, then its points with their figures. */
static void chart_line(struct str *b, const struct chart *c, int s)
{
    const struct bout_view *v = c->v;

    /* As "%.1f,%.1f" and the rest would write them, without printf: a
     * bout page has these for every round. */
    render_fmt(b,
               "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\" "
               "stroke-linejoin=\"round\" points=\"",
               colour[s]);
    point(b, x_of(0, c->rounds), y_of(v->meter_start[s], c->top));
    for (int i = 0; i < v->nrounds; i++) {
        str_ch(b, ' ');
        point(b, x_of(v->round[i].round, c->rounds), y_of(v->round[i].meter[s], c->top));
    }
    WEB_LIT(b, "\"/>");
    for (int i = -1; i < v->nrounds; i++) {
        double m = i < 0 ? v->meter_start[s] : v->round[i].meter[s];
        int r = i < 0 ? 0 : v->round[i].round;
        WEB_LIT(b, "<circle cx=\"");
        web_tenths(b, x_of(r, c->rounds));
        WEB_LIT(b, "\" cy=\"");
        web_tenths(b, y_of(m, c->top));
        WEB_LIT(b, "\" r=\"3.5\" fill=\"#fff\" stroke=\"");
        str_cat(b, colour[s]);
        WEB_LIT(b, "\" stroke-width=\"2\"><title>");
        web_html(b, v->corner[s].name);
        if (r == 0) {
            WEB_LIT(b, " at the start: ");
        } else {
            WEB_LIT(b, " after round ");
            web_int(b, r);
            WEB_LIT(b, ": ");
        }
        web_tenths(b, m);
        str_ch(b, ' ');
        web_html(b, v->meter_name);
        WEB_LIT(b, "</title></circle>");
    }
}

/* The lanes of marks, one per fighter. */
static void chart_lanes(struct str *b)
{
    for (int s = 0; s < SIDES; s++) {
        int y = s ? LANE1 : LANE0;
        render_fmt(b,
                   "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#eef0f2\" "
                   "stroke-width=\"14\" stroke-linecap=\"round\"/>"
                   "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/>",
                   LEFT, RIGHT, y, y, LEFT - 12, y, colour[s]);
    }
}

/* One symbol of round vr's marks of `kind` on side s at (x, y), its title
 * every such mark's words. */
static void mark_symbol(struct str *b, const struct view_round *vr, int s, enum view_mark_kind kind,
                        double x, double y)
{
    render_fmt(b, "<g><title>Round %d:", vr->round);
    for (int j = 0; j < vr->nmarks; j++)
        if (vr->marks[j].side == s && vr->marks[j].kind == kind) {
            WEB_LIT(b, " ");
            web_html(b, vr->marks[j].text);
        }
    WEB_LIT(b, "</title>");
    symbol(b, kind, x, y, colour[s]);
    WEB_LIT(b, "</g>");
}

/* The kinds of mark round vr left on side s, in kinds[]; returns how
 * many. */
static int round_kinds(const struct view_round *vr, int s, int kinds[VIEW_MARK_KINDS])
{
    int nk = 0;

    for (int k = 0; k < VIEW_MARK_KINDS; k++) {
        int has = 0;
        for (int j = 0; j < vr->nmarks; j++)
            has |= vr->marks[j].side == s && (int)vr->marks[j].kind == k;
        if (has)
            kinds[nk++] = k;
    }
    return nk;
}

/* The kinds round vr left on side s, each one symbol, side by side,
 * centred on the round, closer when rounds are narrow, kept inside the
 * chart; a knockdown or stoppage also on the line, where he went down. */
static void round_marks(struct str *b, const struct chart *c, const struct view_round *vr, int s)
{
    int kinds[VIEW_MARK_KINDS];
    int nk = round_kinds(vr, s, kinds);
    double column = (double)(RIGHT - LEFT) / (c->rounds > 0 ? c->rounds : 1);

    if (nk == 0)
        return;
    double gap = nk > 1 && (column - 2) / nk < 12 ? (column - 2) / nk : 12;
    if (gap < 7)
        gap = 7;
    double first = x_of(vr->round, c->rounds) - gap / 2 * (nk - 1);
    if (first + gap * (nk - 1) > W - 8)
        first = W - 8 - gap * (nk - 1);
    for (int q = 0; q < nk; q++) {
        enum view_mark_kind kind = (enum view_mark_kind)kinds[q];
        mark_symbol(b, vr, s, kind, first + gap * q, s ? LANE1 : LANE0);
        if (kind == VIEW_KNOCKDOWN || kind == VIEW_STOPPAGE)
            mark_symbol(b, vr, s, kind, x_of(vr->round, c->rounds),
                        y_of(vr->meter[s], c->top) - 12);
    }
}

/* What the marks mean, for the kinds this ruleset makes. */
static void chart_key(struct str *b, const struct bout_view *v)
{
    static const char *const names[VIEW_MARK_KINDS] = {
        [VIEW_KNOCKDOWN] = "knockdown",   [VIEW_INJURY] = "injury",
        [VIEW_WARNING] = "warning",       [VIEW_STOPPAGE] = "stoppage",
        [VIEW_CRITICAL] = "critical hit", [VIEW_STUN] = "stunned",
        [VIEW_BREAK] = "piece broken",
    };
    static const enum view_mark_kind legend[VIEW_MARK_KINDS] = {
        VIEW_KNOCKDOWN, VIEW_INJURY, VIEW_WARNING, VIEW_CRITICAL,
        VIEW_STUN,      VIEW_BREAK,  VIEW_STOPPAGE};
    double x = LEFT + 8;

    for (int q = 0; q < VIEW_MARK_KINDS; q++) {
        enum view_mark_kind k = legend[q];
        if (!(v->mark_kinds & 1u << k))
            continue;
        symbol(b, k, x, H - 10, "#66717c");
        render_fmt(b, "<text x=\"%.1f\" y=\"%d\" fill=\"#66717c\">%s</text>", x + 10, H - 6,
                   names[k]);
        x += 120;
    }
}

void chart_svg(struct str *b, const struct bout_view *v)
{
    struct chart c = {.v = v, .rounds = v->rec.rounds > v->nrounds ? v->rec.rounds : v->nrounds};

    c.top = nice_top(meter_max(v), &c.step);
    chart_open(b, v);
    chart_axes(b, &c);
    chart_names(b, v);
    for (int s = 0; s < SIDES; s++)
        chart_line(b, &c, s);
    chart_lanes(b);
    for (int i = 0; i < v->nrounds; i++)
        for (int s = 0; s < SIDES; s++)
            round_marks(b, &c, &v->round[i], s);
    chart_key(b, v);
    WEB_LIT(b, "</svg>");
}
