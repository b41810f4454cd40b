/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * keys_world.c - the worlds `netsim keys` builds to reach every getter
 * (keys.h). A key exists only where a component asks for it, so the
 * reference is built as a run is: two hosts on one link, and a flow of
 * one application at a time (the SCTP keys of a host are read only when
 * SCTP is used; two apps on one port would be an error of their own).
 * Each build is checked: the defaults of every key must make a valid
 * scenario. A family's variants are found by building again with the
 * variant chosen on both hosts and keeping the rows that changed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/keys.h"
#include "load/load.h"
#include "load/scenario.h"
#include "sim/sim.h"
#include "sim/variant.h"
#include "sim/xalloc.h"
#include "sim/qdisc.h"
#include "load/qdisc_parse.h"

static char *dup_n(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static char *dup_s(const char *s)
{
    return s ? dup_n(s, strlen(s)) : NULL;
}

/* A row from what the getter recorded, with the doc's "{D|R}" head
 * taking the place of the default (D) and of the range (R) when given. */
static void row_from(struct key_row *r, const struct cfg_key_doc *d)
{
    const char *doc = d->doc, *def = d->def, *range = d->range;
    size_t ndef = def ? strlen(def) : 0, nrange = strlen(range);

    if (doc[0] == '{' && strchr(doc, '}')) {
        const char *end = strchr(doc, '}'), *bar = memchr(doc, '|', (size_t)(end - doc));
        const char *dend = bar ? bar : end;
        if (dend > doc + 1) {
            def = doc + 1;
            ndef = (size_t)(dend - def);
        }
        if (bar && end > bar + 1) {
            range = bar + 1;
            nrange = (size_t)(end - range);
        }
        doc = end + 1;
        while (*doc == ' ')
            doc++;
    }
    *r = (struct key_row){ .key = dup_s(d->key), .unit = dup_s(d->unit), .def = def ? dup_n(def, ndef) : NULL,
                           .range = dup_n(range, nrange), .doc = dup_s(doc), .pattern = d->pattern };
}

static void row_free(struct key_row *r)
{
    free(r->key);
    free(r->unit);
    free(r->def);
    free(r->range);
    free(r->doc);
}

static int group_find(const struct key_group *g, const char *key)
{
    for (int i = 0; i < g->n; i++)
        if (!strcmp(g->rows[i].key, key))
            return i;
    return -1;
}

static void group_add(struct key_group *g, struct key_row *r)
{
    g->rows = xgrow(g->rows, sizeof *g->rows, (size_t)g->n, &g->cap, 32);
    g->rows[g->n++] = *r;
}

static void group_free(struct key_group *g)
{
    for (int i = 0; i < g->n; i++)
        row_free(&g->rows[i]);
    free(g->rows);
    free(g->title);
    free(g->what);
    *g = (struct key_group){ 0 };
}

/* Adds the section's rows that g lacks, in ask order. */
static void group_merge(struct key_group *g, const struct cfg_section *s)
{
    for (int i = 0; s && i < cfg_key_doc_count(s); i++) {
        struct cfg_key_doc d;
        struct key_row r;
        cfg_key_doc_at(s, i, &d);
        if (group_find(g, d.key) >= 0)
            continue;
        row_from(&r, &d);
        group_add(g, &r);
    }
}

static bool same_str(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static bool same_row(const struct key_row *a, const struct key_row *b)
{
    return !strcmp(a->unit, b->unit) && same_str(a->def, b->def) && !strcmp(a->range, b->range) &&
           !strcmp(a->doc, b->doc);
}

/* The rows of `got` absent from `base` or different there, into out. */
static void group_diff(struct key_group *out, const struct key_group *got, const struct key_group *base)
{
    for (int i = 0; i < got->n; i++) {
        int k = group_find(base, got->rows[i].key);
        if (k >= 0 && same_row(&got->rows[i], &base->rows[k]))
            continue;
        struct cfg_key_doc d = { .key = got->rows[i].key, .unit = got->rows[i].unit, .def = got->rows[i].def,
                                 .doc = got->rows[i].doc, .pattern = got->rows[i].pattern };
        struct key_row r;
        snprintf(d.range, sizeof d.range, "%s", got->rows[i].range);
        row_from(&r, &d);
        group_add(out, &r);
    }
}

/* What one world asked, merged into the groups given (NULL: not kept). */
struct world {
    struct key_group *sim, *link, *host, *flow;
};

/* Builds [sim], [link l] between hosts a and b, with `set` ("KEY = VALUE"
 * or "") in both hosts, and a flow of app from a to b, or to a itself
 * when loop (then b, which runs nothing, is left without `set`). Errors are printed only when `quiet` is false. */
static int world_try(const char *app, const char *set, const struct world *w, bool loop, bool quiet)
{
    char text[512];
    snprintf(text, sizeof text, "[sim]\n[link l]\nends = a:eth0 b:eth0\n[host a]\n%s\n[host b]\n%s\n"
             "[flow 1]\napp = %s\nfrom = a\nto = %s\n", set, loop ? "" : set, app, loop ? "a" : "b");
    struct cfg *c = cfg_load_string("(netsim keys)", text);
    if (!c)
        return -1;
    cfg_describe(c);
    struct sim *s = sim_build(c, 0, false);
    int bad = cfg_errors(c);
    if (bad && quiet) {
        sim_free(s);
        cfg_free(c);
        return -1;
    }
    if (bad) {
        fprintf(stderr, "netsim keys: the defaults of app %s%s%s make an invalid scenario:\n", app, *set ? " with " : "",
                set);
        cfg_print_errors(c, stderr);
    } else {
        if (w->sim)
            group_merge(w->sim, cfg_find(c, "sim", NULL));
        if (w->link)
            group_merge(w->link, cfg_find(c, "link", "l"));
        if (w->host) {
            group_merge(w->host, cfg_find(c, "host", "a"));
            group_merge(w->host, cfg_find(c, "host", "b"));
        }
        if (w->flow)
            group_merge(w->flow, cfg_find(c, "flow", "1"));
    }
    sim_free(s);
    cfg_free(c);
    return bad ? -1 : 0;
}

/* An app whose defaults fit one host only (netperf's SCTP_STREAM, whose
 * 1636-byte messages fit loopback's MTU, not the link's) is read on
 * loopback; the errors shown are the two-host world's. */
static int world_build(const char *app, const char *set, const struct world *w)
{
    if (world_try(app, set, w, false, true) == 0 || world_try(app, set, w, true, true) == 0)
        return 0;
    return world_try(app, set, w, false, false);
}

/* The flow keys every app reads alike move to r->flow. */
static void split_common(struct key_ref *r)
{
    struct key_group *a0 = &r->apps[0];
    for (int i = 0; r->napps && i < a0->n; i++) {
        bool common = true;
        for (int k = 1; k < r->napps && common; k++) {
            int j = group_find(&r->apps[k], a0->rows[i].key);
            common = j >= 0 && same_row(&r->apps[k].rows[j], &a0->rows[i]);
        }
        if (!common)
            continue;
        struct cfg_key_doc d = { .key = a0->rows[i].key, .unit = a0->rows[i].unit, .def = a0->rows[i].def,
                                 .doc = a0->rows[i].doc };
        struct key_row row;
        snprintf(d.range, sizeof d.range, "%s", a0->rows[i].range);
        row_from(&row, &d);
        group_add(&r->flow, &row);
    }
}

/* The host rows of every app's world that reads FAMILY, with FAMILY =
 * VARIANT on both hosts. */
static int variant_rows(const char *family, const char *variant, struct key_group *host)
{
    char set[160];
    snprintf(set, sizeof set, "%s = %s", family, variant);
    for (int i = 0; app_at(i); i++) {
        struct key_group base = { 0 };
        struct world b = { .host = &base }, w = { .host = host };
        /* only where the family is read: a host without SCTP refuses sctp.rwnd */
        int rc = world_build(app_at(i)->name, "", &b);
        if (rc == 0 && group_find(&base, family) >= 0)
            rc = world_build(app_at(i)->name, set, &w);
        group_free(&base);
        if (rc)
            return -1;
    }
    return 0;
}

static void variant_group(struct key_ref *r, const char *family, const struct variant_head *v)
{
    r->variants = xrealloc(r->variants, (size_t)(r->nvariants + 1) * sizeof *r->variants);
    struct key_group *g = &r->variants[r->nvariants++];
    char title[160];
    snprintf(title, sizeof title, "%s = %s", family, v->name);
    *g = (struct key_group){ .title = dup_s(title), .what = dup_s(v->doc) };
}

/* A discipline's options are tc words, not keys: its rows are its params
 * ("limit", NUMBER, the kernel's default), and an htb's class options */
static void qdisc_rows(struct key_group *g, const struct qdisc_ops *ops)
{
    const struct qdisc_param *tabs[2] = { ops->params, ops->class_params };
    for (int t = 0; t < 2; t++)
        for (int i = 0; tabs[t] && tabs[t][i].name; i++) {
            const struct qdisc_param *p = &tabs[t][i];
            char key[80];
            snprintf(key, sizeof key, "%s%s%s%s", t ? "class: " : "", p->name, p->neg ? "/" : "",
                     p->neg ? p->neg : "");
            struct key_row row = { .key = dup_s(key), .unit = dup_s(qdisc_param_word(p)),
                                   .def = dup_s(p->type == QP_FLAG ? (p->def && *p->def == '1' ? "on" : "off") : p->def ? p->def : "-"),
                                   .range = dup_s(""), .doc = dup_s(p->doc) };
            group_add(g, &row);
        }
}

int key_ref_build(struct key_ref *r)
{
    memset(r, 0, sizeof *r);
    r->sim.title = dup_s("[sim]");
    r->link.title = dup_s("[link NAME]");
    r->host.title = dup_s("[host NAME]");
    r->flow.title = dup_s("[flow N]");
    while (app_at(r->napps))
        r->napps++;
    r->apps = xcalloc((size_t)(r->napps ? r->napps : 1), sizeof *r->apps);
    for (int i = 0; i < r->napps; i++) {
        struct world w = { .sim = &r->sim, .link = &r->link, .host = &r->host, .flow = &r->apps[i] };
        r->apps[i].title = dup_s(app_at(i)->name);
        r->apps[i].what = dup_s(app_at(i)->doc);
        if (world_build(app_at(i)->name, "", &w))
            return -1;
    }
    split_common(r);
    for (int m = 0; model_at(m); m++) {
        for (const struct variant_family *const *f = model_at(m)->families; f && *f; f++) {
            for (int k = 0; variant_at((*f)->key, k); k++) {
                const struct variant_head *v = variant_at((*f)->key, k);
                variant_group(r, (*f)->key, v);
                if (!strcmp((*f)->key, "qdisc")) {
                    qdisc_rows(&r->variants[r->nvariants - 1], (const struct qdisc_ops *)v);
                    continue;
                }
                if (k == 0)
                    continue;            /* the default's rows are the host's */
                struct key_group got = { 0 };
                if (variant_rows((*f)->key, v->name, &got)) {
                    group_free(&got);
                    return -1;
                }
                group_diff(&r->variants[r->nvariants - 1], &got, &r->host);
                group_free(&got);
            }
        }
    }
    return 0;
}

void key_ref_free(struct key_ref *r)
{
    group_free(&r->sim);
    group_free(&r->link);
    group_free(&r->host);
    group_free(&r->flow);
    for (int i = 0; i < r->napps; i++)
        group_free(&r->apps[i]);
    for (int i = 0; i < r->nvariants; i++)
        group_free(&r->variants[i]);
    free(r->apps);
    free(r->variants);
}
