/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * evict_never.c - an out-of-tree ipfrag.evictor for the EXTRA_MODELS test:
 * neither evicts nor drops, so fragment memory passes ipfrag_high_thresh
 * freely (only ipfrag_time frees it). Not a kernel rule.
 */
#include "models/ipfrag/frag.h"

static int never_enter(struct frag_ns *ns, struct frag_ctx *c)
{
    (void)ns;
    (void)c;
    return FRAG_OK;
}

const struct frag_evict_ops frag_evict_never = {
    .name = "never",
    .doc = "test variant: no eviction and no drop (tests/extra_models)",
    .uses_lru = false,
    .rhash = false,
    .on_enter = never_enter,
};
VARIANT("ipfrag.evictor", frag_evict_never);
