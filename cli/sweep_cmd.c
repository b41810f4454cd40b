/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep_cmd.c - `netsim sweep`: every combination of a scenario's ${...}
 * axes times [sim] repeat, run in parallel worker processes, into one
 * results database. This file is the command line: the options, the
 * expansion (sweep.h), building every selected combination once without
 * running it (so a bad value anywhere stops the sweep with exit 2 before
 * anything is written), the --dry-run and --emit-jobs listings, and the
 * order of the steps. What earlier sweeps left in or beside the output is
 * sweep_resume.c's; running the runs is sweep_pool.c's.
 *
 * Runs are numbered 1..N as in sweep.h and recorded under that id, so -j 1,
 * -j 8, --shard and --only (cluster jobs merged with `netsim merge`) all
 * give the same rows.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/commands.h"
#include "cli/sweep_pool.h"
#include "cli/sweep_resume.h"
#include "sim/config.h"
#include "load/load.h"
#include "sinks/record.h"
#include "cli/runner.h"
#include "sim/sim.h"
#include "load/scenario.h"
#include "sim/skb.h"
#include "load/sweep.h"
#include "sim/xalloc.h"

static const char usage_sweep[] =
    "usage: netsim sweep FILE [options]\n"
    "\n"
    "Runs every combination of the scenario's sweep axes, times [sim] repeat,\n"
    "each run in its own worker process, into one results database. Axes use\n"
    "OMNeT++'s iteration variables:\n"
    "  msg_size = ${1000, 1472}           an axis named msg_size\n"
    "  ipfrag_high_thresh = ${high=4M, 40M}     an axis named high\n"
    "  ipfrag_low_thresh  = ${3M, 39M ! high}   in lockstep with high\n"
    "Axes multiply in file order, the last varying fastest; replication r of\n"
    "every combination runs on the same seed. Runs are numbered 1..N and\n"
    "recorded under that id, with the label 'name=value,...' and the params\n"
    "axis.NAME.\n"
    "\n"
    "options:\n"
    "  -j, --jobs N        worker processes (default: the number of online CPUs)\n"
    "  -o, --output DB     database (default results/<scenario>.db)\n"
    "  -s, --set S.K=V     override a key, as for `netsim run` (the value may be an axis)\n"
    "      --set AXIS=V    run only the value V of the axis AXIS (its lockstep copies follow)\n"
    "      --dry-run       list the runs (number, replication, seed, label); run nothing\n"
    "      --resume        keep the runs DB already holds complete (same scenario\n"
    "                      version), and those that workers of a killed sweep had\n"
    "                      finished; re-run the interrupted, failed and missing ones\n"
    "      --shard I/N     run only the runs whose number is I modulo N (I in 1..N)\n"
    "      --only K        run only run K\n"
    "      --emit-jobs     print one self-contained command per run, for GNU\n"
    "                      parallel or a cluster; run nothing\n"
    "  -q, --quiet         no progress line, no line per finished run (failures are\n"
    "                      still reported), then the summary\n"
    "  -h, --help          this text\n"
    "\n"
    "Ctrl-C stops launching, interrupts the running runs (recorded as\n"
    "'interrupted') and exits 130; --resume later completes the sweep. A run\n"
    "whose worker crashes is recorded as 'failed' and the sweep goes on.\n"
    "Workers die with the sweep, also with kill -9.\n"
    "\n"
    "examples:\n"
    "  netsim sweep scenarios/frag_evict.ini --dry-run\n"
    "  netsim sweep scenarios/frag_evict.ini -j 4 --set sim.duration=5s\n"
    "  netsim sweep scenarios/frag_evict.ini --resume        # after a Ctrl-C\n"
    "  # on a cluster: one database per run, then merge\n"
    "  netsim sweep scenarios/frag_evict.ini --emit-jobs |\n"
    "      parallel --sshloginfile hosts --workdir . \n"
    "  netsim merge results/frag_evict.db results/frag_evict.run*.db\n"
    "  tools/slurm-sweep.sh scenarios/frag_evict.ini > job.sh && sbatch job.sh\n"
    "\n"
    "Exit status: 0 every run complete, 1 a run failed or a database error,\n"
    "2 bad usage or scenario (nothing was run), 130 interrupted.\n";

