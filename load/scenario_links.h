/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scenario_links.h - building a scenario's links (scenario_links.c), for
 * sim_build (scenario.c), which reads every [link] section's ends first,
 * creates the hosts they name, then builds the links.
 */
#ifndef NETSIM_LOAD_SCENARIO_LINKS_H
#define NETSIM_LOAD_SCENARIO_LINKS_H

#include <stdbool.h>

#include "sim/sim.h"

struct cfg_section;

/* A host or port name: letters, digits, '_' and '-', so that every name
 * in the results is plain text and a '.' in a recorded key or a counter
 * name only ever separates ("" is one too). */
bool name_word(const char *s);

/* "ends = h1:eth0 h2:eth1" into host and port names (the port defaults to
 * eth0). 0, or -1 with the error recorded. */
int link_parse_ends(struct cfg_section *sec, char host[2][32], char port[2][16]);
/* The nl links of lsec between the hosts and ports their ends name (a
 * port per end, a netem qdisc per direction that has netem keys, the
 * counters); errors go to the sections. */
void links_build(struct sim *s, struct cfg_section **lsec, int nl, char (*ends)[2][32], char (*ports)[2][16]);
#endif
