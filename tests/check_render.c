/* check_render.c - commentary (game/render.c) on real bouts: the channel's
 * limits (four lines, one IRC message each, no CR/LF) over thousands of
 * random bouts, every knockdown, KO, injury, warning and DQ said, the cards
 * line against the engine's figures, replays reading the same, flavour
 * changing words but never facts, the seed 004 report lines to the
 * character, every kind of result, the blow-by-blow report and the tape. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "parse.h"
#include "tests.h"

#define SAY_LIMIT 300

/* 31 bytes: the longest name the database takes. */
static const char long_a[] = "Abcdefghijklmnopqrstuvwxyzabcde";
static const char long_b[] = "Zyxwvutsrqponmlkjihgfedcbazyxwv";

static void corners(struct render_corner c[SIDES], const char *a, const char *b,
                    const struct sheet s[SIDES])
{
    memset(c, 0, sizeof(struct render_corner) * SIDES);
    snprintf(c[0].name, sizeof(c[0].name), "%s", a);
    snprintf(c[1].name, sizeof(c[1].name), "%s", b);
    snprintf(c[0].owner, sizeof(c[0].owner), "alice");
    snprintf(c[1].owner, sizeof(c[1].owner), "bob");
    c[0].sheet = s[0];
    c[1].sheet = s[1];
}

static void random_sheet(struct rng *g, struct sheet *s)
{
    s->rules = RULES_BOXING;
    s->u.boxing =
        (struct boxing_sheet){rng_range(g, 1, 25), rng_range(g, 1, 25), rng_range(g, 1, 25),
                              rng_range(g, 1, 25), rng_range(g, 1, 25)};
}

/* Random legal orders; dirty fighting and going all out often enough to see
 * warnings, DQs and knockouts, and now and then a towel. */
static void random_order(struct rng *g, struct order *o)
{
    struct boxing_order *b = &o->u.boxing;

    memset(o, 0, sizeof(*o));
    o->rules = RULES_BOXING;
    b->agg = rng_range(g, 1, 12);
    b->pow = rng_range(g, 1, 19 - b->agg);
    b->def = rng_range(g, 1, 20 - b->agg - b->pow);
    b->target = (enum target)rng_range(g, 0, 2);
    b->dirty = rng_chance(g, 0.3);
    b->style = (enum style)rng_range(g, 0, STYLE_COUNT - 1);
    b->towel = rng_chance(g, 0.005);
}

/* Case-insensitive strstr. */
static const char *find_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);

    for (; *hay; hay++) {
        size_t i = 0;

        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return hay;
    }
    return NULL;
}

/* 1 if one of the lines (from `from` to `to`, exclusive) holds `name` and
 * one of the NULL-terminated keywords. */
static int said(char lines[][RENDER_LINE_MAX], int from, int to, const char *name,
                const char *const *keys)
{
    for (int i = from; i < to; i++) {
        if (!strstr(lines[i], name))
            continue;
        for (int k = 0; keys[k]; k++)
            if (find_ci(lines[i], keys[k]))
                return 1;
    }
    return 0;
}

static const char *const keys_down[] = {"down", "canvas", "floor", "drop", NULL};
static const char *const keys_ko[] = {"out", NULL};
static const char *const keys_sr_ko[] = {"out", "down", "collapse", "go on", NULL};
static const char *const keys_injury[] = {"cut", "gash", "swell", "swollen", "nose",
                                          "jaw", "eye",  "injur", NULL};
static const char *const keys_warning[] = {"warn", "point", NULL};
static const char *const keys_dq[] = {"disqualified", NULL};
static const char *const keys_clinch[] = {"holding", NULL};
static const char *const keys_tko[] = {"stop",  "bell",  "towel", "referee", "doctor", "stool",
                                       "can't", "spent", "out",   "injur",   NULL};

/* The words of a knockout said (say_ko), none of a stoppage's. */
static const char *const keys_ko_said[] = {"knocked out", "out cold",       "counted out",
                                           "Lights out",  "beat the count", NULL};

/* 1 if side v also has a TKO among the round's events. */
static int tko_too(const struct events *ev, int v)
{
    for (int k = 0; k < ev->n; k++)
        if (ev->ev[k].type == EV_TKO && ev->ev[k].side == v)
            return 1;
    return 0;
}

/* The cards line as the engine's figures say it must read; a conceded
 * round is not scored, and says who conceded it (and the totals after round
 * 1: in round 1 they would be 0-0 all round) in a sentence, with its full
 * stop: a packed message goes on after it with the result ("...; totals
 * (Rocky-Apollo) 9-10, 10-10, 10-9. And that's it! ..."). */
static void expected_cards(const struct render_corner c[SIDES], const struct bout *b, int scored,
                           char *buf, size_t len)
{
    const struct boxing_bout *bb = &b->u.boxing;
    struct str t;

    str_init_fixed(&t, buf, len);
    if (scored) {
        str_add(&t, "Cards (%s-%s) %d-%d, %d-%d, %d-%d; totals ", c[0].name, c[1].name,
                bb->last[0].cards[0], bb->last[1].cards[0], bb->last[0].cards[1],
                bb->last[1].cards[1], bb->last[0].cards[2], bb->last[1].cards[2]);
    } else {
        int t0 = bb->last[0].order.towel, t1 = bb->last[1].order.towel;

        str_add(&t, "Round %d not scored, conceded by ", b->round);
        if (t0 && t1)
            str_cat(&t, "both corners");
        else
            str_add(&t, "%s's corner", c[t1].name);
        if (b->round == 1) {
            str_cat(&t, ".");
            return;
        }
        str_add(&t, "; totals (%s-%s) ", c[0].name, c[1].name);
    }
    str_add(&t, "%d-%d, %d-%d, %d-%d", bb->f[0].cards[0], bb->f[1].cards[0], bb->f[0].cards[1],
            bb->f[1].cards[1], bb->f[0].cards[2], bb->f[1].cards[2]);
    if (!scored)
        str_cat(&t, ".");
}

/* How often each kind of event was seen and checked. */
struct seen {
    long rounds, knockdowns, kos, injuries, aggravated, warnings, fouls, dqs, clinches, tkos,
        towels, summaries, four_lines;
};

/* REQUIRE, showing the round's lines when it fails. */
#define REQUIRE_SAID(cond)                                                                         \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg("%s:%d: requirement failed: %s\n%s\n%s\n%s\n%s", __FILE__, __LINE__,      \
                         #cond, lines[0], n > 1 ? lines[1] : "", n > 2 ? lines[2] : "",            \
                         n > 3 ? lines[3] : "");                                                   \
    } while (0)

/* The lines between the first and the last of a boxing round (n lines)
 * say every incident of its events. */
static void check_incidents(const struct render_corner c[SIDES], const struct events *ev,
                            char lines[][RENDER_LINE_MAX], int n, struct seen *seen)
{
    int mid = n - 1;

    for (int k = 0; k < ev->n; k++) {
        const struct event *e = &ev->ev[k];
        const char *name = e->side >= 0 && e->side < SIDES ? c[e->side].name : "";

        switch (e->type) {
        case EV_KNOCKDOWN:
            REQUIRE_SAID(said(lines, 1, mid, name, keys_down));
            seen->knockdowns++;
            break;
        case EV_KO:
            /* A knockout after the referee or the doctor stopped him is
             * not said: the result is the TKO. */
            if (tko_too(ev, e->side))
                REQUIRE_SAID(!said(lines, 1, mid, name, keys_ko_said));
            else
                REQUIRE_SAID(said(lines, 1, mid, name, keys_ko));
            seen->kos++;
            break;
        case EV_INJURY:
            REQUIRE_SAID(said(lines, 1, mid, name, keys_injury));
            seen->injuries++;
            break;
        case EV_AGGRAVATED:
            REQUIRE_SAID(said(lines, 1, mid, name, keys_injury));
            seen->aggravated++;
            break;
        case EV_WARNING:
            REQUIRE_SAID(said(lines, 1, mid, name, keys_warning));
            seen->warnings++;
            break;
        case EV_FOUL:
            REQUIRE_SAID(said(lines, 1, mid, name, keys_warning));
            seen->fouls++;
            break;
        case EV_DQ:
            REQUIRE_SAID(said(lines, 1, mid, name, keys_dq));
            seen->dqs++;
            break;
        case EV_CLINCH_PENALTY:
            REQUIRE_SAID(said(lines, 1, mid, name, keys_clinch));
            seen->clinches++;
            break;
        case EV_TKO:
            REQUIRE_SAID(said(lines, 1, mid, name, keys_tko));
            seen->tkos++;
            break;
        default:
            break;
        }
    }
}

/* Checks one rendered boxing round against its events. */
static void check_boxing_round(const struct render_corner c[SIDES], const struct bout *b,
                               const struct events *ev, char lines[][RENDER_LINE_MAX], int n,
                               struct seen *seen)
{
    const struct boxing_side_round *l = b->u.boxing.last;
    int towel = l[0].order.towel || l[1].order.towel;
    char want[RENDER_LINE_MAX];

    REQUIRE(n >= 2 && n <= RENDER_ROUND_LINES);
    for (int i = 0; i < n; i++) {
        REQUIRE(lines[i][0] != '\0');
        REQUIRE(strlen(lines[i]) <= SAY_LIMIT);
        REQUIRE(strchr(lines[i], '\r') == NULL && strchr(lines[i], '\n') == NULL);
    }
    expected_cards(c, b, !towel, want, sizeof(want));
    REQUIRE(strcmp(lines[n - 1], want) == 0);
    seen->rounds++;
    seen->four_lines += n == 4;
    if (towel) {
        seen->towels++;
        REQUIRE(n == 2);
        for (int i = 0; i < SIDES; i++)
            if (l[i].order.towel)
                REQUIRE(strstr(lines[0], c[i].name) && find_ci(lines[0], "towel"));
        return;
    }
    /* Line 1: the round, both styles' fighters, the punches. */
    char round[32];
    snprintf(round, sizeof(round), "\002Round %d\002: ", b->round);
    REQUIRE(strncmp(lines[0], round, strlen(round)) == 0);
    REQUIRE(strstr(lines[0], c[0].name) && strstr(lines[0], c[1].name));
    for (int i = 0; i < SIDES; i++) {
        char num[16];
        snprintf(num, sizeof(num), "%ld", lround(l[i].landed));
        REQUIRE(strstr(lines[0], num));
    }
    /* The lines between the first and the last say every incident. */
    int mid = n - 1;
    check_incidents(c, ev, lines, n, seen);
    /* Nothing happened: two lines, action and cards. */
    int incidents = 0;
    for (int k = 0; k < ev->n; k++)
        incidents += ev->ev[k].type >= EV_WARNING && ev->ev[k].type <= EV_TKO;
    REQUIRE((incidents == 0) == (n == 2));
    /* Lines of fragments ("Name: ...") when the sentences did not fit. */
    for (int i = 1; i < mid; i++)
        for (int v = 0; v < SIDES; v++) {
            size_t len = strlen(c[v].name);
            seen->summaries += strncmp(lines[i], c[v].name, len) == 0 && lines[i][len] == ':';
        }
}

