/* check_tournament.c - knockout tournaments through the game with the fake
 * I/O (game_fixture.h): the refusals word for word, seeding and the
 * standard bracket, byes to the top seeds, a plans tournament fought
 * round by round to its winner (whose record shows it), a live one whose
 * bouts start by themselves and fight from the plans when nobody orders,
 * and a restart that says what was stored and not said. */
#include <string.h>

#include "game_fixture.h"

/* Boxer i of account p<i>, with `wins` wins and a plan; returns the
 * account's id. */
static int64_t boxer(int i, int wins)
{
    char name[32], fighter[32];
    struct sheet s = {.rules = RULES_BOXING};
    struct db_fighter list[1];
    int m = 0;

    snprintf(name, sizeof(name), "p%d", i);
    snprintf(fighter, sizeof(fighter), "Boxer%d", i);
    s.u.boxing = (struct boxing_sheet){10 + i % 5, 12, 14 - i % 5, 12, 12};
    int64_t id = player(name, fighter, &s);
    ck_assert_int_eq(db_fighter_list(db, id, 0, list, 1, &m), DB_OK);
    list[0].wins = wins;
    ck_assert_int_eq(db_fighter_save(db, &list[0]), DB_OK);
    ck_assert_int_eq(db_plan_set(db, list[0].id, "5/5/10 (ring)", 1), DB_OK);
    return id;
}

/* Account p<i> joins with Boxer<i>. */
static int join(int i, int64_t acc)
{
    char name[32], fighter[32];
    struct db_fighter f;

    snprintf(name, sizeof(name), "p%d", i);
    snprintf(fighter, sizeof(fighter), "boxer%d", i);
    struct game_caller who = caller(name, acc, 1);
    ck_assert_int_eq(db_fighter_get(db, fighter, &f), DB_OK);
    return game_tournament_join(game, &who, &f);
}

static int open_words(int admin, const char *line)
{
    char buf[256], *argv[16];
    int argc = 0;
    struct game_caller who = caller("boss", 99, 1);

    snprintf(buf, sizeof(buf), "%s", line);
    for (char *w = strtok(buf, " "); w && argc < 16; w = strtok(NULL, " "))
        argv[argc++] = w;
    return game_tournament_open(game, &who, admin, (const char *const *)argv, argc);
}

START_TEST(test_refusals)
{
    struct game_caller boss = caller("boss", 99, 1), p1 = caller("p1", 1, 1);

    ck_assert_int_eq(open_words(0, "size=8"), -1);
    HAS("boss|answer|only an admin opens a tournament here ([tournament] open_by = admins)");
    ck_assert_int_eq(open_words(1, "size=6"), -1);
    HAS("boss|answer|size=6: a tournament has 4, 8, 16 or 32 places; say size=8");
    ck_assert_int_eq(open_words(1, "mode=fast"), -1);
    HAS("boss|answer|mode=fast: say mode=live (bouts fought live) or mode=plans (from the "
        "plans)");
    ck_assert_int_eq(open_words(1, "rounds=99 name=X"), -1);
    HAS("boss|answer|rounds=99: a boxing bout has 3 to 15 rounds");
    ck_assert_int_eq(open_words(1, "colour=red"), -1);
    HAS("boss|answer|colour=red: not a word of tournament open [rules=..] [size=4|8|16|32] "
        "[rounds=N] [mode=live|plans] [name=..]");
    ck_assert_int_eq(game_tournament_start(game, &boss, 1), -1);
    HAS("boss|answer|no tournament is open; an admin opens one: !tournament open");
    ck_assert_int_eq(game_tournament_show(game, &p1, NULL), -1);
    HAS("p1|answer|no tournament yet; an admin opens one: !tournament open");
    ck_assert_int_eq(open_words(1, "size=4 name=Spring Cup"), 0);
    HAS("#ring|chatter|Tournament #1 (Spring Cup) is open: boxing, 4 places, bouts of 12 rounds, "
        "fought from the plans. Join with !tournament join <fighter>.");
    ck_assert_int_eq(open_words(1, "size=4"), -1);
    HAS("boss|answer|tournament #1 (Spring Cup) is not over yet; one tournament at a time");
    int64_t a = boxer(1, 0);
    struct game_caller c1 = caller("p1", a, 1);
    ck_assert_int_eq(game_tournament_leave(game, &c1), -1);
    HAS("p1|answer|you have no fighter in tournament #1 (Spring Cup)");
    ck_assert_int_eq(join(1, a), 0);
    HAS("#ring|chatter|Boxer1 joins tournament #1 (Spring Cup): 1 of 4.");
    ck_assert_int_eq(game_tournament_show(game, &p1, NULL), 0);
    HAS("p1|answer|Tournament #1 (Spring Cup): boxing, 4 places, bouts of 12 rounds, plans; open, "
        "1 joined: Boxer1.");
    ck_assert_int_eq(join(1, a), -1);
    HAS("p1|answer|you have a fighter in tournament #1 already; one a player");
    ck_assert_int_eq(game_tournament_start(game, &c1, 0), -1);
    HAS("p1|answer|only an admin starts a tournament before it is full");
    ck_assert_int_eq(game_tournament_start(game, &boss, 1), -1);
    HAS("boss|answer|tournament #1 (Spring Cup) has 1 entrant; it needs 2 at least");
    ck_assert_int_eq(game_tournament_next(game, &boss, 1), -1);
    HAS("boss|answer|tournament #1 (Spring Cup) has not begun; !tournament start begins it");
    ck_assert_int_eq(game_tournament_leave(game, &c1), 0);
    HAS("#ring|chatter|Boxer1 leaves tournament #1 (Spring Cup): 0 of 4.");
}
END_TEST

