/*
 * boxing.c - the boxing ruleset: seed 000 "How a round is resolved", with the
 * settlements of docs/rules.md (section 1.4 of the design rules).
 *
 * A round runs the seed's steps in order: recovery, abilities (sheet ->
 * injury penalties -> styles -> height -> endurance scaling), warnings,
 * DEF_RATE, punches, damage, injuries, knockdowns/KO, TKO, fatigue, and the
 * judges' cards; then the result is settled (two stoppages in one round by
 * the seed's ratio rule, DQ against (T)KO by the seed's two rules). A few
 * figures are worked out ahead of their step where nothing between changes
 * them (DEF_RATE with the abilities, the knockdown thresholds at the start,
 * the knockdown counts before the injuries), for speed; the draws, the
 * figures and the events are those of the steps in order.
 *
 * Random draws come from the outcome stream in a fixed order (side 0 before
 * side 1 in every step), so a bout is a function of sheets, orders and seed.
 * The flavour stream only decides the order knockdown and KO are reported.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "engine.h"

static const char *const style_names[STYLE_COUNT] = {
    "", "inside", "clinch", "feint", "counter", "ring", "cut", "outside", "allout",
};

static const char *const injury_names[INJ_COUNT] = {
    "above_right_eye",
    "above_left_eye",
    "below_right_eye",
    "below_left_eye",
    "swelling_right_eye",
    "swelling_left_eye",
    "nose",
    "jaw",
};

/* The random tables of injuries, as the faces of a die: one face is drawn
 * with rng_range() and looked up. Each face stands for the weight of one
 * answer, in order, so the draw and the answer are those of rng_weighted()
 * with the weights (its pick is the face), without its loop. */
/* A location, out of 10: swellings are twice as likely as the rest
 * (rules.md 1.4); weights 1, 1, 1, 1, 2, 2, 1, 1. */
static const unsigned char location_faces[10] = {
    INJ_ABOVE_RIGHT_EYE,
    INJ_ABOVE_LEFT_EYE,
    INJ_BELOW_RIGHT_EYE,
    INJ_BELOW_LEFT_EYE,
    INJ_SWELL_RIGHT_EYE,
    INJ_SWELL_RIGHT_EYE,
    INJ_SWELL_LEFT_EYE,
    INJ_SWELL_LEFT_EYE,
    INJ_NOSE,
    INJ_JAW,
};
/* Levels 1-4 of a new injury: 2/3, 2/9, 2/27, 1/27 (out of 27: weights 18,
 * 6, 2, 1). */
static const unsigned char level_faces[27] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 18 */
    2, 2, 2, 2, 2, 2,                                     /* 6 */
    3, 3,                                                 /* 2 */
    4,                                                    /* 1 */
};
/* Promotion of an aggravated injury from level 1: to 2, 3, 4 with 2/3, 2/9,
 * 1/9 (weights 6, 2, 1); from level 2: to 3, 4 with 2/3, 1/3 (2, 1). */
static const unsigned char promote1_faces[9] = {2, 2, 2, 2, 2, 2, 3, 3, 4};
static const unsigned char promote2_faces[3] = {3, 3, 4};

#define FACES(t) ((int)(sizeof(t) / sizeof((t)[0])))

_Static_assert(EVENTS_MAX >= 12, "a round's first steps fit the events list");

/* Factors that depend on the orders are looked up rather than branched on:
 * orders change from round to round, so such a branch is a coin toss for
 * the processor, and a factor of 1 (or a term of 0) changes no figure. */
/* Step 7: aimed punches land 15 % less; by "is opportunistic". */
static const double landed_aim[2] = {0.85, 1.0};
/* Step 8: dirty fighting (by dirty, then by warned this round), an all-out
 * assault by the fighter, and one by his opponent. */
static const double damage_dirty[2][2] = {{1.0, 1.0}, {1.10, 1.05}};
/* By his all-out assault, then his opponent's: 2 and 4, both 8. Powers of
 * two, so one multiplication by their product is exact, as the two were. */
static const double damage_allout[2][2] = {{1.0, 4.0}, {2.0, 8.0}};
/* Step 8, by target: head 0.85, body 1.15. */
static const double damage_target[3] = {
    [TARGET_OPPORTUNISTIC] = 1.0,
    [TARGET_HEAD] = 0.85,
    [TARGET_BODY] = 1.15,
};
/* Step 9, by the opponent's target: head 1.5, body 0.5. */
static const double injury_target[3] = {
    [TARGET_OPPORTUNISTIC] = 1.0,
    [TARGET_HEAD] = 1.5,
    [TARGET_BODY] = 0.5,
};
/* Step 3: the taller fighter's bonus is halved inside or clinching, and
 * half as much again from outside. */
static const double height_style[STYLE_COUNT] = {
    [STYLE_NONE] = 1.0,  [STYLE_INSIDE] = 0.5,  [STYLE_CLINCH] = 0.5,
    [STYLE_FEINT] = 1.0, [STYLE_COUNTER] = 1.0, [STYLE_RING] = 1.0,
    [STYLE_CUT] = 1.0,   [STYLE_OUTSIDE] = 1.5, [STYLE_ALLOUT] = 1.0,
};
/* Step 3, by the shorter fighter's all-out assault: then all of the bonus
 * goes to SPD, twice. */
static const double height_allout_spd[2] = {1.0, 2.0};
static const double height_allout_agl[2] = {1.0, 0.0};
/* Step 12: the cut-off's extra fatigue per point of AGG; by "cuts off". */
static const double fatigue_cut[2] = {0.0, 0.25};

/* Injuries, by level (0, none, to 4), for the same reason: they come and
 * go from bout to bout. A cut over the eye takes AGL from level 3; a
 * swelling takes SPD and AGL from level 2 (levels 3 and up: shut). */
static const double cut_agl[5] = {0, 0, 0, 0.5, 1.0};
static const double swelling_penalty[4] = {0, 0, 1.0, 2.0};
/* Damage an injury does when it happens and each time it is aggravated:
 * a cut its level, the nose its level from level 2, the jaw 5 at level 4
 * (broken); swellings none. */
static const double injury_dmg[INJ_COUNT][5] = {
    [INJ_ABOVE_RIGHT_EYE] = {0, 1, 2, 3, 4},
    [INJ_ABOVE_LEFT_EYE] = {0, 1, 2, 3, 4},
    [INJ_BELOW_RIGHT_EYE] = {0, 1, 2, 3, 4},
    [INJ_BELOW_LEFT_EYE] = {0, 1, 2, 3, 4},
    [INJ_SWELL_RIGHT_EYE] = {0, 0, 0, 0, 0},
    [INJ_SWELL_LEFT_EYE] = {0, 0, 0, 0, 0},
    [INJ_NOSE] = {0, 0, 2, 3, 4},
    [INJ_JAW] = {0, 0, 0, 0, 5},
};

/* Knockdown, double knockdown and KO thresholds in per mille of the
 * starting endurance, by what the opponent throws (step 10). */
static const int kd_permille[3][3] = {
    [TARGET_OPPORTUNISTIC] = {150, 200, 250},
    [TARGET_HEAD] = {100, 125, 150},
    [TARGET_BODY] = {250, 300, 350},
};

#define DIRTY_WARN_CHANCE 0.5
#define FOUL_CHANCE       0.015
#define AGGRAVATE_CAP     0.5
#define PROMOTE_CHANCE    0.5
#define DOCTOR_DAMAGE     7.0
/* "Times" at which stoppages happen inside a round, to settle two in one
 * round: KO and damage TKO at ratio <= 1, the doctor after the exchange,
 * fatigue after the bell. */
