/*
 * check_notify.c - db/notify.c: what the bots of two networks tell each
 * other about a bout between their players (issue 29). On SQLite every
 * writer refuses, naming PostgreSQL; on PostgreSQL (RINGSIDE_TEST_PG, the
 * job notify-pg) two connections of two networks on one schema: a row put
 * for the other is notified to it (its socket readable, the poll says
 * so), read there in order, marked said (kept a day, then pruned); a
 * line about a bout is one row however often it is written (its key); the
 * commentary said again after a restart is stored only when the other
 * network misses that round; a round fought withdraws the other player's
 * prompts (a 'drop' row); the other network's bout is found from either
 * side; a database at 19 (tests/data/schema_pg_19.sql, with a relay table
 * a bot made) migrates to 20, keeping its rows, to a new database's table.
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
#include "util.h"

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
    ck_assert_int_eq(db_relay_say(db, "oftc", 0, "", "hi", 1, 0), DB_ERROR);
    ck_assert_int_eq(db_relay_drop(db, "oftc", 1, 1), DB_ERROR);
    ck_assert_int_eq(db_relay_done(db, 0, 1, 1), DB_ERROR);
    ck_assert_int_eq(db_relay_next(db, 0, &row), DB_NOTFOUND);
    ck_assert_int_eq(db_remote_bout(db, 1, &bout, network, sizeof(network)), DB_NOTFOUND);
    struct db_relay_batch bt = {0};
    ck_assert_int_eq(db_relay_write(db, &bt, NULL, NULL), DB_OK); /* nothing held */
    db_relay_hold(&bt, &(struct db_relay_row){.kind = DB_RELAY_SAY, .text = "hi", .bout = 1});
    ck_assert_int_eq(db_relay_write(db, &bt, NULL, NULL), DB_ERROR);
    ck_assert_int_eq(bt.n, 1); /* kept */
    db_relay_batch_free(&bt);
    ck_assert_int_eq(bt.n, 0);
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

/* The relay rows matching `where`. */
static int count(struct db *d, const char *where)
{
    char sql[512];

    snprintf(sql, sizeof(sql), "SELECT count(*) FROM relay WHERE %s", where);
    struct dbs *q = dbs_prepare(d, sql);
    ck_assert_msg(q != NULL, "%s", db_errmsg(d));
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    int n = dbs_col_int(q, 0);
    dbs_free(q);
    return n;
}

/* Rows for the other network: notified, read in order, marked said or
 * deleted. */
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
    ck_assert_msg(db_relay_done(a, row.id, row.id, 1000) == DB_OK, "%s", db_errmsg(a));
    ck_assert_int_eq(db_relay_next(a, 0, &row), DB_NOTFOUND);

    ck_assert_int_eq(db_relay_done(b, 0, first, 1000),
                     DB_OK); /* the first said: the second stays */
    ck_assert_int_eq(db_relay_next(b, 0, &row), DB_OK);
    ck_assert_str_eq(row.text, "Round 1: a jab.");
    ck_assert_int_eq(count(a, "kind = 'cmd'"), 0);                 /* a command run is gone */
    ck_assert_int_eq(count(a, "kind = 'say' AND said = 1000"), 1); /* a line said is kept */
    ck_assert_int_eq(db_relay_done(b, row.id, row.id, 1000 + 86400), DB_OK);
    ck_assert_int_eq(count(a, "said = 1000"), 1);
    ck_assert_int_eq(db_relay_done(b, row.id, row.id, 1001 + 86400), DB_OK);
    ck_assert_int_eq(count(a, "said = 1000"), 0); /* a day later, pruned */
    ck_assert_int_eq(count(a, "said > 0"), 1);
    /* A command and a drop run, whose deletion failed: deleted again by
     * range; a line in that range is neither marked nor deleted. */
    ck_assert_int_eq(db_relay_put(b, net_a, DB_RELAY_CMD, 7, "order", "1 6/6/8"), DB_OK);
    ck_assert_int_eq(db_relay_put(b, net_a, DB_RELAY_SAY, 7, "alice", "Bout #1, round 2"), DB_OK);
    ck_assert_int_eq(db_relay_drop(b, net_a, 1, 1), DB_OK);
    ck_assert_int_eq(db_relay_next(a, 0, &row), DB_OK);
    int64_t cmd = row.id;
    char where[3][96];
    snprintf(where[0], sizeof(where[0]), "network = '%s' AND said = 0", net_a);
    snprintf(where[1], sizeof(where[1]), "network = '%s' AND kind <> 'say'", net_a);
    snprintf(where[2], sizeof(where[2]), "network = '%s' AND kind = 'say' AND said = 0", net_a);
    ck_assert_int_eq(count(a, where[0]), 3);
    ck_assert_msg(db_relay_forget(a, cmd, cmd + 1000) == DB_OK, "%s", db_errmsg(a));
    ck_assert_int_eq(count(a, where[1]), 0);
    ck_assert_int_eq(count(a, where[2]), 1);
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
    struct db_bout_side side[2];
    ck_assert_int_eq(db_bout_sides(b, bt.id, side), DB_OK); /* the challenger's first */
    ck_assert_str_eq(side[0].fighter, "rocky");
    ck_assert_str_eq(side[0].owner, "alice");
    ck_assert_str_eq(side[0].network, net_a);
    ck_assert_str_eq(side[1].fighter, "ivan");
    ck_assert_str_eq(side[1].owner, "bob");
    ck_assert_str_eq(side[1].network, net_b);
    ck_assert_int_eq(db_bout_sides(b, bt.id + 1, side), DB_NOTFOUND);
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

