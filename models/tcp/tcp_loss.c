/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_loss.c - which outstanding segments are lost (Linux 4.15
 * tcp_recovery.c's RACK, tcp_input.c's tcp_mark_head_lost and
 * tcp_update_reordering): RACK by time, FACK by position, and how both
 * learn the path's reordering so that a reordered segment stops looking
 * lost. tcp_ack.c calls them for each ACK, the RACK timer on its own.
 */
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/sim.h"

/* ---- loss marking ---- */

void tcp_mark_lost(struct tcp_sock *tp, uint64_t idx, struct ack_ctx *a)
{
    struct tcp_seg *s = tcp_seg_at(tp, idx);
    if (s->flags & (SEG_SACKED | SEG_LOST))
        return;
    s->flags |= SEG_LOST;
    tp->lost_out++;
    if (a)
        a->losses++;
    if (!(s->flags & SEG_RETRANS))
        tp->lost_unretx++;
    if (idx < tp->retx_hint)
        tp->retx_hint = idx;
    tcp_ts_unlink(tp, idx);
    SCOREBOARD_OK(tp);
}

/* 6.1's reordering window (tcp_rack_reo_wnd, since 4.18): until
 * the path has reordered, none in Recovery or Loss, nor once `reordering`
 * segments are SACKed (RACK takes over the duplicate-ACK threshold that
 * no longer marks anything itself); else min_rtt/4 per step, at most
 * srtt, and no 1 ms floor */
static simtime_t rack_reo_wnd_61(const struct tcp_sock *tp)
{
    if (!tp->reord_seen && (tp->ca_state >= TCP_CA_Recovery || tp->sacked_out >= (uint32_t)tp->reordering))
        return 0;
    if (tp->min_rtt == SIMTIME_NEVER)
        return tp->srtt;                  /* the kernel's ~0U min_rtt: srtt bounds it */
    simtime_t reo = tp->min_rtt / 4 * tp->rack_reo_steps;
    return tp->srtt && reo > tp->srtt ? tp->srtt : reo;
}

/* RACK (tcp_rack_detect_loss): an outstanding segment sent before the
 * newest delivered one is lost once rack_rtt + reo_wnd has passed since
 * it was sent; a lost retransmission is marked lost again. */
void tcp_rack_detect_loss(struct tcp_sock *tp, simtime_t now, struct ack_ctx *a)
{
    if (!tp->rack_mstamp)
        return;
    simtime_t reo = tp->th->rack_tlp ? rack_reo_wnd_61(tp) : PS_PER_MS;
    if (!tp->th->rack_tlp && (tp->reord_seen || !tp->lost_out) && tp->min_rtt != SIMTIME_NEVER) {
        simtime_t q = tp->min_rtt / 4 * tp->rack_reo_steps;
        if (q > reo)
            reo = q;
        if (tp->srtt && reo > tp->srtt)
            reo = tp->srtt;
    }
    while (tp->ts_head >= 0) {
        uint64_t idx = (uint64_t)tp->ts_head;
        struct tcp_seg *s = tcp_seg_at(tp, idx);
        bool before = s->tx_time < tp->rack_mstamp ||
                      (s->tx_time == tp->rack_mstamp && 1 + (idx + 1) * tp->mss < tp->rack_end_seq);
        if (!before)
            break;
        simtime_t remaining = s->tx_time + tp->rack_rtt + reo - now;
        if (remaining > 0) {
            if (!event_pending(&tp->ev_reo) || tp->ev_reo.time > now + remaining)
                evq_move(tp->h->q, &tp->ev_reo, now + remaining);
            break;
        }
        if ((s->flags & (SEG_RETRANS | SEG_LOST)) == SEG_RETRANS) {
            /* a retransmission of a segment never marked lost (a loss
             * probe's): it is marked now, and lost_out counts it (4.15's
             * tcp_skb_mark_lost_uncond_verify, 6.1's tcp_mark_skb_lost);
             * 4.15 then treats it as any lost retransmission, below,
             * where 6.1 leaves it retransmitted, for the RTO to resend */
            s->flags |= SEG_LOST;
            tp->lost_out++;
            if (tp->th->rack_tlp) {
                if (a)
                    a->losses++;
                if (idx < tp->retx_hint)
                    tp->retx_hint = idx;
                tcp_ts_unlink(tp, idx);
                SCOREBOARD_OK(tp);
                continue;
            }
        }
        if (s->flags & SEG_RETRANS) {
            /* a lost retransmission: LOST stays set, it goes out again */
            s->flags &= (uint8_t)~SEG_RETRANS;
            INVARIANT(tp->retrans_out > 0);
            tp->retrans_out--;
            tp->lost_unretx++;
            tp->st.lost_retrans++;
            if (a) {
                a->lost_retrans = true;
                a->losses++;
            }
            if (idx < tp->retx_hint)
                tp->retx_hint = idx;
            tcp_ts_unlink(tp, idx);
        } else {
            tcp_mark_lost(tp, idx, a);
        }
    }
}

