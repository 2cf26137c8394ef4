/* check_predict.c - spectators' predictions through the game alone (the
 * fake I/O of game_fixture.h): taking, changing, refusing, closing, the
 * count said with the next round, scoring at the end (and never twice,
 * across a restart and a failed write), the pundits' table. Every reply is
 * checked word for word. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "tests.h"

#include "game_fixture.h"

static const struct sheet rocky = {.rules = RULES_BOXING, .u.boxing = {14, 12, 11, 12, 11}};
static const struct sheet apollo = {.rules = RULES_BOXING, .u.boxing = {13, 14, 12, 11, 10}};

static int64_t alice, bob, carol, dave, erin, frank, gina;

static int64_t spectator(const char *name)
{
    int64_t id;

    ck_assert_int_eq(db_account_create(db, name, name, "$y$hash", 1, &id), DB_OK);
    return id;
}

/* alice (Rocky) and bob (Apollo) in a live 3-round boxing bout #1, and
 * five spectators. */
static void setup(void)
{
    fixture_setup();
    alice = player("alice", "Rocky", &rocky);
    bob = player("bob", "Apollo", &apollo);
    carol = spectator("carol");
    dave = spectator("dave");
    erin = spectator("erin");
    frank = spectator("frank");
    gina = spectator("gina");
    struct game_caller ca = caller("alice", alice, 1);
    ck_assert_int_eq(game_challenge(game, &ca, bob, "bob", RULES_BOXING, 0, NULL, NULL), 0);
}

static void accept(void)
{
    struct game_caller cb = caller("bob", bob, 1);
    ck_assert_int_eq(game_answer(game, &cb, GAME_ACCEPT, NULL, 0), 0);
    game_tick(game, NULL);
}

/* `name` (account id) says "predict WORDS..." in the channel. */
static int say_predict(const char *name, int64_t id, const char *line)
{
    char buf[256], *w[16];
    int n = 0;
    struct game_caller c = caller(name, id, 1);

    snprintf(buf, sizeof(buf), "%s", line);
    for (char *t = strtok(buf, " "); t && n < 16; t = strtok(NULL, " "))
        w[n++] = t;
    if (n == 0)
        return game_predict_list(game, &c);
    return game_predict(game, &c, w[0], w + 1, n - 1);
}

/* One round of bout 1 fought: Rocky 5/5/10 (ring), Apollo 4H/6/10 (Rocky
 * wins these 30-27 on every card). */
static void round_fought(void)
{
    struct game_caller pa = caller("alice", alice, 0), pb = caller("bob", bob, 0);
    ck_assert_int_eq(game_order(game, &pa, NULL, "5/5/10 (ring)"), 0);
    ck_assert_int_eq(game_order(game, &pb, NULL, "4H/6/10"), 0);
}

/* The table as `who` hears it. */
static void table(const char *words)
{
    char buf[128], *w[8];
    int n = 0;
    struct game_caller c = caller("zed", 0, 1);

    snprintf(buf, sizeof(buf), "%s", words);
    for (char *t = strtok(buf, " "); t && n < 8; t = strtok(NULL, " "))
        w[n++] = t;
    game_pundits(game, &c, w, n);
}

#define NOT_HAS(needle)                                                                            \
    ck_assert_msg(strstr(said.p, (needle)) == NULL, "\"%s\" in:\n%.4000s", needle, said.p)

