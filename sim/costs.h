/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * costs.h - named CPU profiles: what each piece of kernel work costs.
 *
 * A profile is a table of (kernel symbol, cost) rows, each with the source
 * of its figure. A cost is ns per call, or ns per byte for copies. A host
 * picks a profile (`cpu = xeon-2012`) and may override single rows
 * (`cost.udp_rcv = 400ns`, `cost.copy_to_user = 0.3ns` per byte).
 */
#ifndef NETSIM_COSTS_H
#define NETSIM_COSTS_H

#include <stdbool.h>

struct cost_row {
    const char *symbol;
    double ns;                   /* per call, or per byte when per_byte */
    bool per_byte;
    const char *source;
};

struct cpu_profile {
    const char *name;
    const char *doc;
    const struct cost_row *rows; /* terminated by a NULL symbol */
};

const struct cpu_profile *cpu_profile_find(const char *name);
const struct cpu_profile *cpu_profile_at(int i);   /* NULL past the end */
/* Every symbol any profile knows, so that ids exist before hosts are built. */
void cpu_profiles_register_symbols(void);

#endif
