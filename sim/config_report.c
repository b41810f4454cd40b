/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config_report.c - what a scenario's reader and components say about
 * it: errors (each text once, at most CFG_MAX_ERRORS kept), warnings
 * (printed once per process), and cfg_finish()'s check for the keys and
 * sections nobody asked for (the contract is in sim/config.h and
 * sim/config_store.h).
 */
#include "sim/config_priv.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CFG_MAX_ERRORS 100

/* Adds an error unless the same text is already there: a value read for
 * each direction of a link, or by two components, is one mistake. Past
 * CFG_MAX_ERRORS only the count grows, so no input can make the list
 * (or the time to check it) grow without bound. */
static void cfg_push_error(struct cfg *c, char *msg)
{
    for (int i = 0; i < c->nerrors; i++)
        if (strcmp(c->errors[i], msg) == 0) {
            free(msg);
            return;
        }
    if (c->nerrors >= CFG_MAX_ERRORS) {
        c->more_errors++;
        free(msg);
        return;
    }
    c->errors = xgrow(c->errors, sizeof *c->errors, c->nerrors, &c->caperrors, 8);
    c->errors[c->nerrors++] = msg;
}

/* "file:LINE: msg"; LINE 0 means the value came from the command line
 * and gives "--set: msg"; LINE -1 gives "file: msg". */
static char *cfg_locate(struct cfg *c, int line, const char *fmt, va_list ap)
{
    struct cfg_text t = { 0 };
    char *msg = cfg_vformat(fmt, ap);

    if (line > 0)
        cfg_text_add(&t, "%s:%d: %s", c->file, line, msg);
    else if (line == 0)
        cfg_text_add(&t, "--set: %s", msg);
    else
        cfg_text_add(&t, "%s: %s", c->file, msg);
    free(msg);
    return t.p;
}

