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
 * db.c); a failed bind is reported by the run. The ruleset is one
 * db_rules_name() knows and fighter_league_check() passed. */
static void fighter_bind_state(struct dbs *q, const struct db_fighter *f)
{
    const struct sheet *s = &f->sheet;
    char kit[DB_KIT_MAX];

    for (int i = 0; i < COUNT(sheet_columns); i++)
        dbs_bind_null(q, column_param(i));
    const struct ruleset *rs = ruleset_get(s->rules);
    for (int k = 0; rs && k < rs->nfields; k++) {
        int i = sheet_column(rs->fields[k].column);
        if (i < 0)
            q->bad = 1; /* no column for it: the run fails, binding nothing */
        else
            dbs_bind_int64(q, column_param(i), sheet_field_get(s, k));
    }
    db_kit_store(s, kit, sizeof(kit));
    dbs_bind_text_copy(q, 28, kit);
    dbs_bind_int64(q, 13, f->wins);
    dbs_bind_int64(q, 14, f->losses);
    dbs_bind_int64(q, 15, f->draws);
    dbs_bind_int64(q, 16, f->kos);
    dbs_bind_int64(q, 29, f->tkos);
    dbs_bind_int64(q, 30, f->towels);
    dbs_bind_int64(q, 31, f->dqs);
    dbs_bind_int64(q, 32, f->forfeits);
    dbs_bind_int64(q, 17, f->training_points);
    dbs_bind_text(q, 20, db_name_of(&db_leagues, f->league));
    dbs_bind_int64(q, 21, f->gold_record);
    dbs_bind_int64(q, 22, f->paused);
    dbs_bind_int64(q, 23, f->trained != 0);
    dbs_bind_int64(q, 24, f->missed != 0);
}

/* A name column into dst (size bytes): as db_column_text, but a name
 * too long for dst (written there by hand or by an older version) is shown
 * cut at a character's start with "..." rather than failing the read, so
 * that one bad row never takes down every list (the standings, a page)
 * that holds it. The name is never written back (db_fighter_save leaves
 * it). */
static int name_column(struct dbs *q, int col, char *dst, size_t size, const char *what)
{
    const char *s = dbs_col_text(q, col);
    size_t n = s ? strlen(s) : 0;

    if (!s || n < size || size < 8)
        return dbs_col_copy(q, col, dst, size, what);
    n = size - 4;
    while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
        n--;
    memcpy(dst, s, n);
    memcpy(dst + n, "...", 4);
    return DB_OK;
}

/* Fills *f from the current row of a statement selecting FIGHTER_COLUMNS. */
static int fighter_read(struct dbs *q, struct db_fighter *f)
{
    struct db *db = q->db;
    char rules[32];

    memset(f, 0, sizeof(*f));
    f->id = dbs_col_int64(q, 0);
    f->account_id = dbs_col_int64(q, 1);
    if (name_column(q, 2, f->owner, sizeof(f->owner), "account name") != DB_OK ||
        name_column(q, 3, f->name, sizeof(f->name), "fighter name") != DB_OK ||
        dbs_col_copy(q, 4, rules, sizeof(rules), "ruleset") != DB_OK)
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
        sheet_field_set(&f->sheet, k, dbs_col_int(q, column_index(i)));
    }
    char kit[DB_KIT_MAX];
    if (dbs_col_copy(q, 27, kit, sizeof(kit), "fighter equipment") != DB_OK)
        return DB_ERROR;
    if (db_kit_load(kit, &f->sheet) != 0)
        return db_fail(db, "fighter %" PRId64 " has equipment \"%s\" that does not fit %s", f->id,
                       kit, rs->name);
    f->wins = dbs_col_int(q, 12);
    f->losses = dbs_col_int(q, 13);
    f->draws = dbs_col_int(q, 14);
    f->kos = dbs_col_int(q, 15);
    f->tkos = dbs_col_int(q, 28);
    f->towels = dbs_col_int(q, 29);
    f->dqs = dbs_col_int(q, 30);
    f->forfeits = dbs_col_int(q, 31);
    f->season_wins = dbs_col_int(q, 32);
    f->season_losses = dbs_col_int(q, 33);
    f->season_draws = dbs_col_int(q, 34);
    if (dbs_col_copy(q, 35, f->owner_network, sizeof(f->owner_network), "network") != DB_OK)
        return DB_ERROR; /* migration 18 */
    f->training_points = dbs_col_int(q, 16);
    f->retired = dbs_col_int(q, 17) != 0;
    f->created = dbs_col_int64(q, 18);
    if (dbs_col_name(q, 19, &db_leagues, "fighter", f->id, &f->league) != DB_OK)
        return DB_ERROR;
    f->gold_record = dbs_col_int(q, 20);
    f->paused = dbs_col_int(q, 21);
    f->trained = dbs_col_int(q, 22) != 0;
    f->missed = dbs_col_int(q, 23) != 0;
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

    struct dbs *q = dbs_table(db, STMT_FIGHTER_INSERT);
    fighter_bind_state(q, f);
    dbs_bind_int64(q, 2, f->account_id);
    dbs_bind_text(q, 3, key);
    dbs_bind_text(q, 4, f->name);
    dbs_bind_text(q, 5, rules);
    dbs_bind_int64(q, 18, f->retired != 0);
    dbs_bind_int64(q, 19, f->created);
    if (dbs_run(q) == DBS_DONE) {
        f->id = dbs_insert_id(q);
        return DB_OK;
    }
    switch (dbs_error(q)) {
    case DBS_E_UNIQUE:
        return DB_EXISTS;
    case DBS_E_FOREIGN_KEY:
        db_fail(db, "no account %" PRId64, f->account_id);
        return DB_NOTFOUND;
    default:
        return DB_ERROR;
    }
}

