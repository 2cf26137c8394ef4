/* game_fixture.h - the fake world the game tests run in (check_game.c,
 * check_fighter.c, check_fault.c): a database in a temporary directory, a
 * game whose io is a fake clock and a list of the lines it said
 * ("target|voice|text\n", in one struct str), and callers who answer into
 * the same list. Each test file that includes it gets its own copy of this
 * state; fixture_setup and fixture_teardown are the usual Check fixture,
 * and a file with other needs (check_fault.c's template files) writes its
 * own around fixture_world. */
#ifndef RINGSIDE_GAME_FIXTURE_H
#define RINGSIDE_GAME_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "test_db.h"
#include "tests.h"
#include "util.h"

static struct db *db;
static struct game *game;
static char dir[64], path[128];
static struct str said; /* "target|voice|text\n" for every line */
static double clock_now;
static int64_t wall_now;
static uint64_t next_seed;
static int pending_lines; /* what the fake output has not delivered */

static inline void note(const char *target, const char *voice, const char *text)
{
    str_add(&said, "%s|%s|%s\n", target, voice, text);
}

static inline void io_say(void *ctx, enum game_voice voice, const char *target, const char *text)
{
    (void)ctx;
    static const char *const names[] = {[GAME_REPLY] = "reply",
                                        [GAME_CHATTER] = "chatter",
                                        [GAME_LIVE] = "live",
                                        [GAME_ROUND] = "live",
                                        [GAME_BULK] = "bulk"};
    /* A live bout's channel lines are its commentary. */
    if ((voice == GAME_LIVE || voice == GAME_ROUND) && target[0] == '#')
        voice = GAME_CHATTER;
    note(target, names[voice], text);
}

static inline const char *io_nick_of(void *ctx, int64_t account_id)
{
    (void)ctx;
    (void)account_id;
    return NULL; /* players are told under their account names */
}

static inline int io_same_name(void *ctx, const char *a, const char *b)
{
    (void)ctx;
    return strcmp(a, b) == 0;
}

static inline double io_clock(void *ctx)
{
    (void)ctx;
    return clock_now;
}

static inline int64_t io_wall(void *ctx)
{
    (void)ctx;
    return wall_now;
}

static inline uint64_t io_seed(void *ctx)
{
    (void)ctx;
    return next_seed++;
}

static inline unsigned long io_mark(void *ctx)
{
    (void)ctx;
    return 1;
}

static inline int io_delivered(void *ctx, unsigned long mark)
{
    (void)ctx;
    (void)mark;
    return pending_lines == 0;
}

static inline void io_log(void *ctx, enum game_log level, const char *text)
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

static const struct game_config cfg = {
    .order_timeout = 60, .challenge_timeout = 300, .rounds = 3, .prefix = "!", .channel = "#ring"};

static inline void answer(void *ctx, int how, const char *text)
{
    note((const char *)ctx, how & GAME_ANSWER_PRIVATE ? "private" : "answer", text);
}

/* A caller: account `name` (id `id`) in #ring, or in private when
 * channel is 0. */
static inline struct game_caller caller(const char *name, int64_t id, int channel)
{
    return (struct game_caller){.account_id = id,
                                .account = name,
                                .nick = name,
                                .channel = channel ? "#ring" : NULL,
                                .answer = answer,
                                .ctx = (void *)name};
}

static inline void start_game(void)
{
    char err[256];

    game = game_new(db, &io, &cfg, err, sizeof(err));
    ck_assert_msg(game != NULL, "%s", err);
}

/* The fake world as every test starts it: nothing said, the clocks and
 * the seeds at their start, everything said delivered. */
static inline void fixture_world(void)
{
    str_free(&said);
    clock_now = 1000;
    wall_now = 1700000000;
    next_seed = 77;
    pending_lines = 0;
}

static inline void fixture_setup(void)
{
    char err[256];

    snprintf(dir, sizeof(dir), "/tmp/ringside-game-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/ringside.db", dir);
    db = test_db_open(path, err, sizeof(err));
    ck_assert_msg(db != NULL, "%s", err);
    fixture_world();
    start_game();
}

static inline void fixture_teardown(void)
{
    char cmd[128];

    game_free(game);
    test_db_close(db, path);
    str_free(&said);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Forgets what was said so far. */
static inline void hush(void)
{
    str_clear(&said);
}

#define HAS(needle)                                                                                \
    ck_assert_msg(strstr(said.p, (needle)) != NULL, "no \"%s\" in:\n%.4000s", needle, said.p)

/* An account and one fighter of `rules`; returns the account id. */
static inline int64_t player(const char *name, const char *fighter, const struct sheet *sheet)
{
    int64_t id;
    char key[DB_NAME_MAX];
    struct db_fighter f;

    ck_assert_int_eq(db_account_create(db, name, name, "$y$hash", 1, &id), DB_OK);
    memset(&f, 0, sizeof(f));
    f.account_id = id;
    snprintf(f.name, sizeof(f.name), "%s", fighter);
    f.sheet = *sheet;
    snprintf(key, sizeof(key), "%s", fighter);
    for (char *c = key; *c; c++)
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
    ck_assert_int_eq(db_fighter_create(db, key, &f), DB_OK);
    return id;
}

#endif
