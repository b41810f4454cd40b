/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cc_vegas.c - TCP Vegas (Linux 4.15 net/ipv4/tcp_vegas.c; Brakmo and
 * Peterson 1995). Once per RTT it compares the window with what the
 * smallest RTT of that round says the path holds: diff = cwnd x (rtt -
 * baseRTT) / baseRTT packets queued. Below alpha it grows by one, above
 * beta it shrinks by one, between them it holds: the bottleneck queue
 * stays between alpha and beta of its packets. In slow start a diff
 * above gamma leaves it, at the window the actual rate supports. RTTs in
 * us, + 1 so that none is 0; baseRTT the smallest ever seen (reset when
 * sending restarts); too few samples in a round (2 or fewer: delayed
 * ACKs) and it behaves as Reno. Loss is Reno's: ssthresh = cwnd / 2.
 *
 * Its keys are the module's parameters: tcp.cc.vegas.alpha (2),
 * .beta (4), .gamma (1).
 */
#include <stdio.h>
#include "models/tcp/tcp.h"
#include "sim/sim.h"

enum { K_ALPHA, K_BETA, K_GAMMA };
static const struct variant_key vegas_keys[] = {
    [K_ALPHA] = { "alpha", "2", 0, INT32_MAX,
                  "lower bound of packets queued in the network (tcp_vegas.alpha; Linux 4.15 default 2)" },
    [K_BETA] = { "beta", "4", 0, INT32_MAX,
                 "upper bound of packets queued in the network (tcp_vegas.beta; default 4)" },
    [K_GAMMA] = { "gamma", "1", 0, INT32_MAX,
                  "packets queued that end slow start (tcp_vegas.gamma; default 1)" },
    { NULL, NULL, 0, 0, NULL },
};

struct vegas {
    uint64_t beg_snd_nxt;         /* right edge of the round being measured */
    uint8_t doing_vegas_now;
    uint16_t cnt_rtt;             /* RTT samples in this round */
    uint32_t min_rtt;             /* smallest RTT of this round, us + 1 */
    uint32_t base_rtt;            /* smallest RTT ever, us + 1 */
};
_Static_assert(sizeof(struct vegas) <= sizeof(((struct tcp_sock *)0)->cc_priv), "cc_priv too small");

static inline struct vegas *ca(struct tcp_sock *tp) { return (struct vegas *)tp->cc_priv; }

/* Measure from the next window sent: what is in flight now says nothing
 * of the window that will be. */
static void vegas_enable(struct tcp_sock *tp)
{
    struct vegas *v = ca(tp);
    v->doing_vegas_now = 1;
    v->beg_snd_nxt = tp->snd_nxt;
    v->cnt_rtt = 0;
    v->min_rtt = 0x7fffffff;
}

static void vegas_init(struct tcp_sock *tp)
{
    ca(tp)->base_rtt = 0x7fffffff;
    vegas_enable(tp);
}

static void vegas_pkts_acked(struct tcp_sock *tp, const struct tcp_ack_sample *sample)
{
    struct vegas *v = ca(tp);
    if (sample->rtt_us < 0)
        return;
    uint32_t vrtt = (uint32_t)sample->rtt_us + 1;
    if (vrtt < v->base_rtt)
        v->base_rtt = vrtt;
    if (vrtt < v->min_rtt)
        v->min_rtt = vrtt;
    v->cnt_rtt++;
}

static void vegas_state(struct tcp_sock *tp, int st)
{
    if (st == TCP_CA_Open)
        vegas_enable(tp);
    else
        ca(tp)->doing_vegas_now = 0;
}

static void vegas_cwnd_event(struct tcp_sock *tp, int ev)
{
    if (ev == CA_EVENT_CWND_RESTART || ev == CA_EVENT_TX_START)
        vegas_init(tp);
}

/* 4.15's tcp_vegas_ssthresh: below the window it leaves */
static uint32_t vegas_ssthresh_below(const struct tcp_sock *tp)
{
    return tp->snd_ssthresh < tp->snd_cwnd - 1 ? tp->snd_ssthresh : tp->snd_cwnd - 1;
}

