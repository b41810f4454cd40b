/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp.h - the TCP engine (Linux 4.15; docs/models/tcp.md): one endpoint
 * (`struct tcp_sock`) holds sender and receiver state; congestion control
 * (`tcp.cc`) and receive-buffer autotuning (`tcp.drs`) are ops structs
 * chosen by name, as the kernel's tcp_congestion_ops.
 *
 * Conventions: sequence numbers are 64-bit byte offsets that never wrap
 * (the SYN is 0, data starts at 1); the stream is cut in MSS slots,
 * segment i covers [1 + i*mss, 1 + (i+1)*mss) and the SACK scoreboard is
 * indexed by segment number (blocks of 64, tcp_seg_at). A write that ends
 * short of a slot's end leaves that slot short: it carries only the
 * written bytes on the wire, the rest of the slot is sequence space that
 * no byte fills (tcp_short.c; tcp_hdr.pad). The receiver keeps no
 * packets, only skb records (sequence range and truesize), which is all
 * the window and memory arithmetic needs.
 */
#ifndef NETSIM_MODELS_TCP_H
#define NETSIM_MODELS_TCP_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/event.h"
#include "sim/host.h"
#include "sim/variant.h"

struct sim;
struct tcp_sock;
struct cfg_section;

/* ---- constants (tcp.md §1) ---- */
#define TCP_INIT_CWND      10
#define TCP_RTO_MIN        (200 * PS_PER_MS)
#define TCP_RTO_MAX        (120 * PS_PER_S)
#define TCP_TIMEOUT_INIT   (1 * PS_PER_S)
#define TCP_DELACK_MIN     (40 * PS_PER_MS)     /* = TCP_ATO_MIN */
#define TCP_DELACK_MAX     (200 * PS_PER_MS)
#define TCP_MAX_QUICKACKS  16
#define TCP_MAX_WSCALE     14
#define TCP_SKB_OVERHEAD   576                  /* SKB_TRUESIZE(0): sk_buff 256 + shinfo 320 (x86-64) */
#define TCP_GSO_MAX_SIZE   65536                /* the port's gso_max_size (GSO_MAX_SIZE) */
#define TCP_MIN_TSO_SEGS   2                    /* net.ipv4.tcp_min_tso_segs */
#define TCP_MAX_REORDERING 300                  /* net.ipv4.tcp_max_reordering */
#define TCP_RACK_RECOVERY_THRESH 16             /* recoveries a widened RACK window lasts */
#define TCP_SHINFO_SIZE    320                  /* SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) */
#define MAX_TCP_HEADER     320
#define TCP_MAX_SKB_FRAGS  17                   /* MAX_SKB_FRAGS: coalescing limit per skb */
#define TCP_HDR_LEN        20
#define TCPOLEN_TS_ALIGNED 12
/* sk_max_pacing_rate's default, ~0U: 4.15's sk_pacing_rate is a u32
 * (34.36 Gbit/s at most; unsigned long since 4.20, 76a9ebe811fb), and
 * TCP's internal pacing stops at exactly ~0U (tcp_internal_pacing) */
#define TCP_MAX_PACING_RATE UINT32_MAX
#define TCP_MSS_DEFAULT    536   /* RFC 1122: the MSS a peer without the option gets */

