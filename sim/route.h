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
#include "sim/skb.h"

/* After the links are built: the connected components, and the search's
 * scratch space (O(hosts)). */
void route_init(struct sim *s);
void route_free(struct sim *s);
/* Builds h's table (route.c); returns it. */
const uint8_t *route_table(struct host *h);

/* Multipath (the host key route.multipath = on): a destination reached
 * through several ports at its shortest distance has a group of them, a
 * route with one nexthop per port (ip route add DEST nexthop dev A
 * nexthop dev B ...). A table entry of 1..HOST_MAX_NICS is a port + 1; one
 * from ROUTE_GROUP_BASE up names the host's group entry - ROUTE_GROUP_BASE
 * (a host has at most ROUTE_GROUPS_MAX distinct groups; a destination past
 * them takes its group's first port). */
#define ROUTE_GROUP_BASE (HOST_MAX_NICS + 1)
#define ROUTE_GROUPS_MAX (UINT8_MAX - HOST_MAX_NICS)
struct route_group {
    uint8_t n;                    /* ports, 2 or more, in port order */
    uint8_t port[HOST_MAX_NICS];  /* their indices */
};
_Static_assert(ROUTE_GROUP_BASE + ROUTE_GROUPS_MAX - 1 == UINT8_MAX, "a group's entry is a byte");

/* Which of a group's n nexthops a flow hash of 31 bits takes: the first
 * whose upper bound is not below it, the bounds cutting the hash space in
 * n equal parts as 4.15's fib_rebalance does for equal weights
 * (DIV_ROUND_CLOSEST(2^31 x (i + 1), n) - 1; fib_select_multipath). */
static inline unsigned route_mp_pick(uint32_t hash31, unsigned n)
{
    unsigned i = 0;
    while (i + 1 < n && hash31 > (uint32_t)((((uint64_t)(i + 1) << 31) + n / 2) / n - 1))
        i++;
    return i;
}
/* The flow hash a multipath host forwards a packet by (route.c): of its
 * addresses (fib_multipath_hash_policy 0) or its 5-tuple (1; a fragment
 * has no ports, as the kernel's flow dissector gives none), with the
 * host's own key (the kernel's random hashrnd), 31 bits. */
uint32_t route_mp_hash(const struct host *h, const struct skb *skb);

/* The port h sends a packet to host index d on, or NULL: none, or d is h.
 * For a multipath group, its first port: the route's MTU, offloads and
 * delay (a group's ports are alike in a fabric; route_skb picks among
 * them per flow). */
static inline struct nic *route_next(struct host *h, uint32_t d)
{
    const struct sim *s = h->sim;
    if (d >= (uint32_t)s->nhosts || d == (uint32_t)h->index)
        return NULL;
    if (h->nnics == 1)
        return s->route_comp[d] == s->route_comp[h->index] ? h->nics[0] : NULL;
    const uint8_t *t = h->route ? h->route : route_table(h);
    if (t[d] >= ROUTE_GROUP_BASE)
        return h->nics[h->route_groups[t[d] - ROUTE_GROUP_BASE].port[0]];
    return t[d] ? h->nics[t[d] - 1] : NULL;
}

/* The port a packet leaves h on towards its destination: route_next's,
 * or within a multipath group the one its flow hash picks. */
static inline struct nic *route_skb(struct host *h, const struct skb *skb)
{
    struct nic *n = route_next(h, skb->daddr);
    if (n && h->route && h->route[skb->daddr] >= ROUTE_GROUP_BASE) {
        const struct route_group *g = &h->route_groups[h->route[skb->daddr] - ROUTE_GROUP_BASE];
        n = h->nics[g->port[route_mp_pick(route_mp_hash(h, skb), g->n)]];
    }
    return n;
}

/* Bytes the tables of the hosts with more than one port would take if
 * every one of them routed (the set-up estimate's worst case). */
uint64_t route_bytes_worst(const struct sim *s);

#endif
