/*
 * duel.c - the armed duel (seed 003 "Battle Engine", with the settlements
 * of docs/rules.md section 4): weapons and armour, initiative, one to three
 * consecutive hits, hit chance from dexterity, body parts, armour coverage
 * and layering, blunt and cutting damage, stun, bleeding, wear and breaking,
 * critical hits, energy and encumbrance.
 *
 * A round: a yield ends the duel before anything else; bleeding is taken
 * from both (side 0 first); the initiative is drawn; then each side's turn,
 * the one with the initiative first. A stunned fighter's turn is lost (it
 * counts down his stun), so is the turn of a fighter without energy. A turn
 * is the attacker's 1-3 hit attempts, each costing energy; it stops when his
 * energy is gone or his opponent falls, and a fallen fighter fights no more.
 *
 * Draws from the outcome stream, in this order: one for the initiative
 * (even when a stun decides it); per attempt one to hit; on a hit one for
 * the part, two for the damage roll (Box-Muller), one for the critical and
 * one for the stun (each drawn even when its chance is 0). The flavour
 * stream is not used. Health, energy, bleeding and conditions are reals;
 * the sheet keeps conditions as whole millionths of 100 % between duels.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "engine.h"
#include "duel_tables.h"

/* rules.md section 4's weapons; fists are what a duellist without a weapon
 * (or whose weapon broke) fights with: 1-2 blunt damage, reach 1, no
 * weight, nothing to wear. */
static const struct duel_weapon_info weapons[DUEL_WEAPONS] = {
    [DUEL_FISTS] = {"fists", 1, 1, 2, 100, 1, 0, 0, 0.0, 1},
    [DUEL_KNIFE] = {"knife", 5, 2, 4, 0, 1, 35, 0, 0.35, 1},
    [DUEL_SHORT_SWORD] = {"short_sword", 9, 3, 8, 20, 1, 65, 0, 0.91, 1},
    [DUEL_LONGSWORD] = {"longsword", 11, 3, 10, 20, 4, 65, 10, 1.814, 1},
    [DUEL_SCIMITAR] = {"scimitar", 11, 3, 10, 30, 3, 65, 15, 1.81, 1},
    [DUEL_MACE] = {"mace", 14, 4, 12, 70, 3, 55, 0, 3.628, 1},
    [DUEL_WAR_HAMMER] = {"war_hammer", 14, 4, 12, 80, 3, 90, 5, 2.267, 1},
    [DUEL_WAR_AXE] = {"war_axe", 17, 6, 13, 40, 4, 55, 0, 5.443, 1},
    [DUEL_HALBERD] = {"halberd", 17, 5, 13, 60, 5, 70, 0, 5.443, 1},
    [DUEL_PUNISHER] = {"the_punisher", 20, 7, 17, 20, 4, 80, 20, 1.814, 512},
};

/* The armour sets: defence, STR, kg by slot (weapon, head, torso, under,
 * legs, feet, shield; `under` is the chainmail torso's), whether the torso
 * piece covers the arms. */
static const struct duel_armour_info armours[DUEL_MATERIALS] = {
    [DUEL_NONE] = {"none", 0, 0, {0}, 0},
    [DUEL_LEATHER] = {"leather", 2, 7, {0, 1.5, 4.082, 0, 1.361, 0.68, 2.267}, 0},
    [DUEL_CHAINMAIL] = {"chainmail", 4, 12, {0, 2.721, 6.35, 6.35, 6.35, 2.721, 2.72}, 1},
    [DUEL_PLATE] = {"plate", 6, 17, {0, 4.53, 11.0, 0, 2.268, 4.536, 13.607}, 1},
};

static const char *const slot_names[DUEL_SLOTS] = {"weapon", "head", "torso", "under",
                                                   "legs",   "feet", "shield"};
static const char *const part_names[DUEL_PARTS] = {"head", "torso",    "legs",
                                                   "feet", "left_arm", "right_arm"};

/* The seed's critical table, the weapons' columns (war hammer, longsword,
 * scimitar, the punisher), rows d = 0..44. */
static const unsigned char crit_table[45][4] = {
    {1, 1, 2, 2},   {1, 1, 2, 2},   {1, 1, 2, 2},    {1, 1, 2, 3},    {1, 2, 2, 3},
    {1, 2, 3, 3},   {1, 2, 3, 4},   {1, 2, 3, 4},    {1, 2, 3, 4},    {1, 2, 4, 5},
    {1, 3, 4, 5},   {1, 3, 4, 5},   {1, 3, 4, 6},    {2, 3, 5, 6},    {2, 3, 5, 7},
    {2, 4, 5, 7},   {2, 4, 6, 7},   {2, 4, 6, 8},    {2, 4, 6, 8},    {2, 4, 6, 9},
    {2, 5, 7, 9},   {2, 5, 7, 9},   {2, 5, 7, 10},   {3, 5, 8, 10},   {3, 5, 8, 11},
    {3, 6, 8, 11},  {3, 6, 9, 12},  {3, 6, 9, 12},   {3, 6, 9, 13},   {3, 6, 10, 13},
    {3, 7, 10, 13}, {3, 7, 10, 14}, {4, 7, 11, 14},  {4, 7, 11, 15},  {4, 8, 11, 15},
    {4, 8, 12, 16}, {4, 8, 12, 16}, {4, 8, 13, 17},  {4, 9, 13, 17},  {4, 9, 13, 18},
    {5, 9, 14, 18}, {5, 9, 14, 19}, {5, 10, 14, 19}, {5, 10, 15, 20}, {5, 10, 15, 20},
};

