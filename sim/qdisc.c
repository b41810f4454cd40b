/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qdisc.c - the engine that runs a port's queueing disciplines (qdisc.h):
 * a tree's enqueue, its run against the TX queues, the watchdog, and its
 * statistics as counters, series and tc's text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/counter.h"
#include "sim/qdisc.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

int qdisc_param_index(const struct qdisc_ops *ops, const char *name)
{
    for (int i = 0; ops->params && ops->params[i].name; i++) {
        const char *n = ops->params[i].name;
        size_t k = strlen(name);
        for (const char *p = n; *p;) {   /* "burst|buffer|maxburst" */
            const char *bar = strchr(p, '|');
            size_t len = bar ? (size_t)(bar - p) : strlen(p);
            if (len == k && !strncmp(p, name, k))
                return i;
            p += len + (bar != NULL);
        }
    }
    return -1;
}

struct qdisc *qdisc_create(const struct qdisc_args *a, const struct qdisc_dev *dev, struct qdisc_root *r,
                           const char *parent, char *err, size_t n)
{
    /* the discipline's state right after the qdisc, as qdisc_alloc lays
     * out a Qdisc and its priv: one block, and a packet's enqueue finds
     * both on neighbouring lines */
    size_t head = (sizeof(struct qdisc) + 15) & ~(size_t)15;
    struct qdisc *q = xcalloc(1, head + a->ops->priv_size);
    q->ops = a->ops;
    q->dev = *dev;
    q->root = r;
    q->bypass = a->ops->bypass;
    snprintf(q->parent, sizeof q->parent, "%s", parent);
    rng_init(&q->rng, dev->seed, q->parent);
    if (a->ops->priv_size)
        q->priv = (char *)q + head;
    if (a->ops->mq) {
        q->nchildren = dev->num_tx_queues;
        q->children = xcalloc(q->nchildren, sizeof *q->children);
        for (uint32_t i = 0; i < q->nchildren; i++) {
            char p[sizeof q->parent];
            snprintf(p, sizeof p, ":%x", (i + 1) & 0xffff);
            q->children[i] = qdisc_create_leaf(q, a->child, p, err, n);
            if (!q->children[i]) {
                qdisc_destroy(q);
                return NULL;
            }
        }
    }
    if (a->ops->init && a->ops->init(q, a, err, n)) {
        /* qdisc_create: a failed ->init is followed by ->destroy, which
         * frees what init built before it failed (htb's class leaves);
         * there is nothing to reset */
        if (a->ops->destroy)
            a->ops->destroy(q);
        q->ops = NULL;
        qdisc_destroy(q);
        return NULL;
    }
    return q;
}

/* A classful discipline's leaf: dflt, or netem with the tree's leaf
 * options (netem_at = leaf), counted for its counters. */
struct qdisc *qdisc_create_leaf(struct qdisc *parent, const struct qdisc_args *dflt, const char *name, char *err,
                                size_t n)
{
    struct qdisc_root *r = parent->root;
    if (!r || !r->leaf_netem)
        return qdisc_create(dflt, &parent->dev, r, name, err, n);
    struct qdisc *q = qdisc_create(&r->netem_leaf_args, &parent->dev, r, name, err, n);
    if (!q)
        return NULL;
    if (r->netem_leaves < QDISC_MAX_NETEM_LEAVES)
        r->netem_leaf[r->netem_leaves] = q;
    r->netem_leaves++;
    return q;
}

void qdisc_destroy_leaf(struct qdisc *leaf)
{
    struct qdisc_root *r = leaf ? leaf->root : NULL;
    if (r && r->leaf_netem && leaf->ops && leaf->ops->netem) {
        uint32_t k = 0, n = r->netem_leaves < QDISC_MAX_NETEM_LEAVES ? r->netem_leaves : QDISC_MAX_NETEM_LEAVES;
        while (k < n && r->netem_leaf[k] != leaf)
            k++;
        if (k < n)
            memmove(&r->netem_leaf[k], &r->netem_leaf[k + 1], (n - k - 1) * sizeof r->netem_leaf[0]);
        r->netem_leaves--;
    }
    qdisc_destroy(leaf);
}

