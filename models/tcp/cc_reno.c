/*
 * cc_reno.c - NewReno (Linux 4.15 tcp_cong.c tcp_reno_*): slow start to
 * ssthresh, then one segment per window of ACKed segments; halve on loss.
 */
#include "models/tcp/tcp.h"

static void reno_cong_avoid(struct tcp_sock *tp, uint32_t acked)
{
    if (tcp_in_slow_start(tp)) {
        acked = tcp_slow_start(tp, acked);
        if (!acked)
            return;
    }
    tcp_cong_avoid_ai(tp, tp->snd_cwnd, acked);
}

static uint32_t reno_ssthresh(struct tcp_sock *tp)
{
    uint32_t h = tp->snd_cwnd >> 1;
    return h > 2 ? h : 2;
}

static uint32_t reno_undo(struct tcp_sock *tp)
{
    return tp->snd_cwnd > tp->prior_cwnd ? tp->snd_cwnd : tp->prior_cwnd;
}

const struct tcp_cc_ops tcp_reno = {
    .name = "reno",
    .doc = "NewReno (tcp_cong.c): AIMD, ssthresh = cwnd/2",
    .ssthresh = reno_ssthresh,
    .cong_avoid = reno_cong_avoid,
    .undo_cwnd = reno_undo,
};
VARIANT("tcp.cc", tcp_reno);
