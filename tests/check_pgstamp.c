/* check_pgstamp.c - several writers on one database (issue 29, migration
 * 19). On PostgreSQL, two real connections interleave as two bots would,
 * each in READ COMMITTED: a writer that stamps a fighter or a rating, or
 * takes a league turn's number, waits while another holds the stamps'
 * advisory lock (its transaction not yet committed), then reads the
 * highest again and takes the next: no two transactions commit the same
 * stamp or number, and none commits a stamp below one a reader already
 * saw. The trigger's path (a row written by another hand) waits alike.
 * The jobs' lock (db_job_lock): one holder a job. And the migration of a
 * database at 18 (schema_pg.sql as it was) to 19 gives the functions a new
 * database gets. On SQLite (one writer at a time) the lock is free and
 * the migration a no-op; the tests of two writers say so and end. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "test_db.h"
#include "tests.h"
#include "util.h"

static char dir[64], path[128];
static struct db *a, *b, *watch; /* two writers, and one who looks */

static struct db *open_one(void)
{
    char err[512];
    struct db *d = test_db_open(path, err, sizeof(err));

    ck_assert_msg(d != NULL, "%s", err);
    return d;
}

static void setup(void)
{
    snprintf(dir, sizeof(dir), "/tmp/ringside-pgstamp.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/s.db", dir);
    a = open_one();
    b = open_one();
    watch = open_one();
}

static void teardown(void)
{
    char f[160];

    db_close(b);
    db_close(watch);
    test_db_close(a, path);
    for (const char *const *s = (const char *const[]){"", "-wal", "-shm", ".lock", NULL}; *s; s++) {
        snprintf(f, sizeof(f), "%s%s", path, *s);
        unlink(f);
    }
    rmdir(dir);
}

/* One integer that `sql` (one row, one column, ?1 bound to `id`) gives. */
static int64_t one_int(struct db *d, const char *sql, int64_t id)
{
    struct dbs *q = dbs_prepare(d, sql);

    ck_assert_msg(q != NULL, "%s: %s", sql, db_errmsg(d));
    if (strstr(sql, "?1"))
        dbs_bind_int64(q, 1, id);
    ck_assert_msg(dbs_step(q) == DBS_ROW, "%s: %s", sql, db_errmsg(d));
    int64_t v = dbs_col_int64(q, 0);
    dbs_free(q);
    return v;
}

/* Two boxers of one owner, stored by a. */
static void two_boxers(int64_t id[2])
{
    int64_t owner;

    ck_assert_int_eq(db_account_create(a, "bob", "Bob", "x", 1, &owner), DB_OK);
    id[0] = test_db_boxer(a, owner, "apollo", 100);
    id[1] = test_db_boxer(a, owner, "rocky", 100);
}

/* Fighter `id` saved with one more win, by d (a bout's result). */
static void win(struct db *d, int64_t id)
{
    struct db_fighter f;

    ck_assert_int_eq(db_fighter_get_id(d, id, &f), DB_OK);
    f.wins++;
    ck_assert_msg(db_fighter_save(d, &f) == DB_OK, "%s", db_errmsg(d));
}

static void rate(struct db *d, int64_t id)
{
    struct db_rating r = {1600, 200, 0.06, 1};
    ck_assert_msg(db_rating_set(d, id, RULES_BOXING, &r, 5) == DB_OK, "%s", db_errmsg(d));
}

static int64_t fighter_stamp(struct db *d, int64_t id)
{
    return one_int(d, "SELECT changed FROM fighters WHERE id = ?1", id);
}

static int64_t rating_stamp(struct db *d, int64_t id)
{
    return one_int(d, "SELECT changed FROM ratings WHERE fighter = ?1", id);
}

/* db_fighter_changed's one fighter (a second one fails the test). */
static void changed_one(void *ctx, const struct db_fighter *f)
{
    int64_t *got = ctx;
    ck_assert_int_eq(*got, 0);
    *got = f->id;
}

