/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot_data.c - what `netsim plot` draws: report's combinations
 * (report_group.c) as points, the mean of each combination's runs with the
 * 95% interval `netsim report` prints for it, on lines that join the
 * combinations differing only in the x axis; and the words around them
 * (title, axis labels with their units, a title per line).
 *
 * The x axis is --axis, or the one axis left besides the variant axis
 * (--variant-axis, or the first axis whose values are not numbers). Axes
 * that move in lockstep with x (${a, b ! x}) follow it and split no line.
 * With --by flow a line is one flow, titled by the flow's label
 * (label.flow.N) as report prints it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/xalloc.h"
#include "cli/plot.h"

/* ---- choosing the axes ----------------------------------------------------- */

static int axis_index(const struct rdb *d, const char *name)
{
    if (!strncmp(name, "axis.", 5))
        name += 5;
    for (int a = 0; a < d->naxes; a++)
        if (!strcmp(d->axes[a], name))
            return a;
    return -1;
}

static void list_axes(const struct rdb *d, FILE *f)
{
    for (int a = 0; a < d->naxes; a++)
        fprintf(f, "%s%s", a ? ", " : "", d->axes[a]);
}

/* Distinct values among the runs of axis a (b < 0), or of the pair (a, b):
 * each run against the first run of each value seen so far. */
static size_t distinct(const struct rdb *d, int a, int b)
{
    size_t *seen = xcalloc(d->nruns + 1, sizeof *seen), n = 0;

    for (size_t i = 0; i < d->nruns; i++) {
        const struct rrun *r = &d->runs[i];
        size_t j;
        for (j = 0; j < n; j++) {
            const struct rrun *q = &d->runs[seen[j]];
            if (str_same(q->vals[a], r->vals[a]) && (b < 0 || str_same(q->vals[b], r->vals[b])))
                break;
        }
        if (j == n)
            seen[n++] = i;
    }
    free(seen);
    return n;
}

/* a's value follows x's and x's a's: ${a, b ! x}, or two axes that happen
 * to pair their values one to one. */
static int lockstep(const struct rdb *d, int x, int a)
{
    size_t pairs = distinct(d, x, a);
    return pairs == distinct(d, x, -1) && pairs == distinct(d, a, -1);
}

/* Sets *xa and *va (-1: none). 0, or 2 after saying why. */
static int choose_axes(const struct rdb *d, const struct plot_opts *o, int *xa, int *va)
{
    *xa = *va = -1;
    if (d->naxes == 0) {
        fprintf(stderr, PLOT_PROG ": %s: no swept axis in DB (no axis.* params: its runs were not made by "
                "`netsim sweep`); plot it over time with tools/plot, or see netsim report\n", d->path);
        return 2;
    }
    if (o->axis && (*xa = axis_index(d, o->axis)) < 0) {
        fprintf(stderr, PLOT_PROG ": --axis %s: no such axis in DB (axes: ", o->axis);
        list_axes(d, stderr);
        fputs(")\n", stderr);
        return 2;
    }
    if (o->vaxis) {
        if ((*va = axis_index(d, o->vaxis)) < 0) {
            fprintf(stderr, PLOT_PROG ": --variant-axis %s: no such axis in DB (axes: ", o->vaxis);
            list_axes(d, stderr);
            fputs(")\n", stderr);
            return 2;
        }
    } else {
        for (int a = 0; a < d->naxes && *va < 0; a++)
            if (a != *xa && !axis_numeric(d, a))
                *va = a;
    }
    if (*xa >= 0) {
        if (*xa == *va) {
            fprintf(stderr, PLOT_PROG ": --axis and --variant-axis are both '%s'\n", d->axes[*xa]);
            return 2;
        }
        return 0;
    }
    for (int a = 0; a < d->naxes; a++) {
        if (a == *va)
            continue;
        if (*xa < 0) {
            *xa = a;
        } else if (!lockstep(d, *xa, a)) {
            fprintf(stderr, PLOT_PROG ": several swept axes (");
            for (int b = 0, first = 1; b < d->naxes; b++)
                if (b != *va) {
                    fprintf(stderr, "%s%s", first ? "" : ", ", d->axes[b]);
                    first = 0;
                }
            fprintf(stderr, "); choose the x axis with --axis NAME\n");
            return 2;
        }
    }
    if (*xa < 0) {              /* a single text axis: its values are the categories on x */
        *xa = *va;
        *va = -1;
    }
    return 0;
}

/* ---- lines and points ------------------------------------------------------ */

/* The axes that name a line: the variant axis first, then the others but
 * x and those in lockstep with it; -1 ends the list. */
