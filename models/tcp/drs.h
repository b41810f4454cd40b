/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drs.h - receive autotuning's contract (tcp.md §3.8): the tcp.drs ops
 * table, the read-only view of the receiver a variant decides from, and
 * what it decides. Included by tcp.h; the engine is drs.c, the variants
 * drs_*.c.
 *
 * Why a view: the kernel's function reads a dozen fields of the socket
 * and writes three (sk_rcvbuf, window_clamp, rcvq_space.space), and which
 * ones changed between 4.15 and 6.16. A variant gets a copy of the first
 * and returns the second, so that it cannot touch the rest of the
 * socket, and the engine keeps the timing (once per receiver RTT), the
 * counters, the log and the traces the same for every variant.
 */
#ifndef NETSIM_MODELS_TCP_DRS_H
#define NETSIM_MODELS_TCP_DRS_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/variant.h"

struct tcp_sock;

/* What a tcp.drs variant sees of the receiver: a copy the engine fills
 * (drs.c) when tcp_rcv_space_adjust runs, once per receiver RTT as the
 * reader copies, and, for a variant with `ofo`, when an out-of-order
 * segment has been queued (tcp_data_queue_ofo). Every quantity a
 * kernel's tcp_rcv_space_adjust or tcp_rcvbuf_grow reads, and no more. */
struct tcp_drs_view {
    uint64_t copied;              /* read since the period began: copied_seq - rcvq_space.seq (0 on ofo) */
    uint64_t inq;                 /* received in order, not read yet: rcv_nxt - copied_seq */
    uint64_t space;               /* rcvq_space.space */
    int64_t rcv_rtt_us;           /* receiver RTT estimate, rcv_rtt_est.rtt_us >> 3 */
    uint32_t advmss;
    uint64_t rcvbuf;              /* sk_rcvbuf */
    uint64_t rcv_ssthresh, window_clamp;
    uint64_t ofo_bytes;           /* payload in the out-of-order queue */
    uint64_t ofo_span;            /* its right edge (ooo_last_skb's end_seq) - rcv_nxt; 0 when empty */
    uint32_t scaling_ratio;       /* payload/truesize x 256 (tcp.win_from_space = scaling_ratio), else 0 */
    int adv_win_scale;            /* net.ipv4.tcp_adv_win_scale (the adv_win_scale rule) */
    uint64_t rmem[3];             /* net.ipv4.tcp_rmem */
    bool moderate;                /* tcp_moderate_rcvbuf on, and rcvbuf not locked (SO_RCVBUF) */
    const int64_t *vals;          /* the variant's own keys' values, keys[i] in vals[i] */
};

/* What the kernel's function decides: the engine fills it with the
 * socket's values, the variant changes those it changes, the engine
 * writes them back (sk_rcvbuf, window_clamp, rcvq_space.space). */
struct tcp_drs_set {
    uint64_t rcvbuf, window_clamp, space;
};

/* A tcp.drs variant (VARIANT("tcp.drs", ops)). Required: adjust, or
 * grow (the growth step alone, inside 4.15's function: drs.c). */
struct tcp_drs_ops {
    const char *name;                                             /* required */
    const char *doc;                                              /* required */
    const struct variant_key *keys;                               /* optional (sim/variant.h) */
    /* tcp_rcv_space_adjust once the period (a receiver RTT) is over:
     * false when the copied bytes did not exceed space (nothing grew) */
    bool (*adjust)(const struct tcp_drs_view *v, struct tcp_drs_set *s);    /* required, or: */
    /* rcvwin = 2*copied + 16*advmss on entry; return the grown window */
    uint64_t (*grow)(uint64_t rcvwin, uint64_t copied, uint64_t space);
    /* optional: after an out-of-order segment is queued (6.16's
     * tcp_data_queue_ofo calls tcp_rcvbuf_grow); NULL: nothing */
    void (*ofo)(const struct tcp_drs_view *v, struct tcp_drs_set *s);
    /* optional: the receiver RTT estimator (tcp_rcv_rtt_update): the new
     * estimate in us x 8 from the old (0: none yet), a sample in us (a
     * timestamp one may be 0: under 1 ms) and whether it is the
     * once-per-window one; inq as in the view. NULL: 4.15's */
    int64_t (*rcv_rtt)(int64_t rtt_us8, int64_t sample_us, bool win_dep, uint64_t inq);
};

/* The window-from-space rules as the view has them (include/net/tcp.h):
 * tcp_win_from_space, and its inverse tcp_space_from_win, both in the
 * kernel's int (6.6: int argument, int result). */
int64_t tcp_drs_win_from_space(const struct tcp_drs_view *v, int64_t space);
int64_t tcp_drs_space_from_win(const struct tcp_drs_view *v, int64_t win);
/* 4.15's tcp_rcv_space_adjust around a growth step (drs.c): what a
 * variant with only `grow` gets. */
bool tcp_drs_adjust_415(const struct tcp_drs_view *v, struct tcp_drs_set *s,
                        uint64_t (*grow)(uint64_t rcvwin, uint64_t copied, uint64_t space));

/* The receiver RTT estimator of Linux 6.16+ (drs.c), for `rcv_rtt`. */
int64_t tcp_drs_rcv_rtt_616(int64_t rtt_us8, int64_t sample_us, bool win_dep, uint64_t inq);

/* ---- the engine's side (drs.c, called from tcp_input.c) ---- */
/* The receiver as a variant sees it (copied and inq as of now). */
void tcp_drs_view_of(const struct tcp_sock *tp, struct tcp_drs_view *v);
/* tcp_data_queue_ofo's end: the variant's `ofo`, when it has one. */
void tcp_drs_ofo(struct tcp_sock *tp);
/* tcp_measure_rcv_mss's part under tcp.win_from_space = scaling_ratio
 * (Linux 6.14+): a segment of len bytes in an skb of truesize, when len
 * differs from rcv_mss. */
void tcp_scaling_ratio_measure(struct tcp_sock *tp, uint32_t len, uint32_t truesize);

#endif
