/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dql.c - byte queue limits (dql.h), lib/dynamic_queue_limits.c's rules.
 */
#include "sim/arith.h"
#include "sim/dql.h"
#include "sim/invariant.h"

/* (A - B) when A is after B in wrapping arithmetic, else 0: the
 * kernel's counters are u32 and wrap, and its comparisons are mod 2^32 */
ARITH_WRAPS static inline uint32_t posdiff(uint32_t a, uint32_t b) { return (int32_t)(a - b) > 0 ? a - b : 0; }
ARITH_WRAPS static inline int after_eq(uint32_t a, uint32_t b) { return (int32_t)(a - b) >= 0; }

/* the kernel's u32 counters throughout: mod 2^32 */
ARITH_WRAPS void dql_completed(struct dql *d, uint32_t count, uint64_t now)
{
    uint32_t num_queued = d->num_queued;
    INVARIANT(count <= num_queued - d->num_completed);   /* cannot complete more than is queued */
    uint32_t completed = d->num_completed + count;
    uint32_t limit = d->limit;
    uint32_t ovlimit = posdiff(num_queued - d->num_completed, limit);
    uint32_t inprogress = num_queued - completed;
    uint32_t prev_inprogress = d->prev_num_queued - d->num_completed;
    int all_prev_completed = after_eq(completed, d->prev_num_queued);

    if ((ovlimit && !inprogress) || (d->prev_ovlimit && all_prev_completed)) {
        /* starved: over the limit and then empty (or maybe empty before
         * the next enqueue): grow by what went out in the interval, and
         * the over-limit before it */
        limit += posdiff(completed, d->prev_num_queued) + d->prev_ovlimit;
        d->slack_start_time = now;
        d->lowest_slack = UINT32_MAX;
    } else if (inprogress && prev_inprogress && !all_prev_completed) {
        /* busy the whole interval: the excess over twice what completed
         * (or the last queuing's share not over the limit) is slack; the
         * least of it over hold_time comes off the limit */
        uint32_t slack = posdiff(limit + d->prev_ovlimit, 2 * (completed - d->num_completed));
        uint32_t slack_last = d->prev_ovlimit ? posdiff(d->prev_last_obj_cnt, d->prev_ovlimit) : 0;
        if (slack_last > slack)
            slack = slack_last;
        if (slack < d->lowest_slack)
            d->lowest_slack = slack;
        if (now > d->slack_start_time + d->slack_hold_time) {   /* time_after(jiffies, start + hold) */
            limit = posdiff(limit, d->lowest_slack);
            d->slack_start_time = now;
            d->lowest_slack = UINT32_MAX;
        }
    }
    if (limit < d->min_limit)
        limit = d->min_limit;
    if (limit > d->max_limit)
        limit = d->max_limit;
    if (limit != d->limit) {
        d->limit = limit;
        ovlimit = 0;
    }
    d->adj_limit = limit + completed;
    d->prev_ovlimit = ovlimit;
    d->prev_last_obj_cnt = d->last_obj_cnt;
    d->num_completed = completed;
    d->prev_num_queued = num_queued;
}

void dql_reset(struct dql *d, uint64_t now)
{
    d->limit = d->min_limit;
    d->num_queued = d->num_completed = 0;
    d->last_obj_cnt = 0;
    d->prev_num_queued = d->prev_last_obj_cnt = d->prev_ovlimit = 0;
    d->lowest_slack = UINT32_MAX;
    d->slack_start_time = now;
    d->adj_limit = d->limit;     /* min_limit: 0 on a new queue, as the zeroed netdev_queue has it */
}

void dql_init(struct dql *d, uint64_t hold, uint64_t now)
{
    d->max_limit = DQL_MAX_LIMIT;
    d->min_limit = 0;
    d->slack_hold_time = hold;
    dql_reset(d, now);
}
