/*
 * armoury.c - the duel's armoury: what there is, and a duellist's
 * equipment (rules.md section 4).
 *
 * A duellist's equipment is part of his sheet (struct duel_sheet: an item
 * and its condition per slot), stored with the fighter and carried from
 * duel to duel; the engine wears it and breaks it. Here a player looks at
 * what there is, gives his duellist new pieces (each at 100 %, replacing
 * what was in that slot) and takes pieces off (they are gone). Every item
 * needs its STR; the layers follow one rule (a leather torso over the
 * chainmail worn keeps it as a shirt, and without the leather the shirt is
 * the torso piece again); nothing changes while the fighter is in a
 * challenge or a live duel, and every refusal says why and changes
 * nothing.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "game.h"
#include "game_internal.h"
#include "parse.h"

#define EQUIP_TEXT_MAX 400

int game_armoury(struct game *g, const struct game_caller *who, const char *what)
{
    char lines[RENDER_ARMOURY_LINES][RENDER_LINE_MAX];
    int weapons = 1, armour = 1;

    if (what) {
        if (strcasecmp(what, "weapons") == 0 || strcasecmp(what, "weapon") == 0)
            armour = 0;
        else if (strcasecmp(what, "armour") == 0 || strcasecmp(what, "armor") == 0)
            weapons = 0;
        else {
            const char *t = game_typed(g, who);
            game_reply(who,
                       "armoury shows weapons or armour: %sarmoury weapons, %sarmoury armour, or "
                       "%sarmoury for both",
                       t, t, t);
            return -1;
        }
    }
    int n = render_armoury(weapons, armour, lines);
    for (int i = 0; i < n; i++)
        game_reply(who, "%s", lines[i]);
    return 0;
}

/* Fighter `f` is the caller's active duellist, not in a challenge or a
 * bout; replies and returns -1 otherwise. */
static int own_duellist(struct game *g, const struct game_caller *who, const struct db_fighter *f)
{
    if (game_fighter_owned(who, f) != 0)
        return -1;
    if (ruleset_get(f->sheet.rules)->kit_slots == 0) {
        game_reply(who, "%s is a %s fighter: only duellists (rules=duel) carry weapons and armour",
                   f->name, ruleset_get(f->sheet.rules)->name);
        return -1;
    }
    if (game_fighter_busy(g, f->id)) {
        game_reply(who, "%s is in a duel or a challenge: change the equipment after it", f->name);
        return -1;
    }
    return 0;
}

/* Saves the fighter's new equipment and says what he carries now. */
static int kit_save(struct game *g, const struct game_caller *who, struct db_fighter *f,
                    const char *done)
{
    char kit[400];

    if (db_fighter_save(g->db, f) != DB_OK) {
        game_log(g, GAME_LOG_ERROR, "equipment of %s: %s", f->name, db_errmsg(g->db));
        game_reply(who, "sorry, I could not save that (%s); nothing changed", db_why(g->db));
        return -1;
    }
    render_kit(&f->sheet, kit, sizeof(kit));
    game_log(g, GAME_LOG_INFO, "%s: %s %s", who->account, f->name, done);
    game_reply(who, "%s %s. Now: %s", f->name, done, kit);
    return 0;
}

/* One word of `equip` into the slot=item text: slot=item as it is, a
 * weapon's bare name as weapon=NAME; -1 after a reply for anything else. */
static int equip_word(struct game *g, const struct game_caller *who, const struct db_fighter *f,
                      const char *a, struct str *text)
{
    if (strchr(a, ':')) {
        game_reply(who,
                   "\"%s\": a new piece starts at 100%%; give no condition, e.g. %sequip %s "
                   "weapon=longsword",
                   CLIP(a, 30), game_typed(g, who), f->name);
        return -1;
    }
    if (strchr(a, '=')) {
        str_add(text, "%s%s", text->len ? " " : "", a);
    } else if (duel_weapon_find(a, strlen(a)) >= 0) {
        str_add(text, "%sweapon=%s", text->len ? " " : "", a);
    } else if (duel_material_find(a, strlen(a)) >= 0) {
        const char *m = CLIP(a, 20);
        game_reply(who, "which %s piece? say head=%s, torso=%s, legs=%s, feet=%s or shield=%s", m,
                   m, m, m, m, m);
        return -1;
    } else {
        char near[64];
        if (duel_suggest(a, strlen(a), DUEL_SUGGEST_WEAPON | DUEL_SUGGEST_ARMOUR, near,
                         sizeof(near)))
            game_reply(who, "\"%s\" is not in the armoury; did you mean %s? %sarmoury lists it all",
                       CLIP(a, 30), near, game_typed(g, who));
        else
            game_reply(who,
                       "\"%s\" is not in the armoury; %sarmoury lists it, and pieces are "
                       "written slot=item, e.g. head=plate",
                       CLIP(a, 30), game_typed(g, who));
        return -1;
    }
    if (str_cut_short(text)) {
        game_reply(who, "too long; equip a few pieces at a time");
        return -1;
    }
    return 0;
}

