/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpu.h - cores that protocol work runs on, and where the time went.
 *
 * A core runs one task at a time. A task is softirq work (a NAPI poll) or
 * process work (an application loop); when the core frees up, runnable
 * softirq work goes first. Tasks are not preempted: a task runs one slice
 * (one packet, one system call) and returns; a long system call therefore
 * delays the softirq work queued behind it by at most one slice.
 *
 * Inside a slice the task charges costs with core_charge(); the core's
 * local clock advances by each charge, and everything the slice schedules
 * uses core_now(), so a reply leaves after the work that produced it. The
 * core is busy until the clock; one event per slice frees it.
 *
 * Every charge is booked under a kernel symbol name (a small integer id
 * from cpu_sym()), so `--profile` can print where simulated time went.
 */
#ifndef NETSIM_CPU_H
#define NETSIM_CPU_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/event.h"
#include "sim/rng.h"

struct core;
struct cpu_task;
struct host;

/* run one slice; return true to run again as soon as the core is free
 * (ahead of queued tasks of the same class), false to leave the core. */
typedef bool (*cpu_task_fn)(struct cpu_task *t, struct core *c);

enum cpu_class { CPU_SOFTIRQ = 0, CPU_PROCESS = 1 };

struct cpu_task {
    cpu_task_fn run;
    void *ctx;
    struct cpu_task *next;       /* run-queue link */
    simtime_t ready;             /* may not start before */
    uint8_t cls;                 /* enum cpu_class */
    bool queued;                 /* on a run queue or current */
    const char *name;
};

#define CPU_MAX_SYMS 128

struct cpu_sample {
    double ps;                   /* simulated CPU time charged */
    uint64_t calls;
};

struct core {
    struct evq *q;
    struct host *host;
    int id;
    double speed;                /* cost multiplier of the whole host (1 / cpu_speed) */
    double factor;               /* this core's f_cpu (core_cost_factor) */
    double jitter;               /* j: per-slice cost multiplier J = (1 - j) + j Exp(1) */
    double mult;                 /* speed * factor * J of the running slice */
    struct rng *rng;             /* for J; NULL when jitter is 0 */
    simtime_t clock;             /* local time within the current slice */
    simtime_t busy_until;        /* end of the last slice */
    struct cpu_task *current;
    struct cpu_task *rq_head[2], *rq_tail[2];
    struct event dispatch;       /* end of slice / next ready task */
    struct cpu_sample *prof;     /* host's profile table, by symbol id */
    struct cpu_sample *core_prof; /* optional: this core's own table (perf -C), NULL = none */
    uint64_t busy_ps;
    uint64_t slices;
    uint64_t spins;              /* consecutive zero-cost slices (livelock guard) */
};

void core_init(struct core *c, struct evq *q, struct host *h, int id, struct cpu_sample *prof);
/* Make t runnable from time `at` (>= now). Runs it at once if the core is
 * idle and at == now; otherwise queues it. No-op if already queued. */
void core_wake(struct core *c, struct cpu_task *t, simtime_t at);
/* Charge ns under symbol sym, scaled by the slice's multiplier: the host's
 * speed, the core's factor and the slice's jitter draw (ipfrag.md 9,
 * sctp.md A.3: one J per work item). */
static inline void core_charge_scaled(struct core *c, int sym, double ns, double mult)
{
    c->prof[sym].calls++;
    if (c->core_prof)
        c->core_prof[sym].calls++;
    if (ns == 0)
        return;                  /* cpu = ideal or a zero cost: no time to work out */
    simtime_t d = (simtime_t)(ns * mult * 1000.0 + 0.5);
    c->clock += d;
    c->prof[sym].ps += (double)d;
    if (c->core_prof)
        c->core_prof[sym].ps += (double)d;
}
static inline void core_charge(struct core *c, int sym, double ns)
{
    core_charge_scaled(c, sym, ns, c->mult);
}
/* Overheads the spec keeps out of J and f_cpu (interrupt entry, poll call,
 * timer tick): scaled by the host's speed only. */
static inline void core_charge_fixed(struct core *c, int sym, double ns)
{
    core_charge_scaled(c, sym, ns, c->speed);
}
static inline simtime_t core_now(const struct core *c) { return c->clock; }
static inline bool core_idle(const struct core *c) { return !c->current && !c->rq_head[0] && !c->rq_head[1]; }

/* The core whose slice is running, or NULL (see ctx_now in event.h). */
extern struct core *cpu_current;

/* Symbols: ids are stable within a process; names are kernel functions. */
int cpu_sym(const char *name);            /* lookup or add */
const char *cpu_sym_name(int id);
int cpu_sym_count(void);

#endif
