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
    int failing; /* the last try of its next round could not be stored */
    /* After a (re)connection: the clock waits for both players to be back
     * until grace_end (monotonic); unasked: not yet asked for his orders
     * since then (he was away). */
    int waiting;
    double grace_end;
    int unasked[SIDES];
    int left[SIDES]; /* away with his network (io.away): waited for once */
    /* The live table (live.c): its place in g->v, and the keys it was
     * indexed under when added. */
    int slot;
    int64_t keyed_id, keyed_fighter[SIDES], keyed_account[SIDES];
    int shared; /* it shared its channel with another live bout: packed to its end */
    /* The output's mark after each side's "orders stored" for the next
     * round (0: none said): still queued when the round is fought, it is
     * dropped and the next prompt acknowledges his orders instead. */
    unsigned long ack_mark[SIDES];
    /* The nick each player was last identified under, as stored with his
     * account (migration 22), once read (nick_read): where he is told
     * things while io.nick_of knows him not (after a restart). */
    char nick[SIDES][DB_NICK_MAX];
    int nick_read[SIDES];
    /* A challenge: 1 once its challenged player was told of it (the
     * channel's line found him there identified, or a private line did:
     * challenge_tell); 0 while he was away. Not stored: after a restart he
     * may be told once more. */
    int told;
};

/* An index of the live table: (key, bout) pairs, a hash multimap
 * (live.c). */
struct live_map_entry {
    int64_t key;
    struct live *lv; /* NULL: an empty slot */
};

struct live_map {
    struct live_map_entry *e;
    size_t cap, n;
};

/* A round whose commentary is said but not yet marked said in the
 * database. */
struct unsaid {
    int64_t id;
    int round;
    unsigned long mark; /* the output's mark after its last line */
};

/* A simulation waiting to be fought (simulate.c), and whose it is. */
struct sim_job {
    struct sim *sim;
    int64_t account_id;
    char account[DB_NAME_MAX];
};

/* When a player last started a simulation (monotonic). */
struct sim_start {
    int64_t account_id;
    double at;
};

struct game {
    /* The accounts seen identified since the bot last connected (a set of
     * ids, open addressing, 0 empty): their stored last nick is not used
     * any more (live_nick), since after a QUIT it may be someone else's. */
    int64_t *seen;
    size_t seen_cap, seen_n;
    struct db *db;
    struct game_io io;
    struct game_config cfg;
    /* Challenges and live bouts (live.c): v[0..n-1], room for cap,
     * indexed by bout id, fighter and account. */
    struct live **v;
    int n, cap;
    struct live_map by_id, by_fighter, by_account;
    struct unsaid *unsaid; /* grown as needed, up to UNSAID_MAX (room for cap_unsaid) */
    int nunsaid, cap_unsaid;
    int online;       /* between game_connected and game_disconnected */
    double next_look; /* the league schedule's next look (monotonic) */
    int64_t started;  /* unix time of the first look */
    /* League turns found begun and not finished at start-up (bit per
     * ruleset; league_unfinished_report), said once in the league channel. */
    unsigned turns_unfinished;
    int64_t turns_begun[RULES_COUNT];
    /* The season a committed league turn just ended, per ruleset (0:
     * none), for season_announce to say after the turn's summary. */
    int season_ended[RULES_COUNT];
    /* A league turn ran since the last tick: its WAL is checkpointed at
     * the next (league_tick; db_league_wal). */
    int wal_due;
    /* Tournaments (tournament.c): resumed once online; the next look at
     * their schedule (monotonic). */
    int tour_resumed;
    double tour_look;
    int64_t tour_live; /* the live tournament running, or 0 */
    int tour_any;      /* a tournament may be open or running: look */

    /* Simulations waiting, the next to fight first; who started one
     * within SIM_EVERY. */
    struct sim_job *sims[SIM_JOBS_MAX];
    int nsims;
    struct sim_start sim_recent[SIM_RECENT_MAX];
    int nrecent;
};

/* The live table (live.c). live_table_add appends lv (its rec and f[]
 * read) and indexes it: 0, or -1 with the table at BOUTS_MAX (nothing
 * changed). live_table_remove takes lv out (the last one moves into its
 * place) without freeing it. live_table_free frees every bout and the
 * table. live_by_id: the bout numbered `id`, or NULL. live_by_fighter: the
 * bout fighter `fighter` is in (the first in the table's order), or NULL.
 * live_by_account: the bouts with `account` on a side, in the table's
 * order, the first `max` of them into out[]; returns how many there are
 * in all. */
int live_table_add(struct game *g, struct live *lv);
void live_table_remove(struct game *g, struct live *lv);
void live_table_free(struct game *g);
struct live *live_by_id(const struct game *g, int64_t id);
struct live *live_by_fighter(const struct game *g, int64_t fighter);
int live_by_account(const struct game *g, int64_t account, struct live **out, int max);

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

