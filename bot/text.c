/*
 * text.c - the rules of IRC text: case mapping of nicks and channel names,
 * what may never reach the wire, and where a long message may be cut.
 *
 * Invariants: nothing here allocates; casefold never writes past `len`
 * bytes and always terminates; irc_split never returns more than it was
 * allowed, never cuts a valid UTF-8 sequence in two, and never returns 0 for
 * non-empty text and max >= 4, whatever bytes the text holds; it cuts after
 * a sentence when one ends in the second half of what fits;
 * text_utf8_clean's output is valid UTF-8 whatever its input, with no C0
 * control, DEL or C1 control but those it was told to keep.
 */
#include <string.h>
#include <strings.h>

#include "bot.h"

enum casemapping irc_casemapping_parse(const char *name)
{
    if (name && strcasecmp(name, "ascii") == 0)
        return CASEMAP_ASCII;
    if (name && strcasecmp(name, "strict-rfc1459") == 0)
        return CASEMAP_STRICT_RFC1459;
    return CASEMAP_RFC1459;
}

/* One byte folded under m. ASCII folds A-Z; RFC 1459 counts []\~ as the
 * upper case of {}|^, and strict RFC 1459 does so for []\ only. */
static unsigned char irc_fold(enum casemapping m, unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return (unsigned char)(c - 'A' + 'a');
    if (m == CASEMAP_ASCII)
        return c;
    if (c == '[' || c == ']' || c == '\\')
        return (unsigned char)(c + 32); /* { } | */
    if (c == '~' && m == CASEMAP_RFC1459)
        return '^';
    return c;
}

/* Works in place too (dst == src). */
void irc_casefold(enum casemapping m, char *dst, const char *src, size_t len)
{
    size_t i = 0;

    if (len == 0)
        return;
    for (; i + 1 < len && src[i]; i++)
        dst[i] = (char)irc_fold(m, (unsigned char)src[i]);
    dst[i] = '\0';
}

int irc_casecmp(enum casemapping m, const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;

    for (;; p++, q++) {
        unsigned char x = irc_fold(m, *p), y = irc_fold(m, *q);
        if (x != y)
            return x < y ? -1 : 1;
        if (!x)
            return 0;
    }
}

/* CR and LF each become a space rather than vanish, so that "one\ntwo"
 * reads "one two" and not "onetwo"; the length never changes. (NUL cannot
 * occur inside a C string, so it needs no handling here.) */
void irc_sanitize(char *s)
{
    while ((s = strpbrk(s, "\r\n")) != NULL)
        *s++ = ' ';
}

void irc_strip_format(char *s, int colours_only)
{
    char *out = s;

    for (const char *p = s; *p;) {
        if (*p == '\003') {
            p++;
            for (int k = 0; k < 2 && *p >= '0' && *p <= '9'; k++)
                p++;
            if (p[0] == ',' && p[1] >= '0' && p[1] <= '9') {
                p += 2;
                if (*p >= '0' && *p <= '9')
                    p++;
            }
            continue;
        }
        if (!colours_only && strchr("\002\017\026\035\036\037", *p)) {
            p++;
            continue;
        }
        *out++ = *p++;
    }
    *out = '\0';
}

static int utf8_continuation(unsigned char c)
{
    return (c & 0xc0) == 0x80;
}

size_t irc_split(const char *text, size_t len, size_t max)
{
    const unsigned char *t = (const unsigned char *)text;

    if (len <= max)
        return len;
    if (max == 0)
        return 0;
    /* The last sentence end that fits in the second half: a piece that ends
     * a sentence reads better than one cut mid-sentence, and is not much
     * shorter. text[i] is the space after its mark. */
    for (size_t i = max; i > max / 2 && i >= 2; i--)
        if (t[i] == ' ' && strchr(".!?", t[i - 1]) && t[i - 1] && t[i - 2] != ' ')
            return i;
    /* The last space that fits: text[i] is a space, the piece is [0, i). */
    for (size_t i = max; i > 0; i--)
        if (t[i] == ' ')
            return i;
    /* Otherwise step back from max to the start of the character that
     * straddles it; a valid sequence starts at most 3 bytes back. More
     * continuation bytes than that are not UTF-8: cut anywhere. */
    size_t cut = max;
    for (int k = 0; k < 3 && cut > 0 && utf8_continuation(t[cut]); k++)
        cut--;
    if (cut == 0 || utf8_continuation(t[cut]))
        return max;
    return cut;
}

int irc_is_channel(const char *target, const char *chantypes)
{
    if (!target || !*target)
        return 0;
    if (!chantypes || !*chantypes)
        chantypes = "#&";
    return strchr(chantypes, *target) != NULL;
}

/* The length of the valid UTF-8 sequence at t (of `len` bytes left), or 0
 * when it is not one: truncated, overlong, a surrogate or past U+10FFFF.
 * *cp gets the code point. */
static size_t utf8_seq(const unsigned char *t, size_t len, unsigned long *cp)
{
    size_t n = t[0] >= 0xf0 ? 4 : t[0] >= 0xe0 ? 3 : 2;
    static const unsigned long min[] = {0, 0, 0x80, 0x800, 0x10000};

    if (t[0] < 0xc2 || t[0] > 0xf4 || len < n)
        return 0;
    unsigned long c = t[0] & (0x7f >> n);
    for (size_t i = 1; i < n; i++) {
        if (!utf8_continuation(t[i]))
            return 0;
        c = c << 6 | (t[i] & 0x3f);
    }
    if (c < min[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return n;
}

#define UTF8_REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

void text_utf8_clean(struct str *out, const char *text, size_t len, const char *keep)
{
    const unsigned char *t = (const unsigned char *)text;

    for (size_t i = 0; i < len;) {
        /* A run of printable ASCII, most of any line, goes in one copy
         * (a byte at a time cost 40 instructions each: 3,600 for the
         * answer to `version`). */
        size_t run = i;
        while (run < len && t[run] >= 0x20 && t[run] < 0x7f)
            run++;
        if (run > i) {
            str_raw(out, text + i, run - i);
            i = run;
            continue;
        }
        unsigned long cp = t[i];
        size_t n = t[i] < 0x80 ? 1 : utf8_seq(t + i, len - i, &cp);
        if (n == 0) {
            str_cat(out, UTF8_REPLACEMENT); /* one per byte: nothing hidden */
            i++;
        } else if (cp == '\r' || cp == '\n' || cp == '\t') {
            str_ch(out, ' ');
            i++;
        } else if ((cp < 0x20 || cp == 0x7f) && cp && !(keep && strchr(keep, (int)cp))) {
            str_cat(out, UTF8_REPLACEMENT);
            i++;
        } else if (cp == 0 || (cp >= 0x80 && cp <= 0x9f)) {
            str_cat(out, UTF8_REPLACEMENT); /* NUL in a length-counted text; C1 controls */
            i += n;
        } else {
            str_raw(out, text + i, n);
            i += n;
        }
    }
}
