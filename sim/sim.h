/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim.h - one run: the world built from a scenario, its clock, its flows
 * and what it records.
 */
#ifndef NETSIM_SIM_H
#define NETSIM_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/counter.h"
#include "sim/event.h"
#include "sim/host.h"
#include "sim/link.h"
#include "sim/sink.h"
#include "sim/strindex.h"
#include "sim/xalloc.h"

struct cfg;
struct cfg_section;
struct rec;
struct report;
struct flow;

/* An application kind ("udp_stream", "ping"), registered by name. */
/* What iperf3 shows of a stream, for an app that has it (app_ops.info):
 * what is fixed, counts since the start of the run (an interval's figure
 * is the difference of two snapshots) and what holds now. */
struct flow_info {
    const char *protocol;        /* "TCP", "UDP"; NULL: no iperf3 columns */
    uint32_t local_addr, remote_addr;   /* host ids (host_addr_str) */
    uint16_t local_port, remote_port;
    uint32_t blksize;            /* bytes per write (-l) */
    uint32_t mss;
    const char *congestion;      /* TCP: the sender's congestion control */
    uint64_t target_bitrate;     /* -b, bit/s; 0: as fast as possible */
    uint32_t sndbuf, rcvbuf;     /* the sockets' actual sizes */
    /* since the start */
    uint64_t bytes_sent;         /* written by the sending application */
    uint64_t retransmits;        /* TCP: segments resent */
    uint64_t datagrams_sent;     /* UDP */
    uint64_t datagrams, lost;    /* UDP at the receiver: the highest sequence number read, and
                                  * those missing below it (iperf3's packet_count, cnt_error) */
    uint64_t out_of_order;       /* UDP: read below the highest */
    /* now */
    uint64_t snd_cwnd, snd_wnd;  /* TCP: bytes */
    uint32_t rtt_us, rttvar_us, pmtu;   /* TCP */
    double jitter_ms;            /* UDP: RFC 1889's, as iperf3 computes it */
    bool done;                   /* the flow's work is over (TCP: its last byte written and
                                  * acknowledged): no more interval rows that deliver nothing */
};

struct app_ops {
    const char *name;
    const char *doc;
    /* Read the flow's keys, create sockets and tasks. Errors go to the
     * config (cfg_error); the run does not start if any. */
    void (*setup)(struct sim *s, struct flow *f, struct cfg_section *sec);
    /* Schedule the first action at f->start. */
    void (*start)(struct sim *s, struct flow *f);
    /* After the run: report lines, counters. */
    void (*finish)(struct sim *s, struct flow *f);
    /* Optional: the flow as iperf3 would show it, at each interval's end. */
    void (*info)(const struct flow *f, struct flow_info *out);
    /* Optional: free what the state holds besides itself (sim_free then
     * frees f->priv); called whether or not the run started. */
    void (*release)(struct flow *f);
};

struct flow {
    int id;
    const struct app_ops *ops;
    struct host *from, *to;
    simtime_t start, stop;
    char desc[96];
    uint64_t bytes;              /* delivered to the receiving application */
    uint64_t bytes_mark;         /* at the last interval boundary */
    bool counts_goodput;         /* has an interval table */
    void *priv;
};

/* Flows are numbered [flow 1] to [flow SIM_MAX_FLOW_ID]; how many a
 * run holds is bounded by memory only (load/scenario.c). */
#define SIM_MAX_FLOW_ID 9999999
#define SIM_MAX_SINKS 8

struct sim {
    struct evq q;
    struct cfg *cfg;
    uint64_t seed;
    int rep;
    simtime_t duration, interval;
    int nhosts, nlinks, nflows;
    struct host **hosts;         /* nhosts of hosts_cap; a host's id is its index */
    struct strindex host_index;  /* name -> index (host_find) */
    struct link **links;         /* nlinks of links_cap */
    size_t hosts_cap, links_cap;
    struct flow **flows;         /* nflows of flows_cap, grown by doubling */
    size_t flows_cap;
    struct counters counters;    /* read when the run ends */
    struct event tick;           /* interval boundary */
    simtime_t next_tick;
    struct sink sinks[SIM_MAX_SINKS];   /* where results go, in this order */
    int nsinks;
    uint64_t skbs_at_build;      /* skb_in_use() before this world existed */
    /* sim/route.h: each host's connected component, and the scratch space
     * of the search that builds a host's next hops */
    uint32_t *route_comp, *route_queue;
    uint8_t *route_hop;
    bool interrupted;
    /* a sink that could not keep the run stopped it (sink.h's failed):
     * its reason, kept by the sink until the run ends; NULL otherwise */
    const char *sink_failure;
    /* something in the world sets or marks the IP ECN field (a host's
     * SYNs ask for ECN, a qdisc marks CE): the hosts' ECN counters are
     * kept; else they would only count Not-ECT, and nothing is added */
    bool ecn_used;
};

/* A world is built by the scenario loader (load/scenario.h). */
void sim_free(struct sim *s);
/* Run to the end (or interruption), emitting to the run's sinks. */
void sim_run(struct sim *s, bool progress);

/* Add a sink (sink.h) before sim_run; 0, or -1 when its ops break the
 * contract or SIM_MAX_SINKS are added already. */
int sim_add_sink(struct sim *s, const struct sink_ops *ops, void *ctx);
/* The first sink's reason for not keeping the run, or NULL. */
const char *sim_sink_failed(struct sim *s);

/* A counter, read at the end of the run and emitted under name
 * (counter.h has the rules for names). */
