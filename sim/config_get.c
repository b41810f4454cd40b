/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config_get.c - the typed getters components read their keys with:
 * the lookup that marks a key known and records the parameter, and one
 * table of types (units.h parser, bounds, the "expected ..." wording)
 * behind cfg_time, cfg_rate, cfg_size, cfg_percent, cfg_int, cfg_double,
 * cfg_bool and cfg_choice (the contract is in sim/config.h).
 */
#include "sim/config_priv.h"
#include "sim/units.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

union cfg_val {
    int64_t i;
    uint64_t u;
    double d;
};

/* The getters' types: each but CFG_STR is one row of cfg_types[] below. */
enum cfg_type { CFG_TIME, CFG_RATE, CFG_SIZE, CFG_PERCENT, CFG_INT, CFG_DOUBLE, CFG_BOOL, CFG_CHOICE, CFG_STR };

/* Which member of union cfg_val a type's values and bounds live in. */
enum cfg_field { CFG_I, CFG_U, CFG_D };

/* The bounds a getter was given, in its type's member; cfg_choice's list. */
struct cfg_limits {
    union cfg_val lo, hi;
    const char *const *choices;
};

/*
 * Adds key to the section's valid keys with what its getter says of it
 * (the row `netsim keys` prints); returns 1 the first time. Only the
 * first ask is kept: a key read twice (nic's itr as text, then as a time)
 * is documented as first read.
 */
struct cfg_ask_probe {
    const struct cfg_section *s;
    const char *key;
};

static bool cfg_ask_eq(const void *ctx, uint32_t id)
{
    const struct cfg_ask_probe *p = ctx;
    return strcmp(p->s->asked[id].key, p->key) == 0;
}

static int cfg_mark_asked(struct cfg_section *s, const char *key, const char *def, enum cfg_type type,
                          const struct cfg_limits *lim, const char *doc, int pattern)
{
    struct cfg_ask_probe p = { s, key };
    uint32_t h = strindex_hash(STRINDEX_SEED, key, strlen(key));
    if (strindex_find(&s->aindex, h, cfg_ask_eq, &p) >= 0)
        return 0;
    if (strindex_add(&s->aindex, h, (uint32_t)s->nasked))
        xoom();
    s->asked = xgrow(s->asked, sizeof *s->asked, s->nasked, &s->capasked, 8);
    char *d = s->cfg->describe && def ? xstrdup(def) : NULL;
    struct cfg_ask *a = &s->asked[s->nasked++];
    *a = (struct cfg_ask){ .key = xstrdup(key), .doc = doc, .def = d, .type = type, .pattern = pattern };
    if (lim) {
        memcpy(&a->lo, &lim->lo, sizeof a->lo);
        memcpy(&a->hi, &lim->hi, sizeof a->hi);
        a->choices = lim->choices;
    }
    return 1;
}

static void cfg_param_add(struct cfg_section *s, const char *key, const char *value)
{
    struct cfg *c = s->cfg;
    char *k;

    c->params = xgrow(c->params, sizeof *c->params, c->nparams, &c->capparams, 8);
    /* The spelling --set takes: by name, by kind when nameless; a name
     * two kinds share keeps its kind, as --set would refuse it. */
    if (!*s->name)
        k = cfg_concat((const char *[]){ s->kind, ".", key }, 3);
    else if (!s->shared_name)
        k = cfg_concat((const char *[]){ s->name, ".", key }, 3);
    else
        k = cfg_concat((const char *[]){ s->kind, " ", s->name, ".", key }, 5);
    c->params[c->nparams].key = k;
    c->params[c->nparams++].value = xstrdup(value);
}

void cfg_record(struct cfg_section *s, const char *key, const char *value)
{
    cfg_param_add(s, key, value);
}

/*
 * The text a getter parses: the value given, else def. Marks the key known
 * (with its description) and, on the first ask, records the parameter. Returns NULL (error
 * recorded on the first ask) for a missing required key; for a sweep axis
 * records the error and returns def.
 */
static const char *cfg_lookup(struct cfg_section *s, const char *key, const char *def, enum cfg_type type,
                              const struct cfg_limits *lim, const char *doc)
{
    struct cfg_key *k = cfg_key_find(s, key);
    const char *text = k ? k->value : def;
    int first = cfg_mark_asked(s, key, def, type, lim, doc, 0);

    if (first && text)
        cfg_param_add(s, key, text);
    if (k && strstr(k->value, "${")) {
        if (!k->axis_reported)
            cfg_error(s, key, "'%s' is a sweep axis: use `netsim sweep`, not `netsim run`", k->value);
        k->axis_reported = 1;
        return def;
    }
    if (!text && first)
        cfg_error(s, NULL, "missing key '%s'", key);
    return text;
}

