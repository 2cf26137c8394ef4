/* check_lease.c - the network lease (db/lease.c, issue 29 failover): one
 * holder a network, a second connection refused until the first lets go;
 * on SQLite one holder a file (PATH.lock); on PostgreSQL (RINGSIDE_TEST_PG,
 * tcase "pg") one a network name, taken again by a connection whose
 * session the server dropped, or lost for good when another took it
 * meanwhile, after which every statement is refused with its reason.
 *
 * Advisory locks are the server's, not a schema's: every network name here
 * carries the process id, so that suites running at once on one server
 * never meet. */
#include <signal.h>
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
    snprintf(dir, sizeof(dir), "/tmp/ringside-lease.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/l.db", dir);
    snprintf(net_a, sizeof(net_a), "t%da", (int)getpid());
    snprintf(net_b, sizeof(net_b), "t%db", (int)getpid());
}

static void teardown(void)
{
    char f[160];

    test_db_drop(path);
    for (const char *const *s = (const char *const[]){"", "-wal", "-shm", ".lock", NULL}; *s; s++) {
        snprintf(f, sizeof(f), "%s%s", path, *s);
        unlink(f);
    }
    rmdir(dir);
}

static struct db *open_one(void)
{
    char err[512];
    struct db *db = test_db_open(path, err, sizeof(err));

    ck_assert_msg(db != NULL, "%s", err);
    return db;
}

/* db_lease_take until it holds (10 s at most): a closed PostgreSQL session
 * ends on the server a moment after the client has let go, as a standby's
 * next poll finds. The last answer. */
