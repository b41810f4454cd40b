/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * skb.h - the packet: one struct, pooled, headers as plain fields.
 *
 * No payload bytes are carried, only lengths. `truesize` is the memory the
 * receiving socket or reassembly queue is charged for the packet, which is
 * what several models (UDP rcvbuf, TCP window, ipfrag thresholds) turn on.
 * Protocols keep their own header fields in `l4` and per-layer scratch in
 * `cb`, as the kernel does with skb->cb.
 */
#ifndef NETSIM_SKB_H
#define NETSIM_SKB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sim/invariant.h"
#include "sim/time.h"

enum { NET_IPV4 = 4, NET_IPV6 = 6 };
enum { IPPROTO_ICMP_ = 1, IPPROTO_TCP_ = 6, IPPROTO_UDP_ = 17, IPPROTO_SCTP_ = 132 };

#define IPV4_HDR_LEN   20
#define IPV6_HDR_LEN   40
#define IPV6_MIN_MTU   1280           /* RFC 8200: every link carries this much */
#define IPV6_FRAG_LEN  8
#define UDP_HDR_LEN    8
#define ICMP_HDR_LEN   8

struct sock;
struct skb;

/* A buffer a driver lends the packet it receives into (the NIC's RX
 * half-page, whose reuse waits for the stack to free it): freeing the
 * packet hands the page back through release, to whoever lent it, so
 * that the pool knows no driver. */
struct skb_page {
    void (*release)(struct skb_page *pg, const struct skb *skb);
};
typedef void (*skb_destructor)(struct skb *skb);

struct skb {
    struct skb *next, *prev;     /* owner's list: queue, ring, pool */

    /* network header; fields ordered by size so that the struct packs
     * into three cache lines (192 bytes): a 10 Gbit/s path with 100 ms of
     * netem delay holds 130 000 of them */
    uint8_t family;              /* NET_IPV4 / NET_IPV6 */
    uint8_t proto;               /* IPPROTO_* */
    uint16_t ip_id;              /* IPv4 id / IPv6 fragment id (low bits) */
    uint32_t saddr, daddr;       /* host ids (see host.h for dotted names) */
    uint32_t ip_len;             /* L3 length: IP header(s) + L4 header + payload */
    uint16_t frag_off;           /* fragment offset in bytes (an IP datagram is at most 64 KB) */
    uint16_t gso_size;           /* skb_shinfo(skb)->gso_size: a GSO or GRO packet's segment
                                  * payload (the MSS); 0: one segment (skb_gso_segs) */
    uint32_t netem_seq;          /* arrival order at a netem qdisc (reordering count) */
    bool more_frags;             /* MF */
    bool is_frag;                /* part of a fragmented datagram */
    bool df;                     /* IPv4 don't fragment */
    bool corrupt;                /* netem flipped a bit: the receiver's checksum drops it */
    uint8_t oif;                 /* egress NIC index + 1 fixed by the sender (the source
                                  * address of a multi-homed SCTP path); 0: the route */
    uint8_t tx_desc;             /* descriptors on the TX ring */
    uint8_t queue;               /* RX or TX queue index (NIC_MAX_QUEUES 16) */
    uint8_t tos;                 /* IPv4 TOS / IPv6 traffic class: DSCP << 2 | ECN */

    /* transport */
    uint16_t sport, dport;
    uint32_t payload;            /* L4 payload bytes (whole datagram for frag 0: see frag) */
    uint32_t flow;               /* scenario flow id, for accounting */

    /* memory and ownership */
    uint32_t truesize;
    uint32_t hash;               /* RSS hash (skb->rxhash) */
    uint32_t rx_page_gen;        /* the lender's generation of rx_page when lent */
    uint8_t l4[64];              /* protocol header fields, interpreted by the model */
    struct sock *sk;             /* owner charged for it, or NULL */
    skb_destructor destructor;   /* sock_wfree / sock_rfree, run by skb_free */
    struct skb_page *rx_page;    /* RX buffer this skb holds (page recycling), or NULL */
    struct skb *frag_list;       /* reassembled datagram: the other fragments,
                                  * chained by next; freed with this skb
                                  * (skb_shinfo(skb)->frag_list) */

    /* times */
    simtime_t tstamp;            /* when created or received */
    simtime_t t_due;             /* netem: time_to_send; link: arrival time */
    uint32_t cb[2];              /* per-layer scratch (reassembly: the fragment's [start, end)) */
};
_Static_assert(sizeof(struct skb) == 192, "struct skb: three cache lines");
_Static_assert(offsetof(struct skb, l4) % 8 == 0, "l4 holds protocol headers with 64-bit fields");

/* The ECN field, the low two bits of tos (RFC 3168). */
enum { INET_ECN_NOT_ECT = 0, INET_ECN_ECT_1 = 1, INET_ECN_ECT_0 = 2, INET_ECN_CE = 3, INET_ECN_MASK = 3 };

static inline uint8_t skb_ecn(const struct skb *s) { return s->tos & INET_ECN_MASK; }
/* INET_ECN_set_ce: marks an ECN-capable packet CE and says true (also for
 * one already CE); a Not-ECT packet is left alone and the caller drops
 * it instead. */
