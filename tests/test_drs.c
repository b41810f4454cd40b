/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_drs.c - receive autotuning's kernel arithmetic, each rule on
 * cases worked by hand or read off a kernel's tcp_rcvbuf_grow tracepoint
 * (the traces Eric Dumazet quotes in d59fc95be9d0 for 6.16, ratio 230,
 * and in aa251c84636c, "Before" 6.16-6.17 and "After" 6.18, ratio 219):
 * the window-from-space rules both ways, the scaling_ratio measurement,
 * and the 6.6, 6.16 and 6.18 variants through their ops, as the engine
 * calls them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "models/tcp/tcp.h"
#include "sim/sim.h"
#include "tests/world.h"

extern const struct tcp_drs_ops tcp_drs_space_from_win_ops, tcp_drs_rcvbuf_grow, tcp_drs_rcvbuf_grow_rate;

/* A receiver with tcp_moderate_rcvbuf on, tcp_rmem[2] 500 MB, advmss
 * 1460, and the given ratio (0: adv_win_scale 1). */
static struct tcp_drs_view view(uint64_t copied, uint64_t inq, uint64_t space, uint32_t ratio)
{
    return (struct tcp_drs_view){ .copied = copied, .inq = inq, .space = space, .advmss = 1460,
                                  .rcvbuf = 131072, .window_clamp = 65536, .scaling_ratio = ratio,
                                  .adv_win_scale = 1, .rmem = { 4096, 131072, 524288000 }, .moderate = true };
}
static struct tcp_drs_set set_of(const struct tcp_drs_view *v)
{
    return (struct tcp_drs_set){ v->rcvbuf, v->window_clamp, v->space };
}

static void test_win_from_space(void **state)
{
    (void)state;
    struct tcp_drs_view v = view(0, 0, 0, 141);
    assert_int_equal(tcp_drs_win_from_space(&v, 376960), 207622);     /* 376960 x 141 / 256 = 207622.5 */
    assert_int_equal(tcp_drs_space_from_win(&v, 207622), 376959);      /* 207622 x 256 / 141 = 376959.1 */
    v.scaling_ratio = 219;
    assert_int_equal(tcp_drs_win_from_space(&v, 502741), 430079);      /* aa251c84636c: window_clamp=430079 */
    /* an int window of 2^31 and more is negative in the kernel: its
     * (u64) is sign-extended, and the int result is the low 32 bits */
    v.scaling_ratio = 141;
    assert_int_equal(tcp_drs_space_from_win(&v, 3600070080LL), -1413961162);
    /* adv_win_scale: 4.15's rule, and our inverse (6.6 has none) */
    v.scaling_ratio = 0;
    assert_int_equal(tcp_drs_win_from_space(&v, 376960), 188480);
    assert_int_equal(tcp_drs_space_from_win(&v, 188480), 376960);
    assert_int_equal(tcp_drs_space_from_win(&v, 5), 10);
    v.adv_win_scale = 2;                                               /* 3/4: 300 -> 400 */
    assert_int_equal(tcp_drs_space_from_win(&v, 300), 400);
    assert_int_equal(tcp_drs_win_from_space(&v, 400), 300);
    assert_int_equal(tcp_drs_space_from_win(&v, 301), 402);            /* 1204 / 3 = 401.3, rounded up */
    v.adv_win_scale = -1;
    assert_int_equal(tcp_drs_space_from_win(&v, 1000), 2000);
}

