/*
 * cmd-admin.c - ban, unban and set (admins only; the table checks that).
 *
 * A ban ends every identity of the account at once and stops it from
 * identifying again; it keeps its fighters and records. `set` corrects a
 * fighter's sheet or record, never during a bout, and is audited. (The
 * admin's cancel is a bout command, in cmd-bout.c; turn is in
 * cmd-league.c.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

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
    .help = "bans an account: it can no longer identify (admins)",
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
    .help = "lifts a ban (admins)",
    .exec = cmd_unban,
};

static int cmd_set(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    struct db_fighter f;
    char key[DB_NAME_MAX], what[400];

    if (strlen(ctx->argv[0]) >= DB_NAME_MAX) {
        reply(ctx, "there is no fighter %s", CLIP(ctx->argv[0], 31));
        return -1;
    }
    bot_name_key(key, ctx->argv[0], sizeof(key));
    if (db_fighter_get(bot->db, key, &f) != DB_OK) {
        reply(ctx, "there is no fighter %s", ctx->argv[0]);
        return -1;
    }
    if (game_fighter_busy(bot->game, f.id)) {
        reply(ctx, "%s is in a bout or a challenge; set his sheet after it", f.name);
        return -1;
    }
    struct db_fighter nf = f;
    const struct ruleset *rs = ruleset_get(f.sheet.rules);
    char ability_keys[128] = "", example[48];
    for (int j = 0, at = 0; j < rs->nfields && at < (int)sizeof(ability_keys); j++)
        at += snprintf(ability_keys + at, sizeof(ability_keys) - (size_t)at, "%s%s", j ? ", " : "",
                       rs->fields[j].key);
    snprintf(example, sizeof(example), "%s=14 wins=3", rs->fields[0].key);
    for (int i = 1; i < ctx->argc; i++) {
        const char *a = ctx->argv[i], *eq = strchr(a, '=');
        char *end;
        long v = eq ? strtol(eq + 1, &end, 10) : 0;
        if (!eq || eq == a || !eq[1] || *end) {
            reply(ctx, "\"%s\" is not key=number; e.g. set %s %s", CLIP(a, 30), f.name, example);
            return -1;
        }
        size_t k = (size_t)(eq - a);
        /* The abilities of his ruleset's sheet, then the record. */
        int found = 0;
        for (int j = 0; j < rs->nfields && !found; j++) {
            const struct ruleset_field *fd = &rs->fields[j];
            if (strlen(fd->key) != k || strncasecmp(fd->key, a, k) != 0)
                continue;
            if (v < fd->lo || v > fd->hi) {
                reply(ctx, "%s must be %d to %d", fd->key, fd->lo, fd->hi);
                return -1;
            }
            sheet_field_set(&nf.sheet, j, (int)v);
            found = 1;
        }
        struct {
            const char *name;
            int *field;
            long lo, hi;
        } keys[] = {
            {"wins", &nf.wins, 0, 100000},
            {"losses", &nf.losses, 0, 100000},
            {"draws", &nf.draws, 0, 100000},
            {"kos", &nf.kos, 0, 100000},
            {"training", &nf.training_points, 0, 1000},
        };
        for (unsigned j = 0; j < sizeof(keys) / sizeof(keys[0]) && !found; j++) {
            if (strlen(keys[j].name) != k || strncasecmp(keys[j].name, a, k) != 0)
                continue;
            if (v < keys[j].lo || v > keys[j].hi) {
                reply(ctx, "%s must be %ld to %ld", keys[j].name, keys[j].lo, keys[j].hi);
                return -1;
            }
            *keys[j].field = (int)v;
            found = 1;
        }
        if (!found) {
            reply(ctx,
                  "%s is not a key for a %s fighter; keys: %s, wins, losses, draws, kos, "
                  "training",
                  text_clip((char[21]){0}, 21, a, k < 20 ? k : 20), rs->name, ability_keys);
            return -1;
        }
    }
    if (ctx->argc < 2) {
        reply(ctx, "set what? e.g. set %s %s", f.name, example);
        return -1;
    }
    size_t len = (size_t)snprintf(what, sizeof(what), "set %s:", f.name);
    for (int i = 1; i < ctx->argc && len < sizeof(what); i++)
        len += (size_t)snprintf(what + len, sizeof(what) - len, " %s", ctx->argv[i]);
    if (db_begin(bot->db) != DB_OK || db_fighter_save(bot->db, &nf) != DB_OK ||
        db_audit(bot->db, (int64_t)time(NULL), ctx->account, what) != DB_OK ||
        db_commit(bot->db) != DB_OK) {
        log_msg(LOG_ERROR, "set %s: %s", f.name, db_errmsg(bot->db));
        db_rollback(bot->db);
        reply(ctx, "sorry, nothing changed (database error)");
        return -1;
    }
    log_msg(LOG_INFO, "admin %s: %s", ctx->account, what);
    reply(ctx, "done: %s", what);
    return 0;
}

const struct cmd_entry cmd_set_entry = {
    .name = "set",
    .where = CMD_ANYWHERE,
    .need = CMD_ADMIN,
    .args_min = 2,
    .args_max = 12,
    .usage = "<fighter> key=value ...",
    .help = "corrects a fighter's sheet or record, e.g. set Rocky str=14 wins=3 (admins; logged)",
    .exec = cmd_set,
};
