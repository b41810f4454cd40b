/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_print.c - how `netsim report` shows its rows: aligned text
 * tables with iperf3's rate units and notes on what was left out, or one
 * JSON document; the leading columns name each row's combination.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/xalloc.h"
#include "cli/report_print.h"
#include "cli/stats.h"
#include "sinks/json.h"

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

/* The scale and unit name of the metric's values around v: iperf3's rate
 * units for goodput, the metric's own unit otherwise. */
static double value_unit(const struct rdb *d, double v, const char **name)
{
    if (d->use.m->kind == METRIC_RATE)
        return rate_unit(v, name);
    *name = *d->use.m->unit ? d->use.m->unit : "-";
    return 1;
}

/* Decimals that give 4 significant digits to v in its unit (9.412,
 * 12.31, 950.0), so values of one row line up; none for a whole count. */
static int decimals_for(double scaled)
{
    double a = fabs(scaled);
    if (isfinite(a) && a == floor(a) && a >= 1)
        return 0;
    if (a > 0 && a < 0.99995) {
        int d = 3 - (int)floor(log10(a));
        return d > 6 ? 6 : d;
    }
    return a < 9.9995 ? 3 : a < 99.995 ? 2 : 1;
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
    t->cells = xgrow(t->cells, (size_t)t->ncols * sizeof *t->cells, t->nrows, &t->cap, 16);
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
    if (d->use.by != BY_RUN) {
        fprintf(f, ", \"%s\": ", metric_by_name(d->use.by));
        json_str(f, r->entity);
    }
    if (d->use.by == BY_FLOW) {
        fputs(", \"label\": ", f);
        json_str(f, r->label);
    }
}

/* The document's opening: the database and what was measured. */
static void json_head(FILE *f, const struct rdb *d)
{
    fputs("{\n  \"database\": ", f);
    json_str(f, d->path);
    fputs(",\n  \"metric\": ", f);
    json_str(f, d->use.label);
    fputs(",\n  \"unit\": ", f);
    json_str(f, d->use.m->unit);
    fprintf(f, ",\n  \"by\": \"%s\",\n  \"level\": 0.95", metric_by_name(d->use.by));
}

/* ---- the leading columns: scenario/version when they vary, the axes ------ */

struct lead {
    int scenario, version;      /* show these columns */
    int entity;                 /* --by flow / host: its column */
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
    l->entity = d->use.by != BY_RUN;
}

static int lead_count(const struct lead *l)
{
    return l->scenario + l->version + l->naxes + l->entity;
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
    if (l->entity)
        head[c++] = metric_by_name(d->use.by);
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
    if (l->entity)
        cells[c++] = xasprintf("%s", r->entity ? r->entity : "-");
}

/* ---- without --compare: one row per combination --------------------------- */

void print_combinations(const struct rdb *d, const struct combo_report *r, int json)
{
    const struct combos *cs = &r->cs;
    size_t repeated = r->repeated;
    struct lead l;
    FILE *f = stdout;

    lead_init(&l, d, cs, -1, NULL);

    int label = d->use.by == BY_FLOW;
    int nlead = lead_count(&l), ncols = nlead + 5 + label;
    const char **head = xcalloc((size_t)ncols, sizeof *head);
    char *right = xcalloc((size_t)ncols, 1);
    char **cells = xcalloc((size_t)ncols, sizeof *cells);
    struct table t = { .ncols = ncols, .head = head, .right = right };

    lead_head(&l, d, head);
    head[nlead] = "n";
    head[nlead + 1] = d->use.label;
    head[nlead + 2] = "sd";
    head[nlead + 3] = "95% CI of the mean";
    head[nlead + 4] = "unit";
    if (label)
        head[nlead + 5] = "label";
    right[nlead] = right[nlead + 1] = right[nlead + 2] = 1;

    if (json) {
        json_head(f, d);
        fputs(",\n  \"axes\": [", f);
        for (int a = 0; a < d->naxes; a++) {
            fputs(a ? ", " : "", f);
            json_str(f, d->axes[a]);
        }
        fputs("],\n  \"combinations\": [", f);
    }
    /* One unit for the column, that of its largest value. */
    const char *unit;
    double colmax = 0;
    for (size_t k = 0; k < cs->n; k++)
        if (isfinite(r->rows[k].sum.mean) && fabs(r->rows[k].sum.mean) > colmax)
            colmax = fabs(r->rows[k].sum.mean);
    double scale = value_unit(d, colmax, &unit);
    for (size_t k = 0; k < cs->n; k++) {
        const struct rset *s = &cs->c[k].runs;
        size_t n = r->rows[k].n;
        const int64_t *ids = r->rows[k].ids;
        const struct stats_summary sum = r->rows[k].sum;
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
            int dec = decimals_for(sum.mean / scale);
            lead_cells(&l, r0, cells);
            if (label)
                cells[nlead + 5] = xasprintf("%s", r0->label ? r0->label : "-");
            cells[nlead] = xasprintf("%zu", n);
            cells[nlead + 1] = fmt_num(sum.mean / scale, dec);
            cells[nlead + 2] = fmt_num(sum.sd / scale, dec);
            cells[nlead + 3] = isfinite(sum.ci_lo) ? xasprintf("[%.*f, %.*f]", dec, sum.ci_lo / scale, dec,
                                                              sum.ci_hi / scale)
                                                   : xasprintf("-");
            cells[nlead + 4] = xasprintf("%s", unit);
            table_row(&t, cells);
        }
    }

    if (json) {
        fprintf(f, "\n  ],\n  \"complete_runs\": %zu,\n  \"ignored\": {\"no_intervals\": %zu, \"repeated_seed\": %zu}\n}\n",
                d->complete, d->no_intervals, repeated);
    } else {
        printf("%s: %zu complete run%s", d->path, d->complete, d->complete == 1 ? "" : "s");
        if (d->nscenarios == 1 && d->nruns)
            printf(" of %s", d->runs[0].scenario ? d->runs[0].scenario : "(unnamed)");
        printf(", %zu %s%s; %s = %s\n", cs->n, d->use.by == BY_RUN ? "combination" : "rows",
               d->use.by == BY_RUN && cs->n != 1 ? "s" : "", d->use.label, d->use.m->doc);
        table_print(&t, f);
        if (d->no_intervals)
            printf("note: %zu complete run%s without a value of %s left out\n", d->no_intervals,
                   d->no_intervals == 1 ? "" : "s", d->use.label);
        if (repeated)
            printf("note: %zu run%s repeating the seed, rep and parameters of an earlier run left out\n",
                   repeated, repeated == 1 ? "" : "s");
    }
    free(cells);
    free(head);
    free(right);
}

