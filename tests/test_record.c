/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_record.c - the results database: rows as written, one transaction
 * per run (a crashed run leaves nothing, a closed-while-open run is marked
 * 'interrupted'), schema creation and refusal of foreign files.
 *
 * Every test works in its own mkdtemp() directory and reads the database
 * back with the plain SQLite API, not through record.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sinks/record.h"
#include "tests/db_rows.h"
#include "tests/tmpdir.h"

/* ------------------------------------------------------------------ */
/* Fixture: a temporary directory, removed afterwards                  */

struct tmp {
    char dir[64];
    char path[256];     /* dir + "/results.db" */
};

static int setup(void **state)
{
    struct tmp *t = calloc(1, sizeof *t);

    assert_non_null(t);
    tmpdir_make(t->dir, sizeof t->dir, "test_record");
    snprintf(t->path, sizeof t->path, "%s/results.db", t->dir);
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
/* Reading back with the plain SQLite API                               */

static sqlite3 *db_open(const char *path)
{
    sqlite3 *db = NULL;

    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    return db;
}

static int64_t db_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    int64_t v;

    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}


static void assert_rows(sqlite3 *db, const char *sql, const char *expect)
{
    char *got = db_query_rows(db, sql);

    assert_string_equal(got, expect);
    free(got);
}

static const struct rec_run_info info1 = {
    .scenario = "frag_evict",
    .variant_label = "ipfrag.evictor=lru",
    .seed = 42,
    .rep = 3,
    .scenario_hash = "abc123",
};

/* One complete run with a few rows of every kind. */
static int64_t write_complete_run(struct rec *r)
{
    int64_t id = rec_run_begin(r, &info1);

    assert_true(id > 0);
    assert_int_equal(rec_param(r, "sim.duration", "10s"), 0);
    assert_int_equal(rec_param(r, "receiver.ipfrag_high_thresh", "4M"), 0);
    assert_int_equal(rec_interval(r, 1, 0.0, 1.0, 1250000000ULL, 1e10), 0);
    assert_int_equal(rec_interval(r, 1, 1.0, 2.0, 1000, 8000.5), 0);
    assert_int_equal(rec_series(r, "cwnd", 0.25, 10.0), 0);
    assert_int_equal(rec_series(r, "cwnd", 0.5, 20.0), 0);
    assert_int_equal(rec_counter(r, "drop.rx_ring_full", 17, false), 0);
    assert_int_equal(rec_profile(r, "receiver", -1, "ip_defrag", 1.5e9, 812744), 0);
    assert_int_equal(rec_run_end(r, "complete", 1.25, 12345678, 10.0, NULL), 0);
    return id;
}

/* ------------------------------------------------------------------ */
/* Tests                                                                */

static void test_roundtrip(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    struct rec *r = rec_open(t->path, &err);
    char host[256] = "";
    char expect[512];
    sqlite3 *db;
    char *started;

    assert_null(err);
    assert_non_null(r);
    assert_int_equal(write_complete_run(r), 1);
    rec_close(r);

    db = db_open(t->path);
    assert_int_equal(db_int(db, "PRAGMA user_version"), RECORD_SCHEMA_VERSION);
    assert_int_equal(db_int(db, "SELECT count(*) FROM run"), 1);

    gethostname(host, sizeof host - 1);
    snprintf(expect, sizeof expect,
             "1|frag_evict|ipfrag.evictor=lru|42|3|1.25|12345678|complete|NULL|abc123|10|%s\n", host);
    assert_rows(db,
                "SELECT id, scenario, variant_label, seed, rep, wall_s, events, status, error,"
                " scenario_hash, sim_s, hostname FROM run",
                expect);

    /* started_at: "YYYY-MM-DDTHH:MM:SSZ", and a real UTC date. */
    started = db_query_rows(db, "SELECT started_at FROM run");
    assert_int_equal(strlen(started), 21);
    assert_int_equal(started[4], '-');
    assert_int_equal(started[10], 'T');
    assert_int_equal(started[19], 'Z');
    free(started);
    assert_int_equal(db_int(db, "SELECT julianday(substr(started_at, 1, 19)) IS NOT NULL"
                                " AND abs(julianday('now') - julianday(substr(started_at, 1, 19))) < 1"
                                " FROM run"),
                     1);

    assert_rows(db, "SELECT run_id, key, value FROM param ORDER BY rowid",
                "1|sim.duration|10s\n1|receiver.ipfrag_high_thresh|4M\n");
    assert_rows(db, "SELECT run_id, flow, t_start, t_end, bytes, bits_per_s FROM interval ORDER BY rowid",
                "1|1|0|1|1250000000|10000000000\n1|1|1|2|1000|8000.5\n");
    assert_rows(db, "SELECT run_id, name, t, value FROM series ORDER BY rowid",
                "1|cwnd|0.25|10\n1|cwnd|0.5|20\n");
    assert_rows(db, "SELECT run_id, name, value FROM counter", "1|drop.rx_ring_full|17\n");
    assert_rows(db, "SELECT run_id, host, symbol, cpu_ns, calls FROM profile",
                "1|receiver|ip_defrag|1500000000|812744\n");
    sqlite3_close(db);
}

