/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * htb.c - the hierarchical token bucket (sch_htb.c, Linux 4.15, with tc's
 * q_htb.c for the options): classes in a tree, each with a rate it is
 * guaranteed and a ceil it may borrow up to from its ancestors, leaves
 * holding the packets (a pfifo of txqueuelen each), u32 filters and a
 * default class choosing the leaf.
 *
 * A class's mode is the kernel's: CAN_SEND while its rate tokens are not
 * negative, MAY_BORROW while only its ceil tokens are not, CANT_SEND
 * otherwise (htb_hysteresis 0). Tokens are nanoseconds of sending time,
 * capped at burst (cburst) and floored at -mbuffer (60 s). A dequeue looks
 * level by level from the leaves up, priority by priority (0 first), for a
 * leaf that can send on its own (level 0) or borrow from an ancestor at
 * that level in CAN_SEND through ancestors in MAY_BORROW; leaves of one
 * priority at one level take turns by deficit round robin with their
 * quantum (rate / r2q, 1000 to 200000 bytes). Sending charges rate tokens
 * from the leaf up to the lender, ceil tokens all the way up; each class
 * counts its lends and borrows as tc -s class show reports them.
 *
 * Where netsim is simpler: the kernel keeps a round-robin pointer per
 * inner class and priority for borrowing leaves, netsim one per level and
 * priority (the same for the usual two-level tree); the kernel wakes
 * classes from per-level event trees, netsim works each class's mode out
 * from its tokens and the time when it looks, which gives the same modes
 * at the same moments.
 */
#include <stdlib.h>
#include <string.h>
#include "models/qdisc/sums.h"
#include "sim/psched.h"
#include "sim/xalloc.h"

#define HTB_LEVELS 8             /* TC_HTB_MAXDEPTH */
#define HTB_PRIOS 8              /* TC_HTB_NUMPRIO */
#define HTB_MAX_CLASSES 64
#define HTB_MBUFFER (60LL * 1000000000LL)

enum { P_DEFAULT, P_R2Q, P_DIRECT_QLEN };
static const struct qdisc_param htb_params[] = {
    { "default", QP_HEX, "0", "the class (minor, hex as tc writes it) unfiltered packets go to; 0: sent unshaped", NULL },
    { "r2q", QP_COUNT, "10", "a class's quantum is its rate in bytes/s over r2q (default 10)", NULL },
    { "direct_qlen", QP_COUNT, NULL, "packets the unshaped direct queue holds (default txqueuelen)", NULL },
    { NULL, 0, NULL, NULL, NULL },
};

enum { C_RATE, C_CEIL, C_BURST, C_CBURST, C_PRIO, C_QUANTUM, C_MTU };
static const struct qdisc_param htb_class_params[] = {
    { "rate", QP_RATE, NULL, "the class's guaranteed rate (required)", NULL },
    { "ceil", QP_RATE, NULL, "the most it may reach by borrowing (default its rate)", NULL },
    { "burst|buffer|maxburst", QP_SIZE, NULL, "rate tokens it may save, bytes (default rate/HZ + mtu: about 1600)", NULL },
    { "cburst|cbuffer|cmaxburst", QP_SIZE, NULL, "ceil tokens it may save (default ceil/HZ + mtu)", NULL },
    { "prio", QP_COUNT, "0", "0 to 7: lower is served first, and borrows first (default 0)", NULL },
    { "quantum", QP_SIZE, NULL, "bytes per round among leaves of one priority (default rate/r2q)", NULL },
    { "mtu", QP_SIZE, "1600", "the size tc adds to a default burst (default 1600)", NULL },
    { NULL, 0, NULL, NULL, NULL },
};

enum { CAN_SEND, MAY_BORROW, CANT_SEND };

struct htb_class {
    uint32_t minor;
    int parent;                  /* index, -1: under the qdisc */
    int level;                   /* 0 leaf; inner: its parent's level - 1, from 7 */
    int prio;
    struct psched_ratecfg rate, ceil;
    int64_t buffer, cbuffer;     /* ns */
    uint64_t burst, cburst;      /* bytes, for tc's text */
    int64_t tokens, ctokens, t_c;
    uint32_t quantum;
    int64_t deficit[HTB_LEVELS];
    struct qdisc *leaf;          /* pfifo; NULL for an inner class */
    uint64_t lends, borrows, giants, bytes, packets;
    char names[8][24];           /* counter names */
};

