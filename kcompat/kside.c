// SPDX-License-Identifier: GPL-2.0-only
/*
 * kside.c - the kernel side of the layer, compiled once per tree with that
 * tree's KC_VERSION and linked with its modules into one object whose only
 * global symbol is the tree's entry (struct kc_tree, kcompat/view.h): the
 * kernel helpers a module calls (tcp_slow_start, tcp_cong_avoid_ai, Reno,
 * the windowed min/max filter, module registration and parameters), written
 * in the layer's own words from the kernel's definitions, and the calls
 * netsim makes into a module, which set jiffies and the socket's random
 * state first and translate what changed between releases.
 */
#include <net/tcp.h>
#include <stdio.h>

#define KC_MAX_MODS 32

unsigned long kc_jiffies;
static struct tcp_sock *cur;                /* the socket of the call under way */
static const struct kc_host *host;

struct kmod {
    struct kc_mod pub;
    kc_initcall_t init;
    const struct kernel_param_ops *pops[KC_MAX_PARAMS];
};
static struct kmod mods[KC_MAX_MODS];
static int nmods;
static struct kmod *loading;

static struct kmod *mod_of(const char *file)
{
    for (int i = 0; i < nmods; i++)
        if (!strcmp(mods[i].pub.file, file))
            return &mods[i];
    if (nmods == KC_MAX_MODS)
        return NULL;
    mods[nmods].pub.file = file;
    return &mods[nmods++];
}

/* ---- registration (constructors of the modules' module_init and
 * module_param lines, then load) ---- */

void kc_add_init(const char *file, kc_initcall_t fn)
{
    struct kmod *m = mod_of(file);
    if (m)
        m->init = fn;
}

void kc_add_param(const char *file, const char *name, int kind, void *var, const struct kernel_param_ops *ops)
{
    struct kmod *m = mod_of(file);
    if (!m || m->pub.nparams == KC_MAX_PARAMS)
        return;
    static const int kinds[] = { [KC_PK_int] = KC_P_INT, [KC_PK_uint] = KC_P_UINT, [KC_PK_bool] = KC_P_BOOL,
                                 [KC_PK_ulong] = KC_P_ULONG };
    m->pops[m->pub.nparams] = ops;
    m->pub.params[m->pub.nparams++] = (struct kc_param){ name, "", kinds[kind], var };
}

void kc_add_param_desc(const char *file, const char *name, const char *desc)
{
    struct kmod *m = mod_of(file);
    for (int i = 0; m && i < m->pub.nparams; i++)
        if (!strcmp(m->pub.params[i].name, name))
            m->pub.params[i].desc = desc;
}

int tcp_register_congestion_control(struct tcp_congestion_ops *ca)
{
    if (!loading)
        return -1;
    struct kc_mod *m = &loading->pub;
    m->name = ca->name;
    m->ops = ca;
    m->flags = ca->flags;
    m->hooks = (ca->init ? KC_H_INIT : 0) | (ca->release ? KC_H_RELEASE : 0) | (ca->cong_avoid ? KC_H_CONG_AVOID : 0)
             | (ca->cong_control ? KC_H_CONG_CONTROL : 0) | (ca->set_state ? KC_H_SET_STATE : 0)
             | (ca->cwnd_event ? KC_H_CWND_EVENT : 0) | (ca->in_ack_event ? KC_H_IN_ACK_EVENT : 0)
             | (ca->pkts_acked ? KC_H_PKTS_ACKED : 0) | (ca->sndbuf_expand ? KC_H_SNDBUF : 0)
             | (ca->get_info ? KC_H_INFO : 0)
#if KC_VERSION >= KC_V(4, 20)
             | (ca->min_tso_segs ? KC_H_MIN_TSO : 0);
#else
             | (ca->tso_segs_goal ? KC_H_TSO_GOAL : 0);
#endif
    return 0;
}

void tcp_unregister_congestion_control(struct tcp_congestion_ops *ca) { (void)ca; }

static void run_init(struct kmod *m)
{
    loading = m;
    if (m->init)
        m->init();
    loading = NULL;
}

static void load(const struct kc_host *h)
{
    host = h;
    for (int i = 0; i < nmods; i++)
        if (!mods[i].pub.ops)
            run_init(&mods[i]);
}

static const struct kc_mod *find(const char *file)
{
    for (int i = 0; i < nmods; i++)
        if (!strcmp(mods[i].pub.file, file) && mods[i].pub.ops)
            return &mods[i].pub;
    return NULL;
}

