/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * psched.h - the kernel's rate arithmetic for shapers (sch_generic.c,
 * Linux 4.15): a rate becomes a reciprocal (mult, shift) once, so that a
 * packet's time at that rate is a multiply and a shift, in nanoseconds,
 * exactly as tbf, htb and friends compute their tokens.
 */
#ifndef NETSIM_PSCHED_H
#define NETSIM_PSCHED_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct psched_ratecfg {
    uint64_t rate_bytes_ps;
    uint32_t mult;
    uint16_t overhead;
    uint8_t shift;
};

/* psched_ratecfg_precompute: the largest mult below 2^31 whose
 * NSEC_PER_SEC << shift / rate fits */
static inline void psched_ratecfg_precompute(struct psched_ratecfg *r, uint64_t rate_bytes_ps, uint16_t overhead)
{
    memset(r, 0, sizeof *r);
    r->overhead = overhead;
    r->rate_bytes_ps = rate_bytes_ps;
    r->mult = 1;
    if (rate_bytes_ps > 0) {
        uint64_t factor = 1000000000ULL;
        for (;;) {
            r->mult = (uint32_t)(factor / rate_bytes_ps);
            if ((r->mult & (1U << 31)) || (factor & (1ULL << 63)))
                break;
            factor <<= 1;
            r->shift++;
        }
    }
}

/* psched_l2t_ns: nanoseconds to send len bytes at the rate */
static inline uint64_t psched_l2t_ns(const struct psched_ratecfg *r, uint32_t len)
{
    return ((uint64_t)(len + r->overhead) * r->mult) >> r->shift;
}

/* psched_ns_t2l: bytes the rate sends in time_ns */
static inline uint64_t psched_ns_t2l(const struct psched_ratecfg *r, uint64_t time_ns)
{
    uint64_t len = time_ns * r->rate_bytes_ps / 1000000000ULL;
    return len > r->overhead ? len - r->overhead : 0;
}

/* tc's time base (tc_core.c with the kernel's /proc/net/psched of 3.x on:
 * 64 ns ticks, 15.625 per microsecond): tc hands a shaper its burst as
 * the ticks it takes at the rate, which the kernel turns back into ns */
static inline uint64_t tc_calc_xmittime_ns(uint64_t rate_bytes_ps, uint64_t size)
{
    double us = 1e6 * (double)size / (double)rate_bytes_ps;
    double ticks = us * 15.625;
    /* tc's are 32 bits (its own conversion would wrap); callers refuse a
     * size that does not fit first (tc_xmittime_fits) */
    return (uint64_t)(ticks < 4294967295.0 ? (uint32_t)ticks : UINT32_MAX) << 6;   /* PSCHED_TICKS2NS */
}

/* Does size at the rate take fewer than 2^32 of tc's 64-ns ticks (274.9 s),
 * which is what tc hands the kernel a burst as? */
static inline bool tc_xmittime_fits(uint64_t rate_bytes_ps, uint64_t size)
{
    return rate_bytes_ps && 1e6 * (double)size / (double)rate_bytes_ps * 15.625 < 4294967296.0;
}

#endif
