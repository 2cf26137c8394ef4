/*
 * bout.c - challenges and live bouts: the state machine, orders, rounds,
 * deadlines, and rebuilding everything after a restart.
 *
 * The database is the truth. A challenge is stored before it is announced;
 * an order is stored before it is acknowledged; a round is resolved on
 * copies of the engine state, written in one transaction (both orders,
 * the commentary and report, the bout, and at the end the fighters'
 * records), and only then said and adopted. If the write fails nothing is
 * said, the state stays as it was, and the round is tried again.
 *
 * At start-up every live bout is rebuilt by replaying its stored orders
 * from its seed through the engine and the commentary (so even the wording
 * of later rounds stays the same); orders already stored for the next round
 * are kept, and players are asked only for the missing ones. Deadlines run
 * only while the bot is registered with the server: every (re)connection
 * starts them afresh.
 *
 * A fighter is in at most one challenge or live bout at a time; while he
 * is, his sheet and record do not change (training and the admin's set wait
 * until the bout is over), so the stored sheet is the one the bout started
 * with.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "bot.h"
#include "parse.h"

#define REMIND_BEFORE   30.0 /* seconds before a deadline */
#define RETRY_AFTER     5.0  /* seconds before a failed write is tried again */
#define SUMMARY_MAX     (RENDER_LINE_MAX * (RENDER_ROUND_LINES + RENDER_RESULT_MAX) + 16)
#define REPORT_MAX      DB_REPORT_MAX
#define ORDERS_STORED   (2 * BOXING_ROUNDS_MAX + 4)
#define MY_FIGHTERS_MAX 16

struct live {
    struct db_bout rec; /* as stored */
    struct db_fighter f[SIDES];
    struct render_corner corner[SIDES];
    struct bout b;       /* after rec.round rounds (live bouts) */
    struct bout_rng rng; /* likewise */
    int have[SIDES];     /* orders stored for the next round */
    struct order next[SIDES];
    struct order last[SIDES]; /* the orders of the round before */
    int has_last[SIDES];
    double deadline; /* monotonic; 0 while not running */
    int reminded;
};

/* A round whose commentary is in the output queue but not yet marked said
 * in the database. */
struct unsaid {
    int64_t id;
    int round;
};

#define UNSAID_MAX 4096

struct bouts {
    struct live *v[BOUTS_MAX];
    int n;
    struct unsaid unsaid[UNSAID_MAX];
    int nunsaid;
};

/* ------------------------------------------------------------- helpers */

static const char *rules_name(enum rules r)
{
    return ruleset_get(r)->name;
}

void bout_order_text(const struct order *o, char *buf, size_t len)
{
    int towel = o->rules == RULES_BOXING ? o->u.boxing.towel : o->u.sugarray.towel;

    if (towel)
        snprintf(buf, len, "towel");
    else
        order_format(o, buf, len);
}

int bout_order_read(enum rules rules, const char *text, struct order *o)
{
    struct parse_error err;

    if (strcmp(text, "towel") == 0) {
        ruleset_get(rules)->order_default(o);
        if (rules == RULES_BOXING)
            o->u.boxing.towel = 1;
        else
            o->u.sugarray.towel = 1;
        return 0;
    }
    return order_parse(rules, text, o, &err);
}

static void corner_fill(struct render_corner *c, const struct db_fighter *f)
{
    memset(c, 0, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "%s", f->name);
    snprintf(c->owner, sizeof(c->owner), "%s", f->owner);
    c->sheet = f->sheet;
    c->wins = f->wins;
    c->losses = f->losses;
    c->draws = f->draws;
    c->kos = f->kos;
}

static struct live *find_id(struct bouts *bs, int64_t id)
{
    for (int i = 0; i < bs->n; i++)
        if (bs->v[i]->rec.id == id)
            return bs->v[i];
    return NULL;
}

/* The bout (challenge or live) fighter `fid` is in, or NULL. */
static struct live *find_fighter(struct bouts *bs, int64_t fid)
{
    for (int i = 0; i < bs->n; i++)
        for (int s = 0; s < SIDES; s++)
            if (bs->v[i]->rec.fighter[s] == fid)
                return bs->v[i];
    return NULL;
}

/* The side account `acc` owns in `lv`, or -1. */
static int side_of(const struct live *lv, int64_t acc)
{
    for (int s = 0; s < SIDES; s++)
        if (lv->f[s].account_id == acc)
            return s;
    return -1;
}

static void forget(struct bouts *bs, struct live *lv)
{
    for (int i = 0; i < bs->n; i++)
        if (bs->v[i] == lv) {
            bs->v[i] = bs->v[--bs->n];
            break;
        }
    free(lv);
}

/* Where to tell a player something privately: his identified nick, else
 * his account name (accounts are named after nicks). */
static const char *player_nick(struct bot *bot, const struct db_fighter *f)
{
    const char *nick = users_nick_of(bot->users, f->account_id);
    return nick ? nick : f->owner;
}

static void ask_orders(struct bot *bot, struct live *lv, int side, const char *extra)
{
    int round = lv->rec.round + 1;
    const char *nick = player_nick(bot, &lv->f[side]);
    const char *example = lv->rec.rules == RULES_BOXING ? "5H/8!/7 (inside)" : "3/2";

    bot_say(bot, OUTQ_REPLY, nick,
            "Bout #%lld, round %d of %d: your orders for %s (e.g. %s) within %d seconds%s%s",
            (long long)lv->rec.id, round, lv->rec.rounds, lv->f[side].name, example,
            bot->cfg.order_timeout, extra ? "; " : ".", extra ? extra : "");
}

/* --------------------------------------------------------------- loading */

/* Rebuilds a live bout from the database: fighters, then the stored orders
 * of every resolved round replayed from the seed. Returns NULL with err. */
static struct live *live_load(struct bot *bot, const struct db_bout *rec, char *err, size_t errlen)
{
    struct live *lv = xmalloc(sizeof(*lv));
    struct sheet sheets[SIDES];
    struct db_order ords[ORDERS_STORED];
    int n = 0;

