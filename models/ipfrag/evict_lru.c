/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * evict_lru.c - `lru`: the Linux 3.7 evictor (net-next of Nov 2012, the
 * kernel of seed 004). On every fragment, ip_defrag tests mem > high_thresh
 * and runs inet_frag_evictor, which kills queues from the LRU head (least
 * recently touched) until it has freed mem - low_thresh. Every fragment
 * that does not complete its datagram moves its queue to the LRU tail.
 * Tunables: ipfrag_high_thresh (256K), ipfrag_low_thresh (192K).
 */
#include "models/ipfrag/frag.h"

static int lru_enter(struct frag_ns *ns, struct frag_ctx *c)
{
    bool drop = false;
    if (frag_mem(ns, c->now) > (int64_t)ns->high)
        frag_evictor(ns, c, frag_pick_lru_head, &drop);
    return FRAG_OK;
}

const struct frag_evict_ops frag_evict_lru = {
    .name = "lru",
    .doc = "Linux 3.7: evict from the LRU head down to low_thresh when mem > high_thresh",
    .uses_lru = true,
    .on_enter = lru_enter,
};
VARIANT("ipfrag.evictor", frag_evict_lru);
