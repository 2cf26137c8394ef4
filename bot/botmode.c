/*
 * botmode.c - bot mode (IRCv3 bot-mode, ISUPPORT BOT=): the bot marks
 * itself (irc.c, at registration) and never takes commands from other
 * users the server marks as bots, so two bots never answer each other.
 * Who is a bot comes from the flags of a WHOX answer ("H*B": the mode
 * letter among them) and from WHOIS 335 (RPL_WHOISBOT); the set is kept
 * per connection, by nick, and follows nick changes and quits.
 */
#include <stdio.h>
#include <string.h>

#include "bot.h"

/* The slot of `nick`, or -1. */
static int slot_of(const struct bot *bot, const char *nick)
{
    for (int i = 0; i < BOTMODE_MAX; i++)
        if (bot->bots[i][0] && irc_casecmp(bot->cm, bot->bots[i], nick) == 0)
            return i;
    return -1;
}

void botmode_mark(struct bot *bot, const char *nick, int is_bot)
{
    int i = slot_of(bot, nick);

    if (!is_bot) {
        if (i >= 0)
            bot->bots[i][0] = '\0';
        return;
    }
    if (i >= 0 || !nick[0])
        return;
    for (i = 0; i < BOTMODE_MAX && bot->bots[i][0]; i++)
        ;
    if (i == BOTMODE_MAX) /* full: the oldest mark goes (few bots share a channel) */
        i = 0;
    snprintf(bot->bots[i], sizeof(bot->bots[i]), "%s", nick);
    log_msg(LOG_INFO, "%s is marked as a bot: its commands are ignored", bot->bots[i]);
}

int botmode_is(const struct bot *bot, const char *nick)
{
    return slot_of(bot, nick) >= 0;
}

void botmode_rename(struct bot *bot, const char *old_nick, const char *new_nick)
{
    int i = slot_of(bot, old_nick);

    if (i >= 0)
        snprintf(bot->bots[i], sizeof(bot->bots[i]), "%s", new_nick);
}

void botmode_reset(struct bot *bot)
{
    memset(bot->bots, 0, sizeof(bot->bots));
}

int botmode_parse_who(const char **params, unsigned int count, const char *token, char mode,
                      struct botmode_seen *out)
{
    if (count < 4 || strcmp(params[1], token) != 0 || !mode)
        return 0;
    out->nick = params[2];
    out->is_bot = strchr(params[3], mode) != NULL;
    return 1;
}
