/* check_stamp.c - the change stamps of fighters and ratings (migration 17)
 * that ringside-web's standings follow: every statement that writes a
 * fighter's row (create, save, retire, a season's reset) or a rating
 * (db_rating_put) raises that row's stamp above every other, so
 * db_fighter_changed and db_rating_changed since the last stamp read give
 * exactly the rows written since, and nothing when nothing was. A real
 * SQLite file, and a read-only connection reading what the writer
 * committed, as the web server does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "test_db.h"
#include "tests.h"

static char dir[64];
static char path[128];
static struct db *db; /* the writer */
static struct db *ro; /* the reader, as ringside-web opens it */

/* What one db_*_changed call gave: the ids, in any order. */
struct seen {
    int64_t id[64];
    int n;
};

static void seen_fighter(void *ctx, const struct db_fighter *f)
{
    struct seen *s = ctx;
    ck_assert_int_lt(s->n, 64);
    s->id[s->n++] = f->id;
}

static void seen_rating(void *ctx, int64_t fighter, enum rules rules, const struct db_rating *r)
{
    struct seen *s = ctx;
    (void)rules;
    (void)r;
    ck_assert_int_lt(s->n, 64);
    s->id[s->n++] = fighter;
}

static int has(const struct seen *s, int64_t id)
{
    for (int i = 0; i < s->n; i++)
        if (s->id[i] == id)
            return 1;
    return 0;
}

/* The fighters the reader sees stamped after *stamp, *stamp moved on. */
static struct seen fighters_since(int64_t *stamp)
{
    struct seen s = {.n = 0};
    int64_t was = *stamp;

    ck_assert_int_eq(db_read_begin(ro), DB_OK);
    ck_assert_msg(db_fighter_changed(ro, was, stamp, seen_fighter, &s) == DB_OK, "%s",
                  db_errmsg(ro));
    db_read_end(ro);
    ck_assert_int_ge(*stamp, was);
    return s;
}

static struct seen ratings_since(int64_t *stamp)
{
    struct seen s = {.n = 0};
    int64_t was = *stamp;

    ck_assert_int_eq(db_read_begin(ro), DB_OK);
    ck_assert_msg(db_rating_changed(ro, was, stamp, seen_rating, &s) == DB_OK, "%s", db_errmsg(ro));
    db_read_end(ro);
    ck_assert_int_ge(*stamp, was);
    return s;
}

static int64_t boxer(int64_t owner, const char *key, const char *name)
{
    struct db_fighter f;

    memset(&f, 0, sizeof(f));
    f.account_id = owner;
    snprintf(f.name, sizeof(f.name), "%s", name);
    f.sheet.rules = RULES_BOXING;
    f.sheet.u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12};
    f.created = 100;
    ck_assert_int_eq(db_fighter_create(db, key, &f), DB_OK);
    return f.id;
}

static void setup(void)
{
    char err[256] = "";

    snprintf(dir, sizeof(dir), "/tmp/ringside-stamp-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/ringside.db", dir);
    db = test_db_open(path, err, sizeof(err));
    ck_assert_msg(db != NULL, "db_open: %s", err);
    ro = test_db_open_readonly(path, err, sizeof(err));
    ck_assert_msg(ro != NULL, "db_open_readonly: %s", err);
}

static void teardown(void)
{
    char p[192];

    db_close(ro);
    test_db_close(db, path);
    const char *const ends[] = {"", "-wal", "-shm", ".id"};
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof(p), "%s%s", path, ends[i]);
        unlink(p);
    }
    rmdir(dir);
}

