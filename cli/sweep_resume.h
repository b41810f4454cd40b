/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep_resume.h - before a sweep's runs: what earlier sweeps left in or
 * beside the output database, kept (--resume) or refused.
 */
#ifndef NETSIM_CLI_SWEEP_RESUME_H
#define NETSIM_CLI_SWEEP_RESUME_H

#include <stdbool.h>
#include "cli/sweep_ctx.h"

/* Each returns 0, or the exit status with the message printed; *kept
 * counts the runs kept (and unselected). */
int sweep_prepare_output(struct sweep_ctx *x, bool resume, int *kept);
int sweep_take_leftovers(struct sweep_ctx *x, const char *wanted, bool resume, int *kept);

#endif
