/* check_outq.c - the paced output queue, driven by a fake clock: burst then
 * rate, the order of kinds, owners and targets, channel and throttle
 * pacing, splitting to 512-byte wire lines, sanitizing, capping bulk (never
 * replies or live lines), unpop, clear, delivery markers, a lost connection
 * and the wait times the event loop sleeps on. */
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
    struct outq *q = outq_new(4, 1);
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
    struct outq *q = outq_new(1, 2);
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
    struct outq *q = outq_new(100, 1);
    char all[4096];
    double now = 0;

    outq_msg(q, OUTQ_BULK, "PRIVMSG", "dave", NULL, "report line");
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "round 1: jab");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", "bob", "bob: challenge sent");
    outq_msg(q, OUTQ_ROUND, "NOTICE", "bob", NULL, "round 2: your orders");
    outq_raw(q, "PONG :server");
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#other", NULL, "round 2: hook");
    outq_msg(q, OUTQ_PROTOCOL, "NOTICE", "carol", NULL, "\x01VERSION ringside\x01");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "alice", NULL, "welcome");
    ck_assert_int_eq(outq_len(q), 8);
    ck_assert_int_eq(drain(q, &now, all, sizeof(all)), 8);
    /* Protocol; then live lines in the order said (a private one after
     * the channel lines said before it), at most OUTQ_LIVE_RUN (3) in a
     * row while replies wait; replies; bulk last. */
    ck_assert_str_eq(all, "PONG :server\n"
                          "NOTICE carol :\x01VERSION ringside\x01\n"
                          "PRIVMSG #ring :round 1: jab\n"
                          "NOTICE bob :round 2: your orders\n"
                          "PRIVMSG #other :round 2: hook\n"
                          "PRIVMSG alice :welcome\n" /* bob was just served */
                          "PRIVMSG #ring :bob: challenge sent\n"
                          "PRIVMSG dave :report line\n");
    outq_free(q);
}
END_TEST

/* Nobody is asked for the next round before the channel has the last one:
 * a private live line never passes a channel line said before it, even
 * when the channel must wait for its own bucket. */
START_TEST(test_prompt_after_commentary)
{
    struct outq *q = outq_new(5, 1);
    char all[4096], text[32];
    double now = 0;

    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "bob", NULL, "ack before");
    for (int i = 1; i <= 5; i++) {
        snprintf(text, sizeof(text), "round 1 line %d", i);
        outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, text);
    }
    outq_msg(q, OUTQ_ROUND, "PRIVMSG", "alice", NULL, "round 2 prompt");
    outq_msg(q, OUTQ_ROUND, "PRIVMSG", "bob", NULL, "round 2 prompt");
    drain(q, &now, all, sizeof(all));
    ck_assert_str_eq(all, "PRIVMSG bob :ack before\n" /* said first: goes first */
                          "PRIVMSG #ring :round 1 line 1\n"
                          "PRIVMSG #ring :round 1 line 2\n"
                          "PRIVMSG #ring :round 1 line 3\n"
                          "PRIVMSG #ring :round 1 line 4\n"
                          "PRIVMSG #ring :round 1 line 5\n"
                          "PRIVMSG alice :round 2 prompt\n"
                          "PRIVMSG bob :round 2 prompt\n");
    outq_free(q);
}
END_TEST

/* Five bouts share a channel: each bout's prompts go right after its own
 * round in the channel, ahead of the rounds other bouts said later, and
 * never before their own round, however the channel's bucket holds it. */
START_TEST(test_prompt_own_bout)
{
    struct outq *q = outq_new(4, 1);
    char all[8192], text[64], who[16];
    double now = 0;

    for (int b = 1; b <= 5; b++) {
        snprintf(text, sizeof(text), "[#%d] round 1", b);
        outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, text, b, 0);
        for (int p = 0; p < 2; p++) {
            snprintf(who, sizeof(who), "p%d%c", b, 'a' + p);
            snprintf(text, sizeof(text), "bout %d round 2 prompt", b);
            outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", who, NULL, text, b, 2);
        }
    }
    drain(q, &now, all, sizeof(all));
    const char *want = "PRIVMSG #ring :[#1] round 1\n"
                       "PRIVMSG p1a :bout 1 round 2 prompt\n"
                       "PRIVMSG p1b :bout 1 round 2 prompt\n"
                       "PRIVMSG #ring :[#2] round 1\n"
                       "PRIVMSG p2a :bout 2 round 2 prompt\n"
                       "PRIVMSG p2b :bout 2 round 2 prompt\n"
                       "PRIVMSG #ring :[#3] round 1\n"
                       "PRIVMSG p3a :bout 3 round 2 prompt\n"
                       "PRIVMSG p3b :bout 3 round 2 prompt\n"
                       "PRIVMSG #ring :[#4] round 1\n"
                       "PRIVMSG p4a :bout 4 round 2 prompt\n"
                       "PRIVMSG p4b :bout 4 round 2 prompt\n"
                       "PRIVMSG #ring :[#5] round 1\n"
                       "PRIVMSG p5a :bout 5 round 2 prompt\n"
                       "PRIVMSG p5b :bout 5 round 2 prompt\n";
    ck_assert_str_eq(all, want);

    /* A channel whose bucket is spent holds its bout's prompts, not the
     * prompts of a bout in another channel said after them. */
    outq_free(q);
    q = outq_new(10, 1);
    now = 0;
    for (int i = 1; i <= 4; i++) {
        snprintf(text, sizeof(text), "#a line %d", i);
        outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "#a", NULL, text, 7, 0);
    }
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "al", NULL, "bout 7 prompt", 7, 2);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "#b", NULL, "#b line", 8, 0);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "bo", NULL, "bout 8 prompt", 8, 2);
    drain(q, &now, all, sizeof(all));
    ck_assert_str_eq(all, "PRIVMSG #a :#a line 1\n"
                          "PRIVMSG #a :#a line 2\n"
                          "PRIVMSG #a :#a line 3\n"
                          "PRIVMSG #b :#b line\n" /* #a waits for its own bucket */
                          "PRIVMSG bo :bout 8 prompt\n"
                          "PRIVMSG #a :#a line 4\n"
                          "PRIVMSG al :bout 7 prompt\n");
    outq_free(q);
}
END_TEST

/* A round's last line waits until the bucket holds tokens for it and the
 * prompts it holds back, so that they go back to back; meanwhile nothing
 * else takes those tokens, not even a reply said before them. (The fake
 * clock: lines popped at one time went back to back.) */
START_TEST(test_round_and_prompts_together)
{
    struct outq *q = outq_new(4, 1);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    for (int i = 0; i < 4; i++)
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "dave", NULL, "spent");
    drain(q, &now, NULL, 0);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "erin", NULL, "erin's reply");
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "[#1] round 1", 1, 0);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "alice", NULL, "round 2 prompt", 1, 2);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "bob", NULL, "round 2 prompt", 1, 2);
    /* One token, then two: the reply does not take them. */
    now += 1;
    ck_assert_int_eq(outq_pop(q, now, line), 0);
    now += outq_wait(q, now);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :[#1] round 1");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG alice :round 2 prompt");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG bob :round 2 prompt");
    ck_assert_int_eq(outq_pop(q, now, line), 0);
    now += outq_wait(q, now);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG erin :erin's reply");
    outq_free(q);
}
END_TEST

/* No delivery marker comes between a round and its prompts (a server
 * takes only a few lines at once): it goes right after them. */
START_TEST(test_no_marker_inside_a_round)
{
    struct outq *q = outq_new(100, 100);
    char line[OUTQ_LINE_MAX], all[4096];
    double now = 0;

    outq_set_markers(q, 1);
    for (int i = 0; i < OUTQ_MARK_EVERY; i++)
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "dave", NULL, "reply");
    for (int i = 0; i < OUTQ_MARK_EVERY - 1; i++)
        ck_assert_int_eq(outq_pop(q, now, line), 1);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "[#1] round 1", 1, 0);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "alice", NULL, "round 2 prompt", 1, 2);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "bob", NULL, "round 2 prompt", 1, 2);
    all[0] = '\0';
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(outq_pop(q, now, line), 1);
        strcat(all, line);
        strcat(all, "\n");
    }
    ck_assert_str_eq(all, "PRIVMSG #ring :[#1] round 1\n"
                          "PRIVMSG alice :round 2 prompt\n"
                          "PRIVMSG bob :round 2 prompt\n"
                          "PING :rs1\n"
                          "PRIVMSG dave :reply\n");
    outq_free(q);
}
END_TEST

/* What holds a private line back: a channel line about its bout, or about
 * no bout, said before it; for a line about no bout, any channel line said
 * before it; and any line to the same player said before it, whatever its
 * kind (so the end of a bout never passes a prompt still waiting). */
