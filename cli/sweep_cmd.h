/*
 * sweep_cmd.h - what the pieces of `netsim sweep` share: the sweep's
 * context and the calls between the command line (sweep_cmd.c), the look
 * at what earlier sweeps left (sweep_resume.c) and the worker pool
 * (sweep_pool.c). Private to those three files.
 */
#ifndef NETSIM_CLI_SWEEP_CMD_H
#define NETSIM_CLI_SWEEP_CMD_H

#include <stdbool.h>

struct cfg;
struct rec;

#define MAX_SETS 256

/* Everything a run needs, shared by the parent and (after fork) the child. */
struct sweep_ctx {
    const char *path;            /* scenario file */
    const char *sets[MAX_SETS];  /* --set assignments */
    int nsets;
    char *stem;                  /* scenario name: file stem */
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
/* asprintf that exits the process with "out of memory" when it fails. */
/* The scenario as run `run` sees it: a fresh load, the overrides, the
 * run's axis values. Exits the process when out of memory. */
struct cfg *sweep_run_cfg(const struct sweep_ctx *x, int run);

/* sweep_resume.c: before the runs. Each returns 0, or the exit status
 * with the message printed; *kept counts the runs kept (and unselected). */
int sweep_prepare_output(struct sweep_ctx *x, bool resume, int *kept);
int sweep_take_leftovers(struct sweep_ctx *x, const char *wanted, bool resume, int *kept);

/* sweep_pool.c: runs the selected runs, -j at a time, into dst; kept is
 * only for the summary. Returns the exit status. */
int sweep_run_pool(struct sweep_ctx *x, struct rec *dst, int kept);

#endif
