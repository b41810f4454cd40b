/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot_cmd.c - `netsim plot DB [options]`: a metric of the complete runs
 * of a results database against a swept axis, drawn by gnuplot. The
 * numbers are `netsim report`'s, computed by its code (report_db.c reads
 * the runs and measures them with report_metric.c's one definition of
 * each metric, report_group.c makes the combinations and their
 * intervals), so a point of the plot is a row of the report. This file is
 * the command line; plot.h says where the rest is.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/xalloc.h"
#include "cli/commands.h"
#include "cli/plot.h"
#include "cli/report_db.h"

static const char usage_plot[] =
    "usage: netsim plot DB [options]\n"
    "\n"
    "Draws a metric of the complete runs in the results database DB against\n"
    "one of its swept axes (gnuplot): the mean of each combination's repeats\n"
    "with its 95% confidence interval (Student's t) as an error bar, the\n"
    "numbers `netsim report` prints with the same --metric and --by. One\n"
    "line per combination of the other axes, and with --by per flow (titled\n"
    "by its label) or host. Prints the path written.\n"
    "\n"
    "options:\n"
    "      --metric NAME       what to measure (default goodput):\n"
    "%s"
    "      --by flow|host      a line per flow or host of each combination\n"
    "      --flow N            flow N's line only (implies --by flow)\n"
    "      --axis NAME         the axis for x (default: the one axis left besides\n"
    "                          the variant axis)\n"
    "      --variant-axis NAME the axis whose values name the lines first\n"
    "                          (default: the first axis whose values are not numbers)\n"
    "      --logx, --no-logx   a log x axis, or not (default: log when the values\n"
    "                          are all powers of two or of ten, or span more than\n"
    "                          a decade); the tics are the swept values either way\n"
    "  -o, --output FILE       FILE.png or FILE.svg (default beside DB: DB-stem_sweep.png,\n"
    "                          with another metric or --by DB-stem_sweep_METRIC[_by_flow].png)\n"
    "      --size WxH          image size in pixels (default 1000x600)\n"
    "      --title T           the title (default: what is plotted against what, the\n"
    "                          scenario and the repeats)\n"
    "      --script FILE       also write the gnuplot script, its data inline, to FILE\n"
    "      --kind sweep        the only kind netsim plot draws; goodput over time,\n"
    "                          traces and CDFs are netsim-plot's (tools/plot)\n"
    "  -h, --help              this text\n"
    "\n"
    "Exit status: 0 success, 1 the database could not be read, gnuplot failed\n"
    "or is missing (Debian: gnuplot-nox), or the output could not be written;\n"
    "2 bad usage, or a database without what the plot needs (a swept axis,\n"
    "a value of the metric).\n";

static void usage(FILE *f)
{
    const char *at = strstr(usage_plot, "%s");
    fwrite(usage_plot, 1, (size_t)(at - usage_plot), f);
    metric_help(f);
    fputs(at + 2, f);
}

static int parse_size_opt(const char *arg, struct plot_opts *o)
{
    const char *s = arg;
    char *end;
    long w = strtol(s, &end, 10), h;

    if (end == s || (*end != 'x' && *end != ','))
        goto bad;
    s = end + 1;
    h = strtol(s, &end, 10);
    if (end == s || *end)
        goto bad;
    if (w < 200 || w > 10000 || h < 150 || h > 10000) {
        fprintf(stderr, PLOT_PROG ": --size: %ldx%ld out of range (200x150 to 10000x10000)\n", w, h);
        return 2;
    }
    o->width = (int)w;
    o->height = (int)h;
    return 0;
bad:
    fprintf(stderr, PLOT_PROG ": --size: expected WxH such as 1000x600, got '%s'\n", arg);
    return 2;
}

/* DB-stem_sweep[_METRIC][_by_BY].png beside DB. */
static char *default_output(const char *db, const struct metric_use *u)
{
    const char *slash = strrchr(db, '/'), *base = slash ? slash + 1 : db, *dot = strrchr(base, '.');
    int stem = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    int plain = !strcmp(u->label, "goodput") && u->by == BY_RUN;
    char *metric = xstrdup(u->label), *out;

    for (char *c = metric; *c; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *c))
            *c = '_';
    out = xasprintf("%.*s%.*s_sweep%s%s%s%s.png", slash ? (int)(base - db) : 0, db, stem, base, plain ? "" : "_",
                    plain ? "" : metric, u->by == BY_RUN ? "" : "_by_", u->by == BY_RUN ? "" : metric_by_name(u->by));
    free(metric);
    return out;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && !strcasecmp(s + n - k, suffix);
}