START_TEST(test_prompt_held_back)
{
    struct outq *q = outq_new(1, 1);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "a challenge");
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "bob", NULL, "prompt", 3, 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :a challenge");
    now += 1;
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG bob :prompt");

    /* Another bout's commentary holds back an acknowledgement about no
     * bout, not bout 3's prompt. */
    now += 10;
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "[#4] round", 4, 0);
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "carol", NULL, "ack");
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "bob", NULL, "prompt 2", 3, 2);
    outq_target_hold(q, "#ring", now + 50);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG bob :prompt 2");
    now += 1;
    ck_assert_int_eq(outq_pop(q, now, line), 0);
    ck_assert_double_eq_tol(outq_wait(q, now), 49, 1e-9);
    outq_target_hold(q, "#ring", 0);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :[#4] round");
    now += 1;
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG carol :ack");

    /* Lines to one player keep their order across kinds: a live line (the
     * end of bout 3) never passes a prompt said before it, even while
     * other bouts' commentary keeps the channel busy. */
    now += 10;
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "bob", NULL, "prompt 3", 3, 3);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "[#3] round 3", 3, 0);
    outq_msg_about(q, OUTQ_LIVE, "PRIVMSG", "bob", NULL, "bout 3 is over", 3, 0);
    for (int i = 0; i < 5; i++)
        outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "[#5] round", 5, 0);
    char all[4096];
    drain(q, &now, all, sizeof(all));
    ck_assert_str_eq(all, "PRIVMSG bob :prompt 3\n"
                          "PRIVMSG #ring :[#3] round 3\n"
                          "PRIVMSG bob :bout 3 is over\n"
                          "PRIVMSG #ring :[#5] round\n"
                          "PRIVMSG #ring :[#5] round\n"
                          "PRIVMSG #ring :[#5] round\n"
                          "PRIVMSG #ring :[#5] round\n"
                          "PRIVMSG #ring :[#5] round\n");
    outq_free(q);
}
END_TEST

/* A prompt for a round already fought is dropped wherever it waits: the
 * live queue, a player's replies (his live lines demoted), the lines put
 * back; the bout's other lines, other bouts' and other rounds' stay. */
START_TEST(test_drop_stale)
{
    struct outq *q = outq_new(1, 1);
    char line[OUTQ_LINE_MAX], all[4096];
    double now = 0;

    ck_assert_int_eq(outq_drop(q, 18, 3), 0);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "bob", NULL, "bout 18 round 3 prompt", 18, 3);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "bob", NULL, "bout 18 round 3 reminder", 18, 3);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "bout 18 round 3", 18, 0);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "ann", NULL, "bout 19 round 3 prompt", 19, 3);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "ann", NULL, "bout 18 round 4 prompt", 18, 4);
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "bob", NULL, "round 3 orders stored");
    ck_assert_int_eq(outq_len(q), 6);
    unsigned long mark = outq_mark(q);
    ck_assert_int_eq(outq_drop(q, 18, 0), 0);
    ck_assert_int_eq(outq_drop(q, 0, 3), 0);
    ck_assert_int_eq(outq_drop(q, 18, 3), 2);
    ck_assert_int_eq(outq_len(q), 4);
    outq_msg_about(q, OUTQ_LIVE, "PRIVMSG", "bob", NULL, "bout 18 is over", 18, 0);
    drain(q, &now, all, sizeof(all));
    ck_assert_str_eq(all, "PRIVMSG #ring :bout 18 round 3\n"
                          "PRIVMSG ann :bout 19 round 3 prompt\n"
                          "PRIVMSG ann :bout 18 round 4 prompt\n"
                          "PRIVMSG bob :round 3 orders stored\n"
                          "PRIVMSG bob :bout 18 is over\n");
    ck_assert(outq_delivered(q, mark));

    /* Demoted to a reply (he was served a lot lately), or put back after
     * a failed write: dropped all the same. */
    outq_free(q);
    q = outq_new(100, 100);
    for (int i = 0; i < OUTQ_LIVE_OWNER_MAX + 2; i++) {
        outq_msg(q, OUTQ_LIVE, "PRIVMSG", "bob", NULL, "x");
        now += 0.01;
        REQUIRE(outq_pop(q, now, line));
    }
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "bob", NULL, "demoted prompt", 20, 1);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "ann", NULL, "ann's prompt", 20, 1);
    now += outq_wait(q, now);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG ann :ann's prompt");
    outq_unpop(q);
    ck_assert_int_eq(outq_len(q), 2);
    ck_assert_int_eq(outq_drop(q, 20, 1), 2);
    ck_assert_int_eq(outq_len(q), 0);
    ck_assert_double_eq(outq_wait(q, now), -1);
    outq_free(q);
}
END_TEST

/* However long the commentary, replies get a turn. */
START_TEST(test_replies_not_starved)
{
    struct outq *q = outq_new(1000, 1000);
    char line[OUTQ_LINE_MAX], text[32];
    double now = 0;

    for (int i = 0; i < 100; i++) {
        snprintf(text, sizeof(text), "blow %d", i);
        outq_msg(q, OUTQ_LIVE, "PRIVMSG", i % 2 ? "#a" : "#b", NULL, text);
    }
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, "version 1");
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "carol", NULL, "help line");
    int bob_at = -1, carol_at = -1;
    for (int k = 0; k < 102; k++) {
        now += 1;
        ck_assert_int_eq(outq_pop(q, now, line), 1);
        if (strstr(line, "bob :"))
            bob_at = k;
        if (strstr(line, "carol :"))
            carol_at = k;
    }
    ck_assert_int_eq(bob_at, OUTQ_LIVE_RUN);
    ck_assert_int_eq(carol_at, 101); /* bulk waits for the live lines */
    outq_free(q);
}
END_TEST

/* A long answer to one player (a report) or a flooder's replies do not
 * hold up anybody else: the owner served least lately goes first. */
START_TEST(test_owners_take_turns)
{
    struct outq *q = outq_new(1, 1);
    char line[OUTQ_LINE_MAX], text[64];
    double now = 0;
    int bob = 0;

    for (int i = 0; i < 50; i++) {
        snprintf(text, sizeof(text), "report line %d", i);
        outq_msg(q, OUTQ_BULK, "PRIVMSG", "bob", NULL, text);
    }
    for (int i = 0; i < 10; i++)
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "mallory", NULL, "unknown command");
    /* Ten seconds later a bystander asks in the channel. */
    for (int k = 0; k < 10; k++) {
        now += 1;
        ck_assert_int_eq(outq_pop(q, now, line), 1);
        if (strncmp(line, "PRIVMSG bob :", 13) == 0) {
            snprintf(text, sizeof(text), "PRIVMSG bob :report line %d", bob++);
            ck_assert_str_eq(line, text);
        }
    }
    ck_assert_int_gt(bob, 0);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", "carol", "carol: Ringside 1.0");
    now += 1;
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :carol: Ringside 1.0");
    /* bob's lines keep their order, whatever came between. */
    while (outq_len(q) > 0) {
        now += outq_wait(q, now);
        REQUIRE(outq_pop(q, now, line));
        if (strncmp(line, "PRIVMSG bob :", 13) == 0) {
            snprintf(text, sizeof(text), "PRIVMSG bob :report line %d", bob++);
            ck_assert_str_eq(line, text);
        }
    }
    ck_assert_int_eq(bob, 50);
    outq_free(q);
}
END_TEST

/* An owner served a lot lately gets his replies as bulk, and his live
 * lines as replies. */
START_TEST(test_flooder_demoted)
{
    struct outq *q = outq_new(100, 100);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    for (int i = 0; i < OUTQ_REPLY_OWNER_MAX + 5; i++) {
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "mallory", NULL, "x");
        now += 0.01;
        ck_assert_int_eq(outq_pop(q, now, line), 1);
    }
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "mallory", NULL, "now bulk");
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "dave", NULL, "dave's help");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "erin", NULL, "erin's reply");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG erin :erin's reply");
    now += 2; /* bulk waits for a full bucket */
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG dave :dave's help"); /* served less */
    now += 2;
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG mallory :now bulk");
    /* His count wears off (the queue's time is the last it was given). */
    now += 10 * OUTQ_SERVED_TAU;
    ck_assert_double_eq(outq_wait(q, now), -1);
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "dave", NULL, "more help");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "mallory", NULL, "a reply again");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG mallory :a reply again");
    outq_free(q);
}
END_TEST

/* A nick within what the operator lets him ask ([flood] commands) is
 * answered as a reply however much he asks; the default allowance (12
 * commands a minute) keeps the limit of OUTQ_REPLY_OWNER_MAX lines. */
START_TEST(test_allowance)
{
    struct outq *q = outq_new(100, 100);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    outq_set_allowance(q, 100, 1); /* 3,000 lines in OUTQ_SERVED_TAU */
    for (int i = 0; i < 10 * OUTQ_REPLY_OWNER_MAX; i++) {
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "peer", NULL, "x");
        now += 0.01;
        ck_assert_int_eq(outq_pop(q, now, line), 1);
    }
    /* The bucket is not full: a reply goes, bulk would wait. */
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "peer", NULL, "still a reply");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG peer :still a reply");
    outq_set_allowance(q, 12, 60); /* the default: 6 lines in OUTQ_SERVED_TAU */
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "peer", NULL, "bulk now");
    ck_assert_int_eq(outq_pop(q, now, line), 0);
    now += 2; /* bulk waits for a full bucket */
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG peer :bulk now");
    outq_free(q);
}
END_TEST

