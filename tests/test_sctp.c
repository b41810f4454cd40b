/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_sctp.c - the SCTP model's rules in isolation: the two receive-window
 * variants' arithmetic, the 3.14 send-buffer rule (sctp_wspace), iperf3's
 * late ticks, and the kernel timer rules (apply_slack, the equal-expiry
 * shortcut, re-queue counting and its charge). test_sctp_world.c runs them
 * in small worlds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/sctp/iperf3.h"
#include "models/sctp/sctp.h"
#include "sim/config.h"
#include "load/load.h"
#include "sinks/report.h"
#include "sim/sim.h"
#include "load/scenario.h"
#include "tests/world.h"

/* An association end with only what the rwnd ops read: sk_rcvbuf 212992,
 * PMTU 1500, frag_point 1452, rwnd = a_rwnd = 106496. */
static struct sctp_assoc *rx_end(const char *variant, struct sctp_host *sh)
{
    struct sctp_assoc *a = calloc(1, sizeof *a);
    assert_non_null(a);
    memset(sh, 0, sizeof *sh);
    sh->rwnd = sctp_rwnd_find(variant);
    assert_non_null(sh->rwnd);
    sh->skb_struct_size = 232;
    a->sh = sh;
    a->sk.rcvbuf = 212992;
    a->pmtu = 1500;
    a->frag_point = 1452;
    a->rwnd = a->a_rwnd = 106496;
    return a;
}

/* What the receive path does per accepted message: charge, then rwnd. */
static void receive(struct sctp_assoc *a, uint32_t len)
{
    a->rmem += len + a->sh->skb_struct_size;
    a->sh->rwnd->on_receive(a, len);
}

static void test_rwnd_old_arithmetic(void **state)
{
    (void)state;
    struct sctp_host sh;
    struct sctp_assoc *a = rx_end("old", &sh);
    for (uint32_t k = 1; k <= 73; k++) {
        receive(a, 1452);
        assert_int_equal(a->rwnd, 106496 - 1452 * k);
        assert_false(sh.rwnd->reject(a, 1452));
    }
    /* 73 queued: 500 bytes left (less than a message: the sender's rule A
     * stops here) with rmem 122932 = 58 % of sk_rcvbuf */
    assert_int_equal(a->rwnd, 500);
    assert_int_equal(a->rmem, 73 * 1684);
    receive(a, 1452);            /* the 74th overshoots: rwnd_over */
    assert_int_equal(a->rwnd, 0);
    assert_int_equal(a->rwnd_over, 952);
    assert_true(sh.rwnd->reject(a, 1452));
    /* reading gives the overshoot back first */
    sh.rwnd->on_release(a, 1452);
    assert_int_equal(a->rwnd_over, 0);
    assert_int_equal(a->rwnd, 500);
    free(a);
}

static void test_rwnd_old_pressure(void **state)
{
    (void)state;
    struct sctp_host sh;
    struct sctp_assoc *a = rx_end("old", &sh);
    a->rmem = 212992 - 100;      /* buffer (almost) full, window still open */
    receive(a, 100);             /* rmem reaches sk_rcvbuf: the window is withheld as pressure */
    assert_int_equal(a->rwnd, 0);
    assert_int_equal(a->rwnd_press, 106396);
    assert_true(sh.rwnd->reject(a, 100));
    a->rmem -= 332;
    sh.rwnd->on_release(a, 100); /* 100 < press: no give-back yet */
    assert_int_equal(a->rwnd, 100);
    free(a);
}

static void test_rwnd_new_arithmetic(void **state)
{
    (void)state;
    struct sctp_host sh;
    struct sctp_assoc *a = rx_end("new", &sh);
    for (uint32_t k = 1; k <= 126; k++) {
        receive(a, 1452);
        assert_int_equal(a->rwnd, (212992 - 1684 * k) >> 1);
        assert_false(sh.rwnd->reject(a, 1452));
    }
    assert_int_equal(a->rwnd, 404);          /* 126 queued: rmem 212184 = 99.6 % */
    receive(a, 1452);
    assert_int_equal(a->rwnd, 0);
    assert_true(sh.rwnd->reject(a, 1452));
    assert_int_equal(a->rwnd_over, 0);       /* no overshoot bookkeeping in new */
    free(a);
}

/* Reads per window-update SACK from a freshly advertised window: the
 * threshold is max(212992 >> 4, 1500) = 13312. old adds 1452 per read
 * (10 reads); new gains 842 per message freed, and its value lags one
 * message because the event is still charged when rwnd is recomputed, so
 * the 17th read's release crosses the threshold. */
static int reads_per_update(const char *variant)
{
    struct sctp_host sh;
    struct sctp_assoc *a = rx_end(variant, &sh);
    for (int k = 0; k < 50; k++)     /* a queue of 50, window still open */
        receive(a, 1452);
    a->a_rwnd = a->rwnd;
    int n = 0;
    while (!(a->rwnd > a->a_rwnd && a->rwnd - a->a_rwnd >= 13312)) {
        sh.rwnd->on_release(a, 1452);
        a->rmem -= 1684;
        n++;
    }
    free(a);
    return n;
}

