/*
 * account.c - players' accounts: created at `register`, read at `identify`,
 * their password hash and ban flag changed by `passwd` and `ban`; and the
 * operator's admin mark and the count of wrong passwords (migration 8); the
 * passwords burnt by being said in a channel, kept as hashes under the
 * account's key (at most DB_BURNT_MAX each, the newest).
 *
 * Keys are compared exactly (byte for byte): folding the case is the
 * caller's job. Names and hashes are checked for length before any SQL runs,
 * so what is stored always fits struct db_account.
 */
#include <stdio.h>

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
            out->burnt = sqlite3_column_int(st, 5) != 0;
            out->admin = sqlite3_column_int(st, 6) != 0;
            out->failures = sqlite3_column_int(st, 7);
            out->failed_at = sqlite3_column_int64(st, 8);
            if (db_column_text(db, st, 1, out->name, sizeof(out->name), "account name") == DB_OK &&
                db_column_text(db, st, 2, out->hash, sizeof(out->hash), "password hash") == DB_OK &&
                db_column_text(db, st, 9, out->failed_from, sizeof(out->failed_from),
                               "failed login source") == DB_OK)
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

int db_account_set_admin(struct db *db, int64_t id, int admin)
{
    sqlite3_stmt *st = db->st[STMT_ACCOUNT_SET_ADMIN];
    int bad = sqlite3_bind_int(st, 2, admin != 0) != SQLITE_OK;
    return account_update(db, st, id, bad);
}

int db_account_failed(struct db *db, int64_t id, int64_t now, const char *from)
{
    char cut[DB_FROM_MAX];

    snprintf(cut, sizeof(cut), "%s", from ? from : "");
    sqlite3_stmt *st = db->st[STMT_ACCOUNT_FAILED];
    int bad = sqlite3_bind_int64(st, 2, now) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 3, cut, -1, SQLITE_TRANSIENT) != SQLITE_OK;
    return account_update(db, st, id, bad);
}

int db_account_failures_clear(struct db *db, int64_t id)
{
    return account_update(db, db->st[STMT_ACCOUNT_FAILURES_CLEAR], id, 0);
}

/* Keeps the DB_BURNT_MAX newest burnt hashes of `key`. */
static int burnt_prune(struct db *db, const char *key)
{
    sqlite3_stmt *st = db->st[STMT_BURNT_PRUNE];
    int bad = 0;
    bad |= sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 2, DB_BURNT_MAX) != SQLITE_OK;
    return db_run(db, st, bad) == SQLITE_DONE ? DB_OK : DB_ERROR;
}

int db_account_burn(struct db *db, const char *key, int64_t now)
{
    if (db_text_check(db, "account key", key, DB_NAME_MAX) != DB_OK)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_ACCOUNT_BURN];
    int bad = sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC) != SQLITE_OK;
    if (db_run(db, st, bad) != SQLITE_DONE)
        return DB_ERROR;
    if (sqlite3_changes(db->conn) == 0)
        return DB_NOTFOUND;
    st = db->st[STMT_BURNT_ADD_CURRENT];
    bad = sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 2, now) != SQLITE_OK;
    if (db_run(db, st, bad) != SQLITE_DONE)
        return DB_ERROR;
    return burnt_prune(db, key);
}

int db_burnt_add(struct db *db, const char *key, const char *hash, int64_t now)
{
    if (db_text_check(db, "account key", key, DB_NAME_MAX) != DB_OK ||
        db_text_check(db, "password hash", hash, DB_HASH_MAX) != DB_OK)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_BURNT_ADD];
    int bad = 0;
    bad |= sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 2, hash, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 3, now) != SQLITE_OK;
    if (db_run(db, st, bad) != SQLITE_DONE)
        return DB_ERROR;
    return burnt_prune(db, key);
}

int db_burnt_list(struct db *db, const char *key, char (*hashes)[DB_HASH_MAX], int max, int *n)
{
    *n = 0;
    if (db_text_check(db, "account key", key, DB_NAME_MAX) != DB_OK)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_BURNT_LIST];
    int bad = 0, rc = DB_OK, step = SQLITE_DONE;
    bad |= sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 2, max) != SQLITE_OK;
    if (bad) {
        db_bind_failed(db, st);
        db_stmt_done(st);
        return DB_ERROR;
    }
    while (*n < max && (step = db_row(db, st)) == SQLITE_ROW) {
        if (db_column_text(db, st, 0, hashes[*n], DB_HASH_MAX, "password hash") != DB_OK) {
            rc = DB_ERROR;
            break;
        }
        (*n)++;
    }
    if (rc == DB_OK && *n < max && step != SQLITE_DONE)
        rc = DB_ERROR;
    db_stmt_done(st);
    if (rc != DB_OK)
        *n = 0;
    return rc;
}
