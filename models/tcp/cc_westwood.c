/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cc_westwood.c - TCP Westwood+ (Linux 4.15 net/ipv4/tcp_westwood.c;
 * Mascolo, Casetti, Gerla et al. 2001, Grieco and Mascolo 2004). It
 * probes as Reno does, and measures what the ACKs say arrived: bytes
 * acknowledged per RTT-long window (at least 50 ms), through two
 * 7/8 low-pass filters, give a bandwidth estimate BWE. After a loss it
 * does not halve: both cwnd and ssthresh become BWE x RTTmin, the window
 * the path carried without a queue. A random (non-congestive) loss thus
 * costs little, a congestive one drains the queue.
 *
 * Its figures come from the ACK events, not from the congestion-avoidance
 * hook: in_ack_event on every ACK (header-predicted ACKs count the bytes
 * snd_una moved; slow-path ACKs, duplicates included, count one MSS per
 * duplicate and take back what the cumulative ACK then repeats),
 * pkts_acked for the RTT, cwnd_event for the loss (COMPLETE_CWR after a
 * recovery, LOSS at a timeout). Times in jiffies at HZ 1000 (ms) as the
 * kernel keeps them; rtt_min starts at 20 s and restarts after a timeout.
 */
#include <stdio.h>
#include "models/tcp/tcp.h"
#include "sim/sim.h"

#define WW_RTT_MIN   50          /* TCP_WESTWOOD_RTT_MIN, HZ/20: a window lasts at least 50 ms */
#define WW_INIT_RTT  20000       /* TCP_WESTWOOD_INIT_RTT, 20*HZ */

struct westwood {
    uint32_t bw_ns_est;          /* first filter's output, bytes per jiffy */
    uint32_t bw_est;             /* BWE: the second filter's */
    uint32_t rtt_win_sx;         /* when the current window started */
    uint32_t bk;                 /* bytes acknowledged in it */
    uint32_t snd_una;            /* snd_una as last accounted (32-bit, as tcp_sock's) */
    uint32_t cumul_ack, accounted;
    uint32_t rtt, rtt_min;       /* jiffies */
    uint8_t first_ack, reset_rtt_min;
};
_Static_assert(sizeof(struct westwood) <= sizeof(((struct tcp_sock *)0)->cc_priv), "cc_priv too small");

static inline struct westwood *ca(struct tcp_sock *tp) { return (struct westwood *)tp->cc_priv; }
static inline uint32_t jiffies(void) { return (uint32_t)(ctx_now() / PS_PER_MS) + 1; }
/* sequence numbers wrap at 2^32 in the kernel; differences are the same */
static inline uint32_t una32(const struct tcp_sock *tp) { return (uint32_t)tp->snd_una; }

static void ww_init(struct tcp_sock *tp)
{
    struct westwood *w = ca(tp);
    *w = (struct westwood){ .reset_rtt_min = 1, .rtt = WW_INIT_RTT, .rtt_min = WW_INIT_RTT, .first_ack = 1 };
    w->rtt_win_sx = jiffies();
    w->snd_una = una32(tp);
}

static inline uint32_t low_pass(uint32_t a, uint32_t b) { return (7 * a + b) >> 3; }

static void filter(struct westwood *w, uint32_t delta)
{
    if (w->bw_ns_est == 0 && w->bw_est == 0) {          /* the first sample fills both */
        w->bw_ns_est = w->bk / delta;
        w->bw_est = w->bw_ns_est;
    } else {
        w->bw_ns_est = low_pass(w->bw_ns_est, w->bk / delta);
        w->bw_est = low_pass(w->bw_est, w->bw_ns_est);
    }
}

/* the ACK sample's RTT, in jiffies rounded up (usecs_to_jiffies) */
static void ww_pkts_acked(struct tcp_sock *tp, const struct tcp_ack_sample *sample)
{
    if (sample->rtt_us > 0)
        ca(tp)->rtt = ((uint32_t)sample->rtt_us + 999) / 1000;
}

/* a sample when a window of max(rtt, 50 ms) has passed; below that the
 * bytes keep adding up (a LAN's window is always 50 ms) */
