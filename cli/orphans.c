/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * orphans.c - worker processes that die with their parent, and the side
 * files of a results database that outlive the process that made them
 * (orphans.h).
 */
#include "cli/orphans.h"
#include "sim/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

void orphans_die_with_parent(pid_t parent)
{
    /* The parent may have died between fork() and prctl(): then the
     * signal never comes, and getppid() shows the new parent. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        raise(SIGKILL);
}

int orphans_create(const char *tmpl, int suffixlen, char **path)
{
    /* Between mkstemps() and flock() another process may take the new,
     * empty file for an orphan and remove it; flock() then waits for it,
     * and the name no longer leads to this file: try another name. */
    for (int tries = 0; tries < 100; tries++) {
        char *p = xstrdup(tmpl);
        struct stat a, b;
        int fd;

        fd = mkostemps(p, suffixlen, O_CLOEXEC);
        if (fd < 0) {
            int e = errno;
            free(p);
            errno = e;
            return -1;
        }
        if (flock(fd, LOCK_EX) == 0 && fstat(fd, &a) == 0 && stat(p, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
            /* A results database like any other, not mkstemps' 0600. */
            mode_t mask = umask(0);
            umask(mask);
            fchmod(fd, 0666 & ~mask);
            *path = p;
            return fd;
        }
        close(fd);
        free(p);
    }
    errno = EEXIST;
    return -1;
}

/* ---- names ------------------------------------------------------------- */

/* mkstemps' six characters. */
static bool six(const char *s)
{
    for (int i = 0; i < 6; i++)
        if (!isalnum((unsigned char)s[i]))
            return false;
    return true;
}

/*
 * Does name (in OUT's directory; base is OUT's file name) name a side file
 * of this kind? Returns the length of the side file's name within it (so
 * that "-journal" or ".log" may follow), 0 if it is none; *run gets N.
 */
static size_t side_len(const char *name, const char *base, enum orphan_kind kind, int *run)
{
    size_t bl = strlen(base);
    const char *p = name + bl;

    if (strncmp(name, base, bl) != 0)
        return 0;
    if (kind == ORPHAN_PENDING)
        return !strncmp(p, ".pending.", 9) && six(p + 9) ? bl + 15 : 0;
    if (strncmp(p, ".run", 4) != 0 || !isdigit((unsigned char)p[4]))
        return 0;
    p += 4;
    long n = 0;
    while (isdigit((unsigned char)*p) && n < 100000000)
        n = n * 10 + (*p++ - '0');
    if (*p != '.' || !six(p + 1) || strncmp(p + 7, ".tmp", 4) != 0)
        return 0;
    *run = (int)n;
    return (size_t)(p + 11 - name);
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const struct orphan *)a)->path, ((const struct orphan *)b)->path);
}

int orphans_find(const char *out, enum orphan_kind kind, struct orphan **list)
{
    const char *slash = strrchr(out, '/');
    const char *base = slash ? slash + 1 : out;
    int dirlen = slash ? (int)(slash - out + 1) : 0;
    char *dir = slash ? xstrndup(out, (size_t)dirlen) : xstrdup(".");
    struct orphan *v = NULL;
    struct dirent *e;
    size_t n = 0, cap = 0;
    DIR *d;

    *list = NULL;
    d = opendir(dir);
    free(dir);
    if (!d)
        return errno == ENOENT ? 0 : -1;
    while ((e = readdir(d)) != NULL) {
        int run = 0;
        size_t len = side_len(e->d_name, base, kind, &run);
        const char *rest = e->d_name + len;
        char path[4096];
        struct stat sb;
        int fd;

        if (!len)
            continue;
        snprintf(path, sizeof path, "%.*s%s", dirlen, out, e->d_name);
        if (*rest) {
            /* A journal or log whose database is gone goes too. */
            if (!strcmp(rest, "-journal") || (kind == ORPHAN_SWEEP && !strcmp(rest, ".log"))) {
                path[strlen(path) - strlen(rest)] = 0;
                if (stat(path, &sb) != 0 && errno == ENOENT) {
                    snprintf(path, sizeof path, "%.*s%s", dirlen, out, e->d_name);
                    unlink(path);
                }
            }
            continue;
        }
        fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd < 0)
            continue;
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            close(fd);           /* its maker is alive */
            continue;
        }
        v = xgrow(v, sizeof *v, n, &cap, 8);
        v[n].path = xstrdup(path);
        v[n].fd = fd;
        v[n].run = run;
        v[n].kind = kind;
        n++;
    }
    closedir(d);
    if (n)
        qsort(v, n, sizeof *v, by_path);
    *list = v;
    return (int)n;
}

