/*
 * render_internal.h - what the files of the commentary share: the template
 * writer over struct str, flavour picking, the channel's sentences of a
 * round's events, the generic result sentence, and `struct words`, the descriptor through
 * which each ruleset says what only it can say. Only game/render*.c
 * include it.
 *
 * One ruleset, one place: a ruleset's words live in game/render_NAME.c,
 * which defines `const struct words NAME_words`; render.c builds its table
 * from engine/rulesets.h and dispatches through it, so it never names a
 * ruleset. The rules of render.c hold here too: nothing allocates or does
 * I/O, every flavour draw is made in the same order for the same bout and
 * events (stored bouts are replayed and their words compared), and facts
 * never depend on the draws.
 */
#ifndef RINGSIDE_RENDER_INTERNAL_H
#define RINGSIDE_RENDER_INTERNAL_H

#include <stddef.h>

#include "game.h"

/* A channel line's budget: well inside one IRC message once the server
 * adds our prefix and the target. */
#define SAY_MAX 300

/* ------------------------------------------------------------------ text */

/* The commentary writes its text with struct str (util.h), always fixed
 * over its caller's buffer: it never allocates. */

/* Starts `s` over buf[len] for a render_* function that answers like
 * snprintf: with len 0 nothing is written (buf may be NULL) and the text is
 * only counted, in `spare`, one byte of the caller's. */
void render_start(struct str *s, char *buf, size_t len, char spare[1]);
/* The length the whole text of `s` needs, as an int (snprintf's contract). */
int render_len(const struct str *s);
/* Appends template `tpl` with "$1".."$9" replaced by arg[0..nargs) ("$$"
 * is a dollar; a placeholder past nargs stays as written). */
void render_tpl(struct str *s, const char *tpl, const char *const arg[], int nargs);
/* v in decimal into buf[len] (len > 0), as snprintf's "%ld" writes it (cut
 * short when it does not fit): a template's number argument. */
void render_num(char *buf, size_t len, long v);
/* Appends a literal, its length known where it is written: the report's
 * and score's own words, written without a format (a page writes one a
 * round, and a format's set-up was most of their cost). */
#define RENDER_LIT(t, text) str_raw((t), (text), sizeof(text) - 1)

/* -------------------------------------------------------------- flavour */

/* One of the `n` (> 0) variants v[], drawn from the flavour stream: always
 * exactly one draw. */
const char *render_pick(struct rng *flavour, const char *const *v, int n);

#define PICK(r, v) render_pick((r), (v), (int)(sizeof(v) / sizeof((v)[0])))

/* One sentence of a corner throwing in the towel, $1 his fighter (one
 * draw): the channel's words for it in every ruleset; with `conceded` (he
 * conceded by his own word: a forfeit), of his conceding instead, with no
 * corner or towel in it (the same one draw). */
const char *render_towel(struct rng *flavour, int conceded);

/* ------------------------------------ a round's events, for the channel */

/* One thing worth saying about a round: a sentence for the channel and a
 * short fragment for when sentences do not fit. */
struct item {
    int side;
    int injury; /* a new or aggravated injury (folded first when short) */
    int level;  /* its level, to name the worst */
    int loc;
    char full[SAY_MAX];
    char brief[96];
};

struct items {
    int n;
    struct item it[EVENTS_MAX];
};

/* The items of the round's events `evs` of bout `b` (warnings, fouls, DQs,
 * holding, injuries, knockdowns, KOs and stoppages), in the order they
 * happened; one flavour draw per item. Other events are left to the
 * ruleset's own lines. */
void items_collect(struct items *is, const struct render_corner c[SIDES], const struct bout *b,
                   const struct events *evs, struct rng *flavour);
/* The items in at most two lines: sentences when they fit, else a line of
 * fragments per side. No draws. Returns the count (0 to 2). */
int items_lines(const struct items *is, const struct render_corner c[SIDES],
                char lines[][RENDER_LINE_MAX]);

/* ---------------------------------------------------------- plain words */

/* Appends "a[0]-b[0], a[1]-b[1], a[2]-b[2]": one pair per judge. */
void cards_add(struct str *t, const int a[JUDGES], const int b[JUDGES]);
/* Appends "a[0], a[1], a[2]": one figure per judge. */
void cards_one(struct str *t, const int a[JUDGES]);
/* Appends the corners' names as "A-B". */
void names_add(struct str *t, const struct render_corner c[SIDES]);
/* Appends order `o` in its normal form (order_format). */
void order_add(struct str *t, const struct order *o);
/* Appends a count of punches: to the nearest whole one (RENDER_PLAIN), or
 * "%.2f" (RENDER_SCHEMA3). */
void punches_add(struct str *t, double n, enum render_form form);
/* Appends a real figure (damage, endurance, an ability): one decimal
 * (RENDER_PLAIN), or "%.2f" (RENDER_SCHEMA3). */
void figure_add(struct str *t, double x, enum render_form form);
/* Appends who conceded a round: "Rocky's corner", or "both corners" when
 * towel[0] and towel[1] are both set; a fighter who conceded by his own
 * word (c[].conceded: a forfeit) by his name alone, "Rocky" ("both
 * fighters", or "Rocky and Apollo's corner" when only Rocky did). */
