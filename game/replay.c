/*
 * replay.c - stored bouts fought again: orders as the database keeps them,
 * round digests, `ringside-sim --replay`, and the reports and commentary
 * derived from a bout's seed, start sheets and stored orders.
 *
 * A bout is a function of its sheets, its orders and its seed, so nothing
 * but those is stored; every text about a bout is rebuilt when asked. The
 * commentary's wording is drawn from the flavour stream in the same order as
 * when the bout was fought (render_round for every round, render_result
 * after the last), so even the words come out the same.
 *
 * What proves a replay right is the digest: a hash of everything the
 * engine reported, chained round by round, stored with every round of a
 * live bout and with every finished bout. Rounds stored before digests
 * existed (schema 3) kept their report text instead, and are compared with
 * the rebuilt report byte for byte.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "game_internal.h"
#include "parse.h"

#define REPORT_MAX DB_REPORT_MAX

static const char *const state_names[] = {"a challenge", "live", "over", "cancelled"};

/* ---------------------------------------------------- orders as stored */

void bout_order_towel(enum rules rules, struct order *o)
{
    ruleset_get(rules)->order_towel(o);
}

void bout_order_text(const struct order *o, char *buf, size_t len)
{
    if (ruleset_get(o->rules)->order_is_towel(o))
        snprintf(buf, len, "towel");
    else
        order_format(o, buf, len);
}

/* A number of a boxing order as order_format writes it: 1 to
 * BOXING_ENERGY, no leading zero. Returns it, *p past it; or -1. */
static int stored_number(const char **p)
{
    const char *s = *p;
    int v = 0;

    if (*s < '1' || *s > '9')
        return -1;
    for (int n = 0; *s >= '0' && *s <= '9'; n++, s++) {
        if (n == 2)
            return -1;
        v = v * 10 + (*s - '0');
    }
    *p = s;
    return v <= BOXING_ENERGY ? v : -1;
}

/* The style of a boxing order as order_format writes it, " (inside)" at
 * *p: its style, *p past it; or -1. */
static int stored_style(const char **p)
{
    const char *s = *p;

    if (s[0] != ' ' || s[1] != '(')
        return -1;
    s += 2;
    size_t n = strcspn(s, ")");
    if (s[n] != ')')
        return -1;
    for (int k = STYLE_NONE + 1; k < STYLE_COUNT; k++) {
        const char *name = style_name((enum style)k);
        if (strlen(name) == n && memcmp(name, s, n) == 0) {
            *p = s + n + 1;
            return k;
        }
    }
    return -1;
}

/* A boxing order read in the one form order_format writes and the
 * database keeps (AGG[H|B]/POW[!]/DEF[ (style)]), without the grammar's
 * pattern: a page reads every stored order of its bout. Returns 0, or -1
 * for any other text, which the grammar then reads (or refuses); for the
 * texts read here both give the same order (check_page). */
static int boxing_stored(const char *text, struct order *o)
{
    struct boxing_order bo;
    const char *p = text;

    memset(&bo, 0, sizeof(bo));
    if ((bo.agg = stored_number(&p)) < 0)
        return -1;
    bo.target = *p == 'H' ? TARGET_HEAD : *p == 'B' ? TARGET_BODY : TARGET_OPPORTUNISTIC;
    p += bo.target != TARGET_OPPORTUNISTIC;
    if (*p != '/')
        return -1;
    p++;
    if ((bo.pow = stored_number(&p)) < 0)
        return -1;
    bo.dirty = *p == '!';
    p += bo.dirty;
    if (*p != '/')
        return -1;
    p++;
    if ((bo.def = stored_number(&p)) < 0 || bo.agg + bo.pow + bo.def > BOXING_ENERGY)
        return -1;
    int style = *p ? stored_style(&p) : STYLE_NONE;
    if (style < 0 || *p)
        return -1;
    bo.style = (enum style)style;
    memset(o, 0, sizeof(*o));
    o->rules = RULES_BOXING;
    o->u.boxing = bo;
    return 0;
}

