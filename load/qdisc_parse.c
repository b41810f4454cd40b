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
        if (parse_rate(w, &u, why) || u > (uint64_t)INT64_MAX)
            return -1;
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
    const char *why = NULL;
    for (int i = 0; ops->params && ops->params[i].name; i++)
        if (ops->params[i].def && value(&ops->params[i], ops->params[i].def, &a->v[i], &a->p[i], &why)) {
            snprintf(err, n, "%s: default of %s unreadable", ops->name, ops->params[i].name);   /* a table bug */
            return -1;
        }
    while ((w = strtok_r(NULL, " \t", &save))) {
        int i = qdisc_param_index(ops, w);
        bool neg = false;
        for (int k = 0; i < 0 && ops->params && ops->params[k].name; k++)
            if (ops->params[k].neg && !strcmp(ops->params[k].neg, w)) {
                i = k;
                neg = true;
            }
        if (i < 0) {
            accepted(ops, list, sizeof list);
            snprintf(err, n, "%s: unknown option '%s'; %s takes %s", ops->name, w, ops->name, list);
            return -1;
        }
        const struct qdisc_param *p = &ops->params[i];
        a->given |= 1u << i;
        if (p->type == QP_FLAG) {
            a->v[i] = !neg;
            continue;
        }
        char *val = strtok_r(NULL, " \t", &save);
        if (!val) {
            snprintf(err, n, "%s: '%s' needs a value (%s)", ops->name, w, qdisc_param_word(p));
            return -1;
        }
        if (value(p, val, &a->v[i], &a->p[i], &why)) {
            snprintf(err, n, "%s: %s '%s': expected %s", ops->name, w, val, why);
            return -1;
        }
    }
    return 0;
}
