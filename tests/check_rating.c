/* check_rating.c - the Glicko-2 ratings (game/rating.c, db/rating.c):
 * the arithmetic against the worked example of Glickman's paper, and,
 * through the game alone (the fake I/O of game_fixture.h), what a live
 * bout's end says and stores, the setting that leaves exhibitions out,
 * a crash before the end was delivered, a league turn's bouts, and the
 * replies of `fighter`, `ratings` and `help rating`, word for word. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "tests.h"

#include "game_fixture.h"

static const struct sheet rocky = {.rules = RULES_BOXING, .u.boxing = {14, 12, 11, 12, 11}};
static const struct sheet apollo = {.rules = RULES_BOXING, .u.boxing = {13, 14, 12, 11, 10}};

/* `x` is `want` to four decimals. */
#define NEAR4(x, want)                                                                             \
    ck_assert_msg(fabs((x) - (want)) < 0.00005, "%s = %.6f, not %.4f", #x, (double)(x),            \
                  (double)(want))

/* ----------------------------------------------------------- the paper */

/* Glickman, "Example of the Glicko-2 system": a player at 1500 (RD 200,
 * volatility 0.06) beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a
 * 1700 (RD 300) in one rating period, tau 0.5. The paper, rounding every
 * step to four places, gives 1464.06, 151.52 and 0.05999; without rounding
 * the steps (v = 1.77898, delta = -0.48393) they are 1464.05067,
 * 151.51652 and 0.0599960. */
START_TEST(test_glickman_example)
{
    struct rating p = {1500, 200, 0.06};
    const struct rating opp[3] = {{1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}};
    const double score[3] = {1, 0, 0};

    rating_update(&p, opp, score, 3, 0.5);
    NEAR4(p.r, 1464.0507);
    NEAR4(p.rd, 151.5165);
    NEAR4(p.vol, 0.0600);
    ck_assert_msg(fabs(p.vol - 0.0599960) < 0.0000005, "volatility %.8f", p.vol);
    /* The paper's own figures, to its two decimals (its steps rounded). */
    ck_assert(fabs(p.r - 1464.06) < 0.01);
    ck_assert(fabs(p.rd - 151.52) < 0.01);
    ck_assert_int_eq((int)floor(p.vol * 100000), 5999);
    /* No game in a period: only the deviation grows, by the volatility. */
    struct rating idle = {1500, 200, 0.06};
    rating_update(&idle, NULL, NULL, 0, 0.5);
    ck_assert(idle.r == 1500 && idle.vol == 0.06);
    NEAR4(idle.rd, sqrt(200.0 * 200.0 + pow(0.06 * 173.7178, 2)));
}
END_TEST

/* Two newcomers, one game: the winner 1662.3109 +- 290.3190, the loser
 * 1337.6891; a draw leaves both at 1500, the deviation narrowed alike. */
START_TEST(test_newcomers)
{
    struct rating w = {1500, 350, 0.06}, l = w, d = w;
    const struct rating n = {1500, 350, 0.06};
    double one = 1, zero = 0, half = 0.5;

    rating_update(&w, &n, &one, 1, RATING_TAU);
    rating_update(&l, &n, &zero, 1, RATING_TAU);
    rating_update(&d, &n, &half, 1, RATING_TAU);
    NEAR4(w.r, 1662.3109);
    NEAR4(w.rd, 290.3190);
    NEAR4(l.r, 1337.6891);
    NEAR4(l.rd, 290.3190);
    NEAR4(d.r, 1500.0);
    NEAR4(d.rd, 290.3190);
}
END_TEST

/* ------------------------------------------------------ through the game */

/* alice (Rocky) challenges bob (Apollo) in #ring and bob accepts: bout 1
 * is live. */
static void live_bout(int64_t *a, int64_t *b)
{
    *a = player("alice", "Rocky", &rocky);
    *b = player("bob", "Apollo", &apollo);
    struct game_caller ca = caller("alice", *a, 1), cb = caller("bob", *b, 1);
    ck_assert_int_eq(game_challenge(game, &ca, *b, "bob", RULES_BOXING, 0, NULL, NULL), 0);
    ck_assert_int_eq(game_answer(game, &cb, GAME_ACCEPT, NULL, 0), 0);
    ck_assert_int_eq(game_live(game), 1);
    game_tick(game, NULL);
}

static struct db_fighter fighter(const char *key)
{
    struct db_fighter f;

    ck_assert_int_eq(db_fighter_get(db, key, &f), DB_OK);
    return f;
}

