/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * transport.c - the transport side of an association's sender, Linux
 * 3.14 semantics (sctp.md A.4): per path the congestion window, RTO and
 * T3-rtx timer, what a SACK acks and marks for fast retransmit, what a
 * T3 expiry or a heartbeat does to the path's state, and the timer
 * handlers. Kernel: outqueue.c sctp_outq_sack / sctp_check_transmitted /
 * sctp_mark_missing / sctp_retransmit, transport.c
 * sctp_transport_raise_cwnd / lower_cwnd / update_rto / reset_timers,
 * sm_sideeffect.c sctp_do_8_2_transport_strike / sctp_cmd_transport_on
 * and the timer handlers, sm_statefuns.c sctp_sf_do_6_3_3_rtx /
 * sctp_sf_sendbeat_8_3 / sctp_sf_backbeat_8_3, associola.c
 * sctp_assoc_control_transport; RFC 4960 6.2.1, 6.3, 7.2, 8.2, 8.3; the
 * quick-failover draft (PF state). The chunks it walks are output.h's
 * ring; sending them is output.c's.
 */
#include "models/sctp/output.h"
#include "models/sctp/sctp.h"
#include "sim/sim.h"

uint64_t sctp_prandom_max(struct sctp_assoc *a, uint64_t n, struct core *c)
{
    if (c)
        sctp_charge(a->host, c, sctp_sym.prandom);
    a->st.prandom_calls++;
    return (rng_u32(&a->sh->rng) * n) >> 32;
}

void sctp_update_rto(struct sctp_transport *t, uint64_t rtt)
{
    const struct sctp_host *sh = t->a->sh;
    /* RTO.Alpha 1/8, RTO.Beta 1/4 as shifts; a zero RTTVAR is raised to one
     * clock granularity (1 jiffy) */
    if (t->rttvar || t->srtt) {
        uint64_t d = t->srtt > rtt ? t->srtt - rtt : rtt - t->srtt;
        t->rttvar = t->rttvar - (t->rttvar >> 2) + (d >> 2);
        t->srtt = t->srtt - (t->srtt >> 3) + (rtt >> 3);
    } else {
        t->srtt = rtt;
        t->rttvar = rtt >> 1;
    }
    if (!t->rttvar)
        t->rttvar = 1;
    t->rto = t->srtt + (t->rttvar << 2);
    if (t->rto < sh->rto_min)
        t->rto = sh->rto_min;
    if (t->rto > sh->rto_max)
        t->rto = sh->rto_max;
    t->rto_pending = false;
}

void sctp_transport_reset_timers(struct sctp_transport *t, struct core *c)
{
    struct sctp_assoc *a = t->a;
    sctp_charge(a->host, c, sctp_sym.reset_timers);
    /* R1: start T3 if it is not running (it runs through a transfer) */
    if (!kt_pending(&t->t3))
        kt_mod(&t->t3, sctp_jiffies(core_now(c)) + t->rto, a->host, c, &a->sh->kt, KT_RESET_TIMERS);
    a->sh->hb->on_data_sent(t, c);
}

uint32_t sctp_flight(const struct sctp_assoc *a)
{
    uint32_t f = 0;
    for (int i = 0; i < a->npaths; i++)
        f += a->tp[i].flight;
    return f;
}

/* sctp_assoc_control_transport's choice of active_path and retran_path
 * after any state change, as the 3.13.2 tree read makes it (3.14 is
 * taken to be the same): the two most recently heard ACTIVE addresses,
 * first and second; the primary first if it is ACTIVE, the other one
 * second; with one ACTIVE address both are it; with none both camp on
 * the primary. So with two ACTIVE addresses retransmissions go to the
 * alternate. (The 3.10 tree's loop left first == second; 3.16 rewrote
 * the choice.) */
