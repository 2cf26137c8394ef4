/*
 * users.c - who is who: channel membership, identities and inbound rate.
 *
 * One entry per nick the bot has reason to remember: someone in one of its
 * channels, someone identified, or someone whose command rate is being
 * watched (a token bucket a nick: users_rate). An identity never outlives
 * the evidence that the same person still holds the nick: it ends on QUIT,
 * when he is in none of the bot's channels (the bot would not see him
 * quit), and on every reconnect.
 *
 * Entries live in one array (a removal moves the last entry into the gap),
 * found through a hash index of their folded nicks: a command or a line
 * of commentary looks a nick up in the same time with ten users or ten
 * thousand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

#define NICK_MAX 64

struct user {
    char nick[NICK_MAX];
    char key[NICK_MAX]; /* folded nick */
    uint32_t chans;     /* bit c: in the bot's channel c */
    int identified;
    int via_services; /* the identity came from his services account */
    int64_t account_id;
    char account[DB_NAME_MAX];
    int svc_known; /* what services say of him is known */
    /* His services account, "" if none; one byte more than a name may
     * have, so a name too long stays too long (never cut into another). */
    char services[DB_NAME_MAX + 1];
    double svc_at; /* when it was learnt */
    /* His bucket, in thirds of a command (USERS_RATE_FULL an action, 1
     * help, a typo or a refusal): `spent` is what it lacks of full (0:
     * full, as a new entry's), as of `spent_at`; it refills at the rate
     * set, so a full bucket needs no clock. */
    double spent, spent_at;
    int lightable;    /* the last command was charged in full: it may cost a third */
    int told;         /* told he is limited since his last command ran */
    double told_at;   /* when he was last told */
    double warned_at; /* when he was last told in full (0: never) */
    int hinted;       /* hinted_at is set */
    double hinted_at;
};

struct users {
    struct user *v;
    int n, cap;
    /* The index: slot[] holds an entry's place + 1 (0: empty), open
     * addressing with linear probing, at most half full. */
    int *slot;
    size_t nslot;
    /* Who is identified as an account, by account id: an entry's place + 1
     * in the first ACCT_PROBES slots from the id's home, set at login and
     * when an entry moves; a hint only, checked at every use (the entry
     * must still be identified as that account), so a stale or
     * overwritten slot costs a scan, never a wrong nick. */
    int *acct;
    size_t nacct;
    enum casemapping cm;
    /* The inbound limit: buckets of cmds commands (`full` thirds), refilled
     * at cmds a window s (rate thirds a second); a nick who goes on
     * sending past it waits at most pause s. */
    int cmds;
    double window, pause;
    double full, rate;
};

struct users *users_new(void)
{
    struct users *u = xmalloc(sizeof(*u));

    memset(u, 0, sizeof(*u));
    u->cm = CASEMAP_RFC1459;
    users_set_rate(u, USERS_RATE_CMDS, USERS_RATE_WINDOW, USERS_RATE_PAUSE);
    return u;
}

/* Bad values are clamped: 1 to USERS_RATE_CMDS_MAX commands, a window of at
 * least 1 s, a pause of at least 0 s. A bucket keeps what it lacks (a
 * reload gives no flooder a fresh burst), within the new limits. */
void users_set_rate(struct users *u, int cmds, double window, double pause)
{
    u->cmds = cmds < 1 ? 1 : cmds > USERS_RATE_CMDS_MAX ? USERS_RATE_CMDS_MAX : cmds;
    u->window = window >= 1 ? window : 1;
    u->pause = pause >= 0 ? pause : 0;
    u->full = (double)u->cmds * USERS_RATE_FULL;
    u->rate = u->full / u->window;
    double most = u->full - USERS_RATE_FULL + u->rate * u->pause;
    for (int i = 0; i < u->n; i++) {
        if (u->v[i].spent > most)
            u->v[i].spent = most;
        u->v[i].lightable = 0;
    }
}

void users_free(struct users *u)
{
    if (!u)
        return;
    free(u->v);
    free(u->slot);
    free(u->acct);
    free(u);
}

/* ------------------------------------------------------------ the index */

