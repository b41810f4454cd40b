/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netperf.c - `netperf -t SCTP_STREAM -l 30` with netserver, the workload
 * of seed 001 (sctp.md B.1): one host, loopback, msg_size-byte sends (one
 * DATA chunk each; Nagle bundles them into 64 KB packets), netperf on core
 * `cpu` with the loopback softirq it triggers, netserver on `server_cpu`.
 * Goodput is what netserver read (the flow's interval rows).
 *
 * Keys: msg_size (1636), cpu (0), server_cpu (1), port (12866), sndbuf /
 * rcvbuf (0 = sysctl default), paths (1), hb_sample (10ms; 0 = off: series
 * sctp.hb_expires_ahead_s, the heartbeat expiry minus now during the
 * transfer), ss_interval (0 = none: ss -Smi samples, sctp_ss.c). At the end the sending core's own profile is added as host
 * "NAME/cpuN" (perf record -C N: netperf and its softirq work), so that
 * --profile shows the shares the seed's perf output shows.
 */
#include <stdio.h>
#include <stdlib.h>
#include "models/sctp/sctp.h"
#include "models/sctp/sctp_ss.h"
#include "sim/config.h"
#include "sim/sim.h"
#include "sim/xalloc.h"

struct netperf {
    struct sctp_assoc cli, srv;
    struct flow *f;
    struct sim *s;
    struct cpu_sample core_prof[CPU_MAX_SYMS];
    simtime_t hb_iv;
    struct event hb_sample;
    struct sctp_ss ss;
};

static void read_(struct sctp_assoc *a, uint32_t bytes, struct core *c)
{
    struct netperf *p = a->hooks.ctx;
    (void)c;
    flow_deliver(p->f, bytes);
}

static void hb_sample(struct event *ev)
{
    struct netperf *p = ev->ctx;
    struct sim *s = p->s;
    if (kt_pending(&p->cli.tp[0].hb))
        sim_series(s, "sctp.hb_expires_ahead_s",
                   time_to_s((simtime_t)p->cli.tp[0].hb.expires * KT_PS_PER_JIFFY - s->q.now));
    if (s->q.now + p->hb_iv <= p->f->stop && s->q.now + p->hb_iv <= s->duration)
        evq_push(&s->q, &p->hb_sample, s->q.now + p->hb_iv);
}

static void setup(struct sim *s, struct flow *f, struct cfg_section *sec)
{
    struct netperf *p;
    APP_STATE(p, s, f);
    /* 1636 (the sctp_hb post's netperf -m) where one DATA chunk holds it,
     * else what one holds (1452 at an MTU of 1500): a default the path
     * refused was no default */
    uint32_t chunk = ip_max_unfragmented(f->from, f->to->id, NET_IPV4) - SCTP_COMMON_HDR - SCTP_DATA_HDR;
    char def[16];
    snprintf(def, sizeof def, "%u", chunk < 1636 ? chunk : 1636);
    uint32_t len = (uint32_t)cfg_size(sec, "msg_size", def, 1, 65000,
                                      "{1636, or one DATA chunk's worth at the path's MTU if less (1452 at 1500)|1 to "
                                      "65000} bytes per send (netperf -m; one DATA chunk each)");
    p->hb_iv = cfg_period(sec, "hb_sample", "10ms", 3600 * PS_PER_S,
                          "period of the series sctp.hb_expires_ahead_s (heartbeat expiry minus now); 0 = none, else "
                          "at least 1us");
    int cpu = sctp_app_pair(f, sec, &p->cli, &p->srv, NET_IPV4, "msg_size", len, "12866");
    sctp_ss_setup(&p->ss, s, f, sec, &p->cli, &p->srv);
    p->srv.hooks = (struct sctp_app_hooks){ .read = read_, .ctx = p };
    f->from->cores[cpu].core_prof = p->core_prof;
    event_init(&p->hb_sample, hb_sample, p);
    f->counts_goodput = true;
    snprintf(f->desc, sizeof f->desc, "sctp_stream %s -> %s, %u B sends, hb %s", f->from->name, f->to->name, len,
             p->cli.sh->hb->name);
    sctp_assoc_counters(s, &p->cli, &p->srv, f->id);
    for (int i = 0; i < f->from->ncores && i < 2; i++)
        sim_counterf(s, &f->from->cores[i].busy_ps, false, "host.%s.cpu%d.busy_ps", f->from->name, i);
}

static void start(struct sim *s, struct flow *f)
{
    struct netperf *p = f->priv;
    sctp_procs_start(&p->cli, &p->srv, f->start);
    if (p->hb_iv)
        evq_push(&s->q, &p->hb_sample, f->start + p->hb_iv);
    sctp_ss_start(&p->ss, f->start);
}

static void finish(struct sim *s, struct flow *f)
{
    struct netperf *p = f->priv;
    for (int k = 0; k < cpu_sym_count(); k++) {
        if (!p->core_prof[k].calls)
            continue;
        sim_emit_profile(s, f->from->name, p->cli.writer_core->id, cpu_sym_name(k), p->core_prof[k].ps / 1000.0, p->core_prof[k].calls);
    }
    p->cli.writer_core->core_prof = NULL;
}

const struct app_ops sctp_stream_app = {
    .name = "sctp_stream",
    .doc = "netperf -t SCTP_STREAM: msg_size sends as fast as the socket allows, netserver reads",
    .setup = setup,
    .start = start,
    .finish = finish,
};
