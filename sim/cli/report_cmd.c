/*
 * report_cmd.c - `netsim report DB [--compare AXIS=A,B] [--json]`: the
 * statistics of a results database, per sweep combination over its
 * repeats, or variant B against variant A on paired seeds.
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
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim/cli/commands.h"
#include "sim/out/json.h"
#include "sim/out/record.h"
#include "sim/cli/stats.h"

#define LEVEL 0.95

/* Warnings about mixed parameters, at most this many (then a count). */
#define MAX_MIX_WARNINGS 5

static const char usage_report[] =
    "usage: netsim report DB [options]\n"
    "\n"
    "Goodput of the complete runs in the results database DB: one row per\n"
    "sweep combination (the values of its ${...} axes), over its repeats:\n"
    "mean, standard deviation and the 95% confidence interval of the mean\n"
    "(Student's t, n-1 degrees of freedom). A run's goodput is the bytes of\n"
    "all its flows x 8 over its first-to-last interval span.\n"
    "\n"
    "options:\n"
    "      --compare AXIS=A,B  B against A on paired seeds (the same rep) for\n"
    "                          every combination of the other axes: mean %change\n"
    "                          with its 95% interval and the paired t test's p;\n"
    "                          REGRESSION when the interval is all below 0,\n"
    "                          improvement when all above, else no change.\n"
    "                          e.g. --compare tcp.drs=trimodal,continuous\n"
    "      --metric NAME       what to compare: goodput (the only one so far)\n"
    "      --json              print one JSON document instead of tables\n"
    "  -h, --help              this text\n"
    "\n"
    "Exit status: 0 success, 1 database missing or without complete runs,\n"
    "2 bad usage (unknown axis or value included).\n";

/* One complete run with intervals. */
struct rrun {
    int64_t id;
    char *scenario;             /* NULL for SQL NULL, like every string here */
    char *hash;
    int64_t rep, seed;
    double goodput;             /* bit/s */
    uint64_t fingerprint;       /* of its non-axis params but sim.seed */
    char **vals;                /* value of each axis, NULL where it has none */
};

struct rdb {
    const char *path;
    sqlite3 *db;
    char **axes;                /* names without "axis.", in order of first appearance */
    int naxes;
    struct rrun *runs;          /* by id */
    size_t nruns;
    size_t complete;            /* complete runs, with or without intervals */
    size_t no_intervals;        /* complete runs left out: no interval rows or an empty span */
    int nscenarios;             /* distinct scenario names */
    int versions;               /* some scenario has runs of two versions */
};

/* A set of runs (indices into rdb.runs, ascending). */
struct rset {
    size_t *idx;
    size_t n, cap;
};

static int rset_add(struct rset *s, size_t i)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        size_t *p = realloc(s->idx, cap * sizeof *p);
        if (!p)
            return -1;
        s->idx = p;
        s->cap = cap;
    }
    s->idx[s->n++] = i;
    return 0;
}

static int str_same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static char *col_dup(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return s ? strdup((const char *)s) : NULL;
}

static void oom(void)
{
    fprintf(stderr, "netsim report: out of memory\n");
    exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        oom();
    return p;
}

static char *xstrdup_col(sqlite3_stmt *st, int i)
{
    char *s = col_dup(st, i);
    if (!s && sqlite3_column_type(st, i) != SQLITE_NULL)
        oom();
    return s;
}

/* ------------------------------------------------------------------ */
/* Reading the database                                                 */

