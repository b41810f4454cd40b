/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_qdisc_aqm.c - codel and fq_codel against Linux 4.15's own
 * integer arithmetic: the expected numbers are worked by hand from the
 * kernel's formulas (include/net/codel_impl.h, sch_fq_codel.c), not
 * taken from this code. Each test was seen to fail
 * with the rule it checks broken by hand.
 *
 * CoDel's clock is ns >> 10: C(c) below is the netsim time whose codel
 * time is exactly c.
 */
#include "sim/sim.h"
#include "models/qdisc/codel.h"
#include "tests/qdisc_world.h"

/* ---------------- CoDel's arithmetic ---------------- */

static void test_codel_units(void **state)
{
    (void)state;
    assert_int_equal(CODEL_MS2TIME(5), 4882);       /* 5 000 000 >> 10 = 4882.8 */
    assert_int_equal(CODEL_MS2TIME(100), 97656);    /* 100 000 000 >> 10 = 97656.25 */
    assert_int_equal(codel_us2time(5000), 4882);    /* what tc's "5ms" becomes */
    assert_int_equal(codel_time_to_us(4882), 4999); /* and what tc prints back: 5.0ms */
    assert_int_equal(codel_time(C(123456)), 123456);
    assert_int_equal(codel_time(C(123456) - 1), 123455);   /* ps truncate to ns, ns >> 10 */
    assert_true(codel_time_after(5, 0xfffffff0u));          /* across the wrap */
}

/* rec_inv_sqrt after count 1..8, one Newton step per count as the
 * kernel keeps it. Count 2 by hand: invsqrt = 0xffff << 16 = 0xffff0000,
 * invsqrt2 = (0xffff0000^2) >> 32 = 0xfffe0001; val = 3 << 32 - 2 x
 * 0xfffe0001 = 4295229438, >> 2 = 1073807359; x 0xffff0000 >> 31 =
 * 2147581948; >> 16 = 32769 (0.50002, where 1/sqrt 2 is 0.707: one step
 * from 1.0 undershoots, and the next ones climb back). */
static void test_newton_step(void **state)
{
    (void)state;
    static const uint16_t want[] = { 0, 0xffff, 32769, 36864, 31968, 28935, 26481, 24588, 23037 };
    struct codel_vars v = { .count = 1, .rec_inv_sqrt = 0xffff };
    for (uint32_t c = 2; c <= 8; c++) {
        v.count = c;
        codel_Newton_step(&v);
        assert_int_equal(v.rec_inv_sqrt, want[c]);
    }
    /* by count 16 it is within 0.2 % of 1/4 (16360 / 65536 = 0.24963) */
    for (uint32_t c = 9; c <= 16; c++) {
        v.count = c;
        codel_Newton_step(&v);
    }
    assert_int_equal(v.rec_inv_sqrt, 16360);
}

/* t + interval / sqrt(count) through reciprocal_scale */
static void test_control_law(void **state)
{
    (void)state;
    codel_time_t iv = CODEL_MS2TIME(100), t = 1000000;
    /* count 1: 97656 x 0xffff0000 >> 32 = 97654 (97656 (1 - 2^-16)) */
    assert_int_equal(codel_control_law(t, iv, 0xffff), t + 97654);
    /* an exact 1/sqrt(4) = 0x8000: 97656 / 2 = 48828 = MS2TIME(50) */
    assert_int_equal(codel_control_law(t, iv, 0x8000), t + CODEL_MS2TIME(50));
    /* the count 4 the kernel reaches by Newton steps (31968): 97656 x
     * 31968 / 65536 = 47635.7, so 47635, 1.2 ms short of 50 ms */
    assert_int_equal(codel_control_law(t, iv, 31968), t + 47635);
    /* the clock wraps */
    assert_int_equal(codel_control_law(0xffffffffu - 10, iv, 0x8000), 48828 - 11);
}

/* ---------------- codel, the discipline ---------------- */

/* Sojourn above target is allowed one whole interval: the first drop
 * comes at the first dequeue strictly after first_above_time, and the
 * next at the control law's time. */
