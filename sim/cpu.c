/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpu.c - core scheduling and cost accounting (see cpu.h).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/cpu.h"

struct core *cpu_current;

static const char *sym_names[CPU_MAX_SYMS];
static int nsyms;

int cpu_sym(const char *name)
{
    for (int i = 0; i < nsyms; i++)
        if (!strcmp(sym_names[i], name))
            return i;
    if (nsyms == CPU_MAX_SYMS) {
        fprintf(stderr, "netsim: too many CPU symbols (max %d, CPU_MAX_SYMS)\n", CPU_MAX_SYMS);
        exit(1);
    }
    sym_names[nsyms] = name;
    return nsyms++;
}

const char *cpu_sym_name(int id) { return id >= 0 && id < nsyms ? sym_names[id] : "?"; }
int cpu_sym_count(void) { return nsyms; }

static void core_dispatch(struct event *ev);

void core_init(struct core *c, struct evq *q, struct host *h, int id, struct cpu_sample *prof)
{
    memset(c, 0, sizeof *c);
    c->q = q;
    c->host = h;
    c->id = id;
    c->speed = 1.0;
    c->factor = 1.0;
    c->mult = 1.0;
    c->prof = prof;
    event_init(&c->dispatch, core_dispatch, c);
}

static void rq_append(struct core *c, struct cpu_task *t)
{
    t->next = NULL;
    if (c->rq_tail[t->cls])
        c->rq_tail[t->cls]->next = t;
    else
        c->rq_head[t->cls] = t;
    c->rq_tail[t->cls] = t;
}

/* First ready task, softirq class first; unlinks it. Tasks woken for a
 * later time stay queued; *next_ready reports the earliest of them. */
static struct cpu_task *rq_take(struct core *c, simtime_t now, simtime_t *next_ready)
{
    *next_ready = SIMTIME_NEVER;
    for (int cls = 0; cls < 2; cls++) {
        struct cpu_task *prev = NULL;
        for (struct cpu_task *t = c->rq_head[cls]; t; prev = t, t = t->next) {
            if (t->ready <= now) {
                if (prev)
                    prev->next = t->next;
                else
                    c->rq_head[cls] = t->next;
                if (c->rq_tail[cls] == t)
                    c->rq_tail[cls] = prev;
                t->next = NULL;
                return t;
            }
            if (t->ready < *next_ready)
                *next_ready = t->ready;
        }
    }
    return NULL;
}

static bool ready_in(const struct core *c, int cls, simtime_t now)
{
    for (const struct cpu_task *t = c->rq_head[cls]; t; t = t->next)
        if (t->ready <= now)
            return true;
    return false;
}

static bool softirq_ready(const struct core *c, simtime_t now)
{
    return ready_in(c, CPU_SOFTIRQ, now);
}

/* One slice at the current time. A process task that wants to continue
 * yields at the slice boundary to ready softirq work, and to other ready
 * processes in turn. */
static void core_run(struct core *c, bool own_event)
{
again_slice:;
    simtime_t now = c->q->now;
    struct cpu_task *t = c->current;
    if (t && t->cls == CPU_PROCESS) {
        if (softirq_ready(c, now) || ready_in(c, CPU_PROCESS, now)) {
            /* softirq work runs first; other ready processes get a turn
             * (round robin, one slice each: a coarse stand-in for CFS) */
            t->ready = now;
            rq_append(c, t);
            c->current = t = NULL;
        }
    }
    if (!t) {
        simtime_t next_ready;
        t = rq_take(c, now, &next_ready);
        if (!t) {
            if (next_ready != SIMTIME_NEVER)
                evq_push(c->q, &c->dispatch, next_ready);
            return;
        }
        c->current = t;
    }
    c->clock = now;
    c->mult = c->speed * c->factor;
    if (c->jitter > 0)
        c->mult *= (1.0 - c->jitter) + c->jitter * rng_exponential(c->rng, 1.0);
    simtime_t *outer = ctx_clock;        /* core_wake may nest a slice */
    struct core *outer_core = cpu_current;
    ctx_clock = &c->clock;
    cpu_current = c;
    bool again = t->run(t, c);
    ctx_clock = outer;
    cpu_current = outer_core;
    c->slices++;
    if (!again) {
        c->current = NULL;
        t->queued = false;
    }
    assert(c->clock >= now);
    if (c->clock == now && again) {
        /* A task that keeps the core without ever charging time would spin
         * forever at one instant (an `ideal` profile sender, say). */
        if (++c->spins > 10000000) {
            fprintf(stderr, "netsim: livelock: task '%s' on core %d ran 10 million zero-cost slices at t = %.9f s; "
                            "give it a cost (cost.SYMBOL) or a rate\n", t->name ? t->name : "?", c->id, time_to_s(now));
            exit(1);
        }
    } else {
        c->spins = 0;
    }
    c->busy_ps += (uint64_t)(c->clock - now);
    c->busy_until = c->clock;
    if (c->current || c->rq_head[0] || c->rq_head[1]) {
        /* The next slice would be the next event anyway: run it now
         * (evq_continue), unless this run is nested in another event's. */
        if (own_event && evq_continue(c->q, c->clock))
            goto again_slice;
        evq_push(c->q, &c->dispatch, c->clock);
    }
}
static void core_dispatch(struct event *ev)
{
    core_run((struct core *)ev->ctx, true);
}

void core_wake(struct core *c, struct cpu_task *t, simtime_t at)
{
    if (t->queued)
        return;
    t->queued = true;
    t->ready = at;
    rq_append(c, t);
    if (c->current)
        return;                 /* the running slice dispatches when it ends */
    simtime_t start = at > c->busy_until ? at : c->busy_until;
    if (event_pending(&c->dispatch)) {
        /* a dispatch set for a later-ready task may be too late for t */
        if (c->dispatch.time > start)
            evq_move(c->q, &c->dispatch, start);
        return;
    }
    if (start > c->q->now) {
        evq_push(c->q, &c->dispatch, start);
        return;
    }
    core_run(c, false);
}
