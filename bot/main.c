/*
 * main.c - build/ringside: the IRC bot.
 *
 *   ringside [-c FILE] [--init] [--help] [--version]
 *   ringside --check-config FILE
 *   ringside [-c FILE] --add-admin NAME | --remove-admin NAME
 *   ringside --hash-password
 *   ringside [-c FILE] --migrate-to URI
 *
 * Reads the configuration (errors: FILE:LINE: reason, exit 2), warns in the
 * log when the file holds a password and others can read it, opens the
 * database (migrating it), takes the network's lease (bot/failover.c: while
 * another bot of the same network holds it, waits as its standby, off
 * IRC), then runs the IRC loop until SIGTERM or SIGINT, which say goodbye
 * and exit 0 (also from the standby's wait). SIGHUP reloads the
 * configuration. A bot that loses its lease steps down: it quits IRC and
 * starts again from the database, as a standby first.
 * A database that is missing while its marker (DATABASE.id) says one was
 * kept there is not created afresh but refused (exit 1); --init creates a
 * new one on purpose.
 * --check-config only reads the file: exit 0 if the bot would start with
 * it, 1 with the error otherwise (nothing else is touched).
 * --add-admin makes (or takes over) an account with a password read from
 * the terminal (no echo) or stdin and marks it as an admin in the
 * database; --remove-admin takes the mark away; --hash-password prints the
 * hash of a password so read, for "[bot] admins = name:HASH".
 * --migrate-to copies the SQLite database into an empty PostgreSQL one and
 * replays every bout from the copy (game_migrate_to): exit 0 if all match.
 */
#define _DEFAULT_SOURCE /* explicit_bzero, setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <termios.h>
#include <unistd.h>

#include "bot.h"

#define EXIT_USAGE 2
/* The bot's wait for another process's write lock, in ms: short, as the
 * event loop waits with it. */
#define BOT_DB_BUSY_MS 150

static const char usage_text[] =
    "usage: ringside [-c FILE] [--init] [--help] [--version]\n"
    "       ringside --check-config FILE\n"
    "       ringside [-c FILE] --add-admin NAME | --remove-admin NAME\n"
    "       ringside --hash-password\n"
    "       ringside [-c FILE] --migrate-to URI\n"
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
    "  --add-admin NAME     make the account NAME (or take it over) with a password\n"
    "                       asked on the terminal (or read from stdin) and make it an\n"
    "                       admin, in the database of the configuration\n"
    "  --remove-admin NAME  take the admin mark away from the account NAME\n"
    "  --hash-password      print the hash of a password asked on the terminal (or\n"
    "                       read from stdin), for [bot] admins = NAME:HASH\n"
    "  --migrate-to URI     copy the configuration's SQLite database into the empty\n"
    "                       PostgreSQL database URI and check it by replaying every\n"
    "                       bout; exit 0 only when every digest is the same\n"
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

/* Reads a password: asked twice on the terminal without echo when stdin is
 * one, else the first line of stdin. 0, or -1 after saying why. */
static int password_read(char *pw, size_t len)
{
    int tty = isatty(STDIN_FILENO);
    struct termios old, quiet;
    char again[PASSWORD_MAX + 2];
    int rc = -1;

    if (tty && tcgetattr(STDIN_FILENO, &old) == 0) {
        quiet = old;
        quiet.c_lflag &= ~(tcflag_t)ECHO;
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
    } else {
        tty = 0;
    }
    if (tty)
        fputs("password: ", stderr);
    if (fgets(pw, (int)len, stdin)) {
        pw[strcspn(pw, "\r\n")] = '\0';
        rc = 0;
        if (tty) {
            fputs("\nagain: ", stderr);
            if (!fgets(again, sizeof(again), stdin) ||
                (again[strcspn(again, "\r\n")] = '\0', strcmp(again, pw) != 0)) {
                fputs("\nringside: the two passwords differ; nothing changed\n", stderr);
                rc = -1;
            }
            explicit_bzero(again, sizeof(again));
        }
    } else {
        fputs("ringside: no password given (type it, or give it on stdin)\n", stderr);
    }
    if (tty) {
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &old);
        fputs("\n", stderr);
    }
    if (rc == 0 && (strlen(pw) < PASSWORD_MIN || strlen(pw) > PASSWORD_MAX)) {
        fprintf(stderr, "ringside: a password has %d to %d characters; nothing changed\n",
                PASSWORD_MIN, PASSWORD_MAX);
        rc = -1;
    }
    return rc;
}

/* --hash-password: the hash of a password read, on stdout. */
static int hash_password(void)
{
    char pw[PASSWORD_MAX + 2], hash[DB_HASH_MAX];
    int rc = password_read(pw, sizeof(pw));

    if (rc == 0 && password_hash(pw, hash, sizeof(hash)) != 0) {
        fputs("ringside: hashing the password failed\n", stderr);
        rc = -1;
    }
    explicit_bzero(pw, sizeof(pw));
    if (rc != 0)
        return 1;
    printf("%s\n", hash);
    return 0;
}

