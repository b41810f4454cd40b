/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * registry.c - the one place that knows every model module. Each module
 * (a protocol family) lists its own applications and variants in its own
 * directory; adding a family is one line here. The engine is handed the
 * list and the build's table of variants (models_install); it walks them
 * itself (sim/modules.c, sim/variant.c) and calls no model by name.
 */
#include "sim/sim.h"
#include "sim/variant.h"

extern const struct model_module udp_module;
extern const struct model_module icmp_module;
extern const struct model_module tcp_module;
extern const struct model_module ipfrag_module;
extern const struct model_module sctp_module;
extern const struct model_module qdisc_module;

static const struct model_module *const modules[] = {
    &udp_module,
    &icmp_module,
    &tcp_module,
    &ipfrag_module,
    &sctp_module,
    &qdisc_module,
};

#define NMODULES ((int)(sizeof modules / sizeof modules[0]))
_Static_assert(sizeof modules / sizeof modules[0] <= HOST_MAX_MODULES, "raise HOST_MAX_MODULES");

/* BUILD/gen/variants.c (tools/gen-variants), NULL-terminated */
extern const struct variant *const variant_table[];

void models_install(void)
{
    sim_modules_set(modules, NMODULES);
    variants_set(variant_table);
}
