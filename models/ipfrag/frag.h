/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frag.h - IPv4 reassembly as Linux 3.7 does it (net/ipv4/ip_fragment.c,
 * net/ipv4/inet_fragment.c), with pluggable evictors (evict_*.c, one
 * file each; docs/cases/ipfrag.md has the case study).
 *
 * One `frag_ns` per receiving host (one network namespace): the hash of
 * queues (64 buckets, chains walked from the head), the LRU list, `mem`
 * (bytes: 200 per queue + truesize per fragment) and `nqueues` (inuse).
 * Each fragment is one work item on its RX core; everything it does is
 * decided when its slice starts (time T) and its CPU cost is charged on the
 * core's clock, so the two RX cores share this state in strict (start
 * time, sequence) order and runs are reproducible (ipfrag.md 6).
 *
 * Eviction is progressive: victims leave the hash and LRU at T, but their
 * bytes leave `mem` one skb at a time, at T plus the evicting core's cost up
 * to each free. Those pending decrements sit in a per-core FIFO and are applied
 * when anyone reads `mem` at a later time; meanwhile the other core can
 * still see mem > high and start its own eviction (the 3.7 race).
 */
#ifndef NETSIM_IPFRAG_FRAG_H
#define NETSIM_IPFRAG_FRAG_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/host.h"
#include "sim/invariant.h"
#include "sim/sim.h"
#include "sim/variant.h"

#define FRAG_QSIZE 200           /* sizeof(struct ipq) on 3.7 x86_64, charged per queue */
#define FRAG_MAX_BUCKETS 65536
#define FRAG_EVICTED_RING 8      /* victims remembered per source, to tell zombies from headless queues */

enum { FRAG_OK = 0, FRAG_DROP = 1 };
enum { FQ_LAST_IN = 1, FQ_FIRST_IN = 2, FQ_COMPLETE = 4 };   /* inet_frag.h */
/* Diagnostics only (ipfrag.md 5): a queue's class never changes behaviour. */
enum { FQ_NORMAL = 0, FQ_HEADLESS = 1, FQ_ZOMBIE = 2 };

struct frag_ns;

/* struct ipq: an inet_frag_queue with its IPv4 key. */
struct fq {
    struct fq *hnext, **hpprev;  /* hash chain (hlist): new queues at the head */
    struct fq *lru_prev, *lru_next;
    struct frag_ns *ns;
    uint32_t saddr, daddr;
    uint16_t id;
    uint8_t proto;
    uint8_t flags;               /* FQ_LAST_IN | FQ_FIRST_IN | FQ_COMPLETE */
    uint8_t cls;                 /* FQ_NORMAL, FQ_HEADLESS, FQ_ZOMBIE */
    int8_t creator;              /* core that created it: runs its timer */
    int8_t holder;               /* core of the last work item that touched it */
    uint32_t bucket;
    struct skb *frags, *frags_tail;   /* sorted by offset, linked by skb->next */
    uint32_t len;                /* end of the furthest fragment seen */
    uint32_t meat;               /* bytes received */
    uint32_t nfrags, truesize;   /* fragments held, sum of their truesize */
    uint32_t rid;                /* peer rid at the last fragment (ipfrag_max_dist) */
    struct timer timer;          /* ip_expire, armed at creation, never extended */
    simtime_t created, last_access;
    simtime_t busy_from, busy_until;   /* the holder's reference: from its ip_find to the end of its item */
    uint64_t created_jiffy;      /* lru-warm's creation_ts */
};

/* Context of one fragment's work item. */
struct frag_ctx {
    struct core *c;
    simtime_t now;               /* T: the slice start; every decision is made at T */
    uint64_t jiffy;              /* T in jiffies (HZ = 1000) */
    struct skb *skb;
};