/* ---- small helpers ------------------------------------------------------ */

/* Appends s to f, single-quoted for sh if it holds anything but safe
 * characters. */
static void shell_quote(FILE *f, const char *s)
{
    bool safe = *s != 0;
    for (const char *p = s; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-", *p))
            safe = false;
    if (safe) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            fputs("'\\''", f);
        else
            fputc(*p, f);
    }
    fputc('\'', f);
}

/* OUT without its ".db", for per-run file names. */
static char *out_base(const char *out)
{
    char *b = xasprintf("%s", out);
    size_t n = strlen(b);
    if (n > 3 && !strcmp(b + n - 3, ".db"))
        b[n - 3] = 0;
    return b;
}

/* ---- building runs ------------------------------------------------------ */

/* Seen error lines, so that an error common to every combination is
 * printed once. */
struct seen {
    char **lines;
    int n;
    size_t cap;
};

static bool seen_add(struct seen *s, const char *line)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->lines[i], line))
            return false;
    s->lines = xgrow(s->lines, sizeof *s->lines, (size_t)s->n, &s->cap, 16);
    s->lines[s->n++] = xasprintf("%s", line);
    return true;
}

static void dry_run_line(const struct sweep_ctx *x, int run)
{
    int w = snprintf(NULL, 0, "%d", x->nruns);
    printf("run %*d/%d  rep %d  seed %-20llu  %s\n", w, run, x->nruns, sweep_rep(x->sw, run),
           (unsigned long long)sweep_seed(x->sw, run), sweep_label(x->sw, run));
}

/*
 * Builds every selected combination once without running it, printing
 * new error lines. With `list` (--dry-run), each selected run's line is
 * printed as soon as its combination has been checked, so a long listing
 * streams (10^5 runs were silent for 25 s, listed only once all were
 * checked); the list stops at the first run whose combination has errors,
 * which the closing line names, with "nothing was run". Otherwise a
 * progress line on a terminal says how far checking has got. Returns the
 * number of combinations with errors.
 */
static int validate(const struct sweep_ctx *x, bool list)
{
    int ncomb = sweep_combinations(x->sw), bad = 0, first_bad = 0, checked = 0;
    char *done = xcalloc((size_t)ncomb, 1);   /* 1: checked, 2: with errors */
    bool listing = list;
    struct seen seen = { 0 };
    bool progress = x->tty && !x->quiet && !list && ncomb > 1;
    double t0 = sweep_now(), shown = t0;
    for (int run = 1; run <= x->nruns; run++) {
        int comb = sweep_combination(x->sw, run);
        if (!x->selected[run])
            continue;
        if (!done[comb]) {
            done[comb] = 1;
            checked++;
            struct cfg *c = sweep_run_cfg(x, run);
            if (!cfg_errors(c))
                sim_free(sim_build(c, sweep_seed(x->sw, run), true));
            if (cfg_errors(c)) {
                char *buf = NULL;
                size_t len = 0;
                FILE *f = open_memstream(&buf, &len);
                if (!f)
                    xoom();
                cfg_print_errors(c, f);
                fclose(f);
                if (progress)
                    fputs("\r\033[K", stderr);
                for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
                    if (seen_add(&seen, line))
                        fprintf(stderr, "%s\n", line);
                free(buf);
                if (!bad++)
                    first_bad = run;
            }
            if (cfg_errors(c))
                done[comb] = 2;
            cfg_free(c);
            if (progress && sweep_now() - shown > 0.2) {
                shown = sweep_now();
                fprintf(stderr, "\r\033[Ksweep: checking combination %d/%d", checked, ncomb);
            }
        }
        listing = listing && done[comb] == 1;
        if (listing)
            dry_run_line(x, run);
    }
    if (progress && shown > t0)
        fputs("\r\033[K", stderr);
    if (bad) {
        const char *label = sweep_label(x->sw, first_bad);
        fprintf(stderr, "netsim sweep: %s: errors in %d of %d combination%s (the first: run %d%s%s); nothing was run\n",
                x->path, bad, ncomb, ncomb == 1 ? "" : "s", first_bad, *label ? ", " : "", label);
    }
    for (int i = 0; i < seen.n; i++)
        free(seen.lines[i]);
    free(seen.lines);
    free(done);
    skb_pool_release();
    return bad;
}

