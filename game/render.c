/*
 * render.c - commentary: the engine's events in English, short and varied
 * for the channel, complete and plain for `report`.
 *
 * This file holds what every ruleset shares: the template writer, flavour
 * picking, the words of the generic events (warnings, injuries,
 * knockdowns, KOs, stoppages, cards), the generic result sentence, and the
 * public render_* functions, which dispatch to the ruleset's own words
 * (struct words, game/render_NAME.c) through a table built from
 * engine/rulesets.h. It names no ruleset.
 *
 * Invariants: nothing here allocates, does I/O or touches IRC or the
 * database. Every line written is NUL-terminated, holds no CR or LF and
 * fits RENDER_LINE_MAX; a channel line stays within SAY_MAX bytes, one IRC
 * message. Wording is picked from the flavour stream only, and how many
 * draws a call makes depends only on the bout and its events, so a replayed
 * bout reads the same. Facts (figures, cards, results) never depend on the
 * draws: a different flavour seed changes words, not what is said.
 *
 * Names in a struct render_corner are NUL-terminated strings (DB_NAME_MAX).
 *
 * A report writes its figures as people read them (punches whole, reals to
 * one decimal) unless asked for RENDER_SCHEMA3, the "%.2f" text of reports
 * stored before schema 4, which a replay compares byte for byte: every
 * figure goes through punches_add or figure_add, so the two cannot drift.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "render_internal.h"

/* Every ruleset's words, in the order of enum rules. */
static const struct words *const words_table[RULES_COUNT] = {
#define RULESET(name, NAME) [RULES_##NAME] = &name##_words,
#include "rulesets.h"
#undef RULESET
};

/* The words of ruleset `rules`, or NULL for no ruleset. */
static const struct words *words_of(enum rules rules)
{
    if ((int)rules < 0 || rules >= RULES_COUNT)
        return NULL;
    return words_table[rules];
}

/* The injuries of `side` in `b` a doctor's stoppage names, or NULL (no
 * such side, or a ruleset without injuries). */
static const struct injury *injuries_of(const struct bout *b, int side)
{
    const struct words *w = words_of(b->rules);

    if (!w || !w->injuries || side < 0 || side >= SIDES)
        return NULL;
    return w->injuries(b, side);
}

const enum method *render_methods(enum rules rules)
{
    static const enum method none[] = {METHOD_NONE};
    const struct words *w = words_of(rules);

    return w && w->methods ? w->methods : none;
}

const char *render_meter_name(enum rules rules)
{
    const struct words *w = words_of(rules);

    return w && w->meter_name ? w->meter_name : "";
}

double render_meter(const struct bout *b, int side, double *start)
{
    const struct words *w = words_of(b->rules);

    *start = 0;
    if (!w || !w->meter || side < 0 || side >= SIDES)
        return 0;
    return w->meter(b, side, start);
}

unsigned render_mark_kinds(enum rules rules)
{
    const struct words *w = words_of(rules);

    if (w && w->mark_kinds)
        return w->mark_kinds;
    return 1u << VIEW_KNOCKDOWN | 1u << VIEW_INJURY | 1u << VIEW_WARNING | 1u << VIEW_STOPPAGE;
}

int render_kit_piece(enum rules rules, int slot, int item, char *buf, size_t len)
{
    const struct words *w = words_of(rules);
    const struct ruleset *rs = ruleset_get(rules);
    struct str t;
    char one[1];

    render_start(&t, buf, len, one);
    if (w && w->kit_piece) {
        w->kit_piece(&t, slot, item);
    } else if (rs && rs->kit_item_name && slot >= 0 && slot < rs->kit_slots) {
        const char *name = rs->kit_item_name(slot, item);
        str_cat(&t, name ? name : "?");
    }
    return render_len(&t);
}

int render_kit_note(const struct sheet *s, char *buf, size_t len)
{
    const struct words *w = words_of(s->rules);
    struct str t;
    char one[1];

    render_start(&t, buf, len, one);
    if (w && w->kit_note)
        w->kit_note(&t, s);
    return render_len(&t);
}

const char *render_method_name(enum method m)
{
    switch (m) {
    case METHOD_KO:
        return "KO";
    case METHOD_TKO:
        return "TKO";
    case METHOD_DQ:
        return "DQ";
    case METHOD_DECISION:
        return "decision";
    case METHOD_POINTS:
        return "points";
    case METHOD_DRAW:
        return "draw";
    case METHOD_NONE:
        break;
    }
    return "";
}

const char *render_win_how(enum rules rules, enum method m, enum tko_reason reason, int conceded)
{
    const struct words *w = words_of(rules);

    if (m == METHOD_TKO && reason == TKO_TOWEL && conceded)
        return "forfeit";
    if (m == METHOD_TKO && reason == TKO_TOWEL)
        return w && w->towel_words ? "yield" : "towel";
    return render_method_name(m);
}

/* ------------------------------------------------------------------ text */

void render_start(struct str *s, char *buf, size_t len, char spare[1])
{
    if (len > 0)
        str_init_fixed(s, buf, len);
    else
        str_init_fixed(s, spare, 1);
}

int render_len(const struct str *s)
{
    return s->need > (size_t)INT_MAX ? INT_MAX : (int)s->need;
}

/* Templates keep their placeholders in any order, which printf formats
 * from a table could not do without -Wformat-nonliteral noise. */
void render_tpl(struct str *s, const char *tpl, const char *const arg[], int nargs)
{
    const char *run = tpl, *p = tpl;

    /* From '$' to '$' (strchr: many bytes a step). */
    while ((p = strchr(p, '$')) != NULL) {
        if (p[1] >= '1' && p[1] <= '9' && p[1] - '1' < nargs) {
            str_raw(s, run, (size_t)(p - run));
            str_cat(s, arg[p[1] - '1']);
            run = p += 2;
        } else if (p[1] == '$') {
            str_raw(s, run, (size_t)(p - run) + 1);
            run = p += 2;
        } else {
            p++;
        }
    }
    str_cat(s, run);
}

const char *render_pick(struct rng *flavour, const char *const *v, int n)
{
    return v[rng_range(flavour, 0, n - 1)];
}

/* A channel line as it goes out: CR and LF never reach it, whatever a name
 * holds, and it is cut (on a UTF-8 character boundary) at SAY_MAX bytes,
 * which the wording never reaches with names of DB_NAME_MAX. */
static void line_clean(char *s)
{
    size_t n = strlen(s);

    if (n > SAY_MAX) {
        n = SAY_MAX;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
        s[n] = '\0';
    }
    while ((s = strpbrk(s, "\r\n")) != NULL)
        *s++ = ' ';
}

