/*
 * scenario_links.c - the [link] sections of a scenario: the two ends,
 * each direction's line rate, MTU, netem qdisc and cable, and the NIC
 * ports they join (scenario_links.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/config.h"
#include "load/load.h"
#include "load/netem_parse.h"
#include "load/qdisc_parse.h"
#include "load/scenario_links.h"
#include "load/units.h"
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

enum { NK_DELAY, NK_LOSS, NK_REORDER, NK_DUPLICATE, NK_CORRUPT, NK_RATE, NK_LIMIT, NK_COUNT };
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

/* One netem key's value into o; 0 or -1 with *why. */
static int netem_key_parse(struct netem_opts *o, int k, const char *v, const char **why, bool *bare)
{
    int64_t lim;
    switch (k) {
    case NK_DELAY:
        if (netem_parse_delay(o, v, why))
            return -1;
        if (o->latency > NETEM_MAX_DELAY || o->jitter > NETEM_MAX_DELAY) {
            *why = "a delay and a jitter of at most 1000s each";
            return -1;
        }
        return 0;
    case NK_LOSS: return netem_parse_loss(o, v, why, bare);
    case NK_REORDER: return netem_parse_prob(&o->reorder, "reorder", v, why, bare);
    case NK_DUPLICATE: return netem_parse_prob(&o->duplicate, "duplicate", v, why, bare);
    case NK_CORRUPT: return netem_parse_prob(&o->corrupt, "corrupt", v, why, bare);
    case NK_RATE: return *v ? netem_parse_rate(o, v, why) : 0;
    default:
        if (parse_int(v, &lim, why))
            return -1;
        if (lim < 1 || lim > NETEM_MAX_LIMIT) {
            *why = "a packet count from 1 to 10000000";
            return -1;
        }
        o->limit = (uint32_t)lim;
        return 0;
    }
}

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
    d->nm.on = any;   /* netem_init completes it once the sending NIC exists */
    char qkey[40], ikey[40];
    v = dir_value(sec, dir, &qdisc_key, qkey, &given);
    if (*v) {
        struct qdisc_args a;
        char err[600];
        if (qdisc_parse(v, &a, err, sizeof err)) {
            cfg_error(sec, qkey, "%s", err);
        } else {
            d->qargs = xmalloc(sizeof a);
            *d->qargs = a;
        }
    }
    char akey[40];
    v = dir_value(sec, dir, &netem_at_key, akey, &given);
    if (!strcmp(v, "leaf")) {
        if (!d->qargs)
            cfg_error(sec, akey, "netem_at = leaf puts netem under the direction's qdisc, and it has none "
                      "(give qdisc, e.g. tbf rate 100mbit burst 32kb latency 50ms)");
        else if (d->nm.on)
            d->netem_leaf = true;
        else if (strcmp(akey, "netem_at") || (!strcmp(dir, "fwd") && !any_netem_key(sec)))
            /* it would do nothing: said for the direction it names, or
             * once for both when neither has netem */
            cfg_error(sec, akey, "leaf puts the direction's netem under its qdisc, and it has no netem key (delay, "
                      "loss, reorder, duplicate, corrupt, netem_rate, limit)");
        d->nm.on = false;
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
        cfg_error(sec, "ends", "host %s has more than %d ports", h->name, HOST_MAX_NICS);
        return NULL;
    }
    /* its queues are 64-byte aligned (nic.h); malloc promises 16. The
     * size of a 64-aligned struct is a multiple of 64, as C11 asks. */
    struct nic *n = aligned_alloc(_Alignof(struct nic), sizeof *n);
    if (!n)
        xoom();
    nic_init(n, h, port, &h->nicp);
    h->nics[h->nnics++] = n;
    return n;
}

/* The port's tree: the qdisc key's discipline (under netem when netem is
 * set, as tc's "parent 1:" recipe puts it), mq's children from the
 * host's net.core.default_qdisc; or, with no qdisc key, what Linux
 * attaches by default when net.core.default_qdisc is not pfifo_fast (mq
 * over it on a multiqueue port). NULL leaves the NIC's own per-queue FIFO,
 * which is mq over pfifo_fast. */
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

