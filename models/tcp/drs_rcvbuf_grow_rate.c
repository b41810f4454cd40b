/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drs_rcvbuf_grow_rate.c - receive autotuning of Linux 6.18: 6.16's
 * (drs_rcvbuf_grow.c) with the sender's rate increase counted again,
 * aa251c84636c "tcp: fix too slow tcp_rcvbuf_grow() action" (Eric
 * Dumazet, Oct 2025, 6.18-rc4; with 6cd6e9b6c152's newval argument). 6.16
 * sized the buffer for 2 x space, and a sender in slow start, which more
 * than doubles per RTT as DRS sees it one RTT late, was held by the
 * window. Now rcvwin = 2 x new, plus 2 x rcvwin x (new - old) / old, as
 * 4.16 had, without its 16-segment cushion; the out-of-order call passes
 * the space unchanged, so no rate term there. Same receiver RTT
 * estimator as 6.16.
 *
 * The kernel's types, kept: rcvwin, rcvbuf and cap u32, the rate term
 * u64, the division a floor.
 */
#include "models/tcp/tcp.h"

/* tcp_rcvbuf_grow(sk, newval) */
static void rcvbuf_grow(const struct tcp_drs_view *v, struct tcp_drs_set *s, uint32_t newval)
{
    uint32_t oldval = (uint32_t)s->space;
    s->space = newval;
    if (!v->moderate)
        return;
    uint32_t rcvwin = newval << 1;                     /* DRS is one RTT late */
    uint64_t grow = oldval ? (uint64_t)rcvwin * (newval - oldval) / oldval : 0;   /* space is never 0 */
    rcvwin += (uint32_t)(grow << 1);                   /* the sender's rate increase */
    rcvwin += (uint32_t)v->ofo_span;
    uint32_t rcvbuf = (uint32_t)tcp_drs_space_from_win(v, rcvwin);
    if (rcvbuf > v->rmem[2])
        rcvbuf = (uint32_t)v->rmem[2];
    if (rcvbuf > v->rcvbuf) {
        s->rcvbuf = rcvbuf;
        s->window_clamp = (uint64_t)tcp_drs_win_from_space(v, rcvbuf);
    }
}

static bool adjust(const struct tcp_drs_view *v, struct tcp_drs_set *s)
{
    int64_t copied = (int32_t)(uint32_t)v->copied - (int64_t)(int32_t)(uint32_t)v->inq;
    if (copied <= (int64_t)v->space)
        return false;
    rcvbuf_grow(v, s, (uint32_t)copied);
    return true;
}

static void ofo(const struct tcp_drs_view *v, struct tcp_drs_set *s)
{
    rcvbuf_grow(v, s, (uint32_t)s->space);
}

const struct tcp_drs_ops tcp_drs_rcvbuf_grow_rate = {
    .name = "rcvbuf_grow_rate",
    .doc = "6.18 tcp_rcvbuf_grow: 6.16's plus 2 x rcvwin x (new - old) / old for the sender's rate "
           "increase (aa251c84636c)",
    .adjust = adjust,
    .ofo = ofo,
    .rcv_rtt = tcp_drs_rcv_rtt_616,
};
VARIANT("tcp.drs", tcp_drs_rcvbuf_grow_rate);