/* ---- per-host sysctls and knobs, read in attach_host ---- */
struct tcp_host {
    uint64_t rmem[3], wmem[3];    /* net.ipv4.tcp_rmem / tcp_wmem */
    int adv_win_scale;            /* net.ipv4.tcp_adv_win_scale */
    bool scaling_ratio;           /* tcp.win_from_space = scaling_ratio: Linux 6.6's per-socket rule */
    bool rcvbuf_rmem;             /* tcp.init_rcvbuf = tcp_rmem: 4.19's initial buffer and window */
    int app_win;                  /* net.ipv4.tcp_app_win */
    bool moderate_rcvbuf;         /* net.ipv4.tcp_moderate_rcvbuf */
    bool timestamps, sack, window_scaling;
    int reordering;               /* net.ipv4.tcp_reordering (dupthresh) */
    bool fack, rack, tlp;         /* tcp_fack, tcp_recovery & 1, tcp_early_retrans >= 3 */
    bool rack_tlp;                /* tcp.loss_detection = rack_tlp: 4.18+'s RACK alone, 6.1's reo_wnd and TLP */
    bool dctcp_ack_now;           /* tcp.dctcp_ack = immediate: 4.18+'s DCTCP receiver ACKs */
    bool pacing_fq;               /* sender has fq: pace CUBIC/Reno too */
    uint8_t ecn;                  /* net.ipv4.tcp_ecn: 0 never, 1 ask and accept, 2 accept only */
    bool ecn_fallback;            /* net.ipv4.tcp_ecn_fallback: a retransmitted SYN asks no more */
    bool tsq;                     /* tcp.tsq: TCP Small Queues (3.6 on) */
    uint32_t limit_output_bytes;  /* net.ipv4.tcp_limit_output_bytes (TSQ) */
    bool tsq_unpaced_only;        /* tcp.tsq_limit = unpaced: 4.20's rule, paced flows not capped */
    uint32_t min_tso_segs;        /* net.ipv4.tcp_min_tso_segs */
    uint32_t tso_win_divisor;     /* net.ipv4.tcp_tso_win_divisor */
    uint32_t init_cwnd;
    /* the host's routes' metrics, as `ip route ... rto_min T quickack 1
     * initrwnd N` sets them (RTAX_RTO_MIN, locked as iproute2 locks it;
     * RTAX_QUICKACK; RTAX_INITRWND, 0: unset) */
    simtime_t rto_min;
    bool route_quickack;
    uint32_t initrwnd;
    const struct tcp_cc_ops *cc;
    const struct tcp_drs_ops *drs;
    int64_t cc_vals[VARIANT_MAX_KEYS];    /* the cc's own keys, cc->keys[i] (tcp_cc_key) */
    int64_t drs_vals[VARIANT_MAX_KEYS];
    struct tcp_sock *conns;       /* every endpoint on the host (freed at detach) */
    /* endpoints by (local port, remote address, remote port), listeners
     * by (local port, 0, 0): chained, doubled at one per bucket */
    struct tcp_sock **chash;
    uint32_t chash_size, chash_n;
};

/* ---- rate sample (tcp_rate.c) ---- */
struct tcp_rate_sample {
    uint64_t prior_delivered;
    simtime_t prior_time;
    int64_t delivered;            /* packets delivered over interval */
    simtime_t interval;           /* < 0: invalid */
    int64_t rtt_us;               /* < 0: none */
    uint32_t acked_sacked, losses, prior_in_flight;
    bool is_app_limited;
};

/* ---- congestion control ---- */
/* ssthresh before the first loss: the kernel's TCP_INFINITE_SSTHRESH */
#define TCP_INFINITE_SSTHRESH 0x7fffffffu
enum tcp_ca_state { TCP_CA_Open, TCP_CA_Disorder, TCP_CA_CWR, TCP_CA_Recovery, TCP_CA_Loss };
/* cwnd_event's events, 4.15's enum tcp_ca_event in its order. ECN_NO_CE
 * and ECN_IS_CE go only to a cc that needs ECN (TCP_CONG_NEEDS_ECN), for
 * each data segment an ECN socket receives, Not-ECT ones aside. */
enum tcp_ca_event {
    CA_EVENT_TX_START,            /* first transmission with nothing in flight */
    CA_EVENT_CWND_RESTART,        /* congestion window restart after idle */
    CA_EVENT_COMPLETE_CWR,        /* end of a window reduction (Recovery or CWR left) */
    CA_EVENT_LOSS,                /* retransmission timeout */
    CA_EVENT_ECN_NO_CE,
    CA_EVENT_ECN_IS_CE,
    CA_EVENT_DELAYED_ACK,         /* the receiver armed its delayed-ACK timer */
    CA_EVENT_NON_DELAYED_ACK,     /* the receiver sent an ACK at once */
};
/* in_ack_event's flags (tcp_ca_ack_event_flags); CA_ACK_ECE: the ACK
 * echoes congestion (ECE on an ECN socket) */
enum { CA_ACK_SLOWPATH = 1, CA_ACK_WIN_UPDATE = 2, CA_ACK_ECE = 4 };
/* tcp_congestion_ops' flags: NEEDS_ECN asks for ECN whatever
 * net.ipv4.tcp_ecn says, sends every packet ECT(0) and gets the CE events
 * (include/net/tcp.h TCP_CONG_NEEDS_ECN) */
enum { TCP_CONG_NEEDS_ECN = 2 };

/* pkts_acked's sample (struct ack_sample): packets cumulatively ACKed by
 * this ACK, the rate sample's RTT (-1: none), and the bytes that were in
 * flight when the newest of them never retransmitted was sent (end_seq -
 * snd_una then, tx.in_flight) */
struct tcp_ack_sample {
    uint32_t pkts_acked;
    int32_t rtt_us;
    uint32_t in_flight;
};

/* get_info's answer (union tcp_cc_info): what ss -i prints of the cc */
enum { TCP_CC_INFO_NONE, TCP_CC_INFO_VEGAS, TCP_CC_INFO_BBR, TCP_CC_INFO_DCTCP };
struct tcp_cc_info {
    int kind;
    union {
        struct { uint32_t enabled, rttcnt, rtt_us, minrtt_us; } vegas;                  /* tcpvegas_info */
        struct { uint32_t enabled, ce_state, alpha, ab_ecn, ab_tot; } dctcp;            /* tcp_dctcp_info */
        struct { uint64_t bw_bytes_per_s; uint32_t min_rtt_us, pacing_gain, cwnd_gain; } bbr; /* tcp_bbr_info */
    } u;
};

