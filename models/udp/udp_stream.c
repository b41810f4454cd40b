/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udp_stream.c - a netperf UDP_STREAM / iperf3 -u flow: a sender that
 * writes msg_size datagrams as fast as its socket allows (or at `rate`,
 * like iperf3 -b), and a reader on the receiver that reads them one
 * recvmsg at a time. Goodput is what the reader got.
 *
 * Keys: msg_size (1472: fills a 1500-byte MTU), rate (max), sndbuf and
 * rcvbuf (SO_SNDBUF/SO_RCVBUF requests, 0 = sysctl default), port (5201),
 * family (inet | inet6), cpu (sender core, 0), reader_cpu (receiver core,
 * default the last one, away from RX queue 0), pace_jitter (0: with a
 * `rate`, each datagram leaves at its slot +- a uniform jitter, like a
 * netperf loop whose iterations vary; ipfrag.md 10.1 uses 300ns),
 * start_phase (off: on, the first datagram leaves at a uniform random
 * offset within one period, so that two paced flows do not start in step),
 * pmtudisc (IP_MTU_DISCOVER: want, the Linux default: DF on datagrams that
 * fit the path, larger ones fragmented here; do: always DF, a datagram
 * larger than the path fails with EMSGSIZE (flow.N.emsgsize); dont:
 * never DF, routers fragment).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/udp/udp.h"
#include "sim/arith.h"
#include "sim/config.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

struct udp_stream {
    struct flow *f;
    struct sim *s;
    struct sock tx, rx;
    uint32_t msg_size;
    uint64_t rate;               /* bit/s of payload, 0 = as fast as possible */
    simtime_t period;
    struct core *tx_core, *rx_core;
    struct cpu_task sender, reader;
    struct event pace;
    bool tx_slept, rx_slept;
    uint64_t sent, send_errors, emsgsize, received;
    /* iperf3's receiver (iperf_udp_recv): the highest sequence number,
     * those missing below it, those arriving below it, RFC 1889 jitter */
    uint64_t packet_count, cnt_error, outoforder;
    simtime_t prev_transit;
    double jitter_s;
    int sym_schedule;
    simtime_t jitter, phase;     /* pacing jitter (+-), start offset */
    uint64_t rnd;                /* splitmix64 state, seeded from (run seed, "flow.N.pace") */
};

/* The pacing stream: splitmix64 over a seed derived the engine's way
 * (rng_derive_seed), so it needs no allocation and the flow's struct is
 * still freed whole by sim_free. Uniform in [0, 1). */
