/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record_copy.c - copies one run, with all its rows, from another results
 * database into an open one (rec_copy_run, rec_append_run, rec_import_run
 * in record.h): what `netsim merge`, a sweep's parent and `netsim run` are
 * made of; and a whole database into a new file (rec_save_as).
 *
 * The source file is ATTACHed to the destination's connection and each
 * table is copied by one INSERT ... SELECT, so rows go from page to page
 * inside SQLite without passing through C, and the whole run is one
 * transaction: a failure anywhere leaves the destination as it was.
 * ATTACH and DETACH are not allowed inside a transaction, so each call is
 * ATTACH, BEGIN, checks, copy, COMMIT, DETACH. Attaching per run costs a
 * file open and a schema read, small beside the fsync of the COMMIT that a
 * transaction per run costs anyway.
 *
 * The transaction is a deferred BEGIN whose first statement writes to
 * main: BEGIN IMMEDIATE would also take the write lock of the attached
 * source, which fails on a read-only file and waits for a sweep still
 * writing it, although the source is only read.
 */
#include "sinks/record.h"
#include "sinks/record_v1.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The schema name of the source; chosen not to clash with main/temp. */
#define SRC "netsim_copy_src"

/* Child tables, copied in this order with their rows in insertion order
 * (rowid), so a copied run reads back exactly as the original. */
static const char *const copy_child_sql[] = {
    "INSERT INTO main.param(run_id, key, value)"
    " SELECT ?1, key, value FROM " SRC ".param WHERE run_id = ?2 ORDER BY rowid",
    "INSERT INTO main.interval(run_id, flow, t_start, t_end, bytes, bits_per_s)"
    " SELECT ?1, flow, t_start, t_end, bytes, bits_per_s FROM " SRC ".interval WHERE run_id = ?2 ORDER BY rowid",
    "INSERT INTO main.series(run_id, name, t, value)"
    " SELECT ?1, name, t, value FROM " SRC ".series WHERE run_id = ?2 ORDER BY rowid",
    "INSERT INTO main.counter(run_id, name, value, is_drop)"
    " SELECT ?1, name, value, is_drop FROM " SRC ".counter WHERE run_id = ?2 ORDER BY rowid",
    "INSERT INTO main.profile(run_id, host, cpu, symbol, cpu_ns, calls)"
    " SELECT ?1, host, cpu, symbol, cpu_ns, calls FROM " SRC ".profile WHERE run_id = ?2 ORDER BY rowid",
};

/* The same out of a version-1 source, respelt as version 2 on the way. */
static const char *const copy_child_v1_sql[] = {
    "INSERT INTO main.param(run_id, key, value)"
    " SELECT ?1, " V1_PARAM_KEY(SRC ".param", "p") ", p.value FROM " SRC ".param p WHERE p.run_id = ?2 ORDER BY p.rowid",
    "INSERT INTO main.interval(run_id, flow, t_start, t_end, bytes, bits_per_s)"
    " SELECT ?1, flow, t_start, t_end, bytes, bits_per_s FROM " SRC ".interval WHERE run_id = ?2 ORDER BY rowid",
    "INSERT INTO main.series(run_id, name, t, value)"
    " SELECT ?1, " V1_SERIES_NAME("s") ", s.t, s.value FROM " SRC ".series s WHERE s.run_id = ?2 ORDER BY s.rowid",
    "INSERT INTO main.counter(run_id, name, value, is_drop)"
    " SELECT ?1, c.name, " V1_COUNTER_VALUE("c") ", NULL FROM " SRC ".counter c WHERE c.run_id = ?2 ORDER BY c.rowid",
    "INSERT INTO main.profile(run_id, host, cpu, symbol, cpu_ns, calls)"
    " SELECT ?1, " V1_PROFILE_HOST("p") ", " V1_PROFILE_CPU("p") ", p.symbol, p.cpu_ns, p.calls FROM " SRC
    ".profile p WHERE p.run_id = ?2 ORDER BY p.rowid",
};
_Static_assert(sizeof copy_child_sql == sizeof copy_child_v1_sql, "one statement per table in both versions");

