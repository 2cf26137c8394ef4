/*
 * sql_pg.c - the statement layer (sql.h) on PostgreSQL, through libpq: the
 * connection (db_open_pg), the schema of an empty database (schema_pg.sql,
 * built into the program), statements, results and transactions.
 *
 * Statements: the `?N` of db/'s SQL become `$N` once, when the handle is
 * made. db.c's table statements are PQprepare'd at open under "s<i>" (a
 * few are SQLite's own: PostgreSQL has its own words for them below; one
 * the server refuses fails at each step, saying why); kept ones under
 * "k<slot>" when first asked for;
 * a one-use statement is prepared as the unnamed statement (so a mistake
 * in its SQL fails dbs_prepare, as on SQLite) and run by PQexecParams if
 * another one-use statement took the unnamed slot since. Every parameter
 * is sent as text. A result is fetched whole at the first step and kept
 * until the reset, so no query holds the connection between two steps.
 *
 * Errors: the server's primary message (one line) into db->err; SQLSTATE
 * 23505 and 23503 are the uniqueness and foreign key kinds; a statement in
 * a transaction that failed or ended behind db/'s back (db->in_txn while
 * the server is not inside a healthy transaction) is refused with the
 * words SQLite's backend uses (db.c's txn_lost).
 */
#define _DEFAULT_SOURCE /* TCP_KEEPIDLE and the others of netinet/tcp.h */
#include <dlfcn.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>

#include <libpq-fe.h>

#include "db_internal.h"
#include "util.h"

/* libpq's functions, called PQ(name)(...): loaded when the program first
 * opens a PostgreSQL database (pg_load), so a program that never does
 * never loads libpq and the twenty libraries it needs (measured here: a
 * start of the bot 15 ms and 4.5 MB without them, 32 ms and 8.4 MB with). */
/* clang-format off */
#define PQ_FUNCTIONS(X) \
    X(PQbackendPID) \
    X(PQclear) \
    X(PQconsumeInput) \
    X(PQcmdTuples) \
    X(PQconnectdbParams) \
    X(PQconnectPoll) \
    X(PQconnectStartParams) \
    X(PQconninfo) \
    X(PQconninfoFree) \
    X(PQerrorMessage) \
    X(PQexec) \
    X(PQexecParams) \
    X(PQexecPrepared) \
    X(PQfinish) \
    X(PQfnumber) \
    X(PQfreemem) \
    X(PQgetisnull) \
    X(PQgetvalue) \
    X(PQnfields) \
    X(PQnotifies) \
    X(PQntuples) \
    X(PQprepare) \
    X(PQreset) \
    X(PQresultErrorField) \
    X(PQresultStatus) \
    X(PQsetNoticeProcessor) \
    X(PQsocket) \
    X(PQstatus) \
    X(PQtransactionStatus)
/* Pipeline mode (libpq 14 and later), for the batches of db_pg_batch:
 * loaded if there, and without them every write waits for its answer. */
#define PQ_PIPE_FUNCTIONS(X) \
    X(PQenterPipelineMode) \
    X(PQexitPipelineMode) \
    X(PQgetResult) \
    X(PQpipelineStatus) \
    X(PQpipelineSync) \
    X(PQsendQueryPrepared)
/* clang-format on */
#define PQ_SLOT(f) __typeof__(f) *f;
static struct {
    PQ_FUNCTIONS(PQ_SLOT)
    PQ_PIPE_FUNCTIONS(PQ_SLOT)
    int pipe; /* every one of PQ_PIPE_FUNCTIONS was found */
} pq;
#define PQ(f) (pq.f)

