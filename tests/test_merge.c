/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_merge.c - the `netsim merge` command (shards combined, refusals,
 * renumbering) and `netsim report` on the merged result (exact tables).
 * The copy underneath is tested by test_record_copy.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/commands.h"
#include "sinks/record.h"
#include "tests/tmpdir.h"
#include "tests/record_fixture.h"

/* ------------------------------------------------------------------ */
/* netsim merge                                                         */

/* Runs a subcommand with stdout and stderr captured; returns its status. */
static int capture(const struct tmp *t, int (*cmd)(int, char **), char **out, char **err, int argc, char **argv)
{
    char po[256], pe[256];
    int so = dup(1), se = dup(2), fo, fe, rc;

    snprintf(po, sizeof po, "%s/stdout", t->dir);
    snprintf(pe, sizeof pe, "%s/stderr", t->dir);
    fflush(stdout);
    fflush(stderr);
    fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fo >= 0 && fe >= 0);
    dup2(fo, 1);
    dup2(fe, 2);
    rc = cmd(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so), close(se), close(fo), close(fe);

    for (int k = 0; k < 2; k++) {
        FILE *f = fopen(k ? pe : po, "r");
        char *buf = calloc(1, 4096);
        assert_non_null(f);
        assert_non_null(buf);
        (void)!fread(buf, 1, 4095, f);
        fclose(f);
        *(k ? err : out) = buf;
    }
    return rc;
}

static int merge(const struct tmp *t, char **out, char **err, int argc, char **argv)
{
    return capture(t, cmd_merge, out, err, argc, argv);
}

static void test_merge_command(void **state)
{
    struct tmp *t = *state;
    char *o, *e, line[512];
    char *argv[] = { "merge", t->out, t->a, t->b, NULL };

    write_shards(t);
    assert_int_equal(merge(t, &o, &e, 4, argv), 0);
    snprintf(line, sizeof line, "merged 4 runs from 2 databases into %s (0 duplicates skipped)\n", t->out);
    assert_string_equal(o, line);
    assert_string_equal(e, "");
    free(o), free(e);
    for (int64_t id = 1; id <= 4; id++)
        assert_same_run(id <= 2 ? t->a : t->b, id, t->out, id);

    /* Again: everything is a duplicate, nothing changes. */
    int64_t before = total_rows(t->out);
    assert_int_equal(merge(t, &o, &e, 4, argv), 0);
    snprintf(line, sizeof line, "merged 0 runs from 2 databases into %s (4 duplicates skipped)\n", t->out);
    assert_string_equal(o, line);
    free(o), free(e);
    assert_int_equal(total_rows(t->out), before);
}

static void test_merge_command_refusals(void **state)
{
    struct tmp *t = *state;
    char *o, *e, missing[256], c[128];
    struct rec *r;
    struct rec_run_info v2 = run_info("h2", "high=1M", 11, 0, 5);

    write_shards(t);
    snprintf(missing, sizeof missing, "%s/missing.db", t->dir);
    snprintf(c, sizeof c, "%s/c.db", t->dir);
    r = must_open(c);
    assert_int_equal(write_run(r, &v2, 1, "complete", NULL), 5);
    rec_close(r);

    /* Usage. */
    char *argv1[] = { "merge", t->out, NULL };
    assert_int_equal(merge(t, &o, &e, 2, argv1), 2);
    assert_non_null(strstr(e, "usage: netsim merge"));
    free(o), free(e);
    char *argvh[] = { "merge", "--help", NULL };
    assert_int_equal(merge(t, &o, &e, 2, argvh), 0);
    assert_non_null(strstr(o, "usage: netsim merge OUT.db IN.db..."));
    free(o), free(e);

    /* A missing input: named, and OUT is not even created. */
    char *argv2[] = { "merge", t->out, t->a, missing, NULL };
    assert_int_equal(merge(t, &o, &e, 4, argv2), 1);
    assert_non_null(strstr(e, missing));
    assert_int_equal(access(t->out, F_OK), -1);
    free(o), free(e);

    /* Another version of the scenario in the second input: refused before
     * anything is written, the offending file named. */
    char *argv3[] = { "merge", t->out, t->a, c, t->b, NULL };
    assert_int_equal(merge(t, &o, &e, 5, argv3), 1);
    assert_string_equal(o, "");
    assert_non_null(strstr(e, c));
    assert_non_null(strstr(e, "scenario version h2 differs from h1 already in DB"));
    assert_int_equal(access(t->out, F_OK), -1);
    free(o), free(e);

    /* Against an existing OUT too; OUT keeps its rows. */
    char *argv4[] = { "merge", t->out, t->a, NULL };
    assert_int_equal(merge(t, &o, &e, 3, argv4), 0);
    free(o), free(e);
    int64_t before = total_rows(t->out);
    char *argv5[] = { "merge", t->out, c, NULL };
    assert_int_equal(merge(t, &o, &e, 3, argv5), 1);
    assert_non_null(strstr(e, c));
    assert_int_equal(total_rows(t->out), before);
    free(o), free(e);

    /* OUT as an input. */
    char *argv6[] = { "merge", t->out, t->b, t->out, NULL };
    assert_int_equal(merge(t, &o, &e, 4, argv6), 2);
    assert_non_null(strstr(e, "cannot also be an input"));
    free(o), free(e);
}