/* The end of a live bout says both changes in one line, the winner first,
 * stored with the result; `fighter` and `ratings` show them. */
START_TEST(test_live_bout_end)
{
    int64_t a, b;

    live_bout(&a, &b);
    struct game_caller pa = caller("alice", a, 0), anyone = caller("carol", 0, 1);
    hush();
    ck_assert_int_eq(game_forfeit(game, &pa, 1), 0);
    HAS("#ring|chatter|Ratings: Apollo 1662 (+162), Rocky 1338 (-162)\n");
    struct db_rating r;
    struct db_fighter ap = fighter("apollo"), ro = fighter("rocky");
    ck_assert_int_eq(db_rating_get(db, ap.id, RULES_BOXING, &r), DB_OK);
    NEAR4(r.rating, 1662.3109);
    NEAR4(r.rd, 290.3190);
    ck_assert_int_eq(r.bouts, 1);
    struct db_rating_point p[2];
    int n = 0;
    ck_assert_int_eq(db_rating_of_bout(db, 1, p, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert(p[0].fighter == ro.id && p[0].before == 1500);
    NEAR4(p[0].rating, 1337.6891);
    ck_assert_int_eq(db_rating_history(db, ro.id, p, 2, &n), DB_OK);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(p[0].bout, 1);

    hush();
    ck_assert_int_eq(game_fighter_show(game, &anyone, &ap), 0);
    HAS("carol|answer|Apollo (boxing, bob): STR 13 SPD 14 AGL 12 TGH 11 HGT 10; record 1-0-0, "
        "0 by KO, 1 by forfeit; rating 1662 \xc2\xb1 290\n");
    hush();
    ck_assert_int_eq(game_ratings(game, &anyone, RULES_BOXING), 0);
    ck_assert_str_eq(said.p, "carol|answer|Ratings (boxing): 1. Apollo 1662 \xc2\xb1 290; 2. Rocky "
                             "1338 \xc2\xb1 290\n");
    hush();
    ck_assert_int_eq(game_ratings(game, &anyone, RULES_SUGARRAY), 0);
    ck_assert_str_eq(said.p, "carol|answer|no sugarray fighter has a rating yet: a rating comes "
                             "with a fighter's first bout (!challenge <nick> rules=sugarray, or a "
                             "league turn)\n");
    hush();
    game_rating_help(game, &anyone);
    ck_assert_str_eq(said.p,
                     "carol|answer|Every bout that counts (league and title bouts, exhibitions) "
                     "moves both fighters' ratings (newcomers 1500 \xc2\xb1 350): a win more "
                     "against a higher rating, a loss more against a lower one, and more while "
                     "the \xc2\xb1 (how sure it is) is wide; each bout narrows it.\n");
}
END_TEST

/* A second bout: each is rated against the other as he was before it. */
START_TEST(test_second_bout_and_newcomer_text)
{
    int64_t a, b;
    struct game_caller anyone = caller("carol", 0, 1);

    live_bout(&a, &b);
    struct db_fighter ro = fighter("rocky");
    hush();
    ck_assert_int_eq(game_fighter_show(game, &anyone, &ro), 0);
    HAS("; rating 1500 \xc2\xb1 350\n");
    struct game_caller pa = caller("alice", a, 0), pb = caller("bob", b, 0);
    ck_assert_int_eq(game_forfeit(game, &pb, 1), 0); /* Rocky wins */
    struct game_caller ca = caller("alice", a, 1), cb = caller("bob", b, 1);
    ck_assert_int_eq(game_challenge(game, &ca, b, "bob", RULES_BOXING, 0, NULL, NULL), 0);
    ck_assert_int_eq(game_answer(game, &cb, GAME_ACCEPT, NULL, 0), 0);
    game_tick(game, NULL);
    hush();
    ck_assert_int_eq(game_forfeit(game, &pa, 2), 0); /* Apollo wins */
    struct rating r1 = {1662.3108939062977, 290.31896371798047, 0.05999967537233814};
    struct rating r2 = {1337.6891060937023, 290.31896371798047, 0.05999967537233814};
    struct rating was1 = r1, was2 = r2;
    double zero = 0, one = 1;
    rating_update(&r1, &was2, &zero, 1, RATING_TAU);
    rating_update(&r2, &was1, &one, 1, RATING_TAU);
    char want[160];
    snprintf(want, sizeof(want), "#ring|chatter|Ratings: Apollo %ld (%+ld), Rocky %ld (%+ld)\n",
             lround(r2.r), lround(r2.r) - 1338, lround(r1.r), lround(r1.r) - 1662);
    HAS(want);
    struct db_rating got;
    ck_assert_int_eq(db_rating_get(db, ro.id, RULES_BOXING, &got), DB_OK);
    NEAR4(got.rating, r1.r);
    NEAR4(got.rd, r1.rd);
    ck_assert_int_eq(got.bouts, 2);
}
END_TEST

/* Two bouts in one channel: the ratings are a tagged message of their own
 * after the result's, which stays as it was. A draw-free SUGAR RAY
 * forfeit. */
START_TEST(test_shared_channel)
{
    static const struct sheet ray = {.rules = RULES_SUGARRAY, .u.sugarray = {10, 20}};
    int64_t a = player("alice", "Murphy", &ray), b = player("bob", "Miller", &ray);
    int64_t c = player("carol", "Duran", &ray), d = player("dave", "Hearns", &ray);
    struct game_caller ca = caller("alice", a, 1), cb = caller("bob", b, 1);
    struct game_caller cc = caller("carol", c, 1), cd = caller("dave", d, 1);
    ck_assert_int_eq(game_challenge(game, &ca, b, "bob", RULES_SUGARRAY, 0, NULL, NULL), 0);
    ck_assert_int_eq(game_answer(game, &cb, GAME_ACCEPT, NULL, 0), 0);
    ck_assert_int_eq(game_challenge(game, &cc, d, "dave", RULES_SUGARRAY, 0, NULL, NULL), 0);
    ck_assert_int_eq(game_answer(game, &cd, GAME_ACCEPT, NULL, 0), 0);
    ck_assert_int_eq(game_live(game), 2);
    hush();
    struct game_caller pb = caller("bob", b, 0);
    ck_assert_int_eq(game_forfeit(game, &pb, 1), 0);
    HAS("Records now: Murphy 1-0-0 (1 forfeit), Miller 0-1-0.\n"
        "#ring|chatter|[#1] Ratings: Murphy 1662 (+162), Miller 1338 (-162)\n");
    struct game_caller anyone = caller("erin", 0, 0);
    hush();
    ck_assert_int_eq(game_ratings(game, &anyone, RULES_SUGARRAY), 0);
    ck_assert_str_eq(said.p, "erin|answer|Ratings (sugarray): 1. Murphy 1662 \xc2\xb1 290; 2. "
                             "Miller 1338 \xc2\xb1 290\n");
}
END_TEST

/* [rating] exhibitions = no: a live bout moves no rating and says none. */
START_TEST(test_exhibitions_off)
{
    int64_t a, b;
    struct game_config off = cfg;

    off.rating_skip_exhibitions = 1;
    game_set_config(game, &off);
    live_bout(&a, &b);
    struct game_caller pa = caller("alice", a, 0), anyone = caller("carol", 0, 1);
    hush();
    ck_assert_int_eq(game_forfeit(game, &pa, 1), 0);
    HAS("Records now: ");
    ck_assert_ptr_null(strstr(said.p, "Ratings:"));
    struct db_rating r;
    ck_assert_int_eq(db_rating_get(db, fighter("apollo").id, RULES_BOXING, &r), DB_NOTFOUND);
    hush();
    game_rating_help(game, &anyone);
    HAS("(league and title bouts; exhibitions do not here)");
}
END_TEST

/* The end stored but not delivered when the bot stops: said again after
 * the restart with the ratings line, and the ratings moved once. */
START_TEST(test_end_said_again)
{
    int64_t a, b;

    live_bout(&a, &b);
    struct game_caller pa = caller("alice", a, 0);
    pending_lines = 3;
    ck_assert_int_eq(game_forfeit(game, &pa, 1), 0);
    game_tick(game, NULL);
    game_free(game);
    hush();
    pending_lines = 0;
    start_game();
    game_connected(game);
    HAS("#ring|chatter|Bout #1: what I had not said yet when I stopped:");
    HAS("#ring|chatter|Ratings: Apollo 1662 (+162), Rocky 1338 (-162)\n");
    struct db_rating r;
    ck_assert_int_eq(db_rating_get(db, fighter("rocky").id, RULES_BOXING, &r), DB_OK);
    ck_assert_int_eq(r.bouts, 1);
}
END_TEST

/* A league turn: every bout moves its fighters' ratings in order, each a
 * period of one game, as an independent replay of the bouts gives them. */
START_TEST(test_league_turn)
{
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], err[256];
    struct sheet s = {.rules = RULES_BOXING};
    int64_t ids[9];
    int n = 0;

    for (int i = 0; i < 9; i++) {
        char name[16], fname[16];
        snprintf(name, sizeof(name), "p%d", i);
        snprintf(fname, sizeof(fname), "Boxer%d", i);
        s.u.boxing = (struct boxing_sheet){10 + i % 5, 12, 14 - i % 5, 12, 12};
        player(name, fname, &s);
        snprintf(fname, sizeof(fname), "boxer%d", i);
        ids[i] = fighter(fname).id;
    }
    ck_assert_msg(league_turn(game, RULES_BOXING, 5, "#ring", lines, &n, err, sizeof(err)) == 0,
                  "%s", err);
    struct db_bout list[16];
    int m = 0;
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_OVER, list, 16, &m), DB_OK);
    ck_assert_int_eq(m, 9);
    struct rating now[9];
    for (int i = 0; i < 9; i++)
        now[i] = (struct rating){RATING_START, RATING_RD_START, RATING_VOL_START};
    for (int k = 0; k < m; k++) { /* by id: the order they were fought */
        int x[2] = {0, 0};
        for (int sd = 0; sd < 2; sd++)
            for (int i = 0; i < 9; i++)
                if (ids[i] == list[k].fighter[sd])
                    x[sd] = i;
        struct rating was[2] = {now[x[0]], now[x[1]]};
        for (int sd = 0; sd < 2; sd++) {
            double sc = list[k].winner < 0 ? 0.5 : list[k].winner == sd ? 1 : 0;
            rating_update(&now[x[sd]], &was[!sd], &sc, 1, RATING_TAU);
        }
    }
    for (int i = 0; i < 9; i++) {
        struct db_rating r;
        ck_assert_int_eq(db_rating_get(db, ids[i], RULES_BOXING, &r), DB_OK);
        NEAR4(r.rating, now[i].r);
        NEAR4(r.rd, now[i].rd);
        NEAR4(r.vol, now[i].vol);
        ck_assert_int_eq(r.bouts, 2);
    }
    /* The top of the list is the highest rating. */
    struct db_rating_row top[3];
    int total = 0;
    ck_assert_int_eq(db_rating_top(db, RULES_BOXING, 0, top, 3, &n, &total), DB_OK);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(total, 9);
    ck_assert(top[0].rating >= top[1].rating && top[1].rating >= top[2].rating);
    hush();
    struct game_caller anyone = caller("carol", 0, 1);
    ck_assert_int_eq(game_ratings(game, &anyone, RULES_BOXING), 0);
    HAS("carol|answer|Ratings (boxing): 1. ");
    HAS("; 9. Boxer");
    ck_assert_ptr_null(strstr(said.p, "..."));
}
END_TEST

