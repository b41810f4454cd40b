/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * net/tcp.h - the TCP a congestion-control module sees, written for
 * netsim: the socket (its fields are kcompat/view.h's lists, which netsim
 * fills before each call and reads back after), the ops a module
 * registers, the ACK and rate samples, and the helpers of the kernel's
 * include/net/tcp.h a module calls, each from reading the release's own
 * definition. What differs between releases is chosen by KC_VERSION; the
 * TCP core around the module (when each hook is called, with what) stays
 * netsim's (docs/kernel-source.md).
 */
#ifndef KCOMPAT_NET_TCP_H
#define KCOMPAT_NET_TCP_H

#include <linux/kc_base.h>
#include <linux/inet_diag.h>
#include <linux/win_minmax.h>
#include "../../view.h"

struct sk_buff;
struct net;

struct sock { KC_SOCK_FIELDS };
struct inet_sock { struct sock sk; };
struct inet_connection_sock { struct inet_sock icsk_inet; KC_ICSK_FIELDS };
struct tcp_sock { struct inet_connection_sock inet_conn; KC_TP_FIELDS };

#define ICSK_CA_PRIV_SIZE sizeof(((struct inet_connection_sock *)0)->icsk_ca_priv)
enum { ICSK_ACK_SCHED = 1, ICSK_ACK_TIMER = 2, ICSK_ACK_PUSHED = 4, ICSK_ACK_PUSHED2 = 8, ICSK_ACK_NOW = 16 };

static inline struct tcp_sock *tcp_sk(const struct sock *sk) { return (struct tcp_sock *)sk; }
static inline struct inet_connection_sock *inet_csk(const struct sock *sk) { return (struct inet_connection_sock *)sk; }
static inline void *inet_csk_ca(const struct sock *sk) { return inet_csk(sk)->icsk_ca_priv; }
static inline struct net *sock_net(const struct sock *sk) { (void)sk; return NULL; }
/* SNMP counters (HyStart's, CDG's) are not kept */
#define NET_INC_STATS(net, f) ((void)(net))
#define NET_ADD_STATS(net, f, n) ((void)(net), (void)(n))

/* ECT on the socket's packets is netsim's core's choice (a cc that needs
 * ECN has it on an ECN connection only) */
static inline void INET_ECN_xmit(struct sock *sk) { (void)sk; }
static inline void INET_ECN_dontxmit(struct sock *sk) { (void)sk; }

enum { TCP_ESTABLISHED = 1, TCP_SYN_SENT, TCP_SYN_RECV, TCP_FIN_WAIT1, TCP_FIN_WAIT2, TCP_TIME_WAIT,
       TCP_CLOSE, TCP_CLOSE_WAIT, TCP_LAST_ACK, TCP_LISTEN, TCP_CLOSING };
enum sk_pacing { SK_PACING_NONE, SK_PACING_NEEDED, SK_PACING_FQ };

enum tcp_ca_state { TCP_CA_Open, TCP_CA_Disorder, TCP_CA_CWR, TCP_CA_Recovery, TCP_CA_Loss };
#define TCPF_CA_Open (1 << TCP_CA_Open)
#define TCPF_CA_Disorder (1 << TCP_CA_Disorder)
#define TCPF_CA_CWR (1 << TCP_CA_CWR)
#define TCPF_CA_Recovery (1 << TCP_CA_Recovery)
#define TCPF_CA_Loss (1 << TCP_CA_Loss)

/* the events; the two delayed-ACK ones went in 4.18, with DCTCP's move
 * to icsk_ack.pending (b0c05d0e99d9, a0496ef2c23b) */
enum tcp_ca_event {
    CA_EVENT_TX_START, CA_EVENT_CWND_RESTART, CA_EVENT_COMPLETE_CWR, CA_EVENT_LOSS,
    CA_EVENT_ECN_NO_CE, CA_EVENT_ECN_IS_CE,
#if KC_VERSION < KC_V(4, 18)
    CA_EVENT_DELAYED_ACK, CA_EVENT_NON_DELAYED_ACK,
#endif
};
enum tcp_ca_ack_event_flags { CA_ACK_SLOWPATH = 1, CA_ACK_WIN_UPDATE = 2, CA_ACK_ECE = 4 };
#define TCP_CONG_NON_RESTRICTED 0x1
#define TCP_CONG_NEEDS_ECN 0x2
#define TCP_CA_NAME_MAX 16
#define TCP_INFINITE_SSTHRESH 0x7fffffff
#define TCP_INIT_CWND 10
#define TCP_TS_HZ 1000
#define GSO_MAX_SIZE 65536
#define GSO_LEGACY_MAX_SIZE 65536
#define MAX_TCP_HEADER 320
enum { TCP_ECN_OK = 1, TCP_ECN_QUEUE_CWR = 2, TCP_ECN_DEMAND_CWR = 4, TCP_ECN_SEEN = 8 };
/* tcp_call_bpf's operations: a BPF program cannot be attached here */
enum { BPF_SOCK_OPS_VOID, BPF_SOCK_OPS_TIMEOUT_INIT, BPF_SOCK_OPS_RWND_INIT, BPF_SOCK_OPS_TCP_CONNECT_CB,
       BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB, BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB, BPF_SOCK_OPS_NEEDS_ECN,
       BPF_SOCK_OPS_BASE_RTT };
static inline int tcp_call_bpf(struct sock *sk, int op, u32 nargs, u32 *args)
{
    (void)sk, (void)op, (void)nargs, (void)args;
    return -1;
}

struct ack_sample {
    u32 pkts_acked;
    s32 rtt_us;
    u32 in_flight;
};

