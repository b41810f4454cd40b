/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_tlp.c - when a tail loss probe may be armed and its timeout (PTO),
 * as the host's release has them (tcp.loss_detection):
 *
 *   fack_rack (4.15, as netsim has modelled it): in Open or Disorder;
 *   PTO = 2 srtt, with one packet out at least 1.5 srtt + 200 ms, never
 *   below 10 ms.
 *   rack_tlp (6.1's tcp_schedule_loss_probe, RFC 8985): in Open or CWR,
 *   not in Disorder, where RACK's reordering timer is already armed; PTO
 *   = 2 srtt + 2 ms, or + the minimum RTO with one packet out (a delayed
 *   ACK may hold its only ACK); before any RTT sample, the initial RTO.
 *
 * Probing in CWR matters to ECN flows: an ECE keeps a DCTCP sender in CWR
 * much of the time, and a tail lost there waits for the RTO under 4.15.
 * The caller bounds the PTO by the RTO.
 */
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"

bool tcp_tlp_state_ok(const struct tcp_sock *tp)
{
    if (tp->th->rack_tlp)
        return tp->ca_state == TCP_CA_Open || tp->ca_state == TCP_CA_CWR;
    return tp->ca_state <= TCP_CA_Disorder;
}

simtime_t tcp_tlp_timeout(const struct tcp_sock *tp)
{
    if (tp->th->rack_tlp) {
        if (!tp->srtt)
            return TCP_TIMEOUT_INIT;
        return 2 * tp->srtt + (tp->packets_out == 1 ? TCP_RTO_MIN : 2 * PS_PER_MS);
    }
    simtime_t pto = 2 * tp->srtt;
    if (tp->packets_out == 1) {
        simtime_t alt = tp->srtt + tp->srtt / 2 + TCP_DELACK_MAX;   /* 4.15's, not the route's rto_min */
        if (alt > pto)
            pto = alt;
    }
    return pto > 10 * PS_PER_MS ? pto : 10 * PS_PER_MS;
}
