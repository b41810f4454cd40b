/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runner.c - one run, start to finish (see runner.h).
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sim/config.h"
#include "sinks/record.h"
#include "sinks/report.h"
#include "sinks/ss_file.h"
#include "cli/runner.h"
#include "sim/sim.h"
#include "load/load.h"
#include "load/scenario.h"
#include "sim/progress.h"
#include "sim/pcap.h"
#include "sim/xalloc.h"

static struct sim *volatile running;

void runner_interrupt(void)
{
    struct sim *s = running;
    if (s)
        s->q.stop = true;
}

void runner_ss_base(const char *db, char *buf, size_t n)
{
    size_t len = strlen(db);
    if (len > 3 && !strcmp(db + len - 3, ".db"))
        len -= 3;
    snprintf(buf, n, "%.*s", (int)len, db);
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The run's row and parameters, into a sink (a database; the report,
 * whose JSON carries them); returns the run id or -1. */
static int64_t sink_begin(const struct sink_ops *k, void *rec, struct cfg *cfg, const struct run_opts *o,
                          struct sim *s)
{
    struct sink_run run = { .scenario = o->scenario, .variant_label = o->variant_label ? o->variant_label : "",
                            .seed = s->seed, .rep = o->rep, .scenario_hash = cfg_source_hash(cfg),
                            .id = o->run_id };
    int64_t id = k->run_begin(rec, &run);
    if (id < 0)
        return -1;
    struct progress line;        /* 15 a TCP flow */
    progress_begin(&line, o->progress);
    for (int i = 0; i < cfg_param_count(cfg); i++) {
        const char *key, *v;
        if (i % 4096 == 0 && progress_due(&line))
            progress_show(&line, "  writing parameters: %d / %d   ", i, cfg_param_count(cfg));
        cfg_param_at(cfg, i, &key, &v);
        if (k->param(rec, key, v) < 0) {
            progress_end(&line);
            return -1;
        }
    }
    progress_end(&line);
    for (const char *const *p = o->extra_params; p && p[0] && p[1]; p += 2)
        if (k->param(rec, p[0], p[1]) < 0)
            return -1;
    return id;
}

/* netem at the root of a tree, as tc shows it; its counters are the
 * link direction's or the ifb's, named here */
static void netem_root_line(const struct qdisc_root *r, const char *dev, const char *counters, FILE *out)
{
    fprintf(out, "qdisc netem 8001: dev %s root refcnt 2 ", dev);
    r->top->ops->dump(r->top, out);
    fprintf(out, "\n (its counters: %s.netem_*)\n", counters);
}

/* tc -s qdisc show dev PORT for one port: netem at the root (over the
 * qdisc, when both are set: tc's parent 1:1 recipe, which the text once
 * hid), then the tree (the built-in default one too) */
static void tc_stats_port(const struct nic *n, FILE *out)
{
    const struct link_dir *d = n->tx_link;
    if (!n->qd)
        return;
    if (n->qd->top->ops->root_xmit)
        netem_root_line(n->qd, n->name, d->key, out);
    qdisc_root_print(n->qd, n->name, false, out);
}

/* tc -s qdisc show dev IFB */
static void tc_stats_ifb(const struct host *h, const struct ifb *f, FILE *out)
{
    char counters[96];
    snprintf(counters, sizeof counters, "%s.%s.qdisc", h->name, f->name);
    if (f->qd && f->qd->top->ops->root_xmit)
        netem_root_line(f->qd, f->name, counters, out);
    if (f->qd)
        qdisc_root_print(f->qd, f->name, false, out);
}

/* --tc-stats: each port's egress, under the command that shows it; into
 * the JSON document (tc_stats) with --json, where it was left out */
static void tc_stats_print(const struct sim *s, FILE *out, struct report *json)
{
    for (int i = 0; i < s->nhosts; i++) {
        const struct host *h = s->hosts[i];
        for (int k = 0; k < h->nnics + h->nifbs; k++) {
            const struct nic *n = k < h->nnics ? h->nics[k] : NULL;
            const struct ifb *fb = n ? NULL : h->ifbs[k - h->nnics];
            const char *dev = n ? n->name : fb->name;
            if (!json) {
                fprintf(out, "\n%s# tc -s qdisc show dev %s\n", h->name, dev);
                if (n)
                    tc_stats_port(n, out);
                else
                    tc_stats_ifb(h, fb, out);
                continue;
            }
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            if (!f)
                xoom();
            if (n)
                tc_stats_port(n, f);
            else
                tc_stats_ifb(h, fb, f);
            fclose(f);
            report_tc_stats(json, h->name, dev, buf);
            free(buf);
        }
    }
}

