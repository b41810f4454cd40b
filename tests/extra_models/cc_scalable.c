/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cc_scalable.c - test variant, the worked example of
 * docs/adding-a-variant.md: Scalable TCP (Tom Kelly, 2003; Linux 4.15
 * net/ipv4/tcp_scalable.c). Above slow start the window grows by one
 * packet every min(cwnd, ai_cnt) ACKs, so by about 1 % per RTT at any
 * size beyond 100 packets; a loss takes away cwnd >> md_scale (1/8).
 * The kernel fixes both as #defines (TCP_SCALABLE_AI_CNT 100,
 * TCP_SCALABLE_MD_SCALE 3); here they are the variant's keys, to show
 * how one is declared and read: tcp.cc.scalable.ai_cnt, .md_scale.
 */
#include "models/tcp/tcp.h"

enum { K_AI_CNT, K_MD_SCALE };
static const struct variant_key scalable_keys[] = {
    [K_AI_CNT] = { "ai_cnt", "100", 1, 1000000,
                   "ACKs per +1 of cwnd, at most cwnd (TCP_SCALABLE_AI_CNT, 100 in 4.15)" },
    [K_MD_SCALE] = { "md_scale", "3", 1, 16,
                     "a loss takes cwnd >> md_scale (TCP_SCALABLE_MD_SCALE, 3 in 4.15: 1/8)" },
    { NULL, NULL, 0, 0, NULL },
};

static void scalable_cong_avoid(struct tcp_sock *tp, uint32_t acked)
{
    if (!tcp_is_cwnd_limited(tp))
        return;
    if (tcp_in_slow_start(tp)) {
        tcp_slow_start(tp, acked);
        return;
    }
    uint32_t ai = (uint32_t)tcp_cc_key(tp, K_AI_CNT);
    tcp_cong_avoid_ai(tp, tp->snd_cwnd < ai ? tp->snd_cwnd : ai, 1);
}

static uint32_t scalable_ssthresh(struct tcp_sock *tp)
{
    uint32_t w = tp->snd_cwnd - (tp->snd_cwnd >> tcp_cc_key(tp, K_MD_SCALE));
    return w > 2 ? w : 2;
}

const struct tcp_cc_ops tcp_scalable = {
    .name = "scalable",
    .doc = "test variant: Scalable TCP (tcp_scalable.c, 4.15) with its constants as keys (tests/extra_models)",
    .keys = scalable_keys,
    .ssthresh = scalable_ssthresh,
    .cong_avoid = scalable_cong_avoid,
    .undo_cwnd = tcp_reno_undo_cwnd,
};
VARIANT("tcp.cc", tcp_scalable);
