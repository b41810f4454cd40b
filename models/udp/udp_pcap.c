/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udp_pcap.c - the UDP header of a captured datagram (sim/pcap_wire.h).
 * The length and checksum are the whole datagram's, also in the first
 * fragment of a fragmented one (skb->payload is the datagram's payload on
 * every fragment, skb.h), so a reassembling reader sees a correct one.
 */
#include "models/udp/udp.h"
#include "sim/pcap_wire.h"

void udp_pcap_write(const struct skb *skb, const struct pcap_l4 *w)
{
    if (w->room < UDP_HDR_LEN)
        return;
    uint32_t len = UDP_HDR_LEN + skb->payload;
    wr16(w->p, skb->sport);
    wr16(w->p + 2, skb->dport);
    wr16(w->p + 4, len > 0xffff ? 0 : len);
    uint16_t sum = pcap_l4_csum(w, len, UDP_HDR_LEN);
    wr16(w->p + 6, sum ? sum : 0xffff);     /* 0 would mean "no checksum" (RFC 768) */
}
