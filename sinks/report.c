/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.c - what a run prints: iperf3's interval table, a summary with
 * drops by cause and a perf-style CPU profile, or one JSON document; the
 * console's sink (sim/sink.h). This file collects; report_text.c and
 * report_json.c print.
 *
 * Everything reported is kept in growable arrays (doubled on overflow), in
 * both modes: text mode needs the intervals for the per-flow totals, JSON
 * mode prints it all at the end. A run reports a few intervals per flow and
 * simulated second, so this is small.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sinks/report_json.h"
#include "sinks/report_state.h"
#include "sinks/report_text.h"

/* ------------------------------------------------------------------ */
/* Collecting                                                           */

struct report *report_new(FILE *out, enum report_mode mode, int quiet)
{
    struct report *r = xcalloc(1, sizeof *r);

    r->out = out ? out : stdout;
    r->mode = mode;
    r->quiet = quiet;
    return r;
}

void report_free(struct report *r)
{
    size_t i;

    if (!r)
        return;
    for (i = 0; i < r->nflows; i++) {
        free(r->flows[i].desc);
        free(r->flows[i].protocol);
        free(r->flows[i].congestion);
    }
    for (i = 0; i < r->nparams; i++) {
        free(r->params[i].key);
        free(r->params[i].value);
    }
    free(r->params);
    free(r->scenario);
    for (i = 0; i < r->ncounters; i++)
        free(r->counters[i].name);
    for (i = 0; i < r->nprof; i++) {
        free(r->prof[i].host);
        free(r->prof[i].symbol);
    }
    for (i = 0; i < r->nlines; i++)
        free(r->lines[i]);
    free(r->flows);
    strindex_free(&r->flow_ix);
    strindex_free(&r->counter_ix);
    free(r->ivs);
    free(r->counters);
    free(r->prof);
    free(r->lines);
    for (i = 0; i < r->ntc; i++)
        free(r->tc[i]);
    free(r->tc);
    free(r);
}

void report_tc_stats(struct report *r, const char *host, const char *port, const char *text)
{
    const char *v[] = { host, port, text };
    for (int i = 0; i < 3; i++) {
        GROW(r, tc, ntc, cap_tc);
        r->tc[r->ntc++] = xstrdup(v[i]);
    }
}

void report_flow(struct report *r, int id, const char *desc)
{
    int64_t i = rep_flow_index(r, id);
    if (i >= 0) {                  /* declared again: the new desc wins */
        free(r->flows[i].desc);
        r->flows[i].desc = xstrdup(desc);
        return;
    }
    GROW(r, flows, nflows, cap_flows);
    r->flows[r->nflows] = (struct rep_flow){ .id = id, .desc = xstrdup(desc) };
    rep_flow_indexed(r, id, r->nflows);
    r->nflows++;
}

/* The flow's running totals, and iv's figures as the differences from
 * its interval before (counts) with the state at iv's end. */
static void flow_account(struct rep_flow *fl, struct rep_interval *iv, const struct flow_info *info)
{
    if (!fl->nivs++ || iv->t_start < fl->t_first)
        fl->t_first = iv->t_start;
    if (fl->nivs == 1 || iv->t_end > fl->t_last)
        fl->t_last = iv->t_end;
    fl->bytes += iv->bytes;
    if (!iv->has_info)
        return;
    struct flow_info d = *info;
    d.protocol = fl->protocol;
    d.congestion = fl->congestion;
    if (fl->has_last) {
        d.bytes_sent -= fl->last.bytes_sent;
        d.retransmits -= fl->last.retransmits;
        d.datagrams_sent -= fl->last.datagrams_sent;
        d.datagrams -= fl->last.datagrams;
        d.lost -= fl->last.lost;
        d.out_of_order -= fl->last.out_of_order;
    }
    iv->info = d;
    fl->last = *info;
    fl->last.protocol = fl->protocol;
    fl->last.congestion = fl->congestion;
    fl->has_last = 1;
    fl->max_cwnd = info->snd_cwnd > fl->max_cwnd ? info->snd_cwnd : fl->max_cwnd;
    fl->max_wnd = info->snd_wnd > fl->max_wnd ? info->snd_wnd : fl->max_wnd;
    if (info->rtt_us) {
        double v = info->rtt_us;
        fl->rtt_min = fl->rtt_n ? fmin(fl->rtt_min, v) : v;
        fl->rtt_max = fl->rtt_n ? fmax(fl->rtt_max, v) : v;
        fl->rtt_sum += v;
        fl->rtt_n++;
    }
}

