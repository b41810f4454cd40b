/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_scratch.c - the pieces `netsim run` records with (record.h): a
 * scratch database in memory, appending its run to a file that already
 * holds the same run (no duplicate rule), importing a side file's run once
 * (a one-run file, without indexes),
 * saving a database to a new file, noting why a claim failed, the busy
 * timeout knob, rec_open leaving no empty file behind when it cannot
 * create the schema, and which files' commits are synced.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ftw.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sinks/record.h"
#include "tests/tmpdir.h"

struct tmp {
    char dir[64];
    char out[128], side[128];
};

static int setup(void **state)
{
    struct tmp *t = calloc(1, sizeof *t);

    assert_non_null(t);
    tmpdir_make(t->dir, sizeof t->dir, "test_scratch");
    snprintf(t->out, sizeof t->out, "%s/out.db", t->dir);
    snprintf(t->side, sizeof t->side, "%s/out.db.pending.abcdef", t->dir);
    *state = t;
    return 0;
}

static int teardown(void **state)
{
    struct tmp *t = *state;

    tmpdir_remove(t->dir);
    free(t);
    unsetenv("NETSIM_BUSY_TIMEOUT_MS");
    return 0;
}

static const struct rec_run_info info = {
    .scenario = "udp_line_rate", .variant_label = "", .seed = 1, .rep = 0, .scenario_hash = "h",
};

static int64_t write_run(struct rec *r, const char *status, uint64_t bytes)
{
    int64_t id = rec_run_begin(r, &info);

    assert_true(id > 0);
    assert_int_equal(rec_param(r, "sim.duration", "1s"), 0);
    assert_int_equal(rec_interval(r, 1, 0, 1, bytes, bytes * 8.0), 0);
    assert_int_equal(rec_series(r, "cwnd", 0.5, 10), 0);
    assert_int_equal(rec_counter(r, "drops", 3, false), 0);
    assert_int_equal(rec_profile(r, "h", -1, "udp_rcv", 1e6, 100), 0);
    assert_int_equal(rec_run_end(r, status, 0.5, 1000, 1.0, NULL), 0);
    return id;
}

static struct rec *must_open(const char *path)
{
    char *err = NULL;
    struct rec *r = rec_open(path, &err);

    if (!r)
        fail_msg("%s", err);
    return r;
}

static char *rows(const char *path, const char *sql)
{
    static char buf[4096];
    sqlite3 *db;
    sqlite3_stmt *st;
    size_t len = 0;

    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    buf[0] = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            const unsigned char *v = sqlite3_column_text(st, i);
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? "|" : "", v ? (const char *)v : "NULL");
        }
        len += (size_t)snprintf(buf + len, sizeof buf - len, "\n");
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return buf;
}

static const char child_rows[] =
    "SELECT 'p', run_id, key, value FROM param UNION ALL SELECT 'i', run_id, flow, bytes FROM interval"
    " UNION ALL SELECT 's', run_id, name, value FROM series UNION ALL SELECT 'c', run_id, name, value FROM counter"
    " UNION ALL SELECT 'f', run_id, symbol, calls FROM profile ORDER BY 1, 2";

/* `netsim run` twice on the same scenario and seed: two runs, not one
 * skipped as a duplicate of the other. */
static void test_append_from_scratch(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    struct rec *out = must_open(t->out), *s = rec_open_scratch(&err);

    assert_non_null(s);
    write_run(out, "complete", 100);
    int64_t sid = write_run(s, "complete", 100);
    assert_int_equal(sid, 1);
    assert_int_equal(rec_append_run(out, s, sid), 2);
    assert_int_equal(rec_append_run(out, s, sid), 3);
    rec_close(out);
    rec_close(s);
    assert_string_equal(rows(t->out, "SELECT id, status, seed, events FROM run"),
                        "1|complete|1|1000\n2|complete|1|1000\n3|complete|1|1000\n");
    assert_string_equal(rows(t->out, child_rows),
                        "c|1|drops|3\nc|2|drops|3\nc|3|drops|3\n"
                        "f|1|udp_rcv|100\nf|2|udp_rcv|100\nf|3|udp_rcv|100\n"
                        "i|1|1|100\ni|2|1|100\ni|3|1|100\n"
                        "p|1|sim.duration|1s\np|2|sim.duration|1s\np|3|sim.duration|1s\n"
                        "s|1|cwnd|10.0\ns|2|cwnd|10.0\ns|3|cwnd|10.0\n");
}

/* A side file's run is imported once: a second import (or one after a
 * merge by hand) finds the very same run and skips it. */
