/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_record.c - `netsim run`'s way into its results database: a claim
 * beside it, a scratch database in memory, one short copy (run_record.h).
 */
#include "cli/run_record.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/orphans.h"
#include "sim/progress.h"
#include "sim/xalloc.h"
#include "sinks/record.h"
#include "cli/runner.h"

struct run_record {
    char *out;
    struct rec *dst;             /* OUT */
    struct rec *scratch;
    struct rec *claim;           /* open until delivery */
    char *claim_path;
    int claim_fd;                /* holds the claim's lock until exit */
    int results_fd;              /* the lock of the results that replaced it */
    char who[512];               /* "the netsim run (pid P on H) that held CLAIM" */
    char claim_error[1024];
    bool delivered;
    bool progress;               /* a progress line over a long copy */
    struct progress line;
};

/* The parameter by which a claim names where its results were kept when
 * there was no room beside OUT. */
#define KEPT_IN "label.results_kept_in"

/*
 * Copies the runs of the side file path into OUT; for a claim that names
 * its results elsewhere (KEPT_IN) and they are still there, those instead,
 * which are then removed. Returns 0, or -1 with the reason in why.
 */
static int take_file(struct run_record *rr, const char *path, char *why, size_t n)
{
    int64_t *ids;
    int nids = orphan_run_ids(path, &ids, why, n), rc = nids < 0 ? -1 : 0;

    for (int k = 0; k < nids && rc == 0; k++) {
        char kept[4096];
        const char *from = path;
        int64_t *kept_ids = NULL, *which = &ids[k];
        int nkept = 1;

        if (orphan_read_param(path, ids[k], KEPT_IN, kept, sizeof kept) > 0 && access(kept, F_OK) == 0 &&
            (nkept = orphan_run_ids(kept, &kept_ids, why, n)) > 0) {
            from = kept;
            which = kept_ids;
        } else {
            nkept = 1;
        }
        for (int j = 0; j < nkept && rc == 0; j++) {
            int64_t id = rec_import_run(rr->dst, from, which[j]);
            if (id < 0) {
                snprintf(why, n, "%s", rec_errmsg(rr->dst));
                rc = -1;
            } else if (id > 0) {
                fprintf(stderr, "netsim run: %s: recorded run %lld, which an earlier netsim run left in %s\n",
                        rr->out, (long long)id, from);
            }
        }
        if (rc == 0 && from != path)
            unlink(kept);
        free(kept_ids);
    }
    free(ids);
    return rc;
}

/*
 * Step 1: the side files an earlier `netsim run` of OUT left, copied in
 * and removed. One that cannot be copied yet (OUT still full or locked)
 * stays for the next start.
 */
static void take_orphans(struct run_record *rr)
{
    struct orphan *list;
    int n = orphans_find(rr->out, ORPHAN_PENDING, &list);

    if (n < 0) {
        fprintf(stderr, "netsim run: looking for runs left beside %s: %s\n", rr->out, strerror(errno));
        return;
    }
    for (int i = 0; i < n; i++) {
        char why[1024] = "";
        if (take_file(rr, list[i].path, why, sizeof why) == 0)
            orphan_remove(&list[i]);
        else
            fprintf(stderr, "netsim run: %s: kept for the next start: %s\n", list[i].path, why);
    }
    orphans_free(list, n);
}

struct run_record *run_record_open(const char *out, struct run_opts *o)
{
    struct run_record *rr = xcalloc(1, sizeof *rr);
    char *err = NULL, *tmpl = NULL, host[256] = "";

    rr->out = xstrdup(out);
    rr->claim_fd = rr->results_fd = -1;
    rr->progress = o->progress;
    rr->dst = rec_open(out, &err);
    if (!rr->dst) {
        fprintf(stderr, "netsim run: %s\n", err ? err : "cannot open the results database");
        goto fail;
    }
    take_orphans(rr);
    rr->scratch = rec_open_scratch(&err);
    if (!rr->scratch) {
        fprintf(stderr, "netsim run: %s\n", err ? err : "out of memory");
        goto fail;
    }
    tmpl = xasprintf("%s.pending.XXXXXX", out);
    rr->claim_fd = orphans_create(tmpl, 0, &rr->claim_path);
    if (rr->claim_fd < 0) {
        fprintf(stderr, "netsim run: creating %s: %s; nothing was run\n", tmpl, strerror(errno));
        goto fail;
    }
    rr->claim = rec_open_claim(rr->claim_path, &err);
    if (!rr->claim) {
        fprintf(stderr, "netsim run: %s; nothing was run\n", err ? err : "cannot create the claim");
        goto fail;
    }
    /* The claim file's name in the error keeps two claims that failed in
     * the same second apart for rec_import_run. */
    gethostname(host, sizeof host - 1);
    snprintf(rr->who, sizeof rr->who, "the netsim run (pid %ld on %s) that held %s", (long)getpid(), host,
             rr->claim_path);
    snprintf(rr->claim_error, sizeof rr->claim_error, "not recorded in %s: %s ended before it could record the run",
             out, rr->who);
    free(tmpl);
    o->claim = rr->claim;
    o->claim_error = rr->claim_error;
    o->deliver = run_record_deliver;
    o->deliver_arg = rr;
    return rr;

fail:
    free(err);
    free(tmpl);
    run_record_close(rr);
    return NULL;
}

