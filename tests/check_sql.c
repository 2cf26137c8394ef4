/* check_sql.c - db/'s statement layer (db/sql.h) on SQLite: binding,
 * stepping and reading rows, NULLs, texts bound by copy or not, the kinds
 * of failure with their exact messages, and db.c's rules every step keeps
 * (the fault hook, a transaction SQLite rolled back). A white-box suite:
 * it includes db/'s internal header, as only db/ otherwise does. */
#include <stdint.h>
#include <string.h>

#include "db_internal.h"
#include "tests.h"

static struct db *db;

static void setup(void)
{
    char err[256];

    db = db_open(":memory:", err, sizeof(err));
    ck_assert_msg(db != NULL, "%s", err);
    struct dbs *q = dbs_prepare(db, "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER,"
                                    " s TEXT, d REAL, k TEXT UNIQUE)");
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(dbs_run(q), DBS_DONE);
    dbs_free(q);
    q = dbs_prepare(db, "CREATE TABLE u (t_id INTEGER NOT NULL REFERENCES t(id))");
    ck_assert_int_eq(dbs_run(q), DBS_DONE);
    dbs_free(q);
}

static void teardown(void)
{
    db_close(db);
    db = NULL;
}

/* Inserts a row of t: the result of dbs_run. */
static int put(int64_t id, int64_t n, const char *s, double d, const char *k)
{
    struct dbs *q = dbs_prepare(db, "INSERT INTO t (id, n, s, d, k) VALUES (?1, ?2, ?3, ?4, ?5)");
    ck_assert_ptr_nonnull(q);
    dbs_bind_int64(q, 1, id);
    dbs_bind_int64(q, 2, n);
    dbs_bind_text(q, 3, s);
    dbs_bind_double(q, 4, d);
    dbs_bind_text(q, 5, k);
    int rc = dbs_run(q);
    if (rc == DBS_DONE)
        ck_assert_int_eq(dbs_error(q), DBS_E_NONE);
    dbs_free(q);
    return rc;
}

/* The number of rows of t. */
static int64_t rows(void)
{
    struct dbs *q = dbs_prepare(db, "SELECT count(*) FROM t");
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    int64_t n = dbs_col_int64(q, 0);
    dbs_free(q);
    return n;
}

START_TEST(test_bind_step_read)
{
    struct dbs *q = dbs_prepare(db, "INSERT INTO t (n, s, d, k) VALUES (?1, ?2, ?3, ?4)");
    dbs_bind_int64(q, 1, INT64_C(1) << 40);
    dbs_bind_text(q, 2, "héllo");
    dbs_bind_double(q, 3, 2.5);
    dbs_bind_text(q, 4, "a");
    ck_assert_int_eq(dbs_run(q), DBS_DONE);
    ck_assert_int_eq(dbs_changes(q), 1);
    ck_assert_int_eq(dbs_insert_id(q), 1);
    /* Reset by dbs_run: bound again, it runs again. */
    dbs_bind_int64(q, 1, -7);
    dbs_bind_text(q, 2, "second");
    dbs_bind_double(q, 3, -0.25);
    dbs_bind_text(q, 4, "b");
    ck_assert_int_eq(dbs_run(q), DBS_DONE);
    ck_assert_int_eq(dbs_insert_id(q), 2);
    dbs_free(q);

    q = dbs_prepare(db, "SELECT id, n, s, d FROM t WHERE id >= ?1 ORDER BY id");
    dbs_bind_int64(q, 1, 1);
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    ck_assert_int_eq(dbs_col_int64(q, 0), 1);
    ck_assert(dbs_col_int64(q, 1) == INT64_C(1) << 40);
    ck_assert_str_eq(dbs_col_text(q, 2), "héllo");
    ck_assert(dbs_col_double(q, 3) == 2.5);
    ck_assert_int_eq(dbs_col_is_null(q, 2), 0);
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    ck_assert_int_eq(dbs_col_int(q, 1), -7);
    ck_assert_str_eq(dbs_col_text(q, 2), "second");
    ck_assert(dbs_col_double(q, 3) == -0.25);
    ck_assert_int_eq(dbs_step(q), DBS_DONE);
    ck_assert_int_eq(dbs_error(q), DBS_E_NONE);
    /* After a reset the query runs again from its first row. */
    dbs_reset(q);
    dbs_bind_int64(q, 1, 2);
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    ck_assert_int_eq(dbs_col_int64(q, 0), 2);
    dbs_free(q);
}
END_TEST

