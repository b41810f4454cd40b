/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nic.h - an ixgbe-like 10 GbE port (Intel 82599, Linux 3.7 ixgbe driver),
 * with the ring, interrupt-throttling and RSS behaviour of that driver.
 *
 * Each port has queue pairs; pair i has an RX descriptor ring, a TX ring
 * with its pfifo qdisc in front, one MSI-X vector with ITR throttling, and
 * one NAPI context served by a configured core. RSS maps each flow to one
 * RX queue (fragments hash on addresses only). A frame that finds no free
 * RX descriptor is dropped and counted (DROP_EN, rx_missed).
 */
#ifndef NETSIM_NIC_H
#define NETSIM_NIC_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include "sim/cpu.h"
#include "sim/dql.h"
#include "sim/ifb.h"
#include "sim/event.h"
#include "sim/gro.h"
#include "sim/skb.h"

struct host;
struct link_dir;
struct cfg_section;
struct sock;
struct pcap_port;

#define NIC_MAX_QUEUES 16
#define NIC_RETA_SIZE 128

/* Parameters, from the host section (nic.md §6). */
struct nic_params {
    uint32_t rx_ring, tx_ring, refill_batch;
    uint32_t rx_buf_size, rx_hdr_size, skb_head_truesize;
    uint32_t num_queues;
    bool rss_udp_ports;
    uint32_t itr_us;             /* 0 = adaptive (ethtool rx-usecs 1) */
    bool itr_off;                /* rx-usecs 0: interrupt on every write-back */
    uint32_t napi_weight, tx_work_limit;
    simtime_t rx_latency;
    uint32_t txqueuelen;
    int queue_cpu[NIC_MAX_QUEUES];
    bool xps;                    /* TX queue by the sending core (ixgbe's XPS map), not by flow hash */
    bool bql;                    /* byte queue limits on the TX rings (dql.h) */
    uint32_t bql_limit_min, bql_limit_max;
    uint64_t bql_hold;           /* jiffies */
    /* offloads (ethtool -K; ip link's gso_max_size, gso_max_segs) */
    bool tso;                    /* the NIC cuts a GSO packet into MSS frames */
    bool gso;                    /* the stack builds GSO packets even without tso (cut in software) */
    bool gro;                    /* NAPI merges a flow's in-order TCP segments (dev_gro_receive) */
    bool lro;                    /* the 82599's RSC merges them in hardware */
    uint32_t gso_max_size, gso_max_segs;
};

struct rx_slot {
    struct skb_page page;        /* first: what a packet holding the buffer points to */
    simtime_t free_time;         /* when the buffer last handed up was freed */
    uint32_t gen;
};

struct tx_rec {                  /* a frame on the TX ring until cleaned */
    simtime_t done;
    struct sock *sk;
    uint32_t truesize;
    uint32_t bytes;              /* ixgbe's bytecount: the frame without FCS, for BQL */
    uint16_t desc;
};

struct nic;

/* One queue pair and its vector, on lines of its own: a frame's work
 * touches one queue's fields, and the multiply that finds a queue stays
 * cheap whatever the fields add up to. */
struct nic_vec {
    struct nic *nic;
    int idx;
    struct core *core;
    /* RX ring: hw_free + fifo_len + cleaned == rx_ring - 1 */
    struct skb **fifo;
    uint32_t *fifo_slot;
    uint32_t fifo_head, fifo_len;
    uint32_t hw_free, cleaned, next_slot;
    struct rx_slot *slots;
    /* TX */
    struct qdisc *dflt_q;        /* this queue's discipline in the port's default tree, or NULL */
    struct skb_queue gso_rest;   /* software GSO's segments the stopped ring did not take
                                  * (dev_requeue_skb of the list): they go first */
    struct tx_rec *tx;
    uint32_t tx_head, tx_len, tx_desc_used;
    bool tx_stopped;             /* the driver's XOFF: ring nearly full */
    bool bql_xoff;               /* the stack's XOFF: BQL's limit reached */
    struct dql dql;
    /* interrupt and NAPI */
    bool masked, from_irq, poll_start;
    uint32_t poll_n;
    struct event irq;
    simtime_t last_irq;
    uint32_t itr;                /* EITR value, 0.25 us units (ixgbe's q_vector->itr) */
    int itr_state;               /* 0 lowest, 1 low, 2 bulk */
    uint64_t itr_bytes;          /* RX + TX bytes since the last ITR update */
    struct cpu_task napi;
    struct gro_list gro;         /* the NAPI context's held GRO packets */
    /* counters */
    uint64_t rx_packets, rx_bytes, rx_drops, tx_packets, tx_bytes, irqs, polls;
    uint64_t bql_limit;          /* BQL's limit after the last TX clean (byte_queue_limits/limit) */
} __attribute__((aligned(64)));

