/*
 * sim.c - ringside-sim: fights seeded bouts from the command line.
 *
 * Arguments are read in full and checked before any bout is fought; any
 * mistake gives one line on stderr ("ringside-sim: what; how to fix it") and
 * exit status 2. Bout k of a run uses seed S+k (mod 2^64), so any bout of a
 * --bouts run can be replayed alone. Per-bout output depends only on the
 * arguments; the one timed figure (bouts_per_sec) appears only in the text
 * statistics.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parse.h"
#include "report.h"
#include "util.h"

#define PROGRAM     "ringside-sim"
#define VERSION     "0.1.0"
#define BOUTS_MAX   10000000UL
#define SHOWN_MAX   60
#define EXIT_USAGE  2
#define EXIT_FAILED 1

static const char usage_text[] =
    "usage: ringside-sim [--rules boxing|sugarray|duel] [--seed N] [--rounds N] [--bouts N] "
    "[--json]\n"
    "                    --a 'NAME key=value ...' --b 'NAME key=value ...'\n"
    "                    [--orders-a LIST] [--orders-b LIST] [--plan-a PLAN] [--plan-b PLAN]\n"
    "                    [--explain]\n"
    "       ringside-sim --replay DB BOUT\n"
    "       ringside-sim --report DB BOUT [ROUND]\n"
    "       ringside-sim --commentary DB BOUT [ROUND]\n"
    "\n"
    "Fights seeded bouts with the Ringside rules engine and reports them.\n"
    "\n"
    "  --rules R         boxing (the default), sugarray or duel\n"
    "  --seed N          seed of the first bout, 0 to 18446744073709551615 (default 1);\n"
    "                    bout k of a --bouts run uses N+k, so --seed N+k replays it\n"
    "  --rounds N        scheduled rounds: boxing 3 to 15 (default 12), sugarray 1 to 5\n"
    "                    (default 5), duel 1 to 23 (default 23); 0 means the default\n"
    "  --bouts N         number of bouts, 1 to 10000000 (default 1); more than one prints\n"
    "                    statistics instead of reports\n"
    "  --json            one JSON object per bout, one per line; with more than one bout a\n"
    "                    last line {\"stats\":{...}}\n"
    "  --a, --b SHEET    a name (1 to 20 letters, digits, _ - ') and key=value pairs:\n"
    "                      boxing    'Rocky str=14 spd=12 agl=11 tgh=12 hgt=11'\n"
    "                      sugarray  'Murphy skill=12 end=21'\n"
    "                      duel      'Conan str=18 dex=14 con=14 int=10 weapon=longsword\n"
    "                                head=plate torso=chainmail+leather legs=leather\n"
    "                                feet=leather shield=leather' (equipment optional;\n"
    "                                an item may end in :condition%, e.g. mace:87.5)\n"
    "  --orders-a LIST   the orders of fighter a, comma-separated, one per round, the\n"
    "  --orders-b LIST   last one repeating: boxing '5/5/10 (ring),4H/8!/8 (ins)',\n"
    "                    sugarray '6/0,3/3,3/4'; default 5/5/10 (boxing), 0/0 (sugarray)\n"
    "  --plan-a PLAN     a fight plan (docs/plans.md): its lines separated by ';', or\n"
    "  --plan-b PLAN     @FILE to read it from a file. With --orders too, the orders\n"
    "                    are used for the rounds they list (the last one does not\n"
    "                    repeat) and the plan answers every later round\n"
    "  --explain         say, each round, which plan line was used and why\n"
    "  --replay DB BOUT  fights bout BOUT of the bot's database DB again from its seed and\n"
    "                    orders and says whether every round and the result match\n"
    "  --report DB BOUT [ROUND]\n"
    "                    the blow-by-blow of bout BOUT (or of one round), rebuilt from\n"
    "                    its seed and stored orders\n"
    "  --commentary DB BOUT [ROUND]\n"
    "                    what the channel was told of bout BOUT (or of one round),\n"
    "                    rebuilt likewise, word for word\n"
    "  --help            this text\n"
    "  --version         the version\n"
    "\n"
    "Options take their value as the next argument or after '=' (--seed=7).\n"
    "Exit status: 0 done, 1 output failed, 2 bad arguments.\n";

/* What the command line asked for, before checking against the rules. */
struct args {
    const char *rules;
    const char *seed;
    const char *rounds;
    const char *bouts;
    const char *sheet[SIDES];
    const char *orders[SIDES];
    const char *plan[SIDES];
    const char *replay_db, *replay_bout;
    const char *derive, *derive_round; /* "--report" or "--commentary" */
    int json;
    int explain;
};

