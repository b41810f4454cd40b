/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_tcp_cost.c - TCP's CPU cost (docs/models/tcp.md, "CPU cost"): on
 * xeon-2012 hosts a bulk transfer books tcp_transmit_skb once per segment
 * a host sent, tcp_v4_rcv once per segment its sockets received,
 * tcp_data_queue once per data segment and tcp_data_queue_ofo once per
 * out-of-order one, tcp_ack once per ACK on an established sender with
 * data out; the reader's copy is copy_to_user's row times the bytes read,
 * exactly; every profile but ideal has the rows, the same whatever the
 * congestion control; under cpu = ideal no core is ever busy.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "models/tcp/tcp.h"
#include "sim/config.h"
#include "sim/costs.h"
#include "sim/sim.h"
#include "tests/world.h"
#include "tests/tcp_world.h"

/* 1 % loss towards the receiver: out-of-order segments, SACKs, recoveries */
static const char world[] =
    "[sim]\nduration = 300ms\ninterval = 100ms\n"
    "[host sender]\ncpu = %s\n" OFFLOADS_OFF "tcp.cc = %s\nnet.ipv4.tcp_wmem = 4096 16384 67108864\n"
    "[host receiver]\ncpu = %s\n" OFFLOADS_OFF "net.ipv4.tcp_rmem = 4096 87380 67108864\n%s\n"
    "[link path]\nends = sender:eth0 receiver:eth0\nrate = 10gbit\npropagation = 100us\nfwd.loss = 1%%\n"
    "[flow 1]\napp = tcp_stream\nfrom = sender\nto = receiver\nlength = 300ms\ntrace_interval = 0\n";

static struct sim *cost_world(const char *cpu, const char *cc, const char *extra)
{
    static char buf[2048];
    snprintf(buf, sizeof buf, world, cpu, cc, cpu, extra);
    struct sim *s = world_build(buf);
    sim_run(s, false);
    return s;
}

static uint64_t calls(struct sim *s, const char *host, const char *sym)
{
    return host_find(s, host)->prof[cpu_sym(sym)].calls;
}

/* segments every TCP socket of the host received, listeners included */
static uint64_t segs_in(struct host *h)
{
    uint64_t n = 0;
    for (struct tcp_sock *tp = tcp_host_of(h)->conns; tp; tp = tp->next_conn)
        n += tp->segs_in;
    return n;
}

static void test_once_per_segment(void **state)
{
    (void)state;
    struct sim *s = cost_world("xeon-2012", "cubic", "");
    struct host *hs = host_find(s, "sender"), *hr = host_find(s, "receiver");
    struct tcp_sock *cli = tcp_established(hs, false), *srv = tcp_established(hr, true);
    assert_non_null(cli);
    assert_non_null(srv);
    assert_true(cli->st.retrans > 10 && srv->st.ofo_segs > 10);     /* the loss did its work */
    assert_int_equal(srv->st.prune_drop + srv->st.prune_ofo_drop, 0);
    assert_int_equal(calls(s, "sender", "tcp_transmit_skb"), cli->st.segs_out);
    assert_int_equal(calls(s, "receiver", "tcp_transmit_skb"), srv->st.segs_out);
    assert_int_equal(calls(s, "sender", "tcp_v4_rcv"), segs_in(hs));
    assert_int_equal(calls(s, "receiver", "tcp_v4_rcv"), segs_in(hr));
    assert_int_equal(calls(s, "receiver", "tcp_data_queue"), srv->data_segs_in);
    assert_int_equal(calls(s, "receiver", "tcp_data_queue_ofo"), srv->st.ofo_segs);
    /* the sender gets ACKs only, all on the established socket but the
     * SYN-ACK, and always has data out once it sends */
    assert_int_equal(calls(s, "sender", "tcp_rcv_established"), cli->segs_in - 1);
    assert_int_equal(calls(s, "sender", "tcp_ack"), cli->segs_in - 1);
    assert_int_equal(calls(s, "sender", "tcp_data_queue"), 0);
    /* the receiver has nothing in flight: its data segments skip tcp_ack */
    assert_int_equal(calls(s, "receiver", "tcp_ack"), 0);
    uint64_t sack = calls(s, "sender", "tcp_sacktag_write_queue");
    assert_true(sack > 10 && sack < calls(s, "sender", "tcp_ack"));
    /* one charge per call, its .per_* parts booked with it */
    assert_int_equal(calls(s, "sender", "tcp_ack.per_seg"), 0);
    assert_int_equal(calls(s, "receiver", "tcp_recvmsg.per_skb"), 0);
    /* 400 ns an ACK and 100 a segment it freed: all of them, una_idx */
    assert_true(hs->prof[cpu_sym("tcp_ack")].ps ==
                400e3 * (double)calls(s, "sender", "tcp_ack") + 100e3 * (double)cli->una_idx);
    world_free(s);
}

/* copy_to_user is per byte: 0.1 ns x bytes read, exactly (no jitter, no
 * speed factor), and three times that at 0.3 ns */
