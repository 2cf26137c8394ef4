/*
 * render_duel.c - the duel's words (seed 003): the tale of the tape with
 * each duellist's equipment and its condition; a round in full for the
 * pages (at most three lines: the initiative and each turn's hits and
 * misses with the body part and damage; then bleeding, stuns, critical
 * hits, pieces breaking and health) and in short for the channel (one
 * line, and a line of its own for the critical hits, the stuns and the
 * breaks); the report's figures and events, the result and the score.
 * Registered as `duel_words` through engine/rulesets.h.
 *
 * The round's lines read the last round's figures the bout keeps
 * (struct duel_round). The rules of render.c hold: nothing allocates or
 * does I/O; the flavour draws of a round are one per turn line (one for a
 * yield), none for the third line; the result lines draw one.
 */
#include <stdio.h>
#include <string.h>

#include "render_internal.h"

/* ------------------------------------------------------------- names */

/* A weapon as people write it: "war hammer", "the Punisher". */
static const char *weapon_words(int w)
{
    static const char *const names[DUEL_WEAPONS] = {
        "fists", "knife",      "short sword", "longsword", "scimitar",
        "mace",  "war hammer", "war axe",     "halberd",   "the Punisher",
    };
    return w >= 0 && w < DUEL_WEAPONS ? names[w] : "?";
}

static const char *part_words(int part)
{
    static const char *const names[DUEL_PARTS] = {"head", "torso",    "legs",
                                                  "feet", "left arm", "right arm"};
    return part >= 0 && part < DUEL_PARTS ? names[part] : "?";
}

/* Health as people read it: a knocked-out duellist has 0 left, never
 * less (the engine's figure goes below 0 by the blow's excess). */
static double health_shown(double health)
{
    return health > 0 ? health : 0;
}

/* The kind of piece a slot holds: "helmet", "armour", ... */
static const char *piece_words(int slot)
{
    static const char *const names[DUEL_SLOTS] = {"weapon",   "helmet", "armour", "mail",
                                                  "leggings", "boots",  "shield"};
    return slot >= 0 && slot < DUEL_SLOTS ? names[slot] : "?";
}

/* Appends the piece in `slot` of material/weapon `item`: "longsword",
 * "plate helmet", "chainmail under the armour". */
static void piece_add(struct str *t, int slot, int item)
{
    if (slot == DUEL_WEAPON)
        str_cat(t, weapon_words(item));
    else if (slot == DUEL_UNDER)
        render_fmt(t, "%s shirt", duel_armour_info(item)->name);
    else
        render_fmt(t, "%s %s", duel_armour_info(item)->name, piece_words(slot));
}

int render_duel_piece(int slot, int item, char *buf, size_t len)
{
    struct str t;
    char one[1];

    render_start(&t, buf, len, one);
    piece_add(&t, slot, item);
    return render_len(&t);
}

/* The pieces of `s` with their conditions and the encumbrance. */
static void kit_add(struct str *t, const struct sheet *s, const struct sheet *before)
{
    static const int order[] = {DUEL_WEAPON, DUEL_HEAD, DUEL_TORSO, DUEL_UNDER,
                                DUEL_LEGS,   DUEL_FEET, DUEL_SHIELD};
    const struct duel_sheet *d = &s->u.duel;
    int n = 0;

    if (before) {
        const struct duel_sheet *o = &before->u.duel;
        int lost = 0;
        for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
            int k = order[i], still = 0;
            if (o->item[k] == 0)
                continue;
            /* A shirt whose leather broke is the torso piece now. */
            for (int j = 0; j < DUEL_SLOTS; j++)
                still |=
                    d->item[j] == o->item[k] && (j == k || (k == DUEL_UNDER && j == DUEL_TORSO));
            if (still)
                continue;
            str_cat(t, lost++ ? ", " : "broken and gone: ");
            piece_add(t, k, o->item[k]);
        }
        if (lost)
            str_cat(t, "; ");
    }
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
        int k = order[i];
        if (d->item[k] == 0)
            continue;
        str_cat(t, n++ ? ", " : "");
        piece_add(t, k, d->item[k]);
        render_fmt(t, " %.1f%%", d->cond[k] / 10000.0);
    }
    if (n == 0)
        str_cat(t, "no equipment (bare fists)");
    else if (d->item[DUEL_WEAPON] == 0)
        str_cat(t, ", no weapon (bare fists)");
    render_fmt(t, "; encumbrance %.3f", duel_encumbrance(d->item, d->str));
}