/* "64 to 4096", or "at least"/"at most" when one side is open. */
static int cfg_why_range(struct cfg_text *why, const char *lo, const char *hi, int has_lo, int has_hi)
{
    if (has_lo && has_hi)
        cfg_text_add(why, "%s to %s", lo, hi);
    else if (has_lo)
        cfg_text_add(why, "at least %s", lo);
    else
        cfg_text_add(why, "at most %s", hi);
    return -1;
}

/* A time as a user would write it: the largest unit that divides it. */
static void cfg_fmt_time(char *buf, size_t n, union cfg_val v)
{
    static const struct { const char *unit; int64_t ps; } u[] = {
        { "s", PS_PER_S }, { "ms", PS_PER_MS }, { "us", PS_PER_US }, { "ns", PS_PER_NS }, { "ps", 1 },
    };
    simtime_t t = v.i;
    size_t i = 0;

    if (t == 0) {
        snprintf(buf, n, "0");
        return;
    }
    while (t % u[i].ps != 0)
        i++;
    snprintf(buf, n, "%lld%s", (long long)(t / u[i].ps), u[i].unit);
}

/* A size as a user would write it: bytes below 64K, else K/M/G/T if exact. */
static void cfg_fmt_size(char *buf, size_t n, union cfg_val val)
{
    static const char suffix[] = "KMGT";
    uint64_t v = val.u;
    int i = -1;

    if (v >= 65536)
        while (i < 3 && v % 1024 == 0) {
            v /= 1024;
            i++;
        }
    if (i >= 0)
        snprintf(buf, n, "%llu%c", (unsigned long long)v, suffix[i]);
    else
        snprintf(buf, n, "%llu", (unsigned long long)v);
}

static void cfg_fmt_int(char *buf, size_t n, union cfg_val v)
{
    snprintf(buf, n, "%lld", (long long)v.i);
}

static void cfg_fmt_double(char *buf, size_t n, union cfg_val v)
{
    snprintf(buf, n, "%g", v.d);
}

/* parse_bool() into the int64_t member, so that it fits a row. */
static int cfg_parse_bool(const char *text, int64_t *out, const char **why)
{
    int b;

    if (parse_bool(text, &b, why) < 0)
        return -1;
    *out = b;
    return 0;
}

/*
 * How each type is read: the units.h parser for its member, and for a
 * type with bounds how a bound is written after "expected" (in the key's
 * units: "1us to 10s", "at least 64K"). A bound at its member's limit is
 * open, except that a time's or a size's lower bound always shows ("0 to
 * 10s"). cfg_choice matches its list instead (cfg_parse_value).
 */
static const struct cfg_type_row {
    enum cfg_field field;
    int (*parse_i)(const char *text, int64_t *out, const char **why);
    int (*parse_u)(const char *text, uint64_t *out, const char **why);
    int (*parse_d)(const char *text, double *out, const char **why);
    void (*fmt)(char *buf, size_t n, union cfg_val bound);   /* NULL: no bounds */
    int lo_shown;
} cfg_types[] = {
    [CFG_TIME]    = { .field = CFG_I, .parse_i = parse_time, .fmt = cfg_fmt_time, .lo_shown = 1 },
    [CFG_RATE]    = { .field = CFG_U, .parse_u = parse_rate },
    [CFG_SIZE]    = { .field = CFG_U, .parse_u = parse_size, .fmt = cfg_fmt_size, .lo_shown = 1 },
    [CFG_PERCENT] = { .field = CFG_D, .parse_d = parse_percent },
    [CFG_INT]     = { .field = CFG_I, .parse_i = parse_int, .fmt = cfg_fmt_int },
    [CFG_DOUBLE]  = { .field = CFG_D, .parse_d = parse_double, .fmt = cfg_fmt_double },
    [CFG_BOOL]    = { .field = CFG_I, .parse_i = cfg_parse_bool },
    [CFG_CHOICE]  = { .field = CFG_I },
};

static int cfg_less(enum cfg_field f, union cfg_val a, union cfg_val b)
{
    return f == CFG_I ? a.i < b.i : f == CFG_U ? a.u < b.u : a.d < b.d;
}

/* Is the bound open: the lowest (lo) or highest value of its member? */
static int cfg_open(enum cfg_field f, union cfg_val v, int lo)
{
    if (f == CFG_I)
        return lo ? v.i == INT64_MIN : v.i == INT64_MAX;
    if (f == CFG_U)
        return lo ? v.u == 0 : v.u == UINT64_MAX;
    return lo ? !(v.d > -DBL_MAX) : !(v.d < DBL_MAX);
}

