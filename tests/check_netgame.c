/* check_netgame.c - how the game names the players of several networks
 * (issue 29): a bot on libera sharing its database with oftc's. Its own
 * players by their names, word for word as a single bot says them; oftc's
 * as name@network, in a fighter's card, a player's list, the champion's
 * line and the standings. name@network finds another network's player;
 * what only his own network's bot may do (ban him, and for now any bout
 * with him) is refused in one line that says what to do instead. */
#include "game_fixture.h"

#define ONE(needle)                                                                                \
    do {                                                                                           \
        HAS(needle);                                                                               \
        ck_assert_msg(strchr(said.p, '\n') == said.p + strlen(said.p) - 1,                         \
                      "more than one line:\n%s", said.p);                                          \
    } while (0)

static const struct sheet boxer = {.rules = RULES_BOXING,
                                   .u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12}};

/* erin plays on libera (the bot's network), bob on oftc; each has a
 * fighter: Rocky, Iron. */
static int64_t erin, bob;

static void setup(void)
{
    fixture_setup();
    ck_assert_int_eq(db_network_set(db, "oftc"), DB_OK);
    bob = player("bob", "Iron", &boxer);
    ck_assert_int_eq(db_network_set(db, "libera"), DB_OK);
    erin = player("erin", "Rocky", &boxer);
    hush();
}

START_TEST(test_names)
{
    struct game_caller ce = caller("erin", erin, 1);
    struct db_fighter f;
    char key[] = "iron";

    ck_assert_int_eq(db_fighter_get(db, key, &f), DB_OK);
    ck_assert_str_eq(f.owner_network, "oftc");
    ck_assert_int_eq(game_fighter_show(game, &ce, &f), 0);
    HAS("erin|answer|Iron (boxing, bob@oftc): STR 12 SPD 12 AGL 12 TGH 12 HGT 12; record 0-0-0");
    hush();
    ck_assert_int_eq(game_fighter_show(game, &ce, NULL), 0);
    HAS("erin|answer|Rocky (boxing, erin): STR 12");

    hush();
    ck_assert_int_eq(game_fighters(game, &ce, "bob@oftc"), 0);
    ONE("erin|answer|bob@oftc's fighters: Iron (boxing, 0-0-0)\n");
    hush();
    ck_assert_int_eq(game_fighters(game, &ce, "BOB@OFTC"), 0);
    ONE("erin|answer|bob@oftc's fighters: Iron (boxing, 0-0-0)\n");
    hush();
    ck_assert_int_eq(game_fighters(game, &ce, "erin@libera"), 0);
    ONE("erin|answer|erin's fighters: Rocky (boxing, 0-0-0)\n");
    hush();
    ck_assert_int_eq(game_fighters(game, &ce, "bob"), -1);
    ONE("erin|answer|there is no account bob\n");
    hush();
    ck_assert_int_eq(game_fighters(game, &ce, "bob@efnet"), -1);
    ONE("erin|answer|there is no account bob@efnet\n");
    hush();
    ck_assert_int_eq(game_fighters(game, &ce, "bob@"), -1);
    ONE("erin|answer|there is no account bob@\n");

    /* The standings of BRONZE, where both are; then the champion (who is
     * in no league). */
    hush();
    ck_assert_int_eq(game_standings(game, &ce, RULES_BOXING, LEAGUE_BRONZE), 0);
    HAS("(bob@oftc) 0-0-0 gold 0");
    HAS("(erin) 0-0-0 gold 0");
    ck_assert_int_eq(db_champion_set(db, RULES_BOXING, f.id, 2, 5), DB_OK);
    hush();
    ck_assert_int_eq(game_champion(game, &ce, RULES_BOXING), 0);
    ONE("erin|answer|International Champion (boxing): Iron (bob@oftc), 0-0-0, 2 successful "
        "defences\n");
}
END_TEST

/* Another network's player: not banned from here, not challenged yet. */
START_TEST(test_refusals)
{
    struct game_caller ce = caller("erin", erin, 1);
    struct db_account acc;

    ck_assert_int_eq(game_account_find(game, "bob@oftc", &acc), 0);
    ck_assert_str_eq(acc.network, "oftc");
    ck_assert_int_eq(game_ban(game, &ce, &acc, 1), -1);
    ONE("erin|answer|bob@oftc plays on oftc: only the bot of oftc can ban him\n");
    ck_assert_int_eq(db_account_get_on(db, "oftc", "bob", &acc), DB_OK);
    ck_assert_int_eq(acc.banned, 0);
    hush();
    if (test_db_pg()) { /* PostgreSQL: his bot would relay the bout, but none runs */
        ck_assert_int_eq(game_account_here(game, &ce, &acc, "challenge"), -1);
        ONE("erin|answer|bob@oftc plays on oftc, and no bot of oftc is running: he would not "
            "hear of it; challenge him once it is back\n");
    } else {
        ck_assert_int_eq(game_account_here(game, &ce, &acc, "challenge"), -1);
        ONE("erin|answer|bob@oftc plays on oftc, and bouts between two networks need PostgreSQL "
            "(this bot's database is SQLite): challenge a player of libera, or join oftc and "
            "challenge bob there\n");
    }
    hush();
    ck_assert_int_eq(game_account_find(game, "erin", &acc), 0);
    ck_assert_int_eq(game_account_here(game, &ce, &acc, "challenge"), 0);
    ck_assert_str_eq(said.p ? said.p : "", "");
}
END_TEST

