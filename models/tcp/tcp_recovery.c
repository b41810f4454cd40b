/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_recovery.c - the sender's congestion states (Linux 4.15
 * tcp_input.c: tcp_enter_recovery, tcp_enter_cwr, tcp_cwnd_reduction
 * with PRR, tcp_end_cwnd_reduction, tcp_enter_loss, and the undo of tcp_may_undo,
 * tcp_try_undo_recovery, _partial, _dsack, _loss with F-RTO): where a
 * reduction starts, how cwnd is walked down to ssthresh, how it ends,
 * and how it is taken back when it proves spurious. tcp_ack.c decides
 * when, from what the ACK says.
 *
 * A reduction is spurious when nothing it retransmitted was needed: the
 * ACK echoes a timestamp older than the first retransmission (the
 * original arrived: Eifel, tcp_packet_delayed), or every retransmission
 * came back D-SACKed (undo_retrans down to 0), or, after a timeout, data
 * never retransmitted is ACKed (F-RTO, RFC 5682). Then cwnd goes back
 * to the cc's undo_cwnd and ssthresh to what it was before.
 */
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/sim.h"

/* tcp_init_undo: where the reduction began; -1: nothing retransmitted yet */
static void init_undo(struct tcp_sock *tp)
{
    tp->undo_marker = tp->snd_una;
    tp->undo_retrans = tp->retrans_out ? (int32_t)tp->retrans_out : -1;
}

/* tcp_init_cwnd_reduction, as far as the model's Recovery has it: where
 * a reduction starts, its PRR counts, ssthresh from the cc, and a CWR
 * for the next new segment (tcp_ecn_queue_cwr) */
static void init_cwnd_reduction(struct tcp_sock *tp)
{
    tp->high_seq = tp->snd_nxt;
    tp->prior_cwnd = tp->snd_cwnd;
    tp->prr_delivered = 0;
    tp->prr_out = 0;
    tp->snd_ssthresh = tp->cc->ssthresh(tp);
    if (tp->ecn_flags & TCP_ECN_OK)
        tp->ecn_flags |= TCP_ECN_QUEUE_CWR;
}

/* From CWR the reduction under way goes on (high_seq, ssthresh and PRR
 * stay CWR's); an ACK with ECE keeps no ssthresh to undo to. */
void tcp_enter_recovery(struct tcp_sock *tp, bool ece)
{
    tp->st.recoveries++;
    init_undo(tp);
    tp->prior_ssthresh = 0;
    if (tp->ca_state != TCP_CA_CWR) {
        if (!ece)
            tp->prior_ssthresh = tcp_current_ssthresh(tp);   /* still Open or Disorder: at least 3/4 cwnd */
        init_cwnd_reduction(tp);
    }
    tcp_set_ca_state(tp, TCP_CA_Recovery);
}

/* tcp_enter_cwr: an ACK echoed congestion. Once per window: not again
 * until the state is left, when snd_una passes the high_seq set here.
 * Nothing to undo (an ECN mark is no spurious loss). */
void tcp_enter_cwr(struct tcp_sock *tp)
{
    tp->prior_ssthresh = 0;
    if (tp->ca_state >= TCP_CA_CWR)
        return;
    tp->st.ecn_cwr_entered++;
    tp->undo_marker = 0;
    init_cwnd_reduction(tp);
    /* what tcp_init_cwnd_reduction does besides, which the model's
     * Recovery does not do yet (doing it would move the fingerprints of
     * every lossy scenario: a change of its own) */
    tp->snd_cwnd_cnt = 0;
    tp->tlp_pending = false;
    tcp_set_ca_state(tp, TCP_CA_CWR);
}

/* tcp_end_cwnd_reduction: CWR or Recovery over, cwnd down to ssthresh
 * (unless Recovery was undone), and the cc told; a cc that sets cwnd
 * itself (cong_control) is not. */
void tcp_end_cwnd_reduction(struct tcp_sock *tp)
{
    if (tp->cc->cong_control)
        return;
    if (tp->ca_state == TCP_CA_CWR || (tp->snd_ssthresh < TCP_INFINITE_SSTHRESH && tp->undo_marker))
        tp->snd_cwnd = tp->snd_ssthresh;
    tcp_ca_event(tp, CA_EVENT_COMPLETE_CWR);
}