/* Fights random boxing bout `seed`, rendering each round with the bout's
 * own flavour stream (as the bot does) and checking it. */
static void fight_and_check(uint64_t seed, const char *a, const char *b_name, struct seen *seen)
{
    struct rng g;
    struct sheet s[SIDES];
    struct render_corner c[SIDES];
    struct bout b;
    struct bout_rng br;
    struct events ev;
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
    char res[RENDER_RESULT_MAX][RENDER_LINE_MAX];

    rng_seed(&g, seed, 77);
    random_sheet(&g, &s[0]);
    random_sheet(&g, &s[1]);
    corners(c, a, b_name, s);
    REQUIRE(bout_init(&b, RULES_BOXING, s, rng_range(&g, 3, 15)) == 0);
    bout_rng_seed(&br, seed);
    while (!b.result.over) {
        struct order o[SIDES];

        random_order(&g, &o[0]);
        random_order(&g, &o[1]);
        REQUIRE(bout_round(&b, o, &br, &ev) == 0);
        int n = render_round(c, &b, &ev, &br.flavour, lines);
        check_boxing_round(c, &b, &ev, lines, n, seen);
    }
    int n = render_result(c, &b, &br.flavour, res);
    REQUIRE(n == 1);
    REQUIRE(strlen(res[0]) <= SAY_LIMIT);
    if (b.result.winner >= 0)
        REQUIRE(strstr(res[0], c[b.result.winner].name));
}

START_TEST(test_round_limits_and_facts)
{
    struct seen seen = {0};

    for (uint64_t seed = 1; seed <= 4000; seed++)
        fight_and_check(seed, "Rocky", "Apollo", &seen);
    /* The longest names push rounds full of incidents into the fallback. */
    for (uint64_t seed = 1; seed <= 4000; seed++)
        fight_and_check(seed, long_a, long_b, &seen);
    ck_assert_int_gt(seen.rounds, 10000);
    ck_assert_int_gt(seen.knockdowns, 0);
    ck_assert_int_gt(seen.kos, 0);
    ck_assert_int_gt(seen.injuries, 0);
    ck_assert_int_gt(seen.aggravated, 0);
    ck_assert_int_gt(seen.warnings, 0);
    ck_assert_int_gt(seen.fouls, 0);
    ck_assert_int_gt(seen.dqs, 0);
    ck_assert_int_gt(seen.clinches, 0);
    ck_assert_int_gt(seen.tkos, 0);
    ck_assert_int_gt(seen.towels, 0);
    ck_assert_int_gt(seen.four_lines, 0);
}
END_TEST

/* A round crowded with incidents, built by hand: it must still fit four
 * lines and name every one. */
START_TEST(test_crowded_round)
{
    struct sheet s[SIDES];
    struct render_corner c[SIDES];
    struct bout b;
    struct events ev = {0};
    struct rng fl;
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
    struct seen seen = {0};

    for (int i = 0; i < SIDES; i++) {
        s[i].rules = RULES_BOXING;
        s[i].u.boxing = (struct boxing_sheet){10, 10, 10, 10, 10};
    }
    corners(c, long_a, long_b, s);
    ck_assert_int_eq(bout_init(&b, RULES_BOXING, s, 12), 0);
    b.round = 3;
    for (int i = 0; i < SIDES; i++) {
        b.u.boxing.last[i].order = (struct boxing_order){.agg = 5, .pow = 5, .def = 10};
        b.u.boxing.last[i].landed = 20 + i;
        b.u.boxing.last[i].cards[0] = 8;
        events_add(&ev, EV_WARNING, i, 4, 0, 0, 0);
        events_add(&ev, EV_DQ, i, 0, 0, 0, 0);
        events_add(&ev, EV_CLINCH_PENALTY, i, 0, 0, 0, 0);
        for (int loc = 0; loc < INJ_COUNT; loc++)
            events_add(&ev, EV_INJURY, i, loc, 2, 0, 2);
        for (int loc = 0; loc < INJ_COUNT; loc++)
            events_add(&ev, EV_AGGRAVATED, i, loc, 3, 2, 3);
        events_add(&ev, EV_KNOCKDOWN, i, 1, 0, 0, 0);
        events_add(&ev, EV_KNOCKDOWN, i, 2, 0, 0, 0);
        events_add(&ev, EV_KNOCKDOWN, i, 3, 0, 0, 0);
        events_add(&ev, EV_KO, i, 0, 0, 0, 0);
        events_add(&ev, EV_TKO, i, TKO_AGGRAVATED, 0, 0, 0);
    }
    for (uint64_t f = 1; f <= 200; f++) {
        rng_seed(&fl, f, 2);
        int n = render_round(c, &b, &ev, &fl, lines);
        check_boxing_round(c, &b, &ev, lines, n, &seen);
        ck_assert_int_eq(n, 4);
    }
    ck_assert_int_gt(seen.summaries, 0);
}
END_TEST

/* The same bout rendered twice reads the same; another flavour seed may
 * change words but never the fight, the styles or the cards. */
START_TEST(test_replay_and_flavour)
{
    int differed = 0;

    for (uint64_t seed = 1; seed <= 300; seed++) {
        char text[3][16][RENDER_ROUND_LINES][RENDER_LINE_MAX];
        int count[3][16];
        int rounds = 0;

        for (int run = 0; run < 3; run++) {
            struct rng g;
            struct sheet s[SIDES];
            struct render_corner c[SIDES];
            struct bout b;
            struct bout_rng br;
            struct events ev;

            rng_seed(&g, seed, 77);
            random_sheet(&g, &s[0]);
            random_sheet(&g, &s[1]);
            corners(c, "Rocky", "Apollo", s);
            REQUIRE(bout_init(&b, RULES_BOXING, s, 15) == 0);
            bout_rng_seed(&br, seed);
            if (run == 2)
                rng_seed(&br.flavour, seed + 1000000, 2);
            rounds = 0;
            while (!b.result.over) {
                struct order o[SIDES];

                random_order(&g, &o[0]);
                random_order(&g, &o[1]);
                REQUIRE(bout_round(&b, o, &br, &ev) == 0);
                count[run][rounds] = render_round(c, &b, &ev, &br.flavour, text[run][rounds]);
                rounds++;
            }
        }
        for (int r = 0; r < rounds; r++) {
            REQUIRE(count[0][r] == count[1][r]);
            for (int i = 0; i < count[0][r]; i++)
                REQUIRE(strcmp(text[0][r][i], text[1][r][i]) == 0);
            /* Facts: the cards line, and line 1 up to the punches. */
            REQUIRE(strcmp(text[0][r][count[0][r] - 1], text[2][r][count[2][r] - 1]) == 0);
            const char *dot = strstr(text[0][r][0], ". ");
            if (dot)
                REQUIRE(strncmp(text[0][r][0], text[2][r][0], (size_t)(dot - text[0][r][0])) == 0);
            differed += strcmp(text[0][r][0], text[2][r][0]) != 0;
        }
    }
    ck_assert_int_gt(differed, 100);
}
END_TEST

/* The common phrases come in several wordings. */
START_TEST(test_wording_varies)
{
    struct sheet s[SIDES];
    struct render_corner c[SIDES];
    struct bout b;
    struct events ev = {0};
    struct rng fl;
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
    char first[8][RENDER_LINE_MAX];
    int distinct = 0;

    for (int i = 0; i < SIDES; i++) {
        s[i].rules = RULES_BOXING;
        s[i].u.boxing = (struct boxing_sheet){10, 10, 10, 10, 10};
    }
    corners(c, "Rocky", "Apollo", s);
    ck_assert_int_eq(bout_init(&b, RULES_BOXING, s, 12), 0);
    b.round = 1;
    b.u.boxing.last[0].order.style = STYLE_INSIDE;
    b.u.boxing.last[1].order.style = STYLE_RING;
    b.u.boxing.last[0].landed = 31.2;
    b.u.boxing.last[1].landed = 12.6;
    events_add(&ev, EV_KNOCKDOWN, 1, 1, 0, 0, 0);
    for (uint64_t f = 1; f <= 200 && distinct < 8; f++) {
        rng_seed(&fl, f, 2);
        ck_assert_int_eq(render_round(c, &b, &ev, &fl, lines), 3);
        ck_assert_ptr_nonnull(strstr(lines[0], "Rocky works inside, Apollo uses the ring."));
        ck_assert_ptr_nonnull(strstr(lines[0], "31"));
        ck_assert_ptr_nonnull(strstr(lines[0], "13"));
        int known = 0;
        for (int i = 0; i < distinct; i++)
            known |= strcmp(first[i], lines[0]) == 0;
        if (!known)
            snprintf(first[distinct++], RENDER_LINE_MAX, "%s", lines[0]);
    }
    ck_assert_int_ge(distinct, 3);
}
END_TEST

/* ------------------------------------------------------------ sugarray */

