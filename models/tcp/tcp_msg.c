/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_msg.c - messages over a persistent TCP connection (tcp_msg.h):
 * the connection's sockets and reader tasks, the message boundaries of
 * each direction, and the path figures an ideal completion time needs.
 */
#include "models/tcp/tcp_msg.h"
#include <stdlib.h>
#include <string.h>
#include "models/tcp/internal.h"
#include "sim/config.h"
#include "sim/link.h"
#include "sim/nic.h"
#include "sim/route.h"
#include "sim/xalloc.h"

static void q_push(struct tcp_msgq *q, uint64_t end, uint64_t tag, uint64_t size)
{
    if (q->n == q->cap) {         /* grows with the messages in flight, not per message */
        uint32_t cap = q->cap ? q->cap * 2 : 8;
        struct tcp_msg_rec *v = xcalloc(cap, sizeof *v);
        for (uint32_t i = 0; i < q->n; i++)
            v[i] = q->v[(q->head + i) % q->cap];
        free(q->v);
        q->v = v;
        q->head = 0;
        q->cap = cap;
    }
    q->v[(q->head + q->n++) % q->cap] = (struct tcp_msg_rec){ end, tag, size };
}

static const struct tcp_msg_rec *q_front(const struct tcp_msgq *q) { return q->n ? &q->v[q->head] : NULL; }

static void q_pop(struct tcp_msgq *q)
{
    q->head = (q->head + 1) % q->cap;
    q->n--;
}

/* Reads what is in order and hands up each message whose last byte it
 * copied; recv() blocks again when nothing is left. */
static bool read_slice(struct tcp_mconn *c, struct tcp_sock *tp, struct tcp_msgq *q, bool at_server,
                       struct cpu_task *t, struct core *core, bool *slept)
{
    if (!tp) {
        *slept = true;
        return false;
    }
    if (tp->rcv_nxt == tp->copied_seq)
        return sock_reader_sleep(&tp->sk, t, core, slept);
    sock_reader_resume(&tp->sk, core, c->sym_schedule, slept);
    tcp_recvmsg(tp, c->recv_size, core);
    const struct tcp_msg_rec *m;
    while ((m = q_front(q)) && tp->copied_seq >= m->end) {
        uint64_t tag = m->tag, size = m->size;
        q_pop(q);
        c->on_msg(c, at_server, tag, size, core);
    }
    if (tp->rcv_nxt != tp->copied_seq)
        return true;
    return sock_reader_sleep(&tp->sk, t, core, slept);
}

static bool cli_read(struct cpu_task *t, struct core *core)
{
    struct tcp_mconn *c = t->ctx;
    return read_slice(c, c->cli, &c->down, false, t, core, &c->cli_slept);
}

static bool srv_read(struct cpu_task *t, struct core *core)
{
    struct tcp_mconn *c = t->ctx;
    return read_slice(c, c->srv, &c->up, true, t, core, &c->srv_slept);
}

static void on_accept(struct tcp_sock *l, struct tcp_sock *child)
{
    struct tcp_mconn *c = l->app;
    c->srv = child;
    child->nodelay = c->nodelay;   /* an accepted socket inherits the listener's options */
    child->flow = c->f;
    child->app = c;
    core_wake(c->srv_core, &c->srv_reader, ctx_now());
}

static void on_connect(struct tcp_sock *tp)
{
    struct tcp_mconn *c = tp->app;
    core_wake(c->cli_core, &c->cli_reader, ctx_now());
    if (c->on_connect)
        c->on_connect(c);
}

static bool starter(struct cpu_task *t, struct core *core)
{
    struct tcp_mconn *c = t->ctx;
    tcp_connect(c->cli, c->server->id, c->lis->sk.port, core);
    return false;
}