struct htb {
    struct htb_class c[HTB_MAX_CLASSES];
    int n;
    int def;                     /* default leaf, -1: direct */
    uint32_t def_minor, r2q;
    struct skb_queue direct;
    uint32_t direct_qlen;
    uint64_t direct_pkts;
    uint32_t ptr[HTB_LEVELS][HTB_PRIOS];   /* DRR: the minor served last */
    struct qdisc_filter_spec filters[HTB_MAX_CLASSES];
    uint32_t nfilters;
};

/* What the qdisc counts is on its direct queue or in its leaves (each
 * leaf's own count takes in what that leaf set aside), but for what
 * the qdisc itself set aside. */
static bool sums_qlen_ok(const struct qdisc *q, const struct htb *h)
{
    uint64_t qlen = h->direct.len;
    for (int k = 0; k < h->n; k++)
        qlen += h->c[k].leaf ? h->c[k].leaf->st.qlen : 0;
    return q->st.qlen == qlen + qdisc_qlen_aside(q) && h->direct.len <= h->direct_qlen;
}
static bool sums_backlog_ok(const struct qdisc *q, const struct htb *h)
{
    uint64_t backlog = skbq_pkt_len_sum(&h->direct);
    for (int k = 0; k < h->n; k++)
        backlog += h->c[k].leaf ? h->c[k].leaf->st.backlog : 0;
    return q->st.backlog == backlog + qdisc_backlog_aside(q);
}
#define HTB_SUMS_OK(q, h)                                                                                          \
    do {                                                                                                           \
        INVARIANT(sums_qlen_ok((q), (h)));                                                                         \
        INVARIANT_WALK((h)->direct.len, sums_backlog_ok((q), (h)));                                                \
    } while (0)

/* The levels index deficit[] and ptr[], and dequeue's search from level
 * 0 up finds a borrowed class above the leaf that borrows: a leaf is at
 * 0, an inner class above each of its children and below HTB_LEVELS. */
static bool levels_ok(const struct htb *h)
{
    for (int k = 0; k < h->n; k++) {
        const struct htb_class *c = &h->c[k];
        if (c->level < 0 || c->level >= HTB_LEVELS || !c->leaf != (c->level > 0))
            return false;
        if (c->parent >= 0 && (c->parent >= k || h->c[c->parent].level <= c->level))
            return false;
    }
    return true;
}

static int find(const struct htb *h, uint32_t minor)
{
    for (int i = 0; i < h->n; i++)
        if (h->c[i].minor == minor)
            return i;
    return -1;
}

