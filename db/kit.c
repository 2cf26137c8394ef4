/*
 * kit.c - a sheet's equipment as stored: the pieces a fighter carries, as
 * one text of slot=item:condition words ("weapon=longsword:1000000
 * torso=leather:985000"), in the order of the ruleset's slots, empty slots
 * left out; "" for none, and for a ruleset without equipment. Names are the
 * engine's (struct ruleset's kit_slot_name and kit_item_name), so the text
 * reads the same whatever the engine's numbering.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"
#include "util.h"

void db_kit_store(const struct sheet *s, char *buf, size_t len)
{
    const struct ruleset *rs = ruleset_get(s->rules);
    struct str t;

    str_init_fixed(&t, buf, len);
    for (int k = 0; rs && k < rs->kit_slots; k++) {
        int item, cond;

        sheet_kit_get(s, k, &item, &cond);
        if (item == 0)
            continue;
        str_add(&t, "%s%s=%s:%d", t.len ? " " : "", rs->kit_slot_name(k),
                rs->kit_item_name(k, item), cond);
    }
}

/* The index of the slot named by the n bytes at p, or -1. */
static int slot_find(const struct ruleset *rs, const char *p, size_t n)
{
    for (int k = 0; k < rs->kit_slots; k++) {
        const char *name = rs->kit_slot_name(k);
        if (strlen(name) == n && memcmp(name, p, n) == 0)
            return k;
    }
    return -1;
}

/* The code of the item of slot k named by the n bytes at p (never 0), or
 * -1. */
static int item_find(const struct ruleset *rs, int k, const char *p, size_t n)
{
    const char *name;

    for (int i = 1; (name = rs->kit_item_name(k, i)) != NULL; i++)
        if (strlen(name) == n && memcmp(name, p, n) == 0)
            return i;
    return -1;
}

int db_kit_load(const char *text, struct sheet *s)
{
    const struct ruleset *rs = ruleset_get(s->rules);
    const char *p = text;

    if (!rs)
        return -1;
    for (int k = 0; k < rs->kit_slots; k++)
        sheet_kit_set(s, k, 0, 0);
    while (*p) {
        const char *eq = strchr(p, '='), *colon = eq ? strchr(eq, ':') : NULL;
        const char *end = strchr(p, ' ');

        if (!end)
            end = p + strlen(p);
        if (!eq || !colon || eq > end || colon > end || rs->kit_slots == 0)
            return -1;
        int k = slot_find(rs, p, (size_t)(eq - p));
        int item = k < 0 ? -1 : item_find(rs, k, eq + 1, (size_t)(colon - eq - 1));
        char *stop;
        long cond = strtol(colon + 1, &stop, 10);
        if (k < 0 || item < 0 || stop != end || colon + 1 == end || cond < 1 ||
            cond > rs->kit_cond_max)
            return -1;
        int had, c;
        sheet_kit_get(s, k, &had, &c);
        if (had)
            return -1;
        sheet_kit_set(s, k, item, (int)cond);
        p = *end ? end + 1 : end;
    }
    return 0;
}
