/*
 * main.c - the command line: `netsim run`, `netsim models`, help.
 *
 * Exit status: 0 success, 1 simulation or I/O error, 2 bad usage or bad
 * scenario (nothing ran, no database was touched).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "config.h"
#include "record.h"
#include "report.h"
#include "sim.h"

static const char usage_main[] =
    "usage: netsim <command> [options]\n"
    "\n"
    "A packet-level simulator of Linux networking on 10 Gbit/s hardware.\n"
    "\n"
    "commands:\n"
    "  run FILE       run one scenario; iperf3-style table on stdout, results in SQLite\n"
    "  models         list applications, CPU profiles and model families\n"
    "  help           this text; `netsim run --help` for the options of run\n"
    "\n"
    "Exit status: 0 success, 1 simulation or I/O error, 2 bad usage or bad scenario.\n";

static const char usage_run[] =
    "usage: netsim run FILE [options]\n"
    "\n"
    "Runs the scenario FILE (INI) once and writes every figure to a SQLite\n"
    "database: tables run, param, interval, series, counter, profile.\n"
    "\n"
    "options:\n"
    "  -o, --output DB     database path (default results/<scenario>.db); runs are appended\n"
    "  -s, --set S.K=V     override key K of the section named S, e.g.\n"
    "                      --set receiver.rx_ring_size=4096 --set sim.duration=2s\n"
    "      --seed N        run seed (default: [sim] seed)\n"
    "      --rep R         replication index when [sim] repeat > 1 (default 0)\n"
    "      --profile       print a perf-style table of simulated CPU time per host\n"
    "      --json          print the results as one JSON document instead of tables\n"
    "  -q, --quiet         no interval rows, summary only\n"
    "      --no-db         do not write a database\n"
    "  -h, --help          this text\n"
    "\n"
    "Units: time 25us 50ms 2s; rate 10gbit 100mbit; size 256K 4M (1024-based); 1%.\n"
    "A value ${a, b} is a sweep axis: use `netsim sweep` for those.\n";

static struct sim *running;

static void on_signal(int sig)
{
    (void)sig;
    if (running)
        running->q.stop = true;
}

static char *scenario_stem(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *stem = strdup(base);
    char *dot = strrchr(stem, '.');
    if (dot && dot != stem)
        *dot = 0;
    return stem;
}

static void file_hash(const char *path, char out[17])
{
    uint64_t h = 0xcbf29ce484222325ULL;
    FILE *f = fopen(path, "rb");
    int ch;
    while (f && (ch = fgetc(f)) != EOF) {
        h ^= (unsigned char)ch;
        h *= 0x100000001b3ULL;
    }
    if (f)
        fclose(f);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, 0, 'o' }, { "set", required_argument, 0, 's' },
        { "seed", required_argument, 0, 'S' },   { "rep", required_argument, 0, 'R' },
        { "profile", no_argument, 0, 'P' },      { "json", no_argument, 0, 'J' },
        { "quiet", no_argument, 0, 'q' },        { "no-db", no_argument, 0, 'N' },
        { "help", no_argument, 0, 'h' },         { 0, 0, 0, 0 },
    };
    const char *out = NULL;
    const char *sets[256];
    int nsets = 0, profile = 0, json = 0, quiet = 0, nodb = 0, rep = 0;
    uint64_t seed = 0;
    bool have_seed = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:s:qh", opts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 'o': out = optarg; break;
        case 's':
            if (nsets == 256) {
                fprintf(stderr, "netsim run: too many --set options\n");
                return 2;
            }
            sets[nsets++] = optarg;
            break;
        case 'S':
            errno = 0;
            seed = strtoull(optarg, &end, 10);
            if (*end || errno || optarg[0] == '-') {
                fprintf(stderr, "netsim run: --seed takes a non-negative integer, got '%s'\n", optarg);
                return 2;
            }
            have_seed = true;
            break;
        case 'R':
            rep = (int)strtol(optarg, &end, 10);
            if (*end || rep < 0) {
                fprintf(stderr, "netsim run: --rep takes a non-negative integer, got '%s'\n", optarg);
                return 2;
            }
            break;
        case 'P': profile = 1; break;
        case 'J': json = 1; break;
        case 'q': quiet = 1; break;
        case 'N': nodb = 1; break;
        case 'h': fputs(usage_run, stdout); return 0;
        default: fputs(usage_run, stderr); return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "netsim run: expected one scenario FILE\n\n%s", usage_run);
        return 2;
    }
    const char *path = argv[optind];
    struct cfg *cfg = cfg_load(path);
    for (int i = 0; i < nsets && !cfg_errors(cfg); i++)
        cfg_override(cfg, sets[i]);
    struct sim *s = cfg_errors(cfg) ? NULL : sim_build(cfg, seed, have_seed);
    if (cfg_errors(cfg)) {
        cfg_print_errors(cfg, stderr);
        fprintf(stderr, "netsim run: %s: %d error%s; nothing was run\n", path, cfg_errors(cfg), cfg_errors(cfg) == 1 ? "" : "s");
        sim_free(s);
        cfg_free(cfg);
        return 2;
    }
    if (have_seed == false && rep > 0)
        s->seed = rng_derive_seed(s->seed, "rep") + (uint64_t)rep;
    s->rep = rep;

    char *stem = scenario_stem(path);
    char defpath[512];
    snprintf(defpath, sizeof defpath, "results/%s.db", stem);
    struct rec *rec = NULL;
    if (!nodb) {
        char *err = NULL;
        rec = rec_open(out ? out : defpath, &err);
        if (!rec) {
            fprintf(stderr, "netsim run: %s\n", err ? err : "cannot open the results database");
            free(err);
            free(stem);
            sim_free(s);
            cfg_free(cfg);
            return 1;
        }
        char hash[17];
        file_hash(path, hash);
        struct rec_run_info info = { stem, "", s->seed, rep, hash };
        if (rec_run_begin(rec, &info) < 0) {
            fprintf(stderr, "netsim run: %s\n", rec_errmsg(rec));
            rec_close(rec);
            free(stem);
            sim_free(s);
            cfg_free(cfg);
            return 1;
        }
        for (int i = 0; i < cfg_param_count(cfg); i++) {
            const char *k, *v;
            cfg_param_at(cfg, i, &k, &v);
            rec_param(rec, k, v);
        }
        char seedstr[32];
        snprintf(seedstr, sizeof seedstr, "%llu", (unsigned long long)s->seed);
        rec_param(rec, "run.seed", seedstr);
    }
    struct report *rep_out = report_new(stdout, json ? REPORT_JSON : REPORT_TEXT, quiet);
    report_show_profile(rep_out, profile);
    s->rec = rec;
    s->report = rep_out;

    running = s;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    double t0 = wall();
    sim_run(s, isatty(2) && !json);
    double w = wall() - t0;
    running = NULL;
    const char *status = s->interrupted ? "interrupted" : "complete";
    report_end(rep_out, time_to_s(s->q.now), w, s->q.executed, status);
    int rc = 0;
    if (rec) {
        if (rec_run_end(rec, status, w, s->q.executed, time_to_s(s->q.now), NULL) < 0) {
            fprintf(stderr, "netsim run: writing results: %s\n", rec_errmsg(rec));
            rc = 1;
        }
        rec_close(rec);
    }
    report_free(rep_out);
    free(stem);
    sim_free(s);
    cfg_free(cfg);
    skb_pool_release();
    if (rc == 0 && !strcmp(status, "interrupted"))
        rc = 130;
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage_main, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        fputs(usage_main, stdout);
        return 0;
    }
    if (!strcmp(cmd, "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "models")) {
        models_list();
        return 0;
    }
    fprintf(stderr, "netsim: unknown command '%s'\n\n%s", cmd, usage_main);
    return 2;
}