static int class_init(struct qdisc *q, struct htb *h, const struct qdisc_class_spec *s, uint32_t r2q, char *err,
                      size_t n)
{
    const struct qdisc_args *a = &s->a;
    if (h->n == HTB_MAX_CLASSES) {
        snprintf(err, n, "htb: at most %d classes", HTB_MAX_CLASSES);
        return -1;
    }
    if (!((a->given >> C_RATE) & 1) || !a->v[C_RATE]) {
        snprintf(err, n, "htb: class 1:%x: rate is required (tc q_htb.c: \"rate\" is required)", s->minor);
        return -1;
    }
    if (find(h, s->minor) >= 0) {
        snprintf(err, n, "htb: class 1:%x is given twice", s->minor);
        return -1;
    }
    int parent = s->parent ? find(h, s->parent) : -1;
    if (s->parent && parent < 0) {
        snprintf(err, n, "htb: class 1:%x: parent 1:%x is no class given before it", s->minor, s->parent);
        return -1;
    }
    /* htb_change_class: levels run from TC_HTB_MAXDEPTH - 1 at the top
     * down to the leaves' 0, so a class whose grandparent is at level 1
     * would sit below 0 (a leaf's parent is at least 1) */
    if (parent >= 0 && h->c[parent].parent >= 0 && h->c[h->c[parent].parent].level < 2) {
        snprintf(err, n, "htb: class 1:%x: the tree is too deep: at most %d classes from the top one down to a "
                 "leaf (TC_HTB_MAXDEPTH; sch_htb.c refuses it: \"htb: tree is too deep\")", s->minor, HTB_LEVELS);
        return -1;
    }
    if (parent >= 0 && h->c[parent].leaf && h->c[parent].leaf->st.qlen) {
        snprintf(err, n, "htb: class 1:%x: parent 1:%x holds packets", s->minor, s->parent);
        return -1;
    }
    struct htb_class *c = &h->c[h->n];
    memset(c, 0, sizeof *c);
    c->minor = s->minor;
    c->parent = parent;
    uint64_t rate = (uint64_t)a->v[C_RATE] / 8;
    /* q_htb.c: a ceil of 0 is none, and then the rate */
    uint64_t ceil = (a->given >> C_CEIL) & 1 && a->v[C_CEIL] ? (uint64_t)a->v[C_CEIL] / 8 : rate;
    uint64_t mtu = (uint64_t)a->v[C_MTU];
    /* tc: burst = rate / get_hz() + mtu, with the high-resolution
     * kernel's /proc/net/psched hz of 10^9 */
    c->burst = (a->given >> C_BURST) & 1 ? (uint64_t)a->v[C_BURST] : rate / 1000000000ULL + mtu;
    c->cburst = (a->given >> C_CBURST) & 1 ? (uint64_t)a->v[C_CBURST] : ceil / 1000000000ULL + mtu;
    /* tc hands the buckets over as ticks of 64 ns in 32 bits: more than
     * 274.9 s of sending at the rate does not fit (tc's would wrap) */
    if (!tc_xmittime_fits(rate, c->burst) || !tc_xmittime_fits(ceil, c->cburst)) {
        bool b = !tc_xmittime_fits(rate, c->burst);
        snprintf(err, n, "htb: class 1:%x: %s %llu bytes at %llu bytes/s take more than 274.9 s to send, past tc's "
                 "32 bits of 64-ns ticks; expected a smaller %s or a higher %s", s->minor, b ? "burst" : "cburst",
                 (unsigned long long)(b ? c->burst : c->cburst), (unsigned long long)(b ? rate : ceil),
                 b ? "burst" : "cburst", b ? "rate" : "ceil");
        return -1;
    }
    psched_ratecfg_precompute(&c->rate, rate, 0);
    psched_ratecfg_precompute(&c->ceil, ceil, 0);
    c->buffer = (int64_t)tc_calc_xmittime_ns(rate, c->burst);
    c->cbuffer = (int64_t)tc_calc_xmittime_ns(ceil, c->cburst);
    c->tokens = c->buffer;
    c->ctokens = c->cbuffer;
    c->prio = (int)a->v[C_PRIO];
    if (c->prio >= HTB_PRIOS)
        c->prio = HTB_PRIOS - 1;     /* the kernel clamps */
    if ((a->given >> C_QUANTUM) & 1 && a->v[C_QUANTUM]) {   /* 0: not sent, computed */
        c->quantum = (uint32_t)a->v[C_QUANTUM];
    } else {
        uint64_t qt = rate / (r2q ? r2q : 1);
        c->quantum = qt < 1000 ? 1000 : qt > 200000 ? 200000 : (uint32_t)qt;
    }
    if (parent >= 0) {
        struct htb_class *p = &h->c[parent];
        if (p->leaf) {           /* a leaf becomes inner: its queue goes */
            qdisc_destroy_leaf(p->leaf);
            p->leaf = NULL;
            p->level = (p->parent >= 0 ? h->c[p->parent].level : HTB_LEVELS) - 1;
        }
    }
    struct qdisc_args fifo = { 0 };
    fifo.ops = variant_find("qdisc", "pfifo");
    char parent_name[8];
    snprintf(parent_name, sizeof parent_name, "1:%x", s->minor & 0xfff);
    c->leaf = qdisc_create_leaf(q, &fifo, parent_name, err, n);
    if (!c->leaf)
        return -1;
    static const char *const f[] = { "sent_bytes", "sent_packets", "dropped", "lended", "borrowed", "giants",
                                     "backlog_pkts" };
    for (int k = 0; k < 7; k++)
        snprintf(c->names[k], sizeof c->names[k], "1:%x.%s", s->minor & 0xffff, f[k]);
    h->n++;
    return 0;
}

/* a pfifo leaf per class (the netem leaf that may replace it is as small) */
static uint64_t htb_mem(const struct qdisc_args *a, const struct qdisc_dev *dev)
{
    struct qdisc_args fifo = { .ops = variant_find("qdisc", "pfifo") };
    return (uint64_t)(a->nclasses < HTB_MAX_CLASSES ? a->nclasses : HTB_MAX_CLASSES) *
           (fifo.ops ? qdisc_mem_estimate(&fifo, dev) : 0);
}

