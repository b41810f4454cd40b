/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot_gnuplot.c - the gnuplot script of `netsim plot`, whole: terminal,
 * words, axes, the data of each line inline as a datablock ($line0, ...)
 * and the plot command. Nothing is read from other files, so the script
 * `--script FILE` keeps draws the same plot again (gnuplot FILE > OUT).
 *
 * Each line is its points joined, with error bars for the 95% interval of
 * the mean where a point has repeats; lines with error bars step a little
 * sideways from one another so that their bars do not hide each other.
 * The x tics sit exactly at the swept values, labelled as the sweep wrote
 * them; a label that would run into its left neighbour is left out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/xalloc.h"
#include "cli/plot.h"

/* Tableau 10, readable on white; line i takes colour i mod 10 and, from
 * the 11th line on, a dash pattern too. */
static const char *const colors[] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf" };

/* sans 11 as cairo draws it, about: pixels per character and the space
 * the y tic labels and label take on the left, the border on the right */
#define CHAR_PX 7.5
#define LEFT_PX 90
#define RIGHT_PX 25

/* s as a gnuplot string: single quotes double, control characters are
 * spaces. */
static void put_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("''", f);
        else
            fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
    }
    fputc('\'', f);
}

/* s on a comment line: control characters are spaces. */
static void put_comment(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
}

/* The UTF-8 characters of s: a label's width in characters. */
static size_t chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* The title, on two lines when it would not fit the image on one: broken
 * at its em dash (what is plotted, then where from), else at the last
 * space that lets the first line fit. */
static void put_title(FILE *f, const char *title, int width)
{
    static const char dash[] = " \xe2\x80\x94 ";
    size_t fit = (size_t)((width - 40) / 9.5), n = strlen(title);
    const char *at = strstr(title, dash), *rest;
    char *first;

    if (chars(title) <= fit) {
        put_str(f, title);
        return;
    }
    if (at) {
        rest = at + strlen(dash);
    } else {
        for (at = title + n; at > title && (*at != ' ' || chars(title) - chars(at) > fit); at--)
            ;
        if (at == title) {
            put_str(f, title);
            return;
        }
        rest = at + 1;
    }
    first = xasprintf("%.*s", (int)(at - title), title);
    put_str(f, first);
    fputs(".\"\\n\".", f);
    put_str(f, rest);
    free(first);
}

struct xframe {
    double lo, hi;              /* the x range */
    int log;
};

static double frac(const struct xframe *fr, double v)
{
    if (fr->log)
        return (log(v) - log(fr->lo)) / (log(fr->hi) - log(fr->lo));
    return (v - fr->lo) / (fr->hi - fr->lo);
}

/* The x range: 5% beyond the outer values (on a log axis, of the decades
 * they span); categories sit at 1..n. */
static struct xframe x_frame(const struct plot_xaxis *x)
{
    struct xframe fr = { .lo = x->pos[0], .hi = x->pos[x->n - 1], .log = x->log_base != 0 };

    if (!x->numeric) {
        fr.lo = 0.5;
        fr.hi = (double)x->n + 0.5;
    } else if (fr.log && fr.hi > fr.lo) {
        double f = exp(log(fr.hi / fr.lo) * 0.05);
        fr.lo /= f;
        fr.hi *= f;
    } else if (fr.log) {
        fr.lo /= 2;
        fr.hi *= 2;
    } else if (fr.hi > fr.lo) {
        double m = (fr.hi - fr.lo) * 0.05;
        fr.lo -= m;
        fr.hi += m;
    } else {
        double m = fr.lo == 0 ? 1 : fabs(fr.lo) * 0.5;
        fr.lo -= m;
        fr.hi += m;
    }
    return fr;
}

/* set xtics at every value; a label that would overlap the last one
 * shown is left out (its tic stays), and categories that do not fit
 * their slot are turned. */
static void x_tics(FILE *f, const struct plot_xaxis *x, const struct xframe *fr, int width)
{
    double plot_px = width - LEFT_PX - RIGHT_PX, right = -INFINITY, widest = 0;

    fputs("set xtics (", f);
    for (size_t i = 0; i < x->n; i++) {
        double w = CHAR_PX * (double)chars(x->text[i]), at = plot_px * frac(fr, x->pos[i]);
        int show = !x->numeric || at - w / 2 >= right + CHAR_PX;
        if (show)
            right = at + w / 2;
        widest = fmax(widest, w);
        if (i)
            fputs(", ", f);
        put_str(f, show ? x->text[i] : "");
        fprintf(f, " %.17g", x->pos[i]);
    }
    fputs(")\n", f);
    if (!x->numeric && widest > 0.9 * plot_px / (double)x->n)
        fputs("set xtics rotate by 40 right\n", f);
    fputs("unset mxtics\n", f);
}

/* Where a line's points go across: lines step apart by 0.6% of the
 * width (0.06 of a category), centred on the value, when bars are drawn. */
static double shifted(const struct plot_data *p, const struct xframe *fr, size_t line, double x)
{
    double off = (double)line - (double)(p->nlines - 1) / 2;

    if (p->nlines < 2 || p->nmax < 2)
        return x;
    if (!p->x.numeric)
        return x + 0.06 * off;
    if (fr->log)
        return x * exp(log(fr->hi / fr->lo) / 1.1 * 0.006 * off);
    return x + (fr->hi - fr->lo) / 1.1 * 0.006 * off;
}