/* The bot ignores a flooder: his replies waiting go behind everybody's. */
START_TEST(test_demoted_flooder)
{
    struct outq *q = outq_new(1, 1);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    for (int i = 0; i < 5; i++)
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "mallory", NULL, "answer");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    outq_demote(q, "mallory", 60);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "mallory", NULL, "too many commands");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", "carol", "carol: Ringside");
    now += 1;
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :carol: Ringside");
    int left = 0;
    while (outq_len(q) > 0) {
        now += outq_wait(q, now);
        REQUIRE(outq_pop(q, now, line));
        left++;
    }
    ck_assert_int_eq(left, 5);
    ck_assert_str_eq(line, "PRIVMSG mallory :too many commands");
    outq_free(q);
}
END_TEST

/* A report streams at the full rate, but the burst stays in reserve: a
 * round said meanwhile goes at once. */
START_TEST(test_bulk_keeps_burst)
{
    struct outq *q = outq_new(4, 1);
    char line[OUTQ_LINE_MAX], text[32];
    double now = 0;
    int sent = 0;

    for (int i = 0; i < 100; i++) {
        snprintf(text, sizeof(text), "report %d", i);
        outq_msg(q, OUTQ_BULK, "PRIVMSG", "dave", NULL, text);
    }
    while (now < 30) {
        now += outq_wait(q, now);
        REQUIRE(outq_pop(q, now, line));
        sent++;
    }
    ck_assert_int_ge(sent, 29); /* about a line a second */
    for (int i = 0; i < 3; i++)
        outq_msg(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "round 3");
    outq_msg(q, OUTQ_ROUND, "PRIVMSG", "alice", NULL, "round 4: your orders");
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(outq_pop(q, now, line), 1);
        ck_assert_ptr_null(strstr(line, "report"));
    }
    now += 1;
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG alice :round 4: your orders");
    outq_free(q);
}
END_TEST

/* Lines to one target keep their order within a kind, however they are
 * interleaved with lines to others. */
START_TEST(test_fifo_per_target)
{
    struct outq *q = outq_new(3, 10);
    char line[OUTQ_LINE_MAX], text[32];
    const char *targets[] = {"#a", "#b", "bob", "#c", "alice"};
    static const enum outq_kind kinds[] = {OUTQ_LIVE, OUTQ_REPLY, OUTQ_BULK};
    int next[3][5] = {{0}}, seen = 0;
    double now = 0;

    for (int i = 0; i < 500; i++) {
        snprintf(text, sizeof(text), "%d", i);
        outq_msg(q, kinds[i % 3], "PRIVMSG", targets[(i * 7) % 5], NULL, text);
    }
    while (outq_len(q) > 0) {
        now += outq_wait(q, now);
        REQUIRE(outq_pop(q, now, line));
        char target[16];
        int i;
        REQUIRE(sscanf(line, "PRIVMSG %15s :%d", target, &i) == 2);
        int t = (i * 7) % 5;
        REQUIRE(strcmp(target, targets[t]) == 0);
        /* Owners over their share are demoted, never promoted: compare
         * within the kind the line was said in. */
        REQUIRE(i >= next[i % 3][t]);
        next[i % 3][t] = i + 1;
        seen++;
    }
    ck_assert_int_eq(seen, 500);
    outq_free(q);
}
END_TEST

/* At most OUTQ_CHANNEL_BURST lines back to back to one channel: the rest
 * of a channel's flood budget is left to its members. */
START_TEST(test_channel_burst)
{
    struct outq *q = outq_new(5, 1);
    char line[OUTQ_LINE_MAX];

    for (int i = 0; i < 6; i++)
        outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "commentary");
    for (int i = 0; i < OUTQ_CHANNEL_BURST; i++)
        ck_assert_int_eq(outq_pop(q, 10, line), 1);
    ck_assert_int_eq(outq_pop(q, 10, line), 0);
    ck_assert_double_eq_tol(outq_wait(q, 10), 1.0, 1e-9);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, "private");
    ck_assert_double_eq(outq_wait(q, 10), 0);
    ck_assert_int_eq(outq_pop(q, 10, line), 1);
    ck_assert_str_eq(line, "PRIVMSG bob :private");
    ck_assert_int_eq(outq_pop(q, 11, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :commentary");
    outq_free(q);
}
END_TEST

/* A throttle notice naming a channel shows the server counts a channel's
 * members together: from then on every channel (not only the one named)
 * gets at most 2 lines back to back and 1 a second, whatever the bot's own
 * pacing, so at most 4 of its lines fall in any 2-second window; private
 * lines keep the whole burst. A notice naming a nick changes nothing. */
START_TEST(test_shared_channel_half)
{
    struct outq *q = outq_new(20, 5);
    char line[OUTQ_LINE_MAX];

    outq_throttled(q, "bob", 0);
    for (int i = 0; i < 6; i++)
        outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#b", NULL, "before");
    for (int i = 0; i < OUTQ_CHANNEL_BURST; i++)
        ck_assert_int_eq(outq_pop(q, 10, line), 1);
    ck_assert_int_eq(outq_pop(q, 10, line), 0);
    outq_clear(q);

    log_begin();
    outq_throttled(q, "#a", 100);
    ck_assert_ptr_nonnull(strstr(log_end(), "counts a channel's members together"));
    for (int i = 0; i < 12; i++)
        outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#b", NULL, "commentary");
    for (int i = 0; i < 6; i++)
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "carol", NULL, "private");
    int chan = 0, priv = 0;
    for (double now = 200; now <= 202 + 1e-9; now += 0.25)
        while (outq_pop(q, now, line) == 1)
            *(strncmp(line, "PRIVMSG #b ", 11) == 0 ? &chan : &priv) += 1;
    ck_assert_int_eq(chan, 4); /* 2 at once, then 1 a second: t = 200, 200, 201, 202 */
    ck_assert_int_eq(priv, 6);
    outq_free(q);
}
END_TEST

/* Delivery markers by count go when they hold nothing back: with a token
 * to spare after every OUTQ_MARK_REPLIES replies (8 lines when one of them
 * is awaited: test_markers_confirm); while the bucket runs at its rate,
 * only after 48 lines (a server counts the marker as a line, and it costs
 * a token). */
START_TEST(test_marker_when_free)
{
    for (int slow = 0; slow < 2; slow++) {
        struct outq *q = outq_new(4, 1);
        char line[OUTQ_LINE_MAX];
        double now = 0;
        int lines = 0, first = -1;

        outq_set_markers(q, 1);
        for (int i = 0; i < 60; i++) { /* 10 owners: none of them asks too much */
            char nick[8];
            snprintf(nick, sizeof(nick), "nick%d", i % 10);
            outq_msg(q, OUTQ_REPLY, "PRIVMSG", nick, NULL, "answer");
        }
        while (first < 0 && lines < 60) {
            if (outq_pop(q, now, line) != 1) {
                now += slow ? 3 : 1;
                continue;
            }
            if (strncmp(line, "PING :rs", 8) == 0)
                first = lines;
            else
                lines++;
        }
        ck_assert_int_eq(first, (slow ? OUTQ_MARK_REPLIES : 48));
        outq_free(q);
    }
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
        struct outq *q = outq_new(4, 1);
        size_t prefix = prefixes[p] ? prefixes[p] : DEFAULT_PREFIX;
        if (prefixes[p])
            outq_set_prefix_len(q, prefixes[p]);
        outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ringside", NULL, text);
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
    struct outq *q = outq_new(4, 1);
    char text[2010], all[8192], joined[2100] = "";
    double now = 0;
    int full = 0;

    text[0] = '\0';
    while (strlen(text) < 2000)
        strcat(text, "\xe2\x82\xac"
                     "a\xc3\xa9");
    outq_msg(q, OUTQ_REPLY, "NOTICE", "somebody", NULL, text);
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
    struct outq *q = outq_new(10, 1);
    char text[600], line[OUTQ_LINE_MAX];
    size_t room = 512 - WIRE(40, "PRIVMSG #r :");

    outq_set_prefix_len(q, 40);
    memset(text, 'x', room);
    text[room] = '\0';
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#r", NULL, text);
    ck_assert_int_eq(outq_len(q), 1);
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_uint_eq(WIRE(40, line), 512);
    text[room] = 'y';
    text[room + 1] = '\0';
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#r", NULL, text);
    ck_assert_int_eq(outq_len(q), 2);
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_uint_eq(WIRE(40, line), 512);
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #r :y");
    /* A prefix that leaves no room for text refuses the message. */
    outq_set_prefix_len(q, 490);
    log_begin();
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#r", NULL, "hello");
    ck_assert_ptr_nonnull(strstr(log_end(), "outq: no room for text to #r"));
    ck_assert_int_eq(outq_len(q), 0);
    outq_free(q);
}
END_TEST

