/*
 * engine.h - the rules engine: rulesets, bouts and the seeded random state.
 *
 * The engine is pure: data in, data out. It does no I/O, reads no clock,
 * allocates nothing and writes no English. Every random draw comes from a
 * `struct rng` the caller owns, so a bout is a function of its sheets, its
 * orders and its seed.
 *
 * A bout is driven as: bout_init() once, then bout_round() once per round
 * until bout.result.over is set. Each call appends what happened to a
 * `struct events` list; `struct bout` always holds the whole state needed for
 * the next round (and, for boxing, the detailed figures of the last round).
 */
#ifndef RINGSIDE_ENGINE_H
#define RINGSIDE_ENGINE_H

#include <stdint.h>

#define SIDES      2
#define JUDGES     3
#define EVENTS_MAX 128

/* ---------------------------------------------------------------- random */

/* xoshiro256** generator; state is explicit and copyable. */
struct rng {
    uint64_t s[4];
};

/* The two streams of a bout: `outcome` decides everything that changes the
 * fight; `flavour` only picks presentation (report order, wording), so that
 * changing commentary never changes a fight. */
struct bout_rng {
    struct rng outcome;
    struct rng flavour;
};

/* Seeds `r` from (seed, stream) through splitmix64; distinct streams of one
 * seed are independent. */
void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);

/* The draws below are inline definitions (C99 `inline`): a boxing round
 * makes a score of them, the calls were a measurable share of it, and with
 * constant weights the compiler turns rng_weighted's divisions into
 * multiplications. rng.c holds their external definitions, so they stay
 * ordinary functions for every other purpose. */

inline uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9; /* rotl(s[1] * 5, 7) * 9 */
    uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19); /* rotl(s[3], 45) */
    return result;
}

/* A double uniform in [0, 1). */
inline double rng_unit(struct rng *r)
{
    /* The top 53 bits give every double in [0, 1) on a 2^-53 grid. */
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* A double uniform in [lo, hi). */
inline double rng_uniform(struct rng *r, double lo, double hi)
{
    return lo + (hi - lo) * rng_unit(r);
}

/* 1 with probability p (p <= 0 never, p >= 1 always; one draw either way). */
inline int rng_chance(struct rng *r, double p)
{
    return rng_unit(r) < p;
}

/* An int uniform in [lo, hi], lo <= hi. */
inline int rng_range(struct rng *r, int lo, int hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - lo) + 1;
    uint64_t x = rng_next(r);

    /* Rejection keeps the draw unbiased for any span: draws at or above
     * limit = UINT64_MAX - UINT64_MAX % span are drawn again. The limit is
     * above UINT64_MAX - span, so it is only worked out (a division) for the
     * few draws above that. */
    if (x > UINT64_MAX - span) {
        uint64_t limit = UINT64_MAX - UINT64_MAX % span;
        while (x >= limit)
            x = rng_next(r);
    }
    return (int)((int64_t)lo + (int64_t)(x % span));
}

/* An index in [0, n) drawn with the given non-negative weights (sum > 0). */
inline int rng_weighted(struct rng *r, const unsigned *weights, int n)
{
    unsigned total = 0;

    for (int i = 0; i < n; i++)
        total += weights[i];
    int pick = rng_range(r, 0, (int)total - 1);
    /* The first index whose running total exceeds the pick (the last one if
     * none does), counted without a branch on the pick: the running totals
     * only grow, so those at or below it come first. */
    int index = 0;
    unsigned upto = 0;
    for (int i = 0; i < n - 1; i++) {
        upto += weights[i];
        index += (unsigned)pick >= upto;
    }
    return index;
}

/* Seeds both streams of a bout from one seed. */
void bout_rng_seed(struct bout_rng *br, uint64_t seed);

/* -------------------------------------------------------------- rulesets */

/* RULES_BOXING, RULES_SUGARRAY, ... in the order of rulesets.h. */
enum rules {
#define RULESET(name, NAME) RULES_##NAME,
#include "rulesets.h"
#undef RULESET
    RULES_COUNT
};

/* --- boxing (seed 000, rules.md section 1) --- */

enum style {
    STYLE_NONE,
    STYLE_INSIDE,
    STYLE_CLINCH,
    STYLE_FEINT,
    STYLE_COUNTER,
    STYLE_RING,
    STYLE_CUT,
    STYLE_OUTSIDE,
    STYLE_ALLOUT,
    STYLE_COUNT
};

enum target { TARGET_OPPORTUNISTIC, TARGET_HEAD, TARGET_BODY };