static void layout(struct kc_layout_info *out)
{
    out->size = sizeof(struct tcp_sock);
    out->off_icsk_ca_state = offsetof(struct tcp_sock, inet_conn.icsk_ca_state);
    out->off_snd_cwnd = offsetof(struct tcp_sock, snd_cwnd);
    out->off_kc_now_ns = offsetof(struct tcp_sock, kc_now_ns);
}

/* ---- parameters: a write as sysfs makes it, then module_init again
 * (a parameter such as CUBIC's beta feeds constants init computes) ---- */

int param_set_uint_minmax(const char *val, const struct kernel_param *kp, unsigned int lo, unsigned int hi)
{
    char *end;
    unsigned long v = strtoul(val, &end, 0);
    if (*val == '\0' || *end != '\0' || v < lo || v > hi)
        return -22;
    *(unsigned int *)kp->arg = (unsigned int)v;
    return 0;
}

int param_set_uint(const char *val, const struct kernel_param *kp) { return param_set_uint_minmax(val, kp, 0, UINT_MAX); }

int param_get_uint(char *buf, const struct kernel_param *kp)
{
    return sprintf(buf, "%u\n", *(unsigned int *)kp->arg);
}

static long long param_get(const struct kc_mod *pm, int i)
{
    const struct kc_param *p = &pm->params[i];
    switch (p->kind) {
    case KC_P_INT: return *(int *)p->var;
    case KC_P_UINT: return *(unsigned int *)p->var;
    case KC_P_BOOL: return *(bool *)p->var;
    default: return (long long)*(unsigned long *)p->var;
    }
}

static int param_set(const struct kc_mod *pm, int i, long long v)
{
    struct kmod *m = (struct kmod *)pm;
    const struct kc_param *p = &pm->params[i];
    if (m->pops[i] && m->pops[i]->set) {
        char s[32];
        snprintf(s, sizeof s, "%lld", v);
        struct kernel_param kp = { p->name, m->pops[i], p->var };
        if (m->pops[i]->set(s, &kp))
            return -1;
    } else {
        switch (p->kind) {
        case KC_P_INT: *(int *)p->var = (int)v; break;
        case KC_P_UINT: *(unsigned int *)p->var = (unsigned int)v; break;
        case KC_P_BOOL: *(bool *)p->var = v != 0; break;
        default: *(unsigned long *)p->var = (unsigned long)v; break;
        }
    }
    run_init(m);
    return 0;
}

/* ---- the calls into a module ---- */

static inline struct sock *enter(void *view)
{
    cur = view;
    kc_jiffies = (unsigned long)(cur->kc_now_ns / (NSEC_PER_SEC / HZ));
    return view;
}

/* The ops are the socket's, not the registered ones: a module may switch
 * a socket to others (DCTCP falls back to its dctcp_reno without ECN), and
 * those may lack a hook the registered ones have */
#define OPS(v) (((struct tcp_sock *)(v))->inet_conn.icsk_ca_ops)

static void c_init(const struct kc_mod *m, void *v)
{
    (void)m;
    if (OPS(v)->init)
        OPS(v)->init(enter(v));
}
static void c_release(const struct kc_mod *m, void *v)
{
    (void)m;
    if (OPS(v)->release)
        OPS(v)->release(enter(v));
}
static uint32_t c_ssthresh(const struct kc_mod *m, void *v) { (void)m; return OPS(v)->ssthresh(enter(v)); }
static uint32_t c_undo(const struct kc_mod *m, void *v) { (void)m; return OPS(v)->undo_cwnd(enter(v)); }
static void c_cong_avoid(const struct kc_mod *m, void *v, uint32_t ack, uint32_t acked)
{
    (void)m;
    if (OPS(v)->cong_avoid)
        OPS(v)->cong_avoid(enter(v), ack, acked);
}
static void c_set_state(const struct kc_mod *m, void *v, uint8_t st)
{
    (void)m;
    if (OPS(v)->set_state)
        OPS(v)->set_state(enter(v), st);
}
static void c_in_ack_event(const struct kc_mod *m, void *v, uint32_t f)
{
    (void)m;
    if (OPS(v)->in_ack_event)
        OPS(v)->in_ack_event(enter(v), f);
}
static uint32_t c_sndbuf(const struct kc_mod *m, void *v)
{
    (void)m;
    return OPS(v)->sndbuf_expand ? OPS(v)->sndbuf_expand(enter(v)) : 2;
}

