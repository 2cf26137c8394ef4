/*
 * account.c - players' accounts: created at `register`, read at `identify`,
 * their password hash and ban flag changed by `passwd` and `ban`.
 *
 * Keys are compared exactly (byte for byte): folding the case is the
 * caller's job. Names and hashes are checked for length before any SQL runs,
 * so what is stored always fits struct db_account.
 */
#include "db_internal.h"

int db_account_create(struct db *db, const char *key, const char *name, const char *hash,
                      int64_t now, int64_t *id)
{
    if (db_text_check(db, "account key", key, DB_NAME_MAX) != DB_OK ||
        db_text_check(db, "account name", name, DB_NAME_MAX) != DB_OK ||
        db_text_check(db, "password hash", hash, DB_HASH_MAX) != DB_OK)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_ACCOUNT_INSERT];
    int bad = 0;
    bad |= sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 3, hash, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 4, now) != SQLITE_OK;
    int rc = db_run(db, st, bad);
    if (rc == SQLITE_CONSTRAINT_UNIQUE)
        return DB_EXISTS;
    if (rc != SQLITE_DONE)
        return DB_ERROR;
    if (id)
        *id = sqlite3_last_insert_rowid(db->conn);
    return DB_OK;
}

int db_account_get(struct db *db, const char *key, struct db_account *out)
{
    if (db_text_check(db, "account key", key, DB_NAME_MAX) != DB_OK)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_ACCOUNT_GET];
    int rc = DB_ERROR;
    if (sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC) != SQLITE_OK) {
        db_bind_failed(db, st);
    } else {
        switch (db_row(db, st)) {
        case SQLITE_ROW:
            out->id = sqlite3_column_int64(st, 0);
            out->banned = sqlite3_column_int(st, 3) != 0;
            out->created = sqlite3_column_int64(st, 4);
            if (db_column_text(db, st, 1, out->name, sizeof(out->name), "account name") == DB_OK &&
                db_column_text(db, st, 2, out->hash, sizeof(out->hash), "password hash") == DB_OK)
                rc = DB_OK;
            break;
        case SQLITE_DONE:
            rc = DB_NOTFOUND;
            break;
        default:
            break;
        }
    }
    db_stmt_done(st);
    return rc;
}

/* Runs an UPDATE of one account by id: DB_NOTFOUND when no row matched. */
static int account_update(struct db *db, sqlite3_stmt *st, int64_t id, int bad)
{
    bad |= sqlite3_bind_int64(st, 1, id) != SQLITE_OK;
    if (db_run(db, st, bad) != SQLITE_DONE)
        return DB_ERROR;
    return sqlite3_changes(db->conn) == 0 ? DB_NOTFOUND : DB_OK;
}

int db_account_set_hash(struct db *db, int64_t id, const char *hash)
{
    if (db_text_check(db, "password hash", hash, DB_HASH_MAX) != DB_OK)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_ACCOUNT_SET_HASH];
    int bad = sqlite3_bind_text(st, 2, hash, -1, SQLITE_STATIC) != SQLITE_OK;
    return account_update(db, st, id, bad);
}

int db_account_set_banned(struct db *db, int64_t id, int banned)
{
    sqlite3_stmt *st = db->st[STMT_ACCOUNT_SET_BANNED];
    int bad = sqlite3_bind_int(st, 2, banned != 0) != SQLITE_OK;
    return account_update(db, st, id, bad);
}
