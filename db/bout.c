/*
 * bout.c - bouts, the orders of their rounds, and the texts of the rounds
 * resolved (migration 2).
 *
 * A bout's enums are stored by name, from the tables below: designated
 * initializers tie each name to its enum constant, so a renumbering of the
 * engine's enums changes nothing stored. The names are the schema's (the
 * CHECKs of migration 2 list them) and never change once released. A value
 * without a name is refused on write, and a name without a value (a file
 * edited by hand) on read: DB_ERROR either way, never garbage.
 *
 * The seed is a uint64 stored in a signed 64-bit INTEGER bit for bit: seeds
 * from 2^63 up read as negative numbers in the file.
 *
 * What a bout counts for (migration 3): its kind decides which of turn and
 * league it has. An exhibition has neither (turn 0, league NULL: -1), a
 * title bout a turn, a league bout a turn and a league; create stores that
 * and sets *b to match, so a caller that zeroes a challenge gets an
 * exhibition without naming a league.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"
#include "util.h"

/* ----------------------------------------------------------- enum names */

static const char *const state_names[] = {
    [DB_BOUT_CHALLENGE] = "challenge",
    [DB_BOUT_LIVE] = "live",
    [DB_BOUT_OVER] = "over",
    [DB_BOUT_CANCELLED] = "cancelled",
};
static const char *const method_names[] = {
    [METHOD_NONE] = "none",         [METHOD_KO] = "ko",
    [METHOD_TKO] = "tko",           [METHOD_DQ] = "dq",
    [METHOD_DECISION] = "decision", [METHOD_POINTS] = "points",
    [METHOD_DRAW] = "draw",
};
static const char *const reason_names[] = {
    [TKO_NONE] = "none",           [TKO_ENDURANCE] = "endurance",   [TKO_FATIGUE] = "fatigue",
    [TKO_INJURY] = "injury",       [TKO_AGGRAVATED] = "aggravated", [TKO_BROKEN_JAW] = "broken_jaw",
    [TKO_EYES_SHUT] = "eyes_shut", [TKO_TOWEL] = "towel",
};
static const char *const decision_names[] = {
    [DECISION_NONE] = "none",
    [DECISION_UNANIMOUS] = "unanimous",
    [DECISION_SPLIT] = "split",
    [DECISION_MAJORITY] = "majority",
};
static const char *const kind_names[] = {
    [DB_BOUT_EXHIBITION] = "exhibition",
    [DB_BOUT_LEAGUE] = "league",
    [DB_BOUT_TITLE] = "title",
};
static const char *const source_names[] = {
    [DB_ORDER_PLAYER] = "player",
    [DB_ORDER_PLAN] = "plan",
    [DB_ORDER_LAST] = "last",
    [DB_ORDER_DEFAULT] = "default",
};

static const struct db_names states = {"state", state_names, COUNT(state_names)};
static const struct db_names methods = {"method", method_names, COUNT(method_names)};
static const struct db_names drawn_bys = {"drawn_by", method_names, COUNT(method_names)};
static const struct db_names reasons = {"reason", reason_names, COUNT(reason_names)};
static const struct db_names decisions = {"decision", decision_names, COUNT(decision_names)};
static const struct db_names sources = {"source", source_names, COUNT(source_names)};
static const struct db_names kinds = {"kind", kind_names, COUNT(kind_names)};

/* The tables end at these constants. A constant the engine adds later has
 * no name (db_name_of gives NULL): it is refused on write until a migration
 * lets the CHECKs take its name and the table here gets it. */
_Static_assert(COUNT(state_names) == DB_BOUT_CANCELLED + 1, "bout states");
_Static_assert(COUNT(method_names) == METHOD_DRAW + 1, "methods");
_Static_assert(COUNT(reason_names) == TKO_TOWEL + 1, "TKO reasons");
_Static_assert(COUNT(decision_names) == DECISION_MAJORITY + 1, "decisions");
_Static_assert(COUNT(source_names) == DB_ORDER_DEFAULT + 1, "order sources");
_Static_assert(COUNT(kind_names) == DB_BOUT_TITLE + 1, "bout kinds");

/* The seed's bit pattern as an int64 and back, without implementation-
 * defined conversions. */
static int64_t seed_store(uint64_t u)
{
    return u <= (uint64_t)INT64_MAX ? (int64_t)u
                                    : (int64_t)(u - (uint64_t)INT64_MAX - 1) + INT64_MIN;
}

