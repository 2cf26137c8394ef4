/*
 * config.c - the INI configuration file (keys and defaults in product.md and
 * config/ringside.conf.example), read with libinih.
 *
 * Strict by design: an unknown section or key, a key given twice, a bad
 * value, a string too long for its buffer or a line too long for inih is an
 * error "FILE:LINE: reason" naming what is accepted, never a silent default
 * or truncation. Section and key names are matched without regard to case.
 * A section may appear more than once (its keys merge).
 *
 * How it uses inih: both config_load and config_parse hand inih the text
 * through ini_parse_stream with our own line reader, which counts lines (so
 * the handler knows its line number, which inih does not pass), checks
 * section headers (so an empty unknown section is still reported), refuses
 * lines longer than inih's buffer (which it would otherwise cut in two) and
 * strips leading blanks (so an indented key is a key, not the continuation
 * of the previous value that inih's multi-line mode would make it). The
 * first error wins: the handler's, the reader's, or a syntax error inih
 * reports by line number alone, whose reason we then work out from the line.
 *
 * Invariants: on error the caller's struct is untouched (a reload that fails
 * keeps the running configuration); on success every field holds a value
 * the rest of the bot may use without checking again (nicks are valid,
 * channels start with # or &, numbers are in range, strings fit with their
 * NUL). Passwords never appear in error messages.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ini.h>

#include "bot.h"

#define CONFIG_FILE_MAX    (1024 * 1024) /* bytes; a config is a few hundred */
#define CONFIG_CHANNEL_MAX 49            /* bytes of a channel name */
#define CONFIG_NICKLEN     30
#define CONFIG_QUOTE_MAX   40 /* bytes of a bad value repeated in an error */

enum key_type {
    KEY_STRING,   /* any text without control characters */
    KEY_SECRET,   /* the same, never repeated in errors */
    KEY_HOST,     /* non-empty, no blanks */
    KEY_NICK,     /* RFC 2812 nick, at most 30 bytes */
    KEY_USERNAME, /* printable, no blanks or '@' */
    KEY_INT,      /* whole number in [min, max] */
    KEY_PORT,     /* 1-65535 */
    KEY_BOOL,
    KEY_RATE, /* decimal number over 0, at most 100 */
    KEY_LOGLEVEL,
    KEY_PREFIX,
    KEY_CHANNELS,
    KEY_ADMINS,
    KEY_DURATION,
    KEY_SECONDS,  /* a duration as KEY_DURATION's, in [min, max] seconds, into an int */
    KEY_SASL,     /* none, plain, external */
    KEY_ACCOUNTS, /* both, services, passwords */
    KEY_TURNS,    /* a count of turns in [min, max], or empty for 0 (none) */
    KEY_OPEN_BY,  /* admins, players */
    KEY_REPLIES,  /* channel, notice, private */
    KEY_RELAYS,   /* nicks, separated by commas */
    KEY_FORMAT,   /* a relay_format (bridge.c) */
    KEY_NETWORK   /* a network's short name: a-z first, then a-z 0-9 - _ */
};

/* Key flags. */
#define KF_REQUIRED 1 /* must not be empty */

struct key {
    const char *section;
    const char *name;
    enum key_type type;
    size_t offset; /* of the field in struct config */
    size_t size;   /* of a string field, NUL included */
    long min, max; /* KEY_INT, KEY_SECONDS; KEY_DURATION: max */
    int flags;
};

#define STR(sec, key, type, flags)                                                                 \
    {                                                                                              \
        sec, #key, type, offsetof(struct config, key), sizeof(((struct config *)0)->key), 0, 0,    \
            flags                                                                                  \
    }
#define NUM(sec, key, type, min, max)                                                              \
    {                                                                                              \
        sec, #key, type, offsetof(struct config, key), 0, min, max, 0                              \
    }