#define TIME_TOWEL   0.0
#define TIME_DOCTOR  1.0
#define TIME_FATIGUE 2.0

const char *style_name(enum style s)
{
    return (int)s >= 0 && s < STYLE_COUNT ? style_names[s] : "";
}

const char *injury_loc_name(enum injury_loc loc)
{
    return (int)loc >= 0 && loc < INJ_COUNT ? injury_names[loc] : "";
}

/* x if positive, else 0; without a branch (which way a gap between two
 * fighters goes is a coin toss): x + |x| is exactly 2x or 0. */
static double max0(double x)
{
    return (x + fabs(x)) * 0.5;
}

static double floor1(double x)
{
    return x < 1 ? 1 : x;
}

static int is_swelling(enum injury_loc loc)
{
    return loc == INJ_SWELL_RIGHT_EYE || loc == INJ_SWELL_LEFT_EYE;
}

/* rng_uniform(r, lo, hi), the same double with one multiplication fewer:
 * rng_unit's 2^-53 is folded into the span, as (hi - lo) x 2^-53 is exact
 * (a power of two, and the spans here are far from the subnormals), and
 * so is the unit's (x >> 11) x 2^-53. With constant bounds the compiler
 * folds the product. */
static inline double uniform(struct rng *r, double lo, double hi)
{
    return lo + (double)(rng_next(r) >> 11) * ((hi - lo) * 0x1.0p-53);
}

/* lround() for 0 <= x < 2^52, without the library call: x to the nearest
 * integer, halves up. From 0.5 on, x + 0.5 is exact, or rounded only in
 * its fraction, so truncating it is exact; below 0.5 the answer is 0 (and
 * x + 0.5 may round up to 1 there). A count's chain of conversions is
 * shorter this way than through x's fraction. */
static inline long round_nonneg(double x)
{
    return x < 0.5 ? 0 : (long)(x + 0.5);
}

double boxing_recovery(double end_start, double endurance, int energy_used)
{
    double lost = end_start - endurance;

    if (lost <= 0)
        return endurance;
    double gain = 0.15 * lost;
    /* Unspent energy adds 2 % a point; none adds 0 (no branch on it). */
    int unspent = BOXING_ENERGY - energy_used;
    gain += (unspent > 0) * unspent * 0.02 * lost;
    return endurance + gain;
}

/* Only cuts over the eyes and swellings slow a fighter; cuts below the eye,
 * the nose and the jaw only bleed. The penalties are taken location by
 * location in injury_loc order (right eye first), as the rules list them. */
static inline void injury_penalties(const struct boxing_fighter *f, struct boxing_abilities *ab)
{
    double spd = f->sheet.spd, agl = f->sheet.agl;

    /* Without a branch on the level: no injury takes off 0. */
    for (int loc = INJ_ABOVE_RIGHT_EYE; loc <= INJ_ABOVE_LEFT_EYE; loc++) {
        int lv = f->inj[loc].level;
        /* A cut over the eye: 0.5 SPD a level; a serious cut 0.5 AGL, a
         * gash 1 AGL. */
        spd -= 0.5 * lv;
        agl -= (unsigned)lv <= 4 ? cut_agl[lv] : 0.0;
    }
    for (int loc = INJ_SWELL_RIGHT_EYE; loc <= INJ_SWELL_LEFT_EYE; loc++) {
        int lv = f->inj[loc].level;
        double pen = swelling_penalty[lv < 0 ? 0 : lv > 3 ? 3 : lv];
        spd -= pen;
        agl -= pen;
    }
    ab->str = floor1(f->sheet.str);
    ab->spd = floor1(spd);
    ab->agl = floor1(agl);
    ab->agg = 0;
    ab->rest = 0;
}

void boxing_injury_penalties(const struct boxing_fighter *f, struct boxing_abilities *ab)
{
    injury_penalties(f, ab);
}

/* AGG after a fighter's own clinching or feinting (a point less, if he has
 * more than one); the point lost clinching is rest, put in *rest. Computed
 * for every style and kept or not, rather than branched on the style: see
 * landed_aim. */
static inline int agg_own(const struct boxing_order *o, int *rest)
{
    int clinch = o->style == STYLE_CLINCH, feint = o->style == STYLE_FEINT;
    int lost = (clinch | feint) & (o->agg > 1);

    *rest = clinch & lost;
    return o->agg - lost;
}

/* A counter-puncher's AGG `agg` held back below `below` (at least 1, and
 * never above his own); the points held back are rest. Other styles hold
 * nothing back. */
static inline void agg_counter(struct boxing_abilities *ab, const struct boxing_order *o, int agg,
                               int below)
{
    int want = below - 1;

    if (want > agg)
        want = agg;
    if (want < 1)
        want = 1;
    int held = (o->style == STYLE_COUNTER) * (agg - want);
    ab->rest += held;
    ab->agg = agg - held;
}

/* AGG after clinching, feinting and counter-punching; lost points from
 * clinching and counter-punching are rest (rules.md 1.4). */
static inline void styles_agg(struct boxing_abilities ab[SIDES], const struct boxing_order o[SIDES])
{
    int agg0 = agg_own(&o[0], &ab[0].rest), agg1 = agg_own(&o[1], &ab[1].rest);
    /* Below the opponent's AGG after his own clinch/feint loss; two
     * counter-punchers, each below his own. */
    int both = (o[0].style == STYLE_COUNTER) & (o[1].style == STYLE_COUNTER);

    agg_counter(&ab[0], &o[0], agg0, both ? agg0 : agg1);
    agg_counter(&ab[1], &o[1], agg1, both ? agg1 : agg0);
}

/* Step 2's effects by style, as the candidate (1, 2, ...) worked out in
 * styles() that each style takes for the fighter's STR, SPD and AGL and off
 * the opponent's AGL; 0 is none. All-out acts on damage and height only. */
static const struct style_effect {
    unsigned char str, spd, agl, opp_agl;
    unsigned char height; /* step 3: index of height_style's factor in height_use */
} style_effects[STYLE_COUNT] = {
    [STYLE_INSIDE] = {.str = 1, .agl = 1, .height = 1},
    [STYLE_CLINCH] = {.agl = 2, .height = 1},
    [STYLE_FEINT] = {.spd = 1},
    [STYLE_COUNTER] = {.agl = 3, .opp_agl = 1},
    [STYLE_RING] = {.str = 2, .agl = 4},
    [STYLE_CUT] = {.opp_agl = 2},
    [STYLE_OUTSIDE] = {.str = 2, .height = 2},
};
/* height_style's three factors, as style_effects' `height` indexes them. */
static const double height_use[3] = {1.0, 0.5, 1.5};

/* What one fighter's style does in step 2: to his STR, SPD and AGL, and off
 * the opponent's AGL. */
struct style_deltas {
    double str, spd, agl, opp_agl;
};

/* Step 2's candidates (see style_effects) for a fighter of abilities `me`
 * against `op`, both before styles, into *c: what every style would do,
 * from which his own is picked by his style rather than branched to (see
 * landed_aim); what a style does not do is 0, which changes nothing. They
 * change only with the injuries, so a bout keeps them at hand. */
static void style_candidates(const struct boxing_abilities *me, const struct boxing_abilities *op,
                             struct boxing_candidates *c)
{
    /* Half his leads over the opponent (0 where he is behind). */
    double str_lead = max0(me->str - op->str) / 2;
    double spd_lead = max0(me->spd - op->spd) / 2;
    double agl_lead = max0(me->agl - op->agl) / 2;
    /* Counter-punching: faster, a quarter of the gap in AGL and as much
     * (at most half his AGL) off the opponent; slower, half the gap off
     * his own. One of the two is 0. */
    double faster = max0(me->spd - op->spd) / 4, slower = max0(op->spd - me->spd) / 2;
    double agl_gap = max0(me->agl - op->agl);

