/* check_restart.c - live bouts after a restart or a reconnection, with
 * [bout] rejoin_grace: the game waits for both players to be back
 * (identified: io.nick_of) before it starts a deadline or fights a duel's
 * next round, or until the grace has passed (the fake clock); the channel
 * is told once, in one line, until when; each player is asked for every
 * bout of his as he comes back (game_player_back); game_orders_waiting
 * lists the bouts waiting for his orders. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "tests.h"

#include "game_fixture.h"

static const struct sheet rocky = {.rules = RULES_BOXING, .u.boxing = {14, 12, 11, 12, 11}};
static const struct sheet apollo = {.rules = RULES_BOXING, .u.boxing = {13, 14, 12, 11, 10}};
static const struct sheet conan = {
    .rules = RULES_DUEL,
    .u.duel = {18,
               14,
               14,
               10,
               {DUEL_LONGSWORD, DUEL_PLATE, DUEL_LEATHER, DUEL_CHAINMAIL, 0, 0, DUEL_LEATHER},
               {DUEL_COND_FULL, DUEL_COND_FULL, 20000, DUEL_COND_FULL, 0, 0, 30000}}};
static const struct sheet hector = {
    .rules = RULES_DUEL,
    .u.duel = {14,
               20,
               12,
               10,
               {DUEL_MACE, 0, DUEL_LEATHER, 0, 0, 0, DUEL_CHAINMAIL},
               {5000, 0, DUEL_COND_FULL, 0, 0, 0, DUEL_COND_FULL}}};

/* Who is identified now: the nick of each account id (NULL: away). */
#define ACCOUNTS 8
static const char *nick_now[ACCOUNTS];
/* Who is in #ring now (io.hears, when a test sets it). */
static int in_ring[ACCOUNTS];

static const char *restart_nick_of(void *ctx, int64_t account_id)
{
    (void)ctx;
    return account_id > 0 && account_id < ACCOUNTS ? nick_now[account_id] : NULL;
}

static struct game_io rio;
static struct game_config rcfg;

/* The game as the bot runs it: players identified or not, a grace of 5
 * minutes, duels at 4 seconds a round. Started again from the database
 * (everything in memory lost, as a restart loses it). */
static void restart(void)
{
    char err[256];

    game_free(game);
    game = game_new(db, &rio, &rcfg, err, sizeof(err));
    ck_assert_msg(game != NULL, "%s", err);
}

static void setup(void)
{
    fixture_setup();
    rio = io;
    rio.nick_of = restart_nick_of;
    rcfg = cfg;
    rcfg.rejoin_grace = 300;
    rcfg.auto_round_seconds = 4;
    memset(nick_now, 0, sizeof(nick_now));
    memset(in_ring, 0, sizeof(in_ring));
    restart();
}

/* Player `name` comes back (identifies), and the bot tells the game. */
static void back(const char *name, int64_t id)
{
    nick_now[id] = name;
    game_player_back(game, id);
}

/* A second fighter for account `id`. */
static void fighter(int64_t id, const char *name, const char *key, const struct sheet *sheet)
{
    struct db_fighter f;

    memset(&f, 0, sizeof(f));
    f.account_id = id;
    snprintf(f.name, sizeof(f.name), "%s", name);
    f.sheet = *sheet;
    ck_assert_int_eq(db_fighter_create(db, key, &f), DB_OK);
}

/* `a` challenges `b` (both identified, in #ring) with `with` against `vs`,
 * and b accepts: a live bout. */
static void bout(const char *a, int64_t aid, const char *b, int64_t bid, enum rules rules,
                 const char *with, const char *vs)
{
    struct game_caller ca = caller(a, aid, 1), cb = caller(b, bid, 1);

    nick_now[aid] = a;
    nick_now[bid] = b;
    ck_assert_int_eq(game_challenge(game, &ca, bid, b, rules, 0, with, vs), 0);
    ck_assert_msg(game_answer(game, &cb, GAME_ACCEPT, a, aid) == 0, "%s", said.p);
    game_tick(game, NULL);
}

