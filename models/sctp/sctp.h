/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sctp.h - the SCTP association engine (docs/models/sctp.md): one
 * association between two sockets, Linux 3.14 send/receive semantics for
 * Part A (receive window) and the 4.4 heartbeat re-arm for Part B.
 *
 * One struct sctp_assoc is one end. Each end has a sender half (TSNs,
 * transmitted chunks, peer rwnd, and per peer address a struct
 * sctp_transport with cwnd, RTO, T3 and heartbeat) and a receiver half
 * (TSN map, lobby, receive queue, rwnd, socket lock and backlog, delayed
 * SACK). Data flows from the client end to the server end; the server end's
 * sender half only sends SACKs.
 *
 * No malloc on the hot path: chunks live in a ring indexed by TSN, lobby
 * entries in a ring indexed by TSN, the receive queue in a ring of message
 * lengths, all fixed arrays inside the association (about 200 KB per end),
 * which lives in its application's block.
 */
#ifndef NETSIM_MODELS_SCTP_H
#define NETSIM_MODELS_SCTP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "models/sctp/ktimer.h"
#include "sim/arith.h"
#include "sim/host.h"
#include "sim/variant.h"

struct sim;
struct sctp_assoc;
struct sctp_transport;

#define SCTP_COMMON_HDR 12
#define SCTP_DATA_HDR   16
#define SCTP_SACK_HDR   16       /* chunk header 4 + cum 4 + a_rwnd 4 + counts 4 */
#define SCTP_HB_LEN     56       /* HEARTBEAT chunk with its heartbeat info */
#define SCTP_TX_RING    4096     /* chunks the sender can hold (sndbuf / charge) */
#define SCTP_TSN_MAP    4096     /* kernel SCTP_TSN_MAP_SIZE: TSNs beyond cum+4096 are discarded */
#define SCTP_RQ_RING    16384    /* messages in the receive queue */
#define SCTP_MAX_GAPS   11       /* gap blocks a SACK carries here (kernel: 16; skb->l4 holds 11) */
#define SCTP_MAX_PATHS  4        /* peer addresses of a multi-homed association */

enum { SCTP_DATA = 0, SCTP_SACK = 3, SCTP_HEARTBEAT = 4, SCTP_HEARTBEAT_ACK = 5 };
enum { FR_CAN = 0, FR_NEED = 1, FR_DONT = 2 };
enum { CH_FREE = 0, CH_OUTQ, CH_SENT, CH_RTX };
enum { TD_T3 = 1, TD_SACK = 2, TD_HB = 4 };
/* Transport states (3.14 enum sctp_transport_state less UNKNOWN: both
 * ends start ESTABLISHED; the address the client connected to is confirmed
 * by the handshake, the peer's other addresses start UNCONFIRMED). PF is
 * the quick-failover draft's "potentially failed" (3.7 on). */
enum { SCTP_T_ACTIVE = 0, SCTP_T_PF = 1, SCTP_T_INACTIVE = 2, SCTP_T_UNCONFIRMED = 3 };

/* Header fields carried in skb->l4. */
struct sctp_wire {
    uint8_t type;
    uint8_t flags;               /* DATA: bit 0 = fast retransmission (for the drop counter) */
    uint8_t ngaps, ndups;
    uint32_t tsn;                /* DATA: first TSN; SACK: cumulative TSN ack;
                                  * HEARTBEAT / -ACK: the heartbeat info's sent_at (jiffies) */
    uint32_t a_rwnd;             /* SACK */
    uint32_t len;                /* DATA: payload per chunk */
    uint16_t nchunks;            /* DATA: consecutive TSNs of equal length */
    uint8_t path;                /* the address pair it travels: path k joins the k-th
                                  * address (NIC) of each end */
    uint16_t gap[SCTP_MAX_GAPS][2];   /* SACK: start, end offsets from cum */
};
_Static_assert(sizeof(struct sctp_wire) <= 64, "sctp header must fit skb->l4");

/* A variant of the receive window: VARIANT("sctp.rwnd", ops) (sim/variant.h);
 * every member required. */