static int *line_axes(const struct rdb *d, int xa, int va)
{
    int *la = xcalloc((size_t)d->naxes + 1, sizeof *la), n = 0;

    if (va >= 0 && !lockstep(d, xa, va))
        la[n++] = va;
    for (int a = 0; a < d->naxes; a++)
        if (a != xa && a != va && !lockstep(d, xa, a))
            la[n++] = a;
    la[n] = -1;
    return la;
}

static int same_line(const struct rrun *a, const struct rrun *b, const int *la)
{
    if (!str_same(a->scenario, b->scenario) || !str_same(a->hash, b->hash) || !str_same(a->entity, b->entity))
        return 0;
    for (; *la >= 0; la++)
        if (!str_same(a->vals[*la], b->vals[*la]))
            return 0;
    return 1;
}

/* "LABEL (cc=bbr, rate=1gbit)": what sets the line apart. */
static char *line_title(const struct rdb *d, const struct rrun *r, const int *la, int label_varies)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int parts = 0;

    if (!f)
        xoom();
    if (d->nscenarios > 1)
        parts += fprintf(f, "%s", r->scenario ? r->scenario : "?") > 0;
    if (d->versions)
        parts += fprintf(f, "%sversion %.8s", parts ? " " : "", r->hash ? r->hash : "?") > 0;
    if (parts)
        fputs(": ", f);
    if (d->use.by == BY_FLOW && r->label && !label_varies)
        fputs(r->label, f);
    else if (d->use.by == BY_FLOW)
        fprintf(f, "flow %s", r->entity);
    else if (d->use.by == BY_HOST)
        fprintf(f, "host %s", r->entity);
    for (int i = 0; la[i] >= 0; i++)
        fprintf(f, "%s%s=%s", i ? ", " : d->use.by != BY_RUN ? " (" : "", d->axes[la[i]],
                r->vals[la[i]] ? r->vals[la[i]] : "(none)");
    if (d->use.by != BY_RUN && la[0] >= 0)
        fputc(')', f);
    if (fclose(f) != 0)
        xoom();
    if (!*buf) {
        free(buf);
        return xstrdup(d->use.m->quantity);
    }
    return buf;
}

static void add_point(struct plot_line *l, const struct plot_point *p)
{
    size_t i = l->n;

    l->pts = xgrow(l->pts, sizeof *l->pts, l->n, &l->cap, 8);
    for (; i > 0 && l->pts[i - 1].x > p->x; i--)
        l->pts[i] = l->pts[i - 1];
    l->pts[i] = *p;
    l->n++;
}

/* ---- words ----------------------------------------------------------------- */

/* The plotted unit of a bit rate around v: 1000-based, as report's. */
static double rate_scale(double v, const char **unit)
{
    static const char *const names[] = { "bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s" };
    double scale = 1;
    int i = 0;

    while (isfinite(v) && v >= 999.95 * scale && i < 4) {
        scale *= 1000;
        i++;
    }
    *unit = names[i];
    return scale;
}

/* "goodput (Mbit/s), higher is better", "Jain's fairness index, higher
 * is better", "sum of the counters *.rx_drops (count), lower is better";
 * the title leaves the direction out (no unit given). */
static char *y_label(const struct metric_use *u, const char *unit, int with_dir)
{
    char *what = u->pattern ? xasprintf("%s %s", u->m->quantity, u->pattern) : xstrdup(u->m->quantity);
    char *l = xasprintf("%s%s%s%s%s%s", what, *unit ? " (" : "", unit, *unit ? ")" : "", with_dir ? ", " : "",
                        with_dir ? metric_dir_words(u->dir) : "");
    free(what);
    return l;
}

/* "goodput of each flow against limit - bottleneck, 2 repeats, mean and
 * 95% CI". */
static char *default_title(const struct rdb *d, const struct plot_data *p, const struct plot_opts *o)
{
    char *buf = NULL, *what;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int shown = 0;

    if (!f)
        xoom();
    what = y_label(&d->use, "", 0);
    fputs(what, f);
    free(what);
    if (o->flow)
        fprintf(f, " of flow %s", o->flow);
    else if (d->use.by != BY_RUN)
        fprintf(f, " of each %s", metric_by_name(d->use.by));
    fprintf(f, " against %s \xe2\x80\x94 ", p->x.name);     /* an em dash */
    for (size_t i = 0; i < d->nruns && shown < 3; i++) {
        size_t j;
        for (j = 0; j < i && !str_same(d->runs[j].scenario, d->runs[i].scenario); j++)
            ;
        if (j == i)
            fprintf(f, "%s%s", shown++ ? ", " : "", d->runs[i].scenario ? d->runs[i].scenario : "?");
    }
    if (d->nscenarios > 3)
        fputs(", ...", f);
    if (p->nmax <= 1)
        fputs(", one run per point", f);
    else if (p->nmin == p->nmax)
        fprintf(f, ", %zu repeats, mean and 95%% CI", p->nmax);
    else
        fprintf(f, ", %zu to %zu repeats, mean and 95%% CI", p->nmin, p->nmax);
    if (fclose(f) != 0)
        xoom();
    return buf;
}

