/*
 * fuzz_config.c - libFuzzer harness for config_parse.
 *
 * For every input: the call returns 0 or -1, twice the same way. A refusal
 * leaves the caller's struct untouched and explains itself as
 * "fuzz.conf:LINE: reason" with LINE inside the text. An accepted config
 * holds only values the bot may use unchecked (the invariants of config.c),
 * and written back out as INI it reads back to the same values. Any breach
 * aborts, which libFuzzer reports as a crash.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

/* A NUL-terminated string of at most size - 1 bytes, without control
 * characters. */
static void check_str(const char *s, size_t size, int nonempty)
{
    size_t n = strnlen(s, size);

    check(n < size);
    check(!nonempty || n > 0);
    for (size_t i = 0; i < n; i++)
        check((unsigned char)s[i] >= 0x20 && s[i] != 0x7f);
}

static int nick_char(char ch, int first)
{
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
        (ch != '\0' && strchr("[]\\`_^{|}", ch)))
        return 1;
    return !first && ((ch >= '0' && ch <= '9') || ch == '-');
}

static void check_nick(const char *s, int nonempty)
{
    size_t n = strnlen(s, CONFIG_NICK_MAX);

    check(n < CONFIG_NICK_MAX && n <= 30 && (n > 0 || !nonempty));
    for (size_t i = 0; i < n; i++)
        check(nick_char(s[i], i == 0));
}

static void check_config(const struct config *c)
{
    check_str(c->server, sizeof(c->server), 1);
    check(!strpbrk(c->server, " \t"));
    check(c->port >= 1 && c->port <= 65535);
    check(c->tls == 0 || c->tls == 1);
    check_str(c->tls_ca_file, sizeof(c->tls_ca_file), 0);
    check(c->tls_verify == 0 || c->tls_verify == 1);
    check_str(c->tls_cert_file, sizeof(c->tls_cert_file), 0);
    check_str(c->tls_key_file, sizeof(c->tls_key_file), 0);
    /* The TLS files and tls_verify = no only with TLS; a key needs its
     * certificate; each SASL mechanism has what it needs. */
    check(c->tls ||
          (!c->tls_ca_file[0] && !c->tls_cert_file[0] && !c->tls_key_file[0] && c->tls_verify));
    check(!c->tls_key_file[0] || c->tls_cert_file[0]);
    check(c->sasl_mechanism == SASL_NONE || c->sasl_mechanism == SASL_PLAIN ||
          c->sasl_mechanism == SASL_EXTERNAL);
    check_str(c->sasl_username, sizeof(c->sasl_username), 0);
    check_str(c->sasl_password, sizeof(c->sasl_password), 0);
    check((c->sasl_mechanism == SASL_PLAIN) == (c->sasl_password[0] != '\0'));
    check(c->sasl_mechanism != SASL_EXTERNAL || (c->tls && c->tls_cert_file[0]));
    check(!c->sasl_required || c->sasl_mechanism != SASL_NONE);
    check(c->accounts == ACCOUNTS_BOTH || c->accounts == ACCOUNTS_SERVICES ||
          c->accounts == ACCOUNTS_PASSWORDS);
    check_str(c->server_password, sizeof(c->server_password), 0);
    check_nick(c->nick, 1);
    check_nick(c->alt_nick, 0);
    check_str(c->username, sizeof(c->username), 1);
    check(!strpbrk(c->username, " @"));
    check_str(c->realname, sizeof(c->realname), 1);
    check(c->nchannels >= 0 && c->nchannels <= CONFIG_CHANNELS_MAX);
    for (int i = 0; i < c->nchannels; i++) {
        const char *ch = c->channels[i];
        check_str(ch, sizeof(c->channels[i]), 1);
        check(strlen(ch) >= 2 && strlen(ch) <= 49);
        check(ch[0] == '#' || ch[0] == '&');
        check(!strpbrk(ch, " ,:"));
        for (int j = 0; j < i; j++)
            check(irc_casecmp(CASEMAP_ASCII, ch, c->channels[j]) != 0);
    }
    check_str(c->nickserv_password, sizeof(c->nickserv_password), 0);
    check_str(c->prefix, sizeof(c->prefix), 1);
    for (const char *p = c->prefix; *p; p++)
        check(*p > ' ' && *p < 0x7f);
    check(c->nadmins >= 0 && c->nadmins <= CONFIG_ADMINS_MAX);
    for (int i = 0; i < c->nadmins; i++) {
        size_t n = strnlen(c->admins[i], CONFIG_NICK_MAX);
        check(n > 0 && n <= 30);
        for (size_t k = 0; k < n; k++)
            check(nick_char(c->admins[i][k], 0));
        check_str(c->admin_hash[i], sizeof(c->admin_hash[i]), 0);
        check(c->admin_hash[i][0] == '\0' ||
              (c->admin_hash[i][0] == '$' && c->admin_hash[i][1] != '$' &&
               !strchr(c->admin_hash[i], ' ')));
    }
    check_str(c->database, sizeof(c->database), 1);
    check(c->log_level >= LOG_DEBUG && c->log_level <= LOG_ERROR);
    check(c->burst >= 1 && c->burst <= 100);
    check(isfinite(c->lines_per_second) && c->lines_per_second > 0 && c->lines_per_second <= 100);
    check(c->order_timeout >= 10 && c->order_timeout <= 86400);
    check(c->challenge_timeout >= 10 && c->challenge_timeout <= 86400);
    check(c->rounds >= 3 && c->rounds <= 15);
    check(c->duel_round_seconds >= 1 && c->duel_round_seconds <= 3600);
    check(c->turn_interval >= 0 && c->turn_interval <= 366L * 86400);
}

