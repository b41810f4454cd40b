/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcp_ss.c - one endpoint as `ss -tmi` prints it (iproute2 misc/ss.c:
 * print_skmeminfo, tcp_show_info, tcp_stats_print, from the tcp_info of
 * Linux tcp_get_info), and each printed field as a series.
 *
 * ss prints a field only when it is non-zero (ssthresh only below 0xFFFF,
 * rto unless it is the 3 s initial one); the series follow the text, so a
 * series row exists exactly when the line shows the field, with the same
 * value unrounded. Fields the model has no state for are left out (see
 * docs/models/tcp.md, "Socket state"); skmem keeps its nine members
 * because readers of ss parse it by position, the unmodelled ones 0.
 */
#include <inttypes.h>
#include <stdio.h>
#include "models/tcp/tcp.h"
#include "sim/sim.h"
#include "sim/ss_line.h"

/* sprint_bw: bits per second with ss's suffixes */
static void sprint_bw(char *b, size_t n, double bps)
{
    if (bps >= 1e12)
        snprintf(b, n, "%.3gT", bps / 1e12);
    else if (bps >= 1e9)
        snprintf(b, n, "%.3gG", bps / 1e9);
    else if (bps >= 1e6)
        snprintf(b, n, "%.3gM", bps / 1e6);
    else if (bps >= 1e3)
        snprintf(b, n, "%.3gk", bps / 1e3);
    else
        snprintf(b, n, "%g", bps);
}

static void bw_text(struct ss_line *l, double bps)
{
    char b[32];
    sprint_bw(b, sizeof b, bps);
    ss_put(l, "%sbps", b);
}

static void bw(struct ss_line *l, const char *name, double bps)
{
    if (bps <= 0)
        return;
    ss_put(l, " %s ", name);
    bw_text(l, bps);
    char key[48];
    snprintf(key, sizeof key, "%s_bps", name);
    ss_series(l, key, bps);
}

/* tcp_info carries times in microseconds; ss prints milliseconds */
static double ms(simtime_t t) { return (double)(t / PS_PER_US) / 1000.0; }

static void skmem(struct ss_line *l)
{
    const struct tcp_sock *tp = l->ctx;
    /* sk_drops: the segments the receiver dropped for memory (tcp_drop) */
    uint64_t drops = tp->st.prune_drop + tp->st.prune_ofo_drop;
    ss_put(l, "\t skmem:(r%" PRIu64 ",rb%u,t%" PRIu64 ",tb%u,f0,w0,o0,bl0,d%" PRIu64 ")", tp->rmem_alloc, tp->sk.rcvbuf,
        tp->sk.wmem_alloc, tp->sk.sndbuf, drops);
    ss_series(l, "skmem_r", (double)tp->rmem_alloc);
    ss_series(l, "skmem_rb", tp->sk.rcvbuf);
    ss_series(l, "skmem_t", (double)tp->sk.wmem_alloc);
    ss_series(l, "skmem_tb", tp->sk.sndbuf);
    ss_series(l, "skmem_d", (double)drops);
}

static void timing(struct ss_line *l)
{
    struct tcp_sock *tp = l->ctx;
    simtime_t rto = tp->rto << tp->rto_backoff;    /* icsk_rto, backed off */
    if (rto > TCP_RTO_MAX)
        rto = TCP_RTO_MAX;
    if (rto && rto != 3 * PS_PER_S) {
        ss_put(l, " rto:%g", ms(rto));
        ss_series(l, "rto_ms", ms(rto));
    }
    ss_u(l, "backoff", (uint64_t)tp->rto_backoff);
    if (tp->srtt) {
        /* tcpi_rttvar is mdev_us >> 2: the mean deviation itself */
        ss_put(l, " rtt:%g/%g", ms(tp->srtt), ms(tp->mdev));
        ss_series(l, "rtt_ms", ms(tp->srtt));
        ss_series(l, "rttvar_ms", ms(tp->mdev));
    }
    if (tp->ato) {
        ss_put(l, " ato:%g", ms(tp->ato));
        ss_series(l, "ato_ms", ms(tp->ato));
    }
}

