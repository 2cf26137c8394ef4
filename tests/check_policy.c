/* check_policy.c - what the bot does for the networks' policies (issue
 * 27): the keys of its configuration, where answers go ([bot] replies),
 * and the rules a large network sets, run through cmd_dispatch against a
 * real SQLite file with the replies read back from the real output queue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"
#include "bot_fixture.h"
#include "tests.h"

#define VERSION_TEXT                                                                               \
    "Ringside " RINGSIDE_VERSION ", an IRC boxing bot (rules: boxing, sugarray, duel)"
#define HAS(text, needle) ck_assert_msg(strstr((text), (needle)) != NULL, "%s", (text))

static struct bot bot;
static char dir[64];

static void bot_setup(void)
{
    bot_fixture_open(&bot, dir, "policy", 1000, 1000);
}

static void bot_teardown(void)
{
    bot_fixture_close(&bot, dir);
}

/* What the bot queued so far, joined by '\n' (static buffer). */
static const char *queued(void)
{
    static char out[8192];

    return bot_fixture_drain(&bot, bot.now + 1000, out, sizeof(out));
}

/* Runs `text` from `nick` in #ringside (chan) or in private; returns
 * every line the bot queued. */
static const char *run(const char *nick, int chan, const char *text)
{
    bot.now += USERS_RATE_WINDOW / USERS_RATE_CMDS + 0.1;
    users_join(bot.users, nick, 0);
    cmd_dispatch(&bot, nick, chan ? "#ringside" : NULL, text);
    return queued();
}

#define EXPECT_CONFIG_ERR(text, want)                                                              \
    do {                                                                                           \
        struct config c_;                                                                          \
        char err_[CONFIG_ERR_MAX];                                                                 \
        ck_assert_int_eq(config_parse(&c_, (text), "t.conf", err_, sizeof(err_)), -1);             \
        ck_assert_str_eq(err_, (want));                                                            \
    } while (0)

/* The keys: their defaults, their values, and bad values refused. */
START_TEST(test_policy_keys)
{
    struct config c;
    char err[CONFIG_ERR_MAX];

    config_defaults(&c);
    ck_assert_int_eq(c.replies, REPLIES_CHANNEL);
    ck_assert_int_eq(c.join_on_invite, 0);
    ck_assert_int_eq(config_parse(&c, "[bot]\nreplies = Notice\n[irc]\njoin_on_invite = yes\n",
                                  "t.conf", err, sizeof(err)),
                     0);
    ck_assert_int_eq(c.replies, REPLIES_NOTICE);
    ck_assert_int_eq(c.join_on_invite, 1);
    ck_assert_int_eq(config_parse(&c, "[bot]\nreplies = private\n", "t.conf", err, sizeof(err)), 0);
    ck_assert_int_eq(c.replies, REPLIES_PRIVATE);
    EXPECT_CONFIG_ERR("[bot]\nreplies = quiet\n",
                      "t.conf:2: replies \"quiet\" is not channel, notice or private");
    EXPECT_CONFIG_ERR("[irc]\njoin_on_invite = maybe\n",
                      "t.conf:2: join_on_invite \"maybe\" is not a boolean (yes/no, true/false, "
                      "on/off, 1/0)");
}
END_TEST

/* [bot] replies: a short answer said in a channel goes there (channel),
 * to him by NOTICE (notice) or in private (private); a long one goes to
 * him in private, with a line in the channel only under channel. */
START_TEST(test_replies_where)
{
    ck_assert_str_eq(run("ann", 1, "!version"), "PRIVMSG #ringside :ann: " VERSION_TEXT "\n");
    bot.cfg.replies = REPLIES_NOTICE;
    ck_assert_str_eq(run("ann", 1, "!version"), "NOTICE ann :" VERSION_TEXT "\n");
    ck_assert_str_eq(run("ann", 0, "version"), "PRIVMSG ann :" VERSION_TEXT "\n");
    HAS(run("ann", 1, "!help"), "NOTICE ann :commands: help version ");
    const char *out = run("ann", 1, "!armoury");
    ck_assert_ptr_null(strstr(out, "#ringside"));
    ck_assert_ptr_null(strstr(out, "NOTICE"));
    HAS(out, "PRIVMSG ann :");
    bot.cfg.replies = REPLIES_PRIVATE;
    ck_assert_str_eq(run("ann", 1, "!version"), "PRIVMSG ann :" VERSION_TEXT "\n");
    bot.cfg.replies = REPLIES_CHANNEL;
    out = run("ann", 1, "!armoury");
    HAS(out, "PRIVMSG #ringside :ann: the answer to !armoury is 15 lines; sent to you in private.");
}
END_TEST

