/*
 * bench_pg.c - the PostgreSQL figures (issue 29) beside SQLite's:
 *
 *   sqlite.round_commit_p50_ms, _p99_ms   a live round's transaction on a
 *                                         SQLite file (the bot's own open)
 *   sqlite.round_commit_cpu_us            its processor time (the median)
 *   pg.round_commit_p50_ms, _p99_ms       the same on PostgreSQL
 *   pg.round_commit_cpu_us                its processor time, the bot's and
 *                                         the server's (the median)
 *   pg.league_turn_10000_fighters_ms      the league turn of 10,000 boxers
 *                                         of bench_bot.c, on PostgreSQL
 *   pg.league_turn_10000_cpu_ms           the same turn's processor time,
 *                                         the bot's and the server's
 *
 * Usage: tests/pg.sh run ringside-bench-pg BENCH_BOT (make bench): pg.sh
 * starts a throwaway server (a Unix socket, no fsync, no synchronous
 * commit: no figure here counts a disk flush) and names it in
 * RINGSIDE_TEST_PG; each measure runs in a schema of its own there, an
 * empty database as far as db_open can tell.
 *
 * A round's transaction is what game/bout.c's round_store writes in one:
 * both orders, the round's digest and the bout; at a bout's end also both
 * fighters, their ratings (rating_bout_store), the tournament's bracket
 * (tournament_bout_store) and the predictions' scores (predict_store, which
 * reads them after the round they close and at the end). Each is timed
 * from db_begin to db_commit's return, ROUNDS rounds of BOUTS bouts in
 * turn, after one bout not timed (the statements' first preparation).
 *
 * The league turn is bench_bot.c's own (`BENCH_BOT league 10000`, its
 * setup and its turn), run with RINGSIDE_BENCH_LEAGUE_DB naming a fresh
 * schema of the server: the figure is its league.turn_10000_fighters_ms.
 * Its processor time is measured on the same turn run here, in a schema
 * of its own (the same fighters, plans and seed), where this process
 * knows its server process: the figure a loaded machine disturbs least
 * (most of a turn on PostgreSQL is the server's work).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "game_internal.h"
#include "sql.h"
#include "quiet_io.h"

#define BOUTS  25 /* timed bouts of ROUNDS rounds: 300 transactions */
#define ROUNDS 12

static void fail(const char *what, const char *why)
{
    fprintf(stderr, "bench_pg: %s: %s\n", what, why);
    exit(1);
}

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The URI of schema `name` of the server at `base` (made if new) into
 * uri[size], as tests/test_db.h makes one. */
static void schema_uri(const char *base, const char *name, char *uri, size_t size)
{
    char err[256], sql[128];
    struct db *admin = db_open(base, err, sizeof(err));

    if (!admin)
        fail(base, err);
    snprintf(sql, sizeof(sql), "CREATE SCHEMA %s", name);
    struct dbs *q = dbs_prepare(admin, sql);
    if (!q || dbs_run(q) != DBS_DONE)
        fail(sql, db_errmsg(admin));
    dbs_free(q);
    db_close(admin);
    snprintf(uri, size, "%s%coptions=-csearch_path%%3D%s", base, strchr(base, '?') ? '&' : '?',
             name);
}

/* Two boxers of one account, as a challenge's corners. */
static void corners_make(struct db *db, struct db_fighter f[SIDES])
{
    int64_t owner;

    if (db_account_create(db, "rc", "rc", "$y$x", 0, &owner) != DB_OK)
        fail("account", db_errmsg(db));
    for (int s = 0; s < SIDES; s++) {
        memset(&f[s], 0, sizeof(f[s]));
        f[s].account_id = owner;
        snprintf(f[s].name, sizeof(f[s].name), "corner%d", s);
        f[s].sheet.rules = RULES_BOXING;
        f[s].sheet.u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12};
        if (db_fighter_create(db, f[s].name, &f[s]) != DB_OK)
            fail("fighter", db_errmsg(db));
    }
}

/* A live exhibition of f[0] and f[1] in #ringside, as game/bout.c starts
 * one (not timed). */
static void bout_start(struct db *db, const struct db_fighter f[SIDES], struct db_bout *rec)
{
    memset(rec, 0, sizeof(*rec));
    rec->rules = RULES_BOXING;
    snprintf(rec->channel, sizeof(rec->channel), "#ringside");
    rec->rounds = ROUNDS;
    rec->winner = -1;
    rec->created = quiet_wall(NULL);
    for (int s = 0; s < SIDES; s++) {
        rec->fighter[s] = f[s].id;
        rec->sheet[s] = f[s].sheet;
    }
    if (db_bout_create(db, rec) != DB_OK)
        fail("bout", db_errmsg(db));
    rec->state = DB_BOUT_LIVE;
    rec->seed = 0x5eed0000u + (uint64_t)rec->id;
    rec->started = rec->created;
    if (db_bout_save(db, rec) != DB_OK)
        fail("bout start", db_errmsg(db));
}

