/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_api.h - socket calls on netsim's TCP for a caller outside the
 * family's applications (the packetdrill interpreter, drill/): listen
 * with an accept queue, accept, connect, write, read and what
 * getsockopt(TCP_INFO) would show. Each runs on core c at core_now(c),
 * from a process task, as an application's system call does.
 */
#ifndef NETSIM_MODELS_TCP_API_H
#define NETSIM_MODELS_TCP_API_H

#include <stdint.h>
#include "models/tcp/tcp.h"

/* A socket listening on port (family NET_IPV4 or NET_IPV6); the
 * connections it completes queue until tcp_api_accept takes them (at
 * most backlog + 1 of them, as sk_acceptq_is_full allows). NULL when TCP
 * is not attached to the host. */
struct tcp_sock *tcp_api_listen(struct host *h, uint16_t port, uint8_t family, int backlog);
/* The oldest completed connection of a listener, or NULL: none yet. */
struct tcp_sock *tcp_api_accept(struct tcp_sock *listener);
/* Appends len bytes to the stream and sends what the windows allow.
 * Returns len, or -1 when len is not a whole number of segments (the
 * model sends full MSS segments only: tcp.h). */
int64_t tcp_api_write(struct tcp_sock *tp, uint64_t len, struct core *c);
/* Copies up to len in-order bytes (tcp_recvmsg): the count, 0 for none. */
uint64_t tcp_api_read(struct tcp_sock *tp, uint64_t len, struct core *c);
/* Frees a listener's accept queue (not its sockets: the host owns them). */
void tcp_api_close_listener(struct tcp_sock *listener);
/* Is release a value of [host] kernel? Else writes the values to list. */
bool tcp_api_kernel_known(const char *release, char *list, size_t n);

#endif
