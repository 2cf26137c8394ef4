/*
 * accounts.c - players identified by their services accounts.
 *
 * What the server says of a nick's services account (extended-join,
 * account-notify, WHOX %a, WHOIS 330: irc.c reads them) is kept in the
 * users table; this file turns it into the bot's identity, under `[bot]
 * accounts`:
 *   - passwords: services are ignored; register and identify as always.
 *   - services: the services account is the bot account of the same name
 *     (made on first use, without a password); register and identify are
 *     refused.
 *   - both (the default): the same, except that a bot account registered
 *     with a password keeps asking for it, until its owner identifies with
 *     it while logged in to services as the same name (cmd-account.c): the
 *     account then follows the services login and has no password.
 * An account is never inferred from a nick: only what the server says of
 * the nick's login counts. An identity that came from services ends when
 * services say he logged out, or logged in as someone else.
 */
#include <string.h>
#include <time.h>

#include "bot.h"

/* 1 if the bot account `acc` may be taken by whoever is logged in to
 * services under its name. */
static int services_may_use(const struct bot *bot, const struct db_account *acc)
{
    return bot->cfg.accounts == ACCOUNTS_SERVICES || strcmp(acc->hash, PASSWORD_NONE) == 0;
}

int accounts_resolve(struct bot *bot, const char *nick, int create)
{
    const char *name;
    char svc[DB_NAME_MAX], key[DB_NAME_MAX];
    struct db_account acc;
    int64_t id;

    if (bot->cfg.accounts == ACCOUNTS_PASSWORDS || !bot->db)
        return 0;
    if (users_account(bot->users, nick, NULL, NULL))
        return 1;
    /* As with passwords: only while he shares a channel with the bot,
     * which then sees him quit or leave. */
    if (!users_present(bot->users, nick))
        return 0;
    if (users_services(bot->users, nick, &name, NULL) != 1 || strlen(name) >= DB_NAME_MAX)
        return 0;
    snprintf(svc, sizeof(svc), "%s", name);
    bot_name_key(key, svc, sizeof(key));
    switch (db_account_get(bot->db, key, &acc)) {
    case DB_OK:
        if (acc.banned || !services_may_use(bot, &acc))
            return 0;
        users_login_services(bot->users, nick, acc.id, acc.name);
        log_msg(LOG_INFO, "%s is identified as %s by his services account", nick, acc.name);
        return 1;
    case DB_NOTFOUND:
        if (!create)
            return 0;
        if (db_account_create(bot->db, key, svc, PASSWORD_NONE, (int64_t)time(NULL), &id) !=
            DB_OK) {
            log_msg(LOG_ERROR, "account %s for services: %s", svc, db_errmsg(bot->db));
            return 0;
        }
        users_login_services(bot->users, nick, id, svc);
        log_msg(LOG_INFO, "account %s made for %s's services account", svc, nick);
        return 1;
    default:
        log_msg(LOG_ERROR, "account %s: %s", svc, db_errmsg(bot->db));
        return 0;
    }
}

void accounts_seen(struct bot *bot, const char *nick, const char *account)
{
    const char *before = NULL, *now_in = NULL;
    int64_t id;

    if (account && (!*account || strcmp(account, "*") == 0))
        account = NULL;
    int known = users_services(bot->users, nick, &before, NULL);
    int changed = known < 0 || (known == 0) != (account == NULL) ||
                  (account && before && strcmp(before, account) != 0);
    users_set_services(bot->users, nick, account, bot->now);
    if (bot->cfg.accounts == ACCOUNTS_PASSWORDS || !changed)
        return;
    if (users_via_services(bot->users, nick) && users_account(bot->users, nick, &id, &now_in)) {
        char was[DB_NAME_MAX];
        snprintf(was, sizeof(was), "%s", now_in);
        users_logout(bot->users, nick);
        log_msg(LOG_INFO, "%s %s services: no longer identified as %s", nick,
                account ? "logged in as someone else to" : "logged out of", was);
    }
    if (account)
        accounts_resolve(bot, nick, 0);
}

int accounts_services_name(const struct bot *bot, const char *nick, const char *name)
{
    const char *svc;
    char a[DB_NAME_MAX], b[DB_NAME_MAX];

    if (bot->cfg.accounts == ACCOUNTS_PASSWORDS ||
        users_services(bot->users, nick, &svc, NULL) != 1)
        return 0;
    bot_name_key(a, svc, sizeof(a));
    bot_name_key(b, name, sizeof(b));
    return strcmp(a, b) == 0;
}
