/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drs_triple.c - an out-of-tree tcp.drs variant for the EXTRA_MODELS test
 * (tests/scenario/variants.sh): `continuous` with the growth tripled,
 * rcvwin + 3 x rcvwin x (copied - space) / space. Not a kernel rule.
 */
#include "models/tcp/tcp.h"

static uint64_t grow(uint64_t rcvwin, uint64_t copied, uint64_t space)
{
    uint64_t g = rcvwin * (copied - space) / space;   /* caller ensures copied > space */
    return rcvwin + 3 * g;
}

const struct tcp_drs_ops tcp_drs_triple = {
    .name = "triple",
    .doc = "test variant: continuous with 3 x the growth (tests/extra_models)",
    .grow = grow,
};
VARIANT("tcp.drs", tcp_drs_triple);