/* FNV-1a of a folded nick, in slots of the index. */
static size_t key_home(const struct users *u, const char *key)
{
    uint64_t h = 0xcbf29ce484222325u;

    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 0x100000001b3u;
    return (size_t)(h ^ (h >> 32)) & (u->nslot - 1);
}

static void index_put(struct users *u, int i)
{
    size_t k = key_home(u, u->v[i].key);

    while (u->slot[k])
        k = (k + 1) & (u->nslot - 1);
    u->slot[k] = i + 1;
}

/* The index again from the array, with room for `n` entries. */
static void index_rebuild(struct users *u, int n)
{
    size_t want = 64;

    while (want < 2 * (size_t)n + 2)
        want *= 2;
    if (want != u->nslot) {
        free(u->slot);
        u->slot = xmalloc(want * sizeof(*u->slot));
        u->nslot = want;
    }
    memset(u->slot, 0, u->nslot * sizeof(*u->slot));
    for (int i = 0; i < u->n; i++)
        index_put(u, i);
}

/* The slot of the index holding entry i. */
static size_t index_slot(const struct users *u, int i)
{
    size_t k = key_home(u, u->v[i].key);

    while (u->slot[k] != i + 1)
        k = (k + 1) & (u->nslot - 1);
    return k;
}

/* Takes entry i out of the index: the entries behind it in its run move
 * back when their home allows (no tombstones). */
static void index_del(struct users *u, int i)
{
    size_t mask = u->nslot - 1, gap = index_slot(u, i);

    for (size_t j = (gap + 1) & mask; u->slot[j]; j = (j + 1) & mask) {
        size_t h = key_home(u, u->v[u->slot[j] - 1].key);
        int movable = gap <= j ? (h <= gap || h > j) : (h <= gap && h > j);
        if (movable) {
            u->slot[gap] = u->slot[j];
            gap = j;
        }
    }
    u->slot[gap] = 0;
}

/* ------------------------------------------------- by account, hinted */

#define ACCT_PROBES 4

static size_t acct_home(const struct users *u, int64_t account_id)
{
    uint64_t h = (uint64_t)account_id * 0x9e3779b97f4a7c15u;
    return (size_t)(h >> 32) & (u->nacct - 1);
}

/* Whether entry i (a place + 1 from the table, 0 for none) is the one
 * identified as account_id. */
static int acct_is(const struct users *u, int slot, int64_t account_id)
{
    return slot > 0 && slot <= u->n && u->v[slot - 1].identified &&
           u->v[slot - 1].account_id == account_id;
}

/* Notes that entry i is identified as its account: in a free, stale or
 * same-account slot of its probes, else over its home. */
static void acct_put(struct users *u, int i)
{
    if (!u->nacct)
        return;
    int64_t id = u->v[i].account_id;
    size_t home = acct_home(u, id);
    for (size_t p = 0; p < ACCT_PROBES; p++) {
        size_t k = (home + p) & (u->nacct - 1);
        int at = u->acct[k];
        if (!at || at == i + 1 || !acct_is(u, at, u->v[at - 1].account_id) ||
            u->v[at - 1].account_id == id) {
            u->acct[k] = i + 1;
            return;
        }
    }
    u->acct[home] = i + 1;
}

/* A table for `cap` entries, filled again from the array. */
static void acct_rebuild(struct users *u, int cap)
{
    size_t want = 64;

    while (want < 2 * (size_t)cap + 2)
        want *= 2;
    if (want != u->nacct) {
        free(u->acct);
        u->acct = xmalloc(want * sizeof(*u->acct));
        u->nacct = want;
    }
    memset(u->acct, 0, u->nacct * sizeof(*u->acct));
    for (int i = 0; i < u->n; i++)
        if (u->v[i].identified)
            acct_put(u, i);
}

/* Forgets entry i: the last one moves into its place. */
static void remove_at(struct users *u, int i)
{
    int last = u->n - 1;

    index_del(u, i);
    if (i != last) {
        index_del(u, last);
        u->v[i] = u->v[last];
        index_put(u, i);
    }
    u->n--;
    if (i != last && u->v[i].identified)
        acct_put(u, i);
}

