/* check_portable.c - db/'s SQL in the forms PostgreSQL reads the same way
 * as SQLite (issue 29): a write that ends in RETURNING runs through dbs_run
 * and gives its id; the said mark and the failed-login count keep their
 * highest and their bound without SQLite's two-argument max() and min();
 * the season's record stays at 0 or more without max(); a champion keeps
 * his date when he defends, compared with IS NOT DISTINCT FROM; the lists
 * with "any" (NULL) still read every row. A white-box suite on a real
 * SQLite file: it includes db/'s internal header to read the rows. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_internal.h"
#include "test_db.h"
#include "tests.h"

static char dir[64];
static char path[128];
static struct db *db;

static void setup(void)
{
    char err[256] = "";

    snprintf(dir, sizeof(dir), "/tmp/ringside-portable-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/ringside.db", dir);
    db = test_db_open(path, err, sizeof(err));
    ck_assert_msg(db != NULL, "db_open: %s", err);
}

static void teardown(void)
{
    static const char *const files[] = {"ringside.db", "ringside.db-wal", "ringside.db-shm"};
    char p[192];

    test_db_close(db, path);
    db = NULL;
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
        unlink(p);
    }
    rmdir(dir);
}

/* The integer the one-row query `sql` gives with ?1 bound to `id`. */
static int64_t read_int(const char *sql, int64_t id)
{
    struct dbs *q = dbs_prepare(db, sql);

    ck_assert_msg(q != NULL, "%s", db_errmsg(db));
    dbs_bind_int64(q, 1, id);
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    int64_t v = dbs_col_int64(q, 0);
    dbs_free(q);
    return v;
}

/* Runs the write `sql` with ?1 bound to `id`. */
static void write_id(const char *sql, int64_t id)
{
    struct dbs *q = dbs_prepare(db, sql);

    ck_assert_msg(q != NULL, "%s", db_errmsg(db));
    dbs_bind_int64(q, 1, id);
    ck_assert_msg(dbs_run(q) == DBS_DONE, "%s", db_errmsg(db));
    dbs_free(q);
}

static int64_t boxer(int64_t account, const char *key)
{
    struct db_fighter f;

    memset(&f, 0, sizeof(f));
    f.account_id = account;
    snprintf(f.name, sizeof(f.name), "%s", key);
    f.sheet.rules = RULES_BOXING;
    f.sheet.u.boxing = (struct boxing_sheet){10, 10, 10, 10, 10};
    f.created = 2000;
    ck_assert_int_eq(db_fighter_create(db, key, &f), DB_OK);
    ck_assert_int_gt(f.id, 0);
    return f.id;
}

/* An exhibition between two new boxers, stored: its id. */
static int64_t exhibition(void)
{
    int64_t acc = 0;
    struct db_bout b;

    ck_assert_int_eq(db_account_create(db, "alice", "Alice", "$y$h", 1000, &acc), DB_OK);
    memset(&b, 0, sizeof(b));
    b.rules = RULES_BOXING;
    snprintf(b.channel, sizeof(b.channel), "#ring");
    b.rounds = 12;
    b.state = DB_BOUT_LIVE;
    b.fighter[0] = boxer(acc, "ali");
    b.fighter[1] = boxer(acc, "frazier");
    for (int i = 0; i < SIDES; i++) {
        struct db_fighter f;
        ck_assert_int_eq(db_fighter_get_id(db, b.fighter[i], &f), DB_OK);
        b.sheet[i] = f.sheet;
    }
    b.winner = -1;
    b.round = 5;
    b.created = 10;
    ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
    return b.id;
}