static void test_import_once(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    struct rec *side = rec_open_one_run(t->side, &err), *out = must_open(t->out);

    assert_non_null(side);
    write_run(side, "failed", 5);
    rec_close(side);
    write_run(out, "complete", 100);
    assert_int_equal(rec_import_run(out, t->side, 1), 2);
    assert_int_equal(rec_import_run(out, t->side, 1), 0);
    assert_int_equal(rec_import_run(out, t->side, 9), -1);
    assert_non_null(strstr(rec_errmsg(out), "no such run"));
    rec_close(out);
    assert_string_equal(rows(t->out, "SELECT id, status FROM run"), "1|complete\n2|failed\n");
    /* A one-run side file has no indexes; the results file keeps its own. */
    assert_string_equal(rows(t->side, "SELECT count(*) FROM sqlite_master WHERE type = 'index'"), "0\n");
    assert_string_equal(rows(t->out, "SELECT count(*) FROM sqlite_master WHERE type = 'index'"), "5\n");
    assert_string_equal(rows(t->out, "SELECT run_id, key FROM param ORDER BY run_id"),
                        "1|sim.duration\n2|sim.duration\n");
}

static void test_save_as(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    struct rec *s = rec_open_scratch(&err);

    write_run(s, "complete", 77);
    assert_int_equal(rec_save_as(s, t->side), 0);
    rec_close(s);
    assert_string_equal(rows(t->side, "SELECT id, status FROM run"), "1|complete\n");
    assert_string_equal(rows(t->side, "SELECT bytes FROM interval"), "77\n");
    assert_string_equal(rows(t->side, "PRAGMA user_version"), "3\n");
    /* The scratch database goes without the indexes; a file saved from it
     * may be read as results, so it has them. */
    assert_string_equal(rows(t->side, "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name"),
                        "counter_run\ninterval_run\nmessage_run\nparam_run\nseries_run_name\n");

    /* A directory that does not exist: an error, and no file. */
    char bad[200];
    snprintf(bad, sizeof bad, "%s/no/such/dir/x.db", t->dir);
    s = rec_open_scratch(&err);
    write_run(s, "complete", 77);
    assert_int_equal(rec_save_as(s, bad), -1);
    assert_non_null(strstr(rec_errmsg(s), bad));
    rec_close(s);
}

