/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * route.h - next hops: from every host to every other, the shortest path
 * over the links, ties to the first-declared link, as a breadth-first
 * search from the source finds it (static routes a user would write).
 *
 * A table of a next hop per destination for every host is n^2 entries: a
 * 3000-host tree held 1.35 GB before its first event. So a host with one
 * port has no table (everything it can reach is behind that port: its
 * connected component); a host with more builds its own, one byte per
 * destination (the port's index), the first time it routes a packet.
 * Only the routers a run's traffic crosses ever hold one.
 */
#ifndef NETSIM_ROUTE_H
#define NETSIM_ROUTE_H

#include <stddef.h>
#include <stdint.h>
#include "sim/host.h"
#include "sim/sim.h"

/* After the links are built: the connected components, and the search's
 * scratch space (O(hosts)). */
void route_init(struct sim *s);
void route_free(struct sim *s);
/* Builds h's table (route.c); returns it. */
const uint8_t *route_table(struct host *h);

/* The port h sends a packet to host index d on, or NULL: none, or d is h. */
static inline struct nic *route_next(struct host *h, uint32_t d)
{
    const struct sim *s = h->sim;
    if (d >= (uint32_t)s->nhosts || d == (uint32_t)h->index)
        return NULL;
    if (h->nnics == 1)
        return s->route_comp[d] == s->route_comp[h->index] ? h->nics[0] : NULL;
    const uint8_t *t = h->route ? h->route : route_table(h);
    return t[d] ? h->nics[t[d] - 1] : NULL;
}

/* Bytes the tables of the hosts with more than one port would take if
 * every one of them routed (the set-up estimate's worst case). */
uint64_t route_bytes_worst(const struct sim *s);

#endif
