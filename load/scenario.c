/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scenario.c - build a run's world from a scenario: hosts, links, routes,
 * flows. Every key is read through a typed getter (config.h), so a bad
 * scenario is reported whole, with file:line, before anything runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/config.h"
#include "load/link_qdisc.h"
#include "load/load.h"
#include "load/qdisc_parse.h"
#include "sim/costs.h"
#include "sim/progress.h"
#include "sim/route.h"
#include "sim/sim.h"
#include "load/scenario.h"
#include "load/scenario_fit.h"
#include "load/scenario_links.h"
#include "load/host_ifb.h"
#include "load/host_sb.h"
#include "sim/units.h"
#include "sim/xalloc.h"

static struct host *host_new(struct sim *s, const char *name)
{
    struct host *h = xcalloc(1, sizeof *h);
    s->hosts = xgrow(s->hosts, sizeof *s->hosts, (size_t)s->nhosts, &s->hosts_cap, 8);
    snprintf(h->name, sizeof h->name, "%s", name);
    h->sim = s;
    h->q = &s->q;
    h->index = s->nhosts;
    h->id = (uint32_t)s->nhosts;
    s->hosts[s->nhosts++] = h;
    host_index_add(s, h);
    return h;
}

static struct host *host_get(struct sim *s, const char *name)
{
    struct host *h = host_find(s, name);
    return h ? h : host_new(s, name);
}

/* Host keys: CPU, sysctls, NIC parameters. */

/* net.core.default_qdisc: the discipline the kernel gives each TX queue
 * under mq (or the port itself, with one queue). A name alone, as the
 * sysctl takes it; pfifo_fast, the default, leaves the built-in tree
 * (link_qdisc.c), counted as the NIC's. */
static void default_qdisc_read(struct host *h, struct cfg_section *sec)
{
    const char *v = cfg_str(sec, "net.core.default_qdisc", "pfifo_fast",
            "{pfifo_fast|a qdisc name: pfifo_fast, fq_codel, fq, ...} each TX queue's discipline under the "
            "port's mq root, with its default options (sysctl net.core.default_qdisc; Linux 4.15 default pfifo_fast)");
    if (!strcmp(v, "pfifo_fast"))
        return;
    struct qdisc_args a;
    char err[600];
    if (strchr(v, ' ')) {
        cfg_error(sec, "net.core.default_qdisc", "got '%s', expected a qdisc name alone (the sysctl takes no "
                  "options; give a link's qdisc key for them)", v);
        return;
    }
    if (qdisc_parse(v, &a, err, sizeof err)) {
        cfg_error(sec, "net.core.default_qdisc", "%s", err);
        return;
    }
    if (a.ops->mq) {
        cfg_error(sec, "net.core.default_qdisc", "got 'mq', expected a discipline for one TX queue (mq holds them)");
        return;
    }
    h->default_qdisc = xmalloc(sizeof a);
    *h->default_qdisc = a;
}

