/*
 * render_fmt.c - printf's text without printf, for the texts written by
 * the thousand: a bout page's reports, scores and chart (a page has a few
 * hundred numbers, and vsnprintf's set-up and its exact decimal arithmetic
 * were half of a page's cost).
 *
 * The bytes are printf's, always: the plain conversions (%d %i %u %s %c
 * %% with an l or ll, %.Nf with N up to 3, and %g of a whole number below
 * a million) are written here; anything else (a flag, a width, another
 * %g, %x, more than 3 decimals, a number too large) goes to snprintf, one
 * conversion at a time.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "game.h"
#include "render_internal.h"

/* "00" to "99": two digits a step (a page writes a few thousand). */
static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233"
                            "34353637383940414243444546474849505152535455565758596061626364656667"
                            "6869707172737475767778798081828384858687888990919293949596979899";

/* u's digits, ending at end; returns where they begin. */
static char *digits(char *end, unsigned long long u)
{
    while (u >= 100) {
        unsigned r = (unsigned)(u % 100);
        u /= 100;
        end -= 2;
        memcpy(end, pairs + 2 * r, 2);
    }
    if (u >= 10) {
        end -= 2;
        memcpy(end, pairs + 2 * u, 2);
    } else {
        *--end = (char)('0' + u);
    }
    return end;
}

/* v as "%lld" writes it, ending at end; returns where it begins. */
static char *int_write(char *end, long long v)
{
    char *p = digits(end, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v);

    if (v < 0)
        *--p = '-';
    return p;
}

void render_int(struct str *t, long long v)
{
    char buf[24];
    char *p = int_write(buf + sizeof(buf), v);

    str_raw(t, p, (size_t)(buf + sizeof(buf) - p));
}

void render_num(char *buf, size_t len, long v)
{
    char tmp[24];
    char *p = int_write(tmp + sizeof(tmp), v);
    size_t n = (size_t)(tmp + sizeof(tmp) - p);

    if (n >= len)
        n = len - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
}

/* |x| * 10^decimals (decimals 0 to 3) rounded as printf rounds x with
 * `decimals`, into *n: the exact value's nearest integer, to even on an
 * exact half. Returns 0, or -1 when it cannot be told here. */
static int scaled_round(double x, int decimals, unsigned long long *n)
{
    static const double scale[] = {1, 10, 100, 1000};

    if (decimals < 0 || decimals > 3 || !isfinite(x) || fabs(x) >= 1e15)
        return -1;
    /* In a double, |x| * 10^decimals is off by at most 2^-23 for |x| below
     * 10^6: a fraction further than 10^-6 from a half rounds the same way
     * as the exact value's. */
    double y = fabs(x) * scale[decimals];
    if (y < 1e9) {
        *n = (unsigned long long)y; /* its floor */
        double frac = y - (double)*n;
        if (frac < 0.5 - 1e-6 || frac > 0.5 + 1e-6) {
            *n += frac > 0.5;
            return 0;
        }
    }
#if LDBL_MANT_DIG >= 60
    /* Near a half: x * 10^decimals is exact in a long double of 60 bits
     * or more (x's 53 and at most 7 for 125, 1000's odd part), so its
     * fraction says: up past a half, down below, to even on a half. */
    long double v = fabsl((long double)x * (long double)scale[decimals]);
    *n = (unsigned long long)v; /* v < 1e18: its floor */
    long double frac = v - (long double)*n;
    if (frac > 0.5L || (frac == 0.5L && (*n & 1)))
        ++*n;
    return 0;
#else
    return -1;
#endif
}

/* x with `decimals` (0 to 3) as printf writes it, into buf (at least 32
 * bytes). Returns its length, or 0 when it cannot be told here. */
static size_t fixed_write(char *buf, double x, int decimals)
{
    unsigned long long n;

    if (scaled_round(x, decimals, &n) != 0)
        return 0;
    char tmp[32];
    char *p = tmp + sizeof(tmp);
    for (int d = 0; d < decimals; d++) {
        *--p = (char)('0' + n % 10);
        n /= 10;
    }
    if (decimals > 0)
        *--p = '.';
    p = digits(p, n);
    if (signbit(x)) /* "-0.0" too, as printf writes a negative that rounds to 0 */
        *--p = '-';
    size_t len = (size_t)(tmp + sizeof(tmp) - p);
    memcpy(buf, p, len);
    return len;
}

void render_fixed(struct str *t, double x, int decimals)
{
    char buf[32];
    size_t n = fixed_write(buf, x, decimals);

    if (n > 0)
        str_raw(t, buf, n);
    else
        str_add(t, "%.*f", decimals, x);
}

/* A conversion as parsed: the parts printf's text depends on. */
struct spec {
    const char *at, *end; /* the conversion as written, after its '%' */
    int plain;            /* no flag and no width */
    int width;            /* a width given as '*' */
    int prec;             /* -1 when none */
    int longs;            /* 0, 1 (l), 2 (ll) */
    char other;           /* another length modifier: h z j t L, H for hh; or 0 */
    char conv;            /* the conversion character */
};