static void rdb_free(struct rdb *d)
{
    for (size_t i = 0; i < d->nruns; i++) {
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
    fprintf(stderr, "netsim report: %s: %s: %s\n", d->path, what, sqlite3_errmsg(d->db));
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

/* The complete runs with their goodput, in id order. */
static int read_runs(struct rdb *d)
{
    static const char sql[] =
        "SELECT r.id, r.scenario, r.scenario_hash, r.rep, r.seed, g.bytes, g.t0, g.t1"
        " FROM run r LEFT JOIN (SELECT run_id, total(bytes) AS bytes, min(t_start) AS t0, max(t_end) AS t1"
        "                       FROM interval GROUP BY run_id) g ON g.run_id = r.id"
        " WHERE r.status = 'complete' ORDER BY r.id";
    sqlite3_stmt *st;
    size_t cap = 0;
    int rc;

    if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, "reading runs");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        double bytes = sqlite3_column_double(st, 5), t0 = sqlite3_column_double(st, 6),
               t1 = sqlite3_column_double(st, 7);
        struct rrun *r;

        d->complete++;
        if (sqlite3_column_type(st, 5) == SQLITE_NULL || !(t1 > t0)) {
            d->no_intervals++;
            continue;
        }
        if (d->nruns == cap) {
            cap = cap ? 2 * cap : 256;
            d->runs = realloc(d->runs, cap * sizeof *d->runs);
            if (!d->runs)
                oom();
        }
        r = &d->runs[d->nruns++];
        memset(r, 0, sizeof *r);
        r->id = sqlite3_column_int64(st, 0);
        r->scenario = xstrdup_col(st, 1);
        r->hash = xstrdup_col(st, 2);
        r->rep = sqlite3_column_int64(st, 3);
        r->seed = sqlite3_column_int64(st, 4);
        r->goodput = bytes * 8 / (t1 - t0);
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
    int rc, cap = 0;

    if (sqlite3_prepare_v2(d->db, names_sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, "reading axes");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (d->naxes == cap) {
            cap = cap ? 2 * cap : 8;
            d->axes = realloc(d->axes, (size_t)cap * sizeof *d->axes);
            if (!d->axes)
                oom();
        }
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

/* Opens DB read-only and reads it. Returns 0, or 1 after saying why. */
static int rdb_load(struct rdb *d, const char *path)
{
    sqlite3_stmt *st;
    int64_t version = -1;

    memset(d, 0, sizeof *d);
    d->path = path;
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "netsim report: %s: cannot open: %s\n", path, strerror(errno));
        return 1;
    }
    if (sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fprintf(stderr, "netsim report: %s: cannot open: %s\n", path,
                d->db ? sqlite3_errmsg(d->db) : "out of memory");
        return 1;
    }
    sqlite3_busy_timeout(d->db, 10000);
    if (sqlite3_prepare_v2(d->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (version < 0)
        return db_fail(d, "cannot read");
    if (version != RECORD_SCHEMA_VERSION) {
        if (version == 0)
            fprintf(stderr, "netsim report: %s: not a netsim results database\n", path);
        else
            fprintf(stderr, "netsim report: %s: results schema version %lld, this netsim reads version %d\n",
                    path, (long long)version, RECORD_SCHEMA_VERSION);
        return 1;
    }
    if (read_runs(d) || read_axes(d) || read_fingerprints(d))
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

/* ------------------------------------------------------------------ */
/* Combinations                                                         */

/* Same scenario, version and values of every axis but `skip` (-1: none)
 * and those marked in `ignore` (may be NULL). */
static int same_combination(const struct rdb *d, const struct rrun *a, const struct rrun *b, int skip,
                            const char *ignore)
{
    if (!str_same(a->scenario, b->scenario) || !str_same(a->hash, b->hash))
        return 0;
    for (int i = 0; i < d->naxes; i++)
        if (i != skip && !(ignore && ignore[i]) && !str_same(a->vals[i], b->vals[i]))
            return 0;
    return 1;
}

/* A combination: its runs, lowest id first. */
struct combo {
    struct rset runs;
};

struct combos {
    struct combo *c;
    size_t n, cap;
};

static void combos_free(struct combos *cs)
{
    for (size_t i = 0; i < cs->n; i++)
        free(cs->c[i].runs.idx);
    free(cs->c);
}

/* Adds run i to its combination (a new one at the end if none matches). */
static void combos_add(struct combos *cs, const struct rdb *d, size_t i, int skip, const char *ignore)
{
    size_t k;

    for (k = 0; k < cs->n; k++)
        if (same_combination(d, &d->runs[cs->c[k].runs.idx[0]], &d->runs[i], skip, ignore))
            break;
    if (k == cs->n) {
        if (cs->n == cs->cap) {
            cs->cap = cs->cap ? 2 * cs->cap : 16;
            cs->c = realloc(cs->c, cs->cap * sizeof *cs->c);
            if (!cs->c)
                oom();
        }
        memset(&cs->c[cs->n++], 0, sizeof cs->c[0]);
    }
    if (rset_add(&cs->c[k].runs, i) != 0)
        oom();
}

/*
 * Warns (stderr) when the runs of one combination differ in a parameter
 * that is not an axis: they were not made by one sweep, and their figures
 * are averaged as if they were repeats. Names the first differing key.
 * With ax >= 0 (--compare) a row holds both variants: runs are compared
 * with the first run of the row that has their value of ax.
 */
static void warn_mixed(const struct rdb *d, const struct combos *cs, int ax)
{
    static const char sql[] =
        "SELECT a.key, a.value, b.value FROM param a LEFT JOIN param b ON b.run_id = ?2 AND b.key = a.key"
        " WHERE a.run_id = ?1 AND substr(a.key, 1, 5) != 'axis.' AND a.key != 'sim.seed'"
        " AND a.value IS NOT b.value ORDER BY a.rowid LIMIT 1";
    int warned = 0;

    for (size_t k = 0; k < cs->n; k++) {
        const struct rset *s = &cs->c[k].runs;
        for (size_t j = 1; j < s->n; j++) {
            const struct rrun *r = &d->runs[s->idx[j]], *r0 = NULL;
            sqlite3_stmt *st;
            for (size_t i = 0; i < j && !r0; i++)
                if (ax < 0 || str_same(d->runs[s->idx[i]].vals[ax], r->vals[ax]))
                    r0 = &d->runs[s->idx[i]];
            if (!r0 || r->fingerprint == r0->fingerprint)
                continue;
            if (++warned > MAX_MIX_WARNINGS)
                break;
            fprintf(stderr, "netsim report: warning: runs %lld and %lld are one combination but differ in",
                    (long long)r0->id, (long long)r->id);
            if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) == SQLITE_OK) {
                sqlite3_bind_int64(st, 1, r0->id);
                sqlite3_bind_int64(st, 2, r->id);
                if (sqlite3_step(st) == SQLITE_ROW) {
                    const unsigned char *v1 = sqlite3_column_text(st, 1), *v2 = sqlite3_column_text(st, 2);
                    fprintf(stderr, " '%s' (%s vs %s)", sqlite3_column_text(st, 0), v1 ? (const char *)v1 : "none",
                            v2 ? (const char *)v2 : "none");
                } else {
                    fputs(" their parameters", stderr);
                }
                sqlite3_finalize(st);
            }
            fputs(": averaged as repeats; give each variant its own database or make it a sweep axis\n",
                  stderr);
            break;
        }
    }
    if (warned > MAX_MIX_WARNINGS)
        fprintf(stderr, "netsim report: warning: ... and more combinations like that\n");
}

/* ------------------------------------------------------------------ */
/* Formatting                                                           */

/* The unit for a bit rate: 1000-based, as iperf3's Bitrate column. */
static double rate_unit(double v, const char **name)
{
    static const char *const names[] = { "bits/sec", "Kbits/sec", "Mbits/sec", "Gbits/sec", "Tbits/sec" };
    double scale = 1;
    int i = 0;

    while (isfinite(v) && fabs(v) >= 999.95 * scale && i < 4) {
        scale *= 1000;
        i++;
    }
    *name = names[i];
    return scale;
}

/* Decimals that give 4 significant digits to v in its unit (9.412,
 * 12.31, 950.0), so values of one row line up. */
static int decimals_for(double scaled)
{
    double a = fabs(scaled);
    return a < 9.9995 ? 3 : a < 99.995 ? 2 : 1;
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        oom();
    va_end(ap);
    return s;
}

static char *fmt_num(double v, int dec)
{
    return isfinite(v) ? xasprintf("%.*f", dec, v) : xasprintf("-");
}

static char *fmt_pct(double v)
{
    return isfinite(v) ? xasprintf("%+.2f%%", v) : xasprintf("-");
}

static char *fmt_p(double p)
{
    if (!isfinite(p))
        return xasprintf("-");
    if (p < 0.0001)
        return xasprintf("<0.0001");
    return xasprintf("%.4f", p);
}

/* A text table: cells by row, printed with each column as wide as its
 * widest cell; numeric columns right-aligned. */
struct table {
    int ncols;
    const char *const *head;
    const char *right;          /* per column: 1 right-aligned */
    char **cells;
    size_t nrows, cap;
};

static void table_row(struct table *t, char **cells)
{
    if (t->nrows == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->cells = realloc(t->cells, t->cap * (size_t)t->ncols * sizeof *t->cells);
        if (!t->cells)
            oom();
    }
    memcpy(&t->cells[t->nrows++ * (size_t)t->ncols], cells, (size_t)t->ncols * sizeof *cells);
}

static void table_print(struct table *t, FILE *f)
{
    size_t *w = xcalloc((size_t)t->ncols, sizeof *w);

    for (int c = 0; c < t->ncols; c++) {
        w[c] = strlen(t->head[c]);
        for (size_t r = 0; r < t->nrows; r++) {
            size_t n = strlen(t->cells[r * (size_t)t->ncols + c]);
            if (n > w[c])
                w[c] = n;
        }
    }
    for (size_t r = 0; r <= t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            const char *s = r == 0 ? t->head[c] : t->cells[(r - 1) * (size_t)t->ncols + c];
            int last = c == t->ncols - 1;
            if (t->right[c])
                fprintf(f, "%*s", (int)w[c], s);
            else if (last)
                fputs(s, f);
            else
                fprintf(f, "%-*s", (int)w[c], s);
            fputs(last ? "\n" : "  ", f);
        }
    }
    free(w);
    for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
}

/* ---- JSON ---- */

/* "scenario": ..., "scenario_hash": ..., "axes": {name: value, ...} of a
 * combination's first run, without `skip` and `ignore`d axes. */
static void json_combination(FILE *f, const struct rdb *d, const struct rrun *r, int skip, const char *ignore)
{
    int first = 1;

    fputs("\"scenario\": ", f);
    json_str(f, r->scenario);
    fputs(", \"scenario_hash\": ", f);
    json_str(f, r->hash);
    fputs(", \"axes\": {", f);
    for (int a = 0; a < d->naxes; a++) {
        if (a == skip || (ignore && ignore[a]))
            continue;
        fputs(first ? "" : ", ", f);
        first = 0;
        json_str(f, d->axes[a]);
        fputs(": ", f);
        json_str(f, r->vals[a]);
    }
    fputc('}', f);
}

/* ------------------------------------------------------------------ */
/* The leading columns: scenario/version when they vary, the axes        */

struct lead {
    int scenario, version;      /* show these columns */
    int axes[64];               /* axis indices shown */
    int naxes;
};

/* Shows the axes but `skip` and `ignore`d ones that have a value in some
 * row (a database holding two scenarios has axes of each). */
static void lead_init(struct lead *l, const struct rdb *d, const struct combos *cs, int skip, const char *ignore)
{
    memset(l, 0, sizeof *l);
    for (int a = 0; a < d->naxes && l->naxes < 64; a++) {
        size_t k;
        if (a == skip || (ignore && ignore[a]))
            continue;
        for (k = 0; k < cs->n && !d->runs[cs->c[k].runs.idx[0]].vals[a]; k++)
            ;
        if (k < cs->n)
            l->axes[l->naxes++] = a;
    }
    l->scenario = d->nscenarios > 1 || l->naxes == 0;
    l->version = d->versions;
}

static int lead_count(const struct lead *l)
{
    return l->scenario + l->version + l->naxes;
}

static void lead_head(const struct lead *l, const struct rdb *d, const char **head)
{
    int c = 0;

    if (l->scenario)
        head[c++] = "scenario";
    if (l->version)
        head[c++] = "version";
    for (int i = 0; i < l->naxes; i++)
        head[c++] = d->axes[l->axes[i]];
}

static void lead_cells(const struct lead *l, const struct rrun *r, char **cells)
{
    int c = 0;

    if (l->scenario)
        cells[c++] = xasprintf("%s", r->scenario ? r->scenario : "-");
    if (l->version)
        cells[c++] = xasprintf("%.8s", r->hash ? r->hash : "-");
    for (int i = 0; i < l->naxes; i++)
        cells[c++] = xasprintf("%s", r->vals[l->axes[i]] ? r->vals[l->axes[i]] : "-");
}

/* ------------------------------------------------------------------ */
/* Without --compare: one row per combination                           */

static int report_combinations(struct rdb *d, int json)
{
    struct combos cs = { 0 };
    size_t repeated = 0;
    struct lead l;
    FILE *f = stdout;

    for (size_t i = 0; i < d->nruns; i++)
        combos_add(&cs, d, i, -1, NULL);
    warn_mixed(d, &cs, -1);
    lead_init(&l, d, &cs, -1, NULL);

    int nlead = lead_count(&l), ncols = nlead + 5;
    const char **head = xcalloc((size_t)ncols, sizeof *head);
    char *right = xcalloc((size_t)ncols, 1);
    char **cells = xcalloc((size_t)ncols, sizeof *cells);
    struct table t = { .ncols = ncols, .head = head, .right = right };

    lead_head(&l, d, head);
    head[nlead] = "n";
    head[nlead + 1] = "goodput";
    head[nlead + 2] = "sd";
    head[nlead + 3] = "95% CI of the mean";
    head[nlead + 4] = "unit";
    right[nlead] = right[nlead + 1] = right[nlead + 2] = 1;

    if (json) {
        fputs("{\n  \"database\": ", f);
        json_str(f, d->path);
        fputs(",\n  \"metric\": \"goodput\",\n  \"unit\": \"bits/sec\",\n  \"level\": 0.95,\n  \"axes\": [", f);
        for (int a = 0; a < d->naxes; a++) {
            fputs(a ? ", " : "", f);
            json_str(f, d->axes[a]);
        }
        fputs("],\n  \"combinations\": [", f);
    }
    for (size_t k = 0; k < cs.n; k++) {
        const struct rset *s = &cs.c[k].runs;
        double *x = xcalloc(s->n, sizeof *x);
        int64_t *ids = xcalloc(s->n, sizeof *ids);
        struct stats_summary sum;
        size_t n = 0;

        /* The first run of each (seed, rep); later ones repeat it. */
        for (size_t j = 0; j < s->n; j++) {
            const struct rrun *r = &d->runs[s->idx[j]];
            size_t p;
            for (p = 0; p < j; p++) {
                const struct rrun *q = &d->runs[s->idx[p]];
                if (q->seed == r->seed && q->rep == r->rep && q->fingerprint == r->fingerprint)
                    break;
            }
            if (p < j) {
                repeated++;
                continue;
            }
            ids[n] = r->id;
            x[n++] = r->goodput;
        }
        stats_summarize(x, n, LEVEL, &sum);
        const struct rrun *r0 = &d->runs[s->idx[0]];
        if (json) {
            fputs(k ? ",\n    {" : "\n    {", f);
            json_combination(f, d, r0, -1, NULL);
            fprintf(f, ", \"n\": %zu, \"mean\": ", n);
            json_num(f, sum.mean);
            fputs(", \"sd\": ", f);
            json_num(f, sum.sd);
            fputs(", \"ci95\": [", f);
            json_num(f, sum.ci_lo);
            fputs(", ", f);
            json_num(f, sum.ci_hi);
            fputs("], \"runs\": [", f);
            for (size_t j = 0; j < n; j++)
                fprintf(f, "%s%lld", j ? ", " : "", (long long)ids[j]);
            fputs("]}", f);
        } else {
            const char *unit;
            double scale = rate_unit(sum.mean, &unit);
            int dec = decimals_for(sum.mean / scale);
            lead_cells(&l, r0, cells);
            cells[nlead] = xasprintf("%zu", n);
            cells[nlead + 1] = fmt_num(sum.mean / scale, dec);
            cells[nlead + 2] = fmt_num(sum.sd / scale, dec);
            cells[nlead + 3] = isfinite(sum.ci_lo) ? xasprintf("[%.*f, %.*f]", dec, sum.ci_lo / scale, dec,
                                                              sum.ci_hi / scale)
                                                   : xasprintf("-");
            cells[nlead + 4] = xasprintf("%s", unit);
            table_row(&t, cells);
        }
        free(x);
        free(ids);
    }

    if (json) {
        fprintf(f, "\n  ],\n  \"complete_runs\": %zu,\n  \"ignored\": {\"no_intervals\": %zu, \"repeated_seed\": %zu}\n}\n",
                d->complete, d->no_intervals, repeated);
    } else {
        printf("%s: %zu complete run%s", d->path, d->complete, d->complete == 1 ? "" : "s");
        if (d->nscenarios == 1 && d->nruns)
            printf(" of %s", d->runs[0].scenario ? d->runs[0].scenario : "(unnamed)");
        printf(", %zu combination%s; goodput = bytes of all flows x 8 / interval span\n", cs.n,
               cs.n == 1 ? "" : "s");
        table_print(&t, f);
        if (d->no_intervals)
            printf("note: %zu complete run%s without interval rows left out\n", d->no_intervals,
                   d->no_intervals == 1 ? "" : "s");
        if (repeated)
            printf("note: %zu run%s repeating the seed, rep and parameters of an earlier run left out\n",
                   repeated, repeated == 1 ? "" : "s");
    }
    free(cells);
    free(head);
    free(right);
    combos_free(&cs);
    return 0;
}

/* ------------------------------------------------------------------ */
/* --compare AXIS=A,B                                                   */

struct compare_spec {
    char *axis, *a, *b;         /* one malloc'ed buffer: axis */
};

/* "AXIS=A,B" (AXIS may carry the "axis." prefix). 0, or -1 if malformed. */
static int parse_compare(const char *arg, struct compare_spec *c)
{
    char *eq, *comma;

    c->axis = strdup(arg);
    if (!c->axis)
        oom();
    eq = strchr(c->axis, '=');
    if (!eq)
        return -1;
    *eq = '\0';
    c->a = eq + 1;
    comma = strchr(c->a, ',');
    if (!comma)
        return -1;
    *comma = '\0';
    c->b = comma + 1;
    if (!strncmp(c->axis, "axis.", 5))
        memmove(c->axis, c->axis + 5, strlen(c->axis + 5) + 1);
    return c->axis[0] && c->a[0] && c->b[0] && strcmp(c->a, c->b) ? 0 : -1;
}

/* The distinct values of axis ax among runs, in order of first appearance,
 * as "v1, v2, ..." (malloc'ed). */
static char *axis_values(const struct rdb *d, int ax)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int nvals = 0;

    if (!f)
        oom();
    for (size_t i = 0; i < d->nruns; i++) {
        const char *v = d->runs[i].vals[ax];
        size_t j;
        if (!v)
            continue;
        for (j = 0; j < i && !str_same(d->runs[j].vals[ax], v); j++)
            ;
        if (j < i)
            continue;
        fprintf(f, "%s%s", nvals++ ? ", " : "", v);
    }
    fclose(f);
    return buf;
}