START_TEST(test_sanitized)
{
    struct outq *q = outq_new(10, 1);
    char all[2048];
    double now = 0;

    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, "hi\r\nQUIT :pwned");
    outq_raw(q, "PRIVMSG #c :one\r\nQUIT\n");
    outq_raw(q, "NOTICE x :a\rb");
    log_begin();
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "", NULL, "empty target");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob\r\nQUIT", NULL, "bad target");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob x", NULL, "target with a space");
    outq_msg(q, OUTQ_REPLY, "PRIV MSG", "bob", NULL, "bad command");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, ""); /* nothing to send */
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, NULL);
    const char *log = log_end();
    ck_assert_int_eq(count(log, "outq: refused a message"), 4);
    ck_assert_int_eq(count(log, "\n"), 4);
    ck_assert_ptr_nonnull(strstr(log, "to \"bob\\r\\nQUIT\"")); /* escaped in the log */
    ck_assert_int_eq(outq_len(q), 3);
    drain(q, &now, all, sizeof(all));
    ck_assert_str_eq(all, "PRIVMSG #c :one  QUIT \n"
                          "NOTICE x :a b\n"
                          "PRIVMSG bob :hi  QUIT :pwned\n");
    outq_free(q);
}
END_TEST

START_TEST(test_raw_too_long)
{
    struct outq *q = outq_new(10, 1);
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

/* A flood of bulk for one owner: capped, with one note; the queue stays
 * bounded, and replies and live lines all come through in order. */
START_TEST(test_bulk_capped)
{
    struct outq *q = outq_new(4, 1);
    char line[OUTQ_LINE_MAX], text[64];
    int notes = 0, bulk = 0, replies = 0, live = 0;
    double now = 0;

    log_begin();
    for (int i = 0; i < 3000; i++) {
        snprintf(text, sizeof(text), "bulk %d", i);
        outq_msg(q, OUTQ_BULK, "PRIVMSG", "mallory", NULL, text);
        if (i % 10 == 0) {
            snprintf(text, sizeof(text), "reply %d", i / 10);
            outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, text);
            snprintf(text, sizeof(text), "live %d", i / 10);
            outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, text);
        }
    }
    ck_assert_ptr_nonnull(strstr(log_end(), "dropping the rest of an answer"));
    ck_assert_int_eq(outq_len(q), OUTQ_BULK_OWNER_MAX + 1 + 300 + 300);
    while (outq_len(q) > 0) {
        now += outq_wait(q, now);
        REQUIRE(outq_pop(q, now, line));
        int k;
        if (strstr(line, "the rest is cut"))
            notes++;
        else if (sscanf(line, "PRIVMSG mallory :bulk %d", &k) == 1)
            REQUIRE(k == bulk++);
        else if (sscanf(line, "PRIVMSG bob :reply %d", &k) == 1)
            REQUIRE(k == replies++);
        else if (sscanf(line, "PRIVMSG #ring :live %d", &k) == 1)
            REQUIRE(k == live++);
    }
    ck_assert_int_eq(notes, 1);
    ck_assert_int_eq(bulk, OUTQ_BULK_OWNER_MAX);
    ck_assert_int_eq(replies, 300);
    ck_assert_int_eq(live, 300);
    /* Once his queue is empty he may ask again. */
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "mallory", NULL, "bulk again");
    ck_assert_int_eq(outq_len(q), 1);
    outq_free(q);
}
END_TEST

START_TEST(test_unpop)
{
    struct outq *q = outq_new(1, 1);
    char line[OUTQ_LINE_MAX];

    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#a", NULL, "commentary");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, "first");
    outq_raw(q, "PING :p");
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(line, "PING :p");
    outq_unpop(q);
    ck_assert_int_eq(outq_len(q), 3);
    /* The token went on the failed attempt: the retry waits for the next. */
    ck_assert_int_eq(outq_pop(q, 0, line), 0);
    ck_assert_double_eq_tol(outq_wait(q, 0), 1, 1e-9);
    ck_assert_int_eq(outq_pop(q, 1, line), 1);
    ck_assert_str_eq(line, "PING :p");
    ck_assert_int_eq(outq_pop(q, 2, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #a :commentary");
    /* A line put back goes before protocol lines. */
    ck_assert_int_eq(outq_pop(q, 3, line), 1);
    ck_assert_str_eq(line, "PRIVMSG bob :first");
    outq_unpop(q);
    outq_unpop(q); /* nothing more to put back */
    outq_raw(q, "PONG :x");
    ck_assert_int_eq(outq_pop(q, 4, line), 1);
    ck_assert_str_eq(line, "PRIVMSG bob :first");
    ck_assert_int_eq(outq_pop(q, 5, line), 1);
    ck_assert_str_eq(line, "PONG :x");
    outq_free(q);
}
END_TEST

START_TEST(test_clear)
{
    struct outq *q = outq_new(2, 1);
    char line[OUTQ_LINE_MAX];

    for (int i = 0; i < 10; i++) {
        outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#a", NULL, "blow");
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, "reply");
    }
    outq_raw(q, "PING :x");
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
    outq_free(q);
}
END_TEST

/* With markers: lines are kept until the server's PONG; marks tell what
 * was delivered. */
START_TEST(test_markers_confirm)
{
    struct outq *q = outq_new(100, 100);
    char all[8192], text[32];
    double now = 0;

    outq_set_markers(q, 1);
    for (int i = 0; i < 10; i++) { /* the first one live: the game waits for it */
        snprintf(text, sizeof(text), "line %d", i);
        outq_msg(q, i ? OUTQ_REPLY : OUTQ_LIVE, "PRIVMSG", "bob", NULL, text);
    }
    unsigned long mark = outq_mark(q);
    ck_assert(!outq_delivered(q, mark));
    drain(q, &now, all, sizeof(all));
    /* A marker after OUTQ_MARK_EVERY lines, and one when the queue ran dry. */
    ck_assert_int_eq(count(all, "PING :rs1\n"), 1);
    ck_assert_int_eq(count(all, "PING :rs2\n"), 1);
    ck_assert_ptr_nonnull(strstr(all, "PRIVMSG bob :line 7\nPING :rs1\n"));
    ck_assert(!outq_delivered(q, mark));
    ck_assert_int_eq(outq_pong(q, "rs1"), 1);
    ck_assert(!outq_delivered(q, mark));
    ck_assert_int_eq(outq_pong(q, "ringside"), 0); /* not ours */
    ck_assert_int_eq(outq_pong(q, "rs99"), 0);     /* never sent */
    ck_assert_int_eq(outq_pong(q, "rs2"), 1);
    ck_assert(outq_delivered(q, mark));
    ck_assert_int_eq(outq_len(q), 0);
    outq_free(q);
}
END_TEST

/* The marker of a queue run dry after replies only waits for a quiet
 * spell (2 s) and wakes the loop only 30 s after the last line: a steady
 * run of commands costs a marker every OUTQ_MARK_REPLIES replies, not one
 * after each (nor one every OUTQ_MARK_EVERY, as lines awaited do). After a live line (the game
 * waits for its confirmation) it goes with the next token. */
START_TEST(test_marker_lazy)
{
    struct outq *q = outq_new(100, 100);
    char line[OUTQ_LINE_MAX], text[32];
    double now = 0;

    outq_set_markers(q, 1);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, "version");
    unsigned long mark = outq_mark(q);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 0);
    ck_assert_int_eq(outq_len(q), 1); /* the marker, later */
    ck_assert_double_eq_tol(outq_wait(q, now), 30.0, 1e-6);
    ck_assert_int_eq(outq_pop(q, now + 1.9, line), 0);
    /* More replies within the quiet spell: the marker waits on. */
    for (int i = 0; i < OUTQ_MARK_REPLIES - 2; i++) {
        now += 1;
        snprintf(text, sizeof(text), "reply %d", i);
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, text);
        ck_assert_int_eq(outq_pop(q, now, line), 1);
        ck_assert_str_eq(line + 13, text);
        ck_assert_int_eq(outq_pop(q, now, line), 0);
    }
    /* The 32nd line brings it by count. */
    now += 1;
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, "last");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PING :rs1");
    ck_assert_int_eq(outq_pong(q, "rs1"), 1);
    ck_assert(outq_delivered(q, mark));
    ck_assert_double_eq(outq_wait(q, now), -1);
    /* One reply, then a quiet spell: any pop 2 s on sends it. */
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "carol", NULL, "alone"); /* bob asked too much */
    mark = outq_mark(q);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now + 2, line), 1);
    ck_assert_str_eq(line, "PING :rs2");
    ck_assert_int_eq(outq_pong(q, "rs2"), 1);
    ck_assert(outq_delivered(q, mark));
    /* A live line a clock waits for after a reply: the marker goes at
     * once. */
    now += 10;
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "dave", NULL, "a reply");
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "round 1");
    mark = outq_mark(q);
    outq_await(q, mark);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_double_eq(outq_wait(q, now), 0);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PING :rs3");
    ck_assert_int_eq(outq_pong(q, "rs3"), 1);
    ck_assert(outq_delivered(q, mark));
    /* A lost connection in the quiet spell: the reply goes again. */
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "dave", NULL, "unconfirmed");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    now += 1;
    ck_assert_int_eq(outq_pop(q, now, line), 0);
    log_begin();
    outq_disconnected(q);
    ck_assert_ptr_nonnull(strstr(log_end(), "1 lines not confirmed"));
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG dave :unconfirmed");
    outq_free(q);
}
END_TEST

