/*
 * fuzz_outq.c - libFuzzer harness for the output queue's cutting of a long
 * message into lines (bot/outq.c: outq_msg, irc_split, text_utf8_clean).
 *
 * Input: a byte for the command and kind (PRIVMSG or NOTICE, a reply or a
 * live line, a CTCP framing or not), one for the length of the bot's own
 * prefix as the server relays it (0-255 bytes), one for the target, then the
 * text. Every line the queue gives back must: start "CMD target :", fit
 * 512 bytes as the server relays it (":" prefix " " line CR LF), hold
 * valid UTF-8 with no control byte but the bot's formatting (bold, colour,
 * reset; a NOTICE's CTCP framing), and cut the text nowhere but between
 * characters; the pieces put back together, with the spaces at each cut,
 * must be the whole cleaned text: nothing lost (but spaces where a line
 * was cut, even at the end), nothing added. Any breach
 * aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

#define KEEP "\002\003\017"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts saying which check failed (libFuzzer keeps the input). */
static void fail(int line)
{
    fprintf(stderr, "fuzz_outq.c:%d: check failed\n", line);
    abort();
}
#define check(ok) ((ok) ? (void)0 : fail(__LINE__))

/* A channel, a nick, and the longest target the queue takes (63 bytes). */
static const char *const targets[] = {
    "#r", "somebody", "#a-channel-with-a-rather-long-name-indeed",
    "nick-of-the-longest-kind-a-server-might-allow-sixty-three-bytes"};

/* What the queue must send of text: cleaned as outq_msg does. */
static void expected(struct str *out, const char *cmd, const char *text, size_t len)
{
    if (strcmp(cmd, "NOTICE") == 0 && len >= 2 && text[0] == '\001' && text[len - 1] == '\001') {
        str_ch(out, '\001');
        text_utf8_clean(out, text + 1, len - 2, KEEP);
        str_ch(out, '\001');
        return;
    }
    text_utf8_clean(out, text, len, KEEP);
}

/* The piece holds only what may go: valid UTF-8 (a fixed point of the
 * cleaning) without a foreign control (\001 only at a CTCP's ends). */
static void check_piece(const char *piece, size_t n, int ctcp)
{
    struct str again;

    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)piece[i];
        if (c == '\001' && ctcp)
            continue;
        check((c >= 0x20 && c != 0x7f) || (c && strchr(KEEP, c)));
    }
    str_init(&again);
    text_utf8_clean(&again, piece, n, KEEP "\001");
    check(again.len == n && memcmp(again.p, piece, n) == 0);
    str_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3 || size > 65536)
        return 0;
    const char *cmd = data[0] & 1 ? "NOTICE" : "PRIVMSG";
    enum outq_kind kind = data[0] & 2 ? OUTQ_LIVE : OUTQ_REPLY;
    size_t prefix = data[1];
    const char *target = targets[data[2] % 4];
    size_t len = size - 3;
    char *text = malloc(len + 3);
    size_t at = 0;

    if (data[0] & 4) { /* a CTCP reply's framing */
        text[at++] = '\001';
        memcpy(text + at, data + 3, len);
        at += len;
        text[at++] = '\001';
    } else {
        memcpy(text, data + 3, len);
        at = len;
    }
    text[at] = '\0';
    len = strlen(text); /* the queue takes C strings */
    struct str want;
    str_init(&want);
    expected(&want, cmd, text, len);

    struct outq *q = outq_new(5, 2);
    outq_set_prefix_len(q, prefix);
    outq_msg(q, kind, cmd, target, "owner", text);
    char line[OUTQ_LINE_MAX], head[128];
    size_t hlen = (size_t)snprintf(head, sizeof(head), "%s %s :", cmd, target);
    size_t pos = 0;
    double now = 0;
    while (outq_len(q) > 0) {
        double w = outq_wait(q, now);
        check(w >= 0 && w < 100);
        now += w;
        check(outq_pop(q, now, line));
        size_t n = strlen(line);
        check(n >= hlen && memcmp(line, head, hlen) == 0);
        check(1 + prefix + 1 + n + 2 <= 512);
        const char *piece = line + hlen;
        size_t plen = n - hlen;
        check(plen > 0);
        check_piece(piece, plen, strcmp(cmd, "NOTICE") == 0);
        /* The piece is the next part of the text, spaces at the cut left
         * out. */
        if (pos > 0)
            while (pos < want.len && want.p[pos] == ' ')
                pos++;
        check(pos + plen <= want.len && memcmp(want.p + pos, piece, plen) == 0);
        pos += plen;
    }
    /* Spaces after the last cut start no line: they are the only thing
     * left out. */
    while (pos > 0 && pos < want.len && want.p[pos] == ' ')
        pos++;
    check(pos == want.len);
    outq_free(q);
    str_free(&want);
    free(text);
    return 0;
}