    *c = (struct boxing_candidates){
        .str = {0, 1.5 + str_lead,                                      /* inside */
                -(0.15 * me->str)},                                     /* ring, outside */
        .spd = {0, 1.5 + spd_lead},                                     /* feint */
        .agl = {0, -(0.15 * me->agl),                                   /* inside */
                1.5 - agl_lead + str_lead,                              /* clinch */
                faster - slower,                                        /* counter */
                1.5 + agl_lead},                                        /* ring */
        .opp_agl = {0, faster < op->agl / 2 ? faster : op->agl / 2,     /* counter */
                    agl_gap < 0.1 * op->agl ? agl_gap : 0.1 * op->agl}, /* cut */
    };
}

/* Step 2's effects of style `style`, picked from the candidates `c`. */
static inline struct style_deltas style_pick(const struct boxing_candidates *c, enum style style)
{
    const struct style_effect *e =
        &style_effects[(unsigned)style < STYLE_COUNT ? (int)style : STYLE_NONE];

    return (struct style_deltas){c->str[e->str], c->spd[e->spd], c->agl[e->agl],
                                 c->opp_agl[e->opp_agl]};
}

/* Step 2 from `pre`, both fighters' abilities before styles, and c0 and
 * c1, their candidates, into `ab`. The round hands `pre` over as the injury
 * penalties left it; copying it first (as boxing_styles() must) costs the
 * round a stall. */
static void styles(const struct boxing_abilities pre[SIDES], const struct boxing_candidates *c0,
                   const struct boxing_candidates *c1, struct boxing_abilities ab[SIDES],
                   const struct boxing_order o[SIDES])
{
    /* Both worked out from the abilities before styles, then summed: the
     * styles act simultaneously. Each sum starts from 0, side 0's effects
     * first, as the rules list them. */
    struct style_deltas d0 = style_pick(c0, o[0].style);
    struct style_deltas d1 = style_pick(c1, o[1].style);
    double dagl0 = 0.0 + d0.agl - d1.opp_agl;
    double dagl1 = 0.0 - d0.opp_agl + d1.agl;

    ab[0].str = floor1(pre[0].str + (0.0 + d0.str));
    ab[0].spd = floor1(pre[0].spd + (0.0 + d0.spd));
    ab[0].agl = floor1(pre[0].agl + dagl0);
    ab[1].str = floor1(pre[1].str + (0.0 + d1.str));
    ab[1].spd = floor1(pre[1].spd + (0.0 + d1.spd));
    ab[1].agl = floor1(pre[1].agl + dagl1);
    styles_agg(ab, o);
}

void boxing_styles(struct boxing_abilities ab[SIDES], const struct boxing_order o[SIDES])
{
    const struct boxing_abilities pre[SIDES] = {ab[0], ab[1]};
    struct boxing_candidates c[SIDES];

    style_candidates(&pre[0], &pre[1], &c[0]);
    style_candidates(&pre[1], &pre[0], &c[1]);
    styles(pre, &c[0], &c[1], ab, o);
}

static inline void height(struct boxing_abilities ab[SIDES], const struct boxing_sheet s[SIDES],
                          const struct boxing_order o[SIDES])
{
    if (s[0].hgt == s[1].hgt)
        return;
    int t = s[0].hgt > s[1].hgt ? 0 : 1;
    double bonus = (s[t].hgt - s[!t].hgt) / 2.0;

    bonus *= height_style[(unsigned)o[t].style < STYLE_COUNT ? o[t].style : STYLE_NONE];
    int allout = o[!t].style == STYLE_ALLOUT;
    ab[t].spd += bonus * height_allout_spd[allout];
    ab[t].agl += bonus * height_allout_agl[allout];
}

void boxing_height(struct boxing_abilities ab[SIDES], const struct boxing_sheet s[SIDES],
                   const struct boxing_order o[SIDES])
{
    height(ab, s, o);
}

void boxing_scale(struct boxing_abilities *ab, double endurance, double end_start)
{
    double k = endurance / end_start;

    ab->str = floor1(ab->str * k);
    ab->spd = floor1(ab->spd * k);
    ab->agl = floor1(ab->agl * k);
}

double boxing_clinch_penalty_chance(const struct boxing_order *o)
{
    if (o->style != STYLE_CLINCH || o->def < 10)
        return 0;
    double pct = o->def * o->def / 4.0;
    return pct >= 100 ? 1.0 : pct / 100;
}

double boxing_def_rate(int def, double agl)
{
    double r = def * agl;
    return r < 1 ? 1 : r;
}

double boxing_expected_landed(int agg, double spd, double opp_def_rate, enum target t)
{
    double n = 8.0 * agg * spd / sqrt(3 * opp_def_rate);
    return n * landed_aim[t == TARGET_OPPORTUNISTIC];
}

double boxing_base_damage(int pow, double str, int agg, double spd, double opp_def_rate)
{
    return pow * str * sqrt(agg * spd) / opp_def_rate;
}

void boxing_damage_multipliers(const struct boxing_order *me, const struct boxing_order *opp,
                               int warned, double *kd_mult, double *mult)
{
    double m = 1;

    m *= damage_dirty[me->dirty != 0][warned != 0];
    m *= damage_allout[me->style == STYLE_ALLOUT][opp->style == STYLE_ALLOUT];
    *kd_mult = m;
    m *= damage_target[me->target];
    *mult = m;
}

enum injury_loc boxing_injury_location(struct rng *r)
{
    return (enum injury_loc)location_faces[rng_range(r, 0, FACES(location_faces) - 1)];
}

int boxing_injury_level(struct rng *r)
{
    return level_faces[rng_range(r, 0, FACES(level_faces) - 1)];
}

int boxing_injury_promote(int level, struct rng *r)
{
    if (level >= 4 || !rng_chance(r, PROMOTE_CHANCE))
        return level;
    if (level == 1)
        return promote1_faces[rng_range(r, 0, FACES(promote1_faces) - 1)];
    if (level == 2)
        return promote2_faces[rng_range(r, 0, FACES(promote2_faces) - 1)];
    return 4;
}

/* boxing_injury_chance() before the cap at 1, all a draw needs: a chance
 * of 1 or more never fails either way. */
static double injury_odds(double dam, enum target opp_target)
{
    double p = dam * dam / 1000.0; /* DAM^2 / 10 percent */

    return p * injury_target[opp_target];
}

double boxing_injury_chance(double dam, enum target opp_target)
{
    double p = injury_odds(dam, opp_target);

    return p > 1 ? 1 : p;
}

/* Step 10's thresholds for a fighter of `end_start` against a man aiming
 * at `opp_target`. */
static inline void kd_thresholds(double end_start, enum target opp_target, struct boxing_kd *t)
{
    const int *pm = kd_permille[opp_target];

    t->one = end_start * pm[0] / 1000.0;
    t->two = end_start * pm[1] / 1000.0;
    t->out = end_start * pm[2] / 1000.0;
}

static inline void count_knockdowns(double damage, const struct boxing_kd *t, int *knockdowns,
                                    int *ko)
{
    *ko = damage >= t->out;
    /* Damage beyond what the KO needed counts again for knockdowns. */
    double d = damage - t->out * *ko;
    /* one <= two (for end_start >= 0): counted without a branch. */
    *knockdowns = (d >= t->one) + (d >= t->two);
}

