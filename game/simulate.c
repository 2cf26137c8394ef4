/*
 * simulate.c - simulations: many seeded bouts of a fighter's plan against
 * another fighter's sheet, fought a few at a time, and the `sim` command
 * that starts them.
 *
 * A simulation is fought exactly as ringside-sim fights a --bouts run with
 * plans and no orders: bout k of a simulation seeded S is seeded S+k, has
 * the ruleset's default rounds, and each side's order comes from his plan,
 * else the ruleset's default order (bout_plan_order, which league bouts use
 * too). Nothing is stored: a simulation changes no record, no sheet and no
 * plan, and it never reads the opponent's stored plan.
 *
 * The game keeps the simulations waiting in a queue; whoever runs the game
 * calls game_sim_step with a budget of bouts as often as it can spare the
 * time (bot/: a few milliseconds per turn of its loop), and each
 * simulation finished is answered in one line. Each player has at most one
 * waiting and starts at most one per SIM_EVERY seconds.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "game_internal.h"
#include "parse.h"

#define HOW_MAX 24

struct sim {
    enum rules rules;
    int rounds;
    uint64_t seed;
    char name[SIDES][DB_NAME_MAX];
    char how[SIDES][HOW_MAX];
    struct sheet sheet[SIDES];
    struct plan *plan[SIDES];
    struct sim_figures fig;
    int failed;
    struct bout b;
    struct events evs;
};

int bout_plan_order(const struct plan *p, const struct bout *b, int side, struct order *o)
{
    struct plan_vars v;

    if (!p) {
        ruleset_get(b->rules)->order_default(o);
        return 0;
    }
    bout_plan_vars(b, side, &v);
    return plan_eval(p, &v, o);
}

/* --------------------------------------------------------- one simulation */

struct sim *sim_new(const char *const name[SIDES], const struct sheet s[SIDES],
                    struct plan *plan[SIDES], const char *const how[SIDES], long bouts,
                    uint64_t seed)
{
    const struct ruleset *rs = ruleset_get(s[0].rules);
    struct sim *x;

    if (!rs || bouts < 1 || s[1].rules != s[0].rules)
        return NULL;
    x = xmalloc(sizeof(*x));
    memset(x, 0, sizeof(*x));
    x->rules = rs->id;
    x->rounds = rs->rounds_default;
    x->seed = seed;
    x->fig.bouts = bouts;
    for (int i = 0; i < SIDES; i++) {
        snprintf(x->name[i], sizeof(x->name[i]), "%s", name[i]);
        snprintf(x->how[i], sizeof(x->how[i]), "%s", how[i]);
        x->sheet[i] = s[i];
    }
    /* A probe: the engine takes these sheets, or nothing is set up. */
    if (bout_init(&x->b, x->rules, x->sheet, x->rounds) != 0) {
        free(x);
        return NULL;
    }
    for (int i = 0; i < SIDES; i++)
        x->plan[i] = plan[i];
    return x;
}

/* Fights the next bout and counts it. Returns 0, or -1 if the engine
 * refused a round. */
static int fight_one(struct sim *x)
{
    struct sim_figures *f = &x->fig;
    const struct result *res = &x->b.result;
    struct bout_rng r;

    bout_rng_seed(&r, x->seed + (uint64_t)f->done);
    if (bout_init(&x->b, x->rules, x->sheet, x->rounds) != 0)
        return -1;
    while (!res->over) {
        struct order o[SIDES];
        for (int i = 0; i < SIDES; i++)
            bout_plan_order(x->plan[i], &x->b, i, &o[i]);
        if (bout_round(&x->b, o, &r, &x->evs) != 0)
            return -1;
    }
    f->done++;
    f->rounds += x->b.round;
    if (res->winner == 0 || res->winner == 1) {
        f->wins[res->winner]++;
        if ((int)res->method >= 0 && res->method <= METHOD_DRAW)
            f->method[res->winner][res->method]++;
    } else {
        f->draws++;
    }
    return 0;
}

