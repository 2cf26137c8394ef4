/*
 * ircline_tool.c - bot/ircline.c's parser on the command line, for
 * tests/ircline_test.py (the public parser test vectors).
 *
 *   ircline-tool msg     one IRC line per stdin line -> one JSON object each:
 *                        {"tags":{...},"source":..,"verb":..,"params":[..]}
 *   ircline-tool source  one nick!user@host per line -> {"nick","user","host"}
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

int main(int argc, char **argv)
{
    char line[8192];
    int source = argc > 1 && strcmp(argv[1], "source") == 0;

    while (fgets(line, sizeof(line), stdin)) {
        line[strcspn(line, "\n")] = '\0';
        if (source)
            one_source(line);
        else
            one_msg(line);
    }
    return 0;
}