START_TEST(test_taking_and_changing)
{
    hush();
    ck_assert_int_eq(say_predict("carol", carol, "1 Rocky"), -1);
    HAS("carol|private|Bout #1 is not accepted yet: predictions open when it starts.");
    accept();
    hush();
    ck_assert_int_eq(say_predict("carol", carol, "#1 rocky tko round 2"), 0);
    HAS("carol|private|Prediction stored for bout #1: Rocky by TKO in round 2. You may change it "
        "until the end of round 1; nobody sees it before then.\n");
    ck_assert_int_eq(say_predict("carol", carol, "1 Apollo decision"), 0);
    HAS("carol|private|Prediction changed for bout #1: Apollo by decision (was Rocky by TKO in "
        "round 2). You may change it until the end of round 1; nobody sees it before then.\n");
    ck_assert_int_eq(say_predict("dave", dave, "1 draw"), 0);
    HAS("dave|private|Prediction stored for bout #1: a draw.");
    ck_assert_int_eq(say_predict("carol", carol, ""), 0);
    HAS("carol|private|Your open predictions: #1 Apollo by decision (open until the end of round "
        "1).\n");
    ck_assert_int_eq(say_predict("erin", erin, ""), 0);
    HAS("erin|private|You have no open prediction; usage: predict <bout> <fighter> [method] "
        "[round N], or predict <bout> draw.\n");
    /* Said in the channel, every answer went in private. */
    NOT_HAS("|answer|");
    struct db_prediction p;
    ck_assert_int_eq(db_predict_get(db, 1, carol, &p), DB_OK);
    ck_assert_int_eq(p.side, 1);
    ck_assert_str_eq(p.method, "decision");
    ck_assert_int_eq(p.round, 0);
    ck_assert_int_eq(p.hits, -1);
}
END_TEST

START_TEST(test_refusals_change_nothing)
{
    accept();
    hush();
    static const struct {
        const char *who, *line, *reply;
    } cases[] = {
        {"alice", "1 Rocky", "Bout #1 is your own fighter's: you cannot predict it."},
        {"bob", "1 draw", "Bout #1 is your own fighter's: you cannot predict it."},
        {"carol", "9 Rocky", "There is no bout #9; bouts lists the live bouts."},
        {"carol", "x1 Rocky",
         "\"x1\" is not a bout's number; usage: predict <bout> <fighter> [method] [round N], or "
         "predict <bout> draw (bouts lists them)."},
        {"carol", "1", "Whom do you call in bout #1? Say predict 1 Rocky, Apollo or draw."},
        {"carol", "1 Creed", "Creed does not fight in bout #1: say Rocky, Apollo or draw."},
        {"carol", "1 Rocky points",
         "A boxing bout ends by ko, tko, dq or decision: \"points\" is none of them."},
        {"carol", "1 Rocky yield",
         "A boxing bout ends by ko, tko, dq or decision: \"yield\" is none of them."},
        {"carol", "1 Rocky round 4", "Bout #1's round to call is a number from 1 to 3."},
        {"carol", "1 Rocky round", "Bout #1's round to call is a number from 1 to 3."},
        {"carol", "1 Rocky round 1 round 2",
         "One round, please; usage: predict <bout> <fighter> [method] [round N], or predict "
         "<bout> draw."},
        {"carol", "1 Rocky ko tko",
         "I don't understand \"tko\"; usage: predict <bout> <fighter> [method] [round N], or "
         "predict <bout> draw."},
        {"carol", "1 Rocky decision round 3", "A decision goes the distance: leave out the round."},
        {"carol", "1 draw ko", "A draw takes no method or round: say predict 1 draw."},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int64_t id = strcmp(cases[i].who, "alice") == 0 ? alice
                     : strcmp(cases[i].who, "bob") == 0 ? bob
                                                        : carol;
        char want[512];
        hush();
        ck_assert_int_eq(say_predict(cases[i].who, id, cases[i].line), -1);
        snprintf(want, sizeof(want), "%s|private|%s\n", cases[i].who, cases[i].reply);
        ck_assert_str_eq(said.p, want);
    }
    struct db_prediction p;
    ck_assert_int_eq(db_predict_get(db, 1, carol, &p), DB_NOTFOUND);
    ck_assert_int_eq(db_predict_get(db, 1, alice, &p), DB_NOTFOUND);

    /* A league bout is fought at once: none taken. */
    struct db_bout lb = {.rules = RULES_BOXING, .rounds = 3, .kind = DB_BOUT_LEAGUE, .turn = 1};
    snprintf(lb.channel, sizeof(lb.channel), "#ring");
    lb.fighter[0] = 1;
    lb.fighter[1] = 2;
    lb.winner = -1;
    lb.league = 0;
    ck_assert_int_eq(db_bout_create(db, &lb), DB_OK);
    hush();
    char line[32];
    snprintf(line, sizeof(line), "%lld Rocky", (long long)lb.id);
    ck_assert_int_eq(say_predict("carol", carol, line), -1);
    char want[128];
    snprintf(want, sizeof(want),
             "carol|private|Bout #%lld is a league bout, fought at once: it takes no "
             "predictions.\n",
             (long long)lb.id);
    ck_assert_str_eq(said.p, want);
}
END_TEST