/* ---- --compare AXIS=A,B ------------------------------------------------------ */

void print_compare(const struct rdb *d, const struct compare_report *r, int json)
{
    const struct compare_spec cmp = r->cmp;
    const struct combos *cs = &r->cs;
    const char *moves = r->moves;
    int ax = r->ax;
    size_t unpaired = r->unpaired, repeated = r->repeated, zero_a = r->zero_a, without = r->without;
    struct lead l;
    FILE *f = stdout;

    lead_init(&l, d, cs, ax, moves);

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
        json_head(f, d);
        fputs(",\n  \"compare\": {\"axis\": ", f);
        json_str(f, cmp.axis);
        fputs(", \"a\": ", f);
        json_str(f, cmp.a);
        fputs(", \"b\": ", f);
        json_str(f, cmp.b);
        fputs(", \"direction\": ", f);
        json_str(f, metric_dir_words(d->use.dir));
        fputs(", \"moves_with\": [", f);
        for (int x = 0, n = 0; x < d->naxes; x++)
            if (moves[x]) {
                fputs(n++ ? ", " : "", f);
                json_str(f, d->axes[x]);
            }
        fputs("]},\n  \"rows\": [", f);
    }

    const char *unit;
    double colmax = 0;
    for (size_t k = 0; k < cs->n; k++) {
        double m = fmax(fabs(r->rows[k].p.mean_a), fabs(r->rows[k].p.mean_b));
        if (isfinite(m) && m > colmax)
            colmax = m;
    }
    double scale = value_unit(d, colmax, &unit);
    for (size_t k = 0; k < cs->n; k++) {
        const struct rset *s = &cs->c[k].runs;
        size_t n = r->rows[k].n, row_unpaired = r->rows[k].unpaired;
        const struct stats_paired p = r->rows[k].p;

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
    }

    if (json) {
        fprintf(f,
                "\n  ],\n  \"complete_runs\": %zu,\n  \"ignored\": {\"no_intervals\": %zu, \"unpaired\": %zu,"
                " \"repeated_seed\": %zu, \"zero_baseline\": %zu, \"without_axis\": %zu}\n}\n",
                d->complete, d->no_intervals, unpaired, repeated, zero_a, without);
    } else {
        printf("%s: %s=%s against %s=%s, paired by rep; change = (%s - %s) / %s of %s per pair (%s)\n", d->path,
               cmp.axis, cmp.b, cmp.axis, cmp.a, cmp.b, cmp.a, cmp.a, d->use.label, metric_dir_words(d->use.dir));
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
            printf("note: %zu pair%s with zero %s for %s ignored (no %%change)\n", zero_a,
                   zero_a == 1 ? "" : "s", d->use.label, cmp.a);
        if (without)
            printf("note: %zu complete run%s without axis %s ignored\n", without, without == 1 ? "" : "s",
                   cmp.axis);
        if (d->no_intervals)
            printf("note: %zu complete run%s without a value of %s left out\n", d->no_intervals,
                   d->no_intervals == 1 ? "" : "s", d->use.label);
    }
    free(cells);
    free(head);
    free(right);
}
