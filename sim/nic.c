/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nic.c - ixgbe-like port: rings, RSS, NAPI (see nic.h, nic.md); interrupt
 * moderation is nic_itr.c.
 */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/invariant.h"
#include "sim/arith.h"
#include "sim/host.h"
#include "sim/link.h"
#include "sim/nic.h"
#include "sim/offload.h"
#include "sim/pcap.h"
#include "sim/pfifo_fast.h"
#include "sim/sock.h"
#include "sim/xalloc.h"

/* ixgbe constants (3.7 ixgbe.h) */
#define DESC_NEEDED 21           /* MAX_SKB_FRAGS + 4: stop the queue below this */
#define TX_WAKE_THRESHOLD (2 * DESC_NEEDED)

/* i + k on a ring of n entries, for i < n and k <= n: rings have any size
 * (ethtool -G), and a division per descriptor is what this saves */
static inline uint32_t ring_add(uint32_t i, uint32_t k, uint32_t n)
{
    return i + k >= n ? i + k - n : i + k;
}

static bool nic_napi(struct cpu_task *t, struct core *c);
static void rx_page_release(struct skb_page *pg, const struct skb *skb);
_Static_assert(offsetof(struct rx_slot, page) == 0, "a slot is its page");

/* A queue's rings are allocated when it first receives or sends: most
 * queues of a large topology never do (a 3000-host tree's rings were
 * 250 KB a host, most of its memory), and a ring no packet reaches
 * changes nothing. */
static void rx_ring_alloc(struct nic_vec *v)
{
    struct nic *n = v->nic;
    /* rx_buf_size auto: ixgbe_set_rx_buffer_len (4.15, 4-KB pages) takes
     * 3-KB buffers when the port's frames pass 1518 bytes */
    if (!n->p.rx_buf_size)
        n->p.rx_buf_size = n->tx_link && n->tx_link->mtu > 1500 ? 3072 : 2048;
    v->gro.frag_truesize = nic_rx_buf_truesize(n);
    uint32_t size = v->nic->p.rx_ring;
    v->fifo = xcalloc(size, sizeof *v->fifo);
    v->fifo_slot = xcalloc(size, sizeof *v->fifo_slot);
    v->slots = xcalloc(size, sizeof *v->slots);
    for (uint32_t k = 0; k < size; k++)
        v->slots[k].page.release = rx_page_release;
}

void nic_init(struct nic *n, struct host *h, const char *name, const struct nic_params *p)
{
    memset(n, 0, sizeof *n);
    n->host = h;
    snprintf(n->name, sizeof n->name, "%s", name);
    n->p = *p;
    for (int i = 0; i < NIC_RETA_SIZE; i++)
        n->reta[i] = (uint8_t)(i % (int)p->num_queues);   /* ixgbe fills RETA round-robin */
    n->sym_irq = cpu_sym("ixgbe_msix_clean_rings");
    n->sym_poll = cpu_sym("ixgbe_poll");
    n->sym_drv = cpu_sym("ixgbe_clean_rx_irq");
    n->sym_page = cpu_sym("ixgbe_alloc_rx_buffers");
    n->sym_txclean = cpu_sym("ixgbe_clean_tx_irq");
    n->sym_xmit = cpu_sym("ixgbe_xmit_frame");
    n->sym_gso = cpu_sym("tcp_gso_segment");
    n->sym_gso_seg = cpu_sym("tcp_gso_segment.per_seg");
    n->sym_gro = cpu_sym("dev_gro_receive");
    n->sym_gro_merge = cpu_sym("tcp_gro_receive");
    n->sym_gro_complete = cpu_sym("napi_gro_complete");
    for (uint32_t i = 0; i < p->num_queues; i++) {
        struct nic_vec *v = &n->vec[i];
        v->nic = n;
        v->idx = (int)i;
        v->core = &h->cores[p->queue_cpu[i]];
        v->hw_free = p->rx_ring - 1;   /* one slot stays empty: head != tail */
        event_init(&v->irq, nic_irq, v);
        v->last_irq = -(simtime_t)PS_PER_S;
        v->itr = p->itr_us ? p->itr_us * 4 : NIC_ITR_20K;
        v->itr_state = 1;
        v->napi.run = nic_napi;
        v->napi.ctx = v;
        v->napi.cls = CPU_SOFTIRQ;
        v->napi.name = "napi";
        dql_init(&v->dql, p->bql_hold, 0);
        v->dql.min_limit = p->bql_limit_min;
        v->dql.max_limit = p->bql_limit_max;
        dql_reset(&v->dql, 0);
        skbq_init(&v->gso_rest);
    }
}

