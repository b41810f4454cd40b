/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drs.c - dynamic right sizing, the engine every tcp.drs variant shares
 * (tcp.md §3.8; the contract is drs.h). It keeps what no kernel version
 * changed: the period, one receiver RTT long, measured at the first
 * chunk the reader copies after it; the counters, the DRS log and the
 * traces. What the kernel's function decides from the receiver (the new
 * sk_rcvbuf, window_clamp and rcvq_space.space) the variant decides from
 * a copy of it (struct tcp_drs_view).
 *
 * Here too, 4.15's tcp_rcv_space_adjust with the Dec 2017 patches 1/3
 * and 2/3 (u64 window arithmetic, window_clamp from rcvbuf), for the
 * variants that give only a growth step (drs_trimodal.c,
 * drs_continuous.c): rcvwin = 2*copied + 16*advmss, grown by the step,
 * converted to memory at rcvmem per advmss, capped at tcp_rmem[2], never
 * lowered; and the window-from-space rules both ways, and the
 * scaling_ratio measurement of Linux 6.6+ (tcp.win_from_space).
 */
#include <stdio.h>
#include <string.h>
#include "models/tcp/rskb_vec.h"
#include "models/tcp/tcp.h"
#include "sim/sim.h"

/* rcvmem = SKB_TRUESIZE(advmss + MAX_TCP_HEADER), raised by 128 until
 * the window it gives holds an advmss: 2996 for advmss 1460 under
 * adv_win_scale 1. */
static uint64_t rcvmem_of(const struct tcp_drs_view *v)
{
    int64_t rcvmem = TCP_SKB_OVERHEAD + v->advmss + MAX_TCP_HEADER;
    while (tcp_drs_win_from_space(v, rcvmem) < v->advmss)
        rcvmem += 128;
    return (uint64_t)rcvmem;
}

uint64_t tcp_drs_rcvmem(const struct tcp_sock *tp)
{
    struct tcp_drs_view v;
    tcp_drs_view_of(tp, &v);
    return rcvmem_of(&v);
}

/* The kernel computes in int; the callers' windows and buffers are below
 * 2^31 bytes except in a 2 GB window, where the kernel's own wrap is
 * what is wanted, so both rules go through int32 as the kernel's do. */
int64_t tcp_drs_win_from_space(const struct tcp_drs_view *v, int64_t space)
{
    if (v->scaling_ratio)
        return (int32_t)((int64_t)(int32_t)space * v->scaling_ratio >> TCP_RMEM_TO_WIN_SCALE);
    int s = v->adv_win_scale;
    return s <= 0 ? space >> -s : space - (space >> s);
}

/* 6.6's tcp_space_from_win: (u64)win << 8, divided by the ratio. Under
 * adv_win_scale, which 6.6 removed and so never had an inverse, ours:
 * win << -s for s <= 0, win x 2^s / (2^s - 1) rounded up for s > 0 (for
 * the default s = 1, 2 x win, whose window is win exactly). */
int64_t tcp_drs_space_from_win(const struct tcp_drs_view *v, int64_t win)
{
    if (v->scaling_ratio) {
        uint64_t val = (uint64_t)(int64_t)(int32_t)win << TCP_RMEM_TO_WIN_SCALE;
        return (int32_t)(val / v->scaling_ratio);
    }
    int s = v->adv_win_scale;
    if (s <= 0)
        return win << -s;
    int64_t d = ((int64_t)1 << s) - 1;
    return ((win << s) + d - 1) / d;
}

uint64_t tcp_drs_new_rcvbuf(const struct tcp_drs_ops *drs, uint64_t copied, uint64_t space, uint32_t advmss,
                            uint64_t rcvmem, uint64_t rmem_max)
{
    uint64_t rcvwin = (copied << 1) + 16ULL * advmss;     /* "2x to cope with losses" */
    rcvwin = drs->grow(rcvwin, copied, space);
    uint64_t rcvbuf = rcvwin / advmss * rcvmem;
    return rcvbuf < rmem_max ? rcvbuf : rmem_max;
}

