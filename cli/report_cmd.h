/*
 * report_cmd.h - what the pieces of `netsim report` share: the runs as
 * read from the database (report_db.c), their grouping into combinations
 * and the statistics of each row (report_group.c), which the tables and
 * JSON of report_print.c show. Private to cli/report_*.c.
 */
#ifndef NETSIM_CLI_REPORT_CMD_H
#define NETSIM_CLI_REPORT_CMD_H

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/stats.h"
#include "sim/xalloc.h"

/* ---- report_metric.c: what a row measures --------------------------------- */

enum report_by { BY_RUN, BY_FLOW, BY_HOST };
enum metric_kind { METRIC_RATE, METRIC_COUNT, METRIC_PLAIN };

struct metric {
    const char *name;           /* "goodput", ..., "counter" (counter:NAME) */
    const char *unit;           /* of the value: "bits/sec" (scaled as iperf3's), "segments", "ms", "" */
    enum metric_kind kind;
    int lower_is_better;        /* --compare's verdict: a rise is the REGRESSION */
    const char *doc;
    const char *sql[3];         /* per report_by: rows (run_id, entity, value); NULL: not by that */
};

struct metric_use {
    const struct metric *m;
    const char *pattern;        /* counter:NAME's NAME */
    const char *label;          /* as the user wrote it */
    enum report_by by;
};

/* --metric and --by as given (by may be NULL: per run). 0, or 2 after
 * saying why. */
int metric_parse(const char *metric, const char *by, struct metric_use *u);
const char *metric_by_name(enum report_by by);
/* One line per metric for the help text. */
void metric_help(FILE *f);
/* The metric's query on db with its parameter bound. 0 or -1. */
int metric_query(sqlite3 *db, const struct metric_use *u, sqlite3_stmt **st);

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


/* ---- report_db.c ---------------------------------------------------------- */

/* Opens DB read-only and reads it, measuring u. Returns 0, or 1 after
 * saying why; rdb_free() either way. */
int rdb_load(struct rdb *d, const char *path, const struct metric_use *u);
void rdb_free(struct rdb *d);

/* ---- report_group.c ------------------------------------------------------- */

/* Without --compare: a row per combination, over its runs but those
 * repeating the seed, rep and parameters of an earlier one. */
struct combo_row {
    size_t n;                   /* runs counted */
    int64_t *ids;               /* their ids */
    struct stats_summary sum;   /* of their goodput */
};

struct combo_report {
    struct combos cs;
    struct combo_row *rows;     /* one per cs.c[] */
    size_t repeated;            /* runs left out as repeats */
};

/* Groups and summarizes d's runs; warns (stderr) about mixed rows. */
void group_combinations(const struct rdb *d, struct combo_report *r);
void combo_report_free(struct combo_report *r);

struct compare_spec {
    char *axis, *a, *b;         /* one malloc'ed buffer: axis */
};

/* --compare: a row per combination of the other axes, its B runs paired
 * with its A runs by rep. */
struct compare_row {
    size_t n, unpaired;         /* pairs compared; runs without a partner */
    struct stats_paired p;
};

struct compare_report {
    struct compare_spec cmp;
    int ax;                     /* the axis compared */
    char *moves;                /* per axis: moves with ax (mark_lockstep) */
    struct combos cs;
    struct compare_row *rows;   /* one per cs.c[] */
    size_t unpaired, repeated, zero_a, without;   /* runs left out, by reason */
};

/* Parses "AXIS=A,B", groups and pairs d's runs and compares each row.
 * Returns 0, or 2 (bad usage) after saying why; compare_report_free()
 * either way. */
int group_compare(const struct rdb *d, const char *arg, struct compare_report *r);
void compare_report_free(struct compare_report *r);

/* ---- report_print.c ------------------------------------------------------- */

/* The rows as a table with notes, or as one JSON document, on stdout. */
void print_combinations(const struct rdb *d, const struct combo_report *r, int json);
void print_compare(const struct rdb *d, const struct compare_report *r, int json);

#endif
