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

/* "column N: reason" (or just the reason when column is 0) into buf. */
int parse_error_format(const struct parse_error *err, char *buf, size_t len);

#endif