static char *cfg_format_at(struct cfg *c, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static char *cfg_format_at(struct cfg *c, int line, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = cfg_locate(c, line, fmt, ap);
    va_end(ap);
    return msg;
}

void cfg_report(struct cfg *c, int line, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = cfg_locate(c, line, fmt, ap);
    va_end(ap);
    cfg_push_error(c, msg);
}

/* ---- errors and warnings ------------------------------------------------ */

/* "file:line: [kind name] key: " + what + the message: at the key's line,
 * or the section's when there is no key. */
static char *cfg_section_msg(struct cfg_section *s, const char *key, const char *what, const char *fmt, va_list ap)
{
    struct cfg_key *k = key ? cfg_key_find(s, key) : NULL;
    char *msg = cfg_vformat(fmt, ap), *out;

    if (key)
        out = cfg_format_at(s->cfg, k ? k->line : s->line, "[%s%s%s] %s: %s%s", s->kind, cfg_sep(s), s->name, key,
                            what, msg);
    else
        out = cfg_format_at(s->cfg, s->line, "[%s%s%s]: %s%s", s->kind, cfg_sep(s), s->name, what, msg);
    free(msg);
    return out;
}

void cfg_error(struct cfg_section *s, const char *key, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = cfg_section_msg(s, key, "", fmt, ap);
    va_end(ap);
    cfg_push_error(s->cfg, msg);
}

void cfg_error_global(struct cfg *c, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = cfg_vformat(fmt, ap);
    va_end(ap);
    cfg_push_error(c, msg);
}

int cfg_errors(const struct cfg *c)
{
    return c->nerrors + c->more_errors;
}

void cfg_print_errors(const struct cfg *c, FILE *f)
{
    for (int i = 0; i < c->nerrors; i++)
        fprintf(f, "%s\n", c->errors[i]);
    if (c->more_errors)
        fprintf(f, "%s: ... and %d more errors\n", c->file, c->more_errors);
}

void cfg_warning(struct cfg_section *s, const char *key, const char *fmt, ...)
{
    struct cfg *c = s->cfg;
    va_list ap;
    char *w;

    va_start(ap, fmt);
    w = cfg_section_msg(s, key, "warning: ", fmt, ap);
    va_end(ap);
    for (int i = 0; i < c->nwarnings; i++)
        if (strcmp(c->warnings[i], w) == 0) {
            free(w);
            return;
        }
    if (c->nwarnings >= CFG_MAX_ERRORS) {
        free(w);
        return;
    }
    c->warnings = xgrow(c->warnings, sizeof *c->warnings, c->nwarnings, &c->capwarnings, 8);
    c->warnings[c->nwarnings++] = w;
}

int cfg_warning_count(const struct cfg *c)
{
    return c->nwarnings;
}

const char *cfg_warning_at(const struct cfg *c, int i)
{
    return i >= 0 && i < c->nwarnings ? c->warnings[i] : NULL;
}

/* Each warning text once per process: the runs of a sweep rebuild the same
 * file, and forked workers inherit what the parent printed. */
static void cfg_print_new_warnings(const struct cfg *c, FILE *f)
{
    static char *printed[64];
    static int nprinted;

    for (int i = 0; i < c->nwarnings; i++) {
        int seen = 0;
        for (int j = 0; j < nprinted && !seen; j++)
            seen = strcmp(printed[j], c->warnings[i]) == 0;
        if (seen || nprinted == 64)
            continue;
        printed[nprinted++] = xstrdup(c->warnings[i]);
        fprintf(f, "%s\n", c->warnings[i]);
    }
}

/* ---- validation ------------------------------------------------------- */

void cfg_claim(struct cfg_section *s)
{
    s->claimed = 1;
}

void cfg_unchecked(struct cfg_section *s)
{
    s->unchecked = 1;
}

static int cfg_strcmp_p(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "flow, host, link": kinds of claimed sections, sorted, each once. */
static void cfg_known_kinds(const struct cfg *c, struct cfg_text *t)
{
    const char **v = xmalloc((size_t)c->nsections * sizeof *v + 1);
    int n = 0;

    for (int i = 0; i < c->nsections; i++)
        if (c->sections[i]->claimed)
            v[n++] = c->sections[i]->kind;
    qsort(v, (size_t)n, sizeof *v, cfg_strcmp_p);
    for (int i = 0; i < n; i++)
        if (i == 0 || strcmp(v[i], v[i - 1]) != 0)
            cfg_text_add(t, "%s%s", i ? ", " : "", v[i]);
    free(v);
}

static int cfg_was_asked(const struct cfg_section *s, const char *key)
{
    for (int i = 0; i < s->nasked; i++)
        if (!s->asked[i].pattern && strcmp(s->asked[i].key, key) == 0)
            return 1;
    return 0;
}

int cfg_finish(struct cfg *c)
{
    struct cfg_text kinds = { 0 };

    if (c->finished)
        return cfg_errors(c);
    c->finished = 1;
    cfg_print_new_warnings(c, stderr);
    cfg_known_kinds(c, &kinds);
    for (int i = 0; i < c->nsections; i++) {
        struct cfg_section *s = c->sections[i];
        struct cfg_text valid = { 0 };

        if (!s->claimed) {
            if (kinds.p)
                cfg_report(c, s->line, "unknown section [%s%s%s]; known kinds: %s", s->kind, cfg_sep(s), s->name, kinds.p);
            else
                cfg_report(c, s->line, "unknown section [%s%s%s]", s->kind, cfg_sep(s), s->name);
            continue;
        }
        if (s->unchecked)
            continue;
        /* a flow's keys are its app's: `netsim keys tcp_iperf3` */
        struct cfg_key *app = strcmp(s->kind, "flow") ? NULL : cfg_key_find(s, "app");
        const char *keys_arg = app && app->value[0] ? app->value : s->kind;
        bool listed = false;     /* the valid keys, listed at the first unknown one */
        for (int j = 0; j < s->nkeys; j++) {
            if (cfg_was_asked(s, s->keys[j].key))
                continue;
            if (!listed) {
                for (int a = 0; a < s->nasked; a++)
                    cfg_text_add(&valid, "%s%s", a ? ", " : "", s->asked[a].key);
                listed = true;
            }
            if (valid.p)
                cfg_report(c, s->keys[j].line, "[%s%s%s] unknown key '%s'; valid keys: %s (`netsim keys %s` "
                           "documents them)", s->kind, cfg_sep(s), s->name, s->keys[j].key, valid.p, keys_arg);
            else
                cfg_report(c, s->keys[j].line, "[%s%s%s] unknown key '%s'; this section takes no keys",
                           s->kind, cfg_sep(s), s->name, s->keys[j].key);
        }
        free(valid.p);
    }
    free(kinds.p);
    return cfg_errors(c);
}

void cfg_inert(struct cfg_section *s, const char *key, const char *selector, const char *fmt, ...)
{
    const struct cfg_key *k = cfg_key_find(s, key);
    if (!k)
        return;
    const struct cfg_key *sel = cfg_key_find(s, selector);
    char *why;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&why, fmt, ap) < 0)
        xoom();
    va_end(ap);
    if (k->from_axis && !(sel && sel->from_axis))
        cfg_error(s, key, "a sweep axis that changes nothing: %s; its runs would be one run under several labels",
                  why);
    else
        cfg_warning(s, key, "changes nothing: %s", why);
    free(why);
}
