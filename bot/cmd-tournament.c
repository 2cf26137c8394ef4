/*
 * cmd-tournament.c - the tournament commands: `tournament` and its
 * words (open, join, leave, start, next) and `bracket`, mapped to the
 * game's calls (game/tournament.c decides and answers). Who may do what
 * is the game's rule, told the caller's admin rights.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bot.h"

#define TOURNAMENT_WORDS "open, join <fighter>, leave, start, next, or a tournament's number"

static int cmd_tournament(struct cmd_ctx *ctx)
{
    struct game *g = ctx->bot->game;
    const char *w = ctx->argc ? ctx->argv[0] : NULL;
    int admin = ctx->account_id && bot_is_admin(ctx->bot, ctx->account);

    if (!w || (w[0] >= '0' && w[0] <= '9') || w[0] == '#')
        return game_tournament_show(g, &ctx->who, w);
    if (strcasecmp(w, "open") == 0 || strcasecmp(w, "join") == 0 || strcasecmp(w, "leave") == 0) {
        if (!ctx->account_id) {
            char what[32];
            snprintf(what, sizeof(what), "tournament %s", w);
            cmd_no_account(ctx, what);
            return -1;
        }
    }
    if (strcasecmp(w, "open") == 0)
        return game_tournament_open(g, &ctx->who, admin, (const char *const *)ctx->argv + 1,
                                    ctx->argc - 1);
    if (strcasecmp(w, "join") == 0) {
        struct db_fighter f;
        if (ctx->argc != 2) { /* none named (NULL is no name to look up) or several */
            reply(ctx, "say %stournament join <fighter>: one fighter", cmd_typed(ctx));
            return -1;
        }
        if (game_fighter_mine(g, &ctx->who, ctx->argv[1], &f) != 0)
            return -1;
        return game_tournament_join(g, &ctx->who, &f);
    }
    if (strcasecmp(w, "leave") == 0)
        return game_tournament_leave(g, &ctx->who);
    if (strcasecmp(w, "start") == 0)
        return game_tournament_start(g, &ctx->who, admin);
    if (strcasecmp(w, "next") == 0)
        return game_tournament_next(g, &ctx->who, admin);
    reply(ctx, "%s: say %stournament %s", w, cmd_typed(ctx), TOURNAMENT_WORDS);
    return -1;
}

const struct cmd_entry cmd_tournament_entry = {
    .name = "tournament",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = -1,
    .usage = "[open [rules={rules}] [size=4|8|16|32] [rounds=N] [mode=live|plans] [name=..] | "
             "join <fighter> | leave | start | next | <number>]",
    .help = "knockout tournaments: alone, the bracket; join <fighter> and leave before it "
            "starts, which it does when full; open, start and next (a plans tournament's "
            "round now) need admin rights",
    .exec = cmd_tournament,
};

static int cmd_bracket(struct cmd_ctx *ctx)
{
    return game_tournament_show(ctx->bot->game, &ctx->who, ctx->argc ? ctx->argv[0] : NULL);
}

const struct cmd_entry cmd_bracket_entry = {
    .name = "bracket",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 1,
    .usage = "[number]",
    .help = "a tournament's bracket in three lines and its web address (the current one, else "
            "the last)",
    .exec = cmd_bracket,
};