/* The seed's consecutive-hits table: rows n = 0, 0.5, ... 3, columns p. */
static const unsigned char hits_table[7][7] = {
    {1, 1, 2, 3, 3, 3, 3}, {1, 1, 2, 3, 3, 3, 3}, {1, 1, 1, 2, 3, 3, 3}, {1, 1, 1, 1, 2, 3, 3},
    {1, 1, 1, 1, 2, 3, 3}, {1, 1, 1, 1, 1, 2, 3}, {1, 1, 1, 1, 1, 2, 3},
};

const struct duel_weapon_info *duel_weapon_info(int weapon)
{
    return weapon >= 0 && weapon < DUEL_WEAPONS ? &weapons[weapon] : NULL;
}

const struct duel_armour_info *duel_armour_info(int material)
{
    return material >= 0 && material < DUEL_MATERIALS ? &armours[material] : NULL;
}

const char *duel_slot_name(int slot)
{
    return slot >= 0 && slot < DUEL_SLOTS ? slot_names[slot] : "";
}

const char *duel_part_name(int part)
{
    return part >= 0 && part < DUEL_PARTS ? part_names[part] : "";
}

/* round() without the library call (a turn rounds half a dozen figures):
 * x to the nearest integer, halves away from zero, with round()'s sign (so
 * -0.3 gives -0.0). Below 2^52 in size, x minus its truncation is exact,
 * so comparing that fraction with 0.5 decides as round() does; from 2^52
 * on (and for an infinity or a NaN) x is its own rounding. */
static inline double round_near(double x)
{
    if (!(fabs(x) < 0x1p52))
        return x;
    double t = (double)(int64_t)x, frac = x - t;

    t += (frac >= 0.5) - (frac <= -0.5);
    return copysign(t, x);
}

double duel_round_half(double x)
{
    return round_near(2.0 * x) / 2.0;
}

/* The index 0..6 of a normalised sum already rounded to 0.5, `h`: clamped
 * to 0..3. */
static int index_of_half(double h)
{
    if (!(h > 0))
        return 0;
    if (h > 3)
        return 6;
    return (int)(2.0 * h);
}

/* The index 0..6 of a normalised sum: rounded to 0.5, clamped to 0..3. */
static int half_index(double x)
{
    return index_of_half(duel_round_half(x));
}

int duel_hits(double p, double n)
{
    return hits_table[half_index(n)][half_index(p)];
}

double duel_energy_cost(double con3, double n)
{
    /* 4/3 + (column - row)/3, in halves: (8 + c - r) / 6. */
    return (8.0 + half_index(n) - half_index(con3)) / 6.0;
}

double duel_hit_chance(int a, int d)
{
    if (a >= DUEL_ABILITY_MIN && a <= DUEL_ABILITY_MAX && d >= DUEL_ABILITY_MIN &&
        d <= DUEL_ABILITY_MAX)
        return hit_chances[a - 1][d - 1];
    double x = 62.0 + 45.0 * tanh(0.41 * log((double)(a < 1 ? 1 : a) / (d < 1 ? 1 : d)) + 0.08);

    return x < 5 ? 5 : x > 98 ? 98 : x;
}

int duel_crit_chance(int weapon, int d)
{
    int col;

    switch (weapon) {
    case DUEL_WAR_HAMMER:
        col = 0;
        break;
    case DUEL_LONGSWORD:
        col = 1;
        break;
    case DUEL_SCIMITAR:
        col = 2;
        break;
    case DUEL_PUNISHER:
        col = 3;
        break;
    default:
        return 0;
    }
    return crit_table[d < 0 ? 0 : d > 44 ? 44 : d][col];
}

/* The formulas of a few figures of small integers, as tables the compiler
 * works out: a constant expression of doubles is folded with the rounding
 * of the same operations at run time (IEEE double, to nearest), so each
 * entry is the double the formula gives, without its division. */

/* An ability 1..23 normalised to 0..1, (a - 1) / 22, by a. */
#define NORM(a) ((double)((a)-1) / 22.0)
static const double ability_norm[DUEL_ABILITY_MAX + 1] = {
    NORM(0),  NORM(1),  NORM(2),  NORM(3),  NORM(4),  NORM(5),  NORM(6),  NORM(7),
    NORM(8),  NORM(9),  NORM(10), NORM(11), NORM(12), NORM(13), NORM(14), NORM(15),
    NORM(16), NORM(17), NORM(18), NORM(19), NORM(20), NORM(21), NORM(22), NORM(23),
};
#undef NORM

/* duel_base_damage(roll, str) before its floor of 1, by str 0..23 and roll
 * 0..ROLL_MAX (no weapon rolls more). */
#define ROLL_MAX   20
#define BASE(r, s) ((double)(r) + (double)(r) * (double)(s) / 23.0)
#define BASE_ROW(s)                                                                                \
    {                                                                                              \
        BASE(0, s), BASE(1, s), BASE(2, s), BASE(3, s), BASE(4, s), BASE(5, s), BASE(6, s),        \
            BASE(7, s), BASE(8, s), BASE(9, s), BASE(10, s), BASE(11, s), BASE(12, s),             \
            BASE(13, s), BASE(14, s), BASE(15, s), BASE(16, s), BASE(17, s), BASE(18, s),          \
            BASE(19, s), BASE(20, s)                                                               \
    }
