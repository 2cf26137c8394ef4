/*
 * bot.c - small services every bot module shares: the clock, saying
 * something, channel numbers and database keys of names.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "bot.h"

double bot_clock(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int bot_chan_find(const struct bot *bot, const char *name)
{
    for (int c = 0; c < USERS_CHANNELS; c++)
        if (bot->chan[c][0] && irc_casecmp(bot->cm, bot->chan[c], name) == 0)
            return c;
    return -1;
}

void bot_name_key(char *dst, const char *name, size_t len)
{
    irc_casefold(CASEMAP_RFC1459, dst, name, len);
}

uint64_t bot_seed(void)
{
    uint64_t seed = 0;
    int fd = open("/dev/urandom", O_RDONLY);

    if (fd >= 0) {
        if (read(fd, &seed, sizeof(seed)) != (ssize_t)sizeof(seed))
            seed = 0;
        close(fd);
    }
    if (seed == 0) {
        /* No /dev/urandom: the clock and the pid, mixed. */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)ts.tv_sec ^
               (uint64_t)getpid() << 32;
    }
    return seed;
}