void boxing_knockdowns(double damage, double end_start, enum target opp_target, int *knockdowns,
                       int *ko)
{
    struct boxing_kd t;

    kd_thresholds(end_start, opp_target, &t);
    count_knockdowns(damage, &t, knockdowns, ko);
}

double boxing_dq_chance(int n)
{
    static const double ladder[] = {0.1, 0.2, 0.4, 0.8};

    if (n < 1)
        return 0;
    return n <= 4 ? ladder[n - 1] : 1.0;
}

int boxing_training_points(const struct result *res, int side)
{
    if (!res->over || res->winner != side)
        return 0;
    return res->method == METHOD_KO || res->method == METHOD_TKO ? 2 : 1;
}

/* ------------------------------------------------------- the ruleset */

/* Whether v is outside lo..hi: one unsigned comparison, as a value below
 * the range wraps around above it. */
static int outside(int v, int lo, int hi)
{
    return (unsigned)v - (unsigned)lo > (unsigned)(hi - lo);
}

static int sheet_valid(const struct sheet *s)
{
    const struct boxing_sheet *b = &s->u.boxing;
    const int lo = BOXING_ABILITY_MIN, hi = BOXING_ABILITY_MAX;

    if (outside(b->str, lo, hi) || outside(b->spd, lo, hi) || outside(b->agl, lo, hi) ||
        outside(b->tgh, lo, hi) || outside(b->hgt, lo, hi))
        return -1;
    return 0;
}

/* Whether the boxing order `b` is legal (1) or not (0). */
static inline int order_ok(const struct boxing_order *b)
{
    if (b->agg < 1 || b->pow < 1 || b->def < 1)
        return 0;
    if (b->agg + b->pow + b->def > BOXING_ENERGY)
        return 0;
    if ((int)b->target < TARGET_OPPORTUNISTIC || b->target > TARGET_BODY)
        return 0;
    if ((int)b->style < STYLE_NONE || b->style >= STYLE_COUNT)
        return 0;
    if ((b->dirty != 0 && b->dirty != 1) || (b->towel != 0 && b->towel != 1))
        return 0;
    return 1;
}

static int order_valid(const struct order *o)
{
    return order_ok(&o->u.boxing) ? 0 : -1;
}

static void order_default(struct order *o)
{
    memset(o, 0, sizeof(*o));
    o->rules = RULES_BOXING;
    o->u.boxing.agg = 5;
    o->u.boxing.pow = 5;
    o->u.boxing.def = 10;
}

/* Steps 2 and 3 by style for the fighter `me` against `op` (see struct
 * boxing_by_style), from both their `pre`; `bonus` is the height bonus
 * before styles if he is the taller, else 0. Each figure by the same
 * operations, in the same order, as styles() and height() take. */
static void by_style(const struct boxing_fighter *me, const struct boxing_fighter *op, double bonus,
                     struct boxing_by_style *t)
{
    struct boxing_candidates c;

    style_candidates(&me->pre, &op->pre, &c);
    for (int k = 0; k < 3; k++)
        t->str[k] = floor1(me->pre.str + (0.0 + c.str[k]));
    for (int k = 0; k < 2; k++)
        t->spd[k] = floor1(me->pre.spd + (0.0 + c.spd[k]));
    memcpy(t->agl, c.agl, sizeof(t->agl));
    memcpy(t->opp_agl, c.opp_agl, sizeof(t->opp_agl));
    /* A bonus of 0 (the shorter man, or the same height) gives 0, which
     * added to figures of at least 1 changes none. */
    for (int h = 0; h < 3; h++) {
        double b = bonus * height_use[h];
        for (int allout = 0; allout < 2; allout++) {
            t->h_spd[h][allout] = b * height_allout_spd[allout];
            t->h_agl[h][allout] = b * height_allout_agl[allout];
        }
    }
}

/* Both sides' steps 2 and 3 by style: when the bout starts and when an
 * injury changes either's `pre`. */
static void both_by_style(struct bout *b)
{
    struct boxing_fighter *f = b->u.boxing.f;
    int h0 = f[0].sheet.hgt, h1 = f[1].sheet.hgt;
    /* The taller man's bonus (height()'s, before his style). */
    double bonus0 = h0 > h1 ? (h0 - h1) / 2.0 : 0, bonus1 = h1 > h0 ? (h1 - h0) / 2.0 : 0;

    by_style(&f[0], &f[1], bonus0, &f[0].by);
    by_style(&f[1], &f[0], bonus1, &f[1].by);
}

static void bout_start(struct bout *b, const struct sheet s[SIDES], int rounds)
{
    (void)rounds;
    for (int i = 0; i < SIDES; i++) {
        struct boxing_fighter *f = &b->u.boxing.f[i];
        f->sheet = s[i].u.boxing;
        f->end_start = 10.0 * f->sheet.tgh;
        f->endurance = f->end_start;
        f->energy_used = BOXING_ENERGY;
        injury_penalties(f, &f->pre);
        for (int t = TARGET_OPPORTUNISTIC; t <= TARGET_BODY; t++)
            kd_thresholds(f->end_start, (enum target)t, &f->kd[t]);
    }
    both_by_style(b);
}

/* A stoppage of one fighter in the round being resolved. */
struct stop {
    int stopped;
    enum method method;
    enum tko_reason reason;
    double time; /* how early in the round: smaller is earlier */
};

static void stop_at(struct stop *s, enum method m, enum tko_reason reason, double time)
{
    if (s->stopped && s->time <= time)
        return;
    s->stopped = 1;
    s->method = m;
    s->reason = reason;
    s->time = time;
}

/* Everything a round needs besides the bout itself. */
struct round_ctx {
    struct bout *b;
    const struct boxing_order *o;
    struct rng *rng;
    struct events *evs;
    struct stop stop[SIDES];
    int hurt[SIDES]; /* injuries new or aggravated this round */
    int round;
};

/* Appends an event at *cur, which has room for it: the part of a round
 * whose events can be counted ahead (see round_resolve) writes them so,
 * without events_add's test and count at each. */
static inline void put(struct event **cur, enum event_type type, int side, int a, int b, int c,
                       double x)
{
    *(*cur)++ = (struct event){.type = type, .side = side, .a = a, .b = b, .c = c, .x = x};
}

/* Damage an injury does when it happens and each time it is aggravated
 * (level 1-4). */
static double injury_damage(enum injury_loc loc, int level)
{
    return injury_dmg[loc][level];
}

static void injury_hurt(struct round_ctx *c, int v, enum injury_loc loc, double dmg)
{
    struct boxing_fighter *f = &c->b->u.boxing.f[v];

    /* An injury came or got worse: the penalties of the next round, and
     * both sides' styles from them, when they change (most injuries slow
     * nobody: below the eyes, the nose, the jaw, a first swelling). */
    struct boxing_abilities was = f->pre;
    injury_penalties(f, &f->pre);
    if (f->pre.spd != was.spd || f->pre.agl != was.agl)
        both_by_style(c->b);
    f->inj[loc].damage += dmg;
    f->endurance -= dmg;
    c->b->u.boxing.last[v].injury_damage += dmg;
    c->hurt[v]++;
}

static void injury_aggravate(struct round_ctx *c, int v, enum injury_loc loc)
{
    struct injury *inj = &c->b->u.boxing.f[v].inj[loc];
    int old = inj->level;

    if (is_swelling(loc)) {
        if (inj->level < 3)
            inj->level++;
    } else {
        inj->level = boxing_injury_promote(inj->level, c->rng);
    }
    double dmg = injury_damage(loc, inj->level);
    injury_hurt(c, v, loc, dmg);
    events_add(c->evs, EV_AGGRAVATED, v, loc, inj->level, old, dmg);
    if (old == 4)
        stop_at(&c->stop[v], METHOD_TKO, loc == INJ_JAW ? TKO_BROKEN_JAW : TKO_AGGRAVATED,
                TIME_DOCTOR);
}

