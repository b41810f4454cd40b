/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_input.c - the receiver (Linux 4.15 tcp_input.c: tcp_data_queue,
 * tcp_data_queue_ofo, tcp_ofo_queue, tcp_event_data_recv, tcp_grow_window,
 * tcp_rcv_rtt_*, __tcp_ack_snd_check, tcp_prune_queue; tcp.c tcp_recvmsg
 * and tcp_cleanup_rbuf; tcp.md §3).
 *
 * Memory is charged by truesize as the kernel does: a segment that starts
 * a new skb costs its whole truesize (NIC fragment + skb head); one that
 * coalesces onto the preceding skb (tcp_try_coalesce, up to MAX_SKB_FRAGS
 * fragments) costs only its fragment. Queues hold skb records, not
 * packets: the out-of-order queue is a sorted array (insertions in the
 * middle are retransmissions filling holes, about 1 in 100 segments, and
 * a memmove of a few thousand records is cheaper than a tree walk per
 * segment in the common append case).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/sim.h"
#include "models/tcp/rskb_vec.h"
#include "sim/invariant.h"
#include "sim/xalloc.h"

/* ---- receiver RTT (tcp_rcv_rtt_update / _measure / _measure_ts) ---- */

static void rcv_rtt_update(struct tcp_sock *tp, int64_t sample_us, bool win_dep)
{
    if (tp->drs->rcv_rtt) {                          /* the tcp.drs variant's estimator */
        tp->rcv_rtt_us8 = tp->drs->rcv_rtt(tp->rcv_rtt_us8, sample_us, win_dep, tp->rcv_nxt - tp->copied_seq);
        return;
    }
    int64_t ns = tp->rcv_rtt_us8;
    int64_t m = sample_us;
    if (ns != 0) {
        if (!win_dep) {
            m -= ns >> 3;
            ns += m;
        } else {
            m <<= 3;
            if (m < ns)
                ns = m;
        }
    } else {
        ns = m << 3;
    }
    tp->rcv_rtt_us8 = ns;
}

static void rcv_rtt_measure(struct tcp_sock *tp, simtime_t now)
{
    int64_t now_us = now / PS_PER_US;
    if (tp->rcv_rtt_time_us == 0)
        goto start;
    if (tp->rcv_nxt < tp->rcv_rtt_seq)
        return;
    int64_t d = now_us - tp->rcv_rtt_time_us;
    rcv_rtt_update(tp, d > 1 ? d : 1, true);
start:
    tp->rcv_rtt_seq = tp->rcv_nxt + tp->rcv_wnd;
    tp->rcv_rtt_time_us = now_us;
}

static void rcv_rtt_measure_ts(struct tcp_sock *tp, const struct tcp_hdr *th, uint32_t len, simtime_t now)
{
    if (!tp->ts_ok || !th->tsecr || len < tp->rcv_mss)
        return;
    uint32_t delta = (uint32_t)tcp_now_ms(tp, now) - th->tsecr;
    if (delta >= 0x7fffffffu / 1000)
        return;
    if (!delta && !tp->drs->rcv_rtt)
        delta = 1;                                   /* 4.15; a variant's estimator sees the 0 */
    rcv_rtt_update(tp, (int64_t)delta * 1000, false);
}

/* ---- window growth and delayed ACK bookkeeping ---- */

static void incr_quickack(struct tcp_sock *tp)
{
    uint64_t q = tp->rcv_wnd / (2 * tp->rcv_mss);
    if (q == 0)
        q = 2;
    if (q > TCP_MAX_QUICKACKS)
        q = TCP_MAX_QUICKACKS;
    if ((int)q > tp->quick)
        tp->quick = (int)q;
}

void tcp_enter_quickack_mode(struct tcp_sock *tp)
{
    incr_quickack(tp);
    tp->pingpong = 0;
    tp->ato = TCP_DELACK_MIN;
}

