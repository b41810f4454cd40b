/*
 * event.c - binary-heap event queue and kernel-style timers (see event.h).
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
    free(q->heap);
    q->heap = NULL;
    q->len = q->cap = 0;
}

static inline bool entry_less(const struct evq_entry *a, const struct evq_entry *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static inline void place(struct evq *q, uint32_t i, struct evq_entry e)
{
    q->heap[i] = e;
    e.ev->slot = i + 1;
}

static void sift_up(struct evq *q, uint32_t i, struct evq_entry e)
{
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (!entry_less(&e, &q->heap[parent]))
            break;
        place(q, i, q->heap[parent]);
        i = parent;
    }
    place(q, i, e);
}

static void sift_down(struct evq *q, uint32_t i, struct evq_entry e)
{
    uint32_t n = q->len;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && entry_less(&q->heap[c + 1], &q->heap[c]))
            c++;
        if (!entry_less(&q->heap[c], &e))
            break;
        place(q, i, q->heap[c]);
        i = c;
    }
    place(q, i, e);
}

void evq_push(struct evq *q, struct event *ev, simtime_t t)
{
    q->heap_ops++;
    assert(!ev->slot);
    assert(t >= q->now);
    if (q->len == q->cap) {
        q->cap *= 2;
        q->heap = xrealloc(q->heap, sizeof *q->heap * q->cap);
    }
    ev->time = t;
    ev->seq = q->seq++;
    struct evq_entry e = { t, ev->seq, ev };
    sift_up(q, q->len++, e);
}

/* An entry whose event moved later (evq_move) takes its event's key when
 * it reaches the top: then nothing with an earlier key is left to run. */
static void settle(struct evq *q)
{
    while (q->len) {
        struct evq_entry e = q->heap[0];
        if (e.time == e.ev->time && e.seq == e.ev->seq)
            return;
        e.time = e.ev->time;
        e.seq = e.ev->seq;
        q->heap_ops++;
        sift_down(q, 0, e);
    }
}

simtime_t evq_next_time(struct evq *q)
{
    settle(q);
    return q->len ? q->heap[0].time : SIMTIME_NEVER;
}

/* Remove the entry at heap index i and restore the heap property. */
static void remove_at(struct evq *q, uint32_t i)
{
    q->heap[i].ev->slot = 0;
    struct evq_entry last = q->heap[--q->len];
    if (i == q->len)
        return;
    if (i > 0 && entry_less(&last, &q->heap[(i - 1) / 2]))
        sift_up(q, i, last);
    else
        sift_down(q, i, last);
}

void evq_cancel(struct evq *q, struct event *ev)
{
    if (ev->slot && q->heap) {
        q->heap_ops++;
        remove_at(q, ev->slot - 1);
    }
}

void evq_move(struct evq *q, struct event *ev, simtime_t t)
{
    if (ev->slot && q->heap && t >= q->heap[ev->slot - 1].time) {
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

struct event *evq_pop(struct evq *q)
{
    settle(q);
    return q->len ? pop_top(q) : NULL;
}

void evq_run(struct evq *q, simtime_t until)
{
    evq_current = q;
    q->until = until;
    while (!q->stop && (settle(q), q->len) && q->heap[0].time <= until) {
        struct event *ev = pop_top(q);     /* the condition settled it */
        q->executed++;
        ev->fn(ev);
    }
    q->until = -1;
}

bool evq_continue(struct evq *q, simtime_t t)
{
    settle(q);
    if (q->stop || t > q->until || (q->len && q->heap[0].time <= t))
        return false;
    q->now = t;
    q->executed++;
    return true;
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
