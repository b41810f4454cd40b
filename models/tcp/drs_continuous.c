/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drs_continuous.c - "tcp: smoother receiver autotuning" (Eric Dumazet,
 * net-next Dec 2017, merged for 4.16; seed 003's "after"): the window grows
 * in proportion to the rate increase, rcvwin += 2 * rcvwin * (copied -
 * space) / space, u64 with a floor division (do_div). Matches the trimodal
 * rule at +25 % and +50 %, and is unbounded above.
 */
#include "models/tcp/tcp.h"

static uint64_t grow(uint64_t rcvwin, uint64_t copied, uint64_t space)
{
    uint64_t g = rcvwin * (copied - space) / space;   /* caller ensures copied > space */
    return rcvwin + (g << 1);
}

const struct tcp_drs_ops tcp_drs_continuous = {
    .name = "continuous",
    .doc = "4.16 tcp_rcv_space_adjust: rcvwin grows by 2 x rcvwin x (copied - space) / space (c3916ad9320e, docs/cases/tcp-drs.md)",
    .grow = grow,
};
VARIANT("tcp.drs", tcp_drs_continuous);