/* ------------------------------------------------------------- injuries */

static const char *const loc_words[INJ_COUNT] = {
    [INJ_ABOVE_RIGHT_EYE] = "above the right eye",
    [INJ_ABOVE_LEFT_EYE] = "above the left eye",
    [INJ_BELOW_RIGHT_EYE] = "below the right eye",
    [INJ_BELOW_LEFT_EYE] = "below the left eye",
    [INJ_SWELL_RIGHT_EYE] = "right eye",
    [INJ_SWELL_LEFT_EYE] = "left eye",
    [INJ_NOSE] = "nose",
    [INJ_JAW] = "jaw",
};

static int is_swelling(int loc)
{
    return loc == INJ_SWELL_RIGHT_EYE || loc == INJ_SWELL_LEFT_EYE;
}

/* The seed's name of an injury at `loc` of `level`, without an article:
 * "minor cut above the left eye", "fractured nose", "swelling of the right
 * eye", "right eye swollen shut", "broken jaw". Like snprintf. */
static int injury_name(int loc, int level, char *buf, size_t len)
{
    static const char *const cut[4] = {"minor cut", "cut", "serious cut", "gash"};
    struct str t;
    char one[1];

    /* Without printf: a bout page names a few injuries every round. The
     * words are ASCII, so a cut falls where snprintf's would. */
    render_start(&t, buf, len, one);
    level = level < 1 ? 1 : level > 4 ? 4 : level;
    if (loc < 0 || loc >= INJ_COUNT)
        str_cat(&t, "injury");
    else if (loc <= INJ_BELOW_LEFT_EYE)
        render_fmt(&t, "%s %s", cut[level - 1], loc_words[loc]);
    else if (is_swelling(loc) && level >= 3)
        render_fmt(&t, "%s swollen shut", loc_words[loc]);
    else if (is_swelling(loc))
        render_fmt(&t, "%sswelling of the %s", level == 2 ? "heavy " : "", loc_words[loc]);
    else if (loc == INJ_NOSE)
        render_fmt(&t, "%s nose", level == 1 ? "bloody" : level == 4 ? "broken" : "fractured");
    else
        render_fmt(&t, "%s jaw", level == 4 ? "broken" : "injured");
    return render_len(&t);
}

/* The same with an article: "a cut ...", "an injured jaw", "the right eye
 * swollen shut". */
static int injury_phrase(int loc, int level, char *buf, size_t len)
{
    char name[48];

    injury_name(loc, level, name, sizeof(name));
    if (is_swelling(loc) && level >= 3)
        return snprintf(buf, len, "the %s", name);
    return snprintf(buf, len, "%s %s", strchr("aeiou", name[0]) ? "an" : "a", name);
}

/* The injury a doctor's stoppage of kind `reason` is about, in `inj`
 * (NULL: none known); -1 when none fits. */
static int doctor_loc(enum tko_reason reason, const struct injury *inj)
{
    for (int i = 0; inj && i < INJ_COUNT; i++) {
        if (reason == TKO_INJURY && inj[i].level >= 3 && inj[i].damage >= 7 - 1e-9)
            return i;
        if (reason == TKO_AGGRAVATED && inj[i].level >= 4)
            return i;
    }
    return -1;
}

/* Why a fighter with injuries `inj` (NULL: unknown) was stopped, e.g.
 * "the doctor stopped it: gash above the left eye". Like snprintf. */
static int tko_words(enum tko_reason reason, const struct injury *inj, char *buf, size_t len)
{
    char what[64];
    int loc = doctor_loc(reason, inj);

    switch (reason) {
    case TKO_ENDURANCE:
        return snprintf(buf, len, "no endurance left");
    case TKO_FATIGUE:
        return snprintf(buf, len, "could not answer the bell");
    case TKO_INJURY:
        if (loc < 0)
            return snprintf(buf, len, "the doctor stopped it: an injury");
        injury_name(loc, inj[loc].level, what, sizeof(what));
        return snprintf(buf, len, "the doctor stopped it: %s", what);
    case TKO_AGGRAVATED:
        if (loc < 0)
            return snprintf(buf, len, "the doctor stopped it: an injury aggravated");
        injury_name(loc, inj[loc].level, what, sizeof(what));
        return snprintf(buf, len, "the doctor stopped it: %s aggravated", what);
    case TKO_BROKEN_JAW:
        return snprintf(buf, len, "the doctor stopped it: broken jaw aggravated");
    case TKO_EYES_SHUT:
        return snprintf(buf, len, "both eyes swollen shut");
    case TKO_TOWEL:
        return snprintf(buf, len, "the corner threw in the towel");
    default:
        return snprintf(buf, len, "stopped");
    }
}

/* ---------------------------------------------------------- plain words */

/* v as "%d" writes it at p; returns its end. Cards are small numbers. */
static char *card_int(char *p, int v)
{
    if (v >= 0 && v < 10) {
        *p++ = (char)('0' + v);
    } else if (v >= 10 && v < 100) {
        *p++ = (char)('0' + v / 10);
        *p++ = (char)('0' + v % 10);
    } else {
        render_num(p, 16, v);
        p += strlen(p);
    }
    return p;
}

/* The cards are written in a buffer of their own and appended at once: a
 * page writes a few each round. */
void cards_add(struct str *t, const int a[JUDGES], const int b[JUDGES])
{
    char buf[JUDGES * 40], *p = buf;

    for (int j = 0; j < JUDGES; j++) {
        if (j) {
            *p++ = ',';
            *p++ = ' ';
        }
        p = card_int(p, a[j]);
        *p++ = '-';
        p = card_int(p, b[j]);
    }
    str_raw(t, buf, (size_t)(p - buf));
}

void cards_one(struct str *t, const int a[JUDGES])
{
    char buf[JUDGES * 20], *p = buf;

    for (int j = 0; j < JUDGES; j++) {
        if (j) {
            *p++ = ',';
            *p++ = ' ';
        }
        p = card_int(p, a[j]);
    }
    str_raw(t, buf, (size_t)(p - buf));
}

void names_add(struct str *t, const struct render_corner c[SIDES])
{
    str_cat(t, c[0].name);
    RENDER_LIT(t, "-");
    str_cat(t, c[1].name);
}

void order_add(struct str *t, const struct order *o)
{
    char buf[64];
    int n = order_format(o, buf, sizeof(buf));

    /* Its length as order_format counts it, when whole (no strlen). */
    if (n >= 0 && (size_t)n < sizeof(buf))
        str_raw(t, buf, (size_t)n);
    else
        str_cat(t, buf);
}

