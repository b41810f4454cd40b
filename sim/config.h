/*
 * config.h - scenario files: loading, typed access, validation.
 *
 * A scenario is an INI file (libinih). A section header is "[kind name]"
 * ("[host receiver]", "[link a]", "[flow 1]") or "[kind]" ("[sim]").
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
 *
 * File syntax (inih's, made strict): comments are lines starting with ';'
 * or '#', and inline "; comment" after whitespace ('#' is not an inline
 * comment). "key = value" or "key: value"; values are trimmed and may be
 * empty. Kind: a letter, then letters, digits, '_', '-'; name and key:
 * letters, digits, '_', '-', '.'. Indentation is ignored ("  key = v" is a
 * key); an indented line without '=' is the error "continuation lines are
 * not supported". Every line, comments included, is at most 198 characters
 * of UTF-8 text without control characters other than tab. Errors read
 * "file:line: ...", or "--set: ..." for a value given with cfg_override().
 */
#ifndef NETSIM_CONFIG_H
#define NETSIM_CONFIG_H

#include <stdint.h>
#include <stdio.h>
#include "sim/time.h"

struct cfg;
struct cfg_section;

/* Loads a file of at most CFG_MAX_FILE bytes (a regular file or a pipe;
 * a device or a directory is refused). Returns NULL only when out of
 * memory; syntax errors (bad section header, duplicate key or section, a
 * line too long or not UTF-8 text) are recorded as errors in the returned
 * cfg. A missing, unreadable or oversized file is an error too. */
#define CFG_MAX_FILE (4 * 1024 * 1024)
struct cfg *cfg_load(const char *path);
/* Loads from a string (tests); `name` is used as the file name in errors. */
struct cfg *cfg_load_string(const char *name, const char *text);
void cfg_free(struct cfg *c);

/* "--set section.key=value": section is "kind name" or "kind" with the
 * space written as a dot-free name: "receiver.ipfrag_high_thresh=4M" names
 * the section whose name is "receiver" (any kind), "sim.duration=1s" the
 * section of kind "sim". Creates the key if absent, replaces it if present.
 * A name is matched first (error if several sections have it, e.g. [link a]
 * and [host a]), then the kind of a nameless section. Everything between
 * the first '.' and the '=' is the key ("receiver.ipfrag.evictor=lru"), so
 * a section whose name contains '.' cannot be selected. Section, key and
 * value are trimmed. Errors about the value later read "--set: [host
 * receiver] key: ...".
 * Returns 0, or -1 with an error recorded (no such section, no '='). */
int cfg_override(struct cfg *c, const char *assignment);

/* Sections in file order. */
int cfg_section_count(const struct cfg *c);
struct cfg_section *cfg_section_at(const struct cfg *c, int i);
/* First section of that kind and name (name NULL or "" for "[kind]"). */
struct cfg_section *cfg_find(const struct cfg *c, const char *kind, const char *name);
/* The section [kind name], created empty (line 0) if the file has none:
 * objects that exist without a section of their own (a host named only by
 * a link) still read their keys, get defaults and record them. */
struct cfg_section *cfg_section_ensure(struct cfg *c, const char *kind, const char *name);
const char *cfg_kind(const struct cfg_section *s);
const char *cfg_name(const struct cfg_section *s);   /* "" when none */
int cfg_line(const struct cfg_section *s);           /* line of the header */
const char *cfg_file(const struct cfg *c);

/* Is the key present (given by the user)? Does not mark it known. */
int cfg_has(const struct cfg_section *s, const char *key);

/* Typed getters. `def` is a string in the same syntax as the file (so the
 * default is parsed, recorded and documented the same way), or NULL for a
 * required key (missing: error "missing key", reported on the first ask;
 * the getter returns 0, cfg_str ""). Range errors print the bounds in the
 * key's units ("expected 1us to 10s", "expected at least 64K"); a bound at
 * the type's limit (SIMTIME_NEVER, UINT64_MAX, INT64_MIN/MAX, +-DBL_MAX)
 * is open. cfg_str's string lives until the key's value is replaced
 * (cfg_override, cfg_set_value) or cfg_free(). cfg_choice matches exactly
 * (case-sensitive); on a bad value it returns the default's index. */