static int has_value(const struct rdb *d, int ax, const char *v)
{
    for (size_t i = 0; i < d->nruns; i++)
        if (str_same(d->runs[i].vals[ax], v))
            return 1;
    return 0;
}

/*
 * Marks the axes that move with ax between A and B: constant among the
 * A runs, constant among the B runs, but different between them (a
 * lockstep axis such as low_thresh with high_thresh). Kept in the pairing
 * key, they would leave no pairs.
 */
static void mark_lockstep(const struct rdb *d, int ax, const struct compare_spec *cmp, char *moves)
{
    for (int x = 0; x < d->naxes; x++) {
        const char *va = NULL, *vb = NULL;
        int seen_a = 0, seen_b = 0, constant = 1;

        if (x == ax)
            continue;
        for (size_t i = 0; i < d->nruns && constant; i++) {
            const struct rrun *r = &d->runs[i];
            if (str_same(r->vals[ax], cmp->a)) {
                if (seen_a++ && !str_same(va, r->vals[x]))
                    constant = 0;
                va = r->vals[x];
            } else if (str_same(r->vals[ax], cmp->b)) {
                if (seen_b++ && !str_same(vb, r->vals[x]))
                    constant = 0;
                vb = r->vals[x];
            }
        }
        moves[x] = constant && seen_a && seen_b && !str_same(va, vb);
    }
}

