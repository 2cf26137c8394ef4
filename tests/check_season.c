/* check_season.c - seasons through the game with the fake I/O
 * (game_fixture.h): a season ended by [league] season_turns at a turn and
 * by an admin's season end, what the archive and the hall of fame keep,
 * the moves, the season's records back to 0 while the careers stay, the
 * answers of season and halloffame word for word, every ruleset, and a
 * season's end that fails at any write changing nothing. */
#include <check.h>

#include "game_fixture.h"

/* The game again with seasons of `turns` league turns. */
static void season_game(int turns)
{
    char err[256];
    struct game_config c = cfg;

    game_free(game);
    c.season_turns = turns;
    game = game_new(db, &io, &c, err, sizeof(err));
    ck_assert_msg(game != NULL, "%s", err);
}

static const struct sheet boxer = {.rules = RULES_BOXING, .u.boxing = {12, 12, 12, 12, 12}};
static const struct sheet ray = {.rules = RULES_SUGARRAY, .u.sugarray = {10, 20}};
static const struct sheet duellist = {.rules = RULES_DUEL, .u.duel = {14, 14, 14, 14, {0}, {0}}};

/* Fighter `name` as stored. */
static struct db_fighter get(const char *name)
{
    struct db_fighter f;
    char key[DB_NAME_MAX];

    snprintf(key, sizeof(key), "%s", name);
    for (char *c = key; *c; c++)
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
    ck_assert_int_eq(db_fighter_get(db, key, &f), DB_OK);
    return f;
}

/* Fighter `name` (account lower-case of it) of sheet s, in league l, with
 * the record w-l-d (a save: career and season alike). */
static int64_t put(const char *name, const struct sheet *s, int league, int w, int l, int d)
{
    char acc[DB_NAME_MAX];

    snprintf(acc, sizeof(acc), "%s", name);
    for (char *c = acc; *c; c++)
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
    player(acc, name, s);
    struct db_fighter f = get(name);
    f.league = league;
    f.wins = w;
    f.losses = l;
    f.draws = d;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    return f.id;
}

/* A caller who is an admin (the bot checks; the game trusts it). */
static struct game_caller admin(void)
{
    return caller("boss", 99, 1);
}

/* Six boxers in three leagues and a champion: GOLD Gina 3-0, Gus 1-2;
 * SILVER Sam 2-1, Sid 0-3; BRONZE Bea 4-0, Bo 0-0 (never fought);
 * champion Cal 5-0. */
static void six_and_a_champion(const struct sheet *s)
{
    put("Gina", s, LEAGUE_GOLD, 3, 0, 0);
    put("Gus", s, LEAGUE_GOLD, 1, 2, 0);
    put("Sam", s, LEAGUE_SILVER, 2, 1, 0);
    put("Sid", s, LEAGUE_SILVER, 0, 3, 0);
    put("Bea", s, LEAGUE_BRONZE, 4, 0, 0);
    put("Bo", s, LEAGUE_BRONZE, 0, 0, 0);
    int64_t cal = put("Cal", s, LEAGUE_GOLD, 5, 0, 0);
    ck_assert_int_eq(db_champion_set(db, s->rules, cal, 2, wall_now), DB_OK);
}

