/* check_turn.c - league turns run by the bot against a real SQLite file.
 *
 * SUGAR RAY bouts are deterministic given the orders, so plans decide them:
 * an attacker (plan 4/0) beats a defender (plan 0/3) on points, two
 * attackers knock each other out (a tie), two defenders tie on points. That
 * lets every rule of a turn be checked exactly: pairing, moves, gold
 * records and their resets, the title (held and vacant), pauses, missed
 * plans, and a turn of 1,000 fighters in one transaction; and the change
 * stamps a turn leaves, which it sets itself with the stamp triggers off on
 * its connection (db_league_stamping), on again after it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot.h"
#include "db_internal.h" /* a hand edit on the bot's own connection (sql.h) */
#include "test_db.h"
#include "tests.h"

#define ATTACK "4/0"
#define DEFEND "0/3"

static struct bot bot;
static char dir[64];
static char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX];
static int nlines;
static int64_t owner;

static void setup(void)
{
    char path[128], err[256];

    memset(&bot, 0, sizeof(bot));
    config_defaults(&bot.cfg);
    snprintf(dir, sizeof(dir), "/tmp/ringside-turn-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/ringside.db", dir);
    bot.db = test_db_open(path, err, sizeof(err));
    ck_assert_msg(bot.db != NULL, "%s", err);
    bot.q = outq_new(100000, 100000);
    bot.users = users_new();
    struct game_io io;
    struct game_config gc;
    bot_game_io(&bot, &io);
    bot_game_config(&bot.cfg, &gc);
    bot.game = game_new(bot.db, &io, &gc, err, sizeof(err));
    ck_assert_ptr_nonnull(bot.game);
    snprintf(bot.chan[0], sizeof(bot.chan[0]), "#ringside");
    log_set_level(LOG_ERROR);
    ck_assert_int_eq(db_account_create(bot.db, "gm", "gm", "$y$x", 0, &owner), DB_OK);
    ck_assert_int_eq(db_account_set_admin(bot.db, owner, 1), DB_OK); /* --add-admin */
}

