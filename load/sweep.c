/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep.c - expansion of ${...} sweep axes into numbered runs (contract in
 * sweep.h).
 *
 * Everything a run needs (label, params, base seed) is computed once per
 * combination in sweep_expand(), so the accessors are O(1) and return
 * strings that live as long as the sweep. That costs memory linear in the
 * number of combinations (a few dozen bytes each), which is why a sweep is
 * capped at SWEEP_MAX_RUNS; a sweep of that size would run for weeks
 * anyway.
 */
#include "load/sweep.h"
#include "sim/config.h"
#include "load/load.h"
#include "sim/rng.h"
#include "sim/units.h"
#include "sim/xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sweep_axis {
    char *kind, *sname, *key;   /* where the axis is: [kind sname] key */
    struct cfg_section *sec;    /* in the expanded cfg; only during sweep_expand */
    char *name;                 /* axis name */
    char *lock_name;            /* "! name", or NULL */
    int named;                  /* name given with ${name=...} */
    char **values;
    int nvalues;
    size_t capvalues;
    int lock;                   /* root axis it moves with, or -1 */
    int folded;                 /* in lockstep with the same values as its root: in no label, no axis.NAME */
    char *param_key;            /* "axis.NAME" */
};

/* Combinations are not stored: a run's values, label and seed are worked
 * out when asked, so a million-run sweep costs what one run does. The
 * answers live in scratch buffers until the next call of the same kind. */
struct sweep {
    struct sweep_axis *axes;
    int naxes;
    int ncomb, repeat;
    char *seed_text;            /* [sim] seed as written (when not an axis) */
    int *idx;                   /* scratch: each axis's value index */
    char *label;                /* scratch: the last sweep_label() */
    size_t label_cap;
    const char **params;        /* scratch: 2 * naxes + 1 pointers */
};

/* ---- parsing one value ------------------------------------------------- */

static char *dup_trim(const char *b, const char *e)
{
    while (b < e && isspace((unsigned char)*b))
        b++;
    while (e > b && isspace((unsigned char)e[-1]))
        e--;
    return xstrndup(b, (size_t)(e - b));
}

/* Axis names use the characters of keys: letters, digits, '_', '-', '.'. */
static int valid_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
            return 0;
    return 1;
}

static const char *sec_sep(const char *sname)
{
    return *sname ? " " : "";
}

/* The braces inside an axis are a value's own (a template's range,
 * s{1..16}): each closed, none closing the axis early. */
static int braces_balanced(const char *b, const char *e)
{
    int depth = 0;
    for (; b < e; b++)
        if (*b == '{')
            depth++;
        else if (*b == '}' && --depth < 0)
            return 0;
    return depth == 0;
}

/*
 * Parses the value v of a->sec/a->key into a. Returns 0, or -1 with the
 * error recorded in the cfg. "${ name = a, b ! other }": the lockstep part
 * is after the last '!', the name before a '=' that comes before the first
 * ','.
 */
static int axis_parse(struct sweep_axis *a, const char *v)
{
    size_t len = strlen(v);
    const char *in, *end, *bang, *eq, *comma;

    if (strncmp(v, "${", 2) || len < 3 || v[len - 1] != '}' || strstr(v + 2, "${") ||
        !braces_balanced(v + 2, v + len - 1)) {
        cfg_error(a->sec, a->key, "'%s': a sweep axis must be the whole value, as in ${a, b}", v);
        return -1;
    }
    in = v + 2;
    end = v + len - 1;
    bang = memrchr(in, '!', (size_t)(end - in));
    if (bang) {
        a->lock_name = dup_trim(bang + 1, end);
        if (!valid_name(a->lock_name)) {
            cfg_error(a->sec, a->key, "'%s': '!' must be followed by the name of an axis", v);
            return -1;
        }
        end = bang;
    }
    eq = memchr(in, '=', (size_t)(end - in));
    comma = memchr(in, ',', (size_t)(end - in));
    if (eq && (!comma || eq < comma)) {
        a->name = dup_trim(in, eq);
        if (!valid_name(a->name)) {
            cfg_error(a->sec, a->key, "'%s': bad axis name '%s' (letters, digits, '_', '-', '.')", v, a->name);
            return -1;
        }
        a->named = 1;
        in = eq + 1;
    }
    char *all = dup_trim(in, end);
    int empty = !*all;
    free(all);
    if (empty) {
        cfg_error(a->sec, a->key, "'%s': a sweep axis needs at least one value", v);
        return -1;
    }
    for (const char *p = in;;) {
        const char *q = memchr(p, ',', (size_t)(end - p));
        const char *stop = q ? q : end;
        char *val = dup_trim(p, stop);
        a->values = xgrow(a->values, sizeof *a->values, (size_t)a->nvalues, &a->capvalues, 4);
        a->values[a->nvalues++] = val;
        if (!*val) {
            cfg_error(a->sec, a->key, "'%s': empty value in a sweep axis", v);
            return -1;
        }
        if (!q)
            break;
        p = q + 1;
    }
    return 0;
}

