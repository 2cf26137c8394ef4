/*
 * failover.c - one bot a network, and a standby that takes over (issue 29):
 * the bot holds its network's lease on the database (db.h: db_lease_take)
 * before it loads the game or connects to IRC. A second bot started with
 * the same configuration finds the lease held, says so once in its log and
 * waits, polling every failover_seconds / 4, without connecting to IRC
 * (it would take the same nick). Once it holds the lease it starts as a
 * bot does after a restart: the game loads the live bouts and resumes them
 * from the database (their orders, their said marks) when IRC is back.
 *
 * The active bot asks the database every failover_seconds / 4 whether it
 * still holds the lease, and every statement finds out too. While the
 * server cannot be reached (restarted, or the link down) the lease is
 * away: the bot holds every line back (it stays on IRC, its players stay
 * identified) and asks every second, for at most failover_seconds / 2;
 * once the lease is lost (another bot took it) or stayed away that long,
 * it steps down: it sends nothing more that was queued, QUITs IRC, closes
 * the database and waits as a standby again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot.h"

/* How often a standby tries the lease and the active checks it, in s. */
static double failover_poll(const struct bot *bot)
{
    int f = bot->cfg.failover_seconds > 0 ? bot->cfg.failover_seconds : 30;

    return f / 4.0;
}

/* Sleeps `s` seconds, in steps short enough to notice SIGTERM soon: 1 if
 * the bot was asked to quit meanwhile, else 0. */
static int failover_sleep(double s)
{
    double until = bot_clock() + s;

    while (!bot_quit_asked()) {
        double left = until - bot_clock();
        if (left <= 0)
            return 0;
        if (left > 0.25)
            left = 0.25;
        struct timespec ts = {0, (long)(left * 1e9)};
        nanosleep(&ts, NULL);
    }
    return 1;
}

/* The network as the log names it. */
static void failover_name(const struct bot *bot, char *out, size_t size)
{
    if (bot->cfg.network[0])
        snprintf(out, size, "network %s", bot->cfg.network);
    else
        snprintf(out, size, "this database");
}

int failover_wait(struct bot *bot)
{
    char name[CONFIG_NETWORK_MAX + 16], last[512] = "";
    double poll = failover_poll(bot), since = bot_clock();
    int standby = 0;

    failover_name(bot, name, sizeof(name));
    for (;;) {
        int rc = db_lease_take(bot->db, bot->cfg.network, bot->cfg.failover_seconds);
        if (rc == DB_OK) {
            if (standby)
                log_msg(LOG_INFO,
                        "active: the other ringside stopped; taking over %s after %.0f s "
                        "as a standby",
                        name, bot_clock() - since);
            return 0;
        }
        if (rc == DB_EXISTS && !standby) {
            standby = 1;
            log_msg(LOG_INFO, "standby: %s is run by another ringside; taking over when it stops",
                    name);
        } else if (rc == DB_ERROR && strcmp(last, db_errmsg(bot->db)) != 0) {
            snprintf(last, sizeof(last), "%s", db_errmsg(bot->db));
            log_msg(LOG_ERROR, "cannot take the lease of %s: %s; trying again every %.1f s", name,
                    last, poll);
        }
        if (failover_sleep(poll))
            return 1;
    }
}

struct db *failover_reopen(struct bot *bot)
{
    char err[1024], last[1024] = "";
    double poll = failover_poll(bot);

    for (;;) {
        struct db *db = db_open_marked(bot->cfg.database, 0, err, sizeof(err));
        if (db)
            return db;
        if (strcmp(err, last) != 0) {
            snprintf(last, sizeof(last), "%s", err);
            log_msg(LOG_ERROR, "cannot open the database again: %s; trying again every %.1f s", err,
                    poll);
        }
        if (failover_sleep(poll))
            return NULL;
    }
}

/* The lease away (the database out of reach): every line is held back
 * while it is (the bot may not speak for a network it may no longer run),
 * for at most half the failover time; 2 while it waits, 1 once it gives
 * up (the caller steps down). */
static int failover_away(struct bot *bot, const char *name)
{
    double most = bot->cfg.failover_seconds / 2.0;

    if (!bot->lease_away) {
        bot->lease_away = bot->now;
        log_msg(LOG_WARN,
                "%s; holding every line back (for %s, the lease comes back with it, or "
                "this bot steps down in %.0f s)",
                db_errmsg(bot->db), name, most);
    }
    return bot->now - bot->lease_away < most ? 2 : 1;
}

