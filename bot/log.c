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

/* Appends `msg` to out (room for 4 bytes per byte of msg) with control bytes
 * escaped; returns the new length. */
static size_t log_escape(char *out, size_t len, const char *msg)
{
    static const char hex[] = "0123456789abcdef";

    for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
        if (*p == '\r' || *p == '\n') {
            out[len++] = '\\';
            out[len++] = *p == '\r' ? 'r' : 'n';
        } else if ((*p < 0x20 && *p != '\t') || *p == 0x7f) {
            out[len++] = '\\';
            out[len++] = 'x';
            out[len++] = hex[*p >> 4];
            out[len++] = hex[*p & 15];
        } else {
            out[len++] = (char)*p;
        }
    }
    return len;
}

void log_msg(enum log_level level, const char *fmt, ...)
{
    char small[512], stamp[32];
    char *msg = small;
    va_list ap;

    if (level < log_threshold)
        return;
    if ((int)level < LOG_DEBUG || level > LOG_ERROR)
        level = LOG_ERROR;

    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0) {
        small[0] = '\0';
        n = 0;
    } else if ((size_t)n >= sizeof(small)) {
        msg = xmalloc((size_t)n + 1);
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }

    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
    else
        strcpy(stamp, "0000-00-00T00:00:00Z");

    /* stamp, space, level, space, escaped message (4x at worst), LF. */
    size_t cap = strlen(stamp) + 1 + 5 + 1 + 4 * strlen(msg) + 2;
    char *line = xmalloc(cap);
    size_t len = (size_t)snprintf(line, cap, "%s %s ", stamp, log_names[level]);
    len = log_escape(line, len, msg);
    line[len++] = '\n';
    fwrite(line, 1, len, stderr);
    fflush(stderr);

    free(line);
    if (msg != small)
        free(msg);
}