/* The direction's tree. Returns whether it took the class and filter keys
 * both directions share (a classful qdisc); shared: report those as
 * unused unless taken (the rev direction, when fwd did not). */
static bool egress_qdisc_build(struct sim *s, struct cfg_section *sec, struct link_dir *d, struct nic *n,
                               struct host *h, const char *dir, bool shared)
{
    struct qdisc_args top, pfifo_fast;
    char err[600], key[40], seedname[96];
    struct qdisc_class_spec *cl = NULL;
    struct qdisc_filter_spec *fl = NULL;
    const struct qdisc_args *def = h->default_qdisc;
    qdisc_class_patterns(sec);
    if (!d->qargs && !def) {
        classes_unused(sec, dir, NULL, shared);
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
    snprintf(seedname, sizeof seedname, "%s.qdisc", d->key);
    struct qdisc_dev dev = { .mtu = d->mtu, .hard_header_len = 14, .txqueuelen = n->p.txqueuelen,
                             .num_tx_queues = n->p.num_queues, .rate = d->rate,
                             .seed = rng_derive_seed(s->seed, seedname) };
    d->qd = qdisc_root_new_netem(&top, &dev, &s->q, &nic_qdisc_dev, n, d->netem_leaf ? &d->nopts : NULL, err,
                                 sizeof err);
    free(cl);
    free(fl);
    if (!d->qd) {
        if (!d->qargs) {
            /* the host's default discipline, refused on this port: said
             * at the host's key, once (its other ports keep their FIFOs) */
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
    qdisc_root_register(d->qd, s, h->name, n->name, d->qd_every);
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
    uint64_t sum = 0;
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
            else if (h->default_qdisc && h->nicp.num_queues == 1)
                top = *def;
            else if (h->default_qdisc)
                top = mq;
            else
                continue;        /* the NIC's own FIFOs: the host's estimate has them */
            if (top.ops->mq)
                top.child = def;
            struct qdisc_dev dev = { .mtu = 1500, .hard_header_len = 14, .txqueuelen = h->nicp.txqueuelen,
                                     .num_tx_queues = h->nicp.num_queues };
            uint64_t m = sizeof(struct qdisc_root) + qdisc_mem_estimate(&top, &dev);
            sum += m;
            if (m > *largest) {
                *largest = m;
                if (key)
                    snprintf(largest_key, n, "[link %s] %s", cfg_name(lsec[i]), key);
                else
                    snprintf(largest_key, n, "[host %s] net.core.default_qdisc", h->name);
            }
        }
    return sum;
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
                if (d->nm.on)
                    netem_init(&d->nm, &d->nopts, &s->q, &d->rng, nic_egress_xmit, n[e]);
                shared_taken |= egress_qdisc_build(s, sec, d, n[e], h[e], e ? "rev" : "fwd", e && !shared_taken);
            }
            d->dst = n[!e];
            if (n[!e])
                d->rx_latency = n[!e]->p.rx_latency;
            sim_counterf(s, &d->tx_packets, false, "%s.tx_packets", key);
            static const char *const nc[] = { "netem_loss", "netem_drops", "netem_duplicated", "netem_corrupted",
                                              "netem_reordered", "netem_out_of_order" };
            uint64_t *nv[] = { &d->nm.lost, &d->nm.dropped, &d->nm.duplicated, &d->nm.corrupted, &d->nm.reordered,
                               &d->nm.out_of_order };
            for (int k = 0; k < (d->nm.on ? 6 : 1); k++) {
                sim_counterf(s, nv[k], k < 2, "%s.%s", key, nc[k]);
            }
            if (d->nm.on && d->nopts.ecn) {
                sim_counterf(s, &d->nm.ecn_marked, false, "%s.netem_ecn_marked", key);
                s->ecn_used = true;
            }
        }
    }
}