void report_interval(struct report *r, int flow, double t_start, double t_end, uint64_t bytes)
{
    report_interval_info(r, flow, t_start, t_end, bytes, NULL);
}

void report_interval_info(struct report *r, int flow, double t_start, double t_end, uint64_t bytes,
                          const struct flow_info *info)
{
    struct rep_flow *fl = (struct rep_flow *)rep_flow_of(r, flow);
    if (info && !info->protocol)
        info = NULL;
    if (info && fl && !fl->protocol) {        /* the fixed part, once */
        fl->info = *info;
        fl->protocol = xstrdup(info->protocol);
        fl->congestion = info->congestion ? xstrdup(info->congestion) : NULL;
        fl->info.protocol = fl->protocol;
        fl->info.congestion = fl->congestion;
    }
    GROW(r, ivs, nivs, cap_ivs);
    struct rep_interval *iv = &r->ivs[r->nivs++];
    *iv = (struct rep_interval){ .flow = flow, .t_start = t_start, .t_end = t_end, .bytes = bytes,
                                 .has_info = info && fl };
    if (fl)
        flow_account(fl, iv, info);
    if (r->mode != REPORT_TEXT || r->quiet)
        return;
    if (!r->header_done && iv->has_info)
        r->header_info = iv->info.protocol;
    rep_print_header(r);
    rep_print_row(r, flow, t_start, t_end, bytes, iv->has_info ? &iv->info : NULL, NULL);
    fflush(r->out);
}

void report_line(struct report *r, const char *fmt, ...)
{
    va_list ap;
    char *s;
    size_t n;

    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    s = xmalloc(len > 0 ? (size_t)len + 1 : 1);
    va_start(ap, fmt);
    vsnprintf(s, len > 0 ? (size_t)len + 1 : 1, fmt, ap);
    va_end(ap);
    n = strlen(s);
    if (n > 0 && s[n - 1] == '\n')     /* the line ends where we say */
        s[n - 1] = '\0';
    if (r->mode == REPORT_TEXT) {
        fprintf(r->out, "%s\n", s);
        fflush(r->out);
        free(s);
        return;
    }
    GROW(r, lines, nlines, cap_lines);
    r->lines[r->nlines++] = s;
}

/* What the counter index compares against: the report and the name sought. */
struct counter_key {
    const struct report *r;
    const char *name;
};

static bool counter_is(const void *ctx, uint32_t i)
{
    const struct counter_key *k = ctx;
    return strcmp(k->r->counters[i].name, k->name) == 0;
}

/* A counter reported twice keeps its last value: one key per name in JSON. */
void report_counter(struct report *r, const char *name, double value, int is_drop)
{
    uint32_t h = strindex_hash(STRINDEX_SEED, name, strlen(name));
    struct counter_key key = { .r = r, .name = name };
    int64_t i = strindex_find(&r->counter_ix, h, counter_is, &key);
    if (i >= 0) {
        r->counters[i].value = value;
        r->counters[i].is_drop = is_drop;
        return;
    }
    /* Text shows only the drops that happened; a run of 100 000 flows
     * reports 4 million counters, nearly all of them not that. */
    if (r->mode == REPORT_TEXT && !(is_drop && value != 0))
        return;
    GROW(r, counters, ncounters, cap_counters);
    r->counters[r->ncounters] = (struct rep_counter){xstrdup(name), value, is_drop};
    if (strindex_add(&r->counter_ix, h, (uint32_t)r->ncounters) < 0)
        xoom();
    r->ncounters++;
}