/* ---- listing: --dry-run, --emit-jobs ------------------------------------ */

static void emit_jobs(const struct sweep_ctx *x)
{
    char *base = out_base(x->out);
    for (int run = 1; run <= x->nruns; run++) {
        if (!x->selected[run])
            continue;
        char *db = xasprintf("%s.run%d.db", base, run);
        char num[16];
        snprintf(num, sizeof num, "%d", run);
        shell_quote(stdout, program_invocation_name);
        fputs(" sweep ", stdout);
        shell_quote(stdout, x->path);
        for (int i = 0; i < x->nsets; i++) {
            fputs(" --set ", stdout);
            shell_quote(stdout, x->sets[i]);
        }
        for (int i = 0; i < x->npicks; i++) {
            fputs(" --set ", stdout);
            shell_quote(stdout, x->picks[i]);
        }
        printf(" --only %s -o ", num);
        shell_quote(stdout, db);
        putchar('\n');
        free(db);
    }
    if (isatty(2))
        fprintf(stderr, "# then: netsim merge %s %s.run*.db\n", x->out, base);
    free(base);
}

/* ---- the command ---------------------------------------------------------- */

static int parse_shard(const char *s, int *i, int *n)
{
    char *end;
    long a = strtol(s, &end, 10);
    if (end == s || *end != '/')
        return -1;
    const char *p = end + 1;
    long b = strtol(p, &end, 10);
    if (end == p || *end || b < 1 || a < 1 || a > b || b > 1000000)
        return -1;
    *i = (int)a;
    *n = (int)b;
    return 0;
}

