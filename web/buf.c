/*
 * buf.c - a growing text, and the two escapes every text a user chose goes
 * through on its way out: HTML (text and attribute values alike) and JSON.
 *
 * Both decode UTF-8 strictly: a byte that does not start a well-formed
 * sequence (overlong forms, surrogates and code points past U+10FFFF
 * included) becomes U+FFFD, so nothing a user typed can end up as markup
 * or break the page's encoding.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web.h"

/* Makes room for n more bytes and the NUL. */
static void grow(struct buf *b, size_t n)
{
    if (b->len + n + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
        cap *= 2;
    b->s = xrealloc(b->s, cap);
    b->cap = cap;
}

void buf_raw(struct buf *b, const char *s, size_t n)
{
    grow(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void buf_add(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    char small[256];

    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof(small)) {
        buf_raw(b, small, (size_t)n);
        return;
    }
    grow(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *buf_take(struct buf *b, size_t *len)
{
    if (!b->s)
        grow(b, 0), b->s[0] = '\0';
    char *s = b->s;
    if (len)
        *len = b->len;
    memset(b, 0, sizeof(*b));
    return s;
}

/* The length of the well-formed UTF-8 sequence at s (1 to 4), or 0 when
 * the byte there does not start one. */
static int utf8_len(const unsigned char *s)
{
    unsigned c = s[0];

    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        return (s[1] & 0xc0) == 0x80 ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        unsigned lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
        return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 ? 3 : 0;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        unsigned lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
        return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 && (s[3] & 0xc0) == 0x80 ? 4 : 0;
    }
    return 0;
}

#define REPLACEMENT "\xef\xbf\xbd"

void buf_html(struct buf *b, const char *text)
{
    const unsigned char *s = (const unsigned char *)(text ? text : "");

    while (*s) {
        const unsigned char *run = s;
        /* The common case: a run of plain printable ASCII. */
        while (*s >= 0x20 && *s < 0x7f && *s != '&' && *s != '<' && *s != '>' && *s != '"' &&
               *s != '\'')
            s++;
        if (s > run)
            buf_raw(b, (const char *)run, (size_t)(s - run));
        if (!*s)
            break;
        switch (*s) {
        case '&':
            buf_raw(b, "&amp;", 5);
            s++;
            continue;
        case '<':
            buf_raw(b, "&lt;", 4);
            s++;
            continue;
        case '>':
            buf_raw(b, "&gt;", 4);
            s++;
            continue;
        case '"':
            buf_raw(b, "&quot;", 6);
            s++;
            continue;
        case '\'':
            buf_raw(b, "&#39;", 5);
            s++;
            continue;
        default:
            break;
        }
        if (*s < 0x20 || *s == 0x7f) {
            s++; /* control characters (IRC's bold and colours) say nothing here */
            continue;
        }
        int n = utf8_len(s);
        if (n == 0) {
            buf_raw(b, REPLACEMENT, 3);
            s++;
        } else {
            buf_raw(b, (const char *)s, (size_t)n);
            s += n;
        }
    }
}

void buf_json(struct buf *b, const char *text)
{
    const unsigned char *s = (const unsigned char *)(text ? text : "");

    buf_raw(b, "\"", 1);
    while (*s) {
        const unsigned char *run = s;
        while (*s >= 0x20 && *s < 0x7f && *s != '"' && *s != '\\' && *s != '<' && *s != '>' &&
               *s != '&')
            s++;
        if (s > run)
            buf_raw(b, (const char *)run, (size_t)(s - run));
        if (!*s)
            break;
        if (*s == '"') {
            buf_raw(b, "\\\"", 2);
            s++;
        } else if (*s == '\\') {
            buf_raw(b, "\\\\", 2);
            s++;
        } else if (*s == '\n') {
            buf_raw(b, "\\n", 2);
            s++;
        } else if (*s < 0x20 || *s == 0x7f || *s == '<' || *s == '>' || *s == '&') {
            buf_add(b, "\\u%04x", *s);
            s++;
        } else {
            int n = utf8_len(s);
            if (n == 0) {
                buf_raw(b, "\\ufffd", 6);
                s++;
            } else {
                buf_raw(b, (const char *)s, (size_t)n);
                s += n;
            }
        }
    }
    buf_raw(b, "\"", 1);
}