/* The script into --script FILE. 0, or 1 after saying why. */
static int keep_script(const char *path, const char *script, size_t len)
{
    FILE *f = fopen(path, "w");

    if (!f || fwrite(script, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, PLOT_PROG ": %s: cannot write the script: %s\n", path, strerror(errno));
        if (f)
            fclose(f);
        return 1;
    }
    return 0;
}

static int draw(const struct rdb *d, struct plot_opts *o)
{
    struct combo_report r;
    struct plot_data p;
    char *script = NULL;
    size_t len = 0;
    FILE *f;
    int rc;

    group_combinations(d, &r);
    rc = plot_data_build(d, &r, o, &p);
    combo_report_free(&r);
    if (rc != 0) {
        plot_data_free(&p);
        return rc;
    }
    if (!(f = open_memstream(&script, &len)))
        xoom();
    plot_script(f, &p, o);
    if (fclose(f) != 0)
        xoom();
    plot_data_free(&p);
    rc = o->script ? keep_script(o->script, script, len) : 0;
    if (rc == 0)
        rc = plot_render(script, len, o->out);
    free(script);
    if (rc == 0)
        printf("%s\n", o->out);
    return rc;
}

int cmd_plot(int argc, char **argv)
{
    static const struct option opts[] = {
        { "metric", required_argument, 0, 'm' }, { "by", required_argument, 0, 'b' },
        { "flow", required_argument, 0, 'f' },   { "axis", required_argument, 0, 'a' },
        { "variant-axis", required_argument, 0, 'v' }, { "logx", no_argument, 0, 'L' },
        { "no-logx", no_argument, 0, 'N' },      { "output", required_argument, 0, 'o' },
        { "size", required_argument, 0, 's' },   { "title", required_argument, 0, 't' },
        { "script", required_argument, 0, 'S' }, { "kind", required_argument, 0, 'k' },
        { "help", no_argument, 0, 'h' },         { 0, 0, 0, 0 },
    };
    struct plot_opts o = { .logx = -1, .width = 1000, .height = 600 };
    const char *metric = "goodput", *by = NULL;
    char *out = NULL;
    struct metric_use use;
    struct rdb d;
    int c, rc;

    report_prog = PLOT_PROG;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'm': metric = optarg; break;
        case 'b': by = optarg; break;
        case 'f': o.flow = optarg; break;
        case 'a': o.axis = optarg; break;
        case 'v': o.vaxis = optarg; break;
        case 'L': o.logx = 1; break;
        case 'N': o.logx = 0; break;
        case 'o': o.out = optarg; break;
        case 't': o.title = optarg; break;
        case 'S': o.script = optarg; break;
        case 's':
            if (parse_size_opt(optarg, &o) != 0)
                return 2;
            break;
        case 'k':
            if (strcmp(optarg, "sweep")) {
                fprintf(stderr, PLOT_PROG ": --kind %s: netsim plot draws a metric against a swept axis (sweep); "
                        "throughput, series and cdf are netsim-plot's (tools/plot)\n", optarg);
                return 2;
            }
            break;
        case 'h': usage(stdout); return stdout_close(PLOT_PROG);
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, PLOT_PROG ": expected one results database DB\n\n");
        usage(stderr);
        return 2;
    }
    o.db = argv[optind];
    if (o.flow) {
        if (!*o.flow || strspn(o.flow, "0123456789") != strlen(o.flow)) {
            fprintf(stderr, PLOT_PROG ": --flow: expected a flow number, got '%s'\n", o.flow);
            return 2;
        }
        if (by && strcmp(by, "flow")) {
            fprintf(stderr, PLOT_PROG ": --flow goes with --by flow, not --by %s\n", by);
            return 2;
        }
        by = "flow";
    }
    if (metric_parse(metric, by, &use) != 0)
        return 2;
    o.out = out = o.out ? xstrdup(o.out) : default_output(o.db, &use);
    if (!ends_with(o.out, ".png") && !ends_with(o.out, ".svg")) {
        fprintf(stderr, PLOT_PROG ": -o %s: the output must end in .png or .svg\n", o.out);
        free(out);
        return 2;
    }
    o.svg = ends_with(o.out, ".svg");
    if (rdb_load(&d, o.db, &use) != 0) {
        rdb_free(&d);
        free(out);
        return 1;
    }
    if (d.nruns == 0) {
        if (d.complete)
            fprintf(stderr, PLOT_PROG ": %s: none of its %zu complete runs has a value of %s\n", d.path, d.complete,
                    use.label);
        else
            fprintf(stderr, PLOT_PROG ": %s: no complete runs\n", d.path);
        rc = 2;
    } else {
        rc = draw(&d, &o);
    }
    rdb_free(&d);
    free(out);
    if (stdout_close(PLOT_PROG) != 0)
        return 1;
    return rc;
}
