/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fq.c - Fair Queue packet scheduler (sch_fq.c, Linux 4.15): a queue per
 * flow, served round robin in quantum-sized credits (new flows first,
 * with initial_quantum), each flow paced at its socket's sk_pacing_rate
 * (capped by maxrate), throttled flows kept in time order until their
 * next packet's time.
 *
 * A flow is a local socket (skb->sk), or, for packets without one
 * (forwarded, or a listener's), the packet's hash & orphan_mask, as the
 * kernel pretends those are orphaned sockets. The kernel finds flows in
 * red-black trees keyed by the socket pointer; netsim keys by the same
 * identity but buckets by the packet's hash, so that nothing depends on
 * where the allocator put a socket. Pure ACKs are not paced; packets
 * from a socket with no pacing rate are sent at maxrate.
 *
 * On the first packet of a socket fq sets its sk_pacing_status to
 * SK_PACING_FQ, and the socket's protocol stops pacing itself (TCP's
 * internal pacing, 4.13 on, is for sockets without fq).
 *
 * ce_threshold is a later kernel's option (5.x): a packet that waited
 * longer than it in fq is marked CE.
 */
#include <stdlib.h>
#include "models/qdisc/sums.h"
#include "sim/sock.h"
#include "sim/xalloc.h"

enum { P_LIMIT, P_FLOW_LIMIT, P_QUANTUM, P_INITIAL_QUANTUM, P_MAXRATE, P_BUCKETS, P_PACING, P_REFILL,
       P_LOW_RATE, P_ORPHAN_MASK, P_CE_THRESHOLD };

static const struct qdisc_param fq_params[] = {
    { "limit", QP_COUNT, "10000", "packets in all flows (default 10000)", NULL },
    { "flow_limit", QP_COUNT, "100", "packets in one flow (default 100)", NULL },
    { "quantum", QP_SIZE, NULL, "credit a flow gets per round, 1 to 1048576 (default 2 x (mtu + 14): 3028)", NULL },
    { "initial_quantum", QP_SIZE, NULL, "a new flow's first credit, at most 2^31 - 1 (default 10 x (mtu + 14): "
                                        "15140)", NULL },
    { "maxrate", QP_RATE32, NULL, "the most any flow is paced at (default none)", NULL },
    { "buckets", QP_COUNT, "1024", "flow table size: tc rounds it up to a power of two, 2 to 262144 (default 1024)",
      NULL },
    { "pacing", QP_FLAG, "1", "pace flows at their sockets' rates (default on)", "nopacing" },
    { "refill_delay", QP_TIME, "40ms", "idle time after which a flow's credit is refilled (default 40ms)", NULL },
    { "low_rate_threshold", QP_RATE32, "550kbit", "below this a flow is paced per packet, not per quantum", NULL },
    { "orphan_mask", QP_COUNT, "1023", "hash bits that tell socketless flows apart (default 1023)", NULL },
    { "ce_threshold", QP_TIME, NULL, "mark CE on packets that waited longer (5.x; default none)", NULL },
    { NULL, 0, NULL, NULL, NULL },
};

struct fq_flow {
    struct skb *head, *tail;
    simtime_t age;               /* when it was last emptied (detached) */
    const void *key;             /* the socket, or (hash << 1) | 1 */
    struct fq_flow *hnext;       /* bucket chain */
    struct fq_flow *next;        /* new/old list; &detached / &throttled mark the others */
    int64_t credit;
    uint32_t qlen;
    uint64_t time_next_packet;   /* ns; 0: may send */
    uint64_t tseq;               /* order among equal times in the throttled heap */
};

struct fq_list {
    struct fq_flow *first, *last;
};

