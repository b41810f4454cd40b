/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record.c - the results database: one SQLite file per invocation, one
 * transaction per run.
 *
 * The file keeps SQLite's default rollback journal, not WAL: a WAL database
 * is three files until the last connection checkpoints, and results are
 * copied around (cluster jobs, `netsim merge`) as single files. With a
 * rollback journal a killed process leaves a hot journal beside the file;
 * the next connection rolls it back, so a half-written run vanishes.
 *
 * Every insert uses a statement prepared once when the file is opened
 * (record_open.c). Inside the run's transaction an insert touches only the
 * page cache; the disk is written at COMMIT.
 */
#include "sinks/record_impl.h"
#include "sim/invariant.h"
#include "sim/xalloc.h"

#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Errors                                                               */

static void set_err(struct rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_err(struct rec *r, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(r->errmsg, sizeof r->errmsg, "%s: ", r->path);
    if (n < 0 || (size_t)n >= sizeof r->errmsg)
        return;
    va_start(ap, fmt);
    vsnprintf(r->errmsg + n, sizeof r->errmsg - (size_t)n, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Statements                                                           */

/*
 * Steps a bound insert/update/transaction statement to completion and
 * resets it. On failure keeps the message (what: which statement) and, if
 * SQLite rolled the whole transaction back (disk full, I/O error), forgets
 * the open run: nothing of it is left to commit.
 */
static int step(struct rec *r, enum rec_stmt which, const char *what)
{
    sqlite3_stmt *st = rec_st(r, which);
    int rc = st ? sqlite3_step(st) : SQLITE_ERROR;   /* not prepared: errmsg says why */

    if (rc == SQLITE_DONE) {
        sqlite3_reset(st);
        return 0;
    }
    if ((rc & 0xff) == SQLITE_FULL && r->limit)
        set_err(r, "%s: %s (a scratch database in memory holds at most %llu MB of a run's rows)", what,
                sqlite3_errmsg(r->db), (unsigned long long)(r->limit >> 20));
    else
        set_err(r, "%s: %s", what, sqlite3_errmsg(r->db));
    sqlite3_reset(st);
    /* A run that lost a row is lost whole, and kept as lost: SQLite may
     * have rolled back the statement only, and a run with a row missing
     * must not commit as complete; later calls keep this first reason. */
    if (r->run_id >= 0) {
        r->lost = true;
        r->run_id = -1;
        if (!sqlite3_get_autocommit(r->db)) {
            sqlite3_step(rec_st(r, ST_ROLLBACK));
            sqlite3_reset(rec_st(r, ST_ROLLBACK));
        }
    }
    return -1;
}

/* Strings are bound SQLITE_STATIC: every statement is stepped and reset
 * before the caller's strings can go away. NULL binds SQL NULL. */
static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

/* Abandons the open transaction, if SQLite has not already done so. */
static void rollback(struct rec *r)
{
    if (!sqlite3_get_autocommit(r->db)) {
        sqlite3_step(rec_st(r, ST_ROLLBACK));
        sqlite3_reset(rec_st(r, ST_ROLLBACK));
    }
}

static int need_run(struct rec *r, const char *what)
{
    if (r->run_id >= 0)
        return 0;
    if (!r->lost)                /* else errmsg holds why the run was lost */
        set_err(r, "%s: no run in progress", what);
    return -1;
}

static int need_no_run(struct rec *r, const char *what)
{
    if (r->run_id < 0)
        return 0;
    set_err(r, "%s: run %lld is still in progress", what, (long long)r->run_id);
    return -1;
}

static double elapsed_since(const struct timespec *t0)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* ------------------------------------------------------------------ */
/* Runs                                                                 */

int64_t rec_run_begin(struct rec *r, const struct rec_run_info *info)
{
    sqlite3_stmt *st = rec_st(r, ST_RUN_INSERT);
    char started[32], host[256];
    struct tm tm;
    time_t now = time(NULL);

    if (r->run_id >= 0) {
        set_err(r, "begin run: run %lld is still in progress", (long long)r->run_id);
        return -1;
    }
    if (gmtime_r(&now, &tm) == NULL || strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        started[0] = '\0';
    if (gethostname(host, sizeof host) != 0)
        host[0] = '\0';
    host[sizeof host - 1] = '\0';

    r->lost = false;
    if (step(r, ST_BEGIN, "begin run") != 0)
        return -1;
    bind_text(st, 1, info->scenario);
    bind_text(st, 2, info->variant_label);
    /* A seed >= 2^63 is stored as its two's-complement int64. */
    sqlite3_bind_int64(st, 3, (sqlite3_int64)info->seed);
    sqlite3_bind_int(st, 4, info->rep);
    bind_text(st, 5, started[0] ? started : NULL);
    bind_text(st, 6, info->scenario_hash);
    bind_text(st, 7, host[0] ? host : NULL);
    /* NULL id: SQLite picks max(id) + 1, as for any INTEGER PRIMARY KEY. */
    if (info->id > 0)
        sqlite3_bind_int64(st, 8, info->id);
    else
        sqlite3_bind_null(st, 8);
    if (step(r, ST_RUN_INSERT, "insert run") != 0) {
        rollback(r);
        return -1;
    }
    r->run_id = sqlite3_last_insert_rowid(r->db);
    r->npend = r->nppend = 0;
    r->names.len = r->pnames.len = 0;
    clock_gettime(CLOCK_MONOTONIC, &r->run_t0);
    return r->run_id;
}

/* Keeps a copy of s in a; its offset in *off (REC_NULL_STR for NULL,
 * which binds SQL NULL). */
static void keep_str(struct rec_strs *a, const char *s, size_t *off)
{
    if (!s) {
        *off = REC_NULL_STR;
        return;
    }
    size_t n = strlen(s) + 1;

    if (a->len + n > a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 4096;
        while (cap < a->len + n)
            cap *= 2;
        a->p = xrealloc(a->p, cap);
        a->cap = cap;
    }
    memcpy(a->p + a->len, s, n);
    *off = a->len;
    a->len += n;
}

static const char *kept(const struct rec_strs *a, size_t off)
{
    return off == REC_NULL_STR ? NULL : a->p + off;
}

/* The pending parameters into the table, as flush_counters does: a full
 * batch in one statement, fewer one by one. */
static int flush_params(struct rec *r)
{
    int per = r->nppend == PARAM_BATCH ? PARAM_BATCH : 1, rc = 0;
    enum rec_stmt which = per > 1 ? ST_PARAMS : ST_PARAM;
    sqlite3_stmt *st = rec_st(r, which);

    sqlite3_bind_int64(st, 1, r->run_id);
    for (int k = 0; k < r->nppend && rc == 0;) {
        for (int j = 0; j < per; j++, k++) {
            bind_text(st, 2 * j + 2, kept(&r->pnames, r->ppend[k].key));
            bind_text(st, 2 * j + 3, kept(&r->pnames, r->ppend[k].value));
        }
        rc = step(r, which, "insert param");
    }
    r->nppend = 0;
    r->pnames.len = 0;
    return rc;
}

/* Parameters wait, copied, for a batch to fill or the run to end: a
 * failed insert fails the call that flushes it, at the latest the run's
 * end, which then rolls the run back. */
int rec_param(struct rec *r, const char *key, const char *value)
{
    if (need_run(r, "insert param") != 0)
        return -1;
    size_t k, v;
    keep_str(&r->pnames, key, &k);
    keep_str(&r->pnames, value, &v);
    /* a full batch was flushed (and emptied, failed or not) when it filled */
    INVARIANT(r->nppend < PARAM_BATCH);
    r->ppend[r->nppend].key = k;
    r->ppend[r->nppend++].value = v;
    return r->nppend == PARAM_BATCH ? flush_params(r) : 0;
}

int rec_interval(struct rec *r, int flow, double t_start, double t_end, uint64_t bytes, double bits_per_s)
{
    sqlite3_stmt *st = rec_st(r, ST_INTERVAL);

    if (need_run(r, "insert interval") != 0)
        return -1;
    sqlite3_bind_int64(st, 1, r->run_id);
    sqlite3_bind_int(st, 2, flow);
    sqlite3_bind_double(st, 3, t_start);
    sqlite3_bind_double(st, 4, t_end);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)bytes);
    sqlite3_bind_double(st, 6, bits_per_s);
    return step(r, ST_INTERVAL, "insert interval");
}

int rec_series(struct rec *r, const char *name, double t, double value)
{
    sqlite3_stmt *st = rec_st(r, ST_SERIES);

    if (need_run(r, "insert series") != 0)
        return -1;
    sqlite3_bind_int64(st, 1, r->run_id);
    bind_text(st, 2, name);
    sqlite3_bind_double(st, 3, t);
    sqlite3_bind_double(st, 4, value);
    return step(r, ST_SERIES, "insert series");
}

/* The pending counters into the table: a full batch in one statement,
 * fewer one by one (the run's last). */
static int flush_counters(struct rec *r)
{
    int per = r->npend == COUNTER_BATCH ? COUNTER_BATCH : 1, rc = 0;
    enum rec_stmt which = per > 1 ? ST_COUNTERS : ST_COUNTER;
    sqlite3_stmt *st = rec_st(r, which);

    sqlite3_bind_int64(st, 1, r->run_id);
    for (int k = 0; k < r->npend && rc == 0;) {
        for (int j = 0; j < per; j++, k++) {
            bind_text(st, 3 * j + 2, kept(&r->names, r->pend[k].name));
            sqlite3_bind_int64(st, 3 * j + 3, (sqlite3_int64)r->pend[k].value);
            sqlite3_bind_int(st, 3 * j + 4, r->pend[k].is_drop);
        }
        rc = step(r, which, "insert counter");
    }
    r->npend = 0;
    r->names.len = 0;
    return rc;
}

int rec_counter(struct rec *r, const char *name, uint64_t value, bool is_drop)
{
    size_t off;

    if (need_run(r, "insert counter") != 0)
        return -1;
    keep_str(&r->names, name, &off);
    INVARIANT(r->npend < COUNTER_BATCH);
    r->pend[r->npend].name = off;
    r->pend[r->npend].value = (int64_t)value;
    r->pend[r->npend++].is_drop = is_drop;
    return r->npend == COUNTER_BATCH ? flush_counters(r) : 0;
}

int rec_profile(struct rec *r, const char *host, int cpu, const char *symbol, double cpu_ns, uint64_t calls)
{
    sqlite3_stmt *st = rec_st(r, ST_PROFILE);

    if (need_run(r, "insert profile") != 0)
        return -1;
    sqlite3_bind_int64(st, 1, r->run_id);
    bind_text(st, 2, host);
    if (cpu >= 0)
        sqlite3_bind_int(st, 3, cpu);
    else
        sqlite3_bind_null(st, 3);
    bind_text(st, 4, symbol);
    sqlite3_bind_double(st, 5, cpu_ns);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)calls);
    return step(r, ST_PROFILE, "insert profile");
}

