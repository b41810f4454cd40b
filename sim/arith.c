/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * arith.c - what the check-arith build does with an overflow that
 * sim/arith.h's helpers caught: stop at once with the call site, as the
 * sanitizers do, so that the physics matrix's cell fails.
 */
#include "sim/arith.h"

#ifdef NETSIM_CHECK_ARITH
#include <stdio.h>
#include <stdlib.h>

void arith_overflow(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: arithmetic overflow: %s\n", file, line, what);
    abort();
}
#endif