/* tcp_grow_window (4.15) */
static void grow_window(struct tcp_sock *tp, uint32_t len, uint32_t truesize)
{
    if (tp->rcv_ssthresh >= tp->window_clamp || (int64_t)tp->rcv_ssthresh >= tcp_space(tp))
        return;
    uint64_t incr = 0;
    if (tcp_win_from_space(tp, truesize) <= (int64_t)len) {
        incr = 2 * tp->advmss;
    } else {
        /* __tcp_grow_window */
        int64_t ts = tcp_win_from_space(tp, truesize) >> 1;
        int64_t window = tcp_win_from_space(tp, (int64_t)tp->th->rmem[2]) >> 1;
        while ((int64_t)tp->rcv_ssthresh <= window) {
            if (ts <= (int64_t)len) {
                incr = 2 * tp->rcv_mss;
                break;
            }
            ts >>= 1;
            window >>= 1;
        }
    }
    if (incr) {
        if (incr < 2ULL * len)
            incr = 2ULL * len;
        tp->rcv_ssthresh = tp->rcv_ssthresh + incr < tp->window_clamp ? tp->rcv_ssthresh + incr : tp->window_clamp;
        tp->quick |= 1;
    }
}

/* tcp_event_data_recv: in-order data only; ecn the segment's ECN field,
 * seg its segment size (a GRO packet's gso_size, else len) */
static void event_data_recv(struct tcp_sock *tp, uint32_t len, uint32_t seg, uint32_t truesize, uint8_t ecn,
                            simtime_t now)
{
    tp->ack_pending = true;                          /* inet_csk_schedule_ack */
    if (seg >= tp->rcv_mss) {                        /* tcp_measure_rcv_mss */
        if (tp->th->scaling_ratio && seg != tp->rcv_mss)
            tcp_scaling_ratio_measure(tp, len, truesize);
        tp->rcv_mss = seg < tp->advmss ? seg : tp->advmss;
    }
    rcv_rtt_measure(tp, now);
    if (!tp->ato) {
        incr_quickack(tp);
        tp->ato = TCP_DELACK_MIN;
    } else {
        simtime_t m = now - tp->lrcvtime;
        if (m <= TCP_DELACK_MIN / 2) {
            tp->ato = tp->ato / 2 + TCP_DELACK_MIN / 2;
        } else if (m < tp->ato) {
            tp->ato = tp->ato / 2 + m;
            if (tp->ato > tp->rto)
                tp->ato = tp->rto;
        } else if (m > tp->rto) {
            incr_quickack(tp);
        }
    }
    tp->lrcvtime = now;
    if (tp->ecn_flags & TCP_ECN_OK)
        tcp_ecn_check_ce(tp, ecn);
    if (len >= 128)
        grow_window(tp, len, truesize);
}

/* ---- the receive queues' accounts ---- */

/* rmem_alloc is the truesize the two queues hold and ofo_bytes the
 * payload of the out-of-order one; the receive queue runs without a gap
 * from the unread byte up to rcv_nxt, and the out-of-order queue is
 * sorted, disjoint and beyond rcv_nxt. Walks both queues. */
static bool rcv_queues_ok(const struct tcp_sock *tp)
{
    uint64_t ofo = 0;
    for (uint32_t i = tp->ofo.lo; i < tp->ofo.hi; i++) {
        const struct tcp_rskb *r = &tp->ofo.v[i];
        bool first = i == tp->ofo.lo;
        if (r->seq >= r->end || (first ? r->seq <= tp->rcv_nxt : r->seq < tp->ofo.v[i - 1].end))
            return false;
        ofo += r->end - r->seq;
    }
    for (uint32_t i = tp->rq.lo; i < tp->rq.hi; i++) {
        const struct tcp_rskb *r = &tp->rq.v[i];
        /* a record moved from the out-of-order queue may start below the
         * previous end (the reader skips what it read), never above */
        if (r->seq >= r->end || (i > tp->rq.lo && (r->seq > tp->rq.v[i - 1].end || r->end <= tp->rq.v[i - 1].end)))
            return false;
    }
    if (tp->rq.hi > tp->rq.lo &&
        (tp->rq.v[tp->rq.hi - 1].end != tp->rcv_nxt || tp->rq.v[tp->rq.lo].end <= tp->copied_seq))
        return false;
    return ofo == tp->ofo_bytes && tcp_queued_truesize(tp) == tp->rmem_alloc && tp->copied_seq <= tp->rcv_nxt;
}

