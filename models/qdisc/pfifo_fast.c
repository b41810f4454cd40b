/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfifo_fast.c - Linux 4.15's default discipline (sch_generic.c, before
 * 4.16 made it lockless): three FIFO bands served in strict priority,
 * band 0 first, a packet's band from its priority through the priomap;
 * all bands together hold at most txqueuelen packets.
 *
 * A packet's priority is what the kernel gives it: a socket's
 * sk_priority (0 unless set) for local packets, rt_tos2priority of the
 * TOS for forwarded ones; netsim has no SO_PRIORITY, and reads both from
 * the TOS (ip_tos2prio), so a TOS of 0 is band 1, as both are in Linux.
 * The ECN bits are not in the TOS lookup.
 */
#include "models/qdisc/sums.h"

#define BANDS 3

/* Each band a ring of pointers, not a list through the packets: a deep
 * queue's enqueue and dequeue then touch no packet but their own (a
 * list's link of the tail and the new head was a cache miss a packet,
 * 8 % of a 10G TCP flow's time with its sender's queue full). */
struct pfifo_fast {
    struct skb_ring band[BANDS];
};

/* sch_generic.c prio2band, indexed by TC_PRIO_* */
static const uint8_t prio2band[16] = { 1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1 };
/* route.c ip_tos2prio, indexed by (tos & IPTOS_TOS_MASK) >> 1 */
static const uint8_t tos2prio[16] = { 0, 0, 0, 0, 2, 2, 2, 2, 6, 6, 6, 6, 4, 4, 4, 4 };

static unsigned band_of(const struct skb *skb)
{
    return prio2band[tos2prio[(skb->tos & 0x1E) >> 1]];
}

/* The bands hold every packet counted, but for the one set aside:
 * dequeue finds them there. The walk of the packets is sampled. */
static bool bands_qlen_ok(const struct qdisc *q, const struct pfifo_fast *p)
{
    uint64_t len = 0;
    for (int i = 0; i < BANDS; i++)
        len += p->band[i].len;
    return q->st.qlen == len + qdisc_qlen_aside(q) && (q->st.qlen || !q->st.backlog);
}
static bool bands_backlog_ok(const struct qdisc *q, const struct pfifo_fast *p)
{
    uint64_t sum = 0;
    for (int i = 0; i < BANDS; i++) {
        const struct skb_ring *r = &p->band[i];
        for (uint32_t k = 0; k < r->len; k++)
            sum += qdisc_pkt_len(r->e[(r->head + k) & (r->cap - 1)]);
    }
    return q->st.backlog == sum + qdisc_backlog_aside(q);
}
#define BANDS_OK(q, p)                                                                                             \
    do {                                                                                                           \
        INVARIANT(bands_qlen_ok((q), (p)));                                                                        \
        INVARIANT_WALK((q)->st.qlen, bands_backlog_ok((q), (p)));                                                  \
    } while (0)

static int pf_enqueue(struct qdisc *q, struct skb *skb, simtime_t now)
{
    struct pfifo_fast *p = q->priv;
    (void)now;
    if (q->st.qlen >= q->dev.txqueuelen)
        return qdisc_drop(q, skb);
    skb_ring_push(&p->band[band_of(skb)], skb);
    qdisc_backlog_in(q, skb);
    BANDS_OK(q, p);
    return NET_XMIT_SUCCESS;
}

static struct skb *pf_dequeue(struct qdisc *q, simtime_t now)
{
    struct pfifo_fast *p = q->priv;
    (void)now;
    for (int i = 0; i < BANDS; i++)
        if (p->band[i].len) {
            struct skb *skb = skb_ring_pop(&p->band[i]);
            qdisc_backlog_out(q, skb);
            qdisc_sent(q, skb);
            BANDS_OK(q, p);
            return skb;
        }
    return NULL;
}

static void pf_reset(struct qdisc *q)
{
    struct pfifo_fast *p = q->priv;
    for (int i = 0; i < BANDS; i++)
        skb_ring_purge(&p->band[i]);
    q->st.qlen = q->st.backlog = 0;
}

static void pf_dump(const struct qdisc *q, FILE *f)
{
    (void)q;
    fputs("bands 3 priomap  1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1", f);
}

const struct qdisc_ops qdisc_pfifo_fast = {
    .name = "pfifo_fast", .bypass = true, .priv_size = sizeof(struct pfifo_fast),
    .doc = "three bands by TOS in strict priority, txqueuelen packets in all (sch_generic.c, Linux 4.15's default)",
    .enqueue = pf_enqueue, .dequeue = pf_dequeue, .reset = pf_reset, .dump = pf_dump,
};
VARIANT("qdisc", qdisc_pfifo_fast);
