/*
 * game.c - the game (game/) over IRC: its io table implemented with the
 * bot's output queue, identities and case mapping, and a command's caller
 * answered through reply().
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "bot.h"

void bot_db_watch(struct bot *bot)
{
    if (db_gone(bot->db) && !bot->db_gone_said) {
        bot->db_gone_said = 1;
        log_msg(LOG_ERROR,
                "the database file %s is gone (deleted or replaced while ringside ran): nothing "
                "more is stored; an operator must restore it and restart ringside",
                bot->cfg.database);
    }
}

/* The output queue's kind for each of the game's voices. */
static const enum outq_kind io_kinds[] = {
    [GAME_REPLY] = OUTQ_REPLY, [GAME_CHATTER] = OUTQ_REPLY, [GAME_LIVE] = OUTQ_LIVE,
    [GAME_ROUND] = OUTQ_ROUND, [GAME_BULK] = OUTQ_BULK,     [GAME_ASK] = OUTQ_ROUND,
};

/* A line about a live bout: as bot_msg (whose formatting rule is applied
 * as the line leaves), with the bout and round it is about, so that the
 * queue orders it by its bout and can withdraw it (io_withdraw); a line
 * said with GAME_ASK asks, and its answer may confirm it (io_answered). */
static void io_say_about(void *ctx, enum game_voice voice, const char *target, const char *text,
                         int64_t bout, int round)
{
    struct bot *bot = ctx;

    bot_db_watch(bot);
    struct str local, capped;
    str_init(&local);
    if (relay_said(bot, target, text, bout, round, &local)) {
        str_free(&local);
        return; /* another network's player: his bot says it */
    }
    /* policy: a few highlights a line (of the text as relay.c named it here) */
    bot_highlight_cap(bot, target, local.len ? local.p : text, &capped);
    str_free(&local);
    int step = round > 0 ? round : 0; /* < 0: commentary said again, as 0 */
    if (voice == GAME_ASK)
        outq_ask_about(bot->q, io_kinds[voice], "PRIVMSG", target, NULL, capped.p, bout, step);
    else
        outq_msg_about(bot->q, io_kinds[voice], "PRIVMSG", target, NULL, capped.p, bout, step);
    str_free(&capped);
}

static void io_say(void *ctx, enum game_voice voice, const char *target, const char *text)
{
    struct bot *bot = ctx;

    bot_db_watch(bot);
    if (relay_said(bot, target, text, 0, 0, NULL))
        return;
    bot_msg(bot, io_kinds[voice], target, NULL, text);
}

/* Round `round` of bout `bout` is fought: its prompts still waiting go. */
static void io_withdraw(void *ctx, int64_t bout, int round)
{
    struct bot *bot = ctx;

    outq_drop(bot->q, bout, round);
    relay_withdraw(bot, bout, round); /* another network's player's prompts */
}

/* A player's orders answer his prompt: the queue's proof of delivery. */
static void io_answered(void *ctx, const char *nick, int64_t bout, int round)
{
    struct bot *bot = ctx;

    outq_answered(bot->q, nick, bout, round);
}

/* A game clock waits for what was said up to mark: confirmed soon. */
static void io_awaits(void *ctx, unsigned long mark)
{
    struct bot *bot = ctx;

    outq_await(bot->q, mark);
}

static const char *io_nick_of(void *ctx, int64_t account_id)
{
    struct bot *bot = ctx;

    const char *nick = users_nick_of(bot->users, account_id);
    return nick ? nick : relay_nick_of(bot, account_id); /* name@network: relay.c */
}

/* Another network's players are away while no bot of theirs is on IRC
 * (failover.c). */
static int io_away(void *ctx, const char *network)
{
    return presence_away(ctx, network);
}

/* Services accounts come back by themselves (accounts.c): those the bot
 * made for a services login, or all under accounts = services. */
