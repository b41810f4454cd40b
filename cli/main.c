/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * main.c - the command line: `netsim run`, `netsim models`, help.
 *
 * Exit status: 0 success, 1 simulation or I/O error, 2 bad usage or bad
 * scenario (nothing ran, no database was touched).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/commands.h"
#include "drill/drill.h"
#include "sim/config.h"
#include "load/load.h"
#include "sinks/report.h"
#include "cli/run_record.h"
#include "cli/runner.h"
#include "sim/hugepage.h"
#include "sim/sim.h"
#include "sim/variant.h"
#include "load/scenario.h"

/* The Makefile forces BUILD/gen/version.h on this file (git describe, or
 * a tarball's VERSION); a build without it still says what it is. */
#ifndef NETSIM_VERSION
#define NETSIM_VERSION "unknown"
#endif

static const char usage_main[] =
    "usage: netsim <command> [options]\n"
    "\n"
    "A packet-level simulator of Linux networking on 10 Gbit/s hardware.\n"
    "\n"
    "commands:\n"
    "  run FILE       run one scenario; iperf3-style table on stdout, results in SQLite\n"
    "  sweep FILE     run every ${...} combination x repeats, in parallel, into one database\n"
    "  report DB      goodput per combination with 95% intervals; --compare AXIS=A,B\n"
    "  plot DB        report's metric against a swept axis, drawn by gnuplot (PNG, SVG)\n"
    "  merge OUT IN.. combine result databases of one scenario\n"
    "  models         list applications, CPU profiles and model families\n"
    "  drill SCRIPT   run packetdrill scripts against netsim's TCP (docs/conformance.md)\n"
    "  keys [WHAT]    every scenario key with its default, unit, range and doc\n"
    "  help           this text; `netsim run --help` for the options of run\n"
    "  --version      the version of this build\n"
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
    "      --tc-stats      print each port's qdiscs at the end as tc -s qdisc show does\n"
    "      --json          print the results as one JSON document instead of tables\n"
    "  -q, --quiet         no interval rows, summary only\n"
    "      --no-db         do not write a database\n"
    "      --pcap DIR      write a capture per NIC port, DIR/HOST-PORT.pcap (libpcap,\n"
    "                      nanosecond timestamps of simulated time): headers built from\n"
    "                      each packet, payload as zeros; which ports: the host key\n"
    "                      pcap = all | none | eth0, eth1 (every port if no host has it).\n"
    "                      Sent frames are taken at the TX ring, received ones where\n"
    "                      the driver hands them up, as tcpdump sees them (docs/pcap.md)\n"
    "      --pcap-snaplen N  bytes kept per frame (default 128; 1 to 262144); each\n"
    "                      record keeps the true frame length\n"
    "      --pcap-filter EXPR  capture only frames matching a BPF expression (tcpdump's\n"
    "                      syntax, e.g. 'tcp port 5201')\n"
    "      --pcap-wire     capture the frames on the wire (TSO's segments, frames before\n"
    "                      GRO) instead of the GSO and GRO packets tcpdump on the host sees\n"
    "      --ss FILE       where the socket samples of flows with ss_interval go\n"
    "                      (ss -tmi lines); default DB less .db + .runID.ss.txt beside\n"
    "                      the database, or SCENARIO.ss.txt here with --no-db\n"
    "  -h, --help          this text\n"
    "\n"
    "Units: time 25us 50ms 2s; rate 10gbit 100mbit; size 256K 4M (1024-based); 1%.\n"
    "A value ${a, b} is a sweep axis: use `netsim sweep` for those.\n";

static void on_signal(int sig)
{
    (void)sig;
    runner_interrupt();
}