/* malloc's own header and rounding on each block */
#define MALLOC_SLACK 32

uint64_t qdisc_mem_estimate(const struct qdisc_args *a, const struct qdisc_dev *dev)
{
    uint64_t m = sizeof(struct qdisc) + a->ops->priv_size + 2 * MALLOC_SLACK;
    if (a->ops->mem)
        m += a->ops->mem(a, dev);
    if (a->ops->mq && a->child)
        m += (uint64_t)dev->num_tx_queues * (sizeof(struct qdisc *) + qdisc_mem_estimate(a->child, dev));
    return m;
}

void qdisc_destroy(struct qdisc *q)
{
    if (!q)
        return;
    for (uint32_t i = 0; i < q->nchildren; i++)
        qdisc_destroy(q->children[i]);
    free(q->children);
    if (q->peeked)
        skb_free(q->peeked);
    if (q->requeued)
        skb_free(q->requeued);
    if (q->ops) {
        if (q->ops->reset)
            q->ops->reset(q);
        if (q->ops->destroy)
            q->ops->destroy(q);
    }
    rng_free(&q->rng);
    free(q);
}

struct skb *qdisc_peek(struct qdisc *q, simtime_t now)
{
    if (!q->peeked) {
        q->peeked = q->ops->dequeue(q, now);
        if (q->peeked)
            qdisc_backlog_in(q, q->peeked);
    }
    return q->peeked;
}

struct skb *qdisc_dequeue_peeked(struct qdisc *q, simtime_t now)
{
    struct skb *skb = q->peeked;
    if (!skb)
        return q->ops->dequeue(q, now);
    q->peeked = NULL;
    qdisc_backlog_out(q, skb);
    return skb;
}

static void watchdog_fire(struct event *ev)
{
    struct qdisc_root *r = ev->ctx;
    qdisc_run(r, -1, r->q->now, NULL);
}

void qdisc_watchdog_schedule(struct qdisc *q, simtime_t t)
{
    struct qdisc_root *r = q->root;
    if (!r)
        return;
    if (t < r->q->now)
        t = r->q->now;
    /* an earlier run is harmless (a throttled discipline arms it again),
     * a later one would hold packets past their time */
    if (!event_pending(&r->watchdog) || t < r->watchdog.time)
        evq_move(r->q, &r->watchdog, t);
}

struct qdisc_root *qdisc_root_new_netem(const struct qdisc_args *a, const struct qdisc_dev *dev, struct evq *q,
                                        const struct qdisc_dev_ops *dev_ops, void *devp,
                                        const struct qdisc_args *leaf_netem, char *err, size_t n)
{
    struct qdisc_root *r = xcalloc(1, sizeof *r);
    r->q = q;
    r->dev_ops = dev_ops;
    r->dev = devp;
    r->leaf_netem = leaf_netem != NULL;
    if (leaf_netem)
        r->netem_leaf_args = *leaf_netem;
    event_init(&r->watchdog, watchdog_fire, r);
    r->top = qdisc_create(a, dev, r, "root", err, n);
    if (r->top && leaf_netem && !r->netem_leaves) {
        snprintf(err, n, "%s has no leaf for netem (netem_at = leaf takes tbf, htb or mq, whose leaves netem "
                 "becomes)", a->ops->name);
        qdisc_destroy(r->top);
        r->top = NULL;
    }
    if (!r->top) {
        free(r);
        return NULL;
    }
    return r;
}

struct qdisc_root *qdisc_root_new(const struct qdisc_args *a, const struct qdisc_dev *dev, struct evq *q,
                                  const struct qdisc_dev_ops *dev_ops, void *devp, char *err, size_t n)
{
    return qdisc_root_new_netem(a, dev, q, dev_ops, devp, NULL, err, n);
}

