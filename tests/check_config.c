/* check_config.c - the INI configuration: defaults, every key, every error
 * with its line number, unknown and repeated keys, real files through
 * config_load (a temporary directory, unreadable paths), the shipped
 * example, which must load cleanly, and the warning for a file others can
 * read that holds a password. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bot.h"
#include "tests.h"

/* Parses text as "t.conf"; the return value, and the error in err. */
static int parse(struct config *c, const char *text, char *err)
{
    err[0] = '\0';
    return config_parse(c, text, "t.conf", err, CONFIG_ERR_MAX);
}

/* text must fail with exactly `want`, and leave the struct alone. */
#define EXPECT_ERR(text, want)                                                                     \
    do {                                                                                           \
        struct config c_, d_;                                                                      \
        char err_[CONFIG_ERR_MAX];                                                                 \
        memset(&c_, 0x5a, sizeof(c_));                                                             \
        memcpy(&d_, &c_, sizeof(d_));                                                              \
        ck_assert_int_eq(parse(&c_, text, err_), -1);                                              \
        ck_assert_str_eq(err_, want);                                                              \
        ck_assert(memcmp(&c_, &d_, sizeof(c_)) == 0);                                              \
    } while (0)

#define EXPECT_OK(c, text)                                                                         \
    do {                                                                                           \
        char err_[CONFIG_ERR_MAX];                                                                 \
        int rc_ = parse(c, text, err_);                                                            \
        ck_assert_msg(rc_ == 0, "unexpected error: %s", err_);                                     \
    } while (0)

static void check_defaults(const struct config *c)
{
    ck_assert_str_eq(c->server, "127.0.0.1");
    ck_assert_int_eq(c->port, 6667);
    ck_assert_int_eq(c->tls, 0);
    ck_assert_str_eq(c->tls_ca_file, "");
    ck_assert_int_eq(c->tls_verify, 1);
    ck_assert_str_eq(c->tls_cert_file, "");
    ck_assert_str_eq(c->tls_key_file, "");
    ck_assert_str_eq(c->network, "");
    ck_assert_int_eq(c->failover_seconds, 30);
    ck_assert_int_eq(c->registrations_per_host, 10);
    ck_assert_int_eq(c->registrations_per_hour, 30);
    ck_assert_int_eq(c->sasl_mechanism, SASL_NONE);
    ck_assert_str_eq(c->sasl_username, "");
    ck_assert_str_eq(c->sasl_password, "");
    ck_assert_int_eq(c->sasl_required, 0);
    ck_assert_int_eq(c->accounts, ACCOUNTS_BOTH);
    ck_assert_str_eq(c->server_password, "");
    ck_assert_str_eq(c->nick, "ringside");
    ck_assert_str_eq(c->alt_nick, "");
    ck_assert_str_eq(c->username, "ringside");
    ck_assert_str_eq(c->realname, "Ringside boxing bot");
    ck_assert_int_eq(c->nchannels, 0);
    ck_assert_str_eq(c->nickserv_password, "");
    ck_assert_str_eq(c->prefix, "!");
    ck_assert_int_eq(c->nadmins, 0);
    ck_assert_str_eq(c->database, "ringside.db");
    ck_assert_int_eq(c->log_level, LOG_INFO);
    ck_assert_int_eq(c->burst, 4);
    ck_assert_double_eq(c->lines_per_second, 1.0);
    ck_assert_int_eq(c->exempt, 0);
    ck_assert_int_eq(c->commands, 12);
    ck_assert_int_eq(c->commands_seconds, 60);
    ck_assert_int_eq(c->ignore_seconds, 60);
    ck_assert_int_eq(c->order_timeout, 120);
    ck_assert_int_eq(c->challenge_timeout, 300);
    ck_assert_int_eq(c->rounds, 12);
    ck_assert_int_eq(c->turn_interval, 0);
    ck_assert_int_eq(c->rejoin_grace, 300);
    ck_assert_str_eq(c->listen, "127.0.0.1:8080");
    ck_assert_str_eq(c->base_url, "");
}

START_TEST(test_defaults)
{
    struct config c;

    memset(&c, 0x7f, sizeof(c));
    config_defaults(&c);
    check_defaults(&c);
    memset(&c, 0x7f, sizeof(c));
    EXPECT_OK(&c, "");
    check_defaults(&c);
    memset(&c, 0x7f, sizeof(c));
    EXPECT_OK(&c, "; only comments\n# and blank lines\n\n   \n[irc]\n[bot]\n");
    check_defaults(&c);
}
END_TEST

