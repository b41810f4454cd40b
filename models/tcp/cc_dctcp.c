/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cc_dctcp.c - DCTCP (Linux 4.15 net/ipv4/tcp_dctcp.c; Alizadeh et al.,
 * SIGCOMM 2010; RFC 8257): Reno's growth, and on an ECN echo a cut by
 * alpha / 2, where alpha is a moving average (gain g = 2^-shift_g) of the
 * share of bytes ACKed with ECE per window, in 1/1024 units. It needs ECN
 * (TCP_CONG_NEEDS_ECN): it asks for it on every connect, accepts it on
 * every SYN that asks, ECT or not, sends every packet ECT(0), and without
 * ECN negotiated falls back to Reno ("dctcp-reno", as ss shows it).
 *
 * The receiver echoes CE exactly, not RFC 3168's ECE-until-CWR: its CE
 * state follows the last data segment, ECE is set while it is 1, and a
 * change of state with a delayed ACK pending first sends that ACK, for the
 * data before the change, with the old state's ECE (tcp_send_ack_for: 4.15
 * swaps rcv_nxt around tcp_send_ack). As in 4.15, that ACK clears the
 * delayed-ACK schedule, so the segment that changed the state is ACKed
 * only with a later one; with tcp.dctcp_ack = immediate (kernel 6.1 and
 * later) as 4.18 fixed it ("tcp: do not cancel delay-AcK on DCTCP special
 * ACK", "tcp: do not delay ACK in DCTCP upon CE status change") and 6.1
 * has it: docs/models/kernels.md.
 *
 * Module parameters are its keys, tcp.cc.dctcp.NAME: shift_g, alpha_on_init,
 * clamp_alpha_on_loss (dctcp_shift_g, dctcp_alpha_on_init,
 * dctcp_clamp_alpha_on_loss).
 */
#include <stdio.h>
#include "models/tcp/tcp.h"
#include "sim/sim.h"

#define DCTCP_MAX_ALPHA 1024u

enum { K_SHIFT_G, K_ALPHA_ON_INIT, K_CLAMP_ALPHA_ON_LOSS };
static const struct variant_key dctcp_keys[] = {
    [K_SHIFT_G] = { "shift_g", "4", 0, 10,
                    "alpha's gain g = 2^-shift_g (dctcp_shift_g; Linux 4.15 default 4, g = 1/16)" },
    [K_ALPHA_ON_INIT] = { "alpha_on_init", "1024", 0, UINT32_MAX,
                          "alpha at connect, x 1024, at most 1024 (dctcp_alpha_on_init; default 1024: the first "
                          "echo halves cwnd)" },
    [K_CLAMP_ALPHA_ON_LOSS] = { "clamp_alpha_on_loss", "0", 0, 1,
                                "1: alpha to 1024 on a retransmission timeout, so that the reduction halves "
                                "(dctcp_clamp_alpha_on_loss; default 0)" },
    { NULL, NULL, 0, 0, NULL },
};

struct dctcp {
    uint32_t acked_bytes_ecn, acked_bytes_total;   /* this window's, u32 as the kernel's */
    uint64_t prior_snd_una, prior_rcv_nxt, next_seq;
    uint32_t alpha;                                 /* x 1024 */
    uint32_t ce_state;                              /* the last data segment was CE */
    uint32_t delayed_ack_reserved;                  /* the receiver holds a delayed ACK */
    uint32_t loss_cwnd;                             /* cwnd at the last reduction, for undo */
};
_Static_assert(sizeof(struct dctcp) <= sizeof(((struct tcp_sock *)0)->cc_priv), "cc_priv too small");

static inline struct dctcp *ca(struct tcp_sock *tp) { return (struct dctcp *)tp->cc_priv; }

extern const struct tcp_cc_ops tcp_dctcp;
static const struct tcp_cc_ops dctcp_reno;

static void reset(const struct tcp_sock *tp, struct dctcp *c)
{
    c->next_seq = tp->snd_nxt;
    c->acked_bytes_ecn = 0;
    c->acked_bytes_total = 0;
}

/* Without ECN the socket goes on as Reno; the engine then sends Not-ECT
 * (the fallback's cc does not need ECN: INET_ECN_dontxmit) */
static void dctcp_init(struct tcp_sock *tp)
{
    if (!(tp->ecn_flags & TCP_ECN_OK)) {
        tp->cc = &dctcp_reno;
        return;
    }
    struct dctcp *c = ca(tp);
    uint32_t init = (uint32_t)tcp_cc_key(tp, K_ALPHA_ON_INIT);
    c->prior_snd_una = tp->snd_una;
    c->prior_rcv_nxt = tp->rcv_nxt;
    c->alpha = init < DCTCP_MAX_ALPHA ? init : DCTCP_MAX_ALPHA;
    c->delayed_ack_reserved = 0;
    c->loss_cwnd = 0;
    c->ce_state = 0;
    reset(tp, c);
}

/* cwnd - cwnd x alpha / 2048, at least 2 (u32 as the kernel's) */
static uint32_t dctcp_ssthresh(struct tcp_sock *tp)
{
    struct dctcp *c = ca(tp);
    c->loss_cwnd = tp->snd_cwnd;
    uint32_t cut = tp->snd_cwnd - ((tp->snd_cwnd * c->alpha) >> 11);
    return cut > 2 ? cut : 2;
}

/* 4.18 on (tcp.dctcp_ack = immediate): the ACK for the data before the
 * change is a special one that leaves the receiver's delayed-ACK state
 * (its schedule, the quick-ACK count, ato) as it was, since it does not
 * ACK rcv_nxt; then the segment that changed the state is ACKed at once
 * (ICSK_ACK_NOW). A held ACK is the delayed-ACK timer being armed. */
static void ce_state_change_418(struct tcp_sock *tp, struct dctcp *c, uint32_t ce)
{
    if (c->ce_state != ce) {
        if (tp->delack_timer) {
            bool pending = tp->ack_pending, timer = tp->delack_timer;
            int quick = tp->quick;
            simtime_t ato = tp->ato;
            if (c->ce_state)
                tp->ecn_flags |= TCP_ECN_DEMAND_CWR;
            else
                tp->ecn_flags &= (uint8_t)~TCP_ECN_DEMAND_CWR;
            tcp_send_ack_for(tp, c->prior_rcv_nxt);
            tp->ack_pending = pending;
            tp->delack_timer = timer;
            tp->quick = quick;
            tp->ato = ato;
        }
        tp->ack_now = true;
    }
}

/* A change of CE state: the delayed ACK held for the data before it goes
 * now, with the old state's ECE; then ECE follows the new state. */
static void ce_state_change(struct tcp_sock *tp, uint32_t ce)
{
    struct dctcp *c = ca(tp);
    if (tp->th->dctcp_ack_now) {
        ce_state_change_418(tp, c, ce);
    } else if (c->ce_state != ce && c->delayed_ack_reserved) {
        if (c->ce_state)
            tp->ecn_flags |= TCP_ECN_DEMAND_CWR;
        else
            tp->ecn_flags &= (uint8_t)~TCP_ECN_DEMAND_CWR;
        tcp_send_ack_for(tp, c->prior_rcv_nxt);
    }
    c->prior_rcv_nxt = tp->rcv_nxt;
    c->ce_state = ce;
    if (ce)
        tp->ecn_flags |= TCP_ECN_DEMAND_CWR;
    else
        tp->ecn_flags &= (uint8_t)~TCP_ECN_DEMAND_CWR;
}

/* dctcp_update_alpha: bytes ACKed (a duplicate ACK counts as rcv_mss,
 * which a sender that receives nothing keeps at 536), those with ECE, and
 * once snd_una passes the window's end alpha = alpha - alpha/2^g +
 * (ecn bytes << (10 - g)) / total bytes. The subtraction is
 * min_not_zero(alpha, alpha >> g), so that alpha can reach 0. */
static void dctcp_update_alpha(struct tcp_sock *tp, uint32_t flags)
{
    struct dctcp *c = ca(tp);
    uint32_t shift_g = (uint32_t)tcp_cc_key(tp, K_SHIFT_G);
    uint32_t acked_bytes = (uint32_t)(tp->snd_una - c->prior_snd_una);
    if (acked_bytes == 0 && !(flags & CA_ACK_WIN_UPDATE))
        acked_bytes = tp->rcv_mss;
    if (acked_bytes) {
        c->acked_bytes_total += acked_bytes;
        c->prior_snd_una = tp->snd_una;
        if (flags & CA_ACK_ECE)
            c->acked_bytes_ecn += acked_bytes;
    }
    if (tp->snd_una < c->next_seq)
        return;
    uint64_t bytes_ecn = c->acked_bytes_ecn;
    uint32_t alpha = c->alpha;
    uint32_t decay = alpha >> shift_g;
    alpha -= decay ? decay : alpha;
    if (bytes_ecn) {
        bytes_ecn <<= 10 - shift_g;
        bytes_ecn /= c->acked_bytes_total > 1 ? c->acked_bytes_total : 1;
        alpha = alpha + (uint32_t)bytes_ecn < DCTCP_MAX_ALPHA ? alpha + (uint32_t)bytes_ecn : DCTCP_MAX_ALPHA;
    }
    c->alpha = alpha;
    reset(tp, c);
}

static void dctcp_state(struct tcp_sock *tp, int new_state)
{
    if (tcp_cc_key(tp, K_CLAMP_ALPHA_ON_LOSS) && new_state == TCP_CA_Loss)
        ca(tp)->alpha = DCTCP_MAX_ALPHA;
}

static void dctcp_cwnd_event(struct tcp_sock *tp, int ev)
{
    switch (ev) {
    case CA_EVENT_ECN_IS_CE:
        ce_state_change(tp, 1);
        break;
    case CA_EVENT_ECN_NO_CE:
        ce_state_change(tp, 0);
        break;
    case CA_EVENT_DELAYED_ACK:
        ca(tp)->delayed_ack_reserved = 1;
        break;
    case CA_EVENT_NON_DELAYED_ACK:
        ca(tp)->delayed_ack_reserved = 0;
        break;
    default:
        break;
    }
}

/* tcp_dctcp_info: ss -i's dctcp:(ce_state,alpha,ab_ecn,ab_tot), or
 * dctcp:fallback_mode for the Reno fallback */
static void dctcp_get_info(struct tcp_sock *tp, struct tcp_cc_info *info)
{
    const struct dctcp *c = ca(tp);
    info->kind = TCP_CC_INFO_DCTCP;
    info->u.dctcp.enabled = tp->cc != &dctcp_reno;
    if (!info->u.dctcp.enabled)
        return;
    info->u.dctcp.ce_state = (uint16_t)c->ce_state;
    info->u.dctcp.alpha = c->alpha;
    info->u.dctcp.ab_ecn = c->acked_bytes_ecn;
    info->u.dctcp.ab_tot = c->acked_bytes_total;
}

static uint32_t dctcp_cwnd_undo(struct tcp_sock *tp)
{
    uint32_t l = ca(tp)->loss_cwnd;
    return tp->snd_cwnd > l ? tp->snd_cwnd : l;
}

static void dctcp_trace(struct tcp_sock *tp, const char *prefix)
{
    char name[96];
    snprintf(name, sizeof name, "%sdctcp_alpha", prefix);
    sim_series(tp->sim, name, ca(tp)->alpha);
}

const struct tcp_cc_ops tcp_dctcp = {
    .name = "dctcp",
    .doc = "DCTCP (tcp_dctcp.c, Linux 4.15): Reno cut by alpha/2 on ECN echoes, alpha the marked share per window; "
           "needs ECN (asks whatever net.ipv4.tcp_ecn says), Reno without it",
    .keys = dctcp_keys,
    .flags = TCP_CONG_NEEDS_ECN,
    .init = dctcp_init,
    .in_ack_event = dctcp_update_alpha,
    .cwnd_event = dctcp_cwnd_event,
    .ssthresh = dctcp_ssthresh,
    .cong_avoid = tcp_reno_cong_avoid,
    .undo_cwnd = dctcp_cwnd_undo,
    .set_state = dctcp_state,
    .get_info = dctcp_get_info,
    .trace = dctcp_trace,
};
VARIANT("tcp.cc", tcp_dctcp);

/* the kernel's dctcp_reno: not registered, only switched to */
static const struct tcp_cc_ops dctcp_reno = {
    .name = "dctcp-reno",
    .doc = "DCTCP's fallback without ECN: Reno",
    .ssthresh = tcp_reno_ssthresh,
    .cong_avoid = tcp_reno_cong_avoid,
    .undo_cwnd = tcp_reno_undo_cwnd,
    .get_info = dctcp_get_info,
};