/* Version 3's table; a source of 1 or 2 has no messages. */
static const char copy_message_sql[] =
    "INSERT INTO main.message(run_id, flow, kind, id, size, t_start, t_end, fct, ideal, rtos)"
    " SELECT ?1, flow, kind, id, size, t_start, t_end, fct, ideal, rtos FROM " SRC
    ".message WHERE run_id = ?2 ORDER BY rowid";

static const char copy_run_sql[] =
    "INSERT INTO main.run(id, scenario, variant_label, seed, rep, started_at, wall_s,"
    " events, status, error, scenario_hash, sim_s, hostname)"
    " SELECT ?1, scenario, variant_label, seed, rep, started_at, wall_s,"
    " events, status, error, scenario_hash, sim_s, hostname FROM " SRC ".run WHERE id = ?2";

/* The source run's identity: selected once, read by the checks. */
static const char src_run_sql[] =
    "SELECT scenario, scenario_hash FROM " SRC ".run WHERE id = ?1";

/* A complete run of the same scenario name but another version. */
static const char conflict_sql[] =
    "SELECT scenario_hash FROM main.run"
    " WHERE scenario IS ?1 AND status = 'complete' AND scenario_hash IS NOT ?2 LIMIT 1";

/* A duplicate (see record.h): same configuration and complete, or the
 * very same run copied before. IS compares NULLs as equal. The
 * configuration is the scenario file's hash and every resolved parameter,
 * so that runs of one file with other --set values are not taken for
 * duplicates (KEY: the source row sp's key as version 2 spells it). */
#define DUPLICATE_SQL(KEY)                                                                                    \
    "SELECT m.id FROM main.run m, " SRC ".run s WHERE s.id = ?1"                                              \
    " AND m.scenario_hash IS s.scenario_hash AND m.variant_label IS s.variant_label"                          \
    " AND m.rep IS s.rep AND m.seed IS s.seed"                                                                \
    " AND (m.status = 'complete' OR (m.status IS s.status AND m.started_at IS s.started_at"                   \
    "      AND m.hostname IS s.hostname AND m.wall_s IS s.wall_s AND m.error IS s.error))"                    \
    " AND (SELECT count(*) FROM main.param mp WHERE mp.run_id = m.id) ="                                      \
    "     (SELECT count(*) FROM " SRC ".param sp WHERE sp.run_id = s.id)"                                     \
    " AND NOT EXISTS (SELECT 1 FROM " SRC ".param sp WHERE sp.run_id = s.id AND NOT EXISTS"                   \
    "     (SELECT 1 FROM main.param mp WHERE mp.run_id = m.id AND mp.key = " KEY " AND mp.value IS sp.value))" \
    " LIMIT 1"
static const char duplicate_sql[] = DUPLICATE_SQL("sp.key");
static const char duplicate_v1_sql[] = DUPLICATE_SQL(V1_PARAM_KEY(SRC ".param", "sp"));

/* The very same run only: what rec_import_run skips. */
static const char same_run_sql[] =
    "SELECT m.id FROM main.run m, " SRC ".run s WHERE s.id = ?1"
    " AND m.scenario_hash IS s.scenario_hash AND m.variant_label IS s.variant_label"
    " AND m.rep IS s.rep AND m.seed IS s.seed AND m.status IS s.status AND m.started_at IS s.started_at"
    " AND m.hostname IS s.hostname AND m.wall_s IS s.wall_s AND m.error IS s.error LIMIT 1";

static const char id_taken_sql[] = "SELECT 1 FROM main.run WHERE id = ?1";

enum copy_mode {
    COPY_MERGE,                  /* rec_copy_run: version and duplicate rules, ids kept */
    COPY_APPEND,                 /* rec_append_run: a new id, no rule */
    COPY_IMPORT,                 /* rec_import_run: a new id unless the very same run is there */
};

struct copy {
    struct rec *dst;
    sqlite3 *db;
    const char *src_path;        /* for messages */
    int64_t src_id;
    enum copy_mode mode;
    int64_t src_version;
};

/* Sets the error "copy run N from SRC: what: SQLite's message". */
static int copy_fail(struct copy *c, const char *what)
{
    rec_set_error(c->dst, "copy run %lld from %s: %s: %s", (long long)c->src_id, c->src_path, what,
                  sqlite3_errmsg(c->db));
    return -1;
}

