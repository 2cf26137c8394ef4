/*
 * config.c - ringside-web's settings, from the bot's own INI file: the
 * [web] section (listen, base_url, the server's limits) and [bot]
 * database and network. Read with inih, as
 * the bot reads it (bot/config.c), through a line reader of our own that
 * counts lines, so that every error names FILE:LINE.
 *
 * [web] is checked strictly (an unknown key, a key given twice or a bad
 * value is an error); the other sections are the bot's, which checks them
 * at its start, and are skipped here. On error the caller's settings are
 * untouched.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <ini.h>

#include "web.h"

#define LINE_MAX_BYTES 200       /* inih's line buffer (INI_MAX_LINE) */
#define FILE_MAX_BYTES (1 << 20) /* a config is a few hundred bytes */

struct cfg_ctx {
    struct web_config c;
    const char *name; /* the file, for messages */
    const char *pos;  /* where the reader goes on */
    int line;
    int seen_listen, seen_base, seen_db;
    int seen_limit[4]; /* the limits' lines, as limits[] */
    int err_line;
    char reason[WEB_ERR_MAX];
};

UTIL_PRINTF(2, 3) static int fail(struct cfg_ctx *x, const char *fmt, ...)
{
    va_list ap;

    if (x->err_line)
        return 0;
    x->err_line = x->line ? x->line : 1;
    va_start(ap, fmt);
    vsnprintf(x->reason, sizeof(x->reason), fmt, ap);
    va_end(ap);
    return 0;
}

/* "HOST:PORT" into host and port: an IPv4 literal, an IPv6 literal in
 * brackets, or localhost; a port from 1 to 65535. */
static int listen_read(const char *v, struct web_config *c)
{
    const char *colon = strrchr(v, ':');
    char host[WEB_LISTEN_MAX];
    unsigned char addr[16];

    if (!colon || colon == v || strlen(v) >= WEB_LISTEN_MAX)
        return -1;
    size_t n = (size_t)(colon - v);
    if (v[0] == '[') {
        if (n < 3 || v[n - 1] != ']')
            return -1;
        memcpy(host, v + 1, n - 2);
        host[n - 2] = '\0';
        if (inet_pton(AF_INET6, host, addr) != 1)
            return -1;
    } else {
        memcpy(host, v, n);
        host[n] = '\0';
        if (strcmp(host, "localhost") == 0)
            strcpy(host, "127.0.0.1");
        else if (inet_pton(AF_INET, host, addr) != 1)
            return -1;
    }
    const char *p = colon + 1;
    long port = 0;
    if (!*p || strlen(p) > 5 || p[0] == '0')
        return -1;
    for (; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        port = port * 10 + (*p - '0');
    }
    if (port < 1 || port > 65535)
        return -1;
    snprintf(c->listen, sizeof(c->listen), "%s", v);
    snprintf(c->host, sizeof(c->host), "%s", host);
    c->port = (int)port;
    return 0;
}

/* An http:// or https:// address without blanks, quotes, angle brackets
 * or control characters; a trailing '/' is dropped. "" unsets it. */
static int base_url_read(const char *v, struct web_config *c)
{
    size_t n = strlen(v);

    if (n == 0) {
        c->base_url[0] = '\0';
        return 0;
    }
    if (n >= WEB_URL_MAX || (strncmp(v, "http://", 7) != 0 && strncmp(v, "https://", 8) != 0))
        return -1;
    for (const unsigned char *p = (const unsigned char *)v; *p; p++)
        if (*p <= 0x20 || *p >= 0x7f || *p == '"' || *p == '\'' || *p == '<' || *p == '>' ||
            *p == '\\')
            return -1;
    snprintf(c->base_url, sizeof(c->base_url), "%s", v);
    while (n > 0 && c->base_url[n - 1] == '/')
        c->base_url[--n] = '\0';
    if (n <= (size_t)(v[4] == 's' ? 8 : 7))
        return -1; /* a scheme and no host */
    return 0;
}

/* The [web] keys that are whole numbers: the server's limits; a count of
 * seconds (`span`, its bounds as durations) takes a duration as the bot's
 * keys of seconds do (bot/config.c KEY_SECONDS). */
