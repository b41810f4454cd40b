/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nic_stats.c - what a port reports: its counters, and its default FIFOs
 * as tc -s qdisc show prints them (nic.h).
 */
#include <stdio.h>
#include "sim/counter.h"
#include "sim/host.h"
#include "sim/nic.h"
#include "sim/qdisc.h"

/* tc -s qdisc show of a port without a qdisc key: what 4.15 attaches (mq,
 * a pfifo_fast per TX queue) with the NIC's own FIFOs' figures. Sent
 * counts every packet put on the ring, as a bypassed qdisc counts it. */
static uint64_t fifo_backlog(const struct nic_vec *v)
{
    uint64_t b = 0;
    for (uint32_t k = 0; k < v->qdisc.len; k++)
        b += v->qdisc.e[(v->qdisc.head + k) & (v->qdisc.cap - 1)]->ip_len + 14;
    return b;
}

void nic_print_default_qdisc(const struct nic *n, FILE *f)
{
    uint64_t pk = 0, by = 0, dr = 0, ql = 0, bl = 0;
    for (uint32_t i = 0; i < n->p.num_queues; i++) {
        const struct nic_vec *v = &n->vec[i];
        pk += v->tx_packets;
        by += v->tx_bytes + 14 * v->tx_packets;
        dr += v->qdisc_drops;
        ql += v->qdisc.len;
        bl += fifo_backlog(v);
    }
    char b[32];
    fprintf(f, "qdisc mq 0: dev %s root \n Sent %llu bytes %llu pkt (dropped %llu, overlimits 0 requeues 0) \n"
            " backlog %s %llup requeues 0 \n", n->name, (unsigned long long)by, (unsigned long long)pk,
            (unsigned long long)dr, qdisc_fmt_size(b, sizeof b, bl), (unsigned long long)ql);
    for (uint32_t i = 0; i < n->p.num_queues; i++) {
        const struct nic_vec *v = &n->vec[i];
        uint64_t qb = fifo_backlog(v);
        fprintf(f, "qdisc pfifo_fast 0: dev %s parent :%x bands 3 priomap  1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1\n"
                " Sent %llu bytes %llu pkt (dropped %llu, overlimits 0 requeues 0) \n backlog %s %up requeues 0 \n",
                n->name, i + 1, (unsigned long long)(v->tx_bytes + 14 * v->tx_packets),
                (unsigned long long)v->tx_packets, (unsigned long long)v->qdisc_drops,
                qdisc_fmt_size(b, sizeof b, qb), v->qdisc.len);
    }
}

void nic_register_counters(struct nic *n, struct counters *cs)
{
    counters_addf(cs, &n->rx_missed, true, "%s.%s.rx_missed", n->host->name, n->name);
    counters_addf(cs, &n->pages_alloc, false, "%s.%s.pages_alloc", n->host->name, n->name);
    counters_addf(cs, &n->pages_recycled, false, "%s.%s.pages_recycled", n->host->name, n->name);
    counters_addf(cs, &n->tx_busy, false, "%s.%s.tx_busy", n->host->name, n->name);
    counters_addf(cs, &n->tx_restart_queue, false, "%s.%s.tx_restart_queue", n->host->name, n->name);
    for (uint32_t i = 0; i < n->p.num_queues; i++) {
        struct nic_vec *v = &n->vec[i];
        static const char *const f[] = { "rx_packets", "rx_bytes", "rx_drops", "tx_packets", "tx_bytes",
                                         "interrupts", "napi_polls", "qdisc_drops" };
        const uint64_t *p[] = { &v->rx_packets, &v->rx_bytes, &v->rx_drops, &v->tx_packets, &v->tx_bytes,
                                &v->irqs, &v->polls, &v->qdisc_drops };
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
