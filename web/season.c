/*
 * season.c - the seasons' pages: /seasons/RULES/N (a season's final
 * standings as archived at its end, league by league, with who went up and
 * down) and /halloffame (every ruleset's past winners, newest first), and
 * their JSON twins under /api. What they show was written once, at the
 * season's end (db/season.c): nothing here is derived.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web.h"

#define ROWS_MAX    (1 << 14) /* archived rows a season's page shows */
#define HONOURS_MAX 4096      /* hall of fame entries read */

static const char *const league_lower[LEAGUE_COUNT] = {"bronze", "silver", "gold"};

static const char *honour_word(int honour)
{
    return honour == DB_HONOUR_CHAMPION ? "International Champion"
                                        : league_name((enum league)honour);
}

static const char *honour_key(int honour)
{
    return honour == DB_HONOUR_CHAMPION ? "champion" : league_lower[honour];
}

/* A network's name, as an archived owner's is looked up (the archive keeps
 * the name only: the site names another network's player name@network). */
typedef char network_name[DB_NETWORK_MAX];

/* The networks of the owners of fighters id[0..n) (id is freed) in a new
 * array (free()); NULL on a database error. */
static network_name *owner_networks(struct web *w, int64_t *id, int n)
{
    network_name *net = xmalloc((size_t)(n > 0 ? n : 1) * sizeof(*net));
    int rc = db_fighter_networks(w->db, id, n, net);

    free(id);
    if (rc != DB_OK) {
        free(net);
        return NULL;
    }
    return net;
}

/* The networks of the owners of archived rows v[0..n), as owner_networks. */
static network_name *row_networks(struct web *w, const struct db_season_row *v, int n)
{
    int64_t *id = xmalloc((size_t)(n > 0 ? n : 1) * sizeof(*id));

    for (int i = 0; i < n; i++)
        id[i] = v[i].fighter;
    return owner_networks(w, id, n);
}

/* The networks of the owners of honours h[0..m), as owner_networks. */
static network_name *honour_networks(struct web *w, const struct db_honour *h, int m)
{
    int64_t *id = xmalloc((size_t)(m > 0 ? m : 1) * sizeof(*id));

    for (int i = 0; i < m; i++)
        id[i] = h[i].fighter;
    return owner_networks(w, id, m);
}

/* The season of r (rules, id) into *s and its rows into a new array
 * (free()) with their count in *n and their owners' networks in another
 * (*net, free()): 0, DB_NOTFOUND as 1, or -1. */
static int season_read(struct web *w, const struct route *r, struct db_season *s,
                       struct db_season_row **v, int *n, network_name **net)
{
    *v = NULL;
    *net = NULL;
    *n = 0;
    if (r->id > 1000000)
        return 1;
    int rc = db_season_get(w->db, (enum rules)r->rules, (int)r->id, s);
    if (rc != DB_OK)
        return rc == DB_NOTFOUND ? 1 : -1;
    *v = xmalloc(ROWS_MAX * sizeof(**v));
    if (db_season_standings(w->db, (enum rules)r->rules, s->number, *v, ROWS_MAX, n) != DB_OK ||
        !(*net = row_networks(w, *v, *n))) {
        free(*v);
        *v = NULL;
        return -1;
    }
    return 0;
}

/* The honours of season n of `rules` among v[0..m) as a list. */
static void honours_html(struct str *b, const struct route *r, const struct db_honour *v, int m,
                         int rules, int n)
{
    int any = 0;

    for (int i = 0; i < m; i++) {
        if ((int)v[i].rules != rules || v[i].season != n)
            continue;
        str_add(b, "%s<span class=\"pill %s\">%s</span> <a href=\"%sfighters/%lld\">",
                any ? " &middot; " : "",
                v[i].honour == DB_HONOUR_CHAMPION ? "title" : league_name((enum league)v[i].honour),
                honour_word(v[i].honour), r->root, (long long)v[i].fighter);
        web_html(b, v[i].name);
        str_add(b, "</a> <span class=\"muted small\">%d-%d-%d</span>", v[i].wins, v[i].losses,
                v[i].draws);
        any = 1;
    }
    if (!any)
        str_add(b, "<span class=\"muted\">nobody fought</span>");
}