void qdisc_root_free(struct qdisc_root *r)
{
    if (!r)
        return;
    evq_cancel(r->q, &r->watchdog);
    evq_cancel(r->q, &r->sampler);
    qdisc_destroy(r->top);
    free(r);
}

/* The tree's occupancy moved by what one operation on q did to q. */
static inline void occupancy(struct qdisc_root *r, const struct qdisc *q, uint64_t qlen0, uint64_t backlog0)
{
    if (r->dflt && !r->sb)       /* the built-in tree has no series */
        return;
    /* each moves either way: add the rise or take off the fall, never a
     * difference wrapped round 2^64 */
    r->qlen = q->st.qlen >= qlen0 ? r->qlen + (q->st.qlen - qlen0) : r->qlen - (qlen0 - q->st.qlen);
    if (q->st.backlog >= backlog0) {
        r->backlog += q->st.backlog - backlog0;
        if (r->sb && (r->sb->used += q->st.backlog - backlog0) > r->sb->used_max)
            r->sb->used_max = r->sb->used;
    } else {
        r->backlog -= backlog0 - q->st.backlog;
        if (r->sb)
            r->sb->used -= backlog0 - q->st.backlog;
    }
    if (r->qlen > r->qlen_peak)
        r->qlen_peak = r->qlen;
    if (r->backlog > r->backlog_peak)
        r->backlog_peak = r->backlog;
}

static void sent(struct qdisc_root *r, struct skb *skb, simtime_t now, void *core);

/* dev_requeue_skb: the packet waits first in line for its stopped queue,
 * and still counts in the discipline's qlen and backlog (so in its limit).
 * It is the discipline's own (q->gso_skb): under mq, a stopped TX queue
 * holds back its own child only. */
static void requeue(struct qdisc_root *r, struct qdisc *q, struct skb *skb)
{
    uint64_t qlen0 = q->st.qlen, backlog0 = q->st.backlog;
    INVARIANT(!q->requeued);
    q->requeued = skb;
    q->st.requeues++;
    qdisc_backlog_in(q, skb);
    occupancy(r, q, qlen0, backlog0);
}

int qdisc_root_xmit(struct qdisc_root *r, struct skb *skb, simtime_t now, void *core)
{
    if (r->top->ops->root_xmit)
        return r->top->ops->root_xmit(r->top, skb, now);
    struct qdisc *q = qdisc_root_txq(r, skb->queue);
    if (r->sb && !qdisc_sb_admit(r->sb, r->backlog, qdisc_pkt_len(skb))) {
        r->sb_discards++;        /* the ASIC's drop, before any discipline sees it */
        skb_free(skb);
        return NET_XMIT_DROP;
    }
    uint64_t qlen0 = q->st.qlen, backlog0 = q->st.backlog;
    skb->t_due = now;            /* the enqueue time: sojourn, codel's enqueue_time */
    if (q->bypass && !qlen0) {   /* (a requeued packet counts in qlen) */
        /* empty and work-conserving: no enqueue, no dequeue; a stopped
         * queue makes it a requeue, as sch_direct_xmit does */
        qdisc_sent(q, skb);
        if (r->dev_ops->stopped(r->dev, skb->queue))
            requeue(r, q, skb);
        else
            sent(r, skb, now, core);
        return NET_XMIT_SUCCESS;
    }
    int ret = q->ops->enqueue(q, skb, now);
    occupancy(r, q, qlen0, backlog0);
    qdisc_run(r, r->top->ops->mq ? skb->queue : -1, now, core);
    return ret;
}

static void sent(struct qdisc_root *r, struct skb *skb, simtime_t now, void *core)
{
    if (!r->dflt) {
        simtime_t s = now - skb->t_due;
        r->sojourn_n++;
        r->sojourn_sum += s;
        if (s > r->sojourn_max)
            r->sojourn_max = s;
    }
    r->dev_ops->xmit(r->dev, skb, now, core);
}

