/*
 * test_cc.c - CUBIC's and BBR's arithmetic against Linux 4.15's formulas
 * (net/ipv4/tcp_cubic.c, tcp_bbr.c, lib/win_minmax.c), on a bare tcp_sock
 * driven through the ops with a hand-set clock. The expectations are
 * integers worked out by hand from those formulas for the chosen inputs
 * (the cube root: the real root within the kernel's error).
 *
 * CUBIC: cube_factor = 2^40 / (bic_scale 41 x 10) = 2681735677 (integer),
 * K = cbrt(cube_factor x (W_max - cwnd)) in 1/1024 s, target = origin +-
 * (410 x |t - K|^3) >> 40, cnt = cwnd / (target - cwnd) ACKs per +1.
 * BBR: bw in packets/us << 24, gains << 8; pacing rate
 * P(bw, g) = ((bw x 1448 x g) >> 8) x 10^6 >> 24 bytes/s (no 1 % margin in
 * 4.15). Samples of D packets over 4096 us give bw = D x 4096 exactly;
 * min_rtt 10240 us makes the BDP of D = 24 exactly 60 packets.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "models/tcp/tcp.h"

static simtime_t now;
static struct tcp_sock sock;

static struct tcp_sock *bare_sock(const char *cc, uint16_t port)
{
    memset(&sock, 0, sizeof sock);
    sock.mss = 1448;
    sock.snd_cwnd = TCP_INIT_CWND;
    sock.snd_cwnd_clamp = 100000;
    sock.snd_ssthresh = 0x7fffffff;
    sock.min_rtt = SIMTIME_NEVER;
    sock.sk.port = port;
    sock.cc = tcp_cc_find(cc);
    assert_non_null(sock.cc);
    now = 20 * PS_PER_S;
    ctx_clock = &now;
    sock.cc->init(&sock);
    return &sock;
}

/* ------------------------------------------------------------ CUBIC */

/* The kernel's cubic_root (a table lookup and one Newton step) documents
 * an average error of 0.195 %; its largest for the K of 1..200000 packets
 * below W_max is 0.152 %. So K must be within 0.2 % + 1 of the real root.
 * cc_cubic.c takes libm's cbrt, the floor of the real root, which is
 * cubic_root's value for 2 % of those K only (three below). */
static void test_cubic_root(void **state)
{
    (void)state;
    const double cube_factor = 2681735677.0;
    int checked = 0;
    for (uint32_t below = 1; below <= 1000000; below += below / 8 + 1, checked++) {
        double ref = cbrt(cube_factor * below);
        uint32_t k = tcp_cubic_k(below);
        if (fabs(k - ref) > 1 + 0.002 * ref)
            fail_msg("K(%u) = %u, the cube root is %.2f", below, k, ref);
    }
    assert_true(checked > 100);
    /* real roots: 1389.33 (1 packet below), 9300.63 (300), 13893.30 (1000);
     * cubic_root gives 1388, 9294, 13897 */
    assert_in_range(tcp_cubic_k(1), 1387, 1391);
    assert_in_range(tcp_cubic_k(300), 9281, 9319);
    assert_in_range(tcp_cubic_k(1000), 13865, 13922);
    /* K seconds is when the curve is back at W_max: cbrt(below / 0.4) */
    assert_in_range(tcp_cubic_k(400), (uint32_t)(10 * 1024 * 0.998), (uint32_t)(10 * 1024 * 1.002) + 1);
}

/* The window curve around origin 1000 with K = 9300: 410 x offs^3 >> 40
 * is 0 up to offs 1389 (410 x 1389^3 < 2^40 <= 410 x 1390^3), and C x s^3
 * (C = 410/1024) at whole seconds s = offs/1024: 0, 3, 10, 50, 400. */
static void test_cubic_curve(void **state)
{
    (void)state;
    const uint32_t K = 9300;
    assert_int_equal(tcp_cubic_target(1000, K, K), 1000);
    assert_int_equal(tcp_cubic_target(1000, K, K + 1389), 1000);
    assert_int_equal(tcp_cubic_target(1000, K, K + 1390), 1001);
    assert_int_equal(tcp_cubic_target(1000, K, K - 1389), 1000);
    assert_int_equal(tcp_cubic_target(1000, K, K - 1390), 999);
    assert_int_equal(tcp_cubic_target(1000, K, K + 1024), 1000);
    assert_int_equal(tcp_cubic_target(1000, K, K + 2048), 1003);     /* 3280 / 1024 */
    assert_int_equal(tcp_cubic_target(1000, K, K + 3072), 1010);     /* 11070 / 1024 */
    assert_int_equal(tcp_cubic_target(1000, K, K - 3072), 990);
    assert_int_equal(tcp_cubic_target(1000, K, K + 5120), 1050);     /* 51250 / 1024 */
    assert_int_equal(tcp_cubic_target(1000, K, K + 10240), 1400);    /* 410000 / 1024 */
    assert_int_equal(tcp_cubic_target(1000, 20000, 20000 - 10240), 600);
    /* the epoch's start: 410 x 9300^3 >> 40 = 299 (299.94), the window
     * it was cut to, 700, plus one */
    assert_int_equal(tcp_cubic_target(1000, K, 0), 701);
}