static void sugarray_example(struct bout *b, struct render_corner c[SIDES], int rounds_to_fight,
                             char round_lines[SUGARRAY_ROUNDS][RENDER_ROUND_LINES][RENDER_LINE_MAX],
                             int counts[SUGARRAY_ROUNDS])
{
    static const int ord[5][4] = {
        {2, 3, 6, 0}, {3, 0, 3, 3}, {2, 2, 3, 4}, {0, 5, 4, 2}, {3, 1, 3, 3}};
    struct sheet s[SIDES];
    struct bout_rng br;
    struct events ev;

    s[0].rules = s[1].rules = RULES_SUGARRAY;
    s[0].u.sugarray = (struct sugarray_sheet){10, 26};
    s[1].u.sugarray = (struct sugarray_sheet){12, 21};
    corners(c, "Miller", "Murphy", s);
    ck_assert_int_eq(bout_init(b, RULES_SUGARRAY, s, 0), 0);
    bout_rng_seed(&br, 1);
    for (int r = 0; r < rounds_to_fight; r++) {
        struct order o[SIDES];

        o[0].rules = o[1].rules = RULES_SUGARRAY;
        o[0].u.sugarray = (struct sugarray_order){.attack = ord[r][0], .defence = ord[r][1]};
        o[1].u.sugarray = (struct sugarray_order){.attack = ord[r][2], .defence = ord[r][3]};
        ck_assert_int_eq(bout_round(b, o, &br, &ev), 0);
        counts[r] = render_round(c, b, &ev, &br.flavour, round_lines[r]);
    }
}

START_TEST(test_sugarray_example_lines)
{
    struct bout b;
    struct render_corner c[SIDES];
    char rl[SUGARRAY_ROUNDS][RENDER_ROUND_LINES][RENDER_LINE_MAX];
    int counts[SUGARRAY_ROUNDS];
    char res[RENDER_RESULT_MAX][RENDER_LINE_MAX];
    struct rng fl;
    char buf[RENDER_LINE_MAX];

    sugarray_example(&b, c, 5, rl, counts);
    rng_seed(&fl, 9, 2);
    ck_assert_int_eq(render_result(c, &b, &fl, res), 2);
    ck_assert_str_eq(res[0], "Murphy (12,21) 6/0 (15) 3/3 (14) 3/4 (12) 4/2 (11) 3/3 (10) PW");
    ck_assert_str_eq(res[1], "Miller (10,26) 2/3 (19) 3/0 (13) 2/2 (11) 0/5 (11) 3/1 ( 6)");
    int len = render_sugarray_line(c, &b, 1, " PW", buf, sizeof(buf));
    ck_assert_int_eq(len, (int)strlen(res[0]));
    /* The sheet is the one the bout started with, whatever the corner
     * says after the bout's changes. */
    c[1].sheet.u.sugarray.skill = 13;
    render_sugarray_line(c, &b, 1, " PW", buf, sizeof(buf));
    ck_assert_str_eq(buf, res[0]);
    /* Truncated like snprintf: same length reported, terminated. */
    ck_assert_int_eq(render_sugarray_line(c, &b, 1, " PW", buf, 10), len);
    ck_assert_str_eq(buf, "Murphy (1");

    /* The rounds: one or two lines, orders and endurances after the round. */
    for (int r = 0; r < SUGARRAY_ROUNDS; r++) {
        ck_assert_int_ge(counts[r], 1);
        ck_assert_int_le(counts[r], 2);
        for (int i = 0; i < counts[r]; i++)
            ck_assert_int_le(strlen(rl[r][i]), SAY_LIMIT);
    }
    ck_assert_ptr_nonnull(strstr(rl[0][0], "Miller 2/3, Murphy 6/0"));
    ck_assert_ptr_nonnull(strstr(rl[0][1], "Miller 19, Murphy 15"));
    ck_assert_ptr_nonnull(strstr(rl[4][1], "Miller 6, Murphy 10"));
    ck_assert_ptr_nonnull(strstr(rl[4][1], "attack totals 10-19"));

    render_score(c, &b, buf, sizeof(buf));
    ck_assert_str_eq(buf, "Final, after round 5 of 5: endurance Miller 6, Murphy 10; attack totals "
                          "10-19 (Murphy ahead)");
}
END_TEST

START_TEST(test_sugarray_ko_and_tie)
{
    struct sheet s[SIDES];
    struct render_corner c[SIDES];
    struct order o[SIDES];
    struct bout b;
    struct bout_rng br;
    struct events ev;
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
    char res[RENDER_RESULT_MAX][RENDER_LINE_MAX];

    s[0].rules = s[1].rules = RULES_SUGARRAY;
    s[0].u.sugarray = (struct sugarray_sheet){20, 10};
    s[1].u.sugarray = (struct sugarray_sheet){10, 10};
    corners(c, "Miller", "Murphy", s);
    ck_assert_int_eq(bout_init(&b, RULES_SUGARRAY, s, 0), 0);
    bout_rng_seed(&br, 1);
    o[0].rules = o[1].rules = RULES_SUGARRAY;
    o[0].u.sugarray = (struct sugarray_order){.attack = 6, .defence = 0};
    o[1].u.sugarray = (struct sugarray_order){.attack = 0, .defence = 0};
    ck_assert_int_eq(bout_round(&b, o, &br, &ev), 0);
    ck_assert_int_eq(render_round(c, &b, &ev, &br.flavour, lines), 2);
    ck_assert_ptr_nonnull(strstr(lines[1], "Murphy"));
    ck_assert_ptr_nonnull(find_ci(lines[1], "out"));
    ck_assert_int_eq(render_result(c, &b, &br.flavour, res), 2);
    ck_assert_str_eq(res[0], "Miller (20,10) 6/0 (10) KO");
    ck_assert_str_eq(res[1], "Murphy (10,10) 0/0 (-2)");

    s[0].u.sugarray = (struct sugarray_sheet){11, 22};
    s[1].u.sugarray = (struct sugarray_sheet){11, 22};
    corners(c, "Miller", "Murphy", s);
    ck_assert_int_eq(bout_init(&b, RULES_SUGARRAY, s, 0), 0);
    o[0].u.sugarray = (struct sugarray_order){.attack = 1, .defence = 1};
    o[1].u.sugarray = (struct sugarray_order){.attack = 1, .defence = 1};
    while (!b.result.over)
        ck_assert_int_eq(bout_round(&b, o, &br, &ev), 0);
    ck_assert_int_eq(render_result(c, &b, &br.flavour, res), 2);
    ck_assert_str_eq(res[0], "Miller (11,22) 1/1 (22) 1/1 (22) 1/1 (22) 1/1 (22) 1/1 (22) TIE");
    ck_assert_str_eq(res[1], "Murphy (11,22) 1/1 (22) 1/1 (22) 1/1 (22) 1/1 (22) 1/1 (22) TIE");
}
END_TEST

START_TEST(test_sugarray_random_rounds)
{
    for (uint64_t seed = 1; seed <= 3000; seed++) {
        struct rng g;
        struct sheet s[SIDES];
        struct render_corner c[SIDES];
        struct bout b;
        struct bout_rng br;
        struct events ev;
        char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
        char res[RENDER_RESULT_MAX][RENDER_LINE_MAX];
        char report[2048];
        int results = 0;

        rng_seed(&g, seed, 5);
        for (int i = 0; i < SIDES; i++) {
            s[i].rules = RULES_SUGARRAY;
            s[i].u.sugarray = (struct sugarray_sheet){rng_range(&g, 1, 30), rng_range(&g, 1, 60)};
        }
        corners(c, long_a, long_b, s);
        REQUIRE(bout_init(&b, RULES_SUGARRAY, s, 0) == 0);
        bout_rng_seed(&br, seed);
        while (!b.result.over) {
            struct order o[SIDES];

            for (int i = 0; i < SIDES; i++) {
                o[i].rules = RULES_SUGARRAY;
                o[i].u.sugarray = (struct sugarray_order){.attack = rng_range(&g, 0, 12),
                                                          .defence = rng_range(&g, 0, 12),
                                                          .towel = rng_chance(&g, 0.02)};
            }
            REQUIRE(bout_round(&b, o, &br, &ev) == 0);
            int n = render_round(c, &b, &ev, &br.flavour, lines);
            REQUIRE(n >= 1 && n <= 2);
            for (int i = 0; i < n; i++) {
                REQUIRE(strlen(lines[i]) <= SAY_LIMIT);
                REQUIRE(!strchr(lines[i], '\n') && !strchr(lines[i], '\r'));
            }
            for (int k = 0; k < ev.n; k++) {
                const char *name = c[ev.ev[k].side >= 0 ? ev.ev[k].side : 0].name;
                if (ev.ev[k].type == EV_KO)
                    REQUIRE(said(lines, 1, n, name, keys_sr_ko));
                if (ev.ev[k].type == EV_TKO)
                    REQUIRE(strstr(lines[0], name) && strstr(lines[0], "towel"));
                if (ev.ev[k].type == EV_RESULT)
                    results++;
            }
            int len = render_round_report(c, &b, &ev, RENDER_PLAIN, report, sizeof(report));
            REQUIRE(len > 0 && (size_t)len < sizeof(report));
        }
        REQUIRE(results == 1);
        REQUIRE(render_result(c, &b, &br.flavour, res) == 2);
        int w = b.result.winner;
        REQUIRE(strncmp(res[0], c[w >= 0 ? w : 0].name, strlen(c[0].name)) == 0);
        if (w < 0)
            REQUIRE(strstr(res[0], " TIE") && strstr(res[1], " TIE"));
        else
            REQUIRE(strstr(res[0], b.result.method == METHOD_KO    ? " KO"
                                   : b.result.method == METHOD_TKO ? " TKO"
                                                                   : " PW"));
    }
}
END_TEST

/* -------------------------------------------------------------- results */

static void result_bout(struct bout *b, struct render_corner c[SIDES], int winner,
                        enum method method, enum method drawn_by, enum tko_reason reason,
                        enum decision decision, const int cards[JUDGES][SIDES])
{
    struct sheet s[SIDES];

    for (int i = 0; i < SIDES; i++) {
        s[i].rules = RULES_BOXING;
        s[i].u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12};
    }
    corners(c, "Rocky", "Apollo", s);
    ck_assert_int_eq(bout_init(b, RULES_BOXING, s, 12), 0);
    b->round = method == METHOD_DECISION || drawn_by == METHOD_DECISION ? 12 : 5;
    b->result.over = 1;
    b->result.winner = winner;
    b->result.method = method;
    b->result.drawn_by = drawn_by;
    b->result.reason = reason;
    b->result.decision = decision;
    b->result.round = b->round;
    if (cards)
        memcpy(b->result.cards, cards, sizeof(b->result.cards));
}

