/* check_outq.c - the paced output queue, driven by a fake clock: burst then
 * rate, the order of kinds and targets, splitting to 512-byte wire lines,
 * sanitizing, dropping chatter (never replies) with a note, unpop, clear and
 * the wait times the event loop sleeps on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"
#include "tests.h"

/* What outq.c assumes for "nick!user@host" until told. */
#define DEFAULT_PREFIX 106
/* The relayed line: ":" + origin + " " + line + CR LF. */
#define WIRE(prefix, line) (1 + (prefix) + 1 + strlen(line) + 2)

/* stderr goes to a temporary file between log_begin and log_end, which
 * returns what was logged (static buffer): the queue's complaints are
 * checked, not printed over the test report. */
static int log_saved = -1;
static FILE *log_tmp;

static void log_begin(void)
{
    fflush(stderr);
    log_tmp = tmpfile();
    ck_assert_ptr_nonnull(log_tmp);
    log_saved = dup(2);
    ck_assert_int_ge(log_saved, 0);
    ck_assert_int_ge(dup2(fileno(log_tmp), 2), 0);
}

static const char *log_end(void)
{
    static char out[4096];

    fflush(stderr);
    dup2(log_saved, 2);
    close(log_saved);
    rewind(log_tmp);
    size_t n = fread(out, 1, sizeof(out) - 1, log_tmp);
    out[n] = '\0';
    fclose(log_tmp);
    return out;
}

static int count(const char *haystack, const char *needle)
{
    int n = 0;

    for (const char *p = haystack; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* Pops every line (the clock jumps far enough each time); returns how many
 * and appends them, '\n' separated, to out if given. */
static int drain(struct outq *q, double *now, char *out, size_t outlen)
{
    char line[OUTQ_LINE_MAX];
    int n = 0;

    if (out && outlen)
        out[0] = '\0';
    while (outq_len(q) > 0) {
        double w = outq_wait(q, *now);
        REQUIRE(w >= 0);
        *now += w;
        REQUIRE(outq_pop(q, *now, line));
        if (out) {
            REQUIRE(strlen(out) + strlen(line) + 2 <= outlen);
            strcat(out, line);
            strcat(out, "\n");
        }
        n++;
    }
    REQUIRE(outq_wait(q, *now) == -1);
    return n;
}

START_TEST(test_burst_then_rate)
{
    struct outq *q = outq_new(4, 1, 50);
    char line[OUTQ_LINE_MAX];

    ck_assert_double_eq(outq_wait(q, 100), -1);
    for (int i = 0; i < 10; i++) {
        snprintf(line, sizeof(line), "PING :%d", i);
        outq_raw(q, line);
    }
    ck_assert_int_eq(outq_len(q), 10);
    ck_assert_double_eq(outq_wait(q, 100), 0);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(outq_pop(q, 100, line), 1);
        ck_assert_int_eq(atoi(line + 6), i);
    }
    ck_assert_int_eq(outq_pop(q, 100, line), 0);
    ck_assert_double_eq_tol(outq_wait(q, 100), 1.0, 1e-9);
    ck_assert_int_eq(outq_pop(q, 100.5, line), 0);
    ck_assert_double_eq_tol(outq_wait(q, 100.5), 0.5, 1e-9);
    ck_assert_int_eq(outq_pop(q, 101, line), 1);
    ck_assert_str_eq(line, "PING :4");
    ck_assert_int_eq(outq_pop(q, 101, line), 0);
    /* Two seconds earn two lines. */
    ck_assert_int_eq(outq_pop(q, 103, line), 1);
    ck_assert_int_eq(outq_pop(q, 103, line), 1);
    ck_assert_int_eq(outq_pop(q, 103, line), 0);
    ck_assert_int_eq(outq_len(q), 3);
    /* A long pause earns no more than the burst. */
    for (int i = 0; i < 5; i++)
        outq_raw(q, "PONG :x");
    int got = 0;
    while (outq_pop(q, 1000, line))
        got++;
    ck_assert_int_eq(got, 4);
    ck_assert_int_eq(outq_len(q), 4);
    outq_free(q);
}
END_TEST

START_TEST(test_rate_and_set_rate)
{
    struct outq *q = outq_new(1, 2, 50);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    for (int i = 0; i < 20; i++)
        outq_raw(q, "PING :x");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_double_eq_tol(outq_wait(q, now), 0.5, 1e-9);
    /* 20 lines at 2 a second after one at once: 9.5 s. */
    ck_assert_int_eq(drain(q, &now, NULL, 0), 19);
    ck_assert_double_eq_tol(now, 9.5, 1e-6);

    outq_set_rate(q, 3, 0.25);
    for (int i = 0; i < 5; i++)
        outq_raw(q, "PING :y");
    now += 100; /* the bucket refills, to the new burst */
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 0);
    ck_assert_double_eq_tol(outq_wait(q, now), 4.0, 1e-9);
    /* Bad rates are clamped, not trusted. */
    outq_set_rate(q, 0, 0);
    ck_assert_double_eq_tol(outq_wait(q, now), 1.0, 1e-9);
    outq_free(q);
    outq_free(NULL);
}
END_TEST

