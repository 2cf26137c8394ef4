/*
 * data.c - what the pages read, and the caches: the answers already given,
 * and the standings.
 *
 * Every page is read in one read transaction (web_begin .. web_end), so
 * it shows the file as of one moment while the bot writes it. PRAGMA
 * data_version tells at the start of each request (web_check, a few
 * microseconds) whether the file changed since the caches were filled
 * (on PostgreSQL, the transactions ended as of a snapshot: any commit on
 * the server, so every web process's caches follow every bot's writes).
 *
 * The answers already given are kept by what changes them (route_key: the
 * page, and the page number of the standings), so that a page asked for
 * again before anything changed is sent as it was (a page is a function of
 * the file and its address; other query arguments change nothing and
 * share the entry); they are all dropped when the file changes. Past
 * WEB_KEEP_MAX / 2 answers or the worker's share of WEB_KEEP_BYTES,
 * everything is dropped and kept afresh.
 *
 * Each of the server's worker threads has its own struct web: its own
 * connection, its own answers kept and its own standings, each following
 * the file by itself (none is ever read or written by another thread).
 *
 * The standings are kept across changes: every fighter read, by id, and
 * each league's list in standings order (league_standing_cmp). The bot's
 * writes stamp each fighter whose row they change (migration 17), so when
 * the file changed the next standings asked for read only the fighters
 * stamped since the last look, and the champions, and move those in their
 * lists (a binary search out, one in): microseconds for a bout's result
 * among 10,000 fighters, where reading and sorting them all takes tens of
 * milliseconds. Past WEB_RESORT_MIN changed at once (the first look reads
 * every fighter), the lists are made again and sorted. Each fighter's
 * rating is kept with him, read again alike when its stamp moved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "web.h"

struct web_body *web_body_take(struct web_body *b)
{
    b->refs++;
    return b;
}

void web_body_drop(struct web_body *b)
{
    if (b && --b->refs == 0) {
        free(b->p);
        free(b);
    }
}

void web_forget(struct web *w)
{
    for (int i = 0; i < WEB_KEEP_MAX && w->nkept; i++)
        if (w->kept[i].key[0]) {
            web_body_drop(w->kept[i].body);
            memset(&w->kept[i], 0, sizeof(w->kept[i]));
            w->nkept--;
        }
    w->kept_bytes = 0;
}

/* Drops the standings: read afresh at the next look. */
static void standings_drop(struct web *w)
{
    for (int r = 0; r < RULES_COUNT; r++)
        for (int l = 0; l < LEAGUE_COUNT; l++) {
            free(w->standings[r][l].v);
            memset(&w->standings[r][l], 0, sizeof(w->standings[r][l]));
        }
    for (int64_t i = 0; i < w->nid; i++)
        free(w->by_id[i]);
    free(w->by_id);
    w->by_id = NULL;
    w->nid = 0;
    w->loaded = 0;
    w->stamp = 0;
    w->rating_stamp = 0;
    memset(w->champ, 0, sizeof(w->champ));
}

void web_free(struct web *w)
{
    web_forget(w);
    standings_drop(w);
}

int web_check(struct web *w)
{
    long long v = db_data_version(w->db);

    if (v < 0)
        return -1;
    if (v != w->version) {
        web_forget(w);
        w->stale = 1;
        w->version = v;
    }
    return 0;
}

int web_begin(struct web *w)
{
    return db_read_begin(w->db) == DB_OK ? 0 : -1;
}

/* FNV-1a of a key: its first slot. */
static unsigned slot_of(const char *key)
{
    uint32_t h = 2166136261u;

    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h & (WEB_KEEP_MAX - 1);
}

const struct web_kept *web_kept_find(const struct web *w, const char *key)
{
    for (unsigned i = slot_of(key), k = 0; k < WEB_KEEP_MAX;
         k++, i = (i + 1) & (WEB_KEEP_MAX - 1)) {
        if (!w->kept[i].key[0])
            return NULL;
        if (strcmp(w->kept[i].key, key) == 0)
            return &w->kept[i];
    }
    return NULL;
}

