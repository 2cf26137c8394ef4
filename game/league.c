/*
 * league.c - league turns, the International Champion and the standings.
 *
 * A turn of one ruleset (rules.md section 3, seed 004):
 *   1. The active fighters, less the champion and the paused ones (whose
 *      pause counts down), are grouped by league; in each league a random
 *      cycle gives everybody two bouts against different opponents.
 *   2. Every bout is fought from the fighters' stored plans, with the
 *      sheets they had when the turn began (the first bout has no influence
 *      on the second). A fighter without a plan fights the default order;
 *      where fighters train between turns (SUGAR RAY: the ruleset's
 *      turn_training), he gets no training and sits out the next turn.
 *   3. Records, training points and the sheet changes (SUGAR RAY's after
 *      a bout; the ruleset's after_bout) are applied;
 *      then the moves: two wins or a win and a tie up, two losses or a loss
 *      and a tie down (GOLD does not go up, BRONZE does not go down). Gold
 *      records gain 3 a win and 1 a tie in GOLD, and go to 0 on relegation.
 *   4. The title bout: the champion against the GOLD fighter with the
 *      highest gold record (ties at random); a vacant title goes to the
 *      winner between the two highest. Challengers' gold records go to 0. A
 *      champion who loses goes to GOLD.
 * All of it, every bout with its orders and digest included, is written in
 * one transaction: a turn happens entirely or not at all. No report is
 * written: a league bout's report is derived from its seed, sheets and
 * orders when someone asks, and nobody hears its rounds, so no words are
 * drawn for them (the flavour stream serves the engine alone; replay.c
 * knows).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <strings.h>

#include "game.h"
#include "game_internal.h"
#include "parse.h"

#define LIST_START    1024
#define SCHEDULE_POLL 30.0 /* seconds between looks at the schedule */
#define ORDERS_MAX    (SIDES * BOUT_ROUNDS_MAX)
#define NAMES_SHOWN   3 /* names a list of the summary shows, at most */

/* One fighter's turn. */
struct entry {
    struct db_fighter f;         /* as it will be saved */
    struct sheet start;          /* the sheet the turn began with */
    struct plan *plan;           /* NULL: no plan */
    struct compiled *shared;     /* his plan's cache entry, or NULL */
    int in_turn;                 /* paired this turn */
    int from;                    /* his league when the turn began */
    int moved;                   /* +1 up, -1 down, 0 stays */
    int wins, losses, ties;      /* league bouts of this turn */
    int delta[SHEET_FIELDS_MAX]; /* sheet changes to add after the turn */
    int changed;
    struct db_rating rating; /* as it stands: read once, stored at the end */
    int rating_stored;       /* the rating was read from its row */
    int rated;               /* a bout of the turn moved it */
    int64_t rated_at;        /* when the last one ended */
};

/* The turn's compiled plans by their text: fighters share plans (copied
 * from a stablemate or the help), and compiling was a tenth of a turn, so
 * each distinct text is compiled once and its entries share it (plan_eval
 * never writes a plan). Open addressing over a power of two, at most half
 * full; a text that no longer compiles is kept with a NULL plan. */
struct plan_slot {
    char *text; /* NULL: free */
    uint64_t hash;
    struct compiled *c;
};

/* A compiled plan, with the texts of its lines' orders once enough fighters
 * share it: a line always gives the same order, and formatting orders was
 * a twentieth of a turn. The texts take 0.75 kB, so a plan of one fighter
 * or two (a real league's many) keeps none. */
#define PLAN_TEXTS       12 /* lines 0 (none held) to 11 */
#define PLAN_TEXT_SHARED 3  /* fighters on a plan before its texts are kept */
struct compiled {
    struct plan *plan; /* NULL: the text no longer compiles */
    int users;
    unsigned known;              /* bit i: texts[i] holds line i's */
    char (*texts)[DB_ORDER_MAX]; /* NULL until the first is kept */
};

struct plan_cache {
    struct plan_slot *slot;
    size_t cap, used;
};

/* A turn being run: league_turn's, on the heap, freed by turn_free. */
struct turn {
    struct game *g;
    enum rules rules;
    int number;
    struct rng rng;
    struct entry *e;
    int n;
    int bouts;
    struct plan_cache plans; /* owns every entry's plan */
    /* The bouts of each league (their ids run from lo to hi: one writer
     * inserts them one after another in one transaction), and the title's. */
    int64_t lo[LEAGUE_COUNT], hi[LEAGUE_COUNT];
    int64_t title_id;
    int champ;    /* the champion's entry, or -1: the title is vacant */
    int defences; /* his successful defences */
    char channel[DB_CHANNEL_MAX];
    char title_line[RENDER_LINE_MAX]; /* what the summary says of the title */
    /* fight()'s workspace: the bout being fought and its orders. */
    struct bout bt;
    struct db_order ords[ORDERS_MAX];
};

static const char *rules_name(enum rules r)
{
    return ruleset_get(r)->name;
}

/* Every active fighter of the ruleset, however many: read once, into an
 * array of the size counted first (doubled should there be more). */
static struct db_fighter *all_fighters(struct db *db, enum rules rules, int *n)
{
    int max = LIST_START;

    if (db_league_count(db, rules, &max) != DB_OK)
        return NULL;
    max++; /* one more than counted: a full array means there are more */
    for (;;) {
        struct db_fighter *v = xmalloc((size_t)max * sizeof(*v));
        if (db_fighter_list_rules(db, rules, v, max, n) != DB_OK) {
            free(v);
            return NULL;
        }
        if (*n < max)
            return v;
        free(v);
        max *= 2;
    }
}

/* The text of line `line`'s order of c into text (DB_ORDER_MAX bytes) if
 * it is kept: 1, or 0. */
static int plan_text_known(const struct compiled *c, int line, char *text)
{
    if (!c || line < 0 || line >= PLAN_TEXTS || !(c->known >> line & 1u))
        return 0;
    memcpy(text, c->texts[line], DB_ORDER_MAX);
    return 1;
}

