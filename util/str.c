/*
 * str.c - the allocation wrappers and `struct str` (util.h has the
 * contracts and the out-of-memory policy).
 *
 * Invariants of a started str: p[len] == '\0'; len < cap; need >= len,
 * and need > len only for a fixed string that ran out of room, after which
 * its text is a prefix of the whole (cut at a character boundary) and
 * nothing more is written into it, only counted.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif

#include "util.h"

/* The empty text of a growable str with nothing allocated yet: never
 * written, not even its NUL again (len stays 0 and cap 1 until room is
 * made), since every thread's fresh strings share it (ringside-web's
 * workers: a write of the same zero is still a data race). */
static char empty[1];

void xoom(void)
{
    fputs("ringside: out of memory\n", stderr);
    abort();
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);

    if (!p)
        xoom();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);

    if (!p)
        xoom();
    return p;
}

void *xcalloc_pages(size_t size)
{
    /* Anonymous pages read as zeroes and take memory when first written. */
    void *p =
        mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (p == MAP_FAILED)
        xoom();
    return p;
}

void xfree_pages(void *p, size_t size)
{
    if (p)
        munmap(p, size ? size : 1);
}

void *xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);

    if (!p)
        xoom();
    return p;
}

void xtrim(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;

    return memcpy(xmalloc(n), s, n);
}

void str_init(struct str *s)
{
    s->p = empty;
    s->len = 0;
    s->cap = 1;
    s->need = 0;
    s->fixed = 0;
}

void str_init_fixed(struct str *s, char *buf, size_t cap)
{
    s->p = buf;
    s->len = 0;
    s->cap = cap;
    s->need = 0;
    s->fixed = 1;
    buf[0] = '\0';
}

/* Room for `more` bytes of text and the NUL: a growable str grows (at
 * least doubling); a fixed one says how many of them fit. */
static size_t room(struct str *s, size_t more)
{
    if (s->need > s->len)
        return 0; /* cut already: the rest is only counted */
    if (s->len + more < s->cap && s->p != empty)
        return more;
    if (s->fixed)
        return s->cap - 1 - s->len;
    size_t cap = s->cap < 64 ? 64 : s->cap;

    while (cap <= s->len + more)
        cap *= 2;
    if (s->p == empty) {
        s->p = xmalloc(cap);
        s->p[0] = '\0';
    } else {
        s->p = xrealloc(s->p, cap);
    }
    s->cap = cap;
    return more;
}

/* Ends a fixed str's text at `at` bytes, or before the character the cut
 * falls in when that character is not whole. */
static void cut_at(struct str *s, size_t at)
{
    size_t i = at;

    while (i > 0 && ((unsigned char)s->p[i - 1] & 0xC0) == 0x80)
        i--;
    if (i > 0) {
        unsigned char lead = (unsigned char)s->p[i - 1];
        size_t whole = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;

        if (i - 1 + whole > at)
            at = i - 1;
    }
    s->len = at;
    s->p[at] = '\0';
}

void str_raw_more(struct str *s, const char *text, size_t n)
{
    if (s->need == s->len) {
        size_t k = room(s, n);

        if (k > 0)
            memcpy(s->p + s->len, text, k);
        s->len += k;
        s->p[s->len] = '\0';
        if (k < n)
            cut_at(s, s->len);
    }
    s->need += n;
}

void str_ch(struct str *s, char c)
{
    if (s->need == s->len && s->len + 1 < s->cap) {
        s->p[s->len++] = c;
        s->need = s->len;
        s->p[s->len] = '\0';
        return;
    }
    str_raw(s, &c, 1);
}

void str_reserve(struct str *s, size_t n)
{
    if (!s->fixed && s->need == s->len)
        room(s, n);
}

void str_repeat(struct str *s, const char *text, int n)
{
    size_t k = strlen(text);

    for (int i = 0; i < n; i++)
        str_raw(s, text, k);
}

void str_vadd(struct str *s, const char *fmt, va_list ap)
{
    va_list again;
    int w;

    va_copy(again, ap);
    if (s->p == empty)
        room(s, 0); /* vsnprintf would write its NUL into `empty` */
    if (s->need > s->len) {
        w = vsnprintf(NULL, 0, fmt, ap);
    } else {
        w = vsnprintf(s->p + s->len, s->cap - s->len, fmt, ap);
        if (w >= 0 && (size_t)w >= s->cap - s->len) {
            size_t k = room(s, (size_t)w);

            if (k == (size_t)w) { /* grown: write it whole */
                vsnprintf(s->p + s->len, s->cap - s->len, fmt, again);
                s->len += k;
            } else { /* fixed: vsnprintf wrote what fits */
                s->need += (size_t)w;
                cut_at(s, s->cap - 1);
                va_end(again);
                return;
            }
            s->need += (size_t)w;
            va_end(again);
            return;
        }
        if (w > 0)
            s->len += (size_t)w;
    }
    if (w > 0)
        s->need += (size_t)w;
    if (s->len < s->cap)
        s->p[s->len] = '\0';
    va_end(again);
}

void str_add(struct str *s, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    str_vadd(s, fmt, ap);
    va_end(ap);
}

void str_cut(struct str *s, size_t len)
{
    if (len >= s->len)
        return;
    s->len = len;
    s->need = len;
    s->p[len] = '\0';
}

void str_clear(struct str *s)
{
    str_cut(s, 0);
    s->need = 0;
}

int str_cut_short(const struct str *s)
{
    return s->need > s->len;
}

char *str_take(struct str *s, size_t *len)
{
    char *p = s->p == empty ? xstrdup("") : s->p;

    if (len)
        *len = s->len;
    str_init(s);
    return p;
}

void str_free(struct str *s)
{
    if (!s->fixed && s->p != empty)
        free(s->p);
    if (s->fixed)
        str_clear(s);
    else
        str_init(s);
}
