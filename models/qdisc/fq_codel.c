/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fq_codel.c - fq_codel (sch_fq_codel.c, Linux 4.15): packets hashed by
 * flow into `flows` queues, each with its own CoDel state (codel.h) and
 * the shared parameters; deficit round robin in quantum bytes between
 * them, flows that just became active (new flows) served before the
 * others (old flows); over limit packets or memory_limit bytes of
 * truesize, up to drop_batch packets go from the head of the flow with
 * the largest backlog. ecn is on by default.
 *
 * The flow hash: the kernel takes skb_get_hash (the NIC's RSS hash when
 * the driver set an L4 one, else jhash of the flow dissector's keys with
 * a key drawn at boot, hashrnd) and scales it into flows with
 * reciprocal_scale. netsim's skb->hash is not that everywhere (ip.c's
 * own mix for local packets, the RSS model's on forwarded ones, 0 after
 * some rewrites), so the hash here is its own: the 5-tuple (addresses,
 * protocol, ports) and family mixed with a key from the port's seed,
 * which stands for hashrnd: deterministic for a seed, and other seeds give
 * other collisions, as other boots would. No jhash value can be matched
 * anyway, the kernel's key being random. There is no tc filter and no
 * skb->priority, so classification is the hash alone.
 *
 * Options are what tc 4.15's q_fq_codel.c sends (a zero limit, flows,
 * quantum, target or interval is not sent); drop_batch has no tc word
 * before iproute2 5.10, and a value given the 4.15 kernel is stored as
 * min(1U, value), i.e. 1 (a bug fixed in 5.7): both kept here.
 */
#include <stdlib.h>
#include "models/qdisc/codel.h"
#include "models/qdisc/sums.h"
#include "sim/hash.h"
#include "sim/xalloc.h"

enum { P_LIMIT, P_FLOWS, P_QUANTUM, P_TARGET, P_INTERVAL, P_ECN, P_CE_THRESHOLD, P_MEMORY_LIMIT, P_DROP_BATCH };

static const struct qdisc_param fq_codel_params[] = {
    [P_LIMIT] = { "limit", QP_COUNT, NULL, "packets held in all (default 10240)", NULL },
    [P_FLOWS] = { "flows", QP_COUNT, NULL, "flow queues, 1 to 65536 (default 1024)", NULL },
    [P_QUANTUM] = { "quantum", QP_COUNT, NULL, "bytes a flow sends per round, 256 to 1048576 (default psched_mtu: "
                                                "mtu + 14 = 1514)", NULL },
    [P_TARGET] = { "target", QP_TIME, NULL, "acceptable standing sojourn time (default 5ms)", NULL },
    [P_INTERVAL] = { "interval", QP_TIME, NULL, "how long sojourn stays above target before a drop (default 100ms)",
                     NULL },
    [P_ECN] = { "ecn", QP_FLAG, NULL, "CE-mark ECN-capable packets instead of dropping them (default ecn)", "noecn" },
    [P_CE_THRESHOLD] = { "ce_threshold", QP_TIME, NULL, "CE-mark ECN-capable packets whose sojourn exceeds this "
                                                        "(default off)", NULL },
    [P_MEMORY_LIMIT] = { "memory_limit", QP_SIZE, NULL, "truesize held in all, at most 2^31 (default 32Mb)", NULL },
    [P_DROP_BATCH] = { "drop_batch", QP_COUNT, NULL, "packets dropped at most per overflow (default 64; a value "
                                                    "given becomes min(1, value) in 4.15)", NULL },
    { NULL, 0, NULL, NULL, NULL },
};

enum { ON_NONE, ON_NEW, ON_OLD };

#define FQ_CODEL_QUANTUM_MAX (1 << 20)

