/*
 * qdisc_parse.c - tc's qdisc words into qdisc_args (qdisc_parse.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "load/qdisc_parse.h"
#include "load/units.h"

const char *qdisc_param_word(const struct qdisc_param *p)
{
    switch (p->type) {
    case QP_COUNT: return "NUMBER";
    case QP_SIZE: return "BYTES";
    case QP_TIME: return "TIME";
    case QP_RATE: return "RATE";
    case QP_PROB: return "PROBABILITY";
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

/* tc's get_size: k/kb, m/mb, g/gb are 1024-based, kbit/mbit/gbit the
 * same divided by 8, a bare number is bytes */
static int tc_size(const char *s, int64_t *out, const char **why)
{
    static const struct {
        const char *suf;
        double mult;
    } bits[] = { { "kbit", 1024.0 / 8 }, { "mbit", 1024.0 * 1024 / 8 }, { "gbit", 1024.0 * 1024 * 1024 / 8 } };
    size_t len = strlen(s);
    for (size_t i = 0; i < 3; i++) {
        size_t k = strlen(bits[i].suf);
        if (len > k && !strcasecmp(s + len - k, bits[i].suf)) {
            char num[64];
            double d;
            snprintf(num, sizeof num, "%.*s", (int)(len - k), s);
            if (parse_double(num, &d, why) || d < 0 || d * bits[i].mult > 4294967295.0) {
                *why = "a size such as 1514, 10kb or 1mbit (tc's units)";
                return -1;
            }
            *out = (int64_t)(d * bits[i].mult);
            return 0;
        }
    }
    uint64_t v;
    if (parse_size(s, &v, why) || v > 4294967295ULL) {
        *why = "a size such as 1514, 10kb or 1mb (tc's units: k and m are 1024)";
        return -1;
    }
    *out = (int64_t)v;
    return 0;
}

/* tc's get_time: s/sec/secs, ms/msec/msecs, us/usec/usecs; bare is us */
static int tc_time(const char *s, int64_t *out, const char **why)
{
    char t[64];
    snprintf(t, sizeof t, "%s", s);
    size_t len = strlen(t);
    static const char *const longs[][2] = { { "msecs", "ms" }, { "msec", "ms" }, { "usecs", "us" }, { "usec", "us" },
                                            { "secs", "s" }, { "sec", "s" } };
    for (size_t i = 0; i < 6; i++) {
        size_t k = strlen(longs[i][0]);
        if (len > k && !strcmp(t + len - k, longs[i][0])) {
            strcpy(t + len - k, longs[i][1]);
            break;
        }
    }
    double d;
    simtime_t v;
    if (!parse_double(t, &d, why)) {
        if (d < 0 || d > 4294967295.0)
            goto bad;
        *out = (int64_t)(d * PS_PER_US + 0.5);
        return 0;
    }
    if (parse_time(t, &v, why) || v > 4294967295LL * PS_PER_US)
        goto bad;
    *out = v;
    return 0;
bad:
    *why = "a time such as 5ms, 100ms or 500us (a bare number is us, as tc reads it)";
    return -1;
}

static int value(const struct qdisc_param *p, const char *w, int64_t *v, double *d, const char **why)
{
    uint64_t u;
    switch (p->type) {
    case QP_COUNT:
        if (parse_int(w, v, why) || *v < 0 || *v > 4294967295LL) {
            *why = "a whole number from 0 to 4294967295";
            return -1;
        }
        return 0;
    case QP_SIZE: return tc_size(w, v, why);
    case QP_TIME: return tc_time(w, v, why);
    case QP_RATE:
        if (parse_rate(w, &u, why))
            return -1;
        /* tc hands the kernel bytes per second (get_rate's bps / 8):
         * 1 to 7 bit/s are 0 of them, which htb and tbf then read as no
         * rate at all (tc refuses it: "rate" is required) */
        if (u > 0 && u < 8) {
            *why = "a rate of at least 8bit (tc gives the kernel bytes per second, and 1 to 7 bit/s are 0 of them)";
            return -1;
        }
        if (u > (uint64_t)INT64_MAX) {
            *why = "a rate of at most 9223372036854775807bit";
            return -1;
        }
        *v = (int64_t)u;
        return 0;
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

int qdisc_parse_filter(const char *text, struct qdisc_filter_spec *f, int (*host_id)(void *ctx, const char *name),
                       void *ctx, char *err, size_t n)
{
    static const char *const expect =
        "a u32 filter as tc writes it: match ip dst|src HOST, match ip dport|sport PORT [MASK], match ip protocol "
        "tcp|udp|N ..., then flowid 1:MINOR";
    char buf[1024];
    memset(f, 0, sizeof *f);
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    bool flow = false;
    for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (!strcmp(w, "flowid") || !strcmp(w, "classid")) {
            char *v = strtok_r(NULL, " \t", &save);
            if (!v || classid(v, &f->flowid) || !f->flowid)
                goto bad;
            flow = true;
            continue;
        }
        char *ip = strtok_r(NULL, " \t", &save), *field = strtok_r(NULL, " \t", &save);
        char *v = strtok_r(NULL, " \t", &save);
        if (strcmp(w, "match") || !ip || (strcmp(ip, "ip") && strcmp(ip, "ip6")) || !field || !v)
            goto bad;
        if (!strcmp(field, "dst") || !strcmp(field, "src")) {
            char host[64];
            snprintf(host, sizeof host, "%s", v);
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
            char *end;
            unsigned long port = strtoul(v, &end, 0), mask = 0xffff;
            if (*end || port > 0xffff)
                goto bad;
            /* an optional mask follows: peek the next word */
            char *save2 = save, *m = strtok_r(NULL, " \t", &save2);
            if (m && (m[0] >= '0' && m[0] <= '9')) {
                mask = strtoul(m, &end, 0);
                if (*end || mask > 0xffff)
                    goto bad;
                save = save2;
            }
            if (field[0] == 'd') {
                f->dport = (uint16_t)port;
                f->dport_mask = (uint16_t)mask;
            } else {
                f->sport = (uint16_t)port;
                f->sport_mask = (uint16_t)mask;
            }
        } else if (!strcmp(field, "protocol")) {
            if (!strcmp(v, "tcp"))
                f->proto = IPPROTO_TCP_;
            else if (!strcmp(v, "udp"))
                f->proto = IPPROTO_UDP_;
            else if (!strcmp(v, "icmp"))
                f->proto = IPPROTO_ICMP_;
            else {
                char *end;
                unsigned long pr = strtoul(v, &end, 0);
                if (*end || !pr || pr > 255)
                    goto bad;
                f->proto = (uint8_t)pr;
            }
            char *save2 = save, *m = strtok_r(NULL, " \t", &save2);
            if (m && m[0] == '0')   /* tc's mask 0xff */
                save = save2;
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
