/*
 * fuzz_route.c - libFuzzer harness for what ringside-web reads from the
 * outside: the request path (route_parse), the page argument
 * (route_page_number), a whole request target "PATH?QUERY" decoded as the
 * server decodes it (route_unescape) and keyed as its cache keys it
 * (route_key), the [web] configuration (web_config_parse), and the two
 * escapes every user's text goes through (web_html, web_json).
 *
 * For every input: route_parse gives PAGE_NOT_FOUND exactly when it
 * returns -1, and a page found has one address: written back from the
 * route it is the input itself (the tournaments' list also answers with
 * a trailing slash). A page number is 1 to 100000, written as
 * it was read (no sign, no leading zero, no blank: one spelling a
 * number). A decoded target is no longer than sent, and is "\x7f" (or
 * "/api/\x7f") or holds no control byte; a page found after decoding was sent with no escape but
 * of unreserved characters; its cache key holds the page number exactly
 * when the page is paged, and is the key of its written-back address. A
 * configuration is refused with "fuzz.conf:LINE: reason", or accepted with
 * a port from 1 to 65535 and a base_url without quotes or blanks. Escaped
 * HTML holds no < > " ' and no & but an entity's; escaped JSON is one
 * string without raw control characters, < > &, or an unescaped quote.
 * Any breach aborts, which libFuzzer reports as a crash.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

/* The address of a route, written back. */
static void address(const struct route *r, char *buf, size_t len)
{
    static const char *const leagues[] = {"bronze", "silver", "gold"};
    const char *api = r->api ? "/api" : "";
    const char *rules = r->rules >= 0 ? ruleset_get((enum rules)r->rules)->name : "";

    switch (r->page) {
    case PAGE_HOME:
        snprintf(buf, len, "/");
        break;
    case API_HOME:
        snprintf(buf, len, "/api");
        break;
    case PAGE_LIVE:
    case API_LIVE:
        snprintf(buf, len, "%s/live", api);
        break;
    case PAGE_STANDINGS:
    case API_STANDINGS:
        snprintf(buf, len, "%s/standings%s%s%s%s", api, r->rules >= 0 ? "/" : "", rules,
                 r->league >= 0 ? "/" : "", r->league >= 0 ? leagues[r->league] : "");
        break;
    case PAGE_CHAMPIONS:
    case API_CHAMPIONS:
        snprintf(buf, len, "%s/champions/%s", api, rules);
        break;
    case PAGE_FIGHTER:
    case API_FIGHTER:
        snprintf(buf, len, "%s/fighters/%lld", api, (long long)r->id);
        break;
    case PAGE_BOUT:
    case API_BOUT:
        snprintf(buf, len, "%s/bouts/%lld", api, (long long)r->id);
        break;
    case PAGE_FIGHTER_NAME:
    case API_FIGHTER_NAME:
        snprintf(buf, len, "%s/fighters/%s", api, r->name);
        break;
    case PAGE_RATINGS:
    case API_RATINGS:
        snprintf(buf, len, "%s/ratings/%s", api, rules);
        break;
    case PAGE_SEASON:
    case API_SEASON:
        snprintf(buf, len, "%s/seasons/%s/%lld", api, rules, (long long)r->id);
        break;
    case PAGE_HALLOFFAME:
    case API_HALLOFFAME:
        snprintf(buf, len, "%s/halloffame", api);
        break;
    case PAGE_PUNDITS:
    case API_PUNDITS:
        snprintf(buf, len, "%s/pundits%s%s", api, r->rules >= 0 ? "/" : "", rules);
        break;
    case PAGE_TOURNAMENTS:
    case API_TOURNAMENTS:
        snprintf(buf, len, "%s/tournaments", api);
        break;
    case PAGE_TOURNAMENT:
    case API_TOURNAMENT:
        snprintf(buf, len, "%s/tournaments/%lld", api, (long long)r->id);
        break;
    default:
        snprintf(buf, len, "?");
    }
}

/* Whether `path` is the address written back: itself, but for the one
 * exception, the tournaments' list that also answers with a trailing
 * slash. */
static int same_address(const char *back, const char *path, const struct route *r)
{
    size_t n = strlen(back);

    if (strcmp(back, path) == 0)
        return 1;
    return (r->page == PAGE_TOURNAMENTS || r->page == API_TOURNAMENTS) &&
           strncmp(back, path, n) == 0 && strcmp(path + n, "/") == 0;
}

static void check_html(const char *s)
{
    for (const char *p = s; *p; p++) {
        check(*p != '<' && *p != '>' && *p != '"' && *p != '\'' && (unsigned char)*p >= 0x20);
        if (*p == '&')
            check(strncmp(p, "&amp;", 5) == 0 || strncmp(p, "&lt;", 4) == 0 ||
                  strncmp(p, "&gt;", 4) == 0 || strncmp(p, "&quot;", 6) == 0 ||
                  strncmp(p, "&#39;", 5) == 0);
    }
}

