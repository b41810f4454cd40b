/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_output.c - what an endpoint puts on the wire (Linux 4.15
 * tcp_output.c): segments and ACKs with their options, the advertised
 * window (__tcp_select_window, never shrinking), the send loop
 * (tcp_write_xmit: lost segments first, then new data, within cwnd, rwnd
 * and the pacing clock), delayed ACKs, and the initial window.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/dql.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

void tcp_select_initial_window(uint64_t space, uint32_t mss, uint64_t rmem_max, bool wscale_ok, uint32_t init_rcv_wnd,
                               uint64_t *rcv_wnd, uint64_t *window_clamp, uint8_t *rcv_wscale)
{
    if (*window_clamp == 0)
        *window_clamp = 65535ULL << TCP_MAX_WSCALE;
    if (space > *window_clamp)
        space = *window_clamp;
    if (space > mss)
        space = space / mss * mss;
    *rcv_wnd = space;
    *rcv_wscale = 0;
    if (wscale_ok) {
        space = space > rmem_max ? space : rmem_max;
        if (space > *window_clamp)
            space = *window_clamp;
        while (space > 65535 && *rcv_wscale < TCP_MAX_WSCALE) {
            space >>= 1;
            (*rcv_wscale)++;
        }
    }
    /* tcp_default_init_rwnd: 2 x TCP_INIT_CWND segments (tcp.md §3.3) */
    if (init_rcv_wnd && *rcv_wnd > (uint64_t)init_rcv_wnd * mss)
        *rcv_wnd = (uint64_t)init_rcv_wnd * mss;
    uint64_t lim = 65535ULL << *rcv_wscale;
    if (*window_clamp > lim)
        *window_clamp = lim;
}

/* __tcp_select_window: the window we would offer now, no side effects. */
uint64_t tcp_new_window(struct tcp_sock *tp)
{
    int64_t mss = tp->rcv_mss;
    int64_t free_space = tcp_space(tp);
    int64_t allowed = tcp_full_space(tp);
    int64_t full = (int64_t)tp->window_clamp < allowed ? (int64_t)tp->window_clamp : allowed;
    if (mss > full) {
        mss = full;
        if (mss <= 0)
            return 0;
    }
    if (free_space < (full >> 1)) {
        tp->quick = 0;
        free_space &= ~((1LL << tp->rcv_wscale) - 1);
        if (free_space < (allowed >> 4) || free_space < mss)
            return 0;
    }
    if (free_space > (int64_t)tp->rcv_ssthresh)
        free_space = (int64_t)tp->rcv_ssthresh;
    uint64_t w = (uint64_t)free_space;
    uint64_t unit = 1ULL << tp->rcv_wscale;
    return (w + unit - 1) / unit * unit;
}

static inline uint64_t tcp_receive_window(const struct tcp_sock *tp)
{
    int64_t w = (int64_t)(tp->rcv_wup + tp->rcv_wnd) - (int64_t)tp->rcv_nxt;
    return w < 0 ? 0 : (uint64_t)w;
}

/* tcp_select_window: the right edge never retreats. */
static uint32_t tcp_select_window(struct tcp_sock *tp)
{
    uint64_t cur = tcp_receive_window(tp);
    uint64_t w = tcp_new_window(tp);
    uint64_t unit = 1ULL << tp->rcv_wscale;
    if (w < cur)
        w = (cur + unit - 1) / unit * unit;
    tp->rcv_wnd = w;
    tp->rcv_wup = tp->rcv_nxt;
    assert(tp->rcv_wup + tp->rcv_wnd >= tp->last_right_edge);   /* RFC 7323 2.4: never shrink */
    tp->last_right_edge = tp->rcv_wup + tp->rcv_wnd;
    uint64_t lim = 65535ULL << tp->rcv_wscale;
    if (w > lim)
        w = lim;
    if (w == 0)
        tp->st.zero_win_acks++;
    return (uint32_t)(w >> tp->rcv_wscale);
}

/* One segment or ACK on the wire, stamped now (tcp_transmit_skb); fresh:
 * data sent for the first time. */