/* Everything a run needs, checked. */
struct config {
    const struct ruleset *rs;
    uint64_t seed;
    int rounds; /* scheduled, never 0 */
    unsigned long bouts;
    int json;
    struct report_bout rb;
    struct order orders[SIDES][REPORT_ROUNDS_MAX];
    int norders[SIDES]; /* 0: no orders given */
    struct plan *plan[SIDES];
    int explain;
};

static const char *const side_opt[SIDES] = {"--a", "--b"};
static const char *const orders_opt[SIDES] = {"--orders-a", "--orders-b"};
static const char *const plan_opt[SIDES] = {"--plan-a", "--plan-b"};

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* Prints "ringside-sim: <message>" on stderr. */
PRINTF_LIKE(1, 2) static void fail(const char *fmt, ...);

static void fail(const char *fmt, ...)
{
    va_list ap;

    fputs(PROGRAM ": ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* User text made safe for a one-line message: control characters become
 * '?', and long text is cut with "...". Returns buf. */
static const char *shown(const char *s, char *buf, size_t len)
{
    struct str t;

    str_init_fixed(&t, buf, len);
    for (; *s && t.len + 1 < len; s++) {
        if (t.len >= SHOWN_MAX && t.len + 4 < len) {
            str_cat(&t, "...");
            break;
        }
        str_ch(&t, (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
    }
    return buf;
}

/* One option of the command line: its name, and where its value goes
 * (NULL for a flag). */
struct opt {
    const char *name;
    const char **value;
};

/* --replay DB BOUT, and --report or --commentary DB BOUT [ROUND]: a whole
 * command line of its own. Returns 0 (read into *a), -1 after an error
 * message, or 1 when argv is none of them. */
static int args_stored(struct args *a, int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--replay") == 0) {
        if (argc != 4) {
            fail("--replay takes a database and a bout, and nothing else: " PROGRAM
                 " --replay ringside.db 12");
            return -1;
        }
        a->replay_db = argv[2];
        a->replay_bout = argv[3];
        return 0;
    }
    if (argc > 1 && (strcmp(argv[1], "--report") == 0 || strcmp(argv[1], "--commentary") == 0)) {
        if (argc != 4 && argc != 5) {
            fail("%s takes a database, a bout and maybe a round, and nothing else: " PROGRAM
                 " %s ringside.db 12 [3]",
                 argv[1], argv[1]);
            return -1;
        }
        a->derive = argv[1];
        a->replay_db = argv[2];
        a->replay_bout = argv[3];
        a->derive_round = argc == 5 ? argv[4] : NULL;
        return 0;
    }
    return 1;
}

/* The option of opts[n] that `arg` names in its first len bytes (the
 * rest is "=value"), or NULL after an error message. */
static const struct opt *opt_find(const struct opt *opts, int n, const char *arg, size_t len)
{
    char shown_buf[SHOWN_MAX + 8];

    if (strncmp(arg, "--", 2) != 0) {
        fail("unexpected argument \"%s\"; options start with --, see " PROGRAM " --help",
             shown(arg, shown_buf, sizeof(shown_buf)));
        return NULL;
    }
    for (int k = 0; k < n; k++)
        if (strlen(opts[k].name) == len && strncmp(opts[k].name, arg, len) == 0)
            return &opts[k];
    fail("unknown option \"%s\"; see " PROGRAM " --help for the options",
         shown(arg, shown_buf, sizeof(shown_buf)));
    return NULL;
}

/* Flag `name` (given with "=value" when eq is not NULL). Returns 0, 1 when
 * --help or --version was answered, -1 after an error message. */
static int flag_set(struct args *a, const char *name, const char *eq)
{
    if (eq) {
        fail("%s takes no value; write just %s", name, name);
        return -1;
    }
    if (strcmp(name, "--help") == 0) {
        fputs(usage_text, stdout);
        return 1;
    }
    if (strcmp(name, "--version") == 0) {
        puts(PROGRAM " " VERSION);
        return 1;
    }
    if (strcmp(name, "--explain") == 0)
        a->explain = 1;
    else
        a->json = 1;
    return 0;
}

/* Reads argv into *a. Returns 0 to go on, 1 when --help or --version was
 * answered (exit 0), -1 after an error message (exit 2). */
static int args_read(struct args *a, int argc, char **argv)
{
    const struct opt opts[] = {
        {"--rules", &a->rules},
        {"--seed", &a->seed},
        {"--rounds", &a->rounds},
        {"--bouts", &a->bouts},
        {"--a", &a->sheet[0]},
        {"--b", &a->sheet[1]},
        {"--orders-a", &a->orders[0]},
        {"--orders-b", &a->orders[1]},
        {"--plan-a", &a->plan[0]},
        {"--plan-b", &a->plan[1]},
        {"--json", NULL},
        {"--explain", NULL},
        {"--help", NULL},
        {"--version", NULL},
    };

    memset(a, 0, sizeof(*a));
    int rc = args_stored(a, argc, argv);
    if (rc != 1)
        return rc;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const struct opt *o = opt_find(opts, (int)(sizeof(opts) / sizeof(opts[0])), arg, len);

        if (!o)
            return -1;
        if (!o->value) {
            rc = flag_set(a, o->name, eq);
            if (rc != 0)
                return rc;
        } else if (eq) {
            *o->value = eq + 1;
        } else if (i + 1 < argc) {
            *o->value = argv[++i];
        } else {
            fail("%s needs a value; see " PROGRAM " --help", o->name);
            return -1;
        }
    }
    return 0;
}

/* Checks a fighter's name: 1 to REPORT_NAME_MAX of [A-Za-z0-9_'-]. */
static int name_valid(const char *s, size_t len)
{
    if (len < 1 || len > REPORT_NAME_MAX)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '\''))
            return 0;
    }
    return 1;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Reads "NAME key=value ..." for `side` into c->rb. Returns 0 or -1 (with a
 * message). */
