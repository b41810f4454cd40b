/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * module.c - the ipfrag family: IPv4 reassembly on every host (the kernel
 * always has it), with the evictor chosen by `ipfrag.evictor`. Reads the
 * host's ipfrag keys and installs the defrag hook that sim/ip.c calls.
 *
 * Host keys (defaults are the 3.7 sysctl defaults, ipfrag.md 2):
 *   ipfrag_high_thresh 256K, ipfrag_low_thresh 192K, ipfrag_time 30s,
 *   ipfrag_secret_interval 600s, ipfrag_max_dist 64,
 *   ipfrag.evictor (lru; evict_*.c register the variants, sim/variant.h),
 *   ipfrag.race_model progressive | atomic (ablation: mem drops at T),
 *   ipfrag.taildrop_mode evict_tail | drop_incoming, ipfrag.warm_jiffies 1 (lru-warm),
 *   ipfrag.scope all | new (drop-new),
 *   ipfrag.hash_buckets 64 (INETFRAGS_HASHSZ; 65536 for drop-new's rhashtable),
 *   ipfrag.t_llc 8ms, ipfrag.w_llc 20M (LLC residency and size, ipfrag.md 9),
 *   ipfrag.sample_interval 1ms, ipfrag.series_interval 10ms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/ipfrag/frag.h"
#include "sim/config.h"
#include "sim/costs.h"
#include "sim/xalloc.h"

int frag_module_slot = -1;

static void attach(struct sim *s, struct host *h, int slot)
{
    struct cfg_section *sec = h->sec;
    frag_module_slot = slot;
    struct frag_ns *ns = xcalloc(1, sizeof *ns);
    ns->h = h;
    ns->s = s;
    ns->ops = variant_choose(sec, "ipfrag.evictor");
    ns->high = cfg_size(sec, "ipfrag_high_thresh", "256K", 0, 1ULL << 40,
            "fragment memory above which the evictor runs (net.ipv4.ipfrag_high_thresh; Linux 3.7 default 256K)");
    ns->low = cfg_size(sec, "ipfrag_low_thresh", "192K", 0, 1ULL << 40,
            "fragment memory the evictor brings it down to (net.ipv4.ipfrag_low_thresh; Linux 3.7 default 192K)");
    ns->timeout = cfg_time(sec, "ipfrag_time", "30s", PS_PER_MS, 1000000 * PS_PER_S,
                           "lifetime of an incomplete reassembly queue (net.ipv4.ipfrag_time; Linux default 30s)");
    ns->secret_interval = cfg_time(sec, "ipfrag_secret_interval", "600s", PS_PER_MS, 1000000 * PS_PER_S,
            "period of the hash secret rebuild (net.ipv4.ipfrag_secret_interval; Linux 3.7 default 600s)");
    ns->max_dist = (uint32_t)cfg_int(sec, "ipfrag_max_dist", "64", 0, INT32_MAX,
            "fragments from a source, between two of a queue, that make it too far (ip_frag_too_far); "
            "0 = off (default 64)");
    static const char *const races[] = { "progressive", "atomic", NULL };
    ns->race_atomic = cfg_choice(sec, "ipfrag.race_model", "progressive", races,
            "progressive: memory freed by a queue being destroyed drops as its work proceeds; "
            "atomic: at once (ablation)") == 1;
    static const char *const modes[] = { "evict_tail", "drop_incoming", NULL };
    ns->taildrop_incoming = cfg_choice(sec, "ipfrag.taildrop_mode", "evict_tail", modes,
            "lru-warm's reading of \"tail drop\" when the LRU head is warm: evict the tail, "
            "or drop the incoming fragment") == 1;
    ns->warm_jiffies = (uint32_t)cfg_int(sec, "ipfrag.warm_jiffies", "1", 0, 1000000,
            "lru-warm: a queue created less than this many jiffies ago is warm (1: the same jiffy)");
    static const char *const scopes[] = { "all", "new", NULL };
    ns->scope_all = cfg_choice(sec, "ipfrag.scope", "all", scopes,
            "drop-new: the memory limit drops every fragment (all, as 4.18) or only those that would create "
            "a queue (new, 4.17)") == 0;
    /* read whatever the evictor, so that they are valid keys everywhere;
     * set for another evictor they change nothing, and the file says so */
    const char *ev = ns->ops->name;
    if (strcmp(ev, "drop-new"))
        cfg_inert(sec, "ipfrag.scope", "ipfrag.evictor", "ipfrag.scope is drop-new's; this host's ipfrag.evictor "
                  "is %s", ev);
    if (strcmp(ev, "lru-warm")) {
        cfg_inert(sec, "ipfrag.taildrop_mode", "ipfrag.evictor", "ipfrag.taildrop_mode is lru-warm's; this host's "
                  "ipfrag.evictor is %s", ev);
        cfg_inert(sec, "ipfrag.warm_jiffies", "ipfrag.evictor", "ipfrag.warm_jiffies is lru-warm's; this host's "
                  "ipfrag.evictor is %s", ev);
    }
    ns->nbuckets = (uint32_t)cfg_int(sec, "ipfrag.hash_buckets", ns->ops->rhash ? "65536" : "64", 1, FRAG_MAX_BUCKETS,
                                     "{|1 to 65536, a power of two} buckets of the fragment hash table "
                                     "(INETFRAGS_HASHSZ 64; drop-new's rhashtable: 65536)");
    if (ns->nbuckets & (ns->nbuckets - 1)) {
        cfg_error(sec, "ipfrag.hash_buckets", "got %u, expected a power of two", ns->nbuckets);
        ns->nbuckets = 64;
    }
    ns->t_llc_ns = time_to_ns(cfg_time(sec, "ipfrag.t_llc", "8ms", PS_PER_NS, 1000 * PS_PER_S,
            "time an untouched queue's cache lines stay in the last-level cache (the cost model's residency)"));
    ns->w_llc = (double)cfg_size(sec, "ipfrag.w_llc", "20M", 1, 1ULL << 40,
                                 "last-level cache size the cost model fills with fragment memory");

    ns->sym_defrag = cpu_sym("ip_defrag");
    ns->sym_lock = cpu_sym("ip_defrag.lock");
    ns->sym_lru = cpu_sym("inet_frag_lru_move");
    ns->sym_find = cpu_sym("inet_frag_find");
    ns->sym_create = cpu_sym("inet_frag_create");
    ns->sym_reasm = cpu_sym("ip_frag_reasm");
    ns->sym_evq = cpu_sym("inet_frag_evictor");
    ns->sym_free = cpu_sym("kfree_skb");
    ns->sym_tick = cpu_sym("tick_sched_timer");
    ns->sym_expire = cpu_sym("ip_expire");
    ns->c_defrag = h->cost[ns->sym_defrag];
    ns->c_contend = h->cost[ns->sym_lock];
    ns->c_ws = h->cost[cpu_sym("ip_defrag.ws")];
    ns->c_lru = h->cost[ns->sym_lru];
    ns->c_step = h->cost[ns->sym_find];
    ns->c_step_cold = h->cost[cpu_sym("inet_frag_find.cold")];
    ns->c_create = h->cost[ns->sym_create];
    ns->c_reasm = h->cost[ns->sym_reasm];
    ns->c_reasm_pf = h->cost[cpu_sym("ip_frag_reasm.per_frag")];
    ns->c_evq = h->cost[ns->sym_evq];
    ns->c_free = h->cost[ns->sym_free];
    ns->c_free_cold = h->cost[cpu_sym("kfree_skb.cold")];
    ns->c_drop = h->cost[cpu_sym("kfree_skb.policy_drop")];
    ns->c_tick = h->cost[ns->sym_tick];

    h->mod[slot] = ns;
    h->defrag = frag_defrag;
    frag_ns_init(ns);
    frag_stats_start(ns, sec);
}

static void detach(struct sim *s, struct host *h, int slot)
{
    (void)s;
    struct frag_ns *ns = h->mod[slot];
    if (!ns)
        return;
    frag_ns_free(ns);
    free(ns);
    h->mod[slot] = NULL;
}

const struct frag_evict_ops *frag_evictor_find(const char *name)
{
    return variant_find("ipfrag.evictor", name);
}

static const char *evictor_missing(const void *ops)
{
    return ((const struct frag_evict_ops *)ops)->on_enter ? NULL : "on_enter";
}

static const struct variant_family evictor_family = {
    .key = "ipfrag.evictor", .def = "lru", .missing = evictor_missing,
    .doc = "[host] what IPv4 reassembly does when fragment memory passes ipfrag_high_thresh",
};
static const struct variant_family *const families[] = { &evictor_family, NULL };

const struct model_module ipfrag_module = {
    .name = "ipfrag",
    .attach_host = attach,
    .detach_host = detach,
    .costs = frag_costs,
    .families = families,
};