/* A tcp.cc variant (sim/variant.h: register it with VARIANT("tcp.cc", ops)):
 * Linux 4.15's struct tcp_congestion_ops. As tcp_register_congestion_control
 * requires: ssthresh, undo_cwnd, and cong_avoid or cong_control; the rest
 * optional (NULL: not called). Where each is called: docs/models/tcp.md. */
struct tcp_cc_ops {
    const char *name;                                             /* required */
    const char *doc;                                              /* required */
    const struct variant_key *keys;                               /* optional: its own keys (sim/variant.h) */
    uint32_t flags;                                               /* optional: TCP_CONG_NEEDS_ECN */
    void (*init)(struct tcp_sock *tp);                            /* optional */
    void (*release)(struct tcp_sock *tp);                         /* optional */
    uint32_t (*ssthresh)(struct tcp_sock *tp);                    /* required */
    void (*cong_avoid)(struct tcp_sock *tp, uint32_t acked);      /* required, or: */
    void (*cong_control)(struct tcp_sock *tp, const struct tcp_rate_sample *rs);
    void (*set_state)(struct tcp_sock *tp, int new_state);        /* optional */
    void (*cwnd_event)(struct tcp_sock *tp, int ev);              /* optional */
    void (*in_ack_event)(struct tcp_sock *tp, uint32_t flags);    /* optional */
    uint32_t (*undo_cwnd)(struct tcp_sock *tp);                   /* required */
    void (*pkts_acked)(struct tcp_sock *tp, const struct tcp_ack_sample *sample); /* optional */
    uint32_t (*tso_segs_goal)(struct tcp_sock *tp);               /* optional */
    uint32_t (*sndbuf_expand)(struct tcp_sock *tp);               /* optional */
    void (*get_info)(struct tcp_sock *tp, struct tcp_cc_info *info); /* optional */
    /* not Linux's: series to record every trace_interval */
    void (*trace)(struct tcp_sock *tp, const char *prefix);       /* optional */
};

/* ---- receive autotuning: struct tcp_drs_ops and the receiver's view (drs.h) ---- */
#include "models/tcp/drs.h"

/* ---- sender scoreboard entry (one per MSS segment) ---- */
enum { SEG_SACKED = 1, SEG_LOST = 2, SEG_RETRANS = 4, SEG_EVER_RETRANS = 8, SEG_APP_LIMITED = 16 };

struct tcp_seg {
    simtime_t tx_time;            /* last (re)transmission */
    simtime_t first_tx;           /* rate sample stamps (tcp_rate_skb_sent) */
    simtime_t delivered_time;
    /* Narrowed so that a segment is 40 bytes, not 56 (170 000 in flight
     * under BBR on tcp_drs hold 2.7 MB less): tp->delivered's low 32 bits
     * when sent (read back whole by seg_delivered, tcp_ack.c: fewer than 2^32
     * packets are delivered while one segment is out), and the tsorted
     * list of outstanding segments as distances from this segment's index
     * (a window is far below 2^31 segments; seg_prev, seg_next, seg_link). */
    uint32_t delivered_lo;
    int32_t dprev, dnext;         /* 0: none; TCP_SEG_UNLINKED (dprev): not on the list */
    uint8_t flags;
    /* in the padding, 24 bits little-endian: segments from snd_una to
     * this one when last sent (tx.in_flight in packets; below 2^24 in any
     * window). Bytes, not a bit-field beside flags, which would make every
     * flag update a read-modify-write of the word */
    uint8_t una_dist[3];
};
#define TCP_SEG_UNLINKED INT32_MIN
static inline uint32_t seg_una_dist(const struct tcp_seg *s)
{
    return s->una_dist[0] | (uint32_t)s->una_dist[1] << 8 | (uint32_t)s->una_dist[2] << 16;
}
static inline void seg_set_una_dist(struct tcp_seg *s, uint64_t d)
{
    uint32_t v = d < 0xffffff ? (uint32_t)d : 0xffffff;
    s->una_dist[0] = (uint8_t)v;
    s->una_dist[1] = (uint8_t)(v >> 8);
    s->una_dist[2] = (uint8_t)(v >> 16);
}
_Static_assert(sizeof(struct tcp_seg) == 40, "struct tcp_seg: 40 bytes");