/* A ruleset whose bouts always have the same rounds refuses any other
 * rounds= as the challenge does, word for word, and opens nothing
 * (rules=sugarray rounds=2 was opened, and its live bouts had 2 rounds);
 * its own count is taken. */
START_TEST(test_fixed_rounds_refused)
{
    struct game_caller p1 = caller("p1", 1, 1);
    char line[160], want[160];
    int fixed = 0;

    ck_assert_int_eq(open_words(1, "rules=sugarray rounds=2 mode=live"), -1);
    HAS("boss|answer|a SUGAR RAY bout always has 5 rounds; leave rounds= out");
    for (int r = 0; r < RULES_COUNT; r++) {
        const struct ruleset *rs = ruleset_get((enum rules)r);
        if (!rs->rounds_fixed)
            continue;
        fixed++;
        snprintf(want, sizeof(want),
                 "boss|answer|a %s bout always has %d rounds; leave rounds= out", rs->title,
                 rs->rounds_default);
        const char *bad[] = {"1", "2", "99", "x"};
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            hush();
            snprintf(line, sizeof(line), "rules=%s rounds=%s", rs->name, bad[i]);
            ck_assert_int_eq(open_words(1, line), -1);
            HAS(want);
        }
    }
    ck_assert_int_ge(fixed, 2); /* sugarray and duel */
    hush();
    ck_assert_int_eq(game_tournament_show(game, &p1, NULL), -1);
    HAS("p1|answer|no tournament yet");
    ck_assert_int_eq(open_words(1, "rules=sugarray rounds=5 size=4"), 0);
    HAS(") is open: sugarray, 4 places, bouts of 5 rounds, fought from the plans.");
}
END_TEST

/* A tournament's number that is none names what exists: the newest's
 * bracket command, and the web page of them all when the game knows its
 * address (it named "!tournaments", a command there is not). */
START_TEST(test_missing_number_points_to_what_exists)
{
    struct game_caller p1 = caller("p1", 1, 1);
    struct game_config linked = cfg;

    ck_assert_int_eq(game_tournament_show(game, &p1, "7"), -1);
    HAS("p1|answer|no tournament #7: there is none yet; an admin opens one: !tournament open");
    ck_assert_int_eq(open_words(1, "size=4"), 0);
    hush();
    ck_assert_int_eq(game_tournament_show(game, &p1, "#7"), -1);
    HAS("p1|answer|no tournament #7: the newest is #1 (!bracket 1)");
    snprintf(linked.base_url, sizeof(linked.base_url), "https://ring.example.org");
    game_set_config(game, &linked);
    hush();
    ck_assert_int_eq(game_tournament_show(game, &p1, "7"), -1);
    HAS("p1|answer|no tournament #7: the newest is #1 (!bracket 1); all of them: "
        "https://ring.example.org/tournaments");
    ck_assert_int_eq(game_tournament_show(game, &p1, "x"), -1);
    HAS("p1|answer|x: say a tournament's number: !bracket 3");
    ck_assert_ptr_null(strstr(said.p, "tournaments lists"));
}
END_TEST