/* Keeps `text`, the order of c's line `line`, if c is shared enough. */
static void plan_text_keep(struct compiled *c, int line, const char *text)
{
    if (!c || line < 0 || line >= PLAN_TEXTS || c->users < PLAN_TEXT_SHARED)
        return;
    if (!c->texts)
        c->texts = xcalloc(PLAN_TEXTS, sizeof(*c->texts));
    memcpy(c->texts[line], text, DB_ORDER_MAX);
    c->known |= 1u << line;
}

/* The order of entry `x` for the next round of `b` (side `side`); `before`
 * is his order of the round before, or NULL. A plan's line always gives the
 * same order, so the same line as before, or as a bout before with the same
 * plan, has the same text (formatting it was a tenth of a turn). */
static void plan_order(const struct entry *x, const struct bout *b, int side, struct order *o,
                       struct db_order *dbo, const struct db_order *before)
{
    dbo->line = bout_plan_order(x->plan, b, side, o);
    dbo->source = x->plan ? DB_ORDER_PLAN : DB_ORDER_DEFAULT;
    if (before && before->line == dbo->line && before->source == dbo->source)
        memcpy(dbo->text, before->text, sizeof(dbo->text));
    else if (!x->plan || !plan_text_known(x->shared, dbo->line, dbo->text)) {
        bout_order_text(o, dbo->text, sizeof(dbo->text));
        if (x->plan)
            plan_text_keep(x->shared, dbo->line, dbo->text);
    }
}

/* ------------------------------------------------------------- a bout */

/* The sheets entries a and b fight with: the ones the turn began with (the
 * first bout has no influence on the second), but the equipment (duel) they
 * carry now: the wear of a first bout goes into the second. */
static void fight_sheets(const struct turn *t, int a, int b, struct sheet sheets[SIDES])
{
    const struct entry *x[SIDES] = {&t->e[a], &t->e[b]};
    const struct ruleset *rs = ruleset_get(t->rules);

    for (int s = 0; s < SIDES; s++) {
        sheets[s] = x[s]->start;
        for (int k = 0; k < rs->kit_slots; k++) {
            int item, cond;
            sheet_kit_get(&x[s]->f.sheet, k, &item, &cond);
            sheet_kit_set(&sheets[s], k, item, cond);
        }
    }
}

/* The record of a bout of the turn between a and b, before it is fought:
 * its seed is the turn's next draw. */
static void fight_record(struct turn *t, int a, int b, enum db_bout_kind kind, int league,
                         const struct sheet sheets[SIDES], struct db_bout *rec)
{
    memset(rec, 0, sizeof(*rec));
    rec->rules = t->rules;
    snprintf(rec->channel, sizeof(rec->channel), "%s", t->channel);
    rec->rounds = ruleset_get(t->rules)->rounds_default;
    rec->seed = rng_next(&t->rng);
    rec->kind = kind;
    rec->turn = t->number;
    rec->league = league;
    rec->winner = -1;
    rec->created = rec->started = game_wall(t->g);
    rec->fighter[0] = t->e[a].f.id;
    rec->fighter[1] = t->e[b].f.id;
    rec->sheet[0] = sheets[0];
    rec->sheet[1] = sheets[1];
}

/* Fights the bout of `rec` to its end in t->bt from the plans of entries a
 * and b, its orders into t->ords (*nords of them); its result and digest
 * go into rec. Returns 0, or -1 if the engine refuses it. */
static int fight_rounds(struct turn *t, int a, int b, struct db_bout *rec, int *nords)
{
    const struct entry *x[SIDES] = {&t->e[a], &t->e[b]};
    struct bout *bt = &t->bt;
    struct bout_rng r;
    struct events evs;
    uint64_t digest = 0;

    *nords = 0;
    if (bout_init(bt, t->rules, rec->sheet, rec->rounds) != 0)
        return -1;
    bout_rng_seed(&r, rec->seed);
    while (!bt->result.over) {
        struct order o[SIDES];
        struct db_order *dbo = &t->ords[*nords];
        if (*nords + SIDES > ORDERS_MAX)
            return -1;
        for (int s = 0; s < SIDES; s++) {
            memset(&dbo[s], 0, sizeof(dbo[s]));
            dbo[s].round = bt->round + 1;
            dbo[s].side = s;
            plan_order(x[s], bt, s, &o[s], &dbo[s], *nords ? &dbo[s - SIDES] : NULL);
        }
        if (bout_round(bt, o, &r, &evs) != 0)
            return -1;
        *nords += SIDES;
        digest = bout_digest(digest, bt, &evs);
    }
    const struct result *res = &bt->result;
    rec->state = DB_BOUT_OVER;
    rec->round = bt->round;
    rec->winner = res->winner;
    rec->method = res->method;
    rec->drawn_by = res->drawn_by;
    rec->reason = res->reason;
    rec->decision = res->decision;
    rec->ended = rec->created;
    rec->digest = digest;
    rec->has_digest = 1;
    return 0;
}

/* What the bout just fought in t->bt leaves entries a and b: records,
 * training points, the equipment's wear, and the sheet changes, which wait
 * for the end of the turn (both bouts are fought with the turn's first
 * sheets); gold records for a GOLD league bout. */
static void fight_apply(struct turn *t, int a, int b, const struct sheet sheets[SIDES],
                        enum db_bout_kind kind, int league)
{
    struct entry *x[SIDES] = {&t->e[a], &t->e[b]};
    const struct ruleset *rs = ruleset_get(t->rules);
    const struct result *res = &t->bt.result;
    struct sheet after[SIDES] = {sheets[0], sheets[1]};
    int points[SIDES] = {0, 0};

