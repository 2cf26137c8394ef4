/*
 * live.c - the table of challenges and live bouts in memory, and its
 * indexes.
 *
 * g->v[0..n-1] holds them in the order they were added, a removal moving
 * the last one into the gap (what the replies that list a player's bouts
 * follow, as they always did). The table grows as needed, up to
 * BOUTS_MAX. Three hash indexes find a bout without walking the table: by
 * bout id, by fighter id and by account (each side's player), so a
 * command costs the same with ten bouts or ten thousand.
 *
 * The indexes are multimaps of (key, bout) pairs in open addressing with
 * linear probing, at most half full; a removal shifts the pairs behind it
 * back (no tombstones). A bout's keys are remembered when it is added, so
 * it leaves the indexes exactly as it entered them.
 */
#include <stdlib.h>
#include <string.h>

#include "game_internal.h"

#define LIVE_MAP_MIN   64 /* slots of an index at first */
#define LIVE_TABLE_MIN 64 /* bouts the table holds at first */
#define LIVE_LOCAL     64 /* an account's bouts gathered without an allocation */

/* ------------------------------------------------------------ indexes */

static size_t map_home(int64_t key, size_t cap)
{
    uint64_t x = (uint64_t)key;

    /* splitmix64's finaliser: ids are consecutive, the slots must not be */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebu;
    x ^= x >> 31;
    return (size_t)x & (cap - 1);
}

static void map_put(struct live_map *m, int64_t key, struct live *lv);

static void map_grow(struct live_map *m)
{
    struct live_map old = *m;

    m->cap = old.cap ? old.cap * 2 : LIVE_MAP_MIN;
    m->n = 0;
    m->e = xcalloc(m->cap, sizeof(*m->e));
    for (size_t i = 0; i < old.cap; i++)
        if (old.e[i].lv)
            map_put(m, old.e[i].key, old.e[i].lv);
    free(old.e);
}

static void map_put(struct live_map *m, int64_t key, struct live *lv)
{
    if ((m->n + 1) * 2 > m->cap)
        map_grow(m);
    size_t i = map_home(key, m->cap);
    while (m->e[i].lv)
        i = (i + 1) & (m->cap - 1);
    m->e[i].key = key;
    m->e[i].lv = lv;
    m->n++;
}

/* 1 if slot j's pair, whose home is h, may move back into the gap at i:
 * its home is not in the cyclic range (i, j]. */
static int map_movable(size_t i, size_t j, size_t h)
{
    if (i <= j)
        return h <= i || h > j;
    return h <= i && h > j;
}

/* Removes the pair (key, lv); nothing when it is not there. */
static void map_del(struct live_map *m, int64_t key, const struct live *lv)
{
    size_t mask = m->cap - 1, i;

    if (!m->cap)
        return;
    for (i = map_home(key, m->cap); m->e[i].lv; i = (i + 1) & mask)
        if (m->e[i].key == key && m->e[i].lv == lv)
            break;
    if (!m->e[i].lv)
        return;
    for (size_t j = (i + 1) & mask; m->e[j].lv; j = (j + 1) & mask)
        if (map_movable(i, j, map_home(m->e[j].key, m->cap))) {
            m->e[i] = m->e[j];
            i = j;
        }
    m->e[i].lv = NULL;
    m->n--;
}

/* The bout of the first pair with `key`, or NULL. */
static struct live *map_first(const struct live_map *m, int64_t key)
{
    if (!m->cap)
        return NULL;
    for (size_t i = map_home(key, m->cap); m->e[i].lv; i = (i + 1) & (m->cap - 1))
        if (m->e[i].key == key)
            return m->e[i].lv;
    return NULL;
}

/* ------------------------------------------------------------ the table */

