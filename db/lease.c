/*
 * lease.c - the network lease (issue 29, failover): one bot process at a
 * time runs a network on one database, and another started with the same
 * configuration waits as its standby (db.h: db_lease_take).
 *
 * PostgreSQL (sql_pg.c does the talking): a session advisory lock, keyed
 * by "ringside network NAME", on the very connection every write of the
 * bot goes through. That is the fencing: a session the server has dropped
 * holds no lock and commits nothing, so a bot cut off from the server
 * can write nothing after its standby took over, whatever its clock says.
 * kill -9 closes the socket and the server frees the lock at once; a host
 * cut off loses its session when the keepalives of both ends give up
 * (about half the failover time). A reconnection takes the lock again
 * before anything else runs on the new session; if another process holds
 * it, the lease is lost for good and the connection refuses every
 * statement; while the server cannot be reached it is away (statements
 * refused) until a check finds the server and the lock again.
 *
 * SQLite: an exclusive flock on PATH.lock beside the database, which the
 * kernel frees when the process dies. One bot a file (a second bot on one
 * SQLite file was an unguarded mistake before): the network name is not
 * part of it.
 */
#define _DEFAULT_SOURCE /* flock */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "db_internal.h"
#include "util.h"

/* SQLite: the exclusive lock on PATH.lock, the file made if missing. */
static int lease_flock(struct db *db)
{
    if (!db->has_file)
        return DB_OK; /* in memory: nobody else can open it */
    if (!db->lease_asked) {
        struct str path;
        str_init(&path);
        str_add(&path, "%s.lock", db->file);
        int fd = open(path.p, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0) {
            int e = errno;
            db_fail(db, "cannot open the lock file %s: %s", path.p, strerror(e));
            str_free(&path);
            return DB_ERROR;
        }
        str_free(&path);
        db->lease_fd = fd;
        db->lease_asked = 1;
    }
    if (flock(db->lease_fd, LOCK_EX | LOCK_NB) == 0)
        return DB_OK;
    if (errno == EWOULDBLOCK)
        return DB_EXISTS;
    return db_fail(db, "cannot lock %s.lock: %s", db->file, strerror(errno));
}

int db_lease_take(struct db *db, const char *network, int seconds)
{
    if (db->backend != DB_BACKEND_PG)
        return lease_flock(db);
    if (!db->lease_asked) {
        snprintf(db->lease_key, sizeof(db->lease_key), "ringside network %s",
                 network ? network : "");
        db->lease_seconds = seconds;
    }
    return db_pg_lease_take(db);
}

int db_lease_check(struct db *db)
{
    if (db->backend != DB_BACKEND_PG)
        return DB_OK; /* a flock lasts as long as the process */
    if (!db->lease_asked)
        return db_fail(db, "db_lease_check: no lease was taken");
    return db_pg_lease_check(db);
}

int db_lease_lapses(const struct db *db)
{
    return db->backend == DB_BACKEND_PG && db->lease_asked;
}

int db_lease_state(struct db *db)
{
    if (db->lease_lost)
        return DB_ERROR;
    return db->lease_away ? DB_NOTFOUND : DB_OK;
}

void db_lease_release(struct db *db)
{
    if (!db || !db->lease_asked)
        return;
    if (db->backend != DB_BACKEND_PG) {
        close(db->lease_fd); /* the flock goes with it */
        db->lease_asked = 0;
    }
    /* PostgreSQL: the lock is the session's, released when db_close ends
     * it; released here, a new session would hold nothing all the same. */
}
