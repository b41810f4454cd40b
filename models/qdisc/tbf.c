/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tbf.c - the token bucket filter (sch_tbf.c, Linux 4.15, with tc's
 * q_tbf.c for the options): packets wait in a child bfifo of `limit`
 * bytes and leave when the bucket holds the tokens their length costs
 * at `rate` (and, with a peakrate, at that too, from a bucket of `mtu`).
 * Tokens are nanoseconds of sending time, as the kernel keeps them: the
 * bucket holds at most `burst` worth (buffer), a packet costs
 * psched_l2t_ns(rate, len) of them, and a packet that finds too few arms
 * the watchdog for the moment enough will have come in (an overlimit).
 *
 * tc turns the options into what the kernel takes: burst into a buffer
 * time at the rate (64 ns ticks), latency into a limit of rate x latency
 * + burst bytes (the smaller with a peakrate's rate x latency + mtu);
 * the kernel sizes the largest packet that can ever pass, max_size, from
 * the buffer, and drops anything longer at once.
 */
#include <math.h>
#include "models/qdisc/sums.h"
#include "sim/offload.h"
#include "sim/psched.h"

enum { P_RATE, P_BURST, P_LIMIT, P_LATENCY, P_PEAKRATE, P_MTU };

static const struct qdisc_param tbf_params[] = {
    { "rate", QP_RATE, NULL, "the rate tokens come in at (required)", NULL },
    { "burst|buffer|maxburst", QP_SIZE, NULL, "the bucket's size in bytes (required)", NULL },
    { "limit", QP_SIZE, NULL, "bytes that may wait for tokens (this or latency is required)", NULL },
    { "latency", QP_TIME, NULL, "the longest a packet may wait: limit = rate x latency + burst", NULL },
    { "peakrate", QP_RATE, NULL, "the bucket's own rate, from a bucket of mtu bytes (needs mtu)", NULL },
    { "mtu|minburst", QP_SIZE, NULL, "the peakrate bucket's size (default 2047 when peakrate is not set)", NULL },
    { NULL, 0, NULL, NULL, NULL },
};

struct tbf {
    uint32_t limit, max_size;
    int64_t buffer, mtu;         /* ns */
    struct psched_ratecfg rate, peak;
    bool has_peak;
    uint64_t burst;              /* bytes, as given: for the dump */
    int64_t tokens, ptokens, t_c;   /* ns */
    struct qdisc *child;
};

static inline int64_t ns_of(simtime_t t) { return (int64_t)(t / PS_PER_NS); }

static int tbf_init(struct qdisc *q, const struct qdisc_args *a, char *err, size_t n)
{
    struct tbf *t = q->priv;
    bool given[6];
    for (int i = 0; i < 6; i++)
        given[i] = (a->given >> i) & 1;
    if (!given[P_RATE] || !a->v[P_RATE]) {
        snprintf(err, n, "tbf: the \"rate\" parameter is mandatory (tc q_tbf.c)");
        return -1;
    }
    if (!given[P_BURST] || !a->v[P_BURST]) {
        snprintf(err, n, "tbf: the \"burst\" parameter is mandatory (tc q_tbf.c)");
        return -1;
    }
    if (given[P_LIMIT] == given[P_LATENCY]) {
        snprintf(err, n, given[P_LIMIT] ? "tbf: give limit or latency, not both (tc: duplicate \"limit/latency\")"
                                        : "tbf: the \"limit\" or \"latency\" parameter is mandatory (tc q_tbf.c)");
        return -1;
    }
    /* q_tbf.c: a peakrate needs an mtu, and 0 is none (it was read as a
     * bucket of 0 bytes, and blamed on the burst) */
    if (given[P_PEAKRATE] && a->v[P_PEAKRATE] && (!given[P_MTU] || !a->v[P_MTU])) {
        snprintf(err, n, "tbf: when \"peakrate\" is specified, \"mtu\" must also be specified (tc q_tbf.c)");
        return -1;
    }
    uint64_t rate = (uint64_t)a->v[P_RATE] / 8, peak = given[P_PEAKRATE] ? (uint64_t)a->v[P_PEAKRATE] / 8 : 0;
    uint64_t burst = (uint64_t)a->v[P_BURST], mtu = given[P_MTU] ? (uint64_t)a->v[P_MTU] : 2047;
    double limit = (double)a->v[P_LIMIT];
    if (given[P_LATENCY]) {
        double lat_s = (double)a->v[P_LATENCY] / PS_PER_S;
        limit = (double)rate * lat_s + (double)burst;
        if (peak) {
            double lim2 = (double)peak * lat_s + (double)mtu;
            if (lim2 < limit)
                limit = lim2;
        }
    }
    /* tc's limit is 32 bits (its conversion of more would wrap) */
    if (!(limit <= 4294967295.0)) {
        snprintf(err, n, "tbf: the limit latency gives, rate x latency + burst = %.0f bytes, is past tc's 32 bits; "
                 "expected a shorter latency", limit);
        return -1;
    }
    t->limit = (uint32_t)limit;
    /* the buckets go over as 32 bits of 64-ns ticks: at most 274.9 s at
     * their rates */
    if (!tc_xmittime_fits(rate, burst) || (peak && !tc_xmittime_fits(peak, mtu))) {
        bool b = !tc_xmittime_fits(rate, burst);
        snprintf(err, n, "tbf: %s %llu bytes at %llu bytes/s take more than 274.9 s to send, past tc's 32 bits of "
                 "64-ns ticks; expected a smaller %s", b ? "burst" : "mtu", (unsigned long long)(b ? burst : mtu),
                 (unsigned long long)(b ? rate : peak), b ? "burst" : "mtu");
        return -1;
    }
    t->burst = burst;
    psched_ratecfg_precompute(&t->rate, rate, 0);
    t->buffer = (int64_t)tc_calc_xmittime_ns(rate, burst);
    uint64_t max_size = psched_ns_t2l(&t->rate, (uint64_t)t->buffer);
    if (peak) {
        if (peak <= rate) {
            snprintf(err, n, "tbf: peakrate must be above rate (sch_tbf.c: EINVAL)");
            return -1;
        }
        psched_ratecfg_precompute(&t->peak, peak, 0);
        t->has_peak = true;
        t->mtu = (int64_t)tc_calc_xmittime_ns(peak, mtu);
        uint64_t pmax = psched_ns_t2l(&t->peak, (uint64_t)t->mtu);
        if (pmax < max_size)
            max_size = pmax;
    }
    if (max_size > UINT32_MAX)
        max_size = UINT32_MAX;
    if (!max_size) {
        snprintf(err, n, "tbf: a burst of %llu bytes passes no packet at this rate (sch_tbf.c: EINVAL)",
                 (unsigned long long)burst);
        return -1;
    }
    t->max_size = (uint32_t)max_size;
    t->tokens = t->buffer;
    t->ptokens = t->mtu;
    /* the child: a bfifo of limit bytes (fifo_create_dflt) */
    struct qdisc_args c = { 0 };
    c.ops = variant_find("qdisc", "bfifo");
    c.given = 1;
    c.v[0] = t->limit;
    t->child = qdisc_create_leaf(q, &c, "1:1", err, n);
    return t->child ? 0 : -1;
}

/* The child's enqueue, counted as what the child took, which is not
 * always the packet: netem at the leaf loses it (and frees it; 4.15's
 * parent counts nothing, told by __NET_XMIT_BYPASS) or queues a
 * duplicate beside it. */
static int child_enqueue(struct qdisc *q, struct qdisc *child, struct skb *skb, simtime_t now)
{
    uint64_t qlen0 = child->st.qlen, backlog0 = child->st.backlog;
    int ret = qdisc_enqueue(child, skb, now);
    if (ret == NET_XMIT_SUCCESS) {
        q->st.qlen += child->st.qlen;
        q->st.qlen -= qlen0;
        q->st.backlog += child->st.backlog;
        q->st.backlog -= backlog0;
    }
    /* tbf's queue is its child's, and the one tbf itself set aside */
    INVARIANT(q->st.qlen == child->st.qlen + qdisc_qlen_aside(q) &&
              q->st.backlog == child->st.backlog + qdisc_backlog_aside(q));
    return ret;
}

/* tbf_segment: a GSO packet too big for the bucket whose segments fit is
 * cut here, each segment queued on its own */
static int tbf_segment(struct qdisc *q, struct skb *skb, simtime_t now)
{
    struct tbf *t = q->priv;
    uint32_t nb = 0;
    for (struct skb *seg = skb_gso_segment(skb, true), *nx; seg; seg = nx) {
        nx = seg->next;
        seg->next = NULL;
        int ret = child_enqueue(q, t->child, seg, now);
        if (ret != NET_XMIT_SUCCESS) {
            if (ret == NET_XMIT_DROP)
                q->st.drops++;
            continue;
        }
        nb++;
    }
    return nb ? NET_XMIT_SUCCESS : NET_XMIT_DROP;
}

static int tbf_enqueue(struct qdisc *q, struct skb *skb, simtime_t now)
{
    struct tbf *t = q->priv;
    if (qdisc_pkt_len(skb) > t->max_size) {
        if (skb->gso_size && skb->ip_len - skb->payload + skb->gso_size + 14 <= t->max_size)
            return tbf_segment(q, skb, now);
        return qdisc_drop(q, skb);
    }
    int ret = child_enqueue(q, t->child, skb, now);
    if (ret != NET_XMIT_SUCCESS) {
        if (ret == NET_XMIT_DROP)
            q->st.drops++;
        return ret;
    }
    return NET_XMIT_SUCCESS;
}

static struct skb *tbf_dequeue(struct qdisc *q, simtime_t now)
{
    struct tbf *t = q->priv;
    struct skb *skb = qdisc_peek(t->child, now);
    if (!skb)
        return NULL;
    int64_t tnow = ns_of(now), len = qdisc_pkt_len(skb);
    int64_t toks = tnow - t->t_c, ptoks = 0;
    if (toks > t->buffer)
        toks = t->buffer;
    if (t->has_peak) {
        ptoks = toks + t->ptokens;
        if (ptoks > t->mtu)
            ptoks = t->mtu;
        ptoks -= (int64_t)psched_l2t_ns(&t->peak, (uint32_t)len);
    }
    toks += t->tokens;
    if (toks > t->buffer)
        toks = t->buffer;
    toks -= (int64_t)psched_l2t_ns(&t->rate, (uint32_t)len);
    if ((toks | ptoks) >= 0) {
        skb = qdisc_dequeue_peeked(t->child, now);
        t->t_c = tnow;
        t->tokens = toks;
        t->ptokens = ptoks;
        /* the bucket never holds more than its size, nor the peak bucket
         * more than one mtu; a packet sent leaves them at or above 0 */
        INVARIANT(t->tokens >= 0 && t->tokens <= t->buffer && t->ptokens >= 0 && t->ptokens <= t->mtu);
        qdisc_backlog_out(q, skb);
        qdisc_sent(q, skb);
        INVARIANT(q->st.qlen == t->child->st.qlen + qdisc_qlen_aside(q) &&
                  q->st.backlog == t->child->st.backlog + qdisc_backlog_aside(q));
        return skb;
    }
    int64_t wait = -toks > -ptoks ? -toks : -ptoks;
    qdisc_watchdog_schedule(q, (simtime_t)(tnow + wait) * PS_PER_NS);
    q->st.overlimits++;
    return NULL;
}

static void tbf_reset(struct qdisc *q)
{
    struct tbf *t = q->priv;
    if (t->child->peeked) {
        skb_free(t->child->peeked);
        t->child->peeked = NULL;
    }
    t->child->ops->reset(t->child);
    q->st.qlen = q->st.backlog = 0;
}

static void tbf_destroy(struct qdisc *q)
{
    qdisc_destroy(((struct tbf *)q->priv)->child);
}

static void tbf_dump(const struct qdisc *q, FILE *f)
{
    const struct tbf *t = q->priv;
    char b1[32], b2[32], b3[32];
    fprintf(f, "rate %s burst %s", qdisc_fmt_rate(b1, sizeof b1, t->rate.rate_bytes_ps * 8),
            qdisc_fmt_size(b2, sizeof b2, t->burst));
    if (t->has_peak)
        fprintf(f, " peakrate %s minburst %s", qdisc_fmt_rate(b1, sizeof b1, t->peak.rate_bytes_ps * 8),
                qdisc_fmt_size(b3, sizeof b3, psched_ns_t2l(&t->peak, (uint64_t)t->mtu)));
    /* tc: latency = limit / rate - buffer time */
    double lat = (double)t->limit / (double)t->rate.rate_bytes_ps - (double)t->buffer / 1e9;
    if (lat >= 0)
        fprintf(f, " lat %s", qdisc_fmt_time(b3, sizeof b3, (simtime_t)(lat * PS_PER_S)));
}

const struct qdisc_ops qdisc_tbf = {
    .name = "tbf", .params = tbf_params, .priv_size = sizeof(struct tbf),
    .doc = "a token bucket shaper: rate, burst, limit or latency, peakrate and mtu (sch_tbf.c, Linux 4.15)",
    .init = tbf_init, .enqueue = tbf_enqueue, .dequeue = tbf_dequeue, .reset = tbf_reset, .destroy = tbf_destroy,
    .dump = tbf_dump,
};
VARIANT("qdisc", qdisc_tbf);
