/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * assoc.c - per-host SCTP settings (net.sctp.* sysctls, the variants) and
 * setting up an association's two ends (sctp.md A.2, A.4, A.9).
 */
#include <stdio.h>
#include <stdlib.h>
#include "models/sctp/internal.h"
#include "models/sctp/sctp.h"
#include "sim/config.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

static int slot = -1;

int sctp_host_slot(void) { return slot; }
void sctp_set_slot(int s) { slot = s; }

static uint64_t jiffies_key(struct cfg_section *sec, const char *key, const char *def, const char *doc)
{
    return (uint64_t)(cfg_time(sec, key, def, KT_PS_PER_JIFFY, 3600 * PS_PER_S, doc) / KT_PS_PER_JIFFY);
}

static void counter(struct sim *s, const char *host, const char *what, const uint64_t *v)
{
    sim_counterf(s, v, false, "host.%s.sctp.%s", host, what);
}

/* The host's SCTP settings, read from its section on first use, so that
 * hosts without SCTP do not list SCTP keys. */
struct sctp_host *sctp_host_of(struct host *h)
{
    if (h->mod[slot])
        return h->mod[slot];
    sctp_syms_init();
    struct sctp_host *sh = xcalloc(1, sizeof *sh);
    h->mod[slot] = sh;
    struct cfg_section *sec = h->sec;
    static const char *irq[] = { "restore", "self", NULL };
    sh->rwnd = variant_choose(sec, "sctp.rwnd");
    sh->hb = variant_choose(sec, "sctp.hb");
    sh->rto_initial = jiffies_key(sec, "net.sctp.rto_initial", "3s",
                                 "initial retransmission timeout (net.sctp.rto_initial; Linux default 3s)");
    sh->rto_min = jiffies_key(sec, "net.sctp.rto_min", "1s",
                                 "smallest retransmission timeout (net.sctp.rto_min; Linux default 1s)");
    sh->rto_max = jiffies_key(sec, "net.sctp.rto_max", "60s",
                                 "largest retransmission timeout (net.sctp.rto_max; Linux default 60s)");
    sh->hb_interval = jiffies_key(sec, "net.sctp.hb_interval", "30s",
                                 "heartbeat interval of an idle path (net.sctp.hb_interval; Linux default 30s)");
    sh->sack_timeout = jiffies_key(sec, "net.sctp.sack_timeout", "200ms",
                                 "delayed SACK timer (net.sctp.sack_timeout; Linux default 200ms)");
    sh->max_burst = (uint32_t)cfg_int(sec, "net.sctp.max_burst", "4", 1, 1000,
                                      "packets sent at once after a SACK (net.sctp.max_burst; Linux default 4)");
    sh->rwnd_update_shift = (uint32_t)cfg_int(sec, "net.sctp.rwnd_update_shift", "4", 1, 31,
            "a window update is sent when rwnd grows by rcvbuf >> n (Linux default 4)");
    sh->assoc_max_retrans = (uint32_t)cfg_int(sec, "net.sctp.association_max_retrans", "10", 1, 1000,
                                              "retransmissions before the association is aborted (Linux default 10)");
    sh->path_max_retrans = (uint32_t)cfg_int(sec, "net.sctp.path_max_retrans", "5", 1, 1000,
                                             "retransmissions before a path is inactive (Linux default 5)");
    /* protocol.c sctp_net_init leaves pf_retrans 0 (ip-sysctl.txt:
     * "Default: 0"); 3.14 has no pf_enable, so PF is always on */
    sh->pf_retrans = (uint32_t)cfg_int(sec, "net.sctp.pf_retrans", "0", 0, 1000,
            "retransmissions before a path is potentially failed (Linux default 0: the first one)");
    sh->sack_freq = (uint32_t)cfg_int(sec, "sctp.sack_freq", "2", 1, 100,
                                      "packets per SACK when none is delayed (sack_freq, Linux default 2)");
    sh->skb_struct_size = (uint32_t)cfg_size(sec, "sctp.skb_struct_size", "232", 0, 4096,
            "bytes charged to the receive buffer per message besides its data (the skb, 232)");
    /* sizeof(struct sctp_chunk) [E]: with the 2304-byte chunk skb, the
     * spec's per-chunk send-buffer charge of about 2500 (sctp.md A.2) */
    sh->chunk_struct_size = (uint32_t)cfg_size(sec, "sctp.chunk_struct_size", "196", 0, 4096,
            "sizeof(struct sctp_chunk), charged to the send buffer with each chunk's skb");
    sh->nodelay = cfg_bool(sec, "sctp.nodelay", "off", "SCTP_NODELAY on the sender: no Nagle bundling");
    sh->lazy_rearm_jitter = cfg_bool(sec, "sctp.lazy_rearm_jitter", "off",
                                     "hb lazy: add the RFC 4960 8.3 jitter back on the re-arms after a heartbeat");
    kt_irqoff_restore = cfg_choice(sec, "sctp.irqoff_attribution", "restore", irq,
            "where --profile books irq-off sections: restore (at the irq restore, as perf in a VM) or self") == 0;
    if (sh->rto_min > sh->rto_max)
        cfg_error(sec, "net.sctp.rto_min", "is larger than net.sctp.rto_max");
    char name[96];
    snprintf(name, sizeof name, "host.%s.sctp", h->name);
    rng_init(&sh->rng, h->sim->seed, name);
    for (int k = 0; k < KT_NCALLERS; k++) {
        static const char *const what[KT_NCALLERS][3] = {
            { "mod_timer.sctp_transport_reset_timers.calls", "mod_timer.sctp_transport_reset_timers.requeues",
              "mod_timer.sctp_transport_reset_timers.shortcut" },
            { "mod_timer.sctp_do_sm.calls", "mod_timer.sctp_do_sm.requeues", "mod_timer.sctp_do_sm.shortcut" },
        };
        counter(h->sim, h->name, what[k][0], &sh->kt.calls[k]);
        counter(h->sim, h->name, what[k][1], &sh->kt.queued[k]);
        counter(h->sim, h->name, what[k][2], &sh->kt.shortcut[k]);
    }
    counter(h->sim, h->name, "del_timer.calls", &sh->kt.del_calls);
    return sh;
}