void result_add(struct str *t, const struct render_corner c[SIDES], const struct bout *b)
{
    const struct result *res = &b->result;
    const struct words *words = words_of(b->rules);
    int w = res->winner;

    if (!res->over) {
        str_cat(t, "No result yet.");
        return;
    }
    if (w < 0) {
        switch (res->drawn_by) {
        case METHOD_KO:
            render_fmt(t, "Draw: %s and %s knock each other out in round %d!", c[0].name, c[1].name,
                       res->round);
            return;
        case METHOD_TKO:
            render_fmt(t, "Draw: %s and %s are both stopped in round %d!", c[0].name, c[1].name,
                       res->round);
            return;
        case METHOD_DQ:
            render_fmt(t, "Draw: %s and %s are both disqualified in round %d!", c[0].name,
                       c[1].name, res->round);
            return;
        default:
            break;
        }
    } else {
        const char *name = c[w].name;

        switch (res->method) {
        case METHOD_KO:
            render_fmt(t, "%s wins by KO in round %d!", name, res->round);
            return;
        case METHOD_TKO: {
            char why[128];

            if (res->reason == TKO_TOWEL && c[!w].conceded) {
                /* He conceded himself: no stoppage, a forfeit. */
                render_fmt(t, "%s wins by forfeit in round %d (%s conceded)!", name, res->round,
                           c[!w].name);
                return;
            }
            if (res->reason == TKO_TOWEL && words && words->towel_words) {
                /* His plan gave up in the ruleset's own words: a yield. */
                render_fmt(t, "%s wins in round %d: %s %s!", name, res->round, c[!w].name,
                           words->towel_words);
                return;
            }
            tko_words(res->reason, injuries_of(b, !w), why, sizeof(why));
            render_fmt(t, "%s wins by TKO in round %d (%s)!", name, res->round, why);
            return;
        }
        case METHOD_DQ:
            render_fmt(t, "%s wins by DQ in round %d (%s disqualified)!", name, res->round,
                       c[!w].name);
            return;
        default:
            break;
        }
    }
    /* Neither stopped nor disqualified: a verdict in the ruleset's terms. */
    if (words)
        words->verdict_add(t, c, b);
}

/* ------------------------------------ a round's events, for the channel */

static struct item *item_new(struct items *is, int side)
{
    struct item *it = &is->it[is->n++];

    memset(it, 0, sizeof(*it));
    it->side = side;
    it->loc = -1;
    return it;
}

/* The arguments of an item's templates: $1 the fighter concerned, $2 his
 * opponent, $3 and $4 as each table says. */
#define ITEM_ARGS 4

static void item_say(struct item *it, struct rng *flavour, const char *const *v, int nv,
                     const char *const arg[ITEM_ARGS])
{
    struct str t;

    str_init_fixed(&t, it->full, sizeof(it->full));
    render_tpl(&t, render_pick(flavour, v, nv), arg, ITEM_ARGS);
}

#define SAY(it, r, v, arg) item_say((it), (r), (v), (int)(sizeof(v) / sizeof((v)[0])), (arg))

/* $1 the fighter concerned, $2 his opponent; $3.. as noted. */
static const char *const say_warning[] = {
    "$1 is warned for fighting dirty and loses a point (warning $3).",
    "The referee takes a point from $1 for dirty work (warning $3).",
    "Dirty work from $1: warned, one point deducted (warning $3).",
    "$1 is docked a point for fighting dirty (warning $3).",
};
static const char *const say_foul[] = {
    "$1 is warned for an accidental foul: one point off (warning $3).",
    "An unintentional foul costs $1 a point (warning $3).",
    "$1 fouls without meaning to: warned, a point off (warning $3).",
};
static const char *const say_dq[] = {
    "$1 is disqualified!",
    "The referee has seen enough: $1 is disqualified!",
    "That's it for $1: disqualified for fighting dirty!",
};
static const char *const say_clinch[] = {
    "$1 is penalised for holding.",
    "The referee penalises $1 for holding.",
    "Too much holding: $1 is penalised.",
};
static const char *const say_down1[] = {
    "Down goes $1!",       "$2 drops $1!", "$1 hits the canvas!", "$2 puts $1 on the floor!",
    "$1 is knocked down!",
};
static const char *const say_down2[] = {
    "$1 is down twice!",
    "$2 floors $1 twice!",
    "$1 goes down, gets up, and goes down again!",
};
static const char *const say_downn[] = {
    "$1 is down $3 times!",
    "$2 floors $1 $3 times!",
    "$1 hits the canvas $3 times!",
};
static const char *const say_ko[] = {
    "$1 is knocked out!", "$2 knocks $1 out cold!",
    "$1 is counted out!", "$1 can't beat the count: knocked out!",
    "Lights out for $1!",
};
static const char *const say_ko_late[] = {
    "$1 is out on his feet too, but $2 went first!",
    "$1 is nearly out too, but $2 was stopped first!",
};
static const char *const say_injury[] = {
    "$2 leaves $1 with $3.",
    "$1 comes away with $3.",
    "$1 is hurt: $3.",
    "Trouble for $1: $3.",
};
static const char *const say_worse[] = {
    "$1's $3 gets worse: now $4.",
    "$2 goes to work on $1's $3: now $4.",
    "$1's $3 is aggravated, now $4.",
};
static const char *const say_again[] = {
    "$2 finds $1's $3 again.",
    "$1's $3 takes more punishment.",
    "$1's $3 is aggravated.",
};
static const char *const say_shut[] = {
    "$1's $3 is swollen shut!",
    "$2 closes $1's $3!",
    "$1's $3 closes completely: swollen shut!",
};
static const char *const say_tko_endurance[] = {
    "$1 has nothing left: the referee stops it!",
    "The referee steps in: $1 is spent!",
    "$1 is out on his feet and the referee waves it off!",
};
static const char *const say_tko_fatigue[] = {
    "$1 can't answer the bell!",
    "$1 stays on his stool: he can't go on!",
    "Exhausted, $1 can't come out for the next round!",
};
static const char *const say_tko_doctor[] = {
    "The doctor stops it: $1's $3!",
    "The doctor has seen enough of $1's $3!",
    "The doctor waves it off: $1's $3!",
};
static const char *const say_tko_eyes[] = {
    "$1 can't see out of either eye: the doctor stops it!",
    "Both of $1's eyes are swollen shut: the doctor stops it!",
};
static const char *const say_towel[] = {
    "$1's corner throws in the towel!",
    "In comes the towel from $1's corner!",
    "$1's corner has seen enough: the towel comes in!",
};
static const char *const say_tko_other[] = {
    "$1 is stopped!",
    "The referee stops it: $1 is done!",
};

