/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netem.c - the netem qdisc: draws, the time-ordered queue (tfifo) and the
 * watchdog that hands packets to the device when they are due (see
 * netem.h for the order of the steps, taken from sch_netem.c).
 *
 * The tfifo is what Linux's is: a FIFO for the packets whose time_to_send
 * is not earlier than the last one appended (with a constant delay, all
 * of them: O(1) each; see netem.h for how it keeps its times), and for the others a binary heap keyed by
 * (time_to_send, arrival number), where netem has an rb-tree, so equal
 * times leave in arrival order as tfifo_enqueue's "after equal" rule has
 * them. The next packet is the earlier of the two heads, the FIFO's on a
 * tie (netem_peek). The heap grows by doubling and never past `limit`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/invariant.h"
#include "sim/netem.h"
#include "sim/offload.h"
#include "sim/qdisc.h"
#include "sim/xalloc.h"

static void netem_watchdog(struct event *ev);

void netem_init(struct netem *n, const struct netem_opts *o, struct evq *q, struct rng *rng,
                netem_xmit_fn xmit, void *dev)
{
    memset(n, 0, sizeof *n);
    n->on = true;
    n->o = *o;
    n->q = q;
    n->rng = rng;
    n->xmit = xmit;
    n->dev = dev;
    skbq_init(&n->front);
    event_init(&n->watchdog, netem_watchdog, n);
}

void netem_free(struct netem *n)
{
    if (!n->on)
        return;
    evq_cancel(n->q, &n->watchdog);
    for (uint32_t i = 0; i < n->hlen; i++)
        skb_free(n->heap[i].skb);
    free(n->heap);
    for (struct skb *s = n->fhead, *nx; s; s = nx) {
        nx = s->next;
        s->next = NULL;
        skb_free(s);
    }
    skbq_purge(&n->front);
    if (n->requeued)
        skb_free(n->requeued);
    memset(n, 0, sizeof *n);
}

/* ---- draws ---- */

/* loss_gilb_ell: the transition draw, then the loss draw with the
 * probability of the state the packet found (the case it entered by). */
bool netem_lose(struct netem *n)
{
    const struct netem_opts *o = &n->o;
    switch (o->loss) {
    case NETEM_LOSS_RANDOM:
        return rng_uniform(n->rng) < o->p;
    case NETEM_LOSS_GEMODEL:
        if (!n->bad) {
            if (rng_uniform(n->rng) < o->p)
                n->bad = true;
            return rng_uniform(n->rng) < o->loss_good;
        }
        if (rng_uniform(n->rng) < o->r)
            n->bad = false;
        return rng_uniform(n->rng) < o->loss_bad;
    default:
        return false;
    }
}

/* tabledist: latency plus a jitter draw; uniform in [-jitter, +jitter),
 * or normal with sigma = jitter, cut at 4 sigma where iproute2's
 * normal.dist table ends (its entries are s16 in units of sigma / 8192).
 * May be negative: such a packet is due at once. */
simtime_t netem_delay_draw(struct netem *n)
{
    const struct netem_opts *o = &n->o;
    if (!o->jitter)
        return o->latency;
    double j = (double)o->jitter, d;
    if (o->dist == NETEM_NORMAL) {
        d = rng_gaussian(n->rng, j);
        if (d > 4 * j)
            d = 4 * j;
        else if (d < -4 * j)
            d = -4 * j;
    } else {
        d = (2.0 * rng_uniform(n->rng) - 1.0) * j;
    }
    return o->latency + (simtime_t)d;
}

/* packet_time_ns: the frame (without FCS, as qdisc_pkt_len sees it) plus
 * the overhead, rounded up to whole cells if asked, at netem's rate. */
static simtime_t rate_time(const struct netem_opts *o, const struct skb *skb)
{
    int64_t len = (int64_t)skb->ip_len + 14 + o->packet_overhead;
    if (len < 0)
        len = 0;
    if (o->cell_size) {
        int64_t cells = (len + o->cell_size - 1) / o->cell_size;
        len = cells * ((int64_t)o->cell_size + o->cell_overhead);
        if (len < 0)
            len = 0;
    }
    return time_serialise((uint64_t)len, o->rate);
}