static const double base_damages[DUEL_ABILITY_MAX + 1][ROLL_MAX + 1] = {
    BASE_ROW(0),  BASE_ROW(1),  BASE_ROW(2),  BASE_ROW(3),  BASE_ROW(4),  BASE_ROW(5),
    BASE_ROW(6),  BASE_ROW(7),  BASE_ROW(8),  BASE_ROW(9),  BASE_ROW(10), BASE_ROW(11),
    BASE_ROW(12), BASE_ROW(13), BASE_ROW(14), BASE_ROW(15), BASE_ROW(16), BASE_ROW(17),
    BASE_ROW(18), BASE_ROW(19), BASE_ROW(20), BASE_ROW(21), BASE_ROW(22), BASE_ROW(23),
};
#undef BASE_ROW
#undef BASE

/* The initiative's chance of the side with reach r0 against r1 (1..5):
 * r0 / (r0 + r1), by r0 - 1 and r1 - 1. */
#define SHARE(a, b) ((double)(a) / ((double)(a) + (double)(b)))
#define SHARE_ROW(a)                                                                               \
    {                                                                                              \
        SHARE(a, 1), SHARE(a, 2), SHARE(a, 3), SHARE(a, 4), SHARE(a, 5)                            \
    }
static const double reach_shares[5][5] = {
    SHARE_ROW(1), SHARE_ROW(2), SHARE_ROW(3), SHARE_ROW(4), SHARE_ROW(5),
};
#undef SHARE_ROW
#undef SHARE

double duel_base_damage(int roll, int str)
{
    double base = roll >= 0 && roll <= ROLL_MAX && str >= 0 && str <= DUEL_ABILITY_MAX
                      ? base_damages[str][roll]
                      : roll + roll * (double)str / 23.0;

    return base < 1 ? 1 : base;
}

double duel_base_weight(int str)
{
    if (str >= DUEL_ABILITY_MIN && str <= DUEL_ABILITY_MAX)
        return base_weights[str];
    return 100.0 - pow(fabs((double)str - 23.0), 1.3);
}

/* duel_encumbrance() for a base weight `base` worked out beforehand. */
static double encumbrance(const int item[DUEL_SLOTS], double base)
{
    double kg = 0;

    for (int s = DUEL_HEAD; s < DUEL_SLOTS; s++)
        if (item[s] > DUEL_NONE && item[s] < DUEL_MATERIALS)
            kg += armours[item[s]].kg[s];
    return kg / base;
}

double duel_encumbrance(const int item[DUEL_SLOTS], int str)
{
    return encumbrance(item, duel_base_weight(str));
}

int duel_stun_turns(int con)
{
    int t = (int)lround((23.0 - con) / 5.0);

    return t < 1 ? 1 : t;
}

double duel_weapon_wear(int def, double wf)
{
    if (def > 0) {
        double d = def * 0.5;
        return (d > 1 ? d : 1) / wf * 0.25;
    }
    return 1.0 / wf * 0.25;
}

/* duel_armour(), inline in an attack. */
static inline void armour(double blunt, double cut, int def, int outer, int shield, int pen,
                          double *blunt_after, double *cut_after, double *wear)
{
    *wear = 0;
    if (def <= 0) {
        *blunt_after = blunt;
        *cut_after = cut;
        return;
    }
    if (blunt >= def)
        *blunt_after = shield ? blunt - 0.4 * def : blunt - def;
    else
        *blunt_after = 0;
    *wear = blunt >= outer ? blunt - outer : outer / 4.0;
    if (shield || pen <= 0) {
        *cut_after = 0;
    } else {
        double f = 1.0 - 3.5 * def / pen;
        *cut_after = cut * (f > 0 ? f : 0);
    }
}

void duel_armour(double blunt, double cut, int def, int outer, int shield, int pen,
                 double *blunt_after, double *cut_after, double *wear)
{
    armour(blunt, cut, def, outer, shield, pen, blunt_after, cut_after, wear);
}

int duel_sheet_check(const struct duel_sheet *s)
{
    const int ab[4] = {s->str, s->dex, s->con, s->intel};

    for (int i = 0; i < 4; i++)
        if (ab[i] < DUEL_ABILITY_MIN || ab[i] > DUEL_ABILITY_MAX)
            return -1;
    for (int k = 0; k < DUEL_SLOTS; k++) {
        int it = s->item[k], need;

        if (k == DUEL_WEAPON) {
            if (it < 0 || it >= DUEL_WEAPONS)
                return -1;
            need = weapons[it].str;
        } else {
            if (it < 0 || it >= DUEL_MATERIALS)
                return -1;
            need = armours[it].str;
        }
        if (s->str < need)
            return -1;
        if (it == 0 ? s->cond[k] != 0 : s->cond[k] < 1 || s->cond[k] > DUEL_COND_FULL)
            return -1;
    }
    if (s->item[DUEL_UNDER] != DUEL_NONE &&
        (s->item[DUEL_UNDER] != DUEL_CHAINMAIL || s->item[DUEL_TORSO] != DUEL_LEATHER))
        return -1;
    return 0;
}

/* --------------------------------------------------------------- rules */

static int sheet_valid(const struct sheet *s)
{
    return duel_sheet_check(&s->u.duel);
}