/* [bridge] keys: the relays' nicks, the pattern, and what is refused. */
START_TEST(test_bridge_keys)
{
    struct config c;
    char err[CONFIG_ERR_MAX];

    config_defaults(&c);
    ck_assert_str_eq(c.relay_format, "<nick> text");
    ck_assert_int_eq(c.nrelays, 0);
    ck_assert_int_eq(config_parse(&c,
                                  "[bridge]\nrelay_nicks = mb, discord-relay\n"
                                  "relay_format = [m] nick: text\n",
                                  "t.conf", err, sizeof(err)),
                     0);
    ck_assert_int_eq(c.nrelays, 2);
    ck_assert_str_eq(c.relay_nicks[1], "discord-relay");
    ck_assert_str_eq(c.relay_format, "[m] nick: text");
    EXPECT_CONFIG_ERR("[bridge]\nrelay_nicks = mb,,x\n",
                      "t.conf:2: relay_nicks: an empty nick in the list (nicks are separated by "
                      "commas, like \"matterbridge, discord-relay\")");
    EXPECT_CONFIG_ERR("[bridge]\nrelay_nicks = 9lives\n",
                      "t.conf:2: relay_nicks: \"9lives\" is not a valid nick (a letter or one of "
                      "[]\\`_^{|} first, then letters, digits, those or -; at most 30 bytes)");
    EXPECT_CONFIG_ERR("[bridge]\nrelay_format = <name> text\n",
                      "t.conf:2: relay_format \"<name> text\" must hold the words nick and text "
                      "once each, like \"<nick> text\"");
    EXPECT_CONFIG_ERR("[bridge]\nrelay_format = text <nick>\n",
                      "t.conf:2: relay_format \"text <nick>\" must end with the word text, after "
                      "the word nick, like \"<nick> text\"");
    EXPECT_CONFIG_ERR("[bridge]\nrelay_format = nicktext\n",
                      "t.conf:2: relay_format \"nicktext\" needs something between nick and "
                      "text, like \"<nick> text\"");
    EXPECT_CONFIG_ERR("[bridge]\nrelay_format =\n", "t.conf:2: relay_format must not be empty");
}
END_TEST

/* A relay's lines read with the pattern: the name without formatting or
 * zero-width characters, the text after it; the relay's own words are
 * nobody's. */
START_TEST(test_bridge_parse)
{
    char nick[32];
    const char *text = NULL;

    ck_assert_int_eq(bridge_parse("<nick> text", "<alice> !standings", nick, sizeof(nick), &text),
                     1);
    ck_assert_str_eq(nick, "alice");
    ck_assert_str_eq(text, "!standings");
    ck_assert_int_eq(
        bridge_parse("<nick> text", "<\002a\xe2\x80\x8blice\002>   !score 3", nick, 32, &text), 1);
    ck_assert_str_eq(nick, "alice");
    ck_assert_str_eq(text, "!score 3");
    ck_assert_int_eq(bridge_parse("<nick> text", "<\00312,04bob\003> hi", nick, 32, &text), 1);
    ck_assert_str_eq(nick, "bob");
    ck_assert_int_eq(bridge_parse("[m] nick: text", "[m] carol: !help", nick, 32, &text), 1);
    ck_assert_str_eq(nick, "carol");
    ck_assert_str_eq(text, "!help");
    ck_assert_int_eq(bridge_parse("<nick> text", "alice joined the bridge", nick, 32, &text), 0);
    ck_assert_int_eq(bridge_parse("<nick> text", "<> !standings", nick, 32, &text), 0);
    ck_assert_int_eq(bridge_parse("<nick> text", "<alice> ", nick, 32, &text), 0);
    ck_assert_int_eq(bridge_parse("<nick> text", "<al ice> x", nick, 32, &text), 0);
    ck_assert_int_eq(
        bridge_parse("<nick> text", "<abcdefghijklmnopqrstuvwxyzabcdefgh> x", nick, 32, &text), 0);
}
END_TEST

/* A bridged name's command, as irc.c hands it on: answered in the
 * channel addressed to him, whatever [bot] replies says; the commands
 * that need an account say how to play; nobody's identity is taken. */