void tcp_ss(struct tcp_sock *tp, const char *prefix)
{
    if (tp->state != TCP_ESTABLISHED)
        return;
    struct ss_line l = { .s = tp->sim, .ctx = tp, .prefix = prefix };
    char local[64], peer[64], a[20];
    if (tp->sk.family == NET_IPV6) {
        ss_endpoint(local, sizeof local, tp->h->id, tp->sk.port, NET_IPV6);
        ss_endpoint(peer, sizeof peer, tp->daddr, tp->dport, NET_IPV6);
    } else {
        snprintf(local, sizeof local, "%s:%u", host_addr_str(tp->h->id, a), tp->sk.port);
        snprintf(peer, sizeof peer, "%s:%u", host_addr_str(tp->daddr, a), tp->dport);
    }
    /* the source is unlimited until it stops: what it wrote is what was sent */
    uint64_t written = tp->write_seq > tp->snd_nxt ? tp->write_seq : tp->snd_nxt;
    uint64_t recv_q = tp->rcv_nxt - tp->copied_seq, send_q = written - tp->snd_una;
    int n = sim_ss_state_line(l.text, sizeof l.text, "ESTAB", recv_q, send_q, local, peer);
    l.len = n > 0 ? (size_t)n : 0;
    ss_series(&l, "recv_q", (double)recv_q);
    ss_series(&l, "send_q", (double)send_q);
    ss_put(&l, "\n");
    skmem(&l);

    /* tcpi_options' TCPI_OPT_ECN and _ECN_SEEN, where ss puts them */
    if (tp->ecn_flags & TCP_ECN_OK)
        ss_put(&l, " ecn");
    if (tp->ecn_flags & TCP_ECN_SEEN)
        ss_put(&l, " ecnseen");
    ss_put(&l, " %s", tp->cc->name);
    if (tp->wscale_ok)
        ss_put(&l, " wscale:%u,%u", tp->snd_wscale, tp->rcv_wscale);
    timing(&l);
    ss_u(&l, "mss", tp->mss);
    ss_u(&l, "pmtu", ip_path_mtu(tp->h, tp->daddr, tp->sk.family));
    ss_u(&l, "rcvmss", tp->rcv_mss);
    ss_u(&l, "advmss", tp->advmss);
    ss_u(&l, "cwnd", tp->snd_cwnd);
    if (tp->snd_ssthresh < 0xFFFF)
        ss_u(&l, "ssthresh", tp->snd_ssthresh);
    /* every data segment is one full MSS (tcp.h), new or retransmitted */
    ss_u(&l, "bytes_sent", tp->st.data_segs_out * tp->mss);
    ss_u(&l, "bytes_retrans", tp->st.retrans * tp->mss);
    ss_u(&l, "bytes_acked", tp->snd_una > 1 ? tp->snd_una - 1 : 0);
    ss_u(&l, "bytes_received", tp->rcv_nxt > 1 ? tp->rcv_nxt - 1 : 0);
    ss_u(&l, "segs_out", tp->st.segs_out);
    ss_u(&l, "segs_in", tp->segs_in);
    ss_u(&l, "data_segs_out", tp->st.data_segs_out);
    ss_u(&l, "data_segs_in", tp->data_segs_in);
    /* the cc's get_info (inet_diag): ss prints BBR's, and takes Vegas's
     * (and Westwood's) RTT for its "send" figure */
    struct tcp_cc_info info = { .kind = TCP_CC_INFO_NONE };
    if (tp->cc->get_info)
        tp->cc->get_info(tp, &info);
    if (info.kind == TCP_CC_INFO_DCTCP && info.u.dctcp.enabled) {
        ss_put(&l, " dctcp:(ce_state:%u,alpha:%u,ab_ecn:%u,ab_tot:%u)", info.u.dctcp.ce_state, info.u.dctcp.alpha,
               info.u.dctcp.ab_ecn, info.u.dctcp.ab_tot);
        ss_series(&l, "dctcp_alpha", info.u.dctcp.alpha);
    } else if (info.kind == TCP_CC_INFO_DCTCP) {
        ss_put(&l, " dctcp:fallback_mode");
    }
    if (info.kind == TCP_CC_INFO_BBR) {
        ss_put(&l, " bbr:(bw:");
        bw_text(&l, (double)info.u.bbr.bw_bytes_per_s * 8);
        ss_put(&l, ",mrtt:%g", (double)info.u.bbr.min_rtt_us / 1000.0);
        if (info.u.bbr.pacing_gain)
            ss_put(&l, ",pacing_gain:%g", (double)info.u.bbr.pacing_gain / 256.0);
        if (info.u.bbr.cwnd_gain)
            ss_put(&l, ",cwnd_gain:%g", (double)info.u.bbr.cwnd_gain / 256.0);
        ss_put(&l, ")");
    }
    /* ss's own figure: cwnd * mss * 8 / rtt */
    double rtt_us = time_to_us(tp->srtt);
    if (info.kind == TCP_CC_INFO_VEGAS && info.u.vegas.enabled && info.u.vegas.rtt_us &&
        info.u.vegas.rtt_us != 0x7fffffff)
        rtt_us = info.u.vegas.rtt_us;
    if (rtt_us > 0 && tp->mss && tp->snd_cwnd)
        bw(&l, "send", (double)tp->snd_cwnd * tp->mss * 8e6 / rtt_us);
    bw(&l, "pacing_rate", (double)tcp_sk_pacing_rate(tp) * 8);
    /* tcp_compute_delivery_rate: the sample tcp_rate_gen kept */
    if (tp->rate_interval_us)
        bw(&l, "delivery_rate", (double)tp->rate_delivered * tp->mss * 8e6 / (double)tp->rate_interval_us);
    ss_u(&l, "delivered", tp->delivered);
    if (tp->rate_app_limited)
        ss_put(&l, " app_limited");
    ss_u(&l, "unacked", tp->packets_out);
    if (tp->retrans_out || tp->st.retrans) {
        ss_put(&l, " retrans:%u/%" PRIu64, tp->retrans_out, tp->st.retrans);
        ss_series(&l, "retrans", tp->retrans_out);
        ss_series(&l, "retrans_total", (double)tp->st.retrans);
    }
    ss_u(&l, "lost", tp->lost_out);
    ss_u(&l, "sacked", tp->sacked_out);
    if (tp->reordering != 3) {
        ss_put(&l, " reordering:%u", tp->reordering);
        ss_series(&l, "reordering", tp->reordering);
    }
    if (tp->rcv_rtt_us8 > 0) {
        double r = (double)(tp->rcv_rtt_us8 >> 3) / 1000.0;   /* tcpi_rcv_rtt: rtt_us >> 3 */
        ss_put(&l, " rcv_rtt:%g", r);
        ss_series(&l, "rcv_rtt_ms", r);
    }
    ss_u(&l, "rcv_space", tp->rcvq_space);
    ss_u(&l, "rcv_ssthresh", tp->rcv_ssthresh);
    if (tp->min_rtt && tp->min_rtt != SIMTIME_NEVER) {
        ss_put(&l, " minrtt:%g", ms(tp->min_rtt));
        ss_series(&l, "minrtt_ms", ms(tp->min_rtt));
    }
    ss_u(&l, "rcv_ooopack", tp->st.ofo_segs);
    ss_u(&l, "snd_wnd", tp->snd_wnd);
    ss_u(&l, "rcv_wnd", tp->rcv_wnd);
    sim_emit_sock(tp->sim, tp->flow ? tp->flow->id : 0, tp->h->name, l.text);
}
