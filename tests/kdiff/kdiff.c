/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kdiff.c - the differential check: netsim's ports of self-contained
 * kernel functions against the kernel's own code (kside.c, compiled from
 * a Linux tree), on random and exhaustive inputs. The model follows 4.15;
 * the tree is whatever KSRC names (CI: Debian's linux-source-6.1). Where
 * the releases agree the outputs must be identical; where the tree has
 * changed a function since 4.15, the check names the change and calls the
 * tree's function with the inputs that reduce it to 4.15's arithmetic (a
 * margin of 0, no min_rtt), so that it still checks every other step, and
 * says what the tree itself gives.
 *
 *   kdiff [ROUNDS]     exits 1 on the first difference, with the input
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/qdisc/codel.h"
#include "models/tcp/cc_cubic.h"
#include "models/tcp/internal.h"
#include "sim/dql.h"
#include "tests/kdiff/kside.h"
#include "tests/kdiff/nside.h"

static uint64_t seed = 0x6b64696666ULL;
/* xorshift64*: the check's own inputs, wrapping by design */
ARITH_WRAPS static uint64_t rnd(void)
{
    seed ^= seed >> 12;
    seed ^= seed << 25;
    seed ^= seed >> 27;
    return seed * 0x2545F4914F6CDD1DULL;
}
static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }

static int failures;
#define DIFFER(...)                                 \
    do {                                            \
        fprintf(stderr, "kdiff: DIFFERS: " __VA_ARGS__); \
        fputc('\n', stderr);                        \
        failures++;                                 \
        return;                                     \
    } while (0)

/* lib/win_minmax.c (BBR's bandwidth filter): sequences of samples with
 * ties, gaps past the window and time wrapping past 2^32 */
static void check_minmax(long rounds)
{
    long steps = 0;
    for (long r = 0; r < rounds; r++) {
        uint32_t win = 1 + (uint32_t)below(r % 2 ? 100 : 1000000);
        uint32_t t = r % 3 ? (uint32_t)rnd() : UINT32_MAX - 1000;
        uint32_t k[6] = { t, 0, t, 0, t, 0 };
        uint64_t n[6] = { t, 0, t, 0, t, 0 };
        uint32_t range = r % 4 ? 16 : UINT32_MAX;
        for (int i = 0; i < 200; i++, steps++) {
            t = wrap_add_u32(t, (uint32_t)below(i % 7 ? win / 3 + 2 : 3 * (uint64_t)win));
            uint32_t v = (uint32_t)below(range);
            uint32_t kr = kd_minmax_running_max(k, win, t, v);
            uint64_t nr = ns_mm_running_max(n, win, t, v);
            for (int j = 0; j < 6; j++)
                if (k[j] != n[j] || kr != nr)
                    DIFFER("minmax_running_max(win %u, t %u, v %u): kernel %u (s%d %u), netsim %" PRIu64 " (%" PRIu64 ")",
                           win, t, v, kr, j, k[j], nr, n[j]);
        }
    }
    printf("  minmax_running_max    %8ld samples   identical\n", steps);
}

/* lib/dynamic_queue_limits.c: a TX ring's queued and completed bytes,
 * jiffies advancing, counters started near their wrap */
static void check_dql(long rounds)
{
    long steps = 0;
    for (long r = 0; r < rounds; r++) {
        uint32_t hold = 1 + (uint32_t)below(2000);
        unsigned long now = (unsigned long)below(1u << 20);
        struct kd_dql k;
        struct dql n;
        kd_dql_init(&k, hold, now);
        dql_init(&n, hold, now);
        uint32_t start = r % 2 ? 0 : UINT32_MAX - (uint32_t)below(1u << 24);
        k.num_queued = k.num_completed = k.prev_num_queued = start;
        n.num_queued = n.num_completed = n.prev_num_queued = start;
        k.adj_limit = n.adj_limit = start;
        uint32_t outstanding = 0;
        for (int i = 0; i < 400; i++, steps++) {
            if (below(3) && kd_dql_avail(&k) >= 0) {
                uint32_t c = 60 + (uint32_t)below(65536);
                kd_dql_queued(&k, c);
                dql_queued(&n, c);
                outstanding += c;
            } else {
                uint32_t c = (uint32_t)below((uint64_t)outstanding + 1);
                now += below(5) == 0 ? below(3 * (uint64_t)hold) : below(2);
                kd_dql_completed(&k, c, now);
                dql_completed(&n, c, now);
                outstanding -= c;
            }
            if (kd_dql_avail(&k) != dql_avail(&n) || k.limit != n.limit || k.lowest_slack != n.lowest_slack ||
                k.slack_start_time != n.slack_start_time || k.prev_ovlimit != n.prev_ovlimit ||
                k.adj_limit != n.adj_limit || k.num_completed != n.num_completed)
                DIFFER("dql step %d of round %ld: limit kernel %u netsim %u, avail %d %d, lowest_slack %u %u", i, r,
                       k.limit, n.limit, kd_dql_avail(&k), dql_avail(&n), k.lowest_slack, n.lowest_slack);
        }
    }
    printf("  dql_queued/completed  %8ld steps     identical\n", steps);
}

