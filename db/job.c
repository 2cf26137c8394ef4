/*
 * job.c - the scheduled jobs (issue 29: several bots, one world): a league
 * turn due by `[league] turn_interval`, a tournament's schedule, run by
 * one process at a time, whichever of the bots sharing a database asks
 * first (db.h: db_job_lock).
 *
 * PostgreSQL: a session advisory lock of class 1380535879 ("RING", the
 * lease's class), keyed by hashtext('ringside job NAME'), tried without
 * waiting: a bot that finds it held skips the job quietly (the one that
 * holds it is running it). The session holds it until db_job_unlock, or
 * until the session ends (a process killed frees it at once). Taking it
 * does not make the job due: the caller reads again, under the lock,
 * whether it still is (another bot may have just run it and let go).
 *
 * SQLite: one bot a file (the lease, lease.c), so every job is its own.
 */
#include <stdio.h>

#include "db_internal.h"
#include "sql.h"

/* "ringside job NAME", the lock's second key's text. */
static void job_key(const char *name, char *key, size_t size)
{
    snprintf(key, size, "ringside job %s", name ? name : "");
}

int db_job_lock(struct db *db, const char *name)
{
    char key[96];

    if (db->backend != DB_BACKEND_PG)
        return DB_OK;
    job_key(name, key, sizeof(key));
    struct dbs *q = dbs_prepare_kept(
        db, "SELECT CAST(pg_try_advisory_lock(1380535879, hashtext(?1)) AS INTEGER)");
    if (!q)
        return DB_ERROR;
    dbs_bind_text(q, 1, key);
    int rc = dbs_step(q), held = rc == DBS_ROW && dbs_col_int(q, 0) == 1;
    dbs_free(q);
    if (rc != DBS_ROW)
        return DB_ERROR;
    return held ? DB_OK : DB_EXISTS;
}

void db_job_unlock(struct db *db, const char *name)
{
    char key[96];

    if (!db || db->backend != DB_BACKEND_PG)
        return;
    job_key(name, key, sizeof(key));
    struct dbs *q = dbs_prepare_kept(db, "SELECT pg_advisory_unlock(1380535879, hashtext(?1))");
    if (!q)
        return; /* the session's end frees it */
    dbs_bind_text(q, 1, key);
    dbs_step(q);
    dbs_free(q);
}
