/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ping.c - an ICMP echo probe like ping(8): a request every `interval`,
 * `size` data bytes (56). RTT is taken as ping does with SO_TIMESTAMP: from
 * the send call to the kernel's receive timestamp of the reply (set when
 * the driver picks the frame up), so it holds the wire, the far end's
 * stack and interrupt moderation, but not the local wake-up.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/config.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

#define PING_STAMP_OFF 16      /* l4 bytes 0-15: type, code, id, seq; then the time */

struct ping {
    struct flow *f;
    struct sim *s;
    struct sock sk;
    uint32_t size;
    simtime_t interval;
    uint64_t count;
    struct core *core;
    struct cpu_task task;
    struct event tick;
    uint64_t sent, received;
    double min_us, max_us, sum_us, sumsq_us;
    int sym_send;
    char series[48];
};

static bool ping_slice(struct cpu_task *t, struct core *c)
{
    struct ping *p = t->ctx;
    struct host *h = p->f->from;
    host_charge(h, c, p->sym_send);
    struct skb *skb = skb_alloc();
    skb->family = NET_IPV4;
    skb->proto = IPPROTO_ICMP_;
    skb->daddr = p->f->to->id;
    skb->sport = skb->dport = p->sk.port;   /* the echo id */
    skb->l4[0] = 8;                          /* echo request */
    uint16_t seq = (uint16_t)(p->sent + 1);  /* ping's icmp_seq, from 1 (icmp_pcap_write) */
    memcpy(&skb->l4[6], &seq, sizeof seq);
    skb->payload = p->size;
    skb->ip_len = IPV4_HDR_LEN + ICMP_HDR_LEN + p->size;
    skb->truesize = skb_truesize_for(skb->ip_len + 16);
    skb->flow = (uint32_t)p->f->id;
    /* the send time travels in the payload, as ping's does: the cb[]
     * scratch belongs to whichever layer holds the skb (reassembly uses it) */
    simtime_t sent = core_now(c);
    memcpy(&skb->l4[PING_STAMP_OFF], &sent, sizeof sent);
    skb->tx_desc = 1;
    sock_charge_w(&p->sk, skb);
    ip_output(h, skb, c);
    p->sent++;
    simtime_t next = p->f->start + (simtime_t)p->sent * p->interval;
    if ((!p->count || p->sent < p->count) && next < p->f->stop)
        evq_push(&p->s->q, &p->tick, next);
    return false;
}

static void ping_tick(struct event *ev)
{
    struct ping *p = ev->ctx;
    core_wake(p->core, &p->task, p->s->q.now);
}

static void ping_reply(struct sock *sk)
{
    struct ping *p = sk->priv;
    struct skb *skb = skbq_pop(&sk->rq);
    simtime_t sent;
    memcpy(&sent, &skb->l4[PING_STAMP_OFF], sizeof sent);
    double rtt = time_to_us(skb->tstamp - sent);
    p->received++;
    p->min_us = p->received == 1 || rtt < p->min_us ? rtt : p->min_us;
    p->max_us = rtt > p->max_us ? rtt : p->max_us;
    p->sum_us += rtt;
    p->sumsq_us += rtt * rtt;
    sim_series(p->s, p->series, rtt);
    skb_free(skb);
}

static void setup(struct sim *s, struct flow *f, struct cfg_section *sec)
{
    struct ping *p;
    APP_STATE(p, s, f);
    p->size = (uint32_t)cfg_size(sec, "size", "56", 0, 65507, "data bytes per echo request (ping -s; default 56)");
    p->interval = cfg_time(sec, "interval", "1s", PS_PER_US, 3600 * PS_PER_S,
                           "time between requests (ping -i; default 1s)");
    p->count = (uint64_t)cfg_int(sec, "count", "0", 0, INT64_MAX,
                                 "requests to send (ping -c); 0 = until the flow stops");
    int cpu = (int)cfg_int(sec, "cpu", "0", 0, f->from->ncores - 1, "{0|0 to cores - 1} core of the ping process");
    p->core = &f->from->cores[cpu];
    sock_init(&p->sk, f->from, IPPROTO_ICMP_, host_alloc_port(f->from));
    p->sk.priv = p;
    p->sk.data_ready = ping_reply;
    p->task = (struct cpu_task){ .run = ping_slice, .ctx = p, .cls = CPU_PROCESS, .name = "ping" };
    event_init(&p->tick, ping_tick, p);
    p->sym_send = cpu_sym("ping_send");
    snprintf(p->series, sizeof p->series, "flow.%d.rtt_us", f->id);
    snprintf(f->desc, sizeof f->desc, "ping %s -> %s", f->from->name, f->to->name);
    sim_counterf(s, &p->sent, false, "flow.%d.ping_sent", f->id);
    sim_counterf(s, &p->received, false, "flow.%d.ping_received", f->id);
}

static void start(struct sim *s, struct flow *f)
{
    struct ping *p = f->priv;
    evq_push(&s->q, &p->tick, f->start);
}

static void finish(struct sim *s, struct flow *f)
{
    struct ping *p = f->priv;
    if (!p->received) {
        sim_emit_line(s, "[%3d] %s: %llu sent, 0 received", f->id, f->desc, (unsigned long long)p->sent);
        return;
    }
    double n = (double)p->received, avg = p->sum_us / n;
    double var = p->sumsq_us / n - avg * avg;
    sim_emit_line(s, "[%3d] %s: %llu sent, %llu received, rtt min/avg/max/mdev = %.4f/%.4f/%.4f/%.4f us",
                f->id, f->desc, (unsigned long long)p->sent, (unsigned long long)p->received, p->min_us, avg,
                p->max_us, var > 0 ? sqrt(var) : 0.0);
}

const struct app_ops ping_app = {
    .name = "ping",
    .doc = "ICMP echo probe like ping(8): RTT from send to the reply's kernel receive timestamp",
    .setup = setup,
    .start = start,
    .finish = finish,
};
