/*
 * migrate.c - a SQLite database copied into an empty PostgreSQL one
 * (`ringside --migrate-to URI`, issue 29), through the statement layer
 * (sql.h) on both connections.
 *
 * The tables are copied in the order of migrate_tables below, parents
 * before the rows that refer to them, each in its rowid order (its id
 * order, for a table with an id), in one transaction of the target: the
 * copy is whole or not there at all. Which columns a table has is read
 * from the target's catalogue (information_schema, schema_pg.sql's types)
 * and each must be one of the source's (pragma_table_info): a column or a
 * table on one side only is a schema this program does not know, refused
 * before anything is written, never half copied. Values keep their type:
 * BIGINT columns are bound as integers, DOUBLE PRECISION ones as doubles
 * (%.17g on the wire: the same double), texts as texts, NULL as NULL.
 *
 * The change stamps' triggers (schema_pg.sql) are off for the copy, so
 * every row keeps its stored stamp; the identity sequences are then moved
 * past the highest id copied, so the next row the bot inserts gets the
 * next id, as on SQLite.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"
#include "sql.h"
#include "util.h"

/* Every table of the latest schema, in the order they are copied (a
 * table after those its foreign keys name); `id`: it has an identity id
 * whose sequence is moved after the copy. */
static const struct {
    const char *name;
    int id;
} migrate_tables[] = {
    {"accounts", 1},
    {"fighters", 1},
    {"plans", 0},
    {"audit", 1},
    {"champions", 0},
    {"turns", 0},
    {"bouts", 1},
    {"orders", 0},
    {"rounds", 0},
    {"burnt_passwords", 0},
    {"meta", 0},
    {"turns_begun", 0},
    {"ratings", 0},
    {"rating_history", 0},
    {"tournaments", 1},
    {"tournament_entries", 0},
    {"tournament_bouts", 0},
    {"seasons", 0},
    {"season_standings", 0},
    {"hall_of_fame", 0},
    {"predictions", 0},
    {"channels", 0},
    {"bout_orders", 0},
};
#define MIGRATE_TABLES ((int)(sizeof(migrate_tables) / sizeof(migrate_tables[0])))

/* The tables whose change stamps have triggers (schema_pg.sql). */
static const char *const stamped[] = {"fighters", "ratings"};

/* The most columns a table has (fighters: 38). */
#define MIGRATE_COLS 64
/* Rows sent in one INSERT, and the most parameters one may have (the
 * protocol's limit is 65535): a round trip per row would make the copy of
 * a large database take minutes. */
#define MIGRATE_BATCH  200
#define MIGRATE_PARAMS 30000

/* One column of a table: its name and how its values are bound. */
enum col_type { COL_INT, COL_DOUBLE, COL_TEXT };
struct col {
    char name[64];
    enum col_type type;
};

/* The index of `name` in migrate_tables, or -1. */
static int table_known(const char *name)
{
    for (int i = 0; i < MIGRATE_TABLES; i++)
        if (strcmp(migrate_tables[i].name, name) == 0)
            return i;
    return -1;
}

/* Fails on `to` with the message of `from`'s last failure, after `what`. */
static int fail_from(struct db *to, struct db *from, const char *what)
{
    char why[sizeof(from->err)];

    snprintf(why, sizeof(why), "%s", from->err);
    return db_fail(to, "%s: %s", what, why);
}

/* Runs `sql` (no parameters, no rows) on db: DB_OK or DB_ERROR. */
static int sql_do(struct db *db, const char *sql)
{
    struct dbs *q = dbs_prepare(db, sql);
    int rc = q && dbs_run(q) == DBS_DONE ? DB_OK : DB_ERROR;

    dbs_free(q);
    return rc;
}

/* The one integer `sql` reads on db into *v (bound to `text` as ?1 if
 * not NULL): DB_OK or DB_ERROR. */
static int sql_int(struct db *db, const char *sql, const char *text, int64_t *v)
{
    struct dbs *q = dbs_prepare(db, sql);
    int rc = DB_ERROR;

    if (!q)
        return DB_ERROR;
    if (text)
        dbs_bind_text(q, 1, text);
    int step = dbs_step(q);
    if (step == DBS_ROW) {
        *v = dbs_col_int64(q, 0);
        rc = DB_OK;
    } else if (step == DBS_DONE) {
        db_fail(db, "no row from: %s", sql);
    }
    dbs_free(q);
    return rc;
}

