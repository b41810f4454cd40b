/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cc_cubic.c - CUBIC with HyStart (Linux 4.15 net/ipv4/tcp_cubic.c; Ha,
 * Rhee, Xu 2008; RFC 8312). W(t) = C (t - K)^3 + W_max with C = 0.4
 * (bic_scale 41), beta = 717/1024, a Reno-friendly floor, fast
 * convergence; HyStart leaves slow start on an ACK train longer than half
 * the minimum delay or on a delay rise. Times in ms ("jiffies" at HZ 1000),
 * delay_min in ms << 3, as in 4.15.
 *
 * tcp_cubic's module parameters are its keys, tcp.cc.cubic.NAME, with the
 * module's defaults: beta, bic_scale, fast_convergence, tcp_friendliness,
 * initial_ssthresh, hystart, hystart_detect, hystart_low_window,
 * hystart_ack_delta. What the module computes from them at load
 * (beta_scale, cube_rtt_scale, cube_factor) is computed from the host's.
 */
#include "models/tcp/cc_cubic.h"
#include "models/tcp/tcp.h"
#include "sim/arith.h"

#define BETA_SCALE 1024
#define BICTCP_HZ 10
#define HYSTART_MIN_SAMPLES 8
#define HYSTART_ACK_TRAIN 1
#define HYSTART_DELAY 2

enum { K_FAST_CONVERGENCE, K_BETA, K_INITIAL_SSTHRESH, K_BIC_SCALE, K_TCP_FRIENDLINESS, K_HYSTART, K_HYSTART_DETECT,
       K_HYSTART_LOW_WINDOW, K_HYSTART_ACK_DELTA };
static const struct variant_key cubic_keys[] = {
    [K_FAST_CONVERGENCE] = { "fast_convergence", "1", 0, 1,
                             "turn on/off fast convergence (tcp_cubic.fast_convergence; Linux 4.15 default 1)" },
    [K_BETA] = { "beta", "717", 1, BETA_SCALE - 1,
                 "multiplicative decrease factor x 1024: ssthresh = cwnd x beta / 1024 (tcp_cubic.beta; default 717)" },
    [K_INITIAL_SSTHRESH] = { "initial_ssthresh", "0", 0, INT32_MAX,
                             "initial slow start threshold in packets when hystart is off, 0: none "
                             "(tcp_cubic.initial_ssthresh; default 0)" },
    [K_BIC_SCALE] = { "bic_scale", "41", 1, 1023,
                      "cubic scale C = bic_scale x 10 / 1024 (tcp_cubic.bic_scale; default 41, C = 0.4)" },
    [K_TCP_FRIENDLINESS] = { "tcp_friendliness", "1", 0, 1,
                             "turn on/off the Reno-friendly floor (tcp_cubic.tcp_friendliness; default 1)" },
    [K_HYSTART] = { "hystart", "1", 0, 1, "turn on/off hybrid slow start (tcp_cubic.hystart; default 1)" },
    [K_HYSTART_DETECT] = { "hystart_detect", "3", 0, 3,
                           "hybrid slow start's signals: 1 ACK train, 2 delay, 3 both (tcp_cubic.hystart_detect; "
                           "default 3)" },
    [K_HYSTART_LOW_WINDOW] = { "hystart_low_window", "16", 0, INT32_MAX,
                               "cwnd in packets below which hybrid slow start stays off "
                               "(tcp_cubic.hystart_low_window; default 16)" },
    [K_HYSTART_ACK_DELTA] = { "hystart_ack_delta", "2", 0, 1000,
                              "ms between ACKs that still make a train (tcp_cubic.hystart_ack_delta; default 2)" },
    { NULL, NULL, 0, 0, NULL },
};

struct cubic {
    uint32_t cnt, last_max_cwnd, last_cwnd, last_time, bic_origin_point, bic_K, delay_min, epoch_start;
    uint32_t ack_cnt, tcp_cwnd;
    uint8_t sample_cnt, found;
    uint32_t round_start, last_ack, curr_rtt;
    uint64_t end_seq;
};
_Static_assert(sizeof(struct cubic) <= sizeof(((struct tcp_sock *)0)->cc_priv), "cc_priv too small");