int render_armoury(int weapons, int armour, char lines[][RENDER_LINE_MAX])
{
    int n = 0;
    struct str t;

    if (weapons) {
        str_init_fixed(&t, lines[n++], RENDER_LINE_MAX);
        render_fmt(&t, "Weapons (STR needed, damage, blunt/cut %%, reach, armour penetration, "
                       "critical, weight, wear factor):");
        for (int w = DUEL_FISTS + 1; w < DUEL_WEAPONS; w++) {
            const struct duel_weapon_info *wi = duel_weapon_info(w);
            str_init_fixed(&t, lines[n++], RENDER_LINE_MAX);
            render_fmt(&t,
                       "%s (weapon=%s): STR %d, damage %d-%d, blunt/cut %d/%d, reach %d, "
                       "armour pen. %d, ",
                       weapon_words(w), wi->name, wi->str, wi->lo, wi->hi, wi->blunt,
                       100 - wi->blunt, wi->reach, wi->pen);
            if (duel_crit_chance(w, 44))
                render_fmt(&t, "critical %d%% to %d%%", duel_crit_chance(w, 0),
                           duel_crit_chance(w, 44));
            else
                str_cat(&t, "no critical");
            render_fmt(&t, ", %g kg, wear factor %g", wi->kg, wi->wear);
        }
    }
    if (armour) {
        str_init_fixed(&t, lines[n++], RENDER_LINE_MAX);
        render_fmt(&t,
                   "Armour (defence, STR needed, weight of head/torso/legs/feet/shield; what the "
                   "torso piece covers; wear factor 1):");
        for (int m = DUEL_LEATHER; m < DUEL_MATERIALS; m++) {
            const struct duel_armour_info *ai = duel_armour_info(m);
            str_init_fixed(&t, lines[n++], RENDER_LINE_MAX);
            render_fmt(&t, "%s: defence %d, STR %d, %g/%g/%g/%g/%g kg; the torso piece covers %s",
                       ai->name, ai->defence, ai->str, ai->kg[DUEL_HEAD], ai->kg[DUEL_TORSO],
                       ai->kg[DUEL_LEGS], ai->kg[DUEL_FEET], ai->kg[DUEL_SHIELD],
                       ai->arms ? "the torso and both arms" : "the torso");
        }
        str_init_fixed(&t, lines[n++], RENDER_LINE_MAX);
        render_fmt(&t, "Pieces: head=, torso=, legs=, feet=, shield= of leather, chainmail or "
                       "plate; torso=chainmail+leather wears a chainmail shirt under leather; a "
                       "shield takes every hit on the left arm.");
    }
    return n;
}

/* ------------------------------------------------------------- the tape */

/* " STR 18 DEX 14 CON 14 INT 10; longsword 100%, plate helmet 97.5%, ..." */
static void sheet_add(struct str *t, const struct sheet *s)
{
    static const int order[] = {DUEL_WEAPON, DUEL_HEAD, DUEL_TORSO, DUEL_UNDER,
                                DUEL_LEGS,   DUEL_FEET, DUEL_SHIELD};
    const struct duel_sheet *d = &s->u.duel;
    int n = 0;

    render_fmt(t, " STR %d DEX %d CON %d INT %d;", d->str, d->dex, d->con, d->intel);
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
        int k = order[i];
        if (d->item[k] == 0)
            continue;
        render_fmt(t, "%s ", n++ ? "," : "");
        piece_add(t, k, d->item[k]);
        render_fmt(t, " %.1f%%", d->cond[k] / 10000.0);
    }
    if (d->item[DUEL_WEAPON] == 0)
        render_fmt(t, "%s bare fists", n ? "," : "");
}