static int io_self_identifies(void *ctx, const char *account)
{
    struct bot *bot = ctx;
    struct db_account acc;
    char key[DB_NAME_MAX];

    if (bot->cfg.accounts == ACCOUNTS_PASSWORDS)
        return 0;
    if (bot->cfg.accounts == ACCOUNTS_SERVICES)
        return 1;
    bot_name_key(key, account, sizeof(key));
    return db_account_get(bot->db, key, &acc) == DB_OK && strcmp(acc.hash, PASSWORD_NONE) == 0;
}

static int io_same_name(void *ctx, const char *a, const char *b)
{
    struct bot *bot = ctx;

    return irc_casecmp(bot->cm, a, b) == 0;
}

/* The bot's clock is read once per event (bot->now), so everything one
 * event does happens at one time. */
static double io_clock(void *ctx)
{
    struct bot *bot = ctx;

    return bot->now;
}

static int64_t io_wall(void *ctx)
{
    (void)ctx;
    return (int64_t)time(NULL);
}

static uint64_t io_seed(void *ctx)
{
    (void)ctx;
    return bot_seed();
}

static unsigned long io_mark(void *ctx)
{
    struct bot *bot = ctx;

    return outq_mark(bot->q);
}

static int io_queued(void *ctx, unsigned long mark)
{
    struct bot *bot = ctx;

    return outq_queued(bot->q, mark);
}

static int io_delivered(void *ctx, unsigned long mark)
{
    struct bot *bot = ctx;

    return outq_delivered(bot->q, mark);
}

static int io_hears(void *ctx, const char *channel, const char *nick)
{
    struct bot *bot = ctx;

    return users_in(bot->users, nick, bot_chan_find(bot, channel));
}

static size_t io_pieces(void *ctx, const char *target, const char *text)
{
    struct bot *bot = ctx;

    return outq_pieces(bot->q, "PRIVMSG", target, text);
}

static void io_log(void *ctx, enum game_log level, const char *text)
{
    static const enum log_level levels[] = {
        [GAME_LOG_DEBUG] = LOG_DEBUG,
        [GAME_LOG_INFO] = LOG_INFO,
        [GAME_LOG_WARN] = LOG_WARN,
        [GAME_LOG_ERROR] = LOG_ERROR,
    };

    (void)ctx;
    log_msg(levels[level], "%s", text);
}

void bot_game_io(struct bot *bot, struct game_io *io)
{
    *io = (struct game_io){
        .ctx = bot,
        .say = io_say,
        .say_about = io_say_about,
        .withdraw = io_withdraw,
        .answered = io_answered,
        .awaits = io_awaits,
        .away = io_away,
        .nick_of = io_nick_of,
        .self_identifies = io_self_identifies,
        .same_name = io_same_name,
        .clock = io_clock,
        .wall = io_wall,
        .seed = io_seed,
        .mark = io_mark,
        .delivered = io_delivered,
        .queued = io_queued,
        .hears = io_hears,
        .pieces = io_pieces,
        .log = io_log,
    };
}

void bot_game_config(const struct config *cfg, struct game_config *gc)
{
    memset(gc, 0, sizeof(*gc));
    gc->order_timeout = cfg->order_timeout;
    gc->challenge_timeout = cfg->challenge_timeout;
    gc->rounds = cfg->rounds;
    gc->auto_round_seconds = cfg->duel_round_seconds;
    gc->rejoin_grace = (int)cfg->rejoin_grace;
    gc->turn_interval = cfg->turn_interval;
    gc->rating_skip_exhibitions = !cfg->exhibitions;
    gc->season_turns = cfg->season_turns;
    gc->predict_closes_after = cfg->closes_after;
    gc->tournament_open_by_players = cfg->open_by;
    gc->tournament_round_interval = cfg->round_interval;
    snprintf(gc->prefix, sizeof(gc->prefix), "%s", cfg->prefix);
    gc->format = cfg->colours ? GAME_FORMAT_COLOUR : GAME_FORMAT_BOLD;
    snprintf(gc->base_url, sizeof(gc->base_url), "%s", cfg->base_url);
    for (size_t n = strlen(gc->base_url); n > 0 && gc->base_url[n - 1] == '/'; n--)
        gc->base_url[n - 1] = '\0';
    if (cfg->nchannels > 0)
        snprintf(gc->channel, sizeof(gc->channel), "%s", cfg->channels[0]);
}