/* The text of file `name`, allocated. */
static char *file_text(const char *name)
{
    FILE *f = fopen(name, "rb");
    struct str s;
    char buf[4096];
    size_t n;

    ck_assert_msg(f != NULL, "cannot open %s", name);
    str_init(&s);
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        str_raw(&s, buf, n);
    fclose(f);
    return str_take(&s, NULL);
}

/* What the second writer does, in a thread of its own (it waits). */
enum write { W_SAVE_AND_RATE, W_HAND_UPDATE, W_TURN };
struct writer {
    struct db *d;
    enum write what;
    int64_t id;
    int number; /* W_TURN: the turn's number */
    int ok;
};

static void *writer_run(void *arg)
{
    struct writer *w = arg;

    if (w->what == W_HAND_UPDATE) {
        /* Another hand (psql): no stamp set, the trigger sets it, in a
         * transaction of its own. */
        struct dbs *q = dbs_prepare(w->d, "UPDATE fighters SET draws = draws + 1 WHERE id = ?1");
        if (q) {
            dbs_bind_int64(q, 1, w->id);
            w->ok = dbs_run(q) == DBS_DONE;
        }
        dbs_free(q);
        return NULL;
    }
    if (db_begin(w->d) != DB_OK)
        return NULL;
    struct db_rating r = {1400, 200, 0.06, 1};
    struct db_fighter f;
    if (w->what == W_TURN)
        w->ok = db_turn_add(w->d, RULES_BOXING, 7, &w->number) == DB_OK;
    else
        w->ok = db_fighter_get_id(w->d, w->id, &f) == DB_OK && (f.wins++, 1) &&
                db_fighter_save(w->d, &f) == DB_OK &&
                db_rating_set(w->d, w->id, RULES_BOXING, &r, 6) == DB_OK;
    if (!w->ok || db_commit(w->d) != DB_OK) {
        w->ok = 0;
        db_rollback(w->d);
    }
    return NULL;
}

/* Until session `pid` waits for an advisory lock (20 s at most): the
 * second writer is held back by the first's. */
