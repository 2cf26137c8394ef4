/*
 * predict.c - spectators' predictions and the pundits' table (issue 26).
 *
 * A prediction names a live bout, the fighter who wins (or a draw) and, at
 * will, the method and the round. It is taken from the challenge's
 * acceptance until round `closes` (game_config.predict_closes_after,
 * default 1; a duel, whose rounds come every few seconds, at least the
 * rounds of OPEN_SECONDS_MIN: predict_closes) has been fought, as the
 * bout's start line says (predict_open_words); it may be changed until
 * then, and is stored before it is acknowledged. Nobody hears anyone's
 * prediction before it closes; then the count goes with the next round's
 * first commentary line (predict_count_add). The bout's result scores every prediction once, in
 * the result's own transaction (predict_score, called by bout.c's
 * round_store: a crash leaves both stored or neither), and the end says who
 * called it (predict_called). League and title bouts are fought at once and
 * take none. A player never predicts a bout one of his fighters fights.
 *
 * The pundits' table ranks by points, then the share of winners called; the
 * per-season table takes a season's time span from game/season.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game.h"
#include "game_internal.h"

#define OPEN_SHOWN    16  /* open predictions listed, at most */
#define PUNDITS_SHOWN 10  /* rows of the table said */
#define CALLED_ROOM   360 /* the "Called it" line's names, at most */
#define METHODS_MAX   5
#define PREDICT_USAGE "predict <bout> <fighter> [method] [round N], or predict <bout> draw"

/* How a ruleset's bouts may end, as a prediction names it: the word, what
 * the engine reports, and whether the bout went the distance (no round). */
struct method_word {
    const char *word, *shown;
    enum method method;
    int distance;
};

struct rules_methods {
    const char *rules; /* the ruleset's name */
    struct method_word m[METHODS_MAX];
};

/* The methods by ruleset. A duel's only stoppage besides the knockout is
 * a yield, which the engine reports as a TKO (the towel). */
static const struct rules_methods METHODS[] = {
    {"boxing",
     {{"ko", "KO", METHOD_KO, 0},
      {"tko", "TKO", METHOD_TKO, 0},
      {"dq", "DQ", METHOD_DQ, 0},
      {"decision", "decision", METHOD_DECISION, 1}}},
    {"sugarray",
     {{"ko", "KO", METHOD_KO, 0},
      {"tko", "TKO", METHOD_TKO, 0},
      {"points", "points", METHOD_POINTS, 1}}},
    {"duel", {{"ko", "KO", METHOD_KO, 0}, {"yield", "yield", METHOD_TKO, 0}}},
};

static const struct rules_methods *methods_of(enum rules rules)
{
    const struct ruleset *rs = ruleset_get(rules);

    for (size_t i = 0; rs && i < sizeof(METHODS) / sizeof(METHODS[0]); i++)
        if (strcmp(METHODS[i].rules, rs->name) == 0)
            return &METHODS[i];
    return NULL;
}

/* The ruleset's method called `word` (NULL: none such). */
static const struct method_word *method_find(enum rules rules, const char *word)
{
    const struct rules_methods *t = methods_of(rules);

    for (int i = 0; t && i < METHODS_MAX && t->m[i].word; i++)
        if (strcasecmp(t->m[i].word, word) == 0)
            return &t->m[i];
    return NULL;
}

/* The word of the method a finished bout ended by ("" for a draw). */
static const char *method_of_result(enum rules rules, enum method m)
{
    const struct rules_methods *t = methods_of(rules);

    for (int i = 0; t && i < METHODS_MAX && t->m[i].word; i++)
        if (t->m[i].method == m)
            return t->m[i].word;
    return "";
}