/* netsim's events are 4.15's; from 4.18 the two delayed-ACK ones do not exist */
static void c_cwnd_event(const struct kc_mod *m, void *v, int ev)
{
    (void)m;
#if KC_VERSION >= KC_V(4, 18)
    if (ev > CA_EVENT_ECN_IS_CE)
        return;
#endif
    if (OPS(v)->cwnd_event)
        OPS(v)->cwnd_event(enter(v), (enum tcp_ca_event)ev);
}

static void c_pkts_acked(const struct kc_mod *m, void *v, uint32_t pkts, int32_t rtt_us, uint32_t in_flight)
{
    struct ack_sample s = { pkts, rtt_us, in_flight };
    (void)m;
    if (OPS(v)->pkts_acked)
        OPS(v)->pkts_acked(enter(v), &s);
}

static void c_cong_control(const struct kc_mod *m, void *v, const struct kc_rs *r)
{
    struct rate_sample rs = {
        .prior_mstamp = r->prior_mstamp, .prior_delivered = r->prior_delivered, .delivered = r->delivered,
        .interval_us = r->interval_us, .rtt_us = r->rtt_us, .losses = r->losses, .acked_sacked = r->acked_sacked,
        .prior_in_flight = r->prior_in_flight, .is_app_limited = r->is_app_limited,
    };
    (void)m;
    if (OPS(v)->cong_control)
        OPS(v)->cong_control(enter(v), &rs);
}

static uint32_t c_min_tso(const struct kc_mod *m, void *v)
{
    (void)m;
#if KC_VERSION >= KC_V(4, 20)
    return OPS(v)->min_tso_segs ? OPS(v)->min_tso_segs(enter(v)) : 2;
#else
    return OPS(v)->tso_segs_goal ? OPS(v)->tso_segs_goal(enter(v)) : 0;
#endif
}

static void c_get_info(const struct kc_mod *m, void *v, struct kc_info *out)
{
    union tcp_cc_info u;
    int attr = 0;
    (void)m;
    memset(&u, 0, sizeof u);
    memset(out, 0, sizeof *out);
    u32 ext = (1u << (INET_DIAG_VEGASINFO - 1)) | (1u << (INET_DIAG_DCTCPINFO - 1)) | (1u << (INET_DIAG_BBRINFO - 1));
    if (!OPS(v)->get_info || !OPS(v)->get_info(enter(v), ext, &attr, &u))
        return;
    if (attr == INET_DIAG_VEGASINFO)
        *out = (struct kc_info){ 1, u.vegas.tcpv_enabled, u.vegas.tcpv_rttcnt, u.vegas.tcpv_rtt, u.vegas.tcpv_minrtt, 0, 0 };
    else if (attr == INET_DIAG_DCTCPINFO)
        *out = (struct kc_info){ 2, u.dctcp.dctcp_enabled, u.dctcp.dctcp_ce_state, u.dctcp.dctcp_alpha,
                                 u.dctcp.dctcp_ab_ecn, u.dctcp.dctcp_ab_tot, 0 };
    else if (attr == INET_DIAG_BBRINFO)
        *out = (struct kc_info){ 3, u.bbr.bbr_min_rtt, u.bbr.bbr_pacing_gain, u.bbr.bbr_cwnd_gain, 0, 0,
                                 (u64)u.bbr.bbr_bw_hi << 32 | u.bbr.bbr_bw_lo };
}

/* ---- what a module calls ---- */

/* the socket's stream, which netsim seeds from the run's seed and draws
 * as its own ports do (models/tcp/tcp_cong.c) */
u32 kc_random_u32(void)
{
    return host->random_u32(cur);
}

/* slow start: grow by what was ACKed up to ssthresh; the rest is returned
 * for congestion avoidance */
u32 tcp_slow_start(struct tcp_sock *tp, u32 acked)
{
    u32 cwnd = min(tcp_snd_cwnd(tp) + acked, tp->snd_ssthresh);
    acked -= cwnd - tcp_snd_cwnd(tp);
    tcp_snd_cwnd_set(tp, min(cwnd, tp->snd_cwnd_clamp));
    return acked;
}

/* additive increase: one segment per w ACKed; credit earned at a larger
 * w is spent first, a segment at once */
void tcp_cong_avoid_ai(struct tcp_sock *tp, u32 w, u32 acked)
{
    if (tp->snd_cwnd_cnt >= w) {
        tp->snd_cwnd_cnt = 0;
        tcp_snd_cwnd_set(tp, tcp_snd_cwnd(tp) + 1);
    }
    tp->snd_cwnd_cnt += acked;
    if (tp->snd_cwnd_cnt >= w) {
        u32 delta = tp->snd_cwnd_cnt / w;
        tp->snd_cwnd_cnt -= delta * w;
        tcp_snd_cwnd_set(tp, tcp_snd_cwnd(tp) + delta);
    }
    tcp_snd_cwnd_set(tp, min(tcp_snd_cwnd(tp), tp->snd_cwnd_clamp));
}

