/*
 * bench_bot.c - the bot's live-bout figures, without a server:
 *
 *   bot.round_latency_1_median_ms, _p99_ms      one bout at a time
 *   bot.round_latency_200_median_ms, _p99_ms    200 bouts at once
 *   bot.rss_200_bouts_kb                        resident memory then
 *   bot.round_latency_500_median_ms, _p99_ms    500 bouts at once
 *   bot.rss_500_bouts_kb                        resident memory then
 *   bot.round_latency_5000_median_ms, _p99_ms   5,000 bouts at once (the
 *                                               first BIG_ROUNDS rounds)
 *   bot.round_cpu_5000_median_ms, _p99_ms       their processor time (the
 *                                               thread's: what other load on
 *                                               the machine disturbs least)
 *   bot.rss_5000_bouts_kb                       resident memory then
 *   league.turn_1000_fighters_ms                a league turn, 1,000 boxers
 *   league.turn_10000_fighters_ms               10,000 (the median of three)
 *   league.turn_10000_cpu_ms                    and its processor time (the
 *                                               median of the same three:
 *                                               the figure a loaded machine
 *                                               disturbs least)
 *   league.turn_10000_checkpoint_ms             the WAL checkpoint after it,
 *                                               at the game's next tick (not
 *                                               in the turn: db_league_wal)
 *   league.turn_100000_fighters_ms              and 100,000, in a process of
 *   league.turn_100000_cpu_ms                   its own: the processor time,
 *   league.turn_100000_peak_rss_mb              and the resident memory's
 *                                               peak during the turn
 *   league.turn_100000_checkpoint_ms            and its checkpoint
 *   tournament.bracket_32_plans_ms              a 32-fighter tournament fought
 *                                               from the plans, every round
 *
 * The latency is the time from the second order of a round arriving (the
 * private message handed to the command layer) to the first commentary
 * line of that round being in the output queue: validation, storing the
 * order, the engine, the commentary and the round's transaction on a real
 * SQLite file. The IRC wire is not part of it.
 *
 * League turns run through the game alone (game/), with an io that says
 * nothing: no bot, no IRC.
 *
 * `ringside-bench-bot floor N` prints the machine's floor under
 * bench/peers_bench.py's CPU figures: the processor time a minimal loop
 * (this process, nothing else in it) spends on one wakeup, N of each kind,
 * against a peer process on loopback TCP:
 *   floor.answer_us   woken by a line (the peer's 51-byte PRIVMSG), read it
 *                     and answer with one 82-byte line (a command's turn)
 *   floor.paced_us    woken by its own timeout, send one line (a paced
 *                     line's turn)
 * each the median of N/20 batches of 20 (CLOCK_THREAD_CPUTIME_ID: the same
 * count as /proc/PID/task/TID/schedstat). The peer waits 5 ms between
 * lines, so that every line finds the loop asleep in pselect(2).
 *
 * `ringside-bench-bot minbot PORT NICK` is the least a bot can do on the
 * same bench's server (minbot below): the peers bench runs it after the
 * bots' rounds, with the same clients, for floor.minimal_bot_*.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bot.h"
#include "quiet_io.h"

#define ROUNDS     12
#define BIG        5000 /* bouts at once in the largest run */
#define BIG_ROUNDS 3    /* its rounds measured: 15,000 latencies are plenty */
/* One bout, then 200, then 500, then BIG at once. */
#define PLAYERS (2 + 2 * 200 + 2 * 500 + 2 * BIG)
#define SMALL   (2 + 2 * 200 + 2 * 500) /* made first: the 200 and 500 figures as before */

static struct bot bot;
static char dir[64];

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* This thread's processor time: a round's own cost, whatever else runs. */
static double thread_cpu_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void drain(void)
{
    char line[OUTQ_LINE_MAX];

    for (double t = bot.now + 1e9; outq_len(bot.q) > 0; t += 1)
        outq_pop(bot.q, t, line);
}

static void fail(const char *what)
{
    fprintf(stderr, "bench_bot: %s\n", what);
    exit(1);
}