/* A fighter conceding by his own word (a forfeit): no corner, no towel.
 * As many as say_towel, so that either is one draw of the same range. */
static const char *const say_concede[] = {
    "$1 concedes!",
    "$1 has had enough and concedes the bout!",
    "$1 gives it up: he concedes!",
};

const char *render_towel(struct rng *flavour, int conceded)
{
    return conceded ? PICK(flavour, say_concede) : PICK(flavour, say_towel);
}

/* The sentence and fragment of a TKO of side `v` for `reason`. */
static void item_tko(struct item *it, const struct bout *b, int v, enum tko_reason reason,
                     int conceded, const char *arg[ITEM_ARGS], struct rng *flavour)
{
    const struct injury *inj = injuries_of(b, v);
    char what[64], why[80];
    int loc = doctor_loc(reason, inj);

    tko_words(reason, inj, why, sizeof(why));
    snprintf(it->brief, sizeof(it->brief), "stopped (%s)", why);
    switch (reason) {
    case TKO_ENDURANCE:
        SAY(it, flavour, say_tko_endurance, arg);
        break;
    case TKO_FATIGUE:
        SAY(it, flavour, say_tko_fatigue, arg);
        break;
    case TKO_INJURY:
    case TKO_AGGRAVATED:
    case TKO_BROKEN_JAW:
        if (reason == TKO_BROKEN_JAW)
            snprintf(what, sizeof(what), "broken jaw, aggravated");
        else if (loc < 0)
            snprintf(what, sizeof(what), "injuries");
        else {
            char name[48];

            injury_name(loc, inj[loc].level, name, sizeof(name));
            snprintf(what, sizeof(what), "%s%s", name,
                     reason == TKO_AGGRAVATED ? ", aggravated" : "");
        }
        arg[2] = what;
        SAY(it, flavour, say_tko_doctor, arg);
        break;
    case TKO_EYES_SHUT:
        SAY(it, flavour, say_tko_eyes, arg);
        break;
    case TKO_TOWEL:
        if (conceded) { /* his own word: a forfeit, no stoppage */
            SAY(it, flavour, say_concede, arg);
            snprintf(it->brief, sizeof(it->brief), "concedes (a forfeit)");
        } else {
            SAY(it, flavour, say_towel, arg);
        }
        break;
    default:
        SAY(it, flavour, say_tko_other, arg);
        break;
    }
}

/* 1 if side v won the bout by a KO or TKO this round: a stoppage of his own
 * came later than his opponent's, so it did not count. */
static int stopped_but_won(const struct bout *b, int v)
{
    const struct result *res = &b->result;

    return res->over && res->winner == v && (res->method == METHOD_KO || res->method == METHOD_TKO);
}

/* The items of one event each. Every step gets the item's arguments:
 * $1 the fighter concerned, $2 his opponent, $3 the event's count (e->a)
 * and $4 nothing; a step may point $3 and $4 at words of its own. Each
 * makes exactly one flavour draw (SAY). */

/* A warning, a foul, a disqualification or a penalty for holding. */
static void item_penalty(struct items *is, const struct event *e, const char *arg[ITEM_ARGS],
                         struct rng *flavour)
{
    struct item *it = item_new(is, e->side);

    switch (e->type) {
    case EV_WARNING:
        SAY(it, flavour, say_warning, arg);
        snprintf(it->brief, sizeof(it->brief), "warned (%d)", e->a);
        break;
    case EV_FOUL:
        SAY(it, flavour, say_foul, arg);
        snprintf(it->brief, sizeof(it->brief), "warned for a foul (%d)", e->a);
        break;
    case EV_DQ:
        SAY(it, flavour, say_dq, arg);
        snprintf(it->brief, sizeof(it->brief), "disqualified");
        break;
    default: /* EV_CLINCH_PENALTY */
        SAY(it, flavour, say_clinch, arg);
        snprintf(it->brief, sizeof(it->brief), "penalised for holding");
        break;
    }
}

/* A new injury: e->a its location, e->b its level. */
static void item_injury(struct items *is, const struct event *e, const char *arg[ITEM_ARGS],
                        struct rng *flavour)
{
    struct item *it = item_new(is, e->side);
    char now[64];

    it->injury = 1;
    it->loc = e->a;
    it->level = e->b;
    injury_phrase(e->a, e->b, now, sizeof(now));
    arg[2] = now;
    SAY(it, flavour, say_injury, arg);
    injury_name(e->a, e->b, it->brief, sizeof(it->brief));
}

/* 1 if an injury at `loc` has the same name at levels a and b: an injured
 * jaw of level 2 and 3, a fractured nose of 2 and 3 (worse, but nothing
 * a listener can hear: "now an injured jaw" would tell him nothing new). */
static int same_injury_words(int loc, int a, int b)
{
    char x[64], y[64];

    injury_name(loc, a, x, sizeof(x));
    injury_name(loc, b, y, sizeof(y));
    return strcmp(x, y) == 0;
}

/* An injury made worse: e->a its location, e->b its level now, e->c its
 * level before. Said worse only when its name changes. */
static void item_aggravated(struct items *is, const struct event *e, const char *arg[ITEM_ARGS],
                            struct rng *flavour)
{
    struct item *it = item_new(is, e->side);
    char old[64], now[64];

    it->injury = 1;
    it->loc = e->a;
    it->level = e->b;
    injury_name(e->a, e->c, old, sizeof(old));
    arg[2] = old;
    arg[3] = now;
    if (is_swelling(e->a) && e->b >= 3) {
        /* "right eye swollen shut" reads badly as a noun. */
        arg[2] = loc_words[e->a];
        if (e->c < 3)
            SAY(it, flavour, say_shut, arg);
        else
            SAY(it, flavour, say_again, arg);
    } else if (e->b != e->c && !same_injury_words(e->a, e->b, e->c)) {
        injury_phrase(e->a, e->b, now, sizeof(now));
        SAY(it, flavour, say_worse, arg);
    } else {
        SAY(it, flavour, say_again, arg);
    }
    injury_name(e->a, e->b, now, sizeof(now));
    snprintf(it->brief, sizeof(it->brief), "%s (worse)", now);
}

/* One sentence for all the knockdowns of the side of event evs->ev[k]
 * this round, from that first one on. */