/* qdisc_restart until the queue is empty, throttled or its device busy.
 * A discipline that feeds one TX queue (an mq child, or any root of a
 * one-queue port: TCQ_F_ONETXQUEUE) is not dequeued while that queue is
 * stopped; a root over several dequeues first and may have to requeue. */
static void run_one(struct qdisc_root *r, struct qdisc *q, int onetxq, simtime_t now, void *core)
{
    if (q->requeued) {
        struct skb *skb = q->requeued;
        if (r->dev_ops->stopped(r->dev, skb->queue))
            return;
        uint64_t qlen0 = q->st.qlen, backlog0 = q->st.backlog;
        q->requeued = NULL;
        qdisc_backlog_out(q, skb);
        occupancy(r, q, qlen0, backlog0);
        sent(r, skb, now, core);
    }
    for (;;) {
        if (onetxq >= 0 && r->dev_ops->stopped(r->dev, (unsigned)onetxq))
            return;
        uint64_t qlen0 = q->st.qlen, backlog0 = q->st.backlog;
        struct skb *skb = q->ops->dequeue(q, now);
        occupancy(r, q, qlen0, backlog0);
        if (!skb)
            return;
        /* a discipline of one TX queue was checked above (the queue only
         * stops when it is sent to) */
        if (onetxq < 0 && r->dev_ops->stopped(r->dev, skb->queue)) {
            requeue(r, q, skb);
            return;
        }
        sent(r, skb, now, core);
    }
}

/* The root's occupancy is the sum of what its TX queues' disciplines
 * hold (the series read it): each operation's change was added. */
static uint64_t held(const struct qdisc_root *r)
{
    if (!r->top->ops->mq)
        return r->top->st.qlen;
    uint64_t n = 0;
    for (uint32_t i = 0; i < r->top->nchildren; i++)
        n += r->top->children[i]->st.qlen;
    return n;
}

void qdisc_run(struct qdisc_root *r, int txq, simtime_t now, void *core)
{
    INVARIANT_SUM(r->top->nchildren, r->dflt || r->qlen == held(r));
    if (!r->top->ops->mq) {
        run_one(r, r->top, r->top->dev.num_tx_queues == 1 ? 0 : -1, now, core);
    } else if (txq >= 0) {
        run_one(r, r->top->children[txq], txq, now, core);
    } else {
        for (uint32_t i = 0; i < r->top->nchildren; i++)
            run_one(r, r->top->children[i], (int)i, now, core);
    }
}

void qdisc_root_restart(struct qdisc_root *r, unsigned txq, simtime_t now, void *core, bool was_stopped)
{
    if (r->top->ops->root_restart)
        r->top->ops->root_restart(r->top, txq, now, core, was_stopped);
    else
        qdisc_run(r, (int)txq, now, core);
}

/* ---- statistics ---- */

static void sample_fire(struct event *ev)
{
    struct qdisc_root *r = ev->ctx;
    char name[128];
    static const char *const what[] = { "backlog_bytes", "backlog_pkts", "backlog_peak_bytes", "backlog_peak_pkts",
                                        "sojourn_ms", "sojourn_max_ms" };
    double v[] = { (double)r->backlog, (double)r->qlen, (double)r->backlog_peak, (double)r->qlen_peak,
                   r->sojourn_n ? time_to_s(r->sojourn_sum) * 1e3 / (double)r->sojourn_n : 0,
                   time_to_s(r->sojourn_max) * 1e3 };
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "%s%s", r->series_prefix, what[i]);
        sim_series(r->sim, name, v[i]);
    }
    r->qlen_peak = r->qlen;
    r->backlog_peak = r->backlog;
    r->sojourn_n = 0;
    r->sojourn_sum = r->sojourn_max = 0;
    evq_push(r->q, &r->sampler, r->q->now + r->every);
}