static int take_soon(struct db *db, const char *network)
{
    int rc = DB_EXISTS;

    for (int i = 0; i < 1000 && rc == DB_EXISTS; i++) {
        rc = db_lease_take(db, network, 6);
        if (rc == DB_EXISTS)
            nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    return rc;
}

/* One holder; the second waits; once the first lets go, the second has it. */
START_TEST(test_lease_one_holder)
{
    struct db *one = open_one(), *two = open_one();

    ck_assert_int_eq(db_lease_take(one, net_a, 6), DB_OK);
    ck_assert_int_eq(db_lease_take(one, net_a, 6), DB_OK); /* again: still held */
    ck_assert_int_eq(db_lease_take(two, net_a, 6), DB_EXISTS);
    ck_assert_int_eq(db_lease_take(two, net_a, 6), DB_EXISTS);
    ck_assert_int_eq(db_lease_check(one), DB_OK);
    ck_assert_int_eq(db_lease_state(one), DB_OK);
    db_lease_release(one);
    db_close(one);
    ck_assert_int_eq(take_soon(two, net_a), DB_OK);
    ck_assert_int_eq(db_lease_check(two), DB_OK);
    db_lease_release(two);
    test_db_close(two, path);
}
END_TEST

/* SQLite: one bot a file, whatever its network; the lock file beside it;
 * an in-memory database needs none. */
START_TEST(test_lease_sqlite_file)
{
    char err[256], lock[160];

    TEST_DB_SQLITE_ONLY("flock on PATH.lock is SQLite's lease");
    struct db *one = open_one(), *two = open_one();
    ck_assert_int_eq(db_lease_take(one, net_a, 6), DB_OK);
    ck_assert_int_eq(db_lease_take(two, net_b, 6), DB_EXISTS);
    snprintf(lock, sizeof(lock), "%s.lock", path);
    ck_assert_int_eq(access(lock, F_OK), 0);
    db_lease_release(one);
    ck_assert_int_eq(db_lease_take(two, net_b, 6), DB_OK);
    db_lease_release(two);
    db_close(one);
    db_close(two);

    struct db *mem = db_open(":memory:", err, sizeof(err));
    ck_assert_msg(mem != NULL, "%s", err);
    ck_assert_int_eq(db_lease_take(mem, net_a, 6), DB_OK);
    ck_assert_int_eq(db_lease_check(mem), DB_OK);
    db_lease_release(mem);
    db_close(mem);
}
END_TEST

/* PostgreSQL: the backend pid of db's session into pid. */
static void backend_pid(struct db *db, char pid[32])
{
    struct dbs *q = dbs_prepare(db, "SELECT pg_backend_pid()");

    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    ck_assert_int_eq(dbs_col_copy(q, 0, pid, 32, "pid"), DB_OK);
    dbs_free(q);
}

/* PostgreSQL: the server ends session `pid` (as it ends a cut-off peer's). */
static void terminate(const char *pid)
{
    char err[256], sql[256];
    struct db *admin = db_open(test_db_pg(), err, sizeof(err));

    ck_assert_msg(admin != NULL, "%s", err);
    snprintf(sql, sizeof(sql), "SELECT pg_terminate_backend(%s)", pid);
    struct dbs *q = dbs_prepare(admin, sql);
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    ck_assert_str_eq(dbs_col_text(q, 0), "t");
    dbs_free(q);
    /* pg_terminate_backend only signals it: wait until it is gone, locks
     * and all (10 s at most). */
    snprintf(sql, sizeof(sql),
             "SELECT (SELECT count(*) FROM pg_stat_activity WHERE pid = %s) + "
             "(SELECT count(*) FROM pg_locks WHERE pid = %s)",
             pid, pid);
    int left = 1;
    for (int i = 0; i < 1000 && left; i++) {
        q = dbs_prepare(admin, sql);
        ck_assert_ptr_nonnull(q);
        ck_assert_int_eq(dbs_step(q), DBS_ROW);
        left = dbs_col_int(q, 0) != 0;
        dbs_free(q);
        if (left)
            nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    ck_assert_msg(!left, "session %s still there 10 s after pg_terminate_backend", pid);
    db_close(admin);
}

/* PostgreSQL: a lease a network; a dropped session takes it again when it
 * is free (at a check, or at the next statement), and loses it for good
 * when another took it: every statement is then refused. */
START_TEST(test_lease_pg)
{
    char pid[32];
    struct db *one = open_one(), *two = open_one(), *three = open_one();

    ck_assert_int_eq(db_lease_take(one, net_a, 6), DB_OK);
    ck_assert_int_eq(db_lease_take(two, net_a, 6), DB_EXISTS);
    ck_assert_int_eq(db_lease_take(three, net_b, 6), DB_OK); /* another network */

    /* Dropped, nobody waiting: a check takes it again on a new session. */
    backend_pid(one, pid);
    terminate(pid);
    ck_assert_int_eq(db_lease_check(one), DB_OK);
    ck_assert_int_eq(db_lease_take(two, net_a, 6), DB_EXISTS);

    /* Dropped again: the next statement fails, the one after works, and
     * the lease was taken again in between. */
    backend_pid(one, pid);
    terminate(pid);
    ck_assert_int_eq(dbs_step(dbs_table(one, STMT_USER_VERSION)), DBS_ERR);
    dbs_reset(dbs_table(one, STMT_USER_VERSION));
    ck_assert_int_eq(db_lease_state(one), DB_OK);
    ck_assert_int_eq(db_lease_take(two, net_a, 6), DB_EXISTS);
    ck_assert_int_eq(dbs_step(dbs_table(one, STMT_USER_VERSION)), DBS_ROW);
    dbs_reset(dbs_table(one, STMT_USER_VERSION));

    /* Dropped, and the standby takes it first: lost for good. */
    backend_pid(one, pid);
    terminate(pid);
    ck_assert_int_eq(db_lease_take(two, net_a, 6), DB_OK);
    ck_assert_int_eq(db_lease_check(one), DB_ERROR);
    ck_assert_str_eq(db_errmsg(one),
                     "another ringside took the network lease while this one's session was lost");
    ck_assert_int_eq(db_lease_state(one), DB_ERROR);
    ck_assert_int_eq(dbs_step(dbs_table(one, STMT_USER_VERSION)), DBS_ERR);
    ck_assert_str_eq(db_errmsg(one),
                     "the network lease is lost: nothing more is stored on this connection");
    dbs_reset(dbs_table(one, STMT_USER_VERSION));
    ck_assert_int_eq(db_begin(one), DB_ERROR);
    ck_assert_int_eq(db_lease_take(one, net_a, 6), DB_ERROR);
    db_close(one);
    db_close(three);
    test_db_close(two, path);
}
END_TEST

/* Presence (a bout between two networks): a bot of a network says it is
 * on IRC and in its channel; any connection reads it. Held once however
 * often it is said; given back, or lost with the session (kill -9, a host
 * cut off); taken again on a new session when said again. On SQLite
 * nobody is present (one bot a file) and saying it is harmless. */
START_TEST(test_presence)
{
    char pid[32];
    struct db *a = open_one(), *b = open_one();

    ck_assert_int_eq(db_network_set(a, net_a), DB_OK);
    ck_assert_int_eq(db_network_set(b, net_b), DB_OK);
    if (!db_is_pg(a)) {
        ck_assert_int_eq(db_presence_set(b, 1), DB_OK);
        ck_assert_int_eq(db_network_present(a, net_b), 0);
        db_close(a);
        test_db_close(b, path);
        return;
    }
    ck_assert_int_eq(db_network_present(a, net_b), 0);
    ck_assert_int_eq(db_presence_set(b, 1), DB_OK);
    ck_assert_int_eq(db_presence_set(b, 1), DB_OK); /* again: held once */
    ck_assert_int_eq(db_network_present(a, net_b), 1);
    ck_assert_int_eq(db_network_present(b, net_b), 1);
    ck_assert_int_eq(db_network_present(a, net_a), 0);
    ck_assert_int_eq(db_presence_set(b, 0), DB_OK); /* once is enough */
    ck_assert_int_eq(db_network_present(a, net_b), 0);
    ck_assert_int_eq(db_presence_set(b, 0), DB_OK); /* not held: harmless */

    /* Its session dropped: gone at once; said again, on a new session. */
    ck_assert_int_eq(db_presence_set(b, 1), DB_OK);
    backend_pid(b, pid);
    terminate(pid);
    ck_assert_int_eq(db_network_present(a, net_b), 0);
    /* (The statement that finds the session lost may fail: the next works.) */
    if (db_presence_set(b, 1) != DB_OK)
        ck_assert_int_eq(db_presence_set(b, 1), DB_OK);
    ck_assert_int_eq(db_network_present(a, net_b), 1);

    /* The process gone (its connection closed): gone too. */
    db_close(b);
    int present = 1;
    for (int i = 0; i < 1000 && present == 1; i++) {
        present = db_network_present(a, net_b);
        if (present == 1)
            nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    ck_assert_int_eq(present, 0);
    test_db_close(a, path);
}
END_TEST

Suite *lease_suite(void)
{
    Suite *s = suite_create("lease");
    TCase *tc = tcase_create("core");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_lease_one_holder);
    tcase_add_test(tc, test_lease_sqlite_file);
    if (test_db_pg())
        tcase_add_test(tc, test_lease_pg);
    tcase_add_test(tc, test_presence);
    suite_add_tcase(s, tc);
    return s;
}
