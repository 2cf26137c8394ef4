/*
 * fuzz_multiline.c - libFuzzer harness for draft/multiline (bot/multiline.c
 * and the batch hook of bot/outq.c): the input is the capability's value,
 * then after the first NUL the text of a private answer, one line per LF
 * (no NUL: the whole input as the value, no answer).
 *
 * For every input: multiline_limits refuses the value with a reason, or
 * gives max-bytes from 1 to MULTILINE_NUMBER_MAX. With limits, the answer
 * queued and popped until the queue is dry gives well-formed batches:
 * "BATCH +ref draft/multiline alice" opens one only when none is open,
 * every line inside is a PRIVMSG to alice tagged with that ref, the
 * concat tag never on a batch's first line, at most max-lines lines and
 * max-bytes of text (a line break counting one) a batch, "BATCH -ref"
 * closes it; a line outside a batch is a plain PRIVMSG to alice; every
 * wire line fits 510 bytes. Any breach aborts, which libFuzzer reports as
 * a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

struct seen {
    char ref[32];
    int open, lines;
    size_t bytes;
};

/* One popped line and its tags, against the rules above. */
static void one(const struct multiline *m, struct seen *b, const char *tags, const char *line)
{
    char want[64];

    check(strlen(line) <= 510);
    if (strncmp(line, "BATCH +", 7) == 0) {
        check(!b->open);
        check(sscanf(line + 7, "%31s", b->ref) == 1);
        snprintf(want, sizeof(want), "BATCH +%s draft/multiline alice", b->ref);
        check(strcmp(line, want) == 0);
        b->open = 1;
        b->lines = 0;
        b->bytes = 0;
        return;
    }
    if (strncmp(line, "BATCH -", 7) == 0) {
        check(b->open && strcmp(line + 7, b->ref) == 0 && b->lines >= 2);
        b->open = 0;
        return;
    }
    check(strncmp(line, "PRIVMSG alice :", 15) == 0);
    if (!b->open) {
        check(!strstr(tags, "batch="));
        return;
    }
    snprintf(want, sizeof(want), "@batch=%s", b->ref);
    check(strncmp(tags, want, strlen(want)) == 0);
    int concat = strstr(tags, "draft/multiline-concat") != NULL;
    check(!concat || b->lines > 0);
    b->bytes += strlen(line + 15) + (b->lines > 0 && !concat);
    b->lines++;
    check(!m->max_lines || b->lines <= m->max_lines);
    check(b->bytes <= m->max_bytes);
}

static void answer(const struct multiline *m, const char *text)
{
    struct outq *q = outq_new(4, 1);
    char line[OUTQ_LINE_MAX];
    struct seen b = {"", 0, 0, 0};

    outq_set_multiline(q, m);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        char piece[2048];
        snprintf(piece, sizeof(piece), "%.*s", (int)(n < sizeof(piece) ? n : sizeof(piece) - 1), p);
        outq_msg(q, OUTQ_BULK, "PRIVMSG", "alice", NULL, piece);
        p += n + (p[n] == '\n');
    }
    for (double now = 0; now < 100000 && outq_len(q) > 0; now += 1)
        while (outq_pop(q, now, line))
            one(m, &b, outq_popped_tags(q), line);
    check(!b.open);
    outq_free(q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    char err[160];
    struct multiline m;

    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    size_t first = strlen(buf);
    if (multiline_limits(buf, &m, err, sizeof(err)) != 0) {
        check(m.max_bytes == 0 && err[0] != '\0');
    } else {
        check(m.max_bytes >= 1 && m.max_bytes <= MULTILINE_NUMBER_MAX);
        if (first < size && size - first < 8192)
            answer(&m, buf + first + 1);
    }
    free(buf);
    return 0;
}