static uint64_t seed_load(int64_t i)
{
    return (uint64_t)i; /* modulo 2^64: the bit pattern */
}

/* ----------------------------------------------------------------- bouts */

/* The stored names of the enums of *b, or DB_ERROR naming the first one
 * that has none. */
struct bout_names {
    const char *state, *method, *drawn_by, *reason, *decision;
};

static int bout_names(struct db *db, const struct db_bout *b, struct bout_names *n)
{
    const struct {
        const struct db_names *t;
        int value;
        const char **out;
    } f[] = {
        {&states, (int)b->state, &n->state},          {&methods, (int)b->method, &n->method},
        {&drawn_bys, (int)b->drawn_by, &n->drawn_by}, {&reasons, (int)b->reason, &n->reason},
        {&decisions, (int)b->decision, &n->decision},
    };

    for (int i = 0; i < COUNT(f); i++) {
        *f[i].out = db_name_of(f[i].t, f[i].value);
        if (!*f[i].out)
            return db_fail(db, "bout %" PRId64 ": %s %d is out of range", b->id, f[i].t->what,
                           f[i].value);
    }
    return DB_OK;
}

/* Binds what db_bout_save writes (?5, ?6, ?9-?14, ?16, ?17, ?23; see the
 * statement table in db.c). A failed bind is reported by the run. */
static void bout_bind_state(struct dbs *q, const struct db_bout *b, const struct bout_names *n)
{
    dbs_bind_int64(q, 5, seed_store(b->seed));
    dbs_bind_text(q, 6, n->state);
    dbs_bind_int64(q, 9, b->round);
    dbs_bind_int64(q, 10, b->winner);
    dbs_bind_text(q, 11, n->method);
    dbs_bind_text(q, 12, n->drawn_by);
    dbs_bind_text(q, 13, n->reason);
    dbs_bind_text(q, 14, n->decision);
    dbs_bind_int64(q, 16, b->started);
    dbs_bind_int64(q, 17, b->ended);
    if (b->has_digest)
        dbs_bind_int64(q, 23, seed_store(b->digest));
    else
        dbs_bind_null(q, 23);
}

/* A sheet as stored in a bout: its ruleset's abilities in order, separated
 * by spaces (boxing "str spd agl tgh hgt", sugarray "skill endurance"),
 * and for a ruleset with equipment (duel, migration 6) the pieces after
 * them as db/kit.c writes them ("18 14 14 10 weapon=longsword:1000000"). */
#define SHEET_TEXT_MAX (64 + DB_KIT_MAX)

/* `sep` then v in decimal onto s, as "%s%d" would write them: a league turn
 * stores two sheets a bout, and printf's machinery was a fifth of a bout's
 * insert. */
static void decimal_add(struct str *s, const char *sep, int v)
{
    char text[16], *p = text + sizeof(text);
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;

    *--p = '\0';
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    str_cat(s, sep);
    str_cat(s, p);
}

static void sheet_store(const struct sheet *sh, char *buf, size_t len)
{
    const struct ruleset *rs = ruleset_get(sh->rules);
    struct str s;
    char kit[DB_KIT_MAX];

    str_init_fixed(&s, buf, len);
    for (int k = 0; k < rs->nfields; k++)
        decimal_add(&s, k ? " " : "", sheet_field_get(sh, k));
    db_kit_store(sh, kit, sizeof(kit));
    if (kit[0])
        str_add(&s, " %s", kit);
}

static int sheet_load(struct db *db, struct dbs *q, int col, const struct db_bout *b,
                      struct sheet *sh)
{
    char text[SHEET_TEXT_MAX];
    const struct ruleset *rs = ruleset_get(b->rules);
    const char *p = text;

    if (dbs_col_copy(q, col, text, sizeof(text), "bout sheet") != DB_OK)
        return DB_ERROR;
    memset(sh, 0, sizeof(*sh));
    sh->rules = b->rules;
    for (int k = 0; k < rs->nfields; k++) {
        /* strtol, not sscanf (a page reads two sheets): the same numbers. */
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < INT_MIN || v > INT_MAX || (k && p[0] != ' '))
            return db_fail(db, "bout %" PRId64 " has a sheet \"%s\" that does not fit its ruleset",
                           b->id, text);
        sheet_field_set(sh, k, (int)v);
        p = end;
    }
    if (rs->kit_slots && *p == ' ' && db_kit_load(p + 1, sh) != 0)
        return db_fail(db, "bout %" PRId64 " has a sheet \"%s\" that does not fit its ruleset",
                       b->id, text);
    if (rs->kit_slots && *p == ' ')
        p += strlen(p);
    if (*p != '\0')
        return db_fail(db, "bout %" PRId64 " has a sheet \"%s\" that does not fit its ruleset",
                       b->id, text);
    return DB_OK;
}

