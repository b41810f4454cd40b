/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_sack_out.c - the SACK blocks a receiver sends (Linux 4.15
 * tcp_input.c: tcp_sack_new_ofo_skb, tcp_sack_maybe_coalesce,
 * tcp_sack_remove, tcp_dsack_set, tcp_dsack_extend): at most four, the
 * block of the latest out-of-order segment first, a D-SACK before them.
 */
#include <string.h>
#include "models/tcp/internal.h"
#include "models/tcp/rskb_vec.h"

/* tcp_sack_extend: b takes in [seq, end) where the two touch */
static bool sack_extend(struct tcp_sack_block *b, uint64_t seq, uint64_t end)
{
    if (seq > b->end || b->start > end)
        return false;
    if (seq < b->start)
        b->start = seq;
    if (end > b->end)
        b->end = end;
    return true;
}

/* tcp_dsack_set: a segment received twice is reported once, as the first
 * SACK block of the next ACK (net.ipv4.tcp_dsack 1, with SACK on) */
void tcp_dsack_set(struct tcp_sock *tp, uint64_t seq, uint64_t end)
{
    if (!tp->sack_ok)
        return;
    tp->duplicate_sack = (struct tcp_sack_block){ seq, end };
    tp->dsack = true;
}

/* tcp_dsack_extend: a further duplicate range widens the reported one
 * where the two touch, or is the first */
void tcp_dsack_extend(struct tcp_sock *tp, uint64_t seq, uint64_t end)
{
    if (!tp->dsack)
        tcp_dsack_set(tp, seq, end);
    else
        sack_extend(&tp->duplicate_sack, seq, end);
}

/* Block i leaves the list; those after it move up one. */
static void sack_drop(struct tcp_sock *tp, int i)
{
    memmove(&tp->selective_acks[i], &tp->selective_acks[i + 1],
            (size_t)(tp->num_sacks - i - 1) * sizeof tp->selective_acks[0]);
    tp->num_sacks--;
}

static void sack_maybe_coalesce(struct tcp_sock *tp)
{
    struct tcp_sack_block *sp = tp->selective_acks;
    for (int i = 1; i < tp->num_sacks;) {
        if (sack_extend(&sp[0], sp[i].start, sp[i].end))
            sack_drop(tp, i);
        else
            i++;
    }
}

void tcp_sack_new_ofo(struct tcp_sock *tp, uint64_t seq, uint64_t end)
{
    struct tcp_sack_block *sp = tp->selective_acks;
    int n = tp->num_sacks;
    for (int i = 0; i < n; i++) {
        if (sack_extend(&sp[i], seq, end)) {
            /* the block just extended goes first (tcp_sack_new_ofo_skb) */
            struct tcp_sack_block moved = sp[i];
            memmove(&sp[1], &sp[0], (size_t)i * sizeof sp[0]);
            sp[0] = moved;
            if (n > 1)
                sack_maybe_coalesce(tp);
            return;
        }
    }
    if (n >= 4)
        n = 3;
    memmove(&sp[1], &sp[0], (size_t)n * sizeof sp[0]);
    sp[0] = (struct tcp_sack_block){ seq, end };
    tp->num_sacks = n + 1;
}

void tcp_sack_remove(struct tcp_sock *tp)
{
    if (!rskb_vec_len(&tp->ofo)) {
        tp->num_sacks = 0;
        return;
    }
    for (int i = 0; i < tp->num_sacks;) {
        if (tp->rcv_nxt >= tp->selective_acks[i].start)
            sack_drop(tp, i);
        else
            i++;
    }
}