/* A bout of a's network between alice@a and bob@b, `fought` rounds of 3
 * fought: its id. */
static int64_t cross_bout(struct db *a, struct db *b, int fought)
{
    int64_t alice = test_db_account(a, "alice"), bob = test_db_account(b, "bob");
    struct db_bout bt;

    memset(&bt, 0, sizeof(bt));
    bt.rules = RULES_BOXING;
    snprintf(bt.channel, sizeof(bt.channel), "#ring");
    bt.rounds = 3;
    bt.state = DB_BOUT_LIVE;
    bt.fighter[0] = test_db_boxer(a, alice, "rocky", 2);
    bt.fighter[1] = test_db_boxer(b, bob, "ivan", 2);
    for (int i = 0; i < 2; i++)
        bt.sheet[i] = (struct sheet){.rules = RULES_BOXING,
                                     .u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12}};
    bt.league = -1;
    bt.winner = -1;
    bt.created = 3;
    ck_assert_msg(db_bout_create(a, &bt) == DB_OK, "%s", db_errmsg(a));
    if (fought) {
        bt.round = fought;
        ck_assert_msg(db_bout_save(a, &bt) == DB_OK, "%s", db_errmsg(a));
    }
    return bt.id;
}

/* Sets the rounds bout has fought. */
static void bout_fought(struct db *a, int64_t bout, int fought)
{
    struct db_bout bt;

    ck_assert_int_eq(db_bout_get(a, bout, &bt), DB_OK);
    bt.round = fought;
    ck_assert_msg(db_bout_save(a, &bt) == DB_OK, "%s", db_errmsg(a));
}

/* A line about a bout written twice is one row, and stays one once said;
 * the channel's lines carry the rounds fought, a prompt its own round. */
