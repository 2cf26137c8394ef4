/*
 * cmd-league.c - the league commands: an admin's turn, the standings, the
 * champion, a fighter's league and a pause, mapped to the game's calls
 * (game/league.c runs the turns, game/fighter.c and game/standings.c
 * answer). The ruleset and league words are the table's targets.
 */
#include "bot.h"

static int cmd_turn(struct cmd_ctx *ctx)
{
    return game_turn(ctx->bot->game, &ctx->who, ctx->rules, bot_league_channel(ctx->bot));
}

const struct cmd_entry cmd_turn_entry = {
    .name = "turn",
    .where = CMD_ANYWHERE,
    .need = CMD_ADMIN,
    .target = TARGET_RULES,
    .args_min = 0,
    .args_max = 1,
    .usage = "[rules={rules}]",
    .help = "runs a league turn now: every league bout from the plans, moves, the title bout",
    .exec = cmd_turn,
};

static int cmd_standings(struct cmd_ctx *ctx)
{
    /* The target stage took every word as a league or a rules=NAME: a word
     * that is no league named the ruleset. */
    for (int i = 0; i < ctx->argc; i++)
        if (game_league_word(ctx->argv[i]) < 0)
            return game_standings(ctx->bot->game, &ctx->who, ctx->rules, ctx->league);
    return game_standings_all(ctx->bot->game, &ctx->who, ctx->league);
}

const struct cmd_entry cmd_standings_entry = {
    .name = "standings",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .target = TARGET_RULES_LEAGUE,
    .args_min = 0,
    .args_max = 2,
    .usage = "[gold|silver|bronze] [rules={rules}]",
    .help = "a league's table (position, fighter, owner, record, gold record); with no league, "
            "the top of each league that has fighters; with no rules=, every ruleset that has "
            "fighters",
    .exec = cmd_standings,
};

static int cmd_champion(struct cmd_ctx *ctx)
{
    return game_champion(ctx->bot->game, &ctx->who, ctx->rules);
}

const struct cmd_entry cmd_champion_entry = {
    .name = "champion",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .target = TARGET_RULES,
    .args_min = 0,
    .args_max = 1,
    .usage = "[rules={rules}]",
    .help = "the International Champion and his defences",
    .exec = cmd_champion,
};

static int cmd_league(struct cmd_ctx *ctx)
{
    return game_league_of(ctx->bot->game, &ctx->who, ctx->argc ? ctx->argv[0] : NULL);
}

const struct cmd_entry cmd_league_entry = {
    .name = "league",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 1,
    .usage = "[fighter]",
    .help = "a fighter's league and gold record",
    .exec = cmd_league,
};

static int cmd_pause(struct cmd_ctx *ctx)
{
    return game_pause(ctx->bot->game, &ctx->who, ctx->argv[0],
                      ctx->argc == 2 ? ctx->argv[1] : NULL);
}

const struct cmd_entry cmd_pause_entry = {
    .name = "pause",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .args_min = 1,
    .args_max = 2,
    .usage = "<turns> [fighter]",
    .help = "your fighter sits out that many league turns (0 to come back)",
    .exec = cmd_pause,
};
