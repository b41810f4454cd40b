/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cc_reno.c - NewReno (Linux 4.15 tcp_cong.c's tcp_reno): slow start to
 * ssthresh, then one segment per window of ACKed segments; halve on loss.
 * Its three functions are in tcp_cong.c, exported as the kernel exports
 * them, for the variants that fall back on Reno (Vegas); this file is the
 * variant.
 */
#include "models/tcp/tcp.h"

const struct tcp_cc_ops tcp_reno = {
    .name = "reno",
    .doc = "NewReno (tcp_cong.c): AIMD, ssthresh = cwnd/2",
    .ssthresh = tcp_reno_ssthresh,
    .cong_avoid = tcp_reno_cong_avoid,
    .undo_cwnd = tcp_reno_undo_cwnd,
};
VARIANT("tcp.cc", tcp_reno);
