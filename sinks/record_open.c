/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record_open.c - opening a results database (record.h): the file and its
 * directories, the sync level by kind of file, the schema checked or
 * written, each statement prepared once, when first used (rec_st).
 *
 * Every insert uses a statement prepared here: interval and series rows
 * are written many times per run, and re-parsing SQL for each would cost
 * more than the insert itself.
 */
#include "sinks/record_impl.h"
#include "sim/xalloc.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Another process holding the file (a reader in `merge`, another `netsim
 * run` copying its run in) is waited for this long before giving up.
 * NETSIM_BUSY_TIMEOUT_MS overrides it, so that tests can make a lock
 * outlast it in well under a second. */
#define REC_BUSY_TIMEOUT_MS 10000

static const char *const stmt_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_RUN_INSERT] =
        "INSERT INTO run(id, scenario, variant_label, seed, rep, started_at, wall_s,"
        " events, status, error, scenario_hash, sim_s, hostname)"
        " VALUES(?8, ?1, ?2, ?3, ?4, ?5, NULL, NULL, 'running', NULL, ?6, NULL, ?7)",
    [ST_RUN_END] =
        "UPDATE run SET status = ?1, wall_s = ?2, events = ?3, sim_s = ?4, error = ?5"
        " WHERE id = ?6",
    [ST_PARAM] = "INSERT INTO param(run_id, key, value) VALUES(?1, ?2, ?3)",
    [ST_INTERVAL] =
        "INSERT INTO interval(run_id, flow, t_start, t_end, bytes, bits_per_s)"
        " VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
    [ST_SERIES] = "INSERT INTO series(run_id, name, t, value) VALUES(?1, ?2, ?3, ?4)",
    [ST_COUNTER] = "INSERT INTO counter(run_id, name, value, is_drop) VALUES(?1, ?2, ?3, ?4)",
    [ST_PROFILE] =
        "INSERT INTO profile(run_id, host, cpu, symbol, cpu_ns, calls)"
        " VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
    [ST_MESSAGE] =
        "INSERT INTO message(run_id, flow, kind, id, size, t_start, t_end, fct, ideal, rtos)"
        " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
};

int rec_busy_timeout_ms(void)
{
    const char *v = getenv("NETSIM_BUSY_TIMEOUT_MS");
    char *end;
    long ms;

    if (!v || !*v)
        return REC_BUSY_TIMEOUT_MS;
    errno = 0;
    ms = strtol(v, &end, 10);
    if (*end || errno || ms < 0 || ms > 3600000)
        return REC_BUSY_TIMEOUT_MS;
    return (int)ms;
}

/* ------------------------------------------------------------------ */
/* Opening                                                              */

/* mkdir -p for the directory part of path. Returns 0, or -1 with errno set
 * and the failing directory left in dir_out (malloc'ed). */
static int mkdir_parents(const char *path, char **dir_out)
{
    char *buf = xstrdup(path);
    char *p;

    *dir_out = NULL;
    for (p = buf + 1; *p; p++) {
        if (*p != '/' || p[-1] == '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
            int e = errno;
            *dir_out = buf;
            errno = e;
            return -1;
        }
        *p = '/';
    }
    free(buf);
    return 0;
}

/* Statements are prepared when first used: a claim writes one run row
 * and a results file takes copies, so preparing all twelve for every
 * file (the batch inserts have 193 parameters) was about a third of what
 * a short run's three databases cost to open. */
sqlite3_stmt *rec_st(struct rec *r, enum rec_stmt which)
{
    if (r->st[which])
        return r->st[which];
    char batch[64 + 22 * COUNTER_BATCH];
    const char *sql = stmt_sql[which];
    if (which == ST_COUNTERS) {
        int n = snprintf(batch, sizeof batch, "INSERT INTO counter(run_id, name, value, is_drop) VALUES");
        for (int k = 0; k < COUNTER_BATCH; k++)
            n += snprintf(batch + n, sizeof batch - (size_t)n, "%s(?1,?%d,?%d,?%d)", k ? "," : "", 3 * k + 2, 3 * k + 3,
                          3 * k + 4);
        sql = batch;
    } else if (which == ST_PARAMS) {
        int n = snprintf(batch, sizeof batch, "INSERT INTO param(run_id, key, value) VALUES");
        for (int k = 0; k < PARAM_BATCH; k++)
            n += snprintf(batch + n, sizeof batch - (size_t)n, "%s(?1,?%d,?%d)", k ? "," : "", 2 * k + 2, 2 * k + 3);
        sql = batch;
    }
    if (sqlite3_prepare_v3(r->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &r->st[which], NULL) != SQLITE_OK)
        r->st[which] = NULL;
    return r->st[which];
}

void rec_free(struct rec *r)
{
    int i;

    for (i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(r->st[i]);
    sqlite3_close(r->db);
    free(r->names.p);
    free(r->pnames.p);
    free(r->path);
    free(r->name);
    free(r);
}

/* 2 GiB less 64 KiB: the largest block sqlite3_realloc gives is below
 * 0x7fffff00 bytes, and memdb's sizes are whole pages */
#define SCRATCH_MAX_BYTES 0x7fff0000LL

/* open_db's flags: a file of one run (no indexes, no key checks), one never
 * synced, an empty file (its schema written unsynced) */
enum { ONE_RUN = 1, UNSYNCED = 2, NEW_FILE = 4 };

/*
 * Opens the file path, or the URI uri if not NULL (path then only names it
 * in messages). The connection is opened with URI names on, so that ATTACH
 * can name a scratch database in memory (record_copy.c); "./" keeps a
 * plain path that happens to start with "file:" a path.
 */
static struct rec *open_db(const char *path, const char *uri, unsigned flags, char **err)
{
    bool one_run = flags & ONE_RUN;
    struct rec *r;
    char *dir = NULL;
    int rc;

    *err = NULL;
    r = xcalloc(1, sizeof *r);
    r->path = xstrdup(path);
    r->name = xasprintf("%s%s", !uri && !strncmp(path, "file:", 5) ? "./" : "", uri ? uri : path);
    r->run_id = -1;

    if (!uri && mkdir_parents(path, &dir) != 0) {
        int e = errno;
        *err = dir ? rec_open_err(path, "cannot create directory %s: %s", dir, strerror(e))
                   : rec_open_err(path, "out of memory");
        free(dir);
        goto fail;
    }

    rc = sqlite3_open_v2(r->name, &r->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI, NULL);
    if (rc != SQLITE_OK) {
        *err = rec_open_err(path, "%s", r->db ? sqlite3_errmsg(r->db) : sqlite3_errstr(rc));
        goto fail;
    }
    sqlite3_extended_result_codes(r->db, 1);
    sqlite3_busy_timeout(r->db, rec_busy_timeout_ms());
    /* Before the schema is written: creating it costs 4 syncs, a third of
     * a run's 12. An empty file holds no run until its first commit, whose
     * sync takes the schema's pages to disk with its own; lost before
     * that, to a crash of the machine, it was empty. */
    if ((flags & (UNSYNCED | NEW_FILE)) &&
        sqlite3_exec(r->db, "PRAGMA synchronous = OFF", NULL, NULL, NULL) != SQLITE_OK) {
        *err = rec_open_err(path, "%s", sqlite3_errmsg(r->db));
        goto fail;
    }
    /* A one-run database's rows reach the results only through a copy,
     * which checks the keys there; checking them here too doubles it. */
    if (sqlite3_exec(r->db, one_run ? "PRAGMA foreign_keys = OFF" : "PRAGMA foreign_keys = ON", NULL, NULL, NULL) !=
        SQLITE_OK) {
        *err = rec_open_err(path, "%s", sqlite3_errmsg(r->db));
        goto fail;
    }
    if ((*err = rec_check_schema(r->db, path, !one_run)) != NULL)
        goto fail;
    /* every commit of a run to any file but a claim is synced, whatever
     * this SQLite's compiled-in default */
    if (!(flags & UNSYNCED) && sqlite3_exec(r->db, "PRAGMA synchronous = FULL", NULL, NULL, NULL) != SQLITE_OK) {
        *err = rec_open_err(path, "%s", sqlite3_errmsg(r->db));
        goto fail;
    }

    /* the one statement an error path needs: prepared while all is well */
    if (!rec_st(r, ST_ROLLBACK)) {
        *err = rec_open_err(path, "%s", sqlite3_errmsg(r->db));
        goto fail;
    }
    return r;

fail:
    if (!*err)
        *err = rec_open_err(path, "out of memory");
    rec_free(r);
    return NULL;
}

const char *rec_not_a_file(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || S_ISREG(sb.st_mode))
        return NULL;
    return S_ISDIR(sb.st_mode) ? "a directory" : S_ISFIFO(sb.st_mode) ? "a pipe" : "a device";
}

static struct rec *open_file(const char *path, unsigned flags, char **err)
{
    struct stat sb;
    bool existed = stat(path, &sb) == 0;
    const char *what = rec_not_a_file(path);
    /* A device or a directory is no results file, and SQLite would make
     * its journal beside it (/dev/full-journal): refused before any. */
    if (what) {
        *err = rec_open_err(path, "not a regular file (%s): a results database is a file", what);
        return NULL;
    }
    /* empty: a new results file, or the one a sweep made for its worker */
    bool empty = !existed || (S_ISREG(sb.st_mode) && sb.st_size == 0);
    struct rec *r = open_db(path, NULL, flags | (empty ? NEW_FILE : 0), err);

    /* A file this call created but could not give a schema (a full disk)
     * would be refused by the next open as empty: leave nothing. */
    if (!r && !existed && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0) {
        char journal[4096];
        snprintf(journal, sizeof journal, "%s-journal", path);
        unlink(journal);
        unlink(path);
    }
    return r;
}

/* Is the file a WAL database? Bytes 18 and 19 of its header, its read and
 * write versions, are 2 in WAL mode. */
static bool wal_mode(const char *path)
{
    unsigned char h[20];
    FILE *f = fopen(path, "rb");
    bool wal = f && fread(h, 1, sizeof h, f) == sizeof h && h[18] == 2 && h[19] == 2;
    if (f)
        fclose(f);
    return wal;
}

bool rec_read_as_is(const char *path)
{
    char wal[4096], dir[4096];
    struct stat st;
    snprintf(wal, sizeof wal, "%s-wal", path);
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir] = 0;     /* "/x.db" is in "/" */
    else
        snprintf(dir, sizeof dir, ".");
    return wal_mode(path) && !(stat(wal, &st) == 0 && st.st_size > 0) && access(dir, W_OK) != 0 &&
           !strpbrk(path, "?#%");
}

static int probe(sqlite3 *db)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st) == SQLITE_ROW ? SQLITE_OK : sqlite3_errcode(db);
    sqlite3_finalize(st);
    return rc;
}

struct sqlite3 *rec_open_read(const char *path, char *why, size_t n)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
    if (rc == SQLITE_OK && (rc = probe(db)) == SQLITE_OK)
        return db;
    snprintf(why, n, "%s", db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    if ((rc & 0xff) != SQLITE_READONLY && (rc & 0xff) != SQLITE_CANTOPEN)
        return NULL;
    if (!wal_mode(path))
        return NULL;
    char wal[4096];
    struct stat st;
    snprintf(wal, sizeof wal, "%s-wal", path);
    if (stat(wal, &st) == 0 && st.st_size > 0) {
        snprintf(why, n, "a WAL database whose %s-wal holds rows not yet in it, in a directory that cannot be "
                 "written (SQLite makes %s-shm there to read them): open it once where it can be written, or copy it "
                 "with its -wal and -shm files", path, path);
        return NULL;
    }
    /* nothing waits in a -wal: the file alone is the database, read as
     * it is (immutable: no -shm, no lock); a name a URI would misread
     * keeps SQLite's first answer */
    if (!rec_read_as_is(path))
        return NULL;
    char *uri = sqlite3_mprintf("file:%s?immutable=1", path);
    db = NULL;
    rc = uri ? sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) : SQLITE_NOMEM;
    sqlite3_free(uri);
    if (rc == SQLITE_OK && probe(db) == SQLITE_OK)
        return db;
    sqlite3_close(db);
    return NULL;
}

struct rec *rec_open(const char *path, char **err) { return open_file(path, 0, err); }
struct rec *rec_open_one_run(const char *path, char **err) { return open_file(path, ONE_RUN, err); }
struct rec *rec_open_claim(const char *path, char **err) { return open_file(path, ONE_RUN | UNSYNCED, err); }

struct rec *rec_open_scratch(char **err)
{
    static unsigned n;
    char name[96];

    /* A leading '/' makes a memdb database visible to every connection of
     * the process, so the output's connection can ATTACH it. */
    snprintf(name, sizeof name, "file:/netsim-scratch-%ld-%u?vfs=memdb", (long)getpid(), n++);
    struct rec *r = open_db("(scratch database in memory)", name, ONE_RUN, err);
    /* memdb stops at 1 GiB by default. It grows by doubling its one
     * buffer, which SQLite's allocator gives below 2 GiB only: a limit
     * above that failed the first doubling past 2 GiB, near 1 GiB of rows,
     * whatever the limit said. This limit is the largest buffer there is
     * (rows stay in memory until they are copied out).
     * NETSIM_SCRATCH_LIMIT (bytes, K, M or G) lowers it, for tests. */
    sqlite3_int64 limit = SCRATCH_MAX_BYTES;
    const char *env = getenv("NETSIM_SCRATCH_LIMIT");
    if (env && *env) {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
        if (end != env && (!*end || (shift && !end[1])) && v && v <= (unsigned long long)SCRATCH_MAX_BYTES >> shift)
            limit = (sqlite3_int64)(v << shift);
    }
    if (r) {
        sqlite3_file_control(r->db, "main", SQLITE_FCNTL_SIZE_LIMIT, &limit);
        r->limit = (uint64_t)limit;
    }
    return r;
}