/* Runs a query for one fighter whose ?1 is bound. */
static int fighter_get_one(struct dbs *q, struct db_fighter *out)
{
    int rc = DB_ERROR;

    rc = dbs_step_one(q);
    if (rc == DB_OK)
        rc = fighter_read(q, out);
    dbs_reset(q);
    return rc;
}

int db_fighter_get(struct db *db, const char *key, struct db_fighter *out)
{
    if (db_text_check(db, "fighter key", key, DB_NAME_MAX) != DB_OK)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_FIGHTER_GET);
    dbs_bind_text(q, 1, key);
    return fighter_get_one(q, out);
}

int db_fighter_get_id(struct db *db, int64_t id, struct db_fighter *out)
{
    struct dbs *q = dbs_table(db, STMT_FIGHTER_GET_ID);
    dbs_bind_int64(q, 1, id);
    return fighter_get_one(q, out);
}

/* Reads up to `max` rows of a fighter query (bound) into out; *n the
 * count, 0 on error. */
static int fighter_rows(struct dbs *q, struct db_fighter *out, int max, int *n)
{
    int count = 0, status = DB_OK, rc = DBS_DONE;
    while (count < max && (rc = dbs_step(q)) == DBS_ROW) {
        if (fighter_read(q, &out[count]) != DB_OK) {
            status = DB_ERROR;
            break;
        }
        count++;
    }
    if (status == DB_OK && count < max && rc != DBS_DONE)
        status = DB_ERROR;
    dbs_reset(q);
    *n = status == DB_OK ? count : 0;
    return status;
}

int db_fighter_list(struct db *db, int64_t account_id, int retired, struct db_fighter *out, int max,
                    int *n)
{
    *n = 0;
    if (max <= 0)
        return DB_OK;

    struct dbs *q = dbs_table(db, STMT_FIGHTER_LIST);
    dbs_bind_int64(q, 1, account_id);
    dbs_bind_int64(q, 2, retired != 0);
    dbs_bind_int64(q, 3, max);
    return fighter_rows(q, out, max, n);
}

int db_fighter_list_rules(struct db *db, enum rules rules, struct db_fighter *out, int max, int *n)
{
    const char *name = db_rules_name(rules);

    *n = 0;
    if (!name)
        return db_fail(db, "no storage for ruleset %d", (int)rules);
    if (max <= 0)
        return DB_OK;

    struct dbs *q = dbs_table(db, STMT_FIGHTER_LIST_RULES);
    dbs_bind_text(q, 1, name);
    dbs_bind_int64(q, 2, max);
    return fighter_rows(q, out, max, n);
}

int db_fighter_changed(struct db *db, int64_t since, int64_t *stamp,
                       void (*fn)(void *ctx, const struct db_fighter *f), void *ctx)
{
    int64_t top = 0;
    int rc;

    /* db_changed_since reads the top stamp and binds the table's
     * STMT_FIGHTER_CHANGED, which q then steps. */
    if (!db_changed_since(db, STMT_FIGHTER_STAMP, STMT_FIGHTER_CHANGED, since, &top))
        return DB_ERROR;
    struct dbs *q = dbs_table(db, STMT_FIGHTER_CHANGED);
    struct db_fighter f;
    int status = DB_OK;
    while ((rc = dbs_step(q)) == DBS_ROW) {
        if (fighter_read(q, &f) != DB_OK) {
            status = DB_ERROR;
            break;
        }
        fn(ctx, &f);
    }
    if (status == DB_OK && rc != DBS_DONE)
        status = DB_ERROR;
    dbs_reset(q);
    if (status == DB_OK)
        *stamp = top;
    return status;
}

int db_fighter_save(struct db *db, const struct db_fighter *f)
{
    return db_fighter_save_from(db, f, -1, 0);
}

