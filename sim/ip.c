/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ip.c - the IP layer: input dispatch, forwarding, output with
 * fragmentation (ip_fragment for IPv4, the fragment header for IPv6).
 */
#include "sim/arith.h"
#include "sim/counter.h"
#include "sim/invariant.h"
#include "sim/host.h"
#include "sim/link.h"
#include "sim/route.h"
#include "sim/sim.h"

uint32_t ip_hdr_len(uint8_t family)
{
    return family == NET_IPV6 ? IPV6_HDR_LEN : IPV4_HDR_LEN;
}

static struct nic *route(struct host *h, uint32_t daddr)
{
    return route_next(h, daddr);
}

static uint32_t learned_mtu(const struct host *h, uint32_t daddr, uint8_t family, uint32_t link_mtu)
{
    uint32_t p = h->pmtu[0] ? h->pmtu[family == NET_IPV6][daddr] : 0;
    return p && p < link_mtu ? p : link_mtu;
}

uint32_t ip_path_mtu(struct host *h, uint32_t daddr, uint8_t family)
{
    if (daddr == h->id)
        return h->lo_mtu;
    struct nic *n = route(h, daddr);
    return n ? learned_mtu(h, daddr, family, n->tx_link->mtu) : 0;
}

uint32_t ip_max_unfragmented(struct host *h, uint32_t daddr, uint8_t family)
{
    uint32_t mtu = ip_path_mtu(h, daddr, family);
    return mtu ? mtu - ip_hdr_len(family) : 0;
}

uint32_t ip_route_min_mtu(struct host *h, uint32_t daddr)
{
    if (daddr == h->id)
        return h->lo_mtu;
    uint32_t mtu = 0;
    for (int hop = 0; h->id != daddr && hop < (int)h->npeers; hop++) {
        struct nic *n = route(h, daddr);
        if (!n)
            return 0;
        if (!mtu || n->tx_link->mtu < mtu)
            mtu = n->tx_link->mtu;
        h = n->tx_link->dst->host;
    }
    return mtu;
}

static int ip_fragment(struct host *h, struct skb *skb, uint32_t mtu, struct nic *out, struct core *c);

/* The next IP id towards a destination: a 16-bit counter, mod 2^16 */
ARITH_WRAPS static inline uint16_t ip_id_next(uint16_t *id) { return (*id)++; }

void ip_register_ecn_counters(struct counters *cs, struct host *h)
{
    static const char *const field[4] = { "NoECT", "ECT1", "ECT0", "CE" };
    for (int k = 0; k < 4; k++) {
        counters_addf(cs, &h->ip_ecn_in[0][k], false, "%s.IpExtIn%sPkts", h->name, field[k]);
        counters_addf(cs, &h->ip_ecn_in[1][k], false, "%s.Ip6In%sPkts", h->name, field[k]);
    }
}

void ip_rcv(struct host *h, struct skb *skb, struct core *c)
{
    host_charge(h, c, h->sym_ip_rcv[skb->family == NET_IPV6]);
    h->ip_in++;
    h->ip_ecn_in[skb->family == NET_IPV6][skb_ecn(skb)]++;
    if (skb->daddr != h->id) {
        struct nic *out = route_skb(h, skb);
        if (!out) {
            h->ip_no_route++;
            skb_free(skb);
            return;
        }
        uint32_t mtu = out->tx_link->mtu;
        /* a GRO packet goes on whole when its segments fit (ip_exceeds_mtu:
         * skb_gso_validate_mtu), to be cut again at the egress port */
        uint32_t len = skb->gso_size ? skb->gso_size + skb->ip_len - skb->payload : skb->ip_len;
        if (len > mtu && (skb->df || skb->family == NET_IPV6 || skb->gso_size)) {
            /* ip_forward: DF set (IPv6 routers never fragment): drop and
             * tell the source the next hop's MTU */
            h->ip_frag_fails++;
            icmp_frag_needed_send(h, skb, mtu, c);
            skb_free(skb);
            return;
        }
        host_charge(h, c, h->sym_ip_forward[skb->family == NET_IPV6]);
        h->ip_forwarded++;
        if (len > mtu)
            ip_fragment(h, skb, mtu, out, c);
        else
            nic_xmit(out, skb, c);
        return;
    }
    if (skb->is_frag) {
        if (!h->defrag) {
            h->ip_frag_no_reasm++;
            skb_free(skb);
            return;
        }
        skb = h->defrag(h, skb, c);
        if (!skb)
            return;
    }
    /* netem flipped a bit: the IP header checksum or, with the L4 checksum
     * the NIC verifies (or the stack, for a reassembled datagram), the
     * transport's drops the packet before any protocol state sees it. A
     * router passes a packet whose header survived, so the end host is
     * where it dies here. */
    if (skb->corrupt) {
        h->ip_csum_errors++;
        skb_free(skb);
        return;
    }
    proto_rcv_fn fn = h->proto[skb->proto];
    if (!fn) {
        h->ip_no_proto++;
        skb_free(skb);
        return;
    }
    fn(h, skb, c);
}

/* Split a datagram into fragments of at most `mtu`, each a new skb with
 * the same addresses, id and flow; the first keeps the L4 header fields.
 * Payload per fragment is a multiple of 8 bytes (RFC 791, RFC 8200). A
 * router splits a fragment the same way: offsets continue from its own, and
 * only the last piece keeps its MF. The input skb becomes the last piece, so
 * the RX page a forwarded frame holds goes with exactly one of them. */