static void select_paths(struct sctp_assoc *a)
{
    struct sctp_transport *first = NULL, *second = NULL, *pri = &a->tp[0];
    for (int i = 0; i < a->npaths; i++) {
        struct sctp_transport *t = &a->tp[i];
        if (t->tstate != SCTP_T_ACTIVE)
            continue;
        if (!first || t->last_heard > first->last_heard) {
            second = first;
            first = t;
        } else if (!second || t->last_heard > second->last_heard) {
            second = t;
        }
    }
    if (pri->tstate == SCTP_T_ACTIVE && first != pri) {
        second = first;
        first = pri;
    }
    if (!second)
        second = first;
    if (!first)
        first = second = pri;
    a->active = first->idx;
    a->retran = second->idx;
}

/* sctp_assoc_update_retran_path after a T3 on the retran path: the next
 * address in the list that is ACTIVE; failing that the next one that is
 * not UNCONFIRMED; failing that, no change. */
static void update_retran_path(struct sctp_assoc *a)
{
    if (a->npaths == 1)
        return;
    int next = -1;
    for (int k = 1; k < a->npaths; k++) {
        int i = (a->retran + k) % a->npaths;
        if (a->tp[i].tstate == SCTP_T_ACTIVE) {
            a->retran = (uint8_t)i;
            return;
        }
        if (a->tp[i].tstate != SCTP_T_UNCONFIRMED && next < 0)
            next = i;
    }
    if (next >= 0)
        a->retran = (uint8_t)next;
}

/* sctp_retransmit_mark for one chunk last sent on t: to the retransmit
 * queue, its bytes back to the peer's window and out of the flight, its
 * miss count cleared, and an RTT measurement on it cancelled (Karn). */
static void retransmit_mark(struct sctp_assoc *a, struct sctp_transport *t, struct sctp_chunk *ch)
{
    ch->state = CH_RTX;
    a->nrtx++;
    a->peer_rwnd += ch->len;
    a->outstanding -= ch->len < a->outstanding ? ch->len : a->outstanding;
    t->flight -= ch->len < t->flight ? ch->len : t->flight;
    ch->missing = 0;
    if (ch->rtt_in_progress) {
        ch->rtt_in_progress = false;
        t->rto_pending = false;
    }
}

/* Is tsn (> cum) inside one of the SACK's gap blocks? */
static bool in_gaps(const struct sctp_wire *w, uint32_t tsn)
{
    uint32_t off = tsn - w->tsn;
    for (int i = 0; i < w->ngaps; i++)
        if (off >= w->gap[i][0] && off <= w->gap[i][1])
            return true;
    return false;
}