/* Fills *b from the current row of a statement selecting BOUT_COLUMNS. */
static int bout_read(struct db *db, struct dbs *q, struct db_bout *b)
{
    char rules[32];
    int v[5];

    memset(b, 0, sizeof(*b));
    b->id = dbs_col_int64(q, 0);
    if (dbs_col_copy(q, 1, rules, sizeof(rules), "ruleset") != DB_OK ||
        dbs_col_copy(q, 2, b->channel, sizeof(b->channel), "bout channel") != DB_OK)
        return DB_ERROR;
    int r = db_rules_find(rules);
    if (r < 0)
        return db_fail(db, "bout %" PRId64 " has ruleset %s, which this ringside does not know",
                       b->id, rules);
    b->rules = (enum rules)r;
    b->rounds = dbs_col_int(q, 3);
    b->seed = seed_load(dbs_col_int64(q, 4));
    b->fighter[0] = dbs_col_int64(q, 6);
    b->fighter[1] = dbs_col_int64(q, 7);
    b->round = dbs_col_int(q, 8);
    b->winner = dbs_col_int(q, 9);
    b->created = dbs_col_int64(q, 14);
    b->started = dbs_col_int64(q, 15);
    b->ended = dbs_col_int64(q, 16);
    if (dbs_col_name(q, 5, &states, "bout", b->id, &v[0]) != DB_OK ||
        dbs_col_name(q, 10, &methods, "bout", b->id, &v[1]) != DB_OK ||
        dbs_col_name(q, 11, &drawn_bys, "bout", b->id, &v[2]) != DB_OK ||
        dbs_col_name(q, 12, &reasons, "bout", b->id, &v[3]) != DB_OK ||
        dbs_col_name(q, 13, &decisions, "bout", b->id, &v[4]) != DB_OK)
        return DB_ERROR;
    if (sheet_load(db, q, 17, b, &b->sheet[0]) != DB_OK ||
        sheet_load(db, q, 18, b, &b->sheet[1]) != DB_OK)
        return DB_ERROR;
    int kind;
    if (dbs_col_name(q, 19, &kinds, "bout", b->id, &kind) != DB_OK)
        return DB_ERROR;
    b->kind = (enum db_bout_kind)kind;
    b->turn = dbs_col_int(q, 20);
    b->league = -1;
    if (!dbs_col_is_null(q, 21) &&
        dbs_col_name(q, 21, &db_leagues, "bout", b->id, &b->league) != DB_OK)
        return DB_ERROR;
    if (b->turn < 0 || (b->kind == DB_BOUT_EXHIBITION) != (b->turn == 0) ||
        (b->kind == DB_BOUT_LEAGUE) != (b->league >= 0))
        return db_fail(db,
                       "bout %" PRId64
                       " is a %s bout with turn %d and league %d, which do not go together",
                       b->id, kind_names[b->kind], b->turn, b->league);
    if (!dbs_col_is_null(q, 22)) {
        b->digest = seed_load(dbs_col_int64(q, 22));
        b->has_digest = 1;
    }
    b->state = (enum db_bout_state)v[0];
    b->method = (enum method)v[1];
    b->drawn_by = (enum method)v[2];
    b->reason = (enum tko_reason)v[3];
    b->decision = (enum decision)v[4];
    if (b->winner < -1 || b->winner > 1)
        return db_fail(db, "bout %" PRId64 " has winner %d, which is not -1, 0 or 1", b->id,
                       b->winner);
    if (b->rounds < 1 || b->round < 0 || b->round > b->rounds)
        return db_fail(db, "bout %" PRId64 " has %d of %d rounds, out of range", b->id, b->round,
                       b->rounds);
    return DB_OK;
}

/* What db_bout_create stores of kind, turn and league: the kind's name in
 * *kind, the turn in *turn and the league's name or NULL in *league; or
 * DB_ERROR when the kind or the league is out of range, or a title or league
 * bout has no turn (turns count from 1). */