enum injury_loc {
    INJ_ABOVE_RIGHT_EYE,
    INJ_ABOVE_LEFT_EYE,
    INJ_BELOW_RIGHT_EYE,
    INJ_BELOW_LEFT_EYE,
    INJ_SWELL_RIGHT_EYE,
    INJ_SWELL_LEFT_EYE,
    INJ_NOSE,
    INJ_JAW,
    INJ_COUNT
};

#define BOXING_ABILITY_MIN 1
#define BOXING_ABILITY_MAX 25
#define BOXING_ENERGY      20
#define BOXING_ROUNDS_MIN  3
#define BOXING_ROUNDS_MAX  15

struct boxing_sheet {
    int str, spd, agl, tgh, hgt;
};

struct boxing_order {
    int agg, pow, def; /* each >= 1, sum <= BOXING_ENERGY */
    enum target target;
    int dirty;
    enum style style;
    int towel; /* throw in the towel instead of fighting (plans) */
};

/* One injury per location: a new injury at a location already injured is an
 * aggravation of it. level 0 means no injury there. */
struct injury {
    int level;
    double damage; /* damage this injury has caused so far */
    int round;     /* round it happened */
};

/* Abilities inside a round. */
struct boxing_abilities {
    double str, spd, agl;
    int agg;  /* AGG after style reductions */
    int rest; /* AGG points turned into rest */
};

/* What each style would do in step 2 for a fighter against his opponent,
 * from both their abilities before styles (boxing.c picks from them by
 * style): to his STR, SPD and AGL, and off the opponent's AGL. */
struct boxing_candidates {
    double str[3], spd[2], agl[5], opp_agl[3];
};

/* Steps 2 and 3 for a fighter, worked out from both sides' abilities
 * before styles: the few figures his style picks from (boxing.c's
 * style_effects say which), so that a round picks rather than works
 * them out. The same doubles the steps give. */
struct boxing_by_style {
    double str[3];      /* STR after each candidate of step 2, floored at 1 */
    double spd[2];      /* SPD so */
    double agl[5];      /* step 2's candidates for his AGL */
    double opp_agl[3];  /* and off the opponent's */
    double h_spd[3][2]; /* the taller man's step 3 bonus to SPD, by how */
    double h_agl[3][2]; /* much his style lets him use it and whether the
                         * opponent fights all-out; 0 for the other */
};

/* Step 10's thresholds for a fighter against a man aiming one way: a
 * knockdown, a second one, and a KO (the damage a KO needs). */
struct boxing_kd {
    double one, two, out;
};

/* One fighter's running state in a boxing bout. */
struct boxing_fighter {
    struct boxing_sheet sheet;
    double end_start; /* 10 x TGH */
    double endurance;
    int energy_used; /* energy spent last round (rest excluded) */
    struct injury inj[INJ_COUNT];
    int knockdowns;
    int warnings;
    int cards[JUDGES]; /* running totals on each judge's card */
    int rounds_won;    /* rounds at least two judges gave him */
    /* Figures boxing.c works out once a bout, or again only when they
     * change, rather than every round: exactly the doubles the rules'
     * steps give, so a bout is the same either way. */
    struct boxing_abilities pre; /* the sheet after his injuries' penalties */
    struct boxing_by_style by;   /* steps 2 and 3, from both sides' `pre` */
    struct boxing_kd kd[3];      /* step 10's thresholds, by the opponent's target */
};

/* What one fighter did and suffered in the last resolved round. */
struct boxing_side_round {
    struct boxing_order order;
    double end_begin;     /* endurance after recovery (step 1) */
    double str, spd, agl; /* effective values (after step 4) */
    int agg;              /* AGG after clinch/feint/counter */
    int rest;             /* AGG points turned into rest */
    double def_rate;      /* DEF x AGL, at least 1 */
    int thrown;           /* 8 x AGG */
    double landed;        /* punches that landed */
    int counts[JUDGES];   /* each judge's count of them */
    double damage;        /* damage dealt to the opponent */
    double kd_damage;     /* same before head/body multipliers */
    double injury_damage; /* damage taken from own injuries */
    double fatigue;       /* endurance lost at step 12 */
    double endurance;     /* at the end of the round */
    int knockdowns;       /* suffered this round */
    int warned, fouled;   /* dirty warning / unintentional foul */
    int dq;               /* disqualified this round */
    int clinch_penalty;   /* penalised for holding */
    int cards[JUDGES];    /* points each judge gave him this round */
    int ko;               /* knocked out this round */
};

struct boxing_bout {
    struct boxing_fighter f[SIDES];
    struct boxing_side_round last[SIDES];
};

/* --- sugarray (seed 004, rules.md section 2) --- */

#define SUGARRAY_ROUNDS    5
#define SUGARRAY_ORDER_MAX 99

struct sugarray_sheet {
    int skill, endurance;
};