/* The neighbour's absolute index, -1 for none, -2 for not on the list. */
static inline int64_t seg_prev(const struct tcp_seg *s, uint64_t idx)
{
    return s->dprev == TCP_SEG_UNLINKED ? -2 : s->dprev ? (int64_t)idx + s->dprev : -1;
}
static inline int64_t seg_next(const struct tcp_seg *s, uint64_t idx)
{
    return s->dnext ? (int64_t)idx + s->dnext : -1;
}
/* Link distance from idx to `to` (an index, -1 none, -2 unlinked). */
static inline int32_t seg_link(uint64_t idx, int64_t to)
{
    return to == -2 ? TCP_SEG_UNLINKED : to < 0 ? 0 : (int32_t)(to - (int64_t)idx);
}

/* ---- receiver skb record ---- */
struct tcp_rskb {
    uint64_t seq, end;
    uint32_t truesize;
    uint16_t nfrags;
};

struct tcp_rskb_vec {             /* growable array with a movable head (rskb_vec.h) */
    struct tcp_rskb *v;
    uint32_t lo, hi, cap;
};

/* A SACK block the receiver reports: [start, end) in sequence space. */
struct tcp_sack_block {
    uint64_t start, end;
};

/* ---- the wire header, kept in skb->l4 ---- */
enum { TH_SYN = 1, TH_ACK = 2, TH_FIN = 4, TH_ECE = 8, TH_CWR = 16 };

struct tcp_hdr {
    uint64_t seq, ack;
    uint32_t win;                 /* the 16-bit field, unscaled */
    uint32_t tsval, tsecr;
    uint32_t sack[3][2];          /* offsets from ack: start, end */
    uint16_t mss;                 /* SYN option */
    uint8_t flags, nsack, wscale; /* wscale 0xff: option absent */
    uint8_t ts_ok, sack_ok;
    /* a data skb whose last slot is short: the slot's bytes not on the
     * wire (tcp_short.c), so the receiver's end is seq + payload + pad */
    uint16_t pad;
};
_Static_assert(sizeof(struct tcp_hdr) <= 64, "tcp_hdr must fit skb->l4");

enum tcp_state { TCP_CLOSED, TCP_LISTEN, TCP_SYN_SENT, TCP_SYN_RECV, TCP_ESTABLISHED };

struct tcp_stats {
    uint64_t segs_out, data_segs_out, retrans, lost_retrans, rtos, tlps, recoveries;
    uint64_t acks_out, zero_win_acks, dup_data;
    uint64_t drs_calls, drs_raised, drs_not_raised, drs_below_space;
    uint64_t prune_raise, prune_collapse, prune_ofo_drop, prune_drop;
    uint64_t ofo_segs;
    uint64_t tsq_throttled;       /* TCP Small Queues stopped tcp_write_xmit (TSQ_THROTTLED set) */
    uint64_t gso_pkts_out;        /* skbs of more than one segment sent (GSO packets) */
    uint64_t undos, spurious_rtos, dsacks_in, dsacks_out;
    /* netsim's own ECN figures (4.15 has no TcpExt counter for them):
     * data segments in marked CE, ACKs out with ECE and in with ECE on an
     * ECN socket (FLAG_ECE), segments out with CWR, CWR states entered */
    uint64_t ecn_ce_in, ecn_ece_out, ecn_ece_in, ecn_cwr_out, ecn_cwr_entered;
};

/* tp->ecn_flags (include/net/tcp.h): ECN negotiated; a CWR to set on the
 * next new segment; ECE to set on every segment until a CWR arrives;
 * an ECT or CE segment received */
enum { TCP_ECN_OK = 1, TCP_ECN_QUEUE_CWR = 2, TCP_ECN_DEMAND_CWR = 4, TCP_ECN_SEEN = 8 };

struct tcp_sock {
    struct sock sk;               /* first: host_sock_lookup finds it */
    struct host *h;
    struct tcp_host *th;
    struct sim *sim;
    struct tcp_sock *next_conn;
    struct tcp_sock *hnext;       /* th->chash chain */
    struct tcp_sock *peer_listener;
    void (*accept)(struct tcp_sock *listener, struct tcp_sock *child);
    void *app;                    /* the application's state */
    void (*on_connect)(struct tcp_sock *tp);   /* client: handshake done */
    int state;
    uint32_t daddr;
    uint16_t dport;
    struct core *core;            /* softirq core: timers and ACK processing run here */
    const char *trace_prefix;     /* "flow.1.snd." ... NULL: no series */
    struct flow *flow;

    uint32_t mss;                 /* payload per segment (mss_cache) */
    uint32_t advmss;              /* our MSS option value */
    int32_t ts_off;               /* TS clock offset, ms */
    bool ts_ok, sack_ok, wscale_ok;
    uint8_t snd_wscale, rcv_wscale;

