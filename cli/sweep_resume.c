/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sweep_resume.c - what a sweep finds of earlier ones before it runs
 * anything: the runs its output database already holds, and the
 * temporary databases a killed sweep left beside it. Without --resume
 * any of this sweep's runs among them is an error; with --resume the
 * complete ones that match this sweep exactly (label, seed, replication,
 * scenario version and every parameter) are kept, the rest deleted so
 * they run again.
 *
 * A parent killed outright (kill -9) takes its workers with it (they have
 * PR_SET_PDEATHSIG), and leaves only temp files and logs. The parent holds
 * an flock on each temp file (orphans.h), so the next sweep of OUT can tell
 * them from those of a sweep still running; --resume copies in the runs
 * they hold finished and removes the rest (sweep_take_leftovers).
 */
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/orphans.h"
#include "cli/sweep_resume.h"
#include "load/load.h"
#include "load/scenario.h"
#include "load/sweep.h"
#include "sinks/record.h"
#include "sim/sim.h"

static int sql_exec(sqlite3 *db, const char *sql, int64_t id)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_bind_parameter_count(st) >= 1)
        sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/* Deletes run id and its rows (the schema's ON DELETE CASCADE needs
 * PRAGMA foreign_keys, so each table is named). */
static int delete_run(sqlite3 *db, int64_t id)
{
    static const char *const del[] = {
        "DELETE FROM param WHERE run_id = ?1",  "DELETE FROM interval WHERE run_id = ?1",
        "DELETE FROM series WHERE run_id = ?1", "DELETE FROM counter WHERE run_id = ?1",
        "DELETE FROM profile WHERE run_id = ?1", "DELETE FROM run WHERE id = ?1",
    };
    for (size_t i = 0; i < sizeof del / sizeof del[0]; i++)
        if (sql_exec(db, del[i], id))
            return -1;
    return 0;
}

/*
 * Does run `run` in db hold exactly the parameters this sweep would record
 * for it? (The scenario hash covers the file, not the --set overrides.)
 * On a difference writes "key = old, now new" into why.
 */
static bool same_params(const struct sweep_ctx *x, sqlite3 *db, int run, char *why, size_t n)
{
    sqlite3_stmt *count = NULL, *value = NULL;
    struct cfg *c = sweep_run_cfg(x, run);
    const char *const *axes = sweep_params(x->sw, run);
    bool same = false;

    sim_free(sim_build(c, sweep_seed(x->sw, run), true));   /* resolves every parameter */
    int nc = cfg_param_count(c), want = nc + sweep_axis_count(x->sw);
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM param WHERE run_id = ?1 AND key NOT LIKE 'label.%'", -1, &count, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT value FROM param WHERE run_id = ?1 AND key = ?2", -1, &value, NULL) !=
            SQLITE_OK) {
        snprintf(why, n, "%s", sqlite3_errmsg(db));
        goto out;
    }
    sqlite3_bind_int64(count, 1, run);
    if (sqlite3_step(count) != SQLITE_ROW || sqlite3_column_int(count, 0) != want) {
        snprintf(why, n, "%d parameters recorded, now %d", sqlite3_column_int(count, 0), want);
        goto out;
    }
    for (int i = 0; i < want; i++) {
        const char *k, *v, *old;
        if (i < nc)
            cfg_param_at(c, i, &k, &v);
        else
            k = axes[2 * (i - nc)], v = axes[2 * (i - nc) + 1];
        sqlite3_reset(value);
        sqlite3_bind_int64(value, 1, run);
        sqlite3_bind_text(value, 2, k, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(value) != SQLITE_ROW) {
            snprintf(why, n, "%s not recorded, now %s", k, v);
            goto out;
        }
        old = (const char *)sqlite3_column_text(value, 0);
        if (strcmp(old ? old : "", v)) {
            snprintf(why, n, "%s = %s, now %s", k, old ? old : "NULL", v);
            goto out;
        }
    }
    same = true;
out:
    sqlite3_finalize(count);
    sqlite3_finalize(value);
    cfg_free(c);
    return same;
}

/*
 * Looks at what the output database (if it exists) already holds for the
 * selected runs. A run at one of their ids that is not this sweep's (its
 * scenario, version, label, seed or replication differ) is an error
 * either way, and is left as it is. Without --resume a run of this sweep
 * present is an error (the ids are the run numbers). With --resume a
 * complete one is kept (and unselected), any other state of it deleted
 * so that it runs again.
 * Complete runs of another version of the scenario are an error either
 * way (rec_copy_run would refuse them). Returns 0; 2 (exit status: the
 * database is left as it was) for a database that is not this sweep's to
 * write, 1 for a database error, with the message printed. *kept counts
 * the runs kept.
 */
