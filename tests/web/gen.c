/*
 * gen.c - ringside-webgen DB [FIGHTERS]: a database of real bouts for the
 * web server's tests and benchmark, made through game/ as the bot makes
 * them (a fake clock and no IRC, as tests/check_game.c drives it).
 *
 * It holds: boxing and SUGAR RAY fighters, some with hostile names and
 * owners (markup, quotes, ampersands); league turns of both rulesets
 * (promotions, gold records, title bouts, a champion); an exhibition bout
 * fought to its end in a channel with markup in its name; two live bouts,
 * the boxing one with one player's orders for the next round already
 * stored (the pages must never show them); duellists with equipment (some
 * pieces nearly worn out, one hostile name) in league turns of duels, a
 * duel fought to its end in a channel and a live duel three rounds in;
 * and, with FIGHTERS, that many more boxers with records spread over the
 * leagues (the benchmark's standings). It prints what the tests look for
 * as one JSON object.
 *
 * ringside-webgen --tick DB: the bot going on with that database: the
 * game resumes its live bouts and the live duel fights its next round
 * (a live duel's page must follow).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

static struct db *db;
static struct game *game;
static double clock_now = 1000;
static int64_t wall_now = 1790000000;
static uint64_t next_seed = 4242;

static void io_say(void *ctx, enum game_voice voice, const char *target, const char *text)
{
    (void)ctx, (void)voice, (void)target, (void)text;
}
static const char *io_nick_of(void *ctx, int64_t account_id)
{
    (void)ctx, (void)account_id;
    return NULL;
}
static int io_same_name(void *ctx, const char *a, const char *b)
{
    (void)ctx;
    return strcmp(a, b) == 0;
}
static double io_clock(void *ctx)
{
    (void)ctx;
    return clock_now;
}
static int64_t io_wall(void *ctx)
{
    (void)ctx;
    return wall_now;
}
static uint64_t io_seed(void *ctx)
{
    (void)ctx;
    return next_seed++;
}
static unsigned long io_mark(void *ctx)
{
    (void)ctx;
    return 1;
}
static int io_delivered(void *ctx, unsigned long mark)
{
    (void)ctx, (void)mark;
    return 1;
}
static void io_log(void *ctx, enum game_log level, const char *text)
{
    (void)ctx;
    if (level >= GAME_LOG_ERROR)
        fprintf(stderr, "webgen: game: %s\n", text);
}

static const struct game_io io = {
    .say = io_say,
    .nick_of = io_nick_of,
    .same_name = io_same_name,
    .clock = io_clock,
    .wall = io_wall,
    .seed = io_seed,
    .mark = io_mark,
    .delivered = io_delivered,
    .log = io_log,
};

static const struct game_config cfg = {
    .order_timeout = 60, .challenge_timeout = 300, .rounds = 10, .prefix = "!"};

static void die(const char *what, const char *why)
{
    fprintf(stderr, "webgen: %s: %s\n", what, why);
    exit(1);
}

static void answer(void *ctx, int how, const char *text)
{
    (void)ctx, (void)how, (void)text;
}

static struct game_caller caller(const char *name, int64_t id, const char *channel)
{
    return (struct game_caller){.account_id = id,
                                .account = name,
                                .nick = name,
                                .channel = channel,
                                .answer = answer,
                                .ctx = NULL};
}

/* The folded key of a name, as the bot folds (ASCII lower case will do). */
static void fold(char *key, size_t len, const char *name)
{
    snprintf(key, len, "%s", name);
    for (char *c = key; *c; c++)
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
}

/* An account (made if new) and a fighter of it; returns the fighter id and
 * sets *account. */
