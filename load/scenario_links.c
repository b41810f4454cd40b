/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scenario_links.c - the [link] sections of a scenario: the two ends,
 * each direction's line rate, MTU, netem qdisc and cable, and the NIC
 * ports they join (scenario_links.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/config.h"
#include "load/load.h"
#include "load/netem_parse.h"
#include "load/link_qdisc.h"
#include "load/qdisc_parse.h"
#include "load/scenario_links.h"
#include "sim/units.h"
#include "sim/xalloc.h"

bool name_word(const char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || strchr("_-", *s)))
            return false;
    return true;
}

/* "h1:eth0 h2:eth1" */
int link_parse_ends(struct cfg_section *sec, char host[2][32], char port[2][16])
{
    const char *v = cfg_str(sec, "ends", NULL,
            "the two ports it joins, HOST:PORT HOST:PORT (PORT defaults to eth0); fwd is first to second");
    if (!v)
        return -1;
    char a[64], b[64], extra[8];
    if (sscanf(v, "%63s %63s %7s", a, b, extra) != 2) {
        cfg_error(sec, "ends", "got '%s', expected two ends such as 'sender:eth0 receiver:eth0'", v);
        return -1;
    }
    char *ends[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        char *colon = strchr(ends[i], ':');
        if (colon)
            *colon = 0;
        if (!*ends[i] || strlen(ends[i]) >= 32 || (colon && (!colon[1] || strlen(colon + 1) >= 16)) ||
            !name_word(ends[i]) || (colon && !name_word(colon + 1))) {
            cfg_error(sec, "ends", "got '%s', expected HOST:PORT HOST:PORT such as 'sender:eth0 receiver:eth0' "
                      "(names of letters, digits, '_' and '-', at most 31 and 15 characters)", v);
            return -1;
        }
        snprintf(host[i], 32, "%s", ends[i]);
        snprintf(port[i], 16, "%s", colon ? colon + 1 : "eth0");
    }
    if (!strcmp(host[0], host[1])) {
        cfg_error(sec, "ends", "both ends are on host '%s'; a link joins two hosts", host[0]);
        return -1;
    }
    return 0;
}

/* A key of a link direction: KEY for both, fwd.KEY and rev.KEY for one;
 * each spelling is documented (DIR_KEY writes the two one-way docs). */
struct dir_key {
    const char *key, *def, *doc, *fwd_doc, *rev_doc;
};
#define DIR_KEY(key, def, doc)                                                       \
    { key, def, doc, "{as " key "} " key " of the fwd direction only (first end to second)", \
      "{as " key "} " key " of the rev direction only (second end to first)" }

/* The value of KEY for one direction: "fwd.KEY" / "rev.KEY" if given,
 * else "KEY", else def; both spellings become known keys. used (40 bytes)
 * gets the spelling an error is reported against; *given says whether
 * either is in the scenario. */
static const char *dir_value(struct cfg_section *sec, const char *dir, const struct dir_key *k, char *used, bool *given)
{
    snprintf(used, 40, "%s.%s", dir, k->key);
    bool d = cfg_has(sec, used);
    *given = d || cfg_has(sec, k->key);
    const char *v = cfg_str(sec, k->key, k->def, k->doc);
    const char *dv = cfg_str(sec, used, "", strcmp(dir, "fwd") ? k->rev_doc : k->fwd_doc);
    if (d)
        return dv;
    snprintf(used, 40, "%s", k->key);
    return v;
}

static const struct dir_key netem_keys[NK_COUNT] = {
    DIR_KEY("delay", "0", "{0|TIME [JITTER] [distribution uniform|normal]} netem delay on the sending port's egress"),
    DIR_KEY("loss", "0%", "{0%|PERCENT, random PERCENT, gemodel P [R [1-H [1-K]]], then ecn to mark CE instead of dropping ECN-capable packets} netem loss (a bare number is a %)"),
    DIR_KEY("reorder", "0%", "{0%|PERCENT} netem reorder: that share skips the delay (needs a delay)"),
    DIR_KEY("duplicate", "0%", "{0%|PERCENT} netem duplicate: that share is sent twice"),
    DIR_KEY("corrupt", "0%", "{0%|PERCENT} netem corrupt: that share fails the receiver's checksum"),
    DIR_KEY("netem_rate", "", "{none|RATE [PACKETOVERHEAD [CELLSIZE [CELLOVERHEAD]]]} netem's rate, spacing packets"),
    DIR_KEY("limit", "1000", "{1000|1 to 10000000 packets} packets netem holds (tc's default 1000)"),
};
static const struct dir_key qdisc_key =
    DIR_KEY("qdisc", "", "{the port's default, mq with net.core.default_qdisc children|tc's words after root, "
            "e.g. fq_codel target 5ms ecn} the sending port's queueing discipline (netsim keys qdisc)");
