/* check_fault.c - fault injection, SQLite's way (its do_faultsim_test): the
 * Nth step through db/ fails (db_fault_after), for N = 0, 1, 2, ... until the
 * operation runs with the fault never firing. Swept: a live round's
 * resolution (the order that completes it, and a deadline with a plan that
 * fights for the missing order), a league turn (with its title bout), and
 * the migrations of an old file and of a new one.
 *
 * After every failed attempt: the database holds exactly what it held
 * before (db_dump), the game says so (the channel for a round, the error
 * log and the admin for a turn, the error for a migration), and the next
 * attempt, the fault off, gives exactly what a run without a fault gives:
 * the same database, the same lines.
 *
 * Each attempt starts from a copy of a template file, made once per test,
 * and a game rebuilt from it (as after a restart). The fake I/O is
 * tests/game_fixture.h's: a clock the test moves, a seed counter, and
 * every line said kept in one text, everything said delivered at once. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game_fixture.h"

#define SWEEP_MAX 5000 /* steps: an operation that takes more is a bug */

static char tmpl[128]; /* the template every attempt starts from a copy of */

/* ------------------------------------------------------------- files */

static void file_copy(const char *from, const char *to)
{
    char buf[65536];
    int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ssize_t n;

    ck_assert_msg(in >= 0 && out >= 0, "cannot copy %s to %s", from, to);
    while ((n = read(in, buf, sizeof(buf))) > 0)
        ck_assert_int_eq(write(out, buf, (size_t)n), n);
    ck_assert_int_eq(n, 0);
    close(in);
    close(out);
}

/* Removes the database at p and its WAL and shared-memory files. */
static void file_remove(const char *p)
{
    char side[160];

    unlink(p);
    snprintf(side, sizeof(side), "%s-wal", p);
    unlink(side);
    snprintf(side, sizeof(side), "%s-shm", p);
    unlink(side);
}

static void setup(void)
{
    /* In memory where there is a tmpfs: hundreds of files opened, migrated
     * and closed, each close a checkpoint with its fsync. */
    struct stat sb;
    const char *base = stat("/dev/shm", &sb) == 0 && S_ISDIR(sb.st_mode) ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof(dir), "%s/ringside-fault-XXXXXX", base);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(tmpl, sizeof(tmpl), "%s/template.db", dir);
    snprintf(path, sizeof(path), "%s/ringside.db", dir);
    str_init(&said);
    db = NULL;
    game = NULL;
}

static void teardown(void)
{
    char cmd[128];

    game_free(game);
    db_close(db);
    str_free(&said);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* The fake world's clocks and seeds as every attempt starts them. */
static void world_reset(void)
{
    fixture_world();
}

/* Opens the database at `p` and a game on it (the live bouts rebuilt). */
static void world_open_at(const char *p)
{
    char err[256];

    world_reset();
    db = db_open(p, err, sizeof(err));
    ck_assert_msg(db != NULL, "%s", err);
    game = game_new(db, &io, &cfg, err, sizeof(err));
    ck_assert_msg(game != NULL, "%s", err);
}

/* A fresh copy of the template, opened: one attempt's world. */
static void world_open(void)
{
    file_remove(path);
    file_copy(tmpl, path);
    world_open_at(path);
}

static void world_close(void)
{
    game_free(game);
    db_close(db);
    game = NULL;
    db = NULL;
}

/* What the database holds now, as text (allocated). */
static char *dump(void)
{
    struct str s;

    str_init(&s);
    ck_assert_int_eq(db_dump(db, &s), DB_OK);
    return str_take(&s, NULL);
}

static int line_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of `text`, and `extra` (a line, or NULL), sorted (allocated):
 * to compare two dumps whatever the order of their lines. */
static char *sorted(const char *text, const char *extra)
{
    char *copy = xstrdup(text), **v = xmalloc((strlen(text) + 2) * sizeof(*v)), *save = NULL;
    size_t n = 0;
    struct str s;

    for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        v[n++] = l;
    if (extra)
        v[n++] = (char *)extra;
    qsort(v, n, sizeof(*v), line_cmp);
    str_init(&s);
    for (size_t i = 0; i < n; i++)
        str_add(&s, "%s\n", v[i]);
    free(v);
    free(copy);
    return str_take(&s, NULL);
}

/* The lines of `text` that start with `prefix` (allocated). */
static char *lines_with(const char *text, const char *prefix)
{
    struct str s;
    size_t k = strlen(prefix);

    str_init(&s);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        if (strncmp(p, prefix, k) == 0) {
            str_raw(&s, p, n);
            str_ch(&s, '\n');
        }
        p += n + (p[n] == '\n');
    }
    return str_take(&s, NULL);
}

