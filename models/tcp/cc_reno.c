/*
 * cc_reno.c - NewReno (Linux 4.15 tcp_cong.c tcp_reno_*): slow start to
 * ssthresh, then one segment per window of ACKed segments; halve on loss.
 * Its three functions are exported as the kernel exports them, for the
 * variants that fall back on Reno (Vegas).
 */
#include "models/tcp/tcp.h"

void tcp_reno_cong_avoid(struct tcp_sock *tp, uint32_t acked)
{
    if (tcp_in_slow_start(tp)) {
        acked = tcp_slow_start(tp, acked);
        if (!acked)
            return;
    }
    tcp_cong_avoid_ai(tp, tp->snd_cwnd, acked);
}

uint32_t tcp_reno_ssthresh(struct tcp_sock *tp)
{
    uint32_t h = tp->snd_cwnd >> 1;
    return h > 2 ? h : 2;
}

uint32_t tcp_reno_undo_cwnd(struct tcp_sock *tp)
{
    return tp->snd_cwnd > tp->prior_cwnd ? tp->snd_cwnd : tp->prior_cwnd;
}

const struct tcp_cc_ops tcp_reno = {
    .name = "reno",
    .doc = "NewReno (tcp_cong.c): AIMD, ssthresh = cwnd/2",
    .ssthresh = tcp_reno_ssthresh,
    .cong_avoid = tcp_reno_cong_avoid,
    .undo_cwnd = tcp_reno_undo_cwnd,
};
VARIANT("tcp.cc", tcp_reno);