void sctp_host_free(struct host *h, int mod_slot)
{
    /* a world whose build failed is freed before modules attach: use the
     * slot the registry gives, not the one remembered at attach */
    struct sctp_host *sh = h->mod[mod_slot];
    if (!sh)
        return;
    for (struct sock *sk = h->socks; sk; sk = sk->next)
        if (sk->proto == IPPROTO_SCTP_ && sk->priv)
            skbq_purge(&((struct sctp_assoc *)sk->priv)->backlog);
    rng_free(&sh->rng);
    free(sh);
    h->mod[mod_slot] = NULL;
}

static void end_init(struct sctp_assoc *a, struct host *h, struct host *peer, uint8_t family, uint16_t port,
                     uint16_t peer_port, uint32_t flow, int npaths)
{
    a->host = h;
    a->sh = sctp_host_of(h);
    sock_init(&a->sk, h, IPPROTO_SCTP_, port);
    a->sk.family = family;
    a->sk.priv = a;
    a->family = family;
    a->peer_addr = peer->id;
    a->peer_port = peer_port;
    a->flow = flow;
    uint32_t ip = ip_hdr_len(family);
    a->pmtu = ip_max_unfragmented(h, peer->id, family) + ip;
    a->overhead = ip + SCTP_COMMON_HDR;
    a->frag_point = a->pmtu - a->overhead - SCTP_DATA_HDR;
    skbq_init(&a->backlog);
    kt_init(&a->sack_timer, h->q, sctp_sack_timer_expire, a);
    a->npaths = (uint8_t)npaths;
    a->active = a->retran = 0;
    for (int i = 0; i < npaths; i++) {
        struct sctp_transport *t = &a->tp[i];
        t->a = a;
        t->idx = (uint8_t)i;
        kt_init(&t->t3, h->q, sctp_t3_expire, t);
        kt_init(&t->hb, h->q, sctp_hb_expire, t);
        t->rto = a->sh->rto_initial;
        /* the address connected to is confirmed by the handshake; the
         * peer's other addresses, from INIT / INIT-ACK, start UNCONFIRMED
         * (sctp_process_init) until a HEARTBEAT-ACK */
        t->tstate = i == 0 ? SCTP_T_ACTIVE : SCTP_T_UNCONFIRMED;
        t->hb_sent = false;
    }
    a->sack_needed = true;       /* the first DATA is SACKed at once */
}