int db_copy_source_check(struct db *src)
{
    struct dbs *q = dbs_prepare(src, "SELECT name FROM sqlite_master WHERE type = 'table' AND "
                                     "name NOT LIKE 'sqlite%' ORDER BY name");
    int seen[MIGRATE_TABLES] = {0}, rc = DB_OK, step = DBS_DONE;

    if (!q)
        return fail_from(src, src, "cannot list the tables of the database");
    while (rc == DB_OK && (step = dbs_step(q)) == DBS_ROW) {
        const char *name = dbs_col_text(q, 0);
        int i = table_known(name);
        if (i < 0)
            rc = db_fail(src,
                         "the database has a table this ringside does not know, %.64s: "
                         "migrate it with the ringside that made it",
                         name);
        else
            seen[i] = 1;
    }
    if (rc == DB_OK && step == DBS_ERR)
        rc = fail_from(src, src, "cannot list the tables of the database");
    dbs_free(q);
    for (int i = 0; rc == DB_OK && i < MIGRATE_TABLES; i++)
        if (!seen[i])
            rc = db_fail(src, "the database has no table %s: it is not at the latest schema",
                         migrate_tables[i].name);
    return rc;
}

/* The rows of target table i (but meta's schema_version) into *n. */
static int rows_count(struct db *dst, int i, int64_t *n)
{
    struct str sql;
    int rc;

    str_init(&sql);
    str_add(&sql, "SELECT count(*) FROM \"%s\"%s", migrate_tables[i].name,
            strcmp(migrate_tables[i].name, "meta") == 0 ? " WHERE key <> 'schema_version'" : "");
    rc = sql_int(dst, sql.p, NULL, n);
    str_free(&sql);
    return rc;
}

/* Checks that the target holds no row (but meta's schema_version) in
 * Ringside's tables, then no table but those: DB_OK, or DB_ERROR with why
 * in dst->err. */
static int target_empty_check(struct db *dst, const char *shown)
{
    int rc = DB_OK;

    for (int i = 0; rc == DB_OK && i < MIGRATE_TABLES; i++) {
        int64_t n = 0;
        rc = rows_count(dst, i, &n);
        if (rc == DB_OK && n > 0)
            rc = db_fail(dst,
                         "%s is not empty: its table %s holds %lld rows; migrate into a new, "
                         "empty database (createdb)",
                         shown, migrate_tables[i].name, (long long)n);
    }
    struct dbs *q = rc == DB_OK ? dbs_prepare(dst, "SELECT table_name FROM "
                                                   "information_schema.tables WHERE table_schema"
                                                   " = current_schema() ORDER BY table_name")
                                : NULL;
    if (!q)
        return DB_ERROR;
    /* relay (migration 20) is PostgreSQL's own, the bots' traffic: nothing
     * of SQLite's goes there. */
    while (rc == DB_OK && dbs_step(q) == DBS_ROW)
        if (table_known(dbs_col_text(q, 0)) < 0 && strcmp(dbs_col_text(q, 0), "relay") != 0)
            rc = db_fail(dst,
                         "%s is not empty: it holds a table %.64s; migrate into a new, empty "
                         "database (createdb)",
                         shown, dbs_col_text(q, 0));
    dbs_free(q);
    return rc;
}

/* Reads the columns of target table `table` into cols (*n of them) and
 * checks each is a column of the source's: DB_OK, or DB_ERROR. */
