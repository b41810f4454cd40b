/* SPDX-License-Identifier: GPL-2.0-only */
/* linux/inet_diag.h - what a module's get_info fills for ss -i: the
 * attribute kinds and the three answers, netsim's side reads them */
#ifndef KCOMPAT_LINUX_INET_DIAG_H
#define KCOMPAT_LINUX_INET_DIAG_H
#include <linux/kc_base.h>
enum { INET_DIAG_NONE, INET_DIAG_MEMINFO, INET_DIAG_INFO, INET_DIAG_VEGASINFO, INET_DIAG_CONG,
       INET_DIAG_TOS, INET_DIAG_TCLASS, INET_DIAG_SKMEMINFO, INET_DIAG_SHUTDOWN, INET_DIAG_DCTCPINFO,
       INET_DIAG_PROTOCOL, INET_DIAG_SKV6ONLY, INET_DIAG_LOCALS, INET_DIAG_PEERS, INET_DIAG_PAD,
       INET_DIAG_MARK, INET_DIAG_BBRINFO };
struct tcpvegas_info { u32 tcpv_enabled, tcpv_rttcnt, tcpv_rtt, tcpv_minrtt; };
struct tcp_dctcp_info { u16 dctcp_enabled, dctcp_ce_state; u32 dctcp_alpha, dctcp_ab_ecn, dctcp_ab_tot; };
struct tcp_bbr_info { u32 bbr_bw_lo, bbr_bw_hi, bbr_min_rtt, bbr_pacing_gain, bbr_cwnd_gain; };
union tcp_cc_info {
    struct tcpvegas_info vegas;
    struct tcp_dctcp_info dctcp;
    struct tcp_bbr_info bbr;
};
#endif