long sim_step(struct sim *x, long budget)
{
    struct sim_figures *f = &x->fig;

    for (; !x->failed && budget > 0 && f->done < f->bouts; budget--)
        if (fight_one(x) != 0)
            x->failed = 1;
    return x->failed ? -1 : f->bouts - f->done;
}

const struct sim_figures *sim_figures(const struct sim *x)
{
    return &x->fig;
}

void sim_free(struct sim *x)
{
    if (!x)
        return;
    for (int i = 0; i < SIDES; i++)
        plan_free(x->plan[i]);
    free(x);
}

/* ------------------------------------------------------------ its words */

/* n with thousands separated by commas: "10,000". Returns buf. */
static const char *count_text(long n, char buf[32])
{
    char digits[32];
    int len = snprintf(digits, sizeof(digits), "%ld", n < 0 ? 0 : n);
    struct str s;

    str_init_fixed(&s, buf, 32);
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            str_ch(&s, ',');
        str_ch(&s, digits[i]);
    }
    return buf;
}

/* n of `of` as a whole percent, halves rounded up; "<1%" and ">99%"
 * rather than a rounding that would say never or always. Returns buf. */
static const char *percent_text(long n, long of, char buf[16])
{
    long p = of > 0 ? (long)floor(100.0 * (double)n / (double)of + 0.5) : 0;

    if (n > 0 && p == 0)
        snprintf(buf, 16, "<1%%");
    else if (n < of && p == 100)
        snprintf(buf, 16, ">99%%");
    else
        snprintf(buf, 16, "%ld%%", p);
    return buf;
}

/* Appends " (KO 20%, TKO 5%, DQ 0%, decision 36%)": the wins of `side` by
 * each method of the ruleset (and any other that happened), as shares of
 * every bout fought; nothing when he won none. */
static void methods_add(const struct sim *x, int side, struct str *t)
{
    const struct sim_figures *f = &x->fig;
    const enum method *m = render_methods(x->rules);
    int listed[METHOD_DRAW + 1] = {0}, n = 0;
    char pct[16];

    if (f->wins[side] == 0)
        return;
    for (; *m != METHOD_NONE; m++) {
        str_add(t, "%s%s %s", n++ ? ", " : " (", render_method_name(*m),
                percent_text(f->method[side][*m], f->done, pct));
        listed[*m] = 1;
    }
    for (int k = METHOD_KO; k < METHOD_DRAW; k++)
        if (!listed[k] && f->method[side][k] > 0)
            str_add(t, "%s%s %s", n++ ? ", " : " (", render_method_name((enum method)k),
                    percent_text(f->method[side][k], f->done, pct));
    if (n)
        str_cat(t, ")");
}

int sim_text(const struct sim *x, char *buf, size_t len)
{
    const struct sim_figures *f = &x->fig;
    char n1[32], n2[32], n3[32], n4[32], one[1];
    struct str t;

    /* len 0: nothing is written, the text is only counted. */
    str_init_fixed(&t, len ? buf : one, len ? len : 1);
    str_add(&t, "%s (%s) vs %s (%s), %s bout%s, seed %llu: %s wins %s", x->name[0], x->how[0],
            x->name[1], x->how[1], count_text(f->done, n1), f->done == 1 ? "" : "s",
            (unsigned long long)x->seed, x->name[0], count_text(f->wins[0], n2));
    methods_add(x, 0, &t);
    str_add(&t, ", loses %s", count_text(f->wins[1], n3));
    methods_add(x, 1, &t);
    str_add(&t, ", draws %s; ", count_text(f->draws, n4));
    if (f->done == 1)
        str_add(&t, "it went %ld round%s.", f->rounds, f->rounds == 1 ? "" : "s");
    else if (f->done > 0 && f->rounds % f->done == 0)
        str_add(&t, "%ld round%s on average.", f->rounds / f->done,
                f->rounds == f->done ? "" : "s");
    else
        str_add(&t, "%.1f rounds on average.",
                f->done > 0 ? (double)f->rounds / (double)f->done : 0.0);
    return t.need > (size_t)INT_MAX ? INT_MAX : (int)t.need;
}