void sctp_sack_rcv(struct sctp_assoc *a, const struct sctp_wire *w, struct core *c)
{
    struct host *h = a->host;
    uint32_t cum = w->tsn;
    sctp_charge(h, c, sctp_sym.outq_sack);
    a->st.sacks_rx++;
    if (tsn_lt(cum, a->ctsn_ack_point))
        return;                  /* stale SACK */
    bool cum_advanced = tsn_lt(a->ctsn_ack_point, cum);
    /* sctp_check_transmitted runs once per transport's transmitted list:
     * what it counts is per transport */
    uint32_t flight_before[SCTP_MAX_PATHS];
    int64_t bytes_acked[SCTP_MAX_PATHS] = { 0 }, acked_all = 0;
    bool restart[SCTP_MAX_PATHS] = { false }, reneged[SCTP_MAX_PATHS] = { false };
    for (int i = 0; i < a->npaths; i++)
        flight_before[i] = a->tp[i].flight;
    uint32_t freed = 0, highest_new = a->ctsn_ack_point;
    bool have_new = false;
    uint64_t now_j = sctp_jiffies(core_now(c));

    for (uint32_t t = a->ctsn_ack_point + 1; tsn_lt(t, a->next_send); t++) {
        struct sctp_chunk *ch = chunk_at(a, t);
        bool acked = tsn_lte(t, cum) || in_gaps(w, t);
        if (acked) {
            /* a chunk on a transmitted list (not waiting in the retransmit
             * queue, which sctp_check_transmitted walks without a transport) */
            bool listed = ch->state == CH_SENT;
            if (!ch->gap_acked) {
                if (ch->state == CH_SENT) {
                    bytes_acked[ch->tp] += ch->len;
                    if (ch->rtt_in_progress && !ch->resent) {
                        ch->rtt_in_progress = false;
                        sctp_update_rto(&a->tp[ch->tp], now_j - sctp_jiffies(ch->sent_at));
                    }
                } else if (ch->state == CH_RTX) {
                    /* acked while waiting: nothing to resend; the next
                     * sctp_outq_flush_rtx moves it to the retran path's list */
                    ch->state = CH_SENT;
                    ch->tp = a->retran;
                    a->nrtx--;
                }
                highest_new = t;
                have_new = true;
                ch->gap_acked = true;
            }
            if (tsn_lte(t, cum)) {
                if (listed)
                    restart[ch->tp] = true;   /* R3 for the transport whose list held it */
                ch->state = CH_FREE;          /* freed: its send-buffer charge returns */
                sctp_wfree(a, ch->len);
                freed++;
            }
        } else if (ch->gap_acked) {
            /* the receiver reneged: outstanding again */
            ch->gap_acked = false;
            if (ch->state == CH_SENT)
                bytes_acked[ch->tp] -= ch->len;
            reneged[ch->tp] = true;
        }
    }
    if (cum_advanced) {
        a->ctsn_ack_point = cum;
        a->last_progress = core_now(c);
    }
    for (int i = 0; i < a->npaths; i++) {
        struct sctp_transport *tp = &a->tp[i];
        int64_t ba = bytes_acked[i];
        acked_all += ba;
        /* RFC 4960 8.2: newly acknowledged bytes (cum-ack or gap blocks)
         * clear the path's and the association's error counters and bring
         * an INACTIVE (or UNCONFIRMED) path up when the SACK came from its
         * address, but leave a PF path PF: only a HEARTBEAT-ACK ends PF
         * (sctp_cmd_transport_on) */
        if (ba != 0) {
            tp->error_count = 0;
            a->overall_error_count = 0;
            if ((tp->tstate == SCTP_T_INACTIVE || tp->tstate == SCTP_T_UNCONFIRMED) && (a->npaths == 1 || w->path == i)) {
                tp->tstate = SCTP_T_ACTIVE;
                select_paths(a);
            }
        }
        /* sctp_transport_raise_cwnd, called when the SACK newly acked
         * bytes on this transport's list: first the association's exit
         * from Fast Recovery, then the increase, if the cum-ack advanced
         * and the transport's window was fully used */
        if (ba != 0 && a->fast_recovery && tsn_lte(a->fast_recovery_exit, cum))
            a->fast_recovery = false;
        if (cum_advanced && ba > 0 && flight_before[i] >= tp->cwnd) {
            if (tp->cwnd <= tp->ssthresh) {
                if (!a->fast_recovery)
                    tp->cwnd += (uint32_t)(ba < a->pmtu ? ba : a->pmtu);
            } else {
                tp->pba += (uint32_t)ba;
                if (tp->pba >= tp->cwnd) {
                    tp->cwnd += a->pmtu;
                    tp->pba = tp->pba > tp->cwnd ? tp->pba - tp->cwnd : 0;
                }
            }
        }
    }
    /* sctp_outq_sack -> sctp_mark_missing, only for a SACK with gap
     * blocks: one miss indication for each chunk still CAN_FRTX below the
     * highest TSN newly acked by this SACK (HTNA); in Fast Recovery, when
     * the cum-ack moved, below the highest TSN the SACK reports at all */
    if (w->ngaps) {
        uint32_t below = have_new ? highest_new : cum;
        if (a->fast_recovery && cum_advanced)
            below = cum + w->gap[w->ngaps - 1][1];
        for (uint32_t t = a->ctsn_ack_point + 1; tsn_lt(t, below); t++) {
            struct sctp_chunk *ch = chunk_at(a, t);
            if (ch->state == CH_SENT && !ch->gap_acked && ch->fast_rtx == FR_CAN && ++ch->missing >= 3)
                ch->fast_rtx = FR_NEED;
        }
    }
    int64_t os = (int64_t)a->outstanding - acked_all;
    a->outstanding = os > 0 ? (uint32_t)os : 0;
    a->peer_rwnd = w->a_rwnd > a->outstanding ? w->a_rwnd - a->outstanding : 0;
    for (int i = 0; i < a->npaths; i++) {
        struct sctp_transport *tp = &a->tp[i];
        int64_t fl = (int64_t)tp->flight - bytes_acked[i];
        tp->flight = fl > 0 ? (uint32_t)fl : 0;
        if (!tp->flight)
            tp->pba = 0;
        /* T3 rules R2/R3 (and R4 for a renege) */
        if (!tp->flight)
            kt_del(&tp->t3, h, c, &a->sh->kt);
        else if (restart[i])
            kt_mod(&tp->t3, now_j + tp->rto, h, c, &a->sh->kt, KT_DO_SM);
        else if (reneged[i] && !kt_pending(&tp->t3))
            kt_mod(&tp->t3, now_j + tp->rto, h, c, &a->sh->kt, KT_DO_SM);
    }

    /* fast retransmit (RFC 4960 7.2.4), sctp_retransmit(FAST_RTX) for
     * each transport with chunks marked: the transport's cwnd is lowered
     * if the association is not in Fast Recovery yet */
    for (int i = 0; i < a->npaths; i++) {
        struct sctp_transport *tp = &a->tp[i];
        bool need = false;
        for (uint32_t t = a->ctsn_ack_point + 1; tsn_lt(t, a->next_send); t++) {
            struct sctp_chunk *ch = chunk_at(a, t);
            if (ch->tp != i || ch->state != CH_SENT || ch->fast_rtx != FR_NEED)
                continue;
            if (!need && !a->fast_recovery) {
                a->fast_recovery = true;
                a->fast_recovery_exit = a->next_send - 1;
                tp->ssthresh = tp->cwnd / 2 > 4 * a->pmtu ? tp->cwnd / 2 : 4 * a->pmtu;
                tp->cwnd = tp->ssthresh;
                tp->pba = 0;
            }
            need = true;
            a->fast_rtx = true;               /* q->fast_rtx */
            retransmit_mark(a, tp, ch);
        }
    }
    for (uint32_t i = 0; i < freed; i++) {
        sctp_charge(h, c, sctp_sym.kfree);
        sctp_charge(h, c, sctp_sym.slab_free);
    }
    sctp_outq_flush(a, c, false);
    if (freed)
        sctp_wake_writer(a, c);
}

