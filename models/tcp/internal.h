/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * internal.h - what the files of the tcp engine call in each other
 * (tcp_ack.c, tcp_cong.c, tcp_recovery.c, tcp_input.c, tcp_output.c,
 * tcp_sock.c, module.c); not for variants, which see only tcp.h.
 */
#ifndef NETSIM_MODELS_TCP_INTERNAL_H
#define NETSIM_MODELS_TCP_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "models/tcp/tcp.h"
#include "sim/arith.h"
#include "sim/invariant.h"

/* The scoreboard's counters: each within packets_out, and (walking the
 * segments: tcp_check_scoreboard) equal to the count of their flags. */
#define SCOREBOARD_OK(tp)                                                                               \
    do {                                                                                                \
        INVARIANT((tp)->packets_out == (tp)->nxt_idx - (tp)->una_idx);                                 \
        INVARIANT((tp)->sacked_out + (tp)->lost_unretx <= (tp)->packets_out &&                          \
                  (tp)->lost_out <= (tp)->packets_out && (tp)->retrans_out <= (tp)->packets_out &&      \
                  (tp)->lost_unretx <= (tp)->lost_out);                                                 \
        INVARIANT_SUM((tp)->packets_out, tcp_check_scoreboard(tp) == 0);                                \
    } while (0)

/* What one ACK found, for the files that act on it */
struct ack_ctx {
    simtime_t now;
    uint32_t acked_sacked;
    uint32_t losses;
    bool retrans_acked, lost_retrans;
    simtime_t first_ackt, last_ackt;     /* cumulative, never retransmitted: oldest / newest tx */
    simtime_t first_sackt, last_sackt;
    struct tcp_rate_sample *rs;
    uint64_t p_delivered;                /* rate: stamp of the newest delivered */
    bool have_p;
    uint32_t last_in_flight;             /* tx.in_flight of the newest cumulatively ACKed original */
    bool orig_acked;                     /* FLAG_ORIG_SACK_ACKED: data not retransmitted since a timeout */
    bool newly_sacked;                   /* FLAG_DATA_SACKED */
    bool dsack;                          /* FLAG_DSACKING_ACK */
    int64_t reord;                       /* lowest original newly SACKed below the highest, -1: none */
    int64_t prior_highest;               /* highest_sack before this ACK */
};

/* tcp_short.c: writes that end inside a slot. A write of `bytes`
 * (whole slots, the last short); the payload of slots idx .. idx+n-1 on
 * the wire; the run cut so that a short slot ends it (an skb ends with
 * its partial segment); Nagle's cut of a run at the queue's tail; the
 * Minshall update after sending new data. */
void tcp_write_bytes(struct tcp_sock *tp, uint64_t bytes);
uint32_t tcp_slots_payload_short(struct tcp_sock *tp, uint64_t idx, uint32_t n);
uint32_t tcp_slots_cut_short(struct tcp_sock *tp, uint64_t idx, uint32_t n);
uint32_t tcp_nagle_cut_short(struct tcp_sock *tp, uint64_t idx, uint32_t n);
void tcp_short_free(struct tcp_sock *tp);
/* A flow that never wrote a short slot (every bulk flow) pays a test of
 * shorts_n per run sent, in line, and no call. */
static inline uint32_t tcp_slots_payload(struct tcp_sock *tp, uint64_t idx, uint32_t n)
{
    return tp->shorts_n ? tcp_slots_payload_short(tp, idx, n) : n * tp->mss;
}
static inline uint32_t tcp_slots_cut(struct tcp_sock *tp, uint64_t idx, uint32_t n)
{
    return tp->shorts_n ? tcp_slots_cut_short(tp, idx, n) : n;
}
static inline uint32_t tcp_nagle_cut(struct tcp_sock *tp, uint64_t idx, uint32_t n)
{
    return tp->shorts_n && !tp->nodelay ? tcp_nagle_cut_short(tp, idx, n) : n;
}
static inline void tcp_short_sent(struct tcp_sock *tp, uint64_t idx, uint32_t n, uint32_t payload)
{
    /* tcp_minshall_update: skb->len < pcount x mss */
    if (payload < (uint64_t)n * tp->mss)
        tp->snd_sml = 1 + (idx + n) * tp->mss;
}

/* tcp_sack_out.c: the SACK blocks the receiver sends; a D-SACK for a
 * range received twice, set or widened */
void tcp_dsack_set(struct tcp_sock *tp, uint64_t seq, uint64_t end);
void tcp_dsack_extend(struct tcp_sock *tp, uint64_t seq, uint64_t end);
void tcp_sack_new_ofo(struct tcp_sock *tp, uint64_t seq, uint64_t end);
void tcp_sack_remove(struct tcp_sock *tp);

/* tcp_ack.c: an ACK in, the scoreboard and RTT */
void tcp_ack(struct tcp_sock *tp, const struct tcp_hdr *th, struct core *c);
void tcp_rtt_sample(struct tcp_sock *tp, simtime_t m);