    memset(lv, 0, sizeof(*lv));
    lv->rec = *rec;
    for (int s = 0; s < SIDES; s++) {
        if (db_fighter_get_id(bot->db, rec->fighter[s], &lv->f[s]) != DB_OK) {
            snprintf(err, errlen, "bout %lld: fighter %lld is missing", (long long)rec->id,
                     (long long)rec->fighter[s]);
            free(lv);
            return NULL;
        }
        corner_fill(&lv->corner[s], &lv->f[s]);
        /* The bout fights with the sheets it began with. */
        lv->corner[s].sheet = rec->sheet[s];
        sheets[s] = rec->sheet[s];
    }
    if (rec->state != DB_BOUT_LIVE)
        return lv;
    if (bout_init(&lv->b, rec->rules, sheets, rec->rounds) != 0 ||
        db_order_list(bot->db, rec->id, ords, ORDERS_STORED, &n) != DB_OK) {
        snprintf(err, errlen, "bout %lld cannot be rebuilt: %s", (long long)rec->id,
                 db_errmsg(bot->db));
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
        render_round(lv->corner, &lv->b, &evs, &lv->rng.flavour, lines);
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

struct bouts *bouts_new(struct bot *bot, char *err, size_t errlen)
{
    struct bouts *bs = xmalloc(sizeof(*bs));
    static struct db_bout recs[BOUTS_MAX];
    static const enum db_bout_state states[] = {DB_BOUT_CHALLENGE, DB_BOUT_LIVE};

    memset(bs, 0, sizeof(*bs));
    for (unsigned k = 0; k < sizeof(states) / sizeof(states[0]); k++) {
        int n = 0;
        if (db_bout_list(bot->db, states[k], recs, BOUTS_MAX - bs->n, &n) != DB_OK) {
            snprintf(err, errlen, "cannot read the bouts: %s", db_errmsg(bot->db));
            bouts_free(bs);
            return NULL;
        }
        for (int i = 0; i < n; i++) {
            struct live *lv = live_load(bot, &recs[i], err, errlen);
            if (!lv) {
                bouts_free(bs);
                return NULL;
            }
            bs->v[bs->n++] = lv;
        }
    }
    if (bs->n)
        log_msg(LOG_INFO, "%d challenges and live bouts restored", bs->n);
    return bs;
}

void bouts_free(struct bouts *bs)
{
    if (!bs)
        return;
    for (int i = 0; i < bs->n; i++)
        free(bs->v[i]);
    free(bs);
}

int bouts_fighter_busy(const struct bouts *bs, int64_t fighter_id)
{
    return find_fighter((struct bouts *)bs, fighter_id) != NULL;
}

int bouts_live(const struct bouts *bs)
{
    int n = 0;

    for (int i = 0; i < bs->n; i++)
        n += bs->v[i]->rec.state == DB_BOUT_LIVE;
    return n;
}

/* The commentary of bout `id` up to `round` is queued: once the queue has
 * sent it, the database learns it was said. */
static void said_later(struct bot *bot, int64_t id, int round)
{
    struct bouts *bs = bot->bouts;

    if (bs->nunsaid == UNSAID_MAX) {
        db_bout_said(bot->db, id, round); /* a flood: do not lose track */
        return;
    }
    bs->unsaid[bs->nunsaid++] = (struct unsaid){id, round};
}

/* Marks said what the queue has sent (everything, once it is empty). */
static void said_flush(struct bot *bot)
{
    struct bouts *bs = bot->bouts;

    if (!bs->nunsaid || outq_len(bot->q) > 0)
        return;
    for (int i = 0; i < bs->nunsaid; i++)
        if (db_bout_said(bot->db, bs->unsaid[i].id, bs->unsaid[i].round) == DB_ERROR)
            log_msg(LOG_WARN, "bout %lld: could not record its commentary as said: %s",
                    (long long)bs->unsaid[i].id, db_errmsg(bot->db));
    bs->nunsaid = 0;
}

/* Says again the commentary of rounds that were stored but never said: the
 * bot stopped (or lost the server) between the two. */
static void say_unsaid(struct bot *bot)
{
    static int64_t ids[256];
    static int said[256];
    static char text[SUMMARY_MAX];
    int n = 0;

    if (db_bout_unsaid(bot->db, ids, said, 256, &n) != DB_OK)
        return;
    for (int i = 0; i < n; i++) {
        struct db_bout rec;
        if (db_bout_get(bot->db, ids[i], &rec) != DB_OK)
            continue;
        bot_say(bot, OUTQ_CHATTER, rec.channel,
                "Bout #%lld: what I had not said yet when I stopped:", (long long)rec.id);
        for (int r = said[i] + 1; r <= rec.round; r++) {
            if (db_round_summary(bot->db, rec.id, r, text, sizeof(text)) != DB_OK)
                continue;
            for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
                bot_say(bot, OUTQ_CHATTER, rec.channel, "%s", line);
        }
        said_later(bot, rec.id, rec.round);
    }
}

void bouts_connected(struct bot *bot)
{
    struct bouts *bs = bot->bouts;

    say_unsaid(bot);
    for (int i = 0; i < bs->n; i++) {
        struct live *lv = bs->v[i];
        lv->deadline = bot->now + (lv->rec.state == DB_BOUT_LIVE ? bot->cfg.order_timeout
                                                                 : bot->cfg.challenge_timeout);
        lv->reminded = 0;
        if (lv->rec.state != DB_BOUT_LIVE)
            continue;
        bot_say(bot, OUTQ_CHATTER, lv->rec.channel,
                "Bout #%lld, %s vs %s, goes on: round %d of %d is next.", (long long)lv->rec.id,
                lv->f[0].name, lv->f[1].name, lv->rec.round + 1, lv->rec.rounds);
        for (int s = 0; s < SIDES; s++)
            ask_orders(bot, lv, s,
                       lv->have[s] ? "your orders for it are in already; to change them, "
                                     "identify again first (identify <password>)"
                                   : "identify again first (identify <password>)");
    }
}

/* ------------------------------------------------------------ resolving */

/* The order of `side` for the next round when he sent none: his plan, his
 * last orders, or the default. */
static void order_fallback(struct bot *bot, struct live *lv, int side, struct order *o,
                           struct db_order *dbo)
{
    static char text[DB_PLAN_MAX];
    struct parse_error err;

    dbo->line = 0;
    if (db_plan_get(bot->db, lv->f[side].id, text, sizeof(text)) == DB_OK) {
        struct plan *p = plan_compile(lv->rec.rules, text, &err);
        if (p) {
            struct plan_vars v;
            bout_plan_vars(&lv->b, side, &v);
            dbo->line = plan_eval(p, &v, o);
            plan_free(p);
            dbo->source = DB_ORDER_PLAN;
            return;
        }
        log_msg(LOG_WARN, "the stored plan of %s no longer compiles: %s", lv->f[side].name,
                err.reason);
    }
    if (lv->has_last[side]) {
        *o = lv->last[side];
        dbo->source = DB_ORDER_LAST;
        return;
    }
    ruleset_get(lv->rec.rules)->order_default(o);
    dbo->source = DB_ORDER_DEFAULT;
}

/* The records after the finished bout `b`, into f[] (copies). */
static void records_apply(const struct bout *b, struct db_fighter f[SIDES])
{
    const struct result *res = &b->result;

    for (int s = 0; s < SIDES; s++) {
        if (res->winner < 0) {
            f[s].draws++;
        } else if (res->winner == s) {
            f[s].wins++;
            f[s].kos += res->method == METHOD_KO || res->method == METHOD_TKO;
        } else {
            f[s].losses++;
        }
        if (b->rules == RULES_BOXING)
            f[s].training_points += boxing_training_points(res, s);
    }
    if (b->rules == RULES_SUGARRAY) {
        struct sugarray_sheet sh[SIDES] = {f[0].sheet.u.sugarray, f[1].sheet.u.sugarray};
        sugarray_after_bout(sh, res);
        f[0].sheet.u.sugarray = sh[0];
        f[1].sheet.u.sugarray = sh[1];
    }
}

static int join_lines(char *buf, size_t len, char lines[][RENDER_LINE_MAX], int n, size_t at)
{
    for (int i = 0; i < n && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "\n" : "", lines[i]);
    return (int)at;
}

/* Resolves the next round of `lv`. Returns 0, or -1 (nothing changed) if
 * it could not be stored. */
static int resolve(struct bot *bot, struct live *lv)
{
    struct order o[SIDES];
    struct db_order dbo[SIDES];
    struct bout nb = lv->b;
    struct bout_rng nr = lv->rng;
    struct events evs;
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX], result[RENDER_RESULT_MAX][RENDER_LINE_MAX];
    static char summary[SUMMARY_MAX], report[REPORT_MAX];
    int round = lv->rec.round + 1, nres = 0;

    for (int s = 0; s < SIDES; s++) {
        memset(&dbo[s], 0, sizeof(dbo[s]));
        dbo[s].round = round;
        dbo[s].side = s;
        if (lv->have[s]) {
            o[s] = lv->next[s];
            dbo[s].source = DB_ORDER_PLAYER;
        } else {
            order_fallback(bot, lv, s, &o[s], &dbo[s]);
        }
        bout_order_text(&o[s], dbo[s].text, sizeof(dbo[s].text));
    }
    if (bout_round(&nb, o, &nr, &evs) != 0) {
        log_msg(LOG_ERROR, "bout %lld round %d: the engine refused the orders %s / %s",
                (long long)lv->rec.id, round, dbo[0].text, dbo[1].text);
        return -1;
    }
    int n = render_round(lv->corner, &nb, &evs, &nr.flavour, lines);
    render_round_report(lv->corner, &nb, &evs, report, sizeof(report));
    if (nb.result.over)
        nres = render_result(lv->corner, &nb, &nr.flavour, result);
    size_t at = (size_t)join_lines(summary, sizeof(summary), lines, n, 0);
    join_lines(summary, sizeof(summary), result, nres, at);

    struct db_bout rec = lv->rec;
    struct db_fighter f[SIDES] = {lv->f[0], lv->f[1]};
    rec.round = nb.round;
    if (nb.result.over) {
        rec.state = DB_BOUT_OVER;
        rec.winner = nb.result.winner;
        rec.method = nb.result.method;
        rec.drawn_by = nb.result.drawn_by;
        rec.reason = nb.result.reason;
        rec.decision = nb.result.decision;
        rec.ended = (int64_t)time(NULL);
        records_apply(&nb, f);
    }
    int ok = db_begin(bot->db) == DB_OK && db_order_put(bot->db, rec.id, &dbo[0]) == DB_OK &&
             db_order_put(bot->db, rec.id, &dbo[1]) == DB_OK &&
             db_round_put(bot->db, rec.id, round, summary, report) == DB_OK &&
             db_bout_save(bot->db, &rec) == DB_OK &&
             (!nb.result.over || (db_fighter_save(bot->db, &f[0]) == DB_OK &&
                                  db_fighter_save(bot->db, &f[1]) == DB_OK));
    if (!ok || db_commit(bot->db) != DB_OK) {
        log_msg(LOG_ERROR, "bout %lld round %d not stored (%s); trying again", (long long)rec.id,
                round, db_errmsg(bot->db));
        db_rollback(bot->db);
        lv->deadline = bot->now + RETRY_AFTER;
        return -1;
    }

    /* Stored: now it happened. */
    lv->b = nb;
    lv->rng = nr;
    lv->rec = rec;
    for (int s = 0; s < SIDES; s++) {
        lv->last[s] = o[s];
        lv->has_last[s] = 1;
        lv->have[s] = 0;
        lv->f[s] = f[s];
    }
    for (int i = 0; i < n; i++)
        bot_say(bot, OUTQ_CHATTER, rec.channel, "%s", lines[i]);
    for (int i = 0; i < nres; i++)
        bot_say(bot, OUTQ_CHATTER, rec.channel, "%s", result[i]);
    said_later(bot, rec.id, round);
    if (nb.result.over) {
        log_msg(LOG_INFO, "bout %lld over after round %d", (long long)rec.id, round);
        for (int s = 0; s < SIDES; s++)
            if (rec.rules == RULES_BOXING && boxing_training_points(&nb.result, s))
                bot_say(bot, OUTQ_REPLY, player_nick(bot, &f[s]),
                        "%s earned %d training point%s: train <ability> %s", f[s].name,
                        boxing_training_points(&nb.result, s),
                        boxing_training_points(&nb.result, s) == 1 ? "" : "s", f[s].name);
        forget(bot->bouts, lv);
        return 0;
    }
    lv->deadline = bot->now + bot->cfg.order_timeout;
    lv->reminded = 0;
    for (int s = 0; s < SIDES; s++)
        ask_orders(bot, lv, s, NULL);
    return 0;
}

void bouts_tick(struct bot *bot)
{
    struct bouts *bs = bot->bouts;

    said_flush(bot);
    for (int i = 0; i < bs->n; i++) {
        struct live *lv = bs->v[i];
        if (!lv->deadline)
            continue;
        if (lv->rec.state == DB_BOUT_CHALLENGE) {
            if (bot->now < lv->deadline)
                continue;
            lv->rec.state = DB_BOUT_CANCELLED;
            lv->rec.ended = (int64_t)time(NULL);
            if (db_bout_save(bot->db, &lv->rec) != DB_OK) {
                lv->rec.state = DB_BOUT_CHALLENGE;
                lv->deadline = bot->now + RETRY_AFTER;
                continue;
            }
            bot_say(bot, OUTQ_CHATTER, lv->rec.channel,
                    "%s's challenge to %s (bout #%lld) expired unanswered.", lv->f[0].owner,
                    lv->f[1].owner, (long long)lv->rec.id);
            forget(bs, lv);
            i--;
            continue;
        }
        double left = lv->deadline - bot->now;
        if (left <= 0) {
            int before = bs->n;
            resolve(bot, lv);
            if (bs->n < before)
                i--;
            continue;
        }
        /* The reminder: 30 s before the end, or a third of a short timeout. */
        double remind = bot->cfg.order_timeout / 3.0 < REMIND_BEFORE ? bot->cfg.order_timeout / 3.0
                                                                     : REMIND_BEFORE;
        if (!lv->reminded && left <= remind) {
            lv->reminded = 1;
            for (int s = 0; s < SIDES; s++)
                if (!lv->have[s])
                    bot_say(bot, OUTQ_REPLY, player_nick(bot, &lv->f[s]),
                            "Bout #%lld: %.0f seconds left for your round %d orders; without "
                            "them your plan (or your last orders) will fight",
                            (long long)lv->rec.id, left, lv->rec.round + 1);
        }
    }
}

/* ------------------------------------------------------ finding things */

/* The caller's active fighters. */
static int my_fighters(struct cmd_ctx *ctx, struct db_fighter *out, int *n)
{
    if (db_fighter_list(ctx->bot->db, ctx->account_id, 0, out, MY_FIGHTERS_MAX, n) != DB_OK) {
        reply(ctx, "sorry, I could not look that up (database error)");
        return -1;
    }
    return 0;
}

/* A fighter of account `acc` for `rules`: the one named `name` (NULL: the
 * first free one). `whose` names the player in errors. */
static int pick_fighter(struct cmd_ctx *ctx, int64_t acc, const char *whose, enum rules rules,
                        const char *name, struct db_fighter *out)
{
    struct db_fighter list[MY_FIGHTERS_MAX];
    int n = 0, busy = 0;

    if (db_fighter_list(ctx->bot->db, acc, 0, list, MY_FIGHTERS_MAX, &n) != DB_OK) {
        reply(ctx, "sorry, I could not look that up (database error)");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (list[i].sheet.rules != rules)
            continue;
        if (name && strcasecmp(list[i].name, name) != 0)
            continue;
        if (find_fighter(ctx->bot->bouts, list[i].id)) {
            busy++;
            continue;
        }
        *out = list[i];
        return 0;
    }
    if (name)
        reply(ctx,
              busy ? "%s is already in a bout or a challenge" : "%s has no %s fighter called %s",
              busy ? name : whose, rules_name(rules), name);
    else if (busy)
        reply(ctx, "every %s fighter of %s is already in a bout or a challenge", rules_name(rules),
              whose);
    else
        reply(ctx, "%s has no %s fighter; create one: create <name> %s", whose, rules_name(rules),
              rules == RULES_BOXING ? "str=12 spd=12 agl=12 tgh=12 hgt=12" : "rules=sugarray");
    return -1;
}

/* The caller's live bout: the one numbered by `arg` (may be NULL, or "#12"
 * or "12"), else his only one. */
static struct live *my_live(struct cmd_ctx *ctx, const char *arg, int *side)
{
    struct bouts *bs = ctx->bot->bouts;
    struct live *found = NULL;
    int count = 0;

