// SPDX-License-Identifier: GPL-2.0-only
/*
 * glue.c - a kernel module as a tcp.cc variant (kcompat/glue.h). Before
 * each call netsim's socket is written into the module's view (the
 * kernel-shaped sock/icsk/tcp_sock of kcompat/view.h, one per socket,
 * allocated at init), after it the fields a module may change are read
 * back: cwnd, ssthresh, their counters and clamp, the pacing rate, the ECN
 * flags, and the core's work it asked for (tcp_enter_cwr). Units follow
 * the kernel: srtt_us is 8 x the smoothed RTT in us, times are us (and
 * ns for the EDT clock), sequence numbers the low 32 bits of netsim's
 * byte offsets.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kcompat/glue.h"
#include "models/tcp/internal.h"
#include "sim/event.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

/* glue.c's own struct over the same lists as the kernel's (view.h) */
struct kc_view {
    struct {
        struct { KC_SOCK_FIELDS } sk;
        KC_ICSK_FIELDS
    } icsk;
    KC_TP_FIELDS
};

enum { ICSK_ACK_TIMER = 2 };

/* per socket, in tp->cc_priv: the view and the ACKs' delivered count the
 * last ECE was counted against (delivered_ce, below) */
struct kc_sockpriv {
    struct kc_view *v;
    uint64_t ce_base;
    unsigned long pacing_filled;  /* sk_pacing_rate as filled: a module set it when it differs */
};
_Static_assert(sizeof(struct kc_sockpriv) <= sizeof(((struct tcp_sock *)0)->cc_priv), "cc_priv too small");

static inline struct kc_variant *var(const struct tcp_sock *tp) { return (struct kc_variant *)tp->cc; }
static inline struct kc_sockpriv *priv(struct tcp_sock *tp) { return (struct kc_sockpriv *)tp->cc_priv; }

static uint32_t us(simtime_t t) { return (uint32_t)(t / PS_PER_US); }

/* The view is made at the first call, which may come before init: the
 * core sizes the send buffer (sndbuf_expand) before it initialises the
 * congestion control, as the kernel's tcp_init_transfer does */
static struct kc_view *view_new(struct tcp_sock *tp)
{
    struct kc_variant *kv = var(tp);
    struct kc_view *v = xcalloc(1, kv->tree->lay.size);
    priv(tp)->v = v;
    priv(tp)->ce_base = tp->delivered;
    v->icsk.icsk_ca_ops = kv->mod->ops;
    v->kc_owner = tp;
    /* the stream is the module's (NAME, not NAME@LABEL): one module of two
     * trees draws the same numbers on one seed, so that a sweep over
     * bbr@old and bbr@new compares the patch, not two dice */
    v->kc_rng = tcp_ca_random_seed(tp, kv->ops.name, strcspn(kv->ops.name, "@"));
    return v;
}

