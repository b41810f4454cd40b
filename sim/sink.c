/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sink.c - a run's emissions fanned out to its sinks (see sink.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include "sim/sim.h"

int sink_ops_check(const struct sink_ops *o)
{
    if (!o || !o->name || !o->name[0])
        return -1;
    return o->run_begin || o->param || o->flow || o->interval || o->series || o->counter || o->profile || o->line ||
                   o->sock || o->message || o->run_end || o->failed
               ? 0
               : -1;
}

int sim_add_sink(struct sim *s, const struct sink_ops *ops, void *ctx)
{
    if (sink_ops_check(ops) || s->nsinks == SIM_MAX_SINKS)
        return -1;
    s->sinks[s->nsinks++] = (struct sink){ ops, ctx };
    return 0;
}

/* The members are optional: call the one named on every sink that has it. */
#define EACH_SINK(s, member, ...)                                       \
    for (int i_ = 0; i_ < (s)->nsinks; i_++)                            \
        if ((s)->sinks[i_].ops->member)                                 \
            (s)->sinks[i_].ops->member((s)->sinks[i_].ctx, __VA_ARGS__)

const char *sim_sink_failed(struct sim *s)
{
    for (int i = 0; i < s->nsinks; i++) {
        const char *why = s->sinks[i].ops->failed ? s->sinks[i].ops->failed(s->sinks[i].ctx) : NULL;
        if (why)
            return why;
    }
    return NULL;
}

void sim_series(struct sim *s, const char *name, double value)
{
    EACH_SINK(s, series, name, ctx_now(), value);
}

void sim_emit_param(struct sim *s, const char *key, const char *value)
{
    EACH_SINK(s, param, key, value);
}

void sim_emit_flow(struct sim *s, int id, const char *desc)
{
    EACH_SINK(s, flow, id, desc);
}

void sim_emit_interval(struct sim *s, int flow, simtime_t t0, simtime_t t1, uint64_t bytes,
                       const struct flow_info *info)
{
    EACH_SINK(s, interval, flow, t0, t1, bytes, info);
}

void sim_emit_profile(struct sim *s, const char *host, int cpu, const char *symbol, double cpu_ns, uint64_t calls)
{
    EACH_SINK(s, profile, host, cpu, symbol, cpu_ns, calls);
}

void sim_emit_line(struct sim *s, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    EACH_SINK(s, line, text);
}

void sim_emit_counter(struct sim *s, const char *name, uint64_t value, bool is_drop)
{
    EACH_SINK(s, counter, name, value, is_drop);
}

void sim_emit_sock(struct sim *s, int flow, const char *host, const char *text)
{
    EACH_SINK(s, sock, flow, host, ctx_now(), text);
}

void sim_emit_message(struct sim *s, const struct sink_message *m)
{
    EACH_SINK(s, message, m);
}

int sim_ss_state_line(char *buf, size_t n, const char *state, uint64_t recv_q, uint64_t send_q, const char *local,
                      const char *peer)
{
    char rq[24], sq[24];
    snprintf(rq, sizeof rq, "%" PRIu64, recv_q);
    snprintf(sq, sizeof sq, "%" PRIu64, send_q);
    return snprintf(buf, n, SINK_SS_COLUMNS, state, rq, sq, local, peer);
}
