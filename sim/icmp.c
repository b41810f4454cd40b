/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * icmp.c - ICMP echo: requests are answered in softirq, as the kernel's
 * icmp_echo() does; replies go to the ping socket bound to the echo id.
 * And "fragmentation needed": sent by a router that may not fragment a
 * packet, and turned into a path MTU by its source.
 */
#include <string.h>
#include "sim/host.h"
#include "sim/pcap_wire.h"

enum { ICMP_DEST_UNREACH = 3, ICMP_FRAG_NEEDED = 4, ICMPV6_PKT_TOOBIG = 2 };
#define IP_RT_MIN_PMTU 552       /* ip_rt_min_pmtu: 512 + 20 + 20 */

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, sizeof v); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, sizeof v); return v; }

/* Not rate limited: icmpv4_xrlim_allow and icmpv6_xrlim_allow exempt
 * exactly these two messages ("it would break pmtu discovery"). */
void icmp_frag_needed_send(struct host *h, const struct skb *skb, uint32_t mtu, struct core *c)
{
    static int sym = -1;
    if (sym < 0)
        sym = cpu_sym("icmp_send");
    uint32_t src = skb->saddr;
    if (src >= h->npeers || src == h->id)
        return;
    host_charge(h, c, sym);
    struct skb *e = skb_alloc();
    bool v6 = skb->family == NET_IPV6;
    e->family = skb->family;
    e->proto = IPPROTO_ICMP_;
    e->daddr = src;
    e->flow = skb->flow;
    e->l4[0] = v6 ? ICMPV6_PKT_TOOBIG : ICMP_DEST_UNREACH;
    e->l4[1] = v6 ? 0 : ICMP_FRAG_NEEDED;
    put32(&e->l4[4], mtu);                   /* the next hop's MTU */
    put32(&e->l4[8], skb->daddr);            /* from the quoted header */
    /* and the rest of the quoted header, for a capture (icmp_pcap_write) */
    e->l4[12] = skb->proto;
    e->l4[13] = (uint8_t)(skb->df | skb->more_frags << 1);
    memcpy(&e->l4[14], &skb->ip_id, 2);
    put32(&e->l4[16], skb->ip_len);
    put32(&e->l4[20], skb->frag_off);
    memcpy(&e->l4[24], &skb->sport, 2);
    memcpy(&e->l4[26], &skb->dport, 2);
    /* the quoted packet, as much as fits in 576 bytes (icmp_send) or, for
     * IPv6, in the minimum MTU of 1280 (icmp6_send) */
    uint32_t room = (v6 ? IPV6_MIN_MTU : 576) - ip_hdr_len(e->family) - 8;
    uint32_t quote = skb->ip_len < room ? skb->ip_len : room;
    e->ip_len = ip_hdr_len(e->family) + 8 + quote;
    e->payload = quote;
    e->truesize = skb_truesize_for(e->ip_len + 16);
    ip_output(h, e, c);
}

/* "Fragmentation needed" for a destination this host sends to: remember
 * the path MTU per family (IPv4 __ip_rt_update_pmtu, not below
 * ip_rt_min_pmtu; IPv6 rt6_update_pmtu, not below 1280; the kernel expires
 * it after 10 minutes, longer than any run here). */
static void frag_needed_rcv(struct host *h, const struct skb *skb)
{
    uint32_t dst = get32(&skb->l4[8]), mtu = get32(&skb->l4[4]);
    h->icmp_frag_needed++;
    if (dst >= h->npeers)
        return;
    bool v6 = skb->family == NET_IPV6;
    uint32_t floor = v6 ? IPV6_MIN_MTU : IP_RT_MIN_PMTU;
    if (mtu < floor)
        mtu = floor;
    if (!h->pmtu[0])
        host_peers_alloc(h);
    uint32_t *pmtu = &h->pmtu[v6][dst];
    if (!*pmtu || mtu < *pmtu)
        *pmtu = mtu;
}

