/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host_ifb.c - a host's ifb devices and ingress redirects (host_ifb.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "load/host_ifb.h"
#include "load/load.h"
#include "load/qdisc_parse.h"
#include "load/scenario_links.h"
#include "sim/config.h"
#include "sim/xalloc.h"

static const char ifb_doc[] =
    "{none|NAME ...} ifb devices of this host, as ip link add NAME type ifb: each queues with its own "
    "NAME.qdisc what a port's ingress redirects to it (its default: net.core.default_qdisc, else pfifo_fast "
    "limit 32, the ifb's tx_queue_len)";
static const char qdisc_doc[] =
    "{the host's default, limit 32|tc's words after root} the ifb's egress discipline, as tc qdisc add dev "
    "IFB root ... (netem, tbf, htb, ...)";
static const char ingress_doc[] =
    "{no redirect|[protocol all|ip|ipv6] u32 match u32 0 0 (or matchall) action mirred egress redirect dev IFB} "
    "the port's ingress, as tc qdisc add dev PORT ingress and tc filter add dev PORT parent ffff: ...: "
    "what it receives, after GRO, goes through the ifb's qdisc before the stack";

static struct ifb *ifb_named(struct host *h, const char *name)
{
    for (int i = 0; i < h->nifbs; i++)
        if (!strcmp(h->ifbs[i]->name, name))
            return h->ifbs[i];
    return NULL;
}

static struct nic *port_named(struct host *h, const char *name)
{
    for (int i = 0; i < h->nnics; i++)
        if (!strcmp(h->nics[i]->name, name))
            return h->nics[i];
    return NULL;
}

/* ip link add NAME type ifb, for each name of the ifb key */
static void ifbs_create(struct host *h, const char *names)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", names);
    char *save = NULL;
    for (char *w = strtok_r(buf, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
        if (!*w || strlen(w) >= sizeof h->ifbs[0]->name || !name_word(w))
            cfg_error(h->sec, "ifb", "got '%s', expected device names of letters, digits, '_' and '-' (at most "
                      "15), e.g. ifb0", w);
        else if (ifb_named(h, w) || port_named(h, w))
            cfg_error(h->sec, "ifb", "'%s' is already a device of host %s", w, h->name);
        else if (h->nifbs == HOST_MAX_IFBS)
            cfg_error(h->sec, "ifb", "at most %d ifb devices on a host", HOST_MAX_IFBS);
        else {
            struct ifb *f = xcalloc(1, sizeof *f);
            snprintf(f->name, sizeof f->name, "%s", w);
            f->host = h;
            h->ifbs[h->nifbs++] = f;
        }
    }
}

/* the ifb's tree: IFB.qdisc, else the host's default at tx_queue_len 32 */
static void ifb_tree(struct sim *s, struct host *h, struct ifb *f)
{
    char key[40], err[600], seedname[96];
    struct qdisc_args a;
    snprintf(key, sizeof key, "%s.qdisc", f->name);
    const char *v = cfg_str(h->sec, key, "", qdisc_doc);
    if (*v) {
        if (qdisc_parse(v, &a, err, sizeof err)) {
            cfg_error(h->sec, key, "%s", err);
            return;
        }
    } else if (h->default_qdisc) {
        a = *h->default_qdisc;
    } else if (qdisc_parse("pfifo_fast", &a, err, sizeof err)) {
        return;
    }
    if (a.ops->mq) {
        cfg_error(h->sec, *v ? key : "net.core.default_qdisc", "mq needs a multiqueue device, and an ifb has one "
                  "TX queue (tc: the qdisc is not supported)");
        return;
    }
    snprintf(seedname, sizeof seedname, "%s.%s.qdisc", h->name, f->name);
    struct qdisc_dev dev = { .mtu = 1500, .hard_header_len = 14, .txqueuelen = IFB_TX_QUEUE_LEN, .num_tx_queues = 1,
                             .seed = rng_derive_seed(s->seed, seedname) };
    f->qd = qdisc_root_new(&a, &dev, &s->q, &ifb_qdisc_dev, f, err, sizeof err);
    if (!f->qd) {
        cfg_error(h->sec, *v ? key : "net.core.default_qdisc", "%s", err);
        return;
    }
    qdisc_root_register(f->qd, s, h->name, f->name, 10 * PS_PER_MS);
    char prefix[96];
    snprintf(prefix, sizeof prefix, "%s.%s", h->name, f->name);
    char qprefix[104];
    snprintf(qprefix, sizeof qprefix, "%s.qdisc", prefix);
    qdisc_root_register_top(f->qd, &s->counters, qprefix);   /* netem at its root */
    sim_counterf(s, &f->rx_packets, false, "%s.rx_packets", prefix);
    sim_counterf(s, &f->tx_packets, false, "%s.tx_packets", prefix);
    sim_counterf(s, &f->rx_dropped, true, "%s.rx_dropped", prefix);
}