START_TEST(test_nulls)
{
    struct dbs *q = dbs_prepare(db, "INSERT INTO t (id, n, s, d) VALUES (?1, ?2, ?3, ?4)");
    dbs_bind_int64(q, 1, 5);
    dbs_bind_null(q, 2);
    dbs_bind_text(q, 3, NULL); /* NULL text binds NULL */
    dbs_bind_null(q, 4);
    ck_assert_int_eq(dbs_run(q), DBS_DONE);
    dbs_free(q);

    q = dbs_prepare(db, "SELECT n, s, d, n IS NULL AND s IS NULL AND d IS NULL FROM t");
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    for (int c = 0; c < 3; c++)
        ck_assert_int_eq(dbs_col_is_null(q, c), 1);
    ck_assert_int_eq(dbs_col_int64(q, 0), 0);
    ck_assert_ptr_null(dbs_col_text(q, 1));
    ck_assert(dbs_col_double(q, 2) == 0.0);
    ck_assert_int_eq(dbs_col_int(q, 3), 1);
    /* dbs_col_copy refuses a NULL, naming what it read. */
    char buf[16];
    ck_assert_int_eq(dbs_col_copy(q, 1, buf, sizeof(buf), "a test text"), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "a test text is NULL in the database");
    dbs_free(q);
}
END_TEST

START_TEST(test_text_copy_and_static)
{
    char text[16] = "before";
    struct dbs *q = dbs_prepare(db, "INSERT INTO t (id, s, k) VALUES (?1, ?2, ?3)");

    dbs_bind_int64(q, 1, 1);
    dbs_bind_text_copy(q, 2, text);
    dbs_bind_text(q, 3, "key");
    strcpy(text, "after"); /* the copy was bound: not this */
    ck_assert_int_eq(dbs_run(q), DBS_DONE);
    dbs_free(q);

    q = dbs_prepare(db, "SELECT s, k FROM t");
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    ck_assert_str_eq(dbs_col_text(q, 0), "before");
    char small[4];
    ck_assert_int_eq(dbs_col_copy(q, 0, small, sizeof(small), "s"), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "s is 6 bytes in the database, the most is 3");
    char big[8];
    ck_assert_int_eq(dbs_col_copy(q, 1, big, sizeof(big), "k"), DB_OK);
    ck_assert_str_eq(big, "key");
    dbs_free(q);
}
END_TEST

START_TEST(test_errors)
{
    ck_assert_ptr_null(dbs_prepare(db, "SELEC 1"));
    ck_assert_str_eq(db_errmsg(db), "near \"SELEC\": syntax error");

    ck_assert_int_eq(put(1, 0, "x", 0, "a"), DBS_DONE);
    /* The primary key and a UNIQUE column: both DBS_E_UNIQUE. */
    struct dbs *q = dbs_prepare(db, "INSERT INTO t (id, k) VALUES (?1, ?2)");
    dbs_bind_int64(q, 1, 1);
    dbs_bind_text(q, 2, "b");
    ck_assert_int_eq(dbs_run(q), DBS_ERR);
    ck_assert_int_eq(dbs_error(q), DBS_E_UNIQUE);
    ck_assert_str_eq(db_errmsg(db), "UNIQUE constraint failed: t.id");
    dbs_bind_int64(q, 1, 2);
    dbs_bind_text(q, 2, "a");
    ck_assert_int_eq(dbs_run(q), DBS_ERR);
    ck_assert_int_eq(dbs_error(q), DBS_E_UNIQUE);
    ck_assert_str_eq(db_errmsg(db), "UNIQUE constraint failed: t.k");
    dbs_free(q);

    q = dbs_prepare(db, "INSERT INTO u (t_id) VALUES (?1)");
    dbs_bind_int64(q, 1, 99);
    ck_assert_int_eq(dbs_run(q), DBS_ERR);
    ck_assert_int_eq(dbs_error(q), DBS_E_FOREIGN_KEY);
    ck_assert_str_eq(db_errmsg(db), "FOREIGN KEY constraint failed");
    dbs_bind_null(q, 1);
    ck_assert_int_eq(dbs_run(q), DBS_ERR);
    ck_assert_int_eq(dbs_error(q), DBS_E_OTHER);
    ck_assert_str_eq(db_errmsg(db), "NOT NULL constraint failed: u.t_id");
    dbs_free(q);

    /* A write that returns rows is a mistake of the caller's. */
    q = dbs_prepare(db, "SELECT id FROM t");
    ck_assert_int_eq(dbs_run(q), DBS_ERR);
    ck_assert_str_eq(db_errmsg(db), "a write returned rows: SELECT id FROM t");
    dbs_free(q);
    ck_assert_int_eq(rows(), 1);
}
END_TEST

