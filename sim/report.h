/*
 * report.h - bouts written out for people and for programs.
 *
 * The engine writes no English and keeps only the last round's figures, so a
 * caller records each round in a `struct report_log` as the bout goes, then
 * hands the finished bout to one of the writers here. Writers take a FILE *
 * (the simulator, tests and benchmarks all use them) and print nothing that
 * depends on time or addresses: the same bout always gives the same bytes.
 */
#ifndef RINGSIDE_REPORT_H
#define RINGSIDE_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "engine.h"

#define REPORT_NAME_MAX   20
#define REPORT_ROUNDS_MAX DUEL_ROUNDS /* the longest bout of any ruleset */
#define REPORT_WHY_MAX    240

/* Who fought, under which rules and seed. */
struct report_bout {
    enum rules rules;
    uint64_t seed;
    char name[SIDES][REPORT_NAME_MAX + 1];
    struct sheet sheet[SIDES];
};

/* One resolved round as seen right after bout_round(). */
struct report_round {
    struct boxing_side_round side[SIDES]; /* boxing: the round's figures */
    struct injury inj[SIDES][INJ_COUNT];  /* boxing: injuries at the end */
    int warnings[SIDES];                  /* boxing: warnings so far */
    int cards[SIDES][JUDGES];             /* boxing: running totals */
    struct duel_round duel;               /* duel: the round in full */
    struct events evs;                    /* what the engine reported */
    /* Where each side's order came from: a plan line (1..), the default
     * (0) or the given orders (-1); and, with --explain, why. Set by the
     * caller after report_log_round. */
    int line[SIDES];
    char why[SIDES][REPORT_WHY_MAX];
};

/* Every round of one bout, in order. */
struct report_log {
    int n;
    struct report_round round[REPORT_ROUNDS_MAX];
};

/* Statistics over many bouts. */
struct report_stats {
    long bouts;
    long wins[SIDES];
    long draws;
    long method[METHOD_DRAW + 1]; /* winners by method; draws under DRAW */
};

/* Empties `log` before a bout. */
void report_log_clear(struct report_log *log);

/* Appends the round `b` has just resolved (with its events `evs`) to `log`.
 * Call once after each successful bout_round(). Returns -1 (recording
 * nothing) when the log is full, else 0. */
int report_log_round(struct report_log *log, const struct bout *b, const struct events *evs);

/* Writes the text report of the finished bout `b` in its ruleset's own
 * form (sim/report_NAME.c): for boxing a header, every round of `log` and
 * the result line; for sugarray the two classic lines of seed 004, winner
 * first. Returns 0, or -1 if writing to `out` failed. */
int report_text(FILE *out, const struct report_bout *rb, const struct bout *b,
                const struct report_log *log);

/* Writes the finished bout `b` as one JSON object on one line (JSON Lines):
 * what every ruleset has (rules, seed, names, the result, each round's
 * plan line) and its ruleset's own fields (sim/report_NAME.c), whose rounds
 * come from `log` (boxing) or from `b` itself (sugarray).
 * Returns 0, or -1 if writing to `out` failed. */
int report_json(FILE *out, const struct report_bout *rb, const struct bout *b,
                const struct report_log *log);

/* Writes the one-line text of `res` (boxing) into buf, like snprintf:
 * "Rocky wins by KO in round 5.", "Draw (114-114, 115-113, 113-115)." ...
 * `b` is the finished bout (its injuries name a doctor's stoppage). */
int report_result_line(const struct report_bout *rb, const struct bout *b, char *buf, size_t len);

/* Counts the result of one finished bout in `st` (zero it first). */
void report_stats_add(struct report_stats *st, const struct result *res);

/* Writes the statistics as text, ending with the bouts_per_sec line.
 * Returns 0, or -1 if writing failed. */
int report_stats_text(FILE *out, const struct report_bout *rb, const struct report_stats *st,
                      double bouts_per_sec);

/* Writes the statistics as one JSON line {"stats":{...}}; the same figures as
 * the text but no timing, so the output is reproducible. Returns 0 or -1. */
int report_stats_json(FILE *out, const struct report_stats *st);

/* --replay DB BOUT (replay.c): the bot's bout_replay of bout BOUT of
 * database DB, on stdout. Returns the exit status: 0 every round and the
 * result match, 1 something differs, 2 the bout or database cannot be read
 * (with a one-line error on stderr). */
int sim_replay(const char *path, const char *bout);

/* --report / --commentary DB BOUT [ROUND] (replay.c): the report (report
 * nonzero) or the channel's commentary of bout BOUT, or of round ROUND
 * only (NULL: every round), derived from the stored seed and orders, on
 * stdout. Returns the exit status: 0, 1 when writing failed, 2 when the
 * arguments, the database or the bout cannot be used (a one-line error on
 * stderr). */
int sim_derive(const char *path, const char *bout, const char *round, int report);

#endif
