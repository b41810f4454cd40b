/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_qdisc_tree.c - a port's tree as the engine builds, runs and frees
 * it, where it once broke: htb's depth limit (TC_HTB_MAXDEPTH) and the
 * rate a deep chain borrows, the netem leaves of a tree whose leaf class
 * becomes inner, htb without classes or filters, a discipline whose init
 * fails freeing what it built, fifo_init's bypass for limits below one
 * packet, pfifo_head_drop meeting a requeued packet, mq's requeues held
 * by each child (a stopped TX queue holds back only its own), and rates counted
 * in bytes per second as tc hands them over.
 */
#include <malloc.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "load/qdisc_parse.h"
#include "sim/qdisc.h"
#include "sim/sim.h"

static const struct qdisc_dev dev = { .mtu = 1500, .hard_header_len = 14, .txqueuelen = 1000,
                                      .num_tx_queues = 1, .rate = 10000000000ULL };
static char err[600];

/* A device that takes every packet unless stopped; bytes of frames sent. */
static bool stopped, stopped_q[2];   /* every TX queue, or one */
static uint64_t sent_bytes, sent_pkts;
static bool dev_stopped(void *d, unsigned txq)
{
    (void)d;
    return stopped || (txq < 2 && stopped_q[txq]);
}
static void dev_xmit(void *d, struct skb *skb, simtime_t t, void *core)
{
    (void)d;
    (void)t;
    (void)core;
    sent_bytes += skb->ip_len + 14;
    sent_pkts++;
    skb_free(skb);
}
static const struct qdisc_dev_ops sink_dev = { dev_stopped, dev_xmit };

static struct skb *pkt(uint32_t ip_len)
{
    struct skb *s = skb_alloc();
    s->ip_len = ip_len;
    s->proto = IPPROTO_UDP_;
    s->payload = ip_len - 28;
    return s;
}

static uint64_t in_use;
static struct evq q;
static int setup(void **state)
{
    (void)state;
    in_use = skb_in_use();
    evq_init(&q);
    evq_current = &q;
    stopped = stopped_q[0] = stopped_q[1] = false;
    sent_bytes = sent_pkts = 0;
    return 0;
}
static int teardown(void **state)
{
    (void)state;
    evq_free(&q);
    assert_int_equal(skb_in_use(), in_use);
    return 0;
}

/* htb with classes "MINOR parent 1:P options" (hex minors), from tc's words */
static int htb_args(const char *top, const char *const *classes, int n, struct qdisc_args *a,
                    struct qdisc_class_spec *cl)
{
    assert_int_equal(qdisc_parse(top, a, err, sizeof err), 0);
    for (int i = 0; i < n; i++) {
        char *end;
        unsigned long minor = strtoul(classes[i], &end, 16);
        if (qdisc_parse_class(a->ops, (uint32_t)minor, end + 1, &cl[i], err, sizeof err))
            return -1;
    }
    a->classes = cl;
    a->nclasses = (uint32_t)n;
    return 0;
}

/* A chain of 8 classes is as deep as the kernel goes: its leaf borrows
 * through seven ancestors up to its ceil. A ninth class is refused
 * (htb_change_class: "htb: tree is too deep"); it once got a negative
 * level, overflowed htb_dequeue's table and recorded 49 Mbit/s. */