/* The rounds of its bouts are told where a player decides to join: a
 * live tournament without rounds= has a challenge's ([bout] rounds: 3
 * here), a plans one a league bout's (12 for boxing: above). */
START_TEST(test_rounds_told)
{
    struct game_caller p1 = caller("p1", 1, 1);

    ck_assert_int_eq(open_words(1, "size=4 mode=live"), 0);
    HAS("#ring|chatter|Tournament #1 (Boxing Cup) is open: boxing, 4 places, bouts of 3 rounds, "
        "fought live. Join with !tournament join <fighter>.");
    ck_assert_int_eq(game_tournament_show(game, &p1, "1"), 0);
    HAS("p1|answer|Tournament #1 (Boxing Cup): boxing, 4 places, bouts of 3 rounds, live; open, 0 "
        "joined.");
}
END_TEST

/* name= may stand anywhere: its words run to the next key word. */
START_TEST(test_name_anywhere)
{
    ck_assert_int_eq(open_words(1, "name=Winter Cup size=4 mode=plans"), 0);
    HAS("#ring|chatter|Tournament #1 (Winter Cup) is open: boxing, 4 places, bouts of 12 rounds, "
        "fought from the plans. Join with !tournament join <fighter>.");
}
END_TEST

/* Eight entrants seeded by wins: the standard bracket 1 v 8, 4 v 5, 2 v
 * 7, 3 v 6, fought from the plans a round at a time to a winner. */
START_TEST(test_plans_bracket_of_eight)
{
    struct game_caller boss = caller("boss", 99, 1);
    int64_t acc[9];

    game_connected(game);
    ck_assert_int_eq(open_words(1, "size=8 name=Spring Cup"), 0);
    for (int i = 1; i <= 8; i++)
        acc[i] = boxer(i, i); /* Boxer8 has the most wins: seed 1 */
    hush();
    for (int i = 1; i <= 7; i++)
        ck_assert_int_eq(join(i, acc[i]), 0);
    ck_assert_ptr_null(strstr(said.p, "begins"));
    ck_assert_int_eq(join(8, acc[8]), 0); /* full: it starts */
    HAS("#ring|chatter|Tournament #1 (Spring Cup) begins: 8 fighters, boxing, seeded by rating. "
        "Quarter-finals: Boxer8 [1] v Boxer1 [8]; Boxer5 [4] v Boxer4 [5]; Boxer7 [2] v Boxer2 "
        "[7]; Boxer6 [3] v Boxer3 [6].");
    ck_assert_int_eq(game_tournament_next(game, &boss, 0), -1);
    HAS("boss|answer|only an admin fights a tournament's next round");
    hush();
    ck_assert_int_eq(game_tournament_next(game, &boss, 1), 0);
    HAS("#ring|chatter|Tournament #1 (Spring Cup), the quarter-finals: ");
    HAS(" Next, the semi-finals: ");
    ck_assert_int_eq(game_tournament_next(game, &boss, 1), 0);
    HAS(" Next, the final: ");
    hush();
    ck_assert_int_eq(game_tournament_next(game, &boss, 1), 0);
    HAS("#ring|chatter|Tournament #1 (Spring Cup), the final: ");
    HAS(" wins the Spring Cup!");
    ck_assert_int_eq(game_tournament_next(game, &boss, 1), -1);
    HAS("boss|answer|no tournament is open; an admin opens one: !tournament open");

    struct game_bracket b;
    ck_assert_int_eq(game_bracket_get(db, 1, &b), 0);
    ck_assert_int_eq(b.nm, 7);
    ck_assert_int_eq(b.t.state, DB_TOURNAMENT_OVER);
    ck_assert_int_eq(b.t.said, 4);
    for (int i = 0; i < b.nm; i++) {
        FILE *f = tmpfile();
        ck_assert_int_eq(bout_replay(db, b.m[i].bout, f), 0); /* fought as stored */
        fclose(f);
    }
    struct db_fighter w;
    ck_assert_int_eq(db_fighter_get_id(db, b.t.winner, &w), DB_OK);
    hush();
    ck_assert_int_eq(game_fighter_show(game, &boss, &w), 0);
    char line[128];
    snprintf(line, sizeof(line), "boss|answer|%s won the Spring Cup (boxing, 8).", w.name);
    HAS(line);
    hush();
    ck_assert_int_eq(game_tournament_show(game, &boss, "1"), 0);
    HAS("boss|answer|Tournament #1 (Spring Cup): boxing, 8 places, bouts of 12 rounds, plans; won "
        "by ");
    HAS("boss|answer|Results: ");
}
END_TEST