/* A player with one boxer, identified, without hashing a password. */
static void player(int i)
{
    char nick[32], hash[DB_HASH_MAX], key[DB_NAME_MAX];
    struct db_fighter f;
    int64_t id;

    snprintf(nick, sizeof(nick), "p%d", i);
    if (i == 0 && password_hash("benchpass", hash, sizeof(hash)) != 0)
        fail("hash");
    static char first[DB_HASH_MAX];
    if (i == 0)
        memcpy(first, hash, sizeof(first));
    if (db_account_create(bot.db, nick, nick, first, 0, &id) != DB_OK)
        fail(db_errmsg(bot.db));
    users_join(bot.users, nick, 0);
    users_login(bot.users, nick, id, nick);
    memset(&f, 0, sizeof(f));
    f.account_id = id;
    snprintf(f.name, sizeof(f.name), "Boxer%d", i);
    f.sheet.rules = RULES_BOXING;
    f.sheet.u.boxing = (struct boxing_sheet){12 + i % 3, 12, 12 - i % 3, 12, 12};
    bot_name_key(key, f.name, sizeof(key));
    if (db_fighter_create(bot.db, key, &f) != DB_OK)
        fail(db_errmsg(bot.db));
}

static void say(int i, const char *channel, const char *text)
{
    char nick[32];

    snprintf(nick, sizeof(nick), "p%d", i);
    bot.now += 3; /* keep every player under the inbound rate */
    cmd_dispatch(&bot, nick, channel, text);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static long rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;

    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kb = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return kb;
}

/* Fights `n` bouts at once between players first..first+2n-1, round by
 * round, `rounds` of them at most (the bouts left live are forfeited);
 * fills lat[] with each round's latency (and cpu[], unless NULL, with its
 * processor time) and returns how many were measured. *rss gets the
 * resident memory once every bout is live. */
static int run(int n, int first, int rounds, double *lat, double *cpu, long *rss)
{
    static const char *const orders[] = {"5/5/10 (ring)", "4H/8/8 (inside)", "6/6/8",
                                         "3/5/12 (clinch)", "5B/7/8 (cut)"};
    int m = 0;

    for (int b = 0; b < n; b++) {
        char line[64];
        snprintf(line, sizeof(line), "!challenge p%d", first + 2 * b + 1);
        say(first + 2 * b, "#ringside", line);
        say(first + 2 * b + 1, "#ringside", "!accept");
    }
    drain();
    if (game_live(bot.game) != n)
        fail("the bouts did not start");
    *rss = rss_kb();
    for (int r = 0; r < rounds && game_live(bot.game) > 0; r++) {
        for (int b = 0; b < n; b++)
            say(first + 2 * b, NULL, orders[(b + r) % 5]);
        drain();
        for (int b = 0; b < n; b++) {
            int before = outq_len(bot.q);
            double c0 = thread_cpu_ms(), t0 = now_ms();
            say(first + 2 * b + 1, NULL, orders[(b + 2 * r + 1) % 5]);
            double t1 = now_ms(), c1 = thread_cpu_ms();
            if (outq_len(bot.q) > before + 1) { /* the ack, then the commentary */
                if (cpu)
                    cpu[m] = c1 - c0;
                lat[m++] = t1 - t0;
            }
        }
        drain();
    }
    for (int b = 0; b < n && game_live(bot.game) > 0; b++)
        say(first + 2 * b, NULL, "forfeit yes");
    drain();
    if (game_live(bot.game) != 0)
        fail("the bouts did not end");
    return m;
}

/* A line of /proc/self/status in kB ("VmHWM:"), or -1. */
static long status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;

    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, field, strlen(field)) == 0)
            kb = strtol(line + strlen(field), NULL, 10);
    if (f)
        fclose(f);
    return kb;
}

/* Starts the resident memory's peak (VmHWM) over from what is resident now
 * (Linux's clear_refs 5), so that it says what came after. Where that
 * cannot be done the peak covers the whole process, setting up included. */
