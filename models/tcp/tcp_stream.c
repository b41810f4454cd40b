/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_stream.c - the applications: a netperf TCP_STREAM (`tcp_stream`,
 * netperf -l LENGTH -m SEND -M RECV) and an iperf3 bulk flow (`tcp_iperf3`,
 * iperf3 -t TIME -l LEN). The client connects at `start`; from the moment
 * connect() returns it writes as fast as the socket takes data (netperf's
 * 16 KB sends into a 500 MB tcp_wmem never block, so the source is modelled
 * as unlimited) for LENGTH, then stops writing. The server's reader
 * (netserver) sleeps in recv(RECV bytes), wakes as soon as in-order data
 * is queued (SO_RCVLOWAT 1), copies skb by skb and runs DRS after each
 * (tcp.md §2, §3.8).
 *
 * With `bytes` (iperf3 -n, netperf -l -BYTES) the client writes that many
 * bytes instead and stops: the flow's completion time, from connect() to
 * the reader having read the last byte, is a row of the message table
 * (kind "bulk"; tcp-messages.md). The model sends full segments only, so
 * the last one goes out full: at most MSS - 1 bytes more on the wire than
 * the application wrote, none more to the reader.
 *
 * Keys: length / time (5s / 10s), bytes (0: by time), send_size (16K / 128K: recorded, the
 * source is unlimited), recv_size (87380 / 128K), port (12866 / 5201),
 * cpu (sender core 0), reader_cpu (last core), trace_interval (10ms;
 * 0 = no traces), ss_interval (0 = none: ss -tmi samples of both
 * sockets, tcp_ss.c), drs_log (path of a DRS call log, empty = none).
 * Goodput rows count what the reader got. Counters flow.N.goodput_bps
 * (bytes read in [connect, connect + length] x 8 / length, the spec's
 * figure) and flow.N.netperf_bps (bytes written / time until all ACKed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "models/tcp/tcp_msg.h"
#include "sim/config.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

struct tcp_app {
    struct flow *f;
    struct sim *s;
    struct tcp_sock *cli, *lis, *srv;
    uint64_t send_size, recv_size;
    uint64_t nbytes, read_total;  /* `bytes` (0: by time), and what the reader has had of them */
    simtime_t t_done;             /* the reader had all nbytes */
    uint64_t rtos0;
    simtime_t length, trace_iv, ss_iv;
    simtime_t t0, t_end, t_acked;
    struct core *tx_core, *rx_core;
    struct cpu_task reader, starter;
    struct event ev_stop, ev_trace, ev_ss;
    bool rx_slept;
    uint64_t read_in_window, goodput_bps, netperf_bps, written;
    struct tcp_stats tx_st, rx_st;
    char pre_snd[32], pre_rcv[32];
    const char *drs_log;
    int sym_schedule;
};

/* The last of `bytes` is read: the flow's completion time, from the
 * connect() call, against its ideal (the route's base RTT and the bytes'
 * serialisation at its bottleneck rate). */
static void bytes_done(struct tcp_app *a, simtime_t now)
{
    simtime_t d1, d2;
    uint64_t r1, r2;
    a->t_done = now;
    tcp_path(a->f->from, a->f->to, &d1, &r1);
    tcp_path(a->f->to, a->f->from, &d2, &r2);
    struct sink_message m = {
        .flow = a->f->id, .id = 1, .kind = "bulk", .size = a->nbytes, .t_start = a->f->start, .t_end = now,
        .ideal = d1 + d2 + tcp_wire_time(a->nbytes, a->cli->mss, tcp_mss_to_mtu(a->cli) - a->cli->mss, r1),
        .rtos = (uint32_t)(a->cli->st.rtos + a->srv->st.rtos),
    };
    sim_emit_message(a->s, &m);
}

static bool reader_slice(struct cpu_task *t, struct core *c)
{
    struct tcp_app *a = t->ctx;
    struct tcp_sock *tp = a->srv;
    if (!tp) {                              /* not accepted yet: woken by the accept */
        a->rx_slept = true;
        return false;
    }
    if (tp->rcv_nxt == tp->copied_seq)
        return sock_reader_sleep(&tp->sk, t, c, &a->rx_slept);
    sock_reader_resume(&tp->sk, c, a->sym_schedule, &a->rx_slept);
    uint64_t n = tcp_recvmsg(tp, a->recv_size, c);
    simtime_t now = core_now(c);
    if (a->nbytes) {
        n = n < a->nbytes - a->read_total ? n : a->nbytes - a->read_total;   /* not the short slot's rest */
        a->read_total += n;
        if (a->read_total == a->nbytes && !a->t_done)
            bytes_done(a, now);
    }
    flow_deliver(a->f, n);
    if (a->t0 && now <= a->t0 + a->length)
        a->read_in_window += n;
    if (tp->rcv_nxt != tp->copied_seq)
        return true;
    return sock_reader_sleep(&tp->sk, t, c, &a->rx_slept);   /* recv() blocks again */
}

static void on_accept(struct tcp_sock *l, struct tcp_sock *child)
{
    struct tcp_app *a = l->app;
    a->srv = child;
    child->flow = a->f;
    child->trace_prefix = a->trace_iv ? a->pre_rcv : NULL;
    if (*a->drs_log) {
        child->drs_log = fopen(a->drs_log, "w");
        if (child->drs_log)
            fprintf(child->drs_log, "# t elapsed copied space r old_rcvbuf new_rcvbuf window_clamp rcvq_space rcv_rtt_ms\n");
    }
    core_wake(a->rx_core, &a->reader, ctx_now());
}

static void on_connect(struct tcp_sock *tp)
{
    struct tcp_app *a = tp->app;
    simtime_t now = ctx_now();
    a->t0 = now;
    if (a->nbytes) {                      /* one write of them all: the source is not limited by time */
        tcp_write_bytes(tp, a->nbytes);   /* its last segment short, if it ends inside one */
        a->written = a->nbytes;
        return;                           /* the handshake's end sends what the window allows */
    }
    tp->app_infinite = true;
    evq_push(&a->s->q, &a->ev_stop, now + a->length);
}

static void stop_fire(struct event *ev)
{
    struct tcp_app *a = ev->ctx;
    struct tcp_sock *tp = a->cli;
    tp->app_infinite = false;
    tp->write_seq = tp->snd_nxt;          /* the last write */
    if (tp->snd_una >= tp->write_seq)
        tp->all_acked_at = ev->time;
    a->written = tp->write_seq - 1;
    a->t_end = ev->time;
}

/* The flow's work is over: its last byte written (its bytes, or at its
 * stop) and every one acknowledged. */
static bool app_done(const struct tcp_app *a)
{
    return a->written && a->cli->snd_una >= a->cli->write_seq;
}

/* The traces sample a flow while it lives: once it has written its last
 * byte (its bytes, or at its stop) and all are acknowledged, this sample
 * is its last, so that a run of many short flows writes series for their
 * traffic, not for the run's length. */
static void trace_fire(struct event *ev)
{
    struct tcp_app *a = ev->ctx;
    tcp_trace(a->cli, true);
    if (a->srv)
        tcp_trace(a->srv, false);
    if (app_done(a))
        return;
    evq_push(&a->s->q, &a->ev_trace, ev->time + a->trace_iv);
}

/* ss -tmi on each end's host: the client first, the accepted socket
 * once it exists */
static void ss_fire(struct event *ev)
{
    struct tcp_app *a = ev->ctx;
    tcp_ss(a->cli, a->pre_snd);
    if (a->srv)
        tcp_ss(a->srv, a->pre_rcv);
    if (ev->time + a->ss_iv <= a->s->duration)
        evq_push(&a->s->q, &a->ev_ss, ev->time + a->ss_iv);
}

static bool starter(struct cpu_task *t, struct core *c)
{
    struct tcp_app *a = t->ctx;
    tcp_connect(a->cli, a->f->to->id, a->lis->sk.port, c);
    return false;
}

static void setup_common(struct sim *s, struct flow *f, struct cfg_section *sec, bool bulk)
{
    struct tcp_app *a;
    APP_STATE(a, s, f);
    a->length = cfg_time(sec, bulk ? "time" : "length", bulk ? "10s" : "5s", PS_PER_MS, 1000000 * PS_PER_S,
                         "how long the client writes (tcp_iperf3: time, -t; tcp_stream: length, -l)");
    a->nbytes = cfg_size(sec, "bytes", "0", 0, 1ULL << 46,
                         bulk ? "bytes to send then stop (iperf3 -n); 0: for `time`"
                              : "bytes to send then stop (netperf -l -BYTES); 0: for `length`");
    if (a->nbytes && cfg_has(sec, bulk ? "time" : "length"))
        cfg_error(sec, "bytes", "a flow sends either `bytes` or for `%s`, not both", bulk ? "time" : "length");
    a->send_size = cfg_size(sec, "send_size", bulk ? "128K" : "16K", 1, 1ULL << 30,
                            "bytes per write (-m / -l); recorded only: the source is modelled as unlimited");
    a->recv_size = cfg_size(sec, "recv_size", bulk ? "128K" : "87380", 1, 1ULL << 30,
                            "bytes per read of the server (netperf -M; netserver's default 87380, iperf3's 128K)");
    uint16_t port = flow_server_port(f, sec, IPPROTO_TCP_, bulk ? 5201 : 12866,
                                     "{the tool's, or the next free one up|1 to 65535} server port (tcp_stream: "
                                     "netperf's 12866, tcp_iperf3: iperf3's 5201; taken: the next free one)");
    int cpu = (int)cfg_int(sec, "cpu", "0", 0, f->from->ncores - 1,
                           "{0|0 to cores - 1} core of the sending process on the from host");
    char def[16];
    snprintf(def, sizeof def, "%d", f->to->ncores - 1);
    int rcpu = (int)cfg_int(sec, "reader_cpu", def, 0, f->to->ncores - 1,
                            "{the last core|0 to cores - 1} core of the reading process on the to host");
    a->trace_iv = cfg_period(sec, "trace_interval", "10ms", PS_PER_S * 1000,
                             "period of the per-socket series (cwnd, rwnd, rcvbuf, ...); 0 = none, else at least 1us");
    a->ss_iv = cfg_period(sec, "ss_interval", "0", PS_PER_S * 1000,
                          "period of the ss -tmi samples of both sockets: to the run's ss file (--ss) and series "
                          "flow.N.snd.ss.*, flow.N.rcv.ss.*; 0 = none, else at least 1us");
    a->drs_log = cfg_str(sec, "drs_log", "", "path of a log of every receive-buffer autotuning call (empty: none)");
    static const char *const fams[] = { "inet", "inet6", NULL };
    uint8_t family = cfg_choice(sec, "family", "inet", fams,
                                "address family of both sockets: inet (IPv4) or inet6 (IPv6; a 20-byte larger "
                                "header, MSS = MTU - 60)") ? NET_IPV6 : NET_IPV4;
    uint32_t path = f->from != f->to ? ip_route_min_mtu(f->from, f->to->id) : 0;
    if (family == NET_IPV6 && path && path < IPV6_MIN_MTU)
        cfg_error(sec, "family", "inet6 needs every link on the route to carry %u bytes (RFC 8200); the "
                  "smallest MTU on it is %u", IPV6_MIN_MTU, path);
    if (f->from == f->to)
        cfg_error(sec, "to", "a TCP flow needs two hosts");
    if (cfg_errors(s->cfg))
        return;
    a->lis = tcp_sock_new(f->to, port);
    a->cli = tcp_sock_new(f->from, host_alloc_port(f->from));
    if (!a->lis || !a->cli) {
        cfg_error(sec, "app", "TCP is not attached to these hosts");
        return;
    }
    a->lis->sk.family = a->cli->sk.family = family;
    a->lis->app = a;
    a->lis->flow = f;
    tcp_listen(a->lis, on_accept);
    a->cli->app = a;
    a->cli->flow = f;
    a->cli->on_connect = on_connect;
    snprintf(a->pre_snd, sizeof a->pre_snd, "flow.%d.snd.", f->id);
    snprintf(a->pre_rcv, sizeof a->pre_rcv, "flow.%d.rcv.", f->id);
    a->cli->trace_prefix = a->trace_iv ? a->pre_snd : NULL;
    a->tx_core = &f->from->cores[cpu];
    a->rx_core = &f->to->cores[rcpu];
    a->cli->core = a->tx_core;
    a->reader = (struct cpu_task){ .run = reader_slice, .ctx = a, .cls = CPU_PROCESS, .name = bulk ? "iperf3_reader" : "netserver" };
    a->starter = (struct cpu_task){ .run = starter, .ctx = a, .cls = CPU_PROCESS, .name = bulk ? "iperf3" : "netperf" };
    event_init(&a->ev_stop, stop_fire, a);
    event_init(&a->ev_trace, trace_fire, a);
    event_init(&a->ev_ss, ss_fire, a);
    a->sym_schedule = cpu_sym("schedule");
    f->counts_goodput = true;
    snprintf(f->desc, sizeof f->desc, "%s %s -> %s, %s %s", bulk ? "tcp_iperf3" : "tcp_stream", f->from->name,
             f->to->name, a->cli->cc->name, f->to->sec ? a->lis->drs->name : "");
    char name[96];
    snprintf(name, sizeof name, "flow.%d.snd.", f->id);
    tcp_register_counters(s, &a->tx_st, name);
    snprintf(name, sizeof name, "flow.%d.rcv.", f->id);
    tcp_register_counters(s, &a->rx_st, name);
    tcp_offload_register_counters(s, &a->tx_st, a->pre_snd, f->from);
    tcp_offload_register_counters(s, &a->rx_st, a->pre_rcv, f->to);
    if (tcp_ecn_syn_asks(a->cli)) {       /* ECN can be negotiated only if the client asks */
        tcp_ecn_register_counters(s, &a->tx_st, a->pre_snd);
        tcp_ecn_register_counters(s, &a->rx_st, a->pre_rcv);
    }
    sim_counterf(s, &a->goodput_bps, false, "flow.%d.goodput_bps", f->id);
    sim_counterf(s, &a->netperf_bps, false, "flow.%d.netperf_bps", f->id);
}

static void setup_stream(struct sim *s, struct flow *f, struct cfg_section *sec) { setup_common(s, f, sec, false); }
static void setup_bulk(struct sim *s, struct flow *f, struct cfg_section *sec) { setup_common(s, f, sec, true); }

static void start(struct sim *s, struct flow *f)
{
    struct tcp_app *a = f->priv;
    core_wake(a->tx_core, &a->starter, f->start);
    if (a->trace_iv)
        evq_push(&a->s->q, &a->ev_trace, f->start + a->trace_iv);
    if (a->ss_iv && f->start + a->ss_iv <= s->duration)
        evq_push(&a->s->q, &a->ev_ss, f->start + a->ss_iv);
}

static void finish(struct sim *s, struct flow *f)
{
    struct tcp_app *a = f->priv;
    (void)s;
    if (!a->cli)
        return;
    a->tx_st = a->cli->st;
    if (a->srv)
        a->rx_st = a->srv->st;
    if (a->nbytes) {
        if (a->t_done > a->t0)
            a->goodput_bps = (uint64_t)((double)a->nbytes * 8 / time_to_s(a->t_done - a->t0));
    } else if (a->length)
        a->goodput_bps = (uint64_t)((double)a->read_in_window * 8 / time_to_s(a->length));
    a->t_acked = a->cli->all_acked_at;
    if (a->t_acked > a->t0 && a->written)
        a->netperf_bps = (uint64_t)((double)a->written * 8 / time_to_s(a->t_acked - a->t0));
}

/* iperf3's stream figures (iperf_tcp.c, tcp_info): the sender's. Bytes
 * sent are those the unlimited writer has had sent, once, by now: the
 * model keeps no send queue beyond what it sends (iperf3 counts the bytes
 * its write() calls returned, a send buffer more). */
static void info(const struct flow *f, struct flow_info *o)
{
    const struct tcp_app *a = f->priv;
    const struct tcp_sock *tp = a->cli;
    uint64_t w = tp->app_infinite ? tp->snd_nxt : tp->write_seq;
    o->protocol = "TCP";
    o->local_addr = f->from->id;
    o->remote_addr = f->to->id;
    o->local_port = tp->sk.port;
    o->remote_port = a->lis->sk.port;
    o->blksize = (uint32_t)a->send_size;
    o->mss = tp->mss;
    o->congestion = tp->cc->name;
    o->sndbuf = (uint32_t)tp->th->wmem[1];          /* iperf3 reads SO_SNDBUF before connect() */
    o->rcvbuf = a->srv ? a->srv->sk.rcvbuf : a->lis->sk.rcvbuf;
    o->bytes_sent = w > 1 ? w - 1 : 0;                 /* the SYN takes sequence number 0 */
    if (a->nbytes && o->bytes_sent > a->nbytes)
        o->bytes_sent = a->nbytes;                     /* the short last slot's rest is no byte */
    o->retransmits = tp->st.retrans;
    o->snd_cwnd = (uint64_t)tp->snd_cwnd * tp->mss;  /* tcpi_snd_cwnd x tcpi_snd_mss */
    o->snd_wnd = tp->snd_wnd;
    o->rtt_us = (uint32_t)(tp->srtt / PS_PER_US);      /* tcpi_rtt */
    o->rttvar_us = (uint32_t)(tp->mdev / PS_PER_US);   /* tcpi_rttvar: mdev_us >> 2, the mean deviation */
    o->pmtu = ip_path_mtu(f->from, f->to->id, tp->sk.family);
    o->done = app_done(a);
}

const struct app_ops tcp_stream_app = {
    .name = "tcp_stream",
    .doc = "netperf TCP_STREAM -l LENGTH: unlimited writer for `length`, netserver reader of recv_size",
    .setup = setup_stream,
    .start = start,
    .finish = finish,
    .info = info,
};

const struct app_ops tcp_iperf3_app = {
    .name = "tcp_iperf3",
    .doc = "iperf3 -t TIME: bulk TCP transfer for `time`, reader of recv_size (128K)",
    .setup = setup_bulk,
    .start = start,
    .finish = finish,
    .info = info,
};
