/* check_cmd.c - the command layer without a server: line parsing, the
 * table's own consistency, identities (users.c), passwords (auth.c), and
 * whole commands run through cmd_dispatch against a real SQLite file, with
 * the replies read back from the real output queue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"
#include "bot_fixture.h"
#include "tests.h"

/* ------------------------------------------------------------ parsing */

START_TEST(test_parse_channel_needs_prefix)
{
    struct cmd_line l;

    ck_assert_int_eq(cmd_parse("hello there", "!", 0, &l), 0);
    ck_assert_int_eq(cmd_parse("!HELP create", "!", 0, &l), 1);
    ck_assert_int_eq(l.argc, 2);
    ck_assert_str_eq(l.argv[0], "help");
    ck_assert_str_eq(l.argv[1], "create");
    ck_assert_int_eq(cmd_parse("  !version  ", "!", 0, &l), 1);
    ck_assert_str_eq(l.argv[0], "version");
    ck_assert_int_eq(cmd_parse("!", "!", 0, &l), 0);
}
END_TEST

START_TEST(test_parse_private_prefix_optional)
{
    struct cmd_line l;

    ck_assert_int_eq(cmd_parse("help", "!", 1, &l), 1);
    ck_assert_str_eq(l.argv[0], "help");
    ck_assert_int_eq(cmd_parse("!help", "!", 1, &l), 1);
    ck_assert_str_eq(l.argv[0], "help");
    ck_assert_int_eq(cmd_parse("   ", "!", 1, &l), 0);
    /* Tabs separate words too. */
    ck_assert_int_eq(cmd_parse("create\tRocky\tstr=12", "!", 1, &l), 1);
    ck_assert_int_eq(l.argc, 3);
    ck_assert_str_eq(l.argv[2], "str=12");
}
END_TEST

START_TEST(test_parse_too_many_words)
{
    struct cmd_line l;
    char text[400] = "x";

    for (int i = 0; i < CMD_ARGS_MAX; i++)
        strcat(text, " a");
    ck_assert_int_eq(cmd_parse(text, "!", 1, &l), 1);
    ck_assert_int_eq(l.argc, CMD_ARGS_MAX + 1);
    strcat(text, " a");
    ck_assert_int_eq(cmd_parse(text, "!", 1, &l), -1);
    ck_assert_int_eq(l.argc, 0);
}
END_TEST

START_TEST(test_table_consistent)
{
    int n = 0;

    for (int i = 0; cmd_table[i]; i++, n++) {
        const struct cmd_entry *e = cmd_table[i];
        ck_assert_ptr_nonnull(e->exec);
        ck_assert_ptr_nonnull(e->usage);
        ck_assert(e->help && strlen(e->help) > 10);
        ck_assert(e->args_max < 0 || e->args_max >= e->args_min);
        ck_assert(e->where == CMD_CHANNEL || e->where == CMD_PRIVATE || e->where == CMD_ANYWHERE);
        ck_assert_ptr_eq(cmd_find(e->name), e);
        /* Commands that carry passwords are private-only. */
        if (e->secret)
            ck_assert_int_eq(e->where, CMD_PRIVATE);
        /* A command taking a bout declares it: no handler looks one up. */
        if (strstr(e->usage, "#bout"))
            ck_assert_msg(e->target == TARGET_BOUT || e->target == TARGET_OPEN_BOUT ||
                              e->target == TARGET_LIVE_BOUT || e->target == TARGET_MY_BOUT ||
                              e->target == TARGET_MY_BOUT_FIRST ||
                              /* a challenge named by its challenger or its number */
                              (e->target == TARGET_NICK && strstr(e->usage, "nick|#bout")),
                          "%s: no bout target", e->name);
        for (int j = 0; j < i; j++)
            ck_assert_str_ne(cmd_table[j]->name, e->name);
    }
    ck_assert_int_ge(n, 13);
    ck_assert_ptr_eq(cmd_find("login"), cmd_find("identify"));
    ck_assert_ptr_null(cmd_find("nosuch"));
}
END_TEST

START_TEST(test_clip_keeps_characters_whole)
{
    char buf[16];

    /* "Ж" is two bytes: a cut after 5 bytes keeps two of them whole. */
    ck_assert_str_eq(text_clip(buf, sizeof(buf), "\xd0\x96\xd0\x96\xd0\x96", 5),
                     "\xd0\x96\xd0\x96");
    ck_assert_str_eq(text_clip(buf, sizeof(buf), "abc", 5), "abc");
    ck_assert_str_eq(text_clip(buf, sizeof(buf), "abcdefghijklmnopqrstuvwxyz", 40),
                     "abcdefghijklmno");
    ck_assert_str_eq(CLIP("x\xe2\x82\xac\xe2\x82\xac", 3), "x");
    ck_assert_str_eq(CLIP("x\xe2\x82\xac\xe2\x82\xac", 4), "x\xe2\x82\xac");
}
END_TEST

/* The game keys names as the bot does (RFC 1459 folding, whatever the
 * server's case mapping). */
START_TEST(test_name_keys_agree)
{
    static const char *const names[] = {"Alice", "[Bob]", "c\\d~e^", "{x}|y", "ZZ_top-2"};
    char a[DB_NAME_MAX], b[DB_NAME_MAX];

    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        bot_name_key(a, names[i], sizeof(a));
        game_name_key(b, names[i], sizeof(b));
        ck_assert_str_eq(a, b);
    }
}
END_TEST

/* ------------------------------------------------------------ identities */

START_TEST(test_users_identity_lifecycle)
{
    struct users *u = users_new();
    int64_t id;
    const char *acc;

    users_join(u, "Alice", 0);
    users_join(u, "Alice", 1);
    ck_assert_int_eq(users_present(u, "alice"), 1);
    users_login(u, "Alice", 7, "alice");
    ck_assert_int_eq(users_account(u, "ALICE", &id, &acc), 1);
    ck_assert_int_eq(id, 7);
    ck_assert_str_eq(acc, "alice");
    /* Leaving one of two shared channels keeps the identity... */
    ck_assert_int_eq(users_part(u, "alice", 0), 0);
    ck_assert_int_eq(users_account(u, "alice", NULL, NULL), 1);
    /* ... and it follows a nick change ... */
    users_rename(u, "alice", "alice_away");
    ck_assert_int_eq(users_account(u, "alice", NULL, NULL), 0);
    ck_assert_int_eq(users_account(u, "alice_away", &id, NULL), 1);
    /* ... and ends with the last shared channel. */
    ck_assert_int_eq(users_part(u, "alice_away", 1), 1);
    ck_assert_int_eq(users_account(u, "alice_away", NULL, NULL), 0);
    users_free(u);
}
END_TEST

START_TEST(test_users_quit_reset_ban_kick)
{
    struct users *u = users_new();

    users_join(u, "bob", 0);
    users_login(u, "bob", 1, "bob");
    ck_assert_int_eq(users_quit(u, "bob"), 1);
    ck_assert_int_eq(users_account(u, "bob", NULL, NULL), 0);
    /* Someone else taking the nick inherits nothing. */
    users_join(u, "bob", 0);
    ck_assert_int_eq(users_account(u, "bob", NULL, NULL), 0);

    users_login(u, "bob", 1, "bob");
    users_join(u, "carol", 0);
    users_login(u, "carol", 1, "bob"); /* the same account twice */
    ck_assert_int_eq(users_logout_account(u, 1), 2);
    ck_assert_int_eq(users_account(u, "carol", NULL, NULL), 0);

    users_login(u, "carol", 2, "carol");
    ck_assert_int_eq(users_chan_gone(u, 0), 1); /* the bot was kicked */
    ck_assert_int_eq(users_account(u, "carol", NULL, NULL), 0);

    users_join(u, "dave", 3);
    users_login(u, "dave", 3, "dave");
    users_reset(u); /* a reconnect */
    ck_assert_int_eq(users_account(u, "dave", NULL, NULL), 0);
    ck_assert_int_eq(users_present(u, "dave"), 0);
    users_free(u);
}
END_TEST

START_TEST(test_users_casemapping)
{
    struct users *u = users_new();

    users_set_casemap(u, CASEMAP_RFC1459);
    users_join(u, "nick[a]", 0);
    users_login(u, "nick[a]", 5, "x");
    ck_assert_int_eq(users_account(u, "NICK{A}", NULL, NULL), 1);
    users_set_casemap(u, CASEMAP_ASCII);
    ck_assert_int_eq(users_account(u, "NICK{A}", NULL, NULL), 0);
    ck_assert_int_eq(users_account(u, "NICK[A]", NULL, NULL), 1);
    users_free(u);
}
END_TEST

/* The inbound limit is a token bucket a nick: a burst, then a steady pace;
 * past it a nick is slowed (told when his next command is taken), and one
 * who goes on sending waits longer, at most `pause` more. */
START_TEST(test_users_rate)
{
    struct users *u = users_new();
    double t = 100;

    /* The defaults: twelve at once, the thirteenth refused and told. */
    for (int i = 0; i < USERS_RATE_CMDS; i++)
        ck_assert_int_eq(users_rate(u, "f", t + i * 0.1), USERS_RATE_OK);
    ck_assert_int_eq(users_rate(u, "f", t + 1.2), USERS_RATE_WARN);
    ck_assert_int_eq(users_rate(u, "f", t + 2), USERS_RATE_IGNORE);
    /* Each command past the limit is told when he may go on, unless he
     * was told a few seconds before. */
    ck_assert_int_eq(users_rate(u, "f", t + 1.2 + USERS_RATE_TELL_EVERY), USERS_RATE_TELL);
    double wait = users_rate_wait(u, "f", t + 1.2 + USERS_RATE_TELL_EVERY);
    ck_assert(wait > 0 && wait < USERS_RATE_WINDOW / USERS_RATE_CMDS);
    ck_assert_int_eq(users_rate(u, "f", t + 2 + USERS_RATE_TELL_EVERY), USERS_RATE_IGNORE);
    /* Slowed, not ignored: once a command's worth is back, he goes on. */
    double back = t + 2 + USERS_RATE_TELL_EVERY;
    back += users_rate_wait(u, "f", back) + 0.01;
    ck_assert_int_eq(users_rate(u, "f", back), USERS_RATE_OK);
    /* Light commands (help, typos, refusals) cost a third. */
    for (int i = 0; i < 3 * USERS_RATE_CMDS; i++) {
        ck_assert_int_eq(users_rate(u, "l", t + i * 0.1), USERS_RATE_OK);
        users_rate_light(u, "l");
    }
    ck_assert_int_eq(users_rate(u, "l", t + 4), USERS_RATE_WARN);
    /* Help and typos, known light before they run, need only a third's
     * worth each: thirty-six at once, then a full one is refused. */
    for (int i = 0; i < 3 * USERS_RATE_CMDS; i++)
        ck_assert_int_eq(users_rate_as(u, "a", t, 1), USERS_RATE_OK);
    ck_assert_int_eq(users_rate_as(u, "a", t, 1), USERS_RATE_WARN);
    users_rate_light(u, "a"); /* nothing to lighten: it was refused (it cost a third) */
    ck_assert_int_eq(users_rate_as(u, "a", t + 10 / 3.0 + 0.01, 1), USERS_RATE_OK);
    /* A command ran since he was told: the next refusal tells him again
     * (silence only between two refusals), only how long: he had the whole
     * explanation less than a minute ago. */
    ck_assert_int_eq(users_rate(u, "a", t + 10 / 3.0 + 0.02), USERS_RATE_TELL);
    ck_assert_int_eq(users_rate(u, "a", t + 10 / 3.0 + 0.03), USERS_RATE_IGNORE);
    /* A minute after the whole explanation, a new flood hears it again. */
    double later = t + 200; /* the bucket full again, the warning long past */
    for (int i = 0; i < 3 * USERS_RATE_CMDS; i++)
        ck_assert_int_eq(users_rate_as(u, "a", later, 1), USERS_RATE_OK);
    ck_assert_int_eq(users_rate_as(u, "a", later, 1), USERS_RATE_WARN);
    /* Two full ones and twenty-seven light ones cost eleven: one more. */
    for (int i = 0; i < 2 + 27 + 1; i++) {
        ck_assert_int_eq(users_rate(u, "n", t), USERS_RATE_OK);
        if (i >= 2 && i < 29)
            users_rate_light(u, "n");
    }
    ck_assert_int_eq(users_rate(u, "n", t), USERS_RATE_WARN);
    /* A reload (the same limits, or others) gives no flooder a fresh
     * burst. */
    for (int i = 0; i < USERS_RATE_CMDS; i++)
        ck_assert_int_eq(users_rate(u, "r", t), USERS_RATE_OK);
    users_set_rate(u, USERS_RATE_CMDS, USERS_RATE_WINDOW, USERS_RATE_PAUSE);
    ck_assert_int_eq(users_rate(u, "r", t + 0.1), USERS_RATE_WARN);
    users_set_rate(u, 2 * USERS_RATE_CMDS, USERS_RATE_WINDOW, USERS_RATE_PAUSE);
    ck_assert_int_eq(users_rate(u, "r", t + 0.2), USERS_RATE_OK); /* a bigger bucket: room */
    users_set_rate(u, USERS_RATE_CMDS, USERS_RATE_WINDOW, USERS_RATE_PAUSE);
    /* At the steady pace, any number of commands is fine. */
    for (int i = 0; i < 50; i++)
        ck_assert_int_eq(users_rate(u, "g", t + i * (USERS_RATE_WINDOW / USERS_RATE_CMDS + 0.01)),
                         USERS_RATE_OK);
    /* The limit is configuration: 3 at once, then one every 3 s (a third
     * of a command a second), at most 20 s more for one who goes on. */
    users_set_rate(u, 3, 9, 20);
    t = 1000;
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(users_rate(u, "h", t), USERS_RATE_OK);
    ck_assert_int_eq(users_rate(u, "h", t), USERS_RATE_WARN);
    ck_assert(users_rate_wait(u, "h", t) == 4); /* 3 s for a command, 1 for the one refused */
    ck_assert_int_eq(users_rate(u, "h", t + 3.9), USERS_RATE_IGNORE);
    ck_assert(users_rate_wait(u, "h", t + 3.9) > 1); /* he sent one more meanwhile */
    ck_assert_int_eq(users_rate(u, "h", t + 5.1), USERS_RATE_OK);
    /* One who keeps sending, ten a second for ten seconds: nothing more
     * runs, and he then waits the pause, told at most every 5 s. */
    int ok = 0, told = 0;
    for (int i = 0; i < 100; i++) {
        enum users_rate st = users_rate(u, "x", 2000 + i * 0.1);
        ok += st == USERS_RATE_OK;
        told += st == USERS_RATE_WARN || st == USERS_RATE_TELL;
    }
    ck_assert_int_eq(ok, 3);
    ck_assert_int_eq(told, 2);
    ck_assert(users_rate_wait(u, "x", 2009.9) == 20);
    ck_assert_int_ne(users_rate(u, "x", 2009.9 + 19.9), USERS_RATE_OK);
    ck_assert_int_eq(users_rate(u, "x", 2009.9 + 21.1), USERS_RATE_OK);
    /* With no pause, only the steady pace: one every 3 s however fast. */
    users_set_rate(u, 3, 9, 0);
    ok = 0;
    for (int i = 0; i < 100; i++)
        ok += users_rate(u, "y", 3000 + i * 0.1) == USERS_RATE_OK;
    ck_assert_int_eq(ok, 3 + 3);
    /* Bad values are clamped, never trusted: one a second, no pause. */
    users_set_rate(u, 0, 0, -5);
    ck_assert_int_eq(users_rate(u, "k", t), USERS_RATE_OK);
    ck_assert_int_eq(users_rate(u, "k", t + 0.5), USERS_RATE_WARN);
    ck_assert_int_eq(users_rate(u, "k", t + 1.01), USERS_RATE_OK);
    users_set_rate(u, 1000000, 60, 60);
    for (int i = 0; i < USERS_RATE_CMDS_MAX; i++)
        ck_assert_int_eq(users_rate(u, "m", t), USERS_RATE_OK);
    ck_assert_int_eq(users_rate(u, "m", t), USERS_RATE_WARN);
    users_free(u);
}
END_TEST

