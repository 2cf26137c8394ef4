/* check_simulate.c - simulations (game/simulate.c) and the `sim` command
 * of the game: the figures of the seeded simulations of
 * tests/sim_figures.txt, which tests/sim_figures.py checks against
 * ringside-sim, so the two agree; the one line that answers; fighting a
 * few bouts at a time, in turn; the bounds and every refusal (one line,
 * nothing started); one simulation at a time and one per SIM_EVERY
 * seconds per player; and never the opponent's stored plan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "parse.h"
#include "test_db.h"
#include "tests.h"

#define FIGURES_FILE "tests/sim_figures.txt"
#define SAID_MAX     16384

/* ------------------------------------------------------- the figures */

/* The figures of `f` as tests/sim_figures.py writes them. */
static void figures_text(const struct sim_figures *f, char *buf, size_t len)
{
    static const enum method m[] = {METHOD_KO, METHOD_TKO, METHOD_DQ, METHOD_DECISION,
                                    METHOD_POINTS};
    static const char *const name[] = {"ko", "tko", "dq", "decision", "points"};
    struct str t;

    str_init_fixed(&t, buf, len);
    str_add(&t, "bouts %ld wins %ld losses %ld draws %ld rounds %ld", f->done, f->wins[0],
            f->wins[1], f->draws, f->rounds);
    for (int side = 0; side < SIDES; side++)
        for (int k = 0; k < 5; k++)
            str_add(&t, " %s_%s %ld", side ? "loss" : "win", name[k], f->method[side][m[k]]);
}

/* A case of FIGURES_FILE, split in place. */
struct figures_case {
    char *field[8]; /* rules, seed, bouts, a, b, plan a, plan b, figures */
};

/* Splits `line` at " | " into c; 1 if it has the 8 fields. */
static int case_split(char *line, struct figures_case *c)
{
    int n = 0;

    for (char *p = line; n < 8; n++) {
        c->field[n] = p;
        char *bar = strstr(p, " | ");
        if (!bar)
            return n == 7;
        *bar = '\0';
        p = bar + 3;
    }
    return 0;
}

/* Sets up the simulation of a case: sheets "NAME key=value ...", plans or
 * "-", with how[] "stored plan" / "default orders". */
static struct sim *case_sim(const struct figures_case *c)
{
    const struct ruleset *rs = ruleset_find(c->field[0]);
    struct sheet s[SIDES];
    struct plan *p[SIDES] = {NULL, NULL};
    char name[SIDES][DB_NAME_MAX];
    const char *how[SIDES];
    struct parse_error err;

    ck_assert_ptr_nonnull(rs);
    for (int i = 0; i < SIDES; i++) {
        const char *text = c->field[3 + i];
        size_t n = strcspn(text, " ");
        ck_assert_uint_lt(n, sizeof(name[i]));
        memcpy(name[i], text, n);
        name[i][n] = '\0';
        ck_assert_msg(sheet_parse(rs->id, text + n, &s[i], &err) == 0, "%s: %s", text, err.reason);
        const char *plan = c->field[5 + i];
        how[i] = strcmp(plan, "-") == 0 ? "default orders" : "stored plan";
        if (strcmp(plan, "-") != 0) {
            p[i] = plan_compile(rs->id, plan, &err);
            ck_assert_msg(p[i] != NULL, "%s: %s", plan, err.reason);
        }
    }
    const char *names[SIDES] = {name[0], name[1]};
    struct sim *x = sim_new(names, s, p, how, atol(c->field[2]), strtoull(c->field[1], NULL, 10));
    ck_assert_ptr_nonnull(x);
    return x;
}

