/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_group.h - a report's rows: the runs grouped into combinations
 * of the axes, each summarized, or paired across one axis (--compare).
 */
#ifndef NETSIM_CLI_REPORT_GROUP_H
#define NETSIM_CLI_REPORT_GROUP_H

#include "cli/report_model.h"
#include "cli/stats.h"

/* Without --compare: a row per combination, over its runs but those
 * repeating the seed, rep and parameters of an earlier one. */
struct combo_row {
    size_t n;                   /* runs counted */
    int64_t *ids;               /* their ids */
    struct stats_summary sum;   /* of their goodput */
};

struct combo_report {
    struct combos cs;
    struct combo_row *rows;     /* one per cs.c[] */
    size_t repeated;            /* runs left out as repeats */
};

/* Groups and summarizes d's runs; warns (stderr) about mixed rows. */
void group_combinations(const struct rdb *d, struct combo_report *r);
void combo_report_free(struct combo_report *r);

struct compare_spec {
    char *axis, *a, *b;         /* one malloc'ed buffer: axis */
};

/* --compare: a row per combination of the other axes, its B runs paired
 * with its A runs by rep. */
struct compare_row {
    size_t n, unpaired;         /* pairs compared; runs without a partner */
    struct stats_paired p;
};

struct compare_report {
    struct compare_spec cmp;
    int ax;                     /* the axis compared */
    char *moves;                /* per axis: moves with ax (mark_lockstep) */
    struct combos cs;
    struct compare_row *rows;   /* one per cs.c[] */
    size_t unpaired, repeated, zero_a, without;   /* runs left out, by reason */
};

/* Parses "AXIS=A,B", groups and pairs d's runs and compares each row.
 * Returns 0, or 2 (bad usage) after saying why; compare_report_free()
 * either way. */
int group_compare(const struct rdb *d, const char *arg, struct compare_report *r);
void compare_report_free(struct compare_report *r);

#endif
