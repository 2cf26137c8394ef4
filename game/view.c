/*
 * view.c - a stored bout as the web pages show it: everything about each
 * round fought so far, derived by fighting the bout again from its seed,
 * start sheets and stored orders (replay.c's replayer).
 *
 * Only rounds already resolved are fought again: the orders stored for the
 * round to come of a live bout (one player's, waiting for the other's) are
 * never read, so a page can never show them. Plans are never read either.
 *
 * A bout said in a channel gets its commentary word for word, as said. A
 * league bout fought since schema 4 drew no words (nobody heard it): its
 * rounds get words drawn from a copy of the flavour stream, thrown away
 * afterwards, so the replay itself is the bout's and each page reads the
 * same every time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "game_internal.h"

/* The kind of mark an event leaves on the chart, or -1 for none; *side is
 * the fighter it happened to (a critical hit: the one hit). */
static int mark_kind(const struct event *e, int *side)
{
    *side = e->side;
    switch (e->type) {
    case EV_KNOCKDOWN:
        return VIEW_KNOCKDOWN;
    case EV_INJURY:
    case EV_AGGRAVATED:
        return VIEW_INJURY;
    case EV_WARNING:
    case EV_FOUL:
    case EV_CLINCH_PENALTY:
        return VIEW_WARNING;
    case EV_KO:
    case EV_TKO:
    case EV_DQ:
        return VIEW_STOPPAGE;
    case EV_HIT: /* the duel's: side attacked, b is set for a critical hit */
        if (!e->b || e->side < 0 || e->side >= SIDES)
            return -1;
        *side = !e->side;
        return VIEW_CRITICAL;
    case EV_STUN:
        return VIEW_STUN;
    case EV_BREAK:
        return VIEW_BREAK;
    default:
        return -1;
    }
}

/* What round `vr` keeps of the round the replayer has just fought (its
 * commentary, `nlines` of them, already in vr->lines); its report is
 * written at `report` (DB_REPORT_MAX bytes of room), where vr->report
 * points. Returns the report's bytes with its NUL. Only what the pages
 * read is written: the lines and marks past their counts are never
 * cleared. */
static size_t view_round_fill(struct view_round *vr, struct replayer *rp, int nlines, char *report)
{
    const struct bout *b = &rp->b;

    vr->round = b->round;
    vr->judged = 0;
    memset(vr->cards, 0, sizeof(vr->cards));
    vr->nmarks = 0;
    for (int s = 0; s < SIDES; s++) {
        double start;
        vr->meter[s] = render_meter(b, s, &start);
    }
    for (int k = 0; k < rp->evs.n; k++) {
        const struct event *e = &rp->evs.ev[k];
        int side, kind = mark_kind(e, &side);
        if (e->type == EV_CARD && e->a >= 0 && e->a < JUDGES) {
            vr->cards[e->a][0] = e->b;
            vr->cards[e->a][1] = e->c;
            vr->judged = 1;
        }
        if (kind < 0 || vr->nmarks >= VIEW_MARKS_MAX || !render_event_counts(&rp->evs, k))
            continue;
        struct view_mark *m = &vr->marks[vr->nmarks++];
        m->kind = (enum view_mark_kind)kind;
        m->side = side;
        render_event(rp->corner, b, e, m->text, sizeof(m->text));
    }
    if (!rp->words) {
        /* Words nobody heard, from a copy of the flavour stream. */
        struct rng copy = rp->r.flavour;
        nlines = render_round_full(rp->corner, b, &rp->evs, &copy, vr->lines);
    }
    vr->nlines = nlines;
    render_score(rp->corner, b, vr->score, sizeof(vr->score));
    int n = render_round_report(rp->corner, b, &rp->evs, RENDER_PLAIN, report, DB_REPORT_MAX);
    vr->report = report;
    return (n < 0 ? 0 : n < DB_REPORT_MAX ? (size_t)n : DB_REPORT_MAX - 1) + 1;
}

/* A view of opened bout `rp` before any round is fought again: the
 * record, the corners, what the chart shows, room for every round. */
static struct bout_view *view_new(const struct replayer *rp)
{
    struct bout_view *v = xmalloc(sizeof(*v));

