/*
 * fuzz_accounts.c - libFuzzer harness for what servers say of services
 * accounts: WHOX 354, extended-join's JOIN, account-notify's ACCOUNT and
 * WHOIS 330 (bot/users.c's users_parse_* and users_origin_nick, which
 * bot/irc.c's handlers call), and the memory of logins they feed
 * (users_set_services and friends).
 *
 * The input is lines as a server sends them, parsed by irc_msg_parse; each
 * line updates a struct users as irc.c does (JOIN, PART, QUIT, NICK keep
 * the membership moving). After each login said: the nick is known with
 * exactly the account said, or (a name of DB_NAME_MAX bytes or more) one
 * still too long to be taken for any account; a logout leaves none; the
 * nick parsed from an origin fits and holds no '!' or '@'. Any breach
 * aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

#define TOKEN "354"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

/* What users remembers of seen.nick matches what was said. */
static void check_seen(struct users *u, const struct users_seen *seen)
{
    const char *acc;

    users_set_services(u, seen->nick, seen->account, 1.0);
    int st = users_services(u, seen->nick, &acc, NULL);
    check(st == 0 || st == 1);
    if (!seen->account) {
        check(st == 0);
        return;
    }
    check(st == 1);
    check(strcmp(acc, seen->account) == 0 ||
          (strlen(acc) >= DB_NAME_MAX && strncmp(acc, seen->account, strlen(acc)) == 0));
}

/* One server line, as irc.c handles it. */
static void line(struct users *u, struct irc_msg *m)
{
    const char **params = (const char **)m->params;
    unsigned int count = (unsigned int)m->nparams;
    char nick[CONFIG_NICK_MAX * 2];
    struct users_seen seen;

    users_origin_nick(m->source, nick, sizeof(nick));
    check(strlen(nick) < sizeof(nick) && !strpbrk(nick, "!@"));
    int chan = count ? (unsigned char)params[0][0] % 4 : 0;
    if (strcmp(m->verb, "JOIN") == 0 && count >= 1) {
        users_join(u, nick, chan);
        if (users_parse_join(nick, params, count, &seen))
            check_seen(u, &seen);
    } else if (strcmp(m->verb, "ACCOUNT") == 0) {
        if (users_parse_account(nick, params, count, &seen) && users_present(u, nick))
            check_seen(u, &seen);
    } else if (strcmp(m->verb, "354") == 0) {
        if (users_parse_whox(params, count, TOKEN, &seen) && users_present(u, seen.nick))
            check_seen(u, &seen);
    } else if (strcmp(m->verb, "330") == 0) {
        if (users_parse_whoisaccount(params, count, &seen))
            check_seen(u, &seen);
    } else if (strcmp(m->verb, "PART") == 0 && count >= 1) {
        users_part(u, nick, chan);
    } else if (strcmp(m->verb, "QUIT") == 0) {
        users_quit(u, nick);
    } else if (strcmp(m->verb, "NICK") == 0 && count >= 1) {
        users_rename(u, nick, params[0]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    struct users *u = users_new();
    struct irc_msg m;

    memcpy(text, data, size);
    text[size] = '\0';
    users_set_casemap(u, size ? (enum casemapping)(data[0] % 3) : CASEMAP_RFC1459);
    for (char *save = NULL, *l = strtok_r(text, "\r\n", &save); l;
         l = strtok_r(NULL, "\r\n", &save))
        if (irc_msg_parse(l, &m) == 0)
            line(u, &m);
    check(users_count(u) >= 0);
    users_free(u);
    free(text);
    return 0;
}