int plot_data_build(const struct rdb *d, const struct combo_report *r, const struct plot_opts *o,
                    struct plot_data *p)
{
    int xa, va, rc;
    int *la;
    const struct rrun **first;  /* per line: the run that names it */
    char *varies;               /* per line: its flow's label is not the same at every point */
    double scale = 1;
    const char *unit;

    memset(p, 0, sizeof *p);
    if ((rc = choose_axes(d, o, &xa, &va)) != 0)
        return rc;
    if ((rc = axis_read(d, xa, o->logx, &p->x)) != 0)
        return rc;
    la = line_axes(d, xa, va);
    first = xcalloc(r->cs.n + 1, sizeof *first);
    varies = xcalloc(r->cs.n + 1, 1);

    for (size_t k = 0; k < r->cs.n; k++) {
        const struct rrun *run = &d->runs[r->cs.c[k].runs.idx[0]];
        const struct stats_summary *s = &r->rows[k].sum;
        const char *xv = run->vals[xa] ? run->vals[xa] : "(none)";
        size_t l, i;

        if (o->flow && (!run->entity || strcmp(run->entity, o->flow)))
            continue;
        if (r->rows[k].n == 0 || !isfinite(s->mean))
            continue;
        for (l = 0; l < p->nlines && !same_line(first[l], run, la); l++)
            ;
        if (l == p->nlines) {
            p->lines = xgrow(p->lines, sizeof *p->lines, p->nlines, &p->cap, 8);
            memset(&p->lines[p->nlines++], 0, sizeof *p->lines);
            first[l] = run;
        } else if (!str_same(first[l]->label, run->label)) {
            varies[l] = 1;
        }
        for (i = 0; i < p->x.n && strcmp(p->x.text[i], xv); i++)
            ;
        add_point(&p->lines[l], &(struct plot_point){ .x = p->x.pos[i], .text = p->x.text[i], .mean = s->mean,
                                                      .half = r->rows[k].n > 1 ? s->half : NAN, .n = r->rows[k].n });
        if (p->nmin == 0 || r->rows[k].n < p->nmin)
            p->nmin = r->rows[k].n;
        if (r->rows[k].n > p->nmax)
            p->nmax = r->rows[k].n;
        p->ymax = fmax(p->ymax, s->mean + (r->rows[k].n > 1 && isfinite(s->half) ? s->half : 0));
    }
    if (p->nlines == 0) {
        if (o->flow)
            fprintf(stderr, PLOT_PROG ": %s: no flow %s with a value of %s\n", d->path, o->flow, d->use.label);
        else
            fprintf(stderr, PLOT_PROG ": %s: no value of %s in its swept runs\n", d->path, d->use.label);
        free(la);
        free(first);
        free(varies);
        return 2;
    }
    for (size_t l = 0; l < p->nlines; l++)
        p->lines[l].title = line_title(d, first[l], la, varies[l]);
    free(la);
    free(first);
    free(varies);

    /* the y axis in the metric's unit; a rate in the multiple that suits it */
    unit = d->use.m->unit;
    if (d->use.m->kind == METRIC_RATE)
        scale = rate_scale(p->ymax, &unit);
    p->fraction = !strcmp(d->use.m->name, "jain");
    p->ymax /= scale;
    for (size_t l = 0; l < p->nlines; l++)
        for (size_t i = 0; i < p->lines[l].n; i++) {
            p->lines[l].pts[i].mean /= scale;
            p->lines[l].pts[i].half /= scale;
        }
    p->ylabel = y_label(&d->use, unit, 1);
    if (p->x.unit)
        p->xlabel = xasprintf("%s (%s%s)", p->x.name, p->x.unit, p->x.log_base ? ", log scale" : "");
    else
        p->xlabel = xasprintf("%s%s", p->x.name, p->x.log_base ? " (log scale)" : "");
    p->title = o->title ? xstrdup(o->title) : default_title(d, p, o);
    return 0;
}

void plot_data_free(struct plot_data *p)
{
    for (size_t l = 0; l < p->nlines; l++) {
        free(p->lines[l].title);
        free(p->lines[l].pts);
    }
    free(p->lines);
    free(p->title);
    free(p->xlabel);
    free(p->ylabel);
    axis_free(&p->x);
}