/* sctp_do_8_2_transport_strike: one strike against the path, for a T3
 * expiry (is_hb = 0) or a heartbeat sent (is_hb = 1, SCTP_CMD_TRANSPORT_HB_SENT,
 * which counts only when the previous heartbeat is still unacknowledged).
 * 3.14 marks the path PF when it is not PF (or UNCONFIRMED) already and
 * error_count exceeds pf_retrans (0 by default: the first T3), without
 * telling the ULP, chooses the active and retran paths again, and re-arms
 * the heartbeat timer at once: sctp_transport_timeout() now leaves
 * hbinterval out, and the RTO is not yet doubled. Beyond path_max_retrans
 * the path goes INACTIVE; with one path 3.14 still sends on it
 * (sctp_assoc_control_transport camps on the primary). The state test is
 * `!= PF` as in the 3.8-3.10 trees read, so an INACTIVE path passes
 * through PF on every strike; the 3.18 tree read has a later `== ACTIVE`.
 * Last, RFC 4960 E2: the RTO doubles, for a heartbeat only when one was
 * already outstanding. */
static void transport_strike(struct sctp_transport *t, bool is_hb, struct core *c)
{
    struct sctp_assoc *a = t->a;
    const struct sctp_host *sh = a->sh;
    if (!is_hb || t->hb_sent) {
        if (!is_hb || t->tstate != SCTP_T_UNCONFIRMED)
            a->overall_error_count++;
        if (t->tstate != SCTP_T_INACTIVE)
            t->error_count++;
        if (t->error_count > sh->path_max_retrans)
            a->st.error_count_max++;
    }
    if (t->tstate != SCTP_T_PF && t->tstate != SCTP_T_UNCONFIRMED && sh->pf_retrans < sh->path_max_retrans &&
        t->error_count > sh->pf_retrans) {
        t->tstate = SCTP_T_PF;
        a->st.pf_entries++;
        select_paths(a);
        kt_mod(&t->hb, sh->hb->timeout(t), a->host, c, &a->sh->kt, KT_DO_SM);   /* sctp_cmd_hb_timer_update */
    }
    if (t->tstate != SCTP_T_INACTIVE && t->tstate != SCTP_T_UNCONFIRMED && t->error_count > sh->path_max_retrans) {
        t->tstate = SCTP_T_INACTIVE;
        a->st.path_inactive++;
        select_paths(a);
    }
    if (!is_hb || t->hb_sent) {
        t->rto = 2 * t->rto < sh->rto_max ? 2 * t->rto : sh->rto_max;
        if (is_hb)
            a->st.hb_rto_doublings++;
    }
}