#define RCV_QUEUES_OK(tp) INVARIANT_SUM(rskb_vec_len(&(tp)->rq) + rskb_vec_len(&(tp)->ofo), rcv_queues_ok(tp))

/* ---- memory pressure (tcp_prune_queue, tcp_clamp_window) ---- */

static void collapse(struct tcp_sock *tp, struct tcp_rskb_vec *v)
{
    for (uint32_t i = 0; i < rskb_vec_len(v); i++) {
        struct tcp_rskb *r = rskb_vec_at(v, i);
        uint32_t compact = (uint32_t)(r->end - r->seq) + TCP_SKB_OVERHEAD;
        if (compact < r->truesize) {
            INVARIANT(tp->rmem_alloc >= r->truesize - compact);
            tp->rmem_alloc -= r->truesize - compact;   /* ofo_bytes counts payload: unchanged */
            r->truesize = compact;
        }
    }
    RCV_QUEUES_OK(tp);
}

/* Returns 0 when the segment may now be queued, -1 to drop it. */
static int prune_queue(struct tcp_sock *tp)
{
    tp->quick = 0;                                  /* tcp_clamp_window */
    if (tp->sk.rcvbuf < tp->th->rmem[2] && !tp->rcvbuf_locked) {
        uint64_t nb = tp->rmem_alloc < tp->th->rmem[2] ? tp->rmem_alloc : tp->th->rmem[2];
        if (nb > tp->sk.rcvbuf) {
            tp->sk.rcvbuf = (uint32_t)nb;
            tp->st.prune_raise++;
        }
    }
    if (tp->rmem_alloc <= tp->sk.rcvbuf)
        return 0;
    uint64_t lim = 2ULL * tp->advmss;
    tp->rcv_ssthresh = tp->window_clamp < lim ? tp->window_clamp : lim;
    tp->st.prune_collapse++;
    collapse(tp, &tp->ofo);
    collapse(tp, &tp->rq);
    if (tp->rmem_alloc <= tp->sk.rcvbuf)
        return 0;
    /* tcp_prune_ofo_queue: drop from the highest sequence down */
    bool dropped = false;
    while (rskb_vec_len(&tp->ofo) && tp->rmem_alloc > tp->sk.rcvbuf) {
        struct tcp_rskb *r = rskb_vec_at(&tp->ofo, rskb_vec_len(&tp->ofo) - 1);
        tp->rmem_alloc -= r->truesize;
        tp->ofo_bytes -= r->end - r->seq;
        tp->ofo.hi--;
        tp->st.prune_ofo_drop++;
        dropped = true;
        RCV_QUEUES_OK(tp);
    }
    if (dropped)
        tp->num_sacks = 0;
    if (tp->rmem_alloc <= tp->sk.rcvbuf)
        return 0;
    tp->st.prune_drop++;
    return -1;
}

static int try_rmem_schedule(struct tcp_sock *tp)
{
    if (tp->rmem_alloc > tp->sk.rcvbuf)
        return prune_queue(tp);
    return 0;
}

/* ---- the data path ---- */

static void queue_rcv(struct tcp_sock *tp, uint64_t seq, uint64_t end, uint32_t truesize)
{
    uint32_t n = rskb_vec_len(&tp->rq);
    if (n) {
        struct tcp_rskb *t = rskb_vec_at(&tp->rq, n - 1);
        if (t->end == seq && t->nfrags < TCP_MAX_SKB_FRAGS && seq > tp->copied_seq) {
            uint32_t frag = truesize > tp->rx_head_truesize ? truesize - tp->rx_head_truesize : truesize;
            t->end = end;
            t->truesize += frag;
            t->nfrags++;
            tp->rmem_alloc += frag;
            INVARIANT(tp->rmem_alloc >= t->truesize);
            return;
        }
    }
    rskb_vec_push(&tp->rq, (struct tcp_rskb){ .seq = seq, .end = end, .truesize = truesize, .nfrags = 1 });
    tp->rmem_alloc += truesize;
    INVARIANT(tp->rmem_alloc >= truesize);
}