/* [protocol all|ip|ipv6] (u32 match u32 0 0 | matchall) action mirred
 * egress redirect dev IFB */
static void ingress_read(struct host *h, struct nic *n, const char *key, const char *text)
{
    char buf[512];
    const char *w[16];
    int nw = 0;
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *t = strtok_r(buf, " \t", &save); t && nw < 16; t = strtok_r(NULL, " \t", &save))
        w[nw++] = t;
    int i = 0;
    uint8_t family = 0;
    if (i + 1 < nw && !strcmp(w[i], "protocol")) {
        if (!strcmp(w[i + 1], "ip"))
            family = NET_IPV4;
        else if (!strcmp(w[i + 1], "ipv6"))
            family = NET_IPV6;
        else if (strcmp(w[i + 1], "all"))
            goto bad;
        i += 2;
    }
    if (i + 5 <= nw && !strcmp(w[i], "u32") && !strcmp(w[i + 1], "match") && !strcmp(w[i + 2], "u32") &&
        !strcmp(w[i + 3], "0") && !strcmp(w[i + 4], "0"))
        i += 5;
    else if (i < nw && !strcmp(w[i], "matchall"))
        i += 1;
    else
        goto bad;
    static const char *const mirred[] = { "action", "mirred", "egress", "redirect", "dev" };
    for (int k = 0; k < 5; k++, i++)
        if (i >= nw || strcmp(w[i], mirred[k]))
            goto bad;
    if (i + 1 != nw)
        goto bad;
    struct ifb *f = ifb_named(h, w[i]);
    if (!f) {
        cfg_error(h->sec, key, "no ifb '%s' on host %s (ifb = %s makes one, as ip link add %s type ifb)", w[i],
                  h->name, w[i], w[i]);
        return;
    }
    n->ingress = (struct ingress){ .to = f, .family = family };
    return;
bad:
    cfg_error(h->sec, key, "got '%s', expected tc's filter after 'parent ffff:': [protocol all|ip|ipv6] u32 match "
              "u32 0 0 (or matchall) action mirred egress redirect dev IFB", text);
}

void host_ifb_build(struct sim *s, struct host *h)
{
    if (!h->sec)
        return;
    cfg_pattern_str(h->sec, "IFB.qdisc", qdisc_doc);
    cfg_pattern_str(h->sec, "PORT.ingress", ingress_doc);
    const char *names = cfg_str(h->sec, "ifb", "", ifb_doc);
    if (*names && strcmp(names, "none"))
        ifbs_create(h, names);
    for (int i = 0; i < h->nifbs; i++)
        ifb_tree(s, h, h->ifbs[i]);
    for (int i = 0; i < cfg_key_count(h->sec); i++) {
        const char *key, *value;
        cfg_key_at(h->sec, i, &key, &value, NULL);
        const char *dot = strrchr(key, '.');
        if (!dot || strcmp(dot, ".ingress"))
            continue;
        char port[16];
        snprintf(port, sizeof port, "%.*s", (int)(dot - key), key);
        const char *text = cfg_str(h->sec, key, "", ingress_doc);
        struct nic *n = port_named(h, port);
        if (!n)
            cfg_error(h->sec, key, "host %s has no port '%s' (its ports are named by the links' ends)", h->name, port);
        else
            ingress_read(h, n, key, text);
    }
}
