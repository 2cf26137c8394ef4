/*
 * cmd-admin.c - ban, unban and set (admins only; the table checks that).
 *
 * A ban ends every identity of the account at once and stops it from
 * identifying again; it keeps its fighters and records. `set` corrects a
 * fighter's sheet or record, never during a bout, and is audited. (The
 * admin's cancel is a bout command, in cmd-bout.c; turn is in
 * cmd-league.c.)
 */
#include "bot.h"

static int set_ban(struct cmd_ctx *ctx, int banned)
{
    struct bot *bot = ctx->bot;
    struct db_account acc;
    const char *name = ctx->argv[0];

    if (game_account_find(bot->game, name, &acc) != 0) {
        reply(ctx, "there is no account %s", CLIP(name, 31));
        return -1;
    }
    if (game_account_here(bot->game, &ctx->who, &acc, banned ? "ban" : "unban") != 0)
        return -1; /* another network's player (name@network) */
    if (banned && bot_is_admin(bot, acc.name)) {
        reply(ctx, "%s is an admin; take the account out of [bot] admins before banning it",
              acc.name);
        return -1;
    }
    int rc = game_ban(bot->game, &ctx->who, &acc, banned);
    if (rc <= 0)
        return rc;
    /* The identities it has end with the ban: the bot's own business. */
    int ended = banned ? users_logout_account(bot->users, acc.id) : 0;
    reply(ctx, "%s is %s%s", acc.name, banned ? "banned" : "no longer banned",
          ended ? " and was logged out" : "");
    return 0;
}

static int cmd_ban(struct cmd_ctx *ctx)
{
    return set_ban(ctx, 1);
}

const struct cmd_entry cmd_ban_entry = {
    .name = "ban",
    .where = CMD_ANYWHERE,
    .need = CMD_ADMIN,
    .args_min = 1,
    .args_max = 1,
    .usage = "<account>",
    .help = "bans an account: it can no longer identify",
    .exec = cmd_ban,
};

static int cmd_unban(struct cmd_ctx *ctx)
{
    return set_ban(ctx, 0);
}

const struct cmd_entry cmd_unban_entry = {
    .name = "unban",
    .where = CMD_ANYWHERE,
    .need = CMD_ADMIN,
    .args_min = 1,
    .args_max = 1,
    .usage = "<account>",
    .help = "lifts a ban",
    .exec = cmd_unban,
};

static int cmd_set(struct cmd_ctx *ctx)
{
    return game_edit(ctx->bot->game, &ctx->who, ctx->argv[0], (const char *const *)ctx->argv + 1,
                     ctx->argc - 1);
}

const struct cmd_entry cmd_set_entry = {
    .name = "set",
    .where = CMD_ANYWHERE,
    .need = CMD_ADMIN,
    .args_min = 2,
    .args_max = 12,
    .usage = "<fighter> key=value ...",
    .help = "corrects a fighter's sheet or record, e.g. set Rocky str=14 wins=3; each change is "
            "logged",
    .exec = cmd_set,
};
