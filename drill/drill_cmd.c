/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drill_cmd.c - `netsim drill [OPTIONS] SCRIPT...`: each script parsed,
 * then run against a fresh world (drill/run.c), one line of verdict each:
 *
 *   pass  PATH
 *   FAIL  PATH:LINE: what was expected, what came
 *   unsupported  PATH:LINE: unsupported: WHAT
 *
 * --parse only parses (the grammar's coverage of a suite: the scripts
 * that do not parse are listed with the error). Exit status: 0 every
 * script passed, 1 one failed or did not parse, 77 none failed but one
 * is unsupported, 2 bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "drill/drill.h"
#include "drill/run.h"
#include "drill/script.h"
#include "models/tcp/tcp_api.h"

static const char usage[] =
    "usage: netsim drill [--parse] [--tolerance_usecs=N] [--kernel=RELEASE] [-v] SCRIPT...\n"
    "  runs packetdrill scripts against netsim's TCP (docs/conformance.md)\n"
    "  --parse               only parse the scripts\n"
    "  --tolerance_usecs=N   timing tolerance of expected events (default 4000)\n"
    "  --kernel=RELEASE      the host under test runs that release's profile (kernel = RELEASE:\n"
    "                        4.15, the default, 4.16, 6.1, ...; docs/models/kernels.md)\n"
    "  -v                    print each event as it runs\n"
    "  exit status: 0 all passed, 1 a failure, 77 none failed but one is unsupported\n";

int cmd_drill(int argc, char **argv)
{
    struct drill_opts o = { .tolerance_us = 4000 };
    bool parse_only = false;
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        const char *a = argv[first];
        if (!strcmp(a, "--parse"))
            parse_only = true;
        else if (!strncmp(a, "--tolerance_usecs=", 18)) {
            if (!drill_tolerance_parse(a + 18, &o.tolerance_us)) {
                fprintf(stderr, "netsim drill: %s: expected a whole number of microseconds, 0 to 10^12\n", a);
                return DRILL_USAGE;
            }
        }
        else if (!strncmp(a, "--kernel=", 9)) {
            char list[128];
            if (!tcp_api_kernel_known(a + 9, list, sizeof list)) {
                fprintf(stderr, "netsim drill: %s: expected a release netsim models: %s\n", a, list);
                return DRILL_USAGE;
            }
            o.kernel = a + 9;
        }
        else if (!strcmp(a, "-v"))
            o.verbose = true;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        } else {
            fprintf(stderr, "netsim drill: unknown option %s\n%s", a, usage);
            return DRILL_USAGE;
        }
    }
    if (first == argc) {
        fputs(usage, stderr);
        return DRILL_USAGE;
    }
    int pass = 0, fail = 0, unsup = 0;
    for (int i = first; i < argc; i++) {
        char err[512];
        struct drill_script *s = drill_parse_file(argv[i], err, sizeof err);
        if (!s) {
            printf("FAIL  %s\n", err);
            fail++;
            continue;
        }
        if (parse_only) {
            pass++;
            drill_script_free(s);
            continue;
        }
        char msg[1024];
        int r = drill_run(s, &o, msg, sizeof msg);
        if (r == DRILL_PASS) {
            printf("pass  %s\n", argv[i]);
            pass++;
        } else if (r == DRILL_UNSUPPORTED) {
            printf("unsupported  %s\n", msg);
            unsup++;
        } else {
            printf("FAIL  %s\n", msg);
            fail++;
        }
        drill_script_free(s);
    }
    if (argc - first > 1)
        printf("%d scripts: %d %s, %d failed, %d unsupported\n", argc - first, pass, parse_only ? "parsed" : "passed",
               fail, unsup);
    return fail ? DRILL_FAIL : unsup ? DRILL_UNSUPPORTED : DRILL_PASS;
}
