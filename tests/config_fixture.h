/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config_fixture.h - for the config tests: load a scenario text, and
 * compare the errors it recorded with the text a user sees.
 */
#ifndef NETSIM_TESTS_CONFIG_FIXTURE_H
#define NETSIM_TESTS_CONFIG_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim/config.h"
#include "load/load.h"

/* All recorded errors as cfg_print_errors() prints them. */
static inline char *errors_text(const struct cfg *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    assert_non_null(f);
    cfg_print_errors(c, f);
    fclose(f);
    return buf;
}

static inline void expect_errors(const struct cfg *c, const char *want)
{
    char *got = errors_text(c);
    assert_string_equal(got, want);
    free(got);
}

static inline struct cfg *load(const char *text)
{
    struct cfg *c = cfg_load_string("t.ini", text);
    assert_non_null(c);
    return c;
}

static const char *const SCENARIO =
    "; a scenario\n"                        /* 1 */
    "[sim]\n"                               /* 2 */
    "duration = 20s\n"                      /* 3 */
    "\n"                                    /* 4 */
    "[host receiver]\n"                     /* 5 */
    "cpu = xeon-2012   ; inline comment\n"  /* 6 */
    "ipfrag_high_thresh = 4M\n"             /* 7 */
    "ipfrag.evictor = lru\n"                /* 8 */
    "# another comment\n"                   /* 9 */
    "[link a]\n"                            /* 10 */
    "ends = sender1:eth0 receiver:eth0\n"   /* 11 */
    "rate: 10gbit\n"                        /* 12 */
    "[flow 1]\n"                            /* 13 */
    "app = udp_stream\n";                   /* 14 */

#endif
