/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drs_trimodal.c - the growth step before "tcp: smoother receiver
 * autotuning" (Linux 4.15 with patches 1/3 and 2/3 of the Dec 2017 series;
 * seed 003's "before"). If the bytes copied per RTT grew by 25 %, assume
 * slow start and take 3 x copied; by 50 %, assume 2x growth and take
 * 4 x copied; else 2 x copied (the base window the caller passes in).
 */
#include "models/tcp/tcp.h"

static uint64_t grow(uint64_t rcvwin, uint64_t copied, uint64_t space)
{
    if (copied >= space + (space >> 2)) {
        if (copied >= space + (space >> 1))
            rcvwin <<= 1;
        else
            rcvwin += rcvwin >> 1;
    }
    return rcvwin;
}

const struct tcp_drs_ops tcp_drs_trimodal = {
    .name = "trimodal",
    .doc = "4.15 tcp_rcv_space_adjust: x1, x1.5 or x2 when copied grew 25 % / 50 % (before c3916ad9320e)",
    .grow = grow,
};
VARIANT("tcp.drs", tcp_drs_trimodal);
