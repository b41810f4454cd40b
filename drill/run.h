/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run.h - one script run against a world of its own (drill/run.c).
 */
#ifndef NETSIM_DRILL_RUN_H
#define NETSIM_DRILL_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include "drill/script.h"

struct drill_opts {
    int64_t tolerance_us;         /* packetdrill's --tolerance_usecs */
    bool verbose;
    const char *kernel;           /* --kernel: the local host's release profile, or NULL (4.15) */
};

/* Runs s: DRILL_PASS, DRILL_FAIL or DRILL_UNSUPPORTED (drill.h), with
 * "path:line: why" in msg for the last two. */
int drill_run(const struct drill_script *s, const struct drill_opts *o, char *msg, int len);
/* --tolerance_usecs's value: a whole number of microseconds up to 10^12
 * (as the scripts' times, at most 10^6 s); false for anything else */
bool drill_tolerance_parse(const char *v, int64_t *us);

#endif