/* tcp_loss.c: loss marking and reordering */
void tcp_mark_lost(struct tcp_sock *tp, uint64_t idx, struct ack_ctx *a);
void tcp_rack_detect_loss(struct tcp_sock *tp, simtime_t now, struct ack_ctx *a);
void tcp_mark_head_lost(struct tcp_sock *tp, struct ack_ctx *a);
void tcp_rack_timeout(struct tcp_sock *tp, simtime_t now);
/* tcp_update_pacing_rate (4.15) in its own units: mss x (10^4 << 3) x
 * ratio % x max(cwnd, packets_out) / srtt_us, srtt_us being the smoothed
 * RTT in us x 8; the ratio is 200 % in slow start (below half ssthresh),
 * 120 % after (tcp_pacing_ss_ratio, tcp_pacing_ca_ratio). The product is
 * exact in 128 bits (the kernel's u64 holds it to a cwnd of 8 x 10^8 at
 * mss 1448); the result is capped at sk_max_pacing_rate, ~0U: 4.15's
 * sk_pacing_rate is a u32 (unsigned long since 4.20, 76a9ebe811fb).
 * Bytes per second. */
#define TCP_PACING_SS_RATIO 200
#define TCP_PACING_CA_RATIO 120
static inline uint64_t tcp_cwnd_pacing_rate(const struct tcp_sock *tp)
{
    uint64_t srtt_us = (uint64_t)tp->srtt / (PS_PER_US / 8);
    uint64_t per_pkt = (uint64_t)tp->mss * ((1000000 / 100) << 3) *
                       (tp->snd_cwnd < tp->snd_ssthresh / 2 ? TCP_PACING_SS_RATIO : TCP_PACING_CA_RATIO);
    uint64_t pkts = tp->snd_cwnd > tp->packets_out ? tp->snd_cwnd : tp->packets_out;
    uint64_t rate = mul_div_u64_sat(per_pkt, pkts, srtt_us ? srtt_us : 1);
    return rate < TCP_MAX_PACING_RATE ? rate : TCP_MAX_PACING_RATE;
}
void tcp_update_reordering(struct tcp_sock *tp, uint64_t metric);
void tcp_rack_update_reo_wnd(struct tcp_sock *tp, const struct tcp_rate_sample *rs);

/* tcp_cong.c: the tcp.cc family, and the engine's calls into a cc's
 * ops other than the per-ACK ones (tcp_ack.c) */
extern const struct variant_family tcp_cc_family;
void tcp_init_congestion_control(struct tcp_sock *tp);
void tcp_cleanup_congestion_control(struct tcp_sock *tp);
void tcp_set_ca_state(struct tcp_sock *tp, int st);
void tcp_ca_event(struct tcp_sock *tp, int ev);

/* tcp_recovery.c: the congestion states */
void tcp_enter_recovery(struct tcp_sock *tp, bool ece);
void tcp_enter_cwr(struct tcp_sock *tp);
void tcp_cwnd_reduction(struct tcp_sock *tp, uint32_t acked_sacked, bool retrans_acked, bool lost_retrans);
void tcp_end_cwnd_reduction(struct tcp_sock *tp);
void tcp_enter_loss(struct tcp_sock *tp, simtime_t now);
bool tcp_any_retrans_done(const struct tcp_sock *tp);
void tcp_recovery_done(struct tcp_sock *tp, uint32_t tsecr);
bool tcp_try_undo_partial(struct tcp_sock *tp, uint32_t tsecr);
void tcp_try_undo_dsack(struct tcp_sock *tp);
void tcp_process_loss(struct tcp_sock *tp, uint32_t tsecr, bool una_moved, bool orig_acked, bool sacked_or_dup,
                      bool can_send_new);

/* tcp_input.c: data in */
void tcp_enter_quickack_mode(struct tcp_sock *tp);
void tcp_data(struct tcp_sock *tp, const struct tcp_hdr *th, struct skb *skb, struct core *c);
/* What rmem_alloc must equal: the truesize of rq and ofo's records. */
uint64_t tcp_queued_truesize(const struct tcp_sock *tp);

/* tcp_ecn.c: ECN's handshake, marks and echoes (the engine calls these
 * only for a socket with ecn_flags or a cc that needs ECN) */
void tcp_ecn_rcv_syn(struct tcp_sock *child, const struct tcp_hdr *th, const struct skb *skb);
void tcp_ecn_rcv_synack(struct tcp_sock *tp, const struct tcp_hdr *th);
void tcp_ecn_xmit(struct tcp_sock *tp, struct skb *skb, struct tcp_hdr *th, bool fresh);
void tcp_ecn_check_ce(struct tcp_sock *tp, uint8_t ecn);

/* tcp_kernel.c: the [host] kernel profiles, read and recorded; the
 * defaults they give the keys that differ between releases */