int sweep_prepare_output(struct sweep_ctx *x, bool resume, int *kept)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int rc = 0, taken = 0, first_taken = 0;
    struct stat sb;

    *kept = 0;
    if (stat(x->out, &sb) != 0)
        return 0;                            /* rec_open creates it */
    if (sqlite3_open_v2(x->out, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return 0;                            /* rec_open says why */
    }
    sqlite3_busy_timeout(db, rec_busy_timeout_ms());
    /* a file of another schema is refused here, before any message about
     * its runs, as rec_open would refuse it */
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        int v = sqlite3_column_int(st, 0);
        if (v != 0 && (v < RECORD_SCHEMA_OLDEST || v > RECORD_SCHEMA_VERSION)) {
            fprintf(stderr, "netsim sweep: %s: results schema version %d, this netsim writes version %d; choose "
                    "another -o\n", x->out, v, RECORD_SCHEMA_VERSION);
            rc = 2;
            goto out;
        }
    }
    sqlite3_finalize(st);
    st = NULL;
    if (sqlite3_prepare_v2(db, "SELECT scenario_hash FROM run WHERE scenario = ?1 AND status = 'complete'"
                               " AND scenario_hash IS NOT ?2 LIMIT 1", -1, &st, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return 0;                            /* no run table: rec_open checks the file */
    }
    sqlite3_bind_text(st, 1, x->stem, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, x->hash, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *h = sqlite3_column_text(st, 0);
        fprintf(stderr, "netsim sweep: %s holds complete runs of another version of %s (scenario hash %s, this "
                "one is %s); choose another -o\n", x->out, x->stem, h ? (const char *)h : "NULL", x->hash);
        rc = 2;
    }
    sqlite3_finalize(st);
    st = NULL;                                /* out: finalizes it again */
    if (rc)
        goto out;

    if (sqlite3_prepare_v2(db, "SELECT status, scenario_hash, variant_label, seed, rep, scenario FROM run WHERE id = ?1",
                           -1, &st, NULL) != SQLITE_OK)
        goto dberr;
    if (resume && sql_exec(db, "BEGIN IMMEDIATE", 0))
        goto dberr;
    for (int run = 1; run <= x->nruns; run++) {
        if (!x->selected[run])
            continue;
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, run);
        int s = sqlite3_step(st);
        if (s == SQLITE_DONE)
            continue;
        if (s != SQLITE_ROW)
            goto dberr;
        const char *status = (const char *)sqlite3_column_text(st, 0);
        const char *hash = (const char *)sqlite3_column_text(st, 1);
        const char *label = (const char *)sqlite3_column_text(st, 2);
        uint64_t seed = (uint64_t)sqlite3_column_int64(st, 3);
        int rep = sqlite3_column_int(st, 4);
        const char *scen = (const char *)sqlite3_column_text(st, 5);
        bool same = scen && !strcmp(scen, x->stem) && hash && !strcmp(hash, x->hash) && label &&
                    !strcmp(label, sweep_label(x->sw, run)) && seed == sweep_seed(x->sw, run) &&
                    rep == sweep_rep(x->sw, run);
        /* A run at this id that this sweep did not make is never deleted nor
         * counted as this sweep's, whatever its status: an interrupted run
         * of another scenario is that scenario's to resume. */
        if (!same) {
            fprintf(stderr, "netsim sweep: %s: run %d is another run (%s %s of %s, label '%s', seed %llu, rep %d; "
                    "this sweep's run %d is '%s', seed %llu, rep %d); choose another -o\n", x->out, run,
                    status ? status : "", "run", scen ? scen : "(unnamed)", label ? label : "",
                    (unsigned long long)seed, rep, run, sweep_label(x->sw, run),
                    (unsigned long long)sweep_seed(x->sw, run), sweep_rep(x->sw, run));
            rc = 2;
            break;
        }
        if (!resume) {
            if (!taken++)
                first_taken = run;
            continue;
        }
        char why[512] = "";
        if (status && !strcmp(status, "complete")) {
            if (!same_params(x, db, run, why, sizeof why)) {
                fprintf(stderr, "netsim sweep: %s: run %d was recorded with other parameters (%s); choose another "
                        "-o\n", x->out, run, why);
                rc = 2;
                break;
            }
            x->selected[run] = 0;
            ++*kept;
            continue;
        }
        sqlite3_reset(st);
        if (delete_run(db, run))
            goto dberr;
    }
    sqlite3_finalize(st);
    st = NULL;
    if (resume && sql_exec(db, rc ? "ROLLBACK" : "COMMIT", 0))
        goto dberr;
    if (taken && !rc) {
        fprintf(stderr, "netsim sweep: %s already holds %d of the runs of this sweep (the first: run %d); --resume "
                "completes that sweep, or choose another -o\n", x->out, taken, first_taken);
        rc = 2;
    }
    goto out;
