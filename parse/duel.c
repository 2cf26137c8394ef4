/*
 * duel.c - the duel grammar: a duellist's sheet (str, dex, con, int, each
 * 1..23) with his equipment, the equipment alone (the armoury's `equip`),
 * and the duel's only orders, "fight" and "yield".
 *
 * A sheet is whitespace-separated key=value pairs, read left to right, the
 * first bad one reported with its column; the abilities must all be given,
 * the equipment slots may be:
 *   weapon=longsword head=plate torso=chainmail+leather legs=leather
 *   feet=leather shield=leather
 * An item may carry its condition in percent after a colon (longsword:87.5,
 * up to four decimals; a new piece is 100). torso= takes one piece, or
 * chainmail and leather joined by '+' in either order: the chainmail is worn
 * under the leather. Names are case-insensitive; words of a weapon's name
 * may be joined by '_', '-' or nothing (war_hammer, war-hammer, warhammer).
 * Every item needs STR at least its requirement; the error says which.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "parse_internal.h"
#include "util.h"

#define DUEL_KEYS "str, dex, con and int"
#define DUEL_KIT  "weapon, head, torso, legs, feet and shield"

/* 1 if the n bytes at s spell `word` in any case, ignoring '_' and '-' in
 * both. */
static int name_is(const char *s, size_t n, const char *word)
{
    size_t i = 0;

    for (;;) {
        while (i < n && (s[i] == '_' || s[i] == '-'))
            i++;
        while (*word == '_' || *word == '-')
            word++;
        if (i == n || *word == '\0')
            break;
        if (parse_lower(s[i]) != *word)
            return 0;
        i++;
        word++;
    }
    return i == n && *word == '\0';
}

int duel_weapon_find(const char *s, size_t n)
{
    for (int w = DUEL_FISTS + 1; w < DUEL_WEAPONS; w++)
        if (name_is(s, n, duel_weapon_info(w)->name))
            return w;
    if (name_is(s, n, "punisher"))
        return DUEL_PUNISHER;
    if (name_is(s, n, "long_sword"))
        return DUEL_LONGSWORD;
    return -1;
}

int duel_material_find(const char *s, size_t n)
{
    for (int m = DUEL_LEATHER; m < DUEL_MATERIALS; m++)
        if (name_is(s, n, duel_armour_info(m)->name))
            return m;
    if (name_is(s, n, "chain"))
        return DUEL_CHAINMAIL;
    return -1;
}

int duel_slot_find(const char *s, size_t n)
{
    for (int k = 0; k < DUEL_SLOTS; k++)
        if (k != DUEL_UNDER && name_is(s, n, duel_slot_name(k)))
            return k;
    if (name_is(s, n, "armour") || name_is(s, n, "armor") || name_is(s, n, "body"))
        return DUEL_TORSO;
    return -1;
}

/* ---------------------------------------------------------- suggestions */

#define NEAR_MAX 32 /* longest word compared; longer ones get no suggestion */

/* The letters and digits of the n bytes at s, lower case, into out
 * (NEAR_MAX + 1 bytes); its length. */
static size_t near_fold(const char *s, size_t n, char *out)
{
    size_t k = 0;

    for (size_t i = 0; i < n && k < NEAR_MAX; i++)
        if (s[i] != '_' && s[i] != '-' && s[i] != ' ')
            out[k++] = parse_lower(s[i]);
    out[k] = '\0';
    return k;
}

/* The edit distance (insert, delete, change) between a and b, each at most
 * NEAR_MAX bytes. */
