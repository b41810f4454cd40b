/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cc_highspeed.c - HighSpeed TCP (RFC 3649, Sally Floyd; Linux 4.15
 * net/ipv4/tcp_highspeed.c). Reno's response function a cwnd of 38
 * packets up; above, the window grows by a(w) packets per RTT and backs
 * off by b(w) of itself on a loss, a(w) rising to 72 and b(w) falling
 * to 0.1 at 83 000 packets, so that a 10 Gbit/s path recovers from one
 * loss in minutes instead of hours. Linux reads both from RFC 3649's
 * appendix B table: row i holds the largest window with a(w) = i + 1,
 * and b(w) x 256 there (the RFC's b(w) = (0.1 - 0.5) (ln w - ln 38) /
 * (ln 83000 - ln 38) + 0.5, rounded down). The row follows cwnd up and
 * down in congestion avoidance; slow start is Reno's.
 */
#include "models/tcp/tcp.h"
#include "sim/sim.h"

const struct tcp_hstcp_row tcp_hstcp_table[TCP_HSTCP_ROWS] = {
    { 38, 128 }, { 118, 112 }, { 221, 104 }, { 347, 98 }, { 495, 93 }, { 663, 89 },
    { 851, 86 }, { 1058, 83 }, { 1284, 81 }, { 1529, 78 }, { 1793, 76 }, { 2076, 74 },
    { 2378, 72 }, { 2699, 71 }, { 3039, 69 }, { 3399, 68 }, { 3778, 66 }, { 4177, 65 },
    { 4596, 64 }, { 5036, 62 }, { 5497, 61 }, { 5979, 60 }, { 6483, 59 }, { 7009, 58 },
    { 7558, 57 }, { 8130, 56 }, { 8726, 55 }, { 9346, 54 }, { 9991, 53 }, { 10661, 52 },
    { 11358, 52 }, { 12082, 51 }, { 12834, 50 }, { 13614, 49 }, { 14424, 48 }, { 15265, 48 },
    { 16137, 47 }, { 17042, 46 }, { 17981, 45 }, { 18955, 45 }, { 19965, 44 }, { 21013, 43 },
    { 22101, 43 }, { 23230, 42 }, { 24402, 41 }, { 25618, 41 }, { 26881, 40 }, { 28193, 39 },
    { 29557, 39 }, { 30975, 38 }, { 32450, 38 }, { 33986, 37 }, { 35586, 36 }, { 37253, 36 },
    { 38992, 35 }, { 40808, 35 }, { 42707, 34 }, { 44694, 33 }, { 46776, 33 }, { 48961, 32 },
    { 51258, 32 }, { 53677, 31 }, { 56230, 30 }, { 58932, 30 }, { 61799, 29 }, { 64851, 28 },
    { 68113, 28 }, { 71617, 27 }, { 75401, 26 }, { 79517, 26 }, { 84035, 25 }, { 89053, 24 },
};

struct hstcp {
    uint32_t ai;                 /* the table row cwnd is in */
};
_Static_assert(sizeof(struct hstcp) <= sizeof(((struct tcp_sock *)0)->cc_priv), "cc_priv too small");

static inline struct hstcp *ca(struct tcp_sock *tp) { return (struct hstcp *)tp->cc_priv; }

static void hstcp_init(struct tcp_sock *tp)
{
    ca(tp)->ai = 0;
    /* cwnd x md must fit 32 bits */
    if (tp->snd_cwnd_clamp > 0xffffffffu / 128)
        tp->snd_cwnd_clamp = 0xffffffffu / 128;
}

static void hstcp_cong_avoid(struct tcp_sock *tp, uint32_t acked)
{
    struct hstcp *h = ca(tp);
    if (!tcp_is_cwnd_limited(tp))
        return;
    if (tcp_in_slow_start(tp)) {
        tcp_slow_start(tp, acked);
        return;
    }
    while (tp->snd_cwnd > tcp_hstcp_table[h->ai].cwnd && h->ai < TCP_HSTCP_ROWS - 1)
        h->ai++;
    while (h->ai && tp->snd_cwnd <= tcp_hstcp_table[h->ai - 1].cwnd)
        h->ai--;
    /* cwnd += a(w) / cwnd per ACK, a(w) = row + 1; one ACK at a time,
     * whatever it acknowledged, as 4.15 does */
    if (tp->snd_cwnd < tp->snd_cwnd_clamp) {
        tp->snd_cwnd_cnt += h->ai + 1;
        if (tp->snd_cwnd_cnt >= tp->snd_cwnd) {
            tp->snd_cwnd_cnt -= tp->snd_cwnd;
            tp->snd_cwnd++;
        }
    }
}

/* cwnd - cwnd x b(w), at least 2; b(w) of the row congestion avoidance
 * last put cwnd in */
static uint32_t hstcp_ssthresh(struct tcp_sock *tp)
{
    uint32_t cut = (tp->snd_cwnd * tcp_hstcp_table[ca(tp)->ai].md) >> 8;
    return tp->snd_cwnd - cut > 2 ? tp->snd_cwnd - cut : 2;
}

const struct tcp_cc_ops tcp_highspeed = {
    .name = "highspeed",
    .doc = "HighSpeed TCP (RFC 3649, tcp_highspeed.c, 4.15): + a(w) per RTT, x (1 - b(w)) on loss, from RFC 3649's table",
    .init = hstcp_init,
    .ssthresh = hstcp_ssthresh,
    .cong_avoid = hstcp_cong_avoid,
    .undo_cwnd = tcp_reno_undo_cwnd,
};
VARIANT("tcp.cc", tcp_highspeed);
