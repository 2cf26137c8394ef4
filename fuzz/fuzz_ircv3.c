/*
 * fuzz_ircv3.c - libFuzzer harness for bot/ircline.c's IRCv3 readers:
 * server-time values (irc_time_parse, irc_msg_time), standard replies
 * (irc_std_reply) and BATCH lines (irc_batch_parse).
 *
 * The input is one line. Checked: a time read is finite and within the
 * years 0000-9999 (a value the format can hold), and the input read as a
 * time is exactly the shape YYYY-MM-DDThh:mm:ss[.f+]Z; a standard reply
 * has a kind of FAIL, WARN or NOTE, its command, code and description
 * point into the line and its context count fits; a batch has a non-empty
 * reference, a type when it opens and none when it closes. Any breach
 * aborts.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(int line)
{
    fprintf(stderr, "fuzz_ircv3.c:%d: check failed\n", line);
    abort();
}
#define check(ok) ((ok) ? (void)0 : fail(__LINE__))

static int inside(const char *p, const char *buf, size_t len)
{
    return p && p >= buf && p <= buf + len;
}

/* The shape irc_time_parse accepts, checked independently. */
static int time_shaped(const char *s)
{
    static const char pat[] = "dddd-dd-ddTdd:dd:dd";
    size_t i = 0;

    for (; pat[i]; i++) {
        if (pat[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != pat[i])
            return 0;
    }
    if (s[i] == '.') {
        i++;
        if (s[i] < '0' || s[i] > '9')
            return 0;
        while (s[i] >= '0' && s[i] <= '9')
            i++;
    }
    return s[i] == 'Z' && s[i + 1] == '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *line = malloc(size + 1);
    double t;

    memcpy(line, data, size);
    line[size] = '\0';
    size_t len = strlen(line);
    if (irc_time_parse(line, &t) == 0) {
        check(time_shaped(line));
        check(isfinite(t) && t >= -62167219200.0 - 1 && t < 253402300800.0 + 1);
    }
    struct irc_msg m;
    if (irc_msg_parse(line, &m) == 0) {
        if (irc_msg_time(&m, &t))
            check(isfinite(t));
        struct irc_std r;
        if (irc_std_reply(&m, &r)) {
            check(strcmp(r.kind, "FAIL") == 0 || strcmp(r.kind, "WARN") == 0 ||
                  strcmp(r.kind, "NOTE") == 0);
            check(inside(r.command, line, len) && inside(r.code, line, len) &&
                  inside(r.description, line, len));
            check(r.ncontext >= 0 && r.ncontext <= IRC_STD_CONTEXT && r.ncontext == m.nparams - 3);
            for (int i = 0; i < r.ncontext; i++)
                check(inside(r.context[i], line, len));
        }
        struct irc_batch b;
        if (irc_batch_parse(&m, &b)) {
            check(inside(b.ref, line, len) && b.ref[0]);
            check(b.open ? b.type && b.type[0] && inside(b.type, line, len) : !b.type);
        }
    }
    free(line);
    return 0;
}