static int order_valid(const struct order *o)
{
    return o->u.duel.yield == 0 || o->u.duel.yield == 1 ? 0 : -1;
}

static void order_default(struct order *o)
{
    o->rules = RULES_DUEL;
    o->u.duel.yield = 0;
}

static void order_towel(struct order *o)
{
    order_default(o);
    o->u.duel.yield = 1;
}

static int order_is_towel(const struct order *o)
{
    return o->u.duel.yield;
}

/* The normalised negative sum of a fighter: reach + weight + encumbrance. */
static double sum_n(const struct duel_fighter *f)
{
    const struct duel_weapon_info *w = &weapons[f->item[DUEL_WEAPON]];
    double enc = encumbrance(f->item, f->base_weight) / 0.932;

    return (w->reach - 1) / 4.0 + w->kg / 5.443 + (enc < 1 ? enc : 1);
}

/* Constitution normalised to 0..1, as the consecutive-hits and energy
 * tables take it. */
static double con_norm(const struct duel_fighter *f)
{
    return ability_norm[f->sheet.con];
}

static void equipped(struct duel_fighter *f);

static void bout_start(struct bout *b, const struct sheet s[SIDES], int rounds)
{
    (void)rounds;
    for (int i = 0; i < SIDES; i++) {
        struct duel_fighter *f = &b->u.duel.f[i];

        f->sheet = s[i].u.duel;
        f->health = DUEL_HEALTH;
        f->energy = DUEL_ENERGY;
        for (int k = 0; k < DUEL_SLOTS; k++) {
            f->item[k] = f->sheet.item[k];
            f->cond[k] = f->item[k] ? f->sheet.cond[k] / (DUEL_COND_FULL / 100.0) : 0;
        }
        f->base_weight = duel_base_weight(f->sheet.str);
        f->hit_chance = duel_hit_chance(f->sheet.dex, s[!i].u.duel.dex);
        f->hit_p = f->hit_chance / 100.0;
        double st = (f->sheet.str - 10) / 13.0;
        f->st = st < -1 ? -1 : st > 1 ? 1 : st;
        f->crit_d = f->sheet.intel + f->sheet.dex - s[!i].u.duel.intel - s[!i].u.duel.dex;
        equipped(f);
    }
}

/* Ends the duel: `winner` 0/1, or -1 for a draw `drawn_by`. */
static void finish(struct bout *b, int winner, enum method method, enum method drawn_by,
                   enum tko_reason reason, struct events *evs)
{
    b->result.over = 1;
    b->result.round = b->round;
    b->result.winner = winner;
    b->result.method = winner < 0 ? METHOD_DRAW : method;
    b->result.drawn_by = winner < 0 ? drawn_by : METHOD_NONE;
    b->result.reason = reason;
    events_add(evs, EV_RESULT, winner, b->result.method, reason, 0, 0);
}

/* Ends the duel if a fighter is down (health 0 or below); returns 1 if it
 * did. */
static int down_check(struct bout *b, struct events *evs)
{
    const struct duel_bout *db = &b->u.duel;
    int d0 = !(db->f[0].health > 0), d1 = !(db->f[1].health > 0);

    if (!d0 && !d1)
        return 0;
    for (int i = 0; i < SIDES; i++)
        if (!(db->f[i].health > 0))
            events_add(evs, EV_KO, i, 0, 0, 0, 0);
    finish(b, d0 && d1 ? -1 : d0 ? 1 : 0, METHOD_KO, METHOD_KO, TKO_NONE, evs);
    return 1;
}

/* A normal draw from its two uniforms, u1 in (0, 1] and u2 in [0, 1)
 * (Box-Muller), with libm's log and cos: the figure of the rules. */
static double normal_exact(double u1, double u2)
{
    return sqrt(-2.0 * log(u1)) * cos(2.0 * 3.14159265358979323846 * u2);
}

/* log(u) for u in [2^-53, 1], within 3e-9 of it relatively: u = m 2^e
 * with m in [sqrt(1/2), sqrt(2)) (split without a branch: the bits of u
 * shifted by those of sqrt(1/2) carry into the exponent exactly when m
 * would be above sqrt(2)), log(m) = 2 atanh(t), t = (m - 1) / (m + 1) in
 * (-0.172, 0.172), whose series is cut after t^9 (the rest is under
 * t^11 / 11 over t, 3e-9 of the sum). The series' polynomial in t^2 is
 * summed in pairs (Estrin's scheme), a shorter chain than Horner's. */
static inline double log_near(double u)
{
    const uint64_t half_root = 0x3fe6a09e667f3bcdULL; /* sqrt(1/2) */
    uint64_t bits;

    memcpy(&bits, &u, sizeof(bits));
    bits += 0x3ff0000000000000ULL - half_root;
    int e = (int)(bits >> 52) - 1023;
    bits = (bits & 0x000fffffffffffffULL) + half_root;
    double m;
    memcpy(&m, &bits, sizeof(m));
    double t = (m - 1.0) / (m + 1.0), q = t * t, q2 = q * q;
    double series = (1.0 + q * (1.0 / 3)) + q2 * ((1.0 / 5 + q * (1.0 / 7)) + q2 * (1.0 / 9));
    return e * 0.6931471805599453 + 2.0 * t * series;
}

