/*
 * sweep_cmd.c - `netsim sweep`: every combination of a scenario's ${...}
 * axes times [sim] repeat, run in parallel worker processes, into one
 * results database.
 *
 * Process model. The parent expands the sweep (sweep.h), builds every
 * combination once without running it (so a bad value anywhere stops the
 * sweep with exit 2 before anything is written), then forks up to -j
 * children at a time. A child loads the scenario afresh, applies its run's
 * values, and runs it with runner_run() into its own temporary database
 * next to the output (OUT.runN.XXXXXX.tmp); its stderr goes to a log file
 * beside it. When a child exits, the parent alone copies the run into the
 * output with rec_copy_run() and deletes the temporaries. One writer means
 * no lock contention on the output and no half-written run in it: a child
 * that crashes leaves a temp file that is simply discarded, and the parent
 * records the run as 'failed' with the reason.
 *
 * A parent killed outright (kill -9) takes its workers with it (they have
 * PR_SET_PDEATHSIG), and leaves only temp files and logs. The parent holds
 * an flock on each temp file (orphans.h), so the next sweep of OUT can tell
 * them from those of a sweep still running; --resume copies in the runs
 * they hold finished and removes the rest (take_leftovers).
 *
 * Why processes and not threads: a run is single-threaded and keeps global
 * state (the skb pool, the interrupt flag), and a crash (a model bug, an
 * assert) must cost one run, not the sweep.
 *
 * Runs are numbered 1..N as in sweep.h and recorded under that id, so -j 1,
 * -j 8, --shard and --only (cluster jobs merged with `netsim merge`) all
 * give the same rows.
 *
 * Signals. The parent blocks SIGINT, SIGTERM and SIGCHLD and takes them
 * with sigtimedwait() in its loop: no handler races, and the loop wakes up
 * when a child exits. On SIGINT/SIGTERM it stops launching and forwards the
 * signal to its children, again every half second, because a child that is
 * still building its world has no running simulation to stop yet; a child
 * stops its simulation, records it as 'interrupted' and exits 130, and
 * that run is copied in too. A second signal kills the children.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sim/cli/commands.h"
#include "sim/config.h"
#include "sim/load/load.h"
#include "sim/cli/orphans.h"
#include "sim/out/record.h"
#include "sim/cli/runner.h"
#include "sim/sim.h"
#include "sim/load/scenario.h"
#include "sim/skb.h"
#include "sim/load/sweep.h"

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

#define MAX_SETS 256

/* Everything a run needs, shared by the parent and (after fork) the child. */
struct sweep_ctx {
    const char *path;            /* scenario file */
    const char *sets[MAX_SETS];  /* --set assignments */
    int nsets;
    char *stem;                  /* scenario name: file stem */
    char hash[17];               /* scenario version */
    struct sweep *sw;
    int nruns;
    char *selected;              /* [1..nruns]: run it (--shard, --only, --resume) */
    const char *out;             /* output database */
    int jobs;
    bool quiet, tty;
};

/* One worker. */
struct slot {
    pid_t pid;                   /* 0: free */
    int run;
    char *tmp, *log;             /* its temporary database and stderr log */
    int lock_fd;                 /* holds tmp's lock (orphans.h) */
    double t0;
};

/* ---- small helpers ------------------------------------------------------ */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    char *s;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0) {
        fprintf(stderr, "netsim sweep: out of memory\n");
        exit(1);
    }
    va_end(ap);
    return s;
}

/* "1:02:03" or "2:03". */
static void fmt_duration(char *buf, size_t n, double s)
{
    long t = s > 0 ? (long)(s + 0.5) : 0;
    if (t >= 3600)
        snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

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

/* The scenario as run `run` sees it: a fresh load, the overrides, the
 * run's axis values. */
static struct cfg *run_cfg(const struct sweep_ctx *x, int run)
{
    struct cfg *c = cfg_load(x->path);
    if (!c) {
        fprintf(stderr, "netsim sweep: out of memory\n");
        exit(1);
    }
    for (int i = 0; i < x->nsets; i++)
        cfg_override(c, x->sets[i]);
    sweep_apply(c, x->sw, run);
    return c;
}

/* Seen error lines, so that an error common to every combination is
 * printed once. */
struct seen {
    char **lines;
    int n, cap;
};

static bool seen_add(struct seen *s, const char *line)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->lines[i], line))
            return false;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->lines = realloc(s->lines, (size_t)s->cap * sizeof *s->lines);
        if (!s->lines)
            exit(1);
    }
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
 * streams; otherwise a progress line on a terminal says how far checking
 * has got. Returns the number of combinations with errors.
 */