static void update_window(struct tcp_sock *tp)
{
    struct westwood *w = ca(tp);
    int32_t delta = (int32_t)(jiffies() - w->rtt_win_sx);
    if (w->first_ack) {
        w->snd_una = una32(tp);
        w->first_ack = 0;
    }
    uint32_t span = w->rtt > WW_RTT_MIN ? w->rtt : WW_RTT_MIN;
    if (w->rtt && delta > 0 && (uint32_t)delta > span) {
        filter(w, (uint32_t)delta);
        w->bk = 0;
        w->rtt_win_sx = jiffies();
    }
}

static void update_rtt_min(struct westwood *w)
{
    if (w->reset_rtt_min) {
        w->rtt_min = w->rtt;
        w->reset_rtt_min = 0;
    } else if (w->rtt < w->rtt_min) {
        w->rtt_min = w->rtt;
    }
}

/* a slow-path ACK: a duplicate counts one MSS delivered, which a later
 * cumulative ACK covering more than one MSS does not count again */
static uint32_t acked_count(struct tcp_sock *tp)
{
    struct westwood *w = ca(tp);
    w->cumul_ack = una32(tp) - w->snd_una;
    if (!w->cumul_ack) {
        w->accounted += tp->mss;
        w->cumul_ack = tp->mss;
    }
    if (w->cumul_ack > tp->mss) {
        if (w->accounted >= w->cumul_ack) {
            w->accounted -= w->cumul_ack;
            w->cumul_ack = tp->mss;
        } else {
            w->cumul_ack -= w->accounted;
            w->accounted = 0;
        }
    }
    w->snd_una = una32(tp);
    return w->cumul_ack;
}

static void ww_ack(struct tcp_sock *tp, uint32_t flags)
{
    struct westwood *w = ca(tp);
    update_window(tp);
    if (flags & CA_ACK_SLOWPATH) {
        w->bk += acked_count(tp);
    } else {
        w->bk += una32(tp) - w->snd_una;
        w->snd_una = una32(tp);
    }
    update_rtt_min(w);
}

/* BWE x RTTmin in packets, at least 2 */
uint32_t tcp_westwood_bw_rttmin(const struct tcp_sock *tp)
{
    const struct westwood *w = (const struct westwood *)tp->cc_priv;
    uint32_t p = w->bw_est * w->rtt_min / tp->mss;
    return p > 2 ? p : 2;
}

static void ww_event(struct tcp_sock *tp, int ev)
{
    if (ev == CA_EVENT_COMPLETE_CWR) {
        tp->snd_cwnd = tp->snd_ssthresh = tcp_westwood_bw_rttmin(tp);
    } else if (ev == CA_EVENT_LOSS) {
        tp->snd_ssthresh = tcp_westwood_bw_rttmin(tp);
        ca(tp)->reset_rtt_min = 1;          /* the next ACK's RTT starts it again */
    }
}

/* tcp_westwood_info: Vegas's record, its RTT the last sample */
static void ww_get_info(struct tcp_sock *tp, struct tcp_cc_info *info)
{
    const struct westwood *w = ca(tp);
    info->kind = TCP_CC_INFO_VEGAS;
    info->u.vegas.enabled = 1;
    info->u.vegas.rttcnt = 0;
    info->u.vegas.rtt_us = w->rtt * 1000;
    info->u.vegas.minrtt_us = w->rtt_min * 1000;
}

/* A Westwood+ sender's series: its bandwidth estimate */
static void ww_trace(struct tcp_sock *tp, const char *prefix)
{
    char name[96];
    snprintf(name, sizeof name, "%swestwood_bwe_bps", prefix);
    sim_series(tp->sim, name, (double)ca(tp)->bw_est * 8000.0);
}

const struct tcp_cc_ops tcp_westwood = {
    .name = "westwood",
    .doc = "Westwood+ (tcp_westwood.c, 4.15): Reno's growth; after a loss cwnd = ssthresh = bandwidth estimate x RTTmin",
    .init = ww_init,
    .ssthresh = tcp_reno_ssthresh,
    .cong_avoid = tcp_reno_cong_avoid,
    .undo_cwnd = tcp_reno_undo_cwnd,
    .cwnd_event = ww_event,
    .in_ack_event = ww_ack,
    .pkts_acked = ww_pkts_acked,
    .get_info = ww_get_info,
    .trace = ww_trace,
};
VARIANT("tcp.cc", tcp_westwood);
