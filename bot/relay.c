/*
 * relay.c - a bout between players of two networks (issue 29), the bot's
 * side of db/notify.c. PostgreSQL only.
 *
 * The challenger's bot owns the bout (bouts.network: its lease) and runs
 * it as any other. Its game names the other network's player "bob@oftc"
 * (relay_nick_of, the io's nick_of), so every line for him has an '@' in
 * its target: relay_said turns it into a 'say' row for oftc's bot; a line
 * about the bout in its channel is said here and, as a row, in oftc's
 * channel too. oftc's bot says those rows (relay_tick) and deletes them
 * once its server confirmed them, and turns its player's commands about
 * the bout (accept, decline, forfeit, orders: bot_relay_cmd) into 'cmd'
 * rows the owner runs as his (relay_run), answering him through rows.
 * oftc's bot marks the lines said rather than deleting them (db/notify.c).
 * A NOTIFY wakes the reader; it also looks every few seconds, and reads
 * everything waiting when it (re)starts: a row is never lost, only late.
 *
 * After a restart (or a failover) the owner says again, from its database,
 * the commentary its own server had not confirmed (the game's say_about
 * with a negative round): relayed too, unless the other network has that
 * round already (db_relay_say), so a round committed just before a crash
 * reaches both channels, once. A line written twice is one row (its key).
 * A round fought withdraws its prompts still waiting for the other
 * network's player (relay_withdraw: a 'drop' row).
 *
 * The rows a turn of the loop makes (a command, a tick: a round's channel
 * lines and prompts) are held and written together at the turn's end, in
 * one transaction (relay_flush, db_relay_write), never in the game's: an
 * owner killed between two of them leaves none, and says the round again
 * after its restart, relayed whole. A failed write keeps them for the
 * next turns (RELAY_HOLD_SECONDS at most).
 *
 * RINGSIDE_TEST_RELAY_KILL (tests only; unset in production, where it is
 * never read but once): the owner kills itself (SIGKILL) after the round's
 * commit, instead of holding the first channel line about a bout that
 * holds that text; with "+TEXT", in the turn's transaction, after writing
 * the channel line holding TEXT and before the row after it
 * (tests/e2e/e2e_cross.py).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "bot.h"

/* Without a notification, the rows are looked at this often (s). */
#define RELAY_LOOK_SECONDS 5.0

/* 1 once the bot listens (PostgreSQL): the first use tries, then every
 * RELAY_LOOK_SECONDS until it can. Any use may be the first: a restarted
 * owner says its unsaid lines as the game connects, before a tick. */
static int relay_ready(struct bot *bot)
{
    struct relay_state *r = &bot->xnet;

    if (r->on)
        return 1;
    if (!db_is_pg(bot->db) || bot->now < r->next)
        return 0;
    r->next = bot->now + RELAY_LOOK_SECONDS;
    if (db_notify_listen(bot->db) != DB_OK) {
        log_msg(LOG_WARN, "bouts between two networks: cannot listen: %s", db_errmsg(bot->db));
        return 0;
    }
    r->on = 1;
    r->next = 0;
    return 1;
}

/* Bout's entry in the cache (its corners asked once a bout), or -1 when
 * the bout is one network's; its other network into network. */
static int bout_other(struct bot *bot, int64_t bout, char *network, size_t size)
{
    struct relay_state *r = &bot->xnet;
    int k = 0;

    for (; k < RELAY_CACHE; k++)
        if (r->bouts[k].bout == bout)
            break;
    if (k == RELAY_CACHE) {
        k = r->bouts_next++ % RELAY_CACHE;
        r->bouts[k].bout = bout;
        r->bouts[k].network[0] = '\0';
        if (db_bout_sides(bot->db, bout, r->bouts[k].side) == DB_OK)
            for (int s = 0; s < 2; s++)
                if (strcmp(r->bouts[k].side[s].network, db_network(bot->db)) != 0)
                    snprintf(r->bouts[k].network, sizeof(r->bouts[k].network), "%s",
                             r->bouts[k].side[s].network);
    }
    snprintf(network, size, "%s", r->bouts[k].network);
    return network[0] ? k : -1;
}