void web_keep(struct web *w, const char *key, struct reply *out)
{
    size_t len = out->len;

    if (out->shared || strlen(key) >= WEB_KEY_MAX || web_kept_find(w, key))
        return;
    /* Half full at most, so that a search ends soon; past that, start
     * afresh (the answers come back as they are asked for). */
    size_t most = w->keep_bytes_max ? w->keep_bytes_max : WEB_KEEP_BYTES;
    /* Too big to keep: past an eighth of what the whole server keeps (as
     * with one thread, whatever the threads share it among), or past half
     * of this thread's share. */
    if (len > WEB_KEEP_BYTES / 8 || len > most / 2)
        return;
    if (w->nkept >= WEB_KEEP_MAX / 2 || w->kept_bytes + len > most)
        web_forget(w);
    unsigned i = slot_of(key);
    while (w->kept[i].key[0])
        i = (i + 1) & (WEB_KEEP_MAX - 1);
    struct web_kept *k = &w->kept[i];
    snprintf(k->key, sizeof(k->key), "%s", key);
    /* The reply's own text becomes the shared one: the kept answer and
     * the reply being sent are its two users. */
    struct web_body *b = xmalloc(sizeof(*b));
    b->p = out->body;
    b->refs = 1;
    out->shared = web_body_take(b);
    k->body = b;
    k->len = len;
    k->type = out->type;
    k->refresh = out->refresh;
    w->nkept++;
    w->kept_bytes += len;
}

void web_end(struct web *w)
{
    db_read_end(w->db);
}

/* The list fighter x belongs in (active, not his ruleset's champion), or
 * NULL. */
static struct web_standings *list_of(struct web *w, const struct web_fighter *x)
{
    const struct db_fighter *f = &x->f;

    if (f->retired || f->id == w->champ[f->sheet.rules] ||
        (unsigned)f->sheet.rules >= RULES_COUNT || f->league < 0 || f->league >= LEAGUE_COUNT)
        return NULL;
    return &w->standings[f->sheet.rules][f->league];
}

/* Where x stands, or would stand, in list s: the first place whose fighter
 * ranks at or below him. */