START_TEST(test_every_key)
{
    struct config c;

    EXPECT_OK(&c, "[irc]\n"
                  "server = irc.example.net\n"
                  "port = 6697\n"
                  "tls = yes\n"
                  "tls_ca_file = /etc/ssl/certs/ca.pem\n"
                  "server_password = se cret!\n"
                  "nick = Ring[side]\n"
                  "alt_nick = ring`side-2\n"
                  "username = ringbot\n"
                  "realname = The Ringside bot, v1\n"
                  "channels = #ringside, &local ,#b\xc3\xa9ton\n"
                  "nickserv_password = hunter2\n"
                  "[bot]\n"
                  "prefix = .rs\n"
                  "admins = alice, Bob_, 9lives\n"
                  "database = /var/lib/ringside/ringside.db\n"
                  "log_level = debug\n"
                  "network = libera-2\n"
                  "failover_seconds = 12\n"
                  "registrations_per_host = 5\n"
                  "registrations_per_hour = 100\n"
                  "[flood]\n"
                  "burst = 10\n"
                  "lines_per_second = 2.5\n"
                  "exempt = yes\n"
                  "commands = 20\n"
                  "commands_seconds = 30\n"
                  "ignore_seconds = 0\n"
                  "[bout]\n"
                  "order_timeout = 600\n"
                  "challenge_timeout = 86400\n"
                  "rounds = 3\n"
                  "[league]\n"
                  "turn_interval = 1d\n"
                  "[web]\n"
                  "listen = 0.0.0.0:8081\n"
                  "base_url = https://ring.example.org\n");
    ck_assert_str_eq(c.server, "irc.example.net");
    ck_assert_int_eq(c.port, 6697);
    ck_assert_int_eq(c.tls, 1);
    ck_assert_str_eq(c.tls_ca_file, "/etc/ssl/certs/ca.pem");
    ck_assert_str_eq(c.server_password, "se cret!");
    ck_assert_str_eq(c.nick, "Ring[side]");
    ck_assert_str_eq(c.alt_nick, "ring`side-2");
    ck_assert_str_eq(c.username, "ringbot");
    ck_assert_str_eq(c.realname, "The Ringside bot, v1");
    ck_assert_int_eq(c.nchannels, 3);
    ck_assert_str_eq(c.channels[0], "#ringside");
    ck_assert_str_eq(c.channels[1], "&local");
    ck_assert_str_eq(c.channels[2], "#b\xc3\xa9ton");
    ck_assert_str_eq(c.nickserv_password, "hunter2");
    ck_assert_str_eq(c.prefix, ".rs");
    ck_assert_int_eq(c.nadmins, 3);
    ck_assert_str_eq(c.admins[0], "alice");
    ck_assert_str_eq(c.admins[1], "Bob_");
    ck_assert_str_eq(c.admins[2], "9lives");
    ck_assert_str_eq(c.admin_hash[0], "");
    struct config h;
    EXPECT_OK(&h, "[bot]\nadmins = alice, bob:$y$j9T$Ab./x$Qz09\n");
    ck_assert_int_eq(h.nadmins, 2);
    ck_assert_str_eq(h.admins[1], "bob");
    ck_assert_str_eq(h.admin_hash[1], "$y$j9T$Ab./x$Qz09");
    ck_assert_str_eq(h.admin_hash[0], "");
    ck_assert_str_eq(c.database, "/var/lib/ringside/ringside.db");
    ck_assert_int_eq(c.log_level, LOG_DEBUG);
    ck_assert_str_eq(c.network, "libera-2");
    ck_assert_int_eq(c.failover_seconds, 12);
    ck_assert_int_eq(c.registrations_per_host, 5);
    ck_assert_int_eq(c.registrations_per_hour, 100);
    ck_assert_int_eq(c.burst, 10);
    ck_assert_double_eq(c.lines_per_second, 2.5);
    ck_assert_int_eq(c.exempt, 1);
    ck_assert_int_eq(c.commands, 20);
    ck_assert_int_eq(c.commands_seconds, 30);
    ck_assert_int_eq(c.ignore_seconds, 0);
    ck_assert_int_eq(c.order_timeout, 600);
    ck_assert_int_eq(c.challenge_timeout, 86400);
    ck_assert_int_eq(c.rounds, 3);
    ck_assert_int_eq(c.turn_interval, 86400);
    ck_assert_str_eq(c.listen, "0.0.0.0:8081");
    ck_assert_str_eq(c.base_url, "https://ring.example.org");
}
END_TEST

START_TEST(test_value_forms)
{
    static const struct {
        const char *text;
        int tls;
    } bools[] = {{"yes", 1}, {"no", 0}, {"true", 1}, {"false", 0}, {"on", 1},
                 {"off", 0}, {"1", 1},  {"0", 0},    {"YES", 1},   {"Off", 0}};
    static const struct {
        const char *text;
        long seconds;
    } durations[] = {{"", 0},        {"0", 0},          {"45s", 45}, {"30m", 1800},
                     {"12h", 43200}, {"1d", 86400},     {"90", 90},  {"1h30m", 5400},
                     {"2D", 172800}, {"366d", 31622400}};
    static const struct {
        const char *text;
        double rate;
    } rates[] = {{"1", 1}, {"0.5", 0.5}, {".25", 0.25}, {"2.", 2}, {"100", 100}, {"0.01", 0.01}};
    struct config c;
    char text[128];

    for (size_t i = 0; i < sizeof(bools) / sizeof(bools[0]); i++) {
        snprintf(text, sizeof(text), "[irc]\ntls = %s\n", bools[i].text);
        EXPECT_OK(&c, text);
        ck_assert_int_eq(c.tls, bools[i].tls);
    }
    for (size_t i = 0; i < sizeof(durations) / sizeof(durations[0]); i++) {
        snprintf(text, sizeof(text), "[league]\nturn_interval = %s\n", durations[i].text);
        EXPECT_OK(&c, text);
        ck_assert_int_eq(c.turn_interval, durations[i].seconds);
    }
    static const struct {
        const char *text;
        long seconds;
    } graces[] = {{"5m", 300}, {"90s", 90}, {"0", 0}, {"", 0}, {"1d", 86400}, {"1m30s", 90}};
    for (size_t i = 0; i < sizeof(graces) / sizeof(graces[0]); i++) {
        snprintf(text, sizeof(text), "[bout]\nrejoin_grace = %s\n", graces[i].text);
        EXPECT_OK(&c, text);
        ck_assert_int_eq(c.rejoin_grace, graces[i].seconds);
    }
    for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
        snprintf(text, sizeof(text), "[flood]\nlines_per_second = %s\nexempt = yes\n",
                 rates[i].text);
        EXPECT_OK(&c, text);
        ck_assert_double_eq_tol(c.lines_per_second, rates[i].rate, 1e-12);
    }
    for (int level = LOG_DEBUG; level <= LOG_ERROR; level++) {
        static const char *names[] = {"debug", "info", "warn", "error"};
        snprintf(text, sizeof(text), "[bot]\nlog_level = %s\n", names[level]);
        EXPECT_OK(&c, text);
        ck_assert_int_eq(c.log_level, level);
    }
    /* Bounds are inclusive. */
    EXPECT_OK(&c, "[irc]\nport = 1\n[flood]\nburst = 100\nexempt = on\n[bout]\nrounds = 15\n"
                  "order_timeout = 10\nchallenge_timeout = 10\n");
    ck_assert_int_eq(c.port, 1);
    ck_assert_int_eq(c.burst, 100);
    ck_assert_int_eq(c.rounds, 15);
    ck_assert_int_eq(c.order_timeout, 10);
    EXPECT_OK(&c, "[irc]\nport = 65535\n[flood]\nburst = 1\n");
    ck_assert_int_eq(c.port, 65535);
    ck_assert_int_eq(c.burst, 1);
    /* Empty lists and optional strings. */
    EXPECT_OK(&c, "[irc]\nchannels =\nalt_nick =\n[bot]\nadmins =   \n");
    ck_assert_int_eq(c.nchannels, 0);
    ck_assert_int_eq(c.nadmins, 0);
    /* A nick of 30 bytes; 16 channels of 49 bytes; 16 admins. */
    EXPECT_OK(&c, "[irc]\nnick = abcdefghijklmnopqrstuvwxyz0123\n");
    ck_assert_str_eq(c.nick, "abcdefghijklmnopqrstuvwxyz0123");
    char big[1024] = "[irc]\nchannels = ";
    for (int i = 0; i < 15; i++)
        snprintf(big + strlen(big), sizeof(big) - strlen(big), "#%02d,", i);
    strcat(big, "#");
    memset(big + strlen(big), 'x', 48);
    strcat(big, "\n");
    EXPECT_OK(&c, big);
    ck_assert_int_eq(c.nchannels, 16);
    ck_assert_uint_eq(strlen(c.channels[15]), 49);
    EXPECT_OK(&c, "[bot]\nadmins = a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p\n");
    ck_assert_int_eq(c.nadmins, 16);
    ck_assert_str_eq(c.admins[15], "p");
    /* prefix: any 1 to 7 printable characters, "#" and ";" too (inih reads
     * " ;" as the start of a comment, so ";" must follow "=" directly). */
    EXPECT_OK(&c, "[bot]\nprefix = #\n");
    ck_assert_str_eq(c.prefix, "#");
    EXPECT_OK(&c, "[bot]\nprefix =;\n");
    ck_assert_str_eq(c.prefix, ";");
    EXPECT_ERR("[bot]\nprefix = ;\n", "t.conf:2: prefix must not be empty");
    EXPECT_OK(&c, "[bot]\nprefix = ~!@#$%^\n");
    ck_assert_str_eq(c.prefix, "~!@#$%^");
}
END_TEST