struct fq_flow {
    struct skb_queue q;
    struct fq_flow *prev, *next; /* flowchain on new_flows or old_flows */
    int32_t deficit;
    uint32_t dropped;            /* drops and marks since it became new */
    uint8_t on;                  /* which list: the lists' lengths are counters, not walks */
    struct codel_vars cvars;
};

struct fq_codel {
    struct fq_flow *flows;
    uint32_t *backlogs;          /* bytes per flow: fq_codel_drop scans these */
    uint32_t flows_cnt, quantum, drop_batch_size, memory_limit, limit;
    uint64_t hashrnd;
    struct codel_params cparams;
    struct codel_stats cstats;
    uint64_t memory_usage, drop_overmemory, drop_overlimit, new_flow_count;
    uint64_t new_flows_len, old_flows_len;
    struct fq_flow new_flows, old_flows;   /* list heads */
};

/* ---- the kernel's list_head, as much of it as the scheduler uses ---- */

static void list_init(struct fq_flow *h) { h->prev = h->next = h; }
static bool list_empty(const struct fq_flow *h) { return h->next == h; }

static void list_unlink(struct fq_codel *fq, struct fq_flow *f)
{
    f->prev->next = f->next;
    f->next->prev = f->prev;
    if (f->on == ON_NEW)
        fq->new_flows_len--;
    else if (f->on == ON_OLD)
        fq->old_flows_len--;
    f->on = ON_NONE;
    list_init(f);
}

static void list_add_tail(struct fq_codel *fq, struct fq_flow *f, struct fq_flow *head)
{
    f->prev = head->prev;
    f->next = head;
    head->prev->next = f;
    head->prev = f;
    f->on = head == &fq->new_flows ? ON_NEW : ON_OLD;
    if (f->on == ON_NEW)
        fq->new_flows_len++;
    else
        fq->old_flows_len++;
}

static void list_move_tail(struct fq_codel *fq, struct fq_flow *f, struct fq_flow *head)
{
    list_unlink(fq, f);
    list_add_tail(fq, f, head);
}

/* ---- classification ---- */

static uint32_t flow_hash(const struct fq_codel *fq, const struct skb *skb)
{
    uint64_t addrs = ((uint64_t)skb->saddr << 32 | skb->daddr) ^ fq->hashrnd;
    uint64_t rest = (uint64_t)skb->family << 40 | (uint64_t)skb->proto << 32 | (uint32_t)skb->sport << 16 | skb->dport;
    return sim_hash64(((uint64_t)sim_hash64(addrs) << 32) ^ rest);
}

static uint32_t fq_codel_classify(const struct fq_codel *fq, const struct skb *skb)
{
    return reciprocal_scale(flow_hash(fq, skb), fq->flows_cnt);
}

/* ---- options ---- */

static uint64_t tc_us(int64_t ps) { return (uint64_t)ps / PS_PER_US; }

