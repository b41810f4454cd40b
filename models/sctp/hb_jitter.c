/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hb_jitter.c - sctp.hb = jitter: the heartbeat timer before Marcelo
 * Ricardo Leitner's "sctp: avoid refreshing heartbeat timer too often"
 * (ba6f5e33bdbb, 4.5; this is 4.4). Kernel: transport.c
 * sctp_transport_timeout() and sctp_transport_reset_timers(). sctp.md B.2.
 *
 * Every DATA chunk appended to a packet re-arms the heartbeat timer to
 * jiffies + rto/2 + prandom_u32_max(rto) + hbinterval. The random term
 * spans 1000 jiffies while slack rounds to 64-128, so almost every call
 * moves the expiry and re-queues the timer: mod_timer's shortcut for an
 * unchanged expiry rarely applies.
 *
 * 3.14 computes the same thing as rto + sctp_jitter(rto), jitter uniform on
 * [-rto/2, rto/2). hbinterval counts only while the path is not PF
 * (sctp_hb_interval): in PF every chunk pushes the probe to rto +- rto/2
 * after the last chunk sent, so a PF path is probed only when the sender
 * has gone quiet for about one RTO.
 */
#include "models/sctp/sctp.h"

static uint64_t timeout(struct sctp_transport *t)
{
    struct sctp_assoc *a = t->a;
    return sctp_jiffies(sctp_now(NULL)) + t->rto / 2 + sctp_prandom_max(a, t->rto, NULL) + sctp_hb_interval(t);
}

static void on_data_sent(struct sctp_transport *t, struct core *c)
{
    struct sctp_assoc *a = t->a;
    uint64_t e = sctp_jiffies(core_now(c)) + t->rto / 2 + sctp_prandom_max(a, t->rto, c) + sctp_hb_interval(t);
    kt_mod(&t->hb, e, a->host, c, &a->sh->kt, KT_RESET_TIMERS);
}

const struct sctp_hb_ops sctp_hb_jitter = {
    .name = "jitter",
    .doc = "4.4: re-arm with a random expiry (rto/2 + U[0, rto) + hbinterval) for every DATA chunk",
    .timeout = timeout,
    .on_data_sent = on_data_sent,
};
VARIANT("sctp.hb", sctp_hb_jitter);
