/*
 * api.c - the pages' data as JSON under /api/, one document a page, at the
 * page's address under /api: the home page's (/api), the live bouts, the
 * standings (every ruleset's leagues, or a league's table), the title
 * history, a fighter (by id or by name), a bout with its rounds.
 *
 * Objects are written by hand, every string through web_json (which also
 * escapes < > & so a document is safe wherever it is pasted). Nothing
 * here is more than a page shows: no plan, no order of a round not yet
 * fought. An unknown id or page is {"error": "..."} with status 404, and
 * every other failure under /api is JSON too (pages_error sends it here).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web.h"

static const char *const kind_names[] = {"exhibition", "league", "title"};
static const char *const state_names[] = {"challenge", "live", "over", "cancelled"};
static const char *const league_names[LEAGUE_COUNT] = {"bronze", "silver", "gold"};
static const char *const mark_names[VIEW_MARK_KINDS] = {
    [VIEW_KNOCKDOWN] = "knockdown", [VIEW_INJURY] = "injury",     [VIEW_WARNING] = "warning",
    [VIEW_STOPPAGE] = "stoppage",   [VIEW_CRITICAL] = "critical", [VIEW_STUN] = "stun",
    [VIEW_BREAK] = "break",
};

static void finish(struct str *b, int status, struct reply *out)
{
    str_add(b, "\n");
    out->status = status;
    out->type = "application/json; charset=utf-8";
    out->refresh = 0;
    out->body = str_take(b, &out->len);
}

void api_error(int status, const char *message, struct reply *out)
{
    struct str b;
    str_init(&b);

    str_add(&b, "{\"error\":");
    web_json(&b, message);
    str_add(&b, "}");
    finish(&b, status, out);
}

static const char *rules_name(int rules)
{
    const struct ruleset *rs = ruleset_get((enum rules)rules);
    return rs ? rs->name : "";
}

static void sheet_add(struct str *b, const struct sheet *s)
{
    const struct ruleset *rs = ruleset_get(s->rules);

    str_add(b, "{");
    for (int i = 0; i < rs->nfields; i++)
        str_add(b, "%s\"%s\":%d", i ? "," : "", rs->fields[i].key, sheet_field_get(s, i));
    str_add(b, "}");
}

/* The equipment of sheet `s` (a ruleset with equipment): [{"slot":
 * "torso", "item": "leather", "piece": "leather armour", "condition":
 * 92.5}, ...], the condition in percent of a new piece; then
 * ,"encumbrance": its words. Nothing for a ruleset without. */
static void kit_add(struct str *b, const char *key, const struct sheet *s)
{
    const struct ruleset *rs = ruleset_get(s->rules);
    char piece[RENDER_LINE_MAX];
    int n = 0;

    if (rs->kit_slots <= 0)
        return;
    str_add(b, ",\"%s\":[", key);
    for (int k = 0; k < rs->kit_slots; k++) {
        int item, cond;
        sheet_kit_get(s, k, &item, &cond);
        if (item == 0)
            continue;
        const char *name = rs->kit_item_name(k, item);
        render_kit_piece(s->rules, k, item, piece, sizeof(piece));
        str_add(b, "%s{\"slot\":", n++ ? "," : "");
        web_json(b, rs->kit_slot_name(k));
        str_add(b, ",\"item\":");
        web_json(b, name ? name : "");
        str_add(b, ",\"piece\":");
        web_json(b, piece);
        str_add(b, ",\"condition\":%.4f}",
                rs->kit_cond_max > 0 ? 100.0 * cond / rs->kit_cond_max : 0.0);
    }
    str_add(b, "]");
}

/* {"id":..,"name":..,"owner":..}: fighter f, his owner as the site names
 * him (web_owner_json). */
static void who_add(const struct web *w, struct str *b, const struct db_fighter *f)
{
    str_add(b, "{\"id\":%lld,\"name\":", (long long)f->id);
    web_json(b, f->name);
    str_add(b, ",\"owner\":");
    web_owner_json(b, w->cfg.network, f->owner, f->owner_network);
    str_add(b, "}");
}

