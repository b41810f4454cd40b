/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sctp_pcap.c - the SCTP packet of a capture (sim/pcap_wire.h): common
 * header and chunks, from the fields the model keeps in skb->l4 (struct
 * sctp_wire). What is not modelled is written as a real stack would
 * show it and said here:
 *   - verification tag: the receiving end's, a hash of its address and
 *     port (the handshake is not exchanged, sctp.h: no INIT / INIT-ACK /
 *     COOKIE is ever sent, so none is captured);
 *   - DATA: one stream (0), every message unfragmented (B and E set), the
 *     stream sequence number TSN - 1 (the first TSN is 1 and iperf3 and
 *     netperf send one message per chunk on stream 0), PPID 0;
 *   - SACK duplicate TSNs: the model counts them, it does not keep them;
 *     each is written as the cumulative TSN ack (a TSN the receiver
 *     already had, which is what a duplicate is, not necessarily the one);
 *   - chunks are laid out at the model's stride, 16 + len bytes: a DATA
 *     length that is not a multiple of 4 has no padding (the model does not
 *     charge it), which Wireshark reports; no flow here sends one.
 * The CRC32c covers the bytes the record keeps: right whenever the snap
 * length holds the whole packet.
 */
#include <string.h>
#include "models/sctp/internal.h"
#include "models/sctp/sctp.h"
#include "sim/hash.h"
#include "sim/pcap_wire.h"

static void chunk_hdr(uint8_t *c, uint8_t type, uint8_t flags, uint32_t len)
{
    c[0] = type;
    c[1] = flags;
    wr16(c + 2, len);
}

void sctp_pcap_write(const struct skb *skb, const struct pcap_l4 *w)
{
    struct sctp_wire sw;
    memcpy(&sw, skb->l4, sizeof sw);
    uint8_t *p = w->p;
    if (w->room < SCTP_COMMON_HDR)
        return;
    wr16(p, skb->sport);
    wr16(p + 2, skb->dport);
    wr32(p + 4, sim_hash64((uint64_t)skb->daddr << 16 | skb->dport) | 1);
    uint32_t off = SCTP_COMMON_HDR;
    switch (sw.type) {
    case SCTP_DATA:
        for (uint32_t i = 0; i < sw.nchunks && off + SCTP_DATA_HDR <= w->room; i++, off += SCTP_DATA_HDR + sw.len) {
            uint8_t *c = p + off;
            chunk_hdr(c, SCTP_DATA, 0x03, SCTP_DATA_HDR + sw.len);
            wr32(c + 4, sw.tsn + i);
            wr16(c + 8, 0);
            wr16(c + 10, (sw.tsn + i - 1) & 0xffff);
            wr32(c + 12, 0);
        }
        break;
    case SCTP_SACK: {
        uint32_t len = SCTP_SACK_HDR + 4u * sw.ngaps + 4u * sw.ndups;
        if (off + len > w->room)
            break;
        uint8_t *c = p + off;
        chunk_hdr(c, SCTP_SACK, 0, len);
        wr32(c + 4, sw.tsn);
        wr32(c + 8, sw.a_rwnd);
        wr16(c + 12, sw.ngaps);
        wr16(c + 14, sw.ndups);
        uint8_t *g = c + SCTP_SACK_HDR;
        for (int i = 0; i < sw.ngaps; i++, g += 4) {
            wr16(g, sw.gap[i][0]);
            wr16(g + 2, sw.gap[i][1]);
        }
        for (int i = 0; i < sw.ndups; i++, g += 4)
            wr32(g, sw.tsn);
        break;
    }
    case SCTP_HEARTBEAT:
    case SCTP_HEARTBEAT_ACK:
        if (off + SCTP_HB_LEN > w->room)
            break;
        /* one Heartbeat Info parameter (type 1) whose opaque info starts
         * with the sender's jiffies, as the model's does */
        chunk_hdr(p + off, sw.type, 0, SCTP_HB_LEN);
        wr16(p + off + 4, 1);
        wr16(p + off + 6, SCTP_HB_LEN - 4);
        wr32(p + off + 8, sw.tsn);
        break;
    default:
        break;
    }
    /* stored least significant byte first (sctp_end_cksum's __le32) */
    uint32_t crc = pcap_crc32c(p, w->cap);
    p[8] = (uint8_t)crc;
    p[9] = (uint8_t)(crc >> 8);
    p[10] = (uint8_t)(crc >> 16);
    p[11] = (uint8_t)(crc >> 24);
}
