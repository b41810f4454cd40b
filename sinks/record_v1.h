/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record_v1.h - reading and upgrading results databases of schema
 * version 1 (netsim before version 2 keyed results as users type them).
 *
 * Version 1 differs from version 2 in four spellings, each undone by one
 * SQL expression below, so that the views a reader puts over an old file,
 * the upgrade of a file a writer opens, and a copy out of an old file
 * (merge) all read it the same way:
 *   param.key      "host sender.tcp.cc", "flow 1.time": now as --set takes
 *                  them, "sender.tcp.cc", "1.time" (a name that two kinds
 *                  share keeps its kind, as --set would refuse it);
 *   counter.value  REAL: now INTEGER, beside is_drop (NULL for old rows:
 *                  version 1 did not record which counters count drops);
 *   profile.host   "lo/cpu0" for one core's rows: now host "lo", cpu 0
 *                  (NULL for the host's own rows);
 *   series.name    ping's "flow1.rtt_us": now "flow.1.rtt_us".
 */
#ifndef NETSIM_RECORD_V1_H
#define NETSIM_RECORD_V1_H

#include <sqlite3.h>

/* The kind and name of a v1 parameter key "kind name.key" (T: a table
 * alias); empty for "sim.key", which did not change. */
#define V1_SP(T) "instr(" T ".key, ' ')"
#define V1_DOT(T) "instr(" T ".key, '.')"
#define V1_KIND(T) "substr(" T ".key, 1, " V1_SP(T) " - 1)"
#define V1_NAME(T) "substr(" T ".key, " V1_SP(T) " + 1, " V1_DOT(T) " - " V1_SP(T) " - 1)"
#define V1_SPACED(T) "(" V1_SP(T) " > 0 AND " V1_SP(T) " < " V1_DOT(T) ")"

/* param.key of row T (of table P in the same schema) in version 2. */
#define V1_PARAM_KEY(P, T)                                                                        \
    "CASE WHEN " V1_SPACED(T) " AND NOT EXISTS (SELECT 1 FROM " P " o WHERE o.run_id = " T        \
    ".run_id AND " V1_SPACED("o") " AND " V1_NAME("o") " = " V1_NAME(T) " AND " V1_KIND("o")      \
    " != " V1_KIND(T) ") THEN substr(" T ".key, " V1_SP(T) " + 1) ELSE " T ".key END"
#define V1_COUNTER_VALUE(T) "CAST(" T ".value AS INTEGER)"
#define V1_CPU_AT(T) "instr(" T ".host, '/cpu')"
#define V1_PROFILE_HOST(T) \
    "CASE WHEN " V1_CPU_AT(T) " > 0 THEN substr(" T ".host, 1, " V1_CPU_AT(T) " - 1) ELSE " T ".host END"
#define V1_PROFILE_CPU(T) \
    "CASE WHEN " V1_CPU_AT(T) " > 0 THEN CAST(substr(" T ".host, " V1_CPU_AT(T) " + 4) AS INTEGER) END"
#define V1_SERIES_NAME(T) \
    "CASE WHEN " T ".name GLOB 'flow[0-9]*.rtt_us' THEN 'flow.' || substr(" T ".name, 5) ELSE " T ".name END"

/* Rewrites an open version-1 file as version 2, inside the caller's write
 * transaction. Returns SQLITE_OK or the failing statement's code (the
 * caller rolls back and reports sqlite3_errmsg). */
int rec_v1_upgrade(sqlite3 *db);

/* Puts TEMP views named param, counter, profile and series over a
 * version-1 file opened read-only, so that a reader's unqualified queries
 * see version 2 (SQLite resolves unqualified names in temp first); each
 * view has the table's rowid, which readers order by. */
int rec_v1_views(sqlite3 *db);

#endif