static void test_rwnd_reads_per_update(void **state)
{
    (void)state;
    assert_int_equal(reads_per_update("old"), 10);
    assert_int_equal(reads_per_update("new"), 17);
}

struct emitted {
    int n;
    simtime_t t0[8], t1[8];
    uint64_t bytes[8];
};

/* The send-buffer rule of 3.14 (sctp_sendmsg, sctp_wspace,
 * sctp_wait_for_sndbuf, sctp_set_owner_w, sctp_wfree), sk_sndbuf 212992,
 * 1452-byte messages: a chunk charges wmem_alloc 2304 + 196 = 2500 and
 * wmem_queued 2304. The writer blocks only on wspace 0 and then waits for
 * wspace >= 1452. */
static void test_sndbuf_rule(void **state)
{
    (void)state;
    struct sctp_host sh;
    memset(&sh, 0, sizeof sh);
    sh.chunk_struct_size = 196;
    struct sctp_assoc *a = calloc(1, sizeof *a);
    assert_non_null(a);
    a->sh = &sh;
    a->sk.sndbuf = 212992;
    assert_int_equal(sctp_chunk_truesize(1452), 2304);    /* kmalloc-2048 head: SKB_TRUESIZE(1728) */
    assert_int_equal(sctp_chunk_truesize(1400), 2304);
    assert_int_equal(sctp_chunk_truesize(1636), 2304);
    uint32_t n = 0;
    while (sctp_sndbuf_ready(a, 1452)) {
        sctp_set_owner_w(a, 1452);
        n++;
        if (n == 85) {           /* last chunk under sk_sndbuf by wmem_alloc: 212500 */
            assert_int_equal(a->wmem_alloc, 212500);
            assert_int_equal(sctp_wspace(a), 492);          /* < 1452, but not 0: the 86th goes */
        }
        if (n == 86) {           /* wmem_alloc 215000 >= sk_sndbuf: sk_sndbuf - wmem_queued */
            assert_int_equal(sctp_wspace(a), 212992 - 86 * 2304);
        }
        if (n == 92)
            assert_int_equal(sctp_wspace(a), 1024);
    }
    /* blocked on the 94th message, with 93 chunks queued */
    assert_int_equal(n, 93);
    assert_int_equal(a->wmem_alloc, 93 * 2500);            /* 232500 */
    assert_int_equal(a->wmem_queued, 93 * 2304);           /* 214272 > sk_sndbuf */
    assert_int_equal(sctp_wspace(a), 0);
    assert_true(a->sndbuf_wait);
    /* one chunk freed: space 1024 > 0 wakes the writer, but 1452 does not fit */
    sctp_wfree(a, 1452);
    assert_int_equal(sctp_wspace(a), 1024);
    assert_false(sctp_sndbuf_ready(a, 1452));
    /* a second: 3328 >= 1452, it queues; the next finds 1024 > 0 and queues too */
    sctp_wfree(a, 1452);
    assert_int_equal(sctp_wspace(a), 3328);
    assert_true(sctp_sndbuf_ready(a, 1452));
    sctp_set_owner_w(a, 1452);
    assert_true(sctp_sndbuf_ready(a, 1452));
    sctp_set_owner_w(a, 1452);
    assert_false(sctp_sndbuf_ready(a, 1452));
    /* SO_SNDBUF set (SOCK_SNDBUF_LOCK): no wmem_queued fallback, so the
     * writer blocks once wmem_alloc reaches sk_sndbuf, at 86 chunks */
    while (a->wmem_queued)
        sctp_wfree(a, 1452);
    assert_int_equal(a->wmem_alloc, 0);
    a->sndbuf_wait = false;
    a->sndbuf_locked = true;
    for (n = 0; sctp_sndbuf_ready(a, 1452); n++)
        sctp_set_owner_w(a, 1452);
    assert_int_equal(n, 86);
    assert_int_equal(a->wmem_alloc, 215000);
    sctp_wfree(a, 1452);                                   /* 212500: 492 > 0 but < 1452 */
    assert_false(sctp_sndbuf_ready(a, 1452));
    sctp_wfree(a, 1452);                                   /* 210000: 2992 */
    assert_true(sctp_sndbuf_ready(a, 1452));
    free(a);
}

static void record_emit(void *ctx, simtime_t t0, simtime_t t1, uint64_t bytes)
{
    struct emitted *e = ctx;
    e->t0[e->n] = t0;
    e->t1[e->n] = t1;
    e->bytes[e->n] = bytes;
    e->n++;
}