/* Joins n strings, `stride` bytes apart from base, with commas. */
static void list(char *out, size_t size, const char *base, int n, size_t stride)
{
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        strncat(out, i ? "," : "", size - strlen(out) - 1);
        strncat(out, base + (size_t)i * stride, size - strlen(out) - 1);
    }
}

/* The admins as the config writes them: name or name:HASH, with commas. */
static void admin_list(char *out, size_t size, const struct config *c)
{
    out[0] = '\0';
    for (int i = 0; i < c->nadmins; i++) {
        strncat(out, i ? "," : "", size - strlen(out) - 1);
        strncat(out, c->admins[i], size - strlen(out) - 1);
        if (c->admin_hash[i][0]) {
            strncat(out, ":", size - strlen(out) - 1);
            strncat(out, c->admin_hash[i], size - strlen(out) - 1);
        }
    }
}

/* Writes c back out as INI (all but lines_per_second, which has no exact
 * decimal form) and reads it back: the same values must come out. */
static void check_round_trip(const struct config *c)
{
    static const char *levels[] = {"debug", "info", "warn", "error"};
    static const char *mechs[] = {"none", "plain", "external"};
    static const char *modes[] = {"both", "services", "passwords"};
    char channels[CONFIG_CHANNELS_MAX * CONFIG_NICK_MAX * 2 + 16];
    char admins[CONFIG_ADMINS_MAX * (CONFIG_NICK_MAX + CONFIG_HASH_MAX + 2) + 16];
    char text[16384], err[CONFIG_ERR_MAX];
    struct config back;

    list(channels, sizeof(channels), c->channels[0], c->nchannels, sizeof(c->channels[0]));
    admin_list(admins, sizeof(admins), c);
    int n = snprintf(text, sizeof(text),
                     "[irc]\nserver=%s\nport=%d\ntls=%s\ntls_ca_file=%s\nserver_password=%s\n"
                     "nick=%s\nalt_nick=%s\nusername=%s\nrealname=%s\nchannels=%s\n"
                     "nickserv_password=%s\ntls_verify=%s\ntls_cert_file=%s\ntls_key_file=%s\n"
                     "sasl_mechanism=%s\nsasl_username=%s\nsasl_password=%s\nsasl_required=%s\n"
                     "[bot]\naccounts=%s\nprefix=%s\nadmins=%s\ndatabase=%s\n"
                     "log_level=%s\ncolours=%s\nnetwork=%s\nfailover_seconds=%d\n"
                     "[flood]\nburst=%d\nexempt=%s\ncommands=%d\n"
                     "commands_seconds=%d\nignore_seconds=%d\n[bout]\norder_timeout=%d\n"
                     "challenge_timeout=%d\nrounds=%d\nduel_round_seconds=%d\n[league]\n"
                     "turn_interval=%lds\n[web]\nlisten=%s\nbase_url=%s\n",
                     c->server, c->port, c->tls ? "yes" : "no", c->tls_ca_file, c->server_password,
                     c->nick, c->alt_nick, c->username, c->realname, channels, c->nickserv_password,
                     c->tls_verify ? "yes" : "no", c->tls_cert_file, c->tls_key_file,
                     mechs[c->sasl_mechanism], c->sasl_username, c->sasl_password,
                     c->sasl_required ? "yes" : "no", modes[c->accounts], c->prefix, admins,
                     c->database, levels[c->log_level], c->colours ? "yes" : "no", c->network,
                     c->failover_seconds, c->burst, c->exempt ? "yes" : "no", c->commands,
                     c->commands_seconds, c->ignore_seconds, c->order_timeout, c->challenge_timeout,
                     c->rounds, c->duel_round_seconds, c->turn_interval, c->listen, c->base_url);
    check(n > 0 && (size_t)n < sizeof(text));
    /* Lines that inih would cut or read as comments cannot be written back:
     * the parse must then fail, never accept something else. */
    int rc = config_parse(&back, text, "back.conf", err, sizeof(err));
    if (rc != 0)
        return;
    back.lines_per_second = c->lines_per_second;
    /* The keys not written back above (their own parsers are checked by
     * check_config's suite): taken as they were. */
    back.join_on_invite = c->join_on_invite;
    back.replies = c->replies;
    back.rejoin_grace = c->rejoin_grace;
    back.registrations_per_host = c->registrations_per_host;
    back.registrations_per_hour = c->registrations_per_hour;
    back.exhibitions = c->exhibitions;
    back.season_turns = c->season_turns;
    back.closes_after = c->closes_after;
    back.open_by = c->open_by;
    back.round_interval = c->round_interval;
    memcpy(back.relay_nicks, c->relay_nicks, sizeof(back.relay_nicks));
    back.nrelays = c->nrelays;
    memcpy(back.relay_format, c->relay_format, sizeof(back.relay_format));
    back.max_connections = c->max_connections;
    back.max_connections_per_address = c->max_connections_per_address;
    back.request_timeout = c->request_timeout;
    back.threads = c->threads;
    check(memcmp(&back, c, sizeof(back)) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    struct config c, d;
    char err[CONFIG_ERR_MAX], err2[CONFIG_ERR_MAX];

    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    memset(&c, 0xa5, sizeof(c));
    memcpy(&d, &c, sizeof(c));
    int rc = config_parse(&c, text, "fuzz.conf", err, sizeof(err));
    check(rc == 0 || rc == -1);
    if (rc == -1) {
        check(memcmp(&c, &d, sizeof(c)) == 0);
        size_t len = strnlen(err, sizeof(err));
        check(len > 0 && len < sizeof(err));
        check(strncmp(err, "fuzz.conf:", 10) == 0);
        char *end;
        long line = strtol(err + 10, &end, 10);
        long lines = 1;
        for (const char *p = text; *p; p++)
            lines += *p == '\n';
        check(line >= 1 && line <= lines);
        check(end[0] == ':' && end[1] == ' ' && end[2] != '\0');
        check(config_parse(&d, text, "fuzz.conf", err2, sizeof(err2)) == -1);
        check(strcmp(err, err2) == 0);
    } else {
        check_config(&c);
        check(config_parse(&d, text, "fuzz.conf", err2, sizeof(err2)) == 0);
        check(memcmp(&c, &d, sizeof(c)) == 0);
        check_round_trip(&c);
    }
    free(text);
    return 0;
}