START_TEST(test_figures_are_ringside_sims)
{
    FILE *f = fopen(FIGURES_FILE, "r");
    char line[2048], got[512];
    int cases = 0;

    ck_assert_msg(f != NULL, "cannot read %s (run from the repository's root)", FIGURES_FILE);
    while (fgets(line, sizeof(line), f)) {
        struct figures_case c;
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        ck_assert_msg(case_split(line, &c), "%s: a case has 8 fields", FIGURES_FILE);
        struct sim *x = case_sim(&c);
        long bouts = atol(c.field[2]), left = bouts;
        /* A few at a time, as the bot fights them: the budget is kept. */
        while (left > 0) {
            long before = sim_figures(x)->done;
            long now = sim_step(x, 37);
            ck_assert_int_ge(now, 0);
            ck_assert_int_eq(sim_figures(x)->done - before, left < 37 ? left : 37);
            ck_assert_int_eq(now, bouts - sim_figures(x)->done);
            left = now;
        }
        ck_assert_int_eq(sim_step(x, 5), 0);
        figures_text(sim_figures(x), got, sizeof(got));
        ck_assert_msg(strcmp(got, c.field[7]) == 0, "%s, seed %s:\n  game/simulate.c: %s\n  %s: %s",
                      c.field[0], c.field[1], got, FIGURES_FILE, c.field[7]);
        sim_free(x);
        cases++;
    }
    fclose(f);
    ck_assert_int_ge(cases, 4);
}
END_TEST

/* The first case of FIGURES_FILE (Rocky's plan against Apollo's sheet,
 * seed 42, 1,000 bouts) in words. */
#define ROCKY_PLAN                                                                                 \
    "5/6/9; if opp is weak then 8/8/4 (allout); 10) if score < 0 then 6H/8!/6 (inside)"
#define ROCKY_LINE                                                                                 \
    "Rocky (stored plan) vs Apollo (default orders), 1,000 bouts, seed 42: Rocky wins 181 (KO "    \
    "0%, TKO 1%, DQ 0%, decision 17%), loses 801 (KO 0%, TKO <1%, DQ 17%, decision 63%), draws "   \
    "18; 11.8 rounds on average."

START_TEST(test_text)
{
    static const struct sheet s = {.rules = RULES_BOXING, .u.boxing = {14, 12, 11, 12, 11}};
    const struct sheet sheets[SIDES] = {s, s};
    const char *names[SIDES] = {"Rocky", "Apollo"};
    const char *how[SIDES] = {"stored plan", "default orders"};
    struct parse_error err;
    struct plan *p[SIDES] = {plan_compile(RULES_BOXING, ROCKY_PLAN, &err), NULL};
    char text[512];

    ck_assert_ptr_nonnull(p[0]);
    struct sim *x = sim_new(names, sheets, p, how, 1000, 42);
    ck_assert_int_eq(sim_step(x, 1000), 0);
    ck_assert_int_eq(sim_text(x, text, sizeof(text)), (int)strlen(ROCKY_LINE));
    ck_assert_str_eq(text, ROCKY_LINE);
    /* Like snprintf: cut, terminated, the length the whole needs. */
    ck_assert_int_eq(sim_text(x, text, 10), (int)strlen(ROCKY_LINE));
    ck_assert_int_eq(sim_text(x, NULL, 0), (int)strlen(ROCKY_LINE)); /* only counted */
    ck_assert_str_eq(text, "Rocky (st");
    sim_free(x);

    /* One bout: singular, and how long it went. */
    p[0] = NULL;
    x = sim_new(names, sheets, p, how, 1, 5);
    ck_assert_int_eq(sim_step(x, 10), 0);
    sim_text(x, text, sizeof(text));
    ck_assert_msg(strstr(text, "vs Apollo (default orders), 1 bout, seed 5: Rocky ") != NULL, "%s",
                  text);
    ck_assert_msg(strstr(text, "; it went 12 rounds.") != NULL, "%s", text);
    sim_free(x);

    /* SUGAR RAY: its own methods; nothing in parentheses without a win. */
    static const struct sheet miller = {.rules = RULES_SUGARRAY, .u.sugarray = {10, 26}};
    static const struct sheet sr_murphy = {.rules = RULES_SUGARRAY, .u.sugarray = {12, 21}};
    const struct sheet sr[SIDES] = {miller, sr_murphy};
    const char *srn[SIDES] = {"Miller", "Murphy"};
    p[0] = plan_compile(RULES_SUGARRAY, "4/4; 3) if opp is weak then 9/0", &err);
    p[1] = plan_compile(RULES_SUGARRAY, "3/3; if score < 0 then 6/0", &err);
    how[1] = "plan given";
    x = sim_new(srn, sr, p, how, 20, 3);
    ck_assert_int_eq(sim_step(x, 100), 0);
    sim_text(x, text, sizeof(text));
    ck_assert_str_eq(text, "Miller (stored plan) vs Murphy (plan given), 20 bouts, seed 3: Miller "
                           "wins 0, loses 20 (KO 100%, points 0%), draws 0; 4 rounds on average.");
    sim_free(x);

    /* The engine refuses sheets of two rulesets: nothing set up. */
    const struct sheet mixed[SIDES] = {s, sr_murphy};
    p[0] = p[1] = NULL;
    ck_assert_ptr_null(sim_new(names, mixed, p, how, 10, 1));
    sim_free(NULL);
}
END_TEST

