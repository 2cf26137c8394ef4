/*
 * whois.c - commands waiting for the server to say who sent them: the
 * dispatcher (cmd.c) asks, when it cannot tell a nick's services login,
 * for a WHOIS and parks the line here; the IRC side (irc.c) tells the
 * answers and runs the parked lines again. Both use this file and neither
 * calls the other's functions, so the dependency points one way: irc.c
 * calls cmd.c (cmd_dispatch), never the reverse.
 */
#include <stdio.h>
#include <string.h>

#include "bot.h"

void whois_start(struct whois *w, const struct conn *conn)
{
    w->conn = conn;
}

void whois_stop(struct whois *w)
{
    memset(w, 0, sizeof(*w));
}

int whois_account_notify(const struct whois *w)
{
    return w->conn && conn_has_cap(w->conn, "account-notify");
}

int whois_then(struct bot *bot, const char *nick, const char *channel, const char *text)
{
    struct whois *q = &bot->whois;
    char line[OUTQ_LINE_MAX];

    if (!q->conn)
        return -1;
    /* One WHOIS a nick: his other commands wait for the same answer. */
    int asked = 0;
    for (int i = 0; i < WHOIS_WAITING; i++)
        if (q->wait[i].since && irc_casecmp(bot->cm, q->wait[i].nick, nick) == 0)
            asked = 1;
    for (int i = 0; i < WHOIS_WAITING; i++) {
        struct whois_wait *w = &q->wait[i];
        if (w->since)
            continue;
        snprintf(w->nick, sizeof(w->nick), "%s", nick);
        snprintf(w->channel, sizeof(w->channel), "%s", channel ? channel : "");
        snprintf(w->text, sizeof(w->text), "%s", text);
        w->since = bot->now;
        w->got_account = 0;
        if (asked)
            return 0;
        /* Never before a bout's lines (outq.c). */
        snprintf(line, sizeof(line), "WHOIS %s", nick);
        outq_whois(bot->q, line);
        return 0;
    }
    return -1;
}

void whois_account(struct bot *bot, const char *nick)
{
    for (int i = 0; i < WHOIS_WAITING; i++) {
        struct whois_wait *w = &bot->whois.wait[i];
        if (w->since && irc_casecmp(bot->cm, w->nick, nick) == 0)
            w->got_account = 1;
    }
}

int whois_next(struct bot *bot, const char *nick, int *at, struct whois_wait *out)
{
    for (; *at < WHOIS_WAITING; (*at)++) {
        struct whois_wait *w = &bot->whois.wait[*at];
        if (!w->since || irc_casecmp(bot->cm, w->nick, nick) != 0)
            continue;
        *out = *w;
        w->since = 0;
        (*at)++;
        return 1;
    }
    return 0;
}

/* Ends the waits of nick (all of them: they share one WHOIS); returns
 * how many there were. */
static int waits_end(struct bot *bot, const char *nick)
{
    int n = 0;

    for (int i = 0; i < WHOIS_WAITING; i++) {
        struct whois_wait *w = &bot->whois.wait[i];
        if (w->since && irc_casecmp(bot->cm, w->nick, nick) == 0) {
            w->since = 0;
            n++;
        }
    }
    return n;
}

void whois_expire(struct bot *bot)
{
    for (int i = 0; i < WHOIS_WAITING; i++) {
        struct whois_wait *w = &bot->whois.wait[i];
        if (!w->since || bot->now - w->since <= WHOIS_TIMEOUT)
            continue;
        /* His later commands waited for the same WHOIS: they end with it,
         * and the next one asks again. */
        char nick[sizeof(w->nick)], text[160];
        snprintf(nick, sizeof(nick), "%s", w->nick);
        int n = waits_end(bot, nick);
        log_msg(LOG_WARN, "no WHOIS answer for %s: %d command%s of his dropped", nick, n,
                n == 1 ? "" : "s");
        snprintf(text, sizeof(text),
                 "the server did not say in time who you are (WHOIS), so %s not run; "
                 "send %s again",
                 n == 1 ? "that command was" : "those commands were", n == 1 ? "it" : "them");
        bot_msg(bot, OUTQ_REPLY, nick, NULL, text);
    }
}

void whois_forget(struct bot *bot, const char *nick)
{
    waits_end(bot, nick);
}

void whois_rename(struct bot *bot, const char *nick, const char *to)
{
    char line[OUTQ_LINE_MAX];
    int n = 0;

    for (int i = 0; i < WHOIS_WAITING; i++) {
        struct whois_wait *w = &bot->whois.wait[i];
        if (w->since && irc_casecmp(bot->cm, w->nick, nick) == 0) {
            snprintf(w->nick, sizeof(w->nick), "%s", to);
            w->got_account = 0;
            n++;
        }
    }
    if (n && bot->whois.conn) { /* the answer about the old nick runs nothing */
        snprintf(line, sizeof(line), "WHOIS %s", to);
        outq_whois(bot->q, line);
    }
}
