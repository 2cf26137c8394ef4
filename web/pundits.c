/*
 * pundits.c - the predictions on the web: the pundits' table (/pundits,
 * /pundits/RULES and their /api twins) and a bout's predictions on its
 * page and in its JSON. A bout's predictions are shown only once they are
 * closed (the bout over, or the round each closed at fought): before, not
 * even their number, as the bot says nothing of them either.
 */
#include <stdio.h>
#include <string.h>

#include "web.h"

/* Any prediction of bout rec closed: over, or past the round it closed at. */
static int closed(const struct db_bout *rec, const struct db_prediction *p)
{
    return rec->state == DB_BOUT_OVER || rec->round >= p->closes;
}

static int points_of(int hits)
{
    return (hits & 1) + (hits >> 1 & 1) + (hits >> 2 & 1);
}

/* ------------------------------------------------------------ the table */

int pundits_html(struct web *w, const struct route *r, struct str *b)
{
    struct db_pundit v[WEB_PAGE_ROWS];
    int n = 0;

    if (db_predict_table(w->db, r->rules, 0, 0, v, WEB_PAGE_ROWS, &n) != DB_OK)
        return -1;
    str_add(b, "<h1>Pundits</h1><p>Who reads fights best: a point for calling the winner (or the "
               "draw), one more for the method and one for the round, when the winner is right. "
               "All time.</p><p>");
    str_add(b,
            r->rules < 0 ? "<strong>Every ruleset</strong>"
                         : "<a href=\"%spundits\">Every "
                           "ruleset</a>",
            r->root);
    for (int i = 0; i < RULES_COUNT; i++) {
        const struct ruleset *rs = ruleset_get((enum rules)i);
        if (i == r->rules)
            str_add(b, " | <strong>%s</strong>", rs->title);
        else
            str_add(b, " | <a href=\"%spundits/%s\">%s</a>", r->root, rs->name, rs->title);
    }
    str_add(b, "</p>");
    if (n == 0) {
        str_add(b, "<p>No prediction has been scored yet.</p>");
        return 0;
    }
    str_add(b, "<div class=\"wrap\"><table class=\"pundits\"><thead><tr><th class=\"n\">#</th>"
               "<th>Predictor</th><th class=\"n\">Points</th><th class=\"n\">Winners called</th>"
               "<th class=\"n\">Accuracy</th></tr></thead><tbody>");
    for (int i = 0; i < n; i++) {
        str_add(b, "<tr><td class=\"n\">%d</td><td>", i + 1);
        web_owner_html(b, w->cfg.network, v[i].name, v[i].network);
        str_add(b,
                "</td><td class=\"n\">%d</td><td class=\"n\">%d of %d</td>"
                "<td class=\"n\">%d%%</td></tr>",
                v[i].points, v[i].winners, v[i].scored,
                v[i].scored ? (v[i].winners * 100 + v[i].scored / 2) / v[i].scored : 0);
    }
    str_add(b, "</tbody></table></div>");
    return 0;
}

int pundits_json(struct web *w, const struct route *r, struct str *b)
{
    struct db_pundit v[WEB_PAGE_ROWS];
    int n = 0;

    if (db_predict_table(w->db, r->rules, 0, 0, v, WEB_PAGE_ROWS, &n) != DB_OK)
        return -1;
    if (r->rules >= 0)
        str_add(b, "{\"rules\":\"%s\"", ruleset_get((enum rules)r->rules)->name);
    else
        str_add(b, "{\"rules\":null");
    str_add(b, ",\"span\":\"all time\",\"pundits\":[");
    for (int i = 0; i < n; i++) {
        str_add(b, "%s{\"rank\":%d,\"name\":", i ? "," : "", i + 1);
        web_owner_json(b, w->cfg.network, v[i].name, v[i].network);
        str_add(b, ",\"points\":%d,\"scored\":%d,\"winners\":%d}", v[i].points, v[i].scored,
                v[i].winners);
    }
    str_add(b, "]}");
    return 0;
}

/* ------------------------------------------------------------ a bout's */

struct shown {
    const struct web *w; /* its [bot] network names the predictors */
    const struct bout_view *v;
    struct str *b;
    int json, n;
};

static int html_one(void *arg, const struct db_prediction *p)
{
    struct shown *s = arg;
    const struct bout_view *v = s->v;
    char text[128];
    struct str t;

    if (!closed(&v->rec, p))
        return 0;
    if (s->n++ == 0)
        str_add(s->b, "<h2>Predictions</h2><div class=\"wrap\"><table class=\"predictions\">"
                      "<thead><tr><th>Predictor</th><th>Called</th><th class=\"n\">Points</th>"
                      "</tr></thead><tbody>");
    str_init_fixed(&t, text, sizeof(text));
    game_prediction_text(p, v->rec.rules, v->corner[0].name, v->corner[1].name, &t);
    str_add(s->b, "<tr><td>");
    web_owner_html(s->b, s->w->cfg.network, p->name, p->network);
    str_add(s->b, "</td><td>");
    web_html(s->b, text);
    if (p->hits >= 0)
        str_add(s->b, "</td><td class=\"n\">%d</td></tr>", points_of(p->hits));
    else
        str_add(s->b, "</td><td class=\"n\">-</td></tr>");
    return 0;
}

int predictions_html(struct web *w, const struct bout_view *v, struct str *b)
{
    struct shown s = {.w = w, .v = v, .b = b};

    if (db_predict_each(w->db, v->rec.id, html_one, &s) != DB_OK)
        return -1;
    if (s.n > 0)
        str_add(b, "</tbody></table></div>");
    return 0;
}

static int json_one(void *arg, const struct db_prediction *p)
{
    struct shown *s = arg;
    const struct bout_view *v = s->v;
    char text[128];
    struct str t;

    if (!closed(&v->rec, p))
        return 0;
    str_init_fixed(&t, text, sizeof(text));
    game_prediction_text(p, v->rec.rules, v->corner[0].name, v->corner[1].name, &t);
    str_add(s->b, "%s{\"name\":", s->n++ ? "," : "");
    web_owner_json(s->b, s->w->cfg.network, p->name, p->network);
    str_add(s->b, ",\"side\":%d,\"method\":", p->side);
    if (p->method[0])
        web_json(s->b, p->method);
    else
        str_add(s->b, "null");
    if (p->round > 0)
        str_add(s->b, ",\"round\":%d,\"text\":", p->round);
    else
        str_add(s->b, ",\"round\":null,\"text\":");
    web_json(s->b, text);
    if (p->hits >= 0)
        str_add(s->b, ",\"points\":%d}", points_of(p->hits));
    else
        str_add(s->b, ",\"points\":null}");
    return 0;
}

int predictions_json(struct web *w, const struct bout_view *v, struct str *b)
{
    struct shown s = {.w = w, .v = v, .b = b, .json = 1};
    size_t at = b->len;

    str_add(b, ",\"predictions\":[");
    if (db_predict_each(w->db, v->rec.id, json_one, &s) != DB_OK)
        return -1;
    if (s.n == 0 && v->rec.state != DB_BOUT_OVER) {
        str_cut(b, at); /* still secret, or none yet */
        str_add(b, ",\"predictions\":null");
        return 0;
    }
    str_add(b, "]");
    return 0;
}