/* ------------------------------------------------------- the command */

static struct db *db;
static struct game *game;
static char dir[64];
static char said[SAID_MAX];  /* "target|voice|text\n" */
static struct str said_text; /* over said[] */
static double clock_now;
static uint64_t next_seed;

static void note(const char *target, const char *voice, const char *text)
{
    str_add(&said_text, "%s|%s|%s\n", target, voice, text);
    ck_assert(!str_cut_short(&said_text));
}

static void io_say(void *ctx, enum game_voice voice, const char *target, const char *text)
{
    (void)ctx;
    note(target, voice == GAME_REPLY ? "reply" : "other", text);
}

static const char *io_nick_of(void *ctx, int64_t account_id)
{
    (void)ctx;
    return account_id == 1 ? "alice_away" : NULL; /* alice changed her nick */
}

static int io_same_name(void *ctx, const char *a, const char *b)
{
    (void)ctx;
    return strcmp(a, b) == 0;
}

static double io_clock(void *ctx)
{
    (void)ctx;
    return clock_now;
}

static int64_t io_wall(void *ctx)
{
    (void)ctx;
    return 1700000000;
}

static uint64_t io_seed(void *ctx)
{
    (void)ctx;
    return next_seed++;
}

static unsigned long io_mark(void *ctx)
{
    (void)ctx;
    return 1;
}

static int io_delivered(void *ctx, unsigned long mark)
{
    (void)ctx;
    (void)mark;
    return 1;
}

static void io_log(void *ctx, enum game_log level, const char *text)
{
    (void)ctx;
    if (level >= GAME_LOG_ERROR)
        note("log", "error", text);
}

static const struct game_io io = {
    .say = io_say,
    .nick_of = io_nick_of,
    .same_name = io_same_name,
    .clock = io_clock,
    .wall = io_wall,
    .seed = io_seed,
    .mark = io_mark,
    .delivered = io_delivered,
    .log = io_log,
};

static void answer(void *ctx, int how, const char *text)
{
    note((const char *)ctx, how & GAME_ANSWER_PRIVATE ? "private" : "answer", text);
}

static struct game_caller caller(const char *name, int64_t id)
{
    return (struct game_caller){
        .account_id = id, .account = name, .nick = name, .answer = answer, .ctx = (void *)name};
}

static void setup(void)
{
    static const struct game_config cfg = {
        .order_timeout = 60, .challenge_timeout = 300, .rounds = 12, .prefix = "!"};
    char path[128], err[256];

    snprintf(dir, sizeof(dir), "/tmp/ringside-sim-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/ringside.db", dir);
    db = test_db_open(path, err, sizeof(err));
    ck_assert_msg(db != NULL, "%s", err);
    str_init_fixed(&said_text, said, sizeof(said));
    clock_now = 1000;
    next_seed = 77;
    game = game_new(db, &io, &cfg, err, sizeof(err));
    ck_assert_msg(game != NULL, "%s", err);
}

