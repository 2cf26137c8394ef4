/*
 * db.c - the connection: opening, the schema migrations, the table of
 * prepared statements, and the helpers the other files of db/ share.
 *
 * Schema versions: PRAGMA user_version is the number of migrations applied.
 * Migration i (1-based) is migrations[i - 1]; it runs in its own BEGIN
 * IMMEDIATE transaction together with the bump of user_version, so a failed
 * migration leaves the file at the previous version, and a file is never at a
 * version in between. A file newer than this code is refused and not touched.
 * A migration, once released, is never edited: changes are new migrations
 * (which is also why the scripts spell out their numbers instead of using
 * the engine's constants).
 *
 * Statements: all are prepared in db_open() (SQLITE_PREPARE_PERSISTENT) and
 * finalized in db_close(); parameters are always bound. The only SQL built
 * at run time is "PRAGMA user_version = N" from the migration index.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"

/* How long a statement waits for another connection's lock. */
#define DB_BUSY_MS 5000

/* ------------------------------------------------------------ migrations */

static const char *const migrations[] = {
    /* 1: accounts and fighters. A fighter's sheet lives in the columns of
     * its ruleset, the others are NULL; the CHECK on `rules` leaves duel's
     * columns and ranges to the migration that brings them. */
    "CREATE TABLE accounts ("
    "  id INTEGER PRIMARY KEY,"
    "  key TEXT NOT NULL UNIQUE CHECK (key <> ''),"
    "  name TEXT NOT NULL CHECK (name <> ''),"
    "  hash TEXT NOT NULL,"
    "  banned INTEGER NOT NULL DEFAULT 0 CHECK (banned IN (0, 1)),"
    "  created INTEGER NOT NULL"
    ");"
    "CREATE TABLE fighters ("
    "  id INTEGER PRIMARY KEY,"
    "  account_id INTEGER NOT NULL REFERENCES accounts(id),"
    "  key TEXT NOT NULL UNIQUE CHECK (key <> ''),"
    "  name TEXT NOT NULL CHECK (name <> ''),"
    "  rules TEXT NOT NULL CHECK (rules IN ('boxing', 'sugarray', 'duel')),"
    "  str INTEGER, spd INTEGER, agl INTEGER, tgh INTEGER, hgt INTEGER,"
    "  skill INTEGER, endurance INTEGER,"
    "  wins INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),"
    "  losses INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),"
    "  draws INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),"
    "  kos INTEGER NOT NULL DEFAULT 0 CHECK (kos >= 0),"
    "  training_points INTEGER NOT NULL DEFAULT 0 CHECK (training_points >= 0),"
    "  retired INTEGER NOT NULL DEFAULT 0 CHECK (retired IN (0, 1)),"
    "  created INTEGER NOT NULL,"
    /* Boxing abilities are 1..25 for life (training stops at 25). SUGAR RAY
     * has no ceiling: bouts and training raise skill and endurance without
     * one, and only the floor of 1 is kept by the rules. */
    "  CONSTRAINT sheet_fits_rules CHECK (CASE rules"
    "    WHEN 'boxing' THEN coalesce(str BETWEEN 1 AND 25 AND spd BETWEEN 1 AND 25"
    "        AND agl BETWEEN 1 AND 25 AND tgh BETWEEN 1 AND 25 AND hgt BETWEEN 1 AND 25, 0)"
    "      AND skill IS NULL AND endurance IS NULL"
    "    WHEN 'sugarray' THEN coalesce(skill >= 1 AND endurance >= 1, 0)"
    "      AND str IS NULL AND spd IS NULL AND agl IS NULL AND tgh IS NULL AND hgt IS NULL"
    "    ELSE 1 END)"
    ");"
    "CREATE INDEX fighters_account ON fighters(account_id);",
};

#define MIGRATIONS ((int)(sizeof(migrations) / sizeof(migrations[0])))

/* ------------------------------------------------------------ statements */

