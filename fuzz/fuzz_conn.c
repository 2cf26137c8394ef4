/*
 * fuzz_conn.c - libFuzzer harness for bot/conn.c's handling of what the
 * server says before and around registration: CAP (LS over several lines,
 * ACK, NAK, DEL), AUTHENTICATE, the SASL numerics 900-908, 001, 410, 421 and
 * ISUPPORT (005's WHOX), on a connection without sockets (conn_offline).
 *
 * The first byte picks the configuration (SASL none, PLAIN or EXTERNAL;
 * sasl_required or not), the rest is fed as the server's bytes, in pieces
 * whose sizes the input's own bytes decide. Checked: every line sent to the
 * server is a CAP or AUTHENTICATE line of at most 512 bytes with CR LF, and
 * no AUTHENTICATE goes without SASL configured; every line passed to
 * libircclient ends with CR LF, holds no other CR, LF or NUL, and is never
 * one the negotiation consumes (CAP, AUTHENTICATE, 900-908, BATCH, FAIL, WARN,
 * NOTE); an account tag read back is a NUL-ended string that fits; the password
 * never reaches libircclient (unless the server itself said it); sasl is on only when configured; a
 * connection that ended says why. Any breach aborts.
 */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bot.h"

#define PASSWORD "hunter2-secret"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts saying which check failed (libFuzzer keeps the input). */
static void fail(int line)
{
    fprintf(stderr, "fuzz_conn.c:%d: check failed\n", line);
    abort();
}
#define check(ok) ((ok) ? (void)0 : fail(__LINE__))

/* Lines to the server: ours, bounded, and AUTHENTICATE only with SASL. */
static void check_to_server(const char *buf, size_t n, const struct config *cfg)
{
    for (size_t at = 0; at < n;) {
        const char *nl = memchr(buf + at, '\n', n - at);
        check(nl != NULL);
        size_t len = (size_t)(nl - (buf + at)) + 1;
        check(len <= 512 && len >= 2 && buf[at + len - 2] == '\r');
        check(memchr(buf + at, '\0', len) == NULL);
        int cap = strncmp(buf + at, "CAP ", 4) == 0;
        int auth = strncmp(buf + at, "AUTHENTICATE ", 13) == 0;
        check(cap || auth);
        check(!auth || cfg->sasl_mechanism != SASL_NONE);
        at += len;
    }
}

/* Lines to libircclient: whole, clean, never one the negotiation eats. */
static void check_to_lib(const char *buf, size_t n, int said)
{
    char line[20480 + 4];

    for (size_t at = 0; at < n;) {
        const char *nl = memchr(buf + at, '\n', n - at);
        check(nl != NULL);
        size_t len = (size_t)(nl - (buf + at)) + 1;
        check(len >= 2 && buf[at + len - 2] == '\r' && len < sizeof(line));
        memcpy(line, buf + at, len - 2);
        line[len - 2] = '\0';
        check(strlen(line) == len - 2 && !strpbrk(line, "\r\n"));
        check(said || !strstr(line, PASSWORD)); /* unless the server said it */
        struct irc_msg m;
        if (irc_msg_parse(line, &m) == 0) {
            check(!(strcasecmp(m.verb, "CAP") == 0 && m.nparams >= 2));
            check(strcasecmp(m.verb, "AUTHENTICATE") != 0);
            int num = strlen(m.verb) == 3 && strspn(m.verb, "0123456789") == 3 ? atoi(m.verb) : -1;
            check(num < 900 || num > 908);
            check(strcasecmp(m.verb, "BATCH") != 0 && strcasecmp(m.verb, "FAIL") != 0 &&
                  strcasecmp(m.verb, "WARN") != 0 && strcasecmp(m.verb, "NOTE") != 0);
        }
        at += len;
    }
}

#define DRAIN_MAX 65536

static void drain(struct conn *c, const struct config *cfg, char *buf, int said, size_t *moved)
{
    size_t n;

    while ((n = conn_take(c, 1, buf, DRAIN_MAX)) > 0) {
        check_to_server(buf, n, cfg);
        *moved += n;
    }
    while ((n = conn_take(c, 0, buf, DRAIN_MAX)) > 0) {
        check_to_lib(buf, n, said);
        *moved += n;
    }
    /* libircclient's callback asking for a sender's account tag. */
    char acc[DB_NAME_MAX + 1];
    memset(acc, 'x', sizeof(acc));
    if (conn_msg_account(c, (*moved & 1) ? "a" : "b", acc, sizeof(acc)))
        check(memchr(acc, '\0', sizeof(acc)) != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct config cfg;

    if (size < 1)
        return 0;
    log_set_level(LOG_ERROR); /* quieter */
    config_defaults(&cfg);
    static const enum sasl_mechanism mechs[] = {SASL_NONE, SASL_PLAIN, SASL_EXTERNAL, SASL_PLAIN};
    cfg.sasl_mechanism = mechs[data[0] & 3];
    cfg.sasl_required = (data[0] >> 2) & 1;
    snprintf(cfg.sasl_username, sizeof(cfg.sasl_username), "ringside");
    snprintf(cfg.sasl_password, sizeof(cfg.sasl_password), PASSWORD);
    /* No database file: an sts offer is never stored (no state between
     * runs, nothing written beside the fuzzer). */
    snprintf(cfg.database, sizeof(cfg.database), ":memory:");
    struct conn *c = conn_offline(&cfg);
    struct outq *q = outq_new(4, 1); /* told of a FAIL */
    conn_set_outq(c, q);
    char *buf = malloc(DRAIN_MAX);
    int said = memmem(data, size, PASSWORD, strlen(PASSWORD)) != NULL;
    const char *p = (const char *)data + 1;
    size_t left = size - 1, moved = 0;
    for (int turns = 0; left > 0 && !conn_error(c) && turns < 10000; turns++) {
        /* A piece of 1 to 256 bytes, as a socket might deliver them. */
        size_t piece = 1 + (unsigned char)p[0];
        if (piece > left)
            piece = left;
        size_t took = conn_feed(c, p, piece);
        p += took;
        left -= took;
        drain(c, &cfg, buf, said, &moved);
    }
    drain(c, &cfg, buf, said, &moved);
    if (conn_has_cap(c, "sasl"))
        check(cfg.sasl_mechanism != SASL_NONE);
    const char *why = conn_error(c);
    check(!why || *why);
    conn_close(c);
    outq_free(q);
    free(buf);
    return 0;
}