bool tcp_drs_adjust_415(const struct tcp_drs_view *v, struct tcp_drs_set *s,
                        uint64_t (*grow)(uint64_t rcvwin, uint64_t copied, uint64_t space))
{
    if (v->copied <= v->space)
        return false;
    if (v->moderate) {
        uint64_t rcvwin = (v->copied << 1) + 16ULL * v->advmss;
        rcvwin = grow(rcvwin, v->copied, v->space);
        uint64_t rcvbuf = rcvwin / v->advmss * rcvmem_of(v);
        if (rcvbuf > v->rmem[2])
            rcvbuf = v->rmem[2];
        if (rcvbuf > v->rcvbuf) {
            s->rcvbuf = rcvbuf;
            s->window_clamp = (uint64_t)tcp_drs_win_from_space(v, (int64_t)rcvbuf);
        }
    }
    s->space = v->copied;                                 /* the high-water mark */
    return true;
}

/* tcp_rcv_rtt_update and tcp_rcv_rtt_measure_ts after the May 2025
 * series (b879dcb1aeec "always seek for minimal rtt", a00f135cd986 "skip
 * big rtt sample if receive queue is not empty", d59fc95be9d0 "remove
 * zero TCP TS samples for autotuning"): an estimate that only overshoots
 * makes DRS's period, and so the buffer, too long. */
int64_t tcp_drs_rcv_rtt_616(int64_t rtt_us8, int64_t sample_us, bool win_dep, uint64_t inq)
{
    if (!win_dep && sample_us == 0)
        return rtt_us8;                           /* under the timestamp clock's 1 ms: no sample */
    int64_t m = sample_us << 3;
    if (rtt_us8 == 0 || m < rtt_us8)
        return m;                                 /* a smaller one at once */
    if (win_dep || inq)
        return rtt_us8;                           /* a larger one never from a window, nor with data unread */
    return rtt_us8 - (rtt_us8 >> 3) + sample_us;  /* else 7/8 old + 1/8 new */
}

void tcp_drs_view_of(const struct tcp_sock *tp, struct tcp_drs_view *v)
{
    const struct tcp_host *th = tp->th;
    uint32_t nofo = rskb_vec_len(&tp->ofo);
    *v = (struct tcp_drs_view){
        .copied = tp->copied_seq - tp->rcvq_seq,
        .inq = tp->rcv_nxt - tp->copied_seq,
        .space = tp->rcvq_space,
        .rcv_rtt_us = tp->rcv_rtt_us8 >> 3,
        .advmss = tp->advmss,
        .rcvbuf = tp->sk.rcvbuf,
        .rcv_ssthresh = tp->rcv_ssthresh,
        .window_clamp = tp->window_clamp,
        .ofo_bytes = tp->ofo_bytes,
        .ofo_span = nofo ? tp->ofo.v[tp->ofo.hi - 1].end - tp->rcv_nxt : 0,
        .scaling_ratio = !th->scaling_ratio ? 0 : tp->scaling_ratio ? tp->scaling_ratio : TCP_DEFAULT_SCALING_RATIO,
        .adv_win_scale = th->adv_win_scale,
        .rmem = { th->rmem[0], th->rmem[1], th->rmem[2] },
        .moderate = th->moderate_rcvbuf && !tp->rcvbuf_locked,
        .vals = th->drs_vals,
    };
}

static void apply(struct tcp_sock *tp, const struct tcp_drs_set *s)
{
    tp->sk.rcvbuf = (uint32_t)s->rcvbuf;
    tp->window_clamp = s->window_clamp;
    tp->rcvq_space = s->space;
}