/* A bout in a list: its id, ruleset, kind, state, fighters, result. */
static void bout_brief(struct web *w, struct str *b, const struct db_bout *bt)
{
    str_add(b,
            "{\"id\":%lld,\"rules\":\"%s\",\"kind\":\"%s\",\"state\":\"%s\",\"rounds\":%d,"
            "\"round\":%d,\"channel\":",
            (long long)bt->id, rules_name(bt->rules), kind_names[bt->kind], state_names[bt->state],
            bt->rounds, bt->round);
    web_json(b, bt->channel);
    str_add(b, ",\"fighters\":[");
    for (int s = 0; s < SIDES; s++) {
        struct db_fighter f;
        if (db_fighter_get_id(w->db, bt->fighter[s], &f) != DB_OK) {
            memset(&f, 0, sizeof(f));
            f.id = bt->fighter[s];
        }
        if (s)
            str_add(b, ",");
        who_add(w, b, &f);
    }
    str_add(b, "]");
    if (bt->state == DB_BOUT_OVER) {
        /* The method as it always was (a towel, a yield and a forfeit
         * are TKOs), and how the pages' lists name the end (a towel, a
         * yield, a forfeit apart). */
        str_add(b, ",\"winner\":%d,\"method\":\"%s\",\"how\":\"%s\"", bt->winner,
                render_method_name(bt->winner < 0 ? bt->drawn_by : bt->method),
                record_bout_how(w->db, bt));
        str_add(b, ",\"ended\":%lld", (long long)bt->ended);
    }
    str_add(b, ",\"started\":%lld}", (long long)bt->started);
}

/* The bouts v[0..n) in a list: [brief, ...]. */
static void bouts_add(struct web *w, struct str *b, const struct db_bout *v, int n)
{
    str_add(b, "[");
    for (int i = 0; i < n; i++) {
        if (i)
            str_add(b, ",");
        bout_brief(w, b, &v[i]);
    }
    str_add(b, "]");
}

#define LIVE_MAX    WEB_BOUTS_MAX /* live bouts listed */
#define HISTORY_MAX WEB_BOUTS_MAX /* a fighter's bouts listed */
#define LATEST_MAX  15            /* results on the home page */

static void api_live(struct web *w, struct reply *out)
{
    struct db_bout *v = w->bouts;
    int n = 0;

    if (db_bout_list(w->db, DB_BOUT_LIVE, v, LIVE_MAX, &n) != DB_OK)
        return api_error(500, "database error", out);
    struct str b;
    str_init(&b);
    str_add(&b, "{\"bouts\":");
    bouts_add(w, &b, v, n);
    str_add(&b, "}");
    finish(&b, 200, out);
}

/* The champion of `rules`: {"id":..,"name":..,"owner":..,"defences":N}, or
 * null for a vacant title. */
static void champion_add(struct web *w, struct str *b, int rules)
{
    int64_t champ = 0;
    int defences = 0;
    struct db_fighter cf;

    if (db_champion_get(w->db, (enum rules)rules, &champ, &defences) == DB_OK &&
        db_fighter_get_id(w->db, champ, &cf) == DB_OK) {
        str_add(b, "{\"id\":%lld,\"name\":", (long long)cf.id);
        web_json(b, cf.name);
        str_add(b, ",\"owner\":");
        web_owner_json(b, w->cfg.network, cf.owner, cf.owner_network);
        str_add(b, ",\"defences\":%d}", defences);
    } else {
        str_add(b, "null");
    }
}

/* /api/standings: every ruleset, its leagues with how many fighters each
 * has, the league its standings open at, and its champion. */