/* The number of times `needle` was said. */
static int count(const char *needle)
{
    int n = 0;

    for (const char *p = said.p; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static int round_of(int64_t id)
{
    struct db_bout rec;

    ck_assert_int_eq(db_bout_get(db, id, &rec), DB_OK);
    return rec.round;
}

/* The bot stops with bout(s) live and starts again with nobody identified. */
static void stop_and_start(void)
{
    memset(nick_now, 0, sizeof(nick_now));
    restart();
    hush();
    game_connected(game);
}

START_TEST(test_deadline_waits_for_both)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);

    bout("alice", a, "bob", b, RULES_BOXING, NULL, NULL);
    stop_and_start();
    /* wall 22:13:20 UTC + 5 minutes, to the next whole minute */
    ck_assert_int_eq(count("#ring|"), 1);
    HAS("#ring|chatter|Bout #1, Rocky vs Apollo, waits for alice and bob to come back, until "
        "22:19 UTC at the latest: round 1 of 3 is next.\n");
    HAS("alice|live|Bout #1 (Rocky vs Apollo) waits for you until 22:19 UTC: identify again "
        "(identify <password>) and it goes on.\n");
    HAS("bob|live|Bout #1 (Rocky vs Apollo) waits for you until 22:19 UTC: identify again "
        "(identify <password>) and it goes on.\n");
    ck_assert_ptr_null(strstr(said.p, "your orders"));
    /* Nobody back: no deadline runs out, however long. */
    hush();
    for (int i = 0; i < 10; i++) {
        clock_now += 30;
        game_tick(game, NULL);
    }
    ck_assert_int_eq((int)said.len, 0);
    ck_assert_int_eq(round_of(1), 0);
    /* alice is back: asked for her orders; the clock still waits for bob. */
    back("alice", a);
    HAS("alice|live|Bout #1, round 1 of 3: your orders for Rocky (e.g. 5H/8!/7 (inside)) within "
        "1 minute; the clock starts once bob is back. Boxing orders are AGG/POW/DEF");
    ck_assert_int_eq(count("|live|Bout #"), 1);
    struct str list;
    str_init(&list);
    ck_assert_int_eq(game_orders_waiting(game, b, &list), 1);
    ck_assert_str_eq(list.p, "Waiting for your orders: bout #1 (Rocky vs Apollo, round 1 of 3).");
    str_free(&list);
    hush();
    clock_now += 30; /* 330 s after the restart: the grace is 340 s */
    game_tick(game, NULL);
    ck_assert_int_eq((int)said.len, 0);
    /* bob is back: the bout goes on, he is asked, the clock starts. */
    back("bob", b);
    HAS("#ring|chatter|Bout #1, Rocky vs Apollo, goes on: round 1 of 3 is next.\n");
    HAS("bob|live|Bout #1, round 1 of 3: your orders for Apollo (e.g. 5H/8!/7 (inside)) within "
        "1 minute.");
    ck_assert_ptr_null(strstr(said.p, "alice|live|"));
    ck_assert_int_eq(count("#ring|"), 1);
    game_tick(game, NULL);
    clock_now += 59;
    game_tick(game, NULL);
    ck_assert_int_eq(round_of(1), 0);
    clock_now += 2;
    game_tick(game, NULL);
    ck_assert_int_eq(round_of(1), 1);
}
END_TEST

START_TEST(test_grace_ends_without_him)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);

    bout("alice", a, "bob", b, RULES_BOXING, NULL, NULL);
    stop_and_start();
    back("alice", a);
    hush();
    clock_now += 339;
    game_tick(game, NULL);
    ck_assert_int_eq((int)said.len, 0);
    clock_now += 1; /* 22:19:00 UTC */
    game_tick(game, NULL);
    ck_assert_str_eq(said.p,
                     "#ring|chatter|Bout #1, Rocky vs Apollo, goes on without bob: round 1 of 3 "
                     "is next.\n");
    /* The clock runs now: without bob's orders, his default fights. */
    clock_now += 61;
    game_tick(game, NULL);
    ck_assert_int_eq(round_of(1), 1);
    /* bob comes back late: asked for the round that waits now. */
    hush();
    clock_now += 20;
    game_tick(game, NULL);
    back("bob", b);
    HAS("bob|live|Bout #1, round 2 of 3: your orders for Apollo (e.g. 5H/8!/7 (inside)) within "
        "1 minute; the clock started before you came back: 40 seconds left");
    /* Once only. */
    hush();
    back("bob", b);
    ck_assert_int_eq((int)said.len, 0);
}
END_TEST

