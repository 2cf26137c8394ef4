/*
 * rating.c - the fighters' Glicko-2 ratings on the pages: a fighter's
 * rating card and its history as an inline SVG chart (the rating after
 * each bout that moved it, inside its band of +- one deviation, each point
 * linking to its bout), the rating cell of a standings row, the list of a
 * ruleset's ratings (/ratings/RULES) and the same as JSON.
 *
 * Everything is read from db/rating.c's tables (migration 11): nothing
 * is computed here but the drawing. A fighter without a row is a newcomer
 * (RATING_START +- RATING_RD_START).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "web.h"

#define CW     640 /* the chart's size and plot area */
#define CH     220
#define CLEFT  52
#define CRIGHT 626
#define CTOP   16
#define CBOT   190

#define LINE_COLOUR "#6a1b9a"
#define BAND_COLOUR "#e1bee7"

/* Fighter f's rating, a newcomer's when he has none (or it cannot be
 * read: the pages show what they can). */
static struct db_rating rating_of(struct web *w, const struct db_fighter *f)
{
    struct db_rating r = {RATING_START, RATING_RD_START, RATING_VOL_START, 0};

    if (db_rating_get(w->db, f->id, f->sheet.rules, &r) != DB_OK)
        r = (struct db_rating){RATING_START, RATING_RD_START, RATING_VOL_START, 0};
    return r;
}

void rating_cell(struct str *b, const struct db_rating *r)
{
    /* "<td class="n nw">%ld <span class="muted small">&plusmn; %ld</span></td>",
     * without printf (a standings page has 100). */
    WEB_LIT(b, "<td class=\"n nw\">");
    web_int(b, lround(r->rating));
    WEB_LIT(b, " <span class=\"muted small\">&plusmn; ");
    web_int(b, lround(r->rd));
    WEB_LIT(b, "</span></td>");
}

void rating_json_fields(struct str *b, const struct db_rating *r)
{
    str_add(b, ",\"rating\":%.2f,\"rating_deviation\":%.2f", r->rating, r->rd);
}

/* ------------------------------------------------------------ the chart */

/* The chart's vertical range: every point's band, and 1500, with room. */
static void chart_range(const struct db_rating_point *p, int n, double *lo, double *hi)
{
    *lo = RATING_START - RATING_RD_START;
    *hi = RATING_START + RATING_RD_START;
    for (int i = 0; i < n; i++) {
        if (p[i].rating - p[i].rd < *lo)
            *lo = p[i].rating - p[i].rd;
        if (p[i].rating + p[i].rd > *hi)
            *hi = p[i].rating + p[i].rd;
    }
    *lo = floor(*lo / 100) * 100;
    *hi = ceil(*hi / 100) * 100;
}

static double cx(int i, int n)
{
    return CLEFT + (double)(CRIGHT - CLEFT) * i / (n > 0 ? n : 1);
}

static double cy(double v, double lo, double hi)
{
    return CBOT - (double)(CBOT - CTOP) * (v - lo) / (hi - lo);
}

/* The grid: a line and a label every 100 (every 200, 500 on a tall
 * range), 1500 dashed. */
static void chart_grid(struct str *b, double lo, double hi)
{
    double step = hi - lo > 1600 ? 500 : hi - lo > 800 ? 200 : 100;

    for (double v = ceil(lo / step) * step; v <= hi; v += step)
        str_add(b,
                "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e6e9ed\"/>"
                "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" fill=\"#66717c\" "
                "text-anchor=\"end\">%.0f</text>",
                CLEFT, CRIGHT, cy(v, lo, hi), cy(v, lo, hi), CLEFT - 6, cy(v, lo, hi) + 4, v);
    str_add(b,
            "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#66717c\" "
            "stroke-dasharray=\"4 4\"/>",
            CLEFT, CRIGHT, cy(RATING_START, lo, hi), cy(RATING_START, lo, hi));
}

/* The band of +- one deviation, from the newcomer's start (x 0) through
 * every point p[0..n) (oldest first), as one polygon. */
static void chart_band(struct str *b, const struct db_rating_point *p, int n, double lo, double hi)
{
    str_add(b, "<polygon class=\"rating-band\" fill=\"%s\" fill-opacity=\"0.6\" points=\"",
            BAND_COLOUR);
    str_add(b, "%.1f,%.1f", cx(0, n), cy(p[0].before + RATING_RD_START, lo, hi));
    for (int i = 0; i < n; i++)
        str_add(b, " %.1f,%.1f", cx(i + 1, n), cy(p[i].rating + p[i].rd, lo, hi));
    for (int i = n - 1; i >= 0; i--)
        str_add(b, " %.1f,%.1f", cx(i + 1, n), cy(p[i].rating - p[i].rd, lo, hi));
    str_add(b, " %.1f,%.1f\"/>", cx(0, n), cy(p[0].before - RATING_RD_START, lo, hi));
}