static void teardown(void)
{
    char cmd[128];

    game_free(game); /* with simulations still waiting: freed */
    snprintf(cmd, sizeof(cmd), "%s/ringside.db", dir);
    test_db_close(db, cmd);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static void hush(void)
{
    str_clear(&said_text);
}

/* What was said since hush(), exactly `line` (with its "\n"). */
#define SAID(line) ck_assert_msg(strcmp(said, (line)) == 0, "said:\n%swanted:\n%s", said, (line))

/* What was said since hush() starts with `text`. */
#define STARTS(text)                                                                               \
    ck_assert_msg(strncmp(said, (text), strlen(text)) == 0, "said:\n%swanted first:\n%s", said,    \
                  (text))

/* An account `name` (ids from 1) with fighter `fighter`; fills *f. */
static int64_t player(const char *name, const char *fighter, const struct sheet *sheet,
                      struct db_fighter *f)
{
    int64_t id;
    char key[DB_NAME_MAX];

    ck_assert_int_eq(db_account_create(db, name, name, "$y$hash", 1, &id), DB_OK);
    memset(f, 0, sizeof(*f));
    f->account_id = id;
    snprintf(f->name, sizeof(f->name), "%s", fighter);
    f->sheet = *sheet;
    snprintf(key, sizeof(key), "%s", fighter);
    for (char *c = key; *c; c++)
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
    ck_assert_int_eq(db_fighter_create(db, key, f), DB_OK);
    ck_assert_int_eq(db_fighter_get(db, key, f), DB_OK); /* the owner's name too */
    return id;
}

static const struct sheet rocky = {.rules = RULES_BOXING, .u.boxing = {14, 12, 11, 12, 11}};
static const struct sheet murphy = {.rules = RULES_SUGARRAY, .u.sugarray = {12, 21}};

/* alice (Rocky, with ROCKY_PLAN stored), bob (Apollo, Rocky's sheet, with
 * a stored plan that throws in the towel at once) and carl (Murphy, SUGAR
 * RAY). */
static struct db_fighter f_rocky, f_apollo, f_murphy;
static struct game_caller alice, bob, carl;

static void players(void)
{
    alice = caller("alice", player("alice", "Rocky", &rocky, &f_rocky));
    bob = caller("bob", player("bob", "Apollo", &rocky, &f_apollo));
    carl = caller("carl", player("carl", "Murphy", &murphy, &f_murphy));
    ck_assert_int_eq(alice.account_id, 1);
    ck_assert_int_eq(db_plan_set(db, f_rocky.id, ROCKY_PLAN, 1), DB_OK);
    ck_assert_int_eq(db_plan_set(db, f_apollo.id, "if round >= 1 then towel", 1), DB_OK);
}

/* Refused: exactly `line` to alice, nothing started. */
static void refused(const struct db_fighter *mine, const struct db_fighter *his, const char *bouts,
                    const char *plan, const char *hisplan, const char *seed, const char *line)
{
    char want[512];

    hush();
    ck_assert_int_eq(game_sim(game, &alice, mine, his, bouts, plan, hisplan, seed), -1);
    snprintf(want, sizeof(want), "alice|answer|%s\n", line);
    SAID(want);
    ck_assert_int_eq(game_sims(game), 0);
}

START_TEST(test_refusals_change_nothing)
{
    players();
    const char *bouts_hint = ": give a whole number of bouts from 1 to 10,000 (without it: 1,000)";
    char line[256];
    const char *bad[] = {"0", "10001", "abc", "", "1e3", "-5", "+5", "10000000000000000000000"};
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(line, sizeof(line), "bouts=%.20s%s", bad[i], bouts_hint); /* cut at 20 */
        refused(&f_rocky, &f_apollo, bad[i], NULL, NULL, "1", line);
    }
    refused(&f_rocky, &f_apollo, NULL, NULL, NULL, "x1",
            "seed=x1: give a whole number from 0 to 18446744073709551615 (without it: a fresh "
            "one)");
    refused(&f_rocky, &f_apollo, NULL, NULL, NULL, "18446744073709551616",
            "seed=18446744073709551616: give a whole number from 0 to 18446744073709551615 "
            "(without it: a fresh one)");
    refused(&f_apollo, &f_rocky, NULL, NULL, NULL, NULL,
            "Apollo belongs to bob, not to you: sim <your fighter> vs <his fighter>");
    refused(&f_rocky, &f_murphy, NULL, NULL, NULL, NULL,
            "Murphy is a SUGAR RAY fighter and Rocky a boxing one: simulate fighters of one "
            "ruleset");
    refused(&f_rocky, &f_apollo, NULL, "5/5/10; 8/8/8", NULL, NULL,
            "plan= refused, nothing simulated: line 2, column 2: AGG+POW+DEF = 24, the most is 20");
    refused(&f_rocky, &f_apollo, NULL, NULL, "if foo > 1 then 5/5/10", NULL,
            "hisplan= refused, nothing simulated: line 1, column 4: unknown word \"foo\"; "
            "variables are round, roundswon, roundslost, score, end, endurance_percent, opp, "
            "mycuts, hiscuts, myknockdowns, hisknockdowns, warnings");
    refused(&f_rocky, &f_apollo, NULL, "", NULL, NULL,
            "plan= is empty: give the plan's lines separated by ;, e.g. plan=1) 5/5/10; 6) "
            "4/6/10");
    struct db_fighter old = f_rocky;
    old.retired = 1;
    refused(&old, &f_apollo, NULL, NULL, NULL, NULL,
            "Rocky is retired: simulate one of your active fighters");
    struct game_caller nobody = caller("nobody", 0);
    hush();
    ck_assert_int_eq(game_sim(game, &nobody, &f_rocky, &f_apollo, NULL, NULL, NULL, NULL), -1);
    SAID("nobody|answer|sim needs an account: identify first\n");

    /* Nothing was started, so nothing holds alice back; the bounds are
     * taken (and 10,000 bouts fight in one go). */
    hush();
    ck_assert_int_eq(game_sim(game, &alice, &f_rocky, &f_apollo, "10000", NULL, NULL, "1"), 0);
    ck_assert_int_eq(game_sims(game), 1);
    ck_assert_int_eq((int)said_text.len, 0); /* the answer comes when it is done */
    ck_assert_int_eq(game_sim_step(game, 20000), 10000);
    ck_assert_int_eq(game_sims(game), 0);
    STARTS("alice_away|reply|Rocky (stored plan) vs Apollo (default orders), 10,000 bouts, seed "
           "1: Rocky wins ");
    clock_now += SIM_EVERY;
    hush();
    ck_assert_int_eq(game_sim(game, &alice, &f_rocky, &f_apollo, "1", NULL, NULL, NULL), 0);
    ck_assert_int_eq(game_sim_step(game, 5), 1);
    ck_assert_msg(strstr(said, ", 1 bout, seed 77: Rocky ") != NULL, "%s", said);
}
END_TEST

