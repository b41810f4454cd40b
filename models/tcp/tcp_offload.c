/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_offload.c - TCP's offload rules (Linux 4.15 tcp_offload.c and the
 * header checks of inet_gro_receive): how a GSO packet's segments differ
 * from its first (tcp_gso_segment), and when GRO may merge a segment into
 * the packet it holds for the flow (tcp_gro_receive).
 */
#include <string.h>
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/offload.h"

static inline const struct tcp_hdr *hdr(const struct skb *skb)
{
    return (const struct tcp_hdr *)(const void *)skb->l4;
}

/* tcp_gso_segment: each segment's sequence number; CWR only on the first
 * (its __tcp_v4_send_check keeps the rest clean), FIN and PSH only on the
 * last. */
static void tcp_gso_fixup(struct skb *seg, uint32_t i, uint32_t n, uint32_t mss)
{
    struct tcp_hdr *th = (struct tcp_hdr *)(void *)seg->l4;
    th->seq += (uint64_t)i * mss;
    if (i)
        th->flags &= (uint8_t)~TH_CWR;
    if (i + 1 < n) {
        th->flags &= (uint8_t)~TH_FIN;
        th->pad = 0;             /* only the last segment can be short */
    }
}

/* out_check_final with no packet held: a data segment without a flag
 * that pushes may wait for more (a pure ACK, a SYN or a FIN go up now) */
static bool tcp_gro_can_hold(const struct skb *skb)
{
    return skb->payload > 0 && !(hdr(skb)->flags & (TH_SYN | TH_FIN));
}

static bool tcp_gro_same_flow(const struct skb *held, const struct skb *skb)
{
    return held->sport == skb->sport && held->dport == skb->dport;
}

/* tcp_gro_receive: every header field but the sequence number equal (the
 * flag word with its window, the ACK, the options: a new TSval or SACK
 * block ends the packet), no CWR, not longer than the packet's first
 * segment, and exactly next in sequence. A merged segment shorter than
 * the first, or with FIN, ends the packet too. */
static enum gro_verdict tcp_gro_receive(const struct skb *held, const struct skb *skb)
{
    const struct tcp_hdr *p = hdr(held), *t = hdr(skb);
    uint32_t len = skb->payload, mss = held->gso_size;
    bool flush = (t->flags & TH_CWR) || ((t->flags ^ p->flags) & (uint8_t)~(TH_CWR | TH_FIN)) ||
                 t->win != p->win || t->ack != p->ack || t->tsval != p->tsval || t->tsecr != p->tsecr ||
                 t->nsack != p->nsack || memcmp(t->sack, p->sack, sizeof t->sack[0] * t->nsack) ||
                 len - 1 >= mss || p->seq + held->payload + p->pad != t->seq;
    if (flush)
        return tcp_gro_can_hold(skb) ? GRO_FLUSH_HELD : GRO_FLUSH_BOTH;
    return len < mss || (t->flags & TH_FIN) ? GRO_MERGE_FLUSH : GRO_MERGE;
}

/* The packet's sequence range ends where its last segment's does: a
 * short slot's segment brings its pad (tcp_short.c). */
static void tcp_gro_merged(struct skb *held, const struct skb *skb)
{
    ((struct tcp_hdr *)(void *)held->l4)->pad = hdr(skb)->pad;
}

static const struct net_offload tcp_offload = {
    .gro_merged = tcp_gro_merged,
    .gso_fixup = tcp_gso_fixup,
    .gro_can_hold = tcp_gro_can_hold,
    .gro_same_flow = tcp_gro_same_flow,
    .gro_receive = tcp_gro_receive,
};

void tcp_offload_init(void) { offload_register(IPPROTO_TCP_, &tcp_offload); }
