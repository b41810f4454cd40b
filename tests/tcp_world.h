/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_world.h - for tests that run a world with TCP flows: the
 * established socket of a host, client or server side. Include after
 * tests/world.h.
 */
#ifndef NETSIM_TESTS_TCP_WORLD_H
#define NETSIM_TESTS_TCP_WORLD_H

#include "models/tcp/internal.h"

/* The host's established socket: the accepted one (server) or the one
 * that connected; NULL if none. */
static inline struct tcp_sock *tcp_established(struct host *h, bool server)
{
    for (struct tcp_sock *tp = tcp_host_of(h)->conns; tp; tp = tp->next_conn)
        if (tp->state == TCP_ESTABLISHED && (server ? tp->peer_listener != NULL : tp->peer_listener == NULL))
            return tp;
    return NULL;
}

#endif
