/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rng.c - seeded GSL streams (see rng.h). MT19937 because it is GSL's
 * well-studied default and its state is cheap to keep per component.
 */
#include <stdio.h>
#include <stdlib.h>
#include <gsl/gsl_randist.h>
#include "sim/arith.h"
#include "sim/rng.h"
#include "sim/xalloc.h"

ARITH_WRAPS static uint64_t splitmix64(uint64_t x)   /* mod 2^64 */
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

ARITH_WRAPS uint64_t rng_derive_seed(uint64_t run_seed, const char *name)   /* FNV-1a, mod 2^64 */
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ULL;
    }
    return splitmix64(h ^ splitmix64(run_seed));
}

void rng_init(struct rng *r, uint64_t run_seed, const char *name)
{
    /* mt19937 takes 32 bits of seed; fold the 64 so no half is lost. */
    uint64_t s = rng_derive_seed(run_seed, name);
    r->g = NULL;
    r->seed = (uint32_t)(s ^ (s >> 32));
}

void rng_start(struct rng *r)
{
    r->g = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r->g)      /* GSL's allocator, not ours: the same message */
        xoom();
    gsl_rng_set(r->g, (unsigned long)r->seed);
}

void rng_free(struct rng *r)
{
    if (r->g)
        gsl_rng_free(r->g);
    r->g = NULL;
}

double rng_exponential(struct rng *r, double mean) { return gsl_ran_exponential(rng_gen(r), mean); }
double rng_gaussian(struct rng *r, double sigma) { return gsl_ran_gaussian_ziggurat(rng_gen(r), sigma); }
