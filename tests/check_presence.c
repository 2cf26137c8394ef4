/* check_presence.c - a live bout between two networks when the other
 * network's bot goes (issue 29): libera's bot runs erin's bout with
 * bob@oftc; while no bot of oftc is on IRC (io.away), bob is away as a
 * player who left: with [bout] rejoin_grace the bout waits for him, with
 * the words a restart's wait says, once each time he goes; it goes on
 * when his bot is back (his orders asked for again, none lost), or
 * without him once the grace has passed. Without a grace nothing waits.
 * Both backends: the bout is made in the database, as oftc's relayed
 * accept would make it. */
#include "game_fixture.h"

static const struct sheet boxer = {.rules = RULES_BOXING,
                                   .u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12}};

static int64_t erin, bob;
static int oftc_away; /* what io.away says of oftc */

static const char *net_nick_of(void *ctx, int64_t account_id)
{
    (void)ctx;
    if (account_id == erin)
        return "erin";
    return account_id == bob ? "bob@oftc" : NULL; /* as the bot's relay names him */
}

static int net_away(void *ctx, const char *network)
{
    (void)ctx;
    ck_assert_str_eq(network, "oftc"); /* never asked of its own network's players */
    return oftc_away;
}

/* The game as libera's bot runs it, with a grace of `grace` seconds,
 * connected; erin's bout with bob@oftc live (bob accepted on oftc). */
static void start(int grace)
{
    struct game_io nio = io;
    struct game_config ncfg = cfg;
    char err[256];

    nio.nick_of = net_nick_of;
    nio.away = net_away;
    ncfg.rejoin_grace = grace;
    game_free(game);
    game = game_new(db, &nio, &ncfg, err, sizeof(err));
    ck_assert_msg(game != NULL, "%s", err);
    game_connected(game);
    struct game_caller ce = caller("erin", erin, 1);
    struct game_caller cb = {.account_id = bob,
                             .account = "bob@oftc",
                             .nick = "bob@oftc",
                             .answer = answer,
                             .ctx = (void *)"bob@oftc"};
    ck_assert_int_eq(game_challenge(game, &ce, bob, "bob@oftc", RULES_BOXING, 3, "Rocky", "Iron"),
                     0);
    ck_assert_msg(game_answer(game, &cb, GAME_ACCEPT, NULL, 0) == 0, "%s", said.p);
    game_tick(game, NULL);
    hush();
}

static void setup(void)
{
    fixture_setup();
    oftc_away = 0;
    ck_assert_int_eq(db_network_set(db, "oftc"), DB_OK);
    bob = player("bob", "Iron", &boxer);
    ck_assert_int_eq(db_network_set(db, "libera"), DB_OK);
    erin = player("erin", "Rocky", &boxer);
}

