/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netem.c - tc-netem as a queueing discipline: what happens to a packet
 * (loss, duplicate, corrupt, reorder, delay and jitter, rate, limit) is
 * sim/netem.c's, after Linux's sch_netem.c; this file puts it in a tree,
 * in tc's words,
 *
 *     fwd.qdisc = netem delay 50ms 5ms distribution normal loss 1% limit 1000
 *
 * which a link's netem keys (delay, loss, ..., limit) build too.
 *
 * At the root, netem takes every packet the port is handed. Over another
 * discipline (tc's second recipe, `tc qdisc add dev eth0 root handle 1:
 * netem ...; tc qdisc add dev eth0 parent 1:1 ...`: a link's qdisc key
 * beside its netem keys, or the host's net.core.default_qdisc tree) each
 * packet goes into that tree at its time_to_send; over nothing, to its TX
 * queue at that time, or, while the queue is stopped, at its restart.
 * The kernel's netem does this from its watchdog: the timer fires at
 * time_to_send and the softirq it schedules dequeues at once; netsim
 * hands the packet over in the timer's own event, which is the same
 * instant, and does not charge that softirq to a core.
 *
 * As a leaf (netem_at = leaf: tbf's child, each htb leaf, each TX queue
 * under mq) a packet meets netem as its parent enqueues it; netem keeps
 * it until its time_to_send, then it waits in `ready` until the parent
 * dequeues it, which the root's watchdog, armed for that time, sets off.
 * netem's limit counts both.
 */
#include <string.h>
#include "models/qdisc/sums.h"
#include "sim/variant.h"

struct netem_q {
    struct netem nm;
    struct skb_queue ready;      /* a leaf's packets that are due */
    uint64_t ready_backlog;      /* their bytes (qdisc_pkt_len) */
    struct qdisc_root *child;    /* at the root: the tree under it, or NULL */
    bool at_root;
};

/* ---- at the root ---- */

/* netem's device at the root: the tree under it, or the TX queue (-1
 * while it is stopped: netem keeps the packet for the restart) */
static int root_dev_xmit(void *dev, struct skb *skb, simtime_t t)
{
    struct qdisc *q = dev;
    struct netem_q *l = q->priv;
    struct qdisc_root *r = q->root;
    if (l->child) {
        qdisc_root_xmit(l->child, skb, t, NULL);
        return 0;
    }
    if (r->dev_ops->stopped(r->dev, skb->queue))
        return -1;
    r->dev_ops->xmit(r->dev, skb, t, NULL);
    return 0;
}

static int root_xmit(struct qdisc *q, struct skb *skb, simtime_t now)
{
    struct netem_q *l = q->priv;
    return netem_enqueue(&l->nm, skb, now) < 0 ? NET_XMIT_DROP : NET_XMIT_SUCCESS;
}

/* the TX clean restarted txq: the tree under netem runs; netem itself
 * sends what waited when the queue had been stopped, or a packet it
 * refused during this clean (by a send the clean itself caused, a TSQ
 * handler's, which was_stopped did not see) */
static void root_restart(struct qdisc *q, unsigned txq, simtime_t now, void *core, bool was_stopped)
{
    struct netem_q *l = q->priv;
    if (l->child)
        qdisc_run(l->child, (int)txq, now, core);
    else if (was_stopped || l->nm.requeued)
        netem_wake(&l->nm, now);
}

/* ---- as a leaf ---- */

/* netem's device as a leaf: its packet is due; the tree runs now */
static int leaf_xmit(void *dev, struct skb *skb, simtime_t t)
{
    struct qdisc *q = dev;
    struct netem_q *l = q->priv;
    skbq_push(&l->ready, skb);
    l->ready_backlog += qdisc_pkt_len(skb);
    qdisc_watchdog_schedule(q, t);
    return 0;
}

/* A leaf's packets are netem's (waiting for their time) and ready's (due,
 * for the parent to take), but for one the parent peeked; the parent
 * counts what the leaf's qlen and backlog gained (htb, tbf), so these
 * must be every packet netem kept and their bytes. */
static void leaf_ok(const struct qdisc *q, const struct netem_q *l)
{
    INVARIANT(q->st.qlen == (uint64_t)l->nm.qlen + l->ready.len + qdisc_qlen_aside(q) &&
              q->st.backlog == l->nm.backlog + l->ready_backlog + qdisc_backlog_aside(q));
}

static int nl_enqueue(struct qdisc *q, struct skb *skb, simtime_t now)
{
    struct netem_q *l = q->priv;
    if (l->nm.qlen + l->ready.len >= l->nm.o.limit)
        return qdisc_drop(q, skb);
    uint32_t in0 = l->nm.qlen + l->ready.len;
    uint64_t b0 = l->nm.backlog + l->ready_backlog;
    int rc = netem_enqueue(&l->nm, skb, now);
    /* 0 more when lost, 2 with a duplicate, a GSO packet's segments when
     * netem cut it to corrupt one (their bytes are the packet's) */
    uint32_t in1 = l->nm.qlen + l->ready.len;
    if (rc < 0) {
        q->st.drops++;
        return NET_XMIT_DROP;
    }
    q->st.qlen += in1 - in0;
    q->st.backlog += l->nm.backlog + l->ready_backlog;
    q->st.backlog -= b0;
    leaf_ok(q, l);
    return NET_XMIT_SUCCESS;
}

static struct skb *nl_dequeue(struct qdisc *q, simtime_t now)
{
    struct netem_q *l = q->priv;
    (void)now;
    struct skb *skb = qdisc_pop(q, &l->ready);
    if (skb)
        l->ready_backlog -= qdisc_pkt_len(skb);
    leaf_ok(q, l);
    return skb;
}

/* ---- either ---- */

static int nl_init(struct qdisc *q, const struct qdisc_args *a, char *err, size_t n)
{
    struct netem_q *l = q->priv;
    struct qdisc_root *r = q->root;
    if (!r) {
        snprintf(err, n, "netem needs a port's tree");
        return -1;
    }
    skbq_init(&l->ready);
    /* the root's top is being created (qdisc_root_new sets r->top after
     * init); a leaf is created under a top that exists, or under mq's */
    l->at_root = r->top == NULL && !strcmp(q->parent, "root");
    if (l->at_root && a->child) {
        l->child = qdisc_root_new(a->child, &q->dev, r->q, r->dev_ops, r->dev, err, n);
        if (!l->child)
            return -1;
        r->inner = l->child;
    }
    netem_init(&l->nm, &a->netem, r->q, a->netem_rng ? a->netem_rng : &q->rng, l->at_root ? root_dev_xmit : leaf_xmit,
               q);
    return 0;
}

static void nl_reset(struct qdisc *q)
{
    struct netem_q *l = q->priv;
    netem_free(&l->nm);
    skbq_purge(&l->ready);
    l->ready_backlog = 0;
    q->st.qlen = q->st.backlog = 0;
}

static void nl_destroy(struct qdisc *q)
{
    struct netem_q *l = q->priv;
    qdisc_root_free(l->child);
    l->child = NULL;
    if (q->root)
        q->root->inner = NULL;
}

static void nl_dump(const struct qdisc *q, FILE *f)
{
    const struct netem_q *l = q->priv;
    char b[32];
    fprintf(f, "limit %u delay %s", l->nm.o.limit, qdisc_fmt_time(b, sizeof b, l->nm.o.latency));
    if (l->nm.o.loss != NETEM_LOSS_NONE)
        fprintf(f, " loss %g%%", netem_loss_rate(&l->nm.o) * 100);
}

/* the counters: a leaf's are its class's; the root's are its link
 * direction's (link.NAME.DIR.netem_*), which also count the packets sent
 * out of their arrival order, and ecn_marked only with ecn */
static int nl_xstats(const struct qdisc *q, struct qdisc_xstat *x)
{
    const struct netem_q *l = q->priv;
    int n = 0;
    x[n++] = (struct qdisc_xstat){ "netem_loss", &l->nm.lost };
    x[n++] = (struct qdisc_xstat){ "netem_drops", &l->nm.dropped };
    x[n++] = (struct qdisc_xstat){ "netem_duplicated", &l->nm.duplicated };
    x[n++] = (struct qdisc_xstat){ "netem_corrupted", &l->nm.corrupted };
    x[n++] = (struct qdisc_xstat){ "netem_reordered", &l->nm.reordered };
    if (l->at_root)
        x[n++] = (struct qdisc_xstat){ "netem_out_of_order", &l->nm.out_of_order };
    if (!l->at_root || l->nm.o.ecn)
        x[n++] = (struct qdisc_xstat){ "netem_ecn_marked", &l->nm.ecn_marked };
    return n;
}

static const struct qdisc_ops qdisc_netem = {
    .name = "netem", .priv_size = sizeof(struct netem_q), .netem = true,
    .doc = "network emulator: delay, jitter, loss, duplication, corruption, reordering, rate (Linux 6.x "
           "sch_netem.c; tc-netem's words)",
    .init = nl_init, .enqueue = nl_enqueue, .dequeue = nl_dequeue, .reset = nl_reset, .destroy = nl_destroy,
    .dump = nl_dump, .xstats = nl_xstats, .root_xmit = root_xmit, .root_restart = root_restart,
};
VARIANT("qdisc", qdisc_netem);