/* Every chunk last sent on t that is not gap-acked goes to the retransmit
 * queue, t's cwnd drops to one PMTU, and one packet goes on the retran
 * path (sctp_retransmit(SCTP_RTXR_T3_RTX): sctp_transport_lower_cwnd,
 * sctp_assoc_update_retran_path if t was the retran path,
 * sctp_retransmit_mark, sctp_outq_flush). */
static void t3_retransmit(struct sctp_transport *t, struct core *c)
{
    struct sctp_assoc *a = t->a;
    t->ssthresh = t->cwnd / 2 > 4 * a->pmtu ? t->cwnd / 2 : 4 * a->pmtu;
    t->cwnd = a->pmtu;
    t->pba = 0;
    a->fast_recovery = false;
    if (t->idx == a->retran)
        update_retran_path(a);
    for (uint32_t n = a->ctsn_ack_point + 1; tsn_lt(n, a->next_send); n++) {
        struct sctp_chunk *ch = chunk_at(a, n);
        if (ch->state != CH_SENT || ch->gap_acked || ch->tp != t->idx)
            continue;
        if (ch->frtx_sent)
            a->st.frtx_lost++;
        retransmit_mark(a, t, ch);
    }
    sctp_outq_flush(a, c, true);
}

/* T3-rtx expiry on transport t (sctp_sf_do_6_3_3_rtx): SCTP_CMD_STRIKE,
 * then SCTP_CMD_RETRAN. */
void sctp_t3_timeout(struct sctp_transport *t, struct core *c)
{
    struct sctp_assoc *a = t->a;
    a->st.t3_expiries++;
    if (t->idx != 0)
        a->st.t3_alternate++;
    /* why nothing moved (sctp.md A.7 step 6): new data waiting in the outq
     * for the peer's window (or cwnd), or an empty outq behind a writer
     * blocked on a send buffer full of unacked and gap-acked chunks */
    if (a->next_send != a->next_tsn)
        a->st.t3_window_full++;
    else if (a->writer_sleeping)
        a->st.t3_sndbuf_full++;
    simtime_t stall = core_now(c) - a->last_progress;
    a->st.stall_ps_sum += (uint64_t)stall;
    if ((uint64_t)stall > a->st.stall_ps_max)
        a->st.stall_ps_max = (uint64_t)stall;
    /* a doubled RTO: 2 s less the jiffy T3 was armed into */
    if (stall >= 1950 * PS_PER_MS)
        a->st.stalls_2s++;
    /* overall_error_count >= association_max_retrans would abort the
     * association here; the model counts it and goes on */
    if (a->overall_error_count >= a->sh->assoc_max_retrans)
        a->st.assoc_abort_threshold++;
    transport_strike(t, false, c);
    t3_retransmit(t, c);
}

