/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_sctp_world.c - the SCTP model in small worlds: one association over
 * a 10G link, fast retransmit of one packet, 3.14's potentially-failed path
 * state (sctp_do_8_2_transport_strike, sctp_sf_sendbeat_8_3,
 * sctp_cmd_transport_on) under both heartbeat variants, multi-homed paths,
 * loopback with the heartbeat profile.
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

static const char *two_hosts =
    "[sim]\nduration = 300ms\n"
    "[host sender]\nrx_queue_cpu = 1\n"
    "[host receiver]\nrx_queue_cpu = 0\nsctp.rwnd = %s\n"
    "[link wire]\nends = sender:eth0 receiver:eth0\npropagation = 2us\n"
    "[flow 1]\napp = sctp_iperf3\nfrom = sender\nto = receiver\ntrace_interval = 0\n";

static struct sim *build(struct cfg **cfg, const char *text)
{
    *cfg = cfg_load_string("sctp.ini", text);
    struct sim *s = sim_build(*cfg, 0, false);
    cfg_print_errors(*cfg, stderr);
    assert_int_equal(cfg_errors(*cfg), 0);
    return s;
}

/* One association over 10G: initial windows, exact packet size, no loss
 * of data (what the server read is what the client wrote, less what is in
 * flight), and identical counters on a second run. */
static void test_world_ipv4(void **state)
{
    (void)state;
    char ini[1024];
    snprintf(ini, sizeof ini, two_hosts, "old");
    uint64_t prev_read = 0;
    for (int run = 0; run < 2; run++) {
        struct cfg *cfg;
        struct sim *s = build(&cfg, ini);
        struct sctp_assoc *srv = host_sock_lookup(host_find(s, "receiver"), IPPROTO_SCTP_, 5201)->priv;
        struct sctp_assoc *cli = srv->peer_dbg;
        assert_int_equal(srv->rwnd, 106496);
        assert_int_equal(cli->peer_rwnd, 106496);
        assert_int_equal(cli->tp[0].cwnd, 4380);
        assert_int_equal(cli->frag_point, 1452);
        sim_run(s, false);
        uint64_t pkts = world_counter(s, "flow.1.sctp.client.data_packets_sent");
        uint64_t read = world_counter(s, "flow.1.iperf3.server_bytes");
        assert_true(pkts > 10000);
        assert_int_equal(world_counter(s, "flow.1.sctp.client.t3_expiries"), 0);
        struct nic *n = host_find(s, "receiver")->nics[0];
        uint64_t rx_b = 0, rx_p = 0;
        for (int q = 0; q < NIC_MAX_QUEUES; q++) {
            rx_b += n->vec[q].rx_bytes;
            rx_p += n->vec[q].rx_packets;
        }
        assert_int_equal(rx_b, 1500 * rx_p);            /* 20 + 12 + 16 + 1452 */
        uint32_t held = cli->next_tsn - 1 - cli->ctsn_ack_point;   /* queued or unacked chunks */
        assert_int_equal(cli->wmem_queued, held * 2304);
        assert_int_equal(cli->wmem_alloc, held * 2500);
        assert_true(held <= 93);
        assert_true(read <= (uint64_t)(cli->next_tsn - 1) * 1452);
        assert_true(read + 200 * 1452 >= (uint64_t)(cli->next_tsn - 1) * 1452);
        if (run)
            assert_int_equal(read, prev_read);
        prev_read = read;
        sim_free(s);
        cfg_free(cfg);
    }
}

/* A SACK from cum-ack `cum` with one gap block [lo, hi] (TSNs). */
static void sack(struct sctp_assoc *a, uint32_t cum, uint32_t lo, uint32_t hi, struct core *c)
{
    struct sctp_wire w = { .type = SCTP_SACK, .tsn = cum, .a_rwnd = 106496, .ngaps = 1 };
    w.gap[0][0] = (uint16_t)(lo - cum);
    w.gap[0][1] = (uint16_t)(hi - cum);
    sctp_sack_rcv(a, &w, c);
}

/* 3.14 sctp_outq_flush_rtx: a fast retransmission is one packet; chunks
 * marked for fast retransmit that did not fit become DONT_FRTX and wait as
 * ordinary retransmissions under cwnd. sctp_outq_sack: in Fast Recovery a
 * SACK that moves the cum-ack gives a miss indication below the highest
 * TSN it reports, not only below the highest newly acked. */
