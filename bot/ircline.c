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

/* Reads n decimal digits at *p into *out; 0 if any is not a digit. */
static int digits(const char **p, int n, int *out)
{
    int v = 0;

    for (int i = 0; i < n; i++, (*p)++) {
        if (**p < '0' || **p > '9')
            return 0;
        v = v * 10 + (**p - '0');
    }
    *out = v;
    return 1;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian calendar). */
static long days_from_civil(int y, int m, int d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int irc_time_parse(const char *s, double *epoch)
{
    int y, mo, d, h, mi, sec;
    const char *p = s;

    if (!digits(&p, 4, &y) || *p++ != '-' || !digits(&p, 2, &mo) || *p++ != '-' ||
        !digits(&p, 2, &d) || *p++ != 'T' || !digits(&p, 2, &h) || *p++ != ':' ||
        !digits(&p, 2, &mi) || *p++ != ':' || !digits(&p, 2, &sec))
        return -1;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
        return -1;
    double frac = 0, scale = 0.1;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return -1;
        for (; *p >= '0' && *p <= '9'; p++, scale /= 10)
            frac += (*p - '0') * scale;
    }
    if (strcmp(p, "Z") != 0)
        return -1;
    *epoch = (double)days_from_civil(y, mo, d) * 86400.0 + h * 3600.0 + mi * 60.0 + sec + frac;
    return 0;
}

int irc_msg_time(const struct irc_msg *m, double *epoch)
{
    char v[64];

    return irc_msg_tag(m, "time", v, sizeof(v)) && irc_time_parse(v, epoch) == 0;
}

int irc_std_reply(const struct irc_msg *m, struct irc_std *out)
{
    static const char *const kinds[] = {"FAIL", "WARN", "NOTE"};

    memset(out, 0, sizeof(*out));
    for (int i = 0; i < 3; i++)
        if (strcmp(m->verb, kinds[i]) == 0)
            out->kind = kinds[i];
    /* FAIL <command> <code> [<context>...] <description> */
    if (!out->kind || m->nparams < 3)
        return 0;
    out->command = m->params[0];
    out->code = m->params[1];
    out->description = m->params[m->nparams - 1];
    out->ncontext = m->nparams - 3;
    for (int i = 0; i < out->ncontext; i++)
        out->context[i] = m->params[2 + i];
    return 1;
}

int irc_batch_parse(const struct irc_msg *m, struct irc_batch *out)
{
    memset(out, 0, sizeof(*out));
    /* BATCH +ref type [params...] | BATCH -ref */
    if (strcmp(m->verb, "BATCH") != 0 || m->nparams < 1)
        return 0;
    const char *r = m->params[0];
    if ((r[0] != '+' && r[0] != '-') || !r[1])
        return 0;
    out->open = r[0] == '+';
    out->ref = r + 1;
    if (out->open) {
        if (m->nparams < 2 || !m->params[1][0])
            return 0;
        out->type = m->params[1];
    }
    return 1;
}
