/*
 * cmd-armoury.c - the duel's armoury: armoury, equip, unequip.
 *
 * A duellist's equipment is part of his sheet (struct duel_sheet: an item
 * and its condition per slot), stored with the fighter (db/kit.c) and
 * carried from duel to duel; the engine wears it and breaks it. Here a
 * player looks at what there is, gives his duellist new pieces (each at
 * 100 %, replacing what was in that slot) and takes pieces off (they are
 * gone). Every item needs its STR; nothing changes while the fighter is in
 * a challenge or a live duel, and every refusal says why and changes
 * nothing.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bot.h"
#include "parse.h"

/* `armoury [weapons|armour]`: the tables of rules.md section 4. */
static int cmd_armoury(struct cmd_ctx *ctx)
{
    char lines[RENDER_ARMOURY_LINES][RENDER_LINE_MAX];
    int weapons = 1, armour = 1;

    if (ctx->argc == 1) {
        const char *a = ctx->argv[0];
        if (strcasecmp(a, "weapons") == 0 || strcasecmp(a, "weapon") == 0)
            armour = 0;
        else if (strcasecmp(a, "armour") == 0 || strcasecmp(a, "armor") == 0)
            weapons = 0;
        else {
            reply(ctx,
                  "armoury shows weapons or armour: %sarmoury weapons, %sarmoury armour, or "
                  "%sarmoury for both",
                  cmd_typed(ctx), cmd_typed(ctx), cmd_typed(ctx));
            return -1;
        }
    }
    int n = render_armoury(weapons, armour, lines);
    for (int i = 0; i < n; i++)
        reply(ctx, "%s", lines[i]);
    return 0;
}

const struct cmd_entry cmd_armoury_entry = {
    .name = "armoury",
    .aliases = "armory",
    .where = CMD_ANYWHERE,
    .need = CMD_ANYONE,
    .args_min = 0,
    .args_max = 1,
    .usage = "[weapons|armour]",
    .help = "the duel's weapons and armour: STR needed, damage, blunt and cut, reach, armour "
            "penetration, critical, weight, wear",
    .exec = cmd_armoury,
};

/* The caller's active duellist `name`, not in a challenge or a bout;
 * replies and returns -1 otherwise. */
static int own_duellist(struct cmd_ctx *ctx, const char *name, struct db_fighter *f,
                        const char *what)
{
    if (bot_fighter_mine(ctx, name, f) != 0)
        return -1;
    if (ruleset_get(f->sheet.rules)->kit_slots == 0) {
        reply(ctx, "%s is a %s fighter: only duellists (rules=duel) carry weapons and armour",
              f->name, ruleset_get(f->sheet.rules)->name);
        return -1;
    }
    if (ctx->bot->game && game_fighter_busy(ctx->bot->game, f->id)) {
        reply(ctx, "%s is in a duel or a challenge: %s after it", f->name, what);
        return -1;
    }
    return 0;
}

/* Saves the fighter's new equipment and says what he carries now. */
static int kit_save(struct cmd_ctx *ctx, struct db_fighter *f, const char *done)
{
    char kit[400];

    if (db_fighter_save(ctx->bot->db, f) != DB_OK) {
        log_msg(LOG_ERROR, "equipment of %s: %s", f->name, db_errmsg(ctx->bot->db));
        reply(ctx, "sorry, I could not save that (database error); nothing changed");
        return -1;
    }
    render_kit(&f->sheet, kit, sizeof(kit));
    log_msg(LOG_INFO, "%s: %s %s", ctx->account, f->name, done);
    reply(ctx, "%s %s. Now: %s", f->name, done, kit);
    return 0;
}

/* `equip <fighter> <item>...`: slot=item words (weapon=longsword
 * head=plate torso=chainmail+leather shield=leather), or a weapon's bare
 * name. */
