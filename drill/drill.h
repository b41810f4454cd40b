/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drill.h - `netsim drill SCRIPT...`: packetdrill scripts run against
 * netsim's TCP (docs/conformance.md). The command (drill_cmd.c) parses
 * each script (parse.c), runs it (run.c) and says pass, fail or
 * unsupported.
 */
#ifndef NETSIM_DRILL_H
#define NETSIM_DRILL_H

/* Exit statuses: every script passed; one failed (or did not parse);
 * none failed but one used what netsim cannot run (automake's "skip") */
enum { DRILL_PASS = 0, DRILL_FAIL = 1, DRILL_USAGE = 2, DRILL_UNSUPPORTED = 77 };

int cmd_drill(int argc, char **argv);

#endif