    rs->after_bout(res, after, points);
    if (rs->sheet_after)
        rs->sheet_after(&t->bt, after);
    for (int s = 0; s < SIDES; s++) {
        struct db_fighter *f = &x[s]->f;
        for (int k = 0; k < rs->kit_slots; k++) {
            int item, cond;
            sheet_kit_get(&after[s], k, &item, &cond);
            sheet_kit_set(&f->sheet, k, item, cond);
        }
        if (res->winner < 0) {
            f->draws++;
            x[s]->ties++;
        } else if (res->winner == s) {
            f->wins++;
            /* A league bout is fought by plans alone: never a forfeit. */
            record_win_add(f, res, 0);
            x[s]->wins++;
        } else {
            f->losses++;
            x[s]->losses++;
        }
        f->training_points += points[s];
        for (int i = 0; i < rs->nfields && i < SHEET_FIELDS_MAX; i++)
            x[s]->delta[i] += sheet_field_get(&after[s], i) - sheet_field_get(&sheets[s], i);
        if (kind == DB_BOUT_LEAGUE && league == LEAGUE_GOLD)
            f->gold_record += league_gold_points(res->winner == s, res->winner < 0);
        x[s]->changed = 1;
    }
}

/* Fights one bout between entries a and b from their plans, stores it
 * (the bout, finished, then its orders), and applies its result to both.
 * Its result goes into *res (winner 0 = a). Returns 0, or -1 on an engine
 * or database error (inside the turn's transaction, which then fails). */
static int fight(struct turn *t, int a, int b, enum db_bout_kind kind, int league,
                 struct result *res)
{
    struct sheet sheets[SIDES];
    struct db_bout rec;
    int nords = 0;

    fight_sheets(t, a, b, sheets);
    fight_record(t, a, b, kind, league, sheets, &rec);
    if (fight_rounds(t, a, b, &rec, &nords) != 0 || db_bout_create(t->g->db, &rec) != DB_OK)
        return -1;
    if (nords > 0 && db_order_put_bout(t->g->db, rec.id, t->ords, nords) != DB_OK)
        return -1;
    fight_apply(t, a, b, sheets, kind, league);
    struct db_rating *r[SIDES] = {&t->e[a].rating, &t->e[b].rating};
    int rated = rating_bout_keep(t->g, &rec, r);
    if (rated < 0)
        return -1;
    for (int s = 0; rated && s < SIDES; s++) {
        struct entry *x = &t->e[s ? b : a];
        x->rated = 1;
        x->rated_at = rec.ended;
    }
    *res = t->bt.result;
    t->bouts++;
    if (kind == DB_BOUT_TITLE) {
        t->title_id = rec.id;
    } else if (league >= 0 && league < LEAGUE_COUNT) {
        if (!t->lo[league])
            t->lo[league] = rec.id;
        t->hi[league] = rec.id;
    }
    return 0;
}

/* Who a list of the summary names, of the entries who were in a league
 * when the turn began (never the champion, who stands above them). */
enum who { WHO_FOUGHT, WHO_UP, WHO_DOWN, WHO_SAT_OUT };

static int who_is(const struct turn *t, int i, int from, enum who w)
{
    const struct entry *x = &t->e[i];

    if (x->from != from || i == t->champ)
        return 0;
    switch (w) {
    case WHO_FOUGHT:
        return x->in_turn;
    case WHO_UP:
        return x->moved == 1;
    case WHO_DOWN:
        return x->moved == -1;
    case WHO_SAT_OUT:
        return !x->in_turn; /* paused, or a missed plan's turn off */
    }
    return 0;
}

/* How many entries of league `from` are `w`. */
static int who_count(const struct turn *t, int from, enum who w)
{
    int n = 0;

    for (int i = 0; i < t->n; i++)
        n += who_is(t, i, from, w);
    return n;
}

/* "Rocky, Apollo and 3 more": the entries of league `from` who are `w`,
 * at most `shown` of them by name, onto s. */
static void names(const struct turn *t, int from, enum who w, int shown, struct str *s)
{
    int named = 0, total = 0;

    for (int i = 0; i < t->n; i++) {
        if (!who_is(t, i, from, w))
            continue;
        total++;
        if (named < shown)
            str_add(s, "%s%s", named++ ? ", " : "", t->e[i].f.name);
    }
    if (total > named)
        str_add(s, named ? " and %d more" : "%d", total - named);
}

/* How a title bout was won, in the words of the title line. */
static const char *method_words(enum rules rules, const struct result *res)
{
    switch (res->method) {
    case METHOD_KO:
        return "by KO";
    case METHOD_TKO:
        /* A league bout's orders all come from plans: a towel is the
         * corner's (a duel's plan yielding), never a forfeit. */
        if (res->reason == TKO_TOWEL)
            return rules == RULES_DUEL ? "by a yield" : "by TKO (the towel)";
        return "by TKO";
    case METHOD_DQ:
        return "by DQ";
    case METHOD_POINTS:
        return "on points";
    default:
        return "on the cards";
    }
}

/* ------------------------------------------------------------ the title */

/* Who fights for the title: *a the champion (or, for a vacant title, the
 * GOLD fighter with the highest gold record), *b his challenger (the
 * highest, or the second highest), ties at random; -1 for nobody. The
 * contenders fought in GOLD this turn and are still there: not the paused,
 * not the promoted, not the relegated. */
static void title_pick(struct turn *t, int *a, int *b)
{
    int *gold = xmalloc((size_t)(t->n ? t->n : 1) * sizeof(int));

    for (int i = 0; i < t->n; i++) {
        const struct entry *x = &t->e[i];
        int contender =
            i != t->champ && x->in_turn && x->from == LEAGUE_GOLD && x->f.league == LEAGUE_GOLD;
        gold[i] = contender ? x->f.gold_record : -1;
    }
    int top = league_top(gold, t->n, -1, &t->rng);
    if (top >= 0 && gold[top] < 0)
        top = -1;
    *a = t->champ;
    *b = top;
    if (t->champ < 0 && top >= 0) {
        int second = league_top(gold, t->n, top, &t->rng);
        *b = second >= 0 && gold[second] >= 0 ? second : -1;
        *a = top;
    }
    free(gold);
}

/* After the title bout of entries a (the champion, or the first
 * contender for a vacant title) and b with result `res`: the summary's
 * line, the new champion and his defences stored. Returns 0 or -1. */