/* ---------------------------------------------------------- the channel */

static const char *const say_turn[] = {
    "$1 attacks:",
    "$1 goes in:",
    "$1 swings:",
};
static const char *const say_yield[] = {
    "$1 yields!",
    "$1 lowers the weapon and yields!",
    "$1 has had enough and yields!",
};

/* The turn of `side` in the last round, or NULL if he fought none. */
static const struct duel_turn *turn_of(const struct duel_round *l, int side)
{
    for (int k = 0; k < l->nturns; k++)
        if (l->turns[k].attacker == side)
            return &l->turns[k];
    return NULL;
}

/* 1 if `evs` holds an event of `type` for `side`. */
static int has_event(const struct events *evs, enum event_type type, int side)
{
    for (int k = 0; k < evs->n; k++)
        if (evs->ev[k].type == type && evs->ev[k].side == side)
            return 1;
    return 0;
}

/* Appends the attempts of turn `t`: "head for 8.2 (critical!), miss,
 * blocked by the shield". */
static void attempts_add(struct str *t, const struct duel_turn *tu)
{
    for (int k = 0; k < tu->nattacks; k++) {
        const struct duel_attack *at = &tu->attacks[k];

        str_cat(t, k ? ", " : " ");
        if (!at->hit) {
            str_cat(t, "miss");
            continue;
        }
        int shield = at->npieces > 0 && at->pieces[0].slot == DUEL_SHIELD;
        if (shield && at->damage < 0.05)
            str_cat(t, "blocked by the shield");
        else if (shield) {
            RENDER_LIT(t, "the shield, ");
            render_fixed(t, at->damage, 1);
            RENDER_LIT(t, " through");
        } else if (at->damage < 0.05) {
            str_cat(t, part_words(at->part));
            RENDER_LIT(t, ", the armour holds");
        } else {
            /* Piece by piece, no format: a page writes many. */
            str_cat(t, part_words(at->part));
            RENDER_LIT(t, " for ");
            render_fixed(t, at->damage, 1);
        }
        if (at->critical)
            str_cat(t, " (critical!)");
    }
    str_cat(t, ".");
}

/* What side `side` did in his turn of the last round, into t: his hits,
 * or why he did not attack (stunned, no energy); nothing when the duel was
 * over before his turn. Draws one word for a turn fought. */
static void turn_add(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                     const struct events *evs, int side, struct rng *flavour)
{
    const struct duel_turn *tu = turn_of(&b->u.duel.last, side);

    if (tu) {
        const char *who[1] = {c[side].name};
        render_tpl(t, PICK(flavour, say_turn), who, 1);
        attempts_add(t, tu);
    } else if (has_event(evs, EV_SPENT, side)) {
        render_fmt(t, "%s has no energy left to attack.", c[side].name);
    } else {
        render_fmt(t, "%s is stunned and cannot attack.", c[side].name);
    }
}

/* The initiative and the first turn; the second turn; then bleeding,
 * stuns, breaks and health. A yield is one line. */