static int ip_fragment(struct host *h, struct skb *skb, uint32_t mtu, struct nic *out, struct core *c)
{
    uint32_t hdr = ip_hdr_len(skb->family) + (skb->family == NET_IPV6 ? IPV6_FRAG_LEN : 0);
    uint32_t per = (mtu - hdr) & ~7u;
    uint32_t base = skb->is_frag ? skb->frag_off : 0;
    bool mf = skb->is_frag && skb->more_frags;
    uint32_t l4 = skb->ip_len - (skb->is_frag ? hdr : ip_hdr_len(skb->family));   /* L4 header + payload */
    struct sock *sk = skb->sk;
    if (sk) {
        INVARIANT(sk->wmem_alloc >= skb->truesize);
        sk->wmem_alloc -= skb->truesize;   /* each fragment is charged instead */
        skb->sk = NULL;
        skb->destructor = NULL;
    }
    int rc = 0;
    for (uint32_t off = 0; off < l4; off += per) {
        uint32_t len = l4 - off < per ? l4 - off : per;
        bool last = off + len >= l4;
        struct skb *f = last ? skb : skb_alloc_copy(skb);
        if (!last) {
            f->next = f->prev = NULL;
            f->rx_page = NULL;
            f->frag_list = NULL;
            f->corrupt = false;  /* the flipped bit is in one piece only */
        }
        f->is_frag = true;
        f->frag_off = (uint16_t)(base + off);
        f->more_frags = !last || mf;
        f->ip_len = hdr + len;
        f->truesize = skb_truesize_for(f->ip_len + 14);
        if (sk)
            sock_charge_w(sk, f);
        h->frags_created++;
        if (nic_xmit(out, f, c))
            rc = -1;
    }
    return rc;
}

/* The loopback device: one softirq task per core drains that core's
 * backlog, one packet per slice (process_backlog), ahead of process work. */
static bool backlog_slice(struct cpu_task *t, struct core *c)
{
    struct host *h = c->host;
    struct skb *skb = skbq_pop(&h->backlog[c->id]);
    (void)t;
    if (!skb)
        return false;
    host_charge(h, c, h->sym_backlog);
    skb->tstamp = core_now(c);
    ip_rcv(h, skb, c);
    return h->backlog[c->id].head != NULL;
}

void ip_loopback_init(struct host *h, uint32_t mtu)
{
    h->lo_mtu = mtu;
    h->sym_lo_xmit = cpu_sym("loopback_xmit");
    h->sym_backlog = cpu_sym("process_backlog");
    for (int i = 0; i < h->ncores; i++) {
        skbq_init(&h->backlog[i]);
        h->backlog_task[i] = (struct cpu_task){ .run = backlog_slice, .ctx = h, .cls = CPU_SOFTIRQ, .name = "backlog" };
    }
}

/* loopback_xmit: the skb is orphaned (its send-buffer charge returned at
 * once, as skb_orphan does) and queued with netif_rx on this core; the
 * NET_RX softirq runs it when the sending code enables bottom halves,
 * i.e. on this core before the sender's next slice. */
static int loopback_xmit(struct host *h, struct skb *skb, struct core *c)
{
    host_charge(h, c, h->sym_lo_xmit);
    if (skb->destructor) {
        skb->destructor(skb);
        skb->destructor = NULL;
    }
    skb->sk = NULL;
    skbq_push(&h->backlog[c->id], skb);
    core_wake(c, &h->backlog_task[c->id], core_now(c));
    return 0;
}

int ip_output(struct host *h, struct skb *skb, struct core *c)
{
    host_charge(h, c, h->sym_ip_output[skb->family == NET_IPV6]);
    if (!h->ip_id)
        host_peers_alloc(h);
    if (skb->daddr == h->id) {
        skb->saddr = h->id;
        skb->ip_id = ip_id_next(&h->ip_id[skb->daddr]);
        skb->tstamp = core_now(c);
        h->ip_out++;
        return loopback_xmit(h, skb, c);
    }
    skb->saddr = h->id;          /* a multipath route hashes it */
    struct nic *out = route_skb(h, skb);
    if (skb->oif && skb->oif <= h->nnics && h->nics[skb->oif - 1]->tx_link)
        out = h->nics[skb->oif - 1];
    if (!out) {
        h->ip_no_route++;
        skb_free(skb);
        return -1;
    }
    skb->saddr = h->id;
    /* 3.7 ip_select_ident: a DF packet of an unconnected socket gets id 0
     * (nothing can fragment it); others count per destination */
    skb->ip_id = skb->df ? 0 : ip_id_next(&h->ip_id[skb->daddr]);
    skb->tstamp = core_now(c);
    if (!skb->hash) {
        uint64_t x = ((uint64_t)skb->saddr << 48) ^ ((uint64_t)skb->daddr << 32) ^ ((uint64_t)skb->sport << 16) ^ skb->dport;
        skb->hash = (uint32_t)(wrap_mul_u64(x, 0x9e3779b97f4a7c15ULL) >> 32) | 1;   /* a hash: mod 2^64 */
    }
    h->ip_out++;
    uint32_t mtu = learned_mtu(h, skb->daddr, skb->family, out->tx_link->mtu);
    if (skb->ip_len > mtu && !skb->gso_size) {   /* a GSO packet's segments fit (ip_finish_output_gso) */
        if (skb->df) {           /* the sender should have said EMSGSIZE */
            h->ip_frag_fails++;
            skb_free(skb);
            return -1;
        }
        return ip_fragment(h, skb, mtu, out, c);
    }
    return nic_xmit(out, skb, c);
}
