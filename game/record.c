/*
 * record.c - how a finished bout counts in the fighters' records: a win, a
 * loss or a draw, and for the winner how his win ended. The ends are kept
 * apart (docs/rules-notes.md, "Results and records"): a KO; a TKO, the
 * referee's or the doctor's stoppage; the towel his opponent's plan threw
 * in (a duel's plan yielding); the opponent's disqualification; and a
 * forfeit, the opponent conceding by his own word (the forfeit command,
 * or a towel or yield he ordered himself for the round). The engine sees
 * a towel either way; only where the order came from tells them apart.
 */
#include <stdlib.h>

#include "game.h"
#include "game_internal.h"

int record_conceded(const struct order *o, enum db_order_source source)
{
    return source == DB_ORDER_PLAYER && ruleset_get(o->rules)->order_is_towel(o);
}

int record_forfeit(const struct result *res, const int conceded[SIDES])
{
    return res->over && res->winner >= 0 && res->method == METHOD_TKO && res->reason == TKO_TOWEL &&
           conceded[!res->winner];
}

void record_win_add(struct db_fighter *f, const struct result *res, int forfeit)
{
    switch (res->method) {
    case METHOD_KO:
        f->kos++;
        break;
    case METHOD_TKO:
        if (res->reason != TKO_TOWEL)
            f->tkos++;
        else if (forfeit)
            f->forfeits++;
        else
            f->towels++;
        break;
    case METHOD_DQ:
        f->dqs++;
        break;
    default: /* on the cards, on points: counted as a win only */
        break;
    }
}

void record_after_bout(const struct ruleset *rs, const struct result *res, int forfeit,
                       struct sheet sh[SIDES], int points[SIDES])
{
    struct result as_if = *res;

    /* A forfeit is no stoppage the winner made: it leaves what a win
     * without one leaves (boxing: 1 training point, not a stoppage's 2). */
    if (forfeit) {
        as_if.method = METHOD_DECISION;
        as_if.reason = TKO_NONE;
    }
    rs->after_bout(&as_if, sh, points);
}

int record_bout_forfeit(struct db *db, const struct db_bout *bt)
{
    if (bt->state != DB_BOUT_OVER || bt->winner < 0 || bt->winner >= SIDES ||
        bt->method != METHOD_TKO || bt->reason != TKO_TOWEL)
        return 0;
    /* Only such an end reads the orders: one row a round and side. */
    struct db_order *o = xmalloc(REPLAY_ORDERS * sizeof(*o));
    int n = 0, forfeit = 0;

    if (db_order_list(db, bt->id, o, REPLAY_ORDERS, &n) != DB_OK)
        n = 0;
    for (int k = 0; k < n; k++) {
        struct order ord;
        if (o[k].round == bt->round && o[k].side == !bt->winner &&
            bout_order_read(bt->rules, o[k].text, &ord) == 0)
            forfeit = record_conceded(&ord, o[k].source);
    }
    free(o);
    return forfeit;
}

const char *record_bout_how(struct db *db, const struct db_bout *bt)
{
    if (bt->winner < 0)
        return render_method_name(bt->drawn_by);
    return render_win_how(bt->rules, bt->method, bt->reason, record_bout_forfeit(db, bt));
}

/* 1 if a slot of `a` holds another piece than the same slot of `b`. */
static int kit_moved(const struct ruleset *rs, const struct sheet *a, const struct sheet *b)
{
    for (int k = 0; k < rs->kit_slots; k++) {
        int ai, ac, bi, bc;
        sheet_kit_get(a, k, &ai, &ac);
        sheet_kit_get(b, k, &bi, &bc);
        if (ai != bi)
            return 1;
    }
    return 0;
}

/* Slot k of the merge (record_sheet_merge) into `out`, every slot of the
 * stored sheet holding the piece it held at the start. */
static void kit_merge(int k, const struct sheet *start, const struct sheet *after,
                      const struct sheet *now, struct sheet *out)
{
    int si, sc, ai, ac, ni, nc;

    sheet_kit_get(start, k, &si, &sc);
    sheet_kit_get(after, k, &ai, &ac);
    sheet_kit_get(now, k, &ni, &nc);
    if (ai != si || ni == 0) /* the bout's piece (broken, moved up), or none */
        sheet_kit_set(out, k, ai, ac);
    else /* worn by both: the stored condition less this bout's wear */
        sheet_kit_set(out, k, ni, nc + ac - sc < 1 ? 1 : nc + ac - sc);
}

struct sheet record_sheet_merge(const struct ruleset *rs, const struct sheet *start,
                                const struct sheet *after, const struct sheet *now)
{
    struct sheet out = *now;

    for (int i = 0; i < rs->nfields; i++) {
        int v = sheet_field_get(now, i) + sheet_field_get(after, i) - sheet_field_get(start, i);
        /* A loss never takes an ability below its floor (as the bout's own
         * rule would not); a gain is the bout's, unbounded as it is. */
        if (v < sheet_field_get(now, i) && v < rs->fields[i].lo)
            v = rs->fields[i].lo;
        sheet_field_set(&out, i, v);
    }
    /* A piece changed meanwhile (another bout broke one, the armoury
     * replaced one): the stored kit stands, since pieces move between
     * slots together (a torso broken lets the layer under it up) and a
     * slot merged alone could bring back a piece broken meanwhile; this
     * bout's wear is then lost, never a piece found again. */
    if (kit_moved(rs, start, now))
        return out;
    for (int k = 0; k < rs->kit_slots; k++)
        kit_merge(k, start, after, now, &out);
    return out;
}
