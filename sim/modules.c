/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * modules.c - the model modules the engine was handed: models/registry.c
 * lists them and hands the list over (models_install), so that the engine
 * calls into no model it has not been given. Until then there are none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/costs.h"
#include "sim/sim.h"

static const struct model_module *const *modules;
static int nmodules;

void sim_modules_set(const struct model_module *const *list, int n)
{
    if (n < 0 || n > HOST_MAX_MODULES) {
        fprintf(stderr, "netsim: %d model modules, more than HOST_MAX_MODULES (%d)\n", n, HOST_MAX_MODULES);
        exit(1);
    }
    modules = list;
    nmodules = n;
}

const struct model_module *model_at(int i)
{
    return i >= 0 && i < nmodules ? modules[i] : NULL;
}

const struct app_ops *app_at(int i)
{
    for (int m = 0; m < nmodules; m++) {
        for (int k = 0; modules[m]->apps && modules[m]->apps[k]; k++)
            if (i-- == 0)
                return modules[m]->apps[k];
    }
    return NULL;
}

const struct app_ops *app_find(const char *name)
{
    for (int i = 0; app_at(i); i++)
        if (!strcmp(app_at(i)->name, name))
            return app_at(i);
    return NULL;
}

void models_attach_host(struct sim *s, struct host *h)
{
    for (int m = 0; m < nmodules; m++)
        if (modules[m]->attach_host)
            modules[m]->attach_host(s, h, m);
}

void models_detach_host(struct sim *s, struct host *h)
{
    for (int m = 0; m < nmodules; m++)
        if (modules[m]->detach_host)
            modules[m]->detach_host(s, h, m);
}

void models_apply_costs(struct host *h, const char *profile)
{
    for (int m = 0; m < nmodules; m++) {
        const struct cost_row *r = modules[m]->costs ? modules[m]->costs(profile) : NULL;
        for (; r && r->symbol; r++)
            h->cost[cpu_sym(r->symbol)] = r->ns;
    }
}

void models_register_symbols(void)
{
    for (int i = 0; cpu_profile_at(i); i++)
        for (int m = 0; m < nmodules; m++) {
            const struct cost_row *r = modules[m]->costs ? modules[m]->costs(cpu_profile_at(i)->name) : NULL;
            for (; r && r->symbol; r++)
                cpu_sym(r->symbol);
        }
}