/*
 * Prepares sql, binds ?1 and ?2 as integers (NULL when the value is < 0
 * and the statement is an id) and steps once. Returns SQLITE_ROW (first
 * column in *out if out), SQLITE_DONE, or -1 with the error set.
 */
static int run_stmt(struct copy *c, const char *what, const char *sql, int64_t p1, int64_t p2, int64_t *out)
{
    sqlite3_stmt *st;
    int rc;

    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
        return copy_fail(c, what);
    if (sqlite3_bind_parameter_count(st) >= 1) {
        if (p1 >= 0)
            sqlite3_bind_int64(st, 1, p1);
        else
            sqlite3_bind_null(st, 1);
    }
    if (sqlite3_bind_parameter_count(st) >= 2)
        sqlite3_bind_int64(st, 2, p2);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && out)
        *out = sqlite3_column_int64(st, 0);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        copy_fail(c, what);
        rc = -1;
    }
    sqlite3_finalize(st);
    return rc;
}

/*
 * The source must be a netsim results database of this schema version and
 * another file than the destination. Returns 0, or -1 with the error set.
 */
static int check_source(struct copy *c)
{
    const char *dst_file = sqlite3_db_filename(c->db, "main");
    struct stat a, b;
    int64_t version = 0, ntables = 0;

    if (dst_file && dst_file[0] && stat(dst_file, &a) == 0 && stat(c->src_path, &b) == 0 &&
        a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
        rec_set_error(c->dst, "copy run %lld from %s: that is the destination database itself",
                      (long long)c->src_id, c->src_path);
        return -1;
    }
    if (run_stmt(c, "reading the schema version", "PRAGMA " SRC ".user_version", -1, 0, &version) < 0 ||
        run_stmt(c, "reading the schema", "SELECT count(*) FROM " SRC ".sqlite_master", -1, 0, &ntables) < 0)
        return -1;
    if (version == 0) {
        rec_set_error(c->dst, "copy run %lld from %s: not a netsim results database%s", (long long)c->src_id,
                      c->src_path, ntables ? " (it has tables but no schema version)" : " (it is empty)");
        return -1;
    }
    if ((version < RECORD_SCHEMA_OLDEST || version > RECORD_SCHEMA_VERSION)) {
        rec_set_error(c->dst, "copy run %lld from %s: results schema version %lld, this netsim reads versions 1 to %d",
                      (long long)c->src_id, c->src_path, (long long)version, RECORD_SCHEMA_VERSION);
        return -1;
    }
    c->src_version = version;
    return 0;
}

/*
 * Refuses the copy when the destination already holds complete runs of
 * the same scenario name in another version (scenario_hash). Returns 0,
 * or -1 with the error set.
 */
