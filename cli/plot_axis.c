/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot_axis.c - the x axis of `netsim plot`: a swept axis's values as the
 * scenario wrote them ("256K", "50ms", "100mbit", "16"), the numbers they
 * stand for, their unit, and whether the axis is logarithmic.
 *
 * The unit comes from the values' suffixes (sim/units.h: sizes are bytes,
 * rates bit/s, times seconds); plain numbers take the unit of the key the
 * axis sets, as `netsim keys` knows it (cli/keys.h): the key is the
 * parameter every run recorded with the axis's value.
 *
 * A log scale is the default when the values are all powers of two or all
 * powers of ten, or span more than a decade: a buffer swept as 25, 50,
 * 100, ... 800 packets on a linear axis crowds its first labels into one
 * another ("2550 100"), and each doubling deserves the same width.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/xalloc.h"
#include "sim/units.h"
#include "cli/keys.h"
#include "cli/plot.h"

enum vkind { VK_TEXT, VK_NUM, VK_MIN_OR_MIB, VK_TIME, VK_SIZE, VK_RATE, VK_PCT };

/* A plain decimal number, the whole of s: digits, sign, point, exponent
 * (strtod alone would take "inf", "nan" and hex). */
static int plain_number(const char *s, double *v)
{
    char *end;

    if (!*s || strspn(s, "0123456789.eE+-") != strlen(s))
        return 0;
    *v = strtod(s, &end);
    return *end == '\0' && isfinite(*v);
}

/* The kind and number of one value; VK_TEXT when it is not a number. */
static enum vkind parse_value(const char *s, double *v)
{
    const char *why;
    simtime_t t;
    uint64_t u;
    size_t len;

    if (!s)
        return VK_TEXT;
    len = strlen(s);
    if (plain_number(s, v))
        return VK_NUM;
    if (len > 1 && s[len - 1] == '%') {
        char *num = xstrdup(s);
        num[len - 1] = '\0';
        int ok = plain_number(num, v);
        free(num);
        return ok ? VK_PCT : VK_TEXT;
    }
    /* "1m" is a minute to parse_time and a MiB to parse_size: which one
     * is settled by the axis's other values */
    if (len > 1 && s[len - 1] == 'm') {
        char *num = xstrdup(s);
        num[len - 1] = '\0';
        int ok = plain_number(num, v);
        free(num);
        if (ok)
            return VK_MIN_OR_MIB;
    }
    if (parse_time(s, &t, &why) == 0) {
        *v = time_to_s(t);
        return VK_TIME;
    }
    if (parse_size(s, &u, &why) == 0) {
        *v = (double)u;
        return VK_SIZE;
    }
    if (parse_rate(s, &u, &why) == 0) {
        *v = (double)u;
        return VK_RATE;
    }
    return VK_TEXT;
}

/* The one kind of unit of values vals[0..n-1]: VK_NUM for plain numbers
 * only, VK_TEXT when a value is not a number or two units mix. */
static enum vkind values_kind(char *const *vals, size_t n)
{
    enum vkind kind = VK_NUM;
    int ambiguous = 0;

    for (size_t i = 0; i < n; i++) {
        double v;
        enum vkind k = parse_value(vals[i], &v);
        if (k == VK_TEXT)
            return VK_TEXT;
        if (k == VK_MIN_OR_MIB)
            ambiguous = 1;
        else if (k != VK_NUM && kind != VK_NUM && k != kind)
            return VK_TEXT;
        else if (k != VK_NUM)
            kind = k;
    }
    if (ambiguous && kind != VK_NUM && kind != VK_TIME && kind != VK_SIZE)
        return VK_TEXT;
    return ambiguous && kind == VK_NUM ? VK_SIZE : kind;
}

/* The distinct values of axis ax, in the order of the runs that first have
 * them; NULL (a run without the axis) as "(none)". */
