/*
 * tournament.c - the tournaments' pages: /tournaments (open, running,
 * past), /tournaments/ID with its bracket drawn as SVG (names, seeds,
 * results linking to the bouts, live bouts marked), and the same as JSON
 * under /api/tournaments. What the game stored, read through
 * game_bracket_get; every name a user chose is escaped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web.h"

#define T_LIST  200 /* tournaments a list shows, the newest first */
#define BOX_W   190 /* a bracket bout's box, in SVG units */
#define ROW_H   20  /* a fighter's row in it */
#define GAP     14  /* between two boxes of the first round */
#define COL_GAP 40  /* between two rounds */

static const char *const states[] = {"open", "running", "over"};

/* What a bracket page needs beyond game_bracket: names and bout states. */
struct drawn {
    struct game_bracket b;
    char name[DB_TOURNAMENT_SIZE][DB_NAME_MAX]; /* of b.e[i] */
    int live[DB_TOURNAMENT_SIZE];               /* b.m[i]'s bout is live */
};

static const char *rules_name(int rules)
{
    const struct ruleset *rs = ruleset_get((enum rules)rules);
    return rs ? rs->name : "?";
}

static int stages_of(int size)
{
    int k = 0;
    while ((1 << k) < size)
        k++;
    return k;
}

/* The entrant index of fighter `id` in d, or -1. */
static int entrant(const struct drawn *d, int64_t id)
{
    for (int i = 0; id && i < d->b.ne; i++)
        if (d->b.e[i].fighter == id)
            return i;
    return -1;
}

/* Loads tournament `id` with its names and bouts' states: 0, -1 none, -2
 * a database error. */
static int drawn_load(struct web *w, int64_t id, struct drawn *d)
{
    struct db_fighter f;
    struct db_bout bt;
    struct db_tournament t;

    memset(d, 0, sizeof(*d));
    int rc = db_tournament_get(w->db, id, &t);
    if (rc == DB_NOTFOUND)
        return -1;
    if (rc != DB_OK || game_bracket_get(w->db, id, &d->b) != 0)
        return -2;
    for (int i = 0; i < d->b.ne; i++)
        snprintf(d->name[i], sizeof(d->name[i]), "%s",
                 db_fighter_get_id(w->db, d->b.e[i].fighter, &f) == DB_OK ? f.name : "?");
    for (int i = 0; i < d->b.nm; i++)
        d->live[i] = d->b.m[i].bout && db_bout_get(w->db, d->b.m[i].bout, &bt) == DB_OK &&
                     bt.state == DB_BOUT_LIVE;
    return 0;
}

/* ------------------------------------------------------------- the SVG */

/* One fighter's row of a box at (x, y): "[seed] name", the winner bold. */
static void svg_row(struct str *s, const struct drawn *d, const struct db_tournament_match *m,
                    int side, int x, int y)
{
    int e = entrant(d, m->fighter[side]);
    int won = m->winner && m->winner == m->fighter[side];

    if (e < 0) {
        str_add(s, "<text x=\"%d\" y=\"%d\" class=\"bye\">%s</text>", x + 6, y + 14,
                m->fighter[!side] ? "bye" : "");
        return;
    }
    str_add(s, "<text x=\"%d\" y=\"%d\"%s>[%d] ", x + 6, y + 14, won ? " class=\"won\"" : "",
            d->b.e[e].seed);
    web_html(s, d->name[e]);
    str_add(s, "</text>");
}

/* Bracket bout i of d as a box in its column, linked to its bout. */
static void svg_box(struct str *s, const struct route *r, const struct drawn *d, int i, int first)
{
    const struct db_tournament_match *m = &d->b.m[i];
    int count = d->b.t.size >> m->stage, x = (m->stage - 1) * (BOX_W + COL_GAP);
    double span = (double)(first * (2 * ROW_H + GAP)) / count;
    int y = (int)(span * m->slot + (span - 2 * ROW_H) / 2);

    if (m->bout)
        str_add(s, "<a href=\"%sbouts/%lld\">", r->root, (long long)m->bout);
    str_add(s, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"%s\"/>", x, y, BOX_W,
            2 * ROW_H, d->live[i] ? "box live" : "box");
    str_add(s, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"mid\"/>", x, y + ROW_H,
            x + BOX_W, y + ROW_H);
    svg_row(s, d, m, 0, x, y);
    svg_row(s, d, m, 1, x, y + ROW_H);
    if (d->live[i])
        str_add(s, "<text x=\"%d\" y=\"%d\" class=\"livemark\">LIVE</text>", x + BOX_W - 34,
                y + 14);
    else if (m->bout)
        str_add(s, "<text x=\"%d\" y=\"%d\" class=\"no\">#%lld</text>", x + BOX_W - 44, y + 34,
                (long long)m->bout);
    if (m->bout)
        str_add(s, "</a>");
    if (m->stage < stages_of(d->b.t.size))
        str_add(s, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"link\"/>", x + BOX_W,
                y + ROW_H, x + BOX_W + COL_GAP, y + ROW_H);
}