static void test_fast_rtx_one_packet(void **state)
{
    (void)state;
    char ini[1024];
    snprintf(ini, sizeof ini, two_hosts, "old");
    struct cfg *cfg;
    struct sim *s = build(&cfg, ini);
    struct sctp_assoc *srv = host_sock_lookup(host_find(s, "receiver"), IPPROTO_SCTP_, 5201)->priv;
    struct sctp_assoc *a = srv->peer_dbg;
    struct core *c = a->writer_core;
    const uint32_t L = 1452;
    /* 40 chunks in flight, TSN 1-40; TSN 1-3 were lost */
    for (uint32_t t = 1; t <= 40; t++) {
        a->ring[t] = (struct sctp_chunk){ .tsn = t, .len = L, .state = CH_SENT };
        sctp_set_owner_w(a, L);
    }
    a->next_tsn = a->next_send = 41;
    a->tp[0].flight = a->outstanding = 40 * L;
    a->tp[0].cwnd = 40 * L;
    a->peer_rwnd = 106496 - 40 * L;
    sack(a, 0, 4, 10, c);
    sack(a, 0, 4, 15, c);
    assert_int_equal(a->st.data_packets_sent, 0);
    sack(a, 0, 4, 20, c);              /* third miss for TSN 1-3 */
    assert_int_equal(a->tp[0].ssthresh, 20 * L);
    assert_int_equal(a->tp[0].cwnd, 20 * L);
    assert_int_equal(a->st.fast_retransmits, 1);
    assert_int_equal(a->st.data_packets_sent, 1);
    assert_int_equal(a->ring[1].state, CH_SENT);
    assert_int_equal(a->ring[1].fast_rtx, FR_DONT);
    for (uint32_t t = 2; t <= 3; t++) {
        assert_int_equal(a->ring[t].state, CH_RTX);
        assert_int_equal(a->ring[t].fast_rtx, FR_DONT);
    }
    assert_int_equal(a->nrtx, 2);
    assert_int_equal(a->tp[0].flight, 21 * L);
    /* the next flush sees no fast retransmission: flight >= cwnd, nothing goes */
    sctp_outq_flush(a, c, false);
    assert_int_equal(a->st.data_packets_sent, 1);
    /* TSN 1 and 21-30 arrive: flight 10 chunks < cwnd, TSN 2 and 3 go,
     * one per packet, as ordinary retransmissions */
    sack(a, 1, 4, 30, c);
    assert_int_equal(a->st.data_packets_sent, 3);
    assert_int_equal(a->st.retransmits, 3);
    assert_int_equal(a->st.fast_retransmits, 1);
    assert_int_equal(a->nrtx, 0);
    assert_int_equal(a->tp[0].flight, 12 * L);
    assert_true(a->fast_recovery);
    /* TSN 31-35 missing, 36-40 arrive: one miss each */
    sack(a, 30, 36, 40, c);
    for (uint32_t t = 31; t <= 35; t++)
        assert_int_equal(a->ring[t].missing, 1);
    /* 31-34 arrive: nothing above 35 is newly acked, but the cum-ack moved
     * in Fast Recovery, so 35 gets its second miss */
    sack(a, 34, 36, 40, c);
    assert_int_equal(a->ring[35].missing, 2);
    assert_true(a->fast_recovery);
    sim_free(s);
    cfg_free(cfg);
}

/* The client end of an unrun world with chunks TSN 1..n in flight and an
 * RTO of 1 s (rto_min, as after the first sample). Jiffies stay 0: the
 * calls below charge a few microseconds. */
static struct sctp_assoc *pf_world(struct sim **s, struct cfg **cfg, uint32_t n)
{
    char ini[1024];
    snprintf(ini, sizeof ini, two_hosts, "old");
    *s = build(cfg, ini);
    struct sctp_assoc *srv = host_sock_lookup(host_find(*s, "receiver"), IPPROTO_SCTP_, 5201)->priv;
    struct sctp_assoc *a = srv->peer_dbg;
    for (uint32_t t = 1; t <= n; t++) {
        a->ring[t] = (struct sctp_chunk){ .tsn = t, .len = 1452, .state = CH_SENT };
        sctp_set_owner_w(a, 1452);
    }
    a->next_tsn = a->next_send = n + 1;
    a->tp[0].flight = a->outstanding = n * 1452;
    a->tp[0].cwnd = n * 1500;
    a->peer_rwnd = 106496 - n * 1452;
    a->tp[0].rto = 1000;
    return a;
}