static void peak_reset(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");

    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

static double cpu_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A league turn of `n` boxers with plans, in a fresh database; returns its
 * time in milliseconds; if peak is not NULL the resident memory's peak
 * during it in kB into *peak, and if cpu is not NULL the processor time it
 * took (ms) into *cpu: on a shared machine the wall-clock time says how
 * loaded it was; if ckpt is not NULL the time (ms) of the game's next tick,
 * which checkpoints the turn's WAL, into *ckpt. */
static double league_bench(int n, long *peak, double *cpu, double *ckpt)
{
    static const char *const plans[] = {
        "1) 5/5/10 (ring); 4) 4H/8/8 (inside); if endurance_percent < 40 then 3/3/14 (clinch)",
        "6/6/8; if opp = weak then 8/8/4 (allout)",
        "5/4/11 (counter); 6) 5B/7/8 (cut)",
    };
    const struct game_io io = quiet_io("bench_bot");
    const struct game_config gc = {.order_timeout = 120, .challenge_timeout = 300, .rounds = 12};
    char path[160], err[256], key[DB_NAME_MAX];
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX];
    int64_t owner;
    int nlines;

    snprintf(path, sizeof(path), "%s/league%d.db", dir, n);
    /* bench_pg.c's hook: an empty PostgreSQL schema's URI in its place. */
    const char *other = getenv("RINGSIDE_BENCH_LEAGUE_DB");
    if (other && *other)
        snprintf(path, sizeof(path), "%s", other);
    struct db *db = db_open(path, err, sizeof(err));
    if (!db)
        fail(err);
    if (db_account_create(db, "gm", "gm", "$y$x", 0, &owner) != DB_OK || db_begin(db) != DB_OK)
        fail(db_errmsg(db));
    for (int i = 0; i < n; i++) {
        struct db_fighter f;
        memset(&f, 0, sizeof(f));
        f.account_id = owner;
        snprintf(f.name, sizeof(f.name), "L%d", i);
        f.sheet.rules = RULES_BOXING;
        f.sheet.u.boxing = (struct boxing_sheet){10 + i % 5, 12, 14 - i % 5, 12, 12};
        f.league = i % LEAGUE_COUNT;
        bot_name_key(key, f.name, sizeof(key));
        if (db_fighter_create(db, key, &f) != DB_OK ||
            db_plan_set(db, f.id, plans[i % 3], 0) != DB_OK)
            fail(db_errmsg(db));
    }
    if (db_commit(db) != DB_OK)
        fail(db_errmsg(db));
    struct game *g = game_new(db, &io, &gc, err, sizeof(err));
    if (!g)
        fail(err);
    peak_reset();
    double t0 = now_ms(), c0 = cpu_ms();
    if (league_turn(g, RULES_BOXING, 42, "#ringside", lines, &nlines, err, sizeof(err)) != 0)
        fail(err);
    double t = now_ms() - t0;
    if (peak)
        *peak = status_kb("VmHWM:");
    if (cpu)
        *cpu = cpu_ms() - c0;
    double k0 = now_ms();
    game_tick(g, NULL);
    if (ckpt)
        *ckpt = now_ms() - k0;
    game_free(g);
    db_close(db);
    unlink(path);
    return t;
}

/* The median of three turns of `n` boxers, in milliseconds, and the
 * medians of their processor times into *cpu and of their checkpoints
 * into *ckpt. */
static double league_median(int n, double *cpu, double *ckpt)
{
    double t[3], c[3], k[3];

    for (int i = 0; i < 3; i++)
        t[i] = league_bench(n, NULL, &c[i], &k[i]);
    qsort(t, 3, sizeof(t[0]), cmp);
    qsort(c, 3, sizeof(c[0]), cmp);
    qsort(k, 3, sizeof(k[0]), cmp);
    *cpu = c[1];
    *ckpt = k[1];
    return t[1];
}

/* One turn of `n` boxers as `ringside-bench-bot league n` in a process of
 * its own, whose resident memory is the turn's alone: it prints the
 * figures. */
static void league_alone(int n)
{
    char arg[16];

    snprintf(arg, sizeof(arg), "%d", n);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", "ringside-bench-bot", "league", arg, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        fail("the league turn in a process of its own failed");
}

static void quiet_answer(void *ctx, int how, const char *text)
{
    (void)ctx, (void)how, (void)text;
}

/* A tournament of 32 boxers (one a player) fought from their plans, from
 * its start to its winner, in a fresh database; returns its time in
 * milliseconds. */