static void test_codel_waits_an_interval(void **state)
{
    (void)state;
    struct qdisc *q = mk("codel");
    for (int i = 0; i < 100; i++)
        assert_int_equal(q->ops->enqueue(q, pkt(1500, 1, INET_ECN_NOT_ECT), 0), NET_XMIT_SUCCESS);
    deq_free(q, C(9765));            /* sojourn 9765 > 4882: first_above_time = 9765 + 97656 */
    deq_free(q, C(107421));          /* = first_above_time: not after it */
    assert_int_equal(q->st.drops, 0);
    assert_int_equal(xstat(q, "dropping"), 0);
    deq_free(q, C(107422));          /* after: this packet dropped, the next sent */
    assert_int_equal(q->st.drops, 1);
    assert_int_equal(q->st.qlen, 96);
    assert_int_equal(xstat(q, "dropping"), 1);
    assert_int_equal(xstat(q, "count"), 1);
    assert_int_equal(xstat(q, "lastcount"), 1);
    /* drop_next = 107422 + 97654 = 205076; as tc shows it, 97654 units = 99997 us */
    assert_int_equal(xstat(q, "drop_next_us"), 99997);
    deq_free(q, C(205075));
    assert_int_equal(q->st.drops, 1);
    deq_free(q, C(205076));          /* count 2: Newton gives 32769 */
    assert_int_equal(q->st.drops, 2);
    assert_int_equal(xstat(q, "count"), 2);
    /* drop_next = 205076 + 97656 x 32769 / 65536 (48829) = 253905 */
    deq_free(q, C(253904));
    assert_int_equal(q->st.drops, 2);
    deq_free(q, C(253905));
    assert_int_equal(q->st.drops, 3);
    assert_int_equal(xstat(q, "ldelay_us"), 259998);   /* 253905 units x 1.024 */
    /* as tc -s prints it: count 3's 36864 puts drop_next 97656 x 36864 /
     * 65536 = 54931 units (56249 us) ahead */
    assert_string_equal(tc_text(q, q->ops->dump), "limit 1000p target 5.0ms interval 100.0ms ");
    assert_string_equal(tc_text(q, q->ops->dump_stats), "  count 3 lastcount 1 ldelay 260.0ms dropping drop_next 56.2ms\n"
                                                        "  maxpacket 1500 ecn_mark 0 drop_overlimit 0\n");
    done(q);
}

/* A packet below target ends the wait: the interval starts again from
 * the next packet above target. */
static void test_codel_below_target_restarts(void **state)
{
    (void)state;
    struct qdisc *q = mk("codel");
    for (int i = 0; i < 20; i++)
        q->ops->enqueue(q, pkt(1500, 1, 0), 0);
    for (int i = 0; i < 20; i++)
        q->ops->enqueue(q, pkt(1500, 1, 0), C(104000));
    for (uint32_t i = 0; i < 20; i++)
        deq_free(q, C(9765 + i));    /* first_above_time = 107421 */
    deq_free(q, C(107500));          /* sojourn 3500 < 4882: the wait is over */
    deq_free(q, C(112000));          /* 8000 above: first_above_time = 209656 */
    deq_free(q, C(112001));
    assert_int_equal(q->st.drops, 0);
    deq_free(q, C(209656));
    assert_int_equal(q->st.drops, 0);
    deq_free(q, C(209657));
    assert_int_equal(q->st.drops, 1);
    done(q);
}

/* No drop while the backlog left is at most one MTU (psched_mtu 1514). */
static void test_codel_mtu_backlog(void **state)
{
    (void)state;
    struct qdisc *q = mk("codel");
    q->ops->enqueue(q, pkt(1500, 1, 0), 0);
    q->ops->enqueue(q, pkt(1500, 1, 0), 0);
    deq_free(q, C(9765));            /* 1500 left: not above */
    deq_free(q, C(200000));
    assert_int_equal(q->st.drops, 0);
    assert_int_equal(xstat(q, "dropping"), 0);
    done(q);
}

/* ecn: an ECN-capable packet is marked CE where it would be dropped,
 * and sent; a Not-ECT one is still dropped. noecn drops both. */