/* Heartbeat expiry on transport t (sctp_sf_sendbeat_8_3). sctp_sf_heartbeat
 * queues the HEARTBEAT (its info carries sent_at = jiffies) and sets
 * rto_pending, so until the HEARTBEAT-ACK comes no DATA chunk on t starts
 * an RTT measurement; SCTP_CMD_TRANSPORT_HB_SENT strikes (counted only
 * with one already outstanding) and sets hb_sent; SCTP_CMD_TRANSPORT_IDLE
 * lowers cwnd (sctp_transport_lower_cwnd INACTIVE: max(cwnd/2, 4 PMTU),
 * which raises a cwnd below 4 PMTU, pba 0); SCTP_CMD_HB_TIMER_UPDATE
 * re-arms with timeout(). The REPLY corked the outqueue; the
 * interpreter's uncork flushes it, data included. */
void sctp_hb_timeout(struct sctp_transport *t, struct core *c)
{
    struct sctp_assoc *a = t->a;
    simtime_t now = core_now(c);
    if (t->last_data_sent > t->hb_last_sent) {
        /* the first heartbeat after data stopped: 30.5 s + U[0, 1 s) after
         * the last chunk in both variants (sctp.md B.2) */
        if (a->host->sim)
            sim_series(a->host->sim, a->is_client ? "sctp.client.hb_after_data_s" : "sctp.server.hb_after_data_s",
                       time_to_s(now - t->last_data_sent));
    } else if (t->hb_last_sent) {
        a->st.hb_idle_n++;
        if (a->host->sim)
            sim_series(a->host->sim, a->is_client ? "sctp.client.hb_interval_s" : "sctp.server.hb_interval_s",
                       time_to_s(now - t->hb_last_sent));
    }
    if (a->overall_error_count >= a->sh->assoc_max_retrans)
        a->st.assoc_abort_threshold++;
    t->hb_last_sent = now;
    a->st.hb_sent++;
    sctp_send_ctrl(t, SCTP_HEARTBEAT, (uint32_t)sctp_jiffies(now), c);
    t->rto_pending = true;
    transport_strike(t, true, c);
    t->hb_sent = true;
    t->cwnd = t->cwnd / 2 > 4 * a->pmtu ? t->cwnd / 2 : 4 * a->pmtu;
    t->pba = 0;
    kt_mod(&t->hb, a->sh->hb->timeout(t), a->host, c, &a->sh->kt, KT_DO_SM);
    sctp_outq_flush(a, c, false);
}

/* A HEARTBEAT-ACK from transport t's address (sctp_sf_backbeat_8_3):
 * discarded when its sent_at lies in the future or more than hbinterval +
 * rto back; else sctp_cmd_transport_on: error counters and hb_sent
 * cleared; an UNCONFIRMED or INACTIVE path comes up (with one path an
 * INACTIVE one gets sctp_transport_immediate_rtx: a T3-style
 * retransmission at once), a PF one goes ACTIVE with cwnd = one PMTU (the
 * quick-failover draft 5.1 point 5, in sctp_assoc_control_transport),
 * and the active and retran paths are chosen again; an RTT sample with
 * rto_pending forced; the timer re-armed with timeout(), hbinterval
 * included again. */
