/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * codel.h - the CoDel core of Linux 4.15 (include/net/codel.h,
 * codel_impl.h): its clock, state, control law and dequeue-side state
 * machine, shared by codel.c and fq_codel.c (one state per flow there).
 *
 * Everything is in the kernel's own units and integer widths, so that a
 * test can assert the kernel's numbers to the unit:
 *   - codel_time_t is nanoseconds >> CODEL_SHIFT (1.024 us units), a u32
 *     compared with serial-number arithmetic; netsim's picoseconds are
 *     truncated to ns first, as ktime_get_ns() is;
 *   - 1/sqrt(count) is rec_inv_sqrt, a Q0.16 kept by one Newton step per
 *     count change (not recomputed exactly: count 4 gives 0x7ce0, not
 *     0x8000), and the control law scales interval by it with
 *     reciprocal_scale.
 * The kernel reads the clock inside codel_dequeue; here the caller passes
 * now, the time of the dequeue.
 */
#ifndef NETSIM_CODEL_H
#define NETSIM_CODEL_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/arith.h"
#include "sim/qdisc.h"

typedef uint32_t codel_time_t;
typedef int32_t codel_tdiff_t;
#define CODEL_SHIFT 10
#define CODEL_MS2TIME(ms) ((codel_time_t)(((uint64_t)(ms) * 1000000u) >> CODEL_SHIFT))
/* ce_threshold's "off": INT_MAX, which no sojourn exceeds */
#define CODEL_DISABLED_THRESHOLD ((codel_time_t)INT32_MAX)
#define REC_INV_SQRT_BITS 16
#define REC_INV_SQRT_SHIFT (32 - REC_INV_SQRT_BITS)

static inline codel_time_t codel_time(simtime_t t)
{
    return (codel_time_t)((uint64_t)(t / PS_PER_NS) >> CODEL_SHIFT);
}
/* What tc sends (microseconds) as the kernel stores it: (us * 1000) >> 10 */
static inline codel_time_t codel_us2time(uint64_t us) { return (codel_time_t)((us * 1000) >> CODEL_SHIFT); }
static inline uint32_t codel_time_to_us(codel_time_t v) { return (uint32_t)(((uint64_t)v << CODEL_SHIFT) / 1000); }
/* RFC 1982 comparisons: the clock wraps every 2199 s (mod 2^32) */
ARITH_WRAPS static inline bool codel_time_after(codel_time_t a, codel_time_t b) { return (int32_t)(a - b) > 0; }
ARITH_WRAPS static inline bool codel_time_after_eq(codel_time_t a, codel_time_t b) { return (int32_t)(a - b) >= 0; }
static inline bool codel_time_before(codel_time_t a, codel_time_t b) { return codel_time_after(b, a); }

/* include/linux/kernel.h: val scaled into [0, ep_ro) by the high half of a product */
static inline uint32_t reciprocal_scale(uint32_t val, uint32_t ep_ro)
{
    return (uint32_t)(((uint64_t)val * ep_ro) >> 32);
}

struct codel_params {
    codel_time_t target;
    codel_time_t ce_threshold;
    codel_time_t interval;
    uint32_t mtu;                /* psched_mtu: below this backlog nothing is dropped */
    bool ecn;
};

struct codel_vars {
    uint32_t count;              /* drops since entering the dropping state */
    uint32_t lastcount;          /* count when it was last entered */
    bool dropping;
    uint16_t rec_inv_sqrt;       /* 1/sqrt(count), Q0.16 */
    codel_time_t first_above_time;   /* 0: sojourn below target */
    codel_time_t drop_next;
    codel_time_t ldelay;         /* sojourn of the last packet dequeued */
};

/* The kernel's are u32; the counters here are read by netsim's counter
 * rows through pointers to 64-bit values. drop_count and drop_len are the
 * kernel's per-dequeue scratch (qdisc_tree_reduce_backlog's). */
struct codel_stats {
    uint64_t maxpacket;
    uint32_t drop_count;
    uint32_t drop_len;
    uint64_t ecn_mark;
    uint64_t ce_mark;
};

static inline void codel_params_init(struct codel_params *p)
{
    p->interval = CODEL_MS2TIME(100);
    p->target = CODEL_MS2TIME(5);
    p->ce_threshold = CODEL_DISABLED_THRESHOLD;
    p->ecn = false;
}

static inline void codel_vars_init(struct codel_vars *v) { *v = (struct codel_vars){ 0 }; }

static inline void codel_stats_init(struct codel_stats *s) { s->maxpacket = 0; }

/* new = (invsqrt / 2) * (3 - count * invsqrt^2), invsqrt in Q0.32: one
 * step per count change is all the kernel does, so the value lags the
 * exact 1/sqrt(count) by what one step leaves */
static inline void codel_Newton_step(struct codel_vars *v)
{
    uint32_t invsqrt = (uint32_t)v->rec_inv_sqrt << REC_INV_SQRT_SHIFT;
    uint32_t invsqrt2 = (uint32_t)(((uint64_t)invsqrt * invsqrt) >> 32);
    uint64_t val = (3ULL << 32) - ((uint64_t)v->count * invsqrt2);

    val >>= 2;                   /* room for the multiply below */
    val = (val * invsqrt) >> (32 - 2 + 1);
    v->rec_inv_sqrt = (uint16_t)(val >> REC_INV_SQRT_SHIFT);
}

/* t + interval / sqrt(count) */
static inline codel_time_t codel_control_law(codel_time_t t, codel_time_t interval, uint32_t rec_inv_sqrt)
{
    return t + reciprocal_scale(interval, rec_inv_sqrt << REC_INV_SQRT_SHIFT);
}

