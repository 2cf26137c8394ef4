/*
 * parse_internal.h - what the files of parse/ share and nobody else sees:
 * the rulesets' grammars, the small text helpers, the regular expressions
 * one-line orders are read with, and the generic key=value sheet reader.
 *
 * A ruleset's grammar lives in parse/NAME.c (NAME as in engine/rulesets.h),
 * which defines `const struct grammar NAME_grammar`; parse/grammar.c lists
 * them. The generic files (order.c, sheet.c, plan.c) reach a ruleset only
 * through grammar_get.
 */
#ifndef RINGSIDE_PARSE_INTERNAL_H
#define RINGSIDE_PARSE_INTERNAL_H

#include <stddef.h>

#include "parse.h"

#if defined(__GNUC__)
#define PARSE_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PARSE_PRINTF(f, a)
#endif

/* Longest piece of the player's text an order or sheet reason quotes back. */
#define PARSE_QUOTE_MAX 24

/* The grammars, one per line of engine/rulesets.h. */
#define RULESET(name, NAME) extern const struct grammar name##_grammar;
#include "rulesets.h"
#undef RULESET

/* ------------------------------------------------------------ util.c */

/* The 1-based column of byte `offset` (INT_MAX past it). */
int parse_column(size_t offset);
/* C-locale whitespace and lower case, whatever the process locale. */
int parse_is_space(char c);
char parse_lower(char c);
/* Length of the run of non-whitespace bytes at s. */
size_t parse_token_length(const char *s);
/* 1 if `text` is empty or only whitespace. */
int parse_blank(const char *text);
/* Fills *err (when not NULL) with line, column and the formatted reason;
 * returns -1. */
int parse_fail(struct parse_error *err, int line, int column, const char *fmt, ...)
    PARSE_PRINTF(4, 5);
/* Copies the n bytes at s into out (max + 4 bytes) for quoting in a
 * reason: control bytes become '?'; a text longer than `max` bytes is cut
 * to at most `keep` (<= max) bytes, without splitting a UTF-8 sequence, and
 * ends in "...". */
void parse_quote(const char *s, size_t n, size_t max, size_t keep, char *out);

/* ----------------------------------------------------------- match.c */

/* Capturing groups a pattern may have, group 0 (the whole match) included. */
#define MATCH_GROUPS_MAX 16

/* A PCRE2 pattern (caseless, anchored), compiled on first use and kept for
 * the life of the process. Define one per pattern with static storage:
 *     static struct match_pattern p = {"^\\s*+(\\d++)"};
 * `code` is the compiled pcre2_code, NULL until then; only match.c
 * touches it. */
struct match_pattern {
    const char *source;
    void *code;
};

/* The groups of one match of a pattern against a text. */
struct match {
    const char *text; /* the text matched; the offsets are into it */
    size_t end;       /* where the match stopped */
    int count;        /* groups 1 .. count - 1 may be set */
    size_t ov[2 * MATCH_GROUPS_MAX];
};

/* Matches `p` against the NUL-terminated `text` into *m (which borrows
 * `text`). Returns 0, or -1 when PCRE2 finds no match or cannot finish.
 * A pattern that does not compile, or has more than MATCH_GROUPS_MAX - 1
 * groups, is a programming error and aborts, as does running out of
 * memory. Not thread-safe on a pattern's first use. */
int match_run(struct match_pattern *p, const char *text, struct match *m);
/* 1 if group i took part in the match. */
int match_set(const struct match *m, int i);
/* Byte offset in m->text and length of group i, which is set. */
size_t match_start(const struct match *m, int i);
size_t match_length(const struct match *m, int i);
/* The value of the digits of group i (set, all digits); anything above
 * cap reads as cap + 1. */
int match_number(const struct match *m, int i, int cap);

/* ----------------------------------------------------------- sheet.c */

/* At most SHEET_FIELDS_MAX keys (engine.h), a sheet's abilities. */

/* One key of a sheet. */
struct sheet_field {
    const char *name;  /* as written in reasons, lower case */
    const char *alias; /* another accepted spelling (lower case), or NULL */
    int min, max;
    int example; /* a typical value, for reasons */
};

/* A ruleset's sheet as key=value text. */
struct sheet_layout {
    const char *rules_name; /* "boxing", in "a boxing sheet has ..." */
    const char *keys;       /* "str, spd, agl, tgh and hgt" */
    const char *example;    /* a whole sheet, "str=14 spd=12 ..." */
    int n;                  /* fields used, 1 .. SHEET_FIELDS_MAX */
    struct sheet_field fields[SHEET_FIELDS_MAX];
};

/* Reads the whitespace-separated key=value pairs of `text` as laid out by
 * *l: values[i] gets the value of l->fields[i]. Every key must appear
 * exactly once, with a value in its range (within *b when b is not NULL). Returns 0, or -1 after
 * filling *err with the first problem met left to right (missing keys last, column 0); values[] may
 * then be partly written. */
int sheet_read(const struct sheet_layout *l, const char *text, const struct sheet_bounds *b,
               int values[SHEET_FIELDS_MAX], struct parse_error *err);

/* Reads the value of ability `key`, the n bytes at s (at byte `offset` of
 * the text), a whole number from lo to hi (or within *b when b is not
 * NULL), into *v; `example` is a typical value for the reason. Returns 0,
 * or -1 after filling *err. */
int sheet_value_read(const char *key, const char *s, size_t n, size_t offset, int lo, int hi,
                     int example, const struct sheet_bounds *b, int *v, struct parse_error *err);

#endif