START_TEST(test_returning_write)
{
    /* INSERT ... RETURNING id: a write, run by dbs_run, that tells its id
     * both ways (PostgreSQL's backend reads the column). */
    struct dbs *q = dbs_prepare(db, "INSERT INTO accounts (key, name, hash, created)"
                                    " VALUES (?1, ?1, 'h', 5) RETURNING id");
    ck_assert_ptr_nonnull(q);
    dbs_bind_text(q, 1, "one");
    ck_assert_int_eq(dbs_run(q), DBS_DONE);
    int64_t one = dbs_insert_id(q);
    ck_assert_int_gt(one, 0);
    ck_assert_int_eq(dbs_changes(q), 1);
    dbs_bind_text(q, 1, "two");
    ck_assert_int_eq(dbs_run(q), DBS_DONE);
    ck_assert_int_eq(dbs_insert_id(q), one + 1);
    /* A uniqueness violation is still one, and stores nothing. */
    dbs_bind_text(q, 1, "one");
    ck_assert_int_eq(dbs_run(q), DBS_ERR);
    ck_assert_int_eq(dbs_error(q), DBS_E_UNIQUE);
    dbs_free(q);
    ck_assert_int_eq(read_int("SELECT count(*) FROM accounts WHERE ?1 = 1", 1), 2);

    /* A query is not a write: dbs_run still refuses it. */
    q = dbs_prepare(db, "SELECT id FROM accounts");
    ck_assert_int_eq(dbs_run(q), DBS_ERR);
    ck_assert_str_eq(db_errmsg(db), "a write returned rows: SELECT id FROM accounts");
    dbs_free(q);

    /* The table's INSERTs whose id is read say it as before; they are
     * named for the PostgreSQL backend to add RETURNING id. */
    ck_assert_int_eq(db_stmt_returns_id(STMT_ACCOUNT_INSERT), 1);
    ck_assert_int_eq(db_stmt_returns_id(STMT_FIGHTER_INSERT), 1);
    ck_assert_int_eq(db_stmt_returns_id(STMT_BOUT_INSERT), 1);
    ck_assert_int_eq(db_stmt_returns_id(STMT_BOUT_GET), 0);
    ck_assert_int_eq(db_stmt_returns_id(STMT_AUDIT), 0);
    int64_t acc = 0;
    ck_assert_int_eq(db_account_create(db, "three", "Three", "$y$h", 1000, &acc), DB_OK);
    /* PostgreSQL's sequence spent a number on the refused "one" above. */
    ck_assert_int_eq(acc, test_db_pg() ? one + 3 : one + 2);
    ck_assert_int_eq(db_account_create(db, "three", "Three", "$y$h", 1000, &acc), DB_EXISTS);
    int64_t f = boxer(acc, "tyson");
    ck_assert_int_eq(read_int("SELECT count(*) FROM fighters WHERE id = ?1", f), 1);
}
END_TEST

START_TEST(test_said_keeps_the_highest)
{
    int64_t id = exhibition();

    ck_assert_int_eq(db_bout_said(db, id, 3), DB_OK);
    ck_assert_int_eq(read_int("SELECT said FROM bouts WHERE id = ?1", id), 3);
    ck_assert_int_eq(db_bout_said(db, id, 2), DB_OK);
    ck_assert_int_eq(read_int("SELECT said FROM bouts WHERE id = ?1", id), 3);
    ck_assert_int_eq(db_bout_said(db, id, 4), DB_OK);
    ck_assert_int_eq(read_int("SELECT said FROM bouts WHERE id = ?1", id), 4);
    ck_assert_int_eq(db_bout_said(db, id + 1, 4), DB_NOTFOUND);

    int64_t ids[4];
    int said[4], n = -1;
    ck_assert_int_eq(db_bout_unsaid(db, ids, said, 4, &n), DB_OK);
    ck_assert_int_eq(n, 1); /* round 5, said 4 */
    ck_assert_int_eq(ids[0], id);
    ck_assert_int_eq(said[0], 4);
}
END_TEST

START_TEST(test_failures_bounded)
{
    int64_t acc = 0;
    struct db_account a;

    ck_assert_int_eq(db_account_create(db, "bob", "Bob", "$y$h", 1000, &acc), DB_OK);
    ck_assert_int_eq(db_account_failed(db, acc, 2000, "host"), DB_OK);
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(a.failures, 1);
    write_id("UPDATE accounts SET failures = 999999 WHERE id = ?1", acc);
    ck_assert_int_eq(db_account_failed(db, acc, 2001, "host"), DB_OK);
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(a.failures, 1000000);
    ck_assert_int_eq(db_account_failed(db, acc, 2002, "host"), DB_OK);
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(a.failures, 1000000);
    ck_assert_int_eq(a.failed_at, 2002);
}
END_TEST