START_TEST(test_relay_key)
{
    struct db *a = open_on(net_a), *b = open_on(net_b);
    struct db_relay row;
    int64_t bout = cross_bout(a, b, 1);

    ck_assert_int_eq(db_notify_listen(b), DB_OK);
    ck_assert_int_eq(db_relay_say(a, net_b, 0, "", "Round 1: a jab.", bout, 0), DB_OK);
    ck_assert_int_eq(db_relay_say(a, net_b, 0, "", "Round 1: a jab.", bout, 0), DB_EXISTS);
    ck_assert_int_eq(db_relay_say(a, net_b, 9, "bob", "round 2: your orders", bout, 2), DB_OK);
    ck_assert_int_eq(db_relay_say(a, net_b, 9, "bob", "round 2: your orders", bout, 2), DB_EXISTS);
    ck_assert_int_eq(db_relay_say(a, net_b, 9, "bob", "round 2: your orders", bout, 3), DB_OK);
    ck_assert_int_eq(db_relay_say(a, net_a, 0, "", "Round 1: a jab.", bout, 0), DB_OK);
    ck_assert_int_eq(db_relay_next(b, 0, &row), DB_OK);
    ck_assert_int_eq(row.bout, bout);
    ck_assert_int_eq(row.round, 1); /* the rounds fought */
    ck_assert_int_eq(row.account, 0);
    ck_assert_int_eq(db_relay_next(b, row.id, &row), DB_OK);
    ck_assert_int_eq(row.round, 2); /* the prompt's round */
    ck_assert_str_eq(row.target, "bob");
    ck_assert_int_eq(db_relay_done(b, 0, row.id + 100, 5000), DB_OK);
    ck_assert_int_eq(db_relay_next(b, 0, &row), DB_NOTFOUND);
    /* Said: written again (an owner restarted), not said again. */
    ck_assert_int_eq(db_relay_say(a, net_b, 0, "", "Round 1: a jab.", bout, 0), DB_EXISTS);
    ck_assert_int_eq(db_relay_next(b, 0, &row), DB_NOTFOUND);
    bout_fought(a, bout, 2); /* the same words after another round: another line */
    ck_assert_int_eq(db_relay_say(a, net_b, 0, "", "Round 1: a jab.", bout, 0), DB_OK);
    db_close(a);
    db_close(b);
}
END_TEST

/* The commentary an owner says again after a restart (round < 0) is
 * stored only when the other network has no channel line of that round
 * or a later one; written twice, once. */
START_TEST(test_relay_again)
{
    struct db *a = open_on(net_a), *b = open_on(net_b);
    int64_t bout = cross_bout(a, b, 1);

    ck_assert_int_eq(db_relay_say(a, net_b, 0, "", "Round 1 of 3: a jab.", bout, 0), DB_OK);
    bout_fought(a, bout, 2); /* round 2 committed, then a crash before its lines */
    /* The restart: its header (with the last round), round 1 (there
     * already), round 2 (missing). */
    const char *head = "Bout #1: what I had not said yet when I stopped:";
    ck_assert_int_eq(db_relay_say(a, net_b, 0, "", head, bout, -2), DB_OK);
    ck_assert_int_eq(db_relay_say(a, net_b, 0, "", "Round 1 of 3: a jab.", bout, -1), DB_EXISTS);
    ck_assert_int_eq(db_relay_say(a, net_b, 0, "", "Round 2 of 3: a hook.", bout, -2), DB_OK);
    ck_assert_int_eq(db_relay_say(a, net_b, 0, "", "Bout #1 goes on.", bout, 0), DB_OK);
    /* Restarted again before its own server confirmed the round: nothing
     * new for b (round 2's lines and the line after are there). */
    ck_assert_int_eq(db_relay_say(a, net_b, 0, "", head, bout, -2), DB_EXISTS);
    ck_assert_int_eq(db_relay_say(a, net_b, 0, "", "Round 2 of 3: a hook.", bout, -2), DB_EXISTS);
    /* A player's line never counts as the channel's round. */
    ck_assert_int_eq(db_relay_say(a, net_b, 9, "bob", "round 3: your orders", bout, 3), DB_OK);
    ck_assert_int_eq(db_relay_say(a, net_b, 0, "", "Round 3 of 3: a cross.", bout, -3), DB_OK);
    ck_assert_int_eq(count(a, "kind = 'say'"), 6);
    db_close(a);
    db_close(b);
}
END_TEST

/* A round fought: b's unread prompts to its player for it (and before)
 * go, the channel's lines and later prompts stay, and b reads a 'drop'
 * row for what it may have queued. */
