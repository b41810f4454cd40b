/*
 * load.h - scenario files for the loader, the command line and the tests:
 * loading, "--set" overrides, sections and keys in file order, the final
 * check for unknown keys, and the errors and resolved parameters a run
 * reports. Components see only sim/config.h, which this includes.
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
#ifndef NETSIM_LOAD_LOAD_H
#define NETSIM_LOAD_LOAD_H

#include <stdio.h>
#include "sim/config.h"

/* Loads a file of at most CFG_MAX_FILE bytes (a regular file or a pipe;
 * a device or a directory is refused). Never NULL; syntax errors (bad section header, duplicate key or section, a
 * line too long or not UTF-8 text) are recorded as errors in the returned
 * cfg. A missing, unreadable or oversized file is an error too. */
/* 16 MiB: room for 100 000 flow sections of 80 bytes and more, which load
 * in about half a second; a larger file is not a scenario anyone wrote. */
#define CFG_MAX_FILE (16 * 1024 * 1024)
struct cfg *cfg_load(const char *path);
/* Loads from a string (tests); `name` is used as the file name in errors. */
struct cfg *cfg_load_string(const char *name, const char *text);
/* The bytes of a scenario file, read once, with the checks cfg_load
 * makes (NUL-terminated, *len without it); NULL with *why (malloc'ed) when
 * it cannot be used. A pipe cannot be read twice: a command that loads a
 * scenario more than once (a sweep's runs) reads it with this and loads
 * each time with cfg_load_bytes. */
char *cfg_read(const char *path, size_t *len, char **why);
/* Loads len bytes of text as the file `name`. */
struct cfg *cfg_load_bytes(const char *name, const char *text, size_t len);
/* The version of the scenario a cfg was loaded from: FNV-1a over the
 * bytes parsed, 16 hex digits (the run table's scenario_hash). */
const char *cfg_source_hash(const struct cfg *c);
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

/* cfg_error_global() records msg exactly as given (start it with
 * cfg_file(c) yourself); cfg_print_errors() writes every error, a line
 * each. */
void cfg_error_global(struct cfg *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cfg_print_errors(const struct cfg *c, FILE *f);

/* The warnings recorded (cfg_warning), in order. */
int  cfg_warning_count(const struct cfg *c);
const char *cfg_warning_at(const struct cfg *c, int i);

/* After building: prints the new warnings and records the unknown keys
 * and sections (cfg_claim, cfg_unchecked). Returns cfg_errors(c). */
int  cfg_finish(struct cfg *c);

/* Resolved parameters, in the order first asked: key is "kind name.key"
 * ("host receiver.cpu", "sim.duration"), value the text as given or the
 * default. A required key that is missing is not recorded. */
int  cfg_param_count(const struct cfg *c);
void cfg_param_at(const struct cfg *c, int i, const char **key, const char **value);

/* The key reference (`netsim keys`): after cfg_describe(c) the getters
 * also keep each key's default text, and a section's keys read as rows of
 * what the first getter to ask said: unit from its type ("time", "bytes",
 * "bit/s", "%", "integer", "number", "on/off", "choice", "text"), default
 * (NULL: required), range as an error would write it ("1 to 64", "at
 * least 1us", "cubic, bbr, reno"; "" when any value of the unit goes), and
 * doc (sim/config.h). Rows are in ask order; d's strings live as long as
 * the section. */
struct cfg_key_doc {
    const char *key, *unit, *def, *doc;
    int pattern;                 /* cfg_pattern_time: a family of keys, no key itself */
    char range[512];
};
void cfg_describe(struct cfg *c);
int  cfg_key_doc_count(const struct cfg_section *s);
void cfg_key_doc_at(const struct cfg_section *s, int i, struct cfg_key_doc *d);

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
/* The same for one combination's value of a sweep axis, which cfg_inert
 * then knows was swept. */
void cfg_set_axis_value(struct cfg_section *s, const char *key, const char *value);

#endif