static int htb_init(struct qdisc *q, const struct qdisc_args *a, char *err, size_t n)
{
    struct htb *h = q->priv;
    skbq_init(&h->direct);
    h->r2q = (uint32_t)a->v[P_R2Q];
    h->direct_qlen = (a->given >> P_DIRECT_QLEN) & 1 ? (uint32_t)a->v[P_DIRECT_QLEN] : q->dev.txqueuelen;
    for (uint32_t i = 0; i < a->nclasses; i++)
        if (class_init(q, h, &a->classes[i], (uint32_t)a->v[P_R2Q], err, n))
            return -1;
    h->def_minor = (uint32_t)a->v[P_DEFAULT];   /* hex as tc reads it: "default 20" is 1:20 */
    h->def = h->def_minor ? find(h, h->def_minor) : -1;
    if (h->def >= 0 && !h->c[h->def].leaf)
        h->def = -1;             /* an inner class queues nothing: sent direct */
    if (a->nfilters > HTB_MAX_CLASSES) {
        snprintf(err, n, "htb: at most %d filters", HTB_MAX_CLASSES);
        return -1;
    }
    for (uint32_t i = 0; i < a->nfilters; i++) {
        int k = find(h, a->filters[i].flowid);
        if (k < 0 || !h->c[k].leaf) {
            snprintf(err, n, "htb: filter %u: flowid 1:%x is %s", i + 1, a->filters[i].flowid,
                     k < 0 ? "no class" : "an inner class (a filter must end in a leaf)");
            return -1;
        }
    }
    if (a->nfilters)             /* none: a->filters may be NULL, which memcpy may not be given */
        memcpy(h->filters, a->filters, a->nfilters * sizeof *a->filters);
    h->nfilters = a->nfilters;
    INVARIANT(levels_ok(h));
    return 0;
}

static bool match(const struct qdisc_filter_spec *f, const struct skb *skb)
{
    if ((skb->proto & f->proto_mask) != (f->proto & f->proto_mask))
        return false;
    if (f->src_set && skb->saddr != f->src)
        return false;
    if (f->dst_set && skb->daddr != f->dst)
        return false;
    bool ports = (skb->proto == IPPROTO_TCP_ || skb->proto == IPPROTO_UDP_) && !skb->frag_off;
    if (f->dport_mask && (!ports || (skb->dport & f->dport_mask) != (f->dport & f->dport_mask)))
        return false;
    if (f->sport_mask && (!ports || (skb->sport & f->sport_mask) != (f->sport & f->sport_mask)))
        return false;
    return true;
}

static int classify(const struct htb *h, const struct skb *skb)
{
    for (uint32_t i = 0; i < h->nfilters; i++)
        if (match(&h->filters[i], skb))
            return find(h, h->filters[i].flowid);
    return h->def;
}

static int htb_enqueue(struct qdisc *q, struct skb *skb, simtime_t now)
{
    struct htb *h = q->priv;
    int k = classify(h, skb);
    if (k < 0) {
        if (h->direct.len >= h->direct_qlen)
            return qdisc_drop(q, skb);
        skbq_push(&h->direct, skb);
        h->direct_pkts++;
        qdisc_backlog_in(q, skb);
    } else {
        struct qdisc *leaf = h->c[k].leaf;
        uint64_t qlen0 = leaf->st.qlen, backlog0 = leaf->st.backlog;
        int ret = qdisc_enqueue(leaf, skb, now);
        if (ret != NET_XMIT_SUCCESS) {
            q->st.drops++;
            return ret;
        }
        /* what the leaf took, which is not always the packet: netem at
         * the leaf loses it (and frees it; 4.15's parent counts nothing,
         * told by __NET_XMIT_BYPASS) or queues a duplicate beside it */
        q->st.qlen += leaf->st.qlen;
        q->st.qlen -= qlen0;
        q->st.backlog += leaf->st.backlog;
        q->st.backlog -= backlog0;
    }
    HTB_SUMS_OK(q, h);
    return NET_XMIT_SUCCESS;
}

/* htb_class_mode at time now, without moving the class's clock */
static int mode(const struct htb_class *c, int64_t now, int64_t *wait)
{
    int64_t diff = now - c->t_c;
    if (diff > HTB_MBUFFER)
        diff = HTB_MBUFFER;
    int64_t t = c->ctokens + diff;
    if (t < 0) {
        *wait = -t;
        return CANT_SEND;
    }
    t = c->tokens + diff;
    if (t >= 0)
        return CAN_SEND;
    *wait = -t;
    return MAY_BORROW;
}

/* The class a leaf sends through (itself or the ancestor it borrows
 * from), or -1; *wait the soonest a class on the way changes mode. */