/* 1 if a colour code (^C, digits, a comma) ends just before end: its
 * start into *start. */
static int colour_before(const char *text, const char *end, const char **start)
{
    for (const char *p = end; p > text && end - p < 7; p--) {
        if (p[-1] == '\x03') {
            *start = p - 1;
            return 1;
        }
        if (!(p[-1] >= '0' && p[-1] <= '9') && p[-1] != ',')
            return 0;
    }
    return 0;
}

/* 1 if the text before `end` ends, but for one space and formatting (bold,
 * colours, italics, underline, reset), with fighter's name. */
static int named_before(const char *text, const char *end, const char *fighter)
{
    size_t len = strlen(fighter);
    const char *start;

    if (end > text && end[-1] == ' ')
        end--;
    for (;;) {
        if (end > text && strchr("\x02\x0f\x1d\x1f", end[-1]))
            end--;
        else if (colour_before(text, end, &start))
            end = start;
        else
            break;
    }
    return len && (size_t)(end - text) >= len && memcmp(end - len, fighter, len) == 0;
}

/* A corner "Rocky (alice)" of side sd in text named "Rocky (alice@one)"
 * into out: 1 if there was one. The owner composed the line with its own
 * network's names; each copy names the players of the network that does
 * not hear it by their network too. */
static int corner_named(const char *text, const struct db_bout_side *sd, struct str *out)
{
    char token[DB_NAME_MAX + 2];
    const char *p = text, *at;
    int n = 0;

    snprintf(token, sizeof(token), "(%s)", sd->owner);
    str_clear(out);
    while ((at = strstr(p, token))) {
        str_raw(out, p, (size_t)(at - p));
        if (named_before(text, at, sd->fighter)) {
            str_add(out, "(%s@%s)", sd->owner, sd->network);
            n++;
        } else {
            str_cat(out, token);
        }
        p = at + strlen(token);
    }
    str_cat(out, p);
    return n > 0;
}

const char *relay_nick_of(struct bot *bot, int64_t account_id)
{
    struct relay_state *r = &bot->xnet;

    if (!relay_ready(bot))
        return NULL;
    for (int k = 0; k < RELAY_CACHE; k++)
        if (r->names[k].id == account_id)
            return r->names[k].who[0] ? r->names[k].who : NULL;
    char name[DB_NAME_MAX], network[DB_NETWORK_MAX];
    int k = r->names_next++ % RELAY_CACHE;
    r->names[k].id = account_id;
    r->names[k].who[0] = '\0';
    if (db_account_by_id(bot->db, account_id, name, sizeof(name), network, sizeof(network)) ==
            DB_OK &&
        strcmp(network, db_network(bot->db)) != 0)
        snprintf(r->names[k].who, sizeof(r->names[k].who), "%s@%s", name, network);
    return r->names[k].who[0] ? r->names[k].who : NULL;
}

/* The account relay_nick_of named `who` (name@network), or 0. */
static int64_t named_account(const struct bot *bot, const char *who)
{
    for (int k = 0; k < RELAY_CACHE; k++)
        if (bot->xnet.names[k].who[0] && strcmp(bot->xnet.names[k].who, who) == 0)
            return bot->xnet.names[k].id;
    return 0;
}

/* Holds a row for network's bot, written with the rest of the turn's by
 * relay_flush. */
static void hold(struct bot *bot, enum db_relay_kind kind, const char *network, int64_t account,
                 const char *target, const char *text, int64_t bout, int round)
{
    struct db_relay_row row = {.kind = kind, .account = account, .bout = bout, .round = round};

    snprintf(row.network, sizeof(row.network), "%s", network);
    snprintf(row.target, sizeof(row.target), "%s", target ? target : "");
    row.text = (char *)text;
    db_relay_hold(&bot->xnet.held, &row);
}

/* A line for network's bot (about no bout: an answer). */
static void put_say(struct bot *bot, const char *network, int64_t account, const char *target,
                    const char *text)
{
    hold(bot, DB_RELAY_SAY, network, account, target, text, 0, 0);
}

/* A line about bout for network's bot (db_relay_say's round). */
static void put_about(struct bot *bot, const char *network, int64_t account, const char *target,
                      const char *text, int64_t bout, int round)
{
    hold(bot, DB_RELAY_SAY, network, account, target, text, bout, round);
}