static inline struct cubic *ca(struct tcp_sock *tp) { return (struct cubic *)tp->cc_priv; }
static inline uint32_t jiffies(struct tcp_sock *tp) { return (uint32_t)(ctx_now() / PS_PER_MS) + 1; (void)tp; }

static inline uint32_t key(const struct tcp_sock *tp, int k) { return (uint32_t)tcp_cc_key(tp, k); }

/* cubictcp_register's beta_scale, from the host's beta */
static uint32_t beta_scale(const struct tcp_sock *tp)
{
    uint32_t beta = key(tp, K_BETA);
    return 8 * (BETA_SCALE + beta) / 3 / (BETA_SCALE - beta);
}

/* bictcp_reset: everything, delay_min and the HyStart state included */
static void reset(struct cubic *c)
{
    *c = (struct cubic){ 0 };
}

static void hystart_reset(struct tcp_sock *tp)
{
    struct cubic *c = ca(tp);
    c->round_start = c->last_ack = jiffies(tp);
    c->end_seq = tp->snd_nxt;
    c->curr_rtt = 0;
    c->sample_cnt = 0;
}

static void cubic_init(struct tcp_sock *tp)
{
    reset(ca(tp));
    if (key(tp, K_HYSTART))
        hystart_reset(tp);
    if (!key(tp, K_HYSTART) && key(tp, K_INITIAL_SSTHRESH))
        tp->snd_ssthresh = key(tp, K_INITIAL_SSTHRESH);
}

/*
 * tcp_cubic.c's cubic_root, as Linux 4.15 has it (and 6.1, unchanged): a
 * first guess from a table of 64 cube roots, then one Newton-Raphson
 * step in integer arithmetic. Its result is up to ~0.2 % off the real
 * root, either side, and K must be what the kernel computes, not the
 * real root: libm's cbrt gave another K for 98 % of windows, so each
 * epoch's curve, and every window it set, parted from the kernel's
 * (`make check-kdiff` compares them, K for every window to 10^6).
 *
 * The table: entry x is about 64 x cbrt(x) - 1, i.e. the cube root of a
 * 6-bit number in 1/64, as Willy Tarreau tuned it by hand for the kernel;
 * the values are the kernel's, since the rounding of K depends on them.
 */
static const uint8_t cbrt_seed[64] = {
    0,   54,  54,  54,  118, 118, 118, 118, 123, 129, 134, 138, 143, 147, 151, 156,
    157, 161, 164, 168, 170, 173, 176, 179, 181, 185, 187, 190, 192, 194, 197, 199,
    200, 202, 204, 206, 209, 211, 213, 215, 217, 219, 221, 222, 224, 225, 227, 229,
    231, 232, 234, 236, 237, 239, 240, 242, 244, 245, 246, 248, 250, 251, 252, 254,
};

uint32_t tcp_cubic_root(uint64_t a)
{
    /* fls64: the number of a's significant bits */
    uint32_t bits = a ? 64 - (uint32_t)__builtin_clzll(a) : 0;
    /* a in [0, 63]: the table's entry, rounded to a whole root */
    if (bits < 7)
        return ((uint32_t)cbrt_seed[a] + 35) >> 6;
    /* shift a right by 3 x b, b about bits / 3 - 1 (84 / 256 for 1 / 3),
     * which leaves its top bits, under 64; the root of those, scaled back
     * by 2^b, is the first guess. Nothing here wraps or divides by 0, for
     * any 64-bit a: the guess is 4 to 2719744, a / (x (x - 1)) under 2^22
     * and (2x + that) x 341 at most 2.71 x 10^9 (each of the table's 64
     * ranges at each of 7 to 64 bits worked at its ends, where they peak) */
    uint32_t b = ((bits * 84) >> 8) - 1;
    uint32_t top = (uint32_t)(a >> (b * 3));
    uint32_t x = (((uint32_t)cbrt_seed[top] + 10) << b) >> 6;
    /* one Newton step, x' = (2x + a / x^2) / 3, in the kernel's terms:
     * x (x - 1) for x^2 (in 64 bits), then x 341 / 1024 for the third */
    x = 2 * x + (uint32_t)(a / ((uint64_t)x * (x - 1)));
    return (x * 341) >> 10;
}