/* Layout: sections and keys in any case, indentation, CRLF, inline
 * comments, "key: value", a BOM, sections given twice (merged). */
/* [bout] order_timeout takes a duration as the other durations do (a plain
 * number still seconds), from 10 s to 1 d; anything else is refused with
 * the bounds and the forms, and nothing changes. */
START_TEST(test_order_timeout)
{
    static const struct {
        const char *text;
        int seconds;
    } good[] = {{"120", 120}, {"10", 10},    {"90s", 90},   {"2m", 120},
                {"1h", 3600}, {"1m30s", 90}, {"1d", 86400}, {"86400", 86400}};
    static const char *bad[] = {"9", "9s",   "86401", "1d1s", "2d",   "",
                                "0", "soon", "2 m",   "-5m",  "1.5m", "1w"};
    struct config c;
    char text[128], want[256];

    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        snprintf(text, sizeof(text), "[bout]\norder_timeout = %s\n", good[i].text);
        EXPECT_OK(&c, text);
        ck_assert_int_eq(c.order_timeout, good[i].seconds);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(text, sizeof(text), "[bout]\norder_timeout = %s\n", bad[i]);
        snprintf(want, sizeof(want),
                 "t.conf:2: order_timeout \"%s\" is not a duration from 10s to 1d (like 90s, 2m "
                 "or 1h; a plain number is seconds)",
                 bad[i]);
        EXPECT_ERR(text, want);
    }
}
END_TEST

/* Every other key that is a count of seconds takes a duration as
 * order_timeout does (a plain number still seconds: the files written for
 * the whole numbers load unchanged), within its own bounds, and refuses
 * anything else in the same one line, changing nothing. */
START_TEST(test_seconds_keys)
{
    static const struct {
        const char *section, *key, *lo, *hi;
        size_t offset;
        int min, max;
    } keys[] = {
        {"bot", "failover_seconds", "5s", "1h", offsetof(struct config, failover_seconds), 5, 3600},
        {"flood", "commands_seconds", "1s", "1h", offsetof(struct config, commands_seconds), 1,
         3600},
        {"flood", "ignore_seconds", "0s", "1d", offsetof(struct config, ignore_seconds), 0, 86400},
        {"bout", "challenge_timeout", "10s", "1d", offsetof(struct config, challenge_timeout), 10,
         86400},
        {"bout", "duel_round_seconds", "1s", "1h", offsetof(struct config, duel_round_seconds), 1,
         3600},
        {"web", "request_timeout", "1s", "5m", offsetof(struct config, request_timeout), 1, 300},
    };
    static const struct {
        const char *text;
        int seconds;
    } forms[] = {{"30", 30}, {"30s", 30}, {"1m", 60}, {"1m30s", 90}, {"2M", 120}, {"1h", 3600}};
    static const char *bad[] = {"", "soon", "2 m", "-5m", "1.5m", "1w", "5x"};
    struct config c;
    char text[160], want[320];

    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
        const int *field = (const int *)(const void *)((const char *)&c + keys[k].offset);
        for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
            if (forms[i].seconds < keys[k].min || forms[i].seconds > keys[k].max)
                continue;
            snprintf(text, sizeof(text), "[%s]\n%s = %s\n", keys[k].section, keys[k].key,
                     forms[i].text);
            EXPECT_OK(&c, text);
            ck_assert_int_eq(*field, forms[i].seconds);
        }
        /* Its bounds, as a number and as a duration, are in; a second past
         * either is out, with the same reply as any other bad value. */
        const char *edges[4] = {keys[k].lo, keys[k].hi, NULL, NULL};
        char under[24], over[24];
        snprintf(under, sizeof(under), "%d", keys[k].min - 1);
        snprintf(over, sizeof(over), "%ds", keys[k].max + 1);
        for (int i = 0; i < 2; i++) {
            snprintf(text, sizeof(text), "[%s]\n%s = %s\n", keys[k].section, keys[k].key, edges[i]);
            EXPECT_OK(&c, text);
            ck_assert_int_eq(*field, i ? keys[k].max : keys[k].min);
        }
        edges[2] = under;
        edges[3] = over;
        for (size_t i = 0; i < 2 + sizeof(bad) / sizeof(bad[0]); i++) {
            const char *v = i < 2 ? edges[2 + i] : bad[i - 2];
            snprintf(text, sizeof(text), "[%s]\n%s = %s\n", keys[k].section, keys[k].key, v);
            snprintf(want, sizeof(want),
                     "t.conf:2: %s \"%s\" is not a duration from %s to %s (like 90s, 2m or 1h; "
                     "a plain number is seconds)",
                     keys[k].key, v, keys[k].lo, keys[k].hi);
            EXPECT_ERR(text, want);
        }
    }
}
END_TEST

