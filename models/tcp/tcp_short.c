/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_short.c - short segments: a write that ends inside an MSS slot.
 *
 * The engine's stream is cut in MSS slots (tcp.h: segment i covers
 * [1 + i*mss, 1 + (i+1)*mss)), which the scoreboard and every SACK and
 * loss rule index by number. Linux cuts a write's bytes into MSS
 * segments and sends what is left as a shorter one (tcp_sendmsg,
 * tcp_write_xmit). Here the left-over bytes keep their slot: the slot is
 * "short", its segment carries only those bytes on the wire (the IP
 * length, the serialisation, the receiver's truesize all count them
 * alone) and says in tcp_hdr.pad how much of the slot no byte fills, so
 * the receiver's rcv_nxt moves to the slot's end. The next write starts
 * at the next slot: messages never share a segment, where Linux would
 * fill a short tail skb that had not gone yet with the next write's bytes.
 *
 * Nagle (tcp_nagle_check with Minshall's rule, 4.15 tcp_output.c): a
 * short segment at the write queue's tail waits while data is in flight
 * and the last short segment sent is not yet acknowledged, unless the
 * socket has TCP_NODELAY. What waits goes when that ACK comes (tcp_ack's
 * tcp_write_xmit) or when a later write puts data behind it (Linux would
 * then fill the segment; the model sends it short).
 *
 * Bulk sources (app_infinite, writes of whole slots) never make a short
 * slot: every path here returns what full slots give.
 */
#include <stdlib.h>
#include "models/tcp/internal.h"
#include "sim/xalloc.h"

static struct tcp_short *at(const struct tcp_sock *tp, uint32_t i)
{
    return &tp->shorts[(tp->shorts_head + i) & (tp->shorts_cap - 1)];
}

/* Short slots below una_idx are acknowledged: never sent again. */
static void drop_acked(struct tcp_sock *tp)
{
    while (tp->shorts_n && at(tp, 0)->idx < tp->una_idx) {
        tp->shorts_head = (tp->shorts_head + 1) & (tp->shorts_cap - 1);
        tp->shorts_n--;
    }
}

/* The first short slot at or after idx (its position), shorts_n if none. */
static uint32_t first_from(const struct tcp_sock *tp, uint64_t idx)
{
    uint32_t lo = 0, hi = tp->shorts_n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (at(tp, mid)->idx < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void tcp_write_bytes(struct tcp_sock *tp, uint64_t bytes)
{
    if (!bytes)
        return;
    if (tp->write_seq < tp->snd_nxt)
        tp->write_seq = tp->snd_nxt;   /* the stream's end so far: nothing unsent is left */
    uint64_t slots = (bytes + tp->mss - 1) / tp->mss;
    tp->write_seq += slots * tp->mss;
    uint32_t left = (uint32_t)(bytes % tp->mss);
    if (!left)
        return;
    drop_acked(tp);
    if (tp->shorts_n == tp->shorts_cap) {   /* grows with the messages in flight */
        uint32_t cap = tp->shorts_cap ? tp->shorts_cap * 2 : 8;
        struct tcp_short *v = xcalloc(cap, sizeof *v);
        for (uint32_t i = 0; i < tp->shorts_n; i++)
            v[i] = *at(tp, i);
        free(tp->shorts);
        tp->shorts = v;
        tp->shorts_head = 0;
        tp->shorts_cap = cap;
    }
    tp->shorts_n++;
    *at(tp, tp->shorts_n - 1) = (struct tcp_short){ (tp->write_seq - 1) / tp->mss - 1, left };
}

/* The short slot idx's bytes, or 0 when idx is a full slot. */
static uint32_t short_len(const struct tcp_sock *tp, uint64_t idx)
{
    uint32_t i = first_from(tp, idx);
    return i < tp->shorts_n && at(tp, i)->idx == idx ? at(tp, i)->len : 0;
}

uint32_t tcp_slots_payload_short(struct tcp_sock *tp, uint64_t idx, uint32_t n)
{
    uint64_t bytes = (uint64_t)n * tp->mss;
    drop_acked(tp);
    for (uint32_t i = first_from(tp, idx); i < tp->shorts_n && at(tp, i)->idx < idx + n; i++)
        bytes -= tp->mss - at(tp, i)->len;
    return (uint32_t)bytes;
}

uint32_t tcp_slots_cut_short(struct tcp_sock *tp, uint64_t idx, uint32_t n)
{
    drop_acked(tp);
    uint32_t i = first_from(tp, idx);
    if (i < tp->shorts_n && at(tp, i)->idx < idx + n)
        return (uint32_t)(at(tp, i)->idx - idx + 1);
    return n;
}

uint32_t tcp_nagle_cut_short(struct tcp_sock *tp, uint64_t idx, uint32_t n)
{
    uint64_t last = idx + n - 1;
    if (1 + (last + 1) * tp->mss != tp->write_seq)
        return n;                /* not the write queue's tail */
    if (!short_len(tp, last))
        return n;                /* partial = 0 */
    /* tcp_nagle_check: !nonagle && packets_out && tcp_minshall_check */
    if (!tp->packets_out || !(tp->snd_sml > tp->snd_una && tp->snd_sml <= tp->snd_nxt))
        return n;
    return n - 1;                /* tcp_mss_split_point: the full part goes, the short waits */
}

void tcp_short_free(struct tcp_sock *tp)
{
    free(tp->shorts);
    tp->shorts = NULL;
    tp->shorts_n = tp->shorts_cap = 0;
}
