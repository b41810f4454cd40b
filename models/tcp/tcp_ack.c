/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_ack.c - the sender's side of an incoming ACK (Linux 4.15 tcp_ack,
 * tcp_sacktag_write_queue, tcp_clean_rtx_queue, tcp_rate.c,
 * tcp_recovery.c, tcp_fastretrans_alert): the SACK scoreboard, RTT and
 * RTO, the delivery-rate sample, loss marking by FACK and RACK, the CA
 * state machine with PRR, and the RTO itself (tcp_enter_loss).
 *
 * The scoreboard is blocks of per-segment records indexed by segment
 * number; SACK blocks are walked only where they are new (the previous
 * ACK's blocks are cached, as the kernel's recv_sack_cache), and the
 * outstanding segments are also on a list in send order (the kernel's
 * tsorted_sent_queue), so RACK looks only at the oldest ones. Per ACK the
 * work is therefore proportional to what changed, not to the window.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/sim.h"


simtime_t tcp_min_rtt(const struct tcp_sock *tp) { return tp->min_rtt; }

/* ---- delivery of one segment (cumulatively ACKed or SACKed) ---- */

static void seg_delivered(struct tcp_sock *tp, uint64_t idx, struct tcp_seg *s, struct ack_ctx *a, bool sack)
{
    simtime_t now = a->now;
    tp->delivered++;
    a->acked_sacked++;
    if (s->flags & SEG_RETRANS)
        a->retrans_acked = true;
    else if (1 + (idx + 1) * tp->mss <= tp->high_seq)
        a->orig_acked = true;            /* sent before the reduction began */
    a->newly_sacked |= sack;
    if (!(s->flags & SEG_EVER_RETRANS)) {
        if (sack) {
            if (!a->first_sackt || s->tx_time < a->first_sackt)
                a->first_sackt = s->tx_time;
            if (s->tx_time > a->last_sackt)
                a->last_sackt = s->tx_time;
        } else {
            if (!a->first_ackt || s->tx_time < a->first_ackt)
                a->first_ackt = s->tx_time;
            if (s->tx_time > a->last_ackt)
                a->last_ackt = s->tx_time;
            a->last_in_flight = (seg_una_dist(s) + 1) * tp->mss;   /* the loop runs in sequence order */
        }
    }
    /* tcp_rack_advance */
    simtime_t rtt = now - s->tx_time;
    if (!((s->flags & SEG_EVER_RETRANS) && rtt < tp->min_rtt)) {
        tp->rack_rtt = rtt;
        uint64_t end = 1 + (idx + 1) * tp->mss;
        if (s->tx_time > tp->rack_mstamp || (s->tx_time == tp->rack_mstamp && end > tp->rack_end_seq)) {
            tp->rack_mstamp = s->tx_time;
            tp->rack_end_seq = end;
        }
    }
    /* tcp_rate_skb_delivered */
    if (s->delivered_time) {
        /* tp->delivered when it was sent: the low bits it kept, below now's */
        uint64_t delivered = tp->delivered - (uint32_t)((uint32_t)tp->delivered - s->delivered_lo);
        if (!a->have_p || delivered > a->p_delivered) {
            a->have_p = true;
            a->p_delivered = delivered;
            a->rs->prior_delivered = delivered;
            a->rs->prior_time = s->delivered_time;
            a->rs->is_app_limited = s->flags & SEG_APP_LIMITED;
            a->rs->interval = s->tx_time - s->first_tx;
            tp->first_tx_mstamp = s->tx_time;
        }
        if (sack)
            s->delivered_time = 0;
    }
    tcp_ts_unlink(tp, idx);
}

/* A segment leaves the lost and retransmitted counts: it was delivered
 * (SACKed or cumulatively ACKed). */
static void unmark_lost_retrans(struct tcp_sock *tp, const struct tcp_seg *s)
{
    if (s->flags & SEG_LOST) {
        assert(tp->lost_out > 0);
        tp->lost_out--;
        if (!(s->flags & SEG_RETRANS))
            tp->lost_unretx--;
    }
    if (s->flags & SEG_RETRANS) {
        assert(tp->retrans_out > 0);
        tp->retrans_out--;
    }
}