/* Round `round` of rec stored as round_store stores it; returns its time
 * (ms), from db_begin to db_commit's return. The last round ends the bout:
 * side 0 wins on the cards. */
static double round_commit(struct game *g, struct db *db, struct db_bout *rec,
                           struct db_fighter f[SIDES], int round)
{
    struct db_order o[SIDES];
    struct predict_round *pred = NULL;
    int over = round == rec->rounds;

    for (int s = 0; s < SIDES; s++)
        o[s] = (struct db_order){.round = round, .side = s, .text = "5/5/10"};
    rec->round = round;
    rec->digest = rec->seed * 1000003u + (uint64_t)round;
    rec->has_digest = 1;
    if (over) {
        rec->state = DB_BOUT_OVER;
        rec->winner = 0;
        rec->method = METHOD_DECISION;
        rec->decision = DECISION_UNANIMOUS;
        rec->ended = quiet_wall(NULL);
        f[0].wins++;
        f[1].losses++;
    }
    double t0 = now_ms();
    int ok =
        db_begin(db) == DB_OK && db_order_put(db, rec->id, &o[0]) == DB_OK &&
        db_order_put(db, rec->id, &o[1]) == DB_OK &&
        db_round_put(db, rec->id, round, rec->digest) == DB_OK && db_bout_save(db, rec) == DB_OK &&
        (!over || (db_fighter_save(db, &f[0]) == DB_OK && db_fighter_save(db, &f[1]) == DB_OK &&
                   rating_bout_store(g, rec, NULL) == 0 && tournament_bout_store(g, rec) == 0)) &&
        predict_store(g, rec, round, over, &pred) == 0 && db_commit(db) == DB_OK;
    double t = now_ms() - t0;
    predict_round_free(pred);
    if (!ok)
        fail("round", db_errmsg(db));
    return t;
}

/* The processor time this thread has used, in microseconds. */
static double thread_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* The processor time process `pid` has used, in microseconds (the first
 * field of /proc/PID/schedstat, in ns); 0 for pid 0 or when unreadable. */
static double process_us(long pid)
{
    char name[64];
    double ns = 0;

    if (pid <= 0)
        return 0;
    snprintf(name, sizeof(name), "/proc/%ld/schedstat", pid);
    FILE *f = fopen(name, "r");
    if (f) {
        if (fscanf(f, "%lf", &ns) != 1)
            ns = 0;
        fclose(f);
    }
    return ns / 1e3;
}

/* The server process of db's connection on PostgreSQL (the server runs
 * on this machine: tests/pg.sh's), or 0 on SQLite. */
static long backend_pid(struct db *db, const char *path)
{
    if (strncmp(path, "postgres", 8) != 0)
        return 0;
    struct dbs *q = dbs_prepare(db, "SELECT pg_backend_pid()");
    long pid = q && dbs_step(q) == DBS_ROW ? (long)dbs_col_int64(q, 0) : 0;
    dbs_free(q);
    return pid;
}

/* BOUTS bouts' rounds on the database at `path` (a file or a URI); prints
 * `<prefix>.round_commit_p50_ms` and `_p99_ms`, and the median processor
 * time of a round, this process's and the server's (PostgreSQL's backend:
 * what a loaded machine disturbs least), `<prefix>.round_commit_cpu_us`. */
static void rounds_bench(const char *path, const char *prefix)
{
    const struct game_io io = quiet_io("bench_pg");
    const struct game_config gc = {.order_timeout = 120, .challenge_timeout = 300, .rounds = 12};
    char err[256];
    struct db_fighter f[SIDES];
    struct db_bout rec;
    double lat[BOUTS * ROUNDS], cpu[BOUTS * ROUNDS];
    int n = 0;

    struct db *db = db_open(path, err, sizeof(err));
    if (!db)
        fail(path, err);
    corners_make(db, f);
    struct game *g = game_new(db, &io, &gc, err, sizeof(err));
    if (!g)
        fail("game", err);
    long server = backend_pid(db, path);
    for (int b = 0; b <= BOUTS; b++) {
        bout_start(db, f, &rec);
        for (int r = 1; r <= ROUNDS; r++) {
            double c0 = thread_us() + process_us(server);
            double t = round_commit(g, db, &rec, f, r);
            double c = thread_us() + process_us(server) - c0;
            if (b > 0) { /* the first bout prepares the statements */
                lat[n] = t;
                cpu[n++] = c;
            }
        }
    }
    game_free(g);
    db_close(db);
    qsort(lat, (size_t)n, sizeof(lat[0]), cmp_double);
    printf("%s.round_commit_p50_ms %.3f ms\n", prefix, lat[n / 2]);
    printf("%s.round_commit_p99_ms %.3f ms\n", prefix, lat[(n * 99) / 100]);
    qsort(cpu, (size_t)n, sizeof(cpu[0]), cmp_double);
    printf("%s.round_commit_cpu_us %.1f us\n", prefix, cpu[n / 2]);
    fflush(stdout);
}

/* The boxers of bench_bot.c's league bench: n of one account, with
 * plans, in three leagues. */
