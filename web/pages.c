/*
 * pages.c - the HTML pages: home, live bouts, standings, champions, a
 * fighter, a bout.
 *
 * Server-rendered HTML5 with the style inline: no external asset, no
 * script, a layout that fits a phone (tables scroll sideways in their own
 * box). Every text a user chose (fighter and account names, channels,
 * commentary that quotes them) goes through web_html; everything else
 * written raw is our own. Links are relative (route.root), so the pages
 * work under any base path. A live bout's page reloads itself (Refresh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web.h"

#define LIVE_MAX     50            /* live bouts listed */
#define LATEST_MAX   15            /* results on the home page */
#define HISTORY_MAX  WEB_BOUTS_MAX /* a fighter's bouts listed */
#define LIVE_REFRESH 10            /* seconds */
#define AUTO_REFRESH 4             /* a bout that fights itself: the duel's default pace */
#define HOME_REFRESH 30

/* The lists are read into the server's (struct web's bouts). */
_Static_assert(LIVE_MAX <= WEB_BOUTS_MAX && LATEST_MAX <= WEB_BOUTS_MAX, "a list too long");

static const char style[] =
    ":root{--a:#c62828;--b:#1565c0;--ink:#1c2228;--mute:#66717c;--line:#e2e6ea;--bg:#f4f6f8}"
    "*{box-sizing:border-box}"
    "body{margin:0;font:16px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
    "color:var(--ink);background:var(--bg)}"
    "a{color:#0b57a4}"
    "header{background:#161b21;color:#fff;padding:.55rem 1rem;display:flex;flex-wrap:wrap;"
    "align-items:center;gap:.3rem 1.4rem}"
    "header a{color:#d5dde5;text-decoration:none}header a:hover{color:#fff}"
    ".brand{font-weight:800;letter-spacing:.06em;color:#fff;font-size:1.1rem}"
    ".brand span{color:#ef5350}"
    "nav{display:flex;flex-wrap:wrap;gap:.2rem 1rem}"
    "main{max-width:62rem;margin:0 auto;padding:.8rem 1rem 2rem}"
    "h1{font-size:1.45rem;margin:.4rem 0 .7rem}h1::first-letter{text-transform:uppercase}"
    "h2{font-size:1.12rem;margin:1.5rem 0 .5rem}"
    "h3{font-size:1rem;margin:.2rem 0 .4rem}"
    ".card{background:#fff;border:1px solid var(--line);border-radius:10px;padding:.75rem 1rem;"
    "margin:.7rem 0}"
    ".grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:.7rem}"
    ".grid .card{margin:0}"
    ".wrap{overflow-x:auto;background:#fff;border:1px solid var(--line);border-radius:10px}"
    "table{border-collapse:collapse;width:100%}"
    "th,td{padding:.4rem .6rem;border-bottom:1px solid var(--line);text-align:left;"
    "vertical-align:top}"
    "tr:last-child td{border-bottom:0}"
    "th{font-size:.75rem;text-transform:uppercase;letter-spacing:.04em;color:var(--mute);"
    "font-weight:600;background:#fafbfc}"
    ".n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    ".nw{white-space:nowrap}"
    ".muted{color:var(--mute)}.small{font-size:.85rem}"
    ".sa{color:var(--a);font-weight:600}.sb{color:var(--b);font-weight:600}"
    ".pill{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.75rem;"
    "font-weight:700;letter-spacing:.03em;background:#e9edf1;color:#333;vertical-align:middle}"
    ".live{background:#e53935;color:#fff}.GOLD{background:#f3cf55}.SILVER{background:#cfd5db}"
    ".BRONZE{background:#e0ab7d}.on{outline:2px solid "
    "#161b21;outline-offset:1px}.title{background:#161b21;color:#f3cf55}"
    ".win{color:#2e7d32;font-weight:700}.loss{color:#b71c1c;font-weight:700}"
    ".draw{color:#6d6d6d;font-weight:700}"
    ".result{font-size:1.15rem;font-weight:700;background:#fff;border-left:5px solid #f3cf55;"
    "padding:.7rem 1rem;border-radius:6px;margin:.7rem 0}"
    ".tape{display:grid;grid-template-columns:1fr auto 1fr;gap:.2rem .8rem;align-items:center;"
    "text-align:center}"
    ".tape .k{color:var(--mute);font-size:.8rem;text-transform:uppercase}"
    ".tape .who{font-size:1.2rem;font-weight:800}"
    ".round{background:#fff;border:1px solid var(--line);border-radius:10px;margin:.6rem 0;"
    "padding:.6rem .9rem}"
    ".round ul{margin:.3rem 0;padding-left:1.1rem}"
    ".marks{list-style:none;padding:0!important}.marks li{margin:.1rem 0}"
    "pre{white-space:pre-wrap;word-break:break-word;font:13px/1.45 ui-monospace,Menlo,Consolas,"
    "monospace;background:#f8f9fa;padding:.6rem;border:1px solid var(--line);border-radius:6px}"
    "details summary{cursor:pointer;color:#0b57a4}"
    ".chart{background:#fff;border:1px solid var(--line);border-radius:10px;padding:.4rem;"
    "overflow-x:auto}"
    ".chart svg{width:100%;min-width:30rem;height:auto;display:block}"
    ".pager{margin:.6rem 0;display:flex;gap:1rem}"
    ".bar{display:inline-block;width:6rem;height:.6rem;background:#e9edf1;border-radius:3px;"
    "vertical-align:middle;margin-right:.4rem;overflow:hidden}.bar i{display:block;height:100%}"
    ".ok{background:#43a047}.worn{background:#f9a825}.low{background:#e53935}"
    ".gone{color:#b71c1c;font-weight:600}"
    "footer{color:var(--mute);font-size:.8rem;text-align:center;padding:1rem}"
    "@media (max-width:40rem){body{font-size:15px}th,td{padding:.35rem .4rem}"
    ".hide-s{display:none}}";

/* ------------------------------------------------------------ pieces */

/* <a href="ROOT PATH NAME">LABEL</a>: a link of the header (our words). */
static void nav_link(struct str *b, const struct route *r, const char *path, const char *name,
                     const char *label)
{
    WEB_LIT(b, "<a href=\"");
    str_cat(b, r->root);
    str_cat(b, path);
    str_cat(b, name);
    WEB_LIT(b, "\">");
    str_cat(b, label);
    WEB_LIT(b, "</a>");
}

