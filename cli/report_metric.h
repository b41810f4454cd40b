/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_metric.h - what a row of `netsim report` measures: the metrics,
 * each one definition (its unit, its verdict's direction and its SQL per
 * run, flow, host or message size bucket), read by report and plot alike
 * (report_metric.c).
 */
#ifndef NETSIM_CLI_REPORT_METRIC_H
#define NETSIM_CLI_REPORT_METRIC_H

#include <sqlite3.h>
#include <stdio.h>

/* ---- report_metric.c: what a row measures --------------------------------- */

enum report_by { BY_RUN, BY_FLOW, BY_HOST, BY_SIZE };
#define REPORT_NBY 4
enum metric_kind { METRIC_RATE, METRIC_COUNT, METRIC_PLAIN };
/* Which way is better: --compare's verdict and plot's axis say it. A
 * metric with no better side (a counter of events that are neither good
 * nor bad, such as qdisc requeues) gets "higher" or "lower". */
enum metric_dir { DIR_HIGHER_BETTER, DIR_LOWER_BETTER, DIR_NEITHER };

struct metric {
    const char *name;           /* "goodput", ..., "counter" (counter:NAME) */
    const char *unit;           /* of the value: "bits/sec" (scaled as iperf3's), "segments", "ms", "" */
    enum metric_kind kind;
    enum metric_dir dir;        /* counter: decided per use from the counters matched */
    const char *doc;
    const char *sql[REPORT_NBY]; /* per report_by: rows (run_id, entity, value); NULL: not by that */
    const char *quantity;       /* what a plot's axis and title call it: "goodput", "Jain's fairness index" */
};

struct metric_use {
    const struct metric *m;
    const char *pattern;        /* counter:NAME's NAME */
    const char *label;          /* as the user wrote it */
    enum report_by by;
    enum metric_dir dir;        /* the metric's, or the counters' (metric_resolve_dir) */
};

/* Who the messages of report_*.c name: "netsim report" unless the command
 * reading the database (netsim plot) says otherwise. */
extern const char *report_prog;

/* --metric and --by as given (by may be NULL: per run). 0, or 2 after
 * saying why. */
int metric_parse(const char *metric, const char *by, struct metric_use *u);
const char *metric_by_name(enum report_by by);
/* counter:NAME's direction, from the names its pattern matches in db:
 * all of one direction gives that one, a mix or none gives neither. */
void metric_resolve_dir(sqlite3 *db, struct metric_use *u);
/* A counter's direction from its name and its is_drop flag. */
enum metric_dir counter_dir(const char *name, int is_drop);
/* "higher is better", "lower is better", "neither higher nor lower is better" */
const char *metric_dir_words(enum metric_dir d);
/* One line per metric for the help text. */
void metric_help(FILE *f);
/* The metric's query on db with its parameter bound. 0 or -1. */
int metric_query(sqlite3 *db, const struct metric_use *u, sqlite3_stmt **st);

#endif