START_TEST(test_admin_season_end)
{
    struct game_caller boss = admin();
    struct db_season_row rows[16];
    int n = 0;

    six_and_a_champion(&boxer);
    ck_assert_int_eq(game_season_current(game, RULES_BOXING), 1);
    wall_now += 100;
    hush();
    ck_assert_int_eq(game_season_end(game, &boss, RULES_BOXING, "#ring"), 0);
    ck_assert_str_eq(
        said.p, "#ring|chatter|Season 1 (boxing) is over after 0 league turns: GOLD Gina (3-0-0), "
                "SILVER Sam (2-1-0), BRONZE Bea (4-0-0); International Champion: Cal (5-0-0).\n"
                "#ring|chatter|up: Sam (to GOLD), Bea (to SILVER); down: Gus (to SILVER), Sid (to "
                "BRONZE). Season 2 begins: the season's records start at 0, careers carry on.\n");

    /* The archive: each league's table as it stood, with the moves. */
    ck_assert_int_eq(db_season_standings(db, RULES_BOXING, 1, rows, 16, &n), DB_OK);
    ck_assert_int_eq(n, 6);
    ck_assert_str_eq(rows[0].name, "Gina");
    ck_assert_int_eq(rows[0].league, LEAGUE_GOLD);
    ck_assert_int_eq(rows[0].position, 1);
    ck_assert_int_eq(rows[0].wins, 3);
    ck_assert_int_eq(rows[0].moved, 0);
    ck_assert_str_eq(rows[1].name, "Gus");
    ck_assert_int_eq(rows[1].moved, -1);
    ck_assert_str_eq(rows[2].name, "Sam");
    ck_assert_int_eq(rows[2].moved, 1);
    ck_assert_str_eq(rows[3].name, "Sid");
    ck_assert_int_eq(rows[3].moved, -1);
    ck_assert_str_eq(rows[4].name, "Bea");
    ck_assert_int_eq(rows[4].moved, 1);
    ck_assert_str_eq(rows[5].name, "Bo");
    ck_assert_int_eq(rows[5].moved, 0);
    ck_assert_int_eq(rows[5].position, 2);

    /* The moves applied, the season's records at 0, the careers kept. */
    struct db_fighter f = get("Sam");
    ck_assert_int_eq(f.league, LEAGUE_GOLD);
    ck_assert_int_eq(f.wins, 2);
    ck_assert_int_eq(f.losses, 1);
    ck_assert_int_eq(f.season_wins + f.season_losses + f.season_draws, 0);
    ck_assert_int_eq(get("Gus").league, LEAGUE_SILVER);
    ck_assert_int_eq(get("Sid").league, LEAGUE_BRONZE);
    ck_assert_int_eq(get("Bea").league, LEAGUE_SILVER);
    ck_assert_int_eq(get("Gina").league, LEAGUE_GOLD);
    ck_assert_int_eq(get("Cal").wins, 5);
    ck_assert_int_eq(get("Cal").season_wins, 0);

    /* The season and its span. */
    int64_t from = -1, to = -1;
    ck_assert_int_eq(game_season_current(game, RULES_BOXING), 2);
    ck_assert_int_eq(game_season_span(game, RULES_BOXING, 1, &from, &to), 0);
    ck_assert_int_eq(from, 0);
    ck_assert_int_eq(to, 1700000100);
    ck_assert_int_eq(game_season_span(game, RULES_BOXING, 2, &from, &to), 0);
    ck_assert_int_eq(from, 1700000100);
    ck_assert_int_eq(to, 0);
    ck_assert_int_eq(game_season_span(game, RULES_BOXING, 3, &from, &to), -1);
    ck_assert_int_eq(game_season_current(game, RULES_DUEL), 1);

    /* The hall of fame, and the season said. */
    hush();
    ck_assert_int_eq(game_halloffame(game, &boss, RULES_BOXING), 0);
    ck_assert_str_eq(said.p, "boss|answer|Hall of fame: season 1 (boxing): GOLD Gina (3-0-0), "
                             "SILVER Sam (2-1-0), BRONZE Bea (4-0-0); International Champion: "
                             "Cal (5-0-0).\n");
    hush();
    ck_assert_int_eq(game_season(game, &boss, RULES_BOXING), 0);
    ck_assert_str_eq(said.p, "boss|answer|Season 2 (boxing): 0 league turns played; it ends "
                             "when an admin says !season end rules=boxing.\n");

    /* A season with nothing played is not closed. */
    hush();
    ck_assert_int_eq(game_season_end(game, &boss, RULES_BOXING, "#ring"), -1);
    ck_assert_str_eq(said.p,
                     "boss|answer|season 2 (boxing) has had no league turn and no bout yet: "
                     "there is nothing to close; !season rules=boxing says where it stands\n");
    ck_assert_int_eq(game_season_current(game, RULES_BOXING), 2);
}
END_TEST