static void test_schema_details(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    struct rec *r = rec_open(t->path, &err);
    sqlite3 *db;

    assert_non_null(r);
    rec_close(r);

    db = db_open(t->path);
    assert_rows(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
                "counter\ninterval\nmessage\nparam\nprofile\nrun\nseries\n");
    assert_rows(db, "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' ORDER BY name",
                "counter_run|counter\ninterval_run|interval\nmessage_run|message\nparam_run|param\nseries_run_name|series\n");
    /* Rollback journal, not WAL: one self-contained file. */
    assert_rows(db, "PRAGMA journal_mode", "delete\n");
    assert_rows(db, "SELECT name FROM pragma_index_info('series_run_name') ORDER BY seqno", "run_id\nname\n");
    sqlite3_close(db);
}

static void test_reopen_appends(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    struct rec *r = rec_open(t->path, &err);
    sqlite3 *db;

    assert_non_null(r);
    assert_int_equal(write_complete_run(r), 1);
    assert_int_equal(write_complete_run(r), 2);
    rec_close(r);

    r = rec_open(t->path, &err);
    assert_non_null(r);
    assert_null(err);
    assert_int_equal(write_complete_run(r), 3);
    rec_close(r);

    db = db_open(t->path);
    assert_rows(db, "SELECT id, status FROM run ORDER BY id", "1|complete\n2|complete\n3|complete\n");
    assert_rows(db, "SELECT run_id, count(*) FROM interval GROUP BY run_id ORDER BY run_id", "1|2\n2|2\n3|2\n");
    sqlite3_close(db);
}

static void test_failed_run_keeps_error(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    struct rec *r = rec_open(t->path, &err);
    sqlite3 *db;

    assert_non_null(r);
    assert_int_equal(rec_run_begin(r, &info1), 1);
    assert_int_equal(rec_run_end(r, "failed", 0.5, 7, 0.125, "link a: no such host"), 0);
    rec_close(r);

    db = db_open(t->path);
    assert_rows(db, "SELECT id, status, wall_s, events, sim_s, error FROM run",
                "1|failed|0.5|7|0.125|link a: no such host\n");
    sqlite3_close(db);
}

/*
 * A child process begins a run, writes enough rows to spill SQLite's page
 * cache into the file, then dies without ending it. The run before it
 * stays intact; the crashed run leaves not one row, and the file is usable.
 */