START_TEST(test_bridge_dispatch)
{
    bot.cfg.replies = REPLIES_NOTICE;
    bot.relay = "mb";
    ck_assert_str_eq(run("alice", 1, "!version"), "PRIVMSG #ringside :alice: " VERSION_TEXT "\n");
    ck_assert_str_eq(run("alice", 1, "!create Rocky str=14 spd=12 agl=12 tgh=12 hgt=10"),
                     "PRIVMSG #ringside :alice: create works only from IRC, where I can tell who "
                     "you are: join #ringside with an IRC client (through a bridge you can use "
                     "!standings, fighter, score, bouts, report and help)\n");
    ck_assert_str_eq(run("alice", 1, "!armoury"),
                     "PRIVMSG #ringside :alice: armoury works only from IRC, where I can tell who "
                     "you are: join #ringside with an IRC client (through a bridge you can use "
                     "!standings, fighter, score, bouts, report and help)\n");
    HAS(run("alice", 1, "!standings"), "PRIVMSG #ringside :alice: ");
    bot.relay = NULL;
    /* alice on IRC, identified: a bridged "alice" is still nobody. */
    ck_assert_ptr_nonnull(strstr(run("alice", 0, "register alicepw1"), "registered"));
    bot.relay = "mb";
    HAS(run("alice", 1, "!fighter"), "PRIVMSG #ringside :alice: ");
    ck_assert_str_eq(run("alice", 1, "!retire"),
                     "PRIVMSG #ringside :alice: retire works only from IRC, where I can tell who "
                     "you are: join #ringside with an IRC client (through a bridge you can use "
                     "!standings, fighter, score, bouts, report and help)\n");
    bot.relay = NULL;
}
END_TEST

/* Bot mode: the server's letter read from ISUPPORT (past the dozen
 * parameters libircclient keeps), the flags of a WHOX answer, and the
 * set of nicks marked as bots, whose commands are never run. */
START_TEST(test_bot_mode)
{
    struct config cfg;
    char buf[1024];

    config_defaults(&cfg);
    struct conn *c = conn_offline(&cfg);
    ck_assert_int_eq(conn_has_cap(c, "BOT"), 0);
    const char *isupport = ":srv 005 me A B C D E F G H I J K L M N WHOX BOT=B :are supported\r\n";
    ck_assert_uint_eq(conn_feed(c, isupport, strlen(isupport)), strlen(isupport));
    conn_take(c, 0, buf, sizeof(buf));
    ck_assert_int_eq(conn_has_cap(c, "BOT"), 'B');
    ck_assert_int_eq(conn_has_cap(c, "WHOX"), 1);
    conn_close(c);

    struct botmode_seen seen;
    const char *who[] = {"ringside", "355", "Sopel", "H*B"};
    ck_assert_int_eq(botmode_parse_who(who, 4, "355", 'B', &seen), 1);
    ck_assert_str_eq(seen.nick, "Sopel");
    ck_assert_int_eq(seen.is_bot, 1);
    const char *person[] = {"ringside", "355", "ann", "H"};
    ck_assert_int_eq(botmode_parse_who(person, 4, "355", 'B', &seen), 1);
    ck_assert_int_eq(seen.is_bot, 0);
    const char *account[] = {"ringside", "354", "ann", "ann"};
    ck_assert_int_eq(botmode_parse_who(account, 4, "355", 'B', &seen), 0);
    ck_assert_int_eq(botmode_parse_who(who, 4, "355", 0, &seen), 0);

    botmode_mark(&bot, "Sopel", 1);
    ck_assert_int_eq(botmode_is(&bot, "sopel"), 1);
    botmode_rename(&bot, "Sopel", "Sopel2");
    ck_assert_int_eq(botmode_is(&bot, "Sopel"), 0);
    ck_assert_int_eq(botmode_is(&bot, "SOPEL2"), 1);
    botmode_mark(&bot, "Sopel2", 0);
    ck_assert_int_eq(botmode_is(&bot, "Sopel2"), 0);
    for (int i = 0; i < BOTMODE_MAX + 3; i++) {
        char nick[16];
        snprintf(nick, sizeof(nick), "bot%d", i);
        botmode_mark(&bot, nick, 1);
    }
    ck_assert_int_eq(botmode_is(&bot, "bot34"), 1);
    botmode_reset(&bot);
    ck_assert_int_eq(botmode_is(&bot, "bot34"), 0);
}
END_TEST

/* Channels joined on invites, kept in the database; part: only a channel
 * operator (or an admin), never for a channel of the configuration; it
 * leaves and forgets the channel. */