static void item_knockdowns(struct items *is, const struct events *evs, int k,
                            const char *arg[ITEM_ARGS], struct rng *flavour)
{
    int v = evs->ev[k].side, n = 0;
    char num[16];

    for (int m = k; m < evs->n; m++)
        if (evs->ev[m].type == EV_KNOCKDOWN && evs->ev[m].side == v && evs->ev[m].a > n)
            n = evs->ev[m].a;
    snprintf(num, sizeof(num), "%d", n);
    arg[2] = num;
    struct item *it = item_new(is, v);
    if (n == 1)
        SAY(it, flavour, say_down1, arg);
    else if (n == 2)
        SAY(it, flavour, say_down2, arg);
    else
        SAY(it, flavour, say_downn, arg);
    if (n == 1)
        snprintf(it->brief, sizeof(it->brief), "knocked down");
    else
        snprintf(it->brief, sizeof(it->brief), "knocked down %d times", n);
}

/* A KO or a TKO of e->side: his own, or one that came too late to count.
 * `conceded`: he conceded by his own word (a towel of his is a forfeit). */
static void item_stoppage(struct items *is, const struct bout *b, const struct event *e,
                          int conceded, const char *arg[ITEM_ARGS], struct rng *flavour)
{
    int v = e->side;
    struct item *it = item_new(is, v);

    if (e->type == EV_KO && stopped_but_won(b, v)) {
        SAY(it, flavour, say_ko_late, arg);
        snprintf(it->brief, sizeof(it->brief), "knocked out too, but later");
    } else if (e->type == EV_KO) {
        SAY(it, flavour, say_ko, arg);
        snprintf(it->brief, sizeof(it->brief), "knocked out");
    } else if (stopped_but_won(b, v) && e->a != TKO_TOWEL) {
        SAY(it, flavour, say_ko_late, arg);
        snprintf(it->brief, sizeof(it->brief), "nearly stopped too, but later");
    } else {
        item_tko(it, b, v, (enum tko_reason)e->a, conceded, arg, flavour);
    }
}

/* 1 if the knockout of side v this round did not count: the referee or the
 * doctor stopped him earlier in the round (the engine reports both, and
 * the result is the TKO: "knocked out cold" then "wins by TKO" would
 * contradict each other). */
static int ko_void(const struct events *evs, int v)
{
    for (int k = 0; k < evs->n; k++)
        if (evs->ev[k].type == EV_TKO && evs->ev[k].side == v)
            return 1;
    return 0;
}

int render_event_counts(const struct events *evs, int k)
{
    const struct event *e = &evs->ev[k];

    return !(e->type == EV_KO && ko_void(evs, e->side));
}

/* The items of a round's events, in the order they happened. */
/* 1 for the events items_collect may make an item of. */
static int item_said(enum event_type type)
{
    switch (type) {
    case EV_WARNING:
    case EV_FOUL:
    case EV_DQ:
    case EV_CLINCH_PENALTY:
    case EV_INJURY:
    case EV_AGGRAVATED:
    case EV_KNOCKDOWN:
    case EV_KO:
    case EV_TKO:
        return 1;
    default:
        return 0;
    }
}

void items_collect(struct items *is, const struct render_corner c[SIDES], const struct bout *b,
                   const struct events *evs, struct rng *flavour)
{
    int downs_said[SIDES] = {0, 0};

    is->n = 0;
    for (int k = 0; k < evs->n; k++) {
        const struct event *e = &evs->ev[k];
        int v = e->side;
        char num[16];
        const char *arg[ITEM_ARGS];

        /* Most of a round's events (punches, damage, cards) say nothing
         * here: their number is not written for them. */
        if (v < 0 || v >= SIDES || !item_said(e->type))
            continue;
        arg[0] = c[v].name;
        arg[1] = c[!v].name;
        arg[2] = num;
        arg[3] = "";
        struct str n;
        str_init_fixed(&n, num, sizeof(num));
        render_int(&n, e->a);
        switch (e->type) {
        case EV_WARNING:
        case EV_FOUL:
        case EV_DQ:
        case EV_CLINCH_PENALTY:
            item_penalty(is, e, arg, flavour);
            break;
        case EV_INJURY:
            item_injury(is, e, arg, flavour);
            break;
        case EV_AGGRAVATED:
            item_aggravated(is, e, arg, flavour);
            break;
        case EV_KNOCKDOWN:
            if (!downs_said[v])
                item_knockdowns(is, evs, k, arg, flavour);
            downs_said[v] = 1;
            break;
        case EV_KO:
            if (ko_void(evs, v)) {
                /* Not said; its draw is still made, so the words of the
                 * rest of the bout stay as they were. */
                (void)PICK(flavour, say_ko);
                break;
            }
            item_stoppage(is, b, e, c[v].conceded, arg, flavour);
            break;
        case EV_TKO:
            item_stoppage(is, b, e, c[v].conceded, arg, flavour);
            break;
        default:
            break;
        }
    }
}

/* Packs the items' sentences into at most `max` lines of SAY_MAX bytes.
 * Returns the count, or -1 if they do not fit. */
static int pack_full(const struct items *is, char lines[][RENDER_LINE_MAX], int max)
{
    struct str line;
    int nl = 0;

    str_init(&line); /* never written: a line starts fixed over lines[] */
    for (int i = 0; i < is->n; i++) {
        const char *full = is->it[i].full;
        size_t w = strlen(full);

        if (nl > 0 && line.len + 1 + w < SAY_MAX) {
            RENDER_LIT(&line, " ");
            str_cat(&line, full);
            continue;
        }
        if (nl == max || w >= SAY_MAX)
            return -1;
        str_init_fixed(&line, lines[nl++], RENDER_LINE_MAX);
        str_cat(&line, full);
    }
    return nl;
}

/* One line of side v's items as fragments ("Apollo: warned (1), knocked
 * down, cut above the left eye."); with `fold`, injuries become a count
 * and the worst of them. */
static void side_summary(const struct items *is, const struct render_corner c[SIDES], int v,
                         int fold, char *line)
{
    struct str t;
    int first = 1, injuries = 0, worst = -1;

    str_init_fixed(&t, line, RENDER_LINE_MAX);
    render_fmt(&t, "%s: ", c[v].name);
    for (int i = 0; i < is->n; i++) {
        const struct item *it = &is->it[i];

        if (it->side != v)
            continue;
        if (fold && it->injury) {
            injuries++;
            if (worst < 0 || it->level > is->it[worst].level)
                worst = i;
            continue;
        }
        render_fmt(&t, "%s%s", first ? "" : ", ", it->brief);
        first = 0;
    }
    if (injuries > 0) {
        char name[64];

        injury_name(is->it[worst].loc, is->it[worst].level, name, sizeof(name));
        render_fmt(&t, "%s%d injur%s, the worst %s", first ? "" : ", ", injuries,
                   injuries == 1 ? "y" : "ies", name);
    }
    str_cat(&t, ".");
}

