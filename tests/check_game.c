/* check_game.c - the game alone, without the bot or IRC: its io is a fake
 * clock and a list of the lines it said, its callers answer into the same
 * list. Whole bouts (orders, deadlines, forfeits), a "crash" and restart
 * with commentary not yet delivered, reports and commentary derived from
 * the database matching what was said word for word, and league turns; and
 * a database written by the Ringside before reports were derived (schema
 * 3), migrated, replayed word for word, its live bout carried on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "game_internal.h"
#include "tests.h"

#include "game_fixture.h"

static const struct sheet rocky = {.rules = RULES_BOXING, .u.boxing = {14, 12, 11, 12, 11}};
static const struct sheet apollo = {.rules = RULES_BOXING, .u.boxing = {13, 14, 12, 11, 10}};

/* The lines said to `target` with `voice`, joined by '\n', into out. */
static void lines_of(const char *target, const char *voice, char *out, size_t len)
{
    char pat[96];
    size_t at = 0;

    out[0] = '\0';
    snprintf(pat, sizeof(pat), "%s|%s|", target, voice);
    for (const char *p = said.p; *p;) {
        const char *nl = strchr(p, '\n');
        if (strncmp(p, pat, strlen(pat)) == 0)
            at += (size_t)snprintf(out + at, len - at, "%s%.*s", at ? "\n" : "",
                                   (int)(nl - p - strlen(pat)), p + strlen(pat));
        p = nl + 1;
    }
}

/* alice challenges bob in #ring and bob accepts: bout 1 is live. */
static void live_bout(int64_t *a, int64_t *b)
{
    *a = player("alice", "Rocky", &rocky);
    *b = player("bob", "Apollo", &apollo);
    struct game_caller ca = caller("alice", *a, 1), cb = caller("bob", *b, 1);
    ck_assert_int_eq(game_challenge(game, &ca, *b, "bob", RULES_BOXING, 0, NULL, NULL), 0);
    /* The tale of the tape goes with the challenge. */
    HAS("#ring|chatter|alice challenges bob to bout #1, boxing, 3 rounds: Rocky (alice) STR 14 "
        "SPD 12 AGL 11 TGH 12 HGT 11, 0-0-0 vs Apollo (bob) STR 13 SPD 14 AGL 12 TGH 11 HGT 10, "
        "0-0-0. bob: say !accept or !decline within 5 minutes. bob has not identified with "
        "me: I will tell him in private when he does.\n"); /* no io.nick_of */
    ck_assert_int_eq(game_answer(game, &cb, GAME_ACCEPT, NULL, 0), 0);
    /* Neither is heard in the channel (no io.hears): asked privately. */
    HAS("#ring|chatter|Bout #1 is on. Predictions open until round 1 is fought: !predict 1 "
        "<fighter>.\n");
    HAS("alice|live|Bout #1, round 1 of 3: your orders for Rocky");
    ck_assert_int_eq(game_live(game), 1);
    game_tick(game, NULL); /* the prompts went out: the clock runs */
}

static int replay_ok(int64_t id)
{
    FILE *f = tmpfile();
    int rc = bout_replay(db, id, f);

    fclose(f);
    return rc == 0;
}

START_TEST(test_whole_bout_through_the_game)
{
    int64_t a, b;
    char chatter[8192], derived_err[256];

    live_bout(&a, &b);
    hush();
    struct game_caller pa = caller("alice", a, 0), pb = caller("bob", b, 0);
    for (int r = 1; r <= 3; r++) {
        ck_assert_int_eq(game_order(game, &pa, NULL, "5/5/10 (ring)"), 0);
        ck_assert_int_eq(game_order(game, &pb, NULL, "4H/6/10"), 0);
    }
    /* The first orders of a round are acknowledged at once, as a line
     * about the round (the output drops it if the round is fought before
     * it leaves, and the next prompt says it then); the orders that
     * complete a round with the next prompt, or alone after the last. */
    HAS("alice|live|round 1 orders stored for Rocky: 5/5/10 (ring) (you may change them until the "
        "round is fought)");
    ck_assert_ptr_null(strstr(said.p, "your round 1 orders for Rocky"));
    HAS("bob|live|Bout #1, round 2 of 3: your orders for Apollo (e.g. 5H/8!/7 (inside)) within 1 "
        "minute;"
        " your round 1 orders for Apollo (4H/6/10) are in and fought");
    HAS("bob|live|Bout #1: your round 3 orders for Apollo (4H/6/10) are in and fought.");
    /* Not in the channel (no io.hears): the end privately, the winner's
     * training points with it, although the channel heard them too. */
    HAS("alice|live|Bout #1 is over, and you won: Rocky wins a unanimous decision (30-27, 30-27, "
        "30-27). Rocky is now 1-0-0 and earned 1 training point: spend it with train <ability> "
        "Rocky (<ability>: str, spd, agl, tgh or hgt).\n");
    ck_assert_int_eq(game_live(game), 0);
    struct db_bout rec;
    ck_assert_int_eq(db_bout_get(db, 1, &rec), DB_OK);
    ck_assert_int_eq(rec.state, DB_BOUT_OVER);
    ck_assert_int_eq(rec.round, 3);
    ck_assert_int_eq(rec.has_digest, 1);
    ck_assert(replay_ok(1));

    /* What the channel heard is exactly what the database rebuilds, the
     * end (records) included when it is said again; but for the training
     * points the winner earned, told on the records' line as it is said
     * live (the fighter's own news: fighter and train tell it after). */
    lines_of("#ring", "chatter", chatter, sizeof(chatter));
    const char *news = " Rocky earned 1 training point (!train <ability> Rocky).";
    char *at = strstr(chatter, news);
    ck_assert_msg(at != NULL, "%s", chatter);
    memmove(at, at + strlen(news), strlen(at + strlen(news)) + 1);
    char *derived = bout_commentary_again(db, 1, 1, 0, derived_err, sizeof(derived_err));
    ck_assert_msg(derived != NULL, "%s", derived_err);
    ck_assert_str_eq(derived, chatter);
    free(derived);

    /* The report is derived too, and sent in private. */
    hush();
    struct game_caller spectator = caller("eve", 0, 1);
    ck_assert_int_eq(game_report(game, &spectator, 1, "2"), 0);
    /* Asked in the channel: one line there, the report in private. */
    HAS("eve|answer|bout #1, Rocky vs Apollo (boxing): Rocky wins a unanimous decision (30-27, "
        "30-27, 30-27). The report of round 2 is sent to you in private.");
    HAS("eve|private|Report of bout #1, round 2:");
    /* A round in as few messages as fit 350 bytes: its lines, " | "
     * between them, each message ending where a line or a sentence
     * does. */
    HAS("eve|bulk|Round 2 of 3 | Rocky: 5/5/10 (ring); STR ");
    HAS("Cards (Rocky-Apollo) ");
    lines_of("eve", "bulk", chatter, sizeof(chatter));
    ck_assert_uint_gt(strlen(chatter), 400);
    for (const char *p = chatter; *p;) {
        size_t n = strcspn(p, "\n");
        ck_assert_uint_le(n, 350);
        p += n + (p[n] == '\n');
    }
    /* With the web pages' address set, the report names its page. */
    struct game_config linked = cfg;
    snprintf(linked.base_url, sizeof(linked.base_url), "https://ring.example.org");
    game_set_config(game, &linked);
    ck_assert_int_eq(game_report(game, &spectator, 1, NULL), 0);
    HAS("eve|answer|bout #1, Rocky vs Apollo (boxing): Rocky wins a unanimous decision (30-27, "
        "30-27, 30-27). Its page: https://ring.example.org/bouts/1; the report of rounds 1 to 3 "
        "is sent to you in private.");
    HAS("eve|private|Report of bout #1, rounds 1 to 3 (its page: "
        "https://ring.example.org/bouts/1):");
    game_set_config(game, &cfg);
    ck_assert_int_eq(game_report(game, &spectator, 1, "4"), -1);
    HAS("eve|answer|bout #1 had rounds 1 to 3"); /* over: not "so far" */
    ck_assert_int_eq(game_report(game, &spectator, 99, NULL), -1);
    HAS("eve|answer|there is no bout #99");
}
END_TEST