static char **distinct_values(const struct rdb *d, int ax, size_t *n)
{
    char **vals = NULL;
    size_t cap = 0;

    *n = 0;
    for (size_t i = 0; i < d->nruns; i++) {
        const char *v = d->runs[i].vals[ax] ? d->runs[i].vals[ax] : "(none)";
        size_t j;
        for (j = 0; j < *n && strcmp(vals[j], v); j++)
            ;
        if (j < *n)
            continue;
        vals = xgrow(vals, sizeof *vals, *n, &cap, 16);
        vals[(*n)++] = xstrdup(v);
    }
    return vals;
}

int axis_numeric(const struct rdb *d, int ax)
{
    size_t n;
    char **vals = distinct_values(d, ax, &n);
    int numeric = values_kind(vals, n) != VK_TEXT;

    for (size_t i = 0; i < n; i++)
        free(vals[i]);
    free(vals);
    return numeric;
}

/* ---- the unit of a plain number: the key's, from `netsim keys` ---------- */

/* A count's unit where the key's is only "integer" or "text": the last
 * word of its range ("1 to 10000000 packets") or the first of its doc
 * ("packets the pfifo qdisc of each TX queue holds"). */
static const char *count_unit(const char *range, const char *doc)
{
    static const char *const words[] = { "packets", "bytes", "segments" };
    const char *last = range ? strrchr(range, ' ') : NULL;

    last = last ? last + 1 : range;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i]);
        if (last && !strcmp(last, words[i]))
            return words[i];
        if (doc && !strncmp(doc, words[i], n) && (doc[n] == ' ' || doc[n] == '\0'))
            return words[i];
    }
    return NULL;
}

static const char *row_unit(const struct key_row *r)
{
    if (!strcmp(r->unit, "bytes"))
        return "bytes";
    if (!strcmp(r->unit, "bit/s"))
        return "bit/s";
    if (!strcmp(r->unit, "time"))
        return "s";
    return count_unit(r->range, r->doc);
}

/* The row of the reference whose key ends param (as "wan.limit" ends with
 * "limit", "host a.net.core.rmem_max" with "net.core.rmem_max"), the
 * longest such key; NULL if none. */
static const struct key_row *find_row(const struct key_ref *ref, const char *param)
{
    const struct key_group *groups[4] = { &ref->sim, &ref->link, &ref->host, &ref->flow };
    const struct key_row *best = NULL;
    size_t plen = strlen(param), blen = 0;

    for (int g = 0; g < 4 + ref->napps + ref->nvariants; g++) {
        const struct key_group *grp = g < 4 ? groups[g] : g < 4 + ref->napps ? &ref->apps[g - 4]
                                                                            : &ref->variants[g - 4 - ref->napps];
        for (int i = 0; i < grp->n; i++) {
            const struct key_row *r = &grp->rows[i];
            size_t klen = strlen(r->key);
            if (r->pattern || klen <= blen || klen >= plen || param[plen - klen - 1] != '.' ||
                strcmp(param + plen - klen, r->key))
                continue;
            best = r;
            blen = klen;
        }
    }
    return best;
}

/* The unit of the key axis ax sets: the parameters that hold the axis's
 * value in every run that has it. NULL when none is known. */
static const char *key_unit(const struct rdb *d, int ax)
{
    static const char sql[] =
        "WITH a AS (SELECT p.run_id, p.value FROM param p JOIN run r ON r.id = p.run_id"
        "           WHERE r.status = 'complete' AND p.key = ?1),"
        " cand AS (SELECT p.key FROM param p JOIN a ON a.run_id = p.run_id"
        "          WHERE p.run_id = (SELECT min(run_id) FROM a) AND p.value = a.value"
        "          AND substr(p.key, 1, 5) != 'axis.' AND substr(p.key, 1, 6) != 'label.')"
        " SELECT c.key FROM cand c WHERE NOT EXISTS (SELECT 1 FROM a JOIN param p ON p.run_id = a.run_id"
        "  AND p.key = c.key WHERE p.value IS NOT a.value) ORDER BY c.key";
    static char unit[32];
    struct key_ref ref;
    sqlite3_stmt *st;
    const char *found = NULL;
    char *key = xasprintf("axis.%s", d->axes[ax]);

    if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK) {
        free(key);
        return NULL;
    }
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    /* the reference builds small worlds: a few ms, once per plot */
    if (key_ref_build(&ref) == 0) {
        while (!found && sqlite3_step(st) == SQLITE_ROW) {
            const struct key_row *r = find_row(&ref, (const char *)sqlite3_column_text(st, 0));
            const char *u = r ? row_unit(r) : NULL;
            if (u) {
                snprintf(unit, sizeof unit, "%s", u);
                found = unit;
            }
        }
    }
    key_ref_free(&ref);
    sqlite3_finalize(st);
    free(key);
    return found;
}

