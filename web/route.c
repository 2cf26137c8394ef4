/*
 * route.c - a request's path to the page it names. The one parser of what
 * a browser sends us (the server decodes %XX and splits off the query
 * first), fuzzed by fuzz/fuzz_route.c: it reads at most ROUTE_PATH_MAX
 * bytes, never allocates, and anything it does not know is PAGE_NOT_FOUND.
 *
 * Paths are exact: "/bouts/7", not "/bouts/7/" nor "/bouts/07" nor
 * "//bouts/7", so every page has one address.
 */
#include <stdio.h>
#include <string.h>

#include "web.h"

/* The path's segments, split at '/'. */
#define SEGMENTS_MAX 4

struct segments {
    int n;
    const char *s[SEGMENTS_MAX];
    size_t len[SEGMENTS_MAX];
};

/* Splits "/a/b/c" into its segments. -1 for a path that does not start
 * with '/', has an empty segment (a trailing or double slash) or too many
 * segments. "/" has none. */
static int split(const char *path, struct segments *sg)
{
    sg->n = 0;
    if (path[0] != '/')
        return -1;
    if (path[1] == '\0')
        return 0;
    const char *p = path + 1;
    for (;;) {
        size_t n = strcspn(p, "/");
        if (n == 0 || sg->n == SEGMENTS_MAX)
            return -1;
        sg->s[sg->n] = p;
        sg->len[sg->n++] = n;
        if (p[n] == '\0')
            return 0;
        p += n + 1;
    }
}

static int is(const struct segments *sg, int i, const char *word)
{
    return sg->len[i] == strlen(word) && memcmp(sg->s[i], word, sg->len[i]) == 0;
}

/* The ruleset named by segment i, or -1. */
static int rules_of(const struct segments *sg, int i)
{
    for (int r = 0; r < RULES_COUNT; r++) {
        const struct ruleset *rs = ruleset_get((enum rules)r);
        if (rs && is(sg, i, rs->name))
            return r;
    }
    return -1;
}

/* The league named by segment i (lower case), or -1. */
static int league_of(const struct segments *sg, int i)
{
    static const char *const names[LEAGUE_COUNT] = {
        [LEAGUE_BRONZE] = "bronze", [LEAGUE_SILVER] = "silver", [LEAGUE_GOLD] = "gold"};

    for (int l = 0; l < LEAGUE_COUNT; l++)
        if (is(sg, i, names[l]))
            return l;
    return -1;
}

/* A decimal id from 1 to 2^63 - 1 without leading zeros, or 0. */
static int64_t id_of(const struct segments *sg, int i)
{
    const char *s = sg->s[i];
    size_t n = sg->len[i];
    int64_t v = 0;

    if (n == 0 || n > 19 || s[0] == '0')
        return 0;
    for (size_t k = 0; k < n; k++) {
        if (s[k] < '0' || s[k] > '9')
            return 0;
        int d = s[k] - '0';
        if (v > (INT64_MAX - d) / 10)
            return 0;
        v = v * 10 + d;
    }
    return v;
}

/* Segment i as a fighter's name into r->name: a letter, then letters,
 * digits, _ - ' (what the bot lets players name fighters), 1 to
 * DB_NAME_MAX - 1 bytes. 0, or -1 when it is not one. */
static int name_of(const struct segments *sg, int i, struct route *r)
{
    const char *s = sg->s[i];
    size_t n = sg->len[i];

    if (n == 0 || n >= sizeof(r->name) || !((s[0] | 32) >= 'a' && (s[0] | 32) <= 'z'))
        return -1;
    for (size_t k = 1; k < n; k++)
        if (!(((s[k] | 32) >= 'a' && (s[k] | 32) <= 'z') || (s[k] >= '0' && s[k] <= '9') ||
              s[k] == '_' || s[k] == '-' || s[k] == '\''))
            return -1;
    memcpy(r->name, s, n);
    r->name[n] = '\0';
    return 0;
}

/* The relative prefix from `path` to the root: one "../" per '/' after
 * the first, as many whole ones as r->root holds. */
static void root_of(const char *path, struct route *r)
{
    const int most = (int)((sizeof(r->root) - 1) / 3);
    struct str root;
    int up = 0;

    str_init_fixed(&root, r->root, sizeof(r->root));
    if (strnlen(path, ROUTE_PATH_MAX + 1) > ROUTE_PATH_MAX || path[0] != '/') {
        str_cat(&root, "/");
        return;
    }
    for (const char *p = path + 1; *p; p++)
        up += *p == '/';
    str_repeat(&root, "../", up < most ? up : most);
}

