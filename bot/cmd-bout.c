/*
 * cmd-bout.c - the bout commands: challenge, accept, decline, withdraw,
 * forfeit, orders, and what spectators ask (bouts, score, report), and an
 * admin's cancel. Each reads its words, finds who is meant on IRC (a nick
 * identified as an account), and hands the rest to the game (game/bout.c),
 * which answers the caller. Orders may come without the command word
 * ("5/5/10", "#7 3/2"); said in a channel they are refused (they are
 * secret), and a player who says them there without the prefix is told
 * privately where they go (bot_channel_hint).
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "bot.h"

#define ORDER_TEXT_MAX   256
#define ORDER_HINT_EVERY 600.0 /* seconds between two hints to one nick */

/* The words of a challenge after the nick: rules=, rounds=, with=, vs=;
 * -1 after a reply. */
struct challenge_words {
    enum rules rules;
    const char *rounds, *with, *vs;
};

static int challenge_words(struct cmd_ctx *ctx, struct challenge_words *w)
{
    for (int i = 1; i < ctx->argc; i++) {
        const char *a = ctx->argv[i];
        int got = game_rules_word(&ctx->who, a, &w->rules);
        if (got < 0)
            return -1;
        if (got) {
            continue;
        } else if (strncasecmp(a, "rounds=", 7) == 0) {
            w->rounds = a + 7;
        } else if (strncasecmp(a, "with=", 5) == 0) {
            w->with = a + 5;
        } else if (strncasecmp(a, "vs=", 3) == 0) {
            w->vs = a + 3;
        } else {
            reply(ctx,
                  "I don't understand \"%s\"; usage: challenge <nick> [rules=%s] [rounds=N] "
                  "[with=<your fighter>] [vs=<his fighter>]",
                  CLIP(a, 30), rules_list((char[128]){0}, 128, "", "|", "|"));
            return -1;
        }
    }
    return 0;
}

static int cmd_challenge(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    const char *target = ctx->argv[0];
    struct challenge_words w = {.rules = RULES_BOXING};
    int rounds = 0;
    int64_t opp_id;
    char opp_name[DB_NAME_MAX];

    if (challenge_words(ctx, &w) != 0 ||
        (w.rounds && game_rounds_word(&ctx->who, w.rules, w.rounds, &rounds) != 0) ||
        bot_opponent(ctx, target, &opp_id, opp_name, sizeof(opp_name)) != 0)
        return -1;
    return game_challenge(bot->game, &ctx->who, opp_id, opp_name, w.rules, rounds, w.with, w.vs);
}

const struct cmd_entry cmd_challenge_entry = {
    .name = "challenge",
    .where = CMD_CHANNEL,
    .need = CMD_ACCOUNT,
    .args_min = 1,
    .args_max = 5,
    .usage = "<nick> [rules={rules}] [rounds=N] [with=<your fighter>] [vs=<his fighter>]",
    .help = "challenges a player to a bout; the challenge says how long he has to accept "
            "([bout] challenge_timeout; at most 100 challenges a day)",
    .exec = cmd_challenge,
};

static int answer(struct cmd_ctx *ctx, enum game_answer what)
{
    static const char *const verbs[] = {"accept", "decline", "withdraw"};
    /* A challenge from another network's player: his bot runs it. */
    int relayed = what != GAME_WITHDRAW ? bot_relay_cmd(ctx, verbs[what], "") : 0;
    if (relayed)
        return relayed > 0 ? 0 : -1;
    return game_answer(ctx->bot->game, &ctx->who, what, ctx->argc ? ctx->argv[0] : NULL,
                       ctx->other_id);
}

static int cmd_accept(struct cmd_ctx *ctx)
{
    return answer(ctx, GAME_ACCEPT);
}

const struct cmd_entry cmd_accept_entry = {
    .name = "accept",
    .where = CMD_ANYWHERE, /* in private too: /msg <bot> accept 12 */
    .need = CMD_ACCOUNT,
    .target = TARGET_NICK,
    .args_min = 0,
    .args_max = 1,
    .usage = "[nick|#bout]",
    .help = "accepts a challenge: the bout starts and both players get asked for orders",
    .exec = cmd_accept,
};

static int cmd_decline(struct cmd_ctx *ctx)
{
    return answer(ctx, GAME_DECLINE);
}