static void injury_new(struct round_ctx *c, int v)
{
    struct injury *inj = c->b->u.boxing.f[v].inj;
    enum injury_loc loc = boxing_injury_location(c->rng);

    if (inj[loc].level > 0) {
        /* The same injury again is an aggravation, not a new one. */
        injury_aggravate(c, v, loc);
        return;
    }
    inj[loc].level = is_swelling(loc) ? 1 : boxing_injury_level(c->rng);
    inj[loc].damage = 0;
    inj[loc].round = c->round;
    double dmg = injury_damage(loc, inj[loc].level);
    injury_hurt(c, v, loc, dmg);
    events_add(c->evs, EV_INJURY, v, loc, inj[loc].level, 0, dmg);
}

/* Whether any location is injured. The levels are never negative, so any
 * above 0 makes their OR nonzero; written out, as a loop of eight costs
 * more than the test saves. */
static int injured(const struct injury inj[INJ_COUNT])
{
    return (inj[INJ_ABOVE_RIGHT_EYE].level | inj[INJ_ABOVE_LEFT_EYE].level |
            inj[INJ_BELOW_RIGHT_EYE].level | inj[INJ_BELOW_LEFT_EYE].level |
            inj[INJ_SWELL_RIGHT_EYE].level | inj[INJ_SWELL_LEFT_EYE].level | inj[INJ_NOSE].level |
            inj[INJ_JAW].level) != 0;
}

/* Step 9's new injuries for the fighter on side v, the first one's chance
 * `p` drawn and won: one, and another each time the capped chance wins. */
static void injuries_new(struct round_ctx *c, int v, double p)
{
    double capped = p < AGGRAVATE_CAP ? p : AGGRAVATE_CAP;

    injury_new(c, v);
    while (rng_chance(c->rng, capped))
        injury_new(c, v);
}

/* Step 9 for a fighter already injured: his injuries of earlier rounds
 * aggravated, each at the capped chance, then new ones at chance `p`. */
static void injuries_injured(struct round_ctx *c, int v, double p)
{
    const struct injury *inj = c->b->u.boxing.f[v].inj;
    double capped = p < AGGRAVATE_CAP ? p : AGGRAVATE_CAP;

    for (int loc = 0; loc < INJ_COUNT; loc++)
        if (inj[loc].level > 0 && inj[loc].round < c->round && rng_chance(c->rng, capped))
            injury_aggravate(c, v, (enum injury_loc)loc);
    if (rng_chance(c->rng, p))
        injuries_new(c, v, p);
}

/* Step 9 for the fighter on side v, who received `dam` this round. Most
 * fighters have no injury to aggravate and get no new one: one test and
 * one draw for those, here. */
static inline void injuries(struct round_ctx *c, int v, double dam)
{
    double p = injury_odds(dam, c->o[!v].target);

    if (p <= 0)
        return;
    if (injured(c->b->u.boxing.f[v].inj))
        injuries_injured(c, v, p);
    else if (rng_chance(c->rng, p))
        injuries_new(c, v, p);
}

/* The doctor's look after the exchange (rules.md 1.4). Only a round with
 * injuries new or aggravated can call him in: an injury he would have
 * stopped the fight for in an earlier round did stop it then (every
 * stoppage ends the bout). */
static void doctor(struct round_ctx *c, int v)
{
    const struct injury *inj = c->b->u.boxing.f[v].inj;

    if (!c->hurt[v])
        return;
    for (int loc = 0; loc < INJ_COUNT; loc++)
        if (inj[loc].level >= 3 && inj[loc].damage >= DOCTOR_DAMAGE)
            stop_at(&c->stop[v], METHOD_TKO, TKO_INJURY, TIME_DOCTOR);
    if (inj[INJ_SWELL_RIGHT_EYE].level >= 3 && inj[INJ_SWELL_LEFT_EYE].level >= 3)
        stop_at(&c->stop[v], METHOD_TKO, TKO_EYES_SHUT, TIME_DOCTOR);
}

/* A penalty for holding on one judge's card: a fighter penalised loses a
 * point, or, if he won the round on that card, his opponent gains one. */
static void clinch_points(const struct boxing_side_round last[SIDES], int p[SIDES])
{
    int won[SIDES] = {p[0] > p[1], p[1] > p[0]};

    for (int i = 0; i < SIDES; i++) {
        if (!last[i].clinch_penalty)
            continue;
        if (won[i])
            p[!i]++;
        else
            p[i]--;
    }
}

/* Points on one judge's card for the round (rules.md 1.4: counts, then
 * knockdowns, warnings and clinch penalties). `off` is what every judge
 * takes off each for knockdowns, warnings and fouls; `held` whether either
 * was penalised for holding. */
static inline void score_card(struct boxing_side_round last[SIDES], int j, const int off[SIDES],
                              int held)
{
    /* 10 points each, 9 for the man outpunched: counted rather than
     * branched on, as who landed more is a coin toss. */
    int c0 = last[0].counts[j], c1 = last[1].counts[j];
    int p[SIDES] = {10 - (c0 < c1) - off[0], 10 - (c1 < c0) - off[1]};

    if (held)
        clinch_points(last, p);
    last[0].cards[j] = p[0];
    last[1].cards[j] = p[1];
}

static void decide_cards(struct bout *b)
{
    int wins[SIDES] = {0, 0};

    for (int j = 0; j < JUDGES; j++) {
        if (b->result.cards[j][0] > b->result.cards[j][1])
            wins[0]++;
        else if (b->result.cards[j][1] > b->result.cards[j][0])
            wins[1]++;
    }
    for (int i = 0; i < SIDES; i++) {
        if (wins[i] < 2)
            continue;
        b->result.winner = i;
        b->result.method = METHOD_DECISION;
        b->result.decision = wins[i] == 3    ? DECISION_UNANIMOUS
                             : wins[!i] == 1 ? DECISION_SPLIT
                                             : DECISION_MAJORITY;
        return;
    }
    b->result.winner = -1;
    b->result.method = METHOD_DRAW;
    b->result.drawn_by = METHOD_DECISION;
}

static void result_win(struct bout *b, int w, const struct stop *s)
{
    b->result.winner = w;
    b->result.method = s->method;
    b->result.reason = s->method == METHOD_TKO ? s->reason : TKO_NONE;
}

static void result_draw(struct bout *b, enum method by)
{
    b->result.winner = -1;
    b->result.method = METHOD_DRAW;
    b->result.drawn_by = by;
}

