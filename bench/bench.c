/*
 * bench.c - engine throughput: rounds resolved per second, per ruleset;
 * and rating.updates_per_sec, the Glicko-2 update of a finished bout as the
 * game stores it (both fighters' ratings read, updated and written with
 * their history, a league turn's worth of bouts to a transaction) on a
 * real SQLite file.
 *
 * Drives the engine API directly (bout_init, bout_round) over many seeded
 * bouts with varied sheets and orders drawn in advance, so only the engine
 * is timed. Each ruleset runs for about SECONDS: the only argument, else the
 * environment variable BENCH_SECONDS (e.g. 0.2 for a quick run), else
 * DEFAULT_SECONDS; each prints one `name value unit` line. The engine's
 * figures (engine.*) are per second of the process's CPU time: the engine
 * does nothing but compute, so time the machine gave other programs (the
 * build machine is shared) is none of its work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "game.h"
#include "parse.h"
#include "util.h"

#define DEFAULT_SECONDS 1.5
#define POOL            256 /* distinct sheets and order sets */
#define CHECK_EVERY     64  /* bouts between clock readings */

static double seconds_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The CPU time this process has used, in seconds (see the top). */
static double cpu_seconds_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A boxing order as players write them: every style, target and dirty/clean
 * mix, AGG and POW 3-6 with most of the rest of the energy on DEF (at most
 * 14), the all-out assault and dirty fighting rare. Such orders fight most
 * bouts the distance (about 11 of 12 rounds, printed as
 * engine.boxing.rounds_per_bout), as bouts between players do: random
 * AGG/POW/DEF ended them in under four rounds, which timed the start of
 * bouts as much as their rounds. The
 * whole order is cleared first: the pool is reused across rulesets and
 * orders are a union. */
static void boxing_order_random(struct rng *r, struct order *o)
{
    struct boxing_order *b = &o->u.boxing;

    memset(o, 0, sizeof(*o));
    o->rules = RULES_BOXING;
    b->agg = rng_range(r, 3, 6);
    b->pow = rng_range(r, 3, 6);
    int room = BOXING_ENERGY - b->agg - b->pow;
    b->def = rng_range(r, room - 4 > 1 ? room - 4 : 1, room < 14 ? room : 14);
    b->target = (enum target)rng_range(r, TARGET_OPPORTUNISTIC, TARGET_BODY);
    b->dirty = rng_chance(r, 0.03);
    b->style = (enum style)rng_range(r, STYLE_NONE, STYLE_OUTSIDE);
    if (rng_chance(r, 0.005))
        b->style = STYLE_ALLOUT;
}

static void boxing_sheet_random(struct rng *r, struct sheet *s)
{
    memset(s, 0, sizeof(*s));
    s->rules = RULES_BOXING;
    s->u.boxing.str = rng_range(r, 6, 18);
    s->u.boxing.spd = rng_range(r, 6, 18);
    s->u.boxing.agl = rng_range(r, 6, 18);
    s->u.boxing.tgh = rng_range(r, 6, 18);
    s->u.boxing.hgt = rng_range(r, 6, 18);
}

/* A legal sugarray order, never a towel; cleared first (see above). */
static void sugarray_order_random(struct rng *r, struct order *o)
{
    memset(o, 0, sizeof(*o));
    o->rules = RULES_SUGARRAY;
    o->u.sugarray.attack = rng_range(r, 0, 7);
    o->u.sugarray.defence = rng_range(r, 0, 7);
}

static void sugarray_sheet_random(struct rng *r, struct sheet *s)
{
    memset(s, 0, sizeof(*s));
    s->rules = RULES_SUGARRAY;
    s->u.sugarray.skill = rng_range(r, 8, 14);
    s->u.sugarray.endurance = rng_range(r, 18, 30);
}

/* A duellist of 56 points with a random weapon and armour he is strong
 * enough for; the order is to fight (never a yield). */
