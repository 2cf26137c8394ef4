/*
 * notify.c - what the bots of two networks tell each other about a bout
 * between their players (issue 29): PostgreSQL only (on SQLite one bot
 * owns the file).
 *
 * The bout is run by its own network's bot (bouts.network, whose lease it
 * holds). The other network's bot relays: a command of its player about
 * the bout (accept, decline, forfeit, an order) becomes a 'cmd' row for
 * the owner; the owner's lines for the other network (its channel's
 * commentary, its player's prompts and answers) become 'say' rows for
 * that network's bot, which says them and deletes each once the server
 * confirmed it. Each row is committed before anyone is told of it: a
 * NOTIFY on the channel "ringside" whose payload is the network that
 * should read, sent by the row's statement's successor (in a transaction,
 * at its commit). The rows a turn of the owner's loop makes are held
 * (db_relay_hold) and written in one transaction (db_relay_write): the
 * other network gets all of a round's lines or none. A
 * bot that was not listening (down, or its session lost) reads its rows
 * when it listens again, so nothing waits on a notification lost.
 *
 * A line about a bout has a key (a digest of its network, bout, round,
 * player and words): written twice, it is one row (ON CONFLICT DO
 * NOTHING), so an owner that says a line again after a restart, and
 * relays it again, is not heard twice. The reader marks a row said once
 * its server confirmed it and deletes it a day later (RELAY_KEEP), so a
 * line written again after it was said is still known. The commentary an
 * owner says again from its database after a restart (a negative round:
 * db_relay_say) is written only when the other network has no channel
 * line of that round or a later one: its words differ from the live
 * round's, so the key alone would not know them.
 *
 * The table is migration 20's (schema_pg.sql; SQLite has none).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"
#include "util.h"

#define NOTIFY_CHANNEL "ringside"

/* How long a said row is kept (seconds, as SQL): an owner says a line
 * again after a restart, or a failover, well within it. */
#define RELAY_KEEP "86400"

/* DB_ERROR with a reason when db is not PostgreSQL. */
static int pg_only(struct db *db)
{
    if (db->backend == DB_BACKEND_PG)
        return DB_OK;
    return db_fail(db, "bouts between two networks need PostgreSQL ([bot] database = "
                       "postgresql://...): on SQLite one bot owns the file");
}

int db_notify_listen(struct db *db)
{
    if (pg_only(db) != DB_OK)
        return DB_ERROR;
    return db_pg_notify_poll(db, NOTIFY_CHANNEL, db->network) < 0 ? DB_ERROR : DB_OK;
}

int db_notify_fd(struct db *db)
{
    return db->backend == DB_BACKEND_PG && db->notify_pid ? db_pg_notify_fd(db) : -1;
}

int db_notify_poll(struct db *db)
{
    if (db->backend != DB_BACKEND_PG || !db->notify_pid)
        return 0;
    return db_pg_notify_poll(db, NOTIFY_CHANNEL, db->network);
}

/* NOTIFYs network's bot: inside a transaction the notification goes at
 * its commit, with the row; outside, the row is committed already. */
static int notify(struct db *db, const char *network)
{
    struct dbs *q = dbs_prepare_kept(db, "SELECT pg_notify('" NOTIFY_CHANNEL "', ?1)");
    if (!q)
        return DB_ERROR;
    dbs_bind_text(q, 1, network);
    int rc = dbs_step(q);
    dbs_free(q);
    return rc == DBS_ROW ? DB_OK : DB_ERROR;
}

/* The writers' lock of a network's rows: a transaction advisory lock,
 * class "RINR" (its own: the lease's "RING" and presence's "RINP" are
 * counted by others), key hashtext('ringside relay NETWORK'). Rows for one
 * network are written one transaction at a time, so their ids (drawn at
 * the insert, under the lock) commit in order: the reader, which takes the
 * rows after the last id it took and marks them said by range, can then
 * never pass over a row that commits after a higher id (two owners of
 * bouts with the same network's players writing at once). Waited for at
 * most RELAY_LOCK_WAIT: a writer whose server went silent holds it until
 * its session is dropped, and a write refused keeps its rows to retry
 * (bot/relay.c). */
