/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep_pool.c - the worker pool of `netsim sweep`: forking a child per
 * run, -j at a time, collecting each when it exits and copying its run
 * into the output, the progress line and the summary.
 *
 * Process model. The parent forks up to -j children at a time. A child
 * loads the scenario afresh, applies its run's values, and runs it with
 * runner_run() into its own temporary database next to the output
 * (OUT.runN.XXXXXX.tmp); its stderr goes to a log file beside it. When a
 * child exits, the parent alone copies the run into the output with
 * rec_copy_run() and deletes the temporaries. One writer means no lock
 * contention on the output and no half-written run in it: a child that
 * crashes leaves a temp file that is simply discarded, and the parent
 * records the run as 'failed' with the reason. The parent holds an flock
 * on each temp file (orphans.h), so that a later sweep can tell what a
 * killed one left (sweep_resume.c).
 *
 * Why processes and not threads: a run is single-threaded and keeps global
 * state (the skb pool, the interrupt flag), and a crash (a model bug, an
 * assert) must cost one run, not the sweep.
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
#include <signal.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli/orphans.h"
#include "cli/runner.h"
#include "sim/hugepage.h"
#include "sim/invariant.h"
#include "cli/sweep_pool.h"
#include "load/load.h"
#include "load/scenario.h"
#include "load/sweep.h"
#include "sinks/record.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

/* One worker. */
struct slot {
    pid_t pid;                   /* 0: free */
    int run;
    char *tmp, *log;             /* its temporary database and stderr log */
    int lock_fd;                 /* holds tmp's lock (orphans.h) */
    double t0, t1;               /* launched, exited */
    int wstatus;                 /* as waitpid gave it, once exited */
};

/* "1:02:03" or "2:03". */
static void fmt_duration(char *buf, size_t n, double s)
{
    long t = s > 0 ? (long)(s + 0.5) : 0;
    if (t >= 3600)
        snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
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

    hugepage_heap(HUGEPAGE_HEAP_BYTES);
    struct cfg *c = sweep_run_cfg(x, run);
    if (child_stop)
        _exit(130);
    char *err = NULL;
    struct rec *rec = rec_open_one_run(tmp, &err);
    if (!rec) {
        fprintf(stderr, "%s\n", err ? err : "cannot open the results database");
        _exit(1);
    }
    char ss_base[4096];
    runner_ss_base(x->out, ss_base, sizeof ss_base);
    struct run_opts o = {
        .scenario_path = x->path, .scenario = x->stem, .variant_label = sweep_label(x->sw, run),
        .seed = sweep_seed(x->sw, run), .have_seed = true, .rep = sweep_rep(x->sw, run),
        .extra_params = sweep_params(x->sw, run), .out = NULL, .run_id = run, .ss_base = ss_base,
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
    struct cfg *c = sweep_run_cfg(x, run);
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
static int reap(const struct sweep_ctx *x, struct rec *dst, struct slot *sl, bool stopping, struct tally *t)
{
    int wstatus = sl->wstatus;
    double wall = sl->t1 - sl->t0;
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
            /* Its results stay for --resume (sweep_take_leftovers). */
            snprintf(why, sizeof why, "%.300s; its results are kept in %.150s for --resume", rec_errmsg(dst),
                     sl->tmp);
            final = "failed";
            keep = true;
            rc = -1;
        } else if (id == 0) {
            /* rec_copy_run skips a duplicate of a complete run the output
             * holds: this run would be counted and not be there */
            snprintf(why, sizeof why, "not recorded: %.150s already holds a complete run with its scenario version, "
                     "label, seed and replication", x->out);
            final = "failed";
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
    /* the summary's "done, failed, interrupted" are the finished runs,
     * and "not started" is total less finished */
    INVARIANT(t->finished == t->complete + t->failed + t->interrupted && t->finished <= t->total);
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
    sl->t0 = sweep_now();
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
int sweep_run_pool(struct sweep_ctx *x, struct rec *dst, int kept)
{
    struct tally t = { 0 };
    for (int run = 1; run <= x->nruns; run++)
        t.total += x->selected[run];
    if (x->jobs > t.total)
        x->jobs = t.total > 0 ? t.total : 1;
    struct slot *slots = xcalloc((size_t)x->jobs, sizeof *slots);

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

    /* the children that exited, waiting for their runs to be copied: the
     * free slot takes the next run first, so that a copy (the parent's
     * serial work) overlaps the runs instead of holding a core idle */
    struct slot *exited = xcalloc((size_t)x->jobs, sizeof *exited);
    double t0 = sweep_now(), last_forward = 0;
    int next = 1, running = 0, stop_sig = 0, nsignals = 0, nexited = 0;
    bool fatal = false;
    for (;;) {
        int wstatus;
        pid_t pid;
        while ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0) {
            for (int i = 0; i < x->jobs; i++) {
                if (slots[i].pid != pid)
                    continue;
                INVARIANT(nexited < x->jobs);
                exited[nexited] = slots[i];
                exited[nexited].t1 = sweep_now();
                exited[nexited++].wstatus = wstatus;
                slots[i] = (struct slot){ 0 };
                running--;
                break;
            }
        }
        if (fatal && !stop_sig) {
            stop_sig = SIGTERM;      /* the output is broken: stop the others */
            nsignals = 1;
            last_forward = 0;
        }
        if (stop_sig && running && sweep_now() - last_forward > 0.5) {
            signal_children(slots, x->jobs, nsignals > 1 ? SIGKILL : stop_sig);
            last_forward = sweep_now();
        }
        while (!stop_sig && running < x->jobs) {
            while (next <= x->nruns && !x->selected[next])
                next++;
            if (next > x->nruns)
                break;
            /* running counts the slots holding a child: one is free */
            int i = 0;
            while (slots[i].pid) {
                i++;
                INVARIANT(i < x->jobs);
            }
            if (launch(x, &slots[i], next) < 0) {
                fatal = true;
                stop_sig = SIGTERM;
                nsignals = 1;
                break;
            }
            next++;
            running++;
        }
        for (int k = 0; k < nexited; k++)
            if (reap(x, dst, &exited[k], stop_sig != 0, &t) < 0)
                fatal = true;
        nexited = 0;
        if (fatal && !stop_sig)
            continue;            /* stop the children just launched (above) */
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
    /* unstopped, the pool ran every selected run: none "not started" */
    INVARIANT(stop_sig || t.finished == t.total);

    if (!t.total && kept) {
        fprintf(stderr, "sweep: nothing to run: the %d run%s asked for %s complete in %s\n", kept,
                kept == 1 ? "" : "s", kept == 1 ? "is" : "are", x->out);
        free(slots);
        free(exited);
        return 0;
    }
    char el[32];
    double elapsed = sweep_now() - t0;
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
    free(exited);
    if (fatal)
        return 1;
    if (stop_sig)
        return 130;
    return t.failed ? 1 : 0;
}
