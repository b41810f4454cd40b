/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_gso.c - how big a packet TCP hands down, and when it holds back
 * (Linux 4.15 tcp_output.c and tcp.c): the route's offload caps
 * (sk_setup_caps), the skbs tcp_sendmsg builds (tcp_xmit_size_goal), the
 * segments tcp_write_xmit puts in one GSO packet (tcp_tso_autosize,
 * tcp_tso_segs, tcp_cwnd_test, tcp_mss_split_point), TSO deferral
 * (tcp_tso_should_defer), and TCP Small Queues (tcp_small_queue_check,
 * tcp_wfree, tcp_tsq_handler).
 *
 * The scoreboard stays one entry per MSS segment; a GSO packet is a run
 * of consecutive entries sent at once, as one skb down the stack.
 */
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/dql.h"
#include "sim/route.h"
#include "sim/sim.h"

/* sk_setup_caps: the egress port's offloads. Without tso or gso the
 * socket builds one-segment skbs (sk_gso_max_segs 1). */
void tcp_setup_caps(struct tcp_sock *tp)
{
    struct nic *n = tp->daddr == tp->h->id ? NULL : route_next(tp->h, tp->daddr);
    tp->gso_ok = n && (n->p.tso || n->p.gso);
    tp->gso_max_size = tp->gso_ok ? n->p.gso_max_size : 0;
    tp->gso_max_segs = tp->gso_ok ? n->p.gso_max_segs : 1;
    tp->size_goal_segs = 1;
}

/* tcp_tso_autosize (4.15): a millisecond of the pacing rate
 * (sk_pacing_shift 10), at most a GSO packet less one byte and
 * MAX_TCP_HEADER, at least min_tso_segs. A socket without GSO has no
 * sk_gso_max_size; the model then keeps the 64 KB cap (4.15's subtraction
 * wraps and leaves none), which only BBR's goal ever sees. */
uint32_t tcp_tso_autosize(const struct tcp_sock *tp, uint32_t mss, uint32_t min_tso_segs)
{
    uint64_t cap = (tp->gso_ok ? tp->gso_max_size : TCP_GSO_MAX_SIZE) - 1 - MAX_TCP_HEADER;
    uint64_t bytes = tcp_sk_pacing_rate(tp) >> 10;
    if (bytes > cap)
        bytes = cap;
    uint64_t segs = bytes / mss;
    return segs > min_tso_segs ? (uint32_t)segs : min_tso_segs;
}

/* tcp_tso_segs: the cc's goal, else tcp_tso_autosize; never more than
 * sk_gso_max_segs. */
uint32_t tcp_tso_segs(struct tcp_sock *tp)
{
    uint32_t segs = tp->cc->tso_segs_goal ? tp->cc->tso_segs_goal(tp) : 0;
    if (!segs)
        segs = tcp_tso_autosize(tp, tp->mss, tp->th->min_tso_segs);
    return segs < tp->gso_max_segs ? segs : tp->gso_max_segs;
}

/* tcp_xmit_size_goal with tcp_bound_to_half_wnd: tcp_sendmsg fills skbs
 * of this many segments, a GSO packet less MAX_TCP_HEADER, at most half
 * the largest window the peer offered. */
static uint32_t size_goal_segs(struct tcp_sock *tp)
{
    if (!tp->gso_ok)
        return 1;
    uint64_t goal = tp->gso_max_size - 1 - MAX_TCP_HEADER;
    uint64_t cutoff = tp->max_window > 536 ? tp->max_window >> 1 : tp->max_window;
    if (cutoff && goal > cutoff)
        goal = cutoff > 68 - TCP_HDR_LEN - TCPOLEN_TS_ALIGNED ? cutoff : 68 - TCP_HDR_LEN - TCPOLEN_TS_ALIGNED;
    uint64_t segs = goal / tp->mss;
    if (segs > tp->gso_max_segs)
        segs = tp->gso_max_segs;
    return segs ? (uint32_t)segs : 1;
}

/* What the write queue's head skb holds from segment idx on: the
 * source's skbs are size-goal long; one tcp_write_xmit split
 * (tso_fragment) leaves its tail as the next head. */
static uint64_t wq_skb_segs(struct tcp_sock *tp, uint64_t idx, bool *is_tail)
{
    if (idx >= tp->wq_skb_end) {
        tp->size_goal_segs = size_goal_segs(tp);
        tp->wq_skb_end = idx + tp->size_goal_segs;
    }
    uint64_t segs = tp->wq_skb_end - idx;
    *is_tail = false;
    if (!tp->app_infinite) {
        uint64_t left = (tp->write_seq - tp->snd_nxt) / tp->mss;
        if (left <= segs) {
            segs = left;
            *is_tail = true;     /* the last skb the writer filled */
        }
    }
    return segs;
}

/* tcp_tso_should_defer (John Heffner's "TSO Nagle"): hold a packet that
 * would go short of a full GSO packet while an ACK is due soon. */
