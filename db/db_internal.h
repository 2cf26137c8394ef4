/*
 * db_internal.h - what the files of db/ share, and nothing outside db/ sees:
 * the connection, its table of prepared statements and the helpers that run
 * them and report errors.
 *
 * Invariants: every statement in db->st is prepared once by db_open() and,
 * between two calls of the public functions, is reset with its bindings
 * cleared (so no read transaction stays open and no caller string stays
 * referenced). db->err always holds the message of the last failure.
 */
#ifndef RINGSIDE_DB_INTERNAL_H
#define RINGSIDE_DB_INTERNAL_H

#include <stddef.h>

#include <sqlite3.h>

#include "db.h"

/* The prepared statements; their SQL is the table in db.c. */
enum db_stmt {
    STMT_USER_VERSION,
    STMT_JOURNAL_MODE,
    STMT_FOREIGN_KEYS,
    STMT_ACCOUNT_INSERT,
    STMT_ACCOUNT_GET,
    STMT_ACCOUNT_SET_HASH,
    STMT_ACCOUNT_SET_BANNED,
    STMT_FIGHTER_INSERT,
    STMT_FIGHTER_GET,
    STMT_FIGHTER_LIST,
    STMT_FIGHTER_SAVE,
    STMT_FIGHTER_RETIRE,
    STMT_COUNT
};

struct db {
    sqlite3 *conn;
    sqlite3_stmt *st[STMT_COUNT];
    char err[512]; /* room for a long path in db_open's messages */
};

/* Formats a message into db->err and returns DB_ERROR. */
int db_fail(struct db *db, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Checks a string the caller wants stored: not NULL, not empty, and fitting
 * a buffer of `size` bytes with its NUL. Returns DB_OK, or DB_ERROR with a
 * message naming `what` ("fighter name"). */
int db_text_check(struct db *db, const char *what, const char *s, size_t size);

/* Records that binding the parameters of `st` failed; returns DB_ERROR. */
int db_bind_failed(struct db *db, sqlite3_stmt *st);

/* Steps `st` once (it is expected to finish: an INSERT or UPDATE), unless
 * `bind_failed`, then resets it and clears its bindings. Returns SQLITE_DONE,
 * or the extended SQLite error code with its message in db->err. */
int db_run(struct db *db, sqlite3_stmt *st, int bind_failed);

/* Steps a query once. Returns SQLITE_ROW (the row is readable until
 * db_stmt_done), SQLITE_DONE, or an extended error code with its message in
 * db->err. The caller calls db_stmt_done() afterwards in every case. */
int db_row(struct db *db, sqlite3_stmt *st);

/* Resets `st` and clears its bindings. */
void db_stmt_done(sqlite3_stmt *st);

/* Copies the text of column `col` of the current row into dst (size bytes,
 * NUL included). Returns DB_OK, or DB_ERROR if the value is NULL or too long
 * (the file was edited by hand, or by a newer ringside). */
int db_column_text(struct db *db, sqlite3_stmt *st, int col, char *dst, size_t size,
                   const char *what);

#endif