static void wait_held_back(int64_t pid)
{
    int waiting = 0;

    for (int i = 0; i < 2000 && !waiting; i++) {
        waiting = one_int(watch,
                          "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                          " AND NOT granted AND pid = ?1",
                          pid) > 0;
        if (!waiting)
            nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    ck_assert_msg(waiting, "the second writer never waited for the first's lock");
}

/* b runs `w` while a's transaction is open; returns once b is held back. */
static void second_writer(pthread_t *t, struct writer *w)
{
    int64_t pid = one_int(b, "SELECT pg_backend_pid()", 0);

    w->d = b;
    ck_assert_int_eq(pthread_create(t, NULL, writer_run, w), 0);
    wait_held_back(pid);
}

/* Two bots save a fighter and set a rating each at once: the second waits
 * for the first's commit, then stamps above it; a reader never sees a
 * stamp commit below one it saw. */
START_TEST(test_stamps_two_writers)
{
    if (!test_db_pg())
        return; /* SQLite has one writer at a time (BEGIN IMMEDIATE) */
    int64_t id[2];
    pthread_t t;
    struct writer w = {.what = W_SAVE_AND_RATE};

    two_boxers(id);
    w.id = id[1];
    int64_t seen = one_int(watch, "SELECT max(changed) FROM fighters", 0);

    ck_assert_int_eq(db_begin(a), DB_OK);
    win(a, id[0]);
    rate(a, id[0]);
    int64_t mine = fighter_stamp(a, id[0]);
    ck_assert_int_gt(mine, seen);
    /* Not committed: a reader sees the highest as it was. */
    ck_assert_int_eq(one_int(watch, "SELECT max(changed) FROM fighters", 0), seen);
    second_writer(&t, &w);
    ck_assert_int_eq(db_commit(a), DB_OK);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_msg(w.ok, "the second writer failed: %s", db_errmsg(b));

    ck_assert_int_eq(fighter_stamp(watch, id[0]), mine);
    ck_assert_int_gt(fighter_stamp(watch, id[1]), mine);
    ck_assert_int_gt(rating_stamp(watch, id[1]), rating_stamp(watch, id[0]));
    ck_assert_int_eq(one_int(watch, "SELECT count(DISTINCT changed) FROM fighters", 0), 2);
    /* The reader that saw `mine` reads the second writer's row after it. */
    int64_t top = -1, got = 0;
    ck_assert_int_eq(db_fighter_changed(watch, mine, &top, changed_one, &got), DB_OK);
    ck_assert_int_eq(got, id[1]);
    ck_assert_int_eq(top, fighter_stamp(watch, id[1]));
}
END_TEST

/* A row written by another hand (the trigger stamps it) waits alike. */
START_TEST(test_trigger_waits)
{
    if (!test_db_pg())
        return; /* SQLite has one writer at a time */
    int64_t id[2];
    pthread_t t;
    struct writer w = {.what = W_HAND_UPDATE};

    two_boxers(id);
    w.id = id[1];
    ck_assert_int_eq(db_begin(a), DB_OK);
    win(a, id[0]);
    int64_t mine = fighter_stamp(a, id[0]);
    second_writer(&t, &w);
    ck_assert_int_eq(db_commit(a), DB_OK);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_msg(w.ok, "the hand's UPDATE failed: %s", db_errmsg(b));
    ck_assert_int_eq(one_int(watch, "SELECT draws FROM fighters WHERE id = ?1", id[1]), 1);
    ck_assert_int_gt(fighter_stamp(watch, id[1]), mine);
}
END_TEST

/* Two turns at once: the second takes the next number, not the same. */
START_TEST(test_turn_numbers)
{
    if (!test_db_pg())
        return; /* SQLite has one writer at a time */
    pthread_t t;
    struct writer w = {.what = W_TURN};
    int mine = 0;

    ck_assert_int_eq(db_begin(a), DB_OK);
    ck_assert_int_eq(db_turn_add(a, RULES_BOXING, 5, &mine), DB_OK);
    ck_assert_int_eq(mine, 1);
    second_writer(&t, &w);
    ck_assert_int_eq(db_commit(a), DB_OK);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_msg(w.ok, "the second turn failed: %s", db_errmsg(b));
    ck_assert_int_eq(w.number, 2);
    int n = 0;
    int64_t when = 0;
    ck_assert_int_eq(db_turn_last(watch, RULES_BOXING, &n, &when), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(when, 7);
}
END_TEST

/* A job has one holder at a time among the connections; its holder may
 * take it again (and gives it back as often); a connection closed frees
 * it. SQLite: one bot a file, every job its own. */
START_TEST(test_job_lock)
{
    if (!test_db_pg()) {
        ck_assert_int_eq(db_job_lock(a, "league boxing"), DB_OK);
        ck_assert_int_eq(db_job_lock(b, "league boxing"), DB_OK);
        db_job_unlock(a, "league boxing");
        db_job_unlock(b, "league boxing");
        return;
    }
    ck_assert_int_eq(db_job_lock(a, "league boxing"), DB_OK);
    ck_assert_int_eq(db_job_lock(b, "league boxing"), DB_EXISTS);
    ck_assert_int_eq(db_job_lock(b, "league duel"), DB_OK); /* another job */
    ck_assert_int_eq(db_job_lock(a, "league boxing"), DB_OK);
    db_job_unlock(a, "league boxing");
    ck_assert_int_eq(db_job_lock(b, "league boxing"), DB_EXISTS);
    db_job_unlock(a, "league boxing");
    ck_assert_int_eq(db_job_lock(b, "league boxing"), DB_OK);
    ck_assert_int_eq(db_job_lock(a, "league duel"), DB_EXISTS);
    db_close(b); /* a bot gone: its jobs are free */
    b = open_one();
    ck_assert_int_eq(db_job_lock(a, "league duel"), DB_OK);
    ck_assert_int_eq(db_job_lock(a, "league boxing"), DB_OK);
}
END_TEST

/* The functions of a database's schema, one text (PostgreSQL). */
static char *functions(struct db *d)
{
    struct dbs *q =
        dbs_prepare(d, "SELECT coalesce(string_agg(p.proname || ': ' || p.prosrc,"
                       " E'\\n' ORDER BY p.proname), '') FROM pg_proc p"
                       " WHERE p.pronamespace = CAST(current_schema() AS regnamespace)");

    ck_assert_msg(q != NULL, "%s", db_errmsg(d));
    ck_assert_msg(dbs_step(q) == DBS_ROW, "%s", db_errmsg(d));
    char *s = xstrdup(dbs_col_text(q, 0));
    dbs_free(q);
    return s;
}

/* A database at 18 migrates to 19: on PostgreSQL it gets the functions a
 * new database gets, and its stamps come from them; SQLite's is a no-op. */
START_TEST(test_migrate_18)
{
    char err[512] = "", uri[1024], old_path[160];

    snprintf(old_path, sizeof(old_path), "%s-old", path);
    if (!test_db_pg()) {
        ck_assert_msg(db_test_file(old_path, 18,
                                   "INSERT INTO accounts (id, key, name, hash, created) VALUES"
                                   " (3, 'bob', 'Bob', 'h', 1);",
                                   err, sizeof(err)) == DB_OK,
                      "%s", err);
    } else {
        test_db_uri(old_path, uri, sizeof(uri));
        char *script = file_text("tests/data/schema_pg_18.sql");
        ck_assert_msg(db_test_pg(uri, script, err, sizeof(err)) == DB_OK, "%s", err);
        free(script);
        ck_assert_msg(db_test_pg(uri,
                                 "INSERT INTO accounts (id, key, name, hash, created) VALUES"
                                 " (3, 'bob', 'Bob', 'h', 1);",
                                 err, sizeof(err)) == DB_OK,
                      "%s", err);
    }
    struct db *old = test_db_open(old_path, err, sizeof(err));
    ck_assert_msg(old != NULL, "%s", err);
    ck_assert_int_eq(db_schema_version(old), db_schema_latest());
    ck_assert_int_ge(db_schema_latest(), 19);
    int64_t f1 = test_db_boxer(old, 3, "iron", 100), f2 = test_db_boxer(old, 3, "mike", 100);
    ck_assert_int_lt(fighter_stamp(old, f1), fighter_stamp(old, f2));
    if (test_db_pg()) {
        char *want = functions(a), *got = functions(old);
        ck_assert_ptr_nonnull(strstr(want, "fighters_next_stamp: "));
        ck_assert_ptr_nonnull(strstr(want, "turns_next_number: "));
        ck_assert_msg(strcmp(want, got) == 0, "migrated:\n%s\nnew:\n%s", got, want);
        free(want);
        free(got);
    }
    test_db_close(old, old_path);
    unlink(old_path);
}
END_TEST

/* PostgreSQL: the INSERTs whose id is read carry RETURNING id (no
 * lastval() round trip), and the ids are right. */
START_TEST(test_returning_id)
{
    if (!test_db_pg())
        return; /* SQLite reads the last insert rowid */
    int64_t id[2];

    two_boxers(id);
    ck_assert_int_eq(id[1], id[0] + 1);
    ck_assert_int_eq(one_int(a, "SELECT id FROM fighters WHERE key = 'rocky'", 0), id[1]);
    ck_assert_int_eq(one_int(a,
                             "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE"
                             " 'INSERT INTO %' AND statement LIKE '% RETURNING id'",
                             0),
                     3); /* the account's, the fighter's, the bout's (all prepared at open) */
}
END_TEST

Suite *pgstamp_suite(void)
{
    Suite *s = suite_create("pgstamp");
    TCase *tc = tcase_create("pgstamp");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_stamps_two_writers);
    tcase_add_test(tc, test_trigger_waits);
    tcase_add_test(tc, test_turn_numbers);
    tcase_add_test(tc, test_job_lock);
    tcase_add_test(tc, test_migrate_18);
    tcase_add_test(tc, test_returning_id);
    suite_add_tcase(s, tc);
    return s;
}