/* An evictor: VARIANT("ipfrag.evictor", ops) (sim/variant.h). */
struct frag_evict_ops {
    const char *name;            /* required */
    const char *doc;             /* required */
    const struct variant_key *keys;                               /* optional: its own keys (sim/variant.h) */
    bool uses_lru;               /* LRU maintenance and its lock cost */
    bool rhash;                  /* per-netns rhashtable: about one entry per bucket */
    /* ip_defrag entry, before lookup: may evict (charging its cost) or
     * return FRAG_DROP; required */
    int (*on_enter)(struct frag_ns *ns, struct frag_ctx *c);
    /* lookup missed, a queue would be created: FRAG_OK or FRAG_DROP;
     * optional (NULL: always FRAG_OK) */
    int (*on_create)(struct frag_ns *ns, struct frag_ctx *c);
};

/* Pending `mem` decrements of one core's evictions, in time order. */
struct frag_pend {
    simtime_t t;
    uint32_t bytes;
};
struct frag_pendq {
    struct frag_pend *a;
    uint32_t head, len, cap;     /* ring buffer, grows by doubling */
};

struct frag_ns {
    struct host *h;
    struct sim *s;
    const struct frag_evict_ops *ops;
    /* sysctls (net.ipv4.ipfrag_*) and variant parameters */
    uint64_t high, low;
    simtime_t timeout, secret_interval;
    uint32_t max_dist;
    bool race_atomic;            /* race_model = atomic: mem drops at T */
    bool scope_all;              /* drop-new: every fragment (4.18) or new queues only (4.17) */
    bool taildrop_incoming;      /* lru-warm: drop_incoming instead of evict_tail */
    uint32_t warm_jiffies;
    double t_llc_ns, w_llc;      /* LLC residency of an untouched line; LLC size (bytes) */
    /* state */
    struct fq **hash;
    uint32_t nbuckets;
    uint32_t rnd;                /* jhash secret */
    struct fq *lru_head, *lru_tail;   /* head = least recently touched */
    int64_t mem;
    uint64_t nqueues;
    struct frag_pendq pend[HOST_MAX_CORES];
    simtime_t pend_due;          /* earliest pending decrement; 0 = look (the rings' heads) */
    /* per source host id (every host of the run), allocated at attach */
    uint32_t *peer_rid;                      /* inet_peer rid per source */
    uint16_t *latest_id;                     /* newest datagram seen per source (diagnostics) */
    uint32_t (*evicted_id)[FRAG_EVICTED_RING];   /* recent victims per source, id + 1 (zombies) */
    uint8_t *evicted_pos;
    uint64_t tick_jiffy[HOST_MAX_CORES];    /* last jiffy a tick was charged */
    double expire_debt[HOST_MAX_CORES];     /* ip_expire work owed by a core (ns) */
    struct timer rebuild;
    struct fq *pool;             /* free queues */
    void **slabs;
    uint32_t nslabs;
    struct rng rng;
    /* symbols and costs (ns), from the host's profile */
    int sym_defrag, sym_lock, sym_lru, sym_find, sym_create, sym_reasm, sym_evq, sym_free, sym_tick, sym_expire;
    double c_defrag, c_contend, c_lru, c_step, c_step_cold, c_create, c_reasm, c_reasm_pf, c_evq, c_free,
        c_free_cold, c_ws, c_drop, c_tick;
    /* MIB and diagnostics (ipfrag.md 5) */
    uint64_t reqds, oks, fails, timeouts, icmp_time_exceeded;
    uint64_t evictor_calls, evicted, evict_active, zombies, headless, policy_drops, dup_drops;
    uint64_t hit_walks, hit_steps, miss_walks, miss_steps;
    uint64_t dead_lifetime_us_sum, dead_evicted;   /* evicted non-active queues */
    uint64_t mem_peak, mem_avg, inuse_avg;
    double mem_sum, inuse_sum;
    uint64_t nsamples;
    uint64_t snap_mem[5], snap_inuse[5];
    simtime_t snap_at[5];
    int nsnap_done;
    struct event sampler, snapper;
    simtime_t sample_every, series_every, next_series;
};