static const struct key config_keys[] = {
    STR("irc", server, KEY_HOST, KF_REQUIRED),
    NUM("irc", port, KEY_PORT, 1, 65535),
    NUM("irc", tls, KEY_BOOL, 0, 1),
    NUM("irc", tls_verify, KEY_BOOL, 0, 1),
    STR("irc", tls_ca_file, KEY_STRING, 0),
    STR("irc", tls_cert_file, KEY_STRING, 0),
    STR("irc", tls_key_file, KEY_STRING, 0),
    STR("irc", server_password, KEY_SECRET, 0),
    STR("irc", nick, KEY_NICK, KF_REQUIRED),
    STR("irc", alt_nick, KEY_NICK, 0),
    STR("irc", username, KEY_USERNAME, KF_REQUIRED),
    STR("irc", realname, KEY_STRING, KF_REQUIRED),
    NUM("irc", channels, KEY_CHANNELS, 0, 0),
    STR("irc", nickserv_password, KEY_SECRET, 0),
    NUM("irc", sasl_mechanism, KEY_SASL, 0, 0),
    STR("irc", sasl_username, KEY_STRING, 0),
    STR("irc", sasl_password, KEY_SECRET, 0),
    NUM("irc", sasl_required, KEY_BOOL, 0, 1),
    NUM("irc", join_on_invite, KEY_BOOL, 0, 1),
    STR("bot", prefix, KEY_PREFIX, KF_REQUIRED),
    NUM("bot", admins, KEY_ADMINS, 0, 0),
    STR("bot", database, KEY_STRING, KF_REQUIRED),
    NUM("bot", log_level, KEY_LOGLEVEL, 0, 0),
    NUM("bot", colours, KEY_BOOL, 0, 1),
    NUM("bot", accounts, KEY_ACCOUNTS, 0, 0),
    NUM("bot", replies, KEY_REPLIES, 0, 0),
    STR("bot", network, KEY_NETWORK, 0),
    NUM("bot", failover_seconds, KEY_SECONDS, 5, 3600),
    NUM("bot", registrations_per_host, KEY_INT, 1, 10000),
    NUM("bot", registrations_per_hour, KEY_INT, 1, 100000),
    NUM("flood", burst, KEY_INT, 1, 100),
    NUM("flood", lines_per_second, KEY_RATE, 0, 0),
    NUM("flood", exempt, KEY_BOOL, 0, 1),
    NUM("flood", commands, KEY_INT, 1, USERS_RATE_CMDS_MAX),
    NUM("flood", commands_seconds, KEY_SECONDS, 1, 3600),
    NUM("flood", ignore_seconds, KEY_SECONDS, 0, 86400),
    NUM("bout", order_timeout, KEY_SECONDS, 10, 86400),
    NUM("bout", challenge_timeout, KEY_SECONDS, 10, 86400),
    NUM("bout", rounds, KEY_INT, 3, 15),
    NUM("bout", duel_round_seconds, KEY_SECONDS, 1, 3600),
    NUM("bout", rejoin_grace, KEY_DURATION, 0, 86400),
    NUM("league", turn_interval, KEY_DURATION, 0, 366L * 86400),
    NUM("rating", exhibitions, KEY_BOOL, 0, 1),
    NUM("league", season_turns, KEY_TURNS, 0, 10000),
    NUM("predict", closes_after, KEY_INT, 1, BOUT_ROUNDS_MAX),
    NUM("tournament", open_by, KEY_OPEN_BY, 0, 0),
    NUM("tournament", round_interval, KEY_DURATION, 0, 366L * 86400),
    NUM("bridge", relay_nicks, KEY_RELAYS, 0, 0),
    STR("bridge", relay_format, KEY_FORMAT, KF_REQUIRED),
    STR("web", listen, KEY_STRING, 0),
    STR("web", base_url, KEY_STRING, 0),
    NUM("web", max_connections, KEY_INT, 1, 10000),
    NUM("web", max_connections_per_address, KEY_INT, 1, 10000),
    NUM("web", request_timeout, KEY_SECONDS, 1, 300),
    NUM("web", threads, KEY_INT, 1, 64),
};

#define NKEYS ((int)(sizeof(config_keys) / sizeof(config_keys[0])))

static const char *const config_sections[] = {"irc",    "bot",        "flood",  "bout",    "league",
                                              "bridge", "tournament", "rating", "predict", "web"};
#define NSECTIONS    ((int)(sizeof(config_sections) / sizeof(config_sections[0])))
#define SECTION_LIST "irc, bot, flood, bout, league, bridge, tournament, rating, predict, web"

/* The state of one parse. */
struct config_ctx {
    struct config c;  /* the result, copied out only on success */
    const char *text; /* the whole input, NUL-terminated */
    const char *pos;  /* where the reader goes on */
    int line;         /* of the line last handed to inih */
    int seen[NKEYS];  /* line where each key was given, 0 if not yet */
    int err_line;     /* first error found by the reader or handler */
    char reason[CONFIG_ERR_MAX];
};

void config_defaults(struct config *c)
{
    memset(c, 0, sizeof(*c));
    strcpy(c->server, "127.0.0.1");
    c->port = 6667;
    c->tls = 0;
    c->tls_verify = 1;
    c->sasl_mechanism = SASL_NONE;
    c->accounts = ACCOUNTS_BOTH;
    strcpy(c->nick, "ringside");
    strcpy(c->username, "ringside");
    strcpy(c->realname, "Ringside boxing bot");
    strcpy(c->prefix, "!");
    c->colours = 1;
    strcpy(c->database, "ringside.db");
    c->log_level = LOG_INFO;
    c->burst = 4;
    c->lines_per_second = 1.0;
    c->commands = USERS_RATE_CMDS;
    c->commands_seconds = (int)USERS_RATE_WINDOW;
    c->ignore_seconds = (int)USERS_RATE_PAUSE;
    c->registrations_per_host = AUTH_REG_PER_HOST;
    c->registrations_per_hour = AUTH_REG_PER_HOUR;
    c->order_timeout = 120;
    c->challenge_timeout = 300;
    c->duel_round_seconds = 4;
    c->rejoin_grace = 300;
    c->failover_seconds = 30;
    c->rounds = 12;
    c->turn_interval = 0;
    c->exhibitions = 1;
    c->closes_after = 1;
    strcpy(c->relay_format, "<nick> text");
    strcpy(c->listen, "127.0.0.1:8080");
    c->max_connections = 256; /* web.h's WEB_CONN_MAX.. (the bot does not use them) */
    c->max_connections_per_address = 16;
    c->request_timeout = 10;
    c->threads = 0; /* web/config.c's default: the CPUs online, at most 4 */
}

/* ------------------------------------------------------------ errors */

/* Records the first error, at the current line. Returns 0 (inih's "error"),
 * so handlers can `return ctx_fail(...)`. */
static int ctx_fail(struct config_ctx *x, const char *fmt, ...) BOT_PRINTF(2, 3);
static int ctx_fail(struct config_ctx *x, const char *fmt, ...)
{
    va_list ap;

    if (x->err_line)
        return 0;
    x->err_line = x->line;
    va_start(ap, fmt);
    vsnprintf(x->reason, sizeof(x->reason), fmt, ap);
    va_end(ap);
    return 0;
}

/* `value` fit to repeat in an error: at most CONFIG_QUOTE_MAX bytes, cut on
 * a character boundary and marked with "...", control bytes shown as '?'. */
