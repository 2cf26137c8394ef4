/* check_pace.c - what the game says about a live bout, and when, through a
 * fake output that keeps lines waiting as the bot's queue does: lines are
 * said into a waiting list (with the bout and round game_io.say_about
 * gives), game_io.withdraw drops the waiting ones it names, and the test
 * sends the list (to the list of lines said, game_fixture.h's) when it
 * chooses. Quick players order a round before its prompt went out: the
 * stale prompt is withdrawn, and nothing about a bout goes after its end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "tests.h"

#include "game_fixture.h"

#define WAITING_MAX 64

/* A line said and not yet sent. */
struct waiting {
    char target[32];
    char text[1024];
    int64_t bout;
    int round;
};

static struct waiting waiting[WAITING_MAX];
static int nwaiting;
static struct str withdrawn; /* "bout round\n" for every withdraw */

static const struct sheet rocky = {.rules = RULES_BOXING, .u.boxing = {14, 12, 11, 12, 11}};
static const struct sheet apollo = {.rules = RULES_BOXING, .u.boxing = {13, 14, 12, 11, 10}};

static void pace_say_about(void *ctx, enum game_voice voice, const char *target, const char *text,
                           int64_t bout, int round)
{
    (void)ctx;
    (void)voice;
    REQUIRE(nwaiting < WAITING_MAX);
    struct waiting *w = &waiting[nwaiting++];
    snprintf(w->target, sizeof(w->target), "%s", target);
    snprintf(w->text, sizeof(w->text), "%s", text);
    w->bout = bout;
    w->round = round;
    pending_lines = nwaiting;
}

static void pace_say(void *ctx, enum game_voice voice, const char *target, const char *text)
{
    pace_say_about(ctx, voice, target, text, 0, 0);
}

static void pace_withdraw(void *ctx, int64_t bout, int round)
{
    int kept = 0;

    (void)ctx;
    str_add(&withdrawn, "%lld %d\n", (long long)bout, round);
    for (int i = 0; i < nwaiting; i++)
        if (!(waiting[i].bout == bout && waiting[i].round > 0 && waiting[i].round <= round))
            waiting[kept++] = waiting[i];
    nwaiting = kept;
    pending_lines = nwaiting;
}

/* The output sends everything waiting, in the order said. */
static void send_all(void)
{
    for (int i = 0; i < nwaiting; i++)
        note(waiting[i].target, "sent", waiting[i].text);
    nwaiting = 0;
    pending_lines = 0;
}

static void pace_setup(void)
{
    char err[256];
    struct game_io keyed = io;

    fixture_setup();
    game_free(game);
    keyed.say = pace_say;
    keyed.say_about = pace_say_about;
    keyed.withdraw = pace_withdraw;
    nwaiting = 0;
    str_free(&withdrawn);
    game = game_new(db, &keyed, &cfg, err, sizeof(err));
    ck_assert_msg(game != NULL, "%s", err);
}

static void pace_teardown(void)
{
    str_free(&withdrawn);
    fixture_teardown();
}

/* The lines sent after the first sent line containing `from`, each
 * "target|sent|text\n", into out ("" when `from` never came). */
static void sent_after(const char *from, char *out, size_t len)
{
    const char *p = strstr(said.p, from);

    out[0] = '\0';
    if (!p)
        return;
    p = strchr(p, '\n');
    for (p = p ? p + 1 : ""; *p;) {
        const char *nl = strchr(p, '\n');
        if (strstr(p, "|sent|") && strstr(p, "|sent|") < nl)
            strncat(out, p,
                    (size_t)(nl - p + 1) < len - strlen(out) - 1 ? (size_t)(nl - p + 1)
                                                                 : len - strlen(out) - 1);
        p = nl + 1;
    }
}

/* How many sent lines contain `needle`. */
static int sent_count(const char *needle)
{
    int n = 0;

    for (const char *p = said.p; (p = strstr(p, needle)); p++) {
        const char *bol = p;
        while (bol > said.p && bol[-1] != '\n')
            bol--;
        const char *bar = strstr(bol, "|sent|");
        n += bar && bar < p;
    }
    return n;
}

/* alice (Rocky) challenges bob (Apollo) for 3 rounds and bob accepts;
 * everything said goes out, and the clock of round 1 runs. */
static void live_bout(int64_t *a, int64_t *b)
{
    *a = player("alice", "Rocky", &rocky);
    *b = player("bob", "Apollo", &apollo);
    struct game_caller ca = caller("alice", *a, 1), cb = caller("bob", *b, 1);
    ck_assert_int_eq(game_challenge(game, &ca, *b, "bob", RULES_BOXING, 3, NULL, NULL), 0);
    ck_assert_int_eq(game_answer(game, &cb, GAME_ACCEPT, NULL, 0), 0);
    send_all();
    HAS("alice|sent|Bout #1, round 1 of 3: your orders for Rocky");
    HAS("bob|sent|Bout #1, round 1 of 3: your orders for Apollo");
    game_tick(game, NULL);
}

/* The case: both players order round 3 before its prompt went out
 * (the output was busy); the round is fought, the bout ends. The prompt
 * for round 3 is withdrawn before the end is said, never sent; after the
 * end nothing about the bout goes out, now or at a later tick or
 * reconnection. */
