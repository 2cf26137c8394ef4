/*
 * tournament.c - knockout tournaments (issue 25): opening, joining,
 * seeding, the bracket, and the bracket rounds fought from the plans.
 *
 * The database is the truth (db/tournament.c): a bracket round is drawn,
 * fought and stored in one transaction, and only then said; what the
 * channel has heard is counted (`said`), so an announcement stored and not
 * said is said after a restart (tournament_tick), never a bout fought
 * twice. Announcement 0 is the start and the first round's pairings;
 * announcement k the results of bracket round k and the next round's
 * pairings, or the winner.
 *
 * Seeds come from one function, seed_score; the bracket is the standard
 * one (1 v 8, 4 v 5, 2 v 7, 3 v 6 for 8), and when the entrants are fewer
 * than the size the missing seeds are byes, so the top seeds go through.
 * A drawn bout sends the better seed through.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game.h"
#include "game_internal.h"
#include "parse.h"

#define T_MATCHES  (DB_TOURNAMENT_SIZE) /* 31 bouts, and room */
#define T_LIST     64
#define ORDERS_MAX (SIDES * BOUT_ROUNDS_MAX)
#define T_POLL     30.0 /* seconds between looks at the schedule */

/* A tournament as the game works on it: the row, its entrants (by seed
 * once started) and its bracket. */
struct tour {
    struct db_tournament t;
    struct db_tournament_entry e[DB_TOURNAMENT_SIZE];
    int ne;
    struct db_tournament_match m[T_MATCHES];
    int nm;
};

static const char *rules_name(enum rules r)
{
    return ruleset_get(r)->name;
}

/* The number of bracket rounds of a tournament of `size`. */
static int stages_of(int size)
{
    int k = 0;

    while ((1 << k) < size)
        k++;
    return k;
}

/* Loads tournament `id` with its entrants and bracket. 0, or -1. */
static int tour_load(struct game *g, int64_t id, struct tour *x)
{
    return db_tournament_get(g->db, id, &x->t) == DB_OK &&
                   db_tournament_entries(g->db, id, x->e, DB_TOURNAMENT_SIZE, &x->ne) == DB_OK &&
                   db_tournament_matches(g->db, id, x->m, T_MATCHES, &x->nm) == DB_OK
               ? 0
               : -1;
}

/* The newest tournament not over (open or running) into *t: 1, 0 when
 * there is none, -1 on a database error. */
static int current(struct game *g, struct db_tournament *t)
{
    struct db_tournament *v = xmalloc(T_LIST * sizeof(*v));
    int n = 0, rc = 0;

    if (db_tournament_list(g->db, v, T_LIST, &n) != DB_OK)
        rc = -1;
    for (int i = 0; rc == 0 && i < n; i++)
        if (v[i].state != DB_TOURNAMENT_OVER) {
            *t = v[i];
            rc = 1;
        }
    free(v);
    return rc;
}

/* A fighter's name, or "?" */
static const char *fname(struct game *g, int64_t id, char *buf, size_t len)
{
    struct db_fighter f;

    snprintf(buf, len, "%s", id && db_fighter_get_id(g->db, id, &f) == DB_OK ? f.name : "?");
    return buf;
}

/* The seed of fighter `id` in x (0: none). */
static int seed_of(const struct tour *x, int64_t id)
{
    for (int i = 0; i < x->ne; i++)
        if (x->e[i].fighter == id)
            return x->e[i].seed;
    return 0;
}

/* What seeds a fighter: the higher the better. The ONE place seeding
 * reads: his Glicko-2 rating (a newcomer's 1500), then, between equal
 * ratings, wins minus losses. */
static double seed_score(struct game *g, const struct db_fighter *f)
{
    double rating = RATING_START, rd = RATING_RD_START;

    if (game_rating_of(g, f->id, &rating, &rd) != 0)
        rating = RATING_START;
    return rating * 1000.0 + (double)(f->wins - f->losses) / 1000.0;
}

/* The standard bracket's order of seeds for `size` places: 1, 8, 4, 5, 2,
 * 7, 3, 6 for 8 (place 2j meets place 2j+1). */
static void bracket_order(int size, int *order)
{
    int m = 1;

    order[0] = 1;
    while (m < size) {
        for (int i = m - 1; i >= 0; i--) {
            order[2 * i] = order[i];
            order[2 * i + 1] = 2 * m + 1 - order[i];
        }
        m *= 2;
    }
}

/* ------------------------------------------------------------- words */

/* "the quarter-finals", "the semi-finals", "the final", or "round 2 of
 * 5"; with `cap`, as a sentence starts: "Quarter-finals", "Round 2 of 5". */
static const char *stage_name(int stage, int stages, int cap, char *buf, size_t len)
{
    static const char *const names[][2] = {{"the final", "Final"},
                                           {"the semi-finals", "Semi-finals"},
                                           {"the quarter-finals", "Quarter-finals"}};
    int left = stages - stage;

    if (left >= 0 && left < 3)
        snprintf(buf, len, "%s", names[left][cap]);
    else
        snprintf(buf, len, "%s %d of %d", cap ? "Round" : "round", stage, stages);
    return buf;
}

/* A match's pairing onto s: "Rocky [1] v Apollo [8]", "Rocky [1] (bye)". */
static void pairing_text(struct game *g, const struct tour *x, const struct db_tournament_match *m,
                         struct str *s)
{
    char a[DB_NAME_MAX], b[DB_NAME_MAX];

    if (!m->fighter[0] && !m->fighter[1])
        return;
    if (!m->fighter[0] || !m->fighter[1]) {
        int64_t id = m->fighter[0] ? m->fighter[0] : m->fighter[1];
        str_add(s, "%s [%d] (bye)", fname(g, id, a, sizeof(a)), seed_of(x, id));
        return;
    }
    str_add(s, "%s [%d] v %s [%d]", fname(g, m->fighter[0], a, sizeof(a)),
            seed_of(x, m->fighter[0]), fname(g, m->fighter[1], b, sizeof(b)),
            seed_of(x, m->fighter[1]));
}