/* db.c's STMT_FIGHTER_SAVE and STMT_FIGHTER_SAVE_LEAGUE_KEPT with the
 * change stamp bound (?33) rather than read from the stamp's index by the
 * statement, for a league turn that numbers its saves itself (a tenth of
 * a save's work). The same columns from the same parameters: keep them
 * together (test_turn_save_stamped compares the rows). */
#define SEASON_MOVE_STAMPED(col, p, career)                                                        \
    " " col " = CASE WHEN " col " + " p " - " career " > 0 THEN " col " + " p " - " career         \
    " ELSE 0 END,"
/* The SET list with parameter N written P(N): `?N` for one row (Q), and
 * the column pN of the unnest of PostgreSQL's rows (U, below). */
#define Q(n) "?" #n
#define U(n) "u.p" #n
/* clang-format off */
#define SAVE_SET(P)                                                                                \
    "str = " P(6) ", spd = " P(7) ", agl = " P(8) ", tgh = " P(9) ", hgt = " P(10) ","             \
    SEASON_MOVE_STAMPED("season_wins", P(13), "wins")                                              \
    SEASON_MOVE_STAMPED("season_losses", P(14), "losses")                                          \
    SEASON_MOVE_STAMPED("season_draws", P(15), "draws")                                            \
    " skill = " P(11) ", endurance = " P(12) ", wins = " P(13) ", losses = " P(14) ","             \
    " draws = " P(15) ", kos = " P(16) ", training_points = " P(17) ", gold_record = " P(21) ","   \
    " paused = " P(22) ", trained = " P(23) ", missed = " P(24) ", dex = " P(25) ","               \
    " con = " P(26) ", intel = " P(27) ", kit = " P(28) ", tkos = " P(29) ", towels = " P(30) ","  \
    " dqs = " P(31) ", forfeits = " P(32) ", changed = " P(33)
/* clang-format on */
static const char save_stamped_sql[] =
    "UPDATE fighters SET league = ?20, " SAVE_SET(Q) " WHERE id = ?1";
static const char save_league_kept_stamped_sql[] =
    "UPDATE fighters SET " SAVE_SET(Q) " WHERE id = ?1";

/* The same on PostgreSQL for many fighters at once (dbs_rows_add): each
 * parameter an array, a fighter a row of their unnest (the numbers the
 * statements skip, ?2-?5, ?18 and ?19, are not sent). */
#define B(n) "CAST(?" #n " AS BIGINT[])"
#define T(n) "CAST(?" #n " AS TEXT[])"
/* clang-format off */
#define SAVE_ROWS                                                                                  \
    " FROM unnest(" B(1) "," B(6) "," B(7) "," B(8) "," B(9) "," B(10) "," B(11) "," B(12) ","    \
    B(13) "," B(14) "," B(15) "," B(16) "," B(17) "," T(20) "," B(21) "," B(22) "," B(23) ","     \
    B(24) "," B(25) "," B(26) "," B(27) "," T(28) "," B(29) "," B(30) "," B(31) "," B(32) ","     \
    B(33) ") AS u(p1, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17, p20, p21, p22,"      \
    " p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33) WHERE id = u.p1"
/* clang-format on */
static const char save_rows_sql[] = "UPDATE fighters SET league = u.p20, " SAVE_SET(U) SAVE_ROWS;
static const char save_league_kept_rows_sql[] = "UPDATE fighters SET " SAVE_SET(U) SAVE_ROWS;

int db_fighter_save_from(struct db *db, const struct db_fighter *f, int stored_league,
                         int64_t stamp)
{
    if (!db_rules_name(f->sheet.rules))
        return db_fail(db, "fighter %" PRId64 ": no storage for ruleset %d", f->id,
                       (int)f->sheet.rules);
    if (fighter_league_check(db, f) != DB_OK)
        return DB_ERROR;

    int kept = f->league == stored_league;
    /* A turn's save on PostgreSQL: a row of the turn's batch (sql.h). */
    int rows = stamp > 0 && dbs_rows_open(db);
    struct dbs *q;
    if (rows)
        q = dbs_prepare_kept(db, kept ? save_league_kept_rows_sql : save_rows_sql);
    else if (stamp > 0)
        q = dbs_prepare_kept(db, kept ? save_league_kept_stamped_sql : save_stamped_sql);
    else
        q = dbs_table(db, kept ? STMT_FIGHTER_SAVE_LEAGUE_KEPT : STMT_FIGHTER_SAVE);
    if (!q)
        return DB_ERROR;
    fighter_bind_state(q, f);
    dbs_bind_int64(q, 1, f->id);
    if (stamp > 0)
        dbs_bind_int64(q, 33, stamp);
    /* A fighter not there then fails the turn's commit. */
    int rc = rows ? dbs_rows_add(q) : dbs_run(q);
    int64_t changes = rc == DBS_DONE ? dbs_changes(q) : 0;
    if (stamp > 0)
        dbs_free(q); /* kept: only reset (past DB_KEPT_MAX: finalized) */
    if (rc != DBS_DONE)
        return DB_ERROR;
    return changes == 0 ? DB_NOTFOUND : DB_OK;
}

