/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_msg.h - messages over a persistent TCP connection, for the
 * applications that move messages (rpc, incast, a flow of `bytes`).
 *
 * A message is written whole (one send() of its size, as a blocking
 * write on a socket whose send buffer takes it) and is complete when the
 * peer's reader has copied its last byte. The receiver knows where a
 * message ends as an application would from its length header; the model
 * passes the sender's boundaries along instead of encoding them.
 *
 * Each message takes whole MSS slots of the byte stream (tcp.h); its
 * last segment carries only the bytes left (tcp_short.c), and the next
 * message starts in a new segment.
 */
#ifndef NETSIM_MODELS_TCP_MSG_H
#define NETSIM_MODELS_TCP_MSG_H

#include <stdbool.h>
#include <stdint.h>
#include "models/tcp/tcp.h"
#include "sim/sim.h"

/* One direction's messages in flight: where each ends in the stream. */
struct tcp_msgq {
    struct tcp_msg_rec { uint64_t end, tag, size; } *v;
    uint32_t head, n, cap;       /* a ring */
};

struct tcp_mconn;
/* A message of `size` bytes, written with `tag`, was read whole, at the
 * server (a request) or at the client (a response). */
typedef void (*tcp_msg_fn)(struct tcp_mconn *c, bool at_server, uint64_t tag, uint64_t size, struct core *core);

struct tcp_mconn {
    struct sim *s;
    struct flow *f;
    struct host *client, *server;
    struct tcp_sock *cli, *lis, *srv;
    struct core *cli_core, *srv_core;
    struct cpu_task cli_reader, srv_reader, starter, cli_writer;
    bool cli_slept, srv_slept;
    uint64_t recv_size;
    struct tcp_msgq up, down;    /* client to server, server to client */
    struct tcp_msgq *pend;       /* the client's timed writes not yet made */
    tcp_msg_fn on_msg;
    void (*on_connect)(struct tcp_mconn *c);
    void *app;
    int index;                   /* the app's number for it */
    int sym_schedule;
    bool nodelay;                /* TCP_NODELAY on both ends (key nodelay) */
};

/* Sockets and tasks of one connection from client to server:port. The
 * listener exists at once; start connects. NULL (and an error at the
 * section) when TCP is not on both hosts. */
struct tcp_mconn *tcp_mconn_new(struct sim *s, struct flow *f, struct cfg_section *sec, struct host *client,
                                struct host *server, uint16_t port, int cli_cpu, int srv_cpu, uint64_t recv_size);
void tcp_mconn_start(struct tcp_mconn *c, simtime_t at);
/* The client (to_server) or the server writes a message now, from core. */
void tcp_mconn_write(struct tcp_mconn *c, bool to_server, uint64_t size, uint64_t tag, struct core *core);
/* The client writes a message at time `at` (an arrival process): queued
 * and pushed by the client's writer task on its core. */
void tcp_mconn_write_at(struct tcp_mconn *c, uint64_t size, uint64_t tag, simtime_t at);
/* Retransmission timeouts of both ends so far. */
uint64_t tcp_mconn_rtos(const struct tcp_mconn *c);
void tcp_mconn_free(struct tcp_mconn *c);

/* The route from a to b: the sum of each hop's propagation and receive
 * latency, and the slowest hop's rate (bit/s). */
void tcp_path(struct host *a, struct host *b, simtime_t *delay, uint64_t *rate);
/* Time `bytes` of payload take on the wire at rate in segments of mss,
 * each with its headers (MSS + headers = the MTU a full one makes). */
simtime_t tcp_wire_time(uint64_t bytes, uint32_t mss, uint32_t hdrs, uint64_t rate);

#endif