    if (arg) {
        char *end;
        long long id = strtoll(arg[0] == '#' ? arg + 1 : arg, &end, 10);
        struct live *lv = *end == '\0' ? find_id(bs, id) : NULL;
        if (!lv || lv->rec.state != DB_BOUT_LIVE) {
            reply(ctx, "there is no live bout %s; bouts lists them", arg);
            return NULL;
        }
        if ((*side = side_of(lv, ctx->account_id)) < 0) {
            reply(ctx, "bout #%lld is not yours: only its two players may act in it", id);
            return NULL;
        }
        return lv;
    }
    for (int i = 0; i < bs->n; i++)
        if (bs->v[i]->rec.state == DB_BOUT_LIVE && side_of(bs->v[i], ctx->account_id) >= 0) {
            found = bs->v[i];
            count++;
        }
    if (count == 0) {
        reply(ctx, "you have no live bout; challenge someone in the channel first");
        return NULL;
    }
    if (count > 1) {
        reply(ctx, "you are in %d bouts; say which: e.g. order #%lld 5/5/10", count,
              (long long)found->rec.id);
        return NULL;
    }
    *side = side_of(found, ctx->account_id);
    return found;
}

/* ------------------------------------------------------------ commands */

int cmd_challenge(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    struct bouts *bs = bot->bouts;
    const char *target = ctx->argv[0], *with = NULL, *vs = NULL;
    enum rules rules = RULES_BOXING;
    int rounds = 0;
    int64_t opp_id;
    const char *opp_name;
    struct db_account acc;
    char key[DB_NAME_MAX];

    for (int i = 1; i < ctx->argc; i++) {
        const char *a = ctx->argv[i];
        if (strncasecmp(a, "rules=", 6) == 0) {
            const struct ruleset *rs = ruleset_find(a + 6);
            if (!rs) {
                reply(ctx, "rules=%s: use rules=boxing or rules=sugarray", CLIP(a + 6, 20));
                return -1;
            }
            rules = rs->id;
        } else if (strncasecmp(a, "rounds=", 7) == 0) {
            char *end;
            long v = strtol(a + 7, &end, 10);
            if (*end || v < BOXING_ROUNDS_MIN || v > BOXING_ROUNDS_MAX) {
                reply(ctx, "rounds=%s: a boxing bout has %d to %d rounds", CLIP(a + 7, 20),
                      BOXING_ROUNDS_MIN, BOXING_ROUNDS_MAX);
                return -1;
            }
            rounds = (int)v;
        } else if (strncasecmp(a, "with=", 5) == 0) {
            with = a + 5;
        } else if (strncasecmp(a, "vs=", 3) == 0) {
            vs = a + 3;
        } else {
            reply(ctx,
                  "I don't understand \"%s\"; usage: challenge <nick> [rules=boxing|"
                  "sugarray] [rounds=N] [with=<your fighter>] [vs=<his fighter>]",
                  CLIP(a, 30));
            return -1;
        }
    }
    if (rules == RULES_SUGARRAY && rounds && rounds != SUGARRAY_ROUNDS) {
        reply(ctx, "a SUGAR RAY bout always has %d rounds; leave rounds= out", SUGARRAY_ROUNDS);
        return -1;
    }
    if (!rounds)
        rounds = rules == RULES_BOXING ? bot->cfg.rounds : SUGARRAY_ROUNDS;
    if (bs->n >= BOUTS_MAX) {
        reply(ctx, "there are %d bouts and challenges going on, the most; try again later", bs->n);
        return -1;
    }

    /* The opponent: whoever is identified under that nick, else the
     * account of that name (he can identify before accepting). */
    if (!users_account(bot->users, target, &opp_id, &opp_name)) {
        if (strlen(target) >= DB_NAME_MAX ||
            (bot_name_key(key, target, sizeof(key)), db_account_get(bot->db, key, &acc)) != DB_OK) {
            reply(ctx, "%s has no account here: he must register first", CLIP(target, 30));
            return -1;
        }
        opp_id = acc.id;
        opp_name = acc.name;
    }
    if (opp_id == ctx->account_id) {
        reply(ctx, "you cannot challenge yourself; challenge another player");
        return -1;
    }
    char opp[DB_NAME_MAX];
    snprintf(opp, sizeof(opp), "%s", opp_name);

    struct db_fighter mine, theirs;
    if (pick_fighter(ctx, ctx->account_id, "you", rules, with, &mine) != 0 ||
        pick_fighter(ctx, opp_id, opp, rules, vs, &theirs) != 0)
        return -1;

    struct db_bout rec;
    memset(&rec, 0, sizeof(rec));
    rec.rules = rules;
    snprintf(rec.channel, sizeof(rec.channel), "%s", ctx->channel);
    rec.rounds = rounds;
    rec.state = DB_BOUT_CHALLENGE;
    rec.kind = DB_BOUT_EXHIBITION; /* friends' bouts count in records only */
    rec.league = -1;
    rec.fighter[0] = mine.id;
    rec.fighter[1] = theirs.id;
    rec.sheet[0] = mine.sheet;
    rec.sheet[1] = theirs.sheet;
    rec.winner = -1;
    rec.created = (int64_t)time(NULL);
    if (db_bout_create(bot->db, &rec) != DB_OK) {
        log_msg(LOG_ERROR, "challenge: %s", db_errmsg(bot->db));
        reply(ctx, "sorry, I could not store the challenge (database error)");
        return -1;
    }
    char err[256];
    struct live *lv = live_load(bot, &rec, err, sizeof(err));
    if (!lv) {
        log_msg(LOG_ERROR, "challenge: %s", err);
        reply(ctx, "sorry, I could not set up the challenge (internal error)");
        return -1;
    }
    lv->deadline = bot->now + bot->cfg.challenge_timeout;
    bs->v[bs->n++] = lv;
    log_msg(LOG_INFO, "bout %lld: %s challenges %s", (long long)rec.id, ctx->account, opp);
    bot_say(bot, OUTQ_REPLY, ctx->channel,
            "%s challenges %s: %s vs %s, %s, %d rounds (bout #%lld). %s: say %saccept or "
            "%sdecline within %d minutes.",
            ctx->account, opp, mine.name, theirs.name, rules_name(rules), rounds, (long long)rec.id,
            opp, bot->cfg.prefix, bot->cfg.prefix, (bot->cfg.challenge_timeout + 59) / 60);
    return 0;
}

/* The pending challenge to (challenged) or from (challenger) the caller,
 * from/to account named `who` when given. */
static struct live *my_challenge(struct cmd_ctx *ctx, int challenged, const char *who)
{
    struct bouts *bs = ctx->bot->bouts;
    struct live *found = NULL;
    int count = 0;