/* tcp_measure_rcv_mss under scaling_ratio, on a socket of its own */
static void test_scaling_ratio_measure(void **state)
{
    (void)state;
    static struct tcp_host th;
    static struct tcp_sock tp;
    memset(&th, 0, sizeof th);
    memset(&tp, 0, sizeof tp);
    th.scaling_ratio = true;
    tp.th = &th;
    tp.sk.rcvbuf = 376960;
    tp.window_clamp = 187020;     /* tcp_init_buffer_space at 50 % (test_tcp's after-handshake figures) */
    tp.rcv_wnd = 28960;
    tp.rcv_ssthresh = 28960;
    tp.rcvq_space = 28960;
    /* 1448 bytes in 2048 + 576: 370688 / 2624 = 141.3 */
    tcp_scaling_ratio_measure(&tp, 1448, 2624);
    assert_int_equal(tp.scaling_ratio, 141);
    assert_int_equal(tp.window_clamp, 207622);          /* the clamp follows the buffer: grown */
    assert_int_equal(tp.rcv_ssthresh, 28960);           /* max(min(rcv_wnd, clamp), rcv_ssthresh) */
    assert_int_equal(tp.rcvq_space, 28960);
    /* the same ratio again: nothing moves */
    tp.window_clamp = 1;
    tcp_scaling_ratio_measure(&tp, 1448, 2624);
    assert_int_equal(tp.window_clamp, 1);
    /* a full page per 536-byte segment: 137216 / 4672 = 29; the clamp
     * falls to 376960 x 29 / 256 = 42702, rcv_ssthresh and space with it */
    tp.window_clamp = 207622;
    tp.rcv_ssthresh = 100000;
    tp.rcvq_space = 50000;
    tcp_scaling_ratio_measure(&tp, 536, 4672);
    assert_int_equal(tp.scaling_ratio, 29);
    assert_int_equal(tp.window_clamp, 42702);
    assert_int_equal(tp.rcv_ssthresh, 42702);
    assert_int_equal(tp.rcvq_space, 42702);
    /* never under SOCK_MIN_RCVBUF / 2, and a ratio of 0 is 1 */
    tcp_scaling_ratio_measure(&tp, 1, 4672);
    assert_int_equal(tp.scaling_ratio, 1);
    assert_int_equal(tp.window_clamp, 2304);
}

/* 6.6-6.15: 4.16's growth, then tcp_space_from_win */
static void test_space_from_win(void **state)
{
    (void)state;
    const struct tcp_drs_ops *o = &tcp_drs_space_from_win_ops;
    /* rcvwin 4000000 + 23360, doubled by the growth: 12070080; x 256 / 141 */
    struct tcp_drs_view v = view(2000000, 0, 1000000, 141);
    struct tcp_drs_set s = set_of(&v);
    assert_true(o->adjust(&v, &s));
    assert_int_equal(s.rcvbuf, 21914471);
    assert_int_equal(s.window_clamp, 12070079);
    assert_int_equal(s.space, 2000000);
    /* at adv_win_scale 1 the buffer is twice the window (4.16: x 2996/1460) */
    v = view(2000000, 0, 1000000, 0);
    s = set_of(&v);
    assert_true(o->adjust(&v, &s));
    assert_int_equal(s.rcvbuf, 24140160);
    assert_int_equal(s.window_clamp, 12070080);
    /* +30 %: 2600000 + 23360 + 2 x 786048 */
    v = view(1300000, 0, 1000000, 141);
    s = set_of(&v);
    assert_true(o->adjust(&v, &s));
    assert_int_equal(s.rcvbuf, 7620767);
    assert_int_equal(s.window_clamp, 4197375);
    /* a window past 2^31: the kernel's int goes negative, its u64 min is tcp_rmem[2] */
    v = view(600000000, 0, 300000000, 141);
    v.rmem[2] = 1000000000;
    s = set_of(&v);
    assert_true(o->adjust(&v, &s));
    assert_int_equal(s.rcvbuf, 1000000000);
    assert_int_equal(s.window_clamp, 550781250);
    /* not above space: nothing; not moderated: only space */
    v = view(1000000, 0, 1000000, 141);
    s = set_of(&v);
    assert_false(o->adjust(&v, &s));
    assert_int_equal(s.rcvbuf, 131072);
    assert_int_equal(s.space, 1000000);
    v = view(2000000, 0, 1000000, 141);
    v.moderate = false;
    s = set_of(&v);
    assert_true(o->adjust(&v, &s));
    assert_int_equal(s.rcvbuf, 131072);
    assert_int_equal(s.space, 2000000);
    assert_null(o->ofo);
    assert_null(o->rcv_rtt);
}

