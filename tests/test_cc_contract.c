/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_cc_contract.c - the congestion-control contract (Linux 4.15's
 * struct tcp_congestion_ops) as the engine keeps it, and the two variants
 * that need its edges: Westwood+ (ACK events, the ack sample's RTT,
 * COMPLETE_CWR and LOSS) and HighSpeed TCP (RFC 3649's table).
 *
 * The contract: a probe cc (Reno's arithmetic, every hook counted) on
 * both hosts of a lossy 1 Gbit/s path, and the counts the engine's own
 * counters fix exactly. Westwood+ and HighSpeed: their hooks driven by
 * hand on a bare socket, expectations worked out from tcp_westwood.c and
 * tcp_highspeed.c (shown beside each).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "models/tcp/tcp.h"
#include "sim/config.h"
#include "sim/sim.h"
#include "tests/world.h"
#include "tests/tcp_world.h"

/* ------------------------------------------------------------ the probe */

static struct probe {
    uint64_t init, release, events[CA_EVENT_NON_DELAYED_ACK + 1];
    uint64_t acks, fast, slow, slow_win, pkts_acked_calls, pkts_acked_sum, in_flight_bad, in_flight_max;
    uint32_t packets_out_max;
} snd, rcv;

static struct probe *P(struct tcp_sock *tp) { return tp->peer_listener ? &rcv : &snd; }
static void p_init(struct tcp_sock *tp) { P(tp)->init++; }
static void p_release(struct tcp_sock *tp) { P(tp)->release++; }
static void p_event(struct tcp_sock *tp, int ev)
{
    assert_true(ev >= 0 && ev <= CA_EVENT_NON_DELAYED_ACK);
    P(tp)->events[ev]++;
}
static void p_ack(struct tcp_sock *tp, uint32_t flags)
{
    struct probe *p = P(tp);
    p->acks++;
    if (flags & CA_ACK_SLOWPATH) {
        p->slow++;
        p->slow_win += !!(flags & CA_ACK_WIN_UPDATE);
    } else {
        assert_int_equal(flags, CA_ACK_WIN_UPDATE);   /* the fast path moved snd_una */
        p->fast++;
    }
    if (tp->packets_out > p->packets_out_max)
        p->packets_out_max = tp->packets_out;
}
static void p_acked(struct tcp_sock *tp, const struct tcp_ack_sample *s)
{
    struct probe *p = P(tp);
    p->pkts_acked_calls++;
    p->pkts_acked_sum += s->pkts_acked;
    /* whole segments, and no more than were ever out at once */
    if (s->in_flight % tp->mss || s->in_flight > (uint64_t)(p->packets_out_max + 1) * tp->mss)
        p->in_flight_bad++;
    if (s->in_flight > p->in_flight_max)
        p->in_flight_max = s->in_flight;
}

static const struct tcp_cc_ops probe = {
    .name = "probe", .doc = "Reno, every hook counted",
    .init = p_init, .release = p_release, .ssthresh = tcp_reno_ssthresh, .cong_avoid = tcp_reno_cong_avoid,
    .undo_cwnd = tcp_reno_undo_cwnd, .cwnd_event = p_event, .in_ack_event = p_ack, .pkts_acked = p_acked,
};

static void test_contract_hooks(void **state)
{
    (void)state;
    memset(&snd, 0, sizeof snd);
    memset(&rcv, 0, sizeof rcv);
    struct sim *s = world_build(
        "[sim]\nduration = 2s\n"
        "[host sender]\ncpu = ideal\n[host receiver]\ncpu = ideal\n"
        "[link path]\nends = sender receiver\nrate = 1gbit\ndelay = 5ms\nfwd.loss = 1%\n"
        "[flow 1]\napp = tcp_stream\nfrom = sender\nto = receiver\nlength = 2s\ntrace_interval = 0\n");
    /* the hosts' sockets so far (listener, client) and those to come */
    for (int i = 0; i < 2; i++) {
        struct tcp_host *th = tcp_host_of(host_find(s, i ? "receiver" : "sender"));
        th->cc = &probe;
        for (struct tcp_sock *tp = th->conns; tp; tp = tp->next_conn)
            tp->cc = &probe;
    }
    sim_run(s, false);
    struct tcp_sock *cli = tcp_established(host_find(s, "sender"), false);
    struct tcp_sock *srv = tcp_established(host_find(s, "receiver"), true);
    assert_non_null(cli);
    assert_non_null(srv);
    assert_int_equal(snd.init, 1);
    assert_int_equal(rcv.init, 1);
    /* every ACK of the established connection is one in_ack_event: all
     * the sender received but the SYN-ACK */
    assert_int_equal(snd.acks, cli->segs_in - 1);
    assert_true(snd.fast > 500 && snd.slow > 100);    /* 969 and 420 */           /* loss: SACKed ACKs */
    /* a slow-path ACK updates the window when it moves snd_una (or the
     * window grows): not the duplicates */
    assert_true(snd.slow_win < snd.slow);
    /* pkts_acked on every ACK, its counts adding up to the segments
     * cumulatively acknowledged */
    assert_int_equal(snd.pkts_acked_calls, snd.acks);
    assert_int_equal(snd.pkts_acked_sum, cli->una_idx);
    assert_int_equal(snd.in_flight_bad, 0);
    assert_true(snd.in_flight_max >= 10 * cli->mss);
    /* one COMPLETE_CWR per recovery completed (the last may still run;
     * a timeout ends one with LOSS instead) */
    assert_true(cli->st.recoveries > 10);
    uint64_t cwr = snd.events[CA_EVENT_COMPLETE_CWR];
    assert_true(cwr <= cli->st.recoveries && cwr + 1 + cli->st.rtos >= cli->st.recoveries);
    assert_int_equal(snd.events[CA_EVENT_LOSS], cli->st.rtos);
    assert_true(snd.events[CA_EVENT_TX_START] >= 1);
    /* never raised: no idle sender, no ECN */
    assert_int_equal(snd.events[CA_EVENT_CWND_RESTART] + snd.events[CA_EVENT_ECN_IS_CE] +
                         snd.events[CA_EVENT_ECN_NO_CE], 0);
    /* the receiver's ACK events, and none of the sender's data path */
    assert_true(rcv.events[CA_EVENT_DELAYED_ACK] > 0 && rcv.events[CA_EVENT_NON_DELAYED_ACK] > 0);
    assert_int_equal(rcv.events[CA_EVENT_COMPLETE_CWR], 0);
    /* the send buffer at the handshake: 2 x 10 x (4096 + 256) (ss: tb87040) */
    assert_int_equal(cli->sk.sndbuf, 87040);
    assert_int_equal(snd.release + rcv.release, 0);
    world_free(s);
    assert_int_equal(snd.release, 1);              /* tcp_cleanup_congestion_control */
    assert_int_equal(rcv.release, 1);
}

/* tcp_tso_segs: the cc's own goal, else tcp_tso_autosize (4.15): a
 * millisecond (rate >> 10) of the pacing rate in MSS segments, at most
 * gso_max_size - 1 - MAX_TCP_HEADER bytes, at least tcp_min_tso_segs, and
 * never more than gso_max_segs; one segment on a port without GSO */
static void test_tso_segs(void **state)
{
    (void)state;
    static struct tcp_sock tp;
    static struct tcp_host th;
    memset(&tp, 0, sizeof tp);
    th.min_tso_segs = 2;
    tp.th = &th;
    tp.mss = 1448;
    tp.cc = tcp_cc_find("cubic");
    tp.gso_ok = true;
    tp.gso_max_size = 65536;
    tp.gso_max_segs = 65535;
    tp.pacing_rate = 125000000;                    /* 1 Gbit/s: 122070 bytes a ms, capped at 65215 */
    assert_int_equal(tcp_tso_segs(&tp), 45);       /* 65215 / 1448 */
    tp.pacing_rate = 1250000;                      /* 10 Mbit/s: 1220 bytes, below 2 segments */
    assert_int_equal(tcp_tso_segs(&tp), 2);
    th.min_tso_segs = 4;                           /* net.ipv4.tcp_min_tso_segs */
    assert_int_equal(tcp_tso_segs(&tp), 4);
    th.min_tso_segs = 2;
    tp.pacing_rate = 12500000;                     /* 100 Mbit/s: 12207 / 1448 = 8 */
    assert_int_equal(tcp_tso_segs(&tp), 8);
    tp.pacing_rate = 12499999;                     /* 12206 bytes: still 8 (12206 / 1448 = 8.4) */
    assert_int_equal(tcp_tso_segs(&tp), 8);
    tp.pacing_rate = 11862016;                     /* 11584 bytes a ms: exactly 8 x 1448 */
    assert_int_equal(tcp_tso_segs(&tp), 8);
    tp.pacing_rate = 11862015;                     /* one byte a second less: 11583 bytes, 7 */
    assert_int_equal(tcp_tso_segs(&tp), 7);
    tp.pacing_rate = 125000000;
    tp.gso_max_size = 16384;                       /* ip link set gso_max_size 16384: 16063 / 1448 = 11 */
    assert_int_equal(tcp_tso_segs(&tp), 11);
    tp.gso_max_size = 65536;
    tp.gso_max_segs = 16;                          /* gso_max_segs caps the answer */
    assert_int_equal(tcp_tso_segs(&tp), 16);
    tp.gso_ok = false;                             /* no tso, no gso: sk_gso_max_segs 1 */
    tp.gso_max_segs = 1;
    assert_int_equal(tcp_tso_segs(&tp), 1);
}

/* ------------------------------------------------------------ Westwood+ */

static simtime_t now;
static struct tcp_sock sock;
static struct tcp_host host;

static struct tcp_sock *bare(const char *cc)
{
    memset(&sock, 0, sizeof sock);
    memset(&host, 0, sizeof host);
    sock.mss = 1448;
    sock.snd_cwnd = 100;
    sock.snd_cwnd_clamp = 100000;
    sock.snd_ssthresh = 50;
    sock.snd_una = 1;
    sock.th = &host;
    sock.cc = tcp_cc_find(cc);
    assert_non_null(sock.cc);
    now = 20 * PS_PER_S;                           /* jiffies 20001 */
    ctx_clock = &now;
    sock.cc->init(&sock);
    return &sock;
}

/* one ACK at now + ms: snd_una moved by `bytes`, with these flags */
static void ww_ack_at(struct tcp_sock *tp, int ms, uint32_t bytes, uint32_t flags)
{
    now = 20 * PS_PER_S + (simtime_t)ms * PS_PER_MS;
    tp->snd_una += bytes;
    tp->cc->in_ack_event(tp, flags);
}

static void test_westwood(void **state)
{
    (void)state;
    struct tcp_sock *tp = bare("westwood");
    struct tcp_ack_sample rtt20 = { 1, 20000, 0 };
    tp->cc->pkts_acked(tp, &rtt20);                /* rtt = 20 jiffies */
    /* the first ACK only starts the count (first_ack); then 10 segments a ms */
    for (int ms = 1; ms <= 50; ms++)
        ww_ack_at(tp, ms, 14480, CA_ACK_WIN_UPDATE);
    assert_int_equal(tcp_westwood_bw_rttmin(tp), 2);        /* no estimate yet */
    /* at 51 ms the window (max(20, 50) ms) has passed: 49 x 14480 = 709520
     * bytes over 51 jiffies = 13912 bytes per jiffy, both filters */
    ww_ack_at(tp, 51, 14480, CA_ACK_WIN_UPDATE);
    /* BWE x RTTmin: 13912 x 20 / 1448 = 192 packets */
    assert_int_equal(tcp_westwood_bw_rttmin(tp), 192);
    tp->cc->cwnd_event(tp, CA_EVENT_COMPLETE_CWR);
    assert_int_equal(tp->snd_cwnd, 192);
    assert_int_equal(tp->snd_ssthresh, 192);
    /* the next window: 51 x 14480 over 51 = 14480; filters (7 x 13912 +
     * 14480) >> 3 = 13983, then (7 x 13912 + 13983) >> 3 = 13920:
     * 13920 x 20 / 1448 = 192 */
    for (int ms = 52; ms <= 102; ms++)
        ww_ack_at(tp, ms, 14480, CA_ACK_WIN_UPDATE);
    tp->cc->cwnd_event(tp, CA_EVENT_COMPLETE_CWR);
    assert_int_equal(tp->snd_cwnd, 192);
    /* a timeout: ssthresh from the estimate, cwnd left to the engine, and
     * RTTmin taken afresh from the next ACK's sample */
    tp->snd_cwnd = 1;
    tp->cc->cwnd_event(tp, CA_EVENT_LOSS);
    assert_int_equal(tp->snd_ssthresh, 192);
    assert_int_equal(tp->snd_cwnd, 1);
    struct tcp_ack_sample rtt30 = { 1, 29001, 0 };  /* rounded up: 30 jiffies */
    tp->cc->pkts_acked(tp, &rtt30);
    ww_ack_at(tp, 103, 1448, CA_ACK_SLOWPATH | CA_ACK_WIN_UPDATE);
    assert_int_equal(tcp_westwood_bw_rttmin(tp), 13920 * 30 / 1448);
    /* slow path: a duplicate counts one MSS; the cumulative ACK of 5 MSS
     * after it counts 4 (the one already counted is taken back). The
     * window opened at 102 ms holds 14480 + 1448 + 1448 + 5792 = 23168
     * bytes when, at 153 ms, 51 jiffies (> 50) have passed: a sample of
     * 23168 / 51 = 454; (7 x 13983 + 454) >> 3 = 12291, then (7 x 13920 +
     * 12291) >> 3 = 13716 */
    ww_ack_at(tp, 104, 0, CA_ACK_SLOWPATH);
    ww_ack_at(tp, 105, 5 * 1448, CA_ACK_SLOWPATH | CA_ACK_WIN_UPDATE);
    ww_ack_at(tp, 152, 0, CA_ACK_SLOWPATH);
    assert_int_equal(tcp_westwood_bw_rttmin(tp), 13920 * 30 / 1448);   /* 50 jiffies: not yet */
    ww_ack_at(tp, 153, 0, CA_ACK_SLOWPATH);
    assert_int_equal(tcp_westwood_bw_rttmin(tp), 13716 * 30 / 1448);
    ctx_clock = NULL;
}

/* ------------------------------------------------------------ HighSpeed */

/* RFC 3649: b(w) = (0.1 - 0.5)(ln w - ln 38)/(ln 83000 - ln 38) + 0.5,
 * p(w) = 0.078 / w^1.2, a(w) = w^2 p(w) 2 b(w) / (2 - b(w)). Row i of
 * the table is the window where a(w) reaches i + 1, md = floor(256 b(w)). */
static void test_highspeed_table(void **state)
{
    (void)state;
    for (int i = 0; i < TCP_HSTCP_ROWS; i++) {
        double w = tcp_hstcp_table[i].cwnd;
        double b = -0.4 * (log(w) - log(38)) / (log(83000) - log(38)) + 0.5;
        double a = w * w * (0.078 / pow(w, 1.2)) * 2 * b / (2 - b);
        assert_true(fabs(a - (i + 1)) < 0.05);
        assert_int_equal(tcp_hstcp_table[i].md, (uint32_t)floor(256 * b));
    }
}

static void test_highspeed_response(void **state)
{
    (void)state;
    struct tcp_sock *tp = bare("highspeed");
    tp->is_cwnd_limited = true;
    /* cwnd 10000 in congestion avoidance: row 29 (9991 < 10000 <= 10661),
     * a = 30 per RTT, md 52: ssthresh 10000 - (10000 x 52 >> 8) = 7969 */
    tp->snd_cwnd = 10000;
    tp->snd_ssthresh = 5000;
    tp->cc->cong_avoid(tp, 1);
    assert_int_equal(tp->snd_cwnd_cnt, 30);
    assert_int_equal(tp->cc->ssthresh(tp), 7969);
    /* down to 1000: row 7 (851 < 1000 <= 1058), md 83: 1000 - 324 = 676 */
    tp->snd_cwnd = 1000;
    tp->snd_ssthresh = 500;
    tp->snd_cwnd_cnt = 0;
    tp->cc->cong_avoid(tp, 1);
    assert_int_equal(tp->cc->ssthresh(tp), 676);
    /* + 8 per 1000 ACKs: 1001 ACKs add 8008 to the count; cwnd passes
     * 1000, 1001, ..., 1006 (7021) and stays below 1007 more: 1007, 987 left */
    for (int k = 0; k < 1000; k++)
        tp->cc->cong_avoid(tp, 1);
    assert_int_equal(tp->snd_cwnd, 1007);
    assert_int_equal(tp->snd_cwnd_cnt, 8008 - 7021);
    /* at 38 packets and below it is Reno: half */
    tp->snd_cwnd = 38;
    tp->snd_ssthresh = 20;
    tp->snd_cwnd_cnt = 0;
    tp->cc->cong_avoid(tp, 1);
    assert_int_equal(tp->cc->ssthresh(tp), 19);
    ctx_clock = NULL;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contract_hooks),
        cmocka_unit_test(test_tso_segs),
        cmocka_unit_test(test_westwood),
        cmocka_unit_test(test_highspeed_table),
        cmocka_unit_test(test_highspeed_response),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
