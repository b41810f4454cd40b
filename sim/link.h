/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * link.h - full-duplex point-to-point Ethernet links.
 *
 * Each direction is, in the order a packet meets them:
 *   1. the sending port's qdisc tree (qdisc.h; netem at its root when
 *      the direction has any netem key, models/qdisc/netem.c; mq over
 *      pfifo_fast when nothing is said), then its TX ring (nic.h);
 *   3. the wire: a serialiser at `rate`. A frame carrying an IP packet of
 *      L bytes occupies max(L + 18, 64) + 20 bytes of wire time: 14 header
 *      + 4 FCS, padded to the 64-byte minimum frame, plus 8 preamble/SFD
 *      and 12 inter-frame gap;
 *   4. `propagation`, the cable's one-way delay (constant; default 0);
 *   5. the receiving NIC's DMA and descriptor write-back (nic_rx_latency).
 * So `delay` is netem's delay on the egress of that direction, and a
 * packet reaches the receiver at the end of its serialisation, which
 * starts no earlier than its netem time_to_send, plus the propagation.
 *
 * The sending NIC hands a frame over when its DMA has it; the direction
 * computes when the wire is free, when the last bit leaves, and when it
 * arrives, all at once, so a frame costs one event (its arrival), not
 * three. Arrivals are in order (the wire is FIFO and the propagation
 * constant) and wait in a queue with one event armed for its head.
 */
#ifndef NETSIM_LINK_H
#define NETSIM_LINK_H

#include <stdint.h>
#include "sim/event.h"
#include "sim/netem.h"
#include "sim/qdisc.h"
#include "sim/rng.h"
#include "sim/skb.h"

struct nic;

#define ETH_HLEN_FCS   18        /* 14 header + 4 FCS */
#define ETH_MIN_FRAME  64
#define ETH_PHY_OVERHEAD 20      /* 8 preamble + SFD, 12 inter-frame gap */

static inline uint32_t wire_bytes(uint32_t ip_len)
{
    uint32_t frame = ip_len + ETH_HLEN_FCS;
    return (frame < ETH_MIN_FRAME ? ETH_MIN_FRAME : frame) + ETH_PHY_OVERHEAD;
}

struct link_dir {
    struct evq *q;
    char name[128];              /* "link wire fwd (sender1 -> receiver)" */
    char key[64];                /* counter prefix "link.wire.fwd" */
    uint64_t rate;               /* bit/s */
    uint32_t mtu;                /* IP MTU */
    struct netem_opts nopts;     /* netem's options, when netem_on */
    bool netem_on;               /* netem at the root of qd: a netem key given, netem_at = root */
    uint64_t no_netem_loss;      /* 0: the netem_loss counter of a direction without netem at its root */
    struct qdisc_args *qargs;    /* a qdisc key's discipline, as parsed; NULL: the port's default */
    simtime_t qd_every;          /* period of its backlog and sojourn series; 0: none */
    bool netem_leaf;             /* netem_at = leaf: netem under the qdisc, not over it */
    struct rng rng;              /* netem's draws */
    simtime_t propagation;
    simtime_t wire_free;         /* when the serialiser is next idle */
    simtime_t rx_latency;        /* receiving NIC's DMA + write-back */
    struct nic *dst;
    struct skb_queue inflight;
    struct event arrive;
    uint64_t tx_packets, tx_bytes, wire_busy_ps;
    /* the last frame's serialisation time, for the length and rate it was
     * worked out at: frames of one direction mostly share a size (full
     * segments one way, ACKs the other), and a 64-bit division sits on
     * the chain each frame's start time waits for */
    uint64_t ser_rate;
    uint32_t ser_len;
    simtime_t ser;
};

struct link {
    char name[32];
    struct link_dir dir[2];      /* 0: first end -> second end ("fwd") */
};

void link_dir_init(struct link_dir *d, struct evq *q, uint64_t seed, const char *key);
void link_dir_free(struct link_dir *d);
/* Put a frame on the wire no earlier than t. Returns when its last bit has
 * left. */
simtime_t link_dir_xmit(struct link_dir *d, struct skb *skb, simtime_t t);

/* Receiving side, implemented by the NIC. */
void nic_rx(struct nic *n, struct skb *skb);

#endif