/* CoDel's Newton step for every rec_inv_sqrt at counts small and large,
 * and its control law */
static void check_codel(long rounds)
{
    long n = 0;
    for (uint32_t r = 0; r < 65536; r++)
        for (int i = 0; i < 24; i++, n++) {
            uint32_t count = i < 12 ? (uint32_t)i + 1 : (uint32_t)(1 + below(i < 20 ? 1u << 16 : UINT32_MAX));
            struct codel_vars v = { .count = count, .rec_inv_sqrt = (uint16_t)r };
            codel_Newton_step(&v);
            uint16_t k = kd_codel_newton_step(count, (uint16_t)r);
            if (k != v.rec_inv_sqrt)
                DIFFER("codel_Newton_step(count %u, rec_inv_sqrt %u): kernel %u, netsim %u", count, r, k,
                       v.rec_inv_sqrt);
        }
    for (long i = 0; i < rounds * 100; i++, n++) {
        uint32_t t = (uint32_t)rnd(), iv = (uint32_t)rnd() >> (i % 20), rs = (uint16_t)rnd();
        uint32_t k = kd_codel_control_law(t, iv, rs), m = codel_control_law(t, iv, rs);
        if (k != m)
            DIFFER("codel_control_law(%u, %u, %u): kernel %u, netsim %u", t, iv, rs, k, m);
    }
    printf("  codel Newton, law     %8ld inputs    identical\n", n);
}

/* K for a window b packets below W_max at the registered bic_scale, both
 * sides; the kernel's side multiplies in u64 as bictcp_update does */
static bool k_differs(uint64_t b, int scale)
{
    uint32_t kk = kd_cubic_root(wrap_mul_u64(kd_cubic_factor(), b));
    uint32_t nk = tcp_cubic_k_scale((uint32_t)b, (uint32_t)scale);
    if (kk == nk)
        return false;
    fprintf(stderr, "kdiff: DIFFERS: K for %" PRIu64 " below W_max (bic_scale %d): kernel %u, netsim %u\n", b, scale,
            kk, nk);
    failures++;
    return true;
}

/* tcp_cubic.c: cubic_root on every input below 2^22 and on inputs of
 * every length to 64 bits; K, cubic_root of the module's cube_factor
 * times the window's distance below W_max, for every distance to 10^6
 * (then sparser) and for distances near 2^32, where the u64 product wraps
 * at a small bic_scale; and bictcp_update, within an epoch and at its
 * start, where each side computes K in its own code. Exact: the model's
 * cubic_root is the kernel's integer algorithm, not the real root. */