static int tcp_transmit(struct tcp_sock *tp, struct core *c, uint8_t flags, uint64_t seq, uint32_t len, bool fresh,
                        uint32_t segs)
{
    host_charge(tp->h, c, tcp_sym.xmit);
    simtime_t now = core_now(c);
    struct skb *skb = skb_alloc();
    /* built in place: skb_alloc zeroed it, and l4 is 8-byte aligned
     * (skb.h). A copy from the stack stalled on the store buffer, behind
     * the stores that cleared the packet. */
    struct tcp_hdr *th = (struct tcp_hdr *)(void *)skb->l4;
    th->seq = seq;
    th->flags = flags;
    th->wscale = 0xff;
    uint32_t opt = 0;
    if (flags & TH_SYN) {
        th->mss = (uint16_t)tp->advmss;
        th->win = (uint32_t)(tp->rcv_wnd < 65535 ? tp->rcv_wnd : 65535);
        /* a SYN-ACK carries only the options the SYN offered
         * (tcp_synack_options: negotiate() has set them), a SYN those
         * the sysctls enable */
        bool synack = flags & TH_ACK;
        th->wscale = (synack ? tp->wscale_ok : tp->th->window_scaling) ? tp->rcv_wscale : 0xff;
        th->ts_ok = synack ? tp->ts_ok : tp->th->timestamps;
        th->sack_ok = synack ? tp->sack_ok : tp->th->sack;
        opt = 20;                                   /* mss 4, sackok+ts 12, nop+wscale 4 */
    }
    if (flags & TH_ACK) {
        th->ack = tp->rcv_nxt;
        if (!(flags & TH_SYN))
            th->win = tcp_select_window(tp);
        /* a D-SACK goes first, once (tcp_options_write); three blocks
         * fit beside timestamps. Offsets from the ACK, signed: a D-SACK
         * lies below it */
        int d = tp->dsack && tp->sack_ok;
        if ((tp->num_sacks || d) && tp->sack_ok) {
            int n = tp->num_sacks + d < 3 ? tp->num_sacks + d : 3;
            th->nsack = (uint8_t)n;
            for (int i = 0; i < n; i++) {
                const struct tcp_sack_block *b = d && !i ? &tp->duplicate_sack : &tp->selective_acks[i - d];
                /* sequence space: mod 2^32 on the wire */
                th->sack[i][0] = wrap_u32(wrap_sub_u64(b->start, tp->rcv_nxt));
                th->sack[i][1] = wrap_u32(wrap_sub_u64(b->end, tp->rcv_nxt));
            }
            opt += 4 + 8 * (uint32_t)n;
            if (d) {
                tp->dsack = false;
                tp->st.dsacks_out++;
            }
        }
        /* tcp_event_ack_sent */
        if (tp->quick) {
            if (tp->quick <= 1) {
                tp->quick = 0;
                tp->ato = TCP_DELACK_MIN;
            } else {
                tp->quick--;
            }
        }
        /* inet_csk_clear_xmit_timer(ICSK_TIME_DACK) clears the flag and
         * leaves the timer queued (INET_CSK_CLEAR_TIMERS is not defined);
         * it fires and finds nothing to do, and the next delayed ACK moves
         * it later, which the queue does lazily: no heap work per ACK */
        tp->ack_pending = false;
        tp->delack_timer = false;
        tp->st.acks_out++;
    }
    if (tp->ts_ok || (flags & TH_SYN)) {
        th->tsval = (uint32_t)tcp_now_ms(tp, now);
        th->tsecr = tp->ts_recent;
        if (!(flags & TH_SYN))
            opt += TCPOLEN_TS_ALIGNED;
    }
    if (tp->ecn_flags || tcp_ca_needs_ecn(tp))
        tcp_ecn_xmit(tp, skb, th, fresh);
    skb->family = tp->sk.family;
    skb->proto = IPPROTO_TCP_;
    skb->daddr = tp->daddr;
    skb->sport = tp->sk.port;
    skb->dport = tp->dport;
    skb->payload = len;
    if (len && (uint64_t)segs * tp->mss > len)
        th->pad = (uint16_t)(segs * tp->mss - len);   /* the last slot is short (tcp_short.c) */
    skb->flow = tp->flow ? (uint32_t)tp->flow->id : 0;
    skb->ip_len = ip_hdr_len(skb->family) + TCP_HDR_LEN + opt + len;
    if (len) {
        skb->truesize = tcp_data_truesize(tp, skb->ip_len, len);
        tp->lsndtime = dql_jiffies(now);          /* tcp_event_data_sent */
    } else {
        skb->truesize = skb_truesize_for(skb->ip_len + 16);
    }
    skb->tx_desc = 2;
    if (segs > 1) {
        /* a GSO packet: a context descriptor, the headers, and the
         * payload's pages in pieces of at most 16 KB
         * (IXGBE_MAX_DATA_PER_TXD) */
        skb->gso_size = (uint16_t)tp->mss;
        skb->tx_desc = (uint8_t)(2 + (len + 16383) / 16384);
        tp->st.gso_pkts_out++;
    }
    tp->st.segs_out += segs;
    sock_charge_w(&tp->sk, skb);             /* skb_set_owner_w: TSQ counts it until the TX clean */
    return ip_output(tp->h, skb, c);
}