START_TEST(test_no_prompt_after_the_end)
{
    int64_t a, b;
    char after[4096];

    live_bout(&a, &b);
    struct game_caller pa = caller("alice", a, 0), pb = caller("bob", b, 0);
    for (int r = 1; r <= 2; r++) {
        ck_assert_int_eq(game_order(game, &pa, NULL, "5/5/10"), 0);
        ck_assert_int_eq(game_order(game, &pb, NULL, "4H/6/10"), 0);
    }
    /* Round 2 is fought; its commentary and the round 3 prompts wait. */
    ck_assert_int_eq(nwaiting > 2, 1);
    ck_assert_int_eq(sent_count("round 3 of 3: your orders"), 0);
    ck_assert_int_eq(game_order(game, &pa, NULL, "5/5/10"), 0);
    ck_assert_int_eq(game_order(game, &pb, NULL, "4H/6/10"), 0);
    ck_assert_int_eq(game_live(game), 0);
    /* Withdrawn at each round fought, and for good at the end. */
    ck_assert_str_eq(withdrawn.p, "1 1\n1 2\n1 3\n1 2147483647\n");
    send_all();
    ck_assert_int_eq(sent_count("round 3 of 3: your orders"), 0);
    ck_assert_int_eq(sent_count("round 2 of 3: your orders"), 0);
    HAS("bob|sent|Bout #1: your round 3 orders for Apollo (4H/6/10) are in and fought. It is "
        "over, and ");
    HAS("alice|sent|Bout #1 is over, and ");
    /* After the first player's end, only the other's. */
    sent_after("alice|sent|Bout #1 is over, and ", after, sizeof(after));
    ck_assert_msg(strncmp(after, "bob|sent|Bout #1: your round 3 orders", 37) == 0 &&
                      strchr(after, '\n')[1] == '\0',
                  "after alice's end:\n%s", after);

    /* The deadline the bout had, a tick, a reconnection: nothing more. */
    hush();
    clock_now += 3600;
    game_tick(game, NULL);
    game_connected(game);
    send_all();
    ck_assert_msg(strstr(said.p ? said.p : "", "#1") == NULL, "%s", said.p);
}
END_TEST

/* A reminder and prompts said again at a reconnection are withdrawn like
 * any prompt once their round is fought; the next round's prompt comes
 * after the round's commentary, and only it. */
START_TEST(test_reminder_and_reconnect_withdrawn)
{
    int64_t a, b;

    live_bout(&a, &b);
    struct game_caller pa = caller("alice", a, 0), pb = caller("bob", b, 0);
    ck_assert_int_eq(game_order(game, &pa, NULL, "5/5/10"), 0);
    send_all();
    hush();
    /* The reminder for bob, 20 s before his deadline, waits... */
    clock_now += 45;
    game_tick(game, NULL);
    ck_assert_int_eq(nwaiting, 1);
    ck_assert_ptr_nonnull(strstr(waiting[0].text, "left for your round 1 orders"));
    /* ... and so do the prompts said again at a reconnection. */
    game_connected(game);
    ck_assert_int_eq(nwaiting, 4); /* with what an order means (their first bout) */
    /* bob orders: round 1 is fought before any of it went out. */
    ck_assert_int_eq(game_order(game, &pb, NULL, "4H/6/10"), 0);
    send_all();
    ck_assert_int_eq(sent_count("left for your round 1 orders"), 0);
    ck_assert_int_eq(sent_count("round 1 of 3: your orders"), 0);
    HAS("#ring|sent|Bout #1, Rocky vs Apollo, goes on: round 1 of 3 is next.");
    ck_assert_int_eq(sent_count("round 2 of 3: your orders"), 2);
    /* Each prompt after the round's last channel line. */
    const char *last_chan = NULL;
    for (const char *p = said.p; (p = strstr(p, "#ring|sent|")); p++)
        last_chan = p;
    const char *prompt = strstr(said.p, "round 2 of 3: your orders");
    ck_assert_ptr_nonnull(last_chan);
    ck_assert(prompt > last_chan);
}
END_TEST

/* game_tick_due: the bot's loop sleeps until the game has something to
 * do. Idle (no league turn scheduled, no tournament), as long as it likes;
 * a live bout keeps its clock by the second, to its end. */
START_TEST(test_tick_due)
{
    int64_t a, b;

    game_tick(game, NULL);
    ck_assert_double_eq(game_tick_due(game), GAME_TICK_IDLE_MAX);
    live_bout(&a, &b);
    ck_assert_double_eq(game_tick_due(game), 1.0);
}
END_TEST

/* A bout over whose last commentary the output has not confirmed yet
 * (its marker may wait for the keepalive, a minute) is looked at again
 * now and then, not every second: what confirms it is heard, and a turn
 * that hears something ticks the game. Once confirmed, the game is idle. */
START_TEST(test_tick_due_unsaid)
{
    int64_t a, b;

    live_bout(&a, &b);
    struct game_caller pa = caller("alice", a, 0), pb = caller("bob", b, 0);
    for (int r = 1; r <= 3; r++) {
        ck_assert_int_eq(game_order(game, &pa, NULL, "5/5/10"), 0);
        ck_assert_int_eq(game_order(game, &pb, NULL, "4H/6/10"), 0);
        if (game_live(game) == 0)
            break;
    }
    ck_assert_int_eq(game_live(game), 0);
    game_tick(game, NULL);
    double due = game_tick_due(game);
    ck_assert_msg(due > 1.0 && due < GAME_TICK_IDLE_MAX, "due %.1f", due);
    send_all();
    game_tick(game, NULL);
    ck_assert_double_eq(game_tick_due(game), GAME_TICK_IDLE_MAX);
}
END_TEST

Suite *pace_suite(void)
{
    Suite *s = suite_create("pace");
    TCase *tc = tcase_create("core");

    tcase_add_checked_fixture(tc, pace_setup, pace_teardown);
    tcase_add_test(tc, test_no_prompt_after_the_end);
    tcase_add_test(tc, test_reminder_and_reconnect_withdrawn);
    tcase_add_test(tc, test_tick_due);
    tcase_add_test(tc, test_tick_due_unsaid);
    suite_add_tcase(s, tc);
    return s;
}