/* A match's result onto s: "Rocky beat Apollo (#12)", "Rocky (bye)". */
static void result_text(struct game *g, const struct db_tournament_match *m, struct str *s)
{
    char a[DB_NAME_MAX], b[DB_NAME_MAX];
    struct db_bout rec;

    if (!m->fighter[0] || !m->fighter[1]) {
        if (m->winner)
            str_add(s, "%s (bye)", fname(g, m->winner, a, sizeof(a)));
        return;
    }
    int64_t loser = m->winner == m->fighter[0] ? m->fighter[1] : m->fighter[0];
    if (m->winner && !m->bout) { /* match_walkover */
        str_add(s, "%s (walkover: %s retired)", fname(g, m->winner, a, sizeof(a)),
                fname(g, loser, b, sizeof(b)));
        return;
    }
    int drawn = db_bout_get(g->db, m->bout, &rec) == DB_OK && rec.winner < 0;
    str_add(s, "%s %s %s (#%lld)", fname(g, m->winner, a, sizeof(a)),
            drawn ? "goes through on seed after a draw with" : "beat",
            fname(g, loser, b, sizeof(b)), (long long)m->bout);
}

/* The matches of `stage` onto s, as pairings or as results, "; " apart. */
static void stage_text(struct game *g, const struct tour *x, int stage, int results, struct str *s)
{
    int first = 1;

    for (int i = 0; i < x->nm; i++) {
        const struct db_tournament_match *m = &x->m[i];
        if (m->stage != stage || (!m->fighter[0] && !m->fighter[1]))
            continue;
        if (!first)
            str_add(s, "; ");
        first = 0;
        if (results)
            result_text(g, m, s);
        else
            pairing_text(g, x, m, s);
    }
}

/* ----------------------------------------------------------- the bracket */

/* Decides what needs no bout: a bye goes through, an empty place nobody. */
static void match_settle(struct db_tournament_match *m)
{
    if (!m->fighter[1])
        m->winner = m->fighter[0];
    else if (!m->fighter[0])
        m->winner = m->fighter[1];
}

/* 1 if match m is decided. */
static int match_done(const struct db_tournament_match *m)
{
    return m->winner || (!m->fighter[0] && !m->fighter[1]);
}

/* Draws bracket round `stage` from the winners of the round before (or
 * from the seeds for the first) into x and the database. 0, or -1. */
static int stage_draw(struct game *g, struct tour *x, int stage)
{
    int places = x->t.size >> (stage - 1), order[DB_TOURNAMENT_SIZE];
    int64_t who[DB_TOURNAMENT_SIZE] = {0};

    if (stage == 1) {
        bracket_order(x->t.size, order);
        for (int p = 0; p < places; p++)
            for (int i = 0; i < x->ne; i++)
                if (x->e[i].seed == order[p])
                    who[p] = x->e[i].fighter;
    } else {
        for (int i = 0; i < x->nm; i++)
            if (x->m[i].stage == stage - 1)
                who[x->m[i].slot] = x->m[i].winner;
    }
    for (int j = 0; j < places / 2 && x->nm < T_MATCHES; j++) {
        struct db_tournament_match *m = &x->m[x->nm++];
        memset(m, 0, sizeof(*m));
        m->stage = stage;
        m->slot = j;
        m->fighter[0] = who[2 * j];
        m->fighter[1] = who[2 * j + 1];
        match_settle(m);
        if (db_tournament_match_put(g->db, x->t.id, m) != DB_OK)
            return -1;
    }
    x->t.stage = stage;
    return 0;
}

/* 1 if every match of x's current stage is decided. */
static int stage_done(const struct tour *x)
{
    for (int i = 0; i < x->nm; i++)
        if (x->m[i].stage == x->t.stage && !match_done(&x->m[i]))
            return 0;
    return 1;
}

/* After the current stage is decided: the next stage drawn, or the
 * tournament over with its winner. 0, or -1. */
static int stage_next(struct game *g, struct tour *x)
{
    if (x->t.stage < stages_of(x->t.size))
        return stage_draw(g, x, x->t.stage + 1);
    for (int i = 0; i < x->nm; i++)
        if (x->m[i].stage == x->t.stage)
            x->t.winner = x->m[i].winner;
    x->t.state = DB_TOURNAMENT_OVER;
    x->t.ended = game_wall(g);
    return 0;
}

/* ------------------------------------------------------ fought from plans */

/* A bracket bout fought from the plans: the fighters, plans, bout. */
struct plan_bout {
    struct db_fighter f[SIDES];
    struct plan *plan[SIDES];
    struct db_bout rec;
    struct bout b;
    struct db_order ords[ORDERS_MAX];
    int nords;
};

/* The fighters of m and their plans into pb. 0, or -1. */
static int pb_load(struct game *g, const struct tour *x, const struct db_tournament_match *m,
                   struct plan_bout *pb)
{
    char *text = xmalloc(DB_PLAN_MAX);
    int rc = 0;

    for (int s = 0; s < SIDES && rc == 0; s++) {
        pb->plan[s] = NULL;
        if (db_fighter_get_id(g->db, m->fighter[s], &pb->f[s]) != DB_OK) {
            rc = -1;
            break;
        }
        int got = db_plan_get(g->db, m->fighter[s], text, DB_PLAN_MAX);
        if (got == DB_OK) {
            struct parse_error perr;
            pb->plan[s] = plan_compile(x->t.rules, text, &perr);
        } else if (got == DB_ERROR) {
            rc = -1;
        }
    }
    free(text);
    return rc;
}

/* The rounds of t's bouts, as they are fought: fought from the plans,
 * rounds= or the ruleset's own count (a league bout's); live, rounds= or
 * a challenge's ([bout] rounds, or the ruleset's fixed count). */
static int tour_rounds(const struct game *g, const struct db_tournament *t)
{
    const struct ruleset *rs = ruleset_get(t->rules);

    if (!t->live)
        return t->rounds && !rs->rounds_fixed ? t->rounds : rs->rounds_default;
    return t->rounds ? t->rounds : rs->rounds_fixed ? rs->rounds_default : g->cfg.rounds;
}

/* The bout's record before it is fought. */
static void pb_record(struct game *g, const struct tour *x, struct plan_bout *pb)
{
    struct db_bout *rec = &pb->rec;

    memset(rec, 0, sizeof(*rec));
    rec->rules = x->t.rules;
    snprintf(rec->channel, sizeof(rec->channel), "%s", x->t.channel);
    rec->rounds = tour_rounds(g, &x->t);
    rec->seed = g->io.seed(g->io.ctx);
    rec->kind = DB_BOUT_EXHIBITION;
    rec->league = -1;
    rec->winner = -1;
    rec->created = rec->started = rec->ended = game_wall(g);
    for (int s = 0; s < SIDES; s++) {
        rec->fighter[s] = pb->f[s].id;
        rec->sheet[s] = pb->f[s].sheet;
    }
}

/* Fights pb to its end from the plans, drawing the commentary's words as
 * a live exhibition does (so that a replay fights the same bout). */