static int title_result(struct turn *t, int a, int b, const struct result *res)
{
    struct entry *ea = &t->e[a], *eb = &t->e[b];
    char *line = t->title_line;
    size_t len = sizeof(t->title_line);
    int64_t holder = ea->f.id, now = game_wall(t->g);
    int defences = t->defences + 1;

    if (t->champ < 0) {
        ea->f.gold_record = 0;
        defences = 0;
        if (res->winner < 0) {
            snprintf(line, len, "Title bout: %s and %s draw; the title stays vacant.", ea->f.name,
                     eb->f.name);
            holder = 0;
        } else {
            struct entry *w = res->winner == 0 ? ea : eb, *l = res->winner == 0 ? eb : ea;
            snprintf(line, len, "Title bout: %s beats %s %s and is the new International Champion!",
                     w->f.name, l->f.name, method_words(t->rules, res));
            holder = w->f.id;
        }
    } else if (res->winner == 1) {
        snprintf(line, len, "Title bout: %s beats the champion %s %s and takes the title!",
                 eb->f.name, ea->f.name, method_words(t->rules, res));
        ea->f.league = LEAGUE_GOLD;
        holder = eb->f.id;
        defences = 0;
    } else if (res->winner == 0) {
        snprintf(line, len, "Title bout: the champion %s beats %s %s (defence %d).", ea->f.name,
                 eb->f.name, method_words(t->rules, res), defences);
    } else {
        snprintf(line, len,
                 "Title bout: the champion %s draws with %s and keeps the title (defence %d).",
                 ea->f.name, eb->f.name, defences);
    }
    return db_champion_set(t->g->db, t->rules, holder, defences, now) == DB_OK ? 0 : -1;
}

/* Step 4 of a turn: the title bout, its line in t->title_line. Returns 0,
 * or -1 on a database error. */
static int title(struct turn *t)
{
    int a, b;
    struct result res;

    title_pick(t, &a, &b);
    if (a < 0 || b < 0) {
        snprintf(t->title_line, sizeof(t->title_line),
                 t->champ >= 0 ? "No title bout: %s keeps the title, nobody in GOLD to "
                                 "challenge him."
                               : "The title stays vacant: GOLD needs two fighters.",
                 t->champ >= 0 ? t->e[t->champ].f.name : "");
        return 0;
    }
    if (fight(t, a, b, DB_BOUT_TITLE, -1, &res) != 0)
        return -1;
    t->e[b].f.gold_record = 0; /* a challenger's gold record is spent */
    return title_result(t, a, b, &res);
}

/* ------------------------------------------------------------- the turn */

/* FNV-1a of a plan's text. */
static uint64_t plan_hash(const char *text)
{
    uint64_t h = 14695981039346656037ULL;

    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        h = (h ^ *c) * 1099511628211ULL;
    return h;
}

/* The free or matching slot of `text` (hash h) in c, whose cap is > 0. */
static struct plan_slot *plan_slot_find(const struct plan_cache *c, const char *text, uint64_t h)
{
    size_t i = (size_t)h & (c->cap - 1);

    while (c->slot[i].text && (c->slot[i].hash != h || strcmp(c->slot[i].text, text) != 0))
        i = (i + 1) & (c->cap - 1);
    return &c->slot[i];
}

/* Doubles c's slots (from 64), keeping what they hold. */
static void plan_cache_grow(struct plan_cache *c)
{
    struct plan_cache old = *c;

    c->cap = old.cap ? old.cap * 2 : 64;
    c->slot = xcalloc(c->cap, sizeof(*c->slot));
    for (size_t i = 0; i < old.cap; i++)
        if (old.slot[i].text)
            *plan_slot_find(c, old.slot[i].text, old.slot[i].hash) = old.slot[i];
    free(old.slot);
}

/* The plan of `text` compiled for `rules`, compiled at its first sight
 * only, for one more fighter (its plan NULL if it does not compile). The
 * cache keeps it. */
static struct compiled *plan_cached(struct plan_cache *c, enum rules rules, const char *text)
{
    uint64_t h = plan_hash(text);

    if ((c->used + 1) * 2 > c->cap)
        plan_cache_grow(c);
    struct plan_slot *s = plan_slot_find(c, text, h);
    if (!s->text) {
        struct parse_error perr;
        s->text = xstrdup(text);
        s->hash = h;
        s->c = xcalloc(1, sizeof(*s->c));
        s->c->plan = plan_compile(rules, text, &perr);
        c->used++;
    }
    s->c->users++;
    return s->c;
}

static void plan_cache_free(struct plan_cache *c)
{
    for (size_t i = 0; i < c->cap; i++) {
        struct compiled *k = c->slot[i].c;
        free(c->slot[i].text);
        if (k) {
            plan_free(k->plan);
            free(k->texts);
            free(k);
        }
    }
    free(c->slot);
}

static void turn_free(struct turn *t)
{
    plan_cache_free(&t->plans);
    free(t->e);
    free(t);
}

/* Where db_league_plans's plans and db_rating_each's ratings go: t->e is
 * by fighter id, as they come. */
struct plans_read {
    struct turn *t;
    int next; /* the first entry whose plan may come */
};

/* A stored plan into its fighter's entry, compiled (once for every
 * fighter with the same text): one that no longer compiles counts as
 * none. */
static void plan_read(void *ctx, int64_t fighter, const char *text)
{
    struct plans_read *r = ctx;
    struct turn *t = r->t;

    while (r->next < t->n && t->e[r->next].f.id < fighter)
        r->next++;
    if (r->next < t->n && t->e[r->next].f.id == fighter) {
        struct entry *x = &t->e[r->next];
        x->shared = plan_cached(&t->plans, t->rules, text);
        x->plan = x->shared->plan;
    }
}

/* A stored rating into its fighter's entry (a retired fighter's has none). */
static void rating_read(void *ctx, int64_t fighter, const struct db_rating *rating)
{
    struct plans_read *r = ctx;
    struct turn *t = r->t;

    while (r->next < t->n && t->e[r->next].f.id < fighter)
        r->next++;
    if (r->next < t->n && t->e[r->next].f.id == fighter) {
        t->e[r->next].rating = *rating;
        t->e[r->next].rating_stored = 1;
    }
}

