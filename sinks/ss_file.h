/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ss_file.h - the socket-state file of a run: every `sock` row (sink.h),
 * the samples of the flows that set ss_interval, as text in the layout of
 * `ss -tmi` (docs/usage.md, "Socket state"):
 *
 *   # netsim ss -tmi: scenario tcp_drs, seed 1, rep 0
 *   State  Recv-Q Send-Q   Local Address:Port    Peer Address:Port
 *   # t=0.100000000 host=sender flow=1
 *   ESTAB  0      1448760       10.0.0.1:40000        10.0.0.2:5201
 *   	 skmem:(r0,rb131072,t...) cubic wscale:7,7 rto:201 rtt:0.5/0.25 ...
 *
 * One "# t=" line per socket sample (simulated seconds, the sampling host
 * and the flow), then ss's state line and its info line.
 */
#ifndef NETSIM_SS_FILE_H
#define NETSIM_SS_FILE_H

#include <stdint.h>
#include <stdio.h>
#include "sim/sink.h"

struct ss_file;

/* The file as a sink; ctx a struct ss_file. */
extern const struct sink_ops ss_file_sink_ops;

/* A sink that writes to path, its first line naming the run. The file is created at the first sample, so
 * that a run whose flows sample nothing leaves none (and a run that
 * cannot create it still runs: ss_file_close says so). NULL when out of
 * memory. */
struct ss_file *ss_file_new(const char *path, const char *scenario, uint64_t seed, int rep);
/* Closes the file; if one was written and `final` is not NULL, renames it
 * to final (the name wanted the run's id, known once the run is
 * recorded). Says on report what was written and where. Returns 0 (also
 * when nothing was sampled), or -1 after an error, reported. Frees f. */
int ss_file_close(struct ss_file *f, const char *final, FILE *report);

#endif