/* A live bout's end adds its result to the records as they stand then:
 * a league turn fought both fighters (and moved their leagues and season
 * records) while bout #1 ran, and Rocky trained meanwhile; none of it is
 * lost when #1 ends, and the channel's "Records now:" says the sum. */
START_TEST(test_live_end_keeps_records_made_meanwhile)
{
    int64_t a, b, id[SIDES];
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], err[256], want[256];
    int n = 0, m = 0;
    struct db_fighter one[1], was[SIDES], now[SIDES];

    live_bout(&a, &b);
    player("carl", "Mickey", &rocky);
    ck_assert_int_eq(db_fighter_list(db, a, 0, one, 1, &m), DB_OK);
    id[0] = one[0].id;
    ck_assert_int_eq(db_fighter_list(db, b, 0, one, 1, &m), DB_OK);
    id[1] = one[0].id;
    ck_assert_msg(league_turn(game, RULES_BOXING, 5, "#ring", lines, &n, err, sizeof(err)) == 0,
                  "%s", err);
    ck_assert_int_eq(db_fighter_get_id(db, id[0], &was[0]), DB_OK);
    was[0].sheet.u.boxing.str++; /* trained meanwhile */
    ck_assert_int_eq(db_fighter_save(db, &was[0]), DB_OK);
    for (int s = 0; s < SIDES; s++) {
        ck_assert_int_eq(db_fighter_get_id(db, id[s], &was[s]), DB_OK);
        ck_assert_int_eq(was[s].wins + was[s].losses + was[s].draws, 2); /* the turn's bouts */
    }
    hush();
    struct game_caller pa = caller("alice", a, 0);
    ck_assert_int_eq(game_forfeit(game, &pa, 1), 0); /* Apollo wins #1 by forfeit */
    ck_assert_int_eq(game_live(game), 0);
    for (int s = 0; s < SIDES; s++)
        ck_assert_int_eq(db_fighter_get_id(db, id[s], &now[s]), DB_OK);
    ck_assert_int_eq(now[0].wins, was[0].wins);
    ck_assert_int_eq(now[0].losses, was[0].losses + 1);
    ck_assert_int_eq(now[0].season_losses, was[0].season_losses + 1);
    ck_assert_int_eq(now[1].wins, was[1].wins + 1);
    ck_assert_int_eq(now[1].season_wins, was[1].season_wins + 1);
    ck_assert_int_eq(now[1].forfeits, was[1].forfeits + 1);
    ck_assert_int_eq(now[1].training_points, was[1].training_points + 1);
    for (int s = 0; s < SIDES; s++) {
        ck_assert_int_eq(now[s].draws, was[s].draws);
        ck_assert_int_eq(now[s].kos, was[s].kos);
        ck_assert_int_eq(now[s].tkos, was[s].tkos);
        ck_assert_int_eq(now[s].league, was[s].league);
        ck_assert_int_eq(now[s].gold_record, was[s].gold_record);
        ck_assert_int_eq(now[s].season_draws, was[s].season_draws);
        ck_assert(memcmp(&now[s].sheet, &was[s].sheet, sizeof(now[s].sheet)) == 0);
    }
    ck_assert_int_eq(now[0].training_points, was[0].training_points);
    snprintf(want, sizeof(want), "Records now: Apollo %d-%d-%d", now[1].wins, now[1].losses,
             now[1].draws);
    HAS(want);
    snprintf(want, sizeof(want), ", Rocky %d-%d-%d", now[0].wins, now[0].losses, now[0].draws);
    HAS(want);
    HAS("Rocky is now"); /* his private end, with the sum too */
    ck_assert(replay_ok(1));
}
END_TEST

/* The web pages' view of a bout: every round fought so far, with what
 * `report` says of it, the meter and the marks; never the orders of the
 * round to come. */
START_TEST(test_bout_view)
{
    int64_t a, b;
    char err[256];

    live_bout(&a, &b);
    struct game_caller pa = caller("alice", a, 0), pb = caller("bob", b, 0);
    ck_assert_int_eq(game_order(game, &pa, NULL, "4H/8!/8 (inside)"), 0);
    ck_assert_int_eq(game_order(game, &pb, NULL, "5/5/10 (ring)"), 0);
    ck_assert_int_eq(game_order(game, &pa, NULL, "9H/1/10 (cut)"), 0); /* round 2, waiting */
    struct bout_view *v = bout_view(db, 1, err, sizeof(err));
    ck_assert_msg(v != NULL, "%s", err);
    ck_assert_int_eq(v->nrounds, 1);
    ck_assert_int_eq(v->over, 0);
    ck_assert_str_eq(v->result, "");
    ck_assert_str_eq(v->meter_name, "endurance");
    ck_assert_double_eq(v->meter_start[0], 120); /* 10 x TGH 12 */
    ck_assert_double_eq(v->meter_start[1], 110);
    ck_assert(v->round[0].meter[0] < v->meter_start[0]);
    ck_assert_int_eq(v->round[0].judged, 1);
    ck_assert_int_ge(v->round[0].nlines, 1);
    char *report = bout_report(db, 1, 1, 1, err, sizeof(err));
    ck_assert_ptr_nonnull(report);
    ck_assert_str_eq(v->round[0].report, report);
    free(report);
    ck_assert_ptr_null(strstr(v->round[0].report, "9H/1/10"));
    ck_assert_ptr_nonnull(strstr(v->round[0].report, "4H/8!/8 (inside)"));
    int warned = 0;
    for (int i = 0; i < v->round[0].nmarks; i++)
        warned |= v->round[0].marks[i].kind == VIEW_WARNING && v->round[0].marks[i].side == 0;
    ck_assert_int_eq(warned, strstr(v->round[0].report, "Rocky is warned") != NULL);
    bout_view_free(v);

    /* To the end: every round, and the result as said. */
    ck_assert_int_eq(game_order(game, &pb, NULL, "5/5/10 (ring)"), 0);
    ck_assert_int_eq(game_order(game, &pa, NULL, "5/5/10"), 0);
    ck_assert_int_eq(game_order(game, &pb, NULL, "5/5/10"), 0);
    v = bout_view(db, 1, err, sizeof(err));
    ck_assert_msg(v != NULL, "%s", err);
    ck_assert_int_eq(v->over, 1);
    ck_assert_int_eq(v->nrounds, v->rec.round);
    ck_assert_int_ge(v->nresult, 1);
    ck_assert_msg(strstr(v->result, " wins ") || strstr(v->result, "draw"), "%s", v->result);
    bout_view_free(v);
    ck_assert_ptr_null(bout_view(db, 99, err, sizeof(err)));
    ck_assert_str_eq(err, "there is no bout 99");
    bout_view_free(NULL);
}
END_TEST

