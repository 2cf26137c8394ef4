/*
 * main.c - build/ringside: the IRC bot.
 *
 *   ringside [-c FILE] [--help] [--version]
 *
 * Reads the configuration (errors: FILE:LINE: reason, exit 2), opens the
 * database (migrating it), then runs the IRC loop until SIGTERM or SIGINT,
 * which say goodbye and exit 0. SIGHUP reloads the configuration.
 */
#include <stdio.h>
#include <string.h>

#include "bot.h"

#define EXIT_USAGE 2

static const char usage_text[] =
    "usage: ringside [-c FILE] [--help] [--version]\n"
    "\n"
    "Ringside, an IRC bot that runs boxing bouts in chat channels.\n"
    "\n"
    "  -c, --config FILE  the configuration (INI; default ringside.conf); every key is\n"
    "                     explained in config/ringside.conf.example\n"
    "  --help             this text\n"
    "  --version          the version\n"
    "\n"
    "Signals: SIGTERM/SIGINT quit cleanly, SIGHUP reloads the configuration.\n";

int main(int argc, char **argv)
{
    const char *path = "ringside.conf";
    static struct bot bot;
    char err[CONFIG_ERR_MAX];

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--version") == 0) {
            printf("ringside %s (database schema %d)\n", RINGSIDE_VERSION, db_schema_latest());
            return 0;
        }
        if (strcmp(argv[i], "-c") == 0 || strcmp(argv[i], "--config") == 0) {
            if (i + 1 == argc) {
                fprintf(stderr, "ringside: %s needs a file; e.g. ringside -c ringside.conf\n",
                        argv[i]);
                return EXIT_USAGE;
            }
            path = argv[++i];
            continue;
        }
        fprintf(stderr, "ringside: unknown argument \"%.60s\"; see ringside --help\n", argv[i]);
        return EXIT_USAGE;
    }

    config_defaults(&bot.cfg);
    if (config_load(&bot.cfg, path, err, sizeof(err)) != 0) {
        fprintf(stderr, "ringside: %s\n", err);
        return EXIT_USAGE;
    }
    bot.config_path = path;
    log_set_level(bot.cfg.log_level);

    bot.db = db_open(bot.cfg.database, err, sizeof(err));
    if (!bot.db) {
        fprintf(stderr, "ringside: %s\n", err);
        return 1;
    }
    bot.q = outq_new(bot.cfg.burst, bot.cfg.lines_per_second);
    bot.users = users_new();
    users_set_rate(bot.users, bot.cfg.commands, bot.cfg.commands_seconds, bot.cfg.ignore_seconds);
    struct game_io io;
    struct game_config gc;
    bot_game_io(&bot, &io);
    bot_game_config(&bot.cfg, &gc);
    bot.now = bot_clock();
    bot.game = game_new(bot.db, &io, &gc, err, sizeof(err));
    if (!bot.game) {
        fprintf(stderr, "ringside: %s\n", err);
        return 1;
    }
    log_msg(LOG_INFO, "ringside %s starting (database %s, schema %d)", RINGSIDE_VERSION,
            bot.cfg.database, db_schema_version(bot.db));

    int rc = bot_run(&bot);

    game_free(bot.game);
    users_free(bot.users);
    outq_free(bot.q);
    db_close(bot.db);
    log_msg(LOG_INFO, "stopped");
    return rc;
}
