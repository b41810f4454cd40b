/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * link_qdisc.c - a link direction's qdisc tree (link_qdisc.h): the qdisc
 * key's discipline, or the host's default; the class and filter keys of a
 * classful one; and what the trees will hold, before any is built.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "load/link_qdisc.h"
#include "load/load.h"
#include "load/qdisc_parse.h"
#include "sim/config.h"
#include "sim/xalloc.h"

/* The port's tree: the qdisc key's discipline (under netem when netem is
 * set, as tc's "parent 1:" recipe puts it), mq's children from the
 * host's net.core.default_qdisc; or, with no qdisc key, what Linux
 * attaches by default (mq over net.core.default_qdisc's discipline on a
 * multiqueue port, counted as HOST.PORT.qdisc.* when that is not
 * pfifo_fast; the built-in mq over pfifo_fast otherwise, whose drops are
 * the NIC's qN.qdisc_drops). */
/* A filter's host: a name, or its address 10.0.0.N (host id N - 1). */
static int filter_host(void *ctx, const char *name)
{
    struct sim *s = ctx;
    struct host *h = host_find(s, name);
    if (h)
        return (int)h->id;
    unsigned a, b, c, d;
    char extra;
    if (sscanf(name, "%u.%u.%u.%u%c", &a, &b, &c, &d, &extra) == 4 && a == 10 && !b && !c && d >= 1)
        for (int i = 0; i < s->nhosts; i++)
            if (s->hosts[i]->id == d - 1)
                return (int)d - 1;
    return -1;
}

static const char *const cdoc = "{none|parent 1:[P] OPTIONS} a class of the link's classful qdisc (htb), "
                                 "classid 1:MINOR in hex: the words after `tc class add ... classid 1:MINOR htb`";
static const char *const fdoc = "{none|match ip dst|src HOST, match ip dport|sport PORT [MASK] ... flowid 1:MINOR} "
                                "the Nth u32 filter of the link's classful qdisc (tried in N order)";

static void qdisc_class_patterns(struct cfg_section *sec)
{
    static const char *const pats[][2] = { { "class.MINOR", "filter.N" }, { "fwd.class.MINOR", "fwd.filter.N" },
                                           { "rev.class.MINOR", "rev.filter.N" } };
    for (int i = 0; i < 3; i++) {
        cfg_pattern_str(sec, pats[i][0], cdoc);
        cfg_pattern_str(sec, pats[i][1], fdoc);
    }
}

/* Is key a class.MINOR or filter.N key of direction dir, spelled for it
 * (DIR.class.X: *directed) or for both (class.X)? The text after
 * "class."/"filter." in *num. */
static bool class_key(const char *key, const char *dir, bool *is_class, bool *directed, const char **num)
{
    size_t dl = strlen(dir);
    const char *rest = key;
    *directed = !strncmp(key, dir, dl) && key[dl] == '.';
    if (*directed)
        rest = key + dl + 1;
    else if (!strncmp(key, "fwd.", 4) || !strncmp(key, "rev.", 4))
        return false;
    *is_class = !strncmp(rest, "class.", 6);
    if (!*is_class && strncmp(rest, "filter.", 7))
        return false;
    *num = rest + (*is_class ? 6 : 7);
    return true;
}

/* A direction without a classful qdisc, or none at all: its class and
 * filter keys would do nothing, and say so (they were "unknown keys");
 * the both-directions spelling only when shared is set (neither
 * direction took them). */
static void classes_unused(struct cfg_section *sec, const char *dir, const struct qdisc_args *a, bool shared)
{
    for (int i = 0; i < cfg_key_count(sec); i++) {
        const char *key, *value, *num;
        bool is_class, directed;
        cfg_key_at(sec, i, &key, &value, NULL);
        if (!class_key(key, dir, &is_class, &directed, &num) || (!directed && !shared))
            continue;
        const char *text = cfg_str(sec, key, "", is_class ? cdoc : fdoc);
        if (!strcmp(text, "none"))
            continue;
        if (a)
            cfg_error(sec, key, "%s is classless: it takes no classes or filters", a->ops->name);
        else
            cfg_error(sec, key, "the %s direction has no qdisc: classes and filters belong to a classful one (htb), "
                      "given with %s.qdisc or qdisc", directed ? dir : "fwd or rev", directed ? dir : "fwd");
    }
}

