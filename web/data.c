/*
 * data.c - what the pages read, and the one cache: each league's
 * standings, sorted.
 *
 * Every request runs in one read transaction (web_begin .. web_end), so a
 * page reads the file as of one moment while the bot writes it. The
 * standings of a ruleset's league need every fighter of the ruleset, read
 * and sorted: with ten thousand fighters that is milliseconds, so they are
 * kept until the file changes, which PRAGMA data_version tells at the
 * start of each request (a few microseconds).
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
}

int web_begin(struct web *w)
{
    if (db_read_begin(w->db) != DB_OK)
        return -1;
    long long v = db_data_version(w->db);
    if (v < 0) {
        db_read_end(w->db);
        return -1;
    }
    if (v != w->version) {
        web_forget(w);
        w->version = v;
    }
    return 0;
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

const char *web_date(int64_t t, char *buf, size_t len)
{
    time_t tt = (time_t)t;
    struct tm tm;

    if (t <= 0 || !gmtime_r(&tt, &tm) || strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm) == 0)
        snprintf(buf, len, "-");
    return buf;
}
