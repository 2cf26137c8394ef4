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

/* The chart's numbers as text where they are constants (the literals
 * below are written without printf: a page has a chart). */
#define NUM_(n) #n
#define NUM(n)  NUM_(n)

/* "<path d=\"MX Y": a path's start, each as "%.1f". */
static void path_at(struct str *b, double x, double y)
{
    WEB_LIT(b, "<path d=\"M");
    web_tenths(b, x);
    WEB_LIT(b, " ");
    web_tenths(b, y);
}

/* A path's end: filled with `fill`. */
static void path_filled(struct str *b, const char *fill)
{
    WEB_LIT(b, "\" fill=\"");
    str_cat(b, fill);
    WEB_LIT(b, "\"/>");
}

/* A path's end: stroked with `stroke`, `width` wide (its text). */
static void path_stroked(struct str *b, const char *stroke, const char *width)
{
    WEB_LIT(b, "\" stroke=\"");
    str_cat(b, stroke);
    WEB_LIT(b, "\" stroke-width=\"");
    str_cat(b, width);
    WEB_LIT(b, "\"/>");
}

/* One mark's symbol centred at (x, y). */
static void symbol(struct str *b, enum view_mark_kind kind, double x, double y, const char *fill)
{
    switch (kind) {
    case VIEW_KNOCKDOWN:
        path_at(b, x - 5, y - 5);
        WEB_LIT(b, "h10l-5 9z");
        path_filled(b, fill);
        break;
    case VIEW_INJURY:
        path_at(b, x - 1.5, y - 4.5);
        WEB_LIT(b, "h3v3h3v3h-3v3h-3v-3h-3v-3h3z");
        path_filled(b, fill);
        break;
    case VIEW_WARNING:
        path_at(b, x, y - 5.5);
        WEB_LIT(b, "l5.5 10h-11z\" fill=\"none");
        path_stroked(b, fill, "1.6");
        path_at(b, x, y - 2);
        WEB_LIT(b, "v3.6");
        path_stroked(b, fill, "1.6");
        break;
    case VIEW_STOPPAGE:
        path_at(b, x - 4.5, y - 4.5);
        WEB_LIT(b, "l9 9m0 -9l-9 9");
        path_stroked(b, fill, "2.6");
        break;
    case VIEW_CRITICAL: /* a four-pointed star */
        path_at(b, x, y - 6);
        WEB_LIT(b, "l1.7 4.3 4.3 1.7-4.3 1.7-1.7 4.3-1.7-4.3-4.3-1.7 4.3-1.7z");
        path_filled(b, fill);
        break;
    case VIEW_STUN: /* a lightning bolt */
        path_at(b, x + 1.5, y - 6);
        WEB_LIT(b, "l-5 7h4l-1.5 5 6-7.5h-4l1.5-4.5z");
        path_filled(b, fill);
        break;
    case VIEW_BREAK: /* a square split by a crack */
        path_at(b, x - 5.5, y - 5);
        WEB_LIT(b, "h4l1 3-2 2 1 5h-4zM");
        web_tenths(b, x + 1.5);
        WEB_LIT(b, " ");
        web_tenths(b, y - 5);
        WEB_LIT(b, "h4v10h-4l-1-5 2-2z");
        path_filled(b, fill);
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
    WEB_LIT(b,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " NUM(W) " " NUM(
                H) "\" role=\"img\" font-family=\"system-ui,sans-serif\" font-size=\"11\"><title>");
    str_cat(b, v->meter_name); /* our word */
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
        WEB_LIT(b, "<line x1=\"" NUM(LEFT) "\" x2=\"" NUM(RIGHT) "\" y1=\"");
        web_tenths(b, y);
        WEB_LIT(b, "\" y2=\"");
        web_tenths(b, y);
        WEB_LIT(b, "\" stroke=\"");
        str_cat(b, g == 0 ? "#9aa4ae" : "#e6e9ed");
        WEB_LIT(b, "\"/><text x=\"");
        web_int(b, LEFT - 6);
        WEB_LIT(b, "\" y=\"");
        web_tenths(b, y + 4);
        WEB_LIT(b, "\" text-anchor=\"end\" fill=\"#66717c\">");
        render_fmt(b, "%g", g);
        WEB_LIT(b, "</text>");
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
        WEB_LIT(b, "<line x1=\"");
        web_tenths(b, x);
        WEB_LIT(b, "\" x2=\"");
        web_tenths(b, x + 22);
        WEB_LIT(b, "\" y1=\"14\" y2=\"14\" stroke=\"");
        str_cat(b, colour[s]);
        WEB_LIT(b, "\" stroke-width=\"3\"/><text x=\"");
        web_tenths(b, s ? x - 6 : x + 28);
        WEB_LIT(b, "\" y=\"18\" font-size=\"13\" font-weight=\"700\" fill=\"");
        str_cat(b, colour[s]);
        WEB_LIT(b, "\" text-anchor=\"");
        str_cat(b, s ? "end" : "start");
        WEB_LIT(b, "\">");
        web_html(b, v->corner[s].name);
        WEB_LIT(b, "</text>");
    }
}

