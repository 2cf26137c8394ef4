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

    struct dbs *q = dbs_table(db, STMT_PLAN_SET);
    dbs_bind_int64(q, 1, fighter);
    dbs_bind_text(q, 2, text);
    dbs_bind_int64(q, 3, now);
    if (dbs_run(q) == DBS_DONE)
        return DB_OK;
    if (dbs_error(q) != DBS_E_FOREIGN_KEY)
        return DB_ERROR;
    db_fail(db, "no fighter %" PRId64, fighter);
    return DB_NOTFOUND;
}

int db_plan_get(struct db *db, int64_t fighter, char *out, size_t len)
{
    struct dbs *q = dbs_table(db, STMT_PLAN_GET);
    int rc = DB_ERROR;
    char what[64];

    dbs_bind_int64(q, 1, fighter);
    rc = dbs_step_one(q);
    if (rc == DB_OK) {
        snprintf(what, sizeof(what), "the plan of fighter %" PRId64, fighter);
        rc = dbs_col_copy(q, 0, out, len, what);
    } else if (rc == DB_NOTFOUND) {
        db_fail(db, "fighter %" PRId64 " has no plan", fighter);
    }
    dbs_reset(q);
    return rc;
}

int db_plan_clear(struct db *db, int64_t fighter)
{
    struct dbs *q = dbs_table(db, STMT_PLAN_CLEAR);

    dbs_bind_int64(q, 1, fighter);
    return dbs_run(q) == DBS_DONE ? DB_OK : DB_ERROR;
}

/* ----------------------------------------------------------------- audit */

int db_audit(struct db *db, int64_t now, const char *who, const char *what)
{
    if (db_text_check(db, "audit who", who, DB_AUDIT_MAX) != DB_OK ||
        db_text_check(db, "audit what", what, DB_AUDIT_MAX) != DB_OK)
        return DB_ERROR;

    struct dbs *q = dbs_table(db, STMT_AUDIT);
    dbs_bind_int64(q, 1, now);
    dbs_bind_text(q, 2, who);
    dbs_bind_text(q, 3, what);
    return dbs_run(q) == DBS_DONE ? DB_OK : DB_ERROR;
}
