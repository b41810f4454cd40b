/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_json.h - the report as one JSON document: iperf3's -J for the
 * flows it would show, with netsim's own figures beside them.
 */
#ifndef NETSIM_SINKS_REPORT_JSON_H
#define NETSIM_SINKS_REPORT_JSON_H

#include "sinks/report_state.h"

void rep_print_json(struct report *r, double sim_s, double wall_s, uint64_t events, const char *status);

#endif