int db_fighter_stamp_top(struct db *db, int64_t *top)
{
    struct dbs *q = dbs_table(db, STMT_FIGHTER_STAMP);
    int rc = dbs_step_one(q);

    if (rc == DB_OK)
        *top = dbs_col_int64(q, 0);
    dbs_reset(q);
    return rc == DB_OK ? DB_OK : DB_ERROR;
}

int db_fighter_retire(struct db *db, int64_t id)
{
    struct dbs *q = dbs_table(db, STMT_FIGHTER_RETIRE);

    dbs_bind_int64(q, 1, id);
    if (dbs_run(q) != DBS_DONE)
        return DB_ERROR;
    return dbs_changes(q) == 0 ? DB_NOTFOUND : DB_OK;
}

/* 1 if a row of another table refers to fighter ?1, else 0: every
 * foreign key to fighters but his plan's (test_fighter_references lists
 * them from the schema). One row whatever the fighter. */
static const char fighter_refs_sql[] =
    "SELECT CASE WHEN EXISTS (SELECT 1 FROM bouts WHERE fighter_a = ?1 OR fighter_b = ?1)"
    " OR EXISTS (SELECT 1 FROM ratings WHERE fighter = ?1)"
    " OR EXISTS (SELECT 1 FROM rating_history WHERE fighter = ?1)"
    " OR EXISTS (SELECT 1 FROM champions WHERE fighter = ?1)"
    " OR EXISTS (SELECT 1 FROM tournaments WHERE winner = ?1)"
    " OR EXISTS (SELECT 1 FROM tournament_entries WHERE fighter = ?1)"
    " OR EXISTS (SELECT 1 FROM tournament_bouts WHERE fighter_a = ?1 OR fighter_b = ?1"
    " OR winner = ?1)"
    " OR EXISTS (SELECT 1 FROM season_standings WHERE fighter = ?1)"
    " OR EXISTS (SELECT 1 FROM hall_of_fame WHERE fighter = ?1) THEN 1 ELSE 0 END";

/* The count of fighters removed, in meta (a reader that keeps fighters,
 * ringside-web, reads everything again when it moves: a row deleted is
 * no row it could see changed). */
static const char gone_count_sql[] =
    "INSERT INTO meta (key, value) VALUES ('fighters_gone', '1') ON CONFLICT (key)"
    " DO UPDATE SET value = CAST(CAST(meta.value AS BIGINT) + 1 AS TEXT)";
static const char gone_read_sql[] =
    "SELECT CAST(value AS BIGINT) FROM meta WHERE key = 'fighters_gone'";

/* Runs kept statement `sql`, with ?1 bound to id when id > 0: the rows
 * it changed, or -1. */
static int64_t run_on_id(struct db *db, const char *sql, int64_t id)
{
    struct dbs *q = dbs_prepare_kept(db, sql);

    if (!q)
        return -1;
    if (id > 0)
        dbs_bind_int64(q, 1, id);
    int64_t n = dbs_run(q) == DBS_DONE ? dbs_changes(q) : -1;
    dbs_free(q);
    return n;
}

int db_fighter_remove(struct db *db, int64_t id)
{
    struct dbs *q = dbs_prepare_kept(db, fighter_refs_sql);

    if (!q)
        return DB_ERROR;
    dbs_bind_int64(q, 1, id);
    int rc = dbs_step_one(q);
    int refs = rc == DB_OK ? dbs_col_int(q, 0) : 1;
    dbs_free(q);
    if (rc != DB_OK)
        return DB_ERROR;
    if (refs)
        return DB_EXISTS;
    if (run_on_id(db, "DELETE FROM plans WHERE fighter = ?1", id) < 0)
        return DB_ERROR;
    int64_t n = run_on_id(db, "DELETE FROM fighters WHERE id = ?1", id);
    if (n <= 0)
        return n < 0 ? DB_ERROR : DB_NOTFOUND;
    return run_on_id(db, gone_count_sql, 0) == 1 ? DB_OK : DB_ERROR;
}

int db_fighter_gone(struct db *db, int64_t *count)
{
    struct dbs *q = dbs_prepare_kept(db, gone_read_sql);

    *count = 0;
    if (!q)
        return DB_ERROR;
    int rc = dbs_step_one(q);
    if (rc == DB_OK)
        *count = dbs_col_int64(q, 0);
    dbs_free(q);
    return rc == DB_ERROR ? DB_ERROR : DB_OK;
}
