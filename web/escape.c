/*
 * escape.c - the two escapes every text a user chose goes through on its
 * way into a page (a struct str, util.h): HTML (text and attribute values
 * alike) and JSON.
 *
 * Both decode UTF-8 strictly: a byte that does not start a well-formed
 * sequence (overlong forms, surrogates and code points past U+10FFFF
 * included) becomes U+FFFD, so nothing a user typed can end up as markup
 * or break the page's encoding.
 *
 * And the pages' own numbers, written without printf (web_int, web_tenths)
 * where a page writes many: the same bytes printf writes.
 */
#include <stdio.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "web.h"

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

/* Appends the character at *s as it is, or U+FFFD (`bad`, n bytes) when
 * it is not well-formed UTF-8; returns the bytes read. */
static size_t utf8_copy(struct str *out, const unsigned char *s, const char *bad, size_t n)
{
    int k = utf8_len(s);

    if (k == 0) {
        str_raw(out, bad, n);
        return 1;
    }
    str_raw(out, (const char *)s, (size_t)k);
    return (size_t)k;
}

/* Writes the entity of an HTML special character (one html_class says
 * is 1), with its length known: a page writes a few hundred. */
static void html_entity(struct str *out, unsigned char c)
{
    switch (c) {
    case '&':
        str_raw(out, "&amp;", 5);
        break;
    case '<':
        str_raw(out, "&lt;", 4);
        break;
    case '>':
        str_raw(out, "&gt;", 4);
        break;
    case '"':
        str_raw(out, "&quot;", 6);
        break;
    default: /* '\'' */
        str_raw(out, "&#39;", 5);
        break;
    }
}

/* What web_html does with each byte: 0 copies it, 1 writes its entity
 * (html_entity), 2 drops it (a control character), 3 reads a UTF-8
 * sequence. */
#define HTML_CLASS(c)                                                                              \
    ((c) >= 0x80                                                           ? 3                     \
     : (c) < 0x20 || (c) == 0x7f                                           ? 2                     \
     : (c) == '&' || (c) == '<' || (c) == '>' || (c) == '"' || (c) == '\'' ? 1                     \
                                                                           : 0)
#define HTML_C4(c)  HTML_CLASS(c), HTML_CLASS(c + 1), HTML_CLASS(c + 2), HTML_CLASS(c + 3)
#define HTML_C16(c) HTML_C4(c), HTML_C4(c + 4), HTML_C4(c + 8), HTML_C4(c + 12)
#define HTML_C64(c) HTML_C16(c), HTML_C16(c + 16), HTML_C16(c + 32), HTML_C16(c + 48)
static const unsigned char html_class[256] = {HTML_C64(0), HTML_C64(64), HTML_C64(128),
                                              HTML_C64(192)};

#ifdef __SSE2__
/* A mask of the bytes of v that are not plain (html_class is not 0): the
 * same test as the table's: below 0x20 or from 0x7f (as a signed byte,
 * both are below 0x20 or 0x7f itself), or one of & < > " '. */
static unsigned html_mask16(__m128i v)
{
    const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f);
    const __m128i one = _mm_set1_epi8(1), two = _mm_set1_epi8(2);
    const __m128i amp_apos = _mm_set1_epi8('\''), lt_gt = _mm_set1_epi8('>');
    const __m128i quot = _mm_set1_epi8('"');

    /* & and ' are 0x26 and 0x27: one test of c | 1; < and > are 0x3c and
     * 0x3e: one of c | 2. */
    __m128i bad = _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del));
    bad = _mm_or_si128(bad, _mm_cmpeq_epi8(_mm_or_si128(v, one), amp_apos));
    bad = _mm_or_si128(bad, _mm_cmpeq_epi8(_mm_or_si128(v, two), lt_gt));
    bad = _mm_or_si128(bad, _mm_cmpeq_epi8(v, quot));
    return (unsigned)_mm_movemask_epi8(bad);
}

/* The plain bytes from s on, sixteen a step, while 16 are left before
 * end: where the first other one is, or where fewer than 16 remain. */
static const unsigned char *html_plain16(const unsigned char *s, const unsigned char *end)
{
    while (end - s >= 16) {
        unsigned mask = html_mask16(_mm_loadu_si128((const __m128i *)(const void *)s));
        if (mask)
            return s + __builtin_ctz(mask);
        s += 16;
    }
    return s;
}
#else
/* The same, four bytes a step through the table. */
static const unsigned char *html_plain16(const unsigned char *s, const unsigned char *end)
{
    while (end - s >= 4 &&
           (html_class[s[0]] | html_class[s[1]] | html_class[s[2]] | html_class[s[3]]) == 0)
        s += 4;
    return s;
}
#endif

/* web_html through str_raw, for a str that has no room kept (a fixed one,
 * or one cut already). */
static void html_slow(struct str *out, const unsigned char *s, const unsigned char *end)
{
    while (*s) {
        const unsigned char *run = s;
        /* A run of plain printable ASCII (the NUL ends it, being a
         * control character), many bytes a step while inside the text. */
        s = html_plain16(s, end);
        while (html_class[*s] == 0)
            s++;
        if (s > run)
            str_raw(out, (const char *)run, (size_t)(s - run));
        switch (html_class[*s]) {
        case 1:
            html_entity(out, *s++);
            break;
        case 2:
            if (*s)
                s++; /* control characters (IRC's bold and colours) say nothing here */
            break;
        default:
            s += utf8_copy(out, s, REPLACEMENT, 3);
            break;
        }
    }
}

