/*
 * cmd-predict.c - what spectators play: predict (a call on a live bout,
 * always answered in private so nobody copies it) and pundits (the table of
 * who reads fights best). The game (game/predict.c) does the rest.
 */
#include "bot.h"

static int cmd_predict(struct cmd_ctx *ctx)
{
    struct game *g = ctx->bot->game;

    if (ctx->argc == 0)
        return game_predict_list(g, &ctx->who);
    return game_predict(g, &ctx->who, ctx->argv[0], ctx->argv + 1, ctx->argc - 1);
}

const struct cmd_entry cmd_predict_entry = {
    .name = "predict",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .args_min = 0,
    .args_max = -1, /* the game reads every word, and answers in private */
    .usage = "[<bout> <fighter> [ko|tko|dq|decision|points|yield] [round N] | <bout> draw]",
    .help = "calls the winner of a live bout (and how, and when) until its first round ends; "
            "alone, lists your open predictions; answered in private",
    .exec = cmd_predict,
};

static int cmd_pundits(struct cmd_ctx *ctx)
{
    return game_pundits(ctx->bot->game, &ctx->who, ctx->argv, ctx->argc);
}

const struct cmd_entry cmd_pundits_entry = {
    .name = "pundits",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 3,
    .usage = "[rules={rules}] [season [N]]",
    .help = "the predictors' table: points (1 the winner, +1 the method, +1 the round), then "
            "the share of winners called",
    .exec = cmd_pundits,
};