/* The bracket of d as one SVG element: a column a round. */
static void svg_bracket(struct str *s, const struct route *r, const struct drawn *d)
{
    int first = d->b.t.size / 2, stages = stages_of(d->b.t.size);
    int width = stages * (BOX_W + COL_GAP), height = first * (2 * ROW_H + GAP);

    str_add(s,
            "<svg class=\"bracket\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"bracket\">"
            "<style>.box{fill:#f4faf4;stroke:#2e7d32;stroke-width:2}.live{stroke:#c00;"
            "stroke-width:3}.mid{stroke:#bbb}.link{stroke:#2e7d32;stroke-width:2}text{font:13px "
            "sans-serif;"
            "fill:#111}.won{font-weight:bold}.bye{fill:#999;font-style:italic}"
            ".livemark{fill:#c00;font-weight:bold}.no{fill:#666;font-size:11px}</style>",
            width, height, width, height);
    for (int i = 0; i < d->b.nm; i++)
        svg_box(s, r, d, i, first);
    if (!d->b.nm)
        str_add(s, "<text x=\"6\" y=\"20\">The bracket is drawn when the tournament starts."
                   "</text>");
    str_add(s, "</svg>");
}

/* ------------------------------------------------------------ the pages */

static void page_list(struct web *w, const struct route *r, struct reply *out)
{
    struct db_tournament *v = xmalloc(T_LIST * sizeof(*v));
    struct str b;
    int n = 0;

    if (db_tournament_list(w->db, v, T_LIST, &n) != DB_OK) {
        free(v);
        return pages_error(r, 500, "Database error", "The record could not be read.", out);
    }
    str_init(&b);
    pages_head(&b, r, "Tournaments", 0);
    str_add(&b, "<h1>Tournaments</h1>");
    for (int st = 0; st < 3; st++) {
        static const char *const titles[] = {"Open", "Running", "Past"};
        str_add(&b, "<h2>%s</h2><div class=\"card\"><ul>", titles[st]);
        int k = 0;
        for (int i = 0; i < n; i++) {
            if ((int)v[i].state != st)
                continue;
            k++;
            str_add(&b, "<li><a href=\"%stournaments/%lld\">#%lld ", r->root, (long long)v[i].id,
                    (long long)v[i].id);
            web_html(&b, v[i].name);
            str_add(&b, "</a> (%s, %d places, %s)</li>", rules_name(v[i].rules), v[i].size,
                    v[i].live ? "live" : "plans");
        }
        if (!k)
            str_add(&b, "<li>None.</li>");
        str_add(&b, "</ul></div>");
    }
    free(v);
    pages_foot(&b);
    pages_finish(&b, 200, 0, out);
}

static void page_one(struct web *w, const struct route *r, struct reply *out)
{
    struct drawn *d = xmalloc(sizeof(*d));
    struct str b;
    int rc = drawn_load(w, r->id, d);

    if (rc != 0) {
        free(d);
        if (rc == -1)
            return pages_error(r, 404, "Not found", "There is no such tournament.", out);
        return pages_error(r, 500, "Database error", "The record could not be read.", out);
    }
    int live = 0;
    for (int i = 0; i < d->b.nm; i++)
        live |= d->live[i];
    str_init(&b);
    pages_head(&b, r, d->b.t.name, live ? 30 : 0);
    str_add(&b, "<h1>");
    web_html(&b, d->b.t.name);
    str_add(&b, "</h1><p>Tournament #%lld: %s, %d places, %s; %s, %d entrants.", (long long)r->id,
            rules_name(d->b.t.rules), d->b.t.size, d->b.t.live ? "fought live" : "from the plans",
            states[d->b.t.state], d->b.ne);
    int e = entrant(d, d->b.t.winner);
    if (e >= 0) {
        str_add(&b, " Winner: <a href=\"%sfighters/%lld\">", r->root, (long long)d->b.t.winner);
        web_html(&b, d->name[e]);
        str_add(&b, "</a>.");
    }
    str_add(&b, "</p><div class=\"card\" style=\"overflow-x:auto\">");
    svg_bracket(&b, r, d);
    str_add(&b, "</div>");
    free(d);
    pages_foot(&b);
    pages_finish(&b, 200, live ? 30 : 0, out);
}