static int bout_kind(struct db *db, const struct db_bout *b, const char **kind, int *turn,
                     const char **league)
{
    *kind = db_name_of(&kinds, (int)b->kind);
    *turn = 0;
    *league = NULL;
    if (!*kind)
        return db_fail(db, "bout in %s: kind %d is out of range", b->channel, (int)b->kind);
    if (b->kind == DB_BOUT_EXHIBITION)
        return DB_OK;
    if (b->turn < 1)
        return db_fail(db, "%s bout in %s: turn %d, but turns count from 1", *kind, b->channel,
                       b->turn);
    *turn = b->turn;
    if (b->kind == DB_BOUT_TITLE)
        return DB_OK;
    *league = db_name_of(&db_leagues, b->league);
    if (!*league)
        return db_fail(db, "league bout in %s: league %d is out of range", b->channel, b->league);
    return DB_OK;
}

int db_bout_create(struct db *db, struct db_bout *b)
{
    const char *rules = db_rules_name(b->rules);
    const char *kind, *league;
    int turn;
    struct bout_names n;

    if (db_text_check(db, "bout channel", b->channel, DB_CHANNEL_MAX) != DB_OK ||
        bout_names(db, b, &n) != DB_OK || bout_kind(db, b, &kind, &turn, &league) != DB_OK)
        return DB_ERROR;
    if (!rules)
        return db_fail(db, "bout in %s: no storage for ruleset %d", b->channel, (int)b->rules);

    struct dbs *q = dbs_table(db, STMT_BOUT_INSERT);
    char sheets[SIDES][SHEET_TEXT_MAX];
    for (int i = 0; i < SIDES; i++) {
        if (b->sheet[i].rules != b->rules)
            return db_fail(db, "bout in %s: sheet %d is not a %s sheet", b->channel, i, rules);
        sheet_store(&b->sheet[i], sheets[i], sizeof(sheets[i]));
    }
    bout_bind_state(q, b, &n);
    dbs_bind_text(q, 18, sheets[0]);
    dbs_bind_text(q, 19, sheets[1]);
    dbs_bind_text(q, 2, rules);
    dbs_bind_text(q, 3, b->channel);
    dbs_bind_int64(q, 4, b->rounds);
    dbs_bind_int64(q, 7, b->fighter[0]);
    dbs_bind_int64(q, 8, b->fighter[1]);
    dbs_bind_int64(q, 15, b->created);
    dbs_bind_text(q, 20, kind);
    dbs_bind_int64(q, 21, turn);
    dbs_bind_text(q, 22, league);      /* NULL binds NULL */
    dbs_bind_text(q, 24, db->network); /* run by this network's bot (migration 18) */
    if (dbs_run(q) != DBS_DONE) {
        if (dbs_error(q) != DBS_E_FOREIGN_KEY)
            return DB_ERROR;
        db_fail(db, "no fighter %" PRId64 " or no fighter %" PRId64, b->fighter[0], b->fighter[1]);
        return DB_NOTFOUND;
    }
    b->id = dbs_insert_id(q);
    b->turn = turn;
    if (!league)
        b->league = -1;
    return DB_OK;
}

int db_bout_get(struct db *db, int64_t id, struct db_bout *out)
{
    struct dbs *q = dbs_table(db, STMT_BOUT_GET);
    int rc = DB_ERROR;

    dbs_bind_int64(q, 1, id);
    rc = dbs_step_one(q);
    if (rc == DB_OK)
        rc = bout_read(db, q, out);
    else if (rc == DB_NOTFOUND)
        db_fail(db, "no bout %" PRId64, id);
    dbs_reset(q);
    return rc;
}

int db_bout_save(struct db *db, const struct db_bout *b)
{
    struct bout_names n;

    if (bout_names(db, b, &n) != DB_OK)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_BOUT_SAVE);
    bout_bind_state(q, b, &n);
    dbs_bind_int64(q, 1, b->id);
    if (dbs_run(q) != DBS_DONE)
        return DB_ERROR;
    if (dbs_changes(q) == 0) {
        db_fail(db, "no bout %" PRId64, b->id);
        return DB_NOTFOUND;
    }
    return DB_OK;
}

/* Reads up to `max` rows of q (bound; a failed bind is reported by the
 * first step) with `read` into out[i * size]; *n the count, 0 on error.
 * `id` is passed on to `read`, for its messages. */
static int read_rows(struct db *db, struct dbs *q, void *out, size_t size, int max, int *n,
                     int (*read)(struct db *, struct dbs *, int64_t, void *), int64_t id)
{
    int count = 0, status = DB_OK, rc = DBS_DONE;

    while (status == DB_OK && count < max && (rc = dbs_step(q)) == DBS_ROW) {
        if (read(db, q, id, (char *)out + (size_t)count * size) != DB_OK)
            status = DB_ERROR;
        else
            count++;
    }
    if (status == DB_OK && count < max && rc != DBS_DONE)
        status = DB_ERROR;
    dbs_reset(q);
    *n = status == DB_OK ? count : 0;
    return status;
}

