/*
 * sums.h - what a discipline's qlen and backlog must add up to, for its
 * invariants (sim/invariant.h).
 *
 * A discipline's st.qlen and st.backlog are running sums kept beside its
 * lists (or its children's counts), and two packets stand outside those
 * lists while still counted: the one a parent peeked (qdisc_peek holds it
 * in q->peeked) and the one dequeued for a stopped TX queue (q->requeued,
 * dev_requeue_skb's). A relation that adds up the lists adds these too.
 */
#ifndef NETSIM_QDISC_SUMS_H
#define NETSIM_QDISC_SUMS_H

#include "sim/invariant.h"
#include "sim/qdisc.h"

/* the backlog a list holds, walked: for INVARIANT_WALK only */
static inline uint64_t skbq_pkt_len_sum(const struct skb_queue *l)
{
    uint64_t sum = 0;
    for (const struct skb *s = l->head; s; s = s->next)
        sum += qdisc_pkt_len(s);
    return sum;
}

/* A discipline whose packets are all on `lists` (a FIFO, codel's,
 * red's bfifo): qlen is their lengths, backlog their packets'
 * sizes, and an empty one holds no bytes. The count is O(n lists); the
 * walk of the packets is sampled (INVARIANT_WALK). */
static inline bool qdisc_lists_qlen_ok(const struct qdisc *q, const struct skb_queue *lists, unsigned n)
{
    uint64_t len = 0;
    for (unsigned i = 0; i < n; i++)
        len += lists[i].len;
    return q->st.qlen == len + qdisc_qlen_aside(q) && (q->st.qlen || !q->st.backlog);
}
static inline bool qdisc_lists_backlog_ok(const struct qdisc *q, const struct skb_queue *lists, unsigned n)
{
    uint64_t sum = 0;
    for (unsigned i = 0; i < n; i++)
        sum += skbq_pkt_len_sum(&lists[i]);
    return q->st.backlog == sum + qdisc_backlog_aside(q);
}
#define QDISC_LISTS_OK(q, lists, n)                                                                                \
    do {                                                                                                           \
        INVARIANT(qdisc_lists_qlen_ok((q), (lists), (n)));                                                         \
        INVARIANT_WALK((q)->st.qlen, qdisc_lists_backlog_ok((q), (lists), (n)));                                   \
    } while (0)

#endif
