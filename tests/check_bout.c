/* check_bout.c - live bouts without a server: challenges, orders, rounds,
 * deadlines, plans and forfeits run through cmd_dispatch against a real
 * SQLite file; a "crash" (everything in memory dropped, the database
 * reopened, the bouts rebuilt) in the middle of bouts; and every finished
 * bout replayed from the database to the same rounds and result. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"
#include "test_db.h"
#include "tests.h"

static struct bot bot;
static char dir[64], path[128];
static char said[65536]; /* every line queued by the last run() */
static int raw_lines;    /* flush() keeps the formatting */

static void open_all(void)
{
    char err[256];

    bot.db = test_db_open(path, err, sizeof(err));
    ck_assert_msg(bot.db != NULL, "%s", err);
    bot.q = outq_new(100000, 100000);
    bot.users = users_new();
    struct game_io io;
    struct game_config gc;
    bot_game_io(&bot, &io);
    bot_game_config(&bot.cfg, &gc);
    bot.game = game_new(bot.db, &io, &gc, err, sizeof(err));
    ck_assert_msg(bot.game != NULL, "%s", err);
}

/* The bot's configuration changed: the game learns it, as on SIGHUP. */
static void sync_config(void)
{
    struct game_config gc;

    bot_game_config(&bot.cfg, &gc);
    game_set_config(bot.game, &gc);
}

static void close_all(void)
{
    game_free(bot.game);
    users_free(bot.users);
    outq_free(bot.q);
    db_close(bot.db);
}

static void setup(void)
{
    memset(&bot, 0, sizeof(bot));
    config_defaults(&bot.cfg);
    bot.cfg.rounds = 3;
    bot.cfg.nadmins = 1;
    snprintf(bot.cfg.admins[0], sizeof(bot.cfg.admins[0]), "boss");
    /* The admin's hash in the configuration (ringside --hash-password). */
    ck_assert_int_eq(password_hash("boss-pw1", bot.cfg.admin_hash[0], CONFIG_HASH_MAX), 0);
    snprintf(dir, sizeof(dir), "/tmp/ringside-bout-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/ringside.db", dir);
    bot.cm = CASEMAP_RFC1459;
    snprintf(bot.nick, sizeof(bot.nick), "ringside");
    snprintf(bot.chan[0], sizeof(bot.chan[0]), "#ringside");
    bot.chan_in[0] = 1;
    bot.now = 1000;
    log_set_level(LOG_ERROR);
    open_all();
}