static const struct limit_key {
    const char *name;
    size_t offset; /* in struct web_config */
    int low, high;
    const char *what;
    const char *span; /* NULL, or "1s to 5m": a duration's bounds */
} limits[] = {
    {"max_connections", offsetof(struct web_config, max_connections), 1, 10000,
     "connections open at once in all", NULL},
    {"max_connections_per_address", offsetof(struct web_config, max_connections_per_address), 1,
     10000, "connections open at once from one address", NULL},
    {"request_timeout", offsetof(struct web_config, request_timeout), 1, 300,
     "seconds a request may take, from its connection's start to its answer", "1s to 5m"},
    {"threads", offsetof(struct web_config, threads), 1, WEB_THREADS_MAX,
     "threads answering requests, each with its own database connection", NULL},
};

/* A whole number from low to high (no sign, no leading zero), or -1. */
static int number_read(const char *v, int low, int high)
{
    long n = 0;

    if (!*v || strlen(v) > 6 || (v[0] == '0' && v[1]))
        return -1;
    for (; *v; v++) {
        if (*v < '0' || *v > '9')
            return -1;
        n = n * 10 + (*v - '0');
    }
    return n >= low && n <= high ? (int)n : -1;
}

/* A duration from low to high seconds, or -1: one or more <number><unit>
 * parts, unit d, h, m or s in either case, a bare number being seconds
 * ("90", "90s", "1m30s"), as the bot reads its durations. */
static int duration_read(const char *v, int low, int high)
{
    long total;

    if (!*v || text_duration(v, &total) != 0)
        return -1;
    return total >= low && total <= high ? (int)total : -1;
}

/* [web] max_connections, max_connections_per_address, request_timeout,
 * threads: 1 when read, 0 on error (noted), -1 when `name` is none of them. */
static int limit_key_read(struct cfg_ctx *x, const char *name, const char *value)
{
    for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
        const struct limit_key *k = &limits[i];
        if (strcasecmp(name, k->name) != 0)
            continue;
        if (x->seen_limit[i])
            return fail(x, "key \"%s\" is given twice in [web] (first on line %d)", k->name,
                        x->seen_limit[i]);
        x->seen_limit[i] = x->line;
        int n =
            k->span ? duration_read(value, k->low, k->high) : number_read(value, k->low, k->high);
        if (n < 0 && k->span)
            return fail(x,
                        "%s \"%.40s\" is not a duration from %s (like 90s, 2m or 1h; a plain "
                        "number is seconds)",
                        k->name, value, k->span);
        if (n < 0)
            return fail(x, "%s must be a whole number from %d to %d (the %s)", k->name, k->low,
                        k->high, k->what);
        *(int *)(void *)((char *)&x->c + k->offset) = n;
        return 1;
    }
    return -1;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    struct cfg_ctx *x = user;

    if (x->err_line)
        return 0;
    if (strcasecmp(section, "bot") == 0 && strcasecmp(name, "database") == 0) {
        if (x->seen_db)
            return fail(x, "key \"database\" is given twice in [bot] (first on line %d)",
                        x->seen_db);
        x->seen_db = x->line;
        if (!*value || strlen(value) >= sizeof(x->c.database))
            return fail(x, "database needs a file name of 1 to %d bytes",
                        (int)sizeof(x->c.database) - 1);
        snprintf(x->c.database, sizeof(x->c.database), "%s", value);
        return 1;
    }
    if (strcasecmp(section, "bot") == 0 && strcasecmp(name, "network") == 0) {
        /* The bot checks the name itself; only its length matters here. */
        if (strlen(value) >= sizeof(x->c.network))
            return fail(x, "network needs a name of at most %d bytes",
                        (int)sizeof(x->c.network) - 1);
        snprintf(x->c.network, sizeof(x->c.network), "%s", value);
        return 1;
    }
    if (strcasecmp(section, "web") != 0)
        return 1; /* the bot's: it checks them */
    if (strcasecmp(name, "listen") == 0) {
        if (x->seen_listen)
            return fail(x, "key \"listen\" is given twice in [web] (first on line %d)",
                        x->seen_listen);
        x->seen_listen = x->line;
        if (listen_read(value, &x->c) != 0)
            return fail(x, "listen must be ADDRESS:PORT, like 127.0.0.1:8080, 0.0.0.0:80 or "
                           "[::1]:8080 (a port from 1 to 65535)");
        return 1;
    }
    if (strcasecmp(name, "base_url") == 0) {
        if (x->seen_base)
            return fail(x, "key \"base_url\" is given twice in [web] (first on line %d)",
                        x->seen_base);
        x->seen_base = x->line;
        if (base_url_read(value, &x->c) != 0)
            return fail(x,
                        "base_url must be an http:// or https:// address without spaces or "
                        "quotes, at most %d bytes, like https://ringside.example.org",
                        WEB_URL_MAX - 1);
        return 1;
    }
    int read = limit_key_read(x, name, value);
    if (read >= 0)
        return read;
    char q[48];
    snprintf(q, sizeof(q), "%.40s", name);
    return fail(x,
                "unknown key \"%s\" in [web]; keys are listen, base_url, max_connections, "
                "max_connections_per_address, request_timeout, threads",
                q);
}