    for (int i = 0; i < bs->n; i++) {
        struct live *lv = bs->v[i];
        if (lv->rec.state != DB_BOUT_CHALLENGE)
            continue;
        const struct db_fighter *me = &lv->f[challenged ? 1 : 0];
        const struct db_fighter *other = &lv->f[challenged ? 0 : 1];
        if (me->account_id != ctx->account_id)
            continue;
        if (who && irc_casecmp(CASEMAP_RFC1459, other->owner, who) != 0) {
            const char *nick = users_nick_of(ctx->bot->users, other->account_id);
            if (!nick || irc_casecmp(ctx->bot->cm, nick, who) != 0)
                continue;
        }
        found = lv;
        count++;
    }
    if (count == 0)
        reply(ctx, challenged ? "nobody has challenged you%s%s" : "you have no open challenge%s%s",
              who ? (challenged ? ": not " : " to ") : "", who ? who : "");
    else if (count > 1)
        reply(ctx, "%d challenges are open; say whose: %s <nick>", count,
              challenged ? "accept" : "withdraw");
    return count == 1 ? found : NULL;
}

int cmd_accept(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    struct live *lv = my_challenge(ctx, 1, ctx->argc ? ctx->argv[0] : NULL);

    if (!lv)
        return -1;
    if (irc_casecmp(bot->cm, lv->rec.channel, ctx->channel) != 0) {
        reply(ctx, "that challenge was made in %s; accept it there", lv->rec.channel);
        return -1;
    }
    struct db_bout rec = lv->rec;
    rec.state = DB_BOUT_LIVE;
    rec.seed = bot_seed();
    rec.started = (int64_t)time(NULL);
    if (bout_init(&lv->b, rec.rules, rec.sheet, rec.rounds) != 0) {
        reply(ctx, "sorry, the engine refused these fighters (internal error)");
        return -1;
    }
    if (db_bout_save(bot->db, &rec) != DB_OK) {
        log_msg(LOG_ERROR, "accept: %s", db_errmsg(bot->db));
        reply(ctx, "sorry, I could not start the bout (database error); try again");
        return -1;
    }
    lv->rec = rec;
    bout_rng_seed(&lv->rng, rec.seed);
    lv->deadline = bot->now + bot->cfg.order_timeout;
    lv->reminded = 0;
    log_msg(LOG_INFO, "bout %lld starts", (long long)rec.id);

    char tape[3][RENDER_LINE_MAX];
    int n = render_tape(lv->corner, rec.rules, rec.rounds, rec.id, tape, 3);
    for (int i = 0; i < n; i++)
        bot_say(bot, OUTQ_REPLY, rec.channel, "%s", tape[i]);
    for (int s = 0; s < SIDES; s++)
        ask_orders(bot, lv, s, "send them here, in private");
    return 0;
}

static int cancel_challenge(struct cmd_ctx *ctx, struct live *lv, const char *verb)
{
    struct bot *bot = ctx->bot;

    lv->rec.state = DB_BOUT_CANCELLED;
    lv->rec.ended = (int64_t)time(NULL);
    if (db_bout_save(bot->db, &lv->rec) != DB_OK) {
        lv->rec.state = DB_BOUT_CHALLENGE;
        reply(ctx, "sorry, I could not do that (database error)");
        return -1;
    }
    bot_say(bot, OUTQ_REPLY, lv->rec.channel, "%s %s the challenge (bout #%lld, %s vs %s).",
            ctx->account, verb, (long long)lv->rec.id, lv->f[0].name, lv->f[1].name);
    forget(bot->bouts, lv);
    return 0;
}

int cmd_decline(struct cmd_ctx *ctx)
{
    struct live *lv = my_challenge(ctx, 1, ctx->argc ? ctx->argv[0] : NULL);

    return lv ? cancel_challenge(ctx, lv, "declines") : -1;
}

int cmd_withdraw(struct cmd_ctx *ctx)
{
    struct live *lv = my_challenge(ctx, 0, ctx->argc ? ctx->argv[0] : NULL);

    return lv ? cancel_challenge(ctx, lv, "withdraws") : -1;
}

int cmd_forfeit(struct cmd_ctx *ctx)
{
    int side;
    struct live *lv = my_live(ctx, ctx->argc ? ctx->argv[0] : NULL, &side);

    if (!lv)
        return -1;
    /* The corner throws in the towel: an order like any other, so the bout
     * still replays from its stored orders. If it cannot be stored, the
     * orders the player had sent stand as they were. */
    struct order kept = lv->next[side];
    int had = lv->have[side];
    ruleset_get(lv->rec.rules)->order_default(&lv->next[side]);
    if (lv->rec.rules == RULES_BOXING)
        lv->next[side].u.boxing.towel = 1;
    else
        lv->next[side].u.sugarray.towel = 1;
    lv->have[side] = 1;
    long long id = (long long)lv->rec.id;
    if (resolve(ctx->bot, lv) != 0) {
        lv->next[side] = kept;
        lv->have[side] = had;
        reply(ctx, "sorry, I could not record that (database error); try again");
        return -1;
    }
    reply_private(ctx, "you conceded bout #%lld", id); /* lv is gone now */
    return 0;
}

/* Stores `text` as the caller's orders for the next round of `lv`. */
static int order_take(struct cmd_ctx *ctx, struct live *lv, int side, const char *text)
{
    struct bot *bot = ctx->bot;
    struct parse_error err;
    struct order o;
    char reason[PARSE_REASON_MAX + 32];

    if (order_parse(lv->rec.rules, text, &o, &err) != 0) {
        parse_error_format(&err, reason, sizeof(reason));
        reply(ctx, "not stored: %s", reason);
        return -1;
    }
    struct db_order dbo = {.round = lv->rec.round + 1, .side = side, .source = DB_ORDER_PLAYER};
    bout_order_text(&o, dbo.text, sizeof(dbo.text));
    if (db_order_put(bot->db, lv->rec.id, &dbo) != DB_OK) {
        log_msg(LOG_ERROR, "bout %lld: order not stored: %s", (long long)lv->rec.id,
                db_errmsg(bot->db));
        reply(ctx, "sorry, your orders were NOT stored (database error); send them again");
        return -1;
    }
    lv->next[side] = o;
    lv->have[side] = 1;
    reply(ctx, "round %d orders stored for %s: %s%s", dbo.round, lv->f[side].name, dbo.text,
          lv->have[!side] ? "" : " (you may change them until the round is fought)");
    if (lv->have[0] && lv->have[1])
        resolve(bot, lv);
    return 0;
}

int cmd_order(struct cmd_ctx *ctx)
{
    char text[256];
    const char *bout_arg = NULL;
    int first = 0, side;

    if (ctx->argv[0][0] == '#') {
        bout_arg = ctx->argv[0];
        first = 1;
    }
    if (first >= ctx->argc) {
        reply(ctx, "which orders? e.g. order 5H/8!/7 (inside)");
        return -1;
    }
    size_t len = 0;
    for (int i = first; i < ctx->argc && len < sizeof(text); i++)
        len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s", i > first ? " " : "",
                                ctx->argv[i]);
    struct live *lv = my_live(ctx, bout_arg, &side);
    if (!lv)
        return -1;
    return order_take(ctx, lv, side, text);
}

