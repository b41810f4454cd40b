/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * offload.h - segmentation and receive offloads, protocol-neutral (the
 * kernel's net_offload): a GSO packet is cut into its segments at the
 * NIC (TSO) or before the driver (software GSO), and NAPI merges a flow's
 * segments into GRO packets. The header rules belong to the protocol,
 * which registers them here (models/tcp/tcp_offload.c for TCP).
 */
#ifndef NETSIM_OFFLOAD_H
#define NETSIM_OFFLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/skb.h"

/* What tcp_gro_receive decides for a segment against the packet held for
 * its flow. */
enum gro_verdict {
    GRO_MERGE,                   /* the segment joins the held packet */
    GRO_MERGE_FLUSH,             /* joins it, and the packet goes up now (a short
                                  * segment, PSH) */
    GRO_FLUSH_HELD,              /* the held packet goes up; the segment starts a new one */
    GRO_FLUSH_BOTH,              /* the held packet goes up, then the segment alone */
};

struct net_offload {
    /* Header of segment i of n cut from a GSO packet whose first segment
     * the copy still describes: sequence numbers, flags only on the first
     * or the last (tcp_gso_segment). */
    void (*gso_fixup)(struct skb *seg, uint32_t i, uint32_t n, uint32_t mss);
    /* The segment may be held for merging (a full-sized data segment with
     * no flag that flushes). */
    bool (*gro_can_hold)(const struct skb *skb);
    /* Same flow as the held packet (ports, and the addresses the engine
     * has compared)? */
    bool (*gro_same_flow)(const struct skb *held, const struct skb *skb);
    enum gro_verdict (*gro_receive)(const struct skb *held, const struct skb *skb);
    /* Optional: the segment was merged into the held packet (payload and
     * length already added), for header state the last segment carries. */
    void (*gro_merged)(struct skb *held, const struct skb *skb);
};

void offload_register(uint8_t proto, const struct net_offload *ops);
const struct net_offload *offload_of(uint8_t proto);

/* Cut a GSO packet into its segments (skb_gso_segment): returns the
 * first, chained by next; the input becomes the last, so its RX page
 * and ownership go with exactly one. With `charge`, each segment owns its
 * share of the socket's charge (tcp_gso_segment's sum_truesize), the
 * last the rest; without, the last keeps all of it. */
struct skb *skb_gso_segment(struct skb *skb, bool charge);

#endif
