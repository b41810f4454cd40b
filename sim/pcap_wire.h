/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pcap_wire.h - what a model needs to write its protocol header into a
 * capture (sim/pcap.h): the place in the frame, the lengths, and helpers
 * for network byte order and the Internet checksum.
 *
 * A model that carries a protocol registers a writer in its module
 * (struct model_module: pcap_proto, pcap_write, sim/sim.h), so the capture
 * engine never reads another protocol's skb->l4 layout: only the model
 * that put the fields there turns them back into header bytes.
 *
 * No payload exists in the simulator. The engine zeroes the frame before
 * calling the writer, so payload bytes read as zeros; a checksum over the
 * header and the pseudo-header is then the checksum of the whole segment
 * with a zero payload, right whenever the capture holds the whole frame.
 */
#ifndef NETSIM_PCAP_WIRE_H
#define NETSIM_PCAP_WIRE_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/skb.h"

struct pcap_l4 {
    uint8_t *p;          /* first byte of the L4 header, zeroed */
    uint32_t room;       /* bytes writable at p: min(len, what the frame buffer holds);
                          * at least 64 unless the packet is shorter */
    uint32_t len;        /* L4 bytes of this packet: ip_len less the IP header(s) */
    uint32_t cap;        /* of those, the bytes the record keeps (snap length) */
    uint32_t pseudo;     /* unfolded one's-complement sum of the pseudo-header's
                          * addresses and protocol (RFC 768/793, RFC 8200 8.1),
                          * without the length: pcap_l4_csum adds it */
    bool v6;
};

/* Writes the L4 header (and anything else the model knows to be in the
 * packet, such as bundled chunk headers) at w->p, at most w->room bytes. */
typedef void (*pcap_write_fn)(const struct skb *skb, const struct pcap_l4 *w);

static inline void wr16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static inline void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Unfolded sum of n bytes as big-endian 16-bit words (RFC 1071). */
static inline uint32_t csum_add(uint32_t sum, const uint8_t *p, uint32_t n)
{
    uint32_t i = 0;
    for (; i + 1 < n; i += 2)
        sum += (uint32_t)p[i] << 8 | p[i + 1];
    if (i < n)
        sum += (uint32_t)p[i] << 8;
    return sum;
}

static inline uint16_t csum_fold(uint32_t sum)
{
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return (uint16_t)~sum;
}

/* TCP/UDP/ICMPv6 checksum of a segment of l4_len bytes whose first hdr_len
 * bytes are at w->p and the rest zeros. */
static inline uint16_t pcap_l4_csum(const struct pcap_l4 *w, uint32_t l4_len, uint32_t hdr_len)
{
    uint32_t sum = w->pseudo + (l4_len >> 16) + (l4_len & 0xffff);
    return csum_fold(csum_add(sum, w->p, hdr_len));
}

/* CRC32c (Castagnoli) of n bytes, as SCTP puts it in its common header:
 * the caller stores the result least significant byte first. */
uint32_t pcap_crc32c(const uint8_t *p, uint32_t n);

#endif