static void host_configure(struct sim *s, struct host *h)
{
    struct cfg_section *sec = h->sec;
    h->ncores = (int)cfg_int(sec, "cores", "4", 1, HOST_MAX_CORES,
                             "CPU cores of the host");
    h->cores = xcalloc((size_t)h->ncores, sizeof *h->cores);
    h->core_rng = xcalloc((size_t)h->ncores, sizeof *h->core_rng);
    h->backlog = xcalloc((size_t)h->ncores, sizeof *h->backlog);
    h->backlog_task = xcalloc((size_t)h->ncores, sizeof *h->backlog_task);
    h->cpu_profile = cfg_str(sec, "cpu", "xeon-2012",
                             "CPU profile: the per-function costs in ns (`netsim models` lists the profiles)");
    const struct cpu_profile *prof = cpu_profile_find(h->cpu_profile);
    if (!prof) {
        char list[256] = "";
        for (int i = 0; cpu_profile_at(i); i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", cpu_profile_at(i)->name);
        cfg_error(sec, "cpu", "unknown CPU profile '%s'; known profiles: %s", h->cpu_profile, list);
        prof = cpu_profile_find("xeon-2012");
    }
    for (const struct cost_row *r = prof->rows; r->symbol; r++)
        h->cost[cpu_sym(r->symbol)] = r->ns;
    models_apply_costs(h, prof->name);
    cfg_pattern_time(sec, "cost.SYMBOL", "0", 0, PS_PER_S, "{the CPU profile's} cost of one call of kernel "
                     "function SYMBOL (the names `--profile` prints), over the profile's");
    for (int i = 0; i < cpu_sym_count(); i++) {
        char key[96];
        snprintf(key, sizeof key, "cost.%s", cpu_sym_name(i));
        if (cfg_has(sec, key))
            h->cost[i] = time_to_ns(cfg_time(sec, key, "0", 0, PS_PER_S, "cost of one call of this kernel function"));
    }
    double speed = cfg_double(sec, "cpu_speed", "1", 0.01, 100,
                              "clock speed factor: every cost is divided by it (2 = twice as fast)");
    double jitter = cfg_double(sec, "cost_jitter", "0", 0, 1,
                               "random share j of each CPU slice's cost: x (1 - j + j Exp(1)), the mean unchanged "
                               "(0: exact)");
    double factor[HOST_MAX_CORES];
    for (int i = 0; i < HOST_MAX_CORES; i++)
        factor[i] = 1.0;
    const char *fl = cfg_str(sec, "core_cost_factor", "",
            "{|up to cores factors} per-core factors on every cost, \"0.99, 1.015\": core 0, core 1, ... (empty: 1)");
    if (*fl) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", fl);
        int i = 0;
        for (char *tok = strtok(buf, ", "); tok; tok = strtok(NULL, ", "), i++) {
            char *end;
            double v = strtod(tok, &end);
            /* written so that NaN fails it too: every cost is multiplied
             * by the factor, and a NaN time aborts the event queue */
            if (*end || !(v > 0 && v <= 100) || i >= h->ncores) {
                cfg_error(sec, "core_cost_factor", "got '%s', expected up to %d factors above 0 and at most 100, "
                          "one per core, such as 0.99, 1.015", fl, h->ncores);
                break;
            }
            factor[i] = v;
        }
    }
    host_sb_read(s, h);
    h->rmem_default = cfg_size(sec, "net.core.rmem_default", "212992", 256, 1ULL << 31,
                               "SO_RCVBUF when the app sets none (net.core.rmem_default; Linux default 212992)");
    h->rmem_max = cfg_size(sec, "net.core.rmem_max", "212992", 256, 1ULL << 31,
                           "largest SO_RCVBUF an app may set (net.core.rmem_max; Linux default 212992)");
    h->wmem_default = cfg_size(sec, "net.core.wmem_default", "212992", 256, 1ULL << 31,
                               "SO_SNDBUF when the app sets none (net.core.wmem_default; Linux default 212992)");
    h->wmem_max = cfg_size(sec, "net.core.wmem_max", "212992", 256, 1ULL << 31,
                           "largest SO_SNDBUF an app may set (net.core.wmem_max; Linux default 212992)");
    h->multipath = cfg_bool(sec, "route.multipath", "off",
                            "{off|on} a destination reached through several ports at its shortest hop count is "
                            "routed over all of them, each flow by its hash (ECMP: ip route add DEST nexthop dev "
                            "A nexthop dev B ...); off: through the first-declared port");
    h->mp_policy = (uint8_t)cfg_int(sec, "net.ipv4.fib_multipath_hash_policy", "0", 0, 1,
                                    "what a multipath route hashes: 0 the addresses (Layer 3, Linux's default), "
                                    "1 the 5-tuple (Layer 4; a fragment has no ports)");
    char key[80];
    snprintf(key, sizeof key, "route.%s", h->name);
    h->mp_key = rng_derive_seed(s->seed, key);
    nic_params_read(&h->nicp, sec, h->ncores);
    default_qdisc_read(h, sec);
    for (int i = 0; i < h->ncores; i++) {
        core_init(&h->cores[i], &s->q, h, i, h->prof);
        h->cores[i].speed = 1.0 / speed;
        h->cores[i].factor = factor[i];
        h->cores[i].jitter = jitter;
        if (jitter > 0) {
            char name[96];
            snprintf(name, sizeof name, "host.%s.core%d", h->name, i);
            rng_init(&h->core_rng[i], s->seed, name);
            h->cores[i].rng = &h->core_rng[i];
        }
    }
    h->sym_ip_rcv[0] = cpu_sym("ip_rcv");
    h->sym_ip_output[0] = cpu_sym("ip_output");
    h->sym_ip_forward[0] = cpu_sym("ip_forward");
    h->sym_ip_rcv[1] = cpu_sym("ipv6_rcv");
    h->sym_ip_output[1] = cpu_sym("ip6_output");
    h->sym_ip_forward[1] = cpu_sym("ip6_forward");
    ip_loopback_init(h, (uint32_t)cfg_int(sec, "lo_mtu", "65536", 1280, 65536,
                                          "MTU of the host's loopback (Linux default 65536)"));
    char name[64];
    snprintf(name, sizeof name, "host.%s", h->name);
    rng_init(&h->rng, s->seed, name);
}