static const char *quote(char *buf, size_t size, const char *value)
{
    size_t len = strlen(value), n = len;

    if (n > CONFIG_QUOTE_MAX) {
        n = CONFIG_QUOTE_MAX;
        for (int k = 0; k < 3 && n > 0 && ((unsigned char)value[n] & 0xc0) == 0x80; k++)
            n--;
    }
    if (n + 4 > size)
        n = size - 4;
    memcpy(buf, value, n);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
            buf[i] = '?';
    strcpy(buf + n, n < len ? "..." : "");
    return buf;
}

/* ------------------------------------------------------ value checks */

static int has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 1;
    return 0;
}

static int nick_special(char ch)
{
    return ch != '\0' && strchr("[]\\`_^{|}", ch) != NULL;
}

static int ascii_letter(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static int ascii_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* RFC 2812: a letter or special first, then letters, digits, specials, '-';
 * at most CONFIG_NICKLEN bytes. */
static int nick_valid(const char *s)
{
    size_t n = strlen(s);

    if (n == 0 || n > CONFIG_NICKLEN || !(ascii_letter(s[0]) || nick_special(s[0])))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!(ascii_letter(s[i]) || ascii_digit(s[i]) || nick_special(s[i]) || s[i] == '-'))
            return 0;
    return 1;
}

/* Account names as services give them: the characters of a nick (a digit
 * may come first), at most CONFIG_NICKLEN bytes. */
static int account_valid(const char *s)
{
    size_t n = strlen(s);

    if (n == 0 || n > CONFIG_NICKLEN)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!(ascii_letter(s[i]) || ascii_digit(s[i]) || nick_special(s[i]) || s[i] == '-'))
            return 0;
    return 1;
}

/* A whole number of digits only, within [min, max]; -1 if not. */
static int parse_long(const char *s, long min, long max, long *out)
{
    long v = 0;

    if (!ascii_digit(*s))
        return -1;
    for (; ascii_digit(*s); s++) {
        if (v > (LONG_MAX - 9) / 10)
            return -1;
        v = v * 10 + (*s - '0');
    }
    if (*s || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

/* Digits with an optional fraction ("1", "0.5", ".5", "2."), over 0 and at
 * most 100. Parsed by hand: strtod would take "inf", "nan", hex and the
 * locale's decimal point. */
static int parse_rate(const char *s, double *out)
{
    double v = 0;
    int digits = 0;

    for (; ascii_digit(*s); s++, digits++)
        if (v <= 1000)
            v = v * 10 + (*s - '0');
    if (*s == '.') {
        double scale = 1;
        for (s++; ascii_digit(*s); s++, digits++)
            v += (*s - '0') * (scale /= 10);
    }
    if (*s || !digits || !(v > 0) || v > 100)
        return -1;
    *out = v;
    return 0;
}

static int parse_bool(const char *s, int *out)
{
    static const char *const yes[] = {"yes", "true", "on", "1"};
    static const char *const no[] = {"no", "false", "off", "0"};

    for (int i = 0; i < 4; i++) {
        if (strcasecmp(s, yes[i]) == 0 || strcasecmp(s, no[i]) == 0) {
            *out = strcasecmp(s, yes[i]) == 0;
            return 0;
        }
    }
    return -1;
}

/* Splits a comma separated list in place; items are trimmed of blanks.
 * Calls item() for each; stops at the first that fails. An empty list
 * (only blanks) has no items. */
static int each_item(struct config_ctx *x, const struct key *k, char *list,
                     int (*item)(struct config_ctx *, const struct key *, char *, int))
{
    int count = 0;
    char *p = list;

    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p)
        return 1;
    for (;;) {
        char *end = strchr(p, ',');
        if (end)
            *end = '\0';
        while (*p == ' ' || *p == '\t')
            p++;
        size_t n = strlen(p);
        while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            p[--n] = '\0';
        if (!item(x, k, p, count++))
            return 0;
        if (!end)
            return 1;
        p = end + 1;
    }
}

/* A channel's name: # or & first, then at least a byte, none of them a
 * blank, a colon or a control character. 1, or ctx_fail's 0. */
static int channel_name_check(struct config_ctx *x, const char *name)
{
    char q[CONFIG_QUOTE_MAX + 4];

    if (name[0] != '#' && name[0] != '&')
        return ctx_fail(x, "channel \"%s\" must start with # or &", quote(q, sizeof(q), name));
    if (strlen(name) > CONFIG_CHANNEL_MAX)
        return ctx_fail(x, "channel \"%s\" is too long (at most %d bytes)",
                        quote(q, sizeof(q), name), CONFIG_CHANNEL_MAX);
    if (name[1] == '\0')
        return ctx_fail(x, "channel \"%s\" needs a name after its first character", name);
    for (const char *p = name; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == ' ' || *p == ':')
            return ctx_fail(x,
                            "channel \"%s\" is not a valid channel name (no spaces, colons, "
                            "commas or control characters)",
                            quote(q, sizeof(q), name));
    return 1;
}

static int channel_item(struct config_ctx *x, const struct key *k, char *name, int index)
{
    struct config *c = &x->c;

    (void)k;
    if (!*name)
        return ctx_fail(x, "channels: an empty name in the list (channels are separated by "
                           "commas, like \"#ringside, #boxing\")");
    if (index >= CONFIG_CHANNELS_MAX)
        return ctx_fail(x, "too many channels (at most %d)", CONFIG_CHANNELS_MAX);
    if (!channel_name_check(x, name))
        return 0;
    for (int i = 0; i < index; i++)
        if (irc_casecmp(CASEMAP_ASCII, c->channels[i], name) == 0)
            return ctx_fail(x, "channel \"%s\" is listed twice", name);
    strcpy(c->channels[index], name);
    c->nchannels = index + 1;
    return 1;
}

static int relay_item(struct config_ctx *x, const struct key *k, char *name, int index)
{
    struct config *c = &x->c;
    char q[CONFIG_QUOTE_MAX + 4];

    (void)k;
    if (!*name)
        return ctx_fail(x, "relay_nicks: an empty nick in the list (nicks are separated by "
                           "commas, like \"matterbridge, discord-relay\")");
    if (index >= CONFIG_RELAYS_MAX)
        return ctx_fail(x, "too many relay_nicks (at most %d)", CONFIG_RELAYS_MAX);
    if (!nick_valid(name))
        return ctx_fail(x,
                        "relay_nicks: \"%s\" is not a valid nick (a letter or one of []\\`_^{|} "
                        "first, then letters, digits, those or -; at most %d bytes)",
                        quote(q, sizeof(q), name), CONFIG_NICKLEN);
    strcpy(c->relay_nicks[index], name);
    c->nrelays = index + 1;
    return 1;
}

/* 1 if `h` has the shape of a crypt(3) hash: "$id$...": a method id
 * ended by '$', a non-empty last part, only the
 * characters of its alphabet, short enough to keep ("$$ls" has no method
 * and could never match). Whether it matches any password is known only at
 * identify. */
static int admin_hash_ok(const char *h)
{
    size_t n = strlen(h);

    if (n < 4 || n >= CONFIG_HASH_MAX || h[0] != '$' || h[1] == '$')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)h[i]) && !strchr("$./", h[i]))
            return 0;
    if (!strchr(h + 1, '$')) /* the '$' that ends the method id */
        return 0;
    return strrchr(h, '$')[1] != '\0';
}

