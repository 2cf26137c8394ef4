/*
 * words.c - the words of commands that name the game's things: a ruleset
 * (rules=NAME), a bout's rounds (rounds=N), a league (gold, silver,
 * bronze), and the help each ruleset gives of its sheets and orders. Every
 * front door reads them the same way and refuses them with the same line.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game.h"
#include "game_internal.h"
#include "parse.h"

int game_rules_word(const struct game_caller *who, const char *word, enum rules *rules)
{
    if (strncasecmp(word, "rules=", 6) != 0)
        return 0;
    const struct ruleset *rs = ruleset_find(word + 6);
    if (!rs) {
        char names[128];
        game_reply(who, "rules=%s: use %s", CLIP(word + 6, 20),
                   rules_list(names, sizeof(names), "rules=", ", ", " or "));
        return -1;
    }
    *rules = rs->id;
    return 1;
}

int game_league_word(const char *word)
{
    return league_find(word);
}

int game_rounds_word(const struct game_caller *who, enum rules rules, const char *word, int *rounds)
{
    const struct ruleset *rs = ruleset_get(rules);
    char *end;
    long v = strtol(word, &end, 10);

    /* A ruleset whose bouts always have the same rounds takes its own
     * count only, whatever asks (a challenge, a tournament). */
    if (rs->rounds_fixed && (*end || v != rs->rounds_default)) {
        game_reply(who, "a %s bout always has %d rounds; leave rounds= out", rs->title,
                   rs->rounds_default);
        return -1;
    }
    if (*end || v < rs->rounds_min || v > rs->rounds_max) {
        game_reply(who, "rounds=%s: a %s bout has %d to %d rounds", CLIP(word, 20), rs->name,
                   rs->rounds_min, rs->rounds_max);
        return -1;
    }
    *rounds = (int)v;
    return 0;
}

void game_help_sheets(const struct game_caller *who)
{
    for (int r = 0; r < RULES_COUNT; r++)
        if (grammar_get((enum rules)r)->sheet_help)
            game_reply(who, "%s", grammar_get((enum rules)r)->sheet_help);
}

void game_help_orders(const struct game_caller *who)
{
    for (int r = 0; r < RULES_COUNT; r++)
        if (grammar_get((enum rules)r)->order_help)
            game_reply(who, "%s", grammar_get((enum rules)r)->order_help);
}
