/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models_cmd.c - `netsim models`: the applications, CPU profiles and
 * model families with their variants, each with its one-line doc, read
 * from the modules and the variant table the engine was handed
 * (models/registry.c's models_install; sim/modules.c, sim/variant.h),
 * which know nothing of this listing.
 */
#include <stdio.h>
#include "cli/commands.h"
#include "sim/costs.h"
#include "sim/sim.h"
#include "sim/variant.h"

int cmd_models(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage: netsim models\n");
        return 2;
    }
    printf("applications ([flow N] app = ...):\n");
    for (int i = 0; app_at(i); i++)
        printf("  %-14s %s\n", app_at(i)->name, app_at(i)->doc);
    printf("\nCPU profiles ([host X] cpu = ...):\n");
    for (int i = 0; cpu_profile_at(i); i++)
        printf("  %-14s %s\n", cpu_profile_at(i)->name, cpu_profile_at(i)->doc);
    printf("\nmodel families and their variants ([host X] KEY = VARIANT):\n");
    for (int i = 0; variant_family_at(i); i++) {
        const struct variant_family *fam = variant_family_at(i);
        printf("  %s: %s\n", fam->key, fam->doc);
        for (int k = 0; variant_at(fam->key, k); k++) {
            const struct variant_head *v = variant_at(fam->key, k);
            printf("    %-14s %s%s\n", v->name, v->doc, k ? "" : " (default)");
        }
    }
    return 0;
}