void tcp_send_ack(struct tcp_sock *tp, struct core *c)
{
    tp->ack_now = false;
    tcp_ca_event(tp, CA_EVENT_NON_DELAYED_ACK);
    tcp_transmit(tp, c, TH_ACK, tp->snd_nxt, 0, false, 1);
}

void tcp_send_ack_for(struct tcp_sock *tp, uint64_t rcv_nxt)
{
    uint64_t now_nxt = tp->rcv_nxt;
    tp->rcv_nxt = rcv_nxt;
    tcp_send_ack(tp, tp->core);
    tp->rcv_nxt = now_nxt;
}

void tcp_send_syn(struct tcp_sock *tp, struct core *c, bool ack)
{
    tcp_transmit(tp, c, TH_SYN | (ack ? TH_ACK : 0), 0, 0, false, 1);
}

/* tcp_send_delayed_ack: ato clamped to [40 ms, 200 ms] and to srtt. */
void tcp_send_delayed_ack(struct tcp_sock *tp, struct core *c)
{
    simtime_t now = core_now(c);
    tcp_ca_event(tp, CA_EVENT_DELAYED_ACK);
    simtime_t ato = tp->ato;
    if (ato > TCP_DELACK_MIN) {
        simtime_t max_ato = TCP_DELACK_MAX;
        if (tp->srtt) {
            simtime_t rtt = tp->srtt > TCP_DELACK_MIN ? tp->srtt : TCP_DELACK_MIN;
            if (rtt < max_ato)
                max_ato = rtt;
        }
        if (ato > max_ato)
            ato = max_ato;
    }
    if (ato < TCP_DELACK_MIN)
        ato = TCP_DELACK_MIN;
    simtime_t timeout = now + ato;
    if (tp->delack_timer) {
        if (tp->ev_delack.time <= now + (ato >> 2)) {
            tcp_send_ack(tp, c);
            return;
        }
        if (timeout >= tp->ev_delack.time)
            return;
    }
    tp->ack_pending = true;
    tp->delack_timer = true;
    evq_move(tp->h->q, &tp->ev_delack, timeout);
}

/* ---- sender ---- */

void tcp_rearm_rto(struct tcp_sock *tp, simtime_t now)
{
    if (!tp->packets_out) {
        evq_cancel(tp->h->q, &tp->ev_rto);
        return;
    }
    simtime_t rto = tp->rto << tp->rto_backoff;
    if (rto > TCP_RTO_MAX)
        rto = TCP_RTO_MAX;
    evq_move(tp->h->q, &tp->ev_rto, now + rto);
}

/* tcp_schedule_loss_probe: the PTO of the release (tcp_tlp.c), never
 * beyond the RTO */
void tcp_schedule_loss_probe(struct tcp_sock *tp, simtime_t now)
{
    if (!tp->th->tlp || !tcp_tlp_state_ok(tp) || !tp->packets_out || (!tp->srtt && !tp->th->rack_tlp) ||
        tp->tlp_pending) {
        evq_cancel(tp->h->q, &tp->ev_tlp);
        return;
    }
    simtime_t pto = tcp_tlp_timeout(tp);
    simtime_t rto_at = event_pending(&tp->ev_rto) ? tp->ev_rto.time : now + tp->rto;
    if (now + pto > rto_at)
        pto = rto_at - now;
    evq_move(tp->h->q, &tp->ev_tlp, now + pto);
}

