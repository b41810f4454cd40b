/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * route.c - the next-hop tables (route.h): built per source, on demand.
 */
#include "sim/route.h"

#include <stdlib.h>
#include <string.h>
#include "sim/link.h"
#include "sim/nic.h"
#include "sim/xalloc.h"

/* The host a port's link leads to, or NULL. */
static struct host *peer(const struct nic *n)
{
    return n->tx_link && n->tx_link->dst ? n->tx_link->dst->host : NULL;
}

void route_init(struct sim *s)
{
    size_t n = (size_t)s->nhosts;
    s->route_comp = xmalloc((n ? n : 1) * sizeof *s->route_comp);
    s->route_queue = xmalloc((n ? n : 1) * sizeof *s->route_queue);
    s->route_hop = xmalloc(n ? n : 1);
    for (size_t i = 0; i < n; i++)
        s->route_comp[i] = UINT32_MAX;
    /* links carry both directions, so reachability is symmetric: one
     * search per component labels it */
    for (size_t root = 0; root < n; root++) {
        if (s->route_comp[root] != UINT32_MAX)
            continue;
        uint32_t qh = 0, qt = 0;
        s->route_comp[root] = (uint32_t)root;
        s->route_queue[qt++] = (uint32_t)root;
        while (qh < qt) {
            const struct host *u = s->hosts[s->route_queue[qh++]];
            for (int k = 0; k < u->nnics; k++) {
                const struct host *v = peer(u->nics[k]);
                if (v && s->route_comp[v->index] == UINT32_MAX) {
                    s->route_comp[v->index] = (uint32_t)root;
                    s->route_queue[qt++] = (uint32_t)v->index;
                }
            }
        }
    }
}

void route_free(struct sim *s)
{
    free(s->route_comp);
    free(s->route_queue);
    free(s->route_hop);
    s->route_comp = NULL;
    s->route_queue = NULL;
    s->route_hop = NULL;
}

/* Breadth-first from h, ports in order: the first port on which a host is
 * discovered is the next hop towards it (0 in route_hop: not yet seen). */
const uint8_t *route_table(struct host *h)
{
    struct sim *s = h->sim;
    size_t n = (size_t)s->nhosts;
    uint8_t *t = xcalloc(n, 1), *hop = s->route_hop;
    memset(hop, 0, n);
    uint32_t qh = 0, qt = 0;
    hop[h->index] = UINT8_MAX;
    s->route_queue[qt++] = (uint32_t)h->index;
    while (qh < qt) {
        const struct host *u = s->hosts[s->route_queue[qh++]];
        for (int k = 0; k < u->nnics; k++) {
            const struct host *v = peer(u->nics[k]);
            if (!v || hop[v->index])
                continue;
            hop[v->index] = u == h ? (uint8_t)(k + 1) : hop[u->index];
            t[v->index] = hop[v->index];
            s->route_queue[qt++] = (uint32_t)v->index;
        }
    }
    h->route = t;
    return t;
}

uint64_t route_bytes_worst(const struct sim *s)
{
    uint64_t routers = 0;
    for (int i = 0; i < s->nhosts; i++)
        routers += s->hosts[i]->nnics > 1;
    return routers * (uint64_t)s->nhosts;
}