static void index_add(struct game *g, struct live *lv)
{
    map_put(&g->by_id, lv->rec.id, lv);
    for (int s = 0; s < SIDES; s++) {
        lv->keyed_fighter[s] = lv->rec.fighter[s];
        lv->keyed_account[s] = lv->f[s].account_id;
        map_put(&g->by_fighter, lv->keyed_fighter[s], lv);
        map_put(&g->by_account, lv->keyed_account[s], lv);
    }
    lv->keyed_id = lv->rec.id;
}

static void index_del(struct game *g, const struct live *lv)
{
    map_del(&g->by_id, lv->keyed_id, lv);
    for (int s = 0; s < SIDES; s++) {
        map_del(&g->by_fighter, lv->keyed_fighter[s], lv);
        map_del(&g->by_account, lv->keyed_account[s], lv);
    }
}

int live_table_add(struct game *g, struct live *lv)
{
    if (g->n >= BOUTS_MAX)
        return -1;
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : LIVE_TABLE_MIN;
        if (g->cap > BOUTS_MAX)
            g->cap = BOUTS_MAX;
        g->v = xrealloc(g->v, (size_t)g->cap * sizeof(*g->v));
    }
    lv->slot = g->n;
    g->v[g->n++] = lv;
    index_add(g, lv);
    return 0;
}

void live_table_remove(struct game *g, struct live *lv)
{
    int i = lv->slot;

    if (i < 0 || i >= g->n || g->v[i] != lv)
        return;
    index_del(g, lv);
    g->v[i] = g->v[--g->n];
    g->v[i]->slot = i;
    lv->slot = -1;
}

void live_table_free(struct game *g)
{
    for (int i = 0; i < g->n; i++)
        free(g->v[i]);
    free(g->v);
    free(g->by_id.e);
    free(g->by_fighter.e);
    free(g->by_account.e);
    g->v = NULL;
    g->n = g->cap = 0;
    memset(&g->by_id, 0, sizeof(g->by_id));
    memset(&g->by_fighter, 0, sizeof(g->by_fighter));
    memset(&g->by_account, 0, sizeof(g->by_account));
}

struct live *live_by_id(const struct game *g, int64_t id)
{
    return map_first(&g->by_id, id);
}

struct live *live_by_fighter(const struct game *g, int64_t fighter)
{
    struct live *lv = map_first(&g->by_fighter, fighter);

    if (!lv)
        return NULL;
    /* A fighter is in one bout at a time; should he be in more, the first
     * in the table's order answers, as the walk through it did. */
    const struct live_map *m = &g->by_fighter;
    for (size_t i = map_home(fighter, m->cap); m->e[i].lv; i = (i + 1) & (m->cap - 1))
        if (m->e[i].key == fighter && m->e[i].lv->slot < lv->slot)
            lv = m->e[i].lv;
    return lv;
}

static int by_slot(const void *a, const void *b)
{
    const struct live *x = *(struct live *const *)a, *y = *(struct live *const *)b;

    return (x->slot > y->slot) - (x->slot < y->slot);
}

int live_by_account(const struct game *g, int64_t account, struct live **out, int max)
{
    const struct live_map *m = &g->by_account;
    struct live *local[LIVE_LOCAL], **all = local;
    int n = 0, cap = LIVE_LOCAL;

    if (!m->cap)
        return 0;
    for (size_t i = map_home(account, m->cap); m->e[i].lv; i = (i + 1) & (m->cap - 1)) {
        if (m->e[i].key != account)
            continue;
        if (n == cap) {
            cap *= 2;
            all = all == local ? memcpy(xmalloc((size_t)cap * sizeof(*all)), local, sizeof(local))
                               : xrealloc(all, (size_t)cap * sizeof(*all));
        }
        all[n++] = m->e[i].lv;
    }
    qsort(all, (size_t)n, sizeof(*all), by_slot);
    int k = 0; /* both sides his: the bout once */
    for (int i = 0; i < n; i++)
        if (i == 0 || all[i] != all[i - 1]) {
            if (k < max)
                out[k] = all[i];
            k++;
        }
    if (all != local)
        free(all);
    return k;
}
