/*
 * ruleset.c - the table of rulesets and the generic bout driver.
 *
 * bout_init and bout_round check what they are given against the ruleset
 * before any state changes, so a bad sheet or order never half-applies.
 */
#include <stddef.h>
#include <string.h>

#include "engine.h"

#define RULESET(name, NAME) extern const struct ruleset name##_ruleset;
#include "rulesets.h"
#undef RULESET

static const struct ruleset *const rulesets[RULES_COUNT] = {
#define RULESET(name, NAME) [RULES_##NAME] = &name##_ruleset,
#include "rulesets.h"
#undef RULESET
};

const struct ruleset *ruleset_get(enum rules id)
{
    if ((int)id < 0 || id >= RULES_COUNT)
        return NULL;
    return rulesets[id];
}

const struct ruleset *ruleset_find(const char *name)
{
    for (int i = 0; i < RULES_COUNT; i++)
        if (strcmp(rulesets[i]->name, name) == 0)
            return rulesets[i];
    return NULL;
}

/* The external definition of events_add, which engine.h defines inline. */
extern inline void events_add(struct events *evs, enum event_type type, int side, int a, int b,
                              int c, double x);

int bout_init(struct bout *b, enum rules rules, const struct sheet s[SIDES], int rounds)
{
    const struct ruleset *rs = ruleset_get(rules);

    if (!rs)
        return -1;
    if (rounds == 0)
        rounds = rs->rounds_default;
    if (rounds < rs->rounds_min || rounds > rs->rounds_max)
        return -1;
    for (int i = 0; i < SIDES; i++)
        if (s[i].rules != rules || rs->sheet_valid(&s[i]) != 0)
            return -1;
    memset(b, 0, sizeof(*b));
    b->rules = rules;
    b->rounds = rounds;
    b->result.winner = -1;
    rs->bout_init(b, s, rounds);
    return 0;
}

int bout_round(struct bout *b, const struct order o[SIDES], struct bout_rng *r, struct events *evs)
{
    const struct ruleset *rs = ruleset_get(b->rules);

    if (!rs || b->result.over || b->round >= b->rounds)
        return -1;
    if (o[0].rules != b->rules || o[1].rules != b->rules)
        return -1;
    return rs->round_play(b, o, r, evs);
}

void bout_plan_vars(const struct bout *b, int side, struct plan_vars *v)
{
    memset(v, 0, sizeof(*v));
    v->round = b->round + 1;
    ruleset_get(b->rules)->plan_vars(b, side, v);
}

/* The int of field `i` in sheet `s`: the fields name their offsets in
 * struct sheet, so this is the one place that reads a sheet generically. */
static int *field_at(const struct sheet *s, int i)
{
    const struct ruleset *rs = ruleset_get(s->rules);

    return (int *)(void *)((char *)(void *)s + rs->fields[i].offset);
}

int sheet_field_get(const struct sheet *s, int i)
{
    return *field_at(s, i);
}

void sheet_field_set(struct sheet *s, int i, int value)
{
    *field_at(s, i) = value;
}

const char *decision_name(enum decision d)
{
    switch (d) {
    case DECISION_UNANIMOUS:
        return "unanimous";
    case DECISION_SPLIT:
        return "split";
    case DECISION_MAJORITY:
        return "majority";
    default:
        return NULL;
    }
}

void sheet_kit_get(const struct sheet *s, int slot, int *item, int *cond)
{
    const struct ruleset *rs = ruleset_get(s->rules);
    const char *base = (const char *)(const void *)s;

    *item = ((const int *)(const void *)(base + rs->kit_item))[slot];
    *cond = ((const int *)(const void *)(base + rs->kit_cond))[slot];
}

void sheet_kit_set(struct sheet *s, int slot, int item, int cond)
{
    const struct ruleset *rs = ruleset_get(s->rules);
    char *base = (char *)(void *)s;

    ((int *)(void *)(base + rs->kit_item))[slot] = item;
    ((int *)(void *)(base + rs->kit_cond))[slot] = cond;
}
