/*
 * registry.c - the one place that knows every model: applications by name,
 * protocol handlers a host gets, and the list `netsim models` prints.
 * A new variant is one file plus one line here.
 */
#include <stdio.h>
#include <string.h>
#include "models/udp/udp.h"
#include "sim/costs.h"
#include "sim/sim.h"

extern const struct app_ops udp_stream_app;
extern const struct app_ops ping_app;

static const struct app_ops *const apps[] = {
    &udp_stream_app,
    &ping_app,
};

const struct app_ops *app_at(int i)
{
    if (i < 0 || (size_t)i >= sizeof apps / sizeof apps[0])
        return NULL;
    return apps[i];
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
    (void)s;
    h->proto[IPPROTO_UDP_] = udp_rcv;
    h->proto[IPPROTO_ICMP_] = icmp_rcv;
}

void models_list(void)
{
    printf("applications ([flow N] app = ...):\n");
    for (int i = 0; app_at(i); i++)
        printf("  %-12s %s\n", app_at(i)->name, app_at(i)->doc);
    printf("\nCPU profiles ([host X] cpu = ...):\n");
    for (int i = 0; cpu_profile_at(i); i++)
        printf("  %-12s %s\n", cpu_profile_at(i)->name, cpu_profile_at(i)->doc);
    printf("\nprotocol families (variants arrive with their models):\n");
    printf("  %-16s %s\n", "tcp.cc", "reno, cubic, bbr (models/tcp.md; not built yet)");
    printf("  %-16s %s\n", "tcp.drs", "trimodal, continuous (not built yet)");
    printf("  %-16s %s\n", "sctp.rwnd", "old, new (not built yet)");
    printf("  %-16s %s\n", "sctp.hb", "jitter, lazy (not built yet)");
    printf("  %-16s %s\n", "ipfrag.evictor", "lru, lru-warm, drop-new (not built yet)");
}