int bouts_private_order(struct cmd_ctx *ctx, const char *text)
{
    int side;

    while (*text == ' ')
        text++;
    if (!isdigit((unsigned char)text[0]))
        return 0;
    if (!ctx->account) {
        reply(ctx, "identify first (/msg %s identify <password>), then send your orders",
              ctx->bot->nick);
        return 1;
    }
    struct live *lv = my_live(ctx, NULL, &side);
    if (lv)
        order_take(ctx, lv, side, text);
    return 1;
}

/* ------------------------------------------------------------ plans */

/* `plan` picks the fighter: the one named first among the arguments after
 * the subcommand, else the caller's only fighter. Returns the index of the
 * first argument after the name. */
static int plan_fighter(struct cmd_ctx *ctx, struct db_fighter *f)
{
    struct db_fighter list[MY_FIGHTERS_MAX];
    int n = 0;

    if (my_fighters(ctx, list, &n) != 0)
        return -1;
    if (ctx->argc >= 2)
        for (int i = 0; i < n; i++)
            if (strcasecmp(list[i].name, ctx->argv[1]) == 0) {
                *f = list[i];
                return 2;
            }
    if (n == 1) {
        *f = list[0];
        return 1;
    }
    reply(ctx, n ? "which fighter? e.g. plan %s %s ..." : "you have no fighter yet%.0s%.0s",
          ctx->argv[0], n ? list[0].name : "");
    return -1;
}