START_TEST(test_layout)
{
    struct config c;

    EXPECT_OK(&c, "\xef\xbb\xbf; a BOM first\r\n"
                  "[IRC]\r\n"
                  "    Server = example.org   ; inline comment\r\n"
                  "    PORT: 7000\r\n"
                  "\tnick = bot\r\n"
                  "[bot]\n"
                  "  prefix = !\n"
                  "[irc]\n"
                  "  realname = Two parts\n"
                  "# the end\n");
    ck_assert_str_eq(c.server, "example.org");
    ck_assert_int_eq(c.port, 7000);
    ck_assert_str_eq(c.nick, "bot");
    ck_assert_str_eq(c.realname, "Two parts");
    /* No final newline. */
    EXPECT_OK(&c, "[bout]\nrounds = 5");
    ck_assert_int_eq(c.rounds, 5);
}
END_TEST

START_TEST(test_bad_values)
{
    EXPECT_ERR("[irc]\nserver = x\nport = 70000\n",
               "t.conf:3: port \"70000\" is not a port (1-65535)");
    EXPECT_ERR("[irc]\nport = 0\n", "t.conf:2: port \"0\" is not a port (1-65535)");
    EXPECT_ERR("[irc]\nport = 66x\n", "t.conf:2: port \"66x\" is not a port (1-65535)");
    EXPECT_ERR("[irc]\nport = -1\n", "t.conf:2: port \"-1\" is not a port (1-65535)");
    EXPECT_ERR("[irc]\nport =\n", "t.conf:2: port \"\" is not a port (1-65535)");
    EXPECT_ERR("[irc]\nport = 99999999999999999999999\n",
               "t.conf:2: port \"99999999999999999999999\" is not a port (1-65535)");
    EXPECT_ERR("[irc]\ntls = maybe\n",
               "t.conf:2: tls \"maybe\" is not a boolean (yes/no, true/false, on/off, 1/0)");
    EXPECT_ERR("[irc]\nserver =\n", "t.conf:2: server must not be empty");
    EXPECT_ERR("[irc]\nserver = irc example\n",
               "t.conf:2: server \"irc example\" must not contain blanks");
    EXPECT_ERR("[irc]\nserver = a\x01z\n", "t.conf:2: server contains a control character");
    EXPECT_ERR("[irc]\nnick = 1abc\n",
               "t.conf:2: nick \"1abc\" is not a valid nick (a letter or one of []\\`_^{|} first, "
               "then letters, digits, those or -; at most 30 bytes)");
    EXPECT_ERR("[irc]\nnick = abcdefghijklmnopqrstuvwxyz01234\n",
               "t.conf:2: nick \"abcdefghijklmnopqrstuvwxyz01234\" is not a valid nick (a letter "
               "or one of []\\`_^{|} first, then letters, digits, those or -; at most 30 bytes)");
    EXPECT_ERR("[irc]\nnick =\n", "t.conf:2: nick must not be empty");
    EXPECT_ERR("[irc]\nalt_nick = a.b\n",
               "t.conf:2: alt_nick \"a.b\" is not a valid nick (a letter or one of []\\`_^{|} "
               "first, then letters, digits, those or -; at most 30 bytes)");
    EXPECT_ERR("[irc]\nusername = a@b\n",
               "t.conf:2: username \"a@b\" must not contain blanks or @");
    EXPECT_ERR("[irc]\nusername = abcdefghijklmnopqrstuvwxyz0123456\n",
               "t.conf:2: username is too long (at most 31 bytes)");
    EXPECT_ERR("[irc]\nrealname =\n", "t.conf:2: realname must not be empty");
    EXPECT_ERR("[bot]\nprefix =\n", "t.conf:2: prefix must not be empty");
    EXPECT_ERR("[bot]\nnetwork = Libera\n",
               "t.conf:2: network \"Libera\" must be a short name, as in alice@libera: a lowercase "
               "letter first, then lowercase letters, digits, - or _");
    EXPECT_ERR("[bot]\nnetwork = a@b\n",
               "t.conf:2: network \"a@b\" must be a short name, as in alice@libera: a lowercase "
               "letter first, then lowercase letters, digits, - or _");
    EXPECT_ERR("[bot]\nnetwork = abcdefghijklmnopqrstuvwxyz0123456\n",
               "t.conf:2: network is too long (at most 32 bytes)");
    EXPECT_ERR("[bot]\nprefix = 12345678\n",
               "t.conf:2: prefix \"12345678\" must be 1 to 7 printable ASCII characters without "
               "spaces");
    EXPECT_ERR("[bot]\nprefix = a b\n",
               "t.conf:2: prefix \"a b\" must be 1 to 7 printable ASCII characters without "
               "spaces");
    EXPECT_ERR("[bot]\nprefix = \xc2\xa1\n",
               "t.conf:2: prefix \"\xc2\xa1\" must be 1 to 7 printable ASCII characters without "
               "spaces");
    EXPECT_ERR("[bot]\ndatabase =\n", "t.conf:2: database must not be empty");
    EXPECT_ERR("[bot]\nlog_level = loud\n",
               "t.conf:2: log_level \"loud\" is not a level (debug, info, warn, error)");
    EXPECT_ERR("[flood]\nburst = 0\n",
               "t.conf:2: burst \"0\" must be a whole number from 1 to 100");
    EXPECT_ERR("[flood]\nburst = 101\n",
               "t.conf:2: burst \"101\" must be a whole number from 1 to 100");
    EXPECT_ERR("[flood]\nlines_per_second = 0\n",
               "t.conf:2: lines_per_second \"0\" must be a number over 0 and at most 100");
    /* Faster than servers take, only when the network exempts the bot. */
    EXPECT_ERR("[flood]\nburst = 4\n\nlines_per_second = 1.5\n",
               "t.conf:4: lines_per_second = 1.5 is faster than IRC servers let a client send "
               "(ircd-hybrid kills at 1.5, InspIRCd at 3): use at most 1, or add exempt = yes to "
               "[flood] if your network exempts the bot from flood limits");
    EXPECT_ERR("[flood]\nexempt = no\nburst = 6\n",
               "t.conf:3: burst = 6 is more lines at once than IRC servers take from a client: use "
               "at most 5, or add exempt = yes to [flood] if your network exempts the bot from "
               "flood limits");
    EXPECT_ERR("[bot]\nregistrations_per_host = 0\n",
               "t.conf:2: registrations_per_host \"0\" must be a whole number from 1 to 10000");
    EXPECT_ERR("[bot]\nregistrations_per_hour = 100001\n",
               "t.conf:2: registrations_per_hour \"100001\" must be a whole number from 1 to "
               "100000");
    EXPECT_ERR("[flood]\ncommands = 0\n",
               "t.conf:2: commands \"0\" must be a whole number from 1 to 100");
    EXPECT_ERR("[flood]\nlines_per_second = 100.5\n",
               "t.conf:2: lines_per_second \"100.5\" must be a number over 0 and at most 100");
    EXPECT_ERR("[flood]\nlines_per_second = nan\n",
               "t.conf:2: lines_per_second \"nan\" must be a number over 0 and at most 100");
    EXPECT_ERR("[flood]\nlines_per_second = 1e1\n",
               "t.conf:2: lines_per_second \"1e1\" must be a number over 0 and at most 100");
    EXPECT_ERR("[flood]\nlines_per_second = .\n",
               "t.conf:2: lines_per_second \".\" must be a number over 0 and at most 100");
    EXPECT_ERR("[bout]\nrounds = 2\n",
               "t.conf:2: rounds \"2\" must be a whole number from 3 to 15");
    EXPECT_ERR("[bout]\nrounds = 16\n",
               "t.conf:2: rounds \"16\" must be a whole number from 3 to 15");
    EXPECT_ERR("[bout]\nrounds = 1 2\n",
               "t.conf:2: rounds \"1 2\" must be a whole number from 3 to 15");
    static const char *bad_graces[] = {"soon", "1d1s", "2d", "-5m", "5 m"};
    for (size_t i = 0; i < sizeof(bad_graces) / sizeof(bad_graces[0]); i++) {
        char text[64], want[256];
        snprintf(text, sizeof(text), "[bout]\nrejoin_grace = %s\n", bad_graces[i]);
        snprintf(want, sizeof(want),
                 "t.conf:2: rejoin_grace \"%s\" is not a duration (like 5m, 90s or 1h, at most "
                 "1d; 0 to start the clocks at once)",
                 bad_graces[i]);
        EXPECT_ERR(text, want);
    }
    static const char *bad_durations[] = {"abc", "1w", "d", "1 d", "367d", "-1h", "1.5h"};
    for (size_t i = 0; i < sizeof(bad_durations) / sizeof(bad_durations[0]); i++) {
        char text[64], want[256];
        snprintf(text, sizeof(text), "[league]\n\nturn_interval = %s\n", bad_durations[i]);
        snprintf(want, sizeof(want),
                 "t.conf:3: turn_interval \"%s\" is not a duration (like 1d, 12h, 30m or 45s, "
                 "at most 366d; empty for none)",
                 bad_durations[i]);
        EXPECT_ERR(text, want);
    }
}
END_TEST