struct rate_sample {
    u64 prior_mstamp;
    u32 prior_delivered;
    u32 prior_delivered_ce;
    s32 delivered;
    s32 delivered_ce;
    long interval_us;
    u32 snd_interval_us;
    u32 rcv_interval_us;
    long rtt_us;
    int losses;
    u32 acked_sacked;
    u32 prior_in_flight;
    u32 last_end_seq;
    bool is_app_limited;
    bool is_retrans;
    bool is_ack_delayed;
};

/* The ops: 4.20 replaced tso_segs_goal by min_tso_segs (the core sizes
 * the burst itself since the EDT model); get_info has returned a size
 * into an attribute since 4.7 */
struct tcp_congestion_ops {
    u32 (*ssthresh)(struct sock *sk);
    void (*cong_avoid)(struct sock *sk, u32 ack, u32 acked);
    void (*set_state)(struct sock *sk, u8 new_state);
    void (*cwnd_event)(struct sock *sk, enum tcp_ca_event ev);
    void (*in_ack_event)(struct sock *sk, u32 flags);
    void (*pkts_acked)(struct sock *sk, const struct ack_sample *sample);
#if KC_VERSION >= KC_V(4, 20)
    u32 (*min_tso_segs)(struct sock *sk);
#else
    u32 (*tso_segs_goal)(struct sock *sk);
#endif
    void (*cong_control)(struct sock *sk, const struct rate_sample *rs);
    u32 (*undo_cwnd)(struct sock *sk);
    u32 (*sndbuf_expand)(struct sock *sk);
    size_t (*get_info)(struct sock *sk, u32 ext, int *attr, union tcp_cc_info *info);
    char name[TCP_CA_NAME_MAX];
    struct module *owner;
    struct list_head list;
    u32 key;
    u32 flags;
    void (*init)(struct sock *sk);
    void (*release)(struct sock *sk);
};

int tcp_register_congestion_control(struct tcp_congestion_ops *type);
void tcp_unregister_congestion_control(struct tcp_congestion_ops *type);

/* tp->snd_cwnd through accessors since 5.19 (40570375356c); the field
 * stays, and older modules read it directly */
static inline u32 tcp_snd_cwnd(const struct tcp_sock *tp) { return tp->snd_cwnd; }
static inline void tcp_snd_cwnd_set(struct tcp_sock *tp, u32 val) { tp->snd_cwnd = val; }

static inline bool before(u32 a, u32 b) { return (s32)(a - b) < 0; }
#define after(a, b) before(b, a)
static inline bool between(u32 seq1, u32 seq2, u32 seq3) { return seq3 - seq2 >= seq1 - seq2; }

#define tcp_jiffies32 ((u32)jiffies)
static inline u32 tcp_time_stamp(const struct tcp_sock *tp) { return (u32)(tp->tcp_mstamp / (USEC_PER_SEC / TCP_TS_HZ)); }
static inline u32 tcp_stamp_us_delta(u64 t1, u64 t0) { s64 d = (s64)(t1 - t0); return d > 0 ? (u32)d : 0; }

static inline bool tcp_in_slow_start(const struct tcp_sock *tp) { return tcp_snd_cwnd(tp) < tp->snd_ssthresh; }
static inline u32 tcp_left_out(const struct tcp_sock *tp) { return tp->sacked_out + tp->lost_out; }
static inline u32 tcp_packets_in_flight(const struct tcp_sock *tp)
{
    return tp->packets_out - tcp_left_out(tp) + tp->retrans_out;
}
/* the windowed minimum RTT of the last 5 minutes (tp->rtt_min's
 * minmax in the kernel), in us; netsim's min_rtt */
static inline u32 tcp_min_rtt(const struct tcp_sock *tp) { return tp->kc_min_rtt_us; }

static inline u32 tcp_current_ssthresh(const struct sock *sk)
{
    const struct tcp_sock *tp = tcp_sk(sk);
    if ((1 << inet_csk(sk)->icsk_ca_state) & (TCPF_CA_CWR | TCPF_CA_Recovery))
        return tp->snd_ssthresh;
    return max(tp->snd_ssthresh, (tcp_snd_cwnd(tp) >> 1) + (tcp_snd_cwnd(tp) >> 2));
}

/* Whether the window, not the application or the receiver, limits the
 * sender. 6.1's header trusts the flag first and falls back to slow
 * start's doubling rule; 4.15's asked the doubling rule first in slow
 * start (the flag became sticky for a round in 2022, with the fix to
 * tcp_cwnd_validate; the layer gates it at 6.0). The flag itself is
 * netsim's core's, set as 4.15's tcp_cwnd_validate sets it. */
static inline bool tcp_is_cwnd_limited(const struct sock *sk)
{
    const struct tcp_sock *tp = tcp_sk(sk);
#if KC_VERSION >= KC_V(6, 0)
    if (tp->is_cwnd_limited)
        return true;
    if (tcp_in_slow_start(tp))
        return tcp_snd_cwnd(tp) < 2 * tp->max_packets_out;
    return false;
#else
    if (tcp_in_slow_start(tp))
        return tcp_snd_cwnd(tp) < 2 * tp->max_packets_out;
    return tp->is_cwnd_limited;
#endif
}

/* kcompat/kside.c: the kernel's exported helpers, in the layer's words */
u32 tcp_slow_start(struct tcp_sock *tp, u32 acked);
void tcp_cong_avoid_ai(struct tcp_sock *tp, u32 w, u32 acked);
void tcp_reno_cong_avoid(struct sock *sk, u32 ack, u32 acked);
u32 tcp_reno_ssthresh(struct sock *sk);
u32 tcp_reno_undo_cwnd(struct sock *sk);
void tcp_enter_cwr(struct sock *sk);
void __tcp_send_ack(struct sock *sk, u32 rcv_nxt);

#endif
