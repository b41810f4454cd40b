/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json.h - the two JSON value writers every --json output needs: strings
 * with RFC 8259 escapes, and numbers that round-trip exactly.
 */
#ifndef NETSIM_JSON_H
#define NETSIM_JSON_H

#include <stdio.h>

/* A quoted, escaped string; NULL prints null. */
void json_str(FILE *f, const char *s);
/* The shortest of %.15g, %.16g, %.17g that reads back as the same double
 * (0.1 prints as 0.1, every value round-trips); NaN and inf print null. */
void json_num(FILE *f, double v);

#endif