/* tcp_ofo_queue: move what became in-order onto the receive queue */
static void ofo_queue(struct tcp_sock *tp)
{
    while (rskb_vec_len(&tp->ofo)) {
        struct tcp_rskb *r = rskb_vec_at(&tp->ofo, 0);
        if (r->seq > tp->rcv_nxt)
            break;
        struct tcp_rskb rec = *r;
        rskb_vec_erase(&tp->ofo, 0);
        tp->ofo_bytes -= rec.end - rec.seq;
        if (rec.end <= tp->rcv_nxt) {
            tp->rmem_alloc -= rec.truesize;
            continue;
        }
        /* moved whole: its truesize goes with it */
        rskb_vec_push(&tp->rq, rec);
        tp->rcv_nxt = rec.end;
    }
}

/* tcp_data_queue_ofo */
static void data_queue_ofo(struct tcp_sock *tp, uint64_t seq, uint64_t end, uint32_t truesize, uint8_t ecn,
                           struct core *c)
{
    host_charge(tp->h, c, tcp_sym.ofo);
    if (tp->ecn_flags & TCP_ECN_OK)
        tcp_ecn_check_ce(tp, ecn);
    if (try_rmem_schedule(tp))
        return;
    tp->ack_pending = true;
    tp->st.ofo_segs++;
    uint32_t len = (uint32_t)(end - seq);
    uint32_t frag = truesize > tp->rx_head_truesize ? truesize - tp->rx_head_truesize : truesize;
    struct tcp_rskb_vec *v = &tp->ofo;
    uint32_t n = rskb_vec_len(v);
    /* the common case: appending after the last OOO skb */
    uint32_t pos;
    if (!n || seq >= rskb_vec_at(v, n - 1)->seq) {
        pos = n;
    } else {
        uint32_t lo = 0, hi = n;
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (rskb_vec_at(v, mid)->seq <= seq)
                lo = mid + 1;
            else
                hi = mid;
        }
        pos = lo;            /* first record with seq > new seq */
    }
    /* Overlaps, as 4.15 settles them: a segment whose bits are all there
     * is dropped; one that starts inside the one before keeps its new
     * bytes (the kernel queues it overlapping and trims when it is read:
     * the same bytes reach the reader); one that starts with the one
     * before and covers it replaces it; the ones after that it covers go
     * (merge_right), and one it runs into keeps its bytes. A retransmission
     * GRO or TSO built larger than the original, or a window's segments
     * cut again after an RTO, meets the queue this way. */
    if (pos > 0) {
        struct tcp_rskb *p = rskb_vec_at(v, pos - 1);
        if (seq < p->end && end <= p->end) {
            tp->st.dup_data++;       /* all bits present */
            tcp_dsack_set(tp, seq, end);
            goto add_sack;
        }
        if (seq < p->end && seq > p->seq) {
            tcp_dsack_set(tp, seq, p->end);          /* partial overlap */
            seq = p->end;
        } else if (seq < p->end) {
            tcp_dsack_extend(tp, p->seq, p->end);    /* covers it: replaced */
            tp->rmem_alloc -= p->truesize;
            tp->ofo_bytes -= p->end - p->seq;
            rskb_vec_erase(v, --pos);
            n--;
        }
    }
    while (pos < n && end > rskb_vec_at(v, pos)->seq) {
        struct tcp_rskb *r = rskb_vec_at(v, pos);
        if (end < r->end) {
            tcp_dsack_extend(tp, r->seq, end);
            end = r->seq;                        /* runs into it: r keeps its bytes */
            break;
        }
        tcp_dsack_extend(tp, r->seq, r->end);
        tp->rmem_alloc -= r->truesize;           /* covered: it goes */
        tp->ofo_bytes -= r->end - r->seq;
        rskb_vec_erase(v, pos);
        n--;
    }
    if (end <= seq) {
        tp->st.dup_data++;           /* its new bytes were none: between two it overlaps */
        goto add_sack;
    }
    len = (uint32_t)(end - seq);
    if (pos > 0) {
        struct tcp_rskb *p = rskb_vec_at(v, pos - 1);
        if (p->end == seq && p->nfrags < TCP_MAX_SKB_FRAGS &&
            (pos == n || end <= rskb_vec_at(v, pos)->seq)) {
            p->end = end;
            p->truesize += frag;
            p->nfrags++;
            tp->rmem_alloc += frag;
            tp->ofo_bytes += len;
            RCV_QUEUES_OK(tp);
            grow_window(tp, len, truesize);
            goto add_sack;
        }
    }
    rskb_vec_insert(v, pos, (struct tcp_rskb){ .seq = seq, .end = end, .truesize = truesize, .nfrags = 1 });
    tp->rmem_alloc += truesize;
    tp->ofo_bytes += len;
    RCV_QUEUES_OK(tp);
    grow_window(tp, len, truesize);