/* Rows for the same (host, symbol) add up, as perf merges samples from all
 * cores under one symbol. Linear search, as for counters. */
void report_profile(struct report *r, const char *host, const char *symbol, double cpu_ns, uint64_t calls)
{
    size_t i, host_idx = r->nhosts;

    for (i = 0; i < r->nprof; i++) {
        if (strcmp(r->prof[i].host, host) != 0)
            continue;
        host_idx = r->prof[i].host_idx;
        if (strcmp(r->prof[i].symbol, symbol) == 0) {
            r->prof[i].cpu_ns += cpu_ns;
            r->prof[i].calls += calls;
            return;
        }
    }
    if (host_idx == r->nhosts)
        r->nhosts++;
    GROW(r, prof, nprof, cap_prof);
    r->prof[r->nprof] = (struct rep_prof){xstrdup(host), xstrdup(symbol), cpu_ns, calls, host_idx, r->nprof};
    r->nprof++;
}

void report_show_profile(struct report *r, int on)
{
    r->show_profile = on;
}

void report_end(struct report *r, double sim_s, double wall_s, uint64_t events, const char *status)
{
    if (r->ended)
        return;
    r->ended = 1;
    if (r->mode == REPORT_JSON)
        rep_print_json(r, sim_s, wall_s, events, status);
    else
        rep_print_summary(r, sim_s, wall_s, events, status);
    fflush(r->out);
}

/* ---- the console's sink (sim/sink.h) ---- */

static void sink_flow(void *ctx, int id, const char *desc)
{
    report_flow(ctx, id, desc);
}

static void sink_interval(void *ctx, int flow, simtime_t t0, simtime_t t1, uint64_t bytes,
                          const struct flow_info *info)
{
    report_interval_info(ctx, flow, time_to_s(t0), time_to_s(t1), bytes, info);
}

static void sink_counter(void *ctx, const char *name, uint64_t value, bool is_drop)
{
    report_counter(ctx, name, (double)value, is_drop);
}

/* One core's rows are shown as perf record -C N shows them, under
 * "HOST/cpuN", beside the host's own. */
static void sink_profile(void *ctx, const char *host, int cpu, const char *symbol, double cpu_ns, uint64_t calls)
{
    char name[96];
    if (cpu >= 0)
        snprintf(name, sizeof name, "%s/cpu%d", host, cpu);
    report_profile(ctx, cpu >= 0 ? name : host, symbol, cpu_ns, calls);
}

static void sink_line(void *ctx, const char *text)
{
    report_line(ctx, "%s", text);
}

static int sink_run_end(void *ctx, const struct sink_end *e)
{
    report_end(ctx, e->sim_s, e->wall_s, e->events, e->status);
    return 0;
}

static int64_t sink_run_begin(void *ctx, const struct sink_run *run)
{
    struct report *r = ctx;
    free(r->scenario);
    r->scenario = xstrdup(run->scenario ? run->scenario : "");
    r->seed = run->seed;
    return 0;
}

static int sink_param(void *ctx, const char *key, const char *value)
{
    struct report *r = ctx;
    if (r->mode != REPORT_JSON)  /* only the JSON report shows them: 15 a TCP flow */
        return 0;
    GROW(r, params, nparams, cap_params);
    r->params[r->nparams].key = xstrdup(key);
    r->params[r->nparams++].value = xstrdup(value ? value : "");
    return 0;
}

const struct sink_ops report_sink_ops = {
    .name = "report",
    .run_begin = sink_run_begin,
    .param = sink_param,
    .flow = sink_flow,
    .interval = sink_interval,
    .counter = sink_counter,
    .profile = sink_profile,
    .line = sink_line,
    .run_end = sink_run_end,
};