/* Each nick's count is his own and goes with him: through the array's
 * growth, and when the last entry moves into the place of one that left. */
START_TEST(test_users_rate_moves)
{
    struct users *u = users_new();
    char nick[32];
    double t = 100;

    for (int i = 0; i < USERS_RATE_CMDS - 1; i++)
        ck_assert_int_eq(users_rate(u, "first", t - 70 + i * 0.1), USERS_RATE_OK);
    for (int n = 0; n < 200; n++) { /* past the first 64 entries: the array grows */
        snprintf(nick, sizeof(nick), "n%d", n);
        for (int i = 0; i < n % 5; i++)
            ck_assert_int_eq(users_rate(u, nick, t + 2 + i * 0.1), USERS_RATE_OK);
    }
    for (int i = 0; i < USERS_RATE_CMDS - 1; i++)
        ck_assert_int_eq(users_rate(u, "last", t + 3 + i * 0.1), USERS_RATE_OK);
    users_quit(u, "first"); /* "last" moves into its place (first's stamps: long gone) */
    users_quit(u, "n3");
    ck_assert_int_eq(users_rate(u, "last", t + 5), USERS_RATE_OK);
    ck_assert_int_eq(users_rate(u, "last", t + 5.1), USERS_RATE_WARN);
    ck_assert_int_eq(users_rate(u, "first", t + 5.2), USERS_RATE_OK); /* afresh */
    for (int n = 0; n < 200; n += 7) {
        snprintf(nick, sizeof(nick), "n%d", n);
        for (int i = n % 5; i < USERS_RATE_CMDS; i++)
            ck_assert_int_eq(users_rate(u, nick, t + 6 + i * 0.01), USERS_RATE_OK);
        ck_assert_int_eq(users_rate(u, nick, t + 6.5), USERS_RATE_WARN);
    }
    users_free(u);
}
END_TEST

START_TEST(test_users_bounded)
{
    struct users *u = users_new();
    char nick[32];

    /* 20,000 nicks that only ever message the bot, one every 10 ms: only
     * those within the rate window (10 s: about 1,000) need remembering. */
    users_set_rate(u, 5, 10, 30);
    for (int i = 0; i < 20000; i++) {
        snprintf(nick, sizeof(nick), "passer%d", i);
        REQUIRE(users_rate(u, nick, i * 0.01) == USERS_RATE_OK);
    }
    ck_assert_int_lt(users_count(u), 4096);
    /* Someone in a channel, or identified, is never swept. */
    users_join(u, "stays", 0);
    users_login(u, "stays", 9, "stays");
    for (int i = 0; i < 20000; i++) {
        snprintf(nick, sizeof(nick), "later%d", i);
        REQUIRE(users_rate(u, nick, 1000 + i * 0.01) == USERS_RATE_OK);
    }
    ck_assert_int_eq(users_account(u, "stays", NULL, NULL), 1);
    ck_assert_int_lt(users_count(u), 4096);
    users_free(u);
}
END_TEST

START_TEST(test_password_hash)
{
    char h1[DB_HASH_MAX], h2[DB_HASH_MAX];

    ck_assert_int_eq(password_hash("correct horse", h1, sizeof(h1)), 0);
    ck_assert_int_eq(password_hash("correct horse", h2, sizeof(h2)), 0);
    ck_assert(strncmp(h1, "$y$", 3) == 0);
    ck_assert_str_ne(h1, h2); /* fresh salt every time */
    ck_assert_ptr_null(strstr(h1, "correct"));
    ck_assert_int_eq(password_check("correct horse", h1), 1);
    ck_assert_int_eq(password_check("correct horse", h2), 1);
    ck_assert_int_eq(password_check("correct hors", h1), 0);
    ck_assert_int_eq(password_check("", h1), 0);
    ck_assert_int_eq(password_check("correct horse", "*0"), 0);
    ck_assert_int_eq(password_hash("x", h1, 8), -1); /* no room */
}
END_TEST

/* ------------------------------------------------- commands, for real */

static struct bot bot;
static char dir[64];

static void bot_setup(void)
{
    bot_fixture_open(&bot, dir, "cmd", 1000, 1000);
    bot.cfg.nadmins = 1;
    snprintf(bot.cfg.admins[0], sizeof(bot.cfg.admins[0]), "boss");
    bot.chantypes[0] = '\0'; /* as before the ISUPPORT: the bot's own default */
}

static void bot_teardown(void)
{
    bot_fixture_close(&bot, dir);
}

/* Runs `text` from `nick` (in #ringside when chan, else private) and
 * returns every line the bot queued, joined by '\n' (static buffer). */
/* Runs `text` from `nick` at bot.now as it is; returns what was queued. */
static const char *run_at(const char *nick, int chan, const char *text)
{
    static char out[8192];

    cmd_dispatch(&bot, nick, chan ? "#ringside" : NULL, text);
    return bot_fixture_drain(&bot, bot.now + 1000, out, sizeof(out));
}

static const char *run(const char *nick, int chan, const char *text)
{
    bot.now += USERS_RATE_WINDOW / USERS_RATE_CMDS + 0.1; /* within the inbound rate */
    return run_at(nick, chan, text);
}

/* The operator makes `nick` an admin (ringside --add-admin, password
 * "bossboss") and he identifies. */
static void admin_login(const char *nick)
{
    char err[256], line[64];
    int existed;

    ck_assert_msg(accounts_add_admin(bot.db, nick, "bossboss", &existed, err, sizeof(err)) == 0,
                  "%s", err);
    snprintf(line, sizeof(line), "identify bossboss");
    ck_assert_ptr_nonnull(strstr(run(nick, 0, line), "you are identified as"));
}

static void join(const char *nick)
{
    users_join(bot.users, nick, 0);
}

#define HAS(text, needle) ck_assert_msg(strstr((text), (needle)) != NULL, "%s", (text))

/* Services accounts (accounts.c): what the server says of a nick's login
 * is his identity, never his nick; a logout ends it; under accounts =
 * passwords nothing changes; under services passwords are refused. */
START_TEST(test_services_accounts)
{
    struct db_account acc;

    join("dora");
    accounts_seen(&bot, "dora", "DoraTheBoxer");
    HAS(run("dora", 0, "create Dolly str=12 spd=12 agl=12 tgh=12 hgt=12"),
        "Dolly (boxing) is ready");
    ck_assert_int_eq(db_account_get(bot.db, "doratheboxer", &acc), DB_OK);
    ck_assert_str_eq(acc.hash, PASSWORD_NONE);
    ck_assert_str_eq(acc.name, "DoraTheBoxer");
    /* No password opens it. */
    HAS(run("eve", 0, "identify DoraTheBoxer anything1"), "join #ringside first");
    join("eve");
    HAS(run("eve", 0, "identify DoraTheBoxer *services"), "wrong password");
    /* A nick change keeps it; a logout ends it. */
    users_rename(bot.users, "dora", "dora_");
    HAS(run("dora_", 0, "fighters"), "Dolly");
    HAS(run("dora_", 0, "retire Nobody"), "Nobody");
    accounts_seen(&bot, "dora_", "*");
    HAS(run("dora_", 0, "retire Dolly"), "needs an account");
    /* Logged in as someone else: that account, not the first. */
    accounts_seen(&bot, "dora_", "Other");
    HAS(run("dora_", 0, "create Otto str=12 spd=12 agl=12 tgh=12 hgt=12"),
        "Otto (boxing) is ready");
    ck_assert_int_eq(db_account_get(bot.db, "other", &acc), DB_OK);
    /* Out of the bot's channels: not identified by services either. */
    accounts_seen(&bot, "stranger", "stranger");
    HAS(run("stranger", 0, "create Sam str=12 spd=12 agl=12 tgh=12 hgt=12"), "needs an account");
    ck_assert_int_eq(db_account_get(bot.db, "stranger", &acc), DB_NOTFOUND);

    /* A password account of the same name (both): its password first, once. */
    join("fred");
    HAS(run("fred", 0, "register fredpw12"), "account fred registered");
    HAS(run("fred", 0, "logout"), "logged out");
    accounts_seen(&bot, "fred", "fred");
    HAS(run("fred", 0, "create Fritz str=12 spd=12 agl=12 tgh=12 hgt=12"),
        "the account fred has a password; identify once");
    HAS(run("fred", 0, "identify fredpw12"), "from now on your services login is enough");
    ck_assert_int_eq(db_account_get(bot.db, "fred", &acc), DB_OK);
    ck_assert_str_eq(acc.hash, PASSWORD_NONE);
    accounts_seen(&bot, "fred", NULL);
    accounts_seen(&bot, "fred", "fred");
    HAS(run("fred", 0, "create Fritz str=12 spd=12 agl=12 tgh=12 hgt=12"),
        "Fritz (boxing) is ready");

    /* A banned services account: told so, never asked to log in. */
    ck_assert_int_eq(db_account_set_banned(bot.db, acc.id, 1), DB_OK);
    users_logout_account(bot.users, acc.id);
    accounts_seen(&bot, "fred", NULL);
    accounts_seen(&bot, "fred", "fred");
    HAS(run("fred", 0, "retire Fritz"),
        "PRIVMSG fred :the account fred is banned: only what needs no account is open to you "
        "(help, ");

    /* accounts = passwords: services are ignored. */
    bot.cfg.accounts = ACCOUNTS_PASSWORDS;
    join("gil");
    accounts_seen(&bot, "gil", "gil");
    HAS(run("gil", 0, "create Gus str=12 spd=12 agl=12 tgh=12 hgt=12"),
        "needs an account: identify first");
    /* accounts = services: no passwords. */
    bot.cfg.accounts = ACCOUNTS_SERVICES;
    join("hal");
    HAS(run("hal", 0, "register halpw123"), "your account is your services account");
    HAS(run("hal", 0, "identify fred fredpw12"), "your account is your services account");
    HAS(run("hal", 0, "create Hank str=12 spd=12 agl=12 tgh=12 hgt=12"),
        "needs an account: log in to services");
    accounts_seen(&bot, "hal", "hal");
    HAS(run("hal", 0, "create Hank str=12 spd=12 agl=12 tgh=12 hgt=12"), "Hank (boxing) is ready");
}
END_TEST