static void sacktag_one(struct tcp_sock *tp, uint64_t idx, struct ack_ctx *a)
{
    struct tcp_seg *s = tcp_seg_at(tp, idx);
    if (s->flags & SEG_SACKED)
        return;
    if (!(s->flags & SEG_RETRANS) && (int64_t)idx <= a->prior_highest && (a->reord < 0 || (int64_t)idx < a->reord))
        a->reord = (int64_t)idx;
    unmark_lost_retrans(tp, s);
    seg_delivered(tp, idx, s, a, true);
    s->flags = (uint8_t)((s->flags | SEG_SACKED) & ~(SEG_LOST | SEG_RETRANS));
    tp->sacked_out++;
    SCOREBOARD_OK(tp);
    if ((int64_t)idx > tp->highest_sack)
        tp->highest_sack = (int64_t)idx;
    else if (!(s->flags & SEG_EVER_RETRANS))
        tp->reord_seen = true;   /* an original SACKed below the highest: reordering (rack.reord) */
}

/* A D-SACK (RFC 2883, tcp_check_dsack): the first block below the ACK,
 * or inside the second. Each retransmission of this reduction it reports
 * received twice takes one from undo_retrans. The block itself marks
 * nothing: what it covers was (S)ACKed when it first arrived. */
/* A SACK block's edge: its 32-bit offset from the ACK, signed (a D-SACK
 * lies below), in the model's 64-bit sequence space: mod 2^64 */
ARITH_WRAPS static inline uint64_t sack_edge(uint64_t ack, uint32_t off)
{
    return ack + (uint64_t)(int64_t)(int32_t)off;
}

static bool check_dsack(struct tcp_sock *tp, const struct tcp_hdr *th, uint64_t prior_una)
{
    uint64_t s0 = sack_edge(th->ack, th->sack[0][0]), e0 = sack_edge(th->ack, th->sack[0][1]);
    bool below = s0 < th->ack;
    bool inside = !below && th->nsack > 1 && e0 <= sack_edge(th->ack, th->sack[1][1]) &&
                  s0 >= sack_edge(th->ack, th->sack[1][0]);
    if (!below && !inside)
        return false;
    tp->st.dsacks_in++;
    tp->rack_dsack_seen = true;
    if (!tp->undo_marker || tp->undo_retrans <= 0 || e0 <= tp->undo_marker)
        return true;
    if (below) {
        if (e0 <= prior_una)
            tp->undo_retrans--;
    } else {
        for (uint64_t i = (s0 - 1) / tp->mss; i < (e0 - 1) / tp->mss && i < tp->nxt_idx; i++)
            if (i >= tp->una_idx && (tcp_seg_at(tp, i)->flags & SEG_RETRANS) && tp->undo_retrans > 0)
                tp->undo_retrans--;
    }
    return true;
}

static void sacktag(struct tcp_sock *tp, const struct tcp_hdr *th, struct ack_ctx *a, uint64_t prior_una)
{
    uint64_t blocks[3][2];
    int n = 0;
    a->dsack = check_dsack(tp, th, prior_una);
    for (int i = a->dsack ? 1 : 0; i < th->nsack && i < 3; i++) {
        uint64_t start = sack_edge(th->ack, th->sack[i][0]);
        uint64_t end = sack_edge(th->ack, th->sack[i][1]);
        if (end <= start || start < th->ack)
            continue;
        /* whole segments inside the block */
        uint64_t first = (start - 1 + tp->mss - 1) / tp->mss;
        uint64_t last = (end - 1) / tp->mss;               /* exclusive */
        if (first < tp->una_idx)
            first = tp->una_idx;
        if (last > tp->nxt_idx)
            last = tp->nxt_idx;
        if (first >= last)
            continue;
        blocks[n][0] = first;
        blocks[n][1] = last;
        n++;
    }
    for (int b = 0; b < n; b++) {
        uint64_t i = blocks[b][0];
        while (i < blocks[b][1]) {
            /* skip what an earlier ACK's block already covered */
            bool skipped = false;
            for (int k = 0; k < tp->nsack_cache; k++)
                if (i >= tp->sack_cache[k][0] && i < tp->sack_cache[k][1]) {
                    i = tp->sack_cache[k][1];
                    skipped = true;
                    break;
                }
            if (skipped)
                continue;
            sacktag_one(tp, i, a);
            i++;
        }
    }
    for (int b = 0; b < n; b++) {    /* not a memcpy: a rep movs for 48 bytes, per ACK */
        tp->sack_cache[b][0] = blocks[b][0];
        tp->sack_cache[b][1] = blocks[b][1];
    }
    tp->nsack_cache = n;
}

