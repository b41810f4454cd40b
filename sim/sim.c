/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim.c - running a built world: flows start, the interval clock ticks,
 * events run, and at the end counters and the CPU profile are emitted.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim/config.h"
#include "sim/progress.h"
#include "sim/route.h"
#include "sim/sim.h"
#include "sim/sock.h"
#include "sim/strindex.h"
#include "sim/xalloc.h"

/* Interval rows for every goodput flow, for [t0, t1]: while it lives. An
 * interval wholly before its start or after its stop or its work's end
 * (flow_info.done) that delivered nothing has no row, so that a run of many short flows costs rows for
 * their traffic, not for the run's length; the report's per-flow total
 * then spans the flow's own rows. Bytes that arrive after the stop (the
 * last window in flight) still have theirs. */
static void emit_intervals(struct sim *s, simtime_t t0, simtime_t t1)
{
    for (int i = 0; i < s->nflows; i++) {
        struct flow *f = s->flows[i];
        if (!f->counts_goodput)
            continue;
        uint64_t bytes = f->bytes - f->bytes_mark;
        f->bytes_mark = f->bytes;
        struct flow_info info = { 0 };
        if (f->ops->info)
            f->ops->info(f, &info);
        if (!bytes && (t1 <= f->start || t0 >= f->stop || info.done))
            continue;
        sim_emit_interval(s, f->id, t0, t1, bytes, f->ops->info ? &info : NULL);
    }
}

static void sim_tick(struct event *ev)
{
    struct sim *s = ev->ctx;
    simtime_t t1 = s->q.now;
    emit_intervals(s, t1 - s->interval, t1);
    s->next_tick = t1 + s->interval;
    if (s->next_tick <= s->duration)
        evq_push(&s->q, &s->tick, s->next_tick);
}

struct desc_probe {
    struct flow *const *flows;
    const char *desc;
};

static bool desc_eq(const void *ctx, uint32_t id)
{
    const struct desc_probe *p = ctx;
    return !strcmp(p->flows[id]->desc, p->desc);
}

/* Flows that an app describes alike (two iperf3 -c to one server) get
 * their id appended, so that every label, and every line of a plot by
 * flow, names one flow. */
static void label_flows(struct sim *s)
{
    struct strindex ix = { 0 };
    bool *shared = xcalloc((size_t)s->nflows + 1, sizeof *shared);
    for (int i = 0; i < s->nflows; i++) {
        struct desc_probe p = { s->flows, s->flows[i]->desc };
        uint32_t h = strindex_hash(STRINDEX_SEED, p.desc, strlen(p.desc));
        int64_t first = strindex_find(&ix, h, desc_eq, &p);
        if (first >= 0)
            shared[first] = shared[i] = true;
        else if (strindex_add(&ix, h, (uint32_t)i))
            xoom();
    }
    for (int i = 0; i < s->nflows; i++) {
        struct flow *f = s->flows[i];
        if (shared[i]) {
            size_t n = strlen(f->desc);
            snprintf(f->desc + n, sizeof f->desc - n, ", flow.%d", f->id);
        }
    }
    strindex_free(&ix);
    free(shared);
}

uint16_t flow_server_port(struct flow *f, struct cfg_section *sec, uint8_t proto, uint16_t tool_port,
                          const char *doc)
{
    uint16_t free_port = host_free_port(f->to, proto, tool_port);
    char def[8];
    snprintf(def, sizeof def, "%u", free_port ? free_port : tool_port);
    uint16_t port = (uint16_t)cfg_int(sec, "port", def, 1, 65535, doc);
    if (!host_sock_lookup(f->to, proto, port))
        return port;
    if (cfg_has(sec, "port"))
        cfg_error(sec, "port", "port %u on %s is taken by another flow", port, f->to->name);
    else
        cfg_error(sec, "port", "no free port on %s: other flows' servers hold every port from %u to 65535; "
                  "give this flow a port below %u, or spread the flows over more receiving hosts",
                  f->to->name, tool_port, tool_port);
    return port;
}