START_TEST(test_both_back_at_once)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);
    struct game_caller pa = caller("alice", a, 0);

    bout("alice", a, "bob", b, RULES_BOXING, NULL, NULL);
    ck_assert_int_eq(game_order(game, &pa, NULL, "6/6/8"), 0);
    /* Both identified again before the game hears it is connected (their
     * services logins): no wait, each asked once. */
    restart();
    nick_now[a] = "alice";
    nick_now[b] = "bob";
    hush();
    game_connected(game);
    HAS("#ring|chatter|Bout #1, Rocky vs Apollo, goes on: round 1 of 3 is next.\n");
    HAS("alice|live|Bout #1, round 1 of 3: your orders for Rocky (e.g. 5H/8!/7 (inside)) within "
        "1 minute; your orders for it are in already. Boxing orders are AGG/POW/DEF");
    HAS("bob|live|Bout #1, round 1 of 3: your orders for Apollo (e.g. 5H/8!/7 (inside)) within "
        "1 minute.");
    ck_assert_int_eq(count("|live|Bout #1, round 1"), 2);
    ck_assert_ptr_null(strstr(said.p, "waits"));
    struct str list;
    str_init(&list);
    ck_assert_int_eq(game_orders_waiting(game, a, &list), 0);
    ck_assert_int_eq((int)list.len, 0);
    str_free(&list);
    hush();
    game_player_back(game, b); /* he identifies again: nothing new */
    ck_assert_int_eq((int)said.len, 0);
}
END_TEST

START_TEST(test_every_bout_asked)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);
    int64_t c = player("carol", "Creed", &rocky);
    struct game_caller pc = caller("carol", c, 0);

    fighter(b, "Drago", "drago", &apollo);
    bout("alice", a, "bob", b, RULES_BOXING, "Rocky", "Apollo");
    bout("carol", c, "bob", b, RULES_BOXING, "Creed", "Drago");
    ck_assert_int_eq(game_live(game), 2);
    struct game_caller pb = caller("bob", b, 0);
    ck_assert_int_eq(game_order(game, &pb, "#1", "6/6/8"), 0);
    ck_assert_int_eq(game_order(game, &pc, NULL, "5/5/10"), 0);
    stop_and_start();
    HAS("#ring|chatter|Bout #1, Rocky vs Apollo, waits for alice and bob to come back, until "
        "22:19 UTC at the latest: round 1 of 3 is next.\n");
    HAS("#ring|chatter|Bout #2, Creed vs Drago, waits for carol and bob to come back, until "
        "22:19 UTC at the latest: round 1 of 3 is next.\n");
    ck_assert_int_eq(count("#ring|"), 2);
    /* bob's orders wait in bout #2 only: #1 has his. */
    struct str list;
    str_init(&list);
    ck_assert_int_eq(game_orders_waiting(game, b, &list), 1);
    ck_assert_str_eq(list.p, "Waiting for your orders: bout #2 (Creed vs Drago, round 1 of 3).");
    str_clear(&list);
    ck_assert_int_eq(game_orders_waiting(game, a, &list), 1);
    ck_assert_str_eq(list.p, "Waiting for your orders: bout #1 (Rocky vs Apollo, round 1 of 3).");
    str_clear(&list);
    ck_assert_int_eq(game_orders_waiting(game, c, &list), 0);
    str_free(&list);
    /* bob is back: asked in both bouts, each once. */
    hush();
    back("bob", b);
    HAS("bob|live|Bout #1, round 1 of 3: your orders for Apollo (e.g. 5H/8!/7 (inside)) within "
        "1 minute; your orders for it are in already; the clock starts once alice is back. Boxing "
        "orders are AGG/POW/DEF");
    HAS("bob|live|Bout #2, round 1 of 3: your orders for Drago (e.g. 5H/8!/7 (inside)) within "
        "1 minute; the clock starts once carol is back\n");
    ck_assert_int_eq(count("bob|live|Bout #"), 2);
    hush();
    back("carol", c);
    HAS("#ring|chatter|Bout #2, Creed vs Drago, goes on: round 1 of 3 is next.\n");
    HAS("carol|live|Bout #2, round 1 of 3: your orders for Creed (e.g. 5H/8!/7 (inside)) within "
        "1 minute; your orders for it are in already. Boxing orders are AGG/POW/DEF");
    ck_assert_int_eq(count("|live|Bout #"), 1);
    ck_assert_ptr_null(strstr(said.p, "Bout #1"));
}
END_TEST