struct sctp_rwnd_ops {
    const char *name;
    const char *doc;
    const struct variant_key *keys;   /* optional (sim/variant.h) */
    void (*on_receive)(struct sctp_assoc *a, uint32_t len);   /* after rmem += charge */
    void (*on_release)(struct sctp_assoc *a, uint32_t len);   /* before rmem -= charge */
    bool (*reject)(const struct sctp_assoc *a, uint32_t datalen);
};

/* A variant of the heartbeat re-arm: VARIANT("sctp.hb", ops); every member
 * required. */
struct sctp_hb_ops {
    const char *name;
    const char *doc;
    const struct variant_key *keys;   /* optional (sim/variant.h) */
    uint64_t (*timeout)(struct sctp_transport *t);           /* absolute expiry, jiffies */
    void (*on_data_sent)(struct sctp_transport *t, struct core *c);
};

/* The registered variant of that name, or NULL (module.c). */
const struct sctp_rwnd_ops *sctp_rwnd_find(const char *name);
const struct sctp_hb_ops *sctp_hb_find(const char *name);

/* Host keys (sctp.md A.9; net.sctp.* sysctls) and the variants chosen. */
struct sctp_host {
    const struct sctp_rwnd_ops *rwnd;
    const struct sctp_hb_ops *hb;
    uint64_t rto_initial, rto_min, rto_max, hb_interval, sack_timeout;  /* jiffies */
    uint32_t sack_freq, max_burst, rwnd_update_shift;
    uint32_t assoc_max_retrans, path_max_retrans;
    uint32_t pf_retrans;         /* net.sctp.pf_retrans (asoc->pf_retrans): 0, so the first strike makes the path PF */
    uint32_t skb_struct_size;
    uint32_t chunk_struct_size;  /* sizeof(struct sctp_chunk), charged to wmem_alloc with the chunk skb */
    bool nodelay, lazy_rearm_jitter;
    struct rng rng;              /* prandom_u32 */
    /* mod_timer bookkeeping per caller (ktimer.c) */
    struct ktimer_stats kt;
};

struct sctp_chunk {
    uint32_t tsn, len;
    simtime_t sent_at;
    uint8_t state;               /* CH_* */
    uint8_t fast_rtx;            /* FR_* */
    uint8_t missing;             /* miss indications */
    uint8_t tp;                  /* transport it was last sent on (chunk->transport) */
    bool gap_acked, resent, rtt_in_progress, frtx_sent;
};

/* Counters of one association end (sctp.md A.12, B.4). */
struct sctp_stats {
    uint64_t data_chunks_sent, data_packets_sent, retransmits, fast_retransmits, t3_expiries;
    uint64_t zero_window_probes, sacks_rx, sacks_tx, window_update_sacks, rwnd_discards;
    uint64_t backlog_drops, frtx_dropped, reneges, reneged_tsns, dup_tsns, map_discards;
    uint64_t error_count_max, hb_sent, hb_ack_rx, stalls, stall_ps_max, stall_ps_sum;
    uint64_t hb_idle_n, frtx_lost, prandom_calls, hb_lazy_skips, t3_sndbuf_full, t3_window_full;
    uint64_t stalls_2s;          /* T3 expiries that ended a stall of 2 s or more */
    /* path management (sm_sideeffect.c sctp_do_8_2_transport_strike, sctp_cmd_transport_on) */
    uint64_t pf_entries, pf_exits, path_inactive, hb_rto_doublings, hb_ack_stale;
    uint64_t assoc_abort_threshold;   /* strikes at overall_error_count >= association_max_retrans: 3.14 would abort; counted only */
    uint64_t timer_owned_retries;     /* T3 / heartbeat expiries retried HZ/20 later: socket owned by the user */
    uint64_t backlogged;              /* packets that waited in the socket backlog (sctp_add_backlog) */
    uint64_t t3_alternate;            /* T3 expiries on an address other than the primary */
    uint64_t paths_confirmed;         /* UNCONFIRMED addresses confirmed by a HEARTBEAT-ACK */
};

/* One peer address: struct sctp_transport. Congestion control, RTO, the
 * T3-rtx and heartbeat timers and the error counters are per address. */