struct rec *run_record_scratch(struct run_record *rr)
{
    return rr->scratch;
}

/* Step 5: the results in place of the claim, in a new side file renamed
 * over it, so that at every moment the run is beside OUT once. */
static int keep_beside(struct run_record *rr)
{
    char *tmpl = NULL, *path = NULL;
    int fd;

    if (asprintf(&tmpl, "%s.pending.XXXXXX", rr->out) < 0)
        return -1;
    fd = orphans_create(tmpl, 0, &path);
    free(tmpl);
    if (fd < 0)
        return -1;
    if (rec_save_as(rr->scratch, path) != 0 || rename(path, rr->claim_path) != 0) {
        unlink(path);
        close(fd);
        free(path);
        return -1;
    }
    free(path);
    rr->results_fd = fd;
    return 0;
}

/* Step 5, no room beside OUT: $TMPDIR. Returns the path, or NULL. */
static char *keep_in_tmpdir(struct run_record *rr)
{
    const char *dir = getenv("TMPDIR"), *base = strrchr(rr->out, '/');
    char *path = NULL;
    int fd;

    if (asprintf(&path, "%s/%s.pending.XXXXXX", dir && *dir ? dir : "/tmp", base ? base + 1 : rr->out) < 0)
        return NULL;
    fd = mkstemp(path);
    if (fd < 0 || rec_save_as(rr->scratch, path) != 0) {
        if (fd >= 0) {
            close(fd);
            unlink(path);
        }
        free(path);
        return NULL;
    }
    close(fd);
    return path;
}

static int show_copy(void *arg)
{
    struct run_record *rr = arg;
    if (progress_due(&rr->line))
        progress_show(&rr->line, "  writing the run into %s: %.0f s   ", rr->out, rr->line.last - rr->line.t0);
    return 0;
}

int64_t run_record_deliver(void *arg, int64_t run_id, char *msg, size_t n)
{
    struct run_record *rr = arg;
    char why[700];
    char *elsewhere;

    int64_t id = -1;
    rr->delivered = true;
    if (run_id > 0) {
        progress_begin(&rr->line, rr->progress);
        rec_on_progress(rr->dst, rr->progress ? show_copy : NULL, rr);
        id = rec_append_run(rr->dst, rr->scratch, run_id);
        rec_on_progress(rr->dst, NULL, NULL);
        progress_end(&rr->line);
    }
    if (id > 0) {
        rec_close(rr->claim);
        rr->claim = NULL;
        unlink(rr->claim_path);
        return id;
    }
    snprintf(why, sizeof why, "%s", rec_errmsg(run_id > 0 ? rr->dst : rr->scratch));
    fprintf(stderr, "netsim run: %s\n", why);
    rec_close(rr->claim);
    rr->claim = NULL;
    if (run_id > 0 && keep_beside(rr) == 0) {
        snprintf(msg, n, "not recorded in %s (%s); the results are kept in %s, which the next `netsim run -o %s` "
                 "copies in", rr->out, why, rr->claim_path, rr->out);
        return -1;
    }
    elsewhere = run_id > 0 ? keep_in_tmpdir(rr) : NULL;
    char error[4096];
    if (elsewhere)
        snprintf(error, sizeof error, "not recorded by %s: %s; the results were kept in %s", rr->who, why,
                 elsewhere);
    else
        snprintf(error, sizeof error, "not recorded by %s: %s; the results are lost", rr->who, why);
    /* The claim says what happened; if even that cannot be written it
     * keeps saying that the run ended before it was recorded. */
    char *err = NULL;
    struct rec *claim = rec_open_claim(rr->claim_path, &err);
    /* A new file: its run is run 1. */
    bool noted = claim && rec_note_run(claim, 1, error, elsewhere ? KEPT_IN : NULL, elsewhere) == 0;
    rec_close(claim);
    free(err);
    if (elsewhere && noted)
        snprintf(msg, n, "not recorded in %s (%s); no room beside it: the results are kept in %s, which the next "
                 "`netsim run -o %s` copies in (%s says where they are)", rr->out, why, elsewhere, rr->out,
                 rr->claim_path);
    else if (elsewhere)
        snprintf(msg, n, "not recorded in %s (%s); no room beside it: the results are kept in %s; %s notes the run "
                 "as failed for the next `netsim run -o %s`", rr->out, why, elsewhere, rr->claim_path, rr->out);
    else
        snprintf(msg, n, "not recorded in %s (%s); the results are lost; %s notes the run as failed%s for the next "
                 "`netsim run -o %s`",
                 rr->out, why, rr->claim_path, noted ? ", with this reason," : "", rr->out);
    free(elsewhere);
    return -1;
}

void run_record_close(struct run_record *rr)
{
    if (!rr)
        return;
    if (rr->claim_path && !rr->delivered) {
        /* No run was started: there is nothing to claim. */
        rec_close(rr->claim);
        rr->claim = NULL;
        unlink(rr->claim_path);
        char journal[4200];
        snprintf(journal, sizeof journal, "%s-journal", rr->claim_path);
        unlink(journal);
    }
    rec_close(rr->claim);
    rec_close(rr->scratch);
    rec_close(rr->dst);
    if (rr->claim_fd >= 0)
        close(rr->claim_fd);
    if (rr->results_fd >= 0)
        close(rr->results_fd);
    free(rr->claim_path);
    free(rr->out);
    free(rr);
}
