/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * red.c - red (sch_red.c, Linux 4.15, with red.h's arithmetic): Random
 * Early Detection on the average backlog in bytes, in front of a bfifo of
 * limit bytes. Between min and max the packet is marked (ecn, and
 * ECN-capable) or dropped with a probability rising to max_P; above max
 * always (harddrop: dropped even when it could be marked). adaptive
 * moves max_P every 500 ms to keep the average within the middle fifth
 * of [min, max] (Floyd, Gummadi, Shenker 2001).
 *
 * The options are tc 4.15's: q_red.c fills the missing thresholds, burst
 * and bandwidth, and tc_red.c derives Wlog, Plog, Scell_log and the idle
 * table from them, here at init. prandom_u32 is the discipline's own
 * stream (struct qdisc's rng).
 */
#include <math.h>
#include "models/qdisc/red.h"
#include "models/qdisc/sums.h"

/* ---- include/net/red.h, lib/reciprocal_div.c ---- */

static int fls32(uint32_t x) { return x ? 32 - __builtin_clz(x) : 0; }

struct reciprocal_value reciprocal_value(uint32_t d)
{
    struct reciprocal_value r;
    int l = fls32(d - 1);
    uint64_t m = ((1ULL << 32) * ((1ULL << l) - d)) / d + 1;
    r.m = (uint32_t)m;
    r.sh1 = (uint8_t)(l < 1 ? l : 1);
    r.sh2 = (uint8_t)(l - 1 > 0 ? l - 1 : 0);
    return r;
}

bool red_check_params(uint32_t qth_min, uint32_t qth_max, uint8_t Wlog)
{
    if (fls32(qth_min) + Wlog > 32 || fls32(qth_max) + Wlog > 32)
        return false;
    return qth_max >= qth_min;
}

void red_set_parms(struct red_parms *p, uint32_t qth_min, uint32_t qth_max, uint8_t Wlog, uint8_t Plog,
                   uint8_t Scell_log, const uint8_t *stab, uint32_t max_P)
{
    int delta = (int)(qth_max - qth_min);
    p->qth_min = qth_min << Wlog;
    p->qth_max = qth_max << Wlog;
    p->Wlog = Wlog;
    p->Plog = Plog;
    if (delta <= 0)
        delta = 1;
    p->qth_delta = (uint32_t)delta;
    if (!max_P) {                /* max_P = (max - min) / 2^Plog */
        max_P = Plog < 32 ? ~0U >> Plog : ~0U;
        max_P *= (uint32_t)delta;
    }
    p->max_P = max_P;
    uint32_t max_p_delta = max_P / (uint32_t)delta;
    p->max_P_reciprocal = reciprocal_value(max_p_delta > 1 ? max_p_delta : 1);
    delta /= 5;
    p->target_min = qth_min + 2 * (uint32_t)delta;
    p->target_max = qth_min + 3 * (uint32_t)delta;
    p->Scell_log = Scell_log;
    p->Scell_max = 255u << Scell_log;
    if (stab)
        for (int i = 0; i < RED_STAB_SIZE; i++)
            p->Stab[i] = stab[i];
}

void red_set_vars(struct red_vars *v)
{
    v->qavg = 0;
    v->qcount = -1;
}

uint64_t red_calc_qavg_from_idle_time(const struct red_parms *p, const struct red_vars *v, simtime_t now)
{
    /* ktime_us_delta: nanoseconds apart, then whole microseconds */
    int64_t delta = (now / PS_PER_NS - v->qidlestart / PS_PER_NS) / 1000;
    int64_t us_idle = delta < (int64_t)p->Scell_max ? delta : (int64_t)p->Scell_max;
    int shift = p->Stab[(us_idle >> p->Scell_log) & RED_STAB_MASK];
    if (shift)
        return v->qavg >> shift;
    /* (1 - W)^m ~ 1 - mW where the table is too coarse */
    uint64_t dec = (v->qavg * (uint64_t)us_idle) >> p->Scell_log;
    return dec < (v->qavg >> 1) ? v->qavg - dec : v->qavg >> 1;
}

int red_action(const struct red_parms *p, struct red_vars *v, uint64_t qavg, uint32_t (*draw)(void *), void *ctx)
{
    if (qavg < p->qth_min) {
        v->qcount = -1;
        return RED_DONT_MARK;
    }
    if (qavg >= p->qth_max) {
        v->qcount = -1;
        return RED_HARD_MARK;
    }
    if (++v->qcount) {
        if (red_mark_probability(p, v, qavg)) {
            v->qcount = 0;
            v->qR = red_random(p, draw(ctx));
            return RED_PROB_MARK;
        }
    } else {
        v->qR = red_random(p, draw(ctx));
    }
    return RED_DONT_MARK;
}

void red_adaptative_algo(struct red_parms *p, struct red_vars *v, simtime_t now)
{
    uint64_t qavg = v->idling ? red_calc_qavg_from_idle_time(p, v, now) : v->qavg;
    qavg >>= p->Wlog;
    if (qavg > p->target_max && p->max_P <= MAX_P_MAX)
        p->max_P += p->max_P / 4 < MAX_P_MIN ? p->max_P / 4 : MAX_P_MIN;   /* + alpha */
    else if (qavg < p->target_min && p->max_P >= MAX_P_MIN)
        p->max_P = (p->max_P / 10) * 9;                                      /* x beta */
    uint32_t max_p_delta = (p->max_P + p->qth_delta / 2) / p->qth_delta;     /* DIV_ROUND_CLOSEST */
    p->max_P_reciprocal = reciprocal_value(max_p_delta > 1 ? max_p_delta : 1);
}

/* ---- iproute2 4.15's tc_red.c, tc_core.c ---- */

int tc_red_eval_ewma(uint32_t qmin, uint32_t burst, uint32_t avpkt, const char **why)
{
    double W = 0.5;
    double a = (double)burst + 1 - (double)qmin / avpkt;
    if (a < 1.0) {
        *why = "burst is too small for min/avpkt (tc_red_eval_ewma: burst + 1 - min/avpkt < 1)";
        return -1;
    }
    for (int wlog = 1; wlog < 32; wlog++, W /= 2)
        if (a <= (1 - pow(1 - W, burst)) / W)
            return wlog;
    *why = "no EWMA constant fits that burst (tc_red_eval_ewma)";
    return -1;
}

int tc_red_eval_P(uint32_t qmin, uint32_t qmax, double prob)
{
    int i = (int)(qmax - qmin);
    if (i <= 0)
        return -1;
    prob /= i;
    for (i = 0; i < 32; i++) {
        if (prob > 1.0)
            break;
        prob *= 2;
    }
    return i >= 32 ? -1 : i;
}

/* A double into tc's __u8 as x86-64 converts it: through a 32-bit int,
 * whose overflow value INT_MIN has a low byte of 0 */
static uint8_t to_u8(double x)
{
    if (!(x > -2147483649.0 && x < 2147483648.0))
        return 0;
    return (uint8_t)(int32_t)x;
}

int tc_red_eval_idle_damping(int Wlog, uint32_t avpkt, uint32_t bytes_per_s, uint8_t *sbuf)
{
    /* tc_calc_xmittime: whole microseconds, then psched ticks of 64 ns
     * (/proc/net/psched of a 4.15 kernel: tick_in_usec 1000 / 64) */
    unsigned us = (unsigned)(1000000.0 * ((double)avpkt / (double)bytes_per_s));
    double xmit_time = (unsigned)(us * (1000.0 / 64));
    double lW = -log(1.0 - ldexp(1.0, -Wlog)) / xmit_time;   /* 1 / 2^Wlog: Wlog may be 31 */
    double maxtime = 31 / lW;
    int clog;
    for (clog = 0; clog < 32; clog++)
        if (maxtime / (double)(1ULL << clog) < 512)
            break;
    if (clog >= 32)
        return -1;
    sbuf[0] = 0;
    for (int i = 1; i < 255; i++) {
        sbuf[i] = to_u8((double)((int64_t)i << clog) * lW);
        if (sbuf[i] > 31)
            sbuf[i] = 31;
    }
    sbuf[255] = 31;
    return clog;
}

uint32_t tc_red_max_P(double probability) { return (uint32_t)(uint64_t)(probability * 4294967296.0); }

/* ---- the discipline ---- */

enum { P_LIMIT, P_MIN, P_MAX, P_AVPKT, P_BURST, P_PROB, P_BANDWIDTH, P_ECN, P_HARDDROP, P_ADAPTIVE };

static const struct qdisc_param red_params[] = {
    [P_LIMIT] = { "limit", QP_SIZE, NULL, "bytes the bfifo behind RED holds (required)", NULL },
    [P_MIN] = { "min", QP_SIZE, NULL, "average backlog where marking starts (default max / 3)", NULL },
    [P_MAX] = { "max", QP_SIZE, NULL, "average backlog where every packet is marked (default 3 x min, or limit / 4)",
                NULL },
    [P_AVPKT] = { "avpkt", QP_SIZE, NULL, "average packet size, for the EWMA and the idle decay (required)", NULL },
    [P_BURST] = { "burst", QP_COUNT, NULL, "packets the average absorbs, giving Wlog (default (2 min + max) / "
                                           "(3 avpkt))", NULL },
    [P_PROB] = { "probability", QP_PROB, "0.02", "max_P, the marking probability at max (default 0.02)", NULL },
    [P_BANDWIDTH] = { "bandwidth", QP_RATE32, NULL, "rate for the idle decay table (default 10mbit, tc's)", NULL },
    [P_ECN] = { "ecn", QP_FLAG, NULL, "CE-mark ECN-capable packets instead of dropping them", NULL },
    [P_HARDDROP] = { "harddrop", QP_FLAG, NULL, "drop above max even ECN-capable packets", NULL },
    [P_ADAPTIVE] = { "adaptive|adaptative", QP_FLAG, NULL, "adaptive RED: max_P tuned every 500 ms", NULL },
    { NULL, 0, NULL, NULL, NULL },
};

struct red_sched {
    struct skb_queue q;          /* the bfifo child */
    uint32_t limit, qth_min, qth_max;
    bool ecn, harddrop, adaptive;
    struct red_parms parms;
    struct red_vars vars;
    struct qdisc *sch;
    struct event adapt;          /* adapt_timer */
    /* red_stats, and tc_red_xstats' sums of them */
    uint64_t prob_drop, prob_mark, forced_drop, forced_mark, pdrop, other;
    uint64_t early, marked;
    uint64_t max_p;              /* parms.max_P, for the counter row */
};

#define RED_ADAPT_PERIOD (500 * PS_PER_MS)   /* HZ / 2 */

static uint32_t prandom_u32(void *ctx) { return (uint32_t)rng_u32(&((struct qdisc *)ctx)->rng); }

static void adapt_fire(struct event *ev)
{
    struct red_sched *r = ev->ctx;
    struct evq *q = r->sch->root->q;
    red_adaptative_algo(&r->parms, &r->vars, q->now);
    r->max_p = r->parms.max_P;
    evq_push(q, &r->adapt, q->now + RED_ADAPT_PERIOD);
}

static int red_init(struct qdisc *q, const struct qdisc_args *a, char *err, size_t n)
{
    struct red_sched *r = q->priv;
    const char *why = "";
    uint8_t sbuf[RED_STAB_SIZE];
    skbq_init(&r->q);
    r->sch = q;
    event_init(&r->adapt, adapt_fire, r);
    uint32_t limit = (uint32_t)a->v[P_LIMIT], avpkt = (uint32_t)a->v[P_AVPKT];
    uint32_t qmin = (uint32_t)a->v[P_MIN], qmax = (uint32_t)a->v[P_MAX], burst = (uint32_t)a->v[P_BURST];
    if (!limit || !avpkt) {
        snprintf(err, n, "red: limit and avpkt are required (tc: \"Required parameter (limit, avpkt) is missing\")");
        return -1;
    }
    /* q_red.c: Floyd's recommendations for what is not given */
    if (!qmax)
        qmax = qmin ? qmin * 3 : limit / 4;
    if (!qmin)
        qmin = qmax / 3;
    if (!burst)
        burst = (2 * qmin + qmax) / (3 * avpkt);
    uint64_t bits = (a->given & 1u << P_BANDWIDTH) ? (uint64_t)a->v[P_BANDWIDTH] : 10000000;
    uint32_t rate = (uint32_t)(bits / 8);   /* get_rate: bytes per second */
    if (!rate) {
        snprintf(err, n, "red: bandwidth %llubit is under a byte per second", (unsigned long long)bits);
        return -1;
    }
    /* tc_calc_xmittime: avpkt at the bandwidth in 32 bits of
     * microseconds, then of 64-ns ticks (tc's conversions would wrap) */
    if (!(1e6 * avpkt / rate * 15.625 < 4294967296.0)) {
        snprintf(err, n, "red: avpkt %u bytes at bandwidth %u bytes/s take more than 274.9 s to send, past tc's 32 "
                 "bits of 64-ns ticks; expected a higher bandwidth", avpkt, rate);
        return -1;
    }
    int wlog = tc_red_eval_ewma(qmin, burst, avpkt, &why);
    if (wlog < 0) {
        snprintf(err, n, "red: failed to calculate EWMA constant: %s", why);
        return -1;
    }
    int plog = tc_red_eval_P(qmin, qmax, a->p[P_PROB]);
    if (plog < 0) {
        snprintf(err, n, "red: failed to calculate probability (max must exceed min, and probability / (max - min) "
                         "be at least 2^-32)");
        return -1;
    }
    int scell = tc_red_eval_idle_damping(wlog, avpkt, rate, sbuf);
    if (scell < 0) {
        snprintf(err, n, "red: failed to calculate idle damping table");
        return -1;
    }
    /* the kernel's red_change */
    if (!red_check_params(qmin, qmax, (uint8_t)wlog)) {
        snprintf(err, n, "red: min %u max %u with Wlog %d do not fit 32 bits, or max < min (EINVAL)", qmin, qmax,
                 wlog);
        return -1;
    }
    r->limit = limit;
    r->qth_min = qmin;
    r->qth_max = qmax;
    r->ecn = a->v[P_ECN] != 0;
    r->harddrop = a->v[P_HARDDROP] != 0;
    r->adaptive = a->v[P_ADAPTIVE] != 0;
    red_set_parms(&r->parms, qmin, qmax, (uint8_t)wlog, (uint8_t)plog, (uint8_t)scell, sbuf,
                  tc_red_max_P(a->p[P_PROB]));
    red_set_vars(&r->vars);
    r->max_p = r->parms.max_P;
    simtime_t now = q->root ? q->root->q->now : 0;
    if (r->adaptive && q->root)
        evq_push(q->root->q, &r->adapt, now + RED_ADAPT_PERIOD);
    r->vars.idling = true;       /* an empty child: red_start_of_idle_period */
    r->vars.qidlestart = now;
    return 0;
}

/* tc_red_xstats reports early and marked beside the counts they sum,
 * and every drop red makes is one of early or pdrop */
static void red_counts_ok(const struct qdisc *q, const struct red_sched *r)
{
    INVARIANT(r->early == r->prob_drop + r->forced_drop && r->marked == r->prob_mark + r->forced_mark);
    INVARIANT(q->st.drops == r->early + r->pdrop + r->other);
}

static int red_enqueue(struct qdisc *q, struct skb *skb, simtime_t now)
{
    struct red_sched *r = q->priv;
    r->vars.qavg = red_calc_qavg(&r->parms, &r->vars, (uint32_t)q->st.backlog, now);
    /* the average of a backlog that never passes limit stays below
     * (limit + 1) << Wlog (the EWMA's rounding adds less than one unit):
     * more is the 64-bit subtraction of red_calc_qavg_no_idle_time wrapped */
    INVARIANT(r->vars.qavg < ((uint64_t)r->limit + 1) << r->parms.Wlog);
    r->vars.idling = false;
    switch (red_action(&r->parms, &r->vars, r->vars.qavg, prandom_u32, q)) {
    case RED_PROB_MARK:
        q->st.overlimits++;
        if (!r->ecn || !skb_ecn_set_ce(skb)) {
            r->prob_drop++;
            goto congestion_drop;
        }
        r->prob_mark++;
        r->marked++;
        break;
    case RED_HARD_MARK:
        q->st.overlimits++;
        if (r->harddrop || !r->ecn || !skb_ecn_set_ce(skb)) {
            r->forced_drop++;
            goto congestion_drop;
        }
        r->forced_mark++;
        r->marked++;
        break;
    default:
        break;
    }
    /* the bfifo child */
    if (q->st.backlog + qdisc_pkt_len(skb) <= r->limit) {
        skbq_push(&r->q, skb);
        qdisc_backlog_in(q, skb);
        QDISC_LISTS_OK(q, &r->q, 1);
        return NET_XMIT_SUCCESS;
    }
    r->pdrop++;
    qdisc_drop(q, skb);
    red_counts_ok(q, r);
    return NET_XMIT_DROP;

congestion_drop:
    r->early++;
    qdisc_drop(q, skb);
    red_counts_ok(q, r);
    return NET_XMIT_CN;
}

static struct skb *red_dequeue(struct qdisc *q, simtime_t now)
{
    struct red_sched *r = q->priv;
    struct skb *skb = skbq_pop(&r->q);
    if (skb) {
        qdisc_backlog_out(q, skb);
        qdisc_sent(q, skb);
        QDISC_LISTS_OK(q, &r->q, 1);
    } else if (!r->vars.idling) {
        r->vars.idling = true;
        r->vars.qidlestart = now;
    }
    return skb;
}

static void red_reset(struct qdisc *q)
{
    struct red_sched *r = q->priv;
    skbq_purge(&r->q);
    q->st.qlen = q->st.backlog = 0;
    r->vars.idling = false;      /* red_restart */
    r->vars.qavg = 0;
    r->vars.qcount = -1;
}

static void red_destroy(struct qdisc *q)
{
    struct red_sched *r = q->priv;
    if (q->root)
        evq_cancel(q->root->q, &r->adapt);
}

/* q_red.c's red_print_opt (without -d) */
static void red_dump(const struct qdisc *q, FILE *f)
{
    const struct red_sched *r = q->priv;
    char b1[32], b2[32], b3[32];
    fprintf(f, "limit %s min %s max %s ", qdisc_fmt_size(b1, sizeof b1, r->limit),
            qdisc_fmt_size(b2, sizeof b2, r->qth_min), qdisc_fmt_size(b3, sizeof b3, r->qth_max));
    if (r->ecn)
        fputs("ecn ", f);
    if (r->harddrop)
        fputs("harddrop ", f);
    if (r->adaptive)
        fputs("adaptive ", f);
}

static void red_dump_stats(const struct qdisc *q, FILE *f)
{
    const struct red_sched *r = q->priv;
    fprintf(f, "  marked %llu early %llu pdrop %llu other %llu\n", (unsigned long long)r->marked,
            (unsigned long long)r->early, (unsigned long long)r->pdrop, (unsigned long long)r->other);
}

static int red_xstats(const struct qdisc *q, struct qdisc_xstat *x)
{
    const struct red_sched *r = q->priv;
    const struct qdisc_xstat all[] = {
        { "marked", &r->marked },           { "early", &r->early },
        { "pdrop", &r->pdrop },             { "other", &r->other },
        { "prob_mark", &r->prob_mark },     { "forced_mark", &r->forced_mark },
        { "prob_drop", &r->prob_drop },     { "forced_drop", &r->forced_drop },
        { "max_p", &r->max_p },
    };
    int k = (int)(sizeof all / sizeof all[0]);
    for (int i = 0; i < k; i++)
        x[i] = all[i];
    return k;
}

const struct red_parms *red_qdisc_parms(const struct qdisc *q) { return &((const struct red_sched *)q->priv)->parms; }
const struct red_vars *red_qdisc_vars(const struct qdisc *q) { return &((const struct red_sched *)q->priv)->vars; }

const struct qdisc_ops qdisc_red = {
    .name = "red", .params = red_params, .priv_size = sizeof(struct red_sched),
    .doc = "Random Early Detection on the average backlog in bytes, before a bfifo of limit bytes; ecn, harddrop, "
           "adaptive (sch_red.c and tc's q_red.c/tc_red.c, Linux 4.15)",
    .init = red_init, .enqueue = red_enqueue, .dequeue = red_dequeue, .reset = red_reset, .destroy = red_destroy,
    .dump = red_dump, .dump_stats = red_dump_stats, .xstats = red_xstats,
};
VARIANT("qdisc", qdisc_red);