void nic_free(struct nic *n)
{
    qdisc_root_free(n->qd);
    nic_attach_qdisc(n, NULL);
    for (uint32_t i = 0; i < n->p.num_queues; i++) {
        struct nic_vec *v = &n->vec[i];
        evq_cancel(n->host->q, &v->irq);
        for (uint32_t k = 0; k < v->fifo_len; k++) {
            struct skb *s = v->fifo[ring_add(v->fifo_head, k, n->p.rx_ring)];
            s->rx_page = NULL;
            skb_free(s);
        }
        skbq_purge(&v->gso_rest);
        gro_purge(&v->gro);
        free(v->fifo);
        free(v->fifo_slot);
        free(v->slots);
        free(v->tx);
    }
}

/* ---- RX ---- */

ARITH_WRAPS uint32_t nic_rss_hash(const struct nic *n, const struct skb *skb)   /* a hash: mod 2^64 */
{
    /* Any good mix with a fixed key will do (nic.md 3.4); the field
     * selection is what matters: ports only for TCP, and for UDP only
     * with rss_udp_ports and only on packets that carry the UDP header. */
    uint64_t h = 0x6d5a56da255b0ec2ULL ^ ((uint64_t)skb->saddr << 32 | skb->daddr);
    bool ports = skb->proto == IPPROTO_TCP_ ||
                 (skb->proto == IPPROTO_UDP_ && n->p.rss_udp_ports && skb->frag_off == 0);
    if (ports)
        h ^= ((uint64_t)skb->sport << 16 | skb->dport) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return (uint32_t)h;
}

void nic_rx(struct nic *n, struct skb *skb)
{
    skb->hash = nic_rss_hash(n, skb);
    struct nic_vec *v = &n->vec[n->reta[skb->hash % NIC_RETA_SIZE]];
    skb->queue = (uint8_t)v->idx;
    if (n->rx_observer)
        n->rx_observer(n, skb, !v->hw_free);
    if (!v->hw_free) {
        n->rx_missed++;
        v->rx_drops++;
        skb_free(skb);
        return;
    }
    v->hw_free--;
    if (!v->fifo)
        rx_ring_alloc(v);
    uint32_t pos = ring_add(v->fifo_head, v->fifo_len, n->p.rx_ring);
    v->fifo[pos] = skb;
    v->fifo_slot[pos] = v->next_slot;
    v->next_slot = ring_add(v->next_slot, 1, n->p.rx_ring);
    v->fifo_len++;
    assert(v->hw_free + v->fifo_len + v->cleaned == n->p.rx_ring - 1);
    nic_irq_request(v, n->host->q->now);
}

/* The stack freed a packet holding this buffer (skb_page's release): the
 * half page may flip when the slot comes round, unless the slot was
 * reused since it was lent. */
static void rx_page_release(struct skb_page *pg, const struct skb *skb)
{
    struct rx_slot *slot = (struct rx_slot *)pg;
    if (slot->gen == skb->rx_page_gen)
        slot->free_time = ctx_now();
}

/* netif_receive_skb: a frame, or a GRO packet, goes up to the stack on
 * the queue's NAPI core; tcpdump sees it here, stamped now. */
static void rx_deliver(void *ctx, struct skb *skb)
{
    struct nic_vec *v = ctx;
    struct nic *n = v->nic;
    struct core *c = v->core;
    if (skb->gso_size)
        host_charge(n->host, c, n->sym_gro_complete);
    skb->tstamp = core_now(c);
    if (n->pcap && !n->pcap_wire)
        pcap_frame(n->pcap, skb, skb->tstamp, true);
    if (n->ingress.to && ingress_redirect(&n->ingress, skb, n->port, v->idx, skb->tstamp))
        return;
    ip_rcv(n->host, skb, c);
}

/* One received frame: driver work, buffer accounting, then GRO or the
 * stack. */
