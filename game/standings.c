/*
 * standings.c - the `standings` answer: a league's table, or the top of
 * every league of a ruleset that has fighters, with the page that shows
 * them in full. (The standings' order is league.c's.)
 */
#include <stdio.h>
#include <stdlib.h>

#include "game.h"
#include "game_internal.h"
#include "parse.h"

#define STANDINGS_TOP  3  /* fighters a league shows when none is named */
#define STANDINGS_LONG 12 /* fighters of a league named */

/* "1. Rocky (alice) 3-1-0 gold 9; 2. ..." of the first `max` fighters of
 * v[0..n), with "; ..." when there are more. */
static void table_text(const struct db_fighter *v, int n, int max, struct str *out)
{
    int shown = 0;

    for (int i = 0; i < n && shown < max; i++, shown++)
        str_add(out, "%s%d. %s (%s) %d-%d-%d gold %d%s", i ? "; " : "", i + 1, v[i].name,
                v[i].owner, v[i].wins, v[i].losses, v[i].draws, v[i].gold_record,
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

/* One league's table. */
static int league_table(struct game *g, const struct game_caller *who, enum rules rules, int league)
{
    const char *rname = ruleset_get(rules)->name, *lname = league_name((enum league)league);
    char text[360], page[320], low[16];
    struct str s;
    int m = 0;

    struct db_fighter *v = league_standings(g, rules, league, &m);
    if (!v) {
        game_reply(who, "sorry, I could not read the standings (%s)", db_why(g->db));
        return -1;
    }
    str_init_fixed(&s, text, sizeof(text));
    table_text(v, m, STANDINGS_LONG, &s);
    free(v);
    if (m == 0)
        game_reply(who,
                   "%s (%s) is empty; %sstandings rules=%s shows the leagues that have fighters",
                   lname, rname, game_typed(g, who), rname);
    else
        game_reply(who, "%s (%s): %s%s", lname, rname, text,
                   game_page(g, page, sizeof(page), "/standings/%s/%s", rname,
                             lower(lname, low, sizeof(low))));
    return 0;
}

int game_standings(struct game *g, const struct game_caller *who, enum rules rules, int league)
{
    const char *rname = ruleset_get(rules)->name;
    char text[440], page[320];
    struct str s;
    int m = 0;

    if (league >= 0)
        return league_table(g, who, rules, league);
    /* No league named: the top of every league that has fighters. */
    str_init_fixed(&s, text, sizeof(text));
    for (int l = LEAGUE_GOLD; l >= LEAGUE_BRONZE; l--) {
        struct db_fighter *v = league_standings(g, rules, l, &m);
        if (!v) {
            game_reply(who, "sorry, I could not read the standings (%s)", db_why(g->db));
            return -1;
        }
        if (m > 0) {
            str_add(&s, "%s%s: ", s.len ? " | " : "", league_name((enum league)l));
            table_text(v, m, STANDINGS_TOP, &s);
        }
        free(v);
    }
    if (s.len == 0)
        game_reply(who, "no %s fighter is in a league yet; create one: create <name> %s", rname,
                   grammar_get(rules)->create_example);
    else
        game_reply(who, "Standings (%s): %s%s", rname, text,
                   game_page(g, page, sizeof(page), "/standings/%s", rname));
    return 0;
}