struct tcp_mconn *tcp_mconn_new(struct sim *s, struct flow *f, struct cfg_section *sec, struct host *client,
                                struct host *server, uint16_t port, int cli_cpu, int srv_cpu, uint64_t recv_size)
{
    struct tcp_sock *lis = tcp_sock_new(server, port);
    struct tcp_sock *cli = tcp_sock_new(client, host_alloc_port(client));
    if (!lis || !cli) {
        cfg_error(sec, "app", "TCP is not attached to %s and %s", client->name, server->name);
        return NULL;
    }
    /* RPC libraries turn Nagle off (gRPC, Thrift and memcached clients set
     * TCP_NODELAY): a short last segment goes at once */
    bool nodelay = cfg_bool(sec, "nodelay", "1",
                            "{1|0 or 1} TCP_NODELAY on both ends; 0: Nagle's rule (with Minshall's) holds a short "
                            "last segment while an earlier short one is unacknowledged") != 0;
    struct tcp_mconn *c = xcalloc(1, sizeof *c);
    c->nodelay = nodelay;
    cli->nodelay = nodelay;
    c->s = s;
    c->f = f;
    c->client = client;
    c->server = server;
    c->lis = lis;
    c->cli = cli;
    c->recv_size = recv_size;
    lis->app = c;
    lis->flow = f;
    tcp_listen(lis, on_accept);
    cli->app = c;
    cli->flow = f;
    cli->on_connect = on_connect;
    c->cli_core = &client->cores[cli_cpu < client->ncores ? cli_cpu : client->ncores - 1];
    c->srv_core = &server->cores[srv_cpu < server->ncores ? srv_cpu : server->ncores - 1];
    cli->core = c->cli_core;
    c->cli_reader = (struct cpu_task){ .run = cli_read, .ctx = c, .cls = CPU_PROCESS, .name = "msg_client" };
    c->srv_reader = (struct cpu_task){ .run = srv_read, .ctx = c, .cls = CPU_PROCESS, .name = "msg_server" };
    c->starter = (struct cpu_task){ .run = starter, .ctx = c, .cls = CPU_PROCESS, .name = "msg_connect" };
    c->sym_schedule = cpu_sym("schedule");
    return c;
}

void tcp_mconn_start(struct tcp_mconn *c, simtime_t at)
{
    core_wake(c->cli_core, &c->starter, at);
}

void tcp_mconn_write(struct tcp_mconn *c, bool to_server, uint64_t size, uint64_t tag, struct core *core)
{
    struct tcp_sock *tp = to_server ? c->cli : c->srv;
    tcp_write_bytes(tp, size);   /* whole slots, the last one short (tcp_short.c) */
    q_push(to_server ? &c->up : &c->down, tp->write_seq, tag, size);
    tcp_write_xmit(tp, core);
}

/* The client's pending writes (tcp_mconn_write_at) go in its next slice. */
static struct tcp_msgq *pending_of(struct tcp_mconn *c);

static bool cli_write(struct cpu_task *t, struct core *core)
{
    struct tcp_mconn *c = t->ctx;
    struct tcp_msgq *p = pending_of(c);
    const struct tcp_msg_rec *m;
    while ((m = q_front(p))) {
        uint64_t size = m->size, tag = m->tag;
        q_pop(p);
        tcp_mconn_write(c, true, size, tag, core);
    }
    return false;
}

/* made at the first timed write */
static struct tcp_msgq *pending_of(struct tcp_mconn *c)
{
    if (!c->cli_writer.ctx) {
        c->cli_writer = (struct cpu_task){ .run = cli_write, .ctx = c, .cls = CPU_PROCESS, .name = "msg_send" };
        c->pend = xcalloc(1, sizeof *c->pend);
    }
    return c->pend;
}

void tcp_mconn_write_at(struct tcp_mconn *c, uint64_t size, uint64_t tag, simtime_t at)
{
    q_push(pending_of(c), 0, tag, size);
    core_wake(c->cli_core, &c->cli_writer, at);
}

uint64_t tcp_mconn_rtos(const struct tcp_mconn *c)
{
    return c->cli->st.rtos + (c->srv ? c->srv->st.rtos : 0);
}

void tcp_mconn_free(struct tcp_mconn *c)
{
    if (!c)
        return;
    free(c->up.v);
    free(c->down.v);
    if (c->pend)
        free(c->pend->v);
    free(c->pend);
    free(c);
}

void tcp_path(struct host *a, struct host *b, simtime_t *delay, uint64_t *rate)
{
    *delay = 0;
    *rate = UINT64_MAX;
    for (int hop = 0; a != b && hop < a->sim->nhosts; hop++) {
        struct nic *n = route_next(a, (uint32_t)b->index);
        if (!n)
            break;
        struct link_dir *d = n->tx_link;
        *delay += d->propagation + d->rx_latency;
        if (d->rate < *rate)
            *rate = d->rate;
        a = d->dst->host;
    }
    if (*rate == UINT64_MAX)
        *rate = 0;
}

simtime_t tcp_wire_time(uint64_t bytes, uint32_t mss, uint32_t hdrs, uint64_t rate)
{
    if (!rate || !mss)
        return 0;
    uint64_t segs = bytes ? (bytes + mss - 1) / mss : 1;
    uint64_t last = bytes - (segs - 1) * mss;
    uint64_t wire = (segs - 1) * wire_bytes(mss + hdrs) + wire_bytes((uint32_t)(last + hdrs));
    return time_serialise(wire, rate);
}