START_TEST(test_answer_agrees_and_never_his_plan)
{
    players();
    /* Apollo's stored plan throws in the towel in round 1: read, it would
     * lose every bout by TKO. The answer is case 1 of FIGURES_FILE. */
    ck_assert_int_eq(game_sim(game, &alice, &f_rocky, &f_apollo, NULL, NULL, NULL, "42"), 0);
    ck_assert_int_eq(game_sim_step(game, 400), 400);
    ck_assert_int_eq(game_sim_step(game, 400), 400);
    ck_assert_int_eq((int)said_text.len, 0);
    ck_assert_int_eq(game_sim_step(game, 400), 200);
    SAID("alice_away|reply|" ROCKY_LINE "\n");

    /* The same with the plan given (the stored one is not read then), and
     * Apollo's plan given as hisplan=. */
    clock_now += SIM_EVERY;
    hush();
    ck_assert_int_eq(
        game_sim(game, &alice, &f_rocky, &f_apollo, "50", "if round >= 1 then towel", "6/6/8", "9"),
        0);
    game_sim_step(game, 100);
    SAID("alice_away|reply|Rocky (plan given) vs Apollo (plan given), 50 bouts, seed 9: Rocky "
         "wins 0, loses 50 (KO 0%, TKO 100%, DQ 0%, decision 0%), draws 0; 1 round on "
         "average.\n");
}
END_TEST