/* ACKs of one packet each at `ms` (absolute) on a window of `cwnd`, until
 * it grows: the cnt bictcp_update chose there */
static uint32_t acks_to_grow(struct tcp_sock *tp, int64_t ms, uint32_t cwnd)
{
    now = ms * PS_PER_MS;
    tp->snd_cwnd = cwnd;
    tp->snd_cwnd_cnt = 0;
    uint32_t n = 0;
    while (tp->snd_cwnd == cwnd && n < 1000000) {
        tp->cc->cong_avoid(tp, 1);
        n++;
    }
    return n;
}

static void cubic_loss(struct tcp_sock *tp, int64_t ms, uint32_t cwnd, uint32_t want_ssthresh)
{
    now = ms * PS_PER_MS;
    tp->snd_cwnd = cwnd;
    tp->snd_ssthresh = tp->cc->ssthresh(tp);
    assert_int_equal(tp->snd_ssthresh, want_ssthresh);
}

/* The same curve through the ops, at points where any K within the
 * cube root's 0.2 % gives the same target (t = ms x 1024 / 1000, and
 * K(300) in 9281..9319): cnt = cwnd / (target - cwnd) */
static void test_cubic_epochs(void **state)
{
    (void)state;
    struct tcp_sock *tp = bare_sock("cubic", 1);
    const int64_t T0 = 20000;
    /* no loss yet (W_max 0): K 0, origin = cwnd, at most 20 ACKs per +1 */
    tp->snd_ssthresh = 50;
    assert_int_equal(acks_to_grow(tp, T0 - 5000, 100), 20);

    /* first loss at 1000: ssthresh 1000 x 717 / 1024 = 700, W_max 1000 */
    cubic_loss(tp, T0, 1000, 700);
    /* t 0: target 701, cnt 700 / 1 */
    assert_int_equal(acks_to_grow(tp, T0, 700), 700);
    /* 6112 ms: t 6258, K - t = 3042 (3023..3061: 10.3 to 10.7 -> 10),
     * target 990; cnt 985 / 5 */
    assert_int_equal(acks_to_grow(tp, T0 + 6112, 985), 197);
    /* 9083 ms: t 9300, on the plateau: target 1000, cnt 990 / 10 */
    assert_int_equal(acks_to_grow(tp, T0 + 9083, 990), 99);
    /* 12025 ms: t 12313, t - K = 3013 (2994..3032 -> 10), target 1010 */
    assert_int_equal(acks_to_grow(tp, T0 + 12025, 1000), 100);
    /* far above: cnt = cwnd / (target - cwnd) < 2 is raised to 2 */
    assert_int_equal(acks_to_grow(tp, T0 + 20000, 1001), 2);

    /* second loss below W_max (900 < 1000): fast convergence, W_max =
     * 900 x 1741 / 2048 = 765, ssthresh 630; K(135) = 7127 (7127.16) */
    const int64_t T1 = T0 + 25000;
    cubic_loss(tp, T1, 900, 630);
    tp->snd_cwnd = 630;
    tp->cc->cong_avoid(tp, 1);                 /* starts the epoch */
    /* 6960 ms: t 7127, the plateau at 765: cnt 760 / 5 */
    assert_int_equal(acks_to_grow(tp, T1 + 6960, 760), 152);

    /* third loss above W_max (800 >= 765): W_max 800, ssthresh 560; K(240) = 8634 */
    const int64_t T2 = T1 + 25000;
    cubic_loss(tp, T2, 800, 560);
    tp->snd_cwnd = 560;
    tp->cc->cong_avoid(tp, 1);
    /* 8432 ms: t 8634: cnt 795 / 5 */
    assert_int_equal(acks_to_grow(tp, T2 + 8432, 795), 159);

    /* ssthresh never below 2 */
    cubic_loss(tp, T2 + 30000, 2, 2);
    ctx_clock = NULL;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cubic_root),
        cmocka_unit_test(test_cubic_curve),
        cmocka_unit_test(test_cubic_epochs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