/* Writes the entity of special character c at d; returns its end. */
static char *entity_put(char *d, unsigned char c)
{
    switch (c) {
    case '&':
        memcpy(d, "&amp;", 5);
        return d + 5;
    case '<':
        memcpy(d, "&lt;", 4);
        return d + 4;
    case '>':
        memcpy(d, "&gt;", 4);
        return d + 4;
    case '"':
        memcpy(d, "&quot;", 6);
        return d + 6;
    default: /* '\'' */
        memcpy(d, "&#39;", 5);
        return d + 5;
    }
}

/* HTML_ROOM(n): the room html_direct may use for n bytes of text: six a
 * byte at most (&quot;), a UTF-8 sequence begun before the last byte (3
 * more, written as they are), the NUL, and the 16 bytes a step writes. */
#define HTML_ROOM(n) (6 * (n) + 24)

/* web_html's text from s up to lim (a NUL-terminated text's bytes, lim at
 * or before its end) written straight at the end of out, which has room
 * for HTML_ROOM(lim - s) more: no call a run, sixteen bytes stored a step
 * whatever they are, the text's end past the run. Returns where it
 * stopped: lim, or up to 3 bytes past it inside a UTF-8 sequence. */
static const unsigned char *html_direct(struct str *out, const unsigned char *s,
                                        const unsigned char *lim)
{
    char *d = out->p + out->len;

    while (s < lim) {
#ifdef __SSE2__
        while (lim - s >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
            _mm_storeu_si128((__m128i *)(void *)d, v);
            unsigned mask = html_mask16(v);
            if (mask) {
                unsigned k = (unsigned)__builtin_ctz(mask);
                s += k;
                d += k;
                break;
            }
            s += 16;
            d += 16;
        }
#endif
        while (s < lim && html_class[*s] == 0)
            *d++ = (char)*s++;
        if (s >= lim)
            break;
        int k;
        switch (html_class[*s]) {
        case 1:
            d = entity_put(d, *s++);
            break;
        case 2:
            s++; /* control characters (IRC's bold and colours) say nothing here */
            break;
        default:
            k = utf8_len(s);
            if (k == 0) {
                memcpy(d, REPLACEMENT, 3);
                d += 3;
                s++;
            } else {
                memcpy(d, s, (size_t)k);
                d += k;
                s += k;
            }
            break;
        }
    }
    out->len = (size_t)(d - out->p);
    out->need = out->len;
    out->p[out->len] = '\0';
    return s;
}

/* The text web_html writes at a time when out has to grow for it: a
 * growable str then grows for at most HTML_ROOM of this, so that no
 * text makes it grow much further than what is written needs. */
#define HTML_STEP 512

void web_html(struct str *out, const char *text)
{
    const unsigned char *s = (const unsigned char *)(text ? text : "");
    const unsigned char *end = s + strlen((const char *)s);

    /* Straight into out's room when it has some (a page's growable
     * buffer, kept with room ahead: most calls); str_raw a run otherwise. */
    while (s < end) {
        size_t n = (size_t)(end - s);
        if (!out->fixed && out->need == out->len && out->cap - out->len <= HTML_ROOM(n))
            str_reserve(out, HTML_ROOM(n < HTML_STEP ? n : HTML_STEP));
        if (out->need != out->len || out->cap - out->len <= HTML_ROOM(1)) {
            html_slow(out, s, end);
            return;
        }
        size_t m = (out->cap - out->len - 1 - 24) / 6; /* HTML_ROOM(m) < the room */
        s = html_direct(out, s, s + (m < n ? m : n));
    }
}

void web_int(struct str *out, long long v)
{
    render_int(out, v);
}

void web_tenths(struct str *out, double v)
{
    render_fixed(out, v, 1); /* exact, as printf rounds (render_fmt.c) */
}

/* 1 for a byte a JSON string (safe inside HTML) carries as it is. */
static int json_plain(unsigned char c)
{
    return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
}

void web_json(struct str *out, const char *text)
{
    const unsigned char *s = (const unsigned char *)(text ? text : "");

    str_ch(out, '"');
    while (*s) {
        const unsigned char *run = s;
        while (json_plain(*s))
            s++;
        if (s > run)
            str_raw(out, (const char *)run, (size_t)(s - run));
        if (!*s)
            break;
        if (*s == '"' || *s == '\\') {
            str_ch(out, '\\');
            str_ch(out, (char)*s++);
        } else if (*s == '\n') {
            str_raw(out, "\\n", 2);
            s++;
        } else if (*s < 0x20 || *s == 0x7f || *s == '<' || *s == '>' || *s == '&') {
            str_add(out, "\\u%04x", *s++);
        } else {
            s += utf8_copy(out, s, "\\ufffd", 6);
        }
    }
    str_ch(out, '"');
}

/* name, or name@network when `network` is another than home. */
static const char *owner_text(const char *home, const char *name, const char *network, char *buf,
                              size_t len)
{
    if (!network || !network[0] || strcmp(network, home ? home : "") == 0)
        return name;
    snprintf(buf, len, "%s@%s", name, network);
    return buf;
}

void web_owner_html(struct str *s, const char *home, const char *name, const char *network)
{
    char buf[GAME_WHO_MAX];

    web_html(s, owner_text(home, name, network, buf, sizeof(buf)));
}

void web_owner_json(struct str *s, const char *home, const char *name, const char *network)
{
    char buf[GAME_WHO_MAX];

    web_json(s, owner_text(home, name, network, buf, sizeof(buf)));
}
