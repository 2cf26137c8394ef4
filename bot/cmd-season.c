/*
 * cmd-season.c - the season commands: `season` (which season and how many
 * turns are left), an admin's `season end`, and `halloffame`, mapped to
 * game/season.c's calls.
 */
#include <string.h>

#include "bot.h"

/* The words after the command (from argv[first]) as rules=NAME into
 * ctx->rules (boxing when none): 0, or -1 answered. */
static int season_rules(struct cmd_ctx *ctx, int first, const char *also)
{
    ctx->rules = RULES_BOXING;
    for (int i = first; i < ctx->argc; i++) {
        int got = game_rules_word(&ctx->who, ctx->argv[i], &ctx->rules);
        if (got < 0)
            return -1;
        if (!got) {
            reply(ctx, "I don't understand \"%s\"; give %s%s", CLIP(ctx->argv[i], 30), also,
                  rules_list((char[128]){0}, 128, "rules=", ", ", " or "));
            return -1;
        }
    }
    return 0;
}

static int cmd_season(struct cmd_ctx *ctx)
{
    struct game *g = ctx->bot->game;

    if (ctx->argc && strcmp(ctx->argv[0], "end") == 0) {
        if (!bot_is_admin(ctx->bot, ctx->account)) {
            reply(ctx,
                  "season end is for the bot's admins only; %sseason says where the season "
                  "stands",
                  cmd_typed(ctx));
            return -1;
        }
        if (season_rules(ctx, 1, "") != 0)
            return -1;
        return game_season_end(g, &ctx->who, ctx->rules, bot_league_channel(ctx->bot));
    }
    if (season_rules(ctx, 0, "end (admins) or ") != 0)
        return -1;
    return game_season(g, &ctx->who, ctx->rules);
}

const struct cmd_entry cmd_season_entry = {
    .name = "season",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 2,
    .usage = "[end] [rules={rules}]",
    .help = "which season it is and how many league turns are left; an admin's season end "
            "closes it now: the final standings archived, the winners in the hall of fame, "
            "promotions and relegations, the season's records back to 0",
    .exec = cmd_season,
};

static int cmd_halloffame(struct cmd_ctx *ctx)
{
    /* No rules= named: every ruleset's last season. */
    if (ctx->argc == 0)
        return game_halloffame_all(ctx->bot->game, &ctx->who);
    return game_halloffame(ctx->bot->game, &ctx->who, ctx->rules);
}

const struct cmd_entry cmd_halloffame_entry = {
    .name = "halloffame",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .target = TARGET_RULES,
    .args_min = 0,
    .args_max = 1,
    .usage = "[rules={rules}]",
    .help = "the past seasons' winners: each league's and the International Champion; with "
            "no rules=, the last season of every ruleset",
    .exec = cmd_halloffame,
};
