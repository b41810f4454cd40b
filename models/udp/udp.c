/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udp.c - UDP send and receive paths (Linux 3.x udp_sendmsg, udp_rcv,
 * udp_recvmsg), with memory charged by truesize on both sides.
 */
#include <string.h>
#include "models/udp/udp.h"

static int sym_rcv = -1, sym_rcv6, sym_send, sym_copy_from, sym_recv, sym_copy, sym_csum_copy;

static void syms(void)
{
    if (sym_rcv >= 0)
        return;
    sym_rcv = cpu_sym("udp_rcv");
    sym_rcv6 = cpu_sym("udpv6_rcv");
    sym_send = cpu_sym("udp_sendmsg");
    sym_copy_from = cpu_sym("copy_from_user");
    sym_recv = cpu_sym("udp_recvmsg");
    sym_copy = cpu_sym("copy_to_user");
    sym_csum_copy = cpu_sym("csum_partial_copy_generic");
}

void udp_rcv(struct host *h, struct skb *skb, struct core *c)
{
    syms();
    host_charge(h, c, skb->family == NET_IPV6 ? sym_rcv6 : sym_rcv);
    struct sock *sk = host_sock_lookup(h, IPPROTO_UDP_, skb->dport);
    if (!sk) {
        h->ip_no_proto++;        /* would be an ICMP port unreachable */
        skb_free(skb);
        return;
    }
    if (!sock_queue_rcv(sk, skb, c))
        skb_free(skb);
}

_Static_assert(sizeof(struct udp_app_hdr) <= sizeof(((struct skb *)0)->l4), "udp_app_hdr must fit skb->l4");

int udp_sendmsg(struct sock *sk, uint32_t daddr, uint16_t dport, uint32_t len, uint32_t flow,
                const struct udp_app_hdr *app, struct core *c)
{
    syms();
    struct host *h = sk->host;
    host_charge(h, c, sym_send);
    uint32_t ip_len = ip_hdr_len(sk->family) + UDP_HDR_LEN + len;
    uint32_t mtu = ip_path_mtu(h, daddr, sk->family);
    if (sk->pmtudisc == IP_PMTUDISC_DO && ip_len > mtu)
        return UDP_EMSGSIZE;     /* ip_append_data: nothing copied, nothing sent */
    host_charge_bytes(h, c, sym_copy_from, len);
    struct skb *skb = skb_alloc();
    skb->family = sk->family;
    skb->proto = IPPROTO_UDP_;
    skb->daddr = daddr;
    skb->sport = sk->port;
    skb->dport = dport;
    skb->payload = len;
    skb->flow = flow;
    skb->ip_len = ip_len;
    /* __ip_make_skb: DF if the socket insists, or wants discovery and the
     * datagram fits the path (a larger one is fragmented here, without DF) */
    skb->df = sk->family == NET_IPV4 &&
              (sk->pmtudisc == IP_PMTUDISC_DO || (sk->pmtudisc == IP_PMTUDISC_WANT && ip_len <= mtu));
    skb->truesize = skb_truesize_for(skb->ip_len + 16);   /* + LL_RESERVED_SPACE */
    skb->tx_desc = 2;            /* context descriptor (checksum offload) + data */
    if (app)
        memcpy(skb->l4, app, sizeof *app);
    sock_charge_w(sk, skb);
    return ip_output(h, skb, c);
}

int64_t udp_recvmsg(struct sock *sk, struct udp_app_hdr *app, struct core *c)
{
    syms();
    struct skb *skb = skbq_pop(&sk->rq);
    if (!skb)
        return -1;
    struct host *h = sk->host;
    host_charge(h, c, sym_recv);
    /* A reassembled datagram (is_frag) had no checksum offload
     * (CHECKSUM_NONE): udp_recvmsg verifies it while copying. */
    host_charge_bytes(h, c, skb->is_frag ? sym_csum_copy : sym_copy, skb->payload);
    int64_t n = skb->payload;
    if (app)
        memcpy(app, skb->l4, sizeof *app);
    skb_free(skb);
    return n;
}
