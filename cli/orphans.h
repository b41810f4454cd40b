/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * orphans.h - what a killed netsim leaves behind, and how the next one
 * finds it: worker processes, which die with their parent, and the side
 * files of a results database OUT:
 *
 *   OUT.pending.XXXXXX        a `netsim run`'s claim on its run (a 'failed'
 *                             row saying it was not recorded), or the
 *                             results it could not copy into OUT
 *   OUT.runN.XXXXXX.tmp       a sweep worker's database for run N, with
 *   OUT.runN.XXXXXX.tmp.log   the worker's stderr
 *
 * The process that makes a side file holds an flock() on it for as long as
 * the file is its own; a forked worker inherits the descriptor, so the
 * lock lasts while either of them lives. A side file that another process
 * can lock was therefore left by one that is gone, and the process that
 * locks it may use it or remove it. flock() locks are apart from SQLite's
 * own fcntl() locks on the same file, so neither disturbs the other.
 */
#ifndef NETSIM_ORPHANS_H
#define NETSIM_ORPHANS_H

#include <stdint.h>
#include <sys/types.h>

/* In a worker right after fork(): it is killed (SIGKILL) when the parent
 * dies, and at once if the parent died already. */
void orphans_die_with_parent(pid_t parent);

/*
 * Creates a side file from tmpl (mkstemps: "XXXXXX" then suffixlen more
 * characters), locked. Returns the descriptor holding the lock, to be kept
 * open for as long as the file is the caller's, with the name in *path
 * (malloc'ed); -1 with errno set on failure.
 */
int orphans_create(const char *tmpl, int suffixlen, char **path);

enum orphan_kind {
    ORPHAN_PENDING,              /* OUT.pending.XXXXXX */
    ORPHAN_SWEEP,                /* OUT.runN.XXXXXX.tmp */
};

struct orphan {
    char *path;
    int fd;                      /* holds the lock */
    int run;                     /* ORPHAN_SWEEP: N */
    enum orphan_kind kind;
};

/*
 * The side files of OUT of that kind whose maker is gone, sorted by name,
 * each now locked by the caller. Journals and sweep logs whose database is
 * gone are removed on the way. Returns how many (the array in *list, to be
 * freed with orphans_free), or -1 with errno set when OUT's directory
 * cannot be read (none if it does not exist).
 */
int orphans_find(const char *out, enum orphan_kind kind, struct orphan **list);

/* Removes the side file, its journal and (sweep) its log, and unlocks it. */
void orphan_remove(struct orphan *o);

/* Unlocks what is left and frees the array. */
void orphans_free(struct orphan *list, int n);

/* The row of run id in a side file: its columns as in record.h. */
struct orphan_run {
    char scenario[512];
    char status[16];
    char label[512];
    char hash[32];
    uint64_t seed;
    int rep;
};

/*
 * Reads run id from the side file. Returns 1 found, 0 when the file holds
 * no such run (or no results schema at all: a maker killed while creating
 * it), -1 on an SQLite error (message in why).
 */
int orphan_read_run(const char *path, int64_t id, struct orphan_run *out, char *why, size_t n);

/* The run ids in a side file, ascending, into *ids (malloc'ed). Returns
 * how many (0 also when it has no results schema), or -1 as above. */
int orphan_run_ids(const char *path, int64_t **ids, char *why, size_t n);

/* The value of parameter key of run id in a side file: 1 found (in out),
 * 0 not, -1 on an error. */
int orphan_read_param(const char *path, int64_t id, const char *key, char *out, size_t n);

#endif
