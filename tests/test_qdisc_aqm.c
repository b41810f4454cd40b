/*
 * test_qdisc_aqm.c - codel against Linux 4.15's own
 * integer arithmetic: the expected numbers are worked by hand from the
 * kernel's formulas (include/net/codel_impl.h, sch_codel.c), not
 * taken from this code. Each test was seen to fail
 * with the rule it checks broken by hand.
 *
 * CoDel's clock is ns >> 10: C(c) below is the netsim time whose codel
 * time is exactly c.
 */
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

int main(void)
{
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
    };
    return cmocka_run_group_tests_name("qdisc_aqm", tests, NULL, NULL);
}