void sctp_hb_ack_rcv(struct sctp_transport *t, uint32_t sent_at, struct core *c)
{
    struct sctp_assoc *a = t->a;
    uint32_t now_j = (uint32_t)sctp_jiffies(core_now(c));
    uint32_t age = now_j - sent_at;
    if ((int32_t)age < 0 || age > a->sh->hb_interval + t->rto) {
        a->st.hb_ack_stale++;
        return;
    }
    a->st.hb_ack_rx++;
    t->error_count = 0;
    a->overall_error_count = 0;
    t->hb_sent = false;
    bool was_inactive = t->tstate == SCTP_T_INACTIVE;
    if (t->tstate == SCTP_T_PF) {
        t->cwnd = a->pmtu;
        a->st.pf_exits++;
    }
    if (t->tstate != SCTP_T_ACTIVE) {
        if (t->tstate == SCTP_T_UNCONFIRMED)
            a->st.paths_confirmed++;
        t->tstate = SCTP_T_ACTIVE;
        select_paths(a);
    }
    t->rto_pending = true;
    sctp_update_rto(t, age);
    kt_mod(&t->hb, a->sh->hb->timeout(t), a->host, c, &a->sh->kt, KT_DO_SM);
    if (was_inactive && a->npaths == 1) {
        kt_del(&t->t3, a->host, c, &a->sh->kt);
        t3_retransmit(t, c);
        if (!kt_pending(&t->t3))
            kt_mod(&t->t3, sctp_jiffies(core_now(c)) + t->rto, a->host, c, &a->sh->kt, KT_DO_SM);
    }
}

/* The T3 and heartbeat timer handlers (sctp_generate_t3_rtx_event,
 * sctp_generate_heartbeat_event) take bh_lock_sock; if the user owns the
 * socket they re-arm the timer for jiffies + HZ/20 and return: the
 * reader's lock on the server end, the writer's (inside sctp_sendmsg) on
 * the client end. */
static bool timer_owned_retry(struct sctp_assoc *a, struct ktimer *kt, struct core *c)
{
    if (!a->owned)
        return false;
    a->st.timer_owned_retries++;
    kt_mod(kt, sctp_jiffies(core_now(c)) + KT_HZ / 20, a->host, c, &a->sh->kt, KT_DO_SM);
    return true;
}

static bool timer_slice(struct cpu_task *task, struct core *c)
{
    struct sctp_assoc *a = task->ctx;
    uint8_t due = a->timers_due, tdue[SCTP_MAX_PATHS];
    a->timers_due = 0;
    for (int i = 0; i < a->npaths; i++) {
        tdue[i] = a->tp[i].due;
        a->tp[i].due = 0;
    }
    for (int i = 0; i < a->npaths; i++)
        if ((tdue[i] & TD_T3) && !timer_owned_retry(a, &a->tp[i].t3, c))
            sctp_t3_timeout(&a->tp[i], c);
    if (due & TD_SACK)
        sctp_gen_sack(a, true, c);
    for (int i = 0; i < a->npaths; i++)
        if ((tdue[i] & TD_HB) && !timer_owned_retry(a, &a->tp[i].hb, c))
            sctp_hb_timeout(&a->tp[i], c);
    return false;
}

static void timer_due(struct sctp_assoc *a, uint8_t *bits, uint8_t bit)
{
    *bits |= bit;
    a->timer_task.run = timer_slice;
    a->timer_task.ctx = a;
    a->timer_task.cls = CPU_SOFTIRQ;
    a->timer_task.name = "sctp_timer";
    core_wake(a->timer_core, &a->timer_task, a->host->q->now);
}

void sctp_t3_expire(struct event *ev)
{
    struct sctp_transport *t = ev->ctx;
    timer_due(t->a, &t->due, TD_T3);
}
void sctp_hb_expire(struct event *ev)
{
    struct sctp_transport *t = ev->ctx;
    timer_due(t->a, &t->due, TD_HB);
}
void sctp_sack_timer_expire(struct event *ev)
{
    struct sctp_assoc *a = ev->ctx;
    timer_due(a, &a->timers_due, TD_SACK);
}