/* prandom_u32_max(n) of the k-th draw ahead on the host's generator,
 * without consuming it */
static uint64_t peek_prandom(struct sctp_assoc *a, int k, uint64_t n)
{
    gsl_rng *g = gsl_rng_clone(rng_gen(&a->sh->rng));
    uint64_t u = 0;
    for (int i = 0; i <= k; i++)
        u = gsl_rng_get(g);
    gsl_rng_free(g);
    return (u * n) >> 32;
}

/* 3.14 PF, sctp.hb = jitter (sm_sideeffect.c sctp_do_8_2_transport_strike,
 * sctp_cmd_transport_on; sm_statefuns.c sctp_sf_sendbeat_8_3;
 * transport.c sctp_transport_timeout; pf_retrans 0):
 * - the first T3 makes the path PF (one entry), error_count 1, RTO 2 s; the
 *   heartbeat timer, re-armed by the strike and then by the T3
 *   retransmission, lies at rto/2 + U[0, rto) with the doubled RTO and
 *   without hbinterval;
 * - a SACK that acks data clears error_count but leaves the path PF;
 * - the first heartbeat is no strike (nothing outstanding): RTO kept,
 *   rto_pending set, cwnd = max(cwnd/2, 4 PMTU);
 * - a second expiry with that heartbeat unacknowledged strikes: error_count
 *   1 and the RTO doubled by the heartbeat;
 * - the HEARTBEAT-ACK returns the path to ACTIVE with cwnd one PMTU, clears
 *   error_count and hb_sent, takes an RTT sample (RTO back to rto_min) and
 *   re-arms with hbinterval again. */
static void test_pf_state_jitter(void **state)
{
    (void)state;
    struct cfg *cfg;
    struct sim *s;
    struct sctp_assoc *a = pf_world(&s, &cfg, 4);
    struct core *c = a->writer_core;
    assert_string_equal(a->sh->hb->name, "jitter");
    assert_int_equal(a->sh->pf_retrans, 0);
    assert_int_equal(a->tp[0].tstate, SCTP_T_ACTIVE);
    uint64_t calls = a->tp[0].hb.calls;

    /* draw 0: the strike's re-arm (rto 1000); draw 1: the retransmission's
     * reset_timers (rto 2000) */
    uint64_t r = peek_prandom(a, 1, 2000);
    sctp_t3_timeout(&a->tp[0], c);
    assert_int_equal(a->tp[0].tstate, SCTP_T_PF);
    assert_int_equal(a->st.pf_entries, 1);
    assert_int_equal(a->tp[0].error_count, 1);
    assert_int_equal(a->tp[0].rto, 2000);
    assert_int_equal(a->tp[0].cwnd, 1500);
    assert_int_equal(a->st.data_packets_sent, 1);       /* TSN 1, alone */
    assert_int_equal(a->tp[0].hb.calls - calls, 2);
    assert_true(kt_pending(&a->tp[0].hb));
    assert_int_equal(a->tp[0].hb.expires, kt_apply_slack(1000 + r, 0));
    assert_true(a->tp[0].hb.expires < 3100);                    /* no 30 s hbinterval */

    /* everything acked (TSN 1 retransmitted, 2-4 acked while queued) */
    struct sctp_wire w = { .type = SCTP_SACK, .tsn = 4, .a_rwnd = 106496 };
    sctp_sack_rcv(a, &w, c);
    assert_int_equal(a->tp[0].error_count, 0);
    assert_int_equal(a->tp[0].tstate, SCTP_T_PF);
    assert_int_equal(a->tp[0].flight, 0);
    assert_int_equal(a->tp[0].cwnd, 1500);

    r = peek_prandom(a, 0, 2000);
    sctp_hb_timeout(&a->tp[0], c);
    assert_int_equal(a->st.hb_sent, 1);
    assert_true(a->tp[0].hb_sent);
    assert_true(a->tp[0].rto_pending);
    assert_int_equal(a->tp[0].error_count, 0);
    assert_int_equal(a->tp[0].rto, 2000);
    assert_int_equal(a->tp[0].cwnd, 6000);                      /* max(1500 / 2, 4 * 1500) */
    assert_int_equal(a->tp[0].hb.expires, kt_apply_slack(1000 + r, 0));

    r = peek_prandom(a, 0, 4000);                         /* the strike doubles before the re-arm */
    sctp_hb_timeout(&a->tp[0], c);
    assert_int_equal(a->st.hb_sent, 2);
    assert_int_equal(a->tp[0].error_count, 1);
    assert_int_equal(a->tp[0].rto, 4000);
    assert_int_equal(a->st.hb_rto_doublings, 1);
    assert_int_equal(a->st.pf_entries, 1);                /* already PF */
    assert_int_equal(a->tp[0].hb.expires, kt_apply_slack(2000 + r, 0));

    r = peek_prandom(a, 0, 1000);
    sctp_hb_ack_rcv(&a->tp[0], 0, c);
    assert_int_equal(a->tp[0].tstate, SCTP_T_ACTIVE);
    assert_int_equal(a->tp[0].cwnd, 1500);
    assert_int_equal(a->tp[0].error_count, 0);
    assert_false(a->tp[0].hb_sent);
    assert_false(a->tp[0].rto_pending);
    assert_int_equal(a->tp[0].rto, 1000);                       /* RTT 0: rto_min */
    assert_int_equal(a->st.pf_exits, 1);
    assert_int_equal(a->st.hb_ack_rx, 1);
    assert_int_equal(a->tp[0].hb.expires, kt_apply_slack(500 + r + 30000, 0));

    /* an ACK whose sent_at lies in the future is discarded */
    sctp_hb_ack_rcv(&a->tp[0], 5, c);
    assert_int_equal(a->st.hb_ack_stale, 1);
    assert_int_equal(a->st.hb_ack_rx, 1);
    sim_free(s);
    cfg_free(cfg);
}

