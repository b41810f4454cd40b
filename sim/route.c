/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * route.c - the next-hop tables (route.h): built per source, on demand.
 */
#include "sim/route.h"

#include <stdlib.h>
#include <string.h>
#include "sim/hash.h"
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

/* A port set, one bit a port (HOST_MAX_NICS of them) */
struct port_set {
    uint64_t w[HOST_MAX_NICS / 64];
};

/* The group of ports in p (two or more): an existing one of the same
 * ports, else a new one; ROUTE_GROUP_BASE + its index, or 0 when the host
 * has ROUTE_GROUPS_MAX already */
static uint8_t group_of(struct host *h, const struct port_set *p)
{
    struct route_group g = { 0 };
    for (int k = 0; k < HOST_MAX_NICS; k++)
        if (p->w[k / 64] >> (k % 64) & 1)
            g.port[g.n++] = (uint8_t)k;
    for (int i = 0; i < h->nroute_groups; i++)
        if (h->route_groups[i].n == g.n && !memcmp(h->route_groups[i].port, g.port, g.n))
            return (uint8_t)(ROUTE_GROUP_BASE + i);
    if (h->nroute_groups == ROUTE_GROUPS_MAX)
        return 0;
    h->route_groups = xrealloc(h->route_groups, (size_t)(h->nroute_groups + 1) * sizeof *h->route_groups);
    h->route_groups[h->nroute_groups] = g;
    return (uint8_t)(ROUTE_GROUP_BASE + h->nroute_groups++);
}

/* Multipath: breadth-first from h, every shortest path counted: a host's
 * first hops are the union of those of the hosts one step nearer that
 * lead to it (all of one distance are done before the next). */
static void table_multipath(struct host *h, uint8_t *t)
{
    struct sim *s = h->sim;
    size_t n = (size_t)s->nhosts;
    struct port_set *via = xcalloc(n, sizeof *via);
    uint32_t *dist = xmalloc(n * sizeof *dist);
    for (size_t i = 0; i < n; i++)
        dist[i] = UINT32_MAX;
    uint32_t qh = 0, qt = 0;
    dist[h->index] = 0;
    s->route_queue[qt++] = (uint32_t)h->index;
    while (qh < qt) {
        const struct host *u = s->hosts[s->route_queue[qh++]];
        for (int k = 0; k < u->nnics; k++) {
            const struct host *v = peer(u->nics[k]);
            if (!v || (dist[v->index] != UINT32_MAX && dist[v->index] != dist[u->index] + 1))
                continue;
            if (dist[v->index] == UINT32_MAX) {
                dist[v->index] = dist[u->index] + 1;
                s->route_queue[qt++] = (uint32_t)v->index;
            }
            struct port_set *pv = &via[v->index];
            if (u == h)
                pv->w[k / 64] |= 1ULL << (k % 64);
            else
                for (int w = 0; w < HOST_MAX_NICS / 64; w++)
                    pv->w[w] |= via[u->index].w[w];
        }
    }
    for (size_t d = 0; d < n; d++) {
        const struct port_set *p = &via[d];
        int count = 0, first = -1;
        for (int k = HOST_MAX_NICS - 1; k >= 0; k--)
            if (p->w[k / 64] >> (k % 64) & 1)
                count++, first = k;
        if (count == 1)
            t[d] = (uint8_t)(first + 1);
        else if (count > 1) {
            uint8_t g = group_of(h, p);
            t[d] = g ? g : (uint8_t)(first + 1);
        }
    }
    free(via);
    free(dist);
}

/* Breadth-first from h, ports in order: the first port on which a host is
 * discovered is the next hop towards it (0 in route_hop: not yet seen). */
const uint8_t *route_table(struct host *h)
{
    struct sim *s = h->sim;
    size_t n = (size_t)s->nhosts;
    uint8_t *t = xcalloc(n, 1), *hop = s->route_hop;
    h->route = t;
    if (h->multipath) {
        table_multipath(h, t);   /* nothing leads back to h: its own entry stays 0 */
        return t;
    }
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
    return t;
}

uint32_t route_mp_hash(const struct host *h, const struct skb *skb)
{
    uint64_t x = sim_mix64(h->mp_key ^ ((uint64_t)skb->saddr << 32 | skb->daddr));
    if (h->mp_policy == 1) {
        bool ports = !skb->is_frag;
        x = sim_mix64(x ^ ((uint64_t)skb->proto << 32 | (ports ? (uint32_t)skb->sport << 16 | skb->dport : 0)));
    }
    return (uint32_t)(x >> 33);
}

uint64_t route_bytes_worst(const struct sim *s)
{
    uint64_t routers = 0;
    for (int i = 0; i < s->nhosts; i++)
        routers += s->hosts[i]->nnics > 1;
    return routers * (uint64_t)s->nhosts;
}
