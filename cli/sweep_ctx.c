/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep_ctx.c - what every piece of a sweep computes alike (sweep_ctx.h):
 * a run's scenario from the file, the overrides and its axis values, and
 * the clock the progress line and the summary read.
 */
#include <time.h>
#include "cli/sweep_ctx.h"
#include "load/load.h"
#include "load/sweep.h"
#include "sim/xalloc.h"

double sweep_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct cfg *sweep_run_cfg(const struct sweep_ctx *x, int run)
{
    struct cfg *c = cfg_load_bytes(x->path, x->text, x->len);
    for (int i = 0; i < x->nsets; i++)
        cfg_override(c, x->sets[i]);
    sweep_apply(c, x->sw, run);
    return c;
}