static void test_htb_depth(void **state)
{
    (void)state;
    const char *const chain[] = { "1 parent 1: rate 1gbit",          "2 parent 1:1 rate 900mbit ceil 1gbit",
                                  "3 parent 1:2 rate 800mbit ceil 1gbit", "4 parent 1:3 rate 700mbit ceil 1gbit",
                                  "5 parent 1:4 rate 600mbit ceil 1gbit", "6 parent 1:5 rate 500mbit ceil 1gbit",
                                  "7 parent 1:6 rate 400mbit ceil 1gbit", "8 parent 1:7 rate 100mbit ceil 300mbit",
                                  "9 parent 1:8 rate 50mbit ceil 300mbit" };
    struct qdisc_args a;
    struct qdisc_class_spec cl[9];
    assert_int_equal(htb_args("htb default 9", chain, 9, &a, cl), 0);
    assert_null(qdisc_create(&a, &dev, NULL, "root", err, sizeof err));
    assert_non_null(strstr(err, "class 1:9"));
    assert_non_null(strstr(err, "too deep"));
    assert_non_null(strstr(err, "8"));

    /* 8 deep: 1:8 alone, busy, gets its ceil of 300 Mbit/s, 37.5 MB in a
     * second, within its buckets' start (1600 bytes each of 8) and a frame */
    assert_int_equal(htb_args("htb default 8", chain, 8, &a, cl), 0);
    struct qdisc_dev d = dev;
    d.txqueuelen = 100000;
    struct qdisc_root *r = qdisc_root_new(&a, &d, &q, &sink_dev, NULL, err, sizeof err);
    assert_non_null(r);
    for (int i = 0; i < 40000; i++)
        qdisc_root_xmit(r, pkt(1486), 0, NULL);
    evq_run(&q, PS_PER_S);
    assert_in_range(sent_bytes, 37500000 - 1500, 37500000 + 8 * 1600 + 1500);
    qdisc_root_free(r);
}

/* netem at the leaves of htb: a class that gets a child becomes inner
 * and its leaf goes, netem or not, and no longer counts among the tree's
 * netem leaves (it was freed and still registered: a use-after-free). */
static void test_htb_netem_leaves(void **state)
{
    (void)state;
    const char *const classes[] = { "1 parent 1: rate 1gbit", "10 parent 1:1 rate 600mbit ceil 1gbit",
                                    "20 parent 1:1 rate 400mbit ceil 1gbit" };
    struct qdisc_args a;
    struct qdisc_class_spec cl[3];
    assert_int_equal(htb_args("htb default 20", classes, 3, &a, cl), 0);
    struct qdisc_args o = { .ops = variant_find("qdisc", "netem") };
    netem_opts_init(&o.netem);
    o.netem.latency = PS_PER_MS;
    struct qdisc_root *r = qdisc_root_new_netem(&a, &dev, &q, &sink_dev, NULL, &o, err, sizeof err);
    assert_non_null(r);
    assert_int_equal(r->netem_leaves, 2);
    assert_string_equal(r->netem_leaf[0]->parent, "1:10");
    assert_string_equal(r->netem_leaf[1]->parent, "1:20");
    /* a packet to 1:20 waits netem's millisecond, then leaves */
    qdisc_root_xmit(r, pkt(1000), 0, NULL);
    evq_run(&q, PS_PER_MS - 1);
    assert_int_equal(sent_pkts, 0);
    evq_run(&q, 2 * PS_PER_MS);
    assert_int_equal(sent_pkts, 1);
    qdisc_root_free(r);
}

/* htb with no class and no filter (net.core.default_qdisc = htb): every
 * packet goes to the direct queue, unshaped. */
static void test_htb_alone(void **state)
{
    (void)state;
    struct qdisc_args a;
    assert_int_equal(qdisc_parse("htb", &a, err, sizeof err), 0);
    struct qdisc_root *r = qdisc_root_new(&a, &dev, &q, &sink_dev, NULL, err, sizeof err);
    assert_non_null(r);
    for (int i = 0; i < 3; i++)
        assert_int_equal(qdisc_root_xmit(r, pkt(1500), 0, NULL), NET_XMIT_SUCCESS);
    assert_int_equal(sent_pkts, 3);
    qdisc_root_free(r);
}

/* What the heap holds (glibc's count; 0 under the sanitizers, whose
 * LeakSanitizer checks the same at exit). */
static size_t heap_in_use(void)
{
    return mallinfo2().uordblks;
}

/* An init that fails after building classes frees them: the kernel's
 * qdisc_create calls ->destroy after a failed ->init. */
