/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * module.c - the UDP family: the protocol handler and the udp_stream app.
 */
#include "models/udp/udp.h"
#include "sim/sim.h"

extern const struct app_ops udp_stream_app;

static const struct app_ops *const apps[] = { &udp_stream_app, NULL };

static void attach(struct sim *s, struct host *h, int slot)
{
    (void)s;
    (void)slot;
    h->proto[IPPROTO_UDP_] = udp_rcv;
}

const struct model_module udp_module = {
    .name = "udp",
    .apps = apps,
    .attach_host = attach,
    .pcap_proto = IPPROTO_UDP_,
    .pcap_write = udp_pcap_write,
};
