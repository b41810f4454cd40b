/*
 * scenario.h - a run's world built from a loaded scenario: hosts, links,
 * routes and flows, every key read through the getters of sim/config.h.
 */
#ifndef NETSIM_LOAD_SCENARIO_H
#define NETSIM_LOAD_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include "sim/sim.h"

struct cfg;

/* Build the world from a loaded scenario. Returns NULL when the scenario
 * has errors (already recorded in cfg). */
struct sim *sim_build(struct cfg *cfg, uint64_t seed_override, bool have_seed_override);

#endif