/* Settles the round's stoppages and disqualifications into a result. */
static void settle(struct round_ctx *c, const int dq[SIDES])
{
    struct bout *b = c->b;
    const struct stop *s = c->stop;

    if (!s[0].stopped && !s[1].stopped) {
        if (dq[0] && dq[1])
            result_draw(b, METHOD_DQ);
        else if (dq[0] || dq[1]) {
            b->result.winner = dq[0] ? 1 : 0;
            b->result.method = METHOD_DQ;
        } else if (b->round >= b->rounds)
            decide_cards(b);
        else
            return;
    } else {
        int loser;
        if (s[0].stopped && s[1].stopped) {
            if (s[0].time == s[1].time) {
                /* Stopped at the same moment: a DQ'd fighter takes the
                 * loss (his (T)KO first), two or none make a draw. */
                if (dq[0] != dq[1])
                    result_win(b, dq[0] ? 1 : 0, &s[dq[0] ? 0 : 1]);
                else
                    result_draw(b, dq[0] ? METHOD_DQ
                                   : s[0].method == METHOD_KO && s[1].method == METHOD_KO
                                       ? METHOD_KO
                                       : METHOD_TKO);
                goto over;
            }
            loser = s[0].time < s[1].time ? 0 : 1;
        } else {
            loser = s[0].stopped ? 0 : 1;
        }
        int w = !loser;
        if (dq[w] && dq[loser])
            result_draw(b, METHOD_DQ);
        else if (dq[w]) {
            /* DQ'd in the round he scores a (T)KO: the (T)KO is void. */
            b->result.winner = loser;
            b->result.method = METHOD_DQ;
        } else {
            /* DQ'd and (T)KO'd: the (T)KO takes priority. */
            result_win(b, w, &s[loser]);
        }
    }
over:
    b->result.over = 1;
    b->result.round = b->round;
    events_add(c->evs, EV_RESULT, b->result.winner, b->result.method, b->result.reason,
               b->result.decision, 0);
}

/* Steps 4 and 6's figures of one side, into `last`. */
static inline void keep_abilities(struct boxing_side_round *l, const struct boxing_abilities *a,
                                  double rate)
{
    l->str = a->str;
    l->spd = a->spd;
    l->agl = a->agl;
    l->agg = a->agg;
    l->rest = a->rest;
    l->def_rate = rate;
}

/* Step 7 for one side, fighting with `a` against DEF_RATE `opp_rate`. */
static inline void punches(struct boxing_side_round *l, const struct boxing_abilities *a,
                           double opp_rate, enum target t, struct rng *rng)
{
    int thrown = 8 * a->agg;
    double landed = boxing_expected_landed(a->agg, a->spd, opp_rate, t) * uniform(rng, 0.9, 1.1);

    if (landed > thrown)
        landed = thrown;
    l->thrown = thrown;
    l->landed = landed;
    for (int j = 0; j < JUDGES; j++) {
        /* landed is above 0 and at most thrown (below 200). */
        long n = round_nonneg(landed * uniform(rng, 0.95, 1.05));
        l->counts[j] = n > thrown ? thrown : (int)n;
    }
}

/* Step 8 for one side: the damage dealt (also in `l`, with the damage
 * before the head/body multiplier that knockdowns use). */
static inline double damage(struct boxing_side_round *l, const struct boxing_abilities *a,
                            double opp_rate, const struct boxing_order *me,
                            const struct boxing_order *opp, struct rng *rng)
{
    double d =
        boxing_base_damage(me->pow, a->str, a->agg, a->spd, opp_rate) * uniform(rng, 0.9, 1.1);
    double kd_mult, mult;

    boxing_damage_multipliers(me, opp, l->warned, &kd_mult, &mult);
    l->kd_damage = d * kd_mult;
    l->damage = d * mult;
    return l->damage;
}

/* Step 1 for fighter f before round `round`; and the endurance he starts
 * it with, in `l`. */
static inline void recover(struct boxing_fighter *f, struct boxing_side_round *l, int round)
{
    if (round > 1)
        f->endurance = boxing_recovery(f->end_start, f->endurance, f->energy_used);
    l->end_begin = f->endurance;
}

/* The figures of `l` that a fought round only sets when something happens,
 * or adds to. */
static inline void clear_occasional(struct boxing_side_round *l)
{
    l->injury_damage = 0;
    l->warned = l->fouled = l->dq = l->clinch_penalty = 0;
}

/* Step 10's counts for the fighter of `l` and `f`, who took
 * `opp_kd_damage`. */
static inline void knockdowns(struct boxing_side_round *l, struct boxing_fighter *f,
                              double opp_kd_damage, const struct boxing_kd *t)
{
    count_knockdowns(opp_kd_damage, t, &l->knockdowns, &l->ko);
    f->knockdowns += l->knockdowns;
}

/* Step 10's events and stoppage for side v. */
static inline void report_knockdowns(struct round_ctx *c, int v, const struct boxing_kd *t,
                                     struct rng *flavour)
{
    const struct boxing_side_round *l = &c->b->u.boxing.last[v];
    int kd = l->knockdowns, ko = l->ko;
    /* Reported in random order; a knockdown after the KO is not. */
    int ko_first = ko && kd && rng_chance(flavour, 0.5);

    if (ko_first)
        events_add(c->evs, EV_KO, v, 0, 0, 0, 0);
    for (int k = 0; k < kd && !ko_first; k++)
        events_add(c->evs, EV_KNOCKDOWN, v, k + 1, 0, 0, 0);
    if (ko && !ko_first)
        events_add(c->evs, EV_KO, v, 0, 0, 0, 0);
    if (ko)
        stop_at(&c->stop[v], METHOD_KO, TKO_NONE, t->out / c->b->u.boxing.last[!v].kd_damage);
}

/* Step 12 for side i. */
static inline void fatigue(struct round_ctx *c, int i)
{
    struct boxing_fighter *f = &c->b->u.boxing.f[i];
    struct boxing_side_round *l = &c->b->u.boxing.last[i];
    const struct boxing_order *o = &c->o[i];
    /* 1 more with an injured nose. */
    double fat = o->agg - l->rest + (f->inj[INJ_NOSE].level > 0);

    fat += fatigue_cut[o->style == STYLE_CUT] * l->agg;
    int was_up = f->endurance > 0;
    f->endurance -= fat;
    l->fatigue = fat;
    l->endurance = f->endurance;
    f->energy_used = o->agg + o->pow + o->def - l->rest;
    if (was_up && f->endurance <= 0)
        stop_at(&c->stop[i], METHOD_TKO, TKO_FATIGUE, TIME_FATIGUE);
    if (fat > 0)
        events_add(c->evs, EV_FATIGUE, i, 0, 0, 0, fat);
}

/* Step 1 of a round a corner conceded: nothing is fought, only the towel
 * stops each side that threw it in. */
static inline void conceded(struct round_ctx *c)
{
    struct boxing_bout *bb = &c->b->u.boxing;

    for (int i = 0; i < SIDES; i++) {
        bb->last[i].endurance = bb->f[i].endurance;
        if (c->o[i].towel) {
            stop_at(&c->stop[i], METHOD_TKO, TKO_TOWEL, TIME_TOWEL);
            events_add(c->evs, EV_TKO, i, TKO_TOWEL, 0, 0, 0);
        }
    }
}

/* Steps 2-4 and 6: the abilities each side fights the exchange with
 * (sheet -> injuries -> styles -> height -> endurance) into a[], and his
 * DEF_RATE into rate[], kept in `last` too; the styles, reported. Step 6
 * depends on nothing drawn in step 5, so it is worked out here. */
