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
 *
 * Admins (bot_is_admin) are never whoever registered a listed name first:
 * an account the operator made from the command line (--add-admin: the
 * database's `admin` mark), an entry "name:HASH" of [bot] admins whose
 * account's password is that hash (cmd-account.c keeps the account's hash
 * equal to the configured one), or an entry "name" alone whose account
 * follows the network's services login (accounts = services, or both with
 * an account without a password). register refuses a listed name.
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

/* A services login the bot noticed while the game is online: the player
 * hears, in private and before the prompts, which bouts wait for his
 * orders (nothing when none does), and the game knows he is back. */
static void welcome_back(struct bot *bot, const char *nick, int64_t id, const char *name)
{
    struct str waiting;

    if (!bot->game || !game_online(bot->game))
        return;
    str_init(&waiting);
    if (game_orders_waiting(bot->game, id, &waiting)) {
        struct str line;
        str_init(&line);
        str_add(&line, "You are identified as %s by your services login. %s", name, waiting.p);
        bot_msg(bot, OUTQ_LIVE, nick, nick, line.p);
        str_free(&line);
    }
    str_free(&waiting);
    game_player_back(bot->game, id);
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
        welcome_back(bot, nick, acc.id, acc.name);
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

/* ------------------------------------------------------------- admins */

int accounts_admin_entry(const struct config *cfg, const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < cfg->nadmins; i++)
        if (irc_casecmp(CASEMAP_RFC1459, cfg->admins[i], name) == 0)
            return i;
    return -1;
}

int bot_is_admin(const struct bot *bot, const char *account)
{
    char key[DB_NAME_MAX];
    struct db_account acc;

    if (!account || !bot->db || strlen(account) >= DB_NAME_MAX)
        return 0;
    bot_name_key(key, account, sizeof(key));
    if (db_account_get(bot->db, key, &acc) != DB_OK)
        return 0;
    if (acc.admin)
        return 1;
    int i = accounts_admin_entry(&bot->cfg, account);
    if (i < 0)
        return 0;
    if (bot->cfg.admin_hash[i][0])
        return strcmp(acc.hash, bot->cfg.admin_hash[i]) == 0;
    /* A name alone: only the network's services prove it. */
    return bot->cfg.accounts == ACCOUNTS_SERVICES ||
           (bot->cfg.accounts == ACCOUNTS_BOTH && strcmp(acc.hash, PASSWORD_NONE) == 0);
}

/* 0 if `name` can be an account name (as a nick: letters, digits, the
 * specials []\`_^{|} and '-', not starting with a digit or '-'), else -1. */
static int admin_name_ok(const char *name)
{
    size_t n = strlen(name);

    if (n == 0 || n >= DB_NAME_MAX || (name[0] >= '0' && name[0] <= '9') || name[0] == '-')
        return -1;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              strchr("[]\\`_^{|}-", c)))
            return -1;
    }
    return 0;
}

int accounts_add_admin(struct db *db, const char *name, const char *password, int *existed,
                       char *err, size_t len)
{
    char key[DB_NAME_MAX], hash[DB_HASH_MAX];
    struct db_account acc;
    int64_t id;

    *existed = 0;
    if (admin_name_ok(name) != 0) {
        snprintf(err, len,
                 "\"%.40s\" is not an account name (letters, digits, []\\`_^{|} or -, not "
                 "starting with a digit or -, at most %d bytes)",
                 name, DB_NAME_MAX - 1);
        return -1;
    }
    size_t n = strlen(password);
    if (n < PASSWORD_MIN || n > PASSWORD_MAX) {
        snprintf(err, len, "a password has %d to %d characters; this one has %zu", PASSWORD_MIN,
                 PASSWORD_MAX, n);
        return -1;
    }
    if (password_hash(password, hash, sizeof(hash)) != 0) {
        snprintf(err, len, "hashing the password failed");
        return -1;
    }
    bot_name_key(key, name, sizeof(key));
    int rc = db_account_get(db, key, &acc);
    if (rc == DB_OK) {
        *existed = 1;
        id = acc.id;
        rc = db_account_set_hash(db, id, hash);
    } else if (rc == DB_NOTFOUND) {
        rc = db_account_create(db, key, name, hash, (int64_t)time(NULL), &id);
    }
    if (rc == DB_OK)
        rc = db_account_set_admin(db, id, 1);
    char what[96];
    snprintf(what, sizeof(what), "made %s an admin (ringside --add-admin)", name);
    if (rc == DB_OK)
        rc = db_audit(db, (int64_t)time(NULL), "operator", what);
    if (rc != DB_OK) {
        snprintf(err, len, "account %s: %s", name, db_errmsg(db));
        return -1;
    }
    return 0;
}

int accounts_remove_admin(struct db *db, const char *name, char *err, size_t len)
{
    char key[DB_NAME_MAX];
    struct db_account acc;

    if (admin_name_ok(name) != 0) {
        snprintf(err, len, "\"%.40s\" is not an account name", name);
        return -1;
    }
    bot_name_key(key, name, sizeof(key));
    int rc = db_account_get(db, key, &acc);
    if (rc == DB_OK)
        rc = db_account_set_admin(db, acc.id, 0);
    if (rc != DB_OK) {
        if (rc == DB_NOTFOUND)
            snprintf(err, len, "there is no account %s", name);
        else
            snprintf(err, len, "account %s: %s", name, db_errmsg(db));
        return -1;
    }
    return 0;
}

void accounts_admins_check(struct bot *bot)
{
    char key[DB_NAME_MAX];
    struct db_account acc;

    for (int i = 0; i < bot->cfg.nadmins; i++) {
        const char *name = bot->cfg.admins[i];
        if (bot->cfg.admin_hash[i][0] || bot->cfg.accounts != ACCOUNTS_PASSWORDS)
            continue;
        bot_name_key(key, name, sizeof(key));
        if (db_account_get(bot->db, key, &acc) == DB_OK && acc.admin)
            continue;
        log_msg(LOG_WARN,
                "[bot] admins: %s is not an admin: with accounts = passwords a name alone gives "
                "no rights (anyone could register it); make the account with ringside -c FILE "
                "--add-admin %s, or write %s:HASH (ringside --hash-password makes the hash)",
                name, name, name);
    }
}

int accounts_network(struct db *db, const char *network, char *err, size_t len)
{
    int64_t claimed = 0;

    if (db_network_set(db, network) != DB_OK || db_network_claim(db, &claimed) != DB_OK) {
        snprintf(err, len, "[bot] network %s: %s", network, db_errmsg(db));
        return -1;
    }
    if (claimed > 0)
        log_msg(LOG_INFO,
                "[bot] network = %s: the %lld account%s made before the database had networks "
                "%s %s's from now on",
                network, (long long)claimed, claimed == 1 ? "" : "s", claimed == 1 ? "is" : "are",
                network);
    return 0;
}