START_TEST(test_relay_drop)
{
    struct db *a = open_on(net_a), *b = open_on(net_b);
    struct db_relay row;
    int64_t bout = cross_bout(a, b, 1);

    ck_assert_int_eq(db_notify_listen(b), DB_OK);
    ck_assert_int_eq(db_relay_say(a, net_b, 9, "bob", "round 2: your orders", bout, 2), DB_OK);
    ck_assert_int_eq(db_relay_say(a, net_b, 9, "bob", "round 2: 10 s left", bout, 2), DB_OK);
    ck_assert_int_eq(db_relay_say(a, net_b, 9, "bob", "orders stored", bout, 0), DB_OK);
    ck_assert_int_eq(db_relay_say(a, net_b, 0, "", "Round 2: a hook.", bout, 0), DB_OK);
    ck_assert_int_eq(db_relay_say(a, net_b, 9, "bob", "round 3: your orders", bout, 3), DB_OK);
    ck_assert_int_eq(db_relay_drop(a, net_b, bout, 2), DB_OK);
    ck_assert_int_eq(count(a, "text LIKE 'round 2%'"), 0);
    ck_assert_int_eq(db_relay_next(b, 0, &row), DB_OK);
    ck_assert_str_eq(row.text, "orders stored");
    ck_assert_int_eq(db_relay_next(b, row.id, &row), DB_OK);
    ck_assert_str_eq(row.text, "Round 2: a hook.");
    ck_assert_int_eq(db_relay_next(b, row.id, &row), DB_OK);
    ck_assert_str_eq(row.text, "round 3: your orders");
    ck_assert_int_eq(db_relay_next(b, row.id, &row), DB_OK);
    ck_assert_int_eq(row.kind, DB_RELAY_DROP);
    ck_assert_int_eq(row.bout, bout);
    ck_assert_int_eq(row.round, 2);
    ck_assert_int_eq(db_relay_done(b, row.id, row.id, 7), DB_OK);
    ck_assert_int_eq(count(a, "kind = 'drop'"), 0);                     /* done with: deleted */
    ck_assert_int_eq(db_relay_drop(a, net_b, bout, 2147483647), DB_OK); /* over */
    ck_assert_int_eq(count(a, "text LIKE 'round 3%'"), 0);
    ck_assert_int_eq(count(a, "kind = 'say'"), 2);
    db_close(a);
    db_close(b);
}
END_TEST

/* tests/data/<name> as text (allocated). */
static char *file_text(const char *name)
{
    FILE *f = fopen(name, "rb");
    struct str t;
    char buf[4096];
    size_t n;

    ck_assert_msg(f != NULL, "cannot open %s", name);
    str_init(&t);
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        str_raw(&t, buf, n);
    fclose(f);
    return str_take(&t, NULL);
}

/* The relay table's columns, constraints and indexes, as one text. */
static char *relay_catalogue(struct db *d)
{
    struct dbs *q = dbs_prepare(
        d,
        "SELECT (SELECT string_agg(column_name || ' ' || data_type || ' ' ||"
        " coalesce(column_default, '-') || ' ' || is_nullable || ' ' || coalesce(collation_name,"
        " '-') || ' ' || is_identity, E'\n' ORDER BY ordinal_position)"
        " FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND table_name = 'relay') || E'\n' ||"
        " (SELECT string_agg(k.conname || ' ' || pg_get_constraintdef(k.oid), E'\n'"
        " ORDER BY k.conname) FROM pg_constraint k"
        " WHERE k.conrelid = CAST('relay' AS regclass)) || E'\n' ||"
        " (SELECT string_agg(indexname || ' ' || regexp_replace(indexdef, ' ON \\S+\\.', ' ON '),"
        " E'\n' ORDER BY indexname) FROM pg_indexes WHERE schemaname = current_schema()"
        " AND tablename = 'relay')");
    ck_assert_msg(q != NULL, "%s", db_errmsg(d));
    ck_assert_msg(dbs_step(q) == DBS_ROW, "%s", db_errmsg(d));
    char *t = xstrdup(dbs_col_text(q, 0) ? dbs_col_text(q, 0) : "(none)");
    dbs_free(q);
    return t;
}

/* A database at 19 whose bots made the relay table (and left a row in
 * it) migrates to 20: the row is kept, and the table is a new one's. */