void game_kit_layer(const struct duel_sheet *worn, const int given[DUEL_SLOTS],
                    struct duel_sheet *kit)
{
    /* A leather torso over the chainmail he wears keeps it as a shirt;
     * anything else on the torso replaces both. */
    if (given[DUEL_TORSO] && kit->item[DUEL_UNDER] == DUEL_NONE &&
        kit->item[DUEL_TORSO] == DUEL_LEATHER && worn->item[DUEL_TORSO] == DUEL_CHAINMAIL) {
        kit->item[DUEL_UNDER] = DUEL_CHAINMAIL;
        kit->cond[DUEL_UNDER] = worn->cond[DUEL_TORSO];
    }
}

void game_kit_unlayer(struct duel_sheet *d, int slot)
{
    d->item[slot] = DUEL_NONE;
    d->cond[slot] = 0;
    /* Without the leather, the chainmail shirt is the torso piece. */
    if (slot == DUEL_TORSO && d->item[DUEL_UNDER]) {
        d->item[DUEL_TORSO] = d->item[DUEL_UNDER];
        d->cond[DUEL_TORSO] = d->cond[DUEL_UNDER];
        d->item[DUEL_UNDER] = DUEL_NONE;
        d->cond[DUEL_UNDER] = 0;
    }
}

/* "takes longsword, plate helmet": the pieces of `kit` given that are new
 * on `worn`. */
static void kit_news(const struct duel_sheet *worn, const struct duel_sheet *kit,
                     const int given[DUEL_SLOTS], struct str *out)
{
    str_cat(out, "takes ");
    size_t at = out->len;
    for (int k = 0; k < DUEL_SLOTS; k++) {
        char piece[64];
        if (!given[k] || kit->item[k] == DUEL_NONE)
            continue;
        if (worn->item[k] == kit->item[k] && worn->cond[k] == kit->cond[k])
            continue;
        render_duel_piece(k, kit->item[k], piece, sizeof(piece));
        str_add(out, "%s%s", out->len > at ? ", " : "", piece);
    }
    if (out->len == at)
        str_cat(out, "nothing new");
}

int game_equip(struct game *g, const struct game_caller *who, const struct db_fighter *mine,
               const char *const *words, int n)
{
    struct db_fighter f = *mine;
    struct parse_error err;
    char text[EQUIP_TEXT_MAX], done[240];
    struct str t, d;

    if (own_duellist(g, who, &f) != 0)
        return -1;
    str_init_fixed(&t, text, sizeof(text));
    for (int i = 0; i < n; i++)
        if (equip_word(g, who, &f, words[i], &t) != 0)
            return -1;
    int given[DUEL_SLOTS] = {0};
    struct duel_sheet kit = f.sheet.u.duel;
    if (duel_kit_parse(text, f.sheet.u.duel.str, &kit, given, &err) != 0) {
        game_reply(who, "%s: %s; nothing changed", f.name, err.reason);
        return -1;
    }
    game_kit_layer(&f.sheet.u.duel, given, &kit);
    str_init_fixed(&d, done, sizeof(done));
    kit_news(&f.sheet.u.duel, &kit, given, &d);
    f.sheet.u.duel = kit;
    if (duel_sheet_check(&f.sheet.u.duel) != 0) {
        game_reply(who, "%s cannot wear that together; nothing changed", f.name);
        return -1;
    }
    return kit_save(g, who, &f, done);
}

int game_unequip(struct game *g, const struct game_caller *who, const struct db_fighter *mine,
                 const char *word)
{
    struct db_fighter f = *mine;
    char piece[64], done[120];
    int slot;

    if (own_duellist(g, who, &f) != 0)
        return -1;
    if (strcasecmp(word, "under") == 0 || strcasecmp(word, "shirt") == 0)
        slot = DUEL_UNDER;
    else
        slot = duel_slot_find(word, strlen(word));
    if (slot < 0) {
        game_reply(who,
                   "\"%s\" is no slot; the slots are weapon, head, torso, under (the chainmail "
                   "shirt), legs, feet and shield",
                   CLIP(word, 20));
        return -1;
    }
    struct duel_sheet *d = &f.sheet.u.duel;
    if (d->item[slot] == DUEL_NONE) {
        game_reply(who, "%s has nothing in %s; fighter %s shows what he carries", f.name,
                   duel_slot_name(slot), f.name);
        return -1;
    }
    render_duel_piece(slot, d->item[slot], piece, sizeof(piece));
    game_kit_unlayer(d, slot);
    snprintf(done, sizeof(done), "puts away the %s for good", piece);
    return kit_save(g, who, &f, done);
}
