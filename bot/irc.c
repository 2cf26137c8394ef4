/*
 * irc.c - the connection to the IRC server, through libircclient 1.9.
 *
 * The only file that includes libircclient.h. It runs its own select()
 * loop (libircclient's irc_run has no timers): wait for the socket, the
 * next line the output queue may send, or at most 1 s (a timer of the
 * game's is at most a second late; an idle bot wakes once a second, which
 * costs it a sixth of the CPU of 4 times); then handle input, timers and
 * output, in that order.
 *
 * Connection life: a fresh session for every connection attempt (an old
 * session's buffers would corrupt the new stream); after a loss, reconnect
 * after 10 s, doubling to 300 s, back to 10 s once registered. 433 during
 * registration: the alternative nick (then the nick with _ appended); once
 * registered, the main nick is asked for again every minute. Silence for 60
 * s sends a PING; 90 s means the link is dead. Channels are joined after
 * registration and rejoined 15 s after a kick. Identities end with every
 * connection.
 *
 * Private or channel is decided from the target (CHANTYPES), never from
 * which libircclient callback fired; names compare under the server's
 * CASEMAPPING. Every line goes out through the paced queue; libircclient's
 * own answers to server PINGs are the only lines that bypass it (and the
 * connection layer's CAP and AUTHENTICATE before registration).
 *
 * libircclient never talks to the server itself: it connects to conn.c's
 * loopback relay, which owns the real connection (TLS, CAP, SASL) and
 * lives and dies with the session. Services accounts are read here, from
 * the lines libircclient passes on: extended-join's account on JOIN,
 * account-notify's ACCOUNT, a WHOX query (%a) after joining, and WHOIS 330
 * when a command needs an account the bot is unsure of (accounts.c turns
 * them into identities).
 */
#include <ctype.h>
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>

#include <libircclient.h>
#include <libirc_rfcnumeric.h>

#include "bot.h"

#define BACKOFF_MIN      10.0
#define BACKOFF_MAX      300.0
#define PING_AFTER       60.0
#define DEAD_AFTER       90.0
#define REGISTER_TIMEOUT 60.0
#define REGAIN_EVERY     60.0
#define JOIN_HOLD        10.0 /* s: a joined channel's lines wait at most this for its modes */
#define REJOIN_AFTER     15.0
/* s: the loop sleeps until its next timer is due (timers_wait), at most
 * this long; a wakeup costs the CPU of a context switch (15-35 us on a
 * small VM), so an idle bot no longer wakes every second. */
/* Seconds without a line from the server, after messages, before the
 * memory they used is given back (quiet_give_back). */
#define GIVE_BACK_QUIET 60.0
#define LOOP_MAX_WAIT   60.0
#define TIMER_SLACK     0.005 /* s past a deadline: timers() compares with > */
#define QUIT_FLUSH      2.0
#define QUIT_MESSAGE    "Ringside is going to sleep; bouts resume when it is back"
/* A bot stepping down (bot/failover.c): another runs the network now. */
#define QUIT_STEP_DOWN "Ringside hands over to its standby; bouts go on there"
#define WHOX_TOKEN     "354"
#define BOT_TOKEN      "355" /* our "WHO target %tnf,355": who is a bot */
#define GAME_WAIT_MAX  10.0  /* seconds the game waits for the first WHOX answer */

struct irc_state {
    irc_session_t *s;
    int registered;
    double started;      /* when the connection attempt began */
    double last_rx;      /* when the server last said anything */
    double ping_sent;    /* our PING not yet answered, or 0 */
    double reconnect_at; /* no session: when to try again */
    double backoff;
    double regain_at; /* when to ask for the main nick again */
    double rejoin_at[USERS_CHANNELS];
    int nick_tries;
    struct conn *conn; /* the real connection, with the session */
    /* Registered, the game not yet told: it waits for the WHOX answer of
     * our first channel (who is logged in as whom) until this time, so
     * that the prompts of live bouts reach players by their nicks. 0: told. */
    double game_wait;
    int used;       /* a message handled since memory was last given back (quiet_give_back) */
    int libfd;      /* the socket libircclient selects on, as the last pump saw it (or -1) */
    int heard_none; /* the last pump's wait ended with no descriptor ready (a timeout) */
    /* When timers() next has something to do (timers_wait's answer as a
     * time), kept over quiet turns (timers_quiet); 0: to be asked again. */
    double timers_at;
    /* The signal mask the loop waits with (pselect): SIGTERM, SIGINT and
     * SIGHUP are blocked but there, so none slips in between the loop's
     * look at its flags and its sleep (which may last a minute now). */
    sigset_t wait_mask;
};

static volatile sig_atomic_t quit_requested;
static volatile sig_atomic_t reload_requested;

static void on_signal(int sig)
{
    if (sig == SIGHUP)
        reload_requested = 1;
    else
        quit_requested = 1;
}

static struct bot *bot_of(irc_session_t *s)
{
    return irc_get_ctx(s);
}

static int is_me(const struct bot *bot, const char *nick)
{
    return irc_casecmp(bot->cm, nick, bot->nick) == 0;
}

/* Called by every callback: the server is alive. */
static void heard(struct bot *bot)
{
    bot->now = bot_clock();
    bot->irc->last_rx = bot->now;
    bot->irc->ping_sent = 0;
}

/* Joins channel c and asks its modes at once. Its lines wait until the
 * modes are known (324, or JOIN_HOLD s at most), so that nothing said there
 * (a bout's commentary said again at 001) goes out formatted into a +c
 * channel, which would refuse it. */
static void join_chan(struct bot *bot, int c)
{
    char line[OUTQ_LINE_MAX];

    snprintf(line, sizeof(line), "JOIN %s", bot->chan[c]);
    outq_raw(bot->q, line);
    snprintf(line, sizeof(line), "MODE %s", bot->chan[c]);
    outq_raw(bot->q, line);
    bot->chan_plain[c] = 0;
    outq_target_hold(bot->q, bot->chan[c], bot->now + JOIN_HOLD);
}

static void join_all(struct bot *bot)
{
    for (int c = 0; c < USERS_CHANNELS; c++)
        if (bot->chan[c][0] && !bot->chan_in[c])
            join_chan(bot, c);
}

/* The server's bot mode letter (ISUPPORT BOT=), or 0. */
static char bot_mode(const struct bot *bot)
{
    return bot->irc->conn ? (char)conn_has_cap(bot->irc->conn, "BOT") : 0;
}

/* Registered: the bot marks itself as one where the server has bot mode. */
static void bot_mode_set(struct bot *bot)
{
    char line[OUTQ_LINE_MAX];

    if (!bot_mode(bot))
        return;
    snprintf(line, sizeof(line), "MODE %s +%c", bot->nick, bot_mode(bot));
    outq_raw(bot->q, line);
    log_msg(LOG_INFO, "the server has bot mode: setting +%c on %s", bot_mode(bot), bot->nick);
}

/* Asks the server which of `target` (a channel, or a nick) are bots, with
 * WHOX's flags, where it has bot mode and WHOX. */
static void bots_ask(struct bot *bot, const char *target)
{
    char line[OUTQ_LINE_MAX];

    if (!bot_mode(bot) || !conn_has_cap(bot->irc->conn, "WHOX"))
        return;
    snprintf(line, sizeof(line), "WHO %s %%tnf," BOT_TOKEN, target);
    outq_query(bot->q, line); /* nobody waits for it: after replies */
}