static int validate(const struct sweep_ctx *x, bool list)
{
    int ncomb = sweep_combinations(x->sw), bad = 0, first_bad = 0, checked = 0;
    char *done = calloc((size_t)ncomb, 1);
    struct seen seen = { 0 };
    bool progress = x->tty && !x->quiet && !list && ncomb > 1;
    double t0 = now_s(), shown = t0;
    if (!done)
        exit(1);
    for (int run = 1; run <= x->nruns; run++) {
        int comb = sweep_combination(x->sw, run);
        if (!x->selected[run])
            continue;
        if (!done[comb]) {
            done[comb] = 1;
            checked++;
            struct cfg *c = run_cfg(x, run);
            if (!cfg_errors(c))
                sim_free(sim_build(c, sweep_seed(x->sw, run), true));
            if (cfg_errors(c)) {
                char *buf = NULL;
                size_t len = 0;
                FILE *f = open_memstream(&buf, &len);
                if (!f)
                    exit(1);
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
            cfg_free(c);
            if (progress && now_s() - shown > 0.2) {
                shown = now_s();
                fprintf(stderr, "\r\033[Ksweep: checking combination %d/%d", checked, ncomb);
            }
        }
        if (list)
            dry_run_line(x, run);
    }
    if (progress && shown > t0)
        fputs("\r\033[K", stderr);
    if (bad)
        fprintf(stderr, "netsim sweep: %s: errors in %d of %d combinations (the first: run %d, %s); nothing was run\n",
                x->path, bad, ncomb, first_bad, sweep_label(x->sw, first_bad));
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
        printf(" --only %s -o ", num);
        shell_quote(stdout, db);
        putchar('\n');
        free(db);
    }
    if (isatty(2))
        fprintf(stderr, "# then: netsim merge %s %s.run*.db\n", x->out, base);
    free(base);
}

/* ---- the output database before the sweep -------------------------------- */

static int sql_exec(sqlite3 *db, const char *sql, int64_t id)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_bind_parameter_count(st) >= 1)
        sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/* Deletes run id and its rows (the schema's ON DELETE CASCADE needs
 * PRAGMA foreign_keys, so each table is named). */
static int delete_run(sqlite3 *db, int64_t id)
{
    static const char *const del[] = {
        "DELETE FROM param WHERE run_id = ?1",  "DELETE FROM interval WHERE run_id = ?1",
        "DELETE FROM series WHERE run_id = ?1", "DELETE FROM counter WHERE run_id = ?1",
        "DELETE FROM profile WHERE run_id = ?1", "DELETE FROM run WHERE id = ?1",
    };
    for (size_t i = 0; i < sizeof del / sizeof del[0]; i++)
        if (sql_exec(db, del[i], id))
            return -1;
    return 0;
}

/*
 * Does run `run` in db hold exactly the parameters this sweep would record
 * for it? (The scenario hash covers the file, not the --set overrides.)
 * On a difference writes "key = old, now new" into why.
 */
