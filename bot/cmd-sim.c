/*
 * cmd-sim.c - `sim`: how my fighter's plan fares against another fighter's
 * sheet, over many seeded bouts (game/simulate.c fights them, a few at a
 * time, from the event loop; its one line answers when they are done).
 *
 *   sim <my fighter> vs <his fighter> [bouts=N] [plan=<lines>]
 *       [hisplan=<lines>] [seed=N]
 *
 * A plan's lines go as for `plan set`, separated by ;. Words are split at
 * spaces, so a plan= or hisplan= takes every word up to the next option.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bot.h"

enum sim_opt { OPT_BOUTS, OPT_PLAN, OPT_HISPLAN, OPT_SEED, OPT_COUNT };

static const char *const opt_key[OPT_COUNT] = {"bouts=", "plan=", "hisplan=", "seed="};

#define SIM_USAGE "sim <your fighter> vs <his fighter> [bouts=N] [plan=<lines>] [hisplan=<lines>]"

/* The option `word` starts with, or -1. */
static int opt_of(const char *word)
{
    for (int k = 0; k < OPT_COUNT; k++)
        if (strncasecmp(word, opt_key[k], strlen(opt_key[k])) == 0)
            return k;
    return -1;
}

static int cmd_sim(struct cmd_ctx *ctx)
{
    static char plan_text[2][512]; /* plan= and hisplan=, their words joined */
    const char *val[OPT_COUNT] = {NULL};
    struct db_fighter mine, his;
    int open = -1; /* the plan option the words go to */

    if (strcasecmp(ctx->argv[1], "vs") != 0) {
        reply(ctx, "say whom your fighter meets: %s", SIM_USAGE);
        return -1;
    }
    for (int i = 3; i < ctx->argc; i++) {
        const char *w = ctx->argv[i];
        int k = opt_of(w);
        if (k < 0 && open < 0) {
            reply(ctx, "I don't understand \"%s\"; usage: %s", CLIP(w, 30), SIM_USAGE);
            return -1;
        }
        if (k < 0) {
            char *t = plan_text[open == OPT_PLAN ? 0 : 1];
            size_t n = strlen(t);
            snprintf(t + n, sizeof(plan_text[0]) - n, "%s%s", n ? " " : "", w);
            continue;
        }
        if (val[k]) {
            reply(ctx, "%s is given twice; give it once", opt_key[k]);
            return -1;
        }
        w += strlen(opt_key[k]);
        open = -1;
        if (k == OPT_PLAN || k == OPT_HISPLAN) {
            char *t = plan_text[k == OPT_PLAN ? 0 : 1];
            snprintf(t, sizeof(plan_text[0]), "%s", w);
            val[k] = t;
            open = k;
        } else {
            val[k] = w;
        }
    }
    if (bot_fighter_find(ctx, ctx->argv[0], &mine) != 0 ||
        bot_fighter_find(ctx, ctx->argv[2], &his) != 0)
        return -1;
    struct game_caller who;
    bot_caller(ctx, &who);
    return game_sim(ctx->bot->game, &who, &mine, &his, val[OPT_BOUTS], val[OPT_PLAN],
                    val[OPT_HISPLAN], val[OPT_SEED]);
}

const struct cmd_entry cmd_sim_entry = {
    .name = "sim",
    .where = CMD_PRIVATE,
    .need = CMD_ACCOUNT,
    .args_min = 3,
    .args_max = -1,
    .usage = "<your fighter> vs <his fighter> [bouts=N] [plan=<lines>] [hisplan=<lines>] "
             "[seed=N]",
    .help = "fights your fighter (your stored plan, or plan=) against his sheet (hisplan=, "
            "else the default orders; never his stored plan) 1,000 times (bouts= up to 10,000) "
            "and says how it went; one every 30 s",
    .exec = cmd_sim,
};
