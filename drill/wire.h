/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wire.h - between a script's TCP packet and netsim's segment
 * (drill/wire.c): the skb an inbound line becomes, the line an outbound
 * skb reads as, their comparison and the text of a packet.
 *
 * Sequence numbers: netsim's are 64-bit offsets from each end's SYN (the
 * SYN is 0, tcp.h), which is what the script writes for the host under
 * test's side (packetdrill shows it relative to its ISN); the remote
 * side's are the script's own, less the ISN of its SYN (remote_isn).
 */
#ifndef NETSIM_DRILL_WIRE_H
#define NETSIM_DRILL_WIRE_H

#include <stdbool.h>
#include <stdint.h>
#include "drill/script.h"

struct skb;

/* A script's inbound TCP packet as the skb the remote host sends: NULL
 * with why in `unsup` when netsim's TCP has no such thing (a RST, a FIN,
 * Fast Open, MD5, AccECN, URG). */
struct skb *wire_inbound(const struct drill_packet *pk, uint32_t remote_isn, uint16_t sport, uint16_t dport,
                         char *unsup, int len);
/* What the script would write for the host's outbound skb. */
void wire_outbound(const struct skb *skb, uint32_t remote_isn, struct drill_packet *out);
/* Compares an expected packet with the one seen: 0 when it matches,
 * else -1 with the fields that differ ("win 257 vs 229, ...") in why.
 * What netsim does not model is not compared: PSH, TS val (as
 * packetdrill leaves it unchecked by default), the NOPs' layout. */
int wire_compare(const struct drill_packet *want, const struct drill_packet *got, char *why, int len);
/* "< S. 0:0(0) ack 1 win 65535 <mss 1460,sackOK,TS val 5 ecr 0,nop,wscale 7>" */
void wire_format(const struct drill_packet *pk, char *buf, int len);

#endif
