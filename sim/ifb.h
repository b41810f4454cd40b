/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ifb.h - the Intermediate Functional Block device (drivers/net/ifb.c)
 * and the ingress hook that feeds it: tc's way of queueing what a host
 * receives.
 *
 *   ip link add ifb0 type ifb
 *   tc qdisc add dev eth0 ingress
 *   tc filter add dev eth0 parent ffff: protocol all u32 match u32 0 0 \
 *       action mirred egress redirect dev ifb0
 *   tc qdisc add dev ifb0 root netem delay 50ms loss 1% limit 100000
 *
 * A port with an ingress redirect hands each packet the stack would get
 * (after GRO, after the taps: tcpdump still sees it, as
 * __netif_receive_skb_core runs the taps before sch_handle_ingress) to
 * the ifb's egress qdisc tree instead (sim/qdisc.h: any discipline,
 * netem included). What the tree sends, the ifb hands back to the stack
 * as received on the port it came from (ifb_ri_tasklet's
 * netif_receive_skb, past the ingress hook: the redirect is not taken
 * twice), on the core that received it, as that core's backlog softirq
 * hands a queued packet up (process_backlog's cost). The ifb's queue
 * never stops (its 32-packet TX queue limit is the default qdisc's,
 * pfifo_fast limit 32, as ifb's tx_queue_len).
 */
#ifndef NETSIM_IFB_H
#define NETSIM_IFB_H

#include <stdint.h>
#include "sim/qdisc.h"
#include "sim/skb.h"

#define IFB_TX_QUEUE_LEN 32      /* drivers/net/ifb.c TX_Q_LIMIT: its tx_queue_len */
#define HOST_MAX_IFBS 8

struct host;
struct core;

struct ifb {
    char name[16];
    struct host *host;
    struct qdisc_root *qd;       /* its egress tree (IFB.qdisc, else the host's default) */
    uint64_t rx_packets, tx_packets, rx_dropped;
};

/* What a port's ingress does: redirect matching packets to an ifb. */
struct ingress {
    struct ifb *to;
    uint8_t family;              /* 0: every packet (protocol all); NET_IPV4 or NET_IPV6 */
};

/* The device side of an ifb's tree. */
extern const struct qdisc_dev_ops ifb_qdisc_dev;

/* sch_handle_ingress on a packet port `nic` (its index + 1) received on
 * RX queue `queue`: true when the ifb took it (queued or dropped) */
bool ingress_redirect(const struct ingress *in, struct skb *skb, unsigned nic, unsigned queue, simtime_t now);

#endif
