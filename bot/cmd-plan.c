/*
 * cmd-plan.c - `plan`: a player's stored fight plan (set, show, clear,
 * check). The plan fights the rounds he misses in a live bout and every
 * bout of a league turn; the language is parse/plan.c's (docs/plans.md).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "bot.h"
#include "parse.h"

#define MY_FIGHTERS_MAX 16

/* The caller's active fighters. */
static int my_fighters(struct cmd_ctx *ctx, struct db_fighter *out, int *n)
{
    if (db_fighter_list(ctx->bot->db, ctx->account_id, 0, out, MY_FIGHTERS_MAX, n) != DB_OK) {
        reply(ctx, "sorry, I could not look that up (database error)");
        return -1;
    }
    return 0;
}

/* `plan` picks the fighter: the one named first among the arguments after
 * the subcommand, else the caller's only fighter. Returns the index of the
 * first argument after the name. */
static int plan_fighter(struct cmd_ctx *ctx, struct db_fighter *f)
{
    struct db_fighter list[MY_FIGHTERS_MAX];
    int n = 0;

    if (my_fighters(ctx, list, &n) != 0)
        return -1;
    if (ctx->argc >= 2)
        for (int i = 0; i < n; i++)
            if (strcasecmp(list[i].name, ctx->argv[1]) == 0) {
                *f = list[i];
                return 2;
            }
    if (n == 1) {
        *f = list[0];
        return 1;
    }
    reply(ctx, n ? "which fighter? e.g. plan %s %s ..." : "you have no fighter yet%.0s%.0s",
          ctx->argv[0], n ? list[0].name : "");
    return -1;
}

static int cmd_plan(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    const char *sub = ctx->argv[0];
    static char text[DB_PLAN_MAX];
    char summary[512], reason[PARSE_REASON_MAX + 40];
    struct parse_error err;
    struct db_fighter f;

    if (strcasecmp(sub, "set") && strcasecmp(sub, "show") && strcasecmp(sub, "clear") &&
        strcasecmp(sub, "check")) {
        reply(ctx, "plan set <lines separated by ;>, plan show, plan clear, or plan check "
                   "<lines>; help plan explains them");
        return -1;
    }
    int at = plan_fighter(ctx, &f);
    if (at < 0)
        return -1;
    if (!strcasecmp(sub, "show")) {
        int rc = db_plan_get(bot->db, f.id, text, sizeof(text));
        if (rc == DB_NOTFOUND) {
            reply(ctx, "%s has no plan: rounds you miss use your last orders", f.name);
            return 0;
        }
        if (rc != DB_OK) {
            reply(ctx, "sorry, I could not read it (database error)");
            return -1;
        }
        for (char *p = text; *p; p++)
            if (*p == '\n')
                *p = ';';
        reply(ctx, "%s's plan: %s", f.name, text);
        return 0;
    }
    if (!strcasecmp(sub, "clear")) {
        if (db_plan_clear(bot->db, f.id) != DB_OK) {
            reply(ctx, "sorry, I could not clear it (database error)");
            return -1;
        }
        reply(ctx, "%s's plan is cleared", f.name);
        return 0;
    }
    if (at >= ctx->argc) {
        reply(ctx, "give the plan's lines, separated by ;, e.g. plan %s 1) 5/5/10; 6) 4/6/10", sub);
        return -1;
    }
    size_t len = 0;
    for (int i = at; i < ctx->argc && len < sizeof(text); i++)
        len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s", i > at ? " " : "",
                                ctx->argv[i]);
    struct plan *p = plan_compile(f.sheet.rules, text, &err);
    if (!p) {
        parse_error_format(&err, reason, sizeof(reason));
        reply(ctx, "plan refused, nothing stored: %s", reason);
        return -1;
    }
    plan_summary(p, summary, sizeof(summary));
    plan_free(p);
    if (!strcasecmp(sub, "check")) {
        reply(ctx, "the plan is fine (not stored): %s", summary);
        return 0;
    }
    if (db_plan_set(bot->db, f.id, text, (int64_t)time(NULL)) != DB_OK) {
        reply(ctx, "sorry, I could not store it (database error)");
        return -1;
    }
    reply(ctx, "%s's plan stored: %s", f.name, summary);
    return 0;
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