static int sheet_read(struct config *c, int side, const char *text)
{
    const char *opt = side_opt[side], *ex = grammar_get(c->rs->id)->sheet_example;
    char shown_buf[SHOWN_MAX + 8];
    struct parse_error err;

    if (!text) {
        fail("%s is missing; give both fighters' sheets, e.g. %s %s", opt, opt, ex);
        return -1;
    }
    const char *p = text;
    while (is_space(*p))
        p++;
    const char *name = p;
    while (*p && !is_space(*p))
        p++;
    size_t len = (size_t)(p - name);
    if (len == 0) {
        fail("%s is empty; give a name and the sheet, e.g. %s %s", opt, opt, ex);
        return -1;
    }
    if (!name_valid(name, len)) {
        char raw[REPORT_NAME_MAX * 4 + 1], name_buf[SHOWN_MAX + 8];
        size_t n = len < sizeof(raw) - 1 ? len : sizeof(raw) - 1;

        memcpy(raw, name, n);
        raw[n] = '\0';
        fail("%s: the name \"%s\" is not valid; a name is 1 to %d letters, digits, _, - or '"
             " followed by the sheet, e.g. %s",
             opt, shown(raw, name_buf, sizeof(name_buf)), REPORT_NAME_MAX, ex);
        return -1;
    }
    memcpy(c->rb.name[side], name, len);
    c->rb.name[side][len] = '\0';
    if (sheet_parse(c->rs->id, p, &c->rb.sheet[side], &err) != 0) {
        char reason[PARSE_REASON_MAX + 32];
        if (err.column > 0)
            err.column += (int)(p - text);
        parse_error_format(&err, reason, sizeof(reason));
        fail("%s \"%s\": %s", opt, shown(text, shown_buf, sizeof(shown_buf)), reason);
        return -1;
    }
    if (c->rs->sheet_valid(&c->rb.sheet[side]) != 0) {
        fail("%s \"%s\": the sheet is not legal for %s; e.g. %s", opt,
             shown(text, shown_buf, sizeof(shown_buf)), c->rs->name, ex);
        return -1;
    }
    return 0;
}

