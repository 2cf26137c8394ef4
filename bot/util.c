/*
 * util.c - the allocation wrappers of the bot.
 *
 * Out of memory is not an error the bot can recover from: it is reported
 * once on stderr and the process aborts, so no caller ever sees NULL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"

static void oom(void)
{
    fputs("ringside: out of memory\n", stderr);
    abort();
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);

    if (!p)
        oom();
    return p;
}

void *xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);

    if (!p)
        oom();
    return p;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;

    return memcpy(xmalloc(n), s, n);
}