/* Where a path is in its reading: its segments, whether it is the API's
 * (/api/...), the segment its page's word is at and how many are left
 * from there. */
struct reading {
    struct segments sg;
    int api, at, left;
};

/* /standings[/RULES[/LEAGUE]] (and the API's): the ruleset and league
 * into r. */
static enum route_page standings_of(const struct reading *g, struct route *r)
{
    if (g->left >= 2 && (r->rules = rules_of(&g->sg, g->at + 1)) < 0)
        return PAGE_NOT_FOUND;
    if (g->left == 3 && (r->league = league_of(&g->sg, g->at + 2)) < 0)
        return PAGE_NOT_FOUND;
    if (g->left > 3)
        return PAGE_NOT_FOUND;
    return g->api ? API_STANDINGS : PAGE_STANDINGS;
}

/* /champions/RULES (and the API's): the ruleset into r. */
static enum route_page champions_of(const struct reading *g, struct route *r)
{
    if (g->left != 2 || (r->rules = rules_of(&g->sg, g->at + 1)) < 0)
        return PAGE_NOT_FOUND;
    return g->api ? API_CHAMPIONS : PAGE_CHAMPIONS;
}

/* /ratings/RULES (and the API's): the ruleset into r. */
static enum route_page ratings_of(const struct reading *g, struct route *r)
{
    if (g->left != 2 || (r->rules = rules_of(&g->sg, g->at + 1)) < 0)
        return PAGE_NOT_FOUND;
    return g->api ? API_RATINGS : PAGE_RATINGS;
}

/* /seasons/RULES/N and /halloffame (and the API's): the ruleset and the
 * season's number (r->id) into r. */
static enum route_page seasons_of(const struct reading *g, struct route *r)
{
    if (is(&g->sg, g->at, "halloffame"))
        return g->left != 1 ? PAGE_NOT_FOUND : g->api ? API_HALLOFFAME : PAGE_HALLOFFAME;
    if (g->left != 3 || (r->rules = rules_of(&g->sg, g->at + 1)) < 0 ||
        (r->id = id_of(&g->sg, g->at + 2)) <= 0)
        return PAGE_NOT_FOUND;
    return g->api ? API_SEASON : PAGE_SEASON;
}

/* /bouts/ID, /fighters/ID and /fighters/NAME (and the API's): the id or
 * the name into r. */
static enum route_page item_of(const struct reading *g, struct route *r)
{
    int bouts = is(&g->sg, g->at, "bouts");

    if (g->left != 2)
        return PAGE_NOT_FOUND;
    if ((r->id = id_of(&g->sg, g->at + 1)) > 0) {
        if (bouts)
            return g->api ? API_BOUT : PAGE_BOUT;
        return g->api ? API_FIGHTER : PAGE_FIGHTER;
    }
    if (!bouts && name_of(&g->sg, g->at + 1, r) == 0)
        return g->api ? API_FIGHTER_NAME : PAGE_FIGHTER_NAME;
    return PAGE_NOT_FOUND;
}

/* The page a split path names, by its first word after /api. */
static enum route_page page_of(const struct reading *g, struct route *r)
{
    const struct segments *sg = &g->sg;

    if (g->left == 0)
        return g->api ? API_HOME : PAGE_HOME;
    if (is(sg, g->at, "live")) {
        if (g->left != 1)
            return PAGE_NOT_FOUND;
        return g->api ? API_LIVE : PAGE_LIVE;
    }
    if (is(sg, g->at, "standings"))
        return standings_of(g, r);
    if (is(sg, g->at, "champions"))
        return champions_of(g, r);
    if (is(sg, g->at, "ratings"))
        return ratings_of(g, r);
    if (is(sg, g->at, "fighters") || is(sg, g->at, "bouts"))
        return item_of(g, r);
    if (is(sg, g->at, "seasons") || is(sg, g->at, "halloffame"))
        return seasons_of(g, r);
    if (is(sg, g->at, "pundits") &&
        (g->left == 1 || (g->left == 2 && (r->rules = rules_of(sg, g->at + 1)) >= 0)))
        return g->api ? API_PUNDITS : PAGE_PUNDITS; /* /pundits, /pundits/RULES */
    if (is(sg, g->at, "tournaments")) {
        if (g->left == 1)
            return g->api ? API_TOURNAMENTS : PAGE_TOURNAMENTS;
        if (g->left == 2 && (r->id = id_of(sg, g->at + 1)) > 0)
            return g->api ? API_TOURNAMENT : PAGE_TOURNAMENT;
    }
    return PAGE_NOT_FOUND;
}

