/*
 * parse_internal.h - helpers shared by the parsers of parse/ (orders,
 * sheets, plans); not part of the folder's public header.
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

/* The 1-based column of byte `offset` (INT_MAX past it). */
int parse_column(size_t offset);
/* C-locale whitespace and lower case, whatever the process locale. */
int parse_is_space(char c);
char parse_lower(char c);
/* Fills *err (when not NULL) with line, column and the formatted reason;
 * returns -1. */
int parse_fail(struct parse_error *err, int line, int column, const char *fmt, ...)
    PARSE_PRINTF(4, 5);
/* Copies the n bytes at s into out (max + 4 bytes) for quoting in a
 * reason: control bytes become '?'; a text longer than `max` bytes is cut
 * to at most `keep` (<= max) bytes, without splitting a UTF-8 sequence, and
 * ends in "...". */
void parse_quote(const char *s, size_t n, size_t max, size_t keep, char *out);

#endif