/* The whole bout: the predictions close after round 1, the count goes with
 * round 2's first line, the end scores them and says who called it. */
static void predicted_bout(void)
{
    accept();
    ck_assert_int_eq(say_predict("carol", carol, "1 Rocky decision"), 0);
    ck_assert_int_eq(say_predict("dave", dave, "1 Rocky"), 0);
    ck_assert_int_eq(say_predict("erin", erin, "1 Apollo ko round 2"), 0);
    ck_assert_int_eq(say_predict("frank", frank, "1 draw"), 0);
    ck_assert_int_eq(say_predict("gina", gina, "1 Rocky round 3"), 0);
    hush();
    round_fought();
    /* Round 1's own lines carry no count: they close with it. */
    NOT_HAS("predictions:");
    hush();
    ck_assert_int_eq(say_predict("dave", dave, "1 Apollo"), -1);
    HAS("dave|private|Predictions on bout #1 closed at the end of round 1.\n");
    ck_assert_int_eq(say_predict("carol", carol, ""), 0);
    HAS("carol|private|Your open predictions: #1 Rocky by decision (closed).\n");
    hush();
    round_fought();
}

START_TEST(test_closing_count_and_scoring)
{
    predicted_bout();
    /* Round 2's first line, in the same message: the count, the favourite
     * first. */
    HAS(" 5 predictions: 3 Rocky, 1 Apollo, 1 draw.\n");
    HAS("#ring|chatter|\002Round 2\002: ");
    HAS(" 17. 5 predictions: 3 Rocky, 1 Apollo, 1 draw.\n#ring|chatter|Cards (Rocky-Apollo) 10-9");
    hush();
    round_fought();
    HAS("#ring|chatter|Called it: carol (winner, decision), dave (winner), gina (winner, round "
        "3).\n");
    HAS("carol|live|Bout #1 is over: your prediction (Rocky by decision) scores 2 points (the "
        "winner, decision).\n");
    HAS("dave|live|Bout #1 is over: your prediction (Rocky) scores 1 point (the winner).\n");
    HAS("erin|live|Bout #1 is over: your prediction (Apollo by KO in round 2) scores 0 "
        "points.\n");
    HAS("frank|live|Bout #1 is over: your prediction (a draw) scores 0 points.\n");
    HAS("gina|live|Bout #1 is over: your prediction (Rocky in round 3) scores 2 points (the "
        "winner, the round).\n");
    /* The "Called it" line comes after the result, once. */
    const char *called = strstr(said.p, "Called it");
    ck_assert_ptr_null(strstr(called + 1, "Called it"));
    ck_assert_ptr_nonnull(strstr(said.p, "unanimous decision"));
    ck_assert(strstr(said.p, "unanimous decision") < called);

    hush();
    table("");
    HAS("zed|answer|Pundits (all time, every ruleset): 1. carol 2 points (1 of 1 winners, 100%); "
        "2. gina 2 points (1 of 1 winners, 100%); 3. dave 1 point (1 of 1 winners, 100%); 4. erin "
        "0 points (0 of 1 winners, 0%); 5. frank 0 points (0 of 1 winners, 0%).\n");
    hush();
    table("rules=sugarray");
    HAS("zed|answer|No prediction scored yet (all time, sugarray): predict a live bout as it "
        "starts.\n");
    hush();
    table("season 2");
    HAS("zed|answer|A season is a ruleset's: say e.g. pundits rules=boxing season N.\n");
    hush();
    table("rules=boxing season 2");
    HAS("zed|answer|There is no season 2 of boxing yet: season rules=boxing says which one "
        "runs.\n");
    hush();
    /* Season 1 is everything so far: the same table as all time. */
    table("rules=boxing season");
    HAS("zed|answer|Pundits (season 1, boxing): 1. carol 2 points (1 of 1 winners, 100%); "
        "2. gina 2 points (1 of 1 winners, 100%); 3. dave 1 point (1 of 1 winners, 100%); 4. erin "
        "0 points (0 of 1 winners, 0%); 5. frank 0 points (0 of 1 winners, 0%).\n");
    hush();
    table("weekly");
    HAS("zed|answer|I don't understand \"weekly\"; usage: pundits [rules=NAME] [season [N]].\n");

    /* Scoring again changes nothing: each prediction is scored once. */
    ck_assert_int_eq(db_predict_score(db, 1, 1, "ko", 2), DB_OK);
    hush();
    table("rules=boxing");
    HAS("zed|answer|Pundits (all time, boxing): 1. carol 2 points (1 of 1 winners, 100%); 2. gina "
        "2 points");
    /* A prediction scored is never replaced. */
    struct db_prediction p = {.bout = 1, .account = carol, .side = 1, .closes = 1};
    ck_assert_int_eq(db_predict_put(db, &p), DB_EXISTS);
}
END_TEST

