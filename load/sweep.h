/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep.h - expansion of a scenario's sweep axes into numbered runs.
 *
 * OMNeT++'s iteration variables, kept to what scenarios need:
 *   key = ${a, b, c}            an axis named after its key ("msg_size")
 *   key = ${name=a, b, c}       an axis named "name"
 *   key = ${x, y ! name}        varies in lockstep with the axis "name"
 *                               (same number of values; it may be named
 *                               too: ${low=x, y ! high})
 * The ${...} must be the whole value; values are split at ',' and trimmed.
 * An unnamed axis whose key is already an axis name is named
 * "section.key" ("2.msg_size" for [flow 2]).
 *
 * Axes that are not in lockstep multiply, in order of first appearance in
 * the file (overrides from --set come after the file's keys of their
 * section), the last one varying fastest. [sim] repeat = R repeats every
 * combination R times; replication r (0-based) runs on the seed
 * rng_rep_seed(base, r) for every combination, base being [sim] seed (its
 * value in that combination if seed is itself an axis), so combinations
 * are compared on the same random streams (paired comparison).
 *
 * Runs are numbered 1..combinations*repeat, combination-major: run
 * (c * R + r + 1) is combination c, replication r. Each run has a label
 * "name=value,name=value" over every axis in file order (lockstep ones
 * included) and the params "axis.NAME" = value to record.
 *
 * Values are not checked here: applying a run and building it (sim_build)
 * does that with the usual messages. Only the axes' syntax is.
 */
#ifndef NETSIM_SWEEP_H
#define NETSIM_SWEEP_H

#include <stddef.h>
#include <stdint.h>

struct cfg;
struct sweep;

/* The most runs one sweep may have. */
#define SWEEP_MAX_RUNS 1000000

/* Reads the axes of a loaded (and overridden) scenario. On an axis error
 * records "file:line: [kind name] key: ..." with cfg_error and returns
 * NULL (also when out of memory). c is only read; the sweep keeps copies
 * of what it needs, so c may be freed before the sweep. A scenario without
 * axes gives one combination. */
struct sweep *sweep_expand(struct cfg *c);
void sweep_free(struct sweep *sw);
/* --set NAME=VALUE on `netsim sweep`, NAME an axis: the axis keeps only
 * VALUE (one of its values), and every axis in lockstep with it its value
 * of the same place, so that one combination of a sweep can be run
 * alone, the template copies following. 0, or -1 with why (err, n
 * bytes) and the sweep unchanged. */
int sweep_pick(struct sweep *sw, const char *name, const char *value, char *err, size_t n);

int sweep_count(const struct sweep *sw);          /* runs */
int sweep_combinations(const struct sweep *sw);
int sweep_repeat(const struct sweep *sw);

/* Axes in file order. */
int sweep_axis_count(const struct sweep *sw);
const char *sweep_axis_name(const struct sweep *sw, int i);
int sweep_axis_values(const struct sweep *sw, int i);
/* The axis this one moves with (its root: lockstep chains are followed),
 * or -1 for an axis of its own. */
int sweep_axis_lockstep(const struct sweep *sw, int i);

/* Per run, 1 <= run <= sweep_count(). */
int sweep_combination(const struct sweep *sw, int run);   /* 0-based */
int sweep_rep(const struct sweep *sw, int run);           /* 0-based */
uint64_t sweep_seed(const struct sweep *sw, int run);
const char *sweep_label(const struct sweep *sw, int run); /* "" without axes */
/* "axis.NAME", value, ..., NULL: ready for run_opts.extra_params (an
 * axis folded into its lockstep root, with the same values, is left out). */
const char *const *sweep_params(const struct sweep *sw, int run);

/* Sets every axis key of c (a fresh load of the same scenario with the
 * same overrides) to its value in that run, with cfg_set_value: the key
 * keeps its line for error messages. */
void sweep_apply(struct cfg *c, const struct sweep *sw, int run);

#endif
