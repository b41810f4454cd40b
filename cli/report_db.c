/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_db.c - reading a results database for `netsim report`: its
 * complete runs, the sweep axes and each run's values, a fingerprint of
 * each run's other parameters, and the metric's value per run (or per
 * flow or host of each run: report_metric.c), all into memory.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim/xalloc.h"
#include "cli/report_db.h"
#include "sinks/record.h"
#include "sinks/record_v1.h"

static char *col_dup(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return s ? xstrdup((const char *)s) : NULL;
}

static char *xstrdup_col(sqlite3_stmt *st, int i)
{
    char *s = col_dup(st, i);
    if (!s && sqlite3_column_type(st, i) != SQLITE_NULL)
        xoom();
    return s;
}

void rdb_free(struct rdb *d)
{
    for (size_t i = 0; i < d->nruns; i++) {
        free(d->runs[i].entity);
        free(d->runs[i].label);
        if (d->runs[i].shares)
            continue;
        for (int a = 0; a < d->naxes; a++)
            free(d->runs[i].vals[a]);
        free(d->runs[i].vals);
        free(d->runs[i].scenario);
        free(d->runs[i].hash);
    }
    free(d->runs);
    for (int a = 0; a < d->naxes; a++)
        free(d->axes[a]);
    free(d->axes);
    sqlite3_close(d->db);
}

static int db_fail(const struct rdb *d, const char *what)
{
    fprintf(stderr, "%s: %s: %s: %s\n", report_prog, d->path, what, sqlite3_errmsg(d->db));
    return 1;
}

static struct rrun *run_by_id(struct rdb *d, int64_t id)
{
    size_t lo = 0, hi = d->nruns;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->runs[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->nruns && d->runs[lo].id == id ? &d->runs[lo] : NULL;
}

/* The complete runs, in id order. */
static int read_runs(struct rdb *d)
{
    static const char sql[] =
        "SELECT r.id, r.scenario, r.scenario_hash, r.rep, r.seed FROM run r WHERE r.status = 'complete' ORDER BY r.id";
    sqlite3_stmt *st;
    size_t cap = 0;
    int rc;

    if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, "reading runs");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct rrun *r;

        d->complete++;
        d->runs = xgrow(d->runs, sizeof *d->runs, d->nruns, &cap, 256);
        r = &d->runs[d->nruns++];
        memset(r, 0, sizeof *r);
        r->id = sqlite3_column_int64(st, 0);
        r->scenario = xstrdup_col(st, 1);
        r->hash = xstrdup_col(st, 2);
        r->rep = sqlite3_column_int64(st, 3);
        r->seed = sqlite3_column_int64(st, 4);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, "reading runs");
    return 0;
}

/* The axes (in order of first appearance) and each run's values. */
static int read_axes(struct rdb *d)
{
    static const char names_sql[] =
        "SELECT substr(p.key, 6) FROM param p JOIN run r ON r.id = p.run_id"
        " WHERE r.status = 'complete' AND substr(p.key, 1, 5) = 'axis.'"
        " GROUP BY p.key ORDER BY min(p.rowid)";
    static const char vals_sql[] =
        "SELECT p.run_id, substr(p.key, 6), p.value FROM param p JOIN run r ON r.id = p.run_id"
        " WHERE r.status = 'complete' AND substr(p.key, 1, 5) = 'axis.' ORDER BY p.rowid";
    sqlite3_stmt *st;
    int rc;
    size_t cap = 0;

    if (sqlite3_prepare_v2(d->db, names_sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, "reading axes");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        d->axes = xgrow(d->axes, sizeof *d->axes, (size_t)d->naxes, &cap, 8);
        d->axes[d->naxes++] = xstrdup_col(st, 0);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, "reading axes");

    for (size_t i = 0; i < d->nruns; i++)
        d->runs[i].vals = xcalloc((size_t)d->naxes, sizeof(char *));
    if (d->naxes == 0)
        return 0;
    if (sqlite3_prepare_v2(d->db, vals_sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, "reading axes");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct rrun *r = run_by_id(d, sqlite3_column_int64(st, 0));
        const char *name = (const char *)sqlite3_column_text(st, 1);
        int a;

        if (!r || !name)
            continue;       /* a run without intervals */
        for (a = 0; a < d->naxes && strcmp(d->axes[a], name); a++)
            ;
        if (a < d->naxes && !r->vals[a])
            r->vals[a] = xstrdup_col(st, 2);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, "reading axes");
    return 0;
}

/*
 * A hash of each run's parameters but the axes and sim.seed (FNV-1a over
 * "key=value\n" in key order): runs of one combination should have equal
 * ones. Two `netsim run --set` variants appended to one database do not,
 * and report would otherwise average them silently.
 */
static int read_fingerprints(struct rdb *d)
{
    static const char sql[] =
        "SELECT p.run_id, p.key, p.value FROM param p JOIN run r ON r.id = p.run_id"
        " WHERE r.status = 'complete' AND substr(p.key, 1, 5) != 'axis.' AND p.key != 'sim.seed'"
        " ORDER BY p.run_id, p.key, p.rowid";
    sqlite3_stmt *st;
    int rc;

    if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, "reading params");
    for (size_t i = 0; i < d->nruns; i++)
        d->runs[i].fingerprint = 0xcbf29ce484222325ULL;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct rrun *r = run_by_id(d, sqlite3_column_int64(st, 0));
        for (int c = 1; r && c <= 2; c++) {
            const unsigned char *s = sqlite3_column_text(st, c);
            for (; s && *s; s++)
                r->fingerprint = (r->fingerprint ^ *s) * 0x100000001b3ULL;
            r->fingerprint = (r->fingerprint ^ (c == 1 ? '=' : '\n')) * 0x100000001b3ULL;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(d, "reading params");
    return 0;
}