/* Fighter statements share parameter numbers so one function binds the
 * state of a fighter for both INSERT and UPDATE: ?1 id, ?2 account_id, ?3
 * key, ?4 name, ?5 rules, ?6-?12 str spd agl tgh hgt skill endurance, ?13-?16
 * wins losses draws kos, ?17 training_points, ?18 retired, ?19 created. */
#define FIGHTER_COLUMNS                                                                            \
    "f.id, f.account_id, a.name, f.name, f.rules, f.str, f.spd, f.agl, f.tgh, f.hgt, f.skill,"     \
    " f.endurance, f.wins, f.losses, f.draws, f.kos, f.training_points, f.retired, f.created"      \
    " FROM fighters f JOIN accounts a ON a.id = f.account_id"

static const char *const stmt_sql[STMT_COUNT] = {
    /* Table-valued pragmas are evaluated when stepped, not when prepared. */
    [STMT_USER_VERSION] = "SELECT user_version FROM pragma_user_version",
    [STMT_JOURNAL_MODE] = "SELECT journal_mode FROM pragma_journal_mode",
    [STMT_FOREIGN_KEYS] = "SELECT foreign_keys FROM pragma_foreign_keys",

    [STMT_ACCOUNT_INSERT] = "INSERT INTO accounts (key, name, hash, banned, created)"
                            " VALUES (?1, ?2, ?3, 0, ?4)",
    [STMT_ACCOUNT_GET] = "SELECT id, name, hash, banned, created FROM accounts WHERE key = ?1",
    [STMT_ACCOUNT_SET_HASH] = "UPDATE accounts SET hash = ?2 WHERE id = ?1",
    [STMT_ACCOUNT_SET_BANNED] = "UPDATE accounts SET banned = ?2 WHERE id = ?1",

    [STMT_FIGHTER_INSERT] =
        "INSERT INTO fighters (account_id, key, name, rules, str, spd, agl, tgh, hgt, skill,"
        " endurance, wins, losses, draws, kos, training_points, retired, created)"
        " VALUES (?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
        " ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
    [STMT_FIGHTER_GET] = "SELECT " FIGHTER_COLUMNS " WHERE f.key = ?1",
    [STMT_FIGHTER_LIST] = "SELECT " FIGHTER_COLUMNS " WHERE f.account_id = ?1"
                          " AND (?2 OR f.retired = 0) ORDER BY f.created, f.id LIMIT ?3",
    [STMT_FIGHTER_SAVE] = "UPDATE fighters SET str = ?6, spd = ?7, agl = ?8, tgh = ?9, hgt = ?10,"
                          " skill = ?11, endurance = ?12, wins = ?13, losses = ?14, draws = ?15,"
                          " kos = ?16, training_points = ?17 WHERE id = ?1",
    [STMT_FIGHTER_RETIRE] = "UPDATE fighters SET retired = 1 WHERE id = ?1",
};

/* --------------------------------------------------------------- helpers */

int db_fail(struct db *db, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(db->err, sizeof(db->err), fmt, ap);
    va_end(ap);
    return DB_ERROR;
}

int db_text_check(struct db *db, const char *what, const char *s, size_t size)
{
    if (!s)
        return db_fail(db, "%s is missing", what);
    size_t n = strlen(s);
    if (n == 0)
        return db_fail(db, "%s is empty", what);
    if (n >= size)
        return db_fail(db, "%s is %zu bytes, the most is %zu", what, n, size - 1);
    return DB_OK;
}

void db_stmt_done(sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

int db_bind_failed(struct db *db, sqlite3_stmt *st)
{
    /* Not from sqlite3_errmsg(): a later successful bind clears it. */
    return db_fail(db, "cannot bind the parameters of: %s", sqlite3_sql(st));
}

int db_run(struct db *db, sqlite3_stmt *st, int bind_failed)
{
    int rc;

    if (bind_failed) {
        db_bind_failed(db, st);
        rc = SQLITE_MISUSE;
    } else {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            db_fail(db, "a write returned rows: %s", sqlite3_sql(st));
            rc = SQLITE_MISUSE;
        } else if (rc != SQLITE_DONE) {
            db_fail(db, "%s", sqlite3_errmsg(db->conn));
        }
    }
    db_stmt_done(st);
    return rc;
}

