/*
 * bout.c - challenges and live bouts: the state machine, orders, rounds,
 * deadlines, and rebuilding everything after a restart.
 *
 * States: CHALLENGE --accept--> LIVE --last round, KO, TKO, DQ, forfeit-->
 * OVER; CHALLENGE --decline, withdraw, timeout--> CANCELLED; LIVE --admin
 * cancel--> CANCELLED.
 *
 * The database is the truth. A challenge is stored before it is announced;
 * an order is stored before it is acknowledged; a round is resolved on
 * copies of the engine state, written in one transaction (both orders, the
 * round's digest, the bout, and at the end the fighters' records), and only
 * then said and adopted. If the write fails it is rolled back, the state
 * stays as it was, the channel is told once that the round could not be
 * saved, and the round is fought again (round_failed) by the tick
 * RETRY_AFTER seconds later, or by an order that comes before.
 *
 * At start-up every live bout is rebuilt by replaying its stored orders
 * from its seed through the engine and the commentary (so even the wording
 * of later rounds stays the same); orders already stored for the next round
 * are kept, and players are asked only for the missing ones. Deadlines run
 * only while the game is connected (game_connected): every (re)connection
 * starts them afresh, and with [bout] rejoin_grace a live bout first waits
 * for both its players to be identified again (game_player_back, or seen
 * at a tick) or for the grace to pass (bout_wait).
 *
 * A fighter is in at most one challenge or live bout at a time; while he
 * is, his sheet and record do not change (training and the admin's set wait
 * until the bout is over), so the stored sheet is the one the bout started
 * with.
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "game.h"
#include "game_internal.h"
#include "parse.h"

#define REMIND_BEFORE   30.0  /* seconds before a deadline */
#define ASK_WAIT_MAX    300.0 /* seconds a deadline waits for its question to go out */
#define RETRY_AFTER     5.0   /* seconds before a failed write is tried again */
#define ORDERS_STORED   (2 * BOUT_ROUNDS_MAX + 4)
#define MY_FIGHTERS_MAX 16
#define MY_BOUTS_MAX    32   /* a player's live bouts looked at, at most */
#define MINE_SHOWN      4    /* a player's bouts named in one reply, at most */
#define WHICH_TEXT_MAX  400  /* the bouts named in one reply */
#define UNSAID_SHOWN    256  /* bouts said again at a (re)connection, at most */
#define UNSAID_LOOK     10.0 /* seconds: a look for commentary confirmed said, at most */

/* ------------------------------------------------------------- helpers */

static const char *rules_name(enum rules r)
{
    return ruleset_get(r)->name;
}

/* How the caller types a command where he is: with the prefix in a
 * channel ("!bouts"), bare in private. */
static const char *typed(const struct game *g, const struct game_caller *who)
{
    return who->channel ? g->cfg.prefix : "";
}

static int same_name(const struct game *g, const char *a, const char *b)
{
    return g->io.same_name(g->io.ctx, a, b);
}

static struct live *find_id(struct game *g, int64_t id)
{
    return live_by_id(g, id);
}

/* The bout (challenge or live) fighter `fid` is in, or NULL. */
static struct live *find_fighter(const struct game *g, int64_t fid)
{
    return live_by_fighter(g, fid);
}

#define ACCOUNT_BOUTS_LOCAL 16 /* an account's bouts looked at without an allocation */

/* Every bout (challenge or live) with account `acc` on a side, in the
 * table's order: *v is set to buf (room for ACCOUNT_BOUTS_LOCAL) or, when
 * they are more, an allocation account_bouts_done frees. Returns how
 * many. */
static int account_bouts(const struct game *g, int64_t acc, struct live **buf, struct live ***v)
{
    int n = live_by_account(g, acc, buf, ACCOUNT_BOUTS_LOCAL);

    *v = buf;
    if (n > ACCOUNT_BOUTS_LOCAL) {
        *v = xmalloc((size_t)n * sizeof(**v));
        live_by_account(g, acc, *v, n);
    }
    return n;
}

static void account_bouts_done(struct live **buf, struct live **v)
{
    if (v != buf)
        free(v);
}

/* The side account `acc` owns in `lv`, or -1. */
static int side_of(const struct live *lv, int64_t acc)
{
    for (int s = 0; s < SIDES; s++)
        if (lv->f[s].account_id == acc)
            return s;
    return -1;
}

/* Says a line about bout `id` (io.say_about; io.say without it): `round`
 * > 0 for a line that is stale once round `round` is fought (a prompt, a
 * reminder, a corner), 0 for one that stays true. The output then keeps
 * a player's line behind the channel lines about his bout said before.
 * GAME_ASK for a line that asks for an answer (io.say hears GAME_ROUND). */
static void say_about(struct game *g, enum game_voice voice, const char *target, int64_t id,
                      int round, const char *fmt, ...) GAME_PRINTF(6, 7);
static void say_about(struct game *g, enum game_voice voice, const char *target, int64_t id,
                      int round, const char *fmt, ...)
{
    char text[2048];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    if (g->io.say_about)
        g->io.say_about(g->io.ctx, voice, target, text, id, round);
    else
        g->io.say(g->io.ctx, voice == GAME_ASK ? GAME_ROUND : voice, target, text);
}

/* Round `round` of bout `id` is fought (INT_MAX: the bout is over): what
 * was said about it before, still waiting to go out, is no longer true. */
static void withdraw(struct game *g, int64_t id, int round)
{
    if (g->io.withdraw)
        g->io.withdraw(g->io.ctx, id, round);
}

/* lv is over (or cancelled, or never began): nothing said about its
 * rounds goes out any more, and it is forgotten. */
static void forget(struct game *g, struct live *lv)
{
    withdraw(g, lv->rec.id, INT_MAX);
    live_table_remove(g, lv);
    free(lv);
}

/* 1 if side s of lv is another network's player (his bot tells him). */
static int player_remote(const struct game *g, const struct live *lv, int s)
{
    const char *net = lv->f[s].owner_network;

    return net[0] && strcmp(net, db_network(g->db)) != 0;
}

static size_t seen_slot(const struct game *g, int64_t acc)
{
    size_t k = (size_t)((uint64_t)acc * 0x9E3779B97F4A7C15u) & (g->seen_cap - 1);

    while (g->seen[k] && g->seen[k] != acc)
        k = (k + 1) & (g->seen_cap - 1);
    return k;
}

/* 1 if account acc was seen identified since the bot last connected. */
static int seen_has(const struct game *g, int64_t acc)
{
    return g->seen_cap && g->seen[seen_slot(g, acc)] == acc;
}

static void seen_add(struct game *g, int64_t acc)
{
    if (acc <= 0 || seen_has(g, acc))
        return;
    if (2 * (g->seen_n + 1) > g->seen_cap) {
        int64_t *old = g->seen;
        size_t n = g->seen_cap;
        g->seen_cap = n ? 2 * n : 64;
        g->seen = xcalloc(g->seen_cap, sizeof(*g->seen));
        for (size_t i = 0; i < n; i++)
            if (old[i])
                g->seen[seen_slot(g, old[i])] = old[i];
        free(old);
    }
    g->seen[seen_slot(g, acc)] = acc;
    g->seen_n++;
}

/* Where to tell side s of lv something privately: his identified nick;
 * else, after a restart and before he is seen identified again, the nick
 * he was last identified under, once nick_sync read it; else his account
 * name. Once seen, a player who quits is not told under his old nick:
 * whoever takes it next would be. */
static const char *live_nick(const struct game *g, const struct live *lv, int s)
{
    const char *nick = g->io.nick_of(g->io.ctx, lv->f[s].account_id);

    if (nick)
        return nick;
    return lv->nick[s][0] && !seen_has(g, lv->f[s].account_id) && !player_remote(g, lv, s)
               ? lv->nick[s]
               : lv->f[s].owner;
}

/* Stores `nick` as the last one account `acc` was identified under, and
 * gives it to each of his bouts (a failure is logged: a later line may
 * then go to his account's name, nothing worse). */
static void nick_store(struct game *g, int64_t acc, const char *nick)
{
    struct live *buf[ACCOUNT_BOUTS_LOCAL], **v;

    if (db_account_nick_set(g->db, acc, nick) != DB_OK)
        game_log(g, GAME_LOG_WARN, "the nick of account %lld: %s", (long long)acc,
                 db_errmsg(g->db));
    seen_add(g, acc);
    int n = account_bouts(g, acc, buf, &v);
    for (int i = 0; i < n; i++)
        for (int s = 0; s < SIDES; s++)
            if (v[i]->f[s].account_id == acc) {
                snprintf(v[i]->nick[s], sizeof(v[i]->nick[s]), "%s", nick);
                v[i]->nick_read[s] = 1;
            }
    account_bouts_done(buf, v);
}

/* Side s of lv's stored nick (live_nick's) read once, and his nick now
 * stored when it is another: he changed nick while identified. A read per
 * side and bout, a write per change; nothing for another network's player
 * (his bot keeps his). Called where lv asks him for orders, and after a
 * (re)connection. */
static void nick_sync(struct game *g, struct live *lv, int s)
{
    if (player_remote(g, lv, s))
        return;
    if (!lv->nick_read[s]) {
        if (db_account_nick_get(g->db, lv->f[s].account_id, lv->nick[s], sizeof(lv->nick[s])) !=
            DB_OK)
            lv->nick[s][0] = '\0';
        lv->nick_read[s] = 1;
    }
    /* None stored is his account's name (live_nick's fallback): a player
     * under his account's name costs no write. */
    const char *now = g->io.nick_of(g->io.ctx, lv->f[s].account_id);
    const char *known = lv->nick[s][0] ? lv->nick[s] : lv->f[s].owner;
    if (now)
        seen_add(g, lv->f[s].account_id);
    if (now && strcmp(now, known) != 0)
        nick_store(g, lv->f[s].account_id, now);
}

/* 1 if the player of side `side` fought (or fights) a bout of lv's ruleset
 * with his orders before lv: an exhibition, live or over, numbered lower,
 * with any of his fighters, retired ones too. An error counts as 1: the
 * explanation is help, not worth a doubt. */
static int fought_before(struct game *g, const struct live *lv, int side)
{
    struct db_fighter mine[GAME_FIGHTERS_MAX * 2];
    struct db_bout b[32];
    int n = 0;

    if (db_fighter_list(g->db, lv->f[side].account_id, 1, mine, GAME_FIGHTERS_MAX * 2, &n) != DB_OK)
        return 1;
    for (int i = 0; i < n; i++) {
        int nb = 0;
        if (mine[i].sheet.rules != lv->rec.rules)
            continue;
        /* Newest first: the bouts after lv (a league turn's) come before. */
        if (db_bout_list_fighter(g->db, mine[i].id, b, 32, &nb) != DB_OK)
            return 1;
        for (int k = 0; k < nb; k++)
            if (b[k].id < lv->rec.id && b[k].kind == DB_BOUT_EXHIBITION)
                return 1;
    }
    return 0;
}

/* The first sentence of an order help (up to a ". " before a capital:
 * "e.g. 5H" goes on) and where the rest is, into buf: what fits in the
 * round 1 prompt's one IRC line. */
static const char *help_first(const char *help, char *buf, size_t len)
{
    size_t n = strlen(help);

    for (size_t i = 0; help[i] && help[i + 1]; i++)
        if (help[i] == '.' && help[i + 1] == ' ' && isupper((unsigned char)help[i + 2])) {
            n = i + 1;
            break;
        }
    snprintf(buf, len, "%.*s%s", (int)n, help, help[n] ? " The rest: help order." : "");
    return buf;
}

static void ask_orders(struct game *g, struct live *lv, int side, const char *extra)
{
    int round = lv->rec.round + 1;
    const struct grammar *gr = grammar_get(lv->rec.rules);
    char corner[RENDER_LINE_MAX], first[RENDER_LINE_MAX];
    /* A player's first bout of a ruleset: what an order line means, once
     * per player (not once per fighter), in his round 1 prompt; its first
     * sentence, so that the prompt stays one line on the wire. */
    const char *help = round == 1 && gr->order_help && !fought_before(g, lv, side)
                           ? help_first(gr->order_help, first, sizeof(first))
                           : NULL;

    render_corner_report(lv->corner, &lv->b, side, corner, sizeof(corner));
    nick_sync(g, lv, side);
    say_about(g, GAME_ASK, live_nick(g, lv, side), lv->rec.id, round,
              "Bout #%lld, round %d of %d: your orders for %s (e.g. %s) within %s%s%s%s%s%s%s%s%s",
              (long long)lv->rec.id, round, lv->rec.rounds, lv->f[side].name, gr->order_example,
              DURATION(g->cfg.order_timeout), extra ? "; " : ".", extra ? extra : "",
              extra && corner[0] ? "." : "", corner[0] ? " " : "", corner, help && extra ? "." : "",
              help ? " " : "", help ? help : "");
}

/* 1 if lv's rounds fight themselves (a duel): no orders, no prompts. */
static int auto_rounds(const struct live *lv)
{
    return ruleset_get(lv->rec.rules)->auto_rounds;
}

int bout_auto_seconds(const struct game *g)
{
    return g->cfg.auto_round_seconds > 0 ? g->cfg.auto_round_seconds : 4;
}

/* What each duellist's corner sees after a round of a bout that fights
 * itself, privately: one line each, stale once the next round is fought.
 * It asks nothing (GAME_ROUND, not GAME_ASK): the output does not hold its
 * delivery marker for an answer, nor the next round, which waits for that
 * delivery, with it. */
static void tell_corners(struct game *g, struct live *lv)
{
    char corner[RENDER_LINE_MAX];

    for (int s = 0; s < SIDES; s++)
        if (render_corner_report(lv->corner, &lv->b, s, corner, sizeof(corner)) > 0)
            say_about(g, GAME_ROUND, live_nick(g, lv, s), lv->rec.id, lv->rec.round + 1,
                      "Bout #%lld: %s", (long long)lv->rec.id, corner);
}

/* The answer lv waits for (orders, an accept) is due `seconds` after what
 * asks for it, said just now, is delivered (game_tick starts the clock). */
static void clock_start(struct game *g, struct live *lv, int seconds)
{
    double now = game_now(g);

    lv->asking = 1;
    lv->asked = g->io.mark(g->io.ctx);
    if (g->io.awaits)
        g->io.awaits(g->io.ctx, lv->asked);
    lv->asked_at = now;
    lv->timeout = seconds;
    lv->deadline = now + seconds; /* running; set again once delivered */
    lv->reminded = 0;
    if (g->io.delivered(g->io.ctx, lv->asked))
        lv->asking = 0; /* gone already */
}

/* Formatting for the channel (g->cfg.format): the fighters' names of lv in
 * bold wherever they stand as whole words, and with `colour` (an IRC
 * colour number, 0 for none) the whole line in that colour. In place;
 * lines stay within RENDER_LINE_MAX. */
