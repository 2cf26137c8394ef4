/*
 * bridge.c - players behind a bridge (matterbridge and the like): a relay
 * bot ([bridge] relay_nicks) says in the channel what someone wrote on
 * Matrix or Discord, as "<alice> !standings". Its lines are read with the
 * pattern of [bridge] relay_format, whose word "nick" stands for the
 * bridged user's name and "text" for what he wrote; every other byte must
 * be there as written, a space standing for one or more spaces. IRC
 * formatting and the zero-width characters relays put into names (so the
 * name does not highlight anyone) are ignored. Nobody is identified
 * through a bridge: the dispatcher (cmd.c) runs only the commands that
 * need no account for a bridged name, and answers them in the channel.
 */
#include <stdio.h>
#include <string.h>

#include "bot.h"

/* The byte length of a zero-width character at s (U+200B..U+200D,
 * U+2060, U+FEFF), else 0. */
static size_t zero_width(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;

    if (u[0] == 0xe2 && u[1] == 0x80 && u[2] >= 0x8b && u[2] <= 0x8d)
        return 3;
    if (u[0] == 0xe2 && u[1] == 0x81 && u[2] == 0xa0)
        return 3;
    if (u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf)
        return 3;
    return 0;
}

int bridge_format_check(const char *fmt, char *err, size_t len)
{
    const char *nick = strstr(fmt, "nick");
    const char *text = strstr(fmt, "text");
    size_t n = strlen(fmt);

    if (!nick || !text || strstr(nick + 4, "nick") || strstr(text + 4, "text")) {
        snprintf(err, len, "must hold the words nick and text once each, like \"<nick> text\"");
        return -1;
    }
    if (text < nick || text + 4 != fmt + n) {
        snprintf(err, len,
                 "must end with the word text, after the word nick, like \"<nick> text\"");
        return -1;
    }
    if (text == nick + 4) {
        snprintf(err, len, "needs something between nick and text, like \"<nick> text\"");
        return -1;
    }
    err[0] = '\0';
    return 0;
}

/* Takes the zero-width characters out of name, in place, until none is
 * left (taking one out may join the bytes of another). */
static void drop_zero_width(char *name)
{
    for (int again = 1; again;) {
        again = 0;
        char *w = name;
        for (const char *r = name; *r;) {
            size_t z = zero_width(r);
            if (z) {
                r += z;
                again = 1;
            } else {
                *w++ = *r++;
            }
        }
        *w = '\0';
    }
}

/* Past the "FG[,BG]" of a colour code (up to two digits each). */
static const char *colour_digits(const char *s)
{
    for (int i = 0; i < 2 && *s >= '0' && *s <= '9'; i++)
        s++;
    if (s[0] == ',' && s[1] >= '0' && s[1] <= '9') {
        s++;
        for (int i = 0; i < 2 && *s >= '0' && *s <= '9'; i++)
            s++;
    }
    return s;
}

/* The bridged name at *p up to the byte `stop` (a space stops it too):
 * copied into nick without formatting or zero-width characters; *p moved
 * past it. The length kept, 0 for none or one too long. */
static size_t take_nick(const char **p, char stop, char *nick, size_t nlen)
{
    size_t k = 0;
    const char *s = *p;

    while (*s && *s != stop && *s != ' ') {
        unsigned char c = (unsigned char)*s++;
        if (c < 0x20 || c == 0x7f) { /* formatting: a colour's digits too */
            if (c == 3)
                s = colour_digits(s);
            continue;
        }
        if (k + 1 >= nlen)
            return 0;
        nick[k++] = (char)c;
    }
    nick[k] = '\0';
    drop_zero_width(nick);
    *p = s;
    return strlen(nick);
}

int bridge_parse(const char *fmt, const char *line, char *nick, size_t nlen, const char **text)
{
    const char *p = line;

    if (nlen == 0)
        return 0;
    nick[0] = '\0';
    while (*p == '\002' || *p == '\017' || *p == '\035' || *p == '\037')
        p++;
    for (const char *f = fmt; *f;) {
        if (strncmp(f, "text", 4) == 0 && f[4] == '\0') {
            while (*p == ' ')
                p++;
            *text = p;
            return nick[0] && *p;
        }
        if (strncmp(f, "nick", 4) == 0) {
            if (!take_nick(&p, f[4], nick, nlen))
                return 0;
            /* Formatting after the name, before what follows it. */
            while (*p && (unsigned char)*p < 0x20)
                p++;
            f += 4;
        } else if (*f == ' ') {
            if (*p != ' ')
                return 0;
            while (*p == ' ')
                p++;
            f++;
        } else if (*f++ != *p++) {
            return 0;
        }
    }
    return 0;
}

int bridge_relay(const struct bot *bot, const char *nick)
{
    for (int i = 0; i < bot->cfg.nrelays; i++)
        if (irc_casecmp(bot->cm, bot->cfg.relay_nicks[i], nick) == 0)
            return 1;
    return 0;
}

int bridge_command_ok(const char *name)
{
    static const char *const ok[] = {"standings", "fighter", "score",  "bouts",
                                     "report",    "help",    "version"};

    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
        if (strcmp(name, ok[i]) == 0)
            return 1;
    return 0;
}
