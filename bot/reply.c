/*
 * reply.c - answering whoever ran a command: in the channel he used,
 * addressed to him by nick, or in private; always through the output
 * queue.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bot.h"

void bot_msg(struct bot *bot, enum outq_kind kind, const char *target, const char *owner,
             const char *text)
{
    /* The formatting a channel refuses is stripped as the line leaves
     * (bot/irc.c), when its modes are known. */
    outq_msg(bot->q, kind, "PRIVMSG", target, owner, text);
}

void bot_line_format(const struct bot *bot, char *line)
{
    char *target = strchr(line, ' ');

    if (!target || (strncmp(line, "PRIVMSG ", 8) != 0 && strncmp(line, "NOTICE ", 7) != 0))
        return;
    target++;
    char *text = strstr(target, " :");
    if (!text)
        return;
    char name[CONFIG_NICK_MAX * 2];
    snprintf(name, sizeof(name), "%.*s", (int)(text - target), target);
    int c = bot_chan_find(bot, name);
    if (c >= 0 && bot->chan_plain[c])
        irc_strip_format(text + 2, 0);
    else if (!bot->cfg.colours)
        irc_strip_format(text + 2, 1);
}

/* Lines of one command's answer sent as replies; the rest go as bulk. */
#define REPLY_LINES 3

static void vreply(struct cmd_ctx *ctx, int private_only, const char *fmt, va_list ap)
{
    char text[1024];

    vsnprintf(text, sizeof(text), fmt, ap);
    bot_db_watch(ctx->bot);
    /* A command's first lines are replies; a long answer's rest is bulk. */
    enum outq_kind kind = ctx->live                    ? OUTQ_LIVE
                          : ++ctx->lines > REPLY_LINES ? OUTQ_BULK
                                                       : OUTQ_REPLY;
    if (ctx->channel && !private_only) {
        char line[1100];
        snprintf(line, sizeof(line), "%s: %s", ctx->nick, text);
        bot_msg(ctx->bot, kind, ctx->channel, ctx->nick, line);
    } else {
        bot_msg(ctx->bot, kind, ctx->nick, ctx->nick, text);
    }
}

void reply(struct cmd_ctx *ctx, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreply(ctx, 0, fmt, ap);
    va_end(ap);
}

void reply_private(struct cmd_ctx *ctx, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreply(ctx, 1, fmt, ap);
    va_end(ap);
}

const char *cmd_typed(const struct cmd_ctx *ctx)
{
    return ctx->channel ? ctx->bot->cfg.prefix : "";
}

const char *cmd_page(const struct cmd_ctx *ctx, char *buf, size_t len, const char *fmt, ...)
{
    const char *base = ctx->bot->cfg.base_url;
    size_t n = strlen(base);
    struct str page;
    va_list ap;

    str_init_fixed(&page, buf, len);
    while (n > 0 && base[n - 1] == '/')
        n--;
    if (n == 0)
        return buf;
    str_add(&page, " - %.*s", (int)n, base);
    va_start(ap, fmt);
    str_vadd(&page, fmt, ap);
    va_end(ap);
    return buf;
}