START_TEST(test_register_identify_create)
{
    join("alice");
    HAS(run("alice", 0, "register sekrit1"), "PRIVMSG alice :account alice registered");
    HAS(run("alice", 0, "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11"),
        "Rocky (boxing) is ready: STR 14 SPD 12 AGL 11 TGH 12 HGT 11");
    HAS(run("alice", 1, "!fighter Rocky"), "PRIVMSG #ringside :alice: Rocky (boxing, alice)");
    HAS(run("bob", 1, "!fighters alice"), "alice's fighters: Rocky (boxing, 0-0-0)");
    HAS(run("alice", 0, "logout"), "logged out of alice");
    HAS(run("alice", 0, "create Ivan str=12 spd=12 agl=12 tgh=12 hgt=12"), "needs an account");
    HAS(run("alice", 0, "identify wrongpw1"), "wrong password for alice");
    HAS(run("alice", 0, "identify sekrit1"), "you are identified as alice");
    HAS(run("alice", 0, "passwd sekrit1 newpass2"), "password changed");
    HAS(run("alice", 0, "logout"), "logged out");
    HAS(run("alice", 0, "identify sekrit1"), "wrong password");
    HAS(run("alice", 0, "identify newpass2"), "identified as alice");
    /* A prediction said in the channel is answered in private only. */
    ck_assert_str_eq(run("alice", 1, "!predict 9 Rocky"),
                     "PRIVMSG alice :There is no bout #9; bouts lists the live bouts.\n");
    ck_assert_str_eq(run("alice", 1, "!predict"),
                     "PRIVMSG alice :You have no open prediction; usage: predict <bout> <fighter> "
                     "[method] [round N], or predict <bout> draw.\n");
}
END_TEST

/* The dispatcher's stages refuse before the handler runs (where, who,
 * how many arguments, the target), and every handler's result is
 * counted: runs, refusals, and stops before it ran. */
START_TEST(test_dispatch_stages_counted)
{
    struct cmd_count before, after;

    join("nia");
    run("nia", 0, "register nianian1");
    run("nia", 0, "create Nina str=12 spd=12 agl=12 tgh=12 hgt=12");
    ck_assert_int_eq(cmd_stats("retire", &before), 0);
    ck_assert_int_eq(cmd_stats("nosuch", &after), -1);
    /* The target stage: no such fighter, another's, then his own. */
    HAS(run("nia", 0, "retire Nobody"), "there is no fighter Nobody");
    HAS(run("nia", 0, "retire Nina Nina"), "too many arguments; usage: retire <fighter>");
    HAS(run("nia", 1, "!retire Nina"), "nia: Nina never fought: removed rather than retired");
    HAS(run("nia", 0, "retire Nina"), "there is no fighter Nina");
    ck_assert_int_eq(cmd_stats("retire", &after), 0);
    ck_assert_uint_eq(after.runs - before.runs, 1);
    ck_assert_uint_eq(after.refused - before.refused, 0);
    ck_assert_uint_eq(after.stopped - before.stopped, 3);
    /* A handler's refusal is counted as such. */
    ck_assert_int_eq(cmd_stats("train", &before), 0);
    HAS(run("nia", 0, "train xyz"), "train what?");
    ck_assert_int_eq(cmd_stats("train", &after), 0);
    ck_assert_uint_eq(after.runs - before.runs, 1);
    ck_assert_uint_eq(after.refused - before.refused, 1);
    /* Rules and league words are the standings' target. */
    HAS(run("nia", 0, "standings tin"), "I don't understand \"tin\"; give a league (gold, "
                                        "silver, bronze) or rules=boxing");
    HAS(run("nia", 0, "champion rules=chess"), "rules=chess: use rules=boxing");
    HAS(run("nia", 0, "champion gold"), "I don't understand \"gold\"; give rules=boxing");
}
END_TEST

/* The bout target stage: each bout command's `#bout` (or none) resolved
 * by the game before the handler runs, refused word for word there, and
 * an order's "#N" taken off its words. */
START_TEST(test_bout_target_stage)
{
    struct cmd_count before, after;

    join("ann");
    join("ben");
    join("boss");
    run("ann", 0, "register annann11");
    run("ann", 0, "create Ada str=14 spd=12 agl=11 tgh=12 hgt=11");
    run("ben", 0, "register benben11");
    run("ben", 0, "create Bo str=13 spd=14 agl=12 tgh=11 hgt=10");
    admin_login("boss");
    HAS(run("ann", 1, "!challenge ben"), "ann challenges ben to bout #1, boxing");
    HAS(run("boss", 1, "!score"), "boss: there is no live bout in #ringside; !bouts lists the live "
                                  "ones, !report <bout> tells a finished one\n");
    HAS(run("boss", 1, "!score #1"),
        "boss: bout #1 has not started: ben has not accepted the challenge yet\n");
    HAS(run("ann", 0, "forfeit"), "your bout #1 has not started: ben has not accepted");
    HAS(run("ben", 1, "!accept"), "Bout #1 is on.");
    /* Refused by the stage: counted as stopped, the handler never ran. */
    ck_assert_int_eq(cmd_stats("forfeit", &before), 0);
    HAS(run("ann", 0, "forfeit #9"), "there is no live bout #9; bouts lists them");
    HAS(run("boss", 0, "yield 1"), "bout #1 is not yours: only its two players may act in it");
    ck_assert_int_eq(cmd_stats("forfeit", &after), 0);
    ck_assert_uint_eq(after.runs - before.runs, 0);
    ck_assert_uint_eq(after.stopped - before.stopped, 2);
    HAS(run("boss", 1, "!score #9"), "boss: there is no bout #9; !bouts lists the live ones\n");
    HAS(run("boss", 1, "!score x"),
        "boss: \"x\" is not a bout number; e.g. !score #12 (!bouts lists the live ones)\n");
    HAS(run("boss", 0, "report #9"), "there is no bout #9; bouts lists the live ones");
    HAS(run("boss", 0, "report nine 2"), "there is no bout nine; bouts lists the live ones");
    HAS(run("boss", 0, "cancel #9"), "there is no live bout or challenge #9");
    HAS(run("ann", 0, "order #9 5/5/10"), "there is no live bout #9; bouts lists them");
    /* "order #1" alone: the handler asks for the orders, as it always did. */
    HAS(run("ann", 0, "order #1"), "which orders? e.g. order 5H/8!/7 (inside)");
    HAS(run("ann", 0, "order #1 5/5/10"), "round 1 orders stored for Ada: 5/5/10");
    HAS(run("ben", 0, "order 4/6/10"), "your round 1 orders for Bo (4/6/10) are in and fought");
    /* Resolved: the score of the only bout live here, a report by number. */
    HAS(run("boss", 1, "!score"), "Ada");
    HAS(run("boss", 0, "report 1"), "Report of bout #1, round 1");

    /* The stage itself: "#1" is taken off an order's words. */
    struct cmd_ctx ctx = {.bot = &bot, .nick = "ann", .argc = 3};
    char w0[] = "#1", w1[] = "5/5/10", w2[] = "(ring)";
    ctx.argv[0] = w0;
    ctx.argv[1] = w1;
    ctx.argv[2] = w2;
    users_account(bot.users, "ann", &ctx.account_id, &ctx.account);
    bot_caller(&ctx, &ctx.who);
    ck_assert_int_eq(bot_target(&ctx, TARGET_MY_BOUT_FIRST), 0);
    ck_assert_int_eq(ctx.bout, 1);
    ck_assert_int_eq(ctx.argc, 2);
    ck_assert_str_eq(ctx.argv[0], "5/5/10");
    ck_assert_int_eq(bot_target(&ctx, TARGET_MY_BOUT), -1); /* "5/5/10" is no bout */
    ck_assert_int_eq(ctx.bout, 0);
    HAS(run("boss", 0, "cancel 1"), "bout #1 cancelled");
}
END_TEST

START_TEST(test_create_errors)
{
    join("carl");
    run("carl", 0, "register password9");
    HAS(run("carl", 0, "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=12"),
        "add up to 61; spread exactly 60");
    HAS(run("carl", 0, "create Rocky str=4 spd=12 agl=12 tgh=12 hgt=20"), "str=4");
    HAS(run("carl", 0, "create Rocky str=12 spd=12 agl=12 tgh=12"), "missing hgt=");
    HAS(run("carl", 0, "create 9lives str=12 spd=12 agl=12 tgh=12 hgt=12"),
        "starting with a letter");
    HAS(run("carl", 0, "create Rocky rules=duel"), "give the four abilities, 56 points in all");
    HAS(run("carl", 0, "create Rocky rules=sugarray str=12"), "give no numbers");
    HAS(run("carl", 0, "create Murphy rules=sugarray"), "skill 10, endurance 20");
    HAS(run("carl", 0, "create murphy rules=sugarray"), "there is a fighter called murphy");
    HAS(run("carl", 0, "create"), "missing arguments; usage: create <name>");
    struct db_fighter list[4];
    int n = 0;
    struct db_account acc;
    ck_assert_int_eq(db_account_get(bot.db, "carl", &acc), DB_OK);
    ck_assert_int_eq(db_fighter_list(bot.db, acc.id, 0, list, 4, &n), DB_OK);
    ck_assert_int_eq(n, 1); /* only Murphy: every error changed nothing */
}
END_TEST

START_TEST(test_passwords_in_channel_refused)
{
    join("dora");
    HAS(run("dora", 1, "!register hunter22"), "never say a password in a channel");
    HAS(run("dora", 1, "!identify hunter22"), "there is no account dora, so nothing changed");
    struct db_account acc;
    ck_assert_int_eq(db_account_get(bot.db, "dora", &acc), DB_NOTFOUND);
    /* Not in a shared channel: no identity. */
    HAS(run("ed", 0, "register hunter22"), "join #ringside first");
    ck_assert_int_eq(db_account_get(bot.db, "ed", &acc), DB_NOTFOUND);
}
END_TEST

/* The number of lines in `out`. */
static int lines_in(const char *out)
{
    int n = 0;

    for (; *out; out++)
        n += *out == '\n';
    return n;
}

/* A password said in a channel is burnt: refused in private afterwards,
 * with one clear line; whoever said it is identified and sets a new one
 * without the old; a different password works after the change. */
