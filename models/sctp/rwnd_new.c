/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rwnd_new.c - sctp.rwnd = new: commit ef2820a735f7 ("net: sctp: Fix
 * a_rwnd/rwnd management to reflect real state of the receiver's buffer",
 * Matija Glavinic Pecotic, in 3.11 to 3.14). Kernel: associola.c
 * sctp_assoc_rwnd_update(asoc, update_peer). sctp.md A.6.
 *
 * The window is recomputed from buffer memory: rwnd = (sk_rcvbuf -
 * sk_rmem_alloc) / 2. Each 1452-byte message holds 1684 bytes, so the
 * window shrinks by 842 per message and closes only when the buffer is
 * full (126 messages, rmem = 100 % of sk_rcvbuf): no headroom is left for
 * the socket backlog. On release the event's memory is still charged (the
 * skb destructor runs after the rwnd code), so the value lags one message.
 * No window-update SACK on receive; no rwnd_over; partial reads change
 * nothing.
 */
#include "models/sctp/sctp.h"

static void recompute(struct sctp_assoc *a)
{
    int64_t free_ = (int64_t)a->sk.rcvbuf - (int64_t)a->rmem;
    a->rwnd = free_ > 0 ? (uint32_t)(free_ >> 1) : 0;
}

static void on_receive(struct sctp_assoc *a, uint32_t len)
{
    (void)len;
    recompute(a);
}

static void on_release(struct sctp_assoc *a, uint32_t len)
{
    (void)len;
    recompute(a);
}

static bool reject(const struct sctp_assoc *a, uint32_t datalen)
{
    return a->rwnd == 0 || datalen > a->rwnd + a->frag_point;
}

const struct sctp_rwnd_ops sctp_rwnd_new = {
    .name = "new",
    .doc = "ef2820a735f7 (3.11-3.14): rwnd = (sk_rcvbuf - rmem) / 2, recomputed on receive and read",
    .on_receive = on_receive,
    .on_release = on_release,
    .reject = reject,
};
VARIANT("sctp.rwnd", sctp_rwnd_new);
