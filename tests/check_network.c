/* check_network.c - several bots, one world (issue 29, migration 18): an
 * account belongs to a network, and every account function works within
 * the connection's network (db_network_set); a bout is of the network that
 * created it, and a bot's connection lists only its network's bouts; a
 * network's first bot on a single bot's database takes its accounts
 * (db_network_claim). And the migration itself: a SQLite file at 17, and
 * on PostgreSQL a database made by schema_pg.sql at 17
 * (tests/data/schema_pg_17.sql), each with rows, migrated to 18; the
 * migrated PostgreSQL catalogue is the one db/schema_pg.sql makes. Runs on
 * both backends (tests/test_db.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"
#include "db.h"
#include "test_db.h"
#include "tests.h"
#include "util.h"

static char dir[64];
static char path[128];
static struct db *db;

static void setup(void)
{
    char err[256] = "";

    snprintf(dir, sizeof(dir), "/tmp/ringside-network-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/ringside.db", dir);
    db = test_db_open(path, err, sizeof(err));
    ck_assert_msg(db != NULL, "db_open: %s", err);
}

static void teardown(void)
{
    char p[192];

    test_db_close(db, path);
    db = NULL;
    const char *const ends[] = {"", "-wal", "-shm", ".id"};
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof(p), "%s%s", path, ends[i]);
        unlink(p);
    }
    rmdir(dir);
}

/* A challenge between a and b in #ring, created on d's network. */
static int64_t challenge(struct db *d, int64_t a, int64_t b, int64_t created)
{
    struct db_bout bt;

    memset(&bt, 0, sizeof(bt));
    bt.rules = RULES_BOXING;
    snprintf(bt.channel, sizeof(bt.channel), "#ring");
    bt.rounds = 3;
    bt.state = DB_BOUT_CHALLENGE;
    bt.fighter[0] = a;
    bt.fighter[1] = b;
    for (int i = 0; i < 2; i++)
        bt.sheet[i] = (struct sheet){.rules = RULES_BOXING,
                                     .u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12}};
    bt.league = -1;
    bt.winner = -1;
    bt.created = created;
    ck_assert_msg(db_bout_create(d, &bt) == DB_OK, "%s", db_errmsg(d));
    return bt.id;
}

/* One text of one row of `sql` on d. */
static void query_text(struct db *d, const char *sql, char *out, size_t size)
{
    struct dbs *q = dbs_prepare(d, sql);

    ck_assert_msg(q != NULL, "%s: %s", sql, db_errmsg(d));
    ck_assert_msg(dbs_step(q) == DBS_ROW, "%s: %s", sql, db_errmsg(d));
    snprintf(out, size, "%s", dbs_col_is_null(q, 0) ? "NULL" : dbs_col_text(q, 0));
    dbs_free(q);
}

static void sql_is(struct db *d, const char *sql, const char *want)
{
    char got[512];

    query_text(d, sql, got, sizeof(got));
    ck_assert_msg(strcmp(got, want) == 0, "%s: '%s', not '%s'", sql, got, want);
}

/* The same key on two networks is two accounts; every account function
 * sees its own network's only; "" is a network like the others. */
