/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qdisc_parse.c - tc's qdisc words into qdisc_args (qdisc_parse.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "load/netem_parse.h"
#include "load/qdisc_parse.h"
#include "sim/units.h"

const char *qdisc_param_word(const struct qdisc_param *p)
{
    switch (p->type) {
    case QP_COUNT: return "NUMBER";
    case QP_SIZE: return "BYTES";
    case QP_TIME: return "TIME";
    case QP_RATE:
    case QP_RATE32: return "RATE";
    case QP_PROB: return "PROBABILITY";
    case QP_HEX: return "MINOR";
    default: return "";
    }
}

const char *qdisc_kinds(char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; variant_at("qdisc", i) && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s%s", i ? ", " : "", variant_at("qdisc", i)->name);
    return buf;
}

/* A number as tc's parsers start one (strtod: "1e3", "1.5", "0x10"),
 * and its suffix; -1 when there is no number, or it is negative or not a
 * number at all (tc would hand the kernel whatever the conversion gives). */
static int tc_number(const char *s, double *d, const char **suffix)
{
    char *end;
    *d = strtod(s, &end);
    if (end == s || isnan(*d) || *d < 0 || signbit(*d))
        return -1;
    *suffix = end;
    return 0;
}

/* tc's get_size: a bare number is bytes; b, k/kb, m/mb, g/gb (1024) or
 * kbit, mbit, gbit (1024/8) in any case; whole bytes (tc truncates:
 * 1.3k is 1331) in tc's 32 bits */
static int tc_size(const char *s, int64_t *out, const char **why)
{
    static const struct {
        const char *suf;
        double mult;
    } units[] = { { "", 1 }, { "b", 1 }, { "k", 1024 }, { "kb", 1024 }, { "m", 1 << 20 }, { "mb", 1 << 20 },
                  { "g", 1 << 30 }, { "gb", 1 << 30 }, { "kbit", 1024 / 8 }, { "mbit", (1 << 20) / 8 },
                  { "gbit", (1 << 30) / 8 } };
    double d;
    const char *suf;
    *why = "a size such as 1514, 10kb or 1mbit (tc's get_size: k, m, g are 1024; kbit, mbit, gbit 1024/8)";
    if (tc_number(s, &d, &suf))
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcasecmp(suf, units[i].suf)) {
            d *= units[i].mult;
            if (!(d <= 4294967295.0)) {
                *why = "a size of at most 4294967295 bytes (tc's get_size takes 32 bits)";
                return -1;
            }
            *out = (int64_t)d;
            return 0;
        }
    return -1;
}

/* tc's get_time: a bare number is microseconds; s/sec/secs, ms/msec/msecs
 * or us/usec/usecs in any case; whole microseconds (tc truncates) in
 * tc's 32 bits */
static int tc_time(const char *s, int64_t *out, const char **why)
{
    static const struct {
        const char *suf;
        double us;
    } units[] = { { "", 1 },       { "us", 1 },     { "usec", 1 },      { "usecs", 1 },     { "ms", 1e3 },
                  { "msec", 1e3 }, { "msecs", 1e3 }, { "s", 1e6 },      { "sec", 1e6 },     { "secs", 1e6 } };
    double d;
    const char *suf;
    *why = "a time such as 5ms, 100ms or 500us (tc's get_time: a bare number is us)";
    if (tc_number(s, &d, &suf))
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcasecmp(suf, units[i].suf)) {
            d *= units[i].us;
            if (!(d <= 4294967295.0)) {
                *why = "a time of at most 4294967295us, 71.6 minutes (tc's get_time takes 32 bits of us)";
                return -1;
            }
            *out = (int64_t)d * PS_PER_US;
            return 0;
        }
    return -1;
}

/* Rates are below 2^60 bytes per second, so that eight times one still
 * fits a->v's int64_t (a double compared with INT64_MAX / 8 rounds to 2^60) */
#define TC_RATE_BYTES_BELOW 1152921504606846976.0

/* tc's get_rate: a bare number is bit/s; tc's table of bit units (kbit,
 * mbit, gbit, tbit are 1000-based, kibit ... 1024-based) and byte units
 * (bps, kbps ... as bytes per second), in any case. The kernel is given
 * whole bytes per second (bps / 8, truncated); a->v keeps that times 8. */