/* Per combination of the other axes: its A and B runs. */
struct cmp_row {
    struct rset a, b;
};

static int report_compare(struct rdb *d, const char *arg, int json)
{
    struct compare_spec cmp = { 0 };
    struct combos cs = { 0 };
    struct lead l;
    char *moves = NULL;
    int ax, rc = 0;
    size_t unpaired = 0, repeated = 0, zero_a = 0, without = 0;
    FILE *f = stdout;

    if (parse_compare(arg, &cmp) != 0) {
        fprintf(stderr, "netsim report: --compare takes AXIS=A,B with two different values, got '%s'\n", arg);
        free(cmp.axis);
        return 2;
    }
    for (ax = 0; ax < d->naxes && strcmp(d->axes[ax], cmp.axis); ax++)
        ;
    if (ax == d->naxes) {
        fprintf(stderr, "netsim report: %s: no axis '%s' in its complete runs", d->path, cmp.axis);
        if (d->naxes == 0)
            fputs(" (they have no axes: they were not made by `netsim sweep`)\n", stderr);
        for (int a = 0; a < d->naxes; a++)
            fprintf(stderr, "%s%s%s", a ? ", " : " (axes: ", d->axes[a], a == d->naxes - 1 ? ")\n" : "");
        free(cmp.axis);
        return 2;
    }
    if (!has_value(d, ax, cmp.a) || !has_value(d, ax, cmp.b)) {
        char *vals = axis_values(d, ax);
        fprintf(stderr, "netsim report: %s: axis '%s' has no value '%s' (values: %s)\n", d->path, cmp.axis,
                has_value(d, ax, cmp.a) ? cmp.b : cmp.a, vals);
        free(vals);
        free(cmp.axis);
        return 2;
    }
    moves = xcalloc((size_t)d->naxes, 1);
    mark_lockstep(d, ax, &cmp, moves);

    /* Rows: combinations of the other axes among the A and B runs. */
    for (size_t i = 0; i < d->nruns; i++) {
        const char *v = d->runs[i].vals[ax];
        if (!v)
            without++;
        else if (!strcmp(v, cmp.a) || !strcmp(v, cmp.b))
            combos_add(&cs, d, i, ax, moves);
    }
    warn_mixed(d, &cs, ax);
    lead_init(&l, d, &cs, ax, moves);

    int nlead = lead_count(&l), ncols = nlead + 8;
    const char **head = xcalloc((size_t)ncols, sizeof *head);
    char *right = xcalloc((size_t)ncols, 1);
    char **cells = xcalloc((size_t)ncols, sizeof *cells);
    struct table t = { .ncols = ncols, .head = head, .right = right };

    lead_head(&l, d, head);
    head[nlead] = "pairs";
    head[nlead + 1] = cmp.a;
    head[nlead + 2] = cmp.b;
    head[nlead + 3] = "unit";
    head[nlead + 4] = "change";
    head[nlead + 5] = "95% CI of change";
    head[nlead + 6] = "p";
    head[nlead + 7] = "verdict";
    right[nlead] = right[nlead + 1] = right[nlead + 2] = right[nlead + 4] = right[nlead + 6] = 1;

    if (json) {
        fputs("{\n  \"database\": ", f);
        json_str(f, d->path);
        fputs(",\n  \"metric\": \"goodput\",\n  \"unit\": \"bits/sec\",\n  \"level\": 0.95,\n  \"compare\": {\"axis\": ", f);
        json_str(f, cmp.axis);
        fputs(", \"a\": ", f);
        json_str(f, cmp.a);
        fputs(", \"b\": ", f);
        json_str(f, cmp.b);
        fputs(", \"moves_with\": [", f);
        for (int x = 0, n = 0; x < d->naxes; x++)
            if (moves[x]) {
                fputs(n++ ? ", " : "", f);
                json_str(f, d->axes[x]);
            }
        fputs("]},\n  \"rows\": [", f);
    }

    for (size_t k = 0; k < cs.n; k++) {
        const struct rset *s = &cs.c[k].runs;
        double *xa = xcalloc(s->n, sizeof *xa), *xb = xcalloc(s->n, sizeof *xb);
        char *used = xcalloc(s->n, 1);
        size_t n = 0, row_unpaired = 0, row_zero = 0;
        struct stats_paired p;

        /* For each A run (lowest id first per rep), the first B run of the
         * same rep not yet taken. Extra runs of a rep already paired are
         * repeats; the rest are unpaired. */
        for (size_t j = 0; j < s->n; j++) {
            const struct rrun *ra = &d->runs[s->idx[j]];
            size_t m;
            if (used[j] || strcmp(ra->vals[ax], cmp.a))
                continue;
            for (m = 0; m < s->n; m++) {
                const struct rrun *rb = &d->runs[s->idx[m]];
                if (!used[m] && !strcmp(rb->vals[ax], cmp.b) && rb->rep == ra->rep)
                    break;
            }
            if (m == s->n)
                continue;
            used[j] = used[m] = 1;
            if (ra->goodput == 0) {
                row_zero++;
                continue;
            }
            xa[n] = ra->goodput;
            xb[n++] = d->runs[s->idx[m]].goodput;
        }
        for (size_t j = 0; j < s->n; j++) {
            const struct rrun *r = &d->runs[s->idx[j]];
            size_t m;
            if (used[j])
                continue;
            /* A repeat if a paired run of the same variant has its rep. */
            for (m = 0; m < s->n; m++)
                if (used[m] && str_same(d->runs[s->idx[m]].vals[ax], r->vals[ax]) && d->runs[s->idx[m]].rep == r->rep)
                    break;
            if (m < s->n)
                repeated++;
            else
                row_unpaired++;
        }
        unpaired += row_unpaired;
        zero_a += row_zero;
        if (stats_compare_paired(xa, xb, n, LEVEL, &p) != 0)
            p.verdict = STATS_TOO_FEW;    /* no pairs: all fields NaN */

        const struct rrun *r0 = &d->runs[s->idx[0]];
        if (json) {
            fputs(k ? ",\n    {" : "\n    {", f);
            json_combination(f, d, r0, ax, moves);
            fprintf(f, ", \"pairs\": %zu, \"unpaired\": %zu, \"mean_a\": ", n, row_unpaired);
            json_num(f, p.mean_a);
            fputs(", \"mean_b\": ", f);
            json_num(f, p.mean_b);
            fputs(", \"change_pct\": ", f);
            json_num(f, p.pct.mean);
            fputs(", \"ci95_change_pct\": [", f);
            json_num(f, p.pct.ci_lo);
            fputs(", ", f);
            json_num(f, p.pct.ci_hi);
            fputs("], \"p_value\": ", f);
            json_num(f, p.p_value);
            fputs(", \"verdict\": ", f);
            json_str(f, stats_verdict_name(p.verdict));
            fputc('}', f);
        } else {
            const char *unit;
            double scale = rate_unit(p.mean_a, &unit);
            int dec = decimals_for(p.mean_a / scale);
            lead_cells(&l, r0, cells);
            cells[nlead] = xasprintf("%zu", n);
            cells[nlead + 1] = fmt_num(p.mean_a / scale, dec);
            cells[nlead + 2] = fmt_num(p.mean_b / scale, dec);
            cells[nlead + 3] = xasprintf("%s", unit);
            cells[nlead + 4] = fmt_pct(p.pct.mean);
            cells[nlead + 5] = isfinite(p.pct.ci_lo) ? xasprintf("[%+.2f%%, %+.2f%%]", p.pct.ci_lo, p.pct.ci_hi)
                                                     : xasprintf("-");
            cells[nlead + 6] = fmt_p(p.p_value);
            cells[nlead + 7] = xasprintf("%s", stats_verdict_name(p.verdict));
            table_row(&t, cells);
        }
        free(xa);
        free(xb);
        free(used);
    }

    if (json) {
        fprintf(f,
                "\n  ],\n  \"complete_runs\": %zu,\n  \"ignored\": {\"no_intervals\": %zu, \"unpaired\": %zu,"
                " \"repeated_seed\": %zu, \"zero_baseline\": %zu, \"without_axis\": %zu}\n}\n",
                d->complete, d->no_intervals, unpaired, repeated, zero_a, without);
    } else {
        printf("%s: %s=%s against %s=%s, paired by rep; change = (%s - %s) / %s of goodput per pair\n", d->path,
               cmp.axis, cmp.b, cmp.axis, cmp.a, cmp.b, cmp.a, cmp.a);
        int nmoves = 0;
        for (int x = 0; x < d->naxes; x++)
            if (moves[x])
                printf("%s%s", nmoves++ ? ", " : "moving with it (so not paired on): ", d->axes[x]);
        if (nmoves)
            putchar('\n');
        table_print(&t, f);
        if (unpaired)
            printf("note: %zu run%s without a partner of the same rep ignored\n", unpaired,
                   unpaired == 1 ? "" : "s");
        if (repeated)
            printf("note: %zu run%s repeating the rep of a paired run ignored\n", repeated,
                   repeated == 1 ? "" : "s");
        if (zero_a)
            printf("note: %zu pair%s with zero goodput for %s ignored (no %%change)\n", zero_a,
                   zero_a == 1 ? "" : "s", cmp.a);
        if (without)
            printf("note: %zu complete run%s without axis %s ignored\n", without, without == 1 ? "" : "s",
                   cmp.axis);
        if (d->no_intervals)
            printf("note: %zu complete run%s without interval rows left out\n", d->no_intervals,
                   d->no_intervals == 1 ? "" : "s");
    }
    free(cells);
    free(head);
    free(right);
    free(moves);
    combos_free(&cs);
    free(cmp.axis);
    return rc;
}