static void rx_one(struct nic_vec *v, struct core *c)
{
    struct nic *n = v->nic;
    struct skb *skb = v->fifo[v->fifo_head];
    struct rx_slot *slot = &v->slots[v->fifo_slot[v->fifo_head]];
    v->fifo_head = ring_add(v->fifo_head, 1, n->p.rx_ring);
    v->fifo_len--;

    INVARIANT(c == v->core);     /* rx_deliver hands up on the vector's core */
    host_charge(n->host, c, n->sym_drv);
    uint32_t frame = skb->ip_len + 14;
    slot->gen++;
    if (frame <= n->p.rx_hdr_size) {
        /* copied into the skb head; the half page goes straight back */
        skb->truesize = n->p.skb_head_truesize;
        slot->free_time = core_now(c);
        n->pages_recycled++;
    } else {
        /* the half page can flip only if the stack freed the other half,
         * handed up the last time this slot came round (ixgbe_add_rx_frag:
         * page_count(page) != 1 -> no reuse) */
        if (slot->free_time <= core_now(c)) {
            n->pages_recycled++;
            slot->free_time = SIMTIME_NEVER;   /* this half is the stack's now */
            skb->rx_page = &slot->page;
            skb->rx_page_gen = slot->gen;
        } else {
            /* not reusable: the whole page goes up with this frame, and the
             * refill maps a fresh page into the slot (ixgbe_alloc_mapped_page,
             * offset 0, count 1). Nobody holds the fresh page's other half,
             * so the next frame in this slot always flips it: with every
             * buffer held longer than a ring cycle, half the frames pay for a
             * page, not all of them. Freeing this skb no longer concerns the
             * ring. */
            n->pages_alloc++;
            host_charge(n->host, c, n->sym_page);
            slot->free_time = 0;
            skb->rx_page = NULL;
        }
        /* a frame longer than one buffer takes as many as it needs, each
         * charged its half page (ixgbe_is_non_eop, ixgbe_add_rx_frag) */
        uint32_t nbuf = (frame + n->p.rx_buf_size - 1) / n->p.rx_buf_size;
        skb->truesize = nbuf * nic_rx_buf_truesize(n) + n->p.skb_head_truesize;
    }
    skb->sk = NULL;
    skb->destructor = NULL;
    v->rx_packets++;
    v->rx_bytes += skb->ip_len;
    v->itr_bytes += frame;
    v->cleaned++;
    v->poll_n++;
    if (n->pcap && n->pcap_wire)    /* the frame as the wire brought it, before GRO */
        pcap_frame(n->pcap, skb, core_now(c), true);
    if (!n->p.gro) {
        rx_deliver(v, skb);
        return;
    }
    host_charge(n->host, c, n->sym_gro);
    uint64_t merged = v->gro.merged;
    uint32_t page_part = skb->truesize > n->p.skb_head_truesize ? skb->truesize - n->p.skb_head_truesize : 0;
    gro_receive(&v->gro, skb, page_part, dql_jiffies(core_now(c)), rx_deliver, v);
    if (v->gro.merged != merged)
        host_charge(n->host, c, n->sym_gro_merge);
}

/* ---- TX ---- */

static uint32_t tx_free_desc(const struct nic_vec *v)
{
    return v->nic->p.tx_ring - 1 - v->tx_desc_used;
}

/* The driver's or the stack's (BQL's) XOFF */
static inline bool ring_stopped(const struct nic_vec *v)
{
    return v->tx_stopped | v->bql_xoff;
}

/* netif_xmit_frozen_or_stopped, and software GSO's requeued segments,
 * which go before anything else */
static inline bool txq_stopped(const struct nic_vec *v)
{
    return ring_stopped(v) | (v->gso_rest.len != 0);
}

/* Put a frame on the ring: the DMA engine sends ring frames in order, back
 * to back, so its wire times are known now. A GSO packet on a TSO port
 * is one record and its segments' frames on the wire (ixgbe_tso). */