/* Whose reply goes next: an owner's replies count from when they are
 * queued. A bystander answered once a few seconds ago asks again just as
 * four flooders, never served yet, ask three things each: his reply goes
 * with the next token, not after each flooder's first. Owners with as
 * much waiting take turns. */
START_TEST(test_reply_asked_first)
{
    struct outq *q = outq_new(4, 1);
    char line[OUTQ_LINE_MAX], who[16];
    double now = 0;

    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", "by", "by: Ringside 1");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    now = 5;
    for (int i = 0; i < 3; i++)
        for (int f = 1; f <= 4; f++) {
            snprintf(who, sizeof(who), "flood%d", f);
            outq_msg(q, OUTQ_REPLY, "PRIVMSG", who, NULL, "an answer");
        }
    for (int i = 0; i < 4; i++) /* the burst */
        ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 0);
    now += 0.5;
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", "by", "by: Ringside 2");
    now += 0.5;
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :by: Ringside 2");
    outq_free(q);
    /* Two owners with three lines each: in turns. */
    q = outq_new(1, 1);
    now = 0;
    for (int i = 0; i < 3; i++) {
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", NULL, "to the channel");
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "gm", NULL, "to gm");
    }
    char all[1024];
    drain(q, &now, all, sizeof(all));
    ck_assert_str_eq(all, "PRIVMSG #ring :to the channel\nPRIVMSG gm :to gm\n"
                          "PRIVMSG #ring :to the channel\nPRIVMSG gm :to gm\n"
                          "PRIVMSG #ring :to the channel\nPRIVMSG gm :to gm\n");
    outq_free(q);
}
END_TEST

/* A round (a channel line about bout 7) and its two prompts (step 2): the
 * queue runs dry, and its marker waits OUTQ_MARK_ANSWER (3 s) for answers.
 * Each player's orders confirm what was sent up to the round (which may
 * have told him as well as his prompt did) and settle his own prompt: once
 * both answered, nothing is left to confirm and no marker goes. */
START_TEST(test_answered_confirms)
{
    struct outq *q = outq_new(4, 1);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    outq_set_markers(q, 1);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "carol", NULL, "a reply before");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "Round 1: ...", 7, 0);
    unsigned long round = outq_mark(q);
    outq_ask_about(q, OUTQ_ROUND, "PRIVMSG", "ann", NULL, "Bout #7, round 2", 7, 2);
    unsigned long ann = outq_mark(q);
    outq_ask_about(q, OUTQ_ROUND, "PRIVMSG", "bob", NULL, "Bout #7, round 2", 7, 2);
    unsigned long bob = outq_mark(q);
    outq_await(q, bob); /* the round's clock */
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG bob :Bout #7, round 2");
    /* The marker waits for answers, and would wake the loop at 3 s. */
    ck_assert_int_eq(outq_pop(q, now + 2.9, line), 0);
    ck_assert_double_eq_tol(outq_wait(q, now), 3.0, 1e-6);
    ck_assert(!outq_delivered(q, round));
    /* Not an answer to anything still unconfirmed: nothing learnt. */
    ck_assert_int_eq(outq_answered(q, "ann", 7, 3), 0);
    ck_assert_int_eq(outq_answered(q, "ann", 8, 2), 0);
    ck_assert_int_eq(outq_answered(q, "dave", 7, 2), 0);
    ck_assert_int_eq(outq_answered(q, "ann", 7, 0), 0);
    /* ann answers: the reply and the round are confirmed, her prompt
     * settled; bob's prompt still waits. */
    ck_assert_int_eq(outq_answered(q, "ann", 7, 2), 3);
    ck_assert(outq_delivered(q, round));
    ck_assert(outq_delivered(q, ann)); /* hers is settled */
    ck_assert(!outq_delivered(q, bob));
    ck_assert_int_eq(outq_answered(q, "ann", 7, 2), 0); /* twice: nothing more */
    ck_assert_int_eq(outq_answered(q, "bob", 7, 2), 1);
    ck_assert(outq_delivered(q, bob));
    ck_assert_int_eq(outq_len(q), 0);
    ck_assert_double_eq(outq_wait(q, now), -1);
    ck_assert_int_eq(outq_pop(q, now + 10, line), 0);
    /* Unanswered, the marker goes 3 s after the last line. */
    now = 20;
    outq_ask_about(q, OUTQ_ROUND, "PRIVMSG", "ann", NULL, "Bout #7, round 3", 7, 3);
    unsigned long late = outq_mark(q);
    outq_await(q, late);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now + 2.9, line), 0);
    ck_assert_int_eq(outq_pop(q, now + 3, line), 1);
    ck_assert_str_eq(line, "PING :rs1");
    ck_assert_int_eq(outq_pong(q, "rs1"), 1);
    ck_assert(outq_delivered(q, late));
    /* A line without a step awaits no answer: with a clock waiting for
     * it, its marker goes with the next token, as before. */
    now = 40;
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "Bout #7 goes on", 7, 0);
    outq_await(q, outq_mark(q));
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PING :rs2");
    outq_free(q);
}
END_TEST

/* Only a line said with outq_ask_about asks. A line about a round that
 * asks nothing (a duel's corner line, an acknowledgement: outq_msg_about
 * with a step) does not hold the marker of a queue run dry
 * OUTQ_MARK_ANSWER seconds for an answer that never comes (a duel's next
 * round waits for that delivery), nor is it what an answer answers. */
START_TEST(test_step_asks_nothing)
{
    struct outq *q = outq_new(4, 1);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    outq_set_markers(q, 1);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "Round 1: ...", 7, 0);
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "ann", NULL, "Bout #7: your corner", 7, 2);
    unsigned long corner = outq_mark(q);
    outq_await(q, corner); /* the duel's next round waits for it */
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG ann :Bout #7: your corner");
    /* The marker goes with the next token, not 3 s later. */
    ck_assert_double_eq_tol(outq_wait(q, now + 1), 0, 1e-6);
    ck_assert_int_eq(outq_pop(q, now + 1, line), 1);
    ck_assert_str_eq(line, "PING :rs1");
    /* An answer for that step finds no question: nothing confirmed. */
    ck_assert_int_eq(outq_answered(q, "ann", 7, 2), 0);
    ck_assert(!outq_delivered(q, corner));
    ck_assert_int_eq(outq_pong(q, "rs1"), 1);
    ck_assert(outq_delivered(q, corner));
    /* An acknowledgement (a step, to the player) after his prompt was
     * answered: his changed orders prove nothing about it. */
    now = 10;
    outq_ask_about(q, OUTQ_ROUND, "PRIVMSG", "ann", NULL, "Bout #7, round 3", 7, 3);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_answered(q, "ann", 7, 3), 1);
    outq_msg_about(q, OUTQ_LIVE, "PRIVMSG", "ann", NULL, "round 3 orders stored", 7, 3);
    unsigned long ack = outq_mark(q);
    outq_await(q, ack);
    ck_assert_int_eq(outq_pop(q, now + 1, line), 1);
    ck_assert_int_eq(outq_answered(q, "ann", 7, 3), 0);
    ck_assert(!outq_delivered(q, ack));
    ck_assert_int_eq(outq_pop(q, now + 2, line), 1);
    ck_assert_str_eq(line, "PING :rs2");
    outq_free(q);
}
END_TEST

/* Live lines no clock waits for (outq_await: the end of a run of bouts,
 * whose commentary is only recorded as said) have an idle marker: it
 * rides on no turn of the loop, goes as the keepalive (outq_keepalive),
 * or OUTQ_MARK_IDLE (120 s) after the last line sent; a clock that comes
 * to wait for them sends it at once. */
START_TEST(test_marker_idle)
{
    struct outq *q = outq_new(4, 1);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    outq_set_markers(q, 1);
    ck_assert_int_eq(outq_keepalive(q), 0); /* nothing to confirm: its own PING */
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "Round 4: the end", 7, 0);
    outq_msg_about(q, OUTQ_LIVE, "PRIVMSG", "ann", NULL, "Bout #7 is over", 7, 0);
    unsigned long end = outq_mark(q);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_len(q), 1); /* a marker pending */
    ck_assert_double_eq_tol(outq_wait(q, now + 1), 119, 1e-6);
    ck_assert_int_eq(outq_pop(q, now + 2, line), 0);
    ck_assert_int_eq(outq_pop(q, now + 60, line), 0);
    ck_assert(!outq_delivered(q, end));
    /* The keepalive is due: the marker is it. */
    ck_assert_int_eq(outq_keepalive(q), 1);
    ck_assert_double_eq(outq_wait(q, now + 61), 0);
    ck_assert_int_eq(outq_pop(q, now + 61, line), 1);
    ck_assert_str_eq(line, "PING :rs1");
    ck_assert_int_eq(outq_pop(q, now + 61, line), 0);
    ck_assert_int_eq(outq_pong(q, "rs1"), 1);
    ck_assert(outq_delivered(q, end));
    ck_assert_int_eq(outq_keepalive(q), 0);
    /* A server that never falls silent: 120 s after the last line. */
    now = 100;
    outq_msg_about(q, OUTQ_LIVE, "PRIVMSG", "ann", NULL, "round 3 orders stored", 8, 3);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now + 119, line), 0);
    ck_assert_int_eq(outq_pop(q, now + 120, line), 1);
    ck_assert_str_eq(line, "PING :rs2");
    /* A clock comes to wait for lines already sent: the marker goes. */
    now = 300;
    outq_msg_about(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "Bout #9 goes on", 9, 0);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 0);
    outq_await(q, outq_mark(q));
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PING :rs3");
    outq_free(q);
}
END_TEST