/* A number of a sugarray order as order_format writes it: 0 to
 * SUGARRAY_ORDER_MAX, no leading zero. Returns it, *p past it; or -1. */
static int sugarray_number_stored(const char **p)
{
    const char *s = *p;

    if (*s < '0' || *s > '9')
        return -1;
    int v = *s++ - '0';
    while (v > 0 && *s >= '0' && *s <= '9' && v <= SUGARRAY_ORDER_MAX)
        v = v * 10 + (*s++ - '0');
    if ((*s >= '0' && *s <= '9') || v > SUGARRAY_ORDER_MAX)
        return -1;
    *p = s;
    return v;
}

/* A sugarray order read in the one form order_format writes and the
 * database keeps (ATTACK/DEFENCE), without the grammar's pattern, as
 * boxing_stored: 0, or -1 for any other text (the grammar's then). */
static int sugarray_stored(const char *text, struct order *o)
{
    const char *p = text;
    int attack = sugarray_number_stored(&p);

    if (attack < 0 || *p != '/')
        return -1;
    p++;
    int defence = sugarray_number_stored(&p);
    if (defence < 0 || *p)
        return -1;
    memset(o, 0, sizeof(*o));
    o->rules = RULES_SUGARRAY;
    o->u.sugarray.attack = attack;
    o->u.sugarray.defence = defence;
    return 0;
}

int bout_order_read(enum rules rules, const char *text, struct order *o)
{
    struct parse_error err;

    if (strcmp(text, "towel") == 0) {
        bout_order_towel(rules, o);
        return 0;
    }
    if (rules == RULES_BOXING && boxing_stored(text, o) == 0)
        return 0;
    if (rules == RULES_SUGARRAY && sugarray_stored(text, o) == 0)
        return 0;
    return order_parse(rules, text, o, &err);
}

/* ------------------------------------------------------------ digests */

/* One 64-bit value into the hash: a multiply-xorshift step over the
 * value itself (not its bytes in memory), so a digest is the same on every
 * machine. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 29);
}

static uint64_t mix_double(uint64_t h, double x)
{
    uint64_t bits;

    memcpy(&bits, &x, sizeof(bits));
    return mix(h, bits);
}

uint64_t bout_digest(uint64_t prev, const struct bout *b, const struct events *evs)
{
    uint64_t h = prev ? prev : 0xcbf29ce484222325ULL;
    const struct result *res = &b->result;

    h = mix(h, (uint64_t)b->round);
    for (int k = 0; k < evs->n; k++) {
        const struct event *e = &evs->ev[k];
        h = mix(h, (uint64_t)e->type);
        h = mix(h, (uint64_t)(int64_t)e->side);
        h = mix(h, (uint64_t)(int64_t)e->a);
        h = mix(h, (uint64_t)(int64_t)e->b);
        h = mix(h, (uint64_t)(int64_t)e->c);
        h = mix_double(h, e->x);
    }
    h = mix(h, (uint64_t)evs->dropped);
    h = mix(h, (uint64_t)res->over);
    if (res->over) {
        h = mix(h, (uint64_t)(int64_t)res->winner);
        h = mix(h, (uint64_t)res->method);
        h = mix(h, (uint64_t)res->drawn_by);
        h = mix(h, (uint64_t)res->reason);
        h = mix(h, (uint64_t)res->decision);
        for (int j = 0; j < JUDGES; j++)
            for (int s = 0; s < SIDES; s++)
                h = mix(h, (uint64_t)(int64_t)res->cards[j][s]);
    }
    return h ? h : 1; /* 0 stands for "before round 1" */
}

/* ------------------------------------------------------ the replayer */

int bout_words(const struct db_bout *rec)
{
    /* League bouts fought before schema 4 drew the words of a commentary
     * nobody heard; those since draw none. */
    return rec->kind == DB_BOUT_EXHIBITION || !rec->has_digest;
}

/* Loads bout `id` for a replay. Returns 0; or 2 (with err) when it cannot
 * be replayed: not found, never fought, a fighter or its orders missing. */