static void check_cubic(long rounds)
{
    long roots = 0;
    for (uint64_t a = 0; a < (1u << 22); a++, roots++)
        if (kd_cubic_root(a) != tcp_cubic_root(a))
            DIFFER("cubic_root(%" PRIu64 "): kernel %u, netsim %u", a, kd_cubic_root(a), tcp_cubic_root(a));
    for (long i = 0; i < rounds * 100; i++, roots++) {
        uint64_t a = rnd() >> (i % 64);
        if (kd_cubic_root(a) != tcp_cubic_root(a))
            DIFFER("cubic_root(%" PRIu64 "): kernel %u, netsim %u", a, kd_cubic_root(a), tcp_cubic_root(a));
    }
    printf("  cubic_root            %8ld inputs    identical\n", roots);

    const int scales[] = { 41, 1, 100, 1023, 25, 26 };
    long all = 0;
    for (size_t s = 0; s < sizeof scales / sizeof scales[0]; s++) {
        kd_cubic_register(717, scales[s], 1);
        /* every distance to 10^6 at the default scale, 1 in 64 at the
         * others, then 1 in 16 to 2^32 */
        for (uint64_t b = 1; b <= UINT32_MAX; b += b < 1000000 ? (s ? b / 64 + 1 : 1) : b / 16 + 1, all++)
            if (k_differs(b, scales[s]))
                return;
        /* the last 64 to 2^32, and 64 either side of the distance past
         * which the kernel's u64 product wraps (bic_scale under 26) */
        for (uint64_t b = UINT32_MAX - 63; b <= UINT32_MAX; b++, all++)
            if (k_differs(b, scales[s]))
                return;
        uint64_t wraps = UINT64_MAX / kd_cubic_factor();
        for (uint64_t b = wraps - 64; b < wraps + 64 && b <= UINT32_MAX; b++, all++)
            if (k_differs(b, scales[s]))
                return;
    }
    printf("  cubic K               %8ld windows   identical (cubic_root against cubic_root)\n", all);

    long steps = 0, epochs = 0;
    for (long r = 0; r < rounds * 20; r++) {
        int beta = r % 5 ? 717 : 1 + (int)below(1022), scale = r % 3 ? 41 : 1 + (int)below(1022);
        int friendly = (int)(r % 2);
        kd_cubic_register(beta, scale, friendly);
        /* from 4 packets: below (cwnd x beta_scale) >> 3 = 0, with beta_scale
         * 2 or 3 (beta under 190), the kernel's TCP-friendly loop never ends;
         * the model's stops (tcp_cubic's default beta gives 15, safe) */
        uint32_t cwnd = 4 + (uint32_t)below(r % 4 ? 2000 : 1000000);
        uint32_t j = (uint32_t)rnd();
        uint32_t dm8 = (uint32_t)below(8 * 400);
        struct kd_bictcp k = {
            .cnt = (uint32_t)below(5000), .last_max_cwnd = r % 6 ? cwnd + (uint32_t)below(3 * cwnd) - cwnd : 0,
            .last_cwnd = r % 7 ? cwnd - 1 : cwnd, .last_time = j - (uint32_t)below(100),
            .bic_origin_point = cwnd + (uint32_t)below(cwnd), .bic_K = (uint32_t)below(20000),
            .delay_min_us = (dm8 >> 3) * 1000, .epoch_start = j - 1 - (uint32_t)below(30000),
            .ack_cnt = (uint32_t)below(4 * cwnd), .tcp_cwnd = cwnd - (uint32_t)below(cwnd / 2 + 1),
        };
        /* one in five starts an epoch: K from each side's cubic_root */
        if (r % 5 == 2)
            k.epoch_start = 0;
        epochs += k.epoch_start == 0 && k.last_max_cwnd > cwnd;
        struct kd_bictcp n = k;
        uint32_t acked = 1 + (uint32_t)below(64);
        kd_bictcp_update(&k, cwnd, acked, j);
        ns_cubic_update(&n, dm8, cwnd, acked, j, beta, scale, friendly);
        steps++;
        if (memcmp(&k, &n, sizeof k))
            DIFFER("bictcp_update(cwnd %u, acked %u, jiffies %u, beta %d, bic_scale %d): cnt kernel %u netsim %u, "
                   "tcp_cwnd %u %u, ack_cnt %u %u, K %u %u", cwnd, acked, j, beta, scale, k.cnt, n.cnt, k.tcp_cwnd,
                   n.tcp_cwnd, k.ack_cnt, n.ack_cnt, k.bic_K, n.bic_K);
    }
    printf("  bictcp_update         %8ld updates   identical, %ld of them computing K at an epoch's start "
           "(delay_min: 4.15's ms << 3, the tree's us)\n", steps, epochs);
}

/* tcp_bbr.c: bw to pacing rate. 4.15 multiplies by the whole packet
 * (tcp_mss_to_mtu) and has no margin; the tree's "tcp_bbr: fix bbr pacing
 * rate for internal pacing" (4.20) paces on mss_cache, 1 % below. The
 * tree's function with margin 0 and the packet's size for mss_cache is
 * 4.15's arithmetic. */