static bool tso_should_defer(struct tcp_sock *tp, uint64_t skb_segs, bool is_tail, uint32_t max_segs,
                             uint32_t in_flight, simtime_t now)
{
    if (tp->ca_state >= TCP_CA_Recovery)
        return false;
    if (dql_jiffies(now) != tp->lsndtime)   /* the last write was in an earlier jiffy */
        return false;
    uint64_t send_win = tp->snd_una + tp->snd_wnd - tp->snd_nxt;
    uint64_t cong_win = (uint64_t)(tp->snd_cwnd - in_flight) * tp->mss;
    uint64_t limit = send_win < cong_win ? send_win : cong_win;
    uint64_t len = skb_segs * tp->mss;
    if (limit >= (uint64_t)max_segs * tp->mss)
        return false;
    if (!is_tail && limit >= len)
        return false;
    uint64_t chunk = (uint64_t)tp->snd_cwnd * tp->mss;
    if (tp->snd_wnd < chunk)
        chunk = tp->snd_wnd;
    if (tp->th->tso_win_divisor) {
        if (limit >= chunk / tp->th->tso_win_divisor)
            return false;
    } else if (limit > 3ULL * tp->mss) {   /* tcp_max_tso_deferred_mss */
        return false;
    }
    if (!tp->packets_out)
        return false;
    simtime_t age = now - tcp_seg_at(tp, tp->una_idx)->tx_time;
    if (age < tp->srtt / 2)      /* the next ACK may come late: do not wait for it */
        return false;
    if (cong_win < send_win) {
        if (cong_win <= len)
            tp->is_cwnd_limited = true;
    } else if (send_win <= len) {
        tp->rwnd_limited_now = true;
    }
    return true;
}

uint32_t tcp_gso_segs_now(struct tcp_sock *tp, uint64_t idx, bool retx, uint32_t max_segs, uint32_t in_flight,
                          simtime_t now, bool *defer)
{
    *defer = false;
    /* tcp_cwnd_test: at most half the window, so that two packets are in flight */
    uint32_t quota = tp->snd_cwnd - in_flight, half = tp->snd_cwnd >> 1 ? tp->snd_cwnd >> 1 : 1;
    if (quota > half)
        quota = half;
    uint32_t n = quota < max_segs ? quota : max_segs;
    if (retx) {
        /* tcp_retransmit_skb on a run of lost segments, cut to n */
        uint32_t k = 1;
        while (k < n && idx + k < tp->nxt_idx &&
               (tcp_seg_at(tp, idx + k)->flags & (SEG_LOST | SEG_RETRANS | SEG_SACKED)) == SEG_LOST)
            k++;
        return k;
    }
    bool is_tail;
    uint64_t skb_segs = wq_skb_segs(tp, idx, &is_tail);
    uint64_t wnd = (tp->snd_una + tp->snd_wnd - tp->snd_nxt) / tp->mss;
    if (skb_segs > 1 && tso_should_defer(tp, skb_segs, is_tail, max_segs, in_flight, now)) {
        *defer = true;
        return 0;
    }
    uint64_t k = skb_segs < n ? skb_segs : n;   /* tcp_mss_split_point */
    if (k > wnd)
        k = wnd;
    return k ? (uint32_t)k : 1;
}

/* The truesize of a data skb tcp_sendmsg built: with scatter-gather (a
 * GSO route) a MAX_TCP_HEADER head and the payload in page fragments;
 * without, a linear skb of the whole packet. */
uint32_t tcp_data_truesize(const struct tcp_sock *tp, uint32_t ip_len, uint32_t payload)
{
    return tp->gso_ok ? skb_truesize_for(MAX_TCP_HEADER) + payload : skb_truesize_for(ip_len + 16);
}

/* tcp_small_queue_check: at most two packets or about a millisecond at
 * the pacing rate below the socket (doubled for a retransmission), never
 * more than tcp_limit_output_bytes (from 4.20 only for a flow nobody
 * paces: BBR's and fq's are held to their rate alone); with nothing in
 * flight it always sends, since no TX completion would call it back. */
bool tcp_small_queue_check(struct tcp_sock *tp, uint32_t truesize, bool retx)
{
    if (!tp->th->tsq)
        return false;
    uint64_t limit = 2ULL * truesize, rate = tcp_sk_pacing_rate(tp) >> 10;
    if (rate > limit)
        limit = rate;
    if (limit > tp->th->limit_output_bytes && !(tp->th->tsq_unpaced_only && tp->pacing))
        limit = tp->th->limit_output_bytes;
    limit <<= retx;
    if (tp->sk.wmem_alloc <= limit || !tp->packets_out)
        return false;
    tp->tsq_throttled = true;
    tp->st.tsq_throttled++;
    return true;
}

/* tcp_wfree: a packet of a throttled socket left the machine; the TSQ
 * tasklet (tcp_tsq_handler) sends more. It runs on the socket's softirq
 * core (the kernel's runs on the core that cleaned the TX ring). */
void tcp_wfree(struct sock *sk)
{
    struct tcp_sock *tp = sk->priv;
    if (!tp->tsq_throttled)
        return;
    tp->tsq_throttled = false;
    tcp_kick(tp, TW_TSQ);
}

/* The offload counters of one end (sender or receiver stats): TSQ's when
 * the host has TSQ, GSO's when one of its ports builds GSO packets; a
 * host with neither keeps the rows it had before they existed. */
void tcp_offload_register_counters(struct sim *s, struct tcp_stats *st, const char *prefix, const struct host *h)
{
    const struct tcp_host *th = tcp_host_of(h);
    if (th && th->tsq)
        sim_counter_in(s, sim_keep_name(s, prefix), "tsq_throttled", &st->tsq_throttled, false);
    for (int i = 0; i < h->nnics; i++)
        if (h->nics[i]->p.tso || h->nics[i]->p.gso) {
            sim_counter_in(s, sim_keep_name(s, prefix), "gso_pkts_out", &st->gso_pkts_out, false);
            break;
        }
}
