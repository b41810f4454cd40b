/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_cong.c - congestion control's side of the engine (Linux 4.15
 * net/ipv4/tcp_cong.c): the tcp.cc family and its check of a variant's
 * ops, the one place the engine calls a cc's init, release, set_state and
 * cwnd_event, and the pieces every cc may borrow: slow start, additive
 * increase, and Reno's three functions. tcp_ack.c makes the per-ACK calls
 * (cong_avoid, cong_control, in_ack_event, pkts_acked) where 4.15's
 * tcp_input.c makes them. Reno's ops table stays in cc_reno.c, a variant
 * like the others.
 */
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/hash.h"
#include "sim/rng.h"
#include "sim/sim.h"
#include "sim/variant.h"
#include <stdio.h>

/* ---- registration (tcp_register_congestion_control, tcp_ca_find) ---- */

/* The members tcp_register_congestion_control refuses a cc without */
static const char *cc_missing(const void *ops)
{
    const struct tcp_cc_ops *o = ops;
    return !o->ssthresh ? "ssthresh" : !o->undo_cwnd ? "undo_cwnd"
         : !o->cong_avoid && !o->cong_control ? "cong_avoid or cong_control" : NULL;
}

const struct variant_family tcp_cc_family = {
    .key = "tcp.cc", .def = "cubic", .missing = cc_missing,
    .doc = "[host] congestion control of the host's senders (net.ipv4.tcp_congestion_control)",
};

const struct tcp_cc_ops *tcp_cc_find(const char *name)
{
    return variant_find("tcp.cc", name);
}

/* ---- the calls into the ops ---- */

void tcp_init_congestion_control(struct tcp_sock *tp)
{
    if (tp->cc->init)
        tp->cc->init(tp);
    tp->cc_inited = true;
}

/* only after init: a socket freed before it was established has no
 * private state to release */
void tcp_cleanup_congestion_control(struct tcp_sock *tp)
{
    if (tp->cc_inited && tp->cc->release)
        tp->cc->release(tp);
}

void tcp_set_ca_state(struct tcp_sock *tp, int st)
{
    if (tp->cc->set_state)
        tp->cc->set_state(tp, st);
    tp->ca_state = st;
}

void tcp_ca_event(struct tcp_sock *tp, int ev)
{
    if (tp->cc->cwnd_event)
        tp->cc->cwnd_event(tp, ev);
}

/* ---- what a cc borrows ---- */

uint32_t tcp_slow_start(struct tcp_sock *tp, uint32_t acked)
{
    uint32_t cwnd = tp->snd_cwnd + acked;
    if (cwnd > tp->snd_ssthresh)
        cwnd = tp->snd_ssthresh;
    acked -= cwnd - tp->snd_cwnd;
    tp->snd_cwnd = cwnd < tp->snd_cwnd_clamp ? cwnd : tp->snd_cwnd_clamp;
    return acked;
}

void tcp_cong_avoid_ai(struct tcp_sock *tp, uint32_t w, uint32_t acked)
{
    if (tp->snd_cwnd_cnt >= w) {
        tp->snd_cwnd_cnt = 0;
        tp->snd_cwnd++;
    }
    tp->snd_cwnd_cnt += acked;
    if (tp->snd_cwnd_cnt >= w) {
        uint32_t delta = tp->snd_cwnd_cnt / w;
        tp->snd_cwnd_cnt -= delta * w;
        tp->snd_cwnd += delta;
    }
    if (tp->snd_cwnd > tp->snd_cwnd_clamp)
        tp->snd_cwnd = tp->snd_cwnd_clamp;
}

/* Reno: slow start to ssthresh, then one segment per window of ACKed
 * segments; halve on loss */
void tcp_reno_cong_avoid(struct tcp_sock *tp, uint32_t acked)
{
    if (tcp_in_slow_start(tp)) {
        acked = tcp_slow_start(tp, acked);
        if (!acked)
            return;
    }
    tcp_cong_avoid_ai(tp, tp->snd_cwnd, acked);
}

uint32_t tcp_reno_ssthresh(struct tcp_sock *tp)
{
    uint32_t h = tp->snd_cwnd >> 1;
    return h > 2 ? h : 2;
}

uint32_t tcp_reno_undo_cwnd(struct tcp_sock *tp)
{
    return tp->snd_cwnd > tp->prior_cwnd ? tp->snd_cwnd : tp->prior_cwnd;
}

/* ---- the random stream of a congestion control ---- */

uint64_t tcp_ca_random_seed(const struct tcp_sock *tp, const char *name, size_t len)
{
    char stream[64];
    snprintf(stream, sizeof stream, "tcp.ca.%.*s", (int)len, name);
    return rng_derive_seed(tp->sim->seed, stream) ^ ((uint64_t)tp->h->id << 32 | (uint64_t)tp->sk.port << 16 | tp->dport);
}

/* splitmix64: the state advances by a constant, which wraps (intended),
 * through the engine's finaliser */
uint32_t tcp_ca_random_u32(uint64_t *state)
{
    *state = wrap_add_u64(*state, 0x9e3779b97f4a7c15ULL);
    return (uint32_t)(sim_mix64(*state) >> 32);
}