static void tx_ring_frame(struct nic_vec *v, struct skb *skb, simtime_t t)
{
    struct nic *n = v->nic;
    if (!v->tx)
        v->tx = xcalloc(n->p.tx_ring, sizeof *v->tx);
    struct tx_rec *r = &v->tx[ring_add(v->tx_head, v->tx_len, n->p.tx_ring)];
    uint32_t segs = skb_gso_segs(skb);
    r->sk = skb->sk;
    r->truesize = skb->truesize;
    r->desc = skb->tx_desc ? skb->tx_desc : 1;
    /* ixgbe's bytecount: every segment's headers (skb->len + (gso_segs - 1) x hdr_len) */
    r->bytes = skb->ip_len + 14 + (segs > 1 ? (segs - 1) * (skb->ip_len - skb->payload + 14) : 0);
    v->tx_len++;
    v->tx_desc_used += r->desc;
    /* the ring holds what its descriptors allow; the record now carries
     * the socket's charge, which tx_clean gives back */
    INVARIANT(v->tx_len <= n->p.tx_ring && v->tx_desc_used <= n->p.tx_ring - 1 && v->tx_desc_used >= v->tx_len);
    INVARIANT(!r->sk || r->sk->wmem_alloc >= r->truesize);
    v->tx_packets += segs;
    v->tx_bytes += r->bytes - 14 * segs;
    v->itr_bytes += r->bytes;
    /* The frame that crosses the wire is the receiver's copy: it no longer
     * belongs to the sending socket, which the ring record now stands for. */
    skb->sk = NULL;
    skb->destructor = NULL;
    if (skb->rx_page) {          /* forwarded or echoed: its RX page is done */
        rx_page_release(skb->rx_page, skb);
        skb->rx_page = NULL;
    }
    if (skb->frag_list)          /* a forwarded GRO packet: its frames' pages too */
        skb_drop_frag_list(skb);
    if (n->pcap && !n->pcap_wire)   /* dev_hard_start_xmit: after the qdisc, as tcpdump sees it */
        pcap_frame(n->pcap, skb, t, false);
    if (segs > 1) {
        for (struct skb *f = skb_gso_segment(skb, false), *nx; f; f = nx) {
            nx = f->next;
            f->next = NULL;
            if (n->pcap && n->pcap_wire)
                pcap_frame(n->pcap, f, t, false);
            r->done = link_dir_xmit(n->tx_link, f, t);
        }
    } else {
        if (n->pcap && n->pcap_wire)
            pcap_frame(n->pcap, skb, t, false);
        skb->gso_size = 0;
        r->done = link_dir_xmit(n->tx_link, skb, t);
    }
    nic_irq_request(v, r->done);
    if (n->p.bql) {              /* netdev_tx_sent_queue */
        dql_queued(&v->dql, r->bytes);
        if (dql_avail(&v->dql) < 0)
            v->bql_xoff = true;
    }
    if (tx_free_desc(v) < DESC_NEEDED) {
        v->tx_stopped = true;    /* netif_stop_subqueue */
        n->tx_busy++;
    }
}

/* Segments of a software-cut GSO packet while the ring takes them; the
 * rest wait in gso_rest for the next TX clean. */
static void tx_put_segs(struct nic_vec *v, struct skb *seg, simtime_t t)
{
    for (struct skb *nx; seg; seg = nx) {
        nx = seg->next;
        seg->next = NULL;
        if (ring_stopped(v))
            skbq_push(&v->gso_rest, seg);
        else
            tx_ring_frame(v, seg, t);
    }
}

/* validate_xmit_skb: a GSO packet for a port without TSO is cut here, after
 * the qdisc, before the driver, on the core that sends it (c; NULL for
 * netem's and a qdisc watchdog's softirq, which netsim does not charge). */
static void tx_ring_put(struct nic_vec *v, struct skb *skb, simtime_t t, struct core *c)
{
    struct nic *n = v->nic;
    if (!skb->gso_size || n->p.tso || skb_gso_segs(skb) == 1) {
        tx_ring_frame(v, skb, t);
        return;
    }
    uint32_t segs = skb_gso_segs(skb);
    if (c) {
        host_charge(n->host, c, n->sym_gso);
        for (uint32_t i = 0; i < segs; i++)
            host_charge(n->host, c, n->sym_gso_seg);
    }
    struct skb *list = skb_gso_segment(skb, true);
    for (struct skb *f = list; f; f = f->next)
        f->tx_desc = 2;
    tx_put_segs(v, list, t);
}

/* __netdev_pick_tx. With XPS (xps = cpu) the packet takes the queue whose
 * vector serves the sending core: ixgbe 3.x sets each queue's XPS map to
 * its vector's CPU when Flow Director's ATR is on, the 82599's default
 * with more than one queue. SCTP never caches the choice in the socket
 * (it keeps its route in the transport, so sk_dst_cache is empty and
 * sk_tx_queue_set is skipped): each packet is mapped by the core that
 * sends it. Otherwise, or when no queue serves that core, skb_tx_hash:
 * 3.14's __skb_tx_hash scales a 32-bit hash into the queue range by
 * multiplication ((hash x n) >> 32), so the high bits choose; a modulo
 * would see ip.c's flow hash, whose low bit is always set, pick only odd
 * queues. */