/* The standings rank by the season's record: a career does not count. */
START_TEST(test_standings_rank_by_season)
{
    struct game_caller boss = admin();

    put("Old", &boxer, LEAGUE_BRONZE, 9, 0, 0);
    put("New", &boxer, LEAGUE_BRONZE, 0, 0, 0);
    ck_assert_int_eq(game_season_end(game, &boss, RULES_BOXING, NULL), 0);
    struct db_fighter f = get("New");
    f.wins = 1; /* a win this season */
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    hush();
    ck_assert_int_eq(game_standings(game, &boss, RULES_BOXING, LEAGUE_SILVER), 0);
    ck_assert_str_eq(said.p, "boss|answer|SILVER (boxing): 1. Old (old) 0-0-0 gold 0\n");
    hush();
    ck_assert_int_eq(game_standings(game, &boss, RULES_BOXING, LEAGUE_BRONZE), 0);
    ck_assert_str_eq(said.p, "boss|answer|BRONZE (boxing): 1. New (new) 1-0-0 gold 0\n");
    ck_assert_int_eq(get("Old").wins, 9);
}
END_TEST

/* [league] season_turns: the turn that reaches it ends the season, in its
 * own transaction, and the channel hears it after the turn's summary. */
START_TEST(test_season_turns_end_at_a_turn)
{
    static const char *const names[] = {"Ada", "Ben", "Cid", "Dot"};

    season_game(2);
    for (int i = 0; i < 4; i++)
        put(names[i], &boxer, LEAGUE_BRONZE, 0, 0, 0);
    struct game_caller boss = admin();
    hush();
    ck_assert_int_eq(game_season(game, &boss, RULES_BOXING), 0);
    ck_assert_str_eq(said.p, "boss|answer|Season 1 (boxing): 0 of 2 league turns played, 2 left; "
                             "the standings rank by the season's record.\n");
    ck_assert_int_eq(league_turn_announce(game, RULES_BOXING, "#ring", NULL), 0);
    ck_assert_ptr_null(strstr(said.p, "is over"));
    hush();
    ck_assert_int_eq(game_season(game, &boss, RULES_BOXING), 0);
    ck_assert_str_eq(said.p, "boss|answer|Season 1 (boxing): 1 of 2 league turns played, 1 left; "
                             "the standings rank by the season's record.\n");
    hush();
    ck_assert_int_eq(league_turn_announce(game, RULES_BOXING, "#ring", NULL), 0);
    HAS("#ring|chatter|League turn 2 (boxing)");
    HAS("#ring|chatter|Season 1 (boxing) is over after 2 league turns: ");
    HAS("Season 2 begins: the season's records start at 0, careers carry on.\n");
    ck_assert_ptr_nonnull(strstr(strstr(said.p, "League turn 2"), "Season 1 (boxing) is over"));
    ck_assert_int_eq(game_season_current(game, RULES_BOXING), 2);

    struct db_season s;
    ck_assert_int_eq(db_season_get(db, RULES_BOXING, 1, &s), DB_OK);
    ck_assert_int_eq(s.turns, 2);
    ck_assert_int_eq(s.turn_last, 2);
    int career = 0;
    for (int i = 0; i < 4; i++) {
        struct db_fighter f = get(names[i]);
        ck_assert_int_eq(f.season_wins + f.season_losses + f.season_draws, 0);
        career += f.wins + f.losses + f.draws;
    }
    struct db_bout bouts[32];
    int nb = 0;
    ck_assert_int_eq(db_bout_list(db, DB_BOUT_OVER, bouts, 32, &nb), DB_OK);
    ck_assert_int_gt(nb, 0);
    ck_assert_int_eq(career, 2 * nb); /* every bout of both turns, both sides */
    /* Each league's winner, as its archived table's first. */
    struct db_honour h[8];
    struct db_season_row rows[8];
    int n = 0, m = 0;
    ck_assert_int_eq(db_honours(db, RULES_BOXING, h, 8, &n), DB_OK);
    ck_assert_int_eq(db_season_standings(db, RULES_BOXING, 1, rows, 8, &m), DB_OK);
    ck_assert_int_eq(m, 4);
    ck_assert_int_ge(n, 1);
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int k = 0; k < m; k++)
            found |= rows[k].position == 1 && rows[k].league == h[i].honour &&
                     strcmp(rows[k].name, h[i].name) == 0 && rows[k].wins == h[i].wins;
        ck_assert_msg(found, "honour %d %s is no league's first", h[i].honour, h[i].name);
    }

    /* The next season counts its own turns. */
    hush();
    ck_assert_int_eq(game_season(game, &boss, RULES_BOXING), 0);
    ck_assert_str_eq(said.p, "boss|answer|Season 2 (boxing): 0 of 2 league turns played, 2 left; "
                             "the standings rank by the season's record.\n");
}
END_TEST

