/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * link_qdisc.h - a link direction's qdisc tree, for links_build
 * (scenario_links.c), and the memory its trees will hold, for sim_build's
 * estimate (scenario.c).
 */
#ifndef NETSIM_LOAD_LINK_QDISC_H
#define NETSIM_LOAD_LINK_QDISC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sim/sim.h"

struct cfg_section;

/* The tree of direction dir of the link in sec, whose sending port is n
 * on host h: the qdisc key's discipline (under netem at its leaves when
 * d->netem_leaf), or the host's net.core.default_qdisc; with a classful
 * one, its class and filter keys. Errors go to the section (the host's,
 * for its default). Returns whether it took the class and filter keys
 * both directions share (a classful qdisc); shared: report those as
 * unused unless taken (the rev direction, when fwd did not). */
bool link_qdisc_build(struct sim *s, struct cfg_section *sec, struct link_dir *d, struct nic *n, struct host *h,
                      const char *dir, bool shared);

/* What the qdisc trees of the links in lsec would hold (qdisc_mem_estimate),
 * from the keys as written and the hosts' NIC keys, before any is built;
 * the largest tree's bytes and its key ("[link l] fwd.qdisc") too. A
 * qdisc the build will refuse counts nothing. */
uint64_t links_qdisc_mem(struct sim *s, struct cfg_section **lsec, int nl, char (*ends)[2][32], uint64_t *largest,
                         char *largest_key, size_t n);

#endif