/* cos(2 pi u) for u in [0, 1), within 7e-10 of it, without a branch: it is
 * sin(x), x = 2 pi v, v = |u - 1/2| - 1/4 in [-1/4, 1/4] (both
 * subtractions exact: u is on the 2^-53 grid), whose Taylor series, cut
 * after the x^13 term, is within (pi/2)^15 / 15! < 7e-10 of it for |x| <=
 * pi/2. The coefficients are the 1/k! (multiplied: a division by each
 * would chain them), summed in pairs (Estrin's scheme). */
static inline double cos_turn_near(double u)
{
    double x = 2.0 * 3.14159265358979323846 * (fabs(u - 0.5) - 0.25), q = x * x, q2 = q * q,
           q4 = q2 * q2;
    double lo = (1.0 - q * (1.0 / 6)) + q2 * (1.0 / 120 - q * (1.0 / 5040));
    double hi = (1.0 / 362880 - q * (1.0 / 39916800)) + q2 * (1.0 / 6227020800.0);

    return x * (lo + q4 * hi);
}

/* The rules' damage roll for `f` from its uniforms u1 and u2: round(mid +
 * s span / 4 + z span / 6), z = normal_exact(u1, u2), before the clamp. */
static double roll_exact(const struct duel_fighter *f, const struct duel_weapon_info *w,
                         double cond, double u1, double u2)
{
    double mid = (w->lo + w->hi) / 2.0, span = w->hi - w->lo;
    double s = (f->st + (f->energy - 50.0) / 50.0 + (cond - 50.0) / 50.0) / 3.0;

    return round_near(mid + s * span / 4.0 + normal_exact(u1, u2) * span / 6.0);
}

/* The weapon damage roll for `f` (rules.md section 4), roll_exact()
 * clamped to the weapon's range. Only the rounded figure counts, so the
 * sum is first worked out near: z from log_near and cos_turn_near (within
 * 2e-8 of it: sqrt(-2 log u1) <= 8.6), the divisions as multiplications
 * (within a few units in the last place), so within 4e-8 of the exact sum
 * (span / 6 <= 5/3). When that is more than 1e-6 from a half, it rounds
 * as the exact one does, which is the rule; nearer (about one roll in
 * 500,000), roll_exact() decides. The draws are the same either way. */
static int damage_roll(const struct duel_fighter *f, struct rng *r)
{
    const struct duel_weapon_info *w = &weapons[f->item[DUEL_WEAPON]];
    double cond = f->item[DUEL_WEAPON] ? f->cond[DUEL_WEAPON] : 50.0;
    double u1 = 1.0 - rng_unit(r), u2 = rng_unit(r);
    double span = w->hi - w->lo, s = (f->st + (f->energy + cond - 100.0) * 0.02) * (1.0 / 3);
    double y = (w->lo + w->hi) * 0.5 +
               span * (s * 0.25 + sqrt(-2.0 * log_near(u1)) * cos_turn_near(u2) * (1.0 / 6));
    /* |y| < 40, so its truncation is exact and frac in (-1, 1). */
    double t = (double)(int64_t)y, frac = y - t;
    double x = fabs(fabs(frac) - 0.5) > 1e-6 ? t + (frac > 0.5) - (frac < -0.5)
                                             : roll_exact(f, w, cond, u1, u2);
    return x < w->lo ? w->lo : x > w->hi ? w->hi : (int)x;
}

/* The pieces of `d` that defend `part`, outermost first; returns how many
 * and sets *shield when the shield takes it. */
static inline int pieces_for(const struct duel_fighter *d, int part, int slots[DUEL_PIECES_MAX],
                             int *shield)
{
    int n = 0;

    *shield = 0;
    switch (part) {
    case DUEL_PART_HEAD:
        if (d->item[DUEL_HEAD])
            slots[n++] = DUEL_HEAD;
        break;
    case DUEL_PART_LEGS:
        if (d->item[DUEL_LEGS])
            slots[n++] = DUEL_LEGS;
        break;
    case DUEL_PART_FEET:
        if (d->item[DUEL_FEET])
            slots[n++] = DUEL_FEET;
        break;
    case DUEL_PART_LEFT_ARM:
        if (d->item[DUEL_SHIELD]) {
            slots[n++] = DUEL_SHIELD;
            *shield = 1;
            break;
        }
        /* Without a shield the left arm is covered like the right. */
        /* fall through */
    case DUEL_PART_RIGHT_ARM:
        if (d->item[DUEL_TORSO] && armours[d->item[DUEL_TORSO]].arms)
            slots[n++] = DUEL_TORSO;
        if (d->item[DUEL_UNDER] && armours[d->item[DUEL_UNDER]].arms)
            slots[n++] = DUEL_UNDER;
        break;
    case DUEL_PART_TORSO:
        if (d->item[DUEL_TORSO])
            slots[n++] = DUEL_TORSO;
        if (d->item[DUEL_UNDER])
            slots[n++] = DUEL_UNDER;
        break;
    default:
        break;
    }
    return n;
}

/* f->cover[part] from the pieces he wears now. */
static inline void cover_set(struct duel_fighter *f, int part)
{
    struct duel_cover *cv = &f->cover[part];

    cv->n = pieces_for(f, part, cv->slots, &cv->shield);
    cv->def = 0;
    for (int k = 0; k < cv->n; k++)
        cv->def += armours[f->item[cv->slots[k]]].defence;
    cv->outer = cv->n ? armours[f->item[cv->slots[0]]].defence : 0;
}

/* What f's equipment makes of his turns and of the blows he takes: worked
 * out when the duel starts and again when a piece of his breaks, with the
 * formulas of the rules, so the figures are those worked out every time. */
