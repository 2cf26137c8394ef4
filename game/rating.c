/*
 * rating.c - the fighters' Glicko-2 ratings (Glickman, "Example of the
 * Glicko-2 system"): the arithmetic (rating_update), what a finished bout
 * does to its two fighters' ratings (rating_bout_store, inside the
 * transaction that stores the result), the line the channel hears at the
 * end of a bout, and the `ratings` answer.
 *
 * Each fighter has one rating per ruleset (a fighter fights one ruleset):
 * a newcomer is RATING_START +- RATING_RD_START with volatility
 * RATING_VOL_START. Every bout that counts is a rating period of one game
 * for both fighters, each rated against the other's rating as it was
 * before the bout; a fighter who does not fight has no period, so his
 * deviation does not grow while he rests (docs/rules-notes.md). A bout
 * counts when it is a league or title bout, or an exhibition (a live
 * bout between friends) unless `[rating] exhibitions = no`.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "game_internal.h"

/* Glicko-2's scale: its ratings are (r - 1500) / 173.7178. */
#define GLICKO_SCALE 173.7178
/* The convergence tolerance of the volatility's iteration (the paper's). */
#define GLICKO_EPSILON 0.000001
#define GLICKO_PI      3.14159265358979323846

/* How many fighters `ratings` names in its one line. */
#define RATINGS_TOP 10

/* ---------------------------------------------------------- arithmetic */

/* The paper's g(phi). */
static double glicko_g(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (GLICKO_PI * GLICKO_PI));
}

/* The paper's f(x) of step 5, whose root gives the new volatility. */
static double glicko_f(double x, double delta, double phi, double v, double a, double tau)
{
    double ex = exp(x), d = phi * phi + v + ex;

    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

/* Step 5: the new volatility, by the Illinois algorithm, from the old
 * volatility `sigma`, the improvement `delta`, the deviation `phi` and
 * the estimated variance `v` (all on the Glicko-2 scale). */
static double glicko_volatility(double sigma, double delta, double phi, double v, double tau)
{
    double a = log(sigma * sigma), A = a, B, k = 1;

    if (delta * delta > phi * phi + v) {
        B = log(delta * delta - phi * phi - v);
    } else {
        while (glicko_f(a - k * tau, delta, phi, v, a, tau) < 0)
            k++;
        B = a - k * tau;
    }
    double fA = glicko_f(A, delta, phi, v, a, tau), fB = glicko_f(B, delta, phi, v, a, tau);
    for (int i = 0; fabs(B - A) > GLICKO_EPSILON && i < 100; i++) {
        double C = A + (A - B) * fA / (fB - fA), fC = glicko_f(C, delta, phi, v, a, tau);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2;
        }
        B = C;
        fB = fC;
    }
    return exp(A / 2);
}

void rating_update(struct rating *p, const struct rating *opp, const double *score, int n,
                   double tau)
{
    double mu = (p->r - RATING_START) / GLICKO_SCALE, phi = p->rd / GLICKO_SCALE;

    if (n <= 0) { /* step 6 alone: the deviation grows */
        p->rd = sqrt(phi * phi + p->vol * p->vol) * GLICKO_SCALE;
        return;
    }
    double vinv = 0, sum = 0;
    for (int j = 0; j < n; j++) {
        double muj = (opp[j].r - RATING_START) / GLICKO_SCALE,
               gj = glicko_g(opp[j].rd / GLICKO_SCALE);
        double e = 1.0 / (1.0 + exp(-gj * (mu - muj)));
        vinv += gj * gj * e * (1 - e);
        sum += gj * (score[j] - e);
    }
    double v = 1.0 / vinv, delta = v * sum;
    double sigma = glicko_volatility(p->vol, delta, phi, v, tau);
    double phistar = sqrt(phi * phi + sigma * sigma);
    double phinew = 1.0 / sqrt(1.0 / (phistar * phistar) + 1.0 / v);
    double munew = mu + phinew * phinew * sum;

    p->r = GLICKO_SCALE * munew + RATING_START;
    p->rd = GLICKO_SCALE * phinew;
    p->vol = sigma;
}

/* ------------------------------------------------------------- storage */

int rating_counts(const struct game *g, const struct db_bout *rec)
{
    int64_t tournament;

    if (rec->kind != DB_BOUT_EXHIBITION || !g->cfg.rating_skip_exhibitions)
        return 1;
    /* A tournament's bouts are exhibitions linked to their bracket: they
     * count whatever [rating] exhibitions says. */
    return db_tournament_of_bout(g->db, rec->id, &tournament) == DB_OK;
}

void rating_newcomer(struct db_rating *r)
{
    r->rating = RATING_START;
    r->rd = RATING_RD_START;
    r->vol = RATING_VOL_START;
    r->bouts = 0;
}

/* Fighter `id`'s rating in `rules` into *r, a newcomer's when he has none.
 * Returns DB_OK or DB_ERROR. */
static int rating_read(struct db *db, int64_t id, enum rules rules, struct db_rating *r)
{
    int rc = db_rating_get(db, id, rules, r);

    if (rc == DB_NOTFOUND) {
        rating_newcomer(r);
        return DB_OK;
    }
    return rc;
}

/* What bout `rec` does to ratings was[] (by side): each rated against the
 * other's as it was before the bout, into now[], a bout more each. */
static void rating_moves(const struct db_bout *rec, const struct db_rating was[SIDES],
                         struct db_rating now[SIDES])
{
    for (int s = 0; s < SIDES; s++) {
        struct rating me = {was[s].rating, was[s].rd, was[s].vol};
        struct rating them = {was[!s].rating, was[!s].rd, was[!s].vol};
        double score = rec->winner < 0 ? 0.5 : rec->winner == s ? 1.0 : 0.0;
        rating_update(&me, &them, &score, 1, RATING_TAU);
        now[s] = (struct db_rating){me.r, me.rd, me.vol, was[s].bouts + 1};
    }
}