#define RELAY_CLASS     "1380535890"
#define RELAY_LOCK_WAIT "2s"

static int relay_lock(struct db *db, const char *network)
{
    struct dbs *q = dbs_prepare_kept(
        db, "SELECT set_config('lock_timeout', '" RELAY_LOCK_WAIT "', true),"
            " pg_advisory_xact_lock(" RELAY_CLASS ", hashtext(concat('ringside relay ',"
            " CAST(?1 AS TEXT))))");
    if (!q)
        return DB_ERROR;
    dbs_bind_text(q, 1, network);
    int rc = dbs_step(q);
    dbs_free(q);
    return rc == DBS_ROW ? DB_OK : DB_ERROR;
}

static int relay_insert(struct db *db, const char *network, enum db_relay_kind kind,
                        int64_t account, const char *target, const char *text);

int db_relay_put(struct db *db, const char *network, enum db_relay_kind kind, int64_t account,
                 const char *target, const char *text)
{
    if (pg_only(db) != DB_OK)
        return DB_ERROR;
    if (db->in_txn) /* db_relay_write's, whose lock is held */
        return relay_insert(db, network, kind, account, target, text);
    if (db_begin(db) != DB_OK)
        return DB_ERROR;
    if (relay_lock(db, network) != DB_OK ||
        relay_insert(db, network, kind, account, target, text) != DB_OK || db_commit(db) != DB_OK) {
        db_rollback(db);
        return DB_ERROR;
    }
    return DB_OK;
}

static int relay_insert(struct db *db, const char *network, enum db_relay_kind kind,
                        int64_t account, const char *target, const char *text)
{
    struct dbs *q = dbs_prepare_kept(db, "INSERT INTO relay (network, kind, account, target, text)"
                                         " VALUES (?1, ?2, ?3, ?4, ?5)");
    if (!q)
        return DB_ERROR;
    dbs_bind_text(q, 1, network);
    dbs_bind_text(q, 2, kind == DB_RELAY_CMD ? "cmd" : "say");
    dbs_bind_int64(q, 3, account);
    dbs_bind_text(q, 4, target);
    dbs_bind_text(q, 5, text);
    int rc = dbs_run(q);
    dbs_free(q);
    return rc == DBS_DONE ? notify(db, network) : DB_ERROR;
}

int db_relay_say(struct db *db, const char *network, int64_t account, const char *target,
                 const char *text, int64_t bout, int round)
{
    if (pg_only(db) != DB_OK)
        return DB_ERROR;
    /* r: the round stored: a player's line's own; a channel line's, the
     * rounds the bout has fought, as committed (its prompt's round, if it
     * asks one, would pass for a round said: db_relay_drop does not drop
     * the channel's lines); the key, a digest of everything the line is. */
    struct dbs *q = dbs_prepare_kept(
        db, "INSERT INTO relay (network, kind, account, target, text, bout, round, key)"
            " SELECT ?1, 'say', ?2, ?3, ?4, ?5, x.r, md5(concat_ws(chr(31), CAST(?1 AS TEXT),"
            " CAST(?5 AS BIGINT), x.r, CAST(?2 AS BIGINT), CAST(?3 AS TEXT), CAST(?4 AS TEXT)))"
            " FROM (SELECT CASE WHEN CAST(?6 AS BIGINT) < 0 OR CAST(?3 AS TEXT) <> '' THEN"
            " CAST(?6 AS BIGINT) ELSE coalesce((SELECT b.round FROM bouts b WHERE b.id = ?5), 0)"
            " END AS r) AS x"
            " WHERE CAST(?6 AS BIGINT) >= 0 OR NOT EXISTS (SELECT 1 FROM relay o WHERE"
            " o.network = ?1 AND o.bout = ?5 AND o.kind = 'say' AND o.account = 0 AND"
            " o.target = '' AND o.round >= -CAST(?6 AS BIGINT))"
            " ON CONFLICT (key) DO NOTHING RETURNING id");
    if (!q)
        return DB_ERROR;
    dbs_bind_text(q, 1, network);
    dbs_bind_int64(q, 2, account);
    dbs_bind_text(q, 3, target);
    dbs_bind_text(q, 4, text);
    dbs_bind_int64(q, 5, bout);
    dbs_bind_int64(q, 6, round);
    int rc = dbs_step(q);
    dbs_free(q);
    if (rc == DBS_DONE)
        return DB_EXISTS;
    return rc == DBS_ROW ? notify(db, network) : DB_ERROR;
}

