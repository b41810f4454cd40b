/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hash.h - one integer hash for the engine's tables (sockets by port,
 * connections by address and ports): the splitmix64 finalizer, whose every
 * output bit depends on every input bit, so that a table indexed by the
 * low bits spreads keys that differ anywhere (a plain multiply leaves the
 * low output bits blind to the high input bits).
 */
#ifndef NETSIM_HASH_H
#define NETSIM_HASH_H

#include <stdint.h>
#include "sim/arith.h"

ARITH_WRAPS static inline uint64_t sim_mix64(uint64_t x)   /* mod 2^64 */
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static inline uint32_t sim_hash64(uint64_t x) { return (uint32_t)sim_mix64(x); }

#endif