/* [web] threads' default: one a CPU online, at most WEB_THREADS_DEFAULT
 * (a few cores answer more pages than one; past that the database and the
 * wakeups share what is left). */
static int threads_default(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    if (n < 1)
        return 1;
    return n > WEB_THREADS_DEFAULT ? WEB_THREADS_DEFAULT : (int)n;
}

/* inih's line source: one line of the text at a time, counted. */
static char *reader(char *str, int num, void *stream)
{
    struct cfg_ctx *x = stream;

    if (!*x->pos)
        return NULL;
    size_t n = strcspn(x->pos, "\n");
    x->line++;
    if (n >= (size_t)num - 1 || n >= LINE_MAX_BYTES - 2) {
        fail(x, "line is longer than %d bytes", LINE_MAX_BYTES - 2);
        str[0] = '\0';
    } else {
        memcpy(str, x->pos, n);
        str[n] = '\0';
        /* Leading blanks: as the bot does, an indented key is a key. */
        size_t lead = strspn(str, " \t");
        memmove(str, str + lead, n - lead + 1);
    }
    x->pos += n + (x->pos[n] == '\n');
    return str;
}

int web_config_parse(const char *name, const char *text, struct web_config *c, char *err,
                     size_t errlen)
{
    struct cfg_ctx *x = xcalloc(1, sizeof(*x));
    int rc = 0;

    x->name = name;
    x->pos = text;
    snprintf(x->c.database, sizeof(x->c.database), "ringside.db");
    listen_read("127.0.0.1:8080", &x->c);
    x->c.max_connections = WEB_CONN_MAX;
    x->c.max_connections_per_address = WEB_CONN_PER_ADDRESS;
    x->c.request_timeout = WEB_REQUEST_TIMEOUT;
    x->c.threads = threads_default();
    int bad = ini_parse_stream(reader, x, handler, x);
    if (!x->err_line && bad > 0) {
        x->err_line = bad;
        snprintf(x->reason, sizeof(x->reason),
                 "expected \"key = value\", a [section] or a comment (; or #)");
    }
    if (!x->seen_limit[1] && x->c.max_connections_per_address > x->c.max_connections)
        x->c.max_connections_per_address = x->c.max_connections; /* the default, lowered */
    if (!x->err_line && x->c.max_connections_per_address > x->c.max_connections) {
        x->err_line = x->seen_limit[1];
        snprintf(x->reason, sizeof(x->reason),
                 "max_connections_per_address (%d) is more than max_connections (%d); make it "
                 "at most that",
                 x->c.max_connections_per_address, x->c.max_connections);
    }
    if (x->err_line) {
        snprintf(err, errlen, "%s:%d: %s", name, x->err_line, x->reason);
        rc = -1;
    } else {
        *c = x->c;
    }
    free(x);
    return rc;
}

int web_config_load(const char *path, struct web_config *c, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");

    if (!f) {
        snprintf(err, errlen, "%s: cannot open it: %m; give the bot's configuration file with -c",
                 path);
        return -1;
    }
    char *text = xmalloc(FILE_MAX_BYTES + 1);
    size_t n = fread(text, 1, FILE_MAX_BYTES + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad || n > FILE_MAX_BYTES) {
        snprintf(err, errlen, "%s: %s", path,
                 bad ? "cannot read it" : "is over 1 MiB; a configuration is a few hundred bytes");
        free(text);
        return -1;
    }
    text[n] = '\0';
    if (strlen(text) != n) {
        snprintf(err, errlen, "%s: holds a NUL byte; it must be a text file", path);
        free(text);
        return -1;
    }
    int rc = web_config_parse(path, text, c, err, errlen);
    free(text);
    return rc;
}