struct sugarray_order {
    int attack, defence; /* 0 .. SUGARRAY_ORDER_MAX */
    int towel;           /* concede instead of fighting (a forfeit) */
};

struct sugarray_bout {
    struct sugarray_sheet sheet[SIDES];
    int endurance[SIDES];
    int attack_total[SIDES];
    struct sugarray_order orders[SUGARRAY_ROUNDS][SIDES];
    int end_after[SUGARRAY_ROUNDS][SIDES]; /* endurance after each round */
};

/* --- duel (seed 003, rules.md section 4) --- */

#define DUEL_ROUNDS      23
#define DUEL_ABILITY_MIN 1
#define DUEL_ABILITY_MAX 23
#define DUEL_POINTS      56
#define DUEL_HEALTH      100.0
#define DUEL_ENERGY      50.0
#define DUEL_COND_FULL   1000000 /* a sheet's condition unit: 100 % */
#define DUEL_HITS_MAX    3
#define DUEL_PIECES_MAX  2 /* pieces defending one part: leather over chainmail */

/* Where a duellist carries his equipment. DUEL_UNDER is the chainmail torso
 * piece worn under a leather one (the seed's layering example). */
enum duel_slot {
    DUEL_WEAPON,
    DUEL_HEAD,
    DUEL_TORSO,
    DUEL_UNDER,
    DUEL_LEGS,
    DUEL_FEET,
    DUEL_SHIELD,
    DUEL_SLOTS
};

/* The weapons of rules.md section 4 (DUEL_FISTS: no weapon, or a broken
 * one), in the order of its table. */
enum duel_weapon {
    DUEL_FISTS,
    DUEL_KNIFE,
    DUEL_SHORT_SWORD,
    DUEL_LONGSWORD,
    DUEL_SCIMITAR,
    DUEL_MACE,
    DUEL_WAR_HAMMER,
    DUEL_WAR_AXE,
    DUEL_HALBERD,
    DUEL_PUNISHER,
    DUEL_WEAPONS
};

/* The armour sets (DUEL_NONE: nothing in that slot). */
enum duel_material { DUEL_NONE, DUEL_LEATHER, DUEL_CHAINMAIL, DUEL_PLATE, DUEL_MATERIALS };

/* The body parts a hit lands on. */
enum duel_part {
    DUEL_PART_HEAD,
    DUEL_PART_TORSO,
    DUEL_PART_LEGS,
    DUEL_PART_FEET,
    DUEL_PART_LEFT_ARM,
    DUEL_PART_RIGHT_ARM,
    DUEL_PARTS
};

/* A weapon's figures (rules.md section 4's table). */
struct duel_weapon_info {
    const char *name; /* machine name: "longsword", "war_hammer" */
    int str;          /* STR needed */
    int lo, hi;       /* damage range */
    int blunt;        /* blunt share in percent; cut is the rest */
    int reach;
    int pen;  /* armour penetration */
    int crit; /* critical column (percent at d = 44), 0: none */
    double kg;
    double wear; /* wear factor: wear is divided by it */
};

/* An armour set's figures. */
struct duel_armour_info {
    const char *name; /* "leather", "chainmail", "plate" */
    int defence;
    int str;
    double kg[DUEL_SLOTS]; /* by slot (weapon: 0) */
    int arms;              /* its torso piece covers both arms too */
};

/* A duellist: four abilities, each 1..23, and his equipment. item[DUEL_WEAPON]
 * is an enum duel_weapon, the others an enum duel_material (DUEL_UNDER only
 * chainmail, under a leather torso); cond[] each piece's condition in
 * millionths of 100 % (DUEL_COND_FULL is a new piece), 0 where nothing is. */
struct duel_sheet {
    int str, dex, con, intel;
    int item[DUEL_SLOTS];
    int cond[DUEL_SLOTS];
};

/* Orders: a duel fights itself; the only choice is to yield (a forfeit). */
struct duel_order {
    int yield;
};

/* The pieces of a duellist that defend one part, as duel.c keeps them at
 * hand: outermost first, their total defence and the outermost's, and
 * whether it is the shield. */
struct duel_cover {
    int n, shield, def, outer;
    int slots[DUEL_PIECES_MAX];
};

/* One duellist's running state. cond[] in percent (0..100); item[] as in the
 * sheet, set to none (fists for the weapon) when the piece breaks. */
