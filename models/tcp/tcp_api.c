/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_api.c - socket calls for a caller outside the family (tcp_api.h):
 * the accept queue is the listener's app state, a ring of the children
 * its handshake completed, as inet_csk_accept takes them in order.
 */
#include <stdlib.h>
#include "models/tcp/tcp_api.h"
#include "sim/xalloc.h"

struct acceptq {
    struct tcp_sock **q;
    int head, len, cap;
};

static void queue_child(struct tcp_sock *l, struct tcp_sock *child)
{
    struct acceptq *a = l->app;
    if (a->len == a->cap)
        return;                  /* full: 4.15 would have dropped the ACK; the child stays unaccepted */
    a->q[(a->head + a->len++) % a->cap] = child;
}

struct tcp_sock *tcp_api_listen(struct host *h, uint16_t port, uint8_t family, int backlog)
{
    struct tcp_sock *l = tcp_sock_new(h, port);
    if (!l)
        return NULL;
    struct acceptq *a = xcalloc(1, sizeof *a);
    a->cap = (backlog > 0 ? backlog : 0) + 1;
    a->q = xcalloc((size_t)a->cap, sizeof *a->q);
    l->app = a;
    l->sk.family = family;
    tcp_listen(l, queue_child);
    return l;
}

struct tcp_sock *tcp_api_accept(struct tcp_sock *l)
{
    struct acceptq *a = l->app;
    if (!a || !a->len)
        return NULL;
    struct tcp_sock *tp = a->q[a->head];
    a->head = (a->head + 1) % a->cap;
    a->len--;
    return tp;
}

int64_t tcp_api_write(struct tcp_sock *tp, uint64_t len, struct core *c)
{
    if (tp->state != TCP_ESTABLISHED || !tp->mss || len % tp->mss)
        return -1;
    if (tp->write_seq < tp->snd_nxt)
        tp->write_seq = tp->snd_nxt;   /* the stream's end so far: nothing unsent is left */
    tp->write_seq += len;
    tcp_write_xmit(tp, c);
    return (int64_t)len;
}

uint64_t tcp_api_read(struct tcp_sock *tp, uint64_t len, struct core *c)
{
    return tcp_recvmsg(tp, len, c);
}

void tcp_api_close_listener(struct tcp_sock *l)
{
    struct acceptq *a = l->app;
    if (!a)
        return;
    free(a->q);
    free(a);
    l->app = NULL;
}