static void test_failed_init_frees(void **state)
{
    (void)state;
    const char *const classes[] = { "1 parent 1: rate 1gbit", "10 parent 1:1 rate 600mbit ceil 1gbit",
                                    "20 parent 1:1 rate 400mbit ceil 1gbit" };
    struct qdisc_args a;
    struct qdisc_class_spec cl[3];
    assert_int_equal(htb_args("htb default 20", classes, 3, &a, cl), 0);
    struct qdisc_filter_spec f = { .flowid = 0x30, .dport = 1, .dport_mask = 0xffff };
    a.filters = &f;
    a.nfilters = 1;
    /* once, so that whatever the first call allocates for good is there */
    assert_null(qdisc_create(&a, &dev, NULL, "root", err, sizeof err));
    size_t before = heap_in_use();
    for (int i = 0; i < 10; i++)
        assert_null(qdisc_create(&a, &dev, NULL, "root", err, sizeof err));
    assert_non_null(strstr(err, "flowid 1:30 is no class"));
    assert_int_equal(heap_in_use(), before);
}

/* fifo_init: a pfifo of limit 0, or a bfifo below one full frame
 * (psched_mtu, 1514), loses TCQ_F_CAN_BYPASS, so a packet that finds it
 * empty is enqueued, and dropped, not sent past it. */
static void test_fifo_bypass_limits(void **state)
{
    (void)state;
    static const struct {
        const char *tc;
        uint32_t ip_len;
        int ret;
    } cases[] = {
        { "pfifo limit 0", 1500, NET_XMIT_DROP },  { "pfifo_head_drop limit 0", 100, NET_XMIT_DROP },
        { "bfifo limit 0", 100, NET_XMIT_DROP },   { "bfifo limit 1513", 1500, NET_XMIT_DROP },
        { "bfifo limit 1513", 1499, NET_XMIT_SUCCESS }, { "bfifo limit 1514", 1500, NET_XMIT_SUCCESS },
        { "pfifo limit 1", 1500, NET_XMIT_SUCCESS },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct qdisc_args a;
        assert_int_equal(qdisc_parse(cases[i].tc, &a, err, sizeof err), 0);
        struct qdisc_root *r = qdisc_root_new(&a, &dev, &q, &sink_dev, NULL, err, sizeof err);
        assert_non_null(r);
        sent_pkts = 0;
        assert_int_equal(qdisc_root_xmit(r, pkt(cases[i].ip_len), 0, NULL), cases[i].ret);
        assert_int_equal(sent_pkts, cases[i].ret == NET_XMIT_SUCCESS);
        assert_int_equal(r->top->st.drops, cases[i].ret != NET_XMIT_SUCCESS);
        qdisc_root_free(r);
    }
}

/* pfifo_head_drop limit 1 on a stopped queue: the first packet is
 * requeued (it counts in qlen, dev_requeue_skb) and the list is empty;
 * the second finds qlen at the limit, and the head drop finds nothing to
 * drop. As 4.15's pfifo_tail_enqueue: the drop is counted all the same,
 * the packet is queued, the sender told NET_XMIT_CN; both leave once the
 * queue restarts. */
static void test_head_drop_requeued(void **state)
{
    (void)state;
    struct qdisc_args a;
    assert_int_equal(qdisc_parse("pfifo_head_drop limit 1", &a, err, sizeof err), 0);
    struct qdisc_root *r = qdisc_root_new(&a, &dev, &q, &sink_dev, NULL, err, sizeof err);
    assert_non_null(r);
    stopped = true;
    assert_int_equal(qdisc_root_xmit(r, pkt(100), 0, NULL), NET_XMIT_SUCCESS);
    assert_int_equal(r->top->st.qlen, 1);
    assert_int_equal(qdisc_root_xmit(r, pkt(200), 0, NULL), NET_XMIT_CN);
    assert_int_equal(r->top->st.qlen, 2);
    assert_int_equal(r->top->st.drops, 1);
    /* a third: the list's head (the second) goes for it */
    assert_int_equal(qdisc_root_xmit(r, pkt(300), 0, NULL), NET_XMIT_CN);
    assert_int_equal(r->top->st.qlen, 2);
    assert_int_equal(r->top->st.drops, 2);
    stopped = false;
    qdisc_run(r, -1, 0, NULL);
    assert_int_equal(sent_pkts, 2);
    assert_int_equal(sent_bytes, 114 + 314);
    assert_int_equal(r->top->st.qlen, 0);
    qdisc_root_free(r);
}

