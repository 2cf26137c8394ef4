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
#include <string.h>
#include <strings.h>

#include "game.h"
#include "game_internal.h"
#include "parse.h"

#define LIST_START    1024
#define SCHEDULE_POLL 30.0 /* seconds between looks at the schedule */
#define ORDERS_MAX    (SIDES * BOUT_ROUNDS_MAX)
#define NAMES_SHOWN   6

/* One fighter's turn. */
struct entry {
    struct db_fighter f;         /* as it will be saved */
    struct sheet start;          /* the sheet the turn began with */
    struct plan *plan;           /* NULL: no plan */
    int in_turn;                 /* paired this turn */
    int from;                    /* his league when the turn began */
    int wins, losses, ties;      /* league bouts of this turn */
    int delta[SHEET_FIELDS_MAX]; /* sheet changes to add after the turn */
    int changed;
};

struct turn {
    struct game *g;
    enum rules rules;
    int number;
    struct rng rng;
    struct entry *e;
    int n;
    int bouts;
    char channel[DB_CHANNEL_MAX];
};

static const char *rules_name(enum rules r)
{
    return ruleset_get(r)->name;
}

/* Every active fighter of the ruleset, however many. */
static struct db_fighter *all_fighters(struct db *db, enum rules rules, int *n)
{
    int max = LIST_START;

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

/* The order of entry `x` for the next round of `b` (side `side`). */
static void plan_order(const struct entry *x, const struct bout *b, int side, struct order *o,
                       struct db_order *dbo)
{
    dbo->line = bout_plan_order(x->plan, b, side, o);
    dbo->source = x->plan ? DB_ORDER_PLAN : DB_ORDER_DEFAULT;
    bout_order_text(o, dbo->text, sizeof(dbo->text));
}

/* Fights one bout between entries a and b from their plans, stores it,
 * and applies its result to both. Returns the result (winner 0 = a), or
 * NULL on a database error. */
static const struct result *fight(struct turn *t, int a, int b, enum db_bout_kind kind, int league)
{
    static struct bout bt;
    static struct db_order ords[ORDERS_MAX];
    struct entry *x[SIDES] = {&t->e[a], &t->e[b]};
    struct sheet sheets[SIDES] = {x[0]->start, x[1]->start};
    struct db_bout rec;
    const struct ruleset *krs = ruleset_get(t->rules);

    /* Equipment (duel) is what the fighter carries now: the wear of his
     * first bout of the turn goes into the second. */
    for (int s = 0; s < SIDES; s++)
        for (int k = 0; k < krs->kit_slots; k++) {
            int item, cond;
            sheet_kit_get(&x[s]->f.sheet, k, &item, &cond);
            sheet_kit_set(&sheets[s], k, item, cond);
        }
    struct bout_rng r;
    struct events evs;
    uint64_t digest = 0;

    memset(&rec, 0, sizeof(rec));
    rec.rules = t->rules;
    snprintf(rec.channel, sizeof(rec.channel), "%s", t->channel);
    rec.rounds = ruleset_get(t->rules)->rounds_default;
    rec.seed = rng_next(&t->rng);
    rec.kind = kind;
    rec.turn = t->number;
    rec.league = league;
    rec.winner = -1;
    rec.created = rec.started = game_wall(t->g);
    for (int s = 0; s < SIDES; s++) {
        rec.fighter[s] = x[s]->f.id;
        rec.sheet[s] = sheets[s];
    }
    if (bout_init(&bt, t->rules, sheets, rec.rounds) != 0)
        return NULL;
    /* Fought first, then stored in one go: the bout (finished), then its
     * orders. */
    bout_rng_seed(&r, rec.seed);
    int nords = 0;
    while (!bt.result.over) {
        struct order o[SIDES];
        struct db_order *dbo = &ords[nords];
        if (nords + SIDES > ORDERS_MAX)
            return NULL;
        for (int s = 0; s < SIDES; s++) {
            memset(&dbo[s], 0, sizeof(dbo[s]));
            dbo[s].round = bt.round + 1;
            dbo[s].side = s;
            plan_order(x[s], &bt, s, &o[s], &dbo[s]);
        }
        if (bout_round(&bt, o, &r, &evs) != 0)
            return NULL;
        nords += SIDES;
        digest = bout_digest(digest, &bt, &evs);
    }
    const struct result *res = &bt.result;
    rec.state = DB_BOUT_OVER;
    rec.round = bt.round;
    rec.winner = res->winner;
    rec.method = res->method;
    rec.drawn_by = res->drawn_by;
    rec.reason = res->reason;
    rec.decision = res->decision;
    rec.ended = rec.created;
    rec.digest = digest;
    rec.has_digest = 1;
    if (db_bout_create(t->g->db, &rec) != DB_OK)
        return NULL;
    for (int k = 0; k < nords; k++)
        if (db_order_put(t->g->db, rec.id, &ords[k]) != DB_OK)
            return NULL;

    /* Records, training points and the sheet changes, which wait for the
     * end of the turn: both bouts are fought with the turn's first sheets. */
    const struct ruleset *rs = ruleset_get(t->rules);
    struct sheet after[SIDES] = {sheets[0], sheets[1]};
    int points[SIDES] = {0, 0};
    rs->after_bout(res, after, points);
    if (rs->sheet_after)
        rs->sheet_after(&bt, after);
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
            f->kos += res->method == METHOD_KO || res->method == METHOD_TKO;
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
    t->bouts++;
    return res;
}

/* "Rocky, Apollo and 3 more" of the entries flagged in `which`. */
static void names(const struct turn *t, const int *which, char *buf, size_t len)
{
    size_t at = 0;
    int shown = 0, total = 0;

    buf[0] = '\0';
    for (int i = 0; i < t->n; i++) {
        if (!which[i])
            continue;
        total++;
        if (shown < NAMES_SHOWN && at < len) {
            at += (size_t)snprintf(buf + at, len - at, "%s%s", shown ? ", " : "", t->e[i].f.name);
            shown++;
        }
    }
    if (total > shown && at < len)
        snprintf(buf + at, len - at, " and %d more", total - shown);
}

static const char *method_words(const struct result *res)
{
    switch (res->method) {
    case METHOD_KO:
        return "by KO";
    case METHOD_TKO:
        return "by TKO";
    case METHOD_DQ:
        return "by DQ";
    case METHOD_POINTS:
        return "on points";
    default:
        return "on the cards";
    }
}

/* The title bout of the turn. `champ` is the champion's entry or -1. */
static int title(struct turn *t, int champ, int defences, char *line, size_t len)
{
    int *gold = xmalloc((size_t)(t->n ? t->n : 1) * sizeof(int));
    int ok = 0;

    /* The contenders fought in GOLD this turn and are still there: not the
     * paused, not the promoted, not the relegated. */
    for (int i = 0; i < t->n; i++)
        gold[i] = i != champ && t->e[i].in_turn && t->e[i].from == LEAGUE_GOLD &&
                          t->e[i].f.league == LEAGUE_GOLD
                      ? t->e[i].f.gold_record
                      : -1;
    int top = league_top(gold, t->n, -1, &t->rng);
    if (top >= 0 && gold[top] < 0)
        top = -1;
    int a = champ, b = top;
    if (champ < 0 && top >= 0) {
        int second = league_top(gold, t->n, top, &t->rng);
        b = second >= 0 && gold[second] >= 0 ? second : -1;
        a = top;
    }
    free(gold);
    int64_t now = game_wall(t->g);
    if (a < 0 || b < 0) {
        snprintf(line, len,
                 champ >= 0 ? "No title bout: %s keeps the title, nobody in GOLD to "
                              "challenge him."
                            : "The title stays vacant: GOLD needs two fighters.",
                 champ >= 0 ? t->e[champ].f.name : "");
        return 0;
    }
    const struct result *res = fight(t, a, b, DB_BOUT_TITLE, -1);
    if (!res)
        return -1;
    struct entry *ea = &t->e[a], *eb = &t->e[b];
    ea->f.gold_record = champ >= 0 ? ea->f.gold_record : 0;
    eb->f.gold_record = 0; /* a challenger's gold record is spent */
    if (champ < 0) {
        ea->f.gold_record = 0;
        if (res->winner < 0) {
            snprintf(line, len, "Title bout: %s and %s draw; the title stays vacant.", ea->f.name,
                     eb->f.name);
            ok = db_champion_set(t->g->db, t->rules, 0, 0, now) == DB_OK;
        } else {
            struct entry *w = res->winner == 0 ? ea : eb, *l = res->winner == 0 ? eb : ea;
            snprintf(line, len, "Title bout: %s beats %s %s and is the new International Champion!",
                     w->f.name, l->f.name, method_words(res));
            ok = db_champion_set(t->g->db, t->rules, w->f.id, 0, now) == DB_OK;
        }
    } else if (res->winner == 1) {
        snprintf(line, len, "Title bout: %s beats the champion %s %s and takes the title!",
                 eb->f.name, ea->f.name, method_words(res));
        ea->f.league = LEAGUE_GOLD;
        ok = db_champion_set(t->g->db, t->rules, eb->f.id, 0, now) == DB_OK;
    } else {
        if (res->winner == 0)
            snprintf(line, len, "Title bout: the champion %s beats %s %s (defence %d).", ea->f.name,
                     eb->f.name, method_words(res), defences + 1);
        else
            snprintf(line, len,
                     "Title bout: the champion %s draws with %s and keeps the title "
                     "(defence %d).",
                     ea->f.name, eb->f.name, defences + 1);
        ok = db_champion_set(t->g->db, t->rules, ea->f.id, defences + 1, now) == DB_OK;
    }
    return ok ? 0 : -1;
}

static void turn_free(struct turn *t)
{
    for (int i = 0; i < t->n; i++)
        plan_free(t->e[i].plan);
    free(t->e);
}

int league_turn(struct game *g, enum rules rules, uint64_t seed, const char *channel,
                char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], int *nlines, char *err,
                size_t errlen)
{
    static struct turn t;
    static char plan_text[DB_PLAN_MAX];
    int n = 0;

    *nlines = 0;
    memset(&t, 0, sizeof(t));
    t.g = g;
    t.rules = rules;
    rng_seed(&t.rng, seed, 7);
    snprintf(t.channel, sizeof(t.channel), "%s", channel && channel[0] ? channel : "#league");

    struct db_fighter *all = all_fighters(g->db, rules, &n);
    if (!all) {
        snprintf(err, errlen, "cannot read the fighters: %s", db_errmsg(g->db));
        return -1;
    }
    t.e = xmalloc((size_t)(n ? n : 1) * sizeof(*t.e));
    t.n = n;
    int64_t champ_id = 0;
    int defences = 0, champ = -1;
    if (db_champion_get(g->db, rules, &champ_id, &defences) != DB_OK)
        champ_id = 0;
    for (int i = 0; i < n; i++) {
        struct entry *x = &t.e[i];
        memset(x, 0, sizeof(*x));
        x->f = all[i];
        x->start = all[i].sheet;
        x->from = all[i].league;
        if (x->f.id == champ_id)
            champ = i;
        if (db_plan_get(g->db, x->f.id, plan_text, sizeof(plan_text)) == DB_OK) {
            struct parse_error perr;
            x->plan = plan_compile(rules, plan_text, &perr);
        }
    }
    free(all);
    if (champ_id && champ < 0)
        champ_id = 0; /* the champion retired: the title is vacant */

    if (db_begin(g->db) != DB_OK) {
        snprintf(err, errlen, "cannot start the turn: %s", db_errmsg(g->db));
        turn_free(&t);
        return -1;
    }
    int ok = db_turn_add(g->db, rules, game_wall(g), &t.number) == DB_OK;

    /* Who fights: everybody but the champion and the paused. */
    int *idx = xmalloc((size_t)(n ? n : 1) * sizeof(int));
    int(*pairs)[2] = xmalloc((size_t)(n > 2 ? n : 2) * sizeof(*pairs));
    int moved[2][LEAGUE_COUNT] = {{0}};
    int *up = xmalloc((size_t)(n ? n : 1) * sizeof(int));
    int *down = xmalloc((size_t)(n ? n : 1) * sizeof(int));
    memset(up, 0, (size_t)(n ? n : 1) * sizeof(int));
    memset(down, 0, (size_t)(n ? n : 1) * sizeof(int));
    for (int l = LEAGUE_GOLD; ok && l >= LEAGUE_BRONZE; l--) {
        int m = 0;
        for (int i = 0; i < n; i++) {
            struct entry *x = &t.e[i];
            if (i == champ || x->f.league != l)
                continue;
            if (x->f.paused > 0) {
                x->f.paused--;
                x->changed = 1;
                continue;
            }
            x->in_turn = 1;
            idx[m++] = i;
        }
        int bouts = league_pairing(m, &t.rng, pairs);
        for (int k = 0; ok && k < bouts; k++)
            ok = fight(&t, idx[pairs[k][0]], idx[pairs[k][1]], DB_BOUT_LEAGUE, l) != NULL;
    }
    /* Moves, gold record resets, the sheet changes of the turn (never below
     * an ability's floor), and where fighters train between turns (SUGAR
     * RAY), the rules for a missed plan. */
    const struct ruleset *rs = ruleset_get(rules);
    for (int i = 0; ok && i < n; i++) {
        struct entry *x = &t.e[i];
        if (!x->in_turn)
            continue;
        enum league_move mv = league_move((enum league)x->f.league, x->wins, x->losses, x->ties);
        if (mv == LEAGUE_UP) {
            moved[0][x->f.league]++;
            up[i] = 1;
            x->f.league++;
        } else if (mv == LEAGUE_DOWN) {
            moved[1][x->f.league]++;
            down[i] = 1;
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
        for (int i = 0; i < n; i++)
            if (t.e[i].f.trained) {
                t.e[i].f.trained = 0; /* a new turn: training again */
                t.e[i].changed = 1;
            }
    char title_line[RENDER_LINE_MAX] = "";
    if (ok)
        ok = title(&t, champ, defences, title_line, sizeof(title_line)) == 0;
    for (int i = 0; ok && i < n; i++)
        if (t.e[i].changed)
            ok = db_fighter_save(g->db, &t.e[i].f) == DB_OK;
    if (!ok || db_commit(g->db) != DB_OK) {
        snprintf(err, errlen, "the turn was not stored (%s); nothing changed", db_errmsg(g->db));
        db_rollback(g->db);
        free(idx);
        free(pairs);
        free(up);
        free(down);
        turn_free(&t);
        return -1;
    }

    /* The summary: a line for the turn, one per league, the title. */
    int k = 0;
    snprintf(lines[k++], RENDER_LINE_MAX, "League turn %d (%s): %d bouts fought from the plans.",
             t.number, rules_name(rules), t.bouts);
    for (int l = LEAGUE_GOLD; l >= LEAGUE_BRONZE && k < LEAGUE_SUMMARY_LINES - 1; l--) {
        int members = 0;
        int *is_up = xmalloc((size_t)(n ? n : 1) * sizeof(int));
        int *is_down = xmalloc((size_t)(n ? n : 1) * sizeof(int));
        for (int i = 0; i < n; i++) {
            /* Where they were when the turn began. */
            int from = t.e[i].from;
            is_up[i] = up[i] && from == l;
            is_down[i] = down[i] && from == l;
            members += t.e[i].in_turn && from == l;
        }
        if (members) {
            char u[160], d[160];
            names(&t, is_up, u, sizeof(u));
            names(&t, is_down, d, sizeof(d));
            snprintf(lines[k++], RENDER_LINE_MAX, "%s: %d fighting%s%s%s%s.",
                     league_name((enum league)l), members, u[0] ? "; up: " : "", u,
                     d[0] ? "; down: " : "", d);
        }
        free(is_up);
        free(is_down);
    }
    if (title_line[0] && k < LEAGUE_SUMMARY_LINES)
        snprintf(lines[k++], RENDER_LINE_MAX, "%s", title_line);
    *nlines = k;
    game_log(g, GAME_LOG_INFO, "league turn %d of %s: %d bouts", t.number, rules_name(rules),
             t.bouts);
    free(idx);
    free(pairs);
    free(up);
    free(down);
    turn_free(&t);
    return 0;
}

int league_turn_announce(struct game *g, enum rules rules, const char *channel, const char *target)
{
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], err[256];
    int n = 0;

    if (league_turn(g, rules, g->io.seed(g->io.ctx), channel, lines, &n, err, sizeof(err)) != 0) {
        game_log(g, GAME_LOG_ERROR, "league turn of %s: %s", rules_name(rules), err);
        if (target)
            game_say(g, GAME_REPLY, target, "The %s league turn failed: %s", rules_name(rules),
                     err);
        return -1;
    }
    for (int i = 0; i < n && target; i++)
        game_say(g, GAME_CHATTER, target, "%s", lines[i]);
    return 0;
}

void league_tick(struct game *g, const char *channel)
{
    if (g->cfg.turn_interval <= 0 || game_now(g) < g->next_look)
        return;
    g->next_look = game_now(g) + SCHEDULE_POLL;
    int64_t now = game_wall(g);
    if (!g->started)
        g->started = now;
    for (int r = 0; r < RULES_COUNT; r++) {
        int number;
        int64_t last;
        if (db_turn_last(g->db, (enum rules)r, &number, &last) != DB_OK)
            last = g->started; /* the first turn: one interval after start-up */
        if (now - last < g->cfg.turn_interval)
            continue;
        league_turn_announce(g, (enum rules)r, channel, channel);
    }
}

static int cmp_standing(const void *pa, const void *pb)
{
    const struct db_fighter *a = pa, *b = pb;

    if (a->gold_record != b->gold_record)
        return b->gold_record - a->gold_record;
    if (a->wins - a->losses != b->wins - b->losses)
        return (b->wins - b->losses) - (a->wins - a->losses);
    return a->id < b->id ? -1 : a->id > b->id;
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
