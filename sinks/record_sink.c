/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record_sink.c - the results database as a sink (sim/sink.h): each
 * emission is one row of record.h's schema, in the run's transaction.
 */
#include <math.h>
#include <stddef.h>
#include "sinks/record.h"
#include "sim/sink.h"

static int64_t sink_run_begin(void *ctx, const struct sink_run *run)
{
    struct rec_run_info info = { .scenario = run->scenario, .variant_label = run->variant_label,
                                  .seed = run->seed, .rep = run->rep, .scenario_hash = run->scenario_hash,
                                  .id = run->id };
    return rec_run_begin(ctx, &info);
}

static int sink_param(void *ctx, const char *key, const char *value)
{
    return rec_param(ctx, key, value);
}

/* bits_per_s over the exact simulated span, as every sink derives it */
static void sink_interval(void *ctx, int flow, simtime_t t0, simtime_t t1, uint64_t bytes,
                          const struct flow_info *info)
{
    (void)info;                  /* the series and counters hold it */
    double secs = time_to_s(t1 - t0);
    rec_interval(ctx, flow, time_to_s(t0), time_to_s(t1), bytes, secs > 0 ? (double)bytes * 8 / secs : 0);
}

static void sink_series(void *ctx, const char *name, simtime_t t, double value)
{
    rec_series(ctx, name, time_to_s(t), value);
}

static void sink_counter(void *ctx, const char *name, uint64_t value, bool is_drop)
{
    rec_counter(ctx, name, value, is_drop);
}

static void sink_profile(void *ctx, const char *host, int cpu, const char *symbol, double cpu_ns, uint64_t calls)
{
    rec_profile(ctx, host, cpu, symbol, cpu_ns, calls);
}

static void sink_message(void *ctx, const struct sink_message *m)
{
    rec_message(ctx, m);
}

static int sink_run_end(void *ctx, const struct sink_end *e)
{
    return rec_run_end(ctx, e->status, e->wall_s, e->events, e->sim_s, e->error);
}

static const char *sink_failed(void *ctx)
{
    return rec_lost(ctx) ? rec_errmsg(ctx) : NULL;
}

const struct sink_ops record_sink_ops = {
    .name = "database",
    .run_begin = sink_run_begin,
    .param = sink_param,
    .interval = sink_interval,
    .series = sink_series,
    .counter = sink_counter,
    .profile = sink_profile,
    .message = sink_message,
    .run_end = sink_run_end,
    .failed = sink_failed,
};