/* The items in at most two lines: sentences when they fit, else a line of
 * fragments per side. Returns the count. */
int items_lines(const struct items *is, const struct render_corner c[SIDES],
                char lines[][RENDER_LINE_MAX])
{
    int nl = pack_full(is, lines, 2);

    if (nl >= 0)
        return nl;
    nl = 0;
    for (int v = 0; v < SIDES; v++) {
        int has = 0;

        for (int i = 0; i < is->n; i++)
            has |= is->it[i].side == v;
        if (!has)
            continue;
        side_summary(is, c, v, 0, lines[nl]);
        if (strlen(lines[nl]) >= SAY_MAX)
            side_summary(is, c, v, 1, lines[nl]);
        nl++;
    }
    return nl;
}

/* ------------------------------------------------------------ the tape */

static void wins_add(struct str *t, const struct render_corner *c);

static void corner_add(struct str *t, const struct render_corner *c, const struct words *w)
{
    str_cat(t, c->name);
    if (c->owner[0])
        render_fmt(t, " (%s)", c->owner);
    if (w)
        w->sheet_add(t, &c->sheet);
    render_fmt(t, ", %d-%d-%d", c->wins, c->losses, c->draws);
    wins_add(t, c);
}

int render_tape(const struct render_corner c[SIDES], enum rules rules, int rounds, int64_t id,
                char lines[][RENDER_LINE_MAX], int max)
{
    const struct ruleset *rs = ruleset_get(rules);
    const struct words *w = words_of(rules);
    struct str t;

    if (max <= 0)
        return 0;
    str_init_fixed(&t, lines[0], RENDER_LINE_MAX);
    render_fmt(&t, "Bout #%lld, %s, %d rounds: ", (long long)id, rs ? rs->name : "?", rounds);
    corner_add(&t, &c[0], w);
    if (max == 1) {
        str_cat(&t, " vs ");
        corner_add(&t, &c[1], w);
        line_clean(lines[0]);
        return 1;
    }
    str_init_fixed(&t, lines[1], RENDER_LINE_MAX);
    str_cat(&t, "vs ");
    corner_add(&t, &c[1], w);
    line_clean(lines[0]);
    line_clean(lines[1]);
    return 2;
}

/* ---------------------------------------------------------- the channel */

/* The round's lines in the channel's form (full 0) or the pages' (1). */
static int round_said(const struct render_corner c[SIDES], const struct bout *b,
                      const struct events *evs, struct rng *flavour,
                      char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX], int full)
{
    const struct words *w = words_of(b->rules);
    int n;

    if (b->round < 1 || !w)
        return 0;
    n = full && w->round_full ? w->round_full(c, b, evs, flavour, lines)
                              : w->round(c, b, evs, flavour, lines);
    for (int i = 0; i < n; i++)
        line_clean(lines[i]);
    return n;
}

int render_round(const struct render_corner c[SIDES], const struct bout *b,
                 const struct events *evs, struct rng *flavour,
                 char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX])
{
    return round_said(c, b, evs, flavour, lines, 0);
}

int render_round_full(const struct render_corner c[SIDES], const struct bout *b,
                      const struct events *evs, struct rng *flavour,
                      char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX])
{
    return round_said(c, b, evs, flavour, lines, 1);
}

/* ------------------------------------------------------- the report */

/* ------------------------------------------------------- figures */

void punches_add(struct str *t, double n, enum render_form form)
{
    if (form == RENDER_SCHEMA3)
        render_fixed(t, n, 2);
    else
        render_int(t, lround(n));
}

void figure_add(struct str *t, double x, enum render_form form)
{
    render_fixed(t, x, form == RENDER_SCHEMA3 ? 2 : 1);
}

void conceded_add(struct str *t, const struct render_corner c[SIDES], const int towel[SIDES])
{
    int one = towel[1] ? 1 : 0;

    if (towel[0] && towel[1] && c[0].conceded && c[1].conceded)
        str_cat(t, "both fighters");
    else if (towel[0] && towel[1] && c[0].conceded != c[1].conceded)
        render_fmt(t, "%s and %s's corner", c[!c[0].conceded].name, c[c[0].conceded].name);
    else if (towel[0] && towel[1])
        str_cat(t, "both corners");
    else if (c[one].conceded)
        str_cat(t, c[one].name); /* his own word: no corner's */
    else
        render_fmt(t, "%s's corner", c[one].name);
}

/* Appends "2.5 damage", or "no damage" for what shows as 0.0. */
static void damage_add(struct str *t, double x, enum render_form form)
{
    if (form == RENDER_PLAIN && x < 0.05)
        RENDER_LIT(t, "no damage");
    else {
        figure_add(t, x, form);
        RENDER_LIT(t, " damage");
    }
}

/* An injury, new or aggravated (EV_INJURY, EV_AGGRAVATED), of `name` in
 * the report's words. */
static void report_injury(struct str *t, const char *name, const struct event *e,
                          enum render_form form)
{
    char what[64], was[64];

    injury_name(e->a, e->b, what, sizeof(what));
    if (e->type == EV_INJURY) {
        render_fmt(t, "%s is injured: %s (level %d, ", name, what, e->b);
    } else {
        injury_name(e->a, e->c, was, sizeof(was));
        /* Old reports (RENDER_SCHEMA3) said "now" at every new level. */
        if (e->b != e->c && (form == RENDER_SCHEMA3 || !same_injury_words(e->a, e->b, e->c)))
            render_fmt(t, "%s's %s is aggravated: now %s (level %d, ", name, was, what, e->b);
        else
            render_fmt(t, "%s's %s is aggravated (level %d, ", name, what, e->b);
    }
    damage_add(t, e->x, form);
    str_cat(t, ").");
}

/* A stoppage (EV_TKO) of `name` in the report's words: a forfeit is none. */
static void report_tko(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                       const char *name, const struct event *e, enum render_form form)
{
    char why[128];

    if (form == RENDER_PLAIN && e->a == TKO_TOWEL && e->side >= 0 && e->side < SIDES &&
        c[e->side].conceded) {
        /* His own word, not a stoppage (old reports said it as one). */
        render_fmt(t, "%s concedes: a forfeit.", name);
        return;
    }
    tko_words((enum tko_reason)e->a, injuries_of(b, e->side), why, sizeof(why));
    render_fmt(t, "%s is stopped (%s).", name, why);
}