/* tcp_rtt_estimator + tcp_set_rto (RFC 6298 with Linux's mdev filter,
 * simplified to srtt/mdev in ps) */
static void rtt_estimator(struct tcp_sock *tp, simtime_t m)
{
    if (m <= 0)
        m = 1;
    if (tp->srtt) {
        simtime_t err = m - tp->srtt;
        tp->srtt += err / 8;
        if (err < 0)
            err = -err;
        tp->mdev += (err - tp->mdev) / 4;
    } else {
        tp->srtt = m;
        tp->mdev = m / 2;
    }
    simtime_t var = 4 * tp->mdev, rto_min = tp->th->rto_min;   /* tcp_rto_min(): the route's */
    tp->rto = tp->srtt + (var > rto_min ? var : rto_min);
    if (tp->rto > TCP_RTO_MAX)
        tp->rto = TCP_RTO_MAX;
}

void tcp_rtt_sample(struct tcp_sock *tp, simtime_t m)
{
    rtt_estimator(tp, m);
    if (m < tp->min_rtt)
        tp->min_rtt = m;
}

/* in_ack_event's flags, as tcp_ack finds them: header prediction
 * (tcp_rcv_established's fast path) takes an ACK that moves snd_una with
 * no SACK block, no ECE and the window it predicted (the last one
 * advertised, snd_wnd >> snd_wscale); every other ACK is the slow path,
 * where the window counts as updated when snd_una moves or it grows
 * (tcp_may_update_window for an ACK that carries no data). */
static uint32_t ack_event_flags(const struct tcp_sock *tp, const struct tcp_hdr *th, uint64_t prior_una,
                                uint64_t prior_wnd, bool ece)
{
    bool forward = tp->snd_una > prior_una;
    uint64_t nwin = (uint64_t)th->win << tp->snd_wscale;
    if (forward && !th->nsack && !(th->flags & (TH_ECE | TH_CWR)) && th->win == (prior_wnd >> tp->snd_wscale))
        return CA_ACK_WIN_UPDATE;
    return CA_ACK_SLOWPATH | (forward || nwin > prior_wnd ? CA_ACK_WIN_UPDATE : 0) | (ece ? CA_ACK_ECE : 0);
}

bool tcp_is_cwnd_limited(const struct tcp_sock *tp)
{
    if (tcp_in_slow_start(tp))
        return tp->snd_cwnd < 2 * tp->max_packets_out;
    return tp->is_cwnd_limited;
}

static void update_pacing_rate(struct tcp_sock *tp)
{
    if (!tp->th->pacing_fq || tp->cc->cong_control || !tp->srtt)
        return;
    tp->pacing_rate = tcp_cwnd_pacing_rate(tp);
}

/* tcp_ack_update_window, as far as the model has it: the peer's window
 * taken as it comes. The window before, for in_ack_event's flags and
 * F-RTO's duplicate ACK. */
static uint64_t tcp_ack_update_window(struct tcp_sock *tp, const struct tcp_hdr *th)
{
    uint64_t wnd_before = tp->snd_wnd;
    tp->snd_wnd = (uint64_t)th->win << tp->snd_wscale;
    if (tp->snd_wnd > tp->max_window)
        tp->max_window = tp->snd_wnd;
    return wnd_before;
}

/* tcp_clean_rtx_queue: the segments the cumulative ACK covers leave the
 * scoreboard, and the hints that pointed below snd_una follow it.
 * Whether snd_una moved by a segment, and by how many. */