/* Step 1: every active fighter of the ruleset into t->e, with the sheet
 * and the league the turn begins with and his plan, compiled (a stored plan
 * that no longer compiles counts as none); the champion (a retired one
 * leaves the title vacant). Returns 0, or -1 with err on a database error:
 * a fighter's plan or the champion that cannot be read fails the turn,
 * rather than fight it without them. */
static int turn_load(struct turn *t, char *err, size_t errlen)
{
    struct db *db = t->g->db;
    struct db_fighter *all = all_fighters(db, t->rules, &t->n);
    int64_t champ_id = 0;
    int rc;

    if (!all) {
        t->n = 0;
        snprintf(err, errlen, "cannot read the fighters: %s", db_errmsg(db));
        return -1;
    }
    t->e = xcalloc((size_t)(t->n ? t->n : 1), sizeof(*t->e));
    rc = db_champion_get(db, t->rules, &champ_id, &t->defences);
    if (rc == DB_ERROR) {
        snprintf(err, errlen, "cannot read the champion: %s", db_errmsg(db));
        t->n = 0;
    } else if (rc != DB_OK) {
        champ_id = t->defences = 0;
    }
    for (int i = 0; i < t->n && rc != DB_ERROR; i++) {
        struct entry *x = &t->e[i];
        x->f = all[i];
        x->start = all[i].sheet;
        x->from = all[i].league;
        rating_newcomer(&x->rating);
        if (x->f.id == champ_id)
            t->champ = i;
    }
    free(all);
    if (rc != DB_ERROR) {
        struct plans_read r = {t, 0};
        rc = db_league_plans(db, t->rules, plan_read, &r);
        if (rc == DB_ERROR)
            snprintf(err, errlen, "cannot read the plans: %s", db_errmsg(db));
    }
    if (rc != DB_ERROR) {
        struct plans_read r = {t, 0};
        rc = db_rating_each(db, t->rules, rating_read, &r);
        if (rc == DB_ERROR)
            snprintf(err, errlen, "cannot read the ratings: %s", db_errmsg(db));
    }
    return rc == DB_ERROR ? -1 : 0;
}

/* The entries of league l who fight this turn into idx[] (their number
 * returned): everybody but the champion and the paused, whose pause counts
 * down. */
static int turn_members(struct turn *t, int l, int *idx)
{
    int m = 0;

    for (int i = 0; i < t->n; i++) {
        struct entry *x = &t->e[i];
        if (i == t->champ || x->f.league != l)
            continue;
        if (x->f.paused > 0) {
            x->f.paused--;
            x->changed = 1;
            continue;
        }
        x->in_turn = 1;
        idx[m++] = i;
    }
    return m;
}

/* Step 2: the pairing and the bouts, league by league from GOLD down.
 * Returns 0, or -1 on a database error. */
static int turn_fight(struct turn *t)
{
    int *idx = xmalloc((size_t)(t->n ? t->n : 1) * sizeof(int));
    int(*pairs)[2] = xmalloc((size_t)(t->n > 2 ? t->n : 2) * sizeof(*pairs));
    int ok = 1;

    for (int l = LEAGUE_GOLD; ok && l >= LEAGUE_BRONZE; l--) {
        int m = turn_members(t, l, idx);
        int bouts = league_pairing(m, &t->rng, pairs);
        ok = db_league_bouts_ahead(t->g->db, bouts) == DB_OK; /* their ids at once */
        for (int k = 0; ok && k < bouts; k++) {
            struct result res;
            ok = fight(t, idx[pairs[k][0]], idx[pairs[k][1]], DB_BOUT_LEAGUE, l, &res) == 0;
        }
    }
    free(idx);
    free(pairs);
    return ok ? 0 : -1;
}

/* Step 3: moves, gold record resets, the sheet changes of the turn (never
 * below an ability's floor), and where fighters train between turns (SUGAR
 * RAY), the rules for a missed plan and a new turn's training. */
static void turn_moves(struct turn *t)
{
    const struct ruleset *rs = ruleset_get(t->rules);

    for (int i = 0; i < t->n; i++) {
        struct entry *x = &t->e[i];
        if (!x->in_turn)
            continue;
        enum league_move mv = league_move((enum league)x->f.league, x->wins, x->losses, x->ties);
        if (mv == LEAGUE_UP) {
            x->moved = 1;
            x->f.league++;
        } else if (mv == LEAGUE_DOWN) {
            x->moved = -1;
            if (x->f.league == LEAGUE_GOLD)
                x->f.gold_record = 0;
            x->f.league--;
        }
        for (int k = 0; k < rs->nfields && k < SHEET_FIELDS_MAX; k++) {
            int v = sheet_field_get(&x->f.sheet, k) + x->delta[k];
            sheet_field_set(&x->f.sheet, k, v < rs->fields[k].lo ? rs->fields[k].lo : v);
        }
        if (rs->turn_training) {
            x->f.missed = x->plan == NULL;
            if (x->f.missed)
                x->f.paused = 1; /* on the pausing list for the next turn */
        }
        x->changed = 1;
    }
    if (rs->turn_training)
        for (int i = 0; i < t->n; i++)
            if (t->e[i].f.trained) {
                t->e[i].f.trained = 0; /* a new turn: training again */
                t->e[i].changed = 1;
            }
}

/* The leagues of the fighters who moved, written first on their own
 * (db_league_moves); *done says whether they were (else the saves write
 * them). Returns 0, or -1 on a database error. */
static int turn_moves_store(struct turn *t, int *done)
{
    int64_t *id = xmalloc((size_t)(t->n ? t->n : 1) * sizeof(*id));
    int *league = xmalloc((size_t)(t->n ? t->n : 1) * sizeof(*league));
    int n = 0;

    for (int i = 0; i < t->n; i++)
        if (t->e[i].changed && t->e[i].f.league != t->e[i].from) {
            id[n] = t->e[i].f.id;
            league[n++] = t->e[i].f.league;
        }
    int rc = db_league_moves(t->g->db, id, league, n, done) == DB_OK ? 0 : -1;
    free(id);
    free(league);
    return rc;
}