int cmd_plan(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    const char *sub = ctx->argv[0];
    static char text[DB_PLAN_MAX];
    char summary[512], reason[PARSE_REASON_MAX + 40];
    struct parse_error err;
    struct db_fighter f;

    if (strcasecmp(sub, "set") && strcasecmp(sub, "show") && strcasecmp(sub, "clear") &&
        strcasecmp(sub, "check")) {
        reply(ctx, "plan set <lines separated by ;>, plan show, plan clear, or plan check "
                   "<lines>; see docs/plans.md");
        return -1;
    }
    int at = plan_fighter(ctx, &f);
    if (at < 0)
        return -1;
    if (!strcasecmp(sub, "show")) {
        int rc = db_plan_get(bot->db, f.id, text, sizeof(text));
        if (rc == DB_NOTFOUND) {
            reply(ctx, "%s has no plan: rounds you miss use your last orders", f.name);
            return 0;
        }
        if (rc != DB_OK) {
            reply(ctx, "sorry, I could not read it (database error)");
            return -1;
        }
        for (char *p = text; *p; p++)
            if (*p == '\n')
                *p = ';';
        reply(ctx, "%s's plan: %s", f.name, text);
        return 0;
    }
    if (!strcasecmp(sub, "clear")) {
        if (db_plan_clear(bot->db, f.id) != DB_OK) {
            reply(ctx, "sorry, I could not clear it (database error)");
            return -1;
        }
        reply(ctx, "%s's plan is cleared", f.name);
        return 0;
    }
    if (at >= ctx->argc) {
        reply(ctx, "give the plan's lines, separated by ;, e.g. plan %s 1) 5/5/10; 6) 4/6/10", sub);
        return -1;
    }
    size_t len = 0;
    for (int i = at; i < ctx->argc && len < sizeof(text); i++)
        len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s", i > at ? " " : "",
                                ctx->argv[i]);
    struct plan *p = plan_compile(f.sheet.rules, text, &err);
    if (!p) {
        parse_error_format(&err, reason, sizeof(reason));
        reply(ctx, "plan refused, nothing stored: %s", reason);
        return -1;
    }
    plan_summary(p, summary, sizeof(summary));
    plan_free(p);
    if (!strcasecmp(sub, "check")) {
        reply(ctx, "the plan is fine (not stored): %s", summary);
        return 0;
    }
    if (db_plan_set(bot->db, f.id, text, (int64_t)time(NULL)) != DB_OK) {
        reply(ctx, "sorry, I could not store it (database error)");
        return -1;
    }
    reply(ctx, "%s's plan stored: %s", f.name, summary);
    return 0;
}