    memset(v, 0, sizeof(*v));
    v->rec = rp->rec;
    memcpy(v->corner, rp->corner, sizeof(v->corner));
    memcpy(v->owner_network, rp->owner_network, sizeof(v->owner_network));
    v->meter_name = render_meter_name(rp->rec.rules);
    v->mark_kinds = render_mark_kinds(rp->rec.rules);
    for (int s = 0; s < SIDES; s++)
        v->kit_now[s] = rp->corner[s].sheet;
    for (int s = 0; s < SIDES; s++)
        render_meter(&rp->b, s, &v->meter_start[s]);
    v->round = xmalloc((size_t)(rp->rec.round > 0 ? rp->rec.round : 1) * sizeof(*v->round));
    return v;
}

/* What `v` keeps of the end of the bout, when the round just fought again
 * ended it: the result lines (`nres` already in v->result_lines, or words
 * nobody heard, drawn from a copy of the flavour stream) and the plain
 * result. */
static void view_result_fill(struct bout_view *v, const struct replayer *rp, int nres)
{
    if (!rp->words) {
        struct rng copy = rp->r.flavour;
        nres = render_result(rp->corner, &rp->b, &copy, v->result_lines);
    }
    v->nresult = nres;
    render_result_text(rp->corner, &rp->b, v->result, sizeof(v->result));
}

/* Room for the reports of one more round at the end of `used` bytes of
 * *reports (*cap bytes, the rounds' reports so far, v->round[i].report
 * pointing in it): grown when short, the reports moved and their
 * pointers with them. A page's reports are a few KB: most pages never
 * grow it. */
static void reports_room(struct bout_view *v, char **reports, size_t *cap, size_t used)
{
    if (*cap - used >= DB_REPORT_MAX)
        return;
    size_t more = *cap * 2;
    char *to = xmalloc(more);
    memcpy(to, *reports, used);
    for (int i = 0; i < v->nrounds; i++)
        v->round[i].report = to + (v->round[i].report - *reports);
    free(*reports);
    *reports = to;
    *cap = more;
}

/* Fights every stored round of opened bout `rp` again into `v`. The
 * rounds' reports are written one after the other in one allocation
 * (round[0].report its start, freed by bout_view_free), not one each.
 * Returns 0, or -1 with err when the orders of a round do not replay. */
static int view_rounds(struct bout_view *v, struct replayer *rp, char *err, size_t errlen)
{
    size_t cap = DB_REPORT_MAX + 16 * 1024, used = 0;
    char *reports = xmalloc(cap);
    int rc = 0;

    for (int round = 1; round <= rp->rec.round; round++) {
        /* The lines go straight where the view keeps them. */
        struct view_round *vr = &v->round[v->nrounds];
        int nres, n = replayer_round(rp, vr->lines, v->result_lines, &nres);
        if (n < 0) {
            snprintf(err, errlen, "bout %lld: the orders of round %d do not replay",
                     (long long)rp->rec.id, round);
            rc = -1;
            break;
        }
        reports_room(v, &reports, &cap, used);
        v->nrounds++;
        used += view_round_fill(vr, rp, n, reports + used);
        if (rp->b.result.over)
            view_result_fill(v, rp, nres);
    }
    if (v->nrounds == 0)
        free(reports);
    return rc;
}

struct bout_view *bout_view(struct db *db, int64_t id, char *err, size_t errlen)
{
    struct replayer *rp = xmalloc(sizeof(*rp));

    if (replayer_open(rp, db, id, err, errlen) != 0) {
        free(rp);
        return NULL;
    }
    rp->full = 1;  /* the pages show each round in full */
    rp->blind = 1; /* and check no digest */
    struct bout_view *v = view_new(rp);
    if (view_rounds(v, rp, err, errlen) != 0) {
        bout_view_free(v);
        free(rp);
        return NULL;
    }
    /* The equipment as the rounds fought wore it. */
    const struct ruleset *rs = ruleset_get(rp->rec.rules);
    if (rs && rs->sheet_after && v->nrounds > 0)
        rs->sheet_after(&rp->b, v->kit_now);
    v->over = rp->b.result.over;
    v->winner = v->over ? rp->b.result.winner : -1;
    free(rp);
    return v;
}

void bout_view_free(struct bout_view *v)
{
    if (!v)
        return;
    if (v->nrounds > 0)
        free(v->round[0].report); /* every round's report: view_rounds */
    free(v->round);
    free(v);
}