/* ---- building the sweep ------------------------------------------------ */

static void axis_free(struct sweep_axis *a)
{
    free(a->kind);
    free(a->sname);
    free(a->key);
    free(a->name);
    free(a->lock_name);
    for (int i = 0; i < a->nvalues; i++)
        free(a->values[i]);
    free(a->values);
    free(a->param_key);
}

void sweep_free(struct sweep *sw)
{
    if (!sw)
        return;
    for (int i = 0; i < sw->naxes; i++)
        axis_free(&sw->axes[i]);
    free(sw->axes);
    free(sw->seed_text);
    free(sw->idx);
    free(sw->label);
    free(sw->params);
    free(sw);
}

static int find_axis(const struct sweep *sw, const char *name, int upto)
{
    for (int i = 0; i < upto; i++)
        if (sw->axes[i].name && !strcmp(sw->axes[i].name, name))
            return i;
    return -1;
}

/* Does an axis other than `except` have this name? */
static int name_taken(const struct sweep *sw, const char *name, int except)
{
    for (int i = 0; i < sw->naxes; i++)
        if (i != except && sw->axes[i].name && !strcmp(sw->axes[i].name, name))
            return 1;
    return 0;
}

static char *fmt_alloc(const char *a, const char *b, const char *c)
{
    return xasprintf("%s%s%s", a, b, c);
}

/* Names: explicit ones first (duplicates are errors), then each unnamed
 * axis gets its key, or "section.key" when the key is taken. */