/* --add-admin NAME (add) or --remove-admin NAME, on the database of the
 * configuration at `path`: 0, or 1 after saying why. */
static int admin_edit(const char *path, const char *name, int add)
{
    struct config *cfg = xmalloc(sizeof(*cfg));
    char err[CONFIG_ERR_MAX], pw[PASSWORD_MAX + 2] = "";
    int rc = 1, existed = 0;
    struct db *db = NULL;

    if (config_read(cfg, path, err, sizeof(err)) != 0)
        fprintf(stderr, "ringside: %s\n", err);
    else if (!(db = db_open_marked(cfg->database, 0, err, sizeof(err))) ||
             accounts_network(db, cfg->network, err, sizeof(err)) != 0)
        fprintf(stderr, "ringside: %s\n", err);
    else if (!add && accounts_remove_admin(db, name, err, sizeof(err)) != 0)
        fprintf(stderr, "ringside: %s\n", err);
    else if (!add)
        rc = 0, printf("%s is no longer an admin (unless [bot] admins makes him one)\n", name);
    else if (password_read(pw, sizeof(pw)) != 0)
        ;
    else if (accounts_add_admin(db, name, pw, &existed, err, sizeof(err)) != 0)
        fprintf(stderr, "ringside: %s\n", err);
    else
        rc = 0, printf("%s %s, and is an admin: identify as %s with that password\n", name,
                       existed ? "had an account: its password is replaced" : "is made", name);
    explicit_bzero(pw, sizeof(pw));
    if (db)
        db_close(db);
    free(cfg);
    return rc;
}

