/*
 * parse.h - text to engine structures: one-line orders and fighter sheets.
 *
 * Parsers never print: on bad input they return -1 and fill a
 * `struct parse_error` with the 1-based column where the problem starts and
 * a one-line reason a player can act on. Nothing is changed on error.
 */
#ifndef RINGSIDE_PARSE_H
#define RINGSIDE_PARSE_H

#include <stddef.h>

#include "engine.h"

#define PARSE_REASON_MAX 160

struct parse_error {
    int line;   /* 1-based line of a plan; 0 for one-line texts */
    int column; /* 1-based; 0 when the error is about the whole text */
    char reason[PARSE_REASON_MAX];
};

/* Parses one order for `rules`:
 *   boxing    A[H|B]/P[!]/D [(style)]   e.g. "4H/8!/8 (inside)", "6b/7/7(cou)"
 *   sugarray  attack/defence or "attack defence", each 0..99
 * Returns 0 and fills *o (o->rules set), or -1 and fills *err. */
int order_parse(enum rules rules, const char *text, struct order *o, struct parse_error *err);

/* Writes the normal form of `o` into buf (always NUL-terminated when
 * len > 0): boxing "A[H|B]/P[!]/D" plus " (style)" when there is one
 * (full style name, e.g. "4H/8!/8 (inside)"), sugarray "A/D".
 * Returns the length the full text needs, like snprintf. */
int order_format(const struct order *o, char *buf, size_t len);

/* Parses a sheet given as whitespace-separated key=value pairs:
 *   boxing    str= spd= agl= tgh= hgt=   (all five, each 1..25)
 *   sugarray  skill= end= (or endurance=) (skill 1..99, end 1..999)
 * Returns 0 and fills *s (s->rules set), or -1 and fills *err. */
int sheet_parse(enum rules rules, const char *text, struct sheet *s, struct parse_error *err);

/* "line L, column C: reason" (the parts that are 0 left out) into buf. */
int parse_error_format(const struct parse_error *err, char *buf, size_t len);

/* ------------------------------------------------------------- plans */

#define PLAN_LINES_MAX 200  /* lines, blank lines and comments included */
#define PLAN_BYTES_MAX 8192 /* bytes of plan text */

/* A compiled fight plan (docs/plans.md). Opaque; evaluating it needs no
 * regular expression and no allocation. */
struct plan;

/* Parses and checks `text` (lines separated by newlines or ';') for
 * `rules`. Returns the compiled plan (free it with plan_free), or NULL with
 * *err filled (line, column, reason). */
struct plan *plan_compile(enum rules rules, const char *text, struct parse_error *err);
void plan_free(struct plan *p);

/* The orders for the round described by *v: the last line whose round tag
 * is at most v->round and whose condition holds. Fills *o (a towel line
 * gives the default order with towel set, boxing only) and returns the
 * 1-based line number used, or 0 when no line applies and *o is the
 * ruleset's default order. */
int plan_eval(const struct plan *p, const struct plan_vars *v, struct order *o);

/* The text of line `line` (1-based) as written, without the separator, or
 * "" when there is no such line. Valid while the plan lives. */
const char *plan_line(const struct plan *p, int line);

/* Why line `line` applies under *v, for --explain: its round tag and, for a
 * conditional, each variable's value, e.g.
 * "from round 9; endurance_percent = 45, so the condition holds". Returns
 * the length the full text needs, like snprintf. */
int plan_explain(const struct plan *p, int line, const struct plan_vars *v, char *buf, size_t len);

/* For `plan check`: which line each round would use (rounds 1-12; a
 * shorter ruleset's own length, e.g. 1-5 in sugarray) with neutral bout
 * state (full endurance, no score, no injuries, no knockdowns, no warnings;
 * the opponent strong), written as one short line, e.g.
 * "rounds 1-5: line 1 (5/5/10); rounds 6-12: line 2 (4/6/10)". Returns the
 * length the full text needs, like snprintf. */
int plan_summary(const struct plan *p, char *buf, size_t len);

#endif