static int bout_read_row(struct db *db, struct dbs *q, int64_t unused, void *out)
{
    (void)unused;
    return bout_read(db, q, out);
}

int db_bout_list(struct db *db, enum db_bout_state state, struct db_bout *out, int max, int *n)
{
    const char *name = db_name_of(&states, (int)state);

    *n = 0;
    if (!name)
        return db_fail(db, "bout state %d is out of range", (int)state);
    if (max <= 0)
        return DB_OK;

    struct dbs *q = dbs_table(db, STMT_BOUT_LIST);
    dbs_bind_text(q, 1, name);
    dbs_bind_int64(q, 2, max);
    dbs_bind_text(q, 3, db->network_set ? db->network : NULL); /* a bot's: its own */
    return read_rows(db, q, out, sizeof(*out), max, n, bout_read_row, 0);
}

int db_bout_list_fighter(struct db *db, int64_t fighter, struct db_bout *out, int max, int *n)
{
    *n = 0;
    if (max <= 0)
        return DB_OK;

    struct dbs *q = dbs_table(db, STMT_BOUT_LIST_FIGHTER);
    dbs_bind_int64(q, 1, fighter);
    dbs_bind_int64(q, 2, max);
    return read_rows(db, q, out, sizeof(*out), max, n, bout_read_row, 0);
}

int db_bout_list_over(struct db *db, int rules, int kind, struct db_bout *out, int max, int *n)
{
    const char *rname = rules < 0 ? NULL : db_rules_name((enum rules)rules);
    const char *kname = kind < 0 ? NULL : db_name_of(&kinds, kind);

    *n = 0;
    if (rules >= 0 && !rname)
        return db_fail(db, "no storage for ruleset %d", rules);
    if (kind >= 0 && !kname)
        return db_fail(db, "bout kind %d is out of range", kind);
    if (max <= 0)
        return DB_OK;

    struct dbs *q = dbs_table(db, STMT_BOUT_LIST_OVER);
    dbs_bind_text(q, 1, rname); /* NULL: any ruleset */
    dbs_bind_text(q, 2, kname); /* NULL: any kind */
    dbs_bind_int64(q, 3, max);
    return read_rows(db, q, out, sizeof(*out), max, n, bout_read_row, 0);
}

/* ---------------------------------------------------------------- orders */

/* Runs a bound write of a row of bout `bout`: DB_OK, DB_NOTFOUND when
 * there is no such bout (its foreign key), or DB_ERROR. */
static int bout_write_status(struct db *db, struct dbs *q, int64_t bout)
{
    if (dbs_run(q) == DBS_DONE)
        return DB_OK;
    if (dbs_error(q) != DBS_E_FOREIGN_KEY)
        return DB_ERROR;
    db_fail(db, "no bout %" PRId64, bout);
    return DB_NOTFOUND;
}

/* ------------------------------------------------- a bout's orders in one row */

/* The mark of each source in a bout's row of orders (migration 16 spells
 * them the same way). */
static const char source_marks[] = {
    [DB_ORDER_PLAYER] = 'p',
    [DB_ORDER_PLAN] = '@',
    [DB_ORDER_LAST] = 'l',
    [DB_ORDER_DEFAULT] = 'd',
};
_Static_assert(sizeof(source_marks) == DB_ORDER_DEFAULT + 1, "a mark for every order source");

/* 1 if a and b are the same order but for their round. */
static int order_same(const struct db_order *a, const struct db_order *b)
{
    return a->source == b->source && a->line == b->line && strcmp(a->text, b->text) == 0;
}

/* Appends `mark`, the decimal `line` (>= 0) and a space to s: by hand,
 * as printf's formatting was a sixth of a league bout's order writing. */
static void order_head(struct str *s, char mark, int line)
{
    char buf[16];
    int k = (int)sizeof(buf);

    buf[--k] = ' ';
    do
        buf[--k] = (char)('0' + line % 10);
    while ((line /= 10) > 0 && k > 1);
    buf[--k] = mark;
    str_raw(s, buf + k, sizeof(buf) - (size_t)k);
}

/* Checks o[i] of a bout's whole set (round i / 2 + 1, side i % 2) and
 * appends its line to s. */