/* Step 5: every fighter changed saved with his rating, which the turn kept
 * in memory (each bout stored only its rows of history). The change stamps
 * are numbered here from the highest of each table, read once: the one
 * more than the highest that each statement would read, as this
 * transaction is the only writer. Returns 0, or -1 on a database error. */
static int turn_save(struct turn *t)
{
    struct db *db = t->g->db;
    int64_t fstamp, rstamp;
    int written = 0;

    if (turn_moves_store(t, &written) != 0 || db_fighter_stamp_top(db, &fstamp) != DB_OK ||
        db_rating_stamp_top(db, &rstamp) != DB_OK)
        return -1;
    for (int i = 0; i < t->n; i++) {
        const struct entry *x = &t->e[i];
        /* The league as it is stored now (turn_moves_store). */
        int stored = written ? x->f.league : x->from;
        if (x->changed && db_fighter_save_from(db, &x->f, stored, ++fstamp) != DB_OK)
            return -1;
        if (x->rated && db_rating_set_stamped(db, x->f.id, t->rules, &x->rating, x->rated_at,
                                              x->rating_stored, ++rstamp) != DB_OK)
            return -1;
    }
    return 0;
}

/* Steps 2 to 5, inside the turn's transaction: the turn's number, the
 * bouts, the moves, the title, and the saves. Returns 0, or -1 on a
 * database error (the caller rolls back). */
static int turn_run(struct turn *t)
{
    if (db_turn_add(t->g->db, t->rules, game_wall(t->g), &t->number) != DB_OK || turn_fight(t) != 0)
        return -1;
    turn_moves(t);
    if (title(t) != 0)
        return -1;
    return turn_save(t);
}

/* "#12-#14", or "#12": bouts lo to hi, onto s. */
static void bouts_text(int64_t lo, int64_t hi, struct str *s)
{
    if (lo == hi)
        str_add(s, "#%lld", (long long)lo);
    else
        str_add(s, "#%lld-#%lld", (long long)lo, (long long)hi);
}

/* The summary's first line: the turn, its bouts by number, league by
 * league, and where the full results are. */
static void summary_head(const struct turn *t, char *line)
{
    const char *sep = ": ";
    char page[320];
    struct str s;

    str_init_fixed(&s, line, RENDER_LINE_MAX);
    str_add(&s, "League turn %d (%s): %d bout%s fought from the plans", t->number,
            rules_name(t->rules), t->bouts, t->bouts == 1 ? "" : "s");
    for (int l = LEAGUE_GOLD; l >= LEAGUE_BRONZE; l--) {
        if (!t->lo[l])
            continue;
        str_add(&s, "%s%s ", sep, league_name((enum league)l));
        bouts_text(t->lo[l], t->hi[l], &s);
        sep = ", ";
    }
    if (t->title_id)
        str_add(&s, "%stitle #%lld", sep, (long long)t->title_id);
    game_page(t->g, page, sizeof(page), "/standings/%s", rules_name(t->rules));
    str_cat(&s, page[0] ? page : ".");
}

/* League l's part of the second line: "SILVER: 4 fought; up: Bob; down:
 * Cy; sat out: Quin", or "GOLD: a bye for Rocky (nobody else to fight)",
 * with at most `shown` names a list. 0 when nobody was in it. */
static int summary_league(const struct turn *t, int l, int shown, struct str *s)
{
    int fought = who_count(t, l, WHO_FOUGHT), out = who_count(t, l, WHO_SAT_OUT);

    if (fought + out == 0)
        return 0;
    str_add(s, "%s: ", league_name((enum league)l));
    if (fought == 1) {
        str_cat(s, "a bye for ");
        names(t, l, WHO_FOUGHT, 1, s);
        str_cat(s, " (nobody else to fight)");
    } else if (fought > 1) {
        str_add(s, "%d fought", fought);
        if (who_count(t, l, WHO_UP)) {
            str_cat(s, "; up: ");
            names(t, l, WHO_UP, shown, s);
        }
        if (who_count(t, l, WHO_DOWN)) {
            str_cat(s, "; down: ");
            names(t, l, WHO_DOWN, shown, s);
        }
    }
    if (out) {
        str_cat(s, fought ? "; sat out: " : "sat out: ");
        names(t, l, WHO_SAT_OUT, shown, s);
    }
    return 1;
}

/* The summary's second line: each league's bouts, moves, byes and who
 * sat out, with fewer names when they do not fit. 0 when no league had
 * anybody. */
static int summary_leagues(const struct turn *t, char *line)
{
    static const int shown[] = {NAMES_SHOWN, 1, 0};
    struct str s;
    int any = 0;

    for (size_t k = 0; k < sizeof(shown) / sizeof(shown[0]); k++) {
        str_init_fixed(&s, line, RENDER_LINE_MAX);
        any = 0;
        for (int l = LEAGUE_GOLD; l >= LEAGUE_BRONZE; l--) {
            size_t before = s.len;
            if (any)
                str_cat(&s, ". ");
            if (summary_league(t, l, shown[k], &s))
                any = 1;
            else
                str_cut(&s, before);
        }
        if (any)
            str_cat(&s, ".");
        if (!str_cut_short(&s))
            break;
    }
    return any;
}

/* Step 6, once stored: the summary, at most three lines (the full results
 * are on the web pages): the turn and its bouts by number, the leagues'
 * moves and byes, and the title (title_line begins "Title bout:"; the
 * summary puts the bout's number in). Returns the number of lines. */
static int turn_summary(const struct turn *t, char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX])
{
    static const char title_word[] = "Title bout:";
    int k = 0;

    summary_head(t, lines[k++]);
    k += summary_leagues(t, lines[k]);
    if (t->title_id && strncmp(t->title_line, title_word, sizeof(title_word) - 1) == 0)
        snprintf(lines[k++], RENDER_LINE_MAX, "Title bout #%lld%s", (long long)t->title_id,
                 t->title_line + sizeof(title_word) - 2);
    else if (t->title_line[0])
        snprintf(lines[k++], RENDER_LINE_MAX, "%s", t->title_line);
    return k;
}

