/*
 * standings.c - the `standings` answer: a league's table, or the top of
 * every league of a ruleset that has fighters, with the page that shows
 * them in full; with no ruleset named, every ruleset that has fighters
 * (a line each, never an empty league). (The standings' order is
 * league.c's.)
 */
#include <stdio.h>
#include <stdlib.h>

#include "game.h"
#include "game_internal.h"
#include "parse.h"

#define STANDINGS_TOP  3  /* fighters a league shows when none is named */
#define STANDINGS_LONG 12 /* fighters of a league named */

/* "1. Rocky (alice) 3-1-0 gold 9; 2. ..." of the first `max` fighters of
 * v[0..n) (the season's records), with "; ..." when there are more. */
static void table_text(const struct game *g, const struct db_fighter *v, int n, int max,
                       struct str *out)
{
    int shown = 0;
    char owner[GAME_WHO_MAX];

    for (int i = 0; i < n && shown < max; i++, shown++)
        str_add(out, "%s%d. %s (%s) %d-%d-%d gold %d%s", i ? "; " : "", i + 1, v[i].name,
                game_owner_name(g, &v[i], owner, sizeof(owner)), v[i].season_wins,
                v[i].season_losses, v[i].season_draws, v[i].gold_record,
                v[i].paused ? " (paused)" : "");
    if (shown < n)
        str_cat(out, "; ...");
}

/* `s` in lower case, into buf. */
static const char *lower(const char *s, char *buf, size_t len)
{
    size_t i = 0;

    for (; s[i] && i + 1 < len; i++)
        buf[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
    buf[i] = '\0';
    return buf;
}

/* League `league` of `rules` in standings order into *v (free()) and its
 * size into *m; -1 (said to `who`) on a database error. */
static int standings_read(struct game *g, const struct game_caller *who, enum rules rules,
                          int league, struct db_fighter **v, int *m)
{
    *v = league_standings(g, rules, league, m);
    if (*v)
        return 0;
    game_reply(who, "sorry, I could not read the standings (%s)", db_why(g->db));
    return -1;
}

/* "GOLD (boxing): 1. Rocky ... - PAGE" of league `league` of `rules` when
 * it has fighters. Returns how many it has, or -1 on a database error
 * (said). */
static int league_line(struct game *g, const struct game_caller *who, enum rules rules, int league)
{
    const char *rname = ruleset_get(rules)->name, *lname = league_name((enum league)league);
    char text[360], page[320], low[16];
    struct db_fighter *v;
    struct str s;
    int m = 0;

    if (standings_read(g, who, rules, league, &v, &m) != 0)
        return -1;
    str_init_fixed(&s, text, sizeof(text));
    table_text(g, v, m, STANDINGS_LONG, &s);
    free(v);
    if (m > 0)
        game_reply(who, "%s (%s): %s%s", lname, rname, text,
                   game_page(g, page, sizeof(page), "/standings/%s/%s", rname,
                             lower(lname, low, sizeof(low))));
    return m;
}

/* One league's table. */
static int league_table(struct game *g, const struct game_caller *who, enum rules rules, int league)
{
    const char *rname = ruleset_get(rules)->name, *lname = league_name((enum league)league);

    int m = league_line(g, who, rules, league);
    if (m == 0)
        game_reply(who,
                   "%s (%s) is empty; %sstandings rules=%s shows the leagues that have fighters",
                   lname, rname, game_typed(g, who), rname);
    return m < 0 ? -1 : 0;
}

/* "Standings (boxing): SILVER: 1. ...; ... | BRONZE: ... - PAGE": the top
 * of every league of `rules` that has fighters, when one has. Returns 1
 * when said, 0 when no league has, -1 on a database error (said). */
static int rules_line(struct game *g, const struct game_caller *who, enum rules rules)
{
    const char *rname = ruleset_get(rules)->name;
    char text[440], page[320];
    struct db_fighter *v;
    struct str s;
    int m = 0;

    str_init_fixed(&s, text, sizeof(text));
    for (int l = LEAGUE_GOLD; l >= LEAGUE_BRONZE; l--) {
        if (standings_read(g, who, rules, l, &v, &m) != 0)
            return -1;
        if (m > 0) {
            str_add(&s, "%s%s: ", s.len ? " | " : "", league_name((enum league)l));
            table_text(g, v, m, STANDINGS_TOP, &s);
        }
        free(v);
    }
    if (s.len == 0)
        return 0;
    /* The page opens the highest league that has fighters. */
    game_reply(who, "Standings (%s): %s%s", rname, text,
               game_page(g, page, sizeof(page), "/standings/%s", rname));
    return 1;
}

int game_standings(struct game *g, const struct game_caller *who, enum rules rules, int league)
{
    if (league >= 0)
        return league_table(g, who, rules, league);
    int said = rules_line(g, who, rules);
    if (said == 0)
        game_reply(who, "no %s fighter is in a league yet; create one: create <name> %s",
                   ruleset_get(rules)->name, grammar_get(rules)->create_example);
    return said < 0 ? -1 : 0;
}

int game_standings_all(struct game *g, const struct game_caller *who, int league)
{
    int said = 0;

    for (int r = 0; r < RULES_COUNT; r++) {
        int rc = league >= 0 ? league_line(g, who, (enum rules)r, league)
                             : rules_line(g, who, (enum rules)r);
        if (rc < 0)
            return -1;
        said += rc > 0;
    }
    if (said)
        return 0;
    if (league >= 0)
        game_reply(who,
                   "%s is empty in every ruleset; %sstandings shows the leagues that have "
                   "fighters",
                   league_name((enum league)league), game_typed(g, who));
    else
        game_reply(who, "nobody is in a league yet; create a fighter: create <name> %s",
                   grammar_get(RULES_BOXING)->create_example);
    return 0;
}
