/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * iperf3.c - `iperf3 --sctp -c R -l LEN` against `iperf3 -s` (3.0.1), the
 * workload of seed 000 (sctp.md A.1, A.8). The client writes LEN-byte
 * messages with blocking sendmsg and reports the bytes it wrote per
 * interval, on its own late-ticking clock (iperf3.h); the server selects
 * and reads one message per read(). The flow's interval rows are the
 * client's, as in the seed's tables; the server's goodput is a counter.
 *
 * Keys: len (1452: fills a 1500-byte MTU with one DATA chunk), ip (4 | 6),
 * cpu (client core, 0), server_cpu (1; 0 puts the reader on the RX core),
 * port (5201), sndbuf / rcvbuf (SO_SNDBUF / SO_RCVBUF requests on both
 * ends, 0 = the sysctl default 212992), trace_interval (10ms; 0 = no
 * traces): rmem, rwnd, a_rwnd, backlog, queues, peer rwnd, cwnd, flight,
 * outstanding, wmem (sk_wmem_alloc), wmem_queued, rto as series (cwnd
 * of the active path, rto of the primary, flight summed over the paths); paths (1:
 * peer addresses of a multi-homed association, app.c); ss_interval (0 =
 * none: ss -Smi samples of both ends, sctp_ss.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include "models/sctp/iperf3.h"
#include "models/sctp/sctp.h"
#include "models/sctp/sctp_ss.h"
#include "sim/config.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

struct iperf3 {
    struct sctp_assoc cli, srv;
    struct flow *f;
    struct sim *s;
    struct iperf3_ticker k;
    uint64_t written, intervals, zero_intervals, server_bytes;
    simtime_t trace_iv;
    struct event trace;
    struct sctp_ss ss;
};

void iperf3_tick(struct iperf3_ticker *k, simtime_t now, iperf3_emit_fn emit, void *ctx)
{
    if (now < k->next_tick)
        return;
    emit(ctx, k->istart, now, k->bytes);
    k->bytes = 0;
    k->istart = now;
    k->next_tick += k->interval;
    while (now >= k->next_tick) {
        emit(ctx, now, now, 0);
        k->next_tick += k->interval;
    }
}

static void emit(void *ctx, simtime_t t0, simtime_t t1, uint64_t bytes)
{
    struct iperf3 *p = ctx;
    p->intervals++;
    if (t1 == t0)
        p->zero_intervals++;
    sim_emit_interval(p->s, p->f->id, t0, t1, bytes, NULL);
}

static void written(struct sctp_assoc *a, uint32_t bytes, struct core *c)
{
    struct iperf3 *p = a->hooks.ctx;
    p->written += bytes;
    p->k.bytes += bytes;
    iperf3_tick(&p->k, core_now(c), emit, p);
}

static void read_(struct sctp_assoc *a, uint32_t bytes, struct core *c)
{
    struct iperf3 *p = a->hooks.ctx;
    (void)c;
    p->server_bytes += bytes;
    flow_deliver(p->f, bytes);
}

static void trace(struct event *ev)
{
    struct iperf3 *p = ev->ctx;
    struct sim *s = p->s;
    struct sctp_assoc *r = &p->srv, *t = &p->cli;
    sim_series(s, "sctp.rmem", (double)r->rmem);
    sim_series(s, "sctp.rwnd", r->rwnd);
    sim_series(s, "sctp.a_rwnd", r->a_rwnd);
    sim_series(s, "sctp.backlog_len", (double)r->backlog_len);
    sim_series(s, "sctp.rq_len", r->rq_n);
    sim_series(s, "sctp.lobby_len", r->lobby_n);
    sim_series(s, "sctp.peer_rwnd", t->peer_rwnd);
    sim_series(s, "sctp.cwnd", t->tp[t->active].cwnd);
    sim_series(s, "sctp.flight_size", sctp_flight(t));
    sim_series(s, "sctp.outstanding", t->outstanding);
    sim_series(s, "sctp.wmem", t->wmem_alloc);
    sim_series(s, "sctp.wmem_queued", t->wmem_queued);
    sim_series(s, "sctp.rto_ms", (double)t->tp[0].rto);
    if (s->q.now + p->trace_iv <= s->duration)
        evq_push(&s->q, &p->trace, s->q.now + p->trace_iv);
}

static void setup(struct sim *s, struct flow *f, struct cfg_section *sec)
{
    struct iperf3 *p;
    APP_STATE(p, s, f);
    static const char *const ips[] = { "4", "6", NULL };
    uint8_t family = cfg_choice(sec, "ip", "4", ips,
                                "IP version of the association: 4 or 6 (iperf3 -4 / -6)") ? NET_IPV6 : NET_IPV4;
    uint32_t len = (uint32_t)cfg_size(sec, "len", "1452", 1, 65000,
                                      "bytes per message (iperf3 -l; 1452 fills a 1500-byte MTU with one DATA chunk)");
    p->trace_iv = cfg_period(sec, "trace_interval", "10ms", 3600 * PS_PER_S,
                             "period of the association's series (rwnd, cwnd, flight, rto, ...); 0 = none, else at "
                             "least 1us");
    sctp_app_pair(f, sec, &p->cli, &p->srv, family, "len", len, "5201");
    sctp_ss_setup(&p->ss, s, f, sec, &p->cli, &p->srv);
    p->cli.hooks = (struct sctp_app_hooks){ .written = written, .ctx = p };
    p->srv.hooks = (struct sctp_app_hooks){ .read = read_, .ctx = p };
    event_init(&p->trace, trace, p);
    f->counts_goodput = false;   /* the client's own interval clock reports */
    snprintf(f->desc, sizeof f->desc, "sctp_iperf3 %s -> %s, -%c -l %u, rwnd %s", f->from->name, f->to->name,
             family == NET_IPV6 ? '6' : '4', len, p->srv.sh->rwnd->name);
    sctp_assoc_counters(s, &p->cli, &p->srv, f->id);
    sim_counterf(s, &p->intervals, false, "flow.%d.iperf3.intervals", f->id);
    sim_counterf(s, &p->zero_intervals, false, "flow.%d.iperf3.zero_length_intervals", f->id);
    sim_counterf(s, &p->server_bytes, false, "flow.%d.iperf3.server_bytes", f->id);
}

static void start(struct sim *s, struct flow *f)
{
    struct iperf3 *p = f->priv;
    sim_emit_flow(s, f->id, f->desc);
    iperf3_ticker_init(&p->k, f->start, s->interval);
    sctp_procs_start(&p->cli, &p->srv, f->start);
    if (p->trace_iv)
        evq_push(&s->q, &p->trace, f->start);
    sctp_ss_start(&p->ss, f->start);
}

static void finish(struct sim *s, struct flow *f)
{
    struct iperf3 *p = f->priv;
    simtime_t end = f->stop < s->q.now ? f->stop : s->q.now;
    /* the last partial interval, if the client's clock had not closed it */
    if (end > p->k.istart && (end - p->k.istart) * 100 >= s->interval)
        emit(p, p->k.istart, end, p->k.bytes);
}

const struct app_ops sctp_iperf3_app = {
    .name = "sctp_iperf3",
    .doc = "iperf3 --sctp -l LEN (3.0.1): blocking writes, client-side intervals with late ticks",
    .setup = setup,
    .start = start,
    .finish = finish,
};
