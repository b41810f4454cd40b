/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_record_copy.c - copying runs between results databases:
 * rec_run_info.id and rec_copy_run (rows copied exactly, ids kept or
 * chosen, duplicates skipped, other scenario versions refused, runs of
 * every status copied, a busy source). test_merge.c tests the `netsim
 * merge` command on top of it.
 *
 * Databases are written with the rec_* API, as netsim writes them, in a
 * mkdtemp() directory per test, and read back with the plain SQLite API
 * (tests/record_fixture.h).
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

/* The copy turns the foreign key checks off for its own transaction only:
 * afterwards the destination's connection enforces them again, so deleting
 * a run takes its rows with it. */
static void test_copy_keeps_foreign_keys(void **state)
{
    struct tmp *t = *state;
    struct rec *out;
    sqlite3_stmt *st;

    write_shards(t);
    out = must_open(t->out);
    assert_int_equal(rec_copy_run(out, t->a, 1, 0), 1);
    assert_int_equal(rec_copy_run(out, t->a, 2, 0), 2);
    sqlite3 *db = rec_connection(out, "test");
    assert_non_null(db);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA foreign_keys", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 1);
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_exec(db, "DELETE FROM run WHERE id = 1", NULL, NULL, NULL), SQLITE_OK);
    rec_close(out);
    char *rows = db_rows(t->out, "SELECT (SELECT count(*) FROM param WHERE run_id = 1) +"
                                 " (SELECT count(*) FROM interval WHERE run_id = 1) +"
                                 " (SELECT count(*) FROM counter WHERE run_id = 1),"
                                 " (SELECT count(*) FROM interval WHERE run_id = 2) > 0");
    assert_string_equal(rows, "0|1\n");
    free(rows);
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
    assert_int_equal(write_run(a, &again, 1, "failed", "again"), 4);
    /* A complete run of the same file, label, seed and rep but another
     * resolved parameter (a --set) is another configuration, not a
     * duplicate. */
    struct rec_run_info other = run_info("h1", "high=1M", 11, 0, 0);
    assert_int_equal(rec_run_begin(a, &other), 5);
    assert_int_equal(rec_param(a, "axis.high", "1M"), 0);
    assert_int_equal(rec_param(a, "sim.duration", "3s"), 0);
    assert_int_equal(rec_run_end(a, "complete", 0.5, 1000, 3.0, NULL), 0);
    rec_close(a);
    assert_int_equal(rec_copy_run(out, t->a, 4, 0), 0);
    assert_int_equal(rec_copy_run(out, t->a, 5, 0), 5);
    assert_int_equal(rec_copy_run(out, t->a, 5, 0), 0);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_run_begin_explicit_id, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_exact_rows_and_ids, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_keeps_foreign_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_duplicates_skipped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_ids_chosen, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_other_version_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_interrupted_and_failed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy_from_busy_source, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