static void check_json(const char *s, size_t n)
{
    check(n >= 2 && s[0] == '"' && s[n - 1] == '"');
    for (size_t i = 1; i + 1 < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        check(ch >= 0x20 && ch != '<' && ch != '>' && ch != '&' && ch != '"');
        if (ch == '\\') {
            i++;
            check(i + 1 < n && strchr("\"\\nu", s[i]) != NULL);
        }
    }
}

/* The page number: one spelling a number. */
static void check_page_number(const char *text)
{
    int page = 0;
    char back[16];

    if (route_page_number(text, &page) != 0)
        return;
    check(page >= 1 && page <= 100000);
    snprintf(back, sizeof(back), "%d", page);
    check(strcmp(back, text) == 0);
}

/* Whether the raw target escapes nothing but unreserved characters. */
static int escapes_unreserved(const char *raw)
{
    for (const char *p = raw; (p = strchr(p, '%')) != NULL; p++) {
        char hex[3] = {p[1], p[1] ? p[2] : 0, 0};
        char *end;
        long b = strtol(hex, &end, 16);
        if (!hex[0] || !hex[1] || *end || hex[0] == '-' || hex[0] == '+' || hex[0] == ' ')
            continue; /* not an escape: stays as it is */
        if (b >= 0x80 || !((b >= '0' && b <= '9') || ((b | 32) >= 'a' && (b | 32) <= 'z') ||
                           b == '-' || b == '.' || b == '_' || b == '~'))
            return 0;
    }
    return 1;
}

/* The text as a request target "PATH?QUERY": decoded, routed and keyed as
 * the server does. */
static void check_target(const char *text)
{
    size_t n = strlen(text);
    char *path = malloc(n + 2);
    char back[ROUTE_PATH_MAX + 64], key[WEB_KEY_MAX], again[WEB_KEY_MAX];
    struct route r, r2;

    memcpy(path, text, n + 1);
    char *query = strchr(path, '?');
    if (query)
        *query++ = '\0';
    size_t raw = strlen(path);
    char *rawpath = malloc(raw + 1);
    memcpy(rawpath, path, raw + 1);
    size_t len = route_unescape(path);
    check(len == strlen(path) && len <= raw);
    if (strcmp(path, "\x7f") != 0 && strcmp(path, "/api/\x7f") != 0)
        for (const char *p = path; *p; p++)
            check((unsigned char)*p >= 0x20 && *p != 0x7f);
    if (route_parse(path, &r) == 0) {
        check(escapes_unreserved(rawpath));
        address(&r, back, sizeof(back));
        check(same_address(back, path, &r));
        /* The page argument: the query's first page=, decoded. */
        const char *arg = query ? strstr(query, "page=") : NULL;
        char *value = arg ? malloc(strlen(arg)) : NULL;
        int page = 1;
        if (value) {
            memcpy(value, arg + 5, strlen(arg + 5) + 1);
            value[strcspn(value, "&")] = '\0';
            route_unescape(value);
        }
        int ok = route_page_number(value, &page) == 0;
        route_key(&r, ok ? page : 1, key, sizeof(key));
        check(route_parse(back, &r2) == 0);
        route_key(&r2, ok ? page : 1, again, sizeof(again));
        check(strcmp(key, again) == 0);
        /* The page number is in the key of the standings, of no other. */
        route_key(&r, 1, key, sizeof(key));
        route_key(&r, 2, again, sizeof(again));
        check((strcmp(key, again) != 0) == route_paged(&r));
        free(value);
    }
    free(rawpath);
    free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    struct route r;
    char back[ROUTE_PATH_MAX + 64], err[WEB_ERR_MAX + 64];

    memcpy(text, data, size);
    text[size] = '\0';

    int rc = route_parse(text, &r);
    check((rc == 0) == (r.page != PAGE_NOT_FOUND));
    check(strlen(r.root) < sizeof(r.root));
    if (rc == 0) {
        address(&r, back, sizeof(back));
        check(same_address(back, text, &r));
    }

    check_page_number(text);
    check_target(text);

    struct web_config c;
    memset(&c, 0x5a, sizeof(c));
    if (web_config_parse("fuzz.conf", text, &c, err, sizeof(err)) == 0) {
        check(c.port >= 1 && c.port <= 65535);
        check(strnlen(c.base_url, sizeof(c.base_url)) < sizeof(c.base_url));
        check(strpbrk(c.base_url, " \"'<>") == NULL);
        check(c.database[0] != '\0');
        check(c.threads >= 1 && c.threads <= WEB_THREADS_MAX);
    } else {
        check(strncmp(err, "fuzz.conf:", 10) == 0);
        for (const unsigned char *p = (const unsigned char *)&c;
             p < (const unsigned char *)(&c + 1); p++)
            check(*p == 0x5a);
    }

    struct str b;
    str_init(&b);
    web_html(&b, text);
    char *h = str_take(&b, NULL);
    check_html(h);
    free(h);
    size_t n;
    web_json(&b, text);
    char *j = str_take(&b, &n);
    check_json(j, n);
    free(j);
    free(text);
    return 0;
}