/* The pcap key: which ports `netsim run --pcap` captures (sim/pcap.h).
 * `all`, `none`, or a list of the host's port names; a scenario where no
 * host has the key captures every port. Read after the links, which
 * name the ports. */
static void pcap_key_read(struct host *h)
{
    const char *v = cfg_str(h->sec, "pcap", "",
                            "{every port while no host has the key, else none|all, none or a list of the "
                            "host's ports: eth0, eth1} ports `netsim run --pcap DIR` captures");
    h->pcap_key = *v != '\0';
    memset(h->pcap_ports, 0, sizeof h->pcap_ports);   /* without the key: only if no host has it (pcap.c) */
    if (!h->pcap_key)
        return;
    if (!strcmp(v, "all")) {
        memset(h->pcap_ports, 0xff, sizeof h->pcap_ports);
        return;
    }
    if (!strcmp(v, "none"))
        return;
    char buf[1024], names[HOST_MAX_NICS * 12] = "";
    snprintf(buf, sizeof buf, "%s", v);
    for (int k = 0; k < h->nnics; k++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "", h->nics[k]->name);
    int n = 0;
    for (char *save, *tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save), n++) {
        int k = 0;
        while (k < h->nnics && strcmp(h->nics[k]->name, tok))
            k++;
        if (k == h->nnics) {
            cfg_error(h->sec, "pcap", "got '%s': host %s has no port '%s' (its ports: %s); expected all, none "
                      "or a list of its ports", v, h->name, tok, names);
            return;
        }
        h->pcap_ports[k / 64] |= 1ull << (k % 64);
    }
    if (!n)
        cfg_error(h->sec, "pcap", "got '%s', expected all, none or a list of the host's ports (%s)", v, names);
}

static bool build_progress;

void sim_build_progress(bool on)
{
    build_progress = on;
}

/* Each flow's app reads its own keys in setup; a flow whose app or hosts
 * did not resolve is reported once, for that, and its other keys are not
 * checked. Errors elsewhere (a host's bad key, which fell back to its
 * default) do not stop the setup, so the flow's keys are still checked. */