int replayer_open(struct replayer *rp, struct db *db, int64_t id, char *err, size_t errlen)
{
    /* All but the orders' room (tens of KB), which db_order_list fills as
     * far as nords says. */
    memset(rp, 0, offsetof(struct replayer, ords));
    memset((char *)rp + offsetof(struct replayer, nords), 0,
           sizeof(*rp) - offsetof(struct replayer, nords));
    if (db_bout_get(db, id, &rp->rec) != DB_OK) {
        snprintf(err, errlen, "there is no bout %lld", (long long)id);
        return 2;
    }
    if (rp->rec.state != DB_BOUT_LIVE && rp->rec.state != DB_BOUT_OVER) {
        snprintf(err, errlen, "bout %lld is %s: nothing was fought", (long long)id,
                 state_names[rp->rec.state]);
        return 2;
    }
    /* The corners in one read; each on its own (and said missing) when
     * that one fails. */
    struct db_fighter f[SIDES];
    int both = db_bout_corners(db, rp->rec.fighter, f) == DB_OK;
    for (int s = 0; s < SIDES; s++) {
        if (!both && db_fighter_get_id(db, rp->rec.fighter[s], &f[s]) != DB_OK) {
            snprintf(err, errlen, "fighter %lld of bout %lld is missing",
                     (long long)rp->rec.fighter[s], (long long)id);
            return 2;
        }
        render_corner_fill(&rp->corner[s], &f[s]);
        memcpy(rp->owner_network[s], f[s].owner_network, DB_NETWORK_MAX);
        rp->corner[s].sheet = rp->rec.sheet[s];
    }
    if (bout_init(&rp->b, rp->rec.rules, rp->rec.sheet, rp->rec.rounds) != 0 ||
        db_order_list(db, id, rp->ords, REPLAY_ORDERS, &rp->nords) != DB_OK) {
        snprintf(err, errlen, "bout %lld cannot be set up again", (long long)id);
        return 2;
    }
    bout_rng_seed(&rp->r, rp->rec.seed);
    rp->words = bout_words(&rp->rec);
    return 0;
}

/* Reads side s's stored order `text` into *o, as bout_order_read does:
 * the same text as the side's last is not parsed again. Returns 0, or -1
 * when it does not read. */
static int replayer_order(struct replayer *rp, int s, const char *text, struct order *o)
{
    if (rp->read_text[s] && strcmp(rp->read_text[s], text) == 0) {
        *o = rp->read[s];
        return 0;
    }
    if (bout_order_read(rp->rec.rules, text, o) != 0)
        return -1;
    rp->read_text[s] = text;
    rp->read[s] = *o;
    return 0;
}

/* Fights the next round from its stored orders, drawing the commentary's
 * words into lines[] (and, when the bout ends, the result's into result[],
 * *nres of them) as the live bout did. Returns the number of commentary
 * lines (0 for a bout without words), or -1 when the round's orders are
 * missing or do not replay. */
int replayer_round(struct replayer *rp, char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX],
                   char result[RENDER_RESULT_MAX][RENDER_LINE_MAX], int *nres)
{
    struct order o[SIDES];
    int round = rp->b.round + 1, got = 0;

    *nres = 0;
    for (int k = 0; k < rp->nords; k++)
        if (rp->ords[k].round == round &&
            replayer_order(rp, rp->ords[k].side, rp->ords[k].text, &o[rp->ords[k].side]) == 0) {
            int s = rp->ords[k].side;
            got |= 1 << s;
            /* A forfeit reads as one, as it did live (record.c). */
            rp->corner[s].conceded = record_conceded(&o[s], rp->ords[k].source);
        }
    if (got != 3 || rp->b.result.over || bout_round(&rp->b, o, &rp->r, &rp->evs) != 0)
        return -1;
    if (!rp->blind)
        rp->digest = bout_digest(rp->digest, &rp->b, &rp->evs);
    if (!rp->words)
        return 0;
    int n = rp->full ? render_round_full(rp->corner, &rp->b, &rp->evs, &rp->r.flavour, lines)
                     : render_round(rp->corner, &rp->b, &rp->evs, &rp->r.flavour, lines);
    if (rp->b.result.over)
        *nres = render_result(rp->corner, &rp->b, &rp->r.flavour, result);
    return n;
}