/* Every ruleset keeps its own seasons. */
START_TEST(test_every_ruleset)
{
    const struct sheet *sheets[] = {&boxer, &ray, &duellist};
    const char *const names[][2] = {{"Bxa", "Bxb"}, {"Sra", "Srb"}, {"Dua", "Dub"}};
    struct game_caller boss = admin();

    for (int r = 0; r < 3; r++) {
        put(names[r][0], sheets[r], LEAGUE_SILVER, 2, 0, 0);
        put(names[r][1], sheets[r], LEAGUE_SILVER, 0, 2, 0);
    }
    for (int r = 0; r < 3; r++) {
        enum rules rules = sheets[r]->rules;
        hush();
        ck_assert_int_eq(game_season_end(game, &boss, rules, "#ring"), 0);
        char want[512];
        snprintf(want, sizeof(want),
                 "#ring|chatter|Season 1 (%s) is over after 0 league turns: SILVER %s (2-0-0); "
                 "the title is vacant.\n"
                 "#ring|chatter|up: %s (to GOLD); down: %s (to BRONZE). Season 2 begins: the "
                 "season's records start at 0, careers carry on.\n",
                 ruleset_get(rules)->name, names[r][0], names[r][0], names[r][1]);
        ck_assert_str_eq(said.p, want);
        ck_assert_int_eq(game_season_current(game, rules), 2);
        for (int o = r + 1; o < 3; o++)
            ck_assert_int_eq(game_season_current(game, sheets[o]->rules), 1);
    }
    struct db_honour h[8];
    int n = 0;
    ck_assert_int_eq(db_honours(db, -1, h, 8, &n), DB_OK);
    ck_assert_int_eq(n, 3);
}
END_TEST

/* A season's end that fails at any write stores nothing of it. */
START_TEST(test_season_end_all_or_nothing)
{
    struct game_caller boss = admin();

    six_and_a_champion(&boxer);
    for (long k = 1; k < 200; k++) {
        db_fault_after(db, k);
        int rc = game_season_end(game, &boss, RULES_BOXING, "#ring");
        db_fault_after(db, -1);
        if (rc == 0)
            break;
        ck_assert_int_eq(game_season_current(game, RULES_BOXING), 1);
        ck_assert_int_eq(get("Sam").league, LEAGUE_SILVER);
        ck_assert_int_eq(get("Sam").season_wins, 2);
        struct db_honour h[8];
        int n = 0;
        ck_assert_int_eq(db_honours(db, -1, h, 8, &n), DB_OK);
        ck_assert_int_eq(n, 0);
    }
    ck_assert_int_eq(game_season_current(game, RULES_BOXING), 2);
    ck_assert_int_eq(get("Sam").league, LEAGUE_GOLD);
}
END_TEST

/* halloffame: a line a season, the last three, then how many more and
 * the page; with no ruleset named, each ruleset's last season. */
