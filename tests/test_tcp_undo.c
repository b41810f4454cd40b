/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_tcp_undo.c - a reduction taken back when it proves spurious
 * (Linux 4.15 tcp_input.c: tcp_packet_delayed, tcp_try_undo_recovery,
 * _dsack, _loss with F-RTO per RFC 5682; tcp_update_reordering; D-SACK
 * per RFC 2883). The decisions on a bare socket, with cwnd and ssthresh
 * worked out from Reno's undo_cwnd (max(cwnd, prior_cwnd)); then two
 * paths: reordering without loss (every recovery undone, every
 * retransmission D-SACKed, the reordering degree learnt) and loss without
 * reordering (nothing undone).
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

static simtime_t now;
static struct tcp_sock sock;
static struct tcp_host host;

/* A Reno sender 100 segments out, cut from 80 to ssthresh 40 */
static struct tcp_sock *cut_sender(int state)
{
    memset(&sock, 0, sizeof sock);
    memset(&host, 0, sizeof host);
    sock.th = &host;
    sock.cc = tcp_cc_find("reno");
    sock.mss = 1448;
    sock.ts_ok = true;
    sock.snd_una = 1;
    sock.snd_nxt = sock.high_seq = 1 + 100 * 1448;
    sock.prior_cwnd = 80;
    sock.prior_ssthresh = 80;
    sock.snd_cwnd = 44;
    sock.snd_ssthresh = 40;
    sock.ca_state = state;
    sock.undo_marker = 1;
    sock.undo_retrans = 3;
    sock.retrans_stamp = 5000;
    sock.ts_head = -1;                 /* no segment outstanding on the time-sorted list */
    sock.highest_sack = -1;
    now = PS_PER_S;
    ctx_clock = &now;
    return &sock;
}

static void test_timestamps(void **state)
{
    (void)state;
    /* Recovery ends with an ACK echoing a TSval older than the first
     * retransmission: the originals arrived, cwnd max(44, 80), ssthresh 80 */
    struct tcp_sock *tp = cut_sender(TCP_CA_Recovery);
    tp->snd_una = tp->high_seq;
    tcp_recovery_done(tp, 4999);
    assert_int_equal(tp->ca_state, TCP_CA_Open);
    assert_int_equal(tp->snd_cwnd, 80);
    assert_int_equal(tp->snd_ssthresh, 80);
    assert_int_equal(tp->st.undos, 1);
    assert_int_equal(tp->undo_marker, 0);
    /* the same ACK echoing the retransmission's own TSval: a real loss,
     * cwnd = ssthresh (tcp_end_cwnd_reduction) */
    tp = cut_sender(TCP_CA_Recovery);
    tp->snd_una = tp->high_seq;
    tcp_recovery_done(tp, 5000);
    assert_int_equal(tp->snd_cwnd, 40);
    assert_int_equal(tp->snd_ssthresh, 40);
    assert_int_equal(tp->st.undos, 0);
    /* nothing retransmitted yet (no stamp, undo_retrans -1): spurious */
    tp = cut_sender(TCP_CA_Recovery);
    tp->retrans_stamp = 0;
    tp->undo_retrans = -1;
    tp->snd_una = tp->high_seq;
    tcp_recovery_done(tp, 0);
    assert_int_equal(tp->snd_cwnd, 80);
    /* a partial ACK with the original's echo: undone, and Open */
    tp = cut_sender(TCP_CA_Recovery);
    tp->snd_una = 1 + 50 * 1448;
    assert_true(tcp_try_undo_partial(tp, 4000));
    assert_int_equal(tp->snd_cwnd, 80);
    assert_int_equal(tp->ca_state, TCP_CA_Open);
    /* ... but not while a retransmission is out: it waits, marking nothing */
    tp = cut_sender(TCP_CA_Recovery);
    tp->retrans_out = 1;
    assert_true(tcp_try_undo_partial(tp, 4000));
    assert_int_equal(tp->snd_cwnd, 44);
    assert_int_equal(tp->ca_state, TCP_CA_Recovery);
    ctx_clock = NULL;
}

static void test_dsack(void **state)
{
    (void)state;
    /* the reduction is over (Open, cwnd 40) when the last of its three
     * retransmissions comes back D-SACKed: taken back */
    struct tcp_sock *tp = cut_sender(TCP_CA_Open);
    tp->snd_cwnd = 40;
    tp->undo_retrans = 1;
    tcp_try_undo_dsack(tp);
    assert_int_equal(tp->snd_cwnd, 40);            /* one still unaccounted */
    tp->undo_retrans = 0;
    tcp_try_undo_dsack(tp);
    assert_int_equal(tp->snd_cwnd, 80);
    assert_int_equal(tp->snd_ssthresh, 80);
    assert_int_equal(tp->st.undos, 1);
    ctx_clock = NULL;
}

