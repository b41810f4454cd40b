/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep_pool.h - a sweep's worker pool: the selected runs, -j at a time,
 * each in a worker process, copied into the output in run order.
 */
#ifndef NETSIM_CLI_SWEEP_POOL_H
#define NETSIM_CLI_SWEEP_POOL_H

#include "cli/sweep_ctx.h"

struct rec;

/* Runs the selected runs into dst; kept is only for the summary. Returns
 * the exit status. */
int sweep_run_pool(struct sweep_ctx *x, struct rec *dst, int kept);

#endif
