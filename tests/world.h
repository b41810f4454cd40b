/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * world.h - for tests: build a small world from an INI string, and tear it
 * down. Include after <cmocka.h>; one world at a time per test program.
 */
#ifndef NETSIM_TESTS_WORLD_H
#define NETSIM_TESTS_WORLD_H

#include <stdio.h>
#include <string.h>
#include "sim/config.h"
#include "load/load.h"
#include "sim/sim.h"
#include "load/scenario.h"

static struct cfg *world_cfg;

/* A host's keys for a test whose rule is per segment (one skb a segment
 * on both paths, no TCP Small Queues): TSO, GSO, GRO and TSQ are on by
 * default, as on a 4.15 host with ixgbe. */
#define OFFLOADS_OFF "tso = off\ngso = off\ngro = off\ntcp.tsq = off\n"

/* Build a world from a scenario text; a scenario error fails the test. */
static inline struct sim *world_build(const char *ini)
{
    world_cfg = cfg_load_string("test.ini", ini);
    struct sim *s = sim_build(world_cfg, 0, false);
    if (cfg_errors(world_cfg))
        cfg_print_errors(world_cfg, stderr);
    assert_int_equal(cfg_errors(world_cfg), 0);
    return s;
}

/* The value of the run's counter `name`; a missing one fails the test. */
static inline uint64_t world_counter(struct sim *s, const char *name)
{
    char full[COUNTER_NAME_MAX];
    for (size_t i = 0; i < s->counters.n; i++) {
        counter_name(&s->counters.c[i], full, sizeof full);
        if (!strcmp(full, name))
            return *s->counters.c[i].value;
    }
    fail_msg("no counter %s", name);
    return 0;
}

/* Packets a NIC sent, over all its queues. */
static inline uint64_t world_nic_tx_packets(const struct nic *n)
{
    uint64_t p = 0;
    for (int q = 0; q < NIC_MAX_QUEUES; q++)
        p += n->vec[q].tx_packets;
    return p;
}

static inline void world_free(struct sim *s)
{
    sim_free(s);
    cfg_free(world_cfg);
    world_cfg = NULL;
}

#endif
