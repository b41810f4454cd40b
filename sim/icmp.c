/*
 * icmp.c - ICMP echo: requests are answered in softirq, as the kernel's
 * icmp_echo() does; replies go to the ping socket bound to the echo id.
 * And "fragmentation needed": sent by a router that may not fragment a
 * packet, and turned into a path MTU by its source.
 */
#include <string.h>
#include "sim/host.h"

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
