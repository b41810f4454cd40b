/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sink.h - where a run's results go. The engine and the models emit
 * through sim_emit_*() (sim.h); each emission goes to every sink added to
 * the run, in the order they were added. The results database
 * (sinks/record_sink.c), the console table and the JSON document
 * (sinks/report.c) are sinks; a new output (a trace file, a capture) is
 * one more ops table, and nothing in the engine changes.
 *
 * The contract, after Redis's ae and the kernel's ops tables: `name` is
 * required; every other member is optional, NULL meaning "this sink
 * ignores that kind of row"; sim_add_sink() refuses an ops table without
 * a name or with no member at all. Members are called only between
 * run_begin and run_end, from one thread. Times are simulated time
 * (simtime_t, exact), so that every sink derives seconds and rates the
 * same way. A sink keeps its own error state: the emission calls return
 * nothing (a failed insert is reported when the run ends, by run_end's
 * result). A sink that can keep nothing more of the run (its database is
 * full) says so through `failed`, and the run stops there rather than
 * simulate for nothing.
 */
#ifndef NETSIM_SINK_H
#define NETSIM_SINK_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/time.h"

/* What identifies a run: the run row of the database. */
struct flow_info;

struct sink_run {
    const char *scenario;        /* scenario name (file stem) */
    const char *variant_label;   /* e.g. "tcp.drs=continuous", "" if none */
    const char *scenario_hash;   /* hex digest of the scenario file */
    uint64_t seed;
    int rep;
    int64_t id;                  /* > 0: the run's number (a sweep's); 0: the sink's next */
};

/* One message of an application that moves messages (a request and its
 * response, an incast block, a round, a flow of a fixed number of
 * bytes): when it began and ended in simulated time, its size, and the
 * time it would take alone on the empty path (the application works it
 * out from the route: sink.h's users need not know the topology). */
struct sink_message {
    int flow;
    uint64_t id;                 /* 1, 2, ... in the flow, per kind */
    const char *kind;            /* "rpc", "block", "round", "bulk" */
    uint64_t size;               /* the application's bytes (a response's; a round's total) */
    simtime_t t_start, t_end;
    simtime_t ideal;             /* base RTT + wire bytes / bottleneck rate; 0: none */
    uint32_t rtos;               /* retransmission timeouts on its connections while it was open */
};

/* How a run ended. */
struct sink_end {
    const char *status;          /* "complete", "interrupted" or "failed" */
    double wall_s, sim_s;
    uint64_t events;
    const char *error;           /* NULL unless failed */
};

struct sink_ops {
    const char *name;                                                       /* required */
    /* Returns the run's id (> 0), 0 when the sink numbers nothing, or -1. */
    int64_t (*run_begin)(void *ctx, const struct sink_run *run);            /* optional */
    int (*param)(void *ctx, const char *key, const char *value);           /* optional: 0 or -1 */
    /* A flow with an interval table, before its first interval. */
    void (*flow)(void *ctx, int id, const char *desc);                     /* optional */
    /* info: the flow's iperf3 figures at t1 (sim.h), or NULL */
    void (*interval)(void *ctx, int flow, simtime_t t0, simtime_t t1, uint64_t bytes,
                     const struct flow_info *info);                       /* optional */
    void (*series)(void *ctx, const char *name, simtime_t t, double value); /* optional */
    void (*counter)(void *ctx, const char *name, uint64_t value, bool is_drop); /* optional */
    /* cpu: the core of host the row is for (perf record -C), or -1 for the
     * whole host. */
    void (*profile)(void *ctx, const char *host, int cpu, const char *symbol, double cpu_ns,
                    uint64_t calls);                                      /* optional */
    /* A probe's result line, e.g. ping's summary. */
    void (*line)(void *ctx, const char *text);                             /* optional */
    /* One socket's state as `ss -tmi` on host prints it at t: the state
     * line ("ESTAB 0 0 10.0.0.1:40000 10.0.0.2:5201"), a newline and the
     * info line ("\t skmem:(...) cubic ..."), for the flow's ss_interval. */
    void (*sock)(void *ctx, int flow, const char *host, simtime_t t, const char *text); /* optional */
    /* A message completed (struct sink_message). */
    void (*message)(void *ctx, const struct sink_message *m);              /* optional */
    int (*run_end)(void *ctx, const struct sink_end *end);                 /* optional: 0 or -1 */
    /* NULL while the sink can keep the run; else why it cannot (its
     * database is full, a row was lost): the run then stops at once, as
     * nothing it does from then on would be kept. Asked every 10 ms of
     * simulated time. */
    const char *(*failed)(void *ctx);                                     /* optional */
};

/* The columns of ss's state line, for the ss file's titles and each
 * socket's line (sim_ss_state_line): State, Recv-Q, Send-Q, local and
 * peer address:port. */
#define SINK_SS_COLUMNS "%-6s %-6s %-6s %20s %20s"

struct sink {
    const struct sink_ops *ops;
    void *ctx;
};

/* 0 when ops keeps the contract above; -1 otherwise. */
int sink_ops_check(const struct sink_ops *ops);

#endif
