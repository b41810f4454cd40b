/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_model.h - the runs of a results database as `netsim report`
 * and `netsim plot` read them (report_db.c fills them), and the sets and
 * combinations they are grouped into (report_group.c).
 */
#ifndef NETSIM_CLI_REPORT_MODEL_H
#define NETSIM_CLI_REPORT_MODEL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli/report_metric.h"

/* One row of the measure: a complete run, or with --by one flow or host
 * of it; the rows of one run share its strings (owner: the first). */
struct rrun {
    int64_t id;
    char *scenario;             /* NULL for SQL NULL, like every string here */
    char *hash;
    int64_t rep, seed;
    double value;               /* the metric: bit/s for goodput */
    char *entity;               /* --by flow: the flow id; --by host: its name; NULL per run */
    char *label;                /* --by flow: the flow's label.flow.N */
    int shares;                 /* the strings above entity belong to an earlier row */
    uint64_t fingerprint;       /* of its non-axis params but sim.seed */
    char **vals;                /* value of each axis, NULL where it has none */
};

struct rdb {
    const char *path;
    sqlite3 *db;
    struct metric_use use;
    char **axes;                /* names without "axis.", in order of first appearance */
    int naxes;
    struct rrun *runs;          /* by id */
    size_t nruns;
    size_t complete;            /* complete runs, with or without intervals */
    size_t no_intervals;        /* complete runs left out: no value of the metric (goodput:
                                   no interval rows or an empty span) */
    int nscenarios;             /* distinct scenario names */
    int versions;               /* some scenario has runs of two versions */
};

/* A set of runs (indices into rdb.runs, ascending). */
struct rset {
    size_t *idx;
    size_t n, cap;
};

/* A combination: its runs, lowest id first. */
struct combo {
    struct rset runs;
};

struct combos {
    struct combo *c;
    size_t n, cap;
};

/* Strings from the database may be NULL (SQL NULL): equal when both are. */
static inline int str_same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

#endif
