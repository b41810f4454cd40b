/*
 * test_merge.c - combining results databases: rec_run_info.id, rec_copy_run
 * (rows copied exactly, ids kept or chosen, duplicates skipped, other
 * scenario versions refused, runs of every status copied), the
 * `netsim merge` command on top of it, and `netsim report` on the merged
 * result (exact tables).
 *
 * Databases are written with the rec_* API, as netsim writes them, in a
 * mkdtemp() directory per test, and read back with the plain SQLite API.
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

#include "sim/cli/commands.h"
#include "sim/out/record.h"
#include "tests/tmpdir.h"

/* ------------------------------------------------------------------ */
/* Fixture: a temporary directory with paths a.db, b.db, out.db         */

struct tmp {
    char dir[64];
    char a[128], b[128], out[128];
};

static int setup(void **state)
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

static int teardown(void **state)
{
    struct tmp *t = *state;

    tmpdir_remove(t->dir);
    free(t);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Writing with rec_*, reading with plain SQLite                        */

static struct rec *must_open(const char *path)
{
    char *err = NULL;
    struct rec *r = rec_open(path, &err);

    if (!r)
        fail_msg("rec_open: %s", err ? err : "?");
    return r;
}

static struct rec_run_info run_info(const char *hash, const char *label, uint64_t seed, int rep, int64_t id)
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
static int64_t write_run(struct rec *r, const struct rec_run_info *info, int k, const char *status,
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
    assert_int_equal(rec_counter(r, "drop.frag_evict", 17 * k), 0);
    assert_int_equal(rec_profile(r, "receiver", "ip_defrag", 1.5e9 * k, 812744ULL * (uint64_t)k), 0);
    assert_int_equal(rec_run_end(r, status, 0.5 * k, 1000ULL * (uint64_t)k, 2.0, error), 0);
    return id;
}

static sqlite3 *db_open(const char *path)
{
    sqlite3 *db = NULL;

    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    return db;
}

/* All rows of a query as one string: columns joined by '|', rows ended by
 * '\n', NULL as "NULL", REAL with %.17g (so equal strings mean equal
 * values, bit for bit). */
static char *db_rows(const char *path, const char *sql)
{
    sqlite3 *db = db_open(path);
    sqlite3_stmt *st;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc;

    assert_non_null(f);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            if (i)
                fputc('|', f);
            switch (sqlite3_column_type(st, i)) {
            case SQLITE_NULL: fputs("NULL", f); break;
            case SQLITE_INTEGER: fprintf(f, "%lld", (long long)sqlite3_column_int64(st, i)); break;
            case SQLITE_FLOAT: fprintf(f, "%.17g", sqlite3_column_double(st, i)); break;
            default: fputs((const char *)sqlite3_column_text(st, i), f); break;
            }
        }
        fputc('\n', f);
    }
    assert_int_equal(rc, SQLITE_DONE);
    sqlite3_finalize(st);
    sqlite3_close(db);
    fclose(f);
    return buf;
}

static int64_t db_int(const char *path, const char *sql)
{
    char *s = db_rows(path, sql);
    int64_t v = strtoll(s, NULL, 10);

    free(s);
    return v;
}

/* Every column of a run and its rows, with the run id left out, so a run
 * and its copy under another id compare equal. */
static char *run_dump(const char *path, int64_t id)
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

