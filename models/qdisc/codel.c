/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * codel.c - codel (sch_codel.c, Linux 4.15): one FIFO of at most limit
 * packets, tail drop at the limit, and CoDel (codel.h) on the way out:
 * packets that waited longer than target for a whole interval are dropped
 * (or CE-marked with ecn) at the rate of the control law. ecn is off by
 * default here, unlike fq_codel.
 *
 * Options are what tc 4.15's q_codel.c sends: a zero limit, target or
 * interval is not sent, so the kernel's default stays; times are whole
 * microseconds (tc's get_time) stored as (us * 1000) >> 10.
 */
#include "models/qdisc/codel.h"
#include "models/qdisc/sums.h"

enum { P_LIMIT, P_TARGET, P_INTERVAL, P_ECN, P_CE_THRESHOLD };

static const struct qdisc_param codel_params[] = {
    [P_LIMIT] = { "limit", QP_COUNT, NULL, "packets held; tail drop beyond (default 1000, DEFAULT_CODEL_LIMIT)", NULL },
    [P_TARGET] = { "target", QP_TIME, NULL, "acceptable standing sojourn time (default 5ms)", NULL },
    [P_INTERVAL] = { "interval", QP_TIME, NULL, "how long sojourn stays above target before a drop, and the "
                                                "control law's base (default 100ms)", NULL },
    [P_ECN] = { "ecn", QP_FLAG, NULL, "CE-mark ECN-capable packets instead of dropping them (default noecn)", "noecn" },
    [P_CE_THRESHOLD] = { "ce_threshold", QP_TIME, NULL, "CE-mark every ECN-capable packet whose sojourn exceeds "
                                                        "this, whatever the state (default off)", NULL },
    { NULL, 0, NULL, NULL, NULL },
};

/* tc_codel_xstats' fields as 64-bit counters, refreshed at each dequeue */
struct codel_snap {
    uint64_t count, lastcount, ldelay_us, dropping, drop_next_us;
};

struct codel_sched {
    struct skb_queue q;
    uint32_t limit;
    struct codel_params params;
    struct codel_vars vars;
    struct codel_stats stats;
    uint64_t drop_overlimit;
    codel_time_t last;           /* the last dequeue's time: tc's drop_next without a clock */
    struct codel_snap snap;
};

/* get_time's whole microseconds, from the parsed picoseconds */
static uint64_t tc_us(int64_t ps) { return (uint64_t)ps / PS_PER_US; }

static int codel_init(struct qdisc *q, const struct qdisc_args *a, char *err, size_t n)
{
    struct codel_sched *c = q->priv;
    skbq_init(&c->q);
    c->limit = 1000;
    codel_params_init(&c->params);
    codel_vars_init(&c->vars);
    codel_stats_init(&c->stats);
    c->params.mtu = q->dev.mtu + q->dev.hard_header_len;   /* psched_mtu */
    if ((a->given & 1u << P_TARGET) && tc_us(a->v[P_TARGET]))
        c->params.target = codel_us2time(tc_us(a->v[P_TARGET]));
    if (a->given & 1u << P_CE_THRESHOLD)
        c->params.ce_threshold = codel_us2time((uint32_t)tc_us(a->v[P_CE_THRESHOLD]));
    if ((a->given & 1u << P_INTERVAL) && tc_us(a->v[P_INTERVAL]))
        c->params.interval = codel_us2time(tc_us(a->v[P_INTERVAL]));
    if ((a->given & 1u << P_LIMIT) && a->v[P_LIMIT])
        c->limit = (uint32_t)a->v[P_LIMIT];
    if (a->given & 1u << P_ECN)
        c->params.ecn = a->v[P_ECN] != 0;
    (void)err;
    (void)n;
    return 0;
}

static int codel_enqueue(struct qdisc *q, struct skb *skb, simtime_t now)
{
    struct codel_sched *c = q->priv;
    if (q->st.qlen < c->limit) {
        skb->t_due = now;        /* codel_set_enqueue_time */
        skbq_push(&c->q, skb);
        qdisc_backlog_in(q, skb);
        QDISC_LISTS_OK(q, &c->q, 1);
        return NET_XMIT_SUCCESS;
    }
    c->drop_overlimit++;
    return qdisc_drop(q, skb);
}

static struct skb *dequeue_fn(struct codel_vars *v, void *ctx)
{
    struct qdisc *q = ctx;
    struct skb *skb = skbq_pop(&((struct codel_sched *)q->priv)->q);
    (void)v;
    if (skb)
        qdisc_backlog_out(q, skb);
    return skb;
}

static void drop_fn(struct skb *skb, void *ctx) { qdisc_drop(ctx, skb); }

static void snap(struct codel_sched *c, codel_time_t now)
{
    int64_t next = codel_drop_next_us(&c->vars, now);
    c->last = now;
    c->snap = (struct codel_snap){ c->vars.count, c->vars.lastcount, codel_time_to_us(c->vars.ldelay), c->vars.dropping,
                                   c->vars.dropping && next > 0 ? (uint64_t)next : 0 };
}

static struct skb *codel_qdequeue(struct qdisc *q, simtime_t now)
{
    struct codel_sched *c = q->priv;
    codel_time_t t = codel_time(now);
    struct skb *skb = codel_dequeue(q, &q->st.backlog, &c->params, &c->vars, &c->stats, drop_fn, dequeue_fn, t);
    /* the kernel defers qdisc_tree_reduce_backlog while the queue is
     * empty; no parent here needs it, the scratch is reset the same way */
    if (c->stats.drop_count && q->st.qlen) {
        c->stats.drop_count = 0;
        c->stats.drop_len = 0;
    }
    if (skb)
        qdisc_sent(q, skb);
    /* CoDel's drops came off the list and the backlog together (its
     * should_drop reads that backlog against one mtu) */
    QDISC_LISTS_OK(q, &c->q, 1);
    snap(c, t);
    return skb;
}

static void codel_reset(struct qdisc *q)
{
    struct codel_sched *c = q->priv;
    skbq_purge(&c->q);
    q->st.qlen = q->st.backlog = 0;
    codel_vars_init(&c->vars);
}

static void print_time_us(FILE *f, const char *fmt, uint64_t us)
{
    char b[32];
    fprintf(f, fmt, qdisc_fmt_time(b, sizeof b, (simtime_t)us * PS_PER_US));
}

/* q_codel.c's codel_print_opt */
static void codel_dump(const struct qdisc *q, FILE *f)
{
    const struct codel_sched *c = q->priv;
    fprintf(f, "limit %up ", c->limit);
    print_time_us(f, "target %s ", codel_time_to_us(c->params.target));
    if (c->params.ce_threshold != CODEL_DISABLED_THRESHOLD)
        print_time_us(f, "ce_threshold %s ", codel_time_to_us(c->params.ce_threshold));
    print_time_us(f, "interval %s ", codel_time_to_us(c->params.interval));
    if (c->params.ecn)
        fputs("ecn ", f);
}

/* q_codel.c's codel_print_xstats; drop_next is 0 unless dropping, as
 * codel_dump_stats leaves it */
static void codel_dump_stats(const struct qdisc *q, FILE *f)
{
    const struct codel_sched *c = q->priv;
    codel_time_t now = q->root ? codel_time(q->root->q->now) : c->last;
    int64_t next = c->vars.dropping ? codel_drop_next_us(&c->vars, now) : 0;
    fprintf(f, "  count %u lastcount %u", c->vars.count, c->vars.lastcount);
    print_time_us(f, " ldelay %s", codel_time_to_us(c->vars.ldelay));
    if (c->vars.dropping)
        fputs(" dropping", f);
    print_time_us(f, next < 0 ? " drop_next -%s" : " drop_next %s", (uint64_t)(next < 0 ? -next : next));
    fprintf(f, "\n  maxpacket %llu ecn_mark %llu drop_overlimit %llu", (unsigned long long)c->stats.maxpacket,
            (unsigned long long)c->stats.ecn_mark, (unsigned long long)c->drop_overlimit);
    if (c->stats.ce_mark)
        fprintf(f, " ce_mark %llu", (unsigned long long)c->stats.ce_mark);
    fputc('\n', f);
}

static int codel_xstats(const struct qdisc *q, struct qdisc_xstat *x)
{
    const struct codel_sched *c = q->priv;
    const struct qdisc_xstat all[] = {
        { "count", &c->snap.count },           { "lastcount", &c->snap.lastcount },
        { "ldelay_us", &c->snap.ldelay_us },   { "dropping", &c->snap.dropping },
        { "drop_next_us", &c->snap.drop_next_us }, { "maxpacket", &c->stats.maxpacket },
        { "ecn_mark", &c->stats.ecn_mark },    { "ce_mark", &c->stats.ce_mark },
        { "drop_overlimit", &c->drop_overlimit },
    };
    int k = (int)(sizeof all / sizeof all[0]);
    for (int i = 0; i < k; i++)
        x[i] = all[i];
    return k;
}

const struct qdisc_ops qdisc_codel = {
    .name = "codel", .bypass = true, .params = codel_params, .priv_size = sizeof(struct codel_sched),
    .doc = "CoDel: a FIFO whose packets above target sojourn for an interval are dropped or CE-marked at "
           "interval/sqrt(count) (sch_codel.c, Linux 4.15)",
    .init = codel_init, .enqueue = codel_enqueue, .dequeue = codel_qdequeue, .reset = codel_reset,
    .dump = codel_dump, .dump_stats = codel_dump_stats, .xstats = codel_xstats,
};
VARIANT("qdisc", qdisc_codel);