static void check_bbr(long rounds)
{
    const int gains[] = { 739, 88, 320, 192, 256, 512 };
    long n = 0, beyond = 0;
    for (long i = 0; i < rounds * 100; i++, n++) {
        uint32_t bw = (uint32_t)(rnd() >> (below(40) + 24));
        int gain = gains[i % 6];
        uint32_t mss = 536 + (uint32_t)below(9000 - 536);
        bool ts = i % 2, v6 = i % 3 == 0;
        uint32_t mtu = mss + 20 + (ts ? 12 : 0) + (v6 ? 40 : 20);
        /* past the kernel's range ("up to 2.9Tbit/sec and gain of 2.89x")
         * its u64 wraps where the model's 128 bits saturate: not compared */
        if (((arith_u128)bw * mtu * (unsigned)gain >> 8) * 1000000 > UINT64_MAX) {
            beyond++;
            continue;
        }
        uint64_t k = kd_bbr_bw_to_pacing_rate(bw, gain, kd_release_code >= 0x41400 ? mtu : mss, mtu, UINT32_MAX, 0);
        uint64_t m = ns_bbr_bw_to_pacing_rate(bw, gain, mss, ts, v6);
        if (k != m)
            DIFFER("bbr_bw_to_pacing_rate(bw %u, gain %d, mss %u, mtu %u): kernel %" PRIu64 ", netsim %" PRIu64, bw,
                   gain, mss, mtu, k, m);
    }
    uint32_t bw = (uint32_t)(944e6 / 8 / 1448 * (1 << 24) / 1e6);   /* 944 Mbit/s of payload */
    uint64_t r415 = ns_bbr_bw_to_pacing_rate(bw, 256, 1448, true, false);
    uint64_t rtree = kd_bbr_bw_to_pacing_rate(bw, 256, 1448, 1500, ~0ULL, 1);
    printf("  bbr pacing rate       %8ld inputs    identical to 4.15's arithmetic (%ld past the kernel's u64 "
           "not compared); at gain 1 and 944 Mbit/s 4.15 paces %.1f Mbit/s, %s's own code %.1f\n", n - beyond, beyond,
           r415 * 8 / 1e6, kd_release, rtree * 8 / 1e6);
}

/* tcp_output.c's tcp_tso_autosize. Since "tcp: adjust TSO packet sizes
 * based on min_rtt" (5.18) it adds gso_max_size >> (min_rtt_us >>
 * tcp_tso_rtt_log) and sk_setup_caps has taken MAX_TCP_HEADER + 1 off
 * sk_gso_max_size; with no min_rtt (~0U) and that size it is 4.15's. */
static void check_tso(long rounds)
{
    long n = 0;
    for (long i = 0; i < rounds * 100; i++, n++) {
        struct tcp_sock tp;
        memset(&tp, 0, sizeof tp);
        tp.gso_ok = true;
        tp.gso_max_size = i % 4 ? TCP_GSO_MAX_SIZE : 4096 + (uint32_t)below(TCP_GSO_MAX_SIZE);
        tp.pacing_rate = 1 + (rnd() >> below(64));
        uint32_t mss = 536 + (uint32_t)below(9000 - 536);
        uint32_t min_segs = 1 + (uint32_t)below(8);
        uint32_t k = kd_tcp_tso_autosize(tp.pacing_rate, 10, tp.gso_max_size - 1 - MAX_TCP_HEADER, UINT32_MAX, 9, mss,
                                         (int)min_segs);
        uint32_t m = tcp_tso_autosize(&tp, mss, min_segs);
        if (k != m)
            DIFFER("tcp_tso_autosize(pacing %" PRIu64 ", gso_max_size %u, mss %u, min %u): kernel %u, netsim %u",
                   tp.pacing_rate, tp.gso_max_size, mss, min_segs, k, m);
    }
    printf("  tcp_tso_autosize      %8ld inputs    identical with no min_rtt term\n", n);
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
    if (rounds < 1) {
        fprintf(stderr, "usage: kdiff [ROUNDS]\n");
        return 2;
    }
    printf("kdiff: netsim's ports (Linux 4.15) against Linux %s's own code\n", kd_release);
    check_minmax(rounds);
    check_dql(rounds);
    check_codel(rounds);
    check_cubic(rounds);
    check_bbr(rounds);
    check_tso(rounds);
    if (failures) {
        printf("kdiff: %d functions differ\n", failures);
        return 1;
    }
    printf("kdiff: all identical\n");
    return 0;
}
