/*
 * link.c - serialisation, delay line and netem draws (see link.h).
 */
#include <stdio.h>
#include "link.h"

static void link_arrive(struct event *ev);

void link_dir_init(struct link_dir *d, struct evq *q, uint64_t seed, const char *key)
{
    d->q = q;
    snprintf(d->key, sizeof d->key, "%s", key);
    netem_init(&d->nm);
    rng_init(&d->rng, seed, key);
    d->wire_free = d->last_due = 0;
    skbq_init(&d->inflight);
    event_init(&d->arrive, link_arrive, d);
    d->tx_packets = d->tx_bytes = d->wire_busy_ps = d->lost = 0;
}

void link_dir_free(struct link_dir *d)
{
    evq_cancel(d->q, &d->arrive);
    skbq_purge(&d->inflight);
    rng_free(&d->rng);
}

simtime_t link_dir_xmit(struct link_dir *d, struct skb *skb, simtime_t t)
{
    if (netem_lose(&d->nm, &d->rng)) {
        d->lost++;
        skb_free(skb);
        return t;
    }
    simtime_t start = t > d->wire_free ? t : d->wire_free;
    simtime_t ser = time_serialise(wire_bytes(skb->ip_len), d->rate);
    simtime_t end = start + ser;
    d->wire_free = end;
    d->wire_busy_ps += (uint64_t)ser;
    d->tx_packets++;
    d->tx_bytes += skb->ip_len;

    bool reordered;
    simtime_t due = end + netem_delay(&d->nm, &d->rng, &reordered) + d->rx_latency;
    if (reordered || d->nm.reorder > 0) {
        skb->t_due = due;
        skbq_insert_by_due(&d->inflight, skb);
    } else {
        if (due < d->last_due)
            due = d->last_due;   /* jitter without reordering keeps FIFO */
        d->last_due = due;
        skb->t_due = due;
        skbq_push(&d->inflight, skb);
    }
    if (d->inflight.head == skb) {
        if (event_pending(&d->arrive))
            evq_move(d->q, &d->arrive, due);
        else
            evq_push(d->q, &d->arrive, due);
    }
    return end;
}

static void link_arrive(struct event *ev)
{
    struct link_dir *d = ev->ctx;
    simtime_t now = d->q->now;
    while (d->inflight.head && d->inflight.head->t_due <= now) {
        struct skb *skb = skbq_pop(&d->inflight);
        skb->tstamp = now;
        nic_rx(d->dst, skb);
    }
    if (d->inflight.head)
        evq_push(d->q, &d->arrive, d->inflight.head->t_due);
}
