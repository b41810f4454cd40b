/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cc_bbr.c - BBR v1 as in Linux 4.15 net/ipv4/tcp_bbr.c (Cardwell et al.,
 * "BBR: Congestion-Based Congestion Control", ACM Queue 2016; tcp.md §5.2).
 * A model of the path: bottleneck bandwidth = windowed max of delivery
 * rate samples over 10 rounds, min RTT = windowed min over 10 s. It paces
 * at gain x bw and caps inflight at cwnd_gain x BDP. STARTUP (gain
 * 2/ln2) until the bw stops growing 25 % for 3 rounds, DRAIN, then
 * PROBE_BW's 8-phase gain cycle, PROBE_RTT every 10 s. Loss does not lower
 * the rate; in Recovery the first round is packet-conserving.
 * Not modelled: the long-term (policer) bandwidth estimator (lt_bw), which
 * needs >= 20 % loss to engage and so never does at 1 %.
 * Units as the kernel: bw in packets per us << 24, gains << 8.
 */
#include <stdio.h>
#include "models/tcp/tcp.h"
#include "sim/arith.h"
#include "sim/sim.h"

#define BBR_SCALE 8
#define BBR_UNIT (1 << BBR_SCALE)
#define BW_SCALE 24
#define BW_UNIT (1ULL << BW_SCALE)
#define CYCLE_LEN 8
#define BW_RTTS (CYCLE_LEN + 2)
#define MIN_RTT_WIN (10 * PS_PER_S)
#define PROBE_RTT_MODE (200 * PS_PER_MS)
#define CWND_MIN_TARGET 4
#define HIGH_GAIN (BBR_UNIT * 2885 / 1000 + 1)
#define DRAIN_GAIN (BBR_UNIT * 1000 / 2885)
#define CWND_GAIN (BBR_UNIT * 2)
#define FULL_BW_THRESH (BBR_UNIT * 5 / 4)
#define FULL_BW_CNT 3

enum { BBR_STARTUP, BBR_DRAIN, BBR_PROBE_BW, BBR_PROBE_RTT };
static const int pacing_gain[CYCLE_LEN] = { BBR_UNIT * 5 / 4, BBR_UNIT * 3 / 4, BBR_UNIT, BBR_UNIT, BBR_UNIT, BBR_UNIT,
                                            BBR_UNIT, BBR_UNIT };

struct mm_sample { uint32_t t; uint64_t v; };

struct bbr {
    uint32_t min_rtt_us;
    simtime_t min_rtt_stamp, probe_rtt_done_stamp, cycle_mstamp;
    struct mm_sample bw[3];
    uint32_t rtt_cnt;
    uint64_t next_rtt_delivered;
    int mode, prev_ca_state;
    bool packet_conservation, restore_cwnd, round_start, idle_restart, probe_rtt_round_done, full_bw_reached;
    bool has_seen_rtt;
    uint32_t pacing_gain, cwnd_gain, full_bw_cnt, cycle_idx, prior_cwnd, tso_goal;
    uint64_t full_bw;
    uint64_t rng;
};
_Static_assert(sizeof(struct bbr) <= sizeof(((struct tcp_sock *)0)->cc_priv), "cc_priv too small");

static inline struct bbr *B(struct tcp_sock *tp) { return (struct bbr *)tp->cc_priv; }

/* lib/win_minmax.c: Kathleen Nichols' windowed max with three samples */
static uint64_t mm_reset(struct mm_sample *s, uint32_t t, uint64_t v)
{
    s[0] = s[1] = s[2] = (struct mm_sample){ t, v };
    return v;
}

static uint64_t mm_running_max(struct mm_sample *s, uint32_t win, uint32_t t, uint64_t v)
{
    struct mm_sample val = { t, v };
    if (v >= s[0].v || t - s[2].t > win)
        return mm_reset(s, t, v);
    if (v >= s[1].v)
        s[2] = s[1] = val;
    else if (v >= s[2].v)
        s[2] = val;
    uint32_t dt = t - s[0].t;
    if (dt > win) {
        s[0] = s[1];
        s[1] = s[2];
        s[2] = val;
        if (t - s[0].t > win) {
            s[0] = s[1];
            s[1] = s[2];
            s[2] = val;
        }
    } else if (s[1].t == s[0].t && dt > win / 4) {
        s[2] = s[1] = val;
    } else if (s[2].t == s[1].t && dt > win / 2) {
        s[2] = val;
    }
    return s[0].v;
}