const struct cmd_entry cmd_decline_entry = {
    .name = "decline",
    .where = CMD_ANYWHERE, /* in private too: /msg <bot> decline 12 */
    .need = CMD_ACCOUNT,
    .target = TARGET_NICK,
    .args_min = 0,
    .args_max = 1,
    .usage = "[nick|#bout]",
    .help = "declines a challenge",
    .exec = cmd_decline,
};

static int cmd_withdraw(struct cmd_ctx *ctx)
{
    return answer(ctx, GAME_WITHDRAW);
}

const struct cmd_entry cmd_withdraw_entry = {
    .name = "withdraw",
    .where = CMD_ANYWHERE, /* in private too: /msg <bot> withdraw 12 */
    .need = CMD_ACCOUNT,
    .target = TARGET_NICK,
    .args_min = 0,
    .args_max = 1,
    .usage = "[nick|#bout]",
    .help = "withdraws your challenge",
    .exec = cmd_withdraw,
};

/* `forfeit` asks first; `forfeit yes` (or `forfeit #3 yes`) concedes,
 * `forfeit no` keeps the bout going. */
static int cmd_forfeit(struct cmd_ctx *ctx)
{
    const char *last = ctx->argc ? ctx->argv[ctx->argc - 1] : "";

    if (ctx->bout == -1) /* a bout of another network's bot (bot_target) */
        return bot_relay_cmd(ctx, "forfeit", strcasecmp(last, "yes") == 0 ? "yes" : "") > 0 ? 0
                                                                                            : -1;
    if (strcasecmp(last, "yes") == 0)
        return game_forfeit(ctx->bot->game, &ctx->who, ctx->bout);
    if (strcasecmp(last, "no") == 0) {
        reply(ctx, "bout #%lld goes on: nothing conceded", (long long)ctx->bout);
        return 0;
    }
    return game_forfeit_ask(ctx->bot->game, &ctx->who, ctx->bout);
}

const struct cmd_entry cmd_forfeit_entry = {
    .name = "forfeit",
    .aliases = "yield",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .target = TARGET_MY_BOUT,
    .args_min = 0,
    .args_max = 2,
    .usage = "[#bout] [yes]",
    .help = "concedes your live bout (a loss by forfeit, no stoppage; in a duel, yield); "
            "asks first, forfeit yes confirms",
    .exec = cmd_forfeit,
};

/* The words after the bout (the target stage took "#N" off). */
static int cmd_order(struct cmd_ctx *ctx)
{
    char text[ORDER_TEXT_MAX];
    struct str t;

    if (ctx->argc == 0) {
        reply(ctx, "which orders? e.g. order 5H/8!/7 (inside)");
        return -1;
    }
    str_init_fixed(&t, text, sizeof(text));
    for (int i = 0; i < ctx->argc; i++)
        str_add(&t, "%s%s", i ? " " : "", ctx->argv[i]);
    if (ctx->bout == -1) /* a bout of another network's bot (bot_target) */
        return bot_relay_cmd(ctx, "order", text) > 0 ? 0 : -1;
    if (!ctx->bout) /* several bouts: the orders' shape picks one */
        return game_order(ctx->bot->game, &ctx->who, NULL, text);
    return game_order_in(ctx->bot->game, &ctx->who, ctx->bout, text);
}

/* `help order`: each ruleset's order line explained. */
static void order_help(struct cmd_ctx *ctx)
{
    game_help_orders(&ctx->who);
}

/* Taken in a channel only to be refused there with the form to send in
 * private (bot_target's TARGET_MY_BOUT_FIRST): orders are secret. */
const struct cmd_entry cmd_order_entry = {
    .name = "order",
    .aliases = "orders",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .target = TARGET_MY_BOUT_FIRST,
    .args_min = 1,
    .args_max = -1,
    .usage = "[#bout] <orders>",
    .help = "your orders for the next round, sent to me in private (/msg), e.g. 5H/8!/7 "
            "(inside) or 3/2 (just the orders work too)",
    .exec = cmd_order,
    .help_more = order_help,
};

/* Where the orders of `text` start ("5/5/10", "#7 3/2"), with the bout
 * ("#7") into bout (len bytes, "" for none); NULL if text is no orders. */