/* A day (UTC) in seconds: the daily caps (create, challenge) count by the
 * day's number, unix time / DAY_SECONDS. */
#define DAY_SECONDS 86400

/* How long from unix time `now` to the next 00:00 UTC, as people say it,
 * rounded up to the minute: "3 hours 5 minutes", "1 hour", "12 minutes"
 * (a daily cap's refusal says when the next day starts). Returns buf. */
char *game_until_midnight(char *buf, size_t len, int64_t now);

/* 1 if the commentary of stored bout `rec` draws its words from the
 * flavour stream: every exhibition (said in a channel as it is fought), and
 * the league bouts fought before schema 4. A replay must draw as the bout
 * did, since the engine's own flavour draws come after the words'. */
int bout_words(const struct db_bout *rec);

/* The seconds between two rounds of a live bout that fights itself (a
 * duel): [bout] duel_round_seconds, 4 when unset. */
int bout_auto_seconds(const struct game *g);

/* The order of `side` for the next round of `b` as a league bout and a
 * simulation take it: from plan `p` (returns the line used, 0 when none
 * applies and *o is the default), or with no plan (NULL) the ruleset's
 * default order (returns 0). */
int bout_plan_order(const struct plan *p, const struct bout *b, int side, struct order *o);

/* Frees every waiting simulation (game_free). */
void game_sims_free(struct game *g);

/* A stored bout being fought again (replay.c): bout_replay, the derived
 * texts and the web pages' view (view.c). */
#define REPLAY_ORDERS (2 * BOUT_ROUNDS_MAX + 4)
struct replayer {
    struct db_bout rec;
    struct render_corner corner[SIDES];
    char owner_network[SIDES][DB_NETWORK_MAX]; /* the owners' networks, for the pages */
    struct db_order ords[REPLAY_ORDERS];
    int nords;
    struct bout b;
    struct bout_rng r;
    struct events evs;
    uint64_t digest;
    int words; /* the commentary's words are drawn (see bout_words) */
    int full;  /* 1: the round's lines in full, as the pages show them */
    int blind; /* 1: no digest kept (the pages check none) */
    /* Each side's last order read, and its text in ords[] (a plan's order
     * comes round after round: it is read once). */
    const char *read_text[SIDES];
    struct order read[SIDES];
};

/* Loads bout `id` for a replay into *rp. Returns 0; or 2 (with err) when
 * it cannot be replayed: not found, never fought, a fighter or its orders
 * missing. */
int replayer_open(struct replayer *rp, struct db *db, int64_t id, char *err, size_t errlen);
/* Fights the next round from its stored orders, drawing the commentary's
 * words into lines[] (the channel's; in full when rp->full is set: the
 * same draws) and, when the bout ends, the result's into result[], *nres
 * of them, as the live bout did. Returns the number of commentary
 * lines (0 for a bout without words), or -1 when the round's orders are
 * missing or do not replay. */
int replayer_round(struct replayer *rp, char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX],
                   char result[RENDER_RESULT_MAX][RENDER_LINE_MAX], int *nres);

/* Records (record.c). record_conceded: 1 if order `o`, from `source`,
 * concedes the bout by the player's own word (a towel or yield he sent, or
 * the forfeit command), not by his plan. record_forfeit: 1 if result `res`
 * is such a concession of the loser (conceded[] per side, as
 * record_conceded said of each side's last order). record_win_add counts
 * how the win `res` ended into the winner's record `f` (kos, tkos, towels,
 * dqs or forfeits; nothing more for a decision or points). record_after_bout
 * runs rs->after_bout (sheet changes, training points[]) for `res`, a
 * forfeit counting as a win without a stoppage. */
int record_conceded(const struct order *o, enum db_order_source source);
int record_forfeit(const struct result *res, const int conceded[SIDES]);
void record_win_add(struct db_fighter *f, const struct result *res, int forfeit);
void record_after_bout(const struct ruleset *rs, const struct result *res, int forfeit,
                       struct sheet sh[SIDES], int points[SIDES]);
/* The sheet a bout leaves to a fighter stored as `now` when it ends: it
 * began with `start` and the bout alone would leave `after` (after_bout's
 * and sheet_after's work on `start`). What changed since the start by
 * other means (training, the armoury, other bouts' results) is kept, and
 * the bout's own changes are added: each ability moves by after - start
 * (never below its floor); a kit slot the bout changed takes the bout's item
 * and condition unless its piece was replaced meanwhile, and its wear is
 * taken from the stored condition when both changed it. */
struct sheet record_sheet_merge(const struct ruleset *rs, const struct sheet *start,
                                const struct sheet *after, const struct sheet *now);

/* The schedule of league turns (league.c), run from game_tick. */
void league_tick(struct game *g, const char *channel);

