/*
 * fuzz_ircline.c - libFuzzer harness for bot/ircline.c, the parser of every
 * line the server sends (conn.c reads them before libircclient).
 *
 * For every input line: irc_msg_parse returns 0 or -1; on 0 the verb is
 * non-empty, every part points inside the line, no parameter but the last
 * holds a space, and nothing holds CR or LF; every tag can be read with its
 * value cut to the buffer; the untagged line is a suffix of the input; a
 * source splits into parts no longer than asked. Any breach aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

static void check_inside(const char *p, const char *line, size_t len)
{
    check(p >= line && p <= line + len);
    check(!strpbrk(p, "\r\n"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *line = malloc(size + 1);
    char *copy = malloc(size + 1);
    struct irc_msg m;

    memcpy(line, data, size);
    line[size] = '\0';
    size_t len = strlen(line);
    memcpy(copy, line, len + 1);
    const char *plain = irc_msg_untagged(copy);
    check(plain >= copy && plain <= copy + len);
    if (irc_msg_parse(line, &m) == 0) {
        check(m.verb && m.verb[0]);
        check_inside(m.verb, line, len);
        check(!strchr(m.verb, ' '));
        check(m.nparams >= 0 && m.nparams <= IRC_MSG_PARAMS);
        for (int i = 0; i < m.nparams; i++) {
            check_inside(m.params[i], line, len);
            if (i + 1 < m.nparams)
                check(!strchr(m.params[i], ' ') && m.params[i][0]);
        }
        if (m.source) {
            char nick[16], user[16], host[16];
            check_inside(m.source, line, len);
            irc_source_split(m.source, nick, user, host, sizeof(nick));
            check(strlen(nick) < 16 && strlen(user) < 16 && strlen(host) < 16);
        }
        if (m.tags) {
            char key[8], val[8];
            const char *pos = m.tags;
            int n = 0;
            check_inside(m.tags, line, len);
            while (irc_msg_tag_next(&pos, key, sizeof(key), val, sizeof(val))) {
                check(strlen(key) < sizeof(key) && strlen(val) < sizeof(val));
                check(++n <= (int)len);
            }
        }
    }
    free(line);
    free(copy);
    return 0;
}
