/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_ecn.c - ECN in the TCP model (Linux 4.15: tcp_ecn_send_syn,
 * tcp_ecn_create_request, tcp_ecn_rcv_synack, tcp_ecn_send) and DCTCP
 * (4.15 tcp_dctcp.c): the negotiation matrix of net.ipv4.tcp_ecn 0/1/2
 * and DCTCP on each side, with the ECN field each packet then carries;
 * SYN fallback; DCTCP's alpha, ssthresh and undo worked out by hand from
 * the kernel's integer arithmetic; and its CE state machine's immediate
 * ACK for the data before a change of state.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/config.h"
#include "sim/sim.h"
#include "tests/world.h"
#include "tests/tcp_world.h"

/* ----------------------------------------------------- the negotiation */

static const char matrix_ini[] =
    "[sim]\nduration = 30ms\n"
    "[host a]\ncpu = ideal\n" OFFLOADS_OFF "%s\n[host b]\ncpu = ideal\n" OFFLOADS_OFF "%s\n"
    "[link l]\nends = a b\nrate = 1gbit\ndelay = 1ms\n"
    "[flow 1]\napp = tcp_stream\nfrom = a\nto = b\nlength = 1s\ntrace_interval = 0\n";

/* a host's setting: tcp_ecn 0, 1, 2, or 3 for tcp.cc = dctcp (tcp_ecn 2) */
static const char *setting(int k)
{
    static const char *const s[] = { "net.ipv4.tcp_ecn = 0", "net.ipv4.tcp_ecn = 1", "", "tcp.cc = dctcp" };
    return s[k];
}

static void test_negotiation_matrix(void **state)
{
    (void)state;
    for (int c = 0; c < 4; c++)
        for (int v = 0; v < 4; v++) {
            char ini[1024];
            snprintf(ini, sizeof ini, matrix_ini, setting(c), setting(v));
            struct sim *s = world_build(ini);
            sim_run(s, false);
            struct host *a = host_find(s, "a"), *b = host_find(s, "b");
            struct tcp_sock *cli = tcp_established(a, false), *srv = tcp_established(b, true);
            assert_non_null(cli);
            assert_non_null(srv);
            /* 4.15: the client asks with tcp_ecn 1 or DCTCP; its SYN is ECT
             * under DCTCP; the server accepts a Not-ECT SYN with tcp_ecn 1
             * or 2, any SYN that asks under DCTCP */
            bool asks = c == 1 || c == 3, ect_syn = c == 3;
            bool ok = asks && ((!ect_syn && (v == 1 || v == 2)) || v == 3);
            print_message("client %d server %d: ecn %d/%d\n", c, v, cli->ecn_flags & TCP_ECN_OK,
                          srv->ecn_flags & TCP_ECN_OK);
            assert_int_equal(!!(cli->ecn_flags & TCP_ECN_OK), ok);
            assert_int_equal(!!(srv->ecn_flags & TCP_ECN_OK), ok);
            /* DCTCP without ECN is Reno, as ss names it */
            if (c == 3)
                assert_string_equal(cli->cc->name, ok ? "dctcp" : "dctcp-reno");
            if (v == 3)
                assert_string_equal(srv->cc->name, ok ? "dctcp" : "dctcp-reno");
            bool counted = c == 1 || c == 3 || v == 1 || v == 3;   /* the ECN counters exist */
            if (counted) {
                /* data ECT(0) with ECN, and the SYN of a DCTCP client; ACKs
                 * ECT(0) only from a DCTCP receiver that kept ECN */
                uint64_t b_ect0 = world_counter(s, "b.IpExtInECT0Pkts");
                uint64_t a_ect0 = world_counter(s, "a.IpExtInECT0Pkts");
                uint64_t data = srv->data_segs_in;
                assert_true(data > 100);
                /* DCTCP sends everything ECT(0) while it has ECN, and its
                 * SYN or SYN-ACK before it knows */
                assert_int_equal(b_ect0, c == 3 ? (ok ? b->ip_in : 1) : ok ? data : 0);
                assert_int_equal(a_ect0, v == 3 ? (ok ? a->ip_in : 1) : 0);
                assert_int_equal(world_counter(s, "b.IpExtInCEPkts"), 0);
            }
            world_free(s);
        }
}