static int64_t fighter(const char *owner, const char *name, const struct sheet *s, const char *plan,
                       int64_t *account)
{
    char key[DB_NAME_MAX];
    struct db_account a;
    struct db_fighter f;

    fold(key, sizeof(key), owner);
    if (db_account_get(db, key, &a) == DB_OK)
        *account = a.id;
    else if (db_account_create(db, key, owner, "$y$none", wall_now, account) != DB_OK)
        die("account", db_errmsg(db));
    memset(&f, 0, sizeof(f));
    f.account_id = *account;
    snprintf(f.name, sizeof(f.name), "%s", name);
    f.sheet = *s;
    f.created = wall_now;
    fold(key, sizeof(key), name);
    if (db_fighter_create(db, key, &f) != DB_OK)
        die(name, db_errmsg(db));
    if (plan && db_plan_set(db, f.id, plan, wall_now) != DB_OK)
        die("plan", db_errmsg(db));
    return f.id;
}

static void order(struct game_caller *who, const char *text)
{
    if (game_order(game, who, NULL, text) != 0)
        die("order refused", text);
}

/* A duellist's sheet: abilities, then each slot's item and condition (in
 * percent of a new piece; 0 where nothing is). */
static struct sheet duellist(int str, int dex, int con, int intel, const int item[DUEL_SLOTS],
                             const double pct[DUEL_SLOTS])
{
    struct sheet s = {.rules = RULES_DUEL};
    s.u.duel.str = str;
    s.u.duel.dex = dex;
    s.u.duel.con = con;
    s.u.duel.intel = intel;
    for (int k = 0; k < DUEL_SLOTS; k++) {
        s.u.duel.item[k] = item[k];
        s.u.duel.cond[k] = item[k] ? (int)(pct[k] * (DUEL_COND_FULL / 100.0)) : 0;
    }
    if (duel_sheet_check(&s.u.duel) != 0)
        die("duellist", "not a legal sheet");
    return s;
}

/* The live duel's next round, as the bot would fight it on resuming. */
static int tick(const char *path)
{
    char err[256];
    struct db_bout rec;

    db = db_open(path, err, sizeof(err));
    if (!db)
        die(path, err);
    game = game_new(db, &io, &cfg, err, sizeof(err));
    if (!game)
        die("game", err);
    struct db_bout v[8];
    int n = 0, done = 0;
    db_bout_list(db, DB_BOUT_LIVE, v, 8, &n);
    game_connected(game);
    for (int i = 0; i < n; i++)
        if (v[i].rules == RULES_DUEL) {
            game_tick(game, NULL);
            for (int k = 0; k < 4 && !done; k++) {
                clock_now += 4;
                game_tick(game, NULL);
                done = db_bout_get(db, v[i].id, &rec) == DB_OK && rec.round > v[i].round;
            }
        }
    game_free(game);
    db_close(db);
    if (!done)
        die("tick", "no live duel fought a round");
    return 0;
}

