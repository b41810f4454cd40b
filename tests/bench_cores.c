/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bench_cores.c - where a CPU-bound run spent each core's time: a
 * scenario run once, then every host's cores with their busy share of the
 * simulated time and their top profile rows (what `netsim run --profile`
 * prints for the whole host, split by core as `perf report -C` would).
 * Not a test; `make bench` builds it. The goodput counters come first.
 *
 *   build/tests/bench_cores SCENARIO [--set SECTION.KEY=VALUE]... [--top N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "load/load.h"
#include "load/scenario.h"
#include "sim/cpu.h"
#include "sim/host.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

static int by_ps_desc(const void *a, const void *b, void *prof)
{
    const struct cpu_sample *p = prof;
    double x = p[*(const int *)a].ps, y = p[*(const int *)b].ps;
    return x < y ? 1 : x > y ? -1 : *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s SCENARIO [--set SECTION.KEY=VALUE]... [--top N]\n", argv[0]);
        return 2;
    }
    struct cfg *cfg = cfg_load(argv[1]);
    int top = 6;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--set") && i + 1 < argc) {
            cfg_override(cfg, argv[++i]);
        } else if (!strcmp(argv[i], "--top") && i + 1 < argc) {
            top = atoi(argv[++i]);
        } else {
            fprintf(stderr, "%s: unknown argument '%s'\n", argv[0], argv[i]);
            return 2;
        }
    }
    struct sim *s = cfg_errors(cfg) ? NULL : sim_build(cfg, 0, false);
    if (cfg_errors(cfg)) {
        cfg_print_errors(cfg, stderr);
        return 2;
    }
    /* a table per core, as sctp's netperf keeps one for its writer's core */
    for (int h = 0; h < s->nhosts; h++)
        for (int k = 0; k < s->hosts[h]->ncores; k++)
            s->hosts[h]->cores[k].core_prof = xcalloc(CPU_MAX_SYMS, sizeof(struct cpu_sample));
    sim_run(s, false);
    for (size_t i = 0; i < s->counters.n; i++) {
        char name[COUNTER_NAME_MAX];
        counter_name(&s->counters.c[i], name, sizeof name);
        if (strstr(name, "goodput_bps"))
            printf("%s %.4g Gbit/s\n", name, (double)*s->counters.c[i].value / 1e9);
    }
    double span_ps = (double)s->duration;
    int ids[CPU_MAX_SYMS];
    for (int h = 0; h < s->nhosts; h++) {
        struct host *host = s->hosts[h];
        for (int k = 0; k < host->ncores; k++) {
            struct core *c = &host->cores[k];
            if (!c->busy_ps)
                goto next;
            printf("%s/cpu%d busy %.1f %% (%llu slices)\n", host->name, k, 100.0 * (double)c->busy_ps / span_ps,
                   (unsigned long long)c->slices);
            int n = cpu_sym_count();
            for (int j = 0; j < n; j++)
                ids[j] = j;
            qsort_r(ids, (size_t)n, sizeof ids[0], by_ps_desc, c->core_prof);
            for (int j = 0; j < n && j < top && c->core_prof[ids[j]].ps > 0; j++) {
                const struct cpu_sample *p = &c->core_prof[ids[j]];
                printf("    %5.1f %%  %8.1f ns/call  %10llu calls  %s\n", 100.0 * p->ps / (double)c->busy_ps,
                       p->ps / 1000.0 / (double)p->calls, (unsigned long long)p->calls, cpu_sym_name(ids[j]));
            }
        next:
            free(c->core_prof);
            c->core_prof = NULL;
        }
    }
    sim_free(s);
    cfg_free(cfg);
    return 0;
}