START_TEST(test_deadline_reminder_and_fallback)
{
    int64_t a, b;
    struct db_order o[8];
    int n = 0;

    live_bout(&a, &b);
    struct game_caller pa = caller("alice", a, 0);
    ck_assert_int_eq(game_order(game, &pa, NULL, "6/6/8"), 0);
    hush();
    clock_now += 35; /* 25 s left: not yet (a third of 60 s) */
    game_tick(game, NULL);
    ck_assert_int_eq((int)said.len, 0);
    clock_now += 10; /* 15 s left: the reminder, to bob only */
    game_tick(game, NULL);
    HAS("bob|live|Bout #1: 15 seconds left for your round 1 orders");
    ck_assert_ptr_null(strstr(said.p, "alice|live|Bout #1: 15 seconds"));
    clock_now += 16; /* past the deadline: bob's default fights */
    game_tick(game, NULL);
    HAS("#ring|chatter|");
    ck_assert_int_eq(db_order_list(db, 1, o, 8, &n), DB_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(o[1].text, "5/5/10");
    ck_assert_int_eq(o[1].source, DB_ORDER_DEFAULT);
    /* Round 2 at its deadline: both fall back on their last orders. */
    clock_now += 61;
    game_tick(game, NULL);
    ck_assert_int_eq(db_order_list(db, 1, o, 8, &n), DB_OK);
    ck_assert_int_eq(n, 4);
    ck_assert_str_eq(o[2].text, "6/6/8");
    ck_assert_int_eq(o[2].source, DB_ORDER_LAST);
    ck_assert(replay_ok(1));
}
END_TEST

START_TEST(test_crash_with_commentary_not_delivered)
{
    int64_t a, b;
    char before[4096], after[4096];

    live_bout(&a, &b);
    struct game_caller pa = caller("alice", a, 0), pb = caller("bob", b, 0);
    ck_assert_int_eq(game_order(game, &pa, NULL, "5/5/10"), 0);
    ck_assert_int_eq(game_order(game, &pb, NULL, "4/6/10"), 0);
    ck_assert_int_eq(game_live(game), 1);
    /* Round 1 is stored and said, but the output still holds it. */
    lines_of("#ring", "chatter", before, sizeof(before));
    ck_assert_int_gt((int)strlen(before), 0);
    pending_lines = 3;
    game_tick(game, NULL);
    /* Round 2: alice's orders are stored, then everything in memory is
     * lost. */
    ck_assert_int_eq(game_order(game, &pa, NULL, "3/3/14 (clinch)"), 0);
    game_free(game);
    hush();
    pending_lines = 0;
    start_game();
    ck_assert_int_eq(game_live(game), 1);
    game_connected(game);
    HAS("#ring|chatter|Bout #1: what I had not said yet when I stopped:");
    HAS("#ring|chatter|Bout #1, Rocky vs Apollo, goes on: round 2 of 3 is next.");
    HAS("alice|live|Bout #1, round 2 of 3: your orders for Rocky (e.g. 5H/8!/7 (inside)) within "
        "1 minute; your orders for it are in already");
    /* What is said again is what was said, word for word. */
    lines_of("#ring", "chatter", after, sizeof(after));
    const char *again = strchr(after, '\n') + 1;
    const char *round1 = strstr(before, "Round 1"); /* after the tale of the tape */
    ck_assert_ptr_nonnull(round1);
    while (round1 > before && round1[-1] != '\n')
        round1--;
    ck_assert_int_eq(strncmp(again, round1, strlen(round1)), 0);
    /* The bout goes on from the stored orders: bob's completes round 2. */
    hush();
    ck_assert_int_eq(game_order(game, &pb, NULL, "5/5/10"), 0);
    HAS("#ring|chatter|");
    ck_assert(replay_ok(1));
    /* Delivered now: nothing is said again at the next connection. */
    game_tick(game, NULL);
    hush();
    game_connected(game);
    ck_assert_ptr_null(strstr(said.p, "what I had not said yet"));
}
END_TEST

START_TEST(test_forfeit_and_bad_orders)
{
    int64_t a, b;

    live_bout(&a, &b);
    struct game_caller pa = caller("alice", a, 0), eve = caller("eve", 0, 0);
    hush();
    ck_assert_int_eq(game_order(game, &pa, NULL, "9/9/9"), -1);
    HAS("alice|answer|not stored:");
    ck_assert_int_eq(game_order(game, &eve, "#1", "5/5/10"), -1);
    HAS("eve|answer|bout #1 is not yours");
    ck_assert_int_eq(game_forfeit(game, &pa, 1), 0);
    HAS("alice|private|you conceded bout #1");
    /* His own word, not his corner's: the round says he concedes, with no
     * towel and no corner, as the result line says "by forfeit". */
    HAS("#ring|chatter|Round 1 not scored, conceded by Rocky.\n");
    HAS("Apollo wins by forfeit in round 1 (Rocky conceded)!");
    ck_assert_ptr_null(strstr(said.p, "towel"));
    ck_assert_ptr_null(strstr(said.p, "corner"));
    struct db_bout rec;
    ck_assert_int_eq(db_bout_get(db, 1, &rec), DB_OK);
    ck_assert_int_eq(rec.state, DB_BOUT_OVER);
    ck_assert_int_eq(rec.winner, 1);
    ck_assert_int_eq(rec.reason, TKO_TOWEL);
    /* The pages' lists and the JSON read the stored bout: a forfeit too. */
    ck_assert_int_eq(record_bout_forfeit(db, &rec), 1);
    ck_assert_str_eq(render_win_how(rec.rules, rec.method, rec.reason, 1), "forfeit");
    ck_assert(replay_ok(1));
}
END_TEST

START_TEST(test_league_turn_through_the_game)
{
    static const char *const plans[] = {"5/5/10 (ring)", "6/6/8; 4) 4H/8/8 (inside)",
                                        "3/5/12 (clinch); if endurance_percent < 40 then 5/5/10"};
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], err[256];
    int n = 0;
    struct sheet s = {.rules = RULES_BOXING};

    for (int i = 0; i < 9; i++) {
        char name[16], fighter[16];
        snprintf(name, sizeof(name), "p%d", i);
        snprintf(fighter, sizeof(fighter), "Boxer%d", i);
        s.u.boxing = (struct boxing_sheet){10 + i % 5, 12, 14 - i % 5, 12, 12};
        int64_t id = player(name, fighter, &s);
        struct db_fighter list[1];
        int m = 0;
        ck_assert_int_eq(db_fighter_list(db, id, 0, list, 1, &m), DB_OK);
        ck_assert_int_eq(db_plan_set(db, list[0].id, plans[i % 3], 1), DB_OK);
    }
    hush();
    ck_assert_msg(league_turn(game, RULES_BOXING, 5, "#ring", lines, &n, err, sizeof(err)) == 0,
                  "%s", err);
    ck_assert_int_ge(n, 2);
    ck_assert_ptr_nonnull(strstr(lines[0], "League turn 1 (boxing): 9 bouts fought"));
    ck_assert_int_eq((int)said.len, 0); /* the caller says the summary */

    struct db_bout list[16];
    int m = 0;
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_OVER, list, 16, &m), DB_OK);
    ck_assert_int_eq(m, 9); /* BRONZE only: nobody in GOLD, no title bout */
    for (int i = 0; i < m; i++) {
        uint64_t digest;
        ck_assert_int_eq(list[i].kind, DB_BOUT_LEAGUE);
        ck_assert_int_eq(list[i].has_digest, 1);
        ck_assert_int_eq(db_round_digest(db, list[i].id, 1, &digest), DB_NOTFOUND);
        ck_assert(replay_ok(list[i].id));
        char *report = bout_report(db, list[i].id, 1, 0, err, sizeof(err));
        ck_assert_msg(report != NULL, "%s", err);
        ck_assert_ptr_nonnull(strstr(report, "Round 1 of 12"));
        free(report);
    }

    /* A tampered order no longer replays to the stored digest. */
    struct db_order o = {.round = 1, .side = 0, .source = DB_ORDER_PLAN, .line = 1};
    snprintf(o.text, sizeof(o.text), "8/8/4 (allout)");
    ck_assert_int_eq(db_order_put(db, list[0].id, &o), DB_OK);
    ck_assert(!replay_ok(list[0].id));

    /* The announcement and the standings, through the game. */
    hush();
    ck_assert_int_eq(league_turn_announce(game, RULES_BOXING, "#ring", "#ring"), 0);
    HAS("#ring|chatter|League turn 2 (boxing): ");
    struct db_fighter *st = league_standings(game, RULES_BOXING, LEAGUE_SILVER, &n);
    ck_assert_ptr_nonnull(st);
    for (int i = 1; i < n; i++)
        ck_assert_int_ge(st[i - 1].gold_record, st[i].gold_record);
    free(st);
}
END_TEST

