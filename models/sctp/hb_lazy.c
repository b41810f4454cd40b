/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hb_lazy.c - sctp.hb = lazy: "sctp: avoid refreshing heartbeat timer too
 * often" (Marcelo Ricardo Leitner, ba6f5e33bdbb, 4.5), as posted.
 * Kernel: transport.c sctp_transport_reset_timers(). sctp.md B.2.
 *
 * sctp_transport_timeout() loses its random term; reset_timers re-arms
 * only when the timer's expiry lies before the non-random base expiry,
 * and adds prandom_u32_max(rto) at that re-arm. Between re-arms each chunk
 * costs one comparison. Side effect of the posted diff: the other re-arm
 * paths (after a heartbeat, on HEARTBEAT-ACK) call timeout() too and lose
 * the RFC 4960 8.3 jitter, so idle heartbeats come every rto/2 +
 * hbinterval exactly; host key sctp.lazy_rearm_jitter adds it back there,
 * as upstream later did through sctp_transport_reset_hb_timer.
 *
 * In PF (sctp_hb_interval drops hbinterval) the base expiry is rto/2 after
 * each chunk. After a re-arm at t with draw r, chunks re-arm again only
 * once they come later than t + r, so the probe still fires between rto/2
 * and 3 rto/2 after the last chunk sent, as with jitter, at a few re-arms
 * per RTO instead of one per chunk.
 */
#include "models/sctp/sctp.h"

static uint64_t timeout(struct sctp_transport *t)
{
    struct sctp_assoc *a = t->a;
    uint64_t e = sctp_jiffies(sctp_now(NULL)) + t->rto / 2 + sctp_hb_interval(t);
    if (a->sh->lazy_rearm_jitter)
        e += sctp_prandom_max(a, t->rto, NULL);
    return e;
}

static void on_data_sent(struct sctp_transport *t, struct core *c)
{
    struct sctp_assoc *a = t->a;
    uint64_t e = sctp_jiffies(core_now(c)) + t->rto / 2 + sctp_hb_interval(t);
    /* time_before(hb_timer.expires, expires): the comparison is charged
     * with the rest of reset_timers */
    if ((int64_t)(t->hb.expires - e) < 0)
        kt_mod(&t->hb, e + sctp_prandom_max(a, t->rto, c), a->host, c, &a->sh->kt, KT_RESET_TIMERS);
    else
        a->st.hb_lazy_skips++;
}

const struct sctp_hb_ops sctp_hb_lazy = {
    .name = "lazy",
    .doc = "ba6f5e33bdbb as posted: re-arm only when the base expiry passed the current one",
    .timeout = timeout,
    .on_data_sent = on_data_sent,
};
VARIANT("sctp.hb", sctp_hb_lazy);