/* PRR (tcp_cwnd_reduction, RFC 6937) */
void tcp_cwnd_reduction(struct tcp_sock *tp, uint32_t acked_sacked, bool retrans_acked, bool lost_retrans)
{
    if (!acked_sacked || !tp->prior_cwnd)
        return;
    int64_t in_flight = tcp_in_flight(tp);
    int64_t delta = (int64_t)tp->snd_ssthresh - in_flight;
    int64_t sndcnt;
    tp->prr_delivered += acked_sacked;
    if (delta < 0) {
        uint64_t dividend = (uint64_t)tp->snd_ssthresh * tp->prr_delivered + tp->prior_cwnd - 1;
        sndcnt = (int64_t)(dividend / tp->prior_cwnd) - tp->prr_out;
    } else if (retrans_acked && !lost_retrans) {
        int64_t x = (int64_t)tp->prr_delivered - tp->prr_out;
        if (x < acked_sacked)
            x = acked_sacked;
        sndcnt = delta < x + 1 ? delta : x + 1;
    } else {
        sndcnt = delta < acked_sacked ? delta : acked_sacked;
    }
    if (sndcnt < (tp->prr_out ? 0 : 1))
        sndcnt = tp->prr_out ? 0 : 1;
    tp->snd_cwnd = (uint32_t)(in_flight + sndcnt);
}

/* ---- the RTO (tcp_retransmit_timer -> tcp_enter_loss) ---- */
void tcp_enter_loss(struct tcp_sock *tp, simtime_t now)
{
    tp->st.rtos++;
    if (tp->ca_state <= TCP_CA_Disorder || tp->snd_una == tp->high_seq ||
        (tp->ca_state == TCP_CA_Loss && !tp->rto_backoff)) {
        tp->prior_ssthresh = tcp_current_ssthresh(tp);
        tp->prior_cwnd = tp->snd_cwnd;
        tp->snd_ssthresh = tp->cc->ssthresh(tp);
        tcp_ca_event(tp, CA_EVENT_LOSS);
        init_undo(tp);
    }
    /* F-RTO (net.ipv4.tcp_frto 2) for a new recovery or a repeated timeout */
    tp->frto = tp->ca_state < TCP_CA_Recovery || tp->rto_backoff > 0;
    tp->rexmit_new = false;
    tp->snd_cwnd = 1;
    tp->snd_cwnd_cnt = 0;
    tp->retrans_out = 0;
    tp->lost_out = 0;
    tp->lost_unretx = 0;
    for (uint64_t i = tp->una_idx; i < tp->nxt_idx; i++) {
        struct tcp_seg *s = tcp_seg_at(tp, i);
        tcp_ts_unlink(tp, i);
        s->flags &= (uint8_t)~(SEG_RETRANS | SEG_LOST);
        if (!(s->flags & SEG_SACKED)) {
            s->flags |= SEG_LOST;
            tp->lost_out++;
            tp->lost_unretx++;
        }
    }
    SCOREBOARD_OK(tp);
    tp->retx_hint = tp->una_idx;
    tp->high_seq = tp->snd_nxt;
    tcp_set_ca_state(tp, TCP_CA_Loss);
    if (tp->ecn_flags & TCP_ECN_OK)
        tp->ecn_flags |= TCP_ECN_QUEUE_CWR;         /* tcp_ecn_queue_cwr */
    tp->rto_backoff++;
    tp->tlp_pending = false;
    tcp_rearm_rto(tp, now);
}

/* ---- undo ---- */

/* tcp_any_retrans_done: a retransmission out, or the head ever retransmitted */
bool tcp_any_retrans_done(const struct tcp_sock *tp)
{
    return tp->retrans_out || (tp->packets_out && (tcp_seg_at(tp, tp->una_idx)->flags & SEG_EVER_RETRANS));
}

/* tcp_packet_delayed: nothing retransmitted, or this ACK echoes a TSval
 * from before the first retransmission */
static bool packet_delayed(const struct tcp_sock *tp, uint32_t tsecr)
{
    /* before(), on the 32-bit timestamp clock: an intended wrap */
    return !tp->retrans_stamp || (tp->ts_ok && tsecr && (int32_t)wrap_sub_u32(tsecr, tp->retrans_stamp) < 0);
}

static bool may_undo(const struct tcp_sock *tp, uint32_t tsecr)
{
    return tp->undo_marker && (!tp->undo_retrans || packet_delayed(tp, tsecr));
}

/* tcp_undo_cwnd_reduction: cwnd from the cc, ssthresh back up; with
 * unmark_loss every segment marked lost is outstanding again (off the
 * time-sorted list, as the kernel leaves it, until ACKed) */
