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
#include <string.h>
#include <strings.h>

#include "bot.h"

enum sim_opt { OPT_BOUTS, OPT_PLAN, OPT_HISPLAN, OPT_SEED, OPT_COUNT };

static const char *const opt_key[OPT_COUNT] = {"bouts=", "plan=", "hisplan=", "seed="};

#define SIM_USAGE "sim <your fighter> vs <his fighter> [bouts=N] [plan=<lines>] [hisplan=<lines>]"

/* The options of one `sim`: each option's value (NULL: not given); the
 * plans' words joined in their own strings. */
struct sim_words {
    const char *val[OPT_COUNT];
    struct str plan[2]; /* plan=, hisplan= */
};

/* The option `word` starts with, or -1. */
static int opt_of(const char *word)
{
    for (int k = 0; k < OPT_COUNT; k++)
        if (strncasecmp(word, opt_key[k], strlen(opt_key[k])) == 0)
            return k;
    return -1;
}

/* Reads the words after "<mine> vs <his>" into *w; -1 after a reply. */
static int sim_options(struct cmd_ctx *ctx, struct sim_words *w)
{
    int open = -1; /* the plan option the words go to */

    for (int i = 3; i < ctx->argc; i++) {
        const char *a = ctx->argv[i];
        int k = opt_of(a);
        if (k < 0 && open < 0) {
            reply(ctx, "I don't understand \"%s\"; usage: %s", CLIP(a, 30), SIM_USAGE);
            return -1;
        }
        if (k < 0) {
            struct str *t = &w->plan[open == OPT_PLAN ? 0 : 1];
            str_add(t, "%s%s", t->len ? " " : "", a);
            continue;
        }
        if (w->val[k]) {
            reply(ctx, "%s is given twice; give it once", opt_key[k]);
            return -1;
        }
        a += strlen(opt_key[k]);
        open = -1;
        if (k == OPT_PLAN || k == OPT_HISPLAN) {
            struct str *t = &w->plan[k == OPT_PLAN ? 0 : 1];
            str_cat(t, a);
            w->val[k] = ""; /* its text is the string's, once complete */
            open = k;
        } else {
            w->val[k] = a;
        }
    }
    for (int k = OPT_PLAN; k <= OPT_HISPLAN; k++)
        if (w->val[k])
            w->val[k] = w->plan[k == OPT_PLAN ? 0 : 1].p;
    return 0;
}

static int cmd_sim(struct cmd_ctx *ctx)
{
    struct game *g = ctx->bot->game;
    struct sim_words w = {.val = {NULL}};
    struct db_fighter mine, his;
    int rc = -1;

    if (strcasecmp(ctx->argv[1], "vs") != 0) {
        reply(ctx, "say whom your fighter meets: %s", SIM_USAGE);
        return -1;
    }
    str_init(&w.plan[0]);
    str_init(&w.plan[1]);
    if (sim_options(ctx, &w) == 0 && game_fighter_find(g, &ctx->who, ctx->argv[0], &mine) == 0 &&
        game_fighter_find(g, &ctx->who, ctx->argv[2], &his) == 0)
        rc = game_sim(g, &ctx->who, &mine, &his, w.val[OPT_BOUTS], w.val[OPT_PLAN],
                      w.val[OPT_HISPLAN], w.val[OPT_SEED]);
    str_free(&w.plan[0]);
    str_free(&w.plan[1]);
    return rc;
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
