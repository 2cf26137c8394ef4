/*
 * reply.c - answering whoever ran a command: in the channel he used,
 * addressed to him by nick, or in private; always through the output
 * queue.
 */
#include <stdarg.h>
#include <stdio.h>

#include "bot.h"

/* Lines of one command's answer sent as replies; the rest go as bulk. */
#define REPLY_LINES 3

static void vreply(struct cmd_ctx *ctx, int private_only, const char *fmt, va_list ap)
{
    char text[1024];

    vsnprintf(text, sizeof(text), fmt, ap);
    /* A command's first lines are replies; a long answer's rest is bulk. */
    enum outq_kind kind = ctx->live                    ? OUTQ_LIVE
                          : ++ctx->lines > REPLY_LINES ? OUTQ_BULK
                                                       : OUTQ_REPLY;
    if (ctx->channel && !private_only) {
        char line[1100];
        snprintf(line, sizeof(line), "%s: %s", ctx->nick, text);
        outq_msg(ctx->bot->q, kind, "PRIVMSG", ctx->channel, ctx->nick, line);
    } else {
        outq_msg(ctx->bot->q, kind, "PRIVMSG", ctx->nick, ctx->nick, text);
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