static void ev_connect(irc_session_t *s, const char *event, const char *origin, const char **params,
                       unsigned int count)
{
    struct bot *bot = bot_of(s);
    struct irc_state *st = bot->irc;

    (void)event;
    (void)origin;
    heard(bot);
    st->registered = 1;
    whois_start(&bot->whois, st->conn);
    st->backoff = BACKOFF_MIN;
    if (count >= 1)
        snprintf(bot->nick, sizeof(bot->nick), "%s", params[0]);
    st->regain_at = bot->now + REGAIN_EVERY;
    log_msg(LOG_INFO, "registered on %s:%d as %s", bot->cfg.server,
            bot->irc->conn ? conn_server_port(bot->irc->conn) : bot->cfg.port, bot->nick);
    outq_hold(bot->q, 0);
    outq_set_markers(bot->q, 1);
    if (st->conn && conn_has_cap(st->conn, "sasl"))
        log_msg(LOG_INFO, "logged in to services by SASL");
    else if (bot->cfg.nickserv_password[0]) {
        char line[OUTQ_LINE_MAX];
        snprintf(line, sizeof(line), "PRIVMSG NickServ :IDENTIFY %s", bot->cfg.nickserv_password);
        outq_raw(bot->q, line);
    }
    bot_mode_set(bot);
    join_all(bot);
    if (st->conn && conn_has_cap(st->conn, "WHOX") && bot->cfg.accounts != ACCOUNTS_PASSWORDS &&
        bot->chan[0][0])
        st->game_wait = bot->now + GAME_WAIT_MAX;
    else
        game_connected(bot->game);
}

/* The game hears that the bot is connected (once per connection). */
static void game_go(struct bot *bot)
{
    if (bot->irc->game_wait) {
        bot->irc->game_wait = 0;
        game_connected(bot->game);
    }
}

/* RPL_ISUPPORT tokens we care about. */
static void isupport(struct bot *bot, const char **params, unsigned int count)
{
    for (unsigned int i = 1; i + 1 < count; i++) {
        const char *t = params[i];
        if (strncmp(t, "CASEMAPPING=", 12) == 0) {
            bot->cm = irc_casemapping_parse(t + 12);
            users_set_casemap(bot->users, bot->cm);
            outq_set_casemap(bot->q, bot->cm);
        } else if (strncmp(t, "CHANTYPES=", 10) == 0) {
            snprintf(bot->chantypes, sizeof(bot->chantypes), "%s", t + 10);
        }
    }
}

