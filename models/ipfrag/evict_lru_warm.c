/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * evict_lru_warm.c - `lru-warm`: Jesper Dangaard Brouer's "[net-next PATCH
 * V3-evictor] net: frag evictor, avoid killing warm frag queues" (netdev,
 * 29 Nov - 4 Dec 2012; never merged), on top of the 3.7 evictor.
 *
 * A queue records the jiffy it was created in (creation_ts). When the LRU
 * head is "warm" (created less than ipfrag.warm_jiffies ago, default 1:
 * the same jiffy), it is not evicted; the patch says "perform tail drop on
 * the LRU list instead", which reads two ways (ipfrag.md 7.2):
 *   ipfrag.taildrop_mode = evict_tail    evict the LRU tail in its place and
 *                                        go on (default)
 *                        = drop_incoming stop evicting and drop the arriving
 *                                        fragment (ReasmFails)
 */
#include "models/ipfrag/frag.h"

static struct fq *pick_warm(struct frag_ns *ns, struct frag_ctx *c, bool *drop)
{
    struct fq *head = ns->lru_head;
    if (!head || c->jiffy - head->created_jiffy >= ns->warm_jiffies)
        return head;
    if (ns->taildrop_incoming) {
        *drop = true;
        return NULL;
    }
    return ns->lru_tail;
}

static int warm_enter(struct frag_ns *ns, struct frag_ctx *c)
{
    bool drop = false;
    if (frag_mem(ns, c->now) > (int64_t)ns->high)
        frag_evictor(ns, c, pick_warm, &drop);
    return drop ? FRAG_DROP : FRAG_OK;
}

const struct frag_evict_ops frag_evict_lru_warm = {
    .name = "lru-warm",
    .doc = "Brouer's V3 patch (Dec 2012, not merged): a warm LRU head (created this jiffy) is spared; "
           "evict the tail or drop the fragment (ipfrag.taildrop_mode)",
    .uses_lru = true,
    .on_enter = warm_enter,
};
VARIANT("ipfrag.evictor", frag_evict_lru_warm);
