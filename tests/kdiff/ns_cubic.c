/* SPDX-License-Identifier: GPL-2.0-only */
/* ns_cubic.c - cc_cubic.c compiled into the differential check (nside.h) */
#include "models/tcp/cc_cubic.c"
#include <string.h>
#include "tests/kdiff/nside.h"

void ns_cubic_update(struct kd_bictcp *k, uint32_t delay_min8, uint32_t cwnd, uint32_t acked, uint32_t jiffies32,
                     int beta, int bic_scale, int tcp_friendliness)
{
    static struct tcp_sock tp;
    static struct tcp_host th;
    memset(&tp, 0, sizeof tp);
    memset(&th, 0, sizeof th);
    tp.cc = &tcp_cubic;
    variant_key_defaults(tp.cc, th.cc_vals);
    th.cc_vals[K_BETA] = beta;
    th.cc_vals[K_BIC_SCALE] = bic_scale;
    th.cc_vals[K_TCP_FRIENDLINESS] = tcp_friendliness;
    tp.th = &th;
    /* jiffies(tp) is the clock in ms, plus one */
    simtime_t now = ((simtime_t)jiffies32 - 1) * PS_PER_MS;
    simtime_t *saved = ctx_clock;
    ctx_clock = &now;
    struct cubic *c = ca(&tp);
    *c = (struct cubic){
        .cnt = k->cnt, .last_max_cwnd = k->last_max_cwnd, .last_cwnd = k->last_cwnd, .last_time = k->last_time,
        .bic_origin_point = k->bic_origin_point, .bic_K = k->bic_K, .delay_min = delay_min8,
        .epoch_start = k->epoch_start, .ack_cnt = k->ack_cnt, .tcp_cwnd = k->tcp_cwnd,
    };
    update(&tp, c, cwnd, acked);
    ctx_clock = saved;
    *k = (struct kd_bictcp){
        .cnt = c->cnt, .last_max_cwnd = c->last_max_cwnd, .last_cwnd = c->last_cwnd, .last_time = c->last_time,
        .bic_origin_point = c->bic_origin_point, .bic_K = c->bic_K, .delay_min_us = k->delay_min_us,
        .epoch_start = c->epoch_start, .ack_cnt = c->ack_cnt, .tcp_cwnd = c->tcp_cwnd,
    };
}