static void test_iperf3_late_ticks(void **state)
{
    (void)state;
    struct iperf3_ticker k;
    struct emitted e = { 0 };
    iperf3_ticker_init(&k, 0, PS_PER_S);
    k.istart = 7350 * PS_PER_MS;          /* an interval began at 7.35 s */
    k.next_tick = 8 * PS_PER_S;
    k.bytes = 1452;
    iperf3_tick(&k, 11450 * PS_PER_MS, record_emit, &e);   /* sendmsg blocked until 11.45 s */
    assert_int_equal(e.n, 4);
    assert_int_equal(e.t0[0], 7350 * PS_PER_MS);
    assert_int_equal(e.t1[0], 11450 * PS_PER_MS);
    assert_int_equal(e.bytes[0], 1452);
    for (int i = 1; i < 4; i++) {         /* ticks 9, 10, 11: zero-length */
        assert_int_equal(e.t0[i], 11450 * PS_PER_MS);
        assert_int_equal(e.t1[i], 11450 * PS_PER_MS);
        assert_int_equal(e.bytes[i], 0);
    }
    assert_int_equal(k.next_tick, 12 * PS_PER_S);
    iperf3_tick(&k, 11900 * PS_PER_MS, record_emit, &e);   /* before the next tick: nothing */
    assert_int_equal(e.n, 4);
}

static void test_apply_slack_examples(void **state)
{
    (void)state;
    assert_int_equal(kt_apply_slack(31000, 0), 31104);
    assert_int_equal(kt_apply_slack(31500, 0), 31616);
    assert_int_equal(kt_apply_slack(30500, 0), 30592);
    assert_int_equal(kt_apply_slack(200, 0), 200);
    assert_int_equal(kt_apply_slack(31999, 1000), 32000);
    assert_int_equal(kt_apply_slack(5300, 5000), 5301);
}

static int fired;
static void on_fire(struct event *ev)
{
    (void)ev;
    fired++;
}

static void test_mod_timer_shortcut_and_requeue(void **state)
{
    (void)state;
    struct evq q;
    evq_init(&q);
    struct host *h = calloc(1, sizeof *h);
    assert_non_null(h);
    int sym_mod = cpu_sym("mod_timer"), sym_irq = cpu_sym("__mod_timer");
    int sym_restore = cpu_sym("_raw_spin_unlock_irqrestore <- mod_timer <- sctp_transport_reset_timers");
    h->cost[sym_mod] = 10;
    h->cost[sym_irq] = 50;
    struct core c;
    core_init(&c, &q, h, 0, h->prof);
    struct ktimer kt;
    struct ktimer_stats st = { 0 };
    kt_init(&kt, &q, on_fire, NULL);
    fired = 0;

    /* idle timer: inserted (lock, insert, unlock) */
    assert_int_equal(kt_mod(&kt, 31000, h, &c, &st, KT_RESET_TIMERS), 0);
    assert_int_equal(kt.expires, 31104);
    assert_int_equal(core_now(&c), 60 * PS_PER_NS);
    /* 31050 rounds to the same 31104: the shortcut, entry cost only */
    assert_int_equal(kt_mod(&kt, 31050, h, &c, &st, KT_RESET_TIMERS), 1);
    assert_int_equal(core_now(&c), 70 * PS_PER_NS);
    /* a different rounded expiry: a re-queue, with the irq-off section */
    assert_int_equal(kt_mod(&kt, 31500, h, &c, &st, KT_RESET_TIMERS), 1);
    assert_int_equal(core_now(&c), 130 * PS_PER_NS);
    assert_int_equal(st.calls[KT_RESET_TIMERS], 3);
    assert_int_equal(st.shortcut[KT_RESET_TIMERS], 1);
    assert_int_equal(st.queued[KT_RESET_TIMERS], 2);
    assert_int_equal(kt.t.requeues, 1);      /* the engine moved a pending timer once */
    assert_int_equal(h->prof[sym_restore].calls, 2);
    assert_true(h->prof[sym_restore].ps == 100 * PS_PER_NS);
    assert_int_equal(h->prof[sym_mod].calls, 3);
    /* it fires at the tick of its expiry: 31616 jiffies at HZ 1000 */
    assert_int_equal(timer_expires(&kt.t), 31616 * PS_PER_MS);
    evq_run(&q, SIMTIME_NEVER);
    assert_int_equal(fired, 1);
    assert_int_equal(kt_del(&kt, h, &c, &st), 0);
    evq_free(&q);
    free(h);
}

int main(void)
{
    models_install();   /* the engine's modules and variants (sim/sim.h) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rwnd_old_arithmetic),
        cmocka_unit_test(test_rwnd_old_pressure),
        cmocka_unit_test(test_rwnd_new_arithmetic),
        cmocka_unit_test(test_rwnd_reads_per_update),
        cmocka_unit_test(test_sndbuf_rule),
        cmocka_unit_test(test_iperf3_late_ticks),
        cmocka_unit_test(test_apply_slack_examples),
        cmocka_unit_test(test_mod_timer_shortcut_and_requeue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
