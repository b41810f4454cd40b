/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frag_costs.c - CPU cost rows of the reassembly path (ipfrag.md 9), added
 * over the host's CPU profile. A row's symbol is the kernel function the
 * work is booked under; rows with a ".suffix" are extra parameters booked
 * under the function before the dot (the cold-line extra of a chain step,
 * say), so each can be overridden with `cost.SYMBOL` on its own.
 *
 * `xeon-2012` (Sandy Bridge-EP, about 2.6 GHz, 3.7 kernel): the spec's
 * figures, which are estimates of that machine, not measurements; the two
 * values calibrated against seed 004 (C_contend on its 4M point, C_evq on
 * its 256K/4M ratio) are marked [cal]. `modern` is the spec's
 * cross-check machine (ipfrag.md 10.3): the same core with a 4.17+ kernel,
 * where the global rwlock is gone (C_contend 100 ns) and page recycling is
 * cheap (C_page 100 ns).
 */
#include <string.h>
#include "models/ipfrag/frag.h"
#include "sim/costs.h"

#define FRAG_ROWS(CONTEND, CONTEND_SRC, EVQ, EVQ_SRC)                                                          \
    { "ip_defrag", 250, false, "[spec] C_defrag: jhash, refcounts, peer rid atomic, pull/trim, tail insert" }, \
    { "ip_defrag.lock", CONTEND, false, CONTEND_SRC },                                                         \
    { "ip_defrag.ws", 25, false, "[spec] C_ws: slower slab/page/TLB paths as the footprint leaves the LLC, "   \
                                 "x (1 - exp(-mem / ipfrag.w_llc))" },                                         \
    { "inet_frag_lru_move", 50, false, "[spec] C_lru: list_move_tail under the write lock (LRU variants)" },   \
    { "inet_frag_find", 5, false, "[spec] C_step: one hlist step + key compare" },                             \
    { "inet_frag_find.cold", 10, false, "[spec] C_step_cold: extra when the ipq line left the LLC, "           \
                                        "x (1 - exp(-age / ipfrag.t_llc))" },                                  \
    { "inet_frag_create", 800, false, "[spec] C_create: kzalloc, inet_getpeer_v4, timer arm, insert" },        \
    { "ip_frag_reasm", 1500, false, "[spec] C_reasm: kill + glue" },                                           \
    { "ip_frag_reasm.per_frag", 50, false, "[spec] C_reasm_pf: per fragment glued" },                          \
    { "inet_frag_evictor", EVQ, false, EVQ_SRC },                                                              \
    { "kfree_skb", 120, false, "[spec] C_free: skb head + shinfo + page put, per evicted fragment" },          \
    { "kfree_skb.cold", 300, false, "[spec] C_free_cold: extra when the skb left the LLC" },                   \
    { "kfree_skb.policy_drop", 100, false, "[spec] C_drop: a fragment dropped by the evictor policy" },        \
    { "tick_sched_timer", 4000, false, "[spec] C_tick: timer tick, RCU, scheduler, once per 1 ms jiffy" }

static const struct cost_row xeon_2012[] = {
    FRAG_ROWS(389, "[cal] C_contend: global rwlock read + write, mem atomics, LRU head lines bouncing "
                   "between the two RX CPUs; spec estimate 420 ns gave 1551 Mbit/s at 4M, calibrated once "
                   "on the 4M point of seed 004 (2157 Mbit/s) to 389 ns, ipfrag.md 9 step 1 (redone after "
                   "the RX page fix in sim/nic.c, 385 ns, and after the 82599 EITR units, 389 ns)",
              4400, "[cal] C_evq: kill a victim (del_timer, hash/LRU unlink under the global rwlock, putpeer); "
                    "it is the two-CPU race window (ipfrag.md 6). The spec's estimate 700 ns gave a 256K/4M "
                    "ratio of 0.61; calibrated once on seed 004's 256K/4M ratio (0.22) to 4400 ns, ipfrag.md 9 "
                    "step 4 (3800 ns before the 82599 EITR units)"),
    { NULL, 0, false, NULL },
};

static const struct cost_row modern[] = {
    FRAG_ROWS(100, "[spec] ipfrag.md 10.3: no global rwlock, no LRU (4.17+)",
              700, "[spec] C_evq: kill a queue (the timer path only: 4.17+ has no evictor)"),
    { "ixgbe_alloc_rx_buffers", 100, false, "[spec] ipfrag.md 10.3: C_page on a current kernel" },
    { NULL, 0, false, NULL },
};

const struct cost_row *frag_costs(const char *profile)
{
    if (!strcmp(profile, "ideal"))
        return NULL;
    if (!strcmp(profile, "modern"))
        return modern;
    return xeon_2012;
}
