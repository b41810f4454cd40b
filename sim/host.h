/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host.h - a simulated machine: cores, NIC ports, an IP layer, sockets,
 * sysctls and the CPU profile its work is charged against.
 */
#ifndef NETSIM_HOST_H
#define NETSIM_HOST_H

#include <stdint.h>
#include "sim/cpu.h"
#include "sim/nic.h"
#include "sim/rng.h"
#include "sim/skb.h"
#include "sim/sock.h"


struct sim;
struct host;
struct cfg_section;
struct qdisc_args;
struct qdisc_sb;

/* ports per host: a route table entry and skb->oif are a port number + 1
 * in a byte (255 at most); the pcap key's port mask is 64 bits */
#define HOST_MAX_NICS 128
#define HOST_MAX_CORES 64
#define HOST_MAX_MODULES 8

typedef void (*proto_rcv_fn)(struct host *h, struct skb *skb, struct core *c);
/* Reassembly hook (the ipfrag model): returns the whole datagram when this
 * fragment completes it, else NULL (the fragment is kept or freed). */
typedef struct skb *(*defrag_fn)(struct host *h, struct skb *skb, struct core *c);

struct host {
    struct sim *sim;
    struct evq *q;
    char name[32];
    uint32_t id;                 /* address: 10.0.0.(id+1) */
    int index;
    struct cfg_section *sec;     /* may be NULL: host only named by a link */
    int ncores;
    /* cores, core_rng, backlog and backlog_task hold ncores each (made
     * when the host is configured): at HOST_MAX_CORES each they were
     * 18 KB of a 24 KB host, most of them never used */
    struct core *cores;
    int nnics;
    struct nic *nics[HOST_MAX_NICS];
    int nifbs;
    struct ifb *ifbs[HOST_MAX_IFBS];   /* ip link add NAME type ifb (sim/ifb.h) */
    struct nic_params nicp;
    struct qdisc_args *default_qdisc;   /* net.core.default_qdisc when not pfifo_fast, else NULL */
    struct qdisc_sb *sb;         /* sb.size: the shared buffer its ports' queues draw from, or NULL */
    struct cpu_sample prof[CPU_MAX_SYMS];
    double cost[CPU_MAX_SYMS];   /* ns per call, or per byte */
    const char *cpu_profile;
    uint64_t rmem_default, rmem_max, wmem_default, wmem_max;
    uint8_t *route;              /* by destination host index: port index + 1, 0 none/self, or a
                                  * multipath group; built when first needed (sim/route.h) */
    struct route_group *route_groups;   /* route.multipath's groups of nexthops */
    uint8_t nroute_groups;
    bool multipath;              /* route.multipath: every shortest path, by flow hash */
    uint8_t mp_policy;           /* net.ipv4.fib_multipath_hash_policy: 0 addresses, 1 5-tuple */
    uint64_t mp_key;             /* the flow hash's key (the kernel's hashrnd), from the run's seed */
    struct sock *socks;           /* every socket, newest first */
    struct sock **sock_hash;      /* by (proto, port): chained, doubled at one per bucket */
    uint32_t sock_hash_size, nsocks;
    proto_rcv_fn proto[256];
    defrag_fn defrag;
    void *mod[HOST_MAX_MODULES];  /* per-module state (sim.h: struct model_module) */
    struct rng rng;
    struct rng *core_rng;         /* cost jitter draws, one stream per core */
    /* loopback device: netif_rx puts packets on the sending core's backlog,
     * processed there in softirq (process_backlog) */
    struct skb_queue *backlog;
    struct cpu_task *backlog_task;
    uint32_t lo_mtu;
    /* per destination, as the kernel keeps them in the peer's inet_peer
     * (3.7 ip_select_ident) and route cache: the next IPv4 id, and the path
     * MTU learned from ICMP "fragmentation needed" (0: the route's MTU) */
    /* per destination host id, npeers of them (every host of the run),
     * allocated by the first packet the host sends or the first MTU it
     * learns (host_peers_alloc): a router that only forwards has none */
    uint32_t npeers;
    uint16_t *ip_id;
    uint32_t *pmtu[2];            /* [family == NET_IPV6] */
    uint16_t next_port;
    /* host_free_port's last answers: every port a scan passed stays taken
     * (sockets are never removed), so the next scan from the same start
     * resumes at the answer */
    struct port_memo { uint8_t proto; uint16_t from; uint32_t at; } port_memo[4];
    uint8_t port_memo_next;
    /* IP counters */
    uint64_t ip_in, ip_out, ip_forwarded, ip_no_proto, ip_no_route, ip_frag_no_reasm, frags_created;
    uint64_t ip_csum_errors;     /* netem-corrupted packets dropped by the checksum */
    uint64_t ip_frag_fails;      /* too big for the next hop and not to be fragmented: IPv4 with DF
                                  * (FRAGFAILS), IPv6 (Ip6InTooBigErrors) */
    uint64_t icmp_frag_needed;   /* "fragmentation needed" / "packet too big" received */
    /* packets in by their ECN field, [family == NET_IPV6][field], each
     * forwarded or not (ip_rcv, ipv6_rcv: IpExtInNoECTPkts ... InCEPkts,
     * Ip6InNoECTPkts ...); registered only where something uses ECN */
    uint64_t ip_ecn_in[2][4];
    /* the pcap key (sim/pcap.h): bit k captures nics[k]; pcap_key: the host has the key */
    uint64_t pcap_ports[HOST_MAX_NICS / 64];
    bool pcap_key;
    /* [family == NET_IPV6]: ip_rcv / ipv6_rcv, ip_output / ip6_output,
     * ip_forward / ip6_forward, each charged under its own name */
    int sym_ip_rcv[2], sym_ip_output[2], sym_ip_forward[2], sym_lo_xmit, sym_backlog;
};