/* ------------------------------------------------------------------ */

int cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {
        { "compare", required_argument, 0, 'c' }, { "json", no_argument, 0, 'J' },
        { "metric", required_argument, 0, 'm' },  { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    const char *compare = NULL, *metric = "goodput";
    struct rdb d;
    int c, json = 0, rc;

    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'c': compare = optarg; break;
        case 'J': json = 1; break;
        case 'm': metric = optarg; break;
        case 'h': fputs(usage_report, stdout); return 0;
        default: fputs(usage_report, stderr); return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "netsim report: expected one results database DB\n\n%s", usage_report);
        return 2;
    }
    if (strcmp(metric, "goodput") != 0) {
        fprintf(stderr, "netsim report: unknown metric '%s' (known: goodput)\n", metric);
        return 2;
    }
    if (rdb_load(&d, argv[optind]) != 0) {
        rdb_free(&d);
        return 1;
    }
    if (d.nruns == 0) {
        if (d.complete)
            fprintf(stderr, "netsim report: %s: none of its %zu complete runs has interval rows\n", d.path,
                    d.complete);
        else
            fprintf(stderr, "netsim report: %s: no complete runs\n", d.path);
        rdb_free(&d);
        return 1;
    }
    rc = compare ? report_compare(&d, compare, json) : report_combinations(&d, json);
    rdb_free(&d);
    return rc;
}