static void api_standings_index(struct web *w, struct reply *out)
{
    struct str b;

    str_init(&b);
    str_add(&b, "{\"rulesets\":[");
    for (int r = 0; r < RULES_COUNT; r++) {
        int league = web_league_default(w, (enum rules)r);
        if (league < 0) {
            str_free(&b);
            return api_error(500, "database error", out);
        }
        str_add(&b, "%s{\"rules\":\"%s\",\"default_league\":\"%s\",\"leagues\":[", r ? "," : "",
                rules_name(r), league_names[league]);
        for (int l = LEAGUE_GOLD; l >= LEAGUE_BRONZE; l--) {
            const struct web_standings *s = web_standings(w, (enum rules)r, l);
            str_add(&b, "%s{\"league\":\"%s\",\"fighters\":%d}", l < LEAGUE_GOLD ? "," : "",
                    league_names[l], s ? s->n : 0);
        }
        str_add(&b, "],\"champion\":");
        champion_add(w, &b, r);
        str_add(&b, "}");
    }
    str_add(&b, "]}");
    finish(&b, 200, out);
}

/* Positions from + 1 to `to` of standings s: [{"position":1,..},..]. */
static void standings_rows(const struct web *w, struct str *b, const struct web_standings *s,
                           int from, int to)
{
    str_add(b, "[");
    for (int i = from; i < to; i++) {
        const struct db_fighter *f = &s->v[i]->f;
        str_add(b, "%s{\"position\":%d,\"id\":%lld,\"name\":", i > from ? "," : "", i + 1,
                (long long)f->id);
        web_json(b, f->name);
        str_add(b, ",\"owner\":");
        web_owner_json(b, w->cfg.network, f->owner, f->owner_network);
        str_add(b,
                ",\"wins\":%d,\"losses\":%d,\"draws\":%d,\"kos\":%d,\"gold_record\":%d,"
                "\"season\":{\"wins\":%d,\"losses\":%d,\"draws\":%d}",
                f->wins, f->losses, f->draws, f->kos, f->gold_record, f->season_wins,
                f->season_losses, f->season_draws);
        rating_json_fields(b, &s->v[i]->rating);
        str_add(b, "}");
    }
    str_add(b, "]");
}

static void api_standings(struct web *w, const struct route *r, int page, struct reply *out)
{
    if (r->rules < 0)
        return api_standings_index(w, out);
    /* No league named: the one the page opens at. */
    int league = r->league >= 0 ? r->league : web_league_default(w, (enum rules)r->rules);
    const struct web_standings *s =
        league < 0 ? NULL : web_standings(w, (enum rules)r->rules, league);

    if (!s)
        return api_error(500, "database error", out);
    int pages = s->n ? (s->n + WEB_PAGE_ROWS - 1) / WEB_PAGE_ROWS : 1;
    if (page > pages)
        return api_error(404, "no such page of these standings", out);
    struct str b;
    str_init(&b);
    str_add(&b,
            "{\"rules\":\"%s\",\"league\":\"%s\",\"total\":%d,\"page\":%d,\"pages\":%d,"
            "\"per_page\":%d,\"champion\":",
            rules_name(r->rules), league_names[league], s->n, page, pages, WEB_PAGE_ROWS);
    champion_add(w, &b, r->rules);
    str_add(&b, ",\"standings\":");
    int from = (page - 1) * WEB_PAGE_ROWS, to = from + WEB_PAGE_ROWS;
    standings_rows(w, &b, s, from, to > s->n ? s->n : to);
    str_add(&b, "}");
    finish(&b, 200, out);
}