#define COLOUR_RESULT 3 /* green */
static void decorate(const struct game *g, const struct live *lv, char *line, int colour)
{
    char out[RENDER_LINE_MAX];
    struct str o;
    size_t len = strlen(line);

    if (g->cfg.format == GAME_FORMAT_PLAIN)
        return;
    str_init_fixed(&o, out, sizeof(out));
    if (colour && g->cfg.format == GAME_FORMAT_COLOUR)
        str_add(&o, "\003%02d", colour);
    for (size_t i = 0; i < len;) {
        size_t n = 0;
        int word_start = i == 0 || !isalnum((unsigned char)line[i - 1]);
        for (int s = 0; s < SIDES && word_start && !n; s++) {
            size_t k = strlen(lv->f[s].name);
            if (k && strncmp(line + i, lv->f[s].name, k) == 0 &&
                !isalnum((unsigned char)line[i + k]))
                n = k;
        }
        if (n) {
            if (o.len + n + 3 >= sizeof(out))
                return; /* no room: the line goes plain */
            str_ch(&o, '\002');
            str_raw(&o, line + i, n);
            str_ch(&o, '\002');
            i += n;
        } else {
            if (o.len + 2 >= sizeof(out))
                return;
            str_ch(&o, line[i++]);
        }
    }
    if (colour && g->cfg.format == GAME_FORMAT_COLOUR) {
        if (o.len + 2 >= sizeof(out))
            return;
        str_ch(&o, '\003');
    }
    memcpy(line, out, o.len + 1);
}

/* --------------------------------------------------------------- loading */

/* Rebuilds a live bout from the database: fighters, then the stored orders
 * of every resolved round replayed from the seed. Returns NULL with err. */
static struct live *live_load(struct game *g, const struct db_bout *rec, char *err, size_t errlen)
{
    struct live *lv = xmalloc(sizeof(*lv));
    struct sheet sheets[SIDES];
    struct db_order ords[ORDERS_STORED];
    int n = 0;

    memset(lv, 0, sizeof(*lv));
    lv->rec = *rec;
    for (int s = 0; s < SIDES; s++) {
        if (db_fighter_get_id(g->db, rec->fighter[s], &lv->f[s]) != DB_OK) {
            snprintf(err, errlen, "bout %lld: fighter %lld is missing", (long long)rec->id,
                     (long long)rec->fighter[s]);
            free(lv);
            return NULL;
        }
        render_corner_fill(&lv->corner[s], &lv->f[s]);
        /* The bout fights with the sheets it began with. */
        lv->corner[s].sheet = rec->sheet[s];
        sheets[s] = rec->sheet[s];
    }
    if (rec->state != DB_BOUT_LIVE)
        return lv;
    if (bout_init(&lv->b, rec->rules, sheets, rec->rounds) != 0 ||
        db_order_list(g->db, rec->id, ords, ORDERS_STORED, &n) != DB_OK) {
        snprintf(err, errlen, "bout %lld cannot be rebuilt: %s", (long long)rec->id,
                 db_errmsg(g->db));
        free(lv);
        return NULL;
    }
    bout_rng_seed(&lv->rng, rec->seed);
    for (int r = 1; r <= rec->round; r++) {
        struct order o[SIDES];
        int got = 0;
        for (int k = 0; k < n; k++)
            if (ords[k].round == r &&
                bout_order_read(rec->rules, ords[k].text, &o[ords[k].side]) == 0)
                got |= 1 << ords[k].side;
        struct events evs;
        char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
        if (got != 3 || bout_round(&lv->b, o, &lv->rng, &evs) != 0) {
            snprintf(err, errlen, "bout %lld: the orders of round %d do not replay",
                     (long long)rec->id, r);
            free(lv);
            return NULL;
        }
        /* The wording draws of every round, as when it was said. */
        render_round(lv->corner, &lv->b, &evs, &lv->rng.flavour, lines);
        lv->digest = bout_digest(lv->digest, &lv->b, &evs);
        for (int s = 0; s < SIDES; s++) {
            lv->last[s] = o[s];
            lv->has_last[s] = 1;
        }
    }
    for (int k = 0; k < n; k++)
        if (ords[k].round == rec->round + 1 && ords[k].source == DB_ORDER_PLAYER &&
            bout_order_read(rec->rules, ords[k].text, &lv->next[ords[k].side]) == 0)
            lv->have[ords[k].side] = 1;
    return lv;
}

/* The stored bouts in `state`, at most `max`, into *recs (allocated, to
 * free), *n of them: read again into more room while they fill it. */
static int bouts_read(struct db *db, enum db_bout_state state, int max, struct db_bout **recs,
                      int *n)
{
    int room = max < 256 ? max : 256;

    *recs = NULL;
    for (;;) {
        *recs = xrealloc(*recs, (size_t)(room > 0 ? room : 1) * sizeof(**recs));
        if (db_bout_list(db, state, *recs, room, n) != DB_OK)
            return -1;
        if (*n < room || room >= max)
            return 0;
        room = room > max / 2 ? max : room * 2;
    }
}

struct game *game_new(struct db *db, const struct game_io *io, const struct game_config *cfg,
                      char *err, size_t errlen)
{
    struct game *g = xmalloc(sizeof(*g));
    static const enum db_bout_state states[] = {DB_BOUT_CHALLENGE, DB_BOUT_LIVE};

    memset(g, 0, sizeof(*g));
    g->db = db;
    g->io = *io;
    g->cfg = *cfg;
    for (unsigned k = 0; k < sizeof(states) / sizeof(states[0]); k++) {
        struct db_bout *recs;
        int n = 0;
        if (bouts_read(db, states[k], BOUTS_MAX - g->n, &recs, &n) != 0) {
            snprintf(err, errlen, "cannot read the bouts: %s", db_errmsg(db));
            free(recs);
            game_free(g);
            return NULL;
        }
        for (int i = 0; i < n; i++) {
            struct live *lv = live_load(g, &recs[i], err, errlen);
            if (!lv) {
                free(recs);
                game_free(g);
                return NULL;
            }
            live_table_add(g, lv); /* room: read at most BOUTS_MAX */
        }
        free(recs);
    }
    if (g->n)
        game_log(g, GAME_LOG_INFO, "%d challenges and live bouts restored", g->n);
    return g;
}

void game_free(struct game *g)
{
    if (!g)
        return;
    live_table_free(g);
    game_sims_free(g);
    free(g->unsaid);
    free(g->seen);
    free(g);
}

void game_set_config(struct game *g, const struct game_config *cfg)
{
    g->cfg = *cfg;
}

int game_fighter_busy(const struct game *g, int64_t fighter_id)
{
    return find_fighter(g, fighter_id) != NULL;
}

int game_account_live(const struct game *g, int64_t account_id)
{
    struct live *buf[ACCOUNT_BOUTS_LOCAL], **v;
    int n = account_bouts(g, account_id, buf, &v), live = 0;

    for (int i = 0; i < n && !live; i++)
        live = v[i]->rec.state == DB_BOUT_LIVE;
    account_bouts_done(buf, v);
    return live;
}

int game_live(const struct game *g)
{
    int n = 0;

    for (int i = 0; i < g->n; i++)
        n += g->v[i]->rec.state == DB_BOUT_LIVE;
    return n;
}

/* The commentary of bout `id` up to `round` is said: once the output has
 * delivered it, the database learns it was said. */
static void said_later(struct game *g, int64_t id, int round)
{
    if (g->nunsaid == UNSAID_MAX) {
        db_bout_said(g->db, id, round); /* a flood: do not lose track */
        return;
    }
    /* Grown, not a fixed array in struct game: 96 KiB of it were resident
     * in every bot, most of them never used. */
    if (g->nunsaid == g->cap_unsaid) {
        g->cap_unsaid = g->cap_unsaid ? 2 * g->cap_unsaid : 16;
        g->unsaid = xrealloc(g->unsaid, (size_t)g->cap_unsaid * sizeof(*g->unsaid));
    }
    g->unsaid[g->nunsaid++] = (struct unsaid){id, round, g->io.mark(g->io.ctx)};
}

/* Marks said what the output has delivered, in the order it was said. */
static void said_flush(struct game *g)
{
    int done = 0;

    while (done < g->nunsaid && g->io.delivered(g->io.ctx, g->unsaid[done].mark)) {
        const struct unsaid *u = &g->unsaid[done++];
        if (db_bout_said(g->db, u->id, u->round) == DB_ERROR)
            game_log(g, GAME_LOG_WARN, "bout %lld: could not record its commentary as said: %s",
                     (long long)u->id, db_errmsg(g->db));
    }
    if (done) {
        memmove(g->unsaid, g->unsaid + done, (size_t)(g->nunsaid - done) * sizeof(g->unsaid[0]));
        g->nunsaid -= done;
    }
}

/* The most bytes of one message of a report said in private: with the
 * longest origin a server relays (106 bytes) and a 30-byte nick, an IRC
 * line still holds it whole, so the output never has to cut it. */
#define PACKED_MAX 350

/* 1 if `p` starts a round of a report: "Round 3 of 12". */
static int packed_round(const char *p)
{
    int r, n, len = 0;

    return sscanf(p, "Round %d of %d%n", &r, &n, &len) == 2 && len > 0;
}

/* The length of the first sentence of the n bytes at p: up to its ". ",
 * "! " or "? " (the mark kept, the space not), or n. */
static size_t sentence_len(const char *p, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++)
        if ((p[i] == '.' || p[i] == '!' || p[i] == '?') && p[i + 1] == ' ')
            return i + 1;
    return n;
}

/* Appends the n bytes at `piece` to message `msg` after `sep`; a message
 * that would grow past PACKED_MAX is said first and `piece` starts the
 * next one. */
static void packed_add(struct game *g, enum game_voice voice, const char *target, struct str *msg,
                       const char *sep, const char *piece, size_t n)
{
    if (msg->len && msg->len + strlen(sep) + n > PACKED_MAX) {
        game_say(g, voice, target, "%s", msg->p);
        str_clear(msg);
    }
    if (msg->len)
        str_cat(msg, sep);
    str_raw(msg, piece, n);
}

/* Says a report compactly: each round ("Round 3 of 12" and the lines up to
 * the next round) in as few messages as fit PACKED_MAX bytes, blanks
 * squeezed, " | " between its lines; a message ends only where a line or a
 * sentence does (a sentence longer than a message is said alone, and the
 * output cuts it). */
static void say_packed(struct game *g, enum game_voice voice, const char *target, const char *text)
{
    struct str msg, line;

    str_init(&msg);
    str_init(&line);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        if (packed_round(p) && msg.len) {
            game_say(g, voice, target, "%s", msg.p);
            str_clear(&msg);
        }
        str_clear(&line);
        for (size_t i = 0; i < n; i++)
            if (p[i] != ' ' || (line.len && line.p[line.len - 1] != ' '))
                str_ch(&line, p[i]);
        while (line.len && line.p[line.len - 1] == ' ')
            str_cut(&line, line.len - 1);
        for (size_t at = 0, k = 0; at < line.len; k++) {
            size_t len = sentence_len(line.p + at, line.len - at);
            packed_add(g, voice, target, &msg, k ? " " : " | ", line.p + at, len);
            at += len + (at + len < line.len);
        }
        p += n;
        if (*p)
            p++;
    }
    if (msg.len)
        game_say(g, voice, target, "%s", msg.p);
    str_free(&line);
    str_free(&msg);
}

/* Says again the commentary of rounds that were stored but never said: the
 * game stopped (or lost the server) between the two. The words come from a
 * replay of the bout, the same as when the rounds were fought; each
 * round's are said about the bout with its round negated (the header with
 * the last one's), so that the other network of a bout of two networks
 * hears those it missed (bot/relay.c). */
static void say_unsaid(struct game *g)
{
    int64_t *ids = xmalloc(UNSAID_SHOWN * sizeof(*ids));
    int *said = xmalloc(UNSAID_SHOWN * sizeof(*said));
    int n = 0;
    char err[256];

    if (db_bout_unsaid(g->db, ids, said, UNSAID_SHOWN, &n) != DB_OK)
        n = 0;
    for (int i = 0; i < n; i++) {
        struct db_bout rec;
        if (db_bout_get(g->db, ids[i], &rec) != DB_OK)
            continue;
        int first = said[i] + 1, nr = rec.round - first + 1, k = 0;
        char **text = xcalloc((size_t)(nr > 0 ? nr : 1), sizeof(*text));
        for (; k < nr; k++)
            if (!(text[k] = bout_commentary_again(g->db, rec.id, first + k, first + k, err,
                                                  sizeof(err)))) {
                game_log(g, GAME_LOG_WARN, "bout %lld: %s", (long long)rec.id, err);
                break;
            }
        if (nr > 0 && k == nr) {
            say_about(g, GAME_ROUND, rec.channel, rec.id, -rec.round,
                      "Bout #%lld: what I had not said yet when I stopped:", (long long)rec.id);
            for (k = 0; k < nr; k++)
                for (char *line = strtok(text[k], "\n"); line; line = strtok(NULL, "\n"))
                    say_about(g, GAME_ROUND, rec.channel, rec.id, -(first + k), "%s", line);
            said_later(g, rec.id, rec.round);
        }
        for (k = 0; k < nr; k++)
            free(text[k]);
        free(text);
    }
    free(ids);
    free(said);
}

/* 1 while side s of lv is another network's player whom no bot of his
 * network can reach (io.away): he counts as away. */
static int player_gone(const struct game *g, const struct live *lv, int s)
{
    const char *net = lv->f[s].owner_network;

    return g->io.away && net[0] && strcmp(net, db_network(g->db)) != 0 &&
           g->io.away(g->io.ctx, net);
}

/* 1 if the player of side s of lv is identified now (and reachable). */
static int player_back(const struct game *g, const struct live *lv, int s)
{
    return g->io.nick_of(g->io.ctx, lv->f[s].account_id) != NULL && !player_gone(g, lv, s);
}

/* "bob", "alice and bob@two": the players of lv not back (their accounts,
 * another network's as name@network). */
#define AWAY_NAMES_MAX (2 * GAME_WHO_MAX + 8)
static void away_names(const struct game *g, const struct live *lv, struct str *out)
{
    char who[GAME_WHO_MAX];

    for (int s = 0; s < SIDES; s++) {
        if (player_back(g, lv, s) || (s == 1 && lv->f[1].account_id == lv->f[0].account_id))
            continue;
        if (out->len)
            str_cat(out, " and ");
        str_cat(out, game_owner_name(g, &lv->f[s], who, sizeof(who)));
    }
}

/* Asks side s of lv for his orders as a (re)connection does: what he sent
 * already counts, and while lv waits for his opponent, the clock waits. */
