/*
 * tcp_recovery.c - the sender's congestion states (Linux 4.15
 * tcp_input.c: tcp_enter_recovery, tcp_cwnd_reduction with PRR,
 * tcp_end_cwnd_reduction, tcp_enter_loss): where a reduction starts, how
 * cwnd is walked down to ssthresh, and how it ends. tcp_ack.c decides
 * when, from what the ACK says.
 */
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/sim.h"

void tcp_set_ca_state(struct tcp_sock *tp, int st)
{
    if (tp->cc->set_state)
        tp->cc->set_state(tp, st);
    tp->ca_state = st;
}

void tcp_enter_recovery(struct tcp_sock *tp)
{
    tp->st.recoveries++;
    tp->prior_ssthresh = 0;
    tp->high_seq = tp->snd_nxt;
    tp->prior_cwnd = tp->snd_cwnd;
    tp->prr_delivered = 0;
    tp->prr_out = 0;
    tp->snd_ssthresh = tp->cc->ssthresh(tp);
    tcp_set_ca_state(tp, TCP_CA_Recovery);
}

/* tcp_end_cwnd_reduction: Recovery over, cwnd down to ssthresh, and the
 * cc told; a cc that sets cwnd itself (cong_control) is not. */
void tcp_end_cwnd_reduction(struct tcp_sock *tp)
{
    if (tp->cc->cong_control)
        return;
    if (tp->snd_ssthresh < TCP_INFINITE_SSTHRESH)
        tp->snd_cwnd = tp->snd_ssthresh;
    if (tp->cc->cwnd_event)
        tp->cc->cwnd_event(tp, CA_EVENT_COMPLETE_CWR);
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
        tp->prior_ssthresh = 0;
        tp->snd_ssthresh = tp->cc->ssthresh(tp);
        if (tp->cc->cwnd_event)
            tp->cc->cwnd_event(tp, CA_EVENT_LOSS);
    }
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
    tp->rto_backoff++;
    tp->tlp_pending = false;
    tcp_rearm_rto(tp, now);
}