static bool same_params(const struct sweep_ctx *x, sqlite3 *db, int run, char *why, size_t n)
{
    sqlite3_stmt *count = NULL, *value = NULL;
    struct cfg *c = run_cfg(x, run);
    const char *const *axes = sweep_params(x->sw, run);
    bool same = false;

    sim_free(sim_build(c, sweep_seed(x->sw, run), true));   /* resolves every parameter */
    int nc = cfg_param_count(c), want = nc + sweep_axis_count(x->sw);
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM param WHERE run_id = ?1 AND key NOT LIKE 'label.%'", -1, &count, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT value FROM param WHERE run_id = ?1 AND key = ?2", -1, &value, NULL) !=
            SQLITE_OK) {
        snprintf(why, n, "%s", sqlite3_errmsg(db));
        goto out;
    }
    sqlite3_bind_int64(count, 1, run);
    if (sqlite3_step(count) != SQLITE_ROW || sqlite3_column_int(count, 0) != want) {
        snprintf(why, n, "%d parameters recorded, now %d", sqlite3_column_int(count, 0), want);
        goto out;
    }
    for (int i = 0; i < want; i++) {
        const char *k, *v, *old;
        if (i < nc)
            cfg_param_at(c, i, &k, &v);
        else
            k = axes[2 * (i - nc)], v = axes[2 * (i - nc) + 1];
        sqlite3_reset(value);
        sqlite3_bind_int64(value, 1, run);
        sqlite3_bind_text(value, 2, k, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(value) != SQLITE_ROW) {
            snprintf(why, n, "%s not recorded, now %s", k, v);
            goto out;
        }
        old = (const char *)sqlite3_column_text(value, 0);
        if (strcmp(old ? old : "", v)) {
            snprintf(why, n, "%s = %s, now %s", k, old ? old : "NULL", v);
            goto out;
        }
    }
    same = true;
out:
    sqlite3_finalize(count);
    sqlite3_finalize(value);
    cfg_free(c);
    return same;
}

/*
 * Looks at what the output database (if it exists) already holds for the
 * selected runs. Without --resume any of them present is an error (the
 * ids are the run numbers). With --resume a complete run of this
 * scenario version and the same label, seed and replication is kept (and
 * unselected); any other state of the run is deleted so it runs again.
 * Complete runs of another version of the scenario are an error either
 * way (rec_copy_run would refuse them). Returns 0, or 1 or 2 (exit
 * status) with the message printed. *kept counts the runs kept.
 */
static int prepare_output(struct sweep_ctx *x, bool resume, int *kept)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int rc = 0, taken = 0, first_taken = 0;
    struct stat sb;

    *kept = 0;
    if (stat(x->out, &sb) != 0)
        return 0;                            /* rec_open creates it */
    if (sqlite3_open_v2(x->out, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return 0;                            /* rec_open says why */
    }
    sqlite3_busy_timeout(db, rec_busy_timeout_ms());
    if (sqlite3_prepare_v2(db, "SELECT scenario_hash FROM run WHERE scenario = ?1 AND status = 'complete'"
                               " AND scenario_hash IS NOT ?2 LIMIT 1", -1, &st, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return 0;                            /* no run table: rec_open checks the file */
    }
    sqlite3_bind_text(st, 1, x->stem, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, x->hash, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *h = sqlite3_column_text(st, 0);
        fprintf(stderr, "netsim sweep: %s holds complete runs of another version of %s (scenario hash %s, this "
                "one is %s); choose another -o\n", x->out, x->stem, h ? (const char *)h : "NULL", x->hash);
        rc = 1;
    }
    sqlite3_finalize(st);
    if (rc)
        goto out;

    if (sqlite3_prepare_v2(db, "SELECT status, scenario_hash, variant_label, seed, rep FROM run WHERE id = ?1",
                           -1, &st, NULL) != SQLITE_OK)
        goto dberr;
    if (resume && sql_exec(db, "BEGIN IMMEDIATE", 0))
        goto dberr;
    for (int run = 1; run <= x->nruns; run++) {
        if (!x->selected[run])
            continue;
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, run);
        int s = sqlite3_step(st);
        if (s == SQLITE_DONE)
            continue;
        if (s != SQLITE_ROW)
            goto dberr;
        if (!resume) {
            if (!taken++)
                first_taken = run;
            continue;
        }
        const char *status = (const char *)sqlite3_column_text(st, 0);
        const char *hash = (const char *)sqlite3_column_text(st, 1);
        const char *label = (const char *)sqlite3_column_text(st, 2);
        uint64_t seed = (uint64_t)sqlite3_column_int64(st, 3);
        int rep = sqlite3_column_int(st, 4);
        bool same = hash && !strcmp(hash, x->hash) && label && !strcmp(label, sweep_label(x->sw, run)) &&
                    seed == sweep_seed(x->sw, run) && rep == sweep_rep(x->sw, run);
        char why[512] = "";
        if (status && !strcmp(status, "complete")) {
            if (same && !same_params(x, db, run, why, sizeof why)) {
                fprintf(stderr, "netsim sweep: %s: run %d was recorded with other parameters (%s); choose another "
                        "-o\n", x->out, run, why);
                rc = 1;
                break;
            }
            if (!same) {
                fprintf(stderr, "netsim sweep: %s: run %d is another run (label '%s', seed %llu, rep %d; this sweep's "
                        "run %d is '%s', seed %llu, rep %d); choose another -o\n", x->out, run, label ? label : "",
                        (unsigned long long)seed, rep, run, sweep_label(x->sw, run),
                        (unsigned long long)sweep_seed(x->sw, run), sweep_rep(x->sw, run));
                rc = 1;
                break;
            }
            x->selected[run] = 0;
            ++*kept;
            continue;
        }
        sqlite3_reset(st);
        if (delete_run(db, run))
            goto dberr;
    }
    sqlite3_finalize(st);
    st = NULL;
    if (resume && sql_exec(db, rc ? "ROLLBACK" : "COMMIT", 0))
        goto dberr;
    if (taken) {
        fprintf(stderr, "netsim sweep: %s already holds %d of the runs of this sweep (the first: run %d); --resume "
                "completes that sweep, or choose another -o\n", x->out, taken, first_taken);
        rc = 2;
    }
    goto out;
dberr:
    fprintf(stderr, "netsim sweep: %s: %s\n", x->out, sqlite3_errmsg(db));
    rc = 1;
out:
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rc;
}

