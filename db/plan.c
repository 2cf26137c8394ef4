/*
 * plan.c - fighters' stored fight plans (one per fighter, its text as the
 * player wrote it: the bot parses it again when it needs it), and the admin
 * audit log (migration 2).
 */
#include <inttypes.h>
#include <stdio.h>

#include "db_internal.h"

int db_plan_set(struct db *db, int64_t fighter, const char *text, int64_t now)
{
    if (db_text_check(db, "plan text", text, DB_PLAN_MAX) != DB_OK)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_PLAN_SET];
    int bad = 0;
    bad |= sqlite3_bind_int64(st, 1, fighter) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_int64(st, 3, now) != SQLITE_OK;
    switch (db_run(db, st, bad)) {
    case SQLITE_DONE:
        return DB_OK;
    case SQLITE_CONSTRAINT_FOREIGNKEY:
        db_fail(db, "no fighter %" PRId64, fighter);
        return DB_NOTFOUND;
    default:
        return DB_ERROR;
    }
}

int db_plan_get(struct db *db, int64_t fighter, char *out, size_t len)
{
    sqlite3_stmt *st = db->st[STMT_PLAN_GET];
    int rc = DB_ERROR;

    if (sqlite3_bind_int64(st, 1, fighter) != SQLITE_OK) {
        db_bind_failed(db, st);
    } else {
        char what[64];
        switch (db_row(db, st)) {
        case SQLITE_ROW:
            snprintf(what, sizeof(what), "the plan of fighter %" PRId64, fighter);
            rc = db_column_text(db, st, 0, out, len, what);
            break;
        case SQLITE_DONE:
            db_fail(db, "fighter %" PRId64 " has no plan", fighter);
            rc = DB_NOTFOUND;
            break;
        default:
            break;
        }
    }
    db_stmt_done(st);
    return rc;
}

int db_plan_clear(struct db *db, int64_t fighter)
{
    sqlite3_stmt *st = db->st[STMT_PLAN_CLEAR];
    int bad = sqlite3_bind_int64(st, 1, fighter) != SQLITE_OK;

    return db_run(db, st, bad) == SQLITE_DONE ? DB_OK : DB_ERROR;
}

/* ----------------------------------------------------------------- audit */

int db_audit(struct db *db, int64_t now, const char *who, const char *what)
{
    if (db_text_check(db, "audit who", who, DB_AUDIT_MAX) != DB_OK ||
        db_text_check(db, "audit what", what, DB_AUDIT_MAX) != DB_OK)
        return DB_ERROR;

    sqlite3_stmt *st = db->st[STMT_AUDIT];
    int bad = 0;
    bad |= sqlite3_bind_int64(st, 1, now) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 2, who, -1, SQLITE_STATIC) != SQLITE_OK;
    bad |= sqlite3_bind_text(st, 3, what, -1, SQLITE_STATIC) != SQLITE_OK;
    return db_run(db, st, bad) == SQLITE_DONE ? DB_OK : DB_ERROR;
}