START_TEST(test_bad_lists)
{
    EXPECT_ERR("[irc]\nchannels = ringside\n",
               "t.conf:2: channel \"ringside\" must start with # or &");
    EXPECT_ERR("[irc]\nchannels = #a, +b\n", "t.conf:2: channel \"+b\" must start with # or &");
    EXPECT_ERR("[irc]\nchannels = #a b\n",
               "t.conf:2: channel \"#a b\" is not a valid channel name (no spaces, colons, commas "
               "or control characters)");
    EXPECT_ERR("[irc]\nchannels = #a:b\n",
               "t.conf:2: channel \"#a:b\" is not a valid channel name (no spaces, colons, commas "
               "or control characters)");
    EXPECT_ERR("[irc]\nchannels = #a\x07\n",
               "t.conf:2: channel \"#a?\" is not a valid channel name (no spaces, colons, commas "
               "or control characters)");
    EXPECT_ERR("[irc]\nchannels = #\n",
               "t.conf:2: channel \"#\" needs a name after its first character");
    EXPECT_ERR("[irc]\nchannels = #a,,#b\n",
               "t.conf:2: channels: an empty name in the list (channels are separated by commas, "
               "like \"#ringside, #boxing\")");
    EXPECT_ERR("[irc]\nchannels = #a,\n",
               "t.conf:2: channels: an empty name in the list (channels are separated by commas, "
               "like \"#ringside, #boxing\")");
    EXPECT_ERR("[irc]\nchannels = #Ring, #ring\n", "t.conf:2: channel \"#ring\" is listed twice");
    EXPECT_ERR("[irc]\nchannels = #12345678901234567890123456789012345678901234567890\n",
               "t.conf:2: channel \"#123456789012345678901234567890123456789...\" is too long "
               "(at most 49 bytes)");
    EXPECT_ERR("[irc]\nchannels = #a,#b,#c,#d,#e,#f,#g,#h,#i,#j,#k,#l,#m,#n,#o,#p,#q\n",
               "t.conf:2: too many channels (at most 16)");
    EXPECT_ERR("[bot]\nadmins = alice bob\n",
               "t.conf:2: admin \"alice bob\" is not a valid account name (letters, digits, "
               "[]\\`_^{|} or -, at most 30 bytes)");
    EXPECT_ERR("[bot]\nadmins = alice, ,bob\n",
               "t.conf:2: admins: an empty name in the list (account names are separated by "
               "commas, like \"alice, bob\")");
    EXPECT_ERR("[bot]\nadmins = alice, ALICE\n", "t.conf:2: admin \"ALICE\" is listed twice");
    /* name:HASH (ringside --hash-password). */
    EXPECT_ERR("[bot]\nadmins = alice:secret\n",
               "t.conf:2: admin \"alice\": after the ':' comes a password hash as ringside "
               "--hash-password prints it (\"$y$...\", no spaces)");
    EXPECT_ERR("[bot]\nadmins = alice:$y$ab cd\n",
               "t.conf:2: admin \"alice\": after the ':' comes a password hash as ringside "
               "--hash-password prints it (\"$y$...\", no spaces)");
    EXPECT_ERR("[bot]\nadmins = alice:$$ls\n",
               "t.conf:2: admin \"alice\": after the ':' comes a password hash as ringside "
               "--hash-password prints it (\"$y$...\", no spaces)");
    EXPECT_ERR("[bot]\nadmins = alice:$yescrypt\n",
               "t.conf:2: admin \"alice\": after the ':' comes a password hash as ringside "
               "--hash-password prints it (\"$y$...\", no spaces)");
    EXPECT_ERR("[bot]\nadmins = alice:$y$j9T$\n",
               "t.conf:2: admin \"alice\": after the ':' comes a password hash as ringside "
               "--hash-password prints it (\"$y$...\", no spaces)");
    EXPECT_ERR("[bot]\nadmins = :$y$j9T$abc\n",
               "t.conf:2: admin \"\" is not a valid account name (letters, digits, "
               "[]\\`_^{|} or -, at most 30 bytes)");
    EXPECT_ERR("[bot]\nadmins = a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q\n",
               "t.conf:2: too many admins (at most 16)");
}
END_TEST