/* frag_queue.c: ip_defrag, the hook sim/ip.c calls for every fragment. */
struct skb *frag_defrag(struct host *h, struct skb *skb, struct core *c);

/* frag_table.c: hash, LRU, mem, pool, life cycle. */
int64_t frag_mem(struct frag_ns *ns, simtime_t now);   /* applies pending decrements up to now */
/* What mem must equal: 200 bytes per queue in the table plus its
 * fragments' truesize, plus the pending decrements (walks the table). */
int64_t frag_mem_accounted(const struct frag_ns *ns);
/* A queue's own sums: its fragments' count, truesize and payload
 * (meat), sorted and disjoint, within its length (walks the queue). */
bool frag_queue_ok(const struct fq *q);
#define FRAG_MEM_OK(ns) INVARIANT_SUM((ns)->nqueues, (ns)->mem == frag_mem_accounted(ns))
struct fq *frag_alloc(struct frag_ns *ns);
void frag_hash_add(struct frag_ns *ns, struct fq *q);  /* hlist_add_head on q->bucket */
/* Walk chain b from its head to the skb's queue, charging each step (and
 * its cold-line extra) as inet_frag_find does; adds the entries touched to
 * *steps. NULL on a miss. */
struct fq *frag_chain_walk(struct frag_ns *ns, struct frag_ctx *c, uint32_t b, const struct skb *skb,
                           uint64_t *steps);
/* p(age): the chance a line untouched for `age` has left the LLC. */
double frag_p_cold(const struct frag_ns *ns, simtime_t age);
void frag_ns_init(struct frag_ns *ns);
void frag_ns_free(struct frag_ns *ns);
uint32_t frag_hashfn(const struct frag_ns *ns, uint16_t id, uint32_t saddr, uint32_t daddr, uint8_t proto);
struct fq *frag_lookup(struct frag_ns *ns, uint16_t id, uint32_t saddr, uint32_t daddr, uint8_t proto);
void frag_secret_rebuild(struct frag_ns *ns);
/* Kill a queue (inet_frag_kill): unlink from hash and LRU, stop its timer. */
void frag_kill(struct frag_ns *ns, struct fq *q);
void frag_lru_unlink(struct frag_ns *ns, struct fq *q);
void frag_lru_append(struct frag_ns *ns, struct fq *q);
/* Return a killed queue to the pool (its skbs already freed). */
void frag_release(struct frag_ns *ns, struct fq *q);
/* `bytes` leave mem at time t (core's FIFO; at once with race_model=atomic). */
void frag_pend(struct frag_ns *ns, int core, simtime_t t, uint32_t bytes);
static inline void frag_cost(struct frag_ctx *c, int sym, double ns)
{
    if (ns > 0)
        core_charge(c->c, sym, ns);
}

/* frag_evict.c: inet_frag_evictor (3.7), shared by lru and lru-warm.
 * `pick` chooses the next victim (NULL: stop; *drop set: drop the incoming
 * fragment). Returns the number of queues evicted. */
typedef struct fq *(*frag_pick_fn)(struct frag_ns *ns, struct frag_ctx *c, bool *drop);
int frag_evictor(struct frag_ns *ns, struct frag_ctx *c, frag_pick_fn pick, bool *drop);
struct fq *frag_pick_lru_head(struct frag_ns *ns, struct frag_ctx *c, bool *drop);

/* evictors.c: the variants, by name. */
/* The registered evictor of that name, or NULL (module.c). */
const struct frag_evict_ops *frag_evictor_find(const char *name);

/* frag_stats.c: sockstat samples, series and counters. */
void frag_stats_start(struct frag_ns *ns, struct cfg_section *sec);
void frag_stats_register(struct frag_ns *ns);

/* frag_costs.c */
const struct cost_row *frag_costs(const char *profile);

#endif