/* The SVG chart of history p[0..n) (the oldest first, n >= 1): the band,
 * the line from the rating before the first bout, a point per bout
 * linking to it, with its title. */
static void chart_svg_rating(struct str *b, const struct route *r, const struct db_rating_point *p,
                             int n)
{
    double lo, hi;
    char date[40];

    chart_range(p, n, &lo, &hi);
    str_add(b,
            "<svg class=\"rating-chart\" viewBox=\"0 0 %d %d\" width=\"100%%\" role=\"img\" "
            "aria-label=\"Rating after each rated bout\" xmlns=\"http://www.w3.org/2000/svg\">"
            "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>",
            CW, CH, CW, CH);
    chart_grid(b, lo, hi);
    chart_band(b, p, n, lo, hi);
    str_add(b,
            "<polyline class=\"rating-line\" fill=\"none\" stroke=\"%s\" stroke-width=\"3\" "
            "points=\"%.1f,%.1f",
            LINE_COLOUR, cx(0, n), cy(p[0].before, lo, hi));
    for (int i = 0; i < n; i++)
        str_add(b, " %.1f,%.1f", cx(i + 1, n), cy(p[i].rating, lo, hi));
    str_add(b, "\"/>");
    for (int i = 0; i < n; i++)
        str_add(b,
                "<a href=\"%sbouts/%lld\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">"
                "<title>Bout #%lld (%s): %ld &plusmn; %ld (%+ld)</title></circle></a>",
                r->root, (long long)p[i].bout, cx(i + 1, n), cy(p[i].rating, lo, hi), LINE_COLOUR,
                (long long)p[i].bout, web_date(p[i].at, date, sizeof(date)), lround(p[i].rating),
                lround(p[i].rd), lround(p[i].rating) - lround(p[i].before));
    str_add(b,
            "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#66717c\">rated bouts, oldest "
            "first</text></svg>",
            CLEFT, CH - 8);
}

/* Fighter f's history, the oldest first, into p (at most RATING_POINTS_MAX);
 * *n how many. -1 on a database error. */
