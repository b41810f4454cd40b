/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frag_table.c - the shared state of IPv4 reassembly in Linux 3.7
 * (net/ipv4/inet_fragment.c): the hash of queues and its secret rebuild,
 * the LRU list, `mem` with the pending decrements of progressive frees,
 * inet_frag_kill, and the queue pool.
 *
 * The hash is an array of hlist heads; chains are walked from the head and
 * a new queue goes at the head, so the queue a flow is filling is found in
 * a step or two while a miss walks the whole chain, twice (find, then the
 * re-walk under the write lock in inet_frag_intern). The walk is O(chain)
 * on purpose: its cost at 400M (73 entries per chain) is part of the result.
 * Queues come from a slab pool, so nothing is allocated per fragment.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/arith.h"
#include "models/ipfrag/frag.h"
#include "sim/xalloc.h"

#define FQ_SLAB 256

/* ---- mem and its pending decrements ---- */

void frag_pend(struct frag_ns *ns, int core, simtime_t t, uint32_t bytes)
{
    if (ns->race_atomic) {
        ns->mem -= bytes;        /* ablation: the counter drops at T */
        return;
    }
    struct frag_pendq *p = &ns->pend[core];
    if (p->len == p->cap) {
        uint32_t cap = p->cap ? 2 * p->cap : 512;
        struct frag_pend *a = xmalloc(sizeof *a * cap);
        for (uint32_t i = 0; i < p->len; i++)
            a[i] = p->a[(p->head + i) % p->cap];
        free(p->a);
        p->a = a;
        p->cap = cap;
        p->head = 0;
    }
    p->a[(p->head + p->len) & (p->cap - 1)] = (struct frag_pend){ t, bytes };
    p->len++;
    if (t < ns->pend_due)
        ns->pend_due = t;
}

/* Called several times per fragment: nothing to do until the earliest
 * pending decrement is due. Each core's ring is in time order, so the
 * earliest is the least of their heads. */
int64_t frag_mem(struct frag_ns *ns, simtime_t now)
{
    if (now < ns->pend_due)
        return ns->mem;
    simtime_t due = SIMTIME_NEVER;
    for (int k = 0; k < ns->h->ncores; k++) {
        struct frag_pendq *p = &ns->pend[k];
        while (p->len && p->a[p->head].t <= now) {
            ns->mem -= p->a[p->head].bytes;
            p->head = (p->head + 1) & (p->cap - 1);
            p->len--;
        }
        if (p->len && p->a[p->head].t < due)
            due = p->a[p->head].t;
    }
    ns->pend_due = due;
    return ns->mem;
}

/* ---- queue pool ---- */

struct fq *frag_alloc(struct frag_ns *ns)
{
    if (!ns->pool) {
        struct fq *slab = xcalloc(FQ_SLAB, sizeof *slab);
        void **sl = xrealloc(ns->slabs, sizeof *sl * (ns->nslabs + 1));
        ns->slabs = sl;
        ns->slabs[ns->nslabs++] = slab;
        for (int i = FQ_SLAB - 1; i >= 0; i--) {
            slab[i].hnext = ns->pool;
            ns->pool = &slab[i];
        }
    }
    struct fq *q = ns->pool;
    ns->pool = q->hnext;
    memset(q, 0, sizeof *q);
    return q;
}

void frag_release(struct frag_ns *ns, struct fq *q)
{
    q->hnext = ns->pool;
    ns->pool = q;
}

/* ---- hash and LRU ---- */

/* ipqhashfn: jhash_3words(id << 16 | protocol, saddr, daddr, rnd). Any
 * good 32-bit mix with a secret will do (ipfrag.md 3); the modulus and the
 * secret are what matter. */
ARITH_WRAPS uint32_t frag_hashfn(const struct frag_ns *ns, uint16_t id, uint32_t saddr, uint32_t daddr, uint8_t proto)
{
    uint64_t x = ((uint64_t)((uint32_t)id << 16 | proto) << 32 | saddr) ^ ((uint64_t)daddr << 17) ^
                 ((uint64_t)ns->rnd * 0x9e3779b97f4a7c15ULL);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return (uint32_t)x & (ns->nbuckets - 1);
}