/* The test knob RINGSIDE_TEST_RELAY_KILL (see the top), or NULL. */
static const char *test_knob(void)
{
    static const char *knob;
    static int read;

    if (!read) {
        read = 1;
        knob = getenv("RINGSIDE_TEST_RELAY_KILL");
    }
    return knob && knob[0] ? knob : NULL;
}

/* 1 when `text`, without its formatting (bold, colours), holds `what`. */
static int plain_holds(const char *text, const char *what)
{
    struct str plain;
    str_init(&plain);
    for (const char *p = text; *p; p++)
        if (*p == '\x03')
            p += strspn(p + 1, "0123456789,") > 5 ? 5 : strspn(p + 1, "0123456789,");
        else if ((unsigned char)*p >= 0x20)
            str_ch(&plain, *p);
    int holds = plain.len && strstr(plain.p, what);
    str_free(&plain);
    return holds;
}

/* The knob "TEXT": dies here, before holding a channel line that holds
 * TEXT (nothing of the turn is written). */
static void test_kill(const char *text)
{
    const char *knob = test_knob();

    if (knob && knob[0] != '+' && plain_holds(text, knob)) {
        log_msg(LOG_WARN, "RINGSIDE_TEST_RELAY_KILL: killed before relaying: %s", text);
        raise(SIGKILL);
    }
}

/* The knob "+TEXT" (db_relay_write's `each`): dies in the turn's
 * transaction, between the channel line holding TEXT, written, and the
 * row after it. */
static void test_kill_between(void *ctx, const struct db_relay_batch *b, int i)
{
    const char *knob = test_knob();
    const struct db_relay_row *prev = i > 0 ? &b->row[i - 1] : NULL;

    (void)ctx;
    if (knob && knob[0] == '+' && prev && prev->kind == DB_RELAY_SAY && !prev->target[0] &&
        prev->text && plain_holds(prev->text, knob + 1)) {
        log_msg(LOG_WARN, "RINGSIDE_TEST_RELAY_KILL: killed between two rows, after: %s",
                prev->text);
        raise(SIGKILL);
    }
}

/* A channel line about bout k of the cache: relayed to its other
 * network, each copy naming the corners of the network that does not
 * hear it (`local`: the text to say here, when renamed). */
static void relay_channel(struct bot *bot, int k, const char *text, int round, struct str *local)
{
    const struct relay_state *r = &bot->xnet;
    struct str remote;
    int mine = strcmp(r->bouts[k].side[0].network, db_network(bot->db)) == 0 ? 0 : 1;

    str_init(&remote);
    test_kill(text);
    put_about(bot, r->bouts[k].network, 0, "",
              corner_named(text, &r->bouts[k].side[mine], &remote) ? remote.p : text,
              r->bouts[k].bout, round);
    if (local && !corner_named(text, &r->bouts[k].side[!mine], local))
        str_clear(local);
    str_free(&remote);
}

int relay_said(struct bot *bot, const char *target, const char *text, int64_t bout, int round,
               struct str *local)
{
    char network[DB_NETWORK_MAX];
    const char *at = strchr(target, '@');

    if (!relay_ready(bot))
        return 0;
    if (at && target[0] != '#' && target[0] != '&') { /* nicks have no '@': a remote player */
        char name[DB_NAME_MAX];
        snprintf(name, sizeof(name), "%.*s", (int)(at - target), target);
        if (bout > 0)
            put_about(bot, at + 1, named_account(bot, target), name, text, bout,
                      round > 0 ? round : 0);
        else
            put_say(bot, at + 1, named_account(bot, target), name, text);
        return 1;
    }
    int k;
    if (bout > 0 && bot_chan_find(bot, target) >= 0 &&
        (k = bout_other(bot, bout, network, sizeof(network))) >= 0)
        relay_channel(bot, k, text, round, local);
    return 0;
}

void relay_withdraw(struct bot *bot, int64_t bout, int round)
{
    char network[DB_NETWORK_MAX];

    if (bout <= 0 || !relay_ready(bot) || bout_other(bot, bout, network, sizeof(network)) < 0)
        return;
    hold(bot, DB_RELAY_DROP, network, 0, "", NULL, bout, round);
}

