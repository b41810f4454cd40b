/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frag_evict.c - inet_frag_evictor as in Linux 3.7 (net/ipv4/
 * inet_fragment.c), the loop that the lru and lru-warm variants share;
 * they differ only in which queue they pick next (ipfrag.md 4 and 7).
 *
 *   work = mem - low_thresh               read once, from the shared counter
 *   while work > 0: take a victim, kill it, and if this CPU holds the last
 *   reference destroy it: each skb free lowers mem and work by its truesize,
 *   then the queue's 200 bytes
 *
 * Progressive frees (ipfrag.md 6): each skb leaves `mem` at T plus the
 * eviction cost up to its kfree_skb, not at T, so the other RX core can
 * still read mem > high and evict again. If the victim's last work item on
 * the other core has not finished yet, that core holds a reference: it
 * destroys the queue when its item ends, and this loop's `work` does not go
 * down, so it takes the next victim too.
 */
#include "models/ipfrag/frag.h"

struct fq *frag_pick_lru_head(struct frag_ns *ns, struct frag_ctx *c, bool *drop)
{
    (void)c;
    (void)drop;
    return ns->lru_head;
}

int frag_evictor(struct frag_ns *ns, struct frag_ctx *c, frag_pick_fn pick, bool *drop)
{
    int64_t work = frag_mem(ns, c->now) - (int64_t)ns->low;
    int evicted = 0;
    /* The frees are timed from T, the instant this fragment read `mem`
     * (ipfrag.md 6: T + the eviction cost up to each free). The core's clock
     * is already past T by the driver and stack work of this slice; timing
     * them from it would widen the window in which the other core still reads
     * the old `mem` by that much, which the kernel does not (both cores read
     * `mem` at the same point of their path). */
    simtime_t t0 = core_now(c->c);
    ns->evictor_calls++;
    while (work > 0) {
        bool d = false;
        struct fq *q = pick(ns, c, &d);
        if (d) {
            *drop = true;
            break;
        }
        if (!q)
            break;
        frag_cost(c, ns->sym_evq, ns->c_evq);
        uint32_t src = q->saddr;
        if (q->cls == FQ_NORMAL && ns->latest_id[src] == q->id) {
            ns->evict_active++;          /* its flow is still filling it */
        } else {
            ns->dead_evicted++;
            ns->dead_lifetime_us_sum += (uint64_t)time_to_us(c->now - q->created);
        }
        uint8_t pos = ns->evicted_pos[src];
        ns->evicted_id[src][pos] = (uint32_t)q->id + 1;
        ns->evicted_pos[src] = (uint8_t)((pos + 1) % FRAG_EVICTED_RING);
        frag_kill(ns, q);
        bool held = !ns->race_atomic && q->holder >= 0 && q->holder != c->c->id && q->busy_from <= c->now &&
                    q->busy_until > c->now;
        for (struct skb *s = q->frags, *nx; s; s = nx) {
            nx = s->next;
            s->next = NULL;
            if (!held) {
                /* frag_kfree_skb: atomic_sub(truesize, mem), then kfree_skb */
                frag_pend(ns, c->c->id, c->now + (core_now(c->c) - t0), s->truesize);
                frag_cost(c, ns->sym_free, ns->c_free + ns->c_free_cold * frag_p_cold(ns, c->now - s->tstamp));
                work -= s->truesize;
            }
            skb_free(s);
        }
        if (held) {
            frag_pend(ns, q->holder, q->busy_until, q->truesize + FRAG_QSIZE);
        } else {
            frag_pend(ns, c->c->id, c->now + (core_now(c->c) - t0), FRAG_QSIZE);
            work -= FRAG_QSIZE;
        }
        q->frags = NULL;
        frag_release(ns, q);
        evicted++;
        FRAG_MEM_OK(ns);   /* what left the table is pending, or already out of mem */
    }
    ns->evicted += (uint64_t)evicted;
    ns->fails += (uint64_t)evicted;
    return evicted;
}