/* Two duellists, one with worn equipment, fight a live duel that fights
 * itself: a round every auto_round_seconds (the fake clock), at most three
 * channel lines a round, each duellist's corner in private; the bot
 * "crashes" in the middle and the restarted game resumes at the round it
 * stopped; the duel replays to its digest; the wear is saved and the owner
 * told what broke. */
static const struct sheet conan = {
    .rules = RULES_DUEL,
    .u.duel = {18,
               14,
               14,
               10,
               {DUEL_LONGSWORD, DUEL_PLATE, DUEL_LEATHER, DUEL_CHAINMAIL, 0, 0, DUEL_LEATHER},
               {DUEL_COND_FULL, DUEL_COND_FULL, 20000, DUEL_COND_FULL, 0, 0, 30000}}};
static const struct sheet bob = {.rules = RULES_DUEL,
                                 .u.duel = {14,
                                            20,
                                            12,
                                            10,
                                            {DUEL_MACE, 0, DUEL_LEATHER, 0, 0, 0, DUEL_CHAINMAIL},
                                            {5000, 0, DUEL_COND_FULL, 0, 0, 0, DUEL_COND_FULL}}};

static int round_lines_max(int64_t id)
{
    (void)id;
    /* The channel lines between two "Round" lines. */
    int most = 0, n = -1;
    for (const char *p = said.p; *p;) {
        const char *nl = strchr(p, '\n');
        if (strncmp(p, "#ring|chatter|", 14) == 0) {
            const char *end = strstr(p, " wins by "), *rec = strstr(p, "Records now:");
            if (strstr(p, "Round ") == p + 14 || strstr(p, "\002Round ") == p + 14)
                n = 0;
            /* The result and the records follow the round's lines. */
            if ((end && end < nl) || (rec && rec < nl) || strncmp(p + 14, "Draw", 4) == 0 ||
                strstr(p + 14, "It's over") == p + 14 || strstr(p + 14, "That ends") == p + 14 ||
                strstr(p + 14, "The duel is") == p + 14 || strncmp(p + 14, "Bout #", 6) == 0)
                n = -1;
            if (n >= 0 && ++n > most)
                most = n;
        }
        p = nl + 1;
    }
    return most;
}

START_TEST(test_live_duel_fights_itself)
{
    struct game_config c = cfg;
    c.auto_round_seconds = 4;
    game_set_config(game, &c);
    int64_t a = player("alice", "Conan", &conan), b = player("bob", "Bob", &bob);
    struct game_caller ca = caller("alice", a, 1), cb = caller("bob", b, 1);
    ck_assert_int_eq(game_challenge(game, &ca, b, "bob", RULES_DUEL, 0, NULL, NULL), 0);
    HAS("#ring|chatter|alice challenges bob to bout #1, duel, 23 rounds: Conan (alice) STR 18 "
        "DEX 14 CON 14 INT 10; longsword 100.0%, plate helmet 100.0%, leather armour 2.0%, "
        "chainmail shirt 100.0%, leather shield 3.0%, 0-0-0 vs Bob (bob) STR 14 DEX 20 CON 12 "
        "INT 10; mace 0.5%, leather armour 100.0%, chainmail shield 100.0%, 0-0-0. bob: say "
        "!accept or !decline within 5 minutes. bob has not identified with me: I will tell "
        "him in private when he does.\n");
    ck_assert_int_eq(game_answer(game, &cb, GAME_ACCEPT, NULL, 0), 0);
    HAS("#ring|chatter|Bout #1 is on: the duel fights itself, a round every 4 seconds. "
        "Predictions open for 20 seconds (until round 5 is fought): !predict 1 <fighter>.\n");
    HAS("alice|live|Bout #1: the duel fights itself, a round every 4 seconds;");
    ck_assert_ptr_null(strstr(said.p, "your orders"));
    game_tick(game, NULL);
    hush();
    /* Nothing before the pace; then one round per tick of 4 seconds. */
    clock_now += 3;
    game_tick(game, NULL);
    ck_assert_int_eq((int)said.len, 0);
    clock_now += 1;
    game_tick(game, NULL);
    HAS("#ring|chatter|\002Round 1\002: ");
    HAS("alice|live|Bout #1: Your corner after round 1: Conan has ");
    HAS("bob|live|Bout #1: Your corner after round 1: Bob has ");
    struct db_bout rec;
    ck_assert_int_eq(db_bout_get(db, 1, &rec), DB_OK);
    ck_assert_int_eq(rec.round, 1);
    clock_now += 4;
    game_tick(game, NULL);
    ck_assert_int_eq(db_bout_get(db, 1, &rec), DB_OK);
    if (rec.state == DB_BOUT_LIVE) {
        ck_assert_int_eq(rec.round, 2);
        /* The bot stops here; the restarted game resumes at round 3. */
        game_free(game);
        start_game();
        game_set_config(game, &c);
        ck_assert_int_eq(game_live(game), 1);
        game_connected(game);
        HAS("#ring|chatter|Bout #1, Conan vs Bob, goes on: round 3 of 23 is next.");
        game_tick(game, NULL);
    }
    for (int i = 0; i < 30 && game_live(game); i++) {
        clock_now += 4;
        game_tick(game, NULL);
    }
    ck_assert_int_eq(game_live(game), 0);
    ck_assert_int_eq(db_bout_get(db, 1, &rec), DB_OK);
    ck_assert_int_eq(rec.state, DB_BOUT_OVER);
    ck_assert(replay_ok(1));
    if (round_lines_max(1) > 3)
        fputs(said.p, stderr);
    ck_assert_int_le(round_lines_max(1), 3);
    HAS("alice|live|Bout #1 is over, and ");
    HAS("'s equipment: ");
    /* The wear is saved with the fighters: a new duel starts from it. */
    struct db_fighter fa;
    ck_assert_int_eq(db_fighter_get(db, "conan", &fa), DB_OK);
    ck_assert_int_lt(fa.sheet.u.duel.cond[DUEL_WEAPON], DUEL_COND_FULL);
    ck_assert_int_eq(duel_sheet_check(&fa.sheet.u.duel), 0);
    ck_assert_int_eq(fa.wins + fa.losses + fa.draws, 1);
}
END_TEST

/* record_sheet_merge: the sheet a bout leaves is its own changes added
 * to the sheet stored when it ends. Nothing changed meanwhile: exactly
 * what the bout leaves (so replays and texts stay as they were); trained
 * meanwhile: both; a duel's kit worn by another bout too: both wears; a
 * piece replaced meanwhile: the new one; a piece the bout broke: gone. */