/* A fighter retired while entered in an open tournament leaves it (the
 * retire answer says so); one still in a tournament that has begun may
 * not retire; and the start never seeds a retired fighter (one an older
 * bot retired and left entered), nor lets a retired one join. */
START_TEST(test_retired_never_fights)
{
    struct game_caller boss = caller("boss", 99, 1);
    struct db_fighter f, was[5];
    int64_t acc[5];

    game_connected(game);
    ck_assert_int_eq(open_words(1, "size=8"), 0);
    for (int i = 1; i <= 4; i++) {
        acc[i] = boxer(i, i);
        ck_assert_int_eq(join(i, acc[i]), 0);
    }
    hush();
    struct game_caller p3 = caller("p3", acc[3], 1), p1 = caller("p1", acc[1], 1);
    ck_assert_int_eq(db_fighter_get(db, "boxer3", &f), DB_OK);
    ck_assert_int_eq(game_retire(game, &p3, &f), 0);
    HAS("p3|answer|Boxer3 retires with a record of 3-0-0; he leaves tournament #1 (Boxing "
        "Cup)\n");
    int64_t p5 = boxer(5, 0); /* never fought: removed, out of the tournament */
    struct game_caller c5 = caller("p5", p5, 1);
    ck_assert_int_eq(join(5, p5), 0);
    ck_assert_int_eq(db_fighter_get(db, "boxer5", &f), DB_OK);
    ck_assert_int_eq(game_retire(game, &c5, &f), 0);
    HAS("p5|answer|Boxer5 never fought: removed rather than retired, and the name is free "
        "again; he leaves tournament #1 (Boxing Cup)\n");
    ck_assert_int_eq(db_fighter_get(db, "boxer5", &f), DB_NOTFOUND);
    ck_assert_int_eq(db_fighter_get(db, "boxer4", &f), DB_OK);
    ck_assert_int_eq(db_fighter_retire(db, f.id), DB_OK); /* left entered */
    ck_assert_int_eq(db_fighter_get(db, "boxer4", &f), DB_OK);
    struct game_caller p4 = caller("p4", acc[4], 1);
    ck_assert_int_eq(game_tournament_leave(game, &p4), 0);
    hush();
    ck_assert_int_eq(game_tournament_join(game, &p4, &f), -1);
    HAS("p4|answer|Boxer4 has retired; join with a fighter who still fights\n");
    ck_assert_int_eq(db_tournament_join(db, 1, f.id, 1700000000), DB_OK); /* an older bot's */
    for (int i = 1; i <= 4; i++) {
        char key[16];
        snprintf(key, sizeof(key), "boxer%d", i);
        ck_assert_int_eq(db_fighter_get(db, key, &was[i]), DB_OK);
    }
    hush();
    ck_assert_int_eq(game_tournament_start(game, &boss, 1), 0);
    HAS("#ring|chatter|Tournament #1 (Boxing Cup) begins: 2 fighters");
    ck_assert_ptr_null(strstr(said.p, "Boxer3"));
    ck_assert_ptr_null(strstr(said.p, "Boxer4"));
    ck_assert_int_eq(db_fighter_get(db, "boxer1", &f), DB_OK);
    hush();
    ck_assert_int_eq(game_retire(game, &p1, &f), -1);
    HAS("p1|answer|Boxer1 is still in tournament #1 (Boxing Cup), which has begun; retire him "
        "once he is out of it or it is over\n");
    ck_assert_int_eq(db_fighter_get(db, "boxer1", &f), DB_OK);
    ck_assert_int_eq(f.retired, 0);
    while (game_tournament_next(game, &boss, 1) == 0)
        ;
    for (int i = 3; i <= 4; i++) {
        char key[16];
        snprintf(key, sizeof(key), "boxer%d", i);
        ck_assert_int_eq(db_fighter_get(db, key, &f), DB_OK);
        ck_assert_int_eq(f.retired, 1);
        ck_assert_int_eq(f.wins, was[i].wins);
        ck_assert_int_eq(f.losses + f.draws, 0);
    }
    ck_assert_int_eq(db_fighter_get(db, "boxer1", &f), DB_OK);
    ck_assert_int_eq(f.wins + f.losses + f.draws, was[1].wins + 1); /* the final */
    ck_assert_int_eq(game_retire(game, &p1, &f), 0);                /* over: he may */
}
END_TEST

