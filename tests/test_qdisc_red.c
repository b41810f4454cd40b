/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_qdisc_red.c - red against Linux 4.15's integer arithmetic
 * (include/net/red.h, sch_red.c) and tc 4.15's parameter derivation
 * (tc_red.c, q_red.c): the expected numbers are worked by hand from
 * those formulas, not taken from this code. Each test was seen to fail
 * with the rule it checks broken by hand.
 */
#include "sim/sim.h"
#include "models/qdisc/red.h"
#include "tests/qdisc_world.h"

/* ---------------- RED ---------------- */

/* tc's parameters for limit 400000 min 30000 max 90000 avpkt 1000 burst
 * 55 (probability 0.02, bandwidth 10mbit), by hand:
 *   Wlog: a = 55 + 1 - 30000/1000 = 26; (1 - (1 - W)^55) / W is 15.5
 *     for W = 1/16 and 26.4 for 1/32: Wlog 5;
 *   Plog: 0.02 / 60000 = 3.33e-7 doubled 22 times is 1.40 > 1: 22;
 *   the idle table: 1000 B at 1.25 MB/s = 800 us = 12500 ticks; lW =
 *     -ln(1 - 1/32) / 12500 = 2.540e-6; 31 / lW = 12.2e6 < 512 x 2^15:
 *     Scell_log 15; Stab[i] = floor(i x 32768 x lW) = floor(0.08323 i),
 *     so Stab[12] = 0, Stab[13] = 1, Stab[120] = 9, Stab[121] = 10;
 *   max_P = 0.02 x 2^32 = 85899345. */
static void test_red_tc_parameters(void **state)
{
    (void)state;
    const char *why = NULL;
    assert_int_equal(tc_red_eval_ewma(30000, 55, 1000, &why), 5);
    assert_int_equal(tc_red_eval_P(30000, 90000, 0.02), 22);
    uint8_t sb[256];
    assert_int_equal(tc_red_eval_idle_damping(5, 1000, 1250000, sb), 15);
    assert_int_equal(sb[0], 0);
    assert_int_equal(sb[12], 0);
    assert_int_equal(sb[13], 1);
    assert_int_equal(sb[120], 9);
    assert_int_equal(sb[121], 10);
    assert_int_equal(sb[255], 31);
    assert_int_equal(tc_red_max_P(0.02), 85899345);
    assert_int_equal(tc_red_eval_ewma(30000, 20, 1000, &why), -1);   /* 20 + 1 - 30 < 1 */

    struct qdisc *q = mk("red limit 400000 min 30000 max 90000 avpkt 1000 burst 55");
    const struct red_parms *p = red_qdisc_parms(q);
    assert_int_equal(p->Wlog, 5);
    assert_int_equal(p->Plog, 22);
    assert_int_equal(p->Scell_log, 15);
    assert_int_equal(p->qth_min, 30000 << 5);
    assert_int_equal(p->qth_max, 90000 << 5);
    assert_int_equal(p->max_P, 85899345);
    assert_int_equal(p->target_min, 30000 + 2 * 12000);
    assert_int_equal(p->target_max, 30000 + 3 * 12000);
    assert_int_equal(p->Scell_max, 255 << 15);
    assert_int_equal(p->Stab[121], 10);
    assert_string_equal(tc_text(q, q->ops->dump), "limit 400000b min 30000b max 90000b ");
    assert_string_equal(tc_text(q, q->ops->dump_stats), "  marked 0 early 0 pdrop 0 other 0\n");
    done(q);
    /* q_red.c's defaults: max = limit / 4, min = max / 3, burst = (2 min + max) / (3 avpkt) */
    q = mk("red limit 400000 avpkt 1000");
    p = red_qdisc_parms(q);
    assert_int_equal(p->qth_max >> p->Wlog, 100000);
    assert_int_equal(p->qth_min >> p->Wlog, 33333);
    /* burst (66666 + 100000) / 3000 = 55: a = 55 + 1 - 33.3 = 22.7, Wlog 5 */
    assert_int_equal(p->Wlog, 5);
    done(q);
}