/* ------------------------------------------------------- spectators */

int cmd_bouts(struct cmd_ctx *ctx)
{
    struct bouts *bs = ctx->bot->bouts;
    char text[440];
    size_t len = 0;
    int shown = 0, live = 0;

    for (int i = 0; i < bs->n; i++) {
        const struct live *lv = bs->v[i];
        if (lv->rec.state != DB_BOUT_LIVE)
            continue;
        live++;
        if (len < 360) {
            len += (size_t)snprintf(
                text + len, sizeof(text) - len, "%s#%lld %s vs %s (%s, round %d/%d, %s)",
                shown ? "; " : "", (long long)lv->rec.id, lv->f[0].name, lv->f[1].name,
                rules_name(lv->rec.rules), lv->rec.round + 1, lv->rec.rounds, lv->rec.channel);
            shown++;
        }
    }
    if (!live)
        reply(ctx, "no live bouts; challenge someone: challenge <nick>");
    else
        reply(ctx, "%d live: %s%s", live, text, shown < live ? "; ..." : "");
    return 0;
}

int cmd_score(struct cmd_ctx *ctx)
{
    struct bouts *bs = ctx->bot->bouts;
    struct live *lv = NULL;
    char line[RENDER_LINE_MAX];

    if (ctx->argc) {
        const char *a = ctx->argv[0][0] == '#' ? ctx->argv[0] + 1 : ctx->argv[0];
        char *end;
        long long id = strtoll(a, &end, 10);
        lv = *end ? NULL : find_id(bs, id);
    } else {
        int live = 0;
        for (int i = 0; i < bs->n; i++)
            if (bs->v[i]->rec.state == DB_BOUT_LIVE &&
                (!ctx->channel ||
                 irc_casecmp(ctx->bot->cm, bs->v[i]->rec.channel, ctx->channel) == 0)) {
                lv = bs->v[i];
                live++;
            }
        if (live > 1) {
            reply(ctx, "%d bouts are live here; say which: score <bout>", live);
            return -1;
        }
    }
    if (!lv || lv->rec.state != DB_BOUT_LIVE) {
        reply(ctx, "no such live bout; bouts lists them, report <bout> tells a finished one");
        return -1;
    }
    render_score(lv->corner, &lv->b, line, sizeof(line));
    reply(ctx, "%s", line);
    return 0;
}

int cmd_report(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    const char *a = ctx->argv[0][0] == '#' ? ctx->argv[0] + 1 : ctx->argv[0];
    char *end;
    long long id = strtoll(a, &end, 10);
    struct db_bout rec;
    static char text[REPORT_MAX];

    if (*end || id <= 0 || db_bout_get(bot->db, id, &rec) != DB_OK) {
        reply(ctx, "there is no bout %s; bouts lists the live ones", CLIP(ctx->argv[0], 20));
        return -1;
    }
    int from = 1, to = rec.round;
    if (ctx->argc == 2) {
        long r = strtol(ctx->argv[1], &end, 10);
        if (*end || r < 1 || r > rec.round) {
            reply(ctx, "bout #%lld has rounds 1 to %d so far", id, rec.round);
            return -1;
        }
        from = to = (int)r;
    }
    if (rec.round == 0) {
        reply(ctx, "bout #%lld has no round fought yet", id);
        return 0;
    }
    reply_private(ctx, "Report of bout #%lld, rounds %d to %d:", id, from, to);
    for (int r = from; r <= to; r++) {
        if (db_round_report(bot->db, id, r, text, sizeof(text)) != DB_OK)
            continue;
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
            bot_say(bot, OUTQ_REPLY, ctx->nick, "%s", line);
    }
    return 0;
}