struct duel_fighter {
    struct duel_sheet sheet;
    double health, energy;
    double bleed; /* health lost at the start of every round */
    int stunned;  /* own turns still to miss */
    int item[DUEL_SLOTS];
    double cond[DUEL_SLOTS];
    /* Figures duel.c works out once a bout rather than every attack, as
     * they depend only on the sheets, or on the equipment, which changes
     * only when a piece breaks: exactly the doubles the rules' formulas
     * give, so a bout is the same either way. */
    double base_weight;                  /* duel_base_weight(STR) */
    double hit_chance;                   /* percent, against the opponent when not stunned */
    double hit_p;                        /* the same as a probability */
    double st;                           /* STR's share of the damage roll, -1..1 */
    int crit_d;                          /* INT + DEX, his minus the opponent's */
    double crit_p;                       /* critical chance as a probability, as armed now */
    double n;                            /* the normalised negative sum, as equipped now */
    double n_half;                       /* n rounded to 0.5 */
    double cost;                         /* energy of one hit attempt, as equipped now */
    struct duel_cover cover[DUEL_PARTS]; /* by part, as equipped now */
};

/* One piece that defended an attack. */
struct duel_piece {
    int slot; /* enum duel_slot */
    int item; /* enum duel_material */
    int defence;
    double wear;      /* percent taken off (0 for an inner piece) */
    double condition; /* percent left after the attack */
};

/* One hit attempt. */
struct duel_attack {
    int hit;
    double hit_chance; /* percent */
    int part;          /* enum duel_part; -1 on a miss */
    int npieces;
    struct duel_piece pieces[DUEL_PIECES_MAX];
    int roll; /* the weapon damage drawn */
    double base, blunt, cut, blunt_after, cut_after, damage;
    int critical;
    int stun_turns; /* turns the defender is stunned for by it, 0 if none */
    double bleed_added;
    double weapon_wear; /* percent */
    double energy_cost;
    int broke; /* a piece broke: 1 << slot of each (the weapon's included) */
};

/* One turn: the attacker's 1-3 hit attempts. */
struct duel_turn {
    int attacker;
    int hits;    /* the consecutive-hits table's value */
    double p, n; /* the normalised sums, rounded to 0.5 */
    int nattacks;
    struct duel_attack attacks[DUEL_HITS_MAX];
};

/* What each duellist looks like after the round. */
struct duel_after {
    double health, energy, bleed;
    int stunned;
    double weapon_condition; /* percent (0: fists) */
    int weapon;              /* enum duel_weapon he holds now */
};

/* The last resolved round in full. */
struct duel_round {
    int initiative;     /* the side that attacked first */
    double bled[SIDES]; /* health lost to bleeding at its start */
    int yielded[SIDES]; /* a conceded round: nothing else happened */
    int nturns;         /* turns fought (a stunned, spent or fallen fighter's
                         * turn is not) */
    struct duel_turn turns[SIDES];
    struct duel_after after[SIDES];
};

struct duel_bout {
    struct duel_fighter f[SIDES];
    struct duel_round last;
};

/* --- generic --- */

/* The most rounds a bout of any ruleset has (the duel's 23). */
#define BOUT_ROUNDS_MAX DUEL_ROUNDS
_Static_assert(BOUT_ROUNDS_MAX >= BOXING_ROUNDS_MAX && BOUT_ROUNDS_MAX >= SUGARRAY_ROUNDS,
               "BOUT_ROUNDS_MAX is the longest bout");

struct sheet {
    enum rules rules;
    union {
        struct boxing_sheet boxing;
        struct sugarray_sheet sugarray;
        struct duel_sheet duel;
    } u;
};

struct order {
    enum rules rules;
    union {
        struct boxing_order boxing;
        struct sugarray_order sugarray;
        struct duel_order duel;
    } u;
};

enum method {
    METHOD_NONE,
    METHOD_KO,
    METHOD_TKO,
    METHOD_DQ,
    METHOD_DECISION, /* boxing: on the cards */
    METHOD_POINTS,   /* sugarray: more attack points */
    METHOD_DRAW
};

enum tko_reason {
    TKO_NONE,
    TKO_ENDURANCE,  /* endurance 0 or less from damage */
    TKO_FATIGUE,    /* endurance 0 or less after fatigue: cannot answer the bell */
    TKO_INJURY,     /* doctor: level 3-4 injury that caused 7+ damage */
    TKO_AGGRAVATED, /* doctor: a level 4 injury aggravated */
    TKO_BROKEN_JAW, /* doctor: a broken jaw aggravated */
    TKO_EYES_SHUT,  /* both eyes swollen shut */
    TKO_TOWEL       /* the corner threw in the towel */
};

enum decision { DECISION_NONE, DECISION_UNANIMOUS, DECISION_SPLIT, DECISION_MAJORITY };

/* How a bout ended. winner is 0 or 1, or -1 for a draw; for a draw method is
 * METHOD_DRAW and `drawn_by` tells how (DECISION, KO/TKO of both, DQ of both,
 * or POINTS for a sugarray tie). */