/* ------------------------------------------------------------- replay */

/* Prints the first difference between two texts, line by line. */
static void first_difference(FILE *out, const char *want, const char *got)
{
    int line = 1;

    while (*want && *got) {
        size_t a = strcspn(want, "\n"), b = strcspn(got, "\n");
        if (a != b || memcmp(want, got, a) != 0) {
            fprintf(out, "  line %d stored:   %.*s\n  line %d replayed: %.*s\n", line, (int)a, want,
                    line, (int)b, got);
            return;
        }
        want += a + (want[a] == '\n');
        got += b + (got[b] == '\n');
        line++;
    }
    fprintf(out, "  one text is longer (line %d)\n", line);
}

/* Compares the report of a round stored before digests, `stored`, with
 * the one the replay writes now. Returns 1 for a mismatch, 0 for a match. */
static int check_report(FILE *out, const struct replayer *rp, int round, const char *stored)
{
    char *again = xmalloc(REPORT_MAX);
    int differs;

    /* Those reports were written with two decimals throughout. */
    render_round_report(rp->corner, &rp->b, &rp->evs, RENDER_SCHEMA3, again, REPORT_MAX);
    differs = strcmp(stored, again) != 0;
    if (differs) {
        fprintf(out, "round %d: MISMATCH\n", round);
        first_difference(out, stored, again);
    } else {
        fprintf(out, "round %d: match\n", round);
    }
    free(again);
    return differs;
}

/* Checks the round just replayed against what is stored for it: its
 * digest, or the report of a round stored before digests. Returns 1 for a
 * mismatch, 0 for a match, 2 when nothing is stored for it (a league
 * round: the bout's digest covers it). */
static int check_round(FILE *out, struct db *db, const struct replayer *rp, int round)
{
    uint64_t digest;
    int rc = db_round_digest(db, rp->rec.id, round, &digest);

    if (rc == DB_OK) {
        if (digest != rp->digest) {
            fprintf(out, "round %d: MISMATCH: digest %016llx stored, %016llx replayed\n", round,
                    (unsigned long long)digest, (unsigned long long)rp->digest);
            return 1;
        }
        fprintf(out, "round %d: match\n", round);
        return 0;
    }
    char *stored = xmalloc(REPORT_MAX);
    int seen = 2;
    if (db_round_report(db, rp->rec.id, round, stored, REPORT_MAX) == DB_OK && stored[0])
        seen = check_report(out, rp, round, stored);
    else
        fprintf(out, "round %d: replayed\n", round);
    free(stored);
    return seen;
}

/* Checks the end of replayed bout `rp` against the database: the bout's
 * digest when only it was stored (league bouts; `unchecked` rounds had
 * none of their own), and the result. Returns the mismatches. */
static int check_end(FILE *out, const struct replayer *rp, int unchecked)
{
    const struct db_bout *rec = &rp->rec;
    const struct result *res = &rp->b.result;
    int bad = 0;

    if (unchecked && rec->has_digest) {
        int same = rec->digest == rp->digest;
        fprintf(out, "digest: %s\n", same ? "match" : "MISMATCH");
        bad += !same;
    }
    if (rec->state == DB_BOUT_OVER) {
        int same = res->over && res->winner == rec->winner && res->method == rec->method &&
                   res->reason == rec->reason && res->decision == rec->decision &&
                   res->round == rec->round;
        fprintf(out, "result: %s\n", same ? "match" : "MISMATCH");
        bad += !same;
    } else if (res->over) {
        fprintf(out, "result: MISMATCH: the replay ended the bout, the database says it is live\n");
        bad++;
    }
    return bad;
}

