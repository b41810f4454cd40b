/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * merge_cmd.c - `netsim merge OUT.db IN.db...`: combines results
 * databases, typically the per-job databases of a sweep run on a cluster
 * (`netsim sweep --emit-jobs`), into one.
 *
 * Every run of every input, in input order and by run id, is copied with
 * rec_copy_run() (record_copy.c), which keeps a run's id where OUT does
 * not have it yet: the shards of one sweep, whose runs are numbered 1..N
 * across all shards, merge into the very database `sweep -j` would have
 * written. A run OUT already holds complete (same scenario version,
 * variant, rep and seed) is skipped, so merging twice changes nothing.
 *
 * Runs of one scenario name but another version (scenario_hash) are
 * refused. All inputs are read and checked before OUT is created or
 * written, replaying the rule rec_copy_run applies run by run, so a
 * refused merge (or a missing input) leaves OUT as it was. Each run is
 * its own transaction: an I/O error half-way leaves the runs copied so
 * far, and running the same merge again completes it.
 */
#include <errno.h>
#include <getopt.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/commands.h"
#include "sinks/record.h"
#include "sim/xalloc.h"

static const char usage_merge[] =
    "usage: netsim merge OUT.db IN.db...\n"
    "\n"
    "Copies every run of every IN.db (in order, by run id), with all its rows,\n"
    "into OUT.db, which is created if missing. Run ids are kept where OUT has\n"
    "them free, so the databases of a sharded sweep merge into the one that\n"
    "`netsim sweep -j` would have written; a run already in OUT as a complete\n"
    "run of the same scenario version, variant, rep and seed is skipped.\n"
    "Runs of any status (complete, interrupted, failed) are copied.\n"
    "\n"
    "Refused, with OUT left untouched: an input that is missing or not a\n"
    "netsim results database, and runs of a scenario whose version (hash of\n"
    "the scenario file) differs from complete runs already in OUT.\n"
    "\n"
    "options:\n"
    "  -h, --help    this text\n"
    "\n"
    "Exit status: 0 merged, 1 refused or error, 2 bad usage.\n";

/* One input: its path and its run ids, read before anything is written. */
struct merge_input {
    const char *path;
    int64_t *ids;
    size_t nids;
};

/* A (scenario, version) of a complete run that OUT holds or will hold,
 * with the file it comes from, for the message. */
struct merge_version {
    char *scenario;             /* NULL for SQL NULL */
    char *hash;
    const char *from;
};

struct merge_versions {
    struct merge_version *v;
    size_t n, cap;
};

static int str_same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static void versions_free(struct merge_versions *vs)
{
    for (size_t i = 0; i < vs->n; i++) {
        free(vs->v[i].scenario);
        free(vs->v[i].hash);
    }
    free(vs->v);
}

/* Adds a complete run's (scenario, hash) unless known. */
static void versions_add(struct merge_versions *vs, const char *scenario, const char *hash, const char *from)
{
    for (size_t i = 0; i < vs->n; i++)
        if (str_same(vs->v[i].scenario, scenario) && str_same(vs->v[i].hash, hash))
            return;
    vs->v = xgrow(vs->v, sizeof *vs->v, vs->n, &vs->cap, 8);
    vs->v[vs->n].scenario = scenario ? xstrdup(scenario) : NULL;
    vs->v[vs->n].hash = hash ? xstrdup(hash) : NULL;
    vs->v[vs->n].from = from;
    vs->n++;
}

/* A known version of the same scenario with another hash, or NULL. */
static const struct merge_version *versions_conflict(const struct merge_versions *vs, const char *scenario,
                                                     const char *hash)
{
    for (size_t i = 0; i < vs->n; i++)
        if (str_same(vs->v[i].scenario, scenario) && !str_same(vs->v[i].hash, hash))
            return &vs->v[i];
    return NULL;
}

/* Opens a results database read-only and checks its schema version.
 * Returns NULL after printing why. */