/* The bot killed mid-bout (everything in memory lost): the predictions
 * stay closed, the bout goes on, and each is scored once. */
START_TEST(test_restart_scores_once)
{
    predicted_bout();
    game_free(game);
    start_game();
    game_connected(game);
    game_tick(game, NULL);
    hush();
    ck_assert_int_eq(say_predict("dave", dave, "1 Apollo"), -1);
    HAS("dave|private|Predictions on bout #1 closed at the end of round 1.\n");
    round_fought();
    HAS("#ring|chatter|Called it: carol (winner, decision), dave (winner), gina (winner, round "
        "3).\n");
    game_free(game);
    start_game();
    game_connected(game);
    game_tick(game, NULL);
    hush();
    table("");
    HAS("zed|answer|Pundits (all time, every ruleset): 1. carol 2 points (1 of 1 winners, 100%); "
        "2. gina 2 points (1 of 1 winners, 100%); 3. dave 1 point (1 of 1 winners, 100%); 4. erin "
        "0 points (0 of 1 winners, 0%); 5. frank 0 points (0 of 1 winners, 0%).\n");
}
END_TEST

/* The last round's steps failing each in turn (db_fault_after): the scores
 * are stored with the result or not at all, and once the round is fought
 * again, each prediction is scored once. */
START_TEST(test_failed_write_scores_with_the_result)
{
    int n;

    for (n = 0; n < 100; n++) {
        if (n > 0) {
            fixture_teardown();
            setup();
        }
        predicted_bout();
        struct game_caller pa = caller("alice", alice, 0), pb = caller("bob", bob, 0);
        db_fault_after(db, n);
        game_order(game, &pa, NULL, "5/5/10 (ring)");
        game_order(game, &pb, NULL, "4H/6/10");
        int fired = !db_fault_pending(db);
        db_fault_after(db, -1);
        struct db_bout rec;
        struct db_prediction p;
        ck_assert_int_eq(db_bout_get(db, 1, &rec), DB_OK);
        ck_assert_int_eq(db_predict_get(db, 1, carol, &p), DB_OK);
        ck_assert_int_eq(p.hits, rec.state == DB_BOUT_OVER ? DB_HIT_WINNER | DB_HIT_METHOD : -1);
        if (!fired)
            break;
        for (int t = 0; t < 3 && game_live(game); t++) {
            game_order(game, &pa, NULL, "5/5/10 (ring)");
            game_order(game, &pb, NULL, "4H/6/10");
            clock_now += 10;
            game_tick(game, NULL);
        }
        ck_assert_int_eq(game_live(game), 0);
        ck_assert_int_eq(db_predict_get(db, 1, carol, &p), DB_OK);
        ck_assert_int_eq(p.hits, DB_HIT_WINNER | DB_HIT_METHOD);
        hush();
        table("");
        HAS("zed|answer|Pundits (all time, every ruleset): 1. carol 2 points (1 of 1 winners, "
            "100%); 2. gina 2 points (1 of 1 winners, 100%); 3. dave 1 point");
    }
    ck_assert_int_gt(n, 3);
    ck_assert_int_lt(n, 100);
}
END_TEST