START_TEST(test_duel_waits_for_duellists)
{
    int64_t a = player("alice", "Conan", &conan), b = player("bob", "Hector", &hector);

    bout("alice", a, "bob", b, RULES_DUEL, NULL, NULL);
    clock_now += 4;
    game_tick(game, NULL);
    ck_assert_int_eq(round_of(1), 1);
    stop_and_start();
    HAS("#ring|chatter|Bout #1, Conan vs Hector, waits for alice and bob to come back, until "
        "22:19 UTC at the latest: round 2 of 23 is next.\n");
    HAS("bob|live|Bout #1 (Conan vs Hector) waits for you until 22:19 UTC: identify again "
        "(identify <password>) and it goes on.\n");
    back("alice", a);
    /* No round is fought while bob is away, however long before the grace. */
    for (int i = 0; i < 80; i++) {
        clock_now += 4;
        game_tick(game, NULL);
    }
    ck_assert_int_eq(round_of(1), 1);
    struct str list;
    str_init(&list);
    ck_assert_int_eq(game_orders_waiting(game, a, &list), 0); /* a duel needs no orders */
    str_free(&list);
    hush();
    back("bob", b);
    HAS("#ring|chatter|Bout #1, Conan vs Hector, goes on: round 2 of 23 is next.\n");
    ck_assert_ptr_null(strstr(said.p, "|live|"));
    game_tick(game, NULL);
    clock_now += 3;
    game_tick(game, NULL);
    ck_assert_int_eq(round_of(1), 1);
    clock_now += 1;
    game_tick(game, NULL);
    ck_assert_int_eq(round_of(1), 2);
}
END_TEST

START_TEST(test_duel_grace_ends)
{
    int64_t a = player("alice", "Conan", &conan), b = player("bob", "Hector", &hector);

    bout("alice", a, "bob", b, RULES_DUEL, NULL, NULL);
    stop_and_start();
    back("bob", b);
    hush();
    clock_now += 339;
    game_tick(game, NULL);
    ck_assert_int_eq(round_of(1), 0);
    clock_now += 1;
    game_tick(game, NULL);
    HAS("#ring|chatter|Bout #1, Conan vs Hector, goes on without alice: round 1 of 23 is next.\n");
    clock_now += 4;
    game_tick(game, NULL);
    ck_assert_int_eq(round_of(1), 1);
}
END_TEST

START_TEST(test_short_grace_to_the_second)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);

    rcfg.rejoin_grace = 30;
    game_set_config(game, &rcfg);
    bout("alice", a, "bob", b, RULES_BOXING, NULL, NULL);
    stop_and_start();
    HAS("#ring|chatter|Bout #1, Rocky vs Apollo, waits for alice and bob to come back, until "
        "22:13:50 UTC at the latest: round 1 of 3 is next.\n");
    hush();
    clock_now += 29;
    game_tick(game, NULL);
    ck_assert_int_eq((int)said.len, 0);
    clock_now += 1;
    game_tick(game, NULL);
    ck_assert_str_eq(said.p, "#ring|chatter|Bout #1, Rocky vs Apollo, goes on without alice and "
                             "bob: round 1 of 3 is next.\n");
}
END_TEST