static void duel_sheet_random(struct rng *r, struct sheet *s)
{
    memset(s, 0, sizeof(*s));
    s->rules = RULES_DUEL;
    struct duel_sheet *d = &s->u.duel;
    d->str = rng_range(r, 11, 20);
    d->dex = rng_range(r, 8, 56 - d->str - 2 - 8 > 20 ? 20 : 56 - d->str - 2 - 8);
    d->con = rng_range(r, 1, 56 - d->str - d->dex - 1 > 23 ? 23 : 56 - d->str - d->dex - 1);
    d->intel = 56 - d->str - d->dex - d->con;
    if (d->intel > 23)
        d->intel = 23;
    for (int k = 0; k < DUEL_SLOTS; k++) {
        int it = k == DUEL_WEAPON  ? rng_range(r, 1, DUEL_WEAPONS - 1)
                 : k == DUEL_UNDER ? 0
                                   : rng_range(r, 0, DUEL_MATERIALS - 1);
        int need = k == DUEL_WEAPON ? duel_weapon_info(it)->str : duel_armour_info(it)->str;
        if (it && need <= d->str) {
            d->item[k] = it;
            d->cond[k] = DUEL_COND_FULL;
        }
    }
}

static void duel_order_fight(struct order *o)
{
    memset(o, 0, sizeof(*o));
    o->rules = RULES_DUEL;
}

/* The pool of POOL sheet pairs and order pairs for `rules`, drawn from a
 * fixed seed (the caller frees both). */
static void pool_fill(enum rules rules, struct sheet (**sheets)[SIDES],
                      struct order (**orders)[SIDES])
{
    struct rng gen;

    *sheets = xmalloc(POOL * sizeof(**sheets));
    *orders = xmalloc(POOL * sizeof(**orders));
    rng_seed(&gen, 20240601, (uint64_t)rules);
    for (int i = 0; i < POOL; i++)
        for (int s = 0; s < SIDES; s++) {
            if (rules == RULES_BOXING) {
                boxing_sheet_random(&gen, &(*sheets)[i][s]);
                boxing_order_random(&gen, &(*orders)[i][s]);
            } else if (rules == RULES_DUEL) {
                duel_sheet_random(&gen, &(*sheets)[i][s]);
                duel_order_fight(&(*orders)[i][s]);
            } else {
                sugarray_sheet_random(&gen, &(*sheets)[i][s]);
                sugarray_order_random(&gen, &(*orders)[i][s]);
            }
        }
}

/* Fights bouts `first` .. first + n - 1 of `rules` from the pool (bout k:
 * sheets k, seed k, orders from entry 7k + round); returns the rounds
 * fought and adds a digest of the results to *sink so nothing is
 * optimised away. */
static unsigned long fight_bouts(enum rules rules, struct sheet (*sheets)[SIDES],
                                 struct order (*orders)[SIDES], unsigned long first,
                                 unsigned long n, unsigned long *sink)
{
    struct bout_rng br;
    struct events evs;
    struct bout b;
    unsigned long rounds = 0;

    for (unsigned long bouts = first; bouts < first + n; bouts++) {
        if (bout_init(&b, rules, sheets[bouts % POOL], 0) != 0) {
            fprintf(stderr, "bench: the engine refused a bout\n");
            exit(1);
        }
        bout_rng_seed(&br, bouts);
        while (!b.result.over) {
            /* Orders change every round, from a different pool entry. */
            const struct order *o = orders[(bouts * 7 + (unsigned long)b.round) % POOL];
            if (bout_round(&b, o, &br, &evs) != 0) {
                fprintf(stderr, "bench: the engine refused a round\n");
                exit(1);
            }
            rounds++;
        }
        *sink += (unsigned long)(b.result.winner + 1) + (unsigned long)b.result.round;
    }
    return rounds;
}

/* Runs bouts of `rules` for about `seconds`; returns rounds per second,
 * sets *per_bout to the bouts' average length in rounds, and adds a digest
 * of the results to *sink. */
static double bench_rules(enum rules rules, double seconds, double *per_bout, unsigned long *sink)
{
    struct sheet(*sheets)[SIDES];
    struct order(*orders)[SIDES];
    unsigned long rounds = 0, bouts = 0;

    pool_fill(rules, &sheets, &orders);
    double t0 = cpu_seconds_now(), elapsed = 0;
    for (;;) {
        rounds += fight_bouts(rules, sheets, orders, bouts, CHECK_EVERY, sink);
        bouts += CHECK_EVERY;
        elapsed = cpu_seconds_now() - t0;
        if (elapsed >= seconds)
            break;
    }
    free(sheets);
    free(orders);
    *per_bout = (double)rounds / (double)bouts;
    return (double)rounds / elapsed;
}

