/*
 * auth.c - passwords: yescrypt hashes through libcrypt (libxcrypt).
 *
 * A fresh salt comes from crypt_gensalt_rn with the OS's randomness; a hash
 * is checked by hashing the candidate with the stored setting and comparing
 * in constant time. Passwords are never logged or stored in clear.
 *
 * Guessing is slowed and seen: after AUTH_FREE wrong passwords for an
 * account (counted in the database, so a restart keeps them) or from a
 * source (a host, or a nick when the host is hidden: kept in memory), each
 * further try waits twice as long after the last failure, up to
 * AUTH_WAIT_MAX; the log says once per AUTH_WARN_EVERY that an account is
 * under attack. The hashing of suspect tries (for an account or from a
 * source with wrong passwords already; tens of ms each) is bounded to
 * AUTH_BUDGET seconds per second of the event loop, so a flood of tries from
 * many nicks never holds other players' replies up for long: such a try
 * past it is refused, to be tried again a moment later. An honest first
 * try, a register or a passwd never waits for it.
 *
 * Registering is bounded as IRC services bound it, so that nobody grows the
 * database without end by making accounts: at most [bot]
 * registrations_per_host accounts a UTC day from one host (the host of the
 * message's nick!user@host; an IPv6 address counts as its /64; the nick
 * when the server hides the host), and registrations_per_hour from all
 * hosts together a clock hour (UTC), so many hosts cannot either. Only
 * registrations made count. The counts live in memory, never in the
 * database (which stores no host for this): a restart, which only the
 * operator causes, starts them afresh. AUTH_REG_HOSTS hosts are
 * remembered; past that, the host that registered longest ago is
 * forgotten (the hourly limit still holds).
 */
#define _DEFAULT_SOURCE /* explicit_bzero */
#include <arpa/inet.h>
#include <crypt.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bot.h"

int password_hash(const char *password, char *out, size_t len)
{
    char salt[CRYPT_GENSALT_OUTPUT_SIZE];
    struct crypt_data *cd;
    int rc = -1;

    if (!crypt_gensalt_rn("$y$", 0, NULL, 0, salt, sizeof(salt)))
        return -1;
    cd = xmalloc(sizeof(*cd));
    memset(cd, 0, sizeof(*cd));
    const char *h = crypt_r(password, salt, cd);
    if (h && h[0] != '*' && strlen(h) < len) {
        memcpy(out, h, strlen(h) + 1);
        rc = 0;
    }
    explicit_bzero(cd, sizeof(*cd));
    free(cd);
    return rc;
}

int password_check(const char *password, const char *hash)
{
    struct crypt_data *cd = xmalloc(sizeof(*cd));
    int ok = 0;

    memset(cd, 0, sizeof(*cd));
    const char *h = crypt_r(password, hash, cd);
    if (h && h[0] != '*') {
        size_t n = strlen(hash);
        if (strlen(h) == n) {
            unsigned char diff = 0;
            for (size_t i = 0; i < n; i++)
                diff |= (unsigned char)(h[i] ^ hash[i]);
            ok = diff == 0;
        }
    }
    explicit_bzero(cd, sizeof(*cd));
    free(cd);
    return ok;
}

/* ------------------------------------------------- guessing, limited */

/* The thread's CPU seconds: the hashing budget counts the work done, not
 * the wall time, which a loaded machine stretches (at a load of 15 a
 * hash of 60 ms of CPU took 0.25 s, and an honest identify was refused). */
