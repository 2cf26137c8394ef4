/* check_db.c - storage against a real SQLite file in a fresh directory:
 * opening and migrating (WAL, foreign keys, versions old and new), accounts,
 * fighters of both rulesets, names that look like SQL, and a thousand
 * fighters. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"
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
    db = db_open(path, err, sizeof(err));
    ck_assert_msg(db != NULL, "db_open: %s", err);
}

static void teardown(void)
{
    db_close(db);
    db = NULL;
    remove_tree(dir);
}

static void reopen(void)
{
    char err[256] = "";

    db_close(db);
    db = db_open(path, err, sizeof(err));
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
    char err[512], want[512];
    int newer = db_schema_latest() + 8;

    account("bob");
    db_close(db);
    db = NULL;
    ck_assert_int_eq(access(path, F_OK), 0);
    header_version_set(newer);
    ck_assert_ptr_null(db_open(path, err, sizeof(err)));
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

START_TEST(test_second_connection_sees_writes)
{
    char err[256];
    struct db_account a;
    struct db *other = db_open(path, err, sizeof(err));

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
    tcase_add_test(tc, test_second_connection_sees_writes);
    tcase_add_test(tc, test_account_create_get);
    tcase_add_test(tc, test_account_hash_and_ban);
    tcase_add_test(tc, test_account_bad_strings);
    tcase_add_test(tc, test_fighter_boxing);
    tcase_add_test(tc, test_fighter_sugarray);
    tcase_add_test(tc, test_fighter_duplicate_and_orphan);
    tcase_add_test(tc, test_fighter_bad_sheets);
    tcase_add_test(tc, test_fighter_list);
    tcase_add_test(tc, test_fighter_save);
    tcase_add_test(tc, test_fighter_retire);
    tcase_add_test(tc, test_names_that_look_like_sql);
    tcase_add_test(tc, test_thousand_fighters);
    suite_add_tcase(s, tc);
    return s;
}
