/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frag_queue.c - one fragment's way through IPv4 reassembly, Linux 3.7
 * (net/ipv4/ip_fragment.c): ip_defrag, ip_find / inet_frag_create,
 * ip_frag_queue with its overlap rules, ip_frag_too_far, ip_frag_reasm and
 * ip_expire (ipfrag.md 4 and 6). The evictor is the variant's (on_enter).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "models/ipfrag/frag.h"

/* ip_expire: the queue's 30 s timer. It runs in timer softirq on the core
 * that created the queue; the work (kill + frees) is owed by that core and
 * charged at its next reassembly work item, so a core busy with NAPI pays
 * for it the way the timer softirq would steal it. */
static void fq_expire(struct event *ev)
{
    struct fq *q = ev->ctx;
    struct frag_ns *ns = q->ns;
    frag_mem(ns, ns->s->q.now);
    frag_kill(ns, q);
    ns->timeouts++;
    ns->fails++;
    if (q->flags & FQ_FIRST_IN)
        ns->icmp_time_exceeded++;   /* ICMP time exceeded (reassembly): counted, not sent */
    ns->expire_debt[q->creator] += ns->c_evq + ns->c_free * q->nfrags;
    for (struct skb *s = q->frags, *nx; s; s = nx) {
        nx = s->next;
        s->next = NULL;
        skb_free(s);
    }
    ns->mem -= q->truesize + FRAG_QSIZE;
    FRAG_MEM_OK(ns);
    frag_release(ns, q);
}

/* ---- create ---- */

static struct fq *fq_create(struct frag_ns *ns, struct frag_ctx *c, uint32_t b)
{
    struct skb *skb = c->skb;
    struct fq *q = frag_alloc(ns);
    q->ns = ns;
    q->saddr = skb->saddr;
    q->daddr = skb->daddr;
    q->id = skb->ip_id;
    q->proto = skb->proto;
    q->bucket = b;
    q->created = q->last_access = c->now;
    q->created_jiffy = c->jiffy;
    q->creator = (int8_t)c->c->id;
    q->holder = -1;
    timer_init(&q->timer, &ns->s->q, fq_expire, q);
    ns->mem += FRAG_QSIZE;
    frag_cost(c, ns->sym_create, ns->c_create);
    /* inet_frag_intern re-walks the chain under the write lock: another CPU
     * may have created the queue meanwhile (never in the DES: work items
     * are atomic, but the walk is paid) */
    uint64_t steps = 0;
    frag_chain_walk(ns, c, b, skb, &steps);
    ns->miss_steps += steps;
    timer_mod(&q->timer, c->now + ns->timeout);
    frag_hash_add(ns, q);
    if (ns->ops->uses_lru)
        frag_lru_append(ns, q);
    ns->nqueues++;
    FRAG_MEM_OK(ns);
    uint32_t src = skb->saddr;
    if (skb->frag_off) {
        /* the first fragment was lost or killed with its queue */
        bool killed = false;
        for (int i = 0; i < FRAG_EVICTED_RING; i++)
            killed |= ns->evicted_id[src][i] == (uint32_t)skb->ip_id + 1;
        if (killed) {
            q->cls = FQ_ZOMBIE;
            ns->zombies++;
        } else {
            q->cls = FQ_HEADLESS;
            ns->headless++;
        }
    }
    ns->latest_id[src] = skb->ip_id;
    return q;
}

/* ---- queue a fragment ---- */

static uint32_t frag_len(const struct skb *s) { return (uint32_t)(s->cb[1] - s->cb[0]); }

static void fq_free_skb(struct frag_ns *ns, struct fq *q, struct skb *s)
{
    INVARIANT(ns->mem >= s->truesize && q->truesize >= s->truesize && q->nfrags > 0);
    ns->mem -= s->truesize;
    q->truesize -= s->truesize;
    q->nfrags--;
    s->next = NULL;
    skb_free(s);
}

/* ip_frag_reinit: ip_frag_too_far decided this queue is stale; drop its
 * fragments and start over, timer re-armed. */
static void fq_reinit(struct frag_ns *ns, struct fq *q, struct frag_ctx *c)
{
    for (struct skb *s = q->frags, *nx; s; s = nx) {
        nx = s->next;
        fq_free_skb(ns, q, s);
    }
    q->frags = q->frags_tail = NULL;
    q->flags = 0;
    q->len = q->meat = 0;
    timer_mod(&q->timer, c->now + ns->timeout);
}

