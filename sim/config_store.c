/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config_store.c - a loaded scenario in memory: its sections and keys, the
 * hash index that finds them, and the calls that walk or change them
 * (the contract is in sim/config.h and sim/config_store.h).
 *
 * Storage is flat malloc'ed arrays owned by struct cfg. Sections and keys
 * are found through a strindex (strindex.h), so that a file with very many
 * sections or keys still loads in linear time. Sections are allocated one
 * by one because callers keep struct cfg_section pointers.
 */
#include "sim/config_priv.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ---------------------------------------------------- */

char *cfg_vformat(const char *fmt, va_list ap)
{
    char *s;

    if (vasprintf(&s, fmt, ap) < 0)
        xoom();
    return s;
}

void cfg_text_add(struct cfg_text *t, const char *fmt, ...)
{
    va_list ap;
    char *s;
    size_t n;

    va_start(ap, fmt);
    s = cfg_vformat(fmt, ap);
    va_end(ap);
    n = strlen(s);
    t->p = xrealloc(t->p, t->len + n + 1);
    memcpy(t->p + t->len, s, n + 1);
    t->len += n;
    free(s);
}

char *cfg_concat(const char *const *parts, int n)
{
    size_t len[8], total = 0;
    char *p;

    assert(n <= 8);
    for (int i = 0; i < n; i++)
        total += len[i] = strlen(parts[i]);
    p = xmalloc(total + 1);
    total = 0;
    for (int i = 0; i < n; i++) {
        memcpy(p + total, parts[i], len[i]);
        total += len[i];
    }
    p[total] = '\0';
    return p;
}

/* " " between kind and name, or "" for a nameless section. */
const char *cfg_sep(const struct cfg_section *s)
{
    return s->name[0] ? " " : "";
}

/* ---- keys ------------------------------------------------------------- */

struct cfg_key_probe {
    const struct cfg_section *s;
    const char *key;
};

static bool cfg_key_eq(const void *ctx, uint32_t id)
{
    const struct cfg_key_probe *p = ctx;
    return strcmp(p->s->keys[id].key, p->key) == 0;
}

struct cfg_key *cfg_key_find(const struct cfg_section *s, const char *key)
{
    struct cfg_key_probe p = { s, key };
    int64_t i = strindex_find(&s->kindex, strindex_hash(STRINDEX_SEED, key, strlen(key)), cfg_key_eq, &p);
    return i < 0 ? NULL : &s->keys[i];
}

struct cfg_key *cfg_key_add(struct cfg_section *s, const char *key, const char *value, int line)
{
    s->keys = xgrow(s->keys, sizeof *s->keys, s->nkeys, &s->capkeys, 8);
    if (strindex_add(&s->kindex, strindex_hash(STRINDEX_SEED, key, strlen(key)), (uint32_t)s->nkeys))
        xoom();
    struct cfg_key *k = &s->keys[s->nkeys++];
    memset(k, 0, sizeof *k);
    k->key = xstrdup(key);
    k->value = xstrdup(value);
    k->line = line;
    return k;
}

void cfg_key_replace(struct cfg_key *k, const char *value)
{
    char *v = xstrdup(value);

    free(k->value);
    k->value = v;
    k->axis_reported = 0;
}

/* ---- sections --------------------------------------------------------- */

struct cfg *cfg_new(const char *name)
{
    struct cfg *c = xcalloc(1, sizeof *c);

    c->file = xstrdup(name ? name : "(string)");
    return c;
}

static uint32_t cfg_section_hash(const char *kind, size_t nkind, const char *name, size_t nname)
{
    return strindex_hash(strindex_hash(strindex_hash(STRINDEX_SEED, kind, nkind), "", 1), name, nname);
}

struct cfg_section_probe {
    const struct cfg *c;
    const char *kind, *name;
    size_t nkind, nname;
};

static bool cfg_name_eq(const void *ctx, uint32_t id)
{
    const struct cfg_section_probe *p = ctx;
    const struct cfg_section *s = p->c->sections[id];
    return strlen(s->name) == p->nname && memcmp(s->name, p->name, p->nname) == 0;
}

struct cfg_section *cfg_section_add(struct cfg *c, const char *kind, size_t nkind,
                                    const char *name, size_t nname, int line)
{
    c->sections = xgrow(c->sections, sizeof *c->sections, c->nsections, &c->capsections, 8);
    struct cfg_section *s = xcalloc(1, sizeof *s);

    s->cfg = c;
    s->line = line;
    s->kind = xstrndup(kind, nkind);
    s->name = xstrndup(name, nname);
    if (strindex_add(&c->sindex, cfg_section_hash(kind, nkind, name, nname), (uint32_t)c->nsections))
        xoom();
    if (nname) {
        struct cfg_section_probe p = { c, NULL, name, 0, nname };
        uint32_t h = strindex_hash(STRINDEX_SEED, name, nname);
        int64_t first = strindex_find(&c->nindex, h, cfg_name_eq, &p);
        if (first >= 0)
            c->sections[first]->shared_name = s->shared_name = 1;
        else if (strindex_add(&c->nindex, h, (uint32_t)c->nsections))
            xoom();
    }
    c->sections[c->nsections++] = s;
    return s;
}