/* the SYN asks again after a timeout only without tcp_ecn_fallback */
static void test_syn_fallback(void **state)
{
    (void)state;
    static struct tcp_host host;
    static struct tcp_sock sock;
    for (int fallback = 0; fallback < 2; fallback++)
        for (int backoff = 0; backoff < 2; backoff++) {
            memset(&host, 0, sizeof host);
            memset(&sock, 0, sizeof sock);
            host.ecn = 1;
            host.ecn_fallback = fallback;
            sock.th = &host;
            sock.cc = tcp_cc_find("cubic");
            sock.state = TCP_SYN_SENT;
            sock.rto_backoff = backoff;
            sock.ecn_flags = TCP_ECN_OK;
            struct skb skb;
            memset(&skb, 0, sizeof skb);
            struct tcp_hdr *th = (struct tcp_hdr *)(void *)skb.l4;
            th->flags = TH_SYN;
            tcp_ecn_xmit(&sock, &skb, th, false);
            bool asks = (th->flags & (TH_ECE | TH_CWR)) == (TH_ECE | TH_CWR);
            assert_int_equal(asks, !(fallback && backoff));
            assert_int_equal(skb_ecn(&skb), INET_ECN_NOT_ECT);    /* RFC 3168: a SYN is never ECT */
        }
}

/* --------------------------------------------------------------- DCTCP */

static struct tcp_host dhost;
static struct tcp_sock dsock;
static simtime_t now;

/* A DCTCP sender with ECN, snd_una = snd_nxt = 1, the host's keys at
 * their defaults but for (key, value) */
static struct tcp_sock *dctcp_sender(const char *key, int64_t value)
{
    memset(&dhost, 0, sizeof dhost);
    memset(&dsock, 0, sizeof dsock);
    const struct tcp_cc_ops *d = tcp_cc_find("dctcp");
    assert_non_null(d);
    variant_key_defaults(d, dhost.cc_vals);
    if (key)
        dhost.cc_vals[variant_key_index(d, key)] = value;
    dsock.th = &dhost;
    dsock.cc = d;
    dsock.mss = 1448;
    dsock.rcv_mss = 536;          /* a sender that received no data keeps tcp_initialize_rcv_mss's */
    dsock.snd_una = dsock.snd_nxt = 1;
    dsock.ecn_flags = TCP_ECN_OK;
    now = PS_PER_S;
    ctx_clock = &now;
    d->init(&dsock);
    return &dsock;
}

static struct tcp_cc_info info_of(struct tcp_sock *tp)
{
    struct tcp_cc_info i = { .kind = TCP_CC_INFO_NONE };
    tp->cc->get_info(tp, &i);
    assert_int_equal(i.kind, TCP_CC_INFO_DCTCP);
    return i;
}

/* An ACK of n more segments, with ECE or not */
static void ack(struct tcp_sock *tp, uint32_t n, bool ece)
{
    tp->snd_una += (uint64_t)n * tp->mss;
    tp->cc->in_ack_event(tp, CA_ACK_SLOWPATH | CA_ACK_WIN_UPDATE | (ece ? CA_ACK_ECE : 0));
}