add_sack:
    if (tp->sack_ok)
        tcp_sack_new_ofo(tp, seq, end);
    INVARIANT(tp->num_sacks >= 0 && tp->num_sacks <= 4);
    if (tp->drs->ofo)                                /* 6.16: tcp_rcvbuf_grow on every queued segment */
        tcp_drs_ofo(tp);
}

static void ack_snd_check(struct tcp_sock *tp, struct core *c)
{
    if (!tp->ack_pending)
        return;
    if ((tp->rcv_nxt - tp->rcv_wup > tp->rcv_mss && tcp_new_window(tp) >= tp->rcv_wnd) ||
        tp->th->route_quickack || (tp->quick && !tp->pingpong) || rskb_vec_len(&tp->ofo) || tp->ack_now) {
        tcp_send_ack(tp, c);
    } else {
        tcp_send_delayed_ack(tp, c);
    }
}

/* sk_data_ready: a reader asleep in recv() is woken, at the waker's cost
 * (as sock.c charges UDP's) */
static void wake_reader(struct tcp_sock *tp, struct core *c)
{
    struct sock *sk = &tp->sk;
    if (sk->reader) {
        struct cpu_task *t = sk->reader;
        sk->reader = NULL;
        host_charge(tp->h, c, tcp_sym.wake);
        core_wake(sk->reader_core, t, ctx_now());
    }
}

void tcp_data(struct tcp_sock *tp, const struct tcp_hdr *th, struct skb *skb, struct core *c)
{
    host_charge(tp->h, c, tcp_sym.data_queue);
    simtime_t now = core_now(c);
    uint64_t seq = th->seq, end = th->seq + skb->payload + th->pad;   /* a short slot ends at its end */
    uint32_t len = skb->payload, truesize = skb->truesize;
    if (th->flags & TH_CWR)
        tp->ecn_flags &= (uint8_t)~TCP_ECN_DEMAND_CWR;   /* tcp_ecn_accept_cwr */
    if (tp->ts_ok && seq <= tp->rcv_wup)
        tp->ts_recent = th->tsval;                   /* tcp_replace_ts_recent */
    rcv_rtt_measure_ts(tp, th, len, now);
    if (end <= tp->rcv_nxt) {
        tp->st.dup_data++;
        tcp_dsack_set(tp, seq, end);
        tcp_enter_quickack_mode(tp);
        tcp_send_ack(tp, c);
        return;
    }
    uint64_t right = tp->rcv_wup + tp->rcv_wnd;
    if (seq == tp->rcv_nxt) {
        if (right <= tp->rcv_nxt) {
            tcp_enter_quickack_mode(tp);                 /* zero window: drop */
            tcp_send_ack(tp, c);
            return;
        }
        if (try_rmem_schedule(tp)) {
            tcp_send_delayed_ack(tp, c);
            return;
        }
        queue_rcv(tp, seq, end, truesize);
        tp->rcv_nxt = end;
        event_data_recv(tp, len, skb->gso_size ? skb->gso_size : len, truesize, skb_ecn(skb), now);
        if (rskb_vec_len(&tp->ofo)) {
            ofo_queue(tp);
            if (!rskb_vec_len(&tp->ofo))
                tp->ato = TCP_DELACK_MIN;   /* hole filled: ACK faster (tcp_data_queue) */
            tcp_sack_remove(tp);
        }
        RCV_QUEUES_OK(tp);
        wake_reader(tp, c);
    } else if (seq > tp->rcv_nxt && seq < right) {
        data_queue_ofo(tp, seq, end, truesize, skb_ecn(skb), c);
    } else {
        tcp_enter_quickack_mode(tp);                     /* out of window */
        tcp_send_ack(tp, c);
        return;
    }
    ack_snd_check(tp, c);
}