static double tournament_bench(void)
{
    const struct game_io io = quiet_io("bench_bot");
    const struct game_config gc = {.order_timeout = 120, .challenge_timeout = 300, .rounds = 12};
    struct db_fighter f[32];
    char path[160], err[256], key[DB_NAME_MAX], name[DB_NAME_MAX];
    const char *const words[] = {"size=32", "name=Bench", "Cup"};

    snprintf(path, sizeof(path), "%s/tournament.db", dir);
    struct db *db = db_open(path, err, sizeof(err));
    if (!db || db_begin(db) != DB_OK)
        fail(db ? db_errmsg(db) : err);
    for (int i = 0; i < 32; i++) {
        int64_t owner;
        snprintf(name, sizeof(name), "t%d", i);
        if (db_account_create(db, name, name, "$y$x", 0, &owner) != DB_OK)
            fail(db_errmsg(db));
        memset(&f[i], 0, sizeof(f[i]));
        f[i].account_id = owner;
        snprintf(f[i].name, sizeof(f[i].name), "T%d", i);
        f[i].sheet.rules = RULES_BOXING;
        f[i].sheet.u.boxing = (struct boxing_sheet){10 + i % 5, 12, 14 - i % 5, 12, 12};
        f[i].wins = i;
        bot_name_key(key, f[i].name, sizeof(key));
        if (db_fighter_create(db, key, &f[i]) != DB_OK ||
            db_plan_set(db, f[i].id, "1) 5/5/10 (ring); 4) 4H/8/8 (inside)", 0) != DB_OK)
            fail(db_errmsg(db));
    }
    if (db_commit(db) != DB_OK)
        fail(db_errmsg(db));
    struct game *g = game_new(db, &io, &gc, err, sizeof(err));
    if (!g)
        fail(err);
    struct game_caller boss = {.account_id = 1,
                               .account = "t0",
                               .nick = "t0",
                               .channel = "#ringside",
                               .answer = quiet_answer};
    if (game_tournament_open(g, &boss, 1, words, 3) != 0)
        fail("tournament not opened");
    for (int i = 0; i < 31; i++) {
        struct game_caller who = {.account_id = f[i].account_id,
                                  .account = "t",
                                  .nick = "t",
                                  .channel = "#ringside",
                                  .answer = quiet_answer};
        if (game_tournament_join(g, &who, &f[i]) != 0)
            fail("a join refused");
    }
    struct game_caller last = {.account_id = f[31].account_id,
                               .account = "t",
                               .nick = "t",
                               .channel = "#ringside",
                               .answer = quiet_answer};
    double t0 = now_ms();
    if (game_tournament_join(g, &last, &f[31]) != 0) /* full: it starts */
        fail("the last join refused");
    for (int k = 0; k < 5; k++)
        if (game_tournament_next(g, &boss, 1) != 0)
            fail("a tournament round refused");
    double t = now_ms() - t0;
    game_free(g);
    db_close(db);
    unlink(path);
    return t;
}

/* The latencies of `n` bouts at once (and with cpu, not NULL, their
 * processor times), as figures named after `what`. */
static void latency(int n, int first, int rounds, double *lat, double *cpu, const char *what)
{
    long rss;
    int m = run(n, first, rounds, lat, cpu, &rss);

    if (m == 0)
        fail("no round was measured");
    qsort(lat, (size_t)m, sizeof(lat[0]), cmp);
    printf("bot.round_latency_%s_median_ms %.3f ms\n", what, lat[m / 2]);
    printf("bot.round_latency_%s_p99_ms %.3f ms\n", what, lat[(m * 99) / 100]);
    if (cpu) {
        qsort(cpu, (size_t)m, sizeof(cpu[0]), cmp);
        printf("bot.round_cpu_%s_median_ms %.3f ms\n", what, cpu[m / 2]);
        printf("bot.round_cpu_%s_p99_ms %.3f ms\n", what, cpu[(m * 99) / 100]);
    }
    printf("bot.rss_%s_bouts_kb %ld kB\n", what, rss);
}

/* The sim command's 10,000 bouts, fought a slice at a time as the event
 * loop gives them (bot_sim_slice): the longest slice is how long a bout's
 * round or a reply may wait for a simulation. */
static void sim_bench(void)
{
    double worst = 0, t0 = now_ms();

    say(0, NULL, "sim Boxer0 vs Boxer1 bouts=10000 seed=1");
    if (game_sims(bot.game) != 1)
        fail("the sim command queued no simulation");
    while (game_sims(bot.game) > 0) {
        double a = now_ms();
        bot_sim_slice(&bot);
        double d = now_ms() - a;
        if (d > worst)
            worst = d;
    }
    double total = now_ms() - t0;
    drain();
    printf("bot.sim_slice_max_ms %.3f ms\n", worst);
    printf("bot.sim_10000_bouts_ms %.0f ms\n", total);
}