/*
 * The temporary databases an earlier sweep of OUT left when its parent was
 * killed (orphans.h; its workers died with it). A selected run that one
 * holds complete, with this sweep's label, seed, replication, version and
 * parameters, is copied into OUT with --resume, as that parent would have,
 * and kept (unselected); without --resume it counts as present in OUT
 * (exit 2, as in prepare_output). Everything else they hold is removed:
 * those runs run again, or OUT holds them complete already. Runs outside
 * this sweep's slice (wanted: --shard, --only) are left alone. Returns 0,
 * or the exit status with the message printed.
 */
static int take_leftovers(struct sweep_ctx *x, const char *wanted, bool resume, int *kept)
{
    struct orphan *list;
    struct rec *dst = NULL;
    int n = orphans_find(x->out, ORPHAN_SWEEP, &list), taken = 0, first = 0, rc = 0;
    char *err = NULL;

    for (int i = 0; i < n && !rc; i++) {
        struct orphan *o = &list[i];
        struct orphan_run r;
        char why[1024] = "";
        sqlite3 *db = NULL;
        if (o->run < 1 || o->run > x->nruns || !wanted[o->run])
            continue;
        bool same = x->selected[o->run] && orphan_read_run(o->path, o->run, &r, why, sizeof why) > 0 && !strcmp(r.status, "complete") &&
                    !strcmp(r.hash, x->hash) && !strcmp(r.label, sweep_label(x->sw, o->run)) &&
                    r.seed == sweep_seed(x->sw, o->run) && r.rep == sweep_rep(x->sw, o->run) &&
                    sqlite3_open_v2(o->path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
                    same_params(x, db, o->run, why, sizeof why);
        sqlite3_close(db);
        if (!same) {
            orphan_remove(o);
        } else if (!resume) {
            if (!taken++)
                first = o->run;
        } else if (!dst && !(dst = rec_open(x->out, &err))) {
            fprintf(stderr, "netsim sweep: %s\n", err ? err : "cannot open the results database");
            rc = 1;
        } else if (rec_copy_run(dst, o->path, o->run, o->run) < 0) {
            fprintf(stderr, "netsim sweep: %s\n", rec_errmsg(dst));
            rc = 1;
        } else {
            if (!x->quiet)
                fprintf(stderr, "sweep: run %d: complete in %s, which an earlier sweep left; kept\n", o->run,
                        o->path);
            orphan_remove(o);
            x->selected[o->run] = 0;
            ++*kept;
        }
    }
    if (taken) {
        fprintf(stderr, "netsim sweep: an earlier sweep of %s left %d of the runs of this sweep complete beside it "
                "(the first: run %d, %s.run%d.*.tmp); --resume completes that sweep, or choose another -o\n",
                x->out, taken, first, x->out, first);
        rc = 2;
    }
    free(err);
    rec_close(dst);
    orphans_free(list, n > 0 ? n : 0);
    return rc;
}

/* ---- the child ------------------------------------------------------------ */

static volatile sig_atomic_t child_stop;

static void child_on_signal(int sig)
{
    (void)sig;
    child_stop = 1;
    runner_interrupt();
}

/* In the forked child: run `run` into tmp, stderr into log. Never returns. */
static void child_main(const struct sweep_ctx *x, int run, const char *tmp, const char *log, pid_t parent)
{
    orphans_die_with_parent(parent);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        dup2(fd, 2);
        close(fd);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = child_on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = SIG_DFL;
    sigaction(SIGCHLD, &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    struct cfg *c = run_cfg(x, run);
    if (child_stop)
        _exit(130);
    char *err = NULL;
    struct rec *rec = rec_open(tmp, &err);
    if (!rec) {
        fprintf(stderr, "%s\n", err ? err : "cannot open the results database");
        _exit(1);
    }
    struct run_opts o = {
        .scenario_path = x->path, .scenario = x->stem, .variant_label = sweep_label(x->sw, run),
        .seed = sweep_seed(x->sw, run), .have_seed = true, .rep = sweep_rep(x->sw, run),
        .extra_params = sweep_params(x->sw, run), .out = NULL, .run_id = run,
    };
    int rc = child_stop ? 130 : runner_run(c, &o, rec);
    rec_close(rec);
    cfg_free(c);
    _exit(rc);
}

/* ---- the parent ------------------------------------------------------------ */

struct tally {
    int total;                   /* runs to execute */
    int finished, complete, failed, interrupted;
    double wall_sum;             /* of finished runs */
    bool progress_shown;
};

static void progress_clear(const struct sweep_ctx *x, struct tally *t)
{
    if (x->tty && t->progress_shown) {
        fputs("\r\033[K", stderr);
        t->progress_shown = false;
    }
}

static void progress_show(const struct sweep_ctx *x, struct tally *t)
{
    if (!x->tty || x->quiet)
        return;
    char eta[32] = "?";
    if (t->finished)
        fmt_duration(eta, sizeof eta, t->wall_sum / t->finished * (t->total - t->finished) / x->jobs);
    fprintf(stderr, "\r\033[Ksweep: %d/%d done, %d failed, ETA %s", t->finished, t->total, t->failed, eta);
    t->progress_shown = true;
}

/* The child's stderr, each line prefixed "run N: ". Returns the line that
 * best says why it failed (malloc'ed, or NULL): a sanitizer's SUMMARY
 * line, else the last line. */
static char *forward_log(const struct sweep_ctx *x, struct tally *t, int run, const char *log)
{
    FILE *f = fopen(log, "r");
    char line[1024], *last = NULL, *summary = NULL;
    if (!f)
        return NULL;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!line[0])
            continue;
        progress_clear(x, t);
        fprintf(stderr, "run %d: %s\n", run, line);
        free(last);
        last = xasprintf("%s", line);
        if (!summary && !strncmp(line, "SUMMARY: ", 9))
            summary = xasprintf("%s", line + 9);
    }
    fclose(f);
    if (summary) {
        free(last);
        return summary;
    }
    return last;
}