/* Runs whose ids are taken get new ones; the note says how many. */
static void test_merge_command_renumbers(void **state)
{
    struct tmp *t = *state;
    char *o, *e, line[512];
    struct rec *b;
    struct rec_run_info i = run_info("h1", "high=3M", 31, 0, 1);
    char *argv[] = { "merge", t->out, t->a, t->b, NULL };

    write_shards(t);
    b = must_open(t->b);
    assert_int_equal(write_run(b, &i, 7, "failed", "x"), 1);
    rec_close(b);
    assert_int_equal(merge(t, &o, &e, 4, argv), 0);
    snprintf(line, sizeof line, "merged 5 runs from 2 databases into %s (0 duplicates skipped)\n", t->out);
    assert_string_equal(o, line);
    assert_non_null(strstr(e, "1 run of"));
    free(o), free(e);
    /* b's run 1 found id 1 taken: it gets 5, after every input's ids,
     * so that b's runs 3 and 4 keep theirs. */
    assert_same_run(t->b, 1, t->out, 5);
    assert_same_run(t->b, 3, t->out, 3);
}

/* ------------------------------------------------------------------ */
/* netsim report on a merged sweep                                      */

/*
 * A run of the sweep "drs x high" with one interval of `bytes` over [0, 2] s
 * (goodput = 4 bytes bit/s), recorded as `netsim sweep` records it.
 */
static void write_sweep_run(struct rec *r, int64_t id, const char *drs, const char *high, int rep, uint64_t bytes,
                            const char *status)
{
    char label[64];
    struct rec_run_info info;

    snprintf(label, sizeof label, "drs=%s,high=%s", drs, high);
    info = run_info("h1", label, 100 + (uint64_t)rep, rep, id);
    assert_int_equal(rec_run_begin(r, &info), id);
    assert_int_equal(rec_param(r, "sim.duration", "2s"), 0);
    assert_int_equal(rec_param(r, "axis.drs", drs), 0);
    assert_int_equal(rec_param(r, "axis.high", high), 0);
    assert_int_equal(rec_interval(r, 1, 0.0, 1.0, bytes / 2, 0), 0);
    assert_int_equal(rec_interval(r, 2, 0.5, 2.0, bytes - bytes / 2, 0), 0);
    assert_int_equal(rec_run_end(r, status, 1, 1, 2, NULL), 0);
}

/*
 * Two shards: drs=old and drs=new, high=4M and 40M, reps 0..2. At 4M, old
 * gives 1.0, 1.1, 1.2 Gbit/s and new 5, 6, 7% more (d = 5, 6, 7: mean 6,
 * sd 1, half-width t_{.975,2} / sqrt(3) = 2.484, p = 1 - t / sqrt(2 + t^2)
 * = 0.0091 with t = 6 sqrt(3)); at 40M, new is 1% slower on every pair.
 * Run 12 (40M new rep 2) failed: its pair is missing.
 */
static void write_report_shards(const struct tmp *t)
{
    struct rec *a = must_open(t->a), *b = must_open(t->b);
    static const char *const drs[] = { "old", "new" }, *const high[] = { "4M", "40M" };
    int64_t id = 1;

    for (int d = 0; d < 2; d++)
        for (int h = 0; h < 2; h++)
            for (int rep = 0; rep < 3; rep++, id++) {
                uint64_t old = 250000000ULL + 25000000ULL * (uint64_t)rep;      /* bytes: 1.0, 1.1, 1.2 Gbit/s */
                uint64_t bytes = d == 0 ? old : h == 0 ? old / 100 * (uint64_t)(105 + rep) : old / 100 * 99;
                write_sweep_run(id % 2 ? a : b, id, drs[d], high[h], rep, bytes, id == 12 ? "failed" : "complete");
            }
    rec_close(a);
    rec_close(b);
}

static int report(const struct tmp *t, char **out, char **err, int argc, char **argv)
{
    return capture(t, cmd_report, out, err, argc, argv);
}