/* The same path under sctp.hb = lazy: the strike re-arms at rto/2 exactly
 * (501 after slack), the T3 retransmission's base expiry (rto/2 with the
 * doubled RTO, 1000) has passed it, so reset_timers re-arms at 1000 +
 * U[0, 2000); the HEARTBEAT-ACK's re-arm has no random term as posted:
 * 30500 -> 30592 (sctp.md B.2). */
static void test_pf_state_lazy(void **state)
{
    (void)state;
    struct cfg *cfg;
    struct sim *s;
    struct sctp_assoc *a = pf_world(&s, &cfg, 2);
    struct core *c = a->writer_core;
    a->sh->hb = sctp_hb_find("lazy");
    uint64_t r = peek_prandom(a, 0, 2000);
    sctp_t3_timeout(&a->tp[0], c);
    assert_int_equal(a->tp[0].tstate, SCTP_T_PF);
    assert_int_equal(a->st.hb_lazy_skips, 0);
    assert_int_equal(a->tp[0].hb.expires, kt_apply_slack(1000 + r, 0));
    sctp_hb_ack_rcv(&a->tp[0], 0, c);
    assert_int_equal(a->tp[0].tstate, SCTP_T_ACTIVE);
    assert_int_equal(a->tp[0].cwnd, 1500);
    assert_int_equal(a->tp[0].hb.expires, 30592);
    a->sh->hb = sctp_hb_find("jitter");
    sim_free(s);
    cfg_free(cfg);
}

/* Multi-homing (3.14 associola.c, outqueue.c): the alternate address starts
 * UNCONFIRMED with RTO 3 s; once ACTIVE, sctp_assoc_control_transport
 * makes it the retran path (the primary first, the other ACTIVE address
 * second, however recently each was heard, as in the 3.13.2 tree; the
 * 3.10 loop left first == second); retransmissions go to the retran
 * path, on its NIC, under its T3 timer and RTO; with both paths PF,
 * sctp_assoc_update_retran_path moves the retran path to the other PF
 * address, whose RTO is still doubled: the next stall lasts 2 s. */
