/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_cc.c - CUBIC's and BBR's arithmetic against Linux 4.15's formulas
 * (net/ipv4/tcp_cubic.c, tcp_bbr.c, lib/win_minmax.c), on a bare tcp_sock
 * driven through the ops with a hand-set clock. The expectations are
 * integers worked out by hand from those formulas for the chosen inputs
 * (the cube root itself: test_cubic_root.c).
 *
 * CUBIC: cube_factor = 2^40 / (bic_scale 41 x 10) = 2681735677 (integer),
 * K = cubic_root(cube_factor x (W_max - cwnd)) in 1/1024 s, target = origin +-
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
#include <string.h>
#include "sim/host.h"
#include "sim/sim.h"
#include "models/tcp/cc_cubic.h"
#include "models/tcp/tcp.h"

static simtime_t now;
static struct tcp_sock sock;
static struct tcp_host host;      /* where the cc's keys live: their defaults, or a test's */
static struct sim run = { .seed = 1 };    /* the run's seed and the host, for a cc's random stream */
static struct host node;

static struct tcp_sock *bare_sock(const char *cc, uint16_t port)
{
    memset(&sock, 0, sizeof sock);
    sock.mss = 1448;
    sock.ts_ok = true;                /* IPv4 with timestamps: 1500-byte packets */
    sock.snd_cwnd = TCP_INIT_CWND;
    sock.snd_cwnd_clamp = 100000;
    sock.snd_ssthresh = TCP_INFINITE_SSTHRESH;
    sock.min_rtt = SIMTIME_NEVER;
    sock.sk.port = port;
    sock.sim = &run;
    sock.h = &node;
    sock.cc = tcp_cc_find(cc);
    assert_non_null(sock.cc);
    memset(&host, 0, sizeof host);
    variant_key_defaults(sock.cc, host.cc_vals);
    sock.th = &host;
    now = 20 * PS_PER_S;
    ctx_clock = &now;
    sock.cc->init(&sock);
    return &sock;
}

/* ------------------------------------------------------------ CUBIC */