START_TEST(test_sheet_merge)
{
    const struct ruleset *sr = ruleset_get(RULES_SUGARRAY), *dr = ruleset_get(RULES_DUEL);
    struct sheet start = {.rules = RULES_SUGARRAY, .u.sugarray = {5, 40}}, after = start, now;

    after.u.sugarray.skill = 6; /* a KO win */
    now = record_sheet_merge(sr, &start, &after, &start);
    ck_assert(memcmp(&now, &after, sizeof(now)) == 0);
    now = start;
    now.u.sugarray.skill = 7; /* trained twice while the bout ran */
    now.u.sugarray.endurance = 43;
    now = record_sheet_merge(sr, &start, &after, &now);
    ck_assert_int_eq(now.u.sugarray.skill, 8);
    ck_assert_int_eq(now.u.sugarray.endurance, 43);

    struct sheet d = conan, da, dn, m;
    int item, cond;
    sheet_kit_get(&d, DUEL_TORSO, &item, &cond);
    ck_assert_int_ne(item, 0);
    sheet_kit_set(&d, DUEL_TORSO, item, DUEL_COND_FULL);
    da = d;
    sheet_kit_set(&da, DUEL_TORSO, item, DUEL_COND_FULL - 200000); /* this bout's wear */
    m = record_sheet_merge(dr, &d, &da, &d);
    ck_assert(memcmp(&m, &da, sizeof(m)) == 0);
    dn = d;
    sheet_kit_set(&dn, DUEL_TORSO, item, DUEL_COND_FULL - 100000); /* another bout's */
    m = record_sheet_merge(dr, &d, &da, &dn);
    sheet_kit_get(&m, DUEL_TORSO, &item, &cond);
    ck_assert_int_eq(cond, DUEL_COND_FULL - 300000);
    int was;
    sheet_kit_get(&d, DUEL_TORSO, &was, &cond);
    sheet_kit_set(&dn, DUEL_TORSO, was + 1, DUEL_COND_FULL); /* replaced */
    m = record_sheet_merge(dr, &d, &da, &dn);
    sheet_kit_get(&m, DUEL_TORSO, &item, &cond);
    ck_assert_int_eq(item, was + 1);
    ck_assert_int_eq(cond, DUEL_COND_FULL);
    sheet_kit_set(&da, DUEL_TORSO, 0, 0); /* broken in this bout */
    sheet_kit_set(&dn, DUEL_TORSO, was, DUEL_COND_FULL - 100000);
    m = record_sheet_merge(dr, &d, &da, &dn);
    sheet_kit_get(&m, DUEL_TORSO, &item, &cond);
    ck_assert_int_eq(item, 0);
    /* Pieces move between slots together: this bout broke the torso's
     * piece and let the one under it up, while another bout broke that
     * one; it never comes back (a slot merged alone brought it back to
     * the torso). */
    d = conan;
    sheet_kit_set(&d, DUEL_TORSO, 1, 500000);
    sheet_kit_set(&d, DUEL_UNDER, 2, 900000);
    da = d;
    sheet_kit_set(&da, DUEL_TORSO, 2, 800000);
    sheet_kit_set(&da, DUEL_UNDER, 0, 0);
    dn = d;
    sheet_kit_set(&dn, DUEL_UNDER, 0, 0);
    m = record_sheet_merge(dr, &d, &da, &dn);
    for (int k = 0; k < dr->kit_slots; k++) {
        int mi, mc;
        sheet_kit_get(&m, k, &mi, &mc);
        ck_assert_int_ne(mi, 2);
    }
    ck_assert(memcmp(&m.u, &dn.u, sizeof(m.u)) == 0); /* the stored kit stands */
}
END_TEST

/* The web pages' view of a duel: health from 100, the duel's marks (each
 * on the fighter it happened to, as the report says it), the equipment
 * worn as the rounds wore it, the pieces and their weight in words. */
START_TEST(test_duel_view)
{
    char err[256], text[RENDER_LINE_MAX];
    int64_t a = player("alice", "Conan", &conan), b = player("bob", "Bob", &bob);
    struct game_caller ca = caller("alice", a, 1), cb = caller("bob", b, 1);
    ck_assert_int_eq(game_challenge(game, &ca, b, "bob", RULES_DUEL, 0, NULL, NULL), 0);
    ck_assert_int_eq(game_answer(game, &cb, GAME_ACCEPT, NULL, 0), 0);
    game_tick(game, NULL);
    for (int i = 0; i < 30 && game_live(game); i++) {
        clock_now += 4;
        game_tick(game, NULL);
    }
    struct bout_view *v = bout_view(db, 1, err, sizeof(err));
    ck_assert_msg(v != NULL, "%s", err);
    ck_assert_int_eq(v->over, 1);
    ck_assert_str_eq(v->meter_name, "health");
    ck_assert_double_eq(v->meter_start[0], DUEL_HEALTH);
    ck_assert_double_eq(v->meter_start[1], DUEL_HEALTH);
    ck_assert_uint_eq(v->mark_kinds, 1u << VIEW_CRITICAL | 1u << VIEW_STUN | 1u << VIEW_BREAK |
                                         1u << VIEW_STOPPAGE);
    for (int i = 0; i < v->nrounds; i++) {
        ck_assert_int_eq(v->round[i].judged, 0);
        for (int k = 0; k < v->round[i].nmarks; k++) {
            const struct view_mark *m = &v->round[i].marks[k];
            ck_assert(m->kind >= VIEW_STOPPAGE);
            ck_assert_ptr_nonnull(strstr(v->round[i].report, m->text));
            if (m->kind == VIEW_CRITICAL) /* "X hits <him>'s ..., a critical hit." */
                ck_assert_ptr_nonnull(strstr(m->text, m->side ? "hits Bob's" : "hits Conan's"));
        }
    }
    /* The wear: what the fighters carry now is what the duel left. */
    struct db_fighter fa;
    ck_assert_int_eq(db_fighter_get(db, "conan", &fa), DB_OK);
    ck_assert_mem_eq(&v->kit_now[0].u.duel, &fa.sheet.u.duel, sizeof(fa.sheet.u.duel));
    ck_assert_int_lt(v->kit_now[0].u.duel.cond[DUEL_WEAPON], conan.u.duel.cond[DUEL_WEAPON]);
    ck_assert_mem_eq(&v->corner[0].sheet.u.duel, &conan.u.duel, sizeof(conan.u.duel));
    bout_view_free(v);
    render_kit_piece(RULES_DUEL, DUEL_HEAD, DUEL_PLATE, text, sizeof(text));
    ck_assert_str_eq(text, "plate helmet");
    render_kit_piece(RULES_DUEL, DUEL_UNDER, DUEL_CHAINMAIL, text, sizeof(text));
    ck_assert_str_eq(text, "chainmail shirt");
    render_kit_note(&bob, text, sizeof(text));
    ck_assert_ptr_nonnull(strstr(text, "encumbrance 0."));
    struct sheet none = {.rules = RULES_DUEL, .u.duel = {14, 14, 14, 14, {0}, {0}}};
    render_kit_note(&none, text, sizeof(text));
    ck_assert_str_eq(text, "no weapon (bare fists); encumbrance 0.000");
    struct sheet boxer = {.rules = RULES_BOXING};
    render_kit_note(&boxer, text, sizeof(text));
    ck_assert_str_eq(text, "");
    ck_assert_uint_eq(render_mark_kinds(RULES_BOXING), 1u << VIEW_KNOCKDOWN | 1u << VIEW_INJURY |
                                                           1u << VIEW_WARNING |
                                                           1u << VIEW_STOPPAGE);
}
END_TEST

/* The bout a command means, as game_bout_find resolves it for the bot's
 * target stage: by number ("#1" or "1") or the only one, and each refusal
 * word for word. */
