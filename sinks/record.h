/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record.h - the results database (SQLite), one file per invocation.
 *
 * Schema (PRAGMA user_version = RECORD_SCHEMA_VERSION):
 *   run(id INTEGER PRIMARY KEY, scenario TEXT, variant_label TEXT,
 *       seed INTEGER, rep INTEGER, started_at TEXT, wall_s REAL,
 *       events INTEGER, status TEXT, error TEXT, scenario_hash TEXT,
 *       sim_s REAL, hostname TEXT)
 *   param(run_id, key, value)        key as --set takes it: "sim.duration",
 *                                    "receiver.tcp.drs", "1.time"; sweep axes
 *                                    "axis.NAME", flow labels "label.flow.N"
 *   interval(run_id, flow, t_start, t_end, bytes, bits_per_s)
 *   series(run_id, name, t, value)
 *   counter(run_id, name, value INTEGER, is_drop)   is_drop 1: packets
 *                                    dropped, by the cause its name says
 *   profile(run_id, host, cpu, symbol, cpu_ns, calls)   cpu NULL: the host's
 *                                    total; N: that core's rows (perf -C N)
 *   message(run_id, flow, kind, id, size, t_start, t_end, fct, ideal, rtos)
 *                                    one row per completed message of an
 *                                    application that moves messages
 *                                    (sim/sink.h's struct sink_message):
 *                                    times in s, fct = t_end - t_start from
 *                                    the exact simulated times, ideal 0:
 *                                    none (version 3)
 * Version 1 files are upgraded when a writer opens them and read through
 * views by `report` (record_v1.h); version 2 files gain the message table
 * when a writer opens them, and read as having no messages.
 * The columns after `status`, and profile.calls, extend the first schema: error
 * says why a run failed, scenario_hash lets `merge` refuse to mix versions.
 *
 * Each run is one transaction: rec_run_begin() opens it and inserts the run
 * row with status 'running'; rec_run_end() sets the final status
 * ('complete', 'interrupted', 'failed') and commits. A process killed in
 * between leaves no trace of that run; earlier runs are untouched.
 * rec_close() with a run still open ends it as 'interrupted' (wall_s = time
 * since rec_run_begin, events and sim_s NULL) and commits it.
 *
 * The file keeps SQLite's rollback journal (not WAL), so it is one
 * self-contained file; other processes are waited for up to 10 s
 * (rec_busy_timeout_ms). A writer holds the file only while it commits:
 * `netsim run` simulates into a scratch database in memory and copies the
 * finished run in (rec_append_run), as a sweep copies its workers' runs.
 * uint64_t values (seed, bytes, events, calls) are stored as SQLite's
 * int64: a value >= 2^63 reads back as its two's-complement negative.
 */
#ifndef NETSIM_RECORD_H
#define NETSIM_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include "sim/sink.h"

#define RECORD_SCHEMA_VERSION 3
/* The oldest version read (views respell it, record_v1.h) and upgraded. */
#define RECORD_SCHEMA_OLDEST 1

struct rec;

struct rec_run_info {
    const char *scenario;       /* scenario name (file stem) */
    const char *variant_label;  /* e.g. "tcp.drs=continuous", "" if none */
    uint64_t seed;
    int rep;
    const char *scenario_hash;  /* hex digest of the resolved scenario text */
    int64_t id;                 /* run id: > 0 insert exactly this id (a sweep numbers
                                   its runs 1..N so that -j and sharding give identical
                                   rows; rec_run_begin fails if it is taken); 0 lets
                                   SQLite choose (max + 1) */
};

/* Opens or creates the database, creating the directory part of the path
 * if needed, creating the schema if absent, upgrading a version-1 file. A
 * database with another user_version is refused ("PATH: results schema
 * version N, this netsim writes version 2"), as is one with tables but user_version 0, or a file
 * that is not SQLite. A file this call created but could not give its
 * schema (a full disk) is removed again. Every commit is synced
 * (synchronous = FULL) but an empty file's schema, which its first run's
 * commit takes to disk. Returns NULL and writes a message starting with the
 * path to *err (malloc'ed, the caller frees it) on failure. */
struct rec *rec_open(const char *path, char **err);

/* What an existing path is when it is no regular file, and so no results
 * database ("a directory", "a pipe", "a device"); NULL for a regular file
 * or none. A reader checks before SQLite opens it: opened for reading, a
 * FIFO waits for a writer that never comes. */
const char *rec_not_a_file(const char *path);
/* Opens path to read it only, checking that it can be read (PRAGMA
 * user_version). A WAL database in a directory that cannot be written
 * (SQLite would make PATH-shm there) is read as it is when nothing waits
 * in its PATH-wal, and else refused saying so, where SQLite said "attempt
 * to write a readonly database". NULL with the reason in why. */
struct sqlite3 *rec_open_read(const char *path, char *why, size_t n);
/* Is path a WAL database to be read as it is (immutable): nothing in its
 * -wal, and a directory that cannot be written? (rec_open_read, and the
 * copy of a run from it.) */
bool rec_read_as_is(const char *path);

/* The same for a file that only ever holds one run, on its way into
 * another database (a sweep worker's output): created
 * without the indexes, which serve files of many runs and were half the
 * cost of each insert, and written without checking the run_id keys,
 * which the copy into the results keeps by construction (record_copy.c). */
struct rec *rec_open_one_run(const char *path, char **err);
/* The same, never synced to disk, from its schema on: for a file read only
 * after this process has ended (a run's claim, run_record.h), which a
 * crash of the process cannot lose, and whose syncs would be a third of a
 * run's. */
struct rec *rec_open_claim(const char *path, char **err);

/* The database as a sink (sim/sink.h), ctx a struct rec: run_begin and
 * run_end are rec_run_begin and rec_run_end, each row an insert
 * (record_sink.c). */
extern const struct sink_ops record_sink_ops;
void rec_close(struct rec *r);

/* A private database in memory with the same schema and API, for one
 * run to be written while no file is held; its messages name it
 * "(scratch database in memory)". NULL (message in *err) if out of memory. */
struct rec *rec_open_scratch(char **err);

/* How long a connection waits for another process's lock: 10000 ms, or
 * the environment's NETSIM_BUSY_TIMEOUT_MS (0 to 3600000), which exists so
 * that tests can make lock contention outlast it quickly. */
int rec_busy_timeout_ms(void);

/* Returns the new run id, or -1 on error (also when a run is already
 * open). The inserts below return 0, or -1 on error or when no run is
 * open; a failed insert leaves the run open. */
int64_t rec_run_begin(struct rec *r, const struct rec_run_info *info);
int rec_param(struct rec *r, const char *key, const char *value);
int rec_interval(struct rec *r, int flow, double t_start, double t_end, uint64_t bytes, double bits_per_s);
int rec_series(struct rec *r, const char *name, double t, double value);
/* is_drop: the counter counts packets dropped, by the cause its name says
 * (report's "Drops by cause", `netsim report --metric drops`). */
int rec_counter(struct rec *r, const char *name, uint64_t value, bool is_drop);
/* cpu: the core the row is for, or -1 (NULL in the table): the whole host. */
int rec_profile(struct rec *r, const char *host, int cpu, const char *symbol, double cpu_ns, uint64_t calls);
int rec_message(struct rec *r, const struct sink_message *m);
/* status: "complete", "interrupted" or "failed"; error may be NULL.
 * Any other status returns -1 and leaves the run open. */
int rec_run_end(struct rec *r, const char *status, double wall_s, uint64_t events, double sim_s, const char *error);

/* Last error message, "PATH: what: SQLite's message" ("" if none). */
const char *rec_errmsg(const struct rec *r);
/* Did an insert of the run last begun fail? Its rows are then lost (rolled
 * back) and rec_errmsg() says why, until the next rec_run_begin(). */
bool rec_lost(const struct rec *r);

/* Replaces the error text of finished run id and, if key is not NULL,
 * adds the parameter key = value, in one transaction (no run may be
 * open): what a claim (run_record.h) says once the cause is known. 0, or
 * -1 with rec_errmsg set. */
int rec_note_run(struct rec *r, int64_t id, const char *error, const char *key, const char *value);

/*
 * Copies run src_run_id and all its rows (param, interval, series, counter,
 * profile) from the results database file src_path into dst, in one
 * transaction (record_copy.c). Runs of any status are copied, with their
 * error. The copy gets id want_id if > 0 and free, else src_run_id if free,
 * else a new one. Returns the new id; 0 when skipped as a duplicate: dst
 * already holds a 'complete' run with the same scenario_hash,
 * variant_label, rep and seed, or the very same run (those columns plus
 * status, started_at, hostname, wall_s and error equal: a second merge of
 * an interrupted or failed run); -1 on error, message in rec_errmsg(). It
 * refuses (-1, "...: scenario version X differs from Y already in DB")
 * when dst holds complete runs of the same scenario name with another
 * scenario_hash, and fails while dst has a run open. src_path is only
 * read; it may be in use by its writer (waited for like rec_open does).
 */
int64_t rec_copy_run(struct rec *dst, const char *src_path, int64_t src_run_id, int64_t want_id);

/*
 * Copies run src_run_id of the open database src (a scratch database) into
 * dst as a new run (SQLite's next id), with no version or duplicate rule:
 * what `netsim run` appends. Same transaction and errors as rec_copy_run.
 */
int64_t rec_append_run(struct rec *dst, struct rec *src, int64_t src_run_id);

/*
 * Copies run src_run_id of the file src_path into dst as a new run, unless
 * dst already holds the very same run (identity and status, started_at,
 * hostname, wall_s, error equal): 0 then. For picking up the runs an
 * earlier process left in a side file, which a merge by hand may already
 * have copied. No version rule.
 */
int64_t rec_import_run(struct rec *dst, const char *src_path, int64_t src_run_id);

/* Has fn(arg) called every so often while r's statements work (SQLite's
 * progress handler; fn returns 0 to go on), or no more with fn NULL:
 * for a progress line over a long copy. */
void rec_on_progress(struct rec *r, int (*fn)(void *), void *arg);

/* Writes the whole database r (no run open) into the new or empty file
 * path, synced. 0, or -1 with rec_errmsg set; a partial file is removed. */
int rec_save_as(struct rec *r, const char *path);

/* For record*.c only, not for other callers: dst's SQLite connection,
 * or NULL (with the error set) while a run is open; the name another
 * connection ATTACHes it by; setting the error message ("PATH: " is
 * prepended, as for every other error); the schema (record_schema.c:
 * NULL, or rec_open's malloc'ed message) and rec_open's messages. */
struct sqlite3;
struct sqlite3 *rec_connection(struct rec *r, const char *what);
const char *rec_attach_name(const struct rec *r);
void rec_set_error(struct rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *rec_check_schema(struct sqlite3 *db, const char *path, bool indexes);
int rec_add_indexes(struct sqlite3 *db);
char *rec_open_err(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
