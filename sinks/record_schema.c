/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record_schema.c - the results schema (version 3, documented in
 * record.h): creating it in a new file, checking an existing one, and
 * upgrading one of version 1 (record_v1.c, to 2) or 2 (the message table).
 */
#include "sinks/record.h"
#include "sinks/record_v1.h"
#include "sim/xalloc.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define MESSAGE_TABLE_SQL                                                   \
    "CREATE TABLE message("                                                 \
    " run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"        \
    " flow INTEGER NOT NULL,"                                               \
    " kind TEXT NOT NULL,"                                                  \
    " id INTEGER NOT NULL,"                                                 \
    " size INTEGER NOT NULL,"                                               \
    " t_start REAL NOT NULL,"                                               \
    " t_end REAL NOT NULL,"                                                 \
    " fct REAL NOT NULL,"                                                   \
    " ideal REAL,"                                                          \
    " rtos INTEGER);\n"

/* Version 3 of the schema, as documented in record.h. The run_id columns
 * reference run(id) so that deleting a run (by hand, or in a future
 * `merge --drop`) takes its rows along. */
static const char schema_sql[] =
    "CREATE TABLE run("
    " id INTEGER PRIMARY KEY,"
    " scenario TEXT,"
    " variant_label TEXT,"
    " seed INTEGER,"
    " rep INTEGER,"
    " started_at TEXT,"
    " wall_s REAL,"
    " events INTEGER,"
    " status TEXT NOT NULL CHECK(status IN ('running', 'complete', 'interrupted', 'failed')),"
    " error TEXT,"
    " scenario_hash TEXT,"
    " sim_s REAL,"
    " hostname TEXT);\n"
    "CREATE TABLE param("
    " run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
    " key TEXT NOT NULL,"
    " value TEXT);\n"
    "CREATE TABLE interval("
    " run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
    " flow INTEGER NOT NULL,"
    " t_start REAL NOT NULL,"
    " t_end REAL NOT NULL,"
    " bytes INTEGER NOT NULL,"
    " bits_per_s REAL);\n"
    "CREATE TABLE series("
    " run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
    " name TEXT NOT NULL,"
    " t REAL NOT NULL,"
    " value REAL);\n"
    "CREATE TABLE counter("
    " run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
    " name TEXT NOT NULL,"
    " value INTEGER,"
    " is_drop INTEGER);\n"
    "CREATE TABLE profile("
    " run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
    " host TEXT NOT NULL,"
    " cpu INTEGER,"
    " symbol TEXT NOT NULL,"
    " cpu_ns REAL,"
    " calls INTEGER);\n"
    MESSAGE_TABLE_SQL;

/* Version 2 to 3: the message table, nothing else changes. */
static const char upgrade_v2_sql[] = MESSAGE_TABLE_SQL "PRAGMA main.user_version = 3;\n";

/* The indexes serve files that hold many runs. A one-run database (the
 * scratch one, a claim, a sweep worker's file) is only read whole, in
 * rowid order, so it goes without them: they were half of every insert
 * into it (rec_save_as puts them in a file saved from scratch). */
static const char index_sql[] =
    "CREATE INDEX IF NOT EXISTS interval_run ON interval(run_id);\n"
    "CREATE INDEX IF NOT EXISTS series_run_name ON series(run_id, name);\n"
    "CREATE INDEX IF NOT EXISTS counter_run ON counter(run_id);\n"
    "CREATE INDEX IF NOT EXISTS param_run ON param(run_id);\n"
    "CREATE INDEX IF NOT EXISTS message_run ON message(run_id);\n";

int rec_add_indexes(struct sqlite3 *db)
{
    return sqlite3_exec(db, index_sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

char *rec_open_err(const char *path, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return xasprintf("%s: %s", path, msg);
}

/* Runs a one-row integer query such as "PRAGMA user_version". */
static int query_int(sqlite3 *db, const char *sql, int64_t *out)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

static const char *version_sql = "PRAGMA user_version";
static const char *ntables_sql = "SELECT count(*) FROM sqlite_master";

/* A writer that opens a version-1 or -2 file upgrades it, in one
 * transaction (a second writer doing the same waits, then finds version
 * 3): version 1 to 2 (record_v1.c), then 2 to 3. */
static char *upgrade_old(sqlite3 *db, const char *path, int64_t from)
{
    int64_t version = 0;
    char *err = NULL;

    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return rec_open_err(path, "upgrading from schema version %lld: %s", (long long)from, sqlite3_errmsg(db));
    if (query_int(db, version_sql, &version) != SQLITE_OK ||
        (version == 1 && rec_v1_upgrade(db) != SQLITE_OK) ||
        (version >= 1 && version <= 2 && sqlite3_exec(db, upgrade_v2_sql, NULL, NULL, NULL) != SQLITE_OK) ||
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        err = rec_open_err(path, "upgrading from schema version %lld: %s", (long long)from, sqlite3_errmsg(db));
    if (err && !sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return err;
}

/*
 * Brings a fresh file to schema version 3 (one of version 1 or 2 is upgraded),
 * or checks an existing one.
 * Creation runs under BEGIN IMMEDIATE and re-reads the version under that
 * lock, so two processes opening the same new file cannot both create it.
 * Returns NULL on success, else the malloc'ed message for rec_open.
 */
char *rec_check_schema(sqlite3 *db, const char *path, bool indexes)
{
    int64_t version = 0, ntables = 0;
    char *err = NULL;

    if (query_int(db, version_sql, &version) != SQLITE_OK)
        return rec_open_err(path, "%s", sqlite3_errmsg(db));
    if (version == 0) {
        if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
            return rec_open_err(path, "%s", sqlite3_errmsg(db));
        if (query_int(db, version_sql, &version) != SQLITE_OK ||
            query_int(db, ntables_sql, &ntables) != SQLITE_OK) {
            err = rec_open_err(path, "%s", sqlite3_errmsg(db));
        } else if (version == 0 && ntables > 0) {
            err = rec_open_err(path, "not a netsim results database (it has tables but no schema version)");
        } else if (version == 0) {
            char set_version[64];
            snprintf(set_version, sizeof set_version, "PRAGMA user_version = %d", RECORD_SCHEMA_VERSION);
            if (sqlite3_exec(db, schema_sql, NULL, NULL, NULL) != SQLITE_OK ||
                (indexes && rec_add_indexes(db) != 0) ||
                sqlite3_exec(db, set_version, NULL, NULL, NULL) != SQLITE_OK)
                err = rec_open_err(path, "creating the schema: %s", sqlite3_errmsg(db));
            else
                version = RECORD_SCHEMA_VERSION;
        }
        if (!err && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
            err = rec_open_err(path, "creating the schema: %s", sqlite3_errmsg(db));
        if (err) {
            if (!sqlite3_get_autocommit(db))
                sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return err;
        }
    }
    if (version >= RECORD_SCHEMA_OLDEST && version < RECORD_SCHEMA_VERSION) {
        if ((err = upgrade_old(db, path, version)) != NULL)
            return err;
        if (indexes && rec_add_indexes(db) != 0)
            return rec_open_err(path, "indexing the message table: %s", sqlite3_errmsg(db));
        version = RECORD_SCHEMA_VERSION;
    }
    if (version != RECORD_SCHEMA_VERSION)
        return rec_open_err(path, "results schema version %lld, this netsim writes version %d",
                        (long long)version, RECORD_SCHEMA_VERSION);
    return NULL;
}