START_TEST(test_bout_find)
{
    int64_t a, b, id = -1;

    live_bout(&a, &b);
    struct game_caller pa = caller("alice", a, 0), eve = caller("eve", 0, 0);
    struct game_caller here = caller("eve", 0, 1);
    hush();
    ck_assert_int_eq(game_bout_find(game, &pa, GAME_BOUT_MINE, NULL, &id), 0);
    ck_assert_int_eq(id, 1);
    ck_assert_int_eq(game_bout_find(game, &pa, GAME_BOUT_MINE_ORDERS, "#1", &id), 0);
    ck_assert_int_eq(id, 1);
    ck_assert_int_eq(game_bout_find(game, &pa, GAME_BOUT_MINE, "1", &id), 0);
    ck_assert_int_eq(id, 1);
    ck_assert_int_eq(game_bout_find(game, &pa, GAME_BOUT_MINE, "#9", &id), -1);
    ck_assert_int_eq(id, 0);
    HAS("alice|answer|there is no live bout #9; bouts lists them");
    ck_assert_int_eq(game_bout_find(game, &eve, GAME_BOUT_MINE_ORDERS, "#1", &id), -1);
    HAS("eve|answer|bout #1 is not yours: only its two players may act in it");
    ck_assert_int_eq(game_bout_find(game, &eve, GAME_BOUT_MINE, NULL, &id), -1);
    HAS("eve|answer|you have no live bout; say !challenge <nick> in #ring first\n");
    /* Spectators: a live bout, the one live here; any bout; an open one. */
    ck_assert_int_eq(game_bout_find(game, &here, GAME_BOUT_LIVE, NULL, &id), 0);
    ck_assert_int_eq(id, 1);
    ck_assert_int_eq(game_bout_find(game, &here, GAME_BOUT_LIVE, "#2", &id), -1);
    HAS("eve|answer|there is no bout #2; !bouts lists the live ones\n");
    ck_assert_int_eq(game_bout_find(game, &eve, GAME_BOUT_ANY, "#1", &id), 0);
    ck_assert_int_eq(id, 1);
    ck_assert_int_eq(game_bout_find(game, &eve, GAME_BOUT_ANY, "#x", &id), -1);
    HAS("eve|answer|there is no bout #x; bouts lists the live ones");
    ck_assert_int_eq(game_bout_find(game, &eve, GAME_BOUT_OPEN, "1", &id), 0);
    ck_assert_int_eq(id, 1);
    ck_assert_int_eq(game_bout_find(game, &eve, GAME_BOUT_OPEN, "#7", &id), -1);
    HAS("eve|answer|there is no live bout or challenge #7");
    /* A second bout live here: the spectator must say which. */
    int64_t c = player("carol", "Carl", &rocky), d = player("dave", "Dan", &apollo);
    struct game_caller cc = caller("carol", c, 1), cd = caller("dave", d, 1);
    ck_assert_int_eq(game_challenge(game, &cc, d, "dave", RULES_BOXING, 0, NULL, NULL), 0);
    ck_assert_int_eq(game_bout_find(game, &eve, GAME_BOUT_OPEN, "#2", &id), 0);
    ck_assert_int_eq(game_bout_find(game, &here, GAME_BOUT_LIVE, "#2", &id), -1);
    ck_assert_int_eq(game_answer(game, &cd, GAME_ACCEPT, NULL, 0), 0);
    hush();
    ck_assert_int_eq(game_bout_find(game, &here, GAME_BOUT_LIVE, NULL, &id), -1);
    HAS("eve|answer|2 bouts are live here; say which: !score <bout>");
    ck_assert_int_eq(game_bout_find(game, &here, GAME_BOUT_LIVE, "#2", &id), 0);
    ck_assert_int_eq(id, 2);
    /* The calls that take the resolved bout still refuse another's. */
    ck_assert_int_eq(game_forfeit(game, &pa, 2), -1);
    HAS("alice|answer|bout #2 is not yours: only its two players may act in it");
}
END_TEST

/* A duellist yields: he loses at once, and the duel replays. */
START_TEST(test_live_duel_yield)
{
    int64_t a = player("alice", "Conan", &conan), b = player("bob", "Bob", &bob);
    struct game_caller ca = caller("alice", a, 1), cb = caller("bob", b, 1);
    ck_assert_int_eq(game_challenge(game, &ca, b, "bob", RULES_DUEL, 0, NULL, NULL), 0);
    ck_assert_int_eq(game_answer(game, &cb, GAME_ACCEPT, NULL, 0), 0);
    game_tick(game, NULL);
    clock_now += 4;
    game_tick(game, NULL);
    hush();
    struct game_caller pb = caller("bob", b, 0);
    ck_assert_int_eq(game_forfeit(game, &pb, 1), 0);
    HAS("#ring|chatter|\002Round 2\002: Bob ");
    HAS("yield");
    /* His own yield: a forfeit, not his plan's yield. */
    HAS("Conan wins by forfeit in round 2 (Bob conceded)!");
    struct db_bout rec;
    ck_assert_int_eq(db_bout_get(db, 1, &rec), DB_OK);
    ck_assert_int_eq(rec.winner, 0);
    ck_assert_int_eq(rec.reason, TKO_TOWEL);
    ck_assert(replay_ok(1));
}
END_TEST

/* Two SUGAR RAY bouts in one channel: each line is tagged with its bout,
 * and the classic result table keeps its two lines. */
START_TEST(test_sugarray_table_shared_channel)
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
    struct game_caller pa = caller("alice", a, 0), pb = caller("bob", b, 0);
    ck_assert_int_eq(game_order(game, &pa, NULL, "9/0"), 0);
    ck_assert_int_eq(game_order(game, &pb, NULL, "0/0"), 0);
    HAS("#ring|chatter|[#1] \002Round 1\002: Murphy 9/0, Miller 0/0. ");
    ck_assert_int_eq(game_forfeit(game, &pb, 1), 0);
    /* A forfeit, as the result in words and the records say it: no TKO,
     * no towel (SUGAR RAY's plans throw in none; only the player
     * concedes). */
    HAS("#ring|chatter|[#1] Murphy (10,20) 9/0 ( 6) 0/0 ( 6) forfeit\n"
        "#ring|chatter|[#1] Miller (10,20) 0/0 ( 2) forfeit ( 2)\n"
        "#ring|chatter|[#1] Murphy wins by forfeit in round 2 (Miller conceded)! ");
    HAS("#ring|chatter|[#1] \002Round 2\002: Miller ");
    HAS(" concede");
    ck_assert_ptr_null(strstr(said.p, "TKO"));
    ck_assert_ptr_null(strstr(said.p, "towel"));
    ck_assert_int_eq(game_live(game), 1);
}
END_TEST

/* A stored plan yields for him when its condition holds. */
START_TEST(test_live_duel_plan_yields)
{
    int64_t a = player("alice", "Conan", &conan), b = player("bob", "Bob", &bob);
    struct db_fighter fb;
    ck_assert_int_eq(db_fighter_get(db, "bob", &fb), DB_OK);
    ck_assert_int_eq(db_plan_set(db, fb.id, "fight; if health < 100 then yield", 1), DB_OK);
    struct game_caller ca = caller("alice", a, 1), cb = caller("bob", b, 1);
    ck_assert_int_eq(game_challenge(game, &ca, b, "bob", RULES_DUEL, 0, NULL, NULL), 0);
    ck_assert_int_eq(game_answer(game, &cb, GAME_ACCEPT, NULL, 0), 0);
    game_tick(game, NULL);
    for (int i = 0; i < 30 && game_live(game); i++) {
        clock_now += 4;
        game_tick(game, NULL);
    }
    struct db_bout rec;
    ck_assert_int_eq(db_bout_get(db, 1, &rec), DB_OK);
    ck_assert_int_eq(rec.state, DB_BOUT_OVER);
    if (rec.reason == TKO_TOWEL) {
        ck_assert_int_eq(rec.winner, 0);
        struct db_order o[64];
        int n = 0;
        ck_assert_int_eq(db_order_list(db, 1, o, 64, &n), DB_OK);
        ck_assert_str_eq(o[n - 1].text, "towel"); /* a yield is stored as the towel */
        ck_assert_int_eq(o[n - 1].source, DB_ORDER_PLAN);
        /* His plan's yield is a yield: counted apart, said so. */
        HAS(": Bob yields!");
        struct db_fighter fa;
        ck_assert_int_eq(db_fighter_get(db, "conan", &fa), DB_OK);
        ck_assert_int_eq(fa.towels, 1);
        ck_assert_int_eq(fa.kos + fa.tkos + fa.dqs + fa.forfeits, 0);
    }
    ck_assert(replay_ok(1));
}
END_TEST

