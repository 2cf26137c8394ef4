/*
 * cmd-league.c - the league commands: an admin's turn, the standings, the
 * champion, a fighter's league and a pause. The turns themselves are the
 * game's (game/league.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "bot.h"
#include "parse.h"

#define PAUSE_MAX 52

static const char *rules_name(enum rules r)
{
    return ruleset_get(r)->name;
}

/* rules=... among the arguments (default boxing); -1 after a reply. */
static int rules_arg(struct cmd_ctx *ctx, int *rules, const char **league)
{
    enum rules r = RULES_BOXING;

    *rules = r;
    if (league)
        *league = NULL;
    for (int i = 0; i < ctx->argc; i++) {
        const char *a = ctx->argv[i];
        int got = bot_rules_word(ctx, a, &r);
        if (got < 0)
            return -1;
        if (got) {
            *rules = r;
        } else if (league && league_find(a) >= 0) {
            *league = a;
        } else {
            reply(ctx, "I don't understand \"%s\"; give %s%s", CLIP(a, 30),
                  league ? "a league (gold, silver, bronze) or " : "",
                  rules_list((char[128]){0}, 128, "rules=", ", ", " or "));
            return -1;
        }
    }
    return 0;
}

static int cmd_turn(struct cmd_ctx *ctx)
{
    int rules;

    if (rules_arg(ctx, &rules, NULL) != 0)
        return -1;
    const char *target = ctx->channel ? ctx->channel : ctx->nick;
    log_msg(LOG_INFO, "admin %s runs a %s league turn", ctx->account, rules_name(rules));
    char what[64];
    snprintf(what, sizeof(what), "league turn of %s", rules_name(rules));
    db_audit(ctx->bot->db, (int64_t)time(NULL), ctx->account, what);
    return league_turn_announce(ctx->bot->game, (enum rules)rules, bot_league_channel(ctx->bot),
                                target);
}

const struct cmd_entry cmd_turn_entry = {
    .name = "turn",
    .where = CMD_ANYWHERE,
    .need = CMD_ADMIN,
    .args_min = 0,
    .args_max = 1,
    .usage = "[rules={rules}]",
    .help = "runs a league turn now: every league bout from the plans, moves, the title bout "
            "(admins)",
    .exec = cmd_turn,
};

#define STANDINGS_TOP 3 /* fighters a league shows when none is named */

/* "1. Rocky (alice) 3-1-0 gold 9; 2. ..." of the first `max` fighters of
 * v[0..n) into buf, with "; ..." when there are more. Returns the length. */
static size_t table_text(const struct db_fighter *v, int n, int max, char *buf, size_t len)
{
    size_t at = 0;
    int shown = 0;

    buf[0] = '\0';
    for (int i = 0; i < n && shown < max && at < len; i++, shown++)
        at += (size_t)snprintf(buf + at, len - at, "%s%d. %s (%s) %d-%d-%d gold %d%s",
                               i ? "; " : "", i + 1, v[i].name, v[i].owner, v[i].wins, v[i].losses,
                               v[i].draws, v[i].gold_record, v[i].paused ? " (paused)" : "");
    if (shown < n && at < len)
        at += (size_t)snprintf(buf + at, len - at, "; ...");
    return at < len ? at : len - 1;
}

/* `s` in lower case, into buf. */
static const char *lower(const char *s, char *buf, size_t len)
{
    size_t i = 0;

    for (; s[i] && i + 1 < len; i++)
        buf[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i]);
    buf[i] = '\0';
    return buf;
}

static int cmd_standings(struct cmd_ctx *ctx)
{
    int rules, m = 0;
    const char *lname;
    char text[440], page[CONFIG_STR_MAX + 48], low[16];

    if (rules_arg(ctx, &rules, &lname) != 0)
        return -1;
    if (lname) {
        int league = league_find(lname);
        struct db_fighter *v = league_standings(ctx->bot->game, (enum rules)rules, league, &m);
        if (!v) {
            reply(ctx, "sorry, I could not read the standings (database error)");
            return -1;
        }
        table_text(v, m, 12, text, 360);
        if (m == 0)
            reply(ctx,
                  "%s (%s) is empty; %sstandings rules=%s shows the leagues that have fighters",
                  league_name((enum league)league), rules_name(rules),
                  ctx->channel ? ctx->bot->cfg.prefix : "", rules_name(rules));
        else
            reply(ctx, "%s (%s): %s%s", league_name((enum league)league), rules_name(rules), text,
                  cmd_page(ctx, page, sizeof(page), "/standings/%s/%s", rules_name(rules),
                           lower(league_name((enum league)league), low, sizeof(low))));
        free(v);
        return 0;
    }
    /* No league named: the top of every league that has fighters. */
    size_t at = 0;
    for (int l = LEAGUE_GOLD; l >= LEAGUE_BRONZE; l--) {
        struct db_fighter *v = league_standings(ctx->bot->game, (enum rules)rules, l, &m);
        if (!v) {
            reply(ctx, "sorry, I could not read the standings (database error)");
            return -1;
        }
        if (m > 0 && at < sizeof(text)) {
            at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%s: ", at ? " | " : "",
                                   league_name((enum league)l));
            if (at < sizeof(text))
                at += table_text(v, m, STANDINGS_TOP, text + at, sizeof(text) - at);
        }
        free(v);
    }
    if (at == 0)
        reply(ctx, "no %s fighter is in a league yet; create one: create <name> %s",
              rules_name(rules), grammar_get((enum rules)rules)->create_example);
    else
        reply(ctx, "Standings (%s): %s%s", rules_name(rules), text,
              cmd_page(ctx, page, sizeof(page), "/standings/%s", rules_name(rules)));
    return 0;
}

