/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record_fixture.h - for the database tests: a temporary directory with
 * paths a.db, b.db, out.db, runs written with the rec_* API, and rows
 * read back with the plain SQLite API.
 */
#ifndef NETSIM_TESTS_RECORD_FIXTURE_H
#define NETSIM_TESTS_RECORD_FIXTURE_H

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
#include "tests/db_rows.h"

/* ------------------------------------------------------------------ */
/* Fixture: a temporary directory with paths a.db, b.db, out.db         */

struct tmp {
    char dir[64];
    char a[128], b[128], out[128];
};

static inline int setup(void **state)
{
    struct tmp *t = calloc(1, sizeof *t);

    assert_non_null(t);
    tmpdir_make(t->dir, sizeof t->dir, "test_merge");
    snprintf(t->a, sizeof t->a, "%s/a.db", t->dir);
    snprintf(t->b, sizeof t->b, "%s/b.db", t->dir);
    snprintf(t->out, sizeof t->out, "%s/out.db", t->dir);
    *state = t;
    return 0;
}

static inline int teardown(void **state)
{
    struct tmp *t = *state;

    tmpdir_remove(t->dir);
    free(t);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Writing with rec_*, reading with plain SQLite                        */

static inline struct rec *must_open(const char *path)
{
    char *err = NULL;
    struct rec *r = rec_open(path, &err);

    if (!r)
        fail_msg("rec_open: %s", err ? err : "?");
    return r;
}

static inline struct rec_run_info run_info(const char *hash, const char *label, uint64_t seed, int rep, int64_t id)
{
    struct rec_run_info info = {
        .scenario = "frag_evict", .variant_label = label, .seed = seed, .rep = rep,
        .scenario_hash = hash, .id = id,
    };
    return info;
}

/*
 * One run with rows of every kind whose values derive from `k`, so that
 * each run's rows are distinct. Ends with status (and error); returns id.
 */
static inline int64_t write_run(struct rec *r, const struct rec_run_info *info, int k, const char *status,
                         const char *error)
{
    char v[32];
    int64_t id = rec_run_begin(r, info);

    if (id <= 0)
        fail_msg("rec_run_begin: %s", rec_errmsg(r));
    snprintf(v, sizeof v, "%dM", k);
    assert_int_equal(rec_param(r, "axis.high", v), 0);
    assert_int_equal(rec_param(r, "sim.duration", "2s"), 0);
    assert_int_equal(rec_interval(r, 1, 0.0, 1.0, 1000000ULL * (uint64_t)k, 8e6 * k), 0);
    assert_int_equal(rec_interval(r, 1, 1.0, 2.0, 1000000ULL * (uint64_t)k + 1, 8e6 * k + 8), 0);
    assert_int_equal(rec_interval(r, 2, 0.0, 2.0, (1ULL << 62) + (uint64_t)k, 0.1 * k), 0);
    assert_int_equal(rec_series(r, "frag_mem", 0.5, 1.25 * k), 0);
    assert_int_equal(rec_counter(r, "drop.frag_evict", 17 * k, false), 0);
    assert_int_equal(rec_profile(r, "receiver", -1, "ip_defrag", 1.5e9 * k, 812744ULL * (uint64_t)k), 0);
    assert_int_equal(rec_run_end(r, status, 0.5 * k, 1000ULL * (uint64_t)k, 2.0, error), 0);
    return id;
}

static inline sqlite3 *db_open(const char *path)
{
    sqlite3 *db = NULL;

    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    return db;
}

/* All rows of a query on the database at path (tests/db_rows.h). */
static inline char *db_rows(const char *path, const char *sql)
{
    sqlite3 *db = db_open(path);
    char *rows = db_query_rows(db, sql);
    sqlite3_close(db);
    return rows;
}

static inline int64_t db_int(const char *path, const char *sql)
{
    char *s = db_rows(path, sql);
    int64_t v = strtoll(s, NULL, 10);

    free(s);
    return v;
}

/* Every column of a run and its rows, with the run id left out, so a run
 * and its copy under another id compare equal. */
static inline char *run_dump(const char *path, int64_t id)
{
    static const char *const q[] = {
        "SELECT scenario, variant_label, seed, rep, started_at, wall_s, events, status, error,"
        " scenario_hash, sim_s, hostname FROM run WHERE id = %lld",
        "SELECT key, value FROM param WHERE run_id = %lld ORDER BY rowid",
        "SELECT flow, t_start, t_end, bytes, bits_per_s FROM interval WHERE run_id = %lld ORDER BY rowid",
        "SELECT name, t, value FROM series WHERE run_id = %lld ORDER BY rowid",
        "SELECT name, value FROM counter WHERE run_id = %lld ORDER BY rowid",
        "SELECT host, symbol, cpu_ns, calls FROM profile WHERE run_id = %lld ORDER BY rowid",
    };
    char *all = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&all, &len);

    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        char sql[512];
        char *rows;

        snprintf(sql, sizeof sql, q[i], (long long)id);
        rows = db_rows(path, sql);
        fprintf(f, "%s--\n", rows);
        free(rows);
    }
    fclose(f);
    return all;
}

static inline void assert_same_run(const char *src, int64_t src_id, const char *dst, int64_t dst_id)
{
    char *a = run_dump(src, src_id);
    char *b = run_dump(dst, dst_id);

    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* Rows in the six tables together. */
static inline int64_t total_rows(const char *path)
{
    return db_int(path, "SELECT (SELECT count(*) FROM run) + (SELECT count(*) FROM param)"
                        " + (SELECT count(*) FROM interval) + (SELECT count(*) FROM series)"
                        " + (SELECT count(*) FROM counter) + (SELECT count(*) FROM profile)");
}

/* Two shards of one sweep: a.db runs 1, 2; b.db runs 3, 4 (explicit ids). */
static inline void write_shards(const struct tmp *t)
{
    struct rec *a = must_open(t->a), *b = must_open(t->b);
    struct rec_run_info i1 = run_info("h1", "high=1M", 11, 0, 1), i2 = run_info("h1", "high=1M", 12, 1, 2);
    struct rec_run_info i3 = run_info("h1", "high=2M", 11, 0, 3), i4 = run_info("h1", "high=2M", 12, 1, 4);

    assert_int_equal(write_run(a, &i1, 1, "complete", NULL), 1);
    assert_int_equal(write_run(a, &i2, 2, "complete", NULL), 2);
    assert_int_equal(write_run(b, &i3, 3, "complete", NULL), 3);
    assert_int_equal(write_run(b, &i4, 4, "complete", NULL), 4);
    rec_close(a);
    rec_close(b);
}

#endif