static int columns_read(struct db *src, struct db *dst, const char *table, struct col *cols, int *n)
{
    struct dbs *q = dbs_prepare(dst, "SELECT column_name, data_type FROM information_schema.columns"
                                     " WHERE table_schema = current_schema() AND table_name = ?1"
                                     " ORDER BY ordinal_position");
    int rc = DB_OK;
    int64_t lite = 0;

    *n = 0;
    if (!q)
        return DB_ERROR;
    dbs_bind_text(q, 1, table);
    while (rc == DB_OK && dbs_step(q) == DBS_ROW) {
        const char *type = dbs_col_text(q, 1);
        if (*n == MIGRATE_COLS)
            rc = db_fail(dst, "table %s has more than %d columns", table, MIGRATE_COLS);
        else if (dbs_col_copy(q, 0, cols[*n].name, sizeof(cols[*n].name), "column") == DB_OK)
            cols[(*n)++].type = strcmp(type, "bigint") == 0             ? COL_INT
                                : strcmp(type, "double precision") == 0 ? COL_DOUBLE
                                                                        : COL_TEXT;
        else
            rc = DB_ERROR;
    }
    dbs_free(q);
    if (rc == DB_OK &&
        sql_int(src, "SELECT count(*) FROM pragma_table_info(?1)", table, &lite) != DB_OK)
        rc = fail_from(dst, src, "cannot read the columns of the database");
    if (rc == DB_OK && (lite != *n || *n == 0))
        rc = db_fail(dst,
                     "table %s has %lld columns in the database and %d in the target's schema: "
                     "migrate with the ringside that made the database",
                     table, (long long)lite, *n);
    return rc;
}

/* Binds column c of source row `from` as parameter `param` of `to`
 * (texts copied: the source's row is gone once the next is stepped). */
static void value_bind(struct dbs *to, int param, struct dbs *from, const struct col *cols, int c)
{
    if (dbs_col_is_null(from, c))
        dbs_bind_null(to, param);
    else if (cols[c].type == COL_INT)
        dbs_bind_int64(to, param, dbs_col_int64(from, c));
    else if (cols[c].type == COL_DOUBLE)
        dbs_bind_double(to, param, dbs_col_double(from, c));
    else
        dbs_bind_text_copy(to, param, dbs_col_text(from, c));
}

/* The SELECT of the source for `table` (its ORDER BY to be added). */
static void select_sql(const char *table, const struct col *cols, int n, struct str *sel)
{
    str_add(sel, "SELECT ");
    for (int c = 0; c < n; c++)
        str_add(sel, "%s\"%s\"", c ? ", " : "", cols[c].name);
    str_add(sel, " FROM \"%s\"%s ORDER BY ", table,
            strcmp(table, "meta") == 0 ? " WHERE key <> 'schema_version'" : "");
}

/* The INSERT of `rows` rows into target table `table`, prepared. */
static struct dbs *insert_prepare(struct db *dst, const char *table, const struct col *cols, int n,
                                  int rows)
{
    struct str ins;
    struct dbs *q;

    str_init(&ins);
    str_add(&ins, "INSERT INTO \"%s\" (", table);
    for (int c = 0; c < n; c++)
        str_add(&ins, "%s\"%s\"", c ? ", " : "", cols[c].name);
    str_cat(&ins, ") VALUES ");
    for (int r = 0; r < rows; r++) {
        str_cat(&ins, r ? ", (" : "(");
        for (int c = 0; c < n; c++)
            str_add(&ins, "%s?%d", c ? ", " : "", r * n + c + 1);
        str_ch(&ins, ')');
    }
    q = dbs_prepare(dst, ins.p);
    str_free(&ins);
    return q;
}

/* Appends the primary key's columns of source table `table` to sel (its
 * rowid if it has none): the order the rows are copied in, which is the id
 * order of a table with an id. DB_OK, or DB_ERROR with why in dst->err. */
static int key_order(struct db *src, struct db *dst, const char *table, struct str *sel)
{
    struct dbs *q = dbs_prepare(src, "SELECT name FROM pragma_table_info(?1) WHERE pk > 0 "
                                     "ORDER BY pk");
    size_t before = sel->len;
    int step;

    if (!q)
        return fail_from(dst, src, "cannot read the columns of the database");
    dbs_bind_text(q, 1, table);
    while ((step = dbs_step(q)) == DBS_ROW)
        str_add(sel, "%s\"%s\"", sel->len > before ? ", " : "", dbs_col_text(q, 0));
    dbs_free(q);
    if (step == DBS_ERR)
        return fail_from(dst, src, "cannot read the columns of the database");
    if (sel->len == before)
        str_cat(sel, "rowid");
    return DB_OK;
}