START_TEST(test_identify_said_in_channel_burns)
{
    const char *out;
    struct db_account acc;

    join("alice");
    HAS(run("alice", 0, "register alicepw1"), "account alice registered");
    run("alice", 0, "logout");

    out = run("alice", 1, "!identify alicepw1");
    ck_assert_int_eq(lines_in(out), 1);
    HAS(out, "PRIVMSG #ringside :alice: never say a password in a channel: everyone in #ringside "
             "saw it, so that password of alice no longer works. You are identified as alice: "
             "set a new one now with /msg ringside passwd <new password>");
    ck_assert_int_eq(db_account_get(bot.db, "alice", &acc), DB_OK);
    ck_assert_int_eq(acc.burnt, 1);

    /* Refused in private from then on, to her and to anyone who saw it. */
    run("alice", 0, "logout");
    out = run("alice", 0, "identify alicepw1");
    ck_assert_int_eq(lines_in(out), 1);
    HAS(out, "PRIVMSG alice :that password of alice was said in a channel and no longer works: "
             "set a new one with passwd <new password> from a nick still identified as alice, or "
             "ask an admin to resetpass it");
    join("mallory");
    HAS(run("mallory", 0, "identify alice alicepw1"), "was said in a channel and no longer works");
    HAS(run("mallory", 0, "passwd alicepw1 mine1234"), "passwd needs an account");
    ck_assert_int_eq(users_account(bot.users, "mallory", NULL, NULL), 0);

    /* Said again, still refused, and still identifies whoever said it (he
     * knew it before the channel saw it). */
    HAS(run("alice", 1, "!identify alicepw1"), "You are identified as alice");
    /* The old one alone is not a new one. */
    HAS(run("alice", 0, "passwd alicepw1"),
        "that password was said in a channel, where everyone saw it; choose another: passwd "
        "<new password>");
    HAS(run("alice", 0, "passwd short"), "a password has 6 to 72 characters");
    HAS(run("alice", 0, "passwd alicepw2"), "password changed");
    ck_assert_int_eq(db_account_get(bot.db, "alice", &acc), DB_OK);
    ck_assert_int_eq(acc.burnt, 0);
    run("alice", 0, "logout");
    HAS(run("alice", 0, "identify alicepw1"), "wrong password for alice");
    HAS(run("alice", 0, "identify alicepw2"), "you are identified as alice");
    /* Without the burn, the old password is needed again. */
    HAS(run("alice", 0, "passwd alicepw3"), "give your old password too");
    /* A burnt password is never taken back as a new one. */
    HAS(run("alice", 0, "passwd alicepw2 alicepw1"), "said in a channel");
    HAS(run("alice", 0, "passwd alicepw2 alicepw3"), "password changed");
}
END_TEST

/* A wrong password said in a channel burns nothing. */
START_TEST(test_wrong_password_in_channel_changes_nothing)
{
    struct db_account acc;

    join("dave");
    run("dave", 0, "register davepw11");
    run("dave", 0, "logout");
    HAS(run("dave", 1, "!identify davepw99"),
        "(it is not the password of dave, so nothing changed). Identify in private: /msg "
        "ringside identify [account] <password>");
    ck_assert_int_eq(db_account_get(bot.db, "dave", &acc), DB_OK);
    ck_assert_int_eq(acc.burnt, 0);
    ck_assert_int_eq(users_account(bot.users, "dave", NULL, NULL), 0);
    HAS(run("dave", 0, "identify davepw11"), "you are identified as dave");
    /* An identified player saying his own password without naming it, from
     * a nick that is no account. */
    join("davey");
    HAS(run("davey", 0, "identify dave davepw11"), "you are identified as dave");
    HAS(run("davey", 1, "!identify davepw11"), "that password of dave no longer works");
    ck_assert_int_eq(db_account_get(bot.db, "dave", &acc), DB_OK);
    ck_assert_int_eq(acc.burnt, 1);
}
END_TEST

/* register said in a channel: the password is never taken for that name. */
START_TEST(test_register_said_in_channel_burns)
{
    join("bob");
    HAS(run("bob", 1, "!register bobpass1"),
        "never say a password in a channel: everyone in #ringside saw it, so I will never take it "
        "for bob. Register in private with another one: /msg ringside register <password>");
    HAS(run("bob", 0, "register bobpass1"),
        "that password was said in a channel, where everyone saw it; choose another: register "
        "<password>");
    HAS(run("bob", 0, "register bobpass2"), "account bob registered");
    /* The account's own password said with register: burnt like identify. */
    run("bob", 0, "logout");
    HAS(run("bob", 1, "!register bobpass2"), "that password of bob no longer works");
    HAS(run("bob", 1, "!register otherpw1"), "The account bob exists already");
}
END_TEST

/* passwd said in a channel: the old one burnt if right, the new one never
 * taken when the speaker proved the account. */
START_TEST(test_passwd_said_in_channel_burns)
{
    join("carol");
    run("carol", 0, "register carolpw1");
    HAS(run("carol", 1, "!passwd carolpw1 carolpw2"),
        "so that password of carol no longer works. You are identified as carol");
    HAS(run("carol", 0, "passwd carolpw2"), "said in a channel");
    HAS(run("carol", 0, "passwd carolpw3"), "password changed");
    /* A wrong old one: only the new one, which she is identified for. */
    HAS(run("carol", 1, "!passwd nopenope carolpw9"),
        "never say a password in a channel: everyone in #ringside saw it, so I will never take "
        "that new password for carol. Change it in private: /msg ringside passwd <old password> "
        "<new password>");
    HAS(run("carol", 0, "passwd carolpw3 carolpw9"), "said in a channel");
    run("carol", 0, "logout");
    HAS(run("carol", 0, "identify carolpw3"), "identified as carol");
    /* Not identified and wrong: nothing burnt under her name. */
    join("carl");
    run("carl", 1, "!passwd wrongpw1 carlpw12");
    HAS(run("carol", 0, "passwd carolpw3 carlpw12"), "password changed");
}
END_TEST

/* An owner who left before setting a new password: an admin resets it. */
START_TEST(test_resetpass)
{
    join("boss");
    join("erin");
    admin_login("boss");
    run("erin", 0, "register erinpw11");
    run("erin", 0, "logout");
    HAS(run("erin", 1, "!identify erinpw11"), "You are identified as erin");
    users_quit(bot.users, "erin");
    join("erin");
    HAS(run("erin", 0, "identify erinpw11"), "ask an admin to resetpass it");
    HAS(run("erin", 0, "resetpass erin erinpw22"), "needs an account");
    run("erin", 0, "register x"); /* refused: the account exists */
    HAS(run("boss", 0, "resetpass erin erinpw11"), "said in a channel");
    HAS(run("boss", 0, "resetpass nobody erinpw22"), "there is no account nobody");
    HAS(run("boss", 0, "resetpass erin erinpw22"), "the password of erin is reset");
    HAS(run("erin", 0, "identify erinpw22"), "you are identified as erin");
    /* Said in a channel by the admin: refused and never taken for erin. */
    HAS(run("boss", 1, "!resetpass erin erinpw33"), "so I will never take it for erin");
    HAS(run("boss", 0, "resetpass erin erinpw33"), "said in a channel");
    /* Anyone else's words burn nothing under erin's name. */
    HAS(run("erin", 1, "!resetpass erin erinpw44"), "never say a password in a channel");
    HAS(run("boss", 0, "resetpass erin erinpw44"), "the password of erin is reset");
    HAS(run("erin", 0, "help resetpass"),
        "resetpass <account> <new password>: sets an account's password");
    /* The list: an admin's commands to admins only. */
    ck_assert_ptr_null(strstr(run("erin", 0, "help"), " resetpass "));
    HAS(run("erin", 0, "help"), " tournament bracket. Say help <command>");
    HAS(run("boss", 0, "help"), " resetpass ");
    HAS(run("boss", 0, "help"), " turn tournament bracket. Say help <command>");
    HAS(run("erin", 0, "help passwd"), "passwd [old password] <new password>: changes your");
}
END_TEST

/* 1 if the file at `path` holds `needle` anywhere (binary). */
static int file_has(const char *file, const char *needle)
{
    FILE *fp = fopen(file, "rb");
    static char buf[1 << 20];
    size_t n, len = strlen(needle);

    if (!fp)
        return 0;
    n = fread(buf, 1, sizeof(buf), fp);
    fclose(fp);
    for (size_t i = 0; i + len <= n; i++)
        if (memcmp(buf + i, needle, len) == 0)
            return 1;
    return 0;
}

/* Passwords said in a channel or in private are never in the log, in a
 * reply or in the database file, not even in its journal. */
START_TEST(test_passwords_never_in_clear)
{
    static const char *const pw[] = {"Zq1clearA", "Zq2clearB", "Zq3clearC", "Zq4clearD",
                                     "Zq5clearE"};
    char logpath[160], file[160];
    char all[16384] = "";
    int saved = dup(2);

    snprintf(logpath, sizeof(logpath), "%s/log", dir);
    FILE *log = fopen(logpath, "w");
    ck_assert_ptr_nonnull(log);
    ck_assert_int_ne(dup2(fileno(log), 2), -1);
    log_set_level(LOG_DEBUG);

    join("gina");
    join("hank");
    strcat(all, run("gina", 1, "!register Zq1clearA"));
    strcat(all, run("gina", 0, "register Zq2clearB"));
    strcat(all, run("gina", 0, "logout"));
    strcat(all, run("gina", 1, "!identify Zq2clearB"));
    strcat(all, run("gina", 0, "passwd Zq3clearC"));
    strcat(all, run("gina", 1, "!passwd Zq3clearC Zq4clearD"));
    strcat(all, run("hank", 1, "!identify gina Zq5clearE"));
    strcat(all, run("hank", 0, "identify gina Zq5clearE"));
    strcat(all, run("gina", 0, "passwd Zq5clearE"));

    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(log);
    log_set_level(LOG_ERROR);
    HAS(all, "You are identified as gina");
    ck_assert_msg(file_has(logpath, "said a password in #ringside"), "the log says nothing");
    for (unsigned i = 0; i < sizeof(pw) / sizeof(pw[0]); i++) {
        ck_assert_msg(!strstr(all, pw[i]), "%s in a reply:\n%s", pw[i], all);
        ck_assert_msg(!file_has(logpath, pw[i]), "%s in the log", pw[i]);
        snprintf(file, sizeof(file), "%s/ringside.db", dir);
        ck_assert_msg(!file_has(file, pw[i]), "%s in the database", pw[i]);
        snprintf(file, sizeof(file), "%s/ringside.db-wal", dir);
        ck_assert_msg(!file_has(file, pw[i]), "%s in the journal", pw[i]);
    }
}
END_TEST

START_TEST(test_impersonation_after_quit)
{
    join("fay");
    run("fay", 0, "register fayfay1");
    HAS(run("fay", 0, "create Ali str=12 spd=12 agl=12 tgh=12 hgt=12"), "is ready");
    users_quit(bot.users, "fay");
    join("fay"); /* someone else takes the nick */
    HAS(run("fay", 0, "retire Ali"), "needs an account");
    HAS(run("fay", 1, "!train str Ali"), "needs an account");
    join("gus");
    run("gus", 0, "register gusgus1");
    HAS(run("gus", 0, "retire Ali"), "Ali belongs to fay, not to you");
    struct db_fighter f;
    ck_assert_int_eq(db_fighter_get(bot.db, "ali", &f), DB_OK);
    ck_assert_int_eq(f.retired, 0);
}
END_TEST

START_TEST(test_create_and_train_sugarray)
{
    struct db_fighter f;

    join("ivy");
    run("ivy", 0, "register ivyivy1");
    HAS(run("ivy", 0, "create Murphy rules=sugarray skill=12"),
        "a new SUGAR RAY boxer starts at skill 10, endurance 20: give no numbers, just create "
        "Murphy rules=sugarray");
    HAS(run("ivy", 0, "create Murphy rules=sugarray"),
        "Murphy (sugarray) is ready: skill 10, endurance 20");
    HAS(run("ivy", 0, "train str"), "you have no fighter to train str");
    HAS(run("ivy", 0, "train skill"), "Murphy trains skill: +1, now skill 11, endurance 20");
    HAS(run("ivy", 0, "train endurance"), "once between turns");
    ck_assert_int_eq(db_fighter_get(bot.db, "murphy", &f), DB_OK);
    ck_assert_int_eq(f.sheet.u.sugarray.skill, 11);
    ck_assert_int_eq(f.trained, 1);
    /* A new turn: training again; "end" names endurance too (a die, 1 to 5). */
    f.trained = 0;
    ck_assert_int_eq(db_fighter_save(bot.db, &f), DB_OK);
    HAS(run("ivy", 0, "train end"), "Murphy trains endurance: +");
    ck_assert_int_eq(db_fighter_get(bot.db, "murphy", &f), DB_OK);
    ck_assert_int_ge(f.sheet.u.sugarray.endurance, 21);
    ck_assert_int_le(f.sheet.u.sugarray.endurance, 25);
    /* A missed turn: no training. */
    f.trained = 0;
    f.missed = 1;
    ck_assert_int_eq(db_fighter_save(bot.db, &f), DB_OK);
    HAS(run("ivy", 0, "train skill"), "missed the last turn");
    /* A boxer and a SUGAR RAY boxer: each trains what his rules have. */
    run("ivy", 0, "create Joe str=12 spd=12 agl=12 tgh=12 hgt=12");
    HAS(run("ivy", 0, "train skill Joe"),
        "Joe is a boxing fighter: train str, spd, agl, tgh or hgt");
    HAS(run("ivy", 0, "train xyz"), "train what? boxing: train str, spd, agl, tgh or hgt; SUGAR "
                                    "RAY: train skill or endurance");
    HAS(run("ivy", 0, "create Kid rules=boxing"),
        "give the five abilities, 60 points in all, each 5 to 20: e.g. create Kid str=12 spd=12 "
        "agl=12 tgh=12 hgt=12");
    HAS(run("ivy", 0, "fighter Murphy"), "Murphy (sugarray, ivy): skill 11");
}
END_TEST