/* Players p<from> to p<to - 1>, in one transaction. */
static void players(int from, int to)
{
    if (db_begin(bot.db) != DB_OK)
        fail(db_errmsg(bot.db));
    for (int i = from; i < to; i++)
        player(i);
    if (db_commit(bot.db) != DB_OK)
        fail(db_errmsg(bot.db));
}

/* The bot without a server, on a fresh database in dir, with `n`
 * identified players p0, p1, ... */
static void bot_setup(int n)
{
    char path[128], err[256];

    snprintf(path, sizeof(path), "%s/ringside.db", dir);
    config_defaults(&bot.cfg);
    bot.db = db_open(path, err, sizeof(err));
    if (!bot.db)
        fail(err);
    bot.q = outq_new(1000000, 1e6);
    bot.users = users_new();
    struct game_io io;
    struct game_config gc;
    bot_game_io(&bot, &io);
    bot_game_config(&bot.cfg, &gc);
    bot.game = game_new(bot.db, &io, &gc, err, sizeof(err));
    if (!bot.game)
        fail(err);
    snprintf(bot.nick, sizeof(bot.nick), "ringside");
    snprintf(bot.chan[0], sizeof(bot.chan[0]), "#ringside");
    bot.chan_in[0] = 1;
    log_set_level(LOG_ERROR);
    players(0, n);
}

static int bot_teardown(void)
{
    char cmd[128];

    game_free(bot.game);
    users_free(bot.users);
    outq_free(bot.q);
    db_close(bot.db);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : 1;
}

/* `ringside-bench-bot bouts N [ROUNDS]`: N bouts at once alone, to profile
 * them. */
static int bouts_alone(int n, int rounds)
{
    char what[16];
    double *lat = xcalloc((size_t)n * (size_t)rounds + 1, sizeof(*lat));
    double *cpu = xcalloc((size_t)n * (size_t)rounds + 1, sizeof(*cpu));

    bot_setup(2 * n);
    snprintf(what, sizeof(what), "%d", n);
    latency(n, 0, rounds, lat, cpu, what);
    free(lat);
    free(cpu);
    return bot_teardown();
}

/* ------------------------------------------------ the machine's floor */

#define FLOOR_BATCH 20
#define FLOOR_GAP   5 /* ms the peer waits between lines; the paced loop's timeout */
#define FLOOR_ASK   ":peer1!~peer1@127.0.0.1 PRIVMSG ringside :version\r\n"
/* 82 bytes, as the bot's answer to version */
#define FLOOR_LINE                                                                                 \
    "PRIVMSG peer1 :Ringside 0.2.0, an IRC fight-game bot (the floor loop answering).\r\n"

static double thread_cpu_us(void)
{
    struct timespec t;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* The peer: `asks` lines FLOOR_GAP ms apart, each after the answer to the
 * one before (0: only reads, until the other end closes). */
static void floor_peer(int fd, int asks)
{
    char buf[4096];
    struct timespec gap = {0, FLOOR_GAP * 1000000L};

    if (!asks)
        while (read(fd, buf, sizeof(buf)) > 0) {
        }
    for (int i = 0; i < asks; i++) {
        nanosleep(&gap, NULL);
        if (write(fd, FLOOR_ASK, sizeof(FLOOR_ASK) - 1) < 0 || read(fd, buf, sizeof(buf)) <= 0)
            break;
    }
    _exit(0);
}

/* A connected loopback pair: *mine for this process, the other end to a
 * child running floor_peer(asks). Returns the child's pid. */
static pid_t floor_pair(int *mine, int asks)
{
    struct sockaddr_in a;
    socklen_t len = sizeof(a);
    int l = socket(AF_INET, SOCK_STREAM, 0);

    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(l, 1) != 0 ||
        getsockname(l, (struct sockaddr *)&a, &len) != 0)
        fail("floor: loopback listener");
    pid_t pid = fork();
    if (pid == 0) {
        int c = socket(AF_INET, SOCK_STREAM, 0);
        if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)) != 0)
            _exit(1);
        floor_peer(c, asks);
    }
    *mine = accept(l, NULL, NULL);
    close(l);
    if (pid < 0 || *mine < 0)
        fail("floor: loopback pair");
    return pid;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* n wakeups of one kind (answer: woken by the peer's line; else by the
 * timeout), the median of their batches' CPU per wakeup, in us. */
