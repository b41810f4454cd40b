/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record_v1.c - upgrading a version-1 results file in place, and the
 * read-only views that let a reader take one as it is (record_v1.h).
 */
#include "sinks/record_v1.h"

#include <stddef.h>

#include "sinks/record.h"

/* counter and profile change type or columns, so they are rebuilt (rowids
 * kept: rows read back in the order they were written); param and series
 * keep their columns and change only the rows whose spelling moved. */
static const char upgrade_sql[] =
    "UPDATE main.param AS p SET key = " V1_PARAM_KEY("main.param", "p") " WHERE " V1_SPACED("p") ";\n"
    "UPDATE main.series AS s SET name = " V1_SERIES_NAME("s") " WHERE s.name GLOB 'flow[0-9]*.rtt_us';\n"
    "CREATE TABLE main.counter_v2("
    " run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
    " name TEXT NOT NULL,"
    " value INTEGER,"
    " is_drop INTEGER);\n"
    "INSERT INTO main.counter_v2(rowid, run_id, name, value)"
    " SELECT c.rowid, c.run_id, c.name, " V1_COUNTER_VALUE("c") " FROM main.counter c ORDER BY c.rowid;\n"
    "DROP TABLE main.counter;\n"
    "ALTER TABLE main.counter_v2 RENAME TO counter;\n"
    "CREATE INDEX main.counter_run ON counter(run_id);\n"
    "CREATE TABLE main.profile_v2("
    " run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
    " host TEXT NOT NULL,"
    " cpu INTEGER,"
    " symbol TEXT NOT NULL,"
    " cpu_ns REAL,"
    " calls INTEGER);\n"
    "INSERT INTO main.profile_v2(rowid, run_id, host, cpu, symbol, cpu_ns, calls)"
    " SELECT p.rowid, p.run_id, " V1_PROFILE_HOST("p") ", " V1_PROFILE_CPU("p") ", p.symbol, p.cpu_ns, p.calls"
    " FROM main.profile p ORDER BY p.rowid;\n"
    "DROP TABLE main.profile;\n"
    "ALTER TABLE main.profile_v2 RENAME TO profile;\n"
    "PRAGMA main.user_version = 2;\n";

/* record_schema.c takes the file on from version 2 */

int rec_v1_upgrade(sqlite3 *db)
{
    return sqlite3_exec(db, upgrade_sql, NULL, NULL, NULL);
}

static const char views_sql[] =
    "CREATE TEMP VIEW param AS SELECT p.rowid AS rowid, p.run_id AS run_id, " V1_PARAM_KEY("main.param", "p")
    " AS key, p.value AS value FROM main.param p;\n"
    "CREATE TEMP VIEW counter AS SELECT c.rowid AS rowid, c.run_id AS run_id, c.name AS name, " V1_COUNTER_VALUE("c")
    " AS value, NULL AS is_drop FROM main.counter c;\n"
    "CREATE TEMP VIEW profile AS SELECT p.rowid AS rowid, p.run_id AS run_id, " V1_PROFILE_HOST("p") " AS host, "
    V1_PROFILE_CPU("p") " AS cpu, p.symbol AS symbol, p.cpu_ns AS cpu_ns, p.calls AS calls FROM main.profile p;\n"
    "CREATE TEMP VIEW series AS SELECT s.rowid AS rowid, s.run_id AS run_id, " V1_SERIES_NAME("s")
    " AS name, s.t AS t, s.value AS value FROM main.series s;\n";

int rec_v1_views(sqlite3 *db)
{
    return sqlite3_exec(db, views_sql, NULL, NULL, NULL);
}
