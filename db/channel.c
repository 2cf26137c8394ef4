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

/* Runs `sql` with `name` (and `by`, when not NULL) bound; 0 or -1 with
 * db->err. */
static int channel_write(struct db *db, const char *sql, const char *name, const char *by)
{
    sqlite3_stmt *st = NULL;

    if (db_text_check(db, "channel", name, DB_CHANNEL_MAX) != 0)
        return -1;
    if (sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(db, "channels: %s", sqlite3_errmsg(db->conn));
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    if (by) {
        sqlite3_bind_text(st, 2, by, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL));
    }
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(db, "channels: %s", sqlite3_errmsg(db->conn));
    return 0;
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
    sqlite3_stmt *st = NULL;
    int n = 0;

    if (sqlite3_prepare_v2(db->conn, "SELECT name FROM channels ORDER BY joined, name", -1, &st,
                           NULL) != SQLITE_OK)
        return db_fail(db, "channels: %s", sqlite3_errmsg(db->conn));
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max)
        snprintf(names[n++], DB_CHANNEL_MAX, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return db_fail(db, "channels: %s", sqlite3_errmsg(db->conn));
    return n;
}