struct result {
    int over;
    int winner;
    enum method method;
    enum method drawn_by;
    enum tko_reason reason;
    enum decision decision;
    int round;
    int cards[JUDGES][SIDES]; /* boxing: each judge's totals */
};

struct bout {
    enum rules rules;
    int rounds; /* scheduled */
    int round;  /* rounds resolved so far */
    struct result result;
    union {
        struct boxing_bout boxing;
        struct sugarray_bout sugarray;
        struct duel_bout duel;
    } u;
};

/* Structured events; `side` is the fighter concerned (0 or 1) or -1. */
enum event_type {
    EV_STYLE,          /* a: enum style (boxing) */
    EV_PUNCHES,        /* a: thrown, x: landed */
    EV_DAMAGE,         /* x: damage dealt by side */
    EV_WARNING,        /* a: warnings so far; dirty fighting */
    EV_FOUL,           /* a: warnings so far; unintentional foul */
    EV_DQ,             /* disqualified */
    EV_CLINCH_PENALTY, /* penalised for holding */
    EV_INJURY,         /* a: enum injury_loc, b: level, x: damage */
    EV_AGGRAVATED,     /* a: loc, b: new level, c: old level, x: damage */
    EV_KNOCKDOWN,      /* a: knockdowns this round so far */
    EV_KO,             /* side knocked out */
    EV_TKO,            /* a: enum tko_reason */
    EV_CARD,           /* a: judge, b: side 0 points, c: side 1 points */
    EV_FATIGUE,        /* x: endurance lost */
    EV_BLOW,           /* sugarray: a: endurance the opponent lost */
    EV_RESULT,         /* side: winner or -1, a: enum method */
    /* duel: side is the attacker unless said otherwise */
    EV_INITIATIVE, /* side attacks first */
    EV_BLEED,      /* side loses x health to bleeding */
    EV_MISS,       /* a: attempt (0-2) */
    EV_HIT,        /* a: enum duel_part, b: critical, c: 1 if a shield took it, x: damage */
    EV_STUN,       /* side (the defender) stunned for a of his turns */
    EV_BREAK,      /* side's piece in slot a (enum duel_slot), item b, broke */
    EV_SPENT       /* side has no energy left to attack */
};

struct event {
    enum event_type type;
    int side;
    int a, b, c;
    double x;
};

struct events {
    int n;
    int dropped; /* events not recorded because the list was full */
    struct event ev[EVENTS_MAX];
};

/* Appends an event; when full, counts it in `dropped`. An inline
 * definition like the draws above (a round adds a dozen events); the
 * external one is in ruleset.c. */
inline void events_add(struct events *evs, enum event_type type, int side, int a, int b, int c,
                       double x)
{
    if (evs->n >= EVENTS_MAX) {
        evs->dropped++;
        return;
    }
    struct event *e = &evs->ev[evs->n++];
    e->type = type;
    e->side = side;
    e->a = a;
    e->b = b;
    e->c = c;
    e->x = x;
}

/* What a fight plan may look at, for one side, at the start of the next
 * round after the recovery between rounds (docs/plans.md lists them). */
struct plan_vars {
    int round; /* the round about to be fought, 1-based */
    int rounds_won, rounds_lost;
    double score; /* boxing: my total minus his, averaged over the three
                   * cards; sugarray: my attack points minus his */
    double endurance;
    int endurance_percent; /* whole percent of the starting endurance */
    int opp;               /* his condition: 2 strong, 1 tired, 0 weak */
    int my_cuts, his_cuts; /* sums of injury levels */
    int my_knockdowns, his_knockdowns;
    int warnings;
    /* duel */
    double health, his_health, energy;
    double bleeding; /* health I lose each round to bleeding */
    int stunned;     /* my turns still stunned */
};

/* One ability of a ruleset's sheet, so that what is done with sheets
 * (storing them, showing them, an admin's corrections) needs no code per
 * ruleset: its key in commands ("str", "end"), its label when a sheet is
 * shown ("STR", "endurance"), its column in the fighters table, where its
 * int sits in struct sheet (offsetof), and the range an admin may set. */
#define SHEET_FIELDS_MAX 8 /* abilities of a sheet, at most */

struct ruleset_field {
    const char *key;
    const char *label;
    const char *column;
    unsigned offset;
    int lo, hi;
};