/* `ringside-bench bouts RULESET N`: exactly N bouts of the bench's, no
 * clock, and the rounds they took, so that an instruction count of the
 * whole run (valgrind --tool=callgrind) divided by them is the engine's
 * per round (the pool and the process's start are a few hundred thousand
 * of it). */
static int bench_count(const char *name, const char *count)
{
    const struct ruleset *rs = ruleset_find(name);
    char *end;
    unsigned long n = strtoul(count, &end, 10);
    unsigned long sink = 0;
    struct sheet(*sheets)[SIDES];
    struct order(*orders)[SIDES];

    if (!rs || *end != '\0' || *count == '\0' || count[0] == '-') {
        fprintf(stderr, "bench: usage: ringside-bench bouts RULESET N (boxing, sugarray or duel; "
                        "N bouts, 0 or more)\n");
        return 2;
    }
    pool_fill(rs->id, &sheets, &orders);
    unsigned long rounds = fight_bouts(rs->id, sheets, orders, 0, n, &sink);
    free(sheets);
    free(orders);
    printf("engine.%s.bouts %lu bouts\nengine.%s.rounds %lu rounds\n", rs->name, n, rs->name,
           rounds);
    return 0;
}

/* A 40-line plan with conditionals, as a strong player writes them. */
static const char bench_plan[] = "1) 5/5/10 (ring)\n"
                                 "if opp = weak and endurance_percent > 60 then 8/8/4 (allout)\n"
                                 "if hiscuts >= 3 then 6H/8/6 (inside)\n"
                                 "if score < -2 and round > 6 then 7/7/6\n"
                                 "if warnings >= 2 then 5/5/10\n"
                                 "2) 4/8/8 (ring)\n"
                                 "if endurance_percent < 40 then 3/3/14 (clinch)\n"
                                 "if mycuts > 2 or myknockdowns > 0 then 3/5/12 (ring)\n"
                                 "if roundswon > roundslost + 2 then 4/6/10 (outside)\n"
                                 "if endurance > 80 and opp is tired then 6B/7/7 (cut)\n"
                                 "3) 5/6/9\n"
                                 "if (round - 1) * 4 > 100 - endurance_percent then 4/6/10 (ring)\n"
                                 "if not (opp = strong) then 6/7/7 (inside)\n"
                                 "if hisknockdowns >= 1 then 7H/8/5 (allout)\n"
                                 "if score > 3 then 3/5/12 (outside)\n"
                                 "4) 5/5/10 (counter)\n"
                                 "if endurance_percent < 30 and score < 0 then towel\n"
                                 "if round = 4 or round = 8 then 6/6/8 (feint)\n"
                                 "if mycuts * 2 + myknockdowns >= 4 then 3/4/13 (clinch)\n"
                                 "if endurance / 2 > 40 then 5/7/8\n"
                                 "5) 4/7/9 (ring)\n"
                                 "if opp = weak then 7/8/5\n"
                                 "if score <= 0 and roundslost >= 3 then 6H/7/7 (inside)\n"
                                 "if endurance_percent >= 70 then 5/6/9 (cut)\n"
                                 "if warnings = 0 and hiscuts > 0 then 5H/7!/8\n"
                                 "6) 4/6/10\n"
                                 "if endurance_percent < 50 then 3/5/12 (clinch)\n"
                                 "if round >= 10 and score < 0 then 7/8/5 (allout)\n"
                                 "if opp != strong and endurance_percent > 50 then 6/7/7\n"
                                 "if roundswon >= 5 then 4/5/11 (outside)\n"
                                 "8) 5/5/10 (ring)\n"
                                 "if score < -3 then 8/8/4 (allout)\n"
                                 "if mycuts >= 4 then 3/3/14 (clinch)\n"
                                 "if endurance_percent < 20 then towel\n"
                                 "10) 5/6/9\n"
                                 "if score > 0 then 3/4/13 (outside)\n"
                                 "if score < 0 and opp <= tired then 7/8/5\n"
                                 "12) 6/7/7 (allout)\n"
                                 "if score > 2 then 2/4/14 (clinch)\n"
                                 "if score < -1 then 8/8/4 (allout)\n";

