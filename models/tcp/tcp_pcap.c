/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_pcap.c - the TCP header of a captured segment (sim/pcap_wire.h),
 * from the fields tcp_transmit keeps in skb->l4 (struct tcp_hdr).
 *
 * Sequence numbers here are 64-bit offsets from the SYN (tcp.h); on the
 * wire they are 32-bit, from an initial sequence number per direction,
 * a hash of the 4-tuple (as secure_tcp_seq is), so both ends' captures
 * agree. The header length is what the model charged on the wire
 * (ip_len less the IP header and the payload); the options are laid out as
 * Linux's tcp_options_write orders them: MSS, SACK-permitted with
 * timestamps, window scale on a SYN; timestamps, then SACK blocks after.
 */
#include <string.h>
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/hash.h"
#include "sim/pcap_wire.h"

enum { OPT_EOL = 0, OPT_NOP = 1, OPT_MSS = 2, OPT_WS = 3, OPT_SACK_PERM = 4, OPT_SACK = 5, OPT_TS = 8 };

static uint32_t isn(uint32_t saddr, uint16_t sport, uint32_t daddr, uint16_t dport)
{
    return (uint32_t)sim_hash64((uint64_t)saddr << 48 ^ (uint64_t)sport << 32 ^ (uint64_t)daddr << 16 ^ dport);
}

void tcp_pcap_write(const struct skb *skb, const struct pcap_l4 *w)
{
    struct tcp_hdr th;
    memcpy(&th, skb->l4, sizeof th);
    uint32_t hl = w->len > skb->payload ? w->len - skb->payload : 0;
    if (hl < TCP_HDR_LEN || hl > 60 || hl % 4 || w->room < hl)
        return;                  /* not a header this model builds: left as zeros */
    uint8_t h[60];
    memset(h, 0, sizeof h);
    uint32_t my = isn(skb->saddr, skb->sport, skb->daddr, skb->dport);
    uint32_t peer = isn(skb->daddr, skb->dport, skb->saddr, skb->sport);
    uint32_t ack = (uint32_t)(peer + th.ack);
    wr16(h, skb->sport);
    wr16(h + 2, skb->dport);
    wr32(h + 4, (uint32_t)(my + th.seq));
    wr32(h + 8, th.flags & TH_ACK ? ack : 0);
    h[12] = (uint8_t)(hl / 4 << 4);
    h[13] = (uint8_t)((th.flags & TH_FIN ? 0x01 : 0) | (th.flags & TH_SYN ? 0x02 : 0) | (th.flags & TH_ACK ? 0x10 : 0) |
                      (th.flags & TH_ECE ? 0x40 : 0) | (th.flags & TH_CWR ? 0x80 : 0));
    wr16(h + 14, th.win);
    uint8_t *o = h + TCP_HDR_LEN, *end = h + hl;
    uint32_t sack = th.nsack ? 4u + 8u * th.nsack : 0;
    if (th.flags & TH_SYN) {
        /* the model charges 20 option bytes on every SYN */
        o[0] = OPT_MSS, o[1] = 4;
        wr16(o + 2, th.mss);
        o += 4;
        if (th.sack_ok) {
            o[0] = OPT_SACK_PERM, o[1] = 2;
        } else {
            o[0] = OPT_NOP, o[1] = OPT_NOP;
        }
        o += 2;
        if (th.ts_ok) {
            o[0] = OPT_TS, o[1] = 10;
            wr32(o + 2, th.tsval);
            wr32(o + 6, th.tsecr);
        } else {
            memset(o, OPT_NOP, 10);
        }
        o += 10;
        if (th.wscale != 0xff) {
            o[0] = OPT_NOP, o[1] = OPT_WS, o[2] = 3, o[3] = th.wscale;
        } else {
            memset(o, OPT_NOP, 4);
        }
        o += 4;
    } else {
        if ((uint32_t)(end - o) >= sack + TCPOLEN_TS_ALIGNED) {
            o[0] = OPT_NOP, o[1] = OPT_NOP, o[2] = OPT_TS, o[3] = 10;
            wr32(o + 4, th.tsval);
            wr32(o + 8, th.tsecr);
            o += TCPOLEN_TS_ALIGNED;
        }
        if (sack && (uint32_t)(end - o) >= sack) {
            o[0] = OPT_NOP, o[1] = OPT_NOP, o[2] = OPT_SACK, o[3] = (uint8_t)(2 + 8 * th.nsack);
            for (int i = 0; i < th.nsack; i++) {
                wr32(o + 4 + 8 * i, ack + th.sack[i][0]);
                wr32(o + 8 + 8 * i, ack + th.sack[i][1]);
            }
            o += sack;
        }
    }
    while (o < end)
        *o++ = OPT_NOP;
    memcpy(w->p, h, hl);
    wr16(w->p + 16, pcap_l4_csum(w, w->len, hl));
}