static uint64_t find_retransmit(struct tcp_sock *tp)
{
    uint64_t i = tp->retx_hint < tp->una_idx ? tp->una_idx : tp->retx_hint;
    for (; i < tp->nxt_idx; i++) {
        uint8_t f = tcp_seg_at(tp, i)->flags;
        if ((f & (SEG_LOST | SEG_RETRANS | SEG_SACKED)) == SEG_LOST)
            break;
    }
    tp->retx_hint = i;
    return i;
}

static void ts_unlink(struct tcp_sock *tp, uint64_t idx)
{
    struct tcp_seg *s = tcp_seg_at(tp, idx);
    int64_t prev = seg_prev(s, idx), next = seg_next(s, idx);
    if (prev == -2)
        return;                 /* not on the list */
    if (prev >= 0)
        tcp_seg_at(tp, (uint64_t)prev)->dnext = seg_link((uint64_t)prev, next);
    else
        tp->ts_head = next;
    if (next >= 0)
        tcp_seg_at(tp, (uint64_t)next)->dprev = seg_link((uint64_t)next, prev);
    else
        tp->ts_tail = prev;
    s->dprev = TCP_SEG_UNLINKED;
    s->dnext = 0;
}

void tcp_ts_unlink(struct tcp_sock *tp, uint64_t idx) { ts_unlink(tp, idx); }

static void ts_append(struct tcp_sock *tp, uint64_t idx)
{
    struct tcp_seg *s = tcp_seg_at(tp, idx);
    s->dprev = seg_link(idx, tp->ts_tail);
    s->dnext = 0;
    if (tp->ts_tail >= 0)
        tcp_seg_at(tp, (uint64_t)tp->ts_tail)->dnext = seg_link((uint64_t)tp->ts_tail, (int64_t)idx);
    else
        tp->ts_head = (int64_t)idx;
    tp->ts_tail = (int64_t)idx;
}

void tcp_seg_reserve(struct tcp_sock *tp, uint64_t idx)
{
    uint64_t b = idx >> TCP_SEG_BLK_SHIFT, first = tp->una_idx >> TCP_SEG_BLK_SHIFT;
    if (b - first + 1 > tp->nblk) {     /* more blocks live than slots: double the table */
        uint64_t n = tp->nblk;
        while (b - first + 1 > n)
            n *= 2;
        struct tcp_seg **t = xcalloc(n, sizeof *t);
        for (uint64_t k = first; k < b; k++)
            t[k & (n - 1)] = tp->blk[k & (tp->nblk - 1)];
        free(tp->blk);
        tp->blk = t;
        tp->nblk = n;
    }
    struct tcp_seg **slot = &tp->blk[b & (tp->nblk - 1)];
    if (*slot)
        return;
    if (tp->nspare) {
        *slot = tp->spare[--tp->nspare];
    } else {
        *slot = xcalloc(TCP_SEG_BLK, sizeof **slot);
    }
}

void tcp_seg_release(struct tcp_sock *tp, uint64_t old_una_idx, uint64_t new_una_idx)
{
    for (uint64_t k = old_una_idx >> TCP_SEG_BLK_SHIFT; k < new_una_idx >> TCP_SEG_BLK_SHIFT; k++) {
        struct tcp_seg **slot = &tp->blk[k & (tp->nblk - 1)];
        if (!*slot)
            continue;
        if (tp->nspare < TCP_SEG_SPARES)
            tp->spare[tp->nspare++] = *slot;
        else
            free(*slot);
        *slot = NULL;
    }
}

void tcp_seg_free_all(struct tcp_sock *tp)
{
    for (uint64_t k = 0; tp->blk && k < tp->nblk; k++)
        free(tp->blk[k]);
    free(tp->blk);
    while (tp->nspare)
        free(tp->spare[--tp->nspare]);
    tp->blk = NULL;
    tp->nblk = 0;
}

/* Send segments idx .. idx + n - 1 (new data or a retransmission) now,
 * as one skb: a GSO packet when n > 1. A packet the local qdisc drops is
 * not sent (tcp_transmit_skb's error: it stays at the head of the write
 * queue) and puts the socket in CWR; returns false then. */
