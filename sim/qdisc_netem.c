/*
 * qdisc_netem.c - netem as a leaf of a qdisc tree: tc's second recipe, a
 * shaper at the root and netem below it,
 *
 *     tc qdisc add dev eth0 root handle 1: tbf rate 100mbit burst 32kb latency 50ms
 *     tc qdisc add dev eth0 parent 1:1 handle 10: netem delay 20ms loss 1%
 *
 * (each htb leaf, or each TX queue under mq, likewise). The packet meets
 * netem first, as its parent enqueues to it; netem keeps it until its
 * time_to_send (sim/netem.c, unchanged), then it waits in `ready` until
 * the parent dequeues it, which the root's watchdog, armed for that time,
 * sets off. netem's limit counts both.
 */
#include <string.h>
#include "sim/qdisc.h"

struct netem_leaf {
    struct netem nm;
    struct skb_queue ready;
};

/* netem's device: its packet is due; the tree runs now */
static int leaf_xmit(void *dev, struct skb *skb, simtime_t t)
{
    struct qdisc *q = dev;
    struct netem_leaf *l = q->priv;
    skbq_push(&l->ready, skb);
    qdisc_watchdog_schedule(q, t);
    return 0;
}

static int nl_enqueue(struct qdisc *q, struct skb *skb, simtime_t now)
{
    struct netem_leaf *l = q->priv;
    if (l->nm.qlen + l->ready.len >= l->nm.o.limit)
        return qdisc_drop(q, skb);
    uint32_t len = qdisc_pkt_len(skb), in0 = l->nm.qlen + l->ready.len;
    int rc = netem_enqueue(&l->nm, skb, now);
    uint32_t in1 = l->nm.qlen + l->ready.len;   /* 0 more when lost, 2 with a duplicate */
    if (rc < 0) {
        q->st.drops++;
        return NET_XMIT_DROP;
    }
    q->st.qlen += in1 - in0;
    q->st.backlog += (uint64_t)(in1 - in0) * len;
    return NET_XMIT_SUCCESS;
}

static struct skb *nl_dequeue(struct qdisc *q, simtime_t now)
{
    (void)now;
    return qdisc_pop(q, &((struct netem_leaf *)q->priv)->ready);
}

static void nl_reset(struct qdisc *q)
{
    struct netem_leaf *l = q->priv;
    netem_free(&l->nm);
    skbq_purge(&l->ready);
    q->st.qlen = q->st.backlog = 0;
}

static void nl_dump(const struct qdisc *q, FILE *f)
{
    const struct netem_leaf *l = q->priv;
    char b[32];
    fprintf(f, "limit %u delay %s", l->nm.o.limit, qdisc_fmt_time(b, sizeof b, l->nm.o.latency));
    if (l->nm.o.loss != NETEM_LOSS_NONE)
        fprintf(f, " loss %g%%", netem_loss_rate(&l->nm.o) * 100);
}

static int nl_xstats(const struct qdisc *q, struct qdisc_xstat *x)
{
    const struct netem_leaf *l = q->priv;
    const struct qdisc_xstat xs[] = { { "netem_loss", &l->nm.lost }, { "netem_drops", &l->nm.dropped },
                                      { "netem_duplicated", &l->nm.duplicated },
                                      { "netem_corrupted", &l->nm.corrupted }, { "netem_reordered", &l->nm.reordered },
                                      { "netem_ecn_marked", &l->nm.ecn_marked } };
    int n = (int)(sizeof xs / sizeof xs[0]);
    for (int i = 0; i < n; i++)
        x[i] = xs[i];
    return n;
}

static const struct qdisc_ops netem_leaf_ops = {
    .name = "netem", .priv_size = sizeof(struct netem_leaf),
    .doc = "netem under a shaper (the link's netem keys with netem_at = leaf)",
    .enqueue = nl_enqueue, .dequeue = nl_dequeue, .reset = nl_reset, .dump = nl_dump, .xstats = nl_xstats,
};

struct qdisc *qdisc_create_leaf(struct qdisc *parent, const struct qdisc_args *dflt, const char *name, char *err,
                                size_t n)
{
    struct qdisc_root *r = parent->root;
    if (!r || !r->leaf_netem)
        return qdisc_create(dflt, &parent->dev, r, name, err, n);
    struct qdisc_args a = { .ops = &netem_leaf_ops };
    struct qdisc *q = qdisc_create(&a, &parent->dev, r, name, err, n);
    struct netem_leaf *l = q->priv;
    skbq_init(&l->ready);
    netem_init(&l->nm, r->leaf_netem, r->q, &q->rng, leaf_xmit, q);
    if (r->netem_leaves < QDISC_MAX_NETEM_LEAVES)
        r->netem_leaf[r->netem_leaves] = q;
    r->netem_leaves++;
    return q;
}

void qdisc_destroy_leaf(struct qdisc *leaf)
{
    struct qdisc_root *r = leaf ? leaf->root : NULL;
    if (r && leaf->ops == &netem_leaf_ops) {
        uint32_t k = 0, n = r->netem_leaves < QDISC_MAX_NETEM_LEAVES ? r->netem_leaves : QDISC_MAX_NETEM_LEAVES;
        while (k < n && r->netem_leaf[k] != leaf)
            k++;
        if (k < n)
            memmove(&r->netem_leaf[k], &r->netem_leaf[k + 1], (n - k - 1) * sizeof r->netem_leaf[0]);
        r->netem_leaves--;
    }
    qdisc_destroy(leaf);
}