/* Duellists: created with the four abilities only, then equipped from
 * the armoury; every refusal says why and changes nothing; the equipment
 * is stored with its condition; duellists do not train. */
START_TEST(test_duellist_and_armoury)
{
    struct db_fighter f;

    join("dora");
    run("dora", 0, "register doradora1");
    HAS(run("dora", 0, "create Conan rules=duel str=18 dex=14 con=14 int=11"),
        "add up to 57; spread exactly 56");
    HAS(run("dora", 0, "create Conan rules=duel str=24 dex=14 con=14 int=4"), "str=24 is over 23");
    HAS(run("dora", 0, "create Conan rules=duel str=18 dex=14 con=14 int=10 weapon=longsword"),
        "a new duellist starts with nothing: create Conan with the abilities only, then equip "
        "Conan <slot=item>...");
    HAS(run("dora", 0, "create Conan rules=duel str=18 dex=14 con=14 int=10"),
        "Conan (duel) is ready: STR 18 DEX 14 CON 14 INT 10");
    HAS(run("dora", 0, "fighter Conan"), "Conan carries: no equipment (bare fists)");
    /* The armoury: every item with its figures. */
    const char *arm = run("dora", 0, "armoury");
    HAS(arm, "longsword (weapon=longsword): STR 11, damage 3-10, blunt/cut 20/80, reach 4, armour "
             "pen. 65, critical 1% to 10%, 1.814 kg, wear factor 1");
    HAS(arm, "the Punisher (weapon=the_punisher): STR 20, damage 7-17");
    HAS(arm, "plate: defence 6, STR 17, 4.53/11/2.268/4.536/13.607 kg");
    ck_assert_ptr_null(strstr(run("dora", 0, "armoury weapons"), "plate: defence"));
    ck_assert_ptr_null(strstr(run("dora", 0, "armoury armour"), "longsword (weapon"));
    HAS(run("dora", 0, "armoury shoes"), "armoury shows weapons or armour");
    /* Refusals, each with its reason. */
    HAS(run("dora", 0, "equip Conan weapon=the_punisher"),
        "Conan: weapon=the_punisher needs STR 20, and STR is 18; nothing changed");
    HAS(run("dora", 0, "equip Conan plate"), "which plate piece? say head=plate");
    HAS(run("dora", 0, "equip Conan spoon"), "\"spoon\" is not in the armoury");
    HAS(run("dora", 0, "equip Conan weapon=mace:50"), "a new piece starts at 100%");
    HAS(run("dora", 0, "equip Conan torso=plate+leather"),
        "only a chainmail torso may go under a leather one");
    HAS(run("dora", 0, "equip Rocky weapon=mace"), "there is no fighter Rocky");
    ck_assert_int_eq(db_fighter_get(bot.db, "conan", &f), DB_OK);
    ck_assert_int_eq(f.sheet.u.duel.item[DUEL_WEAPON], 0);
    /* Equipped, stored, shown with the condition and the encumbrance. */
    HAS(run("dora", 0, "equip Conan longsword head=plate torso=chainmail+leather shield=leather"),
        "Conan takes longsword, plate helmet, leather armour, chainmail shirt, leather shield. "
        "Now: longsword 100.0%, plate helmet 100.0%, leather armour 100.0%, chainmail shirt "
        "100.0%, leather shield 100.0%; encumbrance ");
    ck_assert_int_eq(db_fighter_get(bot.db, "conan", &f), DB_OK);
    ck_assert_int_eq(f.sheet.u.duel.item[DUEL_WEAPON], DUEL_LONGSWORD);
    ck_assert_int_eq(f.sheet.u.duel.item[DUEL_UNDER], DUEL_CHAINMAIL);
    ck_assert_int_eq(f.sheet.u.duel.cond[DUEL_SHIELD], DUEL_COND_FULL);
    /* A worn piece shows its condition; a new one replaces it at 100 %. */
    f.sheet.u.duel.cond[DUEL_WEAPON] = 875000;
    ck_assert_int_eq(db_fighter_save(bot.db, &f), DB_OK);
    HAS(run("dora", 1, "!fighter Conan"), "Conan carries: longsword 87.5%, plate helmet 100.0%");
    HAS(run("dora", 0, "equip Conan weapon=mace"), "Conan takes mace. Now: mace 100.0%");
    /* Off comes the leather: the chainmail is the torso piece. */
    HAS(run("dora", 0, "unequip Conan torso"),
        "Conan puts away the leather armour for good. Now: mace 100.0%, plate helmet 100.0%, "
        "chainmail armour 100.0%");
    HAS(run("dora", 0, "unequip Conan feet"), "Conan has nothing in feet");
    HAS(run("dora", 0, "unequip Conan hat"), "\"hat\" is no slot");
    HAS(run("dora", 0, "train str Conan"), "Conan is a duellist: duel fighters do not train");
    /* Not a duellist. */
    run("dora", 0, "create Joe str=12 spd=12 agl=12 tgh=12 hgt=12");
    HAS(run("dora", 0, "equip Joe weapon=mace"),
        "Joe is a boxing fighter: only duellists (rules=duel) carry weapons and armour");
    join("eve");
    run("eve", 0, "register eveeve11");
    HAS(run("eve", 0, "equip Conan weapon=knife"), "Conan belongs to dora, not to you");
}
END_TEST

START_TEST(test_train_and_retire)
{
    struct db_fighter f;

    join("hal");
    run("hal", 0, "register halhal1");
    run("hal", 0, "create Joe str=12 spd=12 agl=12 tgh=12 hgt=12");
    HAS(run("hal", 0, "train str"), "no training points");
    ck_assert_int_eq(db_fighter_get(bot.db, "joe", &f), DB_OK);
    f.training_points = 2;
    f.wins = 1; /* he fought: retired, not removed */
    f.sheet.u.boxing.spd = 25;
    ck_assert_int_eq(db_fighter_save(bot.db, &f), DB_OK);
    HAS(run("hal", 0, "train spd"), "spd is 25, the most");
    HAS(run("hal", 0, "train str"), "Joe's str is now 13 (1 training point left)");
    HAS(run("hal", 0, "train hgt Joe"), "Joe's hgt is now 13 (0 training points left)");
    HAS(run("hal", 0, "train xyz"), "train str, spd, agl, tgh or hgt");
    HAS(run("hal", 0, "retire Joe"), "Joe retires");
    HAS(run("hal", 0, "train str Joe"), "Joe is retired");
    ck_assert_int_eq(db_fighter_get(bot.db, "joe", &f), DB_OK);
    ck_assert_int_eq(f.retired, 1);
    ck_assert_int_eq(f.sheet.u.boxing.str, 13);
}
END_TEST

START_TEST(test_admin_ban)
{
    join("boss");
    join("ivy");
    admin_login("boss");
    run("ivy", 0, "register ivyivy1");
    HAS(run("ivy", 1, "!ban boss"), "for the bot's admins only");
    HAS(run("boss", 1, "!ban ivy"), "ivy is banned and was logged out");
    HAS(run("ivy", 0, "identify ivyivy1"), "the account ivy is banned");
    HAS(run("boss", 1, "!ban boss"), "is an admin");
    HAS(run("boss", 1, "!unban ivy"), "ivy is no longer banned");
    HAS(run("ivy", 0, "identify ivyivy1"), "identified as ivy");
    HAS(run("boss", 1, "!ban nobody"), "there is no account nobody");
}
END_TEST

/* Admin rights are never taken by registering a listed name: a name alone
 * counts only through services; a configured hash, or the operator's
 * --add-admin, makes one. */
START_TEST(test_admin_rules)
{
    char err[256];
    int existed;

    join("boss");
    join("mallory");
    /* "boss" is listed by name only, accounts = both: register refused. */
    HAS(run("boss", 0, "register stolen11"), "is one of this bot's admins");
    HAS(run("boss", 1, "!ban mallory"), "ban needs an account");
    /* An account of that name made before the name was listed (squatted):
     * its password works, but gives no rights. */
    ck_assert_int_eq(db_account_create(bot.db, "boss", "boss", "$y$j9T$x$y", 0, NULL), DB_OK);
    ck_assert_int_eq(bot_is_admin(&bot, "boss"), 0);
    bot.cfg.accounts = ACCOUNTS_PASSWORDS;
    ck_assert_int_eq(bot_is_admin(&bot, "boss"), 0);
    /* The same account following services (no password): an admin under
     * both, never under passwords. */
    struct db_account acc;
    ck_assert_int_eq(db_account_get(bot.db, "boss", &acc), DB_OK);
    ck_assert_int_eq(db_account_set_hash(bot.db, acc.id, PASSWORD_NONE), DB_OK);
    ck_assert_int_eq(bot_is_admin(&bot, "boss"), 0);
    bot.cfg.accounts = ACCOUNTS_BOTH;
    ck_assert_int_eq(bot_is_admin(&bot, "boss"), 1);
    bot.cfg.accounts = ACCOUNTS_SERVICES;
    ck_assert_int_eq(bot_is_admin(&bot, "boss"), 1);
    bot.cfg.accounts = ACCOUNTS_PASSWORDS;
    /* A hash in the configuration: its password, and only it, makes him one
     * (the squatter's account takes the operator's hash at his identify). */
    ck_assert_int_eq(password_hash("operator1", bot.cfg.admin_hash[0], CONFIG_HASH_MAX), 0);
    HAS(run("boss", 0, "identify stolen11"), "wrong password for boss");
    HAS(run("boss", 0, "identify operator1"), "you are identified as boss");
    HAS(run("boss", 0, "identify operator1"), "");
    ck_assert_int_eq(bot_is_admin(&bot, "boss"), 1);
    HAS(run("boss", 0, "passwd operator1 another1"), "set in the bot's configuration");
    HAS(run("boss", 1, "!ban mallory"), "there is no account mallory");
    /* --add-admin: an unlisted name, made by the operator. */
    bot.cfg.admin_hash[0][0] = '\0';
    ck_assert_int_eq(accounts_add_admin(bot.db, "op", "op-pass1", &existed, err, sizeof(err)), 0);
    ck_assert_int_eq(existed, 0);
    ck_assert_int_eq(bot_is_admin(&bot, "op"), 1);
    ck_assert_int_eq(accounts_add_admin(bot.db, "1x", "op-pass1", &existed, err, sizeof(err)), -1);
    ck_assert_int_eq(accounts_add_admin(bot.db, "op", "short", &existed, err, sizeof(err)), -1);
    ck_assert_int_eq(accounts_remove_admin(bot.db, "op", err, sizeof(err)), 0);
    ck_assert_int_eq(bot_is_admin(&bot, "op"), 0);
    ck_assert_int_eq(accounts_remove_admin(bot.db, "nobody", err, sizeof(err)), -1);
}
END_TEST

/* The waits: free for AUTH_FREE failures, then doubling, capped. */
START_TEST(test_auth_wait)
{
    ck_assert_int_eq(auth_wait(0, 0, 100), 0);
    ck_assert_int_eq(auth_wait(AUTH_FREE - 1, 100, 100), 0);
    ck_assert_int_eq(auth_wait(AUTH_FREE, 100, 100), 2);
    ck_assert_int_eq(auth_wait(AUTH_FREE + 1, 100, 101), 3);
    ck_assert_int_eq(auth_wait(AUTH_FREE + 3, 100, 100), 16);
    ck_assert_int_eq(auth_wait(AUTH_FREE + 3, 100, 116), 0);
    ck_assert_int_eq(auth_wait(1000, 100, 100), AUTH_WAIT_MAX);
    ck_assert_int_eq(auth_wait(1000, 100000, 0), AUTH_WAIT_MAX); /* clock set back */
}
END_TEST

/* Guessing identify: limited per account (kept in the database) and per
 * source, told to the owner at his next login. */