static void caller_reply(void *ctx, int how, const char *text)
{
    struct cmd_ctx *c = ctx;
    int live = c->live;

    c->live = (how & GAME_ANSWER_LIVE) != 0;
    if (how & GAME_ANSWER_PRIVATE)
        reply_private(c, "%s", text);
    else
        reply(c, "%s", text);
    c->live = live;
}

void bot_caller(struct cmd_ctx *ctx, struct game_caller *who)
{
    *who = (struct game_caller){
        .account_id = ctx->account_id,
        .account = ctx->account,
        .nick = ctx->nick,
        .channel = ctx->channel,
        .answer = caller_reply,
        .ctx = ctx,
    };
}

/* Every word a ruleset (rules=NAME), or with `league` a league's name;
 * anything else is refused. */
static int target_rules(struct cmd_ctx *ctx, int league)
{
    ctx->rules = RULES_BOXING;
    ctx->league = -1;
    for (int i = 0; i < ctx->argc; i++) {
        const char *a = ctx->argv[i];
        int got = game_rules_word(&ctx->who, a, &ctx->rules);
        if (got < 0)
            return -1;
        if (got)
            continue;
        if (league && game_league_word(a) >= 0) {
            ctx->league = game_league_word(a);
            continue;
        }
        reply(ctx, "I don't understand \"%s\"; give %s%s", CLIP(a, 30),
              league ? "a league (gold, silver, bronze) or " : "",
              rules_list((char[128]){0}, 128, "rules=", ", ", " or "));
        return -1;
    }
    return 0;
}

/* "[#bout] <words>": a first word "#N" is the bout, taken off the
 * arguments; with no word after it nothing is resolved, so the handler
 * can ask for them first, as it always has. */
static int target_my_bout_first(struct cmd_ctx *ctx)
{
    const char *word = NULL;

    if (ctx->argc && ctx->argv[0][0] == '#') {
        word = ctx->argv[0];
        ctx->argc--;
        memmove(ctx->argv, ctx->argv + 1, (size_t)ctx->argc * sizeof(ctx->argv[0]));
    }
    if (ctx->argc == 0)
        return 0;
    return game_bout_find(ctx->bot->game, &ctx->who, GAME_BOUT_MINE_ORDERS, word, &ctx->bout);
}

/* "order [#bout] <orders>" said in a channel: refused before anything is
 * looked up, in one line giving the form to send in private; the bout's
 * number is said back (checked: "#" and digits), never the orders, which
 * the channel must not read twice. -1. */
static int order_in_channel(struct cmd_ctx *ctx)
{
    const char *w = ctx->argc ? ctx->argv[0] : "";
    size_t digits = w[0] == '#' ? strspn(w + 1, "0123456789") : 0;
    int bout = digits > 0 && digits < 12 && w[digits + 1] == '\0';

    reply(ctx,
          "orders are secret: send them to me in private, not in the channel: /msg %s order "
          "%s%s<orders>",
          ctx->bot->nick, bout ? w : "", bout ? " " : "");
    return -1;
}

/* A bout argument (argv[0], when given) as the game resolves it. */
static int target_bout(struct cmd_ctx *ctx, enum game_bout want)
{
    return game_bout_find(ctx->bot->game, &ctx->who, want, ctx->argc ? ctx->argv[0] : NULL,
                          &ctx->bout);
}

/* 1 when the caller, with no bout here, plays one of another network's
 * bot: ctx->bout is -1, and the command relays it (bot_relay_cmd). */
