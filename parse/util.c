/*
 * util.c - the small helpers every parser of parse/ shares: columns,
 * C-locale character classes and tokens, errors, and quoting a user's text
 * back.
 */
#include <limits.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parse_internal.h"

int parse_column(size_t offset)
{
    return offset < (size_t)INT_MAX ? (int)offset + 1 : INT_MAX;
}

int parse_is_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

char parse_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

size_t parse_token_length(const char *s)
{
    size_t n = 0;

    while (s[n] && !parse_is_space(s[n]))
        n++;
    return n;
}

int parse_blank(const char *text)
{
    while (parse_is_space(*text))
        text++;
    return *text == '\0';
}

int parse_fail(struct parse_error *err, int line, int column, const char *fmt, ...)
{
    va_list ap;

    if (!err)
        return -1;
    err->line = line;
    err->column = column;
    va_start(ap, fmt);
    vsnprintf(err->reason, sizeof(err->reason), fmt, ap);
    va_end(ap);
    return -1;
}

void parse_quote(const char *s, size_t n, size_t max, size_t keep, char *out)
{
    size_t k = n;

    if (k > max) {
        k = keep;
        while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
            k--;
    }
    for (size_t i = 0; i < k; i++) {
        unsigned char c = (unsigned char)s[i];
        out[i] = c < 0x20 || c == 0x7F ? '?' : (char)c;
    }
    strcpy(out + k, k < n ? "..." : "");
}

int parse_u64(const char *s, uint64_t *v)
{
    uint64_t x = 0;

    if (*s == '\0')
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (x > (UINT64_MAX - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}