/* One event in plain words, one line, its figures written as `form` says. */
static void report_event(struct str *t, const struct render_corner c[SIDES], const struct bout *b,
                         const struct event *e, enum render_form form)
{
    const struct words *words = words_of(b->rules);
    const char *name = e->side >= 0 && e->side < SIDES ? c[e->side].name : "-";

    if (words && words->event_add && words->event_add(t, c, b, e, form))
        return;
    switch (e->type) {
    case EV_PUNCHES: /* the most common: written piece by piece */
        str_cat(t, name);
        RENDER_LIT(t, " throws ");
        render_int(t, e->a);
        RENDER_LIT(t, " and lands ");
        punches_add(t, e->x, form);
        RENDER_LIT(t, ".");
        break;
    case EV_DAMAGE:
        str_cat(t, name);
        RENDER_LIT(t, " deals ");
        damage_add(t, e->x, form);
        RENDER_LIT(t, ".");
        break;
    case EV_WARNING:
        render_fmt(t, "%s is warned for fighting dirty (warning %d, one point deducted).", name,
                   e->a);
        break;
    case EV_FOUL:
        render_fmt(t, "%s is warned for a foul (warning %d, one point deducted).", name, e->a);
        break;
    case EV_DQ:
        render_fmt(t, "%s is disqualified.", name);
        break;
    case EV_CLINCH_PENALTY:
        render_fmt(t, "%s is penalised for holding.", name);
        break;
    case EV_INJURY:
    case EV_AGGRAVATED:
        report_injury(t, name, e, form);
        break;
    case EV_KNOCKDOWN:
        if (e->a > 1)
            render_fmt(t, "%s is knocked down again (%d this round).", name, e->a);
        else
            render_fmt(t, "%s is knocked down.", name);
        break;
    case EV_KO:
        render_fmt(t, "%s is knocked out.", name);
        break;
    case EV_TKO:
        report_tko(t, c, b, name, e, form);
        break;
    case EV_CARD:
        RENDER_LIT(t, "Judge ");
        render_int(t, e->a + 1);
        RENDER_LIT(t, ": ");
        render_int(t, e->b);
        RENDER_LIT(t, "-");
        render_int(t, e->c);
        RENDER_LIT(t, ".");
        break;
    case EV_FATIGUE:
        str_cat(t, name);
        RENDER_LIT(t, " loses ");
        figure_add(t, e->x, form);
        RENDER_LIT(t, " endurance to fatigue.");
        break;
    case EV_RESULT:
        str_cat(t, "Result: ");
        result_add(t, c, b);
        break;
    default:
        render_fmt(t, "Event %d.", (int)e->type);
        break;
    }
}

int render_event(const struct render_corner c[SIDES], const struct bout *b, const struct event *e,
                 char *buf, size_t len)
{
    struct str t;
    char one[1];

    render_start(&t, buf, len, one);
    report_event(&t, c, b, e, RENDER_PLAIN);
    return render_len(&t);
}

int render_result_text(const struct render_corner c[SIDES], const struct bout *b, char *buf,
                       size_t len)
{
    struct str t;
    char one[1];

    render_start(&t, buf, len, one);
    result_add(&t, c, b);
    return render_len(&t);
}

int render_round_report(const struct render_corner cs[SIDES], const struct bout *b,
                        const struct events *evs, enum render_form form, char *buf, size_t len)
{
    const struct words *w = words_of(b->rules);
    struct str t;
    char one[1];
    /* Old reports (RENDER_SCHEMA3) knew no forfeit: a towel was a TKO. */
    struct render_corner c[SIDES] = {cs[0], cs[1]};
    if (form == RENDER_SCHEMA3)
        c[0].conceded = c[1].conceded = 0;

    render_start(&t, buf, len, one);
    RENDER_LIT(&t, "Round ");
    render_int(&t, b->round);
    RENDER_LIT(&t, " of ");
    render_int(&t, b->rounds);
    if (w)
        w->report_head(&t, c, b, form);
    for (int k = 0; k < evs->n; k++) {
        const struct event *e = &evs->ev[k];
        RENDER_LIT(&t, "\n  ");
        /* A knockout the earlier stoppage voided (old reports said it
         * plainly). */
        if (form == RENDER_PLAIN && e->type == EV_KO && ko_void(evs, e->side))
            render_fmt(&t, "%s would have been counted out, but was stopped first.",
                       c[e->side].name);
        else
            report_event(&t, c, b, e, form);
    }
    if (evs->dropped > 0)
        render_fmt(&t, "\n  (%d more events not recorded)", evs->dropped);
    if (w && w->report_tail)
        w->report_tail(&t, c, b, form);
    return render_len(&t);
}

/* ------------------------------------------------------- the result */

int render_result(const struct render_corner c[SIDES], const struct bout *b, struct rng *flavour,
                  char lines[RENDER_RESULT_MAX][RENDER_LINE_MAX])
{
    const struct words *w = words_of(b->rules);
    int n;

    if (!w)
        return 0;
    n = w->result(c, b, flavour, lines);
    for (int i = 0; i < n; i++)
        line_clean(lines[i]);
    return n;
}

/* -------------------------------------------------------- the score */

int render_score(const struct render_corner c[SIDES], const struct bout *b, char *buf, size_t len)
{
    const struct words *w = words_of(b->rules);
    struct str t;
    char one[1];

    render_start(&t, buf, len, one);
    if (b->round == 0) {
        render_fmt(&t, "Round 1 of %d to come: ", b->rounds);
    } else {
        if (b->result.over)
            RENDER_LIT(&t, "Final, after round ");
        else
            RENDER_LIT(&t, "After round ");
        render_int(&t, b->round);
        RENDER_LIT(&t, " of ");
        render_int(&t, b->rounds);
        RENDER_LIT(&t, ": ");
    }
    if (w)
        w->score_add(&t, c, b);
    return render_len(&t);
}

int render_kit(const struct sheet *s, char *buf, size_t len)
{
    const struct words *w = words_of(s->rules);
    struct str t;
    char one[1];

    render_start(&t, buf, len, one);
    if (w && w->kit_add)
        w->kit_add(&t, s, NULL);
    return render_len(&t);
}

