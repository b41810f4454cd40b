/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drs_rcvbuf_grow.c - receive autotuning of Linux 6.16 and 6.17: Eric
 * Dumazet's "tcp: receive side improvements" series (net-next, May
 * 2025). tcp_rcv_space_adjust counts only what the reader took out of
 * what arrived: copied less the bytes still queued (ea33537d8292, "tcp:
 * add receive queue awareness"), so a slow reader does not inflate the
 * estimate. Above space it becomes space, and tcp_rcvbuf_grow sizes the
 * buffer for the sender doubling once, 2 x space, with no loss cushion
 * and no rate term (65c5287892e9 "tcp: fix sk_rcvbuf overshoot"), plus
 * the span of the out-of-order queue (63ad7dfedfae "tcp: adjust rcvbuf
 * in presence of reorders"), whose tcp_data_queue_ofo also calls it on
 * every out-of-order segment queued; and the series' receiver RTT
 * estimator (tcp_drs_rcv_rtt_616, drs.c). Linux 6.18 put the rate term
 * back (drs_rcvbuf_grow_rate.c).
 *
 * The kernel's types, kept: copied, inq and space are int (copied less
 * inq may be negative: below space), the window int, the min against
 * tcp_rmem[2] u32.
 */
#include "models/tcp/tcp.h"

/* tcp_rcvbuf_grow: rcvq_space.space already set */
static void rcvbuf_grow(const struct tcp_drs_view *v, struct tcp_drs_set *s)
{
    if (!v->moderate)
        return;
    int64_t rcvwin = (int64_t)(int32_t)((uint32_t)s->space << 1);      /* slow start: the sender doubles */
    rcvwin = (int32_t)((uint32_t)rcvwin + (uint32_t)v->ofo_span);      /* u32 sequence distance */
    uint32_t rcvbuf = (uint32_t)tcp_drs_space_from_win(v, rcvwin);
    if (rcvbuf > v->rmem[2])
        rcvbuf = (uint32_t)v->rmem[2];
    if ((int32_t)rcvbuf > (int64_t)v->rcvbuf) {
        s->rcvbuf = rcvbuf;
        s->window_clamp = (uint64_t)tcp_drs_win_from_space(v, rcvbuf);
    }
}

static bool adjust(const struct tcp_drs_view *v, struct tcp_drs_set *s)
{
    int64_t copied = (int32_t)(uint32_t)v->copied - (int64_t)(int32_t)(uint32_t)v->inq;
    if (copied <= (int64_t)v->space)
        return false;
    s->space = (uint64_t)copied;
    rcvbuf_grow(v, s);
    return true;
}

const struct tcp_drs_ops tcp_drs_rcvbuf_grow = {
    .name = "rcvbuf_grow",
    .doc = "6.16-6.17 tcp_rcvbuf_grow: space = copied - inq, rcvbuf for 2 x space + the out-of-order span, "
           "also on each out-of-order segment (65c5287892e9, 63ad7dfedfae, ea33537d8292)",
    .adjust = adjust,
    .ofo = rcvbuf_grow,
    .rcv_rtt = tcp_drs_rcv_rtt_616,
};
VARIANT("tcp.drs", tcp_drs_rcvbuf_grow);
