/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_rpc.c - `app = rpc`: request and response over persistent TCP
 * connections, as an RPC client keeps a channel (or a pool of
 * `connections` of them) to its server. The client
 * asks for a response of a size it draws (response_size, or a size
 * distribution file: size_dist) with a request of request_size bytes;
 * the server answers as soon as it has read the request. Requests go
 * either open-loop, Poisson arrivals at `load` of the path's bottleneck
 * rate (each request at its arrival, however many are outstanding), or
 * closed-loop, `outstanding` at a time, the next one as a response
 * completes. Responses come back in order on each stream (a
 * multiplexed channel without priorities: a short answer waits behind a
 * long one before it, as it would); with a pool, each request goes to the
 * connection with the fewest requests outstanding (an idle one if there
 * is one), as a client's connection pool hands them out, and waits behind
 * only what that connection carries.
 *
 * Each RPC's completion time, from the request's arrival to the client
 * having read the whole response, is one row of the message table (kind
 * "rpc", size the response's bytes), with its ideal: the base RTT of the
 * route plus the request's and the response's serialisation at the
 * bottleneck rate of each way (tcp-messages.md).
 */
#include <stdlib.h>
#include "models/tcp/tcp_msg.h"
#include "sim/config.h"
#include "sim/rng.h"
#include "sim/sizedist.h"

struct rpc_rec {
    simtime_t t0;
    uint64_t size, rtos;
    uint32_t conn;                /* the pool's connection it went on */
};

#define RPC_MAX_CONNS 1024

struct rpc_app {
    struct flow *f;
    struct sim *s;
    struct tcp_mconn **c;         /* the pool: nconn connections */
    uint64_t *busy;               /* requests outstanding on each */
    bool *up;                     /* connected */
    uint32_t nconn, nup;
    uint64_t req_size, resp_size, count, outstanding;
    double load;
    struct sizedist dist;
    bool have_dist;
    struct rng rng;
    simtime_t mean_gap, base_rtt;
    uint64_t rate_up, rate_down;
    struct event ev_arrive;
    struct rpc_rec *recs;         /* by request number - 1 */
    uint64_t issued, done, cap;
    uint64_t done_bytes;
    simtime_t fct_sum;
};

static uint64_t draw_size(struct rpc_app *a)
{
    return a->have_dist ? sizedist_draw(&a->dist, rng_uniform(&a->rng)) : a->resp_size;
}

/* The pool's connection for the next request: the connected one with the
 * fewest outstanding, the first of equals */
static uint32_t pick(const struct rpc_app *a)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t k = 0; k < a->nconn; k++)
        if (a->up[k] && (best == UINT32_MAX || a->busy[k] < a->busy[best]))
            best = k;
    return best;
}

/* A new request on connection k: its record, and its number as the tag. */
static uint64_t new_request(struct rpc_app *a, uint32_t k, simtime_t t0)
{
    if (a->issued == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 64;
        a->recs = xrealloc(a->recs, a->cap * sizeof *a->recs);
    }
    a->recs[a->issued] = (struct rpc_rec){ t0, draw_size(a), tcp_mconn_rtos(a->c[k]), k };
    a->busy[k]++;
    return ++a->issued;
}

static bool may_issue(const struct rpc_app *a, simtime_t now)
{
    return (!a->count || a->issued < a->count) && now < a->f->stop;
}

static void arrive_fire(struct event *ev)
{
    struct rpc_app *a = ev->ctx;
    simtime_t now = ev->time;
    if (!may_issue(a, now))
        return;
    uint32_t k = pick(a);
    uint64_t tag = new_request(a, k, now);
    tcp_mconn_write_at(a->c[k], a->req_size, tag, now);
    double g = rng_exponential(&a->rng, (double)a->mean_gap);
    simtime_t gap = g >= (double)SIMTIME_NEVER ? SIMTIME_NEVER : (simtime_t)g;
    evq_push(&a->s->q, &a->ev_arrive, time_add(now, gap > 0 ? gap : 1));
}

static uint32_t conn_index(const struct rpc_app *a, const struct tcp_mconn *c)
{
    uint32_t k = 0;
    while (k < a->nconn && a->c[k] != c)
        k++;
    return k;
}