    /* ---- sender ---- */
    uint64_t snd_una, snd_nxt;    /* bytes */
    uint64_t write_seq;           /* bytes the app has written */
    bool app_infinite;            /* unlimited source until it stops */
    /* short slots, the last of a write that ends short (tcp_short.c): a
     * ring in slot order, from una_idx's on */
    struct tcp_short { uint64_t idx; uint32_t len; } *shorts;
    uint32_t shorts_head, shorts_n, shorts_cap;
    uint64_t snd_sml;             /* end of the last short segment sent (Minshall's Nagle) */
    bool nodelay;                 /* TCP_NODELAY: a short segment goes at once */
    simtime_t all_acked_at;       /* when snd_una reached write_seq after the app stopped */
    uint64_t snd_wnd;
    uint64_t una_idx, nxt_idx;    /* segment indices */
    struct tcp_seg **blk;         /* the scoreboard: blocks of TCP_SEG_BLK segments, block b
                                   * in slot b mod nblk, present from una_idx's to nxt_idx's */
    uint64_t nblk;                /* slots, a power of 2 */
    /* freed blocks kept for the next ones: a cumulative ACK after a loss
     * frees many at once and the window refills them, so one spare was
     * not enough to stay off malloc; 16 hold 1024 segments (40 KB) */
#define TCP_SEG_SPARES 16
    struct tcp_seg *spare[TCP_SEG_SPARES];
    uint32_t nspare;
    uint32_t packets_out, sacked_out, lost_out, retrans_out;
    uint32_t lost_unretx;         /* LOST, not RETRANS, not SACKED */
    uint64_t retx_hint, lost_hint;
    int64_t ts_head, ts_tail;     /* tsorted list */
    int64_t highest_sack;         /* index of the highest SACKed segment, -1 none */
    uint32_t recv_sack_cache[3][2];
    uint64_t sack_cache[3][2];
    int nsack_cache;
    uint32_t snd_cwnd, snd_ssthresh, snd_cwnd_cnt, snd_cwnd_clamp;
    uint32_t prior_cwnd, prior_ssthresh;
    uint32_t max_packets_out;
    bool is_cwnd_limited, rwnd_limited_now;
    uint64_t xmit_calls, rwnd_limited_calls;   /* since the last trace sample */
    int ca_state;
    uint8_t ecn_flags;            /* TCP_ECN_*; 0 on a socket without ECN */
    uint64_t high_seq;            /* snd_nxt at entering CWR/Recovery/Loss */
    /* undo (tcp_may_undo): snd_una when the reduction began (0: none),
     * retransmissions since not D-SACKed (-1: none yet), the TSval of the
     * first retransmission (0: none), F-RTO armed, and F-RTO's step 2b:
     * the next sends are new data, not retransmissions */
    uint64_t undo_marker;
    int32_t undo_retrans;
    uint32_t retrans_stamp;
    bool frto, rexmit_new;
    uint32_t prr_delivered, prr_out;
    bool retrans_acked, retrans_lost_this_round;
    simtime_t srtt, mdev, rttvar, rto;   /* ps; srtt is the real value (not x8) */
    int rto_backoff;
    simtime_t min_rtt, min_rtt_stamp;
    uint32_t ts_recent;           /* peer TSval to echo */
    uint32_t reordering;
    bool reord_seen;              /* rack.reord: reordering seen, RACK waits reo_wnd */
    bool fack_disabled;           /* tcp_disable_fack: reordering beyond tcp_reordering seen */
    /* RACK's adaptive reordering window (tcp_rack_update_reo_wnd): steps
     * of min_rtt/4, one more per round with a D-SACK, kept for 16
     * recoveries */
    uint8_t rack_reo_steps, rack_reo_persist;
    bool rack_dsack_seen;
    uint64_t rack_last_delivered;
    /* RACK */
    simtime_t rack_mstamp, rack_rtt;
    uint64_t rack_end_seq;
    /* delivery rate (tcp_rate.c) */
    uint64_t delivered;
    simtime_t delivered_mstamp, first_tx_mstamp;
    uint64_t app_limited;
    /* the last rate sample tcp_rate_gen kept for tcp_info's delivery_rate
     * (read by tcp_ss.c only) */
    uint64_t rate_delivered, rate_interval_us;
    bool rate_app_limited;
    uint64_t segs_in, data_segs_in;   /* tcp_segs_in: every segment this end received */
    /* offloads: sk_route_caps of the egress port (sk_setup_caps) */
    bool gso_ok;                  /* sk_can_gso: the port has tso or gso on */
    uint32_t gso_max_size, gso_max_segs;   /* sk_gso_max_size, sk_gso_max_segs */
    uint32_t size_goal_segs;      /* tp->gso_segs: segments per skb tcp_sendmsg builds */
    uint64_t wq_skb_end;          /* segment index where the write queue's head skb ends */
    uint64_t max_window;          /* largest window the peer offered */
    uint64_t lsndtime;            /* jiffy of the last data sent (TSO deferral) */
    bool tsq_throttled;           /* TSQ_THROTTLED: waits for a TX completion */
    /* pacing */
    uint64_t pacing_rate;         /* bytes per second, 0 = off */
    bool pacing;
    simtime_t next_tx;
    bool tlp_pending;
    uint64_t tlp_high_seq;
    /* CC private state */
    const struct tcp_cc_ops *cc;
    bool cc_inited;               /* init called: release is due */
    uint64_t cc_priv[40];