/* ip_frag_reasm: glue the fragments behind the first one. The queue's
 * fragments leave `mem` at once; its 200 bytes go when the last reference
 * drops, which here is the same instant. The datagram takes the receive
 * time of the fragment that completed it (head->tstamp = qp->q.stamp). */
static struct skb *fq_reasm(struct frag_ns *ns, struct fq *q, simtime_t stamp, struct frag_ctx *c)
{
    frag_kill(ns, q);
    frag_cost(c, ns->sym_reasm, ns->c_reasm + ns->c_reasm_pf * q->nfrags);
    struct skb *head = q->frags;
    INVARIANT(frag_queue_ok(q) && q->meat == q->len);
    ns->mem -= q->truesize + FRAG_QSIZE;
    FRAG_MEM_OK(ns);
    if (IPV4_HDR_LEN + q->len > 65535) {
        ns->fails++;             /* "Oversized IP packet" */
        for (struct skb *s = head, *nx; s; s = nx) {
            nx = s->next;
            s->next = NULL;
            skb_free(s);
        }
        frag_release(ns, q);
        return NULL;
    }
    head->frag_list = head->next;
    head->next = NULL;
    for (struct skb *f = head->frag_list; f; f = f->next)
        head->corrupt |= f->corrupt;   /* the datagram's checksum covers every piece */
    head->truesize = q->truesize;
    head->ip_len = IPV4_HDR_LEN + q->len;
    head->payload = q->len - (head->proto == IPPROTO_UDP_ ? UDP_HDR_LEN : 0);
    head->frag_off = 0;
    head->more_frags = false;
    head->tstamp = stamp;
    /* is_frag stays set: the datagram came in pieces, so its UDP checksum
     * was not offloaded (CHECKSUM_NONE); udp_recvmsg checksums on copy */
    head->is_frag = true;
    ns->oks++;
    frag_release(ns, q);
    return head;
}

static void drop(struct frag_ns *ns, struct skb *skb)
{
    ns->dup_drops++;
    skb_free(skb);
}

/* ip_frag_queue. Returns the whole datagram when this fragment completes
 * it, else NULL. */
static struct skb *fq_queue(struct frag_ns *ns, struct fq *q, struct frag_ctx *c)
{
    struct skb *skb = c->skb;
    /* ip_frag_too_far: more than max_dist fragments from this source
     * reached reassembly since this queue's last one */
    if (ns->max_dist) {
        uint32_t src = skb->saddr;
        uint32_t start = q->rid, end = ++ns->peer_rid[src];
        q->rid = end;
        if (q->frags && end - start > ns->max_dist) {
            ns->fails++;
            fq_reinit(ns, q, c);
        }
    }
    uint32_t off = skb->frag_off;
    uint32_t end = off + skb->ip_len - IPV4_HDR_LEN;
    if (!skb->more_frags) {
        if (end < q->len || ((q->flags & FQ_LAST_IN) && end != q->len)) {
            drop(ns, skb);
            return NULL;
        }
        q->flags |= FQ_LAST_IN;
        q->len = end;
    } else {
        end &= ~7u;
        if (end > q->len) {
            if (q->flags & FQ_LAST_IN) {
                drop(ns, skb);
                return NULL;
            }
            q->len = end;
        }
    }
    if (end == off) {
        drop(ns, skb);
        return NULL;
    }
    /* position: in-order append is the fast path; else a linear scan */
    struct skb *prev = NULL, *next = NULL;
    if (!q->frags_tail || q->frags_tail->cb[0] < off) {
        prev = q->frags_tail;
    } else {
        for (next = q->frags; next && next->cb[0] < off; next = next->next)
            prev = next;
    }
    if (prev && prev->cb[1] > off) {
        off = (uint32_t)prev->cb[1];    /* overlap: trim this fragment's head */
        if (end <= off) {
            drop(ns, skb);
            return NULL;
        }
    }
    /* 3.7 keeps the new data: later fragments it covers are trimmed or freed */
    while (next && next->cb[0] < end) {
        uint32_t i = end - (uint32_t)next->cb[0];
        if (i < frag_len(next)) {
            next->cb[0] += i;
            q->meat -= i;
            break;
        }
        struct skb *free_me = next;
        next = next->next;
        if (prev)
            prev->next = next;
        else
            q->frags = next;
        if (q->frags_tail == free_me)
            q->frags_tail = prev;
        q->meat -= frag_len(free_me);
        fq_free_skb(ns, q, free_me);
    }
    skb->cb[0] = off;
    skb->cb[1] = end;
    skb->next = next;
    if (prev)
        prev->next = skb;
    else
        q->frags = skb;
    if (!next)
        q->frags_tail = skb;
    q->meat += end - off;
    q->nfrags++;
    q->truesize += skb->truesize;
    ns->mem += skb->truesize;
    INVARIANT_SUM(q->nfrags, frag_queue_ok(q));
    FRAG_MEM_OK(ns);
    if (off == 0)
        q->flags |= FQ_FIRST_IN;
    if ((q->flags & (FQ_FIRST_IN | FQ_LAST_IN)) == (FQ_FIRST_IN | FQ_LAST_IN) && q->meat == q->len)
        return fq_reasm(ns, q, skb->tstamp, c);
    if (ns->ops->uses_lru) {
        /* list_move_tail under the write lock, for every non-completing fragment */
        frag_lru_unlink(ns, q);
        frag_lru_append(ns, q);
        frag_cost(c, ns->sym_lru, ns->c_lru);
    }
    q->holder = (int8_t)c->c->id;
    return NULL;
}