/* Reads order n (0-based) of `side`'s list, the len bytes at p, spaces
 * around them taken off, into *o. Returns 0 or -1 (with a message). */
static int order_item(const struct config *c, int side, int n, const char *p, size_t len,
                      struct order *o)
{
    const char *opt = orders_opt[side];
    char shown_buf[SHOWN_MAX + 8], item[256];
    struct parse_error err;

    for (; len > 0 && is_space(*p); len--)
        p++;
    for (; len > 0 && is_space(p[len - 1]); len--)
        ;
    if (len >= sizeof(item)) {
        fail("%s, round %d: the order is too long; give orders like %s", opt, n + 1,
             grammar_get(c->rs->id)->order_example_sim);
        return -1;
    }
    if (len == 0) {
        fail("%s, round %d: the order is empty; separate orders with single commas, e.g. %s", opt,
             n + 1, grammar_get(c->rs->id)->orders_example);
        return -1;
    }
    memcpy(item, p, len);
    item[len] = '\0';
    if (order_parse(c->rs->id, item, o, &err) != 0) {
        char reason[PARSE_REASON_MAX + 32];
        parse_error_format(&err, reason, sizeof(reason));
        fail("%s, round %d \"%s\": %s", opt, n + 1, shown(item, shown_buf, sizeof(shown_buf)),
             reason);
        return -1;
    }
    if (c->rs->order_valid(o) != 0) {
        fail("%s, round %d \"%s\": the order is not legal for %s", opt, n + 1,
             shown(item, shown_buf, sizeof(shown_buf)), c->rs->name);
        return -1;
    }
    return 0;
}

/* Reads a comma-separated order list for `side`; NULL gives the ruleset's
 * default. Every element is checked, but only the first REPORT_ROUNDS_MAX
 * are kept (no bout is longer). Returns 0 or -1 (with a message). */
static int orders_read(struct config *c, int side, const char *list)
{
    int n = 0;

    if (!list) {
        c->norders[side] = 0;
        return 0;
    }
    for (const char *p = list;; n++) {
        const char *end = strchr(p, ',');
        struct order o;

        if (order_item(c, side, n, p, end ? (size_t)(end - p) : strlen(p), &o) != 0)
            return -1;
        if (n < REPORT_ROUNDS_MAX)
            c->orders[side][n] = o;
        if (!end)
            break;
        p = end + 1;
    }
    c->norders[side] = n + 1 < REPORT_ROUNDS_MAX ? n + 1 : REPORT_ROUNDS_MAX;
    return 0;
}

/* Reads the plan file `path` for option `opt` into text[size]. Returns 0,
 * or -1 after printing the problem. */
static int plan_file(const char *opt, const char *path, char *text, size_t size)
{
    FILE *f = fopen(path, "r");

    if (!f) {
        fail("%s: cannot read %s: %s; give the plan text or @FILE of a readable file", opt, path,
             strerror(errno));
        return -1;
    }
    size_t n = fread(text, 1, size - 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fail("%s: cannot read %s; give the plan text or @FILE of a readable file", opt, path);
        return -1;
    }
    if (memchr(text, '\0', n)) {
        fail("%s: %s is not a text file; a plan is lines of text", opt, path);
        return -1;
    }
    text[n] = '\0';
    return 0;
}

/* Reads --plan-a/--plan-b: the plan text, or @FILE. Returns 0, or -1 after
 * printing the problem. */
static int plan_read(struct config *c, int side, const char *arg)
{
    const char *opt = plan_opt[side];
    char *text = NULL;
    struct parse_error err;

    if (!arg)
        return 0;
    if (arg[0] == '@') {
        /* Room for one byte over PLAN_BYTES_MAX: plan_compile says so. */
        text = xmalloc(PLAN_BYTES_MAX + 2);
        if (plan_file(opt, arg + 1, text, PLAN_BYTES_MAX + 2) != 0) {
            free(text);
            return -1;
        }
        arg = text;
    }
    c->plan[side] = plan_compile(c->rs->id, arg, &err);
    free(text);
    if (!c->plan[side]) {
        char reason[PARSE_REASON_MAX + 48];
        parse_error_format(&err, reason, sizeof(reason));
        fail("%s: %s", opt, reason);
        return -1;
    }
    return 0;
}

