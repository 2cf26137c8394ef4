/*
 * sugarray.c - SUGAR RAY (seed 004): five rounds of attack/defence numbers.
 *
 * Each round: fatigue from 3a + 2d - skill, then a KO check, then the
 * exchange of blows (attack over the opponent's defence costs him twice the
 * difference), then a KO check. Without a KO the greater attack total wins
 * on points; equal totals, or two KOs at once, are a tie.
 */
#include <stddef.h>

#include "engine.h"

static const int fatigue_table[16] = {0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6, 7, 8, 10};

int sugarray_fatigue_loss(int fatigue)
{
    if (fatigue <= 0)
        return 0;
    if (fatigue <= 15)
        return fatigue_table[fatigue];
    return 2 * (fatigue - 10);
}

static int sheet_valid(const struct sheet *s)
{
    const struct sugarray_sheet *sh = &s->u.sugarray;

    return sh->skill >= 1 && sh->skill <= 99 && sh->endurance >= 1 && sh->endurance <= 999 ? 0 : -1;
}

static int order_valid(const struct order *o)
{
    const struct sugarray_order *so = &o->u.sugarray;

    return so->attack >= 0 && so->attack <= SUGARRAY_ORDER_MAX && so->defence >= 0 &&
                   so->defence <= SUGARRAY_ORDER_MAX && (so->towel == 0 || so->towel == 1)
               ? 0
               : -1;
}

static void order_default(struct order *o)
{
    o->rules = RULES_SUGARRAY;
    o->u.sugarray.attack = 0;
    o->u.sugarray.defence = 0;
    o->u.sugarray.towel = 0;
}

static void bout_start(struct bout *b, const struct sheet s[SIDES], int rounds)
{
    struct sugarray_bout *sb = &b->u.sugarray;

    (void)rounds;
    for (int i = 0; i < SIDES; i++) {
        sb->sheet[i] = s[i].u.sugarray;
        sb->endurance[i] = s[i].u.sugarray.endurance;
    }
}

/* Ends the bout if a boxer is below 1 endurance; returns 1 if it did. */
static int knockout_check(struct bout *b, struct events *evs)
{
    struct sugarray_bout *sb = &b->u.sugarray;
    int down0 = sb->endurance[0] < 1, down1 = sb->endurance[1] < 1;

    if (!down0 && !down1)
        return 0;
    for (int i = 0; i < SIDES; i++)
        if (sb->endurance[i] < 1)
            events_add(evs, EV_KO, i, 0, 0, 0, 0);
    b->result.over = 1;
    b->result.round = b->round;
    if (down0 && down1) {
        b->result.winner = -1;
        b->result.method = METHOD_DRAW;
        b->result.drawn_by = METHOD_KO;
    } else {
        b->result.winner = down0 ? 1 : 0;
        b->result.method = METHOD_KO;
    }
    return 1;
}

static void round_resolve(struct bout *b, const struct order o[SIDES], struct bout_rng *r,
                          struct events *evs)
{
    struct sugarray_bout *sb = &b->u.sugarray;
    int idx = b->round;

    (void)r;
    b->round++;
    if (o[0].u.sugarray.towel || o[1].u.sugarray.towel) {
        /* A forfeit: no round is fought; conceding both ways is a tie. */
        int t0 = o[0].u.sugarray.towel, t1 = o[1].u.sugarray.towel;
        for (int i = 0; i < SIDES; i++) {
            sb->orders[idx][i] = (struct sugarray_order){0, 0, o[i].u.sugarray.towel};
            sb->end_after[idx][i] = sb->endurance[i];
            if (o[i].u.sugarray.towel)
                events_add(evs, EV_TKO, i, TKO_TOWEL, 0, 0, 0);
        }
        b->result.over = 1;
        b->result.round = b->round;
        b->result.reason = TKO_TOWEL;
        if (t0 && t1) {
            b->result.winner = -1;
            b->result.method = METHOD_DRAW;
            b->result.drawn_by = METHOD_TKO;
        } else {
            b->result.winner = t0 ? 1 : 0;
            b->result.method = METHOD_TKO;
        }
        events_add(evs, EV_RESULT, b->result.winner, b->result.method, TKO_TOWEL, 0, 0);
        return;
    }
    for (int i = 0; i < SIDES; i++) {
        const struct sugarray_order *so = &o[i].u.sugarray;
        int loss = sugarray_fatigue_loss(3 * so->attack + 2 * so->defence - sb->sheet[i].skill);

        sb->orders[idx][i] = *so;
        sb->attack_total[i] += so->attack;
        sb->endurance[i] -= loss;
        if (loss > 0)
            events_add(evs, EV_FATIGUE, i, 0, 0, 0, loss);
    }
    if (!knockout_check(b, evs)) {
        int lost[SIDES];

        for (int i = 0; i < SIDES; i++) {
            int diff = o[i].u.sugarray.attack - o[!i].u.sugarray.defence;
            lost[!i] = diff > 0 ? 2 * diff : 0;
        }
        for (int i = 0; i < SIDES; i++) {
            sb->endurance[i] -= lost[i];
            if (lost[i] > 0)
                events_add(evs, EV_BLOW, !i, lost[i], 0, 0, 0);
        }
        knockout_check(b, evs);
    }
    for (int i = 0; i < SIDES; i++)
        sb->end_after[idx][i] = sb->endurance[i];