/* --------------------------------------------------------------- admin */

int cmd_set(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    struct db_fighter f;
    char key[DB_NAME_MAX], what[400];

    if (strlen(ctx->argv[0]) >= DB_NAME_MAX) {
        reply(ctx, "there is no fighter %s", CLIP(ctx->argv[0], 31));
        return -1;
    }
    bot_name_key(key, ctx->argv[0], sizeof(key));
    if (db_fighter_get(bot->db, key, &f) != DB_OK) {
        reply(ctx, "there is no fighter %s", ctx->argv[0]);
        return -1;
    }
    if (find_fighter(bot->bouts, f.id)) {
        reply(ctx, "%s is in a bout or a challenge; set his sheet after it", f.name);
        return -1;
    }
    struct db_fighter nf = f;
    for (int i = 1; i < ctx->argc; i++) {
        const char *a = ctx->argv[i], *eq = strchr(a, '=');
        char *end;
        long v = eq ? strtol(eq + 1, &end, 10) : 0;
        if (!eq || eq == a || !eq[1] || *end) {
            reply(ctx, "\"%s\" is not key=number; e.g. set %s str=14 wins=3", CLIP(a, 30), f.name);
            return -1;
        }
        size_t k = (size_t)(eq - a);
        struct {
            const char *name;
            int *field;
            enum rules rules; /* RULES_COUNT: any */
            long lo, hi;
        } keys[] = {
            {"str", &nf.sheet.u.boxing.str, RULES_BOXING, BOXING_ABILITY_MIN, BOXING_ABILITY_MAX},
            {"spd", &nf.sheet.u.boxing.spd, RULES_BOXING, BOXING_ABILITY_MIN, BOXING_ABILITY_MAX},
            {"agl", &nf.sheet.u.boxing.agl, RULES_BOXING, BOXING_ABILITY_MIN, BOXING_ABILITY_MAX},
            {"tgh", &nf.sheet.u.boxing.tgh, RULES_BOXING, BOXING_ABILITY_MIN, BOXING_ABILITY_MAX},
            {"hgt", &nf.sheet.u.boxing.hgt, RULES_BOXING, BOXING_ABILITY_MIN, BOXING_ABILITY_MAX},
            {"skill", &nf.sheet.u.sugarray.skill, RULES_SUGARRAY, 1, 99},
            {"end", &nf.sheet.u.sugarray.endurance, RULES_SUGARRAY, 1, 999},
            {"wins", &nf.wins, RULES_COUNT, 0, 100000},
            {"losses", &nf.losses, RULES_COUNT, 0, 100000},
            {"draws", &nf.draws, RULES_COUNT, 0, 100000},
            {"kos", &nf.kos, RULES_COUNT, 0, 100000},
            {"training", &nf.training_points, RULES_COUNT, 0, 1000},
        };
        int found = 0;
        for (unsigned j = 0; j < sizeof(keys) / sizeof(keys[0]); j++) {
            if (strlen(keys[j].name) != k || strncasecmp(keys[j].name, a, k) != 0)
                continue;
            if (keys[j].rules != RULES_COUNT && keys[j].rules != f.sheet.rules)
                break;
            if (v < keys[j].lo || v > keys[j].hi) {
                reply(ctx, "%s must be %ld to %ld", keys[j].name, keys[j].lo, keys[j].hi);
                return -1;
            }
            *keys[j].field = (int)v;
            found = 1;
        }
        if (!found) {
            reply(ctx,
                  "%s is not a key for a %s fighter; keys: %s, wins, losses, draws, kos, "
                  "training",
                  irc_clip((char[21]){0}, 21, a, k < 20 ? k : 20), rules_name(f.sheet.rules),
                  f.sheet.rules == RULES_BOXING ? "str, spd, agl, tgh, hgt" : "skill, end");
            return -1;
        }
    }
    if (ctx->argc < 2) {
        reply(ctx, "set what? e.g. set %s str=14 wins=3", f.name);
        return -1;
    }
    size_t len = (size_t)snprintf(what, sizeof(what), "set %s:", f.name);
    for (int i = 1; i < ctx->argc && len < sizeof(what); i++)
        len += (size_t)snprintf(what + len, sizeof(what) - len, " %s", ctx->argv[i]);
    if (db_begin(bot->db) != DB_OK || db_fighter_save(bot->db, &nf) != DB_OK ||
        db_audit(bot->db, (int64_t)time(NULL), ctx->account, what) != DB_OK ||
        db_commit(bot->db) != DB_OK) {
        log_msg(LOG_ERROR, "set %s: %s", f.name, db_errmsg(bot->db));
        db_rollback(bot->db);
        reply(ctx, "sorry, nothing changed (database error)");
        return -1;
    }
    log_msg(LOG_INFO, "admin %s: %s", ctx->account, what);
    reply(ctx, "done: %s", what);
    return 0;
}

int cmd_cancel(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    const char *a = ctx->argv[0][0] == '#' ? ctx->argv[0] + 1 : ctx->argv[0];
    char *end, what[128];
    long long id = strtoll(a, &end, 10);
    struct live *lv = *end ? NULL : find_id(bot->bouts, id);

    if (!lv) {
        reply(ctx, "there is no live bout or challenge %s", CLIP(ctx->argv[0], 20));
        return -1;
    }
    struct db_bout rec = lv->rec;
    rec.state = DB_BOUT_CANCELLED;
    rec.ended = (int64_t)time(NULL);
    snprintf(what, sizeof(what), "cancel bout %lld", id);
    if (db_begin(bot->db) != DB_OK || db_bout_save(bot->db, &rec) != DB_OK ||
        db_audit(bot->db, rec.ended, ctx->account, what) != DB_OK || db_commit(bot->db) != DB_OK) {
        db_rollback(bot->db);
        reply(ctx, "sorry, nothing changed (database error)");
        return -1;
    }
    log_msg(LOG_INFO, "admin %s: %s", ctx->account, what);
    bot_say(bot, OUTQ_REPLY, rec.channel, "Bout #%lld (%s vs %s) is cancelled by %s: no result.",
            id, lv->f[0].name, lv->f[1].name, ctx->account);
    if (!ctx->channel || irc_casecmp(bot->cm, ctx->channel, rec.channel) != 0)
        reply(ctx, "bout #%lld cancelled", id);
    forget(bot->bouts, lv);
    return 0;
}