static int admin_item(struct config_ctx *x, const struct key *k, char *name, int index)
{
    struct config *c = &x->c;

    (void)k;
    if (!*name)
        return ctx_fail(x, "admins: an empty name in the list (account names are separated by "
                           "commas, like \"alice, bob\")");
    if (index >= CONFIG_ADMINS_MAX)
        return ctx_fail(x, "too many admins (at most %d)", CONFIG_ADMINS_MAX);
    char *colon = strchr(name, ':');
    c->admin_hash[index][0] = '\0';
    if (colon) {
        *colon = '\0';
        if (!admin_hash_ok(colon + 1))
            return ctx_fail(x,
                            "admin \"%.40s\": after the ':' comes a password hash as ringside "
                            "--hash-password prints it (\"$y$...\", no spaces)",
                            name);
        strcpy(c->admin_hash[index], colon + 1);
    }
    if (!account_valid(name)) {
        char q[CONFIG_QUOTE_MAX + 4];
        return ctx_fail(x,
                        "admin \"%s\" is not a valid account name (letters, digits, "
                        "[]\\`_^{|} or -, at most %d bytes)",
                        quote(q, sizeof(q), name), CONFIG_NICKLEN);
    }
    for (int i = 0; i < index; i++)
        if (irc_casecmp(CASEMAP_ASCII, c->admins[i], name) == 0)
            return ctx_fail(x, "admin \"%s\" is listed twice", name);
    strcpy(c->admins[index], name);
    c->nadmins = index + 1;
    return 1;
}

/* ------------------------------------------------------ the setters */

/* Each kind of key has a setter (key_setters below): it checks `value`
 * and stores it in the field k names, returning 1, or ctx_fail's 0 with
 * the reason. `q` is the value fit to repeat in an error (quote());
 * KEY_SECRET never uses it. */

/* Whether `s` is a network's short name (config.h: CONFIG_NETWORK_MAX). */
static int network_valid(const char *s)
{
    if (*s < 'a' || *s > 'z')
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
            return 0;
    return 1;
}

/* The checks a text key's kind adds (a host, a nick, a user name, a
 * prefix); 1 when the value passes. */
static int text_kind_check(struct config_ctx *x, const struct key *k, const char *value,
                           const char *q)
{
    const char *name = k->name;

    if (k->type == KEY_HOST && strpbrk(value, " \t"))
        return ctx_fail(x, "%s \"%s\" must not contain blanks", name, q);
    if (k->type == KEY_NICK && !nick_valid(value))
        return ctx_fail(x,
                        "%s \"%s\" is not a valid nick (a letter or one of []\\`_^{|} "
                        "first, then letters, digits, those or -; at most %d bytes)",
                        name, q, CONFIG_NICKLEN);
    if (k->type == KEY_NETWORK && !network_valid(value))
        return ctx_fail(x,
                        "%s \"%s\" must be a short name, as in alice@libera: a lowercase letter "
                        "first, then lowercase letters, digits, - or _",
                        name, q);
    if (k->type == KEY_USERNAME && strpbrk(value, " \t@"))
        return ctx_fail(x, "%s \"%s\" must not contain blanks or @", name, q);
    char why[CONFIG_ERR_MAX];
    if (k->type == KEY_FORMAT && bridge_format_check(value, why, sizeof(why)) != 0)
        return ctx_fail(x, "%s \"%s\" %s", name, q, why);
    if (k->type == KEY_PREFIX) {
        int ok = strlen(value) < k->size;
        for (const char *p = value; ok && *p; p++)
            ok = *p > ' ' && *p < 0x7f;
        if (!ok)
            return ctx_fail(x,
                            "%s \"%s\" must be 1 to %zu printable ASCII characters "
                            "without spaces",
                            name, q, k->size - 1);
    }
    return 1;
}

