/*
 * fuzz_sheet.c - libFuzzer harness for sheet_parse and sheet_parse_new.
 *
 * For every input and both rulesets: an accepted sheet must be legal for the
 * engine (the ruleset's sheet_valid and the documented limits); a rejected
 * one must come with a column inside the text (or 0) and a non-empty reason.
 * Any breach aborts, which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

/* The limits of rules.md, checked independently of the engine. */
static int sheet_in_limits(const struct sheet *s)
{
    const struct boxing_sheet *b = &s->u.boxing;
    const int v[5] = {b->str, b->spd, b->agl, b->tgh, b->hgt};

    if (s->rules == RULES_DUEL) {
        const struct duel_sheet *d = &s->u.duel;
        const int ab[4] = {d->str, d->dex, d->con, d->intel};
        for (int i = 0; i < 4; i++)
            if (ab[i] < 1 || ab[i] > 23)
                return 0;
        /* Every item within the STR it needs, chainmail only under leather. */
        if (d->item[DUEL_WEAPON] && duel_weapon_info(d->item[DUEL_WEAPON])->str > d->str)
            return 0;
        for (int k = DUEL_HEAD; k < DUEL_SLOTS; k++)
            if (d->item[k] && duel_armour_info(d->item[k])->str > d->str)
                return 0;
        return !d->item[DUEL_UNDER] ||
               (d->item[DUEL_UNDER] == DUEL_CHAINMAIL && d->item[DUEL_TORSO] == DUEL_LEATHER);
    }
    if (s->rules == RULES_SUGARRAY)
        return s->u.sugarray.skill >= 1 && s->u.sugarray.skill <= 99 &&
               s->u.sugarray.endurance >= 1 && s->u.sugarray.endurance <= 999;
    for (int i = 0; i < 5; i++)
        if (v[i] < BOXING_ABILITY_MIN || v[i] > BOXING_ABILITY_MAX)
            return 0;
    return 1;
}

static void sheet_check(enum rules rules, const char *text, size_t textlen)
{
    struct sheet s;
    struct parse_error err;
    char buf[PARSE_REASON_MAX + 32];

    memset(&err, 0, sizeof(err));
    if (sheet_parse(rules, text, &s, &err) != 0) {
        size_t n = strnlen(err.reason, PARSE_REASON_MAX);
        check(n > 0 && n < PARSE_REASON_MAX);
        check(err.column >= 0 && (size_t)err.column <= textlen + 1);
        int len = parse_error_format(&err, buf, sizeof(buf));
        check(len > 0 && (size_t)len == strlen(buf));
        return;
    }
    check(s.rules == rules);
    check(ruleset_get(rules)->sheet_valid(&s) == 0);
    check(sheet_in_limits(&s));
}

/* sheet_parse_new: what it accepts, sheet_parse accepts alike, each
 * ability within a new fighter's bounds; what it refuses comes with a
 * reason that fits whole (the rule and its example are not cut). */
static void sheet_new_check(enum rules rules, const char *text)
{
    const struct ruleset *rs = ruleset_get(rules);
    struct sheet s, t;
    struct parse_error err;

    memset(&err, 0, sizeof(err));
    if (sheet_parse_new(rules, text, &s, &err) != 0) {
        size_t n = strnlen(err.reason, PARSE_REASON_MAX);
        check(n > 0 && n < PARSE_REASON_MAX - 1);
        return;
    }
    check(sheet_parse(rules, text, &t, NULL) == 0 && memcmp(&s, &t, sizeof(s)) == 0);
    for (int k = 0; !rs->start && k < rs->nfields; k++)
        check(sheet_field_get(&s, k) >= rs->new_lo && sheet_field_get(&s, k) <= rs->new_hi);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);

    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    for (int r = 0; r < RULES_COUNT; r++) {
        sheet_check((enum rules)r, text, strlen(text));
        sheet_new_check((enum rules)r, text);
    }
    free(text);
    return 0;
}