static void test_copy_per_byte(void **state)
{
    (void)state;
    const char *extra[] = { "", "cost.copy_to_user = 0.3ns" };
    const double ps_per_byte[] = { 100, 300 };
    for (int i = 0; i < 2; i++) {
        struct sim *s = cost_world("xeon-2012", "cubic", extra[i]);
        struct host *hr = host_find(s, "receiver");
        struct tcp_sock *srv = tcp_established(hr, true);
        uint64_t read = srv->copied_seq - 1;          /* data starts at 1 */
        assert_true(read > 1000000);
        assert_int_equal(s->flows[0]->bytes, read);
        assert_true(hr->prof[cpu_sym("copy_to_user")].ps == ps_per_byte[i] * (double)read);
        assert_int_equal(hr->prof[cpu_sym("copy_to_user")].calls, calls(s, "receiver", "tcp_recvmsg"));
        world_free(s);
    }
}

/* cpu = ideal: the calls are booked, nothing costs, no core is ever busy */
static void test_ideal_costs_nothing(void **state)
{
    (void)state;
    struct sim *s = cost_world("ideal", "cubic", "");
    assert_true(calls(s, "sender", "tcp_transmit_skb") > 1000);
    assert_true(calls(s, "receiver", "tcp_recvmsg") > 100);
    for (int h = 0; h < s->nhosts; h++) {
        for (int k = 0; k < cpu_sym_count(); k++)
            assert_true(s->hosts[h]->prof[k].ps == 0);
        for (int c = 0; c < s->hosts[h]->ncores; c++)
            assert_int_equal(s->hosts[h]->cores[c].busy_ps, 0);
    }
    world_free(s);
}

/* Every row has an [est] source; every profile but ideal has them, the
 * same under every congestion control */
static void test_rows(void **state)
{
    (void)state;
    const struct cost_row *rows = NULL;
    for (int m = 0; model_at(m); m++)
        if (!strcmp(model_at(m)->name, "tcp"))
            rows = model_at(m)->costs("xeon-2012");
    assert_non_null(rows);
    int n = 0;
    for (const struct cost_row *r = rows; r->symbol; r++, n++) {
        assert_true(r->ns > 0);
        assert_non_null(strstr(r->source, "[est]"));
    }
    assert_true(n >= 20);
    static const char *const profiles[] = { "xeon-2012", "modern", "xeon-2015-kvm", "ideal" };
    static const char *const ccs[] = { "cubic", "bbr", "dctcp", "reno" };
    for (int p = 0; p < 4; p++)
        for (int c = 0; c < 4; c++) {
            char buf[512];
            snprintf(buf, sizeof buf, "[sim]\nduration = 1ms\n[host a]\ncpu = %s\ntcp.cc = %s\n"
                     "[link l]\nends = a:eth0 b:eth0\n", profiles[p], ccs[c]);
            struct sim *s = world_build(buf);
            struct host *h = host_find(s, "a");
            for (const struct cost_row *r = rows; r->symbol; r++)
                assert_true(h->cost[cpu_sym(r->symbol)] == (p < 3 ? r->ns : 0));
            world_free(s);
        }
}

/* IPv6's path is booked under IPv6's functions, as perf names them:
 * ipv6_rcv, tcp_v6_rcv and ip6_output, once per skb as their IPv4
 * counterparts would be, and IPv4's rows stay at zero */
static void test_ipv6_path(void **state)
{
    (void)state;
    static const char v6[] =
        "[sim]\nduration = 100ms\ninterval = 50ms\n"
        "[host sender]\ncpu = xeon-2012\n" OFFLOADS_OFF
        "[host receiver]\ncpu = xeon-2012\n" OFFLOADS_OFF
        "[link path]\nends = sender:eth0 receiver:eth0\nrate = 10gbit\npropagation = 100us\n"
        "[flow 1]\napp = tcp_stream\nfrom = sender\nto = receiver\nlength = 100ms\nfamily = inet6\n"
        "trace_interval = 0\n";
    struct sim *s = world_build(v6);
    sim_run(s, false);
    struct host *hs = host_find(s, "sender"), *hr = host_find(s, "receiver");
    assert_true(segs_in(hr) > 1000);
    assert_int_equal(calls(s, "receiver", "tcp_v6_rcv"), segs_in(hr));
    assert_int_equal(calls(s, "sender", "tcp_v6_rcv"), segs_in(hs));
    assert_int_equal(calls(s, "receiver", "ipv6_rcv"), segs_in(hr));
    assert_int_equal(calls(s, "receiver", "tcp_v4_rcv") + calls(s, "sender", "tcp_v4_rcv"), 0);
    assert_int_equal(calls(s, "receiver", "ip_rcv") + calls(s, "sender", "ip_rcv"), 0);
    assert_int_equal(calls(s, "sender", "ip_output"), 0);
    assert_true(calls(s, "sender", "ip6_output") > 1000);
    world_free(s);
}

int main(void)
{
    models_install();   /* the engine's modules and variants (sim/sim.h) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_once_per_segment),
        cmocka_unit_test(test_copy_per_byte),
        cmocka_unit_test(test_ideal_costs_nothing),
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_ipv6_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