/* ---- ip_defrag ---- */

extern int frag_module_slot;

struct skb *frag_defrag(struct host *h, struct skb *skb, struct core *c)
{
    struct frag_ns *ns = h->mod[frag_module_slot];
    if (skb->family != NET_IPV4) {
        h->ip_frag_no_reasm++;   /* IPv6 reassembly is not modelled */
        skb_free(skb);
        return NULL;
    }
    if (!ns->peer_rid) {
        /* per source, for every host of the run: taken by the first
         * fragment, as most hosts of a large topology never get one */
        size_t npeers = (size_t)h->sim->nhosts;
        ns->peer_rid = xcalloc(npeers, sizeof *ns->peer_rid);
        ns->latest_id = xcalloc(npeers, sizeof *ns->latest_id);
        ns->evicted_id = xcalloc(npeers, sizeof *ns->evicted_id);
        ns->evicted_pos = xcalloc(npeers, sizeof *ns->evicted_pos);
    }
    struct frag_ctx ctx = { .c = c, .now = c->q->now, .skb = skb };
    ctx.jiffy = (uint64_t)(ctx.now / PS_PER_MS);
    if (!ns->reqds)
        frag_stats_register(ns);
    frag_mem(ns, ctx.now);
    /* the 1 ms tick (timer, RCU, scheduler) steals time from a busy core:
     * charged once per jiffy in which the core works, outside J and f_cpu */
    if (ns->tick_jiffy[c->id] != ctx.jiffy + 1) {
        ns->tick_jiffy[c->id] = ctx.jiffy + 1;
        if (ns->c_tick > 0)
            core_charge_fixed(c, ns->sym_tick, ns->c_tick);
    }
    if (ns->expire_debt[c->id] > 0) {
        frag_cost(&ctx, ns->sym_expire, ns->expire_debt[c->id]);
        ns->expire_debt[c->id] = 0;
    }
    ns->reqds++;
    if (ns->ops->on_enter(ns, &ctx) == FRAG_DROP) {
        frag_cost(&ctx, ns->sym_free, ns->c_drop);
        ns->policy_drops++;
        ns->fails++;
        skb_free(skb);
        return NULL;
    }
    int64_t mem = frag_mem(ns, ctx.now);
    simtime_t ref_from = core_now(c);            /* ip_find takes its reference here */
    /* zero under cpu = ideal: no exp() for a cost that is not charged */
    double ws = ns->c_ws > 0 ? ns->c_ws * (1.0 - exp(-(double)(mem > 0 ? mem : 0) / ns->w_llc)) : 0.0;
    frag_cost(&ctx, ns->sym_defrag, ns->c_defrag + ws);
    frag_cost(&ctx, ns->sym_lock, ns->c_contend);
    uint32_t b = frag_hashfn(ns, skb->ip_id, skb->saddr, skb->daddr, skb->proto);
    uint64_t steps = 0;
    struct fq *q = frag_chain_walk(ns, &ctx, b, skb, &steps);
    if (q) {
        ns->hit_walks++;
        ns->hit_steps += steps;
    } else {
        ns->miss_walks++;
        ns->miss_steps += steps;
        if (ns->ops->on_create && ns->ops->on_create(ns, &ctx) == FRAG_DROP) {
            frag_cost(&ctx, ns->sym_free, ns->c_drop);
            ns->policy_drops++;
            ns->fails++;
            skb_free(skb);
            return NULL;
        }
        q = fq_create(ns, &ctx, b);
    }
    struct skb *whole = fq_queue(ns, q, &ctx);
    if (!whole && !(q->flags & FQ_COMPLETE)) {
        q->busy_from = ref_from;
        q->busy_until = core_now(c);
    }
    return whole;
}