/* Multi-homing: each end lists all its addresses of the peer's scope in
 * INIT / INIT-ACK; path k joins the k-th NIC of each host, so the first
 * n NICs of a must each be wired to the same-numbered NIC of b. */
static int paths_between(struct host *a, struct host *b)
{
    int n = 0;
    while (n < a->nnics && n < b->nnics && a->nics[n]->tx_link && a->nics[n]->tx_link->dst == b->nics[n])
        n++;
    return n;
}

void sctp_assoc_pair(struct sctp_assoc *cli, struct sctp_assoc *srv, struct host *from, struct host *to,
                     uint8_t family, uint16_t dport, uint32_t flow, uint64_t sndbuf, uint64_t rcvbuf,
                     int npaths, struct cfg_section *sec)
{
    /* cfg_int bounded npaths to 1..SCTP_MAX_PATHS; after an error the
     * setup goes on (nothing runs) with the paths there are */
    int links = paths_between(from, to);
    if (npaths > 1 && npaths > links) {
        cfg_error(sec, "paths", "%d paths need %d direct links between %s and %s, eth0 to eth0, eth1 to eth1 "
                  "and so on (found %d)", npaths, npaths, from->name, to->name, links);
        npaths = links > 0 ? links : 1;
    }
    uint16_t sport = host_alloc_port(from);
    end_init(cli, from, to, family, sport, dport, flow, npaths);
    end_init(srv, to, from, family, dport, sport, flow, npaths);
    cli->is_client = true;
    /* SO_SNDBUF / SO_RCVBUF on both sockets, as iperf3 -w would */
    sock_set_bufs(&cli->sk, rcvbuf, sndbuf);
    sock_set_bufs(&srv->sk, rcvbuf, sndbuf);
    cli->sndbuf_locked = srv->sndbuf_locked = sndbuf != 0;   /* SOCK_SNDBUF_LOCK */
    /* the writer holds at most sk_sndbuf / truesize + 1 chunks; the
     * smallest chunk skb (a 1-byte message) has truesize 768 */
    if (cli->sk.sndbuf / sctp_chunk_truesize(1) + 2 >= SCTP_TX_RING)
        cfg_error(sec, "sndbuf", "a send buffer of %u bytes holds more than the model's %d chunks", cli->sk.sndbuf,
                  SCTP_TX_RING);
    if (srv->sk.rcvbuf / (srv->sh->skb_struct_size + 1) + 2 >= SCTP_RQ_RING)
        cfg_error(sec, "rcvbuf", "a receive buffer of %u bytes holds more than the model's %d messages",
                  srv->sk.rcvbuf, SCTP_RQ_RING);
    cli->peer_dbg = srv;
    srv->peer_dbg = cli;
    /* sctp_association_init: rwnd = sk_rcvbuf / 2, at least 1500 */
    struct sctp_assoc *ends[2] = { cli, srv };
    for (int i = 0; i < 2; i++) {
        struct sctp_assoc *a = ends[i];
        a->rwnd = a->a_rwnd = a->sk.rcvbuf / 2 > 1500 ? a->sk.rcvbuf / 2 : 1500;
        a->next_tsn = a->next_send = 1;        /* initial TSN; the peer's cum is one below */
        a->ctsn_ack_point = 0;
        a->cum = a->max_tsn_seen = 0;
    }
    for (int i = 0; i < 2; i++) {
        struct sctp_assoc *a = ends[i], *p = ends[1 - i];
        a->peer_rwnd = p->a_rwnd;                        /* a_rwnd of INIT / INIT-ACK */
        for (int k = 0; k < a->npaths; k++) {
            struct sctp_transport *t = &a->tp[k];
            /* RFC 4960 7.2.1: cwnd = min(4 MTU, max(2 MTU, 4380)) */
            uint32_t two = 2 * a->pmtu > 4380 ? 2 * a->pmtu : 4380;
            t->cwnd = 4 * a->pmtu < two ? 4 * a->pmtu : two;
            t->ssthresh = p->a_rwnd;
        }
    }
    cli->timer_core = NULL;      /* set by the application with its cores */
    srv->timer_core = to->nnics ? to->nics[0]->vec[0].core : NULL;
}

