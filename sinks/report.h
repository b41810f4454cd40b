/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h - what a run prints: an iperf3-style interval table per flow,
 * a summary with drops by cause, a perf-style CPU profile, or the same data
 * as one JSON document (--json).
 *
 * Text mode prints each interval row as it is reported (like iperf3 does
 * live); JSON mode buffers everything and prints one document at
 * report_end(). quiet suppresses the interval rows but keeps the summary
 * (and, if no row printed it, the header above it); in JSON mode quiet
 * changes nothing.
 *
 * Text layout (iperf3's, units 1024-based for Transfer, 1000-based for
 * Bitrate, three significant digits, Transfer padded to 11 characters;
 * a rate over an empty interval prints "-"):
 *   [ ID] Interval           Transfer     Bitrate
 *   [  1]   0.00-1.00   sec  1.11 GBytes  9.57 Gbits/sec
 *   - - - - - - - - - - - - - - - - - - - - - - - - -
 *   [  1]   0.00-10.00  sec  11.1 GBytes  9.57 Gbits/sec   udp_stream sender1 -> receiver
 */
#ifndef NETSIM_REPORT_H
#define NETSIM_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "sim/sink.h"

struct report;

enum report_mode { REPORT_TEXT, REPORT_JSON };

/* The report as a sink (sim/sink.h), ctx a struct report: flows,
 * intervals, counters, profile rows, lines; run_end is report_end. */
extern const struct sink_ops report_sink_ops;

struct report *report_new(FILE *out, enum report_mode mode, int quiet);
void report_free(struct report *r);

/* Declare a flow before its intervals: id as in [flow ID], desc e.g.
 * "udp_stream sender1 -> receiver". */
void report_flow(struct report *r, int id, const char *desc);
/* Text: the header line is printed before the first interval. */
void report_interval(struct report *r, int flow, double t_start, double t_end, uint64_t bytes);
/* The same with the flow's iperf3 figures at t_end (NULL: none): TCP rows
 * get iperf3's Retr and Cwnd columns, UDP rows Jitter and Lost/Total
 * Datagrams, and the summary iperf3's sender and receiver lines. */
void report_interval_info(struct report *r, int flow, double t_start, double t_end, uint64_t bytes,
                          const struct flow_info *info);
/* A probe result line such as ping's: "ping sender1 -> receiver: rtt
 * min/avg/max/mdev = 50.195/50.195/50.195/0.000 us, 10 sent, 10 received". */
void report_line(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One port's `tc -s qdisc show` text (--tc-stats), for the JSON document's
 * tc_stats; the text report prints it itself. */
void report_tc_stats(struct report *r, const char *host, const char *port, const char *text);
/* Counters. is_drop marks a drop cause: the summary lists those with a
 * non-zero value under "Drops by cause"; all go to JSON "counters". A name
 * reported again replaces the earlier value. */
void report_counter(struct report *r, const char *name, double value, int is_drop);
/* One profile row; report_end prints them perf-style per host when
 * show_profile was set: "# Overhead  ns/op  Calls  Symbol" sorted by share
 * of that host's total CPU ns. Rows for the same (host, symbol) add up. */
void report_profile(struct report *r, const char *host, const char *symbol, double cpu_ns, uint64_t calls);
void report_show_profile(struct report *r, int on);
/* Summary (per-flow totals over [first interval start, last interval
 * end], or [0, sim_s] for a flow without intervals; drops; profile; status
 * line) or the JSON document. status is "complete" or "interrupted".
 * Prints once; later calls do nothing. */
void report_end(struct report *r, double sim_s, double wall_s, uint64_t events, const char *status);

#endif