struct nic {
    struct host *host;
    char name[16];
    struct nic_params p;
    struct link_dir *tx_link;
    /* Its egress: the qdisc tree every packet it sends goes through
     * (sim/qdisc.h), by default mq over a pfifo_fast per TX queue; NULL
     * only while the loader builds it. */
    struct qdisc_root *qd;
    bool in_xmit;                /* inside dev_queue_xmit, which charged the driver's xmit */
    uint8_t reta[NIC_RETA_SIZE];
    struct nic_vec vec[NIC_MAX_QUEUES];
    uint64_t rx_missed, pages_alloc, pages_recycled, tx_busy, tx_restart_queue;
    int sym_irq, sym_poll, sym_drv, sym_page, sym_txclean, sym_xmit, sym_gso, sym_gso_seg;
    int sym_gro, sym_gro_merge, sym_gro_complete;
    /* Observer of every arriving frame (tests, traces); NULL normally. */
    void (*rx_observer)(struct nic *n, const struct skb *skb, bool dropped);
    /* The port's capture (sim/pcap.h), or NULL: tested once per frame. */
    struct pcap_port *pcap;
    bool pcap_wire;              /* capture the wire's frames, not the host's packets */
    uint8_t port;                /* its index in host->nics, plus one */
    struct ingress ingress;      /* tc's ingress redirect (sim/ifb.h); .to NULL: none */
};

/* Reads the NIC keys of the host section (with defaults); errors go to the
 * config. Called once per host; every port of the host shares them. */
void nic_params_read(struct nic_params *p, struct cfg_section *host_sec, int ncores);
/* The truesize of one RX buffer: the half page it is cut from, 2048 for a
 * 1536- or 2048-byte buffer, 4096 for a 3072 (an 8-KB page's half) or
 * 4096 one (ixgbe_rx_pg_size / 2) */
static inline uint32_t nic_rx_buf_truesize(const struct nic *n)
{
    return n->p.rx_buf_size <= 2048 ? 2048 : 4096;
}
void nic_init(struct nic *n, struct host *h, const char *name, const struct nic_params *p);
void nic_free(struct nic *n);
/* dev_queue_xmit from core c at core_now(c): the TX queue's choice, then
 * the port's qdisc tree, which puts what it sends on the TX ring.
 * Returns 0, or -1 when the qdisc dropped the packet. */
int nic_xmit(struct nic *n, struct skb *skb, struct core *c);
/* The device side of a port's qdisc tree (sim/qdisc.h), and the tree's
 * attachment to the port (r->dflt: the built-in default). */
extern const struct qdisc_dev_ops nic_qdisc_dev;
void nic_attach_qdisc(struct nic *n, struct qdisc_root *r);
/* The 82599's minimum interrupt interval for a driver ITR value (quarter
 * microseconds, as ixgbe keeps it): (itr & 0xFF8) x 256 ns. */
#define NIC_EITR_MASK 0xFF8u
simtime_t nic_eitr_interval(uint32_t itr);
/* ixgbe's ITR targets (3.7 ixgbe.h), driver units of 0.25 us */
#define NIC_ITR_100K 40          /* "10 us", 10.24 us on the 82599 */
#define NIC_ITR_20K 200          /* "50 us", 51.2 us */
#define NIC_ITR_8K 500           /* "125 us", 126.976 us */

/* Interrupt moderation (nic_itr.c), for nic.c: the vector's interrupt
 * event, a request for an interrupt for work that appears at `at`, and
 * the adaptive ITR's step at the end of a poll. */
void nic_irq(struct event *ev);
void nic_irq_request(struct nic_vec *v, simtime_t at);
void nic_itr_update(struct nic_vec *v);
/* RSS queue of a received frame (exposed for tests). */
uint32_t nic_rss_hash(const struct nic *n, const struct skb *skb);
/* Its counters (per port and per queue) into a run's set. */
struct counters;
void nic_register_counters(struct nic *n, struct counters *cs);

#endif