static inline bool skb_ecn_set_ce(struct skb *s)
{
    if (skb_ecn(s) == INET_ECN_NOT_ECT)
        return false;
    s->tos |= INET_ECN_CE;
    return true;
}

/* A GSO or GRO packet's segment count (skb_shinfo(skb)->gso_segs): the
 * payload in gso_size pieces, the last one shorter. */
static inline uint32_t skb_gso_segs(const struct skb *s)
{
    return s->gso_size ? (s->payload + s->gso_size - 1) / s->gso_size : 1;
}

/* Pool of packets. Grows in slabs of 1024 on demand and never shrinks, so
 * after warm-up allocation is a list pop. */
struct skb *skb_alloc(void);
/* A packet whose every field is src's (the caller unlinks and disowns what
 * must not be shared): skb_alloc and a copy, without clearing it first. */
struct skb *skb_alloc_copy(const struct skb *src);
void skb_free(struct skb *skb);
/* Packets currently allocated (leak checks in tests). */
uint64_t skb_in_use(void);
/* Free a reassembled datagram's other fragments (and the RX pages they
 * hold), keeping the head skb. */
void skb_drop_frag_list(struct skb *skb);
void skb_pool_release(void);

/* Intrusive FIFO of skbs. */
struct skb_queue {
    struct skb *head, *tail;
    uint32_t len;
    uint64_t bytes;              /* sum of truesize */
};

/* The queue's len and bytes are its packets' count and truesize sum, and
 * its links run both ways (walks the queue: for INVARIANT_SUM). */
bool skbq_sums_ok(const struct skb_queue *q);

static inline void skbq_init(struct skb_queue *q) { q->head = q->tail = 0; q->len = 0; q->bytes = 0; }
static inline void skbq_push(struct skb_queue *q, struct skb *s)
{
    s->next = 0;
    s->prev = q->tail;
    if (q->tail)
        q->tail->next = s;
    else
        q->head = s;
    q->tail = s;
    q->len++;
    q->bytes += s->truesize;
    INVARIANT_SUM(q->len, skbq_sums_ok(q));
}
static inline void skbq_push_head(struct skb_queue *q, struct skb *s)
{
    s->prev = 0;
    s->next = q->head;
    if (q->head)
        q->head->prev = s;
    else
        q->tail = s;
    q->head = s;
    q->len++;
    q->bytes += s->truesize;
    INVARIANT_SUM(q->len, skbq_sums_ok(q));
}
static inline struct skb *skbq_pop(struct skb_queue *q)
{
    struct skb *s = q->head;
    if (!s)
        return 0;
    q->head = s->next;
    if (q->head)
        q->head->prev = 0;
    else
        q->tail = 0;
    INVARIANT(q->len > 0 && q->bytes >= s->truesize);
    q->len--;
    q->bytes -= s->truesize;
    INVARIANT((q->len == 0) == (q->head == 0) && (q->len > 0 || q->bytes == 0));
    s->next = s->prev = 0;
    return s;
}
/* Insert keeping t_due order (stable: after equal times). Reordering links
 * only; the common case appends. */
void skbq_insert_by_due(struct skb_queue *q, struct skb *s);
void skbq_purge(struct skb_queue *q);

/*
 * A FIFO of packets as a ring of pointers (a device's pfifo qdisc), for
 * queues long enough that a packet is cold by the time it leaves: a list
 * would make each pop wait for the departing packet's line before it
 * could find the next one; the ring knows the next ones, and a pop
 * fetches the one SKB_RING_AHEAD places on, so that its miss overlaps the
 * work on those before it. The ring doubles when full (from 64) and never
 * shrinks; order is push order, as skb_queue's.
 */
#define SKB_RING_AHEAD 4

struct skb_ring {
    struct skb **e;
    uint32_t head, len, cap;     /* cap a power of two, 0 before the first push */
};

void skb_ring_grow(struct skb_ring *r);
void skb_ring_purge(struct skb_ring *r);   /* frees the packets and the ring */

static inline struct skb *skb_ring_peek(const struct skb_ring *r) { return r->len ? r->e[r->head] : 0; }
static inline void skb_ring_push(struct skb_ring *r, struct skb *s)
{
    if (r->len == r->cap)
        skb_ring_grow(r);
    r->e[(r->head + r->len++) & (r->cap - 1)] = s;
    INVARIANT(r->len <= r->cap && (r->cap & (r->cap - 1)) == 0);
}
static inline struct skb *skb_ring_pop(struct skb_ring *r)
{
    INVARIANT(r->len > 0);
    uint32_t mask = r->cap - 1;
    struct skb *s = r->e[r->head];
    r->head = (r->head + 1) & mask;
    if (--r->len >= SKB_RING_AHEAD) {
        const char *p = (const char *)r->e[(r->head + SKB_RING_AHEAD - 1) & mask];
        __builtin_prefetch(p);
        __builtin_prefetch(p + 64);
        __builtin_prefetch(p + 128);
    }
    return s;
}

#endif