static int history_read(struct web *w, const struct db_fighter *f, struct db_rating_point *p,
                        int *n)
{
    if (db_rating_history(w->db, f->id, p, RATING_POINTS_MAX, n) != DB_OK)
        return -1;
    for (int i = 0, j = *n - 1; i < j; i++, j--) {
        struct db_rating_point t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    return 0;
}

int rating_section(struct web *w, struct str *b, const struct route *r, const struct db_fighter *f)
{
    struct db_rating_point *p = xmalloc(RATING_POINTS_MAX * sizeof(*p));
    struct db_rating now = rating_of(w, f);
    int n = 0;

    if (history_read(w, f, p, &n) != 0) {
        free(p);
        return -1;
    }
    str_add(b,
            "<h2>Rating</h2><div class=\"card\"><div class=\"muted small\">Glicko-2 rating "
            "&plusmn; deviation</div><h3 class=\"rating\">%ld &plusmn; %ld</h3><div "
            "class=\"small\">",
            lround(now.rating), lround(now.rd));
    if (n == 0)
        str_add(b, "A newcomer: no rated bout yet.</div></div>");
    else
        str_add(b, "%d rated bout%s; <a href=\"%sratings/%s\">every %s rating</a></div>", now.bouts,
                now.bouts == 1 ? "" : "s", r->root, ruleset_get(f->sheet.rules)->name,
                ruleset_get(f->sheet.rules)->name);
    if (n > 0) {
        chart_svg_rating(b, r, p, n);
        str_add(b, "</div>");
    }
    free(p);
    return 0;
}

int rating_json_history(struct web *w, struct str *b, const struct db_fighter *f)
{
    struct db_rating_point *p = xmalloc(RATING_POINTS_MAX * sizeof(*p));
    struct db_rating now = rating_of(w, f);
    int n = 0;

    if (history_read(w, f, p, &n) != 0) {
        free(p);
        return -1;
    }
    str_add(b,
            ",\"rating\":{\"rating\":%.4f,\"deviation\":%.4f,\"volatility\":%.6f,\"bouts\":%d,"
            "\"history\":[",
            now.rating, now.rd, now.vol, now.bouts);
    for (int i = 0; i < n; i++)
        str_add(b,
                "%s{\"bout\":%lld,\"at\":%lld,\"before\":%.4f,\"rating\":%.4f,\"deviation\":%.4f}",
                i ? "," : "", (long long)p[i].bout, (long long)p[i].at, p[i].before, p[i].rating,
                p[i].rd);
    str_add(b, "]}");
    free(p);
    return 0;
}

/* ------------------------------------------------------------ the list */

int rating_list_html(struct web *w, struct str *b, const struct route *r, int page)
{
    struct db_rating_row *v = xmalloc(WEB_PAGE_ROWS * sizeof(*v));
    const struct ruleset *rs = ruleset_get((enum rules)r->rules);
    int n = 0, total = 0, from = (page - 1) * WEB_PAGE_ROWS;

    if (db_rating_top(w->db, (enum rules)r->rules, from, v, WEB_PAGE_ROWS, &n, &total) != DB_OK) {
        free(v);
        return -1;
    }
    int pages = total ? (total + WEB_PAGE_ROWS - 1) / WEB_PAGE_ROWS : 1;
    if (page > pages) {
        free(v);
        return 1;
    }
    str_add(b, "<h1>%s ratings</h1>", rs->title);
    if (total == 0)
        str_add(b, "<div class=\"card muted\">No %s fighter has a rating yet.</div>", rs->name);
    else
        str_add(b, "<div class=\"wrap\"><table><thead><tr><th class=\"n\" style=\"width:3rem\">#"
                   "</th><th>Fighter</th><th class=\"n\">Rating</th><th class=\"n\">Rated bouts"
                   "</th></tr></thead><tbody>");
    for (int i = 0; i < n; i++) {
        str_add(b, "<tr><td class=\"n\">%d</td><td><a href=\"%sfighters/%lld\">", from + i + 1,
                r->root, (long long)v[i].fighter);
        web_html(b, v[i].name);
        str_add(b,
                "</a></td><td class=\"n nw\">%ld <span class=\"muted small\">&plusmn; %ld</span>"
                "</td><td class=\"n\">%d</td></tr>",
                lround(v[i].rating), lround(v[i].rd), v[i].bouts);
    }
    if (total > 0)
        str_add(b, "</tbody></table></div>");
    if (pages > 1) {
        str_add(b, "<div class=\"pager\">");
        if (page > 1)
            str_add(b, "<a href=\"%sratings/%s?page=%d\">&larr; previous</a>", r->root, rs->name,
                    page - 1);
        str_add(b, "<span class=\"muted\">page %d of %d (%d rated)</span>", page, pages, total);
        if (page < pages)
            str_add(b, "<a href=\"%sratings/%s?page=%d\">next &rarr;</a>", r->root, rs->name,
                    page + 1);
        str_add(b, "</div>");
    }
    str_add(b,
            "<p class=\"muted small\">Glicko-2: every bout that counts moves both fighters' "
            "ratings, a win more against a higher rating, a loss more against a lower one, and "
            "more while the deviation (&plusmn;) is wide. Newcomers start at %.0f &plusmn; %.0f; "
            "retired fighters are not listed.</p>",
            RATING_START, RATING_RD_START);
    free(v);
    return 0;
}

int rating_list_json(struct web *w, struct str *b, const struct route *r, int page)
{
    struct db_rating_row *v = xmalloc(WEB_PAGE_ROWS * sizeof(*v));
    int n = 0, total = 0, from = (page - 1) * WEB_PAGE_ROWS;

    if (db_rating_top(w->db, (enum rules)r->rules, from, v, WEB_PAGE_ROWS, &n, &total) != DB_OK) {
        free(v);
        return -1;
    }
    int pages = total ? (total + WEB_PAGE_ROWS - 1) / WEB_PAGE_ROWS : 1;
    if (page > pages) {
        free(v);
        return 1;
    }
    str_add(b,
            "{\"rules\":\"%s\",\"total\":%d,\"page\":%d,\"pages\":%d,\"per_page\":%d,"
            "\"ratings\":[",
            ruleset_get((enum rules)r->rules)->name, total, page, pages, WEB_PAGE_ROWS);
    for (int i = 0; i < n; i++) {
        str_add(b, "%s{\"position\":%d,\"id\":%lld,\"name\":", i ? "," : "", from + i + 1,
                (long long)v[i].fighter);
        web_json(b, v[i].name);
        str_add(b, ",\"rating\":%.4f,\"deviation\":%.4f,\"bouts\":%d}", v[i].rating, v[i].rd,
                v[i].bouts);
    }
    str_add(b, "]}");
    free(v);
    return 0;
}