int runner_run(struct cfg *cfg, const struct run_opts *o, struct rec *rec)
{
    sim_build_progress(o->progress);
    struct sim *s = o->built             ? o->built
                    : cfg_errors(cfg) ? NULL
                                      : sim_build(cfg, o->have_seed ? o->seed : 0, o->have_seed);
    if (cfg_errors(cfg)) {
        cfg_print_errors(cfg, stderr);
        fprintf(stderr, "netsim: %s: %d error%s; nothing was run\n", cfg_file(cfg), cfg_errors(cfg),
                cfg_errors(cfg) == 1 ? "" : "s");
        sim_free(s);
        return 2;
    }
    if (!o->have_seed)
        s->seed = rng_rep_seed(s->seed, o->rep);
    s->rep = o->rep;
    /* streams were seeded while building: build again on the final seed */
    if (!o->have_seed && o->rep) {
        uint64_t seed = s->seed;
        sim_free(s);
        s = sim_build(cfg, seed, true);
        s->rep = o->rep;
    }
    /* the capture files before any database row: a run that cannot
     * capture as asked does not run */
    struct pcap_run *cap = NULL;
    if (o->pcap.dir) {
        char err[512];
        if (!(cap = pcap_run_open(s, &o->pcap, err, sizeof err))) {
            fprintf(stderr, "netsim: %s; nothing was run\n", err);
            sim_free(s);
            return 1;
        }
    }
    struct sink_end claimed = { .status = "failed", .sim_s = NAN, .error = o->claim_error };
    if (o->claim && (sink_begin(&record_sink_ops, o->claim, cfg, o, s) < 0 || record_sink_ops.run_end(o->claim, &claimed) < 0)) {
        fprintf(stderr, "netsim: %s; nothing was run\n", rec_errmsg(o->claim));
        if (cap)
            pcap_run_discard(cap);
        sim_free(s);
        return 1;
    }
    int64_t id = rec ? sink_begin(&record_sink_ops, rec, cfg, o, s) : 0;
    if (id < 0) {
        fprintf(stderr, "netsim: %s\n", rec_errmsg(rec));
        if (cap)
            pcap_run_discard(cap);
        sim_free(s);
        return 1;
    }
    /* The socket samples' file: named now, or once the database has
     * given the run its id. */
    char ss_path[4096] = "";
    if (o->ss_path)
        snprintf(ss_path, sizeof ss_path, "%s", o->ss_path);
    else if (o->ss_base && o->run_id > 0)
        snprintf(ss_path, sizeof ss_path, "%s.run%lld.ss.txt", o->ss_base, (long long)o->run_id);
    else if (o->ss_base)
        snprintf(ss_path, sizeof ss_path, "%s.run-pending-%ld.ss.txt", o->ss_base, (long)getpid());
    struct ss_file *ss = ss_path[0] ? ss_file_new(ss_path, o->scenario, s->seed, o->rep) : NULL;
    struct report *rep = o->out ? report_new(o->out, o->json ? REPORT_JSON : REPORT_TEXT, o->quiet) : NULL;
    if (rep) {
        report_show_profile(rep, o->profile);
        sink_begin(&report_sink_ops, rep, cfg, o, s);
    }
    if (rec)
        sim_add_sink(s, &record_sink_ops, rec);
    if (rep)
        sim_add_sink(s, &report_sink_ops, rep);
    if (ss)
        sim_add_sink(s, &ss_file_sink_ops, ss);

    int rc_cap = 0;
    running = s;
    double t0 = wall();
    sim_run(s, o->progress);
    double w = wall() - t0;
    running = NULL;
    if (cap && pcap_run_close(cap, stderr) < 0)
        rc_cap = 1;
    /* for make bench: what the run cost the event queue */
    if (getenv("NETSIM_QUEUE_STATS"))
        fprintf(stderr, "netsim: queue: %llu events, %llu heap operations, %llu fifo operations\n",
                (unsigned long long)s->q.executed, (unsigned long long)s->q.heap_ops, (unsigned long long)s->q.fifo_ops);
    const char *status = s->sink_failure ? "failed" : s->interrupted ? "interrupted" : "complete";
    int rc = s->sink_failure ? 1 : s->interrupted ? 130 : rc_cap;
    struct sink_end end = { .status = status, .wall_s = w, .sim_s = time_to_s(s->q.now), .events = s->q.executed,
                            .error = s->sink_failure };
    if (s->sink_failure)
        fprintf(stderr, "netsim: the run stopped at %.6g s of %.6g s: its results could not be kept\n",
                time_to_s(s->q.now), time_to_s(s->duration));
    if (rec && record_sink_ops.run_end(rec, &end) < 0) {
        fprintf(stderr, "netsim: writing results: %s\n", rec_errmsg(rec));
        rc = 1;
        id = -1;
    }
    /* Delivered before the summary, so that the summary can say where
     * the run is (or is not). */
    char msg[2048] = "";
    if (o->deliver && (id = o->deliver(o->deliver_arg, id, msg, sizeof msg)) < 0)
        rc = 1;
    char ss_final[4096] = "";
    if (!o->ss_path && o->ss_base && o->run_id <= 0 && id > 0)
        snprintf(ss_final, sizeof ss_final, "%s.run%lld.ss.txt", o->ss_base, (long long)id);
    if (ss_file_close(ss, ss_final[0] ? ss_final : NULL, stderr) < 0)
        rc = rc ? rc : 1;
    if (rep) {
        if (msg[0] && o->json)
            report_line(rep, "%s", msg);
        if (o->tc_stats && o->json)
            tc_stats_print(s, o->out, rep);
        report_sink_ops.run_end(rep, &end);
        report_free(rep);
        if (msg[0] && !o->json)
            fprintf(o->out, "%s\n", msg);
        if (o->tc_stats && !o->json)
            tc_stats_print(s, o->out, NULL);
    }
    sim_free(s);
    return rc;
}
