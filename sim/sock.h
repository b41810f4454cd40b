/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sock.h - socket memory accounting and sleeping readers and writers.
 *
 * A socket charges sent packets to sk_wmem_alloc until the NIC cleans them
 * (sock_wfree) and received ones to sk_rmem_alloc until the reader frees
 * them (sock_rfree), both by truesize, as the kernel does. A process that
 * blocks (no data, no send space) parks its task on the socket; the wake-up
 * is charged to whoever wakes it (try_to_wake_up) and the context switch
 * to the woken task (schedule).
 */
#ifndef NETSIM_SOCK_H
#define NETSIM_SOCK_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/cpu.h"
#include "sim/skb.h"

struct host;

/* sk_pacing_status: who paces the socket's packets (4.13 on) */
enum { SK_PACING_NONE = 0, SK_PACING_NEEDED = 1, SK_PACING_FQ = 2 };

/* IP_MTU_DISCOVER values; a new socket wants discovery (inet_create with
 * ip_no_pmtu_disc = 0): DF on whatever fits the path, fragments otherwise */
enum { IP_PMTUDISC_DONT = 0, IP_PMTUDISC_WANT = 1, IP_PMTUDISC_DO = 2 };

struct sock {
    struct host *host;
    struct sock *next;           /* host's socket list */
    struct sock *hnext;          /* host's sock_hash chain */
    uint8_t proto;
    uint8_t family;
    uint16_t port;               /* local port */
    uint32_t rcvbuf, sndbuf;     /* sk_rcvbuf, sk_sndbuf (bytes) */
    uint8_t pmtudisc;            /* IP_MTU_DISCOVER: IP_PMTUDISC_* */
    uint64_t rmem_alloc, wmem_alloc;
    struct skb_queue rq;         /* receive queue */
    struct cpu_task *reader;     /* parked, waiting for data */
    struct core *reader_core;
    struct cpu_task *writer;     /* parked, waiting for send space */
    struct core *writer_core;
    uint64_t rcvbuf_errors;      /* dropped: receive buffer full */
    void *priv;                  /* protocol's state */
    void (*data_ready)(struct sock *sk);   /* optional: protocol hook */
    /* sk_pacing_rate in bytes/s (optional: NULL or UINT64_MAX, unpaced):
     * what the fq qdisc paces the socket's packets at */
    uint64_t (*pacing_rate)(const struct sock *sk);
    uint8_t pacing_status;       /* SK_PACING_*: fq sets FQ, and the protocol then does not pace itself */
    /* optional: called when a sent packet's charge comes back (TCP's
     * tcp_wfree, which runs TCP Small Queues' handler) */
    void (*wfree)(struct sock *sk);
};

void sock_init(struct sock *sk, struct host *h, uint8_t proto, uint16_t port);
/* SO_RCVBUF / SO_SNDBUF: the kernel doubles the request and caps it at
 * rmem_max / wmem_max; `requested` 0 keeps the sysctl default. */
void sock_set_bufs(struct sock *sk, uint64_t rcv_requested, uint64_t snd_requested);

/* Charge an outgoing skb to the socket (sock_wfree runs when cleaned). */
void sock_charge_w(struct sock *sk, struct skb *skb);
/* Called by the NIC when it cleans a sent frame of `truesize`. */
void sock_wfree_bytes(struct sock *sk, uint32_t truesize);
/* sim_free: from sock_teardown(true) on, freeing a packet charged to a
 * socket leaves the socket alone (it may be gone) */
void sock_teardown(bool on);
/* Queue a received skb: false (and nothing done) if it does not fit. */
bool sock_queue_rcv(struct sock *sk, struct skb *skb, struct core *c);
/* The truesize of what waits in the receive queue: what rmem_alloc must
 * equal for a socket that only queues skbs (the accounting check). */
uint64_t sock_rq_truesize(const struct sock *sk);

static inline bool sock_writable(const struct sock *sk) { return sk->wmem_alloc < sk->sndbuf; }

/* Park the running task; it is woken by data or send space. */
void sock_wait_data(struct sock *sk, struct cpu_task *t, struct core *c);
/* A blocking reader with nothing to read: recv() sleeps on sk and *slept
 * remembers it. Returns false, a slice's "nothing more to do". */
bool sock_reader_sleep(struct sock *sk, struct cpu_task *t, struct core *c, bool *slept);
/* The first slice after a sleep pays the scheduler's wake-up, symbol
 * sym_schedule, on the socket's host. */
void sock_reader_resume(struct sock *sk, struct core *c, int sym_schedule, bool *slept);
void sock_wait_space(struct sock *sk, struct cpu_task *t, struct core *c);

/* Kernel SKB_TRUESIZE for a locally built packet with `len` bytes of
 * headers and data: kmalloc rounds the data area up to a power of two. */
uint32_t skb_truesize_for(uint32_t len);

#endif