/* Loads libpq once: DB_OK, or DB_ERROR with why in db->err. */
static int pg_load(struct db *db)
{
    static const char lib[] = "libpq.so.5";
    static void *handle; /* never closed: the functions stay in use */

    if (handle)
        return DB_OK;
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return db_fail(db, "cannot load %s (install the libpq5 package): %s", lib, dlerror());
#define PQ_LOAD(f)                                                                                 \
    if (!(*(void **)&pq.f = dlsym(h, #f)))                                                         \
        return db_fail(db, "%s has no %s: %s", lib, #f, dlerror());
    PQ_FUNCTIONS(PQ_LOAD)
    pq.pipe = 1;
#define PQ_LOAD_PIPE(f) pq.pipe &= (*(void **)&pq.f = dlsym(h, #f)) != NULL;
    PQ_PIPE_FUNCTIONS(PQ_LOAD_PIPE)
    handle = h;
    return DB_OK;
}

/* The schema at the latest migration, built in (the .incbin below): the
 * program never reads it from the source tree at run time. The Makefile
 * rebuilds this file's object when db/schema_pg.sql changes. */
__asm__(".pushsection .rodata\n"
        "ringside_schema_pg:\n"
        ".incbin \"db/schema_pg.sql\"\n"
        ".byte 0\n"
        ".popsection\n");
extern const char ringside_schema_pg[];

/* The advisory lock two processes opening an empty database at once take,
 * so only one of them creates the schema ("RINGSIDE" in ASCII, cut). */
#define PG_SCHEMA_LOCK "5495430783693"

/* The type of a text (pg_type.h's TEXTOID, which libpq-fe.h does not
 * give): fixed since PostgreSQL 7. */
#define PG_TEXT_OID ((Oid)25)

/* The PostgreSQL side of a statement. */
struct dbs_pg {
    char name[16];   /* its prepared name; "" for a one-use statement */
    const char *sql; /* the SQL as db/ wrote it (`?N`), for messages */
    char *text;      /* the SQL sent (`$N`), owned */
    int prepared;    /* PQprepare'd on this connection */
    int returning;   /* the SQL has RETURNING: a write may return its row */
    int nparams;
    Oid *types;      /* per parameter: as prepared (pg_types) */
    const char **pv; /* per parameter: the text sent, NULL for NULL */
    char **own;      /* per parameter: a copy pv points to, or NULL */
    char (*num)[32]; /* per parameter: a number formatted as text */
    PGresult *res;   /* the last execution's result, until the reset */
    int row, nrows;  /* the current row of res, and how many it has */
    int64_t changes; /* the rows the last dbs_run changed */
    int64_t id;      /* what its RETURNING id said, when has_id */
    int has_id;
    char *unfit;     /* a table statement the server refused at open: why */
    struct str *arr; /* per parameter: the rows added so far (dbs_rows_add),
                        an array's elements; NULL until the first */
    int rows;        /* how many */
    int alongside;   /* runs before the batch's rows are written (pg_exec) */
};

/* --------------------------------------------------------- the SQL text */

/* The words PostgreSQL needs for the table statements that are SQLite's
 * own (pragmas, BEGIN IMMEDIATE, randomblob), or NULL: db.c's SQL then. */
static const char *pg_own_sql(int which)
{
    switch (which) {
    case STMT_USER_VERSION:
        return "SELECT CAST(value AS BIGINT) FROM meta WHERE key = 'schema_version'";
    case STMT_JOURNAL_MODE:
        return "SELECT 'wal'"; /* PostgreSQL is write-ahead logged */
    case STMT_FOREIGN_KEYS:
        return "SELECT 1"; /* always enforced */
    case STMT_BEGIN:
        return "BEGIN";
    case STMT_BEGIN_READ:
        /* One snapshot for the whole read, as SQLite's read transaction. */
        return "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";
    case STMT_DATA_VERSION:
        /* The transactions ended as of a snapshot (those below its xmax
         * and not running): it grows exactly when a new snapshot may see
         * more (any commit on the server), a reader's cue to look again,
         * as SQLite's data_version is. Not the WAL position: a commit's
         * WAL is written before it is visible, so a page read between the
         * two would be kept under a version that already counted it. */
        return "SELECT CAST(CAST(pg_snapshot_xmax(s) AS TEXT) AS BIGINT)"
               " - (SELECT count(*) FROM pg_snapshot_xip(s)) FROM pg_current_snapshot() AS s";
    case STMT_TURN_ADD:
        /* The next number read under the stamps' lock (migration 19). */
        return "INSERT INTO turns (rules, number, ran_at) VALUES (?1, turns_next_number(?1), ?2)"
               " RETURNING number";
    case STMT_META_ID_MAKE:
        return "INSERT INTO meta (key, value)"
               " VALUES ('id', replace(CAST(gen_random_uuid() AS TEXT), '-', ''))";
    default:
        return NULL;
    }
}

/* A copy of `sql` with each of db/'s new stamps (DB_STAMP_FIGHTERS,
 * DB_STAMP_RATINGS) written as the call of migration 19's function, which
 * reads the highest under the stamps' lock. */
static char *pg_stamps(const char *sql)
{
    static const struct {
        const char *from, *to;
    } stamps[] = {
        {DB_STAMP_FIGHTERS, "fighters_next_stamp()"},
        {DB_STAMP_RATINGS, "ratings_next_stamp()"},
    };
    struct str out;

    str_init(&out);
    for (const char *c = sql; *c;) {
        size_t i = 0;
        while (i < sizeof(stamps) / sizeof(stamps[0]) &&
               strncmp(c, stamps[i].from, strlen(stamps[i].from)) != 0)
            i++;
        if (i < sizeof(stamps) / sizeof(stamps[0])) {
            str_cat(&out, stamps[i].to);
            c += strlen(stamps[i].from);
        } else {
            str_ch(&out, *c++);
        }
    }
    return str_take(&out, NULL);
}

/* A copy of `sql` with each `?N` outside quotes written `$N`, and its
 * stamps as pg_stamps writes them; *nparams is the highest N. */
static char *pg_rewrite(const char *sql, int *nparams)
{
    char *text = pg_stamps(sql);
    char quote = 0;

    *nparams = 0;
    for (char *c = text; *c; c++) {
        if (quote) {
            quote = *c == quote ? 0 : quote;
        } else if (*c == '\'' || *c == '"') {
            quote = *c;
        } else if (*c == '?' && c[1] >= '0' && c[1] <= '9') {
            *c = '$';
            int n = atoi(c + 1);
            *nparams = n > *nparams ? n : *nparams;
        }
    }
    return text;
}

/* The parameter types to prepare `text` (rewritten) with: 0 (the server
 * infers it) for each $N the SQL uses, text for one it skips, which the
 * server cannot infer (db.c's statements share numbers: the fighter INSERT
 * binds the id ?1 it does not use). */
static Oid *pg_types(const char *text, int nparams)
{
    Oid *types = xcalloc((size_t)(nparams > 0 ? nparams : 1), sizeof(*types));

    for (int i = 0; i < nparams; i++)
        types[i] = PG_TEXT_OID;
    for (const char *c = strchr(text, '$'); c; c = strchr(c + 1, '$')) {
        int n = atoi(c + 1);
        if (n >= 1 && n <= nparams)
            types[n - 1] = 0;
    }
    return types;
}

/* 1 if `sql` has the word RETURNING (any case). */
static int pg_has_returning(const char *sql)
{
    static const char word[] = "returning";

    for (const char *c = sql; *c; c++) {
        size_t i = 0;
        while (word[i] && (c[i] | 0x20) == word[i])
            i++;
        if (!word[i])
            return 1;
    }
    return 0;
}

/* The PostgreSQL side of a statement of SQL `sql`, named `name` ("" for
 * one use). */
static struct dbs_pg *pg_side_new(const char *sql, const char *name)
{
    struct dbs_pg *p = xcalloc(1, sizeof(*p));

    snprintf(p->name, sizeof(p->name), "%s", name);
    p->sql = sql;
    p->text = pg_rewrite(sql, &p->nparams);
    p->returning = pg_has_returning(sql);
    p->types = pg_types(p->text, p->nparams);
    int n = p->nparams > 0 ? p->nparams : 1;
    p->pv = xcalloc((size_t)n, sizeof(*p->pv));
    p->own = xcalloc((size_t)n, sizeof(*p->own));
    p->num = xcalloc((size_t)n, sizeof(*p->num));
    return p;
}

/* An INSERT whose id is read (db_stmt_returns_id): RETURNING id added,
 * so that dbs_pg_run reads the id from its result rather than asking for
 * lastval() in a round trip of its own. */
static void pg_side_returns_id(struct dbs_pg *p)
{
    static const char tail[] = " RETURNING id";
    size_t n = strlen(p->text);

    p->text = xrealloc(p->text, n + sizeof(tail));
    memcpy(p->text + n, tail, sizeof(tail));
    p->returning = 1;
}

/* Forgets the result and the parameters. */
static void pg_side_clear(struct dbs_pg *p)
{
    PQ(PQclear)(p->res);
    p->res = NULL;
    p->row = p->nrows = 0;
    for (int i = 0; i < p->nparams; i++) {
        free(p->own[i]);
        p->own[i] = NULL;
        p->pv[i] = NULL;
    }
}

static void pg_side_free(struct dbs_pg *p)
{
    if (!p)
        return;
    pg_side_clear(p);
    free(p->text);
    free(p->unfit);
    free(p->types);
    free(p->pv);
    free(p->own);
    free(p->num);
    for (int i = 0; p->arr && i < p->nparams; i++)
        str_free(&p->arr[i]);
    free(p->arr);
    free(p);
}

/* ------------------------------------------------------ batches' state */

/* Writes of a batch sent and not yet answered, at most: then their
 * answers are read (one round trip for PG_PIPE_MAX writes), which keeps
 * what the server has to say back small. */
#define PG_PIPE_MAX 256

/* Rows a statement of arrays holds before they are written in one go
 * (dbs_rows_add), and how many such statements a batch holds at once. */
#define PG_ROWS_MAX   1000
#define PG_ROWS_KINDS 8

/* A connection's batch of writes (db_pg_batch). While it is open inside a
 * transaction, the rows of dbs_rows_add are held, then written many a
 * statement, each sent in libpq's pipeline mode without waiting for its
 * answer; the answers are read with the next statement that needs one (in
 * the same round trip: it follows them in the pipeline), at the
 * transaction's end, or every PG_PIPE_MAX writes. */
struct pg_pipe {
    int open;                        /* between db_pg_batch(db, 1) and (db, 0) */
    int n;                           /* writes sent whose answers are unread */
    int broken;                      /* one found too few rows: the transaction
                                        fails (pg_txn_failed) until its end */
    const char *sql[PG_PIPE_MAX];    /* the writes' SQL, for a message */
    int want[PG_PIPE_MAX];           /* the rows each must change, at least */
    struct dbs *held[PG_ROWS_KINDS]; /* statements with rows added, unsent */
    int nheld;
    int64_t *ids;   /* bouts' ids drawn ahead (db_pg_bout_ids) */
    int nids, next; /* how many, and the next to take */
};

/* The writes of db's batch whose answers are unread. */
static int pg_pipe_pending(const struct db *db)
{
    return db->pg_pipe ? db->pg_pipe->n : 0;
}

/* ---------------------------------------------------------------- errors */

/* The server's message of `res` (or the connection's, without one) into
 * db->err, on one line; the kind of failure into q->rc. DBS_ERR. */
/* libpq's own messages run over lines: msg as one line into line[size]. */
static void pg_one_line(char *line, size_t size, const char *msg)
{
    size_t n = 0;
    for (const char *c = msg; *c && n + 1 < size; c++)
        if (*c != '\n' && *c != '\t')
            line[n++] = *c;
        else if (n > 0 && line[n - 1] != ' ')
            line[n++] = ' ';
    while (n > 0 && line[n - 1] == ' ')
        n--;
    line[n] = '\0';
}

static int pg_fail(struct dbs *q, const PGresult *res)
{
    const char *state = res ? PQ(PQresultErrorField)(res, PG_DIAG_SQLSTATE) : NULL;
    const char *msg = res ? PQ(PQresultErrorField)(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    char line[sizeof(q->db->err)];

    pg_one_line(line, sizeof(line), msg ? msg : PQ(PQerrorMessage)(q->db->pg));
    q->rc = DBS_E_OTHER;
    if (state && strcmp(state, "23505") == 0)
        q->rc = DBS_E_UNIQUE;
    else if (state && strcmp(state, "23503") == 0)
        q->rc = DBS_E_FOREIGN_KEY;
    if (state && strcmp(state, "25P02") == 0)
        db_fail(q->db,
                "the transaction was rolled back after an earlier error; db_rollback ends it");
    else
        db_fail(q->db, "%s", line);
    return DBS_ERR;
}

/* 1 if the caller's transaction failed or ended behind db/'s back. */
static int pg_txn_failed(const struct db *db)
{
    if (!db->in_txn)
        return 0;
    if (db->pg_pipe && db->pg_pipe->broken)
        return 1;
    /* With a batch's answers unread the server is busy: a failure among
     * them is read with them (pg_pipe_end). */
    return !pg_pipe_pending(db) && PQ(PQtransactionStatus)(db->pg) != PQTRANS_INTRANS;
}

/* A statement while the caller's transaction failed or ended behind db/'s
 * back: refused, as on SQLite (struct db). Nonzero, with the message. */
static int pg_txn_lost(struct db *db)
{
    if (!pg_txn_failed(db))
        return 0;
    db_fail(db, "the transaction was rolled back after an earlier error; db_rollback ends it");
    return 1;
}

/* ------------------------------------------------------------ statements */

struct dbs *dbs_pg_table(struct db *db, int which)
{
    struct dbs *q = &db->tab[which];

    if (!q->pg) {
        char name[16];
        const char *sql = pg_own_sql(which);
        snprintf(name, sizeof(name), "s%d", which);
        q->db = db;
        q->owner = DBS_OWN_TABLE;
        q->pg = pg_side_new(sql ? sql : db_stmt_text(which), name);
        if (!sql && db_stmt_returns_id(which))
            pg_side_returns_id(q->pg);
        /* A league turn's bout, whose id the turn waits for: the rows a
         * batch holds (its orders, ratings, fighters) never depend on a
         * later bout, nor it on them, so they wait for more rows. */
        q->pg->alongside = which == STMT_BOUT_INSERT;
    }
    return q;
}

static int pg_pipe_flush(struct db *db);
static int pg_rows_send_all(struct db *db);
static void pg_rows_drop(struct db *db);

/* PQprepare's q under its name, once: DBS_DONE, or DBS_ERR with the
 * message. */
static int pg_prepare_try(struct dbs *q)
{
    struct dbs_pg *p = q->pg;
    if (pg_pipe_flush(q->db) != DB_OK)
        return DBS_ERR; /* PQprepare waits: not in a pipeline */
    if (!p->name[0])
        q->db->pg_unnamed = NULL; /* the slot is taken, even by a failure */
    PGresult *res = PQ(PQprepare)(q->db->pg, p->name, p->text, p->nparams, p->types);
    int rc = DBS_DONE;

    if (PQ(PQresultStatus)(res) != PGRES_COMMAND_OK)
        rc = pg_fail(q, res);
    else
        p->prepared = 1;
    PQ(PQclear)(res);
    return rc;
}

static void pg_reconnect(struct db *db);

/* The same, trying again on a new session if the connection was lost
 * (unless that lost the caller's transaction: then the step refuses). */
static int pg_prepare_now(struct dbs *q)
{
    if (pg_prepare_try(q) == DBS_DONE)
        return DBS_DONE;
    if (PQ(PQstatus)(q->db->pg) != CONNECTION_BAD)
        return DBS_ERR;
    pg_reconnect(q->db);
    if (PQ(PQstatus)(q->db->pg) != CONNECTION_OK || pg_txn_failed(q->db))
        return DBS_ERR;
    return pg_prepare_try(q);
}

/* Prepares every statement of db.c's table, as SQLite's open does, so none
 * is prepared inside a caller's transaction (where a refusal would fail
 * it). One the server refuses is remembered, with why, and each of its
 * steps fails with that; the others work. */
static void pg_table_prepare(struct db *db)
{
    for (int i = 0; i < STMT_COUNT; i++) {
        struct dbs *q = dbs_pg_table(db, i);
        if (pg_prepare_try(q) == DBS_DONE)
            continue;
        char why[sizeof(db->err)];
        snprintf(why, sizeof(why), "%s", db->err);
        db_fail(db, "statement %d cannot run on PostgreSQL: %s", i, why);
        q->pg->unfit = xstrdup(db->err);
        q->rc = DBS_E_NONE;
    }
    db->err[0] = '\0';
}

/* The kept statement of `sql` (by its address), made and prepared on the
 * first call; NULL past DB_KEPT_MAX, or on an error (db->err says it). */
static struct dbs *pg_kept(struct db *db, const char *sql, int *full)
{
    for (int i = 0; i < db->nkept; i++)
        if (db->kept[i].sql == sql)
            return &db->kept_q[i];
    *full = db->nkept == DB_KEPT_MAX;
    if (*full)
        return NULL;

    struct dbs *q = &db->kept_q[db->nkept];
    char name[16];
    snprintf(name, sizeof(name), "k%d", db->nkept);
    q->db = db;
    q->owner = DBS_OWN_KEPT;
    q->pg = pg_side_new(sql, name);
    if (!pg_txn_failed(db) && pg_prepare_now(q) != DBS_DONE && !pg_txn_failed(db)) {
        pg_side_free(q->pg);
        q->pg = NULL;
        return NULL;
    }
    db->kept[db->nkept++].sql = sql;
    return q;
}

struct dbs *dbs_pg_prepare(struct db *db, const char *sql, int kept)
{
    int full = 0;

    if (kept) {
        struct dbs *q = pg_kept(db, sql, &full);
        if (q || !full)
            return q;
    }
    struct dbs *q = xcalloc(1, sizeof(*q));
    q->db = db;
    q->owner = DBS_OWN_ONCE;
    q->pg = pg_side_new(sql, "");
    /* In a failed transaction the server prepares nothing: the statement
     * is made all the same, and its step says why it cannot run (as on
     * SQLite, where preparing never depends on the transaction). */
    if (pg_txn_failed(db))
        return q;
    if (pg_prepare_now(q) != DBS_DONE) {
        if (pg_txn_failed(db))
            return q; /* the connection was lost, and the transaction */
        pg_side_free(q->pg);
        free(q);
        return NULL;
    }
    db->pg_unnamed = q;
    return q;
}

static int pg_simple(struct db *db, const char *sql, char *out, size_t size);
static int pg_lease_lock(struct db *db);

/* What every statement of a connection without its network lease says:
 * lost for good, or away while the server cannot be reached (struct db). */
static int pg_lease_refuse(struct db *db)
{
    if (!db->lease_lost)
        return db_fail(db, "the database cannot be reached: nothing is stored until it is back");
    return db_fail(db, "the network lease is lost: nothing more is stored on this connection");
}

static void pg_quiet(void *arg, const char *message);

/* Seconds on a monotonic clock. */
static double pg_clock(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A new session on the same parameters as db->pg, given at most `limit`
 * seconds (at least 1): a new connection polled to its end, which replaces
 * db->pg once made (db->pg stays the failed one otherwise). PQreset would
 * wait for connect_timeout (10 s, and libpq rounds anything under 2 s up),
 * and it runs on the bot's loop: a bot cut off from the server served no
 * IRC for that long at each try, and stepped down only after two of them
 * (about 22 s at failover_seconds = 6, e2e_cluster). With the lease held,
 * the loop's own checks try again, so a short try costs nothing. A failed
 * try leaves its reason in why[size]. */
static void pg_reset_within(struct db *db, double limit, char *why, size_t size)
{
    PQconninfoOption *opts = PQ(PQconninfo)(db->pg);
    if (!opts)
        return;
    int n = 0;
    for (PQconninfoOption *o = opts; o->keyword; o++)
        n++;
    const char **keys = xcalloc((size_t)n + 1, sizeof(*keys));
    const char **values = xcalloc((size_t)n + 1, sizeof(*values));
    int k = 0;
    for (PQconninfoOption *o = opts; o->keyword; o++)
        if (o->val && o->val[0]) {
            keys[k] = o->keyword;
            values[k++] = o->val;
        }
    PGconn *c = PQ(PQconnectStartParams)(keys, values, 0);
    free(keys);
    free(values);
    PQ(PQconninfoFree)(opts);
    if (!c)
        xoom();
    double until = pg_clock() + (limit < 1 ? 1 : limit);
    PostgresPollingStatusType st = PGRES_POLLING_WRITING;
    while (PQ(PQstatus)(c) != CONNECTION_BAD && st != PGRES_POLLING_OK &&
           st != PGRES_POLLING_FAILED) {
        int ms = (int)((until - pg_clock()) * 1000);
        struct pollfd p = {PQ(PQsocket)(c), st == PGRES_POLLING_READING ? POLLIN : POLLOUT, 0};
        if (ms <= 0 || p.fd < 0 || poll(&p, 1, ms) == 0)
            break; /* out of time: the try is given up */
        st = PQ(PQconnectPoll)(c);
    }
    if (st != PGRES_POLLING_OK || PQ(PQstatus)(c) != CONNECTION_OK) {
        /* Why this try failed, not the lost session's last words. */
        const char *e = PQ(PQerrorMessage)(c);
        if (PQ(PQstatus)(c) == CONNECTION_BAD || (e && *e))
            pg_one_line(why, size, e ? e : "");
        else
            snprintf(why, size, "no answer within %.1f s", limit < 1 ? 1 : limit);
        PQ(PQfinish)(c);
        return;
    }
    PQ(PQfinish)(db->pg);
    db->pg = c;
    PQ(PQsetNoticeProcessor)(db->pg, pg_quiet, NULL);
}

/* After a failure that lost the connection (the server restarted, or
 * ended this session): connects again, once, and prepares the table
 * again, so the next statements work. The failed one stays failed, and a
 * transaction it was in is lost (refused until db_rollback, struct db).
 * db->err keeps the failure's message. A connection that held the
 * network lease takes it again on the new session before anything else
 * runs there: if another process holds it now, it is lost for good; if
 * the server cannot be reached (or the lock not asked), it is away, and
 * only db_lease_check tries again (db_lease_take). */
static void pg_reconnect(struct db *db)
{
    char why[sizeof(db->err)];

    if (PQ(PQstatus)(db->pg) != CONNECTION_BAD || db->lease_lost || db->lease_away)
        return;
    snprintf(why, sizeof(why), "%s", db->err);
    char failed[sizeof(db->err)] = "";
    if (db->lease_asked)
        pg_reset_within(db, db->lease_seconds > 0 ? db->lease_seconds / 4.0 : 7.5, failed,
                        sizeof(failed));
    else
        PQ(PQreset)(db->pg);
    int lock = DB_ERROR;
    if (db->lease_asked && PQ(PQstatus)(db->pg) != CONNECTION_OK) {
        struct dbs tmp = {.db = db};
        if (failed[0])
            db_fail(db, "%s", failed);
        else
            pg_fail(&tmp, NULL);
        snprintf(why, sizeof(why), "the database cannot be reached: %.400s", db->err);
        db->lease_away = 1;
    } else if (db->lease_asked && (lock = pg_lease_lock(db)) != DB_OK) {
        snprintf(why, sizeof(why), "%s",
                 lock == DB_EXISTS ? "another ringside took the network lease while this one's "
                                     "session was lost"
                                   : "the network lease cannot be taken again on a new session");
        db->lease_lost = lock == DB_EXISTS;
        db->lease_away = lock != DB_EXISTS;
    } else if (PQ(PQstatus)(db->pg) == CONNECTION_OK) {
        db->pg_unnamed = NULL;
        for (int i = 0; i < STMT_COUNT; i++)
            if (db->tab[i].pg) {
                db->tab[i].pg->prepared = 0;
                free(db->tab[i].pg->unfit);
                db->tab[i].pg->unfit = NULL;
            }
        for (int i = 0; i < db->nkept; i++)
            db->kept_q[i].pg->prepared = 0;
        if (!db->pg_readonly ||
            pg_simple(db, "SET default_transaction_read_only = on", NULL, 0) == DB_OK)
            pg_table_prepare(db);
    }
    snprintf(db->err, sizeof(db->err), "%s", why);
}

/* ------------------------------------------------ batches (pipelining) */

/* One answer of the pipeline (i of n, the caller's q last when it is
 * there): checked into *failed (the first failure's message in db->err,
 * its kind in who->rc), and q's result kept in *res. 0, or -1 when the
 * connection was lost (nothing more can be read). */
static int pg_pipe_answer(struct db *db, struct dbs *who, int i, int n, PGresult **res, int *failed)
{
    PGresult *r = PQ(PQgetResult)(db->pg);
    ExecStatusType st = PQ(PQresultStatus)(r);

    if (!r || PQ(PQstatus)(db->pg) == CONNECTION_BAD) {
        if (!*failed)
            pg_fail(who, r);
        *failed = 1;
        PQ(PQclear)(r);
        return -1;
    }
    if (st == PGRES_PIPELINE_ABORTED) {
        /* after a failure already counted */
    } else if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        if (!*failed)
            pg_fail(who, r);
        *failed = 1;
    } else if (i == n && res) {
        *res = r;
        r = NULL;
    } else if (i < n && strtoll(PQ(PQcmdTuples)(r), NULL, 10) < db->pg_pipe->want[i] && !*failed) {
        /* What the write's caller would have called a row not found. */
        db_fail(db, "a batched write found %s of its %d rows: %s", PQ(PQcmdTuples)(r),
                db->pg_pipe->want[i], db->pg_pipe->sql[i]);
        who->rc = DBS_E_OTHER;
        db->pg_pipe->broken = 1;
        *failed = 1;
    }
    PQ(PQclear)(r);
    PQ(PQclear)(PQ(PQgetResult)(db->pg)); /* the NULL that ends a query's answer */
    return 0;
}

/* Ends the pipeline: sends q's execution (when q is not NULL: a prepared
 * statement whose result the caller wants) and a sync, reads the answers
 * of the writes sent before it, then q's, and leaves pipeline mode.
 * DB_OK with q's result in *res (the caller's to clear), or DB_ERROR with
 * the first failure (a write the server refused or that changed no row,
 * or the connection lost: then made again, pg_reconnect) in db->err and
 * its kind in q->rc. */
static int pg_pipe_end(struct db *db, struct dbs *q, PGresult **res)
{
    struct pg_pipe *pp = db->pg_pipe;
    struct dbs tmp = {.db = db};
    struct dbs *who = q ? q : &tmp;
    int n = pp->n, failed = 0, lost = 0;

    pp->n = 0;
    if (res)
        *res = NULL;
    int sent = !q || PQ(PQsendQueryPrepared)(db->pg, q->pg->name, q->pg->nparams, q->pg->pv, NULL,
                                             NULL, 0);
    if (!PQ(PQpipelineSync)(db->pg))
        lost = 1;
    for (int i = 0; !lost && i < n + (q && sent); i++)
        lost = pg_pipe_answer(db, who, i, n, res, &failed) != 0;
    if (!lost) {
        PGresult *sync = PQ(PQgetResult)(db->pg);
        lost = PQ(PQresultStatus)(sync) != PGRES_PIPELINE_SYNC;
        PQ(PQclear)(sync);
    }
    if (!lost && !PQ(PQexitPipelineMode)(db->pg))
        lost = 1;
    if (lost || !sent) {
        if (!failed)
            pg_fail(who, NULL);
        failed = 1;
        pg_reconnect(db); /* a new session leaves pipeline mode */
    }
    if (failed && res) {
        PQ(PQclear)(*res);
        *res = NULL;
    }
    return failed ? DB_ERROR : DB_OK;
}

/* Reads the answers of db's batch so far: DB_OK (also with none), or
 * DB_ERROR with the first failure in db->err (pg_pipe_end). */
static int pg_pipe_flush(struct db *db)
{
    return pg_pipe_pending(db) ? pg_pipe_end(db, NULL, NULL) : DB_OK;
}

/* Sends q (prepared, named, its parameters bound) into the pipeline
 * without waiting (entering pipeline mode first if the connection is not
 * in it): DBS_DONE, or DBS_ERR with the message (the pipeline's answers so
 * far read first, when the batch is full or the send failed). */
static int pg_pipe_send(struct dbs *q)
{
    struct db *db = q->db;
    struct pg_pipe *pp = db->pg_pipe;
    struct dbs_pg *p = q->pg;

    if (PQ(PQpipelineStatus)(db->pg) == PQ_PIPELINE_OFF && !PQ(PQenterPipelineMode)(db->pg))
        return pg_fail(q, NULL);
    if (!PQ(PQsendQueryPrepared)(db->pg, p->name, p->nparams, p->pv, NULL, NULL, 0)) {
        pg_fail(q, NULL);
        pg_pipe_end(db, NULL, NULL);
        return DBS_ERR;
    }
    pp->want[pp->n] = p->rows > 0 ? p->rows : 1;
    pp->sql[pp->n++] = p->sql;
    if (pp->n < PG_PIPE_MAX)
        return DBS_DONE;
    return pg_pipe_end(db, NULL, NULL) == DB_OK ? DBS_DONE : DBS_ERR;
}

/* What must hold before q runs (db.c's rules: a failed bind, a lost
 * transaction, the fault hook, which never fails a ROLLBACK; the lease; a
 * statement the server refused at open), with the rows a batch holds
 * written first and q prepared: 0, or DBS_ERR with the message. */
static int pg_exec_ready(struct dbs *q)
{
    struct db *db = q->db;
    struct dbs_pg *p = q->pg;

    /* The rows a batch holds are written before anything else runs (in
     * the order they were first added: pg_rows_send_all sends q's own). */
    if (!p->alongside && p->rows == 0 && pg_rows_send_all(db) != DBS_DONE)
        return DBS_ERR;
    if (db->lease_lost || db->lease_away) {
        pg_lease_refuse(db);
        return DBS_ERR;
    }
    if (q->bad) {
        db_fail(db, "cannot bind the parameters of: %s", p->sql);
        return DBS_ERR;
    }
    if (pg_txn_lost(db) || (q != &db->tab[STMT_ROLLBACK] && db_fault_now(db)))
        return DBS_ERR;
    if (p->unfit) {
        db_fail(db, "%s", p->unfit);
        return DBS_ERR;
    }
    /* The unnamed statement and a first preparation wait for every
     * answer: they are not sent in the pipeline. */
    if (pg_pipe_pending(db) && (!p->name[0] || !p->prepared) && pg_pipe_flush(db) != DB_OK)
        return DBS_ERR;
    if (p->name[0] && !p->prepared && pg_prepare_now(q) != DBS_DONE)
        return DBS_ERR;
    return 0;
}

/* Runs q with its parameters and keeps the result: DBS_DONE, or DBS_ERR
 * with the message (pg_exec_ready first). With `defer` (a statement of
 * rows, pg_rows_send) q is only sent, and p->res stays NULL:
 * pg_pipe_send. A statement that waits for its answer while a batch's are
 * unread goes after them in the same round trip. */
static int pg_exec(struct dbs *q, int defer)
{
    struct db *db = q->db;
    struct dbs_pg *p = q->pg;

    q->rc = DBS_E_OTHER;
    if (pg_exec_ready(q) != 0)
        return DBS_ERR;
    PGresult *res;
    if (defer && p->name[0]) {
        if (pg_pipe_send(q) != DBS_DONE)
            return DBS_ERR;
        q->rc = DBS_E_NONE;
        return DBS_DONE;
    }
    if (pg_pipe_pending(db)) {
        if (pg_pipe_end(db, q, &res) != DB_OK)
            return DBS_ERR;
    } else if (p->name[0] || db->pg_unnamed == q) {
        res = PQ(PQexecPrepared)(db->pg, p->name, p->nparams, p->pv, NULL, NULL, 0);
    } else {
        /* Parsed again, in the unnamed slot another statement held. */
        db->pg_unnamed = NULL;
        res = PQ(PQexecParams)(db->pg, p->text, p->nparams, p->types, p->pv, NULL, NULL, 0);
    }
    ExecStatusType st = PQ(PQresultStatus)(res);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        pg_fail(q, res);
        PQ(PQclear)(res);
        pg_reconnect(db);
        return DBS_ERR;
    }
    PQ(PQclear)(p->res);
    p->res = res;
    p->row = -1;
    p->nrows = PQ(PQntuples)(res);
    q->rc = DBS_E_NONE;
    return DBS_DONE;
}

int dbs_pg_step(struct dbs *q)
{
    struct dbs_pg *p = q->pg;

    if (!p->res && pg_exec(q, 0) != DBS_DONE)
        return DBS_ERR;
    if (p->row + 1 < p->nrows) {
        p->row++;
        return DBS_ROW;
    }
    p->row = p->nrows;
    return DBS_DONE;
}

static int pg_bout_row(struct dbs *q, int *done);

/* The ids of the next n bouts, drawn in ascending order: the order in
 * which one nextval a bout draws them when nobody else draws. */
static const char bout_ids_sql[] =
    "SELECT nextval(pg_get_serial_sequence('bouts', 'id')) FROM generate_series(1, ?1) ORDER BY 1";

int db_pg_bout_ids(struct db *db, int n)
{
    struct pg_pipe *pp = db->pg_pipe;

    if (n <= 0 || !dbs_rows_open(db))
        return DB_OK; /* each bout then draws its own */
    struct dbs *q = dbs_pg_prepare(db, bout_ids_sql, 1);
    if (!q)
        return DB_ERROR;
    q->pg->alongside = 1; /* the rows held stay held */
    /* Ids left from before (a failed turn's) are not taken again. */
    pp->ids = xrealloc(pp->ids, (size_t)n * sizeof(*pp->ids));
    pp->nids = pp->next = 0;
    dbs_pg_bind_int64(q, 1, n);
    int step = DBS_DONE;
    while (pp->nids < n && (step = dbs_pg_step(q)) == DBS_ROW)
        pp->ids[pp->nids++] = dbs_pg_col_int64(q, 0);
    int rc = pp->nids == n ? DB_OK : DB_ERROR;
    if (rc != DB_OK && step != DBS_ERR)
        db_fail(db, "drawing %d bouts' ids gave %d", n, pp->nids);
    if (rc != DB_OK)
        pp->nids = 0;
    dbs_pg_free(q);
    return rc;
}

int dbs_pg_run(struct dbs *q)
{
    struct dbs_pg *p = q->pg;
    int done = 0;
    if (q == &q->db->tab[STMT_BOUT_INSERT] && dbs_rows_open(q->db)) {
        int rc = pg_bout_row(q, &done);
        if (done)
            return rc;
    }
    int rc = pg_exec(q, 0);

    p->has_id = 0;
    if (rc == DBS_DONE) {
        p->changes = strtoll(PQ(PQcmdTuples)(p->res), NULL, 10);
        int col = PQ(PQfnumber)(p->res, "id");
        if (p->nrows > 0 && !p->returning) {
            db_fail(q->db, "a write returned rows: %s", p->sql);
            q->rc = DBS_E_OTHER;
            rc = DBS_ERR;
        } else if (p->nrows > 0 && col >= 0 && !PQ(PQgetisnull)(p->res, 0, col)) {
            p->id = strtoll(PQ(PQgetvalue)(p->res, 0, col), NULL, 10);
            p->has_id = 1;
        }
    }
    dbs_pg_reset(q);
    return rc;
}

/* ------------------------------------------ rows written in one statement */

/* Appends `v` (NULL for NULL) to an array's text as its element number
 * `row` (from 0): quoted, its quotes and backslashes escaped, so any text
 * and any number read back as they were bound. */
static void pg_rows_element(struct str *a, const char *v, int row)
{
    if (row > 0)
        str_ch(a, ',');
    if (!v) {
        str_cat(a, "NULL");
        return;
    }
    str_ch(a, '"');
    for (; *v; v++) {
        if (*v == '"' || *v == '\\')
            str_ch(a, '\\');
        str_ch(a, *v);
    }
    str_ch(a, '"');
}

/* Writes the rows q holds: each parameter the SQL uses bound to the array
 * of its rows' values, sent in the batch's pipeline (or run at once for a
 * statement that is not kept). DBS_DONE, or DBS_ERR with the message; the
 * rows are forgotten either way. Fewer rows changed than held fails the
 * transaction (pg_pipe_answer). */
static int pg_rows_send(struct dbs *q)
{
    struct db *db = q->db;
    struct dbs_pg *p = q->pg;
    struct pg_pipe *pp = db->pg_pipe;

    for (int i = 0; i < pp->nheld; i++)
        if (pp->held[i] == q) {
            memmove(&pp->held[i], &pp->held[i + 1], (size_t)(pp->nheld - i - 1) * sizeof(q));
            pp->nheld--;
            break;
        }
    for (int i = 0; i < p->nparams; i++) {
        free(p->own[i]);
        p->own[i] = NULL;
        p->pv[i] = NULL;
        if (p->types[i] != 0)
            continue; /* a number the SQL skips: NULL */
        struct str a;
        str_init(&a);
        str_ch(&a, '{');
        str_cat(&a, p->arr[i].p);
        str_ch(&a, '}');
        p->own[i] = str_take(&a, NULL);
        p->pv[i] = p->own[i];
        str_clear(&p->arr[i]);
    }
    int want = p->rows, defer = p->name[0] && q->owner != DBS_OWN_ONCE;
    int rc = pg_exec(q, defer);
    if (rc == DBS_DONE && !defer && strtoll(PQ(PQcmdTuples)(p->res), NULL, 10) < want) {
        db_fail(db, "a batched write found %s of its %d rows: %s", PQ(PQcmdTuples)(p->res), want,
                p->sql);
        rc = DBS_ERR;
    }
    p->rows = 0;
    dbs_pg_reset(q);
    return rc;
}

/* Writes the rows every statement of db's batch holds: DBS_DONE, or
 * DBS_ERR with the first failure (the others' rows then forgotten). */
static int pg_rows_send_all(struct db *db)
{
    struct pg_pipe *pp = db->pg_pipe;

    while (pp && pp->nheld > 0)
        if (pg_rows_send(pp->held[0]) != DBS_DONE) {
            pg_rows_drop(db);
            return DBS_ERR;
        }
    return DBS_DONE;
}

/* Forgets the rows of db's batch, unwritten (its transaction is rolled
 * back). */
static void pg_rows_drop(struct db *db)
{
    struct pg_pipe *pp = db->pg_pipe;

    for (int k = 0; pp && k < pp->nheld; k++) {
        struct dbs_pg *p = pp->held[k]->pg;
        for (int i = 0; i < p->nparams; i++)
            str_clear(&p->arr[i]);
        p->rows = 0;
    }
    if (pp)
        pp->nheld = 0;
}

int dbs_rows_open(struct db *db)
{
    return db->backend == DB_BACKEND_PG && db->pg_pipe && db->pg_pipe->open && db->in_txn;
}

int dbs_rows_add(struct dbs *q)
{
    struct db *db = q->db;
    struct dbs_pg *p = q->pg;
    struct pg_pipe *pp = db->pg_pipe;

    if (!p || !dbs_rows_open(db) || q->bad) {
        db_fail(db, "%s: %s", p && q->bad ? "cannot bind the parameters of" : "cannot add a row to",
                p ? p->sql : "a SQLite statement");
        if (q->pg)
            dbs_pg_reset(q);
        return DBS_ERR;
    }
    if (p->rows == 0) {
        if (pp->nheld == PG_ROWS_KINDS && pg_rows_send_all(db) != DBS_DONE) {
            dbs_pg_reset(q);
            return DBS_ERR;
        }
        pp->held[pp->nheld++] = q;
    }
    if (!p->arr) {
        p->arr = xcalloc((size_t)(p->nparams > 0 ? p->nparams : 1), sizeof(*p->arr));
        for (int i = 0; i < p->nparams; i++)
            str_init(&p->arr[i]);
    }
    for (int i = 0; i < p->nparams; i++)
        if (p->types[i] == 0)
            pg_rows_element(&p->arr[i], p->pv[i], p->rows);
    p->rows++;
    p->changes = 1; /* or the transaction fails (pg_pipe_answer) */
    dbs_pg_reset(q);
    if (p->rows < PG_ROWS_MAX && q->owner != DBS_OWN_ONCE)
        return DBS_DONE;
    /* All of them, in the order they were first added: a bout's row goes
     * before the rows that refer to it (its orders, its ratings' history). */
    return pg_rows_send_all(db);
}

/* A league turn's bout (STMT_BOUT_INSERT) as a row of its batch: the id
 * the INSERT would have drawn from the table's identity is drawn first
 * (the one round trip of a bout, which reads the batch's answers so far
 * too; the rows held stay held), and the row, with it, waits with the
 * others: one INSERT of many bouts. */
static const char bout_id_sql[] = "SELECT nextval(pg_get_serial_sequence('bouts', 'id'))";
#define BA(n) "CAST(?" #n " AS BIGINT[])"
#define TA(n) "CAST(?" #n " AS TEXT[])"
static const char bout_rows_sql[] =
    "INSERT INTO bouts (id, rules, channel, rounds, seed, state, fighter_a, fighter_b, round,"
    " winner, method, drawn_by, reason, decision, created, started, ended, sheet_a, sheet_b,"
    " kind, turn, league, digest, network) SELECT * FROM unnest(" BA(1) "," TA(2) "," TA(3) "," BA(4) "," BA(5) "," TA(6) "," BA(7) "," BA(8) "," BA(9) "," BA(10) "," TA(
        11) "," TA(12) "," TA(13) "," TA(14) "," BA(15) "," BA(16) "," BA(17) "," TA(18) "," TA(19) "," TA(20) "," BA(21) "," TA(22) "," BA(23) "," TA(24) ")";

/* Runs STMT_BOUT_INSERT q (bound) so, when its batch is open: DBS_DONE
 * with the id for dbs_insert_id, or DBS_ERR with the message; 1 into
 * *done, or 0 (nothing done) when the statements cannot be kept. */
static int pg_bout_row(struct dbs *q, int *done)
{
    struct db *db = q->db;
    struct dbs_pg *p = q->pg;
    struct dbs *id = dbs_pg_prepare(db, bout_id_sql, 1);
    struct dbs *r = dbs_pg_prepare(db, bout_rows_sql, 1);
    struct pg_pipe *pp = db->pg_pipe;
    int rc = DBS_ERR;

    *done = id && r && id->owner == DBS_OWN_KEPT && r->owner == DBS_OWN_KEPT && !q->bad;
    if (*done) {
        id->pg->alongside = 1; /* the rows held stay held */
        if (pp->next < pp->nids || dbs_pg_step(id) == DBS_ROW) {
            p->id = pp->next < pp->nids ? pp->ids[pp->next++] : dbs_pg_col_int64(id, 0);
            for (int i = 2; i <= p->nparams && i <= r->pg->nparams; i++)
                dbs_pg_bind_text(r, i, p->pv[i - 1], 1);
            dbs_pg_bind_int64(r, 1, p->id);
            rc = dbs_rows_add(r);
        }
        p->has_id = rc == DBS_DONE;
        p->changes = 1;
        q->rc = rc == DBS_DONE ? DBS_E_NONE : DBS_E_OTHER;
        dbs_pg_reset(q);
    }
    dbs_pg_free(id);
    dbs_pg_free(r);
    return rc;
}

void db_pg_batch(struct db *db, int on)
{
    if (!pq.pipe)
        return; /* a libpq before 14: every write waits, as before */
    if (on && !db->pg_pipe)
        db->pg_pipe = xcalloc(1, sizeof(*db->pg_pipe));
    if (!on && db->pg_pipe && pg_rows_send_all(db) == DBS_DONE)
        pg_pipe_flush(db);
    if (db->pg_pipe)
        db->pg_pipe->open = on;
}

int64_t dbs_pg_changes(const struct dbs *q)
{
    return q->pg->changes;
}

int64_t dbs_pg_insert_id(const struct dbs *q)
{
    if (q->pg->has_id)
        return q->pg->id;
    /* An INSERT without RETURNING id: the identity it drew is the
     * session's last sequence value. */
    if (pg_pipe_flush(q->db) != DB_OK)
        return 0;
    q->db->pg_unnamed = NULL; /* a simple query takes the unnamed slot */
    PGresult *res = PQ(PQexec)(q->db->pg, "SELECT lastval()");
    int64_t id = 0;

    if (PQ(PQresultStatus)(res) == PGRES_TUPLES_OK && PQ(PQntuples)(res) == 1)
        id = strtoll(PQ(PQgetvalue)(res, 0, 0), NULL, 10);
    PQ(PQclear)(res);
    return id;
}

void dbs_pg_reset(struct dbs *q)
{
    pg_side_clear(q->pg);
    q->bad = 0;
}

void dbs_pg_free(struct dbs *q)
{
    if (q->owner != DBS_OWN_ONCE) {
        dbs_pg_reset(q);
        return;
    }
    if (q->db->pg_unnamed == q)
        q->db->pg_unnamed = NULL;
    pg_side_free(q->pg);
    free(q);
}

/* -------------------------------------------------------------- binding */

/* The slot of parameter n, or NULL (remembered as a failed bind). */
static struct dbs_pg *pg_param(struct dbs *q, int n)
{
    if (n < 1 || n > q->pg->nparams) {
        q->bad = 1;
        return NULL;
    }
    free(q->pg->own[n - 1]);
    q->pg->own[n - 1] = NULL;
    return q->pg;
}

void dbs_pg_bind_int64(struct dbs *q, int n, int64_t v)
{
    struct dbs_pg *p = pg_param(q, n);

    if (p) {
        snprintf(p->num[n - 1], sizeof(p->num[n - 1]), "%" PRId64, v);
        p->pv[n - 1] = p->num[n - 1];
    }
}

void dbs_pg_bind_double(struct dbs *q, int n, double v)
{
    struct dbs_pg *p = pg_param(q, n);

    if (!p)
        return;
    /* PostgreSQL's words for what printf writes "inf" and "nan". */
    if (isnan(v))
        snprintf(p->num[n - 1], sizeof(p->num[n - 1]), "NaN");
    else if (isinf(v))
        snprintf(p->num[n - 1], sizeof(p->num[n - 1]), "%sInfinity", v < 0 ? "-" : "");
    else
        snprintf(p->num[n - 1], sizeof(p->num[n - 1]), "%.17g", v);
    p->pv[n - 1] = p->num[n - 1];
}

void dbs_pg_bind_text(struct dbs *q, int n, const char *s, int copy)
{
    struct dbs_pg *p = pg_param(q, n);

    if (!p)
        return;
    if (s && copy)
        p->own[n - 1] = xstrdup(s);
    p->pv[n - 1] = p->own[n - 1] ? p->own[n - 1] : s;
}

/* ------------------------------------------------------------- reading */

/* The text of column `col` of the current row, or NULL (NULL, or no row). */
const char *dbs_pg_col_text(struct dbs *q, int col)
{
    struct dbs_pg *p = q->pg;

    if (!p->res || p->row < 0 || p->row >= p->nrows || col < 0 || col >= PQ(PQnfields)(p->res) ||
        PQ(PQgetisnull)(p->res, p->row, col))
        return NULL;
    return PQ(PQgetvalue)(p->res, p->row, col);
}

int dbs_pg_col_is_null(struct dbs *q, int col)
{
    return dbs_pg_col_text(q, col) == NULL;
}

int64_t dbs_pg_col_int64(struct dbs *q, int col)
{
    const char *s = dbs_pg_col_text(q, col);

    /* A boolean (a comparison's value) reads as SQLite's 1 and 0. */
    if (!s || strcmp(s, "f") == 0)
        return 0;
    if (strcmp(s, "t") == 0)
        return 1;
    return strtoll(s, NULL, 10);
}

double dbs_pg_col_double(struct dbs *q, int col)
{
    const char *s = dbs_pg_col_text(q, col);

    return s ? strtod(s, NULL) : 0.0;
}

int dbs_pg_col_copy(struct dbs *q, int col, char *dst, size_t size, const char *what)
{
    const char *s = dbs_pg_col_text(q, col);

    if (size == 0)
        return db_fail(q->db, "no room for %s", what);
    if (!s)
        return db_fail(q->db, "%s is NULL in the database", what);
    size_t n = strlen(s);
    if (n >= size)
        return db_fail(q->db, "%s is %zu bytes in the database, the most is %zu", what, n,
                       size - 1);
    memcpy(dst, s, n + 1);
    return DB_OK;
}

int dbs_pg_col_name(struct dbs *q, int col, const struct db_names *t, const char *row, int64_t id,
                    int *out)
{
    const char *s = dbs_pg_col_text(q, col);

    for (int i = 0; s && i < t->count; i++)
        if (t->names[i] && strcmp(t->names[i], s) == 0) {
            *out = i;
            return DB_OK;
        }
    return db_fail(q->db, "%s %" PRId64 " has %s '%s', which this ringside does not know", row, id,
                   t->what, s ? s : "NULL");
}

/* --------------------------------------------------------- transactions */

int db_pg_begin(struct db *db, int read)
{
    pg_rows_drop(db);
    if (db->pg_pipe)
        db->pg_pipe->broken = db->pg_pipe->nids = db->pg_pipe->next = 0;
    if (db->in_txn || PQ(PQtransactionStatus)(db->pg) != PQTRANS_IDLE)
        return db_fail(db, "%s: a transaction is already open (they do not nest)",
                       read ? "db_read_begin" : "db_begin");
    if (dbs_run(dbs_table(db, read ? STMT_BEGIN_READ : STMT_BEGIN)) != DBS_DONE)
        return DB_ERROR;
    db->in_txn = 1;
    return DB_OK;
}

int db_pg_commit(struct db *db, int read)
{
    if (!db->in_txn)
        return db_fail(db, "%s: no transaction is open", read ? "db_read_end" : "db_commit");
    /* The batch's answers first: a failure among them fails the commit,
     * and the caller's db_rollback ends the transaction. */
    if (pg_rows_send_all(db) != DBS_DONE || pg_pipe_flush(db) != DB_OK ||
        (db->pg_pipe && db->pg_pipe->broken)) {
        if (read)
            db->in_txn = 0; /* a read has no db_rollback after */
        return DB_ERROR;
    }
    if (db->pg_pipe)
        db->pg_pipe->nids = db->pg_pipe->next = 0;
    PGTransactionStatusType st = PQ(PQtransactionStatus)(db->pg);
    if (read) {
        db->in_txn = 0;
        if (st == PQTRANS_IDLE)
            return DB_OK; /* ended already (an error): nothing held */
    } else if (st != PQTRANS_INTRANS) {
        /* Left to db_rollback, which keeps this message (db.c). */
        return db_fail(db, "db_commit: the transaction was rolled back after an earlier error");
    }
    if (dbs_run(dbs_table(db, STMT_COMMIT)) != DBS_DONE)
        return DB_ERROR;
    db->in_txn = 0;
    return DB_OK;
}

int db_pg_rollback(struct db *db)
{
    if (!db->in_txn)
        return db_fail(db, "db_rollback: no transaction is open");
    /* What a batch holds is forgotten, and what it still has unread is
     * read, a failure kept in db->err. */
    pg_rows_drop(db);
    if (pg_pipe_pending(db)) {
        char why[sizeof(db->err)];
        snprintf(why, sizeof(why), "%s", db->err);
        pg_pipe_flush(db);
        snprintf(db->err, sizeof(db->err), "%s", why);
    }
    if (db->pg_pipe) /* ids drawn ahead and not taken are not taken later */
        db->pg_pipe->broken = db->pg_pipe->nids = db->pg_pipe->next = 0;
    db->in_txn = 0;
    /* Ended already (a failed COMMIT): db->err keeps what went wrong. */
    if (PQ(PQtransactionStatus)(db->pg) == PQTRANS_IDLE)
        return DB_OK;
    return dbs_run(dbs_table(db, STMT_ROLLBACK)) == DBS_DONE ? DB_OK : DB_ERROR;
}

/* ---------------------------------------------------------------- lease */

/* The advisory locks' class (the first of their two keys) for network
 * leases: "RING" in ASCII. The second is hashtext of db->lease_key. The
 * schema lock (PG_SCHEMA_LOCK) is a one-key lock, which never meets a
 * two-key one. */
#define PG_LEASE_CLASS "1380535879"

/* The keepalives of this session, from db->lease_seconds (F): both ends
 * probe a quiet connection after F/4 s, then every F/12 s, and give up
 * after 2 probes unanswered, or after F/4 s of data unacknowledged
 * (TCP_USER_TIMEOUT): a peer cut off loses its session within about
 * F/2, so a standby polling every F/4 takes over within F. On a Unix
 * socket they mean nothing: the client's setsockopt fails and the server
 * ignores its settings, both harmlessly. */
static void pg_keepalives(struct db *db)
{
    int f = db->lease_seconds > 0 ? db->lease_seconds : 30;
    int idle = f / 4 > 1 ? f / 4 : 1, intvl = f / 12 > 1 ? f / 12 : 1, count = 2, on = 1;
    unsigned int user_ms = (unsigned int)idle * 1000u;
    int fd = PQ(PQsocket)(db->pg);
    char sql[256];

    if (fd >= 0) {
        (void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
        (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
        (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
        (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof(count));
        (void)setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_ms, sizeof(user_ms));
    }
    snprintf(sql, sizeof(sql),
             "SET tcp_keepalives_idle = %d; SET tcp_keepalives_interval = %d; "
             "SET tcp_keepalives_count = %d",
             idle, intvl, count);
    char err[sizeof(db->err)];
    snprintf(err, sizeof(err), "%s", db->err);
    (void)pg_simple(db, sql, NULL, 0);
    /* PostgreSQL 12 and later only. */
    snprintf(sql, sizeof(sql), "SET tcp_user_timeout = %u", user_ms);
    (void)pg_simple(db, sql, NULL, 0);
    snprintf(db->err, sizeof(db->err), "%s", err);
}

/* Tries the lease's advisory lock on this session: DB_OK (held),
 * DB_EXISTS (another session holds it) or DB_ERROR (with why). Called once
 * per session: a session's advisory locks stack, and one is enough. */
static int pg_lease_lock(struct db *db)
{
    const char *params[] = {db->lease_key};
    struct dbs tmp = {.db = db};

    pg_keepalives(db);
    db->pg_unnamed = NULL; /* PQexecParams takes the unnamed slot */
    PGresult *res =
        PQ(PQexecParams)(db->pg, "SELECT pg_try_advisory_lock(" PG_LEASE_CLASS ", hashtext($1))", 1,
                         NULL, params, NULL, NULL, 0);
    int rc = DB_ERROR;

    if (PQ(PQresultStatus)(res) != PGRES_TUPLES_OK || PQ(PQntuples)(res) != 1)
        pg_fail(&tmp, res);
    else
        rc = strcmp(PQ(PQgetvalue)(res, 0, 0), "t") == 0 ? DB_OK : DB_EXISTS;
    PQ(PQclear)(res);
    return rc;
}

int db_pg_lease_take(struct db *db)
{
    if (db->lease_lost)
        return pg_lease_refuse(db);
    if (db->lease_asked) {
        int rc = db_pg_lease_check(db);
        return rc == DB_NOTFOUND ? DB_ERROR : rc;
    }
    if (db->in_txn)
        return db_fail(db, "db_lease_take: not inside a transaction");
    if (PQ(PQstatus)(db->pg) != CONNECTION_OK) {
        /* A standby's session lost (the server restarted): a new one,
         * with the table prepared again. */
        struct dbs tmp = {.db = db};
        pg_fail(&tmp, NULL);
        pg_reconnect(db);
        if (PQ(PQstatus)(db->pg) != CONNECTION_OK)
            return DB_ERROR;
    }
    int rc = pg_lease_lock(db);
    if (rc == DB_OK)
        db->lease_asked = 1;
    return rc;
}

int db_pg_lease_check(struct db *db)
{
    if (db->lease_lost)
        return pg_lease_refuse(db);
    if (db->in_txn)
        return DB_OK; /* a caller's transaction runs: its statements tell */
    if (!db->lease_away && PQ(PQstatus)(db->pg) == CONNECTION_OK &&
        pg_simple(db, "SELECT 1", NULL, 0) == DB_OK)
        return DB_OK;
    /* The session is gone (or going), or the server was out of reach: on
     * a new session, the lease again. */
    db->lease_away = 0;
    pg_reconnect(db);
    if (db->lease_lost)
        return DB_ERROR;
    if (!db->lease_away && PQ(PQstatus)(db->pg) == CONNECTION_OK)
        return DB_OK;
    db->lease_away = 1;
    return DB_NOTFOUND;
}

/* ------------------------------------------------------------------ open */

int db_is_pg_uri(const char *path)
{
    return path &&
           (strncmp(path, "postgresql://", 13) == 0 || strncmp(path, "postgres://", 11) == 0);
}

/* `uri` as messages show it: a password in it is written "***". */
static void pg_uri_shown(const char *uri, char *out, size_t size)
{
    const char *auth = strstr(uri, "://");
    const char *at = auth ? strchr(auth + 3, '@') : NULL;
    const char *colon = auth ? strchr(auth + 3, ':') : NULL;
    const char *slash = auth ? strchr(auth + 3, '/') : NULL;

    if (at && colon && colon < at && (!slash || at < slash))
        snprintf(out, size, "%.*s:***%s", (int)(colon - uri), uri, at);
    else
        snprintf(out, size, "%s", uri);
}

/* Runs `sql` (one or more statements, no parameters) on db's connection:
 * DB_OK, or DB_ERROR with the message. The one row of a query, if asked,
 * has its first column copied to out (size bytes; "" for NULL or none). */
static int pg_simple(struct db *db, const char *sql, char *out, size_t size)
{
    struct dbs tmp = {.db = db};
    if (pg_rows_send_all(db) != DBS_DONE || pg_pipe_flush(db) != DB_OK)
        return DB_ERROR;
    db->pg_unnamed = NULL; /* a simple query takes the unnamed slot */
    PGresult *res = PQ(PQexec)(db->pg, sql);
    ExecStatusType st = PQ(PQresultStatus)(res);
    int rc = DB_OK;

    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        pg_fail(&tmp, res);
        rc = DB_ERROR;
    } else if (out) {
        snprintf(out, size, "%s",
                 PQ(PQntuples)(res) > 0 && !PQ(PQgetisnull)(res, 0, 0) ? PQ(PQgetvalue)(res, 0, 0)
                                                                       : "");
    }
    PQ(PQclear)(res);
    return rc;
}

/* The schema version of the database: -1 if it has none (no meta table
 * in the search path), else meta's schema_version (0 if missing). */
static int pg_version(struct db *db, int *version)
{
    char v[32];

    if (pg_simple(db, "SELECT to_regclass('meta') IS NULL", v, sizeof(v)) != DB_OK)
        return DB_ERROR;
    if (strcmp(v, "t") == 0) {
        *version = -1;
        return DB_OK;
    }
    if (pg_simple(db, "SELECT value FROM meta WHERE key = 'schema_version'", v, sizeof(v)) != DB_OK)
        return DB_ERROR;
    *version = atoi(v);
    return DB_OK;
}

/* The first schema version PostgreSQL had (schema_pg.sql was first written
 * at SQLite's migration 17): a database is never older. */
#define PG_FIRST_VERSION 17

/* Migration 19's functions, as schema_pg.sql writes them. */
#define PG_NEXT_FUNCTION(name, col, table, where)                                                  \
    "CREATE FUNCTION " name " RETURNS bigint LANGUAGE plpgsql AS $$\n"                             \
    "BEGIN\n"                                                                                      \
    "  PERFORM pg_advisory_xact_lock(1380535879, hashtext('ringside stamps ' || "                  \
    "current_schema()));\n"                                                                        \
    "  RETURN (SELECT coalesce(max(" col "), 0) + 1 FROM " table where ");\n"                      \
    "END\n"                                                                                        \
    "$$;"
#define PG_STAMP_FUNCTION(table)                                                                   \
    "CREATE OR REPLACE FUNCTION " table "_stamp() RETURNS trigger LANGUAGE plpgsql AS $$\n"        \
    "BEGIN\n"                                                                                      \
    "  NEW.changed := " table "_next_stamp();\n"                                                   \
    "  RETURN NEW;\n"                                                                              \
    "END\n"                                                                                        \
    "$$;"
/* Migration 19: several writers. The stamps and the turn numbers are read
 * under one advisory lock held to the commit (schema_pg.sql says why); the
 * trigger functions take it too. The same text as schema_pg.sql's, so that
 * both give one catalogue. */
#define PG_MIGRATION_19                                                                            \
    PG_NEXT_FUNCTION("fighters_next_stamp()", "changed", "fighters", "")                           \
    PG_NEXT_FUNCTION("ratings_next_stamp()", "changed", "ratings", "")                             \
    PG_NEXT_FUNCTION("turns_next_number(rules_of TEXT)", "number", "turns",                        \
                     " WHERE rules = rules_of")                                                    \
    PG_STAMP_FUNCTION("fighters") PG_STAMP_FUNCTION("ratings")

/* The migrations of a PostgreSQL database made before the latest version:
 * pg_migrations[i] takes version PG_FIRST_VERSION + i to the next, in one
 * transaction with its bump of meta.schema_version, under the schema's
 * advisory lock. Each is SQLite's migration of the same number (db.c's
 * array) in PostgreSQL's words; schema_pg.sql is what they all give a
 * database made at PG_FIRST_VERSION (tests/check_network.c compares the
 * catalogues). Never edited once released, as SQLite's. */
static const char *const pg_migrations[] = {
    /* 18 (issue 29): accounts, their burnt passwords and bouts have a
     * network; a key is unique within its network. Constraint names are
     * PostgreSQL's defaults, which schema_pg.sql at 17 got. */
    "ALTER TABLE accounts ADD COLUMN network TEXT COLLATE \"C\" NOT NULL DEFAULT '';"
    "ALTER TABLE accounts DROP CONSTRAINT accounts_key_key;"
    "ALTER TABLE accounts ADD CONSTRAINT accounts_network_key UNIQUE (network, key);"
    "ALTER TABLE burnt_passwords ADD COLUMN network TEXT COLLATE \"C\" NOT NULL DEFAULT '';"
    "ALTER TABLE burnt_passwords DROP CONSTRAINT burnt_passwords_pkey;"
    "ALTER TABLE burnt_passwords ADD PRIMARY KEY (network, key, hash);"
    "ALTER TABLE bouts ADD COLUMN network TEXT COLLATE \"C\" NOT NULL DEFAULT '';",
    /* 19 (issue 29): several writers (PG_MIGRATION_19 above). */
    PG_MIGRATION_19,
    /* 20 (issue 29): the relay table of db/notify.c, which bots at 19 made
     * themselves (CREATE TABLE IF NOT EXISTS, when they first listened):
     * made as they made it when missing, its rows kept, then given the
     * columns, check and indexes of schema_pg.sql's. */
    "CREATE TABLE IF NOT EXISTS relay ("
    " id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
    " network TEXT COLLATE \"C\" NOT NULL,"
    " kind TEXT COLLATE \"C\" NOT NULL CHECK (kind IN ('say', 'cmd')),"
    " account BIGINT NOT NULL DEFAULT 0,"
    " target TEXT COLLATE \"C\" NOT NULL DEFAULT '',"
    " text TEXT COLLATE \"C\" NOT NULL DEFAULT '');"
    "ALTER TABLE relay DROP CONSTRAINT relay_kind_check;"
    "ALTER TABLE relay ADD CONSTRAINT relay_kind_check CHECK (kind IN ('say', 'cmd', 'drop'));"
    "ALTER TABLE relay ADD COLUMN bout BIGINT NOT NULL DEFAULT 0;"
    "ALTER TABLE relay ADD COLUMN round BIGINT NOT NULL DEFAULT 0;"
    "ALTER TABLE relay ADD COLUMN key TEXT COLLATE \"C\" UNIQUE;"
    "ALTER TABLE relay ADD COLUMN said BIGINT NOT NULL DEFAULT 0;"
    "CREATE INDEX relay_unsaid ON relay (network, id) WHERE said = 0;"
    "CREATE INDEX relay_bout ON relay (bout, network) WHERE bout <> 0;",
    /* 21 (session 39): an account's fighters created on its last day of
     * creating, for the daily cap (db.c's migration 21). */
    "ALTER TABLE accounts ADD COLUMN made_day BIGINT NOT NULL DEFAULT 0 CHECK (made_day >= 0);"
    "ALTER TABLE accounts ADD COLUMN made BIGINT NOT NULL DEFAULT 0 CHECK (made >= 0);",
    /* 22 (session 39): the nick an account was last identified under
     * (db.c's migration 22). */
    "ALTER TABLE accounts ADD COLUMN last_nick TEXT COLLATE \"C\" NOT NULL DEFAULT '';",
    /* 23 (session 39): an account's challenges issued on its last day of
     * challenging, for the daily cap (db.c's migration 23). */
    "ALTER TABLE accounts ADD COLUMN challenges_day BIGINT NOT NULL DEFAULT 0"
    " CHECK (challenges_day >= 0);"
    "ALTER TABLE accounts ADD COLUMN challenges BIGINT NOT NULL DEFAULT 0"
    " CHECK (challenges >= 0);",
    /* 24 (session 39): a plans tournament's bouts stored before are
     * marked said (db.c's migration 24). */
    "UPDATE bouts SET said = round WHERE said < round AND id IN"
    " (SELECT tb.bout FROM tournament_bouts tb JOIN tournaments t ON t.id = tb.tournament"
    " WHERE t.mode = 'plans');",
};
#define PG_MIGRATIONS ((int)(sizeof(pg_migrations) / sizeof(pg_migrations[0])))
_Static_assert(PG_MIGRATIONS >= 1, "PostgreSQL migrations");

/* "PATH: what failed: " before the message; DB_ERROR. */
static int pg_schema_failed(struct db *db, const char *shown, const char *what)
{
    char why[sizeof(db->err)];

    snprintf(why, sizeof(why), "%s", db->err);
    return db_fail(db, "%s: %s: %s", shown, what, why);
}

/* In the schema's locked transaction, takes a database at `version` to
 * the next: its script, then meta's version. DB_OK or DB_ERROR. */
static int pg_migrate_one(struct db *db, const char *shown, int version)
{
    char bump[96], what[64];

    snprintf(what, sizeof(what), "migration %d failed", version + 1);
    snprintf(bump, sizeof(bump), "UPDATE meta SET value = '%d' WHERE key = 'schema_version'",
             version + 1);
    if (pg_simple(db, pg_migrations[version - PG_FIRST_VERSION], NULL, 0) != DB_OK ||
        pg_simple(db, bump, NULL, 0) != DB_OK)
        return pg_schema_failed(db, shown, what);
    return DB_OK;
}

/* Makes sure the database holds the latest schema: created whole in an
 * empty one, or an older one migrated a version a transaction; each
 * transaction under an advisory lock, the version read again under it, so
 * that two first opens create or migrate it once. A read-only open migrates
 * nothing: it reads the latest version only. */
static int pg_schema(struct db *db, const char *shown, int readonly)
{
    int latest = db_schema_latest();

    if (PG_FIRST_VERSION + PG_MIGRATIONS != latest) /* a build whose arrays disagree */
        return db_fail(db, "%s: this ringside migrates PostgreSQL to %d, SQLite to %d", shown,
                       PG_FIRST_VERSION + PG_MIGRATIONS, latest);
    for (;;) {
        int version = 0;
        if (!readonly &&
            (pg_simple(db, "BEGIN", NULL, 0) != DB_OK ||
             pg_simple(db, "SELECT pg_advisory_xact_lock(" PG_SCHEMA_LOCK ")", NULL, 0) != DB_OK))
            return DB_ERROR;
        if (pg_version(db, &version) != DB_OK)
            return DB_ERROR;
        if (version < 0 && readonly)
            return db_fail(db,
                           "%s has no ringside schema; start the bot on it once (it creates the "
                           "schema), then try again",
                           shown);
        if (version < 0 && pg_simple(db, ringside_schema_pg, NULL, 0) != DB_OK)
            return pg_schema_failed(db, shown, "cannot create the schema");
        if (version >= PG_FIRST_VERSION && version < latest && readonly)
            return db_fail(db,
                           "%s has schema version %d, this ringside reads version %d; start the "
                           "bot on it once (it migrates the schema), then try again",
                           shown, version, latest);
        if (version >= 0 && (version < PG_FIRST_VERSION || version > latest))
            return db_fail(db,
                           "%s has schema version %d, this ringside reads version %d on "
                           "PostgreSQL; use the ringside that wrote it",
                           shown, version, latest);
        if (version >= 0 && version < latest && pg_migrate_one(db, shown, version) != DB_OK)
            return DB_ERROR;
        if (readonly)
            return DB_OK;
        if (pg_simple(db, "COMMIT", NULL, 0) != DB_OK)
            return DB_ERROR;
        if (version < 0 || version + 1 >= latest)
            return DB_OK;
    }
}

/* libpq's notices (NOTICE: ... already exists) are not the bot's to say. */
static void pg_quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

/* Connects db to `uri`: DB_OK, or DB_ERROR with libpq's reason (or why
 * libpq cannot be loaded) in db->err. */
static int pg_connect(struct db *db, const char *uri)
{
    /* A server that does not answer fails the connection (and a
     * reconnection, PQreset) in 10 s rather than the system's minutes of
     * SYN retries; the URI's own connect_timeout, later, wins. */
    static const char *const keys[] = {"connect_timeout", "dbname", NULL};
    const char *values[] = {"10", uri, NULL};

    if (pg_load(db) != DB_OK)
        return DB_ERROR;
    db->pg = PQ(PQconnectdbParams)(keys, values, 1);
    if (!db->pg)
        xoom();
    if (PQ(PQstatus)(db->pg) != CONNECTION_OK) {
        struct dbs tmp = {.db = db};
        pg_fail(&tmp, NULL);
        return DB_ERROR;
    }
    PQ(PQsetNoticeProcessor)(db->pg, pg_quiet, NULL);
    return DB_OK;
}

struct db *db_open_pg(const char *uri, long fault, int readonly, char *errbuf, int errlen)
{
    struct db *db = xcalloc(1, sizeof(*db));
    char shown[sizeof(db->err) / 2];

    db->backend = DB_BACKEND_PG;
    db->pg_readonly = readonly;
    pg_uri_shown(uri, shown, sizeof(shown));
    if (pg_connect(db, uri) != DB_OK) {
        char why[sizeof(db->err)];
        snprintf(why, sizeof(why), "%s", db->err);
        db_fail(db, "cannot connect to the database %s: %s", shown, why);
    } else if ((!readonly ||
                pg_simple(db, "SET default_transaction_read_only = on", NULL, 0) == DB_OK) &&
               pg_schema(db, shown, readonly) == DB_OK) {
        pg_table_prepare(db);
        db_fault_after(db, fault);
        return db;
    }
    if (errbuf && errlen > 0)
        snprintf(errbuf, (size_t)errlen, "%s", db->err);
    db_pg_close(db);
    return NULL;
}

int db_test_pg(const char *uri, const char *sql, char *errbuf, int errlen)
{
    struct db *db = xcalloc(1, sizeof(*db));
    int rc = DB_ERROR;

    db->backend = DB_BACKEND_PG;
    if (pg_connect(db, uri) == DB_OK)
        rc = pg_simple(db, sql, NULL, 0);
    if (rc != DB_OK && errbuf && errlen > 0)
        snprintf(errbuf, (size_t)errlen, "%s", db->err);
    db_pg_close(db);
    return rc;
}

void db_pg_close(struct db *db)
{
    for (int i = 0; i < STMT_COUNT; i++)
        pg_side_free(db->tab[i].pg);
    for (int i = 0; i < DB_KEPT_MAX; i++)
        pg_side_free(db->kept_q[i].pg);
    if (db->pg)
        PQ(PQfinish)(db->pg);
    if (db->pg_pipe)
        free(db->pg_pipe->ids);
    free(db->pg_pipe);
    free(db);
}

/* ------------------------------------------- notifications (notify.c) */

int db_pg_notify_fd(struct db *db)
{
    return PQ(PQstatus)(db->pg) == CONNECTION_OK ? PQ(PQsocket)(db->pg) : -1;
}

int db_pg_notify_poll(struct db *db, const char *channel, const char *payload)
{
    if (PQ(PQstatus)(db->pg) != CONNECTION_OK)
        return -1;
    int pid = PQ(PQbackendPID)(db->pg), got = 0;
    if (pid != db->notify_pid) { /* a new session (or the first): LISTEN again */
        char sql[96];
        snprintf(sql, sizeof(sql), "LISTEN %s", channel);
        if (pg_simple(db, sql, NULL, 0) != DB_OK)
            return -1;
        db->notify_pid = pid;
        got = 1; /* what was said while nobody listened is read once */
    }
    if (!PQ(PQconsumeInput)(db->pg))
        return -1;
    PGnotify *n;
    while ((n = PQ(PQnotifies)(db->pg)) != NULL) {
        if (strcmp(n->relname, channel) == 0 && strcmp(n->extra, payload) == 0)
            got = 1;
        PQ(PQfreemem)(n);
    }
    return got;
}
