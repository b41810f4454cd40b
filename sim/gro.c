/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gro.c - GRO at a NAPI context (see gro.h).
 */
#include <string.h>
#include "sim/gro.h"
#include "sim/invariant.h"
#include "sim/offload.h"

static void flush_at(struct gro_list *g, uint32_t i, gro_deliver_fn deliver, void *ctx)
{
    struct skb *skb = g->held[i].skb;
    memmove(&g->held[i], &g->held[i + 1], (g->n - i - 1) * sizeof g->held[0]);
    g->n--;
    g->flushed++;
    if (skb_gso_segs(skb) == 1)
        skb->gso_size = 0;       /* napi_gro_complete: a lone segment is no GRO packet */
    deliver(ctx, skb);
}

void gro_flush(struct gro_list *g, bool old_only, uint64_t jiffy, gro_deliver_fn deliver, void *ctx)
{
    while (g->n && !(old_only && g->held[0].age == jiffy))
        flush_at(g, 0, deliver, ctx);
}

void gro_purge(struct gro_list *g)
{
    for (uint32_t i = 0; i < g->n; i++)
        skb_free(g->held[i].skb);
    g->n = 0;
}

/* skb_gro_receive: page fragments join the last skb of the packet while
 * it has room for them (the frame's head is freed: only its buffer
 * counts); past MAX_SKB_FRAGS, or for a frame all in its head, the frame
 * joins the frag_list whole and takes the next fragments. Returns false
 * (-E2BIG) when the packet would reach 64 KB. */
/* the page fragments of a frame: one per RX buffer it spans (a jumbo
 * frame's descriptors each add theirs, ixgbe_add_rx_frag) */
static uint32_t frags_of(const struct gro_list *g, uint32_t page_part)
{
    if (!page_part)
        return 0;
    return g->frag_truesize ? (page_part + g->frag_truesize - 1) / g->frag_truesize : 1;
}

static bool merge(const struct gro_list *g, struct gro_held *h, struct skb *skb, uint32_t page_part)
{
    struct skb *p = h->skb;
    if (p->ip_len + skb->payload >= GRO_MAX_LEN)
        return false;
    uint32_t frags = frags_of(g, page_part);
    if (frags && h->last_frags + frags <= GRO_MAX_SKB_FRAGS) {
        h->last_frags += frags;
        p->truesize += page_part;
    } else {
        h->last = skb;
        h->last_frags = frags;
        p->truesize += skb->truesize;
    }
    p->payload += skb->payload;
    p->ip_len += skb->payload;
    INVARIANT(p->ip_len < GRO_MAX_LEN && h->last_frags <= GRO_MAX_SKB_FRAGS);
    /* the frame's buffer stays with the packet until the stack frees it */
    skb->next = p->frag_list;
    p->frag_list = skb;
    return true;
}

static void hold(struct gro_list *g, struct skb *skb, uint32_t page_part, uint64_t jiffy, gro_deliver_fn deliver,
                 void *ctx)
{
    if (g->n == GRO_MAX_SKBS)
        flush_at(g, 0, deliver, ctx);   /* gro_flush_oldest */
    skb->gso_size = (uint16_t)skb->payload;   /* the first segment sets the packet's mss */
    INVARIANT(g->n < GRO_MAX_SKBS);
    g->held[g->n++] = (struct gro_held){ .skb = skb, .last = skb, .last_frags = frags_of(g, page_part), .age = jiffy };
}

void gro_receive(struct gro_list *g, struct skb *skb, uint32_t page_part, uint64_t jiffy, gro_deliver_fn deliver,
                 void *ctx)
{
    const struct net_offload *ops = offload_of(skb->proto);
    if (!ops || !ops->gro_receive || skb->is_frag || skb->corrupt) {
        deliver(ctx, skb);       /* no GRO for this protocol, fragments, a bad checksum */
        return;
    }
    for (uint32_t i = 0; i < g->n; i++) {
        struct gro_held *h = &g->held[i];
        const struct skb *p = h->skb;
        if (p->saddr != skb->saddr || p->daddr != skb->daddr || p->proto != skb->proto ||
            p->family != skb->family || !ops->gro_same_flow(p, skb))
            continue;
        /* inet_gro_receive: a different TOS (an ECN mark) ends the packet */
        enum gro_verdict v = p->tos != skb->tos ? GRO_FLUSH_HELD : ops->gro_receive(h->skb, skb);
        if ((v == GRO_MERGE || v == GRO_MERGE_FLUSH) && !merge(g, h, skb, page_part))
            v = GRO_FLUSH_HELD;
        else if ((v == GRO_MERGE || v == GRO_MERGE_FLUSH) && ops->gro_merged)
            ops->gro_merged(h->skb, skb);
        switch (v) {
        case GRO_MERGE:
            g->merged++;
            return;
        case GRO_MERGE_FLUSH:
            g->merged++;
            flush_at(g, i, deliver, ctx);
            return;
        case GRO_FLUSH_HELD:
            flush_at(g, i, deliver, ctx);
            break;
        case GRO_FLUSH_BOTH:
            flush_at(g, i, deliver, ctx);
            deliver(ctx, skb);
            return;
        }
        break;                   /* one packet per flow: no other can match */
    }
    if (ops->gro_can_hold(skb))
        hold(g, skb, page_part, jiffy, deliver, ctx);
    else
        deliver(ctx, skb);
}
