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
#include <stdatomic.h>
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
    /* The small ones (most of a page's) as copies of known size. */
    if (v >= 0 && v < 10) {
        char c = (char)('0' + v);
        str_raw(t, &c, 1);
        return;
    }
    if (v >= 10 && v < 100) {
        str_raw(t, pairs + 2 * v, 2);
        return;
    }
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

/* x with `decimals` (0 to 3) as printf writes it, ending at end (with 32
 * bytes before it); returns where it begins, or NULL when it cannot be
 * told here. */
static char *fixed_write(char *end, double x, int decimals)
{
    unsigned long long n;

    if (scaled_round(x, decimals, &n) != 0)
        return NULL;
    char *p = end;
    for (int d = 0; d < decimals; d++) {
        *--p = (char)('0' + n % 10);
        n /= 10;
    }
    if (decimals > 0)
        *--p = '.';
    p = digits(p, n);
    if (signbit(x)) /* "-0.0" too, as printf writes a negative that rounds to 0 */
        *--p = '-';
    return p;
}

/* x with one decimal as printf writes it, ending at end (with 16 bytes
 * before it), for the common case of |x| below 10^8 away from a half
 * (scaled_round's first test, in line); returns where it begins, or NULL
 * to leave it to fixed_write. A page writes a few hundred tenths. */
static char *tenths_write(char *end, double x)
{
    if (!(x > -1e8 && x < 1e8)) /* NaN too */
        return NULL;
    double y = fabs(x) * 10;
    unsigned long long n = (unsigned long long)y; /* its floor */
    double frac = y - (double)n;
    if (!(frac < 0.5 - 1e-6 || frac > 0.5 + 1e-6))
        return NULL;
    n += frac > 0.5;
    char *p = end - 2;
    p[0] = '.';
    p[1] = (char)('0' + n % 10);
    n /= 10;
    if (n < 10) /* the whole part in line when short */
        *--p = (char)('0' + n);
    else if (n < 100)
        memcpy(p -= 2, pairs + 2 * n, 2);
    else if (n < 1000) { /* a chart's coordinates */
        memcpy(p -= 2, pairs + 2 * (n % 100), 2);
        *--p = (char)('0' + n / 100);
    } else
        p = digits(p, n);
    if (signbit(x))
        *--p = '-';
    return p;
}

/* x with one decimal written straight at the end of t, which has room
 * for 16 more bytes, in tenths_write's case with a whole part below 1000
 * (a page's coordinates and figures): no copy through a buffer of ours,
 * whose bytes, stored one by one, the copy would read back at once (the
 * processor waits for them). Returns 0, or -1 (nothing written) to leave
 * it to tenths_write. */
static int tenths_direct(struct str *t, double x)
{
    if (!(x > -1e8 && x < 1e8)) /* NaN too */
        return -1;
    double y = fabs(x) * 10;
    unsigned long long n = (unsigned long long)y; /* its floor */
    double frac = y - (double)n;
    if (!(frac < 0.5 - 1e-6 || frac > 0.5 + 1e-6))
        return -1;
    n += frac > 0.5;
    unsigned long long whole = n / 10;
    if (whole >= 1000)
        return -1;
    char *d = t->p + t->len;
    if (signbit(x))
        *d++ = '-';
    if (whole >= 100) {
        *d++ = (char)('0' + whole / 100);
        whole %= 100;
        memcpy(d, pairs + 2 * whole, 2);
        d += 2;
    } else if (whole >= 10) {
        memcpy(d, pairs + 2 * whole, 2);
        d += 2;
    } else {
        *d++ = (char)('0' + whole);
    }
    d[0] = '.';
    d[1] = (char)('0' + n % 10);
    d[2] = '\0';
    t->len = (size_t)(d + 2 - t->p);
    t->need = t->len;
    return 0;
}