START_TEST(test_no_grace_goes_on_at_once)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);

    rcfg.rejoin_grace = 0;
    game_set_config(game, &rcfg);
    bout("alice", a, "bob", b, RULES_BOXING, NULL, NULL);
    memset(nick_now, 0, sizeof(nick_now));
    restart();
    hush();
    game_connected(game);
    HAS("#ring|chatter|Bout #1, Rocky vs Apollo, goes on: round 1 of 3 is next.\n");
    HAS("bob|live|Bout #1, round 1 of 3: your orders for Apollo (e.g. 5H/8!/7 (inside)) within "
        "1 minute; identify again first (identify <password>). Boxing orders are AGG/POW/DEF");
    ck_assert_ptr_null(strstr(said.p, "waits"));
    game_tick(game, NULL);
    clock_now += 61;
    game_tick(game, NULL);
    ck_assert_int_eq(round_of(1), 1);
}
END_TEST

/* After a restart a player is told under the nick he was last identified
 * under, stored with his account (migration 22), not under his account's
 * name (a trial on ngircd: account alice identified as al_ never got
 * "identify again"): stored when he identifies, and when he is seen under
 * another nick while identified (at his next prompt). */
START_TEST(test_told_under_last_nick)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);
    struct game_caller ca = caller("alice", a, 1), cb = caller("bob", b, 1);
    struct game_caller pa = caller("alice", a, 0), pb = caller("bob", b, 0);
    char nick[DB_NICK_MAX];

    ca.nick = pa.nick = "al_";
    back("al_", a); /* identifies (the game is not online yet: stored all the same) */
    ck_assert_int_eq(db_account_nick_get(db, a, nick, sizeof(nick)), DB_OK);
    ck_assert_str_eq(nick, "al_");
    nick_now[b] = "bob";
    ck_assert_int_eq(game_challenge(game, &ca, b, "bob", RULES_BOXING, 0, "Rocky", NULL), 0);
    ck_assert_msg(game_answer(game, &cb, GAME_ACCEPT, "alice", a) == 0, "%s", said.p);
    HAS("al_|live|Bout #1, round 1 of 3: your orders for Rocky");
    stop_and_start();
    HAS("al_|live|Bout #1 (Rocky vs Apollo) waits for you until 22:19 UTC: identify again "
        "(identify <password>) and it goes on.\n");
    HAS("bob|live|Bout #1 (Rocky vs Apollo) waits for you until 22:19 UTC: identify again ");
    ck_assert_msg(!strstr(said.p, "alice|"), "%s", said.p);
    /* Back under another nick: stored, and asked there. */
    back("al__", a);
    HAS("al__|live|Bout #1, round 1 of 3: your orders for Rocky");
    ck_assert_int_eq(db_account_nick_get(db, a, nick, sizeof(nick)), DB_OK);
    ck_assert_str_eq(nick, "al__");
    back("bob", b);
    /* A nick changed while identified (the game hears of no NICK): seen
     * at his next prompt, and stored. */
    nick_now[a] = "alice_away";
    hush();
    ck_assert_int_eq(game_order(game, &pb, NULL, "6/6/8"), 0);
    game_tick(game, NULL);
    clock_now += 61; /* alice sends none: the default fights round 1 for her */
    game_tick(game, NULL);
    ck_assert_int_eq(round_of(1), 1);
    HAS("alice_away|live|Bout #1, round 2 of 3: your orders for Rocky");
    ck_assert_int_eq(db_account_nick_get(db, a, nick, sizeof(nick)), DB_OK);
    ck_assert_str_eq(nick, "alice_away");
    /* And when his orders come in (his next prompt may be after a restart). */
    nick_now[a] = pa.nick = "al_again";
    ck_assert_int_eq(game_order(game, &pa, NULL, "6/6/8"), 0);
    ck_assert_int_eq(db_account_nick_get(db, a, nick, sizeof(nick)), DB_OK);
    ck_assert_str_eq(nick, "al_again");
    /* Without a grace the bout goes on at once: the prompt that asks him to
     * identify again goes to that nick too. */
    rcfg.rejoin_grace = 0;
    stop_and_start();
    HAS("al_again|live|Bout #1, round 2 of 3: your orders for Rocky (e.g. 5H/8!/7 (inside)) "
        "within 1 minute; your orders for it are in already; to change them, identify again "
        "first (identify <password>)");
    HAS("bob|live|Bout #1, round 2 of 3: your orders for Apollo");
    ck_assert_msg(!strstr(said.p, "alice|"), "%s", said.p);
}
END_TEST