static void equipped(struct duel_fighter *f)
{
    f->n = sum_n(f);
    f->n_half = duel_round_half(f->n);
    f->cost = duel_energy_cost(3 * con_norm(f), f->n);
    f->crit_p = duel_crit_chance(f->item[DUEL_WEAPON], f->crit_d) / 100.0;
    /* Part by part, named: each pieces_for() then folds to its case. */
    cover_set(f, DUEL_PART_HEAD);
    cover_set(f, DUEL_PART_TORSO);
    cover_set(f, DUEL_PART_LEGS);
    cover_set(f, DUEL_PART_FEET);
    cover_set(f, DUEL_PART_LEFT_ARM);
    cover_set(f, DUEL_PART_RIGHT_ARM);
}

/* The parts a weapon of `reach` can hit, in the order the draw picks them:
 * feet last, only with reach 4 or more. */
static const int part_order[DUEL_PARTS] = {DUEL_PART_HEAD,     DUEL_PART_TORSO,     DUEL_PART_LEGS,
                                           DUEL_PART_LEFT_ARM, DUEL_PART_RIGHT_ARM, DUEL_PART_FEET};

/* The blow of an attempt that hit: the part it found, the roll, a
 * critical hit (twice the damage; two and a half times on a defender who
 * is stunned, `d_stunned`), and the damage before armour, blunt and cut. */
static inline void blow(const struct duel_fighter *a, const struct duel_weapon_info *w,
                        int d_stunned, struct rng *r, struct duel_attack *at)
{
    /* Each draw with a constant span, whose remainder the compiler works
     * out without a division. */
    at->part = part_order[w->reach >= 4 ? rng_range(r, 0, 5) : rng_range(r, 0, 4)];
    at->roll = damage_roll(a, r);
    at->critical = rng_chance(r, a->crit_p);
    at->base = duel_base_damage(at->roll, a->sheet.str);
    if (at->critical)
        at->base *= 2;
    if (d_stunned)
        at->base *= 2.5;
    at->blunt = at->base * w->blunt / 100.0;
    at->cut = at->base * (100 - w->blunt) / 100.0;
}

/* Wear after a hit on side di's `d`: the outermost piece (slots[0], which
 * wears `wear`) may break; then the weapon `w` of side ai's `a`, which hit
 * armour of defence `def`. */
static inline void wear_apply(struct duel_fighter *a, const struct duel_weapon_info *w,
                              struct duel_fighter *d, int ai, int di,
                              const int slots[DUEL_PIECES_MAX], int def, double wear,
                              struct duel_attack *at, struct events *evs)
{
    for (int k = 0; k < at->npieces; k++) {
        struct duel_piece *pc = &at->pieces[k];

        pc->slot = slots[k];
        pc->item = d->item[slots[k]];
        pc->defence = armours[pc->item].defence;
        if (k == 0) {
            pc->wear = wear; /* armour's wear factor is 1 */
            d->cond[slots[k]] -= wear;
            if (!(d->cond[slots[k]] > 0)) {
                d->cond[slots[k]] = 0;
                d->item[slots[k]] = DUEL_NONE;
                equipped(d);
                at->broke |= 1 << slots[k];
                events_add(evs, EV_BREAK, di, slots[k], pc->item, 0, 0);
            }
        }
        pc->condition = d->cond[slots[k]];
    }
    if (a->item[DUEL_WEAPON] != DUEL_FISTS) {
        at->weapon_wear = duel_weapon_wear(def, w->wear);
        a->cond[DUEL_WEAPON] -= at->weapon_wear;
        if (!(a->cond[DUEL_WEAPON] > 0)) {
            events_add(evs, EV_BREAK, ai, DUEL_WEAPON, a->item[DUEL_WEAPON], 0, 0);
            a->cond[DUEL_WEAPON] = 0;
            a->item[DUEL_WEAPON] = DUEL_FISTS;
            equipped(a);
            at->broke |= 1 << DUEL_WEAPON;
        }
    }
}

/* One hit attempt of `a` on `d` (sides ai and di), into *at, which is
 * zeroed (an entry of the round's record, cleared when the round began):
 * the hit or the miss, the blow, the armour, a stun, and the wear. The
 * draws come in that order, and must: a bout is its seed. */
static void attack(struct duel_fighter *a, struct duel_fighter *d, int ai, int di, double cost,
                   int attempt, struct rng *r, struct duel_attack *at, struct events *evs)
{
    const struct duel_weapon_info *w = &weapons[a->item[DUEL_WEAPON]];
    int d_stunned = d->stunned > 0;

    at->part = -1;
    at->energy_cost = cost;
    a->energy -= cost;
    if (a->energy < 0)
        a->energy = 0;
    at->hit_chance = d_stunned ? 100.0 : a->hit_chance;
    at->hit = rng_chance(r, d_stunned ? 1.0 : a->hit_p);
    if (!at->hit) {
        events_add(evs, EV_MISS, ai, attempt, 0, 0, 0);
        return;
    }
    blow(a, w, d_stunned, r, at);

    /* The armour over the part hit takes it; its pieces copied, as a piece
     * that breaks changes d->cover. */
    const struct duel_cover *cv = &d->cover[at->part];
    int slots[DUEL_PIECES_MAX] = {cv->slots[0], cv->slots[1]}, shield = cv->shield, def = cv->def;
    double wear;
    at->npieces = cv->n;
    armour(at->blunt, at->cut, def, cv->outer, shield, w->pen, &at->blunt_after, &at->cut_after,
           &wear);
    at->damage = at->blunt_after + at->cut_after;
    d->health -= at->damage;
    at->bleed_added = 0.05 * at->cut_after;
    d->bleed += at->bleed_added;

    double stun = at->blunt_after / 1.5;
    if (rng_chance(r, (stun < 100 ? stun : 100) / 100.0) && d->health > 0) {
        at->stun_turns = duel_stun_turns(d->sheet.con);
        if (d->stunned < at->stun_turns)
            d->stunned = at->stun_turns;
    }
    events_add(evs, EV_HIT, ai, at->part, at->critical, shield, at->damage);
    if (at->stun_turns)
        events_add(evs, EV_STUN, di, at->stun_turns, 0, 0, 0);
    wear_apply(a, w, d, ai, di, slots, def, wear, at, evs);
}