/* ---- the tfifo heap ---- */

static bool slot_before(const struct netem_slot *a, const struct netem_slot *b)
{
    return a->tts < b->tts || (a->tts == b->tts && a->seq < b->seq);
}

static void heap_push(struct netem *n, struct skb *skb, simtime_t tts)
{
    if (n->hlen == n->hcap) {
        uint32_t cap = n->hcap ? n->hcap * 2 : 64;
        struct netem_slot *h = xrealloc(n->heap, (size_t)cap * sizeof *h);
        n->heap = h;
        n->hcap = cap;
    }
    struct netem_slot s = { tts, n->seq++, skb };
    uint32_t i = n->hlen++;
    while (i > 0) {
        uint32_t up = (i - 1) / 2;
        if (!slot_before(&s, &n->heap[up]))
            break;
        n->heap[i] = n->heap[up];
        i = up;
    }
    n->heap[i] = s;
}

static struct skb *heap_pop(struct netem *n)
{
    struct skb *top = n->heap[0].skb;
    struct netem_slot last = n->heap[--n->hlen];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n->hlen)
            break;
        if (c + 1 < n->hlen && slot_before(&n->heap[c + 1], &n->heap[c]))
            c++;
        if (!slot_before(&n->heap[c], &last))
            break;
        n->heap[i] = n->heap[c];
        i = c;
    }
    if (n->hlen)
        n->heap[i] = last;
    return top;
}

/* ---- the tfifo list ---- */

static void fifo_push(struct netem *n, struct skb *skb, simtime_t tts)
{
    skb->next = skb->prev = NULL;
    if (n->ftail) {
        n->ftail->t_due = tts;   /* the tail was queued a packet ago: in cache */
        n->ftail->next = skb;
    } else {
        n->fhead = skb;
        n->fhead_tts = tts;
    }
    n->ftail = skb;
    n->ftail_tts = tts;
    /* with NETEM_AHEAD or more queued, the one queued that many pushes
     * ago is still in the list: it is told where this one is */
    if (n->flen >= NETEM_AHEAD)
        n->frecent[n->frecent_i]->prev = skb;
    n->frecent[n->frecent_i] = skb;
    n->frecent_i = (n->frecent_i + 1) % NETEM_AHEAD;
    n->flen++;
}

static struct skb *fifo_pop(struct netem *n)
{
    struct skb *skb = n->fhead;
    simtime_t own = n->fhead_tts;
    n->fhead = skb->next;
    if (n->fhead)
        n->fhead_tts = skb->t_due;
    else
        n->ftail = NULL;
    if (skb->prev) {
        /* the packet NETEM_AHEAD behind waited out the delay too, far from
         * the cache: it is fetched now, a few packets before it is due */
        const char *p = (const char *)skb->prev;
        __builtin_prefetch(p, 1);
        __builtin_prefetch(p + 64, 1);
        __builtin_prefetch(p + 128, 1);
    }
    n->flen--;
    skb->next = skb->prev = NULL;
    skb->t_due = own;
    return skb;
}

static simtime_t fifo_head_tts(const struct netem *n)
{
    return n->flen ? n->fhead_tts : SIMTIME_NEVER;
}

/* ---- dequeue ---- */

/* The earliest time_to_send held in the tfifo, or SIMTIME_NEVER. */
static simtime_t next_tts(const struct netem *n)
{
    simtime_t a = fifo_head_tts(n);
    simtime_t b = n->hlen ? n->heap[0].tts : SIMTIME_NEVER;
    return a < b ? a : b;
}

/* The packet to go next if it is due at t, else NULL: one the device
 * refused, then the reordered ones, then the tfifo's head. Each held
 * packet has its time_to_send in t_due once it is out (netem.h). */
static struct skb *next_due(struct netem *n, simtime_t t)
{
    if (n->requeued) {
        struct skb *s = n->requeued;
        n->requeued = NULL;
        return s;
    }
    if (n->front.head)
        return skbq_pop(&n->front);
    simtime_t next = next_tts(n);
    if (next > t)
        return NULL;
    if (n->flen && n->fhead_tts == next)
        return fifo_pop(n);
    return heap_pop(n);
}