/* A player seen identified under al_ who then quits (his identity ends)
 * is not told under al_ any more: whoever takes that nick next would be.
 * His account's name gets it, as before the last nick was stored. */
START_TEST(test_quit_not_told_under_old_nick)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);
    struct game_caller ca = caller("alice", a, 1), cb = caller("bob", b, 1);
    struct game_caller pb = caller("bob", b, 0);

    ca.nick = "al_";
    back("al_", a);
    nick_now[b] = "bob";
    ck_assert_int_eq(game_challenge(game, &ca, b, "bob", RULES_BOXING, 0, "Rocky", NULL), 0);
    ck_assert_msg(game_answer(game, &cb, GAME_ACCEPT, "alice", a) == 0, "%s", said.p);
    HAS("al_|live|Bout #1, round 1 of 3: your orders for Rocky");
    nick_now[a] = NULL; /* al_ quit */
    hush();
    ck_assert_int_eq(game_order(game, &pb, NULL, "6/6/8"), 0);
    game_tick(game, NULL);
    clock_now += 61; /* the default fights round 1 for her */
    game_tick(game, NULL);
    ck_assert_int_eq(round_of(1), 1);
    HAS("alice|live|Bout #1, round 2 of 3: your orders for Rocky");
    ck_assert_msg(!strstr(said.p, "al_|"), "%s", said.p);
    /* Back as al_ again; then the bot reconnects (the users' table starts
     * empty, as after a restart): "identify again" finds him under al_. */
    back("al_", a);
    game_disconnected(game);
    nick_now[a] = nick_now[b] = NULL;
    hush();
    game_connected(game);
    HAS("al_|live|Bout #1 (Rocky vs Apollo) waits for you until ");
    ck_assert_msg(!strstr(said.p, "alice|"), "%s", said.p);
}
END_TEST

START_TEST(test_disconnected_hears_nobody)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);

    bout("alice", a, "bob", b, RULES_BOXING, NULL, NULL);
    stop_and_start();
    ck_assert_int_eq(game_online(game), 1);
    game_disconnected(game);
    ck_assert_int_eq(game_online(game), 0);
    hush();
    back("alice", a); /* the bot's WHOX before it tells the game: nothing yet */
    ck_assert_int_eq((int)said.len, 0);
    game_connected(game);
    HAS("#ring|chatter|Bout #1, Rocky vs Apollo, waits for bob to come back, until 22:19 UTC at "
        "the latest: round 1 of 3 is next.\n");
    HAS("alice|live|Bout #1, round 1 of 3: your orders for Rocky");
    (void)b;
}
END_TEST

static int restart_hears(void *ctx, const char *channel, const char *nick)
{
    (void)ctx;
    for (int i = 1; i < ACCOUNTS; i++)
        if (nick_now[i] && strcmp(nick_now[i], nick) == 0)
            return strcmp(channel, "#ring") == 0 && in_ring[i];
    return 0;
}

/* alice (identified, in #ring) challenges bob, who is away: the channel
 * line says he will be told; he is told in private when he identifies,
 * with the time left and how to answer, once: not at a second identify,
 * nor after a reconnection; and he can accept from there. */
START_TEST(test_challenge_told_when_back)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);
    struct game_caller ca = caller("alice", a, 1), pb = caller("bob", b, 0);

    game_connected(game);
    nick_now[a] = "alice";
    ck_assert_int_eq(game_challenge(game, &ca, b, "bob", RULES_BOXING, 0, NULL, NULL), 0);
    HAS("bob: say !accept or !decline within 5 minutes. bob has not identified with me: I "
        "will tell him in private when he does.\n");
    ck_assert_msg(!strstr(said.p, "bob|"), "%s", said.p);
    game_tick(game, NULL);
    clock_now += 100;
    game_tick(game, NULL);
    hush();
    back("bob", b);
    HAS("bob|live|alice challenged you in #ring: bout #1, boxing, 3 rounds, "
        "Rocky vs your Apollo. You have 3 minutes left to answer: say accept #1 or decline #1 "
        "here (or !accept in #ring).\n");
    back("bob", b); /* a second identify */
    game_disconnected(game);
    game_connected(game); /* the bot reconnects */
    back("bob", b);
    ck_assert_int_eq(count("challenged you"), 1);
    ck_assert_int_eq(game_answer(game, &pb, GAME_ACCEPT, "#1", 0), 0);
    HAS("Bout #1 is on.");
}
END_TEST