/* One league's archived table of rows v[0..n). */
static void league_table(const struct web *w, struct str *b, const struct route *r,
                         const struct db_season_row *v, const network_name *net, int n, int league)
{
    int any = 0;

    for (int i = 0; i < n; i++) {
        if (v[i].league != league)
            continue;
        if (!any)
            str_add(b,
                    "<h2><span class=\"pill %s\">%s</span></h2><div class=\"wrap\"><table>"
                    "<thead><tr><th class=\"n\" style=\"width:3rem\">#</th><th>Fighter</th>"
                    "<th>Owner</th><th class=\"n\">W-L-D</th><th class=\"n\">Gold</th>"
                    "<th>Then</th></tr></thead><tbody>",
                    league_name((enum league)league), league_name((enum league)league));
        any = 1;
        str_add(b, "<tr><td class=\"n\">%d</td><td><a href=\"%sfighters/%lld\">", v[i].position,
                r->root, (long long)v[i].fighter);
        web_html(b, v[i].name);
        str_add(b, "</a></td><td>");
        web_owner_html(b, w->cfg.network, v[i].owner, net[i]);
        str_add(b, "</td><td class=\"n\">%d-%d-%d</td><td class=\"n\">%d</td><td>%s</td></tr>",
                v[i].wins, v[i].losses, v[i].draws, v[i].gold_record,
                v[i].moved > 0   ? "&uarr; up"
                : v[i].moved < 0 ? "&darr; down"
                                 : "");
    }
    if (any)
        str_add(b, "</tbody></table></div>");
}

static void page_season(struct web *w, const struct route *r, struct reply *out)
{
    const struct ruleset *rs = ruleset_get((enum rules)r->rules);
    struct db_season s;
    struct db_season_row *v;
    struct db_honour h[8];
    network_name *net;
    int n = 0, m = 0, rc = season_read(w, r, &s, &v, &n, &net);
    char title[96], from[40], to[40];

    if (rc > 0)
        return pages_error(r, 404, "Not found",
                           "There is no such season: it has not ended yet, or never began.", out);
    if (rc < 0 || db_honours(w->db, r->rules, h, 8, &m) != DB_OK) {
        free(v);
        free(net);
        return pages_error(r, 500, "Database error",
                           "The record could not be read; try again shortly.", out);
    }
    struct str b;
    str_init(&b);
    snprintf(title, sizeof(title), "%s season %d", rs->title, s.number);
    pages_head(&b, r, title, 0);
    str_add(&b,
            "<h1>%s season %d</h1><div class=\"card\"><div class=\"small muted\">%s to %s, "
            "%d league turn%s</div><div>",
            rs->title, s.number, s.started ? web_date(s.started, from, sizeof(from)) : "the start",
            web_date(s.ended, to, sizeof(to)), s.turns, s.turns == 1 ? "" : "s");
    honours_html(&b, r, h, m, r->rules, s.number);
    str_add(&b, "</div></div>");
    for (int l = LEAGUE_GOLD; l >= LEAGUE_BRONZE; l--)
        league_table(w, &b, r, v, net, n, l);
    if (n == 0)
        str_add(&b, "<div class=\"card muted\">No league had fighters.</div>");
    str_add(&b,
            "<p class=\"muted small\">The final standings as they were when the season "
            "ended: each league's winner went up, its last went down. <a "
            "href=\"%shalloffame\">Hall of fame</a></p>",
            r->root);
    free(v);
    free(net);
    pages_end(&b, out);
}

static void page_halloffame(struct web *w, const struct route *r, struct reply *out)
{
    struct db_honour *v = xmalloc(HONOURS_MAX * sizeof(*v));
    int m = 0;

    if (db_honours(w->db, -1, v, HONOURS_MAX, &m) != DB_OK) {
        free(v);
        return pages_error(r, 500, "Database error",
                           "The record could not be read; try again shortly.", out);
    }
    struct str b;
    str_init(&b);
    pages_head(&b, r, "Hall of fame", 0);
    str_add(&b, "<h1>Hall of fame</h1>");
    for (int rules = 0; rules < RULES_COUNT; rules++) {
        const struct ruleset *rs = ruleset_get((enum rules)rules);
        int any = 0;
        str_add(&b, "<h2>%s</h2>", rs->title);
        for (int i = 0; i < m; i++) {
            if ((int)v[i].rules != rules ||
                (i > 0 && (int)v[i - 1].rules == rules && v[i - 1].season == v[i].season))
                continue;
            if (!any)
                str_add(&b, "<div class=\"wrap\"><table><thead><tr><th>Season</th><th>Winners"
                            "</th></tr></thead><tbody>");
            any = 1;
            str_add(&b, "<tr><td class=\"nw\"><a href=\"%sseasons/%s/%d\">season %d</a></td><td>",
                    r->root, rs->name, v[i].season, v[i].season);
            honours_html(&b, r, v, m, rules, v[i].season);
            str_add(&b, "</td></tr>");
        }
        if (any)
            str_add(&b, "</tbody></table></div>");
        else
            str_add(&b, "<div class=\"card muted\">No %s season has ended yet.</div>", rs->title);
    }
    free(v);
    pages_end(&b, out);
}