START_TEST(test_priorities)
{
    struct outq *q = outq_new(100, 1, 50);
    char all[4096];
    double now = 0;

    outq_msg(q, OUTQ_CHATTER, "PRIVMSG", "#ring", "round 1: jab");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", "bob: challenge sent");
    outq_msg(q, OUTQ_REPLY, "NOTICE", "bob", "your orders are in");
    outq_raw(q, "PONG :server");
    outq_msg(q, OUTQ_CHATTER, "PRIVMSG", "#other", "round 2: hook");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "&local", "a reply in a & channel");
    outq_msg(q, OUTQ_PROTOCOL, "NOTICE", "carol", "\x01VERSION ringside\x01");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "alice", "welcome");
    ck_assert_int_eq(outq_len(q), 8);
    ck_assert_int_eq(drain(q, &now, all, sizeof(all)), 8);
    /* Protocol, then replies (private first), but with chatter waiting
     * only OUTQ_REPLY_RUN (3) replies pass it before a chatter line. */
    ck_assert_str_eq(all, "PONG :server\n"
                          "NOTICE carol :\x01VERSION ringside\x01\n"
                          "NOTICE bob :your orders are in\n"
                          "PRIVMSG alice :welcome\n"
                          "PRIVMSG #ring :bob: challenge sent\n"
                          "PRIVMSG #ring :round 1: jab\n"
                          "PRIVMSG &local :a reply in a & channel\n"
                          "PRIVMSG #other :round 2: hook\n");
    outq_free(q);
}
END_TEST

/* A flood of replies cannot starve a bout's commentary. */
START_TEST(test_chatter_not_starved)
{
    struct outq *q = outq_new(1000, 1000, 50);
    char line[OUTQ_LINE_MAX], text[32];
    double now = 0;

    for (int i = 0; i < 100; i++) {
        snprintf(text, sizeof(text), "reply %d", i);
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", text);
    }
    outq_msg(q, OUTQ_CHATTER, "PRIVMSG", "#ring", "Round 1: a jab");
    for (int i = 0; i < OUTQ_REPLY_RUN; i++) {
        ck_assert_int_eq(outq_pop(q, now, line), 1);
        ck_assert_ptr_nonnull(strstr(line, "PRIVMSG bob :reply"));
    }
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :Round 1: a jab");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG bob :reply 3");
    outq_free(q);
}
END_TEST

/* A long answer to one player (a report) does not hold up the others. */
START_TEST(test_long_reply_not_blocking)
{
    struct outq *q = outq_new(1000, 1000, 50);
    char line[OUTQ_LINE_MAX], text[64];
    double now = 0;
    int bob = 0, carol_at = -1;

    for (int i = 0; i < 50; i++) {
        snprintf(text, sizeof(text), "report line %d", i);
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", text);
    }
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "carol", "version 1");
    for (int k = 0; outq_pop(q, now, line); k++) {
        if (strncmp(line, "PRIVMSG carol :", 15) == 0) {
            carol_at = k;
            continue;
        }
        /* bob's lines keep their order. */
        snprintf(text, sizeof(text), "PRIVMSG bob :report line %d", bob++);
        ck_assert_str_eq(line, text);
    }
    ck_assert_int_eq(bob, 50);
    ck_assert_int_eq(carol_at, OUTQ_TARGET_RUN);
    outq_free(q);
}
END_TEST