static int pb_fight(struct plan_bout *pb)
{
    struct render_corner c[SIDES];
    struct bout_rng r;
    struct events evs;
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX], res[RENDER_RESULT_MAX][RENDER_LINE_MAX];
    uint64_t digest = 0;

    for (int s = 0; s < SIDES; s++)
        render_corner_fill(&c[s], &pb->f[s]);
    if (bout_init(&pb->b, pb->rec.rules, pb->rec.sheet, pb->rec.rounds) != 0)
        return -1;
    bout_rng_seed(&r, pb->rec.seed);
    pb->nords = 0;
    while (!pb->b.result.over && pb->nords + SIDES <= ORDERS_MAX) {
        struct order o[SIDES];
        for (int s = 0; s < SIDES; s++) {
            struct db_order *d = &pb->ords[pb->nords + s];
            memset(d, 0, sizeof(*d));
            d->round = pb->b.round + 1;
            d->side = s;
            d->line = bout_plan_order(pb->plan[s], &pb->b, s, &o[s]);
            d->source = pb->plan[s] ? DB_ORDER_PLAN : DB_ORDER_DEFAULT;
            bout_order_text(&o[s], d->text, sizeof(d->text));
        }
        if (bout_round(&pb->b, o, &r, &evs) != 0)
            return -1;
        pb->nords += SIDES;
        render_round(c, &pb->b, &evs, &r.flavour, lines);
        digest = bout_digest(digest, &pb->b, &evs);
    }
    if (!pb->b.result.over)
        return -1;
    render_result(c, &pb->b, &r.flavour, res);
    const struct result *out = &pb->b.result;
    pb->rec.state = DB_BOUT_OVER;
    pb->rec.round = pb->b.round;
    pb->rec.winner = out->winner;
    pb->rec.method = out->method;
    pb->rec.drawn_by = out->drawn_by;
    pb->rec.reason = out->reason;
    pb->rec.decision = out->decision;
    pb->rec.digest = digest;
    pb->rec.has_digest = 1;
    return 0;
}

/* The records pb leaves (as a live exhibition's: record.c). */
static void pb_records(struct plan_bout *pb)
{
    const struct ruleset *rs = ruleset_get(pb->rec.rules);
    const struct result *res = &pb->b.result;
    struct sheet sh[SIDES] = {pb->f[0].sheet, pb->f[1].sheet};
    int points[SIDES] = {0, 0};

    record_after_bout(rs, res, 0, sh, points);
    if (rs->sheet_after)
        rs->sheet_after(&pb->b, sh);
    for (int s = 0; s < SIDES; s++) {
        struct db_fighter *f = &pb->f[s];
        if (res->winner < 0) {
            f->draws++;
        } else if (res->winner == s) {
            f->wins++;
            record_win_add(f, res, 0);
        } else {
            f->losses++;
        }
        f->sheet = sh[s];
        f->training_points += points[s];
    }
}

/* Fights match m from the plans and stores it (inside the caller's
 * transaction): the bout, its orders, the records, the match's winner (a
 * draw: the better seed). 0, or -1. */
static int match_fight(struct game *g, const struct tour *x, struct db_tournament_match *m)
{
    struct plan_bout *pb = xcalloc(1, sizeof(*pb));
    int rc = -1;

    if (pb_load(g, x, m, pb) == 0) {
        pb_record(g, x, pb);
        if (pb_fight(pb) == 0 && db_bout_create(g->db, &pb->rec) == DB_OK) {
            /* Fought all at once: its orders in one row, as a league bout's. */
            struct db *db = g->db;
            rc = 0;
            if (pb->nords > 0 && db_order_put_bout(db, pb->rec.id, pb->ords, pb->nords) != DB_OK)
                rc = -1;
            /* Stored as said: the round's announcement tells it, never its
             * rounds one by one, so a restart has nothing of it to say
             * (db_bout_unsaid lists exhibitions, which it is). */
            if (rc == 0 && db_bout_said(db, pb->rec.id, pb->rec.round) != DB_OK)
                rc = -1;
            pb_records(pb);
            for (int s = 0; rc == 0 && s < SIDES; s++)
                rc = db_fighter_save(g->db, &pb->f[s]) == DB_OK ? 0 : -1;
        }
    }
    if (rc == 0) {
        int w = pb->rec.winner;
        if (w < 0)
            w = seed_of(x, m->fighter[1]) < seed_of(x, m->fighter[0]) ? 1 : 0;
        m->bout = pb->rec.id;
        m->winner = m->fighter[w];
        rc = db_tournament_match_put(g->db, x->t.id, m) == DB_OK ? 0 : -1;
        if (rc == 0) /* the ratings, in the same transaction, once linked */
            rc = rating_bout_store(g, &pb->rec, NULL);
    }
    for (int s = 0; s < SIDES; s++)
        plan_free(pb->plan[s]);
    free(pb);
    return rc;
}

/* Match m of x decided with no bout when a fighter of it has retired
 * (retired by an older bot, which left him in): the other goes through
 * (both retired: the better seed). 1 when so (stored), 0 when both still
 * fight, -1 on a database error. */
static int match_walkover(struct game *g, const struct tour *x, struct db_tournament_match *m)
{
    struct db_fighter f[SIDES];

    if (!m->fighter[0] || !m->fighter[1] || m->winner)
        return 0;
    for (int s = 0; s < SIDES; s++)
        if (db_fighter_get_id(g->db, m->fighter[s], &f[s]) != DB_OK)
            return -1;
    if (!f[0].retired && !f[1].retired)
        return 0;
    int w = f[0].retired && f[1].retired ? seed_of(x, m->fighter[1]) < seed_of(x, m->fighter[0])
                                         : f[0].retired;
    m->winner = m->fighter[w];
    if (db_tournament_match_put(g->db, x->t.id, m) != DB_OK) {
        m->winner = 0;
        return -1;
    }
    return 1;
}

/* Fights the current bracket round of x from the plans and draws the
 * next (or ends the tournament), all in one transaction. 0, or -1 with
 * nothing stored. */
