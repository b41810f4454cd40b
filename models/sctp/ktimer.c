/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ktimer.c - mod_timer / del_timer with kernel semantics and costs (see
 * ktimer.h). Kernel: kernel/time/timer.c (apply_slack, mod_timer,
 * __mod_timer, del_timer), identical in these respects in 3.14 and 4.4.
 */
#include "models/sctp/ktimer.h"
#include "sim/host.h"

const char *const kt_caller_name[KT_NCALLERS] = { "sctp_transport_reset_timers", "sctp_do_sm" };
bool kt_irqoff_restore = true;

static int sym_mod = -1, sym_mod_irq, sym_del, sym_del_irq;
static int sym_restore_mod[KT_NCALLERS], sym_restore_del;

static void syms(void)
{
    if (sym_mod >= 0)
        return;
    sym_mod = cpu_sym("mod_timer");
    sym_mod_irq = cpu_sym("__mod_timer");
    sym_del = cpu_sym("del_timer");
    sym_del_irq = cpu_sym("detach_if_pending");
    /* literal names: cpu_sym keeps the pointer */
    sym_restore_mod[KT_RESET_TIMERS] = cpu_sym("_raw_spin_unlock_irqrestore <- mod_timer <- sctp_transport_reset_timers");
    sym_restore_mod[KT_DO_SM] = cpu_sym("_raw_spin_unlock_irqrestore <- mod_timer <- sctp_do_sm");
    sym_restore_del = cpu_sym("_raw_spin_unlock_irqrestore <- del_timer <- sctp_do_sm");
}

uint64_t kt_apply_slack(uint64_t expires, uint64_t jiffies)
{
    /* timer->slack < 0: default slack of 0.4 %; below 256 jiffies it is 0 */
    int64_t delta = (int64_t)(expires - jiffies);
    if (delta < 256)
        return expires;
    uint64_t limit = expires + (uint64_t)delta / 256;
    uint64_t mask = expires ^ limit;
    if (mask == 0)
        return expires;
    int bit = 63 - __builtin_clzll(mask);
    mask = (1ULL << bit) - 1;
    return limit & ~mask;
}

void kt_init(struct ktimer *kt, struct evq *q, event_fn fn, void *ctx)
{
    timer_init(&kt->t, q, fn, ctx);
    kt->expires = 0;
    kt->calls = kt->queued = kt->shortcut = 0;
}

void kt_charge_irqoff(struct host *h, struct core *c, int cost_sym, int restore_sym, int self_sym)
{
    double ns = h->cost[cost_sym];
    if (ns > 0)
        core_charge(c, kt_irqoff_restore ? restore_sym : self_sym, ns);
}

int kt_mod(struct ktimer *kt, uint64_t expires, struct host *h, struct core *c, struct ktimer_stats *st, int caller)
{
    syms();
    simtime_t now = c ? core_now(c) : kt->t.q->now;
    uint64_t j = kt_jiffies(now);
    expires = kt_apply_slack(expires, j);
    kt->calls++;
    if (st)
        st->calls[caller]++;
    if (h && c && h->cost[sym_mod] > 0)
        host_charge(h, c, sym_mod);
    if (timer_pending(&kt->t) && kt->expires == expires) {
        kt->shortcut++;
        if (st)
            st->shortcut[caller]++;
        return 1;
    }
    /* lock_timer_base (irqsave), detach, pick a base, internal_add_timer,
     * unlock (irqrestore): the part that the shortcut avoids */
    if (h && c)
        kt_charge_irqoff(h, c, sym_mod_irq, sym_restore_mod[caller], sym_mod);
    kt->queued++;
    if (st)
        st->queued[caller]++;
    kt->expires = expires;
    /* a timer fires at the first tick at which jiffies >= expires; one
     * already due fires at the next tick */
    uint64_t fire = expires > j ? expires : j + 1;
    return timer_mod(&kt->t, (simtime_t)fire * KT_PS_PER_JIFFY);
}

int kt_del(struct ktimer *kt, struct host *h, struct core *c, struct ktimer_stats *st)
{
    syms();
    if (st)
        st->del_calls++;
    if (h && c && h->cost[sym_del] > 0)
        host_charge(h, c, sym_del);
    if (!timer_pending(&kt->t))
        return 0;
    if (st)
        st->del_pending++;
    if (h && c)
        kt_charge_irqoff(h, c, sym_del_irq, sym_restore_del, sym_del);
    return timer_del(&kt->t);
}
