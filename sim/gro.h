/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gro.h - generic receive offload at a NAPI context (Linux 4.15
 * net/core/dev.c dev_gro_receive, napi_gro_flush; skbuff.c
 * skb_gro_receive): up to MAX_GRO_SKBS packets held, one per flow, each
 * growing by the in-order segments the protocol's rule lets it take
 * (sim/offload.h), and handed up when the rule says so, when it would pass
 * 64 KB, when a ninth flow needs room, or at the end of the poll.
 */
#ifndef NETSIM_GRO_H
#define NETSIM_GRO_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/skb.h"

#define GRO_MAX_SKBS 8           /* MAX_GRO_SKBS */
#define GRO_MAX_SKB_FRAGS 17     /* MAX_SKB_FRAGS: page fragments one skb carries */
#define GRO_MAX_LEN 65536        /* skb_gro_receive: -E2BIG at p->len + len >= 64 KB */

struct gro_held {
    struct skb *skb;             /* the GRO packet: its first segment, grown */
    struct skb *last;            /* NAPI_GRO_CB(p)->last: where the next merge's fragments go */
    uint32_t last_frags;         /* page fragments of `last` */
    uint64_t age;                /* jiffy it was first held (NAPI_GRO_CB(skb)->age) */
};

struct gro_list {
    struct gro_held held[GRO_MAX_SKBS];   /* oldest first */
    uint32_t n;
    uint64_t merged, flushed;    /* segments merged into a held packet; packets handed up */
    uint32_t frag_truesize;      /* truesize of one RX buffer: a frame's page_part of n of them is n
                                  * page fragments (0: one fragment a frame) */
};

/* Handed a packet up (netif_receive_skb): the NIC's delivery. */
typedef void (*gro_deliver_fn)(void *ctx, struct skb *skb);

/* One received frame (napi_gro_receive). `page_part` is its truesize
 * beyond the skb head (the RX buffer): what a merge into page fragments
 * adds; a frame without one merges whole (frag_list). */
void gro_receive(struct gro_list *g, struct skb *skb, uint32_t page_part, uint64_t jiffy, gro_deliver_fn deliver,
                 void *ctx);
/* napi_gro_flush: every held packet, or with old_only those held since
 * an earlier jiffy, oldest first. */
void gro_flush(struct gro_list *g, bool old_only, uint64_t jiffy, gro_deliver_fn deliver, void *ctx);
/* Free what is held (teardown). */
void gro_purge(struct gro_list *g);

#endif