/* FACK (tcp_mark_head_lost): everything more than `reordering` segments
 * below the highest SACKed one is lost. */
static void fack_mark_lost(struct tcp_sock *tp, struct ack_ctx *a)
{
    if (tp->highest_sack < 0)
        return;
    int64_t limit = tp->highest_sack + 1 - (int64_t)tp->reordering;   /* exclusive */
    uint64_t i = tp->lost_hint > tp->una_idx ? tp->lost_hint : tp->una_idx;
    for (; (int64_t)i < limit; i++)
        tcp_mark_lost(tp, i, a);
    if ((int64_t)i > (int64_t)tp->lost_hint)
        tp->lost_hint = i;
}

/* RACK reordering timer (tcp_rack_reo_timeout) */
void tcp_rack_timeout(struct tcp_sock *tp, simtime_t now)
{
    uint32_t before = tp->lost_out;
    tcp_rack_detect_loss(tp, now, NULL);
    if (tp->lost_out > before && tp->ca_state < TCP_CA_Recovery) {
        tcp_enter_recovery(tp, false);
        if (!tp->cc->cong_control) {
            /* PRR starts from here: allow the first retransmission */
            uint32_t inf = tcp_in_flight(tp);
            tp->snd_cwnd = inf + 1;
        }
    }
    if (tp->lost_out > before)
        tcp_rearm_rto(tp, now);
}

/* tcp_mark_head_lost as tcp_update_scoreboard uses it: FACK (everything
 * more than `reordering` segments below the highest SACKed one) until
 * the path reorders more than that; then the SACK rule, a segment is lost
 * once `reordering` SACKed segments lie above it */
void tcp_mark_head_lost(struct tcp_sock *tp, struct ack_ctx *a)
{
    /* 4.18 on (b38a51fec1c1, with FACK gone): with RACK on, RACK alone
     * marks losses; tcp_recovery 0 is RFC 6675's rule, without FACK */
    if (tp->th->rack_tlp && tp->th->rack)
        return;
    if (tp->th->fack && !tp->th->rack_tlp && !tp->fack_disabled) {
        fack_mark_lost(tp, a);
        return;
    }
    if (tp->sacked_out < tp->reordering)
        return;
    uint32_t upto = tp->sacked_out - tp->reordering, cnt = 0;
    for (uint64_t i = tp->una_idx; i < tp->nxt_idx; i++) {
        if (tcp_seg_at(tp, i)->flags & SEG_SACKED) {
            if (++cnt > upto)
                break;
        } else {
            tcp_mark_lost(tp, i, a);
        }
    }
}

/* tcp_update_reordering: an original segment arrived `metric` segments
 * late; above tcp_reordering that becomes the degree (at most
 * tcp_max_reordering, 300) and FACK is off for the connection */
void tcp_update_reordering(struct tcp_sock *tp, uint64_t metric)
{
    if (metric > tp->reordering) {
        tp->reordering = (uint32_t)(metric < TCP_MAX_REORDERING ? metric : TCP_MAX_REORDERING);
        tp->fack_disabled = true;
    }
    tp->reord_seen = true;
}

/* tcp_rack_update_reo_wnd: a D-SACK (a retransmission that was not
 * needed) widens RACK's window by a step, at most once a round trip; 16
 * recoveries without one bring it back to one step */
void tcp_rack_update_reo_wnd(struct tcp_sock *tp, const struct tcp_rate_sample *rs)
{
    if (!rs->prior_delivered)
        return;
    if (rs->prior_delivered < tp->rack_last_delivered)
        tp->rack_dsack_seen = false;          /* within a round trip of the last step */
    if (tp->rack_dsack_seen) {
        if (tp->rack_reo_steps < 0xff)
            tp->rack_reo_steps++;
        tp->rack_dsack_seen = false;
        tp->rack_last_delivered = tp->delivered;
        tp->rack_reo_persist = TCP_RACK_RECOVERY_THRESH;
    } else if (!tp->rack_reo_persist) {
        tp->rack_reo_steps = 1;
    }
}