static int count(const char *needle)
{
    int n = 0;

    for (const char *p = said.p; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static int round_now(void)
{
    struct db_bout rec;

    ck_assert_int_eq(db_bout_get(db, 1, &rec), DB_OK);
    return rec.round;
}

static void order_of(int64_t id, const char *who, const char *text)
{
    struct game_caller c = {
        .account_id = id, .account = who, .nick = who, .answer = answer, .ctx = (void *)who};

    ck_assert_msg(game_order(game, &c, NULL, text) == 0, "%s", said.p);
}

/* oftc's bot goes mid-round: the bout waits, erin's order stays; back, it
 * goes on, bob is asked again, his order fights the round. */
START_TEST(test_back_within_grace)
{
    start(30);
    order_of(erin, "erin", "5/5/10");
    hush();
    oftc_away = 1;
    game_tick(game, NULL);
    HAS("#ring|chatter|Bout #1, Rocky vs Iron, waits for bob@oftc to come back, until 22:13:50 "
        "UTC at the latest: round 1 of 3 is next.\n");
    HAS("erin|live|Bout #1, round 1 of 3: your orders for Rocky (e.g. 5H/8!/7 (inside)) within 1 "
        "minute; your orders for it are in already; the clock starts once bob@oftc is back. ");
    ck_assert_int_eq(count("bob@oftc|"), 0); /* nobody to tell on oftc */
    ck_assert_int_eq(count("\nbob|"), 0);    /* nor a nick "bob" here */
    clock_now += 20;
    wall_now += 20;
    game_tick(game, NULL);
    game_tick(game, NULL);
    ck_assert_int_eq(count("waits for bob@oftc"), 1); /* said once */
    ck_assert_int_eq(round_now(), 0);                 /* no clock runs */
    hush();
    oftc_away = 0;
    game_tick(game, NULL);
    HAS("#ring|chatter|Bout #1, Rocky vs Iron, goes on: round 1 of 3 is next.\n");
    HAS("bob@oftc|live|Bout #1, round 1 of 3: your orders for Iron");
    order_of(bob, "bob@oftc", "6/5/9");
    ck_assert_int_eq(round_now(), 1); /* erin's order was kept */
}
END_TEST

/* oftc's bot stays away: after the grace the bout goes on without bob (his
 * rounds fought at the deadline from his plan or last orders) and does not
 * wait again while he stays away; his bot back and gone again, it waits
 * again. */
START_TEST(test_grace_runs_out)
{
    start(30);
    oftc_away = 1;
    game_tick(game, NULL);
    HAS("waits for bob@oftc to come back, until 22:13:50 UTC at the latest");
    hush();
    clock_now += 31;
    wall_now += 31;
    game_tick(game, NULL);
    HAS("#ring|chatter|Bout #1, Rocky vs Iron, goes on without bob@oftc: round 1 of 3 is next.\n");
    hush();
    clock_now += 1;
    game_tick(game, NULL);
    ck_assert_int_eq(count("waits for"), 0);
    order_of(erin, "erin", "5/5/10");
    clock_now += 61;
    wall_now += 61;
    game_tick(game, NULL);
    ck_assert_int_eq(round_now(), 1); /* bob's side from the default */
    ck_assert_int_eq(count("waits for"), 0);
    oftc_away = 0;
    game_tick(game, NULL);
    hush();
    oftc_away = 1;
    game_tick(game, NULL);
    HAS("#ring|chatter|Bout #1, Rocky vs Iron, waits for bob@oftc to come back, until ");
}
END_TEST

/* libera's bot restarted while oftc's is down: the bout waits for bob@oftc
 * as for any player not back, in the one line a restart says, and not a
 * second time once the grace has passed. */
START_TEST(test_restart_while_away)
{
    struct game_io nio = io;
    struct game_config ncfg = cfg;
    char err[256];

    start(30);
    oftc_away = 1;
    nio.nick_of = net_nick_of;
    nio.away = net_away;
    ncfg.rejoin_grace = 30;
    game_free(game);
    game = game_new(db, &nio, &ncfg, err, sizeof(err));
    ck_assert_msg(game != NULL, "%s", err);
    game_connected(game);
    HAS("#ring|chatter|Bout #1, Rocky vs Iron, waits for bob@oftc to come back, until 22:13:50 "
        "UTC at the latest: round 1 of 3 is next.\n");
    game_tick(game, NULL);
    ck_assert_int_eq(count("waits for"), 1);
    clock_now += 31;
    wall_now += 31;
    game_tick(game, NULL);
    HAS("goes on without bob@oftc: round 1 of 3 is next.\n");
    game_tick(game, NULL);
    ck_assert_int_eq(count("waits for"), 1);
}
END_TEST

/* Without a grace nothing waits: the bout goes on at its deadline. */
START_TEST(test_no_grace)
{
    start(0);
    oftc_away = 1;
    game_tick(game, NULL);
    ck_assert_int_eq(count("waits for"), 0);
    order_of(erin, "erin", "5/5/10");
    clock_now += 61;
    game_tick(game, NULL);
    ck_assert_int_eq(round_now(), 1);
}
END_TEST

Suite *presence_suite(void)
{
    Suite *s = suite_create("presence");
    TCase *tc = tcase_create("presence");

    tcase_add_checked_fixture(tc, setup, fixture_teardown);
    tcase_add_test(tc, test_back_within_grace);
    tcase_add_test(tc, test_grace_runs_out);
    tcase_add_test(tc, test_restart_while_away);
    tcase_add_test(tc, test_no_grace);
    suite_add_tcase(s, tc);
    return s;
}
