/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * internal.h - what the sctp family's module.c calls in the engine's
 * files (assoc.c, costs.c); not for variants, which see only sctp.h.
 */
#ifndef NETSIM_MODELS_SCTP_INTERNAL_H
#define NETSIM_MODELS_SCTP_INTERNAL_H

#include "models/sctp/sctp.h"

struct cost_row;

/* assoc.c: the module's slot in host->mod, and a host's state freed */
void sctp_set_slot(int s);
void sctp_host_free(struct host *h, int slot);
/* costs.c: the family's cost rows for a CPU profile */
const struct cost_row *sctp_costs(const char *profile);
/* sctp_pcap.c: the family's capture writer (sim/pcap_wire.h) */
struct pcap_l4;
void sctp_pcap_write(const struct skb *skb, const struct pcap_l4 *w);

#endif
