/* check_db.c - storage against a real SQLite file in a fresh directory:
 * opening and migrating (WAL, foreign keys, versions old and new, a new
 * file and its WAL private (0600) under umask 000, a
 * version-1 file to version 2, a version-2 file to version 3), accounts,
 * fighters of both rulesets, names that look like SQL, a thousand fighters;
 * bouts (seeds bit for bit), their orders and rounds, plans, the audit log,
 * transactions, kill -9 of a writer, and rows edited by hand that must not
 * read as garbage; leagues: the fighters' league fields, bout kinds, the
 * fighters of a ruleset, champions, turns, and a league turn of thousands
 * of fighters in one transaction. */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "db.h"
#include "test_db.h"
#include "util.h"
#include "tests.h"

static char root[64];  /* the suite's directory, removed at the end */
static char dir[128];  /* this test's directory, inside root */
static char path[192]; /* dir/ringside.db */
static struct db *db;

/* Removes `p`, and what it holds when it is a directory. */
static void remove_tree(const char *p)
{
    struct stat sb;

    if (lstat(p, &sb) != 0)
        return;
    if (S_ISDIR(sb.st_mode)) {
        DIR *d = opendir(p);
        if (d) {
            struct dirent *e;
            char child[512];
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                snprintf(child, sizeof(child), "%s/%s", p, e->d_name);
                remove_tree(child);
            }
            closedir(d);
        }
        rmdir(p);
    } else {
        unlink(p);
    }
}

/* Unchecked: runs once in the runner's own process, so the files go even
 * when a test fails in a forked child (which skips checked teardowns). */
