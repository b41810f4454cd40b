/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * event.h - the discrete-event core: one queue per run, intrusive events,
 * kernel-style timers.
 *
 * An event is embedded in the object that owns it and carries a callback;
 * scheduling never allocates (the heap array grows by doubling, so after
 * warm-up it stays put). Events run in (time, insertion sequence) order,
 * so equal-time events run in a fixed order and runs are reproducible.
 *
 * The queue is a binary heap of (time, seq, event*) entries: the keys live
 * in the array, so a sift touches one cache line per level instead of
 * chasing event pointers. Each event remembers its heap slot, which makes
 * cancel and re-arm O(log n). A calendar queue would be O(1) but its
 * bucket width has to be tuned per scenario; the heap stays small here
 * (one event per busy core, link and timer), so log n is a few steps.
 *
 * What a packet costs the heap is cut in other ways, all keeping the order
 * exact: a timer moved later is moved lazily (evq_move); a core whose next
 * slice is the next event anyway, or a link whose next frame arrives
 * before anything else is due, goes on without a round trip through the
 * heap (evq_continue); an event pushed for the running instant goes to a
 * FIFO beside the heap, O(1) each way (event.c). On the w1 benchmark (one
 * TCP flow at 10 Gbit/s) heap operations per link frame went from 4.77 to
 * 2.78 with the first two, to 0.89 with the link's and the FIFO, and to
 * 0.23 once TCP left its delayed-ACK timer queued as the kernel does; on
 * w3 (fragmented 64 KB UDP) from 2.21 to 0.13. Events still count as run
 * one per arrival and slice: 2.05 and 2.08 per frame.
 *
 * Tried and not kept, by measurement: a second heap for the far timers
 * (at 1000 flows the near one holds a few entries, the far 3000; 1 %
 * fewer instructions, no gain in time), bottom-up sifting (more
 * instructions: the entries a pop sifts are not always the latest), and a
 * 4-ary heap (bench_evq's hold model, 100 to 10 000 pending: 6 to 28 %
 * fewer operations per second than the binary one; half the levels, but
 * each pop compares four children where the binary heap compares two).
 */
#ifndef NETSIM_EVENT_H
#define NETSIM_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sim/time.h"

struct event;
typedef void (*event_fn)(struct event *ev);

struct event {
    event_fn fn;
    void *ctx;                 /* owner, for callbacks that want it */
    simtime_t time;            /* valid while pending */
    uint64_t seq;              /* its place among events at `time` */
    uint32_t slot;             /* heap index + 1, or EVQ_IN_FIFO | FIFO position;
                                * 0 when not pending */
};

struct evq_entry {
    simtime_t time;
    uint64_t seq;
    struct event *ev;
};

struct evq {
    struct evq_entry *heap;
    uint32_t len, cap;
    /* events pushed for the current instant, in push order (see event.c) */
    struct event **fifo;
    uint32_t fifo_head, fifo_len, fifo_cap, fifo_live;
    uint64_t seq;
    simtime_t now;
    uint64_t executed;           /* events run, including those continued inline */
    uint64_t heap_ops;           /* pushes, pops and removals: what events cost */
    uint64_t fifo_ops;           /* the same on the same-instant FIFO: O(1) each */
    simtime_t until;             /* the running evq_run's limit; -1 outside one */
    bool stop;
};

#define EVQ_IN_FIFO 0x80000000u

#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

void evq_init(struct evq *q);
void evq_free(struct evq *q);

static inline void event_init(struct event *ev, event_fn fn, void *ctx)
{
    ev->fn = fn;
    ev->ctx = ctx;
    ev->time = 0;
    ev->seq = 0;
    ev->slot = 0;
}
static inline bool event_pending(const struct event *ev) { return ev->slot != 0; }

