/* check_tables.c - the lookups that must not slow down with many bouts
 * (issue 28): the users' index of nicks and of accounts (bot/users.c), the output queue's
 * indexes of owners, targets and stale-able lines (bot/outq.c), and the
 * live table of game/live.c through the bot, each checked against a plain
 * model after many additions, removals and moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"
#include "bot_fixture.h"
#include "tests.h"

/* `text` is evaluated once: it may be a command run. */
#define HAS(text, needle)                                                                          \
    do {                                                                                           \
        const char *has_ = (text);                                                                 \
        ck_assert_msg(strstr(has_, (needle)) != NULL, "%s", has_);                                 \
    } while (0)

#define NICKS 1500

/* What the index must answer, kept the slow way. */
struct model {
    char nick[NICKS][32];
    int present[NICKS];
    int64_t account[NICKS]; /* 0: not identified */
};

static void model_check(const struct users *u, const struct model *m)
{
    for (int i = 0; i < NICKS; i++) {
        int64_t id = -1;
        ck_assert_msg(users_present(u, m->nick[i]) == m->present[i], "%s", m->nick[i]);
        ck_assert_int_eq(users_account(u, m->nick[i], &id, NULL), m->account[i] != 0);
        if (m->account[i])
            ck_assert_int_eq(id, m->account[i]);
        /* And back: the nick identified as that account (ids are i + 1). */
        const char *nick = users_nick_of(u, i + 1);
        if (m->account[i])
            ck_assert_str_eq(nick ? nick : "(none)", m->nick[i]);
        else
            ck_assert_msg(nick == NULL, "account %d: %s", i + 1, nick);
    }
}

/* Joins, logins, quits, renames and parts in a pseudo-random order over
 * 1,500 nicks (the index grows, and removals move entries around), then
 * a new casemapping: every answer as the model says. */
START_TEST(test_users_index)
{
    struct users *u = users_new();
    static struct model m;
    unsigned x = 12345;

    memset(&m, 0, sizeof(m));
    for (int i = 0; i < NICKS; i++)
        snprintf(m.nick[i], sizeof(m.nick[i]), "Nick%d", i);
    for (int step = 0; step < 20000; step++) {
        x = x * 1103515245u + 12345u;
        int i = (int)((x >> 8) % NICKS), op = (int)((x >> 24) % 5);
        if (op <= 1) {
            users_join(u, m.nick[i], 0);
            m.present[i] = 1;
        } else if (op == 2 && m.present[i]) {
            users_login(u, m.nick[i], i + 1, m.nick[i]);
            m.account[i] = i + 1;
        } else if (op == 3) {
            users_quit(u, m.nick[i]);
            m.present[i] = 0;
            m.account[i] = 0;
        } else if (m.present[i]) {
            /* a rename: the nick takes another spelling of its number */
            char to[32];
            snprintf(to, sizeof(to), "%s", m.nick[i]);
            to[0] = to[0] == 'N' ? 'n' : 'N';
            to[1] = to[1] == 'i' ? 'I' : 'i';
            users_rename(u, m.nick[i], to);
            snprintf(m.nick[i], sizeof(m.nick[i]), "%s", to);
        }
    }
    model_check(u, &m);
    /* Another server's rules: the same nicks, folded again. */
    users_set_casemap(u, CASEMAP_ASCII);
    model_check(u, &m);
    ck_assert_int_eq(users_present(u, "nobody"), 0);
    /* Under rfc1459 "[" and "{" are one letter; under ascii two. */
    users_set_casemap(u, CASEMAP_RFC1459);
    users_join(u, "a[b", 0);
    ck_assert_int_eq(users_present(u, "A{B"), 1);
    users_set_casemap(u, CASEMAP_ASCII);
    ck_assert_int_eq(users_present(u, "A{B"), 0);
    ck_assert_int_eq(users_present(u, "A[B"), 1);
    model_check(u, &m);
    users_free(u);
}
END_TEST

/* Prompts about 400 bouts, some waiting as replies of a busy owner: each
 * round's drop takes exactly its bout's stale lines, wherever they wait,
 * and nothing else. */
START_TEST(test_outq_drop_index)
{
    struct outq *q = outq_new(1000, 1000);
    char nick[32], text[64];
    int total = 0;

    for (int b = 1; b <= 400; b++)
        for (int r = 1; r <= 3; r++) {
            snprintf(nick, sizeof(nick), "p%d", b % 50); /* 8 bouts each */
            snprintf(text, sizeof(text), "round %d of bout %d: your orders?", r, b);
            outq_msg_about(q, OUTQ_LIVE, "PRIVMSG", nick, nick, text, b, r);
            outq_msg_about(q, OUTQ_REPLY, "PRIVMSG", nick, nick, "a reply", 0, 0);
            total += 2;
        }
    outq_msg(q, OUTQ_LIVE, "PRIVMSG", "#ringside", "#ringside", "no bout's");
    total++;
    ck_assert_int_eq(outq_len(q), total);
    ck_assert_int_eq(outq_drop(q, 0, 3), 0);
    ck_assert_int_eq(outq_drop(q, 7, 0), 0);
    ck_assert_int_eq(outq_drop(q, 401, 3), 0);
    for (int b = 1; b <= 400; b += 2)
        ck_assert_int_eq(outq_drop(q, b, 2), 2); /* rounds 1 and 2 */
    total -= 400;
    ck_assert_int_eq(outq_len(q), total);
    for (int b = 1; b <= 400; b++)
        ck_assert_int_eq(outq_drop(q, b, 3), b % 2 ? 1 : 3);
    total -= 200 + 600;
    ck_assert_int_eq(outq_len(q), total);
    char line[OUTQ_LINE_MAX];
    int popped = 0;
    for (double t = 1; outq_len(q) > 0; t += 1)
        if (outq_pop(q, t, line)) {
            ck_assert_msg(strstr(line, "your orders") == NULL, "%s", line);
            popped++;
        }
    ck_assert_int_eq(popped, total);
    outq_free(q);
}
END_TEST