static void suite_setup(void)
{
    snprintf(root, sizeof(root), "/tmp/ringside-db-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(root));
}

static void suite_teardown(void)
{
    remove_tree(root);
}

/* Each test gets its own directory and an open ringside.db in it. */
static void setup(void)
{
    char err[256] = "";

    snprintf(dir, sizeof(dir), "%s/t-XXXXXX", root);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/ringside.db", dir);
    db = test_db_open(path, err, sizeof(err));
    ck_assert_msg(db != NULL, "db_open: %s", err);
}

static void teardown(void)
{
    test_db_close(db, path);
    db = NULL;
    remove_tree(dir);
}

static void reopen(void)
{
    char err[256] = "";

    db_close(db);
    db = test_db_open(path, err, sizeof(err));
    ck_assert_msg(db != NULL, "db_open: %s", err);
}

static int64_t account(const char *key)
{
    int64_t id = 0;

    ck_assert_int_eq(db_account_create(db, key, key, "$y$hash", 1000, &id), DB_OK);
    ck_assert_int_gt(id, 0);
    return id;
}

static struct db_fighter boxer(int64_t account_id, const char *name, int str, int spd, int agl,
                               int tgh, int hgt)
{
    struct db_fighter f;

    memset(&f, 0, sizeof(f));
    f.account_id = account_id;
    snprintf(f.name, sizeof(f.name), "%s", name);
    f.sheet.rules = RULES_BOXING;
    f.sheet.u.boxing = (struct boxing_sheet){str, spd, agl, tgh, hgt};
    f.created = 2000;
    return f;
}

static struct db_fighter sugar(int64_t account_id, const char *name, int skill, int endurance)
{
    struct db_fighter f;

    memset(&f, 0, sizeof(f));
    f.account_id = account_id;
    snprintf(f.name, sizeof(f.name), "%s", name);
    f.sheet.rules = RULES_SUGARRAY;
    f.sheet.u.sugarray = (struct sugarray_sheet){skill, endurance};
    f.created = 2000;
    return f;
}

/* ------------------------------------------------------------------ open */

START_TEST(test_open_creates_and_migrates)
{
    TEST_DB_SQLITE_ONLY("a new SQLite file's modes and its migrations from version 0");
    struct stat sb;

    ck_assert_int_eq(stat(path, &sb), 0);
    ck_assert_int_ge(db_schema_latest(), 1);
    ck_assert_int_eq(db_schema_version(db), db_schema_latest());
    ck_assert_int_eq(db_journal_wal(db), 1);
    ck_assert_int_eq(db_foreign_keys(db), 1);
    /* Asked twice: the prepared statements are reusable. */
    ck_assert_int_eq(db_journal_wal(db), 1);
    ck_assert_int_eq(db_schema_version(db), db_schema_latest());
}
END_TEST

START_TEST(test_reopen_keeps_data)
{
    struct db_account a;
    int64_t id = account("bob");

    /* Reopening runs no migration again (a second CREATE TABLE would fail
     * the open) and finds the data. */
    reopen();
    ck_assert_int_eq(db_schema_version(db), db_schema_latest());
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(a.id, id);
    ck_assert_int_eq(db_journal_wal(db), 1);
    ck_assert_int_eq(db_foreign_keys(db), 1);
}
END_TEST

/* Writes `version` as the file's user_version (4 bytes, big-endian, at
 * offset 60 of the header, per the SQLite file format). The database must be
 * closed, so that its WAL has been checkpointed into the file and removed. */
static void header_version_set(int version)
{
    unsigned char magic[16];
    unsigned char v[4] = {(unsigned char)(version >> 24), (unsigned char)(version >> 16),
                          (unsigned char)(version >> 8), (unsigned char)version};
    FILE *fp = fopen(path, "r+b");

    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(fread(magic, 1, sizeof(magic), fp), sizeof(magic));
    ck_assert_int_eq(memcmp(magic, "SQLite format 3", 16), 0);
    ck_assert_int_eq(fseek(fp, 60, SEEK_SET), 0);
    ck_assert_int_eq(fwrite(v, 1, sizeof(v), fp), sizeof(v));
    ck_assert_int_eq(fclose(fp), 0);
}

static int header_version(void)
{
    unsigned char v[4];
    FILE *fp = fopen(path, "rb");

    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(fseek(fp, 60, SEEK_SET), 0);
    ck_assert_int_eq(fread(v, 1, sizeof(v), fp), sizeof(v));
    fclose(fp);
    return (int)((unsigned)v[0] << 24 | (unsigned)v[1] << 16 | (unsigned)v[2] << 8 | v[3]);
}

START_TEST(test_newer_schema_refused)
{
    TEST_DB_SQLITE_ONLY("the version in a SQLite file's header");
    char err[512], want[512];
    int newer = db_schema_latest() + 8;

    account("bob");
    db_close(db);
    db = NULL;
    ck_assert_int_eq(access(path, F_OK), 0);
    header_version_set(newer);
    ck_assert_ptr_null(test_db_open(path, err, sizeof(err)));
    snprintf(want, sizeof(want),
             "%s has schema version %d, this ringside knows up to %d; upgrade ringside", path,
             newer, db_schema_latest());
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(header_version(), newer); /* untouched */

    /* Back at the current version, the file opens with its data. */
    header_version_set(db_schema_latest());
    reopen();
    struct db_account a;
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
}
END_TEST

START_TEST(test_open_errors)
{
    char err[512], bad[256];
    FILE *fp;

    snprintf(bad, sizeof(bad), "%s/no/such/dir.db", dir);
    ck_assert_ptr_null(db_open(bad, err, sizeof(err)));
    ck_assert_msg(strncmp(err, "cannot open ", 12) == 0, "%s", err);
    ck_assert_ptr_nonnull(strstr(err, "unable to open database file"));
    ck_assert_ptr_null(strchr(err, '\n'));

    snprintf(bad, sizeof(bad), "%s/garbage.db", dir);
    fp = fopen(bad, "wb");
    ck_assert_ptr_nonnull(fp);
    for (int i = 0; i < 200; i++)
        fputs("this is not a database, ", fp);
    fclose(fp);
    ck_assert_ptr_null(db_open(bad, err, sizeof(err)));
    ck_assert_msg(strncmp(err, "cannot open ", 12) == 0, "%s", err);
    ck_assert_ptr_nonnull(strstr(err, "file is not a database"));

    /* A small buffer gets a truncated message, and no buffer is fine. */
    char small[8];
    ck_assert_ptr_null(db_open(bad, small, sizeof(small)));
    ck_assert_str_eq(small, "cannot ");
    ck_assert_ptr_null(db_open(bad, NULL, 0));

    db_close(NULL);
    ck_assert_str_eq(db_errmsg(NULL), "no database");
}
END_TEST

/* The file and its WAL and shared-memory files are 0600 under a permissive
 * umask (the database holds password hashes); a file that exists keeps its
 * mode. */
START_TEST(test_new_file_private)
{
    static const char *const suffix[] = {"", "-wal", "-shm"};
    char err[256], p[256], side[300];
    struct stat sb;
    mode_t old = umask(0);

    snprintf(p, sizeof(p), "%s/private.db", dir);
    struct db *d = db_open(p, err, sizeof(err));
    ck_assert_msg(d != NULL, "db_open: %s", err);
    int64_t id = 0;
    ck_assert_int_eq(db_account_create(d, "alice", "alice", "$y$hash", 1000, &id), DB_OK);
    for (int i = 0; i < 3; i++) {
        snprintf(side, sizeof(side), "%s%s", p, suffix[i]);
        ck_assert_msg(stat(side, &sb) == 0, "%s is missing", side);
        ck_assert_msg((sb.st_mode & 0777) == 0600, "%s has mode %03o, not 600", side,
                      (unsigned)(sb.st_mode & 0777));
    }
    /* A second connection (the WAL files exist already) changes nothing. */
    struct db *d2 = db_open(p, err, sizeof(err));
    ck_assert_msg(d2 != NULL, "db_open: %s", err);
    db_close(d2);
    db_close(d);
    ck_assert_int_eq(stat(p, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0600);

    /* So is a file made by db_test_file. */
    snprintf(p, sizeof(p), "%s/private-test.db", dir);
    ck_assert_int_eq(db_test_file(p, 1, NULL, err, sizeof(err)), DB_OK);
    ck_assert_int_eq(stat(p, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0600);

    /* An existing file keeps the mode its owner chose. */
    snprintf(p, sizeof(p), "%s/shared.db", dir);
    FILE *fp = fopen(p, "wb");
    ck_assert_ptr_nonnull(fp);
    fclose(fp);
    ck_assert_int_eq(chmod(p, 0640), 0);
    d = db_open(p, err, sizeof(err));
    ck_assert_msg(d != NULL, "db_open: %s", err);
    db_close(d);
    ck_assert_int_eq(stat(p, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0640);
    umask(old);
}
END_TEST

START_TEST(test_second_connection_sees_writes)
{
    char err[256];
    struct db_account a;
    struct db *other = test_db_open(path, err, sizeof(err));

    ck_assert_msg(other != NULL, "%s", err);
    int64_t id = account("bob");
    ck_assert_int_eq(db_account_get(other, "bob", &a), DB_OK);
    ck_assert_int_eq(a.id, id);
    ck_assert_int_eq(db_account_set_banned(other, id, 1), DB_OK);
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(a.banned, 1);
    db_close(other);
}
END_TEST

/* -------------------------------------------------------------- accounts */

START_TEST(test_account_create_get)
{
    struct db_account a;
    int64_t id = 0, id2 = 0;

    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_NOTFOUND);
    ck_assert_int_eq(db_account_create(db, "bob", "Bob", "$y$j9T$abc", 1700000000, &id), DB_OK);
    ck_assert_int_gt(id, 0);
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(a.id, id);
    ck_assert_str_eq(a.name, "Bob");
    ck_assert_str_eq(a.hash, "$y$j9T$abc");
    ck_assert_int_eq(a.banned, 0);
    ck_assert_int_eq(a.created, 1700000000);

    /* The key is taken whatever the name. */
    ck_assert_int_eq(db_account_create(db, "bob", "BOB", "$y$x", 1, &id2), DB_EXISTS);
    ck_assert_int_eq(id2, 0);
    /* Keys compare exactly: folding is the caller's. */
    ck_assert_int_eq(db_account_get(db, "Bob", &a), DB_NOTFOUND);
    ck_assert_int_eq(db_account_create(db, "Bob", "Bob", "$y$x", 1, &id2), DB_OK);
    ck_assert_int_ne(id2, id);
    ck_assert_int_eq(db_account_get(db, "Bob", &a), DB_OK);
    ck_assert_int_eq(a.id, id2);
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(a.id, id);
    /* id is optional. */
    ck_assert_int_eq(db_account_create(db, "carol", "carol", "$y$x", 1, NULL), DB_OK);
}
END_TEST

START_TEST(test_account_hash_and_ban)
{
    struct db_account a;
    int64_t id = account("bob");

    ck_assert_int_eq(db_account_set_hash(db, id, "$y$new"), DB_OK);
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_str_eq(a.hash, "$y$new");
    ck_assert_int_eq(db_account_set_banned(db, id, 7), DB_OK);
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(a.banned, 1);
    /* Setting the same value again still finds the account. */
    ck_assert_int_eq(db_account_set_banned(db, id, 1), DB_OK);
    ck_assert_int_eq(db_account_set_banned(db, id, 0), DB_OK);
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(a.banned, 0);
    ck_assert_str_eq(a.hash, "$y$new");

    ck_assert_int_eq(db_account_set_hash(db, id + 100, "$y$x"), DB_NOTFOUND);
    ck_assert_int_eq(db_account_set_banned(db, id + 100, 1), DB_NOTFOUND);
}
END_TEST

/* Migration 5: a password said in a channel is burnt. The account's mark
 * refuses its current hash until a new one is set; the burnt hashes of a
 * key (registered or not) are kept, the DB_BURNT_MAX newest. */
START_TEST(test_burnt_passwords)
{
    struct db_account a;
    char hashes[DB_BURNT_MAX + 2][DB_HASH_MAX];
    int n = -1;
    int64_t id = account("bob"); /* hash "$y$hash" */

    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(a.burnt, 0);
    ck_assert_int_eq(db_burnt_list(db, "bob", hashes, DB_BURNT_MAX, &n), DB_OK);
    ck_assert_int_eq(n, 0);

    ck_assert_int_eq(db_account_burn(db, "bob", 100), DB_OK);
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(a.burnt, 1);
    ck_assert_str_eq(a.hash, "$y$hash"); /* kept: identify compares with it */
    ck_assert_int_eq(db_burnt_list(db, "bob", hashes, DB_BURNT_MAX, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(hashes[0], "$y$hash");
    /* Burnt twice: one row. */
    ck_assert_int_eq(db_account_burn(db, "bob", 101), DB_OK);
    ck_assert_int_eq(db_burnt_list(db, "bob", hashes, DB_BURNT_MAX, &n), DB_OK);
    ck_assert_int_eq(n, 1);

    /* A new hash clears the mark; the burnt one stays burnt. */
    ck_assert_int_eq(db_account_set_hash(db, id, "$y$new"), DB_OK);
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(a.burnt, 0);
    ck_assert_int_eq(db_burnt_list(db, "bob", hashes, DB_BURNT_MAX, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(hashes[0], "$y$hash");

    ck_assert_int_eq(db_account_burn(db, "nobody", 102), DB_NOTFOUND);
    /* A key without an account (a register said in a channel). */
    ck_assert_int_eq(db_burnt_add(db, "carol", "$y$c1", 103), DB_OK);
    ck_assert_int_eq(db_burnt_list(db, "carol", hashes, DB_BURNT_MAX, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(hashes[0], "$y$c1");

    /* The newest DB_BURNT_MAX are kept, newest first. */
    for (int i = 0; i < DB_BURNT_MAX + 3; i++) {
        char h[32];
        snprintf(h, sizeof(h), "$y$d%02d", i);
        ck_assert_int_eq(db_burnt_add(db, "dave", h, 200 + i), DB_OK);
    }
    ck_assert_int_eq(db_burnt_list(db, "dave", hashes, DB_BURNT_MAX + 2, &n), DB_OK);
    ck_assert_int_eq(n, DB_BURNT_MAX);
    ck_assert_str_eq(hashes[0], "$y$d10");
    ck_assert_str_eq(hashes[DB_BURNT_MAX - 1], "$y$d03");
    ck_assert_int_eq(db_burnt_list(db, "dave", hashes, 2, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    /* Other keys are untouched. */
    ck_assert_int_eq(db_burnt_list(db, "bob", hashes, DB_BURNT_MAX, &n), DB_OK);
    ck_assert_int_eq(n, 1);

    /* Names that look like SQL are only data. */
    ck_assert_int_eq(db_burnt_add(db, "x'); DROP TABLE accounts;--", "$y$'", 300), DB_OK);
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(db_burnt_add(db, "", "$y$x", 1), DB_ERROR);
    ck_assert_int_eq(db_burnt_add(db, "eve", "", 1), DB_ERROR);
}
END_TEST

/* A file of schema 4 gains the mark, clear on every account, and an empty
 * list of burnt passwords. */
START_TEST(test_migrate_v4_to_v5)
{
    TEST_DB_SQLITE_ONLY("a migration of an old SQLite file");
    char err[512] = "";
    struct db_account a;
    char hashes[DB_BURNT_MAX][DB_HASH_MAX];
    int n = -1;

    ck_assert_int_ge(db_schema_latest(), 5);
    db_close(db);
    db = NULL;
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_msg(db_test_file(path, 4,
                               "INSERT INTO accounts (id, key, name, hash, banned, created)"
                               " VALUES (1, 'bob', 'Bob', '$y$old', 1, 5);",
                               err, sizeof(err)) == DB_OK,
                  "%s", err);
    ck_assert_int_eq(header_version(), 4);
    reopen();
    ck_assert_int_eq(db_schema_version(db), db_schema_latest());
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_str_eq(a.hash, "$y$old");
    ck_assert_int_eq(a.banned, 1);
    ck_assert_int_eq(a.burnt, 0);
    ck_assert_int_eq(db_burnt_list(db, "bob", hashes, DB_BURNT_MAX, &n), DB_OK);
    ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(test_account_bad_strings)
{
    char longest[DB_NAME_MAX], too_long[DB_NAME_MAX + 1], hash[DB_HASH_MAX + 1];
    struct db_account a;

    memset(longest, 'n', sizeof(longest) - 1);
    longest[sizeof(longest) - 1] = '\0';
    memset(too_long, 'n', sizeof(too_long) - 1);
    too_long[sizeof(too_long) - 1] = '\0';
    memset(hash, 'h', sizeof(hash) - 1);
    hash[sizeof(hash) - 1] = '\0';

    ck_assert_int_eq(db_account_create(db, too_long, "x", "$y$x", 1, NULL), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "account key is 32 bytes, the most is 31");
    ck_assert_int_eq(db_account_create(db, "x", too_long, "$y$x", 1, NULL), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "account name is 32 bytes, the most is 31");
    ck_assert_int_eq(db_account_create(db, "x", "x", hash, 1, NULL), DB_ERROR);
    ck_assert_ptr_nonnull(strstr(db_errmsg(db), "password hash is 160 bytes"));
    ck_assert_int_eq(db_account_create(db, "", "x", "$y$x", 1, NULL), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "account key is empty");
    ck_assert_int_eq(db_account_create(db, "x", NULL, "$y$x", 1, NULL), DB_ERROR);
    ck_assert_int_eq(db_account_get(db, too_long, &a), DB_ERROR);
    /* Sixteen two-byte characters are 32 bytes: too long as well. */
    ck_assert_int_eq(db_account_create(db, "x", "ééééééééééééééé", "$y$x", 1, NULL), DB_OK);
    ck_assert_int_eq(db_account_create(db, "y", "éééééééééééééééé", "$y$x", 1, NULL), DB_ERROR);

    hash[DB_HASH_MAX - 1] = '\0';
    ck_assert_int_eq(db_account_create(db, longest, longest, hash, 1, NULL), DB_OK);
    ck_assert_int_eq(db_account_get(db, longest, &a), DB_OK);
    ck_assert_str_eq(a.name, longest);
    ck_assert_str_eq(a.hash, hash);
    ck_assert_int_eq(db_account_set_hash(db, a.id, ""), DB_ERROR);
    ck_assert_int_eq(db_account_get(db, "y", &a), DB_NOTFOUND);
}
END_TEST

/* -------------------------------------------------------------- fighters */

START_TEST(test_fighter_boxing)
{
    struct db_fighter f, g;
    int64_t owner = account("bob");

    f = boxer(owner, "Iron Mike", 20, 10, 10, 15, 5);
    f.created = 1234;
    ck_assert_int_eq(db_fighter_create(db, "iron mike", &f), DB_OK);
    ck_assert_int_gt(f.id, 0);
    ck_assert_int_eq(db_fighter_get(db, "iron mike", &g), DB_OK);
    ck_assert_int_eq(g.id, f.id);
    ck_assert_int_eq(g.account_id, owner);
    ck_assert_str_eq(g.owner, "bob");
    ck_assert_str_eq(g.name, "Iron Mike");
    ck_assert_int_eq(g.sheet.rules, RULES_BOXING);
    ck_assert_int_eq(g.sheet.u.boxing.str, 20);
    ck_assert_int_eq(g.sheet.u.boxing.spd, 10);
    ck_assert_int_eq(g.sheet.u.boxing.agl, 10);
    ck_assert_int_eq(g.sheet.u.boxing.tgh, 15);
    ck_assert_int_eq(g.sheet.u.boxing.hgt, 5);
    ck_assert_int_eq(g.wins + g.losses + g.draws + g.kos + g.training_points + g.retired, 0);
    ck_assert_int_eq(g.created, 1234);
    ck_assert_int_eq(db_fighter_get(db, "Iron Mike", &g), DB_NOTFOUND);
}
END_TEST

START_TEST(test_fighter_sugarray)
{
    struct db_fighter f, g;
    int64_t owner = account("alice");

    f = sugar(owner, "Murphy", 12, 21);
    f.wins = 3;
    f.training_points = 1;
    ck_assert_int_eq(db_fighter_create(db, "murphy", &f), DB_OK);
    ck_assert_int_eq(db_fighter_get(db, "murphy", &g), DB_OK);
    ck_assert_int_eq(g.id, f.id);
    ck_assert_str_eq(g.owner, "alice");
    ck_assert_int_eq(g.sheet.rules, RULES_SUGARRAY);
    ck_assert_int_eq(g.sheet.u.sugarray.skill, 12);
    ck_assert_int_eq(g.sheet.u.sugarray.endurance, 21);
    ck_assert_int_eq(g.wins, 3);
    ck_assert_int_eq(g.training_points, 1);
    /* No ceiling: bouts and training raise SUGAR RAY sheets without one. */
    f = sugar(owner, "Veteran", 150, 2000);
    ck_assert_int_eq(db_fighter_create(db, "veteran", &f), DB_OK);
}
END_TEST

START_TEST(test_fighter_duplicate_and_orphan)
{
    struct db_fighter f, g;
    int64_t owner = account("bob"), other = account("carol");

    f = boxer(owner, "Ali", 12, 12, 12, 12, 12);
    ck_assert_int_eq(db_fighter_create(db, "ali", &f), DB_OK);
    int64_t first = f.id;
    /* Unique across rulesets and owners. */
    g = sugar(other, "ALI", 10, 20);
    ck_assert_int_eq(db_fighter_create(db, "ali", &g), DB_EXISTS);
    g = boxer(owner, "Ali", 12, 12, 12, 12, 12);
    ck_assert_int_eq(db_fighter_create(db, "ali", &g), DB_EXISTS);

    g = boxer(other + 100, "Ghost", 12, 12, 12, 12, 12);
    ck_assert_int_eq(db_fighter_create(db, "ghost", &g), DB_NOTFOUND);
    ck_assert_int_eq(db_fighter_get(db, "ghost", &g), DB_NOTFOUND);

    ck_assert_int_eq(db_fighter_get(db, "ali", &g), DB_OK);
    ck_assert_int_eq(g.id, first);
    ck_assert_int_eq(g.sheet.rules, RULES_BOXING);
}
END_TEST

START_TEST(test_fighter_bad_sheets)
{
    struct db_fighter f;
    int64_t owner = account("bob");
    char too_long[DB_NAME_MAX + 1];

    f = boxer(owner, "Big", 26, 12, 12, 12, 12);
    ck_assert_int_eq(db_fighter_create(db, "big", &f), DB_ERROR);
    ck_assert_ptr_nonnull(strstr(db_errmsg(db), "sheet_fits_rules"));
    f = boxer(owner, "Small", 12, 12, 12, 12, 0);
    ck_assert_int_eq(db_fighter_create(db, "small", &f), DB_ERROR);
    f = sugar(owner, "Weak", 0, 20);
    ck_assert_int_eq(db_fighter_create(db, "weak", &f), DB_ERROR);
    f = sugar(owner, "Tired", 10, 0);
    ck_assert_int_eq(db_fighter_create(db, "tired", &f), DB_ERROR);
    f = boxer(owner, "Nobody", 12, 12, 12, 12, 12);
    f.sheet.rules = RULES_COUNT;
    ck_assert_int_eq(db_fighter_create(db, "nobody", &f), DB_ERROR);
    f = boxer(owner, "Loser", 12, 12, 12, 12, 12);
    f.losses = -1;
    ck_assert_int_eq(db_fighter_create(db, "loser", &f), DB_ERROR);

    memset(too_long, 'k', sizeof(too_long) - 1);
    too_long[sizeof(too_long) - 1] = '\0';
    f = boxer(owner, "Long", 12, 12, 12, 12, 12);
    ck_assert_int_eq(db_fighter_create(db, too_long, &f), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "fighter key is 32 bytes, the most is 31");
    f.name[0] = '\0';
    ck_assert_int_eq(db_fighter_create(db, "long", &f), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "fighter name is empty");

    /* None of it left a statement in a bad state. */
    f = boxer(owner, "Fine", 25, 1, 25, 1, 25);
    ck_assert_int_eq(db_fighter_create(db, "fine", &f), DB_OK);
    ck_assert_int_eq(db_fighter_get(db, "fine", &f), DB_OK);
    ck_assert_int_eq(db_fighter_get(db, "big", &f), DB_NOTFOUND);
}
END_TEST

START_TEST(test_fighter_list)
{
    struct db_fighter f, out[8];
    int64_t bob = account("bob"), carol = account("carol");
    /* Created at 30, 10, 20, 10: listed by time, then by id. */
    const char *names[4] = {"Third", "First", "Fourth", "Second"};
    const int64_t created[4] = {30, 10, 20, 10};
    int n = -1;

    ck_assert_int_eq(db_fighter_list(db, bob, 1, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    for (int i = 0; i < 4; i++) {
        char key[16];
        f = boxer(bob, names[i], 12, 12, 12, 12, 12);
        f.created = created[i];
        snprintf(key, sizeof(key), "k%d", i);
        ck_assert_int_eq(db_fighter_create(db, key, &f), DB_OK);
    }
    f = sugar(carol, "Carol's", 10, 20);
    ck_assert_int_eq(db_fighter_create(db, "carols", &f), DB_OK);

    ck_assert_int_eq(db_fighter_list(db, bob, 0, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 4);
    ck_assert_str_eq(out[0].name, "First");
    ck_assert_str_eq(out[1].name, "Second");
    ck_assert_str_eq(out[2].name, "Fourth");
    ck_assert_str_eq(out[3].name, "Third");
    for (int i = 0; i < n; i++)
        ck_assert_str_eq(out[i].owner, "bob");

    /* max caps the count. */
    ck_assert_int_eq(db_fighter_list(db, bob, 0, out, 2, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(out[1].name, "Second");
    ck_assert_int_eq(db_fighter_list(db, bob, 0, out, 0, &n), DB_OK);
    ck_assert_int_eq(n, 0);

    /* Retired fighters only when asked. */
    ck_assert_int_eq(db_fighter_get(db, "k3", &f), DB_OK);
    ck_assert_int_eq(db_fighter_retire(db, f.id), DB_OK);
    ck_assert_int_eq(db_fighter_list(db, bob, 0, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(out[0].name, "First");
    ck_assert_str_eq(out[1].name, "Fourth");
    ck_assert_int_eq(db_fighter_list(db, bob, 1, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 4);
    ck_assert_str_eq(out[1].name, "Second");
    ck_assert_int_eq(out[1].retired, 1);
    ck_assert_int_eq(out[0].retired, 0);

    ck_assert_int_eq(db_fighter_list(db, carol, 0, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(out[0].sheet.rules, RULES_SUGARRAY);
    ck_assert_str_eq(out[0].owner, "carol");
    ck_assert_int_eq(db_fighter_list(db, carol + 100, 1, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(test_fighter_save)
{
    struct db_fighter f, g;
    int64_t owner = account("bob");

    f = boxer(owner, "Joe", 12, 12, 12, 12, 12);
    ck_assert_int_eq(db_fighter_create(db, "joe", &f), DB_OK);
    f.sheet.u.boxing = (struct boxing_sheet){25, 1, 13, 14, 15};
    f.wins = 5;
    f.losses = 2;
    f.draws = 1;
    f.kos = 3;
    f.training_points = 4;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    ck_assert_int_eq(db_fighter_get(db, "joe", &g), DB_OK);
    ck_assert_int_eq(g.sheet.u.boxing.str, 25);
    ck_assert_int_eq(g.sheet.u.boxing.spd, 1);
    ck_assert_int_eq(g.sheet.u.boxing.agl, 13);
    ck_assert_int_eq(g.sheet.u.boxing.tgh, 14);
    ck_assert_int_eq(g.sheet.u.boxing.hgt, 15);
    ck_assert_int_eq(g.wins, 5);
    ck_assert_int_eq(g.losses, 2);
    ck_assert_int_eq(g.draws, 1);
    ck_assert_int_eq(g.kos, 3);
    ck_assert_int_eq(g.training_points, 4);
    ck_assert_str_eq(g.name, "Joe");

    /* Saving the same again still finds him. */
    ck_assert_int_eq(db_fighter_save(db, &g), DB_OK);

    /* Out of range, or another ruleset's sheet: refused, nothing changed. */
    g.sheet.u.boxing.str = 26;
    ck_assert_int_eq(db_fighter_save(db, &g), DB_ERROR);
    g = sugar(owner, "Joe", 10, 20);
    g.id = f.id;
    ck_assert_int_eq(db_fighter_save(db, &g), DB_ERROR);
    ck_assert_int_eq(db_fighter_get(db, "joe", &g), DB_OK);
    ck_assert_int_eq(g.sheet.rules, RULES_BOXING);
    ck_assert_int_eq(g.sheet.u.boxing.str, 25);

    g.id = f.id + 100;
    ck_assert_int_eq(db_fighter_save(db, &g), DB_NOTFOUND);

    /* SUGAR RAY too. */
    f = sugar(owner, "Miller", 10, 26);
    ck_assert_int_eq(db_fighter_create(db, "miller", &f), DB_OK);
    f.sheet.u.sugarray = (struct sugarray_sheet){11, 29};
    f.losses = 1;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    ck_assert_int_eq(db_fighter_get(db, "miller", &g), DB_OK);
    ck_assert_int_eq(g.sheet.u.sugarray.skill, 11);
    ck_assert_int_eq(g.sheet.u.sugarray.endurance, 29);
    ck_assert_int_eq(g.losses, 1);
}
END_TEST

START_TEST(test_fighter_retire)
{
    struct db_fighter f, g;
    int64_t owner = account("bob");

    f = boxer(owner, "Old", 12, 12, 12, 12, 12);
    ck_assert_int_eq(db_fighter_create(db, "old", &f), DB_OK);
    ck_assert_int_eq(db_fighter_retire(db, f.id), DB_OK);
    ck_assert_int_eq(db_fighter_get(db, "old", &g), DB_OK);
    ck_assert_int_eq(g.retired, 1);
    ck_assert_int_eq(db_fighter_retire(db, f.id), DB_OK);
    ck_assert_int_eq(db_fighter_retire(db, f.id + 100), DB_NOTFOUND);
    /* Saving does not bring him back. */
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    ck_assert_int_eq(db_fighter_get(db, "old", &g), DB_OK);
    ck_assert_int_eq(g.retired, 1);
}
END_TEST

/* ---------------------------------------------------------- hostile text */

START_TEST(test_names_that_look_like_sql)
{
    static const char *const evil[] = {
        /* 31 bytes: the classic with its space dropped, to fit a name. */
        "Robert');DROP TABLE accounts;--",
        "x' OR '1'='1",
        "\"; DELETE FROM fighters; --",
        "%s%n%x",
        "?1 ?2 :a @b $c",
        "a\\b'\"`",
    };
    struct db_account a;
    struct db_fighter f, g;

    for (size_t i = 0; i < sizeof(evil) / sizeof(evil[0]); i++) {
        int64_t id;
        ck_assert_int_eq(db_account_create(db, evil[i], evil[i], evil[i], 1, &id), DB_OK);
        ck_assert_int_eq(db_account_get(db, evil[i], &a), DB_OK);
        ck_assert_str_eq(a.name, evil[i]);
        ck_assert_str_eq(a.hash, evil[i]);
        f = boxer(id, evil[i], 12, 12, 12, 12, 12);
        ck_assert_int_eq(db_fighter_create(db, evil[i], &f), DB_OK);
        ck_assert_int_eq(db_fighter_get(db, evil[i], &g), DB_OK);
        ck_assert_str_eq(g.name, evil[i]);
        ck_assert_str_eq(g.owner, evil[i]);
    }
    /* The classic itself is 32 bytes: too long for a name, fine as a hash. */
    const char *bobby = "Robert'); DROP TABLE accounts;--";
    ck_assert_int_eq(db_account_create(db, bobby, "bobby", "$y$x", 1, NULL), DB_ERROR);
    ck_assert_int_eq(db_account_get(db, evil[0], &a), DB_OK);
    ck_assert_int_eq(db_account_set_hash(db, a.id, bobby), DB_OK);

    /* Every table is still there, with every row. */
    reopen();
    ck_assert_int_eq(db_account_get(db, evil[0], &a), DB_OK);
    ck_assert_str_eq(a.hash, bobby);
    ck_assert_int_eq(db_fighter_get(db, evil[0], &g), DB_OK);
    ck_assert_int_eq(db_fighter_get(db, evil[2], &g), DB_OK);
    ck_assert_int_eq(db_account_get(db, "x", &a), DB_NOTFOUND);
}
END_TEST

/* ------------------------------------------------------------------ bulk */

#define MANY 1000

START_TEST(test_thousand_fighters)
{
    static struct db_fighter out[MANY + 10];
    struct db_fighter f;
    int64_t owner = account("bob"), other = account("carol");
    int n = 0;

    for (int i = 0; i < MANY; i++) {
        char key[16];
        snprintf(key, sizeof(key), "f%04d", i);
        /* Alternate rulesets and owners; bob's get decreasing times. */
        f = i % 2 ? sugar(owner, key, 1 + i % 50, 1 + i)
                  : boxer(owner, key, 1 + i % 25, 12, 12, 12, 12);
        f.created = MANY - i;
        REQUIRE(db_fighter_create(db, key, &f) == DB_OK);
        REQUIRE(f.id > 0);
        if (i % 10 == 0) {
            snprintf(key, sizeof(key), "c%04d", i);
            f = boxer(other, key, 12, 12, 12, 12, 12);
            REQUIRE(db_fighter_create(db, key, &f) == DB_OK);
        }
    }
    ck_assert_int_eq(db_fighter_list(db, owner, 0, out, MANY + 10, &n), DB_OK);
    ck_assert_int_eq(n, MANY);
    for (int i = 0; i < n; i++) {
        char key[16];
        int k = MANY - 1 - i; /* the last created has the earliest time */
        snprintf(key, sizeof(key), "f%04d", k);
        REQUIRE(strcmp(out[i].name, key) == 0);
        REQUIRE(out[i].created == i + 1);
        REQUIRE(out[i].account_id == owner);
        REQUIRE(out[i].sheet.rules == (k % 2 ? RULES_SUGARRAY : RULES_BOXING));
        if (k % 2)
            REQUIRE(out[i].sheet.u.sugarray.skill == 1 + k % 50 &&
                    out[i].sheet.u.sugarray.endurance == 1 + k);
        else
            REQUIRE(out[i].sheet.u.boxing.str == 1 + k % 25);
    }
    ck_assert_int_eq(db_fighter_list(db, owner, 1, out, 100, &n), DB_OK);
    ck_assert_int_eq(n, 100);
    ck_assert_str_eq(out[99].name, "f0900");
    ck_assert_int_eq(db_fighter_list(db, other, 1, out, MANY, &n), DB_OK);
    ck_assert_int_eq(n, MANY / 10);
}
END_TEST

/* ---------------------------------------------------------- migration 2 */

/* Runs `sql` on path's schema of the test server through a second
 * connection: 1 (true) or 0 (false) for a SELECT of one boolean, 1 for
 * another statement; fails the test when the server refuses it. */
static int pg_sql(const char *sql)
{
    char err[256];
    struct db *c = test_db_open(path, err, sizeof(err));

    ck_assert_msg(c != NULL, "%s", err);
    struct dbs *q = dbs_prepare(c, sql);
    ck_assert_msg(q != NULL, "%s: %s", sql, db_errmsg(c));
    int rc = dbs_step(q), yes = 1;
    ck_assert_msg(rc != DBS_ERR, "%s: %s", sql, db_errmsg(c));
    if (rc == DBS_ROW)
        yes = dbs_col_int64(q, 0) == 1;
    dbs_reset(q);
    dbs_free(q);
    db_close(c);
    return yes;
}

/* Holds when the SQL condition `cond` is true of the file, asked through a
 * second connection (tests cannot run SQL otherwise): a row that breaks a
 * CHECK is the way to fail. On PostgreSQL the same condition (SQLite's
 * char() is chr() there) is selected from the test's schema. */
static void sql_check(const char *cond)
{
    char sql[1024], err[512] = "";

    if (test_db_pg()) {
        struct str pg;
        str_init(&pg);
        for (const char *c = cond; *c; c++) {
            if (strncmp(c, "char(", 5) == 0) {
                str_add(&pg, "chr(");
                c += 4;
            } else {
                str_add(&pg, "%c", *c);
            }
        }
        snprintf(sql, sizeof(sql), "SELECT CASE WHEN (%s) THEN 1 ELSE 0 END", pg.p);
        str_free(&pg);
        ck_assert_msg(pg_sql(sql), "does not hold on PostgreSQL: %s", cond);
        return;
    }
    snprintf(sql, sizeof(sql),
             "CREATE TEMP TABLE holds (x CHECK (x IS 1)); INSERT INTO holds VALUES ((%s));", cond);
    ck_assert_msg(db_test_file(path, db_schema_latest(), sql, err, sizeof(err)) == DB_OK,
                  "does not hold: %s (%s)", cond, err);
}

/* Runs `sql` on the file through a second connection, CHECKs off: rows the
 * API refuses to write (NOT NULL still holds). PostgreSQL cannot turn its
 * CHECKs off, so there the test's own schema loses them first (it is
 * dropped at the test's end). */
static void sql_force(const char *sql)
{
    char all[1024], err[512] = "";

    if (test_db_pg()) {
        pg_sql("DO $$ DECLARE r record; BEGIN FOR r IN SELECT conrelid::regclass AS t, conname"
               " FROM pg_constraint WHERE contype = 'c' AND connamespace ="
               " current_schema()::regnamespace LOOP EXECUTE format('ALTER TABLE %s DROP"
               " CONSTRAINT %I', r.t, r.conname); END LOOP; END $$");
        pg_sql(sql);
        return;
    }
    snprintf(all, sizeof(all), "PRAGMA ignore_check_constraints = ON; %s", sql);
    ck_assert_msg(db_test_file(path, db_schema_latest(), all, err, sizeof(err)) == DB_OK, "%s: %s",
                  sql, err);
}

/* Texts compare byte by byte on both backends, as SQLite's BINARY does:
 * 'B' before 'a'. On PostgreSQL every text column is COLLATE "C"
 * (schema_pg.sql), so a server with a locale orders the same. */
START_TEST(test_text_order_bytewise)
{
    int64_t id;

    ck_assert_int_eq(db_account_create(db, "alice", "alice", "$y$hash", 1000, &id), DB_OK);
    ck_assert_int_eq(db_account_create(db, "bob", "Bob", "$y$hash", 1000, &id), DB_OK);
    sql_check("SELECT min(name) = 'Bob' AND max(name) = 'alice' FROM accounts");
    if (test_db_pg())
        sql_check("SELECT count(*) = 0 FROM information_schema.columns WHERE table_schema ="
                  " current_schema() AND data_type = 'text' AND collation_name IS DISTINCT FROM"
                  " 'C'");
}
END_TEST

/* Duellists (migration 6): the abilities in their columns, the equipment
 * by name with its conditions, back whole; a bout's sheets carry it; a
 * kit the code does not know is refused on read. */
START_TEST(test_fighter_duel_kit)
{
    struct db_fighter f, g;
    int64_t owner = account("smith");

    memset(&f, 0, sizeof(f));
    f.account_id = owner;
    snprintf(f.name, sizeof(f.name), "Conan");
    f.sheet.rules = RULES_DUEL;
    f.sheet.u.duel = (struct duel_sheet){
        18,
        14,
        14,
        10,
        {DUEL_LONGSWORD, DUEL_PLATE, DUEL_LEATHER, DUEL_CHAINMAIL, 0, 0, DUEL_LEATHER},
        {987654, DUEL_COND_FULL, 1, 500000, 0, 0, 250000}};
    f.created = 2000;
    ck_assert_int_eq(db_fighter_create(db, "conan", &f), DB_OK);
    sql_check("SELECT dex = 14 AND con = 14 AND intel = 10 AND spd IS NULL AND kit = "
              "'weapon=longsword:987654 head=plate:1000000 torso=leather:1 under=chainmail:500000 "
              "shield=leather:250000' FROM fighters WHERE key = 'conan'");
    ck_assert_int_eq(db_fighter_get(db, "conan", &g), DB_OK);
    ck_assert_mem_eq(&g.sheet, &f.sheet, sizeof(f.sheet));
    /* Worn in a duel: saved. */
    g.sheet.u.duel.item[DUEL_SHIELD] = 0;
    g.sheet.u.duel.cond[DUEL_SHIELD] = 0;
    g.sheet.u.duel.cond[DUEL_WEAPON] = 5;
    ck_assert_int_eq(db_fighter_save(db, &g), DB_OK);
    reopen();
    ck_assert_int_eq(db_fighter_get(db, "conan", &f), DB_OK);
    ck_assert_mem_eq(&g.sheet, &f.sheet, sizeof(f.sheet));
    /* A bout keeps the sheets with their equipment. */
    struct db_fighter h = f;
    h.sheet.u.duel = (struct duel_sheet){14, 20, 12, 10, {DUEL_MACE}, {DUEL_COND_FULL}};
    ck_assert_int_eq(db_fighter_create(db, "bob", &h), DB_OK);
    struct db_bout b, c;
    memset(&b, 0, sizeof(b));
    b.rules = RULES_DUEL;
    snprintf(b.channel, sizeof(b.channel), "#ring");
    b.rounds = DUEL_ROUNDS;
    b.fighter[0] = f.id;
    b.fighter[1] = h.id;
    b.sheet[0] = f.sheet;
    b.sheet[1] = h.sheet;
    b.winner = -1;
    b.created = 3000;
    ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
    ck_assert_mem_eq(&c.sheet[0], &f.sheet, sizeof(f.sheet));
    ck_assert_mem_eq(&c.sheet[1], &h.sheet, sizeof(h.sheet));
    sql_check("SELECT sheet_b = '14 20 12 10 weapon=mace:1000000' FROM bouts");
    /* Equipment this ringside does not know: refused, never garbage. */
    static const char *const bad[] = {"weapon=spoon:5",
                                      "weapon=mace:0",
                                      "weapon=mace",
                                      "hat=plate:5",
                                      "weapon=mace:5 weapon=knife:5",
                                      "weapon=mace:1000001",
                                      "head=longsword:5"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char sql[256];
        snprintf(sql, sizeof(sql), "UPDATE fighters SET kit = '%s' WHERE key = 'bob'", bad[i]);
        sql_force(sql);
        ck_assert_int_eq(db_fighter_get(db, "bob", &g), DB_ERROR);
        ck_assert_msg(strstr(db_errmsg(db), "has equipment"), "%s: %s", bad[i], db_errmsg(db));
    }
}
END_TEST

/* Two boxers of a fresh account; their ids in id[0], id[1]. */
static void two_boxers(int64_t id[SIDES])
{
    struct db_fighter f;
    int64_t owner = account("promoter");

    f = boxer(owner, "Red", 12, 12, 12, 12, 12);
    ck_assert_int_eq(db_fighter_create(db, "red", &f), DB_OK);
    id[0] = f.id;
    f = boxer(owner, "Blue", 13, 13, 13, 13, 13);
    ck_assert_int_eq(db_fighter_create(db, "blue", &f), DB_OK);
    id[1] = f.id;
}

/* A challenge between id[0] and id[1], not yet stored. */
static struct db_bout challenge(const int64_t id[SIDES])
{
    struct db_bout b;

    memset(&b, 0, sizeof(b));
    b.rules = RULES_BOXING;
    snprintf(b.channel, sizeof(b.channel), "#ring");
    b.rounds = 12;
    b.state = DB_BOUT_CHALLENGE;
    b.fighter[0] = id[0];
    b.fighter[1] = id[1];
    for (int i = 0; i < SIDES; i++) {
        b.sheet[i].rules = RULES_BOXING;
        b.sheet[i].u.boxing = (struct boxing_sheet){12 + i, 12, 12, 12, 12 - i};
    }
    b.winner = -1;
    b.created = 3000;
    return b;
}

/* A stored challenge between two fresh boxers. */
static struct db_bout stored_bout(void)
{
    int64_t id[SIDES];
    struct db_bout b;

    two_boxers(id);
    b = challenge(id);
    ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
    ck_assert_int_gt(b.id, 0);
    return b;
}

/* db_fighter_remove: a fighter nothing refers to goes with his plan, in
 * the caller's transaction, and is counted gone; one a bout (a challenge
 * even) refers to stays as he was. */
START_TEST(test_fighter_remove)
{
    struct db_fighter f, g;
    int64_t owner = account("bob"), gone = -1;

    f = boxer(owner, "Fresh", 12, 12, 12, 12, 12);
    ck_assert_int_eq(db_fighter_create(db, "fresh", &f), DB_OK);
    ck_assert_int_eq(db_plan_set(db, f.id, "5/5/10", 5), DB_OK);
    ck_assert_int_eq(db_fighter_gone(db, &gone), DB_OK);
    ck_assert_int_eq(gone, 0);
    ck_assert_int_eq(db_begin(db), DB_OK);
    ck_assert_int_eq(db_fighter_remove(db, f.id), DB_OK);
    ck_assert_int_eq(db_rollback(db), DB_OK); /* the caller's transaction */
    ck_assert_int_eq(db_fighter_get(db, "fresh", &g), DB_OK);
    ck_assert_int_eq(db_begin(db), DB_OK);
    ck_assert_int_eq(db_fighter_remove(db, f.id), DB_OK);
    ck_assert_int_eq(db_commit(db), DB_OK);
    ck_assert_int_eq(db_fighter_get(db, "fresh", &g), DB_NOTFOUND);
    ck_assert_int_eq(db_fighter_gone(db, &gone), DB_OK);
    ck_assert_int_eq(gone, 1);
    ck_assert_int_eq(db_fighter_remove(db, f.id), DB_NOTFOUND);

    struct db_bout b = stored_bout();
    for (int s = 0; s < SIDES; s++) {
        ck_assert_int_eq(db_fighter_remove(db, b.fighter[s]), DB_EXISTS);
        ck_assert_int_eq(db_fighter_get_id(db, b.fighter[s], &g), DB_OK);
        ck_assert_int_eq(g.retired, 0);
    }
    ck_assert_int_eq(db_fighter_gone(db, &gone), DB_OK);
    ck_assert_int_eq(gone, 1);
}
END_TEST

/* Every table that refers to a fighter is one db_fighter_remove looks in
 * (fighter_refs_sql) or, for plans, deletes from: a new one must be added
 * there (else removing a fighter it names fails on its foreign key). */
START_TEST(test_fighter_references)
{
    TEST_DB_SQLITE_ONLY("the schema read from SQLite's catalogue");
    struct dbs *q = dbs_prepare(db, "SELECT group_concat(name, ',') FROM (SELECT DISTINCT m.name"
                                    " FROM sqlite_master m, pragma_foreign_key_list(m.name) k"
                                    " WHERE m.type = 'table' AND k.\"table\" = 'fighters'"
                                    " ORDER BY m.name)");
    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    ck_assert_str_eq(dbs_col_text(q, 0),
                     "bouts,champions,hall_of_fame,plans,rating_history,ratings,season_standings,"
                     "tournament_bouts,tournament_entries,tournaments");
    dbs_free(q);
}
END_TEST

static struct db_order order(int round, int side, const char *text, enum db_order_source source,
                             int line)
{
    struct db_order o;

    memset(&o, 0, sizeof(o));
    o.round = round;
    o.side = side;
    snprintf(o.text, sizeof(o.text), "%s", text);
    o.source = source;
    o.line = line;
    return o;
}

static void bout_eq(const struct db_bout *a, const struct db_bout *b)
{
    ck_assert_int_eq(a->id, b->id);
    ck_assert_int_eq(a->rules, b->rules);
    ck_assert_str_eq(a->channel, b->channel);
    ck_assert_int_eq(a->rounds, b->rounds);
    ck_assert_uint_eq(a->seed, b->seed);
    ck_assert_int_eq(a->state, b->state);
    ck_assert_int_eq(a->fighter[0], b->fighter[0]);
    ck_assert_int_eq(a->fighter[1], b->fighter[1]);
    ck_assert_int_eq(a->round, b->round);
    ck_assert_int_eq(a->winner, b->winner);
    ck_assert_int_eq(a->method, b->method);
    ck_assert_int_eq(a->drawn_by, b->drawn_by);
    ck_assert_int_eq(a->reason, b->reason);
    ck_assert_int_eq(a->decision, b->decision);
    ck_assert_int_eq(a->created, b->created);
    ck_assert_int_eq(a->started, b->started);
    ck_assert_int_eq(a->ended, b->ended);
    ck_assert_int_eq(a->kind, b->kind);
    ck_assert_int_eq(a->turn, b->turn);
    ck_assert_int_eq(a->league, b->league);
    for (int i = 0; i < SIDES; i++) {
        ck_assert_int_eq(a->sheet[i].rules, b->sheet[i].rules);
        if (a->sheet[i].rules == RULES_BOXING)
            ck_assert_mem_eq(&a->sheet[i].u.boxing, &b->sheet[i].u.boxing,
                             sizeof(a->sheet[i].u.boxing));
        else
            ck_assert_mem_eq(&a->sheet[i].u.sugarray, &b->sheet[i].u.sugarray,
                             sizeof(a->sheet[i].u.sugarray));
    }
}

START_TEST(test_migrate_v1_to_v2)
{
    TEST_DB_SQLITE_ONLY("a migration of an old SQLite file");
    char err[512] = "";
    struct db_account a;
    struct db_fighter f;

    ck_assert_int_ge(db_schema_latest(), 2);
    /* A version-1 file, made by migration 1 alone, with rows as version 1
     * wrote them. */
    db_close(db);
    db = NULL;
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_msg(
        db_test_file(path, 1,
                     "INSERT INTO accounts (id, key, name, hash, banned, created)"
                     " VALUES (1, 'bob', 'Bob', '$y$h', 1, 100);"
                     "INSERT INTO fighters (id, account_id, key, name, rules, str, spd, agl, tgh,"
                     " hgt, wins, losses, kos, created)"
                     " VALUES (7, 1, 'iron', 'Iron', 'boxing', 20, 10, 10, 15, 5, 3, 1, 2, 200);"
                     "INSERT INTO fighters (id, account_id, key, name, rules, str, spd, agl, tgh,"
                     " hgt, retired, created)"
                     " VALUES (8, 1, 'stone', 'Stone', 'boxing', 12, 12, 12, 12, 12, 1, 300);"
                     "INSERT INTO fighters (id, account_id, key, name, rules, skill, endurance,"
                     " created) VALUES (9, 1, 'murphy', 'Murphy', 'sugarray', 12, 21, 400);",
                     err, sizeof(err)) == DB_OK,
        "%s", err);
    ck_assert_int_eq(header_version(), 1);
    /* Version 1 has no bouts, and a file is not taken down a version. */
    ck_assert_int_eq(db_test_file(path, 1, "SELECT * FROM bouts", err, sizeof(err)), DB_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "no such table: bouts"));
    ck_assert_int_eq(db_test_file(path, 0, NULL, err, sizeof(err)), DB_ERROR);
    ck_assert_int_eq(db_test_file(path, db_schema_latest() + 1, NULL, err, sizeof(err)), DB_ERROR);
    ck_assert_int_eq(header_version(), 1);

    reopen();
    ck_assert_int_eq(db_schema_version(db), db_schema_latest());
    ck_assert_int_eq(db_account_get(db, "bob", &a), DB_OK);
    ck_assert_int_eq(a.id, 1);
    ck_assert_str_eq(a.name, "Bob");
    ck_assert_str_eq(a.hash, "$y$h");
    ck_assert_int_eq(a.banned, 1);
    ck_assert_int_eq(a.created, 100);
    ck_assert_int_eq(db_fighter_get(db, "iron", &f), DB_OK);
    ck_assert_int_eq(f.id, 7);
    ck_assert_str_eq(f.owner, "Bob");
    ck_assert_int_eq(f.sheet.u.boxing.str, 20);
    ck_assert_int_eq(f.sheet.u.boxing.hgt, 5);
    ck_assert_int_eq(f.wins, 3);
    ck_assert_int_eq(f.losses, 1);
    ck_assert_int_eq(f.kos, 2);
    ck_assert_int_eq(db_fighter_get_id(db, 8, &f), DB_OK);
    ck_assert_str_eq(f.name, "Stone");
    ck_assert_int_eq(f.retired, 1);
    ck_assert_int_eq(db_fighter_get_id(db, 9, &f), DB_OK);
    ck_assert_int_eq(f.sheet.rules, RULES_SUGARRAY);
    ck_assert_int_eq(f.sheet.u.sugarray.endurance, 21);

    /* The new tables work with the old rows. */
    const int64_t id[SIDES] = {7, 8};
    struct db_bout b = challenge(id), c;
    ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
    bout_eq(&b, &c);
    ck_assert_int_eq(db_plan_set(db, 9, "5/5/10", 500), DB_OK);
    /* Ids go on after the old rows. */
    int64_t carol = account("carol");
    ck_assert_int_eq(carol, 2);

    /* Opening again migrates nothing. */
    reopen();
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
    ck_assert_int_eq(db_schema_version(db), db_schema_latest());
}
END_TEST

/* Migration 9: a version-8 file gets the counts of how wins ended, 0 for
 * every fighter, its records intact (its kos are what it counted as KOs:
 * they cannot be split); the counts are written and read back. */
START_TEST(test_migrate_v8_to_v9)
{
    TEST_DB_SQLITE_ONLY("a migration of an old SQLite file");
    char err[512] = "";
    struct db_fighter f;

    ck_assert_int_ge(db_schema_latest(), 9);
    db_close(db);
    db = NULL;
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_msg(
        db_test_file(path, 8,
                     "INSERT INTO accounts (id, key, name, hash, banned, created)"
                     " VALUES (1, 'bob', 'Bob', '$y$h', 0, 100);"
                     "INSERT INTO fighters (id, account_id, key, name, rules, str, spd, agl, tgh,"
                     " hgt, wins, losses, draws, kos, training_points, created)"
                     " VALUES (7, 1, 'iron', 'Iron', 'boxing', 12, 12, 12, 12, 12, 5, 2, 1, 4, 3,"
                     " 200);",
                     err, sizeof(err)) == DB_OK,
        "%s", err);
    ck_assert_int_eq(header_version(), 8);
    ck_assert_int_eq(db_test_file(path, 8, "SELECT tkos FROM fighters", err, sizeof(err)),
                     DB_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "no such column: tkos"));

    reopen();
    ck_assert_int_eq(db_schema_version(db), db_schema_latest());
    ck_assert_int_eq(db_fighter_get(db, "iron", &f), DB_OK);
    ck_assert_int_eq(f.wins, 5);
    ck_assert_int_eq(f.losses, 2);
    ck_assert_int_eq(f.draws, 1);
    ck_assert_int_eq(f.kos, 4);
    ck_assert_int_eq(f.training_points, 3);
    ck_assert_int_eq(f.tkos + f.towels + f.dqs + f.forfeits, 0);

    f.wins += 4;
    f.tkos = 1;
    f.towels = 2;
    f.dqs = 3;
    f.forfeits = 4;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    reopen();
    ck_assert_int_eq(db_fighter_get_id(db, 7, &f), DB_OK);
    ck_assert_int_eq(f.wins, 9);
    ck_assert_int_eq(f.kos, 4);
    ck_assert_int_eq(f.tkos, 1);
    ck_assert_int_eq(f.towels, 2);
    ck_assert_int_eq(f.dqs, 3);
    ck_assert_int_eq(f.forfeits, 4);
    /* A negative count is refused by the schema. */
    ck_assert_int_eq(
        db_test_file(path, db_schema_latest(), "UPDATE fighters SET dqs = -1", err, sizeof(err)),
        DB_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "CHECK"));
}
END_TEST

/* ----------------------------------------------------------------- bouts */

START_TEST(test_fighter_get_id)
{
    struct db_fighter f, g;
    int64_t owner = account("bob");

    f = sugar(owner, "Murphy", 12, 21);
    ck_assert_int_eq(db_fighter_create(db, "murphy", &f), DB_OK);
    ck_assert_int_eq(db_fighter_get_id(db, f.id, &g), DB_OK);
    ck_assert_int_eq(g.id, f.id);
    ck_assert_int_eq(g.account_id, owner);
    ck_assert_str_eq(g.owner, "bob");
    ck_assert_str_eq(g.name, "Murphy");
    ck_assert_int_eq(g.sheet.rules, RULES_SUGARRAY);
    ck_assert_int_eq(g.sheet.u.sugarray.skill, 12);
    ck_assert_int_eq(g.sheet.u.sugarray.endurance, 21);
    ck_assert_int_eq(db_fighter_get_id(db, f.id + 1, &g), DB_NOTFOUND);
    ck_assert_int_eq(db_fighter_get_id(db, -1, &g), DB_NOTFOUND);
}
END_TEST

START_TEST(test_bout_create_get)
{
    int64_t id[SIDES];
    struct db_bout b, c;

    two_boxers(id);
    b = challenge(id);
    ck_assert_int_eq(db_bout_get(db, 1, &c), DB_NOTFOUND);
    ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
    ck_assert_int_gt(b.id, 0);
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
    bout_eq(&b, &c);
    ck_assert_int_eq(db_bout_get(db, b.id + 1, &c), DB_NOTFOUND);

    /* Every field as given, a finished SUGAR RAY bout included. */
    struct db_fighter f;
    f = sugar(account("alice"), "Murphy", 12, 21);
    ck_assert_int_eq(db_fighter_create(db, "murphy", &f), DB_OK);
    struct db_fighter g = sugar(f.account_id, "Miller", 10, 26);
    ck_assert_int_eq(db_fighter_create(db, "miller", &g), DB_OK);
    memset(&b, 0, sizeof(b));
    b.rules = RULES_SUGARRAY;
    snprintf(b.channel, sizeof(b.channel), "#sugar'ray");
    b.rounds = 10;
    b.seed = 0xfedcba9876543210u;
    b.state = DB_BOUT_OVER;
    b.fighter[0] = g.id;
    b.fighter[1] = f.id;
    b.sheet[0] = g.sheet;
    b.sheet[1] = f.sheet;
    b.round = 7;
    b.winner = 1;
    b.method = METHOD_TKO;
    b.drawn_by = METHOD_NONE;
    b.reason = TKO_BROKEN_JAW;
    b.decision = DECISION_NONE;
    b.created = 10;
    b.started = 20;
    b.ended = 30;
    ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
    bout_eq(&b, &c);
    /* Enums are stored by name. */
    char cond[256];
    snprintf(cond, sizeof(cond),
             "SELECT state = 'over' AND method = 'tko' AND reason = 'broken_jaw' AND"
             " rules = 'sugarray' FROM bouts WHERE id = %lld",
             (long long)b.id);
    sql_check(cond);
}
END_TEST

START_TEST(test_bout_seed_bits)
{
    static const uint64_t seeds[] = {
        0,
        1,
        0x7fffffffffffffffu,
        0x8000000000000000u, /* 2^63 */
        0x8000000000000001u,
        0xdeadbeefcafebabeu,
        0xfffffffffffffffeu,
        0xffffffffffffffffu, /* 2^64 - 1 */
    };
    const int count = (int)(sizeof(seeds) / sizeof(seeds[0]));
    int64_t id[SIDES], bout[16];
    struct db_bout b, c;

    two_boxers(id);
    for (int i = 0; i < count; i++) {
        /* Stored at creation. */
        b = challenge(id);
        b.seed = seeds[i];
        ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
        bout[i] = b.id;
        ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
        ck_assert_uint_eq(c.seed, seeds[i]);
        /* And by a save, over another seed. */
        b = challenge(id);
        b.seed = ~seeds[i];
        ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
        b.seed = seeds[i];
        b.state = DB_BOUT_LIVE;
        ck_assert_int_eq(db_bout_save(db, &b), DB_OK);
        ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
        ck_assert_uint_eq(c.seed, seeds[i]);
    }
    /* From the file, in a new connection; as the bit pattern in SQL. */
    reopen();
    for (int i = 0; i < count; i++) {
        ck_assert_int_eq(db_bout_get(db, bout[i], &c), DB_OK);
        ck_assert_uint_eq(c.seed, seeds[i]);
    }
    char cond[128];
    snprintf(cond, sizeof(cond),
             "(SELECT seed FROM bouts WHERE id = %lld) = -9223372036854775807 - 1",
             (long long)bout[3]);
    sql_check(cond);
    snprintf(cond, sizeof(cond), "(SELECT seed FROM bouts WHERE id = %lld) = -1",
             (long long)bout[count - 1]);
    sql_check(cond);
}
END_TEST

START_TEST(test_bout_refused)
{
    int64_t id[SIDES];
    struct db_bout b;
    char channel[DB_CHANNEL_MAX + 1];

    two_boxers(id);
    /* A fighter that does not exist. */
    b = challenge(id);
    b.fighter[1] = id[1] + 100;
    ck_assert_int_eq(db_bout_create(db, &b), DB_NOTFOUND);
    b = challenge(id);
    b.fighter[0] = 0;
    ck_assert_int_eq(db_bout_create(db, &b), DB_NOTFOUND);
    /* Out of range, one at a time. */
    b = challenge(id);
    b.fighter[1] = id[0];
    ck_assert_int_eq(db_bout_create(db, &b), DB_ERROR);
    ck_assert_ptr_nonnull(strstr(db_errmsg(db), "two_fighters"));
    b = challenge(id);
    b.rules = RULES_COUNT;
    ck_assert_int_eq(db_bout_create(db, &b), DB_ERROR);
    b = challenge(id);
    b.channel[0] = '\0';
    ck_assert_int_eq(db_bout_create(db, &b), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "bout channel is empty");
    b = challenge(id);
    b.rounds = 0;
    ck_assert_int_eq(db_bout_create(db, &b), DB_ERROR);
    b = challenge(id);
    b.round = 13;
    ck_assert_int_eq(db_bout_create(db, &b), DB_ERROR);
    b = challenge(id);
    b.round = -1;
    ck_assert_int_eq(db_bout_create(db, &b), DB_ERROR);
    b = challenge(id);
    b.winner = 2;
    ck_assert_int_eq(db_bout_create(db, &b), DB_ERROR);
    b = challenge(id);
    b.state = (enum db_bout_state)4;
    ck_assert_int_eq(db_bout_create(db, &b), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "bout 0: state 4 is out of range");
    b = challenge(id);
    b.state = (enum db_bout_state) - 1;
    ck_assert_int_eq(db_bout_create(db, &b), DB_ERROR);
    b = challenge(id);
    b.method = (enum method)(METHOD_DRAW + 1);
    ck_assert_int_eq(db_bout_create(db, &b), DB_ERROR);
    b = challenge(id);
    b.drawn_by = (enum method)(METHOD_DRAW + 1);
    ck_assert_int_eq(db_bout_create(db, &b), DB_ERROR);
    b = challenge(id);
    b.reason = (enum tko_reason)(TKO_TOWEL + 1);
    ck_assert_int_eq(db_bout_create(db, &b), DB_ERROR);
    b = challenge(id);
    b.decision = (enum decision)(DECISION_MAJORITY + 1);
    ck_assert_int_eq(db_bout_create(db, &b), DB_ERROR);
    /* The channel fits its buffer with the NUL, else it is refused. */
    memset(channel, 'c', sizeof(channel) - 1);
    channel[sizeof(channel) - 1] = '\0';
    b = challenge(id);
    memcpy(b.channel, channel, DB_CHANNEL_MAX - 1);
    b.channel[DB_CHANNEL_MAX - 1] = '\0';
    ck_assert_int_eq(db_bout_create(db, &b), DB_OK);

    /* Nothing but the last one was stored. */
    struct db_bout out[4];
    int n = -1;
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_CHALLENGE, out, 4, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(out[0].id, b.id);
    ck_assert_int_eq((int)strlen(out[0].channel), DB_CHANNEL_MAX - 1);

    /* A save with out of range values changes nothing. */
    struct db_bout c = b;
    c.state = DB_BOUT_LIVE;
    c.round = 13;
    ck_assert_int_eq(db_bout_save(db, &c), DB_ERROR);
    c.round = 1;
    c.reason = (enum tko_reason)99;
    ck_assert_int_eq(db_bout_save(db, &c), DB_ERROR);
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
    bout_eq(&b, &c);
}
END_TEST

START_TEST(test_bout_save)
{
    struct db_bout b = stored_bout(), c, d;

    c = b;
    c.state = DB_BOUT_LIVE;
    c.seed = 0x8000000000000000u;
    c.started = 4000;
    c.round = 3;
    ck_assert_int_eq(db_bout_save(db, &c), DB_OK);
    ck_assert_int_eq(db_bout_get(db, b.id, &d), DB_OK);
    bout_eq(&c, &d);

    c.state = DB_BOUT_OVER;
    c.round = 12;
    c.winner = -1;
    c.method = METHOD_DRAW;
    c.drawn_by = METHOD_DECISION;
    c.decision = DECISION_SPLIT;
    c.ended = 5000;
    /* What never changes is not written. */
    struct db_bout e = c;
    snprintf(e.channel, sizeof(e.channel), "#elsewhere");
    e.rules = RULES_SUGARRAY;
    e.rounds = 3;
    e.fighter[0] = 999;
    e.created = 1;
    ck_assert_int_eq(db_bout_save(db, &e), DB_OK);
    ck_assert_int_eq(db_bout_get(db, b.id, &d), DB_OK);
    bout_eq(&c, &d);
    /* Saved again: still found. */
    ck_assert_int_eq(db_bout_save(db, &c), DB_OK);

    c.id = b.id + 100;
    ck_assert_int_eq(db_bout_save(db, &c), DB_NOTFOUND);
}
END_TEST

START_TEST(test_bout_list)
{
    int64_t id[SIDES];
    struct db_bout b, out[8];
    /* Created at 30, 10, 20, 10: listed by time, then by id. */
    const int64_t created[5] = {30, 10, 20, 10, 5};
    int64_t bid[5];
    int n = -1;

    two_boxers(id);
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_CHALLENGE, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    for (int i = 0; i < 5; i++) {
        b = challenge(id);
        b.created = created[i];
        b.state = i == 4 ? DB_BOUT_LIVE : DB_BOUT_CHALLENGE;
        ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
        bid[i] = b.id;
    }
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_CHALLENGE, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(out[0].id, bid[1]);
    ck_assert_int_eq(out[1].id, bid[3]);
    ck_assert_int_eq(out[2].id, bid[2]);
    ck_assert_int_eq(out[3].id, bid[0]);
    ck_assert_int_eq(out[3].created, 30);
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_LIVE, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(out[0].id, bid[4]);
    ck_assert_int_eq(out[0].state, DB_BOUT_LIVE);
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_OVER, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 0);

    /* max caps the count. */
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_CHALLENGE, out, 2, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(out[1].id, bid[3]);
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_CHALLENGE, out, 0, &n), DB_OK);
    ck_assert_int_eq(n, 0);

    /* A bout moves between lists when saved. */
    ck_assert_int_eq(db_bout_get(db, bid[1], &b), DB_OK);
    b.state = DB_BOUT_CANCELLED;
    b.ended = 40;
    ck_assert_int_eq(db_bout_save(db, &b), DB_OK);
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_CHALLENGE, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(out[0].id, bid[3]);
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_CANCELLED, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(out[0].id, bid[1]);

    ck_assert_int_eq(db_bout_list(db, (enum db_bout_state)7, out, 8, &n), DB_ERROR);
    ck_assert_int_eq(n, 0);
}
END_TEST

/* The web pages' lists: a fighter's bouts fought or live, and finished
 * bouts of a ruleset and kind, the last to end first. */
START_TEST(test_bout_lists_for_pages)
{
    int64_t id[SIDES];
    struct db_bout b, out[8];
    int64_t bid[5];
    int n = -1;
    /* challenge, live, over exhibition, over title, cancelled */
    const enum db_bout_state states[5] = {DB_BOUT_CHALLENGE, DB_BOUT_LIVE, DB_BOUT_OVER,
                                          DB_BOUT_OVER, DB_BOUT_CANCELLED};

    two_boxers(id);
    for (int i = 0; i < 5; i++) {
        b = challenge(id);
        b.state = states[i];
        b.kind = i == 3 ? DB_BOUT_TITLE : DB_BOUT_EXHIBITION;
        b.turn = i == 3 ? 1 : 0;
        ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
        bid[i] = b.id;
    }
    ck_assert_int_eq(db_bout_list_fighter(db, id[1], out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(out[0].id, bid[1]); /* live first */
    ck_assert_int_eq(out[1].id, bid[3]);
    ck_assert_int_eq(out[2].id, bid[2]);
    ck_assert_int_eq(db_bout_list_fighter(db, id[0], out, 1, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(db_bout_list_fighter(db, 999, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 0);

    ck_assert_int_eq(db_bout_list_over(db, -1, -1, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(out[0].id, bid[3]);
    ck_assert_int_eq(db_bout_list_over(db, RULES_BOXING, DB_BOUT_TITLE, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(out[0].id, bid[3]);
    ck_assert_int_eq(out[0].kind, DB_BOUT_TITLE);
    ck_assert_int_eq(db_bout_list_over(db, RULES_SUGARRAY, -1, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(db_bout_list_over(db, -1, 9, out, 8, &n), DB_ERROR);
    ck_assert_int_eq(n, 0);
    /* By when they ended, not by number: the older bout ends last. */
    ck_assert_int_eq(db_bout_get(db, bid[2], &b), DB_OK);
    b.ended = 2000;
    ck_assert_int_eq(db_bout_save(db, &b), DB_OK);
    ck_assert_int_eq(db_bout_get(db, bid[3], &b), DB_OK);
    b.ended = 1000;
    ck_assert_int_eq(db_bout_save(db, &b), DB_OK);
    ck_assert_int_eq(db_bout_list_over(db, -1, -1, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(out[0].id, bid[2]);
    ck_assert_int_eq(out[1].id, bid[3]);
    ck_assert_int_eq(db_bout_list_fighter(db, id[1], out, 8, &n), DB_OK);
    ck_assert_int_eq(out[1].id, bid[2]);
    ck_assert_int_eq(out[2].id, bid[3]);
}
END_TEST

/* A reader's view: read transactions on a read-only connection, and
 * data_version moving only when another connection commits. */
START_TEST(test_reader_transactions_and_data_version)
{
    char err[256];
    struct db_account a;

    account("carol");
    struct db *ro = test_db_open_readonly(path, err, sizeof(err));
    ck_assert_msg(ro != NULL, "%s", err);
    long long v0 = db_data_version(ro);
    ck_assert_int_ge(v0, 0);
    /* Reading changes nothing. On PostgreSQL data_version is the server's
     * WAL position (sql_pg.c), which other tests' writes on the same
     * server move too: there it only has to move after a commit. */
    if (!test_db_pg())
        ck_assert_int_eq(db_data_version(ro), v0);
    ck_assert_int_eq(db_read_begin(ro), DB_OK);
    ck_assert_int_eq(db_read_begin(ro), DB_ERROR); /* not nested */
    ck_assert_int_eq(db_account_get(ro, "carol", &a), DB_OK);
    /* Another connection commits while the read transaction holds its
     * snapshot: the reader sees the file as it was. */
    account("dave");
    ck_assert_int_eq(db_account_get(ro, "dave", &a), DB_NOTFOUND);
    ck_assert_int_eq(db_read_end(ro), DB_OK);
    ck_assert_int_eq(db_read_end(ro), DB_ERROR);
    ck_assert_int_eq(db_account_get(ro, "dave", &a), DB_OK);
    ck_assert_int_ne(db_data_version(ro), v0);
    /* A read-only connection cannot write. */
    ck_assert_int_eq(db_account_create(ro, "eve", "eve", "$y$x", 1, NULL), DB_ERROR);
    db_close(ro);
}
END_TEST

/* ---------------------------------------------------------------- orders */

START_TEST(test_order_put_list)
{
    struct db_bout b = stored_bout();
    struct db_order o, out[8];
    int n = -1;

    ck_assert_int_eq(db_order_list(db, b.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    /* Stored out of order, listed by round then side. */
    o = order(2, 1, "4/6/10", DB_ORDER_PLAN, 3);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    o = order(1, 1, "5/5/10", DB_ORDER_DEFAULT, 0);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    o = order(2, 0, "5H/8!/7 (ins)", DB_ORDER_LAST, 0);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    o = order(1, 0, "6/4/10", DB_ORDER_PLAYER, 0);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    ck_assert_int_eq(db_order_list(db, b.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(out[0].round, 1);
    ck_assert_int_eq(out[0].side, 0);
    ck_assert_str_eq(out[0].text, "6/4/10");
    ck_assert_int_eq(out[0].source, DB_ORDER_PLAYER);
    ck_assert_int_eq(out[1].round, 1);
    ck_assert_int_eq(out[1].side, 1);
    ck_assert_int_eq(out[1].source, DB_ORDER_DEFAULT);
    ck_assert_int_eq(out[2].round, 2);
    ck_assert_int_eq(out[2].side, 0);
    ck_assert_str_eq(out[2].text, "5H/8!/7 (ins)");
    ck_assert_int_eq(out[2].source, DB_ORDER_LAST);
    ck_assert_int_eq(out[3].round, 2);
    ck_assert_int_eq(out[3].side, 1);
    ck_assert_str_eq(out[3].text, "4/6/10");
    ck_assert_int_eq(out[3].source, DB_ORDER_PLAN);
    ck_assert_int_eq(out[3].line, 3);

    /* An upsert: the same round and side replace what was there. */
    o = order(2, 1, "3/7/10", DB_ORDER_PLAYER, 0);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    ck_assert_int_eq(db_order_list(db, b.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 4);
    ck_assert_str_eq(out[3].text, "3/7/10");
    ck_assert_int_eq(out[3].source, DB_ORDER_PLAYER);
    ck_assert_int_eq(out[3].line, 0);
    /* max caps the count. */
    ck_assert_int_eq(db_order_list(db, b.id, out, 3, &n), DB_OK);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(out[2].round, 2);
    ck_assert_int_eq(out[2].side, 0);
    ck_assert_int_eq(db_order_list(db, b.id, out, 0, &n), DB_OK);
    ck_assert_int_eq(n, 0);

    /* Each bout has its own. */
    struct db_bout c = b;
    ck_assert_int_eq(db_bout_create(db, &c), DB_OK);
    o = order(1, 0, "1/9/10", DB_ORDER_PLAYER, 0);
    ck_assert_int_eq(db_order_put(db, c.id, &o), DB_OK);
    ck_assert_int_eq(db_order_list(db, c.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(out[0].text, "1/9/10");
    ck_assert_int_eq(db_order_list(db, b.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(db_order_list(db, c.id + 100, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(test_order_refused)
{
    struct db_bout b = stored_bout();
    struct db_order o, out[4];
    char longest[DB_ORDER_MAX];
    int n = -1;

    o = order(1, 0, "5/5/10", DB_ORDER_PLAYER, 0);
    ck_assert_int_eq(db_order_put(db, b.id + 100, &o), DB_NOTFOUND);
    o = order(0, 0, "5/5/10", DB_ORDER_PLAYER, 0);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_ERROR);
    o = order(1, 2, "5/5/10", DB_ORDER_PLAYER, 0);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_ERROR);
    o = order(1, -1, "5/5/10", DB_ORDER_PLAYER, 0);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_ERROR);
    o = order(1, 0, "", DB_ORDER_PLAYER, 0);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "order text is empty");
    o = order(1, 0, "5/5/10", (enum db_order_source)4, 0);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_ERROR);
    o = order(1, 0, "5/5/10", DB_ORDER_PLAYER, 2);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_ERROR);
    ck_assert_ptr_nonnull(strstr(db_errmsg(db), "line_of_plan"));
    o = order(1, 0, "5/5/10", DB_ORDER_PLAN, -1);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_ERROR);
    /* The longest text that fits the struct (a longer one cannot). */
    memset(longest, 'o', sizeof(longest) - 1);
    longest[sizeof(longest) - 1] = '\0';
    o = order(1, 0, longest, DB_ORDER_PLAYER, 0);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    ck_assert_int_eq(db_order_list(db, b.id, out, 4, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(out[0].text, longest);
}
END_TEST

/* ---------------------------------------------------------------- rounds */

START_TEST(test_round_digest)
{
    struct db_bout b = stored_bout(), c;
    char out[DB_REPORT_MAX];
    uint64_t d = 7;

    ck_assert_int_eq(db_round_digest(db, b.id, 1, &d), DB_NOTFOUND);
    ck_assert_uint_eq(d, 7); /* untouched */
    ck_assert_int_eq(db_round_put(db, b.id, 1, 0x0123456789abcdefULL), DB_OK);
    ck_assert_int_eq(db_round_digest(db, b.id, 1, &d), DB_OK);
    ck_assert_uint_eq(d, 0x0123456789abcdefULL);
    /* Bit for bit, the high bit included; replaced by a second put. */
    ck_assert_int_eq(db_round_put(db, b.id, 1, UINT64_MAX - 1), DB_OK);
    ck_assert_int_eq(db_round_digest(db, b.id, 1, &d), DB_OK);
    ck_assert_uint_eq(d, UINT64_MAX - 1);
    char cond[128];
    snprintf(cond, sizeof(cond),
             "SELECT count(*) = 1 AND max(report) = '' FROM rounds WHERE bout = %lld",
             (long long)b.id);
    sql_check(cond);
    /* A round stored since schema 4 has no report text: it is derived. */
    ck_assert_int_eq(db_round_report(db, b.id, 1, out, sizeof(out)), DB_OK);
    ck_assert_str_eq(out, "");
    ck_assert_int_eq(db_round_digest(db, b.id, 2, &d), DB_NOTFOUND);
    ck_assert_int_eq(db_round_digest(db, b.id + 1, 1, &d), DB_NOTFOUND);
    ck_assert_int_eq(db_round_put(db, b.id + 100, 1, 1), DB_NOTFOUND);
    ck_assert_int_eq(db_round_put(db, b.id, 0, 1), DB_ERROR);

    /* A round stored before (schema 3) has its report and no digest. */
    snprintf(cond, sizeof(cond),
             "INSERT INTO rounds (bout, round, summary, report) VALUES (%lld, 2, 's', 'r');",
             (long long)b.id);
    sql_force(cond);
    ck_assert_int_eq(db_round_digest(db, b.id, 2, &d), DB_NOTFOUND);
    ck_assert_int_eq(db_round_report(db, b.id, 2, out, sizeof(out)), DB_OK);
    ck_assert_str_eq(out, "r");

    /* The bout's own digest: none until saved with one, then bit for bit. */
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
    ck_assert_int_eq(c.has_digest, 0);
    c.state = DB_BOUT_LIVE;
    c.round = 1;
    c.digest = UINT64_MAX;
    c.has_digest = 1;
    ck_assert_int_eq(db_bout_save(db, &c), DB_OK);
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
    ck_assert_int_eq(c.has_digest, 1);
    ck_assert_uint_eq(c.digest, UINT64_MAX);
}
END_TEST

/* ----------------------------------------------------------------- plans */

START_TEST(test_plan)
{
    struct db_fighter f;
    char out[DB_PLAN_MAX], small[4];
    static char big[DB_PLAN_MAX + 1];
    const char *evil = "R1: 5/5/10\n'); DROP TABLE plans;--\nR2-12: 4/6/10 (ins)";

    f = boxer(account("bob"), "Red", 12, 12, 12, 12, 12);
    ck_assert_int_eq(db_fighter_create(db, "red", &f), DB_OK);
    ck_assert_int_eq(db_plan_get(db, f.id, out, sizeof(out)), DB_NOTFOUND);
    ck_assert_int_eq(db_plan_clear(db, f.id), DB_OK);
    ck_assert_int_eq(db_plan_set(db, f.id, "5/5/10", 100), DB_OK);
    ck_assert_int_eq(db_plan_get(db, f.id, out, sizeof(out)), DB_OK);
    ck_assert_str_eq(out, "5/5/10");
    ck_assert_int_eq(db_plan_set(db, f.id, evil, 200), DB_OK);
    ck_assert_int_eq(db_plan_get(db, f.id, out, sizeof(out)), DB_OK);
    ck_assert_str_eq(out, evil);
    char cond[128];
    snprintf(cond, sizeof(cond), "SELECT count(*) = 1 AND max(updated) = 200 FROM plans");
    sql_check(cond);

    memcpy(small, "abc", 4);
    ck_assert_int_eq(db_plan_get(db, f.id, small, sizeof(small)), DB_ERROR);
    ck_assert_str_eq(small, "abc");

    /* The longest fits; longer, empty or missing texts are refused. */
    memset(big, 'p', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    ck_assert_int_eq(db_plan_set(db, f.id, big, 300), DB_ERROR);
    ck_assert_int_eq(db_plan_set(db, f.id, "", 300), DB_ERROR);
    ck_assert_int_eq(db_plan_set(db, f.id, NULL, 300), DB_ERROR);
    ck_assert_int_eq(db_plan_get(db, f.id, out, sizeof(out)), DB_OK);
    ck_assert_str_eq(out, evil);
    big[DB_PLAN_MAX - 1] = '\0';
    ck_assert_int_eq(db_plan_set(db, f.id, big, 300), DB_OK);
    ck_assert_int_eq(db_plan_get(db, f.id, out, sizeof(out)), DB_OK);
    ck_assert_str_eq(out, big);

    ck_assert_int_eq(db_plan_set(db, f.id + 100, "5/5/10", 1), DB_NOTFOUND);
    ck_assert_int_eq(db_plan_clear(db, f.id), DB_OK);
    ck_assert_int_eq(db_plan_get(db, f.id, out, sizeof(out)), DB_NOTFOUND);
    /* Cleared again, or never set: nothing to do. */
    ck_assert_int_eq(db_plan_clear(db, f.id), DB_OK);
    ck_assert_int_eq(db_plan_clear(db, f.id + 100), DB_OK);
}
END_TEST

START_TEST(test_audit)
{
    char what[DB_AUDIT_MAX + 1];

    ck_assert_int_eq(db_audit(db, 100, "admin", "ban bob"), DB_OK);
    ck_assert_int_eq(db_audit(db, 101, "admin", "cancel 7 'x'; --"), DB_OK);
    sql_check("SELECT count(*) = 2 AND min(time) = 100 AND max(what) = 'cancel 7 ''x''; --'"
              " FROM audit");
    memset(what, 'w', sizeof(what) - 1);
    what[sizeof(what) - 1] = '\0';
    ck_assert_int_eq(db_audit(db, 102, "admin", what), DB_ERROR);
    ck_assert_int_eq(db_audit(db, 102, "", "x"), DB_ERROR);
    ck_assert_int_eq(db_audit(db, 102, "admin", NULL), DB_ERROR);
    what[DB_AUDIT_MAX - 1] = '\0';
    ck_assert_int_eq(db_audit(db, 102, "admin", what), DB_OK);
    sql_check("SELECT count(*) = 3 FROM audit");
}
END_TEST

/* ---------------------------------------------------------- transactions */

START_TEST(test_transaction_rollback_commit)
{
    struct db_bout b = stored_bout(), c;
    struct db_order o, out[8];
    struct db_fighter f;
    char text[64], err[256];
    int n = -1;
    uint64_t digest;
    struct db *other = test_db_open(path, err, sizeof(err));

    ck_assert_msg(other != NULL, "%s", err);
    /* Rolled back: none of it. Everything works inside, and sees it. */
    ck_assert_int_eq(db_begin(db), DB_OK);
    o = order(1, 0, "6/4/10", DB_ORDER_PLAYER, 0);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    o = order(1, 1, "5/5/10", DB_ORDER_PLAN, 1);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    ck_assert_int_eq(db_round_put(db, b.id, 1, 11), DB_OK);
    c = b;
    c.state = DB_BOUT_LIVE;
    c.round = 1;
    c.seed = 42;
    ck_assert_int_eq(db_bout_save(db, &c), DB_OK);
    ck_assert_int_eq(db_fighter_get_id(db, b.fighter[0], &f), DB_OK);
    f.wins = 9;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    ck_assert_int_eq(db_plan_set(db, f.id, "5/5/10", 1), DB_OK);
    ck_assert_int_eq(db_audit(db, 1, "admin", "x"), DB_OK);
    ck_assert_int_eq(db_order_list(db, b.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(db_round_digest(db, b.id, 1, &digest), DB_OK);
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
    ck_assert_int_eq(c.state, DB_BOUT_LIVE);
    ck_assert_int_eq(db_fighter_get_id(db, f.id, &f), DB_OK);
    ck_assert_int_eq(f.wins, 9);
    /* Another connection sees none of it yet. */
    ck_assert_int_eq(db_order_list(other, b.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(db_rollback(db), DB_OK);

    ck_assert_int_eq(db_order_list(db, b.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(db_round_digest(db, b.id, 1, &digest), DB_NOTFOUND);
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
    bout_eq(&b, &c);
    ck_assert_int_eq(db_fighter_get_id(db, f.id, &f), DB_OK);
    ck_assert_int_eq(f.wins, 0);
    ck_assert_int_eq(db_plan_get(db, f.id, text, sizeof(text)), DB_NOTFOUND);
    sql_check("SELECT count(*) = 0 FROM audit");

    /* Committed: all of it, a refused write in the middle changing nothing
     * else. */
    ck_assert_int_eq(db_begin(db), DB_OK);
    o = order(1, 0, "6/4/10", DB_ORDER_PLAYER, 0);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    /* PostgreSQL loses the whole transaction at a refused statement (SQLite
     * refuses the statement only), so there it is not tried in the middle. */
    if (!test_db_pg())
        ck_assert_int_eq(db_order_put(db, b.id + 100, &o), DB_NOTFOUND);
    o = order(1, 1, "5/5/10", DB_ORDER_PLAN, 1);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    ck_assert_int_eq(db_round_put(db, b.id, 1, 12), DB_OK);
    c = b;
    c.state = DB_BOUT_OVER;
    c.round = 1;
    c.winner = 0;
    c.method = METHOD_KO;
    ck_assert_int_eq(db_bout_save(db, &c), DB_OK);
    f.wins = 1;
    f.kos = 1;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    ck_assert_int_eq(db_commit(db), DB_OK);

    ck_assert_int_eq(db_order_list(other, b.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(db_round_digest(other, b.id, 1, &digest), DB_OK);
    ck_assert_uint_eq(digest, 12);
    ck_assert_int_eq(db_bout_get(other, b.id, &c), DB_OK);
    ck_assert_int_eq(c.state, DB_BOUT_OVER);
    ck_assert_int_eq(c.method, METHOD_KO);
    ck_assert_int_eq(db_fighter_get_id(other, f.id, &f), DB_OK);
    ck_assert_int_eq(f.kos, 1);
    db_close(other);
    reopen();
    ck_assert_int_eq(db_order_list(db, b.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 2);

    /* Outside a transaction, each call commits on its own. */
    o = order(2, 0, "7/3/10", DB_ORDER_PLAYER, 0);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    ck_assert_int_eq(db_rollback(db), DB_ERROR);
    ck_assert_int_eq(db_order_list(db, b.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 3);
}
END_TEST

START_TEST(test_transaction_misuse)
{
    struct db_bout b = stored_bout();
    struct db_order o = order(1, 0, "6/4/10", DB_ORDER_PLAYER, 0), out[2];
    int n = -1;

    ck_assert_int_eq(db_commit(db), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "db_commit: no transaction is open");
    ck_assert_int_eq(db_rollback(db), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "db_rollback: no transaction is open");

    ck_assert_int_eq(db_begin(db), DB_OK);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    /* Not nested: refused, and the transaction goes on. */
    ck_assert_int_eq(db_begin(db), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "db_begin: a transaction is already open (they do not nest)");
    o.round = 2;
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    ck_assert_int_eq(db_rollback(db), DB_OK);
    ck_assert_int_eq(db_order_list(db, b.id, out, 2, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(db_rollback(db), DB_ERROR);
    ck_assert_int_eq(db_commit(db), DB_ERROR);

    /* After a failure inside, db_rollback ends it and keeps the message. */
    char want[64];
    snprintf(want, sizeof(want), "no bout %lld", (long long)(b.id + 1));
    ck_assert_int_eq(db_begin(db), DB_OK);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    ck_assert_int_eq(db_order_put(db, b.id + 1, &o), DB_NOTFOUND);
    ck_assert_str_eq(db_errmsg(db), want);
    ck_assert_int_eq(db_rollback(db), DB_OK);
    ck_assert_str_eq(db_errmsg(db), want);
    ck_assert_int_eq(db_order_list(db, b.id, out, 2, &n), DB_OK);
    ck_assert_int_eq(n, 0);

    /* A connection closed inside a transaction leaves nothing of it. */
    ck_assert_int_eq(db_begin(db), DB_OK);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    reopen();
    ck_assert_int_eq(db_order_list(db, b.id, out, 2, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    /* And the new connection starts outside one. */
    ck_assert_int_eq(db_begin(db), DB_OK);
    ck_assert_int_eq(db_commit(db), DB_OK);
}
END_TEST

/* ------------------------------------------------------------- kill -9 */

START_TEST(test_kill9_keeps_what_was_acknowledged)
{
    TEST_DB_SQLITE_ONLY("SQLite's WAL file after a kill -9");
    struct db_bout b = stored_bout();
    struct db_order out[8];
    char wal[256];
    int status = 0, n = -1;
    uint64_t digest;

    /* The parent's connection is closed before the fork: a child must not
     * use, or close, a connection it inherited. */
    db_close(db);
    db = NULL;
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct db *c = test_db_open(path, NULL, 0);
        struct db_order o;
        if (!c)
            _exit(2);
        /* Acknowledged: an order on its own... */
        o = order(1, 0, "6/4/10", DB_ORDER_PLAYER, 0);
        if (db_order_put(c, b.id, &o) != DB_OK)
            _exit(3);
        /* ...and a resolved round, in one transaction... */
        o = order(1, 1, "5/5/10", DB_ORDER_DEFAULT, 0);
        if (db_begin(c) != DB_OK || db_order_put(c, b.id, &o) != DB_OK ||
            db_round_put(c, b.id, 1, 101) != DB_OK || db_commit(c) != DB_OK)
            _exit(4);
        /* ...but not a round killed half way. */
        o = order(2, 0, "7/3/10", DB_ORDER_PLAYER, 0);
        if (db_begin(c) != DB_OK || db_order_put(c, b.id, &o) != DB_OK ||
            db_round_put(c, b.id, 2, 102) != DB_OK)
            _exit(5);
        kill(getpid(), SIGKILL);
        _exit(6);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
                  "the child was not killed: status %d", status);
    /* The commits are in the WAL, not yet in the database file. */
    snprintf(wal, sizeof(wal), "%s-wal", path);
    ck_assert_int_eq(access(wal, F_OK), 0);

    reopen();
    ck_assert_int_eq(db_order_list(db, b.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(out[0].text, "6/4/10");
    ck_assert_int_eq(out[1].side, 1);
    ck_assert_int_eq(out[1].source, DB_ORDER_DEFAULT);
    ck_assert_int_eq(db_round_digest(db, b.id, 1, &digest), DB_OK);
    ck_assert_uint_eq(digest, 101);
    ck_assert_int_eq(db_round_digest(db, b.id, 2, &digest), DB_NOTFOUND);
    /* The file takes writes again. */
    ck_assert_int_eq(db_begin(db), DB_OK);
    ck_assert_int_eq(db_round_put(db, b.id, 2, 102), DB_OK);
    ck_assert_int_eq(db_commit(db), DB_OK);
}
END_TEST

/* ---------------------------------------------------- rows made by hand */

START_TEST(test_bad_rows_refused)
{
    struct db_bout b = stored_bout(), c, list[4];
    struct db_order o = order(1, 0, "6/4/10", DB_ORDER_PLAYER, 0), out[4];
    char sql[256], want[128];
    int n = -1;
    static const struct {
        const char *set, *message;
    } bad[] = {
        {"state = 'paused'", "has state 'paused', which this ringside does not know"},
        {"state = 1", "has state '1', which this ringside does not know"},
        {"method = 'nc'", "has method 'nc', which"},
        {"drawn_by = 'KO'", "has drawn_by 'KO', which"},
        {"reason = 'cut'", "has reason 'cut', which"},
        {"decision = 'technical'", "has decision 'technical', which"},
        {"rules = 'duel'", "has a sheet \"12 12 12 12 12\" that does not fit its ruleset"},
        {"winner = 2", "has winner 2, which is not -1, 0 or 1"},
        {"round = 13", "has 13 of 12 rounds, out of range"},
    };

    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(sql, sizeof(sql), "UPDATE bouts SET %s WHERE id = %lld", bad[i].set,
                 (long long)b.id);
        sql_force(sql);
        ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_ERROR);
        ck_assert_msg(strstr(db_errmsg(db), bad[i].message), "%s: %s", bad[i].set, db_errmsg(db));
        /* Listed with the other challenges, unless its state is the bad
         * value (then it is in no list). */
        n = -1;
        ck_assert_int_eq(db_bout_list(db, DB_BOUT_CHALLENGE, list, 4, &n),
                         strncmp(bad[i].set, "state", 5) == 0 ? DB_OK : DB_ERROR);
        ck_assert_int_eq(n, 0);
        /* Put right again, the row reads. */
        snprintf(sql, sizeof(sql),
                 "UPDATE bouts SET state = 'challenge', method = 'none', drawn_by = 'none',"
                 " reason = 'none', decision = 'none', rules = 'boxing', winner = -1,"
                 " round = 0, channel = '#ring' WHERE id = %lld",
                 (long long)b.id);
        sql_force(sql);
        ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
        bout_eq(&b, &c);
    }
    snprintf(want, sizeof(want), "bout %lld has state 'paused'", (long long)b.id);
    sql_force("UPDATE bouts SET state = 'paused'");
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_ERROR);
    ck_assert_ptr_nonnull(strstr(db_errmsg(db), want));

    /* Orders likewise. */
    static const struct {
        const char *set, *message;
    } bad_orders[] = {
        {"source = 'whim'", "has source 'whim', which"},
        {"side = 2", "side 2"},
        {"round = 0", "round 0"},
        {"line = -1", "line -1"},
        {"text = '0123456789012345678901234567890123456789012345678901234567890123'",
         "order text is 64 bytes in the database, the most is 63"},
    };
    for (size_t i = 0; i < sizeof(bad_orders) / sizeof(bad_orders[0]); i++) {
        snprintf(sql, sizeof(sql), "UPDATE orders SET %s", bad_orders[i].set);
        sql_force(sql);
        n = -1;
        ck_assert_int_eq(db_order_list(db, b.id, out, 4, &n), DB_ERROR);
        ck_assert_int_eq(n, 0);
        ck_assert_msg(strstr(db_errmsg(db), bad_orders[i].message), "%s: %s", bad_orders[i].set,
                      db_errmsg(db));
        sql_force("UPDATE orders SET source = 'player', side = 0, round = 1, line = 0,"
                  " text = '6/4/10'");
        ck_assert_int_eq(db_order_list(db, b.id, out, 4, &n), DB_OK);
        ck_assert_int_eq(n, 1);
    }
}
END_TEST

/* --------------------------------------------------------------- leagues */

START_TEST(test_fighter_league_defaults)
{
    struct db_fighter f, g;
    int64_t owner = account("bob");

    f = sugar(owner, "Rookie", 10, 20);
    ck_assert_int_eq(db_fighter_create(db, "rookie", &f), DB_OK);
    ck_assert_int_eq(db_fighter_get(db, "rookie", &g), DB_OK);
    ck_assert_int_eq(g.league, LEAGUE_BRONZE);
    ck_assert_int_eq(g.gold_record + g.paused + g.trained + g.missed, 0);
    sql_check("SELECT league = 'bronze' AND gold_record = 0 AND paused = 0 AND trained = 0"
              " AND missed = 0 FROM fighters WHERE key = 'rookie'");
    /* A row written without them (as version 2 wrote) gets the same. */
    sql_force("INSERT INTO fighters (account_id, key, name, rules, skill, endurance, created)"
              " SELECT id, 'old', 'Old', 'sugarray', 10, 20, 5 FROM accounts WHERE key = 'bob'");
    ck_assert_int_eq(db_fighter_get(db, "old", &g), DB_OK);
    ck_assert_int_eq(g.league, LEAGUE_BRONZE);
    ck_assert_int_eq(g.gold_record + g.paused + g.trained + g.missed, 0);
}
END_TEST

/* The league fields of fighter `id` as read by every read. */
static void league_fields_are(int64_t id, const char *key, int league, int gold, int paused,
                              int trained, int missed)
{
    struct db_fighter g, out[64];
    int n = 0, found = 0;

    ck_assert_int_eq(db_fighter_get_id(db, id, &g), DB_OK);
    for (int pass = 0; pass < 4; pass++) {
        if (pass == 1)
            ck_assert_int_eq(db_fighter_get(db, key, &g), DB_OK);
        if (pass == 2) {
            ck_assert_int_eq(db_fighter_list(db, g.account_id, 1, out, 64, &n), DB_OK);
            for (int i = 0; i < n; i++)
                if (out[i].id == id)
                    g = out[i], found++;
        }
        if (pass == 3 && !g.retired) {
            ck_assert_int_eq(db_fighter_list_rules(db, g.sheet.rules, out, 64, &n), DB_OK);
            for (int i = 0; i < n; i++)
                if (out[i].id == id)
                    g = out[i], found++;
        }
        ck_assert_int_eq(g.id, id);
        ck_assert_int_eq(g.league, league);
        ck_assert_int_eq(g.gold_record, gold);
        ck_assert_int_eq(g.paused, paused);
        ck_assert_int_eq(g.trained, trained);
        ck_assert_int_eq(g.missed, missed);
    }
    ck_assert_int_eq(found, g.retired ? 1 : 2);
}

START_TEST(test_fighter_league_round_trip)
{
    struct db_fighter f, g;
    int64_t owner = account("bob");

    /* Written by create. */
    f = sugar(owner, "Miller", 10, 26);
    f.league = LEAGUE_GOLD;
    f.gold_record = 7;
    f.paused = 2;
    f.trained = 5; /* any nonzero is 1 */
    f.missed = 1;
    ck_assert_int_eq(db_fighter_create(db, "miller", &f), DB_OK);
    league_fields_are(f.id, "miller", LEAGUE_GOLD, 7, 2, 1, 1);
    sql_check("SELECT league = 'gold' AND trained = 1 FROM fighters WHERE key = 'miller'");

    /* And by save, with the rest of the fighter. */
    f.league = LEAGUE_SILVER;
    f.gold_record = 0;
    f.paused = 0;
    f.trained = 0;
    f.missed = 0;
    f.wins = 4;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    league_fields_are(f.id, "miller", LEAGUE_SILVER, 0, 0, 0, 0);
    ck_assert_int_eq(db_fighter_get(db, "miller", &g), DB_OK);
    ck_assert_int_eq(g.wins, 4);
    sql_check("SELECT league = 'silver' FROM fighters WHERE key = 'miller'");
    f.league = LEAGUE_BRONZE;
    f.paused = 52;
    f.missed = -1;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    league_fields_are(f.id, "miller", LEAGUE_BRONZE, 0, 52, 0, 1);
    sql_check("SELECT league = 'bronze' AND missed = 1 FROM fighters WHERE key = 'miller'");

    /* A boxer too; a retired one keeps them. */
    f = boxer(owner, "Ali", 12, 12, 12, 12, 12);
    f.league = LEAGUE_GOLD;
    f.gold_record = 300;
    ck_assert_int_eq(db_fighter_create(db, "ali", &f), DB_OK);
    league_fields_are(f.id, "ali", LEAGUE_GOLD, 300, 0, 0, 0);
    ck_assert_int_eq(db_fighter_retire(db, f.id), DB_OK);
    league_fields_are(f.id, "ali", LEAGUE_GOLD, 300, 0, 0, 0);

    /* Out of range: refused by create and save, nothing written. */
    static const struct {
        int league, gold, paused;
        const char *message;
    } bad[] = {
        {LEAGUE_COUNT, 0, 0, "league 3 is out of range"},
        {-1, 0, 0, "league -1 is out of range"},
        {LEAGUE_GOLD, -3, 0, "gold record -3"},
        {LEAGUE_GOLD, 0, -1, "paused -1"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        g = sugar(owner, "Bad", 10, 20);
        g.league = bad[i].league;
        g.gold_record = bad[i].gold;
        g.paused = bad[i].paused;
        ck_assert_int_eq(db_fighter_create(db, "bad", &g), DB_ERROR);
        ck_assert_msg(strstr(db_errmsg(db), bad[i].message), "%s", db_errmsg(db));
        ck_assert_int_eq(db_fighter_get(db, "bad", &g), DB_NOTFOUND);
        ck_assert_int_eq(db_fighter_get(db, "miller", &g), DB_OK);
        g.league = bad[i].league;
        g.gold_record = bad[i].gold;
        g.paused = bad[i].paused;
        g.wins = 99;
        ck_assert_int_eq(db_fighter_save(db, &g), DB_ERROR);
        ck_assert_msg(strstr(db_errmsg(db), bad[i].message), "%s", db_errmsg(db));
        ck_assert_int_eq(db_fighter_get(db, "miller", &g), DB_OK);
        ck_assert_int_eq(g.wins, 4);
        ck_assert_int_eq(g.league, LEAGUE_BRONZE);
    }
}
END_TEST

/* A league or title bout between id[0] and id[1], not yet stored. */
static struct db_bout turn_bout(const int64_t id[SIDES], enum db_bout_kind kind, int turn,
                                int league)
{
    struct db_bout b = challenge(id);

    b.kind = kind;
    b.turn = turn;
    b.league = league;
    return b;
}

START_TEST(test_bout_kind_round_trip)
{
    int64_t id[SIDES];
    struct db_bout b, c, out[8];
    int n = 0;

    two_boxers(id);
    /* An exhibition has no turn and no league, whatever *b said. */
    b = turn_bout(id, DB_BOUT_EXHIBITION, 9, LEAGUE_GOLD);
    ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
    ck_assert_int_eq(b.turn, 0);
    ck_assert_int_eq(b.league, -1);
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
    bout_eq(&b, &c);
    ck_assert_int_eq(c.kind, DB_BOUT_EXHIBITION);
    ck_assert_int_eq(c.league, -1);
    /* A zeroed challenge is one. */
    b = challenge(id);
    ck_assert_int_eq(b.league, 0);
    ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
    ck_assert_int_eq(b.league, -1);
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
    bout_eq(&b, &c);
    int64_t exhibition = b.id;

    /* League bouts, in each league. */
    int64_t league[LEAGUE_COUNT];
    for (int l = 0; l < LEAGUE_COUNT; l++) {
        b = turn_bout(id, DB_BOUT_LEAGUE, 3 + l, l);
        ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
        ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
        bout_eq(&b, &c);
        ck_assert_int_eq(c.kind, DB_BOUT_LEAGUE);
        ck_assert_int_eq(c.turn, 3 + l);
        ck_assert_int_eq(c.league, l);
        league[l] = b.id;
    }
    /* A title bout has a turn but no league. */
    b = turn_bout(id, DB_BOUT_TITLE, 12, LEAGUE_GOLD);
    ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
    ck_assert_int_eq(b.league, -1);
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
    bout_eq(&b, &c);
    ck_assert_int_eq(c.kind, DB_BOUT_TITLE);
    ck_assert_int_eq(c.turn, 12);
    int64_t title = b.id;

    /* Stored by name. */
    char cond[256];
    snprintf(cond, sizeof(cond),
             "SELECT kind = 'league' AND turn = 5 AND league = 'gold' FROM bouts WHERE id = %lld",
             (long long)league[LEAGUE_GOLD]);
    sql_check(cond);
    snprintf(cond, sizeof(cond),
             "SELECT kind = 'title' AND turn = 12 AND league IS NULL FROM bouts WHERE id = %lld",
             (long long)title);
    sql_check(cond);
    snprintf(cond, sizeof(cond),
             "SELECT kind = 'exhibition' AND turn = 0 AND league IS NULL FROM bouts"
             " WHERE id = %lld",
             (long long)exhibition);
    sql_check(cond);

    /* Save does not change them; list reads them. */
    ck_assert_int_eq(db_bout_get(db, league[LEAGUE_SILVER], &c), DB_OK);
    struct db_bout d = c;
    d.kind = DB_BOUT_EXHIBITION;
    d.turn = 0;
    d.league = -1;
    d.state = DB_BOUT_OVER;
    d.winner = 1;
    d.method = METHOD_KO;
    ck_assert_int_eq(db_bout_save(db, &d), DB_OK);
    ck_assert_int_eq(db_bout_get(db, c.id, &d), DB_OK);
    ck_assert_int_eq(d.state, DB_BOUT_OVER);
    ck_assert_int_eq(d.kind, DB_BOUT_LEAGUE);
    ck_assert_int_eq(d.turn, 4);
    ck_assert_int_eq(d.league, LEAGUE_SILVER);
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_OVER, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    bout_eq(&d, &out[0]);
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_CHALLENGE, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 5);
    ck_assert_int_eq(out[4].kind, DB_BOUT_TITLE);

    /* Refused: nothing stored. */
    static const struct {
        int kind, turn, league;
        const char *message;
    } bad[] = {
        {3, 1, LEAGUE_GOLD, "kind 3 is out of range"},
        {-1, 0, -1, "kind -1 is out of range"},
        {DB_BOUT_LEAGUE, 0, LEAGUE_GOLD, "turn 0, but turns count from 1"},
        {DB_BOUT_LEAGUE, -2, LEAGUE_GOLD, "turn -2"},
        {DB_BOUT_TITLE, 0, -1, "title bout in #ring: turn 0"},
        {DB_BOUT_LEAGUE, 1, -1, "league -1 is out of range"},
        {DB_BOUT_LEAGUE, 1, LEAGUE_COUNT, "league 3 is out of range"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        b = turn_bout(id, (enum db_bout_kind)bad[i].kind, bad[i].turn, bad[i].league);
        ck_assert_int_eq(db_bout_create(db, &b), DB_ERROR);
        ck_assert_msg(strstr(db_errmsg(db), bad[i].message), "%zu: %s", i, db_errmsg(db));
    }
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_CHALLENGE, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 5);
}
END_TEST

START_TEST(test_fighter_list_rules)
{
    struct db_fighter f, out[16];
    int64_t bob = account("bob"), carol = account("carol");
    int64_t sugar_id[6];
    int n = -1;

    ck_assert_int_eq(db_fighter_list_rules(db, RULES_SUGARRAY, out, 16, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    /* Sugarray and boxing fighters of two owners, interleaved; creation
     * times decreasing, so the order by id is not the order by time. */
    for (int i = 0; i < 6; i++) {
        char key[16];
        snprintf(key, sizeof(key), "s%d", i);
        f = sugar(i % 2 ? bob : carol, key, 10 + i, 20 + i);
        f.created = 100 - i;
        f.league = i % LEAGUE_COUNT;
        ck_assert_int_eq(db_fighter_create(db, key, &f), DB_OK);
        sugar_id[i] = f.id;
        snprintf(key, sizeof(key), "b%d", i);
        f = boxer(bob, key, 12, 12, 12, 12, 12);
        ck_assert_int_eq(db_fighter_create(db, key, &f), DB_OK);
    }
    ck_assert_int_eq(db_fighter_retire(db, sugar_id[2]), DB_OK);

    ck_assert_int_eq(db_fighter_list_rules(db, RULES_SUGARRAY, out, 16, &n), DB_OK);
    ck_assert_int_eq(n, 5);
    for (int i = 0, k = 0; i < 6; i++) {
        if (i == 2)
            continue;
        ck_assert_int_eq(out[k].id, sugar_id[i]);
        ck_assert_int_eq(out[k].sheet.rules, RULES_SUGARRAY);
        ck_assert_int_eq(out[k].sheet.u.sugarray.skill, 10 + i);
        ck_assert_int_eq(out[k].league, i % LEAGUE_COUNT);
        ck_assert_int_eq(out[k].retired, 0);
        ck_assert_str_eq(out[k].owner, i % 2 ? "bob" : "carol");
        k++;
    }
    ck_assert_int_eq(db_fighter_list_rules(db, RULES_BOXING, out, 16, &n), DB_OK);
    ck_assert_int_eq(n, 6);
    for (int i = 1; i < n; i++)
        ck_assert_int_gt(out[i].id, out[i - 1].id);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(out[i].sheet.rules, RULES_BOXING);

    /* max caps the count. */
    ck_assert_int_eq(db_fighter_list_rules(db, RULES_SUGARRAY, out, 2, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(out[1].id, sugar_id[1]);
    ck_assert_int_eq(db_fighter_list_rules(db, RULES_SUGARRAY, out, 0, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    n = -1;
    ck_assert_int_eq(db_fighter_list_rules(db, RULES_COUNT, out, 16, &n), DB_ERROR);
    ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(test_champion)
{
    struct db_fighter f;
    int64_t owner = account("bob"), champ = 0, sugar_id[3], boxer_id;
    int defences = -1;

    for (int i = 0; i < 3; i++) {
        char key[16];
        snprintf(key, sizeof(key), "s%d", i);
        f = sugar(owner, key, 10, 20);
        ck_assert_int_eq(db_fighter_create(db, key, &f), DB_OK);
        sugar_id[i] = f.id;
    }
    f = boxer(owner, "Ali", 12, 12, 12, 12, 12);
    ck_assert_int_eq(db_fighter_create(db, "ali", &f), DB_OK);
    boxer_id = f.id;

    /* Vacant in a new file. */
    for (int r = 0; r < RULES_COUNT; r++)
        ck_assert_int_eq(db_champion_get(db, (enum rules)r, &champ, &defences), DB_NOTFOUND);
    ck_assert_int_eq(champ, 0);
    ck_assert_int_eq(defences, -1);

    /* Set, defended (the date he won it kept), replaced, vacated. */
    ck_assert_int_eq(db_champion_set(db, RULES_SUGARRAY, sugar_id[0], 0, 100), DB_OK);
    ck_assert_int_eq(db_champion_get(db, RULES_SUGARRAY, &champ, &defences), DB_OK);
    ck_assert_int_eq(champ, sugar_id[0]);
    ck_assert_int_eq(defences, 0);
    ck_assert_int_eq(db_champion_get(db, RULES_BOXING, &champ, &defences), DB_NOTFOUND);
    ck_assert_int_eq(db_champion_set(db, RULES_SUGARRAY, sugar_id[0], 1, 200), DB_OK);
    ck_assert_int_eq(db_champion_get(db, RULES_SUGARRAY, &champ, &defences), DB_OK);
    ck_assert_int_eq(champ, sugar_id[0]);
    ck_assert_int_eq(defences, 1);
    sql_check("SELECT since = 100 FROM champions WHERE rules = 'sugarray'");
    ck_assert_int_eq(db_champion_set(db, RULES_SUGARRAY, sugar_id[1], 0, 300), DB_OK);
    ck_assert_int_eq(db_champion_get(db, RULES_SUGARRAY, &champ, &defences), DB_OK);
    ck_assert_int_eq(champ, sugar_id[1]);
    ck_assert_int_eq(defences, 0);
    sql_check("SELECT since = 300 FROM champions WHERE rules = 'sugarray'");

    /* Each ruleset its own. */
    ck_assert_int_eq(db_champion_set(db, RULES_BOXING, boxer_id, 4, 400), DB_OK);
    ck_assert_int_eq(db_champion_get(db, RULES_BOXING, &champ, &defences), DB_OK);
    ck_assert_int_eq(champ, boxer_id);
    ck_assert_int_eq(defences, 4);
    ck_assert_int_eq(db_champion_get(db, RULES_SUGARRAY, &champ, &defences), DB_OK);
    ck_assert_int_eq(champ, sugar_id[1]);

    /* Refused: no such fighter, another ruleset's, out of range; the
     * champion is still there. */
    ck_assert_int_eq(db_champion_set(db, RULES_SUGARRAY, boxer_id + 100, 0, 500), DB_NOTFOUND);
    ck_assert_int_eq(db_champion_set(db, RULES_SUGARRAY, boxer_id, 0, 500), DB_ERROR);
    ck_assert_msg(strstr(db_errmsg(db), "cannot hold the sugarray title"), "%s", db_errmsg(db));
    ck_assert_int_eq(db_champion_set(db, RULES_SUGARRAY, sugar_id[2], -1, 500), DB_ERROR);
    ck_assert_int_eq(db_champion_set(db, RULES_SUGARRAY, -5, 0, 500), DB_ERROR);
    ck_assert_int_eq(db_champion_set(db, RULES_COUNT, sugar_id[2], 0, 500), DB_ERROR);
    ck_assert_int_eq(db_champion_get(db, RULES_COUNT, &champ, &defences), DB_ERROR);
    ck_assert_int_eq(db_champion_get(db, RULES_SUGARRAY, &champ, &defences), DB_OK);
    ck_assert_int_eq(champ, sugar_id[1]);
    ck_assert_int_eq(defences, 0);

    /* Vacated: not found, the other ruleset's kept; and back. */
    ck_assert_int_eq(db_champion_set(db, RULES_SUGARRAY, 0, 3, 600), DB_OK);
    ck_assert_int_eq(db_champion_get(db, RULES_SUGARRAY, &champ, &defences), DB_NOTFOUND);
    sql_check("SELECT fighter IS NULL AND defences = 0 FROM champions WHERE rules = 'sugarray'");
    ck_assert_int_eq(db_champion_set(db, RULES_SUGARRAY, 0, 0, 650), DB_OK);
    ck_assert_int_eq(db_champion_get(db, RULES_BOXING, &champ, &defences), DB_OK);
    ck_assert_int_eq(champ, boxer_id);
    ck_assert_int_eq(db_champion_set(db, RULES_SUGARRAY, sugar_id[2], 0, 700), DB_OK);
    reopen();
    ck_assert_int_eq(db_champion_get(db, RULES_SUGARRAY, &champ, &defences), DB_OK);
    ck_assert_int_eq(champ, sugar_id[2]);
    sql_check("SELECT since = 700 FROM champions WHERE rules = 'sugarray'");
}
END_TEST

START_TEST(test_turns)
{
    int number = -1;
    int64_t when = -1;
    char err[256];

    ck_assert_int_eq(db_turn_last(db, RULES_SUGARRAY, &number, &when), DB_NOTFOUND);
    ck_assert_int_eq(number, -1);
    for (int i = 1; i <= 5; i++) {
        ck_assert_int_eq(db_turn_add(db, RULES_SUGARRAY, 1000 + i, &number), DB_OK);
        ck_assert_int_eq(number, i);
        ck_assert_int_eq(db_turn_last(db, RULES_SUGARRAY, &number, &when), DB_OK);
        ck_assert_int_eq(number, i);
        ck_assert_int_eq(when, 1000 + i);
    }
    /* Numbered per ruleset. */
    ck_assert_int_eq(db_turn_last(db, RULES_BOXING, &number, &when), DB_NOTFOUND);
    ck_assert_int_eq(db_turn_add(db, RULES_BOXING, 2000, &number), DB_OK);
    ck_assert_int_eq(number, 1);
    ck_assert_int_eq(db_turn_add(db, RULES_SUGARRAY, 1010, &number), DB_OK);
    ck_assert_int_eq(number, 6);

    /* A turn rolled back leaves its number to the next. */
    ck_assert_int_eq(db_begin(db), DB_OK);
    ck_assert_int_eq(db_turn_add(db, RULES_SUGARRAY, 1020, &number), DB_OK);
    ck_assert_int_eq(number, 7);
    ck_assert_int_eq(db_turn_last(db, RULES_SUGARRAY, &number, &when), DB_OK);
    ck_assert_int_eq(number, 7);
    ck_assert_int_eq(db_rollback(db), DB_OK);
    ck_assert_int_eq(db_turn_last(db, RULES_SUGARRAY, &number, &when), DB_OK);
    ck_assert_int_eq(number, 6);
    ck_assert_int_eq(when, 1010);

    /* Committed by itself outside a transaction: another connection sees it. */
    struct db *other = test_db_open(path, err, sizeof(err));
    ck_assert_msg(other != NULL, "%s", err);
    ck_assert_int_eq(db_turn_add(other, RULES_SUGARRAY, 1030, &number), DB_OK);
    ck_assert_int_eq(number, 7);
    ck_assert_int_eq(db_turn_add(db, RULES_SUGARRAY, 1040, &number), DB_OK);
    ck_assert_int_eq(number, 8);
    db_close(other);
    reopen();
    ck_assert_int_eq(db_turn_last(db, RULES_SUGARRAY, &number, &when), DB_OK);
    ck_assert_int_eq(number, 8);
    ck_assert_int_eq(when, 1040);
    ck_assert_int_eq(db_turn_last(db, RULES_BOXING, &number, &when), DB_OK);
    ck_assert_int_eq(number, 1);
    ck_assert_int_eq(when, 2000);
    ck_assert_int_eq(db_turn_add(db, RULES_COUNT, 1, &number), DB_ERROR);
    ck_assert_int_eq(db_turn_last(db, RULES_COUNT, &number, &when), DB_ERROR);
}
END_TEST

/* A league turn as the bot runs it, in one transaction: thousands of
 * fighters listed, each saved, a bout each with its orders and rounds. */
#define TURN_FIGHTERS 3000

/* Collects db_league_plans's calls. */
struct plans_seen {
    int n;
    int64_t fighter[8];
    char text[8][64];
};

static void plan_seen(void *ctx, int64_t fighter, const char *text)
{
    struct plans_seen *p = ctx;

    ck_assert_int_lt(p->n, 8);
    p->fighter[p->n] = fighter;
    snprintf(p->text[p->n], sizeof(p->text[0]), "%s", text);
    p->n++;
}

/* A turn's reads: the active fighters counted as db_fighter_list_rules
 * lists them, and their plans in one read by fighter id. */
START_TEST(test_league_count_plans)
{
    struct db_fighter f;
    struct plans_seen seen = {0};
    int64_t bob = account("bob"), id[5];
    int n = -1;

    ck_assert_int_eq(db_league_count(db, RULES_SUGARRAY, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    for (int i = 0; i < 5; i++) {
        char key[16];
        snprintf(key, sizeof(key), "s%d", i);
        f = i == 3 ? boxer(bob, key, 12, 12, 12, 12, 12) : sugar(bob, key, 10 + i, 20);
        ck_assert_int_eq(db_fighter_create(db, key, &f), DB_OK);
        id[i] = f.id;
    }
    ck_assert_int_eq(db_fighter_retire(db, id[2]), DB_OK);
    /* Plans stored newest fighter first: read back by id. */
    ck_assert_int_eq(db_plan_set(db, id[4], "4/3", 1), DB_OK);
    ck_assert_int_eq(db_plan_set(db, id[3], "5/5/10", 1), DB_OK); /* a boxer */
    ck_assert_int_eq(db_plan_set(db, id[2], "6/0", 1), DB_OK);    /* retired */
    ck_assert_int_eq(db_plan_set(db, id[0], "3/2; 2) 2/3", 1), DB_OK);

    ck_assert_int_eq(db_league_count(db, RULES_SUGARRAY, &n), DB_OK);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(db_league_count(db, RULES_BOXING, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(db_league_plans(db, RULES_SUGARRAY, plan_seen, &seen), DB_OK);
    ck_assert_int_eq(seen.n, 2);
    ck_assert_int_eq(seen.fighter[0], id[0]);
    ck_assert_str_eq(seen.text[0], "3/2; 2) 2/3");
    ck_assert_int_eq(seen.fighter[1], id[4]);
    ck_assert_str_eq(seen.text[1], "4/3");
    ck_assert_int_eq(db_league_count(db, (enum rules)99, &n), DB_ERROR);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(db_league_plans(db, (enum rules)99, plan_seen, &seen), DB_ERROR);

    /* The turn's cache and back change nothing stored. */
    db_league_cache(db, 1);
    ck_assert_int_eq(db_league_count(db, RULES_SUGARRAY, &n), DB_OK);
    ck_assert_int_eq(n, 3);
    db_league_cache(db, 0);
}
END_TEST

START_TEST(test_league_turn_bulk)
{
    static struct db_fighter out[TURN_FIGHTERS + 10];
    struct db_fighter f;
    int64_t owner = account("bob");
    int n = 0, number = 0;

    ck_assert_int_eq(db_begin(db), DB_OK);
    for (int i = 0, active = 0; active < TURN_FIGHTERS; i++) {
        char key[16];
        snprintf(key, sizeof(key), "f%05d", i);
        /* Boxers among them, and retired sugarray fighters. */
        f = i % 16 == 5 ? boxer(owner, key, 12, 12, 12, 12, 12) : sugar(owner, key, 10, 20);
        f.league = i % LEAGUE_COUNT;
        f.retired = i % 32 == 7;
        active += f.sheet.rules == RULES_SUGARRAY && !f.retired;
        REQUIRE(db_fighter_create(db, key, &f) == DB_OK);
    }
    ck_assert_int_eq(db_commit(db), DB_OK);

    ck_assert_int_eq(db_fighter_list_rules(db, RULES_SUGARRAY, out, TURN_FIGHTERS + 10, &n), DB_OK);
    ck_assert_int_eq(n, TURN_FIGHTERS);
    for (int i = 0; i < n; i++) {
        REQUIRE(out[i].sheet.rules == RULES_SUGARRAY && !out[i].retired);
        REQUIRE(i == 0 || out[i].id > out[i - 1].id);
        REQUIRE(out[i].league == (int)((out[i].id - 1) % LEAGUE_COUNT));
    }

    ck_assert_int_eq(db_begin(db), DB_OK);
    ck_assert_int_eq(db_turn_add(db, RULES_SUGARRAY, 5000, &number), DB_OK);
    for (int i = 0; i < n; i++) {
        struct db_fighter *a = &out[i], *b = &out[(i + 1) % n];
        struct db_bout bt;

        memset(&bt, 0, sizeof(bt));
        bt.rules = RULES_SUGARRAY;
        snprintf(bt.channel, sizeof(bt.channel), "#league");
        bt.rounds = SUGARRAY_ROUNDS;
        bt.state = DB_BOUT_OVER;
        bt.kind = DB_BOUT_LEAGUE;
        bt.turn = number;
        bt.league = a->league;
        bt.fighter[0] = a->id;
        bt.fighter[1] = b->id;
        bt.sheet[0] = a->sheet;
        bt.sheet[1] = b->sheet;
        bt.round = SUGARRAY_ROUNDS;
        bt.winner = 0;
        bt.method = METHOD_POINTS;
        bt.created = bt.started = bt.ended = 5000;
        REQUIRE(db_bout_create(db, &bt) == DB_OK);
        for (int r = 1; r <= SUGARRAY_ROUNDS; r++) {
            for (int side = 0; side < SIDES; side++) {
                struct db_order o = order(r, side, "3/3", DB_ORDER_PLAN, 1);
                REQUIRE(db_order_put(db, bt.id, &o) == DB_OK);
            }
            REQUIRE(db_round_put(db, bt.id, r, (uint64_t)r) == DB_OK);
        }
        a->league = (a->league + 1) % LEAGUE_COUNT;
        a->gold_record = i % 7;
        a->trained = 1;
        a->wins++;
        REQUIRE(db_fighter_save(db, a) == DB_OK);
    }
    ck_assert_int_eq(db_commit(db), DB_OK);

    static struct db_fighter again[TURN_FIGHTERS];
    ck_assert_int_eq(db_fighter_list_rules(db, RULES_SUGARRAY, again, TURN_FIGHTERS, &n), DB_OK);
    ck_assert_int_eq(n, TURN_FIGHTERS);
    for (int i = 0; i < n; i++) {
        REQUIRE(again[i].id == out[i].id);
        REQUIRE(again[i].league == out[i].league);
        REQUIRE(again[i].gold_record == i % 7);
        REQUIRE(again[i].trained == 1 && again[i].wins == 1);
    }
    char cond[128];
    snprintf(cond, sizeof(cond),
             "(SELECT count(*) FROM bouts WHERE kind = 'league' AND turn = %d) = %d", number,
             TURN_FIGHTERS);
    sql_check(cond);
    sql_check("(SELECT count(*) FROM orders) = 10 * 3000");
}
END_TEST

/* A bout's whole set of orders in one row (migration 16): read back as
 * given, the repeats of a side stored as '='; db_order_put on such a bout
 * moves them to a row each and replaces the one. */
START_TEST(test_order_put_bout)
{
    struct db_bout b = stored_bout(), c = b;
    struct db_order in[6], out[8];
    int n = -1;

    in[0] = order(1, 0, "5/5/10 (ring)", DB_ORDER_PLAN, 1);
    in[1] = order(1, 1, "6/6/8", DB_ORDER_DEFAULT, 0);
    in[2] = order(2, 0, "5/5/10 (ring)", DB_ORDER_PLAN, 1);
    in[3] = order(2, 1, "6/6/8", DB_ORDER_PLAYER, 0);
    in[4] = order(3, 0, "4H/8/8 (inside)", DB_ORDER_PLAN, 12);
    in[5] = order(3, 1, "6/6/8", DB_ORDER_PLAYER, 0);
    ck_assert_int_eq(db_order_put_bout(db, b.id, in, 6), DB_OK);
    ck_assert_int_eq(db_order_list(db, b.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 6);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(out[i].round, in[i].round);
        ck_assert_int_eq(out[i].side, in[i].side);
        ck_assert_str_eq(out[i].text, in[i].text);
        ck_assert_int_eq(out[i].source, in[i].source);
        ck_assert_int_eq(out[i].line, in[i].line);
    }
    db_close(db);
    db = NULL;
    sql_check("(SELECT orders FROM bout_orders) = '@1 5/5/10 (ring)' || char(10) || 'd0 6/6/8'"
              " || char(10) || '=' || char(10) || 'p0 6/6/8' || char(10) || '@12 4H/8/8 (inside)'"
              " || char(10) || '='");
    sql_check("(SELECT count(*) FROM orders) = 0");
    reopen();
    /* max caps the count. */
    ck_assert_int_eq(db_order_list(db, b.id, out, 3, &n), DB_OK);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(out[2].text, "5/5/10 (ring)");
    ck_assert_int_eq(out[2].round, 2);

    /* Refused, nothing stored: a second set, a set not whole, a bad field,
     * no such bout. */
    ck_assert_int_eq(db_order_put_bout(db, b.id, in, 2), DB_ERROR);
    ck_assert_ptr_nonnull(strstr(db_errmsg(db), "are stored already"));
    ck_assert_int_eq(db_bout_create(db, &c), DB_OK);
    ck_assert_int_eq(db_order_put_bout(db, c.id, in, 5), DB_ERROR);
    ck_assert_ptr_nonnull(strstr(db_errmsg(db), "5 of them, not whole rounds"));
    ck_assert_int_eq(db_order_put_bout(db, c.id, in + 2, 4), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "the orders of bout 2 are not whole: order 1 is side 0 of "
                                    "round 2, not side 0 of round 1");
    struct db_order bad[2] = {in[0], in[1]};
    bad[1].line = 3;
    ck_assert_int_eq(db_order_put_bout(db, c.id, bad, 2), DB_ERROR);
    bad[1] = in[1];
    bad[1].text[0] = '\0';
    ck_assert_int_eq(db_order_put_bout(db, c.id, bad, 2), DB_ERROR);
    ck_assert_int_eq(db_order_list(db, c.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(db_order_put_bout(db, c.id + 100, in, 2), DB_NOTFOUND);

    /* An upsert on it: the set moves to a row each, one replaced. */
    struct db_order o = order(2, 1, "3/7/10", DB_ORDER_LAST, 0);
    ck_assert_int_eq(db_order_put(db, b.id, &o), DB_OK);
    ck_assert_int_eq(db_order_list(db, b.id, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 6);
    ck_assert_str_eq(out[3].text, "3/7/10");
    ck_assert_int_eq(out[3].source, DB_ORDER_LAST);
    ck_assert_str_eq(out[4].text, "4H/8/8 (inside)");
    ck_assert_int_eq(out[4].line, 12);
    ck_assert_str_eq(out[5].text, "6/6/8");
    db_close(db);
    db = NULL;
    sql_check("(SELECT count(*) FROM bout_orders) = 0");
    sql_check("(SELECT count(*) FROM orders) = 6");
    reopen();
}
END_TEST

/* A version-15 file keeps its orders at version 16: a finished league or
 * title bout's whole set goes to one row, the rest stays a row each. */
START_TEST(test_migrate_v15_to_v16)
{
    TEST_DB_SQLITE_ONLY("a migration of an old SQLite file");
    char err[512] = "";
    struct db_order o[8];
    int n = 0;

    ck_assert_int_ge(db_schema_latest(), 16);
    db_close(db);
    db = NULL;
    ck_assert_int_eq(unlink(path), 0);
#define BOUT16(id, state, kind, turn, league)                                                      \
    "INSERT INTO bouts (id, rules, channel, rounds, seed, state, fighter_a, fighter_b, round,"     \
    " winner, method, created, started, ended, sheet_a, sheet_b, kind, turn, league) VALUES (" id  \
    ", 'boxing', '#ring', 12, 5, '" state "', 7, 8, 2, -1, 'draw', 10, 11, 12,"                    \
    " '10 12 14 12 12', '10 12 14 12 12', '" kind "', " turn ", " league ");"
    ck_assert_msg(
        db_test_file(
            path, 15,
            "INSERT INTO accounts (id, key, name, hash, created) VALUES (1, 'bob', 'Bob', 'h', 1);"
            "INSERT INTO fighters (id, account_id, key, name, rules, str, spd, agl, tgh, hgt,"
            " created) VALUES (7, 1, 'iron', 'Iron', 'boxing', 10, 12, 14, 12, 12, 2);"
            "INSERT INTO fighters (id, account_id, key, name, rules, str, spd, agl, tgh, hgt,"
            " created) VALUES (8, 1, 'mike', 'Mike', 'boxing', 10, 12, 14, 12, 12, 3);" BOUT16(
                "1", "over", "league", "1", "'bronze'") BOUT16("2", "over", "title", "1", "NULL")
                BOUT16("3", "over", "exhibition", "0", "NULL")
                    BOUT16("4", "over", "league", "1", "'bronze'")
                        BOUT16("5", "over", "league", "1", "'bronze'")
            /* 1: two rounds, side 0 repeats itself. */
            "INSERT INTO orders VALUES (1, 1, 0, '5/5/10 (ring)', 'plan', 1);"
            "INSERT INTO orders VALUES (1, 1, 1, '6/6/8', 'default', 0);"
            "INSERT INTO orders VALUES (1, 2, 0, '5/5/10 (ring)', 'plan', 1);"
            "INSERT INTO orders VALUES (1, 2, 1, '4H/8/8 (inside)', 'plan', 2);"
            /* 2: a title bout of one round. */
            "INSERT INTO orders VALUES (2, 1, 0, '6/6/8', 'player', 0);"
            "INSERT INTO orders VALUES (2, 1, 1, '6/6/8', 'last', 0);"
            /* 3: an exhibition stays as it is. */
            "INSERT INTO orders VALUES (3, 1, 0, '6/6/8', 'player', 0);"
            "INSERT INTO orders VALUES (3, 1, 1, '6/6/8', 'player', 0);"
            /* 4: not a whole set (side 1 of round 2 missing) stays too. */
            "INSERT INTO orders VALUES (4, 1, 0, '6/6/8', 'player', 0);"
            "INSERT INTO orders VALUES (4, 1, 1, '6/6/8', 'player', 0);"
            "INSERT INTO orders VALUES (4, 2, 0, '6/6/8', 'player', 0);"
            /* 5: a text with a line break (never an order's) stays too. */
            "INSERT INTO orders VALUES (5, 1, 0, '6/6/8' || char(10), 'player', 0);"
            "INSERT INTO orders VALUES (5, 1, 1, '6/6/8', 'player', 0);",
            err, sizeof(err)) == DB_OK,
        "%s", err);
#undef BOUT16
    ck_assert_int_eq(header_version(), 15);
    sql_check("(SELECT group_concat(bout || ':' || orders, '|') FROM bout_orders) = '1:@1 5/5/10 "
              "(ring)' || char(10) || 'd0 6/6/8' || char(10) || '=' || char(10) || '@2 4H/8/8 "
              "(inside)|2:p0 6/6/8' || char(10) || 'l0 6/6/8'");
    sql_check("(SELECT group_concat(DISTINCT bout) FROM orders) = '3,4,5'");
    reopen();
    ck_assert_int_eq(db_schema_version(db), db_schema_latest());
    ck_assert_int_eq(db_order_list(db, 1, o, 8, &n), DB_OK);
    ck_assert_int_eq(n, 4);
    ck_assert_str_eq(o[2].text, "5/5/10 (ring)");
    ck_assert_int_eq(o[2].source, DB_ORDER_PLAN);
    ck_assert_int_eq(o[2].line, 1);
    ck_assert_int_eq(o[2].round, 2);
    ck_assert_int_eq(o[2].side, 0);
    ck_assert_str_eq(o[3].text, "4H/8/8 (inside)");
    ck_assert_int_eq(o[3].line, 2);
    ck_assert_int_eq(db_order_list(db, 2, o, 8, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(o[1].source, DB_ORDER_LAST);
    ck_assert_int_eq(db_order_list(db, 4, o, 8, &n), DB_OK);
    ck_assert_int_eq(n, 3);
}
END_TEST

/* A version-23 file: a plans tournament's bouts were stored with nothing
 * said, so every connection said all their rounds again; at version 24
 * they are said. A live tournament's bout and a challenge's keep what
 * they had said, and are still said again after a restart. */
START_TEST(test_migrate_v23_to_v24)
{
    TEST_DB_SQLITE_ONLY("a migration of an old SQLite file");
    char err[512] = "";
    int64_t ids[8];
    int upto[8], n = 0;

    ck_assert_int_ge(db_schema_latest(), 24);
    db_close(db);
    db = NULL;
    ck_assert_int_eq(unlink(path), 0);
#define BOUT23(id, said)                                                                           \
    "INSERT INTO bouts (id, rules, channel, rounds, seed, state, fighter_a, fighter_b, round,"     \
    " winner, method, created, started, ended, sheet_a, sheet_b, kind, turn, league, said)"        \
    " VALUES (" id ", 'boxing', '#ring', 12, 5, 'over', 7, 8, 3, -1, 'draw', 10, 11, 12,"          \
    " '10 12 14 12 12', '10 12 14 12 12', 'exhibition', 0, NULL, " said ");"
#define TOUR23(id, mode)                                                                           \
    "INSERT INTO tournaments (id, name, rules, size, mode, channel, state, stage, said,"           \
    " created) VALUES (" id ", 'Cup', 'boxing', 4, '" mode "', '#ring', 'running', 1, 1, 9);"
#define LINKS23                                                                                    \
    "INSERT INTO tournament_bouts (tournament, stage, slot, fighter_a, fighter_b, bout, winner)"   \
    " VALUES (1, 1, 0, 7, 8, 1, 7), (1, 1, 1, 7, 8, 2, 8), (2, 1, 0, 7, 8, 3, 7),"                 \
    " (1, 2, 0, 7, 8, NULL, NULL);"
    /* 1 and 2: a plans tournament's; 3: a live one's, said up to round 1;
     * 4: a challenge's, nothing said. */
    static const char sql[] =
        "INSERT INTO accounts (id, key, name, hash, created) VALUES (1, 'bob', 'Bob', 'h', 1);"
        "INSERT INTO fighters (id, account_id, key, name, rules, str, spd, agl, tgh, hgt,"
        " created) VALUES (7, 1, 'iron', 'Iron', 'boxing', 10, 12, 14, 12, 12, 2);"
        "INSERT INTO fighters (id, account_id, key, name, rules, str, spd, agl, tgh, hgt,"
        " created) VALUES (8, 1, 'mike', 'Mike', 'boxing', 10, 12, 14, 12, 12, 3);" BOUT23("1", "0")
            BOUT23("2", "0") BOUT23("3", "1") BOUT23("4", "0") TOUR23("1", "plans")
                TOUR23("2", "live") LINKS23;
    ck_assert_msg(db_test_file(path, 23, sql, err, sizeof(err)) == DB_OK, "%s", err);
#undef BOUT23
#undef TOUR23
#undef LINKS23
    ck_assert_int_eq(header_version(), 23);
    reopen();
    ck_assert_int_eq(db_schema_version(db), db_schema_latest());
    sql_check("(SELECT group_concat(id || ':' || said, ',') FROM bouts) = '1:3,2:3,3:1,4:0'");
    ck_assert_int_eq(db_bout_unsaid(db, ids, upto, 8, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(ids[0], 3);
    ck_assert_int_eq(upto[0], 1);
    ck_assert_int_eq(ids[1], 4);
    ck_assert_int_eq(upto[1], 0);
}
END_TEST

/* A version-2 file (made by migrations 1 and 2 alone, with rows as version 2
 * wrote them) keeps everything at version 3. */
START_TEST(test_migrate_v2_to_v3)
{
    TEST_DB_SQLITE_ONLY("a migration of an old SQLite file");
    char err[512] = "";
    struct db_fighter f, out[8];
    struct db_bout b, c;
    struct db_order o[4];
    char text[64];
    int n = 0;

    ck_assert_int_ge(db_schema_latest(), 3);
    db_close(db);
    db = NULL;
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_msg(
        db_test_file(
            path, 2,
            "INSERT INTO accounts (id, key, name, hash, created) VALUES (1, 'bob', 'Bob', 'h', 1);"
            "INSERT INTO fighters (id, account_id, key, name, rules, str, spd, agl, tgh, hgt,"
            " wins, created) VALUES (7, 1, 'iron', 'Iron', 'boxing', 20, 10, 10, 15, 5, 3, 2);"
            "INSERT INTO fighters (id, account_id, key, name, rules, skill, endurance, losses,"
            " created) VALUES (8, 1, 'murphy', 'Murphy', 'sugarray', 12, 21, 2, 3);"
            "INSERT INTO fighters (id, account_id, key, name, rules, skill, endurance, retired,"
            " created) VALUES (9, 1, 'miller', 'Miller', 'sugarray', 10, 26, 1, 4);"
            "INSERT INTO fighters (id, account_id, key, name, rules, skill, endurance,"
            " created) VALUES (10, 1, 'moe', 'Moe', 'sugarray', 11, 22, 5);"
            "INSERT INTO bouts (id, rules, channel, rounds, seed, state, fighter_a, fighter_b,"
            " round, winner, method, created, started, ended, sheet_a, sheet_b) VALUES (3,"
            " 'sugarray', '#ring', 5, -1, 'over', 8, 10, 5, 0, 'points', 10, 11, 12,"
            " '12 21', '11 22');"
            "INSERT INTO orders VALUES (3, 1, 0, '6/0', 'player', 0);"
            "INSERT INTO orders VALUES (3, 1, 1, '2/3', 'plan', 2);"
            "INSERT INTO rounds VALUES (3, 1, 'said', 'blow by blow');"
            "INSERT INTO plans VALUES (8, '6/0', 13);"
            "INSERT INTO audit (time, who, what) VALUES (14, 'admin', 'set');",
            err, sizeof(err)) == DB_OK,
        "%s", err);
    ck_assert_int_eq(header_version(), 2);
    ck_assert_int_eq(db_test_file(path, 2, "SELECT * FROM champions", err, sizeof(err)), DB_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "no such table: champions"));

    reopen();
    ck_assert_int_eq(db_schema_version(db), db_schema_latest());
    ck_assert_int_eq(db_fighter_get(db, "iron", &f), DB_OK);
    ck_assert_int_eq(f.id, 7);
    ck_assert_str_eq(f.owner, "Bob");
    ck_assert_int_eq(f.sheet.u.boxing.str, 20);
    ck_assert_int_eq(f.wins, 3);
    ck_assert_int_eq(f.league, LEAGUE_BRONZE);
    ck_assert_int_eq(f.gold_record + f.paused + f.trained + f.missed, 0);
    ck_assert_int_eq(db_fighter_list(db, 1, 1, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 4);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(out[i].league, LEAGUE_BRONZE);
        ck_assert_int_eq(out[i].gold_record + out[i].paused + out[i].trained + out[i].missed, 0);
    }
    ck_assert_int_eq(db_fighter_list_rules(db, RULES_SUGARRAY, out, 8, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(out[0].id, 8);
    ck_assert_int_eq(out[0].losses, 2);
    ck_assert_int_eq(out[1].id, 10);

    ck_assert_int_eq(db_bout_get(db, 3, &b), DB_OK);
    ck_assert_int_eq(b.kind, DB_BOUT_EXHIBITION);
    ck_assert_int_eq(b.turn, 0);
    ck_assert_int_eq(b.league, -1);
    ck_assert_uint_eq(b.seed, UINT64_MAX);
    ck_assert_int_eq(b.state, DB_BOUT_OVER);
    ck_assert_int_eq(b.method, METHOD_POINTS);
    ck_assert_int_eq(b.sheet[1].u.sugarray.endurance, 22);
    ck_assert_int_eq(db_order_list(db, 3, o, 4, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(o[1].text, "2/3");
    ck_assert_int_eq(o[1].line, 2);
    ck_assert_int_eq(db_round_report(db, 3, 1, text, sizeof(text)), DB_OK);
    ck_assert_str_eq(text, "blow by blow");
    /* Migration 4 keeps the old texts, and adds no digest to them. */
    uint64_t digest;
    ck_assert_int_eq(b.has_digest, 0);
    ck_assert_int_eq(db_round_digest(db, 3, 1, &digest), DB_NOTFOUND);
    ck_assert_int_eq(db_plan_get(db, 8, text, sizeof(text)), DB_OK);
    ck_assert_str_eq(text, "6/0");
    sql_check("(SELECT count(*) FROM audit) = 1");
    sql_check("(SELECT count(*) FROM sqlite_master WHERE type = 'index'"
              " AND name = 'fighters_rules') = 1");

    /* The new columns and tables work with the old rows. */
    ck_assert_int_eq(db_fighter_get(db, "murphy", &f), DB_OK);
    f.league = LEAGUE_GOLD;
    f.gold_record = 4;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    ck_assert_int_eq(db_champion_set(db, RULES_SUGARRAY, 10, 0, 20), DB_OK);
    ck_assert_int_eq(db_turn_add(db, RULES_SUGARRAY, 20, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    const int64_t id[SIDES] = {8, 10};
    b = challenge(id);
    b.rules = RULES_SUGARRAY;
    b.rounds = 5;
    b.sheet[0] = f.sheet;
    b.sheet[1] = out[1].sheet;
    b.kind = DB_BOUT_LEAGUE;
    b.turn = 1;
    b.league = LEAGUE_GOLD;
    ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
    ck_assert_int_eq(b.id, 4);

    /* Opening again migrates nothing. */
    reopen();
    ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
    bout_eq(&b, &c);
    ck_assert_int_eq(db_fighter_get_id(db, 8, &f), DB_OK);
    ck_assert_int_eq(f.league, LEAGUE_GOLD);
    ck_assert_int_eq(f.gold_record, 4);
    ck_assert_int_eq(db_schema_version(db), db_schema_latest());
}
END_TEST

/* League fields edited by hand (CHECKs off) read as errors, never garbage. */
START_TEST(test_league_bad_rows_refused)
{
    struct db_fighter f, out[4];
    struct db_bout b = stored_bout(), c;
    char sql[256];
    int n = -1;

    static const struct {
        const char *set, *message;
    } bad_fighters[] = {
        {"league = 'platinum'", "has league 'platinum', which this ringside does not know"},
        {"league = 'GOLD'", "has league 'GOLD'"},
        {"gold_record = -1", "gold record -1"},
        {"paused = -2", "paused -2"},
    };
    for (size_t i = 0; i < sizeof(bad_fighters) / sizeof(bad_fighters[0]); i++) {
        snprintf(sql, sizeof(sql), "UPDATE fighters SET %s WHERE key = 'red'", bad_fighters[i].set);
        sql_force(sql);
        ck_assert_int_eq(db_fighter_get(db, "red", &f), DB_ERROR);
        ck_assert_msg(strstr(db_errmsg(db), bad_fighters[i].message), "%s: %s", bad_fighters[i].set,
                      db_errmsg(db));
        n = -1;
        ck_assert_int_eq(db_fighter_list_rules(db, RULES_BOXING, out, 4, &n), DB_ERROR);
        ck_assert_int_eq(n, 0);
        sql_force("UPDATE fighters SET league = 'bronze', gold_record = 0, paused = 0");
        ck_assert_int_eq(db_fighter_get(db, "red", &f), DB_OK);
        ck_assert_int_eq(db_fighter_list_rules(db, RULES_BOXING, out, 4, &n), DB_OK);
        ck_assert_int_eq(n, 2);
    }

    static const struct {
        const char *set, *message;
    } bad_bouts[] = {
        {"kind = 'friendly'", "has kind 'friendly', which this ringside does not know"},
        {"kind = 'league', turn = 1", "league bout with turn 1 and league -1"},
        {"league = 'gold'", "exhibition bout with turn 0 and league 2"},
        {"turn = 3", "exhibition bout with turn 3"},
        {"kind = 'title'", "title bout with turn 0"},
        {"kind = 'league', turn = 2, league = 'tin'", "has league 'tin'"},
    };
    for (size_t i = 0; i < sizeof(bad_bouts) / sizeof(bad_bouts[0]); i++) {
        snprintf(sql, sizeof(sql), "UPDATE bouts SET %s WHERE id = %lld", bad_bouts[i].set,
                 (long long)b.id);
        sql_force(sql);
        ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_ERROR);
        ck_assert_msg(strstr(db_errmsg(db), bad_bouts[i].message), "%s: %s", bad_bouts[i].set,
                      db_errmsg(db));
        sql_force("UPDATE bouts SET kind = 'exhibition', turn = 0, league = NULL");
        ck_assert_int_eq(db_bout_get(db, b.id, &c), DB_OK);
        bout_eq(&b, &c);
    }
}
END_TEST

/* The fault hook: the step after n fails once, as an I/O error, through
 * the usual path; ROLLBACK is never counted; off, nothing fails. */
START_TEST(test_fault_hook)
{
    struct db_account a;

    account("alice");
    ck_assert_int_eq(db_fault_pending(db), 0);
    db_fault_after(db, 1); /* BEGIN runs, the next step fails */
    ck_assert_int_eq(db_fault_pending(db), 1);
    ck_assert_int_eq(db_begin(db), DB_OK);
    ck_assert_int_eq(db_account_get(db, "alice", &a), DB_ERROR);
    ck_assert_str_eq(db_errmsg(db), "disk I/O error (injected fault)");
    ck_assert_int_eq(db_fault_pending(db), 0);
    db_fault_after(db, 0); /* the next one: not the ROLLBACK */
    ck_assert_int_eq(db_rollback(db), DB_OK);
    ck_assert_int_eq(db_fault_pending(db), 1);
    ck_assert_int_eq(db_begin(db), DB_ERROR); /* that one */
    ck_assert_int_eq(db_begin(db), DB_OK);    /* it fires once */
    ck_assert_int_eq(db_account_get(db, "alice", &a), DB_OK);
    db_fault_after(db, 0);
    ck_assert_int_eq(db_commit(db), DB_ERROR); /* a failed COMMIT leaves it open */
    ck_assert_int_eq(db_rollback(db), DB_OK);
    db_fault_after(db, 3);
    db_fault_after(db, -1); /* off */
    ck_assert_int_eq(db_fault_pending(db), 0);
    for (int i = 0; i < 10; i++)
        ck_assert_int_eq(db_account_get(db, "alice", &a), DB_OK);
}
END_TEST

Suite *db_suite(void)
{
    Suite *s = suite_create("db");
    TCase *tc = tcase_create("core");

    tcase_add_unchecked_fixture(tc, suite_setup, suite_teardown);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_open_creates_and_migrates);
    tcase_add_test(tc, test_reopen_keeps_data);
    tcase_add_test(tc, test_newer_schema_refused);
    tcase_add_test(tc, test_open_errors);
    tcase_add_test(tc, test_new_file_private);
    tcase_add_test(tc, test_second_connection_sees_writes);
    tcase_add_test(tc, test_account_create_get);
    tcase_add_test(tc, test_account_hash_and_ban);
    tcase_add_test(tc, test_account_bad_strings);
    tcase_add_test(tc, test_burnt_passwords);
    tcase_add_test(tc, test_migrate_v4_to_v5);
    tcase_add_test(tc, test_fighter_boxing);
    tcase_add_test(tc, test_fighter_sugarray);
    tcase_add_test(tc, test_fighter_duplicate_and_orphan);
    tcase_add_test(tc, test_fighter_bad_sheets);
    tcase_add_test(tc, test_fighter_list);
    tcase_add_test(tc, test_fighter_save);
    tcase_add_test(tc, test_fighter_retire);
    tcase_add_test(tc, test_fighter_remove);
    tcase_add_test(tc, test_fighter_references);
    tcase_add_test(tc, test_names_that_look_like_sql);
    tcase_add_test(tc, test_text_order_bytewise);
    tcase_add_test(tc, test_thousand_fighters);
    tcase_add_test(tc, test_fault_hook);
    suite_add_tcase(s, tc);

    tc = tcase_create("bouts");
    tcase_add_unchecked_fixture(tc, suite_setup, suite_teardown);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_migrate_v1_to_v2);
    tcase_add_test(tc, test_migrate_v8_to_v9);
    tcase_add_test(tc, test_fighter_get_id);
    tcase_add_test(tc, test_bout_create_get);
    tcase_add_test(tc, test_bout_seed_bits);
    tcase_add_test(tc, test_bout_refused);
    tcase_add_test(tc, test_bout_save);
    tcase_add_test(tc, test_bout_list);
    tcase_add_test(tc, test_bout_lists_for_pages);
    tcase_add_test(tc, test_reader_transactions_and_data_version);
    tcase_add_test(tc, test_order_put_list);
    tcase_add_test(tc, test_order_put_bout);
    tcase_add_test(tc, test_migrate_v15_to_v16);
    tcase_add_test(tc, test_migrate_v23_to_v24);
    tcase_add_test(tc, test_order_refused);
    tcase_add_test(tc, test_round_digest);
    tcase_add_test(tc, test_plan);
    tcase_add_test(tc, test_audit);
    tcase_add_test(tc, test_transaction_rollback_commit);
    tcase_add_test(tc, test_transaction_misuse);
    tcase_add_test(tc, test_kill9_keeps_what_was_acknowledged);
    tcase_add_test(tc, test_bad_rows_refused);
    tcase_add_test(tc, test_fighter_duel_kit);
    suite_add_tcase(s, tc);

    tc = tcase_create("leagues");
    tcase_add_unchecked_fixture(tc, suite_setup, suite_teardown);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_fighter_league_defaults);
    tcase_add_test(tc, test_fighter_league_round_trip);
    tcase_add_test(tc, test_bout_kind_round_trip);
    tcase_add_test(tc, test_fighter_list_rules);
    tcase_add_test(tc, test_league_count_plans);
    tcase_add_test(tc, test_champion);
    tcase_add_test(tc, test_turns);
    tcase_add_test(tc, test_league_turn_bulk);
    tcase_add_test(tc, test_migrate_v2_to_v3);
    tcase_add_test(tc, test_league_bad_rows_refused);
    suite_add_tcase(s, tc);
    return s;
}