static void flows_build(struct sim *s)
{
    uint64_t nflows;
    if (!scenario_flows_fit(s, &nflows))
        return;
    /* flow ids defined, a bit each, as far as the largest so far: a
     * bitmap for every possible id (1.25 MB) was cleared by every run */
    uint8_t *seen = NULL;
    size_t seen_len = 0;
    struct progress line;
    progress_begin(&line, build_progress);
    for (int i = 0; i < cfg_section_count(s->cfg); i++) {
        struct cfg_section *sec = cfg_section_at(s->cfg, i);
        if (strcmp(cfg_kind(sec), "flow"))
            continue;
        if (progress_due(&line))
            progress_show(&line, "  building flows: %d / %llu   ", s->nflows, (unsigned long long)nflows);
        cfg_claim(sec);
        char *end;
        long id = strtol(cfg_name(sec), &end, 10);
        if (!*cfg_name(sec) || *end || id < 1 || id > SIM_MAX_FLOW_ID) {
            cfg_error(sec, NULL, "flow name '%s': expected a number from 1 to %d: flows are [flow 1], [flow 2], ...", cfg_name(sec), SIM_MAX_FLOW_ID);
            cfg_unchecked(sec);
            continue;
        }
        const char *appname = cfg_str(sec, "app", NULL,
                                      "the application (`netsim keys APP` lists its keys; `netsim models` the apps)");
        const struct app_ops *ops = appname ? app_find(appname) : NULL;
        if (appname && !ops) {
            char list[256] = "";
            for (int k = 0; app_at(k); k++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", app_at(k)->name);
            cfg_error(sec, "app", "got '%s', expected one of: %s", appname, list);
        }
        const char *from = cfg_str(sec, "from", NULL, "host the flow starts on (the client, the sender)");
        const char *to = cfg_str(sec, "to", NULL,
                                 "host the flow goes to (the server, the receiver); a route must join them");
        struct flow *f = xcalloc(1, sizeof *f);
        f->id = (int)id;
        f->ops = ops;
        f->from = from ? host_find(s, from) : NULL;
        f->to = to ? host_find(s, to) : NULL;
        bool routed = f->from && f->to && (f->from == f->to || route_next(f->from, (uint32_t)f->to->index));
        if (s->nhosts) {         /* without any host, the missing [link] is the mistake */
            if (from && !f->from)
                cfg_error(sec, "from", "no host '%s' (hosts are the ends of [link] sections)", from);
            if (to && !f->to)
                cfg_error(sec, "to", "no host '%s' (hosts are the ends of [link] sections)", to);
            if (f->from && f->to && !routed)
                cfg_error(sec, "to", "no route from %s to %s", f->from->name, f->to->name);
        }
        f->start = cfg_time(sec, "start", "0s", 0, s->duration,
                            "{0s|0 to duration} when the client starts (connects, or sends its first packet)");
        /* the default is written exactly, in seconds with every decimal
         * ("0.00005s", where %g wrote "5e-05s", which no key takes) */
        char dur[48];
        int n = snprintf(dur, sizeof dur, "%lld.%012lld", (long long)(s->duration / PS_PER_S),
                         (long long)(s->duration % PS_PER_S));
        while (dur[n - 1] == '0')
            dur[--n] = 0;
        if (dur[n - 1] == '.')
            dur[--n] = 0;
        snprintf(dur + n, sizeof dur - (size_t)n, "s");
        f->stop = cfg_time(sec, "stop", dur, 0, SIMTIME_NEVER, "{duration} when the flow stops sending");
        if (f->stop <= f->start)
            cfg_error(sec, "stop", "%.12gs is not after start (%.12gs): the flow would send nothing",
                      time_to_s(f->stop), time_to_s(f->start));
        if ((size_t)f->id / 8 >= seen_len) {
            size_t len = seen_len ? 2 * seen_len : 64;
            if (len <= (size_t)f->id / 8)
                len = (size_t)f->id / 8 + 1;
            seen = xrealloc(seen, len);
            memset(seen + seen_len, 0, len - seen_len);
            seen_len = len;
        }
        if (seen[f->id / 8] & (1u << (f->id % 8)))
            cfg_error(sec, NULL, "flow %d is defined twice", f->id);
        seen[f->id / 8] |= (uint8_t)(1u << (f->id % 8));
        s->flows = xgrow(s->flows, sizeof *s->flows, (size_t)s->nflows, &s->flows_cap, 16);
        s->flows[s->nflows++] = f;
        if (f->ops && routed)
            f->ops->setup(s, f, sec);
        else
            cfg_unchecked(sec);
    }
    progress_end(&line);
    free(seen);
}

struct sim *sim_build(struct cfg *cfg, uint64_t seed_override, bool have_seed_override)
{
    models_install();
    cpu_profiles_register_symbols();
    models_register_symbols();
    struct sim *s = xcalloc(1, sizeof *s);
    s->cfg = cfg;
    s->skbs_at_build = skb_in_use();
    evq_init(&s->q);
    const struct cfg_section *axis_sec;
    const char *axis_key;
    if (cfg_has_axes(cfg, &axis_sec, &axis_key)) {
        cfg_str((struct cfg_section *)axis_sec, axis_key, "", NULL);   /* the getter reports the axis */
        return s;
    }
    /* Structural mistakes are reported with the key errors, and building
     * goes on with defaults, so one run shows every mistake once. */
    struct cfg_section *simsec = cfg_find(cfg, "sim", NULL);
    if (!simsec) {
        cfg_error_global(cfg, "%s: missing section [sim] (it sets duration, interval and seed)", cfg_file(cfg));
        simsec = cfg_section_ensure(cfg, "sim", "");
    }
    cfg_claim(simsec);
    s->duration = cfg_time(simsec, "duration", "10s", PS_PER_US, CFG_TIME_MAX, "simulated time the run lasts");
    /* at most 100 000 interval rows per flow per simulated second (a
     * short flow's life in 10-us steps), and at least one interval in
     * the run */
    char idef[32] = "1s";
    if (s->duration < PS_PER_S)  /* a short run reports once, at its end */
        snprintf(idef, sizeof idef, "%lldus", (long long)(s->duration / PS_PER_US));
    s->interval = cfg_time(simsec, "interval", idef, s->duration < 10 * PS_PER_US ? s->duration : 10 * PS_PER_US,
                           CFG_TIME_MAX,
                           "{1s, or duration if shorter|10us to duration} length of an interval row (goodput per "
                           "flow; a flow has rows while it lives)");
    if (s->interval > s->duration)
        cfg_error(simsec, "interval", "%s is longer than the duration (%s): the run would have no interval",
                  cfg_str(simsec, "interval", idef, NULL), cfg_str(simsec, "duration", "10s", NULL));
    s->seed = (uint64_t)cfg_int(simsec, "seed", "1", 0, INT64_MAX,
                                "seed of every random stream of the run (--seed overrides it)");
    cfg_int(simsec, "repeat", "1", 1, 1000000,
            "runs of each combination in a sweep, replication r on a seed derived from seed and r (run: --rep)");
    const char *name = cfg_str(simsec, "name", "",
            "the scenario's name, recorded with each run (run.scenario) and naming results/NAME.db; "
            "empty: the file's name without .ini");
    /* it names results/NAME.db: one file name, any text but a '/' */
    bool ok = name && strlen(name) <= 250 && strcmp(name, ".") && strcmp(name, "..");
    for (const unsigned char *p = (const unsigned char *)name; ok && *p; p++)
        ok = *p != '/' && *p >= 0x20 && *p != 0x7f;
    if (name && !ok)
        cfg_error(simsec, "name", "got '%s', expected a name that can be a file's (no '/', no control character, "
                  "at most 250 bytes)", name);
    if (have_seed_override)
        s->seed = seed_override;

    /* hosts: named by link ends, configured by [host NAME] */
    int nl = 0, nlinksecs = 0;
    size_t lsec_cap = 0, ends_cap = 0, ports_cap = 0;
    struct cfg_section **lsec = NULL;
    char (*ends)[2][32] = NULL, (*ports)[2][16] = NULL;
    for (int i = 0; i < cfg_section_count(cfg); i++) {
        struct cfg_section *sec = cfg_section_at(cfg, i);
        if (strcmp(cfg_kind(sec), "link"))
            continue;
        cfg_claim(sec);
        nlinksecs++;
        if (!*cfg_name(sec)) {
            cfg_error(sec, NULL, "a link needs a name ([link NAME]): its keys and counters are named after it");
            cfg_unchecked(sec);
            continue;
        }
        lsec = xgrow(lsec, sizeof *lsec, (size_t)nl, &lsec_cap, 8);
        ends = xgrow(ends, sizeof *ends, (size_t)nl, &ends_cap, 8);
        ports = xgrow(ports, sizeof *ports, (size_t)nl, &ports_cap, 8);
        if (link_parse_ends(sec, ends[nl], ports[nl])) {
            cfg_unchecked(sec);
            continue;
        }
        lsec[nl++] = sec;
    }
    if (!nlinksecs)     /* a link whose ends were wrong is reported at its key, not as missing */
        cfg_error_global(cfg, "%s: no [link NAME] section: a scenario needs at least one link", cfg_file(cfg));
    uint64_t need = 0, routers = 0, tables = 0;
    if (!scenario_hosts_fit(s, nl, ends, &need, &routers, &tables)) {      /* one error: nothing else is built or checked */
        free(lsec);
        free(ends);
        free(ports);
        return s;
    }
    for (int l = 0; l < nl; l++)
        for (int e = 0; e < 2; e++)
            host_get(s, ends[l][e]);
    for (int i = 0; i < cfg_section_count(cfg); i++) {
        struct cfg_section *sec = cfg_section_at(cfg, i);
        if (strcmp(cfg_kind(sec), "host"))
            continue;
        cfg_claim(sec);
        struct host *h = host_find(s, cfg_name(sec));
        if (!h) {
            cfg_error(sec, NULL, "host '%s' is on no link (name it in a [link] 'ends' key)", cfg_name(sec));
            cfg_unchecked(sec);
        } else {
            h->sec = sec;
        }
    }
    for (int i = 0; i < s->nhosts; i++) {
        struct host *h = s->hosts[i];
        h->npeers = (uint32_t)s->nhosts;
        if (!h->sec)
            h->sec = cfg_section_ensure(cfg, "host", h->name);
        cfg_claim(h->sec);
        host_configure(s, h);
    }
    if (!scenario_qdiscs_fit(s, lsec, nl, ends, need, routers, tables)) {   /* as hosts_fit */
        free(lsec);
        free(ends);
        free(ports);
        return s;
    }
    links_build(s, lsec, nl, ends, ports);
    free(lsec);
    free(ends);
    free(ports);
    route_init(s);
    for (int i = 0; i < s->nhosts; i++) {
        struct host *h = s->hosts[i];
        pcap_key_read(h);
        models_attach_host(s, h);
        for (int k = 0; k < h->nnics; k++)
            nic_register_counters(h->nics[k], &s->counters);
        sim_counterf(s, &h->ip_no_route, true, "%s.ip_no_route", h->name);
        sim_counterf(s, &h->ip_frag_no_reasm, true, "%s.ip_frag_no_reasm", h->name);
        sim_counterf(s, &h->ip_frag_fails, true, "%s.ip_frag_fails", h->name);
        sim_counterf(s, &h->icmp_frag_needed, false, "%s.icmp_frag_needed", h->name);
        sim_counterf(s, &h->ip_no_proto, true, "%s.ip_no_proto", h->name);
        sim_counterf(s, &h->ip_csum_errors, true, "%s.ip_csum_errors", h->name);
        sim_counterf(s, &h->ip_forwarded, false, "%s.ip_forwarded", h->name);
        host_ifb_build(s, h);
    }
    for (int i = 0; s->ecn_used && i < s->nhosts; i++)
        ip_register_ecn_counters(&s->counters, s->hosts[i]);
    flows_build(s);
    cfg_finish(cfg);
    return s;
}