/* Fighter f's own fields: {"id": .. "gold_record":N, (the bouts follow). */
static void fighter_add(struct web *w, struct str *b, const struct db_fighter *f)
{
    int64_t champ = 0;
    int defences = 0;
    int is_champ =
        db_champion_get(w->db, f->sheet.rules, &champ, &defences) == DB_OK && champ == f->id;

    str_add(b, "{\"id\":%lld,\"name\":", (long long)f->id);
    web_json(b, f->name);
    str_add(b, ",\"owner\":");
    web_owner_json(b, w->cfg.network, f->owner, f->owner_network);
    str_add(b, ",\"rules\":\"%s\",\"league\":\"%s\",\"retired\":%s,\"champion\":%s,",
            rules_name(f->sheet.rules), league_names[f->league], f->retired ? "true" : "false",
            is_champ ? "true" : "false");
    if (is_champ)
        str_add(b, "\"defences\":%d,", defences);
    str_add(b, "\"sheet\":");
    sheet_add(b, &f->sheet);
    kit_add(b, "equipment", &f->sheet);
    if (ruleset_get(f->sheet.rules)->kit_slots > 0) {
        char note[RENDER_LINE_MAX];
        render_kit_note(&f->sheet, note, sizeof(note));
        str_add(b, ",\"carried\":");
        web_json(b, note);
    }
    str_add(b,
            ",\"record\":{\"wins\":%d,\"losses\":%d,\"draws\":%d,\"kos\":%d,\"tkos\":%d,"
            "\"towels\":%d,\"dqs\":%d,\"forfeits\":%d},\"gold_record\":%d",
            f->wins, f->losses, f->draws, f->kos, f->tkos, f->towels, f->dqs, f->forfeits,
            f->gold_record);
}

/* Fighter f's document: his fields and his last bouts. */
static void fighter_doc(struct web *w, const struct db_fighter *f, struct reply *out)
{
    struct db_bout *v = w->bouts;
    int n = 0;

    if (db_bout_list_fighter(w->db, f->id, v, HISTORY_MAX, &n) != DB_OK)
        return api_error(500, "database error", out);
    struct str b;
    str_init(&b);
    fighter_add(w, &b, f);
    if (rating_json_history(w, &b, f) != 0) {
        str_free(&b);
        return api_error(500, "database error", out);
    }
    str_add(&b, ",\"bouts\":");
    bouts_add(w, &b, v, n);
    str_add(&b, "}");
    finish(&b, 200, out);
}

static void api_fighter(struct web *w, const struct route *r, struct reply *out)
{
    struct db_fighter f;

    int rc = db_fighter_get_id(w->db, r->id, &f);
    if (rc == DB_NOTFOUND)
        return api_error(404, "no such fighter", out);
    if (rc != DB_OK)
        return api_error(500, "database error", out);
    fighter_doc(w, &f, out);
}

/* /api/fighters/NAME: the fighter's document itself (the page of the
 * name sends a browser to the id's; a program gets JSON, never a
 * redirect). */
static void api_fighter_name(struct web *w, const struct route *r, struct reply *out)
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
        return api_error(404, "no fighter of that name", out);
    if (rc != DB_OK)
        return api_error(500, "database error", out);
    fighter_doc(w, &f, out);
}

/* A bout's head: {"id": .. "fighters":[...] with their sheets and kit. */
static void bout_head(const struct web *w, struct str *b, const struct bout_view *v)
{
    str_add(b,
            "{\"id\":%lld,\"rules\":\"%s\",\"kind\":\"%s\",\"state\":\"%s\",\"turn\":%d,"
            "\"league\":%s%s%s,\"channel\":",
            (long long)v->rec.id, rules_name(v->rec.rules), kind_names[v->rec.kind],
            state_names[v->rec.state], v->rec.turn, v->rec.league >= 0 ? "\"" : "",
            v->rec.league >= 0 ? league_names[v->rec.league] : "null",
            v->rec.league >= 0 ? "\"" : "");
    web_json(b, v->rec.channel);
    str_add(b, ",\"rounds\":%d,\"started\":%lld,\"ended\":%lld,\"fighters\":[", v->rec.rounds,
            (long long)v->rec.started, (long long)v->rec.ended);
    for (int s = 0; s < SIDES; s++) {
        str_add(b, "%s{\"id\":%lld,\"name\":", s ? "," : "", (long long)v->rec.fighter[s]);
        web_json(b, v->corner[s].name);
        str_add(b, ",\"owner\":");
        web_owner_json(b, w->cfg.network, v->corner[s].owner, v->owner_network[s]);
        str_add(b, ",\"sheet\":");
        sheet_add(b, &v->corner[s].sheet);
        kit_add(b, "equipment", &v->corner[s].sheet);
        kit_add(b, "equipment_now", &v->kit_now[s]);
        str_add(b, "}");
    }
    str_add(b, "]");
}