void orphan_remove(struct orphan *o)
{
    char other[4200];

    unlink(o->path);
    snprintf(other, sizeof other, "%s-journal", o->path);
    unlink(other);
    if (o->kind == ORPHAN_SWEEP) {
        snprintf(other, sizeof other, "%s.log", o->path);
        unlink(other);
    }
    if (o->fd >= 0)
        close(o->fd);
    o->fd = -1;
}

void orphans_free(struct orphan *list, int n)
{
    for (int i = 0; i < n; i++) {
        if (list[i].fd >= 0)
            close(list[i].fd);
        free(list[i].path);
    }
    free(list);
}

/* ---- reading one ------------------------------------------------------- */

/*
 * Opens a side file read-write (a hot journal, left by a maker killed in
 * mid-transaction, is rolled back on first read) and tells whether it has
 * a run table. 1 yes, 0 no, -1 error; *db is open unless -1.
 */
static int open_side(const char *path, sqlite3 **db, char *why, size_t n)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if (sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        snprintf(why, n, "%s: %s", path, *db ? sqlite3_errmsg(*db) : "out of memory");
        sqlite3_close(*db);
        return -1;
    }
    sqlite3_busy_timeout(*db, 1000);
    rc = sqlite3_prepare_v2(*db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'run'", -1,
                            &st, NULL);
    if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        rc = sqlite3_column_int(st, 0) > 0;
        sqlite3_finalize(st);
        return rc;
    }
    snprintf(why, n, "%s: %s", path, sqlite3_errmsg(*db));
    sqlite3_finalize(st);
    sqlite3_close(*db);
    return -1;
}

static void copy_text(char *dst, size_t n, const unsigned char *s)
{
    snprintf(dst, n, "%s", s ? (const char *)s : "");
}

int orphan_read_run(const char *path, int64_t id, struct orphan_run *out, char *why, size_t n)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int rc = open_side(path, &db, why, n);

    if (rc <= 0) {
        if (rc == 0)
            sqlite3_close(db);
        return rc;
    }
    rc = -1;
    if (sqlite3_prepare_v2(db, "SELECT status, variant_label, scenario_hash, seed, rep, scenario FROM run WHERE id = ?1", -1,
                           &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, id);
        int s = sqlite3_step(st);
        if (s == SQLITE_ROW) {
            copy_text(out->status, sizeof out->status, sqlite3_column_text(st, 0));
            copy_text(out->label, sizeof out->label, sqlite3_column_text(st, 1));
            copy_text(out->hash, sizeof out->hash, sqlite3_column_text(st, 2));
            out->seed = (uint64_t)sqlite3_column_int64(st, 3);
            out->rep = sqlite3_column_int(st, 4);
            copy_text(out->scenario, sizeof out->scenario, sqlite3_column_text(st, 5));
            rc = 1;
        } else if (s == SQLITE_DONE) {
            rc = 0;
        }
    }
    if (rc < 0)
        snprintf(why, n, "%s: %s", path, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rc;
}

int orphan_run_ids(const char *path, int64_t **ids, char *why, size_t n)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int rc = open_side(path, &db, why, n), count = 0, s;
    size_t cap = 0;

    *ids = NULL;
    if (rc <= 0) {
        if (rc == 0)
            sqlite3_close(db);
        return rc;
    }
    if (sqlite3_prepare_v2(db, "SELECT id FROM run ORDER BY id", -1, &st, NULL) != SQLITE_OK) {
        snprintf(why, n, "%s: %s", path, sqlite3_errmsg(db));
        sqlite3_close(db);
        return -1;
    }
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        *ids = xgrow(*ids, sizeof **ids, (size_t)count, &cap, 4);
        (*ids)[count++] = sqlite3_column_int64(st, 0);
    }
    if (s != SQLITE_DONE) {
        snprintf(why, n, "%s: %s", path, sqlite3_errmsg(db));
        free(*ids);
        *ids = NULL;
        count = -1;
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return count;
}

int orphan_read_param(const char *path, int64_t id, const char *key, char *out, size_t n)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char why[256];
    int rc = open_side(path, &db, why, sizeof why);

    if (rc <= 0) {
        if (rc == 0)
            sqlite3_close(db);
        return rc;
    }
    rc = -1;
    if (sqlite3_prepare_v2(db, "SELECT value FROM param WHERE run_id = ?1 AND key = ?2", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
        int s = sqlite3_step(st);
        if (s == SQLITE_ROW)
            copy_text(out, n, sqlite3_column_text(st, 0));
        rc = s == SQLITE_ROW ? 1 : s == SQLITE_DONE ? 0 : -1;
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rc;
}