/* Where texts a and b first differ, briefly (the test's message). */
static const char *diff(const char *a, const char *b, char *buf, size_t len)
{
    size_t i = 0, line = 1;

    while (a[i] && a[i] == b[i])
        line += a[i++] == '\n';
    while (i && a[i - 1] != '\n')
        i--;
    snprintf(buf, len, "line %zu:\n  got  %.150s\n  want %.150s", line, a + i, b + i);
    return buf;
}

#define SAME_TEXT(got, want, what)                                                                 \
    ck_assert_msg(strcmp((got), (want)) == 0, "n = %ld: %s differs, %s", n, what,                  \
                  diff((got), (want), (char[400]){0}, 400))

/* ------------------------------------------------------ a live round */

static const struct sheet rocky = {.rules = RULES_BOXING, .u.boxing = {14, 12, 11, 12, 11}};
static const struct sheet apollo = {.rules = RULES_BOXING, .u.boxing = {13, 14, 12, 11, 10}};
static int64_t alice, bob;

/* game_fixture.h's player, with his fighter's `plan` stored when not
 * NULL; returns the account id. */
static int64_t player_planned(const char *name, const char *fighter, const struct sheet *sheet,
                              const char *plan)
{
    int64_t id = player(name, fighter, sheet);
    char key[DB_NAME_MAX];
    struct db_fighter f;

    snprintf(key, sizeof(key), "%s", fighter);
    for (char *c = key; *c; c++)
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
    ck_assert_int_eq(db_fighter_get(db, key, &f), DB_OK);
    if (plan)
        ck_assert_int_eq(db_plan_set(db, f.id, plan, 1), DB_OK);
    return id;
}

/* The template of a round's sweep: alice (Rocky) and bob (Apollo, who has
 * a plan) in bout 1, `before` rounds fought, alice's orders for the next
 * one in. */
static void round_template(int before)
{
    world_open_at(tmpl);
    alice = player_planned("alice", "Rocky", &rocky, NULL);
    bob = player_planned("bob", "Apollo", &apollo, "6/6/8; 2) 4H/8/8 (inside)");
    struct game_caller ca = caller("alice", alice, 1), cb = caller("bob", bob, 1);
    struct game_caller pa = caller("alice", alice, 0), pb = caller("bob", bob, 0);
    ck_assert_int_eq(game_challenge(game, &ca, bob, "bob", RULES_BOXING, 0, NULL, NULL), 0);
    ck_assert_int_eq(game_answer(game, &cb, GAME_ACCEPT, NULL, 0), 0);
    for (int r = 0; r < before; r++) {
        ck_assert_int_eq(game_order(game, &pa, NULL, "5/5/10 (ring)"), 0);
        ck_assert_int_eq(game_order(game, &pb, NULL, "4H/6/10"), 0);
    }
    ck_assert_int_eq(game_live(game), 1);
    ck_assert_int_eq(game_order(game, &pa, NULL, "5/5/10 (ring)"), 0);
    game_tick(game, NULL); /* the commentary marked said */
    world_close();
}

enum round_how { BY_ORDER, BY_DEADLINE };

/* One attempt's world for a round: the game restarted on a copy of the
 * template, connected, its clock running. */
static void round_world(void)
{
    world_open();
    game_connected(game);
    game_tick(game, NULL);
    str_clear(&said);
}

/* The round's resolution: bob's order completes it, or the deadline
 * passes and his plan fights for him. Then a tick, which marks what was
 * said as said (whatever the fault: it is off by then). */