static int assign_names(struct sweep *sw, const char *v_of[])
{
    int bad = 0;
    for (int i = 0; i < sw->naxes; i++) {
        struct sweep_axis *a = &sw->axes[i];
        if (!a->named)
            continue;
        int j = find_axis(sw, a->name, i);
        if (j >= 0) {
            struct sweep_axis *b = &sw->axes[j];
            cfg_error(a->sec, a->key, "'%s': axis name '%s' is already used by [%s%s%s] %s", v_of[i], a->name,
                      b->kind, sec_sep(b->sname), b->sname, b->key);
            bad = 1;
        }
    }
    for (int i = 0; i < sw->naxes; i++) {
        struct sweep_axis *a = &sw->axes[i];
        if (a->named)
            continue;
        a->name = xstrdup(a->key);
        if (!name_taken(sw, a->name, i))
            continue;
        free(a->name);
        a->name = fmt_alloc(*a->sname ? a->sname : a->kind, ".", a->key);
        if (name_taken(sw, a->name, i)) {
            cfg_error(a->sec, a->key, "'%s': axis name '%s' is ambiguous; name the axis, as in ${name=a, b}",
                      v_of[i], a->name);
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

static void names_list(const struct sweep *sw, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < sw->naxes && len < n; i++) {
        int k = snprintf(buf + len, n - len, "%s%s", i ? ", " : "", sw->axes[i].name);
        if (k < 0)
            break;
        len += (size_t)k;
    }
}

/* Lockstep: each "! name" must name an axis with as many values; chains
 * are followed to their root. */
static int resolve_locks(struct sweep *sw, const char *v_of[])
{
    int bad = 0;
    for (int i = 0; i < sw->naxes; i++) {
        struct sweep_axis *a = &sw->axes[i];
        a->lock = -1;
        if (!a->lock_name)
            continue;
        int t = find_axis(sw, a->lock_name, sw->naxes);
        if (t < 0) {
            char names[512];
            names_list(sw, names, sizeof names);
            cfg_error(a->sec, a->key, "'%s': no axis named '%s'; axes: %s", v_of[i], a->lock_name, names);
            bad = 1;
            continue;
        }
        if (sw->axes[t].nvalues != a->nvalues) {
            cfg_error(a->sec, a->key, "'%s': %d value%s in lockstep with axis '%s', which has %d", v_of[i],
                      a->nvalues, a->nvalues == 1 ? "" : "s", a->lock_name, sw->axes[t].nvalues);
            bad = 1;
            continue;
        }
        int root = t, steps = 0;
        while (sw->axes[root].lock_name && steps <= sw->naxes) {
            int next = find_axis(sw, sw->axes[root].lock_name, sw->naxes);
            if (next < 0)
                break;               /* reported for that axis */
            root = next;
            steps++;
        }
        if (steps > sw->naxes || root == i) {
            cfg_error(a->sec, a->key, "'%s': lockstep cycle through axis '%s'", v_of[i], a->lock_name);
            bad = 1;
            continue;
        }
        a->lock = root;
    }
    return bad ? -1 : 0;
}

/* The values of a root axis and the axes in lockstep with it, index by
 * index, joined: two equal tuples are two runs with one label. */
struct tuple {
    char *text;
    int index;
};

static int tuple_cmp(const void *a, const void *b)
{
    const struct tuple *x = a, *y = b;
    int c = strcmp(x->text, y->text);
    return c ? c : x->index - y->index;
}

/* A combination given twice (${10mbit, 10mbit, 20mbit}) would be the same
 * run under two numbers, recorded once: refused here, before anything
 * runs, naming the value and where it repeats. */
static int refuse_repeats(struct sweep *sw, const char *v_of[])
{
    int bad = 0;
    for (int r = 0; r < sw->naxes; r++) {
        struct sweep_axis *a = &sw->axes[r];
        if (a->lock >= 0)
            continue;
        struct tuple *t = xcalloc((size_t)a->nvalues, sizeof *t);
        for (int i = 0; i < a->nvalues; i++) {
            size_t n = 1;
            for (int k = 0; k < sw->naxes; k++)
                if (k == r || sw->axes[k].lock == r)
                    n += strlen(sw->axes[k].values[i]) + 1;
            char *p = t[i].text = xmalloc(n);
            for (int k = 0; k < sw->naxes; k++)
                if (k == r || sw->axes[k].lock == r)
                    p += sprintf(p, "%s\x1f", sw->axes[k].values[i]);
            *p = 0;
            t[i].index = i;
        }
        qsort(t, (size_t)a->nvalues, sizeof *t, tuple_cmp);
        for (int i = 1; i < a->nvalues && !bad; i++)
            if (!strcmp(t[i].text, t[i - 1].text)) {
                cfg_error(a->sec, a->key, "'%s': value %d repeats value %d ('%s'%s): the two would be one run; give "
                          "each combination once", v_of[r], t[i].index + 1, t[i - 1].index + 1,
                          a->values[t[i].index], strchr(t[i].text, '\x1f')[1] ? " with its lockstep values" : "");
                bad = 1;
            }
        for (int i = 0; i < a->nvalues; i++)
            free(t[i].text);
        free(t);
    }
    return bad ? -1 : 0;
}

/* A key's raw value in [sim], or def. */
static const char *sim_value(struct cfg *c, const char *key, const char *def)
{
    struct cfg_section *s = cfg_find(c, "sim", NULL);
    for (int i = 0; s && i < cfg_key_count(s); i++) {
        const char *k, *v;
        cfg_key_at(s, i, &k, &v, NULL);
        if (!strcmp(k, key))
            return v;
    }
    return def;
}

/* The value index of every axis in combination c: the last axis of its
 * own varies fastest; a lockstep axis takes its root's index. */
static void comb_indices(const struct sweep *sw, int c)
{
    for (int i = sw->naxes - 1; i >= 0; i--) {
        if (sw->axes[i].lock >= 0)
            continue;
        sw->idx[i] = c % sw->axes[i].nvalues;
        c /= sw->axes[i].nvalues;
    }
    for (int i = 0; i < sw->naxes; i++)
        if (sw->axes[i].lock >= 0)
            sw->idx[i] = sw->idx[sw->axes[i].lock];
}

static const char *axis_value(const struct sweep *sw, int i)
{
    return sw->axes[i].values[sw->idx[i]];
}

struct sweep *sweep_expand(struct cfg *c)
{
    struct sweep *sw = xcalloc(1, sizeof *sw);
    int bad = 0;
    size_t cap = 0, vcap = 0;
    const char **v_of = NULL;   /* the raw value of each axis, for messages */
    int errors0 = cfg_errors(c);

    for (int i = 0; i < cfg_section_count(c); i++) {
        struct cfg_section *s = cfg_section_at(c, i);
        for (int j = 0; j < cfg_key_count(s); j++) {
            const char *k, *v;
            cfg_key_at(s, j, &k, &v, NULL);
            if (!strstr(v, "${"))
                continue;
            sw->axes = xgrow(sw->axes, sizeof *sw->axes, (size_t)sw->naxes, &cap, 8);
            v_of = xgrow(v_of, sizeof *v_of, (size_t)sw->naxes, &vcap, 8);
            struct sweep_axis *a = &sw->axes[sw->naxes];
            memset(a, 0, sizeof *a);
            v_of[sw->naxes++] = v;
            a->sec = s;
            a->kind = xstrdup(cfg_kind(s));
            a->sname = xstrdup(cfg_name(s));
            a->key = xstrdup(k);
            if (!strcmp(a->kind, "sim") && !*a->sname && (!strcmp(k, "repeat") || !strcmp(k, "name"))) {
                cfg_error(s, k, "'%s': %s cannot be a sweep axis", v, k);
                bad = 1;
                continue;
            }
            if (axis_parse(a, v))
                bad = 1;
        }
    }
    if (cfg_errors(c) > errors0 || bad)
        goto fail;
    if (assign_names(sw, v_of) || resolve_locks(sw, v_of) || refuse_repeats(sw, v_of))
        goto fail;
    for (int i = 0; i < sw->naxes; i++) {
        struct sweep_axis *a = &sw->axes[i];
        a->param_key = fmt_alloc("axis.", a->name, "");
        /* a template's copies of one axis ([host s{1..64}] tcp.cc = ${... ! cc})
         * say nothing their root does not: one column, not 64 */
        a->folded = a->lock >= 0;
        for (int k = 0; a->folded && k < a->nvalues; k++)
            a->folded = !strcmp(a->values[k], sw->axes[a->lock].values[k]);
    }

    int64_t rep = 1;
    const char *why;
    if (parse_int(sim_value(c, "repeat", "1"), &rep, &why) || rep < 1 || rep > 1000000)
        rep = 1;                 /* reported when the run is built */
    sw->repeat = (int)rep;
    /* counted in floating point, so that no product can overflow before
     * the limit is checked */
    double n = 1;
    for (int i = 0; i < sw->naxes; i++)
        if (sw->axes[i].lock < 0)
            n *= sw->axes[i].nvalues;
    if (n * (double)rep > SWEEP_MAX_RUNS) {
        cfg_error_global(c, "%s: the sweep has %.4g runs (%.4g combinations x repeat %lld); at most %d runs",
                         cfg_file(c), n * (double)rep, n, (long long)rep, SWEEP_MAX_RUNS);
        goto fail;
    }
    sw->ncomb = (int)n;
    sw->seed_text = xstrdup(sim_value(c, "seed", "1"));
    sw->idx = xcalloc((size_t)sw->naxes + 1, sizeof *sw->idx);
    sw->params = xcalloc(2 * (size_t)sw->naxes + 1, sizeof *sw->params);
    for (int i = 0; i < sw->naxes; i++)
        sw->axes[i].sec = NULL;
    free(v_of);
    return sw;

fail:
    free(v_of);
    sweep_free(sw);
    return NULL;
}

int sweep_pick(struct sweep *sw, const char *name, const char *value, char *err, size_t n)
{
    int r = find_axis(sw, name, sw->naxes);
    if (r < 0 || sw->axes[r].lock >= 0) {
        size_t used = (size_t)snprintf(err, n, "--set %s=%s: %s; the axes to pick from:", name, value,
                                       r < 0 ? "no axis of that name" : "it moves in lockstep: pick its root");
        for (int i = 0, first = 1; i < sw->naxes && used < n; i++)
            if (sw->axes[i].lock < 0) {
                used += (size_t)snprintf(err + used, n - used, "%s %s", first ? "" : ",", sw->axes[i].name);
                first = 0;
            }
        return -1;
    }
    struct sweep_axis *a = &sw->axes[r];
    int k = 0;
    while (k < a->nvalues && strcmp(a->values[k], value))
        k++;
    if (k == a->nvalues) {
        size_t used = (size_t)snprintf(err, n, "--set %s=%s: not one of the axis's values:", name, value);
        for (int i = 0; i < a->nvalues && used < n; i++)
            used += (size_t)snprintf(err + used, n - used, "%s %s", i ? "," : "", a->values[i]);
        return -1;
    }
    /* the root and its lockstep copies keep the value at place k */
    for (int i = 0; i < sw->naxes; i++) {
        struct sweep_axis *b = &sw->axes[i];
        if (i != r && b->lock != r)
            continue;
        char *keep = b->values[k];
        for (int j = 0; j < b->nvalues; j++)
            if (j != k)
                free(b->values[j]);
        b->values[0] = keep;
        b->nvalues = 1;
    }
    int comb = 1;
    for (int i = 0; i < sw->naxes; i++)
        if (sw->axes[i].lock < 0)
            comb *= sw->axes[i].nvalues;
    sw->ncomb = comb;
    return 0;
}

/* ---- accessors ---------------------------------------------------------- */

int sweep_count(const struct sweep *sw) { return sw->ncomb * sw->repeat; }
int sweep_combinations(const struct sweep *sw) { return sw->ncomb; }
int sweep_repeat(const struct sweep *sw) { return sw->repeat; }
int sweep_axis_count(const struct sweep *sw) { return sw->naxes; }
const char *sweep_axis_name(const struct sweep *sw, int i) { return sw->axes[i].name; }
int sweep_axis_values(const struct sweep *sw, int i) { return sw->axes[i].nvalues; }
int sweep_axis_lockstep(const struct sweep *sw, int i) { return sw->axes[i].lock; }

int sweep_combination(const struct sweep *sw, int run)
{
    return (run - 1) / sw->repeat;
}

int sweep_rep(const struct sweep *sw, int run)
{
    return (run - 1) % sw->repeat;
}

uint64_t sweep_seed(const struct sweep *sw, int run)
{
    comb_indices(sw, sweep_combination(sw, run));
    const char *seed = sw->seed_text;
    for (int i = 0; i < sw->naxes; i++) {
        const struct sweep_axis *a = &sw->axes[i];
        if (!strcmp(a->kind, "sim") && !*a->sname && !strcmp(a->key, "seed"))
            seed = axis_value(sw, i);
    }
    /* a bad seed is reported when the run is built */
    int64_t s = 1;
    const char *why;
    if (parse_int(seed, &s, &why) || s < 0)
        s = 1;
    return rng_rep_seed((uint64_t)s, sweep_rep(sw, run));
}

const char *sweep_label(const struct sweep *sw, int run)
{
    struct sweep *m = (struct sweep *)sw;   /* the scratch buffer is not the sweep's state */
    comb_indices(sw, sweep_combination(sw, run));
    size_t len = 1;
    for (int i = 0; i < sw->naxes; i++)
        len += strlen(sw->axes[i].name) + strlen(axis_value(sw, i)) + 2;
    if (len > m->label_cap) {
        char *b = xrealloc(m->label, len);
        m->label = b;
        m->label_cap = len;
    }
    m->label[0] = 0;
    for (int i = 0, off = 0; i < sw->naxes; i++)
        if (!sw->axes[i].folded)
            off += snprintf(m->label + off, len - (size_t)off, "%s%s=%s", off ? "," : "", sw->axes[i].name,
                            axis_value(sw, i));
    return m->label;
}

const char *const *sweep_params(const struct sweep *sw, int run)
{
    comb_indices(sw, sweep_combination(sw, run));
    int n = 0;
    for (int i = 0; i < sw->naxes; i++)
        if (!sw->axes[i].folded) {
            sw->params[2 * n] = sw->axes[i].param_key;
            sw->params[2 * n + 1] = axis_value(sw, i);
            n++;
        }
    sw->params[2 * n] = NULL;
    return sw->params;
}

void sweep_apply(struct cfg *c, const struct sweep *sw, int run)
{
    comb_indices(sw, sweep_combination(sw, run));
    for (int i = 0; i < sw->naxes; i++) {
        const struct sweep_axis *a = &sw->axes[i];
        struct cfg_section *s = cfg_section_ensure(c, a->kind, a->sname);
        if (s)
            cfg_set_axis_value(s, a->key, axis_value(sw, i));   /* a pointer into the axis: stable */
    }
}