const struct cmd_entry cmd_standings_entry = {
    .name = "standings",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 2,
    .usage = "[gold|silver|bronze] [rules={rules}]",
    .help = "a league's table (position, fighter, owner, record, gold record); with no league, "
            "the top of each league that has fighters",
    .exec = cmd_standings,
};

static int cmd_champion(struct cmd_ctx *ctx)
{
    int rules;
    int64_t id;
    int defences;
    struct db_fighter f;

    if (rules_arg(ctx, &rules, NULL) != 0)
        return -1;
    if (db_champion_get(ctx->bot->db, (enum rules)rules, &id, &defences) != DB_OK ||
        db_fighter_get_id(ctx->bot->db, id, &f) != DB_OK) {
        reply(ctx, "the %s title is vacant: the two best of GOLD fight for it at the next turn",
              rules_name(rules));
        return 0;
    }
    reply(ctx, "International Champion (%s): %s (%s), %d-%d-%d, %d successful defence%s",
          rules_name(rules), f.name, f.owner, f.wins, f.losses, f.draws, defences,
          defences == 1 ? "" : "s");
    return 0;
}

const struct cmd_entry cmd_champion_entry = {
    .name = "champion",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 1,
    .usage = "[rules={rules}]",
    .help = "the International Champion and his defences",
    .exec = cmd_champion,
};

/* The fighter named by argument `i`, or the caller's only one. */
static int some_fighter(struct cmd_ctx *ctx, int i, struct db_fighter *f)
{
    char key[DB_NAME_MAX];

    if (i < ctx->argc) {
        if (strlen(ctx->argv[i]) >= DB_NAME_MAX) {
            reply(ctx, "there is no fighter %s", CLIP(ctx->argv[i], 31));
            return -1;
        }
        bot_name_key(key, ctx->argv[i], sizeof(key));
        if (db_fighter_get(ctx->bot->db, key, f) != DB_OK) {
            reply(ctx, "there is no fighter %s", ctx->argv[i]);
            return -1;
        }
        return 0;
    }
    struct db_fighter mine[16];
    int n = 0;
    if (!ctx->account || db_fighter_list(ctx->bot->db, ctx->account_id, 0, mine, 16, &n) != DB_OK ||
        n != 1) {
        reply(ctx, "which fighter? give the fighter's name");
        return -1;
    }
    *f = mine[0];
    return 0;
}

static int cmd_league(struct cmd_ctx *ctx)
{
    struct db_fighter f;
    int64_t champ = 0;
    int defences;

    if (some_fighter(ctx, 0, &f) != 0)
        return -1;
    if (db_champion_get(ctx->bot->db, f.sheet.rules, &champ, &defences) == DB_OK && champ == f.id) {
        reply(ctx, "%s is the International Champion (%s), %d defence%s", f.name,
              rules_name(f.sheet.rules), defences, defences == 1 ? "" : "s");
        return 0;
    }
    reply(ctx, "%s is in %s (%s): record %d-%d-%d, gold record %d%s%s", f.name,
          league_name((enum league)f.league), rules_name(f.sheet.rules), f.wins, f.losses, f.draws,
          f.gold_record, f.paused ? ", paused" : "",
          f.paused ? (f.paused == 1 ? " for 1 turn" : " for some turns") : "");
    return 0;
}

const struct cmd_entry cmd_league_entry = {
    .name = "league",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 1,
    .usage = "[fighter]",
    .help = "a fighter's league and gold record",
    .exec = cmd_league,
};

static int cmd_pause(struct cmd_ctx *ctx)
{
    struct db_fighter f;
    char *end;
    long turns = strtol(ctx->argv[0], &end, 10);

    if (*end || turns < 0 || turns > PAUSE_MAX) {
        reply(ctx, "pause <turns> [fighter]: 0 to %d turns (0 ends a pause)", PAUSE_MAX);
        return -1;
    }
    if (some_fighter(ctx, 1, &f) != 0)
        return -1;
    if (f.account_id != ctx->account_id) {
        reply(ctx, "%s belongs to %s, not to you", f.name, f.owner);
        return -1;
    }
    f.paused = (int)turns;
    if (db_fighter_save(ctx->bot->db, &f) != DB_OK) {
        reply(ctx, "sorry, nothing changed (database error)");
        return -1;
    }
    if (turns)
        reply(ctx,
              turns == 1 ? "%s sits out the next league turn%.0ld"
                         : "%s sits out the next %ld league turns",
              f.name, turns);
    else
        reply(ctx, "%s fights in the next league turn", f.name);
    return 0;
}

const struct cmd_entry cmd_pause_entry = {
    .name = "pause",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .args_min = 1,
    .args_max = 2,
    .usage = "<turns> [fighter]",
    .help = "your fighter sits out that many league turns (0 to come back)",
    .exec = cmd_pause,
};