/* ---- the axis ------------------------------------------------------------- */

/* v is b^k for a whole k, to rounding. */
static int power_of(double v, double b)
{
    double k = round(log(v) / log(b));
    return fabs(pow(b, k) - v) <= 1e-9 * v;
}

/* 2 or 10 when the values want a log scale, else 0. */
static int log_default(const struct plot_xaxis *x)
{
    int pow2 = 1, pow10 = 1;
    double lo = INFINITY, hi = -INFINITY;

    if (!x->numeric || x->n < 2)
        return 0;
    for (size_t i = 0; i < x->n; i++) {
        double v = x->pos[i];
        if (v <= 0)
            return 0;
        pow2 = pow2 && power_of(v, 2);
        pow10 = pow10 && power_of(v, 10);
        lo = fmin(lo, v);
        hi = fmax(hi, v);
    }
    if (pow2 && !pow10)
        return 2;
    return pow10 || hi / lo > 10 ? 10 : 0;
}

static const char *kind_unit(enum vkind k)
{
    switch (k) {
    case VK_TIME: return "s";
    case VK_SIZE: return "bytes";
    case VK_RATE: return "bit/s";
    case VK_PCT: return "%";
    default: return NULL;
    }
}

int axis_read(const struct rdb *d, int ax, int logx, struct plot_xaxis *x)
{
    enum vkind kind;

    memset(x, 0, sizeof *x);
    x->ax = ax;
    x->name = d->axes[ax];
    x->text = distinct_values(d, ax, &x->n);
    x->pos = xcalloc(x->n ? x->n : 1, sizeof *x->pos);
    kind = values_kind(x->text, x->n);
    x->numeric = kind != VK_TEXT;
    for (size_t i = 0; i < x->n; i++) {
        double v = (double)(i + 1);
        if (x->numeric) {
            enum vkind k = parse_value(x->text[i], &v);
            if (k == VK_MIN_OR_MIB)
                v *= kind == VK_TIME ? 60 : 1048576;
        }
        x->pos[i] = v;
    }
    if (x->numeric) {
        /* by value: a sweep may list its values in any order */
        for (size_t i = 1; i < x->n; i++) {
            double p = x->pos[i];
            char *t = x->text[i];
            size_t j = i;
            for (; j > 0 && x->pos[j - 1] > p; j--) {
                x->pos[j] = x->pos[j - 1];
                x->text[j] = x->text[j - 1];
            }
            x->pos[j] = p;
            x->text[j] = t;
        }
        x->unit = kind == VK_NUM ? key_unit(d, ax) : kind_unit(kind);
    }
    if (logx == 0)
        return 0;
    x->log_base = log_default(x);
    if (logx == 1 && !x->log_base) {
        if (!x->numeric) {
            fprintf(stderr, PLOT_PROG ": --logx: axis '%s' is not numeric (its values: %s%s)\n", x->name,
                    x->text[0], x->n > 1 ? ", ..." : "");
            return 2;
        }
        for (size_t i = 0; i < x->n; i++) {
            if (x->pos[i] <= 0) {
                fprintf(stderr, PLOT_PROG ": --logx: axis '%s' has the value %s, which a log scale cannot show\n",
                        x->name, x->text[i]);
                return 2;
            }
        }
        x->log_base = 10;
    }
    return 0;
}

void axis_free(struct plot_xaxis *x)
{
    for (size_t i = 0; i < x->n; i++)
        free(x->text[i]);
    free(x->text);
    free(x->pos);
}