static void vegas_cong_avoid(struct tcp_sock *tp, uint32_t acked)
{
    struct vegas *v = ca(tp);
    if (!v->doing_vegas_now) {
        tcp_reno_cong_avoid(tp, acked);
        return;
    }
    if (tp->snd_una <= v->beg_snd_nxt) {         /* the round goes on */
        if (tcp_in_slow_start(tp))
            tcp_slow_start(tp, acked);
        return;
    }
    v->beg_snd_nxt = tp->snd_nxt;
    if (v->cnt_rtt <= 2) {
        tcp_reno_cong_avoid(tp, acked);
    } else {
        uint32_t rtt = v->min_rtt;
        uint64_t target = (uint64_t)tp->snd_cwnd * v->base_rtt / rtt;
        uint32_t diff = (uint32_t)((uint64_t)tp->snd_cwnd * (rtt - v->base_rtt) / v->base_rtt);
        if (diff > (uint32_t)tcp_cc_key(tp, K_GAMMA) && tcp_in_slow_start(tp)) {
            /* the actual rate's window, + 1 for what the division drops */
            if ((uint64_t)tp->snd_cwnd > target + 1)
                tp->snd_cwnd = (uint32_t)target + 1;
            tp->snd_ssthresh = vegas_ssthresh_below(tp);
        } else if (tcp_in_slow_start(tp)) {
            tcp_slow_start(tp, acked);
        } else if (diff > (uint32_t)tcp_cc_key(tp, K_BETA)) {
            tp->snd_cwnd--;
            tp->snd_ssthresh = vegas_ssthresh_below(tp);
        } else if (diff < (uint32_t)tcp_cc_key(tp, K_ALPHA)) {
            tp->snd_cwnd++;
        }
        if (tp->snd_cwnd < 2)
            tp->snd_cwnd = 2;
        else if (tp->snd_cwnd > tp->snd_cwnd_clamp)
            tp->snd_cwnd = tp->snd_cwnd_clamp;
        tp->snd_ssthresh = tcp_current_ssthresh(tp);
    }
    v->cnt_rtt = 0;
    v->min_rtt = 0x7fffffff;
}

/* A Vegas sender's series: the propagation delay it believes (baseRTT) */
static void vegas_trace(struct tcp_sock *tp, const char *prefix)
{
    struct vegas *v = ca(tp);
    char name[96];
    if (v->base_rtt == 0x7fffffff)
        return;
    snprintf(name, sizeof name, "%svegas_base_rtt_us", prefix);
    sim_series(tp->sim, name, v->base_rtt - 1);
}

/* tcp_vegas_get_info: ss -i computes its "send" rate from baseRTT */
static void vegas_get_info(struct tcp_sock *tp, struct tcp_cc_info *info)
{
    const struct vegas *v = ca(tp);
    info->kind = TCP_CC_INFO_VEGAS;
    info->u.vegas.enabled = v->doing_vegas_now;
    info->u.vegas.rttcnt = v->cnt_rtt;
    info->u.vegas.rtt_us = v->base_rtt;
    info->u.vegas.minrtt_us = v->min_rtt;
}

const struct tcp_cc_ops tcp_vegas = {
    .name = "vegas",
    .doc = "Vegas (tcp_vegas.c, 4.15): delay-based, alpha to beta packets queued",
    .keys = vegas_keys,
    .init = vegas_init,
    .ssthresh = tcp_reno_ssthresh,
    .cong_avoid = vegas_cong_avoid,
    .undo_cwnd = tcp_reno_undo_cwnd,
    .set_state = vegas_state,
    .cwnd_event = vegas_cwnd_event,
    .pkts_acked = vegas_pkts_acked,
    .get_info = vegas_get_info,
    .trace = vegas_trace,
};
VARIANT("tcp.cc", tcp_vegas);
