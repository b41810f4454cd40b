/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * input.c - the receiver half of an association, Linux 3.14 (sctp.md A.5).
 * Kernel: net/sctp/input.c sctp_rcv / sctp_add_backlog, net/core/sock.c
 * sk_add_backlog, sm_statefuns.c sctp_eat_data, sm_sideeffect.c
 * sctp_gen_sack, ulpqueue.c sctp_ulpq_tail_data / sctp_ulpq_renege,
 * sm_make_chunk.c sctp_make_sack, associola.c sctp_peer_needs_update.
 *
 * Memory: each accepted message charges payload + sizeof(struct sk_buff)
 * (skb_struct_size, 232) to rmem, in the receive queue or in the lobby.
 * The NIC truesize (2944) counts only in the backlog limit.
 */
#include "models/sctp/sctp.h"
#include "sim/invariant.h"

static uint32_t *lobby_slot(struct sctp_assoc *a, uint32_t tsn)
{
    return &a->lobby[tsn & (SCTP_TSN_MAP - 1)];
}

static void rq_push(struct sctp_assoc *a, uint32_t len)
{
    /* bounded by rmem: rcvbuf / skb_struct_size messages at most (checked at setup) */
    INVARIANT(a->rq_n < SCTP_RQ_RING);
    a->rq[(a->rq_head + a->rq_n) & (SCTP_RQ_RING - 1)] = len;
    a->rq_n++;
}

void sctp_window_update(struct sctp_assoc *a, struct core *c)
{
    uint32_t thresh = a->sk.rcvbuf >> a->sh->rwnd_update_shift;
    if (thresh < a->pmtu)
        thresh = a->pmtu;
    if (a->rwnd > a->a_rwnd && a->rwnd - a->a_rwnd >= thresh) {
        a->st.window_update_sacks++;
        a->sack_needed = true;
        sctp_gen_sack(a, true, c);
    }
}

/* Free one message's memory: the rwnd code first, then the skb destructor
 * (sctp_ulpevent_release_data, then sctp_sock_rfree). */
static void event_release(struct sctp_assoc *a, uint32_t len, struct core *c)
{
    a->sh->rwnd->on_release(a, len);
    sctp_window_update(a, c);
    INVARIANT(a->rmem >= len + a->sh->skb_struct_size);
    a->rmem -= len + a->sh->skb_struct_size;
}

/* sctp_ulpq_renege: with the receive queue empty, free lobby events from
 * the highest TSN down until `needed` bytes are free. The TSNs disappear
 * from the map (max_tsn_seen stays, as in the kernel). */
static uint32_t renege(struct sctp_assoc *a, uint32_t needed, struct core *c)
{
    uint32_t freed = 0;
    if (a->rq_n)
        return 0;
    for (uint32_t t = a->max_tsn_seen; tsn_lt(a->cum + 1, t) && freed < needed; t--) {
        uint32_t *s = lobby_slot(a, t);
        if (!*s)
            continue;
        uint32_t len = *s - 1;
        *s = 0;
        INVARIANT(a->lobby_n > 0);
        a->lobby_n--;
        a->st.reneged_tsns++;
        freed += len;
        event_release(a, len, c);
    }
    if (freed)
        a->st.reneges++;
    return freed;
}

static void deliver_wakeup(struct sctp_assoc *a, struct core *c)
{
    /* sk_data_ready per event: the wait-queue lock is taken even when
     * nobody sleeps */
    sctp_charge(a->host, c, sctp_sym.wake_key);
    kt_charge_irqoff(a->host, c, sctp_sym.wake_irq_cost, sctp_sym.irq_wake, sctp_sym.wake_key);
    sctp_wake_reader(a, c);
}

/* sctp_eat_data for one DATA chunk; sets *force for a duplicate or a
 * discard (the SACK then goes at once). */
static void eat_data(struct sctp_assoc *a, uint32_t tsn, uint32_t len, bool frtx, bool *force, struct core *c)
{
    struct host *h = a->host;
    sctp_charge(h, c, sctp_sym.do_sm);
    if (tsn_lte(tsn, a->cum) || (tsn_lt(tsn, a->cum + 1 + SCTP_TSN_MAP) && *lobby_slot(a, tsn))) {
        a->st.dup_tsns++;
        a->ndups++;
        *force = true;
        return;
    }
    if (!tsn_lt(tsn, a->cum + 1 + SCTP_TSN_MAP)) {
        a->st.map_discards++;    /* beyond the TSN map: discarded without a forced SACK */
        return;
    }
    if (a->sh->rwnd->reject(a, len)) {
        if (a->max_tsn_seen != a->cum && tsn == a->cum + 1) {
            if (renege(a, len, c) < len)
                return;          /* not accepted; the SACK goes as usual */
        } else {
            a->st.rwnd_discards++;
            if (frtx)
                a->st.frtx_dropped++;
            *force = true;
            return;
        }
    }
    a->rmem += len + a->sh->skb_struct_size;
    INVARIANT(a->rmem >= len + a->sh->skb_struct_size);
    a->sh->rwnd->on_receive(a, len);
    sctp_charge(h, c, sctp_sym.make_rcvmsg);
    kt_charge_irqoff(h, c, sctp_sym.ulpq_irq_cost, sctp_sym.irq_ulpq, sctp_sym.ulpq_self);
    if (tsn_lt(a->max_tsn_seen, tsn))
        a->max_tsn_seen = tsn;
    if (tsn == a->cum + 1) {
        a->cum = tsn;
        rq_push(a, len);
        deliver_wakeup(a, c);
        for (uint32_t *s = lobby_slot(a, a->cum + 1); *s; s = lobby_slot(a, a->cum + 1)) {
            rq_push(a, *s - 1);
            *s = 0;
            INVARIANT(a->lobby_n > 0);
            a->lobby_n--;
            a->cum++;
            deliver_wakeup(a, c);
        }
    } else {
        *lobby_slot(a, tsn) = len + 1;
        a->lobby_n++;
        INVARIANT(a->lobby_n <= SCTP_TSN_MAP && a->lobby_n <= a->max_tsn_seen - a->cum);
    }
}