/* --migrate-to URI, from the database of the configuration at `path`. */
static int migrate_to(const char *path, const char *uri)
{
    struct config *cfg = xmalloc(sizeof(*cfg));
    char err[CONFIG_ERR_MAX];
    int rc = 1;

    if (config_read(cfg, path, err, sizeof(err)) != 0)
        fprintf(stderr, "ringside: %s\n", err);
    else
        rc = game_migrate_to(cfg->database, uri, stdout, stderr);
    free(cfg);
    return rc;
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
        if (strcmp(argv[i], "--hash-password") == 0)
            return hash_password();
        if (strcmp(argv[i], "--add-admin") == 0 || strcmp(argv[i], "--remove-admin") == 0) {
            if (i + 2 != argc) {
                fprintf(stderr,
                        "ringside: %s needs one account name, last; e.g. ringside -c "
                        "ringside.conf %s alice\n",
                        argv[i], argv[i]);
                return EXIT_USAGE;
            }
            return admin_edit(*path, argv[i + 1], strcmp(argv[i], "--add-admin") == 0);
        }
        if (strcmp(argv[i], "--migrate-to") == 0) {
            if (i + 2 != argc) {
                fprintf(stderr, "ringside: --migrate-to needs one PostgreSQL URI, last; e.g. "
                                "ringside -c ringside.conf --migrate-to "
                                "postgresql://ringside@localhost/ringside\n");
                return EXIT_USAGE;
            }
            return migrate_to(*path, argv[i + 1]);
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

/* glibc's malloc keeps up to seven freed chunks of each size up to 1 KiB
 * in a cache of its own (tcache), out of the heap's free lists: there they
 * neither merge with their free neighbours nor serve a request of another
 * size, nor go back to the system. SQLite's schema, parsed at open into a
 * few thousand objects of 100 bytes to 1 KiB among as many temporaries
 * freed as it goes, then spreads over half again the pages it fills:
 * about 150 KiB of a bot's anonymous memory (bench/peers_bench.py's
 * bot.anon_kb). Chunks of up to 128 bytes, the most frequent, stay
 * cached. That cache is a glibc tunable, read only when a process starts,
 * so the bot executes itself again, once, with GLIBC_TUNABLES set. Not
 * when GLIBC_TUNABLES is set already (the second start, or the user's own
 * choice) nor under LD_PRELOAD (a tool such as valgrind or another
 * allocator is in place, and would not follow the exec), nor when it
 * would not be the same program started again (below). If the exec
 * fails, the bot goes on as it is. */
#define MALLOC_TUNABLES "glibc.malloc.tcache_max=128"

static void malloc_tune(char **argv)
{
#ifdef __GLIBC__
    char self[4096];

    if (getenv("GLIBC_TUNABLES") || getenv("LD_PRELOAD"))
        return;
    /* Not in secure-execution mode (setuid, setgid, file capabilities:
     * glibc ignores the tunable there, and newer ones remove it, so every
     * start would execute again), nor when the program was started by
     * naming the dynamic loader (then /proc/self/exe is the loader, which
     * would take the first argument for the program). */
    if (getauxval(AT_SECURE) || getauxval(AT_BASE) == 0)
        return;
    /* The program file's own path, not /proc/self/exe: a process is named
     * after the file it executes (ps, pkill, make stop). A program file
     * replaced since reads "PATH (deleted)", which no exec finds. */
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0 || (size_t)n >= sizeof(self) - 1)
        return;
    self[n] = '\0';
    if (setenv("GLIBC_TUNABLES", MALLOC_TUNABLES, 1) != 0)
        return;
    execv(self, argv);
    unsetenv("GLIBC_TUNABLES");
#else
    (void)argv;
#endif
}

/* Gives the memory that opening freed (the migrations' and the schema's
 * work, the game's loading) back to the system: the bot runs for months
 * and would otherwise keep those pages resident, about a fifth of its
 * private memory (bench/peers_bench.py's bot.private_kb). */
static void memory_give_back(struct db *db)
{
    db_release_memory(db);
    xtrim();
}

/* bot_open's return when SIGTERM or SIGINT came while it waited (as a
 * standby, or for the database after a step-down): stop, exit 0. */
#define BOT_STOPPED (-1)

/* Opens the database, takes the network's lease (waiting as a standby
 * while another bot holds it: failover_wait) and makes the queue, the
 * users and the game of a bot whose configuration is read. `again` after
 * a step-down: the database is opened again until it opens. 0, BOT_STOPPED,
 * or the exit status with the reason on stderr. */
static int bot_open(struct bot *bot, int init, int again)
{
    char err[CONFIG_ERR_MAX * 2];

    bot->db =
        again ? failover_reopen(bot) : db_open_marked(bot->cfg.database, init, err, sizeof(err));
    if (!bot->db && again)
        return BOT_STOPPED;
    if (!bot->db) {
        fprintf(stderr, "ringside: %s\n", err);
        return 1;
    }
    if (init)
        log_msg(LOG_INFO, "--init: a new, empty database %s", bot->cfg.database);
    /* Before the game loads (it may write) and before IRC (the same nick). */
    if (failover_wait(bot) != 0)
        return BOT_STOPPED;
    /* Another process's write lock makes one command wait this long, never
     * the loop; the command is then answered "the database is busy". */
    db_busy_timeout(bot->db, BOT_DB_BUSY_MS);
    if (accounts_network(bot->db, bot->cfg.network, err, sizeof(err)) != 0) {
        fprintf(stderr, "ringside: %s\n", err);
        return 1;
    }
    bot->q = outq_new(bot->cfg.burst, bot->cfg.lines_per_second);
    outq_set_allowance(bot->q, bot->cfg.commands, bot->cfg.commands_seconds);
    bot->users = users_new();
    bot->auth.budget = AUTH_BUDGET;
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
    memory_give_back(bot->db);
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
        relay_close(bot); /* the rows held for other networks: a last try */
    if (bot->db) {
        db_lease_release(bot->db);
        db_close(bot->db);
    }
}

int main(int argc, char **argv)
{
    const char *path = "ringside.conf";
    char err[CONFIG_ERR_MAX], warn[CONFIG_ERR_MAX + 256];
    int init = 0;
    int rc = args_read(argc, argv, &path, &init);

    if (rc >= 0)
        return rc;
    malloc_tune(argv);
    bot_signals();
    /* The bot's state (its configuration among it) is large, 31 KB, and
     * mostly room for what a bot may have (password guessers, WHOIS
     * waits, other networks' names) and seldom has: in pages of its own,
     * resident only where written (the heap's calloc writes all of it). */
    struct bot *bot = xcalloc_pages(sizeof(*bot));
    if (config_read(&bot->cfg, path, err, sizeof(err)) != 0) {
        fprintf(stderr, "ringside: %s\n", err);
        xfree_pages(bot, sizeof(*bot));
        return EXIT_USAGE;
    }
    bot->config_path = path;
    log_set_level(bot->cfg.log_level);
    if (config_mode_check(path, warn, sizeof(warn)))
        log_msg(LOG_WARN, "%s", warn);
    rc = bot_open(bot, init, 0);
    int ran = rc == 0 || rc == BOT_STOPPED;
    while (rc == 0) {
        log_msg(LOG_INFO, "ringside %s starting (database %s, schema %d)", RINGSIDE_VERSION,
                bot->cfg.database, db_schema_version(bot->db));
        accounts_admins_check(bot);
        rc = bot_run(bot);
        if (!bot->stepped_down)
            break;
        /* The lease is lost: start again from the database, as a standby
         * first. */
        bot_close(bot);
        failover_reset(bot);
        rc = bot_open(bot, 0, 1);
    }
    if (rc == BOT_STOPPED)
        rc = 0;
    bot_close(bot);
    xfree_pages(bot, sizeof(*bot));
    if (ran)
        log_msg(LOG_INFO, "stopped");
    return rc;
}
