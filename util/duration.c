/*
 * duration.c - text_duration (util.h): "1h30m" to seconds, for the
 * configuration files of every front door.
 */
#include "util.h"

int text_duration(const char *s, long *out)
{
    const long limit = 366L * 86400;
    long total = 0;

    while (*s) {
        long v = 0, unit = 1;
        if (*s < '0' || *s > '9')
            return -1;
        for (; *s >= '0' && *s <= '9'; s++) {
            v = v * 10 + (*s - '0');
            if (v > limit)
                return -1;
        }
        switch (*s) {
        case 'd':
        case 'D':
            unit = 86400;
            break;
        case 'h':
        case 'H':
            unit = 3600;
            break;
        case 'm':
        case 'M':
            unit = 60;
            break;
        case 's':
        case 'S':
        case '\0':
            break;
        default:
            return -1;
        }
        if (*s)
            s++;
        total += v * unit;
        if (total > limit)
            return -1;
    }
    *out = total;
    return 0;
}