/* The label of flow `entity` of run id. */
static char *flow_label(sqlite3_stmt *st, int64_t id, const char *entity)
{
    char key[48];
    char *s = NULL;

    snprintf(key, sizeof key, "label.flow.%s", entity);
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) == SQLITE_ROW)
        s = xstrdup_col(st, 0);
    return s;
}

/* Replaces the runs by the metric's rows: one per run (or per flow or
 * host of it) that has a value, in run order; runs without one are
 * counted in no_intervals. */
static int read_values(struct rdb *d)
{
    sqlite3_stmt *st, *lab = NULL;
    struct rrun *rows = NULL;
    size_t n = 0, cap = 0, at = 0;
    int rc;
    char *used = xcalloc(d->nruns + 1, 1);

    if (metric_query(d->db, &d->use, &st) != 0)
        return free(used), db_fail(d, "reading the metric");
    if (d->use.by == BY_FLOW &&
        sqlite3_prepare_v2(d->db, "SELECT value FROM param WHERE run_id = ?1 AND key = ?2", -1, &lab, NULL) !=
            SQLITE_OK) {
        sqlite3_finalize(st);
        return free(used), db_fail(d, "reading flow labels");
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(st, 0);
        while (at < d->nruns && d->runs[at].id < id)
            at++;
        if (at == d->nruns || d->runs[at].id != id || sqlite3_column_type(st, 2) == SQLITE_NULL)
            continue;     /* not a complete run */
        if (d->use.by != BY_RUN && sqlite3_column_type(st, 1) == SQLITE_NULL)
            continue;
        rows = xgrow(rows, sizeof *rows, n, &cap, 256);
        struct rrun *r = &rows[n++];
        *r = d->runs[at];
        r->shares = used[at];
        used[at] = 1;
        r->value = sqlite3_column_double(st, 2);
        r->entity = d->use.by == BY_RUN ? NULL : xstrdup_col(st, 1);
        r->label = d->use.by == BY_FLOW ? flow_label(lab, id, r->entity) : NULL;
    }
    sqlite3_finalize(st);
    sqlite3_finalize(lab);
    for (size_t i = 0; i < d->nruns; i++) {
        if (used[i])
            continue;
        d->no_intervals++;
        for (int a = 0; a < d->naxes; a++)
            free(d->runs[i].vals[a]);
        free(d->runs[i].vals);
        free(d->runs[i].scenario);
        free(d->runs[i].hash);
    }
    free(used);
    free(d->runs);
    d->runs = rows;
    d->nruns = n;
    if (rc != SQLITE_DONE)
        return db_fail(d, "reading the metric");
    return 0;
}

int rdb_load(struct rdb *d, const char *path, const struct metric_use *u)
{
    sqlite3_stmt *st;
    int64_t version = -1;

    memset(d, 0, sizeof *d);
    d->path = path;
    d->use = *u;
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "%s: %s: cannot open: %s\n", report_prog, path, strerror(errno));
        return 1;
    }
    const char *what = rec_not_a_file(path);
    if (what) {
        fprintf(stderr, "%s: %s: not a regular file (%s): a results database is a file\n", report_prog, path, what);
        return 1;
    }
    char why[1024];
    if (!(d->db = rec_open_read(path, why, sizeof why))) {
        fprintf(stderr, "%s: %s: cannot read: %s\n", report_prog, path, why);
        return 1;
    }
    sqlite3_busy_timeout(d->db, 10000);
    metric_resolve_dir(d->db, &d->use);
    if (sqlite3_prepare_v2(d->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (version < 0)
        return db_fail(d, "cannot read");
    if ((version < RECORD_SCHEMA_OLDEST || version > RECORD_SCHEMA_VERSION)) {
        if (version == 0)
            fprintf(stderr, "%s: %s: not a netsim results database\n", report_prog, path);
        else
            fprintf(stderr, "%s: %s: results schema version %lld, this netsim reads versions 1 to %d\n", report_prog,
                    path, (long long)version, RECORD_SCHEMA_VERSION);
        return 1;
    }
    /* An old file is read as it is (it may be read-only, or a sweep may
     * still be writing it): views respell it as version 2. */
    if (version == 1 && rec_v1_views(d->db) != SQLITE_OK)
        return db_fail(d, "reading schema version 1");
    if (read_runs(d) || read_axes(d) || read_fingerprints(d) || read_values(d))
        return 1;

    /* Scenario names and versions, for the columns shown. */
    for (size_t i = 0; i < d->nruns; i++) {
        size_t j;
        for (j = 0; j < i && !str_same(d->runs[j].scenario, d->runs[i].scenario); j++)
            ;
        if (j == i)
            d->nscenarios++;
        else if (!str_same(d->runs[j].hash, d->runs[i].hash))
            d->versions = 1;
        if (d->nscenarios > 1 && d->versions)
            break;
    }
    return 0;
}