START_TEST(test_migrate_19)
{
    char err[512] = "", uri[1024], old_path[160];

    snprintf(old_path, sizeof(old_path), "%s-old", path);
    test_db_uri(old_path, uri, sizeof(uri));
    char *script = file_text("tests/data/schema_pg_19.sql");
    ck_assert_msg(db_test_pg(uri, script, err, sizeof(err)) == DB_OK, "%s", err);
    free(script);
    ck_assert_msg(
        db_test_pg(uri,
                   "CREATE TABLE IF NOT EXISTS relay ("
                   " id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
                   " network TEXT COLLATE \"C\" NOT NULL,"
                   " kind TEXT COLLATE \"C\" NOT NULL CHECK (kind IN ('say', 'cmd')),"
                   " account BIGINT NOT NULL DEFAULT 0,"
                   " target TEXT COLLATE \"C\" NOT NULL DEFAULT '',"
                   " text TEXT COLLATE \"C\" NOT NULL DEFAULT '');"
                   "INSERT INTO relay (network, kind, text) VALUES ('two', 'say', 'Round 1.');",
                   err, sizeof(err)) == DB_OK,
        "%s", err);
    struct db *old = test_db_open(old_path, err, sizeof(err));
    ck_assert_msg(old != NULL, "%s", err);
    ck_assert_int_eq(db_schema_version(old), db_schema_latest());
    ck_assert_int_ge(db_schema_latest(), 20);
    ck_assert_int_eq(count(old, "network = 'two' AND text = 'Round 1.' AND said = 0"), 1);
    struct db *a = open_on(net_a);
    char *want = relay_catalogue(a), *got = relay_catalogue(old);
    ck_assert_ptr_nonnull(strstr(want, "relay_key_key UNIQUE (key)"));
    ck_assert_ptr_nonnull(strstr(want, "relay_unsaid"));
    ck_assert_msg(strcmp(want, got) == 0, "migrated:\n%s\nnew:\n%s", got, want);
    free(want);
    free(got);
    db_close(a);
    test_db_close(old, old_path);
}
END_TEST

/* db_relay_write's `each` for test_relay_batch: before the third row, b
 * (ctx) sees none of the two written already. */
static void batch_unseen(void *ctx, const struct db_relay_batch *bt, int i)
{
    ck_assert_int_eq(bt->n, 4);
    if (i == 2)
        ck_assert_int_eq(count(ctx, "network LIKE '%b'"), 0);
}

/* Holds one row of each kind for net_b, the channel's line first. */
static void hold_turn(struct db_relay_batch *bt, int64_t bout)
{
    struct db_relay_row r = {.kind = DB_RELAY_SAY, .bout = bout};

    snprintf(r.network, sizeof(r.network), "%s", net_b);
    r.text = "Round 1: a jab.";
    db_relay_hold(bt, &r); /* the channel's */
    r.account = 9;
    snprintf(r.target, sizeof(r.target), "bob");
    r.text = "round 2: your orders";
    r.round = 2;
    db_relay_hold(bt, &r); /* a prompt */
    r.bout = 0;
    r.round = 0;
    r.text = "orders stored";
    db_relay_hold(bt, &r); /* an answer, about no bout */
    struct db_relay_row d = {.kind = DB_RELAY_DROP, .bout = bout, .round = 1};
    snprintf(d.network, sizeof(d.network), "%s", net_b);
    db_relay_hold(bt, &d);
}

/* A turn's rows are held, then written in one transaction: the other
 * network sees none before the commit, all after, notified; a failure
 * (a row the server refuses, or a transaction open) writes none and
 * keeps them, and a later write stores them once. */