/* A turn that failed and was rolled back is not unfinished: its record
 * (db_turn_begun) goes. When even that fails, the next start reports a
 * turn that did not finish, which is true: running it again is right. */
static void turn_forget(struct game *g, enum rules rules)
{
    if (db_turn_done(g->db, rules) != DB_OK)
        game_log(g, GAME_LOG_WARN, "league turn of %s: its begun record stays: %s",
                 rules_name(rules), db_errmsg(g->db));
}

/* Steps 2 to 5 of a loaded turn, in its transaction, after its begun
 * record (db_turn_begun) is committed; the record is deleted in the same
 * transaction, so a turn killed before its commit leaves it, and nothing
 * else. 0, or -1 with err when nothing was stored. */
static int turn_store(struct turn *t, char *err, size_t errlen)
{
    struct game *g = t->g;

    if (db_turn_begun(g->db, t->rules, game_wall(g)) != DB_OK) {
        snprintf(err, errlen, "cannot start the turn: %s", db_errmsg(g->db));
        return -1;
    }
    if (db_begin(g->db) != DB_OK) {
        snprintf(err, errlen, "cannot start the turn: %s", db_errmsg(g->db));
        turn_forget(g, t->rules);
        return -1;
    }
    game_log(g, GAME_LOG_INFO, "league turn of %s begins", rules_name(t->rules));
    /* The season's end, when this turn was its last, is part of the
     * turn's transaction (season.c). */
    if (turn_run(t) != 0 || season_after_turn(g, t->rules) != 0 ||
        db_turn_done(g->db, t->rules) != DB_OK || db_commit(g->db) != DB_OK) {
        snprintf(err, errlen, "the turn was not stored (%s); nothing changed", db_errmsg(g->db));
        db_rollback(g->db);
        turn_forget(g, t->rules);
        return -1;
    }
    return 0;
}

/* A turn: load the fighters (1), then in one transaction pair and fight
 * the bouts (2), apply the moves (3), the title (4), save (5), commit; and
 * summarise (6). A failure anywhere rolls everything back. */
int league_turn(struct game *g, enum rules rules, uint64_t seed, const char *channel,
                char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], int *nlines, char *err,
                size_t errlen)
{
    struct turn *t = xcalloc(1, sizeof(*t));
    int rc = -1;

    *nlines = 0;
    t->g = g;
    t->rules = rules;
    t->champ = -1;
    rng_seed(&t->rng, seed, 7);
    snprintf(t->channel, sizeof(t->channel), "%s", channel && channel[0] ? channel : "#league");
    db_league_cache(g->db, 1);
    db_league_stamping(g->db, 1);
    db_league_wal(g->db, 1);
    if (turn_load(t, err, errlen) != 0) {
        /* err says why; nothing was written */
    } else if (turn_store(t, err, errlen) != 0) {
        /* err says why; the turn's transaction was rolled back */
    } else {
        *nlines = turn_summary(t, lines);
        game_log(g, GAME_LOG_INFO, "league turn %d of %s: %d bouts", t->number, rules_name(rules),
                 t->bouts);
        rc = 0;
    }
    /* The commit left its pages in the WAL: the next tick copies them
     * into the file (league_tick), once the turn has been said. */
    g->wal_due = 1;
    db_league_wal(g->db, 0);
    db_league_stamping(g->db, 0);
    db_league_cache(g->db, 0);
    turn_free(t);
    return rc;
}

int league_turn_announce(struct game *g, enum rules rules, const char *channel, const char *target)
{
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], err[256], job[32];
    int n = 0, ran = -1;

    /* One turn of a ruleset at a time among the bots sharing the database
     * (db_job_lock): a turn loads its fighters before its transaction. */
    snprintf(job, sizeof(job), "league %s", rules_name(rules));
    int lock = db_job_lock(g->db, job);
    if (lock == DB_EXISTS)
        snprintf(err, sizeof(err),
                 "another bot sharing the database is running it now; try "
                 "again once it is done");
    else if (lock != DB_OK)
        snprintf(err, sizeof(err), "cannot tell whether another bot runs it: %s", db_errmsg(g->db));
    else
        ran = league_turn(g, rules, g->io.seed(g->io.ctx), channel, lines, &n, err, sizeof(err));
    if (lock == DB_OK)
        db_job_unlock(g->db, job);
    if (ran != 0) {
        game_log(g, lock == DB_EXISTS ? GAME_LOG_INFO : GAME_LOG_ERROR, "league turn of %s: %s",
                 rules_name(rules), err);
        if (target)
            game_say(g, GAME_REPLY, target, "The %s league turn failed: %s", rules_name(rules),
                     err);
        return -1;
    }
    /* The turn is the league's news, whoever ran it and wherever; the one
     * who ran it elsewhere (an admin in private) hears it too. */
    int elsewhere = target && (!channel || !g->io.same_name(g->io.ctx, channel, target));
    for (int i = 0; i < n; i++) {
        if (channel)
            game_say(g, GAME_CHATTER, channel, "%s", lines[i]);
        if (elsewhere)
            game_say(g, GAME_CHATTER, target, "%s", lines[i]);
    }
    season_announce(g, rules, channel, elsewhere ? target : NULL);
    return 0;
}

/* "2026-11-25 21:40 UTC" */
static const char *when_text(int64_t t, char *buf, size_t len)
{
    time_t tt = (time_t)t;
    struct tm tm;

    if (!gmtime_r(&tt, &tm) || strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm) == 0)
        snprintf(buf, len, "time %lld", (long long)t);
    return buf;
}

/* What is said of unfinished turn `rules` begun at `begun`, into buf. */
static void unfinished_text(const struct game *g, enum rules rules, int64_t begun, char *buf,
                            size_t len)
{
    char when[64];

    snprintf(buf, len,
             "the %s league turn begun at %s did not finish (the bot stopped before storing it): "
             "nothing of it was stored; an admin can run it again: %sturn rules=%s",
             rules_name(rules), when_text(begun, when, sizeof(when)), g->cfg.prefix,
             rules_name(rules));
}