static void test_crash_leaves_no_trace(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    char journal[300];
    struct rec *r = rec_open(t->path, &err);
    sqlite3 *db;
    pid_t pid;
    int status;

    assert_non_null(r);
    assert_int_equal(write_complete_run(r), 1);
    rec_close(r);

    fflush(NULL);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rec *c = rec_open(t->path, &err);
        int i;

        if (!c || rec_run_begin(c, &info1) != 2)
            _exit(2);
        for (i = 0; i < 100000; i++)
            if (rec_series(c, "frag_mem_bytes_with_a_long_name", i * 1e-3, i) != 0 ||
                rec_interval(c, 1, i, i + 1, 1000, 8000) != 0)
                _exit(3);
        _exit(1);   /* the "crash": no rec_run_end, no rec_close */
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);

    /* The child left a hot journal behind. */
    snprintf(journal, sizeof journal, "%s-journal", t->path);
    assert_int_equal(access(journal, F_OK), 0);

    db = db_open(t->path);
    assert_rows(db, "SELECT id, status FROM run", "1|complete\n");
    assert_rows(db, "SELECT run_id, count(*) FROM series GROUP BY run_id", "1|2\n");
    assert_rows(db, "SELECT run_id, count(*) FROM interval GROUP BY run_id", "1|2\n");
    assert_rows(db, "PRAGMA integrity_check", "ok\n");
    sqlite3_close(db);
    assert_int_equal(access(journal, F_OK), -1);

    /* And the next run goes on normally. */
    r = rec_open(t->path, &err);
    assert_non_null(r);
    assert_int_equal(write_complete_run(r), 2);
    rec_close(r);
}

static void test_close_marks_interrupted(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    struct rec *r = rec_open(t->path, &err);
    sqlite3 *db;

    assert_non_null(r);
    assert_int_equal(write_complete_run(r), 1);
    assert_int_equal(rec_run_begin(r, &info1), 2);
    assert_int_equal(rec_interval(r, 7, 0, 1, 500, 4000), 0);
    rec_close(r);

    db = db_open(t->path);
    assert_rows(db, "SELECT id, status, events, sim_s, error FROM run ORDER BY id",
                "1|complete|12345678|10|NULL\n"
                "2|interrupted|NULL|NULL|results database closed before the run ended\n");
    assert_int_equal(db_int(db, "SELECT wall_s >= 0 AND wall_s < 60 FROM run WHERE id = 2"), 1);
    assert_rows(db, "SELECT run_id, flow, bytes FROM interval WHERE run_id = 2", "2|7|500\n");
    sqlite3_close(db);
}