static bool tcp_xmit_segs(struct tcp_sock *tp, uint64_t idx, uint32_t n, bool retx, struct core *c)
{
    simtime_t now = core_now(c);
    bool arm = !event_pending(&tp->ev_rto);
    uint32_t payload = tcp_slots_payload(tp, idx, n);
    if (tcp_transmit(tp, c, TH_ACK, 1 + idx * tp->mss, payload, !retx, n) < 0) {
        if (tp->state == TCP_ESTABLISHED)
            tcp_enter_cwr(tp);
        return false;
    }
    /* tcp_rate_skb_sent */
    if (!tp->packets_out) {
        tp->first_tx_mstamp = now;
        tp->delivered_mstamp = now;
        tcp_ca_event(tp, CA_EVENT_TX_START);
    }
    for (uint32_t k = 0; k < n; k++) {
        uint64_t i = idx + k;
        struct tcp_seg *s;
        if (retx) {
            s = tcp_seg_at(tp, i);
            /* a segment marked lost leaves lost_unretx; a loss probe's is
             * not marked (tcp_send_loss_probe) */
            INVARIANT(!(s->flags & (SEG_SACKED | SEG_RETRANS)) && (!(s->flags & SEG_LOST) || tp->lost_unretx > 0));
            if (s->flags & SEG_LOST)
                tp->lost_unretx--;
            s->flags |= SEG_RETRANS | SEG_EVER_RETRANS;
            tp->retrans_out++;
            tp->st.retrans++;
            ts_unlink(tp, i);
        } else {
            tcp_seg_reserve(tp, i);
            s = tcp_seg_at(tp, i);
            memset(s, 0, sizeof *s);
            s->dprev = TCP_SEG_UNLINKED;
            tp->nxt_idx++;
            tp->snd_nxt += tp->mss;
            tp->packets_out++;
        }
        s->first_tx = tp->first_tx_mstamp;
        s->delivered_time = tp->delivered_mstamp;
        s->delivered_lo = (uint32_t)tp->delivered;
        if (tp->app_limited)
            s->flags |= SEG_APP_LIMITED;
        else
            s->flags &= (uint8_t)~SEG_APP_LIMITED;
        s->tx_time = now;
        seg_set_una_dist(s, i - tp->una_idx);
        ts_append(tp, i);
    }
    SCOREBOARD_OK(tp);
    if (tp->ca_state >= TCP_CA_CWR)
        tp->prr_out += n;
    tp->st.data_segs_out += n;
    if (!retx)
        tcp_short_sent(tp, idx, n, payload);
    if (arm)
        tcp_rearm_rto(tp, now);
    if (tcp_paces(tp) && tp->pacing_rate && tp->pacing_rate != TCP_MAX_PACING_RATE) {
        /* tcp_internal_pacing: the skb's TCP header and payload; a rate
         * of 0 or ~0U (sk_max_pacing_rate) does not pace */
        simtime_t len = time_serialise(TCP_HDR_LEN + TCPOLEN_TS_ALIGNED + payload, tp->pacing_rate * 8);
        tp->next_tx = (tp->next_tx > now ? tp->next_tx : now) + len;
        if (tp->next_tx < now + len)
            tp->next_tx = now + len;
    }
    return true;
}

static bool have_new_data(const struct tcp_sock *tp)
{
    return tp->app_infinite || tp->snd_nxt + tp->mss <= tp->write_seq;
}