static uint64_t max_bw(struct tcp_sock *tp) { return B(tp)->bw[0].v; }

/* bbr_rate_bytes_per_sec (4.15): bw in packets per us << BW_SCALE, times
 * the whole packet (tcp_mss_to_mtu: the pacing covers headers), the gain,
 * 10^6, with the kernel's shifts at the kernel's places (its u64 holds
 * the product at any rate 4.15 reaches; 128 bits here so that no rate can
 * wrap it) */
static uint64_t rate_bytes_per_sec(struct tcp_sock *tp, uint64_t bw, int gain)
{
    arith_u128 r = (arith_u128)bw * tcp_mss_to_mtu(tp);
    r = r * (unsigned)gain >> BBR_SCALE;
    r = r * 1000000 >> BW_SCALE;
    return r > UINT64_MAX ? UINT64_MAX : (uint64_t)r;
}

/* bbr_bw_to_pacing_rate: at most sk_max_pacing_rate (a u32 in 4.15) */
static uint64_t bw_to_pacing_rate(struct tcp_sock *tp, uint64_t bw, int gain)
{
    uint64_t rate = rate_bytes_per_sec(tp, bw, gain);
    return rate < TCP_MAX_PACING_RATE ? rate : TCP_MAX_PACING_RATE;
}

/* bbr_set_pacing_rate, with bbr_init_pacing_rate_from_rtt the first time
 * an RTT is known: cwnd packets per srtt (us, at least 1) at high gain */
static void set_pacing_rate(struct tcp_sock *tp, uint64_t bw, int gain)
{
    struct bbr *b = B(tp);
    uint64_t rate = bw_to_pacing_rate(tp, bw, gain);
    if (!b->has_seen_rtt && tp->srtt) {
        uint64_t rtt_us = (uint64_t)(tp->srtt / PS_PER_US);
        if (!rtt_us)
            rtt_us = 1;
        b->has_seen_rtt = true;
        uint64_t ibw = (uint64_t)tp->snd_cwnd * BW_UNIT / rtt_us;
        tp->pacing_rate = bw_to_pacing_rate(tp, ibw, HIGH_GAIN);
    }
    if (b->full_bw_reached || rate > tp->pacing_rate)
        tp->pacing_rate = rate;
}

/* bbr_set_tso_segs_goal -> tcp_tso_autosize (4.15): a millisecond of the
 * pacing rate, at most a GSO packet (the port's gso_max_size, 65536 for
 * ixgbe, less one byte and MAX_TCP_HEADER: 45 segments of 1448 bytes),
 * and at least 2 segments (1 below bbr_min_tso_rate, 1.2 Mbit/s). */
#define BBR_GSO_MAX_SIZE 65536
static void set_tso_goal(struct tcp_sock *tp)
{
    uint64_t bytes = tp->pacing_rate >> 10;
    if (bytes > BBR_GSO_MAX_SIZE - 1 - MAX_TCP_HEADER)
        bytes = BBR_GSO_MAX_SIZE - 1 - MAX_TCP_HEADER;
    uint64_t segs = bytes / tp->mss;
    if (tp->pacing_rate * 8 < 1200000)
        segs = 1;
    else if (segs < 2)
        segs = 2;
    B(tp)->tso_goal = (uint32_t)segs;
}

static uint32_t target_cwnd(struct tcp_sock *tp, uint64_t bw, int gain)
{
    struct bbr *b = B(tp);
    if (b->min_rtt_us == UINT32_MAX)
        return TCP_INIT_CWND;
    uint64_t w = bw * b->min_rtt_us;
    uint64_t cwnd = (((w * (unsigned)gain) >> BBR_SCALE) + BW_UNIT - 1) / BW_UNIT;
    cwnd += 3ULL * b->tso_goal;
    cwnd = (cwnd + 1) & ~1ULL;
    return (uint32_t)cwnd;
}