static int round_lines(const struct render_corner c[SIDES], const struct bout *b,
                       const struct events *evs, struct rng *flavour,
                       char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX])
{
    const struct duel_bout *db = &b->u.duel;
    const struct duel_round *l = &db->last;
    struct str t;
    int n = 0;

    str_init_fixed(&t, lines[n++], RENDER_LINE_MAX);
    RENDER_LIT(&t, "\002Round ");
    render_int(&t, b->round);
    RENDER_LIT(&t, "\002: ");
    if (l->yielded[0] || l->yielded[1]) {
        for (int i = 0, said = 0; i < SIDES; i++)
            if (l->yielded[i]) {
                const char *who[1] = {c[i].name};
                str_cat(&t, said++ ? " " : "");
                render_tpl(&t, PICK(flavour, say_yield), who, 1);
            }
        return n;
    }
    int fought = has_event(evs, EV_INITIATIVE, l->initiative);
    if (fought) {
        int first = l->initiative;
        str_cat(&t, c[first].name);
        RENDER_LIT(&t, " has the initiative. ");
        turn_add(&t, c, b, evs, first, flavour);
        /* The second turn, unless the first ended the duel. */
        if (!(b->result.over && !(db->f[!first].health > 0))) {
            str_init_fixed(&t, lines[n++], RENDER_LINE_MAX);
            turn_add(&t, c, b, evs, !first, flavour);
        }
    }

    /* The third line: bleeding, stuns, breaks, health; on the first line
     * when nothing was fought (a duellist bled out). */
    char extra[RENDER_LINE_MAX];
    struct str x;
    str_init_fixed(&x, extra, sizeof(extra));
    int said = 0;
    for (int i = 0; i < SIDES; i++)
        if (l->bled[i] > 0) {
            str_cat(&x, said ? ", " : "");
            str_cat(&x, c[i].name);
            RENDER_LIT(&x, " bleeds ");
            render_fixed(&x, l->bled[i], 1);
            said = 1;
        }
    if (said)
        str_cat(&x, ". ");
    for (int k = 0; k < evs->n; k++) {
        const struct event *e = &evs->ev[k];
        if (e->side < 0 || e->side >= SIDES)
            continue;
        if (e->type == EV_STUN) {
            render_fmt(&x, "%s is stunned for %d turn%s! ", c[e->side].name, e->a,
                       e->a == 1 ? "" : "s");
        } else if (e->type == EV_BREAK) {
            render_fmt(&x, "%s's ", c[e->side].name);
            piece_add(&x, e->a, e->b);
            str_cat(&x, " breaks! ");
        }
    }
    RENDER_LIT(&x, "Health: ");
    for (int i = 0; i < SIDES; i++) {
        str_cat(&x, c[i].name);
        RENDER_LIT(&x, " ");
        render_fixed(&x, health_shown(db->f[i].health), 1);
        str_cat(&x, i ? "." : ", ");
    }
    if (fought)
        str_init_fixed(&t, lines[n++], RENDER_LINE_MAX);
    str_cat(&t, extra);
    return n;
}

/* Health as the channel says it: never below 0. */
static double health_said(double h)
{
    return h > 0 ? h : 0;
}

/* Appends what `side` did in his turn, in short: "Conan lands 2 of 3 for
 * 28.3", or why he could not attack. */
static void turn_short(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                       const struct events *evs, int side)
{
    const struct duel_turn *tu = turn_of(&b->u.duel.last, side);

    if (!tu) {
        render_fmt(t,
                   has_event(evs, EV_SPENT, side) ? "%s has no energy left to attack"
                                                  : "%s is stunned and cannot attack",
                   c[side].name);
        return;
    }
    int hits = 0;
    double damage = 0;
    for (int k = 0; k < tu->nattacks; k++) {
        hits += tu->attacks[k].hit != 0;
        damage += tu->attacks[k].hit ? tu->attacks[k].damage : 0;
    }
    render_fmt(t, "%s lands %d of %d", c[side].name, hits, tu->nattacks);
    if (hits)
        render_fmt(t, " for %.1f", damage);
}

/* The critical hits of the last round on a line: "Critical hit: Conan on
 * Bob's right arm for 17.8!"; nothing when there was none. */