static const char *order_start(const char *text, char *bout, size_t len)
{
    const char *order = text;

    bout[0] = '\0';
    if (text[0] == '#' && isdigit((unsigned char)text[1])) {
        /* "#7 3/2": the short form of "order #7 3/2". */
        size_t n = strspn(text + 1, "0123456789") + 1;
        if (n >= len || text[n] != ' ')
            return NULL;
        memcpy(bout, text, n);
        bout[n] = '\0';
        order = text + n + strspn(text + n, " ");
    }
    return isdigit((unsigned char)order[0]) ? order : NULL;
}

int bot_looks_like_order(const char *text)
{
    char bout[24];

    while (*text == ' ')
        text++;
    return order_start(text, bout, sizeof(bout)) != NULL;
}

int bot_private_order(struct cmd_ctx *ctx, const char *text)
{
    char bout[24] = "";

    const char *prefix = ctx->bot->cfg.prefix;

    while (*text == ' ')
        text++;
    if (ctx->channel && prefix[0] && strncmp(text, prefix, strlen(prefix)) == 0)
        text += strlen(prefix);
    const char *order = order_start(text, bout, sizeof(bout));
    if (!order)
        return 0;
    if (ctx->channel) {
        /* Orders are secret: the opponent must not see them. */
        reply(ctx, "send your orders to me in private, not here: /msg %s %s", ctx->bot->nick,
              CLIP(text, 40));
        return -1;
    }
    if (!ctx->account) {
        if (!cmd_why_no_account(ctx, "orders need an account"))
            reply(ctx, "identify first (/msg %s identify <password>), then send your orders",
                  ctx->bot->nick);
        return -1;
    }
    int relayed = bot_relay_cmd(ctx, "order", order); /* another network's bot's bout */
    if (relayed)
        return relayed;
    return game_order(ctx->bot->game, &ctx->who, bout[0] ? bout : NULL, order) == 0 ? 1 : -1;
}

int bot_channel_hint(struct cmd_ctx *ctx, const char *text)
{
    struct bot *bot = ctx->bot;
    char bout[24];
    int64_t id;

    while (*text == ' ')
        text++;
    const char *order = order_start(text, bout, sizeof(bout));
    if (!order || !bot->game)
        return 0;
    if (!users_account(bot->users, ctx->nick, &id, NULL) &&
        !(accounts_resolve(bot, ctx->nick, 0) && users_account(bot->users, ctx->nick, &id, NULL)))
        return 0;
    if (!game_order_reads(bot->game, id, order) ||
        !users_hint_due(bot->users, ctx->nick, bot->now, ORDER_HINT_EVERY))
        return 0;
    reply_private(ctx, "orders go to me in private: /msg %s %s - here the channel sees them",
                  bot->nick, CLIP(text, 40));
    return 1;
}

static int cmd_bouts(struct cmd_ctx *ctx)
{
    return game_bouts(ctx->bot->game, &ctx->who);
}

const struct cmd_entry cmd_bouts_entry = {
    .name = "bouts",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 0,
    .usage = "",
    .help = "lists the live bouts",
    .exec = cmd_bouts,
};

static int cmd_score(struct cmd_ctx *ctx)
{
    return game_score(ctx->bot->game, &ctx->who, ctx->bout);
}

const struct cmd_entry cmd_score_entry = {
    .name = "score",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .target = TARGET_LIVE_BOUT,
    .args_min = 0,
    .args_max = 1,
    .usage = "[#bout]",
    .help = "the cards so far of a live bout",
    .exec = cmd_score,
};

static int cmd_report(struct cmd_ctx *ctx)
{
    return game_report(ctx->bot->game, &ctx->who, ctx->bout, ctx->argc == 2 ? ctx->argv[1] : NULL);
}

const struct cmd_entry cmd_report_entry = {
    .name = "report",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .target = TARGET_BOUT,
    .args_min = 1,
    .args_max = 2,
    .usage = "<#bout> [round]",
    .help = "the blow-by-blow of a bout (or one round), sent to you in private",
    .exec = cmd_report,
};

static int cmd_cancel(struct cmd_ctx *ctx)
{
    return game_cancel(ctx->bot->game, &ctx->who, ctx->bout);
}

const struct cmd_entry cmd_cancel_entry = {
    .name = "cancel",
    .where = CMD_ANYWHERE,
    .need = CMD_ADMIN,
    .target = TARGET_OPEN_BOUT,
    .args_min = 1,
    .args_max = 1,
    .usage = "<#bout>",
    .help = "cancels a live bout or a challenge without a result; logged",
    .exec = cmd_cancel,
};
