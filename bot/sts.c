/*
 * sts.c - IRCv3 Strict Transport Security: a server that offers the
 * capability "sts=port=P,duration=D" on a plaintext connection asks its
 * clients to come back with TLS on port P, and to keep to TLS for D
 * seconds from then on. conn.c reads the offer (sts_parse) and stores the
 * policy beside the database (sts_store: the file "<database>.sts", one
 * line "host port expiry", expiry in seconds of the epoch); every
 * connection attempt reads it first (sts_load), so a restart within the
 * duration goes straight to TLS. On a TLS connection the offer only
 * renews the duration; duration=0 drops the policy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bot.h"

#define STS_DURATION_MAX 315360000L /* seconds: ten years, longer is clamped */
#define STS_HOST_MAX     256

/* A decimal number of at most 12 digits at p (len bytes) into *out; -1
 * when it is none. */
static int sts_number(const char *p, size_t len, long *out)
{
    char buf[16];

    if (len == 0 || len > 12 || strspn(p, "0123456789") < len)
        return -1;
    memcpy(buf, p, len);
    buf[len] = '\0';
    *out = strtol(buf, NULL, 10);
    return 0;
}

int sts_parse(const char *value, struct sts_policy *p, char *err, size_t len)
{
    p->port = 0;
    p->duration = -1;
    p->preload = 0;
    for (const char *s = value ? value : ""; *s;) {
        size_t n = strcspn(s, ",");
        const char *eq = memchr(s, '=', n);
        size_t k = eq ? (size_t)(eq - s) : n;
        const char *v = eq ? eq + 1 : s + n;
        size_t vlen = eq ? n - k - 1 : 0;
        long x;
        if (k == 4 && strncmp(s, "port", 4) == 0) {
            if (sts_number(v, vlen, &x) != 0 || x < 1 || x > 65535) {
                snprintf(err, len, "port=%.*s is no port from 1 to 65535",
                         (int)(vlen > 20 ? 20 : vlen), v);
                return -1;
            }
            p->port = (int)x;
        } else if (k == 8 && strncmp(s, "duration", 8) == 0) {
            if (sts_number(v, vlen, &x) != 0) {
                snprintf(err, len, "duration=%.*s is no number of seconds",
                         (int)(vlen > 20 ? 20 : vlen), v);
                return -1;
            }
            p->duration = x > STS_DURATION_MAX ? STS_DURATION_MAX : x;
        } else if (k == 7 && strncmp(s, "preload", 7) == 0) {
            p->preload = 1;
        } /* other keys: for later versions, skipped */
        s += n + (s[n] == ',');
    }
    if (err && len)
        err[0] = '\0';
    return 0;
}

/* The policy file's name into buf: "" when there is no database file to
 * put it beside. */
static void sts_path(const char *database, char *buf, size_t len)
{
    if (!database || !database[0] || strcmp(database, ":memory:") == 0 ||
        strlen(database) + 5 >= len)
        buf[0] = '\0';
    else
        snprintf(buf, len, "%s.sts", database);
}

int sts_load(const char *database, const char *host, long now)
{
    char path[CONFIG_STR_MAX + 8], line[STS_HOST_MAX + 64], h[STS_HOST_MAX];
    int port = 0;
    long expiry = 0;

    sts_path(database, path, sizeof(path));
    FILE *f = path[0] ? fopen(path, "r") : NULL;
    if (!f)
        return 0;
    int ok = fgets(line, sizeof(line), f) && sscanf(line, "%255s %d %ld", h, &port, &expiry) == 3;
    fclose(f);
    if (!ok || strcasecmp(h, host) != 0 || port < 1 || port > 65535 || expiry <= now)
        return 0;
    return port;
}

int sts_store(const char *database, const char *host, int port, long now, long duration, char *err,
              size_t len)
{
    char path[CONFIG_STR_MAX + 8], tmp[CONFIG_STR_MAX + 16];

    sts_path(database, path, sizeof(path));
    if (!path[0]) {
        snprintf(err, len, "no database file to keep it beside");
        return -1;
    }
    if (strlen(host) >= STS_HOST_MAX || strpbrk(host, " \t\r\n")) {
        snprintf(err, len, "the server name is too long or holds a blank; no policy is kept");
        return -1;
    }
    if (duration <= 0) {
        if (unlink(path) != 0 && errno != ENOENT) {
            snprintf(err, len, "cannot remove %s: %s", path, strerror(errno));
            return -1;
        }
        return 0;
    }
    /* Written whole, then renamed over the old one: never half a line. */
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, len, "cannot write %s: %s", tmp, strerror(errno));
        return -1;
    }
    int bad = fprintf(f, "%s %d %ld\n", host, port, now + duration) < 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        snprintf(err, len, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}