/* A ruleset plugs into the engine through this table. */
struct ruleset {
    const char *name;  /* in commands and storage: "boxing", "sugarray" */
    const char *title; /* as people write it: "boxing", "SUGAR RAY" */
    enum rules id;
    int rounds_default, rounds_min, rounds_max;
    /* 0 if the sheet is legal for a bout, else -1. */
    int (*sheet_valid)(const struct sheet *s);
    /* 0 if the order is legal, else -1. */
    int (*order_valid)(const struct order *o);
    /* The order used when nothing else is known (5/5/10, 0/0). */
    void (*order_default)(struct order *o);
    void (*bout_init)(struct bout *b, const struct sheet s[SIDES], int rounds);
    /* Plays the next round of bout b, whose rules the orders' are
     * (bout_round checked them, and that the bout goes on): -1, changing
     * nothing (evs included), if an order is not legal for the ruleset;
     * else evs cleared, the round resolved into b and evs, and 0. The
     * orders are checked here, by the ruleset's own code, rather than
     * through order_valid: a boxing round, a few hundred nanoseconds,
     * spent a twentieth of them in those two calls. */
    int (*round_play)(struct bout *b, const struct order o[SIDES], struct bout_rng *r,
                      struct events *evs);
    void (*plan_vars)(const struct bout *b, int side, struct plan_vars *v);
    /* The forfeit: fills *o with the order that throws in the towel (legal,
     * so a conceded bout replays from its orders); and whether an order is
     * one. */
    void (*order_towel)(struct order *o);
    int (*order_is_towel)(const struct order *o);
    /* What the finished bout leaves its fighters: s[] (the sheets they
     * fought with) changed in place as the rules say, and the training
     * points each earned in points[]. */
    void (*after_bout)(const struct result *res, struct sheet s[SIDES], int points[SIDES]);
    /* Optional: what the finished bout `b` itself leaves on the sheets it
     * began with (duel: the equipment's wear, broken pieces gone), applied
     * to s[] in place. NULL: nothing. */
    void (*sheet_after)(const struct bout *b, struct sheet s[SIDES]);
    /* The sheet's abilities (at most SHEET_FIELDS_MAX), in the order they
     * are stored and shown;
     * `field_sep` goes between them when a sheet is shown ("STR 14 SPD 12",
     * "skill 12, endurance 21"). */
    const struct ruleset_field *fields;
    int nfields;
    const char *field_sep;
    /* A challenge always fights rounds_default rounds (no rounds=). */
    int rounds_fixed;
    /* A new fighter: the fixed sheet `start` (nothing to choose), or, when
     * it is NULL, exactly `new_points` spread over the abilities, each
     * new_lo to new_hi. `fighter` names one in messages ("boxer"). */
    const struct sheet *start;
    int new_points, new_lo, new_hi;
    const char *fighter;
    /* Training ability `field` of s: raises it (drawing from r where the
     * rules roll a die) and returns the gain, or 0 (nothing changed) when
     * it is at its most. Each costs a training point (train_points), or
     * it is once between league turns (turn_training). */
    int (*train)(struct sheet *s, int field, struct rng *r);
    int train_points;
    /* League turns (seed 004): a fighter trains between turns; one
     * without a plan gets no training and sits out the next turn. */
    int turn_training;
    /* Optional equipment beyond the abilities (duel; 0 slots: none):
     * `kit_slots` slots, each an item code (0: nothing) and its condition
     * (1 .. kit_cond_max where an item is, else 0), ints in struct sheet at
     * kit_item and kit_cond (offsetof, arrays by slot). kit_slot_name names
     * a slot ("weapon"), kit_item_name an item of a slot ("longsword"),
     * NULL for a code past the last. */
    int kit_slots;
    /* The rounds need no orders (the duel): a live bout fights them one
     * after the other at the game's pace; an order is only a yield. */
    int auto_rounds;
    unsigned kit_item, kit_cond;
    int kit_cond_max;
    const char *(*kit_slot_name)(int slot);
    const char *(*kit_item_name)(int slot, int item);
};

/* The ruleset for `id`, or NULL. */
const struct ruleset *ruleset_get(enum rules id);
/* The ruleset named `name` ("boxing", "sugarray"), or NULL. */
const struct ruleset *ruleset_find(const char *name);

/* Starts a bout. rounds 0 means the ruleset's default. Returns -1 (and
 * leaves b untouched) if a sheet or the round count is not legal. */
int bout_init(struct bout *b, enum rules rules, const struct sheet s[SIDES], int rounds);
/* Resolves the next round. `evs` is cleared first. Returns -1 (changing
 * nothing) if the bout is over or an order is not legal for the ruleset. */
int bout_round(struct bout *b, const struct order o[SIDES], struct bout_rng *r, struct events *evs);

/* Fills *v for `side` (0 or 1) as a plan sees the bout before the next
 * round. Changes nothing in the bout. */
void bout_plan_vars(const struct bout *b, int side, struct plan_vars *v);
/* Ability `i` (0 .. nfields-1 of its ruleset) of sheet `s`, and setting it
 * (nothing else changes). */