/* -------------------------------------------------------------- the JSON */

static void json_finish(struct str *b, struct reply *out)
{
    str_add(b, "\n");
    out->status = 200;
    out->type = "application/json; charset=utf-8";
    out->refresh = 0;
    out->body = str_take(b, &out->len);
}

/* An id, or null for 0. */
static void json_id(struct str *b, int64_t id)
{
    if (id)
        str_add(b, "%lld", (long long)id);
    else
        str_add(b, "null");
}

static void json_head(struct str *b, const struct db_tournament *t)
{
    str_add(b, "{\"id\":%lld,\"name\":", (long long)t->id);
    web_json(b, t->name);
    str_add(b,
            ",\"rules\":\"%s\",\"size\":%d,\"mode\":\"%s\",\"state\":\"%s\",\"round\":%d,"
            "\"created\":%lld,\"started\":%lld,\"ended\":%lld,\"winner\":",
            rules_name(t->rules), t->size, t->live ? "live" : "plans", states[t->state], t->stage,
            (long long)t->created, (long long)t->started, (long long)t->ended);
    json_id(b, t->winner);
}

static void api_list(struct web *w, struct reply *out)
{
    struct db_tournament *v = xmalloc(T_LIST * sizeof(*v));
    struct str b;
    int n = 0;

    if (db_tournament_list(w->db, v, T_LIST, &n) != DB_OK) {
        free(v);
        return api_error(500, "database error", out);
    }
    str_init(&b);
    str_add(&b, "{\"tournaments\":[");
    for (int i = 0; i < n; i++) {
        str_add(&b, "%s", i ? "," : "");
        json_head(&b, &v[i]);
        str_add(&b, "}");
    }
    str_add(&b, "]}");
    free(v);
    json_finish(&b, out);
}

/* A fighter of a bracket bout: {"id","name","seed"} or null (a bye). */
static void json_fighter(struct str *b, const struct drawn *d, int64_t id)
{
    int e = entrant(d, id);

    if (e < 0) {
        str_add(b, "null");
        return;
    }
    str_add(b, "{\"id\":%lld,\"name\":", (long long)id);
    web_json(b, d->name[e]);
    str_add(b, ",\"seed\":%d}", d->b.e[e].seed);
}

static void api_one(struct web *w, const struct route *r, struct reply *out)
{
    struct drawn *d = xmalloc(sizeof(*d));
    struct str b;
    int rc = drawn_load(w, r->id, d);

    if (rc != 0) {
        free(d);
        return api_error(rc == -1 ? 404 : 500, rc == -1 ? "no such tournament" : "database error",
                         out);
    }
    str_init(&b);
    json_head(&b, &d->b.t);
    str_add(&b, ",\"entrants\":[");
    for (int i = 0; i < d->b.ne; i++) {
        str_add(&b, "%s", i ? "," : "");
        json_fighter(&b, d, d->b.e[i].fighter);
    }
    str_add(&b, "],\"bouts\":[");
    for (int i = 0; i < d->b.nm; i++) {
        const struct db_tournament_match *m = &d->b.m[i];
        str_add(&b, "%s{\"round\":%d,\"slot\":%d,\"fighters\":[", i ? "," : "", m->stage, m->slot);
        json_fighter(&b, d, m->fighter[0]);
        str_add(&b, ",");
        json_fighter(&b, d, m->fighter[1]);
        str_add(&b, "],\"bout\":");
        json_id(&b, m->bout);
        str_add(&b, ",\"winner\":");
        json_id(&b, m->winner);
        str_add(&b, ",\"live\":%s}", d->live[i] ? "true" : "false");
    }
    str_add(&b, "]}");
    free(d);
    json_finish(&b, out);
}

void web_tournament_render(struct web *w, const struct route *r, struct reply *out)
{
    switch (r->page) {
    case PAGE_TOURNAMENTS:
        return page_list(w, r, out);
    case PAGE_TOURNAMENT:
        return page_one(w, r, out);
    case API_TOURNAMENTS:
        return api_list(w, out);
    case API_TOURNAMENT:
        return api_one(w, r, out);
    default:
        return pages_error(r, 404, "Not found", "There is no such page.", out);
    }
}