struct kernel_profile;
struct cfg_section;
const struct kernel_profile *tcp_kernel_profile(struct cfg_section *sec);
const char *tcp_kernel_drs(const struct kernel_profile *kp);
const char *tcp_kernel_win_from_space(const struct kernel_profile *kp);
const char *tcp_kernel_loss_detection(const struct kernel_profile *kp);
const char *tcp_kernel_dctcp_ack(const struct kernel_profile *kp);
const char *tcp_kernel_init_rcvbuf(const struct kernel_profile *kp);
const char *tcp_kernel_tcp_rmem(const struct kernel_profile *kp);
const char *tcp_kernel_tsq_limit(const struct kernel_profile *kp);
const char *tcp_kernel_limit_output_bytes(const struct kernel_profile *kp);

/* tcp_output.c: segments and ACKs out, the timers that send */
void tcp_send_ack(struct tcp_sock *tp, struct core *c);
void tcp_send_syn(struct tcp_sock *tp, struct core *c, bool ack);
void tcp_send_delayed_ack(struct tcp_sock *tp, struct core *c);
void tcp_send_loss_probe(struct tcp_sock *tp, struct core *c);
void tcp_schedule_loss_probe(struct tcp_sock *tp, simtime_t now);
/* tcp_tlp.c: when a loss probe may be armed and after how long, by the
 * host's tcp.loss_detection (4.15's rule or 6.1's) */
bool tcp_tlp_state_ok(const struct tcp_sock *tp);
simtime_t tcp_tlp_timeout(const struct tcp_sock *tp);
void tcp_rearm_rto(struct tcp_sock *tp, simtime_t now);
void tcp_ts_unlink(struct tcp_sock *tp, uint64_t idx);
/* new data could go now: the source has some and the peer's window room */
bool tcp_can_send_new(const struct tcp_sock *tp);
uint64_t tcp_new_window(struct tcp_sock *tp);

/* tcp_sock.c */
void tcp_sock_free(struct tcp_sock *tp);
/* run the socket's softirq work (TW_* bits) on its core now */
void tcp_kick(struct tcp_sock *tp, int bit);

/* tcp_gso.c: GSO packet sizes, TSO deferral, TCP Small Queues */
void tcp_setup_caps(struct tcp_sock *tp);
uint32_t tcp_tso_autosize(const struct tcp_sock *tp, uint32_t mss, uint32_t min_tso_segs);
/* segments the next skb from idx holds (new data: cut by the window,
 * the cwnd quota and the write queue's skb; a retransmission: a run of
 * lost segments), or *defer when TSO deferral holds it */
uint32_t tcp_gso_segs_now(struct tcp_sock *tp, uint64_t idx, bool retx, uint32_t max_segs, uint32_t in_flight,
                          simtime_t now, bool *defer);
uint32_t tcp_data_truesize(const struct tcp_sock *tp, uint32_t ip_len, uint32_t payload);
bool tcp_small_queue_check(struct tcp_sock *tp, uint32_t truesize, bool retx);
void tcp_wfree(struct sock *sk);

/* tcp_offload.c: TCP's GSO and GRO rules for the engine (sim/offload.h) */
void tcp_offload_init(void);

/* tcp_costs.c: the kernel functions the engine books its CPU work under
 * (a ".per_*" id is a parameter booked under the function before the dot:
 * tcp_charge_n) */
struct tcp_syms {
    int xmit, v4_rcv, v6_rcv, established, data_queue, ofo, ack, ack_seg, sacktag, sacktag_seg;
    int recvmsg, recvmsg_skb, copy_to_user, wake, write_timer, delack_timer, tsq_handler;
};
extern struct tcp_syms tcp_sym;
void tcp_syms_init(void);
struct cost_row;
const struct cost_row *tcp_costs(const char *profile);
/* One call of sym costing its row plus n times the row `per` */
static inline void tcp_charge_n(struct host *h, struct core *c, int sym, int per, uint64_t n)
{
    core_charge(c, sym, h->cost[sym] + h->cost[per] * (double)n);
}

/* module.c: the family's slot in host->mod, set when it attaches */
extern int tcp_module_slot;
static inline struct tcp_host *tcp_host_of(const struct host *h)
{
    return tcp_module_slot >= 0 ? h->mod[tcp_module_slot] : NULL;
}

/* tcp_pcap.c: the module's capture writer (sim/pcap_wire.h) */
struct pcap_l4;
void tcp_pcap_write(const struct skb *skb, const struct pcap_l4 *w);

/* tcp_needs_internal_pacing: the socket paces itself unless an fq qdisc
 * took it over (sk_pacing_status SK_PACING_FQ) */
static inline bool tcp_paces(const struct tcp_sock *tp)
{
    return tp->pacing && tp->sk.pacing_status != SK_PACING_FQ;
}

#endif
