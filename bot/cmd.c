/*
 * cmd.c - the command table and its dispatcher: parsing a line into
 * words, finding the command, and the checks every command shares, each a
 * named stage that may refuse with its own one line before the handler
 * runs (ngircd's Validate_* before Handle_Request): who he is, the flood
 * limit, where, who may, how many arguments, and the target the entry
 * declares (tmux's .target: a fighter, his fighter, a nick, a ruleset and
 * a league, a bout), resolved through the game's calls (bot_target). Each
 * command family declares its entries in its own cmd-*.c file, whose
 * handlers only map words to the game's calls; `help` is generated from
 * the table.
 *
 * A handler answers through reply() or the game's caller with its result
 * or a one-line error saying what was wrong and how to do it right, and
 * returns 0 or -1: the dispatcher logs it and counts it per command
 * (cmd_stats). Nothing a user typed is ever used as a format string.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "bot.h"

static int cmd_help(struct cmd_ctx *ctx);
static int cmd_version(struct cmd_ctx *ctx);

static const struct cmd_entry cmd_help_entry = {
    .name = "help",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 1,
    .usage = "[command]",
    .help = "lists the commands, or explains one",
    .exec = cmd_help,
};
static const struct cmd_entry cmd_version_entry = {
    .name = "version",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 0,
    .usage = "",
    .help = "says which Ringside this is",
    .exec = cmd_version,
};

/* One entry a line, in help order (clang-format would pack a long list
 * into columns). */
/* clang-format off */
const struct cmd_entry *const cmd_table[] = {
    &cmd_help_entry,      &cmd_version_entry,
    &cmd_register_entry,  &cmd_identify_entry,
    &cmd_logout_entry,    &cmd_passwd_entry,
    &cmd_resetpass_entry, /* admins: in the account family, as it sets a password */
    &cmd_create_entry,
    &cmd_fighter_entry,
    &cmd_fighters_entry,
    &cmd_train_entry,
    &cmd_retire_entry,
    &cmd_armoury_entry,
    &cmd_equip_entry,
    &cmd_unequip_entry,
    &cmd_challenge_entry,
    &cmd_accept_entry,
    &cmd_decline_entry,
    &cmd_withdraw_entry,
    &cmd_forfeit_entry,
    &cmd_order_entry,
    &cmd_plan_entry,
    &cmd_sim_entry, /* fought from the event loop: bot_sim_slice */
    &cmd_bouts_entry,
    &cmd_score_entry,
    &cmd_report_entry,
    &cmd_standings_entry,
    &cmd_ratings_entry,
    &cmd_champion_entry,
    &cmd_league_entry,
    &cmd_part_entry,
    &cmd_predict_entry, /* what spectators play: cmd-predict.c */
    &cmd_pundits_entry,
    &cmd_pause_entry,
    &cmd_season_entry, /* seasons: bot/cmd-season.c */
    &cmd_halloffame_entry,
    &cmd_ban_entry,
    &cmd_unban_entry,
    &cmd_set_entry,
    &cmd_cancel_entry,
    &cmd_turn_entry,
    &cmd_tournament_entry,
    &cmd_bracket_entry,
    NULL,
};
/* clang-format on */

static int word_in(const char *word, const char *list)
{
    size_t n = strlen(word);

    while (list && *list) {
        const char *end = strchr(list, ' ');
        size_t len = end ? (size_t)(end - list) : strlen(list);
        if (len == n && strncmp(list, word, n) == 0)
            return 1;
        list = end ? end + 1 : NULL;
    }
    return 0;
}

const struct cmd_entry *cmd_find(const char *name)
{
    for (int i = 0; cmd_table[i]; i++)
        if (strcmp(cmd_table[i]->name, name) == 0 || word_in(name, cmd_table[i]->aliases))
            return cmd_table[i];
    return NULL;
}

