/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * link.c - serialisation and propagation (see link.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include "sim/link.h"

static void link_arrive(struct event *ev);

void link_dir_init(struct link_dir *d, struct evq *q, uint64_t seed, const char *key)
{
    d->q = q;
    snprintf(d->key, sizeof d->key, "%s", key);
    netem_opts_init(&d->nopts);
    d->netem_on = false;
    d->no_netem_loss = 0;
    d->qargs = NULL;
    rng_init(&d->rng, seed, key);
    d->propagation = d->wire_free = 0;
    skbq_init(&d->inflight);
    event_init(&d->arrive, link_arrive, d);
    d->tx_packets = d->tx_bytes = d->wire_busy_ps = 0;
    d->ser_rate = 0;             /* a rate no frame is sent at: nothing cached */
    d->ser_len = 0;
    d->ser = 0;
}

void link_dir_free(struct link_dir *d)
{
    evq_cancel(d->q, &d->arrive);
    free(d->qargs);
    d->qargs = NULL;
    skbq_purge(&d->inflight);
    rng_free(&d->rng);
}

simtime_t link_dir_xmit(struct link_dir *d, struct skb *skb, simtime_t t)
{
    simtime_t start = t > d->wire_free ? t : d->wire_free;
    if (skb->ip_len != d->ser_len || d->rate != d->ser_rate) {
        d->ser_len = skb->ip_len;
        d->ser_rate = d->rate;
        d->ser = time_serialise(wire_bytes(skb->ip_len), d->rate);
    }
    simtime_t ser = d->ser;
    simtime_t end = time_add(start, ser);
    d->wire_free = end;
    d->wire_busy_ps += (uint64_t)ser;
    d->tx_packets++;
    d->tx_bytes += skb->ip_len;
    skb->t_due = time_add(time_add(end, d->propagation), d->rx_latency);
    skbq_push(&d->inflight, skb);
    if (d->inflight.head == skb)
        evq_push(d->q, &d->arrive, skb->t_due);
    return end;
}

/* Frames leave the wire in order, so one event stands for the head.
 * When the next frame's arrival is also the next thing due, it arrives
 * from the same event (evq_continue), each frame at its own time: a busy
 * link costs the heap a push and a pop per burst rather than per frame. */
static void link_arrive(struct event *ev)
{
    struct link_dir *d = ev->ctx;
    for (;;) {
        simtime_t now = d->q->now;
        while (d->inflight.head && d->inflight.head->t_due <= now) {
            struct skb *skb = skbq_pop(&d->inflight);
            skb->tstamp = now;
            nic_rx(d->dst, skb);
        }
        if (!d->inflight.head)
            return;
        if (!evq_continue(d->q, d->inflight.head->t_due))
            break;
    }
    evq_push(d->q, &d->arrive, d->inflight.head->t_due);
}