static int lender(const struct htb *h, int k, int64_t now, int64_t *wait)
{
    for (; k >= 0; k = h->c[k].parent) {
        int64_t w = INT64_MAX;
        int m = mode(&h->c[k], now, &w);
        if (w < *wait)
            *wait = w;
        if (m == CAN_SEND)
            return k;
        if (m == CANT_SEND)
            return -1;
    }
    return -1;
}

static void charge(struct htb *h, int k, int level, uint32_t bytes, int64_t now)
{
    for (; k >= 0; k = h->c[k].parent) {
        struct htb_class *c = &h->c[k];
        int64_t diff = now - c->t_c;
        if (diff > HTB_MBUFFER)
            diff = HTB_MBUFFER;
        if (c->level >= level) {
            if (c->level == level)
                c->lends++;
            int64_t t = diff + c->tokens;
            if (t > c->buffer)
                t = c->buffer;
            t -= (int64_t)psched_l2t_ns(&c->rate, bytes);
            if (t <= -HTB_MBUFFER)
                t = 1 - HTB_MBUFFER;
            c->tokens = t;
            /* rate tokens, as htb_accnt_tokens leaves them: at most the
             * buffer, above -mbuffer (a borrowing class's are not capped
             * until it next sends on its own, as in the kernel) */
            INVARIANT(c->tokens <= c->buffer && c->tokens > -HTB_MBUFFER);
        } else {
            c->borrows++;
            c->tokens += diff;   /* t_c moves: keep the tokens it earned */
        }
        int64_t t = diff + c->ctokens;
        if (t > c->cbuffer)
            t = c->cbuffer;
        t -= (int64_t)psched_l2t_ns(&c->ceil, bytes);
        if (t <= -HTB_MBUFFER)
            t = 1 - HTB_MBUFFER;
        c->ctokens = t;
        c->t_c = now;
        /* ceil tokens: at most the cbuffer, never below -mbuffer (htb_accnt_ctokens) */
        INVARIANT(c->ctokens <= c->cbuffer && c->ctokens > -HTB_MBUFFER);
        if (c->level) {
            c->bytes += bytes;
            c->packets++;
        }
    }
}

static struct skb *htb_dequeue(struct qdisc *q, simtime_t tnow)
{
    struct htb *h = q->priv;
    struct skb *skb = skbq_pop(&h->direct);
    if (skb)
        goto out;
    if (!q->st.qlen)
        return NULL;
    int64_t now = (int64_t)(tnow / PS_PER_NS), wait = INT64_MAX;
    int via[HTB_MAX_CLASSES];
    uint8_t prios[HTB_LEVELS] = { 0 };   /* the priorities that can send at each level */
    for (int k = 0; k < h->n; k++) {
        via[k] = h->c[k].leaf && h->c[k].leaf->st.qlen ? lender(h, k, now, &wait) : -1;
        if (via[k] >= 0)
            prios[h->c[via[k]].level] |= (uint8_t)(1u << h->c[k].prio);
    }
    for (int level = 0; level < HTB_LEVELS; level++)
        for (int prio = 0; prio < HTB_PRIOS; prio++) {
            if (!(prios[level] >> prio & 1))
                continue;
            /* the leaves that send at this level and priority take turns
             * in class id order: the first at or after the pointer */
            int pick = -1, first = -1;
            uint32_t ptr = h->ptr[level][prio];
            for (int k = 0; k < h->n; k++) {
                if (via[k] < 0 || h->c[via[k]].level != level || h->c[k].prio != prio)
                    continue;
                uint32_t m = h->c[k].minor;
                if (m >= ptr && (pick < 0 || m < h->c[pick].minor))
                    pick = k;
                if (first < 0 || m < h->c[first].minor)
                    first = k;
            }
            if (pick < 0)
                pick = first;
            if (pick < 0)
                continue;
            struct htb_class *c = &h->c[pick];
            skb = qdisc_dequeue_peeked(c->leaf, tnow);
            if (!skb)
                continue;
            uint32_t len = qdisc_pkt_len(skb);
            c->bytes += len;
            c->packets++;
            c->deficit[level] -= len;
            h->ptr[level][prio] = c->minor;
            if (c->deficit[level] < 0) {
                c->deficit[level] += c->quantum;
                h->ptr[level][prio] = c->minor + 1;   /* the next class id takes its turn */
            }
            charge(h, pick, level, len, now);
            goto out;
        }
    q->st.overlimits++;
    if (wait != INT64_MAX)
        qdisc_watchdog_schedule(q, tnow + (simtime_t)wait * PS_PER_NS);
    return NULL;
out:
    qdisc_backlog_out(q, skb);
    qdisc_sent(q, skb);
    HTB_SUMS_OK(q, h);
    return skb;
}