static int order_encode(struct db *db, int64_t bout, const struct db_order *o, int i, struct str *s)
{
    if (db_text_check(db, "order text", o[i].text, DB_ORDER_MAX) != DB_OK)
        return DB_ERROR;
    if ((int)o[i].source < 0 || (size_t)o[i].source >= sizeof(source_marks))
        return db_fail(db, "order source %d is out of range", (int)o[i].source);
    if (o[i].round != i / SIDES + 1 || o[i].side != i % SIDES)
        return db_fail(db,
                       "the orders of bout %" PRId64 " are not whole: order %d is side %d of "
                       "round %d, not side %d of round %d",
                       bout, i + 1, o[i].side, o[i].round, i % SIDES, i / SIDES + 1);
    if (o[i].line < 0 || (o[i].line != 0 && o[i].source != DB_ORDER_PLAN))
        return db_fail(db, "order of side %d for round %d has line %d: only a plan's has one",
                       o[i].side, o[i].round, o[i].line);
    if (strchr(o[i].text, '\n'))
        return db_fail(db, "order text has a line break");
    if (i)
        str_ch(s, '\n');
    if (i >= SIDES && order_same(&o[i], &o[i - SIDES]))
        str_ch(s, '=');
    else {
        order_head(s, source_marks[o[i].source], o[i].line);
        str_cat(s, o[i].text);
    }
    return DB_OK;
}

/* STMT_ORDER_BOUT_PUT for many bouts at once (dbs_rows_add). */
static const char order_rows_sql[] =
    "INSERT INTO bout_orders (bout, orders)"
    " SELECT * FROM unnest(CAST(?1 AS BIGINT[]), CAST(?2 AS TEXT[]))";

int db_order_put_bout(struct db *db, int64_t bout, const struct db_order *o, int n)
{
    struct str s;
    int status = DB_OK;

    if (n <= 0 || n % SIDES != 0)
        return db_fail(db, "the orders of bout %" PRId64 ": %d of them, not whole rounds", bout, n);
    str_init(&s);
    for (int i = 0; i < n && status == DB_OK; i++)
        status = order_encode(db, bout, o, i, &s);
    if (status != DB_OK) {
        str_free(&s);
        return status;
    }

    /* A league turn's on PostgreSQL: a row of its batch (sql.h). */
    int rows = dbs_rows_open(db);
    struct dbs *q =
        rows ? dbs_prepare_kept(db, order_rows_sql) : dbs_table(db, STMT_ORDER_BOUT_PUT);
    if (!q) {
        str_free(&s);
        return DB_ERROR;
    }
    dbs_bind_int64(q, 1, bout);
    dbs_bind_text(q, 2, s.p);
    if ((rows ? dbs_rows_add(q) : dbs_run(q)) != DBS_DONE) {
        switch (dbs_error(q)) {
        case DBS_E_FOREIGN_KEY:
            db_fail(db, "no bout %" PRId64, bout);
            status = DB_NOTFOUND;
            break;
        case DBS_E_UNIQUE:
            status = db_fail(db, "the orders of bout %" PRId64 " are stored already", bout);
            break;
        default:
            status = DB_ERROR;
        }
    }
    if (rows)
        dbs_free(q); /* kept: only reset */
    str_free(&s);
    return status;
}

/* Reads line `i` of a bout's row of orders (at *p, which moves past it)
 * into out[i]; `=` copies out[i - SIDES]. */
static int order_decode(struct db *db, int64_t bout, const char **p, int i, struct db_order *out)
{
    const char *s = *p, *end = strchr(s, '\n');
    size_t len = end ? (size_t)(end - s) : strlen(s);
    struct db_order *o = &out[i];

    *p = end ? end + 1 : s + len;
    if (len == 1 && s[0] == '=' && i >= SIDES) {
        *o = out[i - SIDES];
    } else {
        const char *mark = len ? memchr(source_marks, s[0], sizeof(source_marks)) : NULL;
        const char *space = memchr(s, ' ', len);
        char *after = NULL;
        long line = mark && space ? strtol(s + 1, &after, 10) : -1;
        size_t text = space ? len - (size_t)(space + 1 - s) : 0;
        if (!mark || !space || after != space || s[1] < '0' || s[1] > '9' || line > INT_MAX ||
            text == 0 || text >= DB_ORDER_MAX)
            return db_fail(db, "the orders of bout %" PRId64 " are damaged at order %d", bout,
                           i + 1);
        memset(o, 0, sizeof(*o));
        o->source = (enum db_order_source)(mark - source_marks);
        o->line = (int)line;
        memcpy(o->text, space + 1, text);
        o->text[text] = '\0';
    }
    o->round = i / SIDES + 1;
    o->side = i % SIDES;
    return DB_OK;
}