static bool tcp_clean_rtx_queue(struct tcp_sock *tp, uint64_t ack, struct ack_ctx *a, uint32_t *pkts_acked)
{
    simtime_t now = a->now;
    uint64_t new_una_idx = (ack - 1) / tp->mss;
    int64_t hole = -1;
    for (uint64_t i = tp->una_idx; i < new_una_idx; i++) {
        struct tcp_seg *s = tcp_seg_at(tp, i);
        if (s->flags & SEG_SACKED) {
            tp->sacked_out--;             /* delivered when it was SACKed */
        } else {
            /* a hole below the highest SACK filled by an original: reordering */
            if (!(s->flags & SEG_RETRANS) && hole < 0 && (int64_t)i <= a->prior_highest)
                hole = (int64_t)i;
            unmark_lost_retrans(tp, s);
            seg_delivered(tp, i, s, a, false);
        }
        tcp_ts_unlink(tp, i);
        tp->packets_out--;
    }
    if (hole >= 0 && tp->highest_sack >= hole)
        tcp_update_reordering(tp, (uint64_t)(tp->highest_sack + 1 - hole));
    bool forward = new_una_idx > tp->una_idx;
    *pkts_acked = (uint32_t)(new_una_idx - tp->una_idx);
    tcp_seg_release(tp, tp->una_idx, new_una_idx);
    tp->una_idx = new_una_idx;
    tp->snd_una = ack;
    SCOREBOARD_OK(tp);
    if (tp->highest_sack >= 0 && (uint64_t)tp->highest_sack < tp->una_idx)
        tp->highest_sack = -1;
    if (tp->retx_hint < tp->una_idx)
        tp->retx_hint = tp->una_idx;
    if (tp->lost_hint < tp->una_idx)
        tp->lost_hint = tp->una_idx;
    if (!tp->app_infinite && tp->write_seq > 1 && tp->snd_una >= tp->write_seq && !tp->all_acked_at)
        tp->all_acked_at = now;
    if (tp->tlp_pending && tp->snd_una >= tp->tlp_high_seq)
        tp->tlp_pending = false;
    return forward;
}

/* tcp_ack_update_rtt: srtt from the oldest newly ACKed
 * never-retransmitted segment, else the oldest newly SACKed; the rate
 * sample and min_rtt from the newest */
static void tcp_ack_update_rtt(struct tcp_sock *tp, const struct ack_ctx *a, struct tcp_rate_sample *rs)
{
    simtime_t now = a->now;
    simtime_t seq_rtt = a->first_ackt ? now - a->first_ackt : -1;
    simtime_t ca_rtt = a->first_ackt ? now - a->last_ackt : -1;
    if (a->first_sackt) {
        if (seq_rtt < 0)
            seq_rtt = now - a->first_sackt;
        ca_rtt = now - a->last_sackt;
    }
    if (ca_rtt >= 0)
        rs->rtt_us = ca_rtt / PS_PER_US;
    if (seq_rtt >= 0) {
        if (ca_rtt < tp->min_rtt)
            tp->min_rtt = ca_rtt > 0 ? ca_rtt : 1;
        rtt_estimator(tp, seq_rtt);
        tp->rto_backoff = 0;
    }
}

/* tcp_fastretrans_alert: first what this ACK says of the reduction
 * under way (its end, or that it was spurious: tcp_recovery.c), then
 * its losses are marked, and a loss re-enters Recovery within the same
 * ACK (the CC sees the state after both) */
