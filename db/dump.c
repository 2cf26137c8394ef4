/*
 * dump.c - a database as text, for the tests that compare a file with a
 * snapshot (the fault sweeps of tests/check_fault.c): nothing the bot runs.
 * Its SQL is built at run time from the schema's table names (quoted with
 * %w), the one exception to db.c's rule of statements prepared once; its
 * steps go straight to SQLite, past the fault hook. So it stays on
 * SQLite's own calls rather than the statement layer of sql.h (whose steps
 * the hook counts): it reads SQLite's catalogue (sqlite_master, the
 * user_version pragma) and opens files with no struct db (db_dump_file);
 * a PostgreSQL backend will need its own dump, from its own catalogue.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"
#include "util.h"

/* Appends the value of column `col` of st's row, typed. */
static void value_add(struct str *line, sqlite3_stmt *st, int col)
{
    switch (sqlite3_column_type(st, col)) {
    case SQLITE_NULL:
        str_cat(line, "NULL");
        break;
    case SQLITE_INTEGER:
        str_add(line, "%lld", (long long)sqlite3_column_int64(st, col));
        break;
    case SQLITE_FLOAT:
        str_add(line, "%.17g", sqlite3_column_double(st, col));
        break;
    case SQLITE_BLOB: {
        const unsigned char *p = sqlite3_column_blob(st, col);
        int n = sqlite3_column_bytes(st, col);
        str_cat(line, "x'");
        for (int i = 0; i < n; i++)
            str_add(line, "%02x", p[i]);
        str_ch(line, '\'');
        break;
    }
    default:
        str_ch(line, '\'');
        str_raw(line, (const char *)sqlite3_column_text(st, col),
                (size_t)sqlite3_column_bytes(st, col));
        str_ch(line, '\'');
    }
}

static int line_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends every row of table `name`, one line each, sorted. Returns
 * SQLITE_OK or an error code. */
static int table_add(sqlite3 *conn, const char *name, struct str *out)
{
    char *sql = sqlite3_mprintf("SELECT * FROM \"%w\"", name);
    sqlite3_stmt *st = NULL;
    char **rows = NULL;
    size_t n = 0, cap = 0;
    int rc;

    if (!sql)
        xoom();
    rc = sqlite3_prepare_v2(conn, sql, -1, &st, NULL);
    sqlite3_free(sql);
    if (rc != SQLITE_OK)
        return rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct str line;
        str_init(&line);
        str_cat(&line, name);
        for (int c = 0; c < sqlite3_column_count(st); c++) {
            str_ch(&line, '|');
            value_add(&line, st, c);
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            rows = xrealloc(rows, cap * sizeof(*rows));
        }
        rows[n++] = str_take(&line, NULL);
    }
    sqlite3_finalize(st);
    if (n)
        qsort(rows, n, sizeof(*rows), line_cmp);
    for (size_t i = 0; i < n; i++) {
        str_add(out, "%s\n", rows[i]);
        free(rows[i]);
    }
    free(rows);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The dump of connection `conn` (see db.h), appended to *out. */
static int conn_dump(sqlite3 *conn, struct str *out)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(conn, "PRAGMA user_version", -1, &st, NULL);

    if (rc != SQLITE_OK)
        return rc;
    if (sqlite3_step(st) == SQLITE_ROW)
        str_add(out, "user_version %d\n", sqlite3_column_int(st, 0));
    sqlite3_finalize(st);
    rc = sqlite3_prepare_v2(conn, "SELECT type, name, sql FROM sqlite_master ORDER BY type, name",
                            -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *sql = (const char *)sqlite3_column_text(st, 2);
        str_add(out, "%s %s: %s\n", (const char *)sqlite3_column_text(st, 0),
                (const char *)sqlite3_column_text(st, 1), sql ? sql : "(automatic)");
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return rc;
    rc = sqlite3_prepare_v2(conn,
                            "SELECT name FROM sqlite_master WHERE type = 'table' AND (name NOT "
                            "LIKE 'sqlite%' OR name = 'sqlite_sequence') ORDER BY name",
                            -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int trc = table_add(conn, (const char *)sqlite3_column_text(st, 0), out);
        if (trc != SQLITE_OK) {
            sqlite3_finalize(st);
            return trc;
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int db_dump(struct db *db, struct str *out)
{
    if (conn_dump(db->conn, out) != SQLITE_OK)
        return db_fail(db, "cannot dump the database: %s", sqlite3_errmsg(db->conn));
    return DB_OK;
}

int db_dump_file(const char *path, struct str *out, char *errbuf, int errlen)
{
    sqlite3 *conn = NULL;
    int rc = sqlite3_open_v2(path, &conn, SQLITE_OPEN_READONLY, NULL);

    if (rc == SQLITE_OK)
        rc = conn_dump(conn, out);
    if (rc != SQLITE_OK && errbuf && errlen > 0)
        snprintf(errbuf, (size_t)errlen, "cannot dump %s: %s", path,
                 conn ? sqlite3_errmsg(conn) : sqlite3_errstr(rc));
    sqlite3_close(conn);
    return rc == SQLITE_OK ? DB_OK : DB_ERROR;
}
