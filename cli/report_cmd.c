/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_cmd.c - `netsim report DB [--compare AXIS=A,B] [--metric M]
 * [--by flow|host|size] [--json]`: the statistics of a results database, per
 * sweep combination (and flow or host) over its repeats, or variant B
 * against variant A on paired seeds. The metrics are report_metric.c's. This file is
 * the command line; reading the database is report_db.c's, grouping and
 * the statistics report_group.c's, the tables and JSON report_print.c's.
 *
 * A run's goodput is the bytes of all its interval rows (every flow) x 8
 * over the span from the first interval's start to the last one's end, in
 * bit/s; only runs with status 'complete' count. A sweep records the value
 * of each axis as the param "axis.NAME"; runs with the same axis values
 * (and the same scenario and scenario version) form a combination, listed
 * in order of their lowest run id. Within a combination, a run with the
 * seed, rep and parameters of an earlier one is left out: the simulator
 * is deterministic, so it is the same measurement again and would shrink
 * the interval without adding information.
 *
 * --compare pairs runs of AXIS=A and AXIS=B by rep, within each
 * combination of the other axes. Replication r of every combination runs
 * on the same seed (sweep.h), so the pair shares its random streams and
 * the per-pair %change isolates the variant's effect. Axes that move in
 * lockstep with AXIS (their value follows it) are not other axes: they
 * change with it.
 *
 * The whole database is read into memory first (a few numbers and the
 * axis values per run): 10^5 runs are a few MB, and the grouping is then
 * plain loops. Groups are found by linear search over the groups seen so
 * far, O(runs x combinations), fine for the thousands a sweep has.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "sim/xalloc.h"
#include "cli/commands.h"
#include "cli/report_db.h"
#include "cli/report_group.h"
#include "cli/report_print.h"

static const char usage_report[] =
    "usage: netsim report DB [options]\n"
    "\n"
    "A metric (goodput unless --metric) of the complete runs in the results\n"
    "database DB: one row per sweep combination (the values of its ${...}\n"
    "axes), or with --by per flow or host of each, over its repeats: mean,\n"
    "standard deviation and the 95% confidence interval of the mean\n"
    "(Student's t, n-1 degrees of freedom). A run's goodput is the bytes of\n"
    "all its flows x 8 over its first-to-last interval span.\n"
    "\n"
    "options:\n"
    "      --compare AXIS=A,B  B against A on paired seeds (the same rep) for\n"
    "                          every combination of the other axes: mean %change\n"
    "                          with its 95% interval and the paired t test's p;\n"
    "                          REGRESSION when the interval is all on the worse\n"
    "                          side of 0 (below for goodput and jain, above for\n"
    "                          retransmits, rtt and drops; for counter:NAME as the\n"
    "                          counters matched: above for drops, errors, RTOs,\n"
    "                          retransmissions, below for goodput; a counter with\n"
    "                          no better side gives higher or lower),\n"
    "                          improvement when all on the other, else no change.\n"
    "                          e.g. --compare tcp.drs=trimodal,continuous\n"
    "      --metric NAME       what to measure (default goodput):\n"
    "%s"
    "      --by flow|host|size a row per flow (with its label), per host or per\n"
    "                          message size bucket (0,100KB], (100KB,10MB],\n"
    "                          (10MB,inf) of each combination, instead of per run\n"
    "\n"
    "A database whose runs have no goodput but messages (app = rpc, incast)\n"
    "gets, without --metric, the tables of fct_p50/p99/p999 and\n"
    "slowdown_p50/p99/p999 by size, and of round_p50, round_p99 and\n"
    "rto_rounds (--json: an array of their documents). A percentile is per\n"
    "run (nearest rank); the statistics are over the runs, as for goodput.\n"
    "      --json              print one JSON document instead of tables\n"
    "  -h, --help              this text\n"
    "\n"
    "Exit status: 0 success, 1 database missing or without complete runs,\n"
    "2 bad usage (unknown axis or value included).\n";

/* The help text, with the metrics' lines where usage_report says %s. */
static void usage(FILE *f)
{
    const char *at = strstr(usage_report, "%s");
    fwrite(usage_report, 1, (size_t)(at - usage_report), f);
    metric_help(f);
    fputs(at + 2, f);
}

