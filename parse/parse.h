/*
 * parse.h - text to engine structures: one-line orders, fighter sheets and
 * fight plans, and each ruleset's grammar.
 *
 * Parsers never print: on bad input they return -1 and fill a
 * `struct parse_error` with the 1-based column where the problem starts and
 * a one-line reason a player can act on. Nothing is changed on error.
 *
 * Each ruleset of engine/rulesets.h has its grammar in parse/NAME.c; the
 * functions below dispatch on `rules` (or o->rules) through grammar_get,
 * and a value no grammar has is rejected, never a crash.
 */
#ifndef RINGSIDE_PARSE_H
#define RINGSIDE_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define PARSE_REASON_MAX 160

struct parse_error {
    int line;   /* 1-based line of a plan; 0 for one-line texts */
    int column; /* 1-based; 0 when the error is about the whole text */
    char reason[PARSE_REASON_MAX];
};

/* Parses one order in the grammar of `rules` (parse/NAME.c), e.g.:
 *   boxing    AGG[H|B]/POW[!]/DEF [(style)]   e.g. "4H/8!/8 (inside)", "6b/7/7(cou)"
 *   sugarray  attack/defence or "attack defence", each 0..99
 * Returns 0 and fills *o (o->rules set), or -1 and fills *err (also when
 * `rules` is no ruleset). */
int order_parse(enum rules rules, const char *text, struct order *o, struct parse_error *err);

/* Writes the normal form of `o` in its ruleset's grammar into buf (always
 * NUL-terminated when len > 0), e.g. boxing "AGG[H|B]/POW[!]/DEF" plus
 * " (style)" when there is one (full style name, e.g. "4H/8!/8 (inside)"),
 * sugarray "A/D". Returns the length the full text needs, like snprintf,
 * or -1 (buf "") when o->rules is no ruleset. */
int order_format(const struct order *o, char *buf, size_t len);

/* Parses a sheet given as whitespace-separated key=value pairs, with the
 * keys of the grammar of `rules`, e.g.:
 *   boxing    str= spd= agl= tgh= hgt=   (all five, each 1..25)
 *   sugarray  skill= end= (or endurance=) (skill 1..99, end 1..999)
 * Returns 0 and fills *s (s->rules set), or -1 and fills *err (also when
 * `rules` is no ruleset). */
int sheet_parse(enum rules rules, const char *text, struct sheet *s, struct parse_error *err);

/* As sheet_parse, for a new fighter of `rules` (`create`): each ability
 * must be within the ruleset's bounds for a new one (engine's new_lo to
 * new_hi: a boxer 5 to 20, though a sheet holds 1 to 25), and a value out
 * of them, or no number, is refused with that rule and an example, e.g.
 * "str=30 is over 20; a new boxer's abilities are each 5 to 20, 60 points
 * in all: e.g. str=12 spd=12 agl=12 tgh=12 hgt=12". A ruleset whose new
 * fighters start at a fixed sheet is read as sheet_parse reads it. */
int sheet_parse_new(enum rules rules, const char *text, struct sheet *s, struct parse_error *err);

/* The bounds a sheet's abilities are read within in place of the sheet's
 * own, and the rule a value out of them is refused with (sheet_parse_new
 * fills it for a new fighter). */
struct sheet_bounds {
    int lo, hi;
    const char *rule; /* "a new boxer's abilities are each 5 to 20, ..." */
};

/* "line L, column C: reason" (the parts that are 0 left out) into buf. */
int parse_error_format(const struct parse_error *err, char *buf, size_t len);
/* A whole decimal number (digits only: no sign, no spaces) into *v.
 * Returns 0, or -1 (v untouched) if it is not one or does not fit in 64
 * bits. */
int parse_u64(const char *s, uint64_t *v);

/* -------------------------------------------------------- duel items */

/* The weapon (enum duel_weapon, never fists), armour set (enum
 * duel_material, never none) or slot (enum duel_slot, never DUEL_UNDER:
 * "torso", also "armour") named by the n bytes at s, in any case, words
 * joined by '_', '-' or nothing ("war_hammer", "warhammer"); -1 if none. */
