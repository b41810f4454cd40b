/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config.h - what a component (the engine in sim/, a model in models/)
 * sees of a scenario: its section, read through typed getters, and the
 * errors and warnings it reports about it. Iteration and the final
 * check are for whoever holds the whole scenario (sim/config_store.h);
 * loading files and overrides are the loader's (load/load.h).
 *
 * A scenario is an INI file. A section header is "[kind name]" ("[host
 * receiver]", "[link a]", "[flow 1]") or "[kind]" ("[sim]").
 *
 * Components never see raw strings: they ask for a key with a typed getter
 * and a default. A getter
 *   - marks the key as known for that section (so the list of valid keys in
 *     an "unknown key" error is exactly what the components asked for),
 *   - parses the value with its unit (units.h) and checks the range,
 *   - records the resolved value (given or default) for the `param` table,
 *   - on a bad value records an error "file:line: [kind name] key: got 'x',
 *     expected ..." and returns the default, so that building goes on and
 *     the user sees every error at once.
 * After building, cfg_finish() reports keys nobody asked for. Nothing runs
 * while cfg_errors() is non-zero (exit status 2).
 *
 * Sweep axes ("${...}") are kept verbatim by the loader; a getter that meets
 * one records the error "is a sweep axis: use `netsim sweep`".
 */
#ifndef NETSIM_CONFIG_H
#define NETSIM_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include "sim/time.h"

struct cfg;
struct cfg_section;

/* Is the key present (given by the user)? Does not mark it known. */
int cfg_has(const struct cfg_section *s, const char *key);
/* Is the scenario being built only to list its keys (`netsim keys`)?
 * Keys read only when present are then read anyway, to be listed. */
int cfg_describing(const struct cfg_section *s);

/* Typed getters. `def` is a string in the same syntax as the file (so the
 * default is parsed, recorded and documented the same way), or NULL for a
 * required key (missing: error "missing key", reported on the first ask;
 * the getter returns 0, cfg_str ""). Range errors print the bounds in the
 * key's units ("expected 1us to 10s", "expected at least 64K"); a bound at
 * the type's limit (SIMTIME_NEVER, UINT64_MAX, INT64_MIN/MAX, +-DBL_MAX)
 * is open. cfg_str's string lives until the key's value is replaced
 * (cfg_override, cfg_set_value) or cfg_free(). cfg_choice matches exactly
 * (case-sensitive); on a bad value it returns the default's index.
 *
 * `doc` is the key's line in `netsim keys`, docs/reference/keys.md and
 * netsim-scenario(5): what the key does, in one line, and where its default
 * comes from when the code says (a sysctl's kernel default, a datasheet).
 * The first getter to ask for a key documents it, together with its type's
 * unit, its default and its range, so the reference is the validator's own
 * table. A default the caller computes (from another key, the host's cores)
 * is shown as written at the head of doc between braces, "{duration} ...";
 * "{D|R}" also replaces the range column with R. doc must outlive every cfg
 * (a literal, a static table); NULL only in tests. */
/* Every time is at most CFG_TIME_MAX whatever max says, so that the sums
 * the engine forms of a few of them stay far inside its 106-day clock. */
#define CFG_TIME_MAX (1000000 * PS_PER_S)
simtime_t   cfg_time(struct cfg_section *s, const char *key, const char *def, simtime_t min, simtime_t max,
                     const char *doc);
/* A sampling period: 0 (none) or 1us to max. Each sample is a few rows
 * and an event, so a period of picoseconds would run for minutes. */
simtime_t   cfg_period(struct cfg_section *s, const char *key, const char *def, simtime_t max, const char *doc);
uint64_t    cfg_rate(struct cfg_section *s, const char *key, const char *def, const char *doc);          /* > 0 */
uint64_t    cfg_size(struct cfg_section *s, const char *key, const char *def, uint64_t min, uint64_t max,
                     const char *doc);
