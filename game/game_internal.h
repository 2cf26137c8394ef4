/*
 * game_internal.h - what the files of game/ share and nobody else sees:
 * the game's state, live bouts, and small helpers.
 */
#ifndef RINGSIDE_GAME_INTERNAL_H
#define RINGSIDE_GAME_INTERNAL_H

#include "game.h"

#define UNSAID_MAX 4096

/* A challenge or a live bout in memory (the database holds the truth). */
struct live {
    struct db_bout rec; /* as stored */
    struct db_fighter f[SIDES];
    struct render_corner corner[SIDES];
    struct bout b;       /* after rec.round rounds (live bouts) */
    struct bout_rng rng; /* likewise */
    uint64_t digest;     /* bout_digest after rec.round rounds */
    int have[SIDES];     /* orders stored for the next round */
    struct order next[SIDES];
    struct order last[SIDES]; /* the orders of the round before */
    int has_last[SIDES];
    double deadline; /* monotonic; 0 while not running */
    int reminded;
    /* The clock of a deadline starts once what asks for an answer (the
     * prompts, the challenge) is delivered: the output's mark after it. */
    int asking;
    unsigned long asked;
    double asked_at;
    int timeout; /* seconds, from then */
};

/* A round whose commentary is said but not yet marked said in the
 * database. */
struct unsaid {
    int64_t id;
    int round;
    unsigned long mark; /* the output's mark after its last line */
};

struct game {
    struct db *db;
    struct game_io io;
    struct game_config cfg;
    struct live *v[BOUTS_MAX];
    int n;
    struct unsaid unsaid[UNSAID_MAX];
    int nunsaid;
    double next_look; /* the league schedule's next look (monotonic) */
    int64_t started;  /* unix time of the first look */
};

/* Says a formatted line through the game's io (one line, no CR/LF). */
void game_say(struct game *g, enum game_voice voice, const char *target, const char *fmt, ...)
    GAME_PRINTF(4, 5);
/* Logs a formatted line through the game's io. */
void game_log(struct game *g, enum game_log level, const char *fmt, ...) GAME_PRINTF(3, 4);

static inline double game_now(const struct game *g)
{
    return g->io.clock(g->io.ctx);
}

static inline int64_t game_wall(const struct game *g)
{
    return g->io.wall(g->io.ctx);
}

/* 1 if the commentary of stored bout `rec` draws its words from the
 * flavour stream: every exhibition (said in a channel as it is fought), and
 * the league bouts fought before schema 4. A replay must draw as the bout
 * did, since the engine's own flavour draws come after the words'. */
int bout_words(const struct db_bout *rec);

/* The schedule of league turns (league.c), run from game_tick. */
void league_tick(struct game *g, const char *channel);

#endif