static int check_version(struct copy *c)
{
    sqlite3_stmt *src = NULL, *conf = NULL;
    int rc = -1;

    if (sqlite3_prepare_v2(c->db, src_run_sql, -1, &src, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(c->db, conflict_sql, -1, &conf, NULL) != SQLITE_OK) {
        copy_fail(c, "reading the run");
        goto out;
    }
    sqlite3_bind_int64(src, 1, c->src_id);
    switch (sqlite3_step(src)) {
    case SQLITE_ROW: break;
    case SQLITE_DONE:
        rec_set_error(c->dst, "copy run %lld from %s: no such run", (long long)c->src_id, c->src_path);
        goto out;
    default: copy_fail(c, "reading the run"); goto out;
    }
    /* The source statement stays on its row: its texts stay valid. */
    sqlite3_bind_value(conf, 1, sqlite3_column_value(src, 0));
    sqlite3_bind_value(conf, 2, sqlite3_column_value(src, 1));
    switch (sqlite3_step(conf)) {
    case SQLITE_DONE: rc = 0; break;
    case SQLITE_ROW: {
        const char *have = (const char *)sqlite3_column_text(conf, 0);
        const char *mine = (const char *)sqlite3_column_text(src, 1);
        const char *name = (const char *)sqlite3_column_text(src, 0);
        rec_set_error(c->dst, "copy run %lld of %s from %s: scenario version %s differs from %s already in DB",
                      (long long)c->src_id, name ? name : "(unnamed)", c->src_path, mine ? mine : "(none)",
                      have ? have : "(none)");
        break;
    }
    default: copy_fail(c, "checking the scenario version"); break;
    }
out:
    sqlite3_finalize(conf);
    sqlite3_finalize(src);
    return rc;
}

/* Inside the transaction: the checks, then the run row and its rows.
 * Returns the new id, 0 for a duplicate, -1 with the error set. */
static int64_t copy_in_txn(struct copy *c, int64_t want_id)
{
    int64_t dup = 0, id = -1;
    size_t i;
    int rc;

    if (c->mode == COPY_MERGE && check_version(c) != 0)
        return -1;
    if (c->mode != COPY_APPEND) {
        rc = run_stmt(c, "looking for duplicates", c->mode != COPY_MERGE ? same_run_sql : c->src_version == 1 ? duplicate_v1_sql : duplicate_sql, c->src_id,
                      0, &dup);
        if (rc < 0)
            return -1;
        if (rc == SQLITE_ROW)
            return 0;
    }

    if (c->mode == COPY_MERGE && want_id > 0) {
        if ((rc = run_stmt(c, "looking up ids", id_taken_sql, want_id, 0, NULL)) < 0)
            return -1;
        if (rc == SQLITE_DONE)
            id = want_id;
    }
    if (c->mode == COPY_MERGE && id < 0) {
        if ((rc = run_stmt(c, "looking up ids", id_taken_sql, c->src_id, 0, NULL)) < 0)
            return -1;
        if (rc == SQLITE_DONE)
            id = c->src_id;
    }
    /* id -1 binds NULL: SQLite picks max(id) + 1. */
    if (run_stmt(c, "inserting the run", copy_run_sql, id, c->src_id, NULL) < 0)
        return -1;
    if (sqlite3_changes(c->db) != 1) {      /* check_version finds this first when merging */
        rec_set_error(c->dst, "copy run %lld from %s: no such run", (long long)c->src_id, c->src_path);
        return -1;
    }
    id = sqlite3_last_insert_rowid(c->db);
    for (i = 0; i < sizeof copy_child_sql / sizeof copy_child_sql[0]; i++)
        if (run_stmt(c, "copying rows", c->src_version == 1 ? copy_child_v1_sql[i] : copy_child_sql[i], id,
                     c->src_id, NULL) < 0)
            return -1;
    if (c->src_version >= 3 && run_stmt(c, "copying rows", copy_message_sql, id, c->src_id, NULL) < 0)
        return -1;
    return id;
}

/*
 * Attaches the source (attach: the name SQLite opens, a file path or a
 * scratch database's URI), copies, detaches. Returns as copy_in_txn.
 */
static int64_t copy_attached(struct copy *c, const char *attach, int64_t want_id)
{
    sqlite3_stmt *st;
    int64_t id = -1;
    int rc;

    if (sqlite3_prepare_v2(c->db, "ATTACH DATABASE ?1 AS " SRC, -1, &st, NULL) != SQLITE_OK)
        return copy_fail(c, "attaching");
    sqlite3_bind_text(st, 1, attach, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return copy_fail(c, "attaching");

    if (check_source(c) == 0) {
        /* Every child row is inserted after its run row, in the same
         * transaction, under the id just taken: the foreign key holds by
         * construction, and checking it would cost a lookup in run per
         * row (a fifth of the copy). The pragma is a no-op inside a
         * transaction, so it goes off before BEGIN and back after the end. */
        int64_t fk = 1;          /* unread, the checks come back on: the safe side */
        run_stmt(c, "reading foreign_keys", "PRAGMA foreign_keys", -1, 0, &fk);
        sqlite3_exec(c->db, "PRAGMA foreign_keys = OFF", NULL, NULL, NULL);
        /* The no-op DELETE takes main's write lock first (see the top). */
        if (sqlite3_exec(c->db, "BEGIN; DELETE FROM main.run WHERE 0", NULL, NULL, NULL) != SQLITE_OK) {
            copy_fail(c, "starting the transaction");
        } else {
            id = copy_in_txn(c, want_id);
            if (id > 0 && sqlite3_exec(c->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
                copy_fail(c, "commit");
                id = -1;
            }
        }
        if (!sqlite3_get_autocommit(c->db))
            sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
        if (fk)
            sqlite3_exec(c->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    }
    /* Every statement on the source is finalized, so DETACH cannot find
     * it busy; if it failed anyway, the next ATTACH would report it. */
    if (sqlite3_exec(c->db, "DETACH DATABASE " SRC, NULL, NULL, NULL) != SQLITE_OK && id >= 0) {
        copy_fail(c, "detaching");
        /* The copy itself is committed: report the id all the same. */
    }
    return id;
}

/* The source is a file: check it exists (ATTACH would create it), and
 * keep a plain path that starts with "file:" from being read as a URI. */
static int64_t copy_file(struct rec *dst, const char *src_path, int64_t src_run_id, int64_t want_id,
                         enum copy_mode mode)
{
    struct copy c = { .dst = dst, .src_path = src_path, .src_id = src_run_id, .mode = mode };
    struct stat sb;
    char attach[4096];

    c.db = rec_connection(dst, "copy run");
    if (!c.db)
        return -1;
    if (stat(src_path, &sb) != 0) {
        rec_set_error(dst, "copy run %lld from %s: %s", (long long)src_run_id, src_path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(sb.st_mode)) {
        rec_set_error(dst, "copy run %lld from %s: not a regular file", (long long)src_run_id, src_path);
        return -1;
    }
    /* a WAL source in a directory that cannot be written is read as it
     * is (ATTACH failed: "attempt to write a readonly database") */
    if (rec_read_as_is(src_path))
        snprintf(attach, sizeof attach, "file:%s?immutable=1", src_path);
    else
        snprintf(attach, sizeof attach, "%s%s", strncmp(src_path, "file:", 5) ? "" : "./", src_path);
    return copy_attached(&c, attach, want_id);
}

int64_t rec_copy_run(struct rec *dst, const char *src_path, int64_t src_run_id, int64_t want_id)
{
    return copy_file(dst, src_path, src_run_id, want_id, COPY_MERGE);
}

int64_t rec_import_run(struct rec *dst, const char *src_path, int64_t src_run_id)
{
    return copy_file(dst, src_path, src_run_id, 0, COPY_IMPORT);
}

int64_t rec_append_run(struct rec *dst, struct rec *src, int64_t src_run_id)
{
    struct copy c = { .dst = dst, .src_path = "the scratch database", .src_id = src_run_id, .mode = COPY_APPEND };

    c.db = rec_connection(dst, "copy run");
    if (!c.db || !rec_connection(src, "copy run")) {
        if (c.db)
            rec_set_error(dst, "copy run %lld: the scratch database has a run open", (long long)src_run_id);
        return -1;
    }
    return copy_attached(&c, rec_attach_name(src), 0);
}

int rec_save_as(struct rec *r, const char *path)
{
    sqlite3 *db = rec_connection(r, "save"), *to = NULL;
    sqlite3_backup *b;
    int rc;

    if (!db)
        return -1;
    /* The backup API rather than VACUUM INTO: VACUUM INTO writes through
     * the source's VFS, which for a scratch database is memory. The
     * target's own commit syncs it. */
    rc = sqlite3_open_v2(path, &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK) {
        b = sqlite3_backup_init(to, "main", db, "main");
        if (b) {
            rc = sqlite3_backup_step(b, -1);
            sqlite3_backup_finish(b);
            if (rc == SQLITE_DONE)
                rc = rec_add_indexes(to) == 0 ? SQLITE_OK : sqlite3_errcode(to);
        } else {
            rc = sqlite3_errcode(to);
        }
    }
    if (rc != SQLITE_OK)
        rec_set_error(r, "saving to %s: %s", path, to ? sqlite3_errstr(rc) : "out of memory");
    if (sqlite3_close(to) != SQLITE_OK && rc == SQLITE_OK) {
        rec_set_error(r, "saving to %s: closing it failed", path);
        rc = SQLITE_ERROR;
    }
    if (rc != SQLITE_OK) {
        char journal[4200];
        snprintf(journal, sizeof journal, "%s-journal", path);
        unlink(journal);
        unlink(path);
        return -1;
    }
    return 0;
}
