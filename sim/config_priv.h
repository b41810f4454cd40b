/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config_priv.h - what the pieces of the scenario-file implementation
 * share (the engine's store, sim/config_store.c, config_get.c and
 * config_report.c, and the loader's reader, load/config_read.c): the
 * structures behind the opaque struct cfg and struct cfg_section, and the
 * helpers more than one of them calls. Nothing else includes it.
 */
#ifndef NETSIM_CONFIG_PRIV_H
#define NETSIM_CONFIG_PRIV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sim/config_store.h"
#include "sim/xalloc.h"
#include "sim/strindex.h"

struct cfg_key {
    char *key;
    char *value;
    int line;              /* 0: set with cfg_override ("--set") */
    int axis_reported;     /* the "is a sweep axis" error was recorded */
    int from_axis;         /* set by a sweep axis (cfg_set_axis_value) */
};

/* What the first getter to ask for a key said about it: the key's row of
 * `netsim keys` (cfg_key_doc_at). doc and limits.choices are the caller's
 * and outlive the cfg (literals, static tables); def is a copy, kept
 * only once cfg_describe() was called, since ordinary runs never print
 * it. A pattern (cfg_pattern_time) is documented but is no valid key. */
struct cfg_ask {
    char *key;
    const char *doc;
    char *def;             /* describe mode only; NULL also for a required key */
    int type;              /* enum cfg_type (config_get.c) */
    int pattern;
    union {
        int64_t i;
        uint64_t u;
        double d;
    } lo, hi;
    const char *const *choices;
};

struct cfg_section {
    struct cfg *cfg;
    char *kind;
    char *name;            /* "" for "[kind]" */
    int line;
    int claimed;
    int unchecked;         /* cfg_unchecked(): no unknown-key report */
    bool as_switch;        /* written [switch NAME]: a host with a switch's defaults */
    int shared_name;       /* another kind has a section of this name: --set
                            * cannot select it by name alone */
    struct cfg_key *keys;  /* in file order; overrides appended */
    int nkeys;
    size_t capkeys;
    struct strindex kindex;   /* key name -> keys[] */
    struct cfg_ask *asked; /* keys a getter asked for, in ask order: the valid keys */
    int nasked;
    size_t capasked;
    struct strindex aindex;   /* asked key -> asked[]: a build asks a host section
                               * a hundred keys, each once per run of a sweep */
};

struct cfg_param {
    char *key;             /* as --set takes it: "name.key", "sim.key" */
    char *value;
};

struct cfg {
    char *file;
    char source_hash[17];  /* FNV-1a of the bytes parsed, hex (cfg_source_hash) */
    struct cfg_section **sections;
    int nsections;
    size_t capsections;
    struct strindex sindex;   /* kind, name -> sections[] */
    struct strindex nindex;   /* name -> the first section of that name */
    char **errors;
    int nerrors;
    size_t caperrors;
    int more_errors;       /* past CFG_MAX_ERRORS: counted, not kept */
    char **warnings;
    int nwarnings;
    size_t capwarnings;
    struct cfg_param *params;
    int nparams;
    size_t capparams;
    int finished;          /* cfg_finish() ran: do not report twice */
    int describe;          /* cfg_describe(): the getters keep each key's default text */
};

#define CFG_MAX_LINE 198         /* inih's INI_MAX_LINE (200) less the newline and NUL */

/* A growing string for messages built from lists. */
struct cfg_text {
    char *p;
    size_t len;
};

/* ---- config_store.c: memory, sections and keys --------------------------- */

/* Memory comes from the x-allocators (sim/xalloc.h): out of memory ends
 * the process with their message, as everywhere else. */
char *cfg_vformat(const char *fmt, va_list ap);
void cfg_text_add(struct cfg_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The n (at most 8) strings of parts end to end, in a new string: what a
 * "%s.%s" would make, without printf's cost for the thousands of keys a
 * scenario of many flows asks. */
char *cfg_concat(const char *const *parts, int n);
const char *cfg_sep(const struct cfg_section *s);

/* An empty cfg whose errors name the file `name` (NULL: "(string)"). */
struct cfg *cfg_new(const char *name);
/* Appends a section (line 0: not in the file). */
struct cfg_section *cfg_section_add(struct cfg *c, const char *kind, size_t nkind,
                                    const char *name, size_t nname, int line);
/* The section [kind name] through the index, or NULL. */
struct cfg_section *cfg_findn(const struct cfg *c, const char *kind, size_t nkind,
                              const char *name, size_t nname);

struct cfg_key *cfg_key_find(const struct cfg_section *s, const char *key);
/* Appends key = value at line (0: --set). */
struct cfg_key *cfg_key_add(struct cfg_section *s, const char *key, const char *value, int line);
/* A new value for k (its line stays). */
void cfg_key_replace(struct cfg_key *k, const char *value);

/* ---- config_report.c: errors --------------------------------------------- */

/* Records "file:LINE: msg"; LINE 0 gives "--set: msg" (a value from the
 * command line), LINE -1 "file: msg". */
void cfg_report(struct cfg *c, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