/* Plan evaluations per second over varied bout states. */
static double bench_plan_evals(double seconds, unsigned long *sink)
{
    struct parse_error err;
    struct plan *p = plan_compile(RULES_BOXING, bench_plan, &err);
    struct plan_vars v[64];
    struct rng g;
    long evals = 0;

    if (!p) {
        fprintf(stderr, "bench: the bench plan does not compile: %s\n", err.reason);
        exit(1);
    }
    rng_seed(&g, 42, 0);
    for (int i = 0; i < 64; i++) {
        memset(&v[i], 0, sizeof(v[i]));
        v[i].round = rng_range(&g, 1, 12);
        v[i].rounds_won = rng_range(&g, 0, 6);
        v[i].rounds_lost = rng_range(&g, 0, 6);
        v[i].score = rng_range(&g, -6, 6) / 3.0;
        v[i].endurance_percent = rng_range(&g, 5, 100);
        v[i].endurance = v[i].endurance_percent * 1.2;
        v[i].opp = rng_range(&g, 0, 2);
        v[i].my_cuts = rng_range(&g, 0, 5);
        v[i].his_cuts = rng_range(&g, 0, 5);
        v[i].warnings = rng_range(&g, 0, 2);
    }
    double t0 = cpu_seconds_now(), t;
    do {
        for (int k = 0; k < 10000; k++) {
            struct order o;
            *sink += (unsigned long)plan_eval(p, &v[k & 63], &o) + (unsigned long)o.u.boxing.agg;
        }
        evals += 10000;
        t = cpu_seconds_now() - t0;
    } while (t < seconds);
    plan_free(p);
    return evals / t;
}

/* A fresh database in dir[] with RATING_FIGHTERS boxers and `nbouts`
 * finished bouts between them (the ratings' history refers to its bout).
 * Returns it; exits on a failure. */
#define RATING_FIGHTERS 1000
#define RATING_TXN      100 /* bouts to a transaction, as a league turn */
static struct db *rating_db(char *dir, int nbouts, int64_t *ids)
{
    char path[96], err[256];
    int64_t acc;

    snprintf(dir, 64, "/tmp/ringside-bench-XXXXXX");
    snprintf(path, sizeof(path), "%s/ringside.db", mkdtemp(dir) ? dir : "/tmp");
    struct db *db = db_open(path, err, (int)sizeof(err));
    int ok = db && db_begin(db) == DB_OK &&
             db_account_create(db, "bench", "bench", "$y$x", 0, &acc) == DB_OK;
    for (int i = 0; ok && i < RATING_FIGHTERS; i++) {
        struct db_fighter f;
        char key[DB_NAME_MAX];
        memset(&f, 0, sizeof(f));
        f.account_id = acc;
        snprintf(f.name, sizeof(f.name), "Boxer%d", i);
        snprintf(key, sizeof(key), "boxer%d", i);
        f.sheet.rules = RULES_BOXING;
        f.sheet.u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12};
        ok = db_fighter_create(db, key, &f) == DB_OK;
        ids[i] = f.id;
    }
    for (int i = 0; ok && i < nbouts; i++) {
        struct db_bout b;
        memset(&b, 0, sizeof(b));
        b.rules = RULES_BOXING;
        snprintf(b.channel, sizeof(b.channel), "#bench");
        b.rounds = 12;
        b.state = DB_BOUT_OVER;
        b.kind = DB_BOUT_LEAGUE;
        b.league = LEAGUE_BRONZE;
        b.turn = 1;
        b.fighter[0] = ids[(i * 7) % RATING_FIGHTERS];
        b.fighter[1] = ids[(i * 7 + 1 + i % 13) % RATING_FIGHTERS];
        b.sheet[0].rules = b.sheet[1].rules = RULES_BOXING;
        b.sheet[0].u.boxing = b.sheet[1].u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12};
        b.winner = i % 5 == 4 ? -1 : i % 2;
        b.round = 12;
        b.ended = 1700000000 + i;
        ok = db_bout_create(db, &b) == DB_OK;
    }
    if (!ok || db_commit(db) != DB_OK) {
        fprintf(stderr, "bench: cannot make the ratings' database: %s\n", db ? db_errmsg(db) : err);
        exit(1);
    }
    return db;
}

/* One bout's rating update as game/rating.c's rating_bout_store makes it:
 * both ratings read (a newcomer's when none), updated, written. */