static void teardown(void)
{
    char cmd[128];

    game_free(bot.game);
    users_free(bot.users);
    outq_free(bot.q);
    snprintf(cmd, sizeof(cmd), "%s/ringside.db", dir);
    test_db_close(bot.db, cmd);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* A SUGAR RAY boxer in `league` with `plan` (NULL: none) and endurance
 * `end` (an attacker with more endurance KOs an attacker with less). */
static int64_t boxer_end(const char *name, int league, const char *plan, int end)
{
    struct db_fighter f;
    char key[DB_NAME_MAX];

    memset(&f, 0, sizeof(f));
    f.account_id = owner;
    snprintf(f.name, sizeof(f.name), "%s", name);
    f.sheet.rules = RULES_SUGARRAY;
    f.sheet.u.sugarray = (struct sugarray_sheet){10, end};
    f.league = league;
    bot_name_key(key, name, sizeof(key));
    ck_assert_int_eq(db_fighter_create(bot.db, key, &f), DB_OK);
    if (plan)
        ck_assert_int_eq(db_plan_set(bot.db, f.id, plan, 0), DB_OK);
    return f.id;
}

static int64_t boxer(const char *name, int league, const char *plan)
{
    return boxer_end(name, league, plan, 20);
}

static struct db_fighter get(const char *name)
{
    struct db_fighter f;
    char key[DB_NAME_MAX];

    bot_name_key(key, name, sizeof(key));
    ck_assert_int_eq(db_fighter_get(bot.db, key, &f), DB_OK);
    return f;
}

static void turn(uint64_t seed)
{
    char err[256];

    ck_assert_msg(league_turn(bot.game, RULES_SUGARRAY, seed, "#ringside", lines, &nlines, err,
                              sizeof(err)) == 0,
                  "%s", err);
}

/* League bouts of the last turn per fighter id, via the database. */
static int bouts_of(int64_t id, int turn_no, int kind)
{
    static struct db_bout list[4096];
    int n = 0, count = 0;

    ck_assert_int_eq(db_bout_list(bot.db, DB_BOUT_OVER, list, 4096, &n), DB_OK);
    for (int i = 0; i < n; i++)
        if (list[i].turn == turn_no && (int)list[i].kind == kind &&
            (list[i].fighter[0] == id || list[i].fighter[1] == id))
            count++;
    return count;
}

START_TEST(test_promotion_relegation_table)
{
    /* BRONZE: the attacker beats both defenders (up); the defenders tie
     * with each other (a loss and a tie: BRONZE does not go down). */
    boxer("Ali", LEAGUE_BRONZE, ATTACK);
    boxer("Bo", LEAGUE_BRONZE, DEFEND);
    boxer("Cy", LEAGUE_BRONZE, DEFEND);
    /* SILVER: two attackers (a tie between them, a win each over the
     * defender: up), the defender loses twice (down). */
    boxer("Dee", LEAGUE_SILVER, ATTACK);
    boxer("Eve", LEAGUE_SILVER, ATTACK);
    boxer("Fay", LEAGUE_SILVER, DEFEND);
    turn(1);
    ck_assert_int_eq(get("Ali").league, LEAGUE_SILVER);
    ck_assert_int_eq(get("Bo").league, LEAGUE_BRONZE);
    ck_assert_int_eq(get("Cy").league, LEAGUE_BRONZE);
    ck_assert_int_eq(get("Dee").league, LEAGUE_GOLD);
    ck_assert_int_eq(get("Eve").league, LEAGUE_GOLD);
    ck_assert_int_eq(get("Fay").league, LEAGUE_BRONZE);
    struct db_fighter f = get("Ali");
    ck_assert_int_eq(f.wins, 2);
    ck_assert_int_eq(f.losses, 0);
    /* Points wins are worth an endurance point each (seed 004). */
    ck_assert_int_eq(f.sheet.u.sugarray.endurance, 22);
    ck_assert_int_eq(get("Bo").sheet.u.sugarray.endurance, 19);
    /* The summary: a few lines, never one per bout. */
    ck_assert_int_le(nlines, 5);
    ck_assert_ptr_nonnull(strstr(lines[0], "League turn 1 (sugarray): 6 bouts"));
}
END_TEST

START_TEST(test_pairing_two_bouts_each)
{
    int64_t id[7];
    char name[16];

    for (int i = 0; i < 7; i++) {
        snprintf(name, sizeof(name), "Box%d", i);
        id[i] = boxer(name, LEAGUE_BRONZE, DEFEND);
    }
    int64_t pair[2] = {boxer("Pa", LEAGUE_SILVER, DEFEND), boxer("Pb", LEAGUE_SILVER, DEFEND)};
    int64_t alone = boxer("Solo", LEAGUE_GOLD, DEFEND);
    turn(5);
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(bouts_of(id[i], 1, DB_BOUT_LEAGUE), 2);
    /* Two in a league meet twice; one alone has a bye. */
    ck_assert_int_eq(bouts_of(pair[0], 1, DB_BOUT_LEAGUE), 2);
    ck_assert_int_eq(bouts_of(pair[1], 1, DB_BOUT_LEAGUE), 2);
    ck_assert_int_eq(bouts_of(alone, 1, DB_BOUT_LEAGUE), 0);
    ck_assert_int_eq(get("Solo").wins + get("Solo").losses + get("Solo").draws, 0);
}
END_TEST

START_TEST(test_gold_record_and_title)
{
    /* GOLD: Gil (attacker, endurance 30) knocks out Hal (attacker, 20) and
     * outpoints Ian: 3 + 3 = 6; Hal beats Ian: 3; Ian loses twice and goes
     * down. The title is vacant: the two best gold records fight for it. */
    boxer_end("Gil", LEAGUE_GOLD, ATTACK, 30);
    boxer("Hal", LEAGUE_GOLD, ATTACK);
    boxer("Ian", LEAGUE_GOLD, DEFEND);
    /* Their owner issued his most challenges of the day (migration 23):
     * league and title bouts are the bot's, no challenges, and count none. */
    struct dbs *q = dbs_prepare(bot.db, "UPDATE accounts SET challenges_day = 1, challenges = 100");
    ck_assert_int_eq(dbs_run(q), DBS_DONE);
    dbs_free(q);
    turn(3);
    ck_assert_int_eq(get("Ian").league, LEAGUE_SILVER);
    int64_t champ;
    int defences;
    ck_assert_int_eq(db_champion_get(bot.db, RULES_SUGARRAY, &champ, &defences), DB_OK);
    ck_assert_int_eq(champ, get("Gil").id);
    ck_assert_int_eq(defences, 0);
    /* Both contenders' gold records are spent. */
    ck_assert_int_eq(get("Gil").gold_record, 0);
    ck_assert_int_eq(get("Hal").gold_record, 0);
    ck_assert_int_eq(bouts_of(champ, 1, DB_BOUT_TITLE), 1);
    int found = 0;
    for (int i = 0; i < nlines; i++)
        found |= strstr(lines[i], "new International Champion") != NULL;
    ck_assert(found);

    /* Next turn: the champion does not fight in GOLD; he defends against
     * the top gold record and wins again. */
    turn(4);
    ck_assert_int_eq(bouts_of(champ, 2, DB_BOUT_LEAGUE), 0);
    ck_assert_int_eq(bouts_of(champ, 2, DB_BOUT_TITLE), 1);
    ck_assert_int_eq(db_champion_get(bot.db, RULES_SUGARRAY, &champ, &defences), DB_OK);
    ck_assert_int_eq(champ, get("Gil").id);
    ck_assert_int_eq(defences, 1);
    q = dbs_prepare(bot.db,
                    "SELECT count(*) FROM accounts WHERE challenges_day = 1 AND challenges = 100");
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    ck_assert_int_eq(dbs_col_int64(q, 0), 1); /* gm's, as it was */
    dbs_free(q);
}
END_TEST

START_TEST(test_champion_loses)
{
    int64_t champ_id = boxer("King", LEAGUE_GOLD, DEFEND);
    ck_assert_int_eq(db_champion_set(bot.db, RULES_SUGARRAY, champ_id, 4, 0), DB_OK);
    boxer("Jab", LEAGUE_GOLD, ATTACK);
    boxer("Kid", LEAGUE_GOLD, DEFEND);
    turn(9);
    /* Jab beats Kid twice (6): he challenges and beats the champion. */
    int64_t champ;
    int defences;
    ck_assert_int_eq(db_champion_get(bot.db, RULES_SUGARRAY, &champ, &defences), DB_OK);
    ck_assert_int_eq(champ, get("Jab").id);
    ck_assert_int_eq(defences, 0);
    ck_assert_int_eq(get("Jab").gold_record, 0);
    ck_assert_int_eq(get("King").league, LEAGUE_GOLD);
}
END_TEST

START_TEST(test_relegation_resets_gold_record)
{
    boxer("Lou", LEAGUE_GOLD, DEFEND);
    boxer("Max", LEAGUE_GOLD, ATTACK);
    boxer("Ned", LEAGUE_GOLD, ATTACK);
    struct db_fighter f = get("Lou");
    f.gold_record = 12;
    ck_assert_int_eq(db_fighter_save(bot.db, &f), DB_OK);
    /* Lou has the best gold record but loses both bouts: relegated, so
     * his record is 0 and he cannot be the title's contender. */
    turn(2);
    f = get("Lou");
    ck_assert_int_eq(f.league, LEAGUE_SILVER);
    ck_assert_int_eq(f.gold_record, 0);
    ck_assert_int_eq(bouts_of(f.id, 1, DB_BOUT_TITLE), 0);
}
END_TEST

START_TEST(test_paused_and_missed)
{
    boxer("Oz", LEAGUE_BRONZE, ATTACK);
    boxer("Pip", LEAGUE_BRONZE, ATTACK);
    int64_t sleepy = boxer("Quin", LEAGUE_BRONZE, ATTACK);
    int64_t lazy = boxer("Rex", LEAGUE_BRONZE, NULL); /* no plan */
    struct db_fighter f = get("Quin");
    f.paused = 2;
    ck_assert_int_eq(db_fighter_save(bot.db, &f), DB_OK);
    turn(7);
    ck_assert_int_eq(bouts_of(sleepy, 1, DB_BOUT_LEAGUE), 0);
    ck_assert_int_eq(get("Quin").paused, 1);
    /* Rex fought 0/0, and goes on the pausing list without training. */
    ck_assert_int_eq(bouts_of(lazy, 1, DB_BOUT_LEAGUE), 2);
    f = get("Rex");
    ck_assert_int_eq(f.missed, 1);
    ck_assert_int_eq(f.paused, 1);
    struct db_order o[16];
    int n = 0;
    struct db_bout list[16];
    int nb = 0;
    ck_assert_int_eq(db_bout_list(bot.db, DB_BOUT_OVER, list, 16, &nb), DB_OK);
    for (int i = 0; i < nb; i++) {
        int side = list[i].fighter[0] == lazy ? 0 : list[i].fighter[1] == lazy ? 1 : -1;
        if (side < 0)
            continue;
        ck_assert_int_eq(db_order_list(bot.db, list[i].id, o, 16, &n), DB_OK);
        for (int k = 0; k < n; k++)
            if (o[k].side == side) {
                ck_assert_str_eq(o[k].text, "0/0");
                ck_assert_int_eq(o[k].source, DB_ORDER_DEFAULT);
            }
    }
    turn(8);
    ck_assert_int_eq(bouts_of(sleepy, 2, DB_BOUT_LEAGUE), 0);
    ck_assert_int_eq(bouts_of(lazy, 2, DB_BOUT_LEAGUE), 0); /* sat out */
    ck_assert_int_eq(get("Quin").paused, 0);
}
END_TEST

START_TEST(test_bouts_replay_and_report)
{
    boxer("Sam", LEAGUE_BRONZE, "1) 3/2; 3) 4/1");
    boxer("Tom", LEAGUE_BRONZE, DEFEND);
    boxer("Ugo", LEAGUE_BRONZE, ATTACK);
    turn(11);
    struct db_bout list[8];
    int n = 0;
    char err[256], *report;
    uint64_t digest;
    ck_assert_int_eq(db_bout_list(bot.db, DB_BOUT_OVER, list, 8, &n), DB_OK);
    ck_assert_int_eq(n, 3);
    for (int i = 0; i < n; i++) {
        FILE *f = tmpfile();
        ck_assert_int_eq(bout_replay(bot.db, list[i].id, f), 0);
        fclose(f);
        /* No report and no round row is stored: the bout's digest is. */
        ck_assert_int_eq(list[i].has_digest, 1);
        ck_assert_int_eq(db_round_digest(bot.db, list[i].id, 1, &digest), DB_NOTFOUND);
        report = bout_report(bot.db, list[i].id, 1, 0, err, sizeof(err));
        ck_assert_msg(report != NULL, "%s", err);
        ck_assert_ptr_nonnull(strstr(report, "Round 1 of 5"));
        ck_assert_int_gt((int)strlen(report), 20);
        free(report);
    }
}
END_TEST

/* Runs `sql` (no parameters) on the bot's connection, which must take it. */
static void sql_run(const char *sql)
{
    struct dbs *q = dbs_prepare(bot.db, sql);

    ck_assert_msg(q != NULL, "%s: %s", sql, db_errmsg(bot.db));
    ck_assert_msg(dbs_run(q) == DBS_DONE, "%s: %s", sql, db_errmsg(bot.db));
    dbs_free(q);
}

/* Counts the rows a db_*_changed call gives. */
static void count_fighter(void *ctx, const struct db_fighter *f)
{
    (void)f;
    (*(int *)ctx)++;
}

static void count_rating(void *ctx, int64_t fighter, enum rules rules, const struct db_rating *r)
{
    (void)fighter, (void)rules, (void)r;
    (*(int *)ctx)++;
}

START_TEST(test_turn_stamps)
{
    int64_t fs = 0, rs = 0, top;
    int n = 0;

    boxer("Ali", LEAGUE_BRONZE, ATTACK);
    boxer("Bob", LEAGUE_BRONZE, DEFEND);
    boxer("Cal", LEAGUE_BRONZE, ATTACK);
    int64_t dan = boxer("Dan", LEAGUE_BRONZE, DEFEND);
    ck_assert_int_eq(db_fighter_changed(bot.db, 0, &fs, count_fighter, &n), DB_OK);
    ck_assert_int_eq(n, 4);
    turn(3);
    /* Every fighter and rating the turn wrote is stamped after the
     * stamps read before it, though its triggers were off. */
    n = 0;
    ck_assert_int_eq(db_fighter_changed(bot.db, fs, &top, count_fighter, &n), DB_OK);
    ck_assert_int_eq(n, 4);
    ck_assert_int_gt(top, fs);
    fs = top;
    n = 0;
    ck_assert_int_eq(db_rating_changed(bot.db, rs, &rs, count_rating, &n), DB_OK);
    ck_assert_int_eq(n, 4);
    /* The triggers are on again on the bot's connection: an edit by hand
     * that leaves the stamp as it was is stamped all the same. */
    char sql[128];
    snprintf(sql, sizeof(sql), "UPDATE fighters SET wins = wins + 1 WHERE id = %lld",
             (long long)dan);
    sql_run(sql);
    n = 0;
    ck_assert_int_eq(db_fighter_changed(bot.db, fs, &top, count_fighter, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(top, fs + 1);
}
END_TEST

/* The size in bytes of file `name` of the test's directory (0: none). */
static long long file_size(const char *name)
{
    char path[128];
    struct stat st;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

/* SQLite's automatic checkpoint threshold on the bot's connection. */
static int autocheckpoint(void)
{
    struct dbs *q = dbs_prepare(bot.db, "PRAGMA wal_autocheckpoint");

    ck_assert_ptr_nonnull(q);
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    int v = dbs_col_int(q, 0);
    dbs_free(q);
    return v;
}

/* A turn's commit leaves its pages in the WAL (db_league_wal: no
 * checkpoint inside the turn); the game's next tick copies them into the
 * file, so the WAL is written again from its start at the next turn
 * instead of growing turn after turn; and SQLite's own threshold is back
 * on the connection after every turn. */
START_TEST(test_turn_checkpoint_after)
{
    char name[16];

    if (test_db_pg())
        return; /* no WAL: the server's own */
    ck_assert_int_eq(db_begin(bot.db), DB_OK);
    for (int i = 0; i < 60; i++) {
        snprintf(name, sizeof(name), "F%d", i);
        boxer(name, i % 3, i % 2 ? ATTACK : DEFEND);
    }
    ck_assert_int_eq(db_commit(bot.db), DB_OK);
    long long file = file_size("ringside.db"), wal = 0;
    for (int k = 0; k < 4; k++) {
        turn(20 + (uint64_t)k);
        ck_assert_int_eq(autocheckpoint(), 1000);
        game_tick(bot.game, "#ringside");
        ck_assert_int_eq(autocheckpoint(), 1000);
        if (k == 0) {
            /* The tick checkpointed: the fighters and the turn are in the
             * file itself now (nothing before reached the threshold). */
            ck_assert_int_gt(file_size("ringside.db"), file);
            wal = file_size("ringside.db-wal");
            ck_assert_int_gt(wal, 0);
        }
    }
    /* Three more turns of the same size: the WAL was reused from its
     * start each time, not grown by three turns' pages. */
    ck_assert_int_le(file_size("ringside.db-wal"), wal + wal / 2);
}
END_TEST

/* Fighter `name` changed as a turn changes him (a win, a point, a
 * league), saved with the table's statement (stamp 0) or the turn's. */
static void save_changed(const char *name, int league, int64_t stamp)
{
    struct db_fighter f = get(name);
    int from = f.league;

    f.wins += 2;
    f.losses += 1;
    f.kos += 1;
    f.training_points += 3;
    f.sheet.u.sugarray.endurance += 1;
    f.gold_record = 4;
    f.league = league;
    ck_assert_int_eq(db_fighter_save_from(bot.db, &f, from, stamp), DB_OK);
}

/* Whether the rows of fighters a and b hold the same in every column but
 * their identity and stamp (SQLite's own columns: one added later is
 * compared too). */
static int rows_alike(int64_t a, int64_t b)
{
    sqlite3_stmt *st;
    char sql[128];

    snprintf(sql, sizeof(sql), "SELECT * FROM fighters WHERE id IN (%lld, %lld) ORDER BY id",
             (long long)a, (long long)b);
    ck_assert_int_eq(sqlite3_prepare_v2(bot.db->conn, sql, -1, &st, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    int n = sqlite3_column_count(st);
    char *first[64] = {0};
    ck_assert_int_le(n, 64);
    for (int c = 0; c < n; c++) {
        const unsigned char *v = sqlite3_column_text(st, c);
        first[c] = v ? strdup((const char *)v) : NULL;
    }
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    int alike = 1;
    for (int c = 0; c < n; c++) {
        const char *col = sqlite3_column_name(st, c);
        const unsigned char *v = sqlite3_column_text(st, c);
        if (strcmp(col, "id") != 0 && strcmp(col, "key") != 0 && strcmp(col, "name") != 0 &&
            strcmp(col, "changed") != 0 &&
            ((!v) != (!first[c]) || (v && strcmp((const char *)v, first[c]) != 0)))
            alike = 0;
        free(first[c]);
    }
    sqlite3_finalize(st);
    return alike;
}

/* The change stamp of fighter `id`. */
static int64_t stamp_of(int64_t id)
{
    sqlite3_stmt *st;

    ck_assert_int_eq(sqlite3_prepare_v2(bot.db->conn, "SELECT changed FROM fighters WHERE id = ?1",
                                        -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(st, 1, id);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* A turn's save, its stamp numbered by the turn (db_fighter_save_from
 * with a stamp: its own copy of the table's SET list), writes every column
 * as the table's statement does, league moved or kept; and the stamp
 * given, as the statement would have read it. */
START_TEST(test_turn_save_stamped)
{
    int64_t top;

    if (test_db_pg())
        return; /* SQLite's catalogue names the columns */
    int64_t a = boxer("Ali", LEAGUE_BRONZE, ATTACK), b = boxer("Bob", LEAGUE_BRONZE, ATTACK);
    int64_t c = boxer("Cal", LEAGUE_SILVER, ATTACK), d = boxer("Dan", LEAGUE_SILVER, ATTACK);
    save_changed("Ali", LEAGUE_SILVER, 0);
    ck_assert_int_eq(db_fighter_stamp_top(bot.db, &top), DB_OK);
    ck_assert_int_eq(top, stamp_of(a));
    save_changed("Bob", LEAGUE_SILVER, top + 1);
    ck_assert_int_eq(stamp_of(b), top + 1);
    ck_assert(rows_alike(a, b));
    save_changed("Cal", LEAGUE_SILVER, 0);
    ck_assert_int_eq(stamp_of(c), top + 2);
    save_changed("Dan", LEAGUE_SILVER, top + 3);
    ck_assert_int_eq(stamp_of(d), top + 3);
    ck_assert(rows_alike(c, d));
    /* The comparison sees a difference: a fighter as he was made. */
    ck_assert(!rows_alike(a, boxer("Eve", LEAGUE_BRONZE, ATTACK)));
}
END_TEST

/* A turn writes its moves with SQLite's CHECKs off (db_league_moves): they
 * are on again after it, on the bot's connection, and a league out of
 * range is refused before anything is written. */
START_TEST(test_turn_checks_back)
{
    int64_t ali = boxer("Ali", LEAGUE_BRONZE, ATTACK);
    boxer("Bo", LEAGUE_BRONZE, DEFEND);
    boxer("Cy", LEAGUE_BRONZE, DEFEND);
    turn(1);
    ck_assert_int_eq(get("Ali").league, LEAGUE_SILVER); /* a move was written */
    if (!test_db_pg()) {
        struct dbs *q = dbs_prepare(bot.db, "PRAGMA ignore_check_constraints");
        ck_assert_int_eq(dbs_step(q), DBS_ROW);
        ck_assert_int_eq(dbs_col_int(q, 0), 0);
        dbs_free(q);
    }
    struct dbs *q = dbs_prepare(bot.db, "UPDATE fighters SET league = 'platinum'");
    ck_assert_int_eq(dbs_run(q), DBS_ERR);
    dbs_free(q);
    int league = LEAGUE_COUNT, done = -1;
    ck_assert_int_eq(db_league_moves(bot.db, &ali, &league, 1, &done), DB_ERROR);
    char want[64];
    snprintf(want, sizeof(want), "fighter %lld: league 3 is out of range", (long long)ali);
    ck_assert_str_eq(db_errmsg(bot.db), want);
    ck_assert_int_eq(get("Ali").league, LEAGUE_SILVER);
}
END_TEST

/* A plan too long for a turn to read, written into the file by hand: the
 * turn fails saying whose and how long, and stores nothing. */
START_TEST(test_turn_plan_too_long)
{
    char err[256], sql[160];

    boxer("Ali", LEAGUE_BRONZE, ATTACK);
    int64_t bob = boxer("Bob", LEAGUE_BRONZE, DEFEND);
    snprintf(sql, sizeof(sql), "UPDATE plans SET text = %s WHERE fighter = %lld",
             test_db_pg() ? "repeat('x', 9000)" : "replace(hex(zeroblob(4500)), '0', 'x')",
             (long long)bob);
    sql_run(sql);
    ck_assert_int_eq(
        league_turn(bot.game, RULES_SUGARRAY, 1, "#ringside", lines, &nlines, err, sizeof(err)),
        -1);
    snprintf(sql, sizeof(sql),
             "cannot read the plans: the plan of fighter %lld is 9000 bytes in the database, the "
             "most is 8199",
             (long long)bob);
    ck_assert_str_eq(err, sql);
    int number;
    int64_t when;
    ck_assert_int_eq(db_turn_last(bot.db, RULES_SUGARRAY, &number, &when), DB_NOTFOUND);
}
END_TEST

START_TEST(test_thousand_fighters_one_transaction)
{
    char name[16];

    ck_assert_int_eq(db_begin(bot.db), DB_OK);
    for (int i = 0; i < 1000; i++) {
        snprintf(name, sizeof(name), "F%d", i);
        boxer(name, i % 3, i % 2 ? ATTACK : DEFEND);
    }
    ck_assert_int_eq(db_commit(bot.db), DB_OK);
    turn(13);
    struct db_bout *list = malloc(2000 * sizeof(*list));
    int n = 0;
    ck_assert_int_eq(db_bout_list(bot.db, DB_BOUT_OVER, list, 2000, &n), DB_OK);
    /* A cycle in each league: as many league bouts as fighters, plus the
     * vacant title's bout. */
    int league = 0, title_bouts = 0;
    for (int i = 0; i < n; i++) {
        REQUIRE(list[i].turn == 1);
        league += list[i].kind == DB_BOUT_LEAGUE;
        title_bouts += list[i].kind == DB_BOUT_TITLE;
    }
    ck_assert_int_eq(league, 1000);
    ck_assert_int_eq(title_bouts, 1);
    /* Still three lines, the lists cut to a few names each. */
    ck_assert_int_eq(nlines, 3);
    ck_assert_msg(strncmp(lines[0],
                          "League turn 1 (sugarray): 1001 bouts fought from the plans: "
                          "GOLD #1-#333, SILVER #334-#666, BRONZE #667-#1000, title "
                          "#1001.",
                          RENDER_LINE_MAX) == 0,
                  "%s", lines[0]);
    ck_assert_msg(strncmp(lines[1], "GOLD: 333 fought; down: ", 24) == 0 &&
                      strstr(lines[1], " more. SILVER: 333 fought; up: ") &&
                      strstr(lines[1], " more. BRONZE: 334 fought; up: ") &&
                      strlen(lines[1]) < RENDER_LINE_MAX - 1,
                  "%s", lines[1]);
    ck_assert_msg(strncmp(lines[2], "Title bout #1001: ", 18) == 0, "%s", lines[2]);
    int number;
    int64_t when;
    ck_assert_int_eq(db_turn_last(bot.db, RULES_SUGARRAY, &number, &when), DB_OK);
    ck_assert_int_eq(number, 1);
    free(list);
}
END_TEST

START_TEST(test_commands)
{
    struct cmd_ctx ctx;
    char line[OUTQ_LINE_MAX], said[8192];
    size_t len = 0;

    boxer_end("Vic", LEAGUE_GOLD, ATTACK, 30);
    boxer("Wes", LEAGUE_GOLD, ATTACK);
    boxer("Xan", LEAGUE_GOLD, DEFEND);
    users_join(bot.users, "gm", 0);
    users_login(bot.users, "gm", owner, "gm");
    snprintf(bot.cfg.admins[0], sizeof(bot.cfg.admins[0]), "gm");
    bot.cfg.nadmins = 1;
    bot.chan_in[0] = 1;
    memset(&ctx, 0, sizeof(ctx));
    static const char *const cmds[] = {
        "!standings gold rules=sugarray",
        "!turn rules=sugarray",
        "!standings gold rules=sugarray",
        "!champion rules=sugarray",
        "!league Wes",
        "!pause 2 Wes",
        "!league Wes",
        "!standings platinum",
        "!standings rules=sugarray",
        "!standings bronze rules=sugarray",
        "!standings",
        "!standings rules=boxing",
    };
    for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        bot.now += 3;
        cmd_dispatch(&bot, "gm", "#ringside", cmds[i]);
        for (double t_ = bot.now + 1e6; outq_len(bot.q) > 0; t_ += 1)
            if (outq_pop(bot.q, t_, line))
                len += (size_t)snprintf(said + len, sizeof(said) - len, "%s\n", line);
    }
    ck_assert_ptr_nonnull(strstr(said, "GOLD (sugarray): 1. Vic (gm) 0-0-0 gold 0"));
    ck_assert_ptr_nonnull(strstr(said, "League turn 1 (sugarray)"));
    ck_assert_ptr_nonnull(strstr(said, "International Champion (sugarray): Vic"));
    ck_assert_ptr_nonnull(strstr(said, "Wes is in GOLD (sugarray)"));
    ck_assert_ptr_nonnull(strstr(said, "Wes sits out the next 2 league turns"));
    ck_assert_ptr_nonnull(strstr(said, "paused"));
    ck_assert_ptr_nonnull(strstr(said, "I don't understand \"platinum\""));
    /* No league named: every league that has fighters, never an empty one. */
    ck_assert_ptr_nonnull(strstr(said, "Standings (sugarray): GOLD: 1. "));
    ck_assert_ptr_null(strstr(said, "BRONZE: "));
    ck_assert_ptr_nonnull(
        strstr(said, "BRONZE (sugarray) is empty; !standings rules=sugarray shows the leagues"));
    ck_assert_ptr_nonnull(strstr(said, "no boxing fighter is in a league yet; create one"));
    /* The bare `standings` shows the ruleset that has fighters. */
    ck_assert_ptr_nonnull(strstr(said, "Standings (sugarray): GOLD: 1. "));
}
END_TEST

/* With [web] base_url set, standings and fighter replies carry their
 * page's address (and only then). */
START_TEST(test_replies_link_the_pages)
{
    struct cmd_ctx ctx;
    char line[OUTQ_LINE_MAX], said[8192];
    size_t len = 0;

    boxer_end("Vic", LEAGUE_GOLD, ATTACK, 30);
    boxer("Wes", LEAGUE_SILVER, ATTACK);
    bot.chan_in[0] = 1;
    memset(&ctx, 0, sizeof(ctx));
    static const char *const cmds[] = {"!standings gold rules=sugarray",
                                       "!standings rules=sugarray", "!fighter Vic", "!fighter Wes"};
    for (int pass = 0; pass < 2; pass++) {
        snprintf(bot.cfg.base_url, sizeof(bot.cfg.base_url), "%s",
                 pass ? "https://ring.example.org/" : "");
        struct game_config gc; /* as a reload tells the game */
        bot_game_config(&bot.cfg, &gc);
        game_set_config(bot.game, &gc);
        for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
            bot.now += 3;
            cmd_dispatch(&bot, "gm", "#ringside", cmds[i]);
            for (double t_ = bot.now + 1e6; outq_len(bot.q) > 0; t_ += 1)
                if (outq_pop(bot.q, t_, line))
                    len += (size_t)snprintf(said + len, sizeof(said) - len, "%s\n", line);
        }
        if (pass == 0)
            ck_assert_ptr_null(strstr(said, "https://"));
    }
    ck_assert_msg(strstr(said, "gold 0 - https://ring.example.org/standings/sugarray/gold\n"), "%s",
                  said);
    ck_assert_ptr_nonnull(strstr(said, " - https://ring.example.org/standings/sugarray\n"));
    ck_assert_ptr_nonnull(
        strstr(said, "by KO; rating 1500 \xc2\xb1 350 - https://ring.example.org/fighters/1\n"));
    ck_assert_ptr_nonnull(
        strstr(said, "by KO; rating 1500 \xc2\xb1 350 - https://ring.example.org/fighters/2\n"));
}
END_TEST

START_TEST(test_schedule_from_database)
{
    int number;
    int64_t when;

    boxer("Yul", LEAGUE_BRONZE, ATTACK);
    boxer("Zed", LEAGUE_BRONZE, DEFEND);
    bot.cfg.turn_interval = 1;
    struct game_config gc;
    bot_game_config(&bot.cfg, &gc);
    game_set_config(bot.game, &gc);
    bot.chan_in[0] = 1;
    bot.now = 1000;
    game_tick(bot.game, bot_league_channel(&bot)); /* the schedule starts: nothing is due yet */
    ck_assert_int_eq(db_turn_last(bot.db, RULES_SUGARRAY, &number, &when), DB_NOTFOUND);
    sleep(2);
    bot.now += 31;
    game_tick(bot.game, bot_league_channel(&bot)); /* one interval later: a turn for each ruleset */
    ck_assert_int_eq(db_turn_last(bot.db, RULES_SUGARRAY, &number, &when), DB_OK);
    ck_assert_int_eq(number, 1);
    ck_assert_int_eq(get("Yul").wins, 2);
    bot.now += 31;
    game_tick(bot.game,
              bot_league_channel(&bot)); /* due again only an interval after the stored turn */
    ck_assert_int_eq(db_turn_last(bot.db, RULES_SUGARRAY, &number, &when), DB_OK);
    ck_assert_int_le(number, 2);
    char line[OUTQ_LINE_MAX];
    int said = 0;
    for (double t_ = bot.now + 1e6; outq_len(bot.q) > 0; t_ += 1)
        if (outq_pop(bot.q, t_, line))
            said += strstr(line, "PRIVMSG #ringside :League turn") != NULL;
    ck_assert_int_ge(said, 1);
}
END_TEST

/* Everything the bot sent since the last call ("PRIVMSG target :text\n"
 * lines), into said (len bytes). */
static void sent(char *out, size_t len)
{
    char line[OUTQ_LINE_MAX];
    size_t n = 0;

    out[0] = '\0';
    for (double t_ = bot.now + 1e6; outq_len(bot.q) > 0; t_ += 1)
        if (outq_pop(bot.q, t_, line))
            n += (size_t)snprintf(out + n, len - n, "%s\n", line);
}

/* gm, identified and an admin, as test_commands makes him. */
static void admin_in(void)
{
    users_join(bot.users, "gm", 0);
    users_login(bot.users, "gm", owner, "gm");
    snprintf(bot.cfg.admins[0], sizeof(bot.cfg.admins[0]), "gm");
    bot.cfg.nadmins = 1;
    bot.chan_in[0] = 1;
}

/* An admin's private `turn`: the channel gets the summary (the bouts by
 * number, the moves, a bye said as a bye, who sat out, the title), and he
 * gets it too; three lines at most. */
START_TEST(test_turn_is_news)
{
    char said[8192];

    boxer("Ali", LEAGUE_BRONZE, ATTACK);
    boxer("Bo", LEAGUE_BRONZE, DEFEND);
    boxer("Cy", LEAGUE_BRONZE, DEFEND);
    boxer("Quin", LEAGUE_BRONZE, ATTACK);
    struct db_fighter f = get("Quin");
    f.paused = 1;
    ck_assert_int_eq(db_fighter_save(bot.db, &f), DB_OK);
    boxer("Solo", LEAGUE_SILVER, ATTACK);
    admin_in();
    bot.now += 3;
    cmd_dispatch(&bot, "gm", NULL, "turn rules=sugarray");
    sent(said, sizeof(said));
    ck_assert_str_eq(said, "PRIVMSG #ringside :League turn 1 (sugarray): 3 bouts fought from the "
                           "plans: BRONZE #1-#3.\n"
                           "PRIVMSG gm :League turn 1 (sugarray): 3 bouts fought from the plans: "
                           "BRONZE #1-#3.\n"
                           "PRIVMSG #ringside :SILVER: a bye for Solo (nobody else to fight). "
                           "BRONZE: 3 fought; up: Ali; sat out: Quin.\n"
                           "PRIVMSG gm :SILVER: a bye for Solo (nobody else to fight). BRONZE: 3 "
                           "fought; up: Ali; sat out: Quin.\n"
                           "PRIVMSG #ringside :The title stays vacant: GOLD needs two fighters.\n"
                           "PRIVMSG gm :The title stays vacant: GOLD needs two fighters.\n");

    /* Said in the league's channel, it is said there once; the title bout
     * has its number, and the page's address ends the first line. */
    snprintf(bot.cfg.base_url, sizeof(bot.cfg.base_url), "https://ring.example.org");
    struct game_config gc;
    bot_game_config(&bot.cfg, &gc);
    game_set_config(bot.game, &gc);
    boxer_end("Gil", LEAGUE_GOLD, ATTACK, 30);
    boxer("Hal", LEAGUE_GOLD, ATTACK);
    boxer("Ian", LEAGUE_GOLD, DEFEND);
    bot.now += 3;
    cmd_dispatch(&bot, "gm", "#ringside", "!turn rules=sugarray");
    sent(said, sizeof(said));
    static const char turn2[] =
        "PRIVMSG #ringside :League turn 2 (sugarray): 9 bouts fought from the plans: GOLD #4-#6, "
        "SILVER #7-#8, BRONZE #9-#11, title #12 - https://ring.example.org/standings/sugarray\n"
        "PRIVMSG #ringside :GOLD: 3 fought; down: Ian. SILVER: 2 fought. BRONZE: 3 fought; up: "
        "Quin.\n";
    ck_assert_msg(strncmp(said, turn2, sizeof(turn2) - 1) == 0, "%s", said);
    ck_assert_msg(strstr(said, "\nPRIVMSG #ringside :Title bout #12: Gil beats Hal ") != NULL, "%s",
                  said);
    ck_assert_ptr_null(strstr(said, "PRIVMSG gm "));
}
END_TEST

/* `standings` with no ruleset named: every ruleset that has fighters, a
 * line each, none for an empty one; a league named: its table in every
 * ruleset that has it filled. The unfought rank last. */
START_TEST(test_standings_every_ruleset)
{
    char said[8192];
    struct db_fighter f;

    boxer("Ali", LEAGUE_BRONZE, ATTACK);
    boxer("Bo", LEAGUE_SILVER, ATTACK);
    /* Cy has lost once and drawn once; Dan has never fought. */
    boxer("Dan", LEAGUE_SILVER, ATTACK);
    boxer("Cy", LEAGUE_SILVER, ATTACK);
    f = get("Cy");
    f.losses = 1;
    f.draws = 1;
    ck_assert_int_eq(db_fighter_save(bot.db, &f), DB_OK);
    /* A boxer (ruleset boxing) in BRONZE. */
    memset(&f, 0, sizeof(f));
    f.account_id = owner;
    snprintf(f.name, sizeof(f.name), "Rocky");
    f.sheet.rules = RULES_BOXING;
    f.sheet.u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12};
    ck_assert_int_eq(db_fighter_create(bot.db, "rocky", &f), DB_OK);
    bot.chan_in[0] = 1;
    static const char *const cmds[] = {"!standings", "!standings silver", "!standings gold"};
    static const char *const want[] = {
        "PRIVMSG #ringside :gm: Standings (boxing): BRONZE: 1. Rocky (gm) 0-0-0 gold 0\n"
        "PRIVMSG #ringside :gm: Standings (sugarray): SILVER: 1. Cy (gm) 0-1-1 gold 0; 2. Bo (gm) "
        "0-0-0 gold 0; 3. Dan (gm) 0-0-0 gold 0 | BRONZE: 1. Ali (gm) 0-0-0 gold 0\n",
        "PRIVMSG #ringside :gm: SILVER (sugarray): 1. Cy (gm) 0-1-1 gold 0; 2. Bo (gm) 0-0-0 gold "
        "0; "
        "3. Dan (gm) 0-0-0 gold 0\n",
        "PRIVMSG #ringside :gm: GOLD is empty in every ruleset; !standings shows the leagues that "
        "have fighters\n",
    };
    for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        bot.now += 3;
        cmd_dispatch(&bot, "gm", "#ringside", cmds[i]);
        sent(said, sizeof(said));
        ck_assert_str_eq(said, want[i]);
    }
}
END_TEST

/* Nobody anywhere: one line that says how to begin. */
START_TEST(test_standings_nobody)
{
    char said[1024];

    bot.chan_in[0] = 1;
    cmd_dispatch(&bot, "gm", "#ringside", "!standings");
    sent(said, sizeof(said));
    ck_assert_str_eq(said, "PRIVMSG #ringside :gm: nobody is in a league yet; create a fighter: "
                           "create <name> str=12 spd=12 agl=12 tgh=12 hgt=12\n");
}
END_TEST

Suite *turn_suite(void)
{
    Suite *s = suite_create("league turns");
    TCase *tc = tcase_create("turns");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_promotion_relegation_table);
    tcase_add_test(tc, test_pairing_two_bouts_each);
    tcase_add_test(tc, test_gold_record_and_title);
    tcase_add_test(tc, test_champion_loses);
    tcase_add_test(tc, test_relegation_resets_gold_record);
    tcase_add_test(tc, test_paused_and_missed);
    tcase_add_test(tc, test_bouts_replay_and_report);
    tcase_add_test(tc, test_thousand_fighters_one_transaction);
    tcase_add_test(tc, test_commands);
    tcase_add_test(tc, test_schedule_from_database);
    tcase_add_test(tc, test_replies_link_the_pages);
    tcase_add_test(tc, test_turn_is_news);
    tcase_add_test(tc, test_standings_every_ruleset);
    tcase_add_test(tc, test_standings_nobody);
    tcase_add_test(tc, test_turn_stamps);
    tcase_add_test(tc, test_turn_plan_too_long);
    tcase_add_test(tc, test_turn_checkpoint_after);
    tcase_add_test(tc, test_turn_save_stamped);
    tcase_add_test(tc, test_turn_checks_back);
    suite_add_tcase(s, tc);
    return s;
}
