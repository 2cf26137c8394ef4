/*
 * account.c - players' accounts: created at `register`, read at `identify`,
 * their password hash and ban flag changed by `passwd` and `ban`; and the
 * operator's admin mark and the count of wrong passwords (migration 8), of
 * fighters made on the last day it made one (migration 21), the nick it
 * was last identified under (migration 22) and of challenges issued on the
 * last day it issued one (migration 23); the
 * passwords burnt by being said in a channel, kept as hashes under the
 * account's key (at most DB_BURNT_MAX each, the newest).
 *
 * Every account is of the connection's network (migration 18: db->network,
 * "" for none), bound as each statement's last parameter.
 *
 * Keys are compared exactly (byte for byte): folding the case is the
 * caller's job. Names and hashes are checked for length before any SQL runs,
 * so what is stored always fits struct db_account.
 */
#include <stdio.h>

#include "db_internal.h"

int db_network_set(struct db *db, const char *network)
{
    if (db_text_check_len(db, "network", network, DB_NETWORK_MAX) != DB_OK)
        return DB_ERROR;
    snprintf(db->network, sizeof(db->network), "%s", network);
    db->network_set = 1;
    return DB_OK;
}

const char *db_network(const struct db *db)
{
    return db->network;
}

int db_network_claim(struct db *db, int64_t *claimed)
{
    *claimed = 0;
    if (!db->network[0])
        return DB_OK;
    if (db_begin(db) != DB_OK)
        return DB_ERROR;
    struct dbs *q = dbs_table(db, STMT_ACCOUNT_CLAIM);
    dbs_bind_text(q, 1, db->network);
    if (dbs_run(q) != DBS_DONE) {
        db_rollback(db);
        return DB_ERROR;
    }
    int64_t n = dbs_changes(q);
    if (n > 0) {
        q = dbs_table(db, STMT_BURNT_CLAIM);
        dbs_bind_text(q, 1, db->network);
        if (dbs_run(q) != DBS_DONE) {
            db_rollback(db);
            return DB_ERROR;
        }
    }
    if (db_commit(db) != DB_OK)
        return DB_ERROR;
    *claimed = n;
    return DB_OK;
}

int db_account_create(struct db *db, const char *key, const char *name, const char *hash,
                      int64_t now, int64_t *id)
{
    if (db_text_check(db, "account key", key, DB_NAME_MAX) != DB_OK ||
        db_text_check(db, "account name", name, DB_NAME_MAX) != DB_OK ||
        db_text_check(db, "password hash", hash, DB_HASH_MAX) != DB_OK)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_ACCOUNT_INSERT);
    dbs_bind_text(q, 1, key);
    dbs_bind_text(q, 2, name);
    dbs_bind_text(q, 3, hash);
    dbs_bind_int64(q, 4, now);
    dbs_bind_text(q, 5, db->network);
    if (dbs_run(q) != DBS_DONE)
        return dbs_error(q) == DBS_E_UNIQUE ? DB_EXISTS : DB_ERROR;
    if (id)
        *id = dbs_insert_id(q);
    return DB_OK;
}

int db_account_get(struct db *db, const char *key, struct db_account *out)
{
    return db_account_get_on(db, db->network, key, out);
}

int db_account_get_on(struct db *db, const char *network, const char *key, struct db_account *out)
{
    if (db_text_check(db, "account key", key, DB_NAME_MAX) != DB_OK ||
        db_text_check_len(db, "network", network, DB_NETWORK_MAX) != DB_OK)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_ACCOUNT_GET);
    int rc = DB_ERROR;
    dbs_bind_text(q, 1, key);
    dbs_bind_text(q, 2, network);
    rc = dbs_step_one(q);
    if (rc == DB_OK) {
        snprintf(out->network, sizeof(out->network), "%s", network);
        out->id = dbs_col_int64(q, 0);
        out->banned = dbs_col_int(q, 3) != 0;
        out->created = dbs_col_int64(q, 4);
        out->burnt = dbs_col_int(q, 5) != 0;
        out->admin = dbs_col_int(q, 6) != 0;
        out->failures = dbs_col_int(q, 7);
        out->failed_at = dbs_col_int64(q, 8);
        if (dbs_col_copy(q, 1, out->name, sizeof(out->name), "account name") != DB_OK ||
            dbs_col_copy(q, 2, out->hash, sizeof(out->hash), "password hash") != DB_OK ||
            dbs_col_copy(q, 9, out->failed_from, sizeof(out->failed_from), "failed login source") !=
                DB_OK)
            rc = DB_ERROR;
    }
    dbs_reset(q);
    return rc;
}