static int tc_rate(const char *s, int64_t *out, const char **why)
{
    static const struct {
        const char *suf;
        double bits;
    } units[] = { { "", 1 },         { "bit", 1 },       { "kibit", 1024. },    { "kbit", 1e3 },
                  { "mibit", 1048576. }, { "mbit", 1e6 }, { "gibit", 1073741824. }, { "gbit", 1e9 },
                  { "tibit", 1099511627776. }, { "tbit", 1e12 }, { "bps", 8 }, { "kibps", 8 * 1024. },
                  { "kbps", 8e3 }, { "mibps", 8 * 1048576. }, { "mbps", 8e6 }, { "gibps", 8 * 1073741824. },
                  { "gbps", 8e9 }, { "tibps", 8 * 1099511627776. }, { "tbps", 8e12 } };
    double d;
    const char *suf;
    *why = "a rate such as 100mbit, 1gbit or 10MBps (tc's get_rate: a bare number is bit/s)";
    if (tc_number(s, &d, &suf))
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcasecmp(suf, units[i].suf)) {
            double bytes = floor(d * units[i].bits / 8);
            if (!(bytes < TC_RATE_BYTES_BELOW)) {
                *why = "a rate below 2^63 bit/s (9223372036854775808bit)";
                return -1;
            }
            /* 1 to 7 bit/s are 0 bytes/s, which htb and tbf then read as
             * no rate at all (tc refuses it: "rate" is required) */
            if (d > 0 && bytes == 0) {
                *why = "a rate of at least 8bit (tc gives the kernel bytes per second, and 1 to 7 bit/s are 0 of "
                       "them)";
                return -1;
            }
            *out = (int64_t)bytes * 8;
            return 0;
        }
    return -1;
}

/* get_u32(..., 16), for a class minor: hex, "0x" or not, 0 to ffff */
static int tc_hex(const char *s, int64_t *out, const char **why)
{
    char *end;
    *why = "a class minor in hex, 0 to ffff, as tc writes it (default 20 is class 1:20)";
    if (!isxdigit((unsigned char)*s))
        return -1;
    unsigned long long v = strtoull(s, &end, 16);
    if (*end || v > 0xffff)
        return -1;
    *out = (int64_t)v;
    return 0;
}

static int value(const struct qdisc_param *p, const char *w, int64_t *v, double *d, const char **why)
{
    switch (p->type) {
    case QP_COUNT:
        if (parse_int(w, v, why) || *v < 0 || *v > 4294967295LL) {
            *why = "a whole number from 0 to 4294967295";
            return -1;
        }
        return 0;
    case QP_SIZE: return tc_size(w, v, why);
    case QP_TIME: return tc_time(w, v, why);
    case QP_RATE: return tc_rate(w, v, why);
    case QP_RATE32:
        if (tc_rate(w, v, why))
            return -1;
        if (*v / 8 > 4294967295LL) {
            *why = "a rate of at most 34359738360bit (tc's get_rate gives the kernel 32 bits of bytes per second)";
            return -1;
        }
        return 0;
    case QP_HEX: return tc_hex(w, v, why);
    case QP_PROB:
        if (parse_double(w, d, why) || *d < 0 || *d > 1) {
            *why = "a probability from 0 to 1 such as 0.02";
            return -1;
        }
        return 0;
    default:
        *v = 1;
        return 0;
    }
}

/* "limit PACKETS, target TIME, ecn|noecn" */
static void accepted(const struct qdisc_ops *ops, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; ops->params && ops->params[i].name && at < n; i++) {
        const struct qdisc_param *p = &ops->params[i];
        at += (size_t)snprintf(buf + at, n - at, "%s%s%s%s%s%s", i ? ", " : "", p->name, p->type == QP_FLAG ? "" : " ",
                               qdisc_param_word(p), p->neg ? "|" : "", p->neg ? p->neg : "");
    }
    if (!at)
        snprintf(buf, n, "no options");
}