void icmp_rcv(struct host *h, struct skb *skb, struct core *c)
{
    static int sym = -1;
    if (sym < 0)
        sym = cpu_sym("icmp_rcv");
    host_charge(h, c, sym);
    if (skb->l4[0] == 8) {              /* echo request -> echo reply */
        /* icmp_reply builds a new skb: a reassembled request's fragments,
         * and the RX pages they hold, go back now, not with the reply */
        skb_drop_frag_list(skb);
        uint32_t from = skb->saddr;
        skb->l4[0] = 0;
        skb->daddr = from;
        skb->hash = 0;
        ip_output(h, skb, c);
        return;
    }
    if ((skb->family == NET_IPV4 && skb->l4[0] == ICMP_DEST_UNREACH && skb->l4[1] == ICMP_FRAG_NEEDED) ||
        (skb->family == NET_IPV6 && skb->l4[0] == ICMPV6_PKT_TOOBIG)) {
        frag_needed_rcv(h, skb);
        skb_free(skb);
        return;
    }
    if (skb->l4[0] == 0) {              /* echo reply: the id is the ping socket's port */
        struct sock *sk = host_sock_lookup(h, IPPROTO_ICMP_, skb->dport);
        if (sk && sock_queue_rcv(sk, skb, c))
            return;
    }
    skb_free(skb);
}

/* l4 layout: [0] type, [1] code; echo: id = the ping socket's port
 * (sport), [6..7] sequence (host order); "fragmentation needed": [4] the
 * MTU, [8] the quoted packet's destination, [12] its protocol, [13] DF |
 * MF << 1, [14] id, [16] length, [20] fragment offset, [24] [26] ports.
 * The quoted packet's source is this message's destination. The quoted
 * header is rebuilt as the original's (IPv4, checksum included; IPv6
 * with the addresses and next header), followed by the ports; the rest of
 * the quote is zeros. Addresses are each host's first port's. */
static void quote_addr(uint8_t *o, bool v6, uint32_t id)
{
    uint32_t a = id + 1;
    memset(o, 0, v6 ? 16 : 4);
    if (v6) {
        o[0] = 0xfd;
        o[14] = (uint8_t)(a >> 8);
        o[15] = (uint8_t)a;
    } else {
        o[0] = 10;
        o[2] = (uint8_t)(a >> 8);
        o[3] = (uint8_t)a;
    }
}

void icmp_pcap_write(const struct skb *skb, const struct pcap_l4 *w)
{
    bool v6 = w->v6;
    uint8_t *p = w->p;
    uint32_t room = w->room;
    if (room < ICMP_HDR_LEN)
        return;
    uint8_t type = skb->l4[0], code = skb->l4[1];
    uint32_t hdr = ICMP_HDR_LEN;
    if (type == 8 || type == 0) {
        uint16_t seq;
        memcpy(&seq, &skb->l4[6], 2);
        p[0] = v6 ? (type == 8 ? 128 : 129) : type;
        wr16(p + 4, skb->sport);
        wr16(p + 6, seq);
    } else {
        p[0] = type;
        p[1] = code;
        uint32_t mtu = get32(&skb->l4[4]);
        if (v6)
            wr32(p + 4, mtu);
        else
            wr16(p + 6, mtu);
        uint32_t qlen = v6 ? IPV6_HDR_LEN : IPV4_HDR_LEN;
        if (room >= hdr + qlen + 4) {
            uint8_t *q = p + hdr;
            uint16_t id, sport, dport;
            memcpy(&id, &skb->l4[14], 2);
            memcpy(&sport, &skb->l4[24], 2);
            memcpy(&dport, &skb->l4[26], 2);
            uint32_t dst = get32(&skb->l4[8]), len = get32(&skb->l4[16]), off = get32(&skb->l4[20]);
            if (v6) {
                wr32(q, 6u << 28);
                wr16(q + 4, len > IPV6_HDR_LEN ? len - IPV6_HDR_LEN : 0);
                q[6] = skb->l4[12];
                q[7] = 64;
                quote_addr(q + 8, true, skb->daddr);
                quote_addr(q + 24, true, dst);
            } else {
                q[0] = 0x45;
                wr16(q + 2, len);
                wr16(q + 4, id);
                wr16(q + 6, (skb->l4[13] & 1 ? 0x4000u : 0) | (skb->l4[13] & 2 ? 0x2000u : 0) | (off >> 3));
                q[8] = 64;
                q[9] = skb->l4[12];
                quote_addr(q + 12, false, skb->daddr);
                quote_addr(q + 16, false, dst);
                wr16(q + 10, csum_fold(csum_add(0, q, IPV4_HDR_LEN)));
            }
            wr16(q + qlen, sport);
            wr16(q + qlen + 2, dport);
            hdr += qlen + 4;
        }
    }
    /* ICMPv6's checksum covers a pseudo-header (RFC 4443 2.3), ICMP's not */
    uint16_t sum = v6 ? pcap_l4_csum(w, w->len, hdr) : csum_fold(csum_add(0, p, hdr));
    wr16(p + 2, sum);
}