static void ask_again(struct game *g, struct live *lv, int s)
{
    struct str extra;
    char away[AWAY_NAMES_MAX];
    struct str names;

    lv->unasked[s] = 0;
    if (auto_rounds(lv))
        return;
    str_init(&extra);
    str_init_fixed(&names, away, sizeof(away));
    away_names(g, lv, &names);
    if (lv->have[s])
        str_cat(&extra, "your orders for it are in already");
    if (lv->waiting && names.len)
        str_add(&extra, "%sthe clock starts once %s %s back", extra.len ? "; " : "", away,
                strstr(away, " and ") ? "are" : "is");
    else if (!lv->waiting && lv->deadline && !lv->asking && lv->deadline > game_now(g))
        str_add(&extra, "%sthe clock started before you came back: %s left", extra.len ? "; " : "",
                DURATION((int)(lv->deadline - game_now(g) + 0.5)));
    ask_orders(g, lv, s, extra.len ? extra.p : NULL);
    str_free(&extra);
}

/* lv's clock starts: with `away` (NULL: both are back) it goes on without
 * them. Those back and not yet asked are asked now. */
static void bout_resume(struct game *g, struct live *lv, const char *away)
{
    lv->waiting = 0;
    say_about(g, GAME_ROUND, lv->rec.channel, lv->rec.id, 0,
              "Bout #%lld, %s vs %s, goes on%s%s: round %d of %d is next.", (long long)lv->rec.id,
              lv->f[0].name, lv->f[1].name, away ? " without " : "", away ? away : "",
              lv->rec.round + 1, lv->rec.rounds);
    for (int s = 0; s < SIDES; s++)
        if (lv->unasked[s] && player_back(g, lv, s))
            ask_again(g, lv, s);
    clock_start(g, lv, auto_rounds(lv) ? bout_auto_seconds(g) : g->cfg.order_timeout);
}

/* The (re)connection of a game without rejoin_grace: the clock of lv
 * starts at once, and both players are asked as they are. */
static void bout_go_on_now(struct game *g, struct live *lv)
{
    say_about(g, GAME_ROUND, lv->rec.channel, lv->rec.id, 0,
              "Bout #%lld, %s vs %s, goes on: round %d of %d is next.", (long long)lv->rec.id,
              lv->f[0].name, lv->f[1].name, lv->rec.round + 1, lv->rec.rounds);
    if (auto_rounds(lv)) {
        clock_start(g, lv, bout_auto_seconds(g));
        return;
    }
    for (int s = 0; s < SIDES; s++) {
        int self = g->io.self_identifies && g->io.self_identifies(g->io.ctx, lv->f[s].owner);
        if (self)
            ask_orders(g, lv, s, lv->have[s] ? "your orders for it are in already" : NULL);
        else
            ask_orders(g, lv, s,
                       lv->have[s] ? "your orders for it are in already; to change them, "
                                     "identify again first (identify <password>)"
                                   : "identify again first (identify <password>)");
    }
    clock_start(g, lv, g->cfg.order_timeout);
}

/* Below this grace, the time of its end is said to the second, and not
 * rounded up to a whole minute. */
#define GRACE_TO_THE_MINUTE 120

/* "23:50 UTC" (or with seconds, "23:50:30 UTC"): the wall clock `at`. */
static const char *utc_time(char *buf, size_t len, int64_t at, int seconds)
{
    time_t t = (time_t)at;
    struct tm tm;

    gmtime_r(&t, &tm);
    strftime(buf, len, seconds ? "%H:%M:%S UTC" : "%H:%M UTC", &tm);
    return buf;
}

/* After a (re)connection: lv waits for the players who are not back, at
 * most rejoin_grace (a long one up to the next whole minute, the time the
 * channel is told); those back are asked for their orders. */
static void bout_wait(struct game *g, struct live *lv)
{
    char away[AWAY_NAMES_MAX], until[32];
    struct str names;

    lv->deadline = 0;
    lv->asking = 0;
    lv->reminded = 0;
    str_init_fixed(&names, away, sizeof(away));
    away_names(g, lv, &names);
    for (int s = 0; s < SIDES; s++) {
        lv->unasked[s] = 1;
        nick_sync(g, lv, s);
    }
    if (!names.len) {
        bout_resume(g, lv, NULL);
        return;
    }
    int64_t end = game_wall(g) + g->cfg.rejoin_grace;
    int to_the_second = g->cfg.rejoin_grace < GRACE_TO_THE_MINUTE;
    if (!to_the_second)
        end += (60 - end % 60) % 60;
    lv->waiting = 1;
    lv->grace_end = game_now(g) + (double)(end - game_wall(g));
    say_about(g, GAME_ROUND, lv->rec.channel, lv->rec.id, 0,
              "Bout #%lld, %s vs %s, waits for %s to come back, until %s at the latest: round %d "
              "of %d is next.",
              (long long)lv->rec.id, lv->f[0].name, lv->f[1].name, away,
              utc_time(until, sizeof(until), end, to_the_second), lv->rec.round + 1,
              lv->rec.rounds);
    for (int s = 0; s < SIDES; s++) {
        if (player_back(g, lv, s))
            ask_again(g, lv, s);
        else if (!player_gone(g, lv, s) && /* his bot is down: nobody to tell */
                 !(g->io.self_identifies && g->io.self_identifies(g->io.ctx, lv->f[s].owner)))
            say_about(g, GAME_ROUND, live_nick(g, lv, s), lv->rec.id, 0,
                      "Bout #%lld (%s vs %s) waits for you until %s: identify again (identify "
                      "<password>) and it goes on.",
                      (long long)lv->rec.id, lv->f[0].name, lv->f[1].name, until);
    }
}

/* A waiting bout at a tick: it goes on once both players are back, or
 * without those away once its grace has passed. */
static void bout_wait_tick(struct game *g, struct live *lv, double now)
{
    char away[AWAY_NAMES_MAX];
    struct str names;

    str_init_fixed(&names, away, sizeof(away));
    away_names(g, lv, &names);
    if (!names.len)
        bout_resume(g, lv, NULL);
    else if (now >= lv->grace_end)
        bout_resume(g, lv, away);
}

/* Another network's player whose bot is gone (player_gone) is one who
 * left: a live bout he is in waits for him as after a (re)connection
 * (bout_wait: the same grace and words), once each time he goes; his bot
 * back, the bout goes on (bout_wait_tick). */
static void bout_left_tick(struct game *g, struct live *lv)
{
    int gone = 0;

    if (lv->rec.state != DB_BOUT_LIVE || g->cfg.rejoin_grace <= 0 || !g->online)
        return;
    for (int s = 0; s < SIDES; s++) {
        if (!player_gone(g, lv, s))
            lv->left[s] = 0;
        else if (!lv->left[s])
            gone = lv->left[s] = 1;
    }
    if (gone && !lv->waiting)
        bout_wait(g, lv);
}

void game_connected(struct game *g)
{
    /* What was said before is in the database; whatever the output lost
     * with the connection is said again from there. */
    g->nunsaid = 0;
    g->online = 1;
    /* Who holds which nick is unknown again, as after a restart: the
     * stored nicks serve until each player is seen. */
    if (g->seen_cap)
        memset(g->seen, 0, g->seen_cap * sizeof(*g->seen));
    g->seen_n = 0;
    say_unsaid(g);
    for (int i = 0; i < g->n; i++) {
        struct live *lv = g->v[i];
        lv->waiting = 0;
        if (lv->rec.state != DB_BOUT_LIVE)
            clock_start(g, lv, g->cfg.challenge_timeout);
        else if (g->cfg.rejoin_grace > 0)
            bout_wait(g, lv);
        else
            bout_go_on_now(g, lv);
    }
}

void game_disconnected(struct game *g)
{
    g->online = 0;
}

int game_online(const struct game *g)
{
    return g->online;
}

static void challenge_tell(struct game *g, struct live *lv, const char *nick);

void game_player_back(struct game *g, int64_t account_id)
{
    struct live *buf[ACCOUNT_BOUTS_LOCAL], **v;
    const char *nick = g->io.nick_of(g->io.ctx, account_id);

    /* One write a login (none when the nick is the one stored): where a
     * restart's lines find him before he identifies again. */
    if (nick)
        nick_store(g, account_id, nick);
    if (!g->online)
        return;
    /* Nothing here ends a bout: the list stays good. */
    int n = account_bouts(g, account_id, buf, &v);
    for (int i = 0; i < n; i++) {
        struct live *lv = v[i];
        int s = side_of(lv, account_id);
        if (lv->rec.state == DB_BOUT_CHALLENGE && s == 1 && !lv->told && nick)
            challenge_tell(g, lv, nick); /* challenged before he identified */
        if (lv->rec.state != DB_BOUT_LIVE || s < 0)
            continue;
        if (lv->waiting)
            bout_wait_tick(g, lv, game_now(g));
        for (s = 0; s < SIDES; s++)
            if (lv->unasked[s] && lv->f[s].account_id == account_id)
                ask_again(g, lv, s);
    }
    account_bouts_done(buf, v);
}

int game_orders_waiting(const struct game *g, int64_t account_id, struct str *out)
{
    struct live *buf[ACCOUNT_BOUTS_LOCAL], **v;
    int n = 0, all = account_bouts(g, account_id, buf, &v);

    for (int i = 0; i < all; i++) {
        const struct live *lv = v[i];
        int s = side_of(lv, account_id);
        if (lv->rec.state != DB_BOUT_LIVE || s < 0 || auto_rounds(lv) || lv->have[s])
            continue;
        str_add(out, "%s bout #%lld (%s vs %s, round %d of %d)",
                n++ ? "," : "Waiting for your orders:", (long long)lv->rec.id, lv->f[0].name,
                lv->f[1].name, lv->rec.round + 1, lv->rec.rounds);
    }
    account_bouts_done(buf, v);
    if (n)
        str_ch(out, '.');
    return n;
}

/* ------------------------------------------------------------ resolving */

/* The order of `side` for the next round when he sent none: his plan, his
 * last orders, or the default. Returns 0, or -1 when his plan cannot be
 * read (a database error: the round must not be fought without it). */
static int order_fallback(struct game *g, struct live *lv, int side, struct order *o,
                          struct db_order *dbo)
{
    char *text = xmalloc(DB_PLAN_MAX);
    struct parse_error err;
    int rc = db_plan_get(g->db, lv->f[side].id, text, DB_PLAN_MAX);

    dbo->line = 0;
    if (rc == DB_OK) {
        struct plan *p = plan_compile(lv->rec.rules, text, &err);
        if (p) {
            struct plan_vars v;
            bout_plan_vars(&lv->b, side, &v);
            dbo->line = plan_eval(p, &v, o);
            plan_free(p);
            dbo->source = DB_ORDER_PLAN;
            free(text);
            return 0;
        }
        game_log(g, GAME_LOG_WARN, "the stored plan of %s no longer compiles: %s", lv->f[side].name,
                 err.reason);
    }
    free(text);
    if (rc == DB_ERROR) {
        game_log(g, GAME_LOG_ERROR, "bout %lld: the plan of %s cannot be read: %s",
                 (long long)lv->rec.id, lv->f[side].name, db_errmsg(g->db));
        return -1;
    }
    if (lv->has_last[side]) {
        *o = lv->last[side];
        dbo->source = DB_ORDER_LAST;
        return 0;
    }
    ruleset_get(lv->rec.rules)->order_default(o);
    dbo->source = DB_ORDER_DEFAULT;
    return 0;
}

/* The records after the finished bout `b` into f[], the fighters as
 * stored when it ends (not as they began it: bouts of a tournament round
 * or a league turn may have fought them since, and their results stay):
 * wins, losses, draws and how the win ended (record.c), and what the
 * ruleset says the bout leaves (sheet changes, training points, which go
 * into points[]), worked out on the sheets it began with, start[], into
 * shown[] (what the channel hears changed) and added to f[]'s
 * (record_sheet_merge). conceded[s]: side s conceded by his own word
 * (record_conceded of his last order): the win is a forfeit, which earns
 * no stoppage's reward. */
static void records_apply(const struct bout *b, const int conceded[SIDES],
                          const struct sheet start[SIDES], struct db_fighter f[SIDES],
                          struct sheet shown[SIDES], int points[SIDES])
{
    const struct result *res = &b->result;
    const struct ruleset *rs = ruleset_get(b->rules);
    int forfeit = record_forfeit(res, conceded);

    shown[0] = start[0];
    shown[1] = start[1];
    record_after_bout(rs, res, forfeit, shown, points);
    if (rs->sheet_after)
        rs->sheet_after(b, shown);
    for (int s = 0; s < SIDES; s++) {
        if (res->winner < 0) {
            f[s].draws++;
        } else if (res->winner == s) {
            f[s].wins++;
            record_win_add(&f[s], res, forfeit);
        } else {
            f[s].losses++;
        }
        f[s].sheet = record_sheet_merge(rs, &start[s], &shown[s], &f[s].sheet);
        f[s].training_points += points[s];
    }
}

/* Live bouts in `channel`, counted up to `most` (the walk stops there:
 * with thousands of bouts in one channel, a round asks only whether
 * another is live there). */
static int live_in(const struct game *g, const char *channel, int most)
{
    int n = 0;

    for (int i = 0; i < g->n && n < most; i++)
        n += g->v[i]->rec.state == DB_BOUT_LIVE && same_name(g, g->v[i]->rec.channel, channel);
    return n;
}

/* Appends n lines to a packed message `s`, a space before each. */
static void joined_add(struct str *s, char lines[][RENDER_LINE_MAX], int n)
{
    for (int i = 0; i < n; i++)
        str_add(s, " %s", lines[i]);
}

/* Says n lines to `channel` as one message: "[#7] " and the lines, a space
 * between them. */
static void say_joined(struct game *g, const char *channel, int64_t id,
                       char lines[][RENDER_LINE_MAX], int n)
{
    struct str s;

    if (n <= 0)
        return;
    str_init(&s);
    str_add(&s, "[#%lld]", (long long)id);
    joined_add(&s, lines, n);
    say_about(g, GAME_ROUND, channel, id, 0, "%s", s.p);
    str_free(&s);
}

/* The training points part of say_over: what the bout earned him, what he
 * has, and how to spend them. */
static void say_over_points(struct str *s, const struct ruleset *rs, const struct db_fighter *f,
                            int points)
{
    char list[128];
    struct str l;
    const char *pl = f->training_points == 1 ? "" : "s";

    str_init_fixed(&l, list, sizeof(list));
    for (int i = 0; i < rs->nfields; i++)
        str_add(&l, "%s%s", i == 0 ? "" : i == rs->nfields - 1 ? " or " : ", ", rs->fields[i].key);
    if (points > 0 && points == f->training_points)
        str_add(s, " and earned %d training point%s", points, pl);
    else if (points > 0)
        str_add(s, " and earned %d training point%s (%d in all)", points, points == 1 ? "" : "s",
                f->training_points);
    else
        str_add(s, " and has %d training point%s", f->training_points, pl);
    str_add(s, ": spend %s with train <ability> %s (<ability>: %s)",
            f->training_points == 1 ? "it" : "each", f->name, list);
}