/* A fighter still in a tournament that has begun but retired all the
 * same (by an older bot, whose retire did not refuse) never fights again:
 * his match is a walkover, in a plans round and in a live one. */
START_TEST(test_retired_walkover)
{
    struct game_caller boss = caller("boss", 99, 1);
    struct db_fighter f;

    game_connected(game);
    ck_assert_int_eq(open_words(1, "size=4"), 0);
    for (int i = 1; i <= 4; i++)
        ck_assert_int_eq(join(i, boxer(i, 10 - i)), 0); /* full: it starts */
    ck_assert_int_eq(db_fighter_get(db, "boxer2", &f), DB_OK);
    ck_assert_int_eq(db_fighter_retire(db, f.id), DB_OK);
    hush();
    ck_assert_int_eq(game_tournament_next(game, &boss, 1), 0);
    HAS("Boxer3 (walkover: Boxer2 retired)");
    ck_assert_int_eq(db_fighter_get(db, "boxer2", &f), DB_OK);
    ck_assert_int_eq(f.wins, 8);
    ck_assert_int_eq(f.losses + f.draws, 0);
    ck_assert_int_eq(db_bout_get(db, 2, &(struct db_bout){0}), DB_NOTFOUND); /* one bout */
    while (game_tournament_next(game, &boss, 1) == 0)
        ;

    /* Live: both finalists retired while their semi-finals ran. */
    ck_assert_int_eq(open_words(1, "size=4 mode=live name=Live Cup"), 0);
    for (int i = 5; i <= 8; i++)
        ck_assert_int_eq(join(i, boxer(i, 20 - i)), 0);
    ck_assert_int_eq(game_live(game), 2);
    for (int i = 5; i <= 8; i++) {
        char key[16];
        snprintf(key, sizeof(key), "boxer%d", i);
        ck_assert_int_eq(db_fighter_get(db, key, &f), DB_OK);
        ck_assert_int_eq(db_fighter_retire(db, f.id), DB_OK);
    }
    hush();
    for (int k = 0; k < 200 && !strstr(said.p, "wins the Live Cup!"); k++) {
        clock_now += 61;
        wall_now += 61;
        game_tick(game, NULL);
    }
    HAS(" wins the Live Cup!");
    HAS("(walkover: Boxer");
    ck_assert_int_eq(game_live(game), 0);
    struct game_bracket b;
    ck_assert_int_eq(game_bracket_get(db, 2, &b), 0);
    ck_assert_int_eq(b.t.state, DB_TOURNAMENT_OVER);
    for (int i = 0; i < b.nm; i++)
        if (b.m[i].stage == 2)
            ck_assert_int_eq(b.m[i].bout, 0); /* the final: no bout */
}
END_TEST

/* Five entrants in eight places: seeds 1 to 3 have byes; the round of
 * byes and the one bout; then the semi-finals. */
START_TEST(test_byes_to_top_seeds)
{
    struct game_caller boss = caller("boss", 99, 1);
    int64_t acc[6];

    game_connected(game);
    ck_assert_int_eq(open_words(1, "size=8"), 0);
    for (int i = 1; i <= 5; i++) {
        acc[i] = boxer(i, 10 - i); /* Boxer1 is seed 1 */
        ck_assert_int_eq(join(i, acc[i]), 0);
    }
    hush();
    ck_assert_int_eq(game_tournament_start(game, &boss, 1), 0);
    HAS("#ring|chatter|Tournament #1 (Boxing Cup) begins: 5 fighters, boxing, seeded by rating. "
        "Quarter-finals: Boxer1 [1] (bye); Boxer4 [4] v Boxer5 [5]; Boxer2 [2] (bye); Boxer3 "
        "[3] (bye).");
    hush();
    ck_assert_int_eq(game_tournament_next(game, &boss, 1), 0);
    HAS("Boxer1 (bye); ");
    HAS(" Next, the semi-finals: Boxer1 [1] v Boxer");
    ck_assert_int_eq(db_bout_get(db, 2, &(struct db_bout){0}), DB_NOTFOUND); /* one bout */
}
END_TEST

