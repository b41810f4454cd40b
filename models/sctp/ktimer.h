/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ktimer.h - kernel timer_list semantics on top of the engine's timers:
 * jiffies at HZ 1000, mod_timer's slack rounding (apply_slack, 4.4 and
 * 3.14 alike) and its shortcut for an unchanged expiry, with the CPU charge
 * of each outcome booked per caller (sctp.md B.2, B.3).
 *
 * It lives in the SCTP model, as a wrapper around timer_mod, so that slack
 * and per-caller costs do not change other models' timers.
 */
#ifndef NETSIM_MODELS_SCTP_KTIMER_H
#define NETSIM_MODELS_SCTP_KTIMER_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/event.h"

struct host;
struct core;

#define KT_HZ 1000
#define KT_PS_PER_JIFFY (PS_PER_S / KT_HZ)

/* Who called mod_timer (the profile's caller frames). */
enum kt_caller { KT_RESET_TIMERS = 0, KT_DO_SM = 1, KT_NCALLERS };
extern const char *const kt_caller_name[KT_NCALLERS];

struct ktimer_stats {
    uint64_t calls[KT_NCALLERS];      /* mod_timer calls */
    uint64_t shortcut[KT_NCALLERS];   /* pending and equal expiry: returned early */
    uint64_t queued[KT_NCALLERS];     /* went through lock_timer_base .. insert (a re-queue) */
    uint64_t del_calls, del_pending;
};

struct ktimer {
    struct timer t;
    uint64_t expires;            /* jiffies, as timer->expires (0 until first armed) */
    uint64_t calls, queued, shortcut;   /* this timer's mod_timer outcomes */
};

static inline uint64_t kt_jiffies(simtime_t t) { return (uint64_t)(t / KT_PS_PER_JIFFY); }
/* apply_slack(): default slack delta/256, limit rounded down to clear the
 * bits below the highest bit in which expires and limit differ. */
uint64_t kt_apply_slack(uint64_t expires, uint64_t jiffies);
void kt_init(struct ktimer *kt, struct evq *q, event_fn fn, void *ctx);
/* mod_timer(timer, expires) at jiffies(now) on core c (c may be NULL: no
 * charge). Returns 1 if the timer was pending. st and h may be NULL. */
int kt_mod(struct ktimer *kt, uint64_t expires, struct host *h, struct core *c, struct ktimer_stats *st, int caller);
/* del_timer(): returns 1 if it was pending. */
int kt_del(struct ktimer *kt, struct host *h, struct core *c, struct ktimer_stats *st);
static inline bool kt_pending(const struct ktimer *kt) { return timer_pending(&kt->t); }

/* Book the irq-off section of a kernel function: under
 * `_raw_spin_unlock_irqrestore <- caller` (perf in a KVM guest samples it at
 * the irq restore, sctp.md B.3) when irqoff_restore, else under the
 * caller's own symbol. */
extern bool kt_irqoff_restore;
void kt_charge_irqoff(struct host *h, struct core *c, int cost_sym, int restore_sym, int self_sym);

#endif