/* The orders of bout `bout` stored in one row into out[0..max) (*n of
 * them): DB_OK, DB_NOTFOUND when it has no such row, or DB_ERROR. */
static int order_list_bout(struct db *db, int64_t bout, struct db_order *out, int max, int *n)
{
    struct dbs *q = dbs_table(db, STMT_ORDER_BOUT_GET);
    int status = DB_ERROR;

    dbs_bind_int64(q, 1, bout);
    switch (dbs_step(q)) {
    case DBS_ROW: {
        const char *p = dbs_col_text(q, 0);
        status = p ? DB_OK : db_fail(db, "the orders of bout %" PRId64 " are missing", bout);
        for (int i = 0; status == DB_OK && i < max && p && *p; i++) {
            status = order_decode(db, bout, &p, i, out);
            *n = i + 1;
        }
        break;
    }
    case DBS_DONE:
        status = DB_NOTFOUND;
        break;
    default:
        break;
    }
    dbs_reset(q);
    if (status != DB_OK)
        *n = 0;
    return status;
}

/* The upsert of db_order_put into `orders`. */
static int order_row_put(struct db *db, int64_t bout, const struct db_order *o)
{
    const char *source = db_name_of(&sources, (int)o->source);

    if (db_text_check(db, "order text", o->text, DB_ORDER_MAX) != DB_OK)
        return DB_ERROR;
    if (!source)
        return db_fail(db, "order source %d is out of range", (int)o->source);
    if (o->round < 1 || o->side < 0 || o->side >= SIDES)
        return db_fail(db, "order of side %d for round %d: no such side or round", o->side,
                       o->round);

    struct dbs *q = dbs_table(db, STMT_ORDER_PUT);
    dbs_bind_int64(q, 1, bout);
    dbs_bind_int64(q, 2, o->round);
    dbs_bind_int64(q, 3, o->side);
    dbs_bind_text(q, 4, o->text);
    dbs_bind_text(q, 5, source);
    dbs_bind_int64(q, 6, o->line);
    return bout_write_status(db, q, bout);
}

/* Moves the orders of bout `bout` stored in one row, if it has them, to a
 * row each in `orders`, where one of them can be replaced: the rows first,
 * then the one row goes, so that an error between the two leaves the
 * orders as they were. */
static int order_unpack(struct db *db, int64_t bout)
{
    int max = SIDES * BOUT_ROUNDS_MAX, n = 0, rc;
    struct db_order *o = xcalloc((size_t)max, sizeof(*o));

    rc = order_list_bout(db, bout, o, max, &n);
    if (rc == DB_OK) {
        for (int i = 0; i < n && rc == DB_OK; i++)
            rc = order_row_put(db, bout, &o[i]);
        if (rc == DB_OK) {
            struct dbs *q = dbs_table(db, STMT_ORDER_BOUT_DELETE);
            dbs_bind_int64(q, 1, bout);
            rc = dbs_run(q) == DBS_DONE ? DB_OK : DB_ERROR;
        }
    } else if (rc == DB_NOTFOUND) {
        rc = DB_OK;
    }
    free(o);
    return rc;
}

int db_order_put(struct db *db, int64_t bout, const struct db_order *o)
{
    if (db_name_of(&sources, (int)o->source) == NULL)
        return db_fail(db, "order source %d is out of range", (int)o->source);
    int rc = order_unpack(db, bout);
    return rc == DB_OK ? order_row_put(db, bout, o) : rc;
}

/* Fills *out (a struct db_order) from the current row of STMT_ORDER_LIST. */
static int order_read(struct db *db, struct dbs *q, int64_t bout, void *out)
{
    struct db_order *o = out;
    int source;

    memset(o, 0, sizeof(*o));
    o->round = dbs_col_int(q, 0);
    o->side = dbs_col_int(q, 1);
    o->line = dbs_col_int(q, 4);
    if (dbs_col_copy(q, 2, o->text, sizeof(o->text), "order text") != DB_OK ||
        dbs_col_name(q, 3, &sources, "an order of bout", bout, &source) != DB_OK)
        return DB_ERROR;
    o->source = (enum db_order_source)source;
    if (o->round < 1 || o->side < 0 || o->side >= SIDES || o->line < 0)
        return db_fail(db,
                       "an order of bout %" PRId64 " has round %d, side %d, line %d: out of range",
                       bout, o->round, o->side, o->line);
    return DB_OK;
}

