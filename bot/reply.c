/*
 * reply.c - answering whoever ran a command: in the channel he used,
 * addressed to him by nick, or in private; always through the output
 * queue. A channel hears at most REPLY_LINES lines of one answer: the
 * answer to a command said there is held until the command is over, its
 * lines counted as the queue will cut them, and a longer one goes to him
 * in private with one line in the channel saying so. With [bot] replies =
 * notice or private, the channel hears none of it: what would have gone
 * there goes to him by NOTICE or in private (a quiet channel).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

/* A byte of a nick (RFC 2812: letters, digits, []\\`_^{|} and -). */
static int nick_byte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("[]\\`_^{|}-", c));
}

/* Whether the word `w` (n bytes) is the nick of someone in the bot's
 * channels other than the bot; 1 and the nick in nick[len]. */
static int nick_word(const struct bot *bot, const char *w, size_t n, char *nick, size_t len)
{
    if (n == 0 || n >= len)
        return 0;
    memcpy(nick, w, n);
    nick[n] = '\0';
    return users_present(bot->users, nick) && irc_casecmp(bot->cm, nick, bot->nick) != 0;
}

void bot_highlight_cap(const struct bot *bot, const char *target, const char *text, struct str *out)
{
    char seen[HIGHLIGHT_MAX][CONFIG_NICK_MAX * 2], nick[CONFIG_NICK_MAX * 2];
    int n = 0;

    str_init(out);
    if (!irc_is_channel(target, bot->chantypes[0] ? bot->chantypes : "#&")) {
        str_cat(out, text);
        return;
    }
    for (const char *p = text; *p;) {
        size_t w = 0;
        while (nick_byte(p[w]))
            w++;
        if (w == 0) {
            str_add(out, "%c", *p++);
            continue;
        }
        int known = 0;
        if (nick_word(bot, p, w, nick, sizeof(nick))) {
            for (int i = 0; i < n && !known; i++)
                known = irc_casecmp(bot->cm, seen[i], nick) == 0;
            if (!known && n < HIGHLIGHT_MAX)
                snprintf(seen[n++], sizeof(seen[0]), "%s", nick), known = 1;
            if (!known) { /* one more would highlight: a zero-width space breaks it */
                str_add(out, "%c\xe2\x80\x8b%.*s", p[0], (int)(w - 1), p + 1);
                p += w;
                continue;
            }
        }
        str_add(out, "%.*s", (int)w, p);
        p += w;
    }
}

void bot_msg(struct bot *bot, enum outq_kind kind, const char *target, const char *owner,
             const char *text)
{
    struct str capped;

    /* A line to a nick has no highlights to cap: queued as it is, not
     * copied (every private reply came this way). */
    if (!irc_is_channel(target, bot->chantypes[0] ? bot->chantypes : "#&")) {
        outq_msg(bot->q, kind, "PRIVMSG", target, owner, text);
        return;
    }
    /* The formatting a channel refuses is stripped as the line leaves
     * (bot/irc.c), when its modes are known. */
    bot_highlight_cap(bot, target, text, &capped);
    outq_msg(bot->q, kind, "PRIVMSG", target, owner, capped.p);
    str_free(&capped);
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
    size_t n = (size_t)(text - target);
    /* A line to a nick with colours on: nothing to take out (the common
     * case, at every line sent: no copy, no look through the channels). */
    if (bot->cfg.colours && !irc_is_channel(target, bot->chantypes[0] ? bot->chantypes : "#&"))
        return;
    char name[CONFIG_NICK_MAX * 2];
    if (n >= sizeof(name))
        n = sizeof(name) - 1;
    memcpy(name, target, n);
    name[n] = '\0';
    int c = bot_chan_find(bot, name);
    if (c >= 0 && bot->chan_plain[c])
        irc_strip_format(text + 2, 0);
    else if (!bot->cfg.colours)
        irc_strip_format(text + 2, 1);
}

/* Lines of one command's answer sent as replies; the rest go as bulk. In
 * a channel, an answer longer than this goes to him in private. */
#define REPLY_LINES 3

/* Sends one line of the answer: in the channel addressed to him, or in
 * private; its first lines as replies, the rest as bulk. */
static void answer_line(struct cmd_ctx *ctx, int in_channel, const char *text)
{
    enum outq_kind kind = ctx->live                    ? OUTQ_LIVE
                          : ++ctx->lines > REPLY_LINES ? OUTQ_BULK
                                                       : OUTQ_REPLY;
    enum replies_mode mode = ctx->bot->cfg.replies;
    if (ctx->bot->relay && ctx->channel) /* a bridged name: no one on IRC by that nick */
        in_channel = 1, mode = REPLIES_CHANNEL;
    if (in_channel && mode == REPLIES_NOTICE) {
        outq_msg(ctx->bot->q, kind, "NOTICE", ctx->nick, ctx->nick, text);
    } else if (in_channel && mode == REPLIES_CHANNEL) {
        struct str line;
        str_init(&line);
        str_add(&line, "%s: %s", ctx->nick, text);
        bot_msg(ctx->bot, kind, ctx->channel, ctx->nick, line.p);
        str_free(&line);
    } else {
        bot_msg(ctx->bot, kind, ctx->nick, ctx->nick, text);
    }
}