uint32_t tcp_cubic_k_scale(uint32_t below, uint32_t bic_scale)
{
    /* cubictcp_register's cube_factor, 2^(10 + 3 BICTCP_HZ) / (bic_scale
     * x 10), an integer division as do_div makes it (2681735677 at 41) */
    uint64_t cube_factor = (1ULL << (10 + 3 * BICTCP_HZ)) / (bic_scale * 10);
    /* bictcp_update's K = cubic_root(cube_factor x (W_max - cwnd)), with
     * the kernel's u64 product: it wraps past 2^64, as the kernel's does,
     * only with bic_scale under 26 and a window more than 1.6 x 10^8
     * packets under W_max (tcp_cubic.c is designed for under 10^6) */
    return tcp_cubic_root(wrap_mul_u64(cube_factor, below));
}

uint32_t tcp_cubic_target_scale(uint32_t origin, uint32_t k, uint64_t t, uint32_t bic_scale)
{
    uint32_t cube_rtt_scale = bic_scale * 10;
    uint64_t offs = t < k ? k - t : t - k;
    uint32_t delta = (uint32_t)((cube_rtt_scale * offs * offs * offs) >> (10 + 3 * BICTCP_HZ));
    return t < k ? origin - delta : origin + delta;
}

static void update(struct tcp_sock *tp, struct cubic *c, uint32_t cwnd, uint32_t acked)
{
    uint32_t now = jiffies(tp);
    c->ack_cnt += acked;
    if (c->last_cwnd == cwnd && (int32_t)(now - c->last_time) <= 1000 / 32)
        return;
    if (c->epoch_start && now == c->last_time)
        goto friendliness;
    c->last_cwnd = cwnd;
    c->last_time = now;
    if (c->epoch_start == 0) {
        c->epoch_start = now;
        c->ack_cnt = acked;
        c->tcp_cwnd = cwnd;
        if (c->last_max_cwnd <= cwnd) {
            c->bic_K = 0;
            c->bic_origin_point = cwnd;
        } else {
            c->bic_K = tcp_cubic_k_scale(c->last_max_cwnd - cwnd, key(tp, K_BIC_SCALE));
            c->bic_origin_point = c->last_max_cwnd;
        }
    }
    uint64_t t = (uint64_t)(int32_t)(now - c->epoch_start);
    t += c->delay_min >> 3;
    t = (t << BICTCP_HZ) / 1000;
    uint32_t target = tcp_cubic_target_scale(c->bic_origin_point, c->bic_K, t, key(tp, K_BIC_SCALE));
    if (target > cwnd)
        c->cnt = cwnd / (target - cwnd);
    else
        c->cnt = 100 * cwnd;
    if (c->last_max_cwnd == 0 && c->cnt > 20)
        c->cnt = 20;
friendliness:
    if (key(tp, K_TCP_FRIENDLINESS)) {
        uint32_t d = (cwnd * beta_scale(tp)) >> 3;
        while (d && c->ack_cnt > d) {
            c->ack_cnt -= d;
            c->tcp_cwnd++;
        }
        if (c->tcp_cwnd > cwnd) {
            uint32_t max_cnt = cwnd / (c->tcp_cwnd - cwnd);
            if (c->cnt > max_cnt)
                c->cnt = max_cnt;
        }
    }
    if (c->cnt < 2)
        c->cnt = 2;
}