static void save_cwnd(struct tcp_sock *tp)
{
    struct bbr *b = B(tp);
    if (b->prev_ca_state < TCP_CA_Recovery && b->mode != BBR_PROBE_RTT)
        b->prior_cwnd = tp->snd_cwnd;
    else if (tp->snd_cwnd > b->prior_cwnd)
        b->prior_cwnd = tp->snd_cwnd;
}

static void advance_cycle(struct tcp_sock *tp)
{
    struct bbr *b = B(tp);
    b->cycle_idx = (b->cycle_idx + 1) & (CYCLE_LEN - 1);
    b->cycle_mstamp = tp->delivered_mstamp;
    b->pacing_gain = (uint32_t)pacing_gain[b->cycle_idx];
}

static void reset_probe_bw(struct tcp_sock *tp)
{
    struct bbr *b = B(tp);
    b->mode = BBR_PROBE_BW;
    b->pacing_gain = BBR_UNIT;
    b->cwnd_gain = CWND_GAIN;
    b->cycle_idx = CYCLE_LEN - 1 - tcp_ca_random_below(&b->rng, CYCLE_LEN - 1);
    advance_cycle(tp);
}

static void reset_startup(struct tcp_sock *tp)
{
    struct bbr *b = B(tp);
    b->mode = BBR_STARTUP;
    b->pacing_gain = HIGH_GAIN;
    b->cwnd_gain = HIGH_GAIN;
}

static void bbr_init(struct tcp_sock *tp)
{
    struct bbr *b = B(tp);
    *b = (struct bbr){ 0 };
    b->rng = tcp_ca_random_seed(tp, "bbr", 3);
    b->prior_cwnd = 0;
    tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
    b->min_rtt_us = tp->min_rtt == SIMTIME_NEVER ? UINT32_MAX : (uint32_t)(tp->min_rtt / PS_PER_US);
    b->min_rtt_stamp = ctx_now();
    b->next_rtt_delivered = 0;
    b->prev_ca_state = TCP_CA_Open;
    mm_reset(b->bw, 0, 0);
    b->tso_goal = 2;
    set_pacing_rate(tp, 0, HIGH_GAIN);
    reset_startup(tp);
    b->cycle_mstamp = ctx_now();
}

static void update_bw(struct tcp_sock *tp, const struct tcp_rate_sample *rs)
{
    struct bbr *b = B(tp);
    b->round_start = false;
    if (rs->delivered < 0 || rs->interval <= 0)
        return;
    if (rs->prior_delivered >= b->next_rtt_delivered) {
        b->next_rtt_delivered = tp->delivered;
        b->rtt_cnt++;
        b->round_start = true;
        b->packet_conservation = false;
    }
    uint64_t interval_us = (uint64_t)(rs->interval / PS_PER_US);
    if (!interval_us)
        return;
    uint64_t bw = (uint64_t)rs->delivered * BW_UNIT / interval_us;
    if (!rs->is_app_limited || bw >= max_bw(tp))
        mm_running_max(b->bw, BW_RTTS, b->rtt_cnt, bw);
}

static bool is_next_cycle_phase(struct tcp_sock *tp, const struct tcp_rate_sample *rs)
{
    struct bbr *b = B(tp);
    bool full = (tp->delivered_mstamp - b->cycle_mstamp) / PS_PER_US > b->min_rtt_us;
    if (b->pacing_gain == BBR_UNIT)
        return full;
    uint32_t inflight = rs->prior_in_flight;
    if (b->pacing_gain > BBR_UNIT)
        return full && (rs->losses || inflight >= target_cwnd(tp, max_bw(tp), (int)b->pacing_gain));
    return full || inflight <= target_cwnd(tp, max_bw(tp), BBR_UNIT);
}

static void check_full_bw(struct tcp_sock *tp, const struct tcp_rate_sample *rs)
{
    struct bbr *b = B(tp);
    if (b->full_bw_reached || !b->round_start || rs->is_app_limited)
        return;
    uint64_t thresh = b->full_bw * FULL_BW_THRESH >> BBR_SCALE;
    if (max_bw(tp) >= thresh) {
        b->full_bw = max_bw(tp);
        b->full_bw_cnt = 0;
        return;
    }
    b->full_bw_cnt++;
    b->full_bw_reached = b->full_bw_cnt >= FULL_BW_CNT;
}