static void undo_cwnd_reduction(struct tcp_sock *tp, bool unmark_loss)
{
    if (unmark_loss) {
        for (uint64_t i = tp->una_idx; i < tp->nxt_idx; i++)
            tcp_seg_at(tp, i)->flags &= (uint8_t)~SEG_LOST;
        tp->lost_out = 0;
        tp->lost_unretx = 0;
        tp->retx_hint = tp->nxt_idx;
        SCOREBOARD_OK(tp);
    }
    if (tp->prior_ssthresh) {
        tp->snd_cwnd = tp->cc->undo_cwnd(tp);
        if (tp->prior_ssthresh > tp->snd_ssthresh)
            tp->snd_ssthresh = tp->prior_ssthresh;
    }
    tp->undo_marker = 0;
    tp->st.undos++;
}

/* tcp_try_keep_open: Disorder while anything is SACKed, lost or
 * retransmitted, else Open */
static void try_keep_open(struct tcp_sock *tp)
{
    int st = tp->sacked_out || tp->lost_out || tcp_any_retrans_done(tp) ? TCP_CA_Disorder : TCP_CA_Open;
    if (tp->ca_state != st) {
        tcp_set_ca_state(tp, st);
        tp->high_seq = tp->snd_nxt;
    }
}

/* Recovery or Loss ends (snd_una reached high_seq): undo when spurious;
 * then Open, and after Recovery cwnd = ssthresh and COMPLETE_CWR */
void tcp_recovery_done(struct tcp_sock *tp, uint32_t tsecr)
{
    bool recovery = tp->ca_state == TCP_CA_Recovery;
    if (may_undo(tp, tsecr))
        undo_cwnd_reduction(tp, false);
    else if (tp->rack_reo_persist)
        tp->rack_reo_persist--;
    tcp_set_ca_state(tp, TCP_CA_Open);
    if (recovery)
        tcp_end_cwnd_reduction(tp);
}

/* In Recovery, snd_una moved but not to high_seq (tcp_try_undo_partial):
 * the hole was filled by the original, so reordering, not loss; with a
 * retransmission still out the undo waits. True when the packet was
 * delayed: this ACK then marks nothing lost. */
bool tcp_try_undo_partial(struct tcp_sock *tp, uint32_t tsecr)
{
    if (!tp->undo_marker || !packet_delayed(tp, tsecr))
        return false;
    if (tp->retrans_out)
        return true;          /* no more marked lost, none more retransmitted, until it is back */
    if (!tcp_any_retrans_done(tp))
        tp->retrans_stamp = 0;
    undo_cwnd_reduction(tp, true);
    try_keep_open(tp);
    return true;
}

/* Every retransmission D-SACKed (tcp_try_undo_dsack), in Open, Disorder
 * or Recovery: the reduction, finished or not, is taken back */
void tcp_try_undo_dsack(struct tcp_sock *tp)
{
    if (!tp->undo_marker || tp->undo_retrans)
        return;
    bool recovery = tp->ca_state == TCP_CA_Recovery;
    undo_cwnd_reduction(tp, false);
    if (tp->rack_reo_persist < TCP_RACK_RECOVERY_THRESH)
        tp->rack_reo_persist++;
    if (recovery)
        try_keep_open(tp);
}

/* In Loss (tcp_process_loss): undo on an ACK that moves snd_una when the
 * timeout was spurious; F-RTO's steps on the others. una_moved: snd_una
 * advanced; orig_acked: data never retransmitted since the timeout was
 * (S)ACKed; sacked_or_dup: it SACKed data or was a duplicate. */
void tcp_process_loss(struct tcp_sock *tp, uint32_t tsecr, bool una_moved, bool orig_acked, bool sacked_or_dup,
                      bool can_send_new)
{
    bool recovered = tp->snd_una >= tp->high_seq;
    if ((una_moved && may_undo(tp, tsecr)) || (tp->frto && orig_acked)) {
        if (tp->frto && orig_acked && !may_undo(tp, tsecr))
            tp->st.spurious_rtos++;
        undo_cwnd_reduction(tp, true);              /* tcp_try_undo_loss */
        tp->rto_backoff = 0;
        tcp_set_ca_state(tp, TCP_CA_Open);
        return;
    }
    if (tp->frto) {
        if (tp->snd_nxt > tp->high_seq) {
            if (sacked_or_dup)
                tp->frto = false;                   /* step 3a: the loss was real */
        } else if (una_moved && !recovered) {
            /* step 2b: send new data before retransmitting more; an ACK
             * of original data then proves the timeout spurious */
            tp->high_seq = tp->snd_nxt;
            if (can_send_new) {
                tp->rexmit_new = true;
                return;
            }
            tp->frto = false;
        }
    }
    if (recovered)
        tcp_recovery_done(tp, tsecr);
}
