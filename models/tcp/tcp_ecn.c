/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_ecn.c - Explicit Congestion Notification in the TCP engine (RFC
 * 3168 as Linux 4.15 has it: tcp_input.c tcp_ecn_*, tcp_output.c
 * tcp_ecn_send*, tcp_ecn_create_request; docs/models/tcp.md, "ECN").
 *
 * The handshake: a SYN asks with ECE|CWR when net.ipv4.tcp_ecn is 1 or
 * the cc needs ECN (DCTCP); a listener accepts when its tcp_ecn is not 0
 * and the SYN itself is Not-ECT, or whatever they are when its cc needs
 * ECN, and says so with ECE on the SYN-ACK; the client keeps ECN when the
 * SYN-ACK has ECE without CWR. Then the IP field: new data segments go
 * ECT(0); pure ACKs and retransmissions Not-ECT, unless the cc needs ECN,
 * when every packet, SYN included, is ECT(0) (the socket's tos set by
 * tcp_assign_congestion_control and left so by INET_ECN_dontxmit's
 * guard). The receiver echoes a CE mark with ECE on every segment until
 * one arrives with CWR; the sender reduces once per window (tcp_enter_cwr,
 * tcp_recovery.c) and sets CWR on its next new segment.
 *
 * A socket without ECN has ecn_flags 0 and a cc without NEEDS_ECN: the
 * engine calls in here only when either is set, so ECN off costs a test
 * per segment.
 */
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/sim.h"

bool tcp_ecn_syn_asks(const struct tcp_sock *tp)
{
    return tp->th->ecn == 1 || tcp_ca_needs_ecn(tp);
}

/* tcp_ecn_create_request and tcp_ecn_openreq_child: the accepted
 * socket's ECN from the SYN that made it. An ECT SYN is refused ECN
 * (RFC 3168 6.1.1: a SYN is never ECT, so one that is came through
 * something that rewrites the field), unless the cc needs ECN. */
void tcp_ecn_rcv_syn(struct tcp_sock *child, const struct tcp_hdr *th, const struct skb *skb)
{
    child->ecn_flags = 0;
    if ((th->flags & (TH_ECE | TH_CWR)) != (TH_ECE | TH_CWR))
        return;
    bool ect = skb_ecn(skb) != INET_ECN_NOT_ECT;
    if ((!ect && child->th->ecn) || tcp_ca_needs_ecn(child))
        child->ecn_flags = TCP_ECN_OK;
}

/* tcp_ecn_rcv_synack: ECE without CWR says yes; anything else no */
void tcp_ecn_rcv_synack(struct tcp_sock *tp, const struct tcp_hdr *th)
{
    if ((tp->ecn_flags & TCP_ECN_OK) && (!(th->flags & TH_ECE) || (th->flags & TH_CWR)))
        tp->ecn_flags &= (uint8_t)~TCP_ECN_OK;
}

/* tcp_ecn_send_syn / tcp_ecn_clear_syn, tcp_ecn_make_synack and
 * tcp_ecn_send: the header's ECE and CWR and the packet's ECN field.
 * fresh: a data segment sent for the first time. */
void tcp_ecn_xmit(struct tcp_sock *tp, struct skb *skb, struct tcp_hdr *th, bool fresh)
{
    uint8_t ect = tcp_ca_needs_ecn(tp) ? INET_ECN_ECT_0 : INET_ECN_NOT_ECT;
    if (th->flags & TH_SYN) {
        /* a SYN retransmitted with tcp_ecn_fallback asks no more: a path
         * that drops ECN-setup SYNs then connects without ECN */
        bool resent = tp->state == TCP_SYN_SENT && tp->rto_backoff > 0;
        if (!(th->flags & TH_ACK) && (tp->ecn_flags & TCP_ECN_OK) && !(resent && tp->th->ecn_fallback))
            th->flags |= TH_ECE | TH_CWR;
        else if ((th->flags & TH_ACK) && (tp->ecn_flags & TCP_ECN_OK))
            th->flags |= TH_ECE;
    } else if (tp->ecn_flags & TCP_ECN_OK) {
        if (fresh) {
            ect = INET_ECN_ECT_0;
            if (tp->ecn_flags & TCP_ECN_QUEUE_CWR) {
                tp->ecn_flags &= (uint8_t)~TCP_ECN_QUEUE_CWR;
                th->flags |= TH_CWR;
                tp->st.ecn_cwr_out++;
            }
        }
        if (tp->ecn_flags & TCP_ECN_DEMAND_CWR) {
            th->flags |= TH_ECE;
            tp->st.ecn_ece_out++;
        }
    }
    skb->tos = (uint8_t)((skb->tos & ~INET_ECN_MASK) | ect);
}

/* __tcp_ecn_check_ce, for each data segment an ECN socket receives in
 * order or out of it: a CE mark asks for ECE until CWR (and the first
 * one for ACKs at once: the sender may have a small window); a Not-ECT
 * segment after ECT ones is likely a retransmission, ACKed at once too. A
 * cc that needs ECN hears of every ECT and CE segment. */
void tcp_ecn_check_ce(struct tcp_sock *tp, uint8_t ecn)
{
    switch (ecn) {
    case INET_ECN_NOT_ECT:
        if (tp->ecn_flags & TCP_ECN_SEEN)
            tcp_enter_quickack_mode(tp);
        break;
    case INET_ECN_CE:
        tp->st.ecn_ce_in++;
        if (tcp_ca_needs_ecn(tp))
            tcp_ca_event(tp, CA_EVENT_ECN_IS_CE);
        if (!(tp->ecn_flags & TCP_ECN_DEMAND_CWR)) {
            tcp_enter_quickack_mode(tp);
            tp->ecn_flags |= TCP_ECN_DEMAND_CWR;
        }
        tp->ecn_flags |= TCP_ECN_SEEN;
        break;
    default:
        if (tcp_ca_needs_ecn(tp))
            tcp_ca_event(tp, CA_EVENT_ECN_NO_CE);
        tp->ecn_flags |= TCP_ECN_SEEN;
        break;
    }
}

void tcp_ecn_register_counters(struct sim *s, struct tcp_stats *st, const char *prefix)
{
    const char *kept = sim_keep_name(s, prefix);
#define C(field) sim_counter_in(s, kept, #field, &st->field, false)
    C(ecn_ce_in);
    C(ecn_ece_out);
    C(ecn_ece_in);
    C(ecn_cwr_out);
    C(ecn_cwr_entered);
#undef C
}