/* The bot stopped and started again on the same file: a new game, not
 * yet connected. */
static void restart(void)
{
    char err[256];

    game_free(game);
    db_close(db);
    db = test_db_open(path, err, sizeof(err));
    ck_assert_msg(db != NULL, "%s", err);
    start_game();
}

/* A round stored and not said (the bot killed between) is said after a
 * restart, once; a round that could not be stored changed nothing. */
START_TEST(test_restart_says_what_was_stored)
{
    struct game_caller boss = caller("boss", 99, 1);

    game_connected(game);
    ck_assert_int_eq(open_words(1, "size=4 name=Cup"), 0);
    for (int i = 1; i <= 4; i++)
        ck_assert_int_eq(join(i, boxer(i, i)), 0);
    /* A fault at every step in turn: each try either stores nothing or
     * the whole round. */
    struct game_bracket b;
    int rc = -1, refused = 0;
    for (long n = 0; n < 400 && rc != 0; n++) {
        hush();
        db_fault_after(db, n);
        rc = game_tournament_next(game, &boss, 1);
        db_fault_after(db, -1);
        if (rc != 0) {
            refused += strstr(said.p, "boss|answer|the round was not stored (") != NULL;
            ck_assert_int_eq(game_bracket_get(db, 1, &b), 0);
            ck_assert_int_eq(b.t.stage, 1);
            ck_assert_int_eq(b.m[0].bout, 0);
            ck_assert_int_eq(b.m[0].winner, 0);
        }
    }
    ck_assert_int_eq(rc, 0);
    ck_assert_int_gt(refused, 0);
    /* As if killed after the commit and before the words: said is back. */
    ck_assert_int_eq(game_bracket_get(db, 1, &b), 0);
    ck_assert_int_eq(b.t.said, 2);
    b.t.said = 1;
    ck_assert_int_eq(db_tournament_save(db, &b.t), DB_OK);
    restart();
    hush();
    game_tick(game, NULL);
    ck_assert_ptr_null(strstr(said.p, "semi-finals")); /* not online yet */
    game_connected(game);
    game_tick(game, NULL);
    HAS("#ring|chatter|Tournament #1 (Cup), the semi-finals: ");
    HAS(" Next, the final: ");
    hush();
    game_tick(game, NULL);
    ck_assert_int_eq((int)said.len, 0); /* once */
}
END_TEST

/* A plans round's bouts are announced by the tournament's lines, never
 * round by round: they are stored as said, and a restart says nothing of
 * them (it said every round of every such bout ever fought, "Bout #2:
 * what I had not said yet when I stopped:" and ten lines a bout, ahead of
 * the live bout it was to resume). */
START_TEST(test_restart_replays_no_plans_bout)
{
    struct game_caller boss = caller("boss", 99, 1);
    struct game_bracket b;
    struct db_bout rec;
    int64_t ids[8];
    int upto[8], n = -1, fought = 0;

    game_connected(game);
    ck_assert_int_eq(open_words(1, "size=4 name=Cup"), 0);
    for (int i = 1; i <= 4; i++)
        ck_assert_int_eq(join(i, boxer(i, i)), 0);
    ck_assert_int_eq(game_tournament_next(game, &boss, 1), 0);
    ck_assert_int_eq(game_bracket_get(db, 1, &b), 0);
    for (int i = 0; i < b.nm; i++) {
        if (!b.m[i].bout)
            continue;
        ck_assert_int_eq(db_bout_get(db, b.m[i].bout, &rec), DB_OK);
        ck_assert_int_gt(rec.round, 0);
        fought++;
    }
    ck_assert_int_eq(fought, 2);
    ck_assert_int_eq(db_bout_unsaid(db, ids, upto, 8, &n), DB_OK);
    ck_assert_int_eq(n, 0);
    restart();
    hush();
    game_connected(game);
    game_tick(game, NULL);
    ck_assert_msg(said.len == 0, "said after the restart:\n%.2000s", said.p);
}
END_TEST

