/*
 * league.c - leagues, turns' pairings, promotion and relegation, gold
 * records and the choice of a title challenger (seed 004, rules.md
 * section 3). The same for every ruleset; each ruleset keeps its own ladder.
 *
 * Invariants: a pairing of n >= 3 fighters is a cycle, so each index meets
 * its two neighbours, once as side 0 and once as side 1, never himself, and
 * the n bouts are n different pairs; every cycle is equally likely (a
 * uniform shuffle). Only league_pairing (for n >= 3) and league_top (for a
 * tie) draw from the rng, so a turn replays from its seed.
 */
#include "engine.h"

static const char *const league_names[LEAGUE_COUNT] = {
    [LEAGUE_BRONZE] = "BRONZE",
    [LEAGUE_SILVER] = "SILVER",
    [LEAGUE_GOLD] = "GOLD",
};

const char *league_name(enum league l)
{
    return (int)l >= 0 && l < LEAGUE_COUNT ? league_names[l] : "";
}

/* ASCII case folding: the engine does not depend on the locale. */
static int fold(int c)
{
    return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

int league_find(const char *name)
{
    if (!name)
        return -1;
    for (int l = 0; l < LEAGUE_COUNT; l++) {
        const char *a = league_names[l], *b = name;

        while (*a && fold((unsigned char)*b) == *a) {
            a++;
            b++;
        }
        if (*a == '\0' && *b == '\0')
            return l;
    }
    return -1;
}

int league_pairing(int n, struct rng *r, int pairs[][2])
{
    if (n <= 1)
        return 0;
    if (n == 2) {
        pairs[0][0] = pairs[1][0] = 0;
        pairs[0][1] = pairs[1][1] = 1;
        return 2;
    }
    /* The cycle lives in pairs[i][0] (the engine allocates nothing): a
     * Fisher-Yates shuffle of 0..n-1, then each links to the next. */
    for (int i = 0; i < n; i++)
        pairs[i][0] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = rng_range(r, 0, i);
        int t = pairs[i][0];

        pairs[i][0] = pairs[j][0];
        pairs[j][0] = t;
    }
    for (int i = 0; i < n; i++)
        pairs[i][1] = pairs[(i + 1) % n][0];
    return n;
}

/* Up: at least two bouts, one won at least and none lost (W+W, W+T); down
 * the same with losses (L+L, L+T). A single bout, W+L and T+T stay. */
enum league_move league_move(enum league l, int wins, int losses, int ties)
{
    if (wins >= 1 && losses == 0 && wins + ties >= 2)
        return l == LEAGUE_GOLD ? LEAGUE_STAY : LEAGUE_UP;
    if (losses >= 1 && wins == 0 && losses + ties >= 2)
        return l == LEAGUE_BRONZE ? LEAGUE_STAY : LEAGUE_DOWN;
    return LEAGUE_STAY;
}

int league_gold_points(int won, int tied)
{
    return won ? 3 : tied ? 1 : 0;
}

int league_top(const int *gold, int n, int exclude, struct rng *r)
{
    int best = -1, ties = 0;

    for (int i = 0; i < n; i++) {
        if (i == exclude)
            continue;
        if (best < 0 || gold[i] > gold[best]) {
            best = i;
            ties = 1;
        } else if (gold[i] == gold[best]) {
            ties++;
        }
    }
    if (ties <= 1)
        return best;
    /* The k-th of the tied maxima, drawn only when there is a tie. */
    int k = rng_range(r, 0, ties - 1);
    for (int i = 0; i < n; i++) {
        if (i == exclude || gold[i] != gold[best])
            continue;
        if (k-- == 0)
            return i;
    }
    return best;
}
