/*
 * reply.c - answering whoever ran a command: in the channel he used,
 * addressed to him by nick, or in private; always through the output
 * queue.
 */
#include <stdarg.h>
#include <stdio.h>

#include "bot.h"

static void vreply(struct cmd_ctx *ctx, int private_only, const char *fmt, va_list ap)
{
    char text[1024];

    vsnprintf(text, sizeof(text), fmt, ap);
    if (ctx->channel && !private_only)
        bot_say(ctx->bot, OUTQ_REPLY, ctx->channel, "%s: %s", ctx->nick, text);
    else
        bot_say(ctx->bot, OUTQ_REPLY, ctx->nick, "%s", text);
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