START_TEST(test_bind_failed)
{
    struct dbs *q = dbs_prepare(db, "INSERT INTO t (id) VALUES (?1)");

    dbs_bind_int64(q, 1, 1);
    dbs_bind_int64(q, 2, 2); /* no ?2: remembered, reported by the run */
    ck_assert_int_eq(dbs_run(q), DBS_ERR);
    ck_assert_str_eq(db_errmsg(db),
                     "cannot bind the parameters of: INSERT INTO t (id) VALUES (?1)");
    ck_assert_int_eq(rows(), 0);
    /* The run reset it: bound right, it runs. */
    dbs_bind_int64(q, 1, 1);
    ck_assert_int_eq(dbs_run(q), DBS_DONE);
    dbs_free(q);

    q = dbs_prepare(db, "SELECT id FROM t WHERE id = ?1");
    dbs_bind_text(q, 3, "x");
    ck_assert_int_eq(dbs_step(q), DBS_ERR);
    ck_assert_str_eq(db_errmsg(db),
                     "cannot bind the parameters of: SELECT id FROM t WHERE id = ?1");
    dbs_reset(q);
    dbs_bind_int64(q, 1, 1);
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    dbs_free(q);
}
END_TEST

START_TEST(test_fault_hook)
{
    /* The second step from now fails, as SQLite's I/O error would. */
    db_fault_after(db, 1);
    ck_assert_int_eq(put(1, 0, "x", 0, "a"), DBS_DONE);
    struct dbs *q = dbs_prepare(db, "INSERT INTO t (id) VALUES (?1)");
    dbs_bind_int64(q, 1, 2);
    ck_assert_int_eq(dbs_run(q), DBS_ERR);
    ck_assert_int_eq(dbs_error(q), DBS_E_OTHER);
    ck_assert_str_eq(db_errmsg(db), "disk I/O error (injected fault)");
    ck_assert_int_eq(db_fault_pending(db), 0);
    dbs_free(q);
    ck_assert_int_eq(rows(), 1);

    /* A query's step is counted too. */
    db_fault_after(db, 0);
    q = dbs_prepare(db, "SELECT id FROM t");
    ck_assert_int_eq(dbs_step(q), DBS_ERR);
    ck_assert_str_eq(db_errmsg(db), "disk I/O error (injected fault)");
    dbs_reset(q);
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    dbs_free(q);
}
END_TEST

START_TEST(test_lost_transaction)
{
    ck_assert_int_eq(db_begin(db), DB_OK);
    /* SQLite ending the transaction behind db/'s back (as after an I/O
     * error): every statement is then refused until db_rollback. */
    struct dbs *q = dbs_prepare(db, "ROLLBACK");
    ck_assert_int_eq(dbs_run(q), DBS_DONE);
    dbs_free(q);
    ck_assert_int_eq(put(1, 0, "x", 0, "a"), DBS_ERR);
    ck_assert_str_eq(db_errmsg(db),
                     "the transaction was rolled back after an earlier error; db_rollback ends it");
    q = dbs_prepare(db, "SELECT id FROM t");
    ck_assert_int_eq(dbs_step(q), DBS_ERR);
    ck_assert_int_eq(dbs_error(q), DBS_E_OTHER);
    dbs_free(q);
    ck_assert_int_eq(db_rollback(db), DB_OK);
    ck_assert_int_eq(put(1, 0, "x", 0, "a"), DBS_DONE);
    ck_assert_int_eq(rows(), 1);
}
END_TEST

START_TEST(test_table_and_kept)
{
    struct dbs *q = dbs_table(db, STMT_USER_VERSION);

    ck_assert_ptr_eq(q, dbs_table(db, STMT_USER_VERSION));
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    ck_assert_int_eq(dbs_col_int(q, 0), db_schema_latest());
    dbs_free(q); /* a table statement is only reset */
    ck_assert_int_eq(dbs_step(dbs_table(db, STMT_USER_VERSION)), DBS_ROW);
    dbs_reset(q);

    static const char sql[] = "SELECT count(*) FROM t WHERE n = ?1";
    struct dbs *k = dbs_prepare_kept(db, sql);
    ck_assert_ptr_nonnull(k);
    dbs_bind_int64(k, 1, 0);
    ck_assert_int_eq(dbs_step(k), DBS_ROW);
    dbs_free(k);
    /* Kept: the same statement, with no allocation, and reset. */
    ck_assert_ptr_eq(dbs_prepare_kept(db, sql), k);
    dbs_bind_int64(k, 1, 0);
    ck_assert_int_eq(dbs_step(k), DBS_ROW);
    ck_assert_int_eq(dbs_col_int(k, 0), 0);
    dbs_free(k);
    dbs_free(NULL);
}
END_TEST

Suite *sql_suite(void)
{
    Suite *s = suite_create("sql");
    TCase *tc = tcase_create("core");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_bind_step_read);
    tcase_add_test(tc, test_nulls);
    tcase_add_test(tc, test_text_copy_and_static);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_bind_failed);
    tcase_add_test(tc, test_fault_hook);
    tcase_add_test(tc, test_lost_transaction);
    tcase_add_test(tc, test_table_and_kept);
    suite_add_tcase(s, tc);
    return s;
}