/* TLS, SASL and [bot] accounts: the keys, and the combinations refused. */
START_TEST(test_tls_sasl)
{
    struct config c;

    EXPECT_OK(&c, "[irc]\n"
                  "server = irc.libera.chat\n"
                  "tls = yes\n"
                  "tls_verify = yes\n"
                  "tls_ca_file = /etc/ssl/certs/ca-certificates.crt\n"
                  "tls_cert_file = /etc/ringside/bot.pem\n"
                  "tls_key_file = /etc/ringside/bot.key\n"
                  "sasl_mechanism = EXTERNAL\n"
                  "sasl_username = ringbot\n"
                  "sasl_required = yes\n"
                  "[bot]\n"
                  "accounts = services\n");
    ck_assert_int_eq(c.tls, 1);
    ck_assert_int_eq(c.port, 6697); /* TLS without a port: 6697 */
    ck_assert_int_eq(c.tls_verify, 1);
    ck_assert_str_eq(c.tls_cert_file, "/etc/ringside/bot.pem");
    ck_assert_str_eq(c.tls_key_file, "/etc/ringside/bot.key");
    ck_assert_int_eq(c.sasl_mechanism, SASL_EXTERNAL);
    ck_assert_str_eq(c.sasl_username, "ringbot");
    ck_assert_int_eq(c.sasl_required, 1);
    ck_assert_int_eq(c.accounts, ACCOUNTS_SERVICES);

    EXPECT_OK(&c, "[irc]\ntls = yes\nport = 7000\ntls_verify = no\nsasl_mechanism = plain\n"
                  "sasl_password = s3cret pass\n[bot]\naccounts = passwords\n");
    ck_assert_int_eq(c.port, 7000);
    ck_assert_int_eq(c.tls_verify, 0);
    ck_assert_int_eq(c.sasl_mechanism, SASL_PLAIN);
    ck_assert_str_eq(c.sasl_password, "s3cret pass");
    ck_assert_int_eq(c.sasl_required, 0);
    ck_assert_int_eq(c.accounts, ACCOUNTS_PASSWORDS);
    EXPECT_OK(&c, "[irc]\nsasl_mechanism = plain\nsasl_password = pw123456\n"
                  "[bot]\naccounts = Both\n");
    ck_assert_int_eq(c.tls, 0);
    ck_assert_int_eq(c.port, 6667);
    ck_assert_int_eq(c.accounts, ACCOUNTS_BOTH);
    EXPECT_OK(&c, "[irc]\nsasl_mechanism = none\n");
    ck_assert_int_eq(c.sasl_mechanism, SASL_NONE);

    EXPECT_ERR("[irc]\nsasl_mechanism = scram\n",
               "t.conf:2: sasl_mechanism \"scram\" is not a mechanism (plain, external, or none)");
    EXPECT_ERR("[bot]\naccounts = nickserv\n",
               "t.conf:2: accounts \"nickserv\" is not services, passwords or both");
    EXPECT_ERR("[irc]\ntls_verify = perhaps\n",
               "t.conf:2: tls_verify \"perhaps\" is not a boolean (yes/no, true/false, on/off, "
               "1/0)");
    EXPECT_ERR(
        "[irc]\nserver = x\ntls_ca_file = /ca.pem\n",
        "t.conf:3: tls_ca_file is set but tls = no: it is used only over TLS; add tls = yes");
    EXPECT_ERR("[irc]\ntls_cert_file = /c.pem\n",
               "t.conf:2: tls_cert_file is set but tls = no: it is used only over TLS; add tls = "
               "yes");
    EXPECT_ERR("[irc]\ntls_verify = no\n",
               "t.conf:2: tls_verify = no is set but tls = no: it is used only over TLS; add tls = "
               "yes");
    EXPECT_ERR("[irc]\ntls = yes\ntls_key_file = /k.pem\n",
               "t.conf:3: tls_key_file is set without tls_cert_file: give the client certificate "
               "too");
    EXPECT_ERR("[irc]\n\nsasl_mechanism = plain\n",
               "t.conf:3: sasl_mechanism = plain needs sasl_password (and sasl_username, if the "
               "account is not named like the nick)");
    EXPECT_ERR("[irc]\nsasl_mechanism = external\n",
               "t.conf:2: sasl_mechanism = external logs in with the client certificate: it needs "
               "tls = yes and tls_cert_file");
    EXPECT_ERR("[irc]\ntls = yes\nsasl_mechanism = external\n",
               "t.conf:3: sasl_mechanism = external logs in with the client certificate: it needs "
               "tls = yes and tls_cert_file");
    EXPECT_ERR("[irc]\nsasl_password = hunter22\n",
               "t.conf:2: sasl_password is set but sasl_mechanism is not plain: add "
               "sasl_mechanism = plain");
    EXPECT_ERR("[irc]\nsasl_required = yes\n",
               "t.conf:2: sasl_required = yes needs sasl_mechanism (plain or external)");
    /* A password is never repeated in an error. */
    EXPECT_ERR("[irc]\nsasl_password = a\x01secret\n",
               "t.conf:2: sasl_password contains a control character");
}
END_TEST

