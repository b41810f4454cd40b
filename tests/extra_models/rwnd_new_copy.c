/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rwnd_new_copy.c - an out-of-tree sctp.rwnd variant for the EXTRA_MODELS
 * test: the rule of rwnd_new.c under another name, so that a run with it
 * must give exactly the rows of `new`.
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

const struct sctp_rwnd_ops sctp_rwnd_new_copy = {
    .name = "new-copy",
    .doc = "test variant: rwnd_new.c's rule under another name (tests/extra_models)",
    .on_receive = on_receive,
    .on_release = on_release,
    .reject = reject,
};
VARIANT("sctp.rwnd", sctp_rwnd_new_copy);