static const struct sheet conan = {
    .rules = RULES_DUEL,
    .u.duel = {18,
               14,
               14,
               10,
               {DUEL_LONGSWORD, DUEL_PLATE, DUEL_LEATHER, DUEL_CHAINMAIL, 0, 0, DUEL_LEATHER},
               {DUEL_COND_FULL, DUEL_COND_FULL, 20000, DUEL_COND_FULL, 0, 0, 30000}}};
static const struct sheet hector = {
    .rules = RULES_DUEL,
    .u.duel = {14,
               20,
               12,
               10,
               {DUEL_MACE, 0, DUEL_LEATHER, 0, 0, 0, DUEL_CHAINMAIL},
               {5000, 0, DUEL_COND_FULL, 0, 0, 0, DUEL_COND_FULL}}};

/* What a prediction (side, method, round) scores against a stored result,
 * computed apart from the game: the rule. */
static int hits_of(int side, const char *method, int round, const struct db_bout *rec)
{
    const char *got = rec->method == METHOD_KO ? "ko" : rec->method == METHOD_TKO ? "yield" : "";
    if (side != rec->winner)
        return 0;
    return DB_HIT_WINNER |
           (side >= 0 && method[0] && strcmp(method, got) == 0 ? DB_HIT_METHOD : 0) |
           (side >= 0 && round > 0 && round == rec->round ? DB_HIT_ROUND : 0);
}

/* A live duel fights itself: its methods are ko and yield, and the
 * predictions on it are scored as its result says. */
START_TEST(test_duel)
{
    int64_t hal = player("hal", "Conan", &conan), ivy = player("ivy", "Hector", &hector);
    struct game_caller ch = caller("hal", hal, 1), ci = caller("ivy", ivy, 1);

    ck_assert_int_eq(game_challenge(game, &ch, ivy, "ivy", RULES_DUEL, 0, NULL, NULL), 0);
    ck_assert_int_eq(game_answer(game, &ci, GAME_ACCEPT, "hal", hal), 0);
    hush();
    ck_assert_int_eq(say_predict("carol", carol, "2 Conan decision"), -1);
    HAS("carol|private|A duel bout ends by ko or yield: \"decision\" is none of them.\n");
    ck_assert_int_eq(say_predict("carol", carol, "2 Conan yield"), 0);
    HAS("carol|private|Prediction stored for bout #2: Conan by yield.");
    ck_assert_int_eq(say_predict("dave", dave, "2 Hector ko round 3"), 0);
    ck_assert_int_eq(say_predict("erin", erin, "2 Conan ko"), 0);
    ck_assert_int_eq(say_predict("frank", frank, "2 draw"), 0);
    for (int i = 0; i < 200 && game_live(game); i++) {
        clock_now += 5;
        game_tick(game, NULL);
    }
    struct db_bout rec;
    ck_assert_int_eq(db_bout_get(db, 2, &rec), DB_OK);
    ck_assert_int_eq(rec.state, DB_BOUT_OVER);
    /* Conan wins by KO in round 6 (the seeds are the fixture's). */
    HAS("#ring|chatter|Called it: carol (winner), erin (winner, KO).\n");
    static const struct {
        int64_t *who;
        int side;
        const char *method;
        int round;
    } calls[] = {
        {&carol, 0, "yield", 0}, {&dave, 1, "ko", 3}, {&erin, 0, "ko", 0}, {&frank, -1, "", 0}};
    for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
        struct db_prediction p;
        ck_assert_int_eq(db_predict_get(db, 2, *calls[i].who, &p), DB_OK);
        ck_assert_int_eq(p.hits, hits_of(calls[i].side, calls[i].method, calls[i].round, &rec));
    }
}
END_TEST