int db_relay_drop(struct db *db, const char *network, int64_t bout, int round)
{
    if (pg_only(db) != DB_OK)
        return DB_ERROR;
    /* Not yet read: deleted (a data-modifying WITH runs whether or not
     * it is read). Read, and perhaps queued there: the 'drop' row
     * withdraws it from the reader's queue. */
    struct dbs *q = dbs_prepare_kept(
        db, "WITH gone AS (DELETE FROM relay WHERE network = ?1 AND bout = ?2 AND kind = 'say'"
            " AND target <> '' AND said = 0 AND round BETWEEN 1 AND ?3 RETURNING id)"
            " INSERT INTO relay (network, kind, bout, round)"
            " VALUES (?1, 'drop', ?2, ?3)");
    if (!q)
        return DB_ERROR;
    dbs_bind_text(q, 1, network);
    dbs_bind_int64(q, 2, bout);
    dbs_bind_int64(q, 3, round);
    int rc = dbs_run(q);
    dbs_free(q);
    return rc == DBS_DONE ? notify(db, network) : DB_ERROR;
}

int db_relay_next(struct db *db, int64_t after, struct db_relay *out)
{
    if (db->backend != DB_BACKEND_PG || !db->notify_pid)
        return DB_NOTFOUND;
    struct dbs *q = dbs_prepare_kept(db, "SELECT id, kind, account, target, text, bout, round"
                                         " FROM relay WHERE network = ?1 AND said = 0 AND id > ?2"
                                         " ORDER BY id LIMIT 1");
    if (!q)
        return DB_ERROR;
    dbs_bind_text(q, 1, db->network);
    dbs_bind_int64(q, 2, after);
    int rc = dbs_step(q);
    if (rc == DBS_ROW) {
        out->id = dbs_col_int64(q, 0);
        const char *kind = dbs_col_text(q, 1);
        out->kind = !kind                       ? DB_RELAY_SAY
                    : strcmp(kind, "cmd") == 0  ? DB_RELAY_CMD
                    : strcmp(kind, "drop") == 0 ? DB_RELAY_DROP
                                                : DB_RELAY_SAY;
        out->account = dbs_col_int64(q, 2);
        out->bout = dbs_col_int64(q, 5);
        out->round = dbs_col_int(q, 6);
        if (dbs_col_copy(q, 3, out->target, sizeof(out->target), "relay.target") != 0 ||
            dbs_col_copy(q, 4, out->text, sizeof(out->text), "relay.text") != 0)
            rc = DBS_ERR;
    }
    dbs_free(q);
    return rc == DBS_ROW ? DB_OK : rc == DBS_DONE ? DB_NOTFOUND : DB_ERROR;
}

/* Runs one statement of db_relay_done: ?1 the network, then `n` of from,
 * upto and now (a statement may be given no more than it uses). */
static int done_run(struct db *db, const char *sql, int n, const int64_t *v)
{
    struct dbs *q = dbs_prepare_kept(db, sql);
    if (!q)
        return DB_ERROR;
    dbs_bind_text(q, 1, db->network);
    for (int i = 0; i < n; i++)
        dbs_bind_int64(q, 2 + i, v[i]);
    int rc = dbs_run(q);
    dbs_free(q);
    return rc == DBS_DONE ? DB_OK : DB_ERROR;
}

int db_relay_done(struct db *db, int64_t from, int64_t upto, int64_t now)
{
    if (pg_only(db) != DB_OK)
        return DB_ERROR;
    const int64_t v[] = {from, upto, now}, old[] = {now};
    /* A line is marked, and kept RELAY_KEEP seconds (its key with it); a
     * command or a drop is done with. */
    if (done_run(db,
                 "UPDATE relay SET said = ?4 WHERE network = ?1 AND id BETWEEN ?2 AND ?3"
                 " AND kind = 'say' AND said = 0",
                 3, v) != DB_OK ||
        done_run(db,
                 "DELETE FROM relay WHERE network = ?1 AND id BETWEEN ?2 AND ?3 AND kind <> 'say'",
                 2, v) != DB_OK)
        return DB_ERROR;
    return done_run(db,
                    "DELETE FROM relay WHERE network = ?1 AND said > 0 AND said < ?2 - " RELAY_KEEP,
                    1, old);
}

