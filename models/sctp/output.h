/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output.h - what the two halves of the SCTP sender share beyond sctp.h:
 * output.c (the outqueue) and transport.c (cwnd, RTO, T3-rtx and
 * retransmission). Private to those two files.
 *
 * Chunks live in a ring indexed by TSN. TSNs are assigned when a message
 * is queued rather than when it is first sent: the outq is FIFO and
 * nothing else takes TSNs, so the order is the kernel's. The transmitted
 * list and the retransmit queue are the ring's chunks in [ctsn_ack_point +
 * 1, next_send) in state SENT and RTX; the outq is [next_send, next_tsn).
 * SACK processing walks that range, as sctp_check_transmitted walks its
 * lists: at most 93 chunks with the default buffer (sctp_wspace).
 */
#ifndef NETSIM_SCTP_OUTPUT_H
#define NETSIM_SCTP_OUTPUT_H

#include "models/sctp/sctp.h"

static inline struct sctp_chunk *chunk_at(struct sctp_assoc *a, uint32_t tsn)
{
    return &a->ring[tsn & (SCTP_TX_RING - 1)];
}

#endif