static struct kc_view *fill(struct tcp_sock *tp)
{
    struct kc_view *v = priv(tp)->v ? priv(tp)->v : view_new(tp);
    simtime_t now = ctx_now();
    /* netsim keeps a rate only for a socket that paces, and computes one
     * from cwnd and srtt for the others, as the kernel's
     * tcp_update_pacing_rate would have: a module reads either */
    v->icsk.sk.sk_pacing_rate = priv(tp)->pacing_filled = (unsigned long)tcp_sk_pacing_rate(tp);
    v->icsk.sk.sk_max_pacing_rate = TCP_MAX_PACING_RATE;
    v->icsk.sk.sk_pacing_status = tp->sk.pacing_status ? tp->sk.pacing_status : tp->pacing ? SK_PACING_NEEDED : SK_PACING_NONE;
    v->icsk.sk.sk_gso_max_size = tp->gso_ok ? tp->gso_max_size : 0;
    v->icsk.sk.sk_pacing_shift = 10;
    v->icsk.sk.sk_state = tp->state == TCP_ESTABLISHED ? 1 : 7;
    v->icsk.icsk_ca_state = (uint8_t)tp->ca_state;
    v->icsk.icsk_ack.pending = tp->delack_timer ? ICSK_ACK_TIMER : 0;
    v->snd_cwnd = tp->snd_cwnd;
    v->snd_ssthresh = tp->snd_ssthresh;
    v->snd_cwnd_cnt = tp->snd_cwnd_cnt;
    v->snd_cwnd_clamp = tp->snd_cwnd_clamp;
    v->prior_cwnd = tp->prior_cwnd;
    v->prior_ssthresh = tp->prior_ssthresh;
    v->mss_cache = tp->mss;
    v->snd_una = (uint32_t)tp->snd_una;
    v->snd_nxt = (uint32_t)tp->snd_nxt;
    v->rcv_nxt = (uint32_t)tp->rcv_nxt;
    v->high_seq = (uint32_t)tp->high_seq;
    v->packets_out = tp->packets_out;
    v->sacked_out = tp->sacked_out;
    v->lost_out = tp->lost_out;
    v->retrans_out = tp->retrans_out;
    v->max_packets_out = tp->max_packets_out;
    v->lsndtime = (uint32_t)tp->lsndtime;
    v->srtt_us = us(tp->srtt) << 3;
    v->mdev_us = us(tp->mdev) << 2;
    v->rttvar_us = us(tp->rttvar) << 2;
    v->delivered = (uint32_t)tp->delivered;
    v->app_limited = (uint32_t)tp->app_limited;
    v->tcp_mstamp = (uint64_t)(now / PS_PER_US);
    v->delivered_mstamp = (uint64_t)(tp->delivered_mstamp / PS_PER_US);
    v->tcp_clock_cache = (uint64_t)(now / PS_PER_NS);
    /* the EDT clock's next departure: netsim paces by a timer (4.15), whose
     * next send is the nearest thing */
    v->tcp_wstamp_ns = (uint64_t)((tp->pacing && tp->next_tx > now ? tp->next_tx : now) / PS_PER_NS);
    v->rx_opt.rcv_tsval = tp->ts_recent;
    v->rx_opt.rcv_tsecr = 0;
    v->rx_opt.saw_tstamp = tp->ts_ok;
    v->is_cwnd_limited = tp->is_cwnd_limited;
    v->ecn_flags = tp->ecn_flags;
    v->kc_req = 0;
    v->kc_min_rtt_us = us(tcp_min_rtt(tp));
    v->kc_now_ns = (uint64_t)(now / PS_PER_NS);
    return v;
}

static void back(struct tcp_sock *tp, struct kc_view *v)
{
    tp->snd_cwnd = v->snd_cwnd;
    tp->snd_ssthresh = v->snd_ssthresh;
    tp->snd_cwnd_cnt = v->snd_cwnd_cnt;
    tp->snd_cwnd_clamp = v->snd_cwnd_clamp;
    if (v->icsk.sk.sk_pacing_rate != priv(tp)->pacing_filled)
        tp->pacing_rate = v->icsk.sk.sk_pacing_rate;
    tp->ecn_flags = v->ecn_flags;
    if (v->kc_req & KC_REQ_CWR)
        tcp_enter_cwr(tp);
}

#define M(tp) (var(tp)->mod)
#define T(tp) (var(tp)->tree->t)

static void kc_init(struct tcp_sock *tp)
{
    struct kc_variant *kv = var(tp);
    /* the host's values of the module's parameters: global in the kernel,
     * so per run here; a socket whose host set others sets them again */
    for (int i = 0; i < kv->mod->nparams && i < VARIANT_MAX_KEYS; i++) {
        int64_t want = tcp_cc_key(tp, i);
        if (kv->tree->t->param_get(kv->mod, i) != want && kv->tree->t->param_set(kv->mod, i, want))
            fprintf(stderr, "netsim: %s: the module refused %s = %" PRId64 "\n", kv->ops.name,
                    kv->mod->params[i].name, want);
    }
    struct kc_view *v = fill(tp);
    kv->tree->t->init(kv->mod, v);
    back(tp, v);
}

static void kc_release(struct tcp_sock *tp)
{
    struct kc_view *v = priv(tp)->v;
    if (!v)
        return;
    if (M(tp)->hooks & KC_H_RELEASE)
        T(tp)->release_(M(tp), fill(tp));
    free(v);
    priv(tp)->v = NULL;
}

static uint32_t kc_ssthresh(struct tcp_sock *tp)
{
    struct kc_view *v = fill(tp);
    uint32_t r = T(tp)->ssthresh(M(tp), v);
    back(tp, v);
    return r;
}

static uint32_t kc_undo_cwnd(struct tcp_sock *tp)
{
    struct kc_view *v = fill(tp);
    uint32_t r = T(tp)->undo_cwnd(M(tp), v);
    back(tp, v);
    return r;
}

