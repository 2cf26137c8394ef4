/*
 * cmd-account.c - register, identify, logout, passwd, resetpass (admins),
 * and what becomes of a password said in a channel.
 *
 * All but logout carry passwords and are private-only; passwords are hashed
 * and never logged nor stored in clear. An identity needs the player to
 * share a channel with the bot: otherwise the bot would not see him quit,
 * and whoever took his nick next would inherit it.
 *
 * A password said in a channel is burnt (account_overheard): when it is the
 * account's password, the account refuses it from then on (db_account_burn)
 * until it has a new one; register, passwd and resetpass never take a burnt
 * password as a new one. Whoever said an account's password knew it before
 * the channel saw it, so he is identified as that account, as identify
 * would have done, and sets a new password with `passwd <new password>`:
 * the old one may be left out only while the account's password is burnt,
 * and only by a nick identified as it. An owner who left before doing so
 * asks an admin (`resetpass`). Only what proves the account (its password,
 * or an identity as it) burns anything under an existing account's name,
 * so nobody can fill its list of burnt passwords (db/ keeps the newest
 * DB_BURNT_MAX) to push older ones out.
 */
#include <string.h>
#include <time.h>

#include "bot.h"

/* 0 if the password is acceptable, else -1 after replying why. */
static int password_ok(struct cmd_ctx *ctx, const char *pw)
{
    size_t n = strlen(pw);

    if (n < PASSWORD_MIN || n > PASSWORD_MAX) {
        reply(ctx, "a password has %d to %d characters; yours has %zu", PASSWORD_MIN, PASSWORD_MAX,
              n);
        return -1;
    }
    return 0;
}

/* 1 if `pw` is one of the passwords burnt for `key`, 0 if not, -1 after
 * logging a database error. One hash check per burnt password, at most
 * DB_BURNT_MAX. */
