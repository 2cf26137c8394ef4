/*
 * rng.c - xoshiro256** with explicit state, seeded through splitmix64.
 *
 * Every draw the engine makes goes through here or through the draws that
 * engine.h defines inline (their external definitions are here); nothing
 * reads a global generator, so a bout replays exactly from its seed.
 */
#include "engine.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xd1342543de82ef95ULL);

    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

/* The external definitions of the draws that engine.h defines inline. */
extern inline uint64_t rng_next(struct rng *r);
extern inline double rng_unit(struct rng *r);
extern inline double rng_uniform(struct rng *r, double lo, double hi);
extern inline int rng_chance(struct rng *r, double p);
extern inline int rng_range(struct rng *r, int lo, int hi);
extern inline int rng_weighted(struct rng *r, const unsigned *weights, int n);

void bout_rng_seed(struct bout_rng *br, uint64_t seed)
{
    rng_seed(&br->outcome, seed, 1);
    rng_seed(&br->flavour, seed, 2);
}
