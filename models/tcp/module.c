/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * module.c - the tcp family: per-host sysctls and variant choice, the
 * protocol handler, the applications (tcp_stream, tcp_iperf3) and the
 * variant families. The engine is tcp_*.c, congestion control
 * cc_*.c (tcp.cc), receive autotuning drs_*.c (tcp.drs), each variant
 * registering itself (sim/variant.h).
 *
 * Host keys (kernel names; defaults are Linux 4.15's):
 *   net.ipv4.tcp_rmem = "4096 87380 6291456"   min, default, max (bytes)
 *   net.ipv4.tcp_wmem = "4096 16384 4194304"
 *   net.ipv4.tcp_adv_win_scale (1), tcp_app_win (31), tcp_moderate_rcvbuf (1),
 *   tcp.win_from_space (adv_win_scale: 4.15's rule; scaling_ratio: 6.6's,
 *   which has no sysctl, the choice is named after the kernel's function)
 *   tcp_timestamps (1), tcp_sack (1), tcp_window_scaling (1),
 *   tcp_reordering (3), tcp_fack (1), tcp_recovery (1 = RACK),
 *   tcp.loss_detection (fack_rack: 4.15's; rack_tlp: 4.18 on), tcp.dctcp_ack,
 *   tcp_early_retrans (3 = TLP), tcp_ecn (2), tcp_ecn_fallback (1)
 *   tcp.cc (cubic, the 4.15 default), tcp.drs (trimodal: 4.15 before
 *   seed 003): the registered variants, `netsim models`
 *   tcp.init_cwnd (10), tcp.fq_pacing (off: pace CUBIC/Reno as with sch_fq)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/tcp/internal.h"
#include "models/tcp/tcp.h"
#include "sim/config.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

extern const struct app_ops tcp_stream_app, tcp_iperf3_app, tcp_rpc_app, tcp_incast_app;
static const struct app_ops *const apps[] = { &tcp_stream_app, &tcp_iperf3_app, &tcp_rpc_app, &tcp_incast_app, NULL };

/* "4096 87380 6291456": three sizes, non-decreasing */
static void read_triple(struct cfg_section *sec, const char *key, const char *def, uint64_t out[3], const char *doc)
{
    const char *v = cfg_str(sec, key, def, doc);
    if (cfg_split_sizes(v, out, 3) || out[0] > out[1] || out[1] > out[2] || out[2] > (1ULL << 31) || out[1] < 256) {
        cfg_error(sec, key, "got '%s', expected three sizes 'min default max' such as '%s' (max at most 2G)", v, def);
        sscanf(def, "%llu %llu %llu", (unsigned long long *)&out[0], (unsigned long long *)&out[1],
               (unsigned long long *)&out[2]);
    }
}

int tcp_module_slot = -1;

static void attach(struct sim *s, struct host *h, int slot)
{
    tcp_module_slot = slot;
    tcp_offload_init();
    tcp_syms_init();
    struct cfg_section *sec = h->sec;
    struct tcp_host *th = xcalloc(1, sizeof *th);
    const struct kernel_profile *kp = tcp_kernel_profile(sec);
    read_triple(sec, "net.ipv4.tcp_rmem", tcp_kernel_tcp_rmem(kp), th->rmem,
                "{|MIN DEFAULT MAX, at most 2G} receive buffer sizes of TCP sockets (Linux 4.15 defaults; with kernel = "
                "6.1 and later 4096 131072 6291456: 4.19 made the initial one 128 KB)");
    static const char *const rcvbufs[] = { "fixup", "tcp_rmem", NULL };
    th->rcvbuf_rmem = cfg_choice(sec, "tcp.init_rcvbuf", tcp_kernel_init_rcvbuf(kp), rcvbufs,
            "a socket's initial receive buffer and window: fixup (Linux 4.15: tcp_fixup_rcvbuf grows tcp_rmem[1] to "
            "room for 2 x 20 segments, x4 with tcp_moderate_rcvbuf, the SYN offers 20 segments and autotuning "
            "starts from that window) or tcp_rmem (4.19 on: the buffer is tcp_rmem[1], the SYN offers what it "
            "holds up to 64 KB, autotuning starts from at most 10 segments)") == 1;
    read_triple(sec, "net.ipv4.tcp_wmem", "4096 16384 4194304", th->wmem,
                "{|MIN DEFAULT MAX, at most 2G} send buffer sizes of TCP sockets (Linux 4.15 defaults)");
    th->adv_win_scale = (int)cfg_int(sec, "net.ipv4.tcp_adv_win_scale", "1", -31, 31,
            "share of the receive buffer advertised as window: 1 - 2^-n for n > 0 (Linux 4.15 default 1)");
    if (!th->adv_win_scale)
        cfg_error(sec, "net.ipv4.tcp_adv_win_scale", "got 0, expected -31..-1 or 1..31");
    static const char *const wfs[] = { "adv_win_scale", "scaling_ratio", NULL };
    th->scaling_ratio = cfg_choice(sec, "tcp.win_from_space", tcp_kernel_win_from_space(kp), wfs,
            "how tcp_win_from_space turns buffer into window: adv_win_scale (net.ipv4.tcp_adv_win_scale, "
            "Linux up to 6.5) or scaling_ratio (Linux 6.6+: payload/truesize of received skbs, 50 % until measured)") == 1;
    if (th->scaling_ratio)
        cfg_inert(sec, "net.ipv4.tcp_adv_win_scale", "tcp.win_from_space",
                  "the sysctl is obsolete since Linux 6.6; this host's tcp.win_from_space is scaling_ratio");
    th->app_win = (int)cfg_int(sec, "net.ipv4.tcp_app_win", "31", 0, 31,
                               "window reserved for the application buffer: window / 2^n, 0 = none (Linux default 31)");
    th->moderate_rcvbuf = cfg_bool(sec, "net.ipv4.tcp_moderate_rcvbuf", "1",
                                   "receive-buffer autotuning (tcp.drs) on (Linux default 1)");
    th->timestamps = cfg_bool(sec, "net.ipv4.tcp_timestamps", "1", "TCP timestamps option (RFC 7323; Linux default 1)");
    th->sack = cfg_bool(sec, "net.ipv4.tcp_sack", "1", "selective acknowledgements (RFC 2018; Linux default 1)");
    th->window_scaling = cfg_bool(sec, "net.ipv4.tcp_window_scaling", "1",
                                  "window scaling option (RFC 7323; Linux default 1)");
    th->reordering = (int)cfg_int(sec, "net.ipv4.tcp_reordering", "3", 1, 300,
                                  "initial reordering degree: duplicate ACKs before fast retransmit (Linux default 3)");
    static const char *const lds[] = { "fack_rack", "rack_tlp", NULL };
    th->rack_tlp = cfg_choice(sec, "tcp.loss_detection", tcp_kernel_loss_detection(kp), lds,
            "which release's loss detection: fack_rack (4.15: RACK beside FACK and the duplicate-ACK threshold, "
            "TLP in Open or Disorder) or rack_tlp (4.18 on, as 6.1 has it: FACK gone, RACK alone with "
            "tcp_recovery 1, its reordering window 0 in recovery or past the threshold, TLP in Open or CWR "
            "after 2 srtt + 2 ms)") == 1;
    th->fack = cfg_bool(sec, "net.ipv4.tcp_fack", "1", "forward acknowledgement loss detection (sysctl default 1)");
    if (th->rack_tlp)
        cfg_inert(sec, "net.ipv4.tcp_fack", "tcp.loss_detection",
                  "FACK is gone since Linux 4.18 (the sysctl stays, without effect); this host's "
                  "tcp.loss_detection is rack_tlp");
    th->rack = cfg_int(sec, "net.ipv4.tcp_recovery", "1", 0, 1,
                       "bit 0: RACK loss detection (Linux 4.15 default 1; from 4.18 with tcp.loss_detection = "
                       "rack_tlp RACK alone, 0 the duplicate-ACK rule of RFC 6675)") & 1;
    th->tlp = cfg_int(sec, "net.ipv4.tcp_early_retrans", "3", 0, 4,
                      "3 or 4: tail loss probes (TLP); below 3 none (Linux 4.15 default 3)") >= 3;
    static const char *const dacks[] = { "delayed", "immediate", NULL };
    th->dctcp_ack_now = cfg_choice(sec, "tcp.dctcp_ack", tcp_kernel_dctcp_ack(kp), dacks,
            "a DCTCP receiver's ACK on a change of CE state: delayed (4.15: the held ACK goes, clearing the "
            "delayed-ACK schedule, and the segment that changed the state waits for a later ACK) or immediate "
            "(4.18 on: that segment is ACKed at once, the held ACK leaves the schedule alone)") == 1;
    th->init_cwnd = (uint32_t)cfg_int(sec, "tcp.init_cwnd", "10", 1, 1000,
                                      "initial congestion window in segments (Linux's TCP_INIT_CWND 10)");
    /* route metrics: every route of the host has them (one `ip route`
     * per destination would set them per route; the model has one set
     * per host). tcp_rto_min(): the RTO's floor in jiffies (HZ 1000) */
    th->rto_min = cfg_time(sec, "route.rto_min", "200ms", PS_PER_MS, TCP_RTO_MAX,
                           "the RTO's lower bound, whole milliseconds (ip route ... rto_min; tcp_rto_min(), "
                           "Linux's TCP_RTO_MIN 200ms without it)");
    if (th->rto_min % PS_PER_MS)
        cfg_error(sec, "route.rto_min", "expected whole milliseconds (RTAX_RTO_MIN counts them)");
    th->route_quickack = cfg_bool(sec, "route.quickack", "0",
                                  "ACK every data segment at once, never delayed (ip route ... quickack 1; "
                                  "tcp_in_quickack_mode)");
    th->initrwnd = (uint32_t)cfg_int(sec, "route.initrwnd", "0", 0, 65535,
                                     "initial receive window offered in the SYN or SYN-ACK, in segments (ip route ... "
                                     "initrwnd N; tcp_select_initial_window's init_rcv_wnd); 0: the default, 20 "
                                     "segments of 1460 bytes (tcp_default_init_rwnd)");
    th->pacing_fq = cfg_bool(sec, "tcp.fq_pacing", "off",
                             "the sender's qdisc is fq: CUBIC and Reno are paced as sch_fq paces them (BBR always is)");
    th->limit_output_bytes = (uint32_t)cfg_size(sec, "net.ipv4.tcp_limit_output_bytes",
            tcp_kernel_limit_output_bytes(kp), 0, 0x7fffffff,
            "TCP Small Queues: bytes of a socket's packets below it (qdisc, driver, ring) before it waits for a "
            "TX completion; at least two packets, up to a millisecond of its pacing rate (Linux 4.15 default "
            "262144; 1048576 from 4.20, with kernel = 6.1 and later)");
    static const char *const tsql[] = { "all", "unpaced", NULL };
    th->tsq_unpaced_only = cfg_choice(sec, "tcp.tsq_limit", tcp_kernel_tsq_limit(kp), tsql,
            "which flows net.ipv4.tcp_limit_output_bytes caps: all (4.15) or unpaced (4.20 on: a flow BBR or fq "
            "paces is held to its rate's millisecond alone)") == 1;
    th->tsq = cfg_bool(sec, "tcp.tsq", "on",
            "TCP Small Queues (Linux 3.6 on, always on in 4.15): off is an older kernel; net.ipv4.tcp_limit_output_bytes only caps "
            "TSQ's limit, whose floor is two packets or a millisecond at the pacing rate");
    th->min_tso_segs = (uint32_t)cfg_int(sec, "net.ipv4.tcp_min_tso_segs", "2", 1, 127,
            "least segments in a GSO packet tcp_tso_autosize asks for (Linux 4.15 default 2)");
    th->tso_win_divisor = (uint32_t)cfg_int(sec, "net.ipv4.tcp_tso_win_divisor", "3", 0, 255,
            "TSO deferral sends once 1/n of the congestion window can go in one packet; 0: once more than three "
            "segments can (Linux 4.15 default 3)");
    th->ecn = (uint8_t)cfg_int(sec, "net.ipv4.tcp_ecn", "2", 0, 2,
            "ECN (RFC 3168): 0 never, 1 ask for it on connect() and accept it, 2 accept it when the peer asks "
            "(Linux 4.15 default 2); a tcp.cc that needs ECN (dctcp) asks and accepts whatever this says");
    th->ecn_fallback = cfg_bool(sec, "net.ipv4.tcp_ecn_fallback", "1",
            "a SYN retransmitted after one that asked for ECN asks no more, so that a path dropping ECN-setup "
            "SYNs connects without it (RFC 3168 6.1.1.1; Linux 4.15 default 1)");
    th->cc = variant_choose_vals(sec, "tcp.cc", th->cc_vals);
    if (th->ecn == 1 || (th->cc->flags & TCP_CONG_NEEDS_ECN))
        s->ecn_used = true;       /* this host's SYNs ask for ECN: the ECN counters are kept */
    th->drs = variant_choose_vals_def(sec, "tcp.drs", tcp_kernel_drs(kp), th->drs_vals);
    h->mod[slot] = th;
    h->proto[IPPROTO_TCP_] = tcp_rcv;
}

static void detach(struct sim *s, struct host *h, int slot)
{
    (void)s;
    struct tcp_host *th = h->mod[slot];
    if (!th)
        return;
    /* off the host's list before they go: the modules after this one
     * (SCTP's teardown) walk it */
    host_socks_forget(h, IPPROTO_TCP_);
    for (struct tcp_sock *tp = th->conns, *n; tp; tp = n) {
        n = tp->next_conn;
        tcp_sock_free(tp);
    }
    free(th->chash);
    free(th);
    h->mod[slot] = NULL;
}

const struct tcp_drs_ops *tcp_drs_find(const char *name)
{
    return variant_find("tcp.drs", name);
}

static const char *drs_missing(const void *ops)
{
    const struct tcp_drs_ops *o = ops;
    return o->adjust || o->grow ? NULL : "adjust or grow";
}

static const struct variant_family drs_family = {
    .key = "tcp.drs", .def = "trimodal", .missing = drs_missing,
    .doc = "[host] receive-buffer autotuning of the host's receivers (tcp_rcv_space_adjust)",
};
static const struct variant_family *const families[] = { &tcp_cc_family, &drs_family, NULL };

const struct model_module tcp_module = {
    .name = "tcp",
    .apps = apps,
    .attach_host = attach,
    .detach_host = detach,
    .families = families,
    .costs = tcp_costs,
    .pcap_proto = IPPROTO_TCP_,
    .pcap_write = tcp_pcap_write,
};
