/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfifo_fast.h - Linux 4.15's default discipline, whose operations the
 * engine calls in line: the kernel keeps pfifo_fast in sch_generic.c, with
 * the core, and every port nobody configured sends each packet through
 * it, so the NIC's TX path (sim/nic.c) enqueues and dequeues without the
 * tree's indirect calls. models/qdisc/pfifo_fast.c is the same discipline
 * as tc names it (its dump, its reset, its place in a configured tree).
 *
 * Three FIFO bands served in strict priority, band 0 first, a packet's
 * band from its priority through the priomap; all bands together hold at
 * most txqueuelen packets. A packet's priority is what the kernel gives
 * it: a socket's sk_priority (0 unless set) for local packets,
 * rt_tos2priority of the TOS for forwarded ones; netsim has no
 * SO_PRIORITY, and reads both from the TOS (ip_tos2prio), so a TOS of 0
 * is band 1, as both are in Linux. The ECN bits are not in the lookup.
 */
#ifndef NETSIM_PFIFO_FAST_H
#define NETSIM_PFIFO_FAST_H

#include "sim/invariant.h"
#include "sim/qdisc.h"
#include "sim/skb.h"

#define PFIFO_FAST_BANDS 3

/* Each band a ring of pointers, not a list through the packets: a deep
 * queue's enqueue and dequeue then touch no packet but their own (a
 * list's link of the tail and the new head was a cache miss a packet,
 * 8 % of a 10G TCP flow's time with its sender's queue full). */
struct pfifo_fast {
    uint32_t bitmap;             /* bit b: band b holds packets (4.15's pfifo_fast_priv) */
    struct skb_ring band[PFIFO_FAST_BANDS];
};

/* A TOS's band: sch_generic.c's prio2band of route.c's ip_tos2prio,
 * indexed by (tos & IPTOS_TOS_MASK) >> 1 */
static inline unsigned pfifo_fast_band(const struct skb *skb)
{
    /* ip_tos2prio: 0 0 0 0 2 2 2 2 6 6 6 6 4 4 4 4; prio2band of those */
    static const uint8_t band[16] = { 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, 1 };
    return band[(skb->tos & 0x1E) >> 1];
}

/* The bands hold every packet counted, but for the one set aside:
 * dequeue finds them there. The walk of the packets is sampled. */
static inline bool pfifo_fast_qlen_ok(const struct qdisc *q, const struct pfifo_fast *p)
{
    uint64_t len = 0;
    for (int i = 0; i < PFIFO_FAST_BANDS; i++)
        len += p->band[i].len;
    for (int i = 0; i < PFIFO_FAST_BANDS; i++)
        if (!(p->bitmap >> i & 1) != !p->band[i].len)
            return false;
    return q->st.qlen == len + qdisc_qlen_aside(q) && (q->st.qlen || !q->st.backlog);
}
static inline bool pfifo_fast_backlog_ok(const struct qdisc *q, const struct pfifo_fast *p)
{
    uint64_t sum = 0;
    for (int i = 0; i < PFIFO_FAST_BANDS; i++) {
        const struct skb_ring *r = &p->band[i];
        for (uint32_t k = 0; k < r->len; k++)
            sum += qdisc_pkt_len(r->e[(r->head + k) & (r->cap - 1)]);
    }
    return q->st.backlog == sum + qdisc_backlog_aside(q);
}
#define PFIFO_FAST_OK(q, p)                                                                                        \
    do {                                                                                                           \
        INVARIANT(pfifo_fast_qlen_ok((q), (p)));                                                                   \
        INVARIANT_WALK((q)->st.qlen, pfifo_fast_backlog_ok((q), (p)));                                             \
    } while (0)

static inline int pfifo_fast_enqueue(struct qdisc *q, struct skb *skb)
{
    struct pfifo_fast *p = q->priv;
    if (q->st.qlen >= q->dev.txqueuelen)
        return qdisc_drop(q, skb);
    unsigned b = pfifo_fast_band(skb);
    skb_ring_push(&p->band[b], skb);
    p->bitmap |= 1u << b;
    qdisc_backlog_in(q, skb);
    PFIFO_FAST_OK(q, p);
    return NET_XMIT_SUCCESS;
}

/* The first band that holds a packet, from the bitmap (4.15's
 * bitmap2band); its head leaves, counted as qdisc_bstats_update does */
static inline struct skb *pfifo_fast_dequeue(struct qdisc *q)
{
    static const int8_t bitmap2band[8] = { -1, 0, 1, 0, 2, 0, 1, 0 };
    struct pfifo_fast *p = q->priv;
    int b = bitmap2band[p->bitmap & 7];
    if (b < 0)
        return NULL;
    struct skb *skb = skb_ring_pop(&p->band[b]);
    if (!p->band[b].len)
        p->bitmap &= ~(1u << b);
    uint32_t len = qdisc_pkt_len(skb);
    INVARIANT(q->st.qlen > 0 && q->st.backlog >= len);
    q->st.qlen--;
    q->st.backlog -= len;
    q->st.bytes += len;
    q->st.packets++;
    PFIFO_FAST_OK(q, p);
    return skb;
}

#endif