/* Tells the player of side `s` privately what bout `lv` (just over) changed
 * for him: the result as it touches him, his fighter's record `f` (after
 * the bout), the training points it earned and how to spend them. `ack`
 * (or NULL) goes first: the acknowledgement of his orders that fought the
 * last round, or what fought it for him. One message of at most
 * 2 * RENDER_LINE_MAX - 1 bytes. */
static void say_over(struct game *g, const struct live *lv, int s, const struct db_fighter *f,
                     int points, const char *ack)
{
    const struct ruleset *rs = ruleset_get(lv->rec.rules);
    const struct result *res = &lv->b.result;
    char text[RENDER_LINE_MAX * 2], how[RENDER_LINE_MAX];
    struct str t;

    str_init_fixed(&t, text, sizeof(text));
    render_result_text(lv->corner, &lv->b, how, sizeof(how));
    str_add(&t, "Bout #%lld%s%s%s is over, and %s: %s", (long long)lv->rec.id, ack ? ": " : "",
            ack ? ack : "", ack ? ". It" : "",
            res->winner < 0    ? "it is a draw"
            : res->winner == s ? "you won"
                               : "you lost",
            how);
    str_add(&t, " %s is now %d-%d-%d", f->name, f->wins, f->losses, f->draws);
    /* What the bout changed on his sheet (SUGAR RAY's skill and
     * endurance), as the channel heard it. */
    for (int i = 0; i < rs->nfields; i++) {
        int was = sheet_field_get(&lv->corner[s].sheet, i), now = sheet_field_get(&f->sheet, i);
        if (was != now)
            str_add(&t, ", %s %d (was %d)", rs->fields[i].label, now, was);
    }
    if (rs->train_points && f->training_points > 0)
        say_over_points(&t, rs, f, points);
    if (rs->kit_slots) {
        char kit[RENDER_LINE_MAX];
        render_kit_after(&lv->rec.sheet[s], &f->sheet, kit, sizeof(kit));
        str_add(&t, "; %s's equipment: %s", f->name, kit);
    }
    str_ch(&t, '.');
    say_about(g, GAME_LIVE, live_nick(g, lv, s), lv->rec.id, 0, "%s", text);
}

/* A round being resolved (resolve): fought on copies of the live bout,
 * adopted only once stored. */
struct round {
    int number;                                      /* the round's number */
    struct order o[SIDES];                           /* the orders that fight it */
    struct db_order dbo[SIDES];                      /* as stored, with where each came from */
    struct bout b;                                   /* the bout after it */
    struct bout_rng rng;                             /* likewise */
    uint64_t digest;                                 /* likewise */
    struct db_bout rec;                              /* the bout's record after it */
    struct db_fighter f[SIDES];                      /* the fighters after it (records if over) */
    struct sheet start[SIDES];                       /* their sheets when the bout began */
    struct sheet shown[SIDES];                       /* and as the bout alone leaves them */
    int conceded[SIDES];                             /* by his own word (record_conceded) */
    int points[SIDES];                               /* training points the bout earned */
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX]; /* its commentary */
    int n;
    char result[RENDER_RESULT_MAX + 1][RENDER_LINE_MAX]; /* and the result's */
    int nres;
    struct db_rating_point rated[SIDES]; /* what the end did to the ratings */
    char ratings[RENDER_LINE_MAX];       /* and its line ("" for none) */
    struct predict_round *pred;          /* what it read of the predictions (predict.c) */
    int ack[SIDES];         /* his own orders fought it: acknowledged on his next prompt (or end) */
    int points_said[SIDES]; /* the points he earned are on the channel's records line */
};

/* Step 1 of a round: both orders, the players' where they sent them, else
 * order_fallback's. Returns 0, or -1 on a database error. */
static int round_orders(struct game *g, struct live *lv, struct round *r)
{
    r->number = lv->rec.round + 1;
    for (int s = 0; s < SIDES; s++) {
        memset(&r->dbo[s], 0, sizeof(r->dbo[s]));
        r->dbo[s].round = r->number;
        r->dbo[s].side = s;
        if (lv->have[s]) {
            r->o[s] = lv->next[s];
            r->dbo[s].source = DB_ORDER_PLAYER;
        } else if (order_fallback(g, lv, s, &r->o[s], &r->dbo[s]) != 0) {
            return -1;
        }
        bout_order_text(&r->o[s], r->dbo[s].text, sizeof(r->dbo[s].text));
    }
    return 0;
}

/* Step 2: the round fought on copies of lv's bout and random streams, its
 * commentary (and the result's) in words, its digest, and the records it
 * leaves when the bout ends. Returns 0, or -1 if the engine refuses. */
static int round_fight(struct game *g, const struct live *lv, struct round *r)
{
    struct events evs;

    r->b = lv->b;
    r->rng = lv->rng;
    if (bout_round(&r->b, r->o, &r->rng, &evs) != 0) {
        game_log(g, GAME_LOG_ERROR, "bout %lld round %d: the engine refused the orders %s / %s",
                 (long long)lv->rec.id, r->number, r->dbo[0].text, r->dbo[1].text);
        return -1;
    }
    /* The result says a forfeit where a corner conceded by his own word. */
    struct render_corner corner[SIDES] = {lv->corner[0], lv->corner[1]};
    for (int s = 0; s < SIDES; s++)
        corner[s].conceded = r->conceded[s] = record_conceded(&r->o[s], r->dbo[s].source);
    r->n = render_round(corner, &r->b, &evs, &r->rng.flavour, r->lines);
    r->nres = r->b.result.over ? render_result(corner, &r->b, &r->rng.flavour, r->result) : 0;
    r->digest = bout_digest(lv->digest, &r->b, &evs);
    r->rec = lv->rec;
    r->f[0] = lv->f[0];
    r->f[1] = lv->f[1];
    r->points[0] = r->points[1] = 0;
    r->rec.round = r->b.round;
    r->rec.digest = r->digest;
    r->rec.has_digest = 1;
    if (r->b.result.over) {
        const struct result *res = &r->b.result;
        r->rec.state = DB_BOUT_OVER;
        r->rec.winner = res->winner;
        r->rec.method = res->method;
        r->rec.drawn_by = res->drawn_by;
        r->rec.reason = res->reason;
        r->rec.decision = res->decision;
        r->rec.ended = game_wall(g);
        /* The sheets it began with (as its replay reads them); the
         * records: round_store, from the fighters as stored then. */
        r->start[0] = lv->rec.sheet[0];
        r->start[1] = lv->rec.sheet[1];
    }
    return 0;
}

/* Step 3's records, inside its transaction, once the bout is over: each
 * fighter read as stored now, the result added (records_apply) and saved,
 * so that what other bouts did to his record while this one ran stays.
 * Returns 0, or -1 on a database error. */
static int round_records(struct game *g, struct round *r)
{
    for (int s = 0; s < SIDES; s++)
        if (db_fighter_get_id(g->db, r->f[s].id, &r->f[s]) != DB_OK)
            return -1;
    records_apply(&r->b, r->conceded, r->start, r->f, r->shown, r->points);
    for (int s = 0; s < SIDES; s++)
        if (db_fighter_save(g->db, &r->f[s]) != DB_OK)
            return -1;
    return 0;
}

/* Step 3: one transaction writes both orders, the round's digest, the bout
 * and, when it ends, the records and the predictions' scores. Returns 0; or -1,
 * rolled back and logged: nothing of the round is stored. */
static int round_store(struct game *g, struct round *r)
{
    struct db *db = g->db;
    const struct db_bout *rec = &r->rec;
    int ok = db_begin(db) == DB_OK && db_order_put(db, rec->id, &r->dbo[0]) == DB_OK &&
             db_order_put(db, rec->id, &r->dbo[1]) == DB_OK &&
             db_round_put(db, rec->id, r->number, r->digest) == DB_OK &&
             db_bout_save(db, rec) == DB_OK &&
             (!r->b.result.over ||
              (round_records(g, r) == 0 && rating_bout_store(g, rec, r->rated) == 0 &&
               tournament_bout_store(g, rec) == 0)) &&
             predict_store(g, rec, r->number, r->b.result.over, &r->pred) == 0;
    if (ok && db_commit(db) == DB_OK)
        return 0;
    game_log(g, GAME_LOG_ERROR, "bout %lld round %d not stored (%s); it will be fought again",
             (long long)rec->id, r->number, db_errmsg(db));
    db_rollback(db); /* harmless when BEGIN itself failed */
    predict_round_free(r->pred);
    r->pred = NULL;
    return -1;
}

/* Step 4, once stored: lv takes the copies; the round's orders become the
 * last ones, and none is waiting. */
static void round_adopt(struct live *lv, const struct round *r)
{
    lv->b = r->b;
    lv->rng = r->rng;
    lv->rec = r->rec;
    lv->digest = r->digest;
    lv->failing = 0;
    for (int s = 0; s < SIDES; s++) {
        lv->last[s] = r->o[s];
        lv->has_last[s] = 1;
        lv->have[s] = 0;
        lv->f[s] = r->f[s];
        lv->corner[s].conceded = r->conceded[s]; /* say_over's result words */
    }
}

/* The training points round r's end earned, into `words` (of `len`
 * bytes; "" for none), for the channel's records line, where the winner
 * hears them with the result rather than in a private line of their own:
 * " Rocky earned 1 training point (!train <ability> Rocky)." (", 2 in all"
 * after "point" when he had some already). Returns the
 * bytes written. round_say says them and sets points_said; a side whose
 * words stay out (no room) is told privately (say_over), as is one who is
 * not in the channel. */
static size_t points_words(const struct game *g, const struct live *lv, const struct round *r,
                           char *words, size_t len)
{
    struct str t;

    str_init_fixed(&t, words, len);
    for (int s = 0; s < SIDES && ruleset_get(r->b.rules)->train_points; s++) {
        const struct db_fighter *f = &r->f[s];
        int p = r->points[s], all = f->training_points;
        if (p <= 0)
            continue;
        str_add(&t, " %s earned %d training point%s", f->name, p, p == 1 ? "" : "s");
        if (all > p)
            str_add(&t, ", %d in all", all);
        str_add(&t, " (%strain <ability> %s).", g->cfg.prefix, f->name);
    }
    decorate(g, lv, words, 0);
    return strlen(words);
}

/* 1 if `with` (a message to `target`) takes no more lines on the wire
 * than `without`, the same message without some words it may go without
 * (the output cuts a long message: the words would cost a line). */
static int wire_room(const struct game *g, const char *target, const char *without,
                     const char *with)
{
    return !g->io.pieces ||
           g->io.pieces(g->io.ctx, target, with) <= g->io.pieces(g->io.ctx, target, without);
}

/* The training points words `pts` (points_words) at the end of round r's
 * records line, the result's last: when it has the room (a line of its
 * own: RENDER_LINE_MAX, and the wire). */
static void points_on_records(struct game *g, struct round *r, const char *pts)
{
    char *line = r->result[r->nres - 1], with[RENDER_LINE_MAX];
    size_t n = strlen(line), k = strlen(pts);

    if (!k || n + k >= RENDER_LINE_MAX)
        return;
    memcpy(with, line, n);
    memcpy(with + n, pts, k + 1);
    if (!wire_room(g, r->rec.channel, line, with))
        return;
    memcpy(line, with, n + k + 1);
    r->points_said[0] = r->points_said[1] = 1;
}

/* Step 5: the round said in lv's channel (packed: one message tagged with
 * the bout, as are the result's lines, when several bouts share it), and,
 * when the bout ends, the result in full: who won where the result lines
 * do not say it, what changed, both records. A result said in words is
 * bold and coloured; classic lines stay as the rules print them. */
static void round_say(struct game *g, struct live *lv, struct round *r, int packed)
{
    char pts[RENDER_LINE_MAX] = "";

    if (r->b.result.over) {
        struct render_corner after[SIDES];
        for (int s = 0; s < SIDES; s++) {
            render_corner_fill(&after[s], &r->f[s]);
            after[s].sheet = r->shown[s]; /* the bout's changes alone */
        }
        int plain = render_result_plain(r->b.rules);
        if (plain)
            for (int i = 0; i < r->nres; i++)
                decorate(g, lv, r->result[i], COLOUR_RESULT);
        render_aftermath(lv->corner, after, &r->b, r->result[r->nres], RENDER_LINE_MAX);
        decorate(g, lv, r->result[r->nres++], plain ? 0 : COLOUR_RESULT);
        const char *names[SIDES] = {r->f[0].name, r->f[1].name};
        rating_line_of(r->rated, r->b.result.winner, names, r->ratings, sizeof(r->ratings));
        points_words(g, lv, r, pts, sizeof(pts));
    }
    if (r->n > 0) /* the predictions' count, once they are closed */
        predict_count_add(r->pred, lv, r->lines[0], RENDER_LINE_MAX);
    if (packed && render_result_plain(r->b.rules)) {
        /* The round, the result in words (the training points on the
         * records) and the ratings: one message. */
        struct str s, w;
        str_init(&s);
        str_init(&w);
        str_add(&s, "[#%lld]", (long long)r->rec.id);
        joined_add(&s, r->lines, r->n);
        joined_add(&s, r->result, r->nres);
        str_add(&w, "%s%s", s.p, pts);
        if (r->b.result.over && r->ratings[0]) {
            joined_add(&s, &r->ratings, 1);
            joined_add(&w, &r->ratings, 1);
        }
        int room = *pts && wire_room(g, r->rec.channel, s.p, w.p);
        r->points_said[0] = r->points_said[1] = room;
        say_about(g, GAME_ROUND, r->rec.channel, r->rec.id, 0, "%s", room ? w.p : s.p);
        str_free(&s);
        str_free(&w);
    } else if (packed) {
        if (r->nres)
            points_on_records(g, r, pts);
        say_joined(g, r->rec.channel, r->rec.id, r->lines, r->n);
        /* Classic result lines are a table: each keeps a line of its own. */
        for (int i = 0; i < r->nres; i++)
            say_joined(g, r->rec.channel, r->rec.id, &r->result[i], 1);
        /* The ratings: a message of their own after the result's. */
        if (r->b.result.over && r->ratings[0])
            say_joined(g, r->rec.channel, r->rec.id, &r->ratings, 1);
    } else {
        if (r->nres)
            points_on_records(g, r, pts);
        for (int i = 0; i < r->n; i++)
            say_about(g, GAME_ROUND, r->rec.channel, r->rec.id, 0, "%s", r->lines[i]);
        for (int i = 0; i < r->nres; i++)
            say_about(g, GAME_ROUND, r->rec.channel, r->rec.id, 0, "%s", r->result[i]);
        if (r->b.result.over && r->ratings[0])
            say_about(g, GAME_ROUND, r->rec.channel, r->rec.id, 0, "%s", r->ratings);
    }
    if (r->b.result.over)
        predict_called(g, lv, r->pred, packed);
    said_later(g, r->rec.id, r->number);
}