/* A league turn of duellists: every duel fought from the plans (a yield
 * line among them), stored, replayable, the records and the wear saved;
 * the title bout too when there is a GOLD league. */
START_TEST(test_league_turn_of_duels)
{
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], err[256];
    int n = 0;

    for (int i = 0; i < 5; i++) {
        char name[16], fighter[16];
        struct sheet s = i % 2 ? bob : conan;
        snprintf(name, sizeof(name), "d%d", i);
        snprintf(fighter, sizeof(fighter), "Duellist%d", i);
        s.u.duel.cond[DUEL_WEAPON] = DUEL_COND_FULL;
        int64_t id = player(name, fighter, &s);
        struct db_fighter list[1];
        int m = 0;
        ck_assert_int_eq(db_fighter_list(db, id, 0, list, 1, &m), DB_OK);
        if (i == 0)
            ck_assert_int_eq(db_plan_set(db, list[0].id, "if health < 30 then yield", 1), DB_OK);
    }
    ck_assert_msg(league_turn(game, RULES_DUEL, 9, "#ring", lines, &n, err, sizeof(err)) == 0, "%s",
                  err);
    ck_assert_ptr_nonnull(strstr(lines[0], "League turn 1 (duel): 5 bouts fought"));
    struct db_bout list[8];
    int m = 0;
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_OVER, list, 8, &m), DB_OK);
    ck_assert_int_eq(m, 5);
    for (int i = 0; i < m; i++) {
        ck_assert_int_eq(list[i].rules, RULES_DUEL);
        ck_assert(replay_ok(list[i].id));
    }
    /* Everybody fought twice; his weapon wore in both. */
    struct db_fighter f;
    ck_assert_int_eq(db_fighter_get(db, "duellist0", &f), DB_OK);
    ck_assert_int_eq(f.wins + f.losses + f.draws, 2);
    ck_assert_int_lt(f.sheet.u.duel.cond[DUEL_WEAPON], DUEL_COND_FULL);
    ck_assert_int_eq(duel_sheet_check(&f.sheet.u.duel), 0);
    /* The second duel of the turn began with the wear of the first. */
    int64_t first = 0, second = 0;
    for (int i = 0; i < m; i++)
        for (int s = 0; s < SIDES; s++)
            if (list[i].fighter[s] == f.id) {
                if (!first)
                    first = list[i].id * 2 + s;
                else
                    second = list[i].id * 2 + s;
            }
    struct db_bout b2;
    ck_assert_int_eq(db_bout_get(db, second / 2, &b2), DB_OK);
    ck_assert_int_lt(b2.sheet[second % 2].u.duel.cond[DUEL_WEAPON], DUEL_COND_FULL);
    /* Another turn: the leagues move, and the duels go on. */
    ck_assert_int_eq(league_turn_announce(game, RULES_DUEL, "#ring", "#ring"), 0);
    HAS("#ring|chatter|League turn 2 (duel): ");
}
END_TEST

/* A towel his plan throws in is a TKO (towel), not a forfeit: counted as a
 * towel, and the winner earns a stoppage's training points. */
START_TEST(test_plan_towel_is_a_towel)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);
    struct game_caller ca = caller("alice", a, 1), cb = caller("bob", b, 1);
    struct db_fighter f;

    ck_assert_int_eq(db_fighter_get(db, "apollo", &f), DB_OK);
    ck_assert_int_eq(db_plan_set(db, f.id, "if round >= 1 then towel", 1), DB_OK);
    ck_assert_int_eq(game_challenge(game, &ca, b, "bob", RULES_BOXING, 0, NULL, NULL), 0);
    ck_assert_int_eq(game_answer(game, &cb, GAME_ACCEPT, NULL, 0), 0);
    game_tick(game, NULL);
    hush();
    ck_assert_int_eq(game_order_in(game, &ca, 1, "5/5/10"), 0);
    clock_now += 61;
    game_tick(game, NULL);
    HAS("Rocky wins by TKO in round 1 (the corner threw in the towel)!");
    HAS("#ring|chatter|Round 1 not scored, conceded by Apollo's corner.\n");
    HAS("Rocky 1-0-0 (1 towel)");
    /* The pages' lists and the JSON: a towel, not a forfeit. */
    struct db_bout rec;
    ck_assert_int_eq(db_bout_get(db, 1, &rec), DB_OK);
    ck_assert_int_eq(record_bout_forfeit(db, &rec), 0);
    ck_assert_str_eq(render_win_how(rec.rules, rec.method, rec.reason, 0), "towel");
    ck_assert_int_eq(db_fighter_get(db, "rocky", &f), DB_OK);
    ck_assert_int_eq(f.towels, 1);
    ck_assert_int_eq(f.kos + f.tkos + f.dqs + f.forfeits, 0);
    ck_assert_int_eq(f.training_points, 2);
    ck_assert(replay_ok(1));
}
END_TEST

/* The deadline runs from when the prompts went out, not from when the
 * round was resolved: a slow output does not eat the players' time. */
START_TEST(test_deadline_from_the_prompt)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);
    struct game_caller ca = caller("alice", a, 1), cb = caller("bob", b, 1);

    ck_assert_int_eq(game_challenge(game, &ca, b, "bob", RULES_BOXING, 0, NULL, NULL), 0);
    pending_lines = 5; /* the output is slow: the prompts wait */
    ck_assert_int_eq(game_answer(game, &cb, GAME_ACCEPT, NULL, 0), 0);
    clock_now += 100;
    game_tick(game, NULL);
    ck_assert_int_eq(game_live(game), 1);
    hush();
    pending_lines = 0; /* the prompts are out now: 60 s from here */
    game_tick(game, NULL);
    clock_now += 45;
    game_tick(game, NULL);
    HAS("alice|live|Bout #1: 15 seconds left for your round 1 orders");
    struct db_bout rec;
    ck_assert_int_eq(db_bout_get(db, 1, &rec), DB_OK);
    ck_assert_int_eq(rec.round, 0);
    clock_now += 16;
    game_tick(game, NULL);
    ck_assert_int_eq(db_bout_get(db, 1, &rec), DB_OK);
    ck_assert_int_eq(rec.round, 1);
}
END_TEST

START_TEST(test_challenge_expires_on_the_fake_clock)
{
    int64_t a = player("alice", "Rocky", &rocky), b = player("bob", "Apollo", &apollo);
    struct game_caller ca = caller("alice", a, 1), cb = caller("bob", b, 1);

    ck_assert_int_eq(game_challenge(game, &ca, b, "bob", RULES_BOXING, 0, NULL, NULL), 0);
    ck_assert(game_fighter_busy(game, 1));
    game_tick(game, NULL); /* the challenge went out: the clock runs */
    clock_now += 299;
    game_tick(game, NULL);
    ck_assert(game_fighter_busy(game, 1));
    clock_now += 2;
    hush();
    game_tick(game, NULL);
    HAS("#ring|chatter|alice's challenge to bob (bout #1) expired unanswered.");
    ck_assert(!game_fighter_busy(game, 1));
    ck_assert_int_eq(game_answer(game, &cb, GAME_ACCEPT, NULL, 0), -1);
    HAS("bob|answer|nobody has challenged you");
}
END_TEST