static double auth_cpu(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0; /* never on Linux; then nothing is counted */
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int auth_hash(struct bot *bot, const char *password, char *out, size_t len)
{
    double t0 = auth_cpu();
    int rc = password_hash(password, out, len);
    bot->auth.spent += auth_cpu() - t0;
    return rc;
}

int auth_check(struct bot *bot, const char *password, const char *hash)
{
    double t0 = auth_cpu();
    int ok = password_check(password, hash);
    bot->auth.spent += auth_cpu() - t0;
    return ok;
}

int auth_busy(struct bot *bot)
{
    double t = bot_clock();

    /* A new second: the budget is whole again. */
    if (t - bot->auth.window >= 1.0 || t < bot->auth.window) {
        bot->auth.window = t;
        bot->auth.spent = 0;
    }
    return bot->auth.budget > 0 && bot->auth.spent >= bot->auth.budget;
}

int64_t auth_wait(int failures, int64_t last, int64_t now)
{
    if (failures < AUTH_FREE)
        return 0;
    int k = failures - AUTH_FREE + 1;
    int64_t wait = k >= 16 ? AUTH_WAIT_MAX : (int64_t)1 << k;
    if (wait > AUTH_WAIT_MAX)
        wait = AUTH_WAIT_MAX;
    int64_t left = last + wait - now;
    /* A clock set back must not lock anyone out for longer than the cap. */
    if (left > AUTH_WAIT_MAX)
        left = AUTH_WAIT_MAX;
    return left > 0 ? left : 0;
}

int64_t auth_now(const struct bot *bot)
{
    return bot->auth.now ? bot->auth.now : (int64_t)time(NULL);
}

void auth_source(const struct bot *bot, const char *nick, char *from)
{
    const char *at = bot->origin ? strrchr(bot->origin, '@') : NULL;

    /* The host when the server shows one; a nick when it does not. */
    snprintf(from, AUTH_FROM_MAX, "%s", at && at[1] ? at + 1 : nick);
}

/* The entry of `from`, or NULL. */
static const struct auth_source *source_find(const struct auth_state *a, const char *from)
{
    for (int i = 0; i < AUTH_SOURCES; i++)
        if (a->src[i].from[0] && strcmp(a->src[i].from, from) == 0)
            return &a->src[i];
    return NULL;
}

int auth_source_failures(const struct bot *bot, const char *from)
{
    const struct auth_source *s = source_find(&bot->auth, from);
    return s ? s->failures : 0;
}

int64_t auth_source_wait(const struct bot *bot, const char *from, int64_t now)
{
    const struct auth_source *s = source_find(&bot->auth, from);
    return s ? auth_wait(s->failures, s->last, now) : 0;
}

void auth_source_failed(struct bot *bot, const char *from, int64_t now)
{
    struct auth_state *a = &bot->auth;
    struct auth_source *s = (struct auth_source *)source_find(a, from);

    if (!s) {
        /* A free entry, else the one that failed longest ago. */
        s = &a->src[0];
        for (int i = 0; i < AUTH_SOURCES && s->from[0]; i++)
            if (!a->src[i].from[0] || a->src[i].last < s->last)
                s = &a->src[i];
        memset(s, 0, sizeof(*s));
        snprintf(s->from, sizeof(s->from), "%s", from);
    }
    if (s->failures < 1000000)
        s->failures++;
    s->last = now;
}

void auth_warn(struct bot *bot, const char *key, const char *name, int failures, int64_t now)
{
    struct auth_warned *w = NULL, *oldest = &bot->auth.warned[0];

    if (failures < AUTH_FREE)
        return;
    for (int i = 0; i < AUTH_SOURCES; i++) {
        struct auth_warned *e = &bot->auth.warned[i];
        if (e->key[0] && strcmp(e->key, key) == 0)
            w = e;
        if (e->at < oldest->at)
            oldest = e;
    }
    if (w && now - w->at < AUTH_WARN_EVERY && now >= w->at)
        return;
    if (!w) {
        w = oldest;
        snprintf(w->key, sizeof(w->key), "%s", key);
    }
    w->at = now;
    log_msg(LOG_WARN,
            "account %s is under attack: %d wrong passwords since its last login; tries are "
            "slowed down (next line about it in %d s at the earliest)",
            name, failures, AUTH_WARN_EVERY);
}

int auth_told(const struct bot *bot, const char *nick, int64_t now)
{
    char key[CONFIG_NICK_MAX];

    bot_name_key(key, nick, sizeof(key));
    for (int i = 0; i < AUTH_SOURCES; i++)
        if (bot->auth.told[i].key[0] && strcmp(bot->auth.told[i].key, key) == 0)
            return bot->auth.told[i].at > now;
    return 0;
}

void auth_told_now(struct bot *bot, const char *nick, int64_t until)
{
    struct auth_warned *w = NULL, *oldest = &bot->auth.told[0];
    char key[CONFIG_NICK_MAX];

    bot_name_key(key, nick, sizeof(key));
    for (int i = 0; i < AUTH_SOURCES && !w; i++) {
        struct auth_warned *e = &bot->auth.told[i];
        if (e->key[0] && strcmp(e->key, key) == 0)
            w = e;
        else if (e->at < oldest->at)
            oldest = e;
    }
    if (!w) {
        w = oldest;
        snprintf(w->key, sizeof(w->key), "%s", key);
    }
    w->at = until;
}

/* ------------------------------------------- registrations, limited */

void auth_reg_source(const struct bot *bot, const char *nick, char *from)
{
    struct in6_addr a;

    auth_source(bot, nick, from);
    for (char *c = from; *c; c++) /* a host name's case is no other host */
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    /* A subscriber gets a /64 (or more): its addresses are one host. An
     * IPv4 address written as IPv6 (::ffff:192.0.2.1) stays whole. */
    if (!strchr(from, ':') || inet_pton(AF_INET6, from, &a) != 1 || IN6_IS_ADDR_V4MAPPED(&a) ||
        IN6_IS_ADDR_V4COMPAT(&a))
        return;
    const unsigned char *b = a.s6_addr;
    snprintf(from, AUTH_FROM_MAX, "%02x%02x:%02x%02x:%02x%02x:%02x%02x::/64", b[0], b[1], b[2],
             b[3], b[4], b[5], b[6], b[7]);
}

/* The entry of `from` (of any day), or NULL. */
static const struct auth_reg_host *reg_find(const struct auth_state *a, const char *from)
{
    for (int i = 0; i < AUTH_REG_HOSTS; i++)
        if (a->reg[i].from[0] && strcmp(a->reg[i].from, from) == 0)
            return &a->reg[i];
    return NULL;
}

/* The accounts registered from `from` on the UTC day of `now`. */
static int reg_today(const struct auth_state *a, const char *from, int64_t now)
{
    const struct auth_reg_host *h = reg_find(a, from);
    return h && h->at / 86400 == now / 86400 ? h->count : 0;
}

/* "1 hour 44 minutes", "23 minutes": `seconds` in words, rounded up to the
 * minute, into buf[len]. */
static const char *reg_wait_words(char *buf, size_t len, int64_t seconds)
{
    int64_t m = (seconds + 59) / 60, h = m / 60;

    m %= 60;
    if (h && m)
        snprintf(buf, len, "%lld hour%s %lld minute%s", (long long)h, h == 1 ? "" : "s",
                 (long long)m, m == 1 ? "" : "s");
    else if (h)
        snprintf(buf, len, "%lld hour%s", (long long)h, h == 1 ? "" : "s");
    else
        snprintf(buf, len, "%lld minute%s", (long long)m, m == 1 ? "" : "s");
    return buf;
}

int auth_reg_allowed(const struct bot *bot, const char *from, int64_t now, char *why, size_t len)
{
    const struct auth_state *a = &bot->auth;
    int per_host = bot->cfg.registrations_per_host, per_hour = bot->cfg.registrations_per_hour;
    char words[48];

    if (reg_today(a, from, now) >= per_host) {
        snprintf(why, len,
                 "%d account%s %s registered from your host today, the most in a day; register "
                 "after 00:00 UTC (in %s), or identify <account> <password> to use one you have",
                 per_host, per_host == 1 ? "" : "s", per_host == 1 ? "was" : "were",
                 reg_wait_words(words, sizeof(words), 86400 - now % 86400));
        return -1;
    }
    if (a->reg_hour == now / 3600 && a->reg_count >= per_hour) {
        int64_t next = (now / 3600 + 1) * 3600;
        snprintf(why, len,
                 "%d account%s %s registered this hour, the most I take in an hour; register "
                 "after %02d:00 UTC (in %s), or identify <account> <password> to use one you have",
                 per_hour, per_hour == 1 ? "" : "s", per_hour == 1 ? "was" : "were",
                 (int)(next % 86400 / 3600), reg_wait_words(words, sizeof(words), next - now));
        return -1;
    }
    return 0;
}

void auth_registered(struct bot *bot, const char *from, int64_t now)
{
    struct auth_state *a = &bot->auth;
    struct auth_reg_host *h = (struct auth_reg_host *)reg_find(a, from);

    if (a->reg_hour != now / 3600) {
        a->reg_hour = now / 3600;
        a->reg_count = 0;
    }
    a->reg_count++;
    if (!h) {
        /* A free entry, else one of an earlier day, else the oldest. */
        h = &a->reg[0];
        for (int i = 0; i < AUTH_REG_HOSTS && h->from[0]; i++)
            if (!a->reg[i].from[0] || a->reg[i].at < h->at)
                h = &a->reg[i];
        memset(h, 0, sizeof(*h));
        snprintf(h->from, sizeof(h->from), "%s", from);
    }
    if (h->at / 86400 != now / 86400)
        h->count = 0;
    h->count++;
    h->at = now;
}