static void htb_reset(struct qdisc *q)
{
    struct htb *h = q->priv;
    skbq_purge(&h->direct);
    for (int k = 0; k < h->n; k++)
        if (h->c[k].leaf) {
            if (h->c[k].leaf->peeked) {
                skb_free(h->c[k].leaf->peeked);
                h->c[k].leaf->peeked = NULL;
            }
            h->c[k].leaf->ops->reset(h->c[k].leaf);
        }
    q->st.qlen = q->st.backlog = 0;
}

static void htb_destroy(struct qdisc *q)
{
    struct htb *h = q->priv;
    for (int k = 0; k < h->n; k++)
        qdisc_destroy(h->c[k].leaf);
}

static void htb_dump(const struct qdisc *q, FILE *f)
{
    const struct htb *h = q->priv;
    fprintf(f, "r2q %u default %x direct_packets_stat %llu direct_qlen %u", h->r2q, h->def_minor,
            (unsigned long long)h->direct_pkts, h->direct_qlen);
}

static void htb_dump_classes(const struct qdisc *q, const char *port, FILE *f)
{
    const struct htb *h = q->priv;
    char b1[32], b2[32], b3[32], b4[32];
    for (int k = 0; k < h->n; k++) {
        const struct htb_class *c = &h->c[k];
        fprintf(f, "class htb 1:%x dev %s ", c->minor, port);
        if (c->parent >= 0)
            fprintf(f, "parent 1:%x ", h->c[c->parent].minor);
        else
            fputs("root ", f);
        if (c->leaf)
            fprintf(f, "leaf %x: prio %d ", 0x8100 + k, c->prio);
        fprintf(f, "rate %s ceil %s burst %s cburst %s \n", qdisc_fmt_rate(b1, sizeof b1, c->rate.rate_bytes_ps * 8),
                qdisc_fmt_rate(b2, sizeof b2, c->ceil.rate_bytes_ps * 8), qdisc_fmt_size(b3, sizeof b3, c->burst),
                qdisc_fmt_size(b4, sizeof b4, c->cburst));
        uint64_t drops = c->leaf ? c->leaf->st.drops : 0, qlen = c->leaf ? c->leaf->st.qlen : 0;
        uint64_t backlog = c->leaf ? c->leaf->st.backlog : 0;
        fprintf(f, " Sent %llu bytes %llu pkt (dropped %llu, overlimits 0 requeues 0) \n", (unsigned long long)c->bytes,
                (unsigned long long)c->packets, (unsigned long long)drops);
        fprintf(f, " backlog %s %llup requeues 0 \n", qdisc_fmt_size(b1, sizeof b1, backlog), (unsigned long long)qlen);
        fprintf(f, " lended: %llu borrowed: %llu giants: %llu\n tokens: %lld ctokens: %lld\n\n",
                (unsigned long long)c->lends, (unsigned long long)c->borrows, (unsigned long long)c->giants,
                (long long)(c->tokens >> 6), (long long)(c->ctokens >> 6));
    }
}

static int htb_xstats(const struct qdisc *q, struct qdisc_xstat *x)
{
    const struct htb *h = q->priv;
    int n = 0;
    x[n++] = (struct qdisc_xstat){ "direct_packets", &h->direct_pkts };
    for (int k = 0; k < h->n; k++) {
        const struct htb_class *c = &h->c[k];
        const uint64_t *v[] = { &c->bytes, &c->packets, c->leaf ? &c->leaf->st.drops : NULL, &c->lends,
                                &c->borrows, &c->giants, c->leaf ? &c->leaf->st.qlen : NULL };
        for (int i = 0; i < 7 && n < QDISC_MAX_XSTATS; i++)
            if (v[i])
                x[n++] = (struct qdisc_xstat){ c->names[i], v[i] };
    }
    return n;
}

const struct qdisc_ops qdisc_htb = {
    .name = "htb", .params = htb_params, .class_params = htb_class_params, .priv_size = sizeof(struct htb),
    .doc = "classes with a guaranteed rate and a ceil they borrow up to, u32 filters (sch_htb.c, Linux 4.15)",
    .init = htb_init, .enqueue = htb_enqueue, .dequeue = htb_dequeue, .reset = htb_reset, .destroy = htb_destroy,
    .dump = htb_dump, .dump_classes = htb_dump_classes, .xstats = htb_xstats, .mem = htb_mem,
};
VARIANT("qdisc", qdisc_htb);