int sheet_field_get(const struct sheet *s, int i);
void sheet_field_set(struct sheet *s, int i, int value);
/* The item and condition in slot `slot` (0 .. kit_slots-1 of its ruleset)
 * of sheet `s`, and setting them (nothing else changes). */
void sheet_kit_get(const struct sheet *s, int slot, int *item, int *cond);
void sheet_kit_set(struct sheet *s, int slot, int item, int cond);

/* ------------------------------------------------- boxing building blocks */

/* The steps of a boxing round, exposed so each can be checked on its own. */

/* Step 1: endurance after recovery, for a fighter with `endurance` left of
 * `end_start` who spent `energy_used` points last round. */
double boxing_recovery(double end_start, double endurance, int energy_used);

/* Injury penalties from earlier rounds applied to the sheet (floored at 1). */
void boxing_injury_penalties(const struct boxing_fighter *f, struct boxing_abilities *ab);
/* Step 2: styles, computed simultaneously from `ab` (both sides), floored at
 * 1; AGG reductions from clinching, feinting and counter-punching. */
void boxing_styles(struct boxing_abilities ab[SIDES], const struct boxing_order o[SIDES]);
/* Step 3: the taller fighter's SPD and AGL bonus. */
void boxing_height(struct boxing_abilities ab[SIDES], const struct boxing_sheet s[SIDES],
                   const struct boxing_order o[SIDES]);
/* Step 4: STR, SPD and AGL scaled by endurance / starting endurance. */
void boxing_scale(struct boxing_abilities *ab, double endurance, double end_start);
/* Chance in [0, 1] that a holding fighter is penalised (0 unless clinching
 * with DEF >= 10). */
double boxing_clinch_penalty_chance(const struct boxing_order *o);
/* Step 6. */
double boxing_def_rate(int def, double agl);
/* Step 7, before the random factor and the 8 x AGG cap. */
double boxing_expected_landed(int agg, double spd, double opp_def_rate, enum target t);
/* Step 8, before the random factor and the multipliers. */
double boxing_base_damage(int pow, double str, int agg, double spd, double opp_def_rate);
/* Step 8's multipliers for a fighter with order `me` against `opp`, warned
 * or not this round: *kd_mult without the head/body factor (what knockdowns
 * use), *mult with it (the damage dealt). */
void boxing_damage_multipliers(const struct boxing_order *me, const struct boxing_order *opp,
                               int warned, double *kd_mult, double *mult);
/* Chance in [0, 1] of a new injury for damage `dam` received from an
 * opponent aiming at `opp_target` (step 9). */
double boxing_injury_chance(double dam, enum target opp_target);
/* Step 10: knockdowns (0-2, more only with a KO) and KO (0/1) for `damage`
 * (before head/body multipliers) against a fighter of `end_start`. */
void boxing_knockdowns(double damage, double end_start, enum target opp_target, int *knockdowns,
                       int *ko);
/* The random tables of injuries: a location (swellings twice as likely), a
 * new injury's level (2/3, 2/9, 2/27, 1/27), and the level after an
 * aggravation of a non-swelling injury (50 % promoted by the seed's table). */
enum injury_loc boxing_injury_location(struct rng *r);
int boxing_injury_level(struct rng *r);
int boxing_injury_promote(int level, struct rng *r);
/* Disqualification chance of the n-th warning for fighting dirty (n >= 1). */
double boxing_dq_chance(int n);
/* Training points a result gives `side` (1 for a win, 2 for a win inside the
 * distance). */
int boxing_training_points(const struct result *res, int side);
/* Names used in orders and machine output: "inside", "clinch", ... ("" for
 * STYLE_NONE). */
const char *style_name(enum style s);
/* The kind of a decision in machine output and words: "unanimous",
 * "split", "majority"; NULL for DECISION_NONE. */
const char *decision_name(enum decision d);
/* "above_right_eye", ..., "nose", "jaw". */
const char *injury_loc_name(enum injury_loc loc);

/* ---------------------------------------------- sugarray building blocks */

/* Endurance lost to fatigue for 3a + 2d - skill = `fatigue`. */
int sugarray_fatigue_loss(int fatigue);
/* The changes after a bout (seed 004): endurance restored, skill for a KO,
 * endurance for a points win. */
void sugarray_after_bout(struct sugarray_sheet s[SIDES], const struct result *res);

enum sugarray_training { TRAIN_SKILL, TRAIN_ENDURANCE };
/* Training between bouts: +1 skill, or +1d5 endurance (drawn from r).
 * Returns the points gained. */