/* qlen counts every packet the qdisc holds: in the time-ordered heap, the
 * tfifo list, the reordered front, and the one the device refused. */
static bool qlen_ok(const struct netem *n)
{
    return n->qlen == n->hlen + n->flen + n->front.len + (n->requeued ? 1u : 0u);
}

/* Whether dequeue(n, now, ...) would do nothing: no refused packet waits,
 * only the tfifo holds packets, its head is due neither by now nor before
 * the queue's clock, and the watchdog is already set for the head, where
 * dequeue would set it. A packet queued behind a waiting head, the usual
 * case under a delay, then costs no dequeue pass. */
static bool run_is_noop(const struct netem *n, simtime_t now)
{
    return !n->requeued && !n->hlen && !n->front.head && n->flen &&
           n->fhead_tts > now && n->fhead_tts >= n->q->now &&
           event_pending(&n->watchdog) && n->watchdog.time == n->fhead_tts;
}

/* qdisc_run: hand every packet due by t to the device until it stops,
 * each at its own time_to_send but never before `floor` (when the caller
 * could first act: the watchdog's instant, the enqueuing slice's start,
 * the device's restart) nor before the packet handed before it; then arm
 * the watchdog for the next one. Handing an overdue packet at its own
 * time, not at the caller's clock, is what the watchdog would have done
 * had the enqueuing slice not run ahead of it. */
static void dequeue(struct netem *n, simtime_t t, simtime_t floor)
{
    struct skb *skb;
    while ((skb = next_due(n, t))) {
        simtime_t at = skb->t_due > floor ? skb->t_due : floor;
        uint32_t seq = skb->netem_seq;   /* the device owns the skb once it takes it */
        uint32_t len = qdisc_pkt_len(skb);
        if (n->xmit(n->dev, skb, at) < 0) {
            n->requeued = skb;
            evq_cancel(n->q, &n->watchdog);   /* netem_wake restarts */
            return;
        }
        floor = at;
        INVARIANT(n->qlen > 0 && n->backlog >= len);
        n->qlen--;
        n->backlog -= len;
        INVARIANT(qlen_ok(n));
        if ((int32_t)(seq - n->max_out) < 0)
            n->out_of_order++;
        else
            n->max_out = seq;
    }
    simtime_t next = next_tts(n);
    if (next == SIMTIME_NEVER) {
        evq_cancel(n->q, &n->watchdog);
        return;
    }
    simtime_t at = next > n->q->now ? next : n->q->now;
    if (!event_pending(&n->watchdog) || n->watchdog.time != at)
        evq_move(n->q, &n->watchdog, at);
}

/* Every pass goes through the test; inline, so that it costs the usual
 * enqueue no call. */
static inline void netem_run(struct netem *n, simtime_t t, simtime_t floor)
{
    if (!run_is_noop(n, t))
        dequeue(n, t, floor);
}

static void netem_watchdog(struct event *ev)
{
    struct netem *n = ev->ctx;
    netem_run(n, n->q->now, n->q->now);
}

void netem_wake(struct netem *n, simtime_t now)
{
    if (n->on && n->qlen)
        netem_run(n, now, now);
}

/* ---- enqueue ---- */

static struct skb *duplicate_of(const struct skb *skb)
{
    struct skb *d = skb_alloc_copy(skb);
    d->next = d->prev = NULL;
    d->sk = NULL;                /* skb_clone: the copy is not charged to the socket */
    d->destructor = NULL;
    d->rx_page = NULL;           /* a forwarded frame's RX buffer stays with the original */
    d->frag_list = NULL;
    return d;
}

static int enqueue_one(struct netem *n, struct skb *skb, simtime_t now, bool is_dup);

/* The other segments of a GSO packet netem cut (netem_segment's
 * finish_segs: each goes through netem_enqueue again) */
static void enqueue_rest(struct netem *n, struct skb *rest, simtime_t now)
{
    for (struct skb *nx; rest; rest = nx) {
        nx = rest->next;
        rest->next = NULL;
        enqueue_one(n, rest, now, false);
    }
}