/* ------------------------------------------------- a schema 3 file */

/* tests/data/schema3.db was written by the Ringside of commit 0e50685
 * (schema 3, reports and commentary stored with every round): a finished
 * boxing exhibition (bout 1), a finished SUGAR RAY one (2), a live boxing
 * bout after two rounds with one order of round 3 stored (3), and a league
 * turn of each ruleset (4-13 boxing, 14-21 SUGAR RAY). */
#define SCHEMA3_BOUTS 21

/* Holds when SQL condition `cond` is true of the file at `path`. */
static int sql_holds(const char *cond)
{
    size_t len = strlen(cond) + 128;
    char *sql = malloc(len), err[512] = "";

    snprintf(sql, len,
             "CREATE TEMP TABLE holds (x CHECK (x IS 1)); INSERT INTO holds VALUES ((%s));", cond);
    int rc = db_test_file(path, db_schema_latest(), sql, err, sizeof(err));
    free(sql);
    return rc == DB_OK;
}

/* `text` as an SQL string literal (quotes doubled), allocated. */
static char *sql_quote(const char *text)
{
    char *q = malloc(2 * strlen(text) + 3), *p = q;

    *p++ = '\'';
    for (; *text; text++) {
        if (*text == '\'')
            *p++ = '\'';
        *p++ = *text;
    }
    *p++ = '\'';
    *p = '\0';
    return q;
}

static void schema3_setup(void)
{
    char err[256], cmd[256];

    snprintf(dir, sizeof(dir), "/tmp/ringside-game3-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/ringside.db", dir);
    snprintf(cmd, sizeof(cmd), "cp tests/data/schema3.db %s", path);
    ck_assert_int_eq(system(cmd), 0);
    db = db_open(path, err, sizeof(err)); /* migrates it (a SQLite file on both runs) */
    ck_assert_msg(db != NULL, "%s", err);
    fixture_world();
    start_game();
}

START_TEST(test_schema3_replays_word_for_word)
{
    TEST_DB_SQLITE_ONLY("a migration of an old SQLite file (tests/data/schema3.db)");
    char err[256], buf[8192];

    ck_assert_int_eq(db_schema_version(db), db_schema_latest());
    /* Every stored bout replays: its stored reports rebuilt byte for byte. */
    for (int id = 1; id <= SCHEMA3_BOUTS; id++) {
        FILE *f = tmpfile();
        ck_assert_msg(bout_replay(db, id, f) == 0, "bout %d does not replay", id);
        rewind(f);
        size_t n = fread(buf, 1, sizeof(buf) - 1, f);
        buf[n] = '\0';
        fclose(f);
        ck_assert_msg(strstr(buf, "round 1: match") != NULL, "bout %d:\n%s", id, buf);
        ck_assert_msg(strstr(buf, "replayed\n") == NULL, "bout %d:\n%s", id, buf);
    }
    /* The commentary derived now is what the old bot said (its stored
     * summaries), round by round, the result lines included. */
    for (int id = 1; id <= 3; id++) {
        struct db_bout rec;
        ck_assert_int_eq(db_bout_get(db, id, &rec), DB_OK);
        for (int r = 1; r <= rec.round; r++) {
            char *text = bout_commentary(db, id, r, r, err, sizeof(err));
            ck_assert_msg(text != NULL, "%s", err);
            char *q = sql_quote(text);
            size_t len = strlen(q) + 128;
            char *cond = malloc(len);
            snprintf(cond, len, "SELECT summary = %s FROM rounds WHERE bout = %d AND round = %d", q,
                     id, r);
            ck_assert_msg(sql_holds(cond), "bout %d round %d: derived\n%s", id, r, text);
            free(cond);
            free(q);
            free(text);
        }
    }
}
END_TEST

START_TEST(test_schema3_live_bout_goes_on)
{
    TEST_DB_SQLITE_ONLY("a migration of an old SQLite file (tests/data/schema3.db)");
    struct db_bout rec;
    struct db_fighter c, d;

    /* Bout 3 was live: it is restored, cora's round 3 order kept. */
    ck_assert_int_eq(game_live(game), 1);
    ck_assert_int_eq(db_fighter_get(db, "duran", &c), DB_OK);
    ck_assert_int_eq(db_fighter_get(db, "hagler", &d), DB_OK);
    game_connected(game);
    HAS("#ringside|chatter|Bout #3, Duran vs Hagler, goes on: round 3 of 6 is next.");
    HAS("cora|live|Bout #3, round 3 of 6: your orders for Duran (e.g. 5H/8!/7 (inside)) within "
        "1 minute; your orders for it are in already");
    struct game_caller pc = caller("cora", c.account_id, 0), pd = caller("dave", d.account_id, 0);
    for (int r = 3; r <= 6 && game_live(game); r++) {
        if (r > 3)
            ck_assert_int_eq(game_order(game, &pc, NULL, "5/5/10"), 0);
        ck_assert_int_eq(game_order(game, &pd, NULL, "4/6/10 (ring)"), 0);
    }
    ck_assert_int_eq(game_live(game), 0);
    ck_assert_int_eq(db_bout_get(db, 3, &rec), DB_OK);
    ck_assert_int_eq(rec.state, DB_BOUT_OVER);
    /* Rounds 1-2 replay against their old reports, the rest their digests. */
    FILE *f = tmpfile();
    ck_assert_int_eq(bout_replay(db, 3, f), 0);
    fclose(f);
    char err[256], *report = bout_report(db, 3, 1, 0, err, sizeof(err));
    ck_assert_msg(report != NULL, "%s", err);
    ck_assert_ptr_nonnull(strstr(report, "Round 1 of 6"));
    ck_assert_ptr_nonnull(strstr(report, "Round 6 of 6"));
    free(report);
}
END_TEST

Suite *game_suite(void)
{
    Suite *s = suite_create("game");
    TCase *tc = tcase_create("game");

    tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_whole_bout_through_the_game);
    tcase_add_test(tc, test_bout_view);
    tcase_add_test(tc, test_deadline_reminder_and_fallback);
    tcase_add_test(tc, test_crash_with_commentary_not_delivered);
    tcase_add_test(tc, test_forfeit_and_bad_orders);
    tcase_add_test(tc, test_live_end_keeps_records_made_meanwhile);
    tcase_add_test(tc, test_bout_find);
    tcase_add_test(tc, test_league_turn_through_the_game);
    tcase_add_test(tc, test_challenge_expires_on_the_fake_clock);
    tcase_add_test(tc, test_deadline_from_the_prompt);
    tcase_add_test(tc, test_live_duel_fights_itself);
    tcase_add_test(tc, test_live_duel_yield);
    tcase_add_test(tc, test_plan_towel_is_a_towel);
    tcase_add_test(tc, test_sugarray_table_shared_channel);
    tcase_add_test(tc, test_duel_view);
    tcase_add_test(tc, test_sheet_merge);
    tcase_add_test(tc, test_live_duel_plan_yields);
    tcase_add_test(tc, test_league_turn_of_duels);
    suite_add_tcase(s, tc);

    tc = tcase_create("schema 3");
    tcase_add_checked_fixture(tc, schema3_setup, fixture_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_schema3_replays_word_for_word);
    tcase_add_test(tc, test_schema3_live_bout_goes_on);
    suite_add_tcase(s, tc);
    return s;
}
