/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * event.c - binary-heap event queue and kernel-style timers (see event.h).
 *
 * Events pushed for the instant that is running go to a FIFO ring beside
 * the heap instead of into it. The order stays (time, seq): each of them
 * has a larger sequence number than any heap entry due at the same
 * instant (those were pushed before the clock reached it, or moved to it
 * lazily from an earlier instant), so the heap's entries at `now` run
 * first, then the FIFO in push order, and the clock only advances once
 * the FIFO is empty. With cpu = ideal nearly every push is such a push: a
 * core re-queueing itself, a frame handed on at the instant it was made.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include "sim/event.h"
#include "sim/xalloc.h"

struct evq *evq_current;
simtime_t *ctx_clock;

void evq_init(struct evq *q)
{
    q->len = 0;
    q->cap = 1024;
    q->heap = xmalloc(sizeof *q->heap * q->cap);
    q->fifo_cap = 256;
    q->fifo = xmalloc(sizeof *q->fifo * q->fifo_cap);
    q->fifo_head = q->fifo_len = q->fifo_live = 0;
    q->fifo_ops = 0;
    q->seq = 0;
    q->now = 0;
    q->heap_ops = 0;
    q->until = -1;
    q->executed = 0;
    q->stop = false;
    evq_current = q;
}

void evq_free(struct evq *q)
{
    for (uint32_t i = 0; i < q->len; i++)
        q->heap[i].ev->slot = 0;
    for (uint32_t i = 0; i < q->fifo_len; i++) {
        struct event *ev = q->fifo[(q->fifo_head + i) & (q->fifo_cap - 1)];
        if (ev)
            ev->slot = 0;
    }
    free(q->heap);
    free(q->fifo);
    q->fifo = NULL;
    q->fifo_len = q->fifo_live = 0;
    q->heap = NULL;
    q->len = q->cap = 0;
}

/* Entries move field by field and keys travel as scalars: a 24-byte
 * entry built or passed on the stack and read back whole stalls on store
 * forwarding, which cost evq_push most of its time. */
static inline bool key_less(simtime_t ta, uint64_t sa, simtime_t tb, uint64_t sb)
{
    return ta < tb || (ta == tb && sa < sb);
}

static inline bool entry_less(const struct evq_entry *a, const struct evq_entry *b)
{
    return key_less(a->time, a->seq, b->time, b->seq);
}

static inline void place(struct evq *q, uint32_t i, simtime_t t, uint64_t seq, struct event *ev)
{
    struct evq_entry *d = &q->heap[i];
    d->time = t;
    d->seq = seq;
    d->ev = ev;
    ev->slot = i + 1;
}

static inline void move_entry(struct evq *q, uint32_t to, uint32_t from)
{
    const struct evq_entry *s = &q->heap[from];
    place(q, to, s->time, s->seq, s->ev);
}

static void sift_up(struct evq *q, uint32_t i, simtime_t t, uint64_t seq, struct event *ev)
{
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        const struct evq_entry *p = &q->heap[parent];
        if (!key_less(t, seq, p->time, p->seq))
            break;
        move_entry(q, i, parent);
        i = parent;
    }
    place(q, i, t, seq, ev);
}

static void sift_down(struct evq *q, uint32_t i, simtime_t t, uint64_t seq, struct event *ev)
{
    uint32_t n = q->len;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && entry_less(&q->heap[c + 1], &q->heap[c]))
            c++;
        const struct evq_entry *k = &q->heap[c];
        if (!key_less(k->time, k->seq, t, seq))
            break;
        move_entry(q, i, c);
        i = c;
    }
    place(q, i, t, seq, ev);
}

/* The ring doubles when full; positions change, so the slots follow. */
static void fifo_grow(struct evq *q)
{
    uint32_t cap = q->fifo_cap * 2;
    struct event **f = xmalloc(sizeof *f * cap);
    for (uint32_t i = 0; i < q->fifo_len; i++) {
        f[i] = q->fifo[(q->fifo_head + i) & (q->fifo_cap - 1)];
        if (f[i])
            f[i]->slot = EVQ_IN_FIFO | i;
    }
    free(q->fifo);
    q->fifo = f;
    q->fifo_cap = cap;
    q->fifo_head = 0;
}

static void fifo_push(struct evq *q, struct event *ev)
{
    q->fifo_ops++;
    if (q->fifo_len == q->fifo_cap)
        fifo_grow(q);
    uint32_t pos = (q->fifo_head + q->fifo_len++) & (q->fifo_cap - 1);
    q->fifo[pos] = ev;
    ev->slot = EVQ_IN_FIFO | pos;
    q->fifo_live++;
}

/* The first live FIFO event, off the ring; cancelled ones left holes. */
static struct event *fifo_pop(struct evq *q)
{
    for (;;) {
        struct event *ev = q->fifo[q->fifo_head];
        q->fifo_head = (q->fifo_head + 1) & (q->fifo_cap - 1);
        q->fifo_len--;
        if (ev) {
            q->fifo_ops++;
            q->fifo_live--;
            ev->slot = 0;
            if (!q->fifo_live) {
                q->fifo_head = 0;
                q->fifo_len = 0;
            }
            return ev;
        }
    }
}