static void head(struct str *b, const struct route *r, const char *title, int refresh)
{
    WEB_LIT(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    if (refresh > 0)
        render_fmt(b, "<meta http-equiv=\"refresh\" content=\"%d\">", refresh);
    WEB_LIT(b, "<title>");
    web_html(b, title);
    /* The style sheet as it is (printf would copy it a byte at a time). */
    WEB_LIT(b, " - Ringside</title><style>");
    str_raw(b, style, sizeof(style) - 1);
    WEB_LIT(b, "</style></head><body><header>");
    /* Without a format: every page has this. */
    WEB_LIT(b, "<a class=\"brand\" href=\"");
    str_cat(b, r->root);
    WEB_LIT(b, "./\">RING<span>SIDE</span></a><nav>");
    nav_link(b, r, "live", "", "Live");
    for (int i = 0; i < RULES_COUNT; i++) {
        const struct ruleset *rs = ruleset_get((enum rules)i);
        nav_link(b, r, "standings/", rs->name, rs->title);
    }
    nav_link(b, r, "tournaments", "", "Tournaments");
    nav_link(b, r, "halloffame", "", "Hall of fame");
    nav_link(b, r, "pundits", "", "Pundits");
    WEB_LIT(b, "</nav></header><main>");
}

static void foot(struct str *b)
{
    WEB_LIT(b, "</main><footer>Ringside: bouts fought in IRC channels. These pages only read "
               "the record; orders and plans stay secret.</footer></body></html>\n");
}

static void finish(struct str *b, int status, int refresh, struct reply *out)
{
    out->status = status;
    out->type = "text/html; charset=utf-8";
    out->refresh = refresh;
    out->body = str_take(b, &out->len);
}

static void fighter_link(struct str *b, const struct route *r, int64_t id, const char *name)
{
    render_fmt(b, "<a href=\"%sfighters/%lld\">", r->root, (long long)id);
    web_html(b, name);
    WEB_LIT(b, "</a>");
}

static const char *rules_title(int rules)
{
    const struct ruleset *rs = ruleset_get((enum rules)rules);
    return rs ? rs->title : "?";
}

static const char *league_lower(int l)
{
    static const char *const names[LEAGUE_COUNT] = {"bronze", "silver", "gold"};
    return l >= 0 && l < LEAGUE_COUNT ? names[l] : "?";
}

/* A bout's fighters' names (empty when missing). */
static void bout_names(struct web *w, const struct db_bout *bt, struct db_fighter f[SIDES])
{
    for (int s = 0; s < SIDES; s++)
        if (db_fighter_get_id(w->db, bt->fighter[s], &f[s]) != DB_OK) {
            memset(&f[s], 0, sizeof(f[s]));
            f[s].id = bt->fighter[s];
            snprintf(f[s].name, sizeof(f[s].name), "?");
        }
}

/* "exhibition", "GOLD league, turn 3", "title bout, turn 3". */
static void kind_add(struct str *b, const struct db_bout *bt)
{
    switch (bt->kind) {
    case DB_BOUT_LEAGUE:
        render_fmt(b, "<span class=\"pill %s\">%s</span> league, turn %d",
                   league_name((enum league)bt->league), league_name((enum league)bt->league),
                   bt->turn);
        break;
    case DB_BOUT_TITLE:
        render_fmt(b, "<span class=\"pill title\">TITLE</span> turn %d", bt->turn);
        break;
    default:
        WEB_LIT(b, "exhibition");
        break;
    }
}

/* How a finished bout went, in a few words: "Rocky beat Apollo by KO in
 * round 5", "Rocky and Apollo drew (decision)"; "by forfeit" when the loser
 * conceded by his own word, as the channel said it. */
static void outcome_add(struct web *w, struct str *b, const struct route *r,
                        const struct db_bout *bt, const struct db_fighter f[SIDES])
{
    if (bt->state == DB_BOUT_LIVE) {
        fighter_link(b, r, f[0].id, f[0].name);
        str_add(b, " vs ");
        fighter_link(b, r, f[1].id, f[1].name);
        str_add(b, " <span class=\"pill live\">LIVE</span> round %d of %d", bt->round, bt->rounds);
        return;
    }
    if (bt->winner < 0) {
        fighter_link(b, r, f[0].id, f[0].name);
        str_add(b, " and ");
        fighter_link(b, r, f[1].id, f[1].name);
        str_add(b, " drew (%s)", render_method_name(bt->drawn_by));
        return;
    }
    int won = bt->winner;
    fighter_link(b, r, f[won].id, f[won].name);
    str_add(b, " beat ");
    fighter_link(b, r, f[!won].id, f[!won].name);
    str_add(b, " by %s in round %d", record_bout_how(w->db, bt), bt->round);
}

/* A table of bouts: date, bout, ruleset, kind, what happened. */
static void bouts_table(struct web *w, struct str *b, const struct route *r,
                        const struct db_bout *v, int n)
{
    char date[40];

    str_add(b, "<div class=\"wrap\"><table><thead><tr><th>Bout</th><th class=\"hide-s\">When</th>"
               "<th>What</th><th class=\"hide-s\">Kind</th></tr></thead><tbody>");
    for (int i = 0; i < n; i++) {
        struct db_fighter f[SIDES];
        bout_names(w, &v[i], f);
        str_add(b,
                "<tr><td class=\"nw\"><a href=\"%sbouts/%lld\">#%lld</a> <span "
                "class=\"muted small\">%s</span></td><td class=\"hide-s nw small\">%s</td><td>",
                r->root, (long long)v[i].id, (long long)v[i].id, rules_title(v[i].rules),
                web_date(v[i].ended ? v[i].ended : v[i].started, date, sizeof(date)));
        outcome_add(w, b, r, &v[i], f);
        str_add(b, "</td><td class=\"hide-s small\">");
        kind_add(b, &v[i]);
        str_add(b, "</td></tr>");
    }
    str_add(b, "</tbody></table></div>");
}

/* ------------------------------------------------------------ errors */

void pages_error(const struct route *r, int status, const char *title, const char *message,
                 struct reply *out)
{
    struct str b;

    if (r->api) /* an address under /api answers JSON, whatever went wrong */
        return api_error(status, message, out);
    str_init(&b);
    head(&b, r, title, 0);
    str_add(&b, "<h1>");
    web_html(&b, title);
    str_add(&b, "</h1><div class=\"card\"><p>");
    web_html(&b, message);
    str_add(&b, "</p><p><a href=\"%s./\">Back to the ring</a></p></div>", r->root);
    foot(&b);
    finish(&b, status, 0, out);
}

static void not_found(const struct route *r, const char *message, struct reply *out)
{
    pages_error(r, 404, "Not found", message, out);
}

static void db_failed(const struct route *r, struct reply *out)
{
    pages_error(r, 500, "Database error", "The record could not be read; try again shortly.", out);
}

/* -------------------------------------------------------------- home */

/* The live bouts v[0..n) as a grid of cards. */
static void live_cards(struct web *w, struct str *b, const struct route *r, const struct db_bout *v,
                       int n)
{
    str_add(b, "<div class=\"grid\">");
    for (int i = 0; i < n; i++) {
        struct db_fighter f[SIDES];
        bout_names(w, &v[i], f);
        str_add(b,
                "<div class=\"card\"><span class=\"pill live\">LIVE</span> <a href=\"%sbouts/"
                "%lld\"><strong>Bout #%lld</strong></a> <span class=\"muted small\">%s, ",
                r->root, (long long)v[i].id, (long long)v[i].id, rules_title(v[i].rules));
        web_html(b, v[i].channel);
        str_add(b, "</span><h3><span class=\"sa\">");
        web_html(b, f[0].name);
        str_add(b, "</span> vs <span class=\"sb\">");
        web_html(b, f[1].name);
        str_add(b, "</span></h3><div class=\"small muted\">%s round %d of %d</div></div>",
                v[i].round ? "after" : "before", v[i].round ? v[i].round : 1, v[i].rounds);
    }
    str_add(b, "</div>");
}

/* The live bouts, as a list of cards; returns how many, or -1 (database
 * error). */
static int live_list(struct web *w, struct str *b, const struct route *r)
{
    struct db_bout *v = w->bouts;
    int n = 0;

    if (db_bout_list(w->db, DB_BOUT_LIVE, v, LIVE_MAX, &n) != DB_OK)
        n = -1;
    else if (n == 0)
        str_add(b, "<div class=\"card muted\">No bout is being fought right now.</div>");
    else
        live_cards(w, b, r, v, n);
    return n;
}

static void champion_card(struct web *w, struct str *b, const struct route *r, int rules)
{
    int64_t champ = 0;
    int defences = 0;
    struct db_fighter f;
    const struct ruleset *rs = ruleset_get((enum rules)rules);

    str_add(b, "<div class=\"card\"><div class=\"muted small\">%s International Champion</div>",
            rs->title);
    if (db_champion_get(w->db, (enum rules)rules, &champ, &defences) == DB_OK &&
        db_fighter_get_id(w->db, champ, &f) == DB_OK) {
        str_add(b, "<h3>&#x2605; ");
        fighter_link(b, r, f.id, f.name);
        str_add(b, "</h3><div class=\"small\">");
        web_owner_html(b, w->cfg.network, f.owner, f.owner_network);
        str_add(b, " &middot; %d-%d-%d &middot; %d defence%s</div>", f.wins, f.losses, f.draws,
                defences, defences == 1 ? "" : "s");
    } else {
        str_add(b, "<h3 class=\"muted\">vacant</h3>");
    }
    str_add(b,
            "<div class=\"small\"><a href=\"%sstandings/%s\">standings</a> &middot; <a "
            "href=\"%schampions/%s\">title history</a></div></div>",
            r->root, rs->name, r->root, rs->name);
}

/* The latest results as a table; 0, or -1 (database error). */
static int latest_list(struct web *w, struct str *b, const struct route *r)
{
    struct db_bout *v = w->bouts;
    int n = 0, rc = 0;

    if (db_bout_list_over(w->db, -1, -1, v, LATEST_MAX, &n) != DB_OK)
        rc = -1;
    else if (n)
        bouts_table(w, b, r, v, n);
    else
        str_add(b, "<div class=\"card muted\">No bout has been fought yet.</div>");
    return rc;
}

static void page_home(struct web *w, const struct route *r, struct reply *out)
{
    struct str b, body;

    str_init(&b);
    str_init(&body);
    str_add(&body, "<h2>Live now</h2>");
    int live = live_list(w, &body, r);
    if (live < 0) {
        str_free(&body);
        return db_failed(r, out);
    }
    str_add(&body, "<h2>Champions</h2><div class=\"grid\">");
    for (int i = 0; i < RULES_COUNT; i++)
        champion_card(w, &body, r, i);
    str_add(&body, "</div><h2>Latest results</h2>");
    if (latest_list(w, &body, r) != 0) {
        str_free(&body);
        return db_failed(r, out);
    }
    head(&b, r, "Ringside", live > 0 ? HOME_REFRESH : 0);
    str_add(&b, "<h1>Ringside</h1>");
    str_raw(&b, body.p, body.len);
    str_free(&body);
    foot(&b);
    finish(&b, 200, live > 0 ? HOME_REFRESH : 0, out);
}

static void page_live(struct web *w, const struct route *r, struct reply *out)
{
    struct str b, body;
    str_init(&b);
    str_init(&body);

    int live = live_list(w, &body, r);
    if (live < 0) {
        str_free(&body);
        return db_failed(r, out);
    }
    head(&b, r, "Live bouts", LIVE_REFRESH);
    str_add(&b,
            "<h1>Live bouts</h1><p class=\"muted small\">This page reloads every %d "
            "seconds.</p>",
            LIVE_REFRESH);
    str_raw(&b, body.p, body.len);
    str_free(&body);
    foot(&b);
    finish(&b, 200, LIVE_REFRESH, out);
}

/* --------------------------------------------------------- standings */

static void page_standings_index(struct web *w, const struct route *r, struct reply *out)
{
    struct str b;
    str_init(&b);

    head(&b, r, "Standings", 0);
    str_add(&b, "<h1>Standings</h1><div class=\"grid\">");
    for (int i = 0; i < RULES_COUNT; i++) {
        const struct ruleset *rs = ruleset_get((enum rules)i);
        str_add(&b, "<div class=\"card\"><h3>%s</h3>", rs->title);
        for (int l = LEAGUE_COUNT - 1; l >= 0; l--) {
            const struct web_standings *s = web_standings(w, (enum rules)i, l);
            if (!s) {
                str_free(&b);
                return db_failed(r, out);
            }
            str_add(&b,
                    "<div><a href=\"%sstandings/%s/%s\"><span class=\"pill %s\">%s</span></a> "
                    "<span class=\"muted small\">%d fighter%s</span></div>",
                    r->root, rs->name, league_lower(l), league_name((enum league)l),
                    league_name((enum league)l), s->n, s->n == 1 ? "" : "s");
        }
        str_add(&b, "<div class=\"small\"><a href=\"%schampions/%s\">title history</a></div></div>",
                r->root, rs->name);
    }
    str_add(&b, "</div>");
    foot(&b);
    finish(&b, 200, 0, out);
}

/* The leagues of ruleset rs, each with its count, `league` marked. */
static void league_tabs(struct web *w, struct str *b, const struct route *r,
                        const struct ruleset *rs, int league)
{
    str_add(b, "<div class=\"pager\">");
    for (int l = LEAGUE_COUNT - 1; l >= 0; l--) {
        const struct web_standings *o = web_standings(w, (enum rules)r->rules, l);
        str_add(b,
                "<a href=\"%sstandings/%s/%s\"><span class=\"pill %s%s\">%s</span></a> "
                "<span class=\"muted small\">%d</span>",
                r->root, rs->name, league_lower(l), league_name((enum league)l),
                l == league ? " on" : "", league_name((enum league)l), o ? o->n : 0);
    }
    str_add(b, "</div>");
}

/* "W-L-D". */
static void record_cell(struct str *b, int wins, int losses, int draws)
{
    web_int(b, wins);
    str_ch(b, '-');
    web_int(b, losses);
    str_ch(b, '-');
    web_int(b, draws);
}

/* Positions from + 1 to `to` of standings s, as a table. */
static void standings_table(struct str *b, const struct web *w, const struct route *r,
                            const struct web_standings *s, int from, int to)
{
    str_add(b, "<div class=\"wrap\"><table><thead><tr><th class=\"n\" "
               "style=\"width:3rem\">#</th><th>Fighter</th>"
               "<th>Owner</th><th class=\"n\">Season</th><th class=\"n hide-s\">Career</th>"
               "<th class=\"n hide-s\">KOs</th>"
               "<th class=\"n\">Gold</th><th class=\"n\">Rating</th></tr></thead><tbody>");
    /* A row as "<tr><td class="n">%d</td><td>" fighter_link "</td><td>"
     * owner "</td><td class="n">%d-%d-%d</td><td class="n hide-s">%d-%d-%d
     * </td><td class="n hide-s">%d</td><td class="n">%d</td>" rating_cell
     * "</tr>" would write it, without printf: a page is 100 of them, made
     * again after every change. */
    for (int i = from; i < to; i++) {
        const struct db_fighter *f = &s->v[i]->f;
        WEB_LIT(b, "<tr><td class=\"n\">");
        web_int(b, i + 1);
        WEB_LIT(b, "</td><td><a href=\"");
        str_cat(b, r->root);
        WEB_LIT(b, "fighters/");
        web_int(b, f->id);
        WEB_LIT(b, "\">");
        web_html(b, f->name);
        WEB_LIT(b, "</a></td><td>");
        web_owner_html(b, w->cfg.network, f->owner, f->owner_network);
        WEB_LIT(b, "</td><td class=\"n\">");
        record_cell(b, f->season_wins, f->season_losses, f->season_draws);
        WEB_LIT(b, "</td><td class=\"n hide-s\">");
        record_cell(b, f->wins, f->losses, f->draws);
        WEB_LIT(b, "</td><td class=\"n hide-s\">");
        web_int(b, f->kos);
        WEB_LIT(b, "</td><td class=\"n\">");
        web_int(b, f->gold_record);
        WEB_LIT(b, "</td>");
        rating_cell(b, &s->v[i]->rating);
        WEB_LIT(b, "</tr>");
    }
    str_add(b, "</tbody></table></div>");
}

/* Links to the page before and after `page` of `pages` (the rows from + 1
 * to `to` of n shown), when there is more than one. */
static void standings_pager(struct str *b, const struct route *r, const struct ruleset *rs,
                            int league, int page, int pages, int from, int to, int n)
{
    if (pages <= 1)
        return;
    str_add(b, "<div class=\"pager\">");
    if (page > 1)
        str_add(b, "<a href=\"%sstandings/%s/%s?page=%d\">&larr; previous</a>", r->root, rs->name,
                league_lower(league), page - 1);
    str_add(b, "<span class=\"muted\">page %d of %d (%d&ndash;%d of %d)</span>", page, pages,
            from + 1, to, n);
    if (page < pages)
        str_add(b, "<a href=\"%sstandings/%s/%s?page=%d\">next &rarr;</a>", r->root, rs->name,
                league_lower(league), page + 1);
    str_add(b, "</div>");
}

static void page_standings(struct web *w, const struct route *r, int page, struct reply *out)
{
    if (r->rules < 0)
        return page_standings_index(w, r, out);
    /* No league named: the highest that has fighters, never an empty one
     * while another has some. */
    int league = r->league >= 0 ? r->league : web_league_default(w, (enum rules)r->rules);
    if (league < 0)
        return db_failed(r, out);
    const struct ruleset *rs = ruleset_get((enum rules)r->rules);
    const struct web_standings *s = web_standings(w, (enum rules)r->rules, league);
    if (!s)
        return db_failed(r, out);
    int pages = s->n ? (s->n + WEB_PAGE_ROWS - 1) / WEB_PAGE_ROWS : 1;
    if (page > pages)
        return not_found(r, "There is no such page of these standings.", out);

    struct str b;
    char title[96];
    str_init(&b);
    snprintf(title, sizeof(title), "%s standings, %s", rs->title, league_name((enum league)league));
    head(&b, r, title, 0);
    str_add(&b, "<h1>%s standings</h1>", rs->title);
    league_tabs(w, &b, r, rs, league);
    if (league == LEAGUE_GOLD)
        champion_card(w, &b, r, r->rules);
    int from = (page - 1) * WEB_PAGE_ROWS, to = from + WEB_PAGE_ROWS;
    if (to > s->n)
        to = s->n;
    if (s->n == 0)
        str_add(&b, "<div class=\"card muted\">Nobody fights in %s yet.</div>",
                league_name((enum league)league));
    else
        standings_table(&b, w, r, s, from, to);
    standings_pager(&b, r, rs, league, page, pages, from, to, s->n);
    str_add(&b,
            "<p class=\"muted small\">Ranked by gold record (3 points a win in GOLD, 1 a "
            "tie, since the last title shot), then the season's wins minus losses, then age; "
            "fighters yet to fight this season come last. The champion stands above the "
            "leagues. <a href=\"%shalloffame\">Past seasons</a></p>",
            r->root);
    foot(&b);
    finish(&b, 200, 0, out);
}

/* --------------------------------------------------------- champions */

/* One title bout in the history: the bout, when, how it went, what
 * became of the title. */
static void title_row(struct web *w, struct str *b, const struct route *r,
                      const struct title_bout *t)
{
    struct db_fighter f[SIDES];
    char date[40];

    bout_names(w, &t->bout, f);
    str_add(b,
            "<tr><td class=\"nw\"><a href=\"%sbouts/%lld\">#%lld</a> <span "
            "class=\"muted small\">turn %d</span></td><td class=\"hide-s small "
            "nw\">%s</td><td>",
            r->root, (long long)t->bout.id, (long long)t->bout.id, t->bout.turn,
            web_date(t->bout.ended, date, sizeof(date)));
    outcome_add(w, b, r, &t->bout, f);
    str_add(b, "</td><td>");
    if (t->defence) {
        str_add(b, "defence %d", t->defence);
    } else if (t->after && t->after != t->before) {
        int s = t->after == f[1].id;
        str_add(b, "&#x2605; ");
        fighter_link(b, r, f[s].id, f[s].name);
        str_add(b, " %s", t->before ? "takes the title" : "wins the vacant title");
    } else {
        str_add(b, "stays vacant");
    }
    str_add(b, "</td></tr>");
}

static void page_champions(struct web *w, const struct route *r, struct reply *out)
{
    const struct ruleset *rs = ruleset_get((enum rules)r->rules);
    int n = 0;
    struct title_bout *t = league_title_history(w->db, (enum rules)r->rules, &n);
    char title[96];

    if (!t)
        return db_failed(r, out);
    struct str b;
    str_init(&b);
    snprintf(title, sizeof(title), "%s title history", rs->title);
    head(&b, r, title, 0);
    str_add(&b, "<h1>%s International Champion</h1>", rs->title);
    champion_card(w, &b, r, r->rules);
    str_add(&b, "<h2>Title bouts</h2>");
    if (n == 0)
        str_add(&b, "<div class=\"card muted\">No title bout has been fought yet.</div>");
    else {
        str_add(&b, "<div class=\"wrap\"><table><thead><tr><th>Bout</th><th class=\"hide-s\">"
                    "When</th><th>Result</th><th>The title</th></tr></thead><tbody>");
        for (int i = n - 1; i >= 0; i--)
            title_row(w, &b, r, &t[i]);
        str_add(&b, "</tbody></table></div>");
    }
    free(t);
    foot(&b);
    finish(&b, 200, 0, out);
}

/* ----------------------------------------------------------- fighter */

static void sheet_table(struct str *b, const struct sheet *s)
{
    const struct ruleset *rs = ruleset_get(s->rules);

    str_add(b, "<div class=\"wrap\"><table><tbody><tr>");
    for (int i = 0; i < rs->nfields; i++)
        str_add(b, "<th class=\"n\">%s</th>", rs->fields[i].label);
    str_add(b, "</tr><tr>");
    for (int i = 0; i < rs->nfields; i++)
        str_add(b, "<td class=\"n\">%d</td>", sheet_field_get(s, i));
    str_add(b, "</tr></tbody></table></div>");
}

/* A piece's condition in percent of a new one. */
static double kit_percent(const struct ruleset *rs, int cond)
{
    return rs->kit_cond_max > 0 ? 100.0 * cond / rs->kit_cond_max : 0;
}

/* A condition as a bar and a figure. */
static void condition_add(struct str *b, double pct)
{
    render_fmt(b, "<span class=\"bar\"><i class=\"%s\" style=\"width:%.1f%%\"></i></span>%.1f%%",
               pct > 60   ? "ok"
               : pct > 25 ? "worn"
                          : "low",
               pct, pct);
}

/* The equipment of sheet `s` (a ruleset with equipment): each slot's
 * piece and its condition, and what it weighs on him. */
static void kit_table(struct str *b, const struct sheet *s)
{
    const struct ruleset *rs = ruleset_get(s->rules);
    char piece[RENDER_LINE_MAX], note[RENDER_LINE_MAX];
    int n = 0;

    for (int k = 0; k < rs->kit_slots; k++) {
        int item, cond;
        sheet_kit_get(s, k, &item, &cond);
        if (item == 0)
            continue;
        if (n++ == 0)
            str_add(b, "<div class=\"wrap\"><table><thead><tr><th>Slot</th><th>Piece</th>"
                       "<th>Condition</th></tr></thead><tbody>");
        render_kit_piece(s->rules, k, item, piece, sizeof(piece));
        str_add(b, "<tr><td class=\"muted\">%s</td><td>", rs->kit_slot_name(k));
        web_html(b, piece);
        str_add(b, "</td><td class=\"nw\">");
        condition_add(b, kit_percent(rs, cond));
        str_add(b, "</td></tr>");
    }
    if (n)
        str_add(b, "</tbody></table></div>");
    else
        str_add(b, "<div class=\"card muted\">Nothing carried.</div>");
    render_kit_note(s, note, sizeof(note));
    if (note[0]) {
        str_add(b, "<p class=\"small muted\">");
        web_html(b, note);
        str_add(b, "</p>");
    }
}

/* Fighter f's name, his owner, record and league, in cards. */
static void fighter_cards(struct web *w, struct str *b, const struct route *r,
                          const struct db_fighter *f)
{
    int64_t champ = 0;
    int defences = 0;
    int is_champ =
        db_champion_get(w->db, f->sheet.rules, &champ, &defences) == DB_OK && champ == f->id;
    const struct ruleset *rs = ruleset_get(f->sheet.rules);

    str_add(b, "<h1>");
    web_html(b, f->name);
    if (is_champ)
        str_add(b, " <span class=\"pill title\">&#x2605; CHAMPION</span>");
    if (f->retired)
        str_add(b, " <span class=\"pill\">RETIRED</span>");
    str_add(b,
            "</h1><div class=\"grid\"><div class=\"card\"><div class=\"muted small\">%s "
            "&middot; a %s of</div><h3>",
            rs->title, rs->fighter);
    web_owner_html(b, w->cfg.network, f->owner, f->owner_network);
    struct render_corner c;
    char wins[160];
    render_corner_fill(&c, f);
    render_wins(&c, 1, wins, sizeof(wins)); /* "3 by KO, 1 by TKO": no markup */
    str_add(b,
            "</h3></div><div class=\"card\"><div class=\"muted small\">Record (W-L-D)</div>"
            "<h3>%d-%d-%d</h3><div class=\"small\">%s</div></div>",
            f->wins, f->losses, f->draws, wins);
    str_add(b,
            "<div class=\"card\"><div class=\"muted small\">League</div><h3><a "
            "href=\"%sstandings/%s/%s\"><span class=\"pill %s\">%s</span></a></h3><div "
            "class=\"small\">gold record %d",
            r->root, rs->name, league_lower(f->league), league_name((enum league)f->league),
            league_name((enum league)f->league), f->gold_record);
    if (is_champ)
        str_add(b, " &middot; %d title defence%s", defences, defences == 1 ? "" : "s");
    str_add(b, "</div></div></div>");
}

/* One row of fighter `me_id`'s bouts: the bout, when, the opponent, how
 * it went for him, its kind. */
static void fighter_bout_row(struct web *w, struct str *b, const struct route *r, int64_t me_id,
                             const struct db_bout *bt)
{
    struct db_fighter o[SIDES];
    char date[40];

    bout_names(w, bt, o);
    int me = bt->fighter[1] == me_id;
    str_add(b,
            "<tr><td class=\"nw\"><a href=\"%sbouts/%lld\">#%lld</a></td><td "
            "class=\"hide-s small nw\">%s</td><td>",
            r->root, (long long)bt->id, (long long)bt->id,
            web_date(bt->ended ? bt->ended : bt->started, date, sizeof(date)));
    fighter_link(b, r, o[!me].id, o[!me].name);
    str_add(b, "</td><td class=\"nw\">");
    if (bt->state == DB_BOUT_LIVE)
        str_add(b, "<span class=\"pill live\">LIVE</span> round %d of %d", bt->round, bt->rounds);
    else if (bt->winner < 0)
        str_add(b, "<span class=\"draw\">D</span> %s", render_method_name(bt->drawn_by));
    else
        str_add(b, "<span class=\"%s\">%s</span> %s, round %d", bt->winner == me ? "win" : "loss",
                bt->winner == me ? "W" : "L", record_bout_how(w->db, bt), bt->round);
    str_add(b, "</td><td class=\"hide-s small\">");
    kind_add(b, bt);
    str_add(b, "</td></tr>");
}

/* Fighter `id`'s last bouts v[0..n), as a table. */
static void fighter_bouts(struct web *w, struct str *b, const struct route *r, int64_t id,
                          const struct db_bout *v, int n)
{
    if (n == 0) {
        str_add(b, "<div class=\"card muted\">No bout fought yet.</div>");
        return;
    }
    str_add(b, "<div class=\"wrap\"><table><thead><tr><th>Bout</th><th class=\"hide-s\">"
               "When</th><th>Opponent</th><th>Result</th><th class=\"hide-s\">Kind</th>"
               "</tr></thead><tbody>");
    for (int i = 0; i < n; i++)
        fighter_bout_row(w, b, r, id, &v[i]);
    str_add(b, "</tbody></table></div>");
    if (n == HISTORY_MAX)
        str_add(b, "<p class=\"muted small\">The last %d bouts.</p>", HISTORY_MAX);
}

static void page_fighter(struct web *w, const struct route *r, struct reply *out)
{
    struct db_fighter f;
    int n = 0;

    int rc = db_fighter_get_id(w->db, r->id, &f);
    if (rc == DB_NOTFOUND)
        return not_found(r, "There is no such fighter.", out);
    if (rc != DB_OK)
        return db_failed(r, out);
    struct db_bout *v = w->bouts;
    if (db_bout_list_fighter(w->db, f.id, v, HISTORY_MAX, &n) != DB_OK)
        return db_failed(r, out);
    struct str b;
    str_init(&b);
    head(&b, r, f.name, 0);
    fighter_cards(w, &b, r, &f);
    if (rating_section(w, &b, r, &f) != 0) {
        str_free(&b);
        return db_failed(r, out);
    }
    str_add(&b, "<h2>Sheet</h2>");
    sheet_table(&b, &f.sheet);
    if (ruleset_get(f.sheet.rules)->kit_slots > 0) {
        str_add(&b, "<h2>Equipment</h2>");
        kit_table(&b, &f.sheet);
    }
    str_add(&b, "<h2>Bouts</h2>");
    fighter_bouts(w, &b, r, f.id, v, n);
    foot(&b);
    finish(&b, 200, 0, out);
}

/* -------------------------------------------------------------- bout */

/* Where the piece side `side` began the bout with in slot `slot` is
 * after the rounds fought: its slot in kit_now, or -1 (broken). A piece
 * stays in its slot, or moves to a slot that held another item at the
 * start (a shirt whose armour broke is the torso piece). */
static int piece_now(const struct bout_view *v, int side, int slot, int item)
{
    const struct ruleset *rs = ruleset_get(v->rec.rules);
    int it, c, was;

    sheet_kit_get(&v->kit_now[side], slot, &it, &c);
    if (it == item)
        return slot;
    for (int k = 0; k < rs->kit_slots; k++) {
        sheet_kit_get(&v->kit_now[side], k, &it, &c);
        sheet_kit_get(&v->corner[side].sheet, k, &was, &c);
        if (k != slot && it == item && was != item)
            return k;
    }
    return -1;
}

/* A piece in the tape: its name and condition at the start, and, once
 * rounds are fought, its condition now (or that it broke). */
static void tape_piece(struct str *b, const struct bout_view *v, int side, int slot, int item,
                       int cond)
{
    const struct ruleset *rs = ruleset_get(v->rec.rules);
    char piece[RENDER_LINE_MAX];

    render_kit_piece(v->rec.rules, slot, item, piece, sizeof(piece));
    web_html(b, piece);
    WEB_LIT(b, " ");
    web_tenths(b, kit_percent(rs, cond));
    WEB_LIT(b, "%");
    if (v->nrounds == 0)
        return;
    int k = piece_now(v, side, slot, item);
    if (k < 0) {
        WEB_LIT(b, " &rarr; <span class=\"gone\">broken</span>");
    } else {
        int it, c;
        sheet_kit_get(&v->kit_now[side], k, &it, &c);
        if (c != cond) {
            WEB_LIT(b, " &rarr; ");
            web_tenths(b, kit_percent(rs, c));
            WEB_LIT(b, "%");
        }
    }
}

static void tape(const struct web *w, struct str *b, const struct route *r,
                 const struct bout_view *v)
{
    const struct ruleset *rs = ruleset_get(v->rec.rules);
    const char *cls[SIDES] = {"sa", "sb"};

    WEB_LIT(b, "<div class=\"card tape\">");
    for (int s = 0; s < SIDES; s++) {
        /* Piece by piece, no format: a page writes this every time. */
        if (s)
            WEB_LIT(b, "<div class=\"k\">vs</div>");
        WEB_LIT(b, "<div><div class=\"who ");
        str_cat(b, cls[s]);
        WEB_LIT(b, "\">");
        fighter_link(b, r, v->rec.fighter[s], v->corner[s].name);
        WEB_LIT(b, "</div><div class=\"small muted\">");
        web_owner_html(b, w->cfg.network, v->corner[s].owner, v->owner_network[s]);
        WEB_LIT(b, "</div></div>");
    }
    for (int i = 0; i < rs->nfields; i++) {
        WEB_LIT(b, "<div class=\"n\" style=\"text-align:center\">");
        web_int(b, sheet_field_get(&v->corner[0].sheet, i));
        WEB_LIT(b, "</div><div class=\"k\">");
        str_cat(b, rs->fields[i].label);
        WEB_LIT(b, "</div><div class=\"n\" style=\"text-align:center\">");
        web_int(b, sheet_field_get(&v->corner[1].sheet, i));
        WEB_LIT(b, "</div>");
    }
    for (int k = 0; k < rs->kit_slots; k++) {
        int item[SIDES], cond[SIDES];
        for (int s = 0; s < SIDES; s++)
            sheet_kit_get(&v->corner[s].sheet, k, &item[s], &cond[s]);
        if (!item[0] && !item[1])
            continue;
        for (int s = 0; s < SIDES; s++) {
            if (s) {
                WEB_LIT(b, "<div class=\"k\">");
                str_cat(b, rs->kit_slot_name(k));
                WEB_LIT(b, "</div>");
            }
            WEB_LIT(b, "<div class=\"small\">");
            if (item[s])
                tape_piece(b, v, s, k, item[s], cond[s]);
            else
                WEB_LIT(b, "<span class=\"muted\">-</span>");
            WEB_LIT(b, "</div>");
        }
    }
    if (rs->kit_slots > 0) {
        char note[RENDER_LINE_MAX];
        for (int s = 0; s < SIDES; s++) {
            if (s)
                WEB_LIT(b, "<div class=\"k\">carried</div>");
            render_kit_note(&v->corner[s].sheet, note, sizeof(note));
            WEB_LIT(b, "<div class=\"small muted\">");
            web_html(b, note);
            WEB_LIT(b, "</div>");
        }
    }
    for (int s = 0; s < SIDES; s++) {
        WEB_LIT(b, "<div>");
        web_int(b, v->corner[s].wins);
        WEB_LIT(b, "-");
        web_int(b, v->corner[s].losses);
        WEB_LIT(b, "-");
        web_int(b, v->corner[s].draws);
        WEB_LIT(b, "</div>");
        if (!s)
            WEB_LIT(b, "<div class=\"k\">record now</div>");
    }
    WEB_LIT(b, "</div>");
}

static const char *const mark_names[VIEW_MARK_KINDS] = {
    [VIEW_KNOCKDOWN] = "knockdown", [VIEW_INJURY] = "injury",         [VIEW_WARNING] = "warning",
    [VIEW_STOPPAGE] = "stoppage",   [VIEW_CRITICAL] = "critical hit", [VIEW_STUN] = "stunned",
    [VIEW_BREAK] = "piece broken",
};

static const char *const mark_icons[VIEW_MARK_KINDS] = {
    [VIEW_KNOCKDOWN] = "&#x25BC;", [VIEW_INJURY] = "&#x271A;",   [VIEW_WARNING] = "&#x26A0;",
    [VIEW_STOPPAGE] = "&#x2716;",  [VIEW_CRITICAL] = "&#x2736;", [VIEW_STUN] = "&#x21AF;",
    [VIEW_BREAK] = "&#x2300;",
};

static void round_card(struct str *b, const struct bout_view *v, const struct view_round *vr)
{
    /* Without printf where it is only our text and numbers: a bout page
     * has a card a round. */
    WEB_LIT(b, "<div class=\"round\" id=\"round-");
    web_int(b, vr->round);
    WEB_LIT(b, "\"><h3>Round ");
    web_int(b, vr->round);
    WEB_LIT(b, "</h3>");
    if (vr->nlines) {
        WEB_LIT(b, "<ul>");
        for (int i = 0; i < vr->nlines; i++) {
            WEB_LIT(b, "<li>");
            web_html(b, vr->lines[i]);
            WEB_LIT(b, "</li>");
        }
        WEB_LIT(b, "</ul>");
    }
    if (vr->nmarks) {
        WEB_LIT(b, "<ul class=\"marks small\">");
        for (int i = 0; i < vr->nmarks; i++) {
            const struct view_mark *m = &vr->marks[i];
            WEB_LIT(b, "<li><span class=\"");
            str_cat(b, m->side == 1 ? "sb" : "sa");
            WEB_LIT(b, "\" title=\"");
            str_cat(b, mark_names[m->kind]);
            WEB_LIT(b, "\">");
            str_cat(b, mark_icons[m->kind]);
            WEB_LIT(b, "</span> ");
            web_html(b, m->text);
            WEB_LIT(b, "</li>");
        }
        WEB_LIT(b, "</ul>");
    }
    WEB_LIT(b, "<div class=\"small muted\">");
    web_html(b, vr->score);
    WEB_LIT(b, "</div><div class=\"small muted\">");
    str_cat(b, v->meter_name);
    WEB_LIT(b, ": <span class=\"sa\">");
    web_tenths(b, vr->meter[0]);
    WEB_LIT(b, "</span> / <span class=\"sb\">");
    web_tenths(b, vr->meter[1]);
    WEB_LIT(b, "</span></div><details><summary>Full report</summary><pre>");
    web_html(b, vr->report);
    WEB_LIT(b, "</pre></details></div>");
}

/* A bout's heading: its number and fighters, what it is, where and when,
 * and how it ended (or that it goes on, reloading every `refresh`
 * seconds). */
static void bout_heading(struct str *b, const struct bout_view *v, int live, int refresh)
{
    char date[40];

    WEB_LIT(b, "<h1>Bout #");
    web_int(b, v->rec.id);
    WEB_LIT(b, ": <span class=\"sa\">");
    web_html(b, v->corner[0].name);
    WEB_LIT(b, "</span> vs <span class=\"sb\">");
    web_html(b, v->corner[1].name);
    WEB_LIT(b, "</span>");
    if (live)
        WEB_LIT(b, " <span class=\"pill live\">LIVE</span>");
    WEB_LIT(b, "</h1><div class=\"small muted\">");
    str_cat(b, rules_title(v->rec.rules));
    WEB_LIT(b, ", ");
    web_int(b, v->rec.rounds);
    WEB_LIT(b, " rounds &middot; ");
    kind_add(b, &v->rec);
    WEB_LIT(b, " &middot; ");
    web_html(b, v->rec.channel);
    WEB_LIT(b, " &middot; ");
    str_cat(b, web_date(v->rec.started, date, sizeof(date)));
    WEB_LIT(b, "</div>");
    if (live) {
        render_fmt(b,
                   "<div class=\"result\">Live: %d of %d rounds fought. This page reloads "
                   "every %d seconds.</div>",
                   v->nrounds, v->rec.rounds, refresh);
    } else {
        WEB_LIT(b, "<div class=\"result\">");
        web_html(b, v->result);
        WEB_LIT(b, "</div>");
    }
}

/* The rounds fought, each a card, and a finished bout's result. */
static void bout_rounds(struct str *b, const struct bout_view *v, int live)
{
    WEB_LIT(b, "<h2>Rounds</h2>");
    if (v->nrounds == 0)
        WEB_LIT(b, "<div class=\"card muted\">Round 1 is about to be fought.</div>");
    for (int i = 0; i < v->nrounds; i++)
        round_card(b, v, &v->round[i]);
    if (live || !v->nresult)
        return;
    WEB_LIT(b, "<h2>Result</h2><div class=\"card\">");
    for (int i = 0; i < v->nresult; i++) {
        WEB_LIT(b, "<div>");
        web_html(b, v->result_lines[i]);
        WEB_LIT(b, "</div>");
    }
    WEB_LIT(b, "</div>");
}

/* The answer for bout r->id that has no view (bout_view said why in
 * err): not found, never fought, the database failing, or a bout that
 * does not replay. */
static void bout_missing(struct web *w, const struct route *r, const char *err, struct reply *out)
{
    struct db_bout rec;
    int rc = db_bout_get(w->db, r->id, &rec);

    if (rc == DB_NOTFOUND ||
        (rc == DB_OK && rec.state != DB_BOUT_LIVE && rec.state != DB_BOUT_OVER))
        return not_found(r,
                         rc == DB_OK ? "That bout was never fought (a challenge, or cancelled)."
                                     : "There is no such bout.",
                         out);
    if (rc != DB_OK)
        return db_failed(r, out);
    pages_error(r, 500, "This bout does not replay", err, out);
}

/* Room made at once for a bout page's text: most are 20 to 40 KB, grown
 * by doubling from nothing they would be copied a few times over. */
#define BOUT_PAGE_BYTES (48 * 1024)

static void page_bout(struct web *w, const struct route *r, struct reply *out)
{
    char err[256], title[128];

    /* The record is read once, by the view; only a bout without one is
     * read again, to say why. */
    struct bout_view *v = bout_view(w->db, r->id, err, sizeof(err));
    if (!v)
        return bout_missing(w, r, err, out);
    int live = v->rec.state == DB_BOUT_LIVE;
    const struct ruleset *rs = ruleset_get(v->rec.rules);
    int refresh = !live ? 0 : rs && rs->auto_rounds ? AUTO_REFRESH : LIVE_REFRESH;

    struct str b;
    str_init(&b);
    str_reserve(&b, BOUT_PAGE_BYTES);
    snprintf(title, sizeof(title), "Bout #%lld: %s vs %s", (long long)v->rec.id, v->corner[0].name,
             v->corner[1].name);
    head(&b, r, title, refresh);
    bout_heading(&b, v, live, refresh);
    WEB_LIT(&b, "<h2>Tale of the tape</h2>");
    tape(w, &b, r, v);
    /* The meter's word capitalised (ours: lower-case ASCII). */
    WEB_LIT(&b, "<h2>");
    str_ch(&b, v->meter_name[0] >= 'a' && v->meter_name[0] <= 'z' ? v->meter_name[0] - 32 : '?');
    str_cat(&b, v->meter_name[0] ? v->meter_name + 1 : "");
    WEB_LIT(&b, " round by round</h2><div class=\"chart\">");
    chart_svg(&b, v);
    WEB_LIT(&b, "</div>");
    bout_rounds(&b, v, live);
    if (predictions_html(w, v, &b) != 0) {
        bout_view_free(v);
        str_free(&b);
        return db_failed(r, out);
    }
    WEB_LIT(&b, "<p class=\"small\"><a href=\"");
    str_cat(&b, r->root);
    WEB_LIT(&b, "api/bouts/");
    web_int(&b, v->rec.id);
    WEB_LIT(&b, "\">This bout as JSON</a></p>");
    bout_view_free(v);
    foot(&b);
    finish(&b, 200, refresh, out);
}

void pages_fighter_name(struct web *w, const struct route *r, struct reply *out)
{
    char key[DB_NAME_MAX];
    struct db_fighter f;
    size_t i = 0;

    /* The bot folds fighter names (RFC 1459); theirs are letters, digits
     * and _ - ', so that is ASCII lower case. */
    for (; r->name[i] && i + 1 < sizeof(key); i++)
        key[i] = (char)(r->name[i] >= 'A' && r->name[i] <= 'Z' ? r->name[i] + 32 : r->name[i]);
    key[i] = '\0';
    int rc = db_fighter_get(w->db, key, &f);
    if (rc == DB_NOTFOUND)
        return not_found(r, "There is no fighter of that name.", out);
    if (rc != DB_OK)
        return db_failed(r, out);
    struct str b;
    str_init(&b);
    /* Relative to /fighters/NAME: its id's page. */
    snprintf(out->location, sizeof(out->location), "%lld", (long long)f.id);
    head(&b, r, f.name, 0);
    str_add(&b, "<p><a href=\"%lld\">", (long long)f.id);
    web_html(&b, f.name);
    str_add(&b, "</a></p>");
    foot(&b);
    finish(&b, 302, 0, out);
}

/* /ratings/RULES: page `page` of a ruleset's ratings (web/rating.c). */
static void page_ratings(struct web *w, const struct route *r, int page, struct reply *out)
{
    struct str b;
    char title[96];

    str_init(&b);
    snprintf(title, sizeof(title), "%s ratings", ruleset_get((enum rules)r->rules)->title);
    head(&b, r, title, 0);
    int rc = rating_list_html(w, &b, r, page);
    if (rc != 0) {
        str_free(&b);
        if (rc > 0)
            return not_found(r, "There is no such page of these ratings.", out);
        return db_failed(r, out);
    }
    foot(&b);
    finish(&b, 200, 0, out);
}

/* /pundits, /pundits/RULES: the predictors' table (pundits.c). */
static void page_pundits(struct web *w, const struct route *r, struct reply *out)
{
    struct str b;

    str_init(&b);
    head(&b, r, "Pundits", 0);
    if (pundits_html(w, r, &b) != 0) {
        str_free(&b);
        return db_failed(r, out);
    }
    foot(&b);
    finish(&b, 200, 0, out);
}

/* ------------------------------------------- for the other files' pages */

void pages_end(struct str *b, struct reply *out)
{
    foot(b);
    finish(b, 200, 0, out);
}

void pages_head(struct str *b, const struct route *r, const char *title, int refresh)
{
    head(b, r, title, refresh);
}

void pages_foot(struct str *b)
{
    foot(b);
}

void pages_finish(struct str *b, int status, int refresh, struct reply *out)
{
    finish(b, status, refresh, out);
}

/* ---------------------------------------------------------- dispatch */

void pages_render(struct web *w, const struct route *r, int page, struct reply *out)
{
    switch (r->page) {
    case PAGE_HOME:
        return page_home(w, r, out);
    case PAGE_LIVE:
        return page_live(w, r, out);
    case PAGE_STANDINGS:
        return page_standings(w, r, page, out);
    case PAGE_CHAMPIONS:
        return page_champions(w, r, out);
    case PAGE_FIGHTER:
        return page_fighter(w, r, out);
    case PAGE_BOUT:
        return page_bout(w, r, out);
    case PAGE_RATINGS:
        return page_ratings(w, r, page, out);
    case PAGE_SEASON:
    case PAGE_HALLOFFAME:
        return season_pages(w, r, out);
    case PAGE_PUNDITS:
        return page_pundits(w, r, out);
    case PAGE_TOURNAMENTS:
    case PAGE_TOURNAMENT:
        return web_tournament_render(w, r, out);
    default:
        return not_found(r, "There is no such page.", out);
    }
}