void sctp_assoc_counters(struct sim *s, struct sctp_assoc *cli, struct sctp_assoc *srv, int flow)
{
#define C(end, field, drop) \
    sim_counterf(s, &end->st.field, drop, "flow.%d.sctp.%s." #field, flow, end == cli ? "client" : "server")
    C(cli, data_chunks_sent, false);
    C(cli, data_packets_sent, false);
    C(cli, retransmits, false);
    C(cli, fast_retransmits, false);
    C(cli, frtx_lost, false);
    C(cli, t3_expiries, false);
    C(cli, t3_sndbuf_full, false);
    C(cli, t3_window_full, false);
    C(cli, stall_ps_max, false);
    C(cli, stall_ps_sum, false);
    C(cli, error_count_max, false);
    C(cli, zero_window_probes, false);
    C(cli, sacks_rx, false);
    C(cli, stalls_2s, false);
    C(cli, pf_entries, false);
    C(cli, pf_exits, false);
    C(cli, path_inactive, false);
    C(cli, hb_sent, false);
    C(cli, hb_ack_rx, false);
    C(cli, hb_ack_stale, false);
    C(cli, hb_rto_doublings, false);
    C(cli, assoc_abort_threshold, false);
    C(cli, timer_owned_retries, false);
    C(cli, hb_lazy_skips, false);
    C(cli, backlogged, false);
    C(cli, backlog_drops, true);
    C(srv, sacks_tx, false);
    C(srv, window_update_sacks, false);
    C(srv, backlog_drops, true);
    C(srv, backlogged, false);
    C(srv, rwnd_discards, true);
    C(srv, frtx_dropped, false);
    C(srv, reneges, false);
    C(srv, reneged_tsns, false);
    C(srv, dup_tsns, false);
    C(srv, map_discards, true);
    C(srv, hb_sent, false);
    C(srv, hb_ack_rx, false);
    C(srv, timer_owned_retries, false);
    if (cli->npaths > 1) {
        C(cli, t3_alternate, false);
        C(cli, paths_confirmed, false);
    }
#undef C
    sim_counterf(s, &cli->tp[0].hb.calls, false, "flow.%d.sctp.client.hb_timer.mod_timer_calls", flow);
    sim_counterf(s, &cli->tp[0].hb.queued, false, "flow.%d.sctp.client.hb_timer.requeues", flow);
    sim_counterf(s, &cli->tp[0].hb.shortcut, false, "flow.%d.sctp.client.hb_timer.shortcut", flow);
    sim_counterf(s, &cli->tp[0].t3.calls, false, "flow.%d.sctp.client.t3_timer.mod_timer_calls", flow);
    sim_counterf(s, &cli->st.prandom_calls, false, "flow.%d.sctp.client.prandom_calls", flow);
}