struct fq {
    struct fq_list new_flows, old_flows;
    struct fq_flow **delayed;    /* min-heap by (time_next_packet, tseq) */
    uint32_t ndelayed, cap_delayed;
    uint64_t tseq;
    uint64_t time_next_delayed_flow;   /* ns, UINT64_MAX: none */
    uint64_t unthrottle_latency_ns;
    struct fq_flow **buckets;
    uint32_t nbuckets;
    struct fq_flow **slabs;      /* flows, 256 a slab, never moved */
    uint32_t nslabs, used_in_slab;
    struct fq_flow *free_flows;
    uint32_t limit, flow_plimit, quantum, initial_quantum, orphan_mask;
    uint64_t flow_max_rate, low_rate_threshold;   /* bytes/s */
    simtime_t refill_delay, ce_threshold;
    bool rate_enable, ce;
    uint64_t flows, inactive_flows, throttled_flows;
    uint64_t stat_gc_flows, stat_internal_packets, stat_tcp_retrans, stat_throttled, stat_flows_plimit,
        stat_pkts_too_long, stat_allocation_errors, stat_ce_mark;
};

/* every flow is active, inactive (detached) or throttled, and the
 * throttled are the ones in the time heap */
static inline void flows_ok(const struct fq *f)
{
    INVARIANT(f->inactive_flows + f->throttled_flows <= f->flows && f->throttled_flows == f->ndelayed);
}


static struct fq_flow detached, throttled;   /* markers for f->next */

/* Every packet fq counts is on a flow, but for those set aside: a walk of
 * every flow ever allocated (a freed one holds none), for INVARIANT_WALK. */
static bool flows_qlen_ok(const struct qdisc *q, const struct fq *f)
{
    uint64_t n = 0;
    for (uint32_t s = 0; s < f->nslabs; s++) {
        uint32_t k = s + 1 == f->nslabs ? f->used_in_slab : 256;
        for (uint32_t i = 0; i < k; i++)
            n += f->slabs[s][i].qlen;
    }
    return n + qdisc_qlen_aside(q) == q->st.qlen;
}

/* The watchdog is armed for time_next_delayed_flow: it is the heap's
 * earliest time, or none with an empty heap. */
static inline void delayed_ok(const struct fq *f)
{
    INVARIANT(f->time_next_delayed_flow == (f->ndelayed ? f->delayed[0]->time_next_packet : UINT64_MAX));
}

#define FQ_GC_AGE (3 * PS_PER_S)
#define FQ_GC_MAX 8

static inline uint64_t ns(simtime_t t) { return (uint64_t)(t / PS_PER_NS); }

static int fq_init(struct qdisc *q, const struct qdisc_args *a, char *err, size_t n)
{
    struct fq *f = q->priv;
    uint32_t mtu = q->dev.mtu + q->dev.hard_header_len;
    f->limit = (uint32_t)a->v[P_LIMIT];
    f->flow_plimit = (uint32_t)a->v[P_FLOW_LIMIT];
    f->quantum = (a->given >> P_QUANTUM) & 1 ? (uint32_t)a->v[P_QUANTUM] : 2 * mtu;
    f->initial_quantum = (a->given >> P_INITIAL_QUANTUM) & 1 ? (uint32_t)a->v[P_INITIAL_QUANTUM] : 10 * mtu;
    f->flow_max_rate = (a->given >> P_MAXRATE) & 1 ? (uint64_t)a->v[P_MAXRATE] / 8 : UINT64_MAX;
    f->rate_enable = a->v[P_PACING] != 0;
    f->refill_delay = a->v[P_REFILL];
    f->low_rate_threshold = (uint64_t)a->v[P_LOW_RATE] / 8;
    f->orphan_mask = (uint32_t)a->v[P_ORPHAN_MASK];
    f->ce = (a->given >> P_CE_THRESHOLD) & 1;
    f->ce_threshold = a->v[P_CE_THRESHOLD];
    /* q_fq.c sends buckets as fq_trees_log, its log2 rounded up (0: not
     * sent); fq_change takes 1 to 18 */
    uint32_t b = (uint32_t)a->v[P_BUCKETS], log = 0;
    while (b && (1ull << log) < b)
        log++;
    if (!b)
        log = 10;
    if (!f->quantum || f->quantum > 1u << 20) {
        /* 4.15 takes any positive u32 into a signed int credit, which
         * quantum 2^31 would turn negative for good; Linux 5.x refuses
         * more than 2^20, as fq_codel's does */
        snprintf(err, n, "fq: quantum %u: expected 1 to 1048576 bytes (sch_fq.c: 0 is EINVAL; Linux 5.x refuses more: "
                 "a flow's credit is a signed 32-bit int)", f->quantum);
        return -1;
    }
    if (f->initial_quantum > INT32_MAX) {
        snprintf(err, n, "fq: initial_quantum %u: expected at most 2147483647 bytes (a flow's credit, which it "
                 "starts at, is a signed 32-bit int)", f->initial_quantum);
        return -1;
    }
    if (log < 1 || log > 18) {
        snprintf(err, n, "fq: buckets %u: expected 2 to 262144 (tc sends its log2 rounded up, and fq_change takes "
                 "1 to 18: EINVAL)", b);
        return -1;
    }
    b = 1u << log;
    f->nbuckets = b;
    f->buckets = xcalloc(b, sizeof *f->buckets);
    f->time_next_delayed_flow = UINT64_MAX;
    return 0;
}

