/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_tcp_kernel.c - [host] kernel profiles (models/tcp/tcp_kernel.c,
 * docs/models/kernels.md): what each profile sets, that a key beside it
 * wins, and each release's rule against the other's on a live socket:
 * TLP in CWR and its timeout (4.15 against 6.1), the duplicate-ACK rule
 * (FACK's marking, gone in 4.18), DCTCP's ACK on a change of CE state
 * (4.15's against 4.18's), the initial receive buffer (4.15's against
 * 4.19's), TSQ's limit (4.15's against 4.20's).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/config.h"
#include "sim/sim.h"
#include "tests/world.h"
#include "tests/tcp_world.h"

static const char path[] =
    "[sim]\nduration = 200ms\n"
    "[host a]\ncpu = ideal\n" OFFLOADS_OFF "%s\n[host b]\ncpu = ideal\n" OFFLOADS_OFF "%s\n"
    "[link l]\nends = a b\nrate = 1gbit\ndelay = 1ms\n"
    "[flow 1]\napp = tcp_stream\nfrom = a\nto = b\nlength = 200ms\ntrace_interval = 0\n";

static struct sim *run(const char *a, const char *b)
{
    char ini[1024];
    snprintf(ini, sizeof ini, path, a, b);
    struct sim *s = world_build(ini);
    sim_run(s, false);
    return s;
}

static void test_profiles(void **state)
{
    (void)state;
    struct sim *s = run("kernel = 6.1", "kernel = 6.1\ntcp.loss_detection = fack_rack\ntcp.dctcp_ack = delayed");
    const struct tcp_host *a = tcp_host_of(host_find(s, "a")), *b = tcp_host_of(host_find(s, "b"));
    assert_true(a->rack_tlp && a->dctcp_ack_now);
    assert_false(a->scaling_ratio);                   /* 6.1's autotuning is 4.16's */
    assert_false(b->rack_tlp || b->dctcp_ack_now);    /* the keys beside it win */
    world_free(s);
    s = run("", "kernel = 6.18");
    a = tcp_host_of(host_find(s, "a"));
    b = tcp_host_of(host_find(s, "b"));
    assert_false(a->rack_tlp || a->dctcp_ack_now);    /* 4.15, the default */
    assert_true(b->rack_tlp && b->dctcp_ack_now && b->scaling_ratio);
    world_free(s);
}

/* A receiver's buffer and window as the handshake leaves them, before
 * autotuning's first step (one RTT of data later): 4.15 grows tcp_rmem[1]
 * (87380) by tcp_fixup_rcvbuf to 2 x 20 x SKB_TRUESIZE(advmss +
 * MAX_TCP_HEADER), x4 with tcp_moderate_rcvbuf, offers 20 segments of
 * 1448 in its SYN-ACK and starts autotuning from them (28 960); 4.19 on
 * keeps tcp_rmem[1], 131 072, and starts from 10 x advmss (14 600). The
 * SYN-ACK's window under each rule: tests/drill/syn-ack-window.pkt (20 x
 * 1448) and tests/drill/6.1/syn-ack-window.pkt (65 160). */
static void test_init_rcvbuf(void **state)
{
    (void)state;
    static const char ini[] =
        "[sim]\nduration = 3500us\n"
        "[host a]\ncpu = ideal\n" OFFLOADS_OFF "%s\n[host b]\ncpu = ideal\n" OFFLOADS_OFF "%s\n"
        "[link l]\nends = a b\nrate = 1gbit\ndelay = 1ms\n"
        "[flow 1]\napp = tcp_stream\nfrom = a\nto = b\ntrace_interval = 0\n";
    enum { FIXUP = 2 * 20 * 4 * (TCP_SKB_OVERHEAD + 1460 + MAX_TCP_HEADER) };
    static const struct { const char *k; uint32_t rcvbuf; uint64_t space; } want[] = {
        { "kernel = 4.15", FIXUP, 28960 },
        { "kernel = 6.1", 131072, 14600 },
        { "kernel = 6.1\ntcp.init_rcvbuf = fixup\nnet.ipv4.tcp_rmem = 4096 87380 6291456", FIXUP, 28960 },
        { "tcp.init_rcvbuf = tcp_rmem\nnet.ipv4.tcp_rmem = 4096 131072 6291456", 131072, 14600 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char buf[1024];
        snprintf(buf, sizeof buf, ini, want[i].k, want[i].k);
        struct sim *s = world_build(buf);
        sim_run(s, false);
        struct tcp_sock *tp = tcp_established(host_find(s, "b"), true);
        assert_non_null(tp);
        assert_int_equal(tp->sk.rcvbuf, want[i].rcvbuf);
        assert_int_equal(tp->rcvq_space, want[i].space);
        world_free(s);
    }
}

/* TCP Small Queues' limit: about a millisecond of the pacing rate
 * (rate >> 10), capped by tcp_limit_output_bytes, 262144 in 4.15 for
 * every flow; from 4.20 (6.1's profile) 1048576 and only for a flow
 * nobody paces. At 10^9 bytes/s (976 562 bytes a "millisecond") with
 * 600 000 bytes below it, a paced 4.15 flow waits, a paced 6.1 flow
 * sends; at 2 x 10^9 with 1 500 000 below it, an unpaced 6.1 flow waits
 * (the 1 MB cap) and a paced one sends. */
static void test_tsq_limit(void **state)
{
    (void)state;
    static const struct { const char *k; bool paced; uint64_t rate, below; bool waits; } want[] = {
        { "", true, 1000000000, 600000, true },
        { "kernel = 6.1", true, 1000000000, 600000, false },
        { "kernel = 6.1", false, 2000000000, 1500000, true },
        { "kernel = 6.1", true, 2000000000, 1500000, false },
        { "kernel = 6.1\ntcp.tsq_limit = all", true, 2000000000, 1500000, true },
    };
    static const char ini[] =
        "[sim]\nduration = 20ms\n"
        "[host a]\ncpu = ideal\ntso = off\ngso = off\ngro = off\n%s\n[host b]\ncpu = ideal\n"
        "[link l]\nends = a b\nrate = 1gbit\ndelay = 1ms\n"
        "[flow 1]\napp = tcp_stream\nfrom = a\nto = b\ntrace_interval = 0\n";
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char buf[1024];
        snprintf(buf, sizeof buf, ini, want[i].k);
        struct sim *s = world_build(buf);
        sim_run(s, false);
        struct tcp_sock *tp = tcp_established(host_find(s, "a"), false);
        assert_non_null(tp);
        uint64_t wmem = tp->sk.wmem_alloc, rate = tp->pacing_rate;
        uint32_t out = tp->packets_out;
        bool paced = tp->pacing, thr = tp->tsq_throttled;
        tp->pacing = want[i].paced;
        tp->pacing_rate = want[i].rate;
        tp->sk.wmem_alloc = want[i].below;
        tp->packets_out = 10;
        assert_int_equal(tcp_small_queue_check(tp, 2000, false), want[i].waits);
        tp->sk.wmem_alloc = wmem;
        tp->pacing_rate = rate;
        tp->packets_out = out;
        tp->pacing = paced;
        tp->tsq_throttled = thr;
        world_free(s);
    }
}

/* A sender with ten segments out in CWR (an ECN echo): 6.1 arms the
 * probe, 2 srtt + 2 ms away; 4.15 arms none, and a tail lost there waits
 * for the RTO. In Disorder it is the other way round. */
static void test_tlp_state(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        struct sim *s = run(k ? "kernel = 6.1" : "", "");
        struct tcp_sock *tp = tcp_established(host_find(s, "a"), false);
        assert_non_null(tp);
        simtime_t now = tp->h->q->now;
        tp->packets_out = 10;
        tp->srtt = 3 * PS_PER_MS;
        tp->tlp_pending = false;
        evq_move(tp->h->q, &tp->ev_rto, now + 300 * PS_PER_MS);
        tp->ca_state = TCP_CA_CWR;
        tcp_schedule_loss_probe(tp, now);
        assert_int_equal(event_pending(&tp->ev_tlp), k == 1);
        if (k)
            assert_int_equal(tp->ev_tlp.time, now + 8 * PS_PER_MS);
        tp->ca_state = TCP_CA_Disorder;
        tcp_schedule_loss_probe(tp, now);
        assert_int_equal(event_pending(&tp->ev_tlp), k == 0);
        if (!k)
            assert_int_equal(tp->ev_tlp.time, now + 10 * PS_PER_MS);   /* 2 srtt = 6 ms, 10 ms floor */
        tp->ca_state = TCP_CA_Open;
        tp->packets_out = 0;
        evq_cancel(tp->h->q, &tp->ev_tlp);
        world_free(s);
    }
}

/* DCTCP's receiver holding a delayed ACK when a CE segment follows
 * unmarked ones: 4.15's ACK for the data before it clears the schedule
 * and nothing ACKs the CE segment; 4.18's leaves the schedule and asks
 * for an ACK at once. */
static void test_dctcp_ack(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        const char *b = k ? "tcp.cc = dctcp\nkernel = 6.1" : "tcp.cc = dctcp";
        struct sim *s = run("tcp.cc = dctcp", b);
        struct tcp_sock *tp = tcp_established(host_find(s, "b"), true);
        assert_non_null(tp);
        assert_string_equal(tp->cc->name, "dctcp");
        tcp_ca_event(tp, CA_EVENT_ECN_NO_CE);
        uint64_t acks = tp->st.acks_out;
        tp->ack_now = false;
        tp->ack_pending = true;
        tp->delack_timer = true;
        tcp_ca_event(tp, CA_EVENT_DELAYED_ACK);
        tp->rcv_nxt += tp->mss;                       /* the CE segment, in order */
        tcp_ca_event(tp, CA_EVENT_ECN_IS_CE);
        assert_int_equal(tp->st.acks_out, acks + 1);  /* the held ACK, for the data before */
        assert_int_equal(tp->ack_pending, k == 1);
        assert_int_equal(tp->delack_timer, k == 1);
        assert_int_equal(tp->ack_now, k == 1);
        tp->rcv_nxt -= tp->mss;
        world_free(s);
    }
}

int main(void)
{
    models_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profiles),
        cmocka_unit_test(test_init_rcvbuf),
        cmocka_unit_test(test_tsq_limit),
        cmocka_unit_test(test_tlp_state),
        cmocka_unit_test(test_dctcp_ack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
