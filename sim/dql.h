/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dql.h - byte queue limits: the dynamic limit on bytes a TX ring holds,
 * as lib/dynamic_queue_limits.c computes it (Linux 4.15, unchanged since
 * 3.3, when ixgbe began to call it). A driver reports bytes put on the
 * ring (dql_queued, from netdev_tx_sent_queue) and bytes completed
 * (dql_completed, once per TX clean, from netdev_tx_completed_queue);
 * the stack stops the queue while dql_avail < 0 (__QUEUE_STATE_STACK_XOFF),
 * so that what waits builds in the qdisc, where it can be scheduled,
 * rather than on the ring.
 *
 * The limit grows by what was both sent and completed in an interval when
 * the ring ran dry while over the limit (starved), and shrinks by the
 * smallest slack seen over hold_time when the ring never ran dry. The
 * arithmetic is the kernel's: unsigned 32-bit counters that wrap, jiffies
 * for the hold time.
 */
#ifndef NETSIM_DQL_H
#define NETSIM_DQL_H

#include <stdint.h>
#include "sim/arith.h"
#include "sim/time.h"

#define DQL_MAX_OBJECT (UINT32_MAX / 16)
#define DQL_MAX_LIMIT ((UINT32_MAX / 2) - DQL_MAX_OBJECT)

struct dql {
    uint32_t num_queued;         /* total ever queued */
    uint32_t adj_limit;          /* limit + num_completed */
    uint32_t last_obj_cnt;       /* count at the last queuing */
    uint32_t limit;
    uint32_t num_completed;
    uint32_t prev_ovlimit, prev_num_queued, prev_last_obj_cnt;
    uint32_t lowest_slack;
    uint64_t slack_start_time;   /* jiffies */
    uint32_t max_limit, min_limit;
    uint64_t slack_hold_time;    /* jiffies */
};

/* Jiffies at HZ = 1000, as the rest of netsim counts them. */
static inline uint64_t dql_jiffies(simtime_t t) { return (uint64_t)(t / PS_PER_MS); }

void dql_init(struct dql *d, uint64_t hold_jiffies, uint64_t now_jiffies);
void dql_reset(struct dql *d, uint64_t now_jiffies);
/* num_queued, num_completed and adj_limit are the kernel's u32 counters:
 * they wrap, and what matters is their difference mod 2^32 */
ARITH_WRAPS static inline void dql_queued(struct dql *d, uint32_t count)
{
    d->last_obj_cnt = count;
    d->num_queued += count;
}
ARITH_WRAPS static inline int32_t dql_avail(const struct dql *d) { return (int32_t)(d->adj_limit - d->num_queued); }
void dql_completed(struct dql *d, uint32_t count, uint64_t now_jiffies);

#endif
