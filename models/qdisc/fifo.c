/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fifo.c - pfifo, bfifo and pfifo_head_drop (sch_fifo.c, Linux 4.15): one
 * queue, a limit in packets or bytes; a packet over the limit is dropped
 * (the head one, for pfifo_head_drop).
 */
#include "models/qdisc/sums.h"

struct fifo {
    struct skb_queue q;
    uint64_t limit;
};

static const struct qdisc_param pfifo_params[] = {
    { "limit", QP_COUNT, NULL, "packets held (default txqueuelen, 1000; sch_fifo.c fifo_init)", NULL },
    { NULL, 0, NULL, NULL, NULL },
};
static const struct qdisc_param bfifo_params[] = {
    { "limit", QP_SIZE, NULL, "bytes held (default txqueuelen x (mtu + 14): 1514000)", NULL },
    { NULL, 0, NULL, NULL, NULL },
};

static int fifo_init(struct qdisc *q, const struct qdisc_args *a, char *err, size_t n)
{
    struct fifo *f = q->priv;
    skbq_init(&f->q);
    uint64_t qlen = q->dev.txqueuelen ? q->dev.txqueuelen : 1;
    if (a->given & 1)
        f->limit = (uint64_t)a->v[0];
    else
        f->limit = q->ops->params == bfifo_params ? qlen * (q->dev.mtu + q->dev.hard_header_len) : qlen;
    /* fifo_init: a FIFO that cannot hold one full packet must not be
     * bypassed, or a packet that finds it empty would pass a limit that
     * drops it */
    q->bypass = f->limit >= (q->ops->params == bfifo_params ? (uint64_t)q->dev.mtu + q->dev.hard_header_len : 1);
    (void)err;
    (void)n;
    return 0;
}

static void fifo_add(struct qdisc *q, struct fifo *f, struct skb *skb)
{
    skbq_push(&f->q, skb);
    qdisc_backlog_in(q, skb);
    QDISC_LISTS_OK(q, &f->q, 1);
}

static int pfifo_enqueue(struct qdisc *q, struct skb *skb, simtime_t now)
{
    struct fifo *f = q->priv;
    (void)now;
    if (q->st.qlen >= f->limit)
        return qdisc_drop(q, skb);
    fifo_add(q, f, skb);
    INVARIANT(q->st.qlen <= f->limit);
    return NET_XMIT_SUCCESS;
}

static int bfifo_enqueue(struct qdisc *q, struct skb *skb, simtime_t now)
{
    struct fifo *f = q->priv;
    (void)now;
    if (q->st.backlog + qdisc_pkt_len(skb) > f->limit)
        return qdisc_drop(q, skb);
    fifo_add(q, f, skb);
    INVARIANT(q->st.backlog <= f->limit);
    return NET_XMIT_SUCCESS;
}

/* pfifo_tail_enqueue: the oldest goes to make room; NET_XMIT_CN tells the
 * sender its packet got in at another's cost */
static int head_drop_enqueue(struct qdisc *q, struct skb *skb, simtime_t now)
{
    struct fifo *f = q->priv;
    (void)now;
    if (q->st.qlen < f->limit) {
        fifo_add(q, f, skb);
        return NET_XMIT_SUCCESS;
    }
    /* limit 0 drops every packet, as Linux does since 2025 (e40cb34b7f24);
     * 4.15 queued it after dropping nothing */
    if (!f->limit)
        return qdisc_drop(q, skb);
    /* The list is empty when what fills the limit is a packet requeued
     * for a stopped TX queue, which counts in qlen and is not on it
     * (dev_requeue_skb). 4.15's __qdisc_queue_drop_head then drops
     * nothing, and the drop is counted all the same. */
    struct skb *old = skbq_pop(&f->q);
    if (old) {
        qdisc_backlog_out(q, old);
        qdisc_drop(q, old);
    } else {
        q->st.drops++;
    }
    fifo_add(q, f, skb);
    return NET_XMIT_CN;
}

static struct skb *fifo_dequeue(struct qdisc *q, simtime_t now)
{
    struct fifo *f = q->priv;
    (void)now;
    struct skb *skb = qdisc_pop(q, &f->q);
    QDISC_LISTS_OK(q, &f->q, 1);
    return skb;
}

static void fifo_reset(struct qdisc *q)
{
    struct fifo *f = q->priv;
    skbq_purge(&f->q);
    q->st.qlen = q->st.backlog = 0;
}

static void pfifo_dump(const struct qdisc *q, FILE *f)
{
    fprintf(f, "limit %llup", (unsigned long long)((const struct fifo *)q->priv)->limit);
}

static void bfifo_dump(const struct qdisc *q, FILE *f)
{
    char b[32];
    fprintf(f, "limit %s", qdisc_fmt_size(b, sizeof b, ((const struct fifo *)q->priv)->limit));
}

const struct qdisc_ops qdisc_pfifo = {
    .name = "pfifo", .bypass = true, .params = pfifo_params, .priv_size = sizeof(struct fifo),
    .doc = "a FIFO of at most limit packets, tail drop (sch_fifo.c, Linux 4.15)",
    .init = fifo_init, .enqueue = pfifo_enqueue, .dequeue = fifo_dequeue, .reset = fifo_reset, .dump = pfifo_dump,
};
VARIANT("qdisc", qdisc_pfifo);

const struct qdisc_ops qdisc_bfifo = {
    .name = "bfifo", .bypass = true, .params = bfifo_params, .priv_size = sizeof(struct fifo),
    .doc = "a FIFO of at most limit bytes (frames with their Ethernet header), tail drop (sch_fifo.c, Linux 4.15)",
    .init = fifo_init, .enqueue = bfifo_enqueue, .dequeue = fifo_dequeue, .reset = fifo_reset, .dump = bfifo_dump,
};
VARIANT("qdisc", qdisc_bfifo);

const struct qdisc_ops qdisc_pfifo_head_drop = {
    .name = "pfifo_head_drop", .bypass = true, .params = pfifo_params, .priv_size = sizeof(struct fifo),
    .doc = "a FIFO of at most limit packets that drops its oldest to take a new one (sch_fifo.c, Linux 4.15)",
    .init = fifo_init, .enqueue = head_drop_enqueue, .dequeue = fifo_dequeue, .reset = fifo_reset,
    .dump = pfifo_dump,
};
VARIANT("qdisc", qdisc_pfifo_head_drop);
