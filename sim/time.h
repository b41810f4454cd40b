/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * time.h - simulated time: a signed 64-bit count of picoseconds.
 *
 * Picoseconds because a 1538-byte frame on 10 Gbit/s takes 1 230 400 ps;
 * nanoseconds would round it and the error would add up over a million
 * frames. INT64 picoseconds still cover 106 days of simulated time.
 */
#ifndef NETSIM_TIME_H
#define NETSIM_TIME_H

#include <stdint.h>

typedef int64_t simtime_t;

#define PS_PER_NS  1000LL
#define PS_PER_US  1000000LL
#define PS_PER_MS  1000000000LL
#define PS_PER_S   1000000000000LL
#define SIMTIME_NEVER INT64_MAX

static inline simtime_t time_from_ns(double ns) { return (simtime_t)(ns * PS_PER_NS + (ns >= 0 ? 0.5 : -0.5)); }
static inline double time_to_s(simtime_t t) { return (double)t / (double)PS_PER_S; }
static inline double time_to_us(simtime_t t) { return (double)t / (double)PS_PER_US; }
static inline double time_to_ns(simtime_t t) { return (double)t / (double)PS_PER_NS; }

/* a + b for non-negative times that come from user input (a slow link's
 * backlog, netem's rate): saturates at SIMTIME_NEVER, when nothing can
 * happen within any run, instead of overflowing. */
static inline simtime_t time_add(simtime_t a, simtime_t b)
{
    return b > SIMTIME_NEVER - a ? SIMTIME_NEVER : a + b;
}

/*
 * Time to clock `bytes` onto a wire of `rate_bps` bits per second, rounded
 * to the nearest picosecond. 128-bit intermediate so that large bursts on
 * slow links cannot overflow.
 */
static inline simtime_t time_serialise(uint64_t bytes, uint64_t rate_bps)
{
    /* a frame's worth fits 64 bits, and a 64-bit division is several
     * times cheaper than the 128-bit one; same result either way */
    if (bytes < (UINT64_MAX / 2) / (8 * PS_PER_S) && rate_bps < UINT64_MAX / 2)
        return (simtime_t)((bytes * 8 * (uint64_t)PS_PER_S + rate_bps / 2) / rate_bps);
    __int128 num = (__int128)bytes * 8 * PS_PER_S;
    __int128 t = (num + rate_bps / 2) / rate_bps;
    return t > SIMTIME_NEVER ? SIMTIME_NEVER : (simtime_t)t;
}

#endif
