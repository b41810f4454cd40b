/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qdisc.h - a port's egress queueing discipline, as Linux's net/sched
 * runs one (4.15): the model family `qdisc` (models/qdisc/, one file a
 * discipline) behind one interface, and the engine that runs a port's
 * tree of them against the NIC's TX queues (qdisc.c).
 *
 * A discipline is an ops table, like a kernel Qdisc_ops: enqueue and
 * dequeue with the kernel's meanings (enqueue answers NET_XMIT_*, dequeue
 * may hold packets back and ask for a watchdog), its options as tc's
 * words (params, parsed by load/qdisc_parse.c into qdisc_args), and its
 * statistics as `tc -s qdisc show` reports them (the generic qdisc_stats
 * every discipline keeps, plus its own xstats).
 *
 * The engine:
 *   - dev_queue_xmit (nic.c) picks the TX queue (skb->queue), then hands
 *     the packet to the root (for mq: the TX queue's child), stamping
 *     skb->t_due with the enqueue time (codel's enqueue_time; the link
 *     sets t_due again once the packet leaves);
 *   - qdisc_run dequeues while the packet's TX queue is not stopped;
 *     one dequeued for a stopped queue is held and sent first when that
 *     queue restarts (dev_requeue_skb, counted in requeues);
 *   - a discipline that holds packets back (tbf, fq's pacing, htb) arms
 *     the root's watchdog (qdisc_watchdog_schedule), whose event runs the
 *     tree again at that time, as qdisc_watchdog's __netif_schedule does.
 * A port without a qdisc key has the tree 4.15 attaches (mq over a
 * pfifo_fast per TX queue, or over net.core.default_qdisc's), run by
 * this same engine (docs/models/qdisc.md).
 */
#ifndef NETSIM_QDISC_H
#define NETSIM_QDISC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "sim/event.h"
#include "sim/netem.h"
#include "sim/rng.h"
#include "sim/skb.h"
#include "sim/time.h"
#include "sim/variant.h"

/* enqueue's answers (include/linux/netdevice.h) */
enum { NET_XMIT_SUCCESS = 0, NET_XMIT_DROP = 1, NET_XMIT_CN = 2 };

/* An option's kind, as tc's parsers read it (tc_util.c): */
enum qdisc_ptype {
    QP_COUNT,                    /* get_u32: a whole number */
    QP_SIZE,                     /* get_size: bytes; k/kb, m/mb, g/gb (1024), kbit/mbit/gbit (1024/8) */
    QP_TIME,                     /* get_time: s, ms, us (a bare number is us), whole us */
    QP_RATE,                     /* get_rate: bit/kbit/mbit/gbit, bps = bytes/s (a bare number is bit/s);
                                  * kept as whole bytes/s times 8, what the kernel is given */
    QP_PROB,                     /* a fraction 0..1 (red's probability) */
    QP_FLAG,                     /* a word alone (ecn); neg names the word that clears it (noecn) */
    QP_HEX,                      /* get_u32(..., 16): a class minor in hex (htb's default) */
    QP_RATE32,                   /* get_rate into a u32: as QP_RATE, at most 2^32 - 1 bytes/s (fq's maxrate) */
};

struct qdisc_param {
    const char *name;            /* tc's word; "burst|buffer|maxburst" names its aliases */
    enum qdisc_ptype type;
    const char *def;             /* the kernel's default in tc's words, or NULL (init decides) */
    const char *doc;             /* one line, with the default and where it comes from */
    const char *neg;             /* QP_FLAG only: the word that clears it, or NULL */
};
#define QDISC_MAX_PARAMS 24

/* A discipline's options as a scenario gave them. v[i] is params[i]'s
 * value: a count, bytes, ps, bit/s or 0/1; p[i] a QP_PROB's fraction. */
struct qdisc_class_spec;
struct qdisc_filter_spec;
struct qdisc_args {
    const struct qdisc_ops *ops;
    uint32_t given;              /* bit i: params[i] was written */
    int64_t v[QDISC_MAX_PARAMS];
    double p[QDISC_MAX_PARAMS];
    const struct qdisc_args *child;   /* mq: each TX queue's discipline (net.core.default_qdisc) */
    /* a classful discipline's classes and filters (htb), in key order */
    const struct qdisc_class_spec *classes;
    uint32_t nclasses;
    const struct qdisc_filter_spec *filters;
    uint32_t nfilters;
    struct netem_opts netem;     /* netem's options (its own grammar, not params) */
    struct rng *netem_rng;       /* netem's draws: a link's own stream, or NULL for the discipline's */
};

/* tc class add ... parent 1:P classid 1:MINOR KIND OPTIONS: the options
 * read with the discipline's class_params into a.v / a.given */
struct qdisc_class_spec {
    uint32_t minor, parent;      /* parent 0: the qdisc itself ("parent 1:") */
    struct qdisc_args a;
};

/* tc filter add ... u32 match ip ... flowid 1:MINOR: a packet matching
 * every given field goes to the class */
struct qdisc_filter_spec {
    uint32_t flowid;
    bool src_set, dst_set;
    uint32_t src, dst;           /* host ids (skb saddr / daddr) */
    uint16_t sport, sport_mask, dport, dport_mask;
    uint8_t proto, proto_mask;   /* mask 0: any protocol */
};

/* What a discipline knows of its device (qdisc_dev(sch)). */
struct qdisc_dev {
    uint32_t mtu;                /* IP MTU */
    uint32_t hard_header_len;    /* 14: psched_mtu = mtu + hard_header_len */
    uint32_t txqueuelen;
    uint32_t num_tx_queues;
    uint64_t rate;               /* line rate, bit/s */
    /* Where the port's disciplines draw from (red's prandom_u32, and
     * what the kernel seeds at boot: fq_codel's flow hash key): a
     * seed derived from the run's seed and the link direction's key, so
     * a discipline's draws move with neither other links nor the order
     * of construction. 0 in a test is as good as any. */
    uint64_t seed;
};

/* gnet_stats_basic + gnet_stats_queue: tc's "Sent ... (dropped, overlimits
 * requeues)" and "backlog" */
struct qdisc_stats {
    uint64_t bytes, packets, drops, overlimits, requeues;
    uint64_t backlog;            /* bytes held (qdisc_pkt_len each) */
    uint64_t qlen;
};

struct qdisc;
struct qdisc_root;

/* A switch's shared buffer (devlink sb: one egress pool every port's
 * queues draw from). A packet is admitted to a port while the pool has
 * room for it and the port holds less than its threshold: with a dynamic
 * threshold (Choudhury and Hahne's; devlink's thtype dynamic) alpha times
 * the pool's free bytes, alpha = 2^(th - 10) as mlxsw maps devlink's th
 * 3..16; with a static one th bytes. The port's qdisc limit still holds
 * too. Bytes are qdisc_pkt_len, as the backlogs count them. */
struct qdisc_sb {
    uint64_t size;               /* the pool, bytes */
    uint64_t used;               /* what every port's root holds now */
    uint64_t used_max;           /* its peak (devlink sb occupancy's max) */
    uint64_t th_bytes;           /* static: a port's share */
    int alpha_log2;              /* dynamic: th - 10, -7 .. 6 */
    bool dynamic;
};

static inline bool qdisc_sb_admit(const struct qdisc_sb *sb, uint64_t held, uint32_t len)
{
    if (sb->used + len > sb->size)      /* (size is at most 2^32: nothing wraps) */
        return false;
    if (!sb->dynamic)
        return held + len <= sb->th_bytes;
    uint64_t free_b = sb->size - sb->used;
    uint64_t th = sb->alpha_log2 >= 0 ? free_b << sb->alpha_log2 : free_b >> -sb->alpha_log2;
    return held < th;
}

/* One of a discipline's own statistics (a counter row and a tc -s word). */
struct qdisc_xstat {
    const char *name;
    const uint64_t *v;
};
#define QDISC_MAX_XSTATS 256

struct qdisc_ops {
    const char *name;            /* tc's kind: "fq_codel" */
    const char *doc;             /* one line: what it is, which release it follows */
    const struct variant_key *keys;    /* NULL: a discipline's options are tc words */
    const struct qdisc_param *params;  /* NULL-name-terminated, or NULL */
    const struct qdisc_param *class_params;   /* a classful one's class options, or NULL */
    size_t priv_size;
    bool mq;                     /* a child per TX queue (mq): the engine enqueues to and runs the children */
    bool bypass;                 /* TCQ_F_CAN_BYPASS: work-conserving; a packet that finds it empty goes
                                  * straight to the device (__dev_xmit_skb's sch_direct_xmit) */
    /* The options against the device, as the kernel's init checks them;
     * 0, or -1 with the reason in err (one line, tc's terms). */
    int (*init)(struct qdisc *q, const struct qdisc_args *a, char *err, size_t n);
    int (*enqueue)(struct qdisc *q, struct skb *skb, simtime_t now);
    struct skb *(*dequeue)(struct qdisc *q, simtime_t now);
    void (*reset)(struct qdisc *q);               /* frees every packet held */
    void (*destroy)(struct qdisc *q);             /* optional: what init allocated */
    /* tc -s qdisc show: the options after the kind, and the xstats lines */
    void (*dump)(const struct qdisc *q, FILE *f);
    void (*dump_stats)(const struct qdisc *q, FILE *f);   /* optional */
    int (*xstats)(const struct qdisc *q, struct qdisc_xstat *x);   /* optional: how many written */
    void (*dump_classes)(const struct qdisc *q, const char *port, FILE *f);   /* optional: tc -s class show */
    /* optional: what init allocates beyond priv_size for these options
     * (fq_codel's flow queues), for the loader's memory estimate */
    uint64_t (*mem)(const struct qdisc_args *a, const struct qdisc_dev *dev);
    bool netem;                  /* its options are struct qdisc_args' netem, in tc-netem's grammar */
    /* optional, at the root only: a discipline that meets the device
     * itself (netem, from its own timer) takes dev_queue_xmit's packet
     * (a NET_XMIT_* answer) and the device's restart of a TX queue
     * (was_stopped: the queue had been stopped before this TX clean) */
    int (*root_xmit)(struct qdisc *q, struct skb *skb, simtime_t now);
    void (*root_restart)(struct qdisc *q, unsigned txq, simtime_t now, void *core, bool was_stopped);
};

/* What every packet's enqueue and dequeue read first (ops, priv, the
 * counts, the device's limit) on the block's first two cache lines. */
struct qdisc {
    const struct qdisc_ops *ops;
    void *priv;
    struct skb *requeued;        /* dev_requeue_skb's (q->gso_skb): dequeued for a stopped TX queue,
                                  * sent first when it restarts; counts in st */
    struct skb *peeked;          /* qdisc_peek's packet, dequeued and held (counts in st) */
    struct qdisc_stats st;
    struct qdisc_dev dev;
    bool bypass;                 /* TCQ_F_CAN_BYPASS: ops->bypass, unless init cleared it (fifo_init) */
    struct qdisc_root *root;
    struct qdisc **children;     /* mq: one per TX queue */
    uint32_t nchildren;
    char parent[8];              /* tc's "root" or ":1" */
    struct rng rng;              /* its own stream: dev.seed and parent; drawn from only by those that draw */
};

/* qdisc_pkt_len_init: a GSO packet counts every segment's headers */
static inline uint32_t qdisc_pkt_len(const struct skb *skb)
{
    uint32_t len = skb->ip_len + 14;
    if (skb->gso_size)
        len += (skb_gso_segs(skb) - 1) * (skb->ip_len - skb->payload + 14);
    return len;
}

/* The bookkeeping every discipline does as the kernel's helpers do it. */
static inline void qdisc_backlog_in(struct qdisc *q, const struct skb *skb)
{
    q->st.qlen++;
    q->st.backlog += qdisc_pkt_len(skb);
}
static inline void qdisc_backlog_out(struct qdisc *q, const struct skb *skb)
{
    INVARIANT(q->st.qlen > 0 && q->st.backlog >= qdisc_pkt_len(skb));
    q->st.qlen--;
    q->st.backlog -= qdisc_pkt_len(skb);
}
/* A packet leaves by dequeue: qdisc_bstats_update */
static inline void qdisc_sent(struct qdisc *q, const struct skb *skb)
{
    q->st.bytes += qdisc_pkt_len(skb);
    q->st.packets++;
}
/* __qdisc_dequeue_head + qdisc_bstats_update: the head of one of the
 * discipline's lists leaves it, counted */
static inline struct skb *qdisc_pop(struct qdisc *q, struct skb_queue *list)
{
    struct skb *skb = skbq_pop(list);
    if (skb) {
        qdisc_backlog_out(q, skb);
        qdisc_sent(q, skb);
    }
    return skb;
}
/* qdisc_drop: counted and freed (its socket's memory comes back) */
static inline int qdisc_drop(struct qdisc *q, struct skb *skb)
{
    q->st.drops++;
    skb_free(skb);
    return NET_XMIT_DROP;
}

/* A child's next packet without taking it (qdisc_peek_dequeued: it is
 * dequeued and held, still counted in the child's qlen and backlog), and
 * the taking of it (qdisc_dequeue_peeked). For a parent that must know
 * the size of what comes next: tbf, htb. */
struct skb *qdisc_peek(struct qdisc *q, simtime_t now);
struct skb *qdisc_dequeue_peeked(struct qdisc *q, simtime_t now);
/* A child's enqueue and dequeue as a parent calls them. */
static inline int qdisc_enqueue(struct qdisc *q, struct skb *skb, simtime_t now)
{
    return q->ops->enqueue(q, skb, now);
}

/* Hold packets back until t (qdisc_watchdog_schedule_ns): the tree runs
 * again then. */
void qdisc_watchdog_schedule(struct qdisc *q, simtime_t t);

/* The device behind a tree. */
struct qdisc_dev_ops {
    bool (*stopped)(void *dev, unsigned txq);
    /* put one dequeued packet on its TX queue's ring at t; core is the
     * sending context (NULL: the watchdog's softirq, not charged) */
    void (*xmit)(void *dev, struct skb *skb, simtime_t t, void *core);
};

struct qdisc_root {
    struct qdisc *top;
    struct qdisc_root *inner;    /* the tree under a top that meets the device itself (netem), or NULL */
    bool leaf_netem;             /* netem_at = leaf: the leaves are netem_leaf_args */
    struct qdisc_args netem_leaf_args;
    uint32_t netem_leaves;
#define QDISC_MAX_NETEM_LEAVES 64
    struct qdisc *netem_leaf[QDISC_MAX_NETEM_LEAVES];   /* for their counters */
    struct evq *q;
    const struct qdisc_dev_ops *dev_ops;
    void *dev;
    struct event watchdog;
    bool dflt;                   /* the port's default tree: its counters are the NIC's
                                  * (qN.qdisc_drops), tc shows it with handle 0: */
    /* occupancy for the series: exact, kept from each operation's change */
    uint64_t qlen, backlog, qlen_peak, backlog_peak;
    struct qdisc_sb *sb;         /* the host's shared buffer, or NULL (a port of its own) */
    uint64_t sb_discards;        /* refused by it (mlxsw's tc_no_buffer_discard_uc) */
    uint64_t sojourn_n;
    simtime_t sojourn_sum, sojourn_max;
    /* the series sampler */
    struct event sampler;
    simtime_t every;
    const char *series_prefix;   /* "HOST.PORT.qdisc." */
    const char *host, *port;
    struct sim *sim;
};

/* the packets q counts that are on none of its lists (the packets of qdisc_backlog_aside) */
static inline uint64_t qdisc_qlen_aside(const struct qdisc *q)
{
    return (q->peeked ? 1u : 0u) + (q->requeued ? 1u : 0u);
}

/* Bytes q's backlog counts that are on none of its own lists: the packet
 * dequeued for a stopped TX queue (dev_requeue_skb) and the one a parent
 * peeked (qdisc_peek); for the invariants that add up a discipline's lists. */
static inline uint64_t qdisc_backlog_aside(const struct qdisc *q)
{
    uint64_t b = q->peeked ? qdisc_pkt_len(q->peeked) : 0;
    if (q->requeued)
        b += qdisc_pkt_len(q->requeued);
    return b;
}


/* The discipline a TX queue's packets go through: mq's child, or the top. */
static inline struct qdisc *qdisc_root_txq(const struct qdisc_root *r, unsigned txq)
{
    return r->top->ops->mq ? r->top->children[txq] : r->top;
}

/* A tree from parsed options, for a device; NULL with err set when init
 * refuses the options. */
struct qdisc_root *qdisc_root_new(const struct qdisc_args *a, const struct qdisc_dev *dev, struct evq *q,
                                  const struct qdisc_dev_ops *dev_ops, void *devp, char *err, size_t n);
/* The same with netem at the leaves (leaf_netem: its arguments, netem's
 * ops and options; NULL: none); err when the discipline has no leaf to
 * put it in. */
struct qdisc_root *qdisc_root_new_netem(const struct qdisc_args *a, const struct qdisc_dev *dev, struct evq *q,
                                        const struct qdisc_dev_ops *dev_ops, void *devp,
                                        const struct qdisc_args *leaf_netem, char *err, size_t n);
void qdisc_root_free(struct qdisc_root *r);
/* dev_queue_xmit's part after the TX queue choice (skb->queue): the
 * enqueue's NET_XMIT_* answer; then the tree runs. */
int qdisc_root_xmit(struct qdisc_root *r, struct skb *skb, simtime_t now, void *core);
/* The device restarted TX queue txq (or -1: any): dequeue while it can. */
void qdisc_run(struct qdisc_root *r, int txq, simtime_t now, void *core);
/* The device's TX clean of queue txq, which is not stopped now
 * (was_stopped: it had been): the tree runs (qdisc_run), or a root that
 * meets the device itself takes it (root_restart). */
void qdisc_root_restart(struct qdisc_root *r, unsigned txq, simtime_t now, void *core, bool was_stopped);

/* A single discipline, outside any tree (tests, and the children of a
 * classful one). */
struct qdisc *qdisc_create(const struct qdisc_args *a, const struct qdisc_dev *dev, struct qdisc_root *r,
                           const char *parent, char *err, size_t n);
void qdisc_destroy(struct qdisc *q);
/* A classful discipline's leaf (tbf's child, an htb class's queue, mq's
 * per-queue one): dflt, or netem when the tree's netem is at its leaves
 * (models/qdisc/netem.c). */
struct qdisc *qdisc_create_leaf(struct qdisc *parent, const struct qdisc_args *dflt, const char *name, char *err,
                                size_t n);
/* A leaf its parent gives up (an htb class that becomes inner): freed,
 * and no longer one of its tree's netem leaves. */
void qdisc_destroy_leaf(struct qdisc *leaf);

/* What a tree of these options holds on dev before its first packet,
 * rounded up: the loader refuses a scenario whose trees would not fit in
 * memory before building any (load/scenario.c). */
uint64_t qdisc_mem_estimate(const struct qdisc_args *a, const struct qdisc_dev *dev);

/* Index of the param named `name` (or an alias of it), or -1. */
int qdisc_param_index(const struct qdisc_ops *ops, const char *name);

/* Counters and series: every discipline's stats as HOST.PORT.qdisc[.qN].NAME. */
struct sim;
/* The counters of a top that meets the device itself (netem at the root),
 * whose are its owner's (a link direction's, an ifb's): PREFIX.NAME for
 * each of its xstats, the first two (loss, drops) as drops; nothing for
 * any other top. */
struct counters;
void qdisc_root_register_top(const struct qdisc_root *r, struct counters *cs, const char *prefix);
void qdisc_root_register(struct qdisc_root *r, struct sim *s, const char *host, const char *port,
                         simtime_t series_every);
/* tc -s qdisc show dev PORT: the tree at the root, or (under_netem) as
 * the child of a netem root 8001: (tc's parent 1:1 recipe) */
void qdisc_root_print(const struct qdisc_root *r, const char *port, bool under_netem, FILE *f);

/* tc's way of printing sizes, times and rates (tc_util.c print_size,
 * print_time, print_rate) */
const char *qdisc_fmt_size(char *buf, size_t n, uint64_t bytes);
const char *qdisc_fmt_time(char *buf, size_t n, simtime_t t);
const char *qdisc_fmt_rate(char *buf, size_t n, uint64_t bits);

#endif
