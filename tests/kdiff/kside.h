/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kside.h - the kernel's functions as the differential check calls them
 * (kside.c compiles them from a Linux tree; tests/kdiff/kdiff.c compares
 * them with netsim's ports). Plain types only: the kernel's structs stay
 * inside kside.c, copied in and out field by field.
 */
#ifndef NETSIM_KDIFF_KSIDE_H
#define NETSIM_KDIFF_KSIDE_H

#include <stdint.h>

/* the tree's release, "6.1.192", and VERSION x 65536 + PATCHLEVEL x 256 */
extern const char *const kd_release;
extern const int kd_release_code;

/* lib/win_minmax.c: s is the three samples, t and v for each */
uint32_t kd_minmax_running_max(uint32_t s[6], uint32_t win, uint32_t t, uint32_t meas);

/* lib/dynamic_queue_limits.c */
struct kd_dql {
    uint32_t num_queued, adj_limit, last_obj_cnt, limit, num_completed;
    uint32_t prev_ovlimit, prev_num_queued, prev_last_obj_cnt, lowest_slack;
    uint64_t slack_start_time;
    uint32_t max_limit, min_limit, slack_hold_time;
};
void kd_dql_init(struct kd_dql *d, uint32_t hold, unsigned long now);
void kd_dql_queued(struct kd_dql *d, uint32_t count);
int kd_dql_avail(const struct kd_dql *d);
void kd_dql_completed(struct kd_dql *d, uint32_t count, unsigned long now);

/* include/net/codel_impl.h */
uint16_t kd_codel_newton_step(uint32_t count, uint16_t rec_inv_sqrt);
uint32_t kd_codel_control_law(uint32_t t, uint32_t interval, uint32_t rec_inv_sqrt);

/* net/ipv4/tcp_cubic.c: the module's load-time scaling (beta, bic_scale
 * as module parameters), then cubic_root and bictcp_update on a state of
 * the struct bictcp fields netsim keeps (delay_min in us, as 6.1 has it) */
void kd_cubic_register(int beta, int bic_scale, int tcp_friendliness);
uint64_t kd_cubic_factor(void);
uint32_t kd_cubic_root(uint64_t a);
struct kd_bictcp {
    uint32_t cnt, last_max_cwnd, last_cwnd, last_time, bic_origin_point, bic_K, delay_min_us, epoch_start;
    uint32_t ack_cnt, tcp_cwnd;
};
void kd_bictcp_update(struct kd_bictcp *ca, uint32_t cwnd, uint32_t acked, uint32_t jiffies32);

/* net/ipv4/tcp_bbr.c: bbr_bw_to_pacing_rate with the socket's mss_cache,
 * the packet tcp_mss_to_mtu makes of it (the release before the margin
 * multiplies by that), sk_max_pacing_rate and the pacing margin in
 * percent (the releases that have it) */
uint64_t kd_bbr_bw_to_pacing_rate(uint32_t bw, int gain, uint32_t mss_cache, uint32_t mtu, uint64_t max_pacing_rate,
                                  int margin_percent);

/* net/ipv4/tcp_output.c: tcp_tso_autosize */
uint32_t kd_tcp_tso_autosize(uint64_t pacing_rate, uint8_t pacing_shift, uint32_t gso_max_size, uint32_t min_rtt_us,
                             uint8_t tso_rtt_log, uint32_t mss, int min_tso_segs);

#endif