/* render_result's one line, which must contain `want`. */
static void check_result(const struct bout *b, const struct render_corner c[SIDES],
                         const char *want)
{
    char res[RENDER_RESULT_MAX][RENDER_LINE_MAX];

    for (uint64_t f = 1; f <= 8; f++) {
        struct rng fl;

        rng_seed(&fl, f, 2);
        ck_assert_int_eq(render_result(c, b, &fl, res), 1);
        ck_assert_msg(strstr(res[0], want), "\"%s\" lacks \"%s\"", res[0], want);
        ck_assert_int_le(strlen(res[0]), SAY_LIMIT);
    }
}

START_TEST(test_result_kinds)
{
    static const int split[JUDGES][SIDES] = {{115, 113}, {113, 115}, {116, 112}};
    static const int unan[JUDGES][SIDES] = {{110, 118}, {111, 117}, {112, 116}};
    static const int major[JUDGES][SIDES] = {{115, 113}, {114, 114}, {116, 112}};
    static const int even[JUDGES][SIDES] = {{114, 114}, {114, 114}, {114, 114}};
    static const int one_each[JUDGES][SIDES] = {{114, 114}, {115, 113}, {113, 115}};
    static const int one_even2[JUDGES][SIDES] = {{114, 114}, {114, 114}, {113, 115}};
    struct bout b;
    struct render_corner c[SIDES];

    result_bout(&b, c, 0, METHOD_KO, METHOD_NONE, TKO_NONE, DECISION_NONE, NULL);
    check_result(&b, c, "Rocky wins by KO in round 5!");
    result_bout(&b, c, 1, METHOD_DQ, METHOD_NONE, TKO_NONE, DECISION_NONE, NULL);
    check_result(&b, c, "Apollo wins by DQ in round 5 (Rocky disqualified)!");

    result_bout(&b, c, 0, METHOD_TKO, METHOD_NONE, TKO_ENDURANCE, DECISION_NONE, NULL);
    check_result(&b, c, "Rocky wins by TKO in round 5 (no endurance left)!");
    result_bout(&b, c, 0, METHOD_TKO, METHOD_NONE, TKO_FATIGUE, DECISION_NONE, NULL);
    check_result(&b, c, "Rocky wins by TKO in round 5 (could not answer the bell)!");
    result_bout(&b, c, 0, METHOD_TKO, METHOD_NONE, TKO_INJURY, DECISION_NONE, NULL);
    b.u.boxing.f[1].inj[INJ_ABOVE_LEFT_EYE] = (struct injury){4, 8, 3};
    check_result(&b, c, "(the doctor stopped it: gash above the left eye)!");
    result_bout(&b, c, 0, METHOD_TKO, METHOD_NONE, TKO_AGGRAVATED, DECISION_NONE, NULL);
    b.u.boxing.f[1].inj[INJ_NOSE] = (struct injury){4, 8, 3};
    check_result(&b, c, "(the doctor stopped it: broken nose aggravated)!");
    result_bout(&b, c, 1, METHOD_TKO, METHOD_NONE, TKO_BROKEN_JAW, DECISION_NONE, NULL);
    check_result(&b, c,
                 "Apollo wins by TKO in round 5 (the doctor stopped it: broken jaw "
                 "aggravated)!");
    result_bout(&b, c, 0, METHOD_TKO, METHOD_NONE, TKO_EYES_SHUT, DECISION_NONE, NULL);
    check_result(&b, c, "(both eyes swollen shut)!");
    result_bout(&b, c, 0, METHOD_TKO, METHOD_NONE, TKO_TOWEL, DECISION_NONE, NULL);
    check_result(&b, c, "(the corner threw in the towel)!");

    result_bout(&b, c, 0, METHOD_DECISION, METHOD_NONE, TKO_NONE, DECISION_SPLIT, split);
    check_result(&b, c, "Rocky wins a split decision (115-113, 113-115, 116-112).");
    result_bout(&b, c, 1, METHOD_DECISION, METHOD_NONE, TKO_NONE, DECISION_UNANIMOUS, unan);
    check_result(&b, c, "Apollo wins a unanimous decision (118-110, 117-111, 116-112).");
    result_bout(&b, c, 0, METHOD_DECISION, METHOD_NONE, TKO_NONE, DECISION_MAJORITY, major);
    check_result(&b, c, "Rocky wins a majority decision (115-113, 114-114, 116-112).");

    result_bout(&b, c, -1, METHOD_DRAW, METHOD_DECISION, TKO_NONE, DECISION_NONE, even);
    check_result(&b, c, "A unanimous draw (114-114, 114-114, 114-114).");
    result_bout(&b, c, -1, METHOD_DRAW, METHOD_DECISION, TKO_NONE, DECISION_NONE, one_each);
    check_result(&b, c, "A split draw (114-114, 115-113, 113-115).");
    result_bout(&b, c, -1, METHOD_DRAW, METHOD_DECISION, TKO_NONE, DECISION_NONE, one_even2);
    check_result(&b, c, "A majority draw (114-114, 114-114, 113-115).");
    result_bout(&b, c, -1, METHOD_DRAW, METHOD_KO, TKO_NONE, DECISION_NONE, NULL);
    check_result(&b, c, "Draw: Rocky and Apollo knock each other out in round 5!");
    result_bout(&b, c, -1, METHOD_DRAW, METHOD_TKO, TKO_NONE, DECISION_NONE, NULL);
    check_result(&b, c, "Draw: Rocky and Apollo are both stopped in round 5!");
    result_bout(&b, c, -1, METHOD_DRAW, METHOD_DQ, TKO_NONE, DECISION_NONE, NULL);
    check_result(&b, c, "Draw: Rocky and Apollo are both disqualified in round 5!");

    /* Flavour picks the opening words only. */
    char res[RENDER_RESULT_MAX][RENDER_LINE_MAX];
    struct rng fl;
    int plain = 0, led = 0;
    result_bout(&b, c, 0, METHOD_KO, METHOD_NONE, TKO_NONE, DECISION_NONE, NULL);
    for (uint64_t f = 1; f <= 50; f++) {
        rng_seed(&fl, f, 2);
        render_result(c, &b, &fl, res);
        if (strcmp(res[0], "Rocky wins by KO in round 5!") == 0)
            plain++;
        else
            led++;
    }
    ck_assert_int_gt(plain, 0);
    ck_assert_int_gt(led, 0);
}
END_TEST

/* ---------------------------------------------- words agree with results */

/* A duel to its first round: Conan and Bob (both bare-handed), Bob's order
 * a yield when `yield`. */
static void duel_round(struct bout *b, struct render_corner c[SIDES], int yield, struct events *ev)
{
    struct sheet s[SIDES];
    struct order o[SIDES];
    struct bout_rng br;

    for (int i = 0; i < SIDES; i++) {
        memset(&s[i], 0, sizeof(s[i]));
        s[i].rules = RULES_DUEL;
        s[i].u.duel = (struct duel_sheet){.str = 14, .dex = 14, .con = 14, .intel = 14};
        o[i].rules = RULES_DUEL;
        o[i].u.duel.yield = i == 1 && yield;
    }
    corners(c, "Conan", "Bob", s);
    ck_assert_int_eq(bout_init(b, RULES_DUEL, s, 0), 0);
    bout_rng_seed(&br, 1);
    ck_assert_int_eq(bout_round(b, o, &br, ev), 0);
}

/* A forfeit (the loser conceded by his own word) and a duel plan's yield
 * are results of their own, not a TKO. */
START_TEST(test_forfeit_and_yield_words)
{
    struct bout b;
    struct render_corner c[SIDES];
    struct events ev;
    char buf[RENDER_LINE_MAX];

    result_bout(&b, c, 0, METHOD_TKO, METHOD_NONE, TKO_TOWEL, DECISION_NONE, NULL);
    c[1].conceded = 1;
    check_result(&b, c, "Rocky wins by forfeit in round 5 (Apollo conceded)!");
    render_result_text(c, &b, buf, sizeof(buf));
    ck_assert_str_eq(buf, "Rocky wins by forfeit in round 5 (Apollo conceded)!");
    /* The winner's own word changes nothing: the loser's counts. */
    c[1].conceded = 0;
    c[0].conceded = 1;
    render_result_text(c, &b, buf, sizeof(buf));
    ck_assert_str_eq(buf, "Rocky wins by TKO in round 5 (the corner threw in the towel)!");

    /* The report of a forfeited round says so. */
    struct sheet s[SIDES];
    struct order o[SIDES];
    struct bout_rng br;
    char report[4096];
    for (int i = 0; i < SIDES; i++) {
        s[i].rules = RULES_BOXING;
        s[i].u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12};
        ruleset_get(RULES_BOXING)->order_default(&o[i]);
    }
    corners(c, "Rocky", "Apollo", s);
    ck_assert_int_eq(bout_init(&b, RULES_BOXING, s, 12), 0);
    bout_rng_seed(&br, 1);
    bout_order_towel(RULES_BOXING, &o[1]);
    ck_assert_int_eq(bout_round(&b, o, &br, &ev), 0);
    c[1].conceded = 1;
    render_round_report(c, &b, &ev, RENDER_PLAIN, report, sizeof(report));
    ck_assert_ptr_nonnull(strstr(report, "\n  Apollo concedes: a forfeit.\n  Result: Rocky wins by "
                                         "forfeit in round 1 (Apollo conceded)!"));
    render_round_report(c, &b, &ev, RENDER_SCHEMA3, report, sizeof(report));
    ck_assert_ptr_nonnull(strstr(report, "Apollo is stopped (the corner threw in the towel).\n  "
                                         "Result: Rocky wins by TKO in round 1 (the corner threw "
                                         "in the towel)!"));

    duel_round(&b, c, 1, &ev);
    ck_assert_int_eq(b.result.reason, TKO_TOWEL);
    render_result_text(c, &b, buf, sizeof(buf));
    ck_assert_str_eq(buf, "Conan wins in round 1: Bob yields!");
    c[1].conceded = 1;
    render_result_text(c, &b, buf, sizeof(buf));
    ck_assert_str_eq(buf, "Conan wins by forfeit in round 1 (Bob conceded)!");

    /* Lists of results (the web pages) keep them apart too. */
    ck_assert_str_eq(render_win_how(RULES_DUEL, METHOD_TKO, TKO_TOWEL, 0), "yield");
    ck_assert_str_eq(render_win_how(RULES_BOXING, METHOD_TKO, TKO_TOWEL, 0), "towel");
    ck_assert_str_eq(render_win_how(RULES_SUGARRAY, METHOD_TKO, TKO_TOWEL, 0), "towel");
    ck_assert_str_eq(render_win_how(RULES_BOXING, METHOD_TKO, TKO_ENDURANCE, 0), "TKO");
    ck_assert_str_eq(render_win_how(RULES_BOXING, METHOD_KO, TKO_NONE, 0), "KO");
    ck_assert_str_eq(render_win_how(RULES_DUEL, METHOD_KO, TKO_NONE, 0), "KO");
    ck_assert_str_eq(render_win_how(RULES_BOXING, METHOD_DQ, TKO_NONE, 0), "DQ");
    /* The loser's own word: a forfeit in every ruleset, as the result line
     * and the records say it (not a towel, not a yield). */
    ck_assert_str_eq(render_win_how(RULES_BOXING, METHOD_TKO, TKO_TOWEL, 1), "forfeit");
    ck_assert_str_eq(render_win_how(RULES_SUGARRAY, METHOD_TKO, TKO_TOWEL, 1), "forfeit");
    ck_assert_str_eq(render_win_how(RULES_DUEL, METHOD_TKO, TKO_TOWEL, 1), "forfeit");
    ck_assert_str_eq(render_win_how(RULES_BOXING, METHOD_TKO, TKO_ENDURANCE, 1), "TKO");
}
END_TEST