/* Lines to one target keep their order within a kind, however they are
 * interleaved with lines to others; chatter to several channels keeps the
 * order it was queued in. */
START_TEST(test_fifo_per_target)
{
    struct outq *q = outq_new(3, 10, 1000);
    char line[OUTQ_LINE_MAX], text[32];
    const char *targets[] = {"#a", "#b", "bob", "#c", "alice"};
    int next_chatter[5] = {0}, next_reply[5] = {0}, seq = 0;
    double now = 0;

    for (int i = 0; i < 500; i++) {
        int t = (i * 7) % 5;
        snprintf(text, sizeof(text), "%d", i);
        outq_msg(q, t == 2 || t == 4 || i % 3 == 0 ? OUTQ_REPLY : OUTQ_CHATTER, "PRIVMSG",
                 targets[t], text);
    }
    int last_chatter = -1, chatter_seen = 0, chatter_total = 0, run = 0;
    for (int i = 0; i < 500; i++) {
        int t = (i * 7) % 5;
        chatter_total += !(t == 2 || t == 4 || i % 3 == 0);
    }
    while (outq_len(q) > 0) {
        now += outq_wait(q, now);
        REQUIRE(outq_pop(q, now, line));
        char target[16];
        int i;
        REQUIRE(sscanf(line, "PRIVMSG %15s :%d", target, &i) == 2);
        int t = (i * 7) % 5;
        REQUIRE(strcmp(target, targets[t]) == 0);
        int reply = t == 2 || t == 4 || i % 3 == 0;
        int *next = reply ? next_reply : next_chatter;
        REQUIRE(i >= next[t]);
        next[t] = i + 1;
        if (!reply) {
            REQUIRE(i > last_chatter); /* chatter across targets: queue order */
            last_chatter = i;
            chatter_seen++;
            run = 0;
        } else if (chatter_seen < chatter_total) {
            /* Replies first, but never more than 3 in a row past chatter. */
            REQUIRE(++run <= OUTQ_REPLY_RUN);
        }
        seq++;
    }
    ck_assert_int_eq(seq, 500);
    outq_free(q);
}
END_TEST

/* 2000 bytes of words, some UTF-8: every line fits 512 bytes as relayed,
 * with the default prefix and with a shorter one, and the pieces put back
 * together give the text. */
START_TEST(test_split_long_message)
{
    static const char *words[] = {"jab",          "cross",
                                  "uppercut",     "Muhammad",
                                  "Ali",          "\xc3\xa9l\xc3\xa9gant",
                                  "\xe2\x82\xac", "\xf0\x9f\xa5\x8a",
                                  "rope-a-dope"};
    char text[2100], all[8192];
    size_t prefixes[] = {0, 60, DEFAULT_PREFIX, 300};
    double now = 0;

    text[0] = '\0';
    for (int i = 0; strlen(text) < 2000; i++) {
        if (i)
            strcat(text, " ");
        strcat(text, words[(i * 5) % 9]);
    }
    for (size_t p = 0; p < sizeof(prefixes) / sizeof(prefixes[0]); p++) {
        struct outq *q = outq_new(4, 1, 1000);
        size_t prefix = prefixes[p] ? prefixes[p] : DEFAULT_PREFIX;
        if (prefixes[p])
            outq_set_prefix_len(q, prefixes[p]);
        outq_msg(q, OUTQ_CHATTER, "PRIVMSG", "#ringside", text);
        int n = drain(q, &now, all, sizeof(all));
        char joined[2100] = "";
        size_t shortest = 512;
        int lines = 0;
        for (char *l = strtok(all, "\n"); l; l = strtok(NULL, "\n"), lines++) {
            size_t wire = WIRE(prefix, l);
            ck_assert_uint_le(wire, 512);
            ck_assert_int_eq(strncmp(l, "PRIVMSG #ringside :", 19), 0);
            ck_assert_int_ne(l[19], ' ');
            if (lines)
                strcat(joined, " ");
            strcat(joined, l + 19);
            if (wire < shortest)
                shortest = wire;
        }
        ck_assert_int_eq(lines, n);
        ck_assert_str_eq(joined, text);
        /* Cut at spaces near the end, not early: each line but the last is
         * within a word's length of full. */
        ck_assert_int_ge(n, (int)(2000 / (512 - prefix - 23)));
        ck_assert_int_le(n, (int)(2000 / (512 - prefix - 23 - 12)) + 1);
        outq_free(q);
    }
}
END_TEST