static int fq_codel_init(struct qdisc *q, const struct qdisc_args *a, char *err, size_t n)
{
    struct fq_codel *fq = q->priv;
#define GIVEN(p) (a->given & 1u << (p))
    fq->limit = 10 * 1024;
    fq->flows_cnt = 1024;
    fq->memory_limit = 32u << 20;
    fq->drop_batch_size = 64;
    fq->quantum = q->dev.mtu + q->dev.hard_header_len;    /* psched_mtu */
    list_init(&fq->new_flows);
    list_init(&fq->old_flows);
    codel_params_init(&fq->cparams);
    codel_stats_init(&fq->cstats);
    fq->cparams.ecn = true;
    fq->cparams.mtu = q->dev.mtu + q->dev.hard_header_len;
    fq->hashrnd = q->dev.seed;

    if (GIVEN(P_FLOWS) && a->v[P_FLOWS]) {
        if (a->v[P_FLOWS] > 65536) {
            snprintf(err, n, "fq_codel: flows %lld: the kernel takes 1 to 65536 (EINVAL)", (long long)a->v[P_FLOWS]);
            return -1;
        }
        fq->flows_cnt = (uint32_t)a->v[P_FLOWS];
    }
    if (GIVEN(P_TARGET) && tc_us(a->v[P_TARGET]))
        fq->cparams.target = codel_us2time(tc_us(a->v[P_TARGET]));
    if (GIVEN(P_CE_THRESHOLD))
        fq->cparams.ce_threshold = codel_us2time((uint32_t)tc_us(a->v[P_CE_THRESHOLD]));
    if (GIVEN(P_INTERVAL) && tc_us(a->v[P_INTERVAL]))
        fq->cparams.interval = codel_us2time(tc_us(a->v[P_INTERVAL]));
    if (GIVEN(P_LIMIT) && a->v[P_LIMIT])
        fq->limit = (uint32_t)a->v[P_LIMIT];
    if (GIVEN(P_ECN))
        fq->cparams.ecn = a->v[P_ECN] != 0;
    /* 4.15 takes any u32 here, into a deficit that is a signed int: a
     * flow's turn at quantum 2^31 would never end, and at 2^32 - 1 take
     * 2^31 rounds. Linux 5.12 on refuses more than 2^20 (EINVAL, "Invalid
     * quantum"); so does netsim, rather than loop. */
    if (GIVEN(P_QUANTUM) && a->v[P_QUANTUM] > FQ_CODEL_QUANTUM_MAX) {
        snprintf(err, n, "fq_codel: quantum %lld: expected 256 to %d bytes (0 or a smaller value is 256; Linux 5.12 "
                 "on refuses more: a flow's deficit is a signed 32-bit int)", (long long)a->v[P_QUANTUM],
                 FQ_CODEL_QUANTUM_MAX);
        return -1;
    }
    if (GIVEN(P_QUANTUM) && a->v[P_QUANTUM])
        fq->quantum = a->v[P_QUANTUM] > 256 ? (uint32_t)a->v[P_QUANTUM] : 256;
    if (GIVEN(P_DROP_BATCH))
        fq->drop_batch_size = a->v[P_DROP_BATCH] < 1 ? (uint32_t)a->v[P_DROP_BATCH] : 1;   /* min(1U, ...) */
    if (GIVEN(P_MEMORY_LIMIT))
        fq->memory_limit = a->v[P_MEMORY_LIMIT] < (1ll << 31) ? (uint32_t)a->v[P_MEMORY_LIMIT] : 1u << 31;
#undef GIVEN
    fq->flows = xcalloc(fq->flows_cnt, sizeof *fq->flows);
    fq->backlogs = xcalloc(fq->flows_cnt, sizeof *fq->backlogs);
    for (uint32_t i = 0; i < fq->flows_cnt; i++) {
        skbq_init(&fq->flows[i].q);
        list_init(&fq->flows[i]);
        codel_vars_init(&fq->flows[i].cvars);
    }
    return 0;
}

/* the flow queues and their backlogs, as init sizes them */
static uint64_t fq_codel_mem(const struct qdisc_args *a, const struct qdisc_dev *dev)
{
    (void)dev;
    uint64_t flows = (a->given & 1u << P_FLOWS) && a->v[P_FLOWS] && a->v[P_FLOWS] <= 65536 ? (uint64_t)a->v[P_FLOWS]
                                                                                           : 1024;
    return flows * (sizeof(struct fq_flow) + sizeof(uint32_t)) + 64;
}

/* ---- enqueue ---- */

/* The fat flow loses packets from its head until half its backlog is
 * gone or max_packets are: one scan of backlogs[] pays for many drops. */
