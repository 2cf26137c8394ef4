/*
 * quiet_io.h - the game's io for the benchmarks that drive game/ without
 * IRC (bench_bot.c's league turn, bench_pg.c's rounds): nothing is said,
 * the clock stands still, the seed is fixed and only errors are logged.
 * Included by one benchmark program each; static inline so that a
 * program using part of it builds without warnings.
 */
#ifndef RINGSIDE_BENCH_QUIET_IO_H
#define RINGSIDE_BENCH_QUIET_IO_H

#include <stdio.h>
#include <string.h>

#include "game.h"

static inline void quiet_say(void *ctx, enum game_voice voice, const char *target, const char *text)
{
    (void)ctx, (void)voice, (void)target, (void)text;
}

static inline const char *quiet_nick(void *ctx, int64_t account_id)
{
    (void)ctx, (void)account_id;
    return NULL;
}

static inline int quiet_same(void *ctx, const char *a, const char *b)
{
    (void)ctx;
    return strcmp(a, b) == 0;
}

static inline double quiet_clock(void *ctx)
{
    (void)ctx;
    return 1000.0;
}

static inline int64_t quiet_wall(void *ctx)
{
    (void)ctx;
    return 1700000000;
}

static inline uint64_t quiet_seed(void *ctx)
{
    (void)ctx;
    return 42;
}

static inline unsigned long quiet_mark(void *ctx)
{
    (void)ctx;
    return 0;
}

static inline int quiet_delivered(void *ctx, unsigned long mark)
{
    (void)ctx;
    (void)mark;
    return 1;
}

/* Errors only, on stderr, after the program's name (ctx: a const char *). */
static inline void quiet_log(void *ctx, enum game_log level, const char *text)
{
    if (level >= GAME_LOG_ERROR)
        fprintf(stderr, "%s: %s\n", ctx ? (const char *)ctx : "bench", text);
}

/* The io above, its log naming `program`. */
static inline struct game_io quiet_io(const char *program)
{
    return (struct game_io){
        .ctx = (void *)program,
        .say = quiet_say,
        .nick_of = quiet_nick,
        .same_name = quiet_same,
        .clock = quiet_clock,
        .wall = quiet_wall,
        .seed = quiet_seed,
        .mark = quiet_mark,
        .delivered = quiet_delivered,
        .log = quiet_log,
    };
}

#endif
