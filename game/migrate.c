/*
 * migrate.c - `ringside --migrate-to URI`: the bot's SQLite database
 * copied into an empty PostgreSQL database (db_copy_to), then proved by
 * fighting every bout of the copy again (bout_replay, the check of
 * `ringside-sim --replay`): each round's digest, each league bout's, and
 * each result must be the stored one, read back from PostgreSQL. A bout is
 * a function of its seed, sheets and orders, so a copy that replays every
 * bout to the same digests kept everything the bouts are made of.
 *
 * The source is opened read-only (db_open_readonly), so it is never
 * migrated or written: a file not at the latest schema is refused, and the
 * bot may keep running on it while it is copied (one read transaction
 * reads it as of one moment).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

/* How many bouts are read from the copy at a time for the replays. */
#define MIGRATE_PAGE 256
/* How many differing bouts are shown in full. */
#define MIGRATE_SHOWN 3

/* `n` with a comma between thousands ("1,234") into buf. */
static const char *thousands(int64_t n, char *buf, size_t len)
{
    char digits[32];
    int k = snprintf(digits, sizeof(digits), "%lld", (long long)(n < 0 ? -n : n));
    size_t o = 0;

    if (n < 0 && o + 1 < len)
        buf[o++] = '-';
    for (int i = 0; i < k && o + 1 < len; i++) {
        buf[o++] = digits[i];
        if ((k - i - 1) % 3 == 0 && i < k - 1 && o + 1 < len)
            buf[o++] = ',';
    }
    buf[o] = '\0';
    return buf;
}

/* 1 if `s` is a PostgreSQL URI. */
static int is_pg(const char *s)
{
    return strncmp(s, "postgresql://", 13) == 0 || strncmp(s, "postgres://", 11) == 0;
}

/* `uri` as messages show it, its password (if any) written "***". */
static void uri_shown(const char *uri, char *out, size_t size)
{
    const char *auth = strstr(uri, "://");
    const char *at = auth ? strchr(auth + 3, '@') : NULL;
    const char *slash = auth ? strchr(auth + 3, '/') : NULL;
    const char *colon = auth ? memchr(auth + 3, ':', at ? (size_t)(at - auth - 3) : 0) : NULL;

    if (at && colon && (!slash || at < slash))
        snprintf(out, size, "%.*s:***%s", (int)(colon - uri), uri, at);
    else
        snprintf(out, size, "%s", uri);
}

/* Replays bout `id` of db, counting a difference in *bad and showing the
 * first few on out. */
static void bout_check(struct db *db, int64_t id, FILE *out, int64_t *bad)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);

    if (!mem)
        xoom();
    int rc = bout_replay(db, id, mem);
    fclose(mem);
    if (rc != 0 && ++*bad <= MIGRATE_SHOWN)
        fprintf(out, "bout %lld differs in the copy:\n%s", (long long)id, text);
    free(text);
}

/* Replays every bout fought in db: 0 if each is the same, 1 if not, with
 * the result's line on out. */
static int replays_check(struct db *db, FILE *out)
{
    int64_t *ids = xmalloc(MIGRATE_PAGE * sizeof(*ids));
    int64_t after = 0, done = 0, bad = 0;
    char a[32], b[32];
    int n;

    do {
        if (db_bouts_fought(db, after, ids, MIGRATE_PAGE, &n) != DB_OK) {
            fprintf(out, "cannot list the bouts of the copy: %s\n", db_errmsg(db));
            free(ids);
            return 1;
        }
        for (int i = 0; i < n; i++)
            bout_check(db, ids[i], out, &bad);
        done += n;
        after = n ? ids[n - 1] : after;
    } while (n == MIGRATE_PAGE);
    free(ids);
    if (bad)
        fprintf(out,
                "%s bouts replayed, %s with a digest or result not the same: the copy is "
                "not the database\n",
                thousands(done, a, sizeof(a)), thousands(bad, b, sizeof(b)));
    else
        fprintf(out, "%s bouts replayed, every digest the same\n", thousands(done, a, sizeof(a)));
    return bad ? 1 : 0;
}

/* Copies src into dst, saying each table's rows on out: 0, or 1 after
 * saying why on err. */
static int copy_say(struct db *src, struct db *dst, const char *uri, FILE *out, FILE *err)
{
    struct db_copied *copied = xmalloc(DB_COPY_TABLES * sizeof(*copied));
    int n;
    char rows[32];

    char shown[512];

    uri_shown(uri, shown, sizeof(shown));
    if (db_copy_to(src, dst, shown, copied, &n) != DB_OK) {
        fprintf(err, "ringside: %s\n", db_errmsg(dst));
        free(copied);
        return 1;
    }
    for (int i = 0; i < n; i++)
        fprintf(out, "%s: %s %s\n", copied[i].table, thousands(copied[i].rows, rows, sizeof(rows)),
                copied[i].rows == 1 ? "row" : "rows");
    fflush(out); /* said before the replays, which take a while */
    free(copied);
    return 0;
}

/* Opens the target `uri` (db_open, which makes Ringside's schema in a
 * database without one), *fresh set if it had none: the connection, or
 * NULL after saying why on err. */
static struct db *target_open(const char *uri, int *fresh, FILE *err)
{
    char why[1024];
    struct db *probe = db_open_readonly(uri, why, sizeof(why));

    /* An unreachable server is refused before anything else is tried. */
    if (!probe && strncmp(why, "cannot connect", 14) == 0) {
        fprintf(err, "ringside: %s\n", why);
        return NULL;
    }
    *fresh = !probe;
    db_close(probe);
    struct db *dst = db_open(uri, why, sizeof(why));
    if (!dst)
        fprintf(err, "ringside: %s\n", why);
    return dst;
}

int game_migrate_to(const char *path, const char *uri, FILE *out, FILE *err)
{
    char why[1024];
    struct db *src = NULL, *dst = NULL;
    int rc = 1, fresh = 0;

    if (!is_pg(uri))
        fprintf(err,
                "ringside: --migrate-to needs a PostgreSQL URI, e.g. "
                "postgresql://ringside@localhost/ringside, not \"%.60s\"\n",
                uri);
    else if (is_pg(path))
        fprintf(err, "ringside: the configuration's database is already PostgreSQL; --migrate-to "
                     "copies a SQLite database (set [bot] database to its file)\n");
    else if (!(src = db_open_readonly(path, why, sizeof(why))))
        fprintf(err, "ringside: %s\n", why);
    else if (db_copy_source_check(src) != DB_OK)
        fprintf(err, "ringside: %s\n", db_errmsg(src));
    else if (!(dst = target_open(uri, &fresh, err)))
        ;
    else if (copy_say(src, dst, uri, out, err) == 0) {
        db_close(src);
        src = NULL;
        rc = replays_check(dst, out);
    } else if (fresh) {
        /* Refused or failed: the schema made for the copy goes too. */
        db_copy_unmake(dst);
    }
    db_close(src);
    db_close(dst);
    return rc;
}