/* A batch failing this long (s) is given up: the database away longer
 * costs the lease (failover_seconds), and the successor says again what
 * its server had not confirmed; a row the database refuses for good
 * must not stop the relay. */
#define RELAY_HOLD_SECONDS 60.0
/* After a failed write, the next try is this much later (s). */
#define RELAY_RETRY_SECONDS 1.0

void relay_flush(struct bot *bot)
{
    struct relay_state *r = &bot->xnet;

    if (!r->held.n || bot->now < r->retry)
        return;
    if (db_relay_write(bot->db, &r->held, test_knob() ? test_kill_between : NULL, NULL) == DB_OK) {
        if (r->failing)
            log_msg(LOG_INFO, "the lines for other networks' bots are stored again");
        r->failing = r->retry = 0;
        return;
    }
    if (!r->failing) {
        r->failing = bot->now;
        log_msg(LOG_WARN, "%d lines for other networks' bots wait: %s (trying again)", r->held.n,
                db_errmsg(bot->db));
    }
    r->retry = bot->now + RELAY_RETRY_SECONDS;
    if (bot->now - r->failing >= RELAY_HOLD_SECONDS) {
        log_msg(LOG_ERROR, "%d lines for other networks' bots are lost: %s", r->held.n,
                db_errmsg(bot->db));
        db_relay_batch_free(&r->held);
        r->failing = r->retry = 0;
    }
}

void relay_close(struct bot *bot)
{
    struct relay_state *r = &bot->xnet;

    r->retry = 0;
    relay_flush(bot);
    if (r->held.n)
        log_msg(LOG_ERROR, "%d lines for other networks' bots are lost: %s", r->held.n,
                db_errmsg(bot->db));
    db_relay_batch_free(&r->held);
}

/* ------------------------------------------------ the owner's side */

/* A relayed command's caller: answered through rows for his network. */
struct relay_caller {
    struct bot *bot;
    char network[DB_NETWORK_MAX];
    char name[DB_NAME_MAX];
    int64_t account;
};

static void relay_answer(void *ctx, int how, const char *text)
{
    struct relay_caller *c = ctx;

    (void)how; /* always in private: he is not in this bot's channel */
    put_say(c->bot, c->network, c->account, c->name, text);
}

/* Runs a 'cmd' row as its player's command here (the bout's owner). */
static void relay_run(struct bot *bot, const struct db_relay *row)
{
    struct relay_caller c = {.bot = bot, .account = row->account};
    const char *who = relay_nick_of(bot, row->account);
    const char *at = who ? strchr(who, '@') : NULL;

    if (!at) {
        log_msg(LOG_WARN, "a relayed %s of account %lld, not another network's: ignored",
                row->target, (long long)row->account);
        return;
    }
    snprintf(c.name, sizeof(c.name), "%.*s", (int)(at - who), who);
    snprintf(c.network, sizeof(c.network), "%s", at + 1);
    struct game_caller gc = {
        .account_id = row->account,
        .account = who,
        .nick = who,
        .channel = NULL,
        .answer = relay_answer,
        .ctx = &c,
    };
    const char *text = row->text;
    int64_t bout = strtoll(text, NULL, 10); /* "<bout> <words>" */
    const char *words = strchr(text, ' ') ? strchr(text, ' ') + 1 : "";

    if (strcmp(row->target, "accept") == 0)
        game_answer(bot->game, &gc, GAME_ACCEPT, NULL, 0);
    else if (strcmp(row->target, "decline") == 0)
        game_answer(bot->game, &gc, GAME_DECLINE, NULL, 0);
    else if (strcmp(row->target, "forfeit") == 0 && strcasecmp(words, "yes") == 0)
        game_forfeit(bot->game, &gc, bout);
    else if (strcmp(row->target, "forfeit") == 0)
        game_forfeit_ask(bot->game, &gc, bout);
    else if (strcmp(row->target, "order") == 0)
        game_order(bot->game, &gc, NULL, words);
}

/* ------------------------------------------- the other bot's side */