/* ------------------------------------------------------------ the command */

/* Compiles `text`, the plan given as `what` ("plan=", "hisplan="), for
 * `rules`. Returns 0 with *out set, or -1 after telling the caller the
 * parser's error. */
static int plan_given(const struct game_caller *who, const char *what, enum rules rules,
                      const char *text, struct plan **out)
{
    struct parse_error err;

    if (!*text) {
        game_reply(who,
                   "%s is empty: give the plan's lines separated by ;, e.g. %s1) 5/5/10; "
                   "6) 4/6/10",
                   what, what);
        return -1;
    }
    *out = plan_compile(rules, text, &err);
    if (!*out) {
        char reason[PARSE_REASON_MAX + 48];
        parse_error_format(&err, reason, sizeof(reason));
        game_reply(who, "%s refused, nothing simulated: %s", what, reason);
        return -1;
    }
    return 0;
}

/* Compiles the plan `text` stored for fighter `mine`. Returns 0 with *out
 * set, or -1 after telling the caller it no longer compiles. */
static int stored_compile(const struct game_caller *who, const struct db_fighter *mine,
                          const char *text, struct plan **out)
{
    struct parse_error err;

    *out = plan_compile(mine->sheet.rules, text, &err);
    if (!*out) {
        char reason[PARSE_REASON_MAX + 48];
        parse_error_format(&err, reason, sizeof(reason));
        game_reply(who,
                   "%s's stored plan no longer compiles (%s); store it again with plan set, or "
                   "give one with plan=",
                   mine->name, reason);
        return -1;
    }
    return 0;
}

/* My plan: the one given, else my stored one, else none; *how says which.
 * Returns 0, or -1 after telling the caller what was wrong. */
static int my_plan(struct game *g, const struct game_caller *who, const struct db_fighter *mine,
                   const char *text, struct plan **out, const char **how)
{
    *out = NULL;
    if (text) {
        *how = "plan given";
        return plan_given(who, "plan=", mine->sheet.rules, text, out);
    }
    char *stored = xmalloc(DB_PLAN_MAX);
    int rc = db_plan_get(g->db, mine->id, stored, DB_PLAN_MAX);
    if (rc == DB_OK) {
        *how = "stored plan";
        rc = stored_compile(who, mine, stored, out);
    } else if (rc == DB_NOTFOUND) {
        *how = "default orders";
        rc = 0;
    } else {
        game_log(g, GAME_LOG_ERROR, "sim: the plan of %s: %s", mine->name, db_errmsg(g->db));
        game_reply(who, "sorry, I could not read %s's plan (%s)", mine->name, db_why(g->db));
        rc = -1;
    }
    free(stored);
    return rc;
}

/* The waiting simulation of account `id`, or NULL. */
static struct sim_job *job_of(struct game *g, int64_t id)
{
    for (int i = 0; i < g->nsims; i++)
        if (g->sims[i]->account_id == id)
            return g->sims[i];
    return NULL;
}

/* Forgets starts older than SIM_EVERY; returns when account `id` started
 * his last simulation, or -1 when that is longer ago. */
static double last_start(struct game *g, int64_t id, double now)
{
    double at = -1;
    int k = 0;

    for (int i = 0; i < g->nrecent; i++) {
        if (now - g->sim_recent[i].at >= SIM_EVERY)
            continue;
        if (g->sim_recent[i].account_id == id)
            at = g->sim_recent[i].at;
        g->sim_recent[k++] = g->sim_recent[i];
    }
    g->nrecent = k;
    return at;
}

/* Whole seconds until `at` + SIM_EVERY, at least 1. */
static int wait_seconds(double at, double now)
{
    int s = (int)(at + SIM_EVERY - now + 0.999);
    return s < 1 ? 1 : s;
}

/* Says whether the caller may start a simulation now; when not, tells him
 * why and how long to wait, and returns -1. */
