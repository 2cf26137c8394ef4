/* test_db.h - the database the game tests open: a SQLite file at `path`,
 * or, when RINGSIDE_TEST_PG names a PostgreSQL server (tests/pg.sh run),
 * a schema of that server standing for the file (issue 29: the game's
 * suites run on both backends). The schema's name is made from the path
 * (a hash), so every open of the same path in a test (a second
 * connection, a reopen after a close) reaches the same tables, as it
 * would reach the same file; a fresh temporary path is a fresh schema,
 * which db_open fills with schema_pg.sql. test_db_drop(path) drops it at
 * the test's teardown (a test that dies before leaves it behind, with
 * the whole throwaway server). Tests that mean nothing on PostgreSQL (a
 * file's modes, WAL, migrations of old SQLite files, the fault hook's
 * count of open steps) ask test_db_pg() and skip themselves. */
#ifndef RINGSIDE_TEST_DB_H
#define RINGSIDE_TEST_DB_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "sql.h"
#include "tests.h"

/* The server's URI when the tests run on PostgreSQL, else NULL. */
static inline const char *test_db_pg(void)
{
    const char *uri = getenv("RINGSIDE_TEST_PG");
    return uri && *uri ? uri : NULL;
}

/* The schema standing for `path`: "t_" and 16 hex digits (FNV-1a). */
static inline void test_db_schema(const char *path, char out[32])
{
    uint64_t h = 1469598103934665603ULL;
    for (const char *c = path; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ULL;
    snprintf(out, 32, "t_%016llx", (unsigned long long)h);
}

/* Runs `sql` as the server's superuser on the base database. */
static inline void test_db_admin(const char *sql)
{
    char err[256];
    struct db *admin = db_open(test_db_pg(), err, sizeof(err));

    ck_assert_msg(admin != NULL, "%s", err);
    struct dbs *q = dbs_prepare(admin, sql);
    ck_assert_msg(q != NULL, "%s: %s", sql, db_errmsg(admin));
    ck_assert_msg(dbs_run(q) == DBS_DONE, "%s: %s", sql, db_errmsg(admin));
    dbs_free(q);
    db_close(admin);
}

/* The URI of path's schema (made if new) into uri (size bytes). */
static inline void test_db_uri(const char *path, char *uri, size_t size)
{
    const char *base = test_db_pg();
    char schema[32], sql[96];

    test_db_schema(path, schema);
    snprintf(sql, sizeof(sql), "CREATE SCHEMA IF NOT EXISTS %s", schema);
    test_db_admin(sql);
    snprintf(uri, size, "%s%coptions=-csearch_path%%3D%s", base, strchr(base, '?') ? '&' : '?',
             schema);
}

/* db_open(path) on SQLite, or path's schema on the test server. */
static inline struct db *test_db_open(const char *path, char *err, int errlen)
{
    char uri[1024];

    if (!test_db_pg())
        return db_open(path, err, errlen);
    test_db_uri(path, uri, sizeof(uri));
    return db_open(uri, err, errlen);
}

/* db_open_readonly(path) on SQLite, or path's schema on the test server. */
static inline struct db *test_db_open_readonly(const char *path, char *err, int errlen)
{
    char uri[1024];

    if (!test_db_pg())
        return db_open_readonly(path, err, errlen);
    test_db_uri(path, uri, sizeof(uri));
    return db_open_readonly(uri, err, errlen);
}

/* Ends a test that means nothing on PostgreSQL (a SQLite file's modes,
 * WAL, migrations of old SQLite files, ...) when the tests run there;
 * `why` says why, for the reader. */
#define TEST_DB_SQLITE_ONLY(why)                                                                   \
    do {                                                                                           \
        if (test_db_pg())                                                                          \
            return;                                                                                \
    } while (0)

/* Drops path's schema on the test server (nothing on SQLite: the caller
 * removes the file's folder). */
static inline void test_db_drop(const char *path)
{
    char schema[32], sql[96];

    if (!test_db_pg())
        return;
    test_db_schema(path, schema);
    snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS %s CASCADE", schema);
    test_db_admin(sql);
}

/* Closes db (NULL is fine) and, on the test server, drops path's schema
 * through db's own connection first (one connection fewer than
 * test_db_drop, which it falls back on when db cannot run it). */
static inline void test_db_close(struct db *db, const char *path)
{
    char schema[32], sql[96];
    int dropped = 0;

    if (test_db_pg() && db) {
        test_db_schema(path, schema);
        snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS %s CASCADE", schema);
        struct dbs *q = dbs_prepare(db, sql);
        dropped = q && dbs_run(q) == DBS_DONE;
        dbs_free(q);
    }
    db_close(db);
    if (!dropped)
        test_db_drop(path);
}

/* A new account `key` on the connection's network (password hash "$y$x");
 * its id. */
static inline int64_t test_db_account(struct db *d, const char *key)
{
    int64_t id = 0;

    ck_assert_msg(db_account_create(d, key, key, "$y$x", 1, &id) == DB_OK, "%s", db_errmsg(d));
    return id;
}

/* A boxer named `key` of account `owner` (12 in every ability), made at
 * `created`; his id. */
static inline int64_t test_db_boxer(struct db *d, int64_t owner, const char *key, int64_t created)
{
    struct db_fighter f;

    memset(&f, 0, sizeof(f));
    f.account_id = owner;
    snprintf(f.name, sizeof(f.name), "%s", key);
    f.sheet.rules = RULES_BOXING;
    f.sheet.u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12};
    f.created = created;
    ck_assert_msg(db_fighter_create(d, key, &f) == DB_OK, "%s", db_errmsg(d));
    return f.id;
}

#endif
