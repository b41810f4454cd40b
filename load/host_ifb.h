/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host_ifb.h - a host's ifb devices and its ports' ingress redirects
 * (sim/ifb.h), from its keys:
 *
 *   [host receiver]
 *   ifb = ifb0                  ; ip link add ifb0 type ifb
 *   ifb0.qdisc = netem delay 50ms loss 1% limit 100000
 *   eth0.ingress = u32 match u32 0 0 action mirred egress redirect dev ifb0
 */
#ifndef NETSIM_LOAD_HOST_IFB_H
#define NETSIM_LOAD_HOST_IFB_H

#include "sim/sim.h"

/* After the links (the ports exist); errors go to the host's section. */
void host_ifb_build(struct sim *s, struct host *h);

#endif
