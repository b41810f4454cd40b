/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * iperf3.h - iperf3 3.0.1's client-side interval clock (sctp.md A.8),
 * separate so that tests can drive it.
 *
 * The client checks its 1-s timer only when a blocking sendmsg returns and
 * then runs every overdue tick back to back: the first closes
 * [interval start, now]; each further one closes a zero-length interval.
 * A send blocked from 7.35 s to 11.45 s therefore prints 7.35-11.45 and
 * then three 11.45-11.45 lines (ticks 9, 10, 11), as in the seed.
 */
#ifndef NETSIM_MODELS_SCTP_IPERF3_H
#define NETSIM_MODELS_SCTP_IPERF3_H

#include <stdint.h>
#include "sim/time.h"

struct iperf3_ticker {
    simtime_t interval, next_tick, istart;
    uint64_t bytes;              /* written in the current interval */
};

typedef void (*iperf3_emit_fn)(void *ctx, simtime_t t0, simtime_t t1, uint64_t bytes);

static inline void iperf3_ticker_init(struct iperf3_ticker *k, simtime_t start, simtime_t interval)
{
    k->interval = interval;
    k->next_tick = start + interval;
    k->istart = start;
    k->bytes = 0;
}
/* After a sendmsg returned at `now` (its bytes already added). */
void iperf3_tick(struct iperf3_ticker *k, simtime_t now, iperf3_emit_fn emit, void *ctx);

#endif