static void test_red_refuses(void **state)
{
    (void)state;
    const char *bad[] = { "red limit 400000", "red avpkt 1000", "red limit 400000 min 90000 max 30000 avpkt 1000",
                          "red limit 400000 min 30000 max 90000 avpkt 1000 burst 20" };
    for (int i = 0; i < 4; i++) {
        struct qdisc_args a;
        char err[256];
        assert_int_equal(qdisc_parse(bad[i], &a, err, sizeof err), 0);
        struct qdisc_dev dev = { .mtu = 1500, .hard_header_len = 14, .txqueuelen = 1000, .num_tx_queues = 1 };
        assert_null(qdisc_create(&a, &dev, NULL, "root", err, sizeof err));
        assert_non_null(strstr(err, "red: "));
    }
}

/* The average after 50 packets of 1000 bytes arrive at once on an idle
 * queue: the first finds the queue idle since t = 0 for 0 us (Stab[0] =
 * 0, the linear branch: qavg >> 1 = 0); each next one adds the backlog
 * before it, qavg += k x 1000 - (qavg >> 5): 1000, 2969 (1000 + 2000 -
 * 31), 5877 (2969 + 3000 - 92), 9694, ... 785368 after the 50th (24542
 * bytes, under min's 960000: no mark). Then idle: 100 ms is index
 * 100000 >> 15 = 3, Stab 0, and the linear decay (785368 x 100000 >> 15
 * is over half) halves it: 392684; 4 s is index 122, Stab 10: 785368 >> 10 = 766. */
static void test_red_qavg(void **state)
{
    (void)state;
    for (int idle = 0; idle < 2; idle++) {
        struct qdisc *q = mk("red limit 400000 min 30000 max 90000 avpkt 1000 burst 55");
        const struct red_vars *v = red_qdisc_vars(q);
        static const uint64_t first[] = { 0, 1000, 2969, 5877, 9694 };
        for (int k = 0; k < 50; k++) {
            assert_int_equal(q->ops->enqueue(q, pkt(1000, 1, 0), 0), NET_XMIT_SUCCESS);
            if (k < 5)
                assert_int_equal(v->qavg, first[k]);
        }
        assert_int_equal(v->qavg, 785368);
        assert_int_equal(q->st.overlimits, 0);
        for (int k = 0; k < 50; k++)
            deq_free(q, 0);
        assert_null(deq(q, 0));      /* empty from t = 0: idle */
        simtime_t later = idle ? 4 * PS_PER_S : 100 * PS_PER_MS;
        q->ops->enqueue(q, pkt(1000, 1, 0), later);
        assert_int_equal(v->qavg, idle ? 766 : 392684);
        done(q);
    }
}

static uint32_t draw_rng(void *ctx) { return (uint32_t)rng_u32(ctx); }

/* Between the thresholds, a mark comes when (qavg - min) x count reaches
 * a draw uniform in [0, (max - min) / max_P): a gap uniform from 1 to
 * 1/pb packets, so a rate of 2 pb / (1 + pb), not the pb of independent
 * draws. At the middle with max_P 0.02, pb = 0.01: 1.98 %. */
static void test_red_mark_probability(void **state)
{
    (void)state;
    struct red_parms p = { 0 };
    struct red_vars v;
    uint8_t sb[256] = { 0 };
    red_set_parms(&p, 30000, 90000, 5, 22, 15, sb, tc_red_max_P(0.02));
    /* max_P / delta = 85899345 / 60000 = 1431 */
    assert_int_equal(reciprocal_divide(0xffffffffu, p.max_P_reciprocal), 0xffffffffu / 1431);
    assert_int_equal(reciprocal_divide(1431 * 1000, p.max_P_reciprocal), 1000);
    red_set_vars(&v);
    uint64_t qavg = (uint64_t)60000 << 5;   /* 30000 bytes above min */
    /* a known draw: qR = 100000 marks at count ceil(100000 / 30000) = 4 */
    struct rng r;
    rng_init(&r, 7, "red");
    v.qcount = 0;
    v.qR = 100000;
    int at = 0;
    for (int i = 1; i <= 10 && !at; i++)
        if (red_action(&p, &v, qavg, draw_rng, &r) == RED_PROB_MARK)
            at = i;
    assert_int_equal(at, 4);
    red_set_vars(&v);
    int marks = 0, n = 400000;
    for (int i = 0; i < n; i++)
        marks += red_action(&p, &v, qavg, draw_rng, &r) == RED_PROB_MARK;
    double rate = (double)marks / n, want = 2 * 0.01 / 1.01;
    assert_true(rate > want * 0.97 && rate < want * 1.03);
    /* above max: always, and the count restarts */
    assert_int_equal(red_action(&p, &v, (uint64_t)90000 << 5, draw_rng, &r), RED_HARD_MARK);
    assert_int_equal(v.qcount, -1);
    assert_int_equal(red_action(&p, &v, (uint64_t)29999 << 5, draw_rng, &r), RED_DONT_MARK);
    rng_free(&r);
}