void tcp_rcv_space_adjust(struct tcp_sock *tp, simtime_t now)
{
    int64_t now_us = now / PS_PER_US;
    int64_t elapsed = now_us - tp->rcvq_time_us;
    if (tp->rcv_rtt_us8 == 0 || elapsed < (tp->rcv_rtt_us8 >> 3))
        return;
    struct tcp_drs_view v;
    tcp_drs_view_of(tp, &v);
    struct tcp_drs_set s = { v.rcvbuf, v.window_clamp, v.space };
    tp->st.drs_calls++;
    bool grew = tp->drs->adjust ? tp->drs->adjust(&v, &s) : tcp_drs_adjust_415(&v, &s, tp->drs->grow);
    if (!grew)
        tp->st.drs_below_space++;
    else if (v.moderate && s.rcvbuf > v.rcvbuf)
        tp->st.drs_raised++;
    else if (v.moderate)
        tp->st.drs_not_raised++;
    apply(tp, &s);
    /* copied and space as the period measured them, before any variant
     * counted them its way (6.16 less inq) or moved space */
    if (tp->drs_log)
        fprintf(tp->drs_log, "%.6f %.6f %llu %llu %.4f %u %llu %u %llu %.3f\n", time_to_s(now), elapsed / 1e6,
                (unsigned long long)v.copied, (unsigned long long)v.space,
                v.space ? (double)v.copied / (double)v.space : 0.0, (unsigned)v.rcvbuf,
                (unsigned long long)tp->sk.rcvbuf, (unsigned)tp->window_clamp, (unsigned long long)v.space,
                (double)(tp->rcv_rtt_us8 >> 3) / 1000.0);
    if (tp->trace_prefix && tp->sim) {
        char name[96];
        snprintf(name, sizeof name, "%sdrs_r", tp->trace_prefix);
        sim_series(tp->sim, name, v.space ? (double)v.copied / (double)v.space : 0.0);
    }
    tp->rcvq_seq = tp->copied_seq;
    tp->rcvq_time_us = now_us;
}

void tcp_drs_ofo(struct tcp_sock *tp)
{
    struct tcp_drs_view v;
    tcp_drs_view_of(tp, &v);
    v.copied = 0;
    struct tcp_drs_set s = { v.rcvbuf, v.window_clamp, v.space };
    tp->drs->ofo(&v, &s);
    apply(tp, &s);
}

/* tcp_measure_rcv_mss, 6.14+ (dfa2f0483360, a2cbb1603943, f5da7c45188e):
 * the ratio of this skb's payload to its truesize; when it moves, the
 * window clamp follows the buffer (tcp_set_window_clamp: at least
 * SOCK_MIN_RCVBUF / 2; rcv_ssthresh down with it, or up to min(rcv_wnd,
 * clamp)), and rcvq_space.space is kept within the clamp, or a ratio that
 * fell could hold DRS below space for good. */
#define TCP_SOCK_MIN_RCVBUF_HALF 2304        /* SOCK_MIN_RCVBUF / 2: 2 x (2048 + 256) / 2 */
void tcp_scaling_ratio_measure(struct tcp_sock *tp, uint32_t len, uint32_t truesize)
{
    uint64_t val = ((uint64_t)len << TCP_RMEM_TO_WIN_SCALE) / (truesize ? truesize : 1);
    uint8_t old = tp->scaling_ratio ? tp->scaling_ratio : TCP_DEFAULT_SCALING_RATIO;
    tp->scaling_ratio = (uint8_t)(val ? val : 1);       /* u8: a ratio of 256 or more wraps, as the kernel's */
    if (tp->scaling_ratio == old)
        return;
    uint64_t clamp = (uint64_t)tcp_win_from_space(tp, tp->sk.rcvbuf);
    if (clamp < TCP_SOCK_MIN_RCVBUF_HALF)
        clamp = TCP_SOCK_MIN_RCVBUF_HALF;
    if (clamp != tp->window_clamp) {
        uint64_t old_clamp = tp->window_clamp;
        tp->window_clamp = clamp;
        if (clamp < old_clamp) {
            if (tp->rcv_ssthresh > clamp)
                tp->rcv_ssthresh = clamp;
        } else {
            uint64_t r = tp->rcv_wnd < clamp ? tp->rcv_wnd : clamp;
            if (r > tp->rcv_ssthresh)
                tp->rcv_ssthresh = r;
        }
    }
    if (tp->window_clamp < tp->rcvq_space)
        tp->rcvq_space = tp->window_clamp;
}