void render_fixed(struct str *t, double x, int decimals)
{
    char buf[32], *end = buf + sizeof(buf);

    if (decimals == 1 && t->need == t->len && t->cap - t->len > 16 && tenths_direct(t, x) == 0)
        return;
    const char *p = decimals == 1 ? tenths_write(end, x) : NULL;

    /* The short ones (most of a page's) as copies of known size. */
    if (p && end - p == 3) {
        str_raw(t, p, 3);
        return;
    }
    if (p && end - p == 4) {
        str_raw(t, p, 4);
        return;
    }
    if (p && end - p == 5) {
        str_raw(t, p, 5);
        return;
    }
    if (!p)
        p = fixed_write(end, x, decimals);
    if (p)
        str_raw(t, p, (size_t)(end - p));
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

/* The int a '*' of conversion s stands for, read from ap; with ap NULL
 * (a format compiled) none is read, and s is not plain. */
static int star_arg(va_list *ap, struct spec *s)
{
    if (!ap) {
        s->plain = 0;
        return 0;
    }
    return va_arg(*ap, int);
}

/* Parses the conversion after a '%' at fmt into *s, reading the ints of
 * a '*' from ap; with ap NULL (a format compiled, fmt_compile), a '*'
 * reads nothing and makes the conversion one that is not plain. Returns
 * where the format goes on. */
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
        s->plain = 0, s->width = star_arg(ap, s), p++;
    while (*p >= '0' && *p <= '9')
        s->plain = 0, p++;
    if (*p == '.') {
        p++;
        s->prec = 0;
        if (*p == '*')
            s->prec = star_arg(ap, s), p++;
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

/* Room for a number (NUM_ROOM bytes) at the end of the gathered text. */
#define NUM_ROOM 32

static char *gather_room(struct gather *g)
{
    if (g->n + NUM_ROOM > sizeof(g->buf))
        gather_flush(g);
    return g->buf + g->n;
}

/* A number written from `from` to end (at most NUM_ROOM bytes, into a
 * buffer of 2 * NUM_ROOM whose middle is end, so that NUM_ROOM bytes from
 * `from` are always there to read) put in the room gather_room made: the
 * whole NUM_ROOM are copied, a copy of known size (two moves, not a call),
 * and only the number's bytes kept. */
static void gather_took(struct gather *g, const char *from, const char *end)
{
    memcpy(g->buf + g->n, from, NUM_ROOM);
    g->n += (size_t)(end - from);
}

/* x as "%g" writes it: a whole number below a million (a chart's grid)
 * is its digits, no point, no exponent; anything else goes to printf. */
static void g_write(struct gather *g, double x)
{
    char num[2 * NUM_ROOM], *end = num + NUM_ROOM;

    if (!(fabs(x) < 1e6) || x != (double)(long long)x) {
        gather_flush(g);
        str_add(g->t, "%g", x);
        return;
    }
    gather_room(g);
    char *p = digits(end, (unsigned long long)fabs(x));
    if (signbit(x)) /* "-0" too, as printf writes it */
        *--p = '-';
    gather_took(g, p, end);
}

/* x as "%.Nf" writes it, N = decimals (0 to 3). */
static void fix_write(struct gather *g, double x, int decimals)
{
    char num[2 * NUM_ROOM], *end = num + NUM_ROOM;
    const char *p = fixed_write(end, x, decimals);

    if (!p) {
        gather_flush(g);
        str_add(g->t, "%.*f", decimals, x);
        return;
    }
    gather_room(g);
    gather_took(g, p, end);
}

/* Writes conversion s with its argument from ap here, as printf would;
 * returns 0, or -1 when it is not one written here. */
static int spec_fast(struct gather *g, const struct spec *s, va_list *ap)
{
    char num[2 * NUM_ROOM], *end = num + NUM_ROOM;

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
    case 'g':
        if (s->prec >= 0 || s->longs)
            return -1;
        g_write(g, va_arg(*ap, double));
        return 0;
    case 'f':
        if (s->prec < 0 || s->prec > 3)
            return -1;
        fix_write(g, va_arg(*ap, double), s->prec);
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

/* -------------------------------------------------- formats compiled */

/* A format is read once: its pieces (a run of text, or one of the plain
 * conversions spec_fast writes) are kept, by the format's address, so
 * that a later call only walks them. Every format render_fmt is given is
 * a literal (-Wformat-nonliteral), so its text at that address never
 * changes. The pieces are written through the same gather steps as a
 * format read afresh, in the same order: the text is the same, byte for
 * byte, cut or not. */
enum piece_kind {
    PIECE_TEXT, /* `len` bytes of the format at `off` */
    PIECE_INT,  /* %d %i, `longs` l's */
    PIECE_UINT, /* %u */
    PIECE_STR,  /* %s */
    PIECE_CHAR, /* %c */
    PIECE_G,    /* %g */
    PIECE_FIX,  /* %.Nf, N = `prec` (0 to 3) */
};

struct piece {
    unsigned short off, len; /* PIECE_TEXT's */
    unsigned char kind;
    unsigned char longs; /* 0, 1 (l), 2 (ll) */
    unsigned char prec;
};

#define FMT_BITS   10
#define FMT_SLOTS  (1u << FMT_BITS) /* slots; at most half filled (open addressing) */
#define FMT_PIECES 4096             /* the kept formats' pieces, all told */
#define FMT_SLOW   0xffff           /* a slot's `first` for a format read afresh each time */

struct fmt_slot {
    _Atomic(const char *) fmt; /* set last: the rest is written before */
    unsigned short first, n;   /* its pieces (first FMT_SLOW: not compiled) */
};

/* Shared by every thread: a slot is filled once, under `fmt_lock`, and
 * read without a lock (its fmt is stored with release, loaded with
 * acquire, so its pieces are seen written). */
static struct fmt_slot fmt_slots[FMT_SLOTS];
static struct piece fmt_pieces[FMT_PIECES];
static unsigned fmt_used, fmt_kept;
static atomic_flag fmt_lock = ATOMIC_FLAG_INIT;

static unsigned fmt_hash(const char *fmt)
{
    uint64_t h = (uint64_t)(uintptr_t)fmt * 0x9e3779b97f4a7c15ULL;

    return (unsigned)(h >> (64 - FMT_BITS)); /* the top bits: Fibonacci hashing */
}

/* The piece a conversion compiles to, into *pc: 0, or -1 when it is not
 * one spec_fast writes (the format is then read afresh each time). The
 * conditions are spec_fast's. */
static int piece_of(const struct spec *s, struct piece *pc)
{
    memset(pc, 0, sizeof(*pc));
    if (!s->plain || s->other)
        return -1;
    pc->longs = (unsigned char)s->longs;
    switch (s->conv) {
    case 'd':
    case 'i':
        pc->kind = PIECE_INT;
        return s->prec >= 0 ? -1 : 0;
    case 'u':
        pc->kind = PIECE_UINT;
        return s->prec >= 0 ? -1 : 0;
    case 's':
        pc->kind = PIECE_STR;
        return s->prec >= 0 || s->longs ? -1 : 0;
    case 'c':
        pc->kind = PIECE_CHAR;
        return s->prec >= 0 || s->longs ? -1 : 0;
    case 'g':
        pc->kind = PIECE_G;
        return s->prec >= 0 || s->longs ? -1 : 0;
    case 'f':
        pc->kind = PIECE_FIX;
        pc->prec = (unsigned char)s->prec;
        return s->prec < 0 || s->prec > 3 ? -1 : 0;
    default:
        return -1;
    }
}

/* Reads fmt into pieces from fmt_pieces[fmt_used] on. Returns how many,
 * or -1 when it has a conversion that is not compiled, or no room. */
static int fmt_compile(const char *fmt)
{
    const char *p = fmt;
    unsigned n = 0;

    while (*p) {
        struct piece pc;
        memset(&pc, 0, sizeof(pc));
        if (*p != '%' || p[1] == '%') {
            /* A run of text, or the '%' that "%%" writes (the second). */
            const char *text = *p == '%' ? p + 1 : p, *pct = strchr(text, '%');
            size_t len = *p == '%' ? 1 : pct ? (size_t)(pct - p) : strlen(p);
            if ((size_t)(text - fmt) > 0xffff || len > 0xffff)
                return -1;
            pc.kind = PIECE_TEXT;
            pc.off = (unsigned short)(text - fmt);
            pc.len = (unsigned short)len;
            p += *p == '%' ? 2 : len;
        } else {
            struct spec s;
            p = spec_parse(p + 1, NULL, &s);
            if (piece_of(&s, &pc) != 0)
                return -1;
        }
        if (fmt_used + n >= FMT_PIECES)
            return -1;
        fmt_pieces[fmt_used + n++] = pc;
    }
    return (int)n;
}

/* The slot of fmt: found, or filled now. NULL when the table is full. */
static const struct fmt_slot *fmt_find(const char *fmt)
{
    unsigned i = fmt_hash(fmt);

    for (unsigned k = 0; k < FMT_SLOTS; k++, i = (i + 1) & (FMT_SLOTS - 1)) {
        const char *at = atomic_load_explicit(&fmt_slots[i].fmt, memory_order_acquire);
        if (at == fmt)
            return &fmt_slots[i];
        if (at)
            continue;
        /* Free: filled under the lock, unless another thread did first. */
        while (atomic_flag_test_and_set_explicit(&fmt_lock, memory_order_acquire))
            ;
        const struct fmt_slot *got = NULL;
        at = atomic_load_explicit(&fmt_slots[i].fmt, memory_order_relaxed);
        if (!at && fmt_kept < FMT_SLOTS / 2) {
            struct fmt_slot *sl = &fmt_slots[i];
            int n = fmt_compile(fmt);
            sl->first = n < 0 ? FMT_SLOW : (unsigned short)fmt_used;
            sl->n = n < 0 ? 0 : (unsigned short)n;
            fmt_used += n < 0 ? 0 : (unsigned)n;
            fmt_kept++;
            atomic_store_explicit(&sl->fmt, fmt, memory_order_release);
            got = sl;
        }
        atomic_flag_clear_explicit(&fmt_lock, memory_order_release);
        if (got || !at)
            return got;
        if (at == fmt)
            return &fmt_slots[i];
    }
    return NULL;
}

/* Writes compiled piece pc of fmt with its argument from ap. */
static void piece_write(struct gather *g, const char *fmt, const struct piece *pc, va_list *ap)
{
    char num[2 * NUM_ROOM], *end = num + NUM_ROOM;
    struct spec s;

    switch (pc->kind) {
    case PIECE_TEXT:
        gather_raw(g, fmt + pc->off, pc->len);
        return;
    case PIECE_INT:
        s.longs = pc->longs;
        gather_room(g);
        gather_took(g, int_write(end, int_arg(&s, ap)), end);
        return;
    case PIECE_UINT:
        s.longs = pc->longs;
        gather_room(g);
        gather_took(g, digits(end, uint_arg(&s, ap)), end);
        return;
    case PIECE_STR: {
        const char *text = va_arg(*ap, const char *);
        text = text ? text : "(null)";
        gather_raw(g, text, strlen(text));
        return;
    }
    case PIECE_CHAR:
        num[0] = (char)va_arg(*ap, int);
        gather_raw(g, num, 1);
        return;
    case PIECE_G:
        g_write(g, va_arg(*ap, double));
        return;
    default:
        fix_write(g, va_arg(*ap, double), pc->prec);
        return;
    }
}

/* fmt read afresh: each conversion parsed as it comes. */
static void fmt_read(struct gather *g, const char *fmt, va_list *ap)
{
    struct spec s;

    while (*fmt) {
        if (*fmt != '%') {
            const char *pct = strchr(fmt, '%');
            size_t n = pct ? (size_t)(pct - fmt) : strlen(fmt);
            gather_raw(g, fmt, n);
            fmt += n;
            continue;
        }
        if (fmt[1] == '%') {
            gather_raw(g, "%", 1);
            fmt += 2;
            continue;
        }
        fmt = spec_parse(fmt + 1, ap, &s);
        if (spec_fast(g, &s, ap) != 0) {
            gather_flush(g);
            spec_slow(g->t, &s, ap);
        }
    }
}

void render_fmt(struct str *t, const char *fmt, ...)
{
    va_list ap;
    struct gather g;
    const struct fmt_slot *sl = fmt_find(fmt);

    g.t = t;
    g.n = 0;
    va_start(ap, fmt);
    if (sl && sl->first != FMT_SLOW) {
        const struct piece *pc = &fmt_pieces[sl->first];
        for (unsigned i = 0; i < sl->n; i++)
            piece_write(&g, fmt, &pc[i], &ap);
    } else {
        fmt_read(&g, fmt, &ap);
    }
    gather_flush(&g);
    va_end(ap);
}
