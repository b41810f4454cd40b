/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * module.c - ICMP echo (answered by the IP layer's icmp_rcv) and the ping
 * probe.
 */
#include "sim/sim.h"

extern const struct app_ops ping_app;

static const struct app_ops *const apps[] = { &ping_app, NULL };

static void attach(struct sim *s, struct host *h, int slot)
{
    (void)s;
    (void)slot;
    h->proto[IPPROTO_ICMP_] = icmp_rcv;
}

const struct model_module icmp_module = {
    .name = "icmp",
    .apps = apps,
    .attach_host = attach,
    .pcap_proto = IPPROTO_ICMP_,
    .pcap_write = icmp_pcap_write,
};