static bool cfg_section_eq(const void *ctx, uint32_t id)
{
    const struct cfg_section_probe *p = ctx;
    const struct cfg_section *s = p->c->sections[id];
    return strlen(s->kind) == p->nkind && memcmp(s->kind, p->kind, p->nkind) == 0 &&
           strlen(s->name) == p->nname && memcmp(s->name, p->name, p->nname) == 0;
}

struct cfg_section *cfg_findn(const struct cfg *c, const char *kind, size_t nkind,
                              const char *name, size_t nname)
{
    struct cfg_section_probe p = { c, kind, name, nkind, nname };
    int64_t i = strindex_find(&c->sindex, cfg_section_hash(kind, nkind, name, nname), cfg_section_eq, &p);
    return i < 0 ? NULL : c->sections[i];
}

int cfg_section_count(const struct cfg *c)
{
    return c->nsections;
}

struct cfg_section *cfg_section_at(const struct cfg *c, int i)
{
    return i >= 0 && i < c->nsections ? c->sections[i] : NULL;
}

struct cfg_section *cfg_find(const struct cfg *c, const char *kind, const char *name)
{
    if (!name)
        name = "";
    return cfg_findn(c, kind, strlen(kind), name, strlen(name));
}

const char *cfg_kind(const struct cfg_section *s) { return s->kind; }
const char *cfg_name(const struct cfg_section *s) { return s->name; }
int cfg_line(const struct cfg_section *s) { return s->line; }
const char *cfg_file(const struct cfg *c) { return c->file; }

int cfg_has(const struct cfg_section *s, const char *key)
{
    return cfg_key_find(s, key) != NULL;
}

void cfg_free(struct cfg *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->nsections; i++) {
        struct cfg_section *s = c->sections[i];
        for (int j = 0; j < s->nkeys; j++) {
            free(s->keys[j].key);
            free(s->keys[j].value);
        }
        for (int j = 0; j < s->nasked; j++) {
            free(s->asked[j].key);
            free(s->asked[j].def);
        }
        free(s->keys);
        strindex_free(&s->kindex);
        strindex_free(&s->aindex);
        free(s->asked);
        free(s->kind);
        free(s->name);
        free(s);
    }
    for (int i = 0; i < c->nerrors; i++)
        free(c->errors[i]);
    for (int i = 0; i < c->nwarnings; i++)
        free(c->warnings[i]);
    free(c->warnings);
    for (int i = 0; i < c->nparams; i++) {
        free(c->params[i].key);
        free(c->params[i].value);
    }
    free(c->sections);
    strindex_free(&c->sindex);
    strindex_free(&c->nindex);
    free(c->errors);
    free(c->params);
    free(c->file);
    free(c);
}

/* ---- parameters, axes, raw access -------------------------------------- */

int cfg_param_count(const struct cfg *c)
{
    return c->nparams;
}

void cfg_param_at(const struct cfg *c, int i, const char **key, const char **value)
{
    *key = c->params[i].key;
    *value = c->params[i].value;
}

int cfg_has_axes(const struct cfg *c, const struct cfg_section **s, const char **key)
{
    for (int i = 0; i < c->nsections; i++) {
        const struct cfg_section *t = c->sections[i];
        for (int j = 0; j < t->nkeys; j++) {
            if (strstr(t->keys[j].value, "${")) {
                if (s)
                    *s = t;
                if (key)
                    *key = t->keys[j].key;
                return 1;
            }
        }
    }
    if (s)
        *s = NULL;
    if (key)
        *key = NULL;
    return 0;
}

int cfg_key_count(const struct cfg_section *s)
{
    return s->nkeys;
}

void cfg_key_at(const struct cfg_section *s, int i, const char **key, const char **value, int *line)
{
    if (key)
        *key = s->keys[i].key;
    if (value)
        *value = s->keys[i].value;
    if (line)
        *line = s->keys[i].line;
}

void cfg_set_value(struct cfg_section *s, const char *key, const char *value)
{
    struct cfg_key *k = cfg_key_find(s, key);

    if (k)
        cfg_key_replace(k, value);
    else
        cfg_key_add(s, key, value, s->line);
}

void cfg_set_axis_value(struct cfg_section *s, const char *key, const char *value)
{
    cfg_set_value(s, key, value);
    cfg_key_find(s, key)->from_axis = 1;
}

struct cfg_section *cfg_section_ensure(struct cfg *c, const char *kind, const char *name)
{
    struct cfg_section *s = cfg_find(c, kind, name);
    if (s)
        return s;
    return cfg_section_add(c, kind, strlen(kind), name, strlen(name), 0);
}