/* What fought the round for side s when he sent no orders, for his next
 * prompt, into fell[len] ("" when he sent them, or nothing was fought: a
 * towel, a bout that fights itself). */
static void round_fell(const struct live *lv, const struct round *r, int s, char *fell, size_t len)
{
    const struct db_order *d = &r->dbo[s];

    fell[0] = '\0';
    if ((r->b.result.over && r->b.result.reason == TKO_TOWEL) || auto_rounds(lv))
        return;
    /* His own orders: acknowledged here when they completed the round, or
     * when their "stored" line had not gone out before (it is dropped). */
    if (d->source == DB_ORDER_PLAYER && r->ack[s])
        snprintf(fell, len, "your round %d orders for %s (%s) are in and fought", r->number,
                 r->f[s].name, d->text);
    else if (d->source == DB_ORDER_PLAN && d->line > 0)
        snprintf(fell, len, "your plan's line %d (%s) fought round %d for you", d->line, d->text,
                 r->number);
    else if (d->source == DB_ORDER_PLAN)
        snprintf(fell, len,
                 "no line of your plan applied: its default (%s) fought round %d for you", d->text,
                 r->number);
    else if (d->source == DB_ORDER_LAST)
        snprintf(fell, len, "your last orders (%s) fought round %d for you", d->text, r->number);
    else if (d->source == DB_ORDER_DEFAULT)
        snprintf(fell, len, "the default orders (%s) fought round %d for you", d->text, r->number);
}

/* 1 if the end of lv (just over, by round r) is the business of the
 * player of side s alone: he is not in lv's channel, where it was said
 * (the result, the records, what changed on the sheets, the training
 * points the bout earned: his last orders fought the round said there),
 * or he has equipment to hear about, or points the channel's line had no
 * room for. Else nothing is said to him privately (points he had before
 * the bout: fighter and train tell them). */
static int over_private(const struct game *g, const struct live *lv, const struct round *r, int s)
{
    const struct ruleset *rs = ruleset_get(lv->rec.rules);

    return !g->io.hears || rs->kit_slots || (r->points[s] > 0 && !r->points_said[s]) ||
           !g->io.hears(g->io.ctx, lv->rec.channel, live_nick(g, lv, s));
}

/* Step 6: what comes next, privately. Over: each player told the end
 * (say_over) and lv forgotten. A bout that fights itself: the corners'
 * view and the next round's clock. Else both asked for the next orders,
 * each with what fought the round for him (round_fell), and the clock. */
static void round_next(struct game *g, struct live *lv, const struct round *r)
{
    char fell[SIDES][256];

    for (int s = 0; s < SIDES; s++)
        round_fell(lv, r, s, fell[s], sizeof(fell[s]));
    if (r->b.result.over) {
        game_log(g, GAME_LOG_INFO, "bout %lld over after round %d", (long long)r->rec.id,
                 r->number);
        for (int s = 0; s < SIDES; s++) {
            struct db_fighter told = r->f[s]; /* his record now, the bout's changes */
            told.sheet = r->shown[s];
            if (over_private(g, lv, r, s))
                say_over(g, lv, s, &told, r->points[s], fell[s][0] ? fell[s] : NULL);
        }
        forget(g, lv);
        tournament_bout_over(g, r->rec.id);
        return;
    }
    if (auto_rounds(lv)) {
        tell_corners(g, lv);
        clock_start(g, lv, bout_auto_seconds(g));
        return;
    }
    for (int s = 0; s < SIDES; s++)
        ask_orders(g, lv, s, fell[s][0] ? fell[s] : NULL);
    clock_start(g, lv, g->cfg.order_timeout);
}

/* Resolves the next round of `lv`: its orders (1), fought on copies (2),
 * stored in one transaction (3), adopted (4), said (5), and what comes next
 * (6). The orders of side `acked` (-1: none) completed the round: they are
 * acknowledged with his next prompt (or alone after the last round), and
 * so are the other side's when their "stored" line is still waiting to go
 * out (withdrawn with the round's prompts: one line less). Returns 0 (lv
 * may be gone: the bout is over), or -1: nothing changed, nothing said, lv
 * as it was (the caller decides what to tell, and round_failed schedules
 * the round again). */
static int resolve(struct game *g, struct live *lv, int acked)
{
    struct round *r = xcalloc(1, sizeof(*r));

    if (round_orders(g, lv, r) != 0 || round_fight(g, lv, r) != 0 || round_store(g, r) != 0) {
        free(r);
        return -1;
    }
    /* Packed once it has shared its channel (this bout counted, still
     * live), to its end: the last bout of a busy channel stays terse. */
    lv->shared |= live_in(g, r->rec.channel, 2) > 1;
    int packed = lv->shared;
    for (int s = 0; s < SIDES; s++) {
        r->ack[s] = s == acked ||
                    (lv->ack_mark[s] && g->io.queued && g->io.queued(g->io.ctx, lv->ack_mark[s]));
        lv->ack_mark[s] = 0;
    }
    round_adopt(lv, r);
    withdraw(g, r->rec.id, r->number); /* its prompts, if still waiting */
    round_say(g, lv, r, packed);
    round_next(g, lv, r);
    predict_round_free(r->pred);
    free(r);
    return 0;
}

/* A round of lv that resolve could not store: it is fought again at the
 * first tick RETRY_AFTER seconds from now (or sooner, when an order comes),
 * with the same orders and from the same state, so exactly as it would
 * have been. The channel is told once, at the first failure of a row. */
static void round_failed(struct game *g, struct live *lv)
{
    if (!lv->failing)
        say_about(g, GAME_ROUND, lv->rec.channel, lv->rec.id, 0, /* relayed: bot/relay.c */
                  "Bout #%lld: round %d could not be saved (%s); it will be fought again in %s.",
                  (long long)lv->rec.id, lv->rec.round + 1, db_why(g->db),
                  DURATION((int)RETRY_AFTER));
    lv->failing = 1;
    lv->asking = 0; /* the clock runs now, whatever the output says */
    lv->deadline = game_now(g) + RETRY_AFTER;
}

void game_tick(struct game *g, const char *league_channel)
{
    double now = game_now(g);

    said_flush(g);
    for (int i = 0; i < g->n; i++) {
        struct live *lv = g->v[i];
        bout_left_tick(g, lv); /* another network's player whose bot went */
        if (lv->waiting) {
            bout_wait_tick(g, lv, now);
            if (lv->waiting)
                continue; /* no clock runs while it waits */
        }
        if (!lv->deadline)
            continue;
        if (lv->asking) {
            /* The clock runs from when the question went out (or, if the
             * output never says so, from a while after it was asked). */
            if (!g->io.delivered(g->io.ctx, lv->asked) && now - lv->asked_at < ASK_WAIT_MAX)
                continue;
            lv->asking = 0;
            lv->deadline = now + lv->timeout;
        }
        if (lv->rec.state == DB_BOUT_CHALLENGE) {
            if (now < lv->deadline)
                continue;
            lv->rec.state = DB_BOUT_CANCELLED;
            lv->rec.ended = game_wall(g);
            if (db_bout_save(g->db, &lv->rec) != DB_OK) {
                lv->rec.state = DB_BOUT_CHALLENGE;
                lv->deadline = now + RETRY_AFTER;
                continue;
            }
            say_about(g, GAME_CHATTER, lv->rec.channel, lv->rec.id, 0,
                      "%s's challenge to %s (bout #%lld) expired unanswered.", lv->f[0].owner,
                      lv->f[1].owner, (long long)lv->rec.id);
            forget(g, lv);
            i--;
            continue;
        }
        double left = lv->deadline - now;
        if (left <= 0) {
            int before = g->n;
            if (resolve(g, lv, -1) != 0)
                round_failed(g, lv);
            else if (g->n < before)
                i--;
            continue;
        }
        /* The reminder: 30 s before the end, or a third of a short timeout. */
        double remind =
            g->cfg.order_timeout / 3.0 < REMIND_BEFORE ? g->cfg.order_timeout / 3.0 : REMIND_BEFORE;
        if (!lv->reminded && left <= remind && !auto_rounds(lv)) {
            lv->reminded = 1;
            for (int s = 0; s < SIDES; s++) {
                if (lv->have[s])
                    continue;
                /* What will fight for him: the fallback order_fallback takes. */
                char plan[8];
                const char *what =
                    db_plan_get(g->db, lv->f[s].id, plan, sizeof(plan)) != DB_NOTFOUND ? "your plan"
                    : lv->has_last[s] ? "your last orders"
                                      : "the default orders";
                int secs = (int)(left + 0.5);
                say_about(g, GAME_ASK, live_nick(g, lv, s), lv->rec.id, lv->rec.round + 1,
                          "Bout #%lld: %s left for your round %d orders; without them %s will "
                          "fight",
                          (long long)lv->rec.id, DURATION(secs), lv->rec.round + 1, what);
            }
        }
    }
    league_tick(g, league_channel);
    tournament_tick(g);
}

void game_stop(struct game *g)
{
    int before = g->nunsaid;

    said_flush(g);
    game_log(g, GAME_LOG_DEBUG, "stopping: %d of %d rounds' commentary marked said",
             before - g->nunsaid, before);
}

double game_tick_due(const struct game *g)
{
    /* Live bouts and challenges keep their clocks to the second (their
     * deadlines, reminders, graces); so does what game_tick says once
     * (turns left unfinished, the tournaments resumed when online). */
    if (g->n > 0 || g->turns_unfinished || (g->online && !g->tour_resumed))
        return 1.0;
    double now = game_now(g), due = GAME_TICK_IDLE_MAX;
    /* Commentary waiting to be marked said after its bout's end: what
     * confirms it is heard (a PONG, an echo), and a turn of the bot's loop
     * that hears something ticks the game, so this is only a fallback (its
     * marker may wait a minute for the keepalive: a look a second would be
     * that many wakeups for nothing). */
    if (g->nunsaid > 0 && UNSAID_LOOK < due)
        due = UNSAID_LOOK;
    if (g->cfg.turn_interval > 0 && g->next_look - now < due)
        due = g->next_look - now;
    if (g->online && g->tour_any && g->tour_look - now < due)
        due = g->tour_look - now;
    return due > 0 ? due : 0;
}

/* ------------------------------------------------------ finding things */

/* Why fighter `name` is not one of account `acc`'s active `rules`
 * fighters (list[0..n), all of them): another's, retired, of another
 * ruleset, or none; with the ones there are. */
static void pick_refused(struct game *g, const struct game_caller *who, int64_t acc,
                         const char *whose, enum rules rules, const char *name,
                         const struct db_fighter *list, int n)
{
    int you = acc == who->account_id;
    char key[DB_NAME_MAX], mine[240];
    struct db_fighter f;
    struct str s;

    str_init_fixed(&s, mine, sizeof(mine));
    for (int i = 0; i < n; i++)
        if (list[i].sheet.rules == rules)
            str_add(&s, "%s%s", s.len ? ", " : "", list[i].name);
    game_name_key(key, name, sizeof(key));
    int found = strlen(name) < DB_NAME_MAX && db_fighter_get(g->db, key, &f) == DB_OK;
    if (found && f.account_id != acc)
        game_reply(who, "%s belongs to %s, not to %s; %s%s %s fighters: %s", f.name, f.owner,
                   you ? "you" : whose, you ? "your" : whose, you ? "" : "'s", rules_name(rules),
                   s.len ? mine : "none");
    else if (found && f.retired)
        game_reply(who, "%s is retired", f.name);
    else if (found && f.sheet.rules != rules)
        game_reply(who, "%s is a %s fighter: add rules=%s", f.name, rules_name(f.sheet.rules),
                   rules_name(f.sheet.rules));
    else
        game_reply(who, "%s %s no %s fighter called %s%s%s%s%s", you ? "you" : whose,
                   you ? "have" : "has", rules_name(rules), CLIP(name, 30), s.len ? "; " : "",
                   s.len ? (you ? "yours" : whose) : "", s.len ? (you ? ": " : "'s: ") : "",
                   s.len ? mine : "");
}

/* A fighter of account `acc` for `rules`: the one named `name` (NULL: the
 * first free one). `whose` names the player in errors. */
static int pick_fighter(struct game *g, const struct game_caller *who, int64_t acc,
                        const char *whose, enum rules rules, const char *name,
                        struct db_fighter *out)
{
    struct db_fighter list[MY_FIGHTERS_MAX];
    int n = 0, busy = 0;

    if (db_fighter_list(g->db, acc, 0, list, MY_FIGHTERS_MAX, &n) != DB_OK) {
        game_reply(who, "sorry, I could not look that up (%s)", db_why(g->db));
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (list[i].sheet.rules != rules)
            continue;
        if (name && strcasecmp(list[i].name, name) != 0)
            continue;
        if (find_fighter(g, list[i].id)) {
            busy++;
            continue;
        }
        *out = list[i];
        return 0;
    }
    /* The caller is "you" (you have); anyone else a third person (has). */
    int you = acc == who->account_id;
    if (name && busy)
        game_reply(who, "%s is already in a bout or a challenge", name);
    else if (name)
        pick_refused(g, who, acc, whose, rules, name, list, n);
    else if (busy)
        game_reply(who, "every %s fighter of %s is already in a bout or a challenge",
                   rules_name(rules), you ? "yours" : whose);
    else if (you)
        game_reply(who, "you have no %s fighter yet: %screate <name> %s makes one",
                   rules_name(rules), typed(g, who), grammar_get(rules)->create_example);
    else
        game_reply(who, "%s has no %s fighter yet; ask %s to create one, or challenge someone else",
                   whose, rules_name(rules), whose);
    return -1;
}

/* Where the caller says a challenge: " here" in a channel, " in #ringside"
 * (the bot's channel) in private, or " in a channel" when there is none. */
static const char *challenge_where(const struct game *g, const struct game_caller *who, char *buf,
                                   size_t len)
{
    if (who->channel)
        snprintf(buf, len, " here");
    else if (g->cfg.channel[0])
        snprintf(buf, len, " in %s", g->cfg.channel);
    else
        snprintf(buf, len, " in a channel");
    return buf;
}

/* Tells the caller he has no live bout: that a challenge of his is still
 * to be answered, or how to get one. */
static void no_live_bout(struct game *g, const struct game_caller *who)
{
    struct live *buf[ACCOUNT_BOUTS_LOCAL], **v;
    int n = account_bouts(g, who->account_id, buf, &v);
    const struct live *lv = NULL;

    for (int i = 0; i < n && !lv; i++)
        if (v[i]->rec.state == DB_BOUT_CHALLENGE)
            lv = v[i];
    account_bouts_done(buf, v);
    if (lv && lv->f[0].account_id == who->account_id) {
        game_reply(who,
                   "your bout #%lld has not started: %s has not accepted your challenge "
                   "yet",
                   (long long)lv->rec.id, lv->f[1].owner);
        return;
    }
    if (lv) {
        game_reply(who,
                   "your bout #%lld has not started: %s challenged you; say %saccept in %s "
                   "first",
                   (long long)lv->rec.id, lv->f[0].owner, g->cfg.prefix, lv->rec.channel);
        return;
    }
    game_reply(who, "you have no live bout; say %schallenge <nick>%s first", g->cfg.prefix,
               challenge_where(g, who, (char[80]){0}, 80));
}