static int enqueue_one(struct netem *n, struct skb *skb, simtime_t now, bool is_dup)
{
    const struct netem_opts *o = &n->o;
    int count = 1;
    if (o->duplicate > 0 && !is_dup && !skb->frag_list && rng_uniform(n->rng) < o->duplicate)
        count++;
    if (o->loss != NETEM_LOSS_NONE && netem_lose(n)) {
        if (o->ecn && skb_ecn_set_ce(skb))
            n->ecn_marked++;
        else
            count--;
    }
    if (!count) {
        n->lost++;
        skb_free(skb);
        return 0;                /* NET_XMIT_SUCCESS | __NET_XMIT_BYPASS */
    }
    if (o->latency || o->jitter || o->rate) {
        if (skb->destructor)     /* skb_orphan_partial */
            skb->destructor(skb);
        skb->destructor = NULL;
        skb->sk = NULL;
    }
    struct skb *dup = count > 1 ? duplicate_of(skb) : NULL;
    struct skb *rest = NULL;
    if (o->corrupt > 0 && rng_uniform(n->rng) < o->corrupt) {
        if (skb_gso_segs(skb) > 1) {
            /* netem_segment: the bit flips in one segment; the others are
             * queued after it, each drawing its own fate */
            skb = skb_gso_segment(skb, true);
            rest = skb->next;
            skb->next = NULL;
        }
        skb->corrupt = true;
        n->corrupted++;
    }
    if (n->qlen >= o->limit) {
        n->dropped++;
        skb_free(skb);
        if (dup)
            skb_free(dup);
        for (struct skb *nx; rest; rest = nx) {
            nx = rest->next;
            skb_free(rest);
        }
        return -1;
    }
    if (dup) {
        n->duplicated++;
        enqueue_one(n, dup, now, true);
    }
    n->qlen++;
    n->backlog += qdisc_pkt_len(skb);
    skb->netem_seq = n->next_seq++;   /* after its duplicate's: the order they are queued in */
    if (o->reorder > 0 && rng_uniform(n->rng) < o->reorder) {
        n->reordered++;
        skb->t_due = now;
        skbq_push_head(&n->front, skb);   /* __qdisc_enqueue_head: the newest goes first */
        INVARIANT(qlen_ok(n));
        enqueue_rest(n, rest, now);
        return 0;
    }
    simtime_t tts = now + netem_delay_draw(n);
    if (o->rate) {
        if (n->qlen > 1 && n->last_tts > tts)
            tts = n->last_tts;
        tts = time_add(tts < 0 ? 0 : tts, rate_time(o, skb));
    }
    if (tts < 0)
        tts = 0;
    if (n->qlen == 1 || tts > n->last_tts)
        n->last_tts = tts;
    skb->t_due = tts;
    if (!n->flen || tts >= n->ftail_tts)
        fifo_push(n, skb, tts);
    else
        heap_push(n, skb, tts);
    INVARIANT(qlen_ok(n) && n->flen <= n->qlen);
    enqueue_rest(n, rest, now);
    return 0;
}

int netem_enqueue(struct netem *n, struct skb *skb, simtime_t now)
{
    int rc = enqueue_one(n, skb, now, false);
    /* Hand over what is due by now, unless a refused packet waits for the
     * device to restart. */
    if (!n->requeued)
        netem_run(n, now, n->q->now);
    return rc;
}

void netem_opts_init(struct netem_opts *o)
{
    memset(o, 0, sizeof *o);
    o->limit = NETEM_DEFAULT_LIMIT;
}

double netem_loss_rate(const struct netem_opts *o)
{
    switch (o->loss) {
    case NETEM_LOSS_RANDOM:
        return o->p;
    case NETEM_LOSS_GEMODEL: {
        if (o->p + o->r <= 0)
            return o->loss_good;
        double pi_bad = o->p / (o->p + o->r);
        return pi_bad * o->loss_bad + (1 - pi_bad) * o->loss_good;
    }
    default:
        return 0;
    }
}