/* 6.16-6.17 (the traces' rcvbuf is the one the previous call set) */
static void test_rcvbuf_grow(void **state)
{
    (void)state;
    const struct tcp_drs_ops *o = &tcp_drs_rcvbuf_grow;
    /* d59fc95be9d0: copied=110592 inq=0 space=40960 ratio 230 -> rcvbuf=246187 */
    struct tcp_drs_view v = view(110592, 0, 40960, 230);
    struct tcp_drs_set s = set_of(&v);
    assert_true(o->adjust(&v, &s));
    assert_int_equal(s.rcvbuf, 246187);
    assert_int_equal(s.space, 110592);
    /* copied=424960 inq=20480 space=373760 -> space=404480 rcvbuf=900407 */
    v = view(424960, 20480, 373760, 230);
    v.rcvbuf = 832022;
    s = set_of(&v);
    assert_true(o->adjust(&v, &s));
    assert_int_equal(s.space, 404480);
    assert_int_equal(s.rcvbuf, 900407);
    /* aa251c84636c, before: copied=86016 space=49152 ratio 219 -> rcvbuf=201096 window_clamp=172031 */
    v = view(86016, 0, 49152, 219);
    s = set_of(&v);
    assert_true(o->adjust(&v, &s));
    assert_int_equal(s.rcvbuf, 201096);
    assert_int_equal(s.window_clamp, 172031);
    /* by hand: the out-of-order span is added, 2 x 900000 + 144800 */
    v = view(1000000, 100000, 500000, 141);
    v.ofo_span = 144800;
    s = set_of(&v);
    assert_true(o->adjust(&v, &s));
    assert_int_equal(s.space, 900000);
    assert_int_equal(s.rcvbuf, 3530984);
    assert_int_equal(s.window_clamp, 1944799);
    /* copied less inq at or below space, or negative: nothing */
    v = view(600000, 100000, 500000, 141);
    s = set_of(&v);
    assert_false(o->adjust(&v, &s));
    assert_int_equal(s.space, 500000);
    v = view(1000, 5000, 500000, 141);
    s = set_of(&v);
    assert_false(o->adjust(&v, &s));
    /* the out-of-order call: space kept, 2 x 900000 + 1000000 */
    v = view(0, 0, 900000, 141);
    v.ofo_span = 1000000;
    s = set_of(&v);
    o->ofo(&v, &s);
    assert_int_equal(s.space, 900000);
    assert_int_equal(s.rcvbuf, 5083687);
    /* never lowered */
    v.rcvbuf = 6000000;
    s = set_of(&v);
    o->ofo(&v, &s);
    assert_int_equal(s.rcvbuf, 6000000);
}

/* 6.18: aa251c84636c's own trace, after */
static void test_rcvbuf_grow_rate(void **state)
{
    (void)state;
    const struct tcp_drs_ops *o = &tcp_drs_rcvbuf_grow_rate;
    /* copied=49152 space=40960 ratio 219 -> rcvbuf=160875 */
    struct tcp_drs_view v = view(49152, 0, 40960, 219);
    struct tcp_drs_set s = set_of(&v);
    assert_true(o->adjust(&v, &s));
    assert_int_equal(s.rcvbuf, 160875);
    assert_int_equal(s.space, 49152);
    /* copied=86016 space=49152 -> rcvbuf=502741 window_clamp=430079 */
    v = view(86016, 0, 49152, 219);
    v.rcvbuf = 160875;
    s = set_of(&v);
    assert_true(o->adjust(&v, &s));
    assert_int_equal(s.rcvbuf, 502741);
    assert_int_equal(s.window_clamp, 430079);
    /* the out-of-order call has no rate term: as 6.16's */
    v = view(0, 0, 900000, 141);
    v.ofo_span = 1000000;
    s = set_of(&v);
    o->ofo(&v, &s);
    assert_int_equal(s.rcvbuf, 5083687);
    assert_int_equal(s.space, 900000);
}