/* A classful discipline's class.MINOR and filter.N keys of this direction
 * (DIR.class.MINOR over class.MINOR; "none" is no class, and takes away
 * the both-directions one), into a; 0, or -1 after an error. */
static int qdisc_classes_read(struct sim *s, struct cfg_section *sec, const char *dir, struct qdisc_args *a,
                              struct qdisc_class_spec **cl, struct qdisc_filter_spec **fl)
{
    uint32_t nc = 0, nf = 0;
    int nk = cfg_key_count(sec);
    char err[600];
    *cl = xcalloc((size_t)nk + 1, sizeof **cl);
    *fl = xcalloc((size_t)nk + 1, sizeof **fl);
    /* per class and filter: the key that gave it, its line and pass */
    struct origin {
        const char *key;
        int line, pass;
    } *co = xcalloc((size_t)nk + 1, sizeof *co), *fo = xcalloc((size_t)nk + 1, sizeof *fo);
    uint32_t *forder = xcalloc((size_t)nk + 1, sizeof *forder);
    int rc = -1;
    for (int pass = 0; pass < 2; pass++)      /* class.X first, then DIR.class.X replaces */
        for (int i = 0; i < nk; i++) {
            const char *key, *value, *num;
            int line;
            bool is_class, directed;
            cfg_key_at(sec, i, &key, &value, &line);
            if (!class_key(key, dir, &is_class, &directed, &num) || directed != (pass == 1))
                continue;
            char *end;
            unsigned long v = strtoul(num, &end, is_class ? 16 : 10);
            const char *text = cfg_str(sec, key, "", is_class ? cdoc : fdoc);
            if (*end || !*num || !v || v > (is_class ? 0xffffUL : 255UL) || !isxdigit((unsigned char)*num)) {
                cfg_error(sec, key, is_class ? "expected class.MINOR with MINOR a class id in hex, 1 to ffff"
                                             : "expected filter.N with N from 1 to 255");
                goto out;
            }
            if (!a->ops->class_params) {
                cfg_error(sec, key, "%s is classless: it takes no classes or filters", a->ops->name);
                goto out;
            }
            uint32_t *count = is_class ? &nc : &nf, k = 0;
            struct origin *o = is_class ? co : fo;
            while (k < *count && (is_class ? (*cl)[k].minor : forder[k]) != v)
                k++;
            /* class.1 and class.01 are one class: a second key for it in
             * the same spelling is a mistake (one replaced the other) */
            if (k < *count && o[k].pass == pass) {
                cfg_error(sec, key, "%s %s%lx is given twice: by %s (line %d) and %s", is_class ? "class" : "filter",
                          is_class ? "1:" : "", v, o[k].key, o[k].line, key);
                goto out;
            }
            if (!strcmp(text, "none")) {  /* no such class or filter here */
                if (k < *count) {
                    (*count)--;
                    if (is_class)
                        memmove(&(*cl)[k], &(*cl)[k + 1], (*count - k) * sizeof **cl);
                    else {
                        memmove(&(*fl)[k], &(*fl)[k + 1], (*count - k) * sizeof **fl);
                        memmove(&forder[k], &forder[k + 1], (*count - k) * sizeof *forder);
                    }
                    memmove(&o[k], &o[k + 1], (*count - k) * sizeof *o);
                }
                continue;
            }
            if (is_class ? qdisc_parse_class(a->ops, (uint32_t)v, text, &(*cl)[k], err, sizeof err)
                         : qdisc_parse_filter(text, &(*fl)[k], filter_host, s, err, sizeof err)) {
                cfg_error(sec, key, "%s", err);
                goto out;
            }
            if (!is_class)
                forder[k] = (uint32_t)v;
            o[k] = (struct origin){ key, line, pass };
            *count += k == *count;
        }
    /* filters in N order (insertion sort: a handful) */
    for (uint32_t i = 1; i < nf; i++)
        for (uint32_t j = i; j > 0 && forder[j - 1] > forder[j]; j--) {
            uint32_t t = forder[j];
            forder[j] = forder[j - 1];
            forder[j - 1] = t;
            struct qdisc_filter_spec f = (*fl)[j];
            (*fl)[j] = (*fl)[j - 1];
            (*fl)[j - 1] = f;
        }
    a->classes = *cl;
    a->nclasses = nc;
    a->filters = *fl;
    a->nfilters = nf;
    rc = 0;
out:
    free(co);
    free(fo);
    free(forder);
    return rc;
}