static void send_sack(struct sctp_assoc *a, struct core *c)
{
    struct host *h = a->host;
    struct sctp_wire w = { .type = SCTP_SACK, .tsn = a->cum, .a_rwnd = a->rwnd };
    a->a_rwnd = a->rwnd;
    /* gap blocks from the map, up to SCTP_MAX_GAPS */
    uint32_t t = a->cum + 1;
    while (tsn_lte(t, a->max_tsn_seen) && w.ngaps < SCTP_MAX_GAPS) {
        while (tsn_lte(t, a->max_tsn_seen) && !*lobby_slot(a, t))
            t++;
        if (!tsn_lte(t, a->max_tsn_seen))
            break;
        uint32_t start = t;
        while (tsn_lte(t, a->max_tsn_seen) && *lobby_slot(a, t))
            t++;
        w.gap[w.ngaps][0] = (uint16_t)(start - a->cum);
        w.gap[w.ngaps][1] = (uint16_t)(t - 1 - a->cum);
        w.ngaps++;
    }
    w.ndups = (uint8_t)(a->ndups < 255 ? a->ndups : 255);
    a->ndups = 0;
    sctp_charge(h, c, sctp_sym.make_sack);
    sctp_charge(h, c, sctp_sym.pkt_xmit);
    /* to the address the last DATA came from (sctp_make_sack:
     * last_data_from), unless that address is not ACTIVE: then
     * sctp_outq_flush sends control chunks other than HEARTBEAT(-ACK) to
     * the active path */
    struct sctp_transport *to = &a->tp[a->last_data_from];
    if (to->tstate != SCTP_T_ACTIVE)
        to = &a->tp[a->active];
    w.path = to->idx;
    struct skb *skb = sctp_skb_new(a, to, a->overhead + SCTP_SACK_HDR + 4u * w.ngaps + 4u * w.ndups);
    skb->tx_desc = 2;
    memcpy(skb->l4, &w, sizeof w);
    a->st.sacks_tx++;
    ip_output(h, skb, c);
}

void sctp_gen_sack(struct sctp_assoc *a, bool force, struct core *c)
{
    if (force || a->max_tsn_seen != a->cum)
        a->sack_needed = true;
    if (!a->sack_needed) {
        if (++a->sack_cnt >= a->sh->sack_freq - 1)
            a->sack_needed = true;
        kt_mod(&a->sack_timer, sctp_jiffies(core_now(c)) + a->sh->sack_timeout, a->host, c, &a->sh->kt, KT_DO_SM);
    } else {
        send_sack(a, c);
        a->sack_needed = false;
        a->sack_cnt = 0;
        kt_del(&a->sack_timer, a->host, c, &a->sh->kt);
    }
}

void sctp_input(struct sctp_assoc *a, struct skb *skb, struct core *c)
{
    struct sctp_wire w;
    memcpy(&w, skb->l4, sizeof w);
    /* sctp_assoc_bh_rcv: the chunk's transport was heard from now; DATA
     * also decides where SACKs go (both ends have the same paths) */
    a->tp[w.path].last_heard = sctp_jiffies(core_now(c));
    switch (w.type) {
    case SCTP_DATA: {
        a->last_data_from = w.path;
        bool force = false;
        for (uint32_t i = 0; i < w.nchunks; i++)
            eat_data(a, w.tsn + i, w.len, w.flags & 1, &force, c);
        sctp_gen_sack(a, force, c);
        break;
    }
    case SCTP_SACK:
        sctp_sack_rcv(a, &w, c);
        break;
    case SCTP_HEARTBEAT:
        /* sctp_sf_beat_8_3: the info comes back as it went; the HEARTBEAT
         * came through sctp_rcv like DATA (backlog, its limit, drops) */
        sctp_send_ctrl(&a->tp[w.path], SCTP_HEARTBEAT_ACK, w.tsn, c);
        break;
    case SCTP_HEARTBEAT_ACK:
        sctp_hb_ack_rcv(&a->tp[w.path], w.tsn, c);
        break;
    }
    skb_free(skb);
}

void sctp_rcv(struct host *h, struct skb *skb, struct core *c)
{
    sctp_charge(h, c, sctp_sym.rcv);
    struct sock *sk = host_sock_lookup(h, IPPROTO_SCTP_, skb->dport);
    if (!sk) {
        h->ip_no_proto++;        /* would be an ABORT (out of the blue) */
        skb_free(skb);
        return;
    }
    struct sctp_assoc *a = sk->priv;
    if (a->owned) {
        /* sctp_add_backlog -> sk_add_backlog(sk, skb, sk_rcvbuf):
         * sk_rcvqueues_full compares backlog + rmem with the limit */
        if (a->backlog_len + a->rmem > a->sk.rcvbuf) {
            struct sctp_wire w;
            memcpy(&w, skb->l4, sizeof w);
            a->st.backlog_drops++;
            if (w.type == SCTP_DATA && (w.flags & 1))
                a->st.frtx_dropped++;
            skb_free(skb);
            return;
        }
        a->backlog_len += skb->truesize;
        a->st.backlogged++;
        skbq_push(&a->backlog, skb);
        sctp_charge(h, c, sctp_sym.add_backlog);
        return;
    }
    sctp_input(a, skb, c);
}