struct sctp_transport {
    struct sctp_assoc *a;
    uint8_t idx;                 /* path index: the k-th address (NIC) of each end */
    uint8_t tstate;              /* SCTP_T_* */
    uint8_t due;                 /* TD_T3 / TD_HB: expired, waiting for the timer softirq */
    bool rto_pending;
    bool hb_sent;                /* a heartbeat is unacknowledged */
    uint32_t cwnd, ssthresh, pba, flight;
    uint32_t error_count;
    uint64_t rto, srtt, rttvar;  /* jiffies */
    struct ktimer t3, hb;
    simtime_t last_data_sent, hb_last_sent;
    uint64_t last_heard;         /* last_time_heard (jiffies): a chunk came from this address */
};

struct sctp_app_hooks {
    void (*written)(struct sctp_assoc *a, uint32_t bytes, struct core *c);   /* sendmsg returned */
    void (*read)(struct sctp_assoc *a, uint32_t bytes, struct core *c);      /* recvmsg returned */
    void *ctx;
};

struct sctp_assoc {
    struct sock sk;              /* port lookup, sk_rcvbuf / sk_sndbuf */
    struct host *host;
    struct sctp_host *sh;
    struct sctp_assoc *peer_dbg; /* the other end (tests and traces only; all traffic goes by packets) */
    uint32_t peer_addr;
    uint16_t peer_port;
    uint8_t family;
    bool is_client;
    uint32_t flow;
    uint32_t pmtu, frag_point, overhead;   /* overhead: IP + common header */

    /* ---- sender half (outqueue.c, output.c, transport.c) ---- */
    struct sctp_chunk ring[SCTP_TX_RING];
    uint32_t ctsn_ack_point;     /* everything <= is acked and freed */
    uint32_t next_send;          /* first chunk still in the outq */
    uint32_t next_tsn;           /* next TSN to assign (outq tail) */
    uint32_t nrtx;               /* chunks in the retransmit queue */
    uint32_t peer_rwnd, outstanding;
    uint64_t out_qlen;           /* bytes (chunk header + data) in the outq */
    bool fast_rtx;               /* q->fast_rtx: the next flush is the fast retransmission (one packet) */
    bool fast_recovery;          /* per association since 3.4 ("sctp: fast recovery algorithm is per association") */
    uint32_t fast_recovery_exit;
    /* peer addresses (asoc->peer.transport_addr_list): 0 is the primary;
     * new data goes to active_path, retransmissions to retran_path */
    struct sctp_transport tp[SCTP_MAX_PATHS];
    uint8_t npaths, active, retran;
    uint8_t last_data_from;      /* receiver: path of the last DATA (where SACKs go) */
    /* Send buffer (3.14, sndbuf_policy 0; sctp_set_owner_w / sctp_wfree):
     * every queued or unacked chunk holds its skb's truesize plus
     * sizeof(struct sctp_chunk) in sk_wmem_alloc and the truesize alone in
     * sk_wmem_queued, until it is cum-acked and freed. */
    uint32_t wmem_alloc;         /* sk_wmem_alloc (less the socket's own reference) */
    uint32_t wmem_queued;        /* sk_wmem_queued */
    bool sndbuf_locked;          /* SO_SNDBUF was set (SOCK_SNDBUF_LOCK): no wmem_queued fallback */
    bool sndbuf_wait;            /* the writer is inside sctp_wait_for_sndbuf */
    uint32_t overall_error_count; /* asoc->overall_error_count */
    simtime_t last_progress;     /* last cum-ack advance (stall durations) */

    /* ---- receiver half (ulpqueue.c, ulpevent.c, sm_statefuns.c) ---- */
    uint32_t cum;                /* cumulative TSN */
    uint32_t max_tsn_seen;
    uint32_t lobby[SCTP_TSN_MAP]; /* len + 1 at [tsn % MAP] for TSNs above cum received; 0 = absent */
    uint32_t lobby_n;
    uint32_t rq[SCTP_RQ_RING];   /* receive queue: message lengths */
    uint32_t rq_head, rq_n;
    uint64_t rmem;               /* sk_rmem_alloc */
    uint32_t rwnd, a_rwnd, rwnd_over, rwnd_press;
    bool owned;                  /* sock_owned_by_user */
    struct skb_queue backlog;
    uint64_t backlog_len;        /* sk_backlog.len: truesize, reset when the drain ends */
    bool sack_needed;
    uint32_t sack_cnt, ndups;
    struct ktimer sack_timer;