START_TEST(test_accounts_per_network)
{
    struct db_account a;
    char hashes[DB_BURNT_MAX][DB_HASH_MAX];
    int n = -1;

    ck_assert_str_eq(db_network(db), "");
    int64_t plain = test_db_account(db, "alice");
    ck_assert_int_eq(db_network_set(db, "libera"), DB_OK);
    ck_assert_str_eq(db_network(db), "libera");
    ck_assert_int_eq(db_account_get(db, "alice", &a), DB_NOTFOUND);
    int64_t libera = test_db_account(db, "alice");
    ck_assert_int_ne(libera, plain);
    ck_assert_int_eq(db_account_create(db, "alice", "Alice", "$y$x", 1, NULL), DB_EXISTS);
    ck_assert_int_eq(db_account_get(db, "alice", &a), DB_OK);
    ck_assert_int_eq(a.id, libera);
    ck_assert_int_eq(db_account_burn(db, "alice", 5), DB_OK);
    ck_assert_int_eq(db_burnt_add(db, "carol", "$y$c", 6), DB_OK);

    ck_assert_int_eq(db_network_set(db, "oftc"), DB_OK);
    ck_assert_int_eq(db_account_get(db, "alice", &a), DB_NOTFOUND);
    ck_assert_int_eq(db_account_burn(db, "alice", 5), DB_NOTFOUND);
    ck_assert_int_eq(db_burnt_list(db, "carol", hashes, DB_BURNT_MAX, &n), DB_OK);
    ck_assert_int_eq(n, 0);

    ck_assert_int_eq(db_network_set(db, ""), DB_OK);
    ck_assert_int_eq(db_account_get(db, "alice", &a), DB_OK);
    ck_assert_int_eq(a.id, plain);
    ck_assert_int_eq(a.burnt, 0);

    ck_assert_int_eq(db_network_set(db, "libera"), DB_OK);
    ck_assert_int_eq(db_account_get(db, "alice", &a), DB_OK);
    ck_assert_int_eq(a.burnt, 1);
    ck_assert_int_eq(db_burnt_list(db, "carol", hashes, DB_BURNT_MAX, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(db_burnt_list(db, "alice", hashes, DB_BURNT_MAX, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(hashes[0], "$y$x");
    if (!test_db_pg()) /* the rebuilt tables, written to, read as SQLite checks them */
        sql_is(db, "PRAGMA integrity_check", "ok");

    /* A name too long for a network changes nothing. */
    ck_assert_int_eq(db_network_set(db, "a-network-name-of-thirty-three-ch"), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "network is 33 bytes, the most is 32");
    ck_assert_str_eq(db_network(db), "libera");
}
END_TEST

/* A bout is of the network that created it: a bot's connection lists its
 * own network's challenges, live bouts and unsaid rounds; a connection
 * that never set a network (the pages') lists them all. */
START_TEST(test_bouts_per_network)
{
    struct db_bout out[8];
    int n = -1;
    char err[256] = "";

    int64_t owner = test_db_account(db, "bob");
    int64_t a = test_db_boxer(db, owner, "iron", 2), b = test_db_boxer(db, owner, "mike", 2);
    ck_assert_int_eq(db_network_set(db, "libera"), DB_OK);
    int64_t on_libera = challenge(db, a, b, 10);
    ck_assert_int_eq(db_network_set(db, "oftc"), DB_OK);
    int64_t on_oftc = challenge(db, b, a, 11);

    ck_assert_int_eq(db_bout_list(db, DB_BOUT_CHALLENGE, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(out[0].id, on_oftc);
    ck_assert_int_eq(db_network_set(db, "libera"), DB_OK);
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_CHALLENGE, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(out[0].id, on_libera);
    ck_assert_int_eq(db_network_set(db, ""), DB_OK);
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_CHALLENGE, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 0);

    struct db *pages = test_db_open(path, err, sizeof(err));
    ck_assert_msg(pages != NULL, "%s", err);
    ck_assert_int_eq(db_bout_list(pages, DB_BOUT_CHALLENGE, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(out[0].id, on_libera);
    ck_assert_int_eq(out[1].id, on_oftc);
    db_close(pages);

    char sql[96];
    snprintf(sql, sizeof(sql), "SELECT network FROM bouts WHERE id = %lld", (long long)on_libera);
    sql_is(db, sql, "libera");
    snprintf(sql, sizeof(sql), "SELECT network FROM bouts WHERE id = %lld", (long long)on_oftc);
    sql_is(db, sql, "oftc");
}
END_TEST

/* A network's first bot on a single bot's database takes every account
 * (and burnt password); a second network then finds none to take, and a
 * bot of no network takes nothing. */
START_TEST(test_claim)
{
    struct db_account a;
    int64_t n = -1;
    char hashes[DB_BURNT_MAX][DB_HASH_MAX];
    int nh = -1;

    int64_t alice = test_db_account(db, "alice");
    test_db_account(db, "bob");
    ck_assert_int_eq(db_burnt_add(db, "carol", "$y$c", 6), DB_OK);

    ck_assert_int_eq(db_network_claim(db, &n), DB_OK); /* "": nothing to do */
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(db_network_set(db, "libera"), DB_OK);
    ck_assert_int_eq(db_network_claim(db, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(db_account_get(db, "alice", &a), DB_OK);
    ck_assert_int_eq(a.id, alice);
    ck_assert_int_eq(db_burnt_list(db, "carol", hashes, DB_BURNT_MAX, &nh), DB_OK);
    ck_assert_int_eq(nh, 1);
    ck_assert_int_eq(db_network_claim(db, &n), DB_OK); /* again: nothing left */
    ck_assert_int_eq(n, 0);

    /* A new account of no network (a bot without one, later) stays so:
     * the database is several networks' now. */
    ck_assert_int_eq(db_network_set(db, ""), DB_OK);
    test_db_account(db, "dave");
    ck_assert_int_eq(db_network_set(db, "oftc"), DB_OK);
    ck_assert_int_eq(db_network_claim(db, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(db_account_get(db, "dave", &a), DB_NOTFOUND);
    ck_assert_int_eq(db_account_get(db, "alice", &a), DB_NOTFOUND);
}
END_TEST

/* The bot's start (accounts_network): its [bot] network set on the
 * connection, the accounts of a single bot's database taken, a name the
 * database cannot keep refused in one line. */
START_TEST(test_bot_start)
{
    struct db_account a;
    char err[256] = "";

    int64_t alice = test_db_account(db, "alice");
    ck_assert_int_eq(accounts_network(db, "libera", err, sizeof(err)), 0);
    ck_assert_str_eq(db_network(db), "libera");
    ck_assert_int_eq(db_account_get(db, "alice", &a), DB_OK);
    ck_assert_int_eq(a.id, alice);
    ck_assert_int_eq(accounts_network(db, "oftc", err, sizeof(err)), 0);
    ck_assert_int_eq(db_account_get(db, "alice", &a), DB_NOTFOUND);
    ck_assert_int_eq(accounts_network(db, "", err, sizeof(err)), 0);
    ck_assert_int_eq(db_account_get(db, "alice", &a), DB_NOTFOUND);
    ck_assert_int_eq(accounts_network(db, "a-network-name-of-thirty-three-ch", err, sizeof(err)),
                     -1);
    ck_assert_str_eq(err, "[bot] network a-network-name-of-thirty-three-ch: network is 33 bytes, "
                          "the most is 32");
}
END_TEST

/* A SQLite file at 17 (rows of every table that refers to accounts)
 * migrates to 18: the same ids, fighters and predictions still theirs, the
 * network '' everywhere, a key unique within a network only, and the
 * foreign keys enforced again afterwards. */
START_TEST(test_migrate_sqlite_17)
{
    TEST_DB_SQLITE_ONLY("a migration of an old SQLite file");
    char err[512] = "";
    struct db_account a;
    struct db_fighter f;
    struct db_prediction p;

    ck_assert_int_ge(db_schema_latest(), 18);
    db_close(db);
    db = NULL;
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_msg(
        db_test_file(
            path, 17,
            "INSERT INTO accounts (id, key, name, hash, created, burnt, admin, failures,"
            " failed_at, failed_from) VALUES (3, 'bob', 'Bob', 'h', 1, 1, 1, 2, 9, 'host');"
            "INSERT INTO accounts (id, key, name, hash, created) VALUES (5, 'amy', 'Amy', 'h', 1);"
            "INSERT INTO fighters (id, account_id, key, name, rules, str, spd, agl, tgh, hgt,"
            " created) VALUES (7, 3, 'iron', 'Iron', 'boxing', 10, 12, 14, 12, 12, 2);"
            "INSERT INTO fighters (id, account_id, key, name, rules, str, spd, agl, tgh, hgt,"
            " created) VALUES (8, 5, 'mike', 'Mike', 'boxing', 10, 12, 14, 12, 12, 3);"
            "INSERT INTO bouts (id, rules, channel, rounds, state, fighter_a, fighter_b,"
            " created, sheet_a, sheet_b) VALUES (4, 'boxing', '#ring', 3, 'live', 7, 8, 10,"
            " '10 12 14 12 12', '10 12 14 12 12');"
            "INSERT INTO predictions (bout, account, side, closes, made) VALUES (4, 5, 1, 1, 11);"
            "INSERT INTO burnt_passwords (key, hash, burnt) VALUES ('bob', 'old', 8);",
            err, sizeof(err)) == DB_OK,
        "%s", err);
    db = test_db_open(path, err, sizeof(err));
    ck_assert_msg(db != NULL, "%s", err);
    ck_assert_int_eq(db_schema_version(db), db_schema_latest());
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(a.id, 3);
    ck_assert_str_eq(a.name, "Bob");
    ck_assert_int_eq(a.burnt, 1);
    ck_assert_int_eq(a.admin, 1);
    ck_assert_int_eq(a.failures, 2);
    ck_assert_int_eq(a.failed_at, 9);
    ck_assert_str_eq(a.failed_from, "host");
    ck_assert_int_eq(db_fighter_get(db, "iron", &f), DB_OK);
    ck_assert_int_eq(f.account_id, 3);
    ck_assert_str_eq(f.owner, "Bob");
    ck_assert_int_eq(db_predict_get(db, 4, 5, &p), DB_OK);
    ck_assert_str_eq(p.name, "Amy");
    sql_is(db, "SELECT network || '|' || count(*) FROM accounts GROUP BY network", "|2");
    sql_is(db, "SELECT network || '|' || key FROM burnt_passwords", "|bob");
    sql_is(db, "SELECT network || '|' || state FROM bouts", "|live");
    sql_is(db, "SELECT count(*) FROM pragma_foreign_key_check", "0");
    sql_is(db, "PRAGMA integrity_check", "ok");

    /* bob on libera is a new player; a fighter of no account is refused. */
    ck_assert_int_eq(db_network_set(db, "libera"), DB_OK);
    ck_assert_int_ne(test_db_account(db, "bob"), 3);
    f.account_id = 99;
    ck_assert_int_eq(db_fighter_create(db, "ghost", &f), DB_NOTFOUND);
}
END_TEST

/* Reads a whole file into a new string (NULL if it cannot). */
static char *file_read(const char *name)
{
    FILE *fp = fopen(name, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(fread(s, 1, (size_t)n, fp), (size_t)n);
    s[n] = '\0';
    fclose(fp);
    return s;
}

/* The current schema's catalogue, as one text: every column (type,
 * default, nullability, collation, in order), constraint and index. */
static char *catalogue(struct db *d)
{
    static const char *const parts[] = {
        "SELECT string_agg(table_name || '.' || column_name || ' ' || data_type || ' ' ||"
        " coalesce(column_default, '-') || ' ' || is_nullable || ' ' ||"
        " coalesce(collation_name, '-'), E'\\n' ORDER BY table_name, ordinal_position)"
        " FROM information_schema.columns WHERE table_schema = current_schema()",
        "SELECT string_agg(c.relname || ' ' || k.conname || ' ' || pg_get_constraintdef(k.oid),"
        " E'\\n' ORDER BY c.relname, k.conname) FROM pg_constraint k"
        " JOIN pg_class c ON c.oid = k.conrelid"
        " WHERE k.connamespace = CAST(current_schema() AS regnamespace)",
        "SELECT string_agg(tablename || ' ' || indexname || ' ' ||"
        " regexp_replace(indexdef, ' ON \\S+\\.', ' ON '), E'\\n' ORDER BY tablename, indexname)"
        " FROM pg_indexes WHERE schemaname = current_schema()",
    };
    size_t size = 1;
    char *all = xcalloc(1, 1);

    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        struct dbs *q = dbs_prepare(d, parts[i]);
        ck_assert_msg(q != NULL, "%s", db_errmsg(d));
        ck_assert_msg(dbs_step(q) == DBS_ROW, "%s", db_errmsg(d));
        const char *t = dbs_col_text(q, 0);
        size += strlen(t) + 1;
        all = xrealloc(all, size);
        strcat(strcat(all, t), "\n");
        dbs_free(q);
    }
    return all;
}

/* A PostgreSQL database made at 17 (schema_pg.sql as it was) with rows
 * migrates to 18 when the bot opens it, keeps its rows, and ends with the
 * catalogue a new database gets from schema_pg.sql. */
START_TEST(test_migrate_pg_17)
{
    if (!test_db_pg())
        return; /* PostgreSQL's own migration path */
    char err[512] = "", uri[1024], fresh[160];

    db_close(db); /* its schema holds the new database's tables: made at 18 */
    db = NULL;
    snprintf(fresh, sizeof(fresh), "%s-old", path);
    test_db_uri(fresh, uri, sizeof(uri));
    char *script = file_read("tests/data/schema_pg_17.sql");
    ck_assert_ptr_nonnull(script);
    ck_assert_msg(db_test_pg(uri, script, err, sizeof(err)) == DB_OK, "%s", err);
    free(script);
    ck_assert_msg(
        db_test_pg(uri,
                   "INSERT INTO accounts (id, key, name, hash, created) VALUES (3, 'bob', 'Bob',"
                   " 'h', 1);"
                   "INSERT INTO fighters (id, account_id, key, name, rules, str, spd, agl, tgh,"
                   " hgt, created) VALUES (7, 3, 'iron', 'Iron', 'boxing', 10, 12, 14, 12, 12, 2);"
                   "INSERT INTO burnt_passwords (key, hash, burnt) VALUES ('bob', 'old', 8);",
                   err, sizeof(err)) == DB_OK,
        "%s", err);

    /* A reader does not migrate: it says what to do. */
    struct db *ro = test_db_open_readonly(fresh, err, sizeof(err));
    ck_assert_ptr_null(ro);
    char want_err[160];
    snprintf(want_err, sizeof(want_err),
             "has schema version 17, this ringside reads version %d; start the bot on it once (it "
             "migrates the schema), then try again",
             db_schema_latest());
    ck_assert_msg(strstr(err, want_err), "%s", err);

    struct db *old = test_db_open(fresh, err, sizeof(err));
    ck_assert_msg(old != NULL, "%s", err);
    ck_assert_int_eq(db_schema_version(old), db_schema_latest());
    struct db_account a;
    ck_assert_int_eq(db_account_get(old, "bob", &a), DB_OK);
    ck_assert_int_eq(a.id, 3);
    sql_is(old, "SELECT network || '|' || key FROM burnt_passwords", "|bob");
    ck_assert_int_eq(db_network_set(old, "libera"), DB_OK);
    ck_assert_int_ne(test_db_account(old, "bob"), 3);

    db = test_db_open(path, err, sizeof(err));
    ck_assert_msg(db != NULL, "%s", err);
    char *want = catalogue(db), *got = catalogue(old);
    ck_assert_ptr_nonnull(strstr(want, "accounts accounts_network_key UNIQUE (network, key)"));
    ck_assert_ptr_nonnull(strstr(want, "bouts.network text ''::text NO C"));
    ck_assert_msg(strcmp(want, got) == 0, "migrated:\n%s\nnew:\n%s", got, want);
    free(want);
    free(got);
    test_db_close(old, fresh);
}
END_TEST

Suite *network_suite(void)
{
    Suite *s = suite_create("network");
    TCase *tc = tcase_create("network");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_accounts_per_network);
    tcase_add_test(tc, test_bouts_per_network);
    tcase_add_test(tc, test_claim);
    tcase_add_test(tc, test_bot_start);
    tcase_add_test(tc, test_migrate_sqlite_17);
    tcase_add_test(tc, test_migrate_pg_17);
    suite_add_tcase(s, tc);
    return s;
}