static void test_dctcp_alpha(void **state)
{
    (void)state;
    /* alpha_on_init 1024, g = 1/16. At init next_seq = snd_nxt = 1, so the
     * first ACK ends a window: 1024 - (1024 >> 4) + (1448 << 6) / 1448 =
     * 960 + 64 = 1024 */
    struct tcp_sock *tp = dctcp_sender(NULL, 0);
    assert_int_equal(info_of(tp).u.dctcp.alpha, 1024);
    tp->snd_nxt = 1 + 10 * 1448;
    ack(tp, 1, true);
    assert_int_equal(info_of(tp).u.dctcp.alpha, 1024);
    assert_int_equal(info_of(tp).u.dctcp.ab_tot, 0);           /* reset for the next window */
    /* a window of 9 ACKs, the 3rd with ECE: 960 + 92672 / 13032 = 967
     * (7.11 truncated) once snd_una reaches 1 + 10 x 1448 */
    tp->snd_nxt = 1 + 30 * 1448;                                  /* sent meanwhile: not this window */
    for (int i = 0; i < 8; i++)
        ack(tp, 1, i == 2);
    struct tcp_cc_info in = info_of(tp);
    assert_int_equal(in.u.dctcp.ab_ecn, 1448);
    assert_int_equal(in.u.dctcp.ab_tot, 8 * 1448);
    assert_int_equal(in.u.dctcp.alpha, 1024);
    ack(tp, 1, false);
    assert_int_equal(info_of(tp).u.dctcp.alpha, 967);
    /* a window with nothing marked: 967 - 60 = 907 */
    tp->snd_nxt = 1 + 35 * 1448;
    ack(tp, 20, false);
    assert_int_equal(info_of(tp).u.dctcp.alpha, 907);
    /* a duplicate ACK (snd_una still, no window update) counts rcv_mss,
     * 536; a window update counts nothing */
    tp->cc->in_ack_event(tp, CA_ACK_SLOWPATH | CA_ACK_ECE);
    tp->cc->in_ack_event(tp, CA_ACK_SLOWPATH | CA_ACK_WIN_UPDATE);
    in = info_of(tp);
    assert_int_equal(in.u.dctcp.ab_ecn, 536);
    assert_int_equal(in.u.dctcp.ab_tot, 536);

    /* alpha below 16 decays to 0 in one unmarked window (min_not_zero:
     * 4.9's c80dbe046129), and stays 0 */
    tp = dctcp_sender("alpha_on_init", 15);
    assert_int_equal(info_of(tp).u.dctcp.alpha, 15);
    tp->snd_nxt = 1 + 4 * 1448;
    ack(tp, 1, false);
    assert_int_equal(info_of(tp).u.dctcp.alpha, 0);
    ack(tp, 3, false);
    assert_int_equal(info_of(tp).u.dctcp.alpha, 0);
    /* alpha_on_init above 1024 is clamped to it */
    tp = dctcp_sender("alpha_on_init", 5000);
    assert_int_equal(info_of(tp).u.dctcp.alpha, 1024);

    /* shift_g 1: from 0, a window with a quarter of its bytes marked:
     * 0 + (1448 << 9) / (4 x 1448) = 128 */
    tp = dctcp_sender("alpha_on_init", 0);
    dhost.cc_vals[variant_key_index(tp->cc, "shift_g")] = 1;
    tp->snd_nxt = 1 + 4 * 1448;
    ack(tp, 0, false);                                           /* nothing acked: ends the empty first window */
    ack(tp, 1, true);
    ack(tp, 3, false);
    assert_int_equal(info_of(tp).u.dctcp.alpha, 128);
}

static void test_dctcp_ssthresh_undo(void **state)
{
    (void)state;
    struct tcp_sock *tp = dctcp_sender("alpha_on_init", 967);
    /* cwnd - (cwnd x alpha) >> 11: 100 - 96700 / 2048 = 100 - 47 = 53 */
    tp->snd_cwnd = 100;
    assert_int_equal(tp->cc->ssthresh(tp), 53);
    tp->snd_cwnd = 60;
    assert_int_equal(tp->cc->undo_cwnd(tp), 100);                 /* max(cwnd, cwnd at the cut) */
    tp->snd_cwnd = 120;
    assert_int_equal(tp->cc->undo_cwnd(tp), 120);
    tp = dctcp_sender(NULL, 0);                                   /* alpha 1024: half */
    tp->snd_cwnd = 100;
    assert_int_equal(tp->cc->ssthresh(tp), 50);
    tp->snd_cwnd = 3;
    assert_int_equal(tp->cc->ssthresh(tp), 2);
    tp->snd_cwnd = 2;
    assert_int_equal(tp->cc->ssthresh(tp), 2);                    /* never below 2 */
    tp = dctcp_sender("alpha_on_init", 0);
    tp->snd_cwnd = 100;
    assert_int_equal(tp->cc->ssthresh(tp), 100);                  /* no marks: no cut */
    /* clamp_alpha_on_loss: a timeout sets alpha to 1024, else alpha stays */
    tp = dctcp_sender("alpha_on_init", 100);
    tp->cc->set_state(tp, TCP_CA_Loss);
    assert_int_equal(info_of(tp).u.dctcp.alpha, 100);
    tp = dctcp_sender("clamp_alpha_on_loss", 1);
    dhost.cc_vals[variant_key_index(tp->cc, "alpha_on_init")] = 100;
    tp->cc->init(tp);
    tp->cc->set_state(tp, TCP_CA_Recovery);
    assert_int_equal(info_of(tp).u.dctcp.alpha, 100);
    tp->cc->set_state(tp, TCP_CA_Loss);
    assert_int_equal(info_of(tp).u.dctcp.alpha, 1024);
    /* without ECN it is Reno, and ss says fallback_mode */
    tp = dctcp_sender(NULL, 0);
    tp->ecn_flags = 0;
    tp->cc->init(tp);
    assert_string_equal(tp->cc->name, "dctcp-reno");
    assert_false(tp->cc->flags & TCP_CONG_NEEDS_ECN);
    assert_int_equal(info_of(tp).u.dctcp.enabled, 0);
}