/* 2000 bytes with no space: cuts fall between characters, never inside. */
START_TEST(test_split_no_spaces_utf8)
{
    struct outq *q = outq_new(4, 1, 1000);
    char text[2010], all[8192], joined[2100] = "";
    double now = 0;
    int full = 0;

    text[0] = '\0';
    while (strlen(text) < 2000)
        strcat(text, "\xe2\x82\xac"
                     "a\xc3\xa9");
    outq_msg(q, OUTQ_REPLY, "NOTICE", "somebody", text);
    int n = drain(q, &now, all, sizeof(all));
    ck_assert_int_ge(n, 5);
    for (char *l = strtok(all, "\n"); l; l = strtok(NULL, "\n")) {
        ck_assert_uint_le(WIRE(DEFAULT_PREFIX, l), 512);
        full += WIRE(DEFAULT_PREFIX, l) >= 510; /* at most a 3-byte character short */
        ck_assert_int_eq(strncmp(l, "NOTICE somebody :", 17), 0);
        const unsigned char *piece = (const unsigned char *)l + 17;
        ck_assert((piece[0] & 0xc0) != 0x80);
        strcat(joined, l + 17);
    }
    ck_assert_str_eq(joined, text);
    outq_free(q);
}
END_TEST

/* Text of exactly the room left makes one line of exactly 512 bytes as
 * relayed; one byte more makes two. */
START_TEST(test_split_exact_fit)
{
    struct outq *q = outq_new(10, 1, 50);
    char text[600], line[OUTQ_LINE_MAX];
    size_t room = 512 - WIRE(40, "PRIVMSG #r :");

    outq_set_prefix_len(q, 40);
    memset(text, 'x', room);
    text[room] = '\0';
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#r", text);
    ck_assert_int_eq(outq_len(q), 1);
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_uint_eq(WIRE(40, line), 512);
    text[room] = 'y';
    text[room + 1] = '\0';
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#r", text);
    ck_assert_int_eq(outq_len(q), 2);
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_uint_eq(WIRE(40, line), 512);
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #r :y");
    /* A prefix that leaves no room for text refuses the message. */
    outq_set_prefix_len(q, 490);
    log_begin();
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#r", "hello");
    ck_assert_ptr_nonnull(strstr(log_end(), "outq: no room for text to #r"));
    ck_assert_int_eq(outq_len(q), 0);
    outq_free(q);
}
END_TEST

START_TEST(test_sanitized)
{
    struct outq *q = outq_new(10, 1, 50);
    char all[2048];
    double now = 0;

    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", "hi\r\nQUIT :pwned");
    outq_raw(q, "PRIVMSG #c :one\r\nQUIT\n");
    outq_unpop(q, "NOTICE x :a\rb");
    log_begin();
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "", "empty target");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob\r\nQUIT", "bad target");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob x", "target with a space");
    outq_msg(q, OUTQ_REPLY, "PRIV MSG", "bob", "bad command");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", ""); /* nothing to send */
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL);
    const char *log = log_end();
    ck_assert_int_eq(count(log, "outq: refused a message"), 4);
    ck_assert_int_eq(count(log, "\n"), 4);
    ck_assert_ptr_nonnull(strstr(log, "to \"bob\\r\\nQUIT\"")); /* escaped in the log */
    ck_assert_int_eq(outq_len(q), 3);
    drain(q, &now, all, sizeof(all));
    ck_assert_str_eq(all, "NOTICE x :a b\n"
                          "PRIVMSG #c :one  QUIT \n"
                          "PRIVMSG bob :hi  QUIT :pwned\n");
    outq_free(q);
}
END_TEST