static int cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, 0, 'o' }, { "set", required_argument, 0, 's' },
        { "seed", required_argument, 0, 'S' },   { "rep", required_argument, 0, 'R' },
        { "profile", no_argument, 0, 'P' },      { "json", no_argument, 0, 'J' },
        { "quiet", no_argument, 0, 'q' },        { "no-db", no_argument, 0, 'N' },
        { "help", no_argument, 0, 'h' },         { "pcap", required_argument, 0, 'C' },
        { "pcap-snaplen", required_argument, 0, 'L' }, { "pcap-filter", required_argument, 0, 'F' },
        { "pcap-wire", no_argument, 0, 'W' },
        { "ss", required_argument, 0, 'T' },     { "tc-stats", no_argument, 0, 'Q' },
        { 0, 0, 0, 0 },
    };
    const char *out = NULL, *ss = NULL;
    const char *sets[256];
    int nsets = 0, profile = 0, json = 0, quiet = 0, nodb = 0, rep = 0, tc_stats = 0;
    uint64_t seed = 0;
    bool have_seed = false;
    struct pcap_opts pcap = { .snaplen = PCAP_SNAPLEN_DEFAULT };
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
            /* run.seed holds the 64-bit seed as SQLite's signed integer, so
             * a replication's seed of 2^63 or more reads negative there:
             * --seed takes it in either spelling */
            errno = 0;
            if (optarg[0] == '-')
                seed = (uint64_t)strtoll(optarg, &end, 10);
            else
                seed = strtoull(optarg, &end, 10);
            if (!optarg[0] || *end || errno || isspace((unsigned char)optarg[0]) || optarg[0] == '+') {
                fprintf(stderr, "netsim run: --seed takes an integer from 0 to 18446744073709551615 (or -2^63 to -1, "
                        "as run.seed stores the seeds of 2^63 and more), got '%s'\n", optarg);
                return 2;
            }
            have_seed = true;
            break;
        case 'R': {
            errno = 0;
            long v = strtol(optarg, &end, 10);
            if (end == optarg || *end || errno || v < 0 || v > INT_MAX) {
                fprintf(stderr, "netsim run: --rep takes an integer 0 to %d, got '%s'\n", INT_MAX, optarg);
                return 2;
            }
            rep = (int)v;
            break;
        }
        case 'C':
            if (!*optarg) {
                fprintf(stderr, "netsim run: --pcap takes a directory, got ''\n");
                return 2;
            }
            pcap.dir = optarg;
            break;
        case 'L': {
            errno = 0;
            long v = strtol(optarg, &end, 10);
            if (end == optarg || *end || errno || v < 1 || v > PCAP_SNAPLEN_MAX) {
                fprintf(stderr, "netsim run: --pcap-snaplen takes an integer 1 to %d, got '%s'\n", PCAP_SNAPLEN_MAX, optarg);
                return 2;
            }
            pcap.snaplen = (uint32_t)v;
            break;
        }
        case 'F': pcap.filter = optarg; break;
        case 'W': pcap.wire = true; break;
        case 'T':
            if (!*optarg) {
                fprintf(stderr, "netsim run: --ss takes a file, got ''\n");
                return 2;
            }
            ss = optarg;
            break;
        case 'P': profile = 1; break;
        case 'Q': tc_stats = 1; break;
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
    if ((pcap.filter || pcap.snaplen != PCAP_SNAPLEN_DEFAULT || pcap.wire) && !pcap.dir) {
        fprintf(stderr, "netsim run: --pcap-snaplen, --pcap-filter and --pcap-wire need --pcap DIR\n");
        return 2;
    }
    if (pcap.filter) {
        char err[512];
        if (pcap_filter_check(pcap.filter, pcap.snaplen, err, sizeof err) < 0) {
            fprintf(stderr, "netsim run: --pcap-filter '%s': %s\n", pcap.filter, err);
            return 2;
        }
    }
    if (pcap.dir && mkdir(pcap.dir, 0777) < 0 && errno != EEXIST) {
        fprintf(stderr, "netsim run: --pcap %s: %s\n", pcap.dir, strerror(errno));
        return 2;
    }
    const char *path = argv[optind];
    hugepage_heap(HUGEPAGE_HEAP_BYTES);
    struct cfg *cfg = cfg_load(path);
    for (int i = 0; i < nsets && !cfg_errors(cfg); i++)
        cfg_override(cfg, sets[i]);
    if (cfg_errors(cfg)) {
        cfg_print_errors(cfg, stderr);
        fprintf(stderr, "netsim run: %s: %d error%s; nothing was run\n", path, cfg_errors(cfg), cfg_errors(cfg) == 1 ? "" : "s");
        cfg_free(cfg);
        return 2;
    }
    char *stem = scenario_name(cfg, path);
    struct run_opts o = {
        .scenario_path = path, .scenario = stem, .variant_label = "", .seed = seed, .have_seed = have_seed,
        .rep = rep, .out = stdout, .json = json, .quiet = quiet, .profile = profile, .tc_stats = tc_stats, .progress = isatty(2) && !json,
        .pcap = pcap,
    };
    /* Build first, so that a bad scenario never touches the database;
     * the run then uses what was built. */
    sim_build_progress(o.progress);
    struct sim *built = sim_build(cfg, seed, have_seed);
    if (cfg_errors(cfg)) {
        sim_free(built);
        cfg_print_errors(cfg, stderr);
        fprintf(stderr, "netsim run: %s: %d error%s; nothing was run\n", path, cfg_errors(cfg), cfg_errors(cfg) == 1 ? "" : "s");
        free(stem);
        cfg_free(cfg);
        return 2;
    }
    char defpath[512], ss_base[4096], ss_nodb[512];
    snprintf(defpath, sizeof defpath, "results/%s.db", stem);
    /* the socket samples (ss_interval): beside the database, named by the
     * run's id; without one, in the current directory */
    runner_ss_base(out ? out : defpath, ss_base, sizeof ss_base);
    snprintf(ss_nodb, sizeof ss_nodb, "%s.ss.txt", stem);
    o.ss_path = ss ? ss : nodb ? ss_nodb : NULL;
    o.ss_base = ss_base;
    struct run_record *rr = NULL;
    if (!nodb && !(rr = run_record_open(out ? out : defpath, &o))) {
        sim_free(built);
        free(stem);
        cfg_free(cfg);
        return 1;
    }
    o.built = built;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    int rc = runner_run(cfg, &o, rr ? run_record_scratch(rr) : NULL);
    run_record_close(rr);
    free(stem);
    cfg_free(cfg);
    skb_pool_release();
    return rc;
}