/* Charge a profile cost per call, or per byte for copy symbols. */
static inline void host_charge(struct host *h, struct core *c, int sym)
{
    core_charge(c, sym, h->cost[sym]);
}
static inline void host_charge_fixed(struct host *h, struct core *c, int sym)
{
    core_charge_fixed(c, sym, h->cost[sym]);
}
static inline void host_charge_bytes(struct host *h, struct core *c, int sym, uint64_t bytes)
{
    core_charge(c, sym, h->cost[sym] * (double)bytes);
}

struct host *host_find(struct sim *s, const char *name);
/* Indexes a new host (s->hosts[h->index] == h) for host_find. */
void host_index_add(struct sim *s, struct host *h);
/* ip_id and pmtu, zeroed (host.c). */
void host_peers_alloc(struct host *h);
/* Dotted address for display: 10.0.0.N */
const char *host_addr_str(uint32_t id, char *buf);

/* IP layer (ip.c). */
void ip_rcv(struct host *h, struct skb *skb, struct core *c);
/* The host's ECN counters (ip_ecn_in) into the run's, as nstat names them. */
void ip_register_ecn_counters(struct counters *cs, struct host *h);
/* Route, fragment if needed, hand to the NIC. Returns 0 or -1 (dropped). */
int ip_output(struct host *h, struct skb *skb, struct core *c);
uint32_t ip_hdr_len(uint8_t family);
void ip_loopback_init(struct host *h, uint32_t mtu);
/* Largest L4 datagram (header + payload) that fits one packet on the route. */
uint32_t ip_max_unfragmented(struct host *h, uint32_t daddr, uint8_t family);
/* MTU towards daddr: the route's link MTU, or a smaller learned path MTU. */
uint32_t ip_path_mtu(struct host *h, uint32_t daddr, uint8_t family);
/* The smallest link MTU on the route to daddr, every hop included (what
 * path MTU discovery converges to); 0 without a route. */
uint32_t ip_route_min_mtu(struct host *h, uint32_t daddr);
/* ICMP (icmp.c). */
void icmp_rcv(struct host *h, struct skb *skb, struct core *c);
/* The ICMP message of a capture (sim/pcap_wire.h), from the l4 layout this
 * file and the ping model share; the icmp module registers it. */
struct pcap_l4;
void icmp_pcap_write(const struct skb *skb, const struct pcap_l4 *w);
/* ICMP "fragmentation needed" (IPv6: "packet too big") for `skb`, which does
 * not fit the next hop's `mtu`, to its source. */
void icmp_frag_needed_send(struct host *h, const struct skb *skb, uint32_t mtu, struct core *c);

/* Sockets */
/* The newest socket bound to (proto, port), or NULL: a hash lookup. */
struct sock *host_sock_lookup(struct host *h, uint8_t proto, uint16_t port);
/* Index a socket sock_init has bound (sock.c). */
void host_sock_add(struct host *h, struct sock *sk);
/* Takes every socket of protocol proto off the host's list and index: a
 * protocol that frees its sockets does so first, so that no one walks a
 * freed socket (another protocol's teardown walks the list after). */
void host_socks_forget(struct host *h, uint8_t proto);
uint16_t host_alloc_port(struct host *h);
/* The first port from `from` up that no socket of proto holds, 0 when
 * none is (flow_server_port, sim.h). */
uint16_t host_free_port(struct host *h, uint8_t proto, uint16_t from);

#endif