/* The default tree of a two-queue port, mq over pfifo_fast: a packet for
 * stopped TX queue 0 is requeued in child :1 (dev_requeue_skb keeps it in
 * that qdisc's gso_skb), and one for running queue 1 bypasses child :2 at
 * once. It once waited: the requeued packet was the tree's, and held every
 * queue until queue 0 restarted. */
static void test_mq_requeue_per_queue(void **state)
{
    (void)state;
    struct qdisc_args a, pf;
    assert_int_equal(qdisc_parse("mq", &a, err, sizeof err), 0);
    assert_int_equal(qdisc_parse("pfifo_fast", &pf, err, sizeof err), 0);
    a.child = &pf;
    struct qdisc_dev d = dev;
    d.num_tx_queues = 2;
    struct qdisc_root *r = qdisc_root_new(&a, &d, &q, &sink_dev, NULL, err, sizeof err);
    assert_non_null(r);
    stopped_q[0] = true;
    struct skb *s0 = pkt(100), *s1 = pkt(200);
    s0->queue = 0;
    s1->queue = 1;
    assert_int_equal(qdisc_root_xmit(r, s0, 0, NULL), NET_XMIT_SUCCESS);
    assert_int_equal(r->top->children[0]->st.requeues, 1);
    assert_int_equal(r->top->children[0]->st.qlen, 1);
    assert_int_equal(sent_pkts, 0);
    assert_int_equal(qdisc_root_xmit(r, s1, 0, NULL), NET_XMIT_SUCCESS);
    assert_int_equal(sent_pkts, 1);
    assert_int_equal(sent_bytes, 214);
    assert_int_equal(r->top->children[1]->st.qlen, 0);
    /* queue 0 restarts: its TX clean runs its child, and the packet goes */
    stopped_q[0] = false;
    qdisc_root_restart(r, 0, 0, NULL, true);
    assert_int_equal(sent_pkts, 2);
    assert_int_equal(r->top->children[0]->st.qlen, 0);
    assert_int_equal(r->top->children[0]->st.packets, 1);
    qdisc_root_free(r);
}

/* htb and tbf count their rates in bytes per second, as tc hands them
 * over: 1 to 7 bit/s are none, and are refused (they once passed as 0 and
 * left the class unshaped); 8 bit/s is one byte a second. */
static void test_rates_in_bytes(void **state)
{
    (void)state;
    struct qdisc_args a;
    struct qdisc_class_spec c;
    assert_int_equal(qdisc_parse("htb", &a, err, sizeof err), 0);
    for (int bits = 1; bits < 8; bits++) {
        char text[64];
        snprintf(text, sizeof text, "parent 1: rate %dbit", bits);
        err[0] = 0;
        assert_int_equal(qdisc_parse_class(a.ops, 1, text, &c, err, sizeof err), -1);
        assert_non_null(strstr(err, "at least 8bit"));
        snprintf(text, sizeof text, "tbf rate %dbit burst 10kb latency 50ms", bits);
        assert_int_equal(qdisc_parse(text, &a, err, sizeof err), -1);
        assert_non_null(strstr(err, "at least 8bit"));
        assert_int_equal(qdisc_parse("htb", &a, err, sizeof err), 0);
    }
    assert_int_equal(qdisc_parse_class(a.ops, 1, "parent 1: rate 8bit", &c, err, sizeof err), 0);
    assert_int_equal(qdisc_parse("tbf rate 8bit burst 10kb latency 50ms", &a, err, sizeof err), 0);
    /* a rate past 2^63 says why */
    assert_int_equal(qdisc_parse("tbf rate 9223372036854775808bit burst 10kb latency 50ms", &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "expected a rate below 2^63 bit/s"));
}

int main(void)
{
    models_install();   /* the engine's modules and variants (sim/sim.h) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_htb_depth, setup, teardown),
        cmocka_unit_test_setup_teardown(test_htb_netem_leaves, setup, teardown),
        cmocka_unit_test_setup_teardown(test_htb_alone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_init_frees, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fifo_bypass_limits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_head_drop_requeued, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mq_requeue_per_queue, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rates_in_bytes, setup, teardown),
    };
    return cmocka_run_group_tests_name("qdisc_tree", tests, NULL, NULL);
}