static int cfg_parse_choice(const char *text, const struct cfg_limits *lim, union cfg_val *v, struct cfg_text *why)
{
    for (int i = 0; lim->choices[i]; i++) {
        if (strcmp(text, lim->choices[i]) == 0) {
            v->i = i;
            return 0;
        }
    }
    cfg_text_add(why, "one of: ");
    for (int i = 0; lim->choices[i]; i++)
        cfg_text_add(why, "%s%s", i ? ", " : "", lim->choices[i]);
    return -1;
}

/* Parses text as `type` into *v, or returns -1 with why, the phrase after
 * "expected". */
static int cfg_parse_value(enum cfg_type type, const char *text, const struct cfg_limits *lim, union cfg_val *v,
                           struct cfg_text *why)
{
    const struct cfg_type_row *t = &cfg_types[type];
    union cfg_val x = { 0 };
    const char *w;
    int rc;

    if (type == CFG_CHOICE)
        return cfg_parse_choice(text, lim, v, why);
    if (t->field == CFG_I)
        rc = t->parse_i(text, &x.i, &w);
    else if (t->field == CFG_U)
        rc = t->parse_u(text, &x.u, &w);
    else
        rc = t->parse_d(text, &x.d, &w);
    if (rc < 0) {
        cfg_text_add(why, "%s", w);
        return -1;
    }
    if (t->fmt && (cfg_less(t->field, x, lim->lo) || cfg_less(t->field, lim->hi, x))) {
        char lo[32], hi[32];
        t->fmt(lo, sizeof lo, lim->lo);
        t->fmt(hi, sizeof hi, lim->hi);
        return cfg_why_range(why, lo, hi, t->lo_shown || !cfg_open(t->field, lim->lo, 1),
                             !cfg_open(t->field, lim->hi, 0));
    }
    *v = x;
    return 0;
}

/*
 * The common getter: look the key up, parse, and on a bad value record
 * "got 'x', expected ..." and fall back to the parsed default (0 without
 * one), so that building goes on and every error is reported at once.
 */
static union cfg_val cfg_get(struct cfg_section *s, const char *key, const char *def, enum cfg_type type,
                             const struct cfg_limits *lim, const char *doc)
{
    union cfg_val v = { 0 }, zero = { 0 };
    struct cfg_text why = { 0 };
    const char *text = cfg_lookup(s, key, def, type, lim, doc);

    if (!text)
        return zero;
    if (cfg_parse_value(type, text, lim, &v, &why) == 0) {
        free(why.p);
        return v;
    }
    cfg_error(s, key, "got '%s', expected %s", text, why.p ? why.p : "another value");
    free(why.p);
    if (!def || text == def)
        return zero;
    why = (struct cfg_text){ 0 };
    if (cfg_parse_value(type, def, lim, &v, &why) < 0)
        v = zero;
    free(why.p);
    return v;
}

simtime_t cfg_time(struct cfg_section *s, const char *key, const char *def, simtime_t min, simtime_t max,
                   const char *doc)
{
    struct cfg_limits lim = { .lo.i = min, .hi.i = max < CFG_TIME_MAX ? max : CFG_TIME_MAX };
    return cfg_get(s, key, def, CFG_TIME, &lim, doc).i;
}

simtime_t cfg_period(struct cfg_section *s, const char *key, const char *def, simtime_t max, const char *doc)
{
    simtime_t v = cfg_time(s, key, def, 0, max, doc);
    if (v == 0 || v >= PS_PER_US)
        return v;
    struct cfg_key *k = cfg_key_find(s, key);
    char hi[32];
    cfg_fmt_time(hi, sizeof hi, (union cfg_val){ .i = max < CFG_TIME_MAX ? max : CFG_TIME_MAX });
    cfg_error(s, key, "got '%s', expected 0 (none) or a period of 1us to %s", k ? k->value : def, hi);
    return 0;
}

uint64_t cfg_rate(struct cfg_section *s, const char *key, const char *def, const char *doc)
{
    struct cfg_limits lim = { 0 };
    return cfg_get(s, key, def, CFG_RATE, &lim, doc).u;
}

uint64_t cfg_size(struct cfg_section *s, const char *key, const char *def, uint64_t min, uint64_t max,
                  const char *doc)
{
    struct cfg_limits lim = { .lo.u = min, .hi.u = max };
    return cfg_get(s, key, def, CFG_SIZE, &lim, doc).u;
}

int cfg_split_sizes(const char *text, uint64_t *out, int n)
{
    char buf[CFG_MAX_LINE + 1];
    if (strlen(text) >= sizeof buf)
        return -1;
    memcpy(buf, text, strlen(text) + 1);
    int k = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        const char *why = NULL;
        if (k == n || parse_size(tok, &out[k], &why))
            return -1;
        k++;
    }
    return k == n ? 0 : -1;
}

