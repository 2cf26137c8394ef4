/*
 * page.c - what the bout pages read that the rest of db/ does not: a
 * bout's two corners by name and record, in one kept query (a page is
 * fought again at every view, and the fighters' full rows, thirty columns
 * each, were a third of its reads), with the owner's network; and the
 * networks of the owners an archive names (a season's standings).
 */
#include <string.h>

#include "db_internal.h"

/* Two lookups by the primary key, one after the other (an OR of the two
 * ids would make SQLite gather the rows in a temporary set first). */
#define CORNER_SQL                                                                                 \
    "SELECT f.id, a.name, f.name, f.wins, f.losses, f.draws, f.kos, f.tkos, f.towels, f.dqs,"      \
    " f.forfeits, a.network FROM fighters f JOIN accounts a ON a.id = f.account_id WHERE f.id = "
static const char corners_sql[] = CORNER_SQL "?1 UNION ALL " CORNER_SQL "?2";

/* Copies column col's text into dst (DB_NAME_MAX bytes): 0, or -1 when it
 * is NULL or too long (the full read cuts those: fighter.c). */
static int name_copy(struct dbs *q, int col, char *dst)
{
    const char *s = dbs_col_text(q, col);
    size_t n = s ? strlen(s) : DB_NAME_MAX;

    if (n >= DB_NAME_MAX)
        return -1;
    memcpy(dst, s, n + 1);
    return 0;
}

/* The row at q into whichever of out[] has its id; returns the sides it
 * filled (1 << side), or -1 for a name the full read must give. */
static int corner_read(struct dbs *q, const int64_t id[SIDES], struct db_fighter out[SIDES])
{
    int64_t fid = dbs_col_int64(q, 0);
    int got = 0;

    for (int s = 0; s < SIDES; s++) {
        struct db_fighter *f = &out[s];
        if (id[s] != fid)
            continue;
        f->id = fid;
        if (name_copy(q, 1, f->owner) != 0 || name_copy(q, 2, f->name) != 0 ||
            dbs_col_copy(q, 11, f->owner_network, sizeof(f->owner_network), "network") != DB_OK)
            return -1;
        f->wins = dbs_col_int(q, 3);
        f->losses = dbs_col_int(q, 4);
        f->draws = dbs_col_int(q, 5);
        f->kos = dbs_col_int(q, 6);
        f->tkos = dbs_col_int(q, 7);
        f->towels = dbs_col_int(q, 8);
        f->dqs = dbs_col_int(q, 9);
        f->forfeits = dbs_col_int(q, 10);
        got |= 1 << s;
    }
    return got;
}

int db_bout_corners(struct db *db, const int64_t id[SIDES], struct db_fighter out[SIDES])
{
    struct dbs *q = dbs_prepare_kept(db, corners_sql);
    int got = 0, step;

    if (!q)
        return DB_ERROR;
    memset(out, 0, SIDES * sizeof(*out));
    dbs_bind_int64(q, 1, id[0]);
    dbs_bind_int64(q, 2, id[1]);
    while ((step = dbs_step(q)) == DBS_ROW) {
        int more = corner_read(q, id, out);
        if (more < 0) {
            step = DBS_ERR;
            break;
        }
        got |= more;
    }
    dbs_free(q);
    if (step != DBS_DONE)
        return DB_ERROR;
    return got == (1 << SIDES) - 1 ? DB_OK : DB_NOTFOUND;
}

static const char networks_sql[] = "SELECT a.network FROM fighters f JOIN accounts a"
                                   " ON a.id = f.account_id WHERE f.id = ?1";

int db_fighter_networks(struct db *db, const int64_t *id, int n, char (*net)[DB_NETWORK_MAX])
{
    for (int i = 0; i < n; i++) {
        struct dbs *q = dbs_prepare_kept(db, networks_sql);
        if (!q)
            return DB_ERROR;
        net[i][0] = '\0';
        dbs_bind_int64(q, 1, id[i]);
        int step = dbs_step(q);
        if (step == DBS_ROW && dbs_col_copy(q, 0, net[i], DB_NETWORK_MAX, "network") != DB_OK)
            step = DBS_ERR;
        dbs_free(q);
        if (step != DBS_ROW && step != DBS_DONE)
            return DB_ERROR;
    }
    return DB_OK;
}