static void test_codel_ecn(void **state)
{
    (void)state;
    const char *kinds[] = { "codel ecn", "codel ecn", "codel" };
    const uint8_t ecn[] = { INET_ECN_ECT_0, INET_ECN_NOT_ECT, INET_ECN_ECT_0 };
    for (int k = 0; k < 3; k++) {
        struct qdisc *q = mk(kinds[k]);
        for (int i = 0; i < 10; i++)
            q->ops->enqueue(q, pkt(1500, 1, ecn[k]), 0);
        deq_free(q, C(9765));
        struct skb *s = deq(q, C(107422));
        bool marked = k == 0;
        assert_int_equal(q->st.drops, marked ? 0 : 1);
        assert_int_equal(xstat(q, "ecn_mark"), marked ? 1 : 0);
        assert_int_equal(skb_ecn(s), marked ? INET_ECN_CE : ecn[k]);
        assert_int_equal(xstat(q, "dropping"), 1);
        skb_free(s);
        done(q);
    }
}

/* ce_threshold marks every ECN-capable packet that waited longer,
 * dropping state or not, ecn or not; a Not-ECT one passes unmarked. */
static void test_codel_ce_threshold(void **state)
{
    (void)state;
    struct qdisc *q = mk("codel ce_threshold 1ms");    /* 1000 us: 976 units */
    q->ops->enqueue(q, pkt(1500, 1, INET_ECN_ECT_1), 0);
    q->ops->enqueue(q, pkt(1500, 1, INET_ECN_ECT_1), 0);
    q->ops->enqueue(q, pkt(1500, 1, INET_ECN_NOT_ECT), 0);
    struct skb *s = deq(q, C(976));  /* not above the threshold */
    assert_int_equal(skb_ecn(s), INET_ECN_ECT_1);
    skb_free(s);
    s = deq(q, C(977));
    assert_int_equal(skb_ecn(s), INET_ECN_CE);
    skb_free(s);
    s = deq(q, C(2000));
    assert_int_equal(skb_ecn(s), INET_ECN_NOT_ECT);
    skb_free(s);
    assert_int_equal(xstat(q, "ce_mark"), 1);
    assert_int_equal(q->st.drops, 0);
    done(q);
}

/* codel_dequeue alone, over a queue of our own: the re-entry rule. */
static struct skb_queue cq;
static uint64_t cq_backlog;
static struct skb *cq_dequeue(struct codel_vars *v, void *ctx)
{
    (void)v;
    (void)ctx;
    struct skb *s = skbq_pop(&cq);
    if (s)
        cq_backlog -= qdisc_pkt_len(s);
    return s;
}
static void cq_drop(struct skb *skb, void *ctx)
{
    (void)ctx;
    skb_free(skb);
}

/* Back above target within 16 intervals of the last drop_next, after a
 * cycle that dropped more than once: count restarts at count - lastcount
 * with a Newton step from the old 1/sqrt, not at 1. */
static void test_codel_reentry(void **state)
{
    (void)state;
    struct codel_params p;
    codel_params_init(&p);
    p.mtu = 1514;
    for (int late = 0; late < 2; late++) {
        struct codel_stats st = { 0 };
        skbq_init(&cq);
        cq_backlog = 0;
        for (int i = 0; i < 10; i++) {
            struct skb *s = pkt(1500, 1, 0);
            s->t_due = 0;
            skbq_push(&cq, s);
            cq_backlog += 1500;
        }
        /* a cycle that ended at count 5 from lastcount 1, drop_next 900000;
         * sojourn above target since long before now */
        struct codel_vars v = { .count = 5, .lastcount = 1, .dropping = false, .rec_inv_sqrt = 28935,
                                .first_above_time = 10, .drop_next = 900000 };
        codel_time_t now = late ? 900000 + 16 * p.interval : 900000 + 1000;
        struct skb *s = codel_dequeue(NULL, &cq_backlog, &p, &v, &st, cq_drop, cq_dequeue, now);
        assert_non_null(s);
        skb_free(s);
        assert_true(v.dropping);
        assert_int_equal(st.drop_count, 1);
        if (!late) {
            /* count 4, Newton from 28935: 32121; drop_next = now + 97656 x 32121 / 65536 */
            assert_int_equal(v.count, 4);
            assert_int_equal(v.rec_inv_sqrt, 32121);
            assert_int_equal(v.drop_next, now + 47863);
        } else {
            assert_int_equal(v.count, 1);
            assert_int_equal(v.rec_inv_sqrt, 0xffff);
            assert_int_equal(v.drop_next, now + 97654);
        }
        assert_int_equal(v.lastcount, v.count);
        skbq_purge(&cq);
    }
}