/* The option words left in save, by the table params, into a. */
static int parse_opts(const char *name, const struct qdisc_param *params, char **save, struct qdisc_args *a,
                      char *err, size_t n)
{
    char list[512];
    const char *why = NULL;
    struct qdisc_ops fake = { .name = name, .params = params };
    for (int i = 0; params && params[i].name; i++)
        if (params[i].def && value(&params[i], params[i].def, &a->v[i], &a->p[i], &why)) {
            snprintf(err, n, "%s: default of %s unreadable", name, params[i].name);   /* a table bug */
            return -1;
        }
    char *w;
    while ((w = strtok_r(NULL, " \t", save))) {
        int i = qdisc_param_index(&fake, w);
        bool neg = false;
        for (int k = 0; i < 0 && params && params[k].name; k++)
            if (params[k].neg && !strcmp(params[k].neg, w)) {
                i = k;
                neg = true;
            }
        if (i < 0) {
            accepted(&fake, list, sizeof list);
            snprintf(err, n, "%s: unknown option '%s'; %s takes %s", name, w, name, list);
            return -1;
        }
        const struct qdisc_param *p = &params[i];
        a->given |= 1u << i;
        if (p->type == QP_FLAG) {
            a->v[i] = !neg;
            continue;
        }
        char *val = strtok_r(NULL, " \t", save);
        if (!val) {
            snprintf(err, n, "%s: '%s' needs a value (%s)", name, w, qdisc_param_word(p));
            return -1;
        }
        if (value(p, val, &a->v[i], &a->p[i], &why)) {
            snprintf(err, n, "%s: %s '%s': expected %s", name, w, val, why);
            return -1;
        }
    }
    return 0;
}

