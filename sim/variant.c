/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * variant.c - the registry of model variants (see variant.h): the table
 * the build generates from the VARIANT lines, handed over by
 * models_install (variants_set), checked once, and read by name or in
 * order.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "sim/config.h"
#include "sim/sim.h"
#include "sim/variant.h"

/* BUILD/gen/variants.c (tools/gen-variants), NULL-terminated, as
 * variants_set was given it; NULL before. */
static const struct variant *const *variant_table;

#define MAX_FAMILIES 32
#define MAX_PER_FAMILY 64

/* A family and its variants in listing order, built by the check. */
struct family_entry {
    const struct variant_family *fam;
    const struct variant_head *v[MAX_PER_FAMILY + 1];   /* NULL-terminated */
    const char *names[MAX_PER_FAMILY + 1];              /* the same, for cfg_choice */
    int n;
};

static struct family_entry families[MAX_FAMILIES];
static int nfamilies;
static int checked;              /* 0 not yet, 1 good, -1 broken */

static const struct variant_head *head(const struct variant *v)
{
    return v->ops;
}

static struct family_entry *family(const char *key)
{
    for (int i = 0; i < nfamilies; i++)
        if (!strcmp(families[i].fam->key, key))
            return &families[i];
    return NULL;
}

/* The families the modules declare. */
static int collect_families(FILE *err)
{
    int bad = 0;
    for (int m = 0; model_at(m); m++) {
        for (const struct variant_family *const *f = model_at(m)->families; f && *f; f++) {
            if (!(*f)->key || !(*f)->def || !(*f)->doc) {
                fprintf(err, "netsim: model %s: a variant family without key, default or doc\n", model_at(m)->name);
                bad = 1;
            } else if (family((*f)->key)) {
                fprintf(err, "netsim: variant family %s is declared twice\n", (*f)->key);
                bad = 1;
            } else if (nfamilies == MAX_FAMILIES) {
                fprintf(err, "netsim: more than %d variant families\n", MAX_FAMILIES);
                return 1;
            } else {
                families[nfamilies++].fam = *f;
            }
        }
    }
    return bad;
}

/* A variant's keys: named as a key's last part may be, documented, with
 * a default inside their range, each once, VARIANT_MAX_KEYS at most. */