/* Text: a string, a secret, a host, a nick, a user name, a prefix. */
static int set_text(struct config_ctx *x, const struct key *k, const char *value, const char *q)
{
    char *field = (char *)&x->c + k->offset;
    size_t len = strlen(value);

    if (len == 0) {
        if (k->flags & KF_REQUIRED)
            return ctx_fail(x, "%s must not be empty", k->name);
        field[0] = '\0';
        return 1;
    }
    /* A nick's and a prefix's own messages say how long they may be. */
    if (len >= k->size && k->type != KEY_NICK && k->type != KEY_PREFIX)
        return ctx_fail(x, "%s is too long (at most %zu bytes)", k->name, k->size - 1);
    if (has_control(value))
        return ctx_fail(x, "%s contains a control character", k->name);
    if (!text_kind_check(x, k, value, q))
        return 0;
    memcpy(field, value, len + 1);
    return 1;
}

static int set_int(struct config_ctx *x, const struct key *k, const char *value, const char *q)
{
    long n;

    if (parse_long(value, k->min, k->max, &n) != 0)
        return ctx_fail(x, "%s \"%s\" must be a whole number from %ld to %ld", k->name, q, k->min,
                        k->max);
    *(int *)(void *)((char *)&x->c + k->offset) = (int)n;
    return 1;
}

static int set_port(struct config_ctx *x, const struct key *k, const char *value, const char *q)
{
    long n;

    if (parse_long(value, k->min, k->max, &n) != 0)
        return ctx_fail(x, "%s \"%s\" is not a port (%ld-%ld)", k->name, q, k->min, k->max);
    *(int *)(void *)((char *)&x->c + k->offset) = (int)n;
    return 1;
}

static int set_bool(struct config_ctx *x, const struct key *k, const char *value, const char *q)
{
    int b;

    if (parse_bool(value, &b) != 0)
        return ctx_fail(x, "%s \"%s\" is not a boolean (yes/no, true/false, on/off, 1/0)", k->name,
                        q);
    *(int *)(void *)((char *)&x->c + k->offset) = b;
    return 1;
}

static int set_rate(struct config_ctx *x, const struct key *k, const char *value, const char *q)
{
    if (parse_rate(value, &x->c.lines_per_second) != 0)
        return ctx_fail(x, "%s \"%s\" must be a number over 0 and at most 100", k->name, q);
    return 1;
}

static int set_loglevel(struct config_ctx *x, const struct key *k, const char *value, const char *q)
{
    int level = log_level_parse(value);

    if (level < 0)
        return ctx_fail(x, "%s \"%s\" is not a level (debug, info, warn, error)", k->name, q);
    x->c.log_level = (enum log_level)level;
    return 1;
}

/* A duration into the key's long field, at most k->max seconds. The words
 * of the error say what the key means by "nothing": the league has no
 * turns of its own, a bout does not wait for its players. */
static int set_duration(struct config_ctx *x, const struct key *k, const char *value, const char *q)
{
    long v;

    if (text_duration(value, &v) != 0 || v > k->max) {
        if (k->max < 366L * 86400)
            return ctx_fail(x,
                            "%s \"%s\" is not a duration (like 5m, 90s or 1h, at most 1d; 0 "
                            "to start the clocks at once)",
                            k->name, q);
        return ctx_fail(x,
                        "%s \"%s\" is not a duration (like 1d, 12h, 30m or 45s, at "
                        "most 366d; empty for none)",
                        k->name, q);
    }
    memcpy((char *)&x->c + k->offset, &v, sizeof(v));
    return 1;
}

/* Seconds as the shortest exact duration ("10s", "2m", "1d") into buf. */
static const char *duration_text(long seconds, char *buf, size_t len)
{
    static const struct {
        long seconds;
        char unit;
    } units[] = {{86400, 'd'}, {3600, 'h'}, {60, 'm'}};

    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (seconds > 0 && seconds % units[i].seconds == 0) {
            snprintf(buf, len, "%ld%c", seconds / units[i].seconds, units[i].unit);
            return buf;
        }
    snprintf(buf, len, "%lds", seconds);
    return buf;
}

/* A duration as set_duration reads it (a plain number is seconds: 90,
 * 90s, 2m, 1h30m) from k->min to k->max seconds, into the key's int
 * field. */
static int set_seconds(struct config_ctx *x, const struct key *k, const char *value, const char *q)
{
    char lo[24], hi[24];
    long v;

    if (!value[0] || text_duration(value, &v) != 0 || v < k->min || v > k->max)
        return ctx_fail(x,
                        "%s \"%s\" is not a duration from %s to %s (like 90s, 2m or 1h; a plain "
                        "number is seconds)",
                        k->name, q, duration_text(k->min, lo, sizeof(lo)),
                        duration_text(k->max, hi, sizeof(hi)));
    *(int *)(void *)((char *)&x->c + k->offset) = (int)v;
    return 1;
}

/* A number of turns (int), empty meaning 0: "no limit" for the keys that
 * take one ([league] season_turns: seasons end only by an admin). */
static int set_turns(struct config_ctx *x, const struct key *k, const char *value, const char *q)
{
    long n = 0;

    if (value[0] && parse_long(value, k->min, k->max, &n) != 0)
        return ctx_fail(x,
                        "%s \"%s\" must be a number of league turns from %ld to %ld (empty or 0: "
                        "only an admin ends a season)",
                        k->name, q, k->min, k->max);
    *(int *)(void *)((char *)&x->c + k->offset) = (int)n;
    return 1;
}

/* A word of a closed list, without regard to case, and its value. */
struct word {
    const char *word;
    int value;
};

/* The value of `value` in words[] (ended by a NULL word) into *out; -1
 * when it is none of them. */
static int word_find(const struct word *words, const char *value, int *out)
{
    for (; words->word; words++)
        if (strcasecmp(value, words->word) == 0) {
            *out = words->value;
            return 0;
        }
    return -1;
}

