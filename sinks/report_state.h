/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_state.h - a report as it is collected (report.c) and the queries
 * both of its printers make of it (report_state.c): report_text.c prints
 * iperf3's table and the summary, report_json.c the JSON document. Not for
 * other callers, who use report.h.
 */
#ifndef NETSIM_SINKS_REPORT_STATE_H
#define NETSIM_SINKS_REPORT_STATE_H

#include <stddef.h>
#include <stdint.h>
#include "sinks/report.h"
#include "sim/sim.h"
#include "sim/strindex.h"
#include "sim/xalloc.h"

struct rep_flow {
    int id;
    char *desc;
    /* from its first interval with iperf3 figures (protocol NULL: none) */
    struct flow_info info;
    char *protocol, *congestion; /* info's strings, owned */
    /* kept as its intervals come, so that each costs O(1) whatever the
     * run holds: the span and bytes, the figures at the last one (counts
     * since the start), and the extremes iperf3's end block reports */
    int nivs;
    double t_first, t_last;
    uint64_t bytes;
    int has_last;
    struct flow_info last;
    uint64_t max_cwnd, max_wnd, rtt_n;
    double rtt_min, rtt_max, rtt_sum;
};

struct rep_interval {
    int flow;
    double t_start, t_end;
    uint64_t bytes;
    int has_info;
    struct flow_info info;       /* counts over the interval, the state at t_end; its strings are the flow's */
};

struct rep_counter {
    char *name;
    double value;
    int is_drop;
};

struct rep_prof {
    char *host;
    char *symbol;
    double cpu_ns;
    uint64_t calls;
    size_t host_idx;    /* order of the host's first appearance */
    size_t seq;         /* order of the row's first appearance */
};

struct rep_param {
    char *key, *value;
};

struct report {
    FILE *out;
    char *scenario;              /* from run_begin */
    uint64_t seed;
    struct rep_param *params;
    size_t nparams, cap_params;
    enum report_mode mode;
    int quiet;
    int show_profile;
    int header_done;
    const char *header_info;     /* the protocol whose iperf3 header the table has, or NULL */
    int ended;

    struct rep_flow *flows;
    size_t nflows, cap_flows;
    struct strindex flow_ix, counter_ix;   /* by id, by name: O(1) whatever the run holds */
    struct rep_interval *ivs;
    size_t nivs, cap_ivs;
    struct rep_counter *counters;
    size_t ncounters, cap_counters;
    struct rep_prof *prof;
    size_t nprof, cap_prof;
    size_t nhosts;
    char **lines;
    size_t nlines, cap_lines;
    char **tc;                   /* --tc-stats: host, port, text; three strings a port */
    size_t ntc, cap_tc;
};

/* Room for one more element of r->arr (n used, cap allocated). */
#define GROW(r, arr, n, cap) ((r)->arr = xgrow((r)->arr, sizeof *(r)->arr, (r)->n, &(r)->cap, 16))

/* Totals of one flow over [first t_start, last t_end] of its intervals;
 * a flow without intervals spans [0, sim_s] with no bytes. */
struct flow_total {
    double t_start, t_end;
    uint64_t bytes;
};
struct flow_total rep_flow_total(const struct report *r, int id, double sim_s);
/* Bits per second over [t_start, t_end]; NaN when the span is empty. */
double rep_rate_of(uint64_t bytes, double t_start, double t_end);
/* The profile rows in print order; caller frees the array. */
struct rep_prof **rep_prof_sorted(const struct report *r);
/* The index in r->flows of the flow with this id, or -1. */
int64_t rep_flow_index(const struct report *r, int id);
/* Records that r->flows[i] holds flow id, for rep_flow_index. */
void rep_flow_indexed(struct report *r, int id, size_t i);
/* The flow with this id, or NULL. */
const struct rep_flow *rep_flow_of(const struct report *r, int id);

#endif
