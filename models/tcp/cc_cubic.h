/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cc_cubic.h - CUBIC's curve (cc_cubic.c), pure, for the tests and the
 * differential check: not part of the cc contract, so not in tcp.h.
 */
#ifndef NETSIM_MODELS_TCP_CC_CUBIC_H
#define NETSIM_MODELS_TCP_CC_CUBIC_H

#include <stdint.h>

/* tcp_cubic.c's cubic_root: the kernel's integer cube root (a table and
 * one Newton step, within ~0.2 % of the real root), bit for bit */
uint32_t tcp_cubic_root(uint64_t a);
/* K in 1/1024 s for a window `below` packets under W_max, and the target
 * window t/1024 s into the epoch (delay_min/8 included) for origin point
 * W_max; with tcp_cubic's bic_scale (C = bic_scale / 1024 x 10, 41 by
 * default). */
uint32_t tcp_cubic_k_scale(uint32_t below, uint32_t bic_scale);
uint32_t tcp_cubic_target_scale(uint32_t origin, uint32_t k, uint64_t t, uint32_t bic_scale);
static inline uint32_t tcp_cubic_k(uint32_t below) { return tcp_cubic_k_scale(below, 41); }
static inline uint32_t tcp_cubic_target(uint32_t origin, uint32_t k, uint64_t t)
{
    return tcp_cubic_target_scale(origin, k, t, 41);
}

#endif