/* A bot resumes at start only its own network's challenges and live
 * bouts: oftc's bot runs oftc's. The bout made here is libera's. */
START_TEST(test_own_bouts)
{
    struct db_bout bt;
    struct db_fighter iron, rocky;
    char k1[] = "iron", k2[] = "rocky";

    ck_assert_int_eq(db_fighter_get(db, k1, &iron), DB_OK);
    ck_assert_int_eq(db_fighter_get(db, k2, &rocky), DB_OK);
    memset(&bt, 0, sizeof(bt));
    bt.rules = RULES_BOXING;
    snprintf(bt.channel, sizeof(bt.channel), "#ring");
    bt.rounds = 3;
    bt.state = DB_BOUT_CHALLENGE;
    bt.fighter[0] = rocky.id;
    bt.fighter[1] = iron.id;
    bt.sheet[0] = bt.sheet[1] = boxer;
    bt.league = -1;
    bt.winner = -1;
    bt.created = wall_now;
    ck_assert_int_eq(db_network_set(db, "oftc"), DB_OK);
    ck_assert_int_eq(db_bout_create(db, &bt), DB_OK);

    /* libera's bot starts again: no bout of its own. */
    game_free(game);
    ck_assert_int_eq(db_network_set(db, "libera"), DB_OK);
    start_game();
    ck_assert_int_eq(game_fighter_busy(game, iron.id), 0);
    /* oftc's bot starts: it has the challenge. */
    game_free(game);
    ck_assert_int_eq(db_network_set(db, "oftc"), DB_OK);
    start_game();
    ck_assert_int_eq(game_fighter_busy(game, iron.id), 1);
}
END_TEST

/* Account id's challenges counted on `day` (migration 23). */
static int64_t challenges_on(int64_t id, int64_t day)
{
    char sql[160];

    snprintf(sql, sizeof(sql),
             "SELECT CASE WHEN challenges_day = %lld THEN challenges ELSE 0 END FROM accounts"
             " WHERE id = %lld",
             (long long)day, (long long)id);
    struct dbs *q = dbs_prepare(db, sql);
    ck_assert_msg(q != NULL, "%s", db_errmsg(db));
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    int64_t n = dbs_col_int64(q, 0);
    dbs_free(q);
    return n;
}

/* A challenge between two networks counts once, on the challenger's
 * account, by his own bot (which stores and runs the bout): the answer
 * his opponent's bot relays (run here, as bot/relay.c runs it), and the
 * other bot's start, count nothing. */
START_TEST(test_challenge_counted_once)
{
    struct game_caller ce = caller("erin", erin, 1), cb = caller("bob", bob, 1);
    int64_t day = wall_now / 86400;

    /* libera's bot: erin challenges bob@oftc, bob declines (relayed). */
    ck_assert_int_eq(game_challenge(game, &ce, bob, "bob@oftc", RULES_BOXING, 0, NULL, NULL), 0);
    ck_assert_int_eq(game_answer(game, &cb, GAME_DECLINE, NULL, 0), 0);
    ck_assert_int_eq(challenges_on(erin, day), 1);
    ck_assert_int_eq(challenges_on(bob, day), 0);
    /* oftc's bot: it starts (libera's cancelled challenge is not its own),
     * then bob challenges erin@libera, who declines. */
    game_free(game);
    ck_assert_int_eq(db_network_set(db, "oftc"), DB_OK);
    start_game();
    ck_assert_int_eq(challenges_on(bob, day), 0);
    ck_assert_int_eq(game_challenge(game, &cb, erin, "erin@libera", RULES_BOXING, 0, NULL, NULL),
                     0);
    ck_assert_int_eq(game_answer(game, &ce, GAME_DECLINE, NULL, 0), 0);
    ck_assert_int_eq(challenges_on(erin, day), 1);
    ck_assert_int_eq(challenges_on(bob, day), 1);
    struct dbs *q = dbs_prepare(db, "SELECT count(*) FROM bouts");
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    ck_assert_int_eq(dbs_col_int64(q, 0), 2);
    dbs_free(q);
}
END_TEST

Suite *netgame_suite(void)
{
    Suite *s = suite_create("netgame");
    TCase *tc = tcase_create("netgame");

    tcase_add_checked_fixture(tc, setup, fixture_teardown);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_refusals);
    tcase_add_test(tc, test_own_bouts);
    tcase_add_test(tc, test_challenge_counted_once);
    suite_add_tcase(s, tc);
    return s;
}
