/*
 * integrity.c - knowing that the database is the one that was used, and
 * that it is still there (migration 7).
 *
 * The bot's database has a random id (table meta of migration 7, the id
 * made at the bot's first open of the file) and a marker file beside it, PATH.id, holding the same
 * id, written when the bot first opens the file (db_open_marked). A marker whose database is
 * missing means a database lost: the bot refuses to start rather than make an empty one; `ringside
 * --init` makes a new one on purpose.
 *
 * League turns begun and not committed: see db_turn_begun.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db_internal.h"
#include "util.h"

#define ID_LEN 32 /* hex digits */

/* A reason into the caller's err (cut to fit). */
static void why(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void why(char *err, size_t errlen, const char *fmt, ...)
{
    struct str s;
    va_list ap;

    str_init_fixed(&s, err, errlen);
    va_start(ap, fmt);
    str_vadd(&s, fmt, ap);
    va_end(ap);
}

int db_gone(struct db *db)
{
    return db && db->gone;
}

int db_busy(struct db *db)
{
    return db && !db->gone && db->busy;
}

const char *db_why(struct db *db)
{
    return db_gone(db)   ? "the database file is gone; an operator must restore it"
           : db_busy(db) ? "the database is busy; try again in a moment"
                         : "database error";
}

void db_busy_timeout(struct db *db, int ms)
{
    /* SQLite's wait for another connection's lock; a server backend
     * waits on its own and has nothing to set here. */
    if (db->backend == DB_BACKEND_SQLITE)
        sqlite3_busy_timeout(db->conn, ms);
}

void db_release_memory(struct db *db)
{
    if (db && db->backend == DB_BACKEND_SQLITE)
        sqlite3_db_release_memory(db->conn);
}

int db_id(struct db *db, char *buf, size_t len)
{
    struct dbs *q = dbs_table(db, STMT_META_ID);
    int rc = dbs_step(q);

    if (rc == DBS_ROW)
        rc = dbs_col_copy(q, 0, buf, len, "the database id");
    else if (rc == DBS_DONE)
        rc = db_fail(db, "the database has no id (table meta)");
    else
        rc = DB_ERROR;
    dbs_reset(q);
    return rc;
}

/* ---------------------------------------------------------------- marker */

/* Reads the id in marker file `marker` into id[ID_LEN + 1]: 1, 0 when
 * there is no such file, -1 when it cannot be read or holds no id. */
static int marker_read(const char *marker, char *id)
{
    char buf[128];
    FILE *f = fopen(marker, "r");

    if (!f)
        return errno == ENOENT ? 0 : -1;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    if (strspn(buf, "0123456789abcdef") != ID_LEN)
        return -1;
    memcpy(id, buf, ID_LEN);
    id[ID_LEN] = '\0';
    return 1;
}

/* Writes `id` into marker file `marker` (a temporary file renamed over
 * it, so it is whole or absent). 0, or -1 with the reason in err. */
static int marker_write(const char *marker, const char *id, char *err, size_t errlen)
{
    struct str name;

    str_init(&name);
    str_add(&name, "%s.tmp", marker);
    const char *tmp = name.p;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        why(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        str_free(&name);
        return -1;
    }
    char line[ID_LEN + 2];
    int n = snprintf(line, sizeof(line), "%s\n", id);
    int ok = write(fd, line, (size_t)n) == n && fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, marker) != 0) {
        why(err, errlen, "cannot write %s: %s", marker, strerror(errno));
        unlink(tmp);
        str_free(&name);
        return -1;
    }
    str_free(&name);
    return 0;
}

/* Before the file is opened (and so created): whether it may be. 0, or -1
 * with the reason in err. */
static int marker_before(const char *path, const char *marker, int init, char *err, size_t errlen)
{
    char id[ID_LEN + 1];
    struct stat sb;
    int exists = lstat(path, &sb) == 0;
    int mark = marker_read(marker, id);

    if (init && exists) {
        why(err, errlen,
            "--init: %s exists already; --init only creates a new database (move the old "
            "one away first to start afresh)",
            path);
        return -1;
    }
    if (init || exists || mark == 0)
        return 0;
    if (mark < 0)
        why(err, errlen,
            "%s is missing and %s cannot be read: a database was kept there; restore it "
            "from a backup, or start afresh with ringside --init (a new, empty database)",
            path, marker);
    else
        why(err, errlen,
            "%s is missing, but %s says database %s was kept there: restore it from a "
            "backup (with its -wal file if there is one), or start afresh with ringside "
            "--init (a new, empty database: every account, fighter and bout is lost)",
            path, marker, id);
    return -1;
}