ARITH_WRAPS static double pace_uniform(struct udp_stream *u)   /* mod 2^64 */
{
    uint64_t z = (u->rnd += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

static bool sender_slice(struct cpu_task *t, struct core *c)
{
    struct udp_stream *u = t->ctx;
    struct host *h = u->f->from;
    if (core_now(c) >= u->f->stop)
        return false;
    if (!sock_writable(&u->tx)) {
        sock_wait_space(&u->tx, t, c);
        u->tx_slept = true;
        return false;
    }
    if (u->tx_slept) {
        host_charge(h, c, u->sym_schedule);
        u->tx_slept = false;
    }
    struct udp_app_hdr hdr = { .seq = u->sent + 1, .sent = core_now(c) };
    int rc = udp_sendmsg(&u->tx, u->f->to->id, u->rx.port, u->msg_size, (uint32_t)u->f->id, &hdr, c);
    if (rc == UDP_EMSGSIZE)
        u->emsgsize++;           /* a drop nobody else counts */
    else if (rc)
        u->send_errors++;
    u->sent++;
    if (u->period) {
        simtime_t next = u->f->start + u->phase + (simtime_t)u->sent * u->period;
        if (u->jitter)
            next += (simtime_t)((2.0 * pace_uniform(u) - 1.0) * (double)u->jitter);
        if (next > core_now(c)) {
            evq_push(&u->s->q, &u->pace, next);
            return false;
        }
    }
    return true;
}

static void pace_fire(struct event *ev)
{
    struct udp_stream *u = ev->ctx;
    core_wake(u->tx_core, &u->sender, u->s->q.now);
}

/* iperf_udp_recv's accounting of one datagram read at `now`: a sequence
 * number above the next expected counts the gap as lost, one below it
 * was counted lost and is out of order; the jitter is RFC 1889's running
 * mean of |transit - previous transit|, with gain 1/16. */
static void iperf3_account(struct udp_stream *u, const struct udp_app_hdr *h, simtime_t now)
{
    if (!h->seq)
        return;
    if (h->seq >= u->packet_count + 1) {
        if (h->seq > u->packet_count + 1)
            u->cnt_error += h->seq - 1 - u->packet_count;
        u->packet_count = h->seq;
    } else {
        u->outoforder++;
        if (u->cnt_error > 0)
            u->cnt_error--;
    }
    simtime_t transit = now - h->sent;
    if (u->received > 1) {
        simtime_t d = transit - u->prev_transit;
        double ds = time_to_s(d < 0 ? -d : d);
        u->jitter_s += (ds - u->jitter_s) / 16.0;
    }
    u->prev_transit = transit;
}

static bool reader_slice(struct cpu_task *t, struct core *c)
{
    struct udp_stream *u = t->ctx;
    if (!u->rx.rq.head)
        return sock_reader_sleep(&u->rx, t, c, &u->rx_slept);
    sock_reader_resume(&u->rx, c, u->sym_schedule, &u->rx_slept);
    struct udp_app_hdr hdr = { 0 };   /* udp_recvmsg fills it: rq is not empty */
    int64_t n = udp_recvmsg(&u->rx, &hdr, c);
    flow_deliver(u->f, (uint64_t)n);
    u->received++;
    iperf3_account(u, &hdr, core_now(c));
    return true;
}

static void setup(struct sim *s, struct flow *f, struct cfg_section *sec)
{
    struct udp_stream *u;
    APP_STATE(u, s, f);
    static const char *const fams[] = { "inet", "inet6", NULL };
    uint8_t family = cfg_choice(sec, "family", "inet", fams,
                                "address family: inet (IPv4) or inet6 (IPv6)") ? NET_IPV6 : NET_IPV4;
    u->msg_size = (uint32_t)cfg_size(sec, "msg_size", "1472", 1, 65507,
                                     "bytes per datagram (1472 fills a 1500-byte MTU)");
    const char *rate = cfg_str(sec, "rate", "max",
            "{max|max or a rate} sending rate, as iperf3 -b (max: as fast as the socket takes them)");
    if (strcmp(rate, "max"))
        u->rate = cfg_rate(sec, "rate", "max", NULL);   /* documented as first read */
    uint64_t sndbuf = cfg_size(sec, "sndbuf", "0", 0, 1ULL << 31, "SO_SNDBUF requested; 0 = net.core.wmem_default");
    uint64_t rcvbuf = cfg_size(sec, "rcvbuf", "0", 0, 1ULL << 31, "SO_RCVBUF requested; 0 = net.core.rmem_default");
    uint16_t port = flow_server_port(f, sec, IPPROTO_UDP_, 5201,
                                     "{5201, or the next free one up|1 to 65535} receiver port (iperf3's 5201)");
    int cpu = (int)cfg_int(sec, "cpu", "0", 0, f->from->ncores - 1, "{0|0 to cores - 1} core of the sending process");
    char def[16];
    snprintf(def, sizeof def, "%d", f->to->ncores - 1);
    int rcpu = (int)cfg_int(sec, "reader_cpu", def, 0, f->to->ncores - 1,
                            "{the last core|0 to cores - 1} core of the reading process (away from RX queue 0)");
    static const char *const disc[] = { "dont", "want", "do", NULL };
    uint8_t pmtudisc = (uint8_t)cfg_choice(sec, "pmtudisc", "want", disc,
            "IP_MTU_DISCOVER: want (Linux default: DF when it fits), do (always DF, EMSGSIZE), dont (never DF)");
    uint32_t max = ip_max_unfragmented(f->from, f->to->id, family) - UDP_HDR_LEN;
    if (pmtudisc == IP_PMTUDISC_DO && u->msg_size > max)
        cfg_error(sec, "msg_size", "got %u with pmtudisc = do: more than the %u bytes that fit the first hop's MTU, "
                  "every send would fail with EMSGSIZE", u->msg_size, max);
    /* fragments, wherever they are made, need reassembly at the receiver,
     * which the model has for IPv4 only (models/ipfrag) */
    uint32_t path = ip_route_min_mtu(f->from, f->to->id);
    uint32_t path_max = path - ip_hdr_len(family) - UDP_HDR_LEN;
    if (path && family == NET_IPV6 && path < IPV6_MIN_MTU)      /* path 0: no route, an error of its own */
        cfg_error(sec, "family", "inet6 needs every link on the route to carry %u bytes (RFC 8200); the "
                  "smallest MTU from %s to %s is %u", IPV6_MIN_MTU, f->from->name, f->to->name, path);
    else if (path && u->msg_size > path_max && (family == NET_IPV6 || !f->to->defrag))
        cfg_error(sec, "msg_size", "got %u, more than the %u bytes that fit the smallest MTU on the route (%u): "
                  "the receiver would need %s", u->msg_size, path_max, path,
                  family == NET_IPV6 ? "IPv6 reassembly, which the model does not have"
                                     : "IP reassembly, which comes with the ipfrag model");
    if (u->rate)
        u->period = time_serialise(u->msg_size, u->rate);
    u->jitter = cfg_time(sec, "pace_jitter", "0", 0, PS_PER_S,
                         "with a rate: each datagram leaves at its slot +- a uniform jitter");
    bool phase = cfg_bool(sec, "start_phase", "off",
                          "with a rate: the first datagram leaves at a random offset within one period");
    char sname[48];
    snprintf(sname, sizeof sname, "flow.%d.pace", f->id);
    u->rnd = rng_derive_seed(s->seed, sname);
    if (phase)
        u->phase = (simtime_t)(pace_uniform(u) * (double)u->period);
    if ((u->jitter || phase) && !u->rate)
        cfg_error(sec, u->jitter ? "pace_jitter" : "start_phase", "needs a `rate` (pacing) to apply to");

    sock_init(&u->tx, f->from, IPPROTO_UDP_, host_alloc_port(f->from));
    sock_init(&u->rx, f->to, IPPROTO_UDP_, port);
    u->tx.family = u->rx.family = family;
    u->tx.pmtudisc = pmtudisc;
    sock_set_bufs(&u->tx, 0, sndbuf);
    sock_set_bufs(&u->rx, rcvbuf, 0);
    u->tx_core = &f->from->cores[cpu];
    u->rx_core = &f->to->cores[rcpu];
    u->sender = (struct cpu_task){ .run = sender_slice, .ctx = u, .cls = CPU_PROCESS, .name = "udp_stream" };
    u->reader = (struct cpu_task){ .run = reader_slice, .ctx = u, .cls = CPU_PROCESS, .name = "udp_reader" };
    event_init(&u->pace, pace_fire, u);
    u->sym_schedule = cpu_sym("schedule");
    f->counts_goodput = true;
    snprintf(f->desc, sizeof f->desc, "udp_stream %s -> %s, %u B messages", f->from->name, f->to->name, u->msg_size);

    sim_counterf(s, &u->sent, false, "flow.%d.datagrams_sent", f->id);
    sim_counterf(s, &u->received, false, "flow.%d.datagrams_received", f->id);
    /* SndbufErrors: the drop itself is counted where it happened */
    sim_counterf(s, &u->send_errors, false, "flow.%d.send_errors", f->id);
    /* refused by sendmsg: counted nowhere else */
    sim_counterf(s, &u->emsgsize, true, "flow.%d.emsgsize", f->id);
    sim_counterf(s, &u->rx.rcvbuf_errors, true, "flow.%d.udp_rcvbuf_errors", f->id);
}

static void start(struct sim *s, struct flow *f)
{
    struct udp_stream *u = f->priv;
    (void)s;
    core_wake(u->rx_core, &u->reader, 0);
    core_wake(u->tx_core, &u->sender, f->start + u->phase);
}

/* iperf3 -u's stream figures: datagrams sent, and the receiver's loss,
 * order and jitter (iperf_udp.c). */
static void info(const struct flow *f, struct flow_info *o)
{
    const struct udp_stream *u = f->priv;
    o->protocol = "UDP";
    o->local_addr = f->from->id;
    o->remote_addr = f->to->id;
    o->local_port = u->tx.port;
    o->remote_port = u->rx.port;
    o->blksize = u->msg_size;
    o->target_bitrate = u->rate;
    o->sndbuf = u->tx.sndbuf;
    o->rcvbuf = u->rx.rcvbuf;
    o->bytes_sent = u->sent * u->msg_size;
    o->datagrams_sent = u->sent;
    o->datagrams = u->packet_count;
    o->lost = u->cnt_error;
    o->out_of_order = u->outoforder;
    o->jitter_ms = u->jitter_s * 1e3;
    o->pmtu = ip_path_mtu(f->from, f->to->id, u->tx.family);
}

const struct app_ops udp_stream_app = {
    .name = "udp_stream",
    .doc = "netperf UDP_STREAM / iperf3 -u: datagrams as fast as the socket allows or at `rate`",
    .setup = setup,
    .start = start,
    .finish = NULL,
    .info = info,
};
