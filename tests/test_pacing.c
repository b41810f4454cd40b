/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_pacing.c - sk_pacing_rate as Linux 4.15 computes it, at every size
 * a path can give it: tcp_update_pacing_rate's formula in its own units
 * (mss x 80000 x ratio x max(cwnd, packets_out) / srtt_us, capped at the
 * u32 sk_max_pacing_rate), BBR's bbr_rate_bytes_per_sec over the whole
 * packet (tcp_mss_to_mtu), and a CUBIC flow whose window passes the
 * 12 740 packets where a 64-bit product of mss x cwnd x 10^12 wrapped.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "models/tcp/tcp.h"
#include "sim/config.h"
#include "sim/sim.h"
#include "tests/world.h"
#include "tests/tcp_world.h"

/* The kernel's arithmetic, worked independently: the product in 128 bits
 * then one floor division, capped at ~0U. */
static uint64_t kernel_rate(uint32_t mss, uint32_t cwnd, uint32_t ssthresh, uint32_t pout, uint64_t srtt_us8)
{
    unsigned __int128 r = (unsigned __int128)mss * 80000u * (cwnd < ssthresh / 2 ? 200u : 120u);
    r *= cwnd > pout ? cwnd : pout;
    r /= srtt_us8 ? srtt_us8 : 1;
    return r > UINT32_MAX ? UINT32_MAX : (uint64_t)r;
}

static uint64_t model_rate(uint32_t mss, uint32_t cwnd, uint32_t ssthresh, uint32_t pout, simtime_t srtt)
{
    struct tcp_sock tp;
    memset(&tp, 0, sizeof tp);
    tp.mss = mss;
    tp.snd_cwnd = cwnd;
    tp.snd_ssthresh = ssthresh;
    tp.packets_out = pout;
    tp.srtt = srtt;
    return tcp_cwnd_pacing_rate(&tp);
}

static void test_update_pacing_rate(void **state)
{
    (void)state;
    /* 20 ms: srtt_us = 160000 (us x 8) */
    simtime_t srtt = 20 * PS_PER_MS;
    /* congestion avoidance, 120 %: 1448 x 80000 x 120 x cwnd / 160000 */
    assert_int_equal(model_rate(1448, 10, 5, 0, srtt), 868800);
    assert_int_equal(model_rate(1448, 12740, 100, 0, srtt), 1106851200);
    /* one past the old wrap: 1448 x 12741 x 10^12 > 2^64 */
    assert_int_equal(model_rate(1448, 12741, 100, 0, srtt), 1106938080);
    assert_int_equal(model_rate(1448, 40000, 100, 0, srtt), kernel_rate(1448, 40000, 100, 0, 160000));
    /* slow start below half ssthresh, 200 % */
    assert_int_equal(model_rate(1448, 10, 0x7fffffff, 0, srtt), 1448000);
    /* packets_out above cwnd counts (after a cwnd reduction) */
    assert_int_equal(model_rate(1448, 100, 10, 300, srtt), kernel_rate(1448, 100, 10, 300, 160000));
    assert_int_equal(model_rate(1448, 100, 10, 300, srtt), 3 * model_rate(1448, 100, 10, 0, srtt));
    /* the u32 cap: 4.15's sk_pacing_rate cannot pass 34.36 Gbit/s */
    assert_int_equal(model_rate(1448, 1000000, 100, 0, srtt), UINT32_MAX);
    assert_int_equal(model_rate(9000, 0xffffffffu, 100, 0, srtt), UINT32_MAX);
    /* srtt in us x 8, floored: 1 ms + 124 ns is 8000 units, + 125 ns 8001 */
    assert_int_equal(model_rate(1448, 1000, 10, 0, PS_PER_MS + 124000), kernel_rate(1448, 1000, 10, 0, 8000));
    assert_int_equal(model_rate(1448, 1000, 10, 0, PS_PER_MS + 125000), kernel_rate(1448, 1000, 10, 0, 8001));
    /* random points against the independent arithmetic */
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 10000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint32_t mss = 500 + (uint32_t)(x % 8500), cwnd = 1 + (uint32_t)((x >> 14) % 2000000);
        uint32_t pout = (uint32_t)((x >> 35) % 2000000), ssth = (uint32_t)((x >> 20) % 4000000);
        simtime_t rtt = 20 * PS_PER_US + (simtime_t)((x >> 7) % (300 * PS_PER_MS));
        assert_int_equal(model_rate(mss, cwnd, ssth, pout, rtt),
                         kernel_rate(mss, cwnd, ssth, pout, (uint64_t)rtt / 125000));
    }
}

static const char lfn_world[] =
    "[sim]\nduration = %s\ninterval = 1s\n"
    "[host client]\ntcp.cc = cubic\nnet.ipv4.tcp_wmem = 4096 16384 67108864\n"
    "[host server]\nnet.ipv4.tcp_rmem = 4096 87380 67108864\n"
    "[link lan]\nends = client:eth0 router:eth0\nrate = 10gbit\n"
    "[link wan]\nends = router:eth1 server:eth0\nrate = 1gbit\ndelay = 10ms\nfwd.qdisc = pfifo limit 10000\n"
    "[flow 1]\napp = tcp_stream\nfrom = client\nto = server\nlength = %s\ntrace_interval = 0\n";

static uint64_t lfn_bytes(const char *dur)
{
    char buf[2048];
    snprintf(buf, sizeof buf, lfn_world, dur, dur);
    struct sim *s = world_build(buf);
    sim_run(s, false);
    struct tcp_sock *tp = tcp_established(host_find(s, "client"), false);
    assert_int_equal(tp->st.retrans, 0);
    assert_true(tp->snd_cwnd > 12741);   /* past the old wrap */
    uint64_t b = s->flows[0]->bytes;
    world_free(s);
    return b;
}

/* CUBIC over 1 Gbit/s, 20 ms, 10 000 packets of buffer, the defaults
 * (TSO, GSO, GRO, TSQ on): cwnd passes 12 740 near 3 s, and the flow keeps
 * its frame-limited goodput, 1448 of every 1538 bytes on the wire, from
 * 4 s to 8 s (it ran 522 Mbit/s there when the pacing rate wrapped) */
static void test_cubic_long_fat_path(void **state)
{
    (void)state;
    uint64_t at4 = lfn_bytes("4s"), at8 = lfn_bytes("8s");
    double mbps = (double)(at8 - at4) * 8 / 4.0 / 1e6, line = 1000.0 * 1448 / 1538;
    print_message("# goodput 4-8 s: %.2f Mbit/s (line %.2f)\n", mbps, line);
    assert_true(mbps > 0.995 * line);
    assert_true(mbps < line + 0.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_update_pacing_rate),
        cmocka_unit_test(test_cubic_long_fat_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