/* Once open: the marker says this database, written when missing (and
 * with `init`, over the lost database's). */
static int marker_after(struct db *db, const char *path, const char *marker, int init, char *err,
                        size_t errlen)
{
    char id[ID_LEN + 1], mine[ID_LEN + 1];
    int mark = marker_read(marker, id);

    if (dbs_run(dbs_table(db, STMT_META_ID_MAKE)) != DBS_DONE ||
        db_id(db, mine, sizeof(mine)) != DB_OK) {
        why(err, errlen, "%s: %s", path, db_errmsg(db));
        return -1;
    }
    if (mark > 0 && strcmp(id, mine) == 0)
        return 0;
    if (mark != 0 && !init) {
        why(err, errlen,
            "%s holds database %s, but %s says another was kept there (%s): if this file "
            "is the one to use, delete %s and start again",
            path, mine, marker, mark > 0 ? id : "unreadable", marker);
        return -1;
    }
    return marker_write(marker, mine, err, errlen);
}

struct db *db_open_marked(const char *path, int init, char *errbuf, int errlen)
{
    char err[1024] = "";
    struct str mk;

    /* No file, no marker: a PostgreSQL server is not a file that can be
     * lost or replaced under the bot. */
    if (!path || !*path || strcmp(path, ":memory:") == 0 || db_is_pg_uri(path))
        return db_open(path, errbuf, errlen);
    str_init(&mk);
    str_add(&mk, "%s.id", path);
    const char *marker = mk.p;
    struct db *db = NULL;
    if (marker_before(path, marker, init, err, sizeof(err)) == 0) {
        db = db_open(path, errbuf, errlen);
        if (db && marker_after(db, path, marker, init, err, sizeof(err)) != 0) {
            db_close(db);
            db = NULL;
        }
    }
    if (err[0] && errbuf && errlen > 0)
        snprintf(errbuf, (size_t)errlen, "%s", err);
    str_free(&mk);
    return db;
}

/* ----------------------------------------------------------------- turns */

int db_turn_begun(struct db *db, enum rules rules, int64_t now)
{
    const char *name = db_rules_name(rules);

    if (!name)
        return db_fail(db, "no storage for ruleset %d", (int)rules);
    struct dbs *q = dbs_table(db, STMT_TURN_BEGUN);
    dbs_bind_text(q, 1, name);
    dbs_bind_int64(q, 2, now);
    return dbs_run(q) == DBS_DONE ? DB_OK : DB_ERROR;
}

int db_turn_done(struct db *db, enum rules rules)
{
    const char *name = db_rules_name(rules);

    if (!name)
        return db_fail(db, "no storage for ruleset %d", (int)rules);
    struct dbs *q = dbs_table(db, STMT_TURN_DONE);
    dbs_bind_text(q, 1, name);
    return dbs_run(q) == DBS_DONE ? DB_OK : DB_ERROR;
}

int db_turn_unfinished(struct db *db, enum rules *rules, int64_t *begun, int max, int *n)
{
    struct dbs *q = dbs_table(db, STMT_TURN_UNFINISHED);
    int rc;

    *n = 0;
    dbs_bind_int64(q, 1, max);
    while ((rc = dbs_step(q)) == DBS_ROW && *n < max) {
        int r = db_rules_find(dbs_col_text(q, 0));
        if (r < 0)
            continue; /* a ruleset this ringside does not know: not its turn */
        rules[*n] = (enum rules)r;
        begun[*n] = dbs_col_int64(q, 1);
        (*n)++;
    }
    dbs_reset(q);
    if (rc == DBS_ERR) {
        *n = 0;
        return DB_ERROR;
    }
    return DB_OK;
}
