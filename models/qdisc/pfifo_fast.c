/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfifo_fast.c - Linux 4.15's default discipline (sch_generic.c, before
 * 4.16 made it lockless) as tc names it: in a configured tree, its dump
 * and reset. Its bands, priomap and operations are the engine's
 * (sim/pfifo_fast.h), which the NIC calls in line for the default tree.
 */
#include "models/qdisc/sums.h"
#include "sim/pfifo_fast.h"

static int pf_enqueue(struct qdisc *q, struct skb *skb, simtime_t now)
{
    (void)now;
    return pfifo_fast_enqueue(q, skb);
}

static struct skb *pf_dequeue(struct qdisc *q, simtime_t now)
{
    (void)now;
    return pfifo_fast_dequeue(q);
}

static void pf_reset(struct qdisc *q)
{
    struct pfifo_fast *p = q->priv;
    for (int i = 0; i < PFIFO_FAST_BANDS; i++)
        skb_ring_purge(&p->band[i]);
    p->bitmap = 0;
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