    /* ---- timers run in softirq on timer_core (timer handlers need a slice) ---- */
    struct cpu_task timer_task;
    struct core *timer_core;
    uint8_t timers_due;          /* TD_SACK (the transports keep their own bits) */

    /* ---- processes ---- */
    struct core *writer_core, *reader_core;
    struct cpu_task writer, reader;
    bool writer_sleeping, reader_sleeping, writer_woken, reader_woken;
    int writer_state;            /* W_SEND, or W_RELEASE: release_sock draining the backlog */
    bool writer_wait;            /* the sendmsg just made found no room: sleep after release_sock */
    uint32_t msg_len;            /* the app's write / read size */
    int reader_state;
    uint32_t reading;            /* message being read */
    simtime_t stop;
    struct sctp_app_hooks hooks;

    struct sctp_stats st;
};

/* assoc.c */
int sctp_host_slot(void);
struct sctp_host *sctp_host_of(struct host *h);
/* Set up the two ends of an association (the handshake is not exchanged:
 * both ends start ESTABLISHED with the values INIT / INIT-ACK would carry,
 * sctp.md A.4). Socket buffers: 0 keeps the sysctl default. Errors go to
 * the flow's section. */
void sctp_assoc_pair(struct sctp_assoc *cli, struct sctp_assoc *srv, struct host *from, struct host *to,
                     uint8_t family, uint16_t dport, uint32_t flow, uint64_t sndbuf, uint64_t rcvbuf,
                     int npaths, struct cfg_section *sec);
/* Register the association's counters as flow.N.sctp.{client,server}.* */
void sctp_assoc_counters(struct sim *s, struct sctp_assoc *cli, struct sctp_assoc *srv, int flow);
static inline uint64_t sctp_jiffies(simtime_t t) { return kt_jiffies(t); }
static inline simtime_t sctp_now(struct core *c) { return c ? core_now(c) : ctx_now(); }
/* prandom_u32_max(n): uniform on [0, n), charged on c when c is given. */
uint64_t sctp_prandom_max(struct sctp_assoc *a, uint64_t n, struct core *c);
/* RTT sample in jiffies (sctp_transport_update_rto). */
void sctp_update_rto(struct sctp_transport *t, uint64_t rtt);
/* The hbinterval part of 3.14 sctp_transport_timeout() (4.4 alike): it
 * counts unless the transport is UNCONFIRMED or PF, so a PF path is probed
 * every RTO (+- jitter). Both sctp.hb variants add it. */
static inline uint64_t sctp_hb_interval(const struct sctp_transport *t)
{
    return t->tstate == SCTP_T_PF || t->tstate == SCTP_T_UNCONFIRMED ? 0 : t->a->sh->hb_interval;
}

/* The sender: output.c (the outqueue: send buffer, bundling, flush) and
 * transport.c (SACKs, cwnd, RTO, T3-rtx, heartbeats, the timers). */
/* sctp_sendmsg of one message of len bytes from core c: false when the
 * writer must wait for send buffer (the caller sleeps; sctp_wait_for_sndbuf). */
bool sctp_sendmsg(struct sctp_assoc *a, uint32_t len, struct core *c);
/* The send-buffer rule of 3.14 sctp_sendmsg, without its side effects
 * beyond a->sndbuf_wait: may a len-byte message be queued now? */
bool sctp_sndbuf_ready(struct sctp_assoc *a, uint32_t len);
/* Charge / release one DATA chunk of len payload bytes (sctp_set_owner_w,
 * sctp_wfree). */
void sctp_set_owner_w(struct sctp_assoc *a, uint32_t len);
void sctp_wfree(struct sctp_assoc *a, uint32_t len);
/* truesize of a DATA chunk's skb: alloc_skb(WORD_ROUND(16 + len)). */
static inline uint32_t sctp_chunk_truesize(uint32_t len) { return skb_truesize_for(SCTP_DATA_HDR + len); }
void sctp_outq_flush(struct sctp_assoc *a, struct core *c, bool rtx_timeout);
void sctp_sack_rcv(struct sctp_assoc *a, const struct sctp_wire *w, struct core *c);
void sctp_t3_expire(struct event *ev);
void sctp_hb_expire(struct event *ev);
/* The state functions behind the sender's timers and the heartbeat ACK,
 * run on core c (the timer softirq; the test calls them directly):
 * T3-rtx expiry (sctp_sf_do_6_3_3_rtx), heartbeat expiry
 * (sctp_sf_sendbeat_8_3), a HEARTBEAT-ACK carrying sent_at
 * (sctp_sf_backbeat_8_3 -> sctp_cmd_transport_on). */