static int near_distance(const char *a, size_t na, const char *b, size_t nb)
{
    int row[NEAR_MAX + 1];

    for (size_t j = 0; j <= nb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
}

/* How far the folded word w (n bytes) is from piece name `name`: 0 when
 * one holds the other (three letters at least), else the edit distance to
 * the whole name or to its nearest part ("hamer" is 1 from war_hammer). */
static int near_score(const char *w, size_t n, const char *name)
{
    char whole[NEAR_MAX + 1];
    size_t nw = near_fold(name, strlen(name), whole);

    if (n >= 3 && (strstr(whole, w) || (nw >= 3 && strstr(w, whole))))
        return 0;
    int best = near_distance(w, n, whole, nw);
    for (const char *p = name; *p;) {
        size_t len = strcspn(p, "_");
        char part[NEAR_MAX + 1];
        size_t np = near_fold(p, len, part);
        int d = near_distance(w, n, part, np);
        if (d < best)
            best = d;
        p += len;
        p += *p == '_';
    }
    return best;
}

int duel_suggest(const char *s, size_t n, int what, char *buf, size_t len)
{
    const char *names[DUEL_WEAPONS + DUEL_MATERIALS];
    int score[DUEL_WEAPONS + DUEL_MATERIALS], count = 0, best = INT_MAX, shown = 0;
    char w[NEAR_MAX + 1];
    size_t nw = near_fold(s, n, w);

    if (len)
        buf[0] = '\0';
    if (nw == 0 || n > NEAR_MAX)
        return 0;
    for (int i = DUEL_FISTS + 1; (what & DUEL_SUGGEST_WEAPON) && i < DUEL_WEAPONS; i++)
        names[count++] = duel_weapon_info(i)->name;
    for (int i = DUEL_LEATHER; (what & DUEL_SUGGEST_ARMOUR) && i < DUEL_MATERIALS; i++)
        names[count++] = duel_armour_info(i)->name;
    for (int i = 0; i < count; i++) {
        score[i] = near_score(w, nw, names[i]);
        if (score[i] < best)
            best = score[i];
    }
    if (best > (nw >= 5 ? 2 : 1))
        return 0;
    int ties = 0;
    for (int i = 0; i < count; i++)
        ties += score[i] == best;
    for (int i = 0, k = 0; i < count && len; i++) {
        if (score[i] != best || shown == 3)
            continue;
        size_t at = strlen(buf);
        k++;
        snprintf(buf + at, len - at, "%s%s",
                 k == 1                ? ""
                 : k == ties || k == 3 ? " or "
                                       : ", ",
                 names[i]);
        shown++;
    }
    return shown;
}

/* Reads a condition "N" or "N.NNNN" (percent, above 0, at most 100) from the
 * n bytes at s into *cond (millionths). Returns 0 or -1. */
static int cond_read(const char *s, size_t n, int *cond)
{
    long whole = 0, frac = 0;
    int digits = 0, fdigits = 0;
    size_t i = 0;

    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++)
        if (whole <= 100)
            whole = whole * 10 + (s[i] - '0');
    if (i < n && s[i] == '.') {
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, fdigits++)
            if (fdigits < 4)
                frac = frac * 10 + (s[i] - '0');
            else if (s[i] != '0')
                return -1;
        if (fdigits == 0)
            return -1;
    }
    if (i != n || digits == 0)
        return -1;
    for (int k = fdigits < 4 ? fdigits : 4; k < 4; k++)
        frac *= 10;
    long c = whole * 10000 + frac;
    if (c < 1 || c > DUEL_COND_FULL)
        return -1;
    *cond = (int)c;
    return 0;
}

/* Reads one item "name[:cond]" (the n bytes at s, at byte `off` of the
 * text) for slot `slot` into *item and *cond. Returns 0, or -1 with *err. */
static int item_read(int slot, const char *s, size_t n, size_t off, int *item, int *cond,
                     struct parse_error *err)
{
    const char *colon = memchr(s, ':', n);
    size_t nn = colon ? (size_t)(colon - s) : n;
    char q[PARSE_QUOTE_MAX + 4], near[64];

    parse_quote(s, nn, PARSE_QUOTE_MAX, PARSE_QUOTE_MAX, q);
    if (nn == 0)
        return parse_fail(err, 0, parse_column(off), "%s= has no item; e.g. %s",
                          duel_slot_name(slot),
                          slot == DUEL_WEAPON ? "weapon=longsword" : "head=leather");
    if (slot == DUEL_WEAPON) {
        *item = duel_weapon_find(s, nn);
        if (*item < 0 && duel_suggest(s, nn, DUEL_SUGGEST_WEAPON, near, sizeof(near)))
            return parse_fail(err, 0, parse_column(off),
                              "\"%s\" is no weapon; did you mean %s? (armoury lists them)", q,
                              near);
        if (*item < 0)
            return parse_fail(err, 0, parse_column(off),
                              "\"%s\" is no weapon; the armoury has knife, short_sword, "
                              "longsword, scimitar, mace, war_hammer, war_axe, halberd, "
                              "the_punisher",
                              q);
    } else {
        *item = duel_material_find(s, nn);
        if (*item < 0 && duel_suggest(s, nn, DUEL_SUGGEST_ARMOUR, near, sizeof(near)))
            return parse_fail(err, 0, parse_column(off),
                              "\"%s\" is no armour; did you mean %s? %s= takes leather, "
                              "chainmail or plate",
                              q, near, duel_slot_name(slot));
        if (*item < 0)
            return parse_fail(err, 0, parse_column(off),
                              "\"%s\" is no armour; %s= takes leather, chainmail or plate", q,
                              duel_slot_name(slot));
    }
    *cond = DUEL_COND_FULL;
    if (colon && cond_read(colon + 1, n - nn - 1, cond) != 0) {
        parse_quote(colon + 1, n - nn - 1, PARSE_QUOTE_MAX, PARSE_QUOTE_MAX, q);
        return parse_fail(err, 0, parse_column(off + nn + 1),
                          "condition \"%s\" is not a percent above 0 and at most 100 (up to 4 "
                          "decimals), e.g. :87.5",
                          q);
    }
    return 0;
}

