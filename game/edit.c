/*
 * edit.c - an admin corrects a fighter (`set`): the abilities of his
 * ruleset's sheet, each within its bounds, and his record. Never during a
 * bout or a challenge; the change and its audit line are written in one
 * transaction, or nothing is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game.h"
#include "game_internal.h"

/* The record's keys, after the sheet's. */
static const struct {
    const char *name;
    size_t at; /* offset of the int in struct db_fighter */
    long lo, hi;
} record_keys[] = {
    {"wins", offsetof(struct db_fighter, wins), 0, 100000},
    {"losses", offsetof(struct db_fighter, losses), 0, 100000},
    {"draws", offsetof(struct db_fighter, draws), 0, 100000},
    {"kos", offsetof(struct db_fighter, kos), 0, 100000},
    /* How the other wins ended (migration 9). */
    {"tkos", offsetof(struct db_fighter, tkos), 0, 100000},
    {"towels", offsetof(struct db_fighter, towels), 0, 100000},
    {"dqs", offsetof(struct db_fighter, dqs), 0, 100000},
    {"forfeits", offsetof(struct db_fighter, forfeits), 0, 100000},
    {"training", offsetof(struct db_fighter, training_points), 0, 1000},
};

/* Sets the sheet's ability `key` (k bytes) to v. 1 when it is one, 0 when
 * not, -1 after a reply when v is out of its bounds. */
static int set_ability(const struct game_caller *who, struct db_fighter *nf, const char *key,
                       size_t k, long v)
{
    const struct ruleset *rs = ruleset_get(nf->sheet.rules);

    for (int j = 0; j < rs->nfields; j++) {
        const struct ruleset_field *fd = &rs->fields[j];
        if (strlen(fd->key) != k || strncasecmp(fd->key, key, k) != 0)
            continue;
        if (v < fd->lo || v > fd->hi) {
            game_reply(who, "%s must be %d to %d", fd->key, fd->lo, fd->hi);
            return -1;
        }
        sheet_field_set(&nf->sheet, j, (int)v);
        return 1;
    }
    return 0;
}

/* Likewise for a key of the record. */
static int set_record(const struct game_caller *who, struct db_fighter *nf, const char *key,
                      size_t k, long v)
{
    for (size_t j = 0; j < sizeof(record_keys) / sizeof(record_keys[0]); j++) {
        if (strlen(record_keys[j].name) != k || strncasecmp(record_keys[j].name, key, k) != 0)
            continue;
        if (v < record_keys[j].lo || v > record_keys[j].hi) {
            game_reply(who, "%s must be %ld to %ld", record_keys[j].name, record_keys[j].lo,
                       record_keys[j].hi);
            return -1;
        }
        *(int *)((char *)nf + record_keys[j].at) = (int)v;
        return 1;
    }
    return 0;
}

/* Applies one key=number word `a` to *nf; -1 after a reply. */
static int set_word(const struct game_caller *who, struct db_fighter *nf, const char *a,
                    const char *example)
{
    const struct ruleset *rs = ruleset_get(nf->sheet.rules);
    const char *eq = strchr(a, '=');
    char *end = NULL;
    long v = eq ? strtol(eq + 1, &end, 10) : 0;

    if (!eq || eq == a || !eq[1] || *end) {
        game_reply(who, "\"%s\" is not key=number; e.g. set %s %s", CLIP(a, 30), nf->name, example);
        return -1;
    }
    size_t k = (size_t)(eq - a);
    int got = set_ability(who, nf, a, k, v);
    if (got == 0)
        got = set_record(who, nf, a, k, v);
    if (got < 0)
        return -1;
    if (got == 0) {
        char keys[256];
        struct str s;
        str_init_fixed(&s, keys, sizeof(keys));
        for (int j = 0; j < rs->nfields; j++)
            str_add(&s, "%s%s", j ? ", " : "", rs->fields[j].key);
        for (size_t j = 0; j < sizeof(record_keys) / sizeof(record_keys[0]); j++)
            str_add(&s, ", %s", record_keys[j].name);
        game_reply(who, "%s is not a key for a %s fighter; keys: %s",
                   text_clip((char[21]){0}, 21, a, k < 20 ? k : 20), rs->name, keys);
        return -1;
    }
    return 0;
}

/* Writes the edited fighter and its audit line `what` in one go. */
static int edit_store(struct game *g, const struct game_caller *who, const struct db_fighter *nf,
                      const char *what)
{
    if (db_begin(g->db) != DB_OK || db_fighter_save(g->db, nf) != DB_OK ||
        db_audit(g->db, game_wall(g), who->account, what) != DB_OK || db_commit(g->db) != DB_OK) {
        game_log(g, GAME_LOG_ERROR, "set %s: %s", nf->name, db_errmsg(g->db));
        db_rollback(g->db);
        game_reply(who, "sorry, nothing changed (%s)", db_why(g->db));
        return -1;
    }
    return 0;
}

int game_edit(struct game *g, const struct game_caller *who, const char *name,
              const char *const *words, int n)
{
    struct db_fighter f;
    char key[DB_NAME_MAX], what[400], example[48];
    struct str s;

    if (strlen(name) >= DB_NAME_MAX) {
        game_reply(who, "there is no fighter %s", CLIP(name, 31));
        return -1;
    }
    game_name_key(key, name, sizeof(key));
    if (db_fighter_get(g->db, key, &f) != DB_OK) {
        game_reply(who, "there is no fighter %s", name);
        return -1;
    }
    if (game_fighter_busy(g, f.id)) {
        game_reply(who, "%s is in a bout or a challenge; set his sheet after it", f.name);
        return -1;
    }
    struct db_fighter nf = f;
    snprintf(example, sizeof(example), "%s=14 wins=3", ruleset_get(f.sheet.rules)->fields[0].key);
    for (int i = 0; i < n; i++)
        if (set_word(who, &nf, words[i], example) != 0)
            return -1;
    if (n < 1) {
        game_reply(who, "set what? e.g. set %s %s", f.name, example);
        return -1;
    }
    str_init_fixed(&s, what, sizeof(what));
    str_add(&s, "set %s:", f.name);
    for (int i = 0; i < n; i++)
        str_add(&s, " %s", words[i]);
    if (edit_store(g, who, &nf, what) != 0)
        return -1;
    game_log(g, GAME_LOG_INFO, "admin %s: %s", who->account, what);
    game_reply(who, "done: %s", what);
    return 0;
}