/* How the wins ended, kept apart in every record's words. */
START_TEST(test_record_words)
{
    struct sheet s[SIDES];
    struct render_corner c[SIDES];
    char buf[RENDER_LINE_MAX], lines[3][RENDER_LINE_MAX];

    for (int i = 0; i < SIDES; i++) {
        s[i].rules = RULES_BOXING;
        s[i].u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12};
    }
    corners(c, "Rocky", "Apollo", s);
    ck_assert_int_eq(render_wins(&c[0], 0, buf, sizeof(buf)), 0);
    ck_assert_str_eq(buf, "");
    render_wins(&c[0], 1, buf, sizeof(buf));
    ck_assert_str_eq(buf, "0 by KO");
    c[0].wins = 9;
    c[0].kos = 3;
    c[0].tkos = 1;
    c[0].towels = 2;
    c[0].dqs = 1;
    c[0].forfeits = 1;
    int n = render_wins(&c[0], 0, buf, sizeof(buf));
    ck_assert_str_eq(buf, "3 KOs, 1 TKO, 2 towels, 1 DQ, 1 forfeit");
    ck_assert_int_eq(n, (int)strlen(buf));
    ck_assert_int_eq(render_wins(&c[0], 0, NULL, 0), n);
    render_wins(&c[0], 1, buf, sizeof(buf));
    ck_assert_str_eq(buf, "3 by KO, 1 by TKO, 2 by towel, 1 by DQ, 1 by forfeit");
    c[0].kos = 0;
    c[0].towels = 0;
    c[0].dqs = 0;
    c[0].forfeits = 0;
    c[0].tkos = 2;
    render_wins(&c[0], 1, buf, sizeof(buf));
    ck_assert_str_eq(buf, "0 by KO, 2 by TKO");
    ck_assert_int_eq(render_tape(c, RULES_BOXING, 12, 12, lines, 3), 2);
    ck_assert_str_eq(lines[0], "Bout #12, boxing, 12 rounds: Rocky (alice) STR 12 SPD 12 AGL 12 "
                               "TGH 12 HGT 12, 9-0-0 (2 TKOs)");
    /* A duellist's towels are yields. */
    c[1].sheet.rules = RULES_DUEL;
    c[1].towels = 1;
    c[1].kos = 2;
    render_wins(&c[1], 0, buf, sizeof(buf));
    ck_assert_str_eq(buf, "2 KOs, 1 yield");
    c[1].towels = 2;
    render_wins(&c[1], 1, buf, sizeof(buf));
    ck_assert_str_eq(buf, "2 by KO, 2 by yield");
}
END_TEST

/* A knockout the referee stopped first is not said; the stoppage is (its
 * flavour draw is still made: the golden transcripts did not change). An
 * aggravated injury whose name does
 * not change is not said "now" again. */
START_TEST(test_voided_ko_and_same_injury)
{
    struct sheet s[SIDES];
    struct render_corner c[SIDES];
    struct bout b;
    struct events ev = {0};
    struct rng fl;
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
    char report[4096];

    for (int i = 0; i < SIDES; i++) {
        s[i].rules = RULES_BOXING;
        s[i].u.boxing = (struct boxing_sheet){12, 12, 12, 12, 12};
    }
    corners(c, "Rocky", "Apollo", s);
    ck_assert_int_eq(bout_init(&b, RULES_BOXING, s, 12), 0);
    b.round = 3;
    for (int i = 0; i < SIDES; i++)
        b.u.boxing.last[i].order = (struct boxing_order){.agg = 5, .pow = 5, .def = 10};
    b.result = (struct result){
        .over = 1, .winner = 1, .method = METHOD_TKO, .reason = TKO_ENDURANCE, .round = 3};
    events_add(&ev, EV_KO, 0, 0, 0, 0, 0);
    events_add(&ev, EV_TKO, 0, TKO_ENDURANCE, 0, 0, 0);
    for (uint64_t f = 1; f <= 50; f++) {
        rng_seed(&fl, f, 2);
        int n = render_round(c, &b, &ev, &fl, lines);
        for (int i = 0; i < n; i++)
            for (int k = 0; keys_ko_said[k]; k++)
                ck_assert_msg(!strstr(lines[i], keys_ko_said[k]), "%s", lines[i]);
        ck_assert_int_ge(n, 2);
        ck_assert_msg(said(lines, 1, n - 1, "Rocky", keys_tko), "%s", lines[1]);
    }
    /* Nor is it marked on the bout's page. */
    ck_assert_int_eq(render_event_counts(&ev, 0), 0);
    ck_assert_int_eq(render_event_counts(&ev, 1), 1);
    render_round_report(c, &b, &ev, RENDER_PLAIN, report, sizeof(report));
    ck_assert_ptr_nonnull(
        strstr(report, "\n  Rocky would have been counted out, but was stopped first.\n  Rocky is "
                       "stopped (no endurance left)."));

    /* An injured jaw of level 2 made 3 is still an injured jaw. */
    b.result = (struct result){0};
    struct events inj = {0};
    events_add(&inj, EV_AGGRAVATED, 0, INJ_JAW, 3, 2, 2.0);
    for (uint64_t f = 1; f <= 50; f++) {
        rng_seed(&fl, f, 2);
        int n = render_round(c, &b, &inj, &fl, lines);
        for (int i = 0; i < n; i++)
            ck_assert_msg(!strstr(lines[i], "now an injured jaw"), "%s", lines[i]);
    }
    render_round_report(c, &b, &inj, RENDER_PLAIN, report, sizeof(report));
    ck_assert_ptr_nonnull(strstr(report, "\n  Rocky's injured jaw is aggravated (level 3, "));
    render_round_report(c, &b, &inj, RENDER_SCHEMA3, report, sizeof(report));
    ck_assert_ptr_nonnull(strstr(report, "is aggravated: now injured jaw (level 3, "));
    /* A change of name is said. */
    inj.ev[0].a = INJ_NOSE;
    inj.ev[0].b = 4;
    render_round_report(c, &b, &inj, RENDER_PLAIN, report, sizeof(report));
    ck_assert_ptr_nonnull(
        strstr(report, "\n  Rocky's fractured nose is aggravated: now broken nose (level 4, "));
}
END_TEST

/* A knocked-out duellist has 0 health, never less, wherever it is said. */
START_TEST(test_duel_health_not_below_0)
{
    struct bout b;
    struct render_corner c[SIDES];
    struct events ev;
    char buf[4096], lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
    struct rng fl;

    duel_round(&b, c, 0, &ev);
    ck_assert(!b.result.over);
    b.u.duel.f[1].health = -4.7;
    b.u.duel.last.after[1].health = -4.7;
    rng_seed(&fl, 1, 2);
    int n = render_round(c, &b, &ev, &fl, lines);
    for (int i = 0; i < n; i++)
        ck_assert_msg(!strstr(lines[i], "-4.7"), "%s", lines[i]);
    render_round_report(c, &b, &ev, RENDER_PLAIN, buf, sizeof(buf));
    ck_assert_ptr_null(strstr(buf, "-4.7"));
    ck_assert_ptr_nonnull(strstr(buf, "\nBob: health 0.0, "));
    render_score(c, &b, buf, sizeof(buf));
    ck_assert_msg(strstr(buf, "Bob 0.0") && !strstr(buf, "-4.7"), "%s", buf);
    render_corner_report(c, &b, 0, buf, sizeof(buf));
    ck_assert_msg(strstr(buf, "Bob has 0.0 health") && !strstr(buf, "-4.7"), "%s", buf);
}
END_TEST

/* The SUGAR RAY help teaches the fatigue the engine takes: every effort
 * its table says, and the help says that table. */
START_TEST(test_sugarray_help_teaches_the_engine)
{
    static const struct {
        int lo, hi, loss;
    } taught[] = {{-100, 0, 0}, {1, 4, 1},   {5, 7, 2},   {8, 9, 3},   {10, 10, 4},
                  {11, 11, 5},  {12, 12, 6}, {13, 13, 7}, {14, 14, 8}, {15, 15, 10}};
    const char *help = grammar_get(RULES_SUGARRAY)->order_help;

    ck_assert_ptr_nonnull(strstr(help, "costs you endurance for its effort, 3 x attack + 2 x "
                                       "defence - skill: nothing for 0 or less, 1 for 1-4, 2 for "
                                       "5-7, 3 for 8-9, then 4, 5, 6, 7, 8 and 10 for 10 to 15, "
                                       "and 2 x (effort - 10) above 15."));
    for (size_t i = 0; i < sizeof(taught) / sizeof(taught[0]); i++)
        for (int e = taught[i].lo; e <= taught[i].hi; e++)
            ck_assert_int_eq(sugarray_fatigue_loss(e), taught[i].loss);
    for (int e = 16; e <= 3 * SUGARRAY_ORDER_MAX + 2 * SUGARRAY_ORDER_MAX; e++)
        ck_assert_int_eq(sugarray_fatigue_loss(e), 2 * (e - 10));
}
END_TEST