/* the bucket table init makes; flows come with their first packet */
static uint64_t fq_mem(const struct qdisc_args *a, const struct qdisc_dev *dev)
{
    (void)dev;
    uint64_t b = (uint64_t)a->v[P_BUCKETS], up = 1;
    while (up < b && up < (1u << 18))
        up <<= 1;                /* tc rounds up to a power of two */
    return up * sizeof(struct fq_flow *);
}

static struct fq_flow *flow_alloc(struct fq *f)
{
    struct fq_flow *fl = f->free_flows;
    if (fl) {
        f->free_flows = fl->hnext;
    } else {
        if (!f->nslabs || f->used_in_slab == 256) {
            f->slabs = xrealloc(f->slabs, (f->nslabs + 1) * sizeof *f->slabs);
            f->slabs[f->nslabs++] = xcalloc(256, sizeof(struct fq_flow));
            f->used_in_slab = 0;
        }
        fl = &f->slabs[f->nslabs - 1][f->used_in_slab++];
    }
    *fl = (struct fq_flow){ .next = &detached };
    return fl;
}

static void list_add_tail(struct fq_list *l, struct fq_flow *fl)
{
    fl->next = NULL;
    if (l->first)
        l->last->next = fl;
    else
        l->first = fl;
    l->last = fl;
}

/* fq_gc: a few flows empty for FQ_GC_AGE leave the bucket searched */
static void gc(struct fq *f, struct fq_flow **bucket, simtime_t now)
{
    int k = 0;
    for (struct fq_flow **pp = bucket; *pp && k < FQ_GC_MAX;) {
        struct fq_flow *fl = *pp;
        if (fl->next == &detached && fl->age + FQ_GC_AGE < now) {
            *pp = fl->hnext;
            fl->hnext = f->free_flows;
            f->free_flows = fl;
            f->flows--;
            f->inactive_flows--;
            f->stat_gc_flows++;
            flows_ok(f);
            k++;
        } else {
            pp = &fl->hnext;
        }
    }
}

static struct fq_flow *classify(struct fq *f, struct skb *skb, simtime_t now)
{
    const void *key = skb->sk;
    uint32_t h = skb->hash;
    if (!key) {
        /* orphans: the low bit set keeps them apart from sockets */
        key = (const void *)(((uintptr_t)(h & f->orphan_mask) << 1) | 1);
        h &= f->orphan_mask;
    } else {
        h = (uint32_t)skb->sport * 0x9e3779b1u ^ (uint32_t)skb->dport * 0x85ebca6bu ^ skb->daddr * 0xc2b2ae35u;
    }
    struct fq_flow **bucket = &f->buckets[(h ^ (h >> 16)) & (f->nbuckets - 1)];
    if (f->flows >= 2ull * f->nbuckets && f->inactive_flows > f->flows / 2)
        gc(f, bucket, now);
    for (struct fq_flow *fl = *bucket; fl; fl = fl->hnext)
        if (fl->key == key)
            return fl;
    struct fq_flow *fl = flow_alloc(f);
    fl->key = key;
    fl->credit = f->initial_quantum;
    fl->hnext = *bucket;
    *bucket = fl;
    f->flows++;
    f->inactive_flows++;
    flows_ok(f);
    return fl;
}