    /* ---- receiver ---- */
    uint64_t rcv_nxt, copied_seq, rcv_wup;
    uint64_t rcv_wnd, rcv_ssthresh, window_clamp;
    uint64_t last_right_edge;     /* rcv_wup + rcv_wnd last advertised */
    uint64_t rmem_alloc;
    uint64_t ofo_bytes;
    uint32_t rcv_mss;
    int64_t rcv_rtt_us8;          /* receiver RTT estimate, us x 8 (kernel rcv_rtt_est.rtt_us) */
    uint64_t rcv_rtt_seq;
    uint64_t rcvq_space, rcvq_seq;
    int64_t rcvq_time_us;
    int64_t rcv_rtt_time_us;
    bool rcvbuf_locked;
    int quick, pingpong;
    simtime_t ato, lrcvtime;
    bool ack_pending;
    bool ack_now;                 /* ICSK_ACK_NOW: the next ACK goes at once (tcp.dctcp_ack = immediate) */
    bool delack_timer;            /* ICSK_ACK_TIMER: ev_delack is set for the pending ACK */
    struct tcp_rskb_vec rq;       /* in-order, unread */
    struct tcp_rskb_vec ofo;      /* sorted, disjoint */
    struct tcp_sack_block selective_acks[4];
    int num_sacks;
    struct tcp_sack_block duplicate_sack;   /* D-SACK for the next ACK (rx_opt.dsack) */
    bool dsack;
    uint32_t rx_head_truesize;    /* the NIC's skb head truesize: a frame's page part is the rest */
    uint8_t scaling_ratio;        /* tcp_measure_rcv_mss's len/truesize x 256; 0: not measured yet */
    const struct tcp_drs_ops *drs;

    /* ---- timers: events, the work runs as a softirq task on `core` ---- */
    struct event ev_rto, ev_delack, ev_pace, ev_reo, ev_tlp;
    uint8_t pending_work;         /* TW_* bits */
    struct cpu_task task;

    struct tcp_stats st;
    FILE *drs_log;                /* DRS log (tcp.drs_log), or NULL */
};

enum { TW_RTO = 1, TW_DELACK = 2, TW_PACE = 4, TW_REO = 8, TW_TLP = 16, TW_XMIT = 32, TW_TSQ = 64 };

/* ---- helpers on the window arithmetic (include/net/tcp.h) ---- */
/* Linux 6.6 (dfa2f0483360): win = space x scaling_ratio / 2^8, the ratio
 * measured per socket (tcp_measure_rcv_mss); before the first
 * measurement TCP_DEFAULT_SCALING_RATIO, 50 % (697a6c8cec03, 6.10). */
#define TCP_RMEM_TO_WIN_SCALE 8
#define TCP_DEFAULT_SCALING_RATIO (1 << (TCP_RMEM_TO_WIN_SCALE - 1))
static inline int64_t tcp_win_from_space(const struct tcp_sock *tp, int64_t space)
{
    if (tp->th->scaling_ratio) {
        int64_t r = tp->scaling_ratio ? tp->scaling_ratio : TCP_DEFAULT_SCALING_RATIO;
        return (space * r) >> TCP_RMEM_TO_WIN_SCALE;
    }
    int s = tp->th->adv_win_scale;
    return s <= 0 ? space >> -s : space - (space >> s);
}
static inline int64_t tcp_space(const struct tcp_sock *tp)
{
    return tcp_win_from_space(tp, (int64_t)tp->sk.rcvbuf - (int64_t)tp->rmem_alloc);
}
static inline int64_t tcp_full_space(const struct tcp_sock *tp)
{
    return tcp_win_from_space(tp, tp->sk.rcvbuf);
}
/* tcp_mss_to_mtu: the packet a segment of mss_cache makes, TCP header
 * (with the timestamp option where negotiated) and IP header included */
