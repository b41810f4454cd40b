/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_group.c - the statistics of `netsim report`: runs grouped into
 * combinations (same scenario, version and axis values), each summarized
 * over its repeats, or with --compare its B runs paired with its A runs
 * by rep and compared; and the warning when a combination mixes runs of
 * different parameters.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/invariant.h"
#include "sim/xalloc.h"
#include "cli/report_group.h"
#include "cli/stats.h"

#define LEVEL 0.95

/* Warnings about mixed parameters, at most this many (then a count). */
#define MAX_MIX_WARNINGS 5

static void rset_add(struct rset *s, size_t i)
{
    s->idx = xgrow(s->idx, sizeof *s->idx, s->n, &s->cap, 8);
    s->idx[s->n++] = i;
}

/* Same scenario, version and values of every axis but `skip` (-1: none)
 * and those marked in `ignore` (may be NULL). */
static int same_combination(const struct rdb *d, const struct rrun *a, const struct rrun *b, int skip,
                            const char *ignore)
{
    if (!str_same(a->scenario, b->scenario) || !str_same(a->hash, b->hash) || !str_same(a->entity, b->entity))
        return 0;
    for (int i = 0; i < d->naxes; i++)
        if (i != skip && !(ignore && ignore[i]) && !str_same(a->vals[i], b->vals[i]))
            return 0;
    return 1;
}

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
        cs->c = xgrow(cs->c, sizeof *cs->c, cs->n, &cs->cap, 16);
        memset(&cs->c[cs->n++], 0, sizeof cs->c[0]);
    }
    rset_add(&cs->c[k].runs, i);
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
            fprintf(stderr, "%s: warning: runs %lld and %lld are one combination but differ in", report_prog,
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
        fprintf(stderr, "%s: warning: ... and more combinations like that\n", report_prog);
}

/* ---- without --compare: one row per combination --------------------------- */

static size_t rows_n(const struct combo_row *rows, size_t n)
{
    size_t sum = 0;
    for (size_t k = 0; k < n; k++)
        sum += rows[k].n;
    return sum;
}

void group_combinations(const struct rdb *d, struct combo_report *out)
{
    struct combos cs = { 0 };
    size_t repeated = 0;

    for (size_t i = 0; i < d->nruns; i++)
        combos_add(&cs, d, i, -1, NULL);
    warn_mixed(d, &cs, -1);

    struct combo_row *rows = xcalloc(cs.n, sizeof *rows);
    for (size_t k = 0; k < cs.n; k++) {
        const struct rset *s = &cs.c[k].runs;
        double *x = xcalloc(s->n, sizeof *x);
        int64_t *ids = xcalloc(s->n, sizeof *ids);
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
            x[n++] = r->value;
        }
        stats_summarize(x, n, LEVEL, &rows[k].sum);
        rows[k].n = n;
        rows[k].ids = ids;
        free(x);
    }
    out->cs = cs;
    out->rows = rows;
    out->repeated = repeated;
    /* the report's rows and its "repeats left out" account for every run */
    INVARIANT(rows_n(rows, cs.n) + repeated == d->nruns);
}

void combo_report_free(struct combo_report *r)
{
    for (size_t k = 0; k < r->cs.n; k++)
        free(r->rows[k].ids);
    free(r->rows);
    combos_free(&r->cs);
}

/* ---- --compare AXIS=A,B ------------------------------------------------------ */

/* "AXIS=A,B" (AXIS may carry the "axis." prefix). 0, or -1 if malformed. */
static int parse_compare(const char *arg, struct compare_spec *c)
{
    char *eq, *comma;

    c->axis = xstrdup(arg);
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
        xoom();
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

int group_compare(const struct rdb *d, const char *arg, struct compare_report *out)
{
    struct compare_spec cmp = { 0 };
    struct combos cs = { 0 };
    char *moves = NULL;
    int ax;
    size_t unpaired = 0, repeated = 0, zero_a = 0, without = 0;

    memset(out, 0, sizeof *out);
    if (parse_compare(arg, &cmp) != 0) {
        fprintf(stderr, "%s: --compare takes AXIS=A,B with two different values, got '%s'\n", report_prog, arg);
        free(cmp.axis);
        return 2;
    }
    for (ax = 0; ax < d->naxes && strcmp(d->axes[ax], cmp.axis); ax++)
        ;
    if (ax == d->naxes) {
        fprintf(stderr, "%s: %s: no axis '%s' in its complete runs", report_prog, d->path, cmp.axis);
        if (d->naxes == 0)
            fputs(" (they have no axes: they were not made by `netsim sweep`)\n", stderr);
        for (int a = 0; a < d->naxes; a++)
            fprintf(stderr, "%s%s%s", a ? ", " : " (axes: ", d->axes[a], a == d->naxes - 1 ? ")\n" : "");
        free(cmp.axis);
        return 2;
    }
    if (!has_value(d, ax, cmp.a) || !has_value(d, ax, cmp.b)) {
        char *vals = axis_values(d, ax);
        fprintf(stderr, "%s: %s: axis '%s' has no value '%s' (values: %s)\n", report_prog, d->path, cmp.axis,
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

    struct compare_row *rows = xcalloc(cs.n, sizeof *rows);
    for (size_t k = 0; k < cs.n; k++) {
        const struct rset *s = &cs.c[k].runs;
        double *xa = xcalloc(s->n, sizeof *xa), *xb = xcalloc(s->n, sizeof *xb);
        char *used = xcalloc(s->n, 1);
        size_t n = 0, row_unpaired = 0, row_zero = 0, repeated0 = repeated;
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
            if (ra->value == 0) {
                row_zero++;
                continue;
            }
            xa[n] = ra->value;
            xb[n++] = d->runs[s->idx[m]].value;
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
        /* each of the row's runs is in a pair (compared, or left out for
         * A's zero), unpaired or a repeat: the counts the report prints */
        INVARIANT(2 * (n + row_zero) + row_unpaired + (repeated - repeated0) == s->n);
        unpaired += row_unpaired;
        zero_a += row_zero;
        if (stats_compare_paired(xa, xb, n, LEVEL, &p) != 0)
            p.verdict = STATS_TOO_FEW;    /* no pairs: all fields NaN */
        else
            p.verdict = stats_orient(p.verdict, d->use.dir == DIR_LOWER_BETTER, d->use.dir == DIR_NEITHER);

        rows[k].n = n;
        rows[k].unpaired = row_unpaired;
        rows[k].p = p;
        free(xa);
        free(xb);
        free(used);
    }
    out->cmp = cmp;
    out->ax = ax;
    out->moves = moves;
    out->cs = cs;
    out->rows = rows;
    out->unpaired = unpaired;
    out->repeated = repeated;
    out->zero_a = zero_a;
    out->without = without;
    return 0;
}

void compare_report_free(struct compare_report *r)
{
    free(r->rows);
    free(r->moves);
    combos_free(&r->cs);
    free(r->cmp.axis);
}