static int stage_fight(struct game *g, struct tour *x)
{
    int stage = x->t.stage, ok = db_begin(g->db) == DB_OK;

    for (int i = 0; ok && i < x->nm; i++)
        if (x->m[i].stage == stage && !match_done(&x->m[i])) {
            int walk = match_walkover(g, x, &x->m[i]);
            ok = walk == 1 || (walk == 0 && match_fight(g, x, &x->m[i]) == 0);
        }
    x->t.last = game_wall(g);
    ok = ok && stage_next(g, x) == 0 && db_tournament_save(g->db, &x->t) == DB_OK &&
         db_commit(g->db) == DB_OK;
    if (!ok) {
        game_log(g, GAME_LOG_ERROR, "tournament %lld: round %d not stored: %s", (long long)x->t.id,
                 stage, db_errmsg(g->db));
        db_rollback(g->db);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------ announcements */

/* The web address of tournament `id` onto s (nothing without base_url). */
static void web_text(const struct game *g, int64_t id, struct str *s)
{
    if (g->cfg.base_url[0])
        str_add(s, " Bracket: %s/tournaments/%lld", g->cfg.base_url, (long long)id);
}

/* Announcement `a` of x (see the head of the file) into s. */
static void announcement(struct game *g, const struct tour *x, int a, struct str *s)
{
    int stages = stages_of(x->t.size);
    char sn[32], w[DB_NAME_MAX];

    if (a == 0) {
        str_add(s, "Tournament #%lld (%s) begins: %d fighters, %s, seeded by rating. %s: ",
                (long long)x->t.id, x->t.name, x->ne, rules_name(x->t.rules),
                stage_name(1, stages, 1, sn, sizeof(sn)));
        stage_text(g, x, 1, 0, s);
        str_add(s, ".");
        return;
    }
    str_add(s, "Tournament #%lld (%s), %s: ", (long long)x->t.id, x->t.name,
            stage_name(a, stages, 0, sn, sizeof(sn)));
    stage_text(g, x, a, 1, s);
    str_add(s, ".");
    if (a < stages) {
        str_add(s, " Next, %s: ", stage_name(a + 1, stages, 0, sn, sizeof(sn)));
        stage_text(g, x, a + 1, 0, s);
        str_add(s, ".");
    } else {
        str_add(s, " %s wins the %s!", fname(g, x->t.winner, w, sizeof(w)), x->t.name);
    }
}

/* Says what x's channel has not heard yet, each announcement counted as
 * said once said; `who` (NULL: nobody) hears it too when he asked
 * elsewhere (an admin in private). */
static void tour_say_to(struct game *g, struct tour *x, const struct game_caller *who)
{
    int fought = x->t.state == DB_TOURNAMENT_OVER ? stages_of(x->t.size) : x->t.stage - 1;
    struct str s;

    if (x->t.state == DB_TOURNAMENT_OPEN)
        return;
    str_init(&s);
    while (x->t.said <= fought) {
        str_clear(&s);
        announcement(g, x, x->t.said, &s);
        /* As live as the bouts it starts: said after them, it would reach
         * the channel after their tape and prompts. */
        game_say(g, GAME_LIVE, x->t.channel, "%s", s.p);
        if (who && (!who->channel || !g->io.same_name(g->io.ctx, who->channel, x->t.channel)))
            game_reply(who, "%s", s.p);
        x->t.said++;
        if (db_tournament_save(g->db, &x->t) != DB_OK)
            game_log(g, GAME_LOG_WARN, "tournament %lld: %s", (long long)x->t.id, db_errmsg(g->db));
    }
    str_free(&s);
}

static void tour_say(struct game *g, struct tour *x)
{
    tour_say_to(g, x, NULL);
}

/* Fights x's current round from the plans and says it (to `who` too, when
 * he asked elsewhere). 0, or -1. */
static int tour_round(struct game *g, struct tour *x, const struct game_caller *who)
{
    if (stage_fight(g, x) != 0)
        return -1;
    tour_say_to(g, x, who);
    return 0;
}

/* ---------------------------------------------------------- the commands */

#define OPEN_USAGE                                                                                 \
    "tournament open [rules=..] [size=4|8|16|32] [rounds=N] [mode=live|plans] [name=..]"

/* One word of `tournament open` into t: 0, or -1 after telling why. */
static int open_word(const struct game_caller *who, const char *w, struct db_tournament *t)
{
    enum rules rules;
    int r = game_rules_word(who, w, &rules);

    if (r < 0)
        return -1;
    if (r > 0) {
        t->rules = rules;
        return 0;
    }
    if (strncasecmp(w, "size=", 5) == 0) {
        t->size = atoi(w + 5);
        if (strcmp(w + 5, "4") && strcmp(w + 5, "8") && strcmp(w + 5, "16") &&
            strcmp(w + 5, "32")) {
            game_reply(who, "%s: a tournament has 4, 8, 16 or 32 places; say size=8", CLIP(w, 20));
            return -1;
        }
    } else if (strncasecmp(w, "mode=", 5) == 0) {
        if (strcasecmp(w + 5, "live") && strcasecmp(w + 5, "plans")) {
            game_reply(who, "%s: say mode=live (bouts fought live) or mode=plans (from the plans)",
                       CLIP(w, 20));
            return -1;
        }
        t->live = strcasecmp(w + 5, "live") == 0;
    } else if (strncasecmp(w, "rounds=", 7) == 0) {
        t->rounds = -1; /* checked once the ruleset is known */
    } else {
        game_reply(who, "%s: not a word of %s", CLIP(w, 20), OPEN_USAGE);
        return -1;
    }
    return 0;
}

/* 1 if w starts one of `tournament open`'s words (a ruleset, size=, mode=,
 * rounds=, name=): where a name's words stop. */
static int open_key(const char *w)
{
    static const char *const keys[] = {"size=", "mode=", "rounds=", "name=", "rules="};

    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (strncasecmp(w, keys[i], strlen(keys[i])) == 0)
            return 1;
    return 0;
}

/* The name that starts at argv[i] ("name=Spring" "Cup" ...) into t, up to
 * the next key word: the index of the first word after it, or -1 after
 * telling why. */
static int open_name(const struct game_caller *who, const char *const *argv, int argc, int i,
                     struct db_tournament *t)
{
    struct str n;

    str_init(&n);
    str_cat(&n, argv[i] + 5);
    for (i++; i < argc && !open_key(argv[i]); i++)
        str_add(&n, " %s", argv[i]);
    int bad = n.len == 0 || n.len >= sizeof(t->name);
    if (!bad)
        snprintf(t->name, sizeof(t->name), "%s", n.p);
    str_free(&n);
    if (bad) {
        game_reply(who, "name=: 1 to %d characters: name=Spring Cup", (int)sizeof(t->name) - 1);
        return -1;
    }
    return i;
}

/* The words of `tournament open` into t (name= takes the words up to the
 * next key word). 0, or -1. */
static int open_words(const struct game_caller *who, const char *const *argv, int argc,
                      struct db_tournament *t)
{
    const char *rounds = NULL;

    for (int i = 0; i < argc;) {
        if (strncasecmp(argv[i], "name=", 5) == 0) {
            if ((i = open_name(who, argv, argc, i, t)) < 0)
                return -1;
            continue;
        }
        if (open_word(who, argv[i], t) != 0)
            return -1;
        if (t->rounds < 0) {
            rounds = argv[i];
            t->rounds = 0;
        }
        i++;
    }
    if (rounds && game_rounds_word(who, t->rules, rounds + 7, &t->rounds) != 0)
        return -1;
    return 0;
}

/* Says `text` in channel; the caller hears it too when he is elsewhere. */
static void tell(struct game *g, const struct game_caller *who, const char *channel,
                 const char *text)
{
    game_say(g, GAME_CHATTER, channel, "%s", text);
    if (!who->channel || !g->io.same_name(g->io.ctx, who->channel, channel))
        game_reply(who, "%s", text);
}

/* "tournament #3 (Spring Cup)" */
#define TNAME(t) (long long)(t)->id, (t)->name

int game_tournament_open(struct game *g, const struct game_caller *who, int admin,
                         const char *const *argv, int argc)
{
    struct db_tournament t, cur;

    if (!admin && !g->cfg.tournament_open_by_players) {
        game_reply(who, "only an admin opens a tournament here ([tournament] open_by = admins)");
        return -1;
    }
    memset(&t, 0, sizeof(t));
    t.size = 8;
    if (open_words(who, argv, argc, &t) != 0)
        return -1;
    const char *channel = who->channel ? who->channel : g->cfg.channel;
    if (!channel || !channel[0]) {
        game_reply(who, "say it in the channel the tournament is for");
        return -1;
    }
    int rc = current(g, &cur);
    if (rc != 0) {
        if (rc > 0)
            game_reply(who, "tournament #%lld (%s) is not over yet; one tournament at a time",
                       TNAME(&cur));
        else
            game_reply(who, "sorry, I could not read the tournaments (%s)", db_why(g->db));
        return -1;
    }
    if (!t.name[0]) {
        const char *rn = rules_name(t.rules);
        snprintf(t.name, sizeof(t.name), "%c%s Cup", rn[0] - 32, rn + 1);
    }
    snprintf(t.channel, sizeof(t.channel), "%s", channel);
    t.created = game_wall(g);
    if (db_tournament_create(g->db, &t) != DB_OK) {
        game_reply(who, "sorry, I could not store the tournament (%s)", db_why(g->db));
        return -1;
    }
    g->tour_any = 1;
    char line[RENDER_LINE_MAX];
    snprintf(line, sizeof(line),
             "Tournament #%lld (%s) is open: %s, %d places, bouts of %d rounds, %s. Join with "
             "%stournament join <fighter>.",
             TNAME(&t), rules_name(t.rules), t.size, tour_rounds(g, &t),
             t.live ? "fought live" : "fought from the plans", g->cfg.prefix);
    tell(g, who, t.channel, line);
    return 0;
}

/* The current tournament into *t, open (want_open) or not over; else
 * tells the caller. 0, or -1. */
static int need_current(struct game *g, const struct game_caller *who, struct db_tournament *t)
{
    int rc = current(g, t);

    if (rc < 0)
        game_reply(who, "sorry, I could not read the tournaments (%s)", db_why(g->db));
    else if (rc == 0)
        game_reply(who, "no tournament is open; an admin opens one: %stournament open",
                   g->cfg.prefix);
    return rc > 0 ? 0 : -1;
}

/* 1 if account `acc` has a fighter among x's entrants (into *f when
 * given). */
static int tour_mine(struct game *g, const struct tour *x, int64_t acc, struct db_fighter *f)
{
    struct db_fighter tmp;

    for (int i = 0; i < x->ne; i++)
        if (db_fighter_get_id(g->db, x->e[i].fighter, &tmp) == DB_OK && tmp.account_id == acc) {
            if (f)
                *f = tmp;
            return 1;
        }
    return 0;
}

/* The current tournament loaded into x, or -1 after telling the caller. */
static int need_loaded(struct game *g, const struct game_caller *who, struct tour *x)
{
    if (need_current(g, who, &x->t) != 0)
        return -1;
    if (tour_load(g, x->t.id, x) != 0) {
        game_reply(who, "sorry, I could not read the tournament (%s)", db_why(g->db));
        return -1;
    }
    return 0;
}

/* Seeds x's entrants by seed_score (ties: who joined first), draws the
 * first round and marks it running, in one transaction. 0, or -1. */
static int tour_begin(struct game *g, struct tour *x)
{
    double score[DB_TOURNAMENT_SIZE];
    struct db_fighter f;

    for (int i = 0; i < x->ne; i++)
        score[i] = db_fighter_get_id(g->db, x->e[i].fighter, &f) == DB_OK ? seed_score(g, &f) : 0;
    for (int i = 1; i < x->ne; i++) /* stable: insertion */
        for (int k = i; k > 0 && score[k] > score[k - 1]; k--) {
            struct db_tournament_entry e = x->e[k];
            double s = score[k];
            x->e[k] = x->e[k - 1];
            score[k] = score[k - 1];
            x->e[k - 1] = e;
            score[k - 1] = s;
        }
    int ok = db_begin(g->db) == DB_OK;
    for (int i = 0; ok && i < x->ne; i++) {
        x->e[i].seed = i + 1;
        ok = db_tournament_seed(g->db, x->t.id, x->e[i].fighter, i + 1) == DB_OK;
    }
    x->t.state = DB_TOURNAMENT_RUNNING;
    x->t.started = x->t.last = game_wall(g);
    x->nm = 0;
    ok = ok && stage_draw(g, x, 1) == 0;
    while (ok && x->t.state == DB_TOURNAMENT_RUNNING && stage_done(x))
        ok = stage_next(g, x) == 0; /* rounds of byes alone */
    if (ok && db_tournament_save(g->db, &x->t) == DB_OK && db_commit(g->db) == DB_OK)
        return 0;
    db_rollback(g->db);
    return -1;
}

/* Takes x's retired entrants out of it (retired while entered, by a bot
 * whose retire left them in): nobody fights a retired fighter. How many
 * left (x is then to be loaded again), or -1 on a database error. */
static int tour_drop_retired(struct game *g, const struct tour *x)
{
    struct db_fighter f;
    int n = 0;

    for (int i = 0; i < x->ne; i++) {
        if (db_fighter_get_id(g->db, x->e[i].fighter, &f) != DB_OK)
            return -1;
        if (!f.retired)
            continue;
        if (db_tournament_leave(g->db, x->t.id, f.id) != DB_OK)
            return -1;
        game_log(g, GAME_LOG_INFO, "tournament %lld: retired %s taken out", (long long)x->t.id,
                 f.name);
        n++;
    }
    return n;
}

/* Starts x (its entrants loaded) and says so. 0, or -1 after telling. */
static int tour_start(struct game *g, const struct game_caller *who, struct tour *x)
{
    int dropped = tour_drop_retired(g, x);
    if (dropped < 0 || (dropped > 0 && tour_load(g, x->t.id, x) != 0)) {
        game_reply(who, "sorry, I could not start the tournament (%s)", db_why(g->db));
        return -1;
    }
    if (x->ne < 2) {
        game_reply(who, "tournament #%lld (%s) has %d entrant%s; it needs 2 at least", TNAME(&x->t),
                   x->ne, x->ne == 1 ? "" : "s");
        return -1;
    }
    if (tour_begin(g, x) != 0) {
        game_reply(who, "sorry, I could not start the tournament (%s)", db_why(g->db));
        return -1;
    }
    tour_say(g, x);
    g->tour_live = x->t.live && x->t.state == DB_TOURNAMENT_RUNNING ? x->t.id : 0;
    tournament_live_go(g, x->t.id);
    return 0;
}

int game_tournament_join(struct game *g, const struct game_caller *who, const struct db_fighter *f)
{
    struct tour *x = xcalloc(1, sizeof(*x));
    int rc = -1;
    char line[RENDER_LINE_MAX];

    if (need_loaded(g, who, x) != 0) {
        /* told */
    } else if (x->t.state != DB_TOURNAMENT_OPEN) {
        game_reply(who, "tournament #%lld (%s) has begun; join the next one", TNAME(&x->t));
    } else if (f->retired) {
        game_reply(who, "%s has retired; join with a fighter who still fights", f->name);
    } else if (f->sheet.rules != x->t.rules) {
        game_reply(who, "%s fights %s; tournament #%lld is %s: join with a %s fighter", f->name,
                   rules_name(f->sheet.rules), (long long)x->t.id, rules_name(x->t.rules),
                   rules_name(x->t.rules));
    } else if (tour_mine(g, x, who->account_id, NULL)) {
        game_reply(who, "you have a fighter in tournament #%lld already; one a player",
                   (long long)x->t.id);
    } else if (db_tournament_join(g->db, x->t.id, f->id, game_wall(g)) != DB_OK) {
        game_reply(who, "sorry, I could not add %s (%s)", f->name, db_why(g->db));
    } else {
        x->ne++;
        snprintf(line, sizeof(line), "%s joins tournament #%lld (%s): %d of %d.", f->name,
                 TNAME(&x->t), x->ne, x->t.size);
        tell(g, who, x->t.channel, line);
        rc = 0;
        if (x->ne >= x->t.size && tour_load(g, x->t.id, x) == 0)
            tour_start(g, who, x);
    }
    free(x);
    return rc;
}

int game_tournament_leave(struct game *g, const struct game_caller *who)
{
    struct tour *x = xcalloc(1, sizeof(*x));
    struct db_fighter f;
    int rc = -1;
    char line[RENDER_LINE_MAX];

    if (need_loaded(g, who, x) != 0) {
        /* told */
    } else if (x->t.state != DB_TOURNAMENT_OPEN) {
        game_reply(who, "tournament #%lld (%s) has begun; nobody leaves it now", TNAME(&x->t));
    } else if (!tour_mine(g, x, who->account_id, &f)) {
        game_reply(who, "you have no fighter in tournament #%lld (%s)", TNAME(&x->t));
    } else if (db_tournament_leave(g->db, x->t.id, f.id) != DB_OK) {
        game_reply(who, "sorry, I could not take %s out (%s)", f.name, db_why(g->db));
    } else {
        snprintf(line, sizeof(line), "%s leaves tournament #%lld (%s): %d of %d.", f.name,
                 TNAME(&x->t), x->ne - 1, x->t.size);
        tell(g, who, x->t.channel, line);
        rc = 0;
    }
    free(x);
    return rc;
}

/* 1 if fighter `id` is still in x: an entrant who lost none of its
 * decided matches. */
static int tour_still_in(const struct tour *x, int64_t id)
{
    for (int i = 0; i < x->nm; i++) {
        const struct db_tournament_match *m = &x->m[i];
        if ((m->fighter[0] == id || m->fighter[1] == id) && m->winner && m->winner != id)
            return 0;
    }
    for (int i = 0; i < x->ne; i++)
        if (x->e[i].fighter == id)
            return 1;
    return 0;
}

int tournament_entered(struct game *g, int64_t fighter, struct db_tournament *t)
{
    struct tour *x = xcalloc(1, sizeof(*x));
    struct db_tournament *v = xmalloc(T_LIST * sizeof(*v));
    int n = 0, rc = db_tournament_list(g->db, v, T_LIST, &n) == DB_OK ? 0 : -1;

    for (int i = 0; rc == 0 && i < n; i++) {
        if (v[i].state == DB_TOURNAMENT_OVER)
            continue;
        if (tour_load(g, v[i].id, x) != 0)
            rc = -1;
        else if (tour_still_in(x, fighter))
            rc = x->t.state == DB_TOURNAMENT_OPEN ? 1 : 2;
        if (rc > 0)
            *t = x->t;
    }
    free(v);
    free(x);
    return rc;
}

int game_tournament_start(struct game *g, const struct game_caller *who, int admin)
{
    struct tour *x = xcalloc(1, sizeof(*x));
    int rc = -1;

    if (!admin)
        game_reply(who, "only an admin starts a tournament before it is full");
    else if (need_loaded(g, who, x) != 0)
        ; /* told */
    else if (x->t.state != DB_TOURNAMENT_OPEN)
        game_reply(who, "tournament #%lld (%s) has begun already", TNAME(&x->t));
    else
        rc = tour_start(g, who, x);
    free(x);
    return rc;
}

int game_tournament_next(struct game *g, const struct game_caller *who, int admin)
{
    struct tour *x = xcalloc(1, sizeof(*x));
    int rc = -1;

    if (!admin)
        game_reply(who, "only an admin fights a tournament's next round");
    else if (need_loaded(g, who, x) != 0)
        ; /* told */
    else if (x->t.state != DB_TOURNAMENT_RUNNING)
        game_reply(who, "tournament #%lld (%s) has not begun; %stournament start begins it",
                   TNAME(&x->t), g->cfg.prefix);
    else if (x->t.live)
        game_reply(who, "tournament #%lld (%s) is fought live: its rounds go on as its bouts end",
                   TNAME(&x->t));
    else if (tour_round(g, x, who) != 0)
        game_reply(who, "the round was not stored (%s); nothing changed", db_why(g->db));
    else
        rc = 0;
    free(x);
    return rc;
}

/* The first line of `tournament`: what x is and where it stands. */
static void show_head(struct game *g, const struct tour *x, struct str *s)
{
    char sn[32], w[DB_NAME_MAX];

    str_add(s, "Tournament #%lld (%s): %s, %d places, bouts of %d rounds, %s; ", TNAME(&x->t),
            rules_name(x->t.rules), x->t.size, tour_rounds(g, &x->t), x->t.live ? "live" : "plans");
    if (x->t.state == DB_TOURNAMENT_OPEN) {
        str_add(s, "open, %d joined", x->ne);
        for (int i = 0; i < x->ne; i++)
            str_add(s, "%s%s", i ? ", " : ": ", fname(g, x->e[i].fighter, w, sizeof(w)));
        str_add(s, ".");
    } else if (x->t.state == DB_TOURNAMENT_RUNNING) {
        str_add(s, "%d fighters, now %s.", x->ne,
                stage_name(x->t.stage, stages_of(x->t.size), 0, sn, sizeof(sn)));
    } else {
        str_add(s, "won by %s.", fname(g, x->t.winner, w, sizeof(w)));
    }
}

/* Tells the caller there is no tournament #id, and what there is: the
 * newest's bracket command, and the web page that lists them all when the
 * game knows its address (no command lists them). */
static void tell_missing(struct game *g, const struct game_caller *who, long long id)
{
    struct db_tournament t;
    int n = 0;
    const char *base = g->cfg.base_url;

    if (db_tournament_list(g->db, &t, 1, &n) != DB_OK)
        game_reply(who, "sorry, I could not read the tournaments (%s)", db_why(g->db));
    else if (n == 0)
        game_reply(who,
                   "no tournament #%lld: there is none yet; an admin opens one: "
                   "%stournament open",
                   id, g->cfg.prefix);
    else
        game_reply(who, "no tournament #%lld: the newest is #%lld (%sbracket %lld)%s%s%s", id,
                   (long long)t.id, g->cfg.prefix, (long long)t.id,
                   base[0] ? "; all of them: " : "", base, base[0] ? "/tournaments" : "");
}

int game_tournament_show(struct game *g, const struct game_caller *who, const char *word)
{
    struct tour *x = xcalloc(1, sizeof(*x));
    struct str s;
    int rc = -1;
    long long id = 0;

    str_init(&s);
    if (word) {
        char *end;
        id = strtoll(word[0] == '#' ? word + 1 : word, &end, 10);
        if (*end || id <= 0) {
            game_reply(who, "%s: say a tournament's number: %sbracket 3", CLIP(word, 20),
                       g->cfg.prefix);
            goto out;
        }
    } else {
        int c = current(g, &x->t);
        if (c == 0 && db_tournament_list(g->db, &x->t, 1, &c) == DB_OK && c == 0) {
            game_reply(who, "no tournament yet; an admin opens one: %stournament open",
                       g->cfg.prefix);
            goto out;
        }
        id = x->t.id;
    }
    if (tour_load(g, id, x) != 0) {
        tell_missing(g, who, id);
        goto out;
    }
    show_head(g, x, &s);
    game_reply(who, "%s", s.p);
    if (x->t.state != DB_TOURNAMENT_OPEN) {
        int st = x->t.stage, done = x->t.state == DB_TOURNAMENT_OVER || stage_done(x);
        str_clear(&s);
        stage_text(g, x, st, done, &s);
        if (s.len)
            game_reply(who, "%s%s.", done ? "Results: " : "Pairings: ", s.p);
    }
    str_clear(&s);
    web_text(g, x->t.id, &s);
    if (s.len)
        game_reply(who, "%s", s.p + 1);
    rc = 0;
out:
    str_free(&s);
    free(x);
    return rc;
}

int game_tournament_wins(struct game *g, int64_t fighter, struct str *s)
{
    struct db_tournament v[8];
    int n = 0;

    if (db_tournament_won(g->db, fighter, v, 8, &n) != DB_OK)
        return 0;
    for (int i = 0; i < n; i++)
        str_add(s, "%swon the %s (%s, %d)", i ? ", " : "", v[i].name, rules_name(v[i].rules),
                v[i].size);
    return n;
}

/* Says what each tournament not over has stored and not said (after a
 * restart), and starts the live bouts it is waiting for. */
static void tour_advance(struct game *g, struct tour *x);

static void tour_resume(struct game *g)
{
    struct db_tournament *v = xmalloc(T_LIST * sizeof(*v));
    struct tour *x = xcalloc(1, sizeof(*x));
    int n = 0;

    if (db_tournament_list(g->db, v, T_LIST, &n) != DB_OK)
        game_log(g, GAME_LOG_WARN, "cannot read the tournaments: %s", db_errmsg(g->db));
    for (int i = 0; i < n; i++) {
        if (v[i].state != DB_TOURNAMENT_OVER)
            g->tour_any = 1;
        if (v[i].said > stages_of(v[i].size) || v[i].state == DB_TOURNAMENT_OPEN)
            continue;
        if (tour_load(g, v[i].id, x) == 0)
            tour_advance(g, x);
    }
    free(x);
    free(v);
}

/* Fights the rounds of plans tournaments whose time has come. */
static void tour_schedule(struct game *g)
{
    struct db_tournament t;
    struct tour *x;

    if (!g->tour_any)
        return; /* nothing to look at: no database read */
    int c = current(g, &t);
    if (c == 0)
        g->tour_any = 0; /* all over */
    if (c <= 0 || t.state != DB_TOURNAMENT_RUNNING)
        return;
    if (t.live) {
        tournament_live_go(g, t.id);
        return;
    }
    if (g->cfg.tournament_round_interval <= 0 ||
        game_wall(g) - t.last < g->cfg.tournament_round_interval)
        return;
    x = xcalloc(1, sizeof(*x));
    if (tour_load(g, t.id, x) == 0)
        tour_round(g, x, NULL);
    free(x);
}

void tournament_tick(struct game *g)
{
    if (!g->online || (g->tour_resumed && game_now(g) < g->tour_look))
        return;
    g->tour_look = game_now(g) + T_POLL;
    /* One bot of those sharing the database runs the tournaments (issue
     * 29, db_job_lock); another looks again at its next poll, and takes
     * over when that one is gone. */
    if (db_job_lock(g->db, "tournament") != DB_OK)
        return;
    if (!g->tour_resumed) {
        g->tour_resumed = 1;
        tour_resume(g);
    }
    tour_schedule(g);
    db_job_unlock(g->db, "tournament");
}

/* ------------------------------------------------------------ fought live */

/* A match whose bout an admin cancelled (no result) is fought again: it
 * lets go of the bout, so that tournament_live_go starts a new one. */
static void tour_refight(struct game *g, struct tour *x, struct db_tournament_match *m)
{
    int64_t old = m->bout;

    m->bout = 0;
    if (db_tournament_match_put(g->db, x->t.id, m) != DB_OK) {
        m->bout = old;
        game_log(g, GAME_LOG_ERROR, "tournament %lld: bout %lld not let go: %s", (long long)x->t.id,
                 (long long)old, db_errmsg(g->db));
        return;
    }
    game_say(g, GAME_LIVE, x->t.channel, /* before the new bout's lines */
             "Tournament #%lld (%s): bout #%lld was cancelled with no result; it is fought again.",
             (long long)x->t.id, x->t.name, (long long)old);
}

/* The winner of each bout of x's current round that ended while the
 * bracket did not hear of it (a restart between the two); a cancelled one
 * is fought again. */
static void tour_settle(struct game *g, struct tour *x)
{
    struct db_bout rec;

    for (int i = 0; i < x->nm; i++) {
        struct db_tournament_match *m = &x->m[i];
        if (m->stage != x->t.stage || !m->bout || m->winner ||
            db_bout_get(g->db, m->bout, &rec) != DB_OK)
            continue;
        if (rec.state == DB_BOUT_CANCELLED)
            tour_refight(g, x, m);
        if (rec.state != DB_BOUT_OVER)
            continue;
        int w = rec.winner;
        if (w < 0)
            w = seed_of(x, m->fighter[1]) < seed_of(x, m->fighter[0]) ? 1 : 0;
        m->winner = rec.fighter[w];
        if (db_tournament_match_put(g->db, x->t.id, m) != DB_OK)
            m->winner = 0;
    }
}

/* The bracket goes on once its current round is decided: the next round
 * drawn (or the winner), stored, then said, and its live bouts started. */
static void tour_advance(struct game *g, struct tour *x)
{
    tour_settle(g, x);
    if (x->t.state == DB_TOURNAMENT_RUNNING && stage_done(x)) {
        int ok = db_begin(g->db) == DB_OK;
        while (ok && x->t.state == DB_TOURNAMENT_RUNNING && stage_done(x))
            ok = stage_next(g, x) == 0;
        x->t.last = game_wall(g);
        if (!ok || db_tournament_save(g->db, &x->t) != DB_OK || db_commit(g->db) != DB_OK) {
            game_log(g, GAME_LOG_ERROR, "tournament %lld: the next round was not stored: %s",
                     (long long)x->t.id, db_errmsg(g->db));
            db_rollback(g->db);
            tour_load(g, x->t.id, x); /* as stored; tried again at the next tick */
        }
    }
    tour_say(g, x);
    g->tour_live = x->t.live && x->t.state == DB_TOURNAMENT_RUNNING ? x->t.id : 0;
    tournament_live_go(g, x->t.id);
}

int tournament_bout_store(struct game *g, const struct db_bout *rec)
{
    int64_t id;

    if (!g->tour_live)
        return 0; /* no live tournament runs: no bout is one's */
    int rc = db_tournament_of_bout(g->db, rec->id, &id);

    if (rc == DB_NOTFOUND)
        return 0;
    struct tour *x = xcalloc(1, sizeof(*x));
    rc = rc == DB_OK && tour_load(g, id, x) == 0 ? 0 : -1;
    for (int i = 0; rc == 0 && i < x->nm; i++) {
        struct db_tournament_match *m = &x->m[i];
        if (m->bout != rec->id)
            continue;
        int w = rec->winner;
        if (w < 0)
            w = seed_of(x, m->fighter[1]) < seed_of(x, m->fighter[0]) ? 1 : 0;
        m->winner = rec->fighter[w];
        rc = db_tournament_match_put(g->db, id, m) == DB_OK ? 0 : -1;
    }
    free(x);
    return rc;
}

void tournament_bout_over(struct game *g, int64_t bout)
{
    int64_t id;

    if (!g->tour_live || db_tournament_of_bout(g->db, bout, &id) != DB_OK)
        return;
    struct tour *x = xcalloc(1, sizeof(*x));
    if (tour_load(g, id, x) == 0)
        tour_advance(g, x);
    free(x);
}

/* What bout_start_direct runs in its transaction: the match takes it. */
struct link_arg {
    int64_t tid;
    struct db_tournament_match *m;
};

static int link_match(struct game *g, int64_t id, void *arg)
{
    struct link_arg *a = arg;

    a->m->bout = id;
    return db_tournament_match_put(g->db, a->tid, a->m) == DB_OK ? 0 : -1;
}

void tournament_live_go(struct game *g, int64_t id)
{
    struct tour *x = xcalloc(1, sizeof(*x));

    if (tour_load(g, id, x) != 0 || !x->t.live || x->t.state != DB_TOURNAMENT_RUNNING) {
        free(x);
        return;
    }
    int rounds = tour_rounds(g, &x->t), walked = 0;
    for (int i = 0; i < x->nm; i++) {
        struct db_tournament_match *m = &x->m[i];
        struct db_fighter f[SIDES];
        if (m->stage != x->t.stage || match_done(m) || m->bout)
            continue;
        int walk = match_walkover(g, x, m);
        walked |= walk == 1;
        if (walk != 0)
            continue; /* decided (the bracket goes on below), or tried again */
        if (game_fighter_busy(g, m->fighter[0]) || game_fighter_busy(g, m->fighter[1]) ||
            db_fighter_get_id(g->db, m->fighter[0], &f[0]) != DB_OK ||
            db_fighter_get_id(g->db, m->fighter[1], &f[1]) != DB_OK)
            continue; /* tried again at the next look */
        struct link_arg a = {x->t.id, m};
        if (!bout_start_direct(g, x->t.channel, x->t.rules, rounds, f, link_match, &a))
            m->bout = 0;
    }
    if (walked && stage_done(x))
        tour_advance(g, x); /* ended by a walkover: no bout's end moves it */
    free(x);
}

int game_bracket_get(struct db *db, int64_t id, struct game_bracket *b)
{
    memset(b, 0, sizeof(*b));
    return db_tournament_get(db, id, &b->t) == DB_OK &&
                   db_tournament_entries(db, id, b->e, DB_TOURNAMENT_SIZE, &b->ne) == DB_OK &&
                   db_tournament_matches(db, id, b->m, DB_TOURNAMENT_SIZE, &b->nm) == DB_OK
               ? 0
               : -1;
}