void season_pages(struct web *w, const struct route *r, struct reply *out)
{
    if (r->page == PAGE_SEASON)
        page_season(w, r, out);
    else
        page_halloffame(w, r, out);
}

/* ---------------------------------------------------------------- JSON */

/* {"honour":"gold","id":..,"name":..,"owner":..,"wins":..} onto b. */
static void honour_json(const struct web *w, struct str *b, const struct db_honour *h,
                        const char *network)
{
    str_add(b, "{\"honour\":\"%s\",\"id\":%lld,\"name\":", honour_key(h->honour),
            (long long)h->fighter);
    web_json(b, h->name);
    str_add(b, ",\"owner\":");
    web_owner_json(b, w->cfg.network, h->owner, network);
    str_add(b, ",\"wins\":%d,\"losses\":%d,\"draws\":%d}", h->wins, h->losses, h->draws);
}

static void json_end(struct str *b, struct reply *out)
{
    str_add(b, "\n");
    out->status = 200;
    out->type = "application/json; charset=utf-8";
    out->refresh = 0;
    out->body = str_take(b, &out->len);
}

static void api_season(struct web *w, const struct route *r, struct reply *out)
{
    struct db_season s;
    struct db_season_row *v;
    struct db_honour h[8];
    network_name *net, *hnet = NULL;
    int n = 0, m = 0, rc = season_read(w, r, &s, &v, &n, &net);

    if (rc > 0)
        return api_error(404, "no such season: it has not ended yet, or never began", out);
    if (rc < 0 || db_honours(w->db, r->rules, h, 8, &m) != DB_OK ||
        !(hnet = honour_networks(w, h, m))) {
        free(v);
        free(net);
        return api_error(500, "database error", out);
    }
    struct str b;
    str_init(&b);
    str_add(&b,
            "{\"rules\":\"%s\",\"season\":%d,\"started\":%lld,\"ended\":%lld,\"turns\":%d,"
            "\"honours\":[",
            ruleset_get((enum rules)r->rules)->name, s.number, (long long)s.started,
            (long long)s.ended, s.turns);
    int k = 0;
    for (int i = 0; i < m; i++)
        if (h[i].season == s.number) {
            str_add(&b, "%s", k++ ? "," : "");
            honour_json(w, &b, &h[i], hnet[i]);
        }
    str_add(&b, "],\"standings\":[");
    for (int i = 0; i < n; i++) {
        str_add(&b, "%s{\"league\":\"%s\",\"position\":%d,\"id\":%lld,\"name\":", i ? "," : "",
                league_lower[v[i].league], v[i].position, (long long)v[i].fighter);
        web_json(&b, v[i].name);
        str_add(&b, ",\"owner\":");
        web_owner_json(&b, w->cfg.network, v[i].owner, net[i]);
        str_add(&b, ",\"wins\":%d,\"losses\":%d,\"draws\":%d,\"gold_record\":%d,\"moved\":\"%s\"}",
                v[i].wins, v[i].losses, v[i].draws, v[i].gold_record,
                v[i].moved > 0   ? "up"
                : v[i].moved < 0 ? "down"
                                 : "stayed");
    }
    str_add(&b, "]}");
    free(v);
    free(net);
    free(hnet);
    json_end(&b, out);
}

static void api_halloffame(struct web *w, struct reply *out)
{
    struct db_honour *v = xmalloc(HONOURS_MAX * sizeof(*v));
    network_name *net = NULL;
    int m = 0;

    if (db_honours(w->db, -1, v, HONOURS_MAX, &m) != DB_OK || !(net = honour_networks(w, v, m))) {
        free(v);
        return api_error(500, "database error", out);
    }
    struct str b;
    str_init(&b);
    str_add(&b, "{\"seasons\":[");
    for (int i = 0; i < m; i++) {
        int first = i == 0 || v[i - 1].rules != v[i].rules || v[i - 1].season != v[i].season;
        if (first)
            str_add(&b, "%s{\"rules\":\"%s\",\"season\":%d,\"honours\":[", i ? "]}," : "",
                    ruleset_get(v[i].rules)->name, v[i].season);
        else
            str_add(&b, ",");
        honour_json(w, &b, &v[i], net[i]);
    }
    str_add(&b, "%s]}", m ? "]}" : "");
    free(v);
    free(net);
    json_end(&b, out);
}

void season_api(struct web *w, const struct route *r, struct reply *out)
{
    if (r->page == API_SEASON)
        api_season(w, r, out);
    else
        api_halloffame(w, out);
}