    if (!b->result.over && b->round == b->rounds) {
        b->result.over = 1;
        b->result.round = b->round;
        if (sb->attack_total[0] == sb->attack_total[1]) {
            b->result.winner = -1;
            b->result.method = METHOD_DRAW;
            b->result.drawn_by = METHOD_POINTS;
        } else {
            b->result.winner = sb->attack_total[0] > sb->attack_total[1] ? 0 : 1;
            b->result.method = METHOD_POINTS;
        }
    }
    if (b->result.over)
        events_add(evs, EV_RESULT, b->result.winner, b->result.method, 0, 0, 0);
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

void sugarray_after_bout(struct sugarray_sheet s[SIDES], const struct result *res)
{
    /* Endurance in the sheet is the initial one: restoring it is a no-op
     * here, only the changes below touch the sheets. */
    if (!res->over || res->winner < 0)
        return;
    int w = res->winner, l = !res->winner;
    if (res->method == METHOD_KO) {
        s[w].skill++;
        if (s[l].skill > 1)
            s[l].skill--;
    } else if (res->method == METHOD_POINTS) {
        s[w].endurance++;
        if (s[l].endurance > 1)
            s[l].endurance--;
    }
}

int sugarray_train(struct sugarray_sheet *s, enum sugarray_training t, struct rng *r)
{
    if (t == TRAIN_SKILL) {
        s->skill++;
        return 1;
    }
    int gain = rng_range(r, 1, 5);
    s->endurance += gain;
    return gain;
}

static void plan_vars(const struct bout *b, int side, struct plan_vars *v)
{
    const struct sugarray_bout *sb = &b->u.sugarray;
    int mine = sb->endurance[side], his = sb->endurance[!side];
    int his_start = sb->sheet[!side].endurance;

    v->score = sb->attack_total[side] - sb->attack_total[!side];
    v->endurance = mine;
    v->endurance_percent = mine * 100 / sb->sheet[side].endurance;
    v->opp = his * 3 > his_start * 2 ? 2 : his * 3 > his_start ? 1 : 0;
}

static void order_towel(struct order *o)
{
    order_default(o);
    o->u.sugarray.towel = 1;
}

static int order_is_towel(const struct order *o)
{
    return o->u.sugarray.towel;
}

static void after_bout(const struct result *res, struct sheet s[SIDES], int points[SIDES])
{
    struct sugarray_sheet sh[SIDES] = {s[0].u.sugarray, s[1].u.sugarray};

    sugarray_after_bout(sh, res);
    for (int i = 0; i < SIDES; i++) {
        s[i].u.sugarray = sh[i];
        points[i] = 0;
    }
}

/* Field 0 is skill, 1 endurance (the order of `fields`). */
static int train(struct sheet *s, int field, struct rng *r)
{
    return sugarray_train(&s->u.sugarray, field == 0 ? TRAIN_SKILL : TRAIN_ENDURANCE, r);
}

/* Every new boxer starts the same (seed 004). */
static const struct sheet start = {.rules = RULES_SUGARRAY, .u.sugarray = {10, 20}};

/* No ceiling: bouts and training raise skill and endurance without one;
 * an admin may set them up to these. */
static const struct ruleset_field fields[] = {
    {"skill", "skill", "skill", offsetof(struct sheet, u.sugarray.skill), 1, 99},
    {"end", "endurance", "endurance", offsetof(struct sheet, u.sugarray.endurance), 1, 999},
};

const struct ruleset sugarray_ruleset = {
    .name = "sugarray",
    .title = "SUGAR RAY",
    .id = RULES_SUGARRAY,
    .rounds_default = SUGARRAY_ROUNDS,
    .rounds_min = 1,
    .rounds_max = SUGARRAY_ROUNDS,
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
    .field_sep = ", ",
    .rounds_fixed = 1,
    .turn_training = 1,
    .start = &start,
    .fighter = "boxer",
    .train = train,
};