static void round_resolve(enum round_how how)
{
    struct game_caller pb = caller("bob", bob, 0);

    if (how == BY_ORDER) {
        game_order(game, &pb, NULL, "4H/6/10");
    } else {
        clock_now += cfg.order_timeout + 1;
        game_tick(game, NULL);
    }
}

static int bout_round_now(void)
{
    struct db_bout rec;

    ck_assert_int_eq(db_bout_get(db, 1, &rec), DB_OK);
    return rec.round;
}

/* Sweeps the faults over the resolution of round before + 1. */
static void round_sweep(int before, enum round_how how)
{
    char *base, *base_said, *base_channel, key[64], msg[160];
    long n;

    round_template(before);
    /* The run without a fault. */
    round_world();
    round_resolve(how);
    db_fault_after(db, -1);
    game_tick(game, NULL);
    ck_assert_int_eq(bout_round_now(), before + 1);
    base = dump();
    base_said = xstrdup(said.p);
    base_channel = lines_with(said.p, "#ring|");
    world_close();
    /* bob's order of the round, as stored: what a failed resolution keeps. */
    snprintf(key, sizeof(key), "orders|1|%d|1|", before + 1);
    char *bob_order = lines_with(base, key);
    ck_assert_str_ne(bob_order, "");
    bob_order[strlen(bob_order) - 1] = '\0';
    snprintf(msg, sizeof(msg),
             "#ring|chatter|Bout #1: round %d could not be saved (database error); it will be "
             "fought again in 5 seconds.",
             before + 1);

    for (n = 0; n < SWEEP_MAX; n++) {
        round_world();
        char *before_dump = dump();
        db_fault_after(db, n);
        round_resolve(how);
        int fired = !db_fault_pending(db);
        db_fault_after(db, -1);
        game_tick(game, NULL);
        if (!fired) {
            /* Every step ran: the same as without the hook. */
            char *now = dump();
            SAME_TEXT(now, base, "the database");
            SAME_TEXT(said.p, base_said, "what was said");
            free(now);
            free(before_dump);
            world_close();
            break;
        }
        /* It failed: nothing of the round is stored, and it is said. */
        ck_assert_msg(bout_round_now() == before, "n = %ld: the round was fought", n);
        HAS("log|error|");
        HAS("injected fault");
        int lost_order = strstr(said.p, "bob|answer|sorry, your orders were NOT stored") != NULL;
        char *raw = dump(), *now = sorted(raw, NULL), *want;
        free(raw);
        if (how == BY_ORDER && !lost_order) {
            /* The order was stored before the round was fought. */
            want = sorted(before_dump, bob_order);
            HAS(msg);
        } else {
            want = sorted(before_dump, NULL);
            if (how == BY_DEADLINE)
                HAS(msg);
        }
        SAME_TEXT(now, want, "the database after the failure");
        free(now);
        free(want);
        free(before_dump);
        /* The next attempt: bob sends his order again, or the round is
         * fought again by the tick, RETRY_AFTER later. */
        str_clear(&said);
        if (lost_order) {
            round_resolve(BY_ORDER);
        } else {
            clock_now += 5;
            game_tick(game, NULL);
        }
        game_tick(game, NULL);
        ck_assert_msg(bout_round_now() == before + 1, "n = %ld: not fought again:\n%.2000s", n,
                      said.p);
        now = dump();
        SAME_TEXT(now, base, "the database after the next attempt");
        free(now);
        if (lost_order || how == BY_DEADLINE) {
            SAME_TEXT(said.p, base_said, "what the next attempt said");
        } else {
            /* bob's acknowledgement went with the failure; the channel
             * hears the round as it would have. */
            char *channel = lines_with(said.p, "#ring|");
            SAME_TEXT(channel, base_channel, "what the channel heard");
            free(channel);
        }
        world_close();
    }
    ck_assert_msg(n > 3 && n < SWEEP_MAX, "the sweep ended at %ld", n);
    free(bob_order);
    free(base);
    free(base_said);
    free(base_channel);
}

START_TEST(test_fault_round_by_order)
{
    round_sweep(0, BY_ORDER);
}
END_TEST

START_TEST(test_fault_last_round_by_order)
{
    round_sweep(2, BY_ORDER); /* the bout ends: the records too */
}
END_TEST

