/*
 * module.c - the sctp family: protocol handler, applications (sctp_iperf3,
 * sctp_stream), cost rows, and the variants of sctp.rwnd and sctp.hb
 * (shared/models/sctp.md).
 */
#include <stdio.h>
#include "models/sctp/sctp.h"
#include "sim/costs.h"
#include "sim/sim.h"

extern const struct app_ops sctp_iperf3_app, sctp_stream_app;
const struct cost_row *sctp_costs(const char *profile);
void sctp_set_slot(int s);
void sctp_host_free(struct host *h, int slot);

static const struct app_ops *const apps[] = { &sctp_iperf3_app, &sctp_stream_app, NULL };

static void attach(struct sim *s, struct host *h, int slot)
{
    (void)s;
    sctp_set_slot(slot);
    sctp_syms_init();
    h->mod[slot] = NULL;         /* settings are read when an association needs them */
    h->proto[IPPROTO_SCTP_] = sctp_rcv;
}

static void detach(struct sim *s, struct host *h, int slot)
{
    (void)s;
    sctp_host_free(h, slot);
}

static void list(void)
{
    printf("  sctp.rwnd ([host] key; the receiver's matters):\n");
    for (int i = 0; sctp_rwnd_variants[i]; i++)
        printf("    %-12s %s\n", sctp_rwnd_variants[i]->name, sctp_rwnd_variants[i]->doc);
    printf("  sctp.hb ([host] key; the sender's matters):\n");
    for (int i = 0; sctp_hb_variants[i]; i++)
        printf("    %-12s %s\n", sctp_hb_variants[i]->name, sctp_hb_variants[i]->doc);
}

const struct model_module sctp_module = {
    .name = "sctp",
    .apps = apps,
    .attach_host = attach,
    .detach_host = detach,
    .costs = sctp_costs,
    .list = list,
};