/* fct from the exact simulated times, not the difference of two doubles */
int rec_message(struct rec *r, const struct sink_message *m)
{
    sqlite3_stmt *st = rec_st(r, ST_MESSAGE);

    if (need_run(r, "insert message") != 0)
        return -1;
    sqlite3_bind_int64(st, 1, r->run_id);
    sqlite3_bind_int(st, 2, m->flow);
    bind_text(st, 3, m->kind);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)m->id);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)m->size);
    sqlite3_bind_double(st, 6, time_to_s(m->t_start));
    sqlite3_bind_double(st, 7, time_to_s(m->t_end));
    sqlite3_bind_double(st, 8, time_to_s(m->t_end - m->t_start));
    if (m->ideal > 0)
        sqlite3_bind_double(st, 9, time_to_s(m->ideal));
    else
        sqlite3_bind_null(st, 9);
    sqlite3_bind_int64(st, 10, m->rtos);
    return step(r, ST_MESSAGE, "insert message");
}

/*
 * Writes the final state of the open run and commits. events < 0 and a
 * NaN sim_s store NULL (unknown, as when rec_close ends the run). If COMMIT fails the
 * transaction is rolled back: the run is lost, as if the process had died.
 */
static int run_finish(struct rec *r, const char *status, double wall_s, int64_t events, double sim_s,
                      const char *error)
{
    sqlite3_stmt *st = rec_st(r, ST_RUN_END);

    if (r->nppend && flush_params(r) != 0) {
        rollback(r);             /* a run without all its parameters is no run */
        r->run_id = -1;
        return -1;
    }
    if (r->npend && flush_counters(r) != 0 && r->run_id < 0)
        return -1;               /* SQLite rolled the run back */
    bind_text(st, 1, status);
    sqlite3_bind_double(st, 2, wall_s);
    if (events >= 0)
        sqlite3_bind_int64(st, 3, events);
    else
        sqlite3_bind_null(st, 3);
    if (isnan(sim_s))
        sqlite3_bind_null(st, 4);
    else
        sqlite3_bind_double(st, 4, sim_s);
    bind_text(st, 5, error);
    sqlite3_bind_int64(st, 6, r->run_id);
    /* the run commits with every row it was given: none left pending */
    INVARIANT(!r->npend && !r->nppend && !r->names.len && !r->pnames.len);
    if (step(r, ST_RUN_END, "end run") != 0 || step(r, ST_COMMIT, "commit run") != 0) {
        rollback(r);
        r->run_id = -1;
        return -1;
    }
    r->run_id = -1;
    return 0;
}