int cmd_parse(const char *text, const char *prefix, int private_msg, struct cmd_line *out)
{
    size_t plen = strlen(prefix);

    out->argc = 0;
    while (*text == ' ')
        text++;
    if (plen && strncmp(text, prefix, plen) == 0)
        text += plen;
    else if (!private_msg)
        return 0;
    size_t n = strnlen(text, sizeof(out->buf) - 1); /* cut as snprintf would, for less */
    memcpy(out->buf, text, n);
    out->buf[n] = '\0';
    char *p = out->buf;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            *p++ = '\0';
        if (!*p)
            break;
        if (out->argc == CMD_ARGS_MAX + 1) {
            out->argc = 0;
            return -1;
        }
        out->argv[out->argc++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    if (out->argc == 0)
        return 0;
    for (char *c = out->argv[0]; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    return 1;
}

#define CMD_USAGE_MAX 256

/* The usage line of `e` with "{rules}" spelled out as the rulesets there
 * are ("boxing|sugarray"), into buf. Returns buf. */
static const char *usage_text(const struct cmd_entry *e, char *buf, size_t len)
{
    const char *at = strstr(e->usage, "{rules}");
    char names[128];

    if (!at) {
        snprintf(buf, len, "%s", e->usage);
        return buf;
    }
    snprintf(buf, len, "%.*s%s%s", (int)(at - e->usage), e->usage,
             rules_list(names, sizeof(names), "", "|", "|"), at + strlen("{rules}"));
    return buf;
}

static void usage(struct cmd_ctx *ctx, const struct cmd_entry *e, const char *why)
{
    const char *p = ctx->bot->cfg.prefix;

    char use[CMD_USAGE_MAX];

    reply(ctx, "%s; usage: %s%s%s%s", why, ctx->channel ? p : "", e->name, e->usage[0] ? " " : "",
          usage_text(e, use, sizeof(use)));
}

/* 1 if what services say of `nick` must be asked (WHOIS) before command
 * `e` (NULL: orders, perhaps) runs: it needs an account, the nick has no
 * password identity, and the server's word on his login is unknown, or
 * old on a server that does not tell of logins as they happen. */
static int services_unsure(struct bot *bot, const char *nick, const struct cmd_entry *e)
{
    double when;

    if (bot->cfg.accounts == ACCOUNTS_PASSWORDS || (e && e->need == CMD_ANYONE))
        return 0;
    if (users_account(bot->users, nick, NULL, NULL) && !users_via_services(bot->users, nick))
        return 0;
    int st = users_services(bot->users, nick, NULL, &when);
    return st < 0 || (!whois_account_notify(&bot->whois) && bot->now - when > ACCOUNTS_RECHECK);
}

/* 1 if the account a nick without an identity would be (his services
 * login's, else the one named like his nick) is banned, into *acc. */
static int banned_account(struct bot *bot, const char *nick, struct db_account *acc)
{
    const char *svc;

    if (!bot->game)
        return 0;
    if (bot->cfg.accounts != ACCOUNTS_PASSWORDS &&
        users_services(bot->users, nick, &svc, NULL) == 1 &&
        game_account_find(bot->game, svc, acc) == 0)
        return acc->banned;
    return game_account_find(bot->game, nick, acc) == 0 && acc->banned;
}

int cmd_why_no_account(struct cmd_ctx *ctx, const char *what)
{
    struct bot *bot = ctx->bot;
    struct db_account acc;
    char list[300];
    struct str s;

    if (banned_account(bot, ctx->nick, &acc)) {
        str_init_fixed(&s, list, sizeof(list));
        for (int i = 0, n = 0; cmd_table[i]; i++)
            if (cmd_table[i]->need == CMD_ANYONE && !cmd_table[i]->secret &&
                cmd_table[i] != &cmd_part_entry)
                str_add(&s, "%s%s%s", n++ ? ", " : "", cmd_typed(ctx), cmd_table[i]->name);
        reply(ctx, "the account %s is banned: only what needs no account is open to you (%s)",
              acc.name, list);
        return 1;
    }
    if (users_present(bot->users, ctx->nick))
        return 0;
    for (int c = 0; c < USERS_CHANNELS; c++)
        if (bot->chan_in[c]) {
            if (bot->cfg.accounts == ACCOUNTS_SERVICES)
                reply(ctx,
                      "%s: join %s first; I know you by your services login only while we share "
                      "a channel",
                      what, bot->chan[c]);
            else
                reply(ctx,
                      "%s: join %s first, then identify (/msg %s identify <password>); I only "
                      "keep you identified while we share a channel",
                      what, bot->chan[c], bot->nick);
            return 1;
        }
    return 0;
}

void cmd_no_account(struct cmd_ctx *ctx, const char *name)
{
    struct bot *bot = ctx->bot;
    const char *svc;
    char what[64];

    snprintf(what, sizeof(what), "%s needs an account", name);
    if (cmd_why_no_account(ctx, what))
        return;
    if (bot->cfg.accounts == ACCOUNTS_SERVICES) {
        reply(ctx, "%s needs an account: log in to services (NickServ) and I will know you", name);
    } else if (bot->cfg.accounts == ACCOUNTS_BOTH &&
               users_services(bot->users, ctx->nick, &svc, NULL) == 1) {
        reply(ctx,
              "%s needs an account: the account %s has a password; identify once (/msg %s "
              "identify <password>) and from then on your services login is enough",
              name, CLIP(svc, 30), bot->nick);
    } else {
        reply(ctx,
              "%s needs an account: identify first (/msg %s identify <password>), or "
              "register one",
              name, bot->nick);
    }
}

/* ------------------------------------------------------- the dispatcher */

/* One message on its way through the stages. */
struct dispatch {
    struct cmd_line line;
    int parsed; /* cmd_parse's result */
    const char *text;
    const struct cmd_entry *e; /* NULL until known: no command, or orders */
    struct cmd_ctx ctx;
    int counted; /* the flood limit counted it (as a full command) */
};

/* What a stage decides: go on, stop with nothing more to do (chat, a
 * question to the server first, orders taken), or refuse (it answered). */
enum stage { STAGE_GO, STAGE_DONE, STAGE_REFUSED };

/* One counter per entry of cmd_table (its last element is the NULL that
 * ends it). */
#define CMD_TABLE_LEN (sizeof(cmd_table) / sizeof(cmd_table[0]))
static struct cmd_count cmd_counts[CMD_TABLE_LEN];

/* The counters of entry `e`, or NULL. */
static struct cmd_count *count_of(const struct cmd_entry *e)
{
    for (size_t i = 0; e && i < CMD_TABLE_LEN && cmd_table[i]; i++)
        if (cmd_table[i] == e)
            return &cmd_counts[i];
    return NULL;
}

/* Counts a run of entry `e` whose handler returned rc. */
static void count_run(const struct cmd_entry *e, int rc)
{
    struct cmd_count *c = count_of(e);

    if (!c)
        return;
    c->runs++;
    c->refused += rc != 0;
}

int cmd_stats(const char *name, struct cmd_count *out)
{
    struct cmd_count *c = count_of(cmd_find(name));

    if (!c)
        return -1;
    *out = *c;
    return 0;
}

/* The words: chat is no command; the name is looked up. */
static enum stage stage_parse(struct dispatch *d)
{
    struct cmd_ctx *ctx = &d->ctx;

    d->parsed = cmd_parse(d->text, ctx->bot->cfg.prefix, ctx->channel == NULL, &d->line);
    if (d->parsed == 0) {
        if (ctx->channel &&
            !ctx->bot->relay) /* orders said here without the prefix: where they go */
            bot_channel_hint(ctx, d->text);
        return STAGE_DONE;
    }
    d->e = d->parsed > 0 ? cmd_find(d->line.argv[0]) : NULL;
    return STAGE_GO;
}

/* Who he is, when only the server can say: asked first, and the message
 * run again when the answer is in. */
static enum stage stage_services(struct dispatch *d)
{
    struct cmd_ctx *ctx = &d->ctx;

    if (d->parsed > 0 && !ctx->bot->relay && services_unsure(ctx->bot, ctx->nick, d->e) &&
        whois_then(ctx->bot, ctx->nick, ctx->channel, d->text) == 0)
        return STAGE_DONE;
    return STAGE_GO;
}

/* "one every 5 seconds", or "3 every 10 seconds" when the pace is no whole
 * number of seconds: the steady pace of the inbound limit, into buf. */
static const char *flood_pace(const struct config *cfg, char *buf, size_t len)
{
    int n = cfg->commands > 0 ? cfg->commands : 1, w = cfg->commands_seconds;

    if (w % n == 0 && w / n == 1)
        snprintf(buf, len, "one a second");
    else if (w % n == 0)
        snprintf(buf, len, "one every %d seconds", w / n);
    else if (w == 1)
        snprintf(buf, len, "%d a second", n);
    else
        snprintf(buf, len, "%d every %d seconds", n, w);
    return buf;
}

/* The flood limit (users_rate: a burst, then a steady pace). Orders for
 * one's own live bout are never limited: a player answering as fast as
 * the bot asks must never be ignored in his own bout. A command past the
 * limit is not run and is answered, privately, with when the next one
 * will be taken, unless he was told so a few seconds before
 * (USERS_RATE_TELL_EVERY): his replies go as bulk while he waits
 * (outq_demote), behind everyone else's, so a flood costs the bot one
 * line per nick per USERS_RATE_TELL_EVERY seconds at most, and never
 * delays a bout. */
static enum stage stage_flood(struct dispatch *d)
{
    struct cmd_ctx *ctx = &d->ctx;
    struct bot *bot = ctx->bot;
    int own_order = 0;
    char pace[48];

    if (!ctx->channel && bot->game && (!d->e || d->e == &cmd_order_entry)) {
        users_account(bot->users, ctx->nick, &ctx->account_id, &ctx->account);
        own_order = ctx->account_id && game_account_live(bot->game, ctx->account_id) &&
                    (d->e || bot_looks_like_order(d->text));
    }
    /* Help and a word that is no command (nor orders) cost a third, known
     * now: a burst of them needs only a third's worth left each. */
    int light = d->e == &cmd_help_entry || (!d->e && !bot_looks_like_order(d->text));
    enum users_rate st =
        own_order ? USERS_RATE_OK
                  : users_rate_as(bot->users, ctx->nick, bot->now, light ? 1 : USERS_RATE_FULL);
    if (st == USERS_RATE_OK) {
        d->counted = !own_order;
        return STAGE_GO;
    }
    double wait_s = users_rate_wait(bot->users, ctx->nick, bot->now);
    int wait = (int)(wait_s + 0.999);
    const char *secs = wait == 1 ? "second" : "seconds";
    outq_demote(bot->q, ctx->nick, wait_s);
    /* The notice goes before his own answers still waiting (as bulk, behind
     * everyone else's): said after them, its wait would be stale. */
    unsigned long mark = outq_mark(bot->q);
    switch (st) {
    case USERS_RATE_WARN:
        log_msg(LOG_INFO, "flood: %s waits %d s", ctx->nick, wait);
        reply_private(ctx,
                      "too many commands: I take yours again in %d %s; at most %d at once, "
                      "then %s, please (help, typos and refused commands count a third, and so "
                      "does each command sent meanwhile; orders for your own bout are always "
                      "taken)",
                      wait, secs, bot->cfg.commands, flood_pace(&bot->cfg, pace, sizeof(pace)));
        break;
    case USERS_RATE_TELL:
        reply_private(ctx,
                      "too many commands: I take yours again in %d %s (orders for your own "
                      "bout are always taken)",
                      wait, secs);
        break;
    case USERS_RATE_IGNORE:
    default:
        if (d->e != &cmd_predict_entry)
            return STAGE_DONE;
        /* A prediction is never dropped unsaid: he must know to say it
         * again before it closes. */
        reply_private(ctx,
                      "too many commands: your prediction was not taken; say it again in %d %s",
                      wait, secs);
        break;
    }
    reply_flush(ctx, NULL); /* a channel's answer is held until now */
    outq_first(bot->q, ctx->nick, mark);
    return STAGE_REFUSED;
}

/* Too many words for any command. */
static enum stage stage_words(struct dispatch *d)
{
    if (d->parsed > 0)
        return STAGE_GO;
    reply(&d->ctx, "too many words: a command takes at most %d arguments; see %shelp", CMD_ARGS_MAX,
          cmd_typed(&d->ctx));
    return STAGE_REFUSED;
}

/* His identity (a password's, or services' where allowed), and the
 * caller the game answers. */
static enum stage stage_identity(struct dispatch *d)
{
    struct cmd_ctx *ctx = &d->ctx;
    struct bot *bot = ctx->bot;

    if (bot->relay) { /* a bridged name: nobody, whoever has that nick on IRC */
        bot_caller(ctx, &ctx->who);
        return STAGE_GO;
    }
    users_account(bot->users, ctx->nick, &ctx->account_id, &ctx->account);
    if (!ctx->account && (!d->e || d->e->need != CMD_ANYONE) && accounts_resolve(bot, ctx->nick, 1))
        users_account(bot->users, ctx->nick, &ctx->account_id, &ctx->account);
    bot_caller(ctx, &ctx->who);
    return STAGE_GO;
}

/* The command, or orders without the word, or an unknown word. */
static enum stage stage_command(struct dispatch *d)
{
    struct cmd_ctx *ctx = &d->ctx;

    int taken = !d->e && ctx->bot->game ? bot_private_order(ctx, d->text) : 0;
    if (taken) {
        count_run(&cmd_order_entry, taken < 0); /* orders without the word */
        return taken < 0 ? STAGE_REFUSED : STAGE_DONE;
    }
    if (!d->e) {
        reply(ctx, "unknown command \"%s\"; say %shelp for the list", CLIP(d->line.argv[0], 39),
              cmd_typed(ctx));
        return STAGE_REFUSED;
    }
    ctx->argc = d->line.argc - 1;
    for (int i = 0; i < ctx->argc; i++)
        ctx->argv[i] = d->line.argv[i + 1];
    return STAGE_GO;
}

/* Through a bridge nobody is identified: only the commands that need no
 * account run; the others are told how to play. */
static enum stage stage_bridge(struct dispatch *d)
{
    struct cmd_ctx *ctx = &d->ctx;

    if (!ctx->bot->relay || bridge_command_ok(d->e->name))
        return STAGE_GO;
    reply(ctx,
          "%s works only from IRC, where I can tell who you are: join %s with an IRC client "
          "(through a bridge you can use %sstandings, fighter, score, bouts, report and help)",
          d->e->name, ctx->channel ? ctx->channel : "the channel", ctx->bot->cfg.prefix);
    return STAGE_REFUSED;
}

/* A password said in public: refused, never logged nor stored in clear,
 * and the password it gave away burnt. */
static enum stage stage_secret(struct dispatch *d)
{
    if (!d->e->secret || !d->ctx.channel)
        return STAGE_GO;
    account_overheard(&d->ctx, d->e);
    return STAGE_REFUSED;
}

/* Where the command may be said. */
static enum stage stage_where(struct dispatch *d)
{
    struct cmd_ctx *ctx = &d->ctx;
    const struct cmd_entry *e = d->e;

    if (e->where & (ctx->channel ? CMD_CHANNEL : CMD_PRIVATE))
        return STAGE_GO;
    if (ctx->channel)
        reply(ctx, "%s works only in private: /msg %s %s ...", e->name, ctx->bot->nick, e->name);
    else
        reply(ctx, "%s works only in a channel: say %s%s there", e->name, ctx->bot->cfg.prefix,
              e->name);
    return STAGE_REFUSED;
}

/* Who may say it: anyone, the identified, the admins. */
static enum stage stage_need(struct dispatch *d)
{
    struct cmd_ctx *ctx = &d->ctx;

    if (d->e->need != CMD_ANYONE && !ctx->account) {
        cmd_no_account(ctx, d->e->name);
        return STAGE_REFUSED;
    }
    if (d->e->need == CMD_ADMIN && !bot_is_admin(ctx->bot, ctx->account)) {
        reply(ctx, "%s is for the bot's admins only", d->e->name);
        return STAGE_REFUSED;
    }
    return STAGE_GO;
}

/* How many arguments it takes. */
static enum stage stage_args(struct dispatch *d)
{
    if (d->ctx.argc < d->e->args_min) {
        usage(&d->ctx, d->e, "missing arguments");
        return STAGE_REFUSED;
    }
    if (d->e->args_max >= 0 && d->ctx.argc > d->e->args_max) {
        usage(&d->ctx, d->e, "too many arguments");
        return STAGE_REFUSED;
    }
    return STAGE_GO;
}

/* What it acts on, as its entry declares. */
static enum stage stage_target(struct dispatch *d)
{
    return bot_target(&d->ctx, d->e->target) == 0 ? STAGE_GO : STAGE_REFUSED;
}

/* Runs the handler; its result is logged and counted. Returns it. */
static int handle(struct dispatch *d)
{
    const struct cmd_entry *e = d->e;

    if (e->secret)
        log_msg(LOG_INFO, "%s: %s", d->ctx.nick, e->name);
    else
        log_msg(LOG_DEBUG, "%s: %s (%d args)", d->ctx.nick, e->name, d->ctx.argc);
    int rc = e->exec(&d->ctx);
    count_run(e, rc);
    if (rc != 0)
        log_msg(LOG_DEBUG, "%s: %s refused", d->ctx.nick, e->name);
    return rc;
}

static enum stage (*const stages[])(struct dispatch *) = {
    stage_parse,  stage_services, stage_flood, stage_words, stage_identity, stage_command,
    stage_bridge, stage_secret,   stage_where, stage_need,  stage_args,     stage_target,
};

void cmd_dispatch(struct bot *bot, const char *nick, const char *channel, const char *text)
{
    struct dispatch d = {.text = text, .ctx = {.bot = bot, .nick = nick, .channel = channel}};

    outq_answer_begin(bot->q);
    for (size_t i = 0; i < sizeof(stages) / sizeof(stages[0]); i++) {
        enum stage st = stages[i](&d);
        if (st == STAGE_GO)
            continue;
        struct cmd_count *c = st == STAGE_REFUSED ? count_of(d.e) : NULL;
        if (c)
            c->stopped++;
        if (st == STAGE_REFUSED && d.e)
            log_msg(LOG_DEBUG, "%s: %s stopped before it ran", nick, d.e->name);
        if (st == STAGE_REFUSED && d.counted) /* a typo or a refusal: learning */
            users_rate_light(bot->users, nick);
        reply_flush(&d.ctx, d.e ? d.e->name : NULL);
        return;
    }
    if ((handle(&d) != 0 || d.e == &cmd_help_entry) && d.counted)
        users_rate_light(bot->users, nick);
    reply_flush(&d.ctx, d.e->name);
}

/* `help <command>`: its usage, what it does, where and for whom. */
static int help_one(struct cmd_ctx *ctx, const char *p)
{
    char name[32];

    text_clip(name, sizeof(name), ctx->argv[0], sizeof(name) - 1);
    for (char *c = name; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    const char *n = name[0] == ctx->bot->cfg.prefix[0] ? name + 1 : name;
    const struct cmd_entry *e = cmd_find(n);
    if (!e) {
        reply(ctx, "no command \"%s\"; say %shelp for the list", n, p);
        return -1;
    }
    char aka[64] = "";
    if (e->aliases)
        snprintf(aka, sizeof(aka), " (also: %s)", e->aliases);
    char use[CMD_USAGE_MAX], where[96];
    snprintf(where, sizeof(where), "%s%s",
             e->where == CMD_PRIVATE   ? "in private: /msg "
             : e->where == CMD_CHANNEL ? "in a channel"
                                       : "",
             e->where == CMD_PRIVATE ? ctx->bot->nick : "");
    const char *need = e->need == CMD_ADMIN     ? "admins only"
                       : e->need == CMD_ACCOUNT ? "identify first"
                                                : "";
    reply(ctx, "%s%s%s%s: %s%s%s%s%s%s%s", p, e->name, e->usage[0] ? " " : "",
          usage_text(e, use, sizeof(use)), e->help, where[0] || need[0] ? " (" : "", where,
          where[0] && need[0] ? "; " : "", need, where[0] || need[0] ? ")" : "", aka);
    if (e->help_more)
        e->help_more(ctx);
    return 0;
}

static int cmd_help(struct cmd_ctx *ctx)
{
    const char *p = cmd_typed(ctx);
    char list[400];
    struct str s;

    if (ctx->argc == 1)
        return help_one(ctx, p);
    /* An admin's commands are listed to admins only: a newcomer's list is
     * what he can use (help <command> still says what any one does). */
    int admin = ctx->account && bot_is_admin(ctx->bot, ctx->account);
    str_init_fixed(&s, list, sizeof(list));
    for (int i = 0; cmd_table[i]; i++)
        if (admin || cmd_table[i]->need != CMD_ADMIN)
            str_add(&s, "%s%s", s.len ? " " : "", cmd_table[i]->name);
    reply(ctx, "commands: %s. Say %shelp <command> for one.", list, p);
    return 0;
}

/* The answer never changes while the program runs: built at the first
 * `version`, then said as it is (the command a bench or a client's CTCP
 * check sends most). */
static int cmd_version(struct cmd_ctx *ctx)
{
    static char text[192];

    if (!text[0]) {
        char names[128];
        snprintf(text, sizeof(text), "Ringside " RINGSIDE_VERSION ", an IRC boxing bot (rules: %s)",
                 rules_list(names, sizeof(names), "", ", ", ", "));
    }
    reply_text(ctx, text);
    return 0;
}