static int list_place(const struct web_standings *s, const struct web_fighter *x)
{
    int lo = 0, hi = s->n;

    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (league_standing_cmp(&s->v[mid]->f, &x->f) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void list_append(struct web_standings *s, struct web_fighter *x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->v = xrealloc(s->v, (size_t)s->cap * sizeof(*s->v));
    }
    s->v[s->n++] = x;
}

/* Takes x out of his list (sorted by the row he was listed with). */
static void list_remove(struct web *w, struct web_fighter *x)
{
    struct web_standings *s = list_of(w, x);

    if (!x->listed || !s)
        return;
    int i = list_place(s, x);
    if (i < s->n && s->v[i] == x) {
        memmove(&s->v[i], &s->v[i + 1], (size_t)(s->n - i - 1) * sizeof(*s->v));
        s->n--;
    }
    x->listed = 0;
}

/* Puts x in his list at his place. */
static void list_insert(struct web *w, struct web_fighter *x)
{
    struct web_standings *s = list_of(w, x);

    if (!s)
        return;
    list_append(s, x); /* room for one more */
    int i = list_place(s, x);
    if (i < s->n - 1) {
        memmove(&s->v[i + 1], &s->v[i], (size_t)(s->n - 1 - i) * sizeof(*s->v));
        s->v[i] = x;
    }
    x->listed = 1;
}

static int cmp_listed(const void *pa, const void *pb)
{
    const struct web_fighter *const *a = pa, *const *b = pb;
    return league_standing_cmp(&(*a)->f, &(*b)->f);
}

/* Makes every list again from the fighters kept, sorted. */
static void lists_make(struct web *w)
{
    for (int r = 0; r < RULES_COUNT; r++)
        for (int l = 0; l < LEAGUE_COUNT; l++)
            w->standings[r][l].n = 0;
    for (int64_t i = 0; i < w->nid; i++) {
        struct web_fighter *x = w->by_id[i];
        struct web_standings *s = x ? list_of(w, x) : NULL;
        if (x)
            x->listed = s != NULL;
        if (s)
            list_append(s, x);
    }
    for (int r = 0; r < RULES_COUNT; r++)
        for (int l = 0; l < LEAGUE_COUNT; l++) {
            struct web_standings *s = &w->standings[r][l];
            if (s->n > 1)
                qsort(s->v, (size_t)s->n, sizeof(*s->v), cmp_listed);
        }
}

/* The fighter kept for id, made (unlisted) when there is none. */
static struct web_fighter *fighter_slot(struct web *w, int64_t id)
{
    if (id >= w->nid) {
        int64_t n = w->nid ? w->nid : 1024;
        while (n <= id)
            n *= 2;
        w->by_id = xrealloc(w->by_id, (size_t)n * sizeof(*w->by_id));
        memset(w->by_id + w->nid, 0, (size_t)(n - w->nid) * sizeof(*w->by_id));
        w->nid = n;
    }
    if (!w->by_id[id])
        w->by_id[id] = xcalloc(1, sizeof(*w->by_id[id]));
    return w->by_id[id];
}

/* What a sync read: the fighters changed, to be put in place. */
struct sync {
    struct web *w;
    int failed;
    struct web_fighter **moved;
    int n, cap;
};

/* db_fighter_changed's fn: one changed fighter. */
static void sync_fighter(void *ctx, const struct db_fighter *f)
{
    struct sync *sy = ctx;
    struct web *w = sy->w;

    if (f->id < 1 || sy->failed)
        return;
    struct web_fighter *x = fighter_slot(w, f->id);
    /* Out of his list by the row he was listed with, while it is his. */
    list_remove(w, x);
    if (x->f.id != f->id || x->f.sheet.rules != f->sheet.rules) /* new to us */
        x->rating = (struct db_rating){RATING_START, RATING_RD_START, RATING_VOL_START, 0};
    x->f = *f;
    if (sy->n == sy->cap) {
        sy->cap = sy->cap ? sy->cap * 2 : 64;
        sy->moved = xrealloc(sy->moved, (size_t)sy->cap * sizeof(*sy->moved));
    }
    sy->moved[sy->n++] = x;
}

/* db_rating_changed's fn: a fighter's rating (read after the fighters,
 * in the same transaction: he is known). */
static void sync_rating(void *ctx, int64_t fighter, enum rules rules, const struct db_rating *r)
{
    struct web *w = ctx;
    struct web_fighter *x = fighter > 0 && fighter < w->nid ? w->by_id[fighter] : NULL;

    if (x && x->f.sheet.rules == rules)
        x->rating = *r;
}

/* A ruleset's champion changed hands (or the title fell vacant): the old
 * one goes back to his league, the new one out of it. */
static void champions_read(struct web *w)
{
    for (int r = 0; r < RULES_COUNT; r++) {
        int64_t champ = 0;
        int defences;
        if (db_champion_get(w->db, (enum rules)r, &champ, &defences) != DB_OK)
            champ = 0;
        if (champ == w->champ[r])
            continue;
        int64_t was = w->champ[r];
        struct web_fighter *old = was > 0 && was < w->nid ? w->by_id[was] : NULL;
        struct web_fighter *now = champ > 0 && champ < w->nid ? w->by_id[champ] : NULL;
        if (now)
            list_remove(w, now);
        w->champ[r] = champ;
        if (old && !old->listed)
            list_insert(w, old);
    }
}

/* Brings the standings up to date with the file: 0, or -1 (database
 * error: everything is dropped, to be read afresh). */
static int standings_sync(struct web *w)
{
    struct sync sy = {.w = w};
    int64_t gone = 0;

    /* A fighter deleted (retired without a bout) is no row changed: when
     * one went since the last read, everything is read again. */
    if (db_fighter_gone(w->db, &gone) != DB_OK) {
        standings_drop(w);
        return -1;
    }
    if (w->loaded && gone != w->gone)
        standings_drop(w);

    int64_t stamp = w->stamp, rating_stamp = w->rating_stamp;
    int rc = db_fighter_changed(w->db, w->loaded ? w->stamp : -1, &stamp, sync_fighter, &sy);
    if (rc == DB_OK && !sy.failed)
        rc = db_rating_changed(w->db, w->loaded ? w->rating_stamp : -1, &rating_stamp, sync_rating,
                               w);
    if (rc == DB_OK && !sy.failed) {
        if (!w->loaded || sy.n >= WEB_RESORT_MIN) {
            champions_read(w);
            lists_make(w);
        } else {
            for (int i = 0; i < sy.n; i++)
                list_insert(w, sy.moved[i]);
            champions_read(w);
        }
        w->stamp = stamp;
        w->rating_stamp = rating_stamp;
        w->gone = gone;
        w->loaded = 1;
        w->stale = 0;
    }
    free(sy.moved);
    if (rc != DB_OK || sy.failed) {
        standings_drop(w);
        return -1;
    }
    return 0;
}

const struct web_standings *web_standings(struct web *w, enum rules rules, int league)
{
    if ((!w->loaded || w->stale) && standings_sync(w) != 0)
        return NULL;
    return &w->standings[rules][league];
}

int web_league_default(struct web *w, enum rules rules)
{
    for (int l = LEAGUE_GOLD; l >= LEAGUE_BRONZE; l--) {
        const struct web_standings *s = web_standings(w, rules, l);
        if (!s)
            return -1;
        if (s->n > 0)
            return l;
    }
    return LEAGUE_GOLD;
}

const char *web_date(int64_t t, char *buf, size_t len)
{
    time_t tt = (time_t)t;
    struct tm tm;

    if (t <= 0 || !gmtime_r(&tt, &tm) || strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm) == 0)
        snprintf(buf, len, "-");
    return buf;
}