int rec_run_end(struct rec *r, const char *status, double wall_s, uint64_t events, double sim_s, const char *error)
{
    if (need_run(r, "end run") != 0)
        return -1;
    if (!status || (strcmp(status, "complete") != 0 && strcmp(status, "interrupted") != 0 &&
                    strcmp(status, "failed") != 0)) {
        /* The run stays open: the caller may end it again properly. */
        set_err(r, "end run: bad status '%s' (complete, interrupted or failed)", status ? status : "(null)");
        return -1;
    }
    return run_finish(r, status, wall_s, (int64_t)(events > INT64_MAX ? INT64_MAX : events), sim_s, error);
}

const char *rec_errmsg(const struct rec *r)
{
    return r->errmsg;
}

bool rec_lost(const struct rec *r)
{
    return r->lost;
}

int rec_note_run(struct rec *r, int64_t id, const char *error, const char *key, const char *value)
{
    sqlite3_stmt *st = NULL;
    int rc = SQLITE_ERROR;

    if (need_no_run(r, "note run") != 0)
        return -1;
    if (sqlite3_exec(r->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        goto out;
    if (sqlite3_prepare_v2(r->db, "UPDATE run SET error = ?1 WHERE id = ?2", -1, &st, NULL) != SQLITE_OK)
        goto out;
    bind_text(st, 1, error);
    sqlite3_bind_int64(st, 2, id);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    st = NULL;
    if (rc != SQLITE_DONE || sqlite3_changes(r->db) != 1) {
        rc = rc == SQLITE_DONE ? SQLITE_NOTFOUND : rc;
        goto out;
    }
    rc = SQLITE_DONE;
    if (key) {
        sqlite3_stmt *p = rec_st(r, ST_PARAM);
        if (!p) {
            rc = SQLITE_ERROR;
            goto out;
        }
        sqlite3_bind_int64(p, 1, id);
        bind_text(p, 2, key);
        bind_text(p, 3, value);
        rc = sqlite3_step(p);
        sqlite3_reset(p);
    }
    if (rc == SQLITE_DONE && sqlite3_exec(r->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        rc = SQLITE_ERROR;
out:
    if (rc != SQLITE_DONE)
        set_err(r, "note run: %s", rc == SQLITE_NOTFOUND ? "no such run" : sqlite3_errmsg(r->db));
    sqlite3_finalize(st);
    rollback(r);
    return rc == SQLITE_DONE ? 0 : -1;
}

const char *rec_attach_name(const struct rec *r)
{
    return r->name;
}

void rec_on_progress(struct rec *r, int (*fn)(void *), void *arg)
{
    /* about a millisecond of work between calls */
    sqlite3_progress_handler(r->db, fn ? 100000 : 0, fn, arg);
}

struct sqlite3 *rec_connection(struct rec *r, const char *what)
{
    return need_no_run(r, what) == 0 ? r->db : NULL;
}

void rec_set_error(struct rec *r, const char *fmt, ...)
{
    char msg[sizeof r->errmsg];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    set_err(r, "%s", msg);
}

void rec_close(struct rec *r)
{
    if (!r)
        return;
    if (r->run_id >= 0)
        run_finish(r, "interrupted", elapsed_since(&r->run_t0), -1, NAN,
                   "results database closed before the run ended");
    rec_free(r);
}