static inline void abilities(struct round_ctx *c, struct boxing_abilities a[SIDES],
                             double rate[SIDES], struct event **cur)
{
    struct boxing_bout *bb = &c->b->u.boxing;
    const struct boxing_order *o = c->o;
    const struct boxing_by_style *t0 = &bb->f[0].by, *t1 = &bb->f[1].by;
    /* Styles are legal here (round_play checked the orders). */
    const struct style_effect *e0 = &style_effects[o[0].style], *e1 = &style_effects[o[1].style];
    int x0 = o[1].style == STYLE_ALLOUT, x1 = o[0].style == STYLE_ALLOUT;
    /* Step 2's AGL sums, as styles() takes them, then step 3's bonus. */
    double dagl0 = 0.0 + t0->agl[e0->agl] - t1->opp_agl[e1->opp_agl];
    double dagl1 = 0.0 - t0->opp_agl[e0->opp_agl] + t1->agl[e1->agl];

    a[0].str = t0->str[e0->str];
    a[0].spd = t0->spd[e0->spd] + t0->h_spd[e0->height][x0];
    a[0].agl = floor1(bb->f[0].pre.agl + dagl0) + t0->h_agl[e0->height][x0];
    a[1].str = t1->str[e1->str];
    a[1].spd = t1->spd[e1->spd] + t1->h_spd[e1->height][x1];
    a[1].agl = floor1(bb->f[1].pre.agl + dagl1) + t1->h_agl[e1->height][x1];
    styles_agg(a, o);
    boxing_scale(&a[0], bb->f[0].endurance, bb->f[0].end_start);
    boxing_scale(&a[1], bb->f[1].endurance, bb->f[1].end_start);
    rate[0] = boxing_def_rate(o[0].def, a[0].agl);
    rate[1] = boxing_def_rate(o[1].def, a[1].agl);
    keep_abilities(&bb->last[0], &a[0], rate[0]);
    keep_abilities(&bb->last[1], &a[1], rate[1]);
    put(cur, EV_STYLE, 0, o[0].style, 0, 0, 0);
    put(cur, EV_STYLE, 1, o[1].style, 0, 0, 0);
}

/* Step 5 for side i: a warning (and maybe a disqualification, in dq[i]) or
 * a foul, and a penalty for holding. */
static inline void warnings(struct round_ctx *c, int i, int dq[SIDES], struct rng *g,
                            struct event **cur)
{
    struct boxing_fighter *f = &c->b->u.boxing.f[i];
    struct boxing_side_round *l = &c->b->u.boxing.last[i];
    const struct boxing_order *o = &c->o[i];

    /* One draw either way: warned for fighting dirty, or an
     * unintentional foul by a clean fighter. */
    if (rng_chance(g, o->dirty ? DIRTY_WARN_CHANCE : FOUL_CHANCE)) {
        f->warnings++;
        if (o->dirty) {
            l->warned = 1;
            put(cur, EV_WARNING, i, f->warnings, 0, 0, 0);
            if (rng_chance(g, boxing_dq_chance(f->warnings))) {
                dq[i] = l->dq = 1;
                put(cur, EV_DQ, i, 0, 0, 0, 0);
            }
        } else {
            l->fouled = 1;
            put(cur, EV_FOUL, i, f->warnings, 0, 0, 0);
        }
    }
    double pc = boxing_clinch_penalty_chance(o);
    if (pc > 0 && rng_chance(g, pc)) {
        l->clinch_penalty = 1;
        put(cur, EV_CLINCH_PENALTY, i, 0, 0, 0, 0);
    }
}

/* Steps 7 and 8: the punches landed and the judges' counts, then the
 * damage each side deals (knockdowns use it before the head/body
 * multiplier), taken off the other's endurance. */
static inline void exchange(struct round_ctx *c, const struct boxing_abilities a[SIDES],
                            const double rate[SIDES], struct rng *g, struct event **cur)
{
    struct boxing_bout *bb = &c->b->u.boxing;
    struct boxing_side_round *last = bb->last;
    const struct boxing_order *o = c->o;

    punches(&last[0], &a[0], rate[1], o[0].target, g);
    punches(&last[1], &a[1], rate[0], o[1].target, g);
    double dam0 = damage(&last[0], &a[0], rate[1], &o[0], &o[1], g);
    double dam1 = damage(&last[1], &a[1], rate[0], &o[1], &o[0], g);
    put(cur, EV_PUNCHES, 0, last[0].thrown, 0, 0, last[0].landed);
    put(cur, EV_PUNCHES, 1, last[1].thrown, 0, 0, last[1].landed);
    put(cur, EV_DAMAGE, 0, 0, 0, 0, dam0);
    put(cur, EV_DAMAGE, 1, 0, 0, 0, dam1);
    bb->f[0].endurance -= dam1;
    bb->f[1].endurance -= dam0;
}

/* Step 11 for side v: a TKO on endurance, and the doctor. */
static inline void stoppages(struct round_ctx *c, int v)
{
    const struct boxing_bout *bb = &c->b->u.boxing;
    const struct boxing_side_round *last = bb->last;

    if (bb->f[v].endurance <= 0) {
        double taken = last[!v].damage + last[v].injury_damage;
        stop_at(&c->stop[v], METHOD_TKO, TKO_ENDURANCE, last[v].end_begin / taken);
    }
    doctor(c, v);
}

/* The judges; the round is scored even when it ends the bout. Every judge
 * takes the same off each for knockdowns, warnings and fouls. */
static inline void judges(struct round_ctx *c)
{
    struct bout *b = c->b;
    struct boxing_bout *bb = &b->u.boxing;
    struct boxing_side_round *last = bb->last;
    int given[SIDES] = {0, 0}; /* judges who gave each the round */
    int off[SIDES] = {last[0].knockdowns + last[0].warned + last[0].fouled,
                      last[1].knockdowns + last[1].warned + last[1].fouled};
    int held = last[0].clinch_penalty | last[1].clinch_penalty;

    for (int j = 0; j < JUDGES; j++) {
        score_card(last, j, off, held);
        int p0 = last[0].cards[j], p1 = last[1].cards[j];
        b->result.cards[j][0] = bb->f[0].cards[j] += p0;
        b->result.cards[j][1] = bb->f[1].cards[j] += p1;
        given[0] += p0 > p1;
        given[1] += p1 > p0;
        events_add(c->evs, EV_CARD, -1, j, p0, p1, 0);
    }
    bb->f[0].rounds_won += given[0] >= 2;
    bb->f[1].rounds_won += given[1] >= 2;
}

/* Steps 2-8 of a fought round, from the outcome stream `outcome`, DQs in
 * dq[]. The figures the exchange is fought with are kept at hand, side by
 * side, rather than read back from `last`: they are the long chain of the
 * round (endurance -> damage -> endurance). */
static inline void fought(struct round_ctx *c, struct rng *outcome, int dq[SIDES])
{
    struct events *evs = c->evs;
    struct boxing_abilities a[SIDES];
    double rate[SIDES];
    /* bout_round cleared the events: steps 2-8 add at most 12 (two
     * styles, three a side of warnings, fouls, DQs and holding, two of
     * punches, two of damage), written through a cursor kept at hand. */
    struct event *cur = evs->ev + evs->n;

    abilities(c, a, rate, &cur); /* steps 2-4 and 6 */
    /* Steps 5, 7 and 8 draw from a copy of the outcome stream that never
     * leaves this function, so the generator's state stays in registers
     * rather than going to memory and back at every draw. */
    struct rng g = *outcome;
    for (int i = 0; i < SIDES; i++)
        warnings(c, i, dq, &g, &cur); /* step 5 */
    exchange(c, a, rate, &g, &cur);   /* steps 7 and 8 */
    *outcome = g;
    evs->n = (int)(cur - evs->ev);
}

/* Steps 10's reports and step 11, with each side's thresholds kdt[]. */
static inline void stopped(struct round_ctx *c, const struct boxing_kd *const kdt[SIDES],
                           struct rng *flavour)
{
    const struct boxing_bout *bb = &c->b->u.boxing;
    const struct boxing_side_round *last = bb->last;

    /* Step 10: knockdowns and knockouts, reported (most rounds have
     * none: one test for those). */
    if (last[0].knockdowns | last[0].ko | last[1].knockdowns | last[1].ko)
        for (int v = 0; v < SIDES; v++)
            report_knockdowns(c, v, kdt[v], flavour);