START_TEST(test_fault_round_by_deadline)
{
    round_sweep(1, BY_DEADLINE); /* bob's plan is read, and fights */
}
END_TEST

/* ------------------------------------------------------- a league turn */

#define LEAGUE_SEED 4242

/* The template of a turn's sweep: ten fighters of `rules` with plans (in
 * SUGAR RAY, three without: they miss the turn and sit out the next), and
 * turns enough for GOLD to fill, so that the swept turn has a title bout
 * (and SUGAR RAY pauses). */
static void turn_template(enum rules rules)
{
    static const char *const boxing[] = {"5/5/10 (ring)", "6/6/8; 4) 4H/8/8 (inside)",
                                         "3/5/12 (clinch); if endurance_percent < 40 then 5/5/10"};
    static const char *const sugarray[] = {"4/0", "0/3", NULL};
    struct sheet s = {.rules = rules};
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], err[256];
    int k;

    world_open_at(tmpl);
    for (int i = 0; i < 10; i++) {
        char name[16], fighter[16];
        snprintf(name, sizeof(name), "p%d", i);
        snprintf(fighter, sizeof(fighter), "Boxer%d", i);
        if (rules == RULES_BOXING)
            s.u.boxing = (struct boxing_sheet){10 + i % 5, 12, 14 - i % 5, 12, 12};
        else
            s.u.sugarray = (struct sugarray_sheet){10, 18 + i % 5};
        player_planned(name, fighter, &s, rules == RULES_BOXING ? boxing[i % 3] : sugarray[i % 3]);
        if (rules != RULES_BOXING && i < 4) {
            /* In GOLD from the start: SUGAR RAY's pauses slow the climb. */
            struct db_fighter f;
            char key[16];
            snprintf(key, sizeof(key), "boxer%d", i);
            ck_assert_int_eq(db_fighter_get(db, key, &f), DB_OK);
            f.league = LEAGUE_GOLD;
            ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
        }
    }
    for (int t = 0; t < 4; t++)
        ck_assert_msg(league_turn(game, rules, 100 + (uint64_t)t, "#league", lines, &k, err,
                                  sizeof(err)) == 0,
                      "%s", err);
    world_close();
}

/* The turn as the admin runs it: "admin" is told its summary or failure. */
static int turn_run(enum rules rules)
{
    next_seed = LEAGUE_SEED;
    return league_turn_announce(game, rules, "#league", "admin");
}

static void turn_sweep(enum rules rules)
{
    char *base, *base_said, failed[64];
    long n;

    turn_template(rules);
    world_open();
    ck_assert_int_eq(turn_run(rules), 0);
    base = dump();
    base_said = xstrdup(said.p);
    ck_assert_msg(strstr(base_said, "admin|chatter|Title bout #") != NULL, "%s", base_said);
    world_close();
    snprintf(failed, sizeof(failed),
             "admin|reply|The %s league turn failed: ", ruleset_get(rules)->name);

    for (n = 0; n < SWEEP_MAX; n++) {
        world_open();
        char *before = dump();
        db_fault_after(db, n);
        int rc = turn_run(rules);
        int fired = !db_fault_pending(db);
        db_fault_after(db, -1);
        char *now = dump();
        if (!fired) {
            ck_assert_int_eq(rc, 0);
            SAME_TEXT(now, base, "the database");
            SAME_TEXT(said.p, base_said, "what was said");
            free(now);
            free(before);
            world_close();
            break;
        }
        ck_assert_msg(rc == -1, "n = %ld: the turn went on after a fault:\n%.2000s", n, said.p);
        SAME_TEXT(now, before, "the database after the failure");
        HAS("log|error|league turn of ");
        HAS(failed);
        HAS("(injected fault)");
        free(now);
        free(before);
        /* The admin runs it again. */
        str_clear(&said);
        ck_assert_int_eq(turn_run(rules), 0);
        now = dump();
        SAME_TEXT(now, base, "the database after the next attempt");
        SAME_TEXT(said.p, base_said, "what the next attempt said");
        free(now);
        world_close();
    }
    /* A turn writes each fighter's rating once (the SUGAR RAY template's
     * turn takes about 95 statements): the bound says the sweep ran. */
    ck_assert_msg(n > 80 && n < SWEEP_MAX, "the sweep ended at %ld", n);
    free(base);
    free(base_said);
}