/* The number a bout word names ("#12" or "12"), or 0 when it names none. */
static int64_t bout_number(const char *word)
{
    char *end;
    long long id = strtoll(word[0] == '#' ? word + 1 : word, &end, 10);

    return *end == '\0' && id > 0 ? (int64_t)id : 0;
}

/* The caller's live bout numbered `id`, with his side in it; NULL after
 * telling him there is no such live bout (named `word` as he typed it) or
 * that it is not his. */
static struct live *mine_by_id(struct game *g, const struct game_caller *who, int64_t id,
                               const char *word, int *side)
{
    struct live *lv = find_id(g, id);

    if (!lv || lv->rec.state != DB_BOUT_LIVE) {
        if (word)
            game_reply(who, "there is no live bout %s; %sbouts lists them", CLIP(word, 20),
                       typed(g, who));
        else
            game_reply(who, "there is no live bout #%lld; %sbouts lists them", (long long)id,
                       typed(g, who));
        return NULL;
    }
    if ((*side = side_of(lv, who->account_id)) < 0) {
        game_reply(who, "bout #%lld is not yours: only its two players may act in it",
                   (long long)id);
        return NULL;
    }
    return lv;
}

/* The caller's live bouts into v (at most MY_BOUTS_MAX); returns how
 * many. */
static int mine_all(struct game *g, const struct game_caller *who, struct live **v)
{
    struct live *buf[ACCOUNT_BOUTS_LOCAL], **all;
    int n = 0, count = account_bouts(g, who->account_id, buf, &all);

    for (int i = 0; i < count && n < MY_BOUTS_MAX; i++)
        if (all[i]->rec.state == DB_BOUT_LIVE)
            v[n++] = all[i];
    account_bouts_done(buf, all);
    return n;
}

/* "order #3 5/5/10 or order #7 5/5/10": how to say `verb` (then `tail`,
 * may be "") for each of bouts v[0..n-1], the first MINE_SHOWN of them,
 * into s. */
static void say_which(const struct game *g, const struct game_caller *who, struct str *s,
                      const char *verb, struct live *const *v, int n, const char *tail)
{
    int shown = n < MINE_SHOWN ? n : MINE_SHOWN;

    for (int i = 0; i < shown; i++)
        str_add(s, "%s%s%s #%lld%s%s",
                i == 0          ? ""
                : i + 1 < shown ? ", "
                                : " or ",
                typed(g, who), verb, (long long)v[i]->rec.id, tail[0] ? " " : "", tail);
    if (n > shown)
        str_add(s, " (%d more: %sbouts lists them)", n - shown, typed(g, who));
}

/* The caller's only live bout; NULL after telling him he has none, or
 * that he must say which (`verb`, the command for the hint: "order",
 * "forfeit"), each of his bouts named. With `several`, having more than one
 * is no refusal: *several is set and NULL returned quietly. */
static struct live *mine_only(struct game *g, const struct game_caller *who, const char *verb,
                              int *several)
{
    struct live *mine[MY_BOUTS_MAX];
    int count = mine_all(g, who, mine);

    if (count == 0) {
        no_live_bout(g, who);
        return NULL;
    }
    if (count > 1 && several) {
        *several = 1;
        return NULL;
    }
    if (count > 1) {
        char text[WHICH_TEXT_MAX];
        struct str s;
        str_init_fixed(&s, text, sizeof(text));
        say_which(g, who, &s, verb, mine, count, "");
        game_reply(who, "you are in %d bouts; say which: %s", count, text);
        return NULL;
    }
    return mine[0];
}

/* The refusal of a spectator's bout that is not live: bout `word` as he
 * typed it (not a number, a challenge, over, cancelled or none), or with
 * no word, none live where he asked. */
static void no_such_live(struct game *g, const struct game_caller *who, const char *word)
{
    const char *p = typed(g, who);
    int64_t id = word ? bout_number(word) : 0;
    struct live *lv = id ? find_id(g, id) : NULL;
    struct db_bout rec;

    if (!word && who->channel)
        game_reply(who,
                   "there is no live bout in %s; %sbouts lists the live ones, %sreport "
                   "<bout> tells a finished one",
                   who->channel, p, p);
    else if (!word)
        game_reply(who,
                   "no bout is live; %sbouts lists the live ones, %sreport <bout> tells a "
                   "finished one",
                   p, p);
    else if (!id)
        game_reply(who,
                   "\"%s\" is not a bout number; e.g. %sscore #12 (%sbouts lists the live "
                   "ones)",
                   CLIP(word, 20), p, p);
    else if (lv)
        game_reply(who, "bout #%lld has not started: %s has not accepted the challenge yet",
                   (long long)id, lv->f[1].owner);
    else if (db_bout_get(g->db, id, &rec) == DB_OK && rec.state == DB_BOUT_OVER)
        game_reply(who, "bout #%lld is over; %sreport %lld tells it", (long long)id, p,
                   (long long)id);
    else if (db_bout_get(g->db, id, &rec) == DB_OK && rec.started == 0)
        game_reply(who,
                   "bout #%lld never started: the challenge was declined, withdrawn or not "
                   "answered in time",
                   (long long)id);
    else if (db_bout_get(g->db, id, &rec) == DB_OK)
        game_reply(who, "bout #%lld was cancelled; %sbouts lists the live ones", (long long)id, p);
    else
        game_reply(who, "there is no bout #%lld; %sbouts lists the live ones", (long long)id, p);
}

/* GAME_BOUT_LIVE without a word: the only bout live in the caller's
 * channel (anywhere, in private); NULL after saying there are several, or
 * none. */
static struct live *live_here(struct game *g, const struct game_caller *who)
{
    struct live *lv = NULL;
    int live = 0;

    for (int i = 0; i < g->n; i++)
        if (g->v[i]->rec.state == DB_BOUT_LIVE &&
            (!who->channel || same_name(g, g->v[i]->rec.channel, who->channel))) {
            lv = g->v[i];
            live++;
        }
    if (live > 1) {
        game_reply(who, "%d bouts are live here; say which: %sscore <bout>", live, typed(g, who));
        return NULL;
    }
    if (!lv)
        no_such_live(g, who, NULL);
    return lv;
}

/* GAME_BOUT_ANY: bout `word`, live or finished, is in the database. */
static int any_bout(struct game *g, const struct game_caller *who, const char *word, int64_t *id)
{
    struct db_bout rec;

    *id = word ? bout_number(word) : 0;
    if (*id && db_bout_get(g->db, *id, &rec) == DB_OK)
        return 0;
    game_reply(who, "there is no bout %s; %sbouts lists the live ones", CLIP(word ? word : "", 20),
               typed(g, who));
    return -1;
}

/* GAME_BOUT_LIVE and GAME_BOUT_OPEN with a word: bout `word` is live (or,
 * with `open`, still a challenge). */
static int live_bout(struct game *g, const struct game_caller *who, const char *word, int open,
                     int64_t *id)
{
    struct live *lv = find_id(g, bout_number(word));

    if (lv && (open || lv->rec.state == DB_BOUT_LIVE)) {
        *id = lv->rec.id;
        return 0;
    }
    if (open)
        game_reply(who, "there is no live bout or challenge %s", CLIP(word, 20));
    else
        no_such_live(g, who, word);
    return -1;
}

int game_bout_find(struct game *g, const struct game_caller *who, enum game_bout want,
                   const char *word, int64_t *id)
{
    struct live *lv = NULL;
    int side, several = 0;

    *id = 0;
    switch (want) {
    case GAME_BOUT_ANY:
        return any_bout(g, who, word, id);
    case GAME_BOUT_OPEN:
        return live_bout(g, who, word ? word : "", 1, id);
    case GAME_BOUT_LIVE:
        if (word)
            return live_bout(g, who, word, 0, id);
        lv = live_here(g, who);
        break;
    case GAME_BOUT_MINE:
        if (word && (strcasecmp(word, "yes") == 0 || strcasecmp(word, "no") == 0))
            word = NULL; /* forfeit's answer, no bout */
        /* fall through */
    case GAME_BOUT_MINE_ORDERS:
        if (word)
            lv = mine_by_id(g, who, bout_number(word), word, &side);
        else
            lv = mine_only(g, who, want == GAME_BOUT_MINE ? "forfeit" : "order",
                           want == GAME_BOUT_MINE_ORDERS ? &several : NULL);
        break;
    }
    if (several)
        return 0; /* *id 0: game_order picks by the orders' shape */
    if (!lv)
        return -1;
    *id = lv->rec.id;
    return 0;
}

/* The caller's live bout numbered `id` with his side, for the calls that
 * take a bout game_bout_find resolved; NULL after a refusal. */
static struct live *my_live(struct game *g, const struct game_caller *who, int64_t id, int *side)
{
    return mine_by_id(g, who, id, NULL, side);
}

/* ------------------------------------------------------------ commands */

static void tape_add(const struct game *g, const struct live *lv, struct str *t, int corners);

/* The challenges an account may issue in a day (UTC). Each leaves a bout
 * row for good, even withdrawn, declined or expired (cancelled), so
 * without a cap a player could challenge and withdraw without end (the
 * command limit lets about 6 a minute through: over 8,000 rows a day).
 * 100 is beyond any real player's day: a challenge every quarter of an
 * hour round the clock, when one accepted is a bout of minutes (a
 * 12-round boxing bout up to 24 at the default order_timeout).
 * The bouts the bot starts itself (tournaments, league turns, title
 * bouts) are no challenges: they count nothing. */
#define CHALLENGES_PER_DAY 100

/* Stores challenge *rec of the caller and loads it, counted in his day's
 * challenges, all in one transaction: a refusal or a failure at any step
 * stores and counts nothing. The loaded challenge (not yet in the table);
 * or NULL after telling him why. */
static struct live *challenge_store(struct game *g, const struct game_caller *who,
                                    struct db_bout *rec)
{
    struct live *lv = NULL;
    char err[256] = "";
    int rc = db_begin(g->db), used_up = 0;

    if (rc == DB_OK) {
        rc = db_account_challenged(g->db, who->account_id, rec->created / DAY_SECONDS,
                                   CHALLENGES_PER_DAY);
        used_up = rc == DB_NOTFOUND;
    }
    if (rc == DB_OK)
        rc = db_bout_create(g->db, rec);
    if (rc == DB_OK && !(lv = live_load(g, rec, err, sizeof(err))))
        rc = DB_ERROR;
    if (rc == DB_OK)
        rc = db_commit(g->db);
    if (rc == DB_OK)
        return lv;
    free(lv);
    if (used_up) {
        game_reply(who,
                   "you have issued %d challenges today, the most in a day; challenge again "
                   "after 00:00 UTC (in %s)",
                   CHALLENGES_PER_DAY, game_until_midnight((char[32]){0}, 32, rec->created));
    } else if (err[0]) { /* live_load */
        game_log(g, GAME_LOG_ERROR, "challenge: %s", err);
        game_reply(who, "sorry, I could not set up the challenge (internal error)");
    } else {
        game_log(g, GAME_LOG_ERROR, "challenge: %s", db_errmsg(g->db));
        game_reply(who, "sorry, I could not store the challenge (%s)", db_why(g->db));
    }
    db_rollback(g->db); /* harmless when BEGIN itself failed */
    return NULL;
}

/* Tells the challenged player of challenge lv, in private under `nick`
 * (where he is identified now), who challenged him to what, how long he
 * has left to answer and how: once (lv->told). Whether he was in the
 * channel then is not known (he may have been there unidentified), so
 * the line does not say he was away. */
static void challenge_tell(struct game *g, struct live *lv, const char *nick)
{
    double left = lv->asking || !lv->deadline ? lv->timeout : lv->deadline - game_now(g);
    int secs = left > 1 ? (int)left : 1;
    long long id = lv->rec.id;

    lv->told = 1;
    say_about(g, GAME_LIVE, nick, lv->rec.id, 0,
              "%s challenged you in %s: bout #%lld, %s, %d rounds, %s vs your %s. You have %s "
              "left to answer: say accept #%lld or decline #%lld here (or %saccept in %s).",
              lv->f[0].owner, lv->rec.channel, id, rules_name(lv->rec.rules), lv->rec.rounds,
              lv->f[0].name, lv->f[1].name, DURATION(secs >= 120 ? secs / 60 * 60 : secs), id, id,
              g->cfg.prefix, lv->rec.channel);
}

/* Challenge lv, just made by `who`, said in his channel with the tale of
 * the tape (the sheets do not change before the bout: a busy fighter
 * neither trains nor is set), so that the start is one line with the
 * round 1 orders asked; and its clock started. Its challenged player, when
 * identified but not in that channel, is told in private at once; when he
 * is not identified (not here, or not known to be who he is), the line
 * says so, and he is told in private when he comes (game_player_back). */
static void challenge_say(struct game *g, const struct game_caller *who, struct live *lv)
{
    const struct db_fighter *theirs = &lv->f[1];
    const char *nick = g->io.nick_of(g->io.ctx, theirs->account_id);
    const char *to = nick ? nick : theirs->owner; /* his nick, that his client highlights */
    int remote = player_remote(g, lv, 1);
    char away[160] = "";
    struct str t;

    lv->told = remote || (nick && (!g->io.hears || g->io.hears(g->io.ctx, who->channel, nick)));
    if (!nick && !remote)
        snprintf(away, sizeof(away),
                 " %s has not identified with me: I will tell him in private when he does.",
                 theirs->owner);
    str_init(&t);
    tape_add(g, lv, &t, 1);
    say_about(g, GAME_LIVE, who->channel, lv->rec.id, 0, /* with its bout: relayed (bot/game.c) */
              "%s challenges %s to bout #%lld, %s, %d rounds: %s. %s: say %saccept or %sdecline "
              "within %s.%s",
              who->account, to, (long long)lv->rec.id, rules_name(lv->rec.rules), lv->rec.rounds,
              t.p, to, g->cfg.prefix, g->cfg.prefix, DURATION(g->cfg.challenge_timeout), away);
    str_free(&t);
    clock_start(g, lv, g->cfg.challenge_timeout);
    if (!lv->told && nick)
        challenge_tell(g, lv, nick);
}

