/*
 * check_notify.c - db/notify.c: what the bots of two networks tell each
 * other about a bout between their players (issue 29). On SQLite every
 * writer refuses, naming PostgreSQL; on PostgreSQL (RINGSIDE_TEST_PG, the
 * job notify-pg) two connections of two networks on one schema: a row put
 * for the other is notified to it (its socket readable, the poll says
 * so), read there in order, deleted; the other network's bout is found
 * from either side.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db_internal.h"
#include "test_db.h"
#include "tests.h"

static char dir[64], path[128], net_a[32], net_b[32];

static void setup(void)
{
    snprintf(dir, sizeof(dir), "/tmp/ringside-notify.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/n.db", dir);
    snprintf(net_a, sizeof(net_a), "n%da", (int)getpid());
    snprintf(net_b, sizeof(net_b), "n%db", (int)getpid());
}

static void teardown(void)
{
    char f[160];

    test_db_drop(path);
    for (const char *const *s = (const char *const[]){"", "-wal", "-shm", NULL}; *s; s++) {
        snprintf(f, sizeof(f), "%s%s", path, *s);
        unlink(f);
    }
    rmdir(dir);
}

static struct db *open_on(const char *network)
{
    char err[512];
    struct db *db = test_db_open(path, err, sizeof(err));

    ck_assert_msg(db != NULL, "%s", err);
    ck_assert_int_eq(db_network_set(db, network), DB_OK);
    return db;
}

/* SQLite: one bot a file, so no relaying: the writers refuse with why. */
START_TEST(test_notify_sqlite)
{
    char err[512], network[DB_NETWORK_MAX];
    struct db *db = db_open(path, err, sizeof(err));
    struct db_relay row;
    int64_t bout;

    ck_assert_msg(db != NULL, "%s", err);
    ck_assert_int_eq(db_is_pg(db), 0);
    ck_assert_int_eq(db_notify_listen(db), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "bouts between two networks need PostgreSQL ([bot] database = "
                                    "postgresql://...): on SQLite one bot owns the file");
    ck_assert_int_eq(db_notify_fd(db), -1);
    ck_assert_int_eq(db_notify_poll(db), 0);
    ck_assert_int_eq(db_relay_put(db, "oftc", DB_RELAY_SAY, 0, "", "hi"), DB_ERROR);
    ck_assert_int_eq(db_relay_next(db, 0, &row), DB_NOTFOUND);
    ck_assert_int_eq(db_remote_bout(db, 1, &bout, network, sizeof(network)), DB_NOTFOUND);
    db_close(db);
}
END_TEST

/* Polls b until a notification for it came (10 s at most): 1, or 0. */
static int notified_soon(struct db *b)
{
    for (int i = 0; i < 1000; i++) {
        struct pollfd p = {.fd = db_notify_fd(b), .events = POLLIN};
        ck_assert_int_ge(p.fd, 0);
        (void)poll(&p, 1, 10);
        int got = db_notify_poll(b);
        ck_assert_int_ge(got, 0);
        if (got)
            return 1;
    }
    return 0;
}

