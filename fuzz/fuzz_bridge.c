/*
 * fuzz_bridge.c - libFuzzer harness for how a relay's lines are read
 * (bot/bridge.c): the input is a relay_format and a line, split at the
 * first NUL (no NUL: the default pattern "<nick> text" and the whole input
 * as the line).
 *
 * For every input: a pattern bridge_format_check refuses has a reason
 * saying how it should look; a line read with an accepted pattern gives a
 * name that is not empty, fits its buffer, and holds no blank, no control
 * byte and no zero-width character, and a text that is a non-empty tail of
 * the line not starting with a blank. Any breach aborts, which libFuzzer
 * reports as a crash.
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

static void read_line(const char *fmt, const char *line)
{
    char nick[CONFIG_NICK_MAX];
    const char *text = NULL;

    if (!bridge_parse(fmt, line, nick, sizeof(nick), &text))
        return;
    size_t n = strlen(nick);
    check(n > 0 && n < sizeof(nick));
    for (size_t i = 0; i < n; i++)
        check((unsigned char)nick[i] >= 0x20 && nick[i] != ' ' && nick[i] != 0x7f);
    check(strstr(nick, "\xe2\x80\x8b") == NULL && strstr(nick, "\xef\xbb\xbf") == NULL);
    check(text >= line && text < line + strlen(line) && *text && *text != ' ');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    char err[CONFIG_ERR_MAX];

    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    size_t first = strlen(buf);
    if (first == size) {
        read_line("<nick> text", buf);
    } else if (bridge_format_check(buf, err, sizeof(err)) == 0) {
        read_line(buf, buf + first + 1);
    } else {
        check(strstr(err, "\"<nick> text\"") != NULL);
    }
    free(buf);
    return 0;
}