/* ------------------------------------------------------- round report */

/* Each fighter's order and each judge's count in report `buf` of round
 * `b`: the punches whole, the damage and endurance to one decimal. A
 * conceded round has only the orders and the endurance. */
static void check_report_sides(const struct render_corner c[SIDES], const struct bout *b,
                               const char *buf)
{
    int conceded = b->u.boxing.last[0].order.towel || b->u.boxing.last[1].order.towel;
    char want[512];

    for (int i = 0; i < SIDES; i++) {
        const struct boxing_side_round *l = &b->u.boxing.last[i];
        struct order oo = {.rules = RULES_BOXING, .u.boxing = l->order};
        char ord[64];

        if (l->order.towel)
            snprintf(ord, sizeof(ord), "towel");
        else
            order_format(&oo, ord, sizeof(ord));
        if (conceded) {
            snprintf(want, sizeof(want), "\n%s: %s%s; endurance %.1f\n", c[i].name, ord,
                     l->order.towel ? "" : ", not fought", l->endurance);
            REQUIRE(strstr(buf, want));
            continue;
        }
        snprintf(want, sizeof(want), "\n%s: %s; ", c[i].name, ord);
        REQUIRE(strstr(buf, want));
        snprintf(want, sizeof(want),
                 "; landed %ld of %d, judges count %d, %d, %d; damage dealt %.1f; "
                 "endurance %.1f to %.1f\n",
                 lround(l->landed), l->thrown, l->counts[0], l->counts[1], l->counts[2], l->damage,
                 l->end_begin, l->endurance);
        REQUIRE(strstr(buf, want));
    }
}

/* Every event of `ev` in report `buf`, one indented line each, in order. */
static void check_report_events(const struct render_corner c[SIDES], const struct events *ev,
                                const char *buf)
{
    char want[512];
    int lines = 0;

    for (const char *p = strstr(buf, "\n  "); p; p = strstr(p + 1, "\n  "))
        lines++;
    REQUIRE(lines == ev->n);
    const char *at = buf;
    for (int k = 0; k < ev->n; k++) {
        const struct event *e = &ev->ev[k];
        if (e->type == EV_CARD) {
            snprintf(want, sizeof(want), "\n  Judge %d: %d-%d.", e->a + 1, e->b, e->c);
            at = strstr(at, want);
            REQUIRE(at);
        }
        if (e->type == EV_INJURY || e->type == EV_KNOCKDOWN || e->type == EV_KO ||
            e->type == EV_WARNING || e->type == EV_DQ) {
            snprintf(want, sizeof(want), "\n  %s", c[e->side].name);
            at = strstr(at, want);
            REQUIRE(at);
        }
        if (e->type == EV_RESULT)
            REQUIRE(strstr(at, "\n  Result: "));
    }
}

/* Checks the report of the round `b` has just resolved with events `ev`. */
static void check_report(const struct render_corner c[SIDES], const struct bout *b,
                         const struct events *ev)
{
    int conceded = b->u.boxing.last[0].order.towel || b->u.boxing.last[1].order.towel;
    char buf[16384], small[64], want[512];

    int len = render_round_report(c, b, ev, RENDER_PLAIN, buf, sizeof(buf));
    REQUIRE(len > 0 && (size_t)len == strlen(buf));
    REQUIRE(render_round_report(c, b, ev, RENDER_PLAIN, small, sizeof(small)) == len);
    REQUIRE(render_round_report(c, b, ev, RENDER_PLAIN, NULL, 0) == len); /* only counted */
    REQUIRE(strlen(small) == sizeof(small) - 1);
    REQUIRE(strncmp(small, buf, sizeof(small) - 1) == 0);
    check_report_sides(c, b, buf);
    /* The last line: the cards, or who conceded. */
    expected_cards(c, b, !conceded, want, sizeof(want));
    const char *last = strrchr(buf, '\n');
    REQUIRE(last && strcmp(last + 1, want) == 0);
    /* No figure with two decimals, none of "0.00 damage". */
    for (const char *p = buf; *p; p++)
        REQUIRE(!(p[0] == '.' && isdigit((unsigned char)p[1]) && isdigit((unsigned char)p[2])));
    check_report_events(c, ev, buf);
}

START_TEST(test_round_report)
{
    long checked = 0;

    for (uint64_t seed = 1; seed <= 1000; seed++) {
        struct rng g;
        struct sheet s[SIDES];
        struct render_corner c[SIDES];
        struct bout b;
        struct bout_rng br;
        struct events ev;

        rng_seed(&g, seed, 77);
        random_sheet(&g, &s[0]);
        random_sheet(&g, &s[1]);
        corners(c, "Rocky", "Apollo", s);
        REQUIRE(bout_init(&b, RULES_BOXING, s, 12) == 0);
        bout_rng_seed(&br, seed);
        while (!b.result.over) {
            struct order o[SIDES];

            random_order(&g, &o[0]);
            random_order(&g, &o[1]);
            REQUIRE(bout_round(&b, o, &br, &ev) == 0);
            check_report(c, &b, &ev);
            checked++;
        }
    }
    ck_assert_int_gt(checked, 1000);
}
END_TEST

/* The report's figures as people read them: punches whole (to the
 * nearest), damage and the other reals to one decimal, no "0.00 damage";
 * and the same round in RENDER_SCHEMA3, the text of reports stored before
 * schema 4, which keeps "%.2f". */
/* Round 1 of boxing bout `b` between corners c[] set by hand, with its
 * events in `ev` (empty before): figures that round to show how each is
 * written. */
static void figures_round(struct render_corner c[SIDES], struct bout *b, struct events *ev)
{
    struct sheet s[SIDES];

    for (int i = 0; i < SIDES; i++) {
        s[i].rules = RULES_BOXING;
        s[i].u.boxing = (struct boxing_sheet){10, 10, 10, 10, 10};
    }
    corners(c, "Rocky", "Apollo", s);
    ck_assert_int_eq(bout_init(b, RULES_BOXING, s, 12), 0);
    b->round = 1;
    struct boxing_side_round *l = b->u.boxing.last;
    l[0] = (struct boxing_side_round){.str = 11.9,
                                      .spd = 12.04,
                                      .agl = 8.55,
                                      .agg = 4,
                                      .thrown = 32,
                                      .landed = 15.8,
                                      .counts = {15, 16, 17},
                                      .damage = 4.14,
                                      .end_begin = 120,
                                      .endurance = 111.33};
    l[1] = (struct boxing_side_round){.str = 13,
                                      .spd = 14,
                                      .agl = 12,
                                      .agg = 5,
                                      .thrown = 40,
                                      .landed = 40,
                                      .counts = {40, 40, 40},
                                      .damage = 0,
                                      .end_begin = 110,
                                      .endurance = 102.96};
    struct order o;
    struct parse_error err;
    ck_assert_int_eq(order_parse(RULES_BOXING, "4/8/8 (inside)", &o, &err), 0);
    l[0].order = o.u.boxing;
    ck_assert_int_eq(order_parse(RULES_BOXING, "5/5/10", &o, &err), 0);
    l[1].order = o.u.boxing;
    events_add(ev, EV_PUNCHES, 0, 32, 0, 0, 15.8);
    events_add(ev, EV_PUNCHES, 1, 40, 0, 0, 40);
    events_add(ev, EV_DAMAGE, 0, 0, 0, 0, 4.14);
    events_add(ev, EV_DAMAGE, 1, 0, 0, 0, 0);
    events_add(ev, EV_INJURY, 1, INJ_SWELL_RIGHT_EYE, 1, 0, 0);
    events_add(ev, EV_INJURY, 1, INJ_ABOVE_LEFT_EYE, 2, 0, 2);
    events_add(ev, EV_AGGRAVATED, 1, INJ_ABOVE_LEFT_EYE, 3, 2, 3.25);
    events_add(ev, EV_FATIGUE, 0, 0, 0, 0, 4);
}

START_TEST(test_report_figures)
{
    struct render_corner c[SIDES];
    struct bout b;
    struct events ev = {0};
    char buf[2048];

    figures_round(c, &b, &ev);
    render_round_report(c, &b, &ev, RENDER_PLAIN, buf, sizeof(buf));
    ck_assert_str_eq(
        buf, "Round 1 of 12\n"
             "Rocky: 4/8/8 (inside); STR 11.9 SPD 12.0 AGL 8.6 AGG 4 (rest 0); landed 16 of "
             "32, judges count 15, 16, 17; damage dealt 4.1; endurance 120.0 to "
             "111.3\n"
             "Apollo: 5/5/10; STR 13.0 SPD 14.0 AGL 12.0 AGG 5 (rest 0); landed 40 of "
             "40, judges count 40, 40, 40; damage dealt 0.0; endurance 110.0 to "
             "103.0\n"
             "  Rocky throws 32 and lands 16.\n"
             "  Apollo throws 40 and lands 40.\n"
             "  Rocky deals 4.1 damage.\n"
             "  Apollo deals no damage.\n"
             "  Apollo is injured: swelling of the right eye (level 1, no damage).\n"
             "  Apollo is injured: cut above the left eye (level 2, 2.0 damage).\n"
             "  Apollo's cut above the left eye is aggravated: now serious cut above "
             "the left eye (level 3, 3.2 damage).\n"
             "  Rocky loses 4.0 endurance to fatigue.\n"
             "Cards (Rocky-Apollo) 0-0, 0-0, 0-0; totals 0-0, 0-0, 0-0");
    render_round_report(c, &b, &ev, RENDER_SCHEMA3, buf, sizeof(buf));
    ck_assert_str_eq(buf,
                     "Round 1 of 12\n"
                     "Rocky: 4/8/8 (inside); STR 11.90 SPD 12.04 AGL 8.55 AGG 4 (rest 0); landed "
                     "15.80 of 32, judges count 15, 16, 17; damage dealt 4.14; endurance "
                     "120.00 to 111.33\n"
                     "Apollo: 5/5/10; STR 13.00 SPD 14.00 AGL 12.00 AGG 5 (rest 0); landed "
                     "40.00 of 40, judges count 40, 40, 40; damage dealt 0.00; endurance "
                     "110.00 to 102.96\n"
                     "  Rocky throws 32 and lands 15.80.\n"
                     "  Apollo throws 40 and lands 40.00.\n"
                     "  Rocky deals 4.14 damage.\n"
                     "  Apollo deals 0.00 damage.\n"
                     "  Apollo is injured: swelling of the right eye (level 1, 0.00 damage).\n"
                     "  Apollo is injured: cut above the left eye (level 2, 2.00 damage).\n"
                     "  Apollo's cut above the left eye is aggravated: now serious cut above "
                     "the left eye (level 3, 3.25 damage).\n"
                     "  Rocky loses 4.00 endurance to fatigue.\n"
                     "Cards (Rocky-Apollo) 0-0, 0-0, 0-0; totals 0-0, 0-0, 0-0");

    /* Half a punch rounds up, as the channel's lround does. */
    struct event e = {.type = EV_PUNCHES, .side = 0, .a = 40, .x = 39.5};
    render_event(c, &b, &e, buf, sizeof(buf));
    ck_assert_str_eq(buf, "Rocky throws 40 and lands 40.");
    e.x = 24.49;
    render_event(c, &b, &e, buf, sizeof(buf));
    ck_assert_str_eq(buf, "Rocky throws 40 and lands 24.");
    e = (struct event){.type = EV_DAMAGE, .side = 1, .x = 0.04};
    render_event(c, &b, &e, buf, sizeof(buf));
    ck_assert_str_eq(buf, "Apollo deals no damage.");
    e.x = 0.05;
    render_event(c, &b, &e, buf, sizeof(buf));
    ck_assert_str_eq(buf, "Apollo deals 0.1 damage.");
}
END_TEST

