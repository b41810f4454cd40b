/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * app.c - the setup the SCTP applications (iperf3.c, netperf.c) share:
 * keys, association pair, processes (see sctp_app_pair in sctp.h).
 */
#include "models/sctp/sctp.h"
#include "sim/config.h"
#include "sim/sim.h"

int sctp_app_pair(struct flow *f, struct cfg_section *sec, struct sctp_assoc *cli, struct sctp_assoc *srv,
                  uint8_t family, const char *len_key, uint32_t len, const char *def_port)
{
    int cpu = (int)cfg_int(sec, "cpu", "0", 0, f->from->ncores - 1,
                           "{0|0 to cores - 1} core of the client (sender) process on the from host");
    int scpu = (int)cfg_int(sec, "server_cpu", f->to->ncores > 1 ? "1" : "0", 0, f->to->ncores - 1,
            "{1, or 0 on a 1-core host|0 to cores - 1} core of the server (reader) process; 0 puts it on the RX core");
    uint16_t port = flow_server_port(f, sec, IPPROTO_SCTP_, (uint16_t)atoi(def_port),
                                     "{the tool's, or the next free one up|1 to 65535} server port (sctp_iperf3: "
                                     "iperf3's 5201; sctp_stream: netperf's 12866; taken: the next free one)");
    uint64_t sndbuf = cfg_size(sec, "sndbuf", "0", 0, 1ULL << 30,
                               "SO_SNDBUF requested on both ends; 0 = the net.core default");
    uint64_t rcvbuf = cfg_size(sec, "rcvbuf", "0", 0, 1ULL << 30,
                               "SO_RCVBUF requested on both ends; 0 = the net.core default");
    /* multi-homing: with a wildcard bind each end lists every address of
     * the peer's scope in INIT / INIT-ACK (sctp_bind_addr_copy); 1 =
     * one address pair */
    int npaths = (int)cfg_int(sec, "paths", "1", 1, SCTP_MAX_PATHS,
                              "addresses each end lists (multi-homing); 1 = one address pair");
    sctp_assoc_pair(cli, srv, f->from, f->to, family, port, (uint32_t)f->id, sndbuf, rcvbuf, npaths, sec);
    if (len > cli->frag_point)
        cfg_error(sec, len_key, "got %u, more than the %u bytes of one DATA chunk at this PMTU: fragmentation of "
                  "messages is not modelled", len, cli->frag_point);
    sctp_procs_init(cli, srv, &f->from->cores[cpu], &f->to->cores[scpu], len, f->stop);
    cli->timer_core = cli->writer_core;
    if (!srv->timer_core)
        srv->timer_core = srv->reader_core;
    return cpu;
}