int render_kit_after(const struct sheet *before, const struct sheet *after, char *buf, size_t len)
{
    const struct words *w = words_of(after->rules);
    struct str t;
    char one[1];

    render_start(&t, buf, len, one);
    if (w && w->kit_add)
        w->kit_add(&t, after, before);
    return render_len(&t);
}

/* src into dst[size], cut to size - 1 bytes as snprintf's "%s" cuts it. */
static void text_copy(char *dst, size_t size, const char *src)
{
    size_t n = strnlen(src, size - 1);

    memcpy(dst, src, n);
    dst[n] = '\0';
}

void render_corner_fill(struct render_corner *c, const struct db_fighter *f)
{
    memset(c, 0, sizeof(*c));
    text_copy(c->name, sizeof(c->name), f->name);
    text_copy(c->owner, sizeof(c->owner), f->owner);
    c->sheet = f->sheet;
    c->wins = f->wins;
    c->losses = f->losses;
    c->draws = f->draws;
    c->kos = f->kos;
    c->tkos = f->tkos;
    c->towels = f->towels;
    c->dqs = f->dqs;
    c->forfeits = f->forfeits;
}

int render_wins(const struct render_corner *c, int by, char *buf, size_t len)
{
    const struct words *w = words_of(c->sheet.rules);
    const char *towel = w && w->towel_words ? "yield" : "towel";
    const struct {
        int n;
        const char *what;
    } part[] = {{c->kos, "KO"},
                {c->tkos, "TKO"},
                {c->towels, towel},
                {c->dqs, "DQ"},
                {c->forfeits, "forfeit"}};
    struct str t;
    char one[1];

    render_start(&t, buf, len, one);
    for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
        if (part[i].n == 0 && !(by && i == 0))
            continue;
        render_fmt(&t, "%s%d", render_len(&t) ? ", " : "", part[i].n);
        if (by)
            render_fmt(&t, " by %s", part[i].what);
        else
            render_fmt(&t, " %s%s", part[i].what, part[i].n == 1 ? "" : "s");
    }
    return render_len(&t);
}

/* Appends " (3 KOs, 1 TKO)": how c's wins ended, when any did. */
static void wins_add(struct str *t, const struct render_corner *c)
{
    char how[160];

    if (render_wins(c, 0, how, sizeof(how)) > 0)
        render_fmt(t, " (%s)", how);
}

/* ------------------------------------------------------ the aftermath */

/* A corner's record: "5-1-0 (3 KOs)". */
static void record_add(struct str *t, const struct render_corner *c)
{
    render_fmt(t, "%s %d-%d-%d", c->name, c->wins, c->losses, c->draws);
    wins_add(t, c);
}

int render_result_plain(enum rules rules)
{
    const struct words *w = words_of(rules);

    return w && w->result_plain;
}

int render_aftermath(const struct render_corner before[SIDES],
                     const struct render_corner after[SIDES], const struct bout *b, char *buf,
                     size_t len)
{
    const struct words *w = words_of(b->rules);
    const struct ruleset *rs = ruleset_get(b->rules);
    struct str t;
    char one[1];
    int changes = 0;

    render_start(&t, buf, len, one);
    if (w && !w->result_plain) {
        result_add(&t, before, b);
        str_cat(&t, " ");
    }
    /* The winner first. */
    int first = b->result.winner > 0 ? 1 : 0;
    for (int k = 0; k < SIDES && rs; k++)
        for (int i = 0, s = k ^ first; i < rs->nfields; i++) {
            int was = sheet_field_get(&before[s].sheet, i),
                now = sheet_field_get(&after[s].sheet, i);
            if (was == now)
                continue;
            render_fmt(&t, "%s%s's %s goes %s to %d", changes ? "; " : "", after[s].name,
                       rs->fields[i].label, now > was ? "up" : "down", now);
            changes++;
        }
    if (changes)
        str_cat(&t, ". ");
    str_cat(&t, "Records now: ");
    record_add(&t, &after[first]);
    str_cat(&t, ", ");
    record_add(&t, &after[!first]);
    str_cat(&t, ".");
    line_clean(buf);
    return render_len(&t);
}

/* -------------------------------------------------------- the corner */

/* The injuries of `side` so far, ", a cut ..., a fractured nose" after
 * `lead` (nothing when none). */
static void injuries_add(struct str *t, const struct bout *b, int side, const char *lead)
{
    const struct injury *inj = injuries_of(b, side);
    int n = 0;

    for (int loc = 0; inj && loc < INJ_COUNT; loc++) {
        char what[64];
        if (inj[loc].level <= 0)
            continue;
        injury_phrase(loc, inj[loc].level, what, sizeof(what));
        render_fmt(t, "%s%s", n++ ? ", " : lead, what);
    }
}

static const char *times_words(int n)
{
    static const char *const w[] = {"", "once", "twice", "three times"};
    return n >= 0 && n <= 3 ? w[n] : "many times";
}

int render_corner_report(const struct render_corner c[SIDES], const struct bout *b, int side,
                         char *buf, size_t len)
{
    static const char *const looks[] = {"weak", "tired", "strong"};
    const struct words *w = words_of(b->rules);
    struct plan_vars v;
    struct str t;
    char one[1];

    render_start(&t, buf, len, one);
    if (b->round == 0 || b->result.over || side < 0 || side >= SIDES) {
        buf[0] = '\0';
        return 0;
    }
    if (w && w->corner_add) {
        w->corner_add(&t, c, b, side);
        line_clean(buf);
        return render_len(&t);
    }
    bout_plan_vars(b, side, &v);
    render_fmt(&t, "Your corner: %s has %d endurance (%d%% of the start)", c[side].name,
               (int)v.endurance, v.endurance_percent);
    injuries_add(&t, b, side, ", ");
    if (v.my_knockdowns > 0)
        render_fmt(&t, ", was down %s", times_words(v.my_knockdowns));
    if (v.warnings > 0)
        render_fmt(&t, ", %d warning%s", v.warnings, v.warnings == 1 ? "" : "s");
    render_fmt(&t, "; %s looks %s", c[!side].name, looks[v.opp < 0 ? 0 : v.opp > 2 ? 2 : v.opp]);
    injuries_add(&t, b, !side, ", with ");
    if (v.his_knockdowns > 0)
        render_fmt(&t, ", down %s", times_words(v.his_knockdowns));
    str_cat(&t, ". ");
    if (w && w->score_add) {
        str_cat(&t, "Score: ");
        w->score_add(&t, c, b);
        str_cat(&t, ".");
    }
    line_clean(buf);
    return render_len(&t);
}