/* ---------------- fq_codel ---------------- */

/* Two backlogged flows, 1514- and 514-byte packets, quantum 1514: each
 * turn a flow spends its deficit, so A sends 1 packet a round and B 3
 * (1514 -> 1000 -> 486 -> -28, then -28 + 1514 = 1486 ...), and both get
 * the same bytes within a quantum. */
static void test_fq_codel_drr(void **state)
{
    (void)state;
    struct qdisc *q = mk("fq_codel");
    for (int i = 0; i < 1000; i++)
        q->ops->enqueue(q, pkt(1514, 1, 0), 0);
    for (int i = 0; i < 3000; i++)
        q->ops->enqueue(q, pkt(514, 2, 0), 0);
    assert_int_equal(xstat(q, "new_flow_count"), 2);
    char order[21] = { 0 };
    uint64_t bytes[3] = { 0 };
    for (int i = 0; i < 2000; i++) {
        struct skb *s = deq(q, 0);
        if (i < 20)
            order[i] = s->sport == 1 ? 'A' : 'B';
        bytes[s->sport] += qdisc_pkt_len(s);
        skb_free(s);
        if (i == 11) {
            assert_int_equal(bytes[1], 3 * 1514);
            assert_int_equal(bytes[2], 9 * 514);
        }
    }
    assert_string_equal(order, "ABBBABBBABBBABBBABBB");
    int64_t diff = (int64_t)bytes[1] - (int64_t)bytes[2];
    assert_true(diff <= 1514 && diff >= -1514);
    assert_int_equal(q->st.drops, 0);
    done(q);
}

/* A flow with nothing queued that gets a packet is new: served before
 * the old flows. An emptied new flow goes to the end of the old list
 * (when there are old flows), so a packet it gets before its turn there
 * waits that turn, and does not make it new again. */
static void test_fq_codel_new_flows_first(void **state)
{
    (void)state;
    struct qdisc *q = mk("fq_codel");
    for (int i = 0; i < 20; i++)
        q->ops->enqueue(q, pkt(514, 1, 0), 0);
    for (int i = 0; i < 4; i++)      /* 1514 -> 1000 -> 486 -> -28; +1514, to old flows: 972 */
        deq_free(q, 0);
    assert_int_equal(xstat(q, "old_flows_len"), 1);
    assert_int_equal(xstat(q, "new_flows_len"), 0);
    q->ops->enqueue(q, pkt(100, 2, 0), 0);
    assert_int_equal(xstat(q, "new_flows_len"), 1);
    assert_int_equal(xstat(q, "new_flow_count"), 2);
    struct skb *s = deq(q, 0);
    assert_int_equal(s->sport, 2);   /* the sparse flow first */
    skb_free(s);
    s = deq(q, 0);                   /* B empty: behind A on the old list; A sends (972 -> 458) */
    assert_int_equal(s->sport, 1);
    skb_free(s);
    assert_int_equal(xstat(q, "new_flows_len"), 0);
    assert_int_equal(xstat(q, "old_flows_len"), 2);
    q->ops->enqueue(q, pkt(100, 2, 0), 0);
    assert_int_equal(xstat(q, "new_flow_count"), 2);   /* still listed: not new */
    s = deq(q, 0);                   /* A still has deficit */
    assert_int_equal(s->sport, 1);
    skb_free(s);
    s = deq(q, 0);                   /* A spent: to the tail, B's turn */
    assert_int_equal(s->sport, 2);
    skb_free(s);
    done(q);
}

/* Over limit, the flow with the largest backlog loses packets from its
 * head until half its backlog is gone (here 4 of 8: 4 x 1514 >= 12112 / 2). */