/* "ko, tko, dq or decision" for rules. */
static void methods_list(enum rules rules, struct str *s)
{
    const struct rules_methods *t = methods_of(rules);
    int n = 0;

    while (t && n < METHODS_MAX && t->m[n].word)
        n++;
    for (int i = 0; i < n; i++)
        str_add(s, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", t->m[i].word);
}

/* The least time a bout that fights itself (a duel) takes predictions:
 * its rounds come every few seconds, and one round would close them
 * before anyone could type. */
#define OPEN_SECONDS_MIN 20

int predict_closes(const struct game *g, const struct db_bout *rec)
{
    int c = g->cfg.predict_closes_after > 0 ? g->cfg.predict_closes_after : 1;
    const struct ruleset *rs = ruleset_get(rec->rules);

    if (rs && rs->auto_rounds) {
        int secs = bout_auto_seconds(g);
        int need = (OPEN_SECONDS_MIN + secs - 1) / secs;
        c = c > need ? c : need;
    }
    return c;
}

void predict_open_words(const struct game *g, const struct live *lv, struct str *s)
{
    const struct ruleset *rs = ruleset_get(lv->rec.rules);
    int c = predict_closes(g, &lv->rec);

    if (lv->rec.kind != DB_BOUT_EXHIBITION) /* fought at once: none taken */
        return;
    str_cat(s, " Predictions open");
    if (rs && rs->auto_rounds)
        str_add(s, " for %s (until round %d is fought)", DURATION(c * bout_auto_seconds(g)), c);
    else
        str_add(s, " until round %d is fought", c);
    str_add(s, ": %spredict %lld <fighter>.", g->cfg.prefix, (long long)lv->rec.id);
}

void game_prediction_text(const struct db_prediction *p, enum rules rules, const char *a,
                          const char *b, struct str *s)
{
    const struct method_word *m = p->method[0] ? method_find(rules, p->method) : NULL;

    if (p->side < 0) {
        str_cat(s, "a draw");
        return;
    }
    str_cat(s, p->side == 0 ? a : b);
    if (m)
        str_add(s, " by %s", m->shown);
    if (p->round > 0)
        str_add(s, " in round %d", p->round);
}

/* ------------------------------------------------------------ finding */

static struct live *live_find(struct game *g, int64_t id)
{
    return live_by_id(g, id);
}

/* Why bout `id`, not live in memory, takes no prediction: one line. */
static void not_live(struct game *g, const struct game_caller *who, int64_t id)
{
    struct db_bout rec;
    int rc = db_bout_get(g->db, id, &rec);

    if (rc == DB_NOTFOUND)
        game_reply_private(who, "There is no bout #%lld; bouts lists the live bouts.",
                           (long long)id);
    else if (rc != DB_OK)
        game_reply_private(who, "Bout #%lld could not be read (%s); try again.", (long long)id,
                           db_why(g->db));
    else if (rec.kind != DB_BOUT_EXHIBITION)
        game_reply_private(who, "Bout #%lld is a %s bout, fought at once: it takes no predictions.",
                           (long long)id, rec.kind == DB_BOUT_TITLE ? "title" : "league");
    else if (rec.state == DB_BOUT_OVER)
        game_reply_private(who, "Bout #%lld is over: predictions are closed.", (long long)id);
    else
        game_reply_private(who, "Bout #%lld was cancelled: it takes no predictions.",
                           (long long)id);
}

/* The live bout named by `word` ("7" or "#7") that `who` may predict, or
 * NULL after one line saying why not. */
static struct live *predict_bout(struct game *g, const struct game_caller *who, const char *word)
{
    const char *p = word[0] == '#' ? word + 1 : word;
    char *end;
    long long id = isdigit((unsigned char)p[0]) ? strtoll(p, &end, 10) : 0;

    if (id <= 0 || *end != '\0') {
        game_reply_private(who, "\"%s\" is not a bout's number; usage: %s (bouts lists them).",
                           CLIP(word, 20), PREDICT_USAGE);
        return NULL;
    }
    struct live *lv = live_find(g, id);
    if (!lv) {
        not_live(g, who, id);
        return NULL;
    }
    if (lv->rec.state == DB_BOUT_CHALLENGE) {
        game_reply_private(who, "Bout #%lld is not accepted yet: predictions open when it starts.",
                           id);
        return NULL;
    }
    if (lv->f[0].account_id == who->account_id || lv->f[1].account_id == who->account_id) {
        game_reply_private(who, "Bout #%lld is your own fighter's: you cannot predict it.", id);
        return NULL;
    }
    int c = predict_closes(g, &lv->rec);
    if (lv->rec.round >= c) {
        game_reply_private(who, "Predictions on bout #%lld closed at the end of round %d.", id, c);
        return NULL;
    }
    return lv;
}

/* ------------------------------------------------------------ reading */

/* The side named `word` in lv (a fighter's name), -1 for "draw", or -2
 * after saying who fights. */
static int predict_side(struct game *g, const struct game_caller *who, const struct live *lv,
                        const char *word)
{
    (void)g;
    if (strcasecmp(word, "draw") == 0)
        return -1;
    for (int s = 0; s < SIDES; s++)
        if (strcasecmp(word, lv->f[s].name) == 0)
            return s;
    game_reply_private(who, "%s does not fight in bout #%lld: say %s, %s or draw.", CLIP(word, 20),
                       (long long)lv->rec.id, lv->f[0].name, lv->f[1].name);
    return -2;
}

/* "round N": the round into p->round, checked against the bout; 0, or -1
 * after a reply. */
static int predict_round(const struct game_caller *who, const struct live *lv, const char *word,
                         struct db_prediction *p)
{
    int first = lv->rec.round + 1, last = lv->rec.rounds;
    char *end;
    long n = word && isdigit((unsigned char)word[0]) ? strtol(word, &end, 10) : -1;

    if (n < 0 || *end != '\0' || n < first || n > last) {
        if (first == last)
            game_reply_private(who, "Bout #%lld has one round left to call: say round %d.",
                               (long long)lv->rec.id, last);
        else
            game_reply_private(who, "Bout #%lld's round to call is a number from %d to %d.",
                               (long long)lv->rec.id, first, last);
        return -1;
    }
    p->round = (int)n;
    return 0;
}

/* The method word `w`, or -1 after saying which the bout's ruleset has. */
static int predict_method(const struct game_caller *who, const struct live *lv, const char *w,
                          struct db_prediction *p)
{
    const struct method_word *m = method_find(lv->rec.rules, w);
    char list[96];
    struct str s;

    if (m) {
        snprintf(p->method, sizeof(p->method), "%s", m->word);
        return 0;
    }
    str_init_fixed(&s, list, sizeof(list));
    methods_list(lv->rec.rules, &s);
    game_reply_private(who, "A %s bout ends by %s: \"%s\" is none of them.",
                       ruleset_get(lv->rec.rules)->name, list, CLIP(w, 20));
    return -1;
}

/* The words after the fighter: a method and "round N", in any order. 0, or
 * -1 after a reply. */
static int predict_words(const struct game_caller *who, const struct live *lv, char **w, int n,
                         struct db_prediction *p)
{
    for (int i = 0; i < n; i++) {
        if (p->side < 0) {
            game_reply_private(who, "A draw takes no method or round: say predict %lld draw.",
                               (long long)lv->rec.id);
            return -1;
        }
        if (strcasecmp(w[i], "round") == 0) {
            if (p->round > 0) {
                game_reply_private(who, "One round, please; usage: %s.", PREDICT_USAGE);
                return -1;
            }
            if (predict_round(who, lv, i + 1 < n ? w[i + 1] : NULL, p) != 0)
                return -1;
            i++;
        } else if (p->method[0]) {
            game_reply_private(who, "I don't understand \"%s\"; usage: %s.", CLIP(w[i], 20),
                               PREDICT_USAGE);
            return -1;
        } else if (predict_method(who, lv, w[i], p) != 0) {
            return -1;
        }
    }
    const struct method_word *m = p->method[0] ? method_find(lv->rec.rules, p->method) : NULL;
    if (m && m->distance && p->round > 0) {
        game_reply_private(who, "A %s goes the distance: leave out the round.", m->word);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ commands */

int game_predict(struct game *g, const struct game_caller *who, const char *bout, char **words,
                 int n)
{
    struct live *lv = predict_bout(g, who, bout);
    struct db_prediction p = {0}, was;

    if (!lv)
        return -1;
    if (n < 1) {
        game_reply_private(who, "Whom do you call in bout #%lld? Say predict %lld %s, %s or draw.",
                           (long long)lv->rec.id, (long long)lv->rec.id, lv->f[0].name,
                           lv->f[1].name);
        return -1;
    }
    p.side = predict_side(g, who, lv, words[0]);
    if (p.side < -1 || predict_words(who, lv, words + 1, n - 1, &p) != 0)
        return -1;
    p.bout = lv->rec.id;
    p.account = who->account_id;
    p.closes = predict_closes(g, &lv->rec);
    p.made = game_wall(g);
    int had = db_predict_get(g->db, p.bout, p.account, &was) == DB_OK;
    if (db_predict_put(g->db, &p) != DB_OK) {
        game_reply_private(who, "Your prediction could not be stored (%s); try again.",
                           db_why(g->db));
        return -1;
    }
    char now[128], before[128];
    struct str t, b;
    str_init_fixed(&t, now, sizeof(now));
    str_init_fixed(&b, before, sizeof(before));
    game_prediction_text(&p, lv->rec.rules, lv->f[0].name, lv->f[1].name, &t);
    if (had)
        game_prediction_text(&was, lv->rec.rules, lv->f[0].name, lv->f[1].name, &b);
    game_reply_private(who,
                       "%s bout #%lld: %s%s%s%s. You may change it until the end of round %d; "
                       "nobody sees it before then.",
                       had ? "Prediction changed for" : "Prediction stored for", (long long)p.bout,
                       now, had ? " (was " : "", had ? before : "", had ? ")" : "", p.closes);
    return 0;
}

int game_predict_list(struct game *g, const struct game_caller *who)
{
    struct db_prediction *v = xcalloc(OPEN_SHOWN, sizeof(*v));
    int n = 0;
    char text[RENDER_LINE_MAX * 2];
    struct str s;

    if (db_predict_open(g->db, who->account_id, v, OPEN_SHOWN, &n) != DB_OK) {
        game_reply_private(who, "Your predictions could not be read (%s); try again.",
                           db_why(g->db));
        free(v);
        return -1;
    }
    if (n == 0) {
        game_reply_private(who, "You have no open prediction; usage: %s.", PREDICT_USAGE);
        free(v);
        return 0;
    }
    str_init_fixed(&s, text, sizeof(text));
    str_cat(&s, "Your open predictions:");
    for (int i = 0; i < n; i++) {
        struct live *lv = live_find(g, v[i].bout);
        if (!lv)
            continue;
        str_add(&s, "%s #%lld ", i ? ";" : "", (long long)v[i].bout);
        game_prediction_text(&v[i], lv->rec.rules, lv->f[0].name, lv->f[1].name, &s);
        if (lv->rec.round >= v[i].closes)
            str_cat(&s, " (closed)");
        else
            str_add(&s, " (open until the end of round %d)", v[i].closes);
    }
    str_ch(&s, '.');
    game_reply_private(who, "%s", text);
    free(v);
    return 0;
}

/* ------------------------------------------------------------ the bout's hooks */

/* What a round's transaction read of its bout's predictions, for what is
 * said once it is stored: every prediction (scored when the bout is over),
 * and whether the round says the count. */
struct predict_round {
    struct db_prediction *v;
    int n, cap;
    int count; /* the count goes with this round's first line */
    int over;
};

static int gather(void *arg, const struct db_prediction *p)
{
    struct predict_round *pr = arg;

    if (pr->n == pr->cap) {
        pr->cap = pr->cap ? 2 * pr->cap : 16;
        pr->v = xrealloc(pr->v, (size_t)pr->cap * sizeof(*pr->v));
    }
    pr->v[pr->n++] = *p;
    return 0;
}

int predict_store(struct game *g, const struct db_bout *rec, int round, int over,
                  struct predict_round **out)
{
    int closes = predict_closes(g, rec);
    int count = round == closes + 1 || (over && round <= closes);

    *out = NULL;
    if (!count && !over)
        return 0;
    const char *m = rec->winner < 0 ? "" : method_of_result(rec->rules, rec->method);
    if (over && db_predict_score(g->db, rec->id, rec->winner, m, rec->round) != DB_OK)
        return -1;
    struct predict_round *pr = xcalloc(1, sizeof(*pr));
    pr->count = count;
    pr->over = over;
    if (db_predict_each(g->db, rec->id, gather, pr) != DB_OK) {
        predict_round_free(pr);
        return -1;
    }
    *out = pr;
    return 0;
}

void predict_round_free(struct predict_round *pr)
{
    if (!pr)
        return;
    free(pr->v);
    free(pr);
}

void predict_count_add(const struct predict_round *pr, const struct live *lv, char *line,
                       size_t len)
{
    int side[SIDES] = {0, 0}, draws = 0;

    if (!pr || !pr->count || pr->n == 0)
        return;
    for (int i = 0; i < pr->n; i++) {
        if (pr->v[i].side < 0)
            draws++;
        else
            side[pr->v[i].side]++;
    }
    struct str s;
    size_t had = strlen(line);
    str_init_fixed(&s, line + had, len - had);
    str_add(&s, " %d prediction%s:", pr->n, pr->n == 1 ? "" : "s");
    int first = 1;
    for (int k = 0; k < SIDES; k++) {
        int at = side[0] >= side[1] ? k : 1 - k; /* the favourite first */
        if (side[at] > 0)
            str_add(&s, "%s %d %s", first ? "" : ",", side[at], lv->f[at].name);
        first &= side[at] == 0;
    }
    if (draws > 0)
        str_add(&s, "%s %d draw%s", first ? "" : ",", draws, draws == 1 ? "" : "s");
    str_ch(&s, '.');
}

/* One scored prediction p: told privately to its predictor, and added to
 * `line` (the "Called it" names) when it called the winner. */
static void called_one(struct game *g, const struct live *lv, const struct db_prediction *p,
                       struct str *line, int *shown)
{
    int pts = (p->hits & 1) + (p->hits >> 1 & 1) + (p->hits >> 2 & 1);
    const struct method_word *mw = method_find(lv->rec.rules, p->method);
    char what[128], msg[RENDER_LINE_MAX];
    struct str w, m;

    str_init_fixed(&w, what, sizeof(what));
    game_prediction_text(p, lv->rec.rules, lv->f[0].name, lv->f[1].name, &w);
    str_init_fixed(&m, msg, sizeof(msg));
    str_add(&m, "Bout #%lld is over: your prediction (%s) scores %d point%s", (long long)p->bout,
            what, pts, pts == 1 ? "" : "s");
    if (p->hits > 0) {
        int hm = (p->hits & DB_HIT_METHOD) && mw;
        str_add(&m, " (%s%s%s%s)", p->side < 0 ? "the draw" : "the winner", hm ? ", " : "",
                hm ? mw->shown : "", p->hits & DB_HIT_ROUND ? ", the round" : "");
        if (line->len < CALLED_ROOM) {
            str_add(line, "%s%s (%s", (*shown)++ ? ", " : " ", p->name,
                    p->side < 0 ? "draw" : "winner");
            if (hm)
                str_add(line, ", %s", mw->shown);
            if (p->hits & DB_HIT_ROUND)
                str_add(line, ", round %d", p->round);
            str_ch(line, ')');
        }
    }
    str_ch(&m, '.');
    const char *nick = g->io.nick_of ? g->io.nick_of(g->io.ctx, p->account) : NULL;
    game_say(g, GAME_LIVE, nick ? nick : p->name, "%s", msg);
}

void predict_called(struct game *g, const struct live *lv, const struct predict_round *pr,
                    int packed)
{
    struct str line, out;
    int right = 0, shown = 0;

    if (!pr || !pr->over || pr->n == 0)
        return;
    str_init(&line);
    for (int i = 0; i < pr->n; i++) {
        right += pr->v[i].hits > 0;
        called_one(g, lv, &pr->v[i], &line, &shown);
    }
    str_init(&out);
    if (packed)
        str_add(&out, "[#%lld] ", (long long)lv->rec.id);
    if (right == 0)
        str_add(&out, "Called it: nobody, of %d prediction%s.", pr->n, pr->n == 1 ? "" : "s");
    else if (right > shown)
        str_add(&out, "Called it:%s and %d more.", line.p, right - shown);
    else
        str_add(&out, "Called it:%s.", line.p);
    game_say(g, GAME_ROUND, lv->rec.channel, "%s", out.p);
    str_free(&out);
    str_free(&line);
}

/* ------------------------------------------------------------ the table */

/* The wall-clock span [from, to) of season n (0: the current one) of
 * `rules`, to 0 while it runs (game/season.c): 0, or -1 when there is no
 * such season. */
static int season_span(struct game *g, enum rules rules, int n, int64_t *from, int64_t *to)
{
    *from = *to = 0;
    if (n == 0)
        n = game_season_current(g, rules);
    return n < 1 ? -1 : game_season_span(g, rules, n, from, to);
}

/* The words of `pundits`: rules=NAME and "season [N]". 0, or -1 after a
 * reply. */
static int pundits_words(const struct game_caller *who, char **w, int n, int *rules, int *season)
{
    for (int i = 0; i < n; i++) {
        enum rules r;
        int got = game_rules_word(who, w[i], &r);
        if (got < 0)
            return -1;
        if (got) {
            *rules = (int)r;
        } else if (strcasecmp(w[i], "season") == 0 && *season < 0) {
            *season = 0;
            if (i + 1 < n && isdigit((unsigned char)w[i + 1][0]))
                *season = atoi(w[++i]);
        } else {
            game_reply(who, "I don't understand \"%s\"; usage: pundits [rules=NAME] [season [N]].",
                       CLIP(w[i], 20));
            return -1;
        }
    }
    return 0;
}

/* The table of the predictions scored on bouts of `rules` (-1: any) ended
 * in [from, to), under `title`, to the caller. */
static int predict_table_say(struct game *g, const struct game_caller *who, int rules, int64_t from,
                             int64_t to, const char *title)
{
    struct db_pundit v[PUNDITS_SHOWN];
    int n = 0;

    if (db_predict_table(g->db, rules, from, to, v, PUNDITS_SHOWN, &n) != DB_OK) {
        game_reply(who, "The pundits' table could not be read (%s); try again.", db_why(g->db));
        return -1;
    }
    if (n == 0) {
        game_reply(who, "No prediction scored yet (%s): predict a live bout as it starts.", title);
        return 0;
    }
    char text[RENDER_LINE_MAX * 2];
    struct str s;
    str_init_fixed(&s, text, sizeof(text));
    str_add(&s, "Pundits (%s):", title);
    for (int i = 0; i < n; i++)
        str_add(&s, "%s %d. %s %d point%s (%d of %d winners, %d%%)", i ? ";" : "", i + 1, v[i].name,
                v[i].points, v[i].points == 1 ? "" : "s", v[i].winners, v[i].scored,
                v[i].scored ? (v[i].winners * 100 + v[i].scored / 2) / v[i].scored : 0);
    str_ch(&s, '.');
    game_reply(who, "%s", text);
    return 0;
}

int game_pundits(struct game *g, const struct game_caller *who, char **words, int n)
{
    int rules = -1, season = -1;
    int64_t from = 0, to = 0;
    char title[96];

    if (pundits_words(who, words, n, &rules, &season) != 0)
        return -1;
    const char *rname = rules >= 0 ? ruleset_get((enum rules)rules)->name : "every ruleset";
    if (season >= 0 && rules < 0) {
        game_reply(who, "A season is a ruleset's: say e.g. pundits rules=boxing season%s.",
                   season > 0 ? " N" : "");
        return -1;
    }
    if (season >= 0 && season_span(g, (enum rules)rules, season, &from, &to) != 0) {
        game_reply(who, "There is no season %d of %s yet: season rules=%s says which one runs.",
                   season, rname, rname);
        return -1;
    }
    if (season == 0)
        season = game_season_current(g, (enum rules)rules);
    if (season > 0)
        snprintf(title, sizeof(title), "season %d, %s", season, rname);
    else
        snprintf(title, sizeof(title), "all time, %s", rname);
    return predict_table_say(g, who, rules, from, to, title);
}