/* Says a 'say' row here: to the player's nick (his account's identified
 * nick, else his name) or, with no target, in the bot's first channel. */
static void relay_say(struct bot *bot, const struct db_relay *row)
{
    const char *to = row->target;

    if (!to[0])
        to = bot->chan[0];
    else if (row->account && users_nick_of(bot->users, row->account))
        to = users_nick_of(bot->users, row->account);
    /* About a bout, the queue keeps its order, and a line to the player
     * with a round is a prompt that a 'drop' row withdraws. */
    if (to[0] && row->bout > 0)
        outq_msg_about(bot->q, OUTQ_LIVE, "PRIVMSG", to, NULL, row->text, row->bout,
                       row->account && row->round > 0 ? row->round : 0);
    else if (to[0])
        bot_msg(bot, OUTQ_LIVE, to, NULL, row->text);
    outq_await(bot->q, outq_mark(bot->q)); /* its row is marked said once delivered */
}

int bot_relay_cmd(struct cmd_ctx *ctx, const char *verb, const char *words)
{
    struct bot *bot = ctx->bot;
    char network[DB_NETWORK_MAX], text[1024];
    int64_t bout;

    if (!relay_ready(bot) || !ctx->account_id || game_account_live(bot->game, ctx->account_id) ||
        db_remote_bout(bot->db, ctx->account_id, &bout, network, sizeof(network)) != DB_OK)
        return 0;
    snprintf(text, sizeof(text), "%lld %s", (long long)bout, words);
    if (db_relay_put(bot->db, network, DB_RELAY_CMD, ctx->account_id, verb, text) != DB_OK) {
        reply(ctx, "sorry, I could not pass that on to %s's bot (%s); try again", network,
              db_why(bot->db));
        return -1;
    }
    return 1; /* the bout's bot answers him, through us */
}

/* A command or drop row, run: deleted now, or kept in the range
 * relay_tick deletes again (its id is past r->after: never taken again by
 * this bot, but a standby taking over would run it a second time). */
static void row_done(struct bot *bot, const struct db_relay *row)
{
    struct relay_state *r = &bot->xnet;

    if (db_relay_done(bot->db, row->id, row->id, (int64_t)time(NULL)) == DB_OK)
        return;
    if (!r->undone_upto)
        r->undone_from = row->id;
    r->undone_upto = row->id;
}

/* Takes the rows waiting: runs the commands, queues the lines. */
static void relay_take(struct bot *bot)
{
    struct relay_state *r = &bot->xnet;
    struct db_relay *row = xmalloc(sizeof(*row));
    int n = 0;

    while (n++ < 64 && db_relay_next(bot->db, r->after, row) == DB_OK) {
        r->after = row->id;
        if (row->kind == DB_RELAY_CMD) {
            relay_run(bot, row);
            relay_flush(bot); /* its answers (and lines) stored before it goes */
            row_done(bot, row);
        } else if (row->kind == DB_RELAY_DROP) {
            outq_drop(bot->q, row->bout, row->round);
            row_done(bot, row);
        } else {
            relay_say(bot, row);
            r->said = row->id;
            r->mark = outq_mark(bot->q);
        }
    }
    free(row);
}

void relay_tick(struct bot *bot)
{
    struct relay_state *r = &bot->xnet;

    if (!relay_ready(bot))
        return;
    int got = db_notify_poll(bot->db);
    if (got > 0 || bot->now >= r->next) {
        r->next = bot->now + RELAY_LOOK_SECONDS;
        relay_take(bot);
    }
    /* Rows run whose deletion failed: every command or drop up to
     * r->after was taken in id order and run, so the range holds no other. */
    if (r->undone_upto && db_relay_forget(bot->db, r->undone_from, r->undone_upto) == DB_OK)
        r->undone_from = r->undone_upto = 0;
    /* The lines the server confirmed are said: their rows are marked. */
    if (r->said > r->done && outq_delivered(bot->q, r->mark) &&
        db_relay_done(bot->db, 0, r->said, (int64_t)time(NULL)) == DB_OK)
        r->done = r->said;
}

int relay_fd(struct bot *bot)
{
    return bot->xnet.on ? db_notify_fd(bot->db) : -1;
}