/* Someone else holding the challenged player's nick unidentified hears
 * nothing in private; the player identified under another nick is told
 * there; another player coming back is told nothing of it. */
START_TEST(test_challenge_never_told_to_the_nick)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);
    int64_t c = player("carol", "Drago", &rocky);
    struct game_caller ca = caller("alice", a, 1);

    game_connected(game);
    nick_now[a] = "alice";
    ck_assert_int_eq(game_challenge(game, &ca, b, "bob", RULES_BOXING, 0, NULL, NULL), 0);
    game_player_back(game, b); /* seen, not identified: io.nick_of knows nobody */
    back("carol", c);
    ck_assert_msg(!strstr(said.p, "|live|alice challenged you"), "%s", said.p);
    back("bobby", b);
    HAS("bobby|live|alice challenged you in #ring: bout #1");
    ck_assert_msg(!strstr(said.p, "\nbob|"), "%s", said.p);
}
END_TEST

/* A challenged player identified but not in the challenge's channel is
 * told in private at once; one in the channel hears it there only; a
 * later identify tells neither again. */
START_TEST(test_challenge_told_elsewhere_at_once)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);
    int64_t c = player("carol", "Drago", &rocky), d = player("dave", "Ivan", &apollo);
    struct game_caller ca = caller("alice", a, 1), cc = caller("carol", c, 1);

    rio.hears = restart_hears;
    restart();
    game_connected(game);
    nick_now[a] = "alice", nick_now[b] = "bob", nick_now[c] = "carol", nick_now[d] = "dave";
    in_ring[a] = in_ring[c] = in_ring[d] = 1;
    in_ring[b] = 0;
    ck_assert_int_eq(game_challenge(game, &ca, b, "bob", RULES_BOXING, 0, NULL, NULL), 0);
    HAS("bob: say !accept or !decline within 5 minutes.\n");
    HAS("bob|live|alice challenged you in #ring: bout #1, boxing, 3 rounds, Rocky vs your "
        "Apollo. You have 5 minutes left");
    ck_assert_int_eq(game_challenge(game, &cc, d, "dave", RULES_BOXING, 0, NULL, NULL), 0);
    HAS("dave: say !accept or !decline within 5 minutes.\n");
    back("bob", b);
    back("dave", d);
    ck_assert_int_eq(count("challenged you"), 1);
}
END_TEST

Suite *restart_suite(void)
{
    Suite *s = suite_create("restart");
    TCase *tc = tcase_create("grace");

    tcase_add_checked_fixture(tc, setup, fixture_teardown);
    tcase_add_test(tc, test_deadline_waits_for_both);
    tcase_add_test(tc, test_grace_ends_without_him);
    tcase_add_test(tc, test_both_back_at_once);
    tcase_add_test(tc, test_every_bout_asked);
    tcase_add_test(tc, test_duel_waits_for_duellists);
    tcase_add_test(tc, test_duel_grace_ends);
    tcase_add_test(tc, test_short_grace_to_the_second);
    tcase_add_test(tc, test_no_grace_goes_on_at_once);
    tcase_add_test(tc, test_disconnected_hears_nobody);
    tcase_add_test(tc, test_told_under_last_nick);
    tcase_add_test(tc, test_quit_not_told_under_old_nick);
    tcase_add_test(tc, test_challenge_told_when_back);
    tcase_add_test(tc, test_challenge_never_told_to_the_nick);
    tcase_add_test(tc, test_challenge_told_elsewhere_at_once);
    suite_add_tcase(s, tc);
    return s;
}