static int rating_one(struct db *db, const struct db_bout *b)
{
    struct db_rating was[SIDES];

    for (int s = 0; s < SIDES; s++) {
        int rc = db_rating_get(db, b->fighter[s], RULES_BOXING, &was[s]);
        if (rc == DB_NOTFOUND)
            was[s] = (struct db_rating){RATING_START, RATING_RD_START, RATING_VOL_START, 0};
        else if (rc != DB_OK)
            return -1;
    }
    for (int s = 0; s < SIDES; s++) {
        struct rating me = {was[s].rating, was[s].rd, was[s].vol};
        struct rating them = {was[!s].rating, was[!s].rd, was[!s].vol};
        double score = b->winner < 0 ? 0.5 : b->winner == s ? 1.0 : 0.0;
        rating_update(&me, &them, &score, 1, RATING_TAU);
        struct db_rating now = {me.r, me.rd, me.vol, was[s].bouts + 1};
        if (db_rating_put(db, b->fighter[s], RULES_BOXING, &now, b->id, s, was[s].rating,
                          b->ended) != DB_OK)
            return -1;
    }
    return 0;
}

/* Bouts' rating updates per second, for about `seconds` (or until the
 * bouts made beforehand run out). */
static double bench_ratings(double seconds)
{
    char dir[64], cmd[96];
    int nbouts = seconds < 0.5 ? 20000 : 100000;
    int64_t *ids = xmalloc(RATING_FIGHTERS * sizeof(*ids));
    struct db *db = rating_db(dir, nbouts, ids);
    long done = 0;
    double t0 = seconds_now(), t = 0;

    for (int64_t id = 1; id <= nbouts && t < seconds; id += RATING_TXN) {
        int ok = db_begin(db) == DB_OK;
        for (int64_t k = id; ok && k < id + RATING_TXN && k <= nbouts; k++, done++) {
            struct db_bout b;
            ok = db_bout_get(db, k, &b) == DB_OK && rating_one(db, &b) == 0;
        }
        if (!ok || db_commit(db) != DB_OK) {
            fprintf(stderr, "bench: a rating update failed: %s\n", db_errmsg(db));
            exit(1);
        }
        t = seconds_now() - t0;
    }
    db_close(db);
    free(ids);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: %s was not removed\n", dir);
    return done / (t > 0 ? t : 1e-9);
}

int main(int argc, char **argv)
{
    double seconds = DEFAULT_SECONDS;
    unsigned long sink = 0;
    const char *arg = argc > 1 ? argv[1] : getenv("BENCH_SECONDS");

    if (argc > 1 && strcmp(argv[1], "bouts") == 0) {
        if (argc != 4) {
            fprintf(stderr, "bench: usage: ringside-bench bouts RULESET N\n");
            return 2;
        }
        return bench_count(argv[2], argv[3]);
    }

    /* An empty BENCH_SECONDS counts as unset. */
    if (arg && (argc > 1 || *arg != '\0')) {
        char *end;
        seconds = strtod(arg, &end);
        if (*end != '\0' || !(seconds > 0 && seconds <= 60)) {
            fprintf(stderr, "bench: usage: [BENCH_SECONDS=S] ringside-bench [SECONDS]; "
                            "seconds above 0, at most 60 (or ringside-bench bouts RULESET N)\n");
            return 2;
        }
    }
    double per_bout;
    double boxing = bench_rules(RULES_BOXING, seconds, &per_bout, &sink);
    printf("engine.boxing.rounds_per_sec %.0f rounds/s\n", boxing);
    printf("engine.boxing.rounds_per_bout %.2f rounds\n", per_bout);
    double sugarray = bench_rules(RULES_SUGARRAY, seconds, &per_bout, &sink);
    printf("engine.sugarray.rounds_per_sec %.0f rounds/s\n", sugarray);
    double duel = bench_rules(RULES_DUEL, seconds, &per_bout, &sink);
    printf("engine.duel.rounds_per_sec %.0f rounds/s\n", duel);
    double plans = bench_plan_evals(seconds, &sink);
    printf("engine.plan.evals_per_sec %.0f evals/s\n", plans);
    printf("rating.updates_per_sec %.0f updates/s\n", bench_ratings(seconds));
    /* The digest only keeps the work observable; it is not a figure. */
    if (sink == 0)
        fprintf(stderr, "bench: no bout was fought\n");
    return 0;
}