static inline uint32_t tcp_mss_to_mtu(const struct tcp_sock *tp)
{
    return tp->mss + TCP_HDR_LEN + (tp->ts_ok ? TCPOLEN_TS_ALIGNED : 0) + ip_hdr_len(tp->sk.family);
}
static inline uint32_t tcp_in_flight(const struct tcp_sock *tp)
{
    return tp->packets_out - (tp->sacked_out + tp->lost_out) + tp->retrans_out;
}
/* Blocks of 64 segments (3.5 KB): memory follows the segments in flight
 * (140 000 at 10 Gbit/s and 100 ms take 8 MB, not the 15 MB of the next
 * power of 2), and a flow that sends little holds one block. */
#define TCP_SEG_BLK_SHIFT 6
#define TCP_SEG_BLK (1u << TCP_SEG_BLK_SHIFT)
static inline struct tcp_seg *tcp_seg_at(const struct tcp_sock *tp, uint64_t idx)
{
    return &tp->blk[(idx >> TCP_SEG_BLK_SHIFT) & (tp->nblk - 1)][idx & (TCP_SEG_BLK - 1)];
}
/* The block of segment idx (nxt_idx, about to be sent) exists. */
void tcp_seg_reserve(struct tcp_sock *tp, uint64_t idx);
/* Blocks wholly below new_una_idx go (the ACK moved una from old). */
void tcp_seg_release(struct tcp_sock *tp, uint64_t old_una_idx, uint64_t new_una_idx);
void tcp_seg_free_all(struct tcp_sock *tp);
static inline uint64_t tcp_now_ms(const struct tcp_sock *tp, simtime_t now)
{
    return (uint64_t)(now / PS_PER_MS) + (uint32_t)tp->ts_off;
}
/* rcvmem for DRS: SKB_TRUESIZE(advmss + MAX_TCP_HEADER), +128 until win >= advmss */
uint64_t tcp_drs_rcvmem(const struct tcp_sock *tp);

/* ---- engine API ---- */
struct tcp_sock *tcp_sock_new(struct host *h, uint16_t port);
/* Active open to daddr:dport at the current time on core c. */
void tcp_connect(struct tcp_sock *tp, uint32_t daddr, uint16_t dport, struct core *c);
/* Passive: the listener's accepted connection is created on the SYN. */
void tcp_listen(struct tcp_sock *tp, void (*accept)(struct tcp_sock *listener, struct tcp_sock *child));
void tcp_rcv(struct host *h, struct skb *skb, struct core *c);
/* Sender: push what cwnd, rwnd and pacing allow. */
void tcp_write_xmit(struct tcp_sock *tp, struct core *c);
/* Reader: copy up to len in-order bytes in skb-sized chunks, running DRS
 * after each; then cleanup_rbuf. Returns bytes copied. */
uint64_t tcp_recvmsg(struct tcp_sock *tp, uint64_t len, struct core *c);
/* Record the traces of this endpoint (sender or receiver side). */
void tcp_trace(struct tcp_sock *tp, bool sender);
/* One `ss -tmi` sample of the endpoint (tcp_ss.c): its lines to the run's
 * ss file (sim_emit_sock) and its fields to series named prefix + "ss." +
 * field. Nothing for an endpoint that is not established. */
void tcp_ss(struct tcp_sock *tp, const char *prefix);
void tcp_register_counters(struct sim *s, struct tcp_stats *st, const char *prefix);
/* tsq_throttled and gso_pkts_out, for a host with TSQ or a GSO port */
void tcp_offload_register_counters(struct sim *s, struct tcp_stats *st, const char *prefix, const struct host *h);
/* The socket's SYN would ask for ECN (tcp_ecn_send_syn: net.ipv4.tcp_ecn
 * 1 or a cc that needs it): only then can its connection have ECN, and
 * only then are the stats' ecn_* fields registered (tcp_ecn.c). */
bool tcp_ecn_syn_asks(const struct tcp_sock *tp);
void tcp_ecn_register_counters(struct sim *s, struct tcp_stats *st, const char *prefix);
/* Receiver window init after the handshake (tcp_init_buffer_space). */
void tcp_init_buffer_space(struct tcp_sock *tp);
/* Send buffer at the handshake (tcp_sndbuf_expand, tcp_sock.c). */
void tcp_sndbuf_expand(struct tcp_sock *tp);
/* Segments per skb tcp_write_xmit would build (tcp_tso_segs): the cc's
 * tso_segs_goal, else tcp_tso_autosize with tcp_min_tso_segs (2). */
uint32_t tcp_tso_segs(struct tcp_sock *tp);
/* sk_pacing_rate, bytes/s, whether or not the socket paces (tcp_ack.c) */
uint64_t tcp_sk_pacing_rate(const struct tcp_sock *tp);
/* DRS (tcp_rcv_space_adjust), the core part; variant step via tp->drs. */
void tcp_rcv_space_adjust(struct tcp_sock *tp, simtime_t now);
/* Pure function of the DRS step: new rcvbuf for (copied, space) or 0 when
 * no raise applies (tests and the log use it). */
