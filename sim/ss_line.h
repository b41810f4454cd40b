/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ss_line.h - one socket's `ss -i` info line as a model builds it: text
 * appended field by field, each printed field also a series under the
 * flow's prefix ("flow.1.snd." + "ss.cwnd"), so that the file beside the
 * database and the series table always hold the same figures. Shared by
 * the TCP and SCTP samplers (models/tcp/tcp_ss.c, models/sctp/sctp_ss.c).
 */
#ifndef NETSIM_SS_LINE_H
#define NETSIM_SS_LINE_H

#include <stddef.h>
#include <stdint.h>

struct sim;

struct ss_line {
    struct sim *s;
    const char *prefix;          /* of the series: "flow.1.snd.", "flow.1.sctp.client." */
    void *ctx;                   /* the sampler's socket */
    char text[1536];
    size_t len;                  /* a field that does not fit is dropped */
};

void ss_put(struct ss_line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The series PREFIX "ss." NAME at the sample's time. */
void ss_series(struct ss_line *l, const char *name, double v);
/* " NAME:VALUE" and its series, when VALUE is not 0 (ss's tcp_stats_print
 * rule). */
void ss_u(struct ss_line *l, const char *name, uint64_t v);
/* The address of host id on its port k, as the captures write it
 * (sim/pcap.c): 10.K.H.H, or fd00:0:0:K::H for IPv6 (family NET_IPV6). */
const char *ss_addr(char *buf, size_t n, uint32_t id, unsigned k, uint8_t family);
/* ADDR:PORT of port 0's address, IPv6 in brackets as ss writes it. */
void ss_endpoint(char *buf, size_t n, uint32_t id, uint16_t port, uint8_t family);

#endif