static void tcp_fastretrans_alert(struct tcp_sock *tp, const struct tcp_hdr *th, struct ack_ctx *a,
                                  uint64_t prior_snd_una, uint64_t wnd_before, bool ece)
{
    simtime_t now = a->now;
    uint32_t tsecr = tp->ts_ok ? th->tsecr : 0;
    bool una_moved = tp->snd_una > prior_snd_una, delayed = false;
    if (tp->ca_state == TCP_CA_Open || (tp->ca_state == TCP_CA_Disorder && !tcp_any_retrans_done(tp)))
        tp->retrans_stamp = 0;
    if (tp->ca_state == TCP_CA_Loss) {
        bool dup = !una_moved && ((uint64_t)th->win << tp->snd_wscale) == wnd_before;
        tcp_process_loss(tp, tsecr, una_moved, a->orig_acked, a->newly_sacked || dup, tcp_can_send_new(tp));
    } else if (tp->ca_state == TCP_CA_Recovery) {
        if (tp->snd_una >= tp->high_seq)
            tcp_recovery_done(tp, tsecr);
        else if (una_moved)
            delayed = tcp_try_undo_partial(tp, tsecr);
    } else if (tp->ca_state == TCP_CA_CWR && tp->snd_una > tp->high_seq) {
        /* held until data above high_seq is ACKed: the CWR reached the receiver */
        tcp_end_cwnd_reduction(tp);
        tcp_set_ca_state(tp, TCP_CA_Open);
    }
    if (a->dsack && !delayed && tp->ca_state <= TCP_CA_Recovery)
        tcp_try_undo_dsack(tp);
    if (tp->th->rack && !delayed)
        tcp_rack_detect_loss(tp, now, a);
    if (tp->sack_ok && tp->ca_state != TCP_CA_Loss && !delayed)
        tcp_mark_head_lost(tp, a);
    if (tp->ca_state < TCP_CA_Recovery) {
        if (tp->lost_out > 0) {
            tcp_enter_recovery(tp, ece);
        } else {
            if (ece)                                  /* tcp_try_to_open */
                tcp_enter_cwr(tp);
            bool cwr = tp->ca_state == TCP_CA_CWR;    /* left only past high_seq, above */
            if (!cwr && tp->sacked_out)
                tcp_set_ca_state(tp, TCP_CA_Disorder);
            else if (tp->ca_state == TCP_CA_Disorder)
                tcp_set_ca_state(tp, TCP_CA_Open);
        }
    }
}

/* tcp_rate_gen: the delivery-rate sample of this ACK */
static void tcp_rate_gen(struct tcp_sock *tp, const struct ack_ctx *a, struct tcp_rate_sample *rs)
{
    simtime_t now = a->now;
    if (tp->app_limited && tp->delivered > tp->app_limited)
        tp->app_limited = 0;
    if (a->acked_sacked)
        tp->delivered_mstamp = now;
    rs->acked_sacked = a->acked_sacked;
    rs->losses = a->losses;
    if (!a->have_p) {
        rs->delivered = -1;
        rs->interval = -1;
    } else {
        rs->delivered = (int64_t)(tp->delivered - rs->prior_delivered);
        simtime_t ack_phase = now - rs->prior_time;
        if (ack_phase > rs->interval)
            rs->interval = ack_phase;
        if (rs->interval < tp->min_rtt)
            rs->interval = -1;
    }
    /* what tcp_rate_gen keeps for tcp_info: an app-limited sample only
     * when it is not slower than the one kept */
    if (rs->interval > 0 && rs->delivered > 0) {
        uint64_t iv_us = (uint64_t)(rs->interval / PS_PER_US), d = (uint64_t)rs->delivered;
        if (!rs->is_app_limited || d * tp->rate_interval_us >= tp->rate_delivered * iv_us) {
            tp->rate_delivered = d;
            tp->rate_interval_us = iv_us;
            tp->rate_app_limited = rs->is_app_limited;
        }
    }
}

static void tcp_cong_control(struct tcp_sock *tp, const struct ack_ctx *a, struct tcp_rate_sample *rs)
{
    if (tp->cc->cong_control) {
        tp->cc->cong_control(tp, rs);
    } else if (tp->ca_state == TCP_CA_Recovery || tp->ca_state == TCP_CA_CWR) {
        tcp_cwnd_reduction(tp, a->acked_sacked, a->retrans_acked, a->lost_retrans);
    } else if (a->acked_sacked && tcp_is_cwnd_limited(tp)) {
        tp->cc->cong_avoid(tp, a->acked_sacked);
    }
    if (tp->snd_cwnd > tp->snd_cwnd_clamp)
        tp->snd_cwnd = tp->snd_cwnd_clamp;
    update_pacing_rate(tp);
}