/* ---- the reader ---- */

static void cleanup_rbuf(struct tcp_sock *tp, uint64_t copied, struct core *c)
{
    bool time_to_ack = false;
    if (tp->ack_pending && tp->rcv_nxt - tp->rcv_wup > tp->rcv_mss)
        time_to_ack = true;
    if (copied > 0 && !time_to_ack) {
        int64_t now_win = (int64_t)(tp->rcv_wup + tp->rcv_wnd) - (int64_t)tp->rcv_nxt;
        if (now_win < 0)
            now_win = 0;
        if (2 * (uint64_t)now_win <= tp->window_clamp) {
            uint64_t nw = tcp_new_window(tp);
            if (nw && nw >= 2 * (uint64_t)now_win)
                time_to_ack = true;
        }
    }
    if (time_to_ack)
        tcp_send_ack(tp, c);
}

uint64_t tcp_recvmsg(struct tcp_sock *tp, uint64_t len, struct core *c)
{
    /* the call, the skbs it will free (ends rise along the queue, the last
     * at rcv_nxt) and the bytes it will copy, before the loop: 4.15 runs
     * tcp_rcv_space_adjust once the copies are done */
    uint32_t freed = 0;
    while (freed < rskb_vec_len(&tp->rq) && rskb_vec_at(&tp->rq, freed)->end - tp->copied_seq <= len)
        freed++;
    uint64_t avail = tp->rcv_nxt - tp->copied_seq;
    tcp_charge_n(tp->h, c, tcp_sym.recvmsg, tcp_sym.recvmsg_skb, freed);
    host_charge_bytes(tp->h, c, tcp_sym.copy_to_user, avail < len ? avail : len);
    uint64_t copied = 0;
    while (copied < len && rskb_vec_len(&tp->rq)) {
        struct tcp_rskb *r = rskb_vec_at(&tp->rq, 0);
        uint64_t avail = r->end - tp->copied_seq;
        uint64_t used = avail < len - copied ? avail : len - copied;
        tp->copied_seq += used;
        copied += used;
        tcp_rcv_space_adjust(tp, core_now(c));
        if (tp->copied_seq >= r->end) {
            INVARIANT(tp->rmem_alloc >= r->truesize);
            tp->rmem_alloc -= r->truesize;
            rskb_vec_erase(&tp->rq, 0);
        }
        RCV_QUEUES_OK(tp);
    }
    cleanup_rbuf(tp, copied, c);
    return copied;
}

uint64_t tcp_queued_truesize(const struct tcp_sock *tp)
{
    uint64_t sum = 0;
    for (uint32_t i = tp->rq.lo; i < tp->rq.hi; i++)
        sum += tp->rq.v[i].truesize;
    for (uint32_t i = tp->ofo.lo; i < tp->ofo.hi; i++)
        sum += tp->ofo.v[i].truesize;
    return sum;
}