static uint32_t fq_codel_drop(struct qdisc *q, uint32_t max_packets)
{
    struct fq_codel *fq = q->priv;
    uint32_t maxbacklog = 0, idx = 0, i, len = 0;
    uint64_t mem = 0;
    for (i = 0; i < fq->flows_cnt; i++)
        if (fq->backlogs[i] > maxbacklog) {
            maxbacklog = fq->backlogs[i];
            idx = i;
        }
    uint32_t threshold = maxbacklog >> 1;
    struct fq_flow *flow = &fq->flows[idx];
    i = 0;
    do {
        struct skb *skb = skbq_pop(&flow->q);
        len += qdisc_pkt_len(skb);
        mem += skb->truesize;
        qdisc_backlog_out(q, skb);
        qdisc_drop(q, skb);
    } while (++i < max_packets && len < threshold);
    flow->dropped += i;
    fq->backlogs[idx] -= len;
    fq->memory_usage -= mem;
    return idx;
}

/* the per-flow backlogs fq_codel_drop scans add up to the qdisc's */
static uint64_t backlog_sum(const struct fq_codel *fq)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < fq->flows_cnt; i++)
        sum += fq->backlogs[i];
    return sum;
}

/* memory_usage, which the memory_limit drops go by, is the truesize of
 * the packets on the flows (each queue keeps its own truesize sum); the
 * flows' packets are the qdisc's qlen but for those set aside; and a
 * flow with packets is on new_flows or old_flows, which dequeue walks */
static bool flows_ok(const struct qdisc *q, const struct fq_codel *fq)
{
    uint64_t mem = 0, len = 0, listed = 0;
    for (uint32_t i = 0; i < fq->flows_cnt; i++) {
        const struct fq_flow *f = &fq->flows[i];
        mem += f->q.bytes;
        len += f->q.len;
        listed += f->on != ON_NONE;
        if (f->q.len && f->on == ON_NONE)
            return false;
    }
    return mem == fq->memory_usage && len + qdisc_qlen_aside(q) == q->st.qlen &&
           listed == fq->new_flows_len + fq->old_flows_len;
}

static int fq_codel_enqueue(struct qdisc *q, struct skb *skb, simtime_t now)
{
    struct fq_codel *fq = q->priv;
    uint32_t idx = fq_codel_classify(fq, skb);
    struct fq_flow *flow = &fq->flows[idx];
    skb->t_due = now;            /* codel_set_enqueue_time */
    skbq_push(&flow->q, skb);
    fq->backlogs[idx] += qdisc_pkt_len(skb);
    qdisc_backlog_in(q, skb);
    if (flow->on == ON_NONE) {
        list_add_tail(fq, flow, &fq->new_flows);
        fq->new_flow_count++;
        flow->deficit = (int32_t)fq->quantum;
        flow->dropped = 0;
    }
    /* truesize is the memory charged, taken back when the packet leaves */
    fq->memory_usage += skb->truesize;
    bool memory_limited = fq->memory_usage > fq->memory_limit;
    INVARIANT_SUM(fq->flows_cnt, backlog_sum(fq) + qdisc_backlog_aside(q) == q->st.backlog);
    if (q->st.qlen <= fq->limit && !memory_limited)
        return NET_XMIT_SUCCESS;

    uint64_t prev_qlen = q->st.qlen;
    uint32_t ret = fq_codel_drop(q, fq->drop_batch_size);
    prev_qlen -= q->st.qlen;
    fq->drop_overlimit += prev_qlen;
    if (memory_limited)
        fq->drop_overmemory += prev_qlen;
    INVARIANT(q->st.qlen <= fq->limit || fq->memory_usage <= fq->memory_limit || !q->st.qlen);
    /* one packet in, at least one out: the limit held before holds after */
    INVARIANT(q->st.qlen <= fq->limit);
    INVARIANT_SUM(fq->flows_cnt, backlog_sum(fq) + qdisc_backlog_aside(q) == q->st.backlog);
    INVARIANT_WALK(fq->flows_cnt, flows_ok(q, fq));
    /* the sender learns that its own flow lost packets */
    return ret == idx ? NET_XMIT_CN : NET_XMIT_SUCCESS;
}

/* ---- dequeue ---- */