static int may_start(struct game *g, const struct game_caller *who)
{
    double now = game_now(g);
    const struct sim_job *j = job_of(g, who->account_id);

    if (j) {
        const struct sim_figures *f = sim_figures(j->sim);
        char done[32], of[32];
        game_reply(who,
                   "your simulation is still running (%s of %s bouts fought): one at a time; "
                   "its answer comes soon",
                   count_text(f->done, done), count_text(f->bouts, of));
        return -1;
    }
    double at = last_start(g, who->account_id, now);
    if (at >= 0) {
        int s = wait_seconds(at, now);
        game_reply(who, "one simulation every %d seconds, please: try again in %d second%s",
                   (int)SIM_EVERY, s, s == 1 ? "" : "s");
        return -1;
    }
    if (g->nsims >= SIM_JOBS_MAX || g->nrecent >= SIM_RECENT_MAX) {
        int s = g->nrecent ? wait_seconds(g->sim_recent[0].at, now) : 1;
        game_reply(who, "%d simulations are waiting, the most I take: try again in %d second%s",
                   g->nsims, s, s == 1 ? "" : "s");
        return -1;
    }
    return 0;
}

/* Says whether the caller may simulate his fighter `mine` against `his`:
 * when not, tells him why and returns -1. */
static int sim_fighters(const struct game_caller *who, const struct db_fighter *mine,
                        const struct db_fighter *his)
{
    if (!who->account_id) {
        game_reply(who, "sim needs an account: identify first");
        return -1;
    }
    if (mine->account_id != who->account_id) {
        game_reply(who, "%s belongs to %s, not to you: sim <your fighter> vs <his fighter>",
                   mine->name, mine->owner);
        return -1;
    }
    if (mine->retired) {
        game_reply(who, "%s is retired: simulate one of your active fighters", mine->name);
        return -1;
    }
    if (his->sheet.rules != mine->sheet.rules) {
        game_reply(who, "%s is a %s fighter and %s a %s one: simulate fighters of one ruleset",
                   his->name, ruleset_get(his->sheet.rules)->title, mine->name,
                   ruleset_get(mine->sheet.rules)->title);
        return -1;
    }
    return 0;
}

/* Reads bouts= and seed= (NULL: not given, *n and *s untouched). Returns
 * 0, or -1 after telling the caller what was wrong. */
static int sim_numbers(const struct game_caller *who, const char *bouts, const char *seed,
                       uint64_t *n, uint64_t *s)
{
    if (bouts && (parse_u64(bouts, n) != 0 || *n < 1 || *n > SIM_BOUTS_MAX)) {
        char most[32], usual[32];
        game_reply(who, "bouts=%s: give a whole number of bouts from 1 to %s (without it: %s)",
                   CLIP(bouts, 20), count_text(SIM_BOUTS_MAX, most),
                   count_text(SIM_BOUTS_DEFAULT, usual));
        return -1;
    }
    if (seed && parse_u64(seed, s) != 0) {
        game_reply(who, "seed=%s: give a whole number from 0 to %llu (without it: a fresh one)",
                   CLIP(seed, 24), (unsigned long long)UINT64_MAX);
        return -1;
    }
    return 0;
}

/* The plans of both sides into p[] (how[] says where each comes from):
 * mine given or stored, his only given. Returns 0, or -1 (nothing kept)
 * after telling the caller what was wrong. */
static int sim_plans(struct game *g, const struct game_caller *who, const struct db_fighter *mine,
                     const struct db_fighter *his, const char *plan, const char *hisplan,
                     struct plan *p[SIDES], const char *how[SIDES])
{
    if (my_plan(g, who, mine, plan, &p[0], &how[0]) != 0)
        return -1;
    if (hisplan) {
        how[1] = "plan given";
        if (plan_given(who, "hisplan=", his->sheet.rules, hisplan, &p[1]) != 0) {
            plan_free(p[0]);
            p[0] = NULL;
            return -1;
        }
    }
    return 0;
}

