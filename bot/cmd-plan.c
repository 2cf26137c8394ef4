/*
 * cmd-plan.c - `plan`: a player's stored fight plan (set, show, clear,
 * check), mapped to the game's call (game/plan.c). The plan fights the
 * rounds he misses in a live bout and every bout of a league turn; the
 * language is parse/plan.c's (docs/plans.md).
 */
#include <strings.h>

#include "bot.h"

static const struct {
    const char *word;
    enum game_plan_op op;
} plan_ops[] = {
    {"set", GAME_PLAN_SET},
    {"show", GAME_PLAN_SHOW},
    {"clear", GAME_PLAN_CLEAR},
    {"check", GAME_PLAN_CHECK},
};

static int cmd_plan(struct cmd_ctx *ctx)
{
    for (size_t i = 0; i < sizeof(plan_ops) / sizeof(plan_ops[0]); i++)
        if (strcasecmp(ctx->argv[0], plan_ops[i].word) == 0)
            return game_plan(ctx->bot->game, &ctx->who, plan_ops[i].op, ctx->argv[0],
                             (const char *const *)ctx->argv + 1, ctx->argc - 1);
    reply(ctx, "plan set <lines separated by ;>, plan show, plan clear, or plan check "
               "<lines>; help plan explains them");
    return -1;
}

const struct cmd_entry cmd_plan_entry = {
    .name = "plan",
    .where = CMD_PRIVATE,
    .need = CMD_ACCOUNT,
    .args_min = 1,
    .args_max = -1,
    .usage = "set|show|clear|check [fighter] [lines separated by ;]",
    .help = "your fighter's plan, which fights the rounds you miss, e.g. plan set 1) 5/5/10; "
            "if endurance_percent < 40 then 3/3/14 (clinch)",
    .exec = cmd_plan,
};