static struct skb *dequeue_fn(struct codel_vars *v, void *ctx)
{
    struct qdisc *q = ctx;
    struct fq_codel *fq = q->priv;
    struct fq_flow *flow = container_of(v, struct fq_flow, cvars);
    struct skb *skb = skbq_pop(&flow->q);
    if (skb) {
        fq->backlogs[flow - fq->flows] -= qdisc_pkt_len(skb);
        fq->memory_usage -= skb->truesize;
        qdisc_backlog_out(q, skb);
    }
    return skb;
}

static void drop_fn(struct skb *skb, void *ctx) { qdisc_drop(ctx, skb); }

static struct skb *fq_codel_dequeue(struct qdisc *q, simtime_t now)
{
    struct fq_codel *fq = q->priv;
    codel_time_t t = codel_time(now);
    for (;;) {
        struct fq_flow *head = &fq->new_flows;
        if (list_empty(head)) {
            head = &fq->old_flows;
            if (list_empty(head))
                return NULL;
        }
        struct fq_flow *flow = head->next;
        if (flow->deficit <= 0) {
            flow->deficit += (int32_t)fq->quantum;
            list_move_tail(fq, flow, &fq->old_flows);
            continue;
        }
        uint32_t prev_drop_count = fq->cstats.drop_count;
        uint64_t prev_ecn_mark = fq->cstats.ecn_mark;
        struct skb *skb = codel_dequeue(q, &q->st.backlog, &fq->cparams, &flow->cvars, &fq->cstats, drop_fn,
                                        dequeue_fn, t);
        flow->dropped += fq->cstats.drop_count - prev_drop_count;
        flow->dropped += (uint32_t)(fq->cstats.ecn_mark - prev_ecn_mark);
        if (!skb) {
            /* an emptied new flow goes behind the old ones, if any, so
             * that a flow cannot starve them by staying new */
            if (head == &fq->new_flows && !list_empty(&fq->old_flows)) {
                list_move_tail(fq, flow, &fq->old_flows);
            } else {
                /* dequeue serves only the flows on its lists: one that
                 * left them holding packets would keep them until its
                 * next enqueue (codel_dequeue answers NULL only empty) */
                INVARIANT(!flow->q.len && !fq->backlogs[flow - fq->flows]);
                list_unlink(fq, flow);
            }
            continue;
        }
        qdisc_sent(q, skb);
        flow->deficit -= (int32_t)qdisc_pkt_len(skb);
        INVARIANT_SUM(fq->flows_cnt, backlog_sum(fq) + qdisc_backlog_aside(q) == q->st.backlog);
        INVARIANT_WALK(fq->flows_cnt, flows_ok(q, fq));
        /* the kernel's deferred qdisc_tree_reduce_backlog: no parent
         * here, the scratch is reset as it would be */
        if (fq->cstats.drop_count && q->st.qlen) {
            fq->cstats.drop_count = 0;
            fq->cstats.drop_len = 0;
        }
        return skb;
    }
}

static void fq_codel_reset(struct qdisc *q)
{
    struct fq_codel *fq = q->priv;
    list_init(&fq->new_flows);
    list_init(&fq->old_flows);
    for (uint32_t i = 0; fq->flows && i < fq->flows_cnt; i++) {
        struct fq_flow *f = &fq->flows[i];
        skbq_purge(&f->q);
        list_init(f);
        f->on = ON_NONE;
        codel_vars_init(&f->cvars);
        fq->backlogs[i] = 0;
    }
    fq->new_flows_len = fq->old_flows_len = 0;
    q->st.qlen = q->st.backlog = 0;
    fq->memory_usage = 0;
}

static void fq_codel_destroy(struct qdisc *q)
{
    struct fq_codel *fq = q->priv;
    free(fq->flows);
    free(fq->backlogs);
    fq->flows = NULL;
    fq->backlogs = NULL;
}