int route_parse(const char *path, struct route *r)
{
    struct reading g;

    memset(r, 0, sizeof(*r));
    r->page = PAGE_NOT_FOUND;
    r->rules = -1;
    r->league = -1;
    if (!path)
        return -1;
    /* Under /api, even an address that names nothing is answered in JSON. */
    r->api = strncmp(path, "/api/", 5) == 0 || strcmp(path, "/api") == 0;
    root_of(path, r);
    /* The tournaments' list is also asked for as a folder: one page. */
    if (strcmp(path, "/tournaments/") == 0 || strcmp(path, "/api/tournaments/") == 0) {
        r->page = r->api ? API_TOURNAMENTS : PAGE_TOURNAMENTS;
        return 0;
    }
    if (strnlen(path, ROUTE_PATH_MAX + 1) > ROUTE_PATH_MAX || split(path, &g.sg) != 0)
        return -1;
    g.api = g.sg.n > 0 && is(&g.sg, 0, "api");
    g.at = g.api;
    g.left = g.sg.n - g.api;
    r->page = page_of(&g, r);
    return r->page == PAGE_NOT_FOUND ? -1 : 0;
}

int route_page_number(const char *text, int *page)
{
    int v = 0;

    if (!text) {
        *page = 1;
        return 0;
    }
    if (!*text || text[0] == '0' || strlen(text) > 6)
        return -1;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (*p - '0');
    }
    if (v > 100000)
        return -1;
    *page = v;
    return 0;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if ((c | 32) >= 'a' && (c | 32) <= 'f')
        return (c | 32) - 'a' + 10;
    return -1;
}

/* RFC 3986's unreserved characters: ALPHA DIGIT - . _ ~ */
static int unreserved(unsigned char b)
{
    return (b >= '0' && b <= '9') || ((b | 32) >= 'a' && (b | 32) <= 'z') || b == '-' || b == '.' ||
           b == '_' || b == '~';
}

size_t route_unescape(char *s)
{
    char *out = s;
    int bad = 0;

    for (const char *p = s; *p; p++) {
        int hi = p[0] == '%' ? hex_digit(p[1]) : -1;
        int lo = hi >= 0 ? hex_digit(p[2]) : -1;
        unsigned char b = (unsigned char)*p;
        if (lo >= 0) {
            b = (unsigned char)(hi * 16 + lo);
            p += 2;
        }
        /* %2F is not a '/', nor %3F a '?': a reserved character sent
         * escaped is another address (RFC 3986 2.2), which is no page's.
         * Unreserved ones (%62 for 'b') are the same address (2.3). */
        bad |= b < 0x20 || b == 0x7f || (lo >= 0 && b < 0x80 && !unreserved(b));
        *out++ = (char)b;
    }
    *out = '\0';
    if (bad) {
        /* Under /api it stays there: its 404 is JSON. No longer than the
         * text: "/api/" and at least the bad byte. */
        const char *none = strncmp(s, "/api/", 5) == 0 ? "/api/\x7f" : "\x7f";
        size_t n = strlen(none);
        memcpy(s, none, n + 1);
        return n;
    }
    return (size_t)(out - s);
}

int route_paged(const struct route *r)
{
    return r->page == PAGE_STANDINGS || r->page == API_STANDINGS || r->page == PAGE_RATINGS ||
           r->page == API_RATINGS;
}

void route_key(const struct route *r, int page, char *key, size_t len)
{
    static const char *const leagues[LEAGUE_COUNT] = {
        [LEAGUE_BRONZE] = "bronze", [LEAGUE_SILVER] = "silver", [LEAGUE_GOLD] = "gold"};
    const char *rules = r->rules >= 0 ? ruleset_get((enum rules)r->rules)->name : "-";
    const char *league = r->league >= 0 ? leagues[r->league] : "-";

    if (route_paged(r))
        snprintf(key, len, "%d/%s/%s?%d", (int)r->page, rules, league, page);
    else if (r->page == PAGE_FIGHTER_NAME || r->page == API_FIGHTER_NAME)
        snprintf(key, len, "%d/%s", (int)r->page, r->name);
    else
        snprintf(key, len, "%d/%s/%lld", (int)r->page, rules, (long long)r->id);
}
