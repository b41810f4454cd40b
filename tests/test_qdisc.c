/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_qdisc.c - the queueing disciplines against the kernel's arithmetic
 * (Linux 4.15): tc's units, the FIFOs' limits, pfifo_fast's bands, tbf's
 * tokens to the nanosecond (psched_ratecfg), htb's borrowing, fq's DRR
 * and pacing, and BQL's limit (lib/dynamic_queue_limits.c) through a
 * trace worked out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "load/qdisc_parse.h"
#include "sim/dql.h"
#include "sim/pfifo_fast.h"
#include "sim/psched.h"
#include "sim/qdisc.h"
#include "sim/sim.h"
#include "sim/sock.h"

static const struct qdisc_dev dev = { .mtu = 1500, .hard_header_len = 14, .txqueuelen = 1000,
                                      .num_tx_queues = 1, .rate = 10000000000ULL };
static char err[600];

static struct qdisc *make(const char *tc)
{
    struct qdisc_args a;
    if (qdisc_parse(tc, &a, err, sizeof err))
        fail_msg("%s: %s", tc, err);
    struct qdisc *q = qdisc_create(&a, &dev, NULL, "root", err, sizeof err);
    if (!q)
        fail_msg("%s: %s", tc, err);
    return q;
}

static struct skb *pkt(uint32_t ip_len, uint32_t hash)
{
    struct skb *s = skb_alloc();
    s->ip_len = ip_len;
    s->hash = hash;
    s->proto = IPPROTO_UDP_;
    s->payload = ip_len - 28;
    return s;
}