static int fq_enqueue(struct qdisc *q, struct skb *skb, simtime_t now)
{
    struct fq *f = q->priv;
    if (q->st.qlen >= f->limit)
        return qdisc_drop(q, skb);
    struct fq_flow *fl = classify(f, skb, now);
    if (fl->qlen >= f->flow_plimit) {
        f->stat_flows_plimit++;
        return qdisc_drop(q, skb);
    }
    fl->qlen++;
    qdisc_backlog_in(q, skb);
    if (fl->next == &detached) {
        list_add_tail(&f->new_flows, fl);
        if (now > fl->age + f->refill_delay && fl->credit < f->quantum)
            fl->credit = f->quantum;
        if (skb->sk && f->rate_enable)
            skb->sk->pacing_status = SK_PACING_FQ;
        f->inactive_flows--;
    }
    skb->next = NULL;
    if (fl->head)
        fl->tail->next = skb;
    else
        fl->head = skb;
    fl->tail = skb;
    INVARIANT(fl->qlen <= f->flow_plimit);
    INVARIANT_WALK(f->flows, flows_qlen_ok(q, f));
    return NET_XMIT_SUCCESS;
}

/* the throttled flows' heap, earliest first */
static bool before(const struct fq_flow *a, const struct fq_flow *b)
{
    return a->time_next_packet < b->time_next_packet ||
           (a->time_next_packet == b->time_next_packet && a->tseq < b->tseq);
}

static void set_throttled(struct fq *f, struct fq_flow *fl)
{
    if (f->ndelayed == f->cap_delayed) {
        f->cap_delayed = f->cap_delayed ? 2 * f->cap_delayed : 64;
        f->delayed = xrealloc(f->delayed, f->cap_delayed * sizeof *f->delayed);
    }
    fl->tseq = f->tseq++;
    uint32_t i = f->ndelayed++;
    while (i && before(fl, f->delayed[(i - 1) / 2])) {
        f->delayed[i] = f->delayed[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    f->delayed[i] = fl;
    fl->next = &throttled;
    f->throttled_flows++;
    f->stat_throttled++;
    flows_ok(f);
    if (f->time_next_delayed_flow > fl->time_next_packet)
        f->time_next_delayed_flow = fl->time_next_packet;
    delayed_ok(f);
}

static struct fq_flow *heap_pop(struct fq *f)
{
    struct fq_flow *top = f->delayed[0], *last = f->delayed[--f->ndelayed];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= f->ndelayed)
            break;
        if (c + 1 < f->ndelayed && before(f->delayed[c + 1], f->delayed[c]))
            c++;
        if (!before(f->delayed[c], last))
            break;
        f->delayed[i] = f->delayed[c];
        i = c;
    }
    if (f->ndelayed)
        f->delayed[i] = last;
    return top;
}

static void check_throttled(struct fq *f, uint64_t now)
{
    if (f->time_next_delayed_flow > now)
        return;
    /* the unthrottle latency's EWMA, as the kernel keeps it for tc */
    uint64_t sample = now - f->time_next_delayed_flow;
    f->unthrottle_latency_ns -= f->unthrottle_latency_ns >> 3;
    f->unthrottle_latency_ns += sample >> 3;
    f->time_next_delayed_flow = UINT64_MAX;
    while (f->ndelayed) {
        struct fq_flow *fl = f->delayed[0];
        if (fl->time_next_packet > now) {
            f->time_next_delayed_flow = fl->time_next_packet;
            break;
        }
        heap_pop(f);
        /* the heap holds the throttled flows only, each due by now when
         * it leaves, and what stays is due no sooner */
        INVARIANT(fl->next == &throttled && (!f->ndelayed || !before(f->delayed[0], fl)));
        f->throttled_flows--;
        flows_ok(f);
        list_add_tail(&f->old_flows, fl);
    }
    delayed_ok(f);
}

