/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qdisc_world.h - what the queueing discipline tests share: a discipline
 * from tc's words on a 1500-byte port with no tree (NULL root), packets
 * of a given qdisc_pkt_len in a flow (their source port), the
 * discipline's xstats by name, and a leak check against the packets in
 * use when the test began (a failed test leaves its own behind, which
 * must not fail the next).
 */
#ifndef NETSIM_TESTS_QDISC_WORLD_H
#define NETSIM_TESTS_QDISC_WORLD_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "load/qdisc_parse.h"
#include "sim/qdisc.h"

/* the netsim time whose CoDel time (ns >> 10) is exactly c */
static inline simtime_t C(uint32_t c) { return (simtime_t)c * 1024 * PS_PER_NS; }

static inline struct qdisc *mk(const char *tc)
{
    struct qdisc_args a;
    char err[512];
    if (qdisc_parse(tc, &a, err, sizeof err))
        fail_msg("%s: %s", tc, err);
    struct qdisc_dev dev = { .mtu = 1500, .hard_header_len = 14, .txqueuelen = 1000, .num_tx_queues = 1,
                             .rate = 1000000000, .seed = 1 };
    struct qdisc *q = qdisc_create(&a, &dev, NULL, "root", err, sizeof err);
    if (!q)
        fail_msg("%s: %s", tc, err);
    return q;
}

/* a packet of qdisc_pkt_len `len` in flow `flow` (its source port) */
static inline struct skb *pkt(uint32_t len, uint16_t flow, uint8_t ecn)
{
    struct skb *s = skb_alloc();
    s->family = NET_IPV4;
    s->proto = IPPROTO_TCP_;
    s->saddr = 1;
    s->daddr = 2;
    s->sport = flow;
    s->dport = 5201;
    s->ip_len = len - 14;
    s->tos = ecn;
    s->truesize = 2304;
    return s;
}

static inline uint64_t xstat(const struct qdisc *q, const char *name)
{
    struct qdisc_xstat x[QDISC_MAX_XSTATS];
    int n = q->ops->xstats(q, x);
    for (int i = 0; i < n; i++)
        if (!strcmp(x[i].name, name))
            return *x[i].v;
    fail_msg("no xstat %s", name);
    return 0;
}

/* what one of the discipline's tc -s printers writes */
static inline const char *tc_text(const struct qdisc *q, void (*print)(const struct qdisc *, FILE *))
{
    static char buf[512];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    print(q, f);
    fclose(f);
    return buf;
}

static inline struct skb *deq(struct qdisc *q, simtime_t t) { return q->ops->dequeue(q, t); }

static inline void deq_free(struct qdisc *q, simtime_t t)
{
    struct skb *s = deq(q, t);
    assert_non_null(s);
    skb_free(s);
}

static uint64_t in_use;
static inline int setup(void **state)
{
    (void)state;
    in_use = skb_in_use();
    return 0;
}

static inline void done(struct qdisc *q)
{
    qdisc_destroy(q);
    assert_int_equal(skb_in_use(), in_use);
}

#endif