static struct qdisc_dev port_dev(struct sim *s, const struct link_dir *d, const struct nic *n)
{
    char seedname[96];
    snprintf(seedname, sizeof seedname, "%s.qdisc", d->key);
    return (struct qdisc_dev){ .mtu = d->mtu, .hard_header_len = 14, .txqueuelen = n->p.txqueuelen,
                               .num_tx_queues = n->p.num_queues, .rate = d->rate,
                               .seed = rng_derive_seed(s->seed, seedname) };
}

/* netem at the root with nothing under it: it hands each packet to its TX
 * queue at its time */
static void netem_root_build(struct sim *s, struct link_dir *d, struct nic *n)
{
    char err[200];
    struct qdisc_dev dev = port_dev(s, d, n);
    struct qdisc_args nt = { .ops = variant_find("qdisc", "netem"), .netem = d->nopts, .netem_rng = &d->rng };
    nic_attach_qdisc(n, qdisc_root_new(&nt, &dev, &s->q, &nic_qdisc_dev, n, err, sizeof err));
}

/* What 4.15 attaches to a port nobody configured (dev_activate,
 * attach_default_qdiscs): mq over a pfifo_fast per TX queue, or a lone
 * pfifo_fast on a one-queue port. Its counters are the NIC's. */
static void default_tree_build(struct sim *s, struct link_dir *d, struct nic *n)
{
    char err[200];
    struct qdisc_args top, pfifo_fast;
    if (qdisc_parse("pfifo_fast", &pfifo_fast, err, sizeof err) ||
        (n->p.num_queues > 1 && qdisc_parse("mq", &top, err, sizeof err)))
        abort();                 /* the built-in words: parsed by every test */
    if (n->p.num_queues == 1)
        top = pfifo_fast;
    else
        top.child = &pfifo_fast;
    struct qdisc_dev dev = port_dev(s, d, n);
    struct qdisc_root *r = qdisc_root_new(&top, &dev, &s->q, &nic_qdisc_dev, n, err, sizeof err);
    if (!r)
        abort();
    r->dflt = true;
    nic_attach_qdisc(n, r);
}

bool link_qdisc_build(struct sim *s, struct cfg_section *sec, struct link_dir *d, struct nic *n,
                               struct host *h, const char *dir, bool shared)
{
    struct qdisc_args top, pfifo_fast;
    char err[600], key[40];
    struct qdisc_class_spec *cl = NULL;
    struct qdisc_filter_spec *fl = NULL;
    const struct qdisc_args *def = h->default_qdisc;
    qdisc_class_patterns(sec);
    if (!d->qargs && !def) {
        classes_unused(sec, dir, NULL, shared);
        if (d->netem_on)         /* netem alone at the root, over the NIC's TX queues */
            netem_root_build(s, d, n);
        else
            default_tree_build(s, d, n);
        return false;
    }
    if (!def) {
        if (qdisc_parse("pfifo_fast", &pfifo_fast, err, sizeof err))
            return false;
        def = &pfifo_fast;
    }
    if (d->qargs)
        top = *d->qargs;
    else if (n->p.num_queues == 1)
        top = *def;
    else if (qdisc_parse("mq", &top, err, sizeof err))
        return false;
    if (top.ops->mq)
        top.child = def;
    bool classful = top.ops->class_params != NULL;
    if (!classful)
        classes_unused(sec, dir, d->qargs ? &top : NULL, shared);
    else if (qdisc_classes_read(s, sec, dir, &top, &cl, &fl)) {
        free(cl);
        free(fl);
        return true;
    }
    struct qdisc_dev dev = port_dev(s, d, n);
    /* with netem keys at the root, netem over the tree (tc's parent 1:1) */
    const struct qdisc_ops *netem = variant_find("qdisc", "netem");
    struct qdisc_args nt = { .ops = netem, .netem = d->nopts, .netem_rng = &d->rng, .child = &top };
    struct qdisc_args leaf = { .ops = netem, .netem = d->nopts };
    nic_attach_qdisc(n, qdisc_root_new_netem(d->netem_on ? &nt : &top, &dev, &s->q, &nic_qdisc_dev, n,
                                             d->netem_leaf ? &leaf : NULL, err, sizeof err));
    free(cl);
    free(fl);
    if (!n->qd) {
        /* the run will not start; the port still has the default tree,
         * so that nothing after the error meets a port without one */
        default_tree_build(s, d, n);
        if (!d->qargs) {
            /* the host's default discipline, refused on this port: said
             * at the host's key, once (its other ports keep the built-in
             * default) */
            cfg_error(h->sec, "net.core.default_qdisc", "%s (each TX queue's discipline on %s:%s)", err, h->name,
                      n->name);
            free(h->default_qdisc);
            h->default_qdisc = NULL;
            return classful;
        }
        snprintf(key, sizeof key, "%s.qdisc", dir);
        cfg_error(sec, cfg_has(sec, key) ? key : "qdisc", "%s", err);
        return classful;
    }
    qdisc_root_register(n->qd, s, h->name, n->name, d->qd_every);
    return classful;
}