static int set_sasl(struct config_ctx *x, const struct key *k, const char *value, const char *q)
{
    static const struct word words[] = {{"plain", SASL_PLAIN},
                                        {"external", SASL_EXTERNAL},
                                        {"none", SASL_NONE},
                                        {"", SASL_NONE},
                                        {NULL, 0}};
    int v;

    if (word_find(words, value, &v) != 0)
        return ctx_fail(x, "%s \"%s\" is not a mechanism (plain, external, or none)", k->name, q);
    x->c.sasl_mechanism = (enum sasl_mechanism)v;
    return 1;
}

static int set_accounts(struct config_ctx *x, const struct key *k, const char *value, const char *q)
{
    static const struct word words[] = {{"both", ACCOUNTS_BOTH},
                                        {"services", ACCOUNTS_SERVICES},
                                        {"passwords", ACCOUNTS_PASSWORDS},
                                        {NULL, 0}};
    int v;

    if (word_find(words, value, &v) != 0)
        return ctx_fail(x, "%s \"%s\" is not services, passwords or both", k->name, q);
    x->c.accounts = (enum accounts_mode)v;
    return 1;
}

static int set_open_by(struct config_ctx *x, const struct key *k, const char *value, const char *q)
{
    static const struct word words[] = {{"admins", 0}, {"players", 1}, {NULL, 0}};
    int v;

    if (word_find(words, value, &v) != 0)
        return ctx_fail(x, "%s \"%s\" is not admins or players", k->name, q);
    x->c.open_by = v;
    return 1;
}

static int set_replies(struct config_ctx *x, const struct key *k, const char *value, const char *q)
{
    static const struct word words[] = {{"channel", REPLIES_CHANNEL},
                                        {"notice", REPLIES_NOTICE},
                                        {"private", REPLIES_PRIVATE},
                                        {NULL, 0}};
    int v;

    if (word_find(words, value, &v) != 0)
        return ctx_fail(x, "%s \"%s\" is not channel, notice or private", k->name, q);
    x->c.replies = (enum replies_mode)v;
    return 1;
}

/* A comma separated list: the channels, the admins (the list given last
 * replaces any before it). */
static int set_list(struct config_ctx *x, const struct key *k, const char *value, const char *q)
{
    char list[1024]; /* a value is at most one line: far less */
    size_t len = strlen(value);

    (void)q;
    if (len >= sizeof(list))
        return ctx_fail(x, "%s is too long", k->name);
    memcpy(list, value, len + 1);
    if (k->type == KEY_CHANNELS) {
        x->c.nchannels = 0;
        return each_item(x, k, list, channel_item);
    }
    if (k->type == KEY_RELAYS) {
        x->c.nrelays = 0;
        return each_item(x, k, list, relay_item);
    }
    x->c.nadmins = 0;
    return each_item(x, k, list, admin_item);
}

/* The setter of each kind of key. */
static int (*const key_setters[])(struct config_ctx *, const struct key *, const char *,
                                  const char *) = {
    [KEY_STRING] = set_text,     [KEY_SECRET] = set_text,       [KEY_HOST] = set_text,
    [KEY_NICK] = set_text,       [KEY_USERNAME] = set_text,     [KEY_PREFIX] = set_text,
    [KEY_INT] = set_int,         [KEY_PORT] = set_port,         [KEY_BOOL] = set_bool,
    [KEY_RATE] = set_rate,       [KEY_LOGLEVEL] = set_loglevel, [KEY_DURATION] = set_duration,
    [KEY_SASL] = set_sasl,       [KEY_ACCOUNTS] = set_accounts, [KEY_CHANNELS] = set_list,
    [KEY_ADMINS] = set_list,     [KEY_TURNS] = set_turns,       [KEY_OPEN_BY] = set_open_by,
    [KEY_REPLIES] = set_replies, [KEY_RELAYS] = set_list,       [KEY_FORMAT] = set_text,
    [KEY_NETWORK] = set_text,    [KEY_SECONDS] = set_seconds,
};

/* Stores one value; 1 on success, else ctx_fail's 0. */
static int key_set(struct config_ctx *x, const struct key *k, const char *value)
{
    char q[CONFIG_QUOTE_MAX + 4];

    quote(q, sizeof(q), value);
    return key_setters[k->type](x, k, value, q);
}

/* ------------------------------------------------------ inih glue */

static int section_known(const char *section)
{
    for (int i = 0; i < NSECTIONS; i++)
        if (strcasecmp(section, config_sections[i]) == 0)
            return 1;
    return 0;
}

/* A key outside any section: where it belongs, if it is one of ours. */
static int no_section(struct config_ctx *x, const char *q, const char *name)
{
    for (int i = 0; i < NKEYS; i++)
        if (strcasecmp(name, config_keys[i].name) == 0)
            return ctx_fail(x, "key \"%s\" is not in a section; it belongs in [%s]", q,
                            config_keys[i].section);
    return ctx_fail(x, "key \"%s\" is not in a section (sections are " SECTION_LIST ")", q);
}

/* A key [section] does not have: what it does have, and where the key
 * belongs if it is another section's. */
static int unknown_key(struct config_ctx *x, const char *q, const char *section, const char *name)
{
    const struct key *other = NULL;
    char buf[CONFIG_ERR_MAX];
    struct str keys;

    str_init_fixed(&keys, buf, sizeof(buf));
    for (int i = 0; i < NKEYS; i++) {
        const struct key *k = &config_keys[i];
        if (strcasecmp(section, k->section) == 0)
            str_add(&keys, "%s%s", keys.len ? ", " : "", k->name);
        else if (strcasecmp(name, k->name) == 0)
            other = k;
    }
    if (other)
        return ctx_fail(x, "unknown key \"%s\" in [%s] (it belongs in [%s]); keys are %s", q,
                        section, other->section, keys.p);
    return ctx_fail(x, "unknown key \"%s\" in [%s]; keys are %s", q, section, keys.p);
}