int sugarray_train(struct sugarray_sheet *s, enum sugarray_training t, struct rng *r);

/* ------------------------------------------------- duel building blocks */

/* The tables of rules.md section 4. */
const struct duel_weapon_info *duel_weapon_info(int weapon);
const struct duel_armour_info *duel_armour_info(int material);
/* A slot's machine name ("weapon", "head", "torso", "under", "legs", "feet",
 * "shield") and a part's ("head", "torso", "legs", "feet", "left_arm",
 * "right_arm"). */
const char *duel_slot_name(int slot);
const char *duel_part_name(int part);
/* x rounded to the nearest 0.5 (halves away from zero). */
double duel_round_half(double x);
/* The seed's consecutive-hits table: hits for the normalised sums p
 * (strength + energy + constitution) and n (reach + weight + encumbrance),
 * each rounded to 0.5 and clamped to 0..3. */
int duel_hits(double p, double n);
/* The seed's energy table: the cost of one hit attempt for row 3 x ConN and
 * column n, each rounded to 0.5 and clamped to 0..3. */
double duel_energy_cost(double con3, double n);
/* Hit chance in percent for attacker dexterity `a` against `d`. */
double duel_hit_chance(int a, int d);
/* The critical chance in percent of `weapon` (0 without a critical) for a
 * difference d = (INT + DEX of the attacker) - (INT + DEX of the defender). */
int duel_crit_chance(int weapon, int d);
/* Base damage of a roll for strength `str`: max(1, roll + roll x str / 23). */
double duel_base_damage(int roll, int str);
/* Base transportable weight and encumbrance of a duellist wearing the armour
 * of `item` (the weapon excluded). */
double duel_base_weight(int str);
double duel_encumbrance(const int item[DUEL_SLOTS], int str);
/* Stun length in own turns for constitution `con`. */
int duel_stun_turns(int con);
/* The weapon's wear in percent for a hit on a part defended by pieces of
 * total defence `def` (0: bare), wear factor `wf`. */
double duel_weapon_wear(int def, double wf);
/* The armour step of one hit: blunt and cut damage against pieces of total
 * defence `def` (a shield: `shield` set), the outermost of own defence
 * `outer`, armour penetration `pen`. Fills *blunt_after, *cut_after and
 * *wear (of the outermost piece, before its wear factor). */
void duel_armour(double blunt, double cut, int def, int outer, int shield, int pen,
                 double *blunt_after, double *cut_after, double *wear);
/* 0 if `s` is a legal duel sheet: abilities 1..23, known items in their
 * slots, each needing at most his STR, chainmail under leather only,
 * conditions 1..DUEL_COND_FULL where a piece is and 0 where none is. */
int duel_sheet_check(const struct duel_sheet *s);
/* The equipment the finished duel `b` leaves its fighters, written into the
 * sheets they began with: conditions to the nearest millionth (at least 1
 * while a piece is whole), broken pieces gone (a broken weapon: fists). */
void duel_sheet_after(const struct bout *b, struct sheet s[SIDES]);

/* ------------------------------------------------------------- leagues */

/* Leagues, champions and gold records (seed 004, rules.md section 3): the
 * same for every ruleset, each ruleset with its own ladder. */

enum league { LEAGUE_BRONZE, LEAGUE_SILVER, LEAGUE_GOLD, LEAGUE_COUNT };

enum league_move { LEAGUE_STAY, LEAGUE_UP, LEAGUE_DOWN };

/* "GOLD", "SILVER", "BRONZE". */
const char *league_name(enum league l);
/* The league named `name` (any case: "gold", "Silver"...), or -1. */
int league_find(const char *name);
/* A turn's pairing of `n` fighters of one league: put in a random cycle,
 * each fights his two neighbours, so everybody has two bouts against
 * different opponents (n >= 3: n bouts); two fighters meet twice; one
 * fighter has a bye (no bout). Fills pairs[k][0..1] with indices in
 * 0..n-1 (pairs must hold n entries, at least 2) and returns the number of
 * bouts. */
int league_pairing(int n, struct rng *r, int pairs[][2]);
/* What a turn's results mean for a fighter in league `l`: two wins, or a
 * win and a tie, go up; two losses, or a loss and a tie, go down; GOLD does
 * not go up and BRONZE does not go down; anything else stays. */
enum league_move league_move(enum league l, int wins, int losses, int ties);
/* Gold record points of one league bout fought in GOLD: 3 for a win, 1 for
 * a tie, 0 for a loss. */
int league_gold_points(int won, int tied);
/* The index of the highest of n gold records, ties broken at random with
 * r; `exclude` (or -1) is not eligible. -1 when nobody is. */
int league_top(const int *gold, int n, int exclude, struct rng *r);

#endif