int db_row(struct db *db, sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);

    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        db_fail(db, "%s", sqlite3_errmsg(db->conn));
    return rc;
}

int db_column_text(struct db *db, sqlite3_stmt *st, int col, char *dst, size_t size,
                   const char *what)
{
    const unsigned char *s = sqlite3_column_text(st, col);
    int n = sqlite3_column_bytes(st, col);

    if (!s) {
        if (sqlite3_errcode(db->conn) == SQLITE_NOMEM)
            return db_fail(db, "out of memory reading %s", what);
        return db_fail(db, "%s is NULL in the database", what);
    }
    if ((size_t)n >= size)
        return db_fail(db, "%s is %d bytes in the database, the most is %zu", what, n, size - 1);
    memcpy(dst, s, (size_t)n);
    dst[n] = '\0';
    return DB_OK;
}

/* Runs the one-row query `sql` once (at open only) and stores its first
 * column as an int in *out or as text in out_text (either may be NULL).
 * Returns an SQLite code; a query without a row gives SQLITE_DONE. */
static int query_once(sqlite3 *conn, const char *sql, int *out, char *out_text, size_t size)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(conn, sql, -1, &st, NULL);

    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        if (out)
            *out = sqlite3_column_int(st, 0);
        if (out_text) {
            const unsigned char *s = sqlite3_column_text(st, 0);
            snprintf(out_text, size, "%s", s ? (const char *)s : "");
        }
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

/* ------------------------------------------------------------------ open */

/* WAL, foreign keys, busy timeout. synchronous=NORMAL: in WAL mode a commit
 * has been written to the WAL file (the OS's page cache) when COMMIT returns
 * and is only fsync'd at checkpoints, so a crash of the process (kill -9)
 * loses nothing; only a power loss or kernel crash can lose the last
 * commits. That is what the product guarantees, without an fsync per
 * acknowledged order; FULL would add power-loss durability at that cost. */
static int connection_setup(struct db *db, const char *path)
{
    char mode[32];

    sqlite3_extended_result_codes(db->conn, 1);
    sqlite3_busy_timeout(db->conn, DB_BUSY_MS);
    if (query_once(db->conn, "PRAGMA journal_mode = WAL", NULL, mode, sizeof(mode)) != SQLITE_OK)
        return db_fail(db, "cannot open %s: %s", path, sqlite3_errmsg(db->conn));
    /* An in-memory database (no file name) cannot use WAL, and needs not. */
    const char *file = sqlite3_db_filename(db->conn, "main");
    if (strcmp(mode, "wal") != 0 && file && file[0] != '\0')
        return db_fail(db, "cannot open %s: journal mode is %s, not wal", path, mode);
    if (sqlite3_exec(db->conn, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL", NULL, NULL,
                     NULL) != SQLITE_OK)
        return db_fail(db, "cannot open %s: %s", path, sqlite3_errmsg(db->conn));
    return DB_OK;
}

static int version_read(struct db *db, const char *path, int *version)
{
    if (query_once(db->conn, "PRAGMA user_version", version, NULL, 0) != SQLITE_OK)
        return db_fail(db, "cannot open %s: %s", path, sqlite3_errmsg(db->conn));
    if (*version < 0 || *version > MIGRATIONS)
        return db_fail(db,
                       "%s has schema version %d, this ringside knows up to %d; upgrade ringside",
                       path, *version, MIGRATIONS);
    return DB_OK;
}

/* Applies the migrations the file lacks, each in its own transaction. The
 * version is read again under the write lock, so two processes opening the
 * same old file at once do not both migrate it. */