static void test_multihome_paths(void **state)
{
    (void)state;
    const char *ini = "[sim]\nduration = 300ms\n"
                      "[host sender]\nrx_queue_cpu = 1\n"
                      "[host receiver]\nrx_queue_cpu = 0\n"
                      "[link wire]\nends = sender:eth0 receiver:eth0\npropagation = 2us\n"
                      "[link wire2]\nends = sender:eth1 receiver:eth1\npropagation = 2us\n"
                      "[flow 1]\napp = sctp_iperf3\nfrom = sender\nto = receiver\npaths = 2\ntrace_interval = 0\n";
    struct cfg *cfg;
    struct sim *s = build(&cfg, ini);
    struct sctp_assoc *srv = host_sock_lookup(host_find(s, "receiver"), IPPROTO_SCTP_, 5201)->priv;
    struct sctp_assoc *a = srv->peer_dbg;
    struct core *c = a->writer_core;
    struct nic *eth1 = host_find(s, "sender")->nics[1];
    assert_int_equal(a->npaths, 2);
    assert_int_equal(srv->npaths, 2);
    assert_int_equal(a->tp[0].tstate, SCTP_T_ACTIVE);
    assert_int_equal(a->tp[1].tstate, SCTP_T_UNCONFIRMED);
    assert_int_equal(a->tp[1].rto, 3000);
    assert_int_equal(a->tp[1].cwnd, 4380);
    assert_int_equal(a->active, 0);
    assert_int_equal(a->retran, 0);

    /* confirmed, though heard before the primary: retran path */
    a->tp[0].last_heard = 5;
    a->tp[1].last_heard = 3;
    sctp_hb_ack_rcv(&a->tp[1], 0, c);
    assert_int_equal(a->tp[1].tstate, SCTP_T_ACTIVE);
    assert_int_equal(a->tp[1].rto, 1000);
    assert_int_equal(a->st.paths_confirmed, 1);
    assert_int_equal(a->active, 0);
    assert_int_equal(a->retran, 1);
    /* heard after the primary: first, until the primary takes first back */
    a->tp[1].last_heard = 7;
    a->tp[1].tstate = SCTP_T_PF;
    sctp_hb_ack_rcv(&a->tp[1], 0, c);
    assert_int_equal(a->tp[1].cwnd, 1500);          /* PF exit: one PMTU */
    assert_int_equal(a->active, 0);
    assert_int_equal(a->retran, 1);

    /* TSN 1-4 in flight on the primary; its T3: primary PF (RTO 2 s), the
     * alternate becomes active and retran path, TSN 1 goes on eth1 */
    for (uint32_t t = 1; t <= 4; t++) {
        a->ring[t] = (struct sctp_chunk){ .tsn = t, .len = 1452, .state = CH_SENT, .tp = 0 };
        sctp_set_owner_w(a, 1452);
    }
    a->next_tsn = a->next_send = 5;
    a->tp[0].flight = a->outstanding = 4 * 1452;
    a->tp[0].rto = 1000;
    uint64_t tx1 = world_nic_tx_packets(eth1);
    kt_del(&a->tp[0].t3, NULL, NULL, NULL);       /* it expired */
    sctp_t3_timeout(&a->tp[0], c);
    assert_int_equal(a->tp[0].tstate, SCTP_T_PF);
    assert_int_equal(a->tp[0].rto, 2000);
    assert_int_equal(a->active, 1);
    assert_int_equal(a->retran, 1);
    assert_int_equal(a->ring[1].state, CH_SENT);
    assert_int_equal(a->ring[1].tp, 1);
    assert_int_equal(a->tp[1].flight, 1452);
    assert_int_equal(a->tp[0].flight, 0);
    assert_true(kt_pending(&a->tp[1].t3));
    assert_int_equal(a->tp[1].t3.expires, kt_apply_slack(1000, 0));
    assert_int_equal(world_nic_tx_packets(eth1) - tx1, 1);
    assert_int_equal(a->st.t3_alternate, 0);

    /* the alternate's T3 too: no ACTIVE address, both camp on the primary,
     * which takes the retransmission under its doubled RTO */
    kt_del(&a->tp[1].t3, NULL, NULL, NULL);
    sctp_t3_timeout(&a->tp[1], c);
    assert_int_equal(a->st.t3_alternate, 1);
    assert_int_equal(a->tp[1].tstate, SCTP_T_PF);
    assert_int_equal(a->tp[1].rto, 2000);
    assert_int_equal(a->active, 0);
    assert_int_equal(a->retran, 0);
    assert_int_equal(a->ring[1].tp, 0);
    assert_int_equal(a->tp[0].t3.expires, kt_apply_slack(2000, 0));
    /* and the primary's next T3: sctp_assoc_update_retran_path finds no
     * ACTIVE address and takes the next one that is not UNCONFIRMED, the
     * PF alternate, whose RTO of 2 s arms its T3 */
    kt_del(&a->tp[0].t3, NULL, NULL, NULL);       /* it expired */
    sctp_t3_timeout(&a->tp[0], c);
    assert_int_equal(a->tp[0].rto, 4000);
    assert_int_equal(a->retran, 1);
    assert_int_equal(a->active, 0);
    assert_int_equal(a->ring[1].tp, 1);
    assert_int_equal(a->tp[1].t3.expires, kt_apply_slack(2000, 0));
    sim_free(s);
    cfg_free(cfg);
}

