/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_text.h - the console report as iperf3 prints it: a row per
 * interval under its header, then the summary, drops by cause and the
 * CPU profile as perf prints it.
 */
#ifndef NETSIM_SINKS_REPORT_TEXT_H
#define NETSIM_SINKS_REPORT_TEXT_H

#include "sinks/report_state.h"

/* "[  1]   0.00-1.00   sec  1.11 GBytes  9.57 Gbits/sec", then iperf3's
 * Retr and Cwnd (TCP) or Jitter and Lost/Total (UDP) when info is given,
 * then "   desc" if desc is not empty. */
void rep_print_row(struct report *r, int flow, double t_start, double t_end, uint64_t bytes,
                   const struct flow_info *info, const char *desc);
void rep_print_header(struct report *r);
void rep_print_summary(struct report *r, double sim_s, double wall_s, uint64_t events, const char *status);

#endif