static const struct dir_key netem_at_key =
    DIR_KEY("netem_at", "root", "{root|root or leaf} with a qdisc key too, where netem goes: root (netem over the "
            "qdisc, tc's parent 1:1 recipe) or leaf (the qdisc over netem: tbf's child, each htb leaf, each TX queue "
            "under mq)");
static const struct dir_key qdisc_interval_key =
    DIR_KEY("qdisc_interval", "10ms", "{10ms|0 (none) or 1us to 1000s} period of the qdisc's series: backlog_bytes, "
            "backlog_pkts, their peaks in the period, sojourn_ms and sojourn_max_ms");
static const struct dir_key propagation_key =
    DIR_KEY("propagation", "0", "{0|0 to 1000s} one-way delay of the cable, after the wire");

/* Does either direction have a netem key, in any spelling? */
static bool any_netem_key(struct cfg_section *sec)
{
    for (int i = 0; i < cfg_key_count(sec); i++) {
        const char *key, *value;
        cfg_key_at(sec, i, &key, &value, NULL);
        const char *k = !strncmp(key, "fwd.", 4) || !strncmp(key, "rev.", 4) ? key + 4 : key;
        for (int n = 0; n < NK_COUNT; n++)
            if (!strcmp(k, netem_keys[n].key))
                return true;
    }
    return false;
}

/* netem and the cable of one direction (link.h): a netem qdisc is
 * installed when any of its keys is given for this direction. */
static void link_dir_configure(struct cfg_section *sec, struct link_dir *d, const char *dir)
{
    struct netem_opts *o = &d->nopts;
    const char *v, *why;
    char key[NK_COUNT][40], pkey[40];
    bool any = false, given;
    netem_opts_init(o);
    for (int k = 0; k < NK_COUNT; k++) {
        v = dir_value(sec, dir, &netem_keys[k], key[k], &given);
        why = NULL;
        bool bare = false;
        any |= given;
        if (netem_key_parse(o, k, v, &why, &bare))
            cfg_error(sec, key[k], "got '%s', expected %s", v, why);
        else if (bare)
            cfg_warning(sec, key[k], "'%s': a bare number is a percentage, as tc reads it (0.1 is 0.1 %%, "
                        "where netsim once read 10 %%); write the %% sign to say so", v);
    }
    if (o->reorder > 0 && !o->latency)
        cfg_error(sec, key[NK_REORDER], "reorder needs a delay (tc: reordering not possible without specifying some delay)");
    d->netem_on = any;   /* link_qdisc_build puts netem at the root once the sending NIC exists */
    char qkey[40], ikey[40];
    bool qdisc_is_netem = false;
    v = dir_value(sec, dir, &qdisc_key, qkey, &given);
    if (*v) {
        struct qdisc_args a;
        char err[600];
        if (qdisc_parse(v, &a, err, sizeof err)) {
            cfg_error(sec, qkey, "%s", err);
        } else if (a.ops->netem) {
            /* tc qdisc add dev DEV root netem ...: what the netem keys build */
            if (any)
                cfg_error(sec, qkey, "netem is given twice, by this key and by the direction's netem keys "
                          "(delay, loss, ...): give one");
            d->nopts = a.netem;
            d->netem_on = true;
            qdisc_is_netem = true;
        } else {
            d->qargs = xmalloc(sizeof a);
            *d->qargs = a;
        }
    }
    char akey[40];
    v = dir_value(sec, dir, &netem_at_key, akey, &given);
    if (!strcmp(v, "leaf")) {
        if (qdisc_is_netem)
            cfg_error(sec, akey, "leaf puts netem under the direction's qdisc, and its qdisc is netem itself");
        else if (!d->qargs)
            cfg_error(sec, akey, "netem_at = leaf puts netem under the direction's qdisc, and it has none "
                      "(give qdisc, e.g. tbf rate 100mbit burst 32kb latency 50ms)");
        else if (d->netem_on)
            d->netem_leaf = true;
        else if (strcmp(akey, "netem_at") || (!strcmp(dir, "fwd") && !any_netem_key(sec)))
            /* it would do nothing: said for the direction it names, or
             * once for both when neither has netem */
            cfg_error(sec, akey, "leaf puts the direction's netem under its qdisc, and it has no netem key (delay, "
                      "loss, reorder, duplicate, corrupt, netem_rate, limit)");
        d->netem_on = false;
    } else if (strcmp(v, "root")) {
        cfg_error(sec, akey, "got '%s', expected root or leaf", v);
    }
    v = dir_value(sec, dir, &qdisc_interval_key, ikey, &given);
    why = NULL;
    /* as cfg_period: a period of picoseconds would run for minutes */
    if (parse_time(v, &d->qd_every, &why) || d->qd_every > NETEM_MAX_DELAY ||
        (d->qd_every && d->qd_every < PS_PER_US)) {
        cfg_error(sec, ikey, "got '%s', expected %s", v, why ? why : "0 (none) or a period of 1us to 1000s");
        d->qd_every = 0;
    }
    v = dir_value(sec, dir, &propagation_key, pkey, &given);
    why = NULL;
    if (parse_time(v, &d->propagation, &why) || d->propagation > NETEM_MAX_DELAY) {
        cfg_error(sec, pkey, "got '%s', expected %s", v, why ? why : "a propagation delay of at most 1000s");
        d->propagation = 0;
    }
}

