/*
 * fuzz_command.c - libFuzzer harness for the command layer: cmd_parse on
 * the raw input, then the whole of cmd_dispatch (every command, in a
 * channel and in private) against an in-memory database, with the replies
 * drained from the output queue and checked: no CR or LF on the wire, no
 * line over 510 bytes, and something answered for every command (a
 * simulation is fought to its end first, as the event loop would).
 *
 * The bot is set up as main.c sets it up (database, queue, identities,
 * bouts). Commands that hash passwords (register, identify, passwd,
 * resetpass) go through cmd_parse only: yescrypt is slow by design and
 * would starve the fuzzer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct bot bot;

static void setup(void)
{
    char err[256];

    config_defaults(&bot.cfg);
    bot.cfg.nadmins = 1;
    strcpy(bot.cfg.admins[0], "fuzzer");
    bot.db = db_open(":memory:", err, sizeof(err));
    if (!bot.db)
        abort();
    bot.q = outq_new(1000000, 1e6);
    bot.users = users_new();
    struct game_io io;
    struct game_config gc;
    bot_game_io(&bot, &io);
    bot_game_config(&bot.cfg, &gc);
    bot.game = game_new(bot.db, &io, &gc, err, sizeof(err));
    if (!bot.game)
        abort();
    strcpy(bot.nick, "ringside");
    strcpy(bot.chan[0], "#ringside");
    bot.chan_in[0] = 1;
    users_join(bot.users, "fuzzer", 0);
    log_set_level(LOG_ERROR);
    /* An identified admin with a fighter, so commands reach deep. */
    int64_t id;
    char hash[DB_HASH_MAX];
    if (password_hash("fuzzpass", hash, sizeof(hash)) != 0 ||
        db_account_create(bot.db, "fuzzer", "fuzzer", hash, 0, &id) != DB_OK)
        abort();
    users_login(bot.users, "fuzzer", id, "fuzzer");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    char text[600], line[OUTQ_LINE_MAX];
    struct cmd_line cl;

    if (!ready) {
        setup();
        ready = 1;
    }
    if (size >= sizeof(text))
        size = sizeof(text) - 1;
    memcpy(text, data, size);
    text[size] = '\0';
    /* What the server delivers: one line, no NUL, CR or LF inside. */
    text[strcspn(text, "\r\n")] = '\0';

    int in_channel = size > 0 && (data[0] & 1);
    int rc = cmd_parse(text, bot.cfg.prefix, !in_channel, &cl);
    if (rc == 1 && (strcmp(cl.argv[0], "register") == 0 || strcmp(cl.argv[0], "identify") == 0 ||
                    strcmp(cl.argv[0], "login") == 0 || strcmp(cl.argv[0], "passwd") == 0 ||
                    strcmp(cl.argv[0], "resetpass") == 0))
        return 0;

    bot.now += USERS_RATE_WINDOW / USERS_RATE_CMDS + 0.1; /* stay under the inbound rate */
    cmd_dispatch(&bot, "fuzzer", in_channel ? "#ringside" : NULL, text);
    /* A simulation answers once fought, as the event loop would. */
    while (game_sims(bot.game) > 0)
        game_sim_step(bot.game, SIM_BOUTS_MAX);
    int lines = 0;
    for (double t_ = bot.now + 1e6; outq_len(bot.q) > 0; t_ += 1)
        if (outq_pop(bot.q, t_, line)) {
            size_t n = strlen(line);
            if (n > 510 || strchr(line, '\r') || strchr(line, '\n'))
                abort();
            lines++;
        }
    if (rc != 0 && lines == 0)
        abort(); /* every command answers */
    /* Keep the fuzzer identified whatever it did (logout, ...). */
    users_login(bot.users, "fuzzer", 1, "fuzzer");
    return 0;
}