static int check_keys(const struct variant *v, const struct variant_head *h, FILE *err)
{
    const char *file = v->file ? v->file : "?";
    int n = 0;
    for (const struct variant_key *k = h->keys; k && k->name; k++, n++) {
        const char *why = NULL;
        char *end = NULL;
        long long d = k->def ? strtoll(k->def, &end, 10) : 0;
        bool word = k->name[0] != 0;
        for (const char *c = k->name; *c; c++)
            word &= (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_';
        if (n == VARIANT_MAX_KEYS)
            why = "more keys than VARIANT_MAX_KEYS";
        else if (!word)
            why = "a key's name is letters, digits and '_'";
        else if (!k->doc || !k->doc[0])
            why = "it has no doc";
        else if (k->min > k->max)
            why = "its min is above its max";
        else if (!k->def || !*k->def || *end || d < k->min || d > k->max)
            why = "its default is no whole number within its range";
        for (const struct variant_key *j = h->keys; !why && j < k; j++)
            if (!strcmp(j->name, k->name))
                why = "it is listed twice";
        if (why) {
            fprintf(err, "netsim: %s: %s variant '%s', key '%s': %s\n", file, v->key, h->name,
                    k->name ? k->name : "", why);
            return 1;
        }
    }
    return 0;
}

/* The k-th registered variant against the contract; added to its
 * family. The earlier entries are compared by position, not address: one
 * object listed twice (a table built from a copied file) is a duplicate
 * too. */
static int check_one(int k, FILE *err)
{
    const struct variant *v = variant_table[k];
    const struct variant_head *h = head(v);
    struct family_entry *fe = v->key ? family(v->key) : NULL;
    const char *file = v->file ? v->file : "?";
    if (!fe) {
        fprintf(err, "netsim: %s: variant of '%s': no model family has that key\n", file, v->key ? v->key : "");
        return 1;
    }
    if (!h || !h->name || !h->name[0] || !h->doc || !h->doc[0]) {
        fprintf(err, "netsim: %s: a %s variant needs a name and a doc\n", file, v->key);
        return 1;
    }
    if (check_keys(v, h, err))
        return 1;
    const char *miss = fe->fam->missing ? fe->fam->missing(v->ops) : NULL;
    if (miss) {
        fprintf(err, "netsim: %s: %s variant '%s' lacks its required member '%s'\n", file, v->key, h->name, miss);
        return 1;
    }
    for (int j = 0; j < k; j++) {
        const struct variant *w = variant_table[j];
        if (w->key && head(w) && head(w)->name && !strcmp(w->key, v->key) && !strcmp(head(w)->name, h->name)) {
            fprintf(err, "netsim: %s: %s variant '%s' is registered twice (first in %s)\n", file, v->key, h->name,
                    w->file ? w->file : "?");
            return 1;
        }
    }
    if (fe->n == MAX_PER_FAMILY) {
        fprintf(err, "netsim: %s: more than %d %s variants\n", file, MAX_PER_FAMILY, v->key);
        return 1;
    }
    fe->v[fe->n++] = h;
    return 0;
}

void variants_set(const struct variant *const *table)
{
    if (table == variant_table)
        return;
    variant_table = table;
    memset(families, 0, sizeof families);
    nfamilies = 0;
    checked = 0;
}

int variants_check(FILE *err)
{
    if (checked)
        return checked > 0 ? 0 : -1;
    if (!variant_table) {
        fprintf(err, "netsim: no model variants: models_install() was not called\n");
        return -1;
    }
    int bad = collect_families(err);
    for (int k = 0; variant_table[k]; k++)
        bad |= check_one(k, err);
    for (int i = 0; i < nfamilies; i++) {
        struct family_entry *fe = &families[i];
        int d = -1;
        for (int k = 0; k < fe->n && d < 0; k++)
            if (!strcmp(fe->v[k]->name, fe->fam->def))
                d = k;
        if (d < 0) {
            fprintf(err, "netsim: variant family %s: its default '%s' is not registered\n", fe->fam->key,
                    fe->fam->def);
            bad = 1;
            continue;
        }
        const struct variant_head *def = fe->v[d];          /* the default first, the rest in file order */
        memmove(&fe->v[1], &fe->v[0], (size_t)d * sizeof fe->v[0]);
        fe->v[0] = def;
        for (int k = 0; k < fe->n; k++)
            fe->names[k] = fe->v[k]->name;
        fe->v[fe->n] = NULL;
        fe->names[fe->n] = NULL;
    }
    checked = bad ? -1 : 1;
    return bad ? -1 : 0;
}

/* The registry must be whole before anything reads it. */
static void must_be_checked(void)
{
    if (variants_check(stderr) < 0) {
        fprintf(stderr, "netsim: the model variants break their contract (sim/variant.h)\n");
        exit(1);
    }
}

const struct variant_head *variant_at(const char *key, int i)
{
    must_be_checked();
    struct family_entry *fe = family(key);
    return fe && i >= 0 && i < fe->n ? fe->v[i] : NULL;
}

const void *variant_find(const char *key, const char *name)
{
    must_be_checked();
    for (const struct variant *const *v = variant_table; *v; v++)
        if (!strcmp((*v)->key, key) && !strcmp(head(*v)->name, name))
            return (*v)->ops;
    return NULL;
}

static const void *choose(struct cfg_section *sec, const char *key, const char *def)
{
    must_be_checked();
    struct family_entry *fe = family(key);
    if (!fe) {
        fprintf(stderr, "netsim: no model family '%s'\n", key);
        exit(1);
    }
    int i = cfg_choice(sec, key, def ? def : fe->fam->def, fe->names, fe->fam->doc);
    return variant_find(key, fe->names[i]);
}

const void *variant_choose(struct cfg_section *sec, const char *key) { return choose(sec, key, NULL); }

const void *variant_choose_vals(struct cfg_section *sec, const char *key, int64_t *vals)
{
    return variant_choose_vals_def(sec, key, NULL, vals);
}

const void *variant_choose_vals_def(struct cfg_section *sec, const char *key, const char *def, int64_t *vals)
{
    const struct variant_head *chosen = choose(sec, key, def);
    struct family_entry *fe = family(key);
    for (int i = 0; i < fe->n; i++) {
        const struct variant_head *v = fe->v[i];
        int n = 0;
        for (const struct variant_key *k = v->keys; k && k->name; k++, n++) {
            char name[160];
            snprintf(name, sizeof name, "%s.%s.%s", key, v->name, k->name);
            /* every variant's keys are valid keys, documented in the
             * reference; only the chosen one's are read for values */
            if (v != chosen && !cfg_has(sec, name) && !cfg_describing(sec))
                continue;
            int64_t x = cfg_int(sec, name, k->def, k->min, k->max, k->doc);
            if (v == chosen && vals)
                vals[n] = x;
            else if (v != chosen)
                cfg_inert(sec, name, key, "%s is %s's; this host's %s is %s", name, v->name, key, chosen->name);
        }
    }
    return chosen;
}

void variant_key_defaults(const void *ops, int64_t *vals)
{
    const struct variant_head *h = ops;
    int n = 0;
    for (const struct variant_key *k = h->keys; k && k->name && n < VARIANT_MAX_KEYS; k++, n++)
        vals[n] = strtoll(k->def, NULL, 10);
}

int variant_key_index(const void *ops, const char *name)
{
    const struct variant_head *h = ops;
    for (int n = 0; h->keys && h->keys[n].name; n++)
        if (!strcmp(h->keys[n].name, name))
            return n;
    return -1;
}

const struct variant_family *variant_family_at(int i)
{
    must_be_checked();
    return i >= 0 && i < nfamilies ? families[i].fam : NULL;
}