void tcp_ack(struct tcp_sock *tp, const struct tcp_hdr *th, struct core *c)
{
    simtime_t now = core_now(c);
    uint64_t ack = th->ack;
    if (ack > tp->snd_nxt || ack < tp->snd_una)
        return;
    uint64_t wnd_before = tcp_ack_update_window(tp, th);
    if (tp->ts_ok)
        tp->ts_recent = th->tsval;
    if (tp->state != TCP_ESTABLISHED)
        return;
    /* 4.15 reaches the work below only with data in flight: a receiver's
     * data segments take header prediction past tcp_ack, and with nothing
     * out tcp_ack leaves at no_queue. One call, and each segment the ACK
     * frees from the retransmit queue */
    bool charged = tp->packets_out > 0;
    if (charged)
        tcp_charge_n(tp->h, c, tcp_sym.ack, tcp_sym.ack_seg, (ack - 1) / tp->mss - tp->una_idx);

    struct tcp_rate_sample rs = { .rtt_us = -1, .interval = -1, .prior_in_flight = tcp_in_flight(tp) };
    struct ack_ctx a = { .now = now, .rs = &rs, .reord = -1, .prior_highest = tp->highest_sack };
    uint32_t prior_lost = tp->lost_out;
    uint64_t prior_snd_una = tp->snd_una;

    if (th->nsack && tp->th->sack) {
        uint32_t sacked = tp->sacked_out;
        sacktag(tp, th, &a, tp->snd_una);
        if (charged)
            tcp_charge_n(tp->h, c, tcp_sym.sacktag, tcp_sym.sacktag_seg, tp->sacked_out - sacked);
    }
    /* an original SACKed below the previous highest arrived late */
    if (a.reord >= 0 && (tp->ca_state != TCP_CA_Loss || tp->undo_marker))
        tcp_update_reordering(tp, (uint64_t)(tp->highest_sack + 1 - a.reord));

    uint32_t pkts_acked;
    bool forward = tcp_clean_rtx_queue(tp, ack, &a, &pkts_acked);
    /* FLAG_ECE (tcp_ecn_rcv_ecn_echo) */
    bool ece = (th->flags & TH_ECE) && (tp->ecn_flags & TCP_ECN_OK);
    tp->st.ecn_ece_in += ece;
    if (tp->cc->in_ack_event)
        tp->cc->in_ack_event(tp, ack_event_flags(tp, th, prior_snd_una, wnd_before, ece));
    tcp_ack_update_rtt(tp, &a, &rs);
    if (tp->cc->pkts_acked) {
        struct tcp_ack_sample sample = { pkts_acked, (int32_t)rs.rtt_us, a.last_in_flight };
        tp->cc->pkts_acked(tp, &sample);
    }
    if (tp->rack_dsack_seen || tp->rack_reo_steps != 1)     /* else it would leave one step as it is */
        tcp_rack_update_reo_wnd(tp, &rs);

    tcp_fastretrans_alert(tp, th, &a, prior_snd_una, wnd_before, ece);
    tcp_rate_gen(tp, &a, &rs);
    tcp_cong_control(tp, &a, &rs);

    if (forward) {
        tp->is_cwnd_limited = false;
        tp->max_packets_out = 0;
        tcp_rearm_rto(tp, now);
    } else if (tp->lost_out > prior_lost) {
        tcp_rearm_rto(tp, now);
    }
    tcp_write_xmit(tp, c);
    if (forward && (tp->ca_state <= TCP_CA_Disorder || tp->th->rack_tlp))
        tcp_schedule_loss_probe(tp, now);
}

int tcp_check_scoreboard(const struct tcp_sock *tp)
{
    uint32_t sacked = 0, lost = 0, retrans = 0, unretx = 0;
    for (uint64_t i = tp->una_idx; i < tp->nxt_idx; i++) {
        uint8_t f = tcp_seg_at(tp, i)->flags;
        sacked += !!(f & SEG_SACKED);
        lost += !!(f & SEG_LOST);
        retrans += !!(f & SEG_RETRANS);
        unretx += (f & (SEG_LOST | SEG_RETRANS | SEG_SACKED)) == SEG_LOST;
    }
    if (tp->packets_out != tp->nxt_idx - tp->una_idx)
        return 1;
    if (sacked != tp->sacked_out)
        return 2;
    if (lost != tp->lost_out)
        return 3;
    if (retrans != tp->retrans_out)
        return 4;
    if (unretx != tp->lost_unretx)
        return 5;
    uint64_t n = 0;
    for (int64_t i = tp->ts_head; i >= 0; i = seg_next(tcp_seg_at(tp, (uint64_t)i), (uint64_t)i))
        if (++n > tp->packets_out)
            return 6;
    return 0;
}
