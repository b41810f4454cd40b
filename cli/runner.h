/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runner.h - one run of a scenario, start to finish: build the world from
 * a loaded (and overridden) scenario, record into a results database, print
 * the report. `netsim run` is one call; `netsim sweep` calls it per run.
 */
#ifndef NETSIM_RUNNER_H
#define NETSIM_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "sim/pcap.h"

struct cfg;
struct rec;

struct run_opts {
    const char *scenario_path;   /* for the scenario hash */
    const char *scenario;        /* name stored in run.scenario (file stem) */
    const char *variant_label;   /* "" for a plain run */
    uint64_t seed;               /* used when have_seed */
    bool have_seed;
    int rep;                     /* replication index; seed derived when !have_seed */
    const char *const *extra_params;   /* key, value, ..., NULL: e.g. "axis.high", "4M" */
    FILE *out;                   /* report destination; NULL: no report */
    bool json, quiet, profile, progress;
    bool tc_stats;               /* print every qdisc tree as tc -s qdisc show (text reports only) */
    int64_t run_id;              /* > 0: record the run under this id (a sweep's run number) */
    /* Not NULL: before simulating, the run's row and parameters are
     * committed here as 'failed' with claim_error, so that the run is on
     * disk even if everything after fails (run_record.h). */
    struct rec *claim;
    const char *claim_error;
    /* Not NULL: called once the run is committed to rec, with its id, or
     * with -1 when it could not be; returns the run's id where it was
     * delivered (> 0), or -1 with a line for the report in msg (the run
     * did not reach its database: exit status 1). */
    int64_t (*deliver)(void *arg, int64_t run_id, char *msg, size_t n);
    void *deliver_arg;
    /* pcap.dir not NULL: capture the chosen ports there (sim/pcap.h) */
    struct pcap_opts pcap;
    /* Not NULL: the world already built from cfg with this seed (netsim
     * run builds it before it opens the database, to refuse a bad
     * scenario first); runner_run takes it over, and frees it, instead
     * of building it again. */
    struct sim *built;
    /* Where the socket samples of flows with ss_interval go
     * (sinks/ss_file.h): ss_path; or, when that is NULL and ss_base is
     * set, ss_base.runID.ss.txt, ID the run's id in its database (known
     * once delivered: until then the file is ss_base.run-pending-PID.ss.txt).
     * Both NULL: the samples go to the series only. */
    const char *ss_path, *ss_base;
};

/* Returns 0 complete, 1 simulation or database error, 2 scenario errors
 * (printed to stderr; nothing was written), 130 interrupted (recorded as
 * 'interrupted'). rec may be NULL (no database). A failing claim is an
 * error before anything runs (1). */
int runner_run(struct cfg *cfg, const struct run_opts *o, struct rec *rec);

/* Ask the running simulation to stop (signal handlers). */
void runner_interrupt(void);

/* The ss_base of the results database db: its path less ".db". */
void runner_ss_base(const char *db, char *buf, size_t n);

#endif
