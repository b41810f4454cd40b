/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * evict_drop_new.c - `drop-new`: mainline since 4.17 (Eric Dumazet,
 * 648700f76b03 "inet: frags: use rhashtables for reassembly units") and
 * 4.18 (56e2c94f055d "inet: frag: enforce memory limits earlier"). There is
 * no LRU and no evictor: a queue leaves memory only by completing or by its
 * ipfrag_time timer. low_thresh is ignored.
 *   ipfrag.scope = all  (4.18+, default) inet_frag_find returns NULL before
 *                       any lookup while high_thresh == 0 or mem > high:
 *                       every fragment is dropped
 *                = new  (4.17) only the creation of a queue is refused;
 *                       existing queues keep accepting, so mem can overshoot
 * The per-netns rhashtable keeps about one entry per bucket, modelled by a
 * large bucket count (ipfrag.hash_buckets defaults to 65536 here).
 */
#include "models/ipfrag/frag.h"

static bool over(struct frag_ns *ns, struct frag_ctx *c)
{
    return !ns->high || frag_mem(ns, c->now) > (int64_t)ns->high;
}

static int dn_enter(struct frag_ns *ns, struct frag_ctx *c)
{
    return ns->scope_all && over(ns, c) ? FRAG_DROP : FRAG_OK;
}

static int dn_create(struct frag_ns *ns, struct frag_ctx *c)
{
    return !ns->scope_all && over(ns, c) ? FRAG_DROP : FRAG_OK;
}

const struct frag_evict_ops frag_evict_drop_new = {
    .name = "drop-new",
    .doc = "4.17+: no eviction; fragments dropped while mem > high_thresh (ipfrag.scope = all | new)",
    .uses_lru = false,
    .rhash = true,
    .on_enter = dn_enter,
    .on_create = dn_create,
};
VARIANT("ipfrag.evictor", frag_evict_drop_new);
