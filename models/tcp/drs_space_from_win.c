/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drs_space_from_win.c - tcp_rcv_space_adjust of Linux 6.6 to 6.15
 * (dfa2f0483360 "tcp: get rid of sysctl_tcp_adv_win_scale", merged for
 * 6.6; unchanged until 65c5287892e9 in 6.16). The growth is 4.16's
 * (c3916ad9320e, drs_continuous.c): rcvwin = 2*copied + 16*advmss, plus
 * 2 x rcvwin x (copied - space) / space. What changed is the conversion
 * to memory: no more rcvmem per advmss (an skb's truesize for a full
 * segment, rounded up by 128 until its window holds the segment), but
 * the window rule's own inverse, tcp_space_from_win: rcvwin x 256 /
 * scaling_ratio, the ratio this socket measured. With
 * tcp.win_from_space = adv_win_scale, which 6.6 has not, the inverse is
 * ours (drs.c).
 *
 * The kernel's types, kept: rcvwin and grow are u64, tcp_space_from_win
 * takes and returns int, the min against tcp_rmem[2] is u64 (a negative
 * int result, a window of 2 GB and more, gives tcp_rmem[2]).
 */
#include "models/tcp/tcp.h"

static bool adjust(const struct tcp_drs_view *v, struct tcp_drs_set *s)
{
    if (v->copied <= v->space)
        return false;
    if (v->moderate) {
        uint64_t rcvwin = (v->copied << 1) + 16ULL * v->advmss;     /* losses: 2x, and a cushion */
        uint64_t grow = rcvwin * (v->copied - v->space) / v->space;  /* the sender's rate increase */
        rcvwin += grow << 1;
        uint64_t rcvbuf = (uint64_t)tcp_drs_space_from_win(v, (int64_t)rcvwin);
        if (rcvbuf > v->rmem[2])
            rcvbuf = v->rmem[2];
        if (rcvbuf > v->rcvbuf) {
            s->rcvbuf = rcvbuf;
            s->window_clamp = (uint64_t)tcp_drs_win_from_space(v, (int64_t)rcvbuf);
        }
    }
    s->space = v->copied;
    return true;
}

const struct tcp_drs_ops tcp_drs_space_from_win_ops = {
    .name = "space_from_win",
    .doc = "6.6-6.15 tcp_rcv_space_adjust: 4.16's growth, rcvbuf = tcp_space_from_win(rcvwin), no rcvmem "
           "(dfa2f0483360)",
    .adjust = adjust,
};
VARIANT("tcp.drs", tcp_drs_space_from_win_ops);