/* the ACK number: snd_una, which the ACK has just moved */
static void kc_cong_avoid(struct tcp_sock *tp, uint32_t acked)
{
    struct kc_view *v = fill(tp);
    T(tp)->cong_avoid(M(tp), v, (uint32_t)tp->snd_una, acked);
    back(tp, v);
}

static void kc_cong_control(struct tcp_sock *tp, const struct tcp_rate_sample *rs)
{
    struct kc_view *v = fill(tp);
    /* tp->lost: the packets marked lost so far, which netsim's core counts
     * per ACK only (the rate sample's losses) */
    v->lost += rs->losses;
    struct kc_rs r = {
        .prior_mstamp = (uint64_t)(rs->prior_time / PS_PER_US), .prior_delivered = (uint32_t)rs->prior_delivered,
        .delivered = (int32_t)rs->delivered, .interval_us = rs->interval < 0 ? -1 : (long)(rs->interval / PS_PER_US),
        .rtt_us = (long)rs->rtt_us, .losses = (int)rs->losses, .acked_sacked = rs->acked_sacked,
        .prior_in_flight = rs->prior_in_flight, .is_app_limited = rs->is_app_limited,
    };
    T(tp)->cong_control(M(tp), v, &r);
    back(tp, v);
}

static void kc_set_state(struct tcp_sock *tp, int st)
{
    struct kc_view *v = fill(tp);
    T(tp)->set_state(M(tp), v, (uint8_t)st);
    back(tp, v);
}

static void kc_cwnd_event(struct tcp_sock *tp, int ev)
{
    struct kc_view *v = fill(tp);
    T(tp)->cwnd_event(M(tp), v, ev);
    back(tp, v);
}

/* tp->delivered_ce: 6.x counts the packets an ACK with ECE delivers;
 * netsim's core (4.15) does not, so the layer does, per ACK */
static void kc_in_ack_event(struct tcp_sock *tp, uint32_t flags)
{
    struct kc_sockpriv *p = priv(tp);
    if (flags & CA_ACK_ECE)
        p->v->delivered_ce += (uint32_t)(tp->delivered - p->ce_base);
    p->ce_base = tp->delivered;
    if (!(M(tp)->hooks & KC_H_IN_ACK_EVENT))
        return;
    struct kc_view *v = fill(tp);
    T(tp)->in_ack_event(M(tp), v, flags);
    back(tp, v);
}

static void kc_pkts_acked(struct tcp_sock *tp, const struct tcp_ack_sample *s)
{
    struct kc_view *v = fill(tp);
    T(tp)->pkts_acked(M(tp), v, s->pkts_acked, s->rtt_us, s->in_flight);
    back(tp, v);
}

/* 4.20 on, a module names the least burst and the core sizes it
 * (tcp_tso_autosize); before, it chose the burst */
static uint32_t kc_tso_segs_goal(struct tcp_sock *tp)
{
    struct kc_view *v = fill(tp);
    uint32_t r = T(tp)->min_tso_segs(M(tp), v);
    back(tp, v);
    return M(tp)->hooks & KC_H_MIN_TSO ? tcp_tso_autosize(tp, tp->mss, r) : r;
}

static uint32_t kc_sndbuf_expand(struct tcp_sock *tp)
{
    return T(tp)->sndbuf_expand(M(tp), fill(tp));
}

static void kc_get_info(struct tcp_sock *tp, struct tcp_cc_info *info)
{
    struct kc_info k;
    T(tp)->get_info(M(tp), fill(tp), &k);
    memset(info, 0, sizeof *info);
    if (k.kind == 1) {
        info->kind = TCP_CC_INFO_VEGAS;
        info->u.vegas.enabled = k.a, info->u.vegas.rttcnt = k.b, info->u.vegas.rtt_us = k.c, info->u.vegas.minrtt_us = k.d;
    } else if (k.kind == 2) {
        info->kind = TCP_CC_INFO_DCTCP;
        info->u.dctcp.enabled = k.a, info->u.dctcp.ce_state = k.b, info->u.dctcp.alpha = k.c;
        info->u.dctcp.ab_ecn = k.d, info->u.dctcp.ab_tot = k.e;
    } else if (k.kind == 3) {
        info->kind = TCP_CC_INFO_BBR;
        info->u.bbr.bw_bytes_per_s = k.bw, info->u.bbr.min_rtt_us = k.a;
        info->u.bbr.pacing_gain = k.b, info->u.bbr.cwnd_gain = k.c;
    }
}