static uint32_t tx_queue(const struct nic *n, const struct skb *skb, const struct core *c)
{
    if (n->p.xps)
        for (uint32_t i = 0; i < n->p.num_queues; i++)
            if (n->p.queue_cpu[i] == c->id)
                return i;
    return (uint32_t)(((uint64_t)skb->hash * n->p.num_queues) >> 32);
}

/* The device behind a qdisc tree (sim/qdisc.h). A packet the tree sends
 * from the NAPI's TX clean is charged the driver's xmit there; one sent
 * within dev_queue_xmit was charged it there (and pays software GSO on
 * that core); one from the watchdog is softirq work netsim does not
 * charge, as netem's. */
static bool qdisc_txq_stopped(void *dev, unsigned txq)
{
    return txq_stopped(&((struct nic *)dev)->vec[txq]);
}

static void qdisc_txq_xmit(void *dev, struct skb *skb, simtime_t t, void *core)
{
    struct nic *n = dev;
    if (!core) {
        tx_ring_put(&n->vec[skb->queue], skb, t, NULL);
        return;
    }
    if (!n->in_xmit)
        host_charge(n->host, core, n->sym_xmit);
    /* the frame reaches the ring once the core has done the driver's
     * work: a TX clean that sends several puts each after its own */
    tx_ring_put(&n->vec[skb->queue], skb, core_now(core), core);
}

const struct qdisc_dev_ops nic_qdisc_dev = { qdisc_txq_stopped, qdisc_txq_xmit };

void nic_attach_qdisc(struct nic *n, struct qdisc_root *r)
{
    n->qd = r;
    /* a port of a shared buffer counts what its queues hold, so even its
     * default tree takes qdisc_root_xmit's way; netem at the root holds
     * packets in its delay line, which no switch has: such a port stays
     * out of the pool */
    if (r && n->host->sb && !r->top->ops->root_xmit)
        r->sb = n->host->sb;
    for (uint32_t i = 0; i < n->p.num_queues; i++)
        n->vec[i].dflt_q = r && r->dflt && !r->sb ? qdisc_root_txq(r, i) : NULL;
}

/* The default tree, in line (sim/pfifo_fast.h): what qdisc_root_xmit
 * and qdisc_run do for it, without the tree's indirect calls, since every
 * packet of a port nobody configured passes here. Sent packets are
 * charged the driver's xmit unless dev_queue_xmit already was. */
static void dflt_sent(struct nic_vec *v, struct skb *skb, struct core *c, bool charge)
{
    if (charge)
        host_charge(v->nic->host, c, v->nic->sym_xmit);
    tx_ring_put(v, skb, core_now(c), c);
}

/* qdisc_run on the queue's pfifo_fast: the requeued packet first, then
 * the bands, while the TX queue runs (TCQ_F_ONETXQUEUE) */
static void dflt_run(struct nic_vec *v, struct qdisc *q, struct core *c, bool charge)
{
    if (q->requeued) {
        if (txq_stopped(v))
            return;
        struct skb *skb = q->requeued;
        q->requeued = NULL;
        qdisc_backlog_out(q, skb);
        dflt_sent(v, skb, c, charge);
    }
    while (!txq_stopped(v)) {
        struct skb *skb = pfifo_fast_dequeue(q);
        if (!skb)
            return;
        dflt_sent(v, skb, c, charge);
    }
}

/* __dev_xmit_skb on the default pfifo_fast: an empty one is bypassed
 * (TCQ_F_CAN_BYPASS), and on a stopped queue its packet is requeued, as
 * sch_direct_xmit does; otherwise enqueue and run */
static int dflt_xmit(struct nic_vec *v, struct qdisc *q, struct skb *skb, struct core *c)
{
    if (!q->st.qlen) {
        qdisc_sent(q, skb);
        if (!txq_stopped(v)) {
            tx_ring_put(v, skb, core_now(c), c);
            return 0;
        }
        q->requeued = skb;
        q->st.requeues++;
        qdisc_backlog_in(q, skb);
        return 0;
    }
    int ret = pfifo_fast_enqueue(q, skb);
    if (!txq_stopped(v))         /* (a standing queue's usual case: stopped) */
        dflt_run(v, q, c, false);
    return ret == NET_XMIT_DROP ? -1 : 0;
}