static void criticals_add(struct str *t, const struct render_corner c[SIDES], const struct bout *b)
{
    const struct duel_round *l = &b->u.duel.last;
    int n = 0;

    for (int i = 0; i < l->nturns; i++)
        for (int k = 0; k < l->turns[i].nattacks; k++)
            n += l->turns[i].attacks[k].hit && l->turns[i].attacks[k].critical;
    if (n == 0)
        return;
    str_cat(t, n == 1 ? "Critical hit: " : "Critical hits: ");
    for (int i = 0, said = 0; i < l->nturns; i++) {
        const struct duel_turn *tu = &l->turns[i];
        for (int k = 0; k < tu->nattacks; k++) {
            const struct duel_attack *at = &tu->attacks[k];
            if (!at->hit || !at->critical)
                continue;
            int shield = at->npieces > 0 && at->pieces[0].slot == DUEL_SHIELD;
            render_fmt(t, "%s%s on %s's %s for %.1f", said++ ? ", " : "", c[tu->attacker].name,
                       c[!tu->attacker].name, shield ? "shield" : part_words(at->part), at->damage);
        }
    }
    str_cat(t, "!");
}

/* The events of `type` (EV_STUN, EV_BREAK) of the round, each a sentence
 * on one line: "Bob is stunned for 2 turns! Bob's war hammer breaks!". */
static void events_short(struct str *t, const struct render_corner c[SIDES],
                         const struct events *evs, enum event_type type)
{
    for (int k = 0, said = 0; k < evs->n; k++) {
        const struct event *e = &evs->ev[k];
        if (e->type != type || e->side < 0 || e->side >= SIDES)
            continue;
        str_cat(t, said++ ? " " : "");
        if (type == EV_STUN) {
            render_fmt(t, "%s is stunned for %d turn%s!", c[e->side].name, e->a,
                       e->a == 1 ? "" : "s");
        } else {
            render_fmt(t, "%s's ", c[e->side].name);
            piece_add(t, e->a, e->b);
            str_cat(t, " breaks!");
        }
    }
}

/* The channel's lines of a round: one line (both turns in short, the
 * bleeding, the health), then a line of its own for each thing that
 * changes the fight: the critical hits, the stuns, the pieces broken. A
 * yield is one line. The words are drawn as round_lines (the pages' full
 * lines) draws them, so the flavour stream moves the same whichever form
 * is said. */
static int round_channel(const struct render_corner c[SIDES], const struct bout *b,
                         const struct events *evs, struct rng *flavour,
                         char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX])
{
    char full[RENDER_ROUND_LINES][RENDER_LINE_MAX];
    const struct duel_bout *db = &b->u.duel;
    const struct duel_round *l = &db->last;
    struct str t;
    int n = 0;

    round_lines(c, b, evs, flavour, full);
    if (l->yielded[0] || l->yielded[1]) {
        memcpy(lines[0], full[0], RENDER_LINE_MAX);
        return 1;
    }
    str_init_fixed(&t, lines[n++], RENDER_LINE_MAX);
    render_fmt(&t, "\002Round %d\002: ", b->round);
    if (has_event(evs, EV_INITIATIVE, l->initiative)) {
        int first = l->initiative;
        turn_short(&t, c, b, evs, first);
        if (!(b->result.over && !(db->f[!first].health > 0))) {
            str_cat(&t, "; ");
            turn_short(&t, c, b, evs, !first);
        }
        str_cat(&t, ". ");
    }
    int bled = 0;
    for (int i = 0; i < SIDES; i++)
        if (l->bled[i] > 0)
            render_fmt(&t, "%s%s bleeds %.1f", bled++ ? ", " : "", c[i].name, l->bled[i]);
    str_cat(&t, bled ? ". " : "");
    render_fmt(&t, "Health: %s %.1f, %s %.1f.", c[0].name, health_said(db->f[0].health), c[1].name,
               health_said(db->f[1].health));
    for (int kind = 0; kind < 3; kind++) {
        str_init_fixed(&t, lines[n], RENDER_LINE_MAX);
        if (kind == 0)
            criticals_add(&t, c, b);
        else
            events_short(&t, c, evs, kind == 1 ? EV_STUN : EV_BREAK);
        n += t.len > 0;
    }
    return n;
}

/* ----------------------------------------------------------- the report */