/* Status of run id in the temporary database, or "" if it holds none. */
static void tmp_status(const char *tmp, int run, char *out, size_t n)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    out[0] = 0;
    if (sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT status FROM run WHERE id = ?1", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, run);
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
            snprintf(out, n, "%s", (const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* Records a run that left no results of its own: its row with status and
 * error, and the parameters it would have had. */
static int record_lost_run(const struct sweep_ctx *x, struct rec *dst, int run, const char *status, double wall,
                           const char *error)
{
    struct rec_run_info info = {
        .scenario = x->stem, .variant_label = sweep_label(x->sw, run), .seed = sweep_seed(x->sw, run),
        .rep = sweep_rep(x->sw, run), .scenario_hash = x->hash, .id = run,
    };
    if (rec_run_begin(dst, &info) < 0)
        return -1;
    struct cfg *c = run_cfg(x, run);
    sim_free(sim_build(c, info.seed, true));
    for (int i = 0; i < cfg_param_count(c); i++) {
        const char *k, *v;
        cfg_param_at(c, i, &k, &v);
        rec_param(dst, k, v);
    }
    cfg_free(c);
    for (const char *const *p = sweep_params(x->sw, run); p[0]; p += 2)
        rec_param(dst, p[0], p[1]);
    return rec_run_end(dst, status, wall, 0, 0, error);
}

static void remove_temps(const struct slot *sl, bool keep_tmp)
{
    char journal[4096];
    snprintf(journal, sizeof journal, "%s-journal", sl->tmp);
    if (!keep_tmp) {
        unlink(sl->tmp);
        unlink(journal);
    }
    unlink(sl->log);
    close(sl->lock_fd);
}

/*
 * A child has exited: move its run into the output. Returns 0, or -1 when
 * the output database failed (the sweep stops).
 */
static int reap(const struct sweep_ctx *x, struct rec *dst, struct slot *sl, int wstatus, bool stopping,
                struct tally *t)
{
    double wall = now_s() - sl->t0;
    int run = sl->run, rc = 0;
    char status[32], why[512] = "";
    char *last = forward_log(x, t, run, sl->log);
    const char *final = "failed";
    bool keep = false;

    tmp_status(sl->tmp, run, status, sizeof status);
    if (WIFEXITED(wstatus) && (WEXITSTATUS(wstatus) == 0 || WEXITSTATUS(wstatus) == 130) && status[0]) {
        int64_t id = rec_copy_run(dst, sl->tmp, run, run);
        final = status;
        if (id < 0) {
            /* Its results stay for --resume (take_leftovers). */
            snprintf(why, sizeof why, "%.300s; its results are kept in %.150s for --resume", rec_errmsg(dst),
                     sl->tmp);
            final = "failed";
            keep = true;
            rc = -1;
        } else if (id > 0 && id != run) {
            progress_clear(x, t);
            fprintf(stderr, "netsim sweep: run %d was recorded as run %lld (id %d was taken)\n", run, (long long)id,
                    run);
        }
    } else {
        if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 130) {
            final = NULL;        /* stopped before it began: nothing to record */
        } else if (WIFEXITED(wstatus)) {
            snprintf(why, sizeof why, "exit status %d%s%.400s", WEXITSTATUS(wstatus), last ? ": " : "",
                     last ? last : "");
            if (WEXITSTATUS(wstatus) == 0)
                snprintf(why, sizeof why, "exited without recording the run");
        } else if (WIFSIGNALED(wstatus)) {
            int sig = WTERMSIG(wstatus);
            snprintf(why, sizeof why, "killed by signal %d (%s)%s%s%.400s", sig, strsignal(sig),
                     stopping ? " while the sweep was interrupted" : "", last ? ": " : "", last ? last : "");
            if (stopping)
                final = "interrupted";
        }
        if (final && record_lost_run(x, dst, run, final, wall, why) < 0) {
            progress_clear(x, t);
            fprintf(stderr, "netsim sweep: %s\n", rec_errmsg(dst));
            rc = -1;
        }
    }
    free(last);
    remove_temps(sl, keep);

    t->finished++;
    t->wall_sum += wall;
    if (!final || !strcmp(final, "interrupted"))
        t->interrupted++;
    else if (!strcmp(final, "complete"))
        t->complete++;
    else
        t->failed++;
    if ((!x->quiet && !x->tty) || (final && !strcmp(final, "failed"))) {
        progress_clear(x, t);
        fprintf(stderr, "sweep: run %d/%d %s in %.2f s%s%s%s%s\n", run, x->nruns, final ? final : "not started",
                wall, *sweep_label(x->sw, run) ? "  " : "", sweep_label(x->sw, run), why[0] ? ": " : "", why);
    }
    free(sl->tmp);
    free(sl->log);
    sl->tmp = sl->log = NULL;
    sl->pid = 0;
    return rc;
}

static int launch(const struct sweep_ctx *x, struct slot *sl, int run)
{
    char *tmpl = xasprintf("%s.run%d.XXXXXX.tmp", x->out, run);
    /* The child inherits the lock: the file is taken while either lives. */
    sl->lock_fd = orphans_create(tmpl, 4, &sl->tmp);
    if (sl->lock_fd < 0) {
        fprintf(stderr, "netsim sweep: creating %s: %s\n", tmpl, strerror(errno));
        free(tmpl);
        return -1;
    }
    free(tmpl);
    sl->log = xasprintf("%s.log", sl->tmp);
    sl->run = run;
    sl->t0 = now_s();
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid(), pid = fork();
    if (pid < 0) {
        fprintf(stderr, "netsim sweep: fork: %s\n", strerror(errno));
        close(sl->lock_fd);
        unlink(sl->tmp);
        free(sl->tmp);
        free(sl->log);
        sl->tmp = sl->log = NULL;
        return -1;
    }
    if (pid == 0)
        child_main(x, run, sl->tmp, sl->log, parent);
    sl->pid = pid;
    return 0;
}

static void signal_children(struct slot *slots, int n, int sig)
{
    for (int i = 0; i < n; i++)
        if (slots[i].pid > 0)
            kill(slots[i].pid, sig);
}

static void no_op(int sig)
{
    (void)sig;
}

/* Runs the selected runs, -j at a time. Returns the exit status. */
static int run_sweep(struct sweep_ctx *x, struct rec *dst, int kept)
{
    struct tally t = { 0 };
    for (int run = 1; run <= x->nruns; run++)
        t.total += x->selected[run];
    if (x->jobs > t.total)
        x->jobs = t.total > 0 ? t.total : 1;
    struct slot *slots = calloc((size_t)x->jobs, sizeof *slots);
    if (!slots)
        return 1;

    /* SIGCHLD needs a handler to be queued for sigtimedwait everywhere;
     * all three stay blocked and are taken synchronously. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = no_op;
    sigaction(SIGCHLD, &sa, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_BLOCK, &set, NULL);

    double t0 = now_s(), last_forward = 0;
    int next = 1, running = 0, stop_sig = 0, nsignals = 0;
    bool fatal = false;
    for (;;) {
        int wstatus;
        pid_t pid;
        while ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0) {
            for (int i = 0; i < x->jobs; i++) {
                if (slots[i].pid != pid)
                    continue;
                if (reap(x, dst, &slots[i], wstatus, stop_sig != 0, &t) < 0)
                    fatal = true;
                running--;
                break;
            }
        }
        if (fatal && !stop_sig) {
            stop_sig = SIGTERM;      /* the output is broken: stop the others */
            nsignals = 1;
            last_forward = 0;
        }
        if (stop_sig && running && now_s() - last_forward > 0.5) {
            signal_children(slots, x->jobs, nsignals > 1 ? SIGKILL : stop_sig);
            last_forward = now_s();
        }
        while (!stop_sig && running < x->jobs) {
            while (next <= x->nruns && !x->selected[next])
                next++;
            if (next > x->nruns)
                break;
            int i = 0;
            while (slots[i].pid)
                i++;
            if (launch(x, &slots[i], next) < 0) {
                fatal = true;
                stop_sig = SIGTERM;
                nsignals = 1;
                break;
            }
            next++;
            running++;
        }
        if (!running)
            break;
        progress_show(x, &t);
        struct timespec ts = { 0, 250 * 1000 * 1000 };
        int sig = sigtimedwait(&set, NULL, &ts);
        if (sig == SIGINT || sig == SIGTERM) {
            if (!stop_sig) {
                stop_sig = sig;
                progress_clear(x, &t);
                if (!x->quiet)
                    fprintf(stderr, "sweep: interrupted: stopping %d running run%s (again to kill them)\n", running,
                            running == 1 ? "" : "s");
            }
            nsignals++;
            last_forward = 0;    /* forward now */
        }
    }
    /* The signals stay blocked until exit: a late Ctrl-C must not kill
     * the process before it closes the database. */
    progress_clear(x, &t);

    if (!t.total && kept) {
        fprintf(stderr, "sweep: nothing to run: the %d run%s asked for %s complete in %s\n", kept,
                kept == 1 ? "" : "s", kept == 1 ? "is" : "are", x->out);
        free(slots);
        return 0;
    }
    char el[32];
    double elapsed = now_s() - t0;
    if (elapsed < 60)
        snprintf(el, sizeof el, "%.1f s", elapsed);
    else
        fmt_duration(el, sizeof el, elapsed);
    int not_run = t.total - t.finished;
    fprintf(stderr, "sweep: %d/%d done, %d failed", t.complete, t.total, t.failed);
    if (t.interrupted)
        fprintf(stderr, ", %d interrupted", t.interrupted);
    if (not_run)
        fprintf(stderr, ", %d not started", not_run);
    if (kept)
        fprintf(stderr, ", %d already complete", kept);
    fprintf(stderr, " in %s (-j %d); results in %s\n", el, x->jobs, x->out);
    if (stop_sig && !fatal)
        fprintf(stderr, "sweep: run the same command with --resume to complete it\n");
    free(slots);
    if (fatal)
        return 1;
    if (stop_sig)
        return 130;
    return t.failed ? 1 : 0;
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
            if (x.nsets == MAX_SETS) {
                fprintf(stderr, "netsim sweep: too many --set options\n");
                return 2;
            }
            x.sets[x.nsets++] = optarg;
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

    struct cfg *base = cfg_load(x.path);
    if (!base) {
        fprintf(stderr, "netsim sweep: out of memory\n");
        return 1;
    }
    for (int i = 0; i < x.nsets && !cfg_errors(base); i++)
        cfg_override(base, x.sets[i]);
    if (!cfg_errors(base))
        x.sw = sweep_expand(base);
    if (!x.sw) {
        cfg_print_errors(base, stderr);
        fprintf(stderr, "netsim sweep: %s: %d error%s; nothing was run\n", x.path, cfg_errors(base),
                cfg_errors(base) == 1 ? "" : "s");
        cfg_free(base);
        return 2;
    }
    cfg_free(base);
    x.nruns = sweep_count(x.sw);
    if (only > x.nruns) {
        fprintf(stderr, "netsim sweep: --only %d: %s has %d run%s\n", only, x.path, x.nruns, x.nruns == 1 ? "" : "s");
        sweep_free(x.sw);
        return 2;
    }
    x.selected = calloc((size_t)x.nruns + 1, 1);
    if (!x.selected)
        return 1;
    for (int run = 1; run <= x.nruns; run++)
        x.selected[run] = only ? run == only : shard_n ? (run - 1) % shard_n == shard_i - 1 : 1;
    x.stem = scenario_stem(x.path);
    if (!x.stem) {
        fprintf(stderr, "netsim sweep: out of memory\n");
        exit(1);
    }
    runner_file_hash(x.path, x.hash);
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
    char *wanted = malloc((size_t)x.nruns + 1);     /* before prepare_output unselects kept runs */
    if (!wanted) {
        rc = 1;
        goto done;
    }
    memcpy(wanted, x.selected, (size_t)x.nruns + 1);
    rc = prepare_output(&x, resume, &kept);
    if (!rc)
        rc = take_leftovers(&x, wanted, resume, &kept);
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
    rc = run_sweep(&x, dst, kept);
    rec_close(dst);
done:
    free(defout);
    free(x.stem);
    free(x.selected);
    sweep_free(x.sw);
    return rc;
}