/* "X,Y", each as "%.1f". */
static void point(struct str *b, double x, double y)
{
    web_tenths(b, x);
    WEB_LIT(b, ",");
    web_tenths(b, y);
}

/* Side s's line, then its points with their figures. */
static void chart_line(struct str *b, const struct chart *c, int s)
{
    const struct bout_view *v = c->v;

    /* As "%.1f,%.1f" and the rest would write them, without printf: a
     * bout page has these for every round. */
    WEB_LIT(b, "<polyline fill=\"none\" stroke=\"");
    str_cat(b, colour[s]);
    WEB_LIT(b, "\" stroke-width=\"2.5\" stroke-linejoin=\"round\" points=\"");
    point(b, x_of(0, c->rounds), y_of(v->meter_start[s], c->top));
    for (int i = 0; i < v->nrounds; i++) {
        WEB_LIT(b, " ");
        point(b, x_of(v->round[i].round, c->rounds), y_of(v->round[i].meter[s], c->top));
    }
    WEB_LIT(b, "\"/>");
    /* His name escaped once for every point's title (the room holds the
     * longest escape: six bytes for one); the meter's name is our word. */
    char room[6 * sizeof(v->corner[s].name) + 1];
    struct str name;
    str_init_fixed(&name, room, sizeof(room));
    web_html(&name, v->corner[s].name);
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
        str_raw(b, name.p, name.len);
        if (r == 0) {
            WEB_LIT(b, " at the start: ");
        } else {
            WEB_LIT(b, " after round ");
            web_int(b, r);
            WEB_LIT(b, ": ");
        }
        web_tenths(b, m);
        WEB_LIT(b, " ");
        str_cat(b, v->meter_name);
        WEB_LIT(b, "</title></circle>");
    }
}

/* The lanes of marks, one per fighter. */
static void chart_lanes(struct str *b)
{
    for (int s = 0; s < SIDES; s++) {
        int y = s ? LANE1 : LANE0;
        WEB_LIT(b, "<line x1=\"" NUM(LEFT) "\" x2=\"" NUM(RIGHT) "\" y1=\"");
        web_int(b, y);
        WEB_LIT(b, "\" y2=\"");
        web_int(b, y);
        WEB_LIT(b, "\" stroke=\"#eef0f2\" stroke-width=\"14\" stroke-linecap=\"round\"/>"
                   "<circle cx=\"");
        web_int(b, LEFT - 12);
        WEB_LIT(b, "\" cy=\"");
        web_int(b, y);
        WEB_LIT(b, "\" r=\"4\" fill=\"");
        str_cat(b, colour[s]);
        WEB_LIT(b, "\"/>");
    }
}

/* One symbol of round vr's marks of `kind` on side s at (x, y), its title
 * every such mark's words. */
static void mark_symbol(struct str *b, const struct view_round *vr, int s, enum view_mark_kind kind,
                        double x, double y)
{
    WEB_LIT(b, "<g><title>Round ");
    web_int(b, vr->round);
    WEB_LIT(b, ":");
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
        WEB_LIT(b, "<text x=\"");
        web_tenths(b, x + 10);
        WEB_LIT(b, "\" y=\"");
        web_int(b, H - 6);
        WEB_LIT(b, "\" fill=\"#66717c\">");
        str_cat(b, names[k]);
        WEB_LIT(b, "</text>");
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