START_TEST(test_season_record_floor)
{
    int64_t acc = 0;
    struct db_fighter f;

    ck_assert_int_eq(db_account_create(db, "carol", "Carol", "$y$h", 1000, &acc), DB_OK);
    int64_t id = boxer(acc, "liston");
    ck_assert_int_eq(db_fighter_get_id(db, id, &f), DB_OK);
    f.wins = 3;
    f.losses = 2;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    ck_assert_int_eq(read_int("SELECT season_wins FROM fighters WHERE id = ?1", id), 3);
    ck_assert_int_eq(read_int("SELECT season_losses FROM fighters WHERE id = ?1", id), 2);
    /* An admin takes away more than the season has: 0, never below. */
    write_id("UPDATE fighters SET season_wins = 1 WHERE id = ?1", id);
    f.wins = 0;
    f.losses = 4;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    ck_assert_int_eq(read_int("SELECT season_wins FROM fighters WHERE id = ?1", id), 0);
    ck_assert_int_eq(read_int("SELECT season_losses FROM fighters WHERE id = ?1", id), 4);
}
END_TEST

START_TEST(test_champion_since)
{
    int64_t acc = 0;
    int64_t fighter = -1;
    int defences = -1;

    ck_assert_int_eq(db_account_create(db, "dave", "Dave", "$y$h", 1000, &acc), DB_OK);
    int64_t a = boxer(acc, "louis"), b = boxer(acc, "marciano");
    ck_assert_int_eq(db_champion_set(db, RULES_BOXING, a, 0, 100), DB_OK);
    ck_assert_int_eq(db_champion_set(db, RULES_BOXING, a, 1, 200), DB_OK);
    ck_assert_int_eq(db_champion_get(db, RULES_BOXING, &fighter, &defences), DB_OK);
    ck_assert_int_eq(fighter, a);
    ck_assert_int_eq(defences, 1);
    ck_assert_int_eq(read_int("SELECT since FROM champions WHERE ?1 = 1", 1), 100);
    ck_assert_int_eq(db_champion_set(db, RULES_BOXING, b, 0, 300), DB_OK);
    ck_assert_int_eq(read_int("SELECT since FROM champions WHERE ?1 = 1", 1), 300);
    /* Vacant (fighter 0, stored as NULL), then vacant again: its date kept. */
    ck_assert_int_eq(db_champion_set(db, RULES_BOXING, 0, 0, 400), DB_OK);
    ck_assert_int_eq(db_champion_set(db, RULES_BOXING, 0, 0, 500), DB_OK);
    ck_assert_int_eq(read_int("SELECT since FROM champions WHERE ?1 = 1", 1), 400);
}
END_TEST

START_TEST(test_any_reads_every_row)
{
    int64_t id = exhibition();
    struct db_bout b, out[4];
    int n = -1;

    ck_assert_int_eq(db_bout_get(db, id, &b), DB_OK);
    b.state = DB_BOUT_OVER;
    b.ended = 50;
    ck_assert_int_eq(db_bout_save(db, &b), DB_OK);
    ck_assert_int_eq(db_bout_list_over(db, -1, -1, out, 4, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(db_bout_list_over(db, RULES_BOXING, DB_BOUT_EXHIBITION, out, 4, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(db_bout_list_over(db, RULES_SUGARRAY, -1, out, 4, &n), DB_OK);
    ck_assert_int_eq(n, 0);
}
END_TEST

Suite *portable_suite(void)
{
    Suite *s = suite_create("portable");
    TCase *tc = tcase_create("core");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_returning_write);
    tcase_add_test(tc, test_said_keeps_the_highest);
    tcase_add_test(tc, test_failures_bounded);
    tcase_add_test(tc, test_season_record_floor);
    tcase_add_test(tc, test_champion_since);
    tcase_add_test(tc, test_any_reads_every_row);
    suite_add_tcase(s, tc);
    return s;
}