int db_order_list(struct db *db, int64_t bout, struct db_order *out, int max, int *n)
{
    *n = 0;
    if (max <= 0)
        return DB_OK;

    int rc = order_list_bout(db, bout, out, max, n);
    if (rc != DB_NOTFOUND)
        return rc;

    struct dbs *q = dbs_table(db, STMT_ORDER_LIST);
    dbs_bind_int64(q, 1, bout);
    dbs_bind_int64(q, 2, max);
    return read_rows(db, q, out, sizeof(*out), max, n, order_read, bout);
}

/* ---------------------------------------------------------------- rounds */

int db_round_put(struct db *db, int64_t bout, int round, uint64_t digest)
{
    if (round < 1)
        return db_fail(db, "round %d of bout %" PRId64 ": rounds count from 1", round, bout);

    struct dbs *q = dbs_table(db, STMT_ROUND_PUT);
    dbs_bind_int64(q, 1, bout);
    dbs_bind_int64(q, 2, round);
    dbs_bind_int64(q, 3, seed_store(digest));
    return bout_write_status(db, q, bout);
}

int db_round_digest(struct db *db, int64_t bout, int round, uint64_t *digest)
{
    struct dbs *q = dbs_table(db, STMT_ROUND_DIGEST);
    int rc = DB_ERROR;

    dbs_bind_int64(q, 1, bout);
    dbs_bind_int64(q, 2, round);
    switch (dbs_step(q)) {
    case DBS_ROW:
        if (dbs_col_is_null(q, 0)) {
            db_fail(db, "round %d of bout %" PRId64 " has no digest", round, bout);
            rc = DB_NOTFOUND;
        } else {
            *digest = seed_load(dbs_col_int64(q, 0));
            rc = DB_OK;
        }
        break;
    case DBS_DONE:
        db_fail(db, "no round %d of bout %" PRId64, round, bout);
        rc = DB_NOTFOUND;
        break;
    default:
        break;
    }
    dbs_reset(q);
    return rc;
}

/* The text column of round `round` of `bout` from statement `which`. */
static int round_text(struct db *db, int which, const char *name, int64_t bout, int round,
                      char *out, size_t len)
{
    struct dbs *q = dbs_table(db, which);
    int rc = DB_ERROR;
    char what[96];

    dbs_bind_int64(q, 1, bout);
    dbs_bind_int64(q, 2, round);
    rc = dbs_step_one(q);
    if (rc == DB_OK) {
        snprintf(what, sizeof(what), "the %s of round %d of bout %" PRId64, name, round, bout);
        rc = dbs_col_copy(q, 0, out, len, what);
    } else if (rc == DB_NOTFOUND) {
        db_fail(db, "no %s of round %d of bout %" PRId64, name, round, bout);
    }
    dbs_reset(q);
    return rc;
}

int db_round_report(struct db *db, int64_t bout, int round, char *out, size_t len)
{
    return round_text(db, STMT_ROUND_REPORT, "report", bout, round, out, len);
}

int db_bout_said(struct db *db, int64_t id, int round)
{
    struct dbs *q = dbs_table(db, STMT_BOUT_SAID);

    dbs_bind_int64(q, 1, id);
    dbs_bind_int64(q, 2, round);
    if (dbs_run(q) != DBS_DONE)
        return DB_ERROR;
    if (dbs_changes(q) == 0) {
        db_fail(db, "no bout %" PRId64, id);
        return DB_NOTFOUND;
    }
    return DB_OK;
}

int db_bout_unsaid(struct db *db, int64_t *ids, int *said, int max, int *n)
{
    struct dbs *q = dbs_table(db, STMT_BOUT_UNSAID);
    int count = 0, rc = DBS_DONE;

    *n = 0;
    dbs_bind_int64(q, 1, max);
    dbs_bind_text(q, 2, db->network_set ? db->network : NULL); /* a bot's: its own */
    while (count < max && (rc = dbs_step(q)) == DBS_ROW) {
        ids[count] = dbs_col_int64(q, 0);
        said[count] = dbs_col_int(q, 1);
        count++;
    }
    dbs_reset(q);
    if (count < max && rc != DBS_DONE)
        return DB_ERROR;
    *n = count;
    return DB_OK;
}