/* Runs an UPDATE of one account by id: DB_NOTFOUND when no row matched. */
static int account_update(struct dbs *q, int64_t id)
{
    dbs_bind_int64(q, 1, id);
    if (dbs_run(q) != DBS_DONE)
        return DB_ERROR;
    return dbs_changes(q) == 0 ? DB_NOTFOUND : DB_OK;
}

int db_account_set_hash(struct db *db, int64_t id, const char *hash)
{
    if (db_text_check(db, "password hash", hash, DB_HASH_MAX) != DB_OK)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_ACCOUNT_SET_HASH);
    dbs_bind_text(q, 2, hash);
    return account_update(q, id);
}

int db_account_set_banned(struct db *db, int64_t id, int banned)
{
    struct dbs *q = dbs_table(db, STMT_ACCOUNT_SET_BANNED);
    dbs_bind_int64(q, 2, banned != 0);
    return account_update(q, id);
}

int db_account_set_admin(struct db *db, int64_t id, int admin)
{
    struct dbs *q = dbs_table(db, STMT_ACCOUNT_SET_ADMIN);
    dbs_bind_int64(q, 2, admin != 0);
    return account_update(q, id);
}

int db_account_failed(struct db *db, int64_t id, int64_t now, const char *from)
{
    char cut[DB_FROM_MAX];

    snprintf(cut, sizeof(cut), "%s", from ? from : "");
    struct dbs *q = dbs_table(db, STMT_ACCOUNT_FAILED);
    dbs_bind_int64(q, 2, now);
    dbs_bind_text_copy(q, 3, cut);
    return account_update(q, id);
}

int db_account_failures_clear(struct db *db, int64_t id)
{
    return account_update(dbs_table(db, STMT_ACCOUNT_FAILURES_CLEAR), id);
}

/* Migration 21: one more fighter made on ?2, unless ?3 were already (a
 * day other than made_day starts again at 1). */
static const char made_sql[] =
    "UPDATE accounts SET made = CASE WHEN made_day = ?2 THEN made + 1 ELSE 1 END,"
    " made_day = ?2 WHERE id = ?1 AND (made_day <> ?2 OR made < ?3)";

/* Migration 23: one more challenge issued on ?2, unless ?3 were already,
 * as made_sql counts the fighters made. */
static const char challenged_sql[] =
    "UPDATE accounts SET challenges = CASE WHEN challenges_day = ?2 THEN challenges + 1 ELSE 1"
    " END, challenges_day = ?2 WHERE id = ?1 AND (challenges_day <> ?2 OR challenges < ?3)";

/* Runs a day's count `sql` (made_sql, challenged_sql) for account id. */
static int account_count_day(struct db *db, const char *sql, int64_t id, int64_t day, int most)
{
    struct dbs *q = dbs_prepare_kept(db, sql);

    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 2, day);
    dbs_bind_int64(q, 3, most);
    int rc = account_update(q, id);
    dbs_free(q); /* kept: only reset (past DB_KEPT_MAX: finalized) */
    return rc;
}

int db_account_made(struct db *db, int64_t id, int64_t day, int most)
{
    return account_count_day(db, made_sql, id, day, most);
}

int db_account_challenged(struct db *db, int64_t id, int64_t day, int most)
{
    return account_count_day(db, challenged_sql, id, day, most);
}

/* Migration 22: the nick account ?1 was last identified under. Written
 * only when it changes: a login under the same nick writes nothing. */