START_TEST(test_halloffame_lines)
{
    struct game_caller boss = admin(), priv = caller("boss", 99, 0);
    struct game_config c = cfg;
    char err[256];

    game_free(game);
    snprintf(c.base_url, sizeof(c.base_url), "https://r.example");
    game = game_new(db, &io, &c, err, sizeof(err));
    ck_assert_ptr_nonnull(game);
    put("Alf", &boxer, LEAGUE_SILVER, 0, 0, 0);
    put("Ray", &ray, LEAGUE_BRONZE, 0, 0, 0);
    for (int season = 1; season <= 4; season++) {
        struct db_fighter f = get("Alf");
        f.wins += season; /* Alf wins SILVER (then GOLD) with `season` wins */
        ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
        ck_assert_int_eq(game_season_end(game, &boss, RULES_BOXING, NULL), 0);
    }
    struct db_fighter f = get("Ray");
    f.draws = 1;
    ck_assert_int_eq(db_fighter_save(db, &f), DB_OK);
    ck_assert_int_eq(game_season_end(game, &boss, RULES_SUGARRAY, NULL), 0);
    hush();
    ck_assert_int_eq(game_halloffame(game, &boss, RULES_BOXING), 0);
    ck_assert_str_eq(said.p,
                     "boss|answer|Hall of fame: season 4 (boxing): GOLD Alf (4-0-0); the title "
                     "is vacant.\n"
                     "boss|answer|season 3 (boxing): GOLD Alf (3-0-0); the title is vacant.\n"
                     "boss|answer|season 2 (boxing): GOLD Alf (2-0-0); the title is vacant; 1 "
                     "other season - https://r.example/halloffame\n");
    hush();
    ck_assert_int_eq(game_halloffame_all(game, &priv), 0);
    ck_assert_str_eq(said.p,
                     "boss|answer|Hall of fame: season 4 (boxing): GOLD Alf (4-0-0); the title "
                     "is vacant.\n"
                     "boss|answer|season 1 (sugarray): BRONZE Ray (0-0-1); the title is vacant; "
                     "3 other seasons - https://r.example/halloffame\n");
    hush();
    ck_assert_int_eq(game_halloffame(game, &priv, RULES_DUEL), 0);
    ck_assert_str_eq(said.p, "boss|answer|no duel season has ended yet: season 1 is the first; "
                             "season rules=duel says how many turns are left\n");
}
END_TEST

/* The turn that ends a season, failing at any write: neither the turn nor
 * the season's end is stored, or both are. */
START_TEST(test_turn_and_season_end_all_or_nothing)
{
    static const char *const names[] = {"Ada", "Ben", "Cid", "Dot"};
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX], err[256];
    int n = 0, number = 0;
    int64_t when;

    season_game(1);
    for (int i = 0; i < 4; i++)
        put(names[i], &boxer, LEAGUE_BRONZE, 0, 0, 0);
    for (long k = 1; k < 2000; k++) {
        db_fault_after(db, k);
        int rc = league_turn(game, RULES_BOXING, 5, "#ring", lines, &n, err, sizeof(err));
        db_fault_after(db, -1);
        int turned = db_turn_last(db, RULES_BOXING, &number, &when) == DB_OK;
        ck_assert_int_eq(game_season_current(game, RULES_BOXING), turned ? 2 : 1);
        ck_assert_int_eq(rc == 0, turned);
        if (rc == 0)
            break;
        ck_assert_int_eq(get("Ada").wins + get("Ada").losses + get("Ada").draws, 0);
    }
    ck_assert_int_eq(number, 1);
    ck_assert_int_eq(get("Ada").season_wins + get("Ada").season_losses, 0);
    ck_assert_int_gt(get("Ada").wins + get("Ada").losses + get("Ada").draws, 0);
}
END_TEST

Suite *season_suite(void)
{
    Suite *s = suite_create("season");
    TCase *tc = tcase_create("core");

    tcase_add_checked_fixture(tc, fixture_setup, fixture_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_admin_season_end);
    tcase_add_test(tc, test_standings_rank_by_season);
    tcase_add_test(tc, test_season_turns_end_at_a_turn);
    tcase_add_test(tc, test_every_ruleset);
    tcase_add_test(tc, test_halloffame_lines);
    tcase_add_test(tc, test_season_end_all_or_nothing);
    tcase_add_test(tc, test_turn_and_season_end_all_or_nothing);
    suite_add_tcase(s, tc);
    return s;
}