static int config_handler(void *user, const char *section, const char *name, const char *value)
{
    struct config_ctx *x = user;
    char q[CONFIG_QUOTE_MAX + 4];

    if (x->err_line)
        return 1; /* only the first error is reported; stop doing work */
    quote(q, sizeof(q), name);
    if (!*section)
        return no_section(x, q, name);
    if (!section_known(section)) {
        char qs[CONFIG_QUOTE_MAX + 4];
        return ctx_fail(x, "unknown section [%s]; sections are " SECTION_LIST,
                        quote(qs, sizeof(qs), section));
    }
    for (int i = 0; i < NKEYS; i++) {
        const struct key *k = &config_keys[i];
        if (strcasecmp(section, k->section) != 0 || strcasecmp(name, k->name) != 0)
            continue;
        if (x->seen[i])
            return ctx_fail(x, "key \"%s\" given twice (first on line %d)", k->name, x->seen[i]);
        x->seen[i] = x->line;
        return key_set(x, k, value);
    }
    return unknown_key(x, q, section, name);
}

/* The line [*start, end) without its leading blanks and its trailing
 * blanks and CR: *start moves to its first byte; returns its length. */
static size_t line_trim(const char **start, const char *end)
{
    const char *p = *start;
    size_t n = (size_t)(end - p);

    while (n > 0 && (*p == ' ' || *p == '\t')) {
        p++;
        n--;
    }
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
        n--;
    *start = p;
    return n;
}

/* A section header in line[0..n), read as inih reads it: the name runs
 * to the first ']'. Unknown sections are caught here, even with no keys
 * under them. */
static void header_check(struct config_ctx *x, char *line, size_t n)
{
    if (n == 0 || line[0] != '[')
        return;
    char *close = memchr(line + 1, ']', n - 1);
    if (!close)
        return;
    *close = '\0';
    if (!section_known(line + 1)) {
        char q[CONFIG_QUOTE_MAX + 4];
        ctx_fail(x, "unknown section [%s]; sections are " SECTION_LIST,
                 quote(q, sizeof(q), line + 1));
    }
    *close = ']';
}

/* inih's reader: hands over one line at a time, with its leading blanks and
 * trailing blanks and CR removed and a LF put back. */
