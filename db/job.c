/*
 * job.c - the scheduled jobs (issue 29: several bots, one world): a league
 * turn due by `[league] turn_interval`, a tournament's schedule, run by
 * one process at a time, whichever of the bots sharing a database asks
 * first (db.h: db_job_lock).
 *
 * PostgreSQL: a session advisory lock of class 1380535879 ("RING", the
 * lease's class), keyed by hashtext('ringside job SCHEMA NAME') (a world
 * a schema: the tests' schemas on one server never wait for each other),
 * tried without
 * waiting: a bot that finds it held skips the job quietly (the one that
 * holds it is running it). The session holds it until db_job_unlock, or
 * until the session ends (a process killed frees it at once). Taking it
 * does not make the job due: the caller reads again, under the lock,
 * whether it still is (another bot may have just run it and let go).
 *
 * SQLite: one bot a file (the lease, lease.c), so every job is its own.
 */

#include "db_internal.h"
#include "sql.h"

/* The lock's second key, of the job's name ?1. */
#define JOB_KEY "hashtext('ringside job ' || current_schema() || ' ' || CAST(?1 AS TEXT))"

int db_job_lock(struct db *db, const char *name)
{
    if (db->backend != DB_BACKEND_PG)
        return DB_OK;
    struct dbs *q = dbs_prepare_kept(db, "SELECT CAST(pg_try_advisory_lock(1380535879, " JOB_KEY
                                         ") AS INTEGER)");
    if (!q)
        return DB_ERROR;
    dbs_bind_text(q, 1, name ? name : "");
    int rc = dbs_step(q), held = rc == DBS_ROW && dbs_col_int(q, 0) == 1;
    dbs_free(q);
    if (rc != DBS_ROW)
        return DB_ERROR;
    return held ? DB_OK : DB_EXISTS;
}

void db_job_unlock(struct db *db, const char *name)
{
    if (!db || db->backend != DB_BACKEND_PG)
        return;
    struct dbs *q = dbs_prepare_kept(db, "SELECT pg_advisory_unlock(1380535879, " JOB_KEY ")");
    if (!q)
        return; /* the session's end frees it */
    dbs_bind_text(q, 1, name ? name : "");
    dbs_step(q);
    dbs_free(q);
}