/* DCTCP's ACK for the data before a CE change, sent in the middle of its
 * cwnd_event with the ECN flags it set for it */
static void send_ack(void *view, uint32_t rcv_nxt)
{
    struct kc_view *v = view;
    struct tcp_sock *tp = v->kc_owner;
    tp->ecn_flags = v->ecn_flags;
    tcp_send_ack_for(tp, tp->rcv_nxt - (uint32_t)((uint32_t)tp->rcv_nxt - rcv_nxt));
}

/* prandom's numbers: the stream netsim's ports draw from (tcp_cong.c) */
static uint32_t random_u32(void *view)
{
    return tcp_ca_random_u32(&((struct kc_view *)view)->kc_rng);
}

static const struct kc_host host = { .send_ack = send_ack, .random_u32 = random_u32 };

/* a parameter's key: its kind's range, and the module's own words */
static void fill_keys(struct kc_variant *kv)
{
    const struct kc_mod *m = kv->mod;
    int n = 0;
    for (int i = 0; i < m->nparams && n < VARIANT_MAX_KEYS; i++, n++) {
        const struct kc_param *p = &m->params[i];
        struct variant_key *k = &kv->keys[n];
        snprintf(kv->defs[n], sizeof kv->defs[n], "%lld", kv->tree->t->param_get(m, i));
        snprintf(kv->docs[n], sizeof kv->docs[n], "module parameter %s of %s (%s): %s; per run, as modprobe "
                 "with it would set it", p->name, kv->file, kv->tree->label, *p->desc ? p->desc : "no description");
        *k = (struct variant_key){ p->name, kv->defs[n], 0, 0, kv->docs[n] };
        switch (p->kind) {
        case KC_P_INT: k->min = INT32_MIN, k->max = INT32_MAX; break;
        case KC_P_UINT: k->min = 0, k->max = UINT32_MAX; break;
        case KC_P_BOOL: k->min = 0, k->max = 1; break;
        default: k->min = 0, k->max = INT64_MAX; break;
        }
    }
    kv->keys[n] = (struct variant_key){ 0 };
}

void kc_install(struct kc_variant *const *vars)
{
    for (int i = 0; vars[i]; i++) {
        struct kc_variant *kv = vars[i];
        struct kc_gtree *gt = kv->tree;
        if (!gt->lay.size) {
            gt->t->layout(&gt->lay);
            if (gt->lay.size != sizeof(struct kc_view) || gt->lay.off_snd_cwnd != offsetof(struct kc_view, snd_cwnd)
                || gt->lay.off_kc_now_ns != offsetof(struct kc_view, kc_now_ns)
                || gt->lay.off_icsk_ca_state != offsetof(struct kc_view, icsk.icsk_ca_state)) {
                fprintf(stderr, "netsim: kcompat: tree %s: the socket view's layout differs between the two sides "
                        "of the layer (kcompat/view.h)\n", gt->label);
                exit(1);
            }
            gt->t->load(&host);
        }
        kv->mod = gt->t->mod(kv->file);
        if (!kv->mod)
            continue;     /* no hooks: variants_check names it and what it lacks */
        uint32_t h = kv->mod->hooks;
        kv->ops.flags = kv->mod->flags & TCP_CONG_NEEDS_ECN;
        kv->ops.init = kc_init;
        kv->ops.release = kc_release;
        kv->ops.ssthresh = kc_ssthresh;
        kv->ops.undo_cwnd = kc_undo_cwnd;
        kv->ops.cong_avoid = h & KC_H_CONG_AVOID ? kc_cong_avoid : NULL;
        kv->ops.cong_control = h & KC_H_CONG_CONTROL ? kc_cong_control : NULL;
        kv->ops.set_state = h & KC_H_SET_STATE ? kc_set_state : NULL;
        kv->ops.cwnd_event = h & KC_H_CWND_EVENT ? kc_cwnd_event : NULL;
        kv->ops.in_ack_event = kc_in_ack_event;
        kv->ops.pkts_acked = h & KC_H_PKTS_ACKED ? kc_pkts_acked : NULL;
        kv->ops.tso_segs_goal = h & (KC_H_MIN_TSO | KC_H_TSO_GOAL) ? kc_tso_segs_goal : NULL;
        kv->ops.sndbuf_expand = h & KC_H_SNDBUF ? kc_sndbuf_expand : NULL;
        kv->ops.get_info = h & KC_H_INFO ? kc_get_info : NULL;
        fill_keys(kv);
    }
}
