/*
 * icmp.c - ICMP echo: requests are answered in softirq, as the kernel's
 * icmp_echo() does; replies go to the ping socket bound to the echo id.
 * And "fragmentation needed": sent by a router that may not fragment a
 * packet, and turned into a path MTU by its source.
 */
#include <string.h>
#include "host.h"

enum { ICMP_DEST_UNREACH = 3, ICMP_FRAG_NEEDED = 4, ICMPV6_PKT_TOOBIG = 2 };
#define IP_RT_MIN_PMTU 552       /* ip_rt_min_pmtu: 512 + 20 + 20 */
#define ICMP_RATELIMIT PS_PER_S  /* net.ipv4.icmp_ratelimit 1000 ms */
#define XRLIM_BURST_FACTOR 6

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, sizeof v); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, sizeof v); return v; }

/* inet_peer_xrlim_allow: a token bucket per destination that refills one
 * token per icmp_ratelimit and holds at most XRLIM_BURST_FACTOR; a peer seen
 * for the first time starts full. */
static bool xrlim_allow(struct host *h, uint32_t dst, simtime_t now)
{
    simtime_t cap = XRLIM_BURST_FACTOR * ICMP_RATELIMIT;
    simtime_t tok = h->icmp_rl_used[dst] ? h->icmp_rl_tokens[dst] + (now - h->icmp_rl_last[dst]) : cap;
    if (tok > cap)
        tok = cap;
    h->icmp_rl_used[dst] = true;
    h->icmp_rl_last[dst] = now;
    bool ok = tok >= ICMP_RATELIMIT;
    h->icmp_rl_tokens[dst] = ok ? tok - ICMP_RATELIMIT : tok;
    return ok;
}

void icmp_frag_needed_send(struct host *h, const struct skb *skb, uint32_t mtu, struct core *c)
{
    static int sym = -1;
    if (sym < 0)
        sym = cpu_sym("icmp_send");
    uint32_t src = skb->saddr;
    if (src >= HOST_MAX_PEERS || src == h->id || !xrlim_allow(h, src, core_now(c)))
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
    /* the quoted packet: IPv4 its header and 8 bytes (RFC 792), IPv6 as
     * much as fits in 1280 bytes (RFC 4443) */
    uint32_t quote = v6 ? (skb->ip_len < 1232 ? skb->ip_len : 1232) : IPV4_HDR_LEN + 8;
    e->ip_len = ip_hdr_len(e->family) + 8 + quote;
    e->payload = quote;
    e->truesize = skb_truesize_for(e->ip_len + 16);
    ip_output(h, e, c);
}

/* "Fragmentation needed" for a destination this host sends to: remember
 * the path MTU (__ip_rt_update_pmtu, not below ip_rt_min_pmtu; the kernel
 * expires it after 10 minutes, longer than any run here). */
static void frag_needed_rcv(struct host *h, const struct skb *skb)
{
    uint32_t dst = get32(&skb->l4[8]), mtu = get32(&skb->l4[4]);
    h->icmp_frag_needed++;
    if (dst >= HOST_MAX_PEERS)
        return;
    if (skb->family == NET_IPV4 && mtu < IP_RT_MIN_PMTU)
        mtu = IP_RT_MIN_PMTU;
    if (!h->pmtu[dst] || mtu < h->pmtu[dst])
        h->pmtu[dst] = mtu;
}

void icmp_rcv(struct host *h, struct skb *skb, struct core *c)
{
    static int sym = -1;
    if (sym < 0)
        sym = cpu_sym("icmp_rcv");
    host_charge(h, c, sym);
    if (skb->l4[0] == 8) {              /* echo request -> echo reply */
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