int rating_bout_store(struct game *g, const struct db_bout *rec,
                      struct db_rating_point moved[SIDES])
{
    struct db_rating was[SIDES], now[SIDES];

    if (moved)
        moved[0].side = moved[1].side = -1;
    if (!rating_counts(g, rec))
        return 0;
    for (int s = 0; s < SIDES; s++)
        if (rating_read(g->db, rec->fighter[s], rec->rules, &was[s]) != DB_OK)
            return -1;
    rating_moves(rec, was, now);
    for (int s = 0; s < SIDES; s++) {
        if (db_rating_put(g->db, rec->fighter[s], rec->rules, &now[s], rec->id, s, was[s].rating,
                          rec->ended) != DB_OK)
            return -1;
        if (moved)
            moved[s] = (struct db_rating_point){.bout = rec->id,
                                                .fighter = rec->fighter[s],
                                                .at = rec->ended,
                                                .side = s,
                                                .before = was[s].rating,
                                                .rating = now[s].rating,
                                                .rd = now[s].rd};
    }
    return 0;
}

int rating_bout_keep(struct game *g, const struct db_bout *rec, struct db_rating *r[SIDES])
{
    struct db_rating was[SIDES] = {*r[0], *r[1]}, now[SIDES];

    if (!rating_counts(g, rec))
        return 0;
    rating_moves(rec, was, now);
    double before[SIDES] = {was[0].rating, was[1].rating};
    if (db_rating_history_put(g->db, rec->id, rec->fighter, now, before, rec->ended) != DB_OK)
        return -1;
    *r[0] = now[0];
    *r[1] = now[1];
    return 1;
}

/* "1532 (+32)": a rating rounded, and how far it moved, rounded alike. */
static void change_add(struct str *t, const char *name, const struct db_rating_point *p)
{
    long now = lround(p->rating), was = lround(p->before);

    str_add(t, "%s %ld (%+ld)", name, now, now - was);
}

int rating_line(struct db *db, int64_t bout, int winner, const char *const names[SIDES], char *buf,
                size_t len)
{
    struct db_rating_point p[SIDES];
    int n = 0;

    buf[0] = '\0';
    if (db_rating_of_bout(db, bout, p, &n) != DB_OK || n != SIDES)
        return 0;
    return rating_line_of(p, winner, names, buf, len);
}

int rating_line_of(const struct db_rating_point p[SIDES], int winner,
                   const char *const names[SIDES], char *buf, size_t len)
{
    struct str t;

    buf[0] = '\0';
    if (p[0].side != 0 || p[1].side != 1)
        return 0;
    int first = winner > 0 ? 1 : 0;
    str_init_fixed(&t, buf, len);
    str_cat(&t, "Ratings: ");
    change_add(&t, names[first], &p[first]);
    str_cat(&t, ", ");
    change_add(&t, names[!first], &p[!first]);
    return (int)t.len;
}

int game_rating_of(struct game *g, int64_t fighter_id, double *rating, double *rd)
{
    struct db_fighter f;
    struct db_rating r;

    if (db_fighter_get_id(g->db, fighter_id, &f) != DB_OK ||
        rating_read(g->db, fighter_id, f.sheet.rules, &r) != DB_OK)
        return -1;
    *rating = r.rating;
    *rd = r.rd;
    return 0;
}

int game_rating_text(struct game *g, const struct db_fighter *f, char *buf, size_t len)
{
    struct db_rating r;

    if (rating_read(g->db, f->id, f->sheet.rules, &r) != DB_OK) {
        snprintf(buf, len, "rating unknown");
        return -1;
    }
    snprintf(buf, len, "rating %ld \xc2\xb1 %ld", lround(r.rating), lround(r.rd));
    return 0;
}

/* ------------------------------------------------------------- ratings */

int game_ratings(struct game *g, const struct game_caller *who, enum rules rules)
{
    struct db_rating_row top[RATINGS_TOP];
    const char *rname = ruleset_get(rules)->name;
    char text[400], page[320];
    struct str s;
    int n = 0, total = 0;

    if (db_rating_top(g->db, rules, 0, top, RATINGS_TOP, &n, &total) != DB_OK) {
        game_reply(who, "sorry, I could not read the ratings (%s)", db_why(g->db));
        return -1;
    }
    if (n == 0) {
        game_reply(who,
                   "no %s fighter has a rating yet: a rating comes with a fighter's first bout "
                   "(%schallenge <nick> rules=%s, or a league turn)",
                   rname, game_typed(g, who), rname);
        return 0;
    }
    str_init_fixed(&s, text, sizeof(text));
    for (int i = 0; i < n; i++)
        str_add(&s, "%s%d. %s %ld \xc2\xb1 %ld", i ? "; " : "", i + 1, top[i].name,
                lround(top[i].rating), lround(top[i].rd));
    if (total > n)
        str_add(&s, "; ... (%d rated)", total);
    game_reply(who, "Ratings (%s): %s%s", rname, text,
               game_page(g, page, sizeof(page), "/ratings/%s", rname));
    return 0;
}

void game_rating_help(struct game *g, const struct game_caller *who)
{
    game_reply(who,
               "Every bout that counts (league and title bouts%s) moves both fighters' ratings "
               "(newcomers 1500 \xc2\xb1 350): a win more against a higher rating, a loss more "
               "against a lower one, and more while the \xc2\xb1 (how sure it is) is wide; each "
               "bout narrows it.",
               g->cfg.rating_skip_exhibitions ? "; exhibitions do not here" : ", exhibitions");
}