static int target_remote(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    char network[DB_NETWORK_MAX];
    int64_t bout;

    if (!bot->xnet.on || !ctx->account_id || game_account_live(bot->game, ctx->account_id) ||
        db_remote_bout(bot->db, ctx->account_id, &bout, network, sizeof(network)) != DB_OK)
        return 0;
    ctx->bout = -1;
    return 1;
}

int bot_target(struct cmd_ctx *ctx, enum cmd_target target)
{
    struct game *g = ctx->bot->game;
    const char *name;
    int64_t id = 0;

    ctx->has_fighter = 0;
    ctx->bout = 0;
    switch (target) {
    case TARGET_NONE:
        return 0;
    case TARGET_FIGHTER:
        if (ctx->argc == 0)
            return 0;
        ctx->has_fighter = game_fighter_find(g, &ctx->who, ctx->argv[0], &ctx->fighter) == 0;
        return ctx->has_fighter ? 0 : -1;
    case TARGET_MY_FIGHTER:
        ctx->has_fighter = game_fighter_mine(g, &ctx->who, ctx->argv[0], &ctx->fighter) == 0;
        return ctx->has_fighter ? 0 : -1;
    case TARGET_NICK:
        ctx->other_id =
            ctx->argc && users_account(ctx->bot->users, ctx->argv[0], &id, &name) ? id : 0;
        return 0;
    case TARGET_RULES:
        return target_rules(ctx, 0);
    case TARGET_RULES_LEAGUE:
        return target_rules(ctx, 1);
    case TARGET_BOUT:
        return target_bout(ctx, GAME_BOUT_ANY);
    case TARGET_OPEN_BOUT:
        return target_bout(ctx, GAME_BOUT_OPEN);
    case TARGET_LIVE_BOUT:
        return target_bout(ctx, GAME_BOUT_LIVE);
    case TARGET_MY_BOUT:
        return target_remote(ctx) ? 0 : target_bout(ctx, GAME_BOUT_MINE);
    case TARGET_MY_BOUT_FIRST:
        if (ctx->channel) /* orders are secret */
            return order_in_channel(ctx);
        return target_remote(ctx) ? 0 : target_my_bout_first(ctx);
    }
    return 0;
}

int bot_opponent(struct cmd_ctx *ctx, const char *nick, int64_t *id, char *name, size_t len)
{
    struct bot *bot = ctx->bot;
    struct db_account acc;
    const char *who;

    if (users_account(bot->users, nick, id, &who)) {
        snprintf(name, len, "%s", who);
        return 0;
    }
    if (game_account_find(bot->game, nick, &acc) == 0) {
        /* name@network of another network (issue 29): PostgreSQL only. */
        if (game_account_here(bot->game, &ctx->who, &acc, "challenge") != 0)
            return -1;
        *id = acc.id;
        game_account_name(bot->game, &acc, name, len);
        return 0;
    }
    if (strchr(nick, '@'))
        reply(ctx,
              "there is no account %s: name@network names a player of another network by his "
              "account's name and his bot's [bot] network",
              CLIP(nick, 64));
    else if (users_present(bot->users, nick))
        reply(ctx,
              "%s is here but has no account: %s must register first (/msg %s register "
              "<password>)",
              CLIP(nick, 30), CLIP(nick, 30), bot->nick);
    else
        reply(ctx, "no one called %s is here, and no account has that name; check the nick%s%s%s",
              CLIP(nick, 30), ctx->channel ? " (/names " : "", ctx->channel ? ctx->channel : "",
              ctx->channel ? " lists who is here)" : "");
    return -1;
}

const char *bot_league_channel(const struct bot *bot)
{
    for (int c = 0; c < USERS_CHANNELS; c++)
        if (bot->chan_in[c])
            return bot->chan[c];
    return NULL;
}

void bot_sim_slice(struct bot *bot)
{
    if (!bot->game || game_sims(bot->game) == 0)
        return;
    double until = bot_clock() + BOT_SIM_SLICE;
    do
        game_sim_step(bot->game, BOT_SIM_CHUNK);
    while (game_sims(bot->game) > 0 && bot_clock() < until);
}