int duel_weapon_find(const char *s, size_t n);
int duel_material_find(const char *s, size_t n);
int duel_slot_find(const char *s, size_t n);
/* The armoury's pieces nearest to the n bytes at s, for "did you mean":
 * those whose name holds the word (or the word the name), else those one
 * or two edits away (ignoring case, '_' and '-'): "axe" gives "war_axe",
 * "sword" "short_sword or longsword". `what` is DUEL_SUGGEST_WEAPON,
 * DUEL_SUGGEST_ARMOUR or both; at most three names, joined with ", " and
 * " or ", into buf. Returns how many (0: nothing near, buf ""). */
#define DUEL_SUGGEST_WEAPON 1
#define DUEL_SUGGEST_ARMOUR 2
int duel_suggest(const char *s, size_t n, int what, char *buf, size_t len);

/* Reads equipment as the duel sheet writes it, slot=item pairs
 * ("weapon=longsword head=plate torso=chainmail+leather shield=leather",
 * an item may end in :condition in percent) for a duellist of strength
 * `str`: the slots given are written into kit->item[] and kit->cond[] (a
 * new piece 100 %, DUEL_COND_FULL) and marked in given[] (DUEL_UNDER with
 * DUEL_TORSO: a torso given replaces both), nothing else changes. Returns
 * 0, or -1 with *err (an unknown slot or item, a slot twice, an item
 * needing more STR, a layering other than chainmail under leather). */
int duel_kit_parse(const char *text, int str, struct duel_sheet *kit, int given[DUEL_SLOTS],
                   struct parse_error *err);
/* Writes the equipment of `s` as duel_kit_parse reads it, with every
 * piece's condition ("weapon=longsword:98.75 torso=chainmail:100+leather:
 * 92.5"); "" without equipment. Like snprintf. */
int duel_kit_format(const struct duel_sheet *s, char *buf, size_t len);

/* ---------------------------------------------------------- grammars */

/* A ruleset's text forms: defined once per ruleset, as
 * `const struct grammar NAME_grammar` in parse/NAME.c, and listed from
 * engine/rulesets.h. Every field is set (no NULL) unless it says so.
 *
 * The example texts are for the hints and usage lines other layers print,
 * so that no other layer spells a ruleset's syntax itself. Each is one
 * line of plain ASCII text, never empty, and holds what its comment
 * promises (tests/check_parse.c checks it). */
struct grammar {
    /* One order as a player types it to the bot, accepted by order_parse
     * and given back unchanged by order_format: e.g. boxing
     * "5H/8!/7 (inside)", sugarray "3/2". */
    const char *order_example;
    /* Another such order, for ringside-sim's hints: e.g. boxing
     * "4H/8!/8 (inside)", sugarray "6/0". */
    const char *order_example_sim;
    /* Orders separated by commas inside single quotes, as ringside-sim's
     * --orders takes them; each is accepted by order_parse: e.g. boxing
     * "'5/5/10,4H/8!/8 (ins)'", sugarray "'6/0,3/3'". */
    const char *orders_example;
    /* A fighter's name, a space and a sheet sheet_parse accepts, inside
     * single quotes, as ringside-sim's --a and --b take them: e.g.
     * sugarray "'Murphy skill=12 end=21'", boxing
     * "'Rocky str=14 spd=12 agl=11 tgh=12 hgt=11'". */
    const char *sheet_example;
    /* What follows "create <name> " in the bot's command to create a
     * fighter of this ruleset: e.g. boxing
     * "str=12 spd=12 agl=12 tgh=12 hgt=12", sugarray "rules=sugarray". */
    const char *create_example;
    /* An order for a plan's reasons ("write an order like ..."), accepted
     * by order_parse: e.g. boxing "5/5/10", sugarray "3/3". */
    const char *plan_example;
    /* The order line explained to a newcomer, every part with its
     * meaning, in the words the parser's errors use (for `help orders`
     * and the first prompt of a player's first bout). */
    const char *order_help;
    /* What each ability of the sheet does (for `help create`). */
    const char *sheet_help;
    /* The variables its plans' conditions may use, as the unknown-word
     * reason lists them ("round, health, hishealth, ..."); NULL: the
     * boxing words of docs/plans.md, which both boxing and SUGAR RAY use. */
    const char *plan_variables;