/* Duel #2's rounds fought until `round` (1 s at a time, the fake clock). */
static void duel_until(int round)
{
    struct db_bout rec;

    for (int i = 0; i < 400; i++) {
        ck_assert_int_eq(db_bout_get(db, 2, &rec), DB_OK);
        if (rec.round >= round)
            break;
        clock_now += 1;
        game_tick(game, NULL);
    }
    ck_assert_int_eq(rec.round, round);
    ck_assert_int_eq(rec.state, DB_BOUT_LIVE);
}

/* A duel's rounds come every 4 seconds: its predictions stay open for at
 * least 20 seconds of them (round 5 at 4 s a round, where [predict]
 * closes_after alone would close them after round 1, 4 s in), and its
 * start line says so; a boxing bout's start says round 1. */
START_TEST(test_duel_window)
{
    int64_t hal = player("hal", "Conan", &conan), ivy = player("ivy", "Hector", &hector);
    struct game_caller ch = caller("hal", hal, 1), ci = caller("ivy", ivy, 1);

    ck_assert_int_eq(game_challenge(game, &ch, ivy, "ivy", RULES_DUEL, 0, NULL, NULL), 0);
    hush();
    ck_assert_int_eq(game_answer(game, &ci, GAME_ACCEPT, "hal", hal), 0);
    HAS("#ring|chatter|Bout #2 is on: the duel fights itself, a round every 4 seconds. "
        "Predictions open for 20 seconds (until round 5 is fought): !predict 2 <fighter>.\n");
    game_tick(game, NULL);
    duel_until(1);
    ck_assert_int_eq(say_predict("carol", carol, "2 Conan"), 0);
    duel_until(4);
    hush();
    ck_assert_int_eq(say_predict("dave", dave, "2 Hector ko round 6"), 0);
    HAS("dave|private|Prediction stored for bout #2: Hector by KO in round 6. You may change it "
        "until the end of round 5; nobody sees it before then.\n");
    duel_until(5);
    hush();
    ck_assert_int_eq(say_predict("erin", erin, "2 Conan"), -1);
    HAS("erin|private|Predictions on bout #2 closed at the end of round 5.\n");
    /* The boxing bout #1 closes after round 1, as configured. */
    accept();
    HAS("#ring|chatter|Bout #1 is on. Predictions open until round 1 is fought: !predict 1 "
        "<fighter>.\n");
}
END_TEST

Suite *predict_suite(void)
{
    Suite *s = suite_create("predict");
    TCase *tc = tcase_create("predict");

    tcase_add_checked_fixture(tc, setup, fixture_teardown);
    tcase_set_timeout(tc, 120); /* the fault sweep fights a bout a step, under ASan too */
    tcase_add_test(tc, test_taking_and_changing);
    tcase_add_test(tc, test_refusals_change_nothing);
    tcase_add_test(tc, test_closing_count_and_scoring);
    tcase_add_test(tc, test_restart_scores_once);
    tcase_add_test(tc, test_failed_write_scores_with_the_result);
    tcase_add_test(tc, test_duel);
    tcase_add_test(tc, test_duel_window);
    suite_add_tcase(s, tc);
    return s;
}