/* One round fought: {"round":N,"meter":..,"cards":..,"marks":..,
 * "commentary":..,"score":..,"report":..}. */
static void round_add(struct str *b, const struct view_round *vr)
{
    str_add(b, "{\"round\":%d,\"meter\":[%.2f,%.2f],\"cards\":", vr->round, vr->meter[0],
            vr->meter[1]);
    if (vr->judged) {
        str_add(b, "[");
        for (int j = 0; j < JUDGES; j++)
            str_add(b, "%s[%d,%d]", j ? "," : "", vr->cards[j][0], vr->cards[j][1]);
        str_add(b, "]");
    } else {
        str_add(b, "null");
    }
    str_add(b, ",\"marks\":[");
    for (int k = 0; k < vr->nmarks; k++) {
        str_add(b, "%s{\"kind\":\"%s\",\"side\":%d,\"text\":", k ? "," : "",
                mark_names[vr->marks[k].kind], vr->marks[k].side);
        web_json(b, vr->marks[k].text);
        str_add(b, "}");
    }
    str_add(b, "],\"commentary\":[");
    for (int k = 0; k < vr->nlines; k++) {
        if (k)
            str_add(b, ",");
        web_json(b, vr->lines[k]);
    }
    str_add(b, "],\"score\":");
    web_json(b, vr->score);
    str_add(b, ",\"report\":");
    web_json(b, vr->report);
    str_add(b, "}");
}

static void api_bout(struct web *w, const struct route *r, struct reply *out)
{
    char err[256];
    struct db_bout rec;

    int rc = db_bout_get(w->db, r->id, &rec);
    if (rc == DB_NOTFOUND ||
        (rc == DB_OK && rec.state != DB_BOUT_LIVE && rec.state != DB_BOUT_OVER))
        return api_error(404, "no such bout fought", out);
    if (rc != DB_OK)
        return api_error(500, "database error", out);
    struct bout_view *v = bout_view(w->db, r->id, err, sizeof(err));
    if (!v)
        return api_error(500, err, out);
    struct str b;
    str_init(&b);
    bout_head(w, &b, v);
    str_add(&b, ",\"meter\":");
    web_json(&b, v->meter_name);
    str_add(&b, ",\"start\":[%.2f,%.2f],\"result\":", v->meter_start[0], v->meter_start[1]);
    if (v->over) {
        /* `how` as the result's text says it: a forfeit where the loser
         * conceded; `method` as it always was. */
        str_add(&b,
                "{\"winner\":%d,\"method\":\"%s\",\"how\":\"%s\",\"round\":%d,\"text\":", v->winner,
                render_method_name(v->winner < 0 ? v->rec.drawn_by : v->rec.method),
                v->winner < 0 ? render_method_name(v->rec.drawn_by)
                              : render_win_how(v->rec.rules, v->rec.method, v->rec.reason,
                                               v->corner[!v->winner].conceded),
                v->rec.round);
        web_json(&b, v->result);
        str_add(&b, "}");
    } else {
        str_add(&b, "null");
    }
    str_add(&b, ",\"fought\":[");
    for (int i = 0; i < v->nrounds; i++) {
        if (i)
            str_add(&b, ",");
        round_add(&b, &v->round[i]);
    }
    str_add(&b, "]");
    int bad = predictions_json(w, v, &b) != 0;
    str_add(&b, "}");
    bout_view_free(v);
    if (bad) {
        str_free(&b);
        return api_error(500, "database error", out);
    }
    finish(&b, 200, out);
}

/* ,"key":ID or ,"key":null for 0 (nobody). */
static void id_add(struct str *b, const char *key, int64_t id)
{
    if (id)
        str_add(b, ",\"%s\":%lld", key, (long long)id);
    else
        str_add(b, ",\"%s\":null", key);
}