/* A key of the socket's cc, set as a scenario would set it. */
static void set_key(struct tcp_sock *tp, const char *name, int64_t v)
{
    int i = variant_key_index(tp->cc, name);
    assert_true(i >= 0);
    host.cc_vals[i] = v;
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

/* The same curve through the ops (t = ms x 1024 / 1000, K(300) = 9294):
 * cnt = cwnd / (target - cwnd) */
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
    /* 6112 ms: t 6258, K - t = 3036 (410 x 3036^3 / 2^40 = 10.4 -> 10),
     * target 990; cnt 985 / 5 */
    assert_int_equal(acks_to_grow(tp, T0 + 6112, 985), 197);
    /* 9083 ms: t 9300, on the plateau: target 1000, cnt 990 / 10 */
    assert_int_equal(acks_to_grow(tp, T0 + 9083, 990), 99);
    /* 12025 ms: t 12313, t - K = 3019 (10.3 -> 10), target 1010 */
    assert_int_equal(acks_to_grow(tp, T0 + 12025, 1000), 100);
    /* far above: cnt = cwnd / (target - cwnd) < 2 is raised to 2 */
    assert_int_equal(acks_to_grow(tp, T0 + 20000, 1001), 2);

    /* second loss below W_max (900 < 1000): fast convergence, W_max =
     * 900 x 1741 / 2048 = 765, ssthresh 630; K(135) = 7129 (7127.16) */
    const int64_t T1 = T0 + 25000;
    cubic_loss(tp, T1, 900, 630);
    tp->snd_cwnd = 630;
    tp->cc->cong_avoid(tp, 1);                 /* starts the epoch */
    /* 6960 ms: t 7127, the plateau at 765: cnt 760 / 5 */
    assert_int_equal(acks_to_grow(tp, T1 + 6960, 760), 152);
    /* 8319 ms: t 8518, 1389 past K, still the plateau (410 x 1389^3 <
     * 2^40): 152 again; libm's K, 7127, put it at 766, cnt 760 / 6 = 126 */
    assert_int_equal(acks_to_grow(tp, T1 + 8319, 760), 152);

    /* third loss above W_max (800 >= 765): W_max 800, ssthresh 560; K(240) = 8633 */
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

/* tcp_cubic's module parameters as keys (tcp.cc.cubic.NAME), each moving
 * what its line of tcp_cubic.c moves. */
static void test_cubic_keys(void **state)
{
    (void)state;
    struct tcp_sock *tp = bare_sock("cubic", 1);
    const int64_t T0 = 20000;
    /* beta 819: ssthresh = 1000 x 819 / 1024 = 799 (799.8) */
    set_key(tp, "beta", 819);
    cubic_loss(tp, T0, 1000, 799);

    /* fast_convergence 0: a loss below W_max (900 < 1000) keeps W_max =
     * 900, not 765; ssthresh 630; K(270) = 8976 (8979.66). At 6960 ms, t
     * 7127, K - t = 1849: target 900 - (410 x 1849^3 >> 40) = 898, cnt
     * 760 / 138 = 5 (with fast convergence the plateau at 765 gave 152) */
    tp = bare_sock("cubic", 1);
    set_key(tp, "fast_convergence", 0);
    cubic_loss(tp, T0, 1000, 700);
    const int64_t T1 = T0 + 25000;
    cubic_loss(tp, T1, 900, 630);
    tp->snd_cwnd = 630;
    tp->cc->cong_avoid(tp, 1);
    assert_int_equal(acks_to_grow(tp, T1 + 6960, 760), 5);

    /* initial_ssthresh applies only with hystart off (bictcp_init) */
    tp = bare_sock("cubic", 1);
    set_key(tp, "initial_ssthresh", 50);
    tp->cc->init(tp);
    assert_int_equal(tp->snd_ssthresh, TCP_INFINITE_SSTHRESH);
    set_key(tp, "hystart", 0);
    tp->cc->init(tp);
    assert_int_equal(tp->snd_ssthresh, 50);
    ctx_clock = NULL;

    /* bic_scale 82 doubles C: cube_factor 2^40 / 820 = 1340867838, and
     * K(1000) = 11027 (11027.12) instead of 13897: 41 bits, b 12, top 19
     * (v 168), x0 11392, 22784 + 10332 = 33116 -> 11027 */
    assert_int_equal(tcp_cubic_k_scale(1000, 82), 11027);
    assert_int_equal(tcp_cubic_k_scale(1000, 41), tcp_cubic_k(1000));
}

/* ------------------------------------------------------------ Vegas */

/* One Vegas round: n RTT samples of vrtt - 1 us, then the ACK that ends
 * the round (snd_una past its right edge). */
static void vegas_round(struct tcp_sock *tp, uint32_t vrtt, int n)
{
    struct tcp_ack_sample sample = { 1, (int32_t)vrtt - 1, 0 };
    for (int i = 0; i < n; i++)
        tp->cc->pkts_acked(tp, &sample);
    tp->snd_una = tp->snd_nxt + 1;
    tp->cc->cong_avoid(tp, 1);
    tp->snd_nxt += 1000000;
}

/* tcp_vegas_cong_avoid's once-per-round rule: diff = cwnd x (minRTT -
 * baseRTT) / baseRTT packets queued; below alpha +1, above beta -1,
 * between them hold; in slow start above gamma, cwnd = the actual rate's
 * window + 1; two samples or fewer in a round: Reno. */
static void test_vegas_rounds(void **state)
{
    (void)state;
    struct tcp_sock *tp = bare_sock("vegas", 1);
    tp->snd_cwnd = 100;
    tp->snd_ssthresh = 50;
    tp->snd_nxt = 1000000;
    tp->cc->init(tp);
    /* two samples only: Reno's +1 per cwnd ACKs (one ACK here: none) */
    vegas_round(tp, 10000, 2);
    assert_int_equal(tp->snd_cwnd, 100);
    /* baseRTT 10000 from now on; minRTT 11000: diff = 100 x 1000 / 10000
     * = 10 > beta 4: 99, ssthresh min(50, 98) then tcp_current_ssthresh
     * max(50, 49 + 24) = 73 */
    vegas_round(tp, 11000, 3);
    assert_int_equal(tp->snd_cwnd, 99);
    assert_int_equal(tp->snd_ssthresh, 73);
    /* minRTT 10100: diff 99 x 100 / 10000 = 0 < alpha 2: 100 */
    vegas_round(tp, 10100, 3);
    assert_int_equal(tp->snd_cwnd, 100);
    /* minRTT 10300: diff 3, within [2, 4]: held */
    vegas_round(tp, 10300, 5);
    assert_int_equal(tp->snd_cwnd, 100);
    /* the same round with alpha 4 (tcp.cc.vegas.alpha): 3 < 4, 101 */
    set_key(tp, "alpha", 4);
    vegas_round(tp, 10300, 5);
    assert_int_equal(tp->snd_cwnd, 101);

    /* slow start: diff 20 x 500 / 10000 = 1, not above gamma 1: slow
     * start's +1 per ACK; then diff 21 x 1000 / 10000 = 2 > 1: cwnd =
     * 21 x 10000 / 11000 + 1 = 20, ssthresh min(inf, 19) = 19 */
    tp = bare_sock("vegas", 1);
    tp->snd_cwnd = 20;
    tp->snd_nxt = 1000000;
    tp->cc->init(tp);
    vegas_round(tp, 10000, 3);               /* baseRTT; diff 0: +1 */
    assert_int_equal(tp->snd_cwnd, 21);
    tp->snd_cwnd = 20;
    vegas_round(tp, 10500, 3);
    assert_int_equal(tp->snd_cwnd, 21);
    vegas_round(tp, 11000, 3);
    assert_int_equal(tp->snd_cwnd, 20);
    assert_int_equal(tp->snd_ssthresh, 19);
    /* a loss is Reno's: ssthresh cwnd / 2; undo back to prior_cwnd */
    assert_int_equal(tp->cc->ssthresh(tp), 10);
    ctx_clock = NULL;
}

/* ------------------------------------------------------------ BBR */

#define MIN_RTT_US 10240
#define SAMPLE_US 4096
#define BW(d) ((uint64_t)(d) * 4096)
enum { G_HIGH = 739, G_DRAIN = 88, G_UP = 320, G_DOWN = 192, G_ONE = 256 };

/* P(bw, g) for the bandwidths used, worked out by hand as 4.15's
 * bbr_rate_bytes_per_sec does, on the whole packet (tcp_mss_to_mtu: 1448
 * + 20 + 12 + 20 = 1500 bytes): (D x 4096 x 1500 x g >> 8) x 10^6 >> 24.
 * At gain 1 that is bw x 1500/1448, not bw (8 789 062 where the payload
 * gives 8 484 375). */
static const struct { uint32_t d, g; uint64_t rate; } P_table[] = {
    { 24, G_HIGH, 25371551 }, { 24, G_DRAIN, 3021240 }, { 24, G_UP, 10986328 }, { 24, G_DOWN, 6591796 },
    { 24, G_ONE, 8789062 }, { 40, G_DRAIN, 5035400 }, { 32, G_DRAIN, 4028320 }, { 8, G_DRAIN, 1007080 },
};

static uint64_t P(uint32_t d, uint32_t g)
{
    for (size_t i = 0; i < sizeof P_table / sizeof P_table[0]; i++)
        if (P_table[i].d == d && P_table[i].g == g)
            return P_table[i].rate;
    fail_msg("no P(%u, %u) in the table", d, g);
    return 0;
}

/* One ACK of one packet carrying a rate sample of d packets over 4096 us.
 * new_round: its packet was sent after the round's first ACK
 * (prior_delivered past next_rtt_delivered). Time is taken from `now`. */
static void bbr_ack(struct tcp_sock *tp, uint32_t d, bool new_round, uint32_t prior_in_flight, uint32_t losses,
                    bool app_limited)
{
    struct tcp_rate_sample rs = {
        .prior_delivered = new_round ? tp->delivered : 0,
        .delivered = d,
        .interval = SAMPLE_US * PS_PER_US,
        .rtt_us = MIN_RTT_US,
        .acked_sacked = 1,
        .losses = losses,
        .prior_in_flight = prior_in_flight,
        .is_app_limited = app_limited,
    };
    tp->delivered++;
    tp->delivered_mstamp = now;
    tp->cc->cong_control(tp, &rs);
}
static void round_of(struct tcp_sock *tp, uint32_t d) { bbr_ack(tp, d, true, 0, 0, false); }

/* 3 rounds without 25 % growth fill the pipe: DRAIN sets ssthresh to the
 * BDP target, (60 + 3 x tso 17) even = 112 (tso: P(24, high) >> 10 / 1448;
 * on the payload's rate it was 16, and 108) */
static bool pipe_full(const struct tcp_sock *tp) { return tp->snd_ssthresh != TCP_INFINITE_SSTHRESH; }

static void test_bbr_full_pipe(void **state)
{
    (void)state;
    /* growth of exactly 25 % (16 -> 20: bw 81920 = 65536 x 320 >> 8) counts
     * as growth; 24 < 25 does not: full after the 3rd round at 24 */
    struct tcp_sock *tp = bare_sock("bbr", 1);
    tp->packets_out = 1000;                   /* stay in DRAIN */
    round_of(tp, 16);
    round_of(tp, 20);
    round_of(tp, 24);
    bbr_ack(tp, 8, false, 0, 0, false);       /* not a round start: not counted */
    bbr_ack(tp, 8, false, 0, 0, false);
    round_of(tp, 24);
    bbr_ack(tp, 24, true, 0, 0, true);        /* app-limited round: not counted */
    assert_false(pipe_full(tp));
    assert_int_equal(tp->pacing_rate, P(24, G_HIGH));   /* STARTUP: high gain */
    round_of(tp, 24);
    assert_true(pipe_full(tp));
    assert_int_equal(tp->snd_ssthresh, 112);
    assert_int_equal(tp->pacing_rate, P(24, G_DRAIN));  /* DRAIN: 1 / high gain */

    /* 16 -> 19 is below 25 %: one round without growth, then 24 is growth
     * again (>= 20) and restarts the count: full on the 4th round at 24 */
    tp = bare_sock("bbr", 1);
    tp->packets_out = 1000;
    round_of(tp, 16);
    round_of(tp, 19);
    round_of(tp, 24);
    round_of(tp, 24);
    round_of(tp, 24);
    assert_false(pipe_full(tp));
    round_of(tp, 24);
    assert_true(pipe_full(tp));

    /* DRAIN ends once inflight is at most the BDP target, now with tso 2
     * (P(24, drain) >> 10 / 1448 = 2): 60 + 6 = 66 */
    tp->packets_out = 67;
    round_of(tp, 24);
    assert_int_equal(tp->pacing_rate, P(24, G_DRAIN));
    tp->packets_out = 66;
    round_of(tp, 24);
    assert_int_not_equal(tp->pacing_rate, P(24, G_DRAIN));   /* PROBE_BW */
    ctx_clock = NULL;
}

/* A GSO packet caps the TSO goal: at P(96, high) >> 10 = 95 671 bytes a
 * millisecond, 4.15's tcp_tso_autosize allows (65536 - 1 - MAX_TCP_HEADER
 * 320) / 1448 = 45 segments, so filling the pipe at D = 96 (BDP 240) sets
 * ssthresh to 240 + 3 x 45 = 375, even 376 (a cap of 44 gives 372). */
static void test_bbr_tso_goal_is_one_gso_packet(void **state)
{
    (void)state;
    struct tcp_sock *tp = bare_sock("bbr", 1);
    tp->packets_out = 100000;                 /* stay in DRAIN */
    round_of(tp, 64);
    round_of(tp, 80);                         /* 25 %: growth */
    round_of(tp, 96);
    round_of(tp, 96);
    assert_false(pipe_full(tp));
    round_of(tp, 96);                         /* the 3rd round below 25 % */
    assert_true(pipe_full(tp));
    assert_int_equal(tp->snd_ssthresh, 376);
    ctx_clock = NULL;
}

/* The max filter holds a sample for its own round and 10 more
 * (bbr_bw_rtts = 10): H at round R is the max through R + 10; M at R + 5
 * takes over at R + 11 through R + 15; L from R + 16. Watched in DRAIN,
 * where the pacing rate is P(max_bw, drain) on every ACK. */
static void test_bbr_max_filter(void **state)
{
    (void)state;
    struct tcp_sock *tp = bare_sock("bbr", 1);
    tp->packets_out = 1000;
    for (int i = 0; i < 5; i++)
        round_of(tp, i == 0 ? 16 : i == 1 ? 20 : 24);
    assert_true(pipe_full(tp));
    round_of(tp, 40);                                  /* H, a new max at once */
    assert_int_equal(tp->pacing_rate, P(40, G_DRAIN));
    for (int r = 1; r <= 20; r++) {
        round_of(tp, r == 5 ? 32 : 24);
        bbr_ack(tp, 8, false, 1000, 0, false);         /* lower samples within the round change nothing */
        uint32_t want = r <= 10 ? 40 : r <= 15 ? 32 : 24;
        if (tp->pacing_rate != P(want, G_DRAIN))
            fail_msg("round R + %d: pacing %llu, expected max_bw of D = %u", r, (unsigned long long)tp->pacing_rate,
                     want);
    }
    /* app-limited samples below max_bw stay out of the filter, however
     * long: 12 rounds of them leave 24; the next sample of 8 that is not
     * app-limited finds the window (last entry 13 rounds back) empty */
    for (int r = 0; r < 12; r++)
        bbr_ack(tp, 8, true, 1000, 0, true);
    assert_int_equal(tp->pacing_rate, P(24, G_DRAIN));
    round_of(tp, 8);
    assert_int_equal(tp->pacing_rate, P(8, G_DRAIN));
    ctx_clock = NULL;
}

/* STARTUP -> DRAIN -> PROBE_BW at once, inflight 0 */
static void to_probe_bw(struct tcp_sock *tp)
{
    tp->packets_out = 0;
    round_of(tp, 16);
    round_of(tp, 20);
    for (int i = 0; i < 3; i++)
        round_of(tp, 24);
    assert_true(pipe_full(tp));
}

static uint32_t gain_now(const struct tcp_sock *tp)
{
    static const uint32_t g[] = { G_UP, G_DOWN, G_ONE };
    for (int i = 0; i < 3; i++)
        if (tp->pacing_rate == P(24, g[i]))
            return g[i];
    fail_msg("pacing rate %llu is not P(24, g) for a cycle gain", (unsigned long long)tp->pacing_rate);
    return 0;
}

/* one ACK a min_rtt + 1 us after the last, inflight far above any target:
 * every phase ends on it */
static void next_phase(struct tcp_sock *tp)
{
    now += (MIN_RTT_US + 1) * PS_PER_US;
    bbr_ack(tp, 24, false, 100000, 0, false);
}

static const uint32_t cycle[8] = { G_UP, G_DOWN, G_ONE, G_ONE, G_ONE, G_ONE, G_ONE, G_ONE };

/* The phase PROBE_BW started in, from 9 phases: where 5/4 comes first */
static int start_phase(struct tcp_sock *tp)
{
    uint32_t seen[9];
    seen[0] = gain_now(tp);
    for (int i = 1; i < 9; i++) {
        next_phase(tp);
        seen[i] = gain_now(tp);
    }
    int first_up = -1;
    for (int i = 0; i < 8 && first_up < 0; i++)
        if (seen[i] == G_UP)
            first_up = i;
    assert_true(first_up >= 0);
    int s = (8 - first_up) % 8;
    for (int i = 0; i < 9; i++)
        if (seen[i] != cycle[(s + i) % 8])
            fail_msg("phase %d from start %d: gain %u, expected %u", i, s, seen[i], cycle[(s + i) % 8]);
    return s;
}

/* The gain cycle [5/4, 3/4, 1 x 6], one phase per min_rtt; PROBE_BW starts
 * in a random phase other than 3/4 (CYCLE_LEN - 1 - random(7), then +1) */
static void test_bbr_gain_cycle(void **state)
{
    (void)state;
    int starts[8] = { 0 };
    for (uint16_t port = 1; port <= 70; port++) {
        struct tcp_sock *tp = bare_sock("bbr", port);
        to_probe_bw(tp);
        starts[start_phase(tp)]++;
    }
    assert_int_equal(starts[1], 0);
    for (int s = 0; s < 8; s++)
        if (s != 1 && starts[s] == 0)
            fail_msg("no flow of 70 started PROBE_BW in phase %d", s);
    ctx_clock = NULL;
}

/* When each phase ends (bbr_is_next_cycle_phase, 4.15): gain 1 after more
 * than min_rtt; 5/4 after min_rtt and only once inflight reaches
 * target(5/4) or a loss; 3/4 after min_rtt or as soon as inflight is down
 * to target(1). Targets with the tso of the ACK before: 5/4: 75 + 3 x 7
 * = 96; 1 in the 3/4 phase: 60 + 3 x 4 = 72. */
static void test_bbr_phase_ends(void **state)
{
    (void)state;
    struct tcp_sock *tp = bare_sock("bbr", 1);
    to_probe_bw(tp);
    while (gain_now(tp) != G_UP)
        next_phase(tp);
    simtime_t start = now;
    /* 5/4: long enough but inflight 95 < 96 and no loss: stays */
    now = start + 3 * MIN_RTT_US * PS_PER_US;
    bbr_ack(tp, 24, false, 95, 0, false);
    assert_int_equal(gain_now(tp), G_UP);
    bbr_ack(tp, 24, false, 96, 0, false);
    assert_int_equal(gain_now(tp), G_DOWN);
    /* 3/4 at once (no time has passed): inflight 73 stays, 72 ends it */
    bbr_ack(tp, 24, false, 73, 0, false);
    assert_int_equal(gain_now(tp), G_DOWN);
    bbr_ack(tp, 24, false, 72, 0, false);
    assert_int_equal(gain_now(tp), G_ONE);
    /* at gain 1 the rate is the whole packets' bw: bw x 1500/1448, as ss
     * shows 4.15's pacing_rate above its bbr:(bw:...) */
    assert_int_equal(tp->pacing_rate, P(24, G_ONE));
    /* five gain-1 phases, then the sixth ends at min_rtt + 1 us, not at min_rtt */
    for (int i = 0; i < 5; i++)
        next_phase(tp);
    assert_int_equal(gain_now(tp), G_ONE);
    start = now;
    now = start + MIN_RTT_US * PS_PER_US;
    bbr_ack(tp, 24, false, 100000, 0, false);
    assert_int_equal(gain_now(tp), G_ONE);
    now = start + (MIN_RTT_US + 1) * PS_PER_US;
    bbr_ack(tp, 24, false, 100000, 0, false);
    assert_int_equal(gain_now(tp), G_UP);
    /* 5/4 with a loss: not before min_rtt, then at once, inflight 0 */
    start = now;
    bbr_ack(tp, 24, false, 0, 1, false);
    assert_int_equal(gain_now(tp), G_UP);
    now = start + (MIN_RTT_US + 1) * PS_PER_US;
    bbr_ack(tp, 24, false, 0, 0, false);
    assert_int_equal(gain_now(tp), G_UP);
    bbr_ack(tp, 24, false, 0, 1, false);
    assert_int_equal(gain_now(tp), G_DOWN);
    ctx_clock = NULL;
}

int main(void)
{
    models_install();   /* the engine's modules and variants (sim/sim.h) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cubic_curve),    cmocka_unit_test(test_cubic_epochs),
        cmocka_unit_test(test_cubic_keys),
        cmocka_unit_test(test_vegas_rounds),   cmocka_unit_test(test_bbr_full_pipe),
        cmocka_unit_test(test_bbr_tso_goal_is_one_gso_packet),
        cmocka_unit_test(test_bbr_max_filter), cmocka_unit_test(test_bbr_gain_cycle),
        cmocka_unit_test(test_bbr_phase_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
