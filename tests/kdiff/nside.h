/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nside.h - netsim's ports whose functions are static in their model
 * (cc_bbr.c, cc_cubic.c), reached by compiling the model's file into the
 * check (ns_bbr.c, ns_cubic.c): the same code the simulator runs.
 */
#ifndef NETSIM_KDIFF_NSIDE_H
#define NETSIM_KDIFF_NSIDE_H

#include <stdbool.h>
#include <stdint.h>
#include "tests/kdiff/kside.h"

/* cc_bbr.c's windowed max (lib/win_minmax.c): s is t, v for each sample */
uint64_t ns_mm_running_max(uint64_t s[6], uint32_t win, uint32_t t, uint64_t v);
/* cc_bbr.c's bw_to_pacing_rate on a socket of that MSS, timestamps and family */
uint64_t ns_bbr_bw_to_pacing_rate(uint64_t bw, int gain, uint32_t mss, bool ts_ok, bool ipv6);
/* cc_cubic.c's update() (bictcp_update) at jiffies32 with the keys given;
 * the state in kside's fields, delay_min in the model's ms << 3 */
void ns_cubic_update(struct kd_bictcp *c, uint32_t delay_min8, uint32_t cwnd, uint32_t acked, uint32_t jiffies32,
                     int beta, int bic_scale, int tcp_friendliness);

#endif