/* ---- tc -s ---- */

static void print_time_us(FILE *f, const char *fmt, uint64_t us)
{
    char b[32];
    fprintf(f, fmt, qdisc_fmt_time(b, sizeof b, (simtime_t)us * PS_PER_US));
}

/* q_fq_codel.c's fq_codel_print_opt (4.15 prints no drop_batch) */
static void fq_codel_dump(const struct qdisc *q, FILE *f)
{
    const struct fq_codel *fq = q->priv;
    char b[32];
    fprintf(f, "limit %up flows %u quantum %u ", fq->limit, fq->flows_cnt, fq->quantum);
    print_time_us(f, "target %s ", codel_time_to_us(fq->cparams.target));
    if (fq->cparams.ce_threshold != CODEL_DISABLED_THRESHOLD)
        print_time_us(f, "ce_threshold %s ", codel_time_to_us(fq->cparams.ce_threshold));
    print_time_us(f, "interval %s ", codel_time_to_us(fq->cparams.interval));
    fprintf(f, "memory_limit %s ", qdisc_fmt_size(b, sizeof b, fq->memory_limit));
    if (fq->cparams.ecn)
        fputs("ecn ", f);
}

static void fq_codel_dump_stats(const struct qdisc *q, FILE *f)
{
    const struct fq_codel *fq = q->priv;
    fprintf(f, "  maxpacket %llu drop_overlimit %llu new_flow_count %llu ecn_mark %llu",
            (unsigned long long)fq->cstats.maxpacket, (unsigned long long)fq->drop_overlimit,
            (unsigned long long)fq->new_flow_count, (unsigned long long)fq->cstats.ecn_mark);
    if (fq->cstats.ce_mark)
        fprintf(f, " ce_mark %llu", (unsigned long long)fq->cstats.ce_mark);
    if (fq->memory_usage)
        fprintf(f, " memory_used %llu", (unsigned long long)fq->memory_usage);
    if (fq->drop_overmemory)
        fprintf(f, " drop_overmemory %llu", (unsigned long long)fq->drop_overmemory);
    fprintf(f, "\n  new_flows_len %llu old_flows_len %llu\n", (unsigned long long)fq->new_flows_len,
            (unsigned long long)fq->old_flows_len);
}

static int fq_codel_xstats(const struct qdisc *q, struct qdisc_xstat *x)
{
    const struct fq_codel *fq = q->priv;
    const struct qdisc_xstat all[] = {
        { "maxpacket", &fq->cstats.maxpacket },       { "drop_overlimit", &fq->drop_overlimit },
        { "new_flow_count", &fq->new_flow_count },    { "ecn_mark", &fq->cstats.ecn_mark },
        { "new_flows_len", &fq->new_flows_len },      { "old_flows_len", &fq->old_flows_len },
        { "ce_mark", &fq->cstats.ce_mark },           { "memory_used", &fq->memory_usage },
        { "drop_overmemory", &fq->drop_overmemory },
    };
    int k = (int)(sizeof all / sizeof all[0]);
    for (int i = 0; i < k; i++)
        x[i] = all[i];
    return k;
}

const struct qdisc_ops qdisc_fq_codel = {
    .name = "fq_codel", .bypass = true, .params = fq_codel_params, .priv_size = sizeof(struct fq_codel),
    .doc = "flow queues with CoDel each, served by deficit round robin, new flows first; the fattest flow "
           "loses packets at the limit (sch_fq_codel.c, Linux 4.15)",
    .init = fq_codel_init, .enqueue = fq_codel_enqueue, .dequeue = fq_codel_dequeue, .reset = fq_codel_reset,
    .destroy = fq_codel_destroy, .dump = fq_codel_dump, .dump_stats = fq_codel_dump_stats,
    .xstats = fq_codel_xstats, .mem = fq_codel_mem,
};
VARIANT("qdisc", qdisc_fq_codel);