int nic_xmit(struct nic *n, struct skb *skb, struct core *c)
{
    host_charge(n->host, c, n->sym_xmit);
    skb->queue = (uint8_t)tx_queue(n, skb, c);
    struct nic_vec *v = &n->vec[skb->queue];
    if (v->dflt_q)
        return dflt_xmit(v, v->dflt_q, skb, c);
    n->in_xmit = true;
    int ret = qdisc_root_xmit(n->qd, skb, core_now(c), c);
    n->in_xmit = false;
    return ret == NET_XMIT_DROP ? -1 : 0;
}

/* Clean completed frames (ixgbe_clean_tx_irq), then restart the queue. */
static void tx_clean(struct nic_vec *v, struct core *c)
{
    struct nic *n = v->nic;
    uint32_t done = 0, bytes = 0;
    bool was_stopped = txq_stopped(v);
    while (v->tx_len && done < n->p.tx_work_limit) {
        struct tx_rec *r = &v->tx[v->tx_head];
        if (r->done > core_now(c))
            break;
        host_charge(n->host, c, n->sym_txclean);
        v->tx_head = ring_add(v->tx_head, 1, n->p.tx_ring);
        INVARIANT(v->tx_len > 0 && v->tx_desc_used >= r->desc);
        v->tx_len--;
        v->tx_desc_used -= r->desc;
        INVARIANT(v->tx_desc_used >= v->tx_len && (v->tx_len > 0 || v->tx_desc_used == 0));
        if (r->sk)
            sock_wfree_bytes(r->sk, r->truesize);
        bytes += r->bytes;
        done++;
    }
    if (n->p.bql && bytes) {     /* netdev_tx_completed_queue */
        dql_completed(&v->dql, bytes, dql_jiffies(core_now(c)));
        v->bql_limit = v->dql.limit;
        if (dql_avail(&v->dql) >= 0)
            v->bql_xoff = false;
    }
    if (v->tx_stopped && tx_free_desc(v) >= TX_WAKE_THRESHOLD) {
        v->tx_stopped = false;
        n->tx_restart_queue++;
    }
    while (!ring_stopped(v) && v->gso_rest.len)   /* the requeued segments first */
        tx_ring_frame(v, skbq_pop(&v->gso_rest), core_now(c));
    /* qdisc_run: the packets that waited go to the ring from here (an
     * empty default queue has none) */
    if (v->dflt_q) {
        if (v->dflt_q->st.qlen && !txq_stopped(v))
            dflt_run(v, v->dflt_q, c, true);
    }
    else if (!txq_stopped(v))
        qdisc_root_restart(n->qd, (unsigned)v->idx, core_now(c), c, was_stopped);
}

/* ---- NAPI ---- */

/* One slice of NAPI: the poll prologue, or one RX frame, or completion. */
static bool nic_napi(struct cpu_task *t, struct core *c)
{
    struct nic_vec *v = t->ctx;
    struct nic *n = v->nic;
    if (v->poll_start) {
        v->poll_start = false;
        v->poll_n = 0;
        v->polls++;
        if (v->from_irq) {
            host_charge_fixed(n->host, c, n->sym_irq);
            v->from_irq = false;
        }
        host_charge_fixed(n->host, c, n->sym_poll);
        tx_clean(v, c);
    }
    /* refill: a batch of cleaned descriptors goes back to the NIC; it
     * becomes visible at the end of the frame that completed it, which is
     * the start of this slice */
    if (v->cleaned >= n->p.refill_batch) {
        v->hw_free += v->cleaned;
        v->cleaned = 0;
    }
    if (v->fifo_len && v->poll_n < n->p.napi_weight) {
        rx_one(v, c);
        return true;
    }
    if (v->fifo_len) {
        /* budget used up: net_rx_action polls again, after handing up
         * what GRO has held since an earlier jiffy (napi_gro_flush(n, HZ >= 1000)) */
        if (v->gro.n)
            gro_flush(&v->gro, true, dql_jiffies(core_now(c)), rx_deliver, v);
        v->poll_start = true;
        return true;
    }
    if (v->gro.n)                /* napi_complete_done */
        gro_flush(&v->gro, false, 0, rx_deliver, v);
    v->hw_free += v->cleaned;
    v->cleaned = 0;
    assert(v->hw_free + v->fifo_len + v->cleaned == n->p.rx_ring - 1);
    nic_itr_update(v);
    v->masked = false;
    if (v->tx_len)
        nic_irq_request(v, v->tx[v->tx_head].done > core_now(c) ? v->tx[v->tx_head].done : core_now(c));
    return false;
}