int cmd_sweep(int argc, char **argv)
{
    static const struct option opts[] = {
        { "jobs", required_argument, 0, 'j' },  { "output", required_argument, 0, 'o' },
        { "set", required_argument, 0, 's' },   { "dry-run", no_argument, 0, 'D' },
        { "resume", no_argument, 0, 'R' },      { "shard", required_argument, 0, 'S' },
        { "only", required_argument, 0, 'O' },  { "emit-jobs", no_argument, 0, 'E' },
        { "quiet", no_argument, 0, 'q' },       { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    struct sweep_ctx x = { 0 };
    bool dry = false, resume = false, emit = false;
    int shard_i = 0, shard_n = 0, only = 0, c;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);

    optind = 1;
    while ((c = getopt_long(argc, argv, "j:o:s:qh", opts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 'j':
            jobs = strtol(optarg, &end, 10);
            if (*end || end == optarg || jobs < 1 || jobs > 4096) {
                fprintf(stderr, "netsim sweep: -j takes a number of processes 1 to 4096, got '%s'\n", optarg);
                return 2;
            }
            break;
        case 'o': x.out = optarg; break;
        case 's':
            if (x.nsets + x.npicks == MAX_SETS) {
                fprintf(stderr, "netsim sweep: too many --set options\n");
                return 2;
            }
            {
                /* NAME=VALUE without a section: an axis's value to run alone */
                const char *eq = strchr(optarg, '='), *dot = strchr(optarg, '.');
                if (eq && eq > optarg && (!dot || dot > eq))
                    x.picks[x.npicks++] = optarg;
                else
                    x.sets[x.nsets++] = optarg;
            }
            break;
        case 'D': dry = true; break;
        case 'R': resume = true; break;
        case 'S':
            if (parse_shard(optarg, &shard_i, &shard_n)) {
                fprintf(stderr, "netsim sweep: --shard takes I/N with 1 <= I <= N, got '%s'\n", optarg);
                return 2;
            }
            break;
        case 'O': {
            errno = 0;
            long v = strtol(optarg, &end, 10);
            if (*end || end == optarg || errno || v < 1 || v > INT_MAX) {
                fprintf(stderr, "netsim sweep: --only takes a run number 1 to %d, got '%s'\n", INT_MAX, optarg);
                return 2;
            }
            only = (int)v;
            break;
        }
        case 'E': emit = true; break;
        case 'q': x.quiet = true; break;
        case 'h': fputs(usage_sweep, stdout); return 0;
        default: fputs(usage_sweep, stderr); return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "netsim sweep: expected one scenario FILE\n\n%s", usage_sweep);
        return 2;
    }
    if (only && shard_n) {
        fprintf(stderr, "netsim sweep: --only and --shard exclude each other\n");
        return 2;
    }
    if (dry + emit > 1) {
        fprintf(stderr, "netsim sweep: --dry-run and --emit-jobs exclude each other\n");
        return 2;
    }
    x.path = argv[optind];
    x.jobs = jobs > 0 ? (int)jobs : 1;
    x.tty = isatty(2);

    char *why = NULL;
    x.text = cfg_read(x.path, &x.len, &why);
    if (!x.text) {
        fprintf(stderr, "%s: %s\nnetsim sweep: %s: 1 error; nothing was run\n", x.path, why, x.path);
        free(why);
        return 2;
    }
    struct cfg *base = cfg_load_bytes(x.path, x.text, x.len);
    for (int i = 0; i < x.nsets && !cfg_errors(base); i++)
        cfg_override(base, x.sets[i]);
    if (!cfg_errors(base))
        x.sw = sweep_expand(base);
    for (int i = 0; x.sw && i < x.npicks; i++) {
        char err[1024], *name = xstrdup(x.picks[i]), *eq = strchr(name, '=');
        *eq = '\0';
        if (sweep_pick(x.sw, name, eq + 1, err, sizeof err)) {
            cfg_error_global(base, "%s", err);
            sweep_free(x.sw);
            x.sw = NULL;
        }
        free(name);
    }
    if (!x.sw) {
        cfg_print_errors(base, stderr);
        fprintf(stderr, "netsim sweep: %s: %d error%s; nothing was run\n", x.path, cfg_errors(base),
                cfg_errors(base) == 1 ? "" : "s");
        cfg_free(base);
        free(x.text);
        return 2;
    }
    x.stem = scenario_name(base, x.path);
    snprintf(x.hash, sizeof x.hash, "%s", cfg_source_hash(base));
    cfg_free(base);
    x.nruns = sweep_count(x.sw);
    if (only > x.nruns) {
        fprintf(stderr, "netsim sweep: --only %d: %s has %d run%s\n", only, x.path, x.nruns, x.nruns == 1 ? "" : "s");
        sweep_free(x.sw);
        free(x.text);
        free(x.stem);
        return 2;
    }
    x.selected = xcalloc((size_t)x.nruns + 1, 1);
    for (int run = 1; run <= x.nruns; run++)
        x.selected[run] = only ? run == only : shard_n ? (run - 1) % shard_n == shard_i - 1 : 1;
    char *defout = xasprintf("results/%s.db", x.stem);
    if (!x.out)
        x.out = defout;

    int rc = 0;
    if (validate(&x, dry)) {
        rc = 2;
        goto done;
    }
    if (emit) {
        emit_jobs(&x);
        goto done;
    }
    if (dry)
        goto done;
    int kept = 0;
    char *wanted = xmalloc((size_t)x.nruns + 1);    /* before sweep_prepare_output unselects kept runs */
    memcpy(wanted, x.selected, (size_t)x.nruns + 1);
    rc = sweep_prepare_output(&x, resume, &kept);
    if (!rc)
        rc = sweep_take_leftovers(&x, wanted, resume, &kept);
    free(wanted);
    if (rc)
        goto done;
    char *err = NULL;
    struct rec *dst = rec_open(x.out, &err);
    if (!dst) {
        fprintf(stderr, "netsim sweep: %s\n", err ? err : "cannot open the results database");
        free(err);
        rc = 1;
        goto done;
    }
    rc = sweep_run_pool(&x, dst, kept);
    rec_close(dst);
done:
    free(defout);
    free(x.stem);
    free(x.text);
    free(x.selected);
    sweep_free(x.sw);
    return rc;
}
