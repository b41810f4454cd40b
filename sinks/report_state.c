/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_state.c - what both printers of a report ask of what report.c
 * collected (report_state.h): a flow by its id, a flow's totals, a rate,
 * the CPU profile in print order.
 */
#include <math.h>
#include <stdlib.h>
#include "sinks/report_state.h"

struct flow_key {
    const struct report *r;
    int id;
};

static bool flow_is(const void *ctx, uint32_t i)
{
    const struct flow_key *k = ctx;
    return k->r->flows[i].id == k->id;
}

static uint32_t id_hash(int id)
{
    return strindex_hash(STRINDEX_SEED, (const char *)&id, sizeof id);
}

int64_t rep_flow_index(const struct report *r, int id)
{
    struct flow_key key = { .r = r, .id = id };
    return strindex_find(&r->flow_ix, id_hash(id), flow_is, &key);
}

void rep_flow_indexed(struct report *r, int id, size_t i)
{
    if (strindex_add(&r->flow_ix, id_hash(id), (uint32_t)i) < 0)
        xoom();
}

const struct rep_flow *rep_flow_of(const struct report *r, int id)
{
    int64_t i = rep_flow_index(r, id);
    return i >= 0 ? &r->flows[i] : NULL;
}

struct flow_total rep_flow_total(const struct report *r, int id, double sim_s)
{
    const struct rep_flow *fl = rep_flow_of(r, id);
    if (!fl || !fl->nivs)
        return (struct flow_total){ 0, isfinite(sim_s) && sim_s > 0 ? sim_s : 0, 0 };
    return (struct flow_total){ fl->t_first, fl->t_last, fl->bytes };
}

double rep_rate_of(uint64_t bytes, double t_start, double t_end)
{
    double dt = t_end - t_start;

    return dt > 0 ? (double)bytes * 8.0 / dt : NAN;
}

/* Profile order: by host (first appearance), then by CPU time descending,
 * then by first appearance. */
static int prof_cmp(const void *a, const void *b)
{
    const struct rep_prof *x = *(const struct rep_prof *const *)a;
    const struct rep_prof *y = *(const struct rep_prof *const *)b;

    if (x->host_idx != y->host_idx)
        return x->host_idx < y->host_idx ? -1 : 1;
    if (x->cpu_ns != y->cpu_ns)
        return x->cpu_ns > y->cpu_ns ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

struct rep_prof **rep_prof_sorted(const struct report *r)
{
    struct rep_prof **v = xcalloc(r->nprof ? r->nprof : 1, sizeof *v);

    for (size_t i = 0; i < r->nprof; i++)
        v[i] = &r->prof[i];
    qsort(v, r->nprof, sizeof *v, prof_cmp);
    return v;
}
