/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_incast.c - `app = incast`: a client (the flow's `from`) asks every
 * server at once for a block of `block` bytes, each over its own
 * persistent TCP connection, and starts the next round when all the
 * blocks have arrived (a barrier, as a storage client reading a striped
 * block, Vasudevan et al. SIGCOMM 2009, or a partition/aggregate query,
 * the DCTCP paper's incast). A round starts when every connection is up,
 * and the next `gap` after a round ends.
 *
 * Rows in the message table: each block (kind "block": from the round's
 * start to the client having read it) and each round (kind "round", size
 * servers x block: from its start to the last block read), each with its
 * ideal (the base RTT of the slowest server's route plus the round's
 * bytes at the bottleneck rate) and the retransmission timeouts its
 * connections took meanwhile. Counters flow.N.incast.rounds and
 * flow.N.incast.rto_rounds (rounds with at least one timeout).
 */
#include <stdlib.h>
#include <string.h>
#include "models/tcp/tcp_msg.h"
#include "sim/config.h"

#define INCAST_MAX_SERVERS 4096

struct incast_app {
    struct flow *f;
    struct sim *s;
    int n;
    struct host **servers;
    struct tcp_mconn **c;
    uint64_t block, req_size, rounds_max;
    simtime_t gap, t_round, base_rtt, block_base_rtt;
    uint64_t rate;
    int connected, left;
    uint64_t round, rtos0;
    uint64_t rounds, rto_rounds, blocks;
    simtime_t rct_sum;
    struct event ev_round;
};

static uint64_t all_rtos(const struct incast_app *a)
{
    uint64_t n = 0;
    for (int i = 0; i < a->n; i++)
        n += tcp_mconn_rtos(a->c[i]);
    return n;
}

static void round_fire(struct event *ev)
{
    struct incast_app *a = ev->ctx;
    simtime_t now = ev->time;
    if ((a->rounds_max && a->round >= a->rounds_max) || now >= a->f->stop)
        return;
    a->round++;
    a->t_round = now;
    a->left = a->n;
    a->rtos0 = all_rtos(a);
    for (int i = 0; i < a->n; i++)
        tcp_mconn_write_at(a->c[i], a->req_size, a->round, now);
}

static void connected(struct tcp_mconn *c)
{
    struct incast_app *a = c->app;
    if (++a->connected == a->n)
        evq_push(&a->s->q, &a->ev_round, ctx_now());
}

static void on_msg(struct tcp_mconn *c, bool at_server, uint64_t tag, uint64_t size, struct core *core)
{
    struct incast_app *a = c->app;
    (void)size;
    if (at_server) {
        tcp_mconn_write(c, false, a->block, tag, core);
        return;
    }
    simtime_t now = core_now(core);
    uint32_t hdrs = tcp_mss_to_mtu(c->cli) - c->cli->mss;
    struct sink_message m = {
        .flow = a->f->id, .id = (tag - 1) * (uint64_t)a->n + (uint64_t)c->index + 1, .kind = "block",
        .size = a->block, .t_start = a->t_round, .t_end = now,
        .ideal = a->block_base_rtt + tcp_wire_time(a->block, c->srv->mss, hdrs, a->rate),
        .rtos = (uint32_t)tcp_mconn_rtos(c),
    };
    sim_emit_message(a->s, &m);
    flow_deliver(a->f, a->block);
    a->blocks++;
    if (--a->left)
        return;
    uint64_t rtos = all_rtos(a) - a->rtos0;
    simtime_t ideal = a->base_rtt;
    for (int i = 0; i < a->n; i++)
        ideal += tcp_wire_time(a->block, a->c[i]->srv->mss, hdrs, a->rate);
    struct sink_message r = {
        .flow = a->f->id, .id = tag, .kind = "round", .size = a->block * (uint64_t)a->n,
        .t_start = a->t_round, .t_end = now, .ideal = ideal, .rtos = (uint32_t)rtos,
    };
    sim_emit_message(a->s, &r);
    a->rounds++;
    a->rto_rounds += rtos > 0;
    a->rct_sum += now - a->t_round;
    evq_push(&a->s->q, &a->ev_round, now + a->gap);
}

/* -1 when the list is past the limit: the rest is not read */
static int add_server(struct incast_app *a, struct sim *s, struct cfg_section *sec, const char *w, int *cap)
{
    struct host *h = host_find(s, w);
    if (!h) {
        cfg_error(sec, "servers", "no host '%s' (hosts are the ends of [link] sections)", w);
        return 0;
    }
    if (h == a->f->from) {
        cfg_error(sec, "servers", "'%s' is the client (from) itself", w);
        return 0;
    }
    if (a->n == INCAST_MAX_SERVERS) {
        cfg_error(sec, "servers", "more than %d servers", INCAST_MAX_SERVERS);
        return -1;
    }
    if (a->n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        a->servers = xrealloc(a->servers, (size_t)*cap * sizeof *a->servers);
    }
    a->servers[a->n++] = h;
    return 0;
}

/* names, or ranges of them (s{1..16}: s1 ... s16) */
static int parse_servers(struct incast_app *a, struct sim *s, struct cfg_section *sec, const char *list)
{
    char *copy = xstrdup(list), *save = NULL;
    int cap = 0;
    for (char *w = strtok_r(copy, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
        size_t pre;
        long lo, hi;
        const char *suffix, *why;
        int r = cfg_range(w, strlen(w), &pre, &lo, &hi, &suffix, &why);
        if (r < 0) {
            cfg_error(sec, "servers", "got '%s': %s", w, why);
            continue;
        }
        if (r == 0) {
            if (add_server(a, s, sec, w, &cap) < 0)
                break;
            continue;
        }
        for (long i = lo; i <= hi; i++) {
            char name[160];
            snprintf(name, sizeof name, "%.*s%ld%s", (int)pre, w, i, suffix);
            if (add_server(a, s, sec, name, &cap) < 0)
                goto full;
        }
    }
full:
    free(copy);
    return a->n;
}

static void setup(struct sim *s, struct flow *f, struct cfg_section *sec)
{
    struct incast_app *a;
    APP_STATE(a, s, f);
    const char *list = cfg_str(sec, "servers", "",
                               "{the to host} hosts that answer, names separated by spaces or commas, or ranges of them "
                               "(s{1..16}: s1 ... s16); each its own connection from the client");
    a->block = cfg_size(sec, "block", "64K", 1, 1ULL << 34, "bytes each server answers per round");
    a->req_size = cfg_size(sec, "request_size", "100", 1, 1ULL << 30, "bytes of each request");
    a->rounds_max = (uint64_t)cfg_int(sec, "rounds", "0", 0, INT64_MAX, "rounds to run; 0: until stop");
    a->gap = cfg_time(sec, "gap", "0s", 0, CFG_TIME_MAX, "time from a round's end to the next's start");
    uint64_t recv = cfg_size(sec, "recv_size", "128K", 1, 1ULL << 30, "bytes per read() of either end");
    int cpu = (int)cfg_int(sec, "cpu", "0", 0, f->from->ncores - 1,
                           "{0|0 to cores - 1} core of the client process on the from host");
    uint16_t port = (uint16_t)cfg_int(sec, "port", "5000", 1, 65535, "the servers' port");
    if (*list ? !parse_servers(a, s, sec, list) : 0)
        cfg_error(sec, "servers", "expected host names");
    if (!*list && f->to != f->from) {
        a->servers = xcalloc(1, sizeof *a->servers);
        a->servers[a->n++] = f->to;
    }
    if (cfg_errors(s->cfg))
        return;
    a->c = xcalloc((size_t)a->n, sizeof *a->c);
    for (int i = 0; i < a->n; i++) {
        struct host *h = a->servers[i];
        uint16_t p = host_free_port(h, IPPROTO_TCP_, port);
        if (p != port) {
            cfg_error(sec, "port", "port %u is taken on %s", port, h->name);
            return;
        }
        a->c[i] = tcp_mconn_new(s, f, sec, f->from, h, port, cpu, h->ncores - 1, recv);
        if (!a->c[i])
            return;
        a->c[i]->app = a;
        a->c[i]->index = i;
        a->c[i]->on_msg = on_msg;
        a->c[i]->on_connect = connected;
        simtime_t d1, d2;
        uint64_t r1, r2;
        tcp_path(f->from, h, &d1, &r1);
        tcp_path(h, f->from, &d2, &r2);
        if (d1 + d2 > a->base_rtt)
            a->base_rtt = d1 + d2;
        if (!a->rate || r2 < a->rate)
            a->rate = r2;
    }
    a->block_base_rtt = a->base_rtt;
    event_init(&a->ev_round, round_fire, a);
    snprintf(f->desc, sizeof f->desc, "incast %s <- %d servers, %s", f->from->name, a->n,
             a->n ? a->c[0]->cli->cc->name : "");
    sim_counterf(s, &a->rounds, false, "flow.%d.incast.rounds", f->id);
    sim_counterf(s, &a->rto_rounds, false, "flow.%d.incast.rto_rounds", f->id);
    sim_counterf(s, &a->blocks, false, "flow.%d.incast.blocks", f->id);
}

static void start(struct sim *s, struct flow *f)
{
    struct incast_app *a = f->priv;
    (void)s;
    for (int i = 0; i < a->n; i++)
        tcp_mconn_start(a->c[i], f->start);
}

static void finish(struct sim *s, struct flow *f)
{
    struct incast_app *a = f->priv;
    if (a->rounds)
        sim_emit_line(s, "flow %d incast: %llu rounds of %d x %llu bytes, mean round %.3f us, %llu with an RTO",
                      f->id, (unsigned long long)a->rounds, a->n, (unsigned long long)a->block,
                      time_to_s(a->rct_sum) * 1e6 / (double)a->rounds, (unsigned long long)a->rto_rounds);
}

static void release(struct flow *f)
{
    struct incast_app *a = f->priv;
    for (int i = 0; a->c && i < a->n; i++)
        tcp_mconn_free(a->c[i]);
    free(a->c);
    free(a->servers);
}

const struct app_ops tcp_incast_app = {
    .name = "incast",
    .doc = "one client asks every server for a block at once, the next round when all have arrived: round and "
           "block completion times to the message table",
    .setup = setup,
    .start = start,
    .finish = finish,
    .release = release,
};