/* ------------------------------------------------------------ entries */

void users_reset(struct users *u)
{
    u->n = 0;
    if (u->slot)
        memset(u->slot, 0, u->nslot * sizeof(*u->slot));
    if (u->acct)
        memset(u->acct, 0, u->nacct * sizeof(*u->acct));
}

void users_set_casemap(struct users *u, enum casemapping cm)
{
    u->cm = cm;
    for (int i = 0; i < u->n; i++)
        irc_casefold(cm, u->v[i].key, u->v[i].nick, sizeof(u->v[i].key));
    index_rebuild(u, u->n);
}

static struct user *find(const struct users *u, const char *nick)
{
    char key[NICK_MAX];

    if (!u->n)
        return NULL;
    irc_casefold(u->cm, key, nick, sizeof(key));
    for (size_t k = key_home(u, key); u->slot[k]; k = (k + 1) & (u->nslot - 1))
        if (strcmp(u->v[u->slot[k] - 1].key, key) == 0)
            return &u->v[u->slot[k] - 1];
    return NULL;
}

static struct user *get(struct users *u, const char *nick)
{
    struct user *e = find(u, nick);

    if (e)
        return e;
    if (u->n == u->cap) {
        u->cap = u->cap ? u->cap * 2 : 64;
        u->v = xrealloc(u->v, (size_t)u->cap * sizeof(*u->v));
    }
    if (2 * ((size_t)u->n + 1) + 2 > u->nslot)
        index_rebuild(u, u->cap);
    if (2 * ((size_t)u->n + 1) + 2 > u->nacct)
        acct_rebuild(u, u->cap);
    e = &u->v[u->n++];
    memset(e, 0, sizeof(*e));
    snprintf(e->nick, sizeof(e->nick), "%s", nick);
    irc_casefold(u->cm, e->key, nick, sizeof(e->key));
    index_put(u, u->n - 1);
    return e;
}

static double rate_spent(const struct users *u, const struct user *e, double now);

/* Drops an entry that holds nothing worth keeping at time `now`: no
 * channel, no identity, a full bucket (a new entry's). */
static int stale(const struct users *u, const struct user *e, double now)
{
    return !e->chans && !e->identified && rate_spent(u, e, now) <= 0;
}

/* Forgets every stale entry (walking back: the last one moves into i). */
static void sweep(struct users *u, double now)
{
    for (int i = u->n - 1; i >= 0; i--)
        if (stale(u, &u->v[i], now))
            remove_at(u, i);
}

void users_join(struct users *u, const char *nick, int chan)
{
    if (chan < 0 || chan >= USERS_CHANNELS)
        return;
    get(u, nick)->chans |= 1u << chan;
}

static int lose_channels(struct user *e, uint32_t mask)
{
    int ended = 0;

    e->chans &= ~mask;
    if (!e->chans)
        e->svc_known = 0; /* unseen from now on: his account could change */
    if (!e->chans && e->identified) {
        e->identified = 0;
        ended = 1;
    }
    /* Kept while his command rate still matters; users_rate sweeps it. */
    return ended;
}

int users_part(struct users *u, const char *nick, int chan)
{
    struct user *e = find(u, nick);

    if (!e || chan < 0 || chan >= USERS_CHANNELS)
        return 0;
    return lose_channels(e, 1u << chan);
}

int users_chan_gone(struct users *u, int chan)
{
    int ended = 0;

    if (chan < 0 || chan >= USERS_CHANNELS)
        return 0;
    for (int i = u->n - 1; i >= 0; i--)
        if (u->v[i].chans & (1u << chan))
            ended += lose_channels(&u->v[i], 1u << chan);
    return ended;
}

int users_quit(struct users *u, const char *nick)
{
    struct user *e = find(u, nick);

    if (!e)
        return 0;
    int ended = e->identified;
    remove_at(u, (int)(e - u->v));
    return ended;
}