/* Fights every stored round of opened bout `rp` again, saying how each
 * compares. Returns the mismatches. */
static int replay_rounds(FILE *out, struct db *db, struct replayer *rp)
{
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
    char result[RENDER_RESULT_MAX][RENDER_LINE_MAX];
    int bad = 0, unchecked = 0, nres;

    for (int round = 1; round <= rp->rec.round; round++) {
        if (replayer_round(rp, lines, result, &nres) < 0) {
            fprintf(out, "round %d: MISMATCH: its orders are missing or do not replay\n", round);
            bad++;
            break;
        }
        int seen = check_round(out, db, rp, round);
        bad += seen == 1;
        unchecked += seen == 2;
    }
    /* League bouts store one digest for the whole bout, not one a round. */
    return bad + check_end(out, rp, bad ? 0 : unchecked);
}

int bout_replay(struct db *db, int64_t id, FILE *out)
{
    struct replayer *rp = xmalloc(sizeof(*rp));
    char err[256];

    int rc = replayer_open(rp, db, id, err, sizeof(err));
    if (rc != 0) {
        fprintf(out, "%s\n", err);
        free(rp);
        return rc;
    }
    const struct db_bout *rec = &rp->rec;
    fprintf(out, "bout %lld: %s vs %s, %s, %d rounds, seed %llu, %d rounds stored\n", (long long)id,
            rp->corner[0].name, rp->corner[1].name, ruleset_get(rec->rules)->name, rec->rounds,
            (unsigned long long)rec->seed, rec->round);
    int bad = replay_rounds(out, db, rp);
    fprintf(out, "%s\n",
            bad ? "replay differs from the stored bout" : "replay matches the stored bout");
    free(rp);
    return bad ? 1 : 0;
}

/* ------------------------------------------------- derived texts */

/* What derive() collects of each round. */
enum derived {
    DERIVE_REPORT,     /* the blow-by-blow */
    DERIVE_COMMENTARY, /* the channel's lines and the result's */
    DERIVE_AGAIN,      /* the same, and the end of a finished bout */
};

/* Appends `text` to `out` as a line of its own. */
static void line_add(struct str *out, const char *text)
{
    if (out->len)
        str_ch(out, '\n');
    str_cat(out, text);
}

/* Appends the end of finished bout `rp` as the live bout said it: the
 * records as they stand and the sheets the bout left. */
static void aftermath_add(struct str *out, const struct replayer *rp)
{
    const struct ruleset *rs = ruleset_get(rp->rec.rules);
    struct render_corner after[SIDES];
    struct sheet sh[SIDES] = {rp->rec.sheet[0], rp->rec.sheet[1]};
    char line[RENDER_LINE_MAX];
    int points[SIDES];

    rs->after_bout(&rp->b.result, sh, points);
    if (rs->sheet_after)
        rs->sheet_after(&rp->b, sh);
    for (int s = 0; s < SIDES; s++) {
        after[s] = rp->corner[s];
        after[s].sheet = sh[s];
    }
    render_aftermath(rp->corner, after, &rp->b, line, sizeof(line));
    line_add(out, line);
}

/* Fights rounds 1..to of opened bout `rp` again and appends to `out`
 * what `what` asks of rounds from..to. Returns 0, or -1 with err. */
static int derive_rounds(struct replayer *rp, int from, int to, enum derived what, struct str *out,
                         char *err, size_t errlen)
{
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
    char result[RENDER_RESULT_MAX][RENDER_LINE_MAX];
    char *report = what == DERIVE_REPORT ? xmalloc(REPORT_MAX) : NULL;
    int rc = 0;

    for (int round = 1; round <= to; round++) {
        int nres, n = replayer_round(rp, lines, result, &nres);
        if (n < 0) {
            snprintf(err, errlen, "bout %lld: the orders of round %d do not replay",
                     (long long)rp->rec.id, round);
            rc = -1;
            break;
        }
        if (round < from)
            continue;
        if (report) {
            render_round_report(rp->corner, &rp->b, &rp->evs, RENDER_PLAIN, report, REPORT_MAX);
            line_add(out, report);
            continue;
        }
        for (int i = 0; i < n; i++)
            line_add(out, lines[i]);
        for (int i = 0; i < nres; i++)
            line_add(out, result[i]);
        if (what == DERIVE_AGAIN && nres > 0)
            aftermath_add(out, rp);
    }
    free(report);
    return rc;
}

