/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sock.c - socket memory accounting and wake-ups (see sock.h).
 */
#include <assert.h>
#include <string.h>
#include "sim/invariant.h"
#include "sim/host.h"
#include "sim/sock.h"

static void wake(struct cpu_task **slot, struct core *target);

void sock_init(struct sock *sk, struct host *h, uint8_t proto, uint16_t port)
{
    memset(sk, 0, sizeof *sk);
    sk->host = h;
    sk->proto = proto;
    sk->family = NET_IPV4;
    sk->port = port;
    sk->pmtudisc = IP_PMTUDISC_WANT;
    sk->rcvbuf = (uint32_t)h->rmem_default;
    sk->sndbuf = (uint32_t)h->wmem_default;
    skbq_init(&sk->rq);
    sk->next = h->socks;
    h->socks = sk;
    host_sock_add(h, sk);
}

void sock_set_bufs(struct sock *sk, uint64_t rcv, uint64_t snd)
{
    /* sock_setsockopt: val = min(val, sysctl_*mem_max); sk_*buf = 2 * val */
    if (rcv)
        sk->rcvbuf = (uint32_t)(2 * (rcv < sk->host->rmem_max ? rcv : sk->host->rmem_max));
    if (snd)
        sk->sndbuf = (uint32_t)(2 * (snd < sk->host->wmem_max ? snd : sk->host->wmem_max));
}

uint32_t skb_truesize_for(uint32_t len)
{
    /* __alloc_skb: data = kmalloc(SKB_DATA_ALIGN(len) + shinfo 320),
     * truesize = ksize(data) + sizeof(struct sk_buff) (aligned: 256).
     * kmalloc caches are powers of two up to 8 KB; larger ones come from
     * the page allocator in whole pages. */
    uint32_t need = ((len + 63) & ~63u) + 320;   /* at least 320: never below 32 */
    uint32_t k = need <= 8192 ? 1u << (32 - __builtin_clz(need - 1))   /* the power of two >= need */
                              : (need + 4095) & ~4095u;
    return k + 256;
}

/* Set while a simulation is freed: its sockets go before the packets
 * still charged to them (in qdiscs, on rings), which must then neither
 * touch them nor wake a writer or TCP Small Queues' handler. */
static bool sockets_gone;

void sock_teardown(bool on)
{
    sockets_gone = on;
}

/* A sent skb freed before it reached the TX ring (qdisc drop) gives its
 * memory back here; once on the ring, the ring's record does (nic.c). */
static void sock_wfree(struct skb *skb)
{
    if (!sockets_gone)
        sock_wfree_bytes(skb->sk, skb->truesize);
}

void sock_charge_w(struct sock *sk, struct skb *skb)
{
    skb->sk = sk;
    skb->destructor = sock_wfree;
    sk->wmem_alloc += skb->truesize;
    INVARIANT(sk->wmem_alloc >= skb->truesize);   /* no wrap */
}

static void wake(struct cpu_task **slot, struct core *target)
{
    struct cpu_task *t = *slot;
    *slot = NULL;
    if (cpu_current) {
        struct host *h = cpu_current->host;
        static int sym = -1;
        if (sym < 0)
            sym = cpu_sym("try_to_wake_up");
        host_charge(h, cpu_current, sym);
    }
    core_wake(target, t, ctx_now());
}

void sock_wfree_bytes(struct sock *sk, uint32_t truesize)
{
    assert(sk->wmem_alloc >= truesize);
    sk->wmem_alloc -= truesize;
    if (sk->wfree)
        sk->wfree(sk);
    /* sock_def_write_space wakes a writer once half the buffer is free */
    if (sk->writer && sk->wmem_alloc * 2 <= sk->sndbuf)
        wake(&sk->writer, sk->writer_core);
}

static void sock_rfree(struct skb *skb)
{
    if (sockets_gone)
        return;
    assert(skb->sk->rmem_alloc >= skb->truesize);     /* charged on queueing, freed once */
    skb->sk->rmem_alloc -= skb->truesize;
    INVARIANT(skb->sk->rmem_alloc >= skb->sk->rq.bytes);   /* it had left the queue */
}

bool sock_queue_rcv(struct sock *sk, struct skb *skb, struct core *c)
{
    (void)c;
    /* __sock_queue_rcv_skb: refuse once rmem_alloc has reached rcvbuf
     * (the check is before adding, so one skb may overshoot) */
    if (sk->rmem_alloc >= sk->rcvbuf) {
        sk->rcvbuf_errors++;
        return false;
    }
    skb->sk = sk;
    skb->destructor = sock_rfree;
    sk->rmem_alloc += skb->truesize;
    skbq_push(&sk->rq, skb);
    /* charged while queued, and while the reader copies one it popped */
    INVARIANT(sk->rmem_alloc >= sk->rq.bytes);
    if (sk->data_ready)
        sk->data_ready(sk);
    if (sk->reader)
        wake(&sk->reader, sk->reader_core);
    return true;
}

void sock_wait_data(struct sock *sk, struct cpu_task *t, struct core *c)
{
    sk->reader = t;
    sk->reader_core = c;
}

void sock_wait_space(struct sock *sk, struct cpu_task *t, struct core *c)
{
    sk->writer = t;
    sk->writer_core = c;
}

uint64_t sock_rq_truesize(const struct sock *sk)
{
    uint64_t sum = 0;
    for (const struct skb *skb = sk->rq.head; skb; skb = skb->next)
        sum += skb->truesize;
    return sum;
}

bool sock_reader_sleep(struct sock *sk, struct cpu_task *t, struct core *c, bool *slept)
{
    sock_wait_data(sk, t, c);
    *slept = true;
    return false;
}

void sock_reader_resume(struct sock *sk, struct core *c, int sym_schedule, bool *slept)
{
    if (!*slept)
        return;
    host_charge(sk->host, c, sym_schedule);
    *slept = false;
}
