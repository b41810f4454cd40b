/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * module.c - the sctp family: protocol handler, applications (sctp_iperf3,
 * sctp_stream), cost rows, and the variant families sctp.rwnd and sctp.hb
 * (rwnd_*.c, hb_*.c register themselves, sim/variant.h).
 */
#include <stdio.h>
#include "models/sctp/internal.h"
#include "models/sctp/sctp.h"
#include "sim/costs.h"
#include "sim/sim.h"

extern const struct app_ops sctp_iperf3_app, sctp_stream_app;

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

const struct sctp_rwnd_ops *sctp_rwnd_find(const char *name)
{
    return variant_find("sctp.rwnd", name);
}

const struct sctp_hb_ops *sctp_hb_find(const char *name)
{
    return variant_find("sctp.hb", name);
}

static const char *rwnd_missing(const void *ops)
{
    const struct sctp_rwnd_ops *o = ops;
    return !o->on_receive ? "on_receive" : !o->on_release ? "on_release" : !o->reject ? "reject" : NULL;
}

static const char *hb_missing(const void *ops)
{
    const struct sctp_hb_ops *o = ops;
    return !o->timeout ? "timeout" : !o->on_data_sent ? "on_data_sent" : NULL;
}

static const struct variant_family rwnd_family = {
    .key = "sctp.rwnd", .def = "old", .missing = rwnd_missing,
    .doc = "[host] the receive window an association advertises (the receiver's matters)",
};
static const struct variant_family hb_family = {
    .key = "sctp.hb", .def = "jitter", .missing = hb_missing,
    .doc = "[host] how the heartbeat timer is re-armed on each DATA chunk (the sender's matters)",
};
static const struct variant_family *const families[] = { &rwnd_family, &hb_family, NULL };

const struct model_module sctp_module = {
    .name = "sctp",
    .apps = apps,
    .attach_host = attach,
    .detach_host = detach,
    .costs = sctp_costs,
    .families = families,
    .pcap_proto = IPPROTO_SCTP_,
    .pcap_write = sctp_pcap_write,
};