void league_unfinished_report(struct game *g)
{
    enum rules rules[RULES_COUNT];
    int64_t begun[RULES_COUNT];
    char text[512];
    int n = 0;

    g->turns_unfinished = 0;
    if (db_turn_unfinished(g->db, rules, begun, RULES_COUNT, &n) != DB_OK) {
        game_log(g, GAME_LOG_WARN, "cannot read the league turns begun: %s", db_errmsg(g->db));
        return;
    }
    for (int i = 0; i < n; i++) {
        unfinished_text(g, rules[i], begun[i], text, sizeof(text));
        game_log(g, GAME_LOG_WARN, "%s", text);
        g->turns_unfinished |= 1u << rules[i];
        g->turns_begun[rules[i]] = begun[i];
    }
}

/* Once connected, the league channel hears of the turns that did not
 * finish (the admins run them again; a scheduled turn runs by itself). */
static void unfinished_say(struct game *g, const char *channel)
{
    char text[512];

    for (int r = 0; r < RULES_COUNT && channel; r++)
        if (g->turns_unfinished & (1u << r)) {
            unfinished_text(g, (enum rules)r, g->turns_begun[r], text, sizeof(text));
            game_say(g, GAME_CHATTER, channel, "Admins: %s", text);
        }
    if (channel)
        g->turns_unfinished = 0;
}

void league_tick(struct game *g, const char *channel)
{
    if (g->wal_due) {
        /* A turn's checkpoint (db_league_wal), out of its time; failing,
         * the next commit past SQLite's threshold does it. */
        g->wal_due = 0;
        if (db_league_checkpoint(g->db) != DB_OK)
            game_log(g, GAME_LOG_WARN, "after the league turn: %s", db_errmsg(g->db));
    }
    if (g->turns_unfinished)
        unfinished_say(g, channel);
    if (g->cfg.turn_interval <= 0 || game_now(g) < g->next_look)
        return;
    g->next_look = game_now(g) + SCHEDULE_POLL;
    int64_t now = game_wall(g);
    if (!g->started)
        g->started = now;
    for (int r = 0; r < RULES_COUNT; r++) {
        int number;
        int64_t last;
        char job[32];
        /* One bot of those sharing the database runs a due turn: the
         * others skip it; the schedule is read under the job's lock. */
        snprintf(job, sizeof(job), "league %s", rules_name((enum rules)r));
        if (db_job_lock(g->db, job) != DB_OK)
            continue;
        int rc = db_turn_last(g->db, (enum rules)r, &number, &last);
        if (rc == DB_ERROR)
            game_log(g, GAME_LOG_WARN, "league schedule of %s: %s", rules_name((enum rules)r),
                     db_errmsg(g->db)); /* looked at again at the next poll */
        if (rc == DB_NOTFOUND)
            last = g->started; /* the first turn: one interval after start-up */
        if (rc != DB_ERROR && now - last >= g->cfg.turn_interval)
            league_turn_announce(g, (enum rules)r, channel, channel);
        db_job_unlock(g->db, job);
    }
}

static int cmp_standing(const void *pa, const void *pb)
{
    const struct db_fighter *a = pa, *b = pb;
    /* By the season's record (season.c): a fighter who has not fought this
     * season has shown nothing in it yet: below everyone who has,
     * whatever their record. */
    int fa = a->season_wins + a->season_losses + a->season_draws > 0,
        fb = b->season_wins + b->season_losses + b->season_draws > 0;
    int da = a->season_wins - a->season_losses, db = b->season_wins - b->season_losses;

    if (fa != fb)
        return fb - fa;
    if (a->gold_record != b->gold_record)
        return b->gold_record - a->gold_record;
    if (da != db)
        return db - da;
    return a->id < b->id ? -1 : a->id > b->id;
}

int league_standing_cmp(const struct db_fighter *a, const struct db_fighter *b)
{
    return cmp_standing(a, b);
}

struct db_fighter *league_standings(struct game *g, enum rules rules, int league, int *n)
{
    return league_standings_db(g->db, rules, league, n);
}

struct db_fighter *league_standings_db(struct db *db, enum rules rules, int league, int *n)
{
    int all = 0;
    struct db_fighter *v = all_fighters(db, rules, &all);

    *n = 0;
    if (!v)
        return NULL;
    int64_t champ = 0;
    int defences;
    if (db_champion_get(db, rules, &champ, &defences) != DB_OK)
        champ = 0;
    for (int i = 0; i < all; i++)
        if (v[i].league == league && v[i].id != champ)
            v[(*n)++] = v[i];
    qsort(v, (size_t)*n, sizeof(v[0]), cmp_standing);
    return v;
}

struct title_bout *league_title_history(struct db *db, enum rules rules, int *n)
{
    int max = LIST_START, got = 0;
    struct db_bout *b;

    *n = 0;
    for (;;) {
        b = xmalloc((size_t)max * sizeof(*b));
        if (db_bout_list_over(db, (int)rules, DB_BOUT_TITLE, b, max, &got) != DB_OK) {
            free(b);
            return NULL;
        }
        if (got < max)
            break;
        free(b);
        max *= 2;
    }
    struct title_bout *t = xmalloc((size_t)(got ? got : 1) * sizeof(*t));
    int64_t champ = 0;
    int defences = 0;
    /* The list is newest first; the title passes on oldest first. */
    for (int i = got - 1; i >= 0; i--) {
        struct title_bout *x = &t[(*n)++];
        x->bout = b[i];
        x->before = champ;
        x->defence = 0;
        int w = b[i].winner;
        if (champ && champ == b[i].fighter[0] && w != 1) {
            x->defence = ++defences;
        } else if (w >= 0) {
            champ = b[i].fighter[w];
            defences = 0;
        } else {
            champ = 0; /* a draw for a vacant title leaves it vacant */
            defences = 0;
        }
        x->after = champ;
    }
    free(b);
    return t;
}