static const char nick_set_sql[] =
    "UPDATE accounts SET last_nick = ?2 WHERE id = ?1 AND last_nick <> ?2";
static const char nick_get_sql[] = "SELECT last_nick FROM accounts WHERE id = ?1";

int db_account_nick_set(struct db *db, int64_t id, const char *nick)
{
    if (db_text_check_len(db, "nick", nick, DB_NICK_MAX) != DB_OK)
        return DB_ERROR;

    struct dbs *q = dbs_prepare_kept(db, nick_set_sql);
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, id);
    dbs_bind_text(q, 2, nick);
    int rc = dbs_run(q) == DBS_DONE ? DB_OK : DB_ERROR;
    dbs_free(q); /* kept: only reset (past DB_KEPT_MAX: finalized) */
    return rc;
}

int db_account_nick_get(struct db *db, int64_t id, char *out, size_t size)
{
    struct dbs *q = dbs_prepare_kept(db, nick_get_sql);

    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, id);
    int rc = dbs_step_one(q);
    if (rc == DB_OK)
        rc = dbs_col_copy(q, 0, out, size, "last nick");
    dbs_free(q);
    return rc;
}

/* Keeps the DB_BURNT_MAX newest burnt hashes of `key`. */
static int burnt_prune(struct db *db, const char *key)
{
    struct dbs *q = dbs_table(db, STMT_BURNT_PRUNE);
    dbs_bind_text(q, 1, key);
    dbs_bind_int64(q, 2, DB_BURNT_MAX);
    dbs_bind_text(q, 3, db->network);
    return dbs_run(q) == DBS_DONE ? DB_OK : DB_ERROR;
}

int db_account_burn(struct db *db, const char *key, int64_t now)
{
    if (db_text_check(db, "account key", key, DB_NAME_MAX) != DB_OK)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_ACCOUNT_BURN);
    dbs_bind_text(q, 1, key);
    dbs_bind_text(q, 2, db->network);
    if (dbs_run(q) != DBS_DONE)
        return DB_ERROR;
    if (dbs_changes(q) == 0)
        return DB_NOTFOUND;
    q = dbs_table(db, STMT_BURNT_ADD_CURRENT);
    dbs_bind_text(q, 1, key);
    dbs_bind_int64(q, 2, now);
    dbs_bind_text(q, 3, db->network);
    if (dbs_run(q) != DBS_DONE)
        return DB_ERROR;
    return burnt_prune(db, key);
}

int db_burnt_add(struct db *db, const char *key, const char *hash, int64_t now)
{
    if (db_text_check(db, "account key", key, DB_NAME_MAX) != DB_OK ||
        db_text_check(db, "password hash", hash, DB_HASH_MAX) != DB_OK)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_BURNT_ADD);
    dbs_bind_text(q, 1, key);
    dbs_bind_text(q, 2, hash);
    dbs_bind_int64(q, 3, now);
    dbs_bind_text(q, 4, db->network);
    if (dbs_run(q) != DBS_DONE)
        return DB_ERROR;
    return burnt_prune(db, key);
}

int db_burnt_list(struct db *db, const char *key, char (*hashes)[DB_HASH_MAX], int max, int *n)
{
    *n = 0;
    if (db_text_check(db, "account key", key, DB_NAME_MAX) != DB_OK)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_BURNT_LIST);
    int rc = DB_OK, step = DBS_DONE;
    dbs_bind_text(q, 1, key);
    dbs_bind_int64(q, 2, max);
    dbs_bind_text(q, 3, db->network);
    while (*n < max && (step = dbs_step(q)) == DBS_ROW) {
        if (dbs_col_copy(q, 0, hashes[*n], DB_HASH_MAX, "password hash") != DB_OK) {
            rc = DB_ERROR;
            break;
        }
        (*n)++;
    }
    if (rc == DB_OK && *n < max && step != DBS_DONE)
        rc = DB_ERROR;
    dbs_reset(q);
    if (rc != DB_OK)
        *n = 0;
    return rc;
}