/* The accounts whose challenges of the day (migration 23) are not `n`. */
static int64_t challenges_not(int n)
{
    char sql[128];

    snprintf(sql, sizeof(sql), "SELECT count(*) FROM accounts WHERE challenges <> %d", n);
    struct dbs *q = dbs_prepare(db, sql);
    ck_assert_msg(q != NULL, "%s", db_errmsg(db));
    ck_assert_int_eq(dbs_step(q), DBS_ROW);
    int64_t v = dbs_col_int64(q, 0);
    dbs_free(q);
    return v;
}

/* mode=live: the bouts start by themselves in the channel, the players
 * are prompted, nobody orders: their plans fight; the final starts when
 * the semi-finals are over, and the winner is said. The bot starts them:
 * they are no player's challenges, and a player who issued his most
 * challenges of the day (100) fights them all the same, counting none. */
START_TEST(test_live_tournament)
{
    struct game_caller boss = caller("boss", 99, 1);

    game_connected(game);
    ck_assert_int_eq(open_words(1, "size=4 mode=live rounds=4 name=Live Cup"), 0);
    HAS("Tournament #1 (Live Cup) is open: boxing, 4 places, bouts of 4 rounds, fought live.");
    for (int i = 1; i <= 3; i++)
        ck_assert_int_eq(join(i, boxer(i, 10 - i)), 0);
    char sql[128];
    snprintf(sql, sizeof(sql), "UPDATE accounts SET challenges_day = %lld, challenges = 100",
             (long long)(wall_now / 86400));
    struct dbs *q = dbs_prepare(db, sql);
    ck_assert_int_eq(dbs_run(q), DBS_DONE);
    dbs_free(q);
    hush();
    ck_assert_int_eq(game_tournament_start(game, &boss, 1), 0);
    HAS("Semi-finals: Boxer1 [1] (bye); Boxer2 [2] v Boxer3 [3].");
    HAS("#ring|chatter|Bout #1, boxing, 4 rounds: Boxer2 (p2)");
    HAS("p2|live|Bout #1, round 1 of 4: your orders for Boxer2");
    ck_assert_int_eq(game_live(game), 1);
    ck_assert_int_eq(game_tournament_next(game, &boss, 1), -1);
    HAS("boss|answer|tournament #1 (Live Cup) is fought live: its rounds go on as its bouts end");
    for (int k = 0; k < 200 && !strstr(said.p, "wins the Live Cup!"); k++) {
        clock_now += 61;
        wall_now += 61;
        game_tick(game, NULL);
    }
    HAS("#ring|chatter|Tournament #1 (Live Cup), the semi-finals: ");
    HAS("#ring|chatter|Bout #2, boxing, 4 rounds: Boxer1 (p1)");
    HAS(" wins the Live Cup!");
    ck_assert_int_eq(game_live(game), 0);
    ck_assert_int_eq(challenges_not(100), 0);
}
END_TEST

/* An admin cancels a live tournament bout: no result, and the match is
 * fought again in a new bout (it used to wait for good). */
START_TEST(test_live_cancel_fights_again)
{
    struct game_caller boss = caller("boss", 99, 1);

    game_connected(game);
    ck_assert_int_eq(open_words(1, "size=4 mode=live rounds=4 name=Live Cup"), 0);
    for (int i = 1; i <= 3; i++)
        ck_assert_int_eq(join(i, boxer(i, 10 - i)), 0);
    ck_assert_int_eq(game_tournament_start(game, &boss, 1), 0);
    HAS("#ring|chatter|Bout #1, boxing, 4 rounds: Boxer2 (p2)");
    hush();
    ck_assert_int_eq(game_cancel(game, &boss, 1), 0);
    HAS("Bout #1 (Boxer2 vs Boxer3) is cancelled by boss: no result.");
    HAS("#ring|chatter|Tournament #1 (Live Cup): bout #1 was cancelled with no result; it is "
        "fought again.");
    HAS("#ring|chatter|Bout #2, boxing, 4 rounds: Boxer2 (p2)");
    ck_assert_int_eq(game_live(game), 1);
    for (int k = 0; k < 200 && !strstr(said.p, "wins the Live Cup!"); k++) {
        clock_now += 61;
        wall_now += 61;
        game_tick(game, NULL);
    }
    HAS(" wins the Live Cup!");
}
END_TEST

