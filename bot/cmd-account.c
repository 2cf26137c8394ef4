/*
 * cmd-account.c - register, identify, logout, passwd.
 *
 * All of them are private-only (the table refuses them in a channel) and
 * carry passwords, which are hashed and never logged. An identity needs the
 * player to share a channel with the bot: otherwise the bot would not see
 * him quit, and whoever took his nick next would inherit it.
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

static int cmd_register(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    const char *pw = ctx->argv[0];
    char key[DB_NAME_MAX], hash[DB_HASH_MAX];
    int64_t id;

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
    if (present(ctx) != 0 || password_ok(ctx, pw) != 0)
        return -1;
    bot_name_key(key, ctx->nick, sizeof(key));
    if (password_hash(pw, hash, sizeof(hash)) != 0) {
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
        reply(ctx, "sorry, I could not register you (database error); try again later");
        return -1;
    }
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
    .help = "creates an account named after your nick (in private only)",
    .secret = 1,
    .exec = cmd_register,
};

static int cmd_identify(struct cmd_ctx *ctx)
{
    struct bot *bot = ctx->bot;
    const char *name = ctx->argc == 2 ? ctx->argv[0] : ctx->nick;
    const char *pw = ctx->argv[ctx->argc - 1];
    struct db_account acc;
    char key[DB_NAME_MAX];

    if (present(ctx) != 0)
        return -1;
    if (strlen(name) >= DB_NAME_MAX) {
        reply(ctx, "no account %s...; account names have at most %d characters", CLIP(name, 20),
              DB_NAME_MAX - 1);
        return -1;
    }
    bot_name_key(key, name, sizeof(key));
    int rc = db_account_get(bot->db, key, &acc);
    if (rc == DB_NOTFOUND) {
        reply(ctx, "there is no account %s; register <password> creates one for your nick", name);
        return -1;
    }
    if (rc != DB_OK) {
        log_msg(LOG_ERROR, "identify %s: %s", name, db_errmsg(bot->db));
        reply(ctx, "sorry, I could not check that (database error); try again later");
        return -1;
    }
    if (!password_check(pw, acc.hash)) {
        log_msg(LOG_INFO, "identify %s as %s: wrong password", ctx->nick, acc.name);
        reply(ctx, "wrong password for %s", acc.name);
        return -1;
    }
    if (acc.banned) {
        reply(ctx, "the account %s is banned; ask an admin", acc.name);
        return -1;
    }
    users_login(bot->users, ctx->nick, acc.id, acc.name);
    log_msg(LOG_INFO, "%s identified as %s", ctx->nick, acc.name);
    reply(ctx, "you are identified as %s until you quit or leave my channels", acc.name);
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
    .help = "logs you in to your account until you quit (in private only)",
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

    bot_name_key(key, ctx->account, sizeof(key));
    if (db_account_get(bot->db, key, &acc) != DB_OK) {
        reply(ctx, "sorry, I could not find your account (database error); try again later");
        return -1;
    }
    if (!password_check(ctx->argv[0], acc.hash)) {
        reply(ctx, "the old password is wrong; nothing changed");
        return -1;
    }
    if (password_ok(ctx, ctx->argv[1]) != 0)
        return -1;
    if (password_hash(ctx->argv[1], hash, sizeof(hash)) != 0 ||
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
    .args_min = 2,
    .args_max = 2,
    .usage = "<old password> <new password>",
    .help = "changes your password (in private only)",
    .secret = 1,
    .exec = cmd_passwd,
};