static struct bot bot;
static char dir[64];

static void bot_setup(void)
{
    bot_fixture_open(&bot, dir, "tables", 1000000, 1e6);
}

static void bot_teardown(void)
{
    bot_fixture_close(&bot, dir);
}

/* What the bot queued since the last call, joined by '\n'. */
static const char *queued(void)
{
    static char out[65536];

    return bot_fixture_drain(&bot, bot.now + 1e6, out, sizeof(out));
}

static const char *run(int player, int chan, const char *text)
{
    char nick[16];

    snprintf(nick, sizeof(nick), "p%d", player);
    bot.now += 3;
    cmd_dispatch(&bot, nick, chan ? "#ringside" : NULL, text);
    return queued();
}

/* A player with one boxer, identified. */
static void player(int i)
{
    char nick[16], key[DB_NAME_MAX];
    struct db_fighter f;
    int64_t id;

    snprintf(nick, sizeof(nick), "p%d", i);
    ck_assert_int_eq(db_account_create(bot.db, nick, nick, "$y$x", 0, &id), DB_OK);
    users_join(bot.users, nick, 0);
    users_login(bot.users, nick, id, nick);
    memset(&f, 0, sizeof(f));
    f.account_id = id;
    snprintf(f.name, sizeof(f.name), "Boxer%d", i);
    f.sheet.rules = RULES_BOXING;
    f.sheet.u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12};
    bot_name_key(key, f.name, sizeof(key));
    ck_assert_int_eq(db_fighter_create(bot.db, key, &f), DB_OK);
}

#define PAIRS 150

/* 150 challenges (more than the table's first room), every third
 * withdrawn (the last bout moves into its place), the rest accepted: each
 * bout is found by its number, by its players and by its fighters, and
 * the withdrawn ones nowhere; then a restart finds them all again. */
START_TEST(test_many_bouts)
{
    char text[64];

    ck_assert_int_ge(BOUTS_MAX, 10000);
    ck_assert_int_eq(db_begin(bot.db), DB_OK);
    for (int i = 0; i < 2 * PAIRS; i++)
        player(i);
    ck_assert_int_eq(db_commit(bot.db), DB_OK);
    for (int b = 0; b < PAIRS; b++) {
        snprintf(text, sizeof(text), "!challenge p%d", 2 * b + 1);
        HAS(run(2 * b, 1, text), "challenges");
    }
    for (int b = 0; b < PAIRS; b += 3)
        HAS(run(2 * b, 1, "!withdraw"), "withdraws the challenge");
    for (int b = 0; b < PAIRS; b++)
        if (b % 3) {
            snprintf(text, sizeof(text), "Bout #%d is on. Round 1 of ", b + 1);
            HAS(run(2 * b + 1, 1, "!accept"), text);
        }
    int live = PAIRS - (PAIRS + 2) / 3;
    ck_assert_int_eq(game_live(bot.game), live);
    for (int b = 0; b < PAIRS; b++) {
        /* bout ids follow the challenges: bout b is #b+1 */
        snprintf(text, sizeof(text), "!score #%d", b + 1);
        const char *out = run(2 * b, 1, text);
        if (b % 3 == 0) {
            HAS(out, "never started");
            continue;
        }
        HAS(out, "Round 1 of 12 to come");
        int64_t acc = 2 * b + 1; /* accounts in the order made */
        ck_assert_int_eq(game_account_live(bot.game, acc), 1);
        snprintf(text, sizeof(text), "round 1 orders stored for Boxer%d", 2 * b + 1);
        HAS(run(2 * b + 1, 0, "order 5/5/10"), text);
    }
    ck_assert_int_eq(game_account_live(bot.game, 1), 0); /* p0 withdrew */
    HAS(run(0, 0, "order 5/5/10"), "you have no live bout");

    /* The same table after a restart. */
    char err[256];
    struct game_io io;
    struct game_config gc;
    game_free(bot.game);
    bot_game_io(&bot, &io);
    bot_game_config(&bot.cfg, &gc);
    bot.game = game_new(bot.db, &io, &gc, err, sizeof(err));
    ck_assert_msg(bot.game != NULL, "%s", err);
    ck_assert_int_eq(game_live(bot.game), live);
    for (int b = 1; b < PAIRS; b += 3)
        ck_assert_int_eq(game_account_live(bot.game, 2 * b + 2), 1);
}
END_TEST

Suite *tables_suite(void)
{
    Suite *s = suite_create("tables");
    TCase *tc = tcase_create("core");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_users_index);
    tcase_add_test(tc, test_outq_drop_index);
    suite_add_tcase(s, tc);
    TCase *bouts = tcase_create("bouts");
    tcase_set_timeout(bouts, 120);
    tcase_add_checked_fixture(bouts, bot_setup, bot_teardown);
    tcase_add_test(bouts, test_many_bouts);
    suite_add_tcase(s, bouts);
    return s;
}
