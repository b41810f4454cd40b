/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * scenario.h - a run's world built from a loaded scenario: hosts, links,
 * routes and flows, every key read through the getters of sim/config.h.
 */
#ifndef NETSIM_LOAD_SCENARIO_H
#define NETSIM_LOAD_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/sim.h"
/* A caller of sim_build() has loaded the scenario and reports on it:
 * cfg_load(), cfg_print_errors(), cfg_param_at() (cli/runner.c). */
#include "load/load.h"

struct cfg;

/* Build the world from a loaded scenario. Returns NULL when the scenario
 * has errors (already recorded in cfg). */
struct sim *sim_build(struct cfg *cfg, uint64_t seed_override, bool have_seed_override);
/* Whether sim_build reports on a terminal how far building the flows has
 * come, when that takes more than a second (10 000 flows and more); off
 * until `netsim run` turns it on for stderr on a terminal. */
void sim_build_progress(bool on);

#endif
