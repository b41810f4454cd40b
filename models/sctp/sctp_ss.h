/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sctp_ss.h - the `ss_interval` key the SCTP applications share: every
 * interval, each end of the association as `ss -Smi` prints it (to the
 * run's ss file, sinks/ss_file.h) and its fields as series
 * flow.N.sctp.{client,server}.ss.* (sctp_ss.c).
 */
#ifndef NETSIM_MODELS_SCTP_SS_H
#define NETSIM_MODELS_SCTP_SS_H

#include "models/sctp/sctp.h"
#include "sim/event.h"

struct cfg_section;
struct flow;

struct sctp_ss {
    struct sim *s;
    struct sctp_assoc *cli, *srv;
    simtime_t iv;                /* 0: off, no event is ever scheduled */
    struct event ev;
    char pre_cli[40], pre_srv[40];
};

/* Read the flow's ss_interval (errors to sec). */
void sctp_ss_setup(struct sctp_ss *x, struct sim *s, struct flow *f, struct cfg_section *sec, struct sctp_assoc *cli,
                   struct sctp_assoc *srv);
/* The first sample one interval after start, the last at or before the
 * run's end. */
void sctp_ss_start(struct sctp_ss *x, simtime_t start);
/* One sample of one end (tests call it directly). */
void sctp_ss_sample(struct sctp_assoc *a, struct sim *s, const char *prefix);

#endif