START_TEST(test_relay_batch)
{
    struct db *a = open_on(net_a), *b = open_on(net_b);
    struct db_relay_batch bt = {0};
    int64_t bout = cross_bout(a, b, 1);

    ck_assert_int_eq(db_notify_listen(b), DB_OK);
    (void)db_notify_poll(b);
    hold_turn(&bt, bout);
    ck_assert_int_eq(count(a, "true"), 0); /* held: nothing written */
    ck_assert_msg(db_relay_write(a, &bt, batch_unseen, b) == DB_OK, "%s", db_errmsg(a));
    ck_assert_int_eq(bt.n, 0);
    ck_assert_int_eq(notified_soon(b), 1);
    ck_assert_int_eq(count(b, "kind = 'say'"), 3);
    ck_assert_int_eq(count(b, "kind = 'drop' AND round = 1"), 1);
    struct db_relay row;
    ck_assert_int_eq(db_relay_next(b, 0, &row), DB_OK);
    ck_assert_str_eq(row.text, "Round 1: a jab."); /* in the order held */
    ck_assert_int_eq(db_relay_next(b, row.id, &row), DB_OK);
    ck_assert_str_eq(row.text, "round 2: your orders");
    ck_assert_int_eq(row.round, 2);

    /* A failure on the last row: the first ones are not written either. */
    bout_fought(a, bout, 2);
    hold_turn(&bt, bout);
    bt.row[3].kind = DB_RELAY_SAY; /* for the drop, a line the server refuses: not UTF-8 */
    bt.row[3].text = xstrdup("\xff bad");
    ck_assert_int_eq(db_relay_write(a, &bt, NULL, NULL), DB_ERROR);
    ck_assert_int_eq(bt.n, 4); /* kept */
    ck_assert_int_eq(count(b, "true"), 4);
    /* Inside the caller's transaction: not written, kept. */
    bt.row[3].text[0] = 'x';
    ck_assert_int_eq(db_begin(a), DB_OK);
    ck_assert_int_eq(db_relay_write(a, &bt, NULL, NULL), DB_ERROR);
    ck_assert_str_eq(db_errmsg(a), "the relay's rows are written outside a transaction");
    ck_assert_int_eq(db_rollback(a), DB_OK);
    ck_assert_int_eq(bt.n, 4);
    /* Tried again: stored (the prompt, stored already, is one row). */
    ck_assert_msg(db_relay_write(a, &bt, NULL, NULL) == DB_OK, "%s", db_errmsg(a));
    ck_assert_int_eq(count(b, "true"), 7);
    ck_assert_int_eq(count(b, "text = 'Round 1: a jab.' AND round = 2"), 1);
    ck_assert_int_eq(count(b, "text = 'x bad'"), 1);
    db_relay_batch_free(&bt);
    db_close(a);
    db_close(b);
}
END_TEST

/* db_relay_write's `each` for test_relay_order: while a's transaction
 * writes net_b's rows, another owner (ctx) cannot write one for net_b
 * (it waits for the writers' lock, then gives up: its bot keeps the row
 * and tries again), so no row for net_b can commit with a lower id after
 * a higher one. */
static void batch_locked(void *ctx, const struct db_relay_batch *bt, int i)
{
    (void)bt;
    if (i == 1) {
        ck_assert_int_eq(db_relay_put(ctx, net_b, DB_RELAY_SAY, 0, "", "from c"), DB_ERROR);
        ck_assert_msg(strstr(db_errmsg(ctx), "lock timeout") != NULL, "%s", db_errmsg(ctx));
    }
}

/* Two owners writing rows for the same network: one at a time, so the
 * rows' ids are in commit order (the reader takes rows after the last id
 * it took, and marks them said by range). */
START_TEST(test_relay_order)
{
    struct db *a = open_on(net_a), *b = open_on(net_b), *c = open_on("third");
    struct db_relay_batch bt = {0};
    int64_t bout = cross_bout(a, b, 1);

    hold_turn(&bt, bout);
    ck_assert_msg(db_relay_write(a, &bt, batch_locked, c) == DB_OK, "%s", db_errmsg(a));
    ck_assert_int_eq(count(b, "text = 'from c'"), 0);
    ck_assert_msg(db_relay_put(c, net_b, DB_RELAY_SAY, 0, "", "from c") == DB_OK, "%s",
                  db_errmsg(c));
    ck_assert_int_eq(count(b, "text = 'from c' AND id > (SELECT max(id) FROM relay WHERE text"
                              " <> 'from c')"),
                     1);
    db_relay_batch_free(&bt);
    db_close(a);
    db_close(b);
    db_close(c);
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
        tcase_add_test(tc, test_relay_key);
        tcase_add_test(tc, test_relay_again);
        tcase_add_test(tc, test_relay_drop);
        tcase_add_test(tc, test_relay_batch);
        tcase_add_test(tc, test_relay_order);
        tcase_add_test(tc, test_migrate_19);
    }
    suite_add_tcase(s, tc);
    return s;
}