/* ecn: ECN-capable packets are marked where others are dropped; harddrop
 * drops them too above max (marking still between the thresholds). */
static void test_red_ecn(void **state)
{
    (void)state;
    const char *kinds[] = { "red limit 1000000 min 3000 max 9000 avpkt 1000 burst 4 ecn",
                            "red limit 1000000 min 3000 max 9000 avpkt 1000 burst 4 ecn",
                            "red limit 1000000 min 3000 max 9000 avpkt 1000 burst 4 ecn harddrop" };
    const uint8_t ecn[] = { INET_ECN_ECT_0, INET_ECN_NOT_ECT, INET_ECN_ECT_0 };
    for (int k = 0; k < 3; k++) {
        struct qdisc *q = mk(kinds[k]);
        for (int i = 0; i < 100; i++)
            q->ops->enqueue(q, pkt(1000, 1, ecn[k]), 0);
        uint64_t marked = xstat(q, "marked"), early = xstat(q, "early");
        assert_int_equal(q->st.overlimits, marked + early);
        if (k == 0) {
            assert_int_equal(early, 0);
            assert_int_equal(xstat(q, "forced_mark"), q->st.overlimits - xstat(q, "prob_mark"));
            assert_true(xstat(q, "forced_mark") > 50);
            assert_int_equal(q->st.qlen, 100);
        } else if (k == 1) {
            assert_int_equal(marked, 0);
            assert_int_equal(q->st.drops, early);
            assert_true(early > 50);
        } else {
            assert_int_equal(xstat(q, "forced_mark"), 0);
            assert_true(xstat(q, "forced_drop") > 50);
            assert_int_equal(q->st.drops, early);
        }
        assert_int_equal(xstat(q, "pdrop"), 0);
        done(q);
    }
    /* the bfifo behind RED: pdrop */
    struct qdisc *q = mk("red limit 3000 min 30000 max 90000 avpkt 1000 burst 55");
    for (int i = 0; i < 4; i++)
        q->ops->enqueue(q, pkt(1000, 1, 0), 0);
    assert_int_equal(xstat(q, "pdrop"), 1);
    assert_int_equal(q->st.drops, 1);
    done(q);
}

/* Adaptive RED: max_P up by min(1 %, max_P / 4) when the average is
 * above the band, down by 10 % (in that integer order) below it. */
static void test_red_adaptive(void **state)
{
    (void)state;
    struct red_parms p = { 0 };
    struct red_vars v;
    uint8_t sb[256] = { 0 };
    red_set_parms(&p, 30000, 90000, 5, 22, 15, sb, tc_red_max_P(0.02));
    red_set_vars(&v);
    v.idling = false;
    v.qavg = (uint64_t)70000 << 5;  /* above 66000 */
    red_adaptative_algo(&p, &v, 0);
    assert_int_equal(p.max_P, 85899345 + 21474836);   /* 0.02 / 4 < 1 % (42949673) */
    v.qavg = (uint64_t)50000 << 5;  /* inside [54000, 66000]? no: below 54000 */
    red_adaptative_algo(&p, &v, 0);
    assert_int_equal(p.max_P, (107374181 / 10) * 9);
    v.qavg = (uint64_t)60000 << 5;  /* inside: unchanged */
    red_adaptative_algo(&p, &v, 0);
    assert_int_equal(p.max_P, 96636762);
    /* 96636762 / 60000 rounded to the closest: 1611 */
    assert_int_equal(reciprocal_divide(1611 * 7, p.max_P_reciprocal), 7);
}

int main(void)
{
    models_install();   /* the engine's modules and variants (sim/sim.h) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_red_tc_parameters, setup),
        cmocka_unit_test_setup(test_red_refuses, setup),
        cmocka_unit_test_setup(test_red_qavg, setup),
        cmocka_unit_test_setup(test_red_mark_probability, setup),
        cmocka_unit_test_setup(test_red_ecn, setup),
        cmocka_unit_test_setup(test_red_adaptive, setup),
    };
    return cmocka_run_group_tests_name("qdisc_red", tests, NULL, NULL);
}
