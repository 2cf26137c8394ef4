/*
 * fuzz_route.c - libFuzzer harness for what ringside-web reads from the
 * outside: the request path (route_parse), the page argument
 * (route_page_number), the [web] configuration (web_config_parse), and the
 * two escapes every user's text goes through (web_html, web_json).
 *
 * For every input: route_parse gives PAGE_NOT_FOUND exactly when it
 * returns -1, and a page found has one address: written back from the
 * route it is the input itself. A page number is 1 to 100000. A
 * configuration is refused with "fuzz.conf:LINE: reason", or accepted with
 * a port from 1 to 65535 and a base_url without quotes or blanks. Escaped
 * HTML holds no < > " ' and no & but an entity's; escaped JSON is one
 * string without raw control characters, < > &, or an unescaped quote.
 * Any breach aborts, which libFuzzer reports as a crash.
 */
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
    const char *api = r->page >= API_LIVE ? "/api" : "";
    const char *rules = r->rules >= 0 ? ruleset_get((enum rules)r->rules)->name : "";

    switch (r->page) {
    case PAGE_HOME:
        snprintf(buf, len, "/");
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
        snprintf(buf, len, "/champions/%s", rules);
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
    default:
        snprintf(buf, len, "?");
    }
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
        check(strcmp(back, text) == 0);
    }

    int page = 0;
    if (route_page_number(text, &page) == 0)
        check(page >= 1 && page <= 100000);

    struct web_config c;
    memset(&c, 0x5a, sizeof(c));
    if (web_config_parse("fuzz.conf", text, &c, err, sizeof(err)) == 0) {
        check(c.port >= 1 && c.port <= 65535);
        check(strnlen(c.base_url, sizeof(c.base_url)) < sizeof(c.base_url));
        check(strpbrk(c.base_url, " \"'<>") == NULL);
        check(c.database[0] != '\0');
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