int game_challenge(struct game *g, const struct game_caller *who, int64_t opp_id,
                   const char *opp_name, enum rules rules, int rounds, const char *with,
                   const char *vs)
{
    const struct ruleset *rs = ruleset_get(rules);
    if (rs->rounds_fixed && rounds && rounds != rs->rounds_default) {
        game_reply(who, "a %s bout always has %d rounds; leave rounds= out", rs->title,
                   rs->rounds_default);
        return -1;
    }
    if (rounds && (rounds < rs->rounds_min || rounds > rs->rounds_max)) {
        game_reply(who, "rounds=%d: a %s bout has %d to %d rounds", rounds, rs->name,
                   rs->rounds_min, rs->rounds_max);
        return -1;
    }
    if (!rounds)
        rounds = rs->rounds_fixed ? rs->rounds_default : g->cfg.rounds;
    if (g->n >= BOUTS_MAX) {
        game_reply(who, "there are %d bouts and challenges going on, the most; try again later",
                   g->n);
        return -1;
    }
    if (opp_id == who->account_id) {
        game_reply(who, "you cannot challenge yourself; challenge another player");
        return -1;
    }
    char opp[DB_NAME_MAX];
    snprintf(opp, sizeof(opp), "%s", opp_name);

    struct db_fighter mine, theirs;
    if (pick_fighter(g, who, who->account_id, "you", rules, with, &mine) != 0 ||
        pick_fighter(g, who, opp_id, opp, rules, vs, &theirs) != 0)
        return -1;

    struct db_bout rec;
    memset(&rec, 0, sizeof(rec));
    rec.rules = rules;
    snprintf(rec.channel, sizeof(rec.channel), "%s", who->channel);
    rec.rounds = rounds;
    rec.state = DB_BOUT_CHALLENGE;
    rec.kind = DB_BOUT_EXHIBITION; /* friends' bouts count in records only */
    rec.league = -1;
    rec.fighter[0] = mine.id;
    rec.fighter[1] = theirs.id;
    rec.sheet[0] = mine.sheet;
    rec.sheet[1] = theirs.sheet;
    rec.winner = -1;
    rec.created = game_wall(g);
    struct live *lv = challenge_store(g, who, &rec);
    if (!lv)
        return -1;
    live_table_add(g, lv); /* room: counted above */
    game_log(g, GAME_LOG_INFO, "bout %lld: %s challenges %s", (long long)rec.id, who->account, opp);
    challenge_say(g, who, lv);
    return 0;
}

/* my_challenge found none: why, in one line (bout `id` > 0 named, and
 * `on` when it is his and live already). */
static void no_challenge(struct game *g, const struct game_caller *who, int challenged,
                         const char *verb, const char *other, int64_t id, int on)
{
    if (on)
        game_reply(who, "bout #%lld is no challenge any more: it is on (bouts shows it)",
                   (long long)id);
    else if (id)
        game_reply(who, "bout #%lld is not an open challenge %s; say %s%s <nick> or %s%s #<bout>",
                   (long long)id, challenged ? "to you" : "of yours", typed(g, who), verb,
                   typed(g, who), verb);
    else
        game_reply(who,
                   !other       ? (challenged ? "nobody has challenged you%.0s"
                                              : "you have no open challenge%.0s")
                   : challenged ? "%s has not challenged you"
                                : "you have no open challenge to %s",
                   other ? CLIP(other, 30) : "");
}

/* The pending challenge to (challenged) or from (challenger) the caller,
 * from/to the player `other` (account name or nick, identified as
 * other_id) when given. */
static struct live *my_challenge(struct game *g, const struct game_caller *who, int challenged,
                                 const char *verb, const char *other, int64_t other_id)
{
    struct live *found = NULL, *buf[ACCOUNT_BOUTS_LOCAL], **v;
    int count = 0, on = 0, n = account_bouts(g, who->account_id, buf, &v);
    int64_t id = other ? bout_number(other) : 0; /* nicks never start with a digit */

    for (int i = 0; i < n; i++) {
        struct live *lv = v[i];
        on |= id && lv->rec.id == id && lv->rec.state == DB_BOUT_LIVE;
        if (lv->rec.state != DB_BOUT_CHALLENGE)
            continue;
        const struct db_fighter *me = &lv->f[challenged ? 1 : 0];
        const struct db_fighter *them = &lv->f[challenged ? 0 : 1];
        if (me->account_id != who->account_id)
            continue;
        if (id ? lv->rec.id != id
               : other && !same_name(g, them->owner, other) &&
                     !(other_id && other_id == them->account_id))
            continue;
        found = lv;
        count++;
    }
    account_bouts_done(buf, v);
    if (count == 0)
        no_challenge(g, who, challenged, verb, other, id, on);
    else if (count > 1)
        game_reply(who, "%d challenges are open; say whose: %s%s <nick> (or %s%s #<bout>)", count,
                   typed(g, who), verb, typed(g, who), verb);
    return count == 1 ? found : NULL;
}

static void bout_go(struct game *g, struct live *lv, int called);

static int accept(struct game *g, const struct game_caller *who, struct live *lv)
{
    /* In private it is his answer all the same; said in another channel,
     * the challenge's channel would miss the start of its bout. */
    if (who->channel && !same_name(g, lv->rec.channel, who->channel)) {
        game_reply(who, "that challenge was made in %s; accept it there", lv->rec.channel);
        return -1;
    }
    struct db_bout rec = lv->rec;
    rec.state = DB_BOUT_LIVE;
    rec.seed = g->io.seed(g->io.ctx);
    rec.started = game_wall(g);
    if (bout_init(&lv->b, rec.rules, rec.sheet, rec.rounds) != 0) {
        game_reply(who, "sorry, the engine refused these fighters (internal error)");
        return -1;
    }
    if (db_bout_save(g->db, &rec) != DB_OK) {
        game_log(g, GAME_LOG_ERROR, "accept: %s", db_errmsg(g->db));
        game_reply(who, "sorry, I could not start the bout (%s); try again", db_why(g->db));
        return -1;
    }
    lv->rec = rec;
    bout_go(g, lv, 1);
    return 0;
}

/* The tale of the tape of lv into *t: its lines a space apart, formatted
 * for the channel. `corners`: only the two corners ("Rocky (alice) STR 14
 * ... vs Apollo (bob) ..."), without the tape's "Bout #1, boxing, 3
 * rounds: " before them. */
static void tape_add(const struct game *g, const struct live *lv, struct str *t, int corners)
{
    char tape[3][RENDER_LINE_MAX];
    int n = render_tape(lv->corner, lv->rec.rules, lv->rec.rounds, lv->rec.id, tape, 3);

    for (int i = 0; i < n; i++) {
        decorate(g, lv, tape[i], 0); /* in place, within its RENDER_LINE_MAX */
        const char *p = tape[i];
        if (i == 0 && corners && strstr(p, ": "))
            p = strstr(p, ": ") + 2;
        str_add(t, "%s%s", i ? " " : "", p);
    }
}

/* 1 if the player of side s of lv is in lv's channel now (io.hears). */
static int hears_channel(const struct game *g, const struct live *lv, int s)
{
    return g->io.hears && g->io.hears(g->io.ctx, lv->rec.channel, live_nick(g, lv, s));
}

/* Says `start`, lv's start line, in its channel (`voice`, about `round`)
 * with the predictions' window (predict_open_words) at its end when that
 * costs no IRC line more; else (the order help of a newcomer's first bout
 * fills the line) in a message of its own right after it, dropped unsaid
 * once the predictions close. */
static void say_start(struct game *g, struct live *lv, enum game_voice voice, int round,
                      const char *start)
{
    struct str p, with;

    str_init(&p);
    str_init(&with);
    predict_open_words(g, lv, &p);
    str_add(&with, "%s%s", start, p.p);
    int fold = p.len == 0 || wire_room(g, lv->rec.channel, start, with.p);
    say_about(g, voice, lv->rec.channel, lv->rec.id, round, "%s", fold ? with.p : start);
    if (!fold)
        say_about(g, voice == GAME_ASK ? GAME_ROUND : voice, lv->rec.channel, lv->rec.id,
                  predict_closes(g, &lv->rec), "%s", p.p + 1 /* its leading space */);
    str_free(&with);
    str_free(&p);
}

/* The start of a bout whose tape went with its challenge: one channel
 * line says it is on and, to the players who are there, asks for their
 * round 1 orders (with the first sentence of the order help when it is
 * the first bout of its ruleset for one of them), and says until when
 * it takes predictions; a player who is not there is asked privately, as
 * at any start. */
static void bout_call(struct game *g, struct live *lv)
{
    const struct grammar *gr = grammar_get(lv->rec.rules);
    int heard[SIDES], help = 0;
    char first[RENDER_LINE_MAX];
    struct str who, t;

    str_init(&who);
    for (int s = 0; s < SIDES; s++) {
        heard[s] = !auto_rounds(lv) && hears_channel(g, lv, s);
        if (!heard[s])
            continue;
        str_add(&who, "%s%s (%s)", who.len ? " and " : "", live_nick(g, lv, s), lv->f[s].name);
        help |= gr->order_help && !fought_before(g, lv, s);
    }
    str_init(&t);
    str_add(&t, "Bout #%lld is on", (long long)lv->rec.id);
    if (auto_rounds(lv))
        str_add(&t, ": the duel fights itself, a round every %s", DURATION(bout_auto_seconds(g)));
    str_ch(&t, '.');
    if (who.len)
        str_add(&t,
                " Round 1 of %d: %s, your orders (e.g. %s) within %s; send them to me in "
                "private.%s%s",
                lv->rec.rounds, who.p, gr->order_example, DURATION(g->cfg.order_timeout),
                help ? " " : "", help ? help_first(gr->order_help, first, sizeof(first)) : "");
    /* It asks those named for round 1 (none in a duel). */
    say_start(g, lv, who.len ? GAME_ASK : GAME_ROUND, 1, t.p);
    str_free(&t);
    str_free(&who);
    for (int s = 0; s < SIDES; s++)
        if (!heard[s] && !auto_rounds(lv))
            ask_orders(g, lv, s, "send them here, in private");
}

/* A bout stored live begins: its clock, the tale of the tape (`called`:
 * it went with the challenge, and bout_call says the start), prompts. */
static void bout_go(struct game *g, struct live *lv, int called)
{
    const struct db_bout rec = lv->rec;

    bout_rng_seed(&lv->rng, rec.seed);
    lv->digest = 0;
    game_log(g, GAME_LOG_INFO, "bout %lld starts", (long long)rec.id);

    if (called) {
        bout_call(g, lv);
    } else { /* the tale of the tape: one message */
        struct str t;
        str_init(&t);
        tape_add(g, lv, &t, 0);
        if (t.len > 0)
            say_start(g, lv, GAME_LIVE, 0, t.p);
        str_free(&t);
    }
    if (auto_rounds(lv)) {
        for (int s = 0; s < SIDES; s++)
            game_say(g, GAME_LIVE, live_nick(g, lv, s),
                     "Bout #%lld: the duel fights itself, a round every %s; your plan's "
                     "\"if <condition> then yield\" lines are read each round, and yield "
                     "concedes at any time (you lose).",
                     (long long)rec.id, DURATION(bout_auto_seconds(g)));
        clock_start(g, lv, bout_auto_seconds(g));
        return;
    }
    for (int s = 0; s < SIDES && !called; s++)
        ask_orders(g, lv, s, "send them here, in private");
    clock_start(g, lv, g->cfg.order_timeout);
}

int64_t bout_start_direct(struct game *g, const char *channel, enum rules rules, int rounds,
                          const struct db_fighter f[SIDES],
                          int (*link)(struct game *g, int64_t id, void *arg), void *arg)
{
    struct db_bout rec;
    char err[256];

    if (g->n >= BOUTS_MAX)
        return 0;
    memset(&rec, 0, sizeof(rec));
    rec.rules = rules;
    snprintf(rec.channel, sizeof(rec.channel), "%s", channel);
    rec.rounds = rounds;
    rec.state = DB_BOUT_LIVE;
    rec.kind = DB_BOUT_EXHIBITION;
    rec.league = -1;
    rec.winner = -1;
    rec.seed = g->io.seed(g->io.ctx);
    rec.created = rec.started = game_wall(g);
    for (int s = 0; s < SIDES; s++) {
        rec.fighter[s] = f[s].id;
        rec.sheet[s] = f[s].sheet;
    }
    if (db_begin(g->db) != DB_OK || db_bout_create(g->db, &rec) != DB_OK ||
        link(g, rec.id, arg) != 0 || db_commit(g->db) != DB_OK) {
        game_log(g, GAME_LOG_ERROR, "bout of a tournament not started: %s", db_errmsg(g->db));
        db_rollback(g->db);
        return 0;
    }
    struct live *lv = live_load(g, &rec, err, sizeof(err));
    if (!lv) {
        game_log(g, GAME_LOG_ERROR, "bout %lld: %s", (long long)rec.id, err);
        return 0;
    }
    live_table_add(g, lv); /* room: counted above */
    bout_go(g, lv, 0);
    return rec.id;
}

static int cancel_challenge(struct game *g, const struct game_caller *who, struct live *lv,
                            const char *verb)
{
    lv->rec.state = DB_BOUT_CANCELLED;
    lv->rec.ended = game_wall(g);
    if (db_bout_save(g->db, &lv->rec) != DB_OK) {
        lv->rec.state = DB_BOUT_CHALLENGE;
        game_reply(who, "sorry, I could not do that (%s)", db_why(g->db));
        return -1;
    }
    say_about(g, GAME_LIVE, lv->rec.channel, lv->rec.id, 0,
              "%s %s the challenge (bout #%lld, %s vs %s).", who->account, verb,
              (long long)lv->rec.id, lv->f[0].name, lv->f[1].name);
    forget(g, lv);
    return 0;
}

int game_answer(struct game *g, const struct game_caller *who, enum game_answer answer,
                const char *other, int64_t other_id)
{
    static const char *const verbs[] = {"accept", "decline", "withdraw"};
    struct live *lv = my_challenge(g, who, answer != GAME_WITHDRAW, verbs[answer], other, other_id);

    if (!lv)
        return -1;
    switch (answer) {
    case GAME_ACCEPT:
        return accept(g, who, lv);
    case GAME_DECLINE:
        return cancel_challenge(g, who, lv, "declines");
    default:
        return cancel_challenge(g, who, lv, "withdraws");
    }
}

int game_forfeit(struct game *g, const struct game_caller *who, int64_t bout)
{
    int side;
    struct live *lv = my_live(g, who, bout, &side);

    if (!lv)
        return -1;
    /* The corner throws in the towel: an order like any other, so the bout
     * still replays from its stored orders. If it cannot be stored, the
     * orders the player had sent stand as they were. */
    struct order kept = lv->next[side];
    int had = lv->have[side];
    bout_order_towel(lv->rec.rules, &lv->next[side]);
    lv->have[side] = 1;
    long long id = (long long)lv->rec.id;
    if (resolve(g, lv, -1) != 0) {
        lv->next[side] = kept;
        lv->have[side] = had;
        game_reply(who, "sorry, I could not record that (%s); try again", db_why(g->db));
        return -1;
    }
    game_reply_private(who, "you conceded bout #%lld", id); /* lv is gone now */
    return 0;
}