static void test_version_mismatch_refused(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    char expect[512];
    sqlite3 *db = NULL;

    assert_int_equal(sqlite3_open(t->path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE run(id INTEGER PRIMARY KEY); PRAGMA user_version = 7",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);

    assert_null(rec_open(t->path, &err));
    snprintf(expect, sizeof expect, "%s: results schema version 7, this netsim writes version 3", t->path);
    assert_non_null(err);
    assert_string_equal(err, expect);
    free(err);

    /* Refused means untouched. */
    db = db_open(t->path);
    assert_int_equal(db_int(db, "PRAGMA user_version"), 7);
    assert_rows(db, "SELECT name FROM sqlite_master", "run\n");
    sqlite3_close(db);
}

static void test_foreign_database_refused(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    char expect[512];
    sqlite3 *db = NULL;

    assert_int_equal(sqlite3_open(t->path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE notes(x)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);

    assert_null(rec_open(t->path, &err));
    snprintf(expect, sizeof expect,
             "%s: not a netsim results database (it has tables but no schema version)", t->path);
    assert_string_equal(err, expect);
    free(err);
}

static void test_not_sqlite_refused(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    char expect[512];
    FILE *f = fopen(t->path, "w");

    assert_non_null(f);
    fputs("[sim]\nduration = 10s\nthis is a scenario file, not a database, and it is long enough\n", f);
    fclose(f);

    assert_null(rec_open(t->path, &err));
    snprintf(expect, sizeof expect, "%s: file is not a database", t->path);
    assert_string_equal(err, expect);
    free(err);
}

static void test_nested_directories(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    char path[300], dir[300];
    struct stat sb;
    struct rec *r;

    snprintf(path, sizeof path, "%s/a//b/c/run.db", t->dir);
    r = rec_open(path, &err);
    assert_null(err);
    assert_non_null(r);
    assert_int_equal(write_complete_run(r), 1);
    rec_close(r);

    snprintf(dir, sizeof dir, "%s/a/b/c", t->dir);
    assert_int_equal(stat(dir, &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    assert_int_equal(stat(path, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));

    /* Opening again with every directory present is fine too. */
    r = rec_open(path, &err);
    assert_non_null(r);
    rec_close(r);
}

static void test_directory_blocked_by_file(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    char blocker[300], path[300], expect[700];
    FILE *f;

    snprintf(blocker, sizeof blocker, "%s/results", t->dir);
    f = fopen(blocker, "w");
    assert_non_null(f);
    fclose(f);

    snprintf(path, sizeof path, "%s/results/sub/x.db", t->dir);
    assert_null(rec_open(path, &err));
    snprintf(expect, sizeof expect, "%s: cannot create directory %s/results/sub: Not a directory", path, t->dir);
    assert_string_equal(err, expect);
    free(err);
}

static void test_misuse_errors(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    char expect[512];
    struct rec *r = rec_open(t->path, &err);
    sqlite3 *db;

    assert_non_null(r);
    assert_string_equal(rec_errmsg(r), "");

    /* Nothing to insert into before a run begins. */
    assert_int_equal(rec_interval(r, 1, 0, 1, 10, 80), -1);
    snprintf(expect, sizeof expect, "%s: insert interval: no run in progress", t->path);
    assert_string_equal(rec_errmsg(r), expect);
    assert_int_equal(rec_param(r, "k", "v"), -1);
    assert_int_equal(rec_series(r, "s", 0, 0), -1);
    assert_int_equal(rec_counter(r, "c", 0, false), -1);
    assert_int_equal(rec_profile(r, "h", -1, "s", 0, 0), -1);
    assert_int_equal(rec_run_end(r, "complete", 0, 0, 0, NULL), -1);

    assert_int_equal(rec_run_begin(r, &info1), 1);
    /* One run at a time. */
    assert_int_equal(rec_run_begin(r, &info1), -1);
    snprintf(expect, sizeof expect, "%s: begin run: run 1 is still in progress", t->path);
    assert_string_equal(rec_errmsg(r), expect);

    /* A bad status is refused and the run stays open... */
    assert_int_equal(rec_run_end(r, "running", 1, 1, 1, NULL), -1);
    snprintf(expect, sizeof expect, "%s: end run: bad status 'running' (complete, interrupted or failed)", t->path);
    assert_string_equal(rec_errmsg(r), expect);
    assert_int_equal(rec_series(r, "ok", 0, 1), 0);
    /* ...but a failing insert (NOT NULL name) loses it: a run with a row
     * missing is no run (the sinks' calls return nothing, so the row went
     * missing silently), and every later call gives the first reason */
    assert_int_equal(rec_series(r, NULL, 0, 0), -1);
    snprintf(expect, sizeof expect, "%s: insert series: NOT NULL constraint failed: series.name", t->path);
    assert_string_equal(rec_errmsg(r), expect);
    assert_true(rec_lost(r));
    assert_int_equal(rec_series(r, "ok", 1, 1), -1);
    assert_string_equal(rec_errmsg(r), expect);
    assert_int_equal(rec_run_end(r, "interrupted", 1, 2, 3, NULL), -1);
    assert_string_equal(rec_errmsg(r), expect);
    /* the next run starts afresh */
    assert_int_equal(rec_run_begin(r, &info1), 1);
    assert_false(rec_lost(r));
    assert_int_equal(rec_series(r, "ok", 0, 1), 0);
    assert_int_equal(rec_run_end(r, "interrupted", 1, 2, 3, NULL), 0);
    rec_close(r);

    db = db_open(t->path);
    assert_rows(db, "SELECT id, status, events FROM run", "1|interrupted|2\n");
    assert_rows(db, "SELECT run_id, name, value FROM series", "1|ok|1\n");
    sqlite3_close(db);

    rec_close(NULL);
}

/* Parameters are kept, copied, and inserted 64 to a statement: 130 of
 * them (two full batches and two left over for the run's end), with 200
 * counters coming and going while a batch waits, come back in their order
 * and rowids, with a NULL value as NULL, though each key was freed as
 * soon as it was given; a NULL key, refused by the table only when its
 * batch is inserted, fails the run's end and leaves no run. */
static void test_params_in_batches(void **state)
{
    struct tmp *t = *state;
    char *err = NULL, expect[512];
    struct rec *r = rec_open(t->path, &err);
    sqlite3 *db;

    assert_non_null(r);
    assert_int_equal(rec_run_begin(r, &info1), 1);
    for (int i = 0; i < 130; i++) {
        char *key = malloc(32);
        assert_non_null(key);
        snprintf(key, 32, "flow.%d.port", i);
        assert_int_equal(rec_param(r, key, i == 64 ? NULL : key + 5), 0);
        free(key);
        for (int k = 0; i == 100 && k < 200; k++) {
            char name[32];
            snprintf(name, sizeof name, "c.%d", k);
            assert_int_equal(rec_counter(r, name, (uint64_t)k, false), 0);
        }
    }
    assert_int_equal(rec_run_end(r, "complete", 1, 1, 1, NULL), 0);

    assert_int_equal(rec_run_begin(r, &info1), 2);
    assert_int_equal(rec_param(r, "sim.duration", "1s"), 0);
    assert_int_equal(rec_param(r, NULL, "v"), 0);
    assert_int_equal(rec_run_end(r, "complete", 1, 1, 1, NULL), -1);
    snprintf(expect, sizeof expect, "%s: insert param: NOT NULL constraint failed: param.key", t->path);
    assert_string_equal(rec_errmsg(r), expect);
    rec_close(r);

    db = db_open(t->path);
    assert_int_equal(db_int(db, "SELECT count(*) FROM param"), 130);
    assert_int_equal(db_int(db, "SELECT count(*) FROM param WHERE run_id = 1 AND rowid = "
                                "1 + CAST(substr(key, 6, length(key) - 10) AS INTEGER)"), 130);
    assert_int_equal(db_int(db, "SELECT count(*) FROM param WHERE value = substr(key, 6)"), 129);
    assert_rows(db, "SELECT key, quote(value) FROM param WHERE rowid IN (64, 65, 66, 130)",
                "flow.63.port|'63.port'\nflow.64.port|NULL\nflow.65.port|'65.port'\nflow.129.port|'129.port'\n");
    assert_rows(db, "SELECT id, status FROM run", "1|complete\n");
    assert_int_equal(db_int(db, "SELECT count(*) FROM counter WHERE run_id = 1 AND name = 'c.' || value"
                                " AND rowid = value + 1"), 200);
    sqlite3_close(db);
}

/* The seed is 64 bits; values >= 2^63 are stored as two's-complement. */
static void test_large_values(void **state)
{
    struct tmp *t = *state;
    char *err = NULL;
    struct rec *r = rec_open(t->path, &err);
    struct rec_run_info info = info1;
    sqlite3 *db;

    info.seed = UINT64_MAX;
    info.variant_label = "";
    assert_non_null(r);
    assert_int_equal(rec_run_begin(r, &info), 1);
    assert_int_equal(rec_interval(r, 2, 0, 1, UINT64_C(1) << 40, 8.0 * (double)(UINT64_C(1) << 40)), 0);
    assert_int_equal(rec_run_end(r, "complete", 1, 0, 1, NULL), 0);
    rec_close(r);

    db = db_open(t->path);
    assert_rows(db, "SELECT seed, variant_label FROM run", "-1|\n");
    assert_rows(db, "SELECT bytes, bits_per_s FROM interval", "1099511627776|8796093022208\n");
    sqlite3_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_roundtrip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_schema_details, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reopen_appends, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_run_keeps_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_crash_leaves_no_trace, setup, teardown),
        cmocka_unit_test_setup_teardown(test_close_marks_interrupted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_version_mismatch_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_foreign_database_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_sqlite_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nested_directories, setup, teardown),
        cmocka_unit_test_setup_teardown(test_directory_blocked_by_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_misuse_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_large_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_params_in_batches, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