/* A direction's key as written, before any getter reads it: DIR.KEY
 * over KEY; NULL when neither is given. *used: the spelling found. */
static const char *raw_dir_value(struct cfg_section *sec, const char *dir, const char *key, const char **used)
{
    char dk[40];
    snprintf(dk, sizeof dk, "%s.%s", dir, key);
    const char *v = NULL, *dv = NULL, *vk = NULL, *dvk = NULL;
    for (int i = 0; i < cfg_key_count(sec); i++) {
        const char *k, *val;
        cfg_key_at(sec, i, &k, &val, NULL);
        if (!strcmp(k, key))
            v = val, vk = k;
        else if (!strcmp(k, dk))
            dv = val, dvk = k;
    }
    *used = dv ? dvk : vk;
    return dv ? dv : v;
}

uint64_t links_qdisc_mem(struct sim *s, struct cfg_section **lsec, int nl, char (*ends)[2][32], uint64_t *largest,
                         char *largest_key, size_t n)
{
    uint64_t sum = 0, builtin = 0;
    *largest = 0;
    largest_key[0] = 0;
    struct qdisc_args mq, pfifo_fast, given;
    char err[600];
    if (qdisc_parse("mq", &mq, err, sizeof err) || qdisc_parse("pfifo_fast", &pfifo_fast, err, sizeof err))
        return 0;
    for (int i = 0; i < nl; i++)
        for (int e = 0; e < 2; e++) {
            struct host *h = host_find(s, ends[i][e]);
            if (!h)
                continue;
            const char *key = NULL, *v = raw_dir_value(lsec[i], e ? "rev" : "fwd", "qdisc", &key);
            const struct qdisc_args *def = h->default_qdisc ? h->default_qdisc : &pfifo_fast;
            struct qdisc_args top;
            if (v && *v && !qdisc_parse(v, &given, err, sizeof err))
                top = given;
            else if (h->nicp.num_queues == 1)
                top = *def;
            else
                top = mq;        /* over default_qdisc's or the built-in pfifo_fast */
            if (top.ops->mq)
                top.child = def;
            struct qdisc_dev dev = { .mtu = 1500, .hard_header_len = 14, .txqueuelen = h->nicp.txqueuelen,
                                     .num_tx_queues = h->nicp.num_queues };
            uint64_t m = sizeof(struct qdisc_root) + qdisc_mem_estimate(&top, &dev);
            sum += m;
            if (!(v && *v) && !h->default_qdisc) {   /* the built-in tree: no key to name */
                builtin = m > builtin ? m : builtin;
                continue;
            }
            if (m > *largest) {
                *largest = m;
                if (key)
                    snprintf(largest_key, n, "[link %s] %s", cfg_name(lsec[i]), key);
                else
                    snprintf(largest_key, n, "[host %s] net.core.default_qdisc", h->name);
            }
        }
    if (!largest_key[0] && builtin) {
        *largest = builtin;
        snprintf(largest_key, n, "a port's built-in mq over pfifo_fast");
    }
    return sum;
}

