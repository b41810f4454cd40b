/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * load.h - scenario files for the loader, the command line and the tests:
 * reading a file or a string into a scenario, and "--set" overrides. What
 * is done with the scenario once read (sections and keys in file order,
 * the final check for unknown keys, the errors and resolved parameters a
 * run reports) is the engine's store, sim/config_store.h, which this
 * includes. Components see only sim/config.h.
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
#include "sim/config_store.h"

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

#endif
