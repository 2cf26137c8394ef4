/*
 * fighter.c - fighters: owned by an account, unique by key across every
 * ruleset, with the sheet of their ruleset, their record and their training
 * points. Bouts refer to them by id.
 *
 * A fighter's ruleset is chosen at creation and never changes. It is stored
 * as the ruleset's name ("boxing", "sugarray": db_rules_name) and read back
 * through db_rules_find(); the sheet lives in the columns of that ruleset,
 * the others being NULL (the table's sheet_fits_rules CHECK holds the two
 * together, and the abilities in range).
 *
 * Leagues (migration 3): the league is stored by name (db_leagues), the gold
 * record and the turns still to sit out as counts that are never negative,
 * trained and missed as 0 or 1 (any nonzero value written is 1). Create and
 * save write them; a value out of range is DB_ERROR before any SQL runs.
 */
#include <inttypes.h>
#include <string.h>

#include "db_internal.h"

/* The fighters table's sheet columns, in the order of the statements'
 * parameters (?6 on) and of FIGHTER_COLUMNS (column 5 on): a ruleset's
 * abilities name theirs (struct ruleset_field.column), and a ruleset with
 * an ability not listed here needs a migration that adds its column. */
static const char *const sheet_columns[] = {"str",   "spd",       "agl", "tgh", "hgt",
                                            "skill", "endurance", "dex", "con", "intel"};

/* Where sheet column i is bound (?6-?12, then migration 6's ?25-?27) and
 * read (FIGHTER_COLUMNS' 5-11, then 24-26). */
static int column_param(int i)
{
    return i < 7 ? 6 + i : 25 + (i - 7);
}

static int column_index(int i)
{
    return i < 7 ? 5 + i : 24 + (i - 7);
}

/* The index of column `name` in sheet_columns, or -1. */
static int sheet_column(const char *name)
{
    for (int i = 0; i < COUNT(sheet_columns); i++)
        if (strcmp(sheet_columns[i], name) == 0)
            return i;
    return -1;
}
/* Checks the league fields of `f` before they are written: DB_OK, or
 * DB_ERROR naming the first out of range. */
static int fighter_league_check(struct db *db, const struct db_fighter *f)
{
    if (!db_name_of(&db_leagues, f->league))
        return db_fail(db, "fighter %s: league %d is out of range", f->name, f->league);
    if (f->gold_record < 0 || f->paused < 0)
        return db_fail(db, "fighter %s: gold record %d, paused %d: neither may be negative",
                       f->name, f->gold_record, f->paused);
    return DB_OK;
}

/* Binds the state of `f` that save writes (?6-?17: the sheet, the record,
 * the training points; ?20-?24 the league fields; see the statement table in
 * db.c). Returns nonzero if a bind failed. The ruleset is one
 * db_rules_name() knows and fighter_league_check() passed. */
static int fighter_bind_state(sqlite3_stmt *st, const struct db_fighter *f)
{
    const struct sheet *s = &f->sheet;
    int bad = 0;

    char kit[DB_KIT_MAX];

    for (int i = 0; i < COUNT(sheet_columns); i++)
        bad |= sqlite3_bind_null(st, column_param(i)) != SQLITE_OK;
    const struct ruleset *rs = ruleset_get(s->rules);
    for (int k = 0; rs && k < rs->nfields; k++) {
        int i = sheet_column(rs->fields[k].column);
        bad |= i < 0 || sqlite3_bind_int(st, column_param(i), sheet_field_get(s, k)) != SQLITE_OK;
    }
    db_kit_store(s, kit, sizeof(kit));
    bad |= sqlite3_bind_text(st, 28, kit, -1, SQLITE_TRANSIENT) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 13, f->wins) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 14, f->losses) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 15, f->draws) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 16, f->kos) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 29, f->tkos) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 30, f->towels) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 31, f->dqs) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 32, f->forfeits) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 17, f->training_points) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 20, db_name_of(&db_leagues, f->league), -1, SQLITE_STATIC) !=
           SQLITE_OK;
    bad |= sqlite3_bind_int(st, 21, f->gold_record) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 22, f->paused) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 23, f->trained != 0) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 24, f->missed != 0) != SQLITE_OK;
    return bad;
}

/* A name column into dst (size bytes): as db_column_text, but a name
 * too long for dst (written there by hand or by an older version) is shown
 * cut at a character's start with "..." rather than failing the read, so
 * that one bad row never takes down every list (the standings, a page)
 * that holds it. The name is never written back (db_fighter_save leaves
 * it). */
static int name_column(struct db *db, sqlite3_stmt *st, int col, char *dst, size_t size,
                       const char *what)
{
    const char *s = (const char *)sqlite3_column_text(st, col);
    size_t n = (size_t)sqlite3_column_bytes(st, col);

    if (!s || n < size || size < 8)
        return db_column_text(db, st, col, dst, size, what);
    n = size - 4;
    while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
        n--;
    memcpy(dst, s, n);
    memcpy(dst + n, "...", 4);
    return DB_OK;
}