void frag_hash_add(struct frag_ns *ns, struct fq *q)
{
    struct fq **head = &ns->hash[q->bucket];
    q->hnext = *head;
    if (*head)
        (*head)->hpprev = &q->hnext;
    *head = q;
    q->hpprev = head;
}

static void hash_unlink(struct fq *q)
{
    *q->hpprev = q->hnext;
    if (q->hnext)
        q->hnext->hpprev = q->hpprev;
    q->hnext = NULL;
    q->hpprev = NULL;
}

void frag_lru_append(struct frag_ns *ns, struct fq *q)
{
    q->lru_next = NULL;
    q->lru_prev = ns->lru_tail;
    if (ns->lru_tail)
        ns->lru_tail->lru_next = q;
    else
        ns->lru_head = q;
    ns->lru_tail = q;
}

void frag_lru_unlink(struct frag_ns *ns, struct fq *q)
{
    if (q->lru_prev)
        q->lru_prev->lru_next = q->lru_next;
    else if (ns->lru_head == q)
        ns->lru_head = q->lru_next;
    if (q->lru_next)
        q->lru_next->lru_prev = q->lru_prev;
    else if (ns->lru_tail == q)
        ns->lru_tail = q->lru_prev;
    q->lru_prev = q->lru_next = NULL;
}

static bool fq_match(const struct fq *q, uint16_t id, uint32_t saddr, uint32_t daddr, uint8_t proto)
{
    return q->id == id && q->saddr == saddr && q->daddr == daddr && q->proto == proto;
}

struct fq *frag_lookup(struct frag_ns *ns, uint16_t id, uint32_t saddr, uint32_t daddr, uint8_t proto)
{
    for (struct fq *q = ns->hash[frag_hashfn(ns, id, saddr, daddr, proto)]; q; q = q->hnext)
        if (fq_match(q, id, saddr, daddr, proto))
            return q;
    return NULL;
}

/* p(age): the chance a line untouched for `age` has left the LLC. */
double frag_p_cold(const struct frag_ns *ns, simtime_t age)
{
    return age <= 0 ? 0.0 : 1.0 - exp(-time_to_ns(age) / ns->t_llc_ns);
}

/* Walk a chain from its head to the first match, charging one step per
 * entry touched (plus the cold-line extra), as inet_frag_find does. */
struct fq *frag_chain_walk(struct frag_ns *ns, struct frag_ctx *c, uint32_t b, const struct skb *skb,
                           uint64_t *steps)
{
    double cost = 0;
    struct fq *found = NULL;
    uint64_t n = 0;
    for (struct fq *q = ns->hash[b]; q; q = q->hnext) {
        n++;
        cost += ns->c_step + (ns->c_step_cold > 0 ? ns->c_step_cold * frag_p_cold(ns, c->now - q->last_access) : 0.0);
        q->last_access = c->now;
        if (fq_match(q, skb->ip_id, skb->saddr, skb->daddr, skb->proto)) {
            found = q;
            break;
        }
    }
    /* drop-new's rhashtable is the same walk over 65536 buckets, about
     * one entry each */
    *steps += n;
    frag_cost(c, ns->sym_find, cost);
    return found;
}

/* ---- kill ---- */

void frag_kill(struct frag_ns *ns, struct fq *q)
{
    if (q->flags & FQ_COMPLETE)
        return;
    q->flags |= FQ_COMPLETE;
    timer_del(&q->timer);
    hash_unlink(q);
    if (ns->ops->uses_lru)
        frag_lru_unlink(ns, q);
    ns->nqueues--;
}

/* inet_frag_secret_rebuild: a new secret every ipfrag_secret_interval,
 * every queue relinked under the write lock. O(nqueues); never fires in a
 * 20 s run, and its few hundred microseconds are not charged. */
