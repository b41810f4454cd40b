/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scenario_fit.h - the memory checks the builder makes before it builds
 * (scenario_fit.c): each returns false with the error recorded when what
 * it counts would not fit in the memory available.
 */
#ifndef NETSIM_LOAD_SCENARIO_FIT_H
#define NETSIM_LOAD_SCENARIO_FIT_H

#include <stdbool.h>
#include <stdint.h>

struct sim;
struct cfg_section;

/* the [flow] sections (nflows: their count) */
bool scenario_flows_fit(struct sim *s, uint64_t *nflows);
/* the hosts named by the nl links' ends and the links (need, routers and
 * their next-hop tables: for scenario_qdiscs_fit) */
bool scenario_hosts_fit(struct sim *s, int nl, char (*ends)[2][32], uint64_t *need_out, uint64_t *routers_out,
                        uint64_t *tables_out);
/* the same with the qdisc trees, once the hosts are configured */
bool scenario_qdiscs_fit(struct sim *s, struct cfg_section **lsec, int nl, char (*ends)[2][32], uint64_t need,
                         uint64_t routers, uint64_t tables);

#endif