static int cmd_equip(struct cmd_ctx *ctx)
{
    struct db_fighter f;
    struct parse_error err;
    char text[400] = "", what[200] = "";
    size_t len = 0;

    if (own_duellist(ctx, ctx->argv[0], &f, "change the equipment") != 0)
        return -1;
    for (int i = 1; i < ctx->argc; i++) {
        const char *a = ctx->argv[i];
        if (strchr(a, ':')) {
            reply(ctx,
                  "\"%s\": a new piece starts at 100%%; give no condition, e.g. %sequip %s "
                  "weapon=longsword",
                  CLIP(a, 30), cmd_typed(ctx), f.name);
            return -1;
        }
        if (!strchr(a, '=')) {
            if (duel_weapon_find(a, strlen(a)) >= 0) {
                len += (size_t)snprintf(text + len, sizeof(text) - len, "%sweapon=%s",
                                        len ? " " : "", a);
            } else if (duel_material_find(a, strlen(a)) >= 0) {
                reply(ctx, "which %s piece? say head=%s, torso=%s, legs=%s, feet=%s or shield=%s",
                      CLIP(a, 20), CLIP(a, 20), CLIP(a, 20), CLIP(a, 20), CLIP(a, 20), CLIP(a, 20));
                return -1;
            } else {
                reply(ctx,
                      "\"%s\" is not in the armoury; %sarmoury lists it, and pieces are "
                      "written slot=item, e.g. head=plate",
                      CLIP(a, 30), cmd_typed(ctx));
                return -1;
            }
        } else {
            len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s", len ? " " : "", a);
        }
        if (len >= sizeof(text)) {
            reply(ctx, "too long; equip a few pieces at a time");
            return -1;
        }
    }
    int given[DUEL_SLOTS] = {0};
    struct duel_sheet kit = f.sheet.u.duel;
    if (duel_kit_parse(text, f.sheet.u.duel.str, &kit, given, &err) != 0) {
        reply(ctx, "%s: %s; nothing changed", f.name, err.reason);
        return -1;
    }
    /* A leather torso over the chainmail he wears keeps it as a shirt;
     * anything else on the torso replaces both. */
    if (given[DUEL_TORSO] && kit.item[DUEL_UNDER] == DUEL_NONE &&
        kit.item[DUEL_TORSO] == DUEL_LEATHER && f.sheet.u.duel.item[DUEL_TORSO] == DUEL_CHAINMAIL) {
        kit.item[DUEL_UNDER] = DUEL_CHAINMAIL;
        kit.cond[DUEL_UNDER] = f.sheet.u.duel.cond[DUEL_TORSO];
    }
    size_t wl = 0;
    for (int k = 0; k < DUEL_SLOTS; k++) {
        char piece[64];
        if (!given[k] || kit.item[k] == DUEL_NONE)
            continue;
        if (f.sheet.u.duel.item[k] == kit.item[k] && f.sheet.u.duel.cond[k] == kit.cond[k])
            continue;
        render_duel_piece(k, kit.item[k], piece, sizeof(piece));
        wl += (size_t)snprintf(what + wl, wl < sizeof(what) ? sizeof(what) - wl : 0, "%s%s",
                               wl ? ", " : "", piece);
    }
    f.sheet.u.duel = kit;
    if (duel_sheet_check(&f.sheet.u.duel) != 0) {
        reply(ctx, "%s cannot wear that together; nothing changed", f.name);
        return -1;
    }
    char done[240];
    snprintf(done, sizeof(done), "takes %s", what[0] ? what : "nothing new");
    return kit_save(ctx, &f, done);
}

const struct cmd_entry cmd_equip_entry = {
    .name = "equip",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .args_min = 2,
    .args_max = 7,
    .usage = "<duellist> <slot=item>... (e.g. weapon=longsword head=plate "
             "torso=chainmail+leather shield=leather)",
    .help = "gives your duellist new weapons and armour (each at 100%, replacing that slot's "
            "piece; each needs its STR)",
    .exec = cmd_equip,
};

/* `unequip <fighter> <slot>`: the piece is taken off and gone. */
static int cmd_unequip(struct cmd_ctx *ctx)
{
    struct db_fighter f;
    const char *word = ctx->argv[1];
    char piece[64], done[120];
    int slot;

    if (own_duellist(ctx, ctx->argv[0], &f, "change the equipment") != 0)
        return -1;
    if (strcasecmp(word, "under") == 0 || strcasecmp(word, "shirt") == 0)
        slot = DUEL_UNDER;
    else
        slot = duel_slot_find(word, strlen(word));
    if (slot < 0) {
        reply(ctx,
              "\"%s\" is no slot; the slots are weapon, head, torso, under (the chainmail "
              "shirt), legs, feet and shield",
              CLIP(word, 20));
        return -1;
    }
    struct duel_sheet *d = &f.sheet.u.duel;
    if (d->item[slot] == DUEL_NONE) {
        reply(ctx, "%s has nothing in %s; fighter %s shows what he carries", f.name,
              duel_slot_name(slot), f.name);
        return -1;
    }
    render_duel_piece(slot, d->item[slot], piece, sizeof(piece));
    d->item[slot] = DUEL_NONE;
    d->cond[slot] = 0;
    /* Without the leather, the chainmail shirt is the torso piece. */
    if (slot == DUEL_TORSO && d->item[DUEL_UNDER]) {
        d->item[DUEL_TORSO] = d->item[DUEL_UNDER];
        d->cond[DUEL_TORSO] = d->cond[DUEL_UNDER];
        d->item[DUEL_UNDER] = DUEL_NONE;
        d->cond[DUEL_UNDER] = 0;
    }
    snprintf(done, sizeof(done), "puts away the %s for good", piece);
    return kit_save(ctx, &f, done);
}

const struct cmd_entry cmd_unequip_entry = {
    .name = "unequip",
    .where = CMD_ANYWHERE,
    .need = CMD_ACCOUNT,
    .args_min = 2,
    .args_max = 2,
    .usage = "<duellist> <weapon|head|torso|under|legs|feet|shield>",
    .help = "takes a piece off your duellist (it is gone)",
    .exec = cmd_unequip,
};
