/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * invariant.c - what a broken invariant prints (invariant.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include "sim/invariant.h"

void invariant_failed(const char *cond, const char *file, int line, const char *func)
{
    fprintf(stderr, "netsim: invariant broken at %s:%d (%s): %s\n", file, line, func, cond);
    abort();
}