/* Without --compare: one row per combination. */
static int report_combinations(const struct rdb *d, int json)
{
    struct combo_report r;

    group_combinations(d, &r);
    print_combinations(d, &r, json);
    combo_report_free(&r);
    return 0;
}

static int report_compare(const struct rdb *d, const char *arg, int json)
{
    struct compare_report r;
    int rc = group_compare(d, arg, &r);

    if (rc == 0)
        print_compare(d, &r, json);
    compare_report_free(&r);
    return rc;
}

/* Rows of the message table of each category: messages (not rounds),
 * incast rounds. Zero where the file has no such table (schema 2). */
static void message_rows(sqlite3 *db, int64_t *msgs, int64_t *rounds)
{
    sqlite3_stmt *st;
    *msgs = *rounds = 0;
    if (sqlite3_prepare_v2(db, "SELECT total(kind != 'round'), total(kind = 'round') FROM message", -1, &st,
                           NULL) != SQLITE_OK)
        return;
    if (sqlite3_step(st) == SQLITE_ROW) {
        *msgs = sqlite3_column_int64(st, 0);
        *rounds = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
}

/* A database of message runs only (rpc, incast) has no goodput: what
 * report shows then, each a table of its own (one JSON array of the
 * documents): the completion time and slowdown percentiles by size
 * bucket, and the incast rounds'. */
static int report_messages(const char *path, int64_t msgs, int64_t rounds, const char *compare, int json)
{
    static const struct { const char *metric, *by; int rounds; } list[] = {
        { "fct_p50", "size", 0 },      { "fct_p99", "size", 0 },      { "fct_p999", "size", 0 },
        { "slowdown_p50", "size", 0 }, { "slowdown_p99", "size", 0 }, { "slowdown_p999", "size", 0 },
        { "round_p50", NULL, 1 },      { "round_p99", NULL, 1 },      { "rto_rounds", NULL, 1 },
    };
    int rc = 0, n = 0;
    if (json)
        fputs("[\n", stdout);
    for (size_t i = 0; i < sizeof list / sizeof list[0] && !rc; i++) {
        if (!(list[i].rounds ? rounds : msgs))
            continue;
        struct metric_use use;
        struct rdb d;
        if (metric_parse(list[i].metric, list[i].by, &use) != 0)
            return 2;
        if (rdb_load(&d, path, &use) != 0) {
            rdb_free(&d);
            return 1;
        }
        if (d.nruns) {
            fputs(n++ ? (json ? ",\n" : "\n") : "", stdout);
            rc = compare ? report_compare(&d, compare, json) : report_combinations(&d, json);
        }
        rdb_free(&d);
    }
    if (json)
        fputs("]\n", stdout);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {
        { "compare", required_argument, 0, 'c' }, { "json", no_argument, 0, 'J' },
        { "metric", required_argument, 0, 'm' },  { "help", no_argument, 0, 'h' },
        { "by", required_argument, 0, 'b' },      { 0, 0, 0, 0 },
    };
    const char *compare = NULL, *metric = "goodput", *by = NULL;
    int metric_given = 0;
    struct metric_use use;
    struct rdb d;
    int c, json = 0, rc;

    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'c': compare = optarg; break;
        case 'J': json = 1; break;
        case 'm': metric = optarg; metric_given = 1; break;
        case 'b': by = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "netsim report: expected one results database DB\n\n");
        usage(stderr);
        return 2;
    }
    if (metric_parse(metric, by, &use) != 0)
        return 2;
    if (rdb_load(&d, argv[optind], &use) != 0) {
        rdb_free(&d);
        return 1;
    }
    if (d.nruns == 0 && d.complete && !metric_given && !by) {
        int64_t msgs, rounds;
        message_rows(d.db, &msgs, &rounds);
        if (msgs || rounds) {
            rdb_free(&d);
            return report_messages(argv[optind], msgs, rounds, compare, json);
        }
    }
    if (d.nruns == 0) {
        if (d.complete)
            fprintf(stderr, "netsim report: %s: none of its %zu complete runs has a value of %s\n", d.path,
                    d.complete, use.label);
        else
            fprintf(stderr, "netsim report: %s: no complete runs\n", d.path);
        rdb_free(&d);
        return 1;
    }
    rc = compare ? report_compare(&d, compare, json) : report_combinations(&d, json);
    rdb_free(&d);
    return rc;
}