static void check_drain(struct tcp_sock *tp)
{
    struct bbr *b = B(tp);
    if (b->mode == BBR_STARTUP && b->full_bw_reached) {
        b->mode = BBR_DRAIN;
        b->pacing_gain = DRAIN_GAIN;
        b->cwnd_gain = HIGH_GAIN;
        tp->snd_ssthresh = target_cwnd(tp, max_bw(tp), BBR_UNIT);
    }
    if (b->mode == BBR_DRAIN && tcp_in_flight(tp) <= target_cwnd(tp, max_bw(tp), BBR_UNIT))
        reset_probe_bw(tp);
}

static void update_min_rtt(struct tcp_sock *tp, const struct tcp_rate_sample *rs)
{
    struct bbr *b = B(tp);
    simtime_t now = ctx_now();
    bool expired = now > b->min_rtt_stamp + MIN_RTT_WIN;
    if (rs->rtt_us >= 0 && ((uint64_t)rs->rtt_us <= b->min_rtt_us || expired)) {
        b->min_rtt_us = (uint32_t)rs->rtt_us;
        b->min_rtt_stamp = now;
    }
    if (expired && !b->idle_restart && b->mode != BBR_PROBE_RTT) {
        b->mode = BBR_PROBE_RTT;
        b->pacing_gain = BBR_UNIT;
        b->cwnd_gain = BBR_UNIT;
        save_cwnd(tp);
        b->probe_rtt_done_stamp = 0;
    }
    if (b->mode == BBR_PROBE_RTT) {
        tp->app_limited = (tp->delivered + tcp_in_flight(tp)) ? tp->delivered + tcp_in_flight(tp) : 1;
        if (!b->probe_rtt_done_stamp && tcp_in_flight(tp) <= CWND_MIN_TARGET) {
            b->probe_rtt_done_stamp = now + PROBE_RTT_MODE;
            b->probe_rtt_round_done = false;
            b->next_rtt_delivered = tp->delivered;
        } else if (b->probe_rtt_done_stamp) {
            if (b->round_start)
                b->probe_rtt_round_done = true;
            if (b->probe_rtt_round_done && now > b->probe_rtt_done_stamp) {
                b->min_rtt_stamp = now;
                b->restore_cwnd = true;
                if (b->full_bw_reached)
                    reset_probe_bw(tp);
                else
                    reset_startup(tp);
            }
        }
    }
    b->idle_restart = false;
}

static void set_cwnd(struct tcp_sock *tp, const struct tcp_rate_sample *rs, uint32_t acked, uint64_t bw, int gain)
{
    struct bbr *b = B(tp);
    if (!acked)
        return;
    uint32_t cwnd = tp->snd_cwnd;
    int state = tp->ca_state;
    if (rs->losses > 0)
        cwnd = cwnd > rs->losses + 1 ? cwnd - rs->losses : 1;
    if (state == TCP_CA_Recovery && b->prev_ca_state != TCP_CA_Recovery) {
        b->packet_conservation = true;
        b->next_rtt_delivered = tp->delivered;
        cwnd = tcp_in_flight(tp) + acked;
    } else if (b->prev_ca_state >= TCP_CA_Recovery && state < TCP_CA_Recovery) {
        b->restore_cwnd = true;
        b->packet_conservation = false;
    }
    b->prev_ca_state = state;
    if (b->restore_cwnd) {
        if (b->prior_cwnd > cwnd)
            cwnd = b->prior_cwnd;
        b->restore_cwnd = false;
    }
    if (b->packet_conservation) {
        uint32_t m = tcp_in_flight(tp) + acked;
        cwnd = cwnd > m ? cwnd : m;
    } else {
        uint32_t target = target_cwnd(tp, bw, gain);
        if (b->full_bw_reached)
            cwnd = cwnd + acked < target ? cwnd + acked : target;
        else if (cwnd < target || tp->delivered < TCP_INIT_CWND)
            cwnd = cwnd + acked;
        if (cwnd < CWND_MIN_TARGET)
            cwnd = CWND_MIN_TARGET;
    }
    tp->snd_cwnd = cwnd < tp->snd_cwnd_clamp ? cwnd : tp->snd_cwnd_clamp;
    if (b->mode == BBR_PROBE_RTT && tp->snd_cwnd > CWND_MIN_TARGET)
        tp->snd_cwnd = CWND_MIN_TARGET;
}