void tcp_write_xmit(struct tcp_sock *tp, struct core *c)
{
    if (tp->state != TCP_ESTABLISHED)
        return;
    simtime_t now = core_now(c);
    bool sent_new = false;
    bool new_first = tp->rexmit_new;      /* F-RTO step 2b: new data before retransmissions */
    tp->rexmit_new = false;
    tp->rwnd_limited_now = false;
    tp->xmit_calls++;
    uint32_t max_segs = tp->gso_ok ? tcp_tso_segs(tp) : 1;
    for (;;) {
        if (tcp_paces(tp) && now < tp->next_tx) {
            if (!event_pending(&tp->ev_pace) || tp->ev_pace.time > tp->next_tx)
                evq_move(tp->h->q, &tp->ev_pace, tp->next_tx);
            break;
        }
        bool retx = tp->lost_unretx > 0 && !new_first;
        uint64_t idx = retx ? find_retransmit(tp) : tp->nxt_idx;
        if (retx && idx >= tp->nxt_idx) {
            retx = false;        /* bookkeeping guard: should not happen */
            idx = tp->nxt_idx;
        }
        if (!retx && !have_new_data(tp))
            break;
        uint32_t inflight = tcp_in_flight(tp);
        if (inflight >= tp->snd_cwnd) {
            tp->is_cwnd_limited = true;
            break;
        }
        if (!retx && tp->snd_nxt + tp->mss > tp->snd_una + tp->snd_wnd) {
            tp->rwnd_limited_now = true;
            tp->rwnd_limited_calls++;
            break;
        }
        uint32_t n = 1;
        if (max_segs > 1) {
            bool defer;
            n = tcp_gso_segs_now(tp, idx, retx, max_segs, inflight, now, &defer);
            if (defer)
                break;
        }
        n = tcp_slots_cut(tp, idx, n);
        if (!retx && !(n = tcp_nagle_cut(tp, idx, n)))
            break;
        uint32_t payload = tcp_slots_payload(tp, idx, n);
        if (tcp_small_queue_check(tp, tcp_data_truesize(tp, payload + ip_hdr_len(tp->sk.family) + TCP_HDR_LEN, payload),
                                  retx))
            break;
        if (!tcp_xmit_segs(tp, idx, n, retx, c))
            break;
        if (!retx) {
            sent_new = true;
        } else {
            /* tcp_retransmit_skb: the undo's stamp and count (a loss
             * probe, sent by __tcp_retransmit_skb, counts in neither) */
            if (!tp->retrans_stamp)
                tp->retrans_stamp = (uint32_t)tcp_now_ms(tp, now);
            if (tp->undo_retrans < 0)
                tp->undo_retrans = 0;
            tp->undo_retrans += (int32_t)n;
        }
        if (tcp_in_flight(tp) > tp->max_packets_out)
            tp->max_packets_out = tcp_in_flight(tp);
    }
    if (tcp_in_flight(tp) >= tp->snd_cwnd)
        tp->is_cwnd_limited = true;
    if (tcp_in_flight(tp) > tp->max_packets_out)
        tp->max_packets_out = tcp_in_flight(tp);
    if (sent_new)
        tcp_schedule_loss_probe(tp, now);
    if (new_first && tp->snd_nxt <= tp->high_seq) {
        tp->frto = false;                 /* nothing new went: conventional recovery */
        tcp_write_xmit(tp, c);
    }
}

bool tcp_can_send_new(const struct tcp_sock *tp)
{
    return have_new_data(tp) && tp->snd_nxt + tp->mss <= tp->snd_una + tp->snd_wnd;
}

/* TLP probe: a new segment if rwnd allows, else the highest outstanding. */
void tcp_send_loss_probe(struct tcp_sock *tp, struct core *c)
{
    simtime_t now = core_now(c);
    if (!tp->packets_out || !tcp_tlp_state_ok(tp))
        return;
    tp->st.tlps++;
    if (have_new_data(tp) && tp->snd_nxt + tp->mss <= tp->snd_una + tp->snd_wnd) {
        tcp_xmit_segs(tp, tp->nxt_idx, 1, false, c);
    } else {
        uint64_t idx = tp->nxt_idx - 1;
        struct tcp_seg *s = tcp_seg_at(tp, idx);
        if (s->flags & SEG_SACKED)
            return;
        /* retransmit it although it is not marked lost: it then counts
         * twice in flight until (S)ACKed, as in the kernel */
        if (s->flags & SEG_RETRANS)
            return;
        tcp_xmit_segs(tp, idx, 1, true, c);
    }
    tp->tlp_pending = true;
    tp->tlp_high_seq = tp->snd_nxt;
    tcp_rearm_rto(tp, now);
}

/* sk_pacing_rate as the kernel keeps it on every ACK (tcp_update_pacing_rate),
 * paced or not: the model stores it only where something paces */
uint64_t tcp_sk_pacing_rate(const struct tcp_sock *tp)
{
    return tp->pacing_rate || !tp->srtt ? tp->pacing_rate : tcp_cwnd_pacing_rate(tp);
}