static inline bool pure_ack(const struct skb *skb)
{
    return skb->proto == IPPROTO_TCP_ && !skb->payload;
}

static struct skb *fq_dequeue(struct qdisc *q, simtime_t tnow)
{
    struct fq *f = q->priv;
    uint64_t now = ns(tnow);
    check_throttled(f, now);
    for (;;) {
        struct fq_list *head = &f->new_flows;
        if (!head->first) {
            head = &f->old_flows;
            if (!head->first) {
                if (f->time_next_delayed_flow != UINT64_MAX)
                    qdisc_watchdog_schedule(q, (simtime_t)f->time_next_delayed_flow * PS_PER_NS);
                return NULL;
            }
        }
        struct fq_flow *fl = head->first;
        if (fl->credit <= 0) {
            fl->credit += f->quantum;
            head->first = fl->next;
            list_add_tail(&f->old_flows, fl);
            continue;
        }
        struct skb *skb = fl->head;
        if (skb && now < fl->time_next_packet && !pure_ack(skb)) {
            head->first = fl->next;
            set_throttled(f, fl);
            continue;
        }
        if (!skb) {
            head->first = fl->next;
            /* a pass through old_flows first, so that new flows cannot starve them */
            if (head == &f->new_flows && f->old_flows.first) {
                list_add_tail(&f->old_flows, fl);
            } else {
                fl->next = &detached;
                fl->age = tnow;
                f->inactive_flows++;
            }
            continue;
        }
        fl->head = skb->next;
        skb->next = NULL;
        fl->qlen--;
        qdisc_backlog_out(q, skb);
        uint32_t len = qdisc_pkt_len(skb);
        fl->credit -= len;
        if (f->ce && tnow - skb->t_due > f->ce_threshold && skb_ecn_set_ce(skb))
            f->stat_ce_mark++;
        if (f->rate_enable && !pure_ack(skb)) {
            uint64_t rate = f->flow_max_rate;
            if (skb->sk && skb->sk->pacing_rate) {
                uint64_t r = skb->sk->pacing_rate(skb->sk);
                if (r < rate)
                    rate = r;
            }
            uint64_t plen = len;
            bool pace = true;
            if (rate <= f->low_rate_threshold)
                fl->credit = 0;
            else if (plen < f->quantum)
                plen = f->quantum;
            if (rate > f->low_rate_threshold && fl->credit > 0)
                pace = false;
            if (pace && rate != UINT64_MAX) {
                uint64_t d = rate ? plen * 1000000000ULL / rate : 1000000000ULL;
                if (d > 1000000000ULL) {
                    d = 1000000000ULL;   /* the socket's rate may change: at most a second */
                    f->stat_pkts_too_long++;
                }
                if (fl->time_next_packet) {   /* timer drift: up to half of it comes back */
                    uint64_t late = now > fl->time_next_packet ? now - fl->time_next_packet : 0;
                    d -= late < d / 2 ? late : d / 2;
                }
                fl->time_next_packet = now + d;
            }
        }
        qdisc_sent(q, skb);
        /* a flow's credit: at most what a refill or a new flow's start
         * gives, and a turn ends within one packet of it going below 1 */
        INVARIANT(fl->credit <= (int64_t)(f->quantum > f->initial_quantum ? f->quantum : f->initial_quantum) &&
                  fl->credit > -(int64_t)len);
        INVARIANT_WALK(f->flows, flows_qlen_ok(q, f));
        return skb;
    }
}

static void fq_reset(struct qdisc *q)
{
    struct fq *f = q->priv;
    for (uint32_t s = 0; s < f->nslabs; s++) {
        uint32_t n = s + 1 == f->nslabs ? f->used_in_slab : 256;
        for (uint32_t i = 0; i < n; i++) {
            struct fq_flow *fl = &f->slabs[s][i];
            while (fl->head) {
                struct skb *skb = fl->head;
                fl->head = skb->next;
                skb_free(skb);
            }
            fl->qlen = 0;
        }
    }
    q->st.qlen = q->st.backlog = 0;
}

