/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sctp_ss.c - one association end as `ss -Smi` prints it (iproute2
 * misc/ss.c: print_skmeminfo, sctp_show_info, sctp_stats_print, from the
 * kernel's sctp_get_sctp_info), followed by one paddr:(...) per peer
 * address with what SCTP_GET_PEER_ADDR_INFO and sctp_info's primary-path
 * members carry (state, cwnd, ssthresh, srtt, rto, mtu, error count,
 * flight size): ss shows none of those, and they are what a question about
 * an SCTP stall needs. The rest follows ss: its fields only when non-zero,
 * a series exactly when the line shows the field.
 */
#include "models/sctp/sctp_ss.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "sim/config.h"
#include "sim/hash.h"
#include "sim/sim.h"
#include "sim/ss_line.h"

/* The verification tag packets to (id, port) carry, as the captures write
 * it (sctp_pcap.c): the model exchanges no INIT, so there is no other. */
static uint32_t vtag(uint32_t id, uint16_t port) { return sim_hash64((uint64_t)id << 16 | port) | 1; }

static const char *const tstate_name[] = {
    [SCTP_T_ACTIVE] = "ACTIVE", [SCTP_T_PF] = "PF", [SCTP_T_INACTIVE] = "INACTIVE",
    [SCTP_T_UNCONFIRMED] = "UNCONFIRMED",
};

static void paths(struct ss_line *l, const struct sctp_assoc *a)
{
    char b[INET6_ADDRSTRLEN], key[32];
    for (unsigned k = 0; k < a->npaths; k++) {
        const struct sctp_transport *t = &a->tp[k];
        /* jiffies at HZ 1000 are the milliseconds sctp_paddrinfo reports */
        ss_put(l, " paddr:(%s,%s,cwnd:%u,ssthresh:%u,srtt:%" PRIu64 ",rto:%" PRIu64 ",mtu:%u,error:%u,flight:%u)",
            ss_addr(b, sizeof b, a->peer_addr, t->idx, a->family), tstate_name[t->tstate & 3], t->cwnd, t->ssthresh,
            t->srtt, t->rto, a->pmtu, t->error_count, t->flight);
#define P(field, v)                                            \
    do {                                                       \
        snprintf(key, sizeof key, "path%u.%s", k, field);      \
        ss_series(l, key, (double)(v));                           \
    } while (0)
        P("state", t->tstate);
        P("cwnd", t->cwnd);
        P("ssthresh", t->ssthresh);
        P("srtt_ms", t->srtt);
        P("rto_ms", t->rto);
        P("error", t->error_count);
        P("flight", t->flight);
#undef P
    }
}

void sctp_ss_sample(struct sctp_assoc *a, struct sim *s, const char *prefix)
{
    struct ss_line l = { .s = s, .prefix = prefix };
    char local[64], peer[64], b[INET6_ADDRSTRLEN];
    ss_endpoint(local, sizeof local, a->host->id, a->sk.port, a->family);
    ss_endpoint(peer, sizeof peer, a->peer_addr, a->peer_port, a->family);
    /* sctp_diag: Recv-Q is the association's rmem_alloc, Send-Q its
     * sndbuf_used (sk_wmem_alloc here, sndbuf_policy 0) */
    int n = sim_ss_state_line(l.text, sizeof l.text, "ESTAB", a->rmem, a->wmem_alloc, local, peer);
    l.len = n > 0 ? (size_t)n : 0;
    ss_series(&l, "recv_q", (double)a->rmem);
    ss_series(&l, "send_q", a->wmem_alloc);
    ss_put(&l, "\n\t skmem:(r%" PRIu64 ",rb%u,t%u,tb%u,f0,w%u,o0,bl%" PRIu64 ",d0)", a->rmem, a->sk.rcvbuf, a->wmem_alloc,
        a->sk.sndbuf, a->wmem_queued, a->backlog_len);
    ss_series(&l, "skmem_r", (double)a->rmem);
    ss_series(&l, "skmem_rb", a->sk.rcvbuf);
    ss_series(&l, "skmem_t", a->wmem_alloc);
    ss_series(&l, "skmem_tb", a->sk.sndbuf);
    ss_series(&l, "skmem_w", a->wmem_queued);
    ss_series(&l, "skmem_bl", (double)a->backlog_len);
    ss_put(&l, " locals:%s", ss_addr(b, sizeof b, a->host->id, 0, a->family));
    for (unsigned k = 1; k < a->npaths; k++)
        ss_put(&l, ",%s", ss_addr(b, sizeof b, a->host->id, a->tp[k].idx, a->family));
    ss_put(&l, " peers:%s", ss_addr(b, sizeof b, a->peer_addr, 0, a->family));
    for (unsigned k = 1; k < a->npaths; k++)
        ss_put(&l, ",%s", ss_addr(b, sizeof b, a->peer_addr, a->tp[k].idx, a->family));
    ss_put(&l, " tag:%x state:ESTAB", vtag(a->host->id, a->sk.port));
    ss_u(&l, "rwnd", a->rwnd);
    /* sctp_tsnmap_pending: the TSNs missing between the cumulative ack and the highest seen */
    uint32_t gap = a->max_tsn_seen - a->cum;
    ss_u(&l, "penddata", tsn_lt(a->cum, a->max_tsn_seen) && gap > a->lobby_n ? gap - a->lobby_n : 0);
    ss_u(&l, "outqueue", a->next_tsn - a->next_send);   /* chunks not yet sent */
    ss_u(&l, "overerr", a->overall_error_count);
    ss_u(&l, "maxburst", a->sh->max_burst);
    ss_u(&l, "maxseg", a->frag_point);
    ss_u(&l, "prwnd", a->peer_rwnd);
    ss_put(&l, " ptag:%x", vtag(a->peer_addr, a->peer_port));
    paths(&l, a);
    sim_emit_sock(s, (int)a->flow, a->host->name, l.text);
}

static void ss_fire(struct event *ev)
{
    struct sctp_ss *x = ev->ctx;
    sctp_ss_sample(x->cli, x->s, x->pre_cli);
    sctp_ss_sample(x->srv, x->s, x->pre_srv);
    if (ev->time + x->iv <= x->s->duration)
        evq_push(&x->s->q, &x->ev, ev->time + x->iv);
}

void sctp_ss_setup(struct sctp_ss *x, struct sim *s, struct flow *f, struct cfg_section *sec, struct sctp_assoc *cli,
                   struct sctp_assoc *srv)
{
    x->s = s;
    x->cli = cli;
    x->srv = srv;
    x->iv = cfg_period(sec, "ss_interval", "0", 3600 * PS_PER_S,
                       "period of the ss -Smi samples of both ends: to the run's ss file (--ss) and series "
                       "flow.N.sctp.client.ss.*, flow.N.sctp.server.ss.*; 0 = none, else at least 1us");
    snprintf(x->pre_cli, sizeof x->pre_cli, "flow.%d.sctp.client.", f->id);
    snprintf(x->pre_srv, sizeof x->pre_srv, "flow.%d.sctp.server.", f->id);
    event_init(&x->ev, ss_fire, x);
}

void sctp_ss_start(struct sctp_ss *x, simtime_t start)
{
    if (x->iv && start + x->iv <= x->s->duration)
        evq_push(&x->s->q, &x->ev, start + x->iv);
}
