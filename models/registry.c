/*
 * registry.c - the one place that knows every model module. Each module
 * (a protocol family) lists its own applications and variants in its own
 * directory; adding a family is one line here.
 */
#include <string.h>
#include "sim/costs.h"
#include "sim/sim.h"

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

const struct model_module *model_at(int i)
{
    return i >= 0 && i < NMODULES ? modules[i] : NULL;
}

const struct app_ops *app_at(int i)
{
    for (int m = 0; m < NMODULES; m++) {
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
    for (int m = 0; m < NMODULES; m++)
        if (modules[m]->attach_host)
            modules[m]->attach_host(s, h, m);
}

void models_detach_host(struct sim *s, struct host *h)
{
    for (int m = 0; m < NMODULES; m++)
        if (modules[m]->detach_host)
            modules[m]->detach_host(s, h, m);
}

void models_apply_costs(struct host *h, const char *profile)
{
    for (int m = 0; m < NMODULES; m++) {
        const struct cost_row *r = modules[m]->costs ? modules[m]->costs(profile) : NULL;
        for (; r && r->symbol; r++)
            h->cost[cpu_sym(r->symbol)] = r->ns;
    }
}

void models_register_symbols(void)
{
    for (int i = 0; cpu_profile_at(i); i++)
        for (int m = 0; m < NMODULES; m++) {
            const struct cost_row *r = modules[m]->costs ? modules[m]->costs(cpu_profile_at(i)->name) : NULL;
            for (; r && r->symbol; r++)
                cpu_sym(r->symbol);
        }
}