/* The receiver RTT estimator of 6.16+ (us x 8) */
static void test_rcv_rtt_616(void **state)
{
    (void)state;
    assert_int_equal(tcp_drs_rcv_rtt_616(0, 100000, true, 0), 800000);        /* the first */
    assert_int_equal(tcp_drs_rcv_rtt_616(800000, 120000, true, 0), 800000);   /* larger, per window: no */
    assert_int_equal(tcp_drs_rcv_rtt_616(800000, 90000, true, 0), 720000);    /* smaller: at once */
    assert_int_equal(tcp_drs_rcv_rtt_616(720000, 90000, false, 0), 720000);   /* equal, by timestamp: 7/8 + 1/8 */
    assert_int_equal(tcp_drs_rcv_rtt_616(720000, 100000, false, 0), 730000);
    assert_int_equal(tcp_drs_rcv_rtt_616(720000, 100000, false, 1448), 720000);   /* data unread: no */
    assert_int_equal(tcp_drs_rcv_rtt_616(720000, 0, false, 0), 720000);       /* a 0-ms timestamp: no */
    assert_int_equal(tcp_drs_rcv_rtt_616(0, 0, false, 0), 0);
}

/* In a run: the receiver of tcp_drs.ini's set-up measures 1448 / (2048 +
 * 576) from its first full segment, and the clamp follows its 4.15
 * buffer of 376960 at 141/256: 207622, where adv_win_scale gives 187020. */
static void test_ratio_in_a_run(void **state)
{
    (void)state;
    static const char ini[] =
        "[sim]\nduration = 200ms\ninterval = 10ms\n"
        "[host sender]\ncpu = ideal\n" OFFLOADS_OFF
        "[host receiver]\ncpu = ideal\n" OFFLOADS_OFF "net.ipv4.tcp_rmem = 4096 87380 524288000\nskb_head_truesize = 576\n"
        "rx_buf_size = 2048\ntcp.drs = rcvbuf_grow\ntcp.win_from_space = scaling_ratio\n"
        "[link path]\nends = sender:eth0 receiver:eth0\nrate = 10gbit\nfwd.delay = 50ms\nrev.delay = 50ms\n"
        "[flow 1]\napp = tcp_stream\nfrom = sender\nto = receiver\nlength = 100ms\ntrace_interval = 0\n";
    struct sim *s = world_build(ini);
    sim_run(s, false);
    struct host *h = host_find(s, "receiver");
    struct tcp_sock *srv = NULL;
    for (int m = 0; model_at(m); m++)
        if (!strcmp(model_at(m)->name, "tcp"))
            for (struct tcp_sock *tp = ((struct tcp_host *)h->mod[m])->conns; tp; tp = tp->next_conn)
                if (tp->state == TCP_ESTABLISHED)
                    srv = tp;
    assert_non_null(srv);
    assert_int_equal(srv->scaling_ratio, 141);
    assert_int_equal(srv->sk.rcvbuf, 376960);
    assert_int_equal(srv->window_clamp, 207622);
    world_free(s);
}

int main(void)
{
    models_install();   /* the engine's modules and variants (sim/sim.h) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_win_from_space),
        cmocka_unit_test(test_scaling_ratio_measure),
        cmocka_unit_test(test_space_from_win),
        cmocka_unit_test(test_rcvbuf_grow),
        cmocka_unit_test(test_rcvbuf_grow_rate),
        cmocka_unit_test(test_rcv_rtt_616),
        cmocka_unit_test(test_ratio_in_a_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
