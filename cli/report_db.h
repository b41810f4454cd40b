/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_db.h - reading a results database into the report's model
 * (report_model.h): its complete runs, their axes and one metric.
 */
#ifndef NETSIM_CLI_REPORT_DB_H
#define NETSIM_CLI_REPORT_DB_H

#include "cli/report_model.h"

/* Opens DB read-only and reads it, measuring u. Returns 0, or 1 after
 * saying why; rdb_free() either way. */
int rdb_load(struct rdb *d, const char *path, const struct metric_use *u);
void rdb_free(struct rdb *d);

#endif