static void fq_destroy(struct qdisc *q)
{
    struct fq *f = q->priv;
    for (uint32_t s = 0; s < f->nslabs; s++)
        free(f->slabs[s]);
    free(f->slabs);
    free(f->buckets);
    free(f->delayed);
}

static void fq_dump(const struct qdisc *q, FILE *out)
{
    const struct fq *f = q->priv;
    char b[32], r[32];
    fprintf(out, "limit %up flow_limit %up buckets %u orphan_mask %u quantum %s ", f->limit, f->flow_plimit,
            f->nbuckets, f->orphan_mask, qdisc_fmt_size(b, sizeof b, f->quantum));
    fprintf(out, "initial_quantum %s ", qdisc_fmt_size(b, sizeof b, f->initial_quantum));
    if (f->flow_max_rate != UINT64_MAX)
        fprintf(out, "maxrate %s ", qdisc_fmt_rate(r, sizeof r, f->flow_max_rate * 8));
    fprintf(out, "low_rate_threshold %s refill_delay %s", qdisc_fmt_rate(r, sizeof r, f->low_rate_threshold * 8),
            qdisc_fmt_time(b, sizeof b, f->refill_delay));
    if (f->ce)
        fprintf(out, " ce_threshold %s", qdisc_fmt_time(b, sizeof b, f->ce_threshold));
    if (!f->rate_enable)
        fputs(" nopacing", out);
}

static void fq_dump_stats(const struct qdisc *q, FILE *out)
{
    const struct fq *f = q->priv;
    fprintf(out, "  %llu flows (%llu inactive, %llu throttled)", (unsigned long long)f->flows,
            (unsigned long long)f->inactive_flows, (unsigned long long)f->throttled_flows);
    fprintf(out, "\n  %llu gc, %llu highprio, %llu throttled", (unsigned long long)f->stat_gc_flows,
            (unsigned long long)f->stat_internal_packets, (unsigned long long)f->stat_throttled);
    if (f->unthrottle_latency_ns)
        fprintf(out, ", %llu ns latency", (unsigned long long)f->unthrottle_latency_ns);
    if (f->stat_ce_mark)
        fprintf(out, ", %llu ce_mark", (unsigned long long)f->stat_ce_mark);
    if (f->stat_flows_plimit)
        fprintf(out, ", %llu flows_plimit", (unsigned long long)f->stat_flows_plimit);
    if (f->stat_pkts_too_long)
        fprintf(out, ", %llu too long pkts", (unsigned long long)f->stat_pkts_too_long);
    fputs("\n", out);
}

static int fq_xstats(const struct qdisc *q, struct qdisc_xstat *x)
{
    const struct fq *f = q->priv;
    const struct qdisc_xstat xs[] = {
        { "flows", &f->flows }, { "inactive_flows", &f->inactive_flows },
        { "throttled_flows", &f->throttled_flows }, { "gc_flows", &f->stat_gc_flows },
        { "throttled", &f->stat_throttled }, { "flows_plimit", &f->stat_flows_plimit },
        { "pkts_too_long", &f->stat_pkts_too_long }, { "ce_mark", &f->stat_ce_mark },
        { "unthrottle_latency_ns", &f->unthrottle_latency_ns },
    };
    int n = (int)(sizeof xs / sizeof xs[0]);
    for (int i = 0; i < n; i++)
        x[i] = xs[i];
    return n;
}

const struct qdisc_ops qdisc_fq = {
    .name = "fq", .params = fq_params, .priv_size = sizeof(struct fq),
    .doc = "per-flow queues in DRR with pacing at each socket's rate (sch_fq.c, Linux 4.15)",
    .init = fq_init, .enqueue = fq_enqueue, .dequeue = fq_dequeue, .reset = fq_reset, .destroy = fq_destroy,
    .dump = fq_dump, .dump_stats = fq_dump_stats, .xstats = fq_xstats, .mem = fq_mem,
};
VARIANT("qdisc", qdisc_fq);