/* Parses the conversion after a '%' at fmt into *s, reading the ints of
 * a '*' from ap. Returns where the format goes on. */
static const char *spec_parse(const char *fmt, va_list *ap, struct spec *s)
{
    const char *p = fmt;

    s->at = fmt;
    s->plain = 1;
    s->prec = -1;
    s->width = s->longs = s->other = 0;
    while (*p == '-' || *p == '+' || *p == ' ' || *p == '#' || *p == '0')
        s->plain = 0, p++;
    if (*p == '*')
        s->plain = 0, s->width = va_arg(*ap, int), p++;
    while (*p >= '0' && *p <= '9')
        s->plain = 0, p++;
    if (*p == '.') {
        p++;
        s->prec = 0;
        if (*p == '*')
            s->prec = va_arg(*ap, int), p++;
        while (*p >= '0' && *p <= '9')
            s->prec = s->prec * 10 + (*p++ - '0');
    }
    while (*p == 'l' && s->longs < 2)
        s->longs++, p++;
    if (*p == 'h' && p[1] == 'h')
        s->other = 'H', p += 2;
    else if (*p == 'h' || *p == 'z' || *p == 'j' || *p == 't' || *p == 'L')
        s->other = *p++;
    s->conv = *p;
    s->end = *p ? p + 1 : p;
    return s->end;
}

/* A signed or an unsigned integer argument of spec s. */
static long long int_arg(const struct spec *s, va_list *ap)
{
    return s->longs == 2 ? va_arg(*ap, long long) : s->longs ? va_arg(*ap, long) : va_arg(*ap, int);
}

static unsigned long long uint_arg(const struct spec *s, va_list *ap)
{
    return s->longs == 2 ? va_arg(*ap, unsigned long long)
           : s->longs    ? va_arg(*ap, unsigned long)
                         : va_arg(*ap, unsigned);
}

/* What render_fmt writes, gathered here and handed to t in few pieces
 * (str_raw once, not once a conversion). */
struct gather {
    struct str *t;
    size_t n;
    char buf[256];
};

static void gather_flush(struct gather *g)
{
    if (g->n)
        str_raw(g->t, g->buf, g->n);
    g->n = 0;
}

/* gather_raw's text that does not fit what is gathered: flushed first. */
static void gather_long(struct gather *g, const char *text, size_t n)
{
    gather_flush(g);
    if (n > sizeof(g->buf)) {
        str_raw(g->t, text, n);
        return;
    }
    memcpy(g->buf, text, n);
    g->n = n;
}

/* Small enough to be inlined at each use: the common case, text that
 * fits, is a copy. */
static inline void gather_raw(struct gather *g, const char *text, size_t n)
{
    if (g->n + n > sizeof(g->buf)) {
        gather_long(g, text, n);
        return;
    }
    memcpy(g->buf + g->n, text, n);
    g->n += n;
}

/* Room for a number (32 bytes) at the end of the gathered text. */
static char *gather_room(struct gather *g)
{
    if (g->n + 32 > sizeof(g->buf))
        gather_flush(g);
    return g->buf + g->n;
}

/* A number written at `at` (from gather_room) to end: moved into place. */
static void gather_took(struct gather *g, const char *from, const char *end)
{
    size_t n = (size_t)(end - from);

    memmove(g->buf + g->n, from, n);
    g->n += n;
}

/* Writes conversion s with its argument from ap here, as printf would;
 * returns 0, or -1 when it is not one written here. */
static int spec_fast(struct gather *g, const struct spec *s, va_list *ap)
{
    char num[32], *end = num + sizeof(num);

    if (!s->plain || s->other)
        return -1;
    switch (s->conv) {
    case 'd':
    case 'i':
        if (s->prec >= 0)
            return -1;
        gather_room(g);
        gather_took(g, int_write(end, int_arg(s, ap)), end);
        return 0;
    case 'u':
        if (s->prec >= 0)
            return -1;
        gather_room(g);
        gather_took(g, digits(end, uint_arg(s, ap)), end);
        return 0;
    case 's': {
        if (s->prec >= 0 || s->longs)
            return -1;
        const char *text = va_arg(*ap, const char *);
        text = text ? text : "(null)";
        gather_raw(g, text, strlen(text));
        return 0;
    }
    case 'c':
        if (s->prec >= 0 || s->longs)
            return -1;
        num[0] = (char)va_arg(*ap, int);
        gather_raw(g, num, 1);
        return 0;
    case 'g': {
        /* %g of a whole number below a million (a chart's grid) is its
         * digits: no point, no exponent. Anything else: printf. */
        if (s->prec >= 0 || s->longs)
            return -1;
        double x = va_arg(*ap, double);
        if (!(fabs(x) < 1e6) || x != (double)(long long)x) {
            gather_flush(g);
            str_add(g->t, "%g", x);
            return 0;
        }
        gather_room(g);
        char *p = digits(end, (unsigned long long)fabs(x));
        if (signbit(x)) /* "-0" too, as printf writes it */
            *--p = '-';
        gather_took(g, p, end);
        return 0;
    }
    case 'f':
        if (s->prec < 0 || s->prec > 3)
            return -1;
        double x = va_arg(*ap, double);
        size_t n = fixed_write(gather_room(g), x, s->prec);
        if (n == 0) {
            gather_flush(g);
            str_add(g->t, "%.*f", s->prec, x);
        }
        g->n += n;
        return 0;
    default:
        return -1;
    }
}

