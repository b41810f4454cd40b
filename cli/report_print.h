/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_print.h - a report's rows as tables with their notes, or as
 * one JSON document, on stdout.
 */
#ifndef NETSIM_CLI_REPORT_PRINT_H
#define NETSIM_CLI_REPORT_PRINT_H

#include "cli/report_group.h"

/* The rows as a table with notes, or as one JSON document, on stdout. */
void print_combinations(const struct rdb *d, const struct combo_report *r, int json);
void print_compare(const struct rdb *d, const struct compare_report *r, int json);

#endif