/* Ratings (rating.c). rating_counts: 1 if finished bout `rec` moves its
 * fighters' ratings (an exhibition only unless [rating] exhibitions = no; a tournament's always).
 * rating_bout_store: when it counts, both fighters' new ratings and their
 * history after `rec` (over: its winner, ended, id set), inside the
 * caller's transaction, and into moved[] (when not NULL; sides -1 when
 * it does not count) what they did; returns 0, or -1 on a database error
 * (the caller rolls back). rating_line_of: the line of moved[];
 * rating_line: "Ratings: Rocky 1532 (+32), Apollo 1468 (-32)"
 * of stored bout `bout` (winner first; names[] by side) into buf, and its
 * length; 0 with buf "" when the bout moved no rating. */
int rating_counts(const struct game *g, const struct db_bout *rec);
int rating_bout_store(struct game *g, const struct db_bout *rec,
                      struct db_rating_point moved[SIDES]);
/* rating_newcomer: a newcomer's rating into *r (no bouts yet).
 * rating_bout_keep: rating_bout_store for a caller that keeps the
 * fighters' ratings in memory (a league turn: read once, written once with
 * db_rating_set): when `rec` counts, moves *r[0] and *r[1] (by side) as
 * rating_bout_store would and stores only the bout's history rows; 1 when
 * it moved them, 0 when the bout does not count, -1 on a database error. */
void rating_newcomer(struct db_rating *r);
int rating_bout_keep(struct game *g, const struct db_bout *rec, struct db_rating *r[SIDES]);
int rating_line(struct db *db, int64_t bout, int winner, const char *const names[SIDES], char *buf,
                size_t len);
int rating_line_of(const struct db_rating_point p[SIDES], int winner,
                   const char *const names[SIDES], char *buf, size_t len);

/* Predictions (predict.c), called by bout.c. predict_closes: the rounds
 * of bout `rec` after which predictions close ([predict] closes_after; a
 * bout that fights itself: at least the rounds of 20 seconds). predict_store, inside the
 * transaction that stores round `round` of bout `rec` (`over`: its last): when the bout is over,
 * scores every prediction; when the round is the first said after they closed (or the last of a
 * bout over before), or over, reads them into *out (NULL when nothing is to be said). 0, or -1: the
 * transaction must roll back. Once stored: predict_count_add appends the
 * count to `line` (len bytes), the round's first commentary line;
 * predict_called says, after the result, the channel's "Called it" line
 * (tagged [#id] when packed) and each predictor's points in private;
 * predict_round_free frees *out (NULL is fine). */
struct predict_round;
int predict_closes(const struct game *g, const struct db_bout *rec);
/* predict_open_words: the start line's words saying that bout lv takes
 * predictions and until when (" Predictions open until round 1 is
 * fought: !predict 7 <fighter>."), appended to *s; nothing for a bout
 * that takes none. */
void predict_open_words(const struct game *g, const struct live *lv, struct str *s);
int predict_store(struct game *g, const struct db_bout *rec, int round, int over,
                  struct predict_round **out);
void predict_count_add(const struct predict_round *pr, const struct live *lv, char *line,
                       size_t len);
void predict_called(struct game *g, const struct live *lv, const struct predict_round *pr,
                    int packed);
void predict_round_free(struct predict_round *pr);
/* Tournaments (tournament.c). tournament_tick: once online, says what was
 * stored and not said, advances brackets whose round is over, starts
 * waiting live bouts and fights plans rounds on schedule (from game_tick).
 * tournament_bout_store: inside the transaction that stores the end of
 * live bout `rec`, its bracket place takes the winner (0; -1 on a
 * database error; 0 for a bout of no tournament). tournament_bout_over:
 * after it, the bracket goes on. tournament_live_go starts the live bouts
 * a live tournament's current round is waiting for. */
void tournament_tick(struct game *g);
/* Fighter `fighter` in the tournaments not over, for game_retire: 1 when
 * he is an entrant of one still open, 2 when he is still in one that has
 * begun (a bout of it lost: no longer in), that tournament into *t; 0 in
 * none; -1 on a database error. */
int tournament_entered(struct game *g, int64_t fighter, struct db_tournament *t);
int tournament_bout_store(struct game *g, const struct db_bout *rec);
void tournament_bout_over(struct game *g, int64_t bout);
void tournament_live_go(struct game *g, int64_t id);
/* Starts a live bout between f[0] and f[1] in `channel` with no challenge
 * (bout.c): stored live, and link(g, id, arg) run in the same transaction
 * (it returns 0 to commit); then the tale of the tape and the prompts, as
 * at an accept. Returns the bout's id, or 0 when nothing was started. */
int64_t bout_start_direct(struct game *g, const char *channel, enum rules rules, int rounds,
                          const struct db_fighter f[SIDES],
                          int (*link)(struct game *g, int64_t id, void *arg), void *arg);

#endif