static void test_fq_codel_limit(void **state)
{
    (void)state;
    struct qdisc *q = mk("fq_codel limit 10");
    for (int i = 0; i < 8; i++)
        q->ops->enqueue(q, pkt(1514, 1, 0), 0);
    q->ops->enqueue(q, pkt(1514, 2, 0), 0);
    q->ops->enqueue(q, pkt(1514, 2, 0), 0);
    assert_int_equal(q->ops->enqueue(q, pkt(1514, 2, 0), 0), NET_XMIT_SUCCESS);   /* another flow paid */
    assert_int_equal(q->st.drops, 4);
    assert_int_equal(xstat(q, "drop_overlimit"), 4);
    assert_int_equal(q->st.qlen, 7);
    assert_int_equal(q->st.backlog, 7 * 1514);
    /* A 4, B 3: B 5 and A 5 fill it up; A's 6th makes A the fattest
     * (6 against 5): it loses 3 (3 x 1514 >= 9084 / 2) and hears NET_XMIT_CN */
    q->ops->enqueue(q, pkt(1514, 2, 0), 0);
    q->ops->enqueue(q, pkt(1514, 2, 0), 0);
    q->ops->enqueue(q, pkt(1514, 1, 0), 0);
    assert_int_equal(q->st.qlen, 10);
    assert_int_equal(q->st.drops, 4);
    assert_int_equal(q->ops->enqueue(q, pkt(1514, 1, 0), 0), NET_XMIT_CN);
    assert_int_equal(q->st.drops, 7);
    assert_int_equal(q->st.qlen, 8);
    assert_int_equal(xstat(q, "drop_overmemory"), 0);
    done(q);
}

/* At most drop_batch (64) packets per overflow; a drop_batch given is
 * min(1U, value) in 4.15: one packet. */
static void test_fq_codel_drop_batch(void **state)
{
    (void)state;
    const char *kinds[] = { "fq_codel limit 200", "fq_codel limit 200 drop_batch 32" };
    const int dropped[] = { 64, 1 };
    for (int k = 0; k < 2; k++) {
        struct qdisc *q = mk(kinds[k]);
        for (int i = 0; i < 200; i++)
            q->ops->enqueue(q, pkt(1514, 1, 0), 0);
        /* half of 201 x 1514 would be 101 packets */
        assert_int_equal(q->ops->enqueue(q, pkt(1514, 1, 0), 0), NET_XMIT_CN);
        assert_int_equal(q->st.drops, dropped[k]);
        assert_int_equal(q->st.qlen, 201 - dropped[k]);
        assert_int_equal(xstat(q, "drop_overlimit"), dropped[k]);
        done(q);
    }
}

/* memory_limit counts truesize (2304 a packet here): the 9th packet
 * brings 20736 > 20000, and the flow loses 5 (5 x 1514 >= 9 x 1514 / 2) */
static void test_fq_codel_memory_limit(void **state)
{
    (void)state;
    struct qdisc *q = mk("fq_codel memory_limit 20000");
    for (int i = 0; i < 8; i++)
        assert_int_equal(q->ops->enqueue(q, pkt(1514, 1, 0), 0), NET_XMIT_SUCCESS);
    assert_int_equal(xstat(q, "memory_used"), 8 * 2304);
    assert_int_equal(q->ops->enqueue(q, pkt(1514, 1, 0), 0), NET_XMIT_CN);
    assert_int_equal(q->st.drops, 5);
    assert_int_equal(xstat(q, "drop_overmemory"), 5);
    assert_int_equal(xstat(q, "drop_overlimit"), 5);
    assert_int_equal(xstat(q, "memory_used"), 4 * 2304);
    deq_free(q, 0);
    assert_int_equal(xstat(q, "memory_used"), 3 * 2304);
    assert_string_equal(tc_text(q, q->ops->dump_stats),
                        "  maxpacket 1514 drop_overlimit 5 new_flow_count 1 ecn_mark 0 memory_used 6912 "
                        "drop_overmemory 5\n  new_flows_len 1 old_flows_len 0\n");
    done(q);
}

/* Options as tc 4.15 sends them and the kernel takes them; the dump as
 * tc prints it. */
