/*
 * icmp.c - ICMP echo: requests are answered in softirq, as the kernel's
 * icmp_echo() does; replies go to the ping socket bound to the echo id.
 */
#include "host.h"

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
    if (skb->l4[0] == 0) {              /* echo reply: the id is the ping socket's port */
        struct sock *sk = host_sock_lookup(h, IPPROTO_ICMP_, skb->dport);
        if (sk && sock_queue_rcv(sk, skb, c))
            return;
    }
    skb_free(skb);
}