START_TEST(test_identify_limited)
{
    join("alice");
    join("eve");
    join("mal");
    bot.auth.now = 5000;
    HAS(run("alice", 0, "register alicepw1"), "registered");
    run("alice", 0, "logout");
    for (int i = 0; i < AUTH_FREE; i++)
        HAS(run("eve", 0, "identify alice guess000"), "wrong password for alice");
    HAS(run("eve", 0, "identify alice guess000"),
        "too many failed attempts for alice; try again in 2 s");
    /* Another nick, another source: the account's limit holds. */
    HAS(run("mal", 0, "identify alice alicepw1"), "too many failed attempts for alice");
    bot.auth.now += 2;
    HAS(run("eve", 0, "identify alice guess001"), "wrong password for alice");
    HAS(run("eve", 0, "identify alice guess002"), "try again in 4 s");
    struct db_account acc;
    ck_assert_int_eq(db_account_get(bot.db, "alice", &acc), DB_OK);
    ck_assert_int_eq(acc.failures, AUTH_FREE + 1);
    ck_assert_str_eq(acc.failed_from, "eve"); /* no host: the nick */
    /* The source is limited on its own: eve's guesses at another account. */
    HAS(run("eve", 0, "register evepass1"), "registered");
    run("eve", 0, "logout");
    /* Told to wait 4 s a moment ago: not answered again before then, and
     * his answers go behind everyone else's meanwhile. */
    ck_assert_str_eq(run("eve", 0, "identify eve evepass1"), "");
    HAS(run("mal", 0, "identify mal x"), "there is no account mal; check its name");
    /* From a nick that is not his account's name: told how to name it. */
    HAS(run("mal", 0, "identify malpass1"),
        "there is no account mal; identify <account> <password> for one of another name");
    bot.auth.now += 4;
    HAS(run("eve", 0, "identify eve evepass1"), "you are identified as eve");
    run("eve", 0, "logout");
    /* A restart keeps the account's count (the database). */
    memset(&bot.auth, 0, sizeof(bot.auth));
    bot.auth.now = 5002;
    HAS(run("alice", 0, "identify alicepw1"), "try again in 4 s");
    bot.auth.now += 4;
    const char *out = run("alice", 0, "identify alicepw1");
    HAS(out, "you are identified as alice");
    HAS(out, "4 failed attempts to identify as alice since your last login, the last from eve");
    ck_assert_int_eq(db_account_get(bot.db, "alice", &acc), DB_OK);
    ck_assert_int_eq(acc.failures, 0);
    run("alice", 0, "logout");
    ck_assert_ptr_null(strstr(run("alice", 0, "identify alicepw1"), "failed attempt"));
    /* The source: the host of nick!user@host. */
    char from[AUTH_FROM_MAX];
    bot.origin = "x!y@host.example";
    auth_source(&bot, "x", from);
    ck_assert_str_eq(from, "host.example");
    bot.origin = NULL;
    /* The hashing budget, spent: a suspect try (a source or an account with
     * wrong passwords) waits a moment, told once; a first try never does,
     * nor a register. */
    HAS(run("mal", 0, "identify alice guess008"), "wrong password for alice");
    bot.auth.budget = 0.001;
    bot.auth.window = bot_clock();
    bot.auth.spent = 1;
    HAS(run("mal", 0, "identify alice guess009"), "checking many passwords right now");
    ck_assert_str_eq(run("mal", 0, "identify alice guess010"), "");
    run("alice", 0, "logout");
    HAS(run("alice", 0, "register alicepw9"), "the account alice exists already");
    join("newbie");
    HAS(run("newbie", 0, "register newbiepw"), "registered");
}
END_TEST

/* The accounts in the database. */
static int64_t accounts_count(void)
{
    struct dbs *q = dbs_prepare(bot.db, "SELECT count(*) FROM accounts");
    ck_assert_msg(q != NULL, "%s", db_errmsg(bot.db));
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    int64_t n = dbs_col_int64(q, 0);
    dbs_free(q);
    return n;
}

/* `nick` (in #ringside) says register from nick!u@host: what he is told. */
static const char *register_from(const char *nick, const char *host)
{
    char origin[128], line[64];

    join(nick);
    snprintf(origin, sizeof(origin), "%s!u@%s", nick, host);
    snprintf(line, sizeof(line), "register %s-pw-1", nick);
    bot.origin = origin;
    const char *out = run(nick, 0, line);
    bot.origin = NULL;
    return out;
}

/* Making accounts without end (one host with many nicks, or many hosts)
 * grew the database without bound: registrations are limited per host a
 * UTC day and from all hosts a clock hour, refused in one line that says
 * the limit and when, adding no row; another host, the next hour and the
 * next day are allowed. */
START_TEST(test_register_limited)
{
    const int64_t day = 20000 * 86400LL;
    char nick[16], host[32];

    bot.auth.now = day + 10 * 3600 + 1800; /* 10:30 UTC */
    ck_assert_int_eq(bot.cfg.registrations_per_host, 10);
    ck_assert_int_eq(bot.cfg.registrations_per_hour, 30);
    bot.cfg.registrations_per_host = 3; /* the rest with 3 a day */
    for (int i = 1; i <= 3; i++) {
        snprintf(nick, sizeof(nick), "h%d", i);
        HAS(register_from(nick, "a.example"), "registered, and you are identified");
    }
    int64_t before = accounts_count();
    for (int i = 0; i < 2; i++) /* asked again: the same line, still nothing */
        ck_assert_str_eq(register_from("h4", "a.example"),
                         "PRIVMSG h4 :3 accounts were registered from your host today, the most "
                         "in a day; register after 00:00 UTC (in 13 hours 30 minutes), or "
                         "identify <account> <password> to use one you have\n");
    struct db_account acc;
    ck_assert_int_eq(db_account_get(bot.db, "h4", &acc), DB_NOTFOUND);
    ck_assert_int_eq(accounts_count(), before);
    /* The host is what counts, whatever the nick or the user name. */
    HAS(register_from("h5", "b.example"), "registered"); /* another host */
    HAS(register_from("h6", "A.Example"), "3 accounts were registered from your host today");
    /* An IPv6 /64 is one host. */
    HAS(register_from("v1", "2001:db8:1:2::5"), "registered");
    HAS(register_from("v2", "2001:db8:1:2:ffff::9"), "registered");
    HAS(register_from("v3", "2001:0db8:0001:0002:0:0:0:7"), "registered");
    HAS(register_from("v4", "2001:db8:1:2::8"), "3 accounts were registered from your host");
    HAS(register_from("v5", "2001:db8:1:3::1"), "registered");
    /* An IPv4 address written as IPv6 is that address alone. */
    char from[AUTH_FROM_MAX];
    bot.origin = "x!u@::ffff:192.0.2.1";
    auth_reg_source(&bot, "x", from);
    ck_assert_str_eq(from, "::ffff:192.0.2.1");
    bot.origin = "x!u@2001:DB8:1:2::5";
    auth_reg_source(&bot, "x", from);
    ck_assert_str_eq(from, "2001:0db8:0001:0002::/64");
    bot.origin = NULL;
    /* 8 this hour so far; 22 more from as many hosts, then none. */
    for (int i = 0; i < 22; i++) {
        snprintf(nick, sizeof(nick), "n%d", i);
        snprintf(host, sizeof(host), "h%d.example", i);
        HAS(register_from(nick, host), "registered, and you are identified");
    }
    before = accounts_count();
    bot.auth.now = day + 10 * 3600 + 3599; /* 10:59:59 */
    ck_assert_str_eq(register_from("late", "fresh.example"),
                     "PRIVMSG late :30 accounts were registered this hour, the most I take in an "
                     "hour; register after 11:00 UTC (in 1 minute), or identify <account> "
                     "<password> to use one you have\n");
    ck_assert_int_eq(accounts_count(), before);
    /* The next hour: a new host may; a.example still may not today. */
    bot.auth.now = day + 11 * 3600;
    HAS(register_from("late", "fresh.example"), "account late registered");
    HAS(register_from("h4", "a.example"),
        "register after 00:00 UTC (in 13 hours), or identify <account> <password>");
    /* The next UTC day: a.example again. */
    bot.auth.now = day + 86400 + 60;
    HAS(register_from("h4", "a.example"), "account h4 registered");
    ck_assert_int_eq(accounts_count(), before + 2);
    /* Limits of one, as configured: said in the singular. */
    bot.cfg.registrations_per_host = 1;
    bot.cfg.registrations_per_hour = 1;
    HAS(register_from("h7", "a.example"),
        "PRIVMSG h7 :1 account was registered from your host today, the most in a day;");
    HAS(register_from("k1", "k.example"),
        "PRIVMSG k1 :1 account was registered this hour, the most I take in an hour; register "
        "after 01:00 UTC (in 59 minutes)");
}
END_TEST

/* The rows in table `t`. */
static int64_t rows_in(const char *t)
{
    char sql[64];

    snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", t);
    struct dbs *q = dbs_prepare(bot.db, sql);
    ck_assert_msg(q != NULL, "%s", db_errmsg(bot.db));
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    int64_t n = dbs_col_int64(q, 0);
    dbs_free(q);
    return n;
}

/* register said in a channel by a nick without an account stores a burnt
 * password under his name: a nick renamed again and again grew the
 * database by a row each time. It counts as a register from his host, and
 * past the limits stores nothing. */
START_TEST(test_register_said_limited)
{
    char origin[64], nick[16];

    bot.auth.now = 20000 * 86400LL + 12 * 3600; /* 12:00 UTC */
    bot.cfg.registrations_per_host = 3;
    for (int i = 0; i < 3; i++) {
        snprintf(nick, sizeof(nick), "s%d", i);
        snprintf(origin, sizeof(origin), "%s!u@c.example", nick);
        join(nick);
        bot.origin = origin;
        HAS(run(nick, 1, "!register saidpw1"), "so I will never take it for");
        bot.origin = NULL;
    }
    int64_t burnt = rows_in("burnt_passwords");
    ck_assert_int_eq(burnt, 3);
    join("s3");
    bot.origin = "s3!u@c.example";
    ck_assert_str_eq(run("s3", 1, "!register saidpw1"),
                     "PRIVMSG #ringside :s3: never say a password in a channel: everyone in "
                     "#ringside saw it. Register in private: /msg ringside register <password>\n");
    ck_assert_int_eq(rows_in("burnt_passwords"), burnt);
    HAS(run("s3", 0, "register s3-pw-1"), "3 accounts were registered from your host today");
    bot.origin = "s3!u@d.example"; /* another host: burnt as before */
    HAS(run("s3", 1, "!register saidpw1"), "so I will never take it for s3");
    bot.origin = NULL;
    ck_assert_int_eq(rows_in("burnt_passwords"), burnt + 1);
}
END_TEST

/* help explains: each ruleset's orders and abilities in plain words, where
 * a command works and what it needs, with the prefix in a channel. */
START_TEST(test_help_teaches)
{
    join("newbie");
    const char *out = run("newbie", 0, "help order");
    HAS(out, "PRIVMSG newbie :order [#bout] <orders>: your orders for the next round, sent to "
             "me in private (/msg)");
    HAS(out, "(identify first)");
    HAS(out, "PRIVMSG newbie :Boxing orders are AGG/POW/DEF, e.g. 5H/8!/7 (inside): AGG is how "
             "many punches you throw");
    HAS(out, "SUGAR RAY orders are attack/defence, e.g. 3/2");
    ck_assert_ptr_null(strstr(out, "[private]"));
    out = run("newbie", 1, "!help create");
    HAS(out, "!create <name>");
    HAS(out, "str (strength: how hard punches hurt), spd (speed: how many land)");
    HAS(out, "skill lowers the endurance each round costs you");
    HAS(run("newbie", 1, "!help ban"), "PRIVMSG #ringside :newbie: !ban <account>: bans an "
                                       "account: it can no longer identify (admins "
                                       "only)\n");
    HAS(run("newbie", 1, "!help set"), "; each change is logged (admins only)\n");
    /* help rating: two lines, the command and what moves a rating. */
    ck_assert_str_eq(
        run("newbie", 0, "help rating"),
        "PRIVMSG newbie :ratings [rules=boxing|sugarray|duel]: the highest Glicko-2 ratings of a "
        "ruleset (rating \xc2\xb1 deviation), with the page of them all (also: rating)\n"
        "PRIVMSG newbie :Every bout that counts (league and title bouts, exhibitions) moves both "
        "fighters' ratings (newcomers 1500 \xc2\xb1 350): a win more against a higher rating, a "
        "loss more against a lower one, and more while the \xc2\xb1 (how sure it is) is wide; "
        "each bout narrows it.\n");
    /* help train: where a boxer learns of his training points. */
    HAS(run("newbie", 0, "help train"),
        "PRIVMSG newbie :train <str|spd|agl|tgh|hgt|skill|endurance> "
        "[fighter]: boxing: spends a training point for +1 to an "
        "ability (at most 25); a win earns 1 (inside the distance "
        "2), said with the records at the end of the bout, and "
        "fighter <name> shows those left; SUGAR RAY: once between "
        "league turns, skill +1 or endurance +1d5");
    HAS(run("newbie", 0, "help register"),
        "PRIVMSG newbie :register <password>: creates an account named after your nick (in "
        "private: /msg ringside)\n");
    HAS(run("newbie", 0, "help resetpass"),
        "who is no longer identified; logged (in private: /msg ringside; admins only)\n");
    /* Each tag once: the generated "(admins only)", "(in private: ...)"
     * are the only ones; no help line says them again. */
    for (int i = 0; cmd_table[i]; i++) {
        const char *h = cmd_table[i]->help;
        ck_assert_msg(!strstr(h, "admins") && !strstr(h, "in private only"), "%s: %s",
                      cmd_table[i]->name, h);
    }
    ck_assert_ptr_null(strstr(run("newbie", 1, "!help version"), "("));
}
END_TEST

