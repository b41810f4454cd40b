/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot.h - `netsim plot`: a metric of a results database drawn against a
 * swept axis, from the numbers `netsim report` prints. report_db.c reads
 * the runs and the metric, report_group.c makes the combinations and their
 * statistics; plot_axis.c reads the x axis (its values, their unit, a log
 * scale or not), plot_data.c turns the combinations into lines of points
 * and words, plot_gnuplot.c writes the gnuplot script with the data in it,
 * plot_render.c runs gnuplot, and plot_cmd.c is the command line.
 */
#ifndef NETSIM_CLI_PLOT_H
#define NETSIM_CLI_PLOT_H

#include <stddef.h>
#include <stdio.h>
#include "cli/report_group.h"

#define PLOT_PROG "netsim plot"

struct plot_opts {
    const char *db, *out, *title, *script;
    const char *axis, *vaxis;   /* --axis, --variant-axis: NULL to choose */
    const char *flow;           /* --flow N: only flow N's lines */
    int logx;                   /* --logx 1, --no-logx 0, else -1: decided by the values */
    int width, height;
    int svg;                    /* the output ends in .svg */
};

/* The x axis: one swept axis's distinct values, in the order of the runs
 * that first have them, then (when numeric) by value. */
struct plot_xaxis {
    int ax;                     /* index into rdb.axes */
    const char *name;
    int numeric;                /* every value is a number, with one kind of unit */
    char **text;                /* the values as the sweep wrote them */
    double *pos;                /* where each sits: its number in the unit below, or its rank 1..n */
    size_t n;
    const char *unit;           /* "bytes", "bit/s", "s", "%", "packets", ...: NULL when none is known */
    int log_base;               /* 0: linear; 2 or 10: a log scale (the base of its minor ticks) */
};

struct plot_point {
    double x;                   /* plot_xaxis.pos of its value */
    const char *text;           /* its value as written */
    double mean, half;          /* in the plotted unit; half of the 95% CI, NaN with one run */
    size_t n;                   /* runs averaged */
};

struct plot_line {
    char *title;
    struct plot_point *pts;     /* by x */
    size_t n, cap;
};

struct plot_data {
    struct plot_xaxis x;
    struct plot_line *lines;
    size_t nlines, cap;
    size_t nmin, nmax;          /* runs per point */
    double ymax;                /* of mean + half, in the plotted unit */
    int fraction;               /* the values are within [0, 1] by definition (Jain's index) */
    char *title, *xlabel, *ylabel;
};

/* plot_axis.c */

/* 1 if every value of axis ax parses as a number of one kind of unit. */
int axis_numeric(const struct rdb *d, int ax);
/* Reads axis ax into x and decides its log scale (logx as plot_opts).
 * 0, or 2 after saying why (--logx on values a log axis cannot show). */
int axis_read(const struct rdb *d, int ax, int logx, struct plot_xaxis *x);
void axis_free(struct plot_xaxis *x);

/* plot_data.c */

/* The lines, points and words of the plot. 0, or 2 after saying why. */
int plot_data_build(const struct rdb *d, const struct combo_report *r, const struct plot_opts *o,
                    struct plot_data *p);
void plot_data_free(struct plot_data *p);

/* plot_gnuplot.c: the whole script, the data inline, into f. */
void plot_script(FILE *f, const struct plot_data *p, const struct plot_opts *o);

/* plot_render.c: runs gnuplot on the script and puts its image at out,
 * replacing it only when the image is whole. 0, or 1 after saying why. */
int plot_render(const char *script, size_t len, const char *out);

#endif