static void secret_fire(struct event *ev)
{
    struct frag_ns *ns = ev->ctx;
    frag_secret_rebuild(ns);
    timer_mod(&ns->rebuild, ns->s->q.now + ns->secret_interval);
}

void frag_secret_rebuild(struct frag_ns *ns)
{
    ns->rnd = (uint32_t)rng_u32(&ns->rng);
    struct fq *all = NULL;
    for (uint32_t b = 0; b < ns->nbuckets; b++) {
        while (ns->hash[b]) {
            struct fq *q = ns->hash[b];
            hash_unlink(q);
            q->hpprev = (struct fq **)all;   /* temporary singly linked list */
            all = q;
        }
    }
    /* relink in the reverse order of removal so each chain keeps its
     * newest-first order where the new secret keeps queues together */
    while (all) {
        struct fq *q = all;
        all = (struct fq *)q->hpprev;
        q->bucket = frag_hashfn(ns, q->id, q->saddr, q->daddr, q->proto);
        frag_hash_add(ns, q);
    }
}

/* ---- life cycle ---- */

void frag_ns_init(struct frag_ns *ns)
{
    ns->hash = xcalloc(ns->nbuckets, sizeof *ns->hash);
    char name[96];
    snprintf(name, sizeof name, "ipfrag.%s", ns->h->name);
    rng_init(&ns->rng, ns->s->seed, name);
    ns->rnd = (uint32_t)rng_u32(&ns->rng);
    timer_init(&ns->rebuild, &ns->s->q, secret_fire, ns);
    timer_mod(&ns->rebuild, ns->secret_interval);
}

/* mem is 200 bytes per queue in the table plus its fragments' truesize,
 * plus what evictions took out of the table but have not yet taken out of
 * mem (the pending decrements of each core). */
int64_t frag_mem_accounted(const struct frag_ns *ns)
{
    int64_t sum = 0;
    for (uint32_t b = 0; b < ns->nbuckets; b++)
        for (const struct fq *q = ns->hash[b]; q; q = q->hnext)
            sum += (int64_t)q->truesize + FRAG_QSIZE;
    for (int k = 0; k < HOST_MAX_CORES; k++) {
        const struct frag_pendq *p = &ns->pend[k];
        for (uint32_t i = 0; i < p->len; i++)
            sum += p->a[(p->head + i) % p->cap].bytes;
    }
    return sum;
}

bool frag_queue_ok(const struct fq *q)
{
    uint32_t n = 0, meat = 0, end = 0;
    uint64_t truesize = 0;
    const struct skb *last = NULL;
    for (const struct skb *s = q->frags; s; last = s, s = s->next) {
        if (s->cb[0] >= s->cb[1] || s->cb[0] < end)
            return false;
        end = s->cb[1];
        n++;
        meat += s->cb[1] - s->cb[0];
        truesize += s->truesize;
    }
    return n == q->nfrags && truesize == q->truesize && meat == q->meat && last == q->frags_tail &&
           (!(q->flags & FQ_LAST_IN) || end <= q->len);
}

void frag_ns_free(struct frag_ns *ns)
{
    assert(ns->mem == frag_mem_accounted(ns));
    /* the event queue is gone by now: no timer is touched */
    for (uint32_t b = 0; b < ns->nbuckets; b++)
        for (struct fq *q = ns->hash[b]; q; q = q->hnext)
            for (struct skb *s = q->frags, *nx; s; s = nx) {
                nx = s->next;
                s->next = NULL;
                skb_free(s);
            }
    free(ns->hash);
    for (uint32_t i = 0; i < ns->nslabs; i++)
        free(ns->slabs[i]);
    free(ns->slabs);
    for (int k = 0; k < HOST_MAX_CORES; k++)
        free(ns->pend[k].a);
    free(ns->peer_rid);
    free(ns->latest_id);
    free(ns->evicted_id);
    free(ns->evicted_pos);
    rng_free(&ns->rng);
}