/* Fills *f from the current row of a statement selecting FIGHTER_COLUMNS. */
static int fighter_read(struct db *db, sqlite3_stmt *st, struct db_fighter *f)
{
    char rules[32];

    memset(f, 0, sizeof(*f));
    f->id = sqlite3_column_int64(st, 0);
    f->account_id = sqlite3_column_int64(st, 1);
    if (name_column(db, st, 2, f->owner, sizeof(f->owner), "account name") != DB_OK ||
        name_column(db, st, 3, f->name, sizeof(f->name), "fighter name") != DB_OK ||
        db_column_text(db, st, 4, rules, sizeof(rules), "ruleset") != DB_OK)
        return DB_ERROR;
    int id = db_rules_find(rules);
    if (id < 0)
        return db_fail(db, "fighter %" PRId64 " has ruleset %s, which this ringside does not know",
                       f->id, rules);
    f->sheet.rules = (enum rules)id;
    const struct ruleset *rs = ruleset_get(f->sheet.rules);
    for (int k = 0; k < rs->nfields; k++) {
        int i = sheet_column(rs->fields[k].column);
        if (i < 0)
            return db_fail(db, "fighter %" PRId64 ": no column for %s's %s", f->id, rs->name,
                           rs->fields[k].key);
        sheet_field_set(&f->sheet, k, sqlite3_column_int(st, column_index(i)));
    }
    char kit[DB_KIT_MAX];
    if (db_column_text(db, st, 27, kit, sizeof(kit), "fighter equipment") != DB_OK)
        return DB_ERROR;
    if (db_kit_load(kit, &f->sheet) != 0)
        return db_fail(db, "fighter %" PRId64 " has equipment \"%s\" that does not fit %s", f->id,
                       kit, rs->name);
    f->wins = sqlite3_column_int(st, 12);
    f->losses = sqlite3_column_int(st, 13);
    f->draws = sqlite3_column_int(st, 14);
    f->kos = sqlite3_column_int(st, 15);
    f->tkos = sqlite3_column_int(st, 28);
    f->towels = sqlite3_column_int(st, 29);
    f->dqs = sqlite3_column_int(st, 30);
    f->forfeits = sqlite3_column_int(st, 31);
    f->season_wins = sqlite3_column_int(st, 32);
    f->season_losses = sqlite3_column_int(st, 33);
    f->season_draws = sqlite3_column_int(st, 34);
    f->training_points = sqlite3_column_int(st, 16);
    f->retired = sqlite3_column_int(st, 17) != 0;
    f->created = sqlite3_column_int64(st, 18);
    if (db_column_name(db, st, 19, &db_leagues, "fighter", f->id, &f->league) != DB_OK)
        return DB_ERROR;
    f->gold_record = sqlite3_column_int(st, 20);
    f->paused = sqlite3_column_int(st, 21);
    f->trained = sqlite3_column_int(st, 22) != 0;
    f->missed = sqlite3_column_int(st, 23) != 0;
    if (f->gold_record < 0 || f->paused < 0)
        return db_fail(db, "fighter %" PRId64 " has gold record %d, paused %d: out of range", f->id,
                       f->gold_record, f->paused);
    return DB_OK;
}

int db_fighter_create(struct db *db, const char *key, struct db_fighter *f)
{
    const char *rules = db_rules_name(f->sheet.rules);

    if (db_text_check(db, "fighter key", key, DB_NAME_MAX) != DB_OK ||
        db_text_check(db, "fighter name", f->name, DB_NAME_MAX) != DB_OK)
        return DB_ERROR;
    if (!rules)
        return db_fail(db, "fighter %s: no storage for ruleset %d", f->name, (int)f->sheet.rules);
    if (fighter_league_check(db, f) != DB_OK)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_FIGHTER_INSERT];
    int bad = fighter_bind_state(st, f);
    bad |= sqlite3_bind_int64(st, 2, f->account_id) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 3, key, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 4, f->name, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 5, rules, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 18, f->retired != 0) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 19, f->created) != SQLITE_OK;
    switch (db_run(db, st, bad)) {
    case SQLITE_DONE:
        f->id = sqlite3_last_insert_rowid(db->conn);
        return DB_OK;
    case SQLITE_CONSTRAINT_UNIQUE:
        return DB_EXISTS;
    case SQLITE_CONSTRAINT_FOREIGNKEY:
        db_fail(db, "no account %" PRId64, f->account_id);
        return DB_NOTFOUND;
    default:
        return DB_ERROR;
    }
}