/* /api/champions/RULES: the champion and the title bouts, newest first,
 * each with what it did to the title. */
static void api_champions(struct web *w, const struct route *r, struct reply *out)
{
    int n = 0;
    struct title_bout *t = league_title_history(w->db, (enum rules)r->rules, &n);

    if (!t)
        return api_error(500, "database error", out);
    struct str b;
    str_init(&b);
    str_add(&b, "{\"rules\":\"%s\",\"champion\":", rules_name(r->rules));
    champion_add(w, &b, r->rules);
    str_add(&b, ",\"title_bouts\":[");
    for (int i = n - 1; i >= 0; i--) {
        str_add(&b, "%s{\"bout\":", i < n - 1 ? "," : "");
        bout_brief(w, &b, &t[i].bout);
        id_add(&b, "before", t[i].before);
        id_add(&b, "after", t[i].after);
        str_add(&b, ",\"defence\":%d}", t[i].defence);
    }
    str_add(&b, "]}");
    free(t);
    finish(&b, 200, out);
}

/* /api: what the home page shows: the live bouts, each ruleset's
 * champion, the latest results (the last to end first). */
static void api_home(struct web *w, struct reply *out)
{
    struct db_bout *v = w->bouts;
    struct str b;
    int n = 0;

    if (db_bout_list(w->db, DB_BOUT_LIVE, v, LIVE_MAX, &n) != DB_OK)
        return api_error(500, "database error", out);
    str_init(&b);
    str_add(&b, "{\"live\":");
    bouts_add(w, &b, v, n);
    str_add(&b, ",\"champions\":[");
    for (int r = 0; r < RULES_COUNT; r++) {
        str_add(&b, "%s{\"rules\":\"%s\",\"champion\":", r ? "," : "", rules_name(r));
        champion_add(w, &b, r);
        str_add(&b, "}");
    }
    str_add(&b, "],\"latest\":");
    if (db_bout_list_over(w->db, -1, -1, v, LATEST_MAX, &n) != DB_OK) {
        str_free(&b);
        return api_error(500, "database error", out);
    }
    bouts_add(w, &b, v, n);
    str_add(&b, "}");
    finish(&b, 200, out);
}

/* /api/ratings/RULES: page `page` of a ruleset's ratings (web/rating.c). */
static void api_ratings(struct web *w, const struct route *r, int page, struct reply *out)
{
    struct str b;

    str_init(&b);
    int rc = rating_list_json(w, &b, r, page);
    if (rc != 0) {
        str_free(&b);
        return api_error(rc > 0 ? 404 : 500,
                         rc > 0 ? "no such page of these ratings" : "database error", out);
    }
    finish(&b, 200, out);
}

/* /api/pundits, /api/pundits/RULES (pundits.c). */
static void api_pundits(struct web *w, const struct route *r, struct reply *out)
{
    struct str b;

    str_init(&b);
    if (pundits_json(w, r, &b) != 0) {
        str_free(&b);
        return api_error(500, "database error", out);
    }
    finish(&b, 200, out);
}

void api_render(struct web *w, const struct route *r, int page, struct reply *out)
{
    switch (r->page) {
    case API_HOME:
        return api_home(w, out);
    case API_CHAMPIONS:
        return api_champions(w, r, out);
    case API_FIGHTER_NAME:
        return api_fighter_name(w, r, out);
    case API_LIVE:
        return api_live(w, out);
    case API_STANDINGS:
        return api_standings(w, r, page, out);
    case API_FIGHTER:
        return api_fighter(w, r, out);
    case API_BOUT:
        return api_bout(w, r, out);
    case API_RATINGS:
        return api_ratings(w, r, page, out);
    case API_SEASON:
    case API_HALLOFFAME:
        return season_api(w, r, out);
    case API_PUNDITS:
        return api_pundits(w, r, out);
    case API_TOURNAMENTS:
    case API_TOURNAMENT:
        return web_tournament_render(w, r, out);
    default:
        return api_error(404, "no such address in the API", out);
    }
}