START_TEST(test_unknown_and_repeated)
{
    EXPECT_ERR("[irc]\nserver = x\n\nnikc = bot\n",
               "t.conf:4: unknown key \"nikc\" in [irc]; keys are server, port, tls, tls_verify, "
               "tls_ca_file, tls_cert_file, tls_key_file, server_password, nick, alt_nick, "
               "username, realname, channels, nickserv_password, sasl_mechanism, "
               "sasl_username, sasl_password, sasl_required, join_on_invite");
    EXPECT_ERR(
        "[flood]\nrate = 3\n",
        "t.conf:2: unknown key \"rate\" in [flood]; keys are burst, lines_per_second, exempt, "
        "commands, commands_seconds, ignore_seconds");
    EXPECT_ERR("[irc]\nburst = 3\n",
               "t.conf:2: unknown key \"burst\" in [irc] (it belongs in [flood]); keys are "
               "server, port, tls, tls_verify, tls_ca_file, tls_cert_file, tls_key_file, "
               "server_password, nick, alt_nick, username, realname, channels, "
               "nickserv_password, sasl_mechanism, sasl_username, sasl_password, "
               "sasl_required, join_on_invite");
    EXPECT_ERR("port = 6667\n", "t.conf:1: key \"port\" is not in a section; it belongs in [irc]");
    EXPECT_ERR("; hi\nfoo = 1\n",
               "t.conf:2: key \"foo\" is not in a section (sections are irc, bot, flood, bout, "
               "league, bridge, tournament, rating, predict, web)");
    EXPECT_ERR("[irc]\n[ircd]\n[bot]\n",
               "t.conf:2: unknown section [ircd]; sections are irc, bot, "
               "flood, bout, league, bridge, tournament, rating, predict, web");
    EXPECT_ERR("[irc]\nport = 1\n[general]\nnick = x\n",
               "t.conf:3: unknown section [general]; sections are irc, bot, flood, bout, league, "
               "bridge, tournament, rating, predict, web");
    EXPECT_ERR("[irc]\nport = 6667\nnick = a\nport = 6668\n",
               "t.conf:4: key \"port\" given twice (first on line 2)");
    /* A section given twice merges, but a key stays once. */
    EXPECT_ERR("[irc]\nport = 6667\n[bot]\nprefix = !\n[IRC]\nPort = 1\n",
               "t.conf:6: key \"port\" given twice (first on line 2)");
    /* The first error wins. */
    EXPECT_ERR("[irc]\nport = x\nnick = 1\n", "t.conf:2: port \"x\" is not a port (1-65535)");
}
END_TEST

START_TEST(test_syntax_errors)
{
    EXPECT_ERR("[irc]\nport 6667\n",
               "t.conf:2: expected \"key = value\", a [section] or a comment (; or #)");
    EXPECT_ERR("[irc\nport = 1\n",
               "t.conf:1: a section header needs its closing \"]\", like [irc]");
    /* A syntax error before a bad value is the first. */
    EXPECT_ERR("[irc]\njunk\nport = 0\n",
               "t.conf:2: expected \"key = value\", a [section] or a comment (; or #)");
    EXPECT_ERR("[irc]\nport = 0\njunk\n", "t.conf:2: port \"0\" is not a port (1-65535)");
}
END_TEST

/* Over-long values and lines are errors, never truncated values. */
START_TEST(test_too_long)
{
    char text[1024], want[256];
    char value[300];

    memset(value, 'a', sizeof(value));
    value[180] = '\0';
    snprintf(text, sizeof(text), "[irc]\nnick = %s\n", value);
    EXPECT_ERR(text, "t.conf:2: nick \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\" is not a "
                     "valid nick (a letter or one of []\\`_^{|} first, then letters, digits, "
                     "those or -; at most 30 bytes)");
    /* The longest line inih takes: 198 bytes, indentation not counted. */
    memset(value, 'a', sizeof(value));
    value[198 - strlen("realname = ")] = '\0';
    snprintf(text, sizeof(text), "[irc]\n      realname = %s   \n", value);
    struct config c;
    EXPECT_OK(&c, text);
    ck_assert_uint_eq(strlen(c.realname), 198 - strlen("realname = "));
    value[198 - strlen("realname = ")] = 'a';
    value[199 - strlen("realname = ")] = '\0';
    snprintf(text, sizeof(text), "[irc]\n\nrealname = %s\nport = 0\n", value);
    snprintf(want, sizeof(want),
             "t.conf:3: line is too long (at most 198 bytes without its indentation)");
    EXPECT_ERR(text, want);
    /* Passwords are never repeated in errors. */
    EXPECT_ERR("[irc]\nserver_password = bad\x01pass\n",
               "t.conf:2: server_password contains a control character");
    EXPECT_ERR("[irc]\nnickserv_password = a\x7f\n",
               "t.conf:2: nickserv_password contains a control character");
}
END_TEST

START_TEST(test_error_buffer)
{
    struct config c;
    char err[16];

    memset(err, 'x', sizeof(err));
    ck_assert_int_eq(config_parse(&c, "[irc]\nport = 0\n", "t.conf", err, sizeof(err)), -1);
    ck_assert_str_eq(err, "t.conf:2: port ");
    ck_assert_int_eq(config_parse(&c, "[irc]\nport = 0\n", "t.conf", NULL, 0), -1);
    ck_assert_int_eq(config_parse(&c, "[irc]\nport = 0\n", NULL, err, sizeof(err)), -1);
    ck_assert_str_eq(err, "(config):2: por");
    ck_assert_int_eq(config_parse(&c, NULL, "t.conf", err, sizeof(err)), 0);
    check_defaults(&c);
}
END_TEST

