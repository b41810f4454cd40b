/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host_sb.h - a host's shared buffer from its section (sb.* keys).
 */
#ifndef NETSIM_LOAD_HOST_SB_H
#define NETSIM_LOAD_HOST_SB_H

struct sim;
struct host;

/* Reads sb.size, sb.thtype and sb.th; with a size, gives the host the
 * pool its ports' roots will draw from (nic_attach_qdisc) and its
 * occupancy counter. */
void host_sb_read(struct sim *s, struct host *h);

#endif