static void test_units(void **state)
{
    (void)state;
    struct qdisc_args a;
    /* tc's get_size: kb is 1024, kbit is 1024/8; get_time: bare is us */
    assert_int_equal(qdisc_parse("tbf rate 1mbit burst 10kb latency 50", &a, err, sizeof err), 0);
    assert_int_equal(a.v[1], 10240);
    assert_int_equal(a.v[3], 50 * PS_PER_US);
    assert_int_equal(a.v[0], 1000000);
    assert_int_equal(qdisc_parse("tbf rate 1mbit buffer 8kbit limit 1mb", &a, err, sizeof err), 0);
    assert_int_equal(a.v[1], 1024);
    assert_int_equal(a.v[2], 1048576);
    assert_int_equal(qdisc_parse("tbf rate 1mbit burst 10kb latency 5msec", &a, err, sizeof err), 0);
    assert_int_equal(a.v[3], 5 * PS_PER_MS);
    /* errors name what was wrong and what is accepted */
    assert_int_equal(qdisc_parse("pfifo size 3", &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown option 'size'; pfifo takes limit NUMBER"));
    assert_int_equal(qdisc_parse("pfifo limit", &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "'limit' needs a value"));
    assert_int_equal(qdisc_parse("sfq", &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "expected one of pfifo_fast"));
    assert_null(qdisc_create(&(struct qdisc_args){ .ops = variant_find("qdisc", "tbf") }, &dev, NULL, "root", err,
                             sizeof err));
    assert_non_null(strstr(err, "\"rate\" parameter is mandatory"));
}

static void test_fifos(void **state)
{
    (void)state;
    struct qdisc *q = make("pfifo limit 3");
    for (int i = 0; i < 3; i++)
        assert_int_equal(qdisc_enqueue(q, pkt(1500, 1), 0), NET_XMIT_SUCCESS);
    assert_int_equal(qdisc_enqueue(q, pkt(1500, 1), 0), NET_XMIT_DROP);
    assert_int_equal(q->st.qlen, 3);
    assert_int_equal(q->st.backlog, 3 * 1514);
    assert_int_equal(q->st.drops, 1);
    qdisc_destroy(q);
    /* bfifo counts bytes: 3 frames of 1514 fit in 5000, a fourth does not */
    q = make("bfifo limit 5000");
    for (int i = 0; i < 3; i++)
        assert_int_equal(qdisc_enqueue(q, pkt(1500, 1), 0), NET_XMIT_SUCCESS);
    assert_int_equal(qdisc_enqueue(q, pkt(1500, 1), 0), NET_XMIT_DROP);
    assert_int_equal(qdisc_enqueue(q, pkt(400, 1), 0), NET_XMIT_SUCCESS);   /* 4542 + 414 <= 5000 */
    qdisc_destroy(q);
    /* the default limits: txqueuelen packets, txqueuelen x psched_mtu bytes */
    q = make("bfifo");
    for (int i = 0; i < 1000; i++)
        assert_int_equal(qdisc_enqueue(q, pkt(1500, 1), 0), NET_XMIT_SUCCESS);
    assert_int_equal(qdisc_enqueue(q, pkt(1500, 1), 0), NET_XMIT_DROP);
    qdisc_destroy(q);
    /* pfifo_head_drop keeps the newest */
    q = make("pfifo_head_drop limit 2");
    struct skb *a = pkt(100, 1), *b = pkt(200, 1), *c = pkt(300, 1);
    qdisc_enqueue(q, a, 0);
    qdisc_enqueue(q, b, 0);
    assert_int_equal(qdisc_enqueue(q, c, 0), NET_XMIT_CN);
    assert_ptr_equal(q->ops->dequeue(q, 0), b);
    assert_ptr_equal(q->ops->dequeue(q, 0), c);
    skb_free(b);
    skb_free(c);
    qdisc_destroy(q);
}

static void test_pfifo_fast(void **state)
{
    (void)state;
    struct qdisc *q = make("pfifo_fast");
    /* TOS 0x10 (low delay) is band 0, 0 is band 1, 0x08 (throughput) band 2;
     * the ECN bits do not count */
    struct skb *bulk = pkt(100, 1), *normal = pkt(100, 1), *fast = pkt(100, 1);
    bulk->tos = 0x08;
    normal->tos = INET_ECN_CE;
    fast->tos = 0x10;
    qdisc_enqueue(q, bulk, 0);
    qdisc_enqueue(q, normal, 0);
    qdisc_enqueue(q, fast, 0);
    assert_ptr_equal(q->ops->dequeue(q, 0), fast);
    assert_ptr_equal(q->ops->dequeue(q, 0), normal);
    assert_ptr_equal(q->ops->dequeue(q, 0), bulk);
    skb_free(bulk);
    skb_free(normal);
    skb_free(fast);
    qdisc_destroy(q);

    /* every TOS: the band is sch_generic.c's prio2band of route.c's
     * ip_tos2prio (the engine keeps the two as one table) */
    static const uint8_t prio2band[16] = { 1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1 };
    static const uint8_t tos2prio[16] = { 0, 0, 0, 0, 2, 2, 2, 2, 6, 6, 6, 6, 4, 4, 4, 4 };
    for (unsigned tos = 0; tos < 256; tos++) {
        struct skb *s = pkt(100, 1);
        s->tos = (uint8_t)tos;
        assert_int_equal(pfifo_fast_band(s), prio2band[tos2prio[(tos & 0x1E) >> 1]]);
        skb_free(s);
    }
}

static void test_tbf(void **state)
{
    (void)state;
    /* 500 Mbit/s is 62.5 MB/s: mult 2^31 at shift 27, 1514 bytes 24224 ns */
    struct psched_ratecfg r;
    psched_ratecfg_precompute(&r, 62500000, 0);
    assert_int_equal(r.mult, 1u << 31);
    assert_int_equal(r.shift, 27);
    assert_int_equal(psched_l2t_ns(&r, 1514), 24224);
    /* burst 64kb: 1048.576 us = 16384 ticks of 64 ns; the bucket passes
     * 43 frames at once (43 x 24224 = 1041632, 6944 ns left), then one
     * each 24224 ns, the first 17280 ns after the burst */
    struct qdisc *q = make("tbf rate 500mbit burst 64kb limit 1mb");
    simtime_t t0 = PS_PER_S;
    for (int i = 0; i < 100; i++)
        assert_int_equal(qdisc_enqueue(q, pkt(1500, 1), t0), NET_XMIT_SUCCESS);
    int n = 0;
    struct skb *s;
    while ((s = q->ops->dequeue(q, t0))) {
        skb_free(s);
        n++;
    }
    assert_int_equal(n, 43);
    assert_int_equal(q->st.overlimits, 1);
    assert_null(q->ops->dequeue(q, t0 + 17279 * PS_PER_NS));
    s = q->ops->dequeue(q, t0 + 17280 * PS_PER_NS);
    assert_non_null(s);
    skb_free(s);
    assert_null(q->ops->dequeue(q, t0 + (17280 + 24223) * PS_PER_NS));
    s = q->ops->dequeue(q, t0 + (17280 + 24224) * PS_PER_NS);
    assert_non_null(s);
    skb_free(s);
    assert_int_equal(q->st.qlen, 100 - 45);
    assert_int_equal(q->st.packets, 45);
    qdisc_destroy(q);
    /* a frame longer than the bucket can ever hold is dropped at once */
    q = make("tbf rate 1mbit burst 1000 limit 10kb");
    assert_int_equal(qdisc_enqueue(q, pkt(1500, 1), 0), NET_XMIT_DROP);
    qdisc_destroy(q);
}

/* htb through the engine: a device that takes everything, and the
 * watchdog's events; bytes per class over one simulated second */
static uint64_t sent_by[3];
static bool dev_stopped(void *d, unsigned txq)
{
    (void)d;
    (void)txq;
    return false;
}
static void dev_xmit(void *d, struct skb *skb, simtime_t t, void *core)
{
    (void)d;
    (void)t;
    (void)core;
    sent_by[skb->hash] += skb->ip_len + 14;
    skb_free(skb);
}
static const struct qdisc_dev_ops sink_dev = { dev_stopped, dev_xmit };

static void htb_run(const char *c10, const char *c20, bool both, uint64_t *b10, uint64_t *b20)
{
    struct evq q;
    evq_init(&q);
    evq_current = &q;
    struct qdisc_args a;
    struct qdisc_class_spec cl[3];
    struct qdisc_dev d = dev;
    d.txqueuelen = 200000;
    assert_int_equal(qdisc_parse("htb default 20", &a, err, sizeof err), 0);
    assert_int_equal(qdisc_parse_class(a.ops, 1, "parent 1: rate 1gbit", &cl[0], err, sizeof err), 0);
    assert_int_equal(qdisc_parse_class(a.ops, 0x10, c10, &cl[1], err, sizeof err), 0);
    assert_int_equal(qdisc_parse_class(a.ops, 0x20, c20, &cl[2], err, sizeof err), 0);
    struct qdisc_filter_spec f = { .flowid = 0x10, .dport = 1, .dport_mask = 0xffff };
    a.classes = cl;
    a.nclasses = 3;
    a.filters = &f;
    a.nfilters = 1;
    struct qdisc_root *r = qdisc_root_new(&a, &d, &q, &sink_dev, NULL, err, sizeof err);
    assert_non_null(r);
    memset(sent_by, 0, sizeof sent_by);
    for (int i = 0; i < 100000; i++)
        for (int k = 1; k <= (both ? 2 : 1); k++) {
            struct skb *s = pkt(1500, (uint32_t)k);
            s->dport = (uint16_t)(k == 1);
            qdisc_root_xmit(r, s, 0, NULL);
        }
    evq_run(&q, PS_PER_S);
    *b10 = sent_by[1];
    *b20 = sent_by[2];
    qdisc_root_free(r);
    evq_free(&q);
}

#define SLACK (1600 + 1600 + 2 * 1514)
static void test_htb(void **state)
{
    (void)state;
    uint64_t a, b;
    /* both classes busy: each gets its rate, 600 and 400 Mbit/s of frames,
     * within what the buckets start with (its burst and the parent's, 1600
     * bytes each, as tc sizes them) and a frame either side: SLACK */
    htb_run("parent 1:1 rate 600mbit ceil 1gbit", "parent 1:1 rate 400mbit ceil 1gbit", true, &a, &b);
    assert_in_range(a, 75000000 - SLACK, 75000000 + SLACK);
    assert_in_range(b, 50000000 - SLACK, 50000000 + SLACK);
    /* 1:20 idle: 1:10 borrows up to its ceil, the parent's 1 Gbit/s */
    htb_run("parent 1:1 rate 600mbit ceil 1gbit", "parent 1:1 rate 400mbit ceil 1gbit", false, &a, &b);
    assert_in_range(a, 125000000 - SLACK, 125000000 + SLACK);
    assert_int_equal(b, 0);
    /* without a ceil a class may not borrow: 600 Mbit/s alone */
    htb_run("parent 1:1 rate 600mbit", "parent 1:1 rate 400mbit", false, &a, &b);
    assert_in_range(a, 75000000 - SLACK, 75000000 + SLACK);
    /* prio: both may borrow the 200 Mbit/s left over by rates of 500 and
     * 300; prio 0 borrows first and takes it all */
    htb_run("parent 1:1 rate 500mbit ceil 1gbit prio 1", "parent 1:1 rate 300mbit ceil 1gbit prio 0", true, &a, &b);
    assert_in_range(a, 62500000 - SLACK, 62500000 + SLACK);
    assert_in_range(b, 62500000 - SLACK, 62500000 + SLACK);
}

static uint64_t pace_rate(const struct sock *sk)
{
    (void)sk;
    return 1000000;              /* 8 Mbit/s */
}

static void test_fq(void **state)
{
    (void)state;
    struct qdisc *q = make("fq");
    /* two socketless flows: a new flow spends initial_quantum (10 frames of
     * 1514) first, then they take turns of quantum (2 frames) */
    for (int i = 0; i < 30; i++) {
        qdisc_enqueue(q, pkt(1500, 1), 0);
        qdisc_enqueue(q, pkt(1500, 2), 0);
    }
    uint32_t order[40];
    for (int i = 0; i < 40; i++) {
        struct skb *s = q->ops->dequeue(q, 0);
        order[i] = s->hash;
        skb_free(s);
    }
    for (int i = 0; i < 10; i++) {
        assert_int_equal(order[i], 1);
        assert_int_equal(order[10 + i], 2);
    }
    for (int i = 20; i < 40; i++)
        assert_int_equal(order[i], (uint32_t)(1 + ((i - 20) / 2) % 2));
    qdisc_destroy(q);
    /* a socket paced at 1 MB/s: its initial credit goes unpaced, then a
     * quantum of 3028 bytes per 3.028 ms */
    q = make("fq");
    struct sock sk;
    memset(&sk, 0, sizeof sk);
    sk.pacing_rate = pace_rate;
    for (int i = 0; i < 20; i++) {
        struct skb *s = pkt(1500, 7);
        s->sk = &sk;
        qdisc_enqueue(q, s, 0);
    }
    assert_int_equal(sk.pacing_status, SK_PACING_FQ);
    simtime_t t = PS_PER_MS;
    for (int i = 0; i < 10; i++)
        skb_free(q->ops->dequeue(q, t));
    assert_null(q->ops->dequeue(q, t));
    assert_null(q->ops->dequeue(q, t + 3028 * PS_PER_US - 1));
    struct skb *s = q->ops->dequeue(q, t + 3028 * PS_PER_US);
    assert_non_null(s);
    skb_free(s);
    qdisc_destroy(q);
}

static void test_dql(void **state)
{
    (void)state;
    struct dql d;
    memset(&d, 0, sizeof d);
    dql_init(&d, 1000, 0);
    /* the limit starts at 0: the first frame stops the queue */
    dql_queued(&d, 1514);
    assert_true(dql_avail(&d) < 0);
    /* it completes with nothing behind it, over the limit: starved, the
     * limit grows by what completed (1514) */
    dql_completed(&d, 1514, 0);
    assert_int_equal(d.limit, 1514);
    assert_int_equal(dql_avail(&d), 1514);
    /* three more; one completes: busy, no change, 3028 over the limit */
    for (int i = 0; i < 3; i++)
        dql_queued(&d, 1514);
    dql_completed(&d, 1514, 0);
    assert_int_equal(d.limit, 1514);
    assert_int_equal(d.adj_limit, 4542);
    assert_int_equal(d.prev_ovlimit, 3028);
    /* the rest complete and the ring runs dry: the previous over-limit
     * joins the limit */
    dql_completed(&d, 3028, 0);
    assert_int_equal(d.limit, 4542);
    assert_int_equal(dql_avail(&d), 4542);
    /* busy for two intervals with 1514 of slack each: after the hold time
     * (1000 jiffies) the limit loses its least slack */
    for (int i = 0; i < 3; i++)
        dql_queued(&d, 1514);
    dql_completed(&d, 1514, 1500);
    assert_int_equal(d.limit, 4542);
    dql_queued(&d, 1514);
    dql_completed(&d, 1514, 2000);
    assert_int_equal(d.limit, 3028);
}

int main(void)
{
    models_install();   /* the engine's modules and variants (sim/sim.h) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units), cmocka_unit_test(test_fifos), cmocka_unit_test(test_pfifo_fast),
        cmocka_unit_test(test_tbf),   cmocka_unit_test(test_htb),   cmocka_unit_test(test_fq),
        cmocka_unit_test(test_dql),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