void conceded_add(struct str *t, const struct render_corner c[SIDES], const int towel[SIDES]);
/* Appends the result of `b` in one plain sentence, no flavour: "No result
 * yet.", a KO, TKO (and why) or DQ, a draw by them, or else the ruleset's
 * words (struct words' verdict_add). */
void result_add(struct str *t, const struct render_corner c[SIDES], const struct bout *b);

/* ---------------------------------------------------- a ruleset's words */

/* What a ruleset says in its own words. `c` are the corners, `b` a bout of
 * that ruleset; every function but those marked optional is set. */
struct words {
    /* Appends a corner's figures to the tale of the tape, after his name
     * and owner (" STR 12 SPD ..."); `s` is read as this ruleset's sheet. */
    void (*sheet_add)(struct str *t, const struct sheet *s);
    /* The channel's lines of the round `b` has just resolved (b->round >=
     * 1) from its events `evs`: at most RENDER_ROUND_LINES, not yet
     * cleaned (render_round does that). Returns the count. */
    int (*round)(const struct render_corner c[SIDES], const struct bout *b,
                 const struct events *evs, struct rng *flavour,
                 char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX]);
    /* Optional: the round's lines in full for the pages, when the
     * channel's (round) are shorter; drawing from `flavour` exactly as
     * `round` does. NULL: the pages show the channel's lines. */
    int (*round_full)(const struct render_corner c[SIDES], const struct bout *b,
                      const struct events *evs, struct rng *flavour,
                      char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX]);
    /* The report's figures of each corner for that round, appended after
     * "Round r of n", each corner on a line of its own ("\n..."), written
     * as `form` says (game.h). */
    void (*report_head)(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                        enum render_form form);
    /* Optional: what the report says after the round's events (the
     * cards), starting with "\n". */
    void (*report_tail)(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                        enum render_form form);
    /* Optional: appends event `e` in the report's plain words when it is
     * this ruleset's own and returns 1; returns 0 (appending nothing) to
     * leave it to the generic words. */
    int (*event_add)(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                     const struct event *e, enum render_form form);
    /* Appends the result of the finished bout `b` when no stoppage decided
     * it (no KO, TKO or DQ, and no draw by them): a decision, points, or a
     * draw on them. */
    void (*verdict_add)(struct str *t, const struct render_corner c[SIDES], const struct bout *b);
    /* The result lines of bout `b` for the channel (at most
     * RENDER_RESULT_MAX, not yet cleaned); draws from `flavour` as the
     * ruleset always has. Returns the count. */
    int (*result)(const struct render_corner c[SIDES], const struct bout *b, struct rng *flavour,
                  char lines[RENDER_RESULT_MAX][RENDER_LINE_MAX]);
    /* 1 when those lines say who won in words (boxing's announcer); 0 when
     * they do not (SUGAR RAY's classic lines), so the end of the bout says
     * it plainly too. */
    int result_plain;
    /* Appends the score of a live bout after "After round r of n: " (or
     * "Round 1 of n to come: "). */
    void (*score_add)(struct str *t, const struct render_corner c[SIDES], const struct bout *b);
    /* Optional: the injuries of `side` (0 or 1) in `b`, INJ_COUNT of them,
     * that a doctor's stoppage names; NULL when the ruleset has none. */
    const struct injury *(*injuries)(const struct bout *b, int side);
    /* The ways its bouts are won, as results name them, ending with
     * METHOD_NONE (render_methods). */
    const enum method *methods;
    /* Optional: appends the equipment of sheet `s` with each piece's
     * condition, and what it weighs on him ("longsword 98.5%, plate
     * helmet 100.0%; encumbrance 0.049"), after the pieces of `before`
     * (when not NULL) that `s` no longer has ("broken: leather shield;
     * "); NULL: a ruleset without. */
    void (*kit_add)(struct str *t, const struct sheet *s, const struct sheet *before);
    /* Optional: what side `side`'s corner sees before the next round, for
     * render_corner_report, instead of the generic words. */
    void (*corner_add)(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                       int side);
    /* Optional: the verb of a corner whose plan gives up (TKO_TOWEL), for
     * a ruleset where that is no towel but a result of its own: "yields"
     * ("Conan wins in round 3: Thor yields!", and "yields" in records).
     * NULL: a TKO, "the corner threw in the towel". */
    const char *towel_words;
    /* What the pages chart of a side round by round (render_meter): its
     * name ("endurance"; "health" for a ruleset that counts health) and
     * its value in `b` now, with the value it started the bout at in
     * *start. */
    const char *meter_name;
    double (*meter)(const struct bout *b, int side, double *start);
    /* Optional: the chart marks (1 << enum view_mark_kind) its bouts make,
     * for the chart's legend; 0: knockdown, injury, warning, stoppage. */
    unsigned mark_kinds;
    /* Optional, with kit_add: a piece in words ("plate helmet"), and what
     * the equipment of `s` weighs on him ("encumbrance 0.210"). */
    void (*kit_piece)(struct str *t, int slot, int item);
    void (*kit_note)(struct str *t, const struct sheet *s);
};

/* The descriptors, one per line of engine/rulesets.h. */
#define RULESET(name, NAME) extern const struct words name##_words;
#include "rulesets.h"
#undef RULESET

#endif