void tcp_reno_cong_avoid(struct sock *sk, u32 ack, u32 acked)
{
    struct tcp_sock *tp = tcp_sk(sk);
    (void)ack;
    if (!tcp_is_cwnd_limited(sk))
        return;
    if (tcp_in_slow_start(tp)) {
        acked = tcp_slow_start(tp, acked);
        if (!acked)
            return;
    }
    tcp_cong_avoid_ai(tp, tcp_snd_cwnd(tp), acked);
}

u32 tcp_reno_ssthresh(struct sock *sk) { return max(tcp_snd_cwnd(tcp_sk(sk)) >> 1U, 2U); }
u32 tcp_reno_undo_cwnd(struct sock *sk) { return max(tcp_snd_cwnd(tcp_sk(sk)), tcp_sk(sk)->prior_cwnd); }

/* netsim's core enters CWR when the call returns (glue.c) */
void tcp_enter_cwr(struct sock *sk) { tcp_sk(sk)->kc_req |= KC_REQ_CWR; }

void __tcp_send_ack(struct sock *sk, u32 rcv_nxt)
{
    if (host && host->send_ack)
        host->send_ack(sk, rcv_nxt);
}

/* ---- the windowed min/max filter (Nichols): the best, second and third
 * best samples of the window, the second and third from later subwindows,
 * so that the best can age out without a scan ---- */

static u32 minmax_subwin_update(struct minmax *m, u32 win, const struct minmax_sample *val)
{
    u32 dt = val->t - m->s[0].t;
    if (unlikely(dt > win)) {
        /* the best aged out: the others move up, and the new sample takes the
         * third place; if the second aged out too, once more */
        m->s[0] = m->s[1];
        m->s[1] = m->s[2];
        m->s[2] = *val;
        if (unlikely(val->t - m->s[0].t > win)) {
            m->s[0] = m->s[1];
            m->s[1] = m->s[2];
            m->s[2] = *val;
        }
    } else if (unlikely(m->s[1].t == m->s[0].t) && dt > win / 4) {
        /* a quarter of the window passed with no second choice: take this */
        m->s[2] = m->s[1] = *val;
    } else if (unlikely(m->s[2].t == m->s[1].t) && dt > win / 2) {
        m->s[2] = *val;
    }
    return m->s[0].v;
}

u32 minmax_running_max(struct minmax *m, u32 win, u32 t, u32 meas)
{
    struct minmax_sample val = { .t = t, .v = meas };
    if (unlikely(val.v >= m->s[0].v) || unlikely(val.t - m->s[2].t > win))
        return minmax_reset(m, t, meas);
    if (unlikely(val.v >= m->s[1].v))
        m->s[2] = m->s[1] = val;
    else if (unlikely(val.v >= m->s[2].v))
        m->s[2] = val;
    return minmax_subwin_update(m, win, &val);
}

u32 minmax_running_min(struct minmax *m, u32 win, u32 t, u32 meas)
{
    struct minmax_sample val = { .t = t, .v = meas };
    if (unlikely(val.v <= m->s[0].v) || unlikely(val.t - m->s[2].t > win))
        return minmax_reset(m, t, meas);
    if (unlikely(val.v <= m->s[1].v))
        m->s[2] = m->s[1] = val;
    else if (unlikely(val.v <= m->s[2].v))
        m->s[2] = val;
    return minmax_subwin_update(m, win, &val);
}

/* ---- the tree's entry: renamed kc_tree_N by the build, the one symbol
 * it leaves global ---- */
#define KC_STR2(x) #x
#define KC_STR(x) KC_STR2(x)
__attribute__((visibility("default"))) const struct kc_tree kc_tree_entry = {
    .release = KC_STR(KC_RELEASE),
    .load = load, .mod = find, .layout = layout, .param_set = param_set, .param_get = param_get,
    .init = c_init, .release_ = c_release, .ssthresh = c_ssthresh, .undo_cwnd = c_undo, .cong_avoid = c_cong_avoid,
    .cong_control = c_cong_control, .set_state = c_set_state, .cwnd_event = c_cwnd_event,
    .in_ack_event = c_in_ack_event, .pkts_acked = c_pkts_acked, .min_tso_segs = c_min_tso,
    .sndbuf_expand = c_sndbuf, .get_info = c_get_info,
};