static void put_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, " %.10g", v);
    else
        fputs(" NaN", f);
}

static void datablocks(FILE *f, const struct plot_data *p, const struct xframe *fr)
{
    for (size_t l = 0; l < p->nlines; l++) {
        const struct plot_line *ln = &p->lines[l];
        fprintf(f, "$line%zu << EOD\n# ", l);
        put_comment(f, ln->title);
        fputs("\n# x as drawn, x, mean, half of the 95% CI (NaN: one run), runs, the value as swept\n", f);
        for (size_t i = 0; i < ln->n; i++) {
            const struct plot_point *pt = &ln->pts[i];
            fprintf(f, "%.17g", shifted(p, fr, l, pt->x));
            put_number(f, pt->x);
            put_number(f, pt->mean);
            put_number(f, pt->half);
            fprintf(f, " %zu \"", pt->n);
            for (const char *s = pt->text; *s; s++)
                fputc(*s == '"' || (unsigned char)*s < 0x20 ? '\'' : *s, f);
            fputs("\"\n", f);
        }
        fputs("EOD\n", f);
    }
}

/* The key below the plot, in as many columns as its longest title lets
 * fit (about 6.5 px a character, plus the sample). */
static void key(FILE *f, const struct plot_data *p, const struct plot_opts *o, const char *extra)
{
    size_t longest = chars(extra), n = p->nlines + 1;
    long cols;

    for (size_t l = 0; l < p->nlines; l++)
        if (chars(p->lines[l].title) > longest)
            longest = chars(p->lines[l].title);
    cols = (long)(o->width - 80) * 10 / (((long)longest + 8) * 65);
    cols = cols < 1 ? 1 : cols > 4 ? 4 : cols;
    if ((size_t)cols > n)
        cols = (long)n;
    fprintf(f, "set key outside below center horizontal Left reverse samplen 3 maxcols %ld noenhanced height 1\n", cols);
}

void plot_script(FILE *f, const struct plot_data *p, const struct plot_opts *o)
{
    struct xframe fr = x_frame(&p->x);
    const char *extra = p->nmax > 1 ? "error bars: 95% confidence interval of the mean over repeats (t)"
                                    : "(one run per point: no error bars)";

    fputs("# ", f);
    put_comment(f, p->title);
    fprintf(f, "\n# netsim plot %s: the data are inline; `gnuplot THIS > %s` draws it\n", o->db, o->out);
    if (o->svg)
        fprintf(f, "set terminal svg size %d,%d dynamic font 'sans,11' noenhanced background rgb 'white'\n",
                o->width, o->height);
    else
        fprintf(f, "set terminal pngcairo size %d,%d font 'sans,11' noenhanced background rgb 'white'\n",
                o->width, o->height);
    fputs("set encoding utf8\nset title ", f);
    put_title(f, p->title, o->width);
    fputs(" font 'sans,13'\nset xlabel ", f);
    put_str(f, p->xlabel);
    fputs("\nset ylabel ", f);
    put_str(f, p->ylabel);
    fputs("\nset style line 100 lc rgb '#d9d9d9' lw 1 dt solid\n"
          "set grid back xtics ytics ls 100, ls 100\n"
          "set border 3 lc rgb '#555555'\n"
          "set tics nomirror out scale 0.6\n"
          "set datafile separator whitespace\n"
          "set bars 2\n", f);
    if (fr.log)
        fprintf(f, "set logscale x %d\n", p->x.log_base);
    fprintf(f, "set xrange [%.17g:%.17g]\n", fr.lo, fr.hi);
    x_tics(f, &p->x, &fr, o->width);
    if (p->fraction)
        fputs("set yrange [0:1.05]\nset ytics 0.1\n", f);
    else
        fputs("set yrange [0:*]\nset offsets graph 0, graph 0, graph 0.05, graph 0\n", f);
    datablocks(f, p, &fr);
    key(f, p, o, extra);

    fputs("plot ", f);
    for (size_t l = 0; l < p->nlines; l++) {
        const char *c = colors[l % 10];
        if (p->nmax > 1)
            fprintf(f, "$line%zu using 1:($5 > 1 ? $3 : NaN):($3 - $4):($3 + $4) with yerrorbars lc rgb '%s' "
                    "lw 1.5 pt 7 ps 0 notitle, \\\n     ", l, c);
        /* categories have no order to draw a line along */
        if (p->x.numeric)
            fprintf(f, "$line%zu using 1:3 with linespoints lc rgb '%s' dt %zu lw 2 pt 7 ps 0.8 title ", l, c,
                    l / 10 % 5 + 1);
        else
            fprintf(f, "$line%zu using 1:3 with points lc rgb '%s' pt %zu ps 1.2 title ", l, c, 7 + l / 10 % 4 * 2);
        put_str(f, p->lines[l].title);
        fputs(", \\\n     ", f);
    }
    if (p->nmax > 1)
        fputs("keyentry with yerrorbars lc rgb '#555555' lw 1.5 pt 7 ps 0 title ", f);
    else
        fputs("keyentry with lines lc rgb 'white' title ", f);
    put_str(f, extra);
    fputc('\n', f);
}