int db_relay_forget(struct db *db, int64_t from, int64_t upto)
{
    if (pg_only(db) != DB_OK)
        return DB_ERROR;
    const int64_t v[] = {from, upto};
    return done_run(
        db, "DELETE FROM relay WHERE network = ?1 AND id BETWEEN ?2 AND ?3 AND kind <> 'say'", 2,
        v);
}

int db_remote_bout(struct db *db, int64_t account_id, int64_t *bout, char *network, size_t size)
{
    if (db->backend != DB_BACKEND_PG)
        return DB_NOTFOUND;
    struct dbs *q = dbs_prepare_kept(
        db, "SELECT b.id, b.network FROM bouts b JOIN fighters f"
            " ON f.id = b.fighter_a OR f.id = b.fighter_b WHERE f.account_id = ?1"
            " AND b.state IN ('challenge', 'live') AND b.network <> ?2 ORDER BY b.id DESC LIMIT 1");
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, account_id);
    dbs_bind_text(q, 2, db->network);
    int rc = dbs_step(q);
    if (rc == DBS_ROW) {
        *bout = dbs_col_int64(q, 0);
        if (dbs_col_copy(q, 1, network, size, "bouts.network") != 0)
            rc = DBS_ERR;
    }
    dbs_free(q);
    return rc == DBS_ROW ? DB_OK : rc == DBS_DONE ? DB_NOTFOUND : DB_ERROR;
}

int db_bout_network_other(struct db *db, int64_t bout, char *network, size_t size)
{
    if (db->backend != DB_BACKEND_PG)
        return DB_NOTFOUND;
    struct dbs *q = dbs_prepare_kept(
        db, "SELECT a.network FROM bouts b JOIN fighters f"
            " ON f.id = b.fighter_a OR f.id = b.fighter_b JOIN accounts a ON a.id = f.account_id"
            " WHERE b.id = ?1 AND a.network <> ?2 LIMIT 1");
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, bout);
    dbs_bind_text(q, 2, db->network);
    int rc = dbs_step(q);
    if (rc == DBS_ROW && dbs_col_copy(q, 0, network, size, "accounts.network") != 0)
        rc = DBS_ERR;
    dbs_free(q);
    return rc == DBS_ROW ? DB_OK : rc == DBS_DONE ? DB_NOTFOUND : DB_ERROR;
}

int db_bout_sides(struct db *db, int64_t bout, struct db_bout_side side[2])
{
    struct dbs *q = dbs_prepare_kept(
        db, "SELECT f.name, a.name, a.network FROM bouts b JOIN fighters f"
            " ON f.id = b.fighter_a OR f.id = b.fighter_b JOIN accounts a ON a.id = f.account_id"
            " WHERE b.id = ?1 ORDER BY f.id = b.fighter_b");
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, bout);
    int rc = DBS_DONE, n = 0;
    while (n < 2 && (rc = dbs_step(q)) == DBS_ROW)
        if (dbs_col_copy(q, 0, side[n].fighter, sizeof(side[n].fighter), "fighters.name") != 0 ||
            dbs_col_copy(q, 1, side[n].owner, sizeof(side[n].owner), "accounts.name") != 0 ||
            dbs_col_copy(q, 2, side[n].network, sizeof(side[n].network), "accounts.network") != 0)
            rc = DBS_ERR;
        else
            n++;
    dbs_free(q);
    if (rc == DBS_ERR)
        return DB_ERROR;
    return n == 2 ? DB_OK : DB_NOTFOUND;
}

