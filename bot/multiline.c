/*
 * multiline.c - IRCv3 draft/multiline: several lines to one target sent as
 * one message, "BATCH +ref draft/multiline target", the lines tagged
 * "@batch=ref", then "BATCH -ref". The server says its limits in the
 * capability's value: max-bytes (the bytes of the lines' text in one batch,
 * required) and max-lines (optional). A line the queue had to cut to fit
 * 512 bytes goes on with the tag draft/multiline-concat: the reader joins it
 * to the line before without a line break; every other line is a line of
 * its own.
 *
 * This file only decides: the limits from the capability's value, and
 * whether one more line fits the batch being filled. outq.c (its hook,
 * batch_open) takes the lines off a target's queue and sends them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

/* One "key=N" of the value: a whole number from 1 to max into *out; -1
 * when it is no such number. */
static int limit_number(const char *p, size_t len, long max, long *out)
{
    char buf[16];
    char *end;

    if (len == 0 || len >= sizeof(buf) || strspn(p, "0123456789") < len)
        return -1;
    memcpy(buf, p, len);
    buf[len] = '\0';
    long v = strtol(buf, &end, 10);
    if (*end || v < 1 || v > max)
        return -1;
    *out = v;
    return 0;
}

int multiline_limits(const char *value, struct multiline *m, char *err, size_t len)
{
    long bytes = 0, lines = 0;

    memset(m, 0, sizeof(*m));
    for (const char *p = value ? value : ""; *p;) {
        size_t n = strcspn(p, ",");
        const char *eq = memchr(p, '=', n);
        size_t k = eq ? (size_t)(eq - p) : n;
        long *slot = k == 9 && strncmp(p, "max-bytes", k) == 0   ? &bytes
                     : k == 9 && strncmp(p, "max-lines", k) == 0 ? &lines
                                                                 : NULL;
        /* Keys not known here are for later versions: skipped. */
        if (slot && (!eq || limit_number(eq + 1, n - k - 1, MULTILINE_NUMBER_MAX, slot) != 0)) {
            snprintf(err, len, "%.*s is not a whole number from 1 to %d", (int)k, p,
                     MULTILINE_NUMBER_MAX);
            return -1;
        }
        p += n + (p[n] == ',');
    }
    if (!bytes) {
        snprintf(err, len, "max-bytes is missing");
        return -1;
    }
    m->max_bytes = (size_t)bytes;
    m->max_lines = (int)lines;
    if (err && len)
        err[0] = '\0';
    return 0;
}

int multiline_add(const struct multiline *m, struct multiline_batch *b, size_t len, int concat)
{
    /* The first line of a batch starts a line whatever it continues. */
    concat = concat && b->lines > 0;
    /* A line break between two lines counts as a byte: whether a server
     * counts it or not, the batch is within its max-bytes. */
    size_t cost = len + (b->lines && !concat);

    if (!m->max_bytes || (concat && len == 0))
        return 0;
    if (b->bytes + cost > m->max_bytes || (m->max_lines && b->lines + 1 > m->max_lines))
        return 0;
    b->bytes += cost;
    b->lines++;
    return concat ? 2 : 1;
}
