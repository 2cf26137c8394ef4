/*
 * log.c - the bot's log: one line per message on stderr,
 * "2026-11-21T06:00:00Z info message", time in UTC.
 *
 * Invariants: every message is exactly one line. Messages often carry text
 * from IRC users, so CR and LF become the two characters "\r" and "\n", and
 * other control bytes (except tab) become "\xNN": a user can neither forge a
 * log line nor send escape sequences to the operator's terminal. Each line
 * goes out in one fwrite so that lines never interleave.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "bot.h"

static enum log_level log_threshold = LOG_INFO;

static const char *const log_names[] = {"debug", "info", "warn", "error"};

void log_set_level(enum log_level level)
{
    if ((int)level < LOG_DEBUG)
        level = LOG_DEBUG;
    if (level > LOG_ERROR)
        level = LOG_ERROR;
    log_threshold = level;
}

int log_level_parse(const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < (int)(sizeof(log_names) / sizeof(log_names[0])); i++)
        if (strcasecmp(name, log_names[i]) == 0)
            return i;
    return -1;
}

/* Appends `msg` to out with its control bytes escaped: runs of plain
 * bytes (tab among them) as they are, CR and LF as \r and \n, the other
 * control bytes as \xNN. */
static void log_escape(struct str *out, const char *msg)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)msg;

    while (*p) {
        const unsigned char *run = p;
        while (*p && !((*p < 0x20 && *p != '\t') || *p == 0x7f))
            p++;
        str_raw(out, (const char *)run, (size_t)(p - run));
        if (!*p)
            break;
        str_ch(out, '\\');
        if (*p == '\r' || *p == '\n') {
            str_ch(out, *p == '\r' ? 'r' : 'n');
        } else {
            str_ch(out, 'x');
            str_ch(out, hex[*p >> 4]);
            str_ch(out, hex[*p & 15]);
        }
        p++;
    }
}

void log_msg(enum log_level level, const char *fmt, ...)
{
    char stamp[32];
    struct str msg, line;
    va_list ap;

    if (level < log_threshold)
        return;
    if ((int)level < LOG_DEBUG || level > LOG_ERROR)
        level = LOG_ERROR;

    str_init(&msg);
    va_start(ap, fmt);
    str_vadd(&msg, fmt, ap);
    va_end(ap);

    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
    else
        strcpy(stamp, "0000-00-00T00:00:00Z");

    /* One line, one fwrite: stamp, level, the escaped message, LF. */
    str_init(&line);
    str_add(&line, "%s %s ", stamp, log_names[level]);
    log_escape(&line, msg.p);
    str_ch(&line, '\n');
    fwrite(line.p, 1, line.len, stderr);
    fflush(stderr);
    str_free(&line);
    str_free(&msg);
}