/* Queues simulation `x` of the caller's, and notes when he started it. */
static void job_add(struct game *g, const struct game_caller *who, struct sim *x)
{
    struct sim_job *j = xmalloc(sizeof(*j));

    j->sim = x;
    j->account_id = who->account_id;
    snprintf(j->account, sizeof(j->account), "%s", who->account);
    g->sims[g->nsims++] = j;
    g->sim_recent[g->nrecent++] = (struct sim_start){who->account_id, game_now(g)};
}

int game_sim(struct game *g, const struct game_caller *who, const struct db_fighter *mine,
             const struct db_fighter *his, const char *bouts, const char *plan, const char *hisplan,
             const char *seed)
{
    uint64_t n = SIM_BOUTS_DEFAULT, s = 0;
    struct plan *p[SIDES] = {NULL, NULL};
    const char *how[SIDES] = {"default orders", "default orders"};

    if (sim_fighters(who, mine, his) != 0 || sim_numbers(who, bouts, seed, &n, &s) != 0 ||
        sim_plans(g, who, mine, his, plan, hisplan, p, how) != 0)
        return -1;
    if (may_start(g, who) != 0) {
        plan_free(p[0]);
        plan_free(p[1]);
        return -1;
    }
    if (!seed)
        s = g->io.seed(g->io.ctx);
    const char *names[SIDES] = {mine->name, his->name};
    const struct sheet sheets[SIDES] = {mine->sheet, his->sheet};
    struct sim *x = sim_new(names, sheets, p, how, (long)n, s);
    if (!x) {
        plan_free(p[0]);
        plan_free(p[1]);
        game_log(g, GAME_LOG_ERROR, "sim: the engine refused %s vs %s", mine->name, his->name);
        game_reply(who, "sorry, the engine refused those sheets (internal error)");
        return -1;
    }
    job_add(g, who, x);
    game_log(g, GAME_LOG_INFO, "sim: %s, %s vs %s, %llu bouts, seed %llu", who->account, mine->name,
             his->name, (unsigned long long)n, (unsigned long long)s);
    return 0;
}

/* Takes job i out of the queue, keeping the others' order. */
static struct sim_job *job_take(struct game *g, int i)
{
    struct sim_job *j = g->sims[i];

    memmove(&g->sims[i], &g->sims[i + 1], (size_t)(g->nsims - i - 1) * sizeof(g->sims[0]));
    g->nsims--;
    return j;
}

static void job_free(struct sim_job *j)
{
    sim_free(j->sim);
    free(j);
}

/* Answers the owner of finished job `j` (left < 0: it stopped on a round
 * the engine refused) and frees it. */
static void job_answer(struct game *g, struct sim_job *j, long left)
{
    const char *nick = g->io.nick_of(g->io.ctx, j->account_id);

    if (!nick)
        nick = j->account;
    if (left < 0) {
        game_log(g, GAME_LOG_ERROR, "sim of %s: the engine refused a round of bout %ld", j->account,
                 sim_figures(j->sim)->done);
        game_say(g, GAME_REPLY, nick,
                 "sorry, your simulation stopped: the engine refused a round (a bug; it is "
                 "logged)");
    } else {
        char text[RENDER_LINE_MAX];
        sim_text(j->sim, text, sizeof(text));
        game_say(g, GAME_REPLY, nick, "%s", text);
    }
    job_free(j);
}

long game_sim_step(struct game *g, long budget)
{
    long fought = 0;

    while (budget > 0 && g->nsims > 0) {
        struct sim_job *j = job_take(g, 0);
        long before = sim_figures(j->sim)->done;
        long left = sim_step(j->sim, budget);
        long done = sim_figures(j->sim)->done - before;

        fought += done;
        budget -= done;
        if (left > 0)
            g->sims[g->nsims++] = j; /* its turn again after the others' */
        else
            job_answer(g, j, left);
    }
    return fought;
}

int game_sims(const struct game *g)
{
    return g->nsims;
}

void game_sims_free(struct game *g)
{
    while (g->nsims > 0)
        job_free(job_take(g, g->nsims - 1));
}
