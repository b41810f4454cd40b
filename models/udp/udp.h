/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udp.h - UDP for applications: sockets, sending a datagram, the receive
 * handler the IP layer calls.
 */
#ifndef NETSIM_MODELS_UDP_H
#define NETSIM_MODELS_UDP_H

#include "sim/host.h"

/* Counted per host: datagrams for a port nobody listens on. */
void udp_rcv(struct host *h, struct skb *skb, struct core *c);
/* Build and send one datagram of `len` payload bytes from sk to
 * (daddr, dport), charging udp_sendmsg and the copy on core c. The skb is
 * charged to the socket's send buffer. Returns 0, -1 if dropped on the way
 * out, or UDP_EMSGSIZE (nothing sent) when the socket says IP_PMTUDISC_DO
 * and the datagram exceeds the path MTU. */
#define UDP_EMSGSIZE (-2)
/* What iperf3 -u writes at the start of each datagram's payload
 * (iperf_udp.c: the send time and a sequence number from 1), kept in
 * skb->l4 since the simulator carries no payload bytes. */
struct udp_app_hdr {
    uint64_t seq;                /* 0: none */
    simtime_t sent;
};
/* app: the payload's header, or NULL. */
int udp_sendmsg(struct sock *sk, uint32_t daddr, uint16_t dport, uint32_t len, uint32_t flow,
                const struct udp_app_hdr *app, struct core *c);
/* Read one datagram, charging udp_recvmsg and copy_to_user; returns its
 * payload bytes, or -1 when the queue is empty. */
int64_t udp_recvmsg(struct sock *sk, struct udp_app_hdr *app, struct core *c);
/* udp_pcap.c: the family's capture writer (sim/pcap_wire.h) */
struct pcap_l4;
void udp_pcap_write(const struct skb *skb, const struct pcap_l4 *w);

#endif