/* Open loop: arrivals start with the first connection up; closed loop:
 * each connection gets its `outstanding` requests as it comes up */
static void connected(struct tcp_mconn *c)
{
    struct rpc_app *a = c->app;
    simtime_t now = ctx_now();
    uint32_t k = conn_index(a, c);
    a->up[k] = true;
    if (a->load > 0) {
        if (!a->nup++)
            evq_push(&a->s->q, &a->ev_arrive, now);
        return;
    }
    for (uint64_t i = 0; i < a->outstanding && may_issue(a, now); i++)
        tcp_mconn_write_at(c, a->req_size, new_request(a, k, now), now);
}

static void on_msg(struct tcp_mconn *c, bool at_server, uint64_t tag, uint64_t size, struct core *core)
{
    struct rpc_app *a = c->app;
    struct rpc_rec *r = &a->recs[tag - 1];
    if (at_server) {
        tcp_mconn_write(c, false, r->size, tag, core);   /* the answer it was asked for */
        return;
    }
    simtime_t now = core_now(core);
    uint32_t hdrs = tcp_mss_to_mtu(c->cli) - c->cli->mss;
    struct sink_message m = {
        .flow = a->f->id, .id = tag, .kind = "rpc", .size = size, .t_start = r->t0, .t_end = now,
        .ideal = a->base_rtt + tcp_wire_time(a->req_size, c->cli->mss, hdrs, a->rate_up) +
                 tcp_wire_time(size, c->srv->mss, hdrs, a->rate_down),
        .rtos = (uint32_t)(tcp_mconn_rtos(c) - r->rtos),
    };
    sim_emit_message(a->s, &m);
    a->busy[r->conn]--;
    flow_deliver(a->f, size);
    a->done++;
    a->done_bytes += size;
    a->fct_sum += now - r->t0;
    if (a->load <= 0 && may_issue(a, now))
        tcp_mconn_write(c, true, a->req_size, new_request(a, r->conn, now), core);
}