static void teardown(void)
{
    char cmd[128];

    close_all();
    test_db_drop(path);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Everything queued so far, into `said`. */
static const char *flush(void)
{
    char line[OUTQ_LINE_MAX];
    size_t len = 0;

    said[0] = '\0';
    for (double t_ = bot.now + 1e6; outq_len(bot.q) > 0; t_ += 1)
        if (outq_pop(bot.q, t_, line)) {
            if (raw_lines)
                bot_line_format(&bot, line); /* as bot/irc.c sends it */
            else
                irc_strip_format(line, 0); /* formatting: test_formatting */
            len += (size_t)snprintf(said + len, sizeof(said) - len, "%s\n", line);
        }
    return said;
}

static const char *run(const char *nick, int chan, const char *text)
{
    bot.now += 3;
    cmd_dispatch(&bot, nick, chan ? "#ringside" : NULL, text);
    return flush();
}

#define HAS(text, needle) ck_assert_msg(strstr((text), (needle)) != NULL, "%s", (text))

/* Lines of `text` sent to `target`. */
static int lines_to(const char *text, const char *target)
{
    char pat[64];
    int n = 0;

    snprintf(pat, sizeof(pat), "PRIVMSG %s :", target);
    for (const char *p = text; (p = strstr(p, pat)); p += strlen(pat))
        n++;
    return n;
}

/* text with each line to #ringside after the first joined to the one
 * before by a space, as the output cut them (into flat[size]). */
static void channel_flat(const char *text, char *flat, size_t size)
{
    static const char cut[] = "\nPRIVMSG #ringside :";
    size_t n = 0;

    for (const char *p = text; *p && n + 1 < size;) {
        if (strncmp(p, cut, sizeof(cut) - 1) == 0 && n > 0) {
            flat[n++] = ' ';
            p += sizeof(cut) - 1;
        } else {
            flat[n++] = *p++;
        }
    }
    flat[n] = '\0';
}

static void player(const char *nick, const char *create)
{
    char line[160];

    users_join(bot.users, nick, 0);
    snprintf(line, sizeof(line), "register %s-pw1", nick);
    HAS(run(nick, 0, line), "registered");
    HAS(run(nick, 0, create), "is ready");
}

static void identify(const char *nick)
{
    char line[160];

    users_join(bot.users, nick, 0);
    snprintf(line, sizeof(line), "identify %s-pw1", nick);
    HAS(run(nick, 0, line), "identified");
}

/* Drops everything in memory, as kill -9 would, and starts again from the
 * database file. */
static void crash_and_restart(void)
{
    close_all();
    open_all();
    bot.now += 10;
    game_connected(bot.game);
}

static int replay_ok(int64_t id)
{
    FILE *f = tmpfile();
    int rc = bout_replay(bot.db, id, f);

    fclose(f);
    return rc == 0;
}

START_TEST(test_whole_boxing_bout)
{
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    /* The tale of the tape goes with the challenge. */
    const char *out = run("alice", 1, "!challenge bob");
    HAS(out, "PRIVMSG #ringside :alice challenges bob to bout #1, boxing, 3 rounds: Rocky (alice) "
             "STR 14 SPD 12 AGL 11 TGH 12 HGT 11, 0-0-0 vs Apollo (bob) STR 13 SPD 14 AGL 12 "
             "TGH 11 HGT 10, 0-0-0. bob: say !accept or !decline within 5 minutes.\n");
    ck_assert_int_eq(lines_to(out, "#ringside"), 1);
    out = run("bob", 1, "!accept");
    /* Both are in the channel: the start asks them for their round 1
     * orders there, in one message; their first bout, so with the order
     * line explained (its first sentence, and where the rest is), and
     * the spectators told until when they may predict: the order help
     * fills the first IRC line, and the predictions take a second. Nothing
     * private. */
    ck_assert_str_eq(out, "PRIVMSG #ringside :Bout #1 is on. Round 1 of 3: alice (Rocky) and bob "
                          "(Apollo), your orders (e.g. 5H/8!/7 (inside)) within 2 minutes; send "
                          "them to me in private. Boxing orders are AGG/POW/DEF, e.g. 5H/8!/7 "
                          "(inside): AGG is how many punches you throw (8 for each point), POW "
                          "how hard they are, DEF how well you guard; each is at least 1 and "
                          "AGG+POW+DEF is at most 20. The rest: help order.\n"
                          "PRIVMSG #ringside :Predictions open until round 1 is fought: !predict "
                          "1 <fighter>.\n");
    for (int r = 1; r <= 3; r++) {
        out = run("alice", 0, "5/5/10 (ring)");
        HAS(out, "orders stored for Rocky: 5/5/10 (ring)");
        ck_assert_int_eq(lines_to(out, "#ringside"), 0); /* nothing before both */
        out = run("bob", 0, "4H/6/10");
        /* Acknowledged on the next prompt; the last round's, by the round
         * said in the channel, where he is. */
        if (r < 3)
            HAS(out, "orders for Apollo (4H/6/10) are in and fought");
        /* The round, at most four lines, then the result after the last. */
        int said_lines = lines_to(out, "#ringside");
        ck_assert_int_ge(said_lines, 2);
        ck_assert_int_le(said_lines, r < 3 ? 4 : 4 + RENDER_RESULT_MAX + 1);
        /* From round 2 on, the prompt says what the corner sees. */
        if (r < 3) {
            HAS(out, "PRIVMSG alice :Bout #1, round ");
            HAS(out, "Your corner: Rocky has ");
            HAS(out, "% of the start)");
            HAS(out, "; Apollo looks ");
            HAS(out, ". Score: (Rocky-Apollo) ");
        }
        /* The opponent never saw alice's orders privately. */
        for (const char *p = out; (p = strstr(p, "PRIVMSG bob :")); p++) {
            size_t n = strcspn(p, "\n");
            char line[512];
            snprintf(line, sizeof(line), "%.*s", (int)n, p);
            ck_assert_msg(!strstr(line, "5/5/10"), "%s", line);
        }
    }
    HAS(out, "PRIVMSG #ringside :");
    struct db_bout b;
    ck_assert_int_eq(db_bout_get(bot.db, 1, &b), DB_OK);
    ck_assert_int_eq(b.state, DB_BOUT_OVER);
    ck_assert_int_eq(b.round, 3);
    ck_assert(replay_ok(1));
    /* The records moved, and the fighters are free again. */
    struct db_fighter f[2];
    ck_assert_int_eq(db_fighter_get(bot.db, "rocky", &f[0]), DB_OK);
    ck_assert_int_eq(db_fighter_get(bot.db, "apollo", &f[1]), DB_OK);
    ck_assert_int_eq(f[0].wins + f[0].losses + f[0].draws, 1);
    ck_assert_int_eq(f[1].wins + f[1].losses + f[1].draws, 1);
    /* The end said in full (the seed is random: whoever won): the records
     * in the channel, and on the same line the training points the winner
     * earned (a loser or a draw earns none), with how to spend them: both
     * players are in the channel, so nothing is said privately. The round
     * said in the channel acknowledges their last orders. */
    char want[512];
    snprintf(want, sizeof(want), "PRIVMSG #ringside :Records now: %s %d-%d-%d",
             f[b.winner > 0].name, f[b.winner > 0].wins, f[b.winner > 0].losses,
             f[b.winner > 0].draws);
    HAS(out, want);
    if (b.winner >= 0) {
        int w = b.winner, p = f[w].training_points;
        snprintf(want, sizeof(want),
                 "PRIVMSG #ringside :Records now: %s 1-0-0, %s 0-1-0. %s earned %d training "
                 "point%s (!train <ability> %s).\n",
                 f[w].name, f[!w].name, f[w].name, p, p == 1 ? "" : "s", f[w].name);
        HAS(out, want);
    } else {
        ck_assert_ptr_null(strstr(out, "training point"));
    }
    ck_assert_ptr_null(strstr(out, "PRIVMSG alice :"));
    ck_assert_ptr_null(strstr(out, "PRIVMSG bob :"));
    ck_assert_ptr_null(strstr(out, "is over, and"));
    ck_assert_int_eq(game_live(bot.game), 0);
    /* Commands named in a reply are typed as the caller would type them. */
    HAS(run("alice", 1, "!bouts"), "no live bouts; challenge someone: !challenge <nick>");
    HAS(run("alice", 0, "bouts"),
        "PRIVMSG alice :no live bouts; challenge someone: say !challenge <nick> in a channel\n");
    HAS(run("alice", 1, "!score #9"), "alice: there is no bout #9; !bouts lists the live ones\n");
    HAS(run("alice", 1, "!score #1"), "alice: bout #1 is over; !report 1 tells it\n");
    HAS(run("alice", 1, "!score"),
        "alice: there is no live bout in #ringside; !bouts lists the live ones, !report <bout> "
        "tells a finished one\n");
}
END_TEST

START_TEST(test_orders_stored_before_ack_and_replaceable)
{
    struct db_order o[8];
    int n = 0;

    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    run("alice", 1, "!challenge bob");
    run("bob", 1, "!accept");
    HAS(run("alice", 0, "5/5/10"), "round 1 orders stored");
    ck_assert_int_eq(db_order_list(bot.db, 1, o, 8, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(o[0].text, "5/5/10");
    HAS(run("alice", 0, "order 6H/7!/7 (cou)"),
        "round 1 orders stored for Rocky: 6H/7!/7 (counter)");
    ck_assert_int_eq(db_order_list(bot.db, 1, o, 8, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(o[0].text, "6H/7!/7 (counter)");
    /* A bad order: the precise error, nothing changed. */
    HAS(run("alice", 0, "8/8/8"), "not stored: column 1: AGG+POW+DEF = 24, the most is 20");
    ck_assert_int_eq(db_order_list(bot.db, 1, o, 8, &n), DB_OK);
    ck_assert_str_eq(o[0].text, "6H/7!/7 (counter)");
}
END_TEST

START_TEST(test_third_user_refused)
{
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    player("carol", "create Ivan str=12 spd=12 agl=12 tgh=12 hgt=12");
    run("alice", 1, "!challenge bob");
    run("bob", 1, "!accept");
    /* Accepted twice: it is said to be on, not "no open challenge". */
    HAS(run("bob", 0, "accept #1"), "bout #1 is no challenge any more: it is on (bouts shows it)");
    HAS(run("carol", 0, "5/5/10"), "you have no live bout");
    HAS(run("carol", 0, "order #1 5/5/10"), "bout #1 is not yours");
    HAS(run("dave", 0, "5/5/10"),
        "PRIVMSG dave :orders need an account: join #ringside first, then identify (/msg ringside "
        "identify <password>); I only keep you identified while we share a channel");
    users_join(bot.users, "dave", 0);
    HAS(run("dave", 0, "5/5/10"),
        "PRIVMSG dave :identify first (/msg ringside identify <password>), then send your orders");
    struct db_order o[4];
    int n = 0;
    ck_assert_int_eq(db_order_list(bot.db, 1, o, 4, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    /* And nobody can challenge a fighter who is busy. */
    HAS(run("carol", 1, "!challenge alice"), "already in a bout");
    HAS(run("alice", 0, "train str"), "in a bout");
}
END_TEST

/* A live tournament's announcements and its bouts' lines reach the
 * channel in the order they were said: the bracket before the bouts it
 * starts; a cancelled bout's notice and the tournament's "fought again"
 * before the new bout (announcements used to wait behind the bouts'
 * traffic, so the new bout came first). */
START_TEST(test_tournament_lines_in_order)
{
    static const char *const nicks[] = {"alice", "bob", "carol"};
    char line[160];

    users_join(bot.users, "boss", 0);
    HAS(run("boss", 0, "identify boss-pw1"), "you are identified as boss");
    HAS(run("boss", 1, "!tournament open size=4 mode=live rounds=3 name=Cup"), "is open");
    for (int i = 0; i < 3; i++) {
        snprintf(line, sizeof(line), "create Boxer%c str=14 spd=12 agl=11 tgh=12 hgt=11", 'A' + i);
        player(nicks[i], line);
        snprintf(line, sizeof(line), "!tournament join Boxer%c", 'A' + i);
        HAS(run(nicks[i], 1, line), "joins tournament #1");
    }
    const char *out = run("boss", 1, "!tournament start");
    const char *begins = strstr(out, "Tournament #1 (Cup) begins");
    const char *bout = strstr(out, "PRIVMSG #ringside :Bout #1, boxing");
    ck_assert_msg(begins && bout && begins < bout, "%s", out);
    out = run("boss", 1, "!cancel 1");
    const char *cancelled = strstr(out, "Bout #1 (");
    const char *again = strstr(out, "it is fought again");
    bout = strstr(out, "PRIVMSG #ringside :Bout #2, boxing");
    ck_assert_msg(cancelled && again && bout && cancelled < again && again < bout, "%s", out);
}
END_TEST

START_TEST(test_crash_mid_bout_loses_nothing)
{
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    run("alice", 1, "!challenge bob rounds=4");
    run("bob", 1, "!accept");
    run("alice", 0, "5/5/10 (ring)");
    run("bob", 0, "6/6/8");
    /* Round 2: alice's order acknowledged, then the bot dies. */
    HAS(run("alice", 0, "4H/8/8 (inside)"), "round 2 orders stored");
    crash_and_restart();
    const char *out = flush();
    /* Identities ended with the crash: the bout waits for both players. */
    HAS(out, "PRIVMSG #ringside :Bout #1, Rocky vs Apollo, waits for alice and bob to come back, "
             "until ");
    HAS(run("bob", 0, "6/6/8"), "orders need an account: join #ringside first, then identify");
    users_join(bot.users, "alice", 0);
    HAS(run("alice", 0, "identify alice-pw1"),
        "your orders for it are in already; the clock starts once bob is back");
    users_join(bot.users, "bob", 0);
    out = run("bob", 0, "identify bob-pw1");
    HAS(out, "PRIVMSG bob :you are identified as bob until you quit or leave my channels. Waiting "
             "for your orders: bout #1 (Rocky vs Apollo, round 2 of 4).");
    HAS(out, "PRIVMSG #ringside :Bout #1, Rocky vs Apollo, goes on: round 2 of 4 is next.");
    out = run("bob", 0, "6/6/8");
    HAS(out, "round 2 orders for Apollo (6/6/8) are in and fought");
    HAS(out, "PRIVMSG #ringside :"); /* alice's stored order was used: the round ran */
    struct db_order o[16];
    int n = 0;
    ck_assert_int_eq(db_order_list(bot.db, 1, o, 16, &n), DB_OK);
    ck_assert_str_eq(o[2].text, "4H/8/8 (inside)");
    ck_assert_int_eq(o[2].source, DB_ORDER_PLAYER);
    /* Crash again between rounds, with nothing pending. */
    crash_and_restart();
    identify("alice");
    identify("bob");
    struct db_bout b;
    for (int r = 3; r <= 4; r++) {
        ck_assert_int_eq(db_bout_get(bot.db, 1, &b), DB_OK);
        if (b.state == DB_BOUT_OVER)
            break;
        run("alice", 0, "5/5/10");
        run("bob", 0, "5/5/10");
    }
    ck_assert_int_eq(db_bout_get(bot.db, 1, &b), DB_OK);
    ck_assert_int_eq(b.state, DB_BOUT_OVER);
    ck_assert(replay_ok(1));
}
END_TEST

/* After a restart, a services login the bot notices lists the bouts that
 * wait for the player's orders, before his prompts; none: nothing extra. */
START_TEST(test_services_login_lists_waiting_bouts)
{
    bot.cfg.accounts = ACCOUNTS_SERVICES;
    users_join(bot.users, "alice", 0);
    accounts_seen(&bot, "alice", "alice");
    users_join(bot.users, "bob", 0);
    accounts_seen(&bot, "bob", "bob");
    HAS(run("alice", 0, "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11"), "is ready");
    HAS(run("bob", 0, "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10"), "is ready");
    run("alice", 1, "!challenge bob");
    run("bob", 1, "!accept");
    HAS(run("alice", 0, "5/5/10"), "round 1 orders stored");
    crash_and_restart();
    const char *out = flush();
    HAS(out, "PRIVMSG #ringside :Bout #1, Rocky vs Apollo, waits for alice and bob to come back, "
             "until ");
    ck_assert_ptr_null(strstr(out, "identify again")); /* services bring them back */
    users_join(bot.users, "bob", 0);
    accounts_seen(&bot, "bob", "bob");
    out = flush();
    const char *list = strstr(out, "PRIVMSG bob :You are identified as bob by your services "
                                   "login. Waiting for your orders: bout #1 (Rocky vs Apollo, "
                                   "round 1 of 3).\n");
    const char *ask = strstr(out, "PRIVMSG bob :Bout #1, round 1 of 3: your orders for Apollo");
    ck_assert_msg(list && ask && list < ask, "%s", out);
    HAS(out, "; the clock starts once alice is back");
    users_join(bot.users, "alice", 0);
    accounts_seen(&bot, "alice", "alice");
    out = flush();
    ck_assert_ptr_null(strstr(out, "You are identified")); /* her orders are in */
    HAS(out, "PRIVMSG #ringside :Bout #1, Rocky vs Apollo, goes on: round 1 of 3 is next.");
    HAS(out, "PRIVMSG alice :Bout #1, round 1 of 3: your orders for Rocky");
}
END_TEST

START_TEST(test_unsaid_commentary_said_after_restart)
{
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    run("alice", 1, "!challenge bob");
    run("bob", 1, "!accept");
    run("alice", 0, "5/5/10");
    const char *out = run("bob", 0, "5/5/10");
    HAS(out, "PRIVMSG #ringside :");
    /* Round 1 is stored and queued; the bot dies before the queue has
     * been seen empty by the timers: after the restart it says it again. */
    crash_and_restart();
    out = flush();
    HAS(out, "PRIVMSG #ringside :Bout #1: what I had not said yet when I stopped:");
    HAS(out, "Round 1"); /* the commentary itself (in IRC bold) */
    /* Now the queue is empty and the timers record it as said. */
    game_tick(bot.game, NULL);
    identify("alice");
    identify("bob");
    run("alice", 0, "5/5/10");
    run("bob", 0, "5/5/10");
    game_tick(bot.game, NULL); /* the queue was emptied by run(): round 2 said */
    crash_and_restart();
    out = flush();
    ck_assert_ptr_null(strstr(out, "what I had not said yet"));
    HAS(out, "waits for alice and bob to come back, until ");
    HAS(out, "round 3 of 3 is next.");
    /* The last round stored but not said: its end too, records and all. */
    identify("alice");
    identify("bob");
    run("alice", 0, "5/5/10");
    run("bob", 0, "5/5/10");
    crash_and_restart();
    out = flush();
    HAS(out, "PRIVMSG #ringside :Bout #1: what I had not said yet when I stopped:");
    HAS(out, "PRIVMSG #ringside :Records now: ");
}
END_TEST

START_TEST(test_deadline_uses_plan_then_last_orders)
{
    struct db_order o[8];
    int n = 0;

    bot.cfg.order_timeout = 60;
    sync_config();
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    HAS(run("bob", 0, "plan set 1) 3/3/14 (clinch); 2) 6/7/7"), "Apollo's plan stored");
    HAS(run("bob", 0, "plan show"), "1) 3/3/14 (clinch); 2) 6/7/7");
    HAS(run("bob", 0, "plan check if foo > 1 then 5/5/10"), "unknown word \"foo\"");
    run("alice", 1, "!challenge bob");
    run("bob", 1, "!accept");
    game_tick(bot.game, NULL); /* the prompts went out: the clock runs */
    run("alice", 0, "5/5/10");
    bot.now += 45;
    game_tick(bot.game, NULL);
    HAS(flush(), "PRIVMSG bob :Bout #1: 12 seconds left for your round 1 orders"); /* reminded */
    ck_assert_int_eq(db_order_list(bot.db, 1, o, 8, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    bot.now += 20;
    game_tick(bot.game, NULL); /* the deadline: bob's plan fights */
    ck_assert_int_eq(db_order_list(bot.db, 1, o, 8, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(o[1].text, "3/3/14 (clinch)");
    ck_assert_int_eq(o[1].source, DB_ORDER_PLAN);
    ck_assert_int_eq(o[1].line, 1);
    /* bob's next prompt says what fought for him. */
    HAS(flush(), "PRIVMSG bob :Bout #1, round 2 of 3: your orders for Apollo (e.g. 5H/8!/7 "
                 "(inside)) within 1 minute; your plan's line 1 (3/3/14 (clinch)) fought round 1 "
                 "for you. Your corner: Apollo has ");
    /* Round 2: nobody answers; alice's last orders, bob's plan line 2. */
    HAS(run("bob", 0, "plan clear"), "cleared");
    game_tick(bot.game, NULL); /* round 2's prompts went out: its clock runs */
    bot.now += 61;
    game_tick(bot.game, NULL);
    ck_assert_int_eq(db_order_list(bot.db, 1, o, 8, &n), DB_OK);
    ck_assert_int_eq(n, 4);
    ck_assert_str_eq(o[2].text, "5/5/10");
    ck_assert_int_eq(o[2].source, DB_ORDER_LAST);
    ck_assert_str_eq(o[3].text, "3/3/14 (clinch)");
    ck_assert_int_eq(o[3].source, DB_ORDER_LAST);
    const char *out = flush();
    HAS(out, "PRIVMSG alice :Bout #1, round 3 of 3: your orders for Rocky (e.g. 5H/8!/7 (inside)) "
             "within 1 minute; your last orders (5/5/10) fought round 2 for you. Your corner: ");
    HAS(out, "PRIVMSG bob :Bout #1, round 3 of 3: your orders for Apollo (e.g. 5H/8!/7 (inside)) "
             "within 1 minute; your last orders (3/3/14 (clinch)) fought round 2 for you. ");
    ck_assert(replay_ok(1)); /* a live bout replays too */
}
END_TEST

/* Orders where a newcomer sends them: before the bout started, in the
 * channel, with the bout's number in front, and in two bouts at once of
 * different rulesets (the hints quote the right ruleset). */
START_TEST(test_orders_where_newcomers_send_them)
{
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    run("alice", 1, "!challenge bob");
    HAS(run("alice", 0, "5/5/10"),
        "your bout #1 has not started: bob has not accepted your challenge yet");
    HAS(run("bob", 0, "5/5/10"),
        "your bout #1 has not started: alice challenged you; say !accept in #ringside first");
    run("bob", 1, "!accept");
    /* Said in the channel: refused, not stored, the opponent warned off. */
    HAS(run("alice", 1, "!5/5/10 (ring)"),
        "alice: send your orders to me in private, not here: /msg ringside 5/5/10 (ring)");
    /* With the command word too: one line with the form to send in
     * private, the bout's number said back, never the orders. */
    ck_assert_str_eq(run("alice", 1, "!order #1 5/5/10 (ring)"),
                     "PRIVMSG #ringside :alice: orders are secret: send them to me in private, "
                     "not in the channel: /msg ringside order #1 <orders>\n");
    ck_assert_str_eq(run("alice", 1, "!orders 4H/6/10"),
                     "PRIVMSG #ringside :alice: orders are secret: send them to me in private, "
                     "not in the channel: /msg ringside order <orders>\n");
    ck_assert_str_eq(run("alice", 1, "!order #1x 4H/6/10"),
                     "PRIVMSG #ringside :alice: orders are secret: send them to me in private, "
                     "not in the channel: /msg ringside order <orders>\n");
    struct db_order o[4];
    int n = -1;
    ck_assert_int_eq(db_order_list(bot.db, 1, o, 4, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    /* "#1 6/6/8" is "order #1 6/6/8". */
    HAS(run("alice", 0, "#1 6/6/8"), "round 1 orders stored for Rocky: 6/6/8");
    HAS(run("alice", 0, "#2 6/6/8"), "there is no live bout #2");
    /* A SUGAR RAY bout beside it: the hint names the bout and its ruleset. */
    HAS(run("alice", 0, "create Murphy rules=sugarray"), "is ready");
    player("carol", "create Miller rules=sugarray");
    run("carol", 1, "!challenge alice rules=sugarray");
    run("alice", 1, "!accept");
    /* Bare orders go to the one bout whose ruleset reads them. */
    HAS(run("alice", 0, "3/2"), "PRIVMSG alice :round 1 orders stored for Murphy: 3/2 (you may");
    HAS(run("alice", 0, "5/5/10"), "PRIVMSG alice :round 1 orders stored for Rocky: 5/5/10 (you");
    HAS(run("alice", 0, "forfeit"), "you are in 2 bouts; say which: forfeit #1 or forfeit #2");
    /* The question names the one form that confirms ("forfeit yes"
     * would ask which bout again). */
    HAS(run("alice", 0, "forfeit #2"),
        "Forfeit bout #2 (Murphy vs Miller)? This ends it as a loss. Say forfeit #2 yes to "
        "confirm.");
    HAS(run("alice", 0, "#2 4/1"), "round 1 orders stored for Murphy: 4/1");
}
END_TEST

/* Two live bouts in #ringside: #1 Rocky (alice) vs Apollo (bob), #2 Ivan
 * (carol) vs Clubber (dan). */
static void two_live_bouts(void)
{
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    player("carol", "create Ivan str=12 spd=12 agl=12 tgh=12 hgt=12");
    player("dan", "create Clubber str=15 spd=10 agl=10 tgh=13 hgt=12");
    run("alice", 1, "!challenge bob");
    run("bob", 1, "!accept");
    run("carol", 1, "!challenge dan");
    run("dan", 1, "!accept");
}

START_TEST(test_two_bouts_one_channel)
{
    two_live_bouts();
    HAS(run("eve", 1, "!bouts"), "2 live");
    run("alice", 0, "5/5/10");
    run("carol", 0, "6/6/8");
    const char *out = run("dan", 0, "4/6/10");
    /* Bout #2's round: only its own fighters in the commentary, one line
     * tagged with the bout (two bouts share the channel). */
    ck_assert_int_eq(lines_to(out, "#ringside"), 1);
    HAS(out, "PRIVMSG #ringside :[#2] ");
    ck_assert_ptr_nonnull(strstr(out, "Ivan"));
    ck_assert_ptr_null(strstr(out, "Rocky"));
    ck_assert_ptr_null(strstr(out, "Apollo"));
    out = run("bob", 0, "5/5/10");
    ck_assert_ptr_nonnull(strstr(out, "Rocky"));
    ck_assert_ptr_null(strstr(out, "Ivan"));
    ck_assert_ptr_null(strstr(out, "Clubber"));
    HAS(run("eve", 1, "!score 2"), "After round 1 of 3");
}
END_TEST

/* Every reply template of every command, swept: each command with no
 * arguments and with typical wrong and right ones, by an identified player
 * and by a stranger, in the channel and in private, with counts of one and
 * of two; then every line the bot said is read for grammar a player would
 * trip on. */
static char *sweep;
static size_t sweep_len, sweep_cap;

static void swept(const char *text)
{
    size_t n = strlen(text);

    if (sweep_len + n + 1 > sweep_cap) {
        sweep_cap = (sweep_len + n + 1) * 2;
        sweep = realloc(sweep, sweep_cap);
        ck_assert_ptr_nonnull(sweep);
    }
    memcpy(sweep + sweep_len, text, n + 1);
    sweep_len += n;
}

/* Fails on the first line of `text` matching `rx` (extended, any case when
 * icase), naming `why`; lines to the channel only when chan_only. */
static void no_line_matches(const char *text, const char *rx, int icase, int chan_only,
                            const char *why)
{
    regex_t re;

    ck_assert_int_eq(regcomp(&re, rx, REG_EXTENDED | REG_NOSUB | (icase ? REG_ICASE : 0)), 0);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        char line[1024];
        snprintf(line, sizeof(line), "%.*s", (int)n, p);
        if (!chan_only || strncmp(line, "PRIVMSG #", 9) == 0)
            ck_assert_msg(regexec(&re, line, 0, NULL, 0) != 0, "%s: %s", why, line);
        p += n + (p[n] == '\n');
    }
    regfree(&re);
}

/* The tale of the tape and the result: names in bold, the result in
 * colour; colours = no keeps the bold; a channel with +c gets neither. */
START_TEST(test_formatting)
{
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    raw_lines = 1;
    const char *out = run("alice", 1, "!challenge bob");
    /* The tape, with the challenge: one message. */
    HAS(out, "PRIVMSG #ringside :alice challenges bob to bout #1, boxing, 3 rounds: "
             "\002Rocky\002 (alice) STR 14");
    HAS(out, "0-0-0 vs \002Apollo\002 (bob) STR 13");
    run("bob", 1, "!accept");
    for (int r = 0; r < 3; r++) {
        run("alice", 0, "5/5/10");
        out = run("bob", 0, "5/5/10");
    }
    HAS(out, "PRIVMSG #ringside :\00303");
    HAS(out, "Records now: \002");
    /* colours = no: bold only. */
    bot.cfg.colours = 0;
    sync_config();
    out = run("alice", 1, "!challenge bob");
    HAS(out, "\002Rocky\002 (alice)");
    run("bob", 1, "!accept");
    for (int r = 0; r < 3; r++) {
        run("alice", 0, "5/5/10");
        out = run("bob", 0, "5/5/10");
    }
    ck_assert_ptr_null(strchr(out, '\003'));
    HAS(out, "Records now: \002");
    /* +c: nothing but words. */
    bot.cfg.colours = 1;
    sync_config();
    bot.chan_plain[0] = 1;
    run("alice", 1, "!challenge bob");
    out = run("bob", 1, "!accept");
    for (int r = 0; r < 3; r++) {
        run("alice", 0, "5/5/10");
        out = run("bob", 0, "5/5/10");
    }
    for (const char *p = out; (p = strstr(p, "PRIVMSG #ringside :")); p++) {
        size_t n = strcspn(p, "\n");
        for (size_t i = 0; i < n; i++)
            ck_assert_msg(!strchr("\002\003\017", p[i]) || !p[i], "%.*s", (int)n, p);
    }
    /* Said while the channel allowed colours, sent after it forbade them
     * (said again at a reconnection, before the channel's modes came): it
     * leaves plain. */
    bot.chan_plain[0] = 0;
    bot.now += 3;
    cmd_dispatch(&bot, "alice", "#ringside", "!challenge bob");
    bot.chan_plain[0] = 1;
    out = flush();
    HAS(out, "PRIVMSG #ringside :alice challenges bob to bout #4, boxing, 3 rounds: Rocky (alice) "
             "STR 14");
    ck_assert_ptr_null(strchr(out, '\002'));
    bot.chan_plain[0] = 0;
    raw_lines = 0;
}
END_TEST

START_TEST(test_grammar_sweep)
{
    static const char *const args[] = {
        "", "nobody", "1", "#9", "Rocky", "bob", "rules=sugarray", "Rocky str",
    };
    static const char *const nicks[] = {"alice", "carol"};

    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    HAS(run("bob", 0, "create Murphy rules=sugarray"), "is ready");
    users_join(bot.users, "dave", 0);
    HAS(run("dave", 0, "register dave-pw1"), "registered");
    users_join(bot.users, "carol", 0);
    /* Counts of one and two, you and a third person. */
    swept(run("alice", 1, "!fighters"));
    swept(run("alice", 1, "!fighters bob"));
    swept(run("alice", 1, "!challenge dave"));
    swept(run("alice", 1, "!challenge bob rules=sugarray"));
    swept(run("dave", 1, "!challenge alice"));
    swept(run("alice", 1, "!challenge carol"));
    swept(run("alice", 1, "!accept bob"));
    swept(run("alice", 1, "!withdraw bob"));
    swept(run("alice", 1, "!challenge bob"));
    swept(run("bob", 1, "!accept"));
    for (int r = 0; r < 3; r++) {
        swept(run("alice", 0, "5/5/10"));
        swept(run("bob", 0, "6/6/8"));
    }
    swept(run("alice", 1, "!fighter Rocky"));
    swept(run("alice", 1, "!fighter Apollo"));
    /* Every command, every way. */
    for (int i = 0; cmd_table[i]; i++) {
        const struct cmd_entry *e = cmd_table[i];
        if (strcmp(e->name, "logout") == 0 || strcmp(e->name, "retire") == 0 ||
            strcmp(e->name, "passwd") == 0)
            continue;
        for (unsigned a = 0; a < sizeof(args) / sizeof(args[0]); a++)
            for (unsigned k = 0; k < sizeof(nicks) / sizeof(nicks[0]); k++)
                for (int chan = 0; chan < 2; chan++) {
                    char line[128];
                    snprintf(line, sizeof(line), "%s%s%s%s", chan ? "!" : "", e->name,
                             args[a][0] ? " " : "", args[a]);
                    swept(run(nicks[k], chan, line));
                }
    }
    ck_assert_int_gt((int)sweep_len, 1000);
    no_line_matches(sweep, "\\byou (has|is|was|does)\\b", 1, 0,
                    "\"you\" with a third person's verb");
    no_line_matches(sweep, "\\b(he|she|him|her|his) (must|has|is|was|does)\\b", 1, 0,
                    "a player's gender guessed");
    no_line_matches(sweep,
                    "(^|[^a-z0-9])1 (rounds|points|minutes|seconds|fighters|bouts|challenges|"
                    "lines|commands|warnings|times|wins|losses|draws|KOs)\\b",
                    0, 0, "a plural after 1");
    no_line_matches(sweep, "\\(s\\)", 0, 0, "a lazy plural");
    no_line_matches(sweep, "\\[(private|channel|admin)\\]", 0, 0, "an unexplained tag");
    no_line_matches(sweep,
                    " (say|use|try|see|with|lists them|one:|first:|e\\.g\\.|yet:|RAY:|boxing:)"
                    " (help|bouts|score|report|challenge|accept|decline|create|fighter|fighters|"
                    "train|standings|plan|order)( |$|[;,.)])",
                    0, 1, "a command named in a channel without its prefix");
    no_line_matches(sweep,
                    "; (help|bouts|score|report|challenge|accept|decline|create|fighter|fighters|"
                    "train|standings|plan|order) (<|#|lists|tells|shows)",
                    0, 1, "a command named in a channel without its prefix");
    no_line_matches(sweep, "\\(null\\)|%[sdn]", 0, 0, "a format directive");
    free(sweep);
    sweep = NULL;
    sweep_len = sweep_cap = 0;
}
END_TEST

START_TEST(test_sugarray_example_bout)
{
    static const char *const miller[] = {"2/3", "3/0", "2/2", "0/5", "3/1"};
    static const char *const murphy[] = {"6/0", "3/3", "3/4", "4/2", "3/3"};
    struct db_fighter f;
    const char *out = NULL;

    player("mill", "create Miller rules=sugarray");
    player("murf", "create Murphy rules=sugarray");
    /* The seed's sheets, set by the game master. */
    users_join(bot.users, "boss", 0);
    HAS(run("boss", 0, "identify boss-pw1"), "you are identified as boss");
    HAS(run("boss", 1, "!set Miller skill=10 end=26"), "done");
    HAS(run("boss", 1, "!set Murphy skill=12 end=21"), "done");
    run("mill", 1, "!challenge murf rules=sugarray");
    run("murf", 1, "!accept");
    for (int r = 0; r < 5; r++) {
        run("mill", 0, miller[r]);
        if (r == 4) /* he leaves the channel before the end */
            users_part(bot.users, "mill", 0);
        out = run("murf", 0, murphy[r]);
        if (r == 1) /* the corner: both endurances and the attack totals */
            HAS(out,
                "PRIVMSG mill :Bout #1, round 3 of 5: your orders for Miller (e.g. 3/2) within "
                "2 minutes. Your corner: "
                "Miller has 13 endurance (50% of the start); Murphy "
                "looks tired. Score: endurance Miller 13, Murphy 14; attack totals 5-9 "
                "(Murphy ahead).\n");
    }
    HAS(out, "PRIVMSG #ringside :Murphy (12,21) 6/0 (15) 3/3 (14) 3/4 (12) 4/2 (11) 3/3 (10) PW\n"
             "PRIVMSG #ringside :Miller (10,26) 2/3 (19) 3/0 (13) 2/2 (11) 0/5 (11) 3/1 ( 6)\n");
    /* Then who won in plain words, what changed and the records; and,
     * privately, the player who is not in the channel any more (the one
     * there heard it all). */
    HAS(out, "PRIVMSG #ringside :Murphy wins on points, 19-10. Murphy's endurance goes up to 22; "
             "Miller's endurance goes down to 25. Records now: Murphy 1-0-0, Miller 0-1-0.\n");
    ck_assert_ptr_null(strstr(out, "PRIVMSG murf :"));
    HAS(out, "PRIVMSG mill :Bout #1 is over, and you lost: Murphy wins on points, 19-10. Miller is "
             "now 0-1-0, endurance 25 (was 26).\n");
    /* The changes after the bout: a points win is an endurance point. */
    ck_assert_int_eq(db_fighter_get(bot.db, "murphy", &f), DB_OK);
    ck_assert_int_eq(f.sheet.u.sugarray.endurance, 22);
    ck_assert_int_eq(f.wins, 1);
    ck_assert_int_eq(db_fighter_get(bot.db, "miller", &f), DB_OK);
    ck_assert_int_eq(f.sheet.u.sugarray.endurance, 25);
    ck_assert(replay_ok(1));
}
END_TEST

/* The start of a challenged bout: one channel line asks the players who
 * are there for their round 1 orders; one who is not is asked privately;
 * the order line is explained only to a player new to the ruleset. */
START_TEST(test_start_called)
{
    const char *out;

    /* A second channel of the bot's: who leaves #ringside stays known. */
    snprintf(bot.chan[1], sizeof(bot.chan[1]), "#second");
    bot.chan_in[1] = 1;
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    users_join(bot.users, "alice", 1);
    users_join(bot.users, "bob", 1);
    run("alice", 1, "!challenge bob");
    users_part(bot.users, "bob", 0);
    out = run("bob", 0, "accept");
    ck_assert_str_eq(out, "PRIVMSG #ringside :Bout #1 is on. Round 1 of 3: alice (Rocky), your "
                          "orders (e.g. 5H/8!/7 (inside)) within 2 minutes; send them to me in "
                          "private. Boxing orders are AGG/POW/DEF, e.g. 5H/8!/7 (inside): AGG is "
                          "how many punches you throw (8 for each point), POW how hard they are, "
                          "DEF how well you guard; each is at least 1 and AGG+POW+DEF is at most "
                          "20. The rest: help order.\n"
                          "PRIVMSG #ringside :Predictions open until round 1 is fought: !predict "
                          "1 <fighter>.\n"
                          "PRIVMSG bob :Bout #1, round 1 of 3: your orders for Apollo (e.g. "
                          "5H/8!/7 (inside)) within 2 minutes; send them here, in private. Boxing "
                          "orders are AGG/POW/DEF, e.g. 5H/8!/7 (inside): AGG is how many punches "
                          "you throw (8 for each point), POW how hard they are, DEF how well you "
                          "guard; each is at least 1 and AGG+POW+DEF is at most 20. The rest: "
                          "help order.\n");
    for (int r = 0; r < 3; r++) {
        run("alice", 0, "5/5/10");
        run("bob", 0, "5/5/10");
    }
    /* Both fought a boxing bout: no explanation; bob is back. The
     * predictions' window rides on the start's one IRC line. */
    users_join(bot.users, "bob", 0);
    run("alice", 1, "!challenge bob");
    out = run("bob", 1, "!accept");
    ck_assert_str_eq(out, "PRIVMSG #ringside :Bout #2 is on. Round 1 of 3: alice (Rocky) and bob "
                          "(Apollo), your orders (e.g. 5H/8!/7 (inside)) within 2 minutes; send "
                          "them to me in private. Predictions open until round 1 is fought: "
                          "!predict 2 <fighter>.\n");
    for (int r = 0; r < 3; r++) {
        run("alice", 0, "5/5/10");
        run("bob", 0, "5/5/10");
    }
    /* Neither in the channel: the start said there, both asked privately. */
    run("alice", 1, "!challenge bob");
    users_part(bot.users, "alice", 0);
    users_part(bot.users, "bob", 0);
    out = run("bob", 0, "accept");
    HAS(out, "PRIVMSG #ringside :Bout #3 is on. Predictions open until round 1 is fought: "
             "!predict 3 <fighter>.\nPRIVMSG alice :Bout #3, round 1 of 3: your "
             "orders for Rocky (e.g. 5H/8!/7 (inside)) within 2 minutes; send them here, in "
             "private\nPRIVMSG bob :Bout #3, round 1 of 3: your orders for Apollo");
    ck_assert_int_eq(lines_to(out, "#ringside"), 1);
}
END_TEST

/* accept, decline and withdraw in private: with one open challenge bare,
 * else by the challenger's nick or the bout's number; what is wrong in one
 * line that says how to do it right, and nothing changes. The channel
 * hears of the answer all the same. */
START_TEST(test_answers_in_private)
{
    struct db_bout b;
    const char *out;

    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    out = run("bob", 0, "create Creed str=13 spd=14 agl=12 tgh=11 hgt=10");
    HAS(out, "is ready");
    player("carol", "create Ivan str=12 spd=12 agl=12 tgh=12 hgt=12");
    out = run("bob", 0, "accept");
    HAS(out, "PRIVMSG bob :nobody has challenged you");
    out = run("alice", 1, "!challenge bob");
    HAS(out, "challenges bob to bout #1, boxing");
    out = run("carol", 1, "!challenge bob");
    HAS(out, "challenges bob to bout #2, boxing");
    out = run("bob", 0, "accept");
    HAS(out, "PRIVMSG bob :2 challenges are open; say whose: accept <nick> (or "
             "accept #<bout>)\n");
    out = run("bob", 1, "!decline");
    HAS(out, "PRIVMSG #ringside :bob: 2 challenges are open; say whose: "
             "!decline <nick> (or !decline #<bout>)\n");
    out = run("bob", 0, "accept #7");
    HAS(out, "PRIVMSG bob :bout #7 is not an open challenge to you; say "
             "accept <nick> or accept #<bout>\n");
    out = run("alice", 0, "withdraw 2");
    HAS(out, "PRIVMSG alice :bout #2 is not an open challenge of yours; "
             "say withdraw <nick> or withdraw #<bout>\n");
    ck_assert_int_eq(db_bout_get(bot.db, 1, &b), DB_OK);
    ck_assert_int_eq(b.state, DB_BOUT_CHALLENGE);
    ck_assert_int_eq(db_bout_get(bot.db, 2, &b), DB_OK);
    ck_assert_int_eq(b.state, DB_BOUT_CHALLENGE);
    out = run("bob", 0, "decline 2");
    HAS(out, "PRIVMSG #ringside :bob declines the challenge (bout #2, Ivan vs Creed).\n");
    out = run("bob", 0, "accept");
    HAS(out, "PRIVMSG #ringside :Bout #1 is on. Round 1 of 3: alice (Rocky) and bob (Apollo), "
             "your orders (e.g. 5H/8!/7 (inside)) within 2 minutes; send them to me in private.");
    ck_assert_int_eq(lines_to(out, "bob"), 0);
    ck_assert_int_eq(db_bout_get(bot.db, 1, &b), DB_OK);
    ck_assert_int_eq(b.state, DB_BOUT_LIVE);
    out = run("carol", 1, "!challenge bob");
    HAS(out, "challenges bob to bout #3, boxing");
    out = run("carol", 0, "withdraw #3");
    HAS(out, "PRIVMSG #ringside :carol withdraws the challenge (bout #3, Ivan vs Creed).\n");
    ck_assert_int_eq(db_bout_get(bot.db, 3, &b), DB_OK);
    ck_assert_int_eq(b.state, DB_BOUT_CANCELLED);
}
END_TEST

/* Both orders of a round before the first one's "stored" line went out:
 * that line is dropped, and each prompt for the next round acknowledges
 * its player's orders (one line per player for the round, not two). An
 * acknowledgement that went out is not said again. */
START_TEST(test_ack_folded_into_prompt)
{
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    run("alice", 1, "!challenge bob");
    run("bob", 1, "!accept");
    bot.now += 3;
    cmd_dispatch(&bot, "alice", NULL, "5/5/10");
    const char *out = run("bob", 0, "4H/6/10");
    ck_assert_ptr_null(strstr(out, "orders stored"));
    HAS(out, "PRIVMSG alice :Bout #1, round 2 of 3: your orders for Rocky (e.g. 5H/8!/7 (inside)) "
             "within 2 minutes; your round 1 orders for Rocky (5/5/10) are in and fought. Your "
             "corner: ");
    HAS(out, "PRIVMSG bob :Bout #1, round 2 of 3: your orders for Apollo (e.g. 5H/8!/7 (inside)) "
             "within 2 minutes; your round 1 orders for Apollo (4H/6/10) are in and fought. Your "
             "corner: ");
    ck_assert_int_eq(lines_to(out, "alice"), 1);
    ck_assert_int_eq(lines_to(out, "bob"), 1);
    out = run("alice", 0, "5/5/10");
    HAS(out, "PRIVMSG alice :round 2 orders stored for Rocky: 5/5/10 (you may change them");
    out = run("bob", 0, "4H/6/10");
    HAS(out, "PRIVMSG alice :Bout #1, round 3 of 3: your orders for Rocky (e.g. 5H/8!/7 (inside)) "
             "within 2 minutes. Your corner: ");
}
END_TEST

/* A challenge is addressed to the nick the challenged player is
 * identified under, not to his account's name: his client highlights it. */
START_TEST(test_challenge_names_nick)
{
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    users_rename(bot.users, "bob", "bobby");
    const char *out = run("alice", 1, "!challenge bobby");
    HAS(out, "alice challenges bobby to bout #1, ");
    HAS(out, "bobby: say !accept or !decline within ");
}
END_TEST

START_TEST(test_forfeit_decline_expire_cancel)
{
    struct db_bout b;

    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    HAS(run("alice", 1, "!challenge alice"), "cannot challenge yourself");
    HAS(run("alice", 1, "!challenge nobody"),
        "PRIVMSG #ringside :alice: no one called nobody is here, and no account has that name; "
        "check the nick (/names #ringside lists who is here)\n");
    users_join(bot.users, "bobby", 0);
    HAS(run("alice", 1, "!challenge bobby"),
        "PRIVMSG #ringside :alice: bobby is here but has no account: bobby must register first "
        "(/msg ringside register <password>)\n");
    HAS(run("alice", 1, "!challenge bob rules=sugarray"), "no sugarray fighter");
    run("alice", 1, "!challenge bob");
    HAS(run("bob", 1, "!decline"), "bob declines the challenge");
    run("alice", 1, "!challenge bob");
    HAS(run("alice", 1, "!withdraw"), "alice withdraws");
    HAS(run("eve", 1, "!report 2"), "bout #2 was never fought (a challenge, or cancelled)");
    run("alice", 1, "!challenge bob");
    game_tick(bot.game, NULL); /* the challenge went out: the clock runs */
    bot.now += bot.cfg.challenge_timeout + 1;
    game_tick(bot.game, NULL);
    HAS(flush(), "expired unanswered");
    ck_assert_int_eq(db_bout_get(bot.db, 3, &b), DB_OK);
    ck_assert_int_eq(b.state, DB_BOUT_CANCELLED);

    run("alice", 1, "!challenge bob");
    run("bob", 1, "!accept");
    /* forfeit asks first; nothing changes until he says yes. */
    HAS(run("bob", 1, "!forfeit"),
        "PRIVMSG #ringside :bob: Forfeit bout #4 (Apollo vs Rocky)? This ends it as a loss. Say "
        "!forfeit yes (or !forfeit #4 yes) to confirm.");
    HAS(run("bob", 1, "!forfeit no"), "bout #4 goes on: nothing conceded");
    ck_assert_int_eq(db_bout_get(bot.db, 4, &b), DB_OK);
    ck_assert_int_eq(b.state, DB_BOUT_LIVE);
    HAS(run("bob", 1, "!forfeit yes"), "Rocky wins by forfeit in round 1 (Apollo conceded)!");
    ck_assert_int_eq(db_bout_get(bot.db, 4, &b), DB_OK);
    ck_assert_int_eq(b.state, DB_BOUT_OVER);
    ck_assert_int_eq(b.winner, 0);
    ck_assert_int_eq(b.reason, TKO_TOWEL);
    struct db_fighter f;
    ck_assert_int_eq(db_fighter_get(bot.db, "rocky", &f), DB_OK);
    ck_assert_int_eq(f.wins, 1);
    ck_assert_int_eq(f.forfeits, 1);
    ck_assert_int_eq(f.kos + f.tkos + f.towels + f.dqs, 0);
    ck_assert_int_eq(f.training_points, 1);
    ck_assert(replay_ok(4));

    run("alice", 1, "!challenge bob");
    run("bob", 1, "!accept");
    users_join(bot.users, "boss", 0);
    run("boss", 0, "identify boss-pw1");
    HAS(run("alice", 1, "!cancel 5"), "for the bot's admins only");
    HAS(run("boss", 1, "!cancel 5"), "is cancelled by boss");
    ck_assert_int_eq(db_bout_get(bot.db, 5, &b), DB_OK);
    ck_assert_int_eq(b.state, DB_BOUT_CANCELLED);
    ck_assert_int_eq(game_live(bot.game), 0);
}
END_TEST

/* Bouts `id` (carol's Ivan and dan's Clubber) and id - 1 (alice's Rocky
 * and bob's Apollo, challenged first), fought to their ends at once: the
 * last run's lines are in `said`, bout id's last round among them. Returns
 * bout id's winner (-1: a draw), and into want what its records line says
 * of him with room for it. */
static int packed_ends(int64_t id, char *want, size_t len)
{
    struct db_bout b;
    struct db_fighter f[2];
    int before[2];

    ck_assert_int_eq(db_fighter_get(bot.db, "ivan", &f[0]), DB_OK);
    ck_assert_int_eq(db_fighter_get(bot.db, "clubber", &f[1]), DB_OK);
    before[0] = f[0].training_points;
    before[1] = f[1].training_points;
    run("alice", 1, "!challenge bob");
    run("bob", 1, "!accept");
    run("carol", 1, "!challenge dan");
    run("dan", 1, "!accept");
    for (int r = 1; r <= 3; r++) {
        run("alice", 0, "5/5/10");
        run("bob", 0, "5/5/10");
        run("carol", 0, "6/6/8");
        run("dan", 0, "4/6/10");
    }
    ck_assert_int_eq(db_bout_get(bot.db, id, &b), DB_OK);
    ck_assert_int_eq(b.state, DB_BOUT_OVER);
    ck_assert_int_eq(db_fighter_get(bot.db, "ivan", &f[0]), DB_OK);
    ck_assert_int_eq(db_fighter_get(bot.db, "clubber", &f[1]), DB_OK);
    if (b.winner >= 0) {
        int w = b.winner, all = f[w].training_points, p = all - before[w];
        char in_all[32] = "";
        if (all > p)
            snprintf(in_all, sizeof(in_all), ", %d in all", all);
        snprintf(want, len,
                 " Records now: %s %d-%d-%d, %s %d-%d-%d. %s earned %d training point%s%s "
                 "(!train <ability> %s).",
                 f[w].name, f[w].wins, f[w].losses, f[w].draws, f[!w].name, f[!w].wins,
                 f[!w].losses, f[!w].draws, f[w].name, p, p == 1 ? "" : "s", in_all, f[w].name);
    }
    return b.winner;
}

/* The training points a bout earned are said on the channel's records
 * line, where the winner is (no private line of their own): "(N in all)"
 * when he had some already; a loser with points left is told nothing
 * privately (fighter and train tell them). Two bouts in the channel: the
 * same words in the packed message of the last round. */
START_TEST(test_points_on_records_line)
{
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    run("alice", 1, "!challenge bob");
    run("bob", 1, "!accept");
    /* The conceding player's reply aside, nothing private. */
    const char *out = run("bob", 1, "!forfeit yes");
    HAS(out, "PRIVMSG #ringside :Records now: Rocky 1-0-0 (1 forfeit), Apollo 0-1-0. Rocky earned "
             "1 training point (!train <ability> Rocky).\n");
    ck_assert_ptr_null(strstr(out, "is over, and"));
    run("bob", 1, "!challenge alice");
    run("alice", 1, "!accept");
    out = run("bob", 1, "!forfeit yes");
    HAS(out, "PRIVMSG #ringside :Records now: Rocky 2-0-0 (2 forfeits), Apollo 0-2-0. Rocky "
             "earned 1 training point, 2 in all (!train <ability> Rocky).\n");
    ck_assert_ptr_null(strstr(out, "is over, and"));
    /* Apollo wins one: Rocky, who lost with 2 points left, hears nothing. */
    run("alice", 1, "!challenge bob");
    run("bob", 1, "!accept");
    out = run("alice", 1, "!forfeit yes");
    HAS(out, ", Rocky 2-1-0 (2 forfeits). Apollo earned 1 training point (!train <ability> "
             "Apollo).\n");
    ck_assert_ptr_null(strstr(out, "is over, and"));
    /* Where they are told after: the fighter's own page, and train. */
    HAS(run("alice", 0, "fighter Rocky"), "PRIVMSG alice :Rocky has 2 training points: train "
                                          "<ability> Rocky\n");

    /* Packed: two bouts share the channel to their ends. The bot does not
     * know the server's origin yet: it assumes 106 bytes, where the words
     * may cut the message in two (the result's length is the seed's): then
     * they stay out, and the winner is told privately instead. */
    player("carol", "create Ivan str=12 spd=12 agl=12 tgh=12 hgt=12");
    player("dan", "create Clubber str=15 spd=10 agl=10 tgh=13 hgt=12");
    char want[320];
    int w = packed_ends(5, want, sizeof(want));
    out = said;
    HAS(out, "PRIVMSG #ringside :[#5] ");
    if (w >= 0) {
        /* A message too long for one line goes as two, cut at a space:
         * when it takes two lines with the words or without them, the
         * words are in it (wire_room), perhaps across the cut. */
        char flat[sizeof(said)];
        channel_flat(out, flat, sizeof(flat));
        int in_line = strstr(flat, want) != NULL;
        int alone = strstr(out, w ? "PRIVMSG dan :Bout #5 is over, and you won: "
                                  : "PRIVMSG carol :Bout #5 is over, and you won: ") != NULL;
        ck_assert_msg(in_line != alone, "%s", out);
    }
    /* An origin so short that any end has room for the words. */
    outq_set_prefix_len(bot.q, 1);
    w = packed_ends(7, want, sizeof(want));
    out = said;
    ck_assert_int_eq(lines_to(out, "#ringside"), 1);
    HAS(out, "PRIVMSG #ringside :[#7] ");
    if (w >= 0)
        HAS(out, want);
    ck_assert_int_eq(lines_to(out, "carol"), 0);
    ck_assert_int_eq(lines_to(out, "dan"), 0);
}
END_TEST

/* A player answering as fast as he likes is never ignored in his own bout:
 * orders do not count against the inbound limit; other commands do. */
START_TEST(test_orders_never_limited)
{
    char text[64];

    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    run("alice", 1, "!challenge bob rounds=12");
    run("bob", 1, "!accept");
    for (int i = 0; i < 3 * USERS_RATE_CMDS; i++) {
        bot.now += 0.05;
        snprintf(text, sizeof(text), i % 3 ? "order %d/5/%d" : "#1 %d/5/%d", 5 + i % 3, 10 - i % 3);
        cmd_dispatch(&bot, "alice", NULL, text);
        const char *out = flush();
        HAS(out, "orders stored for Rocky");
        ck_assert_ptr_null(strstr(out, "too many commands"));
    }
    /* Other commands are limited as ever. */
    int limited = 0;
    for (int i = 0; i < USERS_RATE_CMDS + 2; i++) {
        bot.now += 0.05;
        cmd_dispatch(&bot, "alice", NULL, "score");
        limited += strstr(flush(), "too many commands") != NULL;
    }
    ck_assert_int_eq(limited, 1);
    /* Ignored for other commands, his orders still count. */
    bot.now += 0.05;
    cmd_dispatch(&bot, "alice", NULL, "4/6/10");
    HAS(flush(), "orders stored for Rocky: 4/6/10");
}
END_TEST

/* An answer of more than three lines to a command said in a channel goes
 * in private, with one line in the channel saying so; a short one stays
 * there. Lines are counted as the queue cuts them. */
START_TEST(test_long_answer_private)
{
    users_join(bot.users, "eve", 0);
    const char *out = run("eve", 1, "!armoury");
    ck_assert_int_eq(lines_to(out, "#ringside"), 1);
    HAS(out, "PRIVMSG #ringside :eve: the answer to !armoury is 15 lines; sent to you in "
             "private.\n");
    ck_assert_int_eq(lines_to(out, "eve"), 15);
    HAS(out, "PRIVMSG eve :Weapons (STR needed, damage, ");
    out = run("eve", 1, "!help create");
    ck_assert_int_eq(lines_to(out, "#ringside"), 1);
    HAS(out, "PRIVMSG #ringside :eve: the answer to !help is ");
    ck_assert_int_gt(lines_to(out, "eve"), 3);
    HAS(out, "PRIVMSG eve :!create ");
    /* Three lines or fewer: in the channel, as ever. */
    out = run("eve", 1, "!help armoury");
    ck_assert_int_eq(lines_to(out, "eve"), 0);
    ck_assert_int_ge(lines_to(out, "#ringside"), 1);
    ck_assert_int_le(lines_to(out, "#ringside"), 3);
    HAS(out, "PRIVMSG #ringside :eve: !armoury");
    /* In private nothing changes: every line, no note. */
    out = run("eve", 0, "armoury");
    ck_assert_int_eq(lines_to(out, "eve"), 15);
    ck_assert_ptr_null(strstr(out, "sent to you in private"));
}
END_TEST

START_TEST(test_report_private)
{
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    run("alice", 1, "!challenge bob");
    run("bob", 1, "!accept");
    run("alice", 0, "5/5/10");
    run("bob", 0, "5/5/10");
    const char *out = run("eve", 1, "!report 1");
    HAS(out, "PRIVMSG eve :Report of bout #1, round 1");
    /* One line in the channel; the report in private. */
    ck_assert_int_eq(lines_to(out, "#ringside"), 1);
    HAS(out, "PRIVMSG #ringside :eve: bout #1, Rocky vs Apollo (boxing), live: 1 of 3 rounds "
             "fought. The report of round 1 is sent to you in private.");
    /* The header, then the round packed into as few lines as fit. */
    ck_assert_int_ge(lines_to(out, "eve"), 2);
    HAS(out, "PRIVMSG eve :Round 1 of 3 | Rocky: 5/5/10; STR ");
    HAS(run("eve", 1, "!report 1 7"), "bout #1 has only round 1 so far");
    HAS(run("eve", 1, "!report 99"), "there is no bout 99");
}
END_TEST

/* A bare order goes to the one live bout whose ruleset reads it; only a
 * real ambiguity asks, naming the player's own bouts of that ruleset. */
START_TEST(test_orders_find_their_bout)
{
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    HAS(run("alice", 0, "create Rocco str=14 spd=12 agl=11 tgh=12 hgt=11"), "is ready");
    HAS(run("alice", 0, "create Murphy rules=sugarray"), "is ready");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    player("carol", "create Ivan str=12 spd=12 agl=12 tgh=12 hgt=12");
    HAS(run("carol", 0, "create Miller rules=sugarray"), "is ready");
    run("alice", 1, "!challenge bob with=Rocky");
    run("bob", 1, "!accept");
    run("alice", 1, "!challenge carol rules=sugarray");
    run("carol", 1, "!accept");
    /* A boxing and a SUGAR RAY bout: each order finds its own. */
    HAS(run("alice", 0, "5/5/10"),
        "PRIVMSG alice :round 1 orders stored for Rocky: 5/5/10 (you may change them until the "
        "round is fought)");
    HAS(run("alice", 0, "3/2"), "PRIVMSG alice :round 1 orders stored for Murphy: 3/2 (you may");
    /* Read by none: each ruleset's reason, with its bouts. */
    HAS(run("alice", 0, "9/9/9/9"),
        "PRIVMSG alice :not stored: \"9/9/9/9\" is an order for none of your bouts. As boxing "
        "(order #1): column 1: AGG+POW+DEF = 27, the most is 20. As SUGAR RAY (order #2): column "
        "4: unexpected \"/9/9\" after defence; expected attack/defence, e.g. 3/2.\n");
    /* A second boxing bout: now boxing orders are ambiguous, and only they. */
    run("carol", 1, "!challenge alice vs=Rocco");
    run("alice", 1, "!accept");
    HAS(run("alice", 0, "5/5/10"),
        "PRIVMSG alice :you are in 2 boxing bouts; say which: order #1 5/5/10 or order #3 "
        "5/5/10\n");
    HAS(run("alice", 0, "order 6/6/8 (ring)"),
        "PRIVMSG alice :you are in 2 boxing bouts; say which: order #1 6/6/8 (ring) or order #3 "
        "6/6/8 (ring)\n");
    HAS(run("alice", 0, "order 4/1"), "PRIVMSG alice :round 1 orders stored for Murphy: 4/1");
    HAS(run("alice", 0, "#3 6/6/8"), "round 1 orders stored for Rocco: 6/6/8");
    struct db_order o[4];
    int n = -1;
    ck_assert_int_eq(db_order_list(bot.db, 1, o, 4, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(o[0].text, "5/5/10");
}
END_TEST

/* Orders none of a player's live bouts reads get the parser's own reason,
 * for each ruleset among his bouts, and how to name a bout (#N) when he has
 * several of one; nothing is stored. */
START_TEST(test_bad_orders_say_why)
{
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    HAS(run("alice", 0, "create Rocco str=14 spd=12 agl=11 tgh=12 hgt=11"), "is ready");
    HAS(run("alice", 0, "create Murphy rules=sugarray"), "is ready");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    player("carol", "create Ivan str=12 spd=12 agl=12 tgh=12 hgt=12");
    HAS(run("carol", 0, "create Miller rules=sugarray"), "is ready");
    run("alice", 1, "!challenge bob with=Rocky");
    run("bob", 1, "!accept");
    run("carol", 1, "!challenge alice vs=Rocco");
    run("alice", 1, "!accept");
    /* Two boxing bouts: the reason, then how to name one. */
    ck_assert_str_eq(run("alice", 0, "5/5/15"),
                     "PRIVMSG alice :not stored: column 1: AGG+POW+DEF = 25, the most is 20; you "
                     "are in 2 boxing bouts, so name one: order #1 <orders> or order #2 "
                     "<orders>\n");
    ck_assert_str_eq(run("alice", 0, "order 5/5/10 (xyz)"),
                     "PRIVMSG alice :not stored: column 9: unknown style \"xyz\"; use inside, "
                     "clinch, feint, counter, ring, cut, outside or allout; you are in 2 boxing "
                     "bouts, so name one: order #1 <orders> or order #2 <orders>\n");
    /* And a SUGAR RAY bout: each ruleset's reason, with its bouts. */
    run("alice", 1, "!challenge carol rules=sugarray");
    run("carol", 1, "!accept");
    ck_assert_str_eq(run("alice", 0, "0/5/10"),
                     "PRIVMSG alice :not stored: \"0/5/10\" is an order for none of your bouts. "
                     "As boxing (order #1 or order #2): column 1: AGG must be at least 1. As "
                     "SUGAR RAY (order #3): column 4: unexpected \"/10\" after defence; "
                     "expected attack/defence, e.g. 3/2.\n");
    HAS(run("alice", 0, "120/3"), "As SUGAR RAY (order #3): column 1: attack 120 is over 99.");
    /* Named, the bout's own reason as before. */
    ck_assert_str_eq(run("alice", 0, "#3 120/3"),
                     "PRIVMSG alice :not stored: column 1: attack 120 is over 99\n");
    for (int64_t b = 1; b <= 3; b++) {
        struct db_order o[4];
        int n = -1;
        ck_assert_int_eq(db_order_list(bot.db, b, o, 4, &n), DB_OK);
        ck_assert_int_eq(n, 0);
    }
    /* A duel beside one boxing bout takes no orders: the boxing reason alone. */
    run("alice", 0, "forfeit #2 yes");
    run("alice", 0, "forfeit #3 yes");
    HAS(run("alice", 0, "create Conan rules=duel str=18 dex=14 con=14 int=10"), "is ready");
    HAS(run("bob", 0, "create Duncan rules=duel str=18 dex=14 con=14 int=10"), "is ready");
    run("alice", 1, "!challenge bob rules=duel");
    HAS(run("bob", 1, "!accept"), "Bout #4");
    ck_assert_str_eq(run("alice", 0, "5/5/15"),
                     "PRIVMSG alice :not stored: column 1: AGG+POW+DEF = 25, the most is 20\n");
}
END_TEST

/* A duel's yield asks first too, in its own word; a bare order beside it
 * goes to the bout that takes orders. */
START_TEST(test_yield_asks)
{
    player("alice", "create Conan rules=duel str=18 dex=14 con=14 int=10");
    HAS(run("alice", 0, "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11"), "is ready");
    player("bob", "create Xena rules=duel str=17 dex=16 con=13 int=10");
    player("carol", "create Ivan str=12 spd=12 agl=12 tgh=12 hgt=12");
    run("alice", 1, "!challenge bob rules=duel");
    run("bob", 1, "!accept");
    run("carol", 1, "!challenge alice");
    run("alice", 1, "!accept");
    HAS(run("alice", 0, "5/5/10"), "PRIVMSG alice :round 1 orders stored for Rocky: 5/5/10");
    HAS(run("alice", 0, "order fight"), "PRIVMSG alice :not stored: ");
    ck_assert_str_eq(run("bob", 0, "yield"),
                     "PRIVMSG bob :Yield bout #1 (Xena vs Conan)? This ends it as a loss. Say "
                     "yield yes (or yield #1 yes) to confirm.\n");
    HAS(run("bob", 0, "yield yes"), "PRIVMSG bob :you conceded bout #1");
}
END_TEST

/* Orders said in the channel without the prefix: a private hint, at most
 * once every 10 minutes, and only to a player whose bout reads them. */
START_TEST(test_channel_order_hint)
{
    player("alice", "create Rocky str=14 spd=12 agl=11 tgh=12 hgt=11");
    player("bob", "create Apollo str=13 spd=14 agl=12 tgh=11 hgt=10");
    player("carol", "create Ivan str=12 spd=12 agl=12 tgh=12 hgt=12");
    run("alice", 1, "!challenge bob");
    run("bob", 1, "!accept");
    ck_assert_str_eq(run("alice", 1, "3 rounds to go"), "");
    ck_assert_str_eq(run("carol", 1, "5/5/10"), ""); /* in no bout: chat */
    ck_assert_str_eq(run("alice", 1, "5/5/10"),
                     "PRIVMSG alice :orders go to me in private: /msg ringside 5/5/10 - here the "
                     "channel sees them\n");
    ck_assert_str_eq(run("alice", 1, "6/6/8"), ""); /* once in a while */
    bot.now += 600;
    HAS(run("alice", 1, "#1 6/6/8"), "PRIVMSG alice :orders go to me in private: /msg ringside "
                                     "#1 6/6/8 - here the channel sees them");
    struct db_order o[4];
    int n = -1;
    ck_assert_int_eq(db_order_list(bot.db, 1, o, 4, &n), DB_OK);
    ck_assert_int_eq(n, 0); /* nothing stored */
}
END_TEST

/* A forfeit told in one tagged line (two bouts share the channel): the
 * round that was not scored is a sentence with its full stop before the
 * announcer's words ("...; totals (Rocky-Apollo) 9-10, 10-10, 10-9. And
 * that's it! Rocky wins by forfeit..."), and it names the one who
 * conceded, as the result does: no corner, no towel. */
START_TEST(test_packed_forfeit_end)
{
    static const char mark[] = "Round 2 not scored, conceded by Apollo; totals (Rocky-Apollo) ";

    two_live_bouts();
    run("alice", 0, "5/5/10");
    run("bob", 0, "5/5/10");
    const char *out = run("bob", 1, "!forfeit #1 yes");
    ck_assert_int_eq(lines_to(out, "#ringside"), 1);
    HAS(out, "PRIVMSG #ringside :[#1] Round 2: Apollo ");
    const char *p = strstr(out, mark);
    ck_assert_msg(p != NULL, "%s", out);
    p += sizeof(mark) - 1;
    while (strchr("0123456789-, ", *p) && *p)
        p++;
    ck_assert_msg(p[0] == '.' && p[1] == ' ', "no full stop after the totals: %s", out);
    HAS(p, " Rocky wins by forfeit in round 2 (Apollo conceded)! Records now: ");
    ck_assert_ptr_null(strstr(out, "towel"));
    ck_assert_ptr_null(strstr(out, "corner"));
}
END_TEST

Suite *bout_suite(void)
{
    Suite *s = suite_create("bouts");
    TCase *tc = tcase_create("live");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_whole_boxing_bout);
    tcase_add_test(tc, test_orders_stored_before_ack_and_replaceable);
    tcase_add_test(tc, test_third_user_refused);
    tcase_add_test(tc, test_crash_mid_bout_loses_nothing);
    tcase_add_test(tc, test_tournament_lines_in_order);
    tcase_add_test(tc, test_unsaid_commentary_said_after_restart);
    tcase_add_test(tc, test_services_login_lists_waiting_bouts);
    tcase_add_test(tc, test_deadline_uses_plan_then_last_orders);
    tcase_add_test(tc, test_two_bouts_one_channel);
    tcase_add_test(tc, test_orders_where_newcomers_send_them);
    tcase_add_test(tc, test_sugarray_example_bout);
    tcase_add_test(tc, test_grammar_sweep);
    tcase_add_test(tc, test_formatting);
    tcase_add_test(tc, test_forfeit_decline_expire_cancel);
    tcase_add_test(tc, test_challenge_names_nick);
    tcase_add_test(tc, test_points_on_records_line);
    tcase_add_test(tc, test_answers_in_private);
    tcase_add_test(tc, test_start_called);
    tcase_add_test(tc, test_ack_folded_into_prompt);
    tcase_add_test(tc, test_orders_never_limited);
    tcase_add_test(tc, test_report_private);
    tcase_add_test(tc, test_orders_find_their_bout);
    tcase_add_test(tc, test_bad_orders_say_why);
    tcase_add_test(tc, test_channel_order_hint);
    tcase_add_test(tc, test_yield_asks);
    tcase_add_test(tc, test_long_answer_private);
    tcase_add_test(tc, test_packed_forfeit_end);
    suite_add_tcase(s, tc);
    return s;
}