static int migrate(struct db *db, const char *path)
{
    int version;

    if (version_read(db, path, &version) != DB_OK)
        return DB_ERROR;
    while (version < MIGRATIONS) {
        if (sqlite3_exec(db->conn, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
            return db_fail(db, "cannot open %s: %s", path, sqlite3_errmsg(db->conn));
        if (version_read(db, path, &version) != DB_OK) {
            sqlite3_exec(db->conn, "ROLLBACK", NULL, NULL, NULL);
            return DB_ERROR;
        }
        if (version == MIGRATIONS) {
            sqlite3_exec(db->conn, "ROLLBACK", NULL, NULL, NULL);
            break;
        }
        char bump[64];
        snprintf(bump, sizeof(bump), "PRAGMA user_version = %d", version + 1);
        if (sqlite3_exec(db->conn, migrations[version], NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_exec(db->conn, bump, NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_exec(db->conn, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
            /* The message first: ROLLBACK replaces it. */
            db_fail(db, "%s: migration %d failed: %s", path, version + 1, sqlite3_errmsg(db->conn));
            if (!sqlite3_get_autocommit(db->conn))
                sqlite3_exec(db->conn, "ROLLBACK", NULL, NULL, NULL);
            return DB_ERROR;
        }
        version++;
    }
    return DB_OK;
}

static int statements_prepare(struct db *db, const char *path)
{
    for (int i = 0; i < STMT_COUNT; i++) {
        const char *tail = NULL;

        if (sqlite3_prepare_v3(db->conn, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &db->st[i],
                               &tail) != SQLITE_OK)
            return db_fail(db, "%s: cannot prepare statement %d: %s", path, i,
                           sqlite3_errmsg(db->conn));
        if (tail && tail[strspn(tail, " \t\n")] != '\0')
            return db_fail(db, "%s: statement %d holds more than one statement", path, i);
    }
    return DB_OK;
}

struct db *db_open(const char *path, char *errbuf, int errlen)
{
    struct db *db = calloc(1, sizeof(*db));

    if (!db) {
        if (errbuf && errlen > 0)
            snprintf(errbuf, (size_t)errlen, "cannot open %s: out of memory", path);
        return NULL;
    }
    int rc = sqlite3_open_v2(path, &db->conn, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc != SQLITE_OK)
        db_fail(db, "cannot open %s: %s", path,
                db->conn ? sqlite3_errmsg(db->conn) : sqlite3_errstr(rc));
    else if (connection_setup(db, path) == DB_OK && migrate(db, path) == DB_OK &&
             statements_prepare(db, path) == DB_OK)
        return db;
    if (errbuf && errlen > 0)
        snprintf(errbuf, (size_t)errlen, "%s", db->err);
    db_close(db);
    return NULL;
}

void db_close(struct db *db)
{
    if (!db)
        return;
    for (int i = 0; i < STMT_COUNT; i++)
        sqlite3_finalize(db->st[i]);
    /* Every statement is finalized, so this closes (and, as the last
     * connection, checkpoints the WAL into the file). */
    sqlite3_close(db->conn);
    free(db);
}

const char *db_errmsg(struct db *db)
{
    return db ? db->err : "no database";
}

/* ----------------------------------------------------------------- state */

int db_schema_latest(void)
{
    return MIGRATIONS;
}

/* Runs one of the pragma queries and returns its int, or -1. */
static int pragma_int(struct db *db, enum db_stmt id)
{
    sqlite3_stmt *st = db->st[id];
    int rc = db_row(db, st);
    int v = -1;

    if (rc == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    else if (rc == SQLITE_DONE)
        db_fail(db, "statement %d returned no row", id);
    db_stmt_done(st);
    return v;
}

int db_schema_version(struct db *db)
{
    return pragma_int(db, STMT_USER_VERSION);
}

int db_foreign_keys(struct db *db)
{
    int v = pragma_int(db, STMT_FOREIGN_KEYS);

    return v < 0 ? -1 : v != 0;
}

int db_journal_wal(struct db *db)
{
    sqlite3_stmt *st = db->st[STMT_JOURNAL_MODE];
    int rc = db_row(db, st);
    int v = -1;

    if (rc == SQLITE_ROW) {
        const unsigned char *mode = sqlite3_column_text(st, 0);
        v = mode && strcmp((const char *)mode, "wal") == 0;
    } else if (rc == SQLITE_DONE) {
        db_fail(db, "journal_mode returned no row");
    }
    db_stmt_done(st);
    return v;
}