    /* Step 11: TKO on endurance, and the doctor (who only comes when an
     * injury came or got worse): most rounds, one test. */
    if ((bb->f[0].endurance <= 0) | (bb->f[1].endurance <= 0) | c->hurt[0] | c->hurt[1])
        for (int v = 0; v < SIDES; v++)
            stoppages(c, v);
}

/* One round, step by step (rules.md 1.4). The outcome stream's draws come
 * in the order of the steps, and must: a bout is its seed. */
static void round_resolve(struct bout *b, const struct order ord[SIDES], struct bout_rng *r,
                          struct events *evs)
{
    struct boxing_bout *bb = &b->u.boxing;
    struct boxing_order o[SIDES] = {ord[0].u.boxing, ord[1].u.boxing};
    struct boxing_side_round *last = bb->last;
    struct round_ctx c = {.b = b, .o = o, .rng = &r->outcome, .evs = evs};
    int dq[SIDES] = {0, 0};

    c.round = ++b->round;
    /* A towel leaves every figure of `last` but a few at 0; a fought
     * round sets them all (see below). */
    if (o[0].towel || o[1].towel)
        memset(bb->last, 0, sizeof(bb->last));

    /* Step 10's thresholds, which the round's figures do not change,
     * worked out when the bout began (the divisions are long). */
    const struct boxing_kd *kdt[SIDES] = {&bb->f[0].kd[o[1].target], &bb->f[1].kd[o[0].target]};

    /* Step 1: recovery between rounds. */
    recover(&bb->f[0], &last[0], c.round);
    recover(&bb->f[1], &last[1], c.round);
    last[0].order = o[0];
    last[1].order = o[1];
    if (o[0].towel || o[1].towel) {
        conceded(&c);
        settle(&c, dq);
        return;
    }

    /* A fought round sets every figure of `last` below, in one step or
     * another; these are the ones only set when something happens, or
     * added to. */
    clear_occasional(&last[0]);
    clear_occasional(&last[1]);

    fought(&c, &r->outcome, dq); /* steps 2-8 */

    /* Step 10's counts, worked out before step 9 (and reported after it):
     * they do not depend on the injuries, whose draws the processor often
     * mispredicts, which would hold this work up until they are settled. */
    knockdowns(&last[0], &bb->f[0], last[1].kd_damage, kdt[0]);
    knockdowns(&last[1], &bb->f[1], last[0].kd_damage, kdt[1]);

    /* Step 9: injuries, new and aggravated. */
    for (int v = 0; v < SIDES; v++)
        injuries(&c, v, last[!v].damage);

    stopped(&c, kdt, &r->flavour); /* steps 10 and 11 */

    /* Step 12: fatigue (the cut-off's extra cost is taken here too). */
    fatigue(&c, 0);
    fatigue(&c, 1);
    if (c.stop[0].stopped | c.stop[1].stopped)
        for (int i = 0; i < SIDES; i++)
            if (c.stop[i].stopped && c.stop[i].method == METHOD_TKO)
                events_add(evs, EV_TKO, i, c.stop[i].reason, 0, 0, 0);

    judges(&c);
    /* Most rounds settle nothing: no stoppage, no DQ, not the last. */
    if (c.stop[0].stopped | c.stop[1].stopped | dq[0] | dq[1] | (b->round >= b->rounds))
        settle(&c, dq);
}

/* The ruleset's round_play: the orders checked (inline), the
 * events cleared, the round resolved. */
static int round_play(struct bout *b, const struct order o[SIDES], struct bout_rng *r,
                      struct events *evs)
{
    if (!order_ok(&o[0].u.boxing) || !order_ok(&o[1].u.boxing))
        return -1;
    evs->n = 0;
    evs->dropped = 0;
    round_resolve(b, o, r, evs);
    return 0;
}

/* 2 over two thirds of the starting endurance, 1 over a third, else 0. */
static int condition(double endurance, double end_start)
{
    return endurance * 3 > end_start * 2 ? 2 : endurance * 3 > end_start ? 1 : 0;
}

static int cuts(const struct boxing_fighter *f)
{
    int sum = 0;

    for (int loc = 0; loc < INJ_COUNT; loc++)
        sum += f->inj[loc].level;
    return sum;
}

/* Endurance at the start of the next round: recovered after round 1. */
static double next_endurance(const struct bout *b, const struct boxing_fighter *f)
{
    if (b->round == 0)
        return f->endurance;
    return boxing_recovery(f->end_start, f->endurance, f->energy_used);
}

static void plan_vars(const struct bout *b, int side, struct plan_vars *v)
{
    const struct boxing_fighter *me = &b->u.boxing.f[side], *him = &b->u.boxing.f[!side];
    double mine = next_endurance(b, me), his = next_endurance(b, him);
    int diff = 0;

    for (int j = 0; j < JUDGES; j++)
        diff += me->cards[j] - him->cards[j];
    v->rounds_won = me->rounds_won;
    v->rounds_lost = him->rounds_won;
    v->score = diff / (double)JUDGES;
    v->endurance = mine;
    v->endurance_percent = (int)floor(100 * mine / me->end_start);
    v->opp = condition(his, him->end_start);
    v->my_cuts = cuts(me);
    v->his_cuts = cuts(him);
    v->my_knockdowns = me->knockdowns;
    v->his_knockdowns = him->knockdowns;
    v->warnings = me->warnings;
}

static void order_towel(struct order *o)
{
    order_default(o);
    o->u.boxing.towel = 1;
}

static int order_is_towel(const struct order *o)
{
    return o->u.boxing.towel;
}

static void after_bout(const struct result *res, struct sheet s[SIDES], int points[SIDES])
{
    (void)s;
    for (int i = 0; i < SIDES; i++)
        points[i] = boxing_training_points(res, i);
}

/* A training point raises an ability by one, up to 25. */
static int train(struct sheet *s, int field, struct rng *r)
{
    int v = sheet_field_get(s, field);

    (void)r;
    if (v >= BOXING_ABILITY_MAX)
        return 0;
    sheet_field_set(s, field, v + 1);
    return 1;
}

/* The abilities, 1 to 25 for life (training stops at 25). */
#define ABILITY(k, label)                                                                          \
    {                                                                                              \
#k, label, #k, offsetof(struct sheet, u.boxing.k), BOXING_ABILITY_MIN, BOXING_ABILITY_MAX  \
    }

static const struct ruleset_field fields[] = {
    ABILITY(str, "STR"), ABILITY(spd, "SPD"), ABILITY(agl, "AGL"),
    ABILITY(tgh, "TGH"), ABILITY(hgt, "HGT"),
};

const struct ruleset boxing_ruleset = {
    .name = "boxing",
    .title = "boxing",
    .id = RULES_BOXING,
    .rounds_default = 12,
    .rounds_min = BOXING_ROUNDS_MIN,
    .rounds_max = BOXING_ROUNDS_MAX,
    .sheet_valid = sheet_valid,
    .order_valid = order_valid,
    .order_default = order_default,
    .bout_init = bout_start,
    .round_play = round_play,
    .plan_vars = plan_vars,
    .order_towel = order_towel,
    .order_is_towel = order_is_towel,
    .after_bout = after_bout,
    .fields = fields,
    .nfields = sizeof(fields) / sizeof(fields[0]),
    .field_sep = " ",
    .new_points = 60,
    .new_lo = 5,
    .new_hi = 20,
    .fighter = "boxer",
    .train = train,
    .train_points = 1,
};