void users_rename(struct users *u, const char *old_nick, const char *new_nick)
{
    struct user *e = find(u, old_nick);

    if (!e)
        return;
    struct user *clash = find(u, new_nick);
    if (clash && clash != e) {
        /* A stale entry under the new nick belongs to nobody now. */
        remove_at(u, (int)(clash - u->v));
        e = find(u, old_nick);
    }
    int i = (int)(e - u->v);
    index_del(u, i);
    snprintf(e->nick, sizeof(e->nick), "%s", new_nick);
    irc_casefold(u->cm, e->key, new_nick, sizeof(e->key));
    index_put(u, i);
}

int users_present(const struct users *u, const char *nick)
{
    const struct user *e = find(u, nick);

    return e && e->chans;
}

int users_in(const struct users *u, const char *nick, int chan)
{
    const struct user *e = find(u, nick);

    return e && chan >= 0 && chan < USERS_CHANNELS && (e->chans & (1u << chan));
}

void users_login(struct users *u, const char *nick, int64_t account_id, const char *account)
{
    struct user *e = get(u, nick);

    e->identified = 1;
    e->via_services = 0;
    e->account_id = account_id;
    snprintf(e->account, sizeof(e->account), "%s", account);
    acct_put(u, (int)(e - u->v));
}

void users_login_services(struct users *u, const char *nick, int64_t account_id,
                          const char *account)
{
    users_login(u, nick, account_id, account);
    get(u, nick)->via_services = 1;
}

int users_via_services(const struct users *u, const char *nick)
{
    const struct user *e = find(u, nick);

    return e && e->identified && e->via_services;
}

void users_set_services(struct users *u, const char *nick, const char *account, double now)
{
    struct user *e = get(u, nick);

    e->svc_known = 1;
    e->svc_at = now;
    snprintf(e->services, sizeof(e->services), "%s", account ? account : "");
}

int users_services(const struct users *u, const char *nick, const char **account, double *when)
{
    const struct user *e = find(u, nick);

    if (!e || !e->svc_known)
        return -1;
    if (account)
        *account = e->services;
    if (when)
        *when = e->svc_at;
    return e->services[0] != '\0';
}

void users_logout(struct users *u, const char *nick)
{
    struct user *e = find(u, nick);

    if (e)
        e->identified = 0;
}

int users_logout_account(struct users *u, int64_t account_id)
{
    int n = 0;

    for (int i = 0; i < u->n; i++)
        if (u->v[i].identified && u->v[i].account_id == account_id) {
            u->v[i].identified = 0;
            n++;
        }
    return n;
}

int users_account(const struct users *u, const char *nick, int64_t *account_id,
                  const char **account)
{
    const struct user *e = find(u, nick);

    if (!e || !e->identified)
        return 0;
    if (account_id)
        *account_id = e->account_id;
    if (account)
        *account = e->account;
    return 1;
}

int users_count(const struct users *u)
{
    return u->n;
}

const char *users_nick_of(const struct users *u, int64_t account_id)
{
    if (u->nacct) {
        size_t home = acct_home(u, account_id);
        for (size_t p = 0; p < ACCT_PROBES; p++) {
            int at = u->acct[(home + p) & (u->nacct - 1)];
            if (acct_is(u, at, account_id))
                return u->v[at - 1].nick;
        }
    }
    /* Not noted (or overwritten): the array is the truth. */
    for (int i = 0; i < u->n; i++)
        if (u->v[i].identified && u->v[i].account_id == account_id)
            return u->v[i].nick;
    return NULL;
}

/* What e's bucket lacks of full at `now` (never below 0): what it lacked
 * when last counted, less what refilled since. */
static double rate_spent(const struct users *u, const struct user *e, double now)
{
    double spent = e->spent - (now > e->spent_at ? (now - e->spent_at) * u->rate : 0);

    return spent > 0 ? spent : 0;
}

/* A command refused for the limit counts a third: one who goes on sending
 * while told to wait waits longer, at most u->pause more than a command's
 * worth takes to come back (never less than he already waits). */
static void rate_refused(const struct users *u, struct user *e)
{
    double most = u->full - USERS_RATE_FULL + u->rate * u->pause;

    if (e->spent < most)
        e->spent = e->spent + 1 < most ? e->spent + 1 : most;
}

