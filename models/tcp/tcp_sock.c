/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_sock.c - endpoints: creation, the three-way handshake with window
 * scaling and timestamps (tcp_connect, tcp_conn_request,
 * tcp_rcv_synsent_state_process), buffer initialisation
 * (tcp_init_buffer_space), the timers (run as softirq work on the
 * connection's core), traces and counters.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/tcp/internal.h"
#include "models/tcp/rskb_vec.h"
#include "models/tcp/tcp.h"
#include "sim/hash.h"
#include "sim/route.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

/* ---- timers ---- */

void tcp_kick(struct tcp_sock *tp, int bit)
{
    tp->pending_work |= (uint8_t)bit;
    core_wake(tp->core, &tp->task, tp->h->q->now);
}
static void ev_rto(struct event *ev) { tcp_kick(ev->ctx, TW_RTO); }
static void ev_delack(struct event *ev)
{
    struct tcp_sock *tp = ev->ctx;
    if (!tp->delack_timer)
        return;                  /* left queued after its ACK went out */
    tp->delack_timer = false;
    tcp_kick(tp, TW_DELACK);
}
static void ev_pace(struct event *ev) { tcp_kick(ev->ctx, TW_PACE); }
static void ev_reo(struct event *ev) { tcp_kick(ev->ctx, TW_REO); }
static void ev_tlp(struct event *ev) { tcp_kick(ev->ctx, TW_TLP); }

static bool timer_task(struct cpu_task *t, struct core *c)
{
    struct tcp_sock *tp = t->ctx;
    uint8_t w = tp->pending_work;
    tp->pending_work = 0;
    /* a timer that fired costs its handler's entry even when it finds
     * nothing to do; 4.15 has one retransmit timer for the RTO, RACK's
     * reordering timeout and the loss probe, so one firing covers them. A
     * pacing wake is the TSQ tasklet's (tcp_tsq_handler), not charged here */
    if (w & TW_DELACK)
        host_charge(tp->h, c, tcp_sym.delack_timer);
    if (w & (TW_RTO | TW_REO | TW_TLP))
        host_charge(tp->h, c, tcp_sym.write_timer);
    if (w & TW_TSQ)
        host_charge(tp->h, c, tcp_sym.tsq_handler);
    simtime_t now = core_now(c);
    if ((w & TW_DELACK) && tp->ack_pending) {
        /* tcp_delack_timer_handler: inflate ato unless pingpong */
        if (!tp->pingpong) {
            tp->ato = tp->ato * 2 < tp->rto ? tp->ato * 2 : tp->rto;
        } else {
            tp->pingpong = 0;
            tp->ato = TCP_DELACK_MIN;
        }
        tcp_send_ack(tp, c);
    }
    if (w & TW_RTO) {
        if (tp->state == TCP_SYN_SENT) {
            tp->rto_backoff++;
            tcp_send_syn(tp, c, false);
            evq_push(tp->h->q, &tp->ev_rto, now + (TCP_TIMEOUT_INIT << tp->rto_backoff));
        } else if (tp->state == TCP_SYN_RECV) {
            tp->rto_backoff++;
            tcp_send_syn(tp, c, true);
            evq_push(tp->h->q, &tp->ev_rto, now + (TCP_TIMEOUT_INIT << tp->rto_backoff));
        } else if (tp->packets_out) {
            tcp_enter_loss(tp, now);
            tcp_write_xmit(tp, c);
        }
    }
    if (w & TW_REO) {
        tcp_rack_timeout(tp, now);
        tcp_write_xmit(tp, c);
    }
    if (w & TW_TLP)
        tcp_send_loss_probe(tp, c);
    if (w & (TW_PACE | TW_XMIT | TW_TSQ))    /* TW_TSQ: tcp_tsq_handler */
        tcp_write_xmit(tp, c);
    return false;
}

/* ---- endpoints ---- */

/* sk_pacing_rate for an fq qdisc: ~0 (unpaced) until an RTT is known, as
 * sk_init leaves it */
static uint64_t tcp_sock_pacing_rate(const struct sock *sk)
{
    uint64_t r = tcp_sk_pacing_rate(sk->priv);
    return r ? r : UINT64_MAX;
}

struct tcp_sock *tcp_sock_new(struct host *h, uint16_t port)
{
    struct tcp_host *th = tcp_host_of(h);
    if (!th)
        return NULL;
    struct tcp_sock *tp = xcalloc(1, sizeof *tp);
    if (port) {
        sock_init(&tp->sk, h, IPPROTO_TCP_, port);
    } else {
        tp->sk.host = h;
        tp->sk.proto = IPPROTO_TCP_;
        tp->sk.family = NET_IPV4;
        skbq_init(&tp->sk.rq);
    }
    tp->sk.priv = tp;
    tp->sk.pacing_rate = tcp_sock_pacing_rate;
    tp->sk.wfree = tcp_wfree;
    tp->h = h;
    tp->th = th;
    tp->sim = h->sim;
    tp->next_conn = th->conns;
    th->conns = tp;
    tp->core = &h->cores[0];
    tp->sk.rcvbuf = (uint32_t)th->rmem[1];
    tp->sk.sndbuf = (uint32_t)th->wmem[1];
    tp->cc = th->cc;
    tp->drs = th->drs;
    tp->reordering = (uint32_t)th->reordering;
    tp->rack_reo_steps = 1;
    tp->rto = TCP_TIMEOUT_INIT;
    tp->min_rtt = SIMTIME_NEVER;
    tp->highest_sack = -1;
    tp->ts_head = tp->ts_tail = -1;
    tp->rcv_mss = 536;
    tp->snd_cwnd_clamp = UINT32_MAX;
    tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
    tp->rx_head_truesize = h->nicp.skb_head_truesize;
    tp->ts_off = (int32_t)(rng_u32(&h->rng) & 0x7fffffff);
    event_init(&tp->ev_rto, ev_rto, tp);
    event_init(&tp->ev_delack, ev_delack, tp);
    event_init(&tp->ev_pace, ev_pace, tp);
    event_init(&tp->ev_reo, ev_reo, tp);
    event_init(&tp->ev_tlp, ev_tlp, tp);
    tp->task = (struct cpu_task){ .run = timer_task, .ctx = tp, .cls = CPU_SOFTIRQ, .name = "tcp_timers" };
    return tp;
}

void tcp_sock_free(struct tcp_sock *tp)
{
    /* receive memory is the truesize of the records queued, in order or not */
    assert(tp->rmem_alloc == tcp_queued_truesize(tp));
    tcp_cleanup_congestion_control(tp);
    tcp_seg_free_all(tp);
    tcp_short_free(tp);
    tcp_rskb_vec_free(&tp->rq);
    tcp_rskb_vec_free(&tp->ofo);
    if (tp->drs_log)
        fclose(tp->drs_log);
    free(tp);
}

/* ---- finding the endpoint of a segment: constant work per packet ---- */

static uint32_t conn_hash(uint16_t lport, uint32_t raddr, uint16_t rport)
{
    return sim_hash64(lport | (uint64_t)rport << 16 | (uint64_t)raddr << 32);
}

static struct tcp_sock *conn_find(const struct tcp_host *th, uint16_t lport, uint32_t raddr, uint16_t rport,
                                  bool listener)
{
    if (!th->chash_size)
        return NULL;
    for (struct tcp_sock *tp = th->chash[conn_hash(lport, raddr, rport) & (th->chash_size - 1)]; tp;
         tp = tp->hnext)
        if (tp->sk.port == lport && (tp->state == TCP_LISTEN) == listener &&
            (listener || (tp->daddr == raddr && tp->dport == rport)))
            return tp;
    return NULL;
}

static void chash_put(struct tcp_host *th, struct tcp_sock *tp, uint32_t raddr, uint16_t rport)
{
    uint32_t h = conn_hash(tp->sk.port, raddr, rport) & (th->chash_size - 1);
    tp->hnext = th->chash[h];
    th->chash[h] = tp;
}

/* An endpoint whose local port, and remote address and port (0, 0 for a
 * listener), are set, into the table. The oldest listener of a port is the
 * one found, and the newest endpoint of a 4-tuple, as a walk of th->conns
 * (newest first) found them. */
static void conn_hash_add(struct tcp_sock *tp)
{
    struct tcp_host *th = tp->th;
    bool listener = tp->state == TCP_LISTEN;
    if (listener && conn_find(th, tp->sk.port, 0, 0, true))
        return;
    if (th->chash_n >= th->chash_size) {
        uint32_t old = th->chash_size;
        struct tcp_sock **o = th->chash;
        th->chash_size = old ? 2 * old : 64;
        th->chash = xcalloc(th->chash_size, sizeof *th->chash);
        /* rehash oldest first, so that each chain keeps newest first */
        for (uint32_t b = 0; b < old; b++) {
            struct tcp_sock *rev = NULL;
            for (struct tcp_sock *p = o[b], *n; p; p = n) {
                n = p->hnext;
                p->hnext = rev;
                rev = p;
            }
            for (struct tcp_sock *p = rev, *n; p; p = n) {
                n = p->hnext;
                chash_put(th, p, p->state == TCP_LISTEN ? 0 : p->daddr, p->state == TCP_LISTEN ? 0 : p->dport);
            }
        }
        free(o);
    }
    chash_put(th, tp, listener ? 0 : tp->daddr, listener ? 0 : tp->dport);
    th->chash_n++;
}

void tcp_listen(struct tcp_sock *tp, void (*accept)(struct tcp_sock *listener, struct tcp_sock *child))
{
    tp->state = TCP_LISTEN;
    tp->accept = accept;
    conn_hash_add(tp);
}

static void setup_mss(struct tcp_sock *tp)
{
    struct nic *n = route_next(tp->h, tp->daddr);
    uint32_t mtu = n ? n->tx_link->mtu : 1500;
    tp->advmss = mtu - ip_hdr_len(tp->sk.family) - TCP_HDR_LEN;
    tcp_setup_caps(tp);
    tcp_seg_free_all(tp);        /* blocks come with the first segment sent (tcp_seg_reserve) */
    tp->nblk = 1;
    tp->blk = xcalloc(1, sizeof *tp->blk);
}

/* The window we offer in our SYN or SYN-ACK (tcp_select_initial_window
 * on tcp_full_space with the listener's / socket's initial rcvbuf). */
static void initial_window(struct tcp_sock *tp)
{
    uint64_t clamp = 0;
    /* less the timestamp option only where the SYN said it will be used:
     * a SYN's own window is for the full advmss (tcp_connect_init: no
     * ts_recent_stamp yet), a SYN-ACK's for what the SYN asked
     * (tcp_openreq_init_rwin: ireq->tstamp_ok) */
    uint32_t mss = tp->advmss - (tp->ts_ok ? TCPOLEN_TS_ALIGNED : 0);
    uint64_t init_rwnd = 2 * TCP_INIT_CWND;
    if (tp->advmss > 1460)
        init_rwnd = (1460 * init_rwnd) / tp->advmss > 2 ? (1460 * init_rwnd) / tp->advmss : 2;
    if (tp->th->rcvbuf_rmem)
        init_rwnd = 0;           /* 4.19: no default clamp, only the route's */
    if (tp->th->initrwnd)
        init_rwnd = tp->th->initrwnd;   /* dst_metric(dst, RTAX_INITRWND) replaces the default */
    uint64_t rmax = tp->th->rmem[2] > tp->h->rmem_max ? tp->th->rmem[2] : tp->h->rmem_max;
    tcp_select_initial_window((uint64_t)tcp_full_space(tp), mss, rmax, tp->th->window_scaling, (uint32_t)init_rwnd,
                              &tp->rcv_wnd, &clamp, &tp->rcv_wscale);
    if (tp->th->rcvbuf_rmem && tp->rcv_wnd > 65535)
        tp->rcv_wnd = 65535;     /* 4.19: min(space, U16_MAX), the "around 64KB" */
    tp->window_clamp = clamp;
    tp->rcv_ssthresh = tp->rcv_wnd;
}

void tcp_init_buffer_space(struct tcp_sock *tp)
{
    /* tcp_fixup_rcvbuf: room for 2 x init_rwnd segments at rcvmem, x4 with DRS */
    uint64_t init_rwnd = 2 * TCP_INIT_CWND;
    uint64_t rcvmem = 2ULL * (TCP_SKB_OVERHEAD + tp->advmss + MAX_TCP_HEADER) * init_rwnd;
    if (tp->th->moderate_rcvbuf)
        rcvmem <<= 2;
    if (!tp->th->rcvbuf_rmem && !tp->rcvbuf_locked && tp->sk.rcvbuf < rcvmem)
        tp->sk.rcvbuf = (uint32_t)(rcvmem < tp->th->rmem[2] ? rcvmem : tp->th->rmem[2]);
    tp->rcvq_space = tp->rcv_wnd;
    tp->rcvq_seq = tp->copied_seq;
    tp->rcvq_time_us = ctx_now() / PS_PER_US;
    uint64_t maxwin = (uint64_t)tcp_full_space(tp);
    if (tp->window_clamp >= maxwin) {
        tp->window_clamp = maxwin;
        if (tp->th->app_win && maxwin > 4ULL * tp->advmss) {
            uint64_t w = maxwin - (maxwin >> tp->th->app_win);
            tp->window_clamp = w > 4ULL * tp->advmss ? w : 4ULL * tp->advmss;
        }
    }
    if (tp->th->app_win && tp->window_clamp > 2ULL * tp->advmss && tp->window_clamp + tp->advmss > maxwin)
        tp->window_clamp = maxwin - tp->advmss > 2ULL * tp->advmss ? maxwin - tp->advmss : 2ULL * tp->advmss;
    if (tp->rcv_ssthresh > tp->window_clamp)
        tp->rcv_ssthresh = tp->window_clamp;
    if (tp->th->rcvbuf_rmem) {   /* 4.19: min3(rcv_ssthresh, rcv_wnd, TCP_INIT_CWND x advmss) */
        uint64_t init = (uint64_t)TCP_INIT_CWND * tp->advmss;
        uint64_t sp = tp->rcv_ssthresh < tp->rcv_wnd ? tp->rcv_ssthresh : tp->rcv_wnd;
        tp->rcvq_space = sp < init ? sp : init;
    }
}

/* tcp_sndbuf_expand, as tcp_init_buffer_space calls it: room for twice
 * (or the cc's sndbuf_expand times) the larger of the initial window and
 * cwnd, each segment a power-of-two head (MSS + MAX_TCP_HEADER +
 * skb_shared_info) plus its sk_buff: 87040 bytes for MSS 1460. Linux
 * grows it again on ACKs that free room for a writer that blocked; the
 * model's writer never blocks (it sends what cwnd allows), so the size
 * it starts with is the one ss shows. */
void tcp_sndbuf_expand(struct tcp_sock *tp)
{
    uint32_t mss = tp->mss + (tp->ts_ok ? TCPOLEN_TS_ALIGNED : 0);   /* rx_opt.mss_clamp */
    uint32_t per_mss = 1;
    while (per_mss < mss + MAX_TCP_HEADER + TCP_SHINFO_SIZE)
        per_mss <<= 1;                                               /* roundup_pow_of_two */
    per_mss += TCP_SKB_OVERHEAD - TCP_SHINFO_SIZE;                   /* + sizeof(struct sk_buff), aligned */
    uint64_t nr_segs = tp->snd_cwnd > TCP_INIT_CWND ? tp->snd_cwnd : TCP_INIT_CWND;
    if (nr_segs < tp->reordering + 1ULL)
        nr_segs = tp->reordering + 1ULL;
    uint64_t sndmem = (tp->cc->sndbuf_expand ? tp->cc->sndbuf_expand(tp) : 2) * nr_segs * per_mss;
    if (tp->sk.sndbuf < sndmem)
        tp->sk.sndbuf = (uint32_t)(sndmem < tp->th->wmem[2] ? sndmem : tp->th->wmem[2]);
}

/* tcp_bound_to_half_wnd, as tcp_sync_mss applies it once the peer's
 * first window is known: a peer whose window is smaller than two
 * segments (an MTU of 45000 and a default rcvbuf offers 43690 bytes)
 * gets segments of half its largest window, not one too big to ever fit
 * (nothing was sent). At least 68 bytes of IP packet. */
static uint32_t bound_to_half_wnd(const struct tcp_sock *tp, uint32_t mss)
{
    uint64_t cutoff = tp->max_window > TCP_MSS_DEFAULT ? tp->max_window >> 1 : tp->max_window;
    uint32_t floor = 68 - TCP_HDR_LEN - (tp->ts_ok ? TCPOLEN_TS_ALIGNED : 0);
    if (cutoff && mss > cutoff)
        return cutoff > floor ? (uint32_t)cutoff : floor;
    return mss;
}

static void established(struct tcp_sock *tp)
{
    tp->state = TCP_ESTABLISHED;
    tp->rto_backoff = 0;
    evq_cancel(tp->h->q, &tp->ev_rto);
    tp->mss = tp->mss ? tp->mss : 536;
    tp->snd_cwnd = tp->th->init_cwnd;
    tp->snd_cwnd_clamp = 0xffffffu;
    tp->pacing = tp->cc->cong_control != NULL || tp->th->pacing_fq;
    tcp_init_buffer_space(tp);
    /* per segment, the larger of the MSS the peer allows and mss_cache
     * (4.15's tcp_sndbuf_expand): the MSS before the bound below */
    tcp_sndbuf_expand(tp);
    tp->mss = bound_to_half_wnd(tp, tp->mss);
    tcp_init_congestion_control(tp);
    if (tp->on_connect)
        tp->on_connect(tp);
}

void tcp_connect(struct tcp_sock *tp, uint32_t daddr, uint16_t dport, struct core *c)
{
    tp->daddr = daddr;
    tp->dport = dport;
    conn_hash_add(tp);
    tp->core = c;
    setup_mss(tp);
    initial_window(tp);
    tp->state = TCP_SYN_SENT;
    tp->ecn_flags = tcp_ecn_syn_asks(tp) ? TCP_ECN_OK : 0;   /* tcp_ecn_send_syn */
    tp->rcv_nxt = 0;
    tp->snd_una = 0;
    tp->snd_nxt = 1;
    tcp_send_syn(tp, c, false);
    evq_push(tp->h->q, &tp->ev_rto, core_now(c) + TCP_TIMEOUT_INIT);
    tp->st.data_segs_out = 0;
    tp->rcv_rtt_time_us = 0;
    tp->ack_pending = false;
    tp->cc_priv[0] = 0;
    tp->app_limited = 0;
    tp->lrcvtime = core_now(c);
    tp->next_tx = 0;
    /* remember the SYN's send time for the first RTT sample */
    tp->first_tx_mstamp = core_now(c);
}

static void negotiate(struct tcp_sock *tp, const struct tcp_hdr *th)
{
    tp->ts_ok = tp->th->timestamps && th->ts_ok;
    tp->sack_ok = tp->th->sack && th->sack_ok;
    tp->wscale_ok = th->wscale != 0xff && tp->th->window_scaling;
    if (!tp->wscale_ok) {
        tp->snd_wscale = 0;
        tp->rcv_wscale = 0;
    } else {
        tp->snd_wscale = th->wscale > TCP_MAX_WSCALE ? TCP_MAX_WSCALE : th->wscale;
    }
    uint32_t peer = th->mss ? th->mss : 536;
    uint32_t m = peer < tp->advmss ? peer : tp->advmss;
    tp->mss = m - (tp->ts_ok ? TCPOLEN_TS_ALIGNED : 0);
    if (tp->ts_ok)
        tp->ts_recent = th->tsval;
}

static void conn_request(struct tcp_sock *l, struct skb *skb, const struct tcp_hdr *th, struct core *c)
{
    struct tcp_sock *tp = tcp_sock_new(l->h, 0);
    tp->sk.family = skb->family;        /* the SYN's: what accept() returns */
    tp->sk.port = l->sk.port;
    tp->daddr = skb->saddr;
    tp->dport = skb->sport;
    conn_hash_add(tp);
    tp->core = c;
    tp->sk.rcvbuf = l->sk.rcvbuf;
    tp->rcvbuf_locked = l->rcvbuf_locked;
    tp->flow = l->flow;
    tp->peer_listener = l;
    setup_mss(tp);
    tp->ts_ok = tp->th->timestamps && th->ts_ok;   /* ireq->tstamp_ok, for the window (negotiate sets it too) */
    initial_window(tp);
    negotiate(tp, th);
    tcp_ecn_rcv_syn(tp, th, skb);
    tp->rcv_nxt = th->seq + 1;
    tp->copied_seq = tp->rcv_nxt;
    tp->rcv_wup = tp->rcv_nxt;
    tp->snd_una = 0;
    tp->snd_nxt = 1;
    tp->state = TCP_SYN_RECV;
    tp->first_tx_mstamp = core_now(c);
    tp->lrcvtime = core_now(c);
    tcp_send_syn(tp, c, true);
    evq_push(tp->h->q, &tp->ev_rto, core_now(c) + TCP_TIMEOUT_INIT);
}

/* __inet_lookup: the established endpoint, else the port's listener */
static struct tcp_sock *lookup(struct tcp_host *th, struct skb *skb)
{
    struct tcp_sock *tp = conn_find(th, skb->dport, skb->saddr, skb->sport, false);
    return tp ? tp : conn_find(th, skb->dport, 0, 0, true);
}

void tcp_rcv(struct host *h, struct skb *skb, struct core *c)
{
    host_charge(h, c, skb->family == NET_IPV6 ? tcp_sym.v6_rcv : tcp_sym.v4_rcv);
    struct tcp_host *th = tcp_host_of(h);
    struct tcp_sock *tp = th ? lookup(th, skb) : NULL;
    if (!tp) {
        h->ip_no_proto++;         /* would be a RST */
        skb_free(skb);
        return;
    }
    tp->segs_in += skb_gso_segs(skb);                /* a GRO packet counts its segments */
    tp->data_segs_in += skb->payload > 0 ? skb_gso_segs(skb) : 0;
    struct tcp_hdr hdr;
    memcpy(&hdr, skb->l4, sizeof hdr);          /* l4 is not 8-byte aligned */
    const struct tcp_hdr *hd = &hdr;
    simtime_t now = core_now(c);
    tp->core = c;
    switch (tp->state) {
    case TCP_LISTEN:
        if (hd->flags & TH_SYN)
            conn_request(tp, skb, hd, c);
        break;
    case TCP_SYN_SENT:
        if ((hd->flags & (TH_SYN | TH_ACK)) == (TH_SYN | TH_ACK) && hd->ack == 1) {
            negotiate(tp, hd);
            tcp_ecn_rcv_synack(tp, hd);
            tp->rcv_nxt = hd->seq + 1;
            tp->copied_seq = tp->rcv_wup = tp->rcv_nxt;
            tp->snd_una = 1;
            tp->snd_wnd = hd->win;            /* a SYN's window is never scaled */
            tp->max_window = tp->snd_wnd;
            tcp_rtt_sample(tp, now - tp->first_tx_mstamp);
            established(tp);
            tcp_send_ack(tp, c);
            tcp_write_xmit(tp, c);
        }
        break;
    case TCP_SYN_RECV:
        if ((hd->flags & TH_ACK) && hd->ack == 1 && !(hd->flags & TH_SYN)) {
            tp->snd_una = 1;
            tp->snd_wnd = (uint64_t)hd->win << tp->snd_wscale;
            tp->max_window = tp->snd_wnd;
            tcp_rtt_sample(tp, now - tp->first_tx_mstamp);
            established(tp);
            if (tp->peer_listener && tp->peer_listener->accept)
                tp->peer_listener->accept(tp->peer_listener, tp);
            if (skb->payload)
                tcp_data(tp, hd, skb, c);
        } else if (hd->flags & TH_SYN) {
            tcp_send_syn(tp, c, true);
        }
        break;
    case TCP_ESTABLISHED:
        host_charge(h, c, tcp_sym.established);
        if (hd->flags & TH_SYN) {
            if (hd->flags & TH_ACK)
                tcp_send_ack(tp, c);           /* retransmitted SYN-ACK: our ACK was lost */
            break;
        }
        if (hd->flags & TH_ACK)
            tcp_ack(tp, hd, c);
        if (skb->payload)
            tcp_data(tp, hd, skb, c);
        break;
    default:
        break;
    }
    skb_free(skb);
}

/* ---- traces and counters ---- */

static void series(struct tcp_sock *tp, const char *name, double v)
{
    char key[96];
    snprintf(key, sizeof key, "%s%s", tp->trace_prefix, name);
    sim_series(tp->sim, key, v);
}

void tcp_trace(struct tcp_sock *tp, bool sender)
{
    if (!tp->trace_prefix || tp->state != TCP_ESTABLISHED)
        return;
    if (sender) {
        series(tp, "cwnd", tp->snd_cwnd);
        series(tp, "in_flight", tcp_in_flight(tp));
        series(tp, "snd_wnd", (double)tp->snd_wnd);
        /* share of send attempts since the last sample that stopped at the receive window */
        series(tp, "rwnd_limited", tp->xmit_calls ? (double)tp->rwnd_limited_calls / (double)tp->xmit_calls : 0);
        tp->xmit_calls = tp->rwnd_limited_calls = 0;
        series(tp, "srtt_ms", time_to_s(tp->srtt) * 1e3);
        series(tp, "min_rtt_ms", tp->min_rtt == SIMTIME_NEVER ? 0 : time_to_s(tp->min_rtt) * 1e3);
        series(tp, "pacing_rate_bps", (double)tp->pacing_rate * 8);
        series(tp, "ca_state", tp->ca_state);
        if (tp->cc->trace)
            tp->cc->trace(tp, tp->trace_prefix);
    } else {
        series(tp, "rcv_wnd", (double)tp->rcv_wnd);
        int64_t re = (int64_t)(tp->rcv_wup + tp->rcv_wnd) - (int64_t)tp->rcv_nxt;
        series(tp, "re_minus_rcv_nxt", (double)re);
        series(tp, "rcv_ssthresh", (double)tp->rcv_ssthresh);
        series(tp, "window_clamp", (double)tp->window_clamp);
        series(tp, "rcvbuf", tp->sk.rcvbuf);
        series(tp, "rmem_alloc", (double)tp->rmem_alloc);
        series(tp, "ofo_bytes", (double)tp->ofo_bytes);
        series(tp, "rcv_rtt_ms", (double)(tp->rcv_rtt_us8 >> 3) / 1000.0);
        series(tp, "rcvq_space", (double)tp->rcvq_space);
    }
}

void tcp_register_counters(struct sim *s, struct tcp_stats *st, const char *prefix)
{
    const char *kept = sim_keep_name(s, prefix);
#define C(field, drop) sim_counter_in(s, kept, #field, &st->field, drop)
    C(segs_out, false);
    C(data_segs_out, false);
    C(retrans, false);
    C(lost_retrans, false);
    C(rtos, false);
    C(tlps, false);
    C(recoveries, false);
    C(acks_out, false);
    C(zero_win_acks, false);
    C(dup_data, false);
    C(ofo_segs, false);
    C(undos, false);
    C(spurious_rtos, false);
    C(dsacks_in, false);
    C(dsacks_out, false);
    C(drs_calls, false);
    C(drs_raised, false);
    C(drs_not_raised, false);
    C(drs_below_space, false);
    C(prune_raise, false);
    C(prune_collapse, true);
    C(prune_ofo_drop, true);
    C(prune_drop, true);
#undef C
}