/* Without a channel line about the bout before it, the prompt itself is
 * what told him: everything up to it is confirmed (and what came after
 * it is not). A bout's start call in the channel asks for round 1: an
 * answer confirms up to it. An unmatched throttle notice stops it all:
 * only a marker says which line the server dropped. */
START_TEST(test_answered_bounds)
{
    struct outq *q = outq_new(10, 1);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    outq_set_markers(q, 1);
    outq_ask_about(q, OUTQ_ROUND, "PRIVMSG", "ann", NULL, "Bout #7, round 2", 7, 2);
    unsigned long ann = outq_mark(q);
    outq_msg_about(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "chatter about 9", 9, 0);
    unsigned long after = outq_mark(q);
    outq_await(q, after);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_answered(q, "ann", 7, 2), 1);
    ck_assert(outq_delivered(q, ann));
    ck_assert(!outq_delivered(q, after));
    /* The rest still wants its marker, once the answer wait is over. */
    ck_assert_int_eq(outq_pop(q, now + 1, line), 1);
    ck_assert_str_eq(line, "PING :rs1");
    ck_assert_int_eq(outq_pong(q, "rs1"), 1);
    /* The start call. */
    outq_ask_about(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "Bout #9 is on. Round 1", 9, 1);
    unsigned long call = outq_mark(q);
    outq_ask_about(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "Bout #10 is on. Round 1", 10, 1);
    ck_assert_int_eq(outq_pop(q, now + 2, line), 1);
    ck_assert_int_eq(outq_pop(q, now + 2, line), 1);
    ck_assert_int_eq(outq_answered(q, "bob", 9, 1), 1);
    ck_assert(outq_delivered(q, call));
    /* A notice not yet matched to a line. */
    log_begin();
    outq_throttled(q, "#ring", now + 2);
    log_end();
    ck_assert_int_eq(outq_answered(q, "carl", 10, 1), 0);
    ck_assert_int_eq(outq_pop(q, now + 2, line), 1);
    ck_assert_str_eq(line, "PING :rs2");
    log_begin();
    ck_assert_int_eq(outq_pong(q, "rs2"), 1);
    ck_assert_ptr_nonnull(strstr(log_end(), "sending again"));
    /* Without markers (before registration) there is nothing to confirm. */
    struct outq *plain = outq_new(4, 1);
    outq_ask_about(plain, OUTQ_ROUND, "PRIVMSG", "ann", NULL, "Bout #7, round 2", 7, 2);
    ck_assert_int_eq(outq_pop(plain, 0, line), 1);
    ck_assert_int_eq(outq_answered(plain, "ann", 7, 2), 0);
    outq_free(plain);
    outq_free(q);
}
END_TEST

/* A throttle notice before the PONG: the last line to that target goes
 * again, and the target is slowed down. */
START_TEST(test_throttled_resent)
{
    struct outq *q = outq_new(4, 1);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    outq_set_markers(q, 1);
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "round 1");
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "round 2");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, "hello");
    outq_await(q, outq_mark(q));
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PING :rs1");
    log_begin();
    outq_throttled(q, "#ring", now);
    ck_assert_ptr_nonnull(strstr(log_end(), "throttled a line to #ring"));
    unsigned long mark = outq_mark(q);
    log_begin();
    ck_assert_int_eq(outq_pong(q, "rs1"), 1);
    ck_assert_ptr_nonnull(strstr(log_end(), "sending again"));
    ck_assert(!outq_delivered(q, mark));
    /* Which of the two was dropped is unknown: both go again, and from now
     * on a channel gets its next line once the last one is confirmed, with
     * a marker right after each. */
    now += 5;
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :round 1");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PING :rs2");
    now += 5;
    ck_assert_int_eq(outq_pop(q, now, line), 0); /* round 1 not confirmed yet */
    ck_assert_double_gt(outq_wait(q, now), 0);
    ck_assert_int_eq(outq_pong(q, "rs2"), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :round 2");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PING :rs3");
    /* Now a notice names one line exactly. */
    log_begin();
    outq_throttled(q, "#ring", now);
    ck_assert_int_eq(outq_pong(q, "rs3"), 1);
    const char *log = log_end();
    ck_assert_int_eq(count(log, "sending again"), 1);
    ck_assert_ptr_nonnull(
        strstr(log, "sending again a line the server dropped: PRIVMSG #ring :round 2"));
    now += 5;
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :round 2");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PING :rs4");
    ck_assert_int_eq(outq_pong(q, "rs4"), 1);
    ck_assert(outq_delivered(q, mark));
    /* The channel is slowed: a quarter line a second now, one at a time. */
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "round 3");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, "meanwhile");
    now += 1;
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG bob :meanwhile");
    ck_assert_double_eq_tol(outq_wait(q, now), 3.0, 1e-6); /* 0.25 of a token earned */
    now += 3;
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :round 3");
    outq_free(q);
}
END_TEST

/* The first notice comes while lines sent without a marker after them are
 * in the window and more wait for the channel: a marker goes at once, so
 * the queue never stalls waiting for a confirmation nobody asked for. */
START_TEST(test_throttled_unmarked)
{
    struct outq *q = outq_new(4, 1);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    outq_set_markers(q, 1);
    for (int i = 1; i <= 6; i++) {
        char text[32];
        snprintf(text, sizeof(text), "round %d", i);
        outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, text);
    }
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :round 3");
    ck_assert_int_eq(outq_len(q), 3); /* round 3 is on its way, unmarked */
    outq_throttled(q, "#ring", now);
    now += 2;
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PING :rs1");
    ck_assert_int_eq(outq_pong(q, "rs1"), 1);
    /* All three go again (which one was dropped is unknown), one at a time. */
    for (int i = 1; i <= 6; i++) {
        char want[32];
        snprintf(want, sizeof(want), "PRIVMSG #ring :round %d", i);
        now += 10;
        ck_assert_int_eq(outq_pop(q, now, line), 1);
        ck_assert_str_eq(line, want);
        ck_assert_int_eq(outq_pop(q, now, line), 1);
        ck_assert_int_eq(strncmp(line, "PING :rs", 8), 0);
        ck_assert_int_eq(outq_pong(q, line + 6), 1);
    }
    ck_assert_int_eq(outq_len(q), 0);
    outq_free(q);
}
END_TEST

/* A lost connection: live lines, replies and bulk not confirmed wait to go
 * again after registration; a round's lines and protocol lines go (the game
 * says them again). */
START_TEST(test_disconnected)
{
    struct outq *q = outq_new(100, 100);
    char line[OUTQ_LINE_MAX], all[4096];
    double now = 0;

    outq_set_markers(q, 1);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, "confirmed");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    now += 2; /* a reply's marker waits for a quiet spell */
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PING :rs1");
    ck_assert_int_eq(outq_pong(q, "rs1"), 1);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, "sent, not confirmed");
    outq_msg(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "commentary sent");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "carol", NULL, "waiting");
    outq_msg(q, OUTQ_ROUND, "PRIVMSG", "#ring", NULL, "commentary waiting");
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "bob accepts");
    outq_raw(q, "PING :keepalive");
    unsigned long mark = outq_mark(q);
    log_begin();
    outq_disconnected(q);
    ck_assert_ptr_nonnull(strstr(log_end(), "1 lines not confirmed"));
    outq_hold(q, 1);
    ck_assert_double_eq(outq_wait(q, now), -1);
    outq_raw(q, "NICK ringside");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "NICK ringside");
    ck_assert_int_eq(outq_pop(q, now, line), 0);
    outq_hold(q, 0);
    outq_set_markers(q, 0);
    drain(q, &now, all, sizeof(all));
    ck_assert_str_eq(all, "PRIVMSG #ring :bob accepts\n"
                          "PRIVMSG bob :sent, not confirmed\n"
                          "PRIVMSG carol :waiting\n");
    ck_assert(outq_delivered(q, mark));
    outq_free(q);
}
END_TEST