/* Replays bout `id` through round `to` (0: every round stored) and
 * collects what `what` asks of rounds from..to, '\n' between lines.
 * Returns the text (allocated), or NULL with err. */
static char *derive(struct db *db, int64_t id, int from, int to, enum derived what, char *err,
                    size_t errlen)
{
    struct replayer *rp = xmalloc(sizeof(*rp));
    struct str out;
    int rc = replayer_open(rp, db, id, err, errlen) != 0 ? -1 : 0;

    str_init(&out);
    if (rc == 0 && (to <= 0 || to > rp->rec.round))
        to = rp->rec.round;
    if (rc == 0 && (from < 1 || from > to)) {
        snprintf(err, errlen, "bout %lld has no round %d", (long long)id, from);
        rc = -1;
    }
    if (rc == 0)
        rc = derive_rounds(rp, from, to, what, &out, err, errlen);
    if (rc == 0 && what == DERIVE_AGAIN && rp->b.result.over && to == rp->rec.round) {
        /* What the end did to the ratings, as the live bout said it. */
        const char *names[SIDES] = {rp->corner[0].name, rp->corner[1].name};
        char line[RENDER_LINE_MAX];
        if (rating_line(db, id, rp->b.result.winner, names, line, sizeof(line)) > 0)
            line_add(&out, line);
    }
    free(rp);
    if (rc != 0) {
        str_free(&out);
        return NULL;
    }
    return str_take(&out, NULL);
}

char *bout_report(struct db *db, int64_t id, int from, int to, char *err, size_t errlen)
{
    return derive(db, id, from, to, DERIVE_REPORT, err, errlen);
}

char *bout_commentary(struct db *db, int64_t id, int from, int to, char *err, size_t errlen)
{
    return derive(db, id, from, to, DERIVE_COMMENTARY, err, errlen);
}

char *bout_commentary_again(struct db *db, int64_t id, int from, int to, char *err, size_t errlen)
{
    return derive(db, id, from, to, DERIVE_AGAIN, err, errlen);
}

/* Replayed bout `rp` in one line (bout_summary) into t. */
static void summary_add(struct str *t, const struct replayer *rp)
{
    const struct render_corner *c = rp->corner;
    char how[RENDER_LINE_MAX];

    str_add(t, "%s vs %s (%s)", c[0].name, c[1].name, ruleset_get(rp->rec.rules)->name);
    if (rp->b.result.over) {
        render_result_text(c, &rp->b, how, sizeof(how));
        str_add(t, ": %s", how);
    } else {
        str_add(t, ", live: %d of %d rounds fought", rp->rec.round, rp->rec.rounds);
    }
}

int bout_summary(struct db *db, int64_t id, char *buf, size_t len, char *err, size_t errlen)
{
    struct replayer *rp = xmalloc(sizeof(*rp));
    char lines[RENDER_ROUND_LINES][RENDER_LINE_MAX];
    char result[RENDER_RESULT_MAX][RENDER_LINE_MAX];
    int nres, rc = replayer_open(rp, db, id, err, errlen) != 0 ? -1 : 0;

    rp->words = 0; /* no words are needed: the result is said plainly */
    for (int round = 1; rc == 0 && round <= rp->rec.round; round++)
        if (replayer_round(rp, lines, result, &nres) < 0) {
            snprintf(err, errlen, "bout %lld: the orders of round %d do not replay", (long long)id,
                     round);
            rc = -1;
        }
    if (rc == 0) {
        struct str t;
        str_init_fixed(&t, buf, len);
        summary_add(&t, rp);
    }
    free(rp);
    return rc;
}