START_TEST(test_raw_too_long)
{
    struct outq *q = outq_new(10, 1, 50);
    char big[700], line[OUTQ_LINE_MAX];

    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    memcpy(big + 508, "\xe2\x82\xac", 3); /* a character across 510 */
    log_begin();
    outq_raw(q, big);
    ck_assert_ptr_nonnull(strstr(log_end(), "warn outq: a 699-byte line cut to 510 bytes\n"));
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_uint_eq(strlen(line), 508);
    outq_free(q);
}
END_TEST

/* A target's chatter over chatter_max: the oldest go, one note in their
 * place, updated while it waits. */
START_TEST(test_chatter_dropped_with_note)
{
    struct outq *q = outq_new(1, 1, 5);
    char all[4096], text[32];
    double now = 0;

    outq_msg(q, OUTQ_CHATTER, "PRIVMSG", "#b", "b0");
    for (int i = 1; i <= 12; i++) {
        snprintf(text, sizeof(text), "a%d", i);
        outq_msg(q, OUTQ_CHATTER, "PRIVMSG", "#a", text);
    }
    outq_msg(q, OUTQ_CHATTER, "PRIVMSG", "#b", "b1");
    ck_assert_int_eq(outq_len(q), 1 + 6 + 1);
    drain(q, &now, all, sizeof(all));
    ck_assert_str_eq(all, "PRIVMSG #b :b0\n"
                          "PRIVMSG #a :(7 lines of commentary skipped to keep up)\n"
                          "PRIVMSG #a :a8\n"
                          "PRIVMSG #a :a9\n"
                          "PRIVMSG #a :a10\n"
                          "PRIVMSG #a :a11\n"
                          "PRIVMSG #a :a12\n"
                          "PRIVMSG #b :b1\n");

    /* Once the note has gone out, the next overflow gets a new one. */
    for (int i = 1; i <= 6; i++) {
        snprintf(text, sizeof(text), "c%d", i);
        outq_msg(q, OUTQ_CHATTER, "NOTICE", "#a", text);
    }
    char line[OUTQ_LINE_MAX];
    now += 10;
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "NOTICE #a :(1 line of commentary skipped to keep up)");
    ck_assert_int_eq(outq_pop(q, now, line), 0);
    outq_msg(q, OUTQ_CHATTER, "NOTICE", "#a", "c7");
    ck_assert_int_eq(outq_len(q), 6);
    drain(q, &now, all, sizeof(all));
    ck_assert_str_eq(all, "NOTICE #a :(1 line of commentary skipped to keep up)\n"
                          "NOTICE #a :c3\n"
                          "NOTICE #a :c4\n"
                          "NOTICE #a :c5\n"
                          "NOTICE #a :c6\n"
                          "NOTICE #a :c7\n");
    outq_free(q);
}
END_TEST

/* A flood of chatter to many channels: replies all come through, in order,
 * and the queue stays bounded. */
/* Reply number r goes to bob (even r) or #c1 (odd r): each target's replies
 * must come out complete and in order. */
static void reply_seen(const char *line, int next[2])
{
    int r;

    if (sscanf(line, "PRIVMSG %*s :reply %d", &r) == 1) {
        REQUIRE(r == next[r % 2]);
        REQUIRE(strncmp(line, r % 2 ? "PRIVMSG #c1 " : "PRIVMSG bob ", 12) == 0);
        next[r % 2] = r + 2;
    }
}

