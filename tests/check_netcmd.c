/* check_netcmd.c - the commands that name a player, on a bot of one
 * network (libera) sharing its database with another's (oftc) (issue 29):
 * `challenge bob@oftc` is refused in one line until bouts between networks
 * exist, `fighters bob@oftc` lists his, `ban bob@oftc` is his own bot's to
 * do; a single bot (no network) answers word for word as before. */
#include "bot_fixture.h"

static struct bot bot;
static char dir[64];

static void setup(void)
{
    char err[256];

    bot_fixture_open(&bot, dir, "netcmd", 1000, 1000);
    ck_assert_int_eq(db_network_set(bot.db, "oftc"), DB_OK);
    ck_assert_int_eq(db_account_create(bot.db, "bob", "bob", "$y$x", 1, NULL), DB_OK);
    snprintf(bot.cfg.network, sizeof(bot.cfg.network), "libera");
    ck_assert_msg(accounts_network(bot.db, bot.cfg.network, err, sizeof(err)) == 0, "%s", err);
}

static void teardown(void)
{
    bot_fixture_close(&bot, dir);
}

/* Runs `text` from `nick` (in #ringside when chan, else private); what
 * the bot queued, lines joined by '\n' (static buffer). */
static const char *run(const char *nick, int chan, const char *text)
{
    static char out[8192];

    bot.now += USERS_RATE_WINDOW / USERS_RATE_CMDS + 0.1;
    cmd_dispatch(&bot, nick, chan ? "#ringside" : NULL, text);
    return bot_fixture_drain(&bot, bot.now + 1000, out, sizeof(out));
}

#define IS(text, want) ck_assert_msg(strcmp((text), (want)) == 0, "got: %s", (text))

START_TEST(test_challenge_elsewhere)
{
    users_join(bot.users, "ann", 0);
    run("ann", 0, "register annann11");
    run("ann", 0, "create Ada str=14 spd=12 agl=11 tgh=12 hgt=11");
    if (test_db_pg()) /* PostgreSQL: relayed (bot/relay.c) when oftc's bot runs */
        IS(run("ann", 1, "!challenge bob@oftc"),
           "PRIVMSG #ringside :ann: bob@oftc plays on oftc, and no bot of oftc is running: he "
           "would not hear of it; challenge him once it is back\n");
    else
        IS(run("ann", 1, "!challenge bob@oftc"),
           "PRIVMSG #ringside :ann: bob@oftc plays on oftc, and bouts between two networks need "
           "PostgreSQL (this bot's database is SQLite): challenge a player of libera, or join "
           "oftc and challenge bob there\n");
    IS(run("ann", 1, "!challenge bob@efnet"),
       "PRIVMSG #ringside :ann: there is no account bob@efnet: name@network names a player of "
       "another network by his account's name and his bot's [bot] network\n");
    /* Not on libera: bob is oftc's only. */
    IS(run("ann", 1, "!challenge bob"),
       "PRIVMSG #ringside :ann: no one called bob is here, and no account has that name; check "
       "the nick (/names #ringside lists who is here)\n");
    IS(run("ann", 1, "!fighters bob@oftc"),
       "PRIVMSG #ringside :ann: bob@oftc has no active fighters\n");
    IS(run("ann", 1, "!fighters ann@libera"),
       "PRIVMSG #ringside :ann: ann's fighters: Ada (boxing, 0-0-0)\n");
}
END_TEST

Suite *netcmd_suite(void)
{
    Suite *s = suite_create("netcmd");
    TCase *tc = tcase_create("netcmd");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_challenge_elsewhere);
    suite_add_tcase(s, tc);
    return s;
}
