/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frag_stats.c - what /proc/net/sockstat ("FRAG: inuse N memory M") and
 * /proc/net/snmp (Ip: Reasm*) would show, plus the diagnostics of
 * ipfrag.md 5: a sampler every ipfrag.sample_interval (1 ms) for the
 * time-averages, a series row every ipfrag.series_interval (10 ms), and
 * five snapshots at random instants, like the seed's.
 *
 * Counters and sampling start with the host's first fragment, so hosts that
 * never reassemble add nothing to the results.
 */
#include <stdio.h>
#include <stdlib.h>
#include "models/ipfrag/frag.h"
#include "sim/config.h"

static simtime_t warmup(const struct frag_ns *ns)
{
    simtime_t w = 200 * PS_PER_MS;       /* ipfrag.md 10.2: 0.2 s warm-up */
    return w < ns->s->duration / 10 ? w : ns->s->duration / 10;
}

static void sample_fire(struct event *ev)
{
    struct frag_ns *ns = ev->ctx;
    simtime_t now = ns->s->q.now;
    int64_t mem = frag_mem(ns, now);
    if (mem > (int64_t)ns->mem_peak)
        ns->mem_peak = (uint64_t)mem;     /* the largest sample, as sockstat would show it */
    if (now >= warmup(ns)) {
        ns->mem_sum += (double)mem;
        ns->inuse_sum += (double)ns->nqueues;
        ns->nsamples++;
        ns->mem_avg = (uint64_t)(ns->mem_sum / (double)ns->nsamples + 0.5);
        ns->inuse_avg = (uint64_t)(ns->inuse_sum / (double)ns->nsamples + 0.5);
    }
    if (now >= ns->next_series) {
        char name[96];
        snprintf(name, sizeof name, "%s.frag_mem", ns->h->name);
        sim_series(ns->s, name, (double)mem);
        snprintf(name, sizeof name, "%s.frag_inuse", ns->h->name);
        sim_series(ns->s, name, (double)ns->nqueues);
        ns->next_series = now + ns->series_every;
    }
    evq_push(&ns->s->q, &ns->sampler, now + ns->sample_every);
}

static void snap_fire(struct event *ev)
{
    struct frag_ns *ns = ev->ctx;
    int i = ns->nsnap_done++;
    ns->snap_mem[i] = (uint64_t)frag_mem(ns, ns->s->q.now);
    ns->snap_inuse[i] = ns->nqueues;
    if (ns->nsnap_done < 5)
        evq_push(&ns->s->q, &ns->snapper, ns->snap_at[ns->nsnap_done]);
}

static int cmp_time(const void *a, const void *b)
{
    simtime_t x = *(const simtime_t *)a, y = *(const simtime_t *)b;
    return (x > y) - (x < y);
}

/* Five instants, uniform after the warm-up, drawn from the namespace's own
 * stream at attach time so they do not depend on the traffic. */
void frag_stats_start(struct frag_ns *ns, struct cfg_section *sec)
{
    ns->sample_every = cfg_time(sec, "ipfrag.sample_interval", "1ms", PS_PER_US, PS_PER_S,
            "period at which fragment memory and queues are sampled for their averages (mem_avg, inuse_avg)");
    ns->series_every = cfg_time(sec, "ipfrag.series_interval", "10ms", PS_PER_US, 1000 * PS_PER_S,
                                "period of the series HOST.frag_mem and HOST.frag_inuse");
    simtime_t w = warmup(ns), span = ns->s->duration - w;
    for (int i = 0; i < 5; i++)
        ns->snap_at[i] = w + (simtime_t)(rng_uniform(&ns->rng) * (double)span);
    qsort(ns->snap_at, 5, sizeof ns->snap_at[0], cmp_time);
    event_init(&ns->sampler, sample_fire, ns);
    event_init(&ns->snapper, snap_fire, ns);
}

void frag_stats_register(struct frag_ns *ns)
{
    struct sim *s = ns->s;
    simtime_t now = s->q.now;
    evq_push(&s->q, &ns->sampler, now);
    ns->next_series = now;
    for (int i = 0; i < 5; i++)
        if (ns->snap_at[i] >= now) {
            ns->nsnap_done = i;
            evq_push(&s->q, &ns->snapper, ns->snap_at[i]);
            break;
        }
    static const struct {
        const char *name;
        size_t off;
        bool drop;
    } c[] = {
#define C(n, f, d) { n, offsetof(struct frag_ns, f), d }
        C("ReasmReqds", reqds, false), C("ReasmOKs", oks, false), C("ReasmFails", fails, true),
        C("ReasmTimeout", timeouts, false), C("icmp_time_exceeded", icmp_time_exceeded, false),
        C("evictor_calls", evictor_calls, false), C("evicted", evicted, false),
        C("evict_active", evict_active, false), C("zombies", zombies, false), C("headless", headless, false),
        C("policy_drops", policy_drops, false), C("queue_drops", dup_drops, false),
        C("walk_hit", hit_walks, false), C("walk_hit_steps", hit_steps, false),
        C("walk_miss", miss_walks, false), C("walk_miss_steps", miss_steps, false),
        C("dead_evicted", dead_evicted, false), C("dead_lifetime_us_sum", dead_lifetime_us_sum, false),
        C("mem_peak", mem_peak, false), C("mem_avg", mem_avg, false), C("inuse_avg", inuse_avg, false),
#undef C
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        sim_counterf(s, (const uint64_t *)((const char *)ns + c[i].off), c[i].drop, "%s.ipfrag.%s", ns->h->name, c[i].name);
    }
    for (int i = 0; i < 5; i++) {
        sim_counterf(s, &ns->snap_inuse[i], false, "%s.ipfrag.sockstat%d.inuse", ns->h->name, i + 1);
        sim_counterf(s, &ns->snap_mem[i], false, "%s.ipfrag.sockstat%d.memory", ns->h->name, i + 1);
    }
}