START_TEST(test_replies_never_dropped)
{
    struct outq *q = outq_new(4, 1, 1000000);
    char line[OUTQ_LINE_MAX], text[64], target[16];
    int next[2] = {0, 1}, max_len = 0, notes = 0, chatter = 0;
    double now = 0;

    for (int i = 0; i < 30000; i++) {
        snprintf(target, sizeof(target), "#c%d", i % 7);
        snprintf(text, sizeof(text), "blow %d", i);
        outq_msg(q, OUTQ_CHATTER, "PRIVMSG", target, text);
        if (i % 10 == 0) {
            snprintf(text, sizeof(text), "reply %d", i / 10);
            outq_msg(q, OUTQ_REPLY, "PRIVMSG", (i / 10) % 2 ? "#c1" : "bob", text);
        }
        if (outq_len(q) > max_len)
            max_len = outq_len(q);
        if (i % 5 == 0 && outq_pop(q, now, line))
            reply_seen(line, next);
        now += 0.01;
    }
    while (outq_len(q) > 0) {
        now += outq_wait(q, now);
        REQUIRE(outq_pop(q, now, line));
        if (strstr(line, "skipped to keep up"))
            notes++;
        else if (strstr(line, ":blow "))
            chatter++;
        reply_seen(line, next);
    }
    ck_assert_int_eq(next[0], 3000);
    ck_assert_int_eq(next[1], 3001);
    ck_assert_int_le(max_len, 10000);
    ck_assert_int_gt(notes, 0);
    ck_assert_int_le(notes, 7);
    ck_assert_int_gt(chatter, 5000);
    outq_free(q);
}
END_TEST

/* Replies over the total bound are kept even with no chatter to drop. */
START_TEST(test_replies_beyond_total)
{
    struct outq *q = outq_new(4, 1, 10);
    double now = 0;

    for (int i = 0; i < 10500; i++)
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", "x");
    log_begin();
    outq_msg(q, OUTQ_CHATTER, "PRIVMSG", "#a", "dropped: no room and no chatter to drop");
    ck_assert_ptr_nonnull(strstr(log_end(), "10500 lines waiting; commentary to #a dropped"));
    ck_assert_int_eq(outq_len(q), 10500);
    ck_assert_int_eq(drain(q, &now, NULL, 0), 10500);
    outq_free(q);
}
END_TEST

