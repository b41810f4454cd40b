/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config_store.h - a whole scenario in memory, for whoever holds one
 * (the loader, the command line, the tests): its sections and keys in file
 * order, the errors and warnings recorded, the final check for unknown
 * keys, the resolved parameters a run reports, and the key reference.
 * The store lives in the engine (sim/config_store.c, config_get.c,
 * config_report.c) so that the getters components call (sim/config.h)
 * are the engine's own; reading files and "--set" are the loader's
 * (load/load.h, which includes this). Components see only sim/config.h.
 */
#ifndef NETSIM_CONFIG_STORE_H
#define NETSIM_CONFIG_STORE_H

#include <stdio.h>
#include "sim/config.h"

void cfg_free(struct cfg *c);

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