static sqlite3 *open_results(const char *path)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int64_t version = -1;

    const char *what = rec_not_a_file(path);

    if (access(path, R_OK) != 0) {
        fprintf(stderr, "netsim merge: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    if (what) {
        fprintf(stderr, "netsim merge: %s: not a regular file (%s): a results database is a file\n", path, what);
        return NULL;
    }
    char why[1024];
    if (!(db = rec_open_read(path, why, sizeof why))) {
        fprintf(stderr, "netsim merge: %s: %s\n", path, why);
        return NULL;
    }
    sqlite3_busy_timeout(db, rec_busy_timeout_ms());
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (version < 0)
        fprintf(stderr, "netsim merge: %s: %s\n", path, sqlite3_errmsg(db));
    else if (version == 0)
        fprintf(stderr, "netsim merge: %s: not a netsim results database\n", path);
    else if ((version < RECORD_SCHEMA_OLDEST || version > RECORD_SCHEMA_VERSION))
        fprintf(stderr, "netsim merge: %s: results schema version %lld, this netsim reads versions 1 to %d\n",
                path, (long long)version, RECORD_SCHEMA_VERSION);
    if ((version < RECORD_SCHEMA_OLDEST || version > RECORD_SCHEMA_VERSION)) {
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

/*
 * Reads one input's runs, in id order, replaying rec_copy_run's version
 * rule against `known` (the complete runs OUT will hold by then): a run
 * of any status is refused when a complete run of its scenario has
 * another hash. Returns 0, or 1 after printing the refusal or error.
 */
static int scan_input(struct merge_input *in, struct merge_versions *known)
{
    sqlite3 *db = open_results(in->path);
    sqlite3_stmt *st = NULL;
    size_t cap = 0;
    int rc, ret = 1;

    if (!db)
        return 1;
    if (sqlite3_prepare_v2(db, "SELECT id, scenario, scenario_hash, status FROM run ORDER BY id", -1, &st, NULL) !=
        SQLITE_OK) {
        fprintf(stderr, "netsim merge: %s: %s\n", in->path, sqlite3_errmsg(db));
        goto out;
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *scenario = (const char *)sqlite3_column_text(st, 1);
        const char *hash = (const char *)sqlite3_column_text(st, 2);
        const char *status = (const char *)sqlite3_column_text(st, 3);
        const struct merge_version *c = versions_conflict(known, scenario, hash);

        if (c) {
            fprintf(stderr,
                    "netsim merge: %s: run %lld of %s: scenario version %s differs from %s already in DB"
                    " (from %s); nothing was merged\n",
                    in->path, (long long)sqlite3_column_int64(st, 0), scenario ? scenario : "(unnamed)",
                    hash ? hash : "(none)", c->hash ? c->hash : "(none)", c->from);
            goto out;
        }
        if (status && !strcmp(status, "complete"))
            versions_add(known, scenario, hash, in->path);
        in->ids = xgrow(in->ids, sizeof *in->ids, in->nids, &cap, 64);
        in->ids[in->nids++] = sqlite3_column_int64(st, 0);
    }
    if (rc != SQLITE_DONE)
        fprintf(stderr, "netsim merge: %s: %s\n", in->path, sqlite3_errmsg(db));
    else
        ret = 0;
out:
    sqlite3_finalize(st);
    sqlite3_close(db);
    return ret;
}

/* The complete runs' versions already in an existing OUT. 0, or 1 after
 * printing the error. */
static int scan_output(const char *path, struct merge_versions *known)
{
    sqlite3 *db = open_results(path);
    sqlite3_stmt *st = NULL;
    int rc, ret = 1;

    if (!db)
        return 1;
    if (sqlite3_prepare_v2(db, "SELECT DISTINCT scenario, scenario_hash FROM run WHERE status = 'complete'", -1,
                           &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "netsim merge: %s: %s\n", path, sqlite3_errmsg(db));
        goto out;
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        versions_add(known, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1),
                     path);
    }
    if (rc != SQLITE_DONE)
        fprintf(stderr, "netsim merge: %s: %s\n", path, sqlite3_errmsg(db));
    else
        ret = 0;
out:
    sqlite3_finalize(st);
    sqlite3_close(db);
    return ret;
}

/*
 * Which ids OUT has, seen through a second, read-only connection (each
 * copy is committed, so it sees them all). A run whose id is taken is
 * given the next id after every id of OUT and of all inputs: giving it
 * max + 1 would take the id of a later input's run, which would then be
 * renumbered in turn, and so on down the inputs.
 */
struct merge_ids {
    sqlite3 *db;
    sqlite3_stmt *taken;
    int64_t last;               /* the highest id of OUT and the inputs so far */
};

static int open_ids(struct merge_ids *ids, const char *out, const struct merge_input *in, int nin)
{
    sqlite3_stmt *st = NULL;

    if (sqlite3_open_v2(out, &ids->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_busy_timeout(ids->db, rec_busy_timeout_ms()) != SQLITE_OK ||
        sqlite3_prepare_v2(ids->db, "SELECT max(id) FROM run", -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW ||
        sqlite3_prepare_v2(ids->db, "SELECT 1 FROM run WHERE id = ?1", -1, &ids->taken, NULL) != SQLITE_OK) {
        fprintf(stderr, "netsim merge: %s: %s\n", out, ids->db ? sqlite3_errmsg(ids->db) : "out of memory");
        sqlite3_finalize(st);
        return 1;
    }
    ids->last = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    for (int i = 0; i < nin; i++)
        if (in[i].nids && in[i].ids[in[i].nids - 1] > ids->last)
            ids->last = in[i].ids[in[i].nids - 1];      /* ids are in ascending order */
    return 0;
}

/* 1 if OUT has this id, 0 if not, -1 on error. */
static int id_taken(struct merge_ids *ids, int64_t id)
{
    int rc;

    sqlite3_bind_int64(ids->taken, 1, id);
    rc = sqlite3_step(ids->taken);
    sqlite3_reset(ids->taken);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static int same_file(const struct stat *a, const char *path)
{
    struct stat b;
    return stat(path, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

int cmd_merge(int argc, char **argv)
{
    static const struct option opts[] = {
        { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    struct merge_versions known = { 0 };
    struct merge_ids ids = { 0 };
    struct merge_input *in = NULL;
    struct rec *rec = NULL;
    struct stat out_st;
    const char *out;
    char *err = NULL;
    long merged = 0, dups = 0;
    int c, nin, out_exists, rc = 1;

    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h': fputs(usage_merge, stdout); return 0;
        default: fputs(usage_merge, stderr); return 2;
        }
    }
    if (argc - optind < 2) {
        fprintf(stderr, "netsim merge: expected OUT.db and at least one IN.db\n\n%s", usage_merge);
        return 2;
    }
    out = argv[optind];
    nin = argc - optind - 1;
    out_exists = stat(out, &out_st) == 0;
    for (int i = 0; i < nin && out_exists; i++) {
        if (same_file(&out_st, argv[optind + 1 + i])) {
            fprintf(stderr, "netsim merge: %s is the output; it cannot also be an input\n", argv[optind + 1 + i]);
            return 2;
        }
    }

    in = xcalloc((size_t)nin, sizeof *in);
    if (out_exists && scan_output(out, &known) != 0)
        goto done;
    for (int i = 0; i < nin; i++) {
        in[i].path = argv[optind + 1 + i];
        if (scan_input(&in[i], &known) != 0)
            goto done;
    }

    rec = rec_open(out, &err);
    if (!rec) {
        fprintf(stderr, "netsim merge: %s\n", err ? err : "cannot open the output database");
        free(err);
        goto done;
    }
    if (open_ids(&ids, out, in, nin) != 0)
        goto done;
    for (int i = 0; i < nin; i++) {
        long renumbered = 0;
        for (size_t k = 0; k < in[i].nids; k++) {
            int64_t src = in[i].ids[k], id;
            int taken = id_taken(&ids, src);

            if (taken < 0) {
                fprintf(stderr, "netsim merge: %s: %s\n", out, sqlite3_errmsg(ids.db));
                goto done;
            }
            id = rec_copy_run(rec, in[i].path, src, taken ? ids.last + 1 : 0);
            if (id < 0) {
                fprintf(stderr, "netsim merge: %s\n", rec_errmsg(rec));
                fprintf(stderr, "netsim merge: %ld runs were merged before the error; merging again skips them\n",
                        merged);
                goto done;
            }
            if (id == 0) {
                dups++;
                continue;
            }
            merged++;
            renumbered += id != src;
            if (id > ids.last)
                ids.last = id;
        }
        if (renumbered)
            fprintf(stderr, "netsim merge: note: %ld run%s of %s got %s (%s taken in %s)\n", renumbered,
                    renumbered == 1 ? "" : "s", in[i].path, renumbered == 1 ? "a new id" : "new ids",
                    renumbered == 1 ? "its id was" : "their ids were", out);
    }
    printf("merged %ld runs from %d databases into %s (%ld duplicates skipped)\n", merged, nin, out, dups);
    rc = 0;

done:
    sqlite3_finalize(ids.taken);
    sqlite3_close(ids.db);
    rec_close(rec);
    for (int i = 0; i < nin; i++)
        free(in[i].ids);
    free(in);
    versions_free(&known);
    return rc;
}
