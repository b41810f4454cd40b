/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * offload.c - the protocols' offload rules and GSO segmentation (see
 * offload.h).
 */
#include "sim/invariant.h"
#include "sim/offload.h"

static const struct net_offload *offloads[256];

void offload_register(uint8_t proto, const struct net_offload *ops) { offloads[proto] = ops; }
const struct net_offload *offload_of(uint8_t proto) { return offloads[proto]; }

struct skb *skb_gso_segment(struct skb *skb, bool charge)
{
    uint32_t n = skb_gso_segs(skb), mss = skb->gso_size;
    uint32_t hdr = skb->ip_len - skb->payload, payload = skb->payload, truesize = skb->truesize;
    const struct net_offload *ops = offloads[skb->proto];
    INVARIANT(n >= 1 && mss > 0);
    struct skb *first = NULL, **link = &first;
    for (uint32_t i = 0; i < n; i++) {
        bool last = i + 1 == n;
        struct skb *seg = skb;
        if (!last) {
            seg = skb_alloc_copy(skb);
            seg->rx_page = NULL;     /* a forwarded packet's RX pages stay with the last piece */
            seg->frag_list = NULL;
        }
        seg->gso_size = 0;
        seg->payload = last ? payload - i * mss : mss;
        seg->ip_len = hdr + seg->payload;
        seg->ip_id = (uint16_t)(skb->ip_id + i);
        if (ops && ops->gso_fixup)
            ops->gso_fixup(seg, i, n, mss);
        if (charge && seg->sk) {
            seg->truesize = last ? truesize - (n - 1) * (truesize / n) : truesize / n;
        } else if (!last) {
            seg->sk = NULL;
            seg->destructor = NULL;
        }
        *link = seg;
        link = &seg->next;
    }
    *link = NULL;
    return first;
}