static double floor_kind(int n, int answer)
{
    int fd, batches = n / FLOOR_BATCH;
    pid_t peer = floor_pair(&fd, answer ? n : 0);
    double *per = xcalloc((size_t)batches + 1, sizeof(*per));
    sigset_t none;
    char buf[4096];

    sigemptyset(&none);
    for (int b = 0; b < batches; b++) {
        double t0 = thread_cpu_us();
        for (int i = 0; i < FLOOR_BATCH; i++) {
            fd_set r;
            struct timespec ts = {answer ? 60 : 0, answer ? 0 : FLOOR_GAP * 1000000L};
            FD_ZERO(&r);
            FD_SET(fd, &r);
            if (pselect(fd + 1, &r, NULL, NULL, &ts, &none) < 0 ||
                (answer && recv(fd, buf, sizeof(buf), 0) <= 0) ||
                send(fd, FLOOR_LINE, sizeof(FLOOR_LINE) - 1, 0) < 0)
                fail("floor: the loop's socket");
        }
        per[b] = (thread_cpu_us() - t0) / FLOOR_BATCH;
    }
    close(fd);
    waitpid(peer, NULL, 0);
    qsort(per, (size_t)batches, sizeof(*per), cmp_double);
    double med = per[batches / 2];
    free(per);
    return med;
}

/* `ringside-bench-bot floor N`. */
static int floor_bench(int n)
{
    printf("floor.answer_us %.1f us\n", floor_kind(n, 1));
    printf("floor.paced_us %.1f us\n", floor_kind(n, 0));
    return 0;
}

/* ------------------------------------------ the least a bot can do */

#define MINBOT_BUF 65536

/* The answers to the complete lines of in[0..*have) (PING: PONG;
 * "PRIVMSG nick :version": one line to its sender) appended to out; the
 * partial line left is moved to the front. Returns out's new length. */
static size_t minbot_answers(char *in, size_t *have, const char *nick, char *out, size_t o)
{
    char ask[80], *p = in, *e;

    snprintf(ask, sizeof(ask), " PRIVMSG %s :version", nick);
    in[*have] = '\0';
    while ((e = strstr(p, "\r\n")) != NULL) {
        *e = '\0';
        char *bang = strchr(p, '!');
        if (strncmp(p, "PING ", 5) == 0 && o + strlen(p) + 3 < MINBOT_BUF)
            o += (size_t)snprintf(out + o, MINBOT_BUF - o, "PONG %s\r\n", p + 5);
        else if (*p == ':' && bang && strstr(p, ask) && o + 200 < MINBOT_BUF)
            o += (size_t)snprintf(out + o, MINBOT_BUF - o, "PRIVMSG %.*s :%s\r\n",
                                  (int)(bang - p - 1), p + 1,
                                  "Ringside 0.2.0, an IRC fight-game bot (a minimal bot)");
        p = e + 2;
    }
    *have = (size_t)(in + *have - p);
    memmove(in, p, *have);
    return o;
}

/* `ringside-bench-bot minbot PORT NICK`: the least a bot can do on
 * bench/peers_bench.py's server: registers as NICK on 127.0.0.1:PORT and
 * answers every private `version` at once, all a read brought in one
 * send(2), sleeping in pselect(2) in between: no pacing, no parsing
 * beyond that, no log, no database. Until the server closes. */