START_TEST(test_wait_times)
{
    struct outq *q = outq_new(2, 4);
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

/* A channel just joined is held until its modes are known: its lines and
 * the prompts said after them wait; the protocol lines (JOIN, MODE) and a
 * reply to someone else go; the hold ends when released or at its time. */
START_TEST(test_target_hold)
{
    struct outq *q = outq_new(5, 1);
    char line[OUTQ_LINE_MAX];
    double now = 100;

    outq_raw(q, "JOIN #ring");
    outq_raw(q, "MODE #ring");
    outq_target_hold(q, "#ring", now + 10);
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "round 1 said again");
    outq_msg(q, OUTQ_ROUND, "PRIVMSG", "alice", NULL, "round 2 prompt");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "carol", "carol", "a reply");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "JOIN #ring");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "MODE #ring");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG carol :a reply");
    ck_assert_int_eq(outq_pop(q, now + 1, line), 0);
    /* The loop sleeps until the hold ends at the latest. */
    double w = outq_wait(q, now + 1);
    ck_assert(w > 0 && w <= 9 + 1e-9);
    /* The modes came: released. */
    outq_target_hold(q, "#ring", 0);
    ck_assert_int_eq(outq_pop(q, now + 2, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :round 1 said again");
    ck_assert_int_eq(outq_pop(q, now + 3, line), 1);
    ck_assert_str_eq(line, "PRIVMSG alice :round 2 prompt");
    /* No answer at all: the hold ends by itself. */
    outq_target_hold(q, "#ring", now + 20);
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "round 2 said");
    ck_assert_int_eq(outq_pop(q, now + 19, line), 0);
    ck_assert_int_eq(outq_pop(q, now + 20, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :round 2 said");
    outq_free(q);
}
END_TEST

/* A query nobody waits for (whether a nick who joined is a bot) goes after
 * live lines and replies, before bulk; one that waited OUTQ_QUERY_WAIT
 * (10) seconds goes first. Gone with a lost connection. */
START_TEST(test_query_after_replies)
{
    struct outq *q = outq_new(1, 1);
    char all[4096], line[OUTQ_LINE_MAX];
    double now = 0;

    ck_assert_int_eq(outq_pop(q, now, line), 0);
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "dave", NULL, "report line");
    outq_query(q, "WHO fl1 %tnf,355");
    outq_query(q, "WHO fl2 %tnf,355");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", "by", "by: Ringside 0.2.0");
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "round 1: jab");
    outq_raw(q, "PONG :server");
    ck_assert_int_eq(outq_len(q), 6);
    ck_assert_int_eq(drain(q, &now, all, sizeof(all)), 6);
    ck_assert_str_eq(all, "PONG :server\n"
                          "PRIVMSG #ring :round 1: jab\n"
                          "PRIVMSG #ring :by: Ringside 0.2.0\n"
                          "WHO fl1 %tnf,355\n"
                          "WHO fl2 %tnf,355\n"
                          "PRIVMSG dave :report line\n");

    /* Replies keep coming: the query waits, at most 10 seconds. */
    outq_query(q, "WHO fl3 %tnf,355");
    int whoat = -1;
    for (int i = 0; i < 14; i++) {
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", "by", "by: again");
        now += 1;
        REQUIRE(outq_pop(q, now, line));
        if (strncmp(line, "WHO ", 4) == 0)
            whoat = i;
    }
    ck_assert_int_eq(whoat, 9);
    drain(q, &now, NULL, 0);

    outq_query(q, "WHO fl4 %tnf,355");
    outq_disconnected(q);
    ck_assert_int_eq(outq_len(q), 0);
    outq_free(q);
}
END_TEST

/* However long a query waited, a bout's live lines go first: a stranger
 * asking a WHOIS a second (a fresh nick's command each) froze every bout
 * when an old query went as a protocol line. */
START_TEST(test_query_never_before_live)
{
    struct outq *q = outq_new(1, 1);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    outq_query(q, "WHOIS zz0");
    now += 3 * 10;
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "round 1: jab");
    REQUIRE(outq_pop(q, now, line));
    ck_assert_str_eq(line, "PRIVMSG #ring :round 1: jab");
    REQUIRE(outq_pop(q, now + 1, line));
    ck_assert_str_eq(line, "WHOIS zz0");
    outq_free(q);
}
END_TEST

/* A WHOIS a command waits for goes before replies, after live lines. */
START_TEST(test_whois_after_live)
{
    struct outq *q = outq_new(1, 1);
    char all[4096];
    double now = 0;

    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "carol", NULL, "hello");
    outq_whois(q, "WHOIS newbie");
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "round 1: jab");
    ck_assert_int_eq(drain(q, &now, all, sizeof(all)), 3);
    ck_assert_str_eq(all, "PRIVMSG #ring :round 1: jab\n"
                          "WHOIS newbie\n"
                          "PRIVMSG carol :hello\n");
    outq_whois(q, "WHOIS gone");
    outq_disconnected(q);
    ck_assert_int_eq(outq_len(q), 0);
    outq_free(q);
}
END_TEST

/* A nick that quit or took another nick: the private lines waiting for
 * him are dropped (whoever takes the nick next must not get his orders
 * acknowledged), the channel's and others' stay. */
START_TEST(test_forget_nick)
{
    struct outq *q = outq_new(1, 1);
    char all[4096];
    double now = 0;

    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "round 1: jab");
    outq_msg_about(q, OUTQ_LIVE, "PRIVMSG", "Bob", NULL, "round 1 orders stored: 7/2/11", 7, 1);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", NULL, "your plan: 3/3/14");
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "bob", NULL, "help line");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "carol", NULL, "hello");
    ck_assert_int_eq(outq_forget(q, "bob"), 3);
    ck_assert_int_eq(outq_forget(q, "#ring"), 0);
    ck_assert_int_eq(outq_len(q), 2);
    ck_assert_int_eq(drain(q, &now, all, sizeof(all)), 2);
    ck_assert_str_eq(all, "PRIVMSG #ring :round 1: jab\n"
                          "PRIVMSG carol :hello\n");
    outq_free(q);
}
END_TEST

/* Lines already sent to a nick, not yet confirmed, when he quits or takes
 * another nick: never sent again, neither after a reconnection nor after a
 * throttle notice (whoever holds the nick then would get his orders).
 * Nicks compare by the server's case mapping: under RFC 1459, "BOB{" is
 * "bob[". */
START_TEST(test_forget_sent)
{
    struct outq *q = outq_new(10, 10);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    outq_set_markers(q, 1);
    outq_set_casemap(q, CASEMAP_RFC1459);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob[", NULL, "your plan: 3/3/14");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "carol", NULL, "hello");
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "bob[", NULL, "round 1 orders stored: 7/2/11");
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_forget(q, "BOB{"), 0); /* nothing waited: all sent */
    log_begin();
    outq_disconnected(q);
    ck_assert_ptr_nonnull(strstr(log_end(), "1 lines not confirmed"));
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG carol :hello");
    ck_assert_int_eq(outq_pop(q, now, line), 0);
    outq_free(q);

    q = outq_new(10, 10);
    outq_set_markers(q, 1);
    /* A throttle notice names him, and he quits before the marker's answer:
     * his line does not go again. */
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "dave", NULL, "round 2 orders stored: 5/5/10");
    outq_await(q, outq_mark(q));
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PING :rs1");
    outq_throttled(q, "dave", now);
    ck_assert_int_eq(outq_forget(q, "Dave"), 0);
    log_begin();
    ck_assert_int_eq(outq_pong(q, "rs1"), 1);
    ck_assert_ptr_null(strstr(log_end(), "sending again"));
    ck_assert_int_eq(outq_pop(q, now + 5, line), 0);
    ck_assert_int_eq(outq_len(q), 0);
    outq_free(q);
}
END_TEST

/* An answer's rest goes as bulk; the next answer's first lines (replies)
 * to the same place wait behind it, so two reports asked one after the
 * other come one after the other, not the second's header amid the first's
 * body. Another place's reply is not held back, nor an answer's own reply
 * by its own bulk. */