static void test_frto(void **state)
{
    (void)state;
    /* after a timeout (Loss, cwnd 1 -> 2): the ACK of the retransmitted
     * head moves snd_una; F-RTO step 2b sends new data first */
    struct tcp_sock *tp = cut_sender(TCP_CA_Loss);
    tp->snd_cwnd = 2;
    tp->frto = true;
    tp->snd_una = 1 + 1448;
    tcp_process_loss(tp, 5000, true, false, false, true);
    assert_true(tp->rexmit_new);
    assert_int_equal(tp->ca_state, TCP_CA_Loss);
    /* two new segments went; the next ACK covers original data (sent
     * before the timeout): the timeout was spurious, all taken back */
    tp->rexmit_new = false;
    tp->snd_nxt += 2 * 1448;
    tp->snd_una = 1 + 3 * 1448;
    tcp_process_loss(tp, 5000, true, true, false, true);
    assert_int_equal(tp->ca_state, TCP_CA_Open);
    assert_int_equal(tp->snd_cwnd, 80);
    assert_int_equal(tp->snd_ssthresh, 80);
    assert_int_equal(tp->st.spurious_rtos, 1);
    /* the same, but the next ACK SACKs the new data and nothing else:
     * step 3a, the loss was real; F-RTO is off and nothing is undone */
    tp = cut_sender(TCP_CA_Loss);
    tp->snd_cwnd = 2;
    tp->frto = true;
    tp->snd_una = 1 + 1448;
    tcp_process_loss(tp, 5000, true, false, false, true);
    tp->rexmit_new = false;
    tp->snd_nxt += 2 * 1448;
    tcp_process_loss(tp, 5000, false, false, true, true);
    assert_false(tp->frto);
    tcp_process_loss(tp, 5000, false, true, false, true);
    assert_int_equal(tp->ca_state, TCP_CA_Loss);
    assert_int_equal(tp->snd_cwnd, 2);
    /* no new data to send at step 2b: conventional recovery at once */
    tp = cut_sender(TCP_CA_Loss);
    tp->frto = true;
    tp->snd_una = 1 + 1448;
    tcp_process_loss(tp, 5000, true, false, false, false);
    assert_false(tp->frto);
    assert_false(tp->rexmit_new);
    ctx_clock = NULL;
}

static const char path[] =
    "[sim]\nduration = 3s\n"
    "[host sender]\ncpu = ideal\n" OFFLOADS_OFF "[host receiver]\ncpu = ideal\n" OFFLOADS_OFF
    "[link path]\nends = sender receiver\nrate = 1gbit\ndelay = 5ms\n%s\n"
    "[flow 1]\napp = tcp_stream\nfrom = sender\nto = receiver\nlength = 3s\ntrace_interval = 0\n";

static void test_reordering_path(void **state)
{
    (void)state;
    char ini[1024];
    /* 1 % of packets skip netem's 5 ms: they arrive 5 ms early, and what
     * was sent before them looks lost */
    snprintf(ini, sizeof ini, path, "fwd.reorder = 1%");
    struct sim *s = world_build(ini);
    sim_run(s, false);
    struct tcp_sock *cli = tcp_established(host_find(s, "sender"), false);
    struct tcp_sock *srv = tcp_established(host_find(s, "receiver"), true);
    assert_true(cli->st.recoveries > 0);
    assert_int_equal(cli->st.undos, cli->st.recoveries + cli->st.rtos);   /* every one spurious */
    assert_true(cli->st.retrans > 0);
    assert_int_equal(srv->st.dsacks_out, srv->st.dup_data);              /* each duplicate reported once */
    assert_int_equal(cli->st.dsacks_in, srv->st.dsacks_out);             /* no ACK lost */
    assert_int_equal(cli->st.dsacks_in, cli->st.retrans);                /* every retransmission needless */
    assert_true(cli->reordering > 3 && cli->fack_disabled);
    assert_int_equal(tcp_check_scoreboard(cli), 0);
    world_free(s);

    /* loss, no reordering: every retransmission was needed */
    snprintf(ini, sizeof ini, path, "fwd.loss = 1%");
    s = world_build(ini);
    sim_run(s, false);
    cli = tcp_established(host_find(s, "sender"), false);
    srv = tcp_established(host_find(s, "receiver"), true);
    assert_true(cli->st.recoveries > 10);
    assert_int_equal(cli->st.undos, 0);
    assert_int_equal(cli->st.dsacks_in + srv->st.dsacks_out, 0);
    assert_int_equal(cli->reordering, 3);
    world_free(s);
}

int main(void)
{
    models_install();   /* the engine's modules and variants (sim/sim.h) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timestamps),
        cmocka_unit_test(test_dsack),
        cmocka_unit_test(test_frto),
        cmocka_unit_test(test_reordering_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