void sctp_t3_timeout(struct sctp_transport *t, struct core *c);
void sctp_hb_timeout(struct sctp_transport *t, struct core *c);
void sctp_hb_ack_rcv(struct sctp_transport *t, uint32_t sent_at, struct core *c);
void sctp_transport_reset_timers(struct sctp_transport *t, struct core *c);
uint32_t sctp_wspace(const struct sctp_assoc *a);
/* A packet of the association on path t (NULL: the primary). */
struct skb *sctp_skb_new(const struct sctp_assoc *a, const struct sctp_transport *t, uint32_t ip_len);
/* A HEARTBEAT or HEARTBEAT-ACK packet on path t carrying the heartbeat info's sent_at. */
void sctp_send_ctrl(struct sctp_transport *t, uint8_t type, uint32_t sent_at, struct core *c);
/* Sum of the transports' flight sizes (traces). */
uint32_t sctp_flight(const struct sctp_assoc *a);

/* input.c: the receiver. */
void sctp_rcv(struct host *h, struct skb *skb, struct core *c);
void sctp_sack_timer_expire(struct event *ev);
void sctp_window_update(struct sctp_assoc *a, struct core *c);
void sctp_gen_sack(struct sctp_assoc *a, bool force, struct core *c);
/* Process one packet with the socket not owned (sctp_backlog_rcv / direct). */
void sctp_input(struct sctp_assoc *a, struct skb *skb, struct core *c);

/* process.c: the writer (blocking sendmsg loop) and reader (select + read). */
struct flow;
/* What every SCTP application's setup shares: the flow's `cpu`,
 * `server_cpu`, `port` (default def_port), `sndbuf` and `rcvbuf` keys, the
 * association pair, the check that a message of `len` fits one DATA chunk
 * (reported on key len_key), the reader/writer processes and the timer
 * cores. Returns the client's core index. */
int sctp_app_pair(struct flow *f, struct cfg_section *sec, struct sctp_assoc *cli, struct sctp_assoc *srv,
                  uint8_t family, const char *len_key, uint32_t len, const char *def_port);
void sctp_procs_init(struct sctp_assoc *client, struct sctp_assoc *server, struct core *wcore, struct core *rcore,
                     uint32_t msg_len, simtime_t stop);
void sctp_procs_start(struct sctp_assoc *client, struct sctp_assoc *server, simtime_t start);
void sctp_wake_reader(struct sctp_assoc *a, struct core *c);
void sctp_wake_writer(struct sctp_assoc *a, struct core *c);

/* Charge a cost row (skipped when the profile gives it 0, so that a
 * profile that lumps the work elsewhere prints no empty rows). */
static inline void sctp_charge(struct host *h, struct core *c, int sym)
{
    if (h->cost[sym] > 0)
        host_charge(h, c, sym);
}
static inline void sctp_charge_bytes(struct host *h, struct core *c, int sym, uint64_t bytes)
{
    if (h->cost[sym] > 0)
        host_charge_bytes(h, c, sym, bytes);
}

/* costs.c: symbol ids. */
struct sctp_syms {
    int syscall, sendmsg, alloc_skb, copy_user, outq_flush, reset_timers, prandom, memcpy_erms;
    int pkt_xmit, rcv, add_backlog, do_sm, make_rcvmsg, irq_ulpq, wake_key, irq_wake, make_sack;
    int outq_sack, kfree, slab_free, pvclock, select, recvmsg, wake_reader, wake_writer;
    int ulpq_irq_cost, wake_irq_cost, ulpq_self;
};
extern struct sctp_syms sctp_sym;
void sctp_syms_init(void);

/* TSN serial arithmetic (RFC 1982 as the kernel's TSN_lt). */
ARITH_WRAPS static inline bool tsn_lt(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }   /* mod 2^32 */
ARITH_WRAPS static inline bool tsn_lte(uint32_t a, uint32_t b) { return (int32_t)(a - b) <= 0; }

#endif