/* Fights boxing bout `b` (Rocky and Apollo, 5/5/10 each) until Rocky's
 * corner throws in the towel in round `towel` (Apollo's too with `both`);
 * the last round's events in `ev`, its channel lines in `lines`. Returns
 * their count. */
static int towel_bout(struct bout *b, struct render_corner c[SIDES], int towel, int both,
                      struct events *ev, char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX])
{
    struct sheet s[SIDES];
    struct bout_rng br;
    struct parse_error err;
    int n = 0;

    s[0].rules = s[1].rules = RULES_BOXING;
    s[0].u.boxing = (struct boxing_sheet){14, 12, 11, 12, 11};
    s[1].u.boxing = (struct boxing_sheet){13, 14, 12, 11, 12};
    corners(c, "Rocky", "Apollo", s);
    ck_assert_int_eq(bout_init(b, RULES_BOXING, s, 12), 0);
    bout_rng_seed(&br, 9);
    for (int r = 1; r <= towel; r++) {
        struct order o[SIDES];

        ck_assert_int_eq(order_parse(RULES_BOXING, "5/5/10", &o[0], &err), 0);
        ck_assert_int_eq(order_parse(RULES_BOXING, "5/5/10", &o[1], &err), 0);
        if (r == towel) {
            bout_order_towel(RULES_BOXING, &o[0]);
            if (both)
                bout_order_towel(RULES_BOXING, &o[1]);
        }
        ck_assert_int_eq(bout_round(b, o, &br, ev), 0);
        n = render_round(c, b, ev, &br.flavour, lines);
    }
    ck_assert(b->result.over);
    return n;
}

/* A round a corner conceded says so, in the channel and in the report,
 * instead of "Not scored; totals 0-0, 0-0, 0-0"; the schema 3 form keeps
 * the old text. */
START_TEST(test_conceded_round)
{
    struct render_corner c[SIDES];
    struct bout b;
    struct events ev;
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
    char buf[4096];

    ck_assert_int_eq(towel_bout(&b, c, 1, 0, &ev, lines), 2);
    ck_assert_ptr_nonnull(strstr(lines[0], "towel"));
    ck_assert_str_eq(lines[1], "Round 1 not scored, conceded by Rocky's corner.");
    render_round_report(c, &b, &ev, RENDER_PLAIN, buf, sizeof(buf));
    ck_assert_str_eq(buf, "Round 1 of 12\n"
                          "Rocky: towel; endurance 120.0\n"
                          "Apollo: 5/5/10, not fought; endurance 110.0\n"
                          "  Rocky is stopped (the corner threw in the towel).\n"
                          "  Result: Apollo wins by TKO in round 1 (the corner threw in the "
                          "towel)!\n"
                          "Round 1 not scored, conceded by Rocky's corner.");
    ck_assert_ptr_null(strstr(buf, "0-0"));
    render_round_report(c, &b, &ev, RENDER_SCHEMA3, buf, sizeof(buf));
    ck_assert_ptr_nonnull(strstr(buf, "\nRocky: towel; STR 0.00 SPD 0.00 AGL 0.00 AGG 0 (rest 0); "
                                      "landed 0.00 of 0, judges count 0, 0, 0; damage dealt 0.00; "
                                      "endurance 120.00 to 120.00\n"));
    ck_assert_ptr_nonnull(
        strstr(buf, "\nCards (Rocky-Apollo) 0-0, 0-0, 0-0; totals 0-0, 0-0, 0-0"));

    /* Later, the totals so far; both corners at once. */
    ck_assert_int_eq(towel_bout(&b, c, 3, 1, &ev, lines), 2);
    char want[256];
    const int *t0 = b.u.boxing.f[0].cards, *t1 = b.u.boxing.f[1].cards;
    snprintf(want, sizeof(want),
             "Round 3 not scored, conceded by both corners; totals (Rocky-Apollo) %d-%d, %d-%d, "
             "%d-%d.",
             t0[0], t1[0], t0[1], t1[1], t0[2], t1[2]);
    ck_assert(t0[0] + t1[0] > 0);
    ck_assert_str_eq(lines[1], want);
    render_round_report(c, &b, &ev, RENDER_PLAIN, buf, sizeof(buf));
    ck_assert_str_eq(strrchr(buf, '\n') + 1, want);
    ck_assert_ptr_nonnull(strstr(buf, "\nApollo: towel; endurance "));
    /* One who conceded by his own word (a forfeit) is named alone, no
     * corner of his: beside the other's corner, or both of them. */
    c[0].conceded = 1;
    render_round_report(c, &b, &ev, RENDER_PLAIN, buf, sizeof(buf));
    ck_assert_ptr_nonnull(
        strstr(buf, "\nRound 3 not scored, conceded by Rocky and Apollo's corner; totals "));
    c[1].conceded = 1;
    render_round_report(c, &b, &ev, RENDER_PLAIN, buf, sizeof(buf));
    ck_assert_ptr_nonnull(strstr(buf, "\nRound 3 not scored, conceded by both fighters; totals "));
}
END_TEST

/* SUGAR RAY: a conceded round's report names the towel, not "0/0". */
START_TEST(test_conceded_round_sugarray)
{
    struct sheet s[SIDES];
    struct render_corner c[SIDES];
    struct bout b;
    struct bout_rng br;
    struct events ev;
    struct order o[SIDES];
    char buf[2048];

    s[0].rules = s[1].rules = RULES_SUGARRAY;
    s[0].u.sugarray = (struct sugarray_sheet){10, 26};
    s[1].u.sugarray = (struct sugarray_sheet){12, 21};
    corners(c, "Miller", "Murphy", s);
    ck_assert_int_eq(bout_init(&b, RULES_SUGARRAY, s, 0), 0);
    bout_rng_seed(&br, 1);
    o[0].rules = o[1].rules = RULES_SUGARRAY;
    o[0].u.sugarray = (struct sugarray_order){.attack = 2, .defence = 3};
    o[1].u.sugarray = (struct sugarray_order){.attack = 6, .defence = 0};
    ck_assert_int_eq(bout_round(&b, o, &br, &ev), 0);
    bout_order_towel(RULES_SUGARRAY, &o[1]);
    ck_assert_int_eq(bout_round(&b, o, &br, &ev), 0);
    render_round_report(c, &b, &ev, RENDER_PLAIN, buf, sizeof(buf));
    ck_assert_str_eq(buf, "Round 2 of 5\n"
                          "Miller: not fought; endurance 19; attack total 2\n"
                          "Murphy: towel; endurance 15; attack total 6\n"
                          "  Murphy is stopped (the corner threw in the towel).\n"
                          "  Result: Miller wins by TKO in round 2 (the corner threw in the "
                          "towel)!\n"
                          "Round 2 not fought, conceded by Murphy's corner.");
    render_round_report(c, &b, &ev, RENDER_SCHEMA3, buf, sizeof(buf));
    ck_assert_ptr_nonnull(strstr(buf, "\nMiller: 0/0; endurance 19; attack total 2\n"));
    ck_assert_ptr_null(strstr(buf, "conceded"));
}
END_TEST

/* ------------------------------------------------------ tape and score */