START_TEST(test_hostile_input)
{
    static const char *const lines[] = {
        "!fighter %s%n%x%p",
        "!create %n%n%n str=12 spd=12 agl=12 tgh=12 hgt=12",
        "!help %s",
        "!\x01VERSION\x01",
        "!fighter \xff\xfe\xfd",
        "!fighters aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "!identify",
        "!a b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3 4",
    };

    join("joe");
    for (unsigned i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
        const char *out = run("joe", 1, lines[i]);
        /* One line of answer each, never a format directive expanded. */
        ck_assert_msg(out[0] != '\0', "no answer to %s", lines[i]);
        ck_assert_ptr_null(strstr(out, "(null)"));
        ck_assert_ptr_null(strchr(out, '\r'));
    }
    HAS(run("joe", 1, "!fighter %s%n%x%p"), "not a fighter's name");
}
END_TEST

/* version's text is built once and said as it is: the same words each
 * time, in private and in the channel; a reply longer than the stack
 * buffer vreply formats into is still said whole (cut by the queue, not
 * lost). */
START_TEST(test_reply_text_and_long)
{
    const char *v =
        "Ringside " RINGSIDE_VERSION ", an IRC boxing bot (rules: boxing, sugarray, duel)";
    char want[256];

    join("kim");
    snprintf(want, sizeof(want), "PRIVMSG kim :%s\n", v);
    ck_assert_str_eq(run("kim", 0, "version"), want);
    ck_assert_str_eq(run("kim", 0, "version"), want);
    snprintf(want, sizeof(want), "PRIVMSG #ringside :kim: %s\n", v);
    ck_assert_str_eq(run("kim", 1, "!version"), want);

    char word[700], out[8192];
    memset(word, 'a', sizeof(word) - 1);
    word[sizeof(word) - 1] = '\0';
    struct cmd_ctx ctx;
    memset(&ctx, 0, sizeof(ctx));
    ctx.bot = &bot;
    ctx.nick = "kim";
    reply(&ctx, "long %s.", word);
    const char *wire = bot_fixture_drain(&bot, bot.now + 1000, out, sizeof(out));
    size_t as = 0;
    for (const char *p = wire; *p; p++)
        as += *p == 'a';
    ck_assert_uint_eq(as, sizeof(word) - 1);
    ck_assert_msg(strncmp(wire, "PRIVMSG kim :long", 17) == 0, "%s", wire);
    ck_assert_ptr_nonnull(strstr(wire, "aaa.\n"));
}
END_TEST

START_TEST(test_flood_limit_one_notice)
{
    int answered = 0, notices = 0;

    join("kim");
    for (int i = 0; i < USERS_RATE_CMDS + 7; i++) {
        cmd_dispatch(&bot, "kim", "#ringside", "!version");
        char line[OUTQ_LINE_MAX];
        for (double t_ = bot.now + 1000; outq_len(bot.q) > 0; t_ += 1)
            if (outq_pop(bot.q, t_, line)) {
                answered += strstr(line, "Ringside " RINGSIDE_VERSION) != NULL;
                notices += strstr(line, "too many commands") != NULL;
            }
        bot.now += 0.1;
    }
    ck_assert_int_eq(answered, USERS_RATE_CMDS);
    ck_assert_int_eq(notices, 1);
}
END_TEST

/* Learning is not punished: help, typos and refusals count a third
 * toward the limit, and each command past it is told when he may go on,
 * unless he was told a few seconds before. */
START_TEST(test_flood_learning)
{
    join("lea");
    for (int i = 0; i < 3 * USERS_RATE_CMDS; i++) {
        const char *say[] = {"help", "helo", "create"};
        bot.now += 0.1;
        ck_assert_str_ne(run_at("lea", 0, say[i % 3]), "");
    }
    bot.now += 0.1;
    /* 36 thirds in 3.6 s: 2.1 came back, less than a command's worth. */
    ck_assert_str_eq(run_at("lea", 0, "version"),
                     "PRIVMSG lea :too many commands: I take yours again in 4 seconds; at most 12 "
                     "at once, then one every 5 seconds, please (help, typos and refused commands "
                     "count a third, and so does each command sent meanwhile; orders for your own "
                     "bout are always taken)\n");
    bot.now += 1;
    ck_assert_str_eq(run_at("lea", 0, "version"), ""); /* told a second ago */
    /* A prediction is never dropped unsaid. */
    ck_assert_str_eq(run_at("lea", 0, "predict 1 Rocky"),
                     "PRIVMSG lea :too many commands: your prediction was not taken; say it again "
                     "in 6 seconds\n");
    bot.now += USERS_RATE_TELL_EVERY;
    ck_assert_str_eq(run_at("lea", 0, "version"),
                     "PRIVMSG lea :too many commands: I take yours again in 3 seconds (orders for "
                     "your own bout are always taken)\n");
    /* Slowed, not ignored: he waits as told and goes on. */
    bot.now += 3;
    HAS(run_at("lea", 0, "version"), "PRIVMSG lea :Ringside ");
    /* Successful commands count in full: twelve, then the limit. */
    join("max");
    for (int i = 0; i < USERS_RATE_CMDS; i++) {
        bot.now += 0.1;
        HAS(run_at("max", 0, "version"), "Ringside ");
    }
    bot.now += 0.1;
    HAS(run_at("max", 0, "version"),
        "too many commands: I take yours again in 6 seconds; at most 12");
}
END_TEST

/* README's first steps, as a newcomer types them: help, register, three
 * fighters, a look at each, the armoury, a sword, a plan, and a
 * challenge: 15 commands, 13 of them counted in full (41 thirds, more
 * than the 36 of twelve commands a minute). B, S and D stand for his
 * boxer's, SUGAR RAY boxer's and duellist's names. */
static const char *const newcomer_steps[] = {
    "help",
    "register newbie-pw-1",
    "create B str=12 spd=12 agl=12 tgh=12 hgt=12",
    "create S rules=sugarray",
    "create D rules=duel str=14 dex=14 con=14 int=14",
    "fighter B",
    "fighter S",
    "fighter D",
    "fighters",
    "armoury",
    "equip D longsword",
    "plan set B 5/5/10",
    "plan show B",
    "help challenge",
    "!challenge nobody",
};
#define NEWCOMER_STEPS ((int)(sizeof(newcomer_steps) / sizeof(newcomer_steps[0])))

/* Runs the newcomer's steps as `nick` with his fighters' names (B, S, D
 * of names[]), step i at start + at[i]; each must be answered (the
 * challenge in the channel, the rest in private) and succeed up to the
 * challenge of nobody, never refused for the limit, never met with
 * silence. */
static void newcomer_walk(const char *nick, const char *const names[3], const double *at)
{
    double start = bot.now;
    char step[128];

    join(nick);
    for (int i = 0; i < NEWCOMER_STEPS; i++) {
        size_t n = 0;
        for (const char *p = newcomer_steps[i]; *p && n + 32 < sizeof(step); p++) {
            const char *holder = strchr("BSD", *p);
            if (holder)
                n += (size_t)snprintf(step + n, sizeof(step) - n, "%s", names[holder - "BSD"]);
            else
                step[n++] = *p;
        }
        step[n] = '\0';
        bot.now = start + at[i];
        const char *out = run_at(nick, step[0] == '!', step);
        ck_assert_msg(out[0] != '\0', "step %d (%s) at %.1f s: no answer", i + 1, step, at[i]);
        ck_assert_msg(!strstr(out, "too many commands") && !strstr(out, "already"),
                      "step %d (%s) at %.1f s: %s", i + 1, step, at[i], out);
    }
}

/* A newcomer is never silenced for following README's first steps:
 * typed one every 2.9 s (15 in 40 s), or pasted through a client's own
 * flood control (irssi: 5 at once, then one every 2.2 s). Under the old
 * fixed window (12 a minute, then a minute ignored) the 14th was refused
 * and the 15th met silence. */
START_TEST(test_flood_newcomer)
{
    double typed[NEWCOMER_STEPS], pasted[NEWCOMER_STEPS];

    for (int i = 0; i < NEWCOMER_STEPS; i++) {
        typed[i] = i * 40.0 / (NEWCOMER_STEPS - 1);
        pasted[i] = i < 5 ? 0 : (i - 4) * 2.2;
    }
    static const char *const typist[3] = {"Rocky", "Apollo", "Conan"};
    static const char *const paster[3] = {"Tyson", "Frazier", "Xena"};
    newcomer_walk("newbie", typist, typed);
    bot.now += 1000;
    newcomer_walk("paster", paster, pasted);
    /* And past the pace he is slowed, not ignored: told in one line when
     * to go on, and answered once he has waited that long. */
    int told = 0;
    for (int i = 0; i < 10 && !told; i++) {
        const char *out = run_at("paster", 0, "fighters");
        told = strstr(out, "too many commands: I take yours again in ") != NULL;
    }
    ck_assert(told);
    int wait = (int)(users_rate_wait(bot.users, "paster", bot.now) + 0.999);
    ck_assert(wait > 0 && wait <= USERS_RATE_PAUSE + USERS_RATE_WINDOW / USERS_RATE_CMDS);
    bot.now += wait;
    HAS(run_at("paster", 0, "fighters"), "PRIVMSG paster :");
}
END_TEST

/* A stranger's flood, 100 commands in 10 s in the channel, is still cut
 * off: twelve answered, his notices private and at most one every 5 s,
 * nothing more while he keeps on, and then the pause ([flood]
 * ignore_seconds) before he is heard again. */
START_TEST(test_flood_cut_off)
{
    int answered = 0, notices = 0, channel = 0;
    char line[OUTQ_LINE_MAX];

    join("troll");
    double start = bot.now;
    for (int i = 0; i < 100; i++) {
        bot.now = start + i * 0.1;
        cmd_dispatch(&bot, "troll", "#ringside", "!version");
        for (double t_ = bot.now + 1000; outq_len(bot.q) > 0; t_ += 1)
            if (outq_pop(bot.q, t_, line)) {
                channel += strncmp(line, "PRIVMSG #ringside ", 18) == 0;
                answered += strstr(line, "Ringside " RINGSIDE_VERSION) != NULL;
                notices += strncmp(line, "PRIVMSG troll :too many commands", 32) == 0;
            }
    }
    ck_assert_int_eq(answered, USERS_RATE_CMDS);
    ck_assert_int_eq(channel, USERS_RATE_CMDS); /* the answers only */
    ck_assert_int_le(notices, 1 + (int)(10 / USERS_RATE_TELL_EVERY));
    ck_assert_int_ge(notices, 1);
    double wait = users_rate_wait(bot.users, "troll", bot.now);
    ck_assert(wait >= USERS_RATE_PAUSE && wait <= USERS_RATE_PAUSE + 0.01);
    bot.now += USERS_RATE_PAUSE - 1;
    HAS(run_at("troll", 1, "!version"), "PRIVMSG troll :too many commands");
    bot.now += USERS_RATE_PAUSE + 1;
    HAS(run_at("troll", 1, "!version"), "PRIVMSG #ringside :troll: Ringside ");
}
END_TEST

/* A banned player is told so, and what he can still do; a player who
 * left the channel learns in one reply that he must join it again. */
