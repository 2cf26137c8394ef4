/*
 * cmd-admin.c - ban and unban (admins only; the table checks that).
 *
 * A ban ends every identity of the account at once and stops it from
 * identifying again; it keeps its fighters and records.
 */
#include <string.h>

#include "bot.h"

static int set_ban(struct cmd_ctx *ctx, int banned)
{
    struct bot *bot = ctx->bot;
    struct db_account acc;
    char key[DB_NAME_MAX];
    const char *name = ctx->argv[0];

    if (strlen(name) >= DB_NAME_MAX) {
        reply(ctx, "there is no account %s", CLIP(name, 31));
        return -1;
    }
    bot_name_key(key, name, sizeof(key));
    if (db_account_get(bot->db, key, &acc) != DB_OK) {
        reply(ctx, "there is no account %s", name);
        return -1;
    }
    if (banned && bot_is_admin(bot, acc.name)) {
        reply(ctx, "%s is an admin; take the account out of [bot] admins before banning it",
              acc.name);
        return -1;
    }
    if (acc.banned == banned) {
        reply(ctx, "%s is %s banned", acc.name, banned ? "already" : "not");
        return 0;
    }
    if (db_account_set_banned(bot->db, acc.id, banned) != DB_OK) {
        reply(ctx, "sorry, I could not do that (database error)");
        return -1;
    }
    int ended = banned ? users_logout_account(bot->users, acc.id) : 0;
    log_msg(LOG_INFO, "admin %s %s %s", ctx->account, banned ? "banned" : "unbanned", acc.name);
    reply(ctx, "%s is %s%s", acc.name, banned ? "banned" : "no longer banned",
          ended ? " and was logged out" : "");
    return 0;
}

int cmd_ban(struct cmd_ctx *ctx)
{
    return set_ban(ctx, 1);
}

int cmd_unban(struct cmd_ctx *ctx)
{
    return set_ban(ctx, 0);
}
