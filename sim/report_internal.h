/*
 * report_internal.h - what the files of the report share and nobody else
 * sees: the descriptor through which a ruleset plugs its parts of the text
 * report and of the JSON object into report.c, and the small writers they
 * all use.
 *
 * Each ruleset listed in engine/rulesets.h defines, in sim/report_NAME.c,
 * one `const struct report_rules NAME_report`, and report.c builds its table
 * from that list: a ruleset without its report does not link. Report files
 * other than the per-ruleset ones know no ruleset by name.
 */
#ifndef RINGSIDE_REPORT_INTERNAL_H
#define RINGSIDE_REPORT_INTERNAL_H

#include "game.h"
#include "report.h"

/* One ruleset's parts of the report. Every writer is given a FILE * and
 * reports nothing: report.c checks ferror() once the bout is written. */
struct report_rules {
    /* Copies into `rr` what this ruleset's report needs of the round `b`
     * has just resolved, beyond its events (report_log_round copies those
     * for every ruleset). NULL: nothing more. */
    void (*log_round)(struct report_round *rr, const struct bout *b);
    /* Writes the whole text report of the finished bout `b`, whose rounds
     * (and, with --explain, their plan lines) are in `log`. */
    void (*text)(FILE *out, const struct report_bout *rb, const struct bout *b,
                 const struct report_log *log);
    /* Writes the JSON object of the sheet `s`, of this ruleset. */
    void (*json_sheet)(FILE *out, const struct sheet *s);
    /* Writes the elements of the result's "cards" array, without its
     * brackets. NULL: the array stays empty. */
    void (*json_cards)(FILE *out, const struct result *res);
    /* The number of rounds the JSON "rounds" array lists for the finished
     * bout `b` recorded in `log`. */
    int (*json_rounds)(const struct bout *b, const struct report_log *log);
    /* Writes the fields of side `side` in round `r` (0-based, below
     * json_rounds), inside the braces of its object and before the fields
     * every ruleset has (the plan line, why): "order":"6/0",... */
    void (*json_side)(FILE *out, const struct bout *b, const struct report_log *log, int r,
                      int side);
    /* Optional: writes the round object's own fields of round `r`, each
     * starting with a comma, after "round" and before the sides. */
    void (*json_round)(FILE *out, const struct bout *b, const struct report_log *log, int r);
};

#define RULESET(name, NAME) extern const struct report_rules name##_report;
#include "rulesets.h"
#undef RULESET

/* Fills the corners the commentary module (game/render.c) wants from the
 * simulator's names and sheets in `rb`; nothing else of a corner is set. */
void report_corners(const struct report_bout *rb, struct render_corner c[SIDES]);

/* Writes `s` as a JSON string; anything below 0x20, '"' and '\' escaped. */
void report_json_string(FILE *out, const char *s);

/* Writes the `n` integers of `v` as a JSON array: [1,2,3]. */
void report_json_ints(FILE *out, const int *v, int n);

#endif