/* Schedule ev at absolute time t >= q->now. ev must not be pending. */
void evq_push(struct evq *q, struct event *ev, simtime_t t);
/* Remove a pending event; no-op if not pending. */
void evq_cancel(struct evq *q, struct event *ev);
/* Move a pending event to time t (or schedule it if not pending). The
 * moved event gets a fresh sequence number, as a re-queued kernel timer
 * goes behind timers already queued for the same jiffy.
 *
 * A move to a time no earlier than the event's heap entry is lazy, as the
 * kernel's timer wheel is for mod_timer: the event takes its new time and
 * sequence number and its entry stays where it is; when that entry reaches
 * the top it is re-keyed and sifted down (settle, event.c). TCP re-arms
 * its RTO and loss-probe timers later on nearly every ACK, so most moves
 * then cost no heap operation. The order of events is exactly the eager
 * move's, because the entry ends up with the same (time, seq) key before
 * anything at or after its old key runs. */
void evq_move(struct evq *q, struct event *ev, simtime_t t);
/* Pop the earliest event and advance now to its time; NULL when empty. */
struct event *evq_pop(struct evq *q);
/* Time of the earliest event, SIMTIME_NEVER when empty. */
simtime_t evq_next_time(struct evq *q);

/* Run events until the queue is empty, `until` is passed (events at
 * exactly `until` run), or q->stop is set. */
void evq_run(struct evq *q, simtime_t until);

/* evq_continue's slow path (event.c): whether, once settled, the top is
 * after t. */
bool evq_settled_after(struct evq *q, simtime_t t);

#ifdef NETSIM_EVQ_HOOK
/* Only in the fuzz build (Makefile: fuzz): called for every event
 * continued inline, so that tests/fuzz/fuzz_run.c can bound a run's events
 * as it bounds pushes (an inline function cannot be --wrap'ped). It may set
 * q->stop, and then the event is not continued. NULL by default. */
extern void (*evq_continue_hook)(struct evq *q);
#endif

/* For an event's own callback, about to push its event again at t: when
 * nothing is due before t or at t (every entry's time is later), t is
 * within the running evq_run's limit and nothing asked to stop, that push
 * would be popped next. Then this advances now to t, counts the event as
 * run and returns true, and the caller runs its work at once: the same
 * order of events, without the two heap operations. Otherwise false, and
 * the caller pushes. Only from the callback of the event itself, never
 * from inside another one's (whose remaining work would run after).
 *
 * Inline, with the rare settling out of line: it runs once per link frame
 * and core slice, and whether the compiler inlined it from event.c moved
 * with unrelated edits (65 M instructions of w1's 2.5 G). */
static inline bool evq_continue(struct evq *q, simtime_t t)
{
#ifdef NETSIM_EVQ_HOOK
    if (evq_continue_hook)
        evq_continue_hook(q);
#endif
    if (q->fifo_live || q->stop || t > q->until)
        return false;
    /* settling only moves entries later: a top already after t needs none */
    if (q->len && q->heap[0].time <= t && !evq_settled_after(q, t))
        return false;
    q->now = t;
    q->executed++;
    return true;
}

/*
 * Timers with the semantics of the kernel's timer_list. The SCTP heartbeat
 * model measures what re-arming costs, so the timer counts how often it was
 * re-queued (mod_timer on a pending timer with a different expiry).
 */
struct timer {
    struct event ev;
    struct evq *q;
    uint64_t requeues;         /* pending timer moved to another expiry */
    uint64_t arms;             /* timer_mod on an idle timer */
};

void timer_init(struct timer *t, struct evq *q, event_fn fn, void *ctx);
/* mod_timer(): returns 1 if the timer was pending, 0 if it was idle. Like
 * the kernel, re-arming a pending timer to the expiry it already has is a
 * no-op that returns 1 without re-queueing. */
int timer_mod(struct timer *t, simtime_t expires);
/* del_timer(): returns 1 if it was pending. */
int timer_del(struct timer *t);
static inline bool timer_pending(const struct timer *t) { return event_pending(&t->ev); }
static inline simtime_t timer_expires(const struct timer *t) { return t->ev.time; }



/*
 * The time "now" as seen by the code that is running: inside a CPU slice,
 * the core's local clock (work already charged has happened); elsewhere the
 * queue's time. Used by code that cannot be handed a time, such as a
 * packet's destructor. One run per process, so these are plain globals.
 */
extern struct evq *evq_current;
extern simtime_t *ctx_clock;     /* set by cpu.c while a slice runs */
static inline simtime_t ctx_now(void) { return ctx_clock ? *ctx_clock : evq_current->now; }
#endif