/* The rows of source table `table` into *n. */
static int source_rows(struct db *src, struct db *dst, const char *table, int64_t *n)
{
    struct str sql;
    int rc;

    str_init(&sql);
    str_add(&sql, "SELECT count(*) FROM \"%s\"%s", table,
            strcmp(table, "meta") == 0 ? " WHERE key <> 'schema_version'" : "");
    rc = sql_int(src, sql.p, NULL, n);
    str_free(&sql);
    return rc == DB_OK ? DB_OK : fail_from(dst, src, "cannot read the database");
}

/* Copies the `total` rows that `from` reads into target table `table`,
 * MIGRATE_BATCH at a time (one statement, one round trip each), counting
 * them in *rows: DB_OK, or DB_ERROR with why in dst->err. */
static int rows_copy(struct db *src, struct db *dst, const char *table, const struct col *cols,
                     int n, struct dbs *from, int64_t total, int64_t *rows)
{
    int batch = MIGRATE_PARAMS / n, size = 0, rc = DB_OK;
    struct dbs *to = NULL;

    batch = batch > MIGRATE_BATCH ? MIGRATE_BATCH : batch;
    while (rc == DB_OK && *rows < total) {
        int k = total - *rows < batch ? (int)(total - *rows) : batch;
        if (k != size) {
            dbs_free(to);
            size = k;
            if (!(to = insert_prepare(dst, table, cols, n, k)))
                return DB_ERROR;
        }
        for (int r = 0; rc == DB_OK && r < k; r++) {
            if (dbs_step(from) != DBS_ROW)
                rc = fail_from(dst, src, "cannot read the database (or it changed)");
            for (int c = 0; rc == DB_OK && c < n; c++)
                value_bind(to, r * n + c + 1, from, cols, c);
        }
        if (rc == DB_OK && dbs_run(to) != DBS_DONE) {
            char what[128];
            snprintf(what, sizeof(what), "rows %lld to %lld of table %s", (long long)*rows + 1,
                     (long long)*rows + k, table);
            rc = fail_from(dst, dst, what);
        }
        *rows += rc == DB_OK ? k : 0;
    }
    dbs_free(to);
    return rc;
}

/* Copies every row of `table` from src to dst, counting them in *rows:
 * DB_OK, or DB_ERROR with why in dst->err. */
static int table_copy(struct db *src, struct db *dst, const char *table, int64_t *rows)
{
    struct col *cols = xmalloc(MIGRATE_COLS * sizeof(*cols));
    struct dbs *from = NULL;
    struct str sel;
    int64_t total = 0;
    int n, rc;

    str_init(&sel);
    *rows = 0;
    rc = columns_read(src, dst, table, cols, &n);
    if (rc == DB_OK) {
        select_sql(table, cols, n, &sel);
        rc = key_order(src, dst, table, &sel);
    }
    if (rc == DB_OK)
        rc = source_rows(src, dst, table, &total);
    if (rc == DB_OK && !(from = dbs_prepare(src, sel.p)))
        rc = fail_from(dst, src, "cannot read the database");
    if (rc == DB_OK)
        rc = rows_copy(src, dst, table, cols, n, from, total, rows);
    dbs_free(from);
    str_free(&sel);
    free(cols);
    return rc;
}

/* Switches the change stamps' triggers off (on 0) or on (1). */
static int triggers_set(struct db *dst, int on)
{
    for (size_t i = 0; i < sizeof(stamped) / sizeof(stamped[0]); i++) {
        char sql[96];
        snprintf(sql, sizeof(sql), "ALTER TABLE %s %s TRIGGER USER", stamped[i],
                 on ? "ENABLE" : "DISABLE");
        if (sql_do(dst, sql) != DB_OK)
            return DB_ERROR;
    }
    return DB_OK;
}

/* Moves the identity sequence of `table` past its highest id, and counts
 * the target's rows of it into *rows. */
static int table_finish(struct db *dst, int i, int64_t *rows)
{
    const char *table = migrate_tables[i].name;
    struct str sql;
    int64_t v;
    int rc = DB_OK;

    str_init(&sql);
    if (migrate_tables[i].id) {
        str_add(&sql,
                "SELECT setval(pg_get_serial_sequence('%s', 'id'), coalesce(max(id), 0) + 1, "
                "false) FROM \"%s\"",
                table, table);
        rc = sql_int(dst, sql.p, NULL, &v);
        str_clear(&sql);
    }
    str_add(&sql, "SELECT count(*) FROM \"%s\"%s", table,
            strcmp(table, "meta") == 0 ? " WHERE key <> 'schema_version'" : "");
    if (rc == DB_OK)
        rc = sql_int(dst, sql.p, NULL, rows);
    str_free(&sql);
    return rc;
}