START_TEST(test_unpop)
{
    struct outq *q = outq_new(1, 1, 10);
    char line[OUTQ_LINE_MAX];

    outq_msg(q, OUTQ_CHATTER, "PRIVMSG", "#a", "chatter");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", "first");
    outq_raw(q, "PING :p");
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(line, "PING :p");
    outq_unpop(q, line);
    ck_assert_int_eq(outq_len(q), 3);
    /* The token went on the failed attempt: the retry waits for the next. */
    ck_assert_int_eq(outq_pop(q, 0, line), 0);
    ck_assert_double_eq_tol(outq_wait(q, 0), 1, 1e-9);
    ck_assert_int_eq(outq_pop(q, 1, line), 1);
    ck_assert_str_eq(line, "PING :p");
    ck_assert_int_eq(outq_pop(q, 2, line), 1);
    ck_assert_str_eq(line, "PRIVMSG bob :first");
    /* Unpopped chatter goes first, before protocol lines, and is never
     * dropped by later chatter. */
    ck_assert_int_eq(outq_pop(q, 3, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #a :chatter");
    outq_unpop(q, line);
    outq_raw(q, "PONG :x");
    for (int i = 0; i < 30; i++)
        outq_msg(q, OUTQ_CHATTER, "PRIVMSG", "#a", "more");
    ck_assert_int_eq(outq_pop(q, 4, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #a :chatter");
    ck_assert_int_eq(outq_pop(q, 5, line), 1);
    ck_assert_str_eq(line, "PONG :x");
    /* The last put back goes first. */
    outq_unpop(q, "two");
    outq_unpop(q, "one");
    ck_assert_int_eq(outq_pop(q, 6, line), 1);
    ck_assert_str_eq(line, "one");
    ck_assert_int_eq(outq_pop(q, 7, line), 1);
    ck_assert_str_eq(line, "two");
    outq_free(q);
}
END_TEST

START_TEST(test_clear)
{
    struct outq *q = outq_new(2, 1, 3);
    char line[OUTQ_LINE_MAX];

    for (int i = 0; i < 10; i++) {
        outq_msg(q, OUTQ_CHATTER, "PRIVMSG", "#a", "blow");
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", "reply");
    }
    outq_raw(q, "PING :x");
    outq_unpop(q, "PRIVMSG x :y");
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_int_eq(outq_pop(q, 0, line), 0);
    outq_clear(q);
    ck_assert_int_eq(outq_len(q), 0);
    ck_assert_double_eq(outq_wait(q, 0), -1);
    ck_assert_int_eq(outq_pop(q, 0, line), 0);
    /* A new connection starts with a full burst. */
    outq_raw(q, "NICK ringside");
    outq_raw(q, "USER ringside 0 * :Ringside");
    outq_raw(q, "JOIN #a");
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(line, "NICK ringside");
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_int_eq(outq_pop(q, 0, line), 0);
    /* Chatter after a clear starts afresh too (no stale note). */
    outq_clear(q);
    for (int i = 0; i < 3; i++)
        outq_msg(q, OUTQ_CHATTER, "PRIVMSG", "#a", "x");
    ck_assert_int_eq(outq_len(q), 3);
    outq_free(q);
}
END_TEST

START_TEST(test_wait_times)
{
    struct outq *q = outq_new(2, 4, 10);
    char line[OUTQ_LINE_MAX];

    ck_assert_double_eq(outq_wait(q, 0), -1);
    outq_raw(q, "A");
    outq_raw(q, "B");
    outq_raw(q, "C");
    ck_assert_double_eq(outq_wait(q, 50), 0);
    ck_assert_int_eq(outq_pop(q, 50, line), 1);
    ck_assert_int_eq(outq_pop(q, 50, line), 1);
    ck_assert_double_eq_tol(outq_wait(q, 50), 0.25, 1e-9);
    ck_assert_double_eq_tol(outq_wait(q, 50.1), 0.15, 1e-9);
    ck_assert_double_eq(outq_wait(q, 50.25), 0);
    /* A clock that goes back earns nothing and breaks nothing. */
    ck_assert_double_eq_tol(outq_wait(q, 40), 0.25, 1e-9);
    ck_assert_int_eq(outq_pop(q, 40, line), 0);
    ck_assert_int_eq(outq_pop(q, 50.25, line), 1);
    ck_assert_str_eq(line, "C");
    ck_assert_double_eq(outq_wait(q, 50.25), -1);
    outq_free(q);
}
END_TEST

Suite *outq_suite(void)
{
    Suite *s = suite_create("outq");
    TCase *tc = tcase_create("core");

    /* A guard against hangs, not a speed test: ten thousand lines through
     * the ASan build take seconds on a loaded machine. */
    tcase_set_timeout(tc, 60);

    tcase_add_test(tc, test_burst_then_rate);
    tcase_add_test(tc, test_rate_and_set_rate);
    tcase_add_test(tc, test_priorities);
    tcase_add_test(tc, test_chatter_not_starved);
    tcase_add_test(tc, test_long_reply_not_blocking);
    tcase_add_test(tc, test_fifo_per_target);
    tcase_add_test(tc, test_split_long_message);
    tcase_add_test(tc, test_split_no_spaces_utf8);
    tcase_add_test(tc, test_split_exact_fit);
    tcase_add_test(tc, test_sanitized);
    tcase_add_test(tc, test_raw_too_long);
    tcase_add_test(tc, test_chatter_dropped_with_note);
    tcase_add_test(tc, test_replies_never_dropped);
    tcase_add_test(tc, test_replies_beyond_total);
    tcase_add_test(tc, test_unpop);
    tcase_add_test(tc, test_clear);
    tcase_add_test(tc, test_wait_times);
    suite_add_tcase(s, tc);
    return s;
}