/* A temporary directory for real files; removed by rmtree_files. */
static void write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");

    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_load_files)
{
    char dir[] = "/tmp/ringside-config-XXXXXX";
    char path[256], err[CONFIG_ERR_MAX], want[CONFIG_ERR_MAX];
    struct config c;

    ck_assert_ptr_nonnull(mkdtemp(dir));

    snprintf(path, sizeof(path), "%s/good.conf", dir);
    const char *good =
        "[irc]\nserver = irc.libera.chat\nchannels = #ringside\n[bout]\nrounds = 10\n";
    write_file(path, good, strlen(good));
    ck_assert_int_eq(config_load(&c, path, err, sizeof(err)), 0);
    ck_assert_str_eq(c.server, "irc.libera.chat");
    ck_assert_int_eq(c.nchannels, 1);
    ck_assert_int_eq(c.rounds, 10);
    ck_assert_int_eq(c.port, 6667);
    unlink(path);

    snprintf(path, sizeof(path), "%s/bad.conf", dir);
    write_file(path, "[irc]\n\n\nnikc = x\n", 17);
    ck_assert_int_eq(config_load(&c, path, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s:4: unknown key \"nikc\" in [irc]; keys are ", path);
    ck_assert_int_eq(strncmp(err, want, strlen(want)), 0);
    unlink(path);

    snprintf(path, sizeof(path), "%s/nul.conf", dir);
    write_file(path, "[irc]\nport = 1\0\n", 16);
    ck_assert_int_eq(config_load(&c, path, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s:2: contains a NUL byte (is it a text file?)", path);
    ck_assert_str_eq(err, want);
    unlink(path);

    snprintf(path, sizeof(path), "%s/huge.conf", dir);
    size_t huge = 1024 * 1024 + 1;
    char *big = malloc(huge);
    ck_assert_ptr_nonnull(big);
    memset(big, '\n', huge);
    write_file(path, big, huge);
    free(big);
    ck_assert_int_eq(config_load(&c, path, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "%s: too large for a configuration (over 1048576 bytes)", path);
    ck_assert_str_eq(err, want);
    unlink(path);

    snprintf(path, sizeof(path), "%s/missing.conf", dir);
    ck_assert_int_eq(config_load(&c, path, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "cannot read %s: No such file or directory", path);
    ck_assert_str_eq(err, want);

    /* A directory opens but cannot be read. */
    ck_assert_int_eq(config_load(&c, dir, err, sizeof(err)), -1);
    snprintf(want, sizeof(want), "cannot read %s: Is a directory", dir);
    ck_assert_str_eq(err, want);

    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* config_mode_check: a password key with a value (any key ending in
 * "password", so keys added later count too) in a file others can read. */
START_TEST(test_mode_check)
{
    char dir[] = "/tmp/ringside-config-XXXXXX";
    char path[128], msg[CONFIG_ERR_MAX + 256], want[512];

    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/bot.conf", dir);
    const char *secret = "[irc]\nchannels = #a\nnickserv_password = hunter2\n";
    write_file(path, secret, strlen(secret));

    ck_assert_int_eq(chmod(path, 0644), 0);
    ck_assert_int_eq(config_mode_check(path, msg, sizeof(msg)), 1);
    snprintf(want, sizeof(want),
             "%s holds nickserv_password and is readable by every local user (mode 644); make "
             "it private: chmod 600 %s (or chmod 640 with the bot's own group)",
             path, path);
    ck_assert_str_eq(msg, want);
    ck_assert_ptr_null(strstr(msg, "hunter2"));

    ck_assert_int_eq(chmod(path, 0600), 0);
    ck_assert_int_eq(config_mode_check(path, msg, sizeof(msg)), 0);
    ck_assert_str_eq(msg, "");
    /* Group-readable, the group being the bot's own (root:ringside 0640). */
    ck_assert_int_eq(chown(path, (uid_t)-1, getegid()), 0);
    ck_assert_int_eq(chmod(path, 0640), 0);
    ck_assert_int_eq(config_mode_check(path, msg, sizeof(msg)), 0);
    /* Another group (only root may give a file to any group). */
    if (chown(path, (uid_t)-1, getegid() + 4242) == 0) {
        ck_assert_int_eq(config_mode_check(path, msg, sizeof(msg)), 1);
        ck_assert_ptr_nonnull(strstr(msg, "readable by its group (mode 640)"));
    }

    /* No password, or an empty one: nothing to hide. */
    const char *none = "[irc]\nchannels = #a\nnickserv_password =\nserver_password=\n";
    write_file(path, none, strlen(none));
    ck_assert_int_eq(chmod(path, 0644), 0);
    ck_assert_int_eq(config_mode_check(path, msg, sizeof(msg)), 0);
    /* Keys are found by name, in any case and any section. */
    const char *other = "[irc]\nSASL_Password = x\n";
    write_file(path, other, strlen(other));
    ck_assert_int_eq(config_mode_check(path, msg, sizeof(msg)), 1);
    ck_assert_ptr_nonnull(strstr(msg, "holds SASL_Password and"));
    const char *server = "[irc]\nserver_password = x\n";
    write_file(path, server, strlen(server));
    ck_assert_int_eq(config_mode_check(path, msg, sizeof(msg)), 1);
    unlink(path);
    /* A missing file: nothing to say (config_load reports it). */
    ck_assert_int_eq(config_mode_check(path, msg, sizeof(msg)), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(test_example_loads)
{
    struct config c;
    char err[CONFIG_ERR_MAX] = "";

    int rc = config_load(&c, "config/ringside.conf.example", err, sizeof(err));
    ck_assert_msg(rc == 0, "%s", err);
    /* It documents the defaults. */
    struct config d;
    config_defaults(&d);
    ck_assert_int_eq(c.nchannels, 1);
    ck_assert_str_eq(c.channels[0], "#ringside");
    c.nchannels = 0;
    memset(c.channels, 0, sizeof(c.channels));
    ck_assert(memcmp(&c, &d, sizeof(c)) == 0);
}
END_TEST

/* [league] season_turns: a number of turns, empty or 0 for "only an
 * admin ends a season". */
START_TEST(test_season_turns)
{
    struct config c;
    static const struct {
        const char *text;
        int turns;
    } good[] = {{"10", 10}, {"0", 0}, {"", 0}, {"1", 1}, {"10000", 10000}};
    static const char *const bad[] = {"-1", "ten", "10001", "1.5", "1d"};
    char text[64], want[256];

    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        snprintf(text, sizeof(text), "[league]\nseason_turns = %s\n", good[i].text);
        EXPECT_OK(&c, text);
        ck_assert_int_eq(c.season_turns, good[i].turns);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(text, sizeof(text), "[league]\nseason_turns = %s\n", bad[i]);
        snprintf(want, sizeof(want),
                 "t.conf:2: season_turns \"%s\" must be a number of league turns from 0 to "
                 "10000 (empty or 0: only an admin ends a season)",
                 bad[i]);
        EXPECT_ERR(text, want);
    }
}
END_TEST

Suite *config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_defaults);
    tcase_add_test(tc, test_every_key);
    tcase_add_test(tc, test_value_forms);
    tcase_add_test(tc, test_order_timeout);
    tcase_add_test(tc, test_seconds_keys);
    tcase_add_test(tc, test_layout);
    tcase_add_test(tc, test_bad_values);
    tcase_add_test(tc, test_bad_lists);
    tcase_add_test(tc, test_unknown_and_repeated);
    tcase_add_test(tc, test_tls_sasl);
    tcase_add_test(tc, test_syntax_errors);
    tcase_add_test(tc, test_too_long);
    tcase_add_test(tc, test_error_buffer);
    tcase_add_test(tc, test_season_turns);
    tcase_add_test(tc, test_load_files);
    tcase_add_test(tc, test_example_loads);
    tcase_add_test(tc, test_mode_check);
    suite_add_tcase(s, tc);
    return s;
}