static void register_one(struct counters *cs, struct qdisc *q, const char *prefix)
{
    static const char *const f[] = { "sent_bytes", "sent_packets", "dropped", "overlimits", "requeues" };
    const uint64_t *v[] = { &q->st.bytes, &q->st.packets, &q->st.drops, &q->st.overlimits, &q->st.requeues };
    for (int i = 0; i < 5; i++)
        counters_addf(cs, v[i], i == 2, "%s%s", prefix, f[i]);
    struct qdisc_xstat x[QDISC_MAX_XSTATS];
    int nx = q->ops->xstats ? q->ops->xstats(q, x) : 0;
    for (int i = 0; i < nx; i++)
        counters_addf(cs, x[i].v, false, "%s%s", prefix, x[i].name);
}

void qdisc_root_register_top(const struct qdisc_root *r, struct counters *cs, const char *prefix)
{
    const struct qdisc *t = r ? r->top : NULL;
    if (!t || !t->ops->root_xmit || !t->ops->xstats)
        return;
    struct qdisc_xstat x[QDISC_MAX_XSTATS];
    int nx = t->ops->xstats(t, x);
    for (int k = 0; k < nx; k++)
        counters_addf(cs, x[k].v, k < 2, "%s.%s", prefix, x[k].name);
}

void qdisc_root_register(struct qdisc_root *r, struct sim *s, const char *host, const char *port, simtime_t every)
{
    if (r->top->ops->root_xmit) {
        /* netem at the root counts as its link's (link.NAME.DIR.netem_*):
         * the port's qdisc counters and series are the tree's under it */
        if (r->inner)
            qdisc_root_register(r->inner, s, host, port, every);
        return;
    }
    char prefix[96];
    snprintf(prefix, sizeof prefix, "%s.%s.qdisc.", host, port);
    struct counters *cs = &s->counters;
    r->sim = s;
    r->series_prefix = counters_keep_name(cs, prefix);
    r->host = counters_keep_name(cs, host);
    r->port = counters_keep_name(cs, port);
    if (r->top->ops->mq) {
        for (uint32_t i = 0; i < r->top->nchildren; i++) {
            char p[128];
            snprintf(p, sizeof p, "%sq%u.", prefix, i);
            register_one(cs, r->top->children[i], p);
        }
    } else {
        register_one(cs, r->top, prefix);
    }
    /* netem leaves under mq count as its children above; under tbf and
     * htb they are counted by the class they serve */
    for (uint32_t i = 0; !r->top->ops->mq && i < r->netem_leaves && i < QDISC_MAX_NETEM_LEAVES; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s%s.", prefix, r->netem_leaf[i]->parent);
        struct qdisc_xstat x[QDISC_MAX_XSTATS];
        int nx = r->netem_leaf[i]->ops->xstats(r->netem_leaf[i], x);
        for (int k = 0; k < nx; k++)
            counters_addf(cs, x[k].v, k < 2, "%s%s", p, x[k].name);
    }
    r->every = every;
    if (every > 0) {
        event_init(&r->sampler, sample_fire, r);
        evq_push(r->q, &r->sampler, r->q->now + every);
    }
}

const char *qdisc_fmt_size(char *buf, size_t n, uint64_t sz)
{
    double t = (double)sz;
    if (sz >= 1024 * 1024 && fabs(1024.0 * 1024 * rint(t / (1024 * 1024)) - t) < 1024)
        snprintf(buf, n, "%gMb", rint(t / (1024 * 1024)));
    else if (sz >= 1024 && fabs(1024 * rint(t / 1024) - t) < 16)
        snprintf(buf, n, "%gKb", rint(t / 1024));
    else
        snprintf(buf, n, "%llub", (unsigned long long)sz);
    return buf;
}