dberr:
    fprintf(stderr, "netsim sweep: %s: %s\n", x->out, sqlite3_errmsg(db));
    rc = 1;
out:
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rc;
}

/*
 * The temporary databases an earlier sweep of OUT left when its parent was
 * killed (orphans.h; its workers died with it). A selected run that one
 * holds complete, with this sweep's scenario name (a copy of the file under
 * another name has the same version), label, seed, replication, version
 * and parameters, is copied into OUT with --resume, as that parent would have,
 * and kept (unselected); without --resume it counts as present in OUT
 * (exit 2, as in sweep_prepare_output). Everything else they hold is removed:
 * those runs run again, or OUT holds them complete already. Runs outside
 * this sweep's slice (wanted: --shard, --only) are left alone. Returns 0,
 * or the exit status with the message printed.
 */
/* PRAGMA quick_check: a file whose run row reads may still be damaged
 * further in (a machine's crash, a disk's fault), and its copy then fails;
 * its first problem in why. */
static bool intact(sqlite3 *db, char *why, size_t n)
{
    sqlite3_stmt *st = NULL;
    bool ok = false;
    if (sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        ok = t && !strcmp((const char *)t, "ok");
        snprintf(why, n, "%s", t ? (const char *)t : "no answer");
        for (char *c = why; *c; c++)    /* one line: "*** in database main ***\nPage 6: ..." */
            if (*c == '\n')
                *c = ' ';
    } else {
        snprintf(why, n, "%s", sqlite3_errmsg(db));
    }
    sqlite3_finalize(st);
    return ok;
}

int sweep_take_leftovers(struct sweep_ctx *x, const char *wanted, bool resume, int *kept)
{
    struct orphan *list;
    struct rec *dst = NULL;
    int n = orphans_find(x->out, ORPHAN_SWEEP, &list), taken = 0, first = 0, rc = 0;
    char *err = NULL;

    for (int i = 0; i < n && !rc; i++) {
        struct orphan *o = &list[i];
        struct orphan_run r;
        char why[1024] = "";
        sqlite3 *db = NULL;
        if (o->run < 1 || o->run > x->nruns || !wanted[o->run])
            continue;
        bool same = x->selected[o->run] && orphan_read_run(o->path, o->run, &r, why, sizeof why) > 0 && !strcmp(r.status, "complete") &&
                    !strcmp(r.scenario, x->stem) && !strcmp(r.hash, x->hash) && !strcmp(r.label, sweep_label(x->sw, o->run)) &&
                    r.seed == sweep_seed(x->sw, o->run) && r.rep == sweep_rep(x->sw, o->run) &&
                    sqlite3_open_v2(o->path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
                    same_params(x, db, o->run, why, sizeof why);
        /* a damaged one is no run to keep: it was counted as one, and its
         * copy failed every --resume that a plain sweep advised */
        if (same && !intact(db, why, sizeof why)) {
            fprintf(stderr, "netsim sweep: run %d in %s, which an earlier sweep left, is damaged (%s); removed: "
                    "the run runs again\n", o->run, o->path, why);
            same = false;
        }
        sqlite3_close(db);
        if (!same) {
            orphan_remove(o);
        } else if (!resume) {
            if (!taken++)
                first = o->run;
        } else if (!dst && !(dst = rec_open(x->out, &err))) {
            fprintf(stderr, "netsim sweep: %s\n", err ? err : "cannot open the results database");
            rc = 1;
        } else if (rec_copy_run(dst, o->path, o->run, o->run) < 0) {
            fprintf(stderr, "netsim sweep: %s\n", rec_errmsg(dst));
            rc = 1;
        } else {
            if (!x->quiet)
                fprintf(stderr, "sweep: run %d: complete in %s, which an earlier sweep left; kept\n", o->run,
                        o->path);
            orphan_remove(o);
            x->selected[o->run] = 0;
            ++*kept;
        }
    }
    if (taken && !rc) {
        fprintf(stderr, "netsim sweep: an earlier sweep of %s left %d of the runs of this sweep complete beside it "
                "(the first: run %d, %s.run%d.*.tmp); --resume completes that sweep, or choose another -o\n",
                x->out, taken, first, x->out, first);
        rc = 2;
    }
    free(err);
    rec_close(dst);
    orphans_free(list, n > 0 ? n : 0);
    return rc;
}
