/*
 * cmd-fighter.c - create, fighter, fighters, train, retire: the words of
 * each command mapped to the game's call (game/fighter.c, game/train.c),
 * which holds the rules and answers the caller.
 */
#include "bot.h"

static int cmd_create(struct cmd_ctx *ctx)
{
    return game_create(ctx->bot->game, &ctx->who, ctx->argv[0], (const char *const *)ctx->argv + 1,
                       ctx->argc - 1);
}

/* `help create`: what each ruleset's abilities do. */
static void create_help(struct cmd_ctx *ctx)
{
    game_help_sheets(&ctx->who);
}

const struct cmd_entry cmd_create_entry = {
    .name = "create",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .args_min = 1,
    .args_max = 10, /* a name in several words is explained, not a usage line */
    .usage = "<name> [rules=boxing] str=N spd=N agl=N tgh=N hgt=N",
    .help = "creates a fighter: boxing spreads 60 points over the five abilities, each 5 to 20; "
            "rules=sugarray needs no numbers; rules=duel spreads 56 over str, dex, con and int, "
            "each 1 to 23",
    .exec = cmd_create,
    .help_more = create_help,
};

static int cmd_fighter(struct cmd_ctx *ctx)
{
    return game_fighter_show(ctx->bot->game, &ctx->who, ctx->has_fighter ? &ctx->fighter : NULL);
}

const struct cmd_entry cmd_fighter_entry = {
    .name = "fighter",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .target = TARGET_FIGHTER,
    .args_min = 0,
    .args_max = 1,
    .usage = "[name]",
    .help = "shows a fighter's sheet and record (yours when you have one)",
    .exec = cmd_fighter,
};

static int cmd_fighters(struct cmd_ctx *ctx)
{
    return game_fighters(ctx->bot->game, &ctx->who, ctx->argc == 1 ? ctx->argv[0] : NULL);
}

const struct cmd_entry cmd_fighters_entry = {
    .name = "fighters",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 1,
    .usage = "[account]",
    .help = "lists a player's fighters (yours by default)",
    .exec = cmd_fighters,
};

static int cmd_train(struct cmd_ctx *ctx)
{
    return game_train(ctx->bot->game, &ctx->who, ctx->argv[0],
                      ctx->argc == 2 ? ctx->argv[1] : NULL);
}

const struct cmd_entry cmd_train_entry = {
    .name = "train",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .args_min = 1,
    .args_max = 2,
    .usage = "<str|spd|agl|tgh|hgt|skill|endurance> [fighter]",
    .help = "boxing: spends a training point for +1 to an ability (at most 25); a win earns 1 "
            "(inside the distance 2), said with the records at the end of the bout, and fighter "
            "<name> shows those left; SUGAR RAY: once between league turns, skill +1 or endurance "
            "+1d5",
    .exec = cmd_train,
};

static int cmd_retire(struct cmd_ctx *ctx)
{
    return game_retire(ctx->bot->game, &ctx->who, &ctx->fighter);
}

const struct cmd_entry cmd_retire_entry = {
    .name = "retire",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .target = TARGET_MY_FIGHTER,
    .args_min = 1,
    .args_max = 1,
    .usage = "<fighter>",
    .help = "retires one of your fighters for good (one who never fought is removed, his name "
            "free again)",
    .exec = cmd_retire,
};