START_TEST(test_one_at_a_time_and_rate)
{
    players();
    ck_assert_int_eq(game_sim(game, &alice, &f_rocky, &f_apollo, "1000", NULL, NULL, "42"), 0);
    ck_assert_int_eq(game_sim(game, &bob, &f_apollo, &f_rocky, "30", NULL, NULL, "5"), 0);
    ck_assert_int_eq(game_sims(game), 2);
    /* In turn: a budget goes to the first, then the second has his. */
    ck_assert_int_eq(game_sim_step(game, 10), 10);
    ck_assert_int_eq(game_sim_step(game, 10), 10);
    ck_assert_int_eq(game_sim_step(game, 10), 10);
    hush();
    ck_assert_int_eq(game_sim(game, &alice, &f_rocky, &f_apollo, NULL, NULL, NULL, NULL), -1);
    SAID("alice|answer|your simulation is still running (20 of 1,000 bouts fought): one at a "
         "time; its answer comes soon\n");
    /* bob's 30 are done after 20 more (his own stored plan throws in the
     * towel; alice's, on the other side, is not read): the 5 left of the
     * budget go on to alice's. */
    hush();
    ck_assert_int_eq(game_sim_step(game, 25), 25);
    STARTS("bob|reply|Apollo (stored plan) vs Rocky (default orders), 30 bouts, seed 5: Apollo "
           "wins 0, loses 30 (KO 0%, TKO 100%");
    ck_assert_int_eq(game_sims(game), 1);
    hush();
    ck_assert_int_eq(game_sim(game, &alice, &f_rocky, &f_apollo, NULL, NULL, NULL, NULL), -1);
    SAID("alice|answer|your simulation is still running (25 of 1,000 bouts fought): one at a "
         "time; its answer comes soon\n");
    ck_assert_int_eq(game_sim_step(game, 5000), 975);

    /* Done, but started less than SIM_EVERY ago. */
    hush();
    ck_assert_int_eq(game_sim(game, &alice, &f_rocky, &f_apollo, NULL, NULL, NULL, NULL), -1);
    SAID("alice|answer|one simulation every 30 seconds, please: try again in 30 seconds\n");
    clock_now += 29.5;
    hush();
    ck_assert_int_eq(game_sim(game, &alice, &f_rocky, &f_apollo, NULL, NULL, NULL, NULL), -1);
    SAID("alice|answer|one simulation every 30 seconds, please: try again in 1 second\n");
    ck_assert_int_eq(game_sims(game), 0);
    clock_now += 0.5;
    ck_assert_int_eq(game_sim(game, &alice, &f_rocky, &f_apollo, "10", NULL, NULL, NULL), 0);
    /* The others are limited on their own: carl was never held back. */
    ck_assert_int_eq(game_sim(game, &carl, &f_murphy, &f_murphy, "10", NULL, NULL, NULL), 0);
    ck_assert_int_eq(game_sims(game), 2);
    /* Left waiting: game_free frees them (teardown; ASan checks). */
}
END_TEST

START_TEST(test_at_most_so_many_waiting)
{
    struct db_fighter f[SIM_JOBS_MAX + 1];
    char name[16], fighter[16];
    int64_t id[SIM_JOBS_MAX + 1];

    for (int i = 0; i <= SIM_JOBS_MAX; i++) {
        snprintf(name, sizeof(name), "p%d", i);
        snprintf(fighter, sizeof(fighter), "Boxer%d", i);
        id[i] = player(name, fighter, &rocky, &f[i]);
    }
    for (int i = 0; i < SIM_JOBS_MAX; i++) {
        struct game_caller who = caller(f[i].owner, id[i]);
        ck_assert_int_eq(game_sim(game, &who, &f[i], &f[0], "10", NULL, NULL, NULL), 0);
    }
    struct game_caller last = caller("last", id[SIM_JOBS_MAX]);
    hush();
    ck_assert_int_eq(game_sim(game, &last, &f[SIM_JOBS_MAX], &f[0], "10", NULL, NULL, NULL), -1);
    SAID("last|answer|16 simulations are waiting, the most I take: try again in 30 seconds\n");
    ck_assert_int_eq(game_sim_step(game, 1000000), 10 * SIM_JOBS_MAX);
    ck_assert_int_eq(game_sims(game), 0);
    ck_assert_int_eq(game_sim(game, &last, &f[SIM_JOBS_MAX], &f[0], "10", NULL, NULL, NULL), 0);
}
END_TEST

Suite *simulate_suite(void)
{
    Suite *s = suite_create("simulate");
    TCase *tc = tcase_create("simulations");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_figures_are_ringside_sims);
    tcase_add_test(tc, test_text);
    suite_add_tcase(s, tc);

    tc = tcase_create("the sim command");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_refusals_change_nothing);
    tcase_add_test(tc, test_answer_agrees_and_never_his_plan);
    tcase_add_test(tc, test_one_at_a_time_and_rate);
    tcase_add_test(tc, test_at_most_so_many_waiting);
    suite_add_tcase(s, tc);
    return s;
}