static char *config_reader(char *buf, int num, void *user)
{
    struct config_ctx *x = user;
    const char *p = x->pos;
    size_t limit = num > 2 ? (size_t)num - 2 : 0; /* room for "\n" and NUL */

    if (!*p)
        return NULL;
    x->line++;
    if (x->line == 1 && strncmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3; /* a UTF-8 byte order mark */
    const char *eol = strchr(p, '\n');
    const char *next = eol ? eol + 1 : p + strlen(p);
    if (!eol)
        eol = next;
    x->pos = next;

    size_t n = line_trim(&p, eol);
    if (n > limit) {
        ctx_fail(x, "line is too long (at most %zu bytes without its indentation)", limit);
        n = 0; /* an empty line: inih sees nothing wrong, we already do */
    }
    memcpy(buf, p, n);
    buf[n] = '\n';
    buf[n + 1] = '\0';

    header_check(x, buf, n);
    return buf;
}

/* Why inih refused line `line` of text (it says only where). */
static void syntax_reason(const char *text, int line, char *out, size_t size)
{
    for (int i = 1; i < line && text; i++) {
        text = strchr(text, '\n');
        if (text)
            text++;
    }
    while (text && (*text == ' ' || *text == '\t'))
        text++;
    if (text && *text == '[')
        snprintf(out, size, "a section header needs its closing \"]\", like [irc]");
    else
        snprintf(out, size, "expected \"key = value\", a [section] or a comment (; or #)");
}

/* The line key `name` of [flood] was given on (1 if not given). */
static int flood_line(const struct config_ctx *x, const char *name)
{
    for (int i = 0; i < NKEYS; i++)
        if (strcmp(config_keys[i].section, "flood") == 0 && strcmp(config_keys[i].name, name) == 0)
            return x->seen[i] ? x->seen[i] : 1;
    return 1;
}

/* A pacing faster than the common servers let a client send gets the bot
 * killed for flooding: only with exempt = yes. */
static void pacing_check(struct config_ctx *x)
{
    if (x->c.exempt)
        return;
    if (x->c.lines_per_second > CONFIG_SAFE_RATE + 1e-9) {
        x->line = flood_line(x, "lines_per_second");
        ctx_fail(x,
                 "lines_per_second = %g is faster than IRC servers let a client send (ircd-hybrid "
                 "kills at 1.5, InspIRCd at 3): use at most %g, or add exempt = yes to [flood] "
                 "if your network exempts the bot from flood limits",
                 x->c.lines_per_second, CONFIG_SAFE_RATE);
    } else if (x->c.burst > CONFIG_SAFE_BURST) {
        x->line = flood_line(x, "burst");
        ctx_fail(x,
                 "burst = %d is more lines at once than IRC servers take from a client: use at "
                 "most %d, or add exempt = yes to [flood] if your network exempts the bot from "
                 "flood limits",
                 x->c.burst, CONFIG_SAFE_BURST);
    }
}

/* The line key `name` of [irc] was given on (1 if not given). */
static int irc_line(const struct config_ctx *x, const char *name)
{
    for (int i = 0; i < NKEYS; i++)
        if (strcmp(config_keys[i].section, "irc") == 0 && strcmp(config_keys[i].name, name) == 0)
            return x->seen[i] ? x->seen[i] : 1;
    return 1;
}

/* 1 if [irc] key `name` was given. */
static int irc_given(const struct config_ctx *x, const char *name)
{
    for (int i = 0; i < NKEYS; i++)
        if (strcmp(config_keys[i].section, "irc") == 0 && strcmp(config_keys[i].name, name) == 0)
            return x->seen[i] != 0;
    return 0;
}

/* TLS and SASL keys that only make sense together. With tls = yes and no
 * port given, the port is 6697. */
static void tls_sasl_check(struct config_ctx *x)
{
    struct config *c = &x->c;
    static const char *const tls_only[] = {"tls_ca_file", "tls_cert_file", "tls_key_file"};

    if (c->tls && !irc_given(x, "port"))
        c->port = 6697;
    for (int i = 0; i < 3 && !c->tls; i++) {
        const char *v = i == 0 ? c->tls_ca_file : i == 1 ? c->tls_cert_file : c->tls_key_file;
        if (v[0]) {
            x->line = irc_line(x, tls_only[i]);
            ctx_fail(x, "%s is set but tls = no: it is used only over TLS; add tls = yes",
                     tls_only[i]);
            return;
        }
    }
    if (!c->tls && !c->tls_verify) {
        x->line = irc_line(x, "tls_verify");
        ctx_fail(x, "tls_verify = no is set but tls = no: it is used only over TLS; add tls = yes");
    } else if (c->tls_key_file[0] && !c->tls_cert_file[0]) {
        x->line = irc_line(x, "tls_key_file");
        ctx_fail(x, "tls_key_file is set without tls_cert_file: give the client certificate "
                    "too");
    } else if (c->sasl_mechanism == SASL_PLAIN && !c->sasl_password[0]) {
        x->line = irc_line(x, "sasl_mechanism");
        ctx_fail(x, "sasl_mechanism = plain needs sasl_password (and sasl_username, if the "
                    "account is not named like the nick)");
    } else if (c->sasl_mechanism == SASL_EXTERNAL && (!c->tls || !c->tls_cert_file[0])) {
        x->line = irc_line(x, "sasl_mechanism");
        ctx_fail(x, "sasl_mechanism = external logs in with the client certificate: it needs "
                    "tls = yes and tls_cert_file");
    } else if (c->sasl_mechanism != SASL_PLAIN && c->sasl_password[0]) {
        x->line = irc_line(x, "sasl_password");
        ctx_fail(x, "sasl_password is set but sasl_mechanism is not plain: add sasl_mechanism "
                    "= plain");
    } else if (c->sasl_required && c->sasl_mechanism == SASL_NONE) {
        x->line = irc_line(x, "sasl_required");
        ctx_fail(x, "sasl_required = yes needs sasl_mechanism (plain or external)");
    }
}

/* Parses text (the whole file) into x->c; 0 or -1 with the error in err. */
static int config_run(struct config_ctx *x, const char *text, const char *name, char *err,
                      size_t errlen)
{
    x->text = x->pos = text;
    int bad = ini_parse_stream(config_reader, x, config_handler, x);

    if (bad == 0 && x->err_line == 0)
        pacing_check(x);
    if (bad == 0 && x->err_line == 0)
        tls_sasl_check(x);
    if (bad == 0 && x->err_line == 0)
        return 0;
    if (bad > 0 && (x->err_line == 0 || bad < x->err_line)) {
        x->err_line = bad;
        syntax_reason(text, bad, x->reason, sizeof(x->reason));
    } else if (bad < 0 && x->err_line == 0) {
        x->err_line = 1;
        snprintf(x->reason, sizeof(x->reason), "inih failed (%d)", bad);
    }
    if (err && errlen)
        snprintf(err, errlen, "%s:%d: %s", name, x->err_line, x->reason);
    return -1;
}

int config_parse(struct config *c, const char *text, const char *name, char *err, size_t errlen)
{
    struct config_ctx *x = xmalloc(sizeof(*x));
    int rc;

    memset(x, 0, sizeof(*x));
    config_defaults(&x->c);
    if (!name)
        name = "(config)";
    rc = config_run(x, text ? text : "", name, err, errlen);
    if (rc == 0)
        memcpy(c, &x->c, sizeof(*c));
    free(x);
    return rc;
}

int config_load(struct config *c, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *text;
    size_t len = 0;
    int rc;

    if (!f) {
        if (err && errlen)
            snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    text = xmalloc(CONFIG_FILE_MAX + 1);
    for (;;) {
        size_t n = fread(text + len, 1, CONFIG_FILE_MAX + 1 - len, f);
        len += n;
        if (n == 0 || len > CONFIG_FILE_MAX)
            break;
    }
    if (ferror(f)) {
        int e = errno;
        if (err && errlen)
            snprintf(err, errlen, "cannot read %s: %s", path, strerror(e ? e : EIO));
        fclose(f);
        free(text);
        return -1;
    }
    fclose(f);
    if (len > CONFIG_FILE_MAX) {
        if (err && errlen)
            snprintf(err, errlen, "%s: too large for a configuration (over %d bytes)", path,
                     CONFIG_FILE_MAX);
        free(text);
        return -1;
    }
    text[len] = '\0';
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        int line = 1;
        for (const char *p = text; p < nul; p++)
            line += *p == '\n';
        if (err && errlen)
            snprintf(err, errlen, "%s:%d: contains a NUL byte (is it a text file?)", path, line);
        free(text);
        return -1;
    }
    rc = config_parse(c, text, path, err, errlen);
    free(text);
    return rc;
}