START_TEST(test_answers_keep_order)
{
    struct outq *q = outq_new(4, 1);
    char all[4096];
    double now = 0;

    outq_answer_begin(q);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", "bob", "report 1: header");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", "bob", "report 1: round 1");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", "bob", "report 1: round 2");
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "bob", "bob", "report 1: round 3");
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "bob", "bob", "report 1: result");
    outq_answer_begin(q);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", "bob", "report 2: header");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#ring", "bob", "bob: a channel answer");
    ck_assert_int_eq(drain(q, &now, all, sizeof(all)), 7);
    ck_assert_str_eq(all, "PRIVMSG bob :report 1: header\n"
                          "PRIVMSG bob :report 1: round 1\n"
                          "PRIVMSG bob :report 1: round 2\n"
                          "PRIVMSG #ring :bob: a channel answer\n"
                          "PRIVMSG bob :report 1: round 3\n"
                          "PRIVMSG bob :report 1: result\n"
                          "PRIVMSG bob :report 2: header\n");
    /* One answer whose body was queued before its header (held until the
     * command ended): the header still goes first. */
    outq_answer_begin(q);
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "bob", "bob", "report 3: round 1");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", "bob", "report 3: header");
    ck_assert_int_eq(drain(q, &now, all, sizeof(all)), 2);
    ck_assert_str_eq(all, "PRIVMSG bob :report 3: header\n"
                          "PRIVMSG bob :report 3: round 1\n");
    /* His bulk at its cap (the rest cut, with its note): a reply behind it
     * is a reply all the same, never cut. */
    for (int i = 0; i <= OUTQ_BULK_OWNER_MAX; i++)
        outq_msg(q, OUTQ_BULK, "PRIVMSG", "bob", "bob", "a long answer");
    int waiting = outq_len(q);
    outq_answer_begin(q);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", "bob", "forfeit bout #1? forfeit #1 yes");
    ck_assert_int_eq(outq_len(q), waiting + 1);
    /* Within bounds: a nick who keeps asking fills those too, then is cut. */
    for (int i = 0; i < 100; i++) {
        outq_answer_begin(q);
        outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", "bob", "another answer");
    }
    ck_assert_int_le(outq_len(q), waiting + OUTQ_REPLY_OWNER_MAX);
    outq_free(q);

    /* A flood notice goes before his own answers still waiting
     * (outq_first): behind them its "in 3 seconds" would be stale. */
    q = outq_new(4, 1);
    now = 0;
    outq_answer_begin(q);
    for (int i = 0; i < 6; i++)
        outq_msg(q, OUTQ_BULK, "PRIVMSG", "eve", "eve", "an answer");
    outq_demote(q, "eve", 3);
    unsigned long mark = outq_mark(q);
    outq_answer_begin(q);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "eve", "eve", "too many commands: in 3 seconds");
    outq_first(q, "eve", mark);
    ck_assert_int_eq(drain(q, &now, all, sizeof(all)), 7);
    ck_assert_ptr_eq(strstr(all, "PRIVMSG eve :too many commands: in 3 seconds\n"), all);
    outq_free(q);
}
END_TEST

/* Delivered: every line said up to a mark has gone (without markers) or
 * was confirmed (with them), whatever order they went in; protocol lines
 * and queries are not waited for. */
START_TEST(test_delivered_any_order)
{
    struct outq *q = outq_new(10, 10);
    char line[OUTQ_LINE_MAX];
    double now = 0;

    ck_assert(outq_delivered(q, outq_mark(q)));
    outq_msg(q, OUTQ_BULK, "PRIVMSG", "dave", NULL, "report");
    unsigned long first = outq_mark(q);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "alice", NULL, "hello");
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ring", NULL, "round 1");
    unsigned long live = outq_mark(q);
    outq_raw(q, "PONG :x");
    outq_query(q, "WHO fl1 %tnf,355");
    unsigned long mark = outq_mark(q);
    ck_assert(!outq_delivered(q, first));
    /* Protocol first, then the live line: still the bulk line waits. */
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PONG :x");
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #ring :round 1");
    ck_assert(!outq_delivered(q, live));
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "PRIVMSG alice :hello");
    ck_assert(!outq_delivered(q, first));
    ck_assert_int_eq(outq_pop(q, now, line), 1);
    ck_assert_str_eq(line, "WHO fl1 %tnf,355");
    ck_assert(!outq_delivered(q, first));
    ck_assert_int_eq(outq_pop(q, now + 1, line), 1);
    ck_assert_str_eq(line, "PRIVMSG dave :report");
    ck_assert(outq_delivered(q, mark)); /* the line just popped is gone */
    outq_unpop(q);
    ck_assert(!outq_delivered(q, first));
    ck_assert_int_eq(outq_pop(q, now + 2, line), 1);
    ck_assert_int_eq(outq_len(q), 0);
    ck_assert(outq_delivered(q, mark));

    /* With markers: confirmed by the server's answer. */
    outq_set_markers(q, 1);
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "alice", NULL, "again");
    mark = outq_mark(q);
    ck_assert_int_eq(outq_pop(q, now + 3, line), 1);
    ck_assert(!outq_delivered(q, mark));
    ck_assert_int_eq(outq_pop(q, now + 5, line), 1);
    ck_assert_str_eq(line, "PING :rs1");
    ck_assert(!outq_delivered(q, mark));
    ck_assert_int_eq(outq_pong(q, "rs1"), 1);
    ck_assert(outq_delivered(q, mark));
    outq_free(q);
}
END_TEST

/* What a user typed goes out valid UTF-8 with no control of his: invalid
 * bytes and controls become U+FFFD, the bot's bold, colour and reset stay,
 * and a CTCP reply keeps its framing. */
START_TEST(test_clean_on_queue)
{
    struct outq *q = outq_new(10, 1);
    char line[OUTQ_LINE_MAX];

    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#r", "bob",
             "bob: no command \"\xe2\x82\"\x01\x16 \002Ali\002 \00303won\003\017");
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(line, "PRIVMSG #r :bob: no command \"\xef\xbf\xbd\xef\xbf\xbd\"\xef\xbf\xbd"
                           "\xef\xbf\xbd \002Ali\002 \00303won\003\017");
    outq_msg(q, OUTQ_REPLY, "NOTICE", "bob", "bob", "\001PING 1\026\xff\001");
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(line, "NOTICE bob :\001PING 1\xef\xbf\xbd\xef\xbf\xbd\001");
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "bob", "bob", "\001ACTION x\001");
    ck_assert_int_eq(outq_pop(q, 0, line), 1);
    ck_assert_str_eq(line, "PRIVMSG bob :\xef\xbf\xbd"
                           "ACTION x\xef\xbf\xbd");
    outq_free(q);
}
END_TEST

/* Text that grows when cleaned (a byte to three) is still cut within the
 * wire limit, on character boundaries, nothing lost. */
START_TEST(test_clean_then_split)
{
    struct outq *q = outq_new(10, 1);
    char text[1001], all[16384], joined[4096] = "";
    double now = 0;

    memset(text, '\x80', 1000);
    text[1000] = '\0';
    outq_msg(q, OUTQ_REPLY, "PRIVMSG", "#r", NULL, text);
    int n = drain(q, &now, all, sizeof(all));
    ck_assert_int_ge(n, 6);
    for (char *l = strtok(all, "\n"); l; l = strtok(NULL, "\n")) {
        ck_assert_uint_le(WIRE(DEFAULT_PREFIX, l), 512);
        ck_assert_int_eq(strncmp(l, "PRIVMSG #r :\xef\xbf\xbd", 15), 0);
        ck_assert_uint_eq((strlen(l) - 12) % 3, 0);
        strcat(joined, l + 12);
    }
    ck_assert_uint_eq(strlen(joined), 3000);
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
    tcase_add_test(tc, test_prompt_after_commentary);
    tcase_add_test(tc, test_prompt_own_bout);
    tcase_add_test(tc, test_prompt_held_back);
    tcase_add_test(tc, test_round_and_prompts_together);
    tcase_add_test(tc, test_no_marker_inside_a_round);
    tcase_add_test(tc, test_drop_stale);
    tcase_add_test(tc, test_replies_not_starved);
    tcase_add_test(tc, test_owners_take_turns);
    tcase_add_test(tc, test_flooder_demoted);
    tcase_add_test(tc, test_allowance);
    tcase_add_test(tc, test_demoted_flooder);
    tcase_add_test(tc, test_bulk_keeps_burst);
    tcase_add_test(tc, test_fifo_per_target);
    tcase_add_test(tc, test_channel_burst);
    tcase_add_test(tc, test_split_long_message);
    tcase_add_test(tc, test_split_no_spaces_utf8);
    tcase_add_test(tc, test_split_exact_fit);
    tcase_add_test(tc, test_sanitized);
    tcase_add_test(tc, test_raw_too_long);
    tcase_add_test(tc, test_bulk_capped);
    tcase_add_test(tc, test_unpop);
    tcase_add_test(tc, test_clear);
    tcase_add_test(tc, test_markers_confirm);
    tcase_add_test(tc, test_marker_lazy);
    tcase_add_test(tc, test_reply_asked_first);
    tcase_add_test(tc, test_answered_confirms);
    tcase_add_test(tc, test_answered_bounds);
    tcase_add_test(tc, test_step_asks_nothing);
    tcase_add_test(tc, test_marker_idle);
    tcase_add_test(tc, test_throttled_resent);
    tcase_add_test(tc, test_throttled_unmarked);
    tcase_add_test(tc, test_shared_channel_half);
    tcase_add_test(tc, test_marker_when_free);
    tcase_add_test(tc, test_disconnected);
    tcase_add_test(tc, test_wait_times);
    tcase_add_test(tc, test_target_hold);
    tcase_add_test(tc, test_clean_on_queue);
    tcase_add_test(tc, test_clean_then_split);
    tcase_add_test(tc, test_query_after_replies);
    tcase_add_test(tc, test_query_never_before_live);
    tcase_add_test(tc, test_forget_nick);
    tcase_add_test(tc, test_forget_sent);
    tcase_add_test(tc, test_answers_keep_order);
    tcase_add_test(tc, test_whois_after_live);
    tcase_add_test(tc, test_delivered_any_order);
    suite_add_tcase(s, tc);
    return s;
}