/* The lines the held answer's channel part makes in the channel (*chan,
 * "nick: " before each) and in private (*priv), as the queue will cut
 * them. */
static void held_count(const struct cmd_ctx *ctx, const char *held, size_t *chan, size_t *priv)
{
    struct outq *q = ctx->bot->q;
    struct str line;

    *chan = *priv = 0;
    str_init(&line);
    for (const char *p = held; *p;) {
        size_t n = strcspn(p, "\n");
        if (*p == 'c') {
            str_clear(&line);
            str_add(&line, "%s: %.*s", ctx->nick, (int)(n - 1), p + 1);
            *chan += outq_pieces(q, "PRIVMSG", ctx->channel, line.p);
            *priv += outq_pieces(q, "PRIVMSG", ctx->nick, line.p + strlen(ctx->nick) + 2);
        }
        p += n + (p[n] == '\n');
    }
    str_free(&line);
}

/* The line a bridged name gets instead of an answer too long for the
 * channel (nothing can go to him in private). */
static struct str bridge_too_long(const struct cmd_ctx *ctx, const char *command, size_t lines)
{
    struct str note;

    str_init(&note);
    str_cat(&note, "the answer");
    if (command)
        str_add(&note, " to %s%s", ctx->bot->cfg.prefix, command);
    str_add(&note, " is %zu lines, too long for the channel: ask me in private from IRC", lines);
    return note;
}

void reply_flush(struct cmd_ctx *ctx, const char *command)
{
    if (!ctx->held.p)
        return;
    char *held = str_take(&ctx->held, NULL);
    size_t chan, priv;
    held_count(ctx, held, &chan, &priv);
    int away = chan > REPLY_LINES;
    if (away && ctx->bot->relay) {
        struct str note = bridge_too_long(ctx, command, priv);
        answer_line(ctx, 1, note.p);
        str_free(&note);
        free(held);
        ctx->held.p = NULL;
        return;
    }
    if (away && ctx->bot->cfg.replies == REPLIES_CHANNEL) {
        struct str note;
        str_init(&note);
        str_cat(&note, "the answer");
        if (command)
            str_add(&note, " to %s%s", ctx->bot->cfg.prefix, command);
        str_add(&note, " is %zu lines; sent to you in private.", priv);
        answer_line(ctx, 1, note.p);
        str_free(&note);
    }
    for (char *p = held; *p;) {
        size_t n = strcspn(p, "\n");
        int here = *p == 'c' && !away;
        p[n] = '\0';
        answer_line(ctx, here, p + 1);
        p += n + 1;
    }
    free(held);
    ctx->held.p = NULL;
}

/* An answer said in a channel is held (reply_flush decides where it goes
 * once the command is over) unless it is a live bout's traffic, which goes
 * at once, after what was held. In private, every line goes at once. */
static void reply_say(struct cmd_ctx *ctx, int private_only, char *text)
{
    irc_sanitize(text);
    bot_db_watch(ctx->bot);
    if (ctx->channel && !ctx->live) {
        if (!ctx->held.p)
            str_init(&ctx->held);
        str_add(&ctx->held, "%c%s\n", private_only ? 'p' : 'c', text);
    } else {
        reply_flush(ctx, NULL);
        answer_line(ctx, ctx->channel && !private_only, text);
    }
}

/* Bytes of an answer formatted on the stack: most are one line. */
#define REPLY_SHORT 512

static void vreply(struct cmd_ctx *ctx, int private_only, const char *fmt, va_list ap)
{
    char shorter[REPLY_SHORT];
    va_list again;

    /* Formatted once: on the stack when it fits (nearly every answer),
     * else again into a string as long as it needs. */
    va_copy(again, ap);
    int n = vsnprintf(shorter, sizeof(shorter), fmt, ap);
    if (n >= 0 && (size_t)n < sizeof(shorter)) {
        reply_say(ctx, private_only, shorter);
    } else {
        struct str text;
        str_init(&text);
        str_vadd(&text, fmt, again);
        reply_say(ctx, private_only, text.p);
        str_free(&text);
    }
    va_end(again);
}

void reply_text(struct cmd_ctx *ctx, const char *text)
{
    size_t n = strlen(text);

    if (n < REPLY_SHORT) {
        char shorter[REPLY_SHORT];
        memcpy(shorter, text, n + 1);
        reply_say(ctx, 0, shorter);
        return;
    }
    char *copy = xstrdup(text);
    reply_say(ctx, 0, copy);
    free(copy);
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
