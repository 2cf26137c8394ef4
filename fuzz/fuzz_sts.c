/*
 * fuzz_sts.c - libFuzzer harness for the sts capability's value (bot/sts.c):
 * the input is the value as a server would offer it ("port=6697,
 * duration=300,preload").
 *
 * For every input: sts_parse either refuses it with a reason naming the
 * key at fault, or gives a port from 0 (none) to 65535 and a duration from
 * -1 (none) to ten years; parsing it again gives the same. Any breach
 * aborts, which libFuzzer reports as a crash.
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    char err[160];
    struct sts_policy p, again;

    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    if (sts_parse(buf, &p, err, sizeof(err)) != 0) {
        check(strstr(err, "port=") == err || strstr(err, "duration=") == err);
        check(strstr(err, " is no ") != NULL);
    } else {
        check(err[0] == '\0');
        check(p.port >= 0 && p.port <= 65535);
        check(p.duration >= -1 && p.duration <= 315360000L);
        check(p.preload == 0 || p.preload == 1);
        check(sts_parse(buf, &again, err, sizeof(err)) == 0);
        check(again.port == p.port && again.duration == p.duration);
    }
    free(buf);
    return 0;
}
