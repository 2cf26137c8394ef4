/*
 * util.c - what the parts of the game share: clipping user text, and
 * answering a command's caller. (The allocation wrappers and the
 * out-of-memory policy are util/util.h's.)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "game_internal.h"

/* A control character (C0 or DEL): never copied from a user's text. */
static int clip_control(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

#define CLIP_REPLACEMENT "\xef\xbf\xbd" /* U+FFFD: 3 bytes */

char *text_clip(char *dst, size_t dstlen, const char *src, size_t max)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t i = 0, o = 0;

    if (max >= dstlen)
        max = dstlen - 1;
    for (; s[i]; i++) {
        size_t need = clip_control(s[i]) ? 3 : 1;
        if (o + need > max)
            break;
        if (need == 3)
            memcpy(dst + o, CLIP_REPLACEMENT, 3);
        else
            dst[o] = (char)s[i];
        o += need;
    }
    /* Cut inside a character (the byte at the cut is a continuation): the
     * character began earlier, so it goes whole. */
    while (s[i] && i > 0 && (s[i] & 0xC0) == 0x80) {
        i--;
        o -= clip_control(s[i]) ? 3 : 1;
    }
    dst[o] = '\0';
    return dst;
}

char *game_duration(char *buf, size_t len, int seconds)
{
    if (seconds >= 60 && seconds % 60 == 0)
        snprintf(buf, len, "%d minute%s", seconds / 60, seconds == 60 ? "" : "s");
    else
        snprintf(buf, len, "%d second%s", seconds, seconds == 1 ? "" : "s");
    return buf;
}

char *game_until_midnight(char *buf, size_t len, int64_t now)
{
    int seconds = (int)(DAY_SECONDS - now % DAY_SECONDS);
    int m = (seconds + 59) / 60, h = m / 60;
    struct str s;

    m %= 60;
    str_init_fixed(&s, buf, len);
    if (h)
        str_add(&s, "%d hour%s", h, h == 1 ? "" : "s");
    if (m || !h)
        str_add(&s, "%s%d minute%s", h ? " " : "", m, m == 1 ? "" : "s");
    return buf;
}

char *rules_list(char *buf, size_t len, const char *prefix, const char *sep, const char *last)
{
    struct str s;

    str_init_fixed(&s, buf, len);
    for (int r = 0; r < RULES_COUNT; r++)
        str_add(&s, "%s%s%s",
                r == 0                 ? ""
                : r == RULES_COUNT - 1 ? last
                                       : sep,
                prefix, ruleset_get((enum rules)r)->name);
    return buf;
}

static void vanswer(const struct game_caller *who, int how, const char *fmt, va_list ap)
{
    char text[1024];

    vsnprintf(text, sizeof(text), fmt, ap);
    who->answer(who->ctx, how, text);
}

void game_reply(const struct game_caller *who, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vanswer(who, 0, fmt, ap);
    va_end(ap);
}

void game_reply_private(const struct game_caller *who, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vanswer(who, GAME_ANSWER_PRIVATE, fmt, ap);
    va_end(ap);
}

void game_reply_live(const struct game_caller *who, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vanswer(who, GAME_ANSWER_LIVE, fmt, ap);
    va_end(ap);
}

void game_say(struct game *g, enum game_voice voice, const char *target, const char *fmt, ...)
{
    char text[2048];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    g->io.say(g->io.ctx, voice, target, text);
}

void game_log(struct game *g, enum game_log level, const char *fmt, ...)
{
    char text[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    g->io.log(g->io.ctx, level, text);
}