static void setup(struct sim *s, struct flow *f, struct cfg_section *sec)
{
    struct rpc_app *a;
    APP_STATE(a, s, f);
    a->req_size = cfg_size(sec, "request_size", "100", 1, 1ULL << 30, "bytes of each request");
    a->resp_size = cfg_size(sec, "response_size", "10K", 1, 1ULL << 30,
                            "bytes of each response, unless size_dist draws them");
    const char *dist = cfg_str(sec, "size_dist", "",
                               "file of the responses' size CDF, \"SIZE FRACTION\" a line (relative to the "
                               "scenario's folder; the shipped ones: scenarios/dist/); empty: response_size");
    a->load = cfg_percent(sec, "load", "0",
                          "open loop: Poisson arrivals of requests whose responses make this share of the "
                          "bottleneck rate server to client (mean response bytes x 8 / rate / load apart); "
                          "0: closed loop");
    a->outstanding = (uint64_t)cfg_int(sec, "outstanding", "1", 1, 1000000,
                                       "closed loop: requests outstanding at once, the next as one completes");
    a->count = (uint64_t)cfg_int(sec, "count", "0", 0, INT64_MAX, "requests to make; 0: until stop");
    a->nconn = (uint32_t)cfg_int(sec, "connections", "1", 1, RPC_MAX_CONNS,
                                 "{1|1 to 1024} the client's pool of persistent connections to the server: a "
                                 "request goes on the one with the fewest outstanding (closed loop: outstanding "
                                 "is per connection), the server's ports port, port + 1, ...");
    uint64_t recv = cfg_size(sec, "recv_size", "128K", 1, 1ULL << 30, "bytes per read() of either end");
    uint16_t port = flow_server_port(f, sec, IPPROTO_TCP_, 5000,
                                     "{5000, or the next free one up|1 to 65535} the server's port");
    int cpu = (int)cfg_int(sec, "cpu", "0", 0, f->from->ncores - 1,
                           "{0|0 to cores - 1} core of the client process on the from host");
    int scpu = (int)cfg_int(sec, "server_cpu", "0", 0, f->to->ncores - 1,
                            "{0|0 to cores - 1} core of the server process on the to host");
    if (a->load > 0 && cfg_has(sec, "outstanding"))
        cfg_error(sec, "outstanding", "is for the closed loop; with load (open loop) requests go at their arrivals");
    if (f->from == f->to)
        cfg_error(sec, "to", "an RPC over TCP needs two hosts");
    if (*dist) {
        char err[512];
        if (sizedist_load(&a->dist, dist, cfg_section_file(sec), err, sizeof err))
            cfg_error(sec, "size_dist", "%s", err);
        else
            a->have_dist = true;
    }
    if (cfg_errors(s->cfg))
        return;
    a->c = xcalloc(a->nconn, sizeof *a->c);
    a->busy = xcalloc(a->nconn, sizeof *a->busy);
    a->up = xcalloc(a->nconn, sizeof *a->up);
    for (uint32_t k = 0; k < a->nconn; k++) {
        uint16_t p = port;
        if (k) {
            p = host_free_port(f->to, IPPROTO_TCP_, (uint16_t)(port < 65535 ? port + 1 : port));
            if (!p) {
                cfg_error(sec, "connections", "no free port on %s for connection %u of %u", f->to->name, k + 1,
                          a->nconn);
                return;
            }
        }
        a->c[k] = tcp_mconn_new(s, f, sec, f->from, f->to, p, cpu, scpu, recv);
        if (!a->c[k])
            return;
        a->c[k]->app = a;
        a->c[k]->on_msg = on_msg;
        a->c[k]->on_connect = connected;
    }
    simtime_t d_up, d_down;
    tcp_path(f->from, f->to, &d_up, &a->rate_up);
    tcp_path(f->to, f->from, &d_down, &a->rate_down);
    a->base_rtt = d_up + d_down;
    if (a->load > 0) {
        double mean = a->have_dist ? a->dist.mean : (double)a->resp_size;
        /* the mean response's time on the link at the load's share of
         * its rate: the serialiser's checked arithmetic, saturating */
        uint64_t rate = (uint64_t)((double)a->rate_down * a->load);
        a->mean_gap = time_serialise((uint64_t)(mean + 0.5), rate ? rate : 1);
        if (a->mean_gap < 1)
            a->mean_gap = 1;
    }
    char name[48];
    snprintf(name, sizeof name, "flow.%d.rpc", f->id);
    rng_init(&a->rng, s->seed, name);
    event_init(&a->ev_arrive, arrive_fire, a);
    snprintf(f->desc, sizeof f->desc, "rpc %s -> %s, %s", f->from->name, f->to->name, a->c[0]->cli->cc->name);
    sim_counterf(s, &a->issued, false, "flow.%d.rpc.issued", f->id);
    sim_counterf(s, &a->done, false, "flow.%d.rpc.done", f->id);
    sim_counterf(s, &a->done_bytes, false, "flow.%d.rpc.bytes", f->id);
}

static void start(struct sim *s, struct flow *f)
{
    struct rpc_app *a = f->priv;
    (void)s;
    for (uint32_t k = 0; k < a->nconn; k++)
        tcp_mconn_start(a->c[k], f->start);
}

static void finish(struct sim *s, struct flow *f)
{
    struct rpc_app *a = f->priv;
    if (a->done)
        sim_emit_line(s, "flow %d rpc: %llu of %llu requests answered, mean completion %.3f us", f->id,
                      (unsigned long long)a->done, (unsigned long long)a->issued,
                      time_to_s(a->fct_sum) * 1e6 / (double)a->done);
}

static void release(struct flow *f)
{
    struct rpc_app *a = f->priv;
    for (uint32_t k = 0; a->c && k < a->nconn; k++)
        if (a->c[k])
            tcp_mconn_free(a->c[k]);
    free(a->c);
    free(a->busy);
    free(a->up);
    sizedist_free(&a->dist);
    rng_free(&a->rng);
    free(a->recs);
}

const struct app_ops tcp_rpc_app = {
    .name = "rpc",
    .doc = "request/response over persistent TCP connections (one, or a pool): closed loop (outstanding) or "
           "Poisson (load); "
           "every RPC's completion time to the message table",
    .setup = setup,
    .start = start,
    .finish = finish,
    .release = release,
};