/* Side ai's turn against di, into *t, which is zeroed (an entry of the
 * round's record, cleared when the round began); returns 1 if he fought
 * one. */
static int turn(struct bout *b, int ai, struct rng *r, struct duel_turn *t, struct events *evs)
{
    struct duel_fighter *a = &b->u.duel.f[ai], *d = &b->u.duel.f[!ai];

    if (a->stunned > 0) {
        a->stunned--;
        return 0;
    }
    if (!(a->energy > 0)) {
        events_add(evs, EV_SPENT, ai, 0, 0, 0, 0);
        return 0;
    }
    double strn = ability_norm[a->sheet.str]; /* (STR - 1) / 22 */
    double en = (a->energy - 1) / 49.0;

    t->attacker = ai;
    t->p = duel_round_half(strn + en + con_norm(a));
    t->n = a->n_half;
    /* duel_hits(), from the sums rounded above. */
    t->hits = hits_table[index_of_half(t->n)][index_of_half(t->p)];
    for (int k = 0; k < t->hits && a->energy > 0 && d->health > 0; k++) {
        /* Each attempt's cost from the equipment as it is then (a piece may
         * have broken). */
        attack(a, d, ai, !ai, a->cost, k, r, &t->attacks[t->nattacks++], evs);
    }
    return 1;
}

/* Zeroes the record of the last round, as a new round begins: only what
 * the round before wrote, as nothing else was written since the bout
 * began zeroed (a turn that is not fought and an attempt not made are
 * left alone), which spares clearing the whole record (1.3 kB) each
 * round. */
static void round_clear(struct duel_round *last)
{
    for (int k = 0; k < last->nturns; k++) {
        struct duel_turn *t = &last->turns[k];

        memset(t->attacks, 0, (size_t)t->nattacks * sizeof(t->attacks[0]));
        memset(t, 0, offsetof(struct duel_turn, attacks));
    }
    last->initiative = 0;
    last->nturns = 0;
    for (int i = 0; i < SIDES; i++) {
        last->bled[i] = 0;
        last->yielded[i] = 0;
        memset(&last->after[i], 0, sizeof(last->after[i]));
    }
}

static void round_resolve(struct bout *b, const struct order o[SIDES], struct bout_rng *br,
                          struct events *evs)
{
    struct duel_bout *db = &b->u.duel;
    struct duel_round *last = &db->last;
    struct rng *r = &br->outcome;

    round_clear(last);
    b->round++;
    if (o[0].u.duel.yield || o[1].u.duel.yield) {
        int y0 = o[0].u.duel.yield, y1 = o[1].u.duel.yield;

        for (int i = 0; i < SIDES; i++) {
            last->yielded[i] = o[i].u.duel.yield;
            if (o[i].u.duel.yield)
                events_add(evs, EV_TKO, i, TKO_TOWEL, 0, 0, 0);
        }
        finish(b, y0 && y1 ? -1 : y0 ? 1 : 0, METHOD_TKO, METHOD_TKO, TKO_TOWEL, evs);
    } else {
        for (int i = 0; i < SIDES; i++) {
            struct duel_fighter *f = &db->f[i];
            last->bled[i] = f->bleed;
            if (f->bleed > 0) {
                f->health -= f->bleed;
                events_add(evs, EV_BLEED, i, 0, 0, 0, f->bleed);
            }
        }
        if (!down_check(b, evs)) {
            int s0 = db->f[0].stunned > 0, s1 = db->f[1].stunned > 0;
            int r0 = weapons[db->f[0].item[DUEL_WEAPON]].reach;
            int r1 = weapons[db->f[1].item[DUEL_WEAPON]].reach;
            /* r0 / (r0 + r1) */
            int first = rng_unit(r) < reach_shares[r0 - 1][r1 - 1] ? 0 : 1;

            if (s0 != s1)
                first = s0 ? 1 : 0;
            last->initiative = first;
            events_add(evs, EV_INITIATIVE, first, 0, 0, 0, 0);
            for (int k = 0; k < SIDES; k++) {
                int side = k == 0 ? first : !first;
                if (turn(b, side, r, &last->turns[last->nturns], evs))
                    last->nturns++;
                if (down_check(b, evs))
                    break;
            }
        }
    }
    for (int i = 0; i < SIDES; i++) {
        const struct duel_fighter *f = &db->f[i];
        struct duel_after *af = &last->after[i];

        af->health = f->health;
        af->energy = f->energy;
        af->bleed = f->bleed;
        af->stunned = f->stunned;
        af->weapon_condition = f->item[DUEL_WEAPON] ? f->cond[DUEL_WEAPON] : 0;
        af->weapon = f->item[DUEL_WEAPON];
    }
    if (!b->result.over && b->round >= b->rounds)
        finish(b, -1, METHOD_DRAW, METHOD_NONE, TKO_NONE, evs);
}