/* Reads the value of slot `slot` (the n bytes at s, at byte `off`) into
 * item[]/cond[]. torso= may be "chainmail+leather" (either order). */
static int slot_read(int slot, const char *s, size_t n, size_t off, struct duel_sheet *sh,
                     struct parse_error *err)
{
    const char *plus = memchr(s, '+', n);

    if (!plus)
        return item_read(slot, s, n, off, &sh->item[slot], &sh->cond[slot], err);
    if (slot != DUEL_TORSO)
        return parse_fail(err, 0, parse_column(off + (size_t)(plus - s)),
                          "only torso= takes two pieces (chainmail+leather); %s= takes one",
                          duel_slot_name(slot));
    size_t n1 = (size_t)(plus - s);
    int it[2], cd[2];
    if (item_read(DUEL_TORSO, s, n1, off, &it[0], &cd[0], err) != 0 ||
        item_read(DUEL_TORSO, plus + 1, n - n1 - 1, off + n1 + 1, &it[1], &cd[1], err) != 0)
        return -1;
    int c = it[0] == DUEL_CHAINMAIL ? 0 : 1;
    if (it[c] != DUEL_CHAINMAIL || it[!c] != DUEL_LEATHER)
        return parse_fail(err, 0, parse_column(off),
                          "only a chainmail torso may go under a leather one: write "
                          "torso=chainmail+leather");
    sh->item[DUEL_TORSO] = DUEL_LEATHER;
    sh->cond[DUEL_TORSO] = cd[!c];
    sh->item[DUEL_UNDER] = DUEL_CHAINMAIL;
    sh->cond[DUEL_UNDER] = cd[c];
    return 0;
}

/* The STR an item needs. */
static int item_str(int slot, int item)
{
    return slot == DUEL_WEAPON ? duel_weapon_info(item)->str : duel_armour_info(item)->str;
}

/* The name of an item as the grammar writes it. */
static const char *item_name(int slot, int item)
{
    return slot == DUEL_WEAPON ? duel_weapon_info(item)->name : duel_armour_info(item)->name;
}

static const char *const ability_keys[4] = {"str", "dex", "con", "int"};

/* The ability the key of `klen` bytes at p names (0..3, in ability_keys'
 * order; "intel" is "int"), or -1. */
static int ability_find(const char *p, size_t klen)
{
    for (int k = 0; k < 4; k++)
        if (name_is(p, klen, ability_keys[k]) || (k == 3 && name_is(p, klen, "intel")))
            return k;
    return -1;
}

/* Reads the value of ability `k`, the vlen bytes at v (at byte `off` of
 * the text), into *val, within *b when b is not NULL. Returns 0, or -1
 * after filling *err. */
static int ability_read(int k, const char *v, size_t vlen, size_t off, const struct sheet_bounds *b,
                        int *val, struct parse_error *err)
{
    return sheet_value_read(ability_keys[k], v, vlen, off, DUEL_ABILITY_MIN, DUEL_ABILITY_MAX, 14,
                            b, val, err);
}

/* What tokens_read reads into, and what it has seen. */
struct tokens {
    int abilities;                /* abilities are read too, not only slots */
    const struct sheet_bounds *b; /* theirs, or NULL: the sheet's own */
    int *ab;                      /* [4] */
    int seen[4];
    struct duel_sheet *sh;
    int *given; /* [DUEL_SLOTS] */
};

/* Reads one token "key=value", the n bytes at p (at byte `off` of the
 * text). Returns 0, or -1 after filling *err. */
static int token_read(struct tokens *t, const char *p, size_t n, size_t off,
                      struct parse_error *err)
{
    const char *eq = memchr(p, '=', n);
    char q[PARSE_QUOTE_MAX + 4];