START_TEST(test_banned_and_gone_told)
{
    join("zed");
    HAS(run("zed", 0, "register zedzed11"), "registered");
    join("boss");
    admin_login("boss");
    HAS(run("boss", 0, "ban zed"), "zed is banned and was logged out");
    ck_assert_str_eq(run("zed", 0, "create Zorro str=14 spd=12 agl=11 tgh=12 hgt=11"),
                     "PRIVMSG zed :the account zed is banned: only what needs no account is open "
                     "to you (help, version, fighter, fighters, armoury, bouts, score, report, "
                     "standings, ratings, champion, league, pundits, season, halloffame, "
                     "tournament, bracket)\n");
    HAS(run("zed", 1, "!challenge boss"),
        "zed: the account zed is banned: only what needs no account is open to you (!help, ");
    HAS(run("zed", 0, "5/5/10"), "the account zed is banned");
    HAS(run("boss", 0, "unban zed"), "zed is no longer banned");
    /* zed leaves the channel: one reply says all he must do. */
    users_part(bot.users, "zed", 0);
    ck_assert_str_eq(run("zed", 0, "create Zorro str=14 spd=12 agl=11 tgh=12 hgt=11"),
                     "PRIVMSG zed :create needs an account: join #ringside first, then identify "
                     "(/msg ringside identify <password>); I only keep you identified while we "
                     "share a channel\n");
    ck_assert_str_eq(run("zed", 0, "5/5/10"),
                     "PRIVMSG zed :orders need an account: join #ringside first, then identify "
                     "(/msg ringside identify <password>); I only keep you identified while we "
                     "share a channel\n");
}
END_TEST

/* What the bot queued so far, joined by '\n' (static buffer). */
static const char *queued(void)
{
    static char out[8192];
    char line[OUTQ_LINE_MAX];
    size_t len = 0;

    out[0] = '\0';
    for (double t_ = bot.now + 1000; outq_len(bot.q) > 0; t_ += 1)
        if (outq_pop(bot.q, t_, line))
            len += (size_t)snprintf(out + len, sizeof(out) - len, "%s\n", line);
    return out;
}

START_TEST(test_sim_command)
{
    join("sam");
    join("tia");
    run("sam", 0, "register samsam1");
    run("sam", 0, "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    run("tia", 0, "register tiatia1");
    run("tia", 0, "create Apollo str=14 spd=12 agl=11 tgh=12 hgt=11");
    run("tia", 0, "create Murphy rules=sugarray");
    HAS(run("tia", 0, "plan set Apollo if round >= 1 then towel"), "Apollo's plan stored");

    /* In a channel: one line, whoever asks. */
    HAS(run("sam", 1, "!sim Rocky vs Apollo"),
        "PRIVMSG #ringside :sam: sim works only in private: /msg ringside sim ...");
    HAS(run("ed", 1, "!sim Rocky vs Apollo"), "sim works only in private");
    HAS(run("ed", 0, "sim Rocky vs Apollo"), "sim needs an account: join #ringside first, then "
                                             "identify (/msg ringside identify <password>)");
    join("ed");
    HAS(run("ed", 0, "sim Rocky vs Apollo"), "sim needs an account: identify first");
    /* tournament: its words that need an account say so too (it was
     * silent for one in the channel who had not identified). */
    HAS(run("ed", 1, "!tournament join Rocky"), "tournament join needs an account: identify first");
    /* Words: one line each, nothing started. */
    HAS(run("sam", 0, "sim Rocky"), "missing arguments; usage: sim <your fighter> vs <his fighter> "
                                    "[bouts=N] [plan=<lines>] [hisplan=<lines>] [seed=N]");
    HAS(run("sam", 0, "sim Rocky Apollo bouts=5"),
        "say whom your fighter meets: sim <your fighter> vs <his fighter> [bouts=N]");
    HAS(run("sam", 0, "sim Rocky vs Nobody"), "there is no fighter Nobody");
    HAS(run("sam", 0, "sim Nobody vs Apollo"), "there is no fighter Nobody");
    HAS(run("sam", 0, "sim Rocky vs Apollo frob"), "I don't understand \"frob\"; usage: sim ");
    HAS(run("sam", 0, "sim Rocky vs Apollo bouts=5 BOUTS=6"), "bouts= is given twice");
    HAS(run("sam", 0, "sim Rocky vs Murphy"), "Murphy is a SUGAR RAY fighter and Rocky a boxing");
    HAS(run("sam", 0, "sim Apollo vs Rocky"), "Apollo belongs to tia, not to you");
    HAS(run("sam", 0, "sim Rocky vs Apollo bouts=10001"),
        "bouts=10001: give a whole number of bouts from 1 to 10,000 (without it: 1,000)");
    HAS(run("sam", 0, "sim Rocky vs Apollo bouts=ten"), "bouts=ten: give a whole number");
    HAS(run("sam", 0, "sim Rocky vs Apollo plan=5/5/10; 8/8/8 bouts=3"),
        "plan= refused, nothing simulated: line 2, column 2: AGG+POW+DEF = 24, the most is 20");
    HAS(run("sam", 0, "sim Rocky vs Apollo hisplan=if x then 5/5/10"),
        "hisplan= refused, nothing simulated: line 1, column 4: unknown word \"x\"");
    ck_assert_int_eq(game_sims(bot.game), 0);

    /* The plan's words up to the next option; the answer, when it is
     * fought, is tests/sim_figures.txt's first case (with the plan given;
     * Apollo's stored towel never read). */
    const char *out = run("sam", 0,
                          "sim rocky VS apollo plan=5/6/9; if opp is weak then 8/8/4 (allout); 10) "
                          "if score < 0 then 6H/8!/6 (inside) seed=42 bouts=1000");
    ck_assert_str_eq(out, "");
    ck_assert_int_eq(game_sims(bot.game), 1);
    for (int turns = 0; game_sims(bot.game) > 0; turns++) {
        ck_assert_int_lt(turns, 10000);
        bot_sim_slice(&bot);
    }
    ck_assert_str_eq(queued(), "PRIVMSG sam :Rocky (plan given) vs Apollo (default orders), 1,000 "
                               "bouts, seed 42: Rocky wins 181 (KO 0%, TKO 1%, DQ 0%, decision "
                               "17%), loses 801 (KO 0%, TKO <1%, DQ 17%, decision 63%), draws 18; "
                               "11.8 rounds on average.\n");
    HAS(run("sam", 0, "sim Rocky vs Apollo"),
        "one simulation every 30 seconds, please: try again in 25 seconds");
    /* 10,000 bouts take several turns of the loop (how long a slice takes
     * is measured by make bench, never asserted here). */
    ck_assert_str_eq(run("tia", 0, "sim Apollo vs Rocky bouts=10000 plan=5/6/9"), "");
    int turns = 0;
    while (game_sims(bot.game) > 0) {
        bot_sim_slice(&bot);
        turns++;
    }
    ck_assert_int_ge(turns, 2);
    HAS(queued(), "PRIVMSG tia :Apollo (plan given) vs Rocky (default orders), 10,000 bouts, "
                  "seed ");
    HAS(run("sam", 0, "help sim"), "sim <your fighter> vs <his fighter> [bouts=N] [plan=<lines>] "
                                   "[hisplan=<lines>] [seed=N]: fights your fighter");
    HAS(run("sam", 0, "help sim"), "(in private: /msg ringside; identify first)");
    HAS(run("sam", 0, "help"), " plan sim bouts ");
    /* Duellists with their equipment: the same figures as ringside-sim. */
    join("uma");
    run("uma", 0, "register umauma1");
    run("uma", 0, "create Conan rules=duel str=18 dex=14 con=14 int=10");
    run("uma", 0, "equip Conan longsword head=plate torso=chainmail+leather shield=leather");
    run("tia", 0, "create Zorro rules=duel str=14 dex=20 con=12 int=10");
    run("tia", 0, "equip Zorro mace torso=leather shield=chainmail");
    HAS(run("uma", 0, "sim Conan vs Rocky"), "Rocky is a boxing fighter and Conan a duel");
    ck_assert_str_eq(run("uma", 0,
                         "sim Conan vs Zorro bouts=300 seed=5 plan=if health < 25 "
                         "then yield"),
                     "");
    while (game_sims(bot.game) > 0)
        bot_sim_slice(&bot);
    HAS(queued(), "PRIVMSG uma :Conan (plan given) vs Zorro (default orders), 300 bouts, seed 5: "
                  "Conan wins ");
    game_free(bot.game);
    bot.game = NULL;
}
END_TEST

/* Commands waiting for the server to say who sent them (whois.c): one
 * WHOIS a nick however many wait; a nick that changes asks again under
 * the new one; a nick that quits drops his; when no answer comes they end
 * together, with one line. */
START_TEST(test_whois_waits)
{
    static char out[8192];
    struct whois_wait w;
    int at = 0;

    bot.whois.conn = (const struct conn *)&bot; /* registered: never read here */
    bot.now += 1;
    ck_assert_int_eq(whois_then(&bot, "newbie", NULL, "plan show"), 0);
    ck_assert_int_eq(whois_then(&bot, "newbie", NULL, "bouts"), 0);
    ck_assert_str_eq(bot_fixture_drain(&bot, bot.now + 1000, out, sizeof(out)), "WHOIS newbie\n");
    whois_rename(&bot, "newbie", "newbie2");
    ck_assert_str_eq(bot_fixture_drain(&bot, bot.now + 2000, out, sizeof(out)), "WHOIS newbie2\n");
    ck_assert_int_eq(whois_next(&bot, "newbie", &at, &w), 0);
    bot.now += WHOIS_TIMEOUT + 1;
    whois_expire(&bot);
    ck_assert_str_eq(bot_fixture_drain(&bot, bot.now + 3000, out, sizeof(out)),
                     "PRIVMSG newbie2 :the server did not say in time who you are (WHOIS), so "
                     "those commands were not run; send them again\n");
    at = 0;
    ck_assert_int_eq(whois_next(&bot, "newbie2", &at, &w), 0);
    ck_assert_int_eq(whois_then(&bot, "leaver", NULL, "bouts"), 0);
    whois_forget(&bot, "LEAVER");
    at = 0;
    ck_assert_int_eq(whois_next(&bot, "leaver", &at, &w), 0);
    bot.whois.conn = NULL;
}
END_TEST

Suite *cmd_suite(void)
{
    Suite *s = suite_create("commands");
    TCase *p = tcase_create("parsing");
    TCase *u = tcase_create("identities");
    TCase *c = tcase_create("commands");

    tcase_add_test(p, test_parse_channel_needs_prefix);
    tcase_add_test(p, test_parse_private_prefix_optional);
    tcase_add_test(p, test_parse_too_many_words);
    tcase_add_test(p, test_table_consistent);
    tcase_add_test(p, test_clip_keeps_characters_whole);
    tcase_add_test(p, test_name_keys_agree);
    suite_add_tcase(s, p);

    tcase_add_test(u, test_users_identity_lifecycle);
    tcase_add_test(u, test_users_quit_reset_ban_kick);
    tcase_add_test(u, test_users_casemapping);
    tcase_add_test(u, test_users_rate);
    tcase_add_test(u, test_users_rate_moves);
    tcase_add_test(u, test_users_bounded);
    tcase_add_test(u, test_password_hash);
    suite_add_tcase(s, u);

    tcase_add_checked_fixture(c, bot_setup, bot_teardown);
    tcase_set_timeout(c, 60);
    tcase_add_test(c, test_register_identify_create);
    tcase_add_test(c, test_services_accounts);
    tcase_add_test(c, test_create_errors);
    tcase_add_test(c, test_dispatch_stages_counted);
    tcase_add_test(c, test_bout_target_stage);
    tcase_add_test(c, test_duellist_and_armoury);
    tcase_add_test(c, test_passwords_in_channel_refused);
    tcase_add_test(c, test_identify_said_in_channel_burns);
    tcase_add_test(c, test_wrong_password_in_channel_changes_nothing);
    tcase_add_test(c, test_register_said_in_channel_burns);
    tcase_add_test(c, test_passwd_said_in_channel_burns);
    tcase_add_test(c, test_resetpass);
    tcase_add_test(c, test_passwords_never_in_clear);
    tcase_add_test(c, test_impersonation_after_quit);
    tcase_add_test(c, test_train_and_retire);
    tcase_add_test(c, test_create_and_train_sugarray);
    tcase_add_test(c, test_admin_ban);
    tcase_add_test(c, test_admin_rules);
    tcase_add_test(c, test_auth_wait);
    tcase_add_test(c, test_identify_limited);
    tcase_add_test(c, test_register_limited);
    tcase_add_test(c, test_register_said_limited);
    tcase_add_test(c, test_hostile_input);
    tcase_add_test(c, test_help_teaches);
    tcase_add_test(c, test_sim_command);
    tcase_add_test(c, test_flood_limit_one_notice);
    tcase_add_test(c, test_reply_text_and_long);
    tcase_add_test(c, test_flood_learning);
    tcase_add_test(c, test_flood_newcomer);
    tcase_add_test(c, test_flood_cut_off);
    tcase_add_test(c, test_banned_and_gone_told);
    tcase_add_test(c, test_whois_waits);
    suite_add_tcase(s, c);
    return s;
}
