/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep_ctx.h - one sweep as its pieces share it: the scenario, its
 * overrides and axes, the runs selected and where they go. The command
 * line (sweep_cmd.c) fills it; the look at what earlier sweeps left
 * (sweep_resume.c) and the worker pool (sweep_pool.c) read it, and each
 * builds a run's scenario from it (sweep_run_cfg) without knowing the
 * others.
 */
#ifndef NETSIM_CLI_SWEEP_CTX_H
#define NETSIM_CLI_SWEEP_CTX_H

#include <stdbool.h>
#include <stddef.h>

struct cfg;
struct sweep;

#define MAX_SETS 256

/* Everything a run needs, shared by the parent and (after fork) the child. */
struct sweep_ctx {
    const char *path;            /* scenario file */
    char *text;                  /* its bytes, read once (a pipe cannot be read again) */
    size_t len;
    const char *sets[MAX_SETS];  /* --set assignments */
    int nsets;
    const char *picks[MAX_SETS]; /* --set AXIS=VALUE: one value of an axis (sweep_pick) */
    int npicks;
    char *stem;                  /* scenario name: [sim] name, else the file stem */
    char hash[17];               /* scenario version */
    struct sweep *sw;
    int nruns;
    char *selected;              /* [1..nruns]: run it (--shard, --only, --resume) */
    const char *out;             /* output database */
    int jobs;
    bool quiet, tty;
};

/* CLOCK_MONOTONIC in seconds. */
double sweep_now(void);
/* The scenario as run `run` sees it: a fresh load, the overrides, the
 * run's axis values. Exits the process when out of memory. */
struct cfg *sweep_run_cfg(const struct sweep_ctx *x, int run);

#endif