/* Runs a query for one fighter whose ?1 is bound (unless `bad`). */
static int fighter_get_one(struct db *db, sqlite3_stmt *st, int bad, struct db_fighter *out)
{
    int rc = DB_ERROR;

    if (bad) {
        db_bind_failed(db, st);
    } else {
        switch (db_row(db, st)) {
        case SQLITE_ROW:
            rc = fighter_read(db, st, out);
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

int db_fighter_get(struct db *db, const char *key, struct db_fighter *out)
{
    if (db_text_check(db, "fighter key", key, DB_NAME_MAX) != DB_OK)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_FIGHTER_GET];
    return fighter_get_one(db, st, sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC) != SQLITE_OK,
                           out);
}

int db_fighter_get_id(struct db *db, int64_t id, struct db_fighter *out)
{
    sqlite3_stmt *st = db->st[STMT_FIGHTER_GET_ID];
    return fighter_get_one(db, st, sqlite3_bind_int64(st, 1, id) != SQLITE_OK, out);
}

/* Reads up to `max` rows of a fighter query (bound, unless `bad`) into
 * out; *n the count, 0 on error. */
static int fighter_rows(struct db *db, sqlite3_stmt *st, int bad, struct db_fighter *out, int max,
                        int *n)
{
    if (bad) {
        db_bind_failed(db, st);
        db_stmt_done(st);
        return DB_ERROR;
    }
    int count = 0, status = DB_OK, rc = SQLITE_DONE;
    while (count < max && (rc = db_row(db, st)) == SQLITE_ROW) {
        if (fighter_read(db, st, &out[count]) != DB_OK) {
            status = DB_ERROR;
            break;
        }
        count++;
    }
    if (status == DB_OK && count < max && rc != SQLITE_DONE)
        status = DB_ERROR;
    db_stmt_done(st);
    *n = status == DB_OK ? count : 0;
    return status;
}

int db_fighter_list(struct db *db, int64_t account_id, int retired, struct db_fighter *out, int max,
                    int *n)
{
    *n = 0;
    if (max <= 0)
        return DB_OK;

    sqlite3_stmt *st = db->st[STMT_FIGHTER_LIST];
    int bad = 0;
    bad |= sqlite3_bind_int64(st, 1, account_id) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 2, retired != 0) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 3, max) != SQLITE_OK;
    return fighter_rows(db, st, bad, out, max, n);
}

int db_fighter_list_rules(struct db *db, enum rules rules, struct db_fighter *out, int max, int *n)
{
    const char *name = db_rules_name(rules);

    *n = 0;
    if (!name)
        return db_fail(db, "no storage for ruleset %d", (int)rules);
    if (max <= 0)
        return DB_OK;

    sqlite3_stmt *st = db->st[STMT_FIGHTER_LIST_RULES];
    int bad = sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int(st, 2, max) != SQLITE_OK;
    return fighter_rows(db, st, bad, out, max, n);
}

int db_fighter_changed(struct db *db, int64_t since, int64_t *stamp,
                       void (*fn)(void *ctx, const struct db_fighter *f), void *ctx)
{
    int64_t top = 0;
    sqlite3_stmt *st = db_changed_since(db, STMT_FIGHTER_STAMP, STMT_FIGHTER_CHANGED, since, &top);
    int rc;

    if (!st)
        return DB_ERROR;
    struct db_fighter f;
    int status = DB_OK;
    while ((rc = db_row(db, st)) == SQLITE_ROW) {
        if (fighter_read(db, st, &f) != DB_OK) {
            status = DB_ERROR;
            break;
        }
        fn(ctx, &f);
    }
    if (status == DB_OK && rc != SQLITE_DONE)
        status = DB_ERROR;
    db_stmt_done(st);
    if (status == DB_OK)
        *stamp = top;
    return status;
}

int db_fighter_save(struct db *db, const struct db_fighter *f)
{
    return db_fighter_save_from(db, f, -1);
}

int db_fighter_save_from(struct db *db, const struct db_fighter *f, int stored_league)
{
    if (!db_rules_name(f->sheet.rules))
        return db_fail(db, "fighter %" PRId64 ": no storage for ruleset %d", f->id,
                       (int)f->sheet.rules);
    if (fighter_league_check(db, f) != DB_OK)
        return DB_ERROR;

    sqlite3_stmt *st =
        db->st[f->league == stored_league ? STMT_FIGHTER_SAVE_LEAGUE_KEPT : STMT_FIGHTER_SAVE];
    int bad = fighter_bind_state(st, f);
    bad |= sqlite3_bind_int64(st, 1, f->id) != SQLITE_OK;
    if (db_run(db, st, bad) != SQLITE_DONE)
        return DB_ERROR;
    return sqlite3_changes(db->conn) == 0 ? DB_NOTFOUND : DB_OK;
}

int db_fighter_retire(struct db *db, int64_t id)
{
    sqlite3_stmt *st = db->st[STMT_FIGHTER_RETIRE];
    int bad = sqlite3_bind_int64(st, 1, id) != SQLITE_OK;

    if (db_run(db, st, bad) != SQLITE_DONE)
        return DB_ERROR;
    return sqlite3_changes(db->conn) == 0 ? DB_NOTFOUND : DB_OK;
}
