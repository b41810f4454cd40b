/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pcap.h - packet capture per NIC port through libpcap (docs/pcap.md).
 *
 * `netsim run --pcap DIR` writes DIR/HOST-PORT.pcap for every port the
 * scenario chooses ([host X] pcap = ...; every port when no host has the
 * key): Ethernet frames with nanosecond timestamps of simulated time, the
 * headers built from the packet's fields, payload bytes as zeros, cut at
 * the snap length, each record's original length the true frame length.
 *
 * Where the tap is, as tcpdump on the interface sees a Linux port: a
 * frame sent when the driver puts it on the TX ring (after the qdisc, and
 * after netem, which is the port's root qdisc here: frames netem loses
 * are never captured), stamped with that time; a frame received when the
 * driver hands it to the stack (netif_receive_skb, in NAPI), stamped with
 * that time. Frames the port drops for want of an RX descriptor are not
 * seen, as the 82599's missed frames are not.
 *
 * Off, a port's capture pointer is NULL and the NIC's only cost is the
 * test of it, once per frame sent and once per frame received.
 */
#ifndef NETSIM_PCAP_H
#define NETSIM_PCAP_H

#include <stdbool.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "sim/skb.h"

struct sim;
struct pcap_port;
struct pcap_run;

#define PCAP_SNAPLEN_DEFAULT 128
#define PCAP_SNAPLEN_MAX 262144      /* libpcap's MAXIMUM_SNAPLEN */

struct pcap_opts {
    const char *dir;             /* NULL: no capture */
    uint32_t snaplen;
    const char *filter;          /* BPF expression, or NULL */
    bool wire;                   /* the frames on the wire (TSO's segments, before GRO),
                                  * not the packets tcpdump on the host sees */
};

/* Does the filter compile (pcap_compile on a dead Ethernet handle)? 0, or
 * -1 with libpcap's reason in err. */
int pcap_filter_check(const char *expr, uint32_t snaplen, char *err, size_t n);

/* Open one capture per chosen port of a built world and hang it on its
 * NIC. NULL with the reason in err when a file cannot be created. */
struct pcap_run *pcap_run_open(struct sim *s, const struct pcap_opts *o, char *err, size_t n);
/* Flush and close every file, detach the NICs and say on `report` what
 * was written. Returns 0, or -1 if a file could not be written whole. */
int pcap_run_close(struct pcap_run *r, FILE *report);
/* The run did not happen: close and remove every file (and the directory
 * pcap_run_open made), and detach the NICs. */
void pcap_run_discard(struct pcap_run *r);

/* One frame at port p at time t, sent or received (nic.c: the TX ring, the
 * RX hand-off). */
void pcap_frame(struct pcap_port *p, const struct skb *skb, simtime_t t, bool rx);

#endif
