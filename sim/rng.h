/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rng.h - per-component random streams.
 *
 * Every component (a link direction's loss process, a flow, a host) draws
 * from its own GSL generator seeded from (run seed, component name). Adding
 * a flow therefore does not change the losses another flow sees, and the
 * same scenario with the same seed gives bit-identical results on any
 * machine and under any -j.
 */
#ifndef NETSIM_RNG_H
#define NETSIM_RNG_H

#include <stdint.h>
#include <gsl/gsl_rng.h>

/* A stream is seeded at init and its generator made at its first draw:
 * a 100 000-host topology has a stream per host and per link direction,
 * 5 KB and a seeding each, most of which never draw (the sequence is the
 * same either way). */
struct rng {
    gsl_rng *g;
    uint32_t seed;
};
void rng_start(struct rng *r);

/* 64-bit FNV-1a of the name, mixed with the seed (splitmix64 finaliser):
 * stable across platforms and releases, unlike gsl's default seeding. */
uint64_t rng_derive_seed(uint64_t run_seed, const char *name);
void rng_init(struct rng *r, uint64_t run_seed, const char *name);
/* Seed of replication `rep` of a scenario whose [sim] seed is `base`:
 * replication 0 runs on the base seed itself; every combination of a sweep
 * uses the same seed for the same replication (paired comparisons). */
static inline uint64_t rng_rep_seed(uint64_t base, int rep)
{
    return rep == 0 ? base : rng_derive_seed(base, "rep") + (uint64_t)rep;
}
void rng_free(struct rng *r);

static inline gsl_rng *rng_gen(struct rng *r)
{
    if (__builtin_expect(!r->g, 0))
        rng_start(r);
    return r->g;
}
static inline double rng_uniform(struct rng *r) { return gsl_rng_uniform(rng_gen(r)); }      /* [0,1) */
static inline uint64_t rng_u32(struct rng *r) { return gsl_rng_get(rng_gen(r)); }           /* 32 bits */
double rng_exponential(struct rng *r, double mean);
double rng_gaussian(struct rng *r, double sigma);

#endif