static void cubic_cong_avoid(struct tcp_sock *tp, uint32_t acked)
{
    struct cubic *c = ca(tp);
    if (tcp_in_slow_start(tp)) {
        if (key(tp, K_HYSTART) && tp->snd_una > c->end_seq)
            hystart_reset(tp);
        acked = tcp_slow_start(tp, acked);
        if (!acked)
            return;
    }
    update(tp, c, tp->snd_cwnd, acked);
    tcp_cong_avoid_ai(tp, c->cnt, acked);
}

static uint32_t cubic_ssthresh(struct tcp_sock *tp)
{
    struct cubic *c = ca(tp);
    c->epoch_start = 0;
    uint32_t beta = key(tp, K_BETA);
    if (tp->snd_cwnd < c->last_max_cwnd && key(tp, K_FAST_CONVERGENCE))
        c->last_max_cwnd = (tp->snd_cwnd * (BETA_SCALE + beta)) / (2 * BETA_SCALE);
    else
        c->last_max_cwnd = tp->snd_cwnd;
    uint32_t s = (uint32_t)(((uint64_t)tp->snd_cwnd * beta) / BETA_SCALE);
    return s > 2 ? s : 2;
}

static void cubic_state(struct tcp_sock *tp, int st)
{
    if (st == TCP_CA_Loss) {
        reset(ca(tp));
        hystart_reset(tp);
    }
}

static void hystart_update(struct tcp_sock *tp, uint32_t delay)
{
    struct cubic *c = ca(tp);
    uint32_t detect = key(tp, K_HYSTART_DETECT);
    if (c->found & detect)
        return;
    uint32_t now = jiffies(tp);
    if ((detect & HYSTART_ACK_TRAIN) && (int32_t)(now - c->last_ack) <= (int32_t)key(tp, K_HYSTART_ACK_DELTA)) {
        c->last_ack = now;
        if ((int32_t)(now - c->round_start) > (int32_t)(c->delay_min >> 4)) {
            c->found |= HYSTART_ACK_TRAIN;
            tp->snd_ssthresh = tp->snd_cwnd;
        }
    }
    if (!(detect & HYSTART_DELAY))
        return;
    if (c->sample_cnt < HYSTART_MIN_SAMPLES) {
        if (c->curr_rtt == 0 || c->curr_rtt > delay)
            c->curr_rtt = delay;
        c->sample_cnt++;
    } else {
        uint32_t th = c->delay_min >> 3;
        th = th < (4U << 3) ? (4U << 3) : th > (16U << 3) ? (16U << 3) : th;
        if (c->curr_rtt > c->delay_min + th) {
            c->found |= HYSTART_DELAY;
            tp->snd_ssthresh = tp->snd_cwnd;
        }
    }
}

static void cubic_acked(struct tcp_sock *tp, const struct tcp_ack_sample *sample)
{
    struct cubic *c = ca(tp);
    int64_t rtt_us = sample->rtt_us;
    if (rtt_us < 0)
        return;
    if (c->epoch_start && (int32_t)(jiffies(tp) - c->epoch_start) < 1000)
        return;
    uint32_t delay = (uint32_t)((rtt_us << 3) / 1000);
    if (!delay)
        delay = 1;
    if (!c->delay_min || c->delay_min > delay)
        c->delay_min = delay;
    if (key(tp, K_HYSTART) && tcp_in_slow_start(tp) && tp->snd_cwnd >= key(tp, K_HYSTART_LOW_WINDOW))
        hystart_update(tp, delay);
}

static uint32_t cubic_undo(struct tcp_sock *tp)
{
    return tp->snd_cwnd > tp->prior_cwnd ? tp->snd_cwnd : tp->prior_cwnd;
}

const struct tcp_cc_ops tcp_cubic = {
    .name = "cubic",
    .doc = "CUBIC with HyStart (tcp_cubic.c, 4.15): the Linux default",
    .keys = cubic_keys,
    .init = cubic_init,
    .ssthresh = cubic_ssthresh,
    .cong_avoid = cubic_cong_avoid,
    .undo_cwnd = cubic_undo,
    .set_state = cubic_state,
    .pkts_acked = cubic_acked,
};
VARIANT("tcp.cc", tcp_cubic);