/* Rows for the other network: notified, read in order, deleted. */
START_TEST(test_notify_rows)
{
    struct db *a = open_on(net_a), *b = open_on(net_b);
    struct db_relay row;

    ck_assert_int_eq(db_is_pg(a), 1);
    ck_assert_int_eq(db_notify_fd(b), -1); /* not listening yet */
    ck_assert_int_eq(db_notify_listen(a), DB_OK);
    ck_assert_int_eq(db_notify_listen(b), DB_OK);
    ck_assert_int_ge(db_notify_fd(b), 0);
    (void)db_notify_poll(b); /* what listening itself reported */
    ck_assert_int_eq(db_notify_poll(b), 0);

    ck_assert_int_eq(db_relay_put(a, net_b, DB_RELAY_SAY, 7, "bob", "Bout #1, round 1"), DB_OK);
    ck_assert_int_eq(db_relay_put(a, net_b, DB_RELAY_SAY, 0, "", "Round 1: a jab."), DB_OK);
    ck_assert_int_eq(db_relay_put(b, net_a, DB_RELAY_CMD, 7, "order", "1 5/5/10"), DB_OK);
    ck_assert_int_eq(notified_soon(b), 1);

    ck_assert_int_eq(db_relay_next(b, 0, &row), DB_OK);
    ck_assert_int_eq(row.kind, DB_RELAY_SAY);
    ck_assert_int_eq(row.account, 7);
    ck_assert_str_eq(row.target, "bob");
    ck_assert_str_eq(row.text, "Bout #1, round 1");
    int64_t first = row.id;
    ck_assert_int_eq(db_relay_next(b, first, &row), DB_OK);
    ck_assert_str_eq(row.target, "");
    ck_assert_str_eq(row.text, "Round 1: a jab.");
    ck_assert_int_eq(db_relay_next(b, row.id, &row), DB_NOTFOUND); /* a's row is a's */

    ck_assert_int_eq(notified_soon(a), 1);
    ck_assert_int_eq(db_relay_next(a, 0, &row), DB_OK);
    ck_assert_int_eq(row.kind, DB_RELAY_CMD);
    ck_assert_str_eq(row.target, "order");
    ck_assert_str_eq(row.text, "1 5/5/10");
    ck_assert_int_eq(db_relay_done(a, row.id, row.id), DB_OK);
    ck_assert_int_eq(db_relay_next(a, 0, &row), DB_NOTFOUND);

    ck_assert_int_eq(db_relay_done(b, 0, first), DB_OK); /* the first said: the second stays */
    ck_assert_int_eq(db_relay_next(b, 0, &row), DB_OK);
    ck_assert_str_eq(row.text, "Round 1: a jab.");
    db_close(a);
    db_close(b);
}
END_TEST

/* The bout of a's network between a's and b's players: a bout of another
 * network for b's player, and b's the other network for a. */
START_TEST(test_notify_remote_bout)
{
    struct db *a = open_on(net_a), *b = open_on(net_b);
    char network[DB_NETWORK_MAX], name[DB_NAME_MAX];
    int64_t alice = test_db_account(a, "alice"), bob = test_db_account(b, "bob"), bout = 0;
    struct db_bout bt;

    memset(&bt, 0, sizeof(bt));
    bt.rules = RULES_BOXING;
    snprintf(bt.channel, sizeof(bt.channel), "#ring");
    bt.rounds = 3;
    bt.state = DB_BOUT_CHALLENGE;
    bt.fighter[0] = test_db_boxer(a, alice, "rocky", 2);
    bt.fighter[1] = test_db_boxer(b, bob, "ivan", 2);
    for (int i = 0; i < 2; i++)
        bt.sheet[i] = (struct sheet){.rules = RULES_BOXING,
                                     .u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12}};
    bt.league = -1;
    bt.winner = -1;
    bt.created = 3;
    ck_assert_msg(db_bout_create(a, &bt) == DB_OK, "%s", db_errmsg(a));
    ck_assert_int_eq(db_network_running(a, net_b), 0); /* b's bot not started */
    ck_assert_int_eq(db_lease_take(b, net_b, 30), DB_OK);
    ck_assert_int_eq(db_network_running(a, net_b), 1);
    ck_assert_int_eq(db_network_running(a, "elsewhere"), 0);

    ck_assert_int_eq(db_remote_bout(b, bob, &bout, network, sizeof(network)), DB_OK);
    ck_assert_int_eq(bout, bt.id);
    ck_assert_str_eq(network, net_a);
    ck_assert_int_eq(db_remote_bout(a, alice, &bout, network, sizeof(network)), DB_NOTFOUND);
    ck_assert_int_eq(db_bout_network_other(a, bt.id, network, sizeof(network)), DB_OK);
    ck_assert_str_eq(network, net_b);
    ck_assert_int_eq(db_account_by_id(a, bob, name, sizeof(name), network, sizeof(network)), DB_OK);
    ck_assert_str_eq(name, "bob");
    ck_assert_str_eq(network, net_b);

    bt.state = DB_BOUT_CANCELLED; /* over: nothing to relay any more */
    ck_assert_int_eq(db_bout_save(a, &bt), DB_OK);
    ck_assert_int_eq(db_remote_bout(b, bob, &bout, network, sizeof(network)), DB_NOTFOUND);
    db_close(a);
    db_close(b);
}
END_TEST

Suite *notify_suite(void)
{
    Suite *s = suite_create("notify");
    TCase *tc = tcase_create("core");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_notify_sqlite);
    if (test_db_pg()) {
        tcase_add_test(tc, test_notify_rows);
        tcase_add_test(tc, test_notify_remote_bout);
    }
    suite_add_tcase(s, tc);
    return s;
}