static void test_report_after_merge(void **state)
{
    struct tmp *t = *state;
    char *o, *e, expect[2048];
    char *argv_m[] = { "merge", t->out, t->a, t->b, NULL };
    char *argv_r[] = { "report", t->out, NULL };
    char *argv_c[] = { "report", t->out, "--compare", "drs=old,new", NULL };

    write_report_shards(t);
    assert_int_equal(merge(t, &o, &e, 4, argv_m), 0);
    free(o), free(e);

    assert_int_equal(report(t, &o, &e, 2, argv_r), 0);
    snprintf(expect, sizeof expect,
             "%s: 11 complete runs of frag_evict, 4 combinations; goodput = bytes of the flows x 8 / interval span\n"
             "drs  high  n  goodput     sd  95%% CI of the mean  unit\n"
             "old  4M    3    1.100  0.100  [0.852, 1.348]      Gbits/sec\n"
             "old  40M   3    1.100  0.100  [0.852, 1.348]      Gbits/sec\n"
             "new  4M    3    1.167  0.117  [0.876, 1.457]      Gbits/sec\n"
             "new  40M   2    1.040  0.070  [0.411, 1.668]      Gbits/sec\n",
             t->out);
    assert_string_equal(o, expect);
    assert_string_equal(e, "");
    free(o), free(e);

    assert_int_equal(report(t, &o, &e, 4, argv_c), 0);
    snprintf(expect, sizeof expect,
             "%s: drs=new against drs=old, paired by rep; change = (new - old) / old of goodput per pair (higher is better)\n"
             "high  pairs    old    new  unit       change  95%% CI of change        p  verdict\n"
             "4M        3  1.100  1.167  Gbits/sec  +6.00%%  [+3.52%%, +8.48%%]   0.0091  improvement\n"
             "40M       2  1.050  1.040  Gbits/sec  -1.00%%  [-1.00%%, -1.00%%]  <0.0001  REGRESSION\n"
             "note: 1 run without a partner of the same rep ignored\n",
             t->out);
    assert_string_equal(o, expect);
    free(o), free(e);
}

static void test_report_errors(void **state)
{
    struct tmp *t = *state;
    char *o, *e, missing[256];
    char *argv_m[] = { "merge", t->out, t->a, t->b, NULL };
    char *bad_axis[] = { "report", t->out, "--compare", "tcp.drs=old,new", NULL };
    char *bad_value[] = { "report", t->out, "--compare", "drs=old,cubic", NULL };
    char *bad_arg[] = { "report", t->out, "--compare", "drs=old", NULL };
    char *bad_metric[] = { "report", t->out, "--metric", "latency", NULL };
    char *no_db[] = { "report", missing, NULL };
    char *json[] = { "report", t->out, "--json", NULL };

    snprintf(missing, sizeof missing, "%s/missing.db", t->dir);
    write_report_shards(t);
    assert_int_equal(merge(t, &o, &e, 4, argv_m), 0);
    free(o), free(e);

    assert_int_equal(report(t, &o, &e, 4, bad_axis), 2);
    assert_non_null(strstr(e, "no axis 'tcp.drs'"));
    assert_non_null(strstr(e, "(axes: drs, high)"));
    free(o), free(e);
    assert_int_equal(report(t, &o, &e, 4, bad_value), 2);
    assert_non_null(strstr(e, "axis 'drs' has no value 'cubic' (values: old, new)"));
    free(o), free(e);
    assert_int_equal(report(t, &o, &e, 4, bad_arg), 2);
    free(o), free(e);
    assert_int_equal(report(t, &o, &e, 4, bad_metric), 2);
    free(o), free(e);
    assert_int_equal(report(t, &o, &e, 2, no_db), 1);
    assert_non_null(strstr(e, "missing.db"));
    assert_int_equal(access(missing, F_OK), -1);
    free(o), free(e);

    assert_int_equal(report(t, &o, &e, 3, json), 0);
    assert_non_null(strstr(o, "{\"scenario\": \"frag_evict\", \"scenario_hash\": \"h1\", "
                              "\"axes\": {\"drs\": \"old\", \"high\": \"4M\"}, \"n\": 3, "
                              "\"mean\": 1100000000, \"sd\": 100000000, "));
    free(o), free(e);

    /* No complete run: exit 1, said so. */
    struct rec_run_info i = run_info("h1", "", 1, 0, 0);
    char *only_failed[] = { "report", t->a, NULL };
    struct rec *r;
    unlink(t->a);
    r = must_open(t->a);
    assert_true(rec_run_begin(r, &i) > 0);
    assert_int_equal(rec_run_end(r, "failed", 1, 1, 1, "boom"), 0);
    rec_close(r);
    assert_int_equal(report(t, &o, &e, 2, only_failed), 1);
    assert_non_null(strstr(e, "no complete runs"));
    free(o), free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_merge_command, setup, teardown),
        cmocka_unit_test_setup_teardown(test_merge_command_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_merge_command_renumbers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_report_after_merge, setup, teardown),
        cmocka_unit_test_setup_teardown(test_report_errors, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