static void assert_same_run(const char *src, int64_t src_id, const char *dst, int64_t dst_id)
{
    char *a = run_dump(src, src_id);
    char *b = run_dump(dst, dst_id);

    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* Rows in the six tables together. */
static int64_t total_rows(const char *path)
{
    return db_int(path, "SELECT (SELECT count(*) FROM run) + (SELECT count(*) FROM param)"
                        " + (SELECT count(*) FROM interval) + (SELECT count(*) FROM series)"
                        " + (SELECT count(*) FROM counter) + (SELECT count(*) FROM profile)");
}

/* Two shards of one sweep: a.db runs 1, 2; b.db runs 3, 4 (explicit ids). */
static void write_shards(const struct tmp *t)
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

/* ------------------------------------------------------------------ */
/* rec_run_info.id                                                      */

static void test_run_begin_explicit_id(void **state)
{
    struct tmp *t = *state;
    struct rec *r = must_open(t->a);
    struct rec_run_info i7 = run_info("h1", "", 1, 0, 7), auto_id = run_info("h1", "", 1, 1, 0);

    assert_int_equal(write_run(r, &i7, 1, "complete", NULL), 7);
    /* 0: SQLite chooses, after the highest id. */
    assert_int_equal(write_run(r, &auto_id, 2, "complete", NULL), 8);
    /* A taken id fails and leaves no run open. */
    assert_int_equal(rec_run_begin(r, &i7), -1);
    assert_non_null(strstr(rec_errmsg(r), "insert run"));
    assert_int_equal(rec_param(r, "k", "v"), -1);
    i7.id = 3;
    assert_int_equal(write_run(r, &i7, 3, "complete", NULL), 3);
    rec_close(r);
    char *ids = db_rows(t->a, "SELECT id, rep FROM run ORDER BY id");
    assert_string_equal(ids, "3|0\n7|0\n8|1\n");
    free(ids);
}

/* ------------------------------------------------------------------ */
/* rec_copy_run                                                         */

static void test_copy_exact_rows_and_ids(void **state)
{
    struct tmp *t = *state;
    struct rec *out;

    write_shards(t);
    out = must_open(t->out);
    assert_int_equal(rec_copy_run(out, t->a, 1, 0), 1);
    assert_int_equal(rec_copy_run(out, t->a, 2, 0), 2);
    assert_int_equal(rec_copy_run(out, t->b, 3, 0), 3);
    assert_int_equal(rec_copy_run(out, t->b, 4, 0), 4);
    rec_close(out);

    assert_same_run(t->a, 1, t->out, 1);
    assert_same_run(t->a, 2, t->out, 2);
    assert_same_run(t->b, 3, t->out, 3);
    assert_same_run(t->b, 4, t->out, 4);
    assert_int_equal(total_rows(t->out), total_rows(t->a) + total_rows(t->b));
    /* Spot checks of exact values, independent of run_dump. */
    char *rows = db_rows(t->out, "SELECT run_id, flow, t_start, t_end, bytes, bits_per_s FROM interval"
                                 " WHERE run_id = 3 ORDER BY rowid");
    assert_string_equal(rows, "3|1|0|1|3000000|24000000\n"
                              "3|1|1|2|3000001|24000008\n"
                              "3|2|0|2|4611686018427387907|0.30000000000000004\n");
    free(rows);
    rows = db_rows(t->out, "SELECT id, variant_label, seed, rep, status, error, wall_s, events FROM run ORDER BY id");
    assert_string_equal(rows, "1|high=1M|11|0|complete|NULL|0.5|1000\n"
                              "2|high=1M|12|1|complete|NULL|1|2000\n"
                              "3|high=2M|11|0|complete|NULL|1.5|3000\n"
                              "4|high=2M|12|1|complete|NULL|2|4000\n");
    free(rows);
    /* The copy went through: no attached database is left behind. */
    out = must_open(t->out);
    assert_int_equal(rec_copy_run(out, t->a, 1, 0), 0);
    rec_close(out);
}

static void test_copy_duplicates_skipped(void **state)
{
    struct tmp *t = *state;
    struct rec *out;
    int64_t before;

    write_shards(t);
    out = must_open(t->out);
    for (int64_t id = 1; id <= 2; id++)
        assert_int_equal(rec_copy_run(out, t->a, id, 0), id);
    before = total_rows(t->out);
    /* Same hash, label, rep, seed, complete: skipped, even under a wanted id. */
    assert_int_equal(rec_copy_run(out, t->a, 1, 0), 0);
    assert_int_equal(rec_copy_run(out, t->a, 2, 99), 0);
    assert_int_equal(total_rows(t->out), before);
    rec_close(out);

    /* Another seed of the same variant is not a duplicate. */
    struct rec *a = must_open(t->a);
    struct rec_run_info other_seed = run_info("h1", "high=1M", 13, 0, 0);
    assert_int_equal(write_run(a, &other_seed, 5, "complete", NULL), 3);
    rec_close(a);
    out = must_open(t->out);
    assert_int_equal(rec_copy_run(out, t->a, 3, 0), 3);
    rec_close(out);
}

static void test_copy_ids_chosen(void **state)
{
    struct tmp *t = *state;
    struct rec *out, *a, *b;
    struct rec_run_info i1b = run_info("h1", "high=9M", 91, 0, 1), i3a = run_info("h1", "high=5M", 51, 0, 0);

    write_shards(t);
    /* b.db also has a run 1 (another variant). */
    b = must_open(t->b);
    assert_int_equal(write_run(b, &i1b, 9, "complete", NULL), 1);
    rec_close(b);

    a = must_open(t->a);
    assert_int_equal(write_run(a, &i3a, 5, "complete", NULL), 3);
    rec_close(a);

    out = must_open(t->out);
    /* Explicit id honoured. */
    assert_int_equal(rec_copy_run(out, t->a, 1, 42), 42);
    /* Source id 1 is free: kept. */
    assert_int_equal(rec_copy_run(out, t->b, 1, 0), 1);
    /* Wanted id taken, source id free: the source id. */
    assert_int_equal(rec_copy_run(out, t->a, 2, 1), 2);
    assert_int_equal(rec_copy_run(out, t->b, 3, 1), 3);
    /* Wanted id taken (42), source id taken (3): a new one, max + 1. */
    assert_int_equal(rec_copy_run(out, t->a, 3, 42), 43);
    rec_close(out);
    assert_same_run(t->a, 1, t->out, 42);
    assert_same_run(t->b, 1, t->out, 1);
    assert_same_run(t->a, 2, t->out, 2);
    assert_same_run(t->b, 3, t->out, 3);
    assert_same_run(t->a, 3, t->out, 43);
    char *rows = db_rows(t->out, "SELECT DISTINCT run_id FROM param ORDER BY run_id");
    assert_string_equal(rows, "1\n2\n3\n42\n43\n");
    free(rows);
}

static void test_copy_other_version_refused(void **state)
{
    struct tmp *t = *state;
    struct rec *a = must_open(t->a), *b = must_open(t->b), *out;
    struct rec_run_info v1 = run_info("aaaa1111", "high=1M", 11, 0, 0);
    struct rec_run_info v2 = run_info("bbbb2222", "high=1M", 12, 1, 0);
    struct rec_run_info other = v2;
    int64_t before;

    other.scenario = "sctp_rwnd";
    assert_int_equal(write_run(a, &v1, 1, "complete", NULL), 1);
    assert_int_equal(write_run(b, &v2, 2, "complete", NULL), 1);
    assert_int_equal(write_run(b, &v2, 3, "failed", "boom"), 2);
    assert_int_equal(write_run(b, &other, 4, "complete", NULL), 3);
    rec_close(a);
    rec_close(b);

    out = must_open(t->out);
    assert_int_equal(rec_copy_run(out, t->a, 1, 0), 1);
    before = total_rows(t->out);
    assert_int_equal(rec_copy_run(out, t->b, 1, 0), -1);
    assert_non_null(strstr(rec_errmsg(out), "scenario version bbbb2222 differs from aaaa1111 already in DB"));
    assert_non_null(strstr(rec_errmsg(out), t->b));
    /* Any status is refused, and nothing was written. */
    assert_int_equal(rec_copy_run(out, t->b, 2, 0), -1);
    assert_int_equal(total_rows(t->out), before);
    /* Another scenario name is no conflict. */
    assert_int_equal(rec_copy_run(out, t->b, 3, 0), 3);
    /* The connection is usable after a refusal. */
    struct rec_run_info more = run_info("aaaa1111", "high=1M", 14, 2, 0);
    assert_int_equal(write_run(out, &more, 5, "complete", NULL), 4);
    rec_close(out);
}

/* Interrupted and failed runs: copied with status, error and NULLs. */
static void test_copy_interrupted_and_failed(void **state)
{
    struct tmp *t = *state;
    struct rec *a = must_open(t->a), *out;
    struct rec_run_info ok = run_info("h1", "high=1M", 11, 0, 0), failed = run_info("h1", "high=1M", 11, 0, 0);
    struct rec_run_info cut = run_info("h1", "high=2M", 11, 0, 0);

    assert_int_equal(write_run(a, &failed, 1, "failed", "receiver: out of memory in ip_defrag"), 1);
    /* A run left open when the database is closed ends 'interrupted'. */
    assert_int_equal(rec_run_begin(a, &cut), 2);
    assert_int_equal(rec_interval(a, 1, 0.0, 1.0, 5, 40), 0);
    rec_close(a);
    a = must_open(t->a);
    assert_int_equal(write_run(a, &ok, 3, "interrupted", NULL), 3);
    rec_close(a);

    out = must_open(t->out);
    for (int64_t id = 1; id <= 3; id++)
        assert_int_equal(rec_copy_run(out, t->a, id, 0), id);
    rec_close(out);
    for (int64_t id = 1; id <= 3; id++)
        assert_same_run(t->a, id, t->out, id);
    char *rows = db_rows(t->out, "SELECT id, status, error, events, sim_s FROM run ORDER BY id");
    assert_string_equal(rows, "1|failed|receiver: out of memory in ip_defrag|1000|2\n"
                              "2|interrupted|results database closed before the run ended|NULL|NULL\n"
                              "3|interrupted|NULL|3000|2\n");
    free(rows);

    /* Copying the same runs again adds nothing (the very same runs). */
    out = must_open(t->out);
    for (int64_t id = 1; id <= 3; id++)
        assert_int_equal(rec_copy_run(out, t->a, id, 0), 0);
    /* A complete run of that configuration is not a duplicate of a failed one. */
    struct rec *b = must_open(t->b);
    struct rec_run_info done = run_info("h1", "high=1M", 11, 0, 0);
    assert_int_equal(write_run(b, &done, 1, "complete", NULL), 1);
    rec_close(b);
    assert_int_equal(rec_copy_run(out, t->b, 1, 0), 4);
    /* ... but a failed run is skipped once the configuration is complete. */
    a = must_open(t->a);
    struct rec_run_info again = run_info("h1", "high=1M", 11, 0, 0);
    assert_int_equal(write_run(a, &again, 7, "failed", "again"), 4);
    rec_close(a);
    assert_int_equal(rec_copy_run(out, t->a, 4, 0), 0);
    rec_close(out);
}

static void test_copy_errors(void **state)
{
    struct tmp *t = *state;
    struct rec *out;
    char missing[256], text[256];
    struct rec_run_info i = run_info("h1", "", 1, 0, 0);
    FILE *f;

    write_shards(t);
    snprintf(missing, sizeof missing, "%s/missing.db", t->dir);
    snprintf(text, sizeof text, "%s/notes.txt", t->dir);
    f = fopen(text, "w");
    assert_non_null(f);
    fputs("this is not a database, it is a text file of some length\n", f);
    fclose(f);

    out = must_open(t->out);
    /* A missing source is an error, and is not created. */
    assert_int_equal(rec_copy_run(out, missing, 1, 0), -1);
    assert_non_null(strstr(rec_errmsg(out), "missing.db"));
    assert_int_equal(access(missing, F_OK), -1);
    /* Not SQLite; no such run; the destination itself. */
    assert_int_equal(rec_copy_run(out, text, 1, 0), -1);
    assert_non_null(strstr(rec_errmsg(out), "notes.txt"));
    assert_int_equal(rec_copy_run(out, t->a, 99, 0), -1);
    assert_non_null(strstr(rec_errmsg(out), "no such run"));
    assert_int_equal(rec_copy_run(out, t->out, 1, 0), -1);
    assert_non_null(strstr(rec_errmsg(out), "destination"));
    /* Not while a run is open; the open run is unharmed. */
    assert_true(rec_run_begin(out, &i) > 0);
    assert_int_equal(rec_copy_run(out, t->a, 1, 0), -1);
    assert_non_null(strstr(rec_errmsg(out), "in progress"));
    assert_int_equal(rec_run_end(out, "complete", 1, 1, 1, NULL), 0);
    /* After all that, a copy works. */
    assert_int_equal(rec_copy_run(out, t->a, 1, 0), 2);
    rec_close(out);
    assert_same_run(t->a, 1, t->out, 2);
}

/* A source another process is still writing (a sweep in progress) is
 * read, not locked for writing: its committed runs copy at once. */
static void test_copy_from_busy_source(void **state)
{
    struct tmp *t = *state;
    sqlite3 *writer;
    struct rec *out;

    write_shards(t);
    assert_int_equal(sqlite3_open(t->a, &writer), SQLITE_OK);
    assert_int_equal(sqlite3_exec(writer, "BEGIN IMMEDIATE; DELETE FROM counter", NULL, NULL, NULL), SQLITE_OK);
    out = must_open(t->out);
    assert_int_equal(rec_copy_run(out, t->a, 1, 0), 1);
    rec_close(out);
    assert_int_equal(sqlite3_exec(writer, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(writer);
    assert_same_run(t->a, 1, t->out, 1);
}

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
             "%s: 11 complete runs of frag_evict, 4 combinations; goodput = bytes of all flows x 8 / interval span\n"
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
             "%s: drs=new against drs=old, paired by rep; change = (new - old) / old of goodput per pair\n"
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
    char *bad_metric[] = { "report", t->out, "--metric", "rtt", NULL };
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
        cmocka_unit_test_setup_teardown(test_run_begin_explicit_id, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_exact_rows_and_ids, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_duplicates_skipped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_ids_chosen, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_other_version_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_interrupted_and_failed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_from_busy_source, setup, teardown),
        cmocka_unit_test_setup_teardown(test_merge_command, setup, teardown),
        cmocka_unit_test_setup_teardown(test_merge_command_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_merge_command_renumbers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_report_after_merge, setup, teardown),
        cmocka_unit_test_setup_teardown(test_report_errors, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