void sim_run(struct sim *s, bool progress)
{
    label_flows(s);
    for (int i = 0; i < s->nflows; i++) {
        struct flow *f = s->flows[i];
        if (f->counts_goodput)
            sim_emit_flow(s, f->id, f->desc);
        char key[32];
        /* "label." params describe, they are not inputs (sweep --resume
         * ignores them); tools/plot --by-flow names lines with it */
        snprintf(key, sizeof key, "label.flow.%d", f->id);
        sim_emit_param(s, key, f->desc);
        f->ops->start(s, f);
    }
    event_init(&s->tick, sim_tick, s);
    s->next_tick = s->interval;
    if (s->interval <= s->duration)
        evq_push(&s->q, &s->tick, s->interval);

    /* Run in slices of simulated time so that the progress line and an
     * interrupt get looked at a few hundred times a second at most. */
    struct progress line;
    progress_begin(&line, progress);
    simtime_t slice = 10 * PS_PER_MS;
    for (simtime_t t = 0; t < s->duration && !s->q.stop;) {
        t = t + slice < s->duration ? t + slice : s->duration;
        evq_run(&s->q, t);
        /* a run whose rows are lost already goes no further */
        if ((s->sink_failure = sim_sink_failed(s)))
            s->q.stop = true;
        if (progress_due(&line)) {
            double elapsed = line.last - line.t0;
            double rate = time_to_s(t) / elapsed;   /* simulated s per wall s */
            progress_show(&line, "  sim %.2f / %.2f s   %.1f M events/s   %.2f sim s/wall s   ETA %.0f s   ",
                          time_to_s(t), time_to_s(s->duration), (double)s->q.executed / elapsed / 1e6, rate,
                          rate > 0 ? time_to_s(s->duration - t) / rate : 0.0);
        }
    }
    progress_end(&line);
    s->interrupted = s->q.stop && !s->sink_failure;
    simtime_t end = s->q.stop ? s->q.now : s->duration;
    s->q.now = end;
    simtime_t last = s->next_tick - s->interval;
    if (end > last && (end - last) * 100 >= s->interval)   /* a partial last interval, iperf3 style */
        emit_intervals(s, last, end);

    for (int i = 0; i < s->nflows; i++)
        if (s->flows[i]->ops->finish)
            s->flows[i]->ops->finish(s, s->flows[i]);
    progress_begin(&line, progress);     /* the counters' rows: 40 a TCP flow */
    for (size_t i = 0; i < s->counters.n; i++) {
        if (i % 4096 == 0 && progress_due(&line))
            progress_show(&line, "  writing counters: %zu / %zu   ", i, s->counters.n);
        const struct counter *c = &s->counters.c[i];
        char name[COUNTER_NAME_MAX];
        counter_name(c, name, sizeof name);
        sim_emit_counter(s, name, *c->value, c->is_drop);
    }
    progress_end(&line);
    for (int i = 0; i < s->nhosts; i++) {
        struct host *h = s->hosts[i];
        for (int k = 0; k < cpu_sym_count(); k++) {
            if (!h->prof[k].calls)
                continue;
            sim_emit_profile(s, h->name, -1, cpu_sym_name(k), h->prof[k].ps / 1000.0, h->prof[k].calls);
        }
    }
}

void sim_free(struct sim *s)
{
    if (!s)
        return;
    /* Packets first, while everything they point at (sockets, NIC buffer
     * slots) still exists; then the objects. */
    for (int i = 0; i < s->nhosts; i++)
        for (struct sock *sk = s->hosts[i]->socks; sk; sk = sk->next) {
            /* sk_rmem_alloc is the truesize of what the queue holds (TCP
             * and SCTP keep their own queues and check their own) */
            assert(sk->rmem_alloc == sock_rq_truesize(sk));
            skbq_purge(&sk->rq);
        }
    evq_free(&s->q);             /* forgets pending events before their owners go */
    sock_teardown(true);
    for (int i = 0; i < s->nhosts; i++)
        models_detach_host(s, s->hosts[i]);
    for (int i = 0; i < s->nlinks; i++) {
        link_dir_free(&s->links[i]->dir[0]);
        link_dir_free(&s->links[i]->dir[1]);
    }
    for (int i = 0; i < s->nhosts; i++)   /* a forwarded packet in a tree holds another port's RX buffer */
        for (int k = 0; k < s->hosts[i]->nnics; k++) {
            qdisc_root_free(s->hosts[i]->nics[k]->qd);
            nic_attach_qdisc(s->hosts[i]->nics[k], NULL);
        }
    for (int i = 0; i < s->nhosts; i++)   /* their packets hold the ports' RX buffers */
        for (int k = 0; k < s->hosts[i]->nifbs; k++) {
            qdisc_root_free(s->hosts[i]->ifbs[k]->qd);
            free(s->hosts[i]->ifbs[k]);
        }
    for (int i = 0; i < s->nhosts; i++) {
        struct host *h = s->hosts[i];
        for (int k = 0; k < h->nnics; k++) {
            nic_free(h->nics[k]);
            free(h->nics[k]);
        }
        free(h->default_qdisc);
        free(h->route);
        free(h->route_groups);
        free(h->sb);
        free(h->ip_id);
        free(h->pmtu[0]);
        free(h->pmtu[1]);
        free(h->sock_hash);
        rng_free(&h->rng);
        for (int k = 0; k < h->ncores; k++) {
            skbq_purge(&h->backlog[k]);
            if (h->cores[k].rng)
                rng_free(h->cores[k].rng);
        }
        free(h->cores);
        free(h->core_rng);
        free(h->backlog);
        free(h->backlog_task);
    }
    for (int i = 0; i < s->nlinks; i++)
        free(s->links[i]);
    for (int i = 0; i < s->nflows; i++) {
        if (s->flows[i]->priv && s->flows[i]->ops && s->flows[i]->ops->release)
            s->flows[i]->ops->release(s->flows[i]);
        free(s->flows[i]->priv);   /* apps keep their sockets in one block */
        free(s->flows[i]);
    }
    for (int i = 0; i < s->nhosts; i++)
        free(s->hosts[i]);
    free(s->flows);
    free(s->hosts);
    free(s->links);
    route_free(s);
    strindex_free(&s->host_index);
    counters_free(&s->counters);
    /* every packet the run allocated is back in the pool */
    assert(skb_in_use() == s->skbs_at_build);
    sock_teardown(false);
    free(s);
}
