/*
 * cmd-channel.c - the channels the bot is in by invitation ([irc]
 * join_on_invite): who the channel operators are (from NAMES and MODE,
 * kept here for the channels the bot is in) and `part`, with which a
 * channel operator (or one of the bot's admins) makes it leave a channel
 * it was invited to and forget it. A channel of the configuration is the
 * operator's to change, in the file.
 */
#include <stdlib.h>
#include <string.h>

#include "bot.h"

struct chanop {
    int chan;
    char nick[CONFIG_NICK_MAX * 2];
};

/* The channel operators of the bot's channels: a list on the heap. */
struct chanops {
    struct chanop *v;
    int n, cap;
};

static int op_find(const struct bot *bot, int chan, const char *nick)
{
    const struct chanops *o = bot->ops;

    for (int i = 0; o && i < o->n; i++)
        if (o->v[i].chan == chan && irc_casecmp(bot->cm, o->v[i].nick, nick) == 0)
            return i;
    return -1;
}

void chanops_set(struct bot *bot, int chan, const char *nick, int op)
{
    int i = op_find(bot, chan, nick);

    if (!bot->ops)
        bot->ops = xcalloc(1, sizeof(*bot->ops));
    struct chanops *o = bot->ops;
    if (!op) {
        if (i >= 0)
            o->v[i] = o->v[--o->n];
        return;
    }
    if (i >= 0 || !nick[0])
        return;
    if (o->n == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 16;
        o->v = xrealloc(o->v, (size_t)o->cap * sizeof(*o->v));
    }
    o->v[o->n].chan = chan;
    snprintf(o->v[o->n].nick, sizeof(o->v[o->n].nick), "%s", nick);
    o->n++;
}

int chanops_is(const struct bot *bot, int chan, const char *nick)
{
    return op_find(bot, chan, nick) >= 0;
}

void chanops_rename(struct bot *bot, const char *old_nick, const char *new_nick)
{
    struct chanops *o = bot->ops;

    for (int i = 0; o && i < o->n; i++)
        if (irc_casecmp(bot->cm, o->v[i].nick, old_nick) == 0)
            snprintf(o->v[i].nick, sizeof(o->v[i].nick), "%s", new_nick);
}

void chanops_gone(struct bot *bot, int chan, const char *nick)
{
    struct chanops *o = bot->ops;

    for (int i = 0; o && i < o->n;)
        if ((chan < 0 || o->v[i].chan == chan) &&
            (!nick || irc_casecmp(bot->cm, o->v[i].nick, nick) == 0))
            o->v[i] = o->v[--o->n];
        else
            i++;
}

void chanops_free(struct bot *bot)
{
    if (bot->ops)
        free(bot->ops->v);
    free(bot->ops);
    bot->ops = NULL;
}

void chanops_mode(struct bot *bot, int chan, const char **params, unsigned int count)
{
    int on = 1;
    unsigned int arg = 2;

    for (const char *m = params[1]; *m; m++) {
        if (*m == '+' || *m == '-') {
            on = *m == '+';
            continue;
        }
        /* The modes that take a nick or a mask or a key (l only when set). */
        int takes = strchr("qaohvbeIk", *m) != NULL || (*m == 'l' && on);
        if (!takes)
            continue;
        if (arg >= count)
            return;
        const char *who = params[arg++];
        if (strchr("qao", *m))
            chanops_set(bot, chan, who, on);
    }
}

/* 1 if channel `name` is one of [irc] channels. */
static int configured(const struct bot *bot, const char *name)
{
    for (int i = 0; i < bot->cfg.nchannels; i++)
        if (irc_casecmp(bot->cm, bot->cfg.channels[i], name) == 0)
            return 1;
    return 0;
}

static int cmd_part(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    int c = bot_chan_find(bot, ctx->channel);

    if (c < 0)
        return -1;
    if (!chanops_is(bot, c, ctx->nick) && !(ctx->account && bot_is_admin(bot, ctx->account))) {
        reply(ctx, "part is for this channel's operators (and my admins) only");
        return -1;
    }
    if (configured(bot, ctx->channel)) {
        reply(ctx,
              "%s is in my configuration: my operator must take it out of [irc] channels "
              "(the file, then a reload)",
              ctx->channel);
        return -1;
    }
    char why[96];
    snprintf(why, sizeof(why), "%s asked me to leave", CLIP(ctx->nick, 40));
    if (bot_chan_forget(bot, c, why) != 0) {
        reply(ctx, "I could not forget %s (the database failed); I stay", ctx->channel);
        return -1;
    }
    return 0;
}

const struct cmd_entry cmd_part_entry = {
    .name = "part",
    .where = CMD_CHANNEL,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 0,
    .usage = "",
    .help = "a channel operator makes me leave this channel, and forget it (a channel I "
            "joined on an invite)",
    .exec = cmd_part,
};