int game_forfeit_ask(struct game *g, const struct game_caller *who, int64_t bout)
{
    int side;
    struct live *lv = my_live(g, who, bout, &side);

    if (!lv)
        return -1;
    const char *verb = auto_rounds(lv) ? "yield" : "forfeit";
    long long id = (long long)lv->rec.id;
    struct live *mine[MY_BOUTS_MAX];
    char bare[64] = ""; /* with several bouts, a bare "forfeit yes" would ask which */
    if (mine_all(g, who, mine) == 1)
        snprintf(bare, sizeof(bare), "%s%s yes (or ", typed(g, who), verb);
    game_reply(
        who, "%s bout #%lld (%s vs %s)? This ends it as a loss. Say %s%s%s #%lld yes%s to confirm.",
        auto_rounds(lv) ? "Yield" : "Forfeit", id, lv->f[side].name, lv->f[!side].name, bare,
        typed(g, who), verb, id, bare[0] ? ")" : "");
    return 0;
}

/* The reason rules' parser gives for `text`, into s. */
static void order_reason(enum rules rules, const char *text, struct str *s)
{
    char reason[PARSE_REASON_MAX + 32];
    struct parse_error err;
    struct order o;

    if (order_parse(rules, text, &o, &err) != 0) {
        parse_error_format(&err, reason, sizeof(reason));
        str_cat(s, reason);
    }
}

/* Orders `text` that none of the caller's n live bouts mine[] reads, at
 * least one of them taking orders: one line with the parser's reason for
 * each ruleset among them, and how to name a bout (#N) where he has
 * several that take orders. */
static int order_unread(struct game *g, const struct game_caller *who, struct live *const *mine,
                        int n, const char *text)
{
    struct live *of[MY_BOUTS_MAX];
    int seen[RULES_COUNT] = {0}, nrules = 0, takers = 0;
    char line[2 * WHICH_TEXT_MAX];
    struct str s;

    for (int i = 0; i < n; i++)
        if (!auto_rounds(mine[i])) {
            takers++;
            nrules += !seen[mine[i]->rec.rules];
            seen[mine[i]->rec.rules] = 1;
        }
    str_init_fixed(&s, line, sizeof(line));
    if (nrules > 1)
        str_add(&s, "\"%s\" is an order for none of your bouts.", CLIP(text, 30));
    for (int i = 0; i < n; i++) {
        enum rules r = mine[i]->rec.rules;
        if (auto_rounds(mine[i]) || !seen[r])
            continue;
        seen[r] = 0; /* said */
        int k = 0;
        for (int j = i; j < n; j++)
            if (!auto_rounds(mine[j]) && mine[j]->rec.rules == r)
                of[k++] = mine[j];
        if (nrules > 1) {
            str_add(&s, " As %s (", ruleset_get(r)->title);
            say_which(g, who, &s, "order", of, k, "");
            str_cat(&s, "): ");
        }
        order_reason(r, text, &s);
        if (nrules > 1)
            str_cat(&s, ".");
        if (nrules == 1 && takers > 1) {
            str_add(&s, "; you are in %d %s bouts, so name one: ", k, ruleset_get(r)->title);
            say_which(g, who, &s, "order", of, k, "<orders>");
        }
    }
    game_reply(who, "not stored: %s", line);
    return -1;
}

/* Orders `text` with no bout named, from a caller in several live bouts:
 * to the one bout whose ruleset reads them; when several do, one line asks
 * which, naming them; when none does, order_unread says why. */
static int order_match(struct game *g, const struct game_caller *who, const char *text)
{
    struct live *mine[MY_BOUTS_MAX], *took[MY_BOUTS_MAX];
    int n = mine_all(g, who, mine), k = 0, takers = 0;
    struct order o;
    struct parse_error err;
    char which[WHICH_TEXT_MAX], said[48];
    struct str s;

    for (int i = 0; i < n; i++) {
        takers += !auto_rounds(mine[i]);
        if (!auto_rounds(mine[i]) && order_parse(mine[i]->rec.rules, text, &o, &err) == 0)
            took[k++] = mine[i]; /* a duel takes none: yield is forfeit's */
    }
    if (k == 1)
        return game_order_in(g, who, took[0]->rec.id, text);
    if (k == 0 && !takers) {
        game_reply(who,
                   "not stored: your %d bouts are duels, which fight themselves and take no "
                   "orders; %syield #<bout> concedes one",
                   n, typed(g, who));
        return -1;
    }
    if (k == 0)
        return order_unread(g, who, mine, n, text);
    str_init_fixed(&s, which, sizeof(which));
    text_clip(said, sizeof(said), text, 40);
    say_which(g, who, &s, "order", took, k, said);
    int same = 1;
    for (int i = 1; i < k; i++)
        same &= took[i]->rec.rules == took[0]->rec.rules;
    if (same)
        game_reply(who, "you are in %d %s bouts; say which: %s", k,
                   ruleset_get(took[0]->rec.rules)->title, which);
    else
        game_reply(who, "%d of your bouts take these orders; say which: %s", k, which);
    return -1;
}

int game_order_reads(struct game *g, int64_t account_id, const char *text)
{
    struct game_caller who = {.account_id = account_id};
    struct live *mine[MY_BOUTS_MAX];
    struct order o;
    struct parse_error err;
    int n = mine_all(g, &who, mine);

    for (int i = 0; i < n; i++)
        if (!auto_rounds(mine[i]) && order_parse(mine[i]->rec.rules, text, &o, &err) == 0)
            return 1;
    return 0;
}

int game_order(struct game *g, const struct game_caller *who, const char *bout, const char *text)
{
    int64_t id;

    if (game_bout_find(g, who, GAME_BOUT_MINE_ORDERS, bout, &id) != 0)
        return -1;
    return id ? game_order_in(g, who, id, text) : order_match(g, who, text);
}

int game_order_in(struct game *g, const struct game_caller *who, int64_t bout, const char *text)
{
    struct parse_error err;
    struct order o;
    char reason[PARSE_REASON_MAX + 32];
    int side;
    struct live *lv = my_live(g, who, bout, &side);

    if (!lv)
        return -1;
    if (order_parse(lv->rec.rules, text, &o, &err) != 0) {
        parse_error_format(&err, reason, sizeof(reason));
        game_reply(who, "not stored: %s", reason);
        return -1;
    }
    struct db_order dbo = {.round = lv->rec.round + 1, .side = side, .source = DB_ORDER_PLAYER};
    bout_order_text(&o, dbo.text, sizeof(dbo.text));
    if (db_order_put(g->db, lv->rec.id, &dbo) != DB_OK) {
        game_log(g, GAME_LOG_ERROR, "bout %lld: order not stored: %s", (long long)lv->rec.id,
                 db_errmsg(g->db));
        game_reply(who, "sorry, your orders were NOT stored (%s); send them again", db_why(g->db));
        return -1;
    }
    lv->next[side] = o;
    lv->have[side] = 1;
    nick_sync(g, lv, side); /* a nick changed since his last prompt */
    if (g->io.answered && who->nick)
        g->io.answered(g->io.ctx, who->nick, lv->rec.id, dbo.round);
    if (lv->have[!side]) {
        /* The round is fought now: the acknowledgement rides on the next
         * prompt (round_fell). */
        if (resolve(g, lv, side) == 0)
            return 0;
        round_failed(g, lv); /* his orders stay stored, and the round is due */
    }
    if (lv->have[!side]) { /* the round failed: the orders wait for it */
        game_reply_live(who, "round %d orders stored for %s: %s", dbo.round, lv->f[side].name,
                        dbo.text);
        return 0;
    }
    /* Stale once the round is fought: if the opponent's orders come before
     * it leaves, it is dropped, and the next prompt acknowledges both. */
    say_about(g, GAME_LIVE, who->nick, lv->rec.id, dbo.round,
              "round %d orders stored for %s: %s (you may change them until the round is fought)",
              dbo.round, lv->f[side].name, dbo.text);
    lv->ack_mark[side] = g->io.mark(g->io.ctx);
    return 0;
}

/* ------------------------------------------------------- spectators */

int game_bouts(struct game *g, const struct game_caller *who)
{
    char text[440];
    struct str t;
    int shown = 0, live = 0;

    str_init_fixed(&t, text, sizeof(text));
    for (int i = 0; i < g->n; i++) {
        const struct live *lv = g->v[i];
        if (lv->rec.state != DB_BOUT_LIVE)
            continue;
        live++;
        if (t.need < 360) {
            str_add(&t, "%s#%lld %s vs %s (%s, round %d/%d, %s)", shown ? "; " : "",
                    (long long)lv->rec.id, lv->f[0].name, lv->f[1].name, rules_name(lv->rec.rules),
                    lv->rec.round + 1, lv->rec.rounds, lv->rec.channel);
            shown++;
        }
    }
    if (!live && who->channel)
        game_reply(who, "no live bouts; challenge someone: %schallenge <nick>", typed(g, who));
    else if (!live)
        game_reply(who, "no live bouts; challenge someone: say %schallenge <nick>%s", g->cfg.prefix,
                   challenge_where(g, who, (char[80]){0}, 80));
    else
        game_reply(who, "%d live: %s%s", live, text, shown < live ? "; ..." : "");
    return 0;
}

int game_score(struct game *g, const struct game_caller *who, int64_t bout)
{
    struct live *lv = find_id(g, bout);
    char line[RENDER_LINE_MAX];

    if (!lv || lv->rec.state != DB_BOUT_LIVE) {
        char word[24];
        snprintf(word, sizeof(word), "#%lld", (long long)bout);
        no_such_live(g, who, word);
        return -1;
    }
    render_score(lv->corner, &lv->b, line, sizeof(line));
    game_reply(who, "%s", line);
    return 0;
}

/* The one line a report asked in a channel gets there: the bout, its
 * result or how far it is, its page; the report itself goes in private. */
static void report_in_channel(struct game *g, const struct game_caller *who, long long id, int from,
                              int to)
{
    char line[RENDER_LINE_MAX * 2], sum[RENDER_LINE_MAX], err[256];
    struct str t;

    str_init_fixed(&t, line, sizeof(line));
    str_add(&t, "bout #%lld", id);
    if (bout_summary(g->db, id, sum, sizeof(sum), err, sizeof(err)) == 0)
        str_add(&t, ", %s%s", sum, strchr(".!?", sum[strlen(sum) - 1]) ? "" : ".");
    else
        str_ch(&t, '.');
    if (g->cfg.base_url[0])
        str_add(&t, " Its page: %s/bouts/%lld; the", g->cfg.base_url, id);
    else
        str_cat(&t, " The");
    if (from == to)
        str_add(&t, " report of round %d is sent to you in private.", from);
    else
        str_add(&t, " report of rounds %d to %d is sent to you in private.", from, to);
    game_reply(who, "%s", line);
}

int game_report(struct game *g, const struct game_caller *who, int64_t bout, const char *round)
{
    char *end, err[256];
    long long id = (long long)bout;
    struct db_bout rec;

    if (id <= 0 || db_bout_get(g->db, id, &rec) != DB_OK) {
        game_reply(who, "there is no bout #%lld; %sbouts lists the live ones", id, typed(g, who));
        return -1;
    }
    int from = 1, to = rec.round;
    if (rec.round == 0) {
        if (rec.state == DB_BOUT_LIVE)
            game_reply(who, "bout #%lld has no round fought yet", id);
        else if (rec.state == DB_BOUT_CHALLENGE)
            game_reply(who, "bout #%lld is a challenge not yet accepted", id);
        else
            game_reply(who, "bout #%lld was never fought (a challenge, or cancelled)", id);
        return 0;
    }
    if (round) {
        long r = strtol(round, &end, 10);
        if ((*end || r < 1 || r > rec.round) && rec.round == 1) {
            game_reply(who,
                       rec.state == DB_BOUT_LIVE ? "bout #%lld has only round 1 so far"
                                                 : "bout #%lld had only round 1",
                       id);
            return -1;
        }
        if (*end || r < 1 || r > rec.round) {
            game_reply(who,
                       rec.state == DB_BOUT_LIVE ? "bout #%lld has rounds 1 to %d so far"
                                                 : "bout #%lld had rounds 1 to %d",
                       id, rec.round);
            return -1;
        }
        from = to = (int)r;
    }
    char *text = bout_report(g->db, id, from, to, err, sizeof(err));
    if (!text) {
        game_log(g, GAME_LOG_ERROR, "report of bout %lld: %s", id, err);
        game_reply(who, "sorry, I could not rebuild the report of bout #%lld (%s)", id, err);
        return -1;
    }
    if (who->channel)
        report_in_channel(g, who, id, from, to);
    char span[40];
    if (from == to)
        snprintf(span, sizeof(span), "round %d", from);
    else
        snprintf(span, sizeof(span), "rounds %d to %d", from, to);
    if (g->cfg.base_url[0])
        game_reply_private(who, "Report of bout #%lld, %s (its page: %s/bouts/%lld):", id, span,
                           g->cfg.base_url, id);
    else
        game_reply_private(who, "Report of bout #%lld, %s:", id, span);
    say_packed(g, GAME_BULK, who->nick, text);
    free(text);
    return 0;
}

/* --------------------------------------------------------------- admin */

int game_cancel(struct game *g, const struct game_caller *who, int64_t bout)
{
    char what[128];
    long long id = (long long)bout;
    struct live *lv = find_id(g, bout);

    if (!lv) {
        game_reply(who, "there is no live bout or challenge #%lld", id);
        return -1;
    }
    struct db_bout rec = lv->rec;
    rec.state = DB_BOUT_CANCELLED;
    rec.ended = game_wall(g);
    snprintf(what, sizeof(what), "cancel bout %lld", id);
    if (db_begin(g->db) != DB_OK || db_bout_save(g->db, &rec) != DB_OK ||
        db_audit(g->db, rec.ended, who->account, what) != DB_OK || db_commit(g->db) != DB_OK) {
        db_rollback(g->db);
        game_reply(who, "sorry, nothing changed (%s)", db_why(g->db));
        return -1;
    }
    game_log(g, GAME_LOG_INFO, "admin %s: %s", who->account, what);
    /* Live: before whatever the bout's end starts (a tournament's new
     * bout); relayed: bot/relay.c */
    say_about(g, GAME_LIVE, rec.channel, bout, 0,
              "Bout #%lld (%s vs %s) is cancelled by %s: no result.", id, lv->f[0].name,
              lv->f[1].name, who->account);
    if (!who->channel || !same_name(g, who->channel, rec.channel))
        game_reply(who, "bout #%lld cancelled", id);
    forget(g, lv);
    tournament_bout_over(g, bout); /* a tournament's match is fought again */
    return 0;
}