static void bbr_main(struct tcp_sock *tp, const struct tcp_rate_sample *rs)
{
    struct bbr *b = B(tp);
    update_bw(tp, rs);
    if (b->mode == BBR_PROBE_BW && is_next_cycle_phase(tp, rs))
        advance_cycle(tp);
    check_full_bw(tp, rs);
    check_drain(tp);
    update_min_rtt(tp, rs);
    uint64_t bw = max_bw(tp);
    set_pacing_rate(tp, bw, (int)b->pacing_gain);
    set_tso_goal(tp);
    set_cwnd(tp, rs, rs->acked_sacked, bw, (int)b->cwnd_gain);
}

static uint32_t bbr_ssthresh(struct tcp_sock *tp)
{
    save_cwnd(tp);
    return TCP_INFINITE_SSTHRESH;
}

static uint32_t bbr_undo(struct tcp_sock *tp)
{
    struct bbr *b = B(tp);
    b->full_bw = 0;
    b->full_bw_cnt = 0;
    return tp->snd_cwnd;
}

static void bbr_set_state(struct tcp_sock *tp, int st)
{
    struct bbr *b = B(tp);
    if (st == TCP_CA_Loss) {
        b->prev_ca_state = TCP_CA_Loss;
        b->full_bw = 0;
        b->round_start = true;
    }
}

static void bbr_trace(struct tcp_sock *tp, const char *prefix)
{
    char name[96];
    struct bbr *b = B(tp);
    snprintf(name, sizeof name, "%sbbr_mode", prefix);
    sim_series(tp->sim, name, b->mode);
    snprintf(name, sizeof name, "%sbbr_max_bw_bps", prefix);
    sim_series(tp->sim, name, (double)rate_bytes_per_sec(tp, max_bw(tp), BBR_UNIT) * 8);
    snprintf(name, sizeof name, "%sbbr_cycle_idx", prefix);
    sim_series(tp->sim, name, b->cycle_idx);
}

static void bbr_cong_avoid(struct tcp_sock *tp, uint32_t acked) { (void)tp; (void)acked; }

/* bbr_tso_segs_goal: what bbr_set_tso_segs_goal last chose */
static uint32_t bbr_tso_segs_goal(struct tcp_sock *tp) { return B(tp)->tso_goal; }

/* bbr_get_info: ss -i's bbr:(bw:...,mrtt:...,pacing_gain:...,cwnd_gain:...) */
static void bbr_get_info(struct tcp_sock *tp, struct tcp_cc_info *info)
{
    const struct bbr *b = B(tp);
    info->kind = TCP_CC_INFO_BBR;
    info->u.bbr.bw_bytes_per_s = max_bw(tp) * tp->mss * 1000000 >> BW_SCALE;
    info->u.bbr.min_rtt_us = b->min_rtt_us;
    info->u.bbr.pacing_gain = b->pacing_gain;
    info->u.bbr.cwnd_gain = b->cwnd_gain;
}

const struct tcp_cc_ops tcp_bbr = {
    .name = "bbr",
    .doc = "BBR v1 (tcp_bbr.c, 4.15): paced at gain x max_bw, inflight <= 2 BDP; no lt_bw policer mode",
    .init = bbr_init,
    .ssthresh = bbr_ssthresh,
    .cong_avoid = bbr_cong_avoid,
    .cong_control = bbr_main,
    .undo_cwnd = bbr_undo,
    .set_state = bbr_set_state,
    .tso_segs_goal = bbr_tso_segs_goal,
    .get_info = bbr_get_info,
    .trace = bbr_trace,
};
VARIANT("tcp.cc", tcp_bbr);