    if (!eq || eq == p) {
        parse_quote(p, n, PARSE_QUOTE_MAX, PARSE_QUOTE_MAX, q);
        return parse_fail(err, 0, parse_column(off),
                          t->abilities ? "expected key=value, e.g. str=14 or weapon=longsword; "
                                         "got \"%s\""
                                       : "expected slot=item, e.g. weapon=longsword or "
                                         "head=plate; got \"%s\"",
                          q);
    }
    size_t klen = (size_t)(eq - p), vlen = n - klen - 1;
    int k = t->abilities ? ability_find(p, klen) : -1, slot = duel_slot_find(p, klen);
    if (k >= 0) {
        if (t->seen[k])
            return parse_fail(err, 0, parse_column(off), "%s= given twice; give each key once",
                              ability_keys[k]);
        if (ability_read(k, eq + 1, vlen, off + klen + 1, t->b, &t->ab[k], err) != 0)
            return -1;
        t->seen[k] = 1;
        return 0;
    }
    if (slot >= 0) {
        if (t->given[slot])
            return parse_fail(err, 0, parse_column(off), "%s= given twice; give each slot once",
                              duel_slot_name(slot));
        if (slot_read(slot, eq + 1, vlen, off + klen + 1, t->sh, err) != 0)
            return -1;
        t->given[slot] = 1;
        return 0;
    }
    parse_quote(p, klen, PARSE_QUOTE_MAX, PARSE_QUOTE_MAX, q);
    return parse_fail(err, 0, parse_column(off),
                      t->abilities ? "unknown key \"%s\"; a duel sheet has " DUEL_KEYS
                                     ", and may have " DUEL_KIT
                                   : "unknown slot \"%s\"; the slots are " DUEL_KIT,
                      q);
}

/* Reads "key=value" tokens: abilities when `abilities` (values into ab[],
 * each required, within *b when b is not NULL), and equipment slots (into
 * *sh, given[] marked). */
static int tokens_read(const char *text, int abilities, const struct sheet_bounds *b, int ab[4],
                       struct duel_sheet *sh, int given[DUEL_SLOTS], struct parse_error *err)
{
    struct tokens t = {.abilities = abilities, .b = b, .ab = ab, .sh = sh, .given = given};
    const char *p = text;

    for (;;) {
        while (parse_is_space(*p))
            p++;
        if (*p == '\0')
            break;
        size_t n = parse_token_length(p);
        if (token_read(&t, p, n, (size_t)(p - text), err) != 0)
            return -1;
        p += n;
    }
    for (int k = 0; abilities && k < 4; k++)
        if (!t.seen[k])
            return parse_fail(err, 0, 0,
                              parse_blank(text)
                                  ? "empty sheet; write e.g. str=18 dex=14 con=14 int=10 "
                                    "weapon=longsword"
                                  : "missing %s=; a duel sheet needs " DUEL_KEYS,
                              ability_keys[k]);
    return 0;
}

/* Checks the STR each given item needs against `str`. */
static int str_check(const struct duel_sheet *sh, const int given[DUEL_SLOTS], int str,
                     struct parse_error *err)
{
    for (int k = 0; k < DUEL_SLOTS; k++) {
        int it = sh->item[k];

        if (!given[k] || it == 0 || item_str(k, it) <= str)
            continue;
        return parse_fail(err, 0, 0, "%s=%s needs STR %d, and STR is %d",
                          duel_slot_name(k == DUEL_UNDER ? DUEL_TORSO : k), item_name(k, it),
                          item_str(k, it), str);
    }
    return 0;
}

static int duel_sheet_parse(const char *text, const struct sheet_bounds *b, struct sheet *s,
                            struct parse_error *err)
{
    struct duel_sheet *sh = &s->u.duel;
    int ab[4] = {0, 0, 0, 0}, given[DUEL_SLOTS] = {0};

    if (tokens_read(text, 1, b, ab, sh, given, err) != 0)
        return -1;
    sh->str = ab[0];
    sh->dex = ab[1];
    sh->con = ab[2];
    sh->intel = ab[3];
    given[DUEL_UNDER] = given[DUEL_TORSO];
    return str_check(sh, given, sh->str, err);
}

int duel_kit_parse(const char *text, int str, struct duel_sheet *kit, int given[DUEL_SLOTS],
                   struct parse_error *err)
{
    struct duel_sheet tmp;
    int g[DUEL_SLOTS] = {0};