/* Every time is at most CFG_TIME_MAX whatever max says, so that the sums
 * the engine forms of a few of them stay far inside its 106-day clock. */
#define CFG_TIME_MAX (1000000 * PS_PER_S)
simtime_t   cfg_time(struct cfg_section *s, const char *key, const char *def, simtime_t min, simtime_t max);
uint64_t    cfg_rate(struct cfg_section *s, const char *key, const char *def);          /* > 0 */
uint64_t    cfg_size(struct cfg_section *s, const char *key, const char *def, uint64_t min, uint64_t max);
double      cfg_percent(struct cfg_section *s, const char *key, const char *def);       /* 0..1 */
int64_t     cfg_int(struct cfg_section *s, const char *key, const char *def, int64_t min, int64_t max);
double      cfg_double(struct cfg_section *s, const char *key, const char *def, double min, double max);
int         cfg_bool(struct cfg_section *s, const char *key, const char *def);
const char *cfg_str(struct cfg_section *s, const char *key, const char *def);
/* One of `choices` (NULL-terminated); returns its index. The error lists
 * them: "expected one of: reno, cubic, bbr". */
int         cfg_choice(struct cfg_section *s, const char *key, const char *def, const char *const *choices);
/* A sysctl vector such as tcp_rmem's "4096 87380 6291456": exactly n
 * whitespace-separated sizes (units as cfg_size) into out; 0, or -1 when
 * text is anything else (the caller says what it expected). */
int         cfg_split_sizes(const char *text, uint64_t *out, int n);

/* Errors. cfg_error() formats "file:line: [kind name] key: msg" using the
 * key's line (or the section's when key is absent), and "file:line: [kind
 * name]: msg" when key is NULL. cfg_error_global() records msg exactly
 * as given (start it with cfg_file(c) yourself).
 * cfg_errors() counts an out-of-memory as one more error. */
void cfg_error(struct cfg_section *s, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cfg_error_global(struct cfg *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int  cfg_errors(const struct cfg *c);
void cfg_print_errors(const struct cfg *c, FILE *f);

/* Warnings: a value that is valid but may not mean what its writer
 * thought. Recorded as "file:line: [kind name] key: warning: msg" (same
 * line rules as cfg_error); they do not count as errors. cfg_finish()
 * prints each new one to stderr, once per process, so a sweep that builds
 * the same file many times warns once. */
void cfg_warning(struct cfg_section *s, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int  cfg_warning_count(const struct cfg *c);
const char *cfg_warning_at(const struct cfg *c, int i);

/* Unknown keys: every key present in a section that no getter asked for is
 * an error listing the valid keys of that section. Sections of a kind no
 * component claimed (cfg_claim) are errors too, listing the known kinds.
 * Returns cfg_errors(c). */
void cfg_claim(struct cfg_section *s);
/* The component that reads this section's keys could not run (its app is
 * unknown, its hosts do not exist): its keys are not reported unknown,
 * because the one real mistake has been reported already. */
void cfg_unchecked(struct cfg_section *s);
int  cfg_finish(struct cfg *c);

/* Resolved parameters, in the order first asked: key is "kind name.key"
 * ("host receiver.cpu", "sim.duration"), value the text as given or the
 * default. A required key that is missing is not recorded. */
int  cfg_param_count(const struct cfg *c);
void cfg_param_at(const struct cfg *c, int i, const char **key, const char **value);

/* Any "${" in any value? Returns the first such section/key for the error
 * message (run refuses them; sweep expands them). */
int cfg_has_axes(const struct cfg *c, const struct cfg_section **s, const char **key);

/* Raw access for the sweep expander: key/value pairs of a section, in file
 * order (overrides appended); line is 0 for a key set with cfg_override. */
int  cfg_key_count(const struct cfg_section *s);
void cfg_key_at(const struct cfg_section *s, int i, const char **key, const char **value, int *line);
/* Replace a value in place (sweep expansion); an absent key is added with
 * the section's line. */
void cfg_set_value(struct cfg_section *s, const char *key, const char *value);

#endif