static int minbot(int port, const char *nick)
{
    static char in[MINBOT_BUF], out[MINBOT_BUF];
    struct sockaddr_in a;
    size_t have = 0;
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0)
        fail("minbot: cannot connect");
    int o = snprintf(out, sizeof(out), "NICK %s\r\nUSER %s 0 * :minimal bot\r\n", nick, nick);
    if (send(fd, out, (size_t)o, 0) != o)
        fail("minbot: cannot register");
    for (;;) {
        fd_set r;
        FD_ZERO(&r);
        FD_SET(fd, &r);
        if (pselect(fd + 1, &r, NULL, NULL, NULL, NULL) <= 0)
            continue;
        ssize_t n = recv(fd, in + have, sizeof(in) - have - 1, 0);
        if (n <= 0)
            return 0;
        have += (size_t)n;
        size_t len = minbot_answers(in, &have, nick, out, 0);
        if (have >= sizeof(in) - 1)
            have = 0; /* a line longer than the buffer: dropped */
        if (len && send(fd, out, len, 0) < 0)
            return 0;
    }
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "minbot") == 0)
        return minbot(atoi(argv[2]), argv[3]);
    if (argc == 3 && strcmp(argv[1], "floor") == 0) {
        int n = atoi(argv[2]);
        if (n < FLOOR_BATCH || n > 100000)
            fail("usage: ringside-bench-bot floor WAKEUPS (20 to 100000)");
        return floor_bench(n);
    }

    snprintf(dir, sizeof(dir), "/tmp/ringside-bench-XXXXXX");
    if (!mkdtemp(dir))
        fail("mkdtemp");
    /* `ringside-bench-bot league N`: one turn of N fighters alone, to
     * profile it. */
    if (argc == 2 && strcmp(argv[1], "tournament") == 0) {
        printf("tournament.bracket_32_plans_ms %.1f ms\n", tournament_bench());
        rmdir(dir);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "league") == 0) {
        int n = atoi(argv[2]);
        if (n < 2 || n > 1000000)
            fail("usage: ringside-bench-bot [league FIGHTERS]");
        long peak = -1;
        double cpu = 0, ckpt = 0;
        printf("league.turn_%d_fighters_ms %.0f ms\n", n, league_bench(n, &peak, &cpu, &ckpt));
        printf("league.turn_%d_cpu_ms %.0f ms\n", n, cpu);
        if (peak > 0)
            printf("league.turn_%d_peak_rss_mb %.1f MB\n", n, peak / 1024.0);
        printf("league.turn_%d_checkpoint_ms %.0f ms\n", n, ckpt);
        rmdir(dir);
        return 0;
    }
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "bouts") == 0) {
        int n = atoi(argv[2]), rounds = argc == 4 ? atoi(argv[3]) : ROUNDS;
        if (n < 1 || n > 100000 || rounds < 1 || rounds > ROUNDS)
            fail("usage: ringside-bench-bot bouts BOUTS [ROUNDS]");
        return bouts_alone(n, rounds);
    }
    if (argc != 1)
        fail("usage: ringside-bench-bot [league FIGHTERS | bouts BOUTS [ROUNDS] | tournament | "
             "floor WAKEUPS | minbot PORT NICK]");
    bot_setup(SMALL);
    double *lat = xcalloc((size_t)PLAYERS * ROUNDS, sizeof(*lat));
    double *cpus = xcalloc((size_t)PLAYERS * ROUNDS, sizeof(*cpus));

    long rss;
    int m = 0;
    for (int k = 0; k < 20; k++) /* one bout at a time, twenty in a row */
        m += run(1, 0, ROUNDS, lat + m, NULL, &rss);
    qsort(lat, (size_t)m, sizeof(lat[0]), cmp);
    printf("bot.round_latency_1_median_ms %.3f ms\n", lat[m / 2]);
    printf("bot.round_latency_1_p99_ms %.3f ms\n", lat[(m * 99) / 100]);
    latency(200, 2, ROUNDS, lat, NULL, "200");
    latency(500, 402, ROUNDS, lat, NULL, "500");
    players(SMALL, PLAYERS); /* the 5,000 bouts' players only now */
    latency(BIG, SMALL, BIG_ROUNDS, lat, cpus, "5000");
    sim_bench();
    fflush(stdout);
    printf("league.turn_1000_fighters_ms %.0f ms\n", league_bench(1000, NULL, NULL, NULL));
    fflush(stdout);
    double cpu, ckpt;
    printf("league.turn_10000_fighters_ms %.0f ms\n", league_median(10000, &cpu, &ckpt));
    printf("league.turn_10000_cpu_ms %.0f ms\n", cpu);
    printf("league.turn_10000_checkpoint_ms %.0f ms\n", ckpt);
    league_alone(100000);
    fflush(stdout);
    printf("tournament.bracket_32_plans_ms %.1f ms\n", tournament_bench());
    free(lat);
    free(cpus);
    return bot_teardown();
}
