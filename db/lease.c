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

/* ------------------------------------------------------------ presence */

/* Another network's bot is "present" (issue 29, a bout between two
 * networks) while it holds a second session advisory lock, keyed by
 * "ringside present NAME", which it takes only while it is on IRC and in
 * its channel and gives back when it leaves either (db_presence_set). It
 * costs no row and no write: the owner of a bout reads pg_locks, and a
 * bot killed, stepped down or cut off loses the lock with its session,
 * as it loses its lease. A class of its own ("RINP"), so that whoever
 * counts the lease's locks (class "RING", as the standby's tests do) never
 * counts these. */
#define PRESENCE_CLASS "1380535888"
#define PRESENCE_KEY   "'ringside present ' || ?1"
#define PRESENCE_LOCK                                                                              \
    "locktype = 'advisory' AND granted AND objsubid = 2"                                           \
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"             \
    " AND classid::text::bigint = " PRESENCE_CLASS                                                 \
    " AND objid::text::bigint = (hashtext(" PRESENCE_KEY ")::bigint & 4294967295)"

/* Held on this session already, or taken now: 1, 0 (another session
 * holds it: a second bot of the network, which cannot be) or -1. A
 * session's advisory locks stack, so it is taken only when this session
 * does not hold it (a new session after a reconnection holds nothing). */
static const char presence_take_sql[] =
    "SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_locks WHERE pid = pg_backend_pid() "
    "AND " PRESENCE_LOCK ") THEN 1 WHEN pg_try_advisory_lock(" PRESENCE_CLASS
    ", hashtext(" PRESENCE_KEY ")) THEN 1 ELSE 0 END";
/* Given back only when held: unlocking a lock not held is a WARNING. */
static const char presence_give_sql[] =
    "SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM pg_locks WHERE pid = pg_backend_pid() "
    "AND " PRESENCE_LOCK ") THEN 0 WHEN pg_advisory_unlock(" PRESENCE_CLASS
    ", hashtext(" PRESENCE_KEY ")) THEN 1 ELSE 0 END";
static const char presence_read_sql[] = "SELECT count(*) FROM pg_locks WHERE " PRESENCE_LOCK;

/* Runs one of the statements above for `network`: its number, or -1. */
static int presence_ask(struct db *db, const char *sql, const char *network)
{
    struct dbs *q = dbs_prepare(db, sql);
    if (!q)
        return -1;
    dbs_bind_text(q, 1, network);
    int n = dbs_step(q) == DBS_ROW ? (int)dbs_col_int64(q, 0) : -1;
    dbs_free(q);
    return n;
}

int db_presence_set(struct db *db, int present)
{
    if (db->backend != DB_BACKEND_PG)
        return DB_OK; /* one bot a file: nobody asks */
    if (!present) {
        /* Not held (a session lost meanwhile) is as good as given back. */
        return presence_ask(db, presence_give_sql, db->network) < 0 ? DB_ERROR : DB_OK;
    }
    int n = presence_ask(db, presence_take_sql, db->network);
    if (n < 0)
        return DB_ERROR;
    if (n == 0)
        return db_fail(db, "another session holds the presence of network %s", db->network);
    return DB_OK;
}

int db_network_present(struct db *db, const char *network)
{
    if (db->backend != DB_BACKEND_PG)
        return 0;
    int n = presence_ask(db, presence_read_sql, network);
    return n < 0 ? -1 : n > 0;
}
