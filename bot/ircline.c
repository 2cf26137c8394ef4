/*
 * ircline.c - one IRC line split into its parts: message tags, source,
 * verb and parameters (RFC 1459 with IRCv3 message tags).
 *
 * The connection layer (conn.c) reads every line from the server before
 * libircclient does: it needs the verb and parameters of CAP, AUTHENTICATE
 * and the SASL numerics, and it takes the tags off (libircclient cannot read
 * them). Parsing is in place and allocates nothing; tag values are
 * unescaped only when asked for. Checked against the public parser test
 * vectors (tests/irc-parser-tests, run by tests/ircline_test.py).
 *
 * Atoms are separated by one or more spaces; a parameter starting with ':'
 * is the last one and keeps its spaces; a line without a verb is refused.
 */
#include <string.h>

#include "bot.h"

/* Skips spaces; returns the first other character. */
static char *skip_spaces(char *p)
{
    while (*p == ' ')
        p++;
    return p;
}

/* Cuts the word at p (to the next space, which becomes NUL); returns
 * where the next atom may start. */
static char *cut_word(char *p)
{
    char *sp = strchr(p, ' ');

    if (!sp)
        return p + strlen(p);
    *sp = '\0';
    return skip_spaces(sp + 1);
}

int irc_msg_parse(char *line, struct irc_msg *m)
{
    char *p = line;

    memset(m, 0, sizeof(*m));
    p[strcspn(p, "\r\n")] = '\0';
    if (*p == '@') {
        m->tags = p + 1;
        p = cut_word(p);
    }
    p = skip_spaces(p);
    if (*p == ':') {
        m->source = p + 1;
        p = cut_word(p);
    }
    p = skip_spaces(p);
    if (!*p)
        return -1;
    m->verb = p;
    p = cut_word(p);
    while (*p && m->nparams < IRC_MSG_PARAMS) {
        if (*p == ':') {
            m->params[m->nparams++] = p + 1;
            break;
        }
        m->params[m->nparams++] = p;
        p = cut_word(p);
    }
    return 0;
}

const char *irc_msg_untagged(const char *line)
{
    if (*line != '@')
        return line;
    const char *sp = strchr(line, ' ');
    if (!sp)
        return line + strlen(line);
    while (*sp == ' ')
        sp++;
    return sp;
}

/* Copies a tag value, unescaping \: \s \\ \r \n (any other escaped
 * character stands for itself; a lone trailing backslash is dropped). */
static void unescape(const char *v, size_t n, char *out, size_t len)
{
    size_t o = 0;

    for (size_t i = 0; i < n && o + 1 < len; i++) {
        char ch = v[i];
        if (ch == '\\') {
            if (++i == n)
                break;
            switch (v[i]) {
            case ':':
                ch = ';';
                break;
            case 's':
                ch = ' ';
                break;
            case 'r':
                ch = '\r';
                break;
            case 'n':
                ch = '\n';
                break;
            default:
                ch = v[i];
                break;
            }
        }
        out[o++] = ch;
    }
    if (len)
        out[o] = '\0';
}

int irc_msg_tag_next(const char **pos, char *key, size_t klen, char *val, size_t vlen)
{
    const char *p = *pos;

    while (p && *p == ';')
        p++;
    if (!p || !*p || *p == ' ')
        return 0;
    size_t n = strcspn(p, "; ");
    size_t kn = strcspn(p, "=; ");
    if (kn > n)
        kn = n;
    if (klen) {
        size_t c = kn < klen - 1 ? kn : klen - 1;
        memcpy(key, p, c);
        key[c] = '\0';
    }
    if (kn < n)
        unescape(p + kn + 1, n - kn - 1, val, vlen);
    else if (vlen)
        val[0] = '\0';
    *pos = p + n;
    return 1;
}

int irc_msg_tag(const struct irc_msg *m, const char *key, char *val, size_t vlen)
{
    char k[64], v[IRC_TAG_VALUE_MAX];
    const char *pos = m->tags;
    int found = 0;

    /* The last of duplicate keys wins. */
    while (irc_msg_tag_next(&pos, k, sizeof(k), v, sizeof(v)))
        if (strcmp(k, key) == 0) {
            snprintf(val, vlen, "%s", v);
            found = 1;
        }
    return found;
}

void irc_source_split(const char *source, char *nick, char *user, char *host, size_t len)
{
    const char *bang = strchr(source, '!');
    const char *at = strchr(source, '@');
    size_t n;

    if (at && bang && bang > at)
        bang = NULL;
    n = bang ? (size_t)(bang - source) : at ? (size_t)(at - source) : strlen(source);
    snprintf(nick, len, "%.*s", (int)n, source);
    if (bang)
        snprintf(user, len, "%.*s", (int)(at ? (size_t)(at - bang - 1) : strlen(bang + 1)),
                 bang + 1);
    else
        user[0] = '\0';
    snprintf(host, len, "%s", at ? at + 1 : "");
}