/* RPL_NAMREPLY: "me = #chan :@op +voice nick". */
static void names(struct bot *bot, const char **params, unsigned int count)
{
    if (count < 4)
        return;
    int c = bot_chan_find(bot, params[2]);
    if (c < 0)
        return;
    char list[OUTQ_LINE_MAX];
    snprintf(list, sizeof(list), "%s", params[3]);
    for (char *save = NULL, *w = strtok_r(list, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        size_t n = strspn(w, "~&@%+!");
        int op = memchr(w, '@', n) || memchr(w, '&', n) || memchr(w, '~', n);
        w += n;
        if (*w && !is_me(bot, w)) {
            users_join(bot->users, w, c);
            chanops_set(bot, c, w, op);
        }
    }
}

static void try_other_nick(struct bot *bot)
{
    struct irc_state *st = bot->irc;
    char nick[CONFIG_NICK_MAX], line[OUTQ_LINE_MAX];

    st->nick_tries++;
    if (st->nick_tries == 1 && bot->cfg.alt_nick[0])
        snprintf(nick, sizeof(nick), "%s", bot->cfg.alt_nick);
    else
        snprintf(nick, sizeof(nick), "%.24s%.*s", bot->cfg.nick,
                 st->nick_tries > 6 ? 6 : st->nick_tries, "______");
    snprintf(bot->nick, sizeof(bot->nick), "%s", nick);
    snprintf(line, sizeof(line), "NICK %s", nick);
    log_msg(LOG_INFO, "nick taken; trying %s", nick);
    outq_raw(bot->q, line);
}

static void chan_modes(struct bot *bot, int c, const char *modes);

/* RPL_WHOISACCOUNT (330): "me nick account :is logged in as". */
static void rpl_whoisaccount(struct bot *bot, const char **params, unsigned int count)
{
    struct users_seen seen;

    if (!users_parse_whoisaccount(params, count, &seen))
        return;
    whois_account(bot, seen.nick);
    accounts_seen(bot, seen.nick, seen.account);
}

/* RPL_ENDOFWHOIS (318): the commands waiting for this nick run now. */
static void rpl_endofwhois(struct bot *bot, const char **params, unsigned int count)
{
    struct whois_wait w;

    if (count < 2)
        return;
    for (int at = 0; whois_next(bot, params[1], &at, &w);) {
        if (!w.got_account)
            accounts_seen(bot, w.nick, NULL);
        outq_set_context(bot->q, w.channel[0] ? w.channel : NULL);
        cmd_dispatch(bot, w.nick, w.channel[0] ? w.channel : NULL, w.text);
        outq_set_context(bot->q, NULL);
    }
}

/* A WHOX answer to our "WHO #chan %tna,354": "me 354 nick account" (0:
 * not logged in). */
static void whox_reply(struct bot *bot, const char **params, unsigned int count)
{
    struct users_seen seen;

    if (!users_parse_whox(params, count, WHOX_TOKEN, &seen) || is_me(bot, seen.nick))
        return;
    if (users_present(bot->users, seen.nick))
        accounts_seen(bot, seen.nick, seen.account);
}

/* The numerics that refuse the bot something: its nick (before it is
 * registered: another one is tried), a channel, a line. */
static void numeric_refused(struct bot *bot, unsigned int event, const char **params,
                            unsigned int count)
{
    switch (event) {
    case LIBIRC_RFC_ERR_NICKNAMEINUSE:
    case LIBIRC_RFC_ERR_ERRONEUSNICKNAME:
    case LIBIRC_RFC_ERR_NICKCOLLISION:
        if (!bot->irc->registered)
            try_other_nick(bot);
        break;
    case LIBIRC_RFC_ERR_NOSUCHCHANNEL:
    case LIBIRC_RFC_ERR_BANNEDFROMCHAN:
    case LIBIRC_RFC_ERR_INVITEONLYCHAN:
    case LIBIRC_RFC_ERR_BADCHANNELKEY:
    case LIBIRC_RFC_ERR_CHANNELISFULL:
        log_msg(LOG_WARN, "cannot join %s (numeric %u)", count > 1 ? params[1] : "?", event);
        break;
    case LIBIRC_RFC_ERR_CANNOTSENDTOCHAN:
    case 408: /* hybrid: ERR_NOCTRLSONCHAN, formatting in a +c channel */
        log_msg(LOG_WARN, "the server refused a line to %s (numeric %u): %s",
                count > 1 ? CLIP(params[1], 64) : "?", event,
                count > 2 ? CLIP(params[count - 1], 120) : "");
        break;
    default:
        break;
    }
}

static void ev_numeric(irc_session_t *s, unsigned int event, const char *origin,
                       const char **params, unsigned int count)
{
    struct bot *bot = bot_of(s);

    (void)origin;
    heard(bot);
    switch (event) {
    case 5:
        isupport(bot, params, count);
        break;
    case LIBIRC_RFC_RPL_NAMREPLY:
        names(bot, params, count);
        break;
    case 330:
        rpl_whoisaccount(bot, params, count);
        break;
    case LIBIRC_RFC_RPL_ENDOFWHOIS:
        rpl_endofwhois(bot, params, count);
        break;
    case 354: {
        struct botmode_seen seen;
        if (botmode_parse_who(params, count, BOT_TOKEN, bot_mode(bot), &seen)) {
            if (!is_me(bot, seen.nick))
                botmode_mark(bot, seen.nick, seen.is_bot);
        } else {
            whox_reply(bot, params, count);
        }
        break;
    }
    case 335: /* RPL_WHOISBOT: "me nick :is a bot" */
        if (count >= 2 && !is_me(bot, params[1]))
            botmode_mark(bot, params[1], 1);
        break;
    case LIBIRC_RFC_RPL_ENDOFWHO:
        if (count >= 2 && bot_chan_find(bot, params[1]) >= 0)
            game_go(bot);
        break;
    case LIBIRC_RFC_RPL_CHANNELMODEIS:
        if (count >= 3 && bot_chan_find(bot, params[1]) >= 0) {
            int c = bot_chan_find(bot, params[1]);
            chan_modes(bot, c, params[2]);
            outq_target_hold(bot->q, bot->chan[c], 0);
        }
        break;
    default:
        numeric_refused(bot, event, params, count);
        break;
    }
}

static void ev_join(irc_session_t *s, const char *event, const char *origin, const char **params,
                    unsigned int count)
{
    struct bot *bot = bot_of(s);
    char nick[CONFIG_NICK_MAX * 2];

    (void)event;
    heard(bot);
    if (count < 1)
        return;
    users_origin_nick(origin, nick, sizeof(nick));
    int c = bot_chan_find(bot, params[0]);
    if (c < 0)
        return;
    if (is_me(bot, nick)) {
        bot->chan_in[c] = 1;
        bot->irc->rejoin_at[c] = 0;
        /* Our own prefix as others see it: split lines to fit it. */
        outq_set_prefix_len(bot->q, strlen(origin));
        log_msg(LOG_INFO, "joined %s", bot->chan[c]);
        /* Who is logged in as whom, all at once (WHOX %a). */
        if (bot->irc->conn && conn_has_cap(bot->irc->conn, "WHOX") &&
            bot->cfg.accounts != ACCOUNTS_PASSWORDS) {
            char line[CONFIG_NICK_MAX * 2 + 32];
            snprintf(line, sizeof(line), "WHO %s %%tna," WHOX_TOKEN, bot->chan[c]);
            outq_raw(bot->q, line);
        }
        bots_ask(bot, bot->chan[c]);
    } else {
        users_join(bot->users, nick, c);
        bots_ask(bot, nick);
        /* extended-join: "JOIN #chan account :realname" ("*": none). */
        struct users_seen seen;
        if (users_parse_join(nick, params, count, &seen))
            accounts_seen(bot, seen.nick, seen.account);
    }
}

/* We are out of channel c: everyone's membership there ends. */
static void left(struct bot *bot, int c)
{
    bot->chan_in[c] = 0;
    chanops_gone(bot, c, NULL);
    int ended = users_chan_gone(bot->users, c);
    if (ended)
        log_msg(LOG_INFO, "%d identities ended leaving %s", ended, bot->chan[c]);
}

static void ev_part(irc_session_t *s, const char *event, const char *origin, const char **params,
                    unsigned int count)
{
    struct bot *bot = bot_of(s);
    char nick[CONFIG_NICK_MAX * 2];

    (void)event;
    heard(bot);
    if (count < 1)
        return;
    users_origin_nick(origin, nick, sizeof(nick));
    int c = bot_chan_find(bot, params[0]);
    if (c < 0)
        return;
    chanops_gone(bot, c, nick);
    if (is_me(bot, nick))
        left(bot, c);
    else if (users_part(bot->users, nick, c))
        log_msg(LOG_INFO, "%s left our last shared channel: identity ended", nick);
}

static void ev_kick(irc_session_t *s, const char *event, const char *origin, const char **params,
                    unsigned int count)
{
    struct bot *bot = bot_of(s);

    (void)event;
    (void)origin;
    heard(bot);
    if (count < 2)
        return;
    int c = bot_chan_find(bot, params[0]);
    if (c < 0)
        return;
    if (is_me(bot, params[1])) {
        log_msg(LOG_WARN, "kicked from %s; rejoining in %.0f s", bot->chan[c], REJOIN_AFTER);
        left(bot, c);
        bot->irc->rejoin_at[c] = bot->now + REJOIN_AFTER;
    } else if (chanops_gone(bot, c, params[1]), users_part(bot->users, params[1], c)) {
        log_msg(LOG_INFO, "%s was kicked from our last shared channel: identity ended", params[1]);
    }
}

static void ev_quit(irc_session_t *s, const char *event, const char *origin, const char **params,
                    unsigned int count)
{
    struct bot *bot = bot_of(s);
    char nick[CONFIG_NICK_MAX * 2];

    (void)event;
    (void)params;
    (void)count;
    heard(bot);
    users_origin_nick(origin, nick, sizeof(nick));
    if (users_quit(bot->users, nick))
        log_msg(LOG_INFO, "%s quit: identity ended", nick);
    outq_forget(bot->q, nick); /* whoever takes the nick next gets none of it */
    whois_forget(bot, nick);
    botmode_mark(bot, nick, 0);
    chanops_gone(bot, -1, nick);
    if (irc_casecmp(bot->cm, nick, bot->cfg.nick) == 0)
        bot->irc->regain_at = bot->now; /* our nick is free */
}

static void ev_nick(irc_session_t *s, const char *event, const char *origin, const char **params,
                    unsigned int count)
{
    struct bot *bot = bot_of(s);
    char nick[CONFIG_NICK_MAX * 2];

    (void)event;
    heard(bot);
    if (count < 1)
        return;
    users_origin_nick(origin, nick, sizeof(nick));
    if (is_me(bot, nick)) {
        snprintf(bot->nick, sizeof(bot->nick), "%s", params[0]);
        log_msg(LOG_INFO, "now known as %s", bot->nick);
        return;
    }
    users_rename(bot->users, nick, params[0]);
    /* What waited for the old nick is not sent to whoever takes it next
     * (his orders acknowledged, his plan); he is told under his new one.
     * A change of case only is the same nick to the server. */
    if (irc_casecmp(bot->cm, nick, params[0]) != 0) {
        int lost = outq_forget(bot->q, nick);
        whois_rename(bot, nick, params[0]);
        if (lost > 0) {
            char text[200];
            snprintf(text, sizeof(text),
                     "%d line%s for you as %s went unsent when you changed nick (bouts lists "
                     "your live bouts)",
                     lost, lost == 1 ? "" : "s", CLIP(nick, 40));
            bot_msg(bot, OUTQ_REPLY, params[0], NULL, text);
        }
    }
    botmode_rename(bot, nick, params[0]);
    chanops_rename(bot, nick, params[0]);
    if (irc_casecmp(bot->cm, nick, bot->cfg.nick) == 0)
        bot->irc->regain_at = bot->now;
}

/* A relay bot's line in channel `chan`: a bridged user's command, read
 * with [bridge] relay_format; the relay's own words are ignored. */
static void bridged(struct bot *bot, const char *relay, const char *chan, const char *line)
{
    char name[CONFIG_NICK_MAX * 2];
    const char *text;

    if (!bridge_parse(bot->cfg.relay_format, line, name, sizeof(name), &text))
        return;
    bot->relay = relay;
    cmd_dispatch(bot, name, chan, text);
    bot->relay = NULL;
}

/* PRIVMSG, wherever libircclient thought it went. */
static void ev_message(irc_session_t *s, const char *event, const char *origin, const char **params,
                       unsigned int count)
{
    struct bot *bot = bot_of(s);
    char nick[CONFIG_NICK_MAX * 2];

    (void)event;
    heard(bot);
    bot->irc->used = 1;
    if (count < 2 || !origin)
        return;
    users_origin_nick(origin, nick, sizeof(nick));
    char acct[DB_NAME_MAX + 1];
    int tagged = bot->irc->conn && conn_msg_account(bot->irc->conn, nick, acct, sizeof(acct));
    if (!nick[0] || is_me(bot, nick))
        return;
    if (tagged) /* account-tag: his account, known without a WHOIS */
        accounts_seen(bot, nick, acct[0] ? acct : NULL);
    /* A CTCP libircclient did not take as one (text after its closing
     * \001): not for us, and never echoed. */
    if (params[1][0] == '\001')
        return;
    bot->origin = origin; /* where a password guess comes from (auth.c) */
    if (irc_is_channel(params[0], bot->chantypes)) {
        int c = bot_chan_find(bot, params[0]);
        if (c >= 0 && bridge_relay(bot, nick)) {
            bridged(bot, nick, bot->chan[c], params[1]);
        } else if (c >= 0 && bot->irc->conn && conn_relayed(bot->irc->conn, nick)) {
            bot->relay = nick; /* RELAYMSG: the source is the bridged name */
            cmd_dispatch(bot, nick, bot->chan[c], params[1]);
            bot->relay = NULL;
        } else if (c >= 0 && !botmode_is(bot, nick)) {
            outq_set_context(bot->q, bot->chan[c]); /* +draft/channel-context */
            cmd_dispatch(bot, nick, bot->chan[c], params[1]);
            outq_set_context(bot->q, NULL);
        }
    } else if (bridge_relay(bot, nick) || botmode_is(bot, nick) ||
               (bot->irc->conn && conn_relayed(bot->irc->conn, nick))) {
        /* A relay's private lines are nobody's commands; another bot's
         * are never answered (two bots must not talk to each other). */
    } else {
        cmd_dispatch(bot, nick, NULL, params[1]);
    }
    bot->origin = NULL;
}

static void ev_ctcp(irc_session_t *s, const char *event, const char *origin, const char **params,
                    unsigned int count)
{
    struct bot *bot = bot_of(s);
    char nick[CONFIG_NICK_MAX * 2], text[128];

    (void)event;
    heard(bot);
    if (count < 1 || !origin)
        return;
    users_origin_nick(origin, nick, sizeof(nick));
    if (users_rate(bot->users, nick, bot->now) != USERS_RATE_OK)
        return;
    if (strcmp(params[0], "VERSION") == 0)
        snprintf(text, sizeof(text), "\001VERSION Ringside " RINGSIDE_VERSION "\001");
    else if (strncmp(params[0], "PING", 4) == 0 && (params[0][4] == ' ' || !params[0][4]))
        snprintf(text, sizeof(text), "\001%s\001", CLIP(params[0], 100));
    else
        return;
    /* Bulk: a CTCP answer goes while the bot has nothing else to say, so
     * a CTCP flood never holds up a bystander's reply (fair queueing
     * between owners gave him only his share of the line a second). */
    outq_msg(bot->q, OUTQ_BULK, "NOTICE", nick, nick, text);
}

/* "*** Message to #chan throttled due to flooding" (ircd-hybrid and its
 * kin), from the server itself (a nick!user@host origin is a user's text
 * and is ignored): the line was dropped. */
static void ev_notice(irc_session_t *s, const char *event, const char *origin, const char **params,
                      unsigned int count)
{
    struct bot *bot = bot_of(s);
    char target[CONFIG_NICK_MAX * 2];

    (void)event;
    heard(bot);
    if (count < 2 || !origin || strchr(origin, '!') || strchr(origin, '@'))
        return;
    const char *m = strstr(params[1], "Message to ");
    if (!m || !strstr(m, " throttled"))
        return;
    m += strlen("Message to ");
    size_t n = strcspn(m, " ");
    if (n == 0 || n >= sizeof(target) || strncmp(m + n, " throttled", 10) != 0)
        return;
    memcpy(target, m, n);
    target[n] = '\0';
    outq_throttled(bot->q, target, bot->now);
}

/* After the server closed the link for flooding, the bot sends at most
 * the safe pacing (or half what it was, if it already was that slow). */
static void flood_closed(struct bot *bot, const char *why)
{
    int burst = bot->cfg.burst > CONFIG_SAFE_BURST - 1 ? CONFIG_SAFE_BURST - 1 : bot->cfg.burst;
    double rate = bot->cfg.lines_per_second > CONFIG_SAFE_RATE ? CONFIG_SAFE_RATE
                                                               : bot->cfg.lines_per_second / 2;

    if (rate < 0.25)
        rate = 0.25;
    bot->cfg.burst = burst;
    bot->cfg.lines_per_second = rate;
    outq_set_rate(bot->q, burst, rate);
    log_msg(LOG_WARN,
            "the server closed the link for flooding (%s); sending at most %d lines at once and "
            "%.2f lines/s from now on (until a reload)",
            CLIP(why, 120), burst, rate);
}

/* PONG to our markers, and ERROR before a close. */
static void ev_unknown(irc_session_t *s, const char *event, const char *origin, const char **params,
                       unsigned int count)
{
    struct bot *bot = bot_of(s);

    heard(bot);
    if (strcmp(event, "PONG") == 0 && count >= 1) {
        outq_pong(bot->q, params[count - 1]);
    } else if (strcmp(event, "ACCOUNT") == 0 && origin) {
        char nick[CONFIG_NICK_MAX * 2];
        struct users_seen seen;
        users_origin_nick(origin, nick, sizeof(nick));
        if (users_parse_account(nick, params, count, &seen) && users_present(bot->users, nick))
            accounts_seen(bot, seen.nick, seen.account);
    } else if (strcmp(event, "ERROR") == 0 && count >= 1) {
        log_msg(LOG_WARN, "the server says: %s", CLIP(params[0], 200));
        char low[256];
        size_t i = 0;
        for (; params[0][i] && i + 1 < sizeof(low); i++)
            low[i] = (char)tolower((unsigned char)params[0][i]);
        low[i] = '\0';
        if (strstr(low, "flood") || strstr(low, "recvq exceeded"))
            flood_closed(bot, params[0]);
    }
}

/* Channel c's modes change by `modes` ("+c-t"; from MODE or 324): +c
 * (no colours, or no control codes at all) makes the bot send it plain. */
static void chan_modes(struct bot *bot, int c, const char *modes)
{
    int on = 1;

    for (const char *m = modes; *m && *m != ' '; m++) {
        if (*m == '+' || *m == '-')
            on = *m == '+';
        else if (*m == 'c' && bot->chan_plain[c] != on) {
            bot->chan_plain[c] = on;
            log_msg(LOG_INFO, "%s %s colours: sending it %s", bot->chan[c],
                    on ? "forbids" : "allows", on ? "plain text" : "formatting again");
        }
    }
}

static void ev_mode(irc_session_t *s, const char *event, const char *origin, const char **params,
                    unsigned int count)
{
    struct bot *bot = bot_of(s);

    (void)event;
    (void)origin;
    heard(bot);
    int c = count >= 2 ? bot_chan_find(bot, params[0]) : -1;
    if (c >= 0) {
        chan_modes(bot, c, params[1]);
        chanops_mode(bot, c, params, count);
    }
}

static void ev_other(irc_session_t *s, const char *event, const char *origin, const char **params,
                     unsigned int count)
{
    (void)event;
    (void)origin;
    (void)params;
    (void)count;
    heard(bot_of(s));
}

/* A free slot for a channel, or -1. */
static int chan_slot(const struct bot *bot)
{
    for (int c = 0; c < USERS_CHANNELS; c++)
        if (!bot->chan[c][0])
            return c;
    return -1;
}

/* The channel slot c left and forgotten (bot.h): the other half of the
 * INVITE below, so that the invited channels' table has one user. */
int bot_chan_forget(struct bot *bot, int c, const char *why)
{
    char line[OUTQ_LINE_MAX];

    if (db_channel_remove(bot->db, bot->chan[c]) != 0) {
        log_msg(LOG_ERROR, "cannot forget %s: %s", bot->chan[c], db_errmsg(bot->db));
        return -1;
    }
    if (bot->chan_in[c]) {
        snprintf(line, sizeof(line), "PART %s :%s", bot->chan[c], why);
        outq_raw(bot->q, line);
    }
    log_msg(LOG_INFO, "left %s and forgot it (%s)", bot->chan[c], why);
    users_chan_gone(bot->users, c);
    chanops_gone(bot, c, NULL);
    bot->chan_in[c] = 0;
    bot->chan_invited[c] = 0;
    bot->chan[c][0] = '\0';
    return 0;
}

/* An INVITE from `nick` to channel `name`, with join_on_invite: taken
 * from one of the bot's admins, identified; the channel is kept in the
 * database and joined. Anyone else is told who may invite the bot. */
static void invited(struct bot *bot, const char *nick, const char *name)
{
    int64_t id = 0;
    const char *account = NULL;
    char text[OUTQ_LINE_MAX];

    users_account(bot->users, nick, &id, &account);
    int c = chan_slot(bot);
    if (!account || !bot_is_admin(bot, account) || c < 0) {
        log_msg(LOG_INFO, "%s invited me to %s: refused (%s)", nick, CLIP(name, 60),
                c < 0 ? "no room for more channels" : "not one of my admins");
        snprintf(text, sizeof(text),
                 c < 0 ? "I am in as many channels as I can be; I cannot join %s"
                       : "I join a channel only when one of my admins invites me; I stay out of %s",
                 CLIP(name, 60));
        if (users_rate(bot->users, nick, bot->now) == USERS_RATE_OK)
            outq_msg(bot->q, OUTQ_REPLY, "NOTICE", nick, nick, text);
        return;
    }
    if (strlen(name) >= DB_CHANNEL_MAX || db_channel_add(bot->db, name, account) != 0) {
        log_msg(LOG_ERROR, "cannot keep %s: %s", CLIP(name, 60), db_errmsg(bot->db));
        return;
    }
    snprintf(bot->chan[c], sizeof(bot->chan[c]), "%s", name);
    bot->chan_invited[c] = 1;
    log_msg(LOG_INFO, "%s (admin %s) invited me to %s: joining, and keeping it", nick, account,
            bot->chan[c]);
    join_chan(bot, c);
}

static void ev_invite(irc_session_t *s, const char *event, const char *origin, const char **params,
                      unsigned int count)
{
    struct bot *bot = bot_of(s);
    char nick[CONFIG_NICK_MAX * 2];

    (void)event;
    heard(bot);
    if (count < 2 || !origin || !irc_is_channel(params[1], bot->chantypes))
        return;
    users_origin_nick(origin, nick, sizeof(nick));
    if (!bot->cfg.join_on_invite) {
        log_msg(LOG_INFO, "%s invited me to %s: ignored (join_on_invite = no)", nick,
                CLIP(params[1], 60));
        return;
    }
    int c = bot_chan_find(bot, params[1]);
    if (c >= 0) {
        if (!bot->chan_in[c])
            join_chan(bot, c);
        return;
    }
    invited(bot, nick, params[1]);
}

static irc_callbacks_t callbacks = {
    .event_connect = ev_connect,
    .event_nick = ev_nick,
    .event_quit = ev_quit,
    .event_join = ev_join,
    .event_part = ev_part,
    .event_mode = ev_mode,
    .event_umode = ev_other,
    .event_topic = ev_other,
    .event_kick = ev_kick,
    .event_channel = ev_message,
    .event_privmsg = ev_message,
    .event_notice = ev_notice,
    .event_channel_notice = ev_other,
    .event_invite = ev_invite,
    .event_ctcp_req = ev_ctcp,
    .event_ctcp_rep = ev_other,
    .event_ctcp_action = ev_other,
    .event_unknown = ev_unknown,
    .event_numeric = ev_numeric,
};

static void session_end(struct bot *bot, const char *why)
{
    struct irc_state *st = bot->irc;

    if (!st->s)
        return;
    if (st->conn && conn_error(st->conn))
        why = conn_error(st->conn);
    int upgrade = st->conn && conn_upgrading(st->conn); /* sts: back at once, with TLS */
    char reason[320];
    snprintf(reason, sizeof(reason), "%s", why);
    why = reason;
    irc_destroy_session(st->s);
    st->s = NULL;
    st->libfd = -1;
    st->timers_at = 0;
    conn_close(st->conn);
    st->conn = NULL;
    st->registered = 0;
    st->game_wait = 0;
    whois_stop(&bot->whois);
    users_reset(bot->users);
    botmode_reset(bot);
    chanops_gone(bot, -1, NULL);
    game_disconnected(bot->game);
    outq_disconnected(bot->q);
    outq_hold(bot->q, 1);
    for (int c = 0; c < USERS_CHANNELS; c++)
        bot->chan_in[c] = 0;
    st->reconnect_at = bot->now + (upgrade ? 0 : st->backoff);
    log_msg(LOG_WARN, "disconnected (%s); reconnecting in %.0f s", why, upgrade ? 0 : st->backoff);
    if (!upgrade)
        st->backoff = st->backoff * 2 > BACKOFF_MAX ? BACKOFF_MAX : st->backoff * 2;
}

static void session_start(struct bot *bot)
{
    struct irc_state *st = bot->irc;
    const struct config *c = &bot->cfg;

    st->s = irc_create_session(&callbacks);
    if (!st->s) {
        log_msg(LOG_ERROR, "cannot create an IRC session (out of memory?)");
        st->reconnect_at = bot->now + st->backoff;
        return;
    }
    irc_set_ctx(st->s, bot);
    st->timers_at = 0;
    outq_hold(bot->q, 1); /* only registration until 001 */
    snprintf(bot->nick, sizeof(bot->nick), "%s", c->nick);
    st->nick_tries = 0;
    st->started = st->last_rx = bot->now;
    st->ping_sent = 0;
    bot->cm = CASEMAP_RFC1459;
    snprintf(bot->chantypes, sizeof(bot->chantypes), "#&");
    users_set_casemap(bot->users, bot->cm);
    outq_set_casemap(bot->q, bot->cm);
    log_msg(LOG_INFO, "connecting to %s:%d%s", c->server, c->port, c->tls ? " with TLS" : "");
    st->conn = conn_open(c);
    conn_set_outq(st->conn, bot->q);
    if (conn_error(st->conn)) {
        session_end(bot, conn_error(st->conn));
        return;
    }
    /* libircclient talks to the relay; the relay to the server. */
    if (irc_connect(st->s, "127.0.0.1", conn_port(st->conn),
                    c->server_password[0] ? c->server_password : NULL, c->nick,
                    c->username[0] ? c->username : c->nick, c->realname) != 0) {
        char why[160];
        snprintf(why, sizeof(why), "connect: %s", irc_strerror(irc_errno(st->s)));
        session_end(bot, why);
    }
}

/* Sends what the queue allows; stops at the first line the socket won't
 * take (libircclient's 1 KiB buffer answers LIBIRC_ERR_NOMEM). Returns the
 * lines given to libircclient. */
static int drain(struct bot *bot)
{
    struct irc_state *st = bot->irc;
    char line[OUTQ_LINE_MAX];
    int sent = 0;

    if (!st->s || !irc_is_connected(st->s))
        return 0;
    while (outq_pop(bot->q, bot->now, line)) {
        bot_line_format(bot, line);
        /* Before registration only protocol lines may go (NICK). */
        const char *tags = outq_popped_tags(bot->q);
        int rc = *tags ? irc_send_raw(st->s, "%s %s", tags, line) : irc_send_raw(st->s, "%s", line);
        if (rc != 0) {
            int e = irc_errno(st->s);
            outq_unpop(bot->q);
            if (e != LIBIRC_ERR_NOMEM)
                session_end(bot, irc_strerror(e));
            return sent;
        }
        sent++;
        log_msg(LOG_DEBUG, ">> %.*s", (int)strcspn(line, " "), line);
    }
    return sent;
}

/* A registered connection kept alive: a PING after a quiet while, and
 * the configured nick taken back when it is free again. */
static void keepalive(struct bot *bot, double quiet)
{
    struct irc_state *st = bot->irc;
    char line[OUTQ_LINE_MAX];

    if (quiet > PING_AFTER && !st->ping_sent) {
        /* A delivery marker pending goes now and is the keepalive (its
         * PONG answers it): an idle bot sends no more PINGs for it. */
        if (!outq_keepalive(bot->q)) {
            snprintf(line, sizeof(line), "PING :ringside");
            outq_raw(bot->q, line);
        }
        st->ping_sent = bot->now;
    }
    if (bot->now >= st->regain_at && !is_me(bot, bot->cfg.nick)) {
        snprintf(line, sizeof(line), "NICK %s", bot->cfg.nick);
        outq_raw(bot->q, line);
        st->regain_at = bot->now + REGAIN_EVERY;
    }
}

/* What waits for a time: WHOIS answers given up on, channels rejoined. */
static void waits_due(struct bot *bot)
{
    struct irc_state *st = bot->irc;

    whois_expire(bot);
    for (int c = 0; c < USERS_CHANNELS; c++)
        if (st->registered && st->rejoin_at[c] && bot->now >= st->rejoin_at[c]) {
            st->rejoin_at[c] = 0;
            if (bot->chan[c][0] && !bot->chan_in[c])
                join_chan(bot, c);
        }
}

/* A quiet spell after messages: the database's page cache and the heap's
 * free pages go back to the system (the commands' reads and replies grew
 * them: about 80 KiB of anonymous memory after a run of commands on
 * SQLite, bench/peers_bench.py). It costs about 150 us, and the next
 * command reads its pages again: once a spell of a minute, and only after
 * messages (the keepalive's PONG is no reason). */
static void quiet_give_back(struct bot *bot, double quiet)
{
    struct irc_state *st = bot->irc;

    if (!st->used || quiet < GIVE_BACK_QUIET)
        return;
    st->used = 0;
    db_release_memory(bot->db);
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    log_msg(LOG_DEBUG, "quiet: memory given back");
}

/* Every turn of the loop: the connection's deadlines (registration, a
 * silent server), its keepalive, the game's clock, what waits for a
 * time. */
static void timers(struct bot *bot)
{
    struct irc_state *st = bot->irc;

    if (!st->s)
        return;
    if (!st->registered && bot->now - st->started > REGISTER_TIMEOUT) {
        session_end(bot, "registration timed out");
        return;
    }
    double quiet = bot->now - st->last_rx;
    if (quiet > DEAD_AFTER) {
        session_end(bot, "no answer from the server for 90 s");
        return;
    }
    if (st->registered)
        keepalive(bot, quiet);
    quiet_give_back(bot, quiet);
    if (st->registered && st->game_wait && bot->now >= st->game_wait)
        game_go(bot);
    if (st->registered && !st->game_wait) {
        relay_tick(bot); /* another network's bot's rows (relay.c) */
        game_tick(bot->game, bot_league_channel(bot));
        bot_sim_slice(bot);
    }
    waits_due(bot);
}

/* The pacing taken, said when it is past the safe limits. */
static void pacing_note(const struct bot *bot)
{
    if (bot->cfg.exempt &&
        (bot->cfg.lines_per_second > CONFIG_SAFE_RATE || bot->cfg.burst > CONFIG_SAFE_BURST))
        log_msg(LOG_WARN,
                "[flood] exempt = yes: sending %d lines at once and %.2f lines/s, past what IRC "
                "servers take from a client; the network must exempt the bot from flood limits",
                bot->cfg.burst, bot->cfg.lines_per_second);
}

/* A reload's channels: those no longer listed are parted; new ones get
 * a slot (joined when the rejoin timer or the next connection comes). */
static void channels_follow(struct bot *bot, const struct config *fresh)
{
    char line[OUTQ_LINE_MAX];

    for (int c = 0; c < USERS_CHANNELS; c++) {
        int keep = 0;
        if (!bot->chan[c][0])
            continue;
        keep = bot->chan_invited[c] && fresh->join_on_invite;
        for (int i = 0; i < fresh->nchannels; i++)
            keep |= irc_casecmp(bot->cm, bot->chan[c], fresh->channels[i]) == 0;
        if (keep)
            continue;
        if (bot->chan_in[c]) {
            snprintf(line, sizeof(line), "PART %s :configuration changed", bot->chan[c]);
            outq_raw(bot->q, line);
            left(bot, c);
        }
        bot->chan[c][0] = '\0';
        bot->irc->rejoin_at[c] = 0;
    }
    for (int i = 0; i < fresh->nchannels; i++) {
        if (bot_chan_find(bot, fresh->channels[i]) >= 0)
            continue;
        for (int c = 0; c < USERS_CHANNELS; c++)
            if (!bot->chan[c][0]) {
                snprintf(bot->chan[c], sizeof(bot->chan[c]), "%s", fresh->channels[i]);
                break;
            }
    }
}

/* What a reload cannot change at once, said in the log. */
static void reload_notes(const struct bot *bot, const struct config *fresh)
{
    if (strcmp(fresh->server, bot->cfg.server) != 0 || fresh->port != bot->cfg.port ||
        strcmp(fresh->nick, bot->cfg.nick) != 0)
        log_msg(LOG_WARN, "server, port and nick changes take effect at the next reconnect");
    if (fresh->tls != bot->cfg.tls || fresh->tls_verify != bot->cfg.tls_verify ||
        strcmp(fresh->tls_ca_file, bot->cfg.tls_ca_file) != 0 ||
        strcmp(fresh->tls_cert_file, bot->cfg.tls_cert_file) != 0 ||
        strcmp(fresh->tls_key_file, bot->cfg.tls_key_file) != 0 ||
        fresh->sasl_mechanism != bot->cfg.sasl_mechanism ||
        strcmp(fresh->sasl_username, bot->cfg.sasl_username) != 0 ||
        strcmp(fresh->sasl_password, bot->cfg.sasl_password) != 0)
        log_msg(LOG_WARN, "TLS and SASL changes take effect at the next reconnect");
    if (strcmp(fresh->database, bot->cfg.database) != 0)
        log_msg(LOG_WARN, "a new database path takes effect at the next start");
}

/* SIGHUP: read the file again; on an error keep running as before. */
static void reload(struct bot *bot)
{
    struct config fresh;
    char err[CONFIG_ERR_MAX];

    config_defaults(&fresh);
    if (config_load(&fresh, bot->config_path, err, sizeof(err)) != 0) {
        log_msg(LOG_ERROR, "reload refused, keeping the running configuration: %s", err);
        return;
    }
    channels_follow(bot, &fresh);
    reload_notes(bot, &fresh);
    snprintf(fresh.database, sizeof(fresh.database), "%s", bot->cfg.database);
    bot->cfg = fresh;
    log_set_level(fresh.log_level);
    outq_set_rate(bot->q, fresh.burst, fresh.lines_per_second);
    outq_set_allowance(bot->q, fresh.commands, fresh.commands_seconds);
    users_set_rate(bot->users, fresh.commands, fresh.commands_seconds, fresh.ignore_seconds);
    pacing_note(bot);
    if (bot->irc->registered)
        join_all(bot);
    struct game_config gc;
    bot_game_config(&bot->cfg, &gc);
    game_set_config(bot->game, &gc);
    log_msg(LOG_INFO, "configuration reloaded from %s", bot->config_path);
    char warn[CONFIG_ERR_MAX + 256];
    if (config_mode_check(bot->config_path, warn, sizeof(warn)))
        log_msg(LOG_WARN, "%s", warn);
}

static double due_min(double due, double at, double now)
{
    return at - now < due ? at - now : due;
}

/* Seconds until timers() has something to do, or a reconnection is due:
 * the loop sleeps at most that long when nothing comes (the queue's own
 * wait aside), at most LOOP_MAX_WAIT. */
static double timers_wait(struct bot *bot)
{
    const struct irc_state *st = bot->irc;
    double now = bot->now, due = LOOP_MAX_WAIT;

    if (!st->s)
        due = due_min(due, st->reconnect_at, now);
    else if (!st->registered)
        due = due_min(due, st->started + REGISTER_TIMEOUT, now);
    if (st->s)
        due = due_min(due, st->last_rx + DEAD_AFTER, now);
    if (st->s && st->used)
        due = due_min(due, st->last_rx + GIVE_BACK_QUIET, now);
    if (st->s && st->registered) {
        if (!st->ping_sent)
            due = due_min(due, st->last_rx + PING_AFTER, now);
        if (!is_me(bot, bot->cfg.nick))
            due = due_min(due, st->regain_at, now);
        if (st->game_wait)
            due = due_min(due, st->game_wait, now);
        else if (bot->game)
            due = due_min(due, now + game_tick_due(bot->game), now);
        for (int c = 0; c < USERS_CHANNELS; c++)
            if (st->rejoin_at[c])
                due = due_min(due, st->rejoin_at[c], now);
    }
    for (int i = 0; st->s && i < WHOIS_WAITING; i++)
        if (bot->whois.wait[i].since)
            due = due_min(due, bot->whois.wait[i].since + WHOIS_TIMEOUT, now);
    double lease = failover_due(bot);
    if (lease > 0)
        due = due_min(due, lease, now);
    return due > 0 ? due + TIMER_SLACK : 0;
}

/* timers_wait, asked again only when something may have changed it: a
 * quiet turn (timers_quiet) leaves every deadline it looks at as it was. */
static double timers_next(struct bot *bot)
{
    struct irc_state *st = bot->irc;

    if (st->timers_at <= 0) {
        double wait = timers_wait(bot);
        st->timers_at = bot->now + wait;
        return wait;
    }
    return st->timers_at > bot->now ? st->timers_at - bot->now : 0;
}

/* A turn that only sends a paced line: the wait ended for the output
 * queue, with nothing heard, before any deadline of timers() (timers_next:
 * the registration, the server's silence, the keepalive, the game's
 * clock, WHOIS answers, rejoins, giving memory back), and nothing there
 * that timers_wait does not know of (another network's rows, a lease on
 * PostgreSQL, simulations waiting). Such a turn skips timers() and keeps
 * their deadline: a bench's bulk replies, one line a wakeup, cost that
 * line and little else. */
static int timers_quiet(const struct bot *bot, int for_queue)
{
    const struct irc_state *st = bot->irc;

    return for_queue && st->s && st->registered && st->heard_none && st->timers_at > 0 &&
           bot->now + TIMER_SLACK < st->timers_at && !bot->xnet.on && bot->db &&
           !db_lease_lapses(bot->db) && !(bot->game && game_sims(bot->game) > 0);
}

/* What drain gave libircclient goes out now rather than after one more
 * select(2) that would only say the socket takes it: a system call less
 * for every turn that answers. Only once registered: before, libircclient
 * takes a writable socket for the end of its connect. `sent`: drain gave it
 * lines, so it has bytes to send (no need to ask it); else it is asked
 * (its own answers, a PONG). Returns 0, or -1 (with `why`) when the
 * session is over. */
static int flush(struct bot *bot, int sent, const char **why)
{
    struct irc_state *st = bot->irc;
    fd_set r, w;
    int libfd = -1;

    *why = NULL;
    if (!st->s || !st->registered || !irc_is_connected(st->s))
        return 0;
    FD_ZERO(&r);
    FD_ZERO(&w);
    if (sent && st->libfd >= 0) {
        libfd = st->libfd;
        FD_SET(libfd, &w);
    } else {
        irc_add_select_descriptors(st->s, &r, &w, &libfd);
    }
    if (libfd < 0 || !FD_ISSET(libfd, &w))
        return 0; /* nothing to send */
    FD_ZERO(&r);
    if (irc_process_select_descriptors(st->s, &r, &w) != 0 || !irc_is_connected(st->s)) {
        int e = irc_errno(st->s);
        *why = e ? irc_strerror(e) : "connection closed";
        return -1;
    }
    conn_pass(st->conn); /* over the relay: on to the server */
    if (conn_error(st->conn)) {
        *why = conn_error(st->conn);
        return -1;
    }
    conn_settle(st->conn, libfd);
    return 0;
}

/* One turn of the wire: waits at most `wait` seconds for libircclient's
 * socket or the connection layer's, then lets both do their work. Returns
 * 0, or -1 (with `why`) when the session is over. */
static int pump(struct bot *bot, double wait, const char **why)
{
    struct irc_state *st = bot->irc;
    fd_set r, w;
    int libfd = -1; /* the socket libircclient selects on (it keeps it to itself) */

    FD_ZERO(&r);
    FD_ZERO(&w);
    irc_add_select_descriptors(st->s, &r, &w, &libfd);
    st->libfd = libfd;
    int maxfd = libfd > 0 ? libfd : 0;
    conn_fds(st->conn, &r, &w, &maxfd);
    int nfd = st->registered && !st->game_wait ? relay_fd(bot) : -1; /* NOTIFY: relay.c */
    if (nfd >= 0) {
        FD_SET(nfd, &r);
        maxfd = nfd > maxfd ? nfd : maxfd;
    }
    int busy = conn_busy(st->conn); /* TLS bytes held: read at once */
    if (busy)
        wait = 0;
    struct timespec ts = {(time_t)wait, (long)((wait - (long)wait) * 1e9)};
    int n = pselect(maxfd + 1, &r, &w, NULL, &ts, &st->wait_mask);
    st->heard_none = n == 0 && !busy;
    if (n < 0 && errno != EINTR)
        log_msg(LOG_ERROR, "select: %s", strerror(errno));
    bot->now = bot_clock();
    if (n < 0) {
        FD_ZERO(&r);
        FD_ZERO(&w);
    }
    *why = NULL;
    if (irc_process_select_descriptors(st->s, &r, &w) != 0 || !irc_is_connected(st->s)) {
        int e = irc_errno(st->s);
        *why = e ? irc_strerror(e) : "connection closed";
        return -1;
    }
    if (st->s && conn_process(st->conn, &r, &w, libfd) != 0) {
        *why = conn_error(st->conn);
        return -1;
    }
    /* The relay's lines are in libircclient's socket: read now, not at
     * the next turn of the loop (a select(2) less for each). Only once
     * registered: before, libircclient may still be connecting to the
     * relay, and would take a read then for an error. */
    if (conn_fed(st->conn) && st->registered && libfd >= 0) {
        st->heard_none = 0;
        FD_ZERO(&r);
        FD_ZERO(&w);
        FD_SET(libfd, &r);
        if (irc_process_select_descriptors(st->s, &r, &w) != 0 || !irc_is_connected(st->s)) {
            int e = irc_errno(st->s);
            *why = e ? irc_strerror(e) : "connection closed";
            return -1;
        }
    }
    if (st->s)
        conn_settle(st->conn, libfd);
    return 0;
}

/* The delivery marker pending (the last lines said, which no clock waited
 * for: bot/outq.c, marker_idle) goes just before the QUIT: its PONG, read
 * as the socket drains, confirms them, and the game marks what that
 * confirms said as it stops (game_stop), so a restart does not say them
 * again. */
static void quit_marker(struct bot *bot)
{
    char line[OUTQ_LINE_MAX];

    if (!bot->stepped_down && bot->game && outq_last_marker(bot->q, line))
        irc_send_raw(bot->irc->s, "%s", line);
}

/* Says goodbye: QUIT straight away, then lets the socket drain briefly. */
static void goodbye(struct bot *bot)
{
    struct irc_state *st = bot->irc;

    if (!st->s)
        return;
    if (irc_is_connected(st->s)) {
        log_msg(LOG_INFO, "quitting");
        quit_marker(bot);
        irc_send_raw(st->s, "QUIT :%s", bot->stepped_down ? QUIT_STEP_DOWN : QUIT_MESSAGE);
        double until = bot_clock() + QUIT_FLUSH;
        const char *why;
        while (irc_is_connected(st->s) && bot_clock() < until)
            if (pump(bot, 0.1, &why) != 0)
                break;
        /* Whatever confirmed lines as the socket drained (that marker's
         * PONG, one already on its way, echoes) is marked said. */
        if (bot->game && !bot->stepped_down)
            game_stop(bot->game);
    }
    irc_destroy_session(st->s);
    st->s = NULL;
    conn_close(st->conn);
    st->conn = NULL;
}

int bot_quit_asked(void)
{
    return quit_requested != 0;
}

void bot_signals(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
}

/* The channels joined on invites before, from the database: joined
 * again with the configured ones (only with join_on_invite). */
static void invited_load(struct bot *bot)
{
    char names[USERS_CHANNELS][DB_CHANNEL_MAX];

    if (!bot->cfg.join_on_invite || !bot->db)
        return;
    int n = db_channel_list(bot->db, names, USERS_CHANNELS);
    if (n < 0)
        log_msg(LOG_ERROR, "cannot read the channels joined on invites: %s", db_errmsg(bot->db));
    for (int i = 0; i < n; i++) {
        int c = bot_chan_find(bot, names[i]);
        if (c < 0)
            c = chan_slot(bot);
        if (c < 0)
            break;
        snprintf(bot->chan[c], sizeof(bot->chan[c]), "%.63s", names[i]);
        bot->chan_invited[c] = 1;
        log_msg(LOG_INFO, "%s: joined on an invite before, joining it again", names[i]);
    }
}

int bot_run(struct bot *bot)
{
    struct irc_state st;

    memset(&st, 0, sizeof(st));
    st.backoff = BACKOFF_MIN;
    st.libfd = -1;
    pacing_note(bot);
    bot->irc = &st;
    for (int i = 0; i < bot->cfg.nchannels && i < USERS_CHANNELS; i++)
        snprintf(bot->chan[i], sizeof(bot->chan[i]), "%s", bot->cfg.channels[i]);
    invited_load(bot);
    bot_signals();
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &st.wait_mask);

    while (!quit_requested && !bot->stepped_down) {
        bot->now = bot_clock();
        if (!st.s && bot->now >= st.reconnect_at)
            session_start(bot);

        double wait = timers_next(bot);
        double q = st.s ? outq_wait(bot->q, bot->now) : -1;
        int for_queue = q >= 0 && q < wait;
        if (for_queue)
            wait = q;
        if (st.registered && bot->game && game_sims(bot->game) > 0)
            wait = 0; /* simulations waiting: a slice each turn, after a look at the socket */
        const char *why;
        st.heard_none = 0;
        if (st.s && pump(bot, wait, &why) != 0)
            session_end(bot, why ? why : "connection closed");
        if (!st.s) {
            wait = timers_wait(bot); /* a session just ended: until its reconnection */
            struct timespec ts = {(time_t)wait, (long)((wait - (long)wait) * 1e9)};
            pselect(0, NULL, NULL, NULL, &ts, &st.wait_mask);
            bot->now = bot_clock();
        }
        if (!timers_quiet(bot, for_queue)) {
            st.timers_at = 0; /* what was heard or done may move a deadline */
            timers(bot);
        }
        /* The turn's rows for other networks, together, before its lines
         * go out here (relay.c). */
        relay_flush(bot);
        /* The lease away or lost: nothing queued goes out (lost, the loop
         * ends). */
        if (failover_watch(bot) == 0) {
            int sent = drain(bot);
            if (st.s && flush(bot, sent, &why) != 0)
                session_end(bot, why ? why : "connection closed");
        }
        if (reload_requested) {
            reload_requested = 0;
            reload(bot);
            st.timers_at = 0;
        }
    }
    goodbye(bot);
    sigprocmask(SIG_SETMASK, &st.wait_mask, NULL);
    chanops_free(bot);
    bot->irc = NULL;
    return 0;
}