const char *qdisc_fmt_time(char *buf, size_t n, simtime_t t)
{
    double us = (double)t / PS_PER_US;
    if (us >= 1e6)
        snprintf(buf, n, "%.1fs", us / 1e6);
    else if (us >= 1e3)
        snprintf(buf, n, "%.1fms", us / 1e3);
    else
        snprintf(buf, n, "%lluus", (unsigned long long)(t / PS_PER_US));
    return buf;
}

const char *qdisc_fmt_rate(char *buf, size_t n, uint64_t rate)
{
    static const char *const units[] = { "", "K", "M", "G", "T" };
    int i = 0;
    for (; i < 4; i++) {
        if (rate < 1000 || (rate % 1000 && rate < 1000 * 1000))
            break;
        rate /= 1000;
    }
    snprintf(buf, n, "%llu%sbit", (unsigned long long)rate, units[i]);
    return buf;
}

/* One discipline as tc -s prints it, under the head "qdisc KIND HANDLE: dev PORT root|parent P". */
static void print_one(const struct qdisc *q, const struct qdisc_stats *st, const char *handle, const char *port,
                      const char *parent, FILE *f)
{
    char b[32];
    fprintf(f, "qdisc %s %s dev %s %s ", q->ops->name, handle, port, parent);
    if (q->ops->dump)
        q->ops->dump(q, f);
    fprintf(f, "\n Sent %llu bytes %llu pkt (dropped %llu, overlimits %llu requeues %llu) \n",
            (unsigned long long)st->bytes, (unsigned long long)st->packets, (unsigned long long)st->drops,
            (unsigned long long)st->overlimits, (unsigned long long)st->requeues);
    fprintf(f, " backlog %s %llup requeues %llu \n", qdisc_fmt_size(b, sizeof b, st->backlog),
            (unsigned long long)st->qlen, (unsigned long long)st->requeues);
    if (q->ops->dump_stats)
        q->ops->dump_stats(q, f);
}

void qdisc_root_print(const struct qdisc_root *r, const char *port, bool under_netem, FILE *f)
{
    if (r->top->ops->root_xmit) {
        if (r->inner)
            qdisc_root_print(r->inner, port, true, f);
        return;
    }
    const struct qdisc *t = r->top;
    /* a netem root holds 8001:; the kernel's own default tree has handle
     * 0: throughout (qdisc_create_dflt), and tc prints its children's
     * parents as :N */
    unsigned top = r->dflt ? 0 : under_netem ? 0x8002 : 0x8001;
    char handle[16], parent[24];
    snprintf(handle, sizeof handle, "%x:", top);
    snprintf(parent, sizeof parent, r->dflt ? "root" : under_netem ? "parent 8001:1" : "root refcnt 2");
    if (!t->ops->mq) {
        print_one(t, &t->st, handle, port, parent, f);
        if (t->ops->dump_classes) {
            fprintf(f, "\n%s# tc -s class show dev %s\n", r->host, port);
            t->ops->dump_classes(t, port, f);
        }
        return;
    }
    /* mq reports its children's sums (mq_dump) */
    struct qdisc_stats sum = { 0 };
    for (uint32_t i = 0; i < t->nchildren; i++) {
        const struct qdisc_stats *c = &t->children[i]->st;
        sum.bytes += c->bytes;
        sum.packets += c->packets;
        sum.drops += c->drops;
        sum.overlimits += c->overlimits;
        sum.requeues += c->requeues;
        sum.backlog += c->backlog;
        sum.qlen += c->qlen;
    }
    print_one(t, &sum, handle, port, parent, f);
    for (uint32_t i = 0; i < t->nchildren; i++) {
        snprintf(handle, sizeof handle, "%x:", r->dflt ? 0 : top + 1 + i);
        if (r->dflt)
            snprintf(parent, sizeof parent, "parent %s", t->children[i]->parent);
        else
            snprintf(parent, sizeof parent, "parent %x%s", top, t->children[i]->parent);
        print_one(t->children[i], &t->children[i]->st, handle, port, parent, f);
    }
}
