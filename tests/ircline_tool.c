/*
 * ircline_tool.c - bot/ircline.c's parser on the command line, for
 * tests/ircline_test.py (the public parser test vectors).
 *
 *   ircline-tool msg     one IRC line per stdin line -> one JSON object each:
 *                        {"tags":{...},"source":..,"verb":..,"params":[..]}
 *   ircline-tool source  one nick!user@host per line -> {"nick","user","host"}
 *   ircline-tool time    one server-time value per line -> seconds, or null
 *   ircline-tool std     one line -> {"kind","command","code","context","description"}
 *                        (a standard reply: FAIL/WARN/NOTE), or null
 *   ircline-tool batch   one line -> {"open","ref","type"} (a BATCH line), or null
 *
 * Strings are written as JSON with every byte outside printable ASCII as
 * \u00XX (the vectors are ASCII), so the comparison is exact.
 */
#include <stdio.h>
#include <string.h>

#include "bot.h"

static void json_str(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7f)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

static void one_msg(char *line)
{
    struct irc_msg m;
    char key[128], val[IRC_TAG_VALUE_MAX];

    if (irc_msg_parse(line, &m) != 0) {
        puts("null");
        return;
    }
    printf("{\"tags\":");
    if (m.tags) {
        const char *pos = m.tags;
        int first = 1;
        putchar('{');
        while (irc_msg_tag_next(&pos, key, sizeof(key), val, sizeof(val))) {
            /* The last of duplicate keys wins: irc_msg_tag says which. */
            irc_msg_tag(&m, key, val, sizeof(val));
            printf("%s", first ? "" : ",");
            json_str(key);
            putchar(':');
            json_str(val);
            first = 0;
        }
        putchar('}');
    } else {
        printf("null");
    }
    printf(",\"source\":");
    if (m.source)
        json_str(m.source);
    else
        printf("null");
    printf(",\"verb\":");
    json_str(m.verb);
    printf(",\"params\":[");
    for (int i = 0; i < m.nparams; i++) {
        printf("%s", i ? "," : "");
        json_str(m.params[i]);
    }
    puts("]}");
}

static void one_source(const char *line)
{
    char nick[256], user[256], host[256];

    irc_source_split(line, nick, user, host, sizeof(nick));
    printf("{\"nick\":");
    json_str(nick);
    printf(",\"user\":");
    json_str(user);
    printf(",\"host\":");
    json_str(host);
    puts("}");
}

/* `time`: a server-time value -> seconds since the epoch, or null. */
static void one_time(const char *line)
{
    double t;

    if (irc_time_parse(line, &t) == 0)
        printf("%.3f\n", t);
    else
        puts("null");
}

/* `std`: a line -> its standard reply, or null. */
static void one_std(char *line)
{
    struct irc_msg m;
    struct irc_std r;

    if (irc_msg_parse(line, &m) != 0 || !irc_std_reply(&m, &r)) {
        puts("null");
        return;
    }
    printf("{\"kind\":");
    json_str(r.kind);
    printf(",\"command\":");
    json_str(r.command);
    printf(",\"code\":");
    json_str(r.code);
    printf(",\"context\":[");
    for (int i = 0; i < r.ncontext; i++) {
        printf("%s", i ? "," : "");
        json_str(r.context[i]);
    }
    printf("],\"description\":");
    json_str(r.description);
    puts("}");
}

/* `batch`: a line -> its BATCH parts, or null. */
static void one_batch(char *line)
{
    struct irc_msg m;
    struct irc_batch b;

    if (irc_msg_parse(line, &m) != 0 || !irc_batch_parse(&m, &b)) {
        puts("null");
        return;
    }
    printf("{\"open\":%s,\"ref\":", b.open ? "true" : "false");
    json_str(b.ref);
    printf(",\"type\":");
    if (b.type)
        json_str(b.type);
    else
        printf("null");
    puts("}");
}

/* `multiline`: a draft/multiline value -> its limits, or null. */
static void one_multiline(char *line)
{
    struct multiline m;
    char err[160];

    if (multiline_limits(line, &m, err, sizeof(err)) != 0) {
        puts("null");
        return;
    }
    printf("{\"max_bytes\":%zu,\"max_lines\":%d}\n", m.max_bytes, m.max_lines);
}

/* `sts`: an sts value -> its policy (port 0, duration -1: not given), or
 * null. */
static void one_sts(char *line)
{
    struct sts_policy p;
    char err[160];

    if (sts_parse(line, &p, err, sizeof(err)) != 0) {
        puts("null");
        return;
    }
    printf("{\"port\":%d,\"duration\":%ld,\"preload\":%s}\n", p.port, p.duration,
           p.preload ? "true" : "false");
}

int main(int argc, char **argv)
{
    char line[8192];
    const char *mode = argc > 1 ? argv[1] : "msg";

    while (fgets(line, sizeof(line), stdin)) {
        line[strcspn(line, "\n")] = '\0';
        if (strcmp(mode, "source") == 0)
            one_source(line);
        else if (strcmp(mode, "time") == 0)
            one_time(line);
        else if (strcmp(mode, "std") == 0)
            one_std(line);
        else if (strcmp(mode, "batch") == 0)
            one_batch(line);
        else if (strcmp(mode, "multiline") == 0)
            one_multiline(line);
        else if (strcmp(mode, "sts") == 0)
            one_sts(line);
        else
            one_msg(line);
    }
    return 0;
}