START_TEST(test_tape_and_score)
{
    struct sheet s[SIDES];
    struct render_corner c[SIDES];
    struct bout b;
    char lines[3][RENDER_LINE_MAX];
    char buf[RENDER_LINE_MAX];

    s[0].rules = s[1].rules = RULES_BOXING;
    s[0].u.boxing = (struct boxing_sheet){14, 12, 11, 12, 11};
    s[1].u.boxing = (struct boxing_sheet){13, 13, 12, 11, 12};
    corners(c, "Rocky", "Apollo", s);
    c[0].wins = 3;
    c[0].losses = 1;
    c[0].kos = 2;
    ck_assert_int_eq(render_tape(c, RULES_BOXING, 12, 12, lines, 3), 2);
    ck_assert_str_eq(lines[0],
                     "Bout #12, boxing, 12 rounds: Rocky (alice) STR 14 SPD 12 AGL 11 TGH 12 HGT "
                     "11, 3-1-0 (2 KOs)");
    ck_assert_str_eq(lines[1], "vs Apollo (bob) STR 13 SPD 13 AGL 12 TGH 11 HGT 12, 0-0-0");
    ck_assert_int_eq(render_tape(c, RULES_BOXING, 12, 12, lines, 1), 1);
    ck_assert_ptr_nonnull(strstr(lines[0], " vs Apollo (bob)"));

    ck_assert_int_eq(bout_init(&b, RULES_BOXING, s, 12), 0);
    render_score(c, &b, buf, sizeof(buf));
    ck_assert_str_eq(buf, "Round 1 of 12 to come: no cards yet");
    b.round = 4;
    int tot[SIDES][JUDGES] = {{39, 38, 40}, {37, 38, 36}};
    for (int i = 0; i < SIDES; i++)
        memcpy(b.u.boxing.f[i].cards, tot[i], sizeof(tot[i]));
    int len = render_score(c, &b, buf, sizeof(buf));
    ck_assert_str_eq(buf,
                     "After round 4 of 12: (Rocky-Apollo) 39-37, 38-38, 40-36 (Rocky ahead on two "
                     "cards)");
    ck_assert_int_eq(len, (int)strlen(buf));
    b.u.boxing.f[1].cards[0] = 40;
    render_score(c, &b, buf, sizeof(buf));
    ck_assert_ptr_nonnull(strstr(buf, "(one card each)"));

    s[0].rules = s[1].rules = RULES_SUGARRAY;
    s[0].u.sugarray = (struct sugarray_sheet){12, 21};
    s[1].u.sugarray = (struct sugarray_sheet){10, 26};
    corners(c, "Murphy", "Miller", s);
    ck_assert_int_eq(render_tape(c, RULES_SUGARRAY, 5, 3, lines, 3), 2);
    ck_assert_str_eq(lines[0], "Bout #3, sugarray, 5 rounds: Murphy (alice) skill 12, endurance "
                               "21, 0-0-0");
}
END_TEST

/* ------------------------------------------------------------- samples */

/* Not a check: prints one bout's commentary when CK_RENDER_SAMPLE is set,
 * for reading by eye. */
START_TEST(test_sample)
{
    const char *env = getenv("CK_RENDER_SAMPLE");
    if (!env)
        return;
    uint64_t seed = strtoull(env, NULL, 10);
    struct rng g;
    struct sheet s[SIDES];
    struct render_corner c[SIDES];
    struct bout b;
    struct bout_rng br;
    struct events ev;
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
    char report[16384];

    rng_seed(&g, seed, 77);
    random_sheet(&g, &s[0]);
    random_sheet(&g, &s[1]);
    corners(c, "Rocky", "Apollo", s);
    bout_init(&b, RULES_BOXING, s, 12);
    bout_rng_seed(&br, seed);
    int n = render_tape(c, RULES_BOXING, 12, 42, lines, 3);
    for (int i = 0; i < n; i++)
        printf("%s\n", lines[i]);
    while (!b.result.over) {
        struct order o[SIDES];

        random_order(&g, &o[0]);
        random_order(&g, &o[1]);
        bout_round(&b, o, &br, &ev);
        n = render_round(c, &b, &ev, &br.flavour, lines);
        for (int i = 0; i < n; i++)
            printf("%s\n", lines[i]);
        if (getenv("CK_RENDER_REPORT")) {
            render_round_report(c, &b, &ev, RENDER_PLAIN, report, sizeof(report));
            printf("----\n%s\n----\n", report);
        }
    }
    render_score(c, &b, report, sizeof(report));
    printf("%s\n", report);
    n = render_result(c, &b, &br.flavour, lines);
    for (int i = 0; i < n; i++)
        printf("%s\n", lines[i]);
}
END_TEST

/* ------------------------------------------------------------- the duel */

/* A duellist from the sheet's words, as ringside-sim --a reads them. */
static void duel_sheet(struct sheet *s, const char *text)
{
    struct parse_error err;

    REQUIRE(sheet_parse(RULES_DUEL, text, s, &err) == 0);
}

/* The channel's duel: one line a round unless something changes the
 * fight (a critical hit, a stun, a break: a line each kind); the pages'
 * lines in full; both draw the same words, so the flavour stream and
 * every round after it are the same whichever is said. */
START_TEST(test_duel_channel_lines)
{
    static const char *const kits[] = {
        "str=18 dex=14 con=14 int=10 weapon=scimitar:40 head=leather "
        "torso=chainmail+leather:1.5 shield=leather",
        "str=14 dex=20 con=12 int=10 weapon=war_hammer:0.5 torso=leather shield=chainmail",
        "str=20 dex=10 con=16 int=10 weapon=war_axe head=plate torso=plate",
        "str=10 dex=18 con=10 int=18 weapon=knife",
    };
    struct order o[SIDES];
    int decisive = 0, quiet = 0, rounds = 0;

    ruleset_get(RULES_DUEL)->order_default(&o[0]);
    ruleset_get(RULES_DUEL)->order_default(&o[1]);
    for (uint64_t seed = 1; seed <= 400; seed++) {
        struct sheet s[SIDES];
        struct render_corner c[SIDES];
        struct bout b;
        struct bout_rng br;
        struct events ev;
        char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX], full[RENDER_ROUND_LINES][RENDER_LINE_MAX];

        duel_sheet(&s[0], kits[seed % 4]);
        duel_sheet(&s[1], kits[(seed / 4 + 1) % 4]);
        corners(c, "Conan", "Bob", s);
        REQUIRE(bout_init(&b, RULES_DUEL, s, DUEL_ROUNDS) == 0);
        bout_rng_seed(&br, seed);
        while (!b.result.over) {
            REQUIRE(bout_round(&b, o, &br, &ev) == 0);
            struct rng page = br.flavour;
            int nf = render_round_full(c, &b, &ev, &page, full);
            int n = render_round(c, &b, &ev, &br.flavour, lines);
            REQUIRE(memcmp(&page, &br.flavour, sizeof(page)) == 0);
            REQUIRE(n >= 1 && nf >= n - 1 && nf <= 3);
            char head[32];
            snprintf(head, sizeof(head), "\002Round %d\002: ", b.round);
            REQUIRE(strncmp(lines[0], head, strlen(head)) == 0);
            REQUIRE(strncmp(full[0], head, strlen(head)) == 0);
            int crit = 0, stun = 0, brk = 0;
            for (int k = 0; k < ev.n; k++) {
                crit |= ev.ev[k].type == EV_HIT && ev.ev[k].b;
                stun |= ev.ev[k].type == EV_STUN;
                brk |= ev.ev[k].type == EV_BREAK;
            }
            int yield = b.u.duel.last.yielded[0] || b.u.duel.last.yielded[1];
            REQUIRE(n == (yield ? 1 : 1 + crit + stun + brk));
            for (int i = 0; i < n; i++)
                REQUIRE(strlen(lines[i]) <= SAY_LIMIT && !strpbrk(lines[i], "\r\n"));
            REQUIRE(yield || strstr(lines[0], "Health: "));
            REQUIRE(!strstr(lines[0], " -")); /* health never below 0 */
            decisive += n > 1;
            quiet += n == 1;
            rounds++;
        }
    }
    ck_assert_int_gt(rounds, 1000);
    ck_assert_int_gt(decisive, 100);
    ck_assert_int_gt(quiet, 100);
}
END_TEST

/* Round 1 of tests/golden/duel_breaks (seed 9), word for word: the
 * channel's one line and the break on its own; the page's three lines. */
START_TEST(test_duel_round_words)
{
    struct sheet s[SIDES];
    struct render_corner c[SIDES];
    struct bout b;
    struct bout_rng br;
    struct events ev;
    struct order o[SIDES];
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX], full[RENDER_ROUND_LINES][RENDER_LINE_MAX];

    duel_sheet(&s[0], "str=18 dex=14 con=14 int=10 weapon=scimitar:40 head=leather "
                      "torso=chainmail+leather:1.5 shield=leather");
    duel_sheet(&s[1], "str=14 dex=20 con=12 int=10 weapon=war_hammer:0.5 torso=leather "
                      "shield=chainmail");
    corners(c, "Conan", "Bob", s);
    ck_assert_int_eq(bout_init(&b, RULES_DUEL, s, DUEL_ROUNDS), 0);
    bout_rng_seed(&br, 9);
    ruleset_get(RULES_DUEL)->order_default(&o[0]);
    ruleset_get(RULES_DUEL)->order_default(&o[1]);
    ck_assert_int_eq(bout_round(&b, o, &br, &ev), 0);
    struct rng page = br.flavour;
    ck_assert_int_eq(render_round(c, &b, &ev, &br.flavour, lines), 2);
    ck_assert_str_eq(lines[0], "\002Round 1\002: Conan lands 3 of 3 for 29.8; Bob lands 2 of 3 "
                               "for 15.1. Health: Conan 84.9, Bob 70.2.");
    ck_assert_str_eq(lines[1], "Bob's war hammer breaks!");
    ck_assert_int_eq(render_round_full(c, &b, &ev, &page, full), 3);
    ck_assert_ptr_nonnull(strstr(full[0], "Conan has the initiative. "));
    ck_assert_ptr_nonnull(
        strstr(full[2], "Bob's war hammer breaks! Health: Conan 84.9, Bob 70.2."));
}
END_TEST

Suite *render_suite(void)
{
    Suite *s = suite_create("render");
    TCase *tc = tcase_create("commentary");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_round_limits_and_facts);
    tcase_add_test(tc, test_crowded_round);
    tcase_add_test(tc, test_replay_and_flavour);
    tcase_add_test(tc, test_wording_varies);
    tcase_add_test(tc, test_sugarray_example_lines);
    tcase_add_test(tc, test_sugarray_ko_and_tie);
    tcase_add_test(tc, test_sugarray_random_rounds);
    tcase_add_test(tc, test_result_kinds);
    tcase_add_test(tc, test_forfeit_and_yield_words);
    tcase_add_test(tc, test_record_words);
    tcase_add_test(tc, test_voided_ko_and_same_injury);
    tcase_add_test(tc, test_duel_health_not_below_0);
    tcase_add_test(tc, test_sugarray_help_teaches_the_engine);
    tcase_add_test(tc, test_round_report);
    tcase_add_test(tc, test_report_figures);
    tcase_add_test(tc, test_conceded_round);
    tcase_add_test(tc, test_conceded_round_sugarray);
    tcase_add_test(tc, test_tape_and_score);
    tcase_add_test(tc, test_sample);
    tcase_add_test(tc, test_duel_channel_lines);
    tcase_add_test(tc, test_duel_round_words);
    suite_add_tcase(s, tc);
    return s;
}