/* Turns the raw arguments into a checked configuration. Returns 0, or -1
 * after printing the first problem. */
static int config_make(struct config *c, const struct args *a)
{
    char shown_buf[SHOWN_MAX + 8];
    uint64_t v;

    memset(c, 0, sizeof(*c));
    c->json = a->json;
    c->explain = a->explain;
    c->rs = ruleset_find(a->rules ? a->rules : "boxing");
    if (!c->rs) {
        fail("--rules \"%s\" is not a ruleset; use boxing, sugarray or duel",
             shown(a->rules, shown_buf, sizeof(shown_buf)));
        return -1;
    }
    c->rb.rules = c->rs->id;

    c->seed = 1;
    if (a->seed && parse_u64(a->seed, &c->seed) != 0) {
        fail("--seed \"%s\" is not a seed; give a whole number from 0 to 18446744073709551615",
             shown(a->seed, shown_buf, sizeof(shown_buf)));
        return -1;
    }
    c->rb.seed = c->seed;

    c->bouts = 1;
    if (a->bouts) {
        if (parse_u64(a->bouts, &v) != 0 || v < 1 || v > BOUTS_MAX) {
            fail("--bouts \"%s\" is out of range; give a whole number from 1 to %lu",
                 shown(a->bouts, shown_buf, sizeof(shown_buf)), BOUTS_MAX);
            return -1;
        }
        c->bouts = (unsigned long)v;
    }

    c->rounds = c->rs->rounds_default;
    if (a->rounds) {
        if (parse_u64(a->rounds, &v) != 0 ||
            (v != 0 && (v < (uint64_t)c->rs->rounds_min || v > (uint64_t)c->rs->rounds_max))) {
            fail("--rounds \"%s\" is out of range for %s; give %d to %d, or 0 for the default (%d)",
                 shown(a->rounds, shown_buf, sizeof(shown_buf)), c->rs->name, c->rs->rounds_min,
                 c->rs->rounds_max, c->rs->rounds_default);
            return -1;
        }
        if (v != 0)
            c->rounds = (int)v;
    }

    for (int i = 0; i < SIDES; i++)
        if (sheet_read(c, i, a->sheet[i]) != 0)
            return -1;
    for (int i = 0; i < SIDES; i++)
        if (orders_read(c, i, a->orders[i]) != 0 || plan_read(c, i, a->plan[i]) != 0)
            return -1;

    struct bout probe;
    if (bout_init(&probe, c->rs->id, c->rb.sheet, c->rounds) != 0) {
        fail("the engine refused the bout (%s, %d rounds); check the sheets against " PROGRAM
             " --help",
             c->rs->name, c->rounds);
        return -1;
    }
    return 0;
}

/* The order of `side` for the round `b` is about to fight: the given
 * orders for the rounds they list (the last one repeating when there is no
 * plan), else the plan, else the default. *line gets -1, the plan line, or
 * 0; `why` (when not NULL) the explanation. */
static void order_pick(const struct config *c, const struct bout *b, int side, struct order *o,
                       int *line, char *why, size_t whylen)
{
    int n = c->norders[side];

    if (why)
        why[0] = '\0';
    if (n > 0 && (b->round < n || !c->plan[side])) {
        *o = c->orders[side][b->round < n ? b->round : n - 1];
        *line = -1;
        return;
    }
    if (!c->plan[side]) {
        c->rs->order_default(o);
        *line = 0;
        return;
    }
    struct plan_vars v;
    bout_plan_vars(b, side, &v);
    *line = plan_eval(c->plan[side], &v, o);
    if (why)
        plan_explain(c->plan[side], *line, &v, why, whylen);
}

/* Records in `log` the round `b` has just resolved (its events `evs`),
 * where each side's order came from (line[]) and, with --explain, why.
 * Returns 0, or -1 when the log is full. */