double      cfg_percent(struct cfg_section *s, const char *key, const char *def, const char *doc);       /* 0..1 */
int64_t     cfg_int(struct cfg_section *s, const char *key, const char *def, int64_t min, int64_t max,
                    const char *doc);
double      cfg_double(struct cfg_section *s, const char *key, const char *def, double min, double max,
                       const char *doc);
int         cfg_bool(struct cfg_section *s, const char *key, const char *def, const char *doc);
const char *cfg_str(struct cfg_section *s, const char *key, const char *def, const char *doc);
/* One of `choices` (NULL-terminated, outliving the cfg like doc); returns
 * its index. The error lists them: "expected one of: reno, cubic, bbr". */
int         cfg_choice(struct cfg_section *s, const char *key, const char *def, const char *const *choices,
                       const char *doc);
/* A family of keys read only when present (cost.SYMBOL: one per CPU cost
 * symbol): documented as one row named `pattern`, as cfg_time would
 * document it, but not itself a valid key. */
void        cfg_pattern_time(struct cfg_section *s, const char *pattern, const char *def, simtime_t min,
                             simtime_t max, const char *doc);
/* The same for a family of text keys (a qdisc's class.MINOR). */
void        cfg_pattern_str(struct cfg_section *s, const char *pattern, const char *doc);
/* A sysctl vector such as tcp_rmem's "4096 87380 6291456": exactly n
 * whitespace-separated sizes (units as cfg_size) into out; 0, or -1 when
 * text is anything else (the caller says what it expected). */
int         cfg_split_sizes(const char *text, uint64_t *out, int n);

/* The scenario file the section came from ("" for a store built in
 * memory): a data file a key names is found beside it. */
const char *cfg_section_file(const struct cfg_section *s);

/* Errors. cfg_error() formats "file:line: [kind name] key: msg" using the
 * key's line (or the section's when key is absent), and "file:line: [kind
 * name]: msg" when key is NULL. cfg_errors() counts them. */
void cfg_error(struct cfg_section *s, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int  cfg_errors(const struct cfg *c);

/* A fact the components derived, recorded with the run's parameters as
 * section.key = value (what a release profile models, say); not a key:
 * a file that sets it is told the key is unknown. */
void cfg_record(struct cfg_section *s, const char *key, const char *value);

/* Warnings: a value that is valid but may not mean what its writer
 * thought. Recorded as "file:line: [kind name] key: warning: msg" (same
 * line rules as cfg_error); they do not count as errors. cfg_finish()
 * prints each new one to stderr, once per process, so a sweep that builds
 * the same file many times warns once. */
void cfg_warning(struct cfg_section *s, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A key the file sets that changes nothing in this build, because it
 * belongs to a variant `selector` did not choose (ipfrag.scope is
 * drop-new's; this host's ipfrag.evictor is lru). A warning, since the
 * file may be one written for several variants; an error when the key is
 * a sweep axis and the selector is not, since the axis's runs would be
 * one run under several labels. Nothing when the key is absent. */
void cfg_inert(struct cfg_section *s, const char *key, const char *selector, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Unknown keys: every key present in a section that no getter asked for is
 * an error listing the valid keys of that section; sections of a kind no
 * component claimed are errors too, listing the known kinds (cfg_finish). */
void cfg_claim(struct cfg_section *s);
/* The component that reads this section's keys could not run (its app is
 * unknown, its hosts do not exist): its keys are not reported unknown,
 * because the one real mistake has been reported already. */
void cfg_unchecked(struct cfg_section *s);

/* A range in a word, as a scenario's templates write it: "s{1..16}" is
 * s1 ... s16 (bash's brace expansion of one numeric range). Returns 1 and
 * the prefix's length, the bounds and the suffix when w (n bytes) is one
 * such word (lo <= hi, at most CFG_RANGE_MAX values), 0 when it has no
 * "{" at all, -1 when its braces are not a range (why: a sentence). */
#define CFG_RANGE_MAX 4096
int cfg_range(const char *w, size_t n, size_t *pre, long *lo, long *hi, const char **suffix, const char **why);

#endif