double cfg_percent(struct cfg_section *s, const char *key, const char *def, const char *doc)
{
    struct cfg_limits lim = { 0 };
    return cfg_get(s, key, def, CFG_PERCENT, &lim, doc).d;
}

int64_t cfg_int(struct cfg_section *s, const char *key, const char *def, int64_t min, int64_t max, const char *doc)
{
    struct cfg_limits lim = { .lo.i = min, .hi.i = max };
    return cfg_get(s, key, def, CFG_INT, &lim, doc).i;
}

double cfg_double(struct cfg_section *s, const char *key, const char *def, double min, double max, const char *doc)
{
    struct cfg_limits lim = { .lo.d = min, .hi.d = max };
    return cfg_get(s, key, def, CFG_DOUBLE, &lim, doc).d;
}

int cfg_bool(struct cfg_section *s, const char *key, const char *def, const char *doc)
{
    struct cfg_limits lim = { 0 };
    return (int)cfg_get(s, key, def, CFG_BOOL, &lim, doc).i;
}

int cfg_choice(struct cfg_section *s, const char *key, const char *def, const char *const *choices, const char *doc)
{
    struct cfg_limits lim = { .choices = choices };
    return (int)cfg_get(s, key, def, CFG_CHOICE, &lim, doc).i;
}

const char *cfg_section_file(const struct cfg_section *s)
{
    return s->cfg->file ? s->cfg->file : "";
}

const char *cfg_str(struct cfg_section *s, const char *key, const char *def, const char *doc)
{
    const char *text = cfg_lookup(s, key, def, CFG_STR, NULL, doc);
    return text ? text : "";
}

void cfg_pattern_time(struct cfg_section *s, const char *pattern, const char *def, simtime_t min, simtime_t max,
                      const char *doc)
{
    struct cfg_limits lim = { .lo.i = min, .hi.i = max < CFG_TIME_MAX ? max : CFG_TIME_MAX };
    cfg_mark_asked(s, pattern, def, CFG_TIME, &lim, doc, 1);
}

void cfg_pattern_str(struct cfg_section *s, const char *pattern, const char *doc)
{
    cfg_mark_asked(s, pattern, "", CFG_STR, NULL, doc, 1);
}

/* ---- the key reference (netsim keys) --------------------------------------- */

void cfg_describe(struct cfg *c)
{
    c->describe = 1;
}

int cfg_describing(const struct cfg_section *s)
{
    return s->cfg->describe;
}

int cfg_key_doc_count(const struct cfg_section *s)
{
    return s->nasked;
}

/* The unit column: what a value of the getter's type is written in. */
static const char *const cfg_units[] = {
    [CFG_TIME] = "time", [CFG_RATE] = "bit/s", [CFG_SIZE] = "bytes", [CFG_PERCENT] = "%",
    [CFG_INT] = "integer", [CFG_DOUBLE] = "number", [CFG_BOOL] = "on/off", [CFG_CHOICE] = "choice",
    [CFG_STR] = "text",
};

/* The range column, with the bounds written as the error would write them. */
static void cfg_range_text(const struct cfg_ask *a, char *buf, size_t n)
{
    const struct cfg_type_row *t = &cfg_types[a->type];
    union cfg_val lo, hi;
    char l[32], h[32];
    size_t len = 0;

    buf[0] = 0;
    if (a->type == CFG_CHOICE) {
        for (int i = 0; a->choices && a->choices[i] && len < n; i++)
            len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", a->choices[i]);
        return;
    }
    if (a->type == CFG_RATE) {
        snprintf(buf, n, "above 0");
        return;
    }
    if (a->type == CFG_PERCENT) {
        snprintf(buf, n, "0%% to 100%%");
        return;
    }
    if (a->type == CFG_STR || !t->fmt)
        return;
    memcpy(&lo, &a->lo, sizeof lo);
    memcpy(&hi, &a->hi, sizeof hi);
    int has_lo = t->lo_shown || !cfg_open(t->field, lo, 1), has_hi = !cfg_open(t->field, hi, 0);
    if (!has_lo && !has_hi)
        return;
    t->fmt(l, sizeof l, lo);
    t->fmt(h, sizeof h, hi);
    if (has_lo && has_hi)
        snprintf(buf, n, "%s to %s", l, h);
    else if (has_lo)
        snprintf(buf, n, "at least %s", l);
    else
        snprintf(buf, n, "at most %s", h);
}

void cfg_key_doc_at(const struct cfg_section *s, int i, struct cfg_key_doc *d)
{
    const struct cfg_ask *a = &s->asked[i];

    d->key = a->key;
    d->unit = cfg_units[a->type];
    d->def = a->def;
    d->doc = a->doc ? a->doc : "";
    d->pattern = a->pattern;
    cfg_range_text(a, d->range, sizeof d->range);
}