/* The ruleset's round_play: the orders checked, the events cleared, the
 * round resolved. */
static int round_play(struct bout *b, const struct order o[SIDES], struct bout_rng *r,
                      struct events *evs)
{
    if (order_valid(&o[0]) != 0 || order_valid(&o[1]) != 0)
        return -1;
    evs->n = 0;
    evs->dropped = 0;
    round_resolve(b, o, r, evs);
    return 0;
}

static void plan_vars(const struct bout *b, int side, struct plan_vars *v)
{
    const struct duel_fighter *me = &b->u.duel.f[side], *him = &b->u.duel.f[!side];

    v->health = me->health;
    v->his_health = him->health;
    v->energy = me->energy;
    v->bleeding = me->bleed;
    v->stunned = me->stunned;
    v->endurance = me->health;
    v->endurance_percent = (int)floor(me->health);
    v->opp = him->health * 3 > 200 ? 2 : him->health * 3 > 100 ? 1 : 0;
}

/* No training points and no sheet changes from the result: what a duel
 * leaves is the wear (sheet_after). */
static void after_bout(const struct result *res, struct sheet s[SIDES], int points[SIDES])
{
    (void)res;
    (void)s;
    for (int i = 0; i < SIDES; i++)
        points[i] = 0;
}

void duel_sheet_after(const struct bout *b, struct sheet s[SIDES])
{
    for (int i = 0; i < SIDES; i++) {
        const struct duel_fighter *f = &b->u.duel.f[i];
        struct duel_sheet *sh = &s[i].u.duel;

        for (int k = 0; k < DUEL_SLOTS; k++) {
            long c = lround(f->cond[k] * (DUEL_COND_FULL / 100.0));

            sh->item[k] = f->item[k];
            sh->cond[k] = f->item[k] == 0      ? 0
                          : c < 1              ? 1
                          : c > DUEL_COND_FULL ? DUEL_COND_FULL
                                               : (int)c;
        }
        /* The leather over a chainmail shirt broke: the chainmail is the
         * torso piece now. */
        if (sh->item[DUEL_TORSO] == DUEL_NONE && sh->item[DUEL_UNDER] != DUEL_NONE) {
            sh->item[DUEL_TORSO] = sh->item[DUEL_UNDER];
            sh->cond[DUEL_TORSO] = sh->cond[DUEL_UNDER];
            sh->item[DUEL_UNDER] = DUEL_NONE;
            sh->cond[DUEL_UNDER] = 0;
        }
    }
}

/* Nothing to train: a duellist's abilities are set when he is made. */
static int train(struct sheet *s, int field, struct rng *r)
{
    (void)s;
    (void)field;
    (void)r;
    return 0;
}

static void sheet_after(const struct bout *b, struct sheet s[SIDES])
{
    duel_sheet_after(b, s);
}

/* Abilities only: equipment is no field (the armoury changes it). */
static const struct ruleset_field fields[] = {
    {"str", "STR", "str", offsetof(struct sheet, u.duel.str), 1, 23},
    {"dex", "DEX", "dex", offsetof(struct sheet, u.duel.dex), 1, 23},
    {"con", "CON", "con", offsetof(struct sheet, u.duel.con), 1, 23},
    {"int", "INT", "intel", offsetof(struct sheet, u.duel.intel), 1, 23},
};

static const char *kit_item_name(int slot, int item)
{
    if (slot == DUEL_WEAPON)
        return item >= 0 && item < DUEL_WEAPONS ? weapons[item].name : NULL;
    return item >= 0 && item < DUEL_MATERIALS ? armours[item].name : NULL;
}

const struct ruleset duel_ruleset = {
    .name = "duel",
    .title = "duel",
    .id = RULES_DUEL,
    .rounds_default = DUEL_ROUNDS,
    .rounds_min = 1,
    .rounds_max = DUEL_ROUNDS,
    .sheet_valid = sheet_valid,
    .order_valid = order_valid,
    .order_default = order_default,
    .bout_init = bout_start,
    .round_play = round_play,
    .plan_vars = plan_vars,
    .order_towel = order_towel,
    .order_is_towel = order_is_towel,
    .after_bout = after_bout,
    .sheet_after = sheet_after,
    .fields = fields,
    .nfields = sizeof(fields) / sizeof(fields[0]),
    .field_sep = " ",
    .rounds_fixed = 1,
    .turn_training = 0,
    .start = NULL,
    .new_points = DUEL_POINTS,
    .new_lo = DUEL_ABILITY_MIN,
    .new_hi = DUEL_ABILITY_MAX,
    .fighter = "duellist",
    .train = train,
    .kit_slots = DUEL_SLOTS,
    .auto_rounds = 1,
    .kit_item = offsetof(struct sheet, u.duel.item),
    .kit_cond = offsetof(struct sheet, u.duel.cond),
    .kit_cond_max = DUEL_COND_FULL,
    .kit_slot_name = duel_slot_name,
    .kit_item_name = kit_item_name,
};