START_TEST(test_fighter_stamps)
{
    int64_t owner, stamp = -1;

    ck_assert_int_eq(db_account_create(db, "bob", "bob", "x", 1, &owner), DB_OK);
    int64_t a = boxer(owner, "apollo", "Apollo"), b = boxer(owner, "rocky", "Rocky");
    /* The first look (-1): every fighter. */
    struct seen s = fighters_since(&stamp);
    ck_assert_int_eq(s.n, 2);
    ck_assert(has(&s, a) && has(&s, b));
    ck_assert_int_gt(stamp, 0);
    /* Nothing written: nothing, and the stamp stays. */
    int64_t was = stamp;
    s = fighters_since(&stamp);
    ck_assert_int_eq(s.n, 0);
    ck_assert_int_eq(stamp, was);
    /* A save (a bout's result): that fighter alone. */
    struct db_fighter f;
    ck_assert_int_eq(db_fighter_get(db, "rocky", &f), DB_OK);
    f.wins++;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    s = fighters_since(&stamp);
    ck_assert_int_eq(s.n, 1);
    ck_assert(has(&s, b));
    ck_assert_int_gt(stamp, was);
    /* Saved again in one transaction with the other: both, once each. */
    ck_assert_int_eq(db_begin(db), DB_OK);
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    ck_assert_int_eq(db_fighter_get(db, "apollo", &f), DB_OK);
    f.league = LEAGUE_SILVER;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    ck_assert_int_eq(db_commit(db), DB_OK);
    s = fighters_since(&stamp);
    ck_assert_int_eq(s.n, 2);
    ck_assert(has(&s, a) && has(&s, b));
    /* Retired, and a new fighter. */
    ck_assert_int_eq(db_fighter_retire(db, a), DB_OK);
    int64_t c = boxer(owner, "drago", "Drago");
    s = fighters_since(&stamp);
    ck_assert_int_eq(s.n, 2);
    ck_assert(has(&s, a) && has(&s, c));
    /* A season's end resets every boxer's season record. */
    ck_assert_int_eq(db_season_reset(db, RULES_BOXING), DB_OK);
    s = fighters_since(&stamp);
    ck_assert_int_eq(s.n, 3);
    s = fighters_since(&stamp);
    ck_assert_int_eq(s.n, 0);
}
END_TEST

START_TEST(test_rating_stamps)
{
    int64_t owner, fstamp = -1, stamp = -1;

    ck_assert_int_eq(db_account_create(db, "bob", "bob", "x", 1, &owner), DB_OK);
    int64_t a = boxer(owner, "apollo", "Apollo"), b = boxer(owner, "rocky", "Rocky");
    struct db_bout bt = {.rules = RULES_BOXING,
                         .channel = "#ring",
                         .rounds = 3,
                         .state = DB_BOUT_CANCELLED,
                         .winner = -1,
                         .fighter = {a, b}};
    ck_assert_int_eq(db_bout_create(db, &bt), DB_OK);
    struct seen s = ratings_since(&stamp);
    ck_assert_int_eq(s.n, 0);
    (void)fighters_since(&fstamp);
    struct db_rating r = {1550.0, 200.0, 0.06, 1};
    ck_assert_int_eq(db_rating_put(db, b, RULES_BOXING, &r, bt.id, 1, 1500.0, 5), DB_OK);
    s = ratings_since(&stamp);
    ck_assert_int_eq(s.n, 1);
    ck_assert(has(&s, b));
    int64_t was = stamp;
    /* Its row again (the next bout): seen again, the stamp higher. */
    ck_assert_int_eq(db_rating_put(db, b, RULES_BOXING, &r, bt.id, 0, 1550.0, 6), DB_OK);
    s = ratings_since(&stamp);
    ck_assert_int_eq(s.n, 1);
    ck_assert_int_gt(stamp, was);
    s = ratings_since(&stamp);
    ck_assert_int_eq(s.n, 0);
    /* A rating is not a fighter's row: no fighter stamped. */
    s = fighters_since(&fstamp);
    ck_assert_int_eq(s.n, 0);
}
END_TEST

Suite *stamp_suite(void)
{
    Suite *s = suite_create("stamp");
    TCase *tc = tcase_create("stamp");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_fighter_stamps);
    tcase_add_test(tc, test_rating_stamps);
    suite_add_tcase(s, tc);
    return s;
}