/* The receiver's CE state machine on an established DCTCP receiver: a
 * change of state with a delayed ACK held sends that ACK at once for
 * the data before the change (rcv_wup shows the rcv_nxt it acknowledged),
 * with the old state's ECE; without one held, nothing goes. */
static void test_dctcp_ce_state_ack(void **state)
{
    (void)state;
    char ini[1024];
    snprintf(ini, sizeof ini, matrix_ini, setting(3), setting(3));
    struct sim *s = world_build(ini);
    sim_run(s, false);
    struct tcp_sock *rcv = tcp_established(host_find(s, "b"), true);
    assert_string_equal(rcv->cc->name, "dctcp");
    const struct tcp_cc_ops *cc = rcv->cc;
    cc->cwnd_event(rcv, CA_EVENT_NON_DELAYED_ACK);
    cc->cwnd_event(rcv, CA_EVENT_ECN_NO_CE);                      /* state 0, prior_rcv_nxt = rcv_nxt */
    uint64_t before = rcv->rcv_nxt, acks = rcv->st.acks_out, eces = rcv->st.ecn_ece_out;

    /* a segment in, its ACK delayed, then a CE one: the held ACK goes
     * for `before + 1448`, without ECE, and ECE is demanded after */
    rcv->rcv_nxt += 1448;
    cc->cwnd_event(rcv, CA_EVENT_ECN_NO_CE);
    cc->cwnd_event(rcv, CA_EVENT_DELAYED_ACK);
    rcv->rcv_nxt += 1448;
    cc->cwnd_event(rcv, CA_EVENT_ECN_IS_CE);
    assert_int_equal(rcv->st.acks_out, acks + 1);
    assert_int_equal(rcv->st.ecn_ece_out, eces);
    assert_int_equal(rcv->rcv_wup, before + 1448);
    assert_int_equal(rcv->rcv_nxt, before + 2 * 1448);           /* put back */
    assert_true(rcv->ecn_flags & TCP_ECN_DEMAND_CWR);
    assert_false(rcv->ack_pending);                               /* 4.15: the schedule went with it */
    assert_int_equal(info_of(rcv).u.dctcp.ce_state, 1);

    /* CE again: no change of state, nothing sent */
    cc->cwnd_event(rcv, CA_EVENT_DELAYED_ACK);
    rcv->rcv_nxt += 1448;
    cc->cwnd_event(rcv, CA_EVENT_ECN_IS_CE);
    assert_int_equal(rcv->st.acks_out, acks + 1);

    /* back to not CE with an ACK held: it goes with ECE, for the data up
     * to the last CE segment, and ECE stops */
    cc->cwnd_event(rcv, CA_EVENT_DELAYED_ACK);
    uint64_t last_ce = rcv->rcv_nxt;
    rcv->rcv_nxt += 1448;
    cc->cwnd_event(rcv, CA_EVENT_ECN_NO_CE);
    assert_int_equal(rcv->st.acks_out, acks + 2);
    assert_int_equal(rcv->st.ecn_ece_out, eces + 1);
    assert_int_equal(rcv->rcv_wup, last_ce);
    assert_false(rcv->ecn_flags & TCP_ECN_DEMAND_CWR);

    /* a change with no ACK held (the last one went at once): none sent */
    cc->cwnd_event(rcv, CA_EVENT_NON_DELAYED_ACK);
    rcv->rcv_nxt += 1448;
    cc->cwnd_event(rcv, CA_EVENT_ECN_IS_CE);
    assert_int_equal(rcv->st.acks_out, acks + 2);
    assert_true(rcv->ecn_flags & TCP_ECN_DEMAND_CWR);
    world_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_negotiation_matrix),
        cmocka_unit_test(test_syn_fallback),
        cmocka_unit_test(test_dctcp_alpha),
        cmocka_unit_test(test_dctcp_ssthresh_undo),
        cmocka_unit_test(test_dctcp_ce_state_ack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