/* A league turn's storage (db/rating.c): every rating of a ruleset by
 * fighter (db_rating_each), a bout's two rows of history in one call, a
 * rating written as it is with its bouts (db_rating_set), which refuses
 * one without a bout and changes nothing then. */
static void each_keep(void *ctx, int64_t fighter, const struct db_rating *r)
{
    struct str *t = ctx;
    str_add(t, "%lld:%.0f:%d;", (long long)fighter, r->rating, r->bouts);
}

START_TEST(test_turn_storage)
{
    int64_t id[3];
    struct str t;
    char buf[128];

    for (int i = 0; i < 3; i++) {
        char name[16], fname[16];
        snprintf(name, sizeof(name), "q%d", i);
        snprintf(fname, sizeof(fname), "Q%d", i);
        player(name, fname, i == 1 ? &apollo : &rocky);
        snprintf(fname, sizeof(fname), "q%d", i);
        id[i] = fighter(fname).id;
    }
    struct db_rating r2 = {1600, 300, 0.06, 2}, r0 = {1400, 250, 0.06, 1};
    ck_assert_int_eq(db_rating_set(db, id[2], RULES_BOXING, &r2, 100), DB_OK);
    ck_assert_int_eq(db_rating_set(db, id[0], RULES_BOXING, &r0, 100), DB_OK);
    r0.rating = 1450;
    r0.bouts = 3; /* written as it is, not counted up */
    ck_assert_int_eq(db_rating_set(db, id[0], RULES_BOXING, &r0, 101), DB_OK);
    struct db_rating bad = {1500, 350, 0.06, 0};
    ck_assert_int_eq(db_rating_set(db, id[1], RULES_BOXING, &bad, 101), DB_ERROR);
    snprintf(buf, sizeof(buf), "fighter %lld: a stored rating has a bout, not 0", (long long)id[1]);
    ck_assert_str_eq(db_errmsg(db), buf);
    ck_assert_int_eq(db_rating_get(db, id[1], RULES_BOXING, &bad), DB_NOTFOUND);

    str_init_fixed(&t, buf, sizeof(buf));
    ck_assert_int_eq(db_rating_each(db, RULES_BOXING, each_keep, &t), DB_OK);
    snprintf(buf + 64, 64, "%lld:1450:3;%lld:1600:2;", (long long)id[0], (long long)id[2]);
    ck_assert_str_eq(t.p, buf + 64);
    str_clear(&t);
    ck_assert_int_eq(db_rating_each(db, RULES_SUGARRAY, each_keep, &t), DB_OK);
    ck_assert_str_eq(t.p, "");

    struct db_bout b = {.rules = RULES_BOXING,
                        .rounds = 1,
                        .fighter = {id[0], id[2]},
                        .sheet = {rocky, rocky},
                        .created = 100};
    snprintf(b.channel, sizeof(b.channel), "#ring");
    ck_assert_int_eq(db_bout_create(db, &b), DB_OK);
    struct db_rating now[2] = {{1460, 240, 0.06, 4}, {1590, 290, 0.06, 3}};
    const int64_t who[2] = {id[0], id[2]};
    const double before[2] = {1450, 1600};
    ck_assert_int_eq(db_rating_history_put(db, b.id, who, now, before, 102), DB_OK);
    struct db_rating_point p[2];
    int n = 0;
    ck_assert_int_eq(db_rating_of_bout(db, b.id, p, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    for (int sd = 0; sd < 2; sd++) {
        ck_assert_int_eq(p[sd].side, sd);
        ck_assert_int_eq(p[sd].fighter, who[sd]);
        ck_assert(p[sd].before == before[sd] && p[sd].rating == now[sd].rating &&
                  p[sd].rd == now[sd].rd);
    }
}
END_TEST

/* Two turns: the second reads the ratings the first stored, and each
 * fighter's row counts his four bouts. */
START_TEST(test_league_two_turns)
{
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], err[256];
    struct sheet s = {.rules = RULES_BOXING};
    int64_t ids[6];
    int n = 0;

    for (int i = 0; i < 6; i++) {
        char name[16], fname[16];
        snprintf(name, sizeof(name), "p%d", i);
        snprintf(fname, sizeof(fname), "Boxer%d", i);
        s.u.boxing = (struct boxing_sheet){10 + i % 5, 12, 14 - i % 5, 12, 12};
        player(name, fname, &s);
        snprintf(fname, sizeof(fname), "boxer%d", i);
        ids[i] = fighter(fname).id;
    }
    for (int k = 0; k < 2; k++)
        ck_assert_msg(league_turn(game, RULES_BOXING, 5 + (uint64_t)k, "#ring", lines, &n, err,
                                  sizeof(err)) == 0,
                      "%s", err);
    for (int i = 0; i < 6; i++) {
        struct db_rating r;
        struct db_rating_point h[8];
        ck_assert_int_eq(db_rating_get(db, ids[i], RULES_BOXING, &r), DB_OK);
        ck_assert_int_eq(db_rating_history(db, ids[i], h, 8, &n), DB_OK);
        ck_assert_int_gt(n, 0);
        ck_assert_int_eq(r.bouts, n);                          /* a title bout counts too */
        ck_assert(h[0].rating == r.rating && h[0].rd == r.rd); /* the latest is the rating */
        for (int k = 0; k + 1 < n; k++)
            ck_assert(h[k].before == h[k + 1].rating); /* each from the one before */
        ck_assert(h[n - 1].before == RATING_START);
    }
}
END_TEST

Suite *rating_suite(void)
{
    Suite *s = suite_create("ratings");
    TCase *tc = tcase_create("glicko2");

    tcase_add_test(tc, test_glickman_example);
    tcase_add_test(tc, test_newcomers);
    suite_add_tcase(s, tc);

    tc = tcase_create("game");
    tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_live_bout_end);
    tcase_add_test(tc, test_second_bout_and_newcomer_text);
    tcase_add_test(tc, test_shared_channel);
    tcase_add_test(tc, test_exhibitions_off);
    tcase_add_test(tc, test_end_said_again);
    tcase_add_test(tc, test_league_turn);
    tcase_add_test(tc, test_turn_storage);
    tcase_add_test(tc, test_league_two_turns);
    suite_add_tcase(s, tc);
    return s;
}