/* The bot says it is present (db_presence_set) while it is on IRC and in
 * its first channel, where the other networks' bots' lines for its
 * channel are said, and gives it back when it leaves either. Said again
 * at every check of the lease (`looked`): a new session (the database
 * restarted) holds nothing until then. */
static void presence_say(struct bot *bot, int looked)
{
    struct presence_state *p = &bot->presence;
    int want = bot->chan_in[0] && !bot->stepped_down;

    if (want == p->held && !(want && looked))
        return;
    if (db_presence_set(bot->db, want) != DB_OK) {
        log_msg(LOG_WARN,
                "cannot say whether this bot is on IRC (for bouts with other networks): %s",
                db_errmsg(bot->db));
        return;
    }
    if (want != p->held)
        log_msg(LOG_DEBUG, "presence: %s", want ? "on IRC and in the channel" : "gone");
    p->held = want;
}

int presence_away(struct bot *bot, const char *network)
{
    struct presence_state *p = &bot->presence;
    int k = 0;

    if (!bot->db || !db_is_pg(bot->db) || !network[0])
        return 0;
    for (; k < PRESENCE_NETWORKS; k++)
        if (strcmp(p->nets[k].network, network) == 0)
            break;
    if (k == PRESENCE_NETWORKS) {
        k = (int)(p->nets_next++ % PRESENCE_NETWORKS);
        memset(&p->nets[k], 0, sizeof(p->nets[k]));
        snprintf(p->nets[k].network, sizeof(p->nets[k].network), "%s", network);
    }
    if (bot->now < p->nets[k].next)
        return p->nets[k].away;
    p->nets[k].next = bot->now + failover_poll(bot);
    int n = db_network_present(bot->db, network);
    if (n < 0)
        return p->nets[k].away; /* our own database trouble says nothing of theirs */
    /* A bot seen before is gone once missed for half the failover time,
     * as its own lease rules say (a database restarted, each bot's
     * session made again within a second or two, is no absence). */
    if (n || !p->nets[k].absent_since)
        p->nets[k].absent_since = n ? 0 : bot->now;
    int away = !n && (!p->nets[k].known || p->nets[k].away ||
                      bot->now - p->nets[k].absent_since >= failover_poll(bot) * 2 - 0.01);
    if (p->nets[k].known && away != p->nets[k].away)
        log_msg(LOG_INFO, "network %s %s", network,
                away ? "has no bot on IRC now: its players in bouts here are away"
                     : "has a bot on IRC again: its players in bouts here are back");
    p->nets[k].known = 1;
    p->nets[k].away = away;
    return away;
}

double failover_due(const struct bot *bot)
{
    if (!bot->db || bot->stepped_down || !db_lease_lapses(bot->db))
        return 0;
    return bot->lease_next > 0 ? bot->lease_next : bot->now;
}

int failover_watch(struct bot *bot)
{
    if (bot->stepped_down)
        return 1;
    if (bot->db && !db_lease_lapses(bot->db))
        return 0; /* SQLite's flock: held as long as the process lives */
    char name[CONFIG_NETWORK_MAX + 16];
    failover_name(bot, name, sizeof(name));
    int st = db_lease_state(bot->db), looked = 0;
    if (st != DB_ERROR && bot->now >= bot->lease_next) {
        /* Away, the server is asked again every second. */
        double poll = failover_poll(bot);
        bot->lease_next = bot->now + (st == DB_NOTFOUND && poll > 1 ? 1 : poll);
        st = db_lease_check(bot->db);
        looked = 1;
    }
    if (st == DB_OK)
        presence_say(bot, looked);
    if (st == DB_OK && bot->lease_away) {
        log_msg(LOG_INFO, "the database is back after %.0f s, the lease of %s held again",
                bot->now - bot->lease_away, name);
        bot->lease_away = 0;
    }
    if (st == DB_OK)
        return 0;
    if (st == DB_NOTFOUND && failover_away(bot, name) == 2)
        return 2;
    log_msg(LOG_ERROR,
            "stepping down from %s: %s; saying nothing more, leaving IRC and waiting as a standby",
            name,
            /* Lost is only ever another's taking it; the connection's last
             * message may be a later statement's refusal. */
            st == DB_NOTFOUND ? "the database stayed out of reach"
                              : "another ringside took the network lease while this one's "
                                "session was lost");
    bot->stepped_down = 1;
    return 1;
}

void failover_reset(struct bot *bot)
{
    struct config *cfg = xmalloc(sizeof(*cfg));
    const char *path = bot->config_path;

    *cfg = bot->cfg;
    memset(bot, 0, sizeof(*bot));
    bot->cfg = *cfg;
    bot->config_path = path;
    free(cfg);
}
