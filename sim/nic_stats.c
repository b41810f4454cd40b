/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nic_stats.c - what a port reports: its counters (nic.h).
 */
#include <stdio.h>
#include "sim/counter.h"
#include "sim/host.h"
#include "sim/nic.h"
#include "sim/qdisc.h"

/* qdisc_drops: what the default tree's discipline for this TX queue
 * dropped (mq's child, or the one-queue port's root). A port with a
 * discipline of its own counts its drops as HOST.PORT.qdisc.*; this row
 * stays, at 0, so that every port has the same rows. */
static const uint64_t *default_drops(const struct nic *n, uint32_t txq)
{
    static const uint64_t none;
    const struct qdisc_root *r = n->qd;
    if (!r || !r->dflt)
        return &none;
    return r->top->ops->mq ? &r->top->children[txq]->st.drops : &r->top->st.drops;
}

void nic_register_counters(struct nic *n, struct counters *cs)
{
    counters_addf(cs, &n->rx_missed, true, "%s.%s.rx_missed", n->host->name, n->name);
    counters_addf(cs, &n->pages_alloc, false, "%s.%s.pages_alloc", n->host->name, n->name);
    counters_addf(cs, &n->pages_recycled, false, "%s.%s.pages_recycled", n->host->name, n->name);
    counters_addf(cs, &n->tx_busy, false, "%s.%s.tx_busy", n->host->name, n->name);
    counters_addf(cs, &n->tx_restart_queue, false, "%s.%s.tx_restart_queue", n->host->name, n->name);
    if (n->qd && n->qd->sb)      /* (a row only where a shared buffer is) */
        counters_addf(cs, &n->qd->sb_discards, true, "%s.%s.tc_no_buffer_discard_uc", n->host->name, n->name);
    for (uint32_t i = 0; i < n->p.num_queues; i++) {
        struct nic_vec *v = &n->vec[i];
        static const char *const f[] = { "rx_packets", "rx_bytes", "rx_drops", "tx_packets", "tx_bytes",
                                         "interrupts", "napi_polls", "qdisc_drops" };
        const uint64_t *p[] = { &v->rx_packets, &v->rx_bytes, &v->rx_drops, &v->tx_packets, &v->tx_bytes,
                                &v->irqs, &v->polls, default_drops(n, i) };
        for (int k = 0; k < 8; k++)
            counters_addf(cs, p[k], k == 7, "%s.%s.q%u.%s", n->host->name, n->name, i, f[k]);
        if (n->p.bql)
            counters_addf(cs, &v->bql_limit, false, "%s.%s.q%u.bql_limit", n->host->name, n->name, i);
        if (n->p.gro) {          /* packets GRO held and handed up, segments merged into them */
            counters_addf(cs, &v->gro.flushed, false, "%s.%s.q%u.gro_flushed", n->host->name, n->name, i);
            counters_addf(cs, &v->gro.merged, false, "%s.%s.q%u.gro_merged", n->host->name, n->name, i);
        }
    }
}