/* Seeds come from the ratings: the best rated is seed 1 whatever his wins;
 * the plans round's bouts then move the ratings. */
START_TEST(test_seeds_by_rating)
{
    struct game_caller boss = caller("boss", 99, 1);
    int64_t acc[5];
    struct db_fighter f;
    char name[32];
    struct game_config no_exhibitions = cfg;

    /* Exhibitions move no rating here; a tournament's bouts still do. */
    no_exhibitions.rating_skip_exhibitions = 1;
    game_set_config(game, &no_exhibitions);
    game_connected(game);
    ck_assert_int_eq(open_words(1, "size=4"), 0);
    for (int i = 1; i <= 4; i++)
        acc[i] = boxer(i, 10 - i); /* Boxer1 has the most wins... */
    /* The ratings' history names a bout: two cancelled bouts (1 v 2, 3 v
     * 4) stand for the bouts that made them. */
    int64_t old[2];
    for (int k = 0; k < 2; k++) {
        struct db_bout b = {.rules = RULES_BOXING,
                            .channel = "#ring",
                            .rounds = 3,
                            .state = DB_BOUT_CANCELLED,
                            .winner = -1};
        for (int s = 0; s < SIDES; s++) {
            snprintf(name, sizeof(name), "boxer%d", 2 * k + s + 1);
            ck_assert_int_eq(db_fighter_get(db, name, &f), DB_OK);
            b.fighter[s] = f.id;
        }
        ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
        old[k] = b.id;
    }
    for (int i = 1; i <= 4; i++) {
        snprintf(name, sizeof(name), "boxer%d", i);
        ck_assert_int_eq(db_fighter_get(db, name, &f), DB_OK);
        /* ...but Boxer4 the best rating, Boxer1 the worst. */
        struct db_rating r = {1400.0 + 50.0 * i, 100.0, 0.06, 3};
        ck_assert_int_eq(
            db_rating_put(db, f.id, RULES_BOXING, &r, old[(i - 1) / 2], (i - 1) % 2, 1500.0, 0),
            DB_OK);
    }
    hush();
    for (int i = 1; i <= 4; i++)
        ck_assert_int_eq(join(i, acc[i]), 0);
    HAS("#ring|chatter|Tournament #1 (Boxing Cup) begins: 4 fighters, boxing, seeded by rating. "
        "Semi-finals: Boxer4 [1] v Boxer1 [4]; Boxer3 [2] v Boxer2 [3].");
    ck_assert_int_eq(game_tournament_next(game, &boss, 1), 0);
    ck_assert_int_eq(db_fighter_get(db, "boxer4", &f), DB_OK);
    double rating = 0, rd = 0;
    ck_assert_int_eq(game_rating_of(game, f.id, &rating, &rd), 0);
    ck_assert(rating != 1600.0); /* the semi-final moved it */
}
END_TEST

Suite *tournament_suite(void)
{
    Suite *s = suite_create("tournament");
    TCase *tc = tcase_create("tournament");

    tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_refusals);
    tcase_add_test(tc, test_name_anywhere);
    tcase_add_test(tc, test_fixed_rounds_refused);
    tcase_add_test(tc, test_missing_number_points_to_what_exists);
    tcase_add_test(tc, test_rounds_told);
    tcase_add_test(tc, test_plans_bracket_of_eight);
    tcase_add_test(tc, test_byes_to_top_seeds);
    tcase_add_test(tc, test_retired_never_fights);
    tcase_add_test(tc, test_retired_walkover);
    tcase_add_test(tc, test_restart_says_what_was_stored);
    tcase_add_test(tc, test_restart_replays_no_plans_bout);
    tcase_add_test(tc, test_live_tournament);
    tcase_add_test(tc, test_live_cancel_fights_again);
    tcase_add_test(tc, test_seeds_by_rating);
    suite_add_tcase(s, tc);
    return s;
}