int qdisc_parse(const char *text, struct qdisc_args *a, char *err, size_t n)
{
    char buf[1024], list[512];
    if (strlen(text) >= sizeof buf) {
        snprintf(err, n, "a qdisc of at most %zu characters", sizeof buf - 1);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", text);
    memset(a, 0, sizeof *a);
    char *save = NULL, *w = strtok_r(buf, " \t", &save);
    if (!w) {
        snprintf(err, n, "a qdisc such as 'pfifo limit 100' or 'fq_codel' (one of %s)", qdisc_kinds(list, sizeof list));
        return -1;
    }
    const struct qdisc_ops *ops = variant_find("qdisc", w);
    if (!ops) {
        snprintf(err, n, "got qdisc '%s', expected one of %s", w, qdisc_kinds(list, sizeof list));
        return -1;
    }
    a->ops = ops;
    if (ops->netem) {            /* netem's options are a grammar of their own (tc's netem_parse_opt) */
        bool bare = false;
        return netem_words_parse(save ? save : "", &a->netem, &bare, err, n);
    }
    return parse_opts(ops->name, ops->params, &save, a, err, n);
}

/* "1:" is 0 (the qdisc), "1:a" is 0xa: tc's class ids are hex */
static int classid(const char *s, uint32_t *minor)
{
    char *end;
    if (strncmp(s, "1:", 2))
        return -1;
    if (!s[2]) {
        *minor = 0;
        return 0;
    }
    unsigned long v = strtoul(s + 2, &end, 16);
    if (*end || !v || v > 0xffff)
        return -1;
    *minor = (uint32_t)v;
    return 0;
}

int qdisc_parse_class(const struct qdisc_ops *ops, uint32_t minor, const char *text, struct qdisc_class_spec *c,
                      char *err, size_t n)
{
    char buf[1024];
    memset(c, 0, sizeof *c);
    c->minor = minor;
    c->a.ops = ops;
    if (!ops->class_params) {
        snprintf(err, n, "%s is classless: it takes no classes", ops->name);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL, *w = strtok_r(buf, " \t", &save), *p = w ? strtok_r(NULL, " \t", &save) : NULL;
    if (!w || strcmp(w, "parent") || !p || classid(p, &c->parent)) {
        snprintf(err, n, "a class as tc writes it after 'classid 1:%x %s': parent 1: (or 1:MINOR) then its "
                 "options, e.g. 'parent 1:1 rate 600mbit ceil 1gbit'", minor, ops->name);
        return -1;
    }
    char name[32];
    snprintf(name, sizeof name, "%s class", ops->name);
    return parse_opts(name, ops->class_params, &save, &c->a, err, n);
}

/* A u32 match's value and optional mask: "5201" or "5201 0xffff" (tc
 * requires the mask; netsim takes it as all ones when left out). A word
 * that starts with a digit after the value is its mask. */
static int match_value(char **w, int nw, int *k, unsigned long max, unsigned long *v, unsigned long *mask)
{
    char *end;
    if (*k >= nw)
        return -1;
    *v = strtoul(w[*k], &end, 0);
    if (*end || *v > max || !isdigit((unsigned char)w[*k][0]))
        return -1;
    (*k)++;
    *mask = max;
    if (*k < nw && isdigit((unsigned char)w[*k][0])) {
        *mask = strtoul(w[*k], &end, 0);
        if (*end || *mask > max)
            return -1;
        (*k)++;
    }
    return 0;
}

int qdisc_parse_filter(const char *text, struct qdisc_filter_spec *f, int (*host_id)(void *ctx, const char *name),
                       void *ctx, char *err, size_t n)
{
    static const char *const expect =
        "a u32 filter as tc writes it: match ip dst|src HOST, match ip dport|sport PORT [MASK], match ip protocol "
        "tcp|udp|icmp|N [MASK] ..., then flowid 1:MINOR";
    char buf[1024], *w[256];
    int nw = 0;
    memset(f, 0, sizeof *f);
    if (strlen(text) >= sizeof buf)
        goto bad;
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (nw == (int)(sizeof w / sizeof w[0]))
            goto bad;
        w[nw++] = t;
    }
    bool flow = false;
    for (int k = 0; k < nw;) {
        if (!strcmp(w[k], "flowid") || !strcmp(w[k], "classid")) {
            if (k + 1 >= nw || classid(w[k + 1], &f->flowid) || !f->flowid)
                goto bad;
            flow = true;
            k += 2;
            continue;
        }
        if (strcmp(w[k], "match") || k + 3 >= nw || (strcmp(w[k + 1], "ip") && strcmp(w[k + 1], "ip6")))
            goto bad;
        const char *field = w[k + 2];
        k += 3;
        unsigned long v, mask;
        if (!strcmp(field, "dst") || !strcmp(field, "src")) {
            char host[64];
            snprintf(host, sizeof host, "%s", w[k++]);
            char *slash = strchr(host, '/');
            if (slash)
                *slash = 0;      /* a prefix length: netsim's hosts are single addresses */
            int id = host_id(ctx, host);
            if (id < 0) {
                snprintf(err, n, "filter: no host '%s' (a host name or its 10.0.0.N address)", host);
                return -1;
            }
            if (field[0] == 'd') {
                f->dst_set = true;
                f->dst = (uint32_t)id;
            } else {
                f->src_set = true;
                f->src = (uint32_t)id;
            }
        } else if (!strcmp(field, "dport") || !strcmp(field, "sport")) {
            if (match_value(w, nw, &k, 0xffff, &v, &mask))
                goto bad;
            if (field[0] == 'd') {
                f->dport = (uint16_t)v;
                f->dport_mask = (uint16_t)mask;
            } else {
                f->sport = (uint16_t)v;
                f->sport_mask = (uint16_t)mask;
            }
        } else if (!strcmp(field, "protocol")) {
            static const struct {
                const char *name;
                uint8_t proto;
            } names[] = { { "tcp", IPPROTO_TCP_ }, { "udp", IPPROTO_UDP_ }, { "icmp", IPPROTO_ICMP_ } };
            char num[8];
            for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
                if (!strcmp(w[k], names[i].name)) {
                    snprintf(num, sizeof num, "%u", names[i].proto);
                    w[k] = num;
                }
            if (match_value(w, nw, &k, 0xff, &v, &mask))
                goto bad;
            f->proto = (uint8_t)v;
            f->proto_mask = (uint8_t)mask;
        } else {
            goto bad;
        }
    }
    if (!flow)
        goto bad;
    return 0;
bad:
    snprintf(err, n, "got filter '%s', expected %s", text, expect);
    return -1;
}