    memset(&tmp, 0, sizeof(tmp));
    if (parse_blank(text))
        return parse_fail(err, 0, 0,
                          "no equipment given; write slot=item, e.g. weapon=longsword "
                          "head=plate torso=chainmail+leather");
    if (tokens_read(text, 0, NULL, NULL, &tmp, g, err) != 0)
        return -1;
    g[DUEL_UNDER] = g[DUEL_TORSO];
    if (str_check(&tmp, g, str, err) != 0)
        return -1;
    for (int k = 0; k < DUEL_SLOTS; k++)
        if (g[k]) {
            kit->item[k] = tmp.item[k];
            kit->cond[k] = tmp.cond[k];
        }
    memcpy(given, g, sizeof(g));
    return 0;
}

/* A condition in millionths as percent, up to four decimals, no trailing
 * zeros: "100", "98.75". */
static void cond_text(int cond, char out[16])
{
    int n = snprintf(out, 16, "%d.%04d", cond / 10000, cond % 10000);

    while (n > 0 && out[n - 1] == '0')
        out[--n] = '\0';
    if (n > 0 && out[n - 1] == '.')
        out[--n] = '\0';
}

int duel_kit_format(const struct duel_sheet *s, char *buf, size_t len)
{
    static const int order[] = {DUEL_WEAPON, DUEL_HEAD, DUEL_TORSO,
                                DUEL_LEGS,   DUEL_FEET, DUEL_SHIELD};
    struct str t;
    char spare[1];

    /* len 0: nothing is written, the text is only counted. */
    str_init_fixed(&t, len ? buf : spare, len ? len : 1);
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
        int k = order[i], it = s->item[k];
        char cond[16];

        if (it == 0)
            continue;
        if (t.need)
            str_ch(&t, ' ');
        cond_text(s->cond[k], cond);
        if (k == DUEL_TORSO && s->item[DUEL_UNDER]) {
            char under[16];
            cond_text(s->cond[DUEL_UNDER], under);
            str_add(&t, "torso=chainmail:%s+%s:%s", under, item_name(k, it), cond);
        } else {
            str_add(&t, "%s=%s:%s", duel_slot_name(k), item_name(k, it), cond);
        }
    }
    return t.need > (size_t)INT_MAX ? INT_MAX : (int)t.need;
}

/* ------------------------------------------------------------- orders */

static int duel_order_parse(const char *text, struct order *o, struct parse_error *err)
{
    const char *p = text;
    char q[PARSE_QUOTE_MAX + 4];

    while (parse_is_space(*p))
        p++;
    size_t n = parse_token_length(p), end = (size_t)(p - text) + n;
    while (parse_is_space(text[end]))
        end++;
    if (n == 0)
        return parse_fail(err, 0, 0, "empty order; a duel fights itself: write fight or yield");
    if (text[end] != '\0') {
        parse_quote(text + end, parse_token_length(text + end), PARSE_QUOTE_MAX, PARSE_QUOTE_MAX,
                    q);
        return parse_fail(err, 0, parse_column(end), "unexpected \"%s\"; write fight or yield", q);
    }
    if (name_is(p, n, "fight")) {
        o->u.duel.yield = 0;
        return 0;
    }
    if (name_is(p, n, "yield")) {
        o->u.duel.yield = 1;
        return 0;
    }
    parse_quote(p, n, PARSE_QUOTE_MAX, PARSE_QUOTE_MAX, q);
    return parse_fail(err, 0, parse_column((size_t)(p - text)),
                      "\"%s\" is no duel order; a duel fights itself: write fight or yield", q);
}

static int duel_order_format(const struct order *o, char *buf, size_t len)
{
    return snprintf(buf, len, "%s", o->u.duel.yield ? "yield" : "fight");
}

const struct grammar duel_grammar = {
    .order_example = "fight",
    .order_example_sim = "fight",
    .orders_example = "'fight,fight,yield'",
    .sheet_example = "'Conan str=18 dex=14 con=14 int=10 weapon=longsword head=plate "
                     "torso=chainmail+leather shield=leather'",
    .create_example = "rules=duel str=18 dex=14 con=14 int=10",
    .plan_example = "yield",
    .order_help = "A duel needs no orders: its rounds fight themselves from the sheets and the "
                  "equipment. yield concedes (you lose); a plan may say when, e.g. if health < "
                  "20 then yield.",
    .sheet_help = "A duellist has 56 points over str, dex, con and int, each 1 to 23: STR for "
                  "damage, weapons and armour, more hits a turn; DEX to hit and not be hit; CON "
                  "for energy, shorter stuns, more hits; INT with DEX for critical hits.",
    .plan_variables = "round, health, hishealth, energy, bleeding, stunned",
    .order_parse = duel_order_parse,
    .order_format = duel_order_format,
    .sheet_parse = duel_sheet_parse,
    .order_towel = NULL, /* a duel plan yields with its own order: yield */
};