uint64_t tcp_drs_new_rcvbuf(const struct tcp_drs_ops *drs, uint64_t copied, uint64_t space, uint32_t advmss,
                            uint64_t rcvmem, uint64_t rmem_max);
/* Initial receive window and wscale (tcp_select_initial_window). */
void tcp_select_initial_window(uint64_t space, uint32_t mss, uint64_t rmem_max, bool wscale_ok, uint32_t init_rcv_wnd,
                               uint64_t *rcv_wnd, uint64_t *window_clamp, uint8_t *rcv_wscale);
/* Sender helpers used by CC modules (tcp_cong.c; tcp_is_cwnd_limited: tcp_ack.c) */
void tcp_cong_avoid_ai(struct tcp_sock *tp, uint32_t w, uint32_t acked);
uint32_t tcp_slow_start(struct tcp_sock *tp, uint32_t acked);
bool tcp_is_cwnd_limited(const struct tcp_sock *tp);
static inline bool tcp_in_slow_start(const struct tcp_sock *tp) { return tp->snd_cwnd < tp->snd_ssthresh; }
/* The random numbers a congestion control draws (BBR's first gain-cycle
 * phase, CDG's back-off): a stream per socket, seeded from the run's seed,
 * the socket's addresses and the module's NAME (LEN bytes, a tree's @LABEL
 * left out), so that netsim's port and a kernel module of that name
 * (kcompat/) draw the same numbers on one seed; tcp_cong.c */
uint64_t tcp_ca_random_seed(const struct tcp_sock *tp, const char *name, size_t len);
uint32_t tcp_ca_random_u32(uint64_t *state);
/* prandom_u32_max (get_random_u32_below in 6.2): [0, n) by a multiply and
 * a shift, as the kernel reduces, not a modulo */
static inline uint32_t tcp_ca_random_below(uint64_t *state, uint32_t n)
{
    return (uint32_t)((uint64_t)tcp_ca_random_u32(state) * n >> 32);
}
/* tcp_cong.c's Reno, as the kernel exports it to other modules */
void tcp_reno_cong_avoid(struct tcp_sock *tp, uint32_t acked);
uint32_t tcp_reno_ssthresh(struct tcp_sock *tp);
uint32_t tcp_reno_undo_cwnd(struct tcp_sock *tp);
/* tcp_current_ssthresh: ssthresh, or in no window reduction at least
 * 3/4 of cwnd */
static inline uint32_t tcp_current_ssthresh(const struct tcp_sock *tp)
{
    if (tp->ca_state == TCP_CA_CWR || tp->ca_state == TCP_CA_Recovery)
        return tp->snd_ssthresh;
    uint32_t q = (tp->snd_cwnd >> 1) + (tp->snd_cwnd >> 2);
    return tp->snd_ssthresh > q ? tp->snd_ssthresh : q;
}
static inline bool tcp_ca_needs_ecn(const struct tcp_sock *tp) { return tp->cc->flags & TCP_CONG_NEEDS_ECN; }
/* An ACK now that acknowledges rcv_nxt rather than tp->rcv_nxt, with ECE
 * as tp->ecn_flags say: 4.15's DCTCP sends one for the data before a CE
 * state change by swapping tp->rcv_nxt around tcp_send_ack (4.18's
 * __tcp_send_ack), and so does this, with all tcp_send_ack does: the
 * NON_DELAYED_ACK event, the pending delayed ACK cleared, the window
 * chosen against that rcv_nxt. On the core the socket last ran on. */
void tcp_send_ack_for(struct tcp_sock *tp, uint64_t rcv_nxt);
/* The value of the cc's own key keys[i] on this socket's host. */
static inline int64_t tcp_cc_key(const struct tcp_sock *tp, int i) { return tp->th->cc_vals[i]; }
simtime_t tcp_min_rtt(const struct tcp_sock *tp);

/* Westwood+'s BWE x RTTmin in packets, at least 2 (cc_westwood.c) */
uint32_t tcp_westwood_bw_rttmin(const struct tcp_sock *tp);
/* HighSpeed TCP's table (cc_highspeed.c): RFC 3649's windows, b(w) x 256 */
#define TCP_HSTCP_ROWS 72
struct tcp_hstcp_row { uint32_t cwnd, md; };
extern const struct tcp_hstcp_row tcp_hstcp_table[TCP_HSTCP_ROWS];

/* The registered variant of that name, or NULL (tcp_cong.c). */
const struct tcp_cc_ops *tcp_cc_find(const char *name);
/* Recount the scoreboard from the per-segment flags and compare with the
 * counters (tests): 0 when consistent, else a code saying which differs. */
int tcp_check_scoreboard(const struct tcp_sock *tp);
const struct tcp_drs_ops *tcp_drs_find(const char *name);

#endif