static inline void sim_counter(struct sim *s, const char *name, const uint64_t *value, bool is_drop)
{
    counters_add(&s->counters, name, value, is_drop);
}
/* The same under prefix then name, neither copied: each must be a string
 * literal or one sim_keep_name returned. Each TCP flow registers 38 this
 * way ("flow.7.snd." "retrans"), and a run may hold 100 000 flows. */
static inline void sim_counter_in(struct sim *s, const char *prefix, const char *name, const uint64_t *value,
                                  bool is_drop)
{
    counters_add_in(&s->counters, prefix, name, value, is_drop);
}
/* A copy of str that lives as long as s. */
static inline const char *sim_keep_name(struct sim *s, const char *str)
{
    return counters_keep_name(&s->counters, str);
}
/* The same with the name formatted: sim_counterf(s, &n->drops, true, "%s.drops", n->name). */
#define sim_counterf(s, value, is_drop, ...) counters_addf(&(s)->counters, (value), (is_drop), __VA_ARGS__)
/* Emissions to every sink (sink.h has what each row means). */
void sim_series(struct sim *s, const char *name, double value);       /* at the current time */
void sim_emit_param(struct sim *s, const char *key, const char *value);
void sim_emit_flow(struct sim *s, int id, const char *desc);
void sim_emit_counter(struct sim *s, const char *name, uint64_t value, bool is_drop);
void sim_emit_interval(struct sim *s, int flow, simtime_t t0, simtime_t t1, uint64_t bytes,
                       const struct flow_info *info);
void sim_emit_profile(struct sim *s, const char *host, int cpu, const char *symbol, double cpu_ns, uint64_t calls);
void sim_emit_line(struct sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sim_emit_sock(struct sim *s, int flow, const char *host, const char *text);   /* at the current time */
void sim_emit_message(struct sim *s, const struct sink_message *m);
/* ss's state line of a socket for sim_emit_sock, aligned under the ss
 * file's titles: "ESTAB  0      0      10.0.0.1:40000  10.0.0.2:5201".
 * Returns the length written (snprintf's). */
int sim_ss_state_line(char *buf, size_t n, const char *state, uint64_t recv_q, uint64_t send_q, const char *local,
                      const char *peer);
static inline void flow_deliver(struct flow *f, uint64_t bytes) { f->bytes += bytes; }

/* The flow's "port" key: the port its server listens on at f->to for
 * proto. By default the tool's port (iperf3's 5201) if free, else the next
 * free one up, as a user starts a second iperf3 -s -p 5202; the resolved
 * port is what the param table records. A port given that is taken, or no
 * port free from the tool's up, is an error at the key. */
uint16_t flow_server_port(struct flow *f, struct cfg_section *sec, uint8_t proto, uint16_t tool_port,
                          const char *doc);

/* The prologue of an app's setup: its state, zeroed, hung on the flow
 * (sim_free frees it), knowing its flow and its world. The state's type
 * has members `f` and `s`. */
#define APP_STATE(p, sim, flow)                  \
    do {                                         \
        (p) = xcalloc(1, sizeof *(p));           \
        (flow)->priv = (p);                      \
        (p)->f = (flow);                         \
        (p)->s = (sim);                          \
    } while (0)

/*
 * A model module: one protocol family with its applications, variants and
 * costs (models/udp, models/tcp, models/ipfrag, models/sctp, models/qdisc).
 * The registry (models/registry.c) lists the modules and hands the list to
 * the engine (models_install); a variant registers itself in its own file
 * (sim/variant.h), so a new variant touches nothing else.
 */
struct cost_row;
struct variant_family;
struct pcap_l4;
struct model_module {
    const char *name;
    const struct app_ops *const *apps;          /* NULL-terminated, or NULL */
    /* Read the host's keys for this family and install protocol handlers;
     * keep per-host state in h->mod[slot]. Errors via cfg_error. */
    void (*attach_host)(struct sim *s, struct host *h, int slot);
    void (*detach_host)(struct sim *s, struct host *h, int slot);
    /* Extra cost rows for a CPU profile (NULL-terminated), or NULL. */
    const struct cost_row *(*costs)(const char *profile);
    /* The variant families this module reads (sim/variant.h),
     * NULL-terminated, or NULL. */
    const struct variant_family *const *families;
    /* Capture (sim/pcap_wire.h): the IP protocol number whose header this
     * module writes from its skb->l4 fields, and the writer; NULL: none. */
    uint8_t pcap_proto;
    void (*pcap_write)(const struct skb *skb, const struct pcap_l4 *w);
};

/* Hands the modules (models/registry.c's list) and the build's variants
 * to the engine: called by the loader before it builds a world
 * (sim_build), by the command line at start-up and by a test that reads
 * the registry without building; again, it changes nothing. Defined in
 * models/registry.c, the one call into the models the engine's users
 * make; the engine itself only walks what it was given. */
void models_install(void);
/* The engine's side (sim/modules.c): the list it was given, n at most
 * HOST_MAX_MODULES. Before models_install there are no modules. */
void sim_modules_set(const struct model_module *const *list, int n);
const struct app_ops *app_find(const char *name);
const struct app_ops *app_at(int i);
const struct model_module *model_at(int i);
void models_attach_host(struct sim *s, struct host *h);
void models_detach_host(struct sim *s, struct host *h);
/* Module cost rows for a profile, applied over the profile's own rows. */
void models_apply_costs(struct host *h, const char *profile);
void models_register_symbols(void);

#endif
