/*
 * data.c - what the pages read, and the one cache: each league's
 * standings, sorted.
 *
 * Every page is read in one read transaction (web_begin .. web_end), so
 * it shows the file as of one moment while the bot writes it. Two caches,
 * both dropped when the file changes, which PRAGMA data_version tells at
 * the start of each request (web_check, a few microseconds): each league's
 * standings (every fighter of a ruleset read and sorted: milliseconds with
 * ten thousand), and the answers already given, by what changes them
 * (route_key: the page, and the page number of the standings), so that a
 * page asked for again before anything changed is sent as it was (a page
 * is a function of the file and its address; other query arguments change
 * nothing and share the entry). Past WEB_KEEP_MAX / 2 answers or
 * WEB_KEEP_BYTES, everything is dropped and kept afresh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "web.h"

void web_forget(struct web *w)
{
    for (int r = 0; r < RULES_COUNT; r++)
        for (int l = 0; l < LEAGUE_COUNT; l++) {
            free(w->standings[r][l].v);
            memset(&w->standings[r][l], 0, sizeof(w->standings[r][l]));
        }
    for (int i = 0; i < WEB_KEEP_MAX && w->nkept; i++)
        if (w->kept[i].key[0]) {
            free(w->kept[i].body);
            memset(&w->kept[i], 0, sizeof(w->kept[i]));
            w->nkept--;
        }
    w->kept_bytes = 0;
}

int web_check(struct web *w)
{
    long long v = db_data_version(w->db);

    if (v < 0)
        return -1;
    if (v != w->version) {
        web_forget(w);
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

void web_keep(struct web *w, const char *key, const char *body, size_t len, const char *type,
              int refresh)
{
    if (strlen(key) >= WEB_KEY_MAX || web_kept_find(w, key))
        return;
    /* Half full at most, so that a search ends soon; past that, start
     * afresh (the answers come back as they are asked for). */
    if (len > WEB_KEEP_BYTES / 8)
        return;
    if (w->nkept >= WEB_KEEP_MAX / 2 || w->kept_bytes + len > WEB_KEEP_BYTES) {
        long long v = w->version;
        web_forget(w);
        w->version = v;
    }
    unsigned i = slot_of(key);
    while (w->kept[i].key[0])
        i = (i + 1) & (WEB_KEEP_MAX - 1);
    struct web_kept *k = &w->kept[i];
    snprintf(k->key, sizeof(k->key), "%s", key);
    k->body = xmalloc(len + 1);
    memcpy(k->body, body, len);
    k->body[len] = '\0';
    k->len = len;
    k->type = type;
    k->refresh = refresh;
    w->nkept++;
    w->kept_bytes += len;
}

void web_end(struct web *w)
{
    db_read_end(w->db);
}

const struct web_standings *web_standings(struct web *w, enum rules rules, int league)
{
    struct web_standings *s = &w->standings[rules][league];

    if (!s->valid) {
        s->v = league_standings_db(w->db, rules, league, &s->n);
        if (!s->v)
            return NULL;
        s->valid = 1;
    }
    return s;
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
