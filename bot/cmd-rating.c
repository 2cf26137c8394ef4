/*
 * cmd-rating.c - `ratings [rules=..]` (also `rating`, so that `help
 * rating` finds it): the top of a ruleset's Glicko-2 ratings, mapped to
 * game/rating.c, which also says what moves a rating.
 */
#include "bot.h"

static int cmd_ratings(struct cmd_ctx *ctx)
{
    return game_ratings(ctx->bot->game, &ctx->who, ctx->rules);
}

/* `help rating`: the second line, what moves a rating. */
static void ratings_help(struct cmd_ctx *ctx)
{
    game_rating_help(ctx->bot->game, &ctx->who);
}

const struct cmd_entry cmd_ratings_entry = {
    .name = "ratings",
    .aliases = "rating",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .target = TARGET_RULES,
    .args_min = 0,
    .args_max = 1,
    .usage = "[rules={rules}]",
    .help = "the highest Glicko-2 ratings of a ruleset (rating ± deviation), with the page of "
            "them all",
    .exec = cmd_ratings,
    .help_more = ratings_help,
};