int db_account_by_id(struct db *db, int64_t id, char *name, size_t nsize, char *network,
                     size_t wsize)
{
    struct dbs *q = dbs_prepare_kept(db, "SELECT name, network FROM accounts WHERE id = ?1");
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, id);
    int rc = dbs_step(q);
    if (rc == DBS_ROW && (dbs_col_copy(q, 0, name, nsize, "accounts.name") != 0 ||
                          dbs_col_copy(q, 1, network, wsize, "accounts.network") != 0))
        rc = DBS_ERR;
    dbs_free(q);
    return rc == DBS_ROW ? DB_OK : rc == DBS_DONE ? DB_NOTFOUND : DB_ERROR;
}

int db_is_pg(const struct db *db)
{
    return db->backend == DB_BACKEND_PG;
}

int db_network_running(struct db *db, const char *network)
{
    if (db->backend != DB_BACKEND_PG)
        return 0;
    /* The lease (lease.c, sql_pg.c) is the two-key advisory lock (class,
     * hashtext(key)): pg_locks shows it as classid, objid (unsigned). */
    struct dbs *q = dbs_prepare_kept(
        db,
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
        " AND objsubid = 2 AND classid::text::bigint = 1380535879"
        " AND objid::text::bigint = (hashtext('ringside network ' || ?1)::bigint & 4294967295)");
    if (!q)
        return 0;
    dbs_bind_text(q, 1, network);
    int running = dbs_step(q) == DBS_ROW && dbs_col_int64(q, 0) > 0;
    dbs_free(q);
    return running;
}

/* ------------------------------------------------- a turn's rows, held */

void db_relay_hold(struct db_relay_batch *b, const struct db_relay_row *row)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 16;
        b->row = xrealloc(b->row, (size_t)b->cap * sizeof(*b->row));
    }
    struct db_relay_row *r = &b->row[b->n++];
    *r = *row;
    r->text = row->text ? xstrdup(row->text) : NULL;
}

/* Writes one held row (in db_relay_write's transaction): DB_OK, or
 * DB_ERROR. */
static int write_one(struct db *db, const struct db_relay_row *r)
{
    const char *text = r->text ? r->text : "";

    if (r->kind == DB_RELAY_DROP)
        return db_relay_drop(db, r->network, r->bout, r->round);
    if (r->kind == DB_RELAY_SAY && r->bout > 0)
        return db_relay_say(db, r->network, r->account, r->target, text, r->bout, r->round) ==
                       DB_ERROR
                   ? DB_ERROR
                   : DB_OK;
    return db_relay_put(db, r->network, r->kind, r->account, r->target, text);
}

/* The writers' lock of every network b's rows go to, in the order of
 * their names (two writers never wait for each other crosswise). */
static int lock_all(struct db *db, const struct db_relay_batch *b)
{
    const char *last = "";

    for (;;) {
        const char *next = NULL;
        for (int i = 0; i < b->n; i++)
            if (strcmp(b->row[i].network, last) > 0 &&
                (!next || strcmp(b->row[i].network, next) < 0))
                next = b->row[i].network;
        if (!next)
            return DB_OK;
        if (relay_lock(db, next) != DB_OK)
            return DB_ERROR;
        last = next;
    }
}

int db_relay_write(struct db *db, struct db_relay_batch *b,
                   void (*each)(void *ctx, const struct db_relay_batch *b, int i), void *ctx)
{
    if (!b->n)
        return DB_OK;
    if (pg_only(db) != DB_OK)
        return DB_ERROR;
    /* Never inside the caller's transaction: it may yet roll back, and
     * the rows with it. */
    if (db->in_txn)
        return db_fail(db, "the relay's rows are written outside a transaction");
    if (db_begin(db) != DB_OK)
        return DB_ERROR;
    if (lock_all(db, b) != DB_OK) {
        db_rollback(db);
        return DB_ERROR;
    }
    for (int i = 0; i < b->n; i++) {
        if (each)
            each(ctx, b, i);
        if (write_one(db, &b->row[i]) != DB_OK) {
            db_rollback(db);
            return DB_ERROR;
        }
    }
    if (db_commit(db) != DB_OK) {
        db_rollback(db);
        return DB_ERROR;
    }
    db_relay_batch_free(b);
    return DB_OK;
}

void db_relay_batch_free(struct db_relay_batch *b)
{
    for (int i = 0; i < b->n; i++)
        free(b->row[i].text);
    free(b->row);
    b->row = NULL;
    b->n = b->cap = 0;
}
