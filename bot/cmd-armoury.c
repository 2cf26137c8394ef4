/*
 * cmd-armoury.c - the duel's armoury: armoury, equip, unequip, mapped to
 * the game's calls (game/armoury.c: the STR each item needs, the layering
 * of the torso, no change during a duel).
 */
#include "bot.h"

static int cmd_armoury(struct cmd_ctx *ctx)
{
    return game_armoury(ctx->bot->game, &ctx->who, ctx->argc == 1 ? ctx->argv[0] : NULL);
}

const struct cmd_entry cmd_armoury_entry = {
    .name = "armoury",
    .aliases = "armory",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 1,
    .usage = "[weapons|armour]",
    .help = "the duel's weapons and armour: STR needed, damage, blunt and cut, reach, armour "
            "penetration, critical, weight, wear",
    .exec = cmd_armoury,
};

/* `equip <fighter> <item>...`: slot=item words (weapon=longsword
 * head=plate torso=chainmail+leather shield=leather), or a weapon's bare
 * name. */
static int cmd_equip(struct cmd_ctx *ctx)
{
    return game_equip(ctx->bot->game, &ctx->who, &ctx->fighter, (const char *const *)ctx->argv + 1,
                      ctx->argc - 1);
}

const struct cmd_entry cmd_equip_entry = {
    .name = "equip",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .target = TARGET_MY_FIGHTER,
    .args_min = 2,
    .args_max = 7,
    .usage = "<duellist> <slot=item>... (e.g. weapon=longsword head=plate "
             "torso=chainmail+leather shield=leather)",
    .help = "gives your duellist new weapons and armour (each at 100%, replacing that slot's "
            "piece; each needs its STR)",
    .exec = cmd_equip,
};

/* `unequip <fighter> <slot>`: the piece is taken off and gone. */
static int cmd_unequip(struct cmd_ctx *ctx)
{
    return game_unequip(ctx->bot->game, &ctx->who, &ctx->fighter, ctx->argv[1]);
}

const struct cmd_entry cmd_unequip_entry = {
    .name = "unequip",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .target = TARGET_MY_FIGHTER,
    .args_min = 2,
    .args_max = 2,
    .usage = "<duellist> <weapon|head|torso|under|legs|feet|shield>",
    .help = "takes a piece off your duellist (it is gone)",
    .exec = cmd_unequip,
};