static void test_note_run(void **state)
{
    struct tmp *t = *state;
    struct rec *r = must_open(t->side);

    write_run(r, "failed", 1);
    assert_int_equal(rec_note_run(r, 1, "not recorded: disk full", "label.results_kept_in", "/tmp/x"), 0);
    assert_int_equal(rec_note_run(r, 2, "x", NULL, NULL), -1);
    assert_non_null(strstr(rec_errmsg(r), "no such run"));
    rec_close(r);
    assert_string_equal(rows(t->side, "SELECT status, error FROM run"), "failed|not recorded: disk full\n");
    assert_string_equal(rows(t->side, "SELECT key, value FROM param ORDER BY key"),
                        "label.results_kept_in|/tmp/x\nsim.duration|1s\n");
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* NETSIM_BUSY_TIMEOUT_MS: a copy into a database another connection holds
 * gives up after that long, with "database is locked". */
static void test_busy_timeout(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    sqlite3 *holder;

    assert_int_equal(rec_busy_timeout_ms(), 10000);
    setenv("NETSIM_BUSY_TIMEOUT_MS", "junk", 1);
    assert_int_equal(rec_busy_timeout_ms(), 10000);
    setenv("NETSIM_BUSY_TIMEOUT_MS", "150", 1);
    assert_int_equal(rec_busy_timeout_ms(), 150);

    struct rec *out = must_open(t->out), *s = rec_open_scratch(&err);
    write_run(s, "complete", 1);
    assert_int_equal(sqlite3_open(t->out, &holder), SQLITE_OK);
    assert_int_equal(sqlite3_exec(holder, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    double t0 = now();
    assert_int_equal(rec_append_run(out, s, 1), -1);
    double waited = now() - t0;
    assert_true(waited >= 0.1 && waited < 2.0);
    assert_non_null(strstr(rec_errmsg(out), "database is locked"));
    sqlite3_exec(holder, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(holder);
    assert_int_equal(rec_append_run(out, s, 1), 1);
    rec_close(out);
    rec_close(s);
}

/* A file rec_open creates but cannot write its schema into (here: a file
 * size limit of 0, as a full disk) is removed again; an existing empty
 * file is not. */
static void test_open_leaves_no_empty_file(void **state)
{
    struct tmp *t = *state;
    pid_t pid;
    int status;

    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit rl = { 0, 0 };
        char *err = NULL;
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(3);
        struct rec *r = rec_open(t->out, &err);
        if (r || !err)
            _exit(4);
        if (access(t->out, F_OK) == 0)
            _exit(5);
        FILE *f = fopen(t->side, "w");     /* existed before: kept */
        if (!f)
            _exit(6);
        fclose(f);
        r = rec_open(t->side, &err);
        _exit(!r && access(t->side, F_OK) == 0 ? 0 : 7);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static int synchronous_of(struct rec *r)
{
    sqlite3_stmt *st;
    int v = -1;
    assert_int_equal(sqlite3_prepare_v2(rec_connection(r, "test"), "PRAGMA synchronous", -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* Which commits reach the disk before they return: every one of a
 * results file, new (its schema was written unsynced) or not; none of a
 * claim's. 2 is FULL, 0 OFF. */
static void test_sync_levels(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    struct rec *r = rec_open(t->out, &err);       /* creates it */
    assert_non_null(r);
    assert_int_equal(synchronous_of(r), 2);
    rec_close(r);
    r = rec_open(t->out, &err);                   /* exists */
    assert_non_null(r);
    assert_int_equal(synchronous_of(r), 2);
    rec_close(r);
    r = rec_open_claim(t->side, &err);
    assert_non_null(r);
    assert_int_equal(synchronous_of(r), 0);
    rec_close(r);
    r = rec_open_one_run(t->side, &err);
    assert_non_null(r);
    assert_int_equal(synchronous_of(r), 2);
    rec_close(r);
    FILE *f = fopen(t->out, "w");                 /* empty, as a sweep makes a worker's file */
    assert_non_null(f);
    fclose(f);
    r = rec_open_one_run(t->out, &err);
    assert_non_null(r);
    assert_int_equal(synchronous_of(r), 2);
    rec_close(r);
}

/* The scratch database holds what memdb can: SQLite allocates blocks
 * below 2 GiB, and memdb doubles its buffer as it grows, so with a size
 * limit of 2^40 it failed as soon as the doubling passed 2 GiB, near
 * 1 GiB of rows. 1.25 GiB of rows go in. */
static void test_scratch_past_1gib(void **state)
{
    (void)state;
    char *err = NULL;
    struct rec *s = rec_open_scratch(&err);
    static char name[60000];

    assert_non_null(s);
    memset(name, 'x', sizeof name - 1);
    assert_true(rec_run_begin(s, &info) > 0);
    for (int i = 0; i < 22370; i++)      /* 22370 x 60000 bytes: 1.25 GiB */
        if (rec_series(s, name, i, 1) != 0)
            fail_msg("row %d, %.2f GiB in: %s", i, i * 60000.0 / (1 << 30), rec_errmsg(s));
    assert_int_equal(rec_run_end(s, "complete", 1, 1, 1, NULL), 0);
    rec_close(s);
}

/* A scratch database that is full says so, and keeps saying so: the first
 * failed insert's reason is the run's, where every later one said "no run
 * in progress" and the run's end "end run: no run in progress".
 * NETSIM_SCRATCH_LIMIT lowers the limit, for this test. */
static void test_scratch_full(void **state)
{
    (void)state;
    char *err = NULL;
    static char name[60000];

    setenv("NETSIM_SCRATCH_LIMIT", "4M", 1);
    struct rec *s = rec_open_scratch(&err);
    unsetenv("NETSIM_SCRATCH_LIMIT");
    assert_non_null(s);
    memset(name, 'x', sizeof name - 1);
    assert_true(rec_run_begin(s, &info) > 0);
    int i = 0;
    while (i < 1000 && rec_series(s, name, i, 1) == 0)
        i++;
    assert_in_range(i, 30, 200);         /* 4 MB of 60-KB rows, and what the page cache holds */
    assert_non_null(strstr(rec_errmsg(s), "insert series: database or disk is full"));
    assert_non_null(strstr(rec_errmsg(s), "4 MB"));
    assert_true(rec_lost(s));
    assert_int_equal(rec_counter(s, "c", 1, false), -1);
    assert_int_equal(rec_run_end(s, "complete", 1, 1, 1, NULL), -1);
    assert_null(strstr(rec_errmsg(s), "no run in progress"));
    assert_non_null(strstr(rec_errmsg(s), "insert series: database or disk is full"));
    rec_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_append_from_scratch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_import_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_save_as, setup, teardown),
        cmocka_unit_test_setup_teardown(test_note_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_busy_timeout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_open_leaves_no_empty_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sync_levels, setup, teardown),
        cmocka_unit_test(test_scratch_past_1gib),
        cmocka_unit_test(test_scratch_full),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