/* Loopback, 64 KB packets: every DATA chunk re-arms the heartbeat with
 * jitter, and most re-queue; lazy re-arms a few times per second. */
static void test_world_loopback_hb(void **state)
{
    (void)state;
    const char *fmt = "[sim]\nduration = 2s\n[host lo]\ncpu = xeon-2015-kvm\ncores = 2\nlo_mtu = 65535\nsctp.hb = %s\n"
                      "[link l]\nends = lo:eth0 peer:eth0\n"
                      "[flow 1]\napp = sctp_stream\nfrom = lo\nto = lo\nhb_sample = 0\n";
    char ini[512];
    uint64_t calls[2], chunks[2];
    for (int v = 0; v < 2; v++) {
        snprintf(ini, sizeof ini, fmt, v ? "lazy" : "jitter");
        struct cfg *cfg;
        struct sim *s = build(&cfg, ini);
        sim_run(s, false);
        chunks[v] = world_counter(s, "flow.1.sctp.client.data_chunks_sent");
        calls[v] = world_counter(s, "flow.1.sctp.client.hb_timer.mod_timer_calls");
        uint64_t rq = world_counter(s, "flow.1.sctp.client.hb_timer.requeues");
        assert_true(chunks[v] > 100000);
        assert_int_equal(world_counter(s, "flow.1.sctp.client.hb_sent"), 0);
        if (!v) {
            assert_int_equal(calls[v], chunks[v] + 1);      /* + the start of the association */
            assert_in_range(rq * 100 / calls[v], 85, 93);
        } else {
            assert_in_range(calls[v], 2, 8);                 /* about 2 per second, + the start */
        }
        uint64_t pkts = world_counter(s, "flow.1.sctp.client.data_packets_sent");
        assert_in_range(chunks[v] / pkts, 19, 39);           /* bundled up to 39 per 64 KB packet */
        sim_free(s);
        cfg_free(cfg);
    }
    assert_true(chunks[1] > chunks[0]);   /* lazy is cheaper per chunk on a CPU-bound sender */
}

/* The profile table with caller-tagged rows (report.c): one line per
 * callee with the sum of its rows, then each chain's share of it. */
static void test_profile_prints_callers(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    struct report *r = report_new(f, REPORT_TEXT, 1);
    report_show_profile(r, 1);
    report_profile(r, "lo/cpu0", "sctp_sendmsg", 9000, 10);
    report_profile(r, "lo/cpu0", "_raw_spin_unlock_irqrestore <- mod_timer <- sctp_transport_reset_timers", 300, 6);
    report_profile(r, "lo/cpu0", "_raw_spin_unlock_irqrestore <- __wake_up_sync_key", 100, 2);
    report_profile(r, "lo/cpu0", "mod_timer", 600, 60);
    report_end(r, 1.0, 0.1, 1, "complete");
    report_free(r);
    fclose(f);
    assert_non_null(strstr(buf, "    90.00%       900.0           10  sctp_sendmsg\n"
                                "     6.00%        10.0           60  mod_timer\n"
                                "     4.00%        50.0            8  _raw_spin_unlock_irqrestore\n"));
    assert_non_null(strstr(buf, "|--75.00%-- mod_timer <- sctp_transport_reset_timers\n"));
    assert_non_null(strstr(buf, "|--25.00%-- __wake_up_sync_key\n"));
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_world_ipv4),
        cmocka_unit_test(test_fast_rtx_one_packet),
        cmocka_unit_test(test_pf_state_jitter),
        cmocka_unit_test(test_pf_state_lazy),
        cmocka_unit_test(test_multihome_paths),
        cmocka_unit_test(test_world_loopback_hb),
        cmocka_unit_test(test_profile_prints_callers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