START_TEST(test_part)
{
    char names[4][DB_CHANNEL_MAX];

    ck_assert_int_eq(db_channel_add(bot.db, "#ringside", "boss"), 0);
    ck_assert_int_eq(db_channel_add(bot.db, "#ringside", "boss"), 0);
    ck_assert_int_eq(db_channel_add(bot.db, "#other", "boss"), 0);
    ck_assert_int_eq(db_channel_list(bot.db, names, 4), 2);
    bot.chan_invited[0] = 1;
    ck_assert_str_eq(run("ann", 1, "!part"),
                     "PRIVMSG #ringside :ann: part is for this channel's operators (and my admins) "
                     "only\n");
    const char *mode[] = {"#ringside", "+vo-b+l", "ann", "op", "*!*@x", "20"};
    chanops_mode(&bot, 0, mode, 6);
    ck_assert_int_eq(chanops_is(&bot, 0, "OP"), 1);
    ck_assert_int_eq(chanops_is(&bot, 0, "ann"), 0);
    bot.cfg.nchannels = 1;
    snprintf(bot.cfg.channels[0], sizeof(bot.cfg.channels[0]), "#RingSide");
    ck_assert_str_eq(run("op", 1, "!part"),
                     "PRIVMSG #ringside :op: #ringside is in my configuration: my operator must "
                     "take it out of [irc] channels (the file, then a reload)\n");
    bot.cfg.nchannels = 0;
    ck_assert_str_eq(run("op", 1, "!part"), "PART #ringside :op asked me to leave\n");
    ck_assert_int_eq(bot_chan_find(&bot, "#ringside"), -1);
    ck_assert_int_eq(chanops_is(&bot, 0, "op"), 0);
    ck_assert_int_eq(db_channel_list(bot.db, names, 4), 1);
    ck_assert_str_eq(names[0], "#other");
    chanops_free(&bot);
}
END_TEST

/* The example for a large network loads, and asks what the policies
 * ask: a realname naming the operator, invites, a quiet channel. */
START_TEST(test_large_network_example)
{
    struct config c;
    char err[CONFIG_ERR_MAX] = "";

    int rc = config_load(&c, "config/large-network.conf.example", err, sizeof(err));
    ck_assert_msg(rc == 0, "%s", err);
    ck_assert_int_eq(c.join_on_invite, 1);
    ck_assert_int_eq(c.replies, REPLIES_NOTICE);
    ck_assert_int_eq(c.tls, 1);
    ck_assert_ptr_nonnull(strstr(c.realname, "run by "));
}
END_TEST

/* At most three different nicks of people present highlight in one line
 * to a channel; the others get a zero-width space; private lines and
 * words nobody uses as a nick are left alone. */
START_TEST(test_highlight_cap)
{
    const char *nicks[] = {"ann", "bob", "cy", "dee", "eve"};
    struct str out;

    for (int i = 0; i < 5; i++)
        users_join(bot.users, nicks[i], 0);
    bot_highlight_cap(&bot, "#ringside", "owners: ann, bob, ann, cy, dee and Eve (ringside, zed)",
                      &out);
    ck_assert_str_eq(out.p, "owners: ann, bob, ann, cy, d\xe2\x80\x8b"
                            "ee and E\xe2\x80\x8bve (ringside, zed)");
    str_free(&out);
    bot_highlight_cap(&bot, "ann", "ann bob cy dee eve", &out);
    ck_assert_str_eq(out.p, "ann bob cy dee eve");
    str_free(&out);
    bot_msg(&bot, OUTQ_REPLY, "#ringside", NULL, "ann bob cy dee");
    ck_assert_str_eq(queued(), "PRIVMSG #ringside :ann bob cy d\xe2\x80\x8b"
                               "ee\n");
}
END_TEST

Suite *policy_suite(void)
{
    Suite *s = suite_create("policy");
    TCase *tc = tcase_create("policy");

    tcase_add_checked_fixture(tc, bot_setup, bot_teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_policy_keys);
    tcase_add_test(tc, test_replies_where);
    tcase_add_test(tc, test_bridge_keys);
    tcase_add_test(tc, test_bridge_parse);
    tcase_add_test(tc, test_bridge_dispatch);
    tcase_add_test(tc, test_bot_mode);
    tcase_add_test(tc, test_part);
    tcase_add_test(tc, test_large_network_example);
    tcase_add_test(tc, test_highlight_cap);
    suite_add_tcase(s, tc);
    return s;
}