void evq_push(struct evq *q, struct event *ev, simtime_t t)
{
    assert(!ev->slot);
    assert(t >= q->now);
    if (t == q->now) {
        ev->time = t;
        ev->seq = q->seq++;
        fifo_push(q, ev);
        return;
    }
    q->heap_ops++;
    if (q->len == q->cap) {
        q->cap *= 2;
        q->heap = xrealloc(q->heap, sizeof *q->heap * q->cap);
    }
    uint64_t seq = q->seq++;
    ev->time = t;
    ev->seq = seq;
    sift_up(q, q->len++, t, seq, ev);
}

/* An entry whose event moved later (evq_move) takes its event's key when
 * it reaches the top: then nothing with an earlier key is left to run. */
static void settle(struct evq *q)
{
    while (q->len) {
        struct event *ev = q->heap[0].ev;
        if (q->heap[0].time == ev->time && q->heap[0].seq == ev->seq)
            return;
        q->heap_ops++;
        sift_down(q, 0, ev->time, ev->seq, ev);
    }
}

simtime_t evq_next_time(struct evq *q)
{
    if (q->fifo_live)
        return q->now;
    settle(q);
    return q->len ? q->heap[0].time : SIMTIME_NEVER;
}

/* Remove the entry at heap index i and restore the heap property. */
static void remove_at(struct evq *q, uint32_t i)
{
    q->heap[i].ev->slot = 0;
    const struct evq_entry *last = &q->heap[--q->len];
    if (i == q->len)
        return;
    simtime_t t = last->time;
    uint64_t seq = last->seq;
    struct event *ev = last->ev;
    if (i > 0 && key_less(t, seq, q->heap[(i - 1) / 2].time, q->heap[(i - 1) / 2].seq))
        sift_up(q, i, t, seq, ev);
    else
        sift_down(q, i, t, seq, ev);
}

void evq_cancel(struct evq *q, struct event *ev)
{
    if (ev->slot & EVQ_IN_FIFO) {
        q->fifo_ops++;
        q->fifo[ev->slot & ~EVQ_IN_FIFO] = NULL;
        ev->slot = 0;
        if (!--q->fifo_live)
            q->fifo_head = q->fifo_len = 0;
        return;
    }
    if (ev->slot && q->heap) {
        q->heap_ops++;
        remove_at(q, ev->slot - 1);
    }
}

void evq_move(struct evq *q, struct event *ev, simtime_t t)
{
    /* a move to the running instant is eager: it belongs in the FIFO */
    if (ev->slot && !(ev->slot & EVQ_IN_FIFO) && q->heap && t > q->now && t >= q->heap[ev->slot - 1].time) {
        assert(t >= q->now);
        ev->time = t;            /* lazy: settle() re-keys the entry */
        ev->seq = q->seq++;
        return;
    }
    evq_cancel(q, ev);
    evq_push(q, ev, t);
}

/* The top entry, already settled, off the heap. */
static struct event *pop_top(struct evq *q)
{
    struct event *ev = q->heap[0].ev;
    q->now = q->heap[0].time;
    q->heap_ops++;
    remove_at(q, 0);
    return ev;
}

/* The next event due no later than `until`, off its queue: heap entries
 * of the running instant, then the FIFO, then the heap's next instant. */
static struct event *take(struct evq *q, simtime_t until)
{
    settle(q);
    if (q->now <= until) {
        if (q->len && q->heap[0].time == q->now)
            return pop_top(q);
        if (q->fifo_live)
            return fifo_pop(q);
    }
    if (q->len && q->heap[0].time <= until)
        return pop_top(q);
    return NULL;
}

struct event *evq_pop(struct evq *q)
{
    return take(q, SIMTIME_NEVER);
}

void evq_run(struct evq *q, simtime_t until)
{
    evq_current = q;
    q->until = until;
    struct event *ev;
    while (!q->stop && (ev = take(q, until))) {
        q->executed++;
        ev->fn(ev);
    }
    q->until = -1;
}

#ifdef NETSIM_EVQ_HOOK
void (*evq_continue_hook)(struct evq *q);
#endif

/* Settling only moves entries later, so it is needed only when the top is
 * not already after t (evq_continue, event.h). */
bool evq_settled_after(struct evq *q, simtime_t t)
{
    settle(q);
    return !q->len || q->heap[0].time > t;
}

void timer_init(struct timer *t, struct evq *q, event_fn fn, void *ctx)
{
    event_init(&t->ev, fn, ctx);
    t->q = q;
    t->requeues = t->arms = 0;
}

int timer_mod(struct timer *t, simtime_t expires)
{
    if (event_pending(&t->ev)) {
        if (t->ev.time == expires)
            return 1;
        evq_move(t->q, &t->ev, expires);
        t->requeues++;
        return 1;
    }
    evq_push(t->q, &t->ev, expires);
    t->arms++;
    return 0;
}

int timer_del(struct timer *t)
{
    if (!event_pending(&t->ev))
        return 0;
    evq_cancel(t->q, &t->ev);
    return 1;
}
