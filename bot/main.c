/*
 * main.c - build/ringside: the IRC bot.
 *
 *   ringside [-c FILE] [--init] [--help] [--version]
 *   ringside --check-config FILE
 *
 * Reads the configuration (errors: FILE:LINE: reason, exit 2), warns in the
 * log when the file holds a password and others can read it, opens the
 * database (migrating it), then runs the IRC loop until SIGTERM or SIGINT,
 * which say goodbye and exit 0. SIGHUP reloads the configuration.
 * A database that is missing while its marker (DATABASE.id) says one was
 * kept there is not created afresh but refused (exit 1); --init creates a
 * new one on purpose.
 * --check-config only reads the file: exit 0 if the bot would start with
 * it, 1 with the error otherwise (nothing else is touched).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

#define EXIT_USAGE 2
/* The bot's wait for another process's write lock, in ms: short, as the
 * event loop waits with it. */
#define BOT_DB_BUSY_MS 150

static const char usage_text[] =
    "usage: ringside [-c FILE] [--init] [--help] [--version]\n"
    "       ringside --check-config FILE\n"
    "\n"
    "Ringside, an IRC bot that runs boxing bouts in chat channels.\n"
    "\n"
    "  -c, --config FILE    the configuration (INI; default ringside.conf); every key\n"
    "                       is explained in ringside.conf(5) and the example\n"
    "                       config/ringside.conf.example\n"
    "  --init               create a new, empty database where the configuration\n"
    "                       points, though its marker (DATABASE.id) says one was\n"
    "                       kept there; refused if the database exists\n"
    "  --check-config FILE  check FILE as the bot reads it at start-up and exit: 0 if\n"
    "                       it is good, 1 with FILE:LINE: reason if not\n"
    "  -h, --help           this text\n"
    "  --version            the version\n"
    "\n"
    "Signals: SIGTERM/SIGINT quit cleanly, SIGHUP reloads the configuration.\n";

/* Reads the configuration at `path` into *cfg as the bot starts with it:
 * 0, or -1 with a one-line reason ("FILE:LINE: reason") in err. */
static int config_read(struct config *cfg, const char *path, char *err, size_t size)
{
    config_defaults(cfg);
    return config_load(cfg, path, err, size) != 0 ? -1 : 0;
}

/* --check-config FILE: 0 if the bot would start with it, 1 if not. */
static int config_check(const char *path)
{
    struct config *cfg = xmalloc(sizeof(*cfg));
    char err[CONFIG_ERR_MAX], warn[CONFIG_ERR_MAX + 256];
    int rc = config_read(cfg, path, err, sizeof(err));

    free(cfg);
    if (rc != 0) {
        fprintf(stderr, "ringside: %s\n", err);
        return 1;
    }
    if (config_mode_check(path, warn, sizeof(warn)))
        fprintf(stderr, "ringside: warning: %s\n", warn);
    printf("%s: configuration ok\n", path);
    return 0;
}

/* Reads the command line: the configuration's path into *path, --init
 * into *init. Returns
 * -1 to go on and start the bot, or the exit status (--help, --version,
 * --check-config, a usage error). */
static int args_read(int argc, char **argv, const char **path, int *init)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--version") == 0) {
            printf("ringside %s (database schema %d)\n", RINGSIDE_VERSION, db_schema_latest());
            return 0;
        }
        if (strcmp(argv[i], "--check-config") == 0) {
            if (i + 2 != argc) {
                fprintf(stderr, "ringside: --check-config needs one file and nothing after it; "
                                "e.g. ringside --check-config /etc/ringside/ringside.conf\n");
                return EXIT_USAGE;
            }
            return config_check(argv[i + 1]);
        }
        if (strcmp(argv[i], "--init") == 0) {
            *init = 1;
            continue;
        }
        if (strcmp(argv[i], "-c") == 0 || strcmp(argv[i], "--config") == 0) {
            if (i + 1 == argc) {
                fprintf(stderr, "ringside: %s needs a file; e.g. ringside -c ringside.conf\n",
                        argv[i]);
                return EXIT_USAGE;
            }
            *path = argv[++i];
            continue;
        }
        fprintf(stderr, "ringside: unknown argument \"%.60s\"; see ringside --help\n", argv[i]);
        return EXIT_USAGE;
    }
    return -1;
}

/* Opens the database and makes the queue, the users and the game of a
 * bot whose configuration is read. 0, or the exit status with the reason
 * on stderr. */
static int bot_open(struct bot *bot, int init)
{
    char err[CONFIG_ERR_MAX * 2];

    bot->db = db_open_marked(bot->cfg.database, init, err, sizeof(err));
    if (!bot->db) {
        fprintf(stderr, "ringside: %s\n", err);
        return 1;
    }
    if (init)
        log_msg(LOG_INFO, "--init: a new, empty database %s", bot->cfg.database);
    /* Another process's write lock makes one command wait this long, never
     * the loop; the command is then answered "the database is busy". */
    db_busy_timeout(bot->db, BOT_DB_BUSY_MS);
    bot->q = outq_new(bot->cfg.burst, bot->cfg.lines_per_second);
    bot->users = users_new();
    users_set_rate(bot->users, bot->cfg.commands, bot->cfg.commands_seconds,
                   bot->cfg.ignore_seconds);
    struct game_io io;
    struct game_config gc;
    bot_game_io(bot, &io);
    bot_game_config(&bot->cfg, &gc);
    bot->now = bot_clock();
    bot->game = game_new(bot->db, &io, &gc, err, sizeof(err));
    if (!bot->game) {
        fprintf(stderr, "ringside: %s\n", err);
        return 1;
    }
    league_unfinished_report(bot->game);
    return 0;
}

/* Gives back what bot_open made (what it made of it). */
static void bot_close(struct bot *bot)
{
    if (bot->game)
        game_free(bot->game);
    if (bot->users)
        users_free(bot->users);
    if (bot->q)
        outq_free(bot->q);
    if (bot->db)
        db_close(bot->db);
}

int main(int argc, char **argv)
{
    const char *path = "ringside.conf";
    char err[CONFIG_ERR_MAX], warn[CONFIG_ERR_MAX + 256];
    int init = 0;
    int rc = args_read(argc, argv, &path, &init);

    if (rc >= 0)
        return rc;
    bot_signals();
    /* The bot's state (its configuration among it) is large: on the heap. */
    struct bot *bot = xcalloc(1, sizeof(*bot));
    if (config_read(&bot->cfg, path, err, sizeof(err)) != 0) {
        fprintf(stderr, "ringside: %s\n", err);
        free(bot);
        return EXIT_USAGE;
    }
    bot->config_path = path;
    log_set_level(bot->cfg.log_level);
    if (config_mode_check(path, warn, sizeof(warn)))
        log_msg(LOG_WARN, "%s", warn);
    rc = bot_open(bot, init);
    int ran = rc == 0;
    if (ran) {
        log_msg(LOG_INFO, "ringside %s starting (database %s, schema %d)", RINGSIDE_VERSION,
                bot->cfg.database, db_schema_version(bot->db));
        rc = bot_run(bot);
    }
    bot_close(bot);
    free(bot);
    if (ran)
        log_msg(LOG_INFO, "stopped");
    return rc;
}