    /* The hooks below are parse/'s own: other layers call order_parse,
     * order_format and sheet_parse, which check `rules` first. */

    /* Reads one order from `text` into *o, which comes zeroed with
     * o->rules set; returns 0, or -1 after filling *err (when not NULL).
     * *o may be partly written on error (order_parse discards it). */
    int (*order_parse)(const char *text, struct order *o, struct parse_error *err);
    /* Writes the normal form of *o (of this ruleset) into buf, like
     * snprintf (NUL-terminated when len > 0); returns the length the full
     * text needs. */
    int (*order_format)(const struct order *o, char *buf, size_t len);
    /* Reads a sheet from `text` into *s, which comes zeroed with s->rules
     * set; its abilities within *b when b is not NULL (a new fighter's),
     * else the sheet's own range. Returns 0, or -1 after filling *err
     * (when not NULL). *s may be partly written on error (sheet_parse
     * discards it). */
    int (*sheet_parse)(const char *text, const struct sheet_bounds *b, struct sheet *s,
                       struct parse_error *err);
    /* Turns *o, this ruleset's default order, into a towel thrown in.
     * NULL when this ruleset's plans cannot throw in the towel: then a
     * "towel" line is rejected. */
    void (*order_towel)(struct order *o);
};

/* The grammar of `rules`, or NULL when `rules` is no ruleset. Valid for
 * the life of the process. */
const struct grammar *grammar_get(enum rules rules);

/* ------------------------------------------------------------- plans */

#define PLAN_LINES_MAX 200  /* lines, blank lines and comments included */
#define PLAN_BYTES_MAX 8192 /* bytes of plan text */

/* A compiled fight plan (docs/plans.md). Opaque; evaluating it needs no
 * regular expression and no allocation. */
struct plan;

/* Parses and checks `text` (lines separated by newlines or ';') for
 * `rules`. Returns the compiled plan (free it with plan_free), or NULL with
 * *err filled (line, column, reason). */
struct plan *plan_compile(enum rules rules, const char *text, struct parse_error *err);
void plan_free(struct plan *p);

/* The orders for the round described by *v: the last line whose round tag
 * is at most v->round and whose condition holds. Fills *o (a towel line
 * gives the default order with towel set, in a ruleset whose grammar has
 * order_towel, e.g. boxing) and returns the
 * 1-based line number used, or 0 when no line applies and *o is the
 * ruleset's default order. */
int plan_eval(const struct plan *p, const struct plan_vars *v, struct order *o);

/* The text of line `line` (1-based) as written, without the separator, or
 * "" when there is no such line. Valid while the plan lives. */
const char *plan_line(const struct plan *p, int line);

/* Why line `line` applies under *v, for --explain: its round tag and, for a
 * conditional, each variable's value, e.g.
 * "from round 9; endurance_percent = 45, so the condition holds". Returns
 * the length the full text needs, like snprintf. */
int plan_explain(const struct plan *p, int line, const struct plan_vars *v, char *buf, size_t len);

/* For `plan check`: which line each round would use (rounds 1-12; a
 * shorter ruleset's own length, e.g. 1-5 in sugarray) with neutral bout
 * state (full endurance, no score, no injuries, no knockdowns, no warnings;
 * the opponent strong; in a duel both at full health and energy, nobody
 * bleeding or stunned), written as one short line, e.g.
 * "rounds 1-5: line 1 (5/5/10); rounds 6-12: line 2 (4/6/10)". Returns the
 * length the full text needs, like snprintf. */
int plan_summary(const struct plan *p, char *buf, size_t len);

#endif