static void test_fq_codel_options(void **state)
{
    (void)state;
    struct qdisc *q = mk("fq_codel");
    assert_string_equal(tc_text(q, q->ops->dump), "limit 10240p flows 1024 quantum 1514 target 5.0ms interval 100.0ms memory_limit 32Mb ecn ");
    done(q);
    q = mk("fq_codel quantum 100 limit 0 flows 16 noecn target 2ms ce_threshold 500us");
    /* quantum at least 256; limit 0 is not sent; 2000 us is 1953 units, 1999 us back (2.0ms) */
    assert_string_equal(tc_text(q, q->ops->dump), "limit 10240p flows 16 quantum 256 target 2.0ms ce_threshold 499us interval 100.0ms "
                             "memory_limit 32Mb ");
    done(q);
    struct qdisc_args a;
    char err[256];
    assert_int_equal(qdisc_parse("fq_codel flows 70000", &a, err, sizeof err), 0);
    struct qdisc_dev dev = { .mtu = 1500, .hard_header_len = 14, .txqueuelen = 1000, .num_tx_queues = 1 };
    assert_null(qdisc_create(&a, &dev, NULL, "root", err, sizeof err));
    assert_non_null(strstr(err, "65536"));
}

/* A quantum above 2^20 is refused, as later kernels refuse it: 4.15 takes
 * any u32 into a deficit that is a signed int, so a flow that becomes
 * active with quantum 2^31 would never reach a positive deficit (and
 * 2^32 - 1 would take 2^31 rounds). At the limit the round is exact:
 * a flow spends its quantum, then the other flow's turn comes. */
static void test_fq_codel_quantum_limit(void **state)
{
    (void)state;
    struct qdisc_args a;
    char err[256];
    struct qdisc_dev dev = { .mtu = 1500, .hard_header_len = 14, .txqueuelen = 1000, .num_tx_queues = 1 };
    const char *const bad[] = { "fq_codel quantum 1048577", "fq_codel quantum 2147483648", "fq_codel quantum 4294967295" };
    for (int i = 0; i < 3; i++) {
        assert_int_equal(qdisc_parse(bad[i], &a, err, sizeof err), 0);
        err[0] = 0;
        assert_null(qdisc_create(&a, &dev, NULL, "root", err, sizeof err));
        assert_non_null(strstr(err, "quantum"));
        assert_non_null(strstr(err, "1048576"));
    }
    struct qdisc *q = mk("fq_codel quantum 1048576");
    assert_non_null(strstr(tc_text(q, q->ops->dump), "quantum 1048576 "));
    /* 700 packets of 1514 bytes in flow 1 (1059800 bytes, a quantum's
     * worth and more), then one in flow 2: flow 1 sends 693 (1049202 bytes,
     * the deficit of 2^20 spent), then flow 2's turn */
    for (int i = 0; i < 700; i++)
        assert_int_equal(qdisc_enqueue(q, pkt(1514, 1, 0), 0), NET_XMIT_SUCCESS);
    assert_int_equal(qdisc_enqueue(q, pkt(1514, 2, 0), 0), NET_XMIT_SUCCESS);
    for (int i = 0; i < 693; i++) {
        struct skb *s = deq(q, 0);
        assert_int_equal(s->sport, 1);
        skb_free(s);
    }
    struct skb *s = deq(q, 0);
    assert_int_equal(s->sport, 2);
    skb_free(s);
    done(q);
}

int main(void)
{
    models_install();   /* the engine's modules and variants (sim/sim.h) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_codel_units, setup),
        cmocka_unit_test_setup(test_newton_step, setup),
        cmocka_unit_test_setup(test_control_law, setup),
        cmocka_unit_test_setup(test_codel_waits_an_interval, setup),
        cmocka_unit_test_setup(test_codel_below_target_restarts, setup),
        cmocka_unit_test_setup(test_codel_mtu_backlog, setup),
        cmocka_unit_test_setup(test_codel_ecn, setup),
        cmocka_unit_test_setup(test_codel_ce_threshold, setup),
        cmocka_unit_test_setup(test_codel_reentry, setup),
        cmocka_unit_test_setup(test_fq_codel_drr, setup),
        cmocka_unit_test_setup(test_fq_codel_new_flows_first, setup),
        cmocka_unit_test_setup(test_fq_codel_limit, setup),
        cmocka_unit_test_setup(test_fq_codel_drop_batch, setup),
        cmocka_unit_test_setup(test_fq_codel_memory_limit, setup),
        cmocka_unit_test_setup(test_fq_codel_options, setup),
        cmocka_unit_test_setup(test_fq_codel_quantum_limit, setup),
    };
    return cmocka_run_group_tests_name("qdisc_aqm", tests, NULL, NULL);
}
