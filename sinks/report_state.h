/*
 * report_impl.h - what the pieces of the report share (report.c collects,
 * report_text.c prints iperf3's table and the summary, report_json.c the
 * JSON document); not for other callers, who use report.h.
 */
#ifndef NETSIM_OUT_REPORT_IMPL_H
#define NETSIM_OUT_REPORT_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include "sinks/report.h"
#include "sim/sim.h"
#include "sim/strindex.h"
#include "sim/xalloc.h"

#define REPORT_HEADER    "[ ID] Interval           Transfer     Bitrate"
#define REPORT_SEPARATOR "- - - - - - - - - - - - - - - - - - - - - - - - -"

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
/* The flow with this id, or NULL. */
const struct rep_flow *rep_flow_of(const struct report *r, int id);
/* "[  1]   0.00-1.00   sec  1.11 GBytes  9.57 Gbits/sec", then iperf3's
 * Retr and Cwnd (TCP) or Jitter and Lost/Total (UDP) when info is given,
 * then "   desc" if desc is not empty. */
void rep_print_row(struct report *r, int flow, double t_start, double t_end, uint64_t bytes,
                   const struct flow_info *info, const char *desc);
void rep_print_header(struct report *r);
void rep_print_summary(struct report *r, double sim_s, double wall_s, uint64_t events, const char *status);
void rep_print_json(struct report *r, double sim_s, double wall_s, uint64_t events, const char *status);

#endif