/* Each corner after the round: health, energy, bleeding, stun, weapon. */
static void report_head(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                        enum render_form form)
{
    const struct duel_bout *db = &b->u.duel;

    if (b->round < 1)
        return;
    for (int i = 0; i < SIDES; i++) {
        const struct duel_after *af = &db->last.after[i];

        RENDER_LIT(t, "\n");
        str_cat(t, c[i].name);
        RENDER_LIT(t, ": health ");
        figure_add(t, form == RENDER_PLAIN ? health_shown(af->health) : af->health, form);
        str_cat(t, ", energy ");
        figure_add(t, af->energy, form);
        str_cat(t, ", bleeding ");
        figure_add(t, af->bleed, form);
        str_cat(t, " a round");
        if (af->stunned > 0)
            render_fmt(t, ", stunned for %d turn%s", af->stunned, af->stunned == 1 ? "" : "s");
        if (af->weapon) {
            RENDER_LIT(t, ", ");
            str_cat(t, weapon_words(af->weapon));
            RENDER_LIT(t, " at ");
            figure_add(t, af->weapon_condition, form);
            RENDER_LIT(t, "%");
        } else {
            str_cat(t, ", bare fists");
        }
    }
}

/* The duel's events in plain words. */
static int event_add(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                     const struct event *e, enum render_form form)
{
    int known = e->side >= 0 && e->side < SIDES;

    (void)b;
    const char *name = known ? c[e->side].name : "-";
    const char *other = known ? c[!e->side].name : "-";

    switch (e->type) {
    /* The common ones piece by piece, no format: a page has a few a turn. */
    case EV_INITIATIVE:
        str_cat(t, name);
        RENDER_LIT(t, " has the initiative.");
        return 1;
    case EV_BLEED:
        str_cat(t, name);
        RENDER_LIT(t, " bleeds for ");
        figure_add(t, e->x, form);
        RENDER_LIT(t, ".");
        return 1;
    case EV_MISS:
        str_cat(t, name);
        RENDER_LIT(t, " misses (attempt ");
        render_int(t, e->a + 1);
        RENDER_LIT(t, ").");
        return 1;
    case EV_HIT:
        str_cat(t, name);
        RENDER_LIT(t, " hits ");
        str_cat(t, other);
        RENDER_LIT(t, "'s ");
        str_cat(t, e->c ? "shield" : part_words(e->a));
        RENDER_LIT(t, " for ");
        figure_add(t, e->x, form);
        if (e->b)
            RENDER_LIT(t, ", a critical hit");
        RENDER_LIT(t, ".");
        return 1;
    case EV_STUN:
        render_fmt(t, "%s is stunned for %d turn%s.", name, e->a, e->a == 1 ? "" : "s");
        return 1;
    case EV_BREAK:
        render_fmt(t, "%s's ", name);
        piece_add(t, e->a, e->b);
        str_cat(t, " breaks.");
        return 1;
    case EV_SPENT:
        render_fmt(t, "%s has no energy left to attack.", name);
        return 1;
    case EV_KO:
        render_fmt(t, "%s is down.", name);
        return 1;
    case EV_TKO:
        render_fmt(t, "%s yields.", name);
        return 1;
    default:
        return 0;
    }
}

/* ----------------------------------------------------------- the result */

/* Both standing after the last round. */
static void verdict_add(struct str *t, const struct render_corner c[SIDES], const struct bout *b)
{
    render_fmt(t, "Draw: %s and %s are both still standing after %d rounds.", c[0].name, c[1].name,
               b->round);
}

static const char *const say_over[] = {
    "It's over! ",
    "The duel is decided! ",
    "That ends it! ",
};

static int result_lines(const struct render_corner c[SIDES], const struct bout *b,
                        struct rng *flavour, char lines[RENDER_RESULT_MAX][RENDER_LINE_MAX])
{
    struct str t;
    const char *lead = PICK(flavour, say_over);