int main(int argc, char **argv)
{
    /* netsim uses SQLite from one thread per process (a sweep's workers
     * are processes), so no mutex need guard a connection or the
     * allocator; every bind and step took two of them, and each malloc a
     * third, for its memory statistics, which nothing reads. */
    sqlite3_config(SQLITE_CONFIG_SINGLETHREAD);
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    /* the engine is handed the models; a variant that breaks its
     * family's contract stops every command */
    models_install();
    if (variants_check(stderr) < 0) {
        fprintf(stderr, "netsim: the model variants break their contract (sim/variant.h)\n");
        return 1;
    }
    if (argc < 2) {
        fputs(usage_main, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        fputs(usage_main, stdout);
        return stdout_close("netsim");
    }
    if (!strcmp(cmd, "--version")) {
        printf("netsim %s\n", NETSIM_VERSION);
        return stdout_close("netsim");
    }
    static const struct {
        const char *name;
        int (*fn)(int argc, char **argv);
    } cmds[] = {
        { "run", cmd_run }, { "sweep", cmd_sweep }, { "report", cmd_report }, { "plot", cmd_plot },
        { "merge", cmd_merge }, { "keys", cmd_keys }, { "models", cmd_models }, { "drill", cmd_drill },
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        if (strcmp(cmd, cmds[i].name))
            continue;
        /* What a command printed may be the only copy of its results
         * (--no-db, --json, report, --dry-run, --emit-jobs): a write that
         * failed fails the command, whatever it returned. */
        char who[32];
        snprintf(who, sizeof who, "netsim %s", cmd);
        int rc = cmds[i].fn(argc - 1, argv + 1);
        if (stdout_close(who) && (rc == 0 || rc == 130))
            rc = 1;
        return rc;
    }
    fprintf(stderr, "netsim: unknown command '%s'\n\n%s", cmd, usage_main);
    return 2;
}
