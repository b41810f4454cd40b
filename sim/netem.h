/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netem.h - tc-netem as the root qdisc of a port's egress, with the
 * semantics of Linux's sch_netem.c (6.x; its `ecn` as 4.15 has it) and
 * tc's option syntax.
 *
 * A direction of a [link] has a netem qdisc when any of its keys is given
 * (as `tc qdisc add dev eth0 root netem ...` replaces the port's default
 * qdisc whatever the options); it then takes every packet the sending port
 * is handed, ahead of the NIC's TX rings, and nothing else queues there.
 * Options, in tc-netem(8)'s words, each a key of [link] (fwd.KEY / rev.KEY
 * for one direction; netem's `rate` is the key netem_rate, because `rate`
 * is the link's line rate):
 *
 *   delay     = TIME [JITTER] [distribution uniform|normal]
 *   loss      = PERCENT | random PERCENT | gemodel P [R [1-H [1-K]]]  [ecn]
 *   duplicate = PERCENT
 *   corrupt   = PERCENT
 *   reorder   = PERCENT            (needs a delay; tc's gap 1)
 *   netem_rate = RATE [PACKETOVERHEAD [CELLSIZE [CELLOVERHEAD]]]
 *   limit     = PACKETS            (1000, tc's default)
 *
 * A PERCENT reads as tc reads it: "1%", or a bare number that is itself a
 * percentage ("0.1" is 0.1 %). Correlations, `gap`, `slot` and the pareto
 * tables are not modelled and are refused by the parsers.
 *
 * What happens to a packet, in netem_enqueue's order:
 *   1. duplicate: one draw; a duplicate is queued after the checks below,
 *      going through loss, corrupt, limit and delay draws of its own;
 *   2. loss: a lost packet is freed, and the sender is told it was sent;
 *      with `ecn`, one the loss picks that is ECN-capable (ECT or CE) is
 *      marked CE and goes on instead (INET_ECN_set_ce), counted in
 *      ecn_marked (sch_netem counts it in the qdisc's drops: tc -s's
 *      `dropped` is lost + dropped + ecn_marked); a Not-ECT one is lost;
 *   3. with a delay, jitter or rate the packet is orphaned: its socket's
 *      send-buffer charge is returned now, as a NIC's TX completion would
 *      return it before a real link's transit delay;
 *   4. corrupt: the frame is marked, and the receiving host's checksum
 *      drops it (ip_rcv, HOST.ip_csum_errors);
 *   5. limit: with `limit` packets held (waiting for their time or for the
 *      device), the packet is dropped and the sender is told so;
 *   6. reorder: that share is put at the front, to leave at once; the rest
 *      get time_to_send = now + delay + a jitter draw, and with a rate
 *      max(that, the last time_to_send held) + the packet's time at that
 *      rate (its frame without FCS, plus the overhead, in cells if asked).
 * Packets leave in time_to_send order, so jitter reorders packets as netem
 * does; a packet never leaves before its time, and goes to the device at
 * the first moment after it that the device's TX queue is not stopped.
 * The device then serialises it at the link's line rate (link.h).
 */
#ifndef NETSIM_NETEM_H
#define NETSIM_NETEM_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/event.h"
#include "sim/rng.h"
#include "sim/skb.h"
#include "sim/time.h"

enum netem_dist { NETEM_UNIFORM, NETEM_NORMAL };
enum netem_loss { NETEM_LOSS_NONE, NETEM_LOSS_RANDOM, NETEM_LOSS_GEMODEL };

#define NETEM_DEFAULT_LIMIT 1000
#define NETEM_MAX_LIMIT 10000000
/* Bound of a delay, a jitter and a link's propagation, so that no time the
 * engine adds up from them can overflow (time.h). */
#define NETEM_MAX_DELAY (1000 * PS_PER_S)

/* The options, as parsed. Probabilities are fractions 0..1. */
struct netem_opts {
    simtime_t latency, jitter;
    enum netem_dist dist;
    enum netem_loss loss;
    double p;                    /* random: loss probability; GE: P(good -> bad) */
    double r;                    /* GE: P(bad -> good) */
    double loss_bad, loss_good;  /* GE: 1-h and 1-k */
    double duplicate, corrupt, reorder;
    bool ecn;                    /* loss ... ecn: mark CE what the loss picks, if ECN-capable */
    uint64_t rate;               /* netem's own rate, bit/s; 0 = none */
    int32_t packet_overhead;     /* bytes added to each frame for the rate */
    uint32_t cell_size;          /* 0: no cells */
    int32_t cell_overhead;
    uint32_t limit;
};

/* Where the tfifo keeps a packet: ordered by (time_to_send, arrival). */
struct netem_slot {
    simtime_t tts;
    uint64_t seq;
    struct skb *skb;
};

/* The device behind the qdisc: 0 if it took the packet at time t, -1 if
 * its queue is stopped (netem keeps the packet and waits for netem_wake). */
typedef int (*netem_xmit_fn)(void *dev, struct skb *skb, simtime_t t);

struct netem {
    bool on;                     /* installed on this egress */
    struct netem_opts o;
    struct evq *q;
    struct rng *rng;
    netem_xmit_fn xmit;
    void *dev;
    bool bad;                    /* GE state */
    /* tfifo, in order (tts not below the tail's): a list through the
     * packets in which each holds the next one's time_to_send in t_due
     * and the head's own is here, so that knowing when the next packet is
     * due never reads a packet that has waited out the whole delay far
     * from the cache; each leaves with its own time back in t_due */
    struct skb *fhead, *ftail;
    simtime_t fhead_tts, ftail_tts;
    uint32_t flen;
    /* prefetch links: each packet's prev points NETEM_AHEAD packets
     * behind it in the list, set when that one is queued (the last
     * NETEM_AHEAD queued are kept here for it) */
#define NETEM_AHEAD 4
    struct skb *frecent[NETEM_AHEAD];
    uint32_t frecent_i;
    struct netem_slot *heap;     /* tfifo, out of order: min-heap, at most `limit` */
    uint32_t hlen, hcap;
    uint64_t seq;
    struct skb_queue front;      /* reordered packets: out before the tfifo */
    struct skb *requeued;        /* refused by a stopped device: out first */
    uint32_t qlen;               /* held: tfifo + heap + front + requeued */
    uint64_t backlog;            /* their bytes, qdisc_pkt_len each (a GSO packet netem cut counts its segments') */
    simtime_t last_tts;          /* latest time_to_send held (for the rate) */
    struct event watchdog;
    uint32_t next_seq, max_out;  /* arrival numbers: given, and the highest sent */
    uint64_t lost, dropped, duplicated, corrupted, reordered;
    uint64_t ecn_marked;         /* picked by the loss, marked CE instead (ecn) */
    uint64_t out_of_order;       /* sent behind a packet that arrived after it */
};

void netem_opts_init(struct netem_opts *o);
/* Long-run loss rate the loss options imply. */
double netem_loss_rate(const struct netem_opts *o);

/* Install a qdisc with options o on an egress; draws come from rng. */
void netem_init(struct netem *n, const struct netem_opts *o, struct evq *q, struct rng *rng,
                netem_xmit_fn xmit, void *dev);
void netem_free(struct netem *n);
/* dev_queue_xmit into the qdisc at time now (the caller's clock). Returns
 * 0 (queued, sent, or lost as netem loses: silently) or -1 (limit: the
 * caller sees a drop). */
int netem_enqueue(struct netem *n, struct skb *skb, simtime_t now);
/* The device's queue was restarted at time now. */
void netem_wake(struct netem *n, simtime_t now);

/* The draws, exposed for tests. */
bool netem_lose(struct netem *n);
simtime_t netem_delay_draw(struct netem *n);

#endif