/* The conversion s as snprintf is given it: as written, a '*' replaced
 * by the int it stood for. Returns 0, or -1 when it does not fit. */
static int spec_raw(const struct spec *s, char *raw, size_t len)
{
    struct str t;
    int stars = 0;

    str_init_fixed(&t, raw, len);
    str_ch(&t, '%');
    for (const char *p = s->at; p < s->end; p++) {
        if (*p == '.' && p[1] == '*' && s->prec < 0)
            p++; /* a negative precision is none */
        else if (*p != '*')
            str_ch(&t, *p);
        else if (stars++ == 0 && p[-1] != '.')
            render_int(&t, s->width);
        else
            render_int(&t, s->prec);
    }
    return str_cut_short(&t) ? -1 : 0;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
/* The formats below are the ones checked at render_fmt's call, rebuilt by
 * spec_raw: the argument is read with the type its conversion names. */

/* An integer conversion (d i, or u o x X when `sign` is 0) with a length
 * modifier other than l and ll. Returns 0, or -1 for one printf has not. */
static int slow_other(struct str *t, const char *raw, const struct spec *s, va_list *ap, int sign)
{
    switch (s->other) {
    case 'H':
    case 'h': /* promoted to int, converted by printf */
        str_add(t, raw, va_arg(*ap, int));
        return 0;
    case 'z':
        if (sign)
            str_add(t, raw, va_arg(*ap, ssize_t));
        else
            str_add(t, raw, va_arg(*ap, size_t));
        return 0;
    case 'j':
        if (sign)
            str_add(t, raw, va_arg(*ap, intmax_t));
        else
            str_add(t, raw, va_arg(*ap, uintmax_t));
        return 0;
    case 't':
        str_add(t, raw, va_arg(*ap, ptrdiff_t));
        return 0;
    default:
        return -1;
    }
}

/* Writes conversion s with its argument from ap through snprintf. */
static void spec_slow(struct str *t, const struct spec *s, va_list *ap)
{
    char raw[48];
    int ok = spec_raw(s, raw, sizeof(raw)) == 0;
    char c = ok ? s->conv : 0;
    int sign = c == 'd' || c == 'i', whole = sign || (c && strchr("uoxX", c));

    if (whole && s->other)
        ok = slow_other(t, raw, s, ap, sign) == 0;
    else if (sign)
        str_add(t, raw, int_arg(s, ap));
    else if (whole)
        str_add(t, raw, uint_arg(s, ap));
    else if (c && strchr("fFeEgGaA", c) && s->other == 'L')
        str_add(t, raw, va_arg(*ap, long double));
    else if (c && strchr("fFeEgGaA", c) && !s->other)
        str_add(t, raw, va_arg(*ap, double));
    else if (c == 'c' && !s->other && !s->longs)
        str_add(t, raw, va_arg(*ap, int));
    else if (c == 's' && !s->other && !s->longs)
        str_add(t, raw, va_arg(*ap, const char *));
    else if (c == 'p' && !s->other && !s->longs)
        str_add(t, raw, va_arg(*ap, void *));
    else
        ok = 0;
    if (!ok) {
        /* A conversion printf has not (or %n, %lc, %ls): the caller's
         * mistake, which the compiler's format check names. */
        fprintf(stderr, "render_fmt: a conversion it does not write\n");
        abort();
    }
}
#pragma GCC diagnostic pop

void render_fmt(struct str *t, const char *fmt, ...)
{
    va_list ap;
    struct spec s;
    struct gather g;

    g.t = t;
    g.n = 0;
    va_start(ap, fmt);
    while (*fmt) {
        if (*fmt != '%') {
            const char *pct = strchr(fmt, '%');
            size_t n = pct ? (size_t)(pct - fmt) : strlen(fmt);
            gather_raw(&g, fmt, n);
            fmt += n;
            continue;
        }
        if (fmt[1] == '%') {
            gather_raw(&g, "%", 1);
            fmt += 2;
            continue;
        }
        fmt = spec_parse(fmt + 1, &ap, &s);
        if (spec_fast(&g, &s, &ap) != 0) {
            gather_flush(&g);
            spec_slow(t, &s, &ap);
        }
    }
    gather_flush(&g);
    va_end(ap);
}