    str_init_fixed(&t, lines[0], RENDER_LINE_MAX);
    if (b->result.over)
        str_cat(&t, lead);
    result_add(&t, c, b);
    return 1;
}

/* ----------------------------------------------------------- the corner */

/* His health, energy, bleeding, stun and every piece's condition; the
 * opponent's health and bleeding, which the channel sees too. */
static void corner_add(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                       int side)
{
    const struct duel_fighter *me = &b->u.duel.f[side], *him = &b->u.duel.f[!side];
    static const int order[] = {DUEL_WEAPON, DUEL_HEAD, DUEL_TORSO, DUEL_UNDER,
                                DUEL_LEGS,   DUEL_FEET, DUEL_SHIELD};
    int n = 0;

    render_fmt(t, "Your corner after round %d: %s has %.1f health, %.1f energy", b->round,
               c[side].name, health_shown(me->health), me->energy);
    if (me->bleed > 0)
        render_fmt(t, ", bleeds %.1f a round", me->bleed);
    if (me->stunned > 0)
        render_fmt(t, ", stunned for %d turn%s", me->stunned, me->stunned == 1 ? "" : "s");
    str_cat(t, "; ");
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
        int k = order[i];
        if (me->item[k] == 0)
            continue;
        str_cat(t, n++ ? ", " : "");
        piece_add(t, k, me->item[k]);
        render_fmt(t, " %.1f%%", me->cond[k]);
    }
    if (me->item[DUEL_WEAPON] == 0)
        render_fmt(t, "%sbare fists", n ? ", " : "");
    render_fmt(t, ". %s has %.1f health", c[!side].name, health_shown(him->health));
    if (him->bleed > 0)
        render_fmt(t, ", bleeds %.1f a round", him->bleed);
    str_cat(t, ". yield concedes.");
}

/* ------------------------------------------------------------ the score */

static void score_add(struct str *t, const struct render_corner c[SIDES], const struct bout *b)
{
    const struct duel_bout *db = &b->u.duel;

    /* Piece by piece, no format: a page writes it every round. */
    RENDER_LIT(t, "health ");
    for (int i = 0; i < SIDES; i++) {
        str_cat(t, c[i].name);
        RENDER_LIT(t, " ");
        render_fixed(t, health_shown(db->f[i].health), 1);
        str_cat(t, i ? "; energy " : ", ");
    }
    render_fixed(t, db->f[0].energy, 1);
    RENDER_LIT(t, "-");
    render_fixed(t, db->f[1].energy, 1);
}

/* What the equipment weighs on him, for the pages. */
static void kit_note(struct str *t, const struct sheet *s)
{
    const struct duel_sheet *d = &s->u.duel;

    if (d->item[DUEL_WEAPON] == 0)
        str_cat(t, "no weapon (bare fists); ");
    render_fmt(t, "encumbrance %.3f", duel_encumbrance(d->item, d->str));
}

static const enum method methods[] = {METHOD_KO, METHOD_TKO, METHOD_NONE};

/* What the pages chart of a duellist: his health, from DUEL_HEALTH down
 * to 0 (a knockout). */
static double meter(const struct bout *b, int side, double *start)
{
    *start = DUEL_HEALTH;
    return health_shown(b->u.duel.f[side].health);
}

const struct words duel_words = {
    .sheet_add = sheet_add,
    .round = round_channel,
    .round_full = round_lines,
    .report_head = report_head,
    .report_tail = NULL,
    .event_add = event_add,
    .verdict_add = verdict_add,
    .result = result_lines,
    .result_plain = 1,
    .score_add = score_add,
    .injuries = NULL,
    .methods = methods,
    .towel_words = "yields",
    .kit_add = kit_add,
    .corner_add = corner_add,
    .meter_name = "health",
    .meter = meter,
    .mark_kinds = 1u << VIEW_CRITICAL | 1u << VIEW_STUN | 1u << VIEW_BREAK | 1u << VIEW_STOPPAGE,
    .kit_piece = piece_add,
    .kit_note = kit_note,
};