static struct nic *nic_new(struct host *h, const char *port, struct cfg_section *sec)
{
    for (int i = 0; i < h->nnics; i++)
        if (!strcmp(h->nics[i]->name, port)) {
            cfg_error(sec, "ends", "port %s:%s is already on another link", h->name, port);
            return NULL;
        }
    if (h->nnics == HOST_MAX_NICS) {
        cfg_error(sec, "ends", "host %s has more than %d ports (HOST_MAX_NICS, sim/host.h; a bigger switch is "
                  "several hosts joined by links)", h->name, HOST_MAX_NICS);
        return NULL;
    }
    /* its queues are 64-byte aligned (nic.h); malloc promises 16. The
     * size of a 64-aligned struct is a multiple of 64, as C11 asks. */
    struct nic *n = aligned_alloc(_Alignof(struct nic), sizeof *n);
    if (!n)
        xoom();
    nic_init(n, h, port, &h->nicp);
    h->nics[h->nnics++] = n;
    n->port = (uint8_t)h->nnics;
    return n;
}

void links_build(struct sim *s, struct cfg_section **lsec, int nl, char (*ends)[2][32], char (*ports)[2][16])
{
    for (int i = 0; i < nl; i++) {
        struct cfg_section *sec = lsec[i];
        struct link *l = xcalloc(1, sizeof *l);
        snprintf(l->name, sizeof l->name, "%s", cfg_name(sec));
        s->links = xgrow(s->links, sizeof *s->links, (size_t)s->nlinks, &s->links_cap, 8);
        s->links[s->nlinks++] = l;
        uint64_t rate = cfg_rate(sec, "rate", "10gbit",
                                 "{|at least 1kbit} line rate of each direction (the 82599's 10 Gbit/s)");
        if (rate < 1000) {       /* a frame must serialise within minutes */
            cfg_error(sec, "rate", "got '%s', expected at least 1kbit", cfg_str(sec, "rate", "10gbit", NULL));
            rate = 10000000000ULL;
        }
        uint32_t mtu = (uint32_t)cfg_int(sec, "mtu", "1500", 68, 65535, "MTU of both ports (IP packet bytes)");
        struct host *h[2] = { host_find(s, ends[i][0]), host_find(s, ends[i][1]) };
        struct nic *n[2] = { NULL, NULL };
        if (!h[0] || !h[1])
            continue;
        for (int e = 0; e < 2; e++) {
            n[e] = nic_new(h[e], ports[i][e], sec);
        }
        bool shared_taken = false;   /* class.X keys: by a classful qdisc of either direction */
        for (int e = 0; e < 2; e++) {
            struct link_dir *d = &l->dir[e];
            char key[64];
            snprintf(key, sizeof key, "link.%s.%s", l->name, e ? "rev" : "fwd");
            link_dir_init(d, &s->q, s->seed, key);
            char lname[sizeof l->name];
            memcpy(lname, l->name, sizeof lname);   /* d lives inside l: no overlap for snprintf */
            snprintf(d->name, sizeof d->name, "link %s %s (%s -> %s)", lname, e ? "rev" : "fwd", h[e]->name, h[!e]->name);
            d->rate = rate;
            d->mtu = mtu;
            link_dir_configure(sec, d, e ? "rev" : "fwd");
            if (n[e]) {
                n[e]->tx_link = d;
                shared_taken |= link_qdisc_build(s, sec, d, n[e], h[e], e ? "rev" : "fwd", e && !shared_taken);
            }
            d->dst = n[!e];
            if (n[!e])
                d->rx_latency = n[!e]->p.rx_latency;
            sim_counterf(s, &d->tx_packets, false, "%s.tx_packets", key);
            struct qdisc_root *qd = n[e] ? n[e]->qd : NULL;
            struct qdisc *top = d->netem_on && qd ? qd->top : NULL;
            if (!top) {
                sim_counterf(s, &d->no_netem_loss, true, "%s.netem_loss", key);
                continue;
            }
            qdisc_root_register_top(qd, &s->counters, key);   /* netem's are the direction's */
            if (d->nopts.ecn)
                s->ecn_used = true;
        }
    }
}
