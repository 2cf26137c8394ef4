/*
 * main.c - ringside-web -c FILE: the game's pages, read-only, beside the
 * bot. Reads the [web] section and the database's name from the bot's
 * configuration file, opens the database read-only, serves until SIGINT
 * or SIGTERM (SIGHUP is ignored: the settings are read once, the database
 * at every request).
 */
#include <pthread.h>
#include <signal.h>
#ifdef __GLIBC__ /* mallopt */
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "web.h"

#define PROGRAM "ringside-web"
#define VERSION "0.1.0"

static const char usage_text[] =
    "usage: ringside-web -c FILE\n"
    "\n"
    "Serves Ringside's pages (standings, fighters, bouts, live bouts) and their JSON\n"
    "under /api/, reading the bot's database read-only.\n"
    "\n"
    "  -c FILE     the bot's configuration file: [web] listen (default\n"
    "              127.0.0.1:8080) and base_url, [bot] database\n"
    "  --help      this text\n"
    "  --version   the version\n";

/* Reads the command line: the configuration's path into *path. Returns
 * -1 to go on, or the exit status (--help, --version, a usage error). */
static int args_read(int argc, char **argv, const char **path)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--version") == 0) {
            puts(PROGRAM " " VERSION);
            return 0;
        }
        if (strcmp(argv[i], "-c") == 0 && i + 1 < argc && !*path) {
            *path = argv[++i];
            continue;
        }
        fprintf(stderr, PROGRAM ": unexpected argument \"%.40s\"; usage: ringside-web -c FILE\n",
                argv[i]);
        return 2;
    }
    if (!*path) {
        fprintf(stderr, PROGRAM ": no configuration; usage: ringside-web -c FILE (the bot's "
                                "file)\n");
        return 2;
    }
    return -1;
}

/* A page's buffers (its text, a round's report: tens of KiB each) are
 * freed at the end of every request. glibc gives the top of its heap back
 * to the kernel once 128 KiB are free there, so each page took them again
 * as fresh pages, zeroed by the kernel: three page faults a bout page, a
 * few percent of its time. The heap keeps up to 64 MiB free instead (the
 * answers kept are at most 32 MiB), and blocks are mapped apart only from
 * 4 MiB (none of a page's are). */
static void heap_keep(void)
{
#if defined(__GLIBC__) && defined(M_TRIM_THRESHOLD)
    mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
    mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024);
#endif
}

/* Serves with the n workers' states w (their settings read, their
 * databases open) until SIGINT or SIGTERM. Returns the exit status. */
static int serve(struct web *const *ws, int n)
{
    const struct web *w = ws[0];
    char err[WEB_ERR_MAX];

    /* The signals are waited for here; the server's thread never gets
     * them. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGHUP, SIG_IGN); /* nothing to reload: the file is read at each request */

    struct web_server *s = server_start(ws, n, err, sizeof(err));
    if (!s) {
        fprintf(stderr, PROGRAM ": %s\n", err);
        return 1;
    }
    fprintf(stderr, PROGRAM ": serving %s read-only on http://%s%s%s:%d/%s%s\n", w->cfg.database,
            strchr(w->cfg.host, ':') ? "[" : "", w->cfg.host, strchr(w->cfg.host, ':') ? "]" : "",
            w->cfg.port, w->cfg.base_url[0] ? " as " : "", w->cfg.base_url);
    int sig = 0;
    sigwait(&set, &sig);
    fprintf(stderr, PROGRAM ": stopping (signal %d)\n", sig);
    server_stop(s);
    return 0;
}

/* The grammars' patterns are compiled at their first use, which is not
 * thread-safe (parse/match.c): an order a page reads the slow way would
 * compile one in a worker. Every ruleset's is compiled here, before the
 * workers start. */
static void patterns_compile(void)
{
    for (int r = 0; r < RULES_COUNT; r++) {
        struct order o;
        struct parse_error perr;
        order_parse((enum rules)r, "1", &o, &perr);
    }
}

/* Frees the first n of the workers' states ws, and ws. */
static void workers_free(struct web **ws, int n)
{
    for (int i = 0; i < n; i++) {
        web_free(ws[i]);
        db_close(ws[i]->db);
        free(ws[i]);
    }
    free(ws);
}

/* The states of cfg->threads workers, each with its own read-only
 * connection to the database and its share of the answers kept; NULL with
 * the reason in err when the database does not open. */
static struct web **workers_open(const struct web_config *cfg, char *err, size_t errlen)
{
    struct web **ws = xcalloc((size_t)cfg->threads, sizeof(*ws));

    for (int i = 0; i < cfg->threads; i++) {
        /* A worker's state (its caches among it) is large: on the heap. */
        struct web *w = xcalloc(1, sizeof(*w));
        w->cfg = *cfg;
        w->keep_bytes_max = WEB_KEEP_BYTES / (size_t)cfg->threads;
        w->version = -1;
        w->db = db_open_readonly(cfg->database, err, (int)errlen);
        if (!w->db) {
            free(w);
            workers_free(ws, i);
            return NULL;
        }
        ws[i] = w;
    }
    return ws;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    char err[WEB_ERR_MAX + WEB_PATH_MAX];
    struct web_config cfg;
    int rc = args_read(argc, argv, &path);

    if (rc >= 0)
        return rc;
    heap_keep();
    if (web_config_load(path, &cfg, err, sizeof(err)) != 0) {
        fprintf(stderr, PROGRAM ": %s\n", err);
        return 2;
    }
    struct web **ws = workers_open(&cfg, err, sizeof(err));
    if (!ws) {
        fprintf(stderr, PROGRAM ": %s (start the bot once to create it)\n", err);
        return 1;
    }
    patterns_compile();
    rc = serve(ws, cfg.threads);
    workers_free(ws, cfg.threads);
    return rc;
}
