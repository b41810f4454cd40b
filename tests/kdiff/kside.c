/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kside.c - the kernel's side of the differential check: the functions
 * tests/kdiff/extract.py takes out of a Linux tree (BUILD/kdiff/k_*.inc,
 * unmodified), compiled over kshim.h and called through kside.h. Their
 * global names are renamed here so that they cannot meet netsim's own
 * dql_completed and friends at link time; the kernel's structs are copied
 * in and out of kside.h's plain ones around each call.
 */
#include "tests/kdiff/kshim.h"
#include "tests/kdiff/kside.h"
#include "k_version.h"

const char *const kd_release = KDIFF_KERNEL;
const int kd_release_code = KDIFF_KERNEL_CODE;

/* ------------------------------------------------------ lib/win_minmax.c */
#define minmax_running_max k_minmax_running_max
#define minmax_running_min k_minmax_running_min
#include "k_minmax.inc"

uint32_t kd_minmax_running_max(uint32_t s[6], uint32_t win, uint32_t t, uint32_t meas)
{
    struct minmax m;
    for (int i = 0; i < 3; i++)
        m.s[i] = (struct minmax_sample){ .t = s[2 * i], .v = s[2 * i + 1] };
    uint32_t r = minmax_running_max(&m, win, t, meas);
    for (int i = 0; i < 3; i++) {
        s[2 * i] = m.s[i].t;
        s[2 * i + 1] = m.s[i].v;
    }
    return r;
}

/* ------------------------------------------ lib/dynamic_queue_limits.c */
static unsigned long jiffies;
#define dql_completed k_dql_completed
#define dql_reset k_dql_reset
#define dql_init k_dql_init
#include "k_dql.inc"

#define DQL_FIELDS(X)                                                                                  \
    X(num_queued) X(adj_limit) X(last_obj_cnt) X(limit) X(num_completed) X(prev_ovlimit) X(prev_num_queued) \
    X(prev_last_obj_cnt) X(lowest_slack) X(slack_start_time) X(max_limit) X(min_limit) X(slack_hold_time)

static void dql_in(struct dql *k, const struct kd_dql *d)
{
#define IN(f) k->f = d->f;
    DQL_FIELDS(IN)
#undef IN
}
static void dql_out(struct kd_dql *d, const struct dql *k)
{
#define OUT(f) d->f = k->f;
    DQL_FIELDS(OUT)
#undef OUT
}

void kd_dql_init(struct kd_dql *d, uint32_t hold, unsigned long now)
{
    struct dql k = { 0 };
    jiffies = now;
    dql_init(&k, hold);
    dql_out(d, &k);
}
void kd_dql_queued(struct kd_dql *d, uint32_t count)
{
    struct dql k;
    dql_in(&k, d);
    dql_queued(&k, count);
    dql_out(d, &k);
}
int kd_dql_avail(const struct kd_dql *d)
{
    struct dql k;
    dql_in(&k, d);
    return dql_avail(&k);
}
void kd_dql_completed(struct kd_dql *d, uint32_t count, unsigned long now)
{
    struct dql k;
    dql_in(&k, d);
    jiffies = now;
    dql_completed(&k, count);
    dql_out(d, &k);
}

/* ----------------------------------------------------------------- CoDel */
#include "k_codel.inc"

uint16_t kd_codel_newton_step(uint32_t count, uint16_t rec_inv_sqrt)
{
    struct codel_vars v = { .count = count, .rec_inv_sqrt = rec_inv_sqrt };
    codel_Newton_step(&v);
    return v.rec_inv_sqrt;
}
uint32_t kd_codel_control_law(uint32_t t, uint32_t interval, uint32_t rec_inv_sqrt)
{
    return codel_control_law(t, interval, rec_inv_sqrt);
}

/* ------------------------------------------------- net/ipv4/tcp_cubic.c */
static u32 tcp_jiffies32;
/* what cubictcp_register does besides its scaling: nothing here */
#define register_btf_kfunc_id_set(type, set) 0
#define tcp_register_congestion_control(ops) 0
#include "k_cubic.inc"

void kd_cubic_register(int beta_, int bic_scale_, int tcp_friendliness_)
{
    beta = beta_;
    bic_scale = bic_scale_;
    tcp_friendliness = tcp_friendliness_;
    if (cubictcp_register() != 0)
        abort();
}
uint64_t kd_cubic_factor(void) { return cube_factor; }
uint32_t kd_cubic_root(uint64_t a) { return cubic_root(a); }

void kd_bictcp_update(struct kd_bictcp *c, uint32_t cwnd, uint32_t acked, uint32_t jiffies32)
{
    struct bictcp k = {
        .cnt = c->cnt, .last_max_cwnd = c->last_max_cwnd, .last_cwnd = c->last_cwnd, .last_time = c->last_time,
        .bic_origin_point = c->bic_origin_point, .bic_K = c->bic_K, .delay_min = c->delay_min_us,
        .epoch_start = c->epoch_start, .ack_cnt = c->ack_cnt, .tcp_cwnd = c->tcp_cwnd,
    };
    tcp_jiffies32 = jiffies32;
    bictcp_update(&k, cwnd, acked);
    *c = (struct kd_bictcp){
        .cnt = k.cnt, .last_max_cwnd = k.last_max_cwnd, .last_cwnd = k.last_cwnd, .last_time = k.last_time,
        .bic_origin_point = k.bic_origin_point, .bic_K = k.bic_K, .delay_min_us = k.delay_min,
        .epoch_start = k.epoch_start, .ack_cnt = k.ack_cnt, .tcp_cwnd = k.tcp_cwnd,
    };
}

/* ------------------------------------- tcp_bbr.c and tcp_output.c's sock */
struct sock {
    unsigned long sk_pacing_rate, sk_max_pacing_rate;
    u8 sk_pacing_shift;
    unsigned int sk_gso_max_size;
    u32 mss_cache, mtu, min_rtt_us;
};
#define tcp_sk(sk) (sk)
static inline int tcp_mss_to_mtu(struct sock *sk, int mss) { return mss == (int)sk->mss_cache ? (int)sk->mtu : -1; }
static inline u32 tcp_min_rtt(const struct sock *tp) { return tp->min_rtt_us; }
static struct {
    struct {
        u8 sysctl_tcp_tso_rtt_log;
    } ipv4;
} kd_net;
#define sock_net(sk) (&kd_net)
static int bbr_pacing_margin_percent __attribute__((unused));

#include "k_bbr.inc"
#include "k_tso.inc"

uint64_t kd_bbr_bw_to_pacing_rate(uint32_t bw, int gain, uint32_t mss_cache, uint32_t mtu, uint64_t max_pacing_rate,
                                  int margin_percent)
{
    struct sock sk = { .sk_max_pacing_rate = max_pacing_rate, .mss_cache = mss_cache, .mtu = mtu };
    bbr_pacing_margin_percent = margin_percent;
    return bbr_bw_to_pacing_rate(&sk, bw, gain);
}

uint32_t kd_tcp_tso_autosize(uint64_t pacing_rate, uint8_t pacing_shift, uint32_t gso_max_size, uint32_t min_rtt_us,
                             uint8_t tso_rtt_log, uint32_t mss, int min_tso_segs)
{
    struct sock sk = { .sk_pacing_rate = pacing_rate, .sk_pacing_shift = pacing_shift,
                       .sk_gso_max_size = gso_max_size, .min_rtt_us = min_rtt_us };
    kd_net.ipv4.sysctl_tcp_tso_rtt_log = tso_rtt_log;
    return tcp_tso_autosize(&sk, mss, min_tso_segs);
}