START_TEST(test_fault_league_turn)
{
    turn_sweep(RULES_BOXING);
}
END_TEST

START_TEST(test_fault_league_turn_sugarray)
{
    turn_sweep(RULES_SUGARRAY); /* pauses, missed plans, training */
}
END_TEST

/* ---------------------------------------------------------- migrations */

/* The text of the file at `p` (allocated). */
static char *dump_file(const char *p)
{
    struct str s;
    char err[256];

    str_init(&s);
    ck_assert_msg(db_dump_file(p, &s, err, sizeof(err)) == DB_OK, "%s", err);
    return str_take(&s, NULL);
}

/* A fresh attempt's file: a copy of `source`, or none (NULL). */
static void migration_file(const char *source)
{
    file_remove(path);
    if (source)
        file_copy(source, path);
}

/* Sweeps the faults over opening `source` (NULL: a new file), which is at
 * schema `from`: every failure leaves the file at a version it had or
 * migrated to whole, never in between. */
static void migration_sweep(const char *source, int from)
{
    int latest = db_schema_latest();
    char **ref = xcalloc((size_t)latest + 1, sizeof(*ref)), err[512];
    long n;

    /* What the file holds at each version, migrated there without a fault. */
    for (int v = from; v <= latest; v++) {
        migration_file(source);
        ck_assert_msg(db_test_file(path, v, NULL, err, sizeof(err)) == DB_OK, "%s", err);
        ref[v] = dump_file(path);
    }
    for (n = 0; n < SWEEP_MAX; n++) {
        migration_file(source);
        struct db *d = db_open_fault(path, n, err, sizeof(err));
        if (d) {
            /* Every step ran. */
            ck_assert_msg(db_fault_pending(d), "n = %ld: opened after a fault", n);
            db_close(d);
            char *now = dump_file(path);
            SAME_TEXT(now, ref[latest], "the file");
            free(now);
            break;
        }
        /* A clear message, and a file at a whole version. */
        ck_assert_msg(strstr(err, path) && strstr(err, "disk I/O error (injected fault)"),
                      "n = %ld: %s", n, err);
        char *now = dump_file(path);
        int v = -1;
        ck_assert_int_eq(sscanf(now, "user_version %d", &v), 1);
        ck_assert_msg(v >= from && v < latest, "n = %ld: version %d", n, v);
        SAME_TEXT(now, ref[v], "the file after the failure");
        if (!strstr(err, "cannot open")) {
            char what[64];
            snprintf(what, sizeof(what), ": migration %d failed: ", v + 1);
            ck_assert_msg(strstr(err, what) != NULL, "n = %ld: %s", n, err);
        }
        free(now);
        /* The next attempt migrates it the rest of the way. */
        struct db *again = db_open(path, err, sizeof(err));
        ck_assert_msg(again != NULL, "n = %ld: %s", n, err);
        db_close(again);
        now = dump_file(path);
        SAME_TEXT(now, ref[latest], "the file after the next attempt");
        free(now);
    }
    ck_assert_msg(n > 10 && n < SWEEP_MAX, "the sweep ended at %ld", n);
    for (int v = 0; v <= latest; v++)
        free(ref[v]);
    free(ref);
}

START_TEST(test_fault_migration_of_schema3)
{
    migration_sweep("tests/data/schema3.db", 3);
}
END_TEST

START_TEST(test_fault_migration_of_a_new_file)
{
    migration_sweep(NULL, 0);
}
END_TEST

Suite *fault_suite(void)
{
    Suite *s = suite_create("faults");
    TCase *tc = tcase_create("sweeps");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_fault_round_by_order);
    tcase_add_test(tc, test_fault_last_round_by_order);
    tcase_add_test(tc, test_fault_round_by_deadline);
    tcase_add_test(tc, test_fault_league_turn);
    tcase_add_test(tc, test_fault_league_turn_sugarray);
    tcase_add_test(tc, test_fault_migration_of_schema3);
    tcase_add_test(tc, test_fault_migration_of_a_new_file);
    suite_add_tcase(s, tc);
    return s;
}
