/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ifb.c - the ifb device and the ingress redirect (ifb.h).
 */
#include "sim/ifb.h"
#include "sim/cpu.h"
#include "sim/host.h"
#include "sim/nic.h"

/* the port and RX queue a redirected packet came in on (skb->skb_iif),
 * kept in the per-layer scratch, which nothing uses between the device
 * and IP */
static void mark_iif(struct skb *skb, unsigned nic, unsigned queue)
{
    skb->cb[0] = nic;
    skb->cb[1] = queue;
}

bool ingress_redirect(const struct ingress *in, struct skb *skb, unsigned nic, unsigned queue, simtime_t now)
{
    if (in->family && skb->family != in->family)
        return false;
    struct ifb *f = in->to;
    mark_iif(skb, nic, queue);
    f->rx_packets++;
    skb->queue = 0;              /* the ifb's one TX queue */
    if (qdisc_root_xmit(f->qd, skb, now, NULL) == NET_XMIT_DROP)
        f->rx_dropped++;
    return true;
}

static bool ifb_stopped(void *dev, unsigned txq)
{
    (void)dev;
    (void)txq;
    return false;
}

/* ifb_xmit, then ifb_ri_tasklet: back to the stack as received on its
 * port, on that port's RX core */
static void ifb_xmit(void *dev, struct skb *skb, simtime_t t, void *core)
{
    struct ifb *f = dev;
    struct host *h = f->host;
    (void)core;
    f->tx_packets++;
    unsigned nic = skb->cb[0], queue = skb->cb[1];
    /* every packet the tree hands on came in by ingress_redirect (or is
     * netem's copy of one), which marked the port and RX queue it goes
     * back to: an unmarked one would be handed to nics[-1] */
    INVARIANT(nic >= 1 && (int)nic <= h->nnics && queue < h->nics[nic - 1]->p.num_queues);
    skb->cb[0] = skb->cb[1] = 0;
    struct core *c = h->nics[nic - 1]->vec[queue].core;
    skb->queue = (uint8_t)queue;
    skbq_push(&h->backlog[c->id], skb);
    core_wake(c, &h->backlog_task[c->id], t);
}

const struct qdisc_dev_ops ifb_qdisc_dev = { ifb_stopped, ifb_xmit };