static int password_burnt(struct bot *bot, const char *key, const char *pw)
{
    char hashes[DB_BURNT_MAX][DB_HASH_MAX];
    int n;

    if (db_burnt_list(bot->db, key, hashes, DB_BURNT_MAX, &n) != DB_OK) {
        log_msg(LOG_ERROR, "burnt passwords of %s: %s", key, db_errmsg(bot->db));
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (auth_check(bot, pw, hashes[i]))
            return 1;
    return 0;
}

/* 0 if `pw` may become a password of `key` (it was never said in a
 * channel), else -1 after replying why; `again` says how to try again. A
 * database error refuses it too. */
static int password_fresh(struct cmd_ctx *ctx, const char *key, const char *pw, const char *again)
{
    switch (password_burnt(ctx->bot, key, pw)) {
    case 0:
        return 0;
    case 1:
        reply(ctx, "that password was said in a channel, where everyone saw it; choose another: %s",
              again);
        return -1;
    default:
        reply(ctx, "sorry, I could not check that password (%s); try again later",
              db_why(ctx->bot->db));
        return -1;
    }
}

/* Burns `pw`, said in a channel, for `key`: a fresh salted hash of it joins
 * the key's burnt passwords. Returns 0, or -1 after logging. */
static int burn_said(struct bot *bot, const char *key, const char *pw)
{
    char hash[DB_HASH_MAX];

    if (auth_hash(bot, pw, hash, sizeof(hash)) != 0) {
        log_msg(LOG_ERROR, "burning a password said for %s: hashing failed", key);
        return -1;
    }
    if (db_burnt_add(bot->db, key, hash, (int64_t)time(NULL)) != DB_OK) {
        log_msg(LOG_ERROR, "burning a password said for %s: %s", key, db_errmsg(bot->db));
        return -1;
    }
    return 0;
}

/* Reads the account named `name` into *acc and its key into key[DB_NAME_MAX]:
 * DB_OK, DB_NOTFOUND (also for a name too long to be one; key is then ""),
 * or DB_ERROR after logging. */
static int account_find(struct bot *bot, const char *name, char *key, struct db_account *acc)
{
    key[0] = '\0';
    if (strlen(name) >= DB_NAME_MAX)
        return DB_NOTFOUND;
    bot_name_key(key, name, DB_NAME_MAX);
    int rc = db_account_get(bot->db, key, acc);
    if (rc == DB_ERROR)
        log_msg(LOG_ERROR, "account %s: %s", name, db_errmsg(bot->db));
    return rc;
}

/* 0 if the nick shares a channel with the bot, else -1 after replying. */
static int present(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;

    if (users_present(bot->users, ctx->nick))
        return 0;
    for (int c = 0; c < USERS_CHANNELS; c++)
        if (bot->chan_in[c]) {
            reply(ctx, "join %s first: I only keep you identified while we share a channel",
                  bot->chan[c]);
            return -1;
        }
    reply(ctx, "I am in no channel right now; try again when I have joined one");
    return -1;
}

/* Under accounts = services, passwords are not the bot's business: -1
 * after saying so; else 0. */
static int services_only(struct cmd_ctx *ctx)
{
    if (ctx->bot->cfg.accounts != ACCOUNTS_SERVICES)
        return 0;
    reply(ctx, "on this network your account is your services account: log in to services "
               "(NickServ) and I will know you; no password for me");
    return -1;
}

static const char *config_hash(const struct bot *bot, const char *name);

/* The hash a password of *acc is checked against: the configured one of
 * an admin with one, else the account's. */
static const char *account_hash(const struct bot *bot, const struct db_account *acc)
{
    const char *h = config_hash(bot, acc->name);
    return h ? h : acc->hash;
}

/* The [bot] admins hash of account `name`, or NULL when it has none. */
static const char *config_hash(const struct bot *bot, const char *name)
{
    int i = accounts_admin_entry(&bot->cfg, name);
    return i >= 0 && bot->cfg.admin_hash[i][0] ? bot->cfg.admin_hash[i] : NULL;
}

/* Checks `pw` as the password of *acc (key `key`; `hash` is the one to
 * check it against) under the limits of guessing (auth.c): 1 if it is
 * right, 0 if wrong (counted for the account and the source, not
 * answered), -1 when he must wait first or the loop is busy: then nothing
 * was checked, and he was told why unless `quiet` or told already (once per
 * wait), and his answers go behind everyone else's meanwhile. */
static int guarded_check(struct cmd_ctx *ctx, struct db_account *acc, const char *key,
                         const char *hash, const char *pw, int quiet)
{
    struct bot *bot = ctx->bot;
    char from[AUTH_FROM_MAX];
    int64_t now = auth_now(bot);

    auth_source(bot, ctx->nick, from);
    int64_t wait = auth_wait(acc->failures, acc->failed_at, now);
    int64_t wait_src = auth_source_wait(bot, from, now);
    if (wait_src > wait)
        wait = wait_src;
    if (wait > 0) {
        /* His answers wait behind everyone else's for as long, and a try
         * before the time he was told is not answered again: twenty nicks
         * guessing must not fill the output queue that others wait on. */
        if (bot->q)
            outq_demote(bot->q, ctx->nick, (double)wait);
        if (!quiet && !auth_told(bot, ctx->nick, now)) {
            reply(ctx, "too many failed attempts for %s; try again in %lld s", acc->name,
                  (long long)wait);
            auth_told_now(bot, ctx->nick, now + wait);
        }
        return -1;
    }
    if ((acc->failures > 0 || auth_source_failures(bot, from) > 0) && auth_busy(bot)) {
        /* A suspect try while the loop has hashed enough this second. */
        if (bot->q)
            outq_demote(bot->q, ctx->nick, AUTH_BUSY_WAIT);
        if (!quiet && !auth_told(bot, ctx->nick, now)) {
            reply(ctx, "I am checking many passwords right now; try again in a few seconds");
            auth_told_now(bot, ctx->nick, now + AUTH_BUSY_WAIT);
        }
        return -1;
    }
    if (auth_check(bot, pw, hash))
        return 1;
    auth_source_failed(bot, from, now);
    if (db_account_failed(bot->db, acc->id, now, from) != DB_OK)
        log_msg(LOG_ERROR, "counting a wrong password of %s: %s", acc->name, db_errmsg(bot->db));
    acc->failures++;
    acc->failed_at = now;
    snprintf(acc->failed_from, sizeof(acc->failed_from), "%s", from);
    auth_warn(bot, key, acc->name, acc->failures, now);
    return 0;
}

/* After a login as *acc: tells him of the wrong passwords given for it since
 * his last one, and forgets them. */
static void failures_told(struct cmd_ctx *ctx, const struct db_account *acc)
{
    char when[40];
    time_t t = (time_t)acc->failed_at;
    struct tm tm;

    if (acc->failures <= 0)
        return;
    if (gmtime_r(&t, &tm))
        strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
    else
        snprintf(when, sizeof(when), "an unknown time");
    reply(ctx,
          "%d failed attempt%s to identify as %s since your last login, the last from %s at %s",
          acc->failures, acc->failures == 1 ? "" : "s", acc->name,
          acc->failed_from[0] ? acc->failed_from : "an unknown place", when);
    if (db_account_failures_clear(ctx->bot->db, acc->id) != DB_OK)
        log_msg(LOG_ERROR, "account %s: %s", acc->name, db_errmsg(ctx->bot->db));
}

/* 0 if his register is within the limits of registration (auth.c) at
 * `now`, with where it comes from in from[AUTH_FROM_MAX]; else -1 after
 * replying the limit and when to try again. */
static int register_limited(struct cmd_ctx *ctx, char *from, int64_t now)
{
    char why[400];

    auth_reg_source(ctx->bot, ctx->nick, from);
    if (auth_reg_allowed(ctx->bot, from, now, why, sizeof(why)) == 0)
        return 0;
    log_msg(LOG_INFO, "register %s refused: the registration limit", ctx->nick);
    reply(ctx, "%s", why);
    return -1;
}

static int cmd_register(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    const char *pw = ctx->argv[0];
    char key[DB_NAME_MAX], hash[DB_HASH_MAX];
    int64_t id;

    if (services_only(ctx))
        return -1;
    if (ctx->account) {
        reply(ctx, "you are already identified as %s; logout first to register another account",
              ctx->account);
        return -1;
    }
    if (strlen(ctx->nick) >= DB_NAME_MAX) {
        reply(ctx, "your nick is too long for an account name (at most %d characters)",
              DB_NAME_MAX - 1);
        return -1;
    }
    if (accounts_admin_entry(&bot->cfg, ctx->nick) >= 0) {
        /* Whoever registered first would otherwise hold the admin's name. */
        log_msg(LOG_WARN, "%s tried to register the admin name %s: refused", ctx->nick, ctx->nick);
        reply(ctx,
              "%s is one of this bot's admins: that account is made by the bot's operator "
              "(ringside --add-admin), not by register; use another nick",
              ctx->nick);
        return -1;
    }
    if (present(ctx) != 0 || password_ok(ctx, pw) != 0)
        return -1;
    bot_name_key(key, ctx->nick, sizeof(key));
    /* Before any hashing: a register repeated costs nothing. */
    struct db_account acc;
    if (db_account_get(bot->db, key, &acc) == DB_OK) {
        reply(ctx, "the account %s exists already; if it is yours: identify <password>", ctx->nick);
        return -1;
    }
    /* Before any hashing too: a refused register costs nothing. */
    char from[AUTH_FROM_MAX];
    int64_t now = auth_now(bot);
    if (register_limited(ctx, from, now) != 0)
        return -1;
    if (password_fresh(ctx, key, pw, "register <password>") != 0)
        return -1;
    if (auth_hash(bot, pw, hash, sizeof(hash)) != 0) {
        log_msg(LOG_ERROR, "register: hashing failed");
        reply(ctx, "sorry, I could not register you (internal error); try again later");
        return -1;
    }
    switch (db_account_create(bot->db, key, ctx->nick, hash, (int64_t)time(NULL), &id)) {
    case DB_OK:
        break;
    case DB_EXISTS:
        reply(ctx, "the account %s exists already; if it is yours: identify <password>", ctx->nick);
        return -1;
    default:
        log_msg(LOG_ERROR, "register %s: %s", ctx->nick, db_errmsg(bot->db));
        reply(ctx, "sorry, I could not register you (%s); try again later", db_why(ctx->bot->db));
        return -1;
    }
    auth_registered(bot, from, now);
    users_login(bot->users, ctx->nick, id, ctx->nick);
    log_msg(LOG_INFO, "account %s registered", ctx->nick);
    reply(ctx,
          "account %s registered, and you are identified. Create a fighter: create <name> "
          "str=12 spd=12 agl=12 tgh=12 hgt=12",
          ctx->nick);
    return 0;
}

const struct cmd_entry cmd_register_entry = {
    .name = "register",
    .where = CMD_PRIVATE,
    .need = CMD_ANYONE,
    .args_min = 1,
    .args_max = 1,
    .usage = "<password>",
    .help = "creates an account named after your nick",
    .secret = 1,
    .exec = cmd_register,
};

/* The account identify checks: that of `key`, made first when `name` is
 * an admin of [bot] admins with a hash and has none yet (the operator's
 * hash is its password). DB_OK, DB_NOTFOUND or DB_ERROR. */
static int identify_find(struct bot *bot, const char *name, const char *key, const char *admin_hash,
                         struct db_account *acc)
{
    int rc = db_account_get(bot->db, key, acc);
    if (rc != DB_NOTFOUND || !admin_hash)
        return rc;
    const struct config *c = &bot->cfg;
    const char *as_listed = c->admins[accounts_admin_entry(c, name)];
    rc = db_account_create(bot->db, key, as_listed, admin_hash, (int64_t)time(NULL), NULL);
    if (rc != DB_OK && rc != DB_EXISTS)
        return DB_ERROR;
    log_msg(LOG_INFO, "account %s made for the admin of [bot] admins", as_listed);
    return db_account_get(bot->db, key, acc);
}

/* After the right password for *acc: the account takes the configured
 * hash of an admin ([bot] admins, `admin_hash`, or NULL) if it differs (a
 * new hash there is a new password), and a banned account or a burnt
 * password is refused. 0, or -1 after replying. */
static int identify_usable(struct cmd_ctx *ctx, struct db_account *acc, const char *admin_hash)
{
    struct bot *bot = ctx->bot;

    if (admin_hash && strcmp(acc->hash, admin_hash) != 0) {
        if (db_account_set_hash(bot->db, acc->id, admin_hash) != DB_OK) {
            log_msg(LOG_ERROR, "identify %s: %s", acc->name, db_errmsg(bot->db));
            reply(ctx, "sorry, I could not check that (%s); try again later", db_why(ctx->bot->db));
            return -1;
        }
        snprintf(acc->hash, sizeof(acc->hash), "%s", admin_hash);
        acc->burnt = 0; /* a new hash in the configuration: a new password */
    }
    if (acc->banned) {
        reply(ctx, "the account %s is banned; ask an admin", acc->name);
        return -1;
    }
    if (acc->burnt) {
        log_msg(LOG_INFO, "identify %s as %s: a burnt password", ctx->nick, acc->name);
        if (ctx->account_id == acc->id)
            reply(ctx,
                  "that password of %s was said in a channel and no longer works; you are "
                  "still identified as %s: set a new one now with passwd <new password>",
                  acc->name, acc->name);
        else
            reply(ctx,
                  "that password of %s was said in a channel and no longer works: set a new one "
                  "with passwd <new password> from a nick still identified as %s, or ask an "
                  "admin to resetpass it",
                  acc->name, acc->name);
        return -1;
    }
    return 0;
}

/* identify named an account that does not exist: the name he typed, or
 * his nick's when he named none (then he may have one of another name). */
static void no_such_account(struct cmd_ctx *ctx, const char *name)
{
    if (ctx->argc == 2)
        reply(ctx, "there is no account %s; check its name (identify <account> <password>)", name);
    else
        reply(ctx,
              "there is no account %s; identify <account> <password> for one of another name, "
              "or register <password> creates one for your nick",
              name);
}

static int cmd_identify(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    const char *name = ctx->argc == 2 ? ctx->argv[0] : ctx->nick;
    const char *pw = ctx->argv[ctx->argc - 1];
    struct db_account acc;
    char key[DB_NAME_MAX];

    if (services_only(ctx) != 0 || present(ctx) != 0)
        return -1;
    if (strlen(name) >= DB_NAME_MAX) {
        reply(ctx, "no account %s...; account names have at most %d characters", CLIP(name, 20),
              DB_NAME_MAX - 1);
        return -1;
    }
    bot_name_key(key, name, sizeof(key));
    const char *admin_hash = config_hash(bot, name);
    int rc = identify_find(bot, name, key, admin_hash, &acc);
    if (rc == DB_NOTFOUND) {
        no_such_account(ctx, name);
        return -1;
    }
    if (rc != DB_OK) {
        log_msg(LOG_ERROR, "identify %s: %s", name, db_errmsg(bot->db));
        reply(ctx, "sorry, I could not check that (%s); try again later", db_why(ctx->bot->db));
        return -1;
    }
    /* An admin's password is the configured hash, whatever the database
     * holds (an account a stranger registered before the name was listed). */
    int ok = guarded_check(ctx, &acc, key, admin_hash ? admin_hash : acc.hash, pw, 0);
    if (ok < 0)
        return -1;
    if (!ok) {
        log_msg(LOG_INFO, "identify %s as %s: wrong password", ctx->nick, acc.name);
        reply(ctx, "wrong password for %s", acc.name);
        return -1;
    }
    if (identify_usable(ctx, &acc, admin_hash) != 0)
        return -1;
    if (!admin_hash && accounts_services_name(bot, ctx->nick, acc.name)) {
        /* He proved both: the account follows his services login now. */
        if (db_account_set_hash(bot->db, acc.id, PASSWORD_NONE) != DB_OK) {
            log_msg(LOG_ERROR, "identify %s: %s", acc.name, db_errmsg(bot->db));
        } else {
            users_login_services(bot->users, ctx->nick, acc.id, acc.name);
            log_msg(LOG_INFO, "%s identified as %s, now tied to his services account", ctx->nick,
                    acc.name);
            struct str waiting;
            str_init(&waiting);
            if (game_orders_waiting(bot->game, acc.id, &waiting))
                ctx->live = 1;
            reply(ctx,
                  "you are identified as %s, and from now on your services login is enough: "
                  "the account has no password any more%s%s",
                  acc.name, waiting.len ? ". " : "", waiting.len ? waiting.p : "");
            str_free(&waiting);
            failures_told(ctx, &acc);
            game_player_back(bot->game, acc.id);
            return 0;
        }
    }
    users_login(bot->users, ctx->nick, acc.id, acc.name);
    log_msg(LOG_INFO, "%s identified as %s", ctx->nick, acc.name);
    struct str waiting;
    str_init(&waiting);
    if (game_orders_waiting(bot->game, acc.id, &waiting))
        ctx->live = 1; /* before the prompts game_player_back says */
    reply(ctx, "you are identified as %s until you quit or leave my channels%s%s", acc.name,
          waiting.len ? ". " : "", waiting.len ? waiting.p : "");
    str_free(&waiting);
    failures_told(ctx, &acc);
    game_player_back(bot->game, acc.id);
    return 0;
}

const struct cmd_entry cmd_identify_entry = {
    .name = "identify",
    .aliases = "login",
    .where = CMD_PRIVATE,
    .need = CMD_ANYONE,
    .args_min = 1,
    .args_max = 2,
    .usage = "[account] <password>",
    .help = "logs you in to your account until you quit",
    .secret = 1,
    .exec = cmd_identify,
};

static int cmd_logout(struct cmd_ctx *ctx)
{
    users_logout(ctx->bot->users, ctx->nick);
    reply(ctx, "logged out of %s", ctx->account);
    return 0;
}

const struct cmd_entry cmd_logout_entry = {
    .name = "logout",
    .where = CMD_PRIVATE,
    .need = CMD_ACCOUNT,
    .args_min = 0,
    .args_max = 0,
    .usage = "",
    .help = "logs you out",
    .exec = cmd_logout,
};

static int cmd_passwd(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    struct db_account acc;
    char key[DB_NAME_MAX], hash[DB_HASH_MAX];
    const char *pw = ctx->argv[ctx->argc - 1];

    bot_name_key(key, ctx->account, sizeof(key));
    if (db_account_get(bot->db, key, &acc) != DB_OK) {
        reply(ctx, "sorry, I could not find your account (%s); try again later",
              db_why(ctx->bot->db));
        return -1;
    }
    /* Without the old password only while the account's is burnt: an
     * identified nick left unattended must not be enough otherwise. */
    if (ctx->argc == 1 && !acc.burnt) {
        reply(ctx, "give your old password too: passwd <old password> <new password> (the new "
                   "one alone only replaces a password said in a channel)");
        return -1;
    }
    if (config_hash(bot, acc.name)) {
        reply(ctx,
              "the password of %s is set in the bot's configuration ([bot] admins): ask "
              "the operator to change it there",
              acc.name);
        return -1;
    }
    if (ctx->argc == 2) {
        int ok = guarded_check(ctx, &acc, key, acc.hash, ctx->argv[0], 0);
        if (ok < 0)
            return -1;
        if (!ok) {
            reply(ctx, "the old password is wrong; nothing changed");
            return -1;
        }
    }
    if (password_ok(ctx, pw) != 0 ||
        password_fresh(ctx, key, pw,
                       acc.burnt ? "passwd <new password>"
                                 : "passwd <old password> <new password>") != 0)
        return -1;
    if (auth_hash(bot, pw, hash, sizeof(hash)) != 0 ||
        db_account_set_hash(bot->db, acc.id, hash) != DB_OK) {
        log_msg(LOG_ERROR, "passwd %s: %s", acc.name, db_errmsg(bot->db));
        reply(ctx, "sorry, I could not change it (internal error); the old password still works");
        return -1;
    }
    log_msg(LOG_INFO, "%s changed the password of %s", ctx->nick, acc.name);
    reply(ctx, "password changed");
    return 0;
}

const struct cmd_entry cmd_passwd_entry = {
    .name = "passwd",
    .where = CMD_PRIVATE,
    .need = CMD_ACCOUNT,
    .args_min = 1,
    .args_max = 2,
    .usage = "[old password] <new password>",
    .help = "changes your password; the old one may be left out only after "
            "it was said in a channel",
    .secret = 1,
    .exec = cmd_passwd,
};

static int cmd_resetpass(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    struct db_account acc;
    char key[DB_NAME_MAX], hash[DB_HASH_MAX], what[128];
    const char *pw = ctx->argv[1];

    int rc = account_find(bot, ctx->argv[0], key, &acc);
    if (rc != DB_OK) {
        if (rc == DB_NOTFOUND)
            reply(ctx, "there is no account %s", CLIP(ctx->argv[0], 31));
        else
            reply(ctx, "sorry, I could not find %s (%s)", CLIP(ctx->argv[0], 31),
                  db_why(ctx->bot->db));
        return -1;
    }
    if (config_hash(bot, acc.name)) {
        reply(ctx,
              "the password of %s is set in the bot's configuration ([bot] admins): the "
              "operator changes it there",
              acc.name);
        return -1;
    }
    if (password_ok(ctx, pw) != 0 ||
        password_fresh(ctx, key, pw, "resetpass <account> <password>") != 0)
        return -1;
    snprintf(what, sizeof(what), "reset the password of %s", acc.name);
    if (auth_hash(bot, pw, hash, sizeof(hash)) != 0 ||
        db_account_set_hash(bot->db, acc.id, hash) != DB_OK ||
        db_audit(bot->db, (int64_t)time(NULL), ctx->account, what) != DB_OK) {
        log_msg(LOG_ERROR, "resetpass %s: %s", acc.name, db_errmsg(bot->db));
        reply(ctx, "sorry, I could not reset it (internal error)");
        return -1;
    }
    log_msg(LOG_INFO, "admin %s %s", ctx->account, what);
    reply(ctx,
          "the password of %s is reset; tell him in private, and ask him to change it with "
          "passwd <old password> <new password>",
          acc.name);
    return 0;
}

const struct cmd_entry cmd_resetpass_entry = {
    .name = "resetpass",
    .where = CMD_PRIVATE,
    .need = CMD_ADMIN,
    .args_min = 2,
    .args_max = 2,
    .usage = "<account> <new password>",
    .help = "sets an account's password, for an owner whose password was said in a channel "
            "and who is no longer identified; logged",
    .secret = 1,
    .exec = cmd_resetpass,
};

/* ------------------------------------------------- said in a channel */

/* The opening of every answer to a password said in channel `chan`. */
#define SEEN "never say a password in a channel: everyone in %s saw it"

/* `pw`, said in a channel, is the password of *acc (key `key`): burns it,
 * and identifies whoever said it as acc, as identify would have done (he
 * knew it before the channel saw it), so that he can set a new one. Replies
 * one line. */
static void burn_current(struct cmd_ctx *ctx, const struct db_account *acc, const char *key)
{
    struct bot *bot = ctx->bot;

    if (db_account_burn(bot->db, key, (int64_t)time(NULL)) != DB_OK) {
        log_msg(LOG_ERROR, "burning the password of %s: %s", acc->name, db_errmsg(bot->db));
        reply(ctx,
              SEEN ", and I could not retire it (%s): change it at once with /msg "
                   "%s passwd <old password> <new password>",
              ctx->channel, db_why(bot->db), bot->nick);
        return;
    }
    log_msg(LOG_WARN, "the password of %s, said in %s by %s, is burnt", acc->name, ctx->channel,
            ctx->nick);
    if (acc->banned || !users_present(bot->users, ctx->nick)) {
        reply(ctx, SEEN ", so that password of %s no longer works%s", ctx->channel, acc->name,
              acc->banned ? " (and the account is banned)" : "; an admin can resetpass it");
        return;
    }
    users_login(bot->users, ctx->nick, acc->id, acc->name);
    reply(ctx,
          SEEN ", so that password of %s no longer works. You are identified as %s: set a new one "
               "now with /msg %s passwd <new password>",
          ctx->channel, acc->name, acc->name, bot->nick);
    game_player_back(bot->game, acc->id); /* he is back, if a bout waits for him */
}

/* identify [account] <password>, said in a channel: burns it if it is the
 * password of that account (or of the account the nick is identified as). */
static void overheard_identify(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    const char *name = ctx->argc == 2 ? ctx->argv[0] : ctx->nick;
    const char *pw = ctx->argv[ctx->argc - 1];
    struct db_account acc;
    char key[DB_NAME_MAX];

    int rc = account_find(bot, name, key, &acc);
    int ok = rc == DB_OK ? guarded_check(ctx, &acc, key, account_hash(bot, &acc), pw, 1) : 0;
    if (ok > 0) {
        burn_current(ctx, &acc, key);
        return;
    }
    if (ok < 0) {
        reply(ctx, SEEN ". Identify in private: /msg %s identify [account] <password>",
              ctx->channel, bot->nick);
        return;
    }
    /* His own account's password, said without naming it. */
    if (ctx->account_id && rc != DB_ERROR && !(rc == DB_OK && acc.id == ctx->account_id) &&
        account_find(bot, ctx->account, key, &acc) == DB_OK && password_check(pw, acc.hash)) {
        burn_current(ctx, &acc, key);
        return;
    }
    if (rc == DB_ERROR)
        reply(ctx,
              SEEN ", and I could not check it (%s): if it is your password, change "
                   "it now with /msg %s passwd <old password> <new password>",
              ctx->channel, db_why(bot->db), bot->nick);
    else
        reply(ctx,
              SEEN " (%s %s, so nothing changed). Identify in private: /msg %s identify [account] "
                   "<password>",
              ctx->channel, rc == DB_OK ? "it is not the password of" : "there is no account",
              CLIP(name, 31), bot->nick);
}

/* register <password>, said in a channel: burns it for the nick's name,
 * whether or not the account exists yet. For a name without an account
 * the burnt password is a row of its own, so it counts as a register
 * (auth.c): past the limits of registration nothing is stored, or nicks
 * renamed again and again would fill the database with them. */
static void overheard_register(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    const char *pw = ctx->argv[0];
    struct db_account acc;
    char key[DB_NAME_MAX];

    int rc = account_find(bot, ctx->nick, key, &acc);
    int ok = rc == DB_OK ? guarded_check(ctx, &acc, key, account_hash(bot, &acc), pw, 1) : 0;
    if (ok > 0) {
        burn_current(ctx, &acc, key);
        return;
    }
    if (rc == DB_OK) {
        reply(ctx,
              SEEN ". The account %s exists already; if it is yours, identify in private: /msg %s "
                   "identify <password>",
              ctx->channel, acc.name, bot->nick);
        return;
    }
    char from[AUTH_FROM_MAX], why[400];
    int64_t now = auth_now(bot);
    auth_reg_source(bot, ctx->nick, from);
    if (rc == DB_NOTFOUND && key[0] && auth_reg_allowed(bot, from, now, why, sizeof(why)) == 0 &&
        burn_said(bot, key, pw) == 0) {
        auth_registered(bot, from, now);
        reply(ctx,
              SEEN ", so I will never take it for %s. Register in private with another one: /msg "
                   "%s register <password>",
              ctx->channel, ctx->nick, bot->nick);
        return;
    }
    reply(ctx, SEEN ". Register in private: /msg %s register <password>", ctx->channel, bot->nick);
}

/* passwd [old] <new>, said in a channel: the old one is burnt if it is the
 * account's password, the new one if the speaker proved the account (that
 * old password, or an identity as it). */
static void overheard_passwd(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    const char *name = ctx->account ? ctx->account : ctx->nick;
    struct db_account acc;
    char key[DB_NAME_MAX];

    if (account_find(bot, name, key, &acc) != DB_OK) {
        reply(ctx,
              SEEN ". Change a password in private, once identified: /msg %s passwd <old "
                   "password> <new password>",
              ctx->channel, bot->nick);
        return;
    }
    int old_ok = ctx->argc == 2 &&
                 guarded_check(ctx, &acc, key, account_hash(bot, &acc), ctx->argv[0], 1) > 0;
    int proved = old_ok || (ctx->account_id && ctx->account_id == acc.id);
    int new_burnt = proved && burn_said(bot, key, ctx->argv[ctx->argc - 1]) == 0;
    if (old_ok) {
        burn_current(ctx, &acc, key);
        return;
    }
    reply(ctx, SEEN "%s%s. Change it in private: /msg %s passwd %s<new password>", ctx->channel,
          new_burnt ? ", so I will never take that new password for " : "",
          new_burnt ? acc.name : "", bot->nick, acc.burnt ? "" : "<old password> ");
}

/* resetpass <account> <password>, said in a channel by an admin: the
 * password is burnt for that account. */
static void overheard_resetpass(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    struct db_account acc;
    char key[DB_NAME_MAX];

    if (ctx->account && bot_is_admin(bot, ctx->account) &&
        account_find(bot, ctx->argv[0], key, &acc) == DB_OK &&
        burn_said(bot, key, ctx->argv[1]) == 0) {
        reply(ctx,
              SEEN ", so I will never take it for %s. Reset it in private: /msg %s resetpass %s "
                   "<password>",
              ctx->channel, acc.name, bot->nick, acc.name);
        return;
    }
    reply(ctx, SEEN ". Use /msg %s resetpass ... in private", ctx->channel, bot->nick);
}

void account_overheard(struct cmd_ctx *ctx, const struct cmd_entry *e)
{
    log_msg(LOG_WARN, "%s said a password in %s (%s): refused", ctx->nick, ctx->channel, e->name);
    if (e == &cmd_identify_entry && (ctx->argc == 1 || ctx->argc == 2))
        overheard_identify(ctx);
    else if (e == &cmd_register_entry && ctx->argc == 1)
        overheard_register(ctx);
    else if (e == &cmd_passwd_entry && (ctx->argc == 1 || ctx->argc == 2))
        overheard_passwd(ctx);
    else if (e == &cmd_resetpass_entry && ctx->argc == 2)
        overheard_resetpass(ctx);
    else
        /* Not the command's words: nothing that could be a password of it. */
        reply(ctx, "never say a password in a channel. Use /msg %s %s ... in private",
              ctx->bot->nick, e->name);
}
