/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scenario_fit.c - will the scenario fit in this machine's memory? Its
 * flows, then its hosts and links, then their qdisc trees, estimated
 * from measured costs before any of them is built, so that a scenario too
 * large is refused with the estimate instead of running the machine out
 * of memory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "load/scenario_fit.h"
#include "load/link_qdisc.h"
#include "sim/config.h"
#include "sim/config_store.h"
#include "sim/sim.h"
#include "sim/strindex.h"
#include "sim/units.h"
#include "sim/xalloc.h"

/* What a flow costs, measured: 10 000 TCP flows at full speed on one link
 * peaked at 209 MB (about 21 KB each: two endpoints, their scoreboard and
 * receive records, the app, its counters; make bench); the estimate rounds
 * up. */
#define FLOW_BYTES_ESTIMATE (24 * 1024)

/* Memory this machine can give a run: MemAvailable, or the environment's
 * NETSIM_MEM_AVAILABLE (bytes, for tests: 2000000000, 2e9 or 2G). 0 when
 * unknown; a value that is no amount of bytes is an error (it was read
 * up to its first non-digit: 1e9 was 1 byte). */
static uint64_t mem_available(struct cfg *c)
{
    const char *env = getenv("NETSIM_MEM_AVAILABLE");
    if (env && *env) {
        const char *why;
        uint64_t b;
        char *end;
        double d = strtod(env, &end);
        if (!parse_size(env, &b, &why))
            return b;
        if (end != env && !*end && d >= 0 && d < 18446744073709551616.0 && !strchr(env, ' '))
            return (uint64_t)d;
        static bool said;        /* once per process: a sweep builds many runs */
        if (!said)
            cfg_error_global(c, "NETSIM_MEM_AVAILABLE: got '%s', expected bytes such as 2000000000, 2e9 or 2G", env);
        said = true;
        return 0;
    }
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[128];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb * 1024;
}

/* A scenario whose flows would not fit in memory is refused before any is
 * built, with the estimate. */
bool scenario_flows_fit(struct sim *s, uint64_t *nflows)
{
    uint64_t n = 0;
    for (int i = 0; i < cfg_section_count(s->cfg); i++)
        n += !strcmp(cfg_kind(cfg_section_at(s->cfg, i)), "flow");
    *nflows = n;
    uint64_t need = n * FLOW_BYTES_ESTIMATE, have = mem_available(s->cfg);
    if (!have || need <= have)
        return true;
    cfg_error_global(s->cfg, "%s: %llu flows need about %llu MB (about %d KB each), more than the %llu MB of "
                     "memory available",
                     cfg_file(s->cfg), (unsigned long long)n, (unsigned long long)(need >> 20),
                     FLOW_BYTES_ESTIMATE / 1024, (unsigned long long)(have >> 20));
    for (int i = 0; i < cfg_section_count(s->cfg); i++) {     /* one mistake, one error */
        struct cfg_section *sec = cfg_section_at(s->cfg, i);
        if (!strcmp(cfg_kind(sec), "flow")) {
            cfg_claim(sec);
            cfg_unchecked(sec);
        }
    }
    return false;
}

/* What a host and a link cost before any packet, measured: a tree of
 * 10 000 hosts peaked at 783 MB, 30 000 at 2279 MB (about 75 KB a host
 * with its link: the host, its ports and their counters, its modules'
 * state, its section's keys; NIC rings, per-destination arrays, random
 * streams and next-hop tables come with the first packet that needs
 * them). The estimate rounds up (80 KB: 810 and 2466 MB with the
 * routers' tables; it was 40 + 24, 13 to 19 % below), and counts every
 * router's table; qdisc state is counted apart (scenario_qdiscs_fit). */
#define HOST_BYTES_ESTIMATE (48 * 1024)
#define LINK_BYTES_ESTIMATE (32 * 1024)

/* A topology that would not fit in memory is refused before any host is
 * configured, with the estimate: its cost grew with the square of the
 * host count once, and took 1.35 GB for 3000 hosts before any check. */
struct end_probe {
    char (*ends)[2][32];
    const char *name;
};

static bool end_eq(const void *ctx, uint32_t id)
{
    const struct end_probe *p = ctx;
    return !strcmp(p->ends[id / 2][id % 2], p->name);
}

bool scenario_hosts_fit(struct sim *s, int nl, char (*ends)[2][32], uint64_t *need_out, uint64_t *routers_out,
                        uint64_t *tables_out)
{
    /* the hosts are the distinct names of the ends, counted before any
     * host exists: a refusal costs what the file does */
    struct strindex names = { 0 };
    uint32_t *degree = xcalloc(2 * (size_t)nl + 1, sizeof *degree);
    uint64_t n = 0, routers = 0;
    for (uint32_t id = 0; id < 2 * (uint32_t)nl; id++) {
        struct end_probe p = { ends, ends[id / 2][id % 2] };
        uint32_t h = strindex_hash(STRINDEX_SEED, p.name, strlen(p.name));
        int64_t first = strindex_find(&names, h, end_eq, &p);
        if (first < 0) {
            if (strindex_add(&names, h, id))
                xoom();
            first = id;
            n++;
        }
        routers += ++degree[first] == 2;
    }
    strindex_free(&names);
    free(degree);
    uint64_t tables = routers * n;
    uint64_t need = n * HOST_BYTES_ESTIMATE + (uint64_t)nl * LINK_BYTES_ESTIMATE + tables;
    uint64_t have = mem_available(s->cfg);
    *need_out = need;
    *routers_out = routers;
    *tables_out = tables;
    if (!have || need <= have)
        return true;
    cfg_error_global(s->cfg, "%s: %llu hosts on %d links need about %llu MB (about %d KB a host, %d KB a link, "
                     "and up to %llu MB of next hops for %llu routers), more than the %llu MB of memory available",
                     cfg_file(s->cfg), (unsigned long long)n, nl, (unsigned long long)(need >> 20),
                     HOST_BYTES_ESTIMATE / 1024, LINK_BYTES_ESTIMATE / 1024, (unsigned long long)(tables >> 20),
                     (unsigned long long)routers, (unsigned long long)(have >> 20));
    return false;
}

/* The same with the qdisc trees the links will have, once the hosts
 * (their default qdisc, their NIC's queues) are configured and before any
 * tree is built: fq_codel's flows 65536 are 6.5 MB a port, and 2334 hosts
 * of them were killed by the OOM killer at 24 GB. */
bool scenario_qdiscs_fit(struct sim *s, struct cfg_section **lsec, int nl, char (*ends)[2][32], uint64_t need,
                         uint64_t routers, uint64_t tables)
{
    uint64_t largest;
    char key[128];
    uint64_t q = links_qdisc_mem(s, lsec, nl, ends, &largest, key, sizeof key);
    uint64_t have = mem_available(s->cfg);
    if (!have || need + q <= have)
        return true;
    cfg_error_global(s->cfg, "%s: %d hosts on %d links need about %llu MB (about %d KB a host, %d KB a link, and "
                     "up to %llu MB of next hops for %llu routers), and their qdiscs %llu MB (the largest, %s, "
                     "%.1f MB), more than the %llu MB of memory available",
                     cfg_file(s->cfg), s->nhosts, nl, (unsigned long long)(need >> 20), HOST_BYTES_ESTIMATE / 1024,
                     LINK_BYTES_ESTIMATE / 1024, (unsigned long long)(tables >> 20), (unsigned long long)routers,
                     (unsigned long long)(q >> 20), key, (double)largest / (1 << 20),
                     (unsigned long long)(have >> 20));
    return false;
}

