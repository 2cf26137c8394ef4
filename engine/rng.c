/*
 * rng.c - xoshiro256** with explicit state, seeded through splitmix64.
 *
 * Every draw the engine makes goes through here; nothing reads a global
 * generator, so a bout replays exactly from its seed.
 */
#include "engine.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xd1342543de82ef95ULL);

    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double rng_unit(struct rng *r)
{
    /* The top 53 bits give every double in [0, 1) on a 2^-53 grid. */
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

double rng_uniform(struct rng *r, double lo, double hi)
{
    return lo + (hi - lo) * rng_unit(r);
}

int rng_chance(struct rng *r, double p)
{
    return rng_unit(r) < p;
}

int rng_range(struct rng *r, int lo, int hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - lo) + 1;
    /* Rejection keeps the draw unbiased for any span. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    uint64_t x;

    do
        x = rng_next(r);
    while (x >= limit);
    return (int)((int64_t)lo + (int64_t)(x % span));
}

int rng_weighted(struct rng *r, const unsigned *weights, int n)
{
    unsigned total = 0;

    for (int i = 0; i < n; i++)
        total += weights[i];
    int pick = rng_range(r, 0, (int)total - 1);
    for (int i = 0; i < n; i++) {
        if (pick < (int)weights[i])
            return i;
        pick -= (int)weights[i];
    }
    return n - 1;
}

void bout_rng_seed(struct bout_rng *br, uint64_t seed)
{
    rng_seed(&br->outcome, seed, 1);
    rng_seed(&br->flavour, seed, 2);
}