static void league_fighters(struct db *db, int n)
{
    static const char *const plans[] = {
        "1) 5/5/10 (ring); 4) 4H/8/8 (inside); if endurance_percent < 40 then 3/3/14 (clinch)",
        "6/6/8; if opp = weak then 8/8/4 (allout)",
        "5/4/11 (counter); 6) 5B/7/8 (cut)",
    };
    int64_t owner;

    if (db_account_create(db, "gm", "gm", "$y$x", 0, &owner) != DB_OK || db_begin(db) != DB_OK)
        fail("league", db_errmsg(db));
    for (int i = 0; i < n; i++) {
        struct db_fighter f;
        char key[DB_NAME_MAX];
        memset(&f, 0, sizeof(f));
        f.account_id = owner;
        snprintf(f.name, sizeof(f.name), "L%d", i);
        snprintf(key, sizeof(key), "l%d", i);
        f.sheet.rules = RULES_BOXING;
        f.sheet.u.boxing = (struct boxing_sheet){10 + i % 5, 12, 14 - i % 5, 12, 12};
        f.league = i % LEAGUE_COUNT;
        if (db_fighter_create(db, key, &f) != DB_OK ||
            db_plan_set(db, f.id, plans[i % 3], 0) != DB_OK)
            fail("league", db_errmsg(db));
    }
    if (db_commit(db) != DB_OK)
        fail("league", db_errmsg(db));
}

/* bench_bot's league turn of 10,000 boxers on the PostgreSQL schema `uri`
 * (empty), run here: its processor time, this process's and the server's,
 * printed as pg.league_turn_10000_cpu_ms. */
static void league_cpu(const char *uri)
{
    const struct game_io io = quiet_io("bench_pg");
    const struct game_config gc = {.order_timeout = 120, .challenge_timeout = 300, .rounds = 12};
    char err[256], lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX];
    int nlines;

    struct db *db = db_open(uri, err, sizeof(err));
    if (!db)
        fail(uri, err);
    league_fighters(db, 10000);
    struct game *g = game_new(db, &io, &gc, err, sizeof(err));
    if (!g)
        fail("game", err);
    long server = backend_pid(db, uri);
    double c0 = thread_us() + process_us(server);
    if (league_turn(g, RULES_BOXING, 42, "#ringside", lines, &nlines, err, sizeof(err)) != 0)
        fail("league turn", err);
    double c = thread_us() + process_us(server) - c0;
    game_free(g);
    db_close(db);
    printf("pg.league_turn_10000_cpu_ms %.0f ms\n", c / 1e3);
    fflush(stdout);
}

/* bench_bot's league turn of 10,000 boxers on PostgreSQL (`uri`, an empty
 * schema): its figure, printed as pg.league_turn_10000_fighters_ms. */
static void league_bench(const char *bench_bot, const char *uri)
{
    char cmd[512], line[256];
    double ms = -1;

    snprintf(cmd, sizeof(cmd), "'%s' league 10000", bench_bot);
    if (setenv("RINGSIDE_BENCH_LEAGUE_DB", uri, 1) != 0)
        fail("setenv", "RINGSIDE_BENCH_LEAGUE_DB");
    FILE *p = popen(cmd, "r");
    if (!p)
        fail(cmd, "cannot run it");
    /* Its other lines (the client's processor time, its memory) would
     * pass for the SQLite figures of the same names: not printed. */
    while (fgets(line, sizeof(line), p))
        sscanf(line, "league.turn_10000_fighters_ms %lf ms", &ms);
    if (pclose(p) != 0 || ms < 0)
        fail(cmd, "failed, or printed no league.turn_10000_fighters_ms");
    unsetenv("RINGSIDE_BENCH_LEAGUE_DB");
    printf("pg.league_turn_10000_fighters_ms %.0f ms\n", ms);
}

int main(int argc, char **argv)
{
    const char *base = getenv("RINGSIDE_TEST_PG");
    char dir[] = "/tmp/ringside-benchpg-XXXXXX", path[64], uri[1024];

    if (argc != 2 || !base || !*base) {
        fprintf(stderr, "usage: tests/pg.sh run ringside-bench-pg BENCH_BOT (RINGSIDE_TEST_PG "
                        "names the PostgreSQL server)\n");
        return 2;
    }
    if (!mkdtemp(dir))
        fail("mkdtemp", dir);
    snprintf(path, sizeof(path), "%s/rounds.db", dir);
    rounds_bench(path, "sqlite");
    snprintf(uri, sizeof(uri), "rm -rf '%s'", dir);
    if (system(uri) != 0)
        fprintf(stderr, "bench_pg: %s was not removed\n", dir);
    schema_uri(base, "rounds", uri, sizeof(uri));
    rounds_bench(uri, "pg");
    schema_uri(base, "league", uri, sizeof(uri));
    league_bench(argv[1], uri);
    schema_uri(base, "leaguecpu", uri, sizeof(uri));
    league_cpu(uri);
    return 0;
}