int main(int argc, char **argv)
{
    char err[256];
    int64_t acc;

    if (argc == 3 && strcmp(argv[1], "--tick") == 0)
        return tick(argv[2]);
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: ringside-webgen DB [FIGHTERS] | --tick DB\n");
        return 2;
    }
    long extra = argc == 3 ? strtol(argv[2], NULL, 10) : 0;
    remove(argv[1]);
    db = db_open(argv[1], err, sizeof(err));
    if (!db)
        die(argv[1], err);
    game = game_new(db, &io, &cfg, err, sizeof(err));
    if (!game)
        die("game", err);

    /* Boxers, three of them with hostile names or owners. */
    static const char *const boxers[][2] = {
        {"<script>alert(1)</script>", "mallory"},
        {"\"><img src=x onerror=alert(2)>", "<b>trent</b>"},
        {"O'Brien & Sons", "peggy"},
        {"Rocky", "alice"},
        {"Apollo", "bob"},
        {"Drago", "carol"},
        {"Creed", "dave"},
        {"Duran", "erin"},
        {"Leonard", "frank"},
        {"Hagler", "grace"},
        {"Hearns", "heidi"},
        {"Benitez", "ivan"},
    };
    static const char *const plans[] = {
        "5/5/10 (ring); 4) 6/6/8; if opp is weak then 9/7/4 (allout)",
        "6/6/8 (inside); if endurance_percent < 40 then 4/4/12 (clinch)",
        "4H/8!/8 (inside); 6) 5/5/10 (counter)",
        "7/7/6 (allout); if my_cuts > 2 then 3/5/12 (outside)",
    };
    int64_t id[16], acct[16];
    int nb = (int)(sizeof(boxers) / sizeof(boxers[0]));
    for (int i = 0; i < nb; i++) {
        struct sheet s = {.rules = RULES_BOXING};
        s.u.boxing = (struct boxing_sheet){10 + i % 6, 11 + (i * 5) % 5, 13 - i % 4, 12 + i % 3,
                                           9 + (i * 7) % 6};
        id[i] = fighter(boxers[i][1], boxers[i][0], &s, plans[i % 4], &acct[i]);
    }
    static const char *const sugar[][2] = {
        {"Murphy", "alice"}, {"Robinson", "bob"}, {"LaMotta", "carol"},
        {"Basilio", "dave"}, {"Fullmer", "erin"}, {"<i>Kid</i> \"Gavilan\"", "mallory"},
        {"Turpin", "frank"}, {"Olson", "grace"},
    };
    static const char *const sugar_plans[] = {"6/0; 3) 3/3; if opp is weak then 8/0", "4/2",
                                              "3/3; 4) 5/1", "2/4; 5) 9/0"};
    int64_t sid[8];
    for (int i = 0; i < 8; i++) {
        struct sheet s = {.rules = RULES_SUGARRAY};
        s.u.sugarray = (struct sugarray_sheet){10 + i % 4, 18 + (i * 3) % 7};
        sid[i] = fighter(sugar[i][1], sugar[i][0], &s, sugar_plans[i % 4], &acc);
    }

    /* Duellists, with equipment, some of it nearly worn out. */
    static const char *const duel_names[][2] = {
        {"Conan", "alice"},    {"<u>Sonja</u> \"Red\" & Co", "mallory"},
        {"Valeria", "bob"},    {"Thulsa", "carol"},
        {"Subotai", "dave"},   {"Akiro", "erin"},
        {"Yasimina", "frank"}, {"Zula", "grace"},
    };
    static const int kits[4][DUEL_SLOTS] = {
        {DUEL_LONGSWORD, DUEL_PLATE, DUEL_LEATHER, DUEL_CHAINMAIL, DUEL_LEATHER, DUEL_LEATHER,
         DUEL_LEATHER},
        {DUEL_MACE, 0, DUEL_LEATHER, 0, 0, 0, DUEL_CHAINMAIL},
        {DUEL_SCIMITAR, DUEL_LEATHER, DUEL_CHAINMAIL, 0, DUEL_LEATHER, 0, DUEL_LEATHER},
        {DUEL_WAR_HAMMER, DUEL_CHAINMAIL, DUEL_LEATHER, 0, 0, DUEL_LEATHER, 0},
    };
    static const double wear[4][DUEL_SLOTS] = {
        {100, 100, 2, 100, 80, 100, 3},
        {4, 0, 100, 0, 0, 0, 100},
        {90, 1.5, 60, 0, 100, 0, 2.5},
        {100, 50, 3, 0, 0, 70, 0},
    };
    static const int abilities[4][4] = {
        {18, 14, 14, 10}, {14, 20, 12, 10}, {15, 17, 14, 10}, {18, 12, 16, 10}};
    static const char *const duel_plans[] = {"if health < 20 then yield", "fight", "fight",
                                             "if hishealth > 90 and round > 12 then yield"};
    int64_t did[8], dacct[8];
    for (int i = 0; i < 8; i++) {
        const int *a = abilities[i % 4];
        struct sheet s = duellist(a[0], a[1], a[2], a[3], kits[i % 4], wear[i % 4]);
        did[i] = fighter(duel_names[i][1], duel_names[i][0], &s, duel_plans[i % 4], &dacct[i]);
    }

    /* League turns, a day apart. */
    char lines[LEAGUE_SUMMARY_LINES][RENDER_LINE_MAX];
    int n;
    for (int t = 0; t < 10; t++) {
        wall_now += 86400;
        if (league_turn(game, RULES_BOXING, 1000 + (uint64_t)t, "#league", lines, &n, err,
                        sizeof(err)) != 0)
            die("boxing turn", err);
        if (league_turn(game, RULES_SUGARRAY, 2000 + (uint64_t)t, "#league", lines, &n, err,
                        sizeof(err)) != 0)
            die("sugarray turn", err);
        /* SUGAR RAY's first season ends after its fifth turn (an admin's
         * season end): an archive and a hall of fame for the pages. */
        struct game_caller boss = caller("boss", acct[0], NULL);
        if (t == 4 && game_season_end(game, &boss, RULES_SUGARRAY, "#league") != 0)
            die("season end", "refused");
        if (t < 6 && league_turn(game, RULES_DUEL, 3000 + (uint64_t)t, "#league", lines, &n, err,
                                 sizeof(err)) != 0)
            die("duel turn", err);
    }

    /* An exhibition fought to its end in a channel with markup in its
     * name: Rocky (alice) against Apollo (bob). */
    const char *chan = "#ring<&>\"";
    wall_now += 3600;
    next_seed = getenv("WEBGEN_SEED") ? strtoull(getenv("WEBGEN_SEED"), NULL, 10) : 16;
    struct game_caller ca = caller("alice", acct[3], chan), cb = caller("bob", acct[4], chan);
    if (game_challenge(game, &ca, acct[4], "bob", RULES_BOXING, 8, "Rocky", "Apollo") != 0 ||
        game_answer(game, &cb, GAME_ACCEPT, NULL, 0) != 0)
        die("exhibition", "challenge refused");
    game_tick(game, NULL);
    int64_t exhibition = 0;
    {
        struct db_bout v[4];
        int m = 0;
        db_bout_list(db, DB_BOUT_LIVE, v, 4, &m);
        if (m != 1)
            die("exhibition", "not live");
        exhibition = v[0].id;
    }
    /* Two spectators predict it (issue 26): scored at its end. */
    {
        char bw[24], c1[] = "Rocky", c2[] = "tko", d1[] = "Apollo", d2[] = "decision";
        char *wc[] = {c1, c2}, *wd[] = {d1, d2};
        struct game_caller pc = caller("carol", acct[5], chan), pd = caller("dave", acct[6], NULL);
        snprintf(bw, sizeof(bw), "%lld", (long long)exhibition);
        if (game_predict(game, &pc, bw, wc, 2) != 0 || game_predict(game, &pd, bw, wd, 2) != 0)
            die("predict", "refused");
    }
    struct game_caller pa = caller("alice", acct[3], NULL), pb = caller("bob", acct[4], NULL);
    static const char *const oa[] = {"5/5/10 (ring)",  "6/6/8", "4H/8!/8 (inside)",
                                     "5/5/10",         "6/7/7", "5/6/9 (counter)",
                                     "6/6/8 (inside)", "7/7/6"};
    static const char *const ob[] = {"5/6/9", "6/6/8 (counter)", "5/7/8", "5/5/10 (ring)",
                                     "6/6/8", "4B/7!/9",         "6/7/7", "7/7/6"};
    for (int r = 0; r < 8; r++) {
        struct db_bout rec;
        if (db_bout_get(db, exhibition, &rec) != DB_OK || rec.state != DB_BOUT_LIVE)
            break;
        wall_now += 120;
        order(&pa, oa[r]);
        order(&pb, ob[r]);
    }

    /* Two live bouts: boxing with three rounds fought and Drago's orders
     * for round 4 already in; SUGAR RAY with one round fought. */
    const char *pending = "9H/1/10 (cut)";
    struct game_caller cc = caller("carol", acct[5], "#ring"),
                       cd = caller("dave", acct[6], "#ring");
    if (game_challenge(game, &cc, acct[6], "dave", RULES_BOXING, 10, "Drago", "Creed") != 0 ||
        game_answer(game, &cd, GAME_ACCEPT, NULL, 0) != 0)
        die("live bout", "challenge refused");
    game_tick(game, NULL);
    struct game_caller pc = caller("carol", acct[5], NULL), pd = caller("dave", acct[6], NULL);
    for (int r = 0; r < 3; r++) {
        order(&pc, "5/5/10 (ring)");
        order(&pd, r == 1 ? "4H/8!/8 (inside)" : "6/6/8");
    }
    order(&pc, pending);
    struct game_caller sa = caller("alice", acct[3], "#sugar"),
                       sb = caller("bob", acct[4], "#sugar");
    if (game_challenge(game, &sa, acct[4], "bob", RULES_SUGARRAY, 0, "Murphy", "Robinson") != 0 ||
        game_answer(game, &sb, GAME_ACCEPT, NULL, 0) != 0)
        die("live sugarray bout", "challenge refused");
    game_tick(game, NULL);
    struct game_caller qa = caller("alice", acct[3], NULL), qb = caller("bob", acct[4], NULL);
    if (game_order(game, &qa, NULL, "2/2") != 0)
        die("sugarray order", "refused");
    if (game_order(game, &qb, NULL, "2/3") != 0)
        die("sugarray order", "refused");

    /* A duel fought to its end in a channel (it fights itself, a round
     * every 4 seconds), Conan (alice) against the hostile name (mallory);
     * then a live duel three rounds in, Valeria (bob) against Thulsa
     * (carol). */
    struct game_caller da = caller("alice", dacct[0], "#duel"),
                       dm = caller("mallory", dacct[1], "#duel");
    if (game_challenge(game, &da, dacct[1], "mallory", RULES_DUEL, 0, "Conan", duel_names[1][0]) !=
            0 ||
        game_answer(game, &dm, GAME_ACCEPT, NULL, 0) != 0)
        die("duel", "challenge refused");
    game_tick(game, NULL);
    for (int i = 0; i < 40 && game_live(game) > 2; i++) {
        clock_now += 4;
        wall_now += 4;
        game_tick(game, NULL);
    }
    struct db_bout live[8];
    int nlive = 0;
    int64_t duel = 0;
    {
        struct db_bout v[4];
        int m = 0;
        db_bout_list_over(db, RULES_DUEL, DB_BOUT_EXHIBITION, v, 4, &m);
        if (m != 1)
            die("duel", "not over");
        duel = v[0].id;
    }
    struct game_caller dv = caller("bob", dacct[2], "#duel"),
                       dt = caller("carol", dacct[3], "#duel");
    if (game_challenge(game, &dv, dacct[3], "carol", RULES_DUEL, 0, "Valeria", "Thulsa") != 0 ||
        game_answer(game, &dt, GAME_ACCEPT, NULL, 0) != 0)
        die("live duel", "challenge refused");
    game_tick(game, NULL);
    for (int i = 0; i < 3; i++) {
        clock_now += 4;
        game_tick(game, NULL);
    }

    db_bout_list(db, DB_BOUT_LIVE, live, 8, &nlive);
    int64_t live_boxing = 0, live_sugar = 0, live_duel = 0;
    for (int i = 0; i < nlive; i++)
        if (live[i].rules == RULES_BOXING)
            live_boxing = live[i].id;
        else if (live[i].rules == RULES_DUEL)
            live_duel = live[i].id;
        else
            live_sugar = live[i].id;

    /* Many more boxers, for the benchmark's standings. */
    if (extra > 0) {
        if (db_begin(db) != DB_OK)
            die("begin", db_errmsg(db));
        int64_t owner = 0;
        for (long i = 0; i < extra; i++) {
            char name[DB_NAME_MAX], key[DB_NAME_MAX], who[DB_NAME_MAX];
            struct db_fighter f;
            if (i % 50 == 0) {
                snprintf(who, sizeof(who), "owner%ld", i / 50);
                if (db_account_create(db, who, who, "$y$none", wall_now, &owner) != DB_OK)
                    die("account", db_errmsg(db));
            }
            memset(&f, 0, sizeof(f));
            snprintf(name, sizeof(name), "Boxer%ld", i);
            fold(key, sizeof(key), name);
            f.account_id = owner;
            snprintf(f.name, sizeof(f.name), "%s", name);
            f.sheet.rules = RULES_BOXING;
            f.sheet.u.boxing =
                (struct boxing_sheet){8 + (int)(i % 9), 8 + (int)(i * 7 % 9), 8 + (int)(i * 5 % 9),
                                      8 + (int)(i * 3 % 9), 8 + (int)(i * 11 % 9)};
            f.wins = (int)(i * 7 % 23);
            f.losses = (int)(i * 5 % 19);
            f.draws = (int)(i % 4);
            f.kos = f.wins / 3;
            f.tkos = f.wins / 5; /* some records with TKOs, kept apart (migration 9) */
            f.league = (int)(i % 10 == 0  ? LEAGUE_GOLD
                             : i % 3 == 0 ? LEAGUE_SILVER
                                          : LEAGUE_BRONZE);
            f.gold_record = f.league == LEAGUE_GOLD ? (int)(i * 13 % 40) : 0;
            f.created = wall_now;
            if (db_fighter_create(db, key, &f) != DB_OK)
                die(name, db_errmsg(db));
        }
        if (db_commit(db) != DB_OK)
            die("commit", db_errmsg(db));
    }

    /* A SUGAR RAY tournament of eight, fought from the plans to its end
     * (the bracket page). */
    struct game_caller boss = caller("boss", 999999, "#ring");
    const char *const twords[] = {"rules=sugarray", "size=8", "name=Spring", "Cup"};
    if (game_tournament_open(game, &boss, 1, twords, 4) != 0)
        die("tournament", "not opened");
    for (int i = 0; i < 8; i++) {
        struct db_fighter f;
        if (db_fighter_get_id(db, sid[i], &f) != DB_OK)
            die("tournament", db_errmsg(db));
        struct game_caller who = caller(f.owner, f.account_id, "#ring");
        if (game_tournament_join(game, &who, &f) != 0)
            die("tournament", "a join refused");
    }
    for (int k = 0; k < 3; k++)
        if (game_tournament_next(game, &boss, 1) != 0)
            die("tournament", "a round refused");

    struct db_bout title[64];
    int ntitle = 0;
    db_bout_list_over(db, RULES_BOXING, DB_BOUT_TITLE, title, 64, &ntitle);
    int64_t champ = 0;
    int defences = 0;
    db_champion_get(db, RULES_BOXING, &champ, &defences);
    struct db_bout dtitle[64];
    int ndtitle = 0;
    db_bout_list_over(db, RULES_DUEL, DB_BOUT_TITLE, dtitle, 64, &ndtitle);
    printf("{\"duel\": %lld, \"live_duel\": %lld, \"conan\": %lld, \"hostile_duel\": %lld, "
           "\"duel_title_bouts\": %d, ",
           (long long)duel, (long long)live_duel, (long long)did[0], (long long)did[1], ndtitle);
    printf("\"exhibition\": %lld, \"live_boxing\": %lld, \"live_sugarray\": %lld, "
           "\"pending\": \"%s\", \"hostile\": [%lld, %lld, %lld], \"hostile_sugarray\": %lld, "
           "\"rocky\": %lld, \"boxing_title_bouts\": %d, \"boxing_champion\": %lld, "
           "\"murphy\": %lld, \"tournament\": 1}\n",
           (long long)exhibition, (long long)live_boxing, (long long)live_sugar, pending,
           (long long)id[0], (long long)id[1], (long long)id[2], (long long)sid[5],
           (long long)id[3], ntitle, (long long)champ, (long long)sid[0]);
    game_free(game);
    db_close(db);
    return 0;
}