enum users_rate users_rate(struct users *u, const char *nick, double now)
{
    return users_rate_as(u, nick, now, USERS_RATE_FULL);
}

enum users_rate users_rate_as(struct users *u, const char *nick, double now, int cost)
{
    /* Nicks that only ever messaged the bot would pile up: before the
     * array grows, the stale ones go. */
    if (u->n == u->cap && !find(u, nick))
        sweep(u, now);
    struct user *e = get(u, nick);

    e->spent = rate_spent(u, e, now);
    e->spent_at = now > e->spent_at ? now : e->spent_at;
    cost = cost == 1 ? 1 : USERS_RATE_FULL;
    if (e->spent <= u->full - cost) { /* what it costs is there */
        e->spent += cost;
        e->lightable = cost == USERS_RATE_FULL;
        e->told = 0;
        return USERS_RATE_OK;
    }
    e->lightable = 0;
    rate_refused(u, e);
    /* Silence only between two refusals: once a command ran since the
     * last notice, the next refusal says when to go on again. */
    if (e->told && now - e->told_at < USERS_RATE_TELL_EVERY)
        return USERS_RATE_IGNORE;
    /* The whole explanation once; while it is fresh, a refusal after a
     * command ran only says how long (a flooder the server passes on one
     * line a second gets a command through now and then). */
    int fresh = e->warned_at > 0 && now - e->warned_at < USERS_RATE_WARN_AGAIN;
    enum users_rate st = e->told || fresh ? USERS_RATE_TELL : USERS_RATE_WARN;
    if (st == USERS_RATE_WARN)
        e->warned_at = now;
    e->told = 1;
    e->told_at = now;
    return st;
}

void users_rate_light(struct users *u, const char *nick)
{
    struct user *e = find(u, nick);

    if (!e || !e->lightable)
        return;
    e->lightable = 0;
    e->spent -= USERS_RATE_FULL - 1;
    if (e->spent < 0)
        e->spent = 0;
}

double users_rate_wait(const struct users *u, const char *nick, double now)
{
    const struct user *e = find(u, nick);
    double over = e ? rate_spent(u, e, now) - (u->full - USERS_RATE_FULL) : 0;

    return over > 0 ? over / u->rate : 0;
}

int users_hint_due(struct users *u, const char *nick, double now, double every)
{
    struct user *e = get(u, nick);

    if (e->hinted && now - e->hinted_at < every)
        return 0;
    e->hinted = 1;
    e->hinted_at = now;
    return 1;
}

/* ------------------------------------------ what servers say of logins */

/* An account word as servers send it: "*" and "" mean none. */
static const char *account_word(const char *a)
{
    return !*a || strcmp(a, "*") == 0 ? NULL : a;
}

int users_parse_whox(const char **params, unsigned int count, const char *token,
                     struct users_seen *out)
{
    if (count < 4 || strcmp(params[1], token) != 0)
        return 0;
    out->nick = params[2];
    out->account = strcmp(params[3], "0") == 0 ? NULL : account_word(params[3]);
    return 1;
}

int users_parse_join(const char *nick, const char **params, unsigned int count,
                     struct users_seen *out)
{
    if (count < 3 || !nick || !*nick)
        return 0;
    out->nick = nick;
    out->account = account_word(params[1]);
    return 1;
}

int users_parse_account(const char *nick, const char **params, unsigned int count,
                        struct users_seen *out)
{
    if (count < 1 || !nick || !*nick)
        return 0;
    out->nick = nick;
    out->account = account_word(params[0]);
    return 1;
}

int users_parse_whoisaccount(const char **params, unsigned int count, struct users_seen *out)
{
    if (count < 3)
        return 0;
    out->nick = params[1];
    out->account = account_word(params[2]);
    return 1;
}

void users_origin_nick(const char *origin, char *nick, size_t len)
{
    size_t n = origin ? strcspn(origin, "!@") : 0;

    if (n >= len)
        n = len - 1;
    memcpy(nick, origin ? origin : "", n);
    nick[n] = '\0';
}