/* The discipline's side of codel_dequeue: take the next packet of this
 * CoDel instance (a flow for fq_codel), its backlog already taken off the
 * qdisc's; and free one CoDel drops, counting it. */
typedef struct skb *(*codel_dequeue_t)(struct codel_vars *v, void *ctx);
typedef void (*codel_drop_t)(struct skb *skb, void *ctx);

static inline codel_time_t codel_enqueue_time(const struct skb *skb) { return codel_time(skb->t_due); }

/* backlog is the discipline's whole backlog after skb left it: fq_codel
 * passes the qdisc's, not the flow's, as 4.15 does */
static inline bool codel_should_drop(const struct skb *skb, struct codel_vars *v, const struct codel_params *p,
                                     struct codel_stats *st, const uint64_t *backlog, codel_time_t now)
{
    if (!skb) {
        v->first_above_time = 0;
        return false;
    }
    uint32_t len = qdisc_pkt_len(skb);
    /* the sojourn, never below 0: a packet stamped by a core whose clock
     * ran ahead of the one dequeuing it (the engine's per-core time) would
     * otherwise wrap to some 4 x 10^9 units, 4398 s, above any target */
    codel_time_t enq = codel_enqueue_time(skb);
    v->ldelay = codel_time_after(now, enq) ? now - enq : 0;
    if (len > st->maxpacket)
        st->maxpacket = len;
    if (codel_time_before(v->ldelay, p->target) || *backlog <= p->mtu) {
        /* went below: it must stay above for a whole interval again */
        v->first_above_time = 0;
        return false;
    }
    bool ok_to_drop = false;
    if (v->first_above_time == 0)
        v->first_above_time = now + p->interval;
    else if (codel_time_after(now, v->first_above_time))
        ok_to_drop = true;
    return ok_to_drop;
}

/* codel_impl.h's codel_dequeue: the packet to send, after what CoDel
 * dropped (or marked) on the way to it. */
static inline struct skb *codel_dequeue(void *ctx, const uint64_t *backlog, const struct codel_params *p,
                                        struct codel_vars *v, struct codel_stats *st, codel_drop_t drop_fn,
                                        codel_dequeue_t dequeue_fn, codel_time_t now)
{
    struct skb *skb = dequeue_fn(v, ctx);
    if (!skb) {
        v->dropping = false;
        return skb;
    }
    bool drop = codel_should_drop(skb, v, p, st, backlog, now);
    if (v->dropping) {
        if (!drop) {
            v->dropping = false;     /* sojourn below target: leave the state */
        } else if (codel_time_after_eq(now, v->drop_next)) {
            /* a backlog large enough can make the next drop due at once:
             * drop (or mark) until it is not */
            while (v->dropping && codel_time_after_eq(now, v->drop_next)) {
                v->count++;          /* wraps harmlessly: no divide left */
                codel_Newton_step(v);
                if (p->ecn && skb_ecn_set_ce(skb)) {
                    st->ecn_mark++;
                    v->drop_next = codel_control_law(v->drop_next, p->interval, v->rec_inv_sqrt);
                    goto end;
                }
                st->drop_len += qdisc_pkt_len(skb);
                drop_fn(skb, ctx);
                st->drop_count++;
                skb = dequeue_fn(v, ctx);
                if (!codel_should_drop(skb, v, p, st, backlog, now))
                    v->dropping = false;
                else
                    v->drop_next = codel_control_law(v->drop_next, p->interval, v->rec_inv_sqrt);
            }
        }
    } else if (drop) {
        if (p->ecn && skb_ecn_set_ce(skb)) {
            st->ecn_mark++;
        } else {
            st->drop_len += qdisc_pkt_len(skb);
            drop_fn(skb, ctx);
            st->drop_count++;
            skb = dequeue_fn(v, ctx);
            drop = codel_should_drop(skb, v, p, st, backlog, now);
        }
        v->dropping = true;
        /* back above target soon after leaving: the drop rate that held
         * the queue last time is a good start now */
        uint32_t delta = v->count - v->lastcount;
        if (delta > 1 && codel_time_before(now - v->drop_next, 16 * p->interval)) {
            v->count = delta;
            /* imprecise, but the next steps correct it quadratically */
            codel_Newton_step(v);
        } else {
            v->count = 1;
            v->rec_inv_sqrt = (uint16_t)(~0U >> REC_INV_SQRT_SHIFT);
        }
        v->lastcount = v->count;
        v->drop_next = codel_control_law(now, p->interval, v->rec_inv_sqrt);
    }
end:
    /* count only grows while dropping, from the lastcount it entered
     * with: the re-entry's count - lastcount is a number of drops, not a
     * wrapped difference; and a state that drops has dropped (count 1 on) */
    INVARIANT(!v->dropping || (v->count >= v->lastcount && v->lastcount >= 1));
    if (skb && codel_time_after(v->ldelay, p->ce_threshold) && skb_ecn_set_ce(skb))
        st->ce_mark++;
    return skb;
}

/* tc's drop_next: signed microseconds from now, as codel_dump_stats
 * gives it */
static inline int64_t codel_drop_next_us(const struct codel_vars *v, codel_time_t now)
{
    /* the clock's difference mod 2^32, read signed (an intended wrap) */
    codel_tdiff_t delta = (codel_tdiff_t)wrap_sub_u32(v->drop_next, now);
    return delta >= 0 ? (int64_t)codel_time_to_us((codel_time_t)delta)
                      : -(int64_t)codel_time_to_us(wrap_sub_u32(0, (uint32_t)delta));
}

#endif