/* The copy itself, inside both transactions. */
static int copy_all(struct db *src, struct db *dst, const char *shown, struct db_copied *out)
{
    int rc = db_copy_source_check(src) == DB_OK ? DB_OK : fail_from(dst, src, "the source");

    if (rc == DB_OK)
        rc = target_empty_check(dst, shown);
    if (rc == DB_OK)
        rc = triggers_set(dst, 0);
    for (int i = 0; rc == DB_OK && i < MIGRATE_TABLES; i++) {
        out[i].table = migrate_tables[i].name;
        rc = table_copy(src, dst, migrate_tables[i].name, &out[i].rows);
    }
    if (rc == DB_OK)
        rc = triggers_set(dst, 1);
    for (int i = 0; rc == DB_OK && i < MIGRATE_TABLES; i++) {
        int64_t there = 0;
        rc = table_finish(dst, i, &there);
        if (rc == DB_OK && there != out[i].rows)
            rc = db_fail(dst, "table %s: %lld rows copied but %lld in %s", out[i].table,
                         (long long)out[i].rows, (long long)there, shown);
    }
    return rc;
}

int db_copy_to(struct db *src, struct db *dst, const char *shown, struct db_copied *out, int *n)
{
    int rc;

    *n = 0;
    dst->err[0] = '\0';
    if (src->backend != DB_BACKEND_SQLITE || dst->backend != DB_BACKEND_PG)
        return db_fail(dst, "a migration copies a SQLite database into a PostgreSQL one");
    if (db_read_begin(src) != DB_OK)
        return fail_from(dst, src, "cannot read the database");
    if (db_begin(dst) != DB_OK) {
        db_read_end(src);
        return DB_ERROR;
    }
    rc = copy_all(src, dst, shown, out);
    db_read_end(src);
    if (rc == DB_OK && db_commit(dst) == DB_OK) {
        *n = MIGRATE_TABLES;
        return DB_OK;
    }
    char why[sizeof(dst->err)];
    snprintf(why, sizeof(why), "%s", dst->err);
    db_rollback(dst);
    return db_fail(dst, "%s", why);
}

int db_copy_unmake(struct db *dst)
{
    int rc = db_begin(dst);

    /* Only tables with no row: what was made is all that goes. */
    for (int i = 0; rc == DB_OK && i < MIGRATE_TABLES; i++) {
        int64_t n = 0;
        rc = rows_count(dst, i, &n);
        if (rc == DB_OK && n > 0)
            rc = db_fail(dst, "table %s holds rows: the schema is kept", migrate_tables[i].name);
    }
    if (rc == DB_OK)
        rc = sql_do(dst, "DROP TABLE IF EXISTS relay"); /* migration 20's, PostgreSQL's own */
    for (int i = MIGRATE_TABLES - 1; rc == DB_OK && i >= 0; i--) {
        char sql[96];
        snprintf(sql, sizeof(sql), "DROP TABLE \"%s\"", migrate_tables[i].name);
        rc = sql_do(dst, sql);
    }
    if (rc == DB_OK)
        rc = sql_do(dst, "DROP FUNCTION fighters_stamp(), ratings_stamp(), fighters_next_stamp(),"
                         " ratings_next_stamp(), turns_next_number(TEXT)");
    if (rc == DB_OK)
        return db_commit(dst);
    db_rollback(dst);
    return DB_ERROR;
}

int db_bouts_fought(struct db *db, int64_t after, int64_t *ids, int max, int *n)
{
    struct dbs *q = dbs_prepare_kept(db, "SELECT id FROM bouts WHERE id > ?1 AND state IN "
                                         "('live', 'over') ORDER BY id LIMIT ?2");
    int step = DBS_DONE;

    *n = 0;
    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, after);
    dbs_bind_int64(q, 2, max);
    while (*n < max && (step = dbs_step(q)) == DBS_ROW)
        ids[(*n)++] = dbs_col_int64(q, 0);
    dbs_free(q);
    return step == DBS_ERR ? DB_ERROR : DB_OK;
}