static int round_log(const struct config *c, struct report_log *log, const struct bout *b,
                     const struct events *evs, const int line[SIDES],
                     char why[SIDES][REPORT_WHY_MAX])
{
    if (report_log_round(log, b, evs) != 0)
        return -1;
    struct report_round *rr = &log->round[log->n - 1];
    for (int i = 0; i < SIDES; i++) {
        rr->line[i] = line[i];
        if (c->explain)
            memcpy(rr->why[i], why[i], sizeof(rr->why[i]));
        else
            rr->why[i][0] = '\0';
    }
    return 0;
}

/* Fights bout `seed` to its end into *b, recording rounds in `log` unless
 * it is NULL. Returns 0, or -1 if the engine refused a round (a bug). */
static int bout_fight(const struct config *c, uint64_t seed, struct bout *b, struct report_log *log)
{
    struct bout_rng r;
    struct events evs;
    int line[SIDES];
    char why[SIDES][REPORT_WHY_MAX];
    int explain = c->explain && log;

    why[0][0] = why[1][0] = '\0';
    bout_rng_seed(&r, seed);
    if (bout_init(b, c->rs->id, c->rb.sheet, c->rounds) != 0)
        return -1;
    if (log)
        report_log_clear(log);
    while (!b->result.over) {
        struct order o[SIDES];

        for (int i = 0; i < SIDES; i++)
            order_pick(c, b, i, &o[i], &line[i], explain ? why[i] : NULL, sizeof(why[i]));
        if (bout_round(b, o, &r, &evs) != 0)
            return -1;
        if (log && round_log(c, log, b, &evs, line, why) != 0)
            return -1;
    }
    return 0;
}

static double seconds_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Fights the bouts `c` asks for and writes each one's report (one bout,
 * or --json) or the statistics. Returns 0, or EXIT_FAILED after an error
 * message when the engine stopped a bout unfinished. */
static int run(struct config *c)
{
    struct report_log *log = xmalloc(sizeof(*log));
    struct report_stats st;
    struct bout b;
    int reports = c->json || c->bouts == 1, rc = 0;

    report_log_clear(log);
    memset(&st, 0, sizeof(st));
    double t0 = seconds_now();
    for (unsigned long k = 0; k < c->bouts; k++) {
        c->rb.seed = c->seed + (uint64_t)k;
        if (bout_fight(c, c->rb.seed, &b, reports ? log : NULL) != 0) {
            fail("the engine stopped bout %llu (seed %llu) unfinished; this is a bug, please "
                 "report it with the arguments",
                 (unsigned long long)k, (unsigned long long)c->rb.seed);
            rc = EXIT_FAILED;
            break;
        }
        report_stats_add(&st, &b.result);
        if (c->json)
            report_json(stdout, &c->rb, &b, log);
        else if (c->bouts == 1)
            report_text(stdout, &c->rb, &b, log);
        if (ferror(stdout))
            break;
    }
    double elapsed = seconds_now() - t0;
    if (rc == 0 && c->bouts > 1) {
        if (c->json)
            report_stats_json(stdout, &st);
        else
            report_stats_text(stdout, &c->rb, &st,
                              elapsed > 0 ? (double)st.bouts / elapsed : (double)st.bouts);
    }
    free(log);
    return rc;
}

int main(int argc, char **argv)
{
    struct config c;
    struct args a;

    int rc = args_read(&a, argc, argv);
    if (rc != 0)
        return rc > 0 ? (fflush(stdout) == 0 && !ferror(stdout) ? 0 : EXIT_FAILED) : EXIT_USAGE;
    if (a.derive)
        return sim_derive(a.replay_db, a.replay_bout, a.derive_round,
                          strcmp(a.derive, "--report") == 0);
    if (a.replay_db)
        return sim_replay(a.replay_db, a.replay_bout);
    if (config_make(&c, &a) != 0)
        return EXIT_USAGE;

    /* stdout keeps this buffer until the program exits: never freed. */
    setvbuf(stdout, xmalloc(1 << 16), _IOFBF, 1 << 16);
    rc = run(&c);
    for (int i = 0; i < SIDES; i++)
        plan_free(c.plan[i]);
    if (rc != 0)
        return rc;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fail("could not write the output: %s; check the disk or the pipe", strerror(errno));
        return EXIT_FAILED;
    }
    return 0;
}
