/*
 * channel.c - the channels the bot joined on an invite ([irc]
 * join_on_invite, migration 15): kept so that a restart joins them again,
 * forgotten when a channel operator says !part. Few rows, written rarely:
 * each call prepares its own statement rather than holding one in the
 * table of db.c.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "db_internal.h"
#include "util.h"

/* Prefixes db->err with "channels: " and returns -1. */
static int channel_failed(struct db *db)
{
    char why[sizeof(db->err)];

    snprintf(why, sizeof(why), "%s", db->err);
    return db_fail(db, "channels: %s", why);
}

/* Runs `sql` with `name` (and `by`, when not NULL) bound; 0 or -1 with
 * db->err. */
static int channel_write(struct db *db, const char *sql, const char *name, const char *by)
{
    if (db_text_check(db, "channel", name, DB_CHANNEL_MAX) != 0)
        return -1;
    struct dbs *q = dbs_prepare(db, sql);
    if (!q)
        return channel_failed(db);
    dbs_bind_text(q, 1, name);
    if (by) {
        dbs_bind_text(q, 2, by);
        dbs_bind_int64(q, 3, (int64_t)time(NULL));
    }
    int rc = dbs_run(q);
    dbs_free(q);
    return rc == DBS_DONE ? 0 : channel_failed(db);
}

int db_channel_add(struct db *db, const char *name, const char *by)
{
    return channel_write(db,
                         "INSERT INTO channels (name, invited_by, joined) VALUES (?1, ?2, ?3) "
                         "ON CONFLICT(name) DO NOTHING",
                         name, by ? by : "");
}

int db_channel_remove(struct db *db, const char *name)
{
    return channel_write(db, "DELETE FROM channels WHERE name = ?1", name, NULL);
}

int db_channel_list(struct db *db, char (*names)[DB_CHANNEL_MAX], int max)
{
    struct dbs *q = dbs_prepare(db, "SELECT name FROM channels ORDER BY joined, name");
    int n = 0;

    if (!q)
        return channel_failed(db);
    int rc;
    while ((rc = dbs_step(q)) == DBS_ROW && n < max)
        snprintf(names[n++], DB_CHANNEL_MAX, "%s", dbs_col_text(q, 0));
    dbs_free(q);
    if (rc == DBS_ERR)
        return channel_failed(db);
    return n;
}
